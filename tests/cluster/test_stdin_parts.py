"""Standard input on a cluster (issue 36): the command reads it and hands its JSON Lines to
the workers in chunks as they take them (``tarotnotation.parts.stdin_parts``), each
numbered from the stream's start, so that the deals, lines and offsets are those of the
local run; the command holds a bounded number of chunks, never the stream. Held here to
the serial check with a pool that runs its tasks when their results are taken (no Dask
needed: tests/cluster/test_cluster.py runs the same on a real scheduler)."""

from __future__ import annotations

import io
import os
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tarotnotation import cutting
from tarotnotation.archive import check_paths
from tarotnotation.archives.stream import scan
from tarotnotation.cutting import Chunk
from tarotnotation.formats import json as tarot_json
from tarotnotation.simulate import random_deal


class _Later:
    def __init__(self, pool: _Pool, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
        self._pool, self._fn, self._args = pool, fn, args

    def result(self) -> Any:
        self._pool.waiting -= 1
        return self._fn(*self._args)


class _Pool:
    """Runs a task when its result is taken; notes each task, how much of standard input
    the command had read when it was handed over, and how many were waiting then."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.tasks: list[Any] = []
        self.read_at: list[int] = []
        self.most_waiting = self.waiting = 0

    def submit(self, fn: Callable[..., Any], /, *args: Any) -> _Later:
        self.tasks.append(args[0])
        self.read_at.append(os.lseek(self.fd, 0, os.SEEK_CUR))
        self.waiting += 1
        self.most_waiting = max(self.most_waiting, self.waiting)
        return _Later(self, fn, args)


#: The bytes of a chunk here (``cutting.CHUNK_BYTES``, a megabyte in a real run): the
#: season's 400 KB are cut into chunks as 25 MB would be.
SMALL_CHUNK = 16 << 10


def _season(path: Path) -> bytes:
    """400 KB of JSON Lines (25 chunks of :data:`SMALL_CHUNK` bytes), a blank line, a
    deal with a field too many and a line that is not JSON in the middle."""
    rng = random.Random(5)
    lines = b"".join(tarot_json.dumps_bytes(random_deal(rng, 4)).replace(b"\n", b"") + b"\n"
                     for _ in range(100))
    whole = lines * 2
    assert len(whole) > 24 * SMALL_CHUNK
    middle = whole.index(b"\n", len(whole) // 2) + 1
    data = whole[:middle] + b"  \n" + b'{"players": 4, "bad": 1}\n' + b"not json\n" + (
        whole[middle:])
    path.write_bytes(data)
    return data


@pytest.fixture
def stdin_of(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
             ) -> Iterator[Callable[[], int]]:
    """Standard input made a file of the season, read from its start at each call (its
    descriptor given back); chunks of :data:`SMALL_CHUNK` bytes."""
    monkeypatch.setattr(cutting, "CHUNK_BYTES", SMALL_CHUNK)
    path = tmp_path / "season.jsonl"
    _season(path)
    opened: list[io.TextIOWrapper] = []

    def fresh() -> int:
        stream = io.TextIOWrapper(open(path, "rb"))  # noqa: SIM115 (closed below)
        opened.append(stream)
        monkeypatch.setattr(sys, "stdin", stream)
        return stream.buffer.raw.fileno()  # type: ignore[attr-defined,no-any-return]

    yield fresh
    for stream in opened:
        stream.close()


def test_standard_input_goes_to_a_cluster_in_chunks_numbered_as_the_serial_check(
        stdin_of: Callable[[], int]) -> None:
    stdin_of()
    serial = list(check_paths(["-"], keep=False))
    pool = _Pool(stdin_of())
    there = list(check_paths(["-"], keep=False, jobs=2, pool=pool))
    assert there == serial
    assert sum(1 for c in serial if c.diagnostics) == 2
    assert len(pool.tasks) >= 4
    assert all(isinstance(t, Chunk) for t in pool.tasks)
    assert all(len(b"".join(t.lines)) <= 2 * SMALL_CHUNK for t in pool.tasks)
    # handed over as they are read: the first before most of the stream is read, and a
    # bounded number waiting (the chunks of -j: 8 a worker)
    size = os.fstat(pool.fd).st_size
    assert pool.read_at[0] < size // 2
    assert pool.most_waiting <= 8 * 2 + 1


def test_standard_input_scanned_on_a_cluster_in_chunks_as_the_serial_scan(
        stdin_of: Callable[[], int]) -> None:
    stdin_of()
    serial = list(scan(["-"]))
    pool = _Pool(stdin_of())
    there = list(scan(["-"], jobs=2, pool=pool))
    assert there == serial
    assert len(pool.tasks) >= 4
    assert all(isinstance(t, Chunk) for t in pool.tasks)
    assert pool.read_at[0] < os.fstat(pool.fd).st_size // 2
