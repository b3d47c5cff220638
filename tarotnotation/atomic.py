"""Files written whole or not at all.

:func:`writing` gives a binary file to write to: a temporary file in the target's folder,
flushed to the disk (``fsync``) and renamed over the target only when the block ends
without an exception. On any exception (an error, a full disk, Ctrl-C, a signal the
program turns into an exception) the temporary file is removed and the target is left as
it was: a reader never sees a half-written file, and a failed write never destroys the old
one. Every command of ``tarot`` that writes a file writes it through here.

A symbolic link is written through: the file it points to is replaced and the link stays
(as black and ruff format do). The file keeps its permissions; a new file gets the usual
ones (0666 less the umask). What is not a regular file (``/dev/null``, a named pipe) is
written to as it is, never replaced.

>>> import pathlib, tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> with writing(folder / "deal.tarot") as fh:
...     _ = fh.write(b"[Players \\"4\\"]\\n")
>>> (folder / "deal.tarot").read_bytes()
b'[Players "4"]\\n'
>>> try:
...     with writing(folder / "deal.tarot") as fh:
...         _ = fh.write(b"half")
...         raise KeyboardInterrupt
... except KeyboardInterrupt:
...     pass
>>> (folder / "deal.tarot").read_bytes(), sorted(p.name for p in folder.iterdir())
(b'[Players "4"]\\n', ['deal.tarot'])
"""

from __future__ import annotations

import _thread
import contextlib
import io
import os
import signal
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Final

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer

__all__ = ["HELD_SIGNALS", "WriteError", "discard_pending", "held_back", "naming", "pending",
           "signals_held",
           "sync_folder", "sync_tree", "target_of", "writing"]

#: The signals :func:`signals_held` holds back: those that end a run.
HELD_SIGNALS: Final = frozenset({signal.SIGINT, signal.SIGTERM, signal.SIGHUP})

_PENDING: set[str] = set()


class WriteError(OSError):
    """A file could not be written (a full disk, a quota, a folder one may not write in):
    the file the user named and why, told apart from a failure to read an input. Still
    an ``OSError`` (``except OSError`` catches it)."""


class _Target(io.FileIO):
    """The temporary file's descriptor: a failure to write to it is a :class:`WriteError`
    naming the file asked for."""

    path: str

    def write(self, data: ReadableBuffer, /) -> int:
        with naming(self.path, ""):
            return super().write(data)


def target_of(path: str | os.PathLike[str]) -> Path:
    """The file that writing ``path`` replaces: the end of its chain of symbolic links."""
    return Path(os.path.realpath(path))


@contextlib.contextmanager
def writing(path: str | os.PathLike[str]) -> Iterator[IO[bytes]]:
    """A binary file that replaces ``path`` whole when the block ends, or not at all.

    Raises ``IsADirectoryError`` when ``path`` is a folder, ``FileNotFoundError`` when its
    folder does not exist, and a :class:`WriteError` when making, writing, flushing or
    renaming the file fails, the target untouched.
    """
    target = target_of(path)
    if target.is_dir():
        raise IsADirectoryError(21, "is a folder", str(path))
    folder = target.parent
    try:
        old = target.stat()
    except FileNotFoundError:
        old = None
    if old is not None and not stat.S_ISREG(old.st_mode):
        # a device (/dev/null), a FIFO, a terminal: written to, never replaced
        with open(target, "wb") as fh:
            yield fh
        return
    import tempfile  # (when a file is written: a run that writes none never needs it)

    tmp = ""
    with signals_held(), naming(path, tmp):  # (a signal before it is noted would leave it)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
        _PENDING.add(tmp)
    try:
        raw = _Target(fd, "wb", closefd=True)
        raw.path = os.fspath(path)
        with io.BufferedWriter(raw) as fh:
            yield fh
            with naming(path, tmp):
                fh.flush()
                os.fsync(fh.fileno())
        with naming(path, tmp):
            if old is not None:
                os.chmod(tmp, old.st_mode & 0o7777)
                if (old.st_uid, old.st_gid) != (os.getuid(), os.getgid()):
                    with contextlib.suppress(OSError):
                        os.chown(tmp, old.st_uid, old.st_gid)
            else:
                mask = os.umask(0o22)
                os.umask(mask)
                os.chmod(tmp, 0o666 & ~mask)
            os.replace(tmp, target)
        _PENDING.discard(tmp)
        sync_folder(folder)
    finally:
        if tmp in _PENDING:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            _PENDING.discard(tmp)


