"""Limits: absurd inputs give one clear error in bounded time and memory, never a hang.

The inputs are generated in tmp_path (nothing large is committed): a 100 MB line, a
million-card trick, a record of endlessly repeated sections, a fault on every card, numbers
of thousands of digits, JSON nested a hundred thousand deep. Each test checks the
diagnostic (L001 limit-exceeded, or the ordinary code where the input is merely wrong),
that the records around the absurd one are read whole, and a generous time bound (the
machine may be busy); the 100 MB tests also bound the memory traced while reading.
"""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Final

import pytest

from tarotnotation import limits, notation
from tarotnotation.diagnostics import Code
from tarotnotation.formats import json as tjson
from tarotnotation.formats import tarotclub
from tarotnotation.replay import replay
from tarotnotation.simulate import random_deal
from tarotnotation.source import ReadDeal

ROOT = Path(__file__).resolve().parents[2]
GOOD: Final = random_deal(random.Random(1), 4)
GOOD_TEXT: Final = notation.dumps(GOOD)
GOOD_LINES: Final = GOOD_TEXT.count("\n")
HEAD: Final = '[Event "absurd"]\n[Players "4"]\n'
MB: Final = 1 << 20


@contextmanager
def bounded(seconds: float, megabytes: float | None = None) -> Iterator[None]:
    """Fails when the block takes more CPU time (this process's: a pathological input costs
    CPU; the wall clock of a loaded machine says nothing of it), or (when given) traces a
    higher memory peak."""
    if megabytes is not None:
        tracemalloc.start()
    start = time.process_time()
    try:
        yield
    finally:
        took = time.process_time() - start
        peak = 0
        if megabytes is not None:
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
    assert took < seconds, f"took {took:.1f} s of CPU"
    if megabytes is not None:
        assert peak < megabytes * MB, f"peak {peak / MB:.1f} MB"


def _write(path: Path, *parts: bytes | Callable[[Path], None]) -> Path:
    """A file of the parts: bytes as they are, functions that append to the file."""
    path.write_bytes(b"")
    for part in parts:
        if isinstance(part, bytes):
            with path.open("ab") as fh:
                fh.write(part)
        else:
            part(path)
    return path


