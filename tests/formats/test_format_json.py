"""JSON and JSON Lines: lossless export/import, versioning, errors naming JSON paths."""

from __future__ import annotations

import io
import random
from pathlib import Path

import orjson
import pytest

from tarotnotation.diagnostics import Code, TarotError
from tarotnotation.formats import json as tjson
from tarotnotation.records import DealRecord, Points
from tarotnotation.replay import replay
from tarotnotation.simulate import random_deal

ROOT = Path(__file__).resolve().parents[2]


def _deal(seed: int, players: int = 4) -> DealRecord:
    return random_deal(random.Random(seed), players)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_json_round_trip_is_lossless(players: int) -> None:
    rec = _deal(11, players)
    rec = rec.model_copy(update={"comments": ("a {deal} comment", "second")})
    text = tjson.dumps(rec)
    back = tjson.loads(text)
    assert back == rec
    assert tjson.dumps(back) == text


def test_json_writes_cards_as_codes_and_half_points_as_numbers() -> None:
    rec = DealRecord(players=4, chien="T21 KH EX 7C 1S 2S",
                     result={"taker_points": 40.5, "bouts": 2})
    obj = orjson.loads(tjson.dumps(rec))
    assert obj["tarotnotation"] == tjson.VERSION
    assert obj["chien"] == ["1S", "2S", "KH", "7C", "T21", "EX"]
    assert obj["result"]["taker_points"] == 40.5
    assert tjson.loads(tjson.dumps(rec)).result.taker_points == Points(81)  # type: ignore[union-attr]


def test_json_declarations_keep_their_kind() -> None:
    rec = DealRecord(players=4, declarations=[{"kind": "chelem", "seat": "E"},
                                              {"kind": "poignee", "seat": "S", "size": "simple"}])
    obj = orjson.loads(tjson.dumps(rec))
    assert [d["kind"] for d in obj["declarations"]] == ["chelem", "poignee"]


def _error(data: bytes) -> tuple[Code, str | None, str]:
    with pytest.raises(TarotError) as info:
        tjson.loads(data)
    d = info.value.diagnostics[0]
    return d.code, d.location.path, d.message


def test_json_error_names_the_path_of_a_bad_card() -> None:
    code, path, message = _error(
        b'{"players": 4, "play": [{"cards": [{"card": "7H"}]}, {"cards": [{"card": "ZZ"}]}]}')
    assert code is Code.BAD_CARD_CODE  # as in the notation (issue 12: one code per fault)
    assert path == "$.play[1].cards[0].card"
    assert "expected a card such as 7H" in message


def test_json_error_names_the_field_of_a_model_check() -> None:
    code, path, message = _error(b'{"players": 4, "chien": ["7H", "8H"]}')
    assert (code, path) == (Code.MALFORMED_RECORD, "$.chien")  # M001, as in the notation
    assert "the chien has 6 cards at 4 players, found 2" in message


def test_json_error_names_an_unknown_seat() -> None:
    _, path, message = _error(b'{"players": 3, "dealer": "W"}')
    assert path == "$.dealer"
    assert "'W' is not a seat of this deal (seats: S, E, N)" in message


def test_json_error_for_a_card_in_two_hands() -> None:
    hands = {"S": ["7H"] + [f"{r}S" for r in range(1, 11)] + ["JS", "NS", "QS", "KS",
                                                                "1H", "2H", "3H"],
             "E": ["7H"] + [f"{r}D" for r in range(1, 11)] + ["JD", "ND", "QD", "KD",
                                                                "1C", "2C", "3C"]}
    _, path, message = _error(orjson.dumps({"players": 4, "hands": hands}))
    assert path == "$.hands.E"
    assert "card 7H is also in hands.S" in message


def test_json_syntax_error_has_line_and_column() -> None:
    with pytest.raises(TarotError) as info:
        tjson.loads(b'{"players": 4,\n "dealer": }')
    d = info.value.diagnostics[0]
    assert d.code is Code.JSON_SYNTAX
    assert (d.location.line, d.location.col) == (2, 12)


def test_json_unknown_version_is_refused() -> None:
    code, path, message = _error(b'{"tarotnotation": 2, "players": 4}')
    assert (code, path) == (Code.JSON_VERSION, "$.tarotnotation")
    assert "expected 1" in message


def test_jsonl_broken_line_does_not_stop_the_rest() -> None:
    buf = io.BytesIO()
    tjson.write([_deal(1), _deal(2), _deal(3)], buf)
    lines = buf.getvalue().splitlines()
    lines[1] = lines[1][:-20]  # truncate the second deal
    items = list(tjson.read(b"\n".join(lines) + b"\n", name="games.jsonl"))
    assert [i.index for i in items] == [1, 2, 3]
    assert [i.ok for i in items] == [True, False, True]
    d = items[1].diagnostics[0]
    assert (d.code, d.location.file, d.location.line, d.location.deal) == (
        Code.JSON_SYNTAX, "games.jsonl", 2, 2)


def test_archive_document_reads_every_deal_and_locates_schema_errors() -> None:
    buf = io.BytesIO()
    tjson.write([_deal(4), _deal(5, 5)], buf, lines=False)
    obj = orjson.loads(buf.getvalue())
    obj["deals"][1]["players"] = 9
    items = list(tjson.read(orjson.dumps(obj)))
    assert items[0].ok
    assert not items[1].ok
    assert items[1].diagnostics[0].location.path == "$.deals[1].players"


def test_json_round_trip_replays_the_same() -> None:
    rec = _deal(21, 5)
    a, b = replay(rec), replay(tjson.loads(tjson.dumps(rec)))
    assert a.scores == b.scores
    assert a.diagnostics == b.diagnostics


def test_json_schema_file_is_up_to_date() -> None:
    schema_file = ROOT / "docs" / "tarot-record.schema.json"
    expected = orjson.dumps(tjson.json_schema(), option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS)
    assert schema_file.read_bytes() == expected + b"\n", (
        "regenerate with: python -m tarotnotation.formats.json --schema > "
        "docs/tarot-record.schema.json")


def test_junk_is_one_error_not_a_phantom_deal_per_line() -> None:
    junk = bytes(range(256)) * 4 + b"\n" + b"not json\n" * 5
    items = list(tjson.read(junk, name="junk.json"))
    assert len(items) == 1
    assert items[0].record is None
    # bytes that are not UTF-8 are S007 since issue 6 (they were J001 before)
    assert items[0].diagnostics[0].code is Code.ENCODING


def test_pretty_printed_single_record_is_one_deal() -> None:
    items = list(tjson.read(tjson.dumps(_deal(3), indent=True)))
    assert [i.ok for i in items] == [True]
