"""Notation traps (issue 12): each slip gets one precise message, at its line and column,
with the fix.

A blank line inside the tags silently made two deals, one of tags only; so did a tag
written after the sections. A tag missing its closing quote was pointed at column 1. A
comment line starting with ``[`` was "never closed", then a malformed tag, with no hint
to write ``\\[``. A trick left out gave one S006 for every later trick. The class: a slip
that cuts a record in two, a fault pointed at the start of its token, a fault said once
per consequence.
"""

from __future__ import annotations

import pytest

from tarotnotation.diagnostics import Code, Severity
from tarotnotation.notation import dumps, reads
from tarotnotation.records import DealRecord

RESULT = "result: garde taker E points 48 bouts 2 scores S-64 E+192 N-64 W-64\n"
DEAL = '[Players "4"]\n[Dealer "W"]\nauction: pass garde pass pass\n' + RESULT


def _faults(text: str) -> list[list[tuple[str, int | None, int | None]]]:
    return [[(d.code.value, d.location.line, d.location.col) for d in deal.diagnostics]
            for deal in reads(text, name="t.tarot")]


@pytest.mark.parametrize(("tag", "col", "hint"), [
    ('[Event "Club]', 13, 'has no closing quote: write [Event "Club"]'),
    ('[Event "Club', 13, 'has no closing quote: write [Event "Club"]'),
    ('[Event "Club"', 14, 'never closed with ]: write [Event "Club"]'),
    ("[Event Club]", 8, 'not in quotes: write [Event "Club"]'),
    ('[Event "Le "Roi" club"]', 12, 'written \\": write [Event "Le \\"Roi\\" club"]'),
    ('[ "Club"]', 2, "the tag has no name"),
    ('[Ev ent "Club"]', 5, "a tag's name is one word"),
    ("[Event]", 7, 'the tag has no value: write [Event "…"]'),
])
def test_a_malformed_tag_is_pointed_at_where_it_goes_wrong(tag: str, col: int,
                                                           hint: str) -> None:
    [deal, neighbour] = reads(f"{tag}\n{DEAL}\n[Event \"Voisin\"]\n{DEAL}", name="t.tarot")
    [d] = deal.diagnostics
    assert (d.code, d.location.line, d.location.col) == (Code.BAD_TAG, 1, col)
    assert hint in d.message
    assert d.context is not None
    assert d.context.split("\n")[1] == " " * (col - 1) + "^"
    assert neighbour.ok


def test_a_malformed_tag_after_good_ones_on_its_line() -> None:
    [[fault]] = _faults('[Players "4"] [Event "x"\nauction: pass\n')
    assert fault == ("S004", 1, 25)


def test_a_blank_line_inside_the_tags_is_one_error_at_the_blank_line() -> None:
    text = '[Event "Club"]\n[Site "Lyon"]\n\n' + DEAL
    deals = list(reads(text, name="t.tarot"))
    assert [len(d.diagnostics) for d in deals] == [1, 0]
    [d] = deals[0].diagnostics
    assert (d.code, d.severity, d.location.line, d.location.col) == (
        Code.BAD_TAG, Severity.ERROR, 3, 1)
    assert "remove the blank line (line 3)" in d.message
    assert deals[0].record is None


def test_a_tag_after_the_sections_is_one_error_at_the_tag() -> None:
    text = '[Event "Club"]\n' + DEAL + '[Annotator "Bob"]\n\n[Event "Voisin"]\n' + DEAL
    assert _faults(text) == [[], [("S004", 6, 1)], []]
    d = list(reads(text))[1].diagnostics[0]
    assert "move it up among the tags of the deal above (line 1)" in d.message


def test_records_of_tags_only_written_as_such_are_still_read() -> None:
    # the writer writes a record with no section as its tags; such records, one after the
    # other or after a deal, repeat their field tags: never taken for a cut record
    recs = [DealRecord(players=4), DealRecord(players=3, tags=(("Event", "x"),)),
            DealRecord(players=4, dealer="W"), DealRecord(players=5)]
    text = dumps(recs)
    deals = list(reads(text))
    assert [d.record for d in deals] == recs
    assert all(d.ok for d in deals)


