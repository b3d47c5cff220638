"""The recorded result as a PGN-style [Result "..."] tag, read like the result section."""

from __future__ import annotations

from tarotnotation.diagnostics import Code
from tarotnotation.notation import dumps, loads, reads

SECTION = "result: garde taker E points 48 bouts 2 scores S-64 E+192 N-64 W-64\n"


def test_result_tag_reads_as_the_result_section() -> None:
    tag = loads('[Players "4"]\n[Result "' + SECTION[len("result: "):].strip() + '"]\n')
    section = loads('[Players "4"]\n' + SECTION)
    assert tag == section
    assert tag.tags == ()  # the tag became the result, not an extra tag
    assert SECTION in dumps(tag)  # canonical form: the section


def test_fault_inside_the_result_tag_is_reported_at_the_tag() -> None:
    [deal] = list(reads('[Players "4"]\n[Event "x"] [Result "garde taker E points 4x8"]\n'))
    assert deal.record is None
    [d] = deal.diagnostics
    assert d.code is Code.SYNTAX_ERROR
    assert (d.location.line, d.location.col) == (2, 13)
    assert d.message.startswith("in the Result tag: unexpected '4x8': expected a number of"
                                " points such as 48 or 40.5")


def test_result_given_twice_is_an_error() -> None:
    [deal] = list(reads('[Players "4"]\n[Result "garde taker E"]\nresult: prise\n'))
    assert deal.record is None
    assert [(d.code, d.location.line) for d in deal.diagnostics] == [(Code.BAD_TAG, 2)]


def test_replay_faults_of_the_result_tag_point_at_the_tag() -> None:
    from tarotnotation.replay import replay

    [deal] = list(reads('[Players "4"]\n[Result "garde taker E points 48 bouts 2 scores'
                        ' S-64 E+190 N-64 W-64"]\n', name="sheet.tarot"))
    assert deal.record is not None
    r = replay(deal.record, deal=deal.index, source=deal.source)
    mismatch = [d for d in r.diagnostics if d.code is Code.SCORE_MISMATCH]
    assert [(d.location.file, d.location.line, d.location.col) for d in mismatch] == [
        ("sheet.tarot", 2, 1)]
