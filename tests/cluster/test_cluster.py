"""``--scheduler`` (issue 36): each command on a real Dask cluster, started here on
127.0.0.1 (a ``dask scheduler`` and two ``dask worker`` processes, or ``local:2``), gives
the local run's output byte for byte; a worker killed in the middle of an analysis
changes nothing; a lost scheduler stops the command (exit status 2), and ``--resume``
finishes it from the journal without analysing a finished deal again.

Skipped, saying so, when the ``dask`` extra is not installed; CI installs it and sets
``TAROT_REQUIRE_DASK=1`` (``.ci/run``), which makes the skip a failure. Every process a
test starts is killed at its end, whatever happened; the cluster the tests share (those
that neither kill nor change it), at the module's end."""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import random
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_runs import (
    FAULTY_EXAMPLES,
    ROOT,
    TAROT,
    Ran,
    on_a_terminal,
    plain_env,
    run_exe,
    run_forked,
)
from processes import wait_for

from tarotnotation.formats import json as tarot_json
from tarotnotation.notation.writer import dumps_bytes as tarot_dumps
from tarotnotation.simulate import random_deal

#: Whether the extra is installed (not imported here: the commands import it).
DASK = importlib.util.find_spec("distributed") is not None

if not DASK and os.environ.get("TAROT_REQUIRE_DASK"):  # pragma: no cover
    raise RuntimeError("TAROT_REQUIRE_DASK is set but dask[distributed] is not installed:"
                       " pip install -e '.[test,dask]'")

needs_dask = pytest.mark.skipif(not DASK, reason="the dask extra is not installed (pip install"
                                " -e '.[test,dask]'); CI sets TAROT_REQUIRE_DASK=1")
pytestmark = pytest.mark.process

DASK_CLI = Path(sys.executable).parent / "dask"
#: Each deal's budget in the analyses compared (about 0.1 s of one core a deal), and in
#: the ones stopped in the middle (about 0.4 s: long enough to stop them halfway on an
#: idle machine too).
BUDGET = "600000"
FAULT_BUDGET = "2000000"
#: Deals of the analyses stopped in the middle.
FAULT_DEALS = 12
#: The bytes of a part in the runs on a cluster (``cutting.CHUNK_BYTES`` there, 1 MB in a
#: real run): files of a few dozen deals are cut into byte ranges, parts at record starts
#: and chunks of standard input as files of megabytes are, at a 64th of the cost.
CUT = 16 << 10
#: The command as the tarot script runs it, with CHUNK_BYTES set to CUT before any module
#: takes it (tests/twins/test_parallel_bulk.py sets it so in its own process).
_CUT_RUN = ("import sys, tarotnotation.cutting as cutting;"
            " assert 'tarotnotation.archive' not in sys.modules;"
            f" cutting.CHUNK_BYTES = {CUT};"
            " from tarotnotation.cli.app import main; sys.argv[0] = 'tarot'; main()")


#: Dask's own watching of its processes, which the tests need not: the workers' profiler
#: (a sample every 10 ms), the GIL's monitor (every 1 ms), the event loop's tick (every
#: 20 ms). Without them an idle scheduler and two workers take a third of the CPU (0.38 s
#: in 20 s instead of 1.14 s), and start in 2.0 s of CPU instead of 2.7 s.
QUIET_DASK = {"DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED": "False",
              "DASK_DISTRIBUTED__ADMIN__SYSTEM_MONITOR__GIL__ENABLED": "False",
              "DASK_DISTRIBUTED__ADMIN__TICK__INTERVAL": "1s"}


