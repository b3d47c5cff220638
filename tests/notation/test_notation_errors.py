"""Every kind of syntax error: its code, line, column, message in Tarot words and caret."""

from __future__ import annotations

from pathlib import Path

import budget
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tarotnotation.diagnostics import Code, Diagnostic, Severity, TarotError
from tarotnotation.notation import loads, read_file, reads

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "notation"
HEAD = '[Event "Test"]\n[Players "4"]\n'


def _only(text: str) -> Diagnostic:
    [deal] = list(reads(text, name="t.tarot"))
    assert deal.record is None
    [diag] = deal.diagnostics
    return diag


def _at(diag: Diagnostic) -> tuple[int | None, int | None]:
    return diag.location.line, diag.location.col


@pytest.mark.parametrize(
    ("body", "code", "line", "col", "message"),
    [
        # S001: a word where none of the expected things can go
        ("chein: 1S 2S 3S 4S 5S 6S\n", Code.SYNTAX_ERROR, 3, 1,
         "unexpected 'chein:': expected a tag such as [Event \"Club de Lyon\"], or one of:"
         " hand, hands:, chien:, auction:"),
        ("auction: pass pass\nchien: 1S 2S 3S 4S 5S 6S\n", Code.SYNTAX_ERROR, 4, 1,
         "unexpected 'chien:'"),
        ("play:\n 1. 7H 8H\nresult: garde taker\n", Code.UNEXPECTED_END, 5, 20,
         "the record ends too soon: expected a seat such as E"),
        ("play:\n 1. 7H 8H ZZ 2H\n", Code.BAD_CARD_CODE, 4, 11,
         "'ZZ' is not a card: expected a card such as 7H or T21"),
        ("chien: 1S 2S T22 4S 5S 6S\n", Code.BAD_CARD_CODE, 3, 14,
         "'T22' is not a card: expected a card such as 7H or T21"),
        ("call: 1OH\n", Code.BAD_CARD_CODE, 3, 7,
         "'1OH' is not a card: expected a card such as 7H or T21"),
        ("auction: pass {never closed pass pass\n", Code.UNTERMINATED_COMMENT, 3, 15,
         "this { comment is never closed with }"),
        ("auction: pass gardez pass\n", Code.BAD_VALUE, 3, 15,
         "'gardez' is not a bid: expected a bid: pass, prise, garde, garde_sans or"
         " garde_contre"),
        ("result: garde taker E points 48 bouts 2 scores S-64 E+192 N-64 W\n",
         Code.SYNTAX_ERROR, 3, 64, "a score such as E+192 or S-64"),
        ("result: garde takr E\n", Code.SYNTAX_ERROR, 3, 15,
         "expected a contract: prise, garde, garde_sans or garde_contre, or one of:"),
        ("poignee E quadruple\n", Code.SYNTAX_ERROR, 3, 11,
         "expected a poignée size: simple, double or triple"),
        ("play:\n 1. (E 7H\n", Code.SYNTAX_ERROR, 4, 5, "unexpected '('"),
    ],
)
def test_syntax_errors(body: str, code: Code, line: int, col: int, message: str) -> None:
    diag = _only(HEAD + body)
    assert diag.code is code
    assert _at(diag) == (line, col)
    assert diag.location.file == "t.tarot"
    assert diag.location.deal == 1
    assert message in diag.message
    # the message speaks Tarot, never Lark's terminal names
    for name in ("CARDS", "PLAYS", "SEATLABEL", "TRICKNO", "_KW", "$END"):
        assert name not in diag.message
    # the offending line with a caret under the column
    assert diag.context is not None
    text_line, caret = diag.context.split("\n")
    assert text_line == (HEAD + body).split("\n")[line - 1]
    assert caret == " " * (col - 1) + "^"


