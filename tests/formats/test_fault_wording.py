"""Every message in Tarot words; one code per fault in every format; JSON faults located.

Issue 12: "String should match pattern '^[A-Za-z]…$'", "Unable to parse input string as
an integer, exceeded maximum size" and "hands.S: hands.S: …" reached users; a bad card
was S003 in the notation and J002 in JSON; JSON faults had only a path, so CI
annotations attached to no line.

The class is every pydantic error path into a diagnostic and every int() of user text:
the test walks every field of a full record (and of each part of it) with bad values of
every type, through the JSON reader and the model, and asserts that no library wording
reaches a message, that no message repeats its path, and that each fault is located.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from typing import Any, Final

import orjson
import pytest
from cli_runs import ROOT, invoke
from pydantic import ValidationError

from tarotnotation import notation
from tarotnotation.archive import check_deal, check_paths
from tarotnotation.diagnostics import Code, Diagnostic
from tarotnotation.faults import model_faults
from tarotnotation.formats import json as tjson
from tarotnotation.formats import tarotclub
from tarotnotation.records import DealRecord

#: Words of pydantic, Python or orjson that must never reach a user.
LIBRARY_WORDS: Final = re.compile(
    r"Input should|String should|should match pattern|Unable to|Value error|Assertion"
    r" failed|validation error|Field required|Extra inputs|valid dictionary|valid string|"
    r"valid integer|valid boolean|valid tuple|valid list|discriminator|Input tag|"
    r"exceeded maximum size|invalid literal|for int\(\)|Exceeds the limit|"
    r"\[type=|pydantic|errors\.pydantic|For further information|NoneType|Traceback")

BASE: Final = tjson.to_dict(notation.load(ROOT / "examples" / "garde-poignee.tarot"))
FIVE: Final = tjson.to_dict(notation.load(ROOT / "examples" / "five-players.tarot"))
BAD_VALUES: Final[list[Any]] = [
    None, True, -1, 0, 7, 1.5, 1e308, "", "ZZ", "S!", "a\nb", "9" * 5000, "²", [], {},
    ["7H", "7H"], {"x": 1}, [["a"]], "pass", "T22",
]


def _paths(obj: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place of a record's data (of a list, its first item)."""
    yield path
    if isinstance(obj, dict):
        for key, value in obj.items():
            yield from _paths(value, (*path, key))
    elif isinstance(obj, list):
        for i, value in enumerate(obj[:1]):
            yield from _paths(value, (*path, i))


def _replaced(obj: Any, path: tuple[Any, ...], value: Any) -> Any:
    """``obj`` with ``value`` at ``path``: a new dict or list along the path, everything
    else shared with ``obj`` (which is never changed). A deep copy of the whole record
    for each of the 1,900 places took 40% of the test."""
    head, rest = path[0], path[1:]
    out = copy.copy(obj)
    out[head] = _replaced(obj[head], rest, value) if rest else value
    return out


def _check_words(d: Diagnostic) -> None:
    assert not LIBRARY_WORDS.search(d.message), d
    path = d.location.path
    if path:
        assert not d.message.startswith(path), d  # "hands.S: hands.S: …"
        assert not d.message.startswith(path.lstrip("$.")), d
    assert len(d.message) < 400, d  # a huge input is never quoted whole


def _records() -> Iterator[tuple[str, dict[str, Any]]]:
    for base in (BASE, FIVE):
        body = {k: v for k, v in base.items() if k != "tarotnotation"}
        body["ruleset"] = "fft"
        for path in _paths(body):
            if not path:
                continue
            for value in BAD_VALUES:
                yield ".".join(map(str, path)), _replaced(body, path, value)
            if isinstance(_get(body, path), dict):  # an unknown field
                yield ".".join(map(str, path)), _replaced(body, (*path, "zz"), 1)
        yield "", {**body, "zz": 1}
        yield "", {k: v for k, v in body.items() if k != "players"}


