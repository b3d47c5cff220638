"""The fast reader against the grammar: the same records, diagnostics and positions.

``tarotnotation.notation.scanner`` reads plain records without Lark and gives up on anything
else (see its module doc). These differential tests read the same texts both ways
(``parse_record(..., fast=False)`` / ``TAROT_READER=grammar`` is the grammar path) and
require equal :class:`ReadDeal` values: record, diagnostics (code, message, file:line:col,
context), source map positions, line and offset. The texts: the examples (and the faulty
ones), generated deals written by the writer (3, 4 and 5 players, annotated), lenient
spellings, hypothesis records (tests/support/strategies.py), word-level mutants of all of these,
and the fuzz corpus ``tests/corpus/`` when it exists. The tests also check that the
scanner really reads the plain records (else the comparison would prove nothing).
"""

from __future__ import annotations

import io
import pickle
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest
from budget import cases
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import records

from tarotnotation import notation
from tarotnotation.notation import parse_record, reader, scanner
from tarotnotation.records import DealRecord
from tarotnotation.simulate import random_deal
from tarotnotation.source import ReadDeal

ROOT: Final = Path(__file__).resolve().parents[2]
EXAMPLES: Final = sorted((ROOT / "examples").rglob("*.tarot"))
CORPUS: Final = sorted(p for p in (ROOT / "tests" / "corpus").rglob("*") if p.is_file())


def _records_of(text: str) -> Iterator[tuple[str, int]]:
    """The text of each record of ``text`` and the line where it starts, as the reader
    cuts them."""
    for chunk in reader.record_chunks(io.StringIO(text)):
        lines = list(chunk.lines)
        while lines and not lines[-1].strip():
            lines.pop()
        yield "\n".join(lines), chunk.line


def _both(text: str, name: str = "t.tarot", line: int = 1) -> tuple[ReadDeal, ReadDeal]:
    grammar = parse_record(text, name=name, line=line, fast=False)
    quick = parse_record(text, name=name, line=line, fast=True)
    return grammar, quick


def _same(grammar: ReadDeal, quick: ReadDeal) -> None:
    assert quick.record == grammar.record
    assert quick.diagnostics == grammar.diagnostics
    assert quick.index == grammar.index
    assert quick.line == grammar.line
    assert (quick.source is None) == (grammar.source is None)
    if grammar.source is not None and quick.source is not None:
        assert quick.source.file == grammar.source.file
        assert dict(quick.source.positions) == dict(grammar.source.positions)


def _check_text(text: str, name: str = "t.tarot") -> int:
    """Compare both paths on every record of ``text``; the number the scanner read."""
    taken = 0
    for body, line in _records_of(text):
        _same(*_both(body, name, line))
        taken += scanner.scan(body) is not None
    return taken


def _stream(data: bytes, monkeypatch: pytest.MonkeyPatch, how: str) -> list[ReadDeal]:
    monkeypatch.setenv(reader.READER_ENV, how)
    return list(notation.read(io.BytesIO(data), name="s.tarot"))


