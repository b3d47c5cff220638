"""``s3://`` URLs for real (issue 36): moto's S3 server started here as a process on
127.0.0.1, an archive put in a bucket, and ``tarot validate`` and ``tarot analyze`` on
``s3://`` URLs (a file, a folder, a pattern), on this machine and with ``--scheduler
local:2``: the output of the same files named by their paths, byte for byte but for
their names.

Skipped, saying so, when ``moto[server]``, ``s3fs`` or the dask extra are not installed
(none is in CI's install: ``pip install 'moto[server]' s3fs`` to run it; about 30 s)."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import random
import signal
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_runs import Ran, run_exe
from pg_server import free_port
from processes import wait_for

from tarotnotation.formats import json as tarot_json
from tarotnotation.notation.writer import dumps_bytes as tarot_dumps
from tarotnotation.simulate import random_deal

_MISSING = [name for name in ("moto", "s3fs", "boto3", "distributed")
            if importlib.util.find_spec(name) is None]
pytestmark = [pytest.mark.process, pytest.mark.skipif(
    bool(_MISSING), reason=f"{', '.join(_MISSING)} not installed: pip install 'moto[server]'"
    " s3fs (and the dask extra)")]

MOTO = Path(sys.executable).with_name("moto_server")
BUCKET = "club-archive"
#: Each deal's budget in the analyses compared (about 0.1 s of one core a deal).
BUDGET = "600000"


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2):
            return True
    except OSError:
        return False


@pytest.fixture
def s3(tmp_path: Path) -> Iterator[dict[str, str]]:
    """Moto's S3 server on 127.0.0.1, with an empty bucket: the environment that points
    the commands (and their workers) at it; the server killed when the test ends."""
    port = free_port()
    endpoint = f"http://127.0.0.1:{port}"
    with open(tmp_path / "moto.log", "wb") as log:
        server = subprocess.Popen([str(MOTO), "-H", "127.0.0.1", "-p", str(port)],
                                  stdout=log, stderr=log, start_new_session=True)
    try:
        wait_for(lambda: _answers(endpoint), 60)
        env = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
               "AWS_DEFAULT_REGION": "us-east-1", "FSSPEC_S3_ENDPOINT_URL": endpoint}
        _client(env).create_bucket(Bucket=BUCKET)
        yield env
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGKILL)
        server.wait(timeout=30)


def _client(env: dict[str, str]) -> Any:
    boto3: Any = importlib.import_module("boto3")  # (untyped; installed with moto)
    return boto3.client("s3", endpoint_url=env["FSSPEC_S3_ENDPOINT_URL"],
                        aws_access_key_id=env["AWS_ACCESS_KEY_ID"],
                        aws_secret_access_key=env["AWS_SECRET_ACCESS_KEY"],
                        region_name=env["AWS_DEFAULT_REGION"])


def _archive(folder: Path) -> dict[str, bytes]:
    """Files of an archive: over 2 MB of JSON Lines with a faulty line (cut in byte
    ranges), over 2 MB of the notation (cut at record starts), and a few deals to
    analyse."""
    rng = random.Random(36)
    deals = [random_deal(rng, 4) for _ in range(80)]
    lines = b"".join(tarot_json.dumps_bytes(d).replace(b"\n", b"") + b"\n" for d in deals)
    files = {"season/big.jsonl": lines * 8 + b'{"players": 4, "bad": 1}\n' + lines * 8,
             "season/cup/final.tarot": tarot_dumps(deals) * 40,
             "few.jsonl": lines[:lines.index(b"\n", lines.index(b"\n") + 1) + 1]}
    for name, data in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    return files


def _same(local: Ran, there: Ran, folder: Path) -> None:
    assert there.code == local.code
    assert there.out.replace(f"s3://{BUCKET}/", "") == local.out
    assert there.err.replace(f"s3://{BUCKET}/", "") == local.err.replace(f"{folder}/", "")


def test_validate_and_analyze_read_s3_urls_as_paths_here_and_on_workers(
        s3: dict[str, str], tmp_path: Path) -> None:
    data = tmp_path / "data"
    files = _archive(data)
    client = _client(s3)
    for name, body in files.items():
        client.put_object(Bucket=BUCKET, Key=name, Body=body)
    assert min(len(files["season/big.jsonl"]), len(files["season/cup/final.tarot"])) > 2 << 20
    url = f"s3://{BUCKET}/"
    for named in ("season/big.jsonl", "season/", "season/**/*.t*"):
        for args in (["validate"], ["validate", "-f", "jsonl"]):
            local = run_exe(*args, named, cwd=data)
            _same(local, run_exe(*args, url + named, env=s3, cwd=data), data)
            assert local.out
    args = ["validate", "-f", "jsonl"]  # (the workers read the byte ranges themselves)
    _same(run_exe(*args, "season", cwd=data),
          run_exe(*args, url + "season", "--scheduler", "local:2", env=s3, cwd=data), data)
    local = run_exe("analyze", "few.jsonl", "--budget", BUDGET, "-o",
                    str(tmp_path / "local.jsonl"), cwd=data)
    assert local.code == 0
    for there in ((), ("--scheduler", "local:2")):
        ran = run_exe("analyze", url + "few.jsonl", "--budget", BUDGET, "-o",
                      str(tmp_path / "there.jsonl"), *there, env=s3, cwd=data)
        assert ran.code == 0
        assert (tmp_path / "there.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()