def _get(obj: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        obj = obj[part]
    return obj


def test_no_library_wording_reaches_a_message_from_any_field() -> None:
    seen: set[str] = set()
    for where, data in _records():
        for deal in tjson.read(orjson.dumps({"tarotnotation": 1, **data},
                                            option=orjson.OPT_INDENT_2), name="x.json"):
            for d in deal.diagnostics:
                _check_words(d)
                assert d.location.line is not None, (where, d)
                assert d.location.path is None or d.location.path.startswith("$"), d
                seen.add(d.code.value)
        try:
            DealRecord.model_validate(data)
        except ValidationError as err:
            for d in model_faults(err):
                _check_words(d)
    # the walk reached every kind of fault the model words
    assert {"S003", "S004", "S006", "M001", "X001", "J002"} <= seen, seen


@pytest.mark.parametrize("text", [
    '[Players "4"]\n[Dealer "9x"]\n',
    '[Players "4"]\nhand S: 7H 8H\n',
    '[Players "4"]\n[Dealer "X"]\n',
    '[Players "4"]\n[Seats "S E N W"]\nhand X: 7H\n',
    '[Players "4"]\nresult: bouts ' + "9" * 5000 + "\n",
    '[Players "4"]\nresult: points ' + "9" * 5000 + "\n",
    '[Players "4"]\nresult: scores S+' + "9" * 5000 + "\n",
    '[Players "4"]\nplay:\n' + "9" * 5000 + ". 7H\n",
    '[Players "9' + "9" * 5000 + '"]\n',
])
def test_notation_faults_are_in_tarot_words(text: str) -> None:
    for deal in notation.reads(text, name="x.tarot"):
        assert deal.diagnostics
        for d in deal.diagnostics:
            _check_words(d)
            assert d.location.line is not None


def test_model_faults_never_double_their_path() -> None:
    [deal] = notation.reads('[Players "4"]\nhand S: 7H 8H\n')
    [d] = deal.diagnostics
    assert str(d).endswith("deal 1, hands.S: a hand has 18 cards at 4 players, found 2")
    [deal] = tjson.read(b'{"players": 4, "hands": {"S": ["7H"]}}')
    [d] = deal.diagnostics
    assert str(d).endswith("deal 1, $.hands.S: a hand has 18 cards at 4 players, found 1")


def test_tarotclub_numbers_of_any_digits_are_diagnostics() -> None:
    # int() of any digits: '²' passed isdigit() and raised; 5,000 digits raise too
    for players in ("²", "٣", "9" * 5000, "04"):
        data = orjson.dumps({"version": "3", "deal_info": {"number_of_players": players},
                             "tricks": []})
        [deal] = tarotclub.read(data, name="t.json")
        assert deal.record is None
        for d in deal.diagnostics:
            _check_words(d)


# --- one code per fault, whatever the format -------------------------------------------------

SAME_FAULT: Final = [
    # (notation record text, JSON record fields, the one code)
    ('[Players "4"]\nplay: 1. ZZ\n', {"players": 4, "play": [{"cards": [{"card": "ZZ"}]}]},
     Code.BAD_CARD_CODE),
    ('[Players "4"]\ncall: T99\n', {"players": 4, "call": {"card": "T99"}},
     Code.BAD_CARD_CODE),
    ('[Players "4"]\nchien: 7H 7H 1S 2S 3S 4S\n',
     {"players": 4, "chien": ["7H", "7H", "1S", "2S", "3S", "4S"]}, Code.BAD_VALUE),
    ('[Players "4"]\nhand S: 7H 8H\n', {"players": 4, "hands": {"S": ["7H", "8H"]}},
     Code.MALFORMED_RECORD),
    ('[Players "7"]\n', {"players": 7}, Code.BAD_TAG),
    ('[Players "4"]\n[Dealer "9x"]\n', {"players": 4, "dealer": "9x"}, Code.BAD_TAG),
    ('[Players "4"]\n[Dealer "X"]\n', {"players": 4, "dealer": "X"}, Code.MALFORMED_RECORD),
    ('[Players "4"]\n[Ruleset "zzz"]\n', {"players": 4, "ruleset": "zzz"},
     Code.UNKNOWN_RULESET),
    ('[Players "4"]\nresult: points 95\n', {"players": 4, "result": {"taker_points": 95}},
     Code.POINTS_OUT_OF_RANGE),
    ('[Players "4"]\nresult: bouts 5\n', {"players": 4, "result": {"bouts": 5}},
     Code.BOUTS_OUT_OF_RANGE),
]


def _codes(deal: Any) -> list[Code]:
    """The codes a check gives a deal: reading it, then replaying it."""
    return [d.code for d in check_deal(deal, "x").diagnostics]


@pytest.mark.parametrize(("text", "fields", "code"), SAME_FAULT)
def test_the_same_fault_has_the_same_code_in_every_format(
        text: str, fields: dict[str, Any], code: Code) -> None:
    [deal] = notation.reads(text, name="x.tarot")
    assert code in _codes(deal)
    assert {c for c in _codes(deal) if c.value[0] in "SJMX" or c is code} == {code}
    one = orjson.dumps({"tarotnotation": 1, **fields})
    for data in (one, one + b"\n" + one, b'{"tarotnotation": 1, "deals": [' + one + b"]}"):
        for deal in tjson.read(data, name="x.json"):
            assert {c for c in _codes(deal) if c.value[0] in "SJMX" or c is code} == {code}


def test_ignore_names_a_fault_once_for_every_format(tmp_path: Any) -> None:
    text = tmp_path / "bad.tarot"
    text.write_text('[Players "4"]\nplay: 1. ZZ\n')
    js = tmp_path / "bad.json"
    js.write_bytes(b'{"players": 4, "play": [{"cards": [{"card": "ZZ"}]}]}')
    assert invoke("validate", str(text), str(js)).out.count(" S003 error") == 2
    ran = invoke("validate", str(text), str(js), "--ignore", "S003")
    assert "S003" not in ran.out


# --- JSON faults carry a line and column ---------------------------------------------------

REVOKE: Final = notation.load(ROOT / "examples" / "faulty" / "revoke.tarot")


def _where(data: bytes, needle: bytes, start: int = 0) -> tuple[int, int]:
    """Line and column of the first ``needle`` from ``start``."""
    at = data.index(needle, start)
    line_start = data.rfind(b"\n", 0, at) + 1
    return data.count(b"\n", 0, at) + 1, len(data[line_start:at].decode()) + 1


def _bad_card(indent: bool) -> bytes:
    obj = tjson.to_dict(REVOKE)
    obj["play"][1]["cards"][2]["card"] = "ZZ"
    return orjson.dumps(obj, option=orjson.OPT_INDENT_2 if indent else 0)


@pytest.mark.parametrize("layout", ["record", "pretty", "jsonl", "archive", "pretty-archive",
                                    "list"])
def test_json_faults_have_a_line_and_column(layout: str, tmp_path: Any) -> None:
    good = tjson.dumps_bytes(notation.load(ROOT / "examples" / "prise.tarot"),
                       indent="pretty" in layout)
    bad = _bad_card("pretty" in layout)
    revoke = tjson.dumps_bytes(REVOKE, indent="pretty" in layout)
    if layout in ("record", "pretty"):
        docs = [bad, revoke]
    elif layout == "jsonl":
        docs = [good + b"\n" + bad + b"\n" + revoke + b"\n"]
    elif layout == "list":
        docs = [b"[" + good + b",\n" + bad + b",\n" + revoke + b"]"]
    else:
        docs = [b'{"tarotnotation": 1,\n "deals": [' + good + b",\n" + bad + b",\n" + revoke
                + b"]}\n"]
    found: list[Diagnostic] = []
    for i, data in enumerate(docs):
        path = tmp_path / f"d{i}.json{'l' if layout == 'jsonl' else ''}"
        path.write_bytes(data)
        for checked in check_paths([path]):
            found.extend(checked.diagnostics)
    [card, rule] = found
    assert card.code is Code.BAD_CARD_CODE
    assert card.location.path is not None
    assert card.location.path.endswith("play[1].cards[2].card")
    assert rule.code is Code.MUST_FOLLOW_SUIT
    assert rule.location.path == "play[2].cards[1]"
    assert (card.location.line, card.location.col) == _where(docs[0], b'"ZZ"')
    # the revoke: at the code of the card played (T19 at trick 3 of that deal)
    doc = docs[-1]
    value = b'"T19"'
    play = doc.index(b'"play"', doc.index(revoke))
    assert (rule.location.line, rule.location.col) == _where(doc, value, play)


def test_github_annotations_of_json_faults_name_a_line(tmp_path: Any) -> None:
    path = tmp_path / "revoke.json"
    path.write_bytes(tjson.dumps_bytes(REVOKE, indent=True))
    out = invoke("validate", str(path), "--format", "github").out.splitlines()
    assert out[0].startswith(f"::error file={path},line=")
    assert ",col=" in out[0]


def test_positions_are_found_only_for_faulty_records(tmp_path: Any,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from tarotnotation.formats import jsonpos

    walked: list[int] = []
    real = jsonpos.find_path

    def counting(data: bytes, start: int, path: str) -> int | None:
        walked.append(start)
        return real(data, start, path)

    monkeypatch.setattr(jsonpos, "find_path", counting)
    rec = notation.load(ROOT / "examples" / "prise.tarot")
    clean = [tjson.dumps_bytes(rec.model_copy(update={"tags": (("Deal", str(i)),)}))
             for i in range(50)]
    path = tmp_path / "a.json"
    path.write_bytes(b'{"tarotnotation": 1, "deals": [' + b",".join(clean) + b"]}")
    assert all(not c.diagnostics for c in check_paths([path]))
    assert walked == []
