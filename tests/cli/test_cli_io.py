"""Input and output as the command line meets them: streams read once (FIFOs, process
substitution, /dev/zero), memory bounded whatever the input, paths that cannot be read
reported in their place, files written whole through symbolic links.
"""

from __future__ import annotations

import io
import os
import random
import resource
import shutil
import signal
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_runs import EXAMPLES, TAROT, fed, invoke, run_forked
from peak import peak_of
from test_cli_contract import READING, bounded, required

from tarotnotation import atomic, notation
from tarotnotation.cli.progress import FileProgress
from tarotnotation.formats import json as tjson
from tarotnotation.simulate import random_deal

DEAL = (EXAMPLES / "prise.tarot").read_bytes()
MB = 1 << 20


# --- streams are opened once ----------------------------------------------------------------


def _numbered(count: int) -> bytes:
    """The example deal as JSON Lines, ``count`` times, each with its own Deal number."""
    record = notation.loads(DEAL.decode())
    return b"".join(tjson.dumps_bytes(record.model_copy(update={"tags": (("Deal", str(i)),)}))
                    + b"\n" for i in range(1, count + 1))


@pytest.mark.process
@pytest.mark.parametrize("content", [DEAL, tjson.dumps_bytes(notation.loads(DEAL.decode())),
                                     _numbered(3)])
def test_a_fifo_is_validated(tmp_path: Path, content: bytes) -> None:
    fifo = tmp_path / "deals"
    with fed(fifo, content):
        ran = run_forked("validate", str(fifo), cwd=tmp_path)
    assert ran.code == 0, ran
    count = content.count(b"\n") if content.startswith(b"{") and content.endswith(b"\n") else 1
    assert ran.out.startswith(f"{count} deal{'s' if count > 1 else ''} read from 1 file:")


#: What a command needs beside its path to read a FIFO and succeed (fmt rewrites only
#: regular files: it checks; legal needs a point of the play).
_FIFO_NEEDS = {"fmt": ["--check"], "legal": ["-t", "1"]}


@pytest.mark.process
@pytest.mark.parametrize("command", [
    *([name] for name in READING if name != "check"),  # every command that reads, walked
    ["validate", "-v"], ["convert", "-v"]])
def test_every_reading_command_reads_a_fifo(tmp_path: Path, command: list[str]) -> None:
    fifo = tmp_path / "deal.tarot"
    name = command[0]
    extra = [*_FIFO_NEEDS.get(name, []), *required(name), *bounded(name)]
    with fed(fifo, DEAL):
        ran = run_forked(*command, str(fifo), *extra, cwd=tmp_path)
    assert ran.code == 0, ran  # (-v does not open it to tell its format: read once)
    if "-v" in command:
        assert f"{fifo}: read as the format its content shows" in ran.err


def test_a_fifo_is_not_rewritten_in_place(tmp_path: Path) -> None:
    fifo = tmp_path / "deal.tarot"
    with fed(fifo, DEAL):
        ran = invoke("annotate", str(fifo), "--in-place")
    assert ran.code == 2
    assert ran.err.endswith("not a regular file: it cannot be rewritten in place\n")


@pytest.mark.process
def test_process_substitution(tmp_path: Path) -> None:
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("no bash")
    one, two = EXAMPLES / "prise.tarot", EXAMPLES / "garde-sans.tarot"
    script = f'"{TAROT}" validate <(cat "{one}") <(cat "{two}")'
    done = subprocess.run([bash, "-c", script], capture_output=True, timeout=120, check=False)
    assert done.returncode == 0, done
    assert done.stdout.decode().startswith("2 deals read from 2 files: 2 valid")


@pytest.mark.process
def test_a_pipe_on_standard_input_is_detected_from_its_first_bytes() -> None:
    as_json = tjson.dumps_bytes(notation.loads(DEAL.decode()))
    for data in (DEAL, as_json, _numbered(2)):
        ran = run_forked("validate", "-", stdin=data)
        assert ran.code == 0, ran


# --- memory is bounded, detection included -------------------------------------------------


def _peak_rss(pid: int) -> int:
    """The peak resident memory of a process, in bytes (VmHWM)."""
    with open(f"/proc/{pid}/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmHWM")