def test_a_comment_line_starting_with_a_bracket_is_one_error_with_the_hint() -> None:
    text = ('[Event "Club"]\n[Players "4"]\nauction: pass garde {a note\n[not a tag] } pass pass\n'
            '\n[Event "Voisin"]\n' + DEAL)
    deals = list(reads(text, name="t.tarot"))
    assert [[(d.code, d.location.line, d.location.col) for d in deal.diagnostics]
            for deal in deals] == [[(Code.UNTERMINATED_COMMENT, 4, 1)], []]
    assert "write \\[ at the start of a comment's line" in deals[0].diagnostics[0].message
    # escaped as the hint says, the record reads whole
    fixed = text.replace("\n[not a tag]", "\n\\[not a tag]")
    assert [d.ok for d in reads(fixed)] == [True, True]


def test_a_comment_never_closed_before_the_next_record_is_still_said_where_it_opens() -> None:
    text = '[Event "Club"]\n[Players "4"]\nauction: pass {never closed\n\n[Event "Voisin"]\n' + DEAL
    assert _faults(text) == [[("S005", 3, 15)], []]


@pytest.mark.parametrize(("numbers", "faults", "words"), [
    ([1, 2, 4, 5, 6], [(5, "trick 3 is numbered 4")], "trick 3 is missing"),
    ([1, 2, 3, 7, 8], [(6, "trick 4 is numbered 7")], "tricks 4 to 6 are missing"),
    ([1, 2, 4, 3, 5], [(5, "trick 3 is numbered 4")], "written out of order"),
    ([0, 1, 2, 3, 4], [(3, "trick 1 is numbered 0")], "numbered from 1"),
    ([1, 1, 2, 3, 4], [(4, "trick 2 is numbered 1 again")], "its own number"),
    ([1, 2, 4, 5, 7], [(5, "trick 3 is numbered 4"), (7, "trick 5 is numbered 7")],
     "trick 6 is missing"),
])
def test_a_trick_numbering_fault_is_said_once(numbers: list[int],
                                              faults: list[tuple[int, str]],
                                              words: str) -> None:
    tricks = ["1S 2S 3S 4S", "5S 6S 7S 8S", "9S 10S JS NS", "QS KS 1H 2H", "3H 4H 5H 6H"]
    text = '[Players "4"]\nplay:\n' + "".join(
        f" {n}. {cards}\n" for n, cards in zip(numbers, tricks, strict=True))
    [deal] = reads(text)
    got = [(d.location.line, d.message) for d in deal.diagnostics]
    assert [(line, msg.split(":")[0]) for line, msg in got] == faults
    assert all(d.code is Code.BAD_VALUE for d in deal.diagnostics)
    assert any(words in msg for _, msg in got)


def test_a_deal_line_starting_with_a_bracket_is_said_to_start_a_record() -> None:
    # "[S] 2. …" after the sections begins a new record; it was "not in quotes: write
    # [S "] 2. 1S…"]", a made-up tag: now what happened, at the [
    text = '[Players "4"]\nplay:\n 1. 7H 8H 9H 10H\n[S] 2. 1S 2S 3S 4S\n'
    deals = list(reads(text, name="t.tarot"))
    [d] = deals[1].diagnostics
    assert (d.code, d.location.line, d.location.col) == (Code.BAD_TAG, 4, 1)
    assert "it begins a new record, but it is not a line of tags" in d.message
    # a malformed tag after the sections is still said as a malformed tag
    text = '[Players "4"]\nplay:\n 1. 7H 8H 9H 10H\n[Event "Club]\n[Players "4"]\n'
    [d] = list(reads(text))[1].diagnostics
    assert "has no closing quote" in d.message
