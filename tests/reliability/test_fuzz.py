"""Fuzzing: whatever bytes the readers are given, they yield records and diagnostics.

Valid records (generated deals with annotations, at 3, 4 and 5 players, written in the
notation, in JSON and in TarotClub's format) are mutated by hypothesis: characters, lines
and cards deleted, duplicated and swapped, the text truncated, random bytes spliced in.
Each mutant goes through the text reader (``notation.reads`` and ``notation.read`` on
bytes), the JSON importer, the TarotClub importer, and every record read goes through the
replay. Nothing may raise; every diagnostic must say where it is: file and line for text,
the JSON path (or the line of a JSON Lines file) for JSON.

Example counts: ``FUZZ_EXAMPLES`` per test (500 in CI: 3,000 cases, about 15 s), or
``TAROT_FUZZ_EXAMPLES=N``; ``TAROT_SLOW=1`` gives 5,000. See docs/reliability.md.
"""

from __future__ import annotations

import io
import os
import random
import re
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Final

from budget import cases
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tarotnotation import notation
from tarotnotation.archive import check_paths
from tarotnotation.diagnostics import Diagnostic
from tarotnotation.formats import json as tjson
from tarotnotation.formats import tarotclub
from tarotnotation.records import DealRecord
from tarotnotation.replay import replay
from tarotnotation.rules import Ruleset
from tarotnotation.simulate import random_deal
from tarotnotation.source import ReadDeal

