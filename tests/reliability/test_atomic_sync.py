"""Flushing a folder built aside before it is renamed into place (``atomic.sync_tree``):
every file and folder one by one when they are few, the whole file system in one call
when they are many, and one by one again when that call is not available."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tarotnotation import atomic


def _tree(top: Path, files: int) -> set[str]:
    (top / "sub").mkdir(parents=True)
    names = set()
    for i in range(files):
        path = top / ("sub" if i % 2 else ".") / f"deal-{i}.html"
        path.write_bytes(b"<p>%d</p>" % i)
        names.add(os.path.realpath(path))
    return names


def _watch(monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[str]]:
    """The paths fsync'ed and the folders given to the one-call flush, as they happen."""
    synced: list[str] = []
    whole: list[str] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append(os.path.realpath(f"/proc/self/fd/{fd}"))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    real_whole = atomic.sync_file_system

    def flush(top: str | os.PathLike[str]) -> bool:
        whole.append(str(top))
        return real_whole(top)

    monkeypatch.setattr(atomic, "sync_file_system", flush)
    return synced, whole


def test_a_few_files_are_flushed_one_by_one(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    files = _tree(tmp_path / "site", 6)
    synced, whole = _watch(monkeypatch)
    atomic.sync_tree(tmp_path / "site")
    assert whole == []
    assert files <= set(synced)
    assert {os.path.realpath(tmp_path / "site"), os.path.realpath(tmp_path / "site" / "sub")
            } <= set(synced)


@pytest.mark.skipif(not os.path.exists("/proc/self/fd"), reason="needs /proc")
def test_many_files_are_flushed_in_one_call(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    _tree(tmp_path / "site", atomic.BATCH_FILES + 10)
    synced, whole = _watch(monkeypatch)
    atomic.sync_tree(tmp_path / "site")
    assert whole == [str(tmp_path / "site")]
    if atomic.sync_file_system(tmp_path):  # syncfs is there: nothing one by one
        assert synced == []


def test_without_the_one_call_every_file_is_flushed(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    files = _tree(tmp_path / "site", atomic.BATCH_FILES + 10)
    synced, _ = _watch(monkeypatch)
    monkeypatch.setattr(atomic, "sync_file_system", lambda top: False)
    atomic.sync_tree(tmp_path / "site")
    assert files <= set(synced)
    assert os.path.realpath(tmp_path / "site" / "sub") in synced