@contextlib.contextmanager
def naming(path: str | os.PathLike[str], tmp: str) -> Iterator[None]:
    """An error of making, writing or renaming a temporary file ``tmp`` (any error,
    when ``tmp`` is empty: it is being made) is a :class:`WriteError` that names
    ``path``, the file or folder the user asked for: the temporary file's name is of no
    use to them.

    >>> try:
    ...     with naming("out.json", ".out.json.x1.tmp"):
    ...         raise PermissionError(13, "Permission denied", ".out.json.x1.tmp")
    ... except WriteError as err:
    ...     print(err.filename, err.strerror)
    out.json Permission denied
    """
    try:
        yield
    except WriteError:
        raise
    except OSError as err:
        name = err.filename
        if name is None or not tmp or name == tmp:
            name = os.fspath(path)
        raise WriteError(err.errno, err.strerror or str(err), name) from err


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Hold back SIGINT, SIGTERM and SIGHUP (:data:`HELD_SIGNALS`) for a moment, in this
    thread, then let them through. A thread or a forked process started meanwhile keeps
    them held (:mod:`.workers`' workers until :func:`~.workers.worker_start`).

    The mask holds a signal back from this thread only: another thread of the process
    without it (Dask's client threads) may take the signal, and Python then runs its
    handler here, between any two steps of the block. A handler that asks
    :func:`held_back` first lets it wait: the signal is raised again as the outermost
    block ends."""
    try:
        before = signal.pthread_sigmask(signal.SIG_BLOCK, ())  # (read: nothing changes)
    except (AttributeError, OSError, ValueError):  # (no sigmask on this system)
        yield
        return
    me = _thread.get_ident()
    depth = _DEPTH.get(me, 0)
    if not depth:  # (one noted as the last block ended, once a signal had ended it)
        _NOTED.pop(me, None)
    try:
        _DEPTH[me] = depth + 1
        # (a handler due runs as this call returns, the mask already changed: restored)
        signal.pthread_sigmask(signal.SIG_BLOCK, HELD_SIGNALS)
        yield
    finally:
        try:
            signal.pthread_sigmask(signal.SIG_SETMASK, before)
        finally:
            # (the depth first: a handler that runs from here on raises at once, so
            # that no signal is noted once the noted one is taken)
            if depth:
                _DEPTH[me] = depth
            else:
                _DEPTH.pop(me, None)
            signum = None if depth else _NOTED.pop(me, None)
            if signum is not None:
                signal.raise_signal(signum)  # (its handler runs as this returns)


def held_back(signum: int) -> bool:
    """Whether the handler of ``signum``, running now, is to let it wait: True in a
    :func:`signals_held` block of this thread, the signal then noted and raised again
    as the block ends. A second signal while one waits goes through (False): a block
    that waits long (a Dask task's value fetched over the network) is still ended by a
    second Ctrl-C. The command line's handlers ask it first.

    >>> held_back(signal.SIGTERM)
    False
    """
    me = _thread.get_ident()
    if not _DEPTH.get(me) or me in _NOTED:
        return False
    _NOTED[me] = signum
    return True


def _forget_held() -> None:
    """In a child just forked: no block of the parent's is open here."""
    _DEPTH.clear()
    _NOTED.clear()


#: The open :func:`signals_held` blocks of each thread, and the signal a handler let wait
#: there, by the thread's id (``threading`` is not imported for it: the command line
#: starts without it).
_DEPTH: dict[int, int] = {}
_NOTED: dict[int, int] = {}
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_held)


#: Past this many files, :func:`sync_tree` flushes the whole file system at once.
BATCH_FILES = 32


def sync_tree(top: str | os.PathLike[str]) -> None:
    """Flush to the disk every file under ``top`` and every folder of it: what a folder
    built aside (a site, the files of a split) does before it is renamed into place, so
    that the rename never shows files whose bytes are not yet on the disk.

    A few files are flushed one by one (``fsync``). Past :data:`BATCH_FILES`, the file
    system that holds ``top`` is flushed in one call (Linux's ``syncfs``): one ``fsync``
    a file costs a journal commit each, about 0.5 to 3.5 ms, which made 10,000 pages
    take 5 to 35 s; ``syncfs`` takes what writing the dirty pages takes. Where it is not
    available, or fails, every file is flushed one by one.
    """
    files: list[str] = []
    folders: list[str] = []
    for folder, _, names in os.walk(top):
        folders.append(folder)
        for name in names:
            path = os.path.join(folder, name)
            if os.path.isfile(path) and not os.path.islink(path):
                files.append(path)
    if len(files) + len(folders) <= BATCH_FILES or not sync_file_system(top):
        for path in files:
            fd = os.open(path, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        for folder in folders:
            sync_folder(folder)


def sync_file_system(top: str | os.PathLike[str]) -> bool:
    """Flush the file system holding ``top`` (Linux's ``syncfs``, which since Linux 5.8
    reports write errors); False when that cannot be done here."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes  # only here: most runs write no folder

    try:
        syncfs = ctypes.CDLL(None, use_errno=True).syncfs
    except (OSError, AttributeError):
        return False
    fd = os.open(top, os.O_RDONLY)
    try:
        return bool(syncfs(fd) == 0)
    finally:
        os.close(fd)


def sync_folder(folder: str | os.PathLike[str]) -> None:
    """Make a rename in ``folder`` durable (best effort: not every system can open a
    folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def pending() -> frozenset[str]:
    """The temporary files being written now (each removed when its block ends)."""
    return frozenset(_PENDING)


def discard_pending() -> None:
    """Remove every temporary file still being written: the last thing a program does
    when it is stopped in a way that may skip the ``with`` blocks' endings."""
    for tmp in list(_PENDING):
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        _PENDING.discard(tmp)
