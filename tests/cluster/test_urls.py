"""fsspec URLs as inputs (issue 36): ``file://`` URLs through fsspec's local file system
(no network) are named, opened, sized and cut as paths are (byte ranges of JSON Lines,
.tarot files at record starts), read by the workers themselves, and give the output of
the same files named by their paths; without fsspec, or without a file system's package,
a URL is a usage error that says what to install (exit status 2), in French too. The
same on a real scheduler: tests/cluster/test_cluster.py."""

from __future__ import annotations

import os
import random
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cli_runs import ROOT, invoke, run_exe, run_forked

from tarotnotation import cutting
from tarotnotation.archive import check_paths, walk
from tarotnotation.archives import stream
from tarotnotation.archives.stream import WHOLE_BLOCKS, scan
from tarotnotation.cutting import (
    CHUNK_BYTES,
    Chunk,
    LineRange,
    TarotPart,
    json_lines_ranges,
    tarot_parts,
)
from tarotnotation.diagnostics import Diagnostic
from tarotnotation.formats import json as tarot_json
from tarotnotation.inputs import Url, local_path, url_fault
from tarotnotation.limits import MAX_JSON_RECORD_BYTES
from tarotnotation.notation.writer import dumps_bytes as tarot_dumps
from tarotnotation.simulate import random_deal

pytest.importorskip("fsspec", reason="fsspec is not installed (it comes with the dask extra)")


class _Pool:
    """Runs each task at once; notes the tasks."""

    def __init__(self) -> None:
        self.tasks: list[Any] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any) -> Any:
        self.tasks.append(args[0])
        value = fn(*args)
        return type("Done", (), {"result": lambda _self: value})()