class Cluster:
    """A scheduler and its workers, processes of this machine on 127.0.0.1."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.processes: list[subprocess.Popen[bytes]] = []
        self.address = ""
        self.scheduler: subprocess.Popen[bytes] | None = None
        self.workers: list[subprocess.Popen[bytes]] = []

    def _start(self, *args: str, hiding: Path | None = None) -> subprocess.Popen[bytes]:
        command = [str(DASK_CLI), *args]
        if hiding is not None:  # a process that sees an empty folder there
            command = ["unshare", "--mount", "--propagation", "private", "sh", "-c",
                       'mount -t tmpfs none "$0" && exec "$@"', str(hiding), *command]
        log = open(self.folder / f"dask-{len(self.processes)}.log", "wb")  # noqa: SIM115
        with log:
            started = subprocess.Popen(command, stdout=log, stderr=log, start_new_session=True,
                                       env={**os.environ, **QUIET_DASK})
        self.processes.append(started)
        return started

    def start(self, workers: int = 2, *extra: str, hiding: Path | None = None) -> Cluster:
        """The scheduler and ``workers`` workers (``extra``: more words for them;
        ``hiding``: a folder they see empty)."""
        file = self.folder / f"scheduler-{len(self.processes)}.json"
        self.scheduler = self._start("scheduler", "--host", "127.0.0.1", "--port", "0",
                                     "--no-dashboard", "--scheduler-file", str(file))
        wait_for(lambda: file.exists() and b"address" in file.read_bytes(), 60)
        self.address = json.loads(file.read_bytes())["address"]
        self.workers = [self._start("worker", self.address, "--nthreads", "1", "--no-nanny",
                                    "--host", "127.0.0.1", "--no-dashboard", *extra,
                                    hiding=hiding)
                        for _ in range(workers)]
        return self

    def kill(self, process: subprocess.Popen[bytes]) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)

    def close(self) -> None:
        for process in self.processes:
            self.kill(process)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """A scheduler and two workers shared by the tests that neither kill nor change them;
    all killed when the module's tests end."""
    running = Cluster(tmp_path_factory.mktemp("cluster"))
    try:
        yield running.start()
    finally:
        running.close()


@pytest.fixture
def own(tmp_path: Path) -> Iterator[Cluster]:
    """A scheduler and two workers of the test's own (it kills one); all killed when the
    test ends."""
    running = Cluster(tmp_path)
    try:
        yield running.start()
    finally:
        running.close()


@pytest.fixture
def stopped(tmp_path: Path) -> Iterator[Cluster]:
    """A cluster the test starts as it needs; all killed when the test ends."""
    running = Cluster(tmp_path)
    try:
        yield running
    finally:
        running.close()


@needs_dask
def test_a_worker_of_another_version_is_refused(stopped: Cluster, tmp_path: Path) -> None:
    older = tmp_path / "older.py"  # (run by the worker as it starts)
    older.write_text("import tarotnotation\ntarotnotation.__version__ = '0.0.9'\n")
    stopped.start(1, "--preload", str(older))
    ran = run_exe("validate", "examples/prise.tarot", "--scheduler", stopped.address)
    assert ran.code == 2
    assert "runs tarotnotation 0.0.9, this command 0.1.0: install the same version" in ran.err


def _unshare() -> bool:
    done = subprocess.run(["unshare", "--mount", "--propagation", "private", "true"],
                          capture_output=True, check=False)
    return done.returncode == 0


@needs_dask
def test_an_input_a_worker_cannot_see_is_refused(stopped: Cluster, tmp_path: Path) -> None:
    if shutil.which("unshare") is None or not _unshare():
        pytest.skip("a worker that cannot see a folder needs unshare --mount (root)")
    data = tmp_path / "data"
    data.mkdir()
    _deals(data / "deals.jsonl", 2, seed=7)
    stopped.start(1, hiding=data)
    ran = run_exe("validate", "data/deals.jsonl", "--scheduler", stopped.address,
                  cwd=tmp_path)
    assert ran.code == 2
    assert f"cannot read {data / 'deals.jsonl'}: every worker reads the inputs" in ran.err


def _deals(path: Path, n: int, seed: int) -> Path:
    """``n`` random deals as JSON Lines."""
    rng = random.Random(seed)
    lines = b"".join(tarot_json.dumps_bytes(random_deal(rng, 4)).replace(b"\n", b"") + b"\n"
                     for _ in range(n))
    path.write_bytes(lines)
    return path