# --- the examples, as files and through the whole reader ----------------------------------


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_examples_read_the_same_both_ways(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = path.read_bytes()
    grammar = _stream(data, monkeypatch, "grammar")
    quick = _stream(data, monkeypatch, "fast")
    assert quick == grammar
    for g, q in zip(grammar, quick, strict=True):
        _same(g, q)


def test_the_scanner_reads_every_valid_example() -> None:
    for path in EXAMPLES:
        text = path.read_text("utf-8")
        expected = len(list(_records_of(text)))
        if path.name == "syntax-error.tarot":
            expected -= 1  # its broken record is the grammar's
        assert _check_text(text, path.name) == expected, path.name


def test_replay_faults_keep_their_file_line_and_column() -> None:
    [deal] = notation.read_file(ROOT / "examples" / "faulty" / "revoke.tarot")
    assert isinstance(deal.source.positions, reader.LazyPositions)  # type: ignore[union-attr]
    from tarotnotation.replay import replay

    faults = [d for d in replay(deal.record, source=deal.source).diagnostics  # type: ignore[arg-type]
              if d.code.value == "P105"]
    assert faults
    assert faults[0].location.line is not None
    assert faults[0].location.col is not None


# --- generated deals ------------------------------------------------------------------------


def _generated(count: int, seed: int) -> list[DealRecord]:
    rng = random.Random(seed)
    return [random_deal(rng, (3, 4, 5)[i % 3]) for i in range(count)]


def _annotate(record: DealRecord, rng: random.Random) -> DealRecord:
    """Glyphs and comments everywhere they can go, leaders and seats written."""
    update: dict[str, object] = {"glyph": "!", "comments": ("deal", "a {nested} \\ one")}
    if record.auction:
        update["auction"] = tuple(
            b.model_copy(update={"glyph": "?!", "comments": ("why",)}) if k % 2 else b
            for k, b in enumerate(record.auction))
    tricks = []
    for t, trick in enumerate(record.play):
        cards = tuple(
            pc.model_copy(update={"glyph": rng.choice(("!", "??")), "comments": ("x y",)})
            if rng.random() < 0.25 else pc
            for pc in trick.cards)
        extra: dict[str, object] = {"cards": cards}
        if t % 3 == 0:
            extra.update(glyph="!!", comments=("trick",))
        tricks.append(trick.model_copy(update=extra))
    update["play"] = tuple(tricks)
    if record.result is not None:
        update["result"] = record.result.model_copy(update={"comments": ("end",)})
    return record.model_copy(update=update)


def test_generated_deals_read_the_same_and_fast() -> None:
    deals = _generated(60, 7)
    text = notation.dumps(deals)
    assert _check_text(text) == len(deals)


def test_annotated_deals_read_the_same_and_fast() -> None:
    rng = random.Random(3)
    deals = [_annotate(r, rng) for r in _generated(30, 11)]
    text = notation.dumps(deals)
    assert _check_text(text) == len(deals)


def test_seats_and_leaders_written_read_the_same_and_fast() -> None:
    deals = _generated(9, 5)
    text = notation.dumps(deals)
    # every card with its seat written (E:7H), and the leader of each trick in parentheses
    lines = []
    for line in text.split("\n"):
        m = re.fullmatch(r"( ?\d+\.) (.*)", line)
        if m:
            cards = " ".join(f"S:{c}" if k % 2 else c for k, c in enumerate(m.group(2).split()))
            line = f"{m.group(1)} (S) {cards}"
        lines.append(line)
    assert _check_text("\n".join(lines)) == len(deals)


_LENIENT: Final = [
    # (what is changed, a function of the canonical text)
    ("lower-case card codes", lambda t: re.sub(r"\b(?:10|[1-9JNQK])[SHDC]\b|\bT\d+\b|\bEX\b",
                                               lambda m: m.group().lower(), t)),
    ("upper-case keywords", lambda t: re.sub(r"(?m)^(hand|chien:|auction:|ecart:|play:|result:)",
                                             lambda m: m.group().upper(), t)),
    ("French ranks and suit symbols", lambda t: re.sub(
        r"\b([JNQK])([SHDC])\b",
        lambda m: "VCDR"["JNQK".index(m.group(1))] + "♠♥♦♣"["SHDC".index(m.group(2))], t)),
    ("écart with its accent", lambda t: t.replace("ecart:", "écart:")),
    ("tabs and runs of spaces", lambda t: t.replace(" ", " \t  ")),
    ("everything on one line after the tags", lambda t: re.sub(r"\n(?!\[)", " ", t)),
    ("a comment across lines", lambda t: t.replace(" 1. ", " 1. {a\ncomment} ", 1)),
    ("French bids", lambda t: t.replace("pass ", "passe ").replace("prise", "petite")),
    ("garde-sans with a dash", lambda t: t.replace("garde_", "garde-")),
]


@pytest.mark.parametrize(("what", "change"), _LENIENT, ids=[w for w, _ in _LENIENT])
def test_lenient_spellings_read_the_same_and_fast(what: str, change: object) -> None:
    deals = _generated(6, 13)
    texts = [change(notation.write_record(r)) for r in deals]  # type: ignore[operator]
    taken = sum(_check_text(t) for t in texts)
    assert taken == len(deals), what
    assert all(deal.ok for t in texts for deal in notation.reads(t)), what


# --- what the scanner leaves to the grammar -----------------------------------------------

_BASE: Final = notation.write_record(_generated(1, 21)[0])
_GIVE_UP: Final = [
    ("a card written twice in a hand", lambda t: re.sub(r"(hand S: )(\S+)", r"\1\2 \2", t)),
    ("a trick numbered wrongly", lambda t: t.replace(" 2. ", " 3. ", 1)),
    ("a misspelt card", lambda t: t.replace(" 1. ", " 1. 7Z ", 1)),
    ("a misspelt keyword", lambda t: t.replace("play:", "plays:")),
    ("a section out of order", lambda t: t.replace("chien:", "auctions:", 1)),
    ("a comment after a hand", lambda t: t.replace("\nchien:", " {x}\nchien:", 1)),
    ("an unclosed comment", lambda t: t.replace("play:", "play: {oops")),
    ("a stray brace", lambda t: t.replace("play:", "play: }")),
    ("two glyphs", lambda t: t.replace("auction: pass", "auction: pass!! ?")),
    ("a bad date", lambda t: '[Date "2026-11-03"]\n' + t),
    ("a Result tag", lambda t: '[Result "prise taker S"]\n' + t.split("result:")[0]),
    ("a tag twice", lambda t: '[Players "4"]\n' + t),
    ("bouts over 3", lambda t: t.rstrip("\n") + " bouts 4\n"),
    ("a score given twice", lambda t: t.rstrip("\n") + " S+1\n"),
    ("a tag after the sections", lambda t: t + '[Event "x"]\n'),
    ("a leader with spaces", lambda t: t.replace(" 1. ", " 1. ( S ) ", 1)),
    ("nothing but sections", lambda t: t.split("hand S:", 1)[1]),
    ("a run of cards longer than any hand", lambda t: re.sub(
        r"hand S: [^\n]*", "hand S: " + " ".join([f"T{k}" for k in range(1, 22)] + [
            "1S", "2S", "3S", "4S", "5S"]), t)),
]


@pytest.mark.parametrize(("what", "change"), _GIVE_UP, ids=[w for w, _ in _GIVE_UP])
def test_the_scanner_gives_up_and_the_grammar_reports(what: str, change: object) -> None:
    text = change(_BASE)  # type: ignore[operator]
    assert scanner.scan(text) is None, what
    _same(*_both(text))


def test_the_grammar_path_can_be_forced(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(text: str) -> None:
        raise AssertionError("the scanner was called")

    monkeypatch.setattr(scanner, "scan", refuse)
    monkeypatch.setenv(reader.READER_ENV, "grammar")
    [deal] = notation.reads(_BASE)
    assert deal.ok
    assert parse_record(_BASE, fast=False).ok
    monkeypatch.delenv(reader.READER_ENV)
    with pytest.raises(AssertionError, match="scanner"):
        parse_record(_BASE)


def test_lazy_positions_are_the_grammars() -> None:
    [deal] = notation.reads(_BASE, name="b.tarot")
    positions = deal.source.positions  # type: ignore[union-attr]
    assert isinstance(positions, reader.LazyPositions)
    grammar = parse_record(_BASE, name="b.tarot", fast=False).source
    assert grammar is not None
    assert dict(positions) == dict(grammar.positions)
    assert positions["play[0].cards[1]"] == grammar.positions["play[0].cards[1]"]
    assert "play[0]" in repr(positions)
    assert len(positions) == len(grammar.positions)


def test_a_deal_read_fast_pickles_with_its_positions() -> None:
    [deal] = notation.reads(_BASE, name="b.tarot")  # e.g. to a worker process and back
    copy = pickle.loads(pickle.dumps(deal))
    assert copy == deal
    assert copy.source is not None
    assert copy.source.positions["play[1]"] == deal.source.positions["play[1]"]  # type: ignore[union-attr]


# --- hypothesis records, and mutants ------------------------------------------------------


@given(records())
def test_any_record_reads_the_same_both_ways(record: DealRecord) -> None:
    _check_text(notation.write_record(record))


@given(records(outcome_only=True))
def test_score_sheet_records_read_the_same_both_ways(record: DealRecord) -> None:
    _check_text(notation.write_record(record))


_SEEDS: Final = [notation.write_record(r) for r in _generated(6, 17)] + [
    notation.write_record(_annotate(r, random.Random(1))) for r in _generated(3, 19)]
_VOCABULARY: Final = [
    "7H", "7h", "ex", "T21", "T22", "1S", "10S", "R♠", "-", ":", "E:", "E:7H", "S:EX",
    "(E)", "(", ")", "!", "?", "!?", "!!!", "{c}", "{", "}", "\\", "[", "]", '[X "y"]',
    "1.", "01.", "2.", "99.", "100.", "hand", "hand S:", "hands:", "chien:", "auction:",
    "call:", "ecart:", "écart:", "shown:", "poignee", "poignee S:", "poignee S simple:",
    "chelem", "misere", "atout", "tête", "play:", "result:", "pass", "passe", "garde",
    "garde-sans", "GARDE_CONTRE", "taker", "partner", "points", "48", "48,5", "40.25",
    "bouts", "3", "4", "petit_au_bout", "defense", "annulled", "scores", "S+1", "S-99999999",
    "\n", "\t", "\u00a0", "\u2028", "\x0b", "ſ", "K", "١.",
]


@st.composite
def _mutants(draw: st.DrawFn) -> str:
    words = re.split(r"(\s+)", draw(st.sampled_from(_SEEDS)))
    for _ in range(draw(st.integers(1, 4))):
        k = draw(st.integers(0, len(words) - 1))
        op = draw(st.sampled_from(("insert", "replace", "delete", "swap", "glue")))
        if op == "insert":
            words.insert(k, draw(st.sampled_from(_VOCABULARY)) + " ")
        elif op == "replace":
            words[k] = draw(st.sampled_from(_VOCABULARY))
        elif op == "delete":
            del words[k]
        elif op == "swap":
            m = draw(st.integers(0, len(words) - 1))
            words[k], words[m] = words[m], words[k]
        else:
            words[k] = words[k] + draw(st.sampled_from(_VOCABULARY))
        if not words:
            words = [""]
    return "".join(words)


@settings(max_examples=cases(300, slow=3000))
@given(_mutants())
def test_mutants_read_the_same_both_ways(text: str) -> None:
    _check_text(text)


# --- the fuzz corpus ---------------------------------------------------------------------------


@pytest.mark.skipif(not CORPUS, reason="the fuzz corpus tests/corpus/ is empty")
@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_fuzz_corpus_reads_the_same_both_ways(path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    data = path.read_bytes()
    grammar = _stream(data, monkeypatch, "grammar")
    quick = _stream(data, monkeypatch, "fast")
    for g, q in zip(grammar, quick, strict=True):
        _same(g, q)
