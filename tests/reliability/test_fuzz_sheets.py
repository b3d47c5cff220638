"""No input crashes the score sheets' and score apps' readers: mutated sheets, random
bytes and random JSON give records and located diagnostics, never an exception."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import orjson
from budget import cases
from hypothesis import given, settings
from hypothesis import strategies as st
from sheetgen import evening

from tarotnotation.formats import csvsheet, detect, matocolotoe, scoreit, xlsx
from tarotnotation.replay import replay
from tarotnotation.source import ReadDeal

ROOT = Path(__file__).resolve().parents[2]
MESSY = (ROOT / "tests" / "fixtures" / "sheets" / "messy-five-player-evening.csv").read_bytes()
WRITTEN = csvsheet.dumps(evening(5, 6, seed=7))
EXAMPLES = int(os.environ.get("TAROT_FUZZ_EXAMPLES", cases(100)))


def _checked(deals: list[ReadDeal], name: str) -> None:
    for deal in deals:
        for d in deal.diagnostics:
            assert d.location.file is not None, d
            assert d.location.file.startswith(name), d
        if deal.record is not None:
            for d in replay(deal.record, source=deal.source).diagnostics:
                assert d.location.file == name or d.location.file is None, d


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(st.sampled_from([MESSY, WRITTEN])))
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(data)))
        kind = draw(st.sampled_from(["delete", "duplicate", "insert", "separator"]))
        size = draw(st.integers(1, 40))
        if kind == "delete":
            del data[at:at + size]
        elif kind == "duplicate":
            data[at:at] = data[at:at + size]
        elif kind == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=size))
        else:
            data[at:at] = draw(st.sampled_from([b";", b",", b"\t", b'"', b"\n", b"\r\n",
                                                b"\xe9", b"\xef\xbb\xbf", b"-", b"Total"]))
    return bytes(data)


@settings(max_examples=EXAMPLES)
@given(mutated())
def test_mutated_sheets_never_crash_and_every_fault_is_located(data: bytes) -> None:
    detect.sniff(data, suffix=".csv")
    _checked(list(csvsheet.read(data, name="fuzz.csv")), "fuzz.csv")


@settings(max_examples=EXAMPLES)
@given(st.binary(max_size=400))
def test_random_bytes_never_crash_any_sheet_reader(data: bytes) -> None:
    for fmt in ("csv", "xlsx", "scoreit", "matocolotoe"):
        detect.sniff(data, suffix="." + fmt)
    _checked(list(csvsheet.read(data, name="r.csv")), "r.csv")
    _checked(list(scoreit.read(data, name="r.json")), "r.json")
    _checked(list(matocolotoe.read(data, "r.json")), "r.json")
    _checked(list(xlsx.read(b"PK\x03\x04" + data, name="r.xlsx")), "r.xlsx")


_JSON: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 100) | st.floats(allow_nan=False)
    | st.sampled_from(["ONE", "TWO", "FIVE", "NONE", "GUARD", "PETIT", "PETIT_AU_BOUT",
                       "POIGNEE_SIMPLE", "CHELEM_ANNONCE_REALISE", "Alice", ""]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["playerCount", "taker", "partner", "bid", "oudlers", "points",
                         "bonuses", "player", "bonus", "name", "id", "side", "handful",
                         "misery", "contract", "attack_score", "slam", "day",
                         "petit_au_bout", "players"]), inner, max_size=6),
    max_leaves=20)


@settings(max_examples=EXAMPLES)
@given(st.lists(_JSON, max_size=4), st.lists(_JSON, max_size=5))
def test_random_json_never_crashes_the_score_apps_readers(laps: list[Any],
                                                          players: list[Any]) -> None:
    doc = {"type": "TAROT", "players": players, "laps": laps}
    _checked(list(scoreit.read(orjson.dumps(doc), name="s.json")), "s.json")
    _checked(list(matocolotoe.read(orjson.dumps(laps), "games_2026_01.json")),
             "games_2026_01.json")