def _same(local: Ran, there: Ran) -> None:
    assert (there.code, there.out) == (local.code, local.out)


def run_cut(*args: str, stdin: bytes | None = None, cwd: Path) -> Ran:
    """Run ``tarot ARGS`` in a process of its own as :func:`run_exe` does, its files cut
    into parts of :data:`CUT` bytes."""
    env = plain_env()
    done = subprocess.run([sys.executable, "-c", _CUT_RUN, *args], input=stdin,
                          capture_output=True, cwd=cwd, env=env, timeout=120, check=False)
    out, err = done.stdout.decode("utf-8"), done.stderr.decode("utf-8")
    assert "Traceback" not in err, err
    return Ran(done.returncode, out, err)


def _cut(path: Path, parts: int = 4) -> Path:
    """``path``, big enough to be cut into ``parts`` parts of CUT bytes at least (a .tarot
    file is cut from two parts' size on: ``cutting.tarot_parts``)."""
    assert path.stat().st_size > parts * CUT
    return path


def _analyze(*args: str, cwd: Path) -> Ran:
    return run_exe("analyze", *args, "--budget", BUDGET, cwd=cwd)


@needs_dask
def test_every_command_on_a_scheduler_and_two_workers_gives_the_local_output(
        cluster: Cluster, tmp_path: Path) -> None:
    # JSON Lines cut into byte ranges (of CUT bytes), as -j cuts it; a faulty file too.
    _cut(_deals(tmp_path / "season.jsonl", 48, seed=1))
    faulty = tmp_path / FAULTY_EXAMPLES[0].name
    faulty.write_bytes(FAULTY_EXAMPLES[0].read_bytes())
    inputs = ["season.jsonl", faulty.name]  # relative: resolved where the command runs
    there = ("--scheduler", cluster.address)
    for args in (["validate", *inputs], ["validate", *inputs, "-f", "jsonl"],
                 ["query", *inputs, "--where", "contract >= garde", "-f", "jsonl"],
                 ["stats", *inputs, "--by", "contract"]):
        _same(run_forked(*args, cwd=tmp_path), run_cut(*args, *there, cwd=tmp_path))
    few = _deals(tmp_path / "few.jsonl", 4, seed=2)
    local = run_forked("analyze", few.name, "-o", "local.tarot", "--budget", BUDGET,
                       cwd=tmp_path)
    ran = _analyze(few.name, "-o", "there.tarot", *there, cwd=tmp_path)
    assert (ran.code, ran.err.replace("there.tarot", "local.tarot")) == (local.code, local.err)
    assert (tmp_path / "there.tarot").read_bytes() == (tmp_path / "local.tarot").read_bytes()
    assert not list(tmp_path.glob("*.journal"))  # removed once the output is whole
    # on a terminal: the deals back and the time left (the bar in bytes of the file)
    code, _, seen = on_a_terminal("analyze", str(few), "-o", str(tmp_path / "tty.tarot"),
                                  "--budget", BUDGET, *there)
    assert code == 0
    assert b"deals analysed" in seen
    assert (tmp_path / "tty.tarot").read_bytes() == (tmp_path / "local.tarot").read_bytes()
    # --in-place, as locally
    for name in ("here.jsonl", "rewritten.jsonl"):
        (tmp_path / name).write_bytes(few.read_bytes())
    run_forked("analyze", "here.jsonl", "--in-place", "--budget", BUDGET, cwd=tmp_path)
    _analyze("rewritten.jsonl", "--in-place", *there, cwd=tmp_path)
    assert (tmp_path / "rewritten.jsonl").read_bytes() == (tmp_path / "here.jsonl").read_bytes()
    assert (tmp_path / "here.jsonl").read_bytes() != few.read_bytes()
    # (local:2, a cluster of this machine's own: the run that resumes in
    # test_the_scheduler_lost_stops_with_status_2_then_resume_finishes_without_redoing)


