"""The quick check's play on the kernel's compiled twin is its play in pure Python.

:mod:`tarotnotation.quick` plays and counts a deal in the usual shape with
``tarotnotation._kernel.play`` (the C twin of ``kernel.PlayState``) when it is built, and
with its own pure-Python pass over the tricks otherwise (``TAROT_PURE=1``, or no
compiler). Here both run on the same records: generated deals of 3, 4 and 5 players under
every ruleset switch that changes play or counting (chelems announced, poignées, the
Excuse led to the last trick, the petit au bout and who played it), the same deals with a
player's cards swapped between tricks (revokes, undertrumps) or another fault injected,
and every record of examples/ and tests/fixtures. They must give the same answer on
each: the same facts (status, scores, taker's half-points, bouts, petit au bout and its
seat, chelem, poignées, margin), or both "look closer" (None). The C scanner of JSON Lines
is held to orjson's reading the same way. CI runs this file on both paths.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import budget
import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fast_paths import SPECS, generated_cases, mutate, mutate_call, swap_own_cards

from tarotnotation import native, quick
from tarotnotation.archive import read_path
from tarotnotation.formats import json as tjson
from tarotnotation.records import DealRecord
from tarotnotation.rules import Ruleset
from tarotnotation.simulate import random_deal

ROOT = Path(__file__).resolve().parents[2]
TWIN = native.compiled(force=True)
needs_twin = pytest.mark.skipif(TWIN is None, reason="the compiled core is not built here")


def _both(monkeypatch: pytest.MonkeyPatch, obj: Any, ruleset: str | None = None,
          default: str | None = None) -> tuple[Any, Any]:
    """quick_facts of ``obj`` (every fact, not only quick_check's answer) on the compiled
    twin, then in pure Python."""
    answers = []
    for twin in (TWIN, None):
        with monkeypatch.context() as m:
            m.setattr(native, "compiled", lambda force=False, twin=twin: twin)
            answers.append(quick.quick_facts(copy.deepcopy(obj), ruleset, default))
    return answers[0], answers[1]


def _corpus() -> Iterator[DealRecord]:
    for folder in (ROOT / "examples", ROOT / "tests" / "fixtures"):
        for path in sorted(folder.rglob("*")):
            if path.suffix in (".tarot", ".json", ".jsonl") and path.is_file():
                for item in read_path(path):
                    if item.record is not None:
                        yield item.record


@needs_twin
def test_the_quick_check_plays_on_the_twin_when_it_is_built(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert TWIN is not None
    calls = []

    def play(*args: Any) -> Any:
        calls.append(args)
        return TWIN.play(*args)

    fake = ModuleType("twin")
    fake.play = play  # type: ignore[attr-defined]
    monkeypatch.setattr(native, "compiled", lambda force=False: fake)
    rec = random_deal(random.Random(1), 4)
    assert quick.quick_check(tjson.to_dict(rec)) is not None
    assert len(calls) == 1


@needs_twin
@pytest.mark.parametrize(("ruleset", "default"), [(None, None), ("pagat", None),
                                                  (None, "fft excuse_last_trick=to_trick_winner")])
def test_twin_and_pure_agree_on_generated_faulty_and_odd_deals(
        monkeypatch: pytest.MonkeyPatch, ruleset: str | None, default: str | None) -> None:
    taken = 0
    for obj in generated_cases(100, 17):
        fast, pure = _both(monkeypatch, obj, ruleset, default)
        assert fast == pure, obj
        taken += fast is not None
    assert taken > 50


@needs_twin
@pytest.mark.parametrize("spec", SPECS)
def test_twin_and_pure_agree_on_the_examples_and_fixtures(
        monkeypatch: pytest.MonkeyPatch, spec: str | None) -> None:
    taken = 0
    for rec in _corpus():
        obj = tjson.to_dict(rec)
        for variant in (obj, {k: v for k, v in obj.items() if k != "result"}):
            fast, pure = _both(monkeypatch, variant, spec)
            assert fast == pure, variant
            taken += fast is not None
    assert taken >= 8  # (most examples are of another shape: the replay reads them)


@needs_twin
@settings(max_examples=budget.cases(150), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([3, 4, 5]),
       spec=st.sampled_from([*SPECS, "fft five_player_first_lead=free"]),
       fault=st.sampled_from(["none", "swap", "other", "call"]))
def test_twin_and_pure_agree_on_any_deal(monkeypatch: pytest.MonkeyPatch, seed: int,
                                         players: int, spec: str | None,
                                         fault: str) -> None:
    rng = random.Random(seed)
    rec = random_deal(rng, players, ruleset=Ruleset.from_spec(spec or "fft"),
                      chelem_chance=0.3, poignee_chance=0.3)
    obj = tjson.to_dict(rec)
    if fault == "swap" and len(rec.play) > 1:
        swap_own_cards(rng, rec, obj)
    elif fault == "other":
        obj = mutate(rng, obj)
    elif fault == "call" and players == 5:
        mutate_call(rng, obj)
    fast, pure = _both(monkeypatch, obj, rng.choice([None, spec]))
    assert fast == pure
    if fault == "none":
        assert fast is not None or rec.result is None or rec.result.annulled or (
            rec.ecart is not None and rec.ecart.shown) or pure is None


# --- the scanner of JSON Lines (_kernel.scan_json) -----------------------------------------


def _orjson_way(line: bytes, ruleset: str | None = None,
                default: str | None = None) -> Any:
    """What the quick check makes of a line parsed by orjson (the reference)."""
    try:
        obj = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    if type(obj) is not dict:
        return None
    answer = quick.quick_check(obj, ruleset, default)
    return None if answer is None else (answer, obj.get("tags"))


def _scanned_way(monkeypatch: pytest.MonkeyPatch, line: bytes, ruleset: str | None = None,
                 default: str | None = None) -> Any:
    with monkeypatch.context() as m:
        m.setattr(native, "compiled", lambda force=False: TWIN)
        return quick.quick_check_line(line, ruleset, default)


#: Edits of a canonical line: each one the scanner must give up on, or read as orjson does.
EDITS = [
    (b'"players":4', b'"players": 4'), (b'"players":4', b'"players":4.0'),
    (b'"players":4', b'"players":04'), (b'"players":4', b'"players":true'),
    (b'"tarotnotation":1', b'"tarotnotation":1.0'), (b'"tarotnotation":1', b'"tarotnotation":2'),
    (b'"dealer":"', b'"dealer":"\\u0053'), (b'"dealer":"W"', b'"dealer":null'),
    (b'"dealer":"W"', b'"dealer":"W","dealer":"S"'), (b'"S":62', b'"S":-0'),
    (b'"S":62', b'"S":0062'), (b'"S":62', b'"S":62,"S":63'),
    (b'"S":62', b'"S":123456789012345678901'), (b'"S":62', b'"S":62.5'),
    (b'"chien":[', b'"chien":["EX",'), (b'"KS"', b'"ks"'), (b'"T9"', b'"T09"'),
    (b'"T9"', b'"T22"'), (b'"10C"', b'"0C"'), (b'{"card":"', b'{"seat":"S","card":"'),
    (b'{"cards":[', b'{"leader":"S","cards":['), (b'"ecart":{', b'"ecart":{"shown":[],'),
    (b'"result":{', b'"result":{"glyph":"!",'), (b'"result":{"scores":{', b'"result":{"s":{'),
    (b'"seats":[{"id":"S"}', b'"seats":[{"id":"S","name":"Ann"}'),
    # a seat's name: read by the scanner in the writer's layout (the id first), its
    # other layouts and odd values left to orjson
    (b'"seats":[{"id":"S"}', b'"seats":[{"id":"S","name":""}'),
    (b'"seats":[{"id":"S"}', b'"seats":[{"id":"S","name":"Chlo\xc3\xa9 \xe2\x80\x94 L"}'),
    (b'"seats":[{"id":"S"}', b'"seats":[{"name":"Ann","id":"S"}'),
    (b'"seats":[{"id":"S"}', b'"seats":[{"id":"S","name":null}'),
    (b'"seats":[{"id":"S"}', b'"seats":[{"id":"S","name":"A\\nB"}'),
    (b'"seats":[{"id":"S"}', b'"seats":[{"id":"S","name":"A\\"B"}'),
    (b'"seats":[{"id":"S"}', b'"seats":[{"id":"S","name":7}'),
    (b'"seats":[{"id":"S"}', b'"seats":[{"id":"S","name":"Ann","name":"Bo"}'),
    (b'"seats":[{"id":"S"}', b'"seats":[{"id":"S","nom":"Ann"}'),
    (b'"seats":[{"id":"S"}', b'"seats":[{"id":"S","name":"\xff"}'),
    (b'"seats":[{"id":"S"}', b'"seats":[{"id":"X"}'), (b'"auction":[', b'"auction":[{},'),
    (b'{"contract":"pass"}', b'{"contract":"pass","glyph":"!"}'),
    (b'{"contract":"pass"}', b'{"contract":"passe"}'), (b'"tags":[[', b'"tags":[["Deal","1"],['),
    (b'"Event"', b'"\xc3\xa9v\xc3\xa9nement"'), (b'"Event"', b'"\xff"'), (b'"Event"', b'"E\x01"'),
    (b'"tags":[', b'"comments":["x"],"glyph":"!!","tags":['),
    (b'"tags":[', b'"glyph":"!!!","tags":['), (b'"tags":[', b'"ruleset":"pagat","tags":['),
    (b'"tags":[', b'"ruleset":"nonsense","tags":['), (b'"tags":[', b'"declarations":[],"tags":['),
    (b'"hands":{"S"', b'"hands":{"S":[],"S"'), (b'}]}]', b'}]},{"cards":[]}]'),
    (b'"play":[{"cards":[{"card":"', b'"play":[{"cards":[{"card":"EX"},{"card":"'),
    (b'"result":{"scores":', b'"result":{"scores":{},"x":'),
    (b'"result":{', b'"result":null,"r":{'),
    (b'"kind":"poignee"', b'"kind":"poignee","size":"simple"'),
    (b'"kind":"poignee"', b'"kind":"misere"'), (b'"kind":"chelem"', b'"kind":"chelem","cards":[]'),
    (b'"kind":"chelem"', b'"kind":"chelem","glyph":"!"'),
    (b'"declarations":[', b'"declarations":[{"kind":"chelem","seat":"S"},'),
    (b'"declarations":[', b'"declarations":[{"seat":"E","kind":"chelem"},'),
    (b'"declarations":[', b'"declarations":[{"kind":"poignee","seat":"S","cards":["T1","T1"]},'),
    (b'"declarations":[', b'"declarations":[{"kind":"poignee","seat":"S","cards":[]},'),
    (b'"tags":[', b'"declarations":[{"kind":"chelem","seat":"Z"}],"tags":['),
    # the call (five players): notes, another rank, a trump, twice, null, at four players
    (b'"call":{"card":"', b'"call":{"glyph":"!","card":"'),
    (b'"call":{"card":"K', b'"call":{"card":"Q'), (b'"call":{"card":"K', b'"call":{"card":"J'),
    (b'"call":{"card":"K', b'"call":{"card":"1'), (b'"call":{"card":"', b'"call":{"card":"T2'),
    (b'"call":{', b'"call":{"card":"T21","card":"KS"},"c":{'),
    (b'"call":{', b'"call":null,"c":{'), (b'"players":5', b'"players":4'),
    (b'"tags":[', b'"call":{"card":"KH"},"tags":['),
]


@needs_twin
def test_the_scanner_takes_the_canonical_lines_and_reads_them_as_orjson_does(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert TWIN is not None
    scanned = taken = 0
    for obj in generated_cases(80, 23):
        line = orjson.dumps(obj)
        scanned += TWIN.scan_json(line) is not None
        for ruleset in (None, "pagat"):
            answer = _scanned_way(monkeypatch, line, ruleset)
            assert answer == _orjson_way(line, ruleset), obj
            taken += answer is not None
    assert scanned > 100
    assert taken > 100


@needs_twin
def test_the_scanner_gives_up_or_agrees_on_every_edit(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(5)
    lines = []
    for k in range(80):  # (then forty of five players)
        rec = random_deal(rng, rng.choice([3, 4]) if k < 40 else 5, poignee_chance=0.4,
                          chelem_chance=0.2)
        obj = tjson.to_dict(rec)
        obj["tags"] = [["Event", "Club"]]
        if rng.random() < 0.5:
            obj["play"][0]["cards"][1]["glyph"] = rng.choice(["!", "?!", "!!!"])
            obj["play"][0]["cards"][1]["comments"] = rng.choice([["bien"], [], ["é", "x"]])
        lines.append(orjson.dumps(obj))
    edited = 0
    for line in lines:
        for old, new in EDITS:
            if old in line:
                variant = line.replace(old, new, 1)
                edited += 1
                assert _scanned_way(monkeypatch, variant) == _orjson_way(variant), variant
                # and every fact, the deal as read included (seats, names, cards, tags)
                assert _scanned_facts(monkeypatch, variant) == _orjson_facts(variant), variant
    assert edited > 80 * len(EDITS) // 2


def _orjson_facts(line: bytes) -> Any:
    """quick_facts of a line parsed by orjson (the reference)."""
    try:
        obj = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    return quick.quick_facts(obj) if type(obj) is dict else None


def _scanned_facts(monkeypatch: pytest.MonkeyPatch, line: bytes) -> Any:
    with monkeypatch.context() as m:
        m.setattr(native, "compiled", lambda force=False: TWIN)
        return quick.quick_facts_line(line)


@needs_twin
def test_the_scanner_reads_the_seats_names() -> None:
    assert TWIN is not None
    rec = random_deal(random.Random(8), 4)
    obj = tjson.to_dict(rec)
    obj["seats"] = [{"id": "S", "name": "Chloé Dubois"}, {"id": "E"},
                    {"id": "N", "name": ""}, {"id": "W", "name": "O'Brien — 2"}]
    line = orjson.dumps(obj)
    parts = TWIN.scan_json(line)
    assert parts is not None
    assert parts[3] == ["S", "E", "N", "W"]
    assert parts[16] == ["Chloé Dubois", None, "", "O'Brien — 2"]
    facts = quick.quick_facts_line(line)
    assert facts is not None
    assert facts.names == ("Chloé Dubois", None, "", "O'Brien — 2")
    assert facts == quick.quick_facts(obj)


@needs_twin
@settings(max_examples=budget.cases(300), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), cut=st.floats(0, 1), junk=st.binary(max_size=6),
       drop=st.integers(0, 3))
def test_the_scanner_gives_up_or_agrees_on_any_bytes(monkeypatch: pytest.MonkeyPatch,
                                                     seed: int, cut: float, junk: bytes,
                                                     drop: int) -> None:
    rec = random_deal(random.Random(seed), 3 + seed % 3, poignee_chance=0.3,
                      chelem_chance=0.1)
    line = orjson.dumps(tjson.to_dict(rec))
    at = int(cut * len(line))
    variant = line[:at] + junk + line[at + drop:]
    assert _scanned_way(monkeypatch, variant) == _orjson_way(variant)
