"""The journal of an analysis written to a file: each finished deal's result, kept beside
the output while the run lasts, so that a run stopped in the middle (a lost scheduler, a
signal) continues with ``tarot analyze --resume`` without analysing a finished deal again.

The journal is made whole (:func:`tarotnotation.atomic.writing`: a first line that says
which run it belongs to, :func:`run_key`), then each deal's result is appended as one
line and flushed to the disk before the next (``fsync``): a line cut short by a crash is
not a result, and is dropped when the journal is opened again. Results are looked up by
file and deal number, each read from the disk when asked for (the journal of a long run
is never held in memory). The output is still written whole at the end; the journal is
removed then.

>>> import pathlib, tempfile
>>> from tarotnotation.records import DealRecord
>>> path = str(pathlib.Path(tempfile.mkdtemp()) / "out.tarot.journal")
>>> with Journal(path, "k1", resume=False) as journal:
...     journal.add("a.tarot", 2, DealRecord(players=4), error=False, done=True)
>>> with Journal(path, "k1", resume=True) as journal:
...     journal.resumed, journal.get("a.tarot", 2).done, journal.get("a.tarot", 1)
(1, True, None)
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import Any, Final, NamedTuple

import orjson

from .atomic import writing
from .i18n import Msg
from .inputs import is_url, size_of
from .records import DealRecord

__all__ = ["SUFFIX", "Entry", "Journal", "JournalError", "journal_path", "run_key"]

#: The journal of OUT is OUT followed by this.
SUFFIX: Final = ".journal"
_VERSION: Final = 1


class JournalError(Exception):
    """A journal that cannot be used for this run; ``message`` says why (a :class:`Msg`)."""

    def __init__(self, message: Msg) -> None:
        super().__init__(message)
        self.message = message


class Entry(NamedTuple):
    """A finished deal's result: its record as analysed (None: it could not be read),
    whether it had an error, and whether it was analysed."""

    record: DealRecord | None
    error: bool
    done: bool


def journal_path(output: str) -> str:
    """Where the journal of an analysis to ``output`` is kept: beside it.

    >>> journal_path("club/analysed.tarot")
    'club/analysed.tarot.journal'
    """
    return output + SUFFIX


def run_key(files: Sequence[str], options: Mapping[str, Any], version: str) -> str:
    """What a journal's results depend on: the inputs (their names, sizes and times of
    change), the options and the version; a journal of another run is refused."""
    described = []
    for f in files:
        try:
            if is_url(f):  # (a URL's size: its time of change is not every file system's)
                described.append([f, size_of(f), None])
                continue
            st = os.stat(f)
            described.append([os.path.abspath(f), st.st_size, st.st_mtime_ns])
        except OSError:
            described.append([f, None, None])
    data = orjson.dumps({"files": described, "options": dict(options), "version": version},
                        option=orjson.OPT_SORT_KEYS)
    return hashlib.sha256(data).hexdigest()


class Journal:
    """A run's journal at ``path``: with ``resume``, the one left there by the same run
    (``key``) continued (none there: a new one); else a new one, whatever was there."""

    def __init__(self, path: str, key: str, *, resume: bool) -> None:
        self.path = path
        self._index: dict[tuple[str, int], tuple[int, int]] = {}
        self._lock = threading.Lock()
        end = self._read(key) if resume else None
        if end is None:
            with writing(path) as fh:
                fh.write(orjson.dumps({"journal": _VERSION, "key": key}) + b"\n")
            end = os.path.getsize(path)
        self.resumed = len(self._index)
        self._fh = open(path, "r+b")  # noqa: SIM115 (closed by close())
        self._fh.truncate(end)  # (a line cut short by a crash)
        self._fh.seek(end)

    def _read(self, key: str) -> int | None:
        """Index the results of the journal at ``path``; the offset after its last whole
        line, or None when there is none."""
        try:
            fh = open(self.path, "rb")  # noqa: SIM115
        except FileNotFoundError:
            return None
        except OSError as err:
            raise JournalError(Msg("{journal}: cannot read: {reason}", journal=self.path,
                                   reason=err.strerror or str(err))) from None
        with fh:
            head = fh.readline()
            try:
                said = orjson.loads(head)
            except orjson.JSONDecodeError:
                said = None
            if not isinstance(said, dict) or said.get("journal") != _VERSION:
                raise JournalError(Msg("{journal}: not a journal of tarot analyze: remove it",
                                       journal=self.path))
            if said.get("key") != key:
                raise JournalError(Msg(
                    "{journal}: the journal of another run (other inputs, options or version):"
                    " remove it, or run without --resume", journal=self.path))
            end = fh.tell()
            while True:
                line = fh.readline()
                if not line.endswith(b"\n"):
                    return end
                try:
                    entry = orjson.loads(line)
                    where = (str(entry["file"]), int(entry["deal"]))
                except (orjson.JSONDecodeError, KeyError, TypeError, ValueError):
                    return end  # (cut short, then written over by nothing: the end)
                self._index[where] = (end, len(line))
                end += len(line)

    def get(self, file: str, deal: int) -> Entry | None:
        """The result of deal ``deal`` of ``file`` in the journal, None when it has none."""
        where = self._index.get((file, deal))
        if where is None:
            return None
        # (read where it is, the file's position left alone: a pool's thread may look
        # deals up while this one notes others)
        entry = orjson.loads(os.pread(self._fh.fileno(), where[1], where[0]))
        from .formats import json as json_format

        record = entry["record"]
        return Entry(None if record is None else json_format.from_dict(record),
                     bool(entry["error"]), bool(entry["done"]))

    def has(self, file: str, deal: int) -> bool:
        """Whether the journal holds deal ``deal`` of ``file``."""
        return (file, deal) in self._index

    def add(self, file: str, deal: int, record: DealRecord | None, *, error: bool,
            done: bool) -> None:
        """Note a finished deal's result, on the disk before this returns."""
        from .formats import json as json_format

        line = orjson.dumps({"file": file, "deal": deal, "error": error, "done": done,
                             "record": None if record is None else json_format.to_dict(record)}
                            ) + b"\n"
        with self._lock:
            at = self._fh.tell()
            self._fh.write(line)
            self._fh.flush()
            os.fsync(self._fh.fileno())
            self._index[(file, deal)] = (at, len(line))

    def close(self) -> None:
        self._fh.close()

    def remove(self) -> None:
        """The output is complete: the journal goes."""
        self.close()
        with contextlib.suppress(FileNotFoundError):
            os.remove(self.path)

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