@needs_dask
def test_standard_input_through_a_pipe_goes_to_the_workers_in_parts_as_the_local_run(
        cluster: Cluster, tmp_path: Path) -> None:
    # JSON Lines (in chunks of CUT bytes) and a faulty line, then a file of the notation
    # (read by the command, in its place: checked and scanned), each piped in: the local
    # run's output, byte for byte.
    season = _cut(_deals(tmp_path / "season.jsonl", 48, seed=3)).read_bytes()
    middle = season.index(b"\n", len(season) // 2) + 1
    piped = season[:middle] + b'{"players": 4, "bad": 1}\n' + season[middle:]
    there = ("--scheduler", cluster.address)
    checked, scanned = ["validate", "-", "-f", "jsonl"], ["stats", "-", "--by", "contract"]
    for data, runs in ((piped, (["validate", "-"], checked, scanned,
                                ["query", "-", "--where", "contract >= garde", "-f", "jsonl"])),
                       (FAULTY_EXAMPLES[0].read_bytes(), (checked, scanned))):
        for args in runs:
            local = run_forked(*args, stdin=data, cwd=tmp_path)
            _same(local, run_cut(*args, *there, stdin=data, cwd=tmp_path))
            assert local.out



@needs_dask
def test_fsspec_urls_are_read_by_the_workers_as_the_local_run_reads_them(
        cluster: Cluster, tmp_path: Path) -> None:
    # file:// URLs through fsspec's local file system: JSON Lines (byte ranges of CUT
    # bytes), the text notation (parts at record starts; scanned here, as a file too big
    # to be sent back whole), a faulty file.
    big = _cut(_deals(tmp_path / "season.jsonl", 48, seed=4))
    rng = random.Random(4)
    notation = tmp_path / "season.tarot"
    notation.write_bytes(tarot_dumps([random_deal(rng, 4) for _ in range(80)]))
    _cut(notation, 3)
    faulty = tmp_path / FAULTY_EXAMPLES[0].name
    faulty.write_bytes(FAULTY_EXAMPLES[0].read_bytes())
    urls = [f"file://{p}" for p in (big, notation, faulty)]
    there = ("--scheduler", cluster.address)
    for args in (["validate", *urls], ["validate", *urls, "-f", "jsonl"],
                 ["query", *urls, "--where", "contract >= garde", "-f", "jsonl"],
                 ["stats", *urls, "--by", "contract"]):
        local = run_forked(*args, cwd=tmp_path)
        _same(local, run_cut(*args, *there, cwd=tmp_path))
        assert local.out
    few = _deals(tmp_path / "few.jsonl", 3, seed=5)
    local = run_forked("analyze", few.name, "-o", "local.tarot", "--budget", BUDGET,
                       cwd=tmp_path)
    ran = _analyze(f"file://{few}", "-o", "there.tarot", *there, cwd=tmp_path)
    assert ran.code == local.code == 0
    assert (tmp_path / "there.tarot").read_bytes() == (tmp_path / "local.tarot").read_bytes()


@needs_dask
def test_a_url_naming_a_folder_or_a_pattern_is_read_by_the_workers_as_locally(
        cluster: Cluster, tmp_path: Path) -> None:
    # a folder and a pattern named by file:// URLs: their files, in the local order
    # (a folder's by parts, a pattern's by text), read by the workers (the big one in
    # byte ranges of CUT bytes)
    for name, n in (("a/b/big.jsonl", 48), ("a-b.jsonl", 5), ("a/x.jsonl", 5),
                    ("z.jsonl", 5)):
        (tmp_path / "data" / name).parent.mkdir(parents=True, exist_ok=True)
        _deals(tmp_path / "data" / name, n, seed=len(name))
    _cut(tmp_path / "data" / "a/b/big.jsonl")
    there = ("--scheduler", cluster.address)
    for named in ("data", "data/**/*.jsonl"):
        for args in (["validate", "-f", "jsonl"],
                     ["query", "--where", "contract >= garde", "-f", "jsonl"]):
            local = run_forked(*args, named, cwd=tmp_path)
            ran = run_cut(*args, f"file://{tmp_path}/{named}", *there, cwd=tmp_path)
            assert ran.code == local.code
            assert ran.out.replace(f"file://{tmp_path}/", "") == local.out
            assert local.out


@needs_dask
def test_a_url_a_worker_cannot_read_is_refused(cluster: Cluster, tmp_path: Path) -> None:
    ran = run_exe("validate", f"file://{tmp_path}/none.jsonl", "--scheduler",
                  cluster.address, cwd=tmp_path)
    assert ran.code == 2
    assert f"cannot read file://{tmp_path}/none.jsonl: every worker reads the URLs" in ran.err


@pytest.fixture(scope="module")
def fault_deals(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, bytes]:
    """The deals of the analyses stopped in the middle, and their analysis by a local run
    (``-j 2``): computed once for the tests that compare theirs with it."""
    folder = tmp_path_factory.mktemp("fault")
    deals = _deals(folder / "deals.jsonl", FAULT_DEALS, seed=3)
    local = run_exe("analyze", deals.name, "--budget", FAULT_BUDGET, "-o", "local.tarot",
                    "-j", "2", cwd=folder)
    assert local.code == 0, local.err
    return deals.read_bytes(), (folder / "local.tarot").read_bytes()


def _journaled(journal: Path) -> int:
    """The deals a journal holds (its whole lines after the first)."""
    try:
        return max(0, journal.read_bytes().count(b"\n") - 1)
    except FileNotFoundError:
        return 0


def _running(args: list[str], cwd: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([str(TAROT), *args], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)


def _ended(process: subprocess.Popen[bytes]) -> Ran:
    try:
        out, err = process.communicate(timeout=240)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    return Ran(process.returncode, out.decode(), err.decode())


@needs_dask
def test_a_worker_killed_in_the_middle_of_an_analysis_changes_nothing(
        own: Cluster, fault_deals: tuple[bytes, bytes], tmp_path: Path) -> None:
    deals = tmp_path / "deals.jsonl"
    deals.write_bytes(fault_deals[0])
    args = ["analyze", deals.name, "--budget", FAULT_BUDGET, "-o"]
    run = _running([*args, "there.tarot", "--scheduler", own.address], tmp_path)
    try:
        wait_for(lambda: _journaled(tmp_path / "there.tarot.journal") >= 2, 120)
        assert run.poll() is None, "the analysis ended before a worker could be killed"
        own.kill(own.workers[0])
    finally:
        ran = _ended(run)
    assert ran.code == 0, ran.err
    assert (tmp_path / "there.tarot").read_bytes() == fault_deals[1]


@needs_dask
def test_the_scheduler_lost_stops_with_status_2_then_resume_finishes_without_redoing(
        own: Cluster, fault_deals: tuple[bytes, bytes], tmp_path: Path) -> None:
    deals = tmp_path / "deals.jsonl"
    deals.write_bytes(fault_deals[0])
    args = ["analyze", deals.name, "--budget", FAULT_BUDGET, "-o"]
    journal = tmp_path / "there.tarot.journal"
    run = _running([*args, "there.tarot", "--scheduler", own.address], tmp_path)
    try:
        wait_for(lambda: _journaled(journal) >= 2, 120)
        assert own.scheduler is not None
        own.kill(own.scheduler)
    finally:
        ran = _ended(run)
    assert ran.code == 2, ran.err
    assert f"the scheduler {own.address} was lost: the command stopped" in ran.err
    assert "Traceback" not in ran.err
    assert not (tmp_path / "there.tarot").exists()  # written whole or not at all
    kept = _journaled(journal)
    assert 2 <= kept < FAULT_DEALS
    resumed = run_exe(*args, "there.tarot", "--resume", "--scheduler", "local:2",
                      cwd=tmp_path)
    assert resumed.code == 0, resumed.err
    assert f"{kept} deals taken from the journal there.tarot.journal" in resumed.err
    assert (f"{FAULT_DEALS} deals written to there.tarot, {FAULT_DEALS - kept} analysed"
            in resumed.err)
    assert not journal.exists()
    assert (tmp_path / "there.tarot").read_bytes() == fault_deals[1]


def test_resume_needs_an_output_file(tmp_path: Path) -> None:
    deals = _deals(tmp_path / "deals.jsonl", 1, seed=5)
    for out in ([], ["-o", "-"]):
        ran = run_exe("analyze", str(deals), "--resume", *out)
        assert ran.code == 2
        assert "--resume needs an output file (-o OUT)" in ran.err


def test_the_journal_of_another_run_is_refused(tmp_path: Path) -> None:
    deals = _deals(tmp_path / "deals.jsonl", 1, seed=6)
    (tmp_path / "out.tarot.journal").write_bytes(b'{"journal": 1, "key": "another"}\n')
    ran = run_exe("analyze", deals.name, "--budget", "1000", "-o", "out.tarot", "--resume",
                  cwd=tmp_path)
    assert ran.code == 2
    assert "the journal of another run" in ran.err
    assert not (tmp_path / "out.tarot").exists()


def test_scheduler_with_jobs_is_refused() -> None:
    ran = run_exe("validate", "examples/prise.tarot", "-j", "2", "--scheduler", "local:2")
    assert ran.code == 2
    assert "--scheduler and --jobs cannot be given together" in ran.err


_WITHOUT_DASK = ("import sys; sys.modules['distributed'] = None;"
                 " from tarotnotation.cli.app import main; sys.argv[0] = 'tarot'; main()")


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "--scheduler needs Dask, which is not installed: pip install 'tarotnotation[dask]'"),
    ("fr", "--scheduler demande Dask, qui n'est pas installé\u00a0: pip install"
           " 'tarotnotation[dask]'")])