def _season(folder: Path, small: bool = False) -> tuple[Path, Path]:
    """Over 2 MB of JSON Lines with a faulty line, and over 2 MB of the text notation; or,
    ``small``, a tenth of the JSON Lines and 90 KB of the notation, for the tests that cut
    them into parts of :data:`SMALL_CHUNK` bytes (:func:`small_chunks`) as files of
    megabytes are cut into parts of a megabyte."""
    rng = random.Random(9)
    deals = [random_deal(rng, 4) for _ in range(60)]
    lines = b"".join(tarot_json.dumps_bytes(d).replace(b"\n", b"") + b"\n" for d in deals)
    copies = 2 if small else 20
    jsonl = folder / "season.jsonl"
    jsonl.write_bytes(lines * copies + b'{"players": 4, "bad": 1}\n' + lines * copies)
    text = tarot_dumps(deals)
    tarot = folder / "season.tarot"
    tarot.write_bytes(text * (2 if small else (2 << 20) // len(text) + 2))
    return jsonl, tarot


#: The bytes of a part (``cutting.CHUNK_BYTES``, a megabyte in a real run) in the tests
#: that take :func:`small_chunks`.
SMALL_CHUNK = 16 << 10


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> int:
    """Files cut into parts of :data:`SMALL_CHUNK` bytes in this process (as
    tests/twins/test_parallel_bulk.py cuts them): a small season is read and cut in many
    blocks, ranges and parts, as a season of megabytes is."""
    monkeypatch.setattr(cutting, "CHUNK_BYTES", SMALL_CHUNK)
    return SMALL_CHUNK


def _url(path: Path) -> str:
    return "file://" + str(path)


def test_a_url_is_walked_as_given_and_a_file_url_names_its_file() -> None:
    walked = list(walk(["file:///data/x.jsonl", "s3://bucket/a/b.tarot"]))
    assert [str(p) for p in walked] == ["file:///data/x.jsonl", "s3://bucket/a/b.tarot"]
    assert all(isinstance(p, Url) for p in walked)
    assert isinstance(walked[1], Url)
    assert walked[1].suffix == ".tarot"
    assert local_path("file:///data/x.jsonl") == "/data/x.jsonl"


def test_a_url_is_cut_as_its_path_is(tmp_path: Path) -> None:
    jsonl, tarot = _season(tmp_path)
    size = 1 << 20
    assert [(r.start, r.end) for r in json_lines_ranges(_url(jsonl), size)] == [
        (r.start, r.end) for r in json_lines_ranges(str(jsonl), size)]
    by_url, by_path = tarot_parts(_url(tarot)), tarot_parts(str(tarot))
    assert by_url is not None
    assert by_path is not None
    assert [(p.start, p.end, p.line) for p in by_url] == [
        (p.start, p.end, p.line) for p in by_path]


def test_a_url_is_checked_and_scanned_as_its_path_is_serially_and_by_workers(
        tmp_path: Path, small_chunks: int, monkeypatch: pytest.MonkeyPatch) -> None:
    jsonl, tarot = _season(tmp_path, small=True)
    # the notation under WHOLE_BLOCKS blocks (as a file under two megabytes is in a real
    # run): a worker reads it whole
    monkeypatch.setattr(stream, "WHOLE_BLOCKS", 8)
    assert tarot.stat().st_size <= stream.WHOLE_BLOCKS * small_chunks
    names = [str(jsonl), str(tarot)]
    urls = [_url(jsonl), _url(tarot)]
    serial = [(c.index, c.line, c.offset, c.status, [d.message for d in c.diagnostics])
              for c in check_paths(names, keep=False)]
    assert any(faults for *_, faults in serial)
    for jobs, pool in ((1, None), (2, _Pool())):
        by_url = list(check_paths(urls, keep=False, jobs=jobs, pool=pool))
        assert [(c.index, c.line, c.offset, c.status, [d.message for d in c.diagnostics])
                for c in by_url] == serial
        assert {c.file for c in by_url} == set(urls)
        if pool is not None:  # the workers read the URLs: ranges and parts of them
            assert {type(t) for t in pool.tasks} == {LineRange, TarotPart}
            assert {t.path for t in pool.tasks} == set(urls)
    pool = _Pool()
    scanned = [repr(d).replace("file://", "") for d in scan(urls, jobs=2, pool=pool)]
    assert scanned == [repr(d) for d in scan(names)]
    assert len(scanned) == 4 * 60 + 1 + 2 * 60  # (every deal, the faulty one too)
    # the workers read the URLs: the JSON Lines in chunks, the .tarot file whole
    assert sum(isinstance(t, Chunk) for t in pool.tasks) > 20
    assert {t.path if isinstance(t, Chunk) else t for t in pool.tasks} == set(urls)


def test_a_url_of_a_big_tarot_file_is_scanned_here_as_its_path_is(
        tmp_path: Path, small_chunks: int) -> None:
    # over WHOLE_BLOCKS blocks of the notation (two megabytes in a real run; one part: a
    # worker would send its deals back whole): read here, a deal at a time, as its path
    # is, to its last deal
    _, tarot = _season(tmp_path, small=True)
    assert tarot.stat().st_size > WHOLE_BLOCKS * small_chunks
    pool = _Pool()
    by_url = [repr(d).replace("file://", "") for d in scan([_url(tarot)], jobs=2, pool=pool)]
    assert pool.tasks == []
    by_path = [repr(d) for d in scan([str(tarot)])]
    assert by_url == by_path
    assert len(by_url) == 2 * 60


def test_a_url_gives_the_output_of_its_path_on_the_command_line(
        tmp_path: Path, small_chunks: int, monkeypatch: pytest.MonkeyPatch) -> None:
    jsonl, tarot = _season(tmp_path, small=True)
    assert jsonl.stat().st_size > 20 * small_chunks  # (read in chunks of whole lines)
    assert tarot.stat().st_size > 4 * small_chunks  # (read in blocks)
    monkeypatch.chdir(tmp_path)
    for args in (["validate"], ["validate", "-f", "jsonl"], ["stats", "--by", "contract"],
                 ["query", "--where", "contract >= garde", "-f", "jsonl"]):
        by_path = invoke(*args, jsonl.name, tarot.name)
        by_url = invoke(*args, _url(jsonl), _url(tarot))
        assert by_url.code == by_path.code
        assert by_url.out.replace(f"file://{tmp_path}{os.sep}", "") == by_path.out
        assert by_path.out


@pytest.mark.process
def test_an_output_over_a_file_url_input_is_refused(tmp_path: Path) -> None:
    jsonl, _ = _season(tmp_path)
    ran = run_exe("validate", _url(jsonl), "-f", "jsonl", "-o", str(jsonl))
    assert ran.code == 2
    assert "this is one of the inputs" in ran.err
    assert jsonl.stat().st_size > 2 << 20


_WITHOUT = ("import sys; sys.modules[{module!r}] = None;"
            " from tarotnotation.cli.app import main; sys.argv[0] = 'tarot'; main()")


@pytest.mark.process
@pytest.mark.parametrize(("lang", "said"), [
    ("en", "file:///data/x.jsonl: reading a URL needs fsspec, which is not installed:"
           " pip install fsspec"),
    ("fr", "file:///data/x.jsonl\u00a0: lire une URL demande fsspec, qui n'est pas"
           " installé\u00a0: pip install fsspec")])
def test_a_url_without_fsspec_says_how_to_install_it(lang: str, said: str) -> None:
    done = subprocess.run([sys.executable, "-c", _WITHOUT.format(module="fsspec"), "--lang",
                           lang, "validate", "file:///data/x.jsonl"], cwd=ROOT,
                          capture_output=True, timeout=120, check=False)
    assert done.returncode == 2
    assert said in done.stderr.decode()
    assert b"Traceback" not in done.stderr


@pytest.mark.process
@pytest.mark.parametrize(("lang", "said"), [
    ("en", "s3://bucket/x.jsonl: the file system s3:// needs a package that is not"
           " installed (Install s3fs to access S3)"),
    ("fr", "s3://bucket/x.jsonl\u00a0: le système de fichiers s3:// demande un paquet qui"
           " n'est pas installé (Install s3fs to access S3)")])
def test_a_url_whose_file_system_is_missing_says_so(lang: str, said: str) -> None:
    if url_fault("s3://bucket/x.jsonl") is None:
        pytest.skip("s3fs is installed here")
    ran = run_exe("--lang", lang, "stats", "s3://bucket/x.jsonl")
    assert ran.code == 2
    assert said in ran.err


def test_an_unknown_protocol_is_said() -> None:
    fault = url_fault("nope://x/y.jsonl")
    assert fault is not None
    assert str(fault) == "nope://x/y.jsonl: fsspec knows no file system nope://"


def test_a_url_is_read_a_block_at_a_time_never_whole(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from fsspec.implementations.local import LocalFileOpener

    jsonl, tarot = _season(tmp_path)
    asked: list[int] = []
    read, readline = LocalFileOpener.read, LocalFileOpener.readline

    def reading(self: Any, *args: Any) -> Any:
        asked.append(args[0] if args and args[0] is not None and args[0] >= 0 else -1)
        return read(self, *args)

    def reading_line(self: Any, *args: Any) -> Any:
        asked.append(args[0] if args and args[0] is not None and args[0] >= 0 else -1)
        return readline(self, *args)

    monkeypatch.setattr(LocalFileOpener, "read", reading)
    monkeypatch.setattr(LocalFileOpener, "readline", reading_line)
    urls = [_url(jsonl), _url(tarot)]
    for jobs, pool in ((1, None), (2, _Pool())):
        asked.clear()
        assert sum(1 for _ in check_paths(urls, keep=False, jobs=jobs, pool=pool)) > 4000
        assert asked
        assert -1 not in asked  # (no read to the end)
        assert max(asked) <= CHUNK_BYTES + MAX_JSON_RECORD_BYTES
    assert jsonl.stat().st_size > CHUNK_BYTES + MAX_JSON_RECORD_BYTES


@pytest.mark.process
@pytest.mark.parametrize(("lang", "said"), [
    ("en", "--in-place cannot rewrite a URL: write the analysis to a file (-o OUT)"),
    ("fr", "--in-place ne peut pas réécrire une URL\u00a0: écrivez l'analyse dans un fichier"
           " (-o SORTIE)")])
def test_analyze_in_place_refuses_a_url_before_any_search(tmp_path: Path, lang: str,
                                                          said: str) -> None:
    jsonl, _ = _season(tmp_path)
    before = jsonl.read_bytes()
    ran = run_exe("--lang", lang, "analyze", _url(jsonl), "--in-place")
    assert ran.code == 2
    assert said in ran.err
    assert jsonl.read_bytes() == before


def _tree(top: Path) -> Path:
    """Record files in folders and subfolders (names whose order by text and by parts
    differ: ``a-b`` and ``a/``), a dot file, and a file that is not a record's."""
    rng = random.Random(11)
    for name in ("z.jsonl", "a-b.jsonl", "a/x.tarot", "a/b/y.jsonl", "a/b/w.jsonl",
                 "c/.hidden.jsonl", "c/notes.txt"):
        path = top / name
        path.parent.mkdir(parents=True, exist_ok=True)
        deals = [random_deal(rng, 4) for _ in range(2)]
        path.write_bytes(tarot_dumps(deals) if name.endswith(".tarot") else b"".join(
            tarot_json.dumps_bytes(d).replace(b"\n", b"") + b"\n" for d in deals))
    return top


def test_a_url_naming_a_folder_is_walked_as_the_folder_is(tmp_path: Path) -> None:
    top = _tree(tmp_path / "data")
    by_path = [str(p) for p in walk([str(top)])]
    assert by_path == [str(top / n) for n in ("a/b/w.jsonl", "a/b/y.jsonl", "a/x.tarot",
                                              "a-b.jsonl", "c/.hidden.jsonl", "z.jsonl")]
    for url in (_url(top), _url(top) + "/"):
        walked = list(walk([url]))
        assert all(isinstance(p, Url) for p in walked)
        assert [str(p) for p in walked] == [_url(Path(p)) for p in by_path]
    # (what walk gave passes through it unchanged, not asked again)
    assert list(walk(walked)) == walked


def test_a_url_ending_with_a_record_extension_is_a_file_not_asked(tmp_path: Path) -> None:
    folder = tmp_path / "odd.jsonl"  # (a folder with a file's name: read, and said, as one)
    folder.mkdir()
    (folder / "x.jsonl").write_bytes(b"")
    assert [str(p) for p in walk([_url(folder)])] == [_url(folder)]


def test_a_url_folder_that_cannot_be_listed_is_said_in_its_place(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from fsspec.implementations.local import LocalFileSystem

    top = _tree(tmp_path / "data")
    ls = LocalFileSystem.ls

    def listing(self: Any, path: str, *args: Any, **kwargs: Any) -> Any:
        if path.rstrip("/") == str(top / "a" / "b"):  # (as a folder of mode 0 to a user)
            raise PermissionError(13, "Permission denied", path)
        return ls(self, path, *args, **kwargs)

    monkeypatch.setattr(LocalFileSystem, "ls", listing)
    walked = list(walk([_url(top)]))
    assert [(p.code.value, p.location.file, p.message) if isinstance(p, Diagnostic) else str(p)
            for p in walked][:2] == [
        ("F003", _url(top / "a" / "b"), "cannot list the folder: Permission denied; the"
         " files in it are not checked"), _url(top / "a" / "x.tarot")]


@pytest.mark.parametrize("pattern", ["*", "*.jsonl", "**/*.jsonl", "*/*.jsonl", "a/**",
                                     "c/.*", "[az]*", "?.jsonl", "none*"])
def test_a_url_pattern_expands_as_a_local_pattern(tmp_path: Path, pattern: str) -> None:
    from cli.common import expand_arguments

    top = _tree(tmp_path / "data")
    local = expand_arguments([f"{top}/{pattern}"])
    assert expand_arguments([f"{_url(top)}/{pattern}"]) == [_url(Path(p)) for p in local]


@pytest.mark.parametrize("pattern", ["**/", "*/", "*/.h/*.jsonl", "**/*.jsonl", "*/.h/"])
def test_a_url_pattern_walks_as_a_local_pattern_through_folders_and_dot_names(
        tmp_path: Path, pattern: str) -> None:
    # a pattern ending with / names folders only (their record files then walked), and
    # a wildcard never matches a dot name a later part of the pattern does not spell
    from cli.common import expand_arguments

    top = tmp_path / "data"
    for name in ("k/.h/y.jsonl", ".g/.h/x.jsonl", "a/n.txt", "a/b/w.jsonl", "z.jsonl"):
        (top / name).parent.mkdir(parents=True, exist_ok=True)
        (top / name).write_bytes(b"{}\n")
    local = [str(p) for p in walk(expand_arguments([f"{top}/{pattern}"]))]
    by_url = [str(p) for p in walk(expand_arguments([f"{_url(top)}/{pattern}"]))]
    assert local, pattern
    assert by_url == [_url(Path(p)) if not isinstance(p, Diagnostic) else p for p in local]


def test_a_file_a_folder_url_lists_is_never_written_over(tmp_path: Path) -> None:
    # the overwrite check names the file the URL's reading opens: a name with %41 in it
    # is that name, not "A" (fsspec never percent-decodes a path)
    from cli_runs import invoke

    folder = tmp_path / "q"
    folder.mkdir()
    victim = folder / "s%41.tarot"
    rng = random.Random(3)
    victim.write_bytes(tarot_dumps([random_deal(rng, 4) for _ in range(5)]))
    before = victim.read_bytes()
    for named in (_url(folder) + "/", _url(folder) + "/*.tarot", _url(victim)):
        ran = invoke("query", named, "-o", str(victim))
        assert ran.code == 2, (named, ran)
        assert "written over" in ran.err
        assert victim.read_bytes() == before
    assert local_path(_url(victim)) == str(victim)


def test_a_file_in_a_zip_archive_is_read_by_its_chained_url(tmp_path: Path) -> None:
    # the archive's file system is held while its file is read (it closes the archive
    # when collected: "seek of closed file" before), and the URL is named by its first
    # link (x.tarot, not a.zip)
    import zipfile

    from cli_runs import invoke

    archive = tmp_path / "a.zip"
    deals = [random_deal(random.Random(4), 4) for _ in range(3)]
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("s/x.tarot", tarot_dumps(deals))
    (tmp_path / "x.tarot").write_bytes(tarot_dumps(deals))
    ran = invoke("validate", f"zip://s/x.tarot::{_url(archive)}")
    assert (ran.code, ran.out.splitlines()[-1]) == (0, invoke(
        "validate", str(tmp_path / "x.tarot")).out.splitlines()[-1])
    missing = invoke("validate", f"zip://s/y.tarot::{_url(archive)}")
    assert missing.code == 2, missing
    assert "F001" in missing.out


@pytest.mark.process
def test_a_url_of_a_folder_or_a_pattern_gives_the_output_of_its_path(tmp_path: Path) -> None:
    _tree(tmp_path / "data")
    for args in (["validate"], ["validate", "-f", "jsonl"], ["stats", "--by", "contract"],
                 ["query", "--where", "contract >= petite", "-f", "jsonl"]):
        for named in ("data", "data/", "data/**/*.jsonl", "data/*", "data/nothing*"):
            by_path = run_forked(*args, named, cwd=tmp_path)
            by_url = run_forked(*args, f"{_url(tmp_path)}/{named}", cwd=tmp_path)
            assert by_url.code == by_path.code
            assert by_url.out.replace(f"file://{tmp_path}{os.sep}", "") == by_path.out
            assert by_url.err.replace(f"file://{tmp_path}{os.sep}", "") == by_path.err
            assert by_path.out or "no file matches this pattern" in by_path.err


def _block_file_system() -> str:
    """A file system of this machine's files whose files are fsspec's buffered files,
    as s3fs's, gcsfs's and adlfs's are (their ``readline`` takes no limit): its
    protocol, ``blocks://``."""
    import fsspec
    from fsspec.spec import AbstractBufferedFile, AbstractFileSystem

    class BlockFile(AbstractBufferedFile):  # type: ignore[misc]
        def _fetch_range(self, start: int, end: int) -> bytes:
            with open(self.path, "rb") as fh:
                fh.seek(start)
                return fh.read(end - start)

    class BlockFileSystem(AbstractFileSystem):  # type: ignore[misc]
        protocol = "blocks"

        def _open(self, path: str, mode: str = "rb", block_size: Any = None,
                  **kwargs: Any) -> BlockFile:
            return BlockFile(self, path, mode, block_size or 1 << 16)

        def info(self, path: str, **kwargs: Any) -> dict[str, Any]:
            path = self._strip_protocol(path)
            mode = os.stat(path).st_mode
            return {"name": path, "size": os.stat(path).st_size,
                    "type": "directory" if stat.S_ISDIR(mode) else "file"}

        def ls(self, path: str, detail: bool = True, **kwargs: Any) -> list[Any]:
            path = self._strip_protocol(path)
            found = [self.info(os.path.join(path, n)) for n in sorted(os.listdir(path))]
            return found if detail else [f["name"] for f in found]

    fsspec.register_implementation("blocks", BlockFileSystem, clobber=True)
    return "blocks"


def test_a_url_of_buffered_files_is_read_as_its_path_is(tmp_path: Path,
                                                        small_chunks: int) -> None:
    # fsspec's buffered files (s3://, gcs://...) take no limit in readline: the readers'
    # bounded lines come through a buffered reader (a TypeError before)
    protocol = _block_file_system()
    jsonl, tarot = _season(tmp_path, small=True)
    assert tarot.stat().st_size > 1 << 16  # (more than a block of a BlockFile)
    names = [str(jsonl), str(tarot)]
    urls = [f"{protocol}://{jsonl}", f"{protocol}://{tarot}"]
    serial = [(c.index, c.line, c.offset, c.status, [d.message for d in c.diagnostics])
              for c in check_paths(names, keep=False)]
    for jobs, pool in ((1, None), (2, _Pool())):
        by_url = list(check_paths(urls, keep=False, jobs=jobs, pool=pool))
        assert [(c.index, c.line, c.offset, c.status, [d.message for d in c.diagnostics])
                for c in by_url] == serial
    scanned = [repr(d).replace(f"{protocol}://", "") for d in scan(urls, jobs=2,
                                                                   pool=_Pool())]
    assert scanned == [repr(d) for d in scan(names)]
    # a folder of them: walked as the local folder is
    assert [str(p) for p in walk([f"{protocol}://{tmp_path}"])] == [
        f"{protocol}://{p}" for p in walk([str(tmp_path)])]