def _big_line(path: Path, prefix: bytes, unit: bytes, size: int) -> None:
    with path.open("ab") as fh:
        fh.write(prefix)
        block = unit * (MB // len(unit))
        for _ in range(size // len(block)):
            fh.write(block)
        fh.write(b"\n")


def _sandwich(tmp_path: Path, name: str, middle: bytes | Callable[[Path], None]) -> Path:
    good = GOOD_TEXT.encode("utf-8")
    return _write(tmp_path / name, good, b"\n", middle, b"\n", good)


def _check_sandwich(deals: list[ReadDeal], code: Code, line: int) -> None:
    assert len(deals) == 3, [d.diagnostics for d in deals]
    assert deals[0].record == GOOD
    assert deals[2].record == GOOD
    assert deals[1].record is None
    codes = [(d.code, d.location.line) for d in deals[1].diagnostics]
    assert (code, line) in codes, codes


def test_a_100_mb_line_is_skipped_unheld(tmp_path: Path) -> None:
    path = _sandwich(tmp_path, "long-line.tarot", lambda p: _big_line(
        p, HEAD.encode() + b"play: 1. ", b"7H 8H 9H 10H ", 100 * MB))
    with bounded(30, megabytes=16):
        deals = list(notation.read(path))
    _check_sandwich(deals, Code.LIMIT_EXCEEDED, GOOD_LINES + 4)
    [diag] = deals[1].diagnostics
    assert "this line has more than 1,048,576 characters" in diag.message
    assert deals[2].offset == path.stat().st_size - len(GOOD_TEXT.encode())


def test_a_million_card_trick_on_one_line(tmp_path: Path) -> None:
    path = _sandwich(tmp_path, "million-card-trick.tarot",
                     HEAD.encode() + b"play: 1. " + b"7H " * 1_000_000)
    with bounded(10):
        deals = list(notation.read(path))
    _check_sandwich(deals, Code.LIMIT_EXCEEDED, GOOD_LINES + 4)


_CHILD_READ: Final = """
import json, random, resource, sys, time
from tarotnotation import notation
from tarotnotation.simulate import random_deal
good = random_deal(random.Random(1), 4)
assert list(notation.reads(notation.dumps(good)))[0].record == good  # every lazy import done
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.process_time()
deals = list(notation.read(sys.argv[1]))
took = time.process_time() - start
grew = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
print(json.dumps({"took": took, "grew_mb": grew / 1024, "good": [d.record == good for d in deals],
                  "diagnostics": [[(x.code.value, x.location.line) for x in d.diagnostics]
                                  for d in deals]}))
"""


@pytest.mark.process
def test_a_million_card_trick_over_a_million_lines(tmp_path: Path) -> None:
    """A record of a million lines: one L001 at the line where it passes the limit, in
    bounded time and memory. It is read in a process of its own, whose peak resident
    memory is the measure: tracemalloc would multiply the cost of each of the million
    lines' allocations by about nine, and the time bound is the reader's, not the tracer's."""
    path = _sandwich(tmp_path, "million-lines.tarot",
                     HEAD.encode() + b"play: 1.\n" + b"7H\n" * 1_000_000)
    ran = subprocess.run([sys.executable, "-c", _CHILD_READ, str(path)], capture_output=True,
                         text=True, timeout=120, check=True)
    seen = json.loads(ran.stdout)
    assert seen["took"] < 30, f"took {seen['took']:.1f} s of CPU"
    assert seen["grew_mb"] < 24, f"peak resident memory grew by {seen['grew_mb']:.1f} MB"
    # the record passes 1 MiB at the line that crosses it: 3 bytes a line after the head
    crossing = GOOD_LINES + 2 + 3 + (limits.MAX_RECORD_CHARS - 40) // 3
    assert seen["good"] == [True, False, True]
    [[(code, line)]] = [seen["diagnostics"][1]]
    assert code == Code.LIMIT_EXCEEDED.value
    assert abs((line or 0) - crossing) <= 2


def test_a_long_trick_within_the_limit_is_refused_quickly() -> None:
    text = HEAD + "play: 1. " + "7H " * 100_000 + "\n"
    with bounded(10):
        [deal] = list(notation.reads(text))
    assert deal.record is None
    assert [d.code for d in deal.diagnostics] == [Code.MALFORMED_RECORD]
    assert "found 100000" in deal.diagnostics[0].message


def test_endlessly_repeated_sections(tmp_path: Path) -> None:
    path = _sandwich(tmp_path, "repeated-sections.tarot",
                     HEAD.encode() + b"auction: pass pass pass pass\n" * 100_000)
    with bounded(10):
        deals = list(notation.read(path))
    assert len(deals) == 3
    assert deals[1].diagnostics[0].code is Code.LIMIT_EXCEEDED
    with bounded(10):  # under the limit: the second section is a syntax error, at once
        [deal] = list(notation.reads(HEAD + "auction: pass pass\n" * 30_000))
    assert [(d.code, d.location.line) for d in deal.diagnostics] == [(Code.SYNTAX_ERROR, 4)]


def test_endlessly_repeated_tags_within_the_limit() -> None:
    text = '[Event "x"]\n' * 60_000 + "result: garde taker E\n"
    with bounded(15):
        [deal] = list(notation.reads(text))
    assert deal.ok
    assert deal.record is not None
    assert len(deal.record.tags) == 60_000


def test_a_fault_on_every_card_is_listed_up_to_the_limit() -> None:
    text = HEAD + "hand S: " + "7H " * 200_000 + "\n"
    with bounded(10):
        [deal] = list(notation.reads(text))
    codes = [d.code for d in deal.diagnostics]
    assert codes[: limits.MAX_FAULTS] == [Code.BAD_VALUE] * limits.MAX_FAULTS
    assert codes[limits.MAX_FAULTS] is Code.LIMIT_EXCEEDED
    assert len(codes) == limits.MAX_FAULTS + 1
    # each duplicate is reported where it is written
    assert [d.location.col for d in deal.diagnostics[:3]] == [12, 15, 18]


@pytest.mark.parametrize(("section", "code"), [
    ("result: garde points {}", Code.BAD_VALUE),
    ("result: garde bouts {}", Code.BAD_VALUE),
    ("result: garde scores S+{}", Code.LIMIT_EXCEEDED),
    ("play: {}. 7H", Code.SYNTAX_ERROR),
])
def test_a_number_of_thousands_of_digits(section: str, code: Code) -> None:
    text = HEAD + section.format("9" * 5000) + "\n"
    with bounded(5):
        [deal] = list(notation.reads(text))
    assert deal.record is None
    assert code in [d.code for d in deal.diagnostics]
    assert all(d.location.line == 3 for d in deal.diagnostics)


def test_json_lines_100_mb_line_is_skipped_unheld(tmp_path: Path) -> None:
    good = tjson.dumps_bytes(GOOD)
    path = _write(tmp_path / "long-line.jsonl", good, b"\n", lambda p: _big_line(
        p, b'{"players":4,"play":[{"cards":[', b'{"card":"7H"},', 100 * MB), good, b"\n")
    with bounded(30, megabytes=16):
        deals = list(tjson.read(path))
    assert [d.record is not None for d in deals] == [True, False, True]
    [diag] = deals[1].diagnostics
    assert (diag.code, diag.location.line) == (Code.LIMIT_EXCEEDED, 2)
    assert deals[2].line == 3
    assert deals[2].offset == path.stat().st_size - len(good) - 1


def test_json_lines_first_line_of_100_mb(tmp_path: Path) -> None:
    good = tjson.dumps_bytes(GOOD)
    path = _write(tmp_path / "long-first-line.jsonl", lambda p: _big_line(
        p, b'{"players":4,"comments":["', b"x" * 64, 100 * MB), good, b"\n")
    with bounded(30, megabytes=16):
        deals = list(tjson.read(path))
    assert [d.record is not None for d in deals] == [False, True]
    assert deals[0].diagnostics[0].code is Code.LIMIT_EXCEEDED


def test_json_record_document_past_the_limit() -> None:
    data = b'{"players": 4,\n"play": [{"cards": [' + b'{"card": "7H"},' * 200_000 + b"]}]}"
    with bounded(5):
        [deal] = list(tjson.read(data, name="big.json"))
    assert deal.diagnostics[0].code is Code.LIMIT_EXCEEDED


def test_json_million_card_trick_in_an_archive_document() -> None:
    cards = b",".join([b'{"card":"7H"}'] * 1_000_000)
    data = (b'{"tarotnotation":1,"deals":[' + tjson.dumps_bytes(GOOD) + b',{"players":4,"play":'
            b'[{"cards":[' + cards + b"]}]}]}")
    with bounded(15, megabytes=16):  # the archive is read a record at a time
        deals = list(tjson.read(io.BytesIO(data)))
    assert deals[0].record == GOOD
    [diag] = deals[1].diagnostics  # a record of 13 MB: past MAX_JSON_RECORD_BYTES
    assert (diag.code, diag.location.path) == (Code.LIMIT_EXCEEDED, "$.deals[1]")
    assert "more than 1,048,576 bytes" in diag.message
    # within the bytes, past MAX_ITEMS
    cards = b",".join([b'{"card":"7H"}'] * 1001)
    data = (b'{"tarotnotation":1,"deals":[' + tjson.dumps_bytes(GOOD) + b',{"players":4,"play":'
            b'[{"cards":[' + cards + b"]}]}]}")
    for source in (data, data + b" " * limits.MAX_JSON_RECORD_BYTES):  # whole, streamed
        deals = list(tjson.read(io.BytesIO(source)))
        assert deals[0].record == GOOD
        [diag] = deals[1].diagnostics
        assert (diag.code, diag.location.path) == (Code.LIMIT_EXCEEDED,
                                                   "$.deals[1].play[0].cards")
        assert "1,001 items" in diag.message


@pytest.mark.parametrize("data", [
    b"[" * 100_000 + b"]" * 100_000,
    b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
    b'{"players": 4, "dealer": 1' + b"0" * 5000 + b"}",
    b'{"players": 4, "result": {"taker_points": 1e999}}',
], ids=["deep-list", "deep-object", "huge-integer", "huge-float"])
def test_json_nesting_and_numbers_past_orjson_limits(data: bytes) -> None:
    for reader in (tjson.read, tarotclub.read):
        with bounded(5):
            [deal] = list(reader(data, name="x.json"))
        assert [d.code for d in deal.diagnostics] == [Code.LIMIT_EXCEEDED]
        assert deal.diagnostics[0].location.line == 1


def test_json_points_out_of_range() -> None:
    [deal] = list(tjson.read(b'{"players": 4, "result": {"taker_points": 1e308}}'))
    assert deal.record is None
    assert [(d.code, d.location.path) for d in deal.diagnostics] == [
        (Code.BAD_VALUE, "$.result.taker_points")]  # S006, as points out of range in text


def test_tarotclub_file_past_the_limit() -> None:
    data = b'{"version": "3", "deal_info": {}, "tricks": ["' + b"01-T;" * 300_000 + b'"]}'
    with bounded(5):
        [deal] = list(tarotclub.read(data, name="t.json"))
    assert [d.code for d in deal.diagnostics] == [Code.LIMIT_EXCEEDED]


def test_a_long_text_stream_without_readline() -> None:
    # a source that can only be iterated over is read too (lines are then held whole)
    lines = iter([HEAD.encode(), b"play: 1. " + b"7H " * 400_000 + b"\n", GOOD_TEXT.encode()])

    class Lines(io.RawIOBase):
        def __iter__(self) -> Iterator[bytes]:
            return lines

    deals = list(notation.read(Lines()))  # type: ignore[arg-type]
    assert deals[0].diagnostics[0].code is Code.LIMIT_EXCEEDED
    assert deals[1].record == GOOD
    assert replay(GOOD).ok


def test_limits_are_documented() -> None:
    doc = (ROOT / "docs" / "reliability.md").read_text(encoding="utf-8")
    for name in limits.__all__:
        if name.isupper():
            assert name in doc, name