def test_without_the_extra_scheduler_says_how_to_install_it(lang: str, said: str) -> None:
    done = subprocess.run([sys.executable, "-c", _WITHOUT_DASK, "--lang", lang, "validate",
                           "examples/prise.tarot", "--scheduler", "local:2"], cwd=ROOT,
                          capture_output=True, timeout=120, check=False)
    assert done.returncode == 2
    assert said in done.stderr.decode()
    assert b"Traceback" not in done.stderr


def test_a_bad_scheduler_address_is_a_usage_error() -> None:
    ran = run_exe("stats", "examples/prise.tarot", "--scheduler", "10.0.0.5")
    assert ran.code == 2
    assert ("--scheduler 10.0.0.5: expected tcp://HOST:PORT, tls://HOST:PORT, local or"
            " local:N") in ran.err


@needs_dask
def test_an_unreachable_scheduler_is_said() -> None:
    ran = run_exe("validate", "examples/prise.tarot", "--scheduler", "tcp://127.0.0.1:9",
                  env={"DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "2s"})
    assert ran.code == 2
    assert "cannot reach the scheduler tcp://127.0.0.1:9" in ran.err


@needs_dask
def test_a_tls_scheduler_without_tls_settings_is_said() -> None:
    """Dask's client failed half-built (a TypeError, then a traceback at exit) before."""
    ran = run_exe("validate", "examples/prise.tarot", "--scheduler", "tls://127.0.0.1:9")
    assert ran.code == 2
    assert "tls://127.0.0.1:9: a tls:// scheduler needs Dask's TLS settings" in ran.err


@pytest.mark.parametrize("command", ["validate", "analyze", "query", "stats"])
def test_a_run_without_scheduler_imports_no_dask(command: str, tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "tarotnotation", command,
                           str(ROOT / "examples" / "prise.tarot"), "--budget", "1000"][
                               :None if command == "analyze" else -2],
                          capture_output=True, timeout=120, check=False, cwd=tmp_path)
    imported = done.stderr.decode()
    assert "tarotnotation.cli" in imported
    assert "| distributed" not in imported
    assert "| dask" not in imported
    assert "tarotnotation.cluster" not in imported