def _bytes_read(pid: int) -> int:
    with open(f"/proc/{pid}/io", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("rchar:"):
                return int(line.split()[1])
    raise AssertionError("no rchar")


def _limit_memory() -> None:  # in the child: a runaway fails at once instead of swapping
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.process
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc and /dev/zero")
@pytest.mark.parametrize("command", [["validate"], ["validate", "--format", "json"],
                                     ["fmt", "--check"], ["convert", "--to", "json"]])
def test_an_endless_line_reads_in_bounded_memory(command: list[str]) -> None:
    # An endless stream of text (one endless line of x, as /dev/zero was before issue 31
    # told binary apart): the command reads it (skipped 64 KiB at a time past the limit)
    # until it is interrupted; its memory must not grow with it. Before issue 12,
    # detection read the whole first line: 7.7 GB and counting.
    endless = subprocess.Popen(["tr", "\\0", "x"], stdin=open("/dev/zero", "rb"),  # noqa: SIM115
                               stdout=subprocess.PIPE)
    assert endless.stdout is not None
    proc = subprocess.Popen([str(TAROT), *command, "-"], stdin=endless.stdout,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=_limit_memory)
    endless.stdout.close()
    try:
        deadline = time.monotonic() + 120
        while _bytes_read(proc.pid) < 300 * MB:  # well past the limits and detection
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "reads too slowly"
            time.sleep(0.05)
        peak = _peak_rss(proc.pid)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        endless.kill()
        endless.wait()
    assert proc.returncode == 130, err
    assert b"Traceback" not in err
    assert peak < 150 * MB, f"peak RSS {peak / MB:.0f} MB"


#: Each command on a binary path then a deal: what shows that it read the deal too.
BINARY_THEN_DEAL = {
    ("validate",): "1 deal read from 1 file: 1 valid",
    ("validate", "--format", "json"): '"valid": true',
    ("fmt", "--check"): "1 unchanged",
    ("convert", "--to", "json"): "Tournoi d'automne",
    ("query", "--count"): "\n1\n",
    ("replay",): None,  # (one file)
    ("score",): None,
}


@pytest.mark.process
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/dev/zero")
@pytest.mark.parametrize("command", sorted(BINARY_THEN_DEAL))
def test_dev_zero_and_other_binary_input_is_not_a_record(tmp_path: Path,
                                                          command: tuple[str, ...]) -> None:
    # /dev/zero was read on forever (issue 31): a file whose first block holds NUL bytes
    # (and no format takes) is not a record: said with the detection's code (S007), and
    # the next path is read. Text in UTF-16 (NULs on one side) keeps its iconv hint.
    zeros = tmp_path / "zeros.tarot"
    zeros.write_bytes(bytes(3 * MB))  # (a regular file: the bulk readers' way too)
    image = tmp_path / "photo.tarot"
    image.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01")
    deal = tmp_path / "deal.tarot"
    deal.write_bytes(DEAL)
    then = BINARY_THEN_DEAL[command]
    for path, at in (("/dev/zero", 0), (str(zeros), 0), (str(image), 8)):
        args = [*command, path] + ([str(deal)] if then is not None else [])
        done = run_forked(*args, timeout=60)  # (read on forever: ended, status -14)
        said = "\n" + done.out + done.err
        assert done.code == 1, said
        if command[1:] == ("--format", "json"):
            assert '"code": "S007"' in said, said
            assert (f'"message": "binary content, not a record (a NUL byte at byte offset'
                    f' {at}): this file is not read"') in said, said
        else:
            assert (f"{path}: S007 error: binary content, not a record (a NUL byte at byte"
                    f" offset {at}): this file is not read") in said, said
        if then is not None:
            assert then in said, said
    utf16 = tmp_path / "utf16.tarot"
    utf16.write_bytes(DEAL.decode().encode("utf-16-le"))
    ran = run_forked("validate", str(utf16))
    assert "it looks like UTF-16" in ran.out, ran


#: How the writer feeds the long line: in one write; in 4 KB writes; trickling (4 KB
#: writes, a pause after each 64 KB, so that the reader often finds the pipe empty and
#: gets what has come). The reader's memory must not depend on how the stream arrives.
PACES = {"one-write": (200 * MB, 0.0), "4KB-writes": (4096, 0.0), "trickle": (4096, 0.001)}


@pytest.mark.process
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc")
@pytest.mark.parametrize("pace", PACES)
def test_a_long_first_line_on_a_fifo_is_skipped_in_bounded_memory(tmp_path: Path,
                                                                  pace: str) -> None:
    # a JSON Lines first line of 200 MB, through detection and the reader, on a stream
    good = tjson.dumps_bytes(notation.loads(DEAL.decode()))
    size, pause = PACES[pace]
    block = b"x" * size
    fifo = tmp_path / "deals.jsonl"
    parts = [b'{"players": 4, "comments": ["', *([block] * (200 * MB // size)), b'"]}\n',
             good, b"\n"]
    out_file, err_file = tmp_path / "out.txt", tmp_path / "err.txt"
    with (fed(fifo, *parts, pause=pause, every=16), out_file.open("wb") as out_fh,
          err_file.open("wb") as err_fh):
        code, peak = peak_of([TAROT, "validate", fifo], stdout=out_fh, stderr=err_fh)
    out, err = out_file.read_bytes(), err_file.read_bytes()
    assert code == 1, err
    assert b":1:1: L001 error: deal 1, $: this line has more than 1,048,576 bytes" in out
    assert b"2 deals read from 1 file: 1 valid, 1 with errors" in out
    assert peak < 150 * MB, f"peak RSS {peak / MB:.0f} MB"


def _archive(path: Path, deals: int, *, lines: bool) -> Path:
    rng = random.Random(7)
    records = [random_deal(rng, 4) for _ in range(50)]
    with path.open("wb") as fh:
        tjson.write((records[i % 50].model_copy(update={"tags": (("Deal", str(i)),)})
                     for i in range(deals)), fh, lines=lines)
    return path


def _peak_of(*args: str) -> tuple[int, int]:
    """The exit status of ``tarot ARGS`` and its peak resident memory, in bytes."""
    return peak_of([TAROT, *args])


@pytest.mark.process
def test_fmt_check_memory_stays_flat_whatever_the_file_size(tmp_path: Path) -> None:
    # It held every record twice (34 KB a deal: 723 MB for 20,000 deals); now one record
    # at a time: six times the deals, the same memory.
    text = notation.dumps([d.record for d in notation.read(EXAMPLES / "score-sheet.tarot")
                           if d.record is not None]).encode()
    small, large = tmp_path / "small.tarot", tmp_path / "large.tarot"
    small.write_bytes(b"\n".join([text] * 30))  # 240 deals
    large.write_bytes(b"\n".join([text] * 180))  # 1,440 deals
    code, peak_small = _peak_of("fmt", "--check", str(small))
    assert code == 0
    code, peak_large = _peak_of("fmt", "--check", str(large))
    assert code == 0
    assert peak_large < peak_small + 8 * MB, (peak_small // MB, peak_large // MB)


@pytest.mark.process
def test_a_json_archive_document_is_validated_in_flat_memory(tmp_path: Path) -> None:
    # The tool's own archive document (tarot convert --to json) took 961 MB for 20,000
    # deals: its records are now read one at a time. Four times the deals, the same memory.
    small = _archive(tmp_path / "small.json", 1000, lines=False)
    large = _archive(tmp_path / "large.json", 4000, lines=False)
    assert small.stat().st_size > 1 * MB  # past the one-record limit: read as a stream
    code, peak_small = _peak_of("validate", str(small))
    assert code == 0
    code, peak_large = _peak_of("validate", str(large))
    assert code == 0
    assert peak_large < peak_small + 8 * MB, (peak_small // MB, peak_large // MB)


# --- paths that cannot be read ----------------------------------------------------------------


def test_a_dangling_link_in_a_folder_is_reported_and_the_rest_checked(tmp_path: Path) -> None:
    shutil.copyfile(EXAMPLES / "prise.tarot", tmp_path / "a.tarot")
    (tmp_path / "b.tarot").symlink_to(tmp_path / "gone.tarot")
    (tmp_path / "notes.txt").symlink_to(tmp_path / "gone.txt")  # not a record's name
    for command in (["validate"], ["score"], ["fmt", "--check"]):
        ran = invoke(*command, str(tmp_path))
        assert ran.code == 2, (command, ran)
        shown = ran.out + ran.err
        assert f"{tmp_path / 'b.tarot'}: F004 error: a symbolic link to" in shown
        assert "notes.txt" not in shown


def test_a_missing_path_among_several_is_reported_and_the_rest_checked() -> None:
    ran = invoke("validate", "nowhere.tarot", str(EXAMPLES / "prise.tarot"), "no/*.tarot")
    assert ran.code == 2
    assert ran.out.splitlines()[:2] == ["nowhere.tarot: F001 error: no such file or folder",
                                        "no/*.tarot: F001 error: no file matches this pattern"]
    assert "1 deal read from 1 file: 1 valid" in ran.out
    assert ran.out.strip().endswith("; 2 paths could not be read")


def _as_nobody() -> dict[str, object]:
    """What subprocess needs to run a command as a user that permissions apply to."""
    if os.geteuid() != 0:
        return {}
    return {"user": 65534, "group": 65534, "extra_groups": []}


@pytest.fixture
def open_folder() -> Iterator[Path]:
    """A folder that a user other than root can reach (pytest's tmp_path is private)."""
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="tarot-perm-"))
    folder.chmod(0o755)
    yield folder
    for path in folder.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    shutil.rmtree(folder)


def _run_unprivileged(args: list[str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    """``tarot ARGS`` as a user that permissions apply to (this one, or nobody for root).
    Skips when that user cannot run the interpreter (a Python under /root, say); the
    in-process test below holds the same promises then."""
    try:
        done = subprocess.run([str(TAROT), *args], cwd=cwd, capture_output=True,
                              timeout=120, check=False,
                              **_as_nobody())  # type: ignore[call-overload]
    except PermissionError:
        pytest.skip("the interpreter cannot be run as an unprivileged user here")
    if done.returncode and b"Permission denied" in done.stderr and (
            b"python" in done.stderr.lower() or b"site" in done.stderr):
        pytest.skip("the interpreter cannot be run as an unprivileged user here")
    return done  # type: ignore[no-any-return]


@pytest.mark.process
def test_an_unreadable_file_and_folder_are_reported_and_the_rest_checked(
        open_folder: Path) -> None:
    good = open_folder / "a-good.tarot"
    shutil.copyfile(EXAMPLES / "prise.tarot", good)
    secret = open_folder / "b-secret.tarot"
    shutil.copyfile(EXAMPLES / "prise.tarot", secret)
    secret.chmod(0)
    locked = open_folder / "c-locked"
    locked.mkdir()
    shutil.copyfile(EXAMPLES / "prise.tarot", locked / "hidden.tarot")
    locked.chmod(0)
    done = _run_unprivileged(["validate", str(open_folder)], open_folder)
    out = done.stdout.decode()
    assert done.returncode == 2, done
    assert f"{secret}: F002 error: cannot read the file: Permission denied" in out
    assert f"{locked}: F003 error: cannot list the folder: Permission denied" in out
    assert "1 deal read from 1 file: 1 valid" in out
    for command in (["score", str(secret)], ["replay", str(secret)], ["convert", str(secret)],
                    ["annotate", str(secret)], ["legal", str(secret), "-t", "1"],
                    ["fmt", "--check", str(secret)]):
        done = _run_unprivileged(command, open_folder)
        assert done.returncode == 2, (command, done)
        assert b"Permission denied" in done.stdout + done.stderr, command
        assert b"Traceback" not in done.stderr


def test_unreadable_files_and_folders_in_process(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    # The same promises, with the system's refusals simulated (for root, nothing is
    # unreadable): F002 for a file, F003 for a folder, located, the rest checked.
    from tarotnotation import checking, cutting, inputs, opening

    shutil.copyfile(EXAMPLES / "prise.tarot", tmp_path / "a-good.tarot")
    secret = tmp_path / "b-secret.tarot"
    shutil.copyfile(EXAMPLES / "prise.tarot", secret)
    locked = tmp_path / "c-locked"
    locked.mkdir()
    shutil.copyfile(EXAMPLES / "prise.tarot", locked / "hidden.tarot")
    real_open, real_scandir = open, os.scandir

    def refusing_open(file: object, *args: object, **kwargs: object) -> object:
        if str(file) == str(secret):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)  # type: ignore[call-overload]

    def refusing_scandir(path: object = ".") -> object:
        if str(path) == str(locked):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)  # type: ignore[call-overload]

    for module in (opening, cutting, checking, inputs):  # (every module of archive.py that opens)
        monkeypatch.setattr(module, "open", refusing_open, raising=False)
    monkeypatch.setattr(os, "scandir", refusing_scandir)
    ran = invoke("validate", str(tmp_path))
    assert ran.code == 2, ran
    assert f"{secret}: F002 error: cannot read the file: Permission denied" in ran.out
    assert f"{locked}: F003 error: cannot list the folder: Permission denied" in ran.out
    assert "1 deal read from 1 file: 1 valid" in ran.out
    for command in (["score"], ["replay"], ["convert"], ["annotate"], ["legal", "-t", "1"]):
        ran = invoke(*command, str(secret))
        assert ran.code == 2, (command, ran)
        assert f"{secret}: F002 error: cannot read the file: Permission denied" in (
            ran.out + ran.err), command


# --- files written whole, through symbolic links -------------------------------------------------


def test_fmt_writes_through_a_symbolic_link(tmp_path: Path) -> None:
    real = tmp_path / "real.tarot"
    real.write_bytes(DEAL.replace(b"\n", b"\r\n"))
    real.chmod(0o640)
    link = tmp_path / "link.tarot"
    link.symlink_to(real.name)
    ran = invoke("fmt", str(link))
    assert ran.code == 0, ran
    assert link.is_symlink()  # the link stays, the file it points to is formatted
    assert os.readlink(link) == real.name
    assert real.read_bytes() == DEAL
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.tarot", "real.tarot"]


def _write_then_fail(path: Path, failure: BaseException) -> None:
    with atomic.writing(path) as fh:
        fh.write(b"new and half")
        raise failure


def test_the_atomic_writer_keeps_the_old_file_on_any_failure(tmp_path: Path) -> None:
    path = tmp_path / "report.txt"
    path.write_bytes(b"old")
    path.chmod(0o600)
    for failure in (OSError(28, "No space left on device"), KeyboardInterrupt(),
                    SystemExit(143)):
        with pytest.raises(type(failure)):
            _write_then_fail(path, failure)
        assert path.read_bytes() == b"old"
        assert sorted(p.name for p in tmp_path.iterdir()) == ["report.txt"]
        assert atomic.pending() == frozenset()
    with atomic.writing(path) as fh:
        fh.write(b"new")
    assert path.read_bytes() == b"new"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    with pytest.raises(IsADirectoryError), atomic.writing(tmp_path):
        pass
    fresh = tmp_path / "fresh.txt"
    with atomic.writing(fresh) as fh:
        fh.write(b"x")
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~mask


def test_a_full_disk_leaves_the_old_report(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # the disk fills up as the report is written: an I/O error (exit 2, one line), the
    # old report kept, no temporary file
    report = tmp_path / "report.txt"
    report.write_bytes(b"old report")
    (tmp_path / "deal.tarot").write_bytes(DEAL)

    def full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    ran = invoke("validate", str(tmp_path / "deal.tarot"), "-o", str(report))
    # (issue 31: said as a failure to write, never to read)
    assert (ran.code, ran.err) == (2, f"tarot: {report}: cannot write: No space left on"
                                      " device\n")
    assert report.read_bytes() == b"old report"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deal.tarot", "report.txt"]


def test_progress_counts_bytes_read(tmp_path: Path) -> None:
    big = tmp_path / "big.jsonl"
    big.write_bytes(b"x" * 1000)
    progress = FileProgress([str(big)], enabled=True)
    progress.delay = 0

    class Bar:
        def __init__(self) -> None:
            self.completed: list[int] = []

        def update(self, task: object, completed: int, description: str) -> None:
            self.completed.append(completed)

        def stop(self) -> None:
            pass

    bar = Bar()
    progress.bar, progress.task = bar, 0
    for offset in range(0, 1000, 250):
        progress.deals = 255  # every 256th deal updates the bar
        progress.reached(str(big), offset)
    assert bar.completed == [0, 250, 500, 750]
    assert progress.total == 1000


def test_a_stream_written_by_the_json_writer_reads_back_a_record_at_a_time() -> None:
    rng = random.Random(3)
    records = [random_deal(rng, 4) for _ in range(5)]
    out = io.BytesIO()
    tjson.write(records, out, lines=False)
    assert out.getvalue().count(b"\n") == 7  # a record a line
    assert [d.record for d in tjson.read(io.BytesIO(out.getvalue()))] == records


def test_a_device_or_a_fifo_is_written_to_never_replaced(tmp_path: Path) -> None:
    # -o /dev/null must not rename a temporary file over /dev/null (as root it would)
    ran = invoke("convert", str(EXAMPLES / "prise.tarot"), "-o", os.devnull, "--to", "json")
    assert ran.code == 0, ran
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)
    fifo = tmp_path / "out.jsonl"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    ran = invoke("convert", str(EXAMPLES / "prise.tarot"), "-o", str(fifo))
    reader.join(timeout=60)
    assert ran.code == 0
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert got == [tjson.dumps_bytes(notation.loads(DEAL.decode())) + b"\n"]
    # and fmt does not rewrite what is not a regular file
    with fed(tmp_path / "in.tarot", DEAL.replace(b"\n", b"\r\n")):
        ran = invoke("fmt", str(tmp_path / "in.tarot"))
    assert ran.code == 2
    assert "F002 error: not a regular file: it cannot be rewritten in place" in ran.err
    assert stat.S_ISFIFO((tmp_path / "in.tarot").lstat().st_mode)