@pytest.mark.parametrize(
    ("text", "code", "line", "col", "message"),
    [
        # the fault is pointed at, not the tag's start, and the hint says how to write it
        ('[Players 4]\nauction: pass\n', Code.BAD_TAG, 1, 10,
         'the value of the tag is not in quotes: write [Players "4"]'),
        ('[Players "7"]\n', Code.BAD_TAG, 1, 1, "Players must be 3, 4 or 5, not '7'"),
        ('[Players "4"]\n[Players "4"]\n', Code.BAD_TAG, 2, 1, "the Players tag is given twice"),
        ('[Seats "S:Ann, 9:Bob, N, W"]\n', Code.BAD_TAG, 1, 1, "'9' is not a seat id"),
        ('[Ruleset "fft misere=maybe"]\n', Code.UNKNOWN_RULESET, 1, 1, "misere"),
        ('[Players "4"]\nchien: 1S 2S 3S 4S 5S 5S\n', Code.BAD_VALUE, 2, 23,
         "5S is written twice in the chien"),
        ('[Players "4"]\nplay:\n 1. 7H 8H 9H 2H\n 3. 7S\n', Code.BAD_VALUE, 4, 2,
         "trick 2 is numbered 3"),
        # (bouts 4 and points 48.3 are read: the replay says why they cannot be, R203 and
        # R202, tests/kernel/test_impossible_facts.py; only numbers no record can hold are refused)
        ('[Players "4"]\nresult: bouts 12345678901234567890\n', Code.BAD_VALUE, 2, 15,
         "bouts must be 0 to 3"),
        ('[Players "4"]\nresult: points 12345678901234567890\n', Code.BAD_VALUE, 2, 16,
         "is not a number of points a record can hold"),
        ('[Players "4"]\nresult: taker E taker N\n', Code.BAD_VALUE, 2, 23,
         "the result gives taker twice"),
        ('[Players "4"]\nresult: scores S+1 S-1\n', Code.BAD_VALUE, 2, 20,
         "the result gives S's score twice"),
        ('[Players "4"]\nhand S: 1S 2S\n', Code.MALFORMED_RECORD, 2, 6,
         "a hand has 18 cards at 4 players, found 2"),
        ('[Players "4"]\nauction: X:pass\n', Code.MALFORMED_RECORD, 2, 10,
         "'X' is not a seat of this deal"),
    ],
)
def test_value_errors(text: str, code: Code, line: int, col: int, message: str) -> None:
    diag = _only(text)
    assert diag.code is code
    assert _at(diag) == (line, col)
    assert message in diag.message


def test_value_error_shows_the_line_with_a_caret() -> None:
    diag = _only('[Players "4"]\nchien: 1S 2S 3S 4S 5S 5S\n')
    assert diag.context == "chien: 1S 2S 3S 4S 5S 5S\n" + " " * 22 + "^"


def test_malformed_date_is_a_warning_and_kept() -> None:
    [deal] = list(reads('[Date "14/11/2026"] [Players "4"]\nauction: pass\n'))
    assert deal.ok
    [diag] = deal.diagnostics
    assert diag.code is Code.BAD_TAG
    assert diag.severity is Severity.WARNING
    assert deal.record is not None
    assert deal.record.tag("Date") == "14/11/2026"


@pytest.mark.parametrize("date", ["2026.11.14", "2026.11.??", "2026.??.??", "????.??.??"])
def test_dates_with_unknown_parts(date: str) -> None:
    [deal] = list(reads(f'[Date "{date}"] [Players "4"]\nauction: pass\n'))
    assert deal.ok
    assert not deal.diagnostics


def test_reader_moves_on_after_a_broken_record() -> None:
    text = (
        '[Deal "1"] [Players "4"]\nauction: pass garde pass pass\n\n'
        '[Deal "2"] [Players "4"]\nplay:\n 1. 7H 8H KX 2H\n 2. 7S\n\n'
        '[Deal "3"] [Players "4"]\nauction: pass pass garde pass\n'
    )
    deals = list(reads(text, name="club.tarot"))
    assert [d.index for d in deals] == [1, 2, 3]
    assert [d.ok for d in deals] == [True, False, True]
    assert [d.line for d in deals] == [1, 4, 9]
    [diag] = deals[1].diagnostics
    assert diag.code is Code.BAD_CARD_CODE
    assert diag.location.text_position() == "club.tarot:6:11"
    assert diag.location.deal == 2


def test_unterminated_comment_stops_at_the_next_record() -> None:
    deals = list(read_file(FIXTURES / "unterminated-comment.tarot"))
    assert [d.ok for d in deals] == [False, True]
    [diag] = deals[0].diagnostics
    assert diag.code is Code.UNTERMINATED_COMMENT
    assert _at(diag) == (3, 21)
    assert deals[1].record is not None
    assert deals[1].record.tag("Event") == "Second"


def test_junk_before_the_first_record_is_reported_not_read() -> None:
    deals = list(read_file(FIXTURES / "junk-before-first-record.tarot"))
    assert [d.record is None for d in deals] == [True, False]
    [diag] = deals[0].diagnostics
    assert diag.code is Code.SYNTAX_ERROR
    assert _at(diag) == (1, 1)
    assert "expected a tag such as" in diag.message
    assert deals[1].line == 3


