"""A PostgreSQL server for the tests, started on 127.0.0.1 and stopped at the end.

:func:`postgres` runs ``initdb`` in a temporary folder and ``pg_ctl start`` on a free
port, with the binaries of ``/usr/lib/postgresql/*/bin`` (or ``pg_ctl`` on the PATH; ``.ci/run``
installs Debian's ``postgresql`` where they are missing). PostgreSQL refuses to run as root:
run as root (as CI is), the server runs as the system user ``postgres`` (or ``nobody``)
through ``runuser``, its folder owned by that user. It yields the database's address;
where the server cannot start it yields ``None`` with the reason in :data:`WHY_NOT`, and the
tests skip saying it, unless ``TAROT_REQUIRE_POSTGRES=1`` (CI), where they fail.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

#: Why the last :func:`postgres` yielded no server.
WHY_NOT: list[str] = []

#: The servers running: their address's ``user@host:port`` -> how to run pg_ctl on them.
_RUNNING: dict[str, tuple[list[str], Path, Path, dict[str, str]]] = {}


def required() -> bool:
    """Must PostgreSQL's tests run (CI)?"""
    return os.environ.get("TAROT_REQUIRE_POSTGRES", "") not in ("", "0")


def binaries() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl``: the newest Debian one, else the PATH's."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
                   key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("pg_ctl")
    return Path(on_path).parent if on_path else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _runner() -> tuple[list[str], int | None, int | None]:
    """The command prefix that runs a program as a user PostgreSQL accepts, and that
    user's uid and gid (None: this process's own)."""
    if os.geteuid() != 0:
        return [], None, None
    for name in ("postgres", "nobody"):
        try:
            user = pwd.getpwnam(name)
        except KeyError:
            continue
        runuser = shutil.which("runuser")
        if runuser:
            return [runuser, "-u", name, "--"], user.pw_uid, user.pw_gid
    raise RuntimeError("running as root and neither runuser nor a postgres or nobody user")


@contextmanager
def postgres() -> Iterator[str | None]:
    """A running server's address (``postgresql://...``), or None (see :data:`WHY_NOT`)."""
    WHY_NOT.clear()
    bin_dir = binaries()
    if bin_dir is None:
        WHY_NOT.append("PostgreSQL is not installed (no pg_ctl in /usr/lib/postgresql/*/bin"
                       " or on the PATH; Debian: apt-get install postgresql)")
        yield None
        return
    try:
        prefix, uid, gid = _runner()
    except RuntimeError as err:
        WHY_NOT.append(str(err))
        yield None
        return
    top = Path(tempfile.mkdtemp(prefix="tarot-pg-"))
    data = top / "data"
    port = free_port()
    if uid is not None and gid is not None:
        os.chmod(top, 0o755)
        os.chown(top, uid, gid)
    env = {**os.environ, "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"}
    started = False
    try:
        init = subprocess.run(
            [*prefix, str(bin_dir / "initdb"), "-D", str(data), "-U", "tarot",
             "--auth=trust", "-E", "UTF8", "--no-sync"],
            capture_output=True, text=True, env=env, check=False, timeout=120)
        if init.returncode != 0:
            WHY_NOT.append(f"initdb failed: {init.stderr.strip()[-500:]}")
            yield None
            return
        start = subprocess.run(
            [*prefix, str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(top / "log"), "-w",
             "-t", "60", "-o",
             f"-h 127.0.0.1 -p {port} -k {top} -F -c fsync=off -c full_page_writes=off",
             "start"], capture_output=True, text=True, env=env, check=False, timeout=90)
        if start.returncode != 0:
            log = (top / "log").read_text(errors="replace") if (top / "log").exists() else ""
            WHY_NOT.append(f"pg_ctl start failed: {start.stderr.strip()[-300:]} {log[-300:]}")
            yield None
            return
        started = True
        _RUNNING[f"tarot@127.0.0.1:{port}"] = (prefix, bin_dir, data, env)
        yield f"postgresql://tarot@127.0.0.1:{port}/postgres"
    finally:
        _RUNNING.pop(f"tarot@127.0.0.1:{port}", None)
        if started:
            subprocess.run([*prefix, str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "fast",
                            "-w", "stop"], capture_output=True, env=env, check=False,
                           timeout=60)
        shutil.rmtree(top, ignore_errors=True)


def restart(url: str) -> None:
    """Restart the server of ``url`` (one :func:`postgres` started): every connection to
    it is cut, as when a server restarts under a running program."""
    prefix, bin_dir, data, env = _RUNNING[url.split("://", 1)[1].split("/", 1)[0]]
    subprocess.run([*prefix, str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w",
                    "-t", "60", "-l", str(data.parent / "log"), "restart"],
                   capture_output=True, env=env, check=True,
                   timeout=90)


def fresh_database(url: str, name: str) -> str:
    """A new, empty database called ``name`` on the server of ``url``; its address."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as db:
        db.execute(f'DROP DATABASE IF EXISTS "{name}"')
        db.execute(f'CREATE DATABASE "{name}"')
    return url.rsplit("/", 1)[0] + "/" + name