_SLOW = os.environ.get("TAROT_SLOW", "") not in ("", "0")
FUZZ_EXAMPLES: Final = int(os.environ.get("TAROT_FUZZ_EXAMPLES", cases(500, slow=5000)))
_FUZZ = settings(max_examples=FUZZ_EXAMPLES, deadline=None, derandomize=not _SLOW,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _annotated(rec: DealRecord, rng: random.Random) -> DealRecord:
    """The record with comments and glyphs on the deal, a bid, a trick and a card."""
    update: dict[str, object] = {"comments": ("donne", "é 🃏 \\ [x]")}
    if rec.auction:
        bids = list(rec.auction)
        bids[-1] = bids[-1].model_copy(update={"glyph": "!?", "comments": ("hum",)})
        update["auction"] = tuple(bids)
    if rec.play:
        tricks = list(rec.play)
        t = rng.randrange(len(tricks))
        cards = list(tricks[t].cards)
        cards[0] = cards[0].model_copy(update={"glyph": "?", "comments": ("revoke?",)})
        tricks[t] = tricks[t].model_copy(update={"cards": tuple(cards), "comments": ("x",)})
        update["play"] = tuple(tricks)
    return DealRecord.model_validate(rec.model_copy(update=update).model_dump())


def _seed_records() -> list[DealRecord]:
    rng = random.Random(6)
    out = []
    for i in range(12):
        players = (3, 4, 5)[i % 3]
        rules = Ruleset.from_spec("pagat") if i % 4 == 3 else None
        rec = random_deal(rng, players, ruleset=rules)
        out.append(_annotated(rec, rng) if i % 2 else rec)
    return out


SEEDS: Final = _seed_records()
TEXTS: Final = [notation.dumps(r) for r in SEEDS]
JSONS: Final = [tjson.dumps_bytes(r) for r in SEEDS]


def _clubs() -> list[bytes]:
    out = []
    for rec in SEEDS:
        try:
            out.append(tarotclub.dumps(rec))
        except ValueError:  # what TarotClub's format cannot hold
            continue
    return out


CLUBS: Final = _clubs()
_CARD: Final = re.compile(rb"\b(?:[2-9A-Z]?[0-9JNQKSHDC]{1,2}|T\d{1,2}|EX)\b")
_JUNK: Final = [b"\x00", b"\xff", b"\xe9", b"\xc3", b"{", b"}", b"[", b"]", b'"', b"\\",
                b"\n", b"\r\n", b"\t", b"\xef\xbb\xbf", b"1.", b"play:", b"result:", b"T21",
                b"99999999999999999999999", b"-", b":", b",", "\u2028".encode("utf-8"),
                b"\xf0\x9f\x83\x8f", b"1e999", b"null"]


@st.composite
def mutants(draw: st.DrawFn, pool: list[bytes]) -> bytes:
    """A valid input with 1 to 6 mutations."""
    data = bytearray(draw(st.sampled_from(pool)))
    for _ in range(draw(st.integers(1, 6))):
        op = draw(st.sampled_from(("delete", "duplicate", "swap", "insert", "junk", "line",
                                   "card", "truncate", "random")))
        n = len(data)
        if n == 0:
            data += draw(st.binary(max_size=20))
            continue
        i = draw(st.integers(0, n - 1))
        if op == "delete":
            del data[i:i + draw(st.integers(1, 8))]
        elif op == "duplicate":
            data[i:i] = data[i:i + draw(st.integers(1, 8))]
        elif op == "swap":
            j = draw(st.integers(0, n - 1))
            data[i], data[j] = data[j], data[i]
        elif op == "insert":
            data[i:i] = draw(st.binary(min_size=1, max_size=8))
        elif op == "junk":
            data[i:i] = draw(st.sampled_from(_JUNK))
        elif op == "line":
            lines = bytes(data).split(b"\n")
            k = draw(st.integers(0, len(lines) - 1))
            how = draw(st.sampled_from(("delete", "duplicate", "swap")))
            if how == "delete":
                del lines[k]
            elif how == "duplicate":
                lines.insert(k, lines[k])
            else:
                m = draw(st.integers(0, len(lines) - 1))
                lines[k], lines[m] = lines[m], lines[k]
            data = bytearray(b"\n".join(lines))
        elif op == "card":
            cards = list(_CARD.finditer(data))
            if cards:
                a = cards[draw(st.integers(0, len(cards) - 1))]
                b = cards[draw(st.integers(0, len(cards) - 1))]
                how = draw(st.sampled_from(("delete", "duplicate", "swap")))
                if how == "delete":
                    del data[a.start():a.end()]
                elif how == "duplicate":
                    data[a.start():a.start()] = a.group() + b" "
                elif a.start() < b.start():
                    data[b.start():b.end()] = a.group()
                    data[a.start():a.end()] = b.group()
        elif op == "truncate":
            del data[i:]
        else:
            data[i:i + draw(st.integers(0, 16))] = draw(st.binary(max_size=16))
    return bytes(data)


def _replays(deals: Iterable[ReadDeal]) -> list[ReadDeal]:
    out = []
    for deal in deals:
        out.append(deal)
        if deal.record is not None:
            result = replay(deal.record, deal=deal.index, source=deal.source)
            for d in result.diagnostics:
                assert str(d.location), d  # a deal, trick, seat, card or path
    return out


def _text_located(d: Diagnostic, name: str) -> None:
    assert d.location.file == name, d
    assert d.location.line is not None, d
    assert d.location.line >= 1, d


def _json_located(d: Diagnostic) -> None:
    assert d.location.path is not None or d.location.line is not None, d
    if d.location.path is not None:
        assert d.location.path.startswith("$"), d


@_FUZZ
@given(mutants([t.encode("utf-8") for t in TEXTS]))
def test_text_reader_never_crashes(data: bytes) -> None:
    deals = _replays(notation.read(io.BytesIO(data), name="fuzz.tarot"))
    for deal in deals:
        for d in deal.diagnostics:
            _text_located(d, "fuzz.tarot")
    text = data.decode("utf-8", "replace")
    again = _replays(notation.reads(text, name="fuzz.tarot"))
    for deal in again:
        for d in deal.diagnostics:
            _text_located(d, "fuzz.tarot")
    if data.isascii():  # the same text as str and as bytes: the same deals
        assert [d.record for d in again] == [d.record for d in deals]


@_FUZZ
@given(mutants([t.encode("utf-8") for t in TEXTS]), st.integers(2, 4))
def test_text_archive_loses_no_record(data: bytes, at: int) -> None:
    # a damaged record between two good ones: the good ones are read whole (the first one
    # when the damaged one still starts with a tag line: otherwise its text continues the
    # first record, which is then damaged too)
    good = TEXTS[at].encode("utf-8")
    archive = good + data + b"\n\n" + good
    deals = list(notation.read(io.BytesIO(archive), name="a.tarot"))
    expected = notation.loads(TEXTS[at])
    if data.startswith(b"["):
        assert deals[0].ok
        assert deals[0].record == expected
    assert len(deals) >= 2
    assert deals[-1].ok
    assert deals[-1].record == expected


@_FUZZ
@given(mutants(JSONS))
def test_json_importer_never_crashes(data: bytes) -> None:
    for deal in _replays(tjson.read(data, name="fuzz.json")):
        for d in deal.diagnostics:
            _json_located(d)
            assert d.location.file == "fuzz.json", d


@_FUZZ
@given(st.lists(mutants(JSONS), min_size=1, max_size=4))
def test_json_lines_importer_never_crashes(lines: list[bytes]) -> None:
    data = b"\n".join([JSONS[0], *(ln.replace(b"\n", b" ") for ln in lines), JSONS[1]])
    deals = _replays(tjson.read(data, name="fuzz.jsonl"))
    for deal in deals:
        for d in deal.diagnostics:
            _json_located(d)
    if deals[0].ok and len(deals) > 2:  # JSON Lines: the last good line is read whole
        assert deals[-1].record == tjson.loads(JSONS[1])


@_FUZZ
@given(mutants(CLUBS))
def test_tarotclub_importer_never_crashes(data: bytes) -> None:
    for deal in _replays(tarotclub.read(data, name="fuzz.json")):
        for d in deal.diagnostics:
            _json_located(d)


@_FUZZ
@given(st.binary(max_size=400))
def test_random_bytes_never_crash_any_reader(data: bytes) -> None:
    _replays(notation.read(io.BytesIO(data), name="r.tarot"))
    _replays(tjson.read(data, name="r.json"))
    _replays(tarotclub.read(data, name="r.json"))


def test_seed_inputs_are_valid() -> None:
    # the fuzz starts from valid inputs: each reads and replays clean
    for text, js in zip(TEXTS, JSONS, strict=True):
        [deal] = list(notation.reads(text))
        assert deal.record is not None
        assert deal.ok
        assert replay(deal.record).ok
        assert tjson.loads(js) == deal.record
    assert CLUBS
    for club in CLUBS:
        [deal] = list(tarotclub.read(club))
        assert deal.ok, deal.diagnostics


# --- the fast paths of a check: the same report as the replay --------------------------

_TMP: Final = Path(tempfile.mkdtemp(prefix="tarot-fuzz-"))


def _report(path: Path, keep: bool) -> list[tuple[object, ...]]:
    return [(c.index, c.status, dict(c.scores or {}), c.taker_half,
             sorted((d.code.value, d.location.line, d.location.col, d.location.path or "")
                    for d in c.diagnostics))
            for c in check_paths([path], keep=keep)]


@_FUZZ
@given(st.lists(mutants(JSONS), min_size=1, max_size=3), st.integers(0, 3))
def test_quick_checks_of_json_lines_report_as_the_replay(lines: list[bytes], good: int) -> None:
    # check_paths(keep=False) judges plain clean deals without a replay (tarot validate):
    # on damaged archives it must report exactly what the replay reports
    body = [ln.replace(b"\n", b" ") for ln in lines] + JSONS[:good]
    path = _TMP / "fuzz.jsonl"
    path.write_bytes(b"\n".join([JSONS[2], *body]) + b"\n")
    assert _report(path, keep=False) == _report(path, keep=True)


@_FUZZ
@given(mutants([t.encode("utf-8") for t in TEXTS]))
def test_quick_checks_of_text_report_as_the_replay(data: bytes) -> None:
    path = _TMP / "fuzz.tarot"
    path.write_bytes(TEXTS[0].encode("utf-8") + b"\n" + data)
    assert _report(path, keep=False) == _report(path, keep=True)