def test_latin1_bytes_get_one_encoding_error_with_offset_and_hint() -> None:
    # Issue 6 changed this: bytes that are not UTF-8 are no longer read as Latin-1 with a
    # warning; the record gets one S007 error naming the byte offset, and how to convert.
    [deal] = list(read_file(FIXTURES / "latin1.tarot"))
    assert deal.record is None
    [diag] = deal.diagnostics
    assert diag.code is Code.ENCODING
    assert diag.severity is Severity.ERROR
    assert (diag.location.line, diag.location.col) == (1, 18)
    assert "byte 0xE8 at byte offset 17" in diag.message
    assert "'Sète'" in diag.message
    assert "iconv -f latin1 -t utf-8" in diag.message


def test_utf8_bom_is_skipped() -> None:
    [deal] = list(read_file(FIXTURES / "utf8-bom.tarot"))
    assert deal.ok
    assert not deal.diagnostics
    assert deal.record is not None
    assert deal.record.tags == (("Event", "BOM au début"),)
    assert deal.source is not None
    assert deal.source.positions[""] == (1, 1)


def test_windows_line_ends() -> None:
    [deal] = list(read_file(FIXTURES / "crlf-line-ends.tarot"))
    assert deal.ok
    assert deal.record is not None
    assert deal.record.auction[-1].comments == ("a comment\nover two lines",)
    assert deal.source is not None
    assert deal.source.positions["result"] == (6, 1)


def test_loads_raises_a_value_error_with_the_diagnostics() -> None:
    with pytest.raises(TarotError) as info:
        loads(HEAD + "auction: pass gardez\n")
    assert isinstance(info.value, ValueError)
    assert info.value.diagnostics[0].code is Code.BAD_VALUE
    with pytest.raises(TarotError, match="expected one record, found 2"):
        loads(HEAD + "auction: pass\n" + HEAD + "auction: pass\n")
    with pytest.raises(TarotError, match="expected one record, found 0"):
        loads("\n\n")


@pytest.mark.parametrize(
    "text",
    ["", "{", "[", "]", "}", "[Players", '[Players "4"', '[Players "4"]\n{', "\x00\x01",
     '[Players "4"]\nplay: 1.', '[Players "4"]\nresult: points', "hand", "\ufeff",
     '[Players "4"]\nhand S: ' + "7H " * 30],
)
def test_garbage_never_raises(text: str) -> None:
    for deal in reads(text):
        assert deal.record is None or deal.ok is not None
        for diag in deal.diagnostics:
            assert diag.location.line is not None


_SAMPLE = (Path(__file__).resolve().parents[2] / "examples" / "annotated.tarot").read_text("utf-8")


@st.composite
def _mutations(draw: st.DrawFn) -> str:
    text = _SAMPLE
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        at = draw(st.integers(min_value=0, max_value=len(text)))
        kind = draw(st.sampled_from(("delete", "insert", "replace")))
        piece = draw(st.sampled_from(["{", "}", "[", "]", '"', "\n", " ", "1.", "E:", "T22", "!",
                                      "-", "\\", "pass", "result:", "\n\n[Players \"4\"]\n"]))
        if kind == "delete":
            text = text[:at] + text[at + draw(st.integers(min_value=1, max_value=5)):]
        elif kind == "insert":
            text = text[:at] + piece + text[at:]
        else:
            text = text[:at] + piece + text[at + len(piece):]
    return text


def _never_raises(text: str) -> None:
    for deal in reads(text, name="fuzz.tarot"):
        assert deal.record is not None or any(d.is_error for d in deal.diagnostics)
        for diag in deal.diagnostics:
            assert diag.location.line is not None
            assert diag.message


@settings(max_examples=budget.cases(60))
@given(_mutations())
def test_mutated_text_never_raises(text: str) -> None:
    _never_raises(text)


@pytest.mark.slow
@settings(max_examples=budget.cases(5000))
@given(_mutations())
def test_mutated_text_never_raises_long(text: str) -> None:
    _never_raises(text)


def test_comment_before_the_tags_is_named_as_such_not_as_unclosed() -> None:
    """A closed comment before the first tag line is misplaced, not "never closed"; the
    record after it is still read."""
    deals = list(reads('{club archive}\n[Players "4"]\n\nauction: pass garde pass pass\n',
                       name="t.tarot"))
    assert len(deals) == 2
    [diag] = deals[0].diagnostics
    assert diag.code is Code.SYNTAX_ERROR
    assert _at(diag) == (1, 1)
    assert diag.message.startswith("a comment cannot come before the tags")
    assert deals[1].ok


def test_comment_in_a_place_that_takes_none_is_not_called_unclosed() -> None:
    diag = _only(HEAD + "hand S: {here} 1S\n")
    assert diag.code is Code.SYNTAX_ERROR
    assert diag.message.startswith("a comment cannot come here: expected")
