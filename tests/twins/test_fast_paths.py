"""The fast paths report exactly what the slow ones do.

- ``builder.build_record`` (records without pydantic) gives the record pydantic gives, with
  the same fields set at every level, or None (then pydantic validates and words faults);
- ``quick.quick_check`` says *clean* only of deals that the reader and the replay find
  clean, with the same status, scores and taker's points;
- ``archive.check_paths`` gives the same results, in the same order, serial or parallel,
  with the replay kept or not, whatever the chunk size.

Each is run on generated deals (3, 4 and 5 players, several rulesets), on every example,
and on the same deals with faults injected (cards swapped, bids, scores, seats, types…).
"""

from __future__ import annotations

import copy
import os
import random
from pathlib import Path
from typing import Any

import budget
import orjson
import pytest
from pydantic import BaseModel, ValidationError

from tarotnotation import archive, checking, cutting, notation
from tarotnotation.archive import check_deal, check_paths
from tarotnotation.builder import build_record
from tarotnotation.formats import json as tjson
from tarotnotation.limits import MAX_JSON_RECORD_BYTES
from tarotnotation.quick import quick_check, quick_check_record
from tarotnotation.records import DealRecord
from tarotnotation.replay import Status, replay
from tarotnotation.rules import Contract, Ruleset
from tarotnotation.simulate import random_deal
from tarotnotation.source import read_deal

ROOT = Path(__file__).resolve().parents[2]
RULESETS = [Ruleset.fft(), Ruleset.pagat(),
            Ruleset.from_spec("fft petit_in_chien=annuls excuse_last_trick=to_trick_winner")]


def _deals(count: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        rec = random_deal(rng, (3, 4, 5, 4)[i % 4], ruleset=RULESETS[i % len(RULESETS)],
                          contract=rng.choice([None, *Contract]),
                          stop_after=rng.choice([None] * 6 + [rng.randrange(80)]))
        out.append(tjson.to_dict(rec))
    return out


def _examples() -> list[dict[str, Any]]:
    out = []
    for path in sorted((ROOT / "examples").rglob("*.tarot")):
        for item in notation.read(path):
            if item.record is not None:
                out.append(tjson.to_dict(item.record))
    return out


def mutate(rng: random.Random, obj: dict[str, Any]) -> dict[str, Any]:
    """One fault or oddity injected into a JSON record."""
    obj = copy.deepcopy(obj)
    play = obj.get("play") or [{"cards": [{"card": "EX"}]}]
    kind = rng.randrange(16)
    if kind == 0 and len(play) > 1:  # two cards swapped between tricks
        a, b = rng.sample(range(len(play)), 2)
        ca, cb = play[a]["cards"], play[b]["cards"]
        i, j = rng.randrange(len(ca)), rng.randrange(len(cb))
        ca[i], cb[j] = cb[j], ca[i]
    elif kind == 1:  # two cards of a trick swapped
        cards = rng.choice(play)["cards"]
        if len(cards) > 1:
            cards[0], cards[-1] = cards[-1], cards[0]
    elif kind == 2 and obj.get("result", {}).get("scores"):
        seat = rng.choice(list(obj["result"]["scores"]))
        obj["result"]["scores"][seat] += rng.choice([-2, 1, 10])
    elif kind == 3 and obj.get("auction"):
        rng.choice(obj["auction"])["contract"] = rng.choice(
            ["pass", "prise", "garde", "garde_sans", "garde_contre", "Garde", 3, None])
    elif kind == 4:
        obj["players"] = rng.choice([3, 4, 5, 6, "4", True, None])
    elif kind == 5 and obj.get("hands"):
        seat = rng.choice(list(obj["hands"]))
        obj["hands"][seat] = [*obj["hands"][seat][:-1], rng.choice(["EX", "T21", "7h", 7])]
    elif kind == 6:
        key = rng.choice(sorted(obj))
        del obj[key]
    elif kind == 7:
        obj[rng.choice(["ruleset", "dealer", "tags", "comments", "glyph", "seats"])] = (
            rng.choice([None, "", "pagat", "X", [], {}, 1, "!", [["Event", "x\ny"]]]))
    elif kind == 8 and obj.get("ecart"):
        obj["ecart"] = rng.choice([{}, {"cards": obj["ecart"]["cards"][:-1]},
                                   {"cards": obj["ecart"]["cards"], "shown": ["T2"]}, None])
    elif kind == 9:
        card = rng.choice(rng.choice(play)["cards"])
        card[rng.choice(["seat", "glyph", "comments", "card"])] = rng.choice(
            ["S", "E", "Z", "!?", ["ok"], ["ok", 7], "T1", None, 5])
    elif kind == 10:
        obj.setdefault("declarations", []).append(rng.choice([
            {"kind": "poignee", "seat": "S", "cards": ["T1", "T2", "T3"]},
            {"kind": "chelem", "seat": rng.choice(["S", "E"])},
            {"kind": "poignee", "seat": "E", "size": "simple"},
            {"kind": "misere", "seat": "N", "misere": "atout"}]))
    elif kind == 11:
        rng.choice(play)["leader"] = rng.choice(["S", "E", "N", "W", "X"])
    elif kind == 12 and obj.get("result") is not None:
        obj["result"][rng.choice(["taker_points", "bouts", "contract", "annulled",
                                  "chelem", "petit_au_bout"])] = rng.choice(
            [41, 48.5, 3, "garde", True, "taker", "defence", -1])
    elif kind == 13:
        obj["tarotnotation"] = rng.choice([1, 2, "1"])
    elif kind == 14:
        obj["play"] = play[: rng.randrange(len(play) + 1)]
    else:
        obj["chien"] = [*(obj.get("chien") or [])[::-1][:-1], "T21"]
    return obj


def _same_model(a: Any, b: Any, where: str = "record") -> None:
    """Equal values, and pydantic models with the same fields set, all the way down."""
    assert type(a) is type(b), where
    if isinstance(a, BaseModel):
        assert a.model_fields_set == b.model_fields_set, where
        assert list(a.__dict__) == list(b.__dict__), where
        for key in a.__dict__:
            _same_model(a.__dict__[key], b.__dict__[key], f"{where}.{key}")
    elif isinstance(a, (tuple, list)):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _same_model(x, y, f"{where}[{i}]")
    elif isinstance(a, dict):
        assert list(a) == list(b), where
        for key in a:
            _same_model(a[key], b[key], f"{where}.{key}")
    else:
        assert a == b, where


def generated_cases(count: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    clean = _deals(count, seed) + _examples()
    return clean + [mutate(rng, rng.choice(clean)) for _ in range(3 * count)]


@pytest.fixture(scope="module")
def cases() -> list[dict[str, Any]]:
    return generated_cases(120, 2026)


def test_build_record_gives_the_record_pydantic_gives(cases: list[dict[str, Any]]) -> None:
    built = 0
    for obj in cases:
        body = {k: v for k, v in obj.items() if k != "tarotnotation"}
        fast = build_record(copy.deepcopy(body))
        try:
            slow: DealRecord | None = DealRecord.model_validate(copy.deepcopy(body))
        except (ValidationError, ValueError):
            slow = None
        if fast is None:
            continue
        built += 1
        assert slow is not None, body
        _same_model(fast, slow)
        assert tjson.dumps(fast) == tjson.dumps(slow)
    assert built > len(cases) // 3  # the fast path takes the usual shapes


def _checked(obj: Any, index: int = 1, ruleset: str | None = None,
             default: str | None = None) -> tuple[Any, ...]:
    item = next(tjson.read(orjson.dumps(obj)))
    item = read_deal(index, item.record, item.diagnostics, item.source, item.line, item.offset)
    c = check_deal(item, "f", ruleset, keep=True, default_ruleset=default)  # the replay
    return c.diagnostics, c.status, None if c.scores is None else dict(c.scores), c.taker_half


@pytest.mark.parametrize(("ruleset", "default"), [(None, None), ("pagat", None),
                                                  (None, "fft excuse_last_trick=to_trick_winner")])
def test_quick_check_says_clean_only_of_clean_deals(cases: list[dict[str, Any]],
                                                    ruleset: str | None,
                                                    default: str | None) -> None:
    quick = 0
    for obj in cases:
        answer = quick_check(copy.deepcopy(obj), ruleset, default)
        if answer is None:
            continue
        quick += 1
        diagnostics, status, scores, half = _checked(obj, ruleset=ruleset, default=default)
        assert diagnostics == (), obj
        assert (status, scores, half) == answer, obj
    assert quick > 60  # most clean deals of 3 and 4 players take the quick path


@pytest.mark.parametrize(("ruleset", "default"), [(None, None), ("pagat", None),
                                                  (None, "fft excuse_last_trick=to_trick_winner")])
def test_quick_check_of_a_record_says_clean_only_of_clean_deals(
        cases: list[dict[str, Any]], ruleset: str | None, default: str | None) -> None:
    quick = 0
    for obj in cases:
        item = next(tjson.read(orjson.dumps(obj)))
        if item.record is None:
            continue
        answer = quick_check_record(item.record, ruleset, default)
        if answer is None:
            continue
        quick += 1
        diagnostics, status, scores, half = _checked(obj, ruleset=ruleset, default=default)
        assert diagnostics == (), obj
        assert (status, scores, half) == answer, obj
        # and what check_deal reports without the replay is the replay's report
        fast = check_deal(item, "f", ruleset, keep=False, default_ruleset=default)
        assert (fast.diagnostics, fast.status, dict(fast.scores or {}), fast.taker_half) == (
            diagnostics, status, scores, half)
    assert quick > 60


def test_text_records_take_the_quick_path_and_report_the_same(tmp_path: Path) -> None:
    rng = random.Random(7)
    path = tmp_path / "deals.tarot"
    notation_text = notation.dumps([random_deal(rng, (3, 4, 5)[i % 3]) for i in range(30)])
    path.write_text(notation_text, encoding="utf-8")
    slow = [(c.index, c.diagnostics, c.status, c.scores, c.taker_half)
            for c in check_paths([path])]
    fast = [(c.index, c.diagnostics, c.status, c.scores, c.taker_half)
            for c in check_paths([path], keep=False)]
    assert fast == slow
    assert sum(quick_check_record(item.record) is not None
               for item in notation.read(path) if item.record is not None) >= 15


def _archive(tmp_path: Path, cases: list[dict[str, Any]]) -> Path:
    lines = [orjson.dumps(obj) for obj in cases[:200]]
    lines[3:3] = [b"", b"   ", b"{not json", b"[1, 2]", b'{"players": 4, "dealer": "Q"}']
    lines.insert(50, b'{"players": 4, "comments": ["' + b"x" * MAX_JSON_RECORD_BYTES + b'"]}')
    path = tmp_path / "archive.jsonl"
    path.write_bytes(b"\xef\xbb\xbf\n" + b"\n".join(lines) + b"\n")
    return path


@pytest.mark.process
def test_check_paths_reports_the_same_serial_parallel_quick_or_not(
        tmp_path: Path, cases: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch) -> None:
    path = _archive(tmp_path, cases)
    (tmp_path / "more.jsonl").write_bytes(b"\n".join(orjson.dumps(o) for o in cases[200:260]))

    def run(**kwargs: Any) -> list[tuple[Any, ...]]:
        return [(c.file, c.index, c.diagnostics, c.status,
                 None if c.scores is None else dict(c.scores), c.taker_half)
                for c in check_paths([tmp_path], **kwargs)]

    reference = run()
    assert len(reference) == 200 + 3 + 1 + 60
    assert reference[0][:2] == (str(path.with_name("archive.jsonl")), 1)
    assert run(keep=False) == reference
    assert run(jobs=2) == reference
    monkeypatch.setattr(cutting, "CHUNK_BYTES", 2000)
    assert run(keep=False) == reference
    assert run(jobs=2) == reference


# --- the quick check's own cases ---------------------------------------------------------

QUICK_DEALS = int(os.environ.get("TAROT_QUICK_DEALS", budget.cases(400)))
SPECS = [None, "pagat", "fft chelem_excuse_wins=false", "fft petit_au_bout=wins_last_trick",
         "fft excuse_last_trick=to_trick_winner petit_in_chien=annuls"]


def _agrees(obj: dict[str, Any], ruleset: str | None = None) -> bool:
    """The quick check's answer is the replay's (asserted); whether it took the deal."""
    answer = quick_check(copy.deepcopy(obj), ruleset)
    if answer is None:
        return False
    diagnostics, status, scores, half = _checked(obj, ruleset=ruleset)
    assert diagnostics == (), (ruleset, obj)
    assert (status, scores, half) == answer, (ruleset, obj)
    return True


def _example(name: str) -> dict[str, Any]:
    item = next(notation.read(ROOT / "examples" / name))
    assert item.record is not None
    return tjson.to_dict(item.record)


@pytest.mark.parametrize("ruleset", SPECS)
def test_quick_check_takes_the_examples_without_their_result(ruleset: str | None) -> None:
    taken = 0
    for obj in _examples():
        obj.pop("result", None)
        if ruleset is not None:
            obj.pop("ruleset", None)
        taken += _agrees(obj, ruleset)
    assert taken >= 8  # the complete deals of 3 and 4 players


@pytest.mark.parametrize("ruleset", SPECS)
def test_quick_check_takes_the_examples_with_their_whole_result(ruleset: str | None) -> None:
    # A result that gives the contract, taker, points, bouts... beside the scores: each
    # fact checked against the play's and by the plausibility checks, as the replay does.
    taken = 0
    for obj in _examples():
        if ruleset is not None:
            obj.pop("ruleset", None)
        if set(obj.get("result") or {}) - {"scores"}:
            taken += _agrees(obj, ruleset)
    assert taken >= 5 if ruleset is None else taken >= 1


def test_quick_check_leaves_each_wrong_fact_of_a_result_to_the_replay() -> None:
    obj = _example("garde-sans.tarot")
    assert _agrees(obj)
    for key, wrong in [("contract", "garde"), ("taker", "E"), ("taker_points", 22.5),
                       ("taker_points", 95), ("bouts", 3), ("petit_au_bout", "taker"),
                       ("chelem", "defence"), ("taker_points", True), ("bouts", "2"),
                       ("contract", "pass"), ("taker", "X"), ("partner", "E"),
                       ("annulled", False)]:
        bad = copy.deepcopy(obj)
        bad["result"][key] = wrong
        assert quick_check(bad) is None, (key, wrong)


def test_quick_check_of_generated_deals_with_their_whole_result() -> None:
    # The replay's own facts written into the result: taken, and the replay's answer.
    rng = random.Random(11)
    taken = 0
    for i in range(60):
        rec = random_deal(rng, 3 + i % 2)
        r = replay(rec)
        assert r.contract is not None
        assert r.taker is not None
        assert r.taker_half is not None
        obj = tjson.to_dict(rec)
        facts = {"contract": r.contract.keyword, "taker": r.taker,
                 "taker_points": r.taker_half / 2, "bouts": r.bouts}
        if r.petit_au_bout is not None:
            facts["petit_au_bout"] = r.petit_au_bout.value
        if r.chelem is not None:
            facts["chelem"] = r.chelem.value
        obj["result"] = {**facts, **obj.get("result", {})}
        for drop in rng.sample(sorted(facts), rng.randrange(len(facts))):
            obj["result"].pop(drop)
        taken += _agrees(obj)
    assert taken >= 50


@pytest.mark.parametrize("ruleset", SPECS)
def test_quick_check_of_an_announced_chelem_and_the_excuse_led_last(
        ruleset: str | None) -> None:
    # The taker announces, leads, wins every trick and leads the Excuse to the last one:
    # under chelem_excuse_wins=true the Excuse wins it (a chelem made), else he loses it.
    obj = _example("chelem-announced.tarot")
    obj.pop("result")
    obj.pop("ruleset", None)
    assert obj["play"][-1]["cards"][0] == {"card": "EX"}
    assert _agrees(obj, ruleset)
    scores = quick_check(obj, ruleset)
    assert scores is not None
    made = ruleset is None or "chelem_excuse_wins=false" not in ruleset
    assert (scores[1]["E"] > 1000) is made
    # Not announced (E, first to speak, leads all the same): a chelem or not, as above,
    # and no one else may announce it.
    quiet = {k: v for k, v in obj.items() if k != "declarations"}
    assert _agrees(quiet, ruleset)
    for seat in ("S", "N"):
        other = copy.deepcopy(obj)
        other["declarations"] = [{"kind": "chelem", "seat": seat}]
        assert quick_check(other, ruleset) is None  # H107 (and the wrong leader)
    twice = copy.deepcopy(obj)
    twice["declarations"] = [{"kind": "chelem", "seat": "E"}] * 2
    assert quick_check(twice, ruleset) is None  # H106


@pytest.mark.parametrize("ruleset", SPECS)
def test_quick_check_of_the_petit_au_bout_in_a_chelem(ruleset: str | None) -> None:
    # The chelem above with T1 and T5 swapped: E, the taker, wins trick 17 with the
    # Petit and leads the Excuse to the last: the Petit au bout is in the trick before.
    obj = _example("chelem-announced.tarot")
    obj.pop("result")
    obj.pop("ruleset", None)
    swapped = orjson.loads(orjson.dumps(obj).replace(b'"T1"', b'"tmp"')
                           .replace(b'"T5"', b'"T1"').replace(b'"tmp"', b'"T5"'))
    assert swapped["play"][16]["cards"][0] == {"card": "T1"}
    assert _agrees(swapped, ruleset)
    plain, bout = quick_check(obj, ruleset), quick_check(swapped, ruleset)
    assert plain is not None
    assert bout is not None
    made = ruleset is None or "chelem_excuse_wins=false" not in ruleset
    # garde sans: the Petit au bout is worth 10 × 4 from each defender (or nothing)
    assert bout[1]["E"] - plain[1]["E"] == (3 * 40 if made else 0)


@pytest.mark.parametrize(("name", "code"), [
    ("revoke-holding-the-suit-led", "P105"),
    ("no-trump-on-a-trump-lead", "P106"),
    ("undertrump-on-a-trump-lead", "P107"),
    ("undertrump-on-a-plain-lead", "P107"),
    ("discard-holding-a-higher-trump", "P107"),
])
def test_quick_check_leaves_each_illegal_card_to_the_replay(name: str, code: str) -> None:
    # Generated deals with two cards of one player swapped between tricks: that one card
    # breaks the rules, and nothing else is wrong.
    obj = orjson.loads((ROOT / "tests" / "fixtures" / "quick" / f"{name}.json").read_bytes())
    diagnostics, _, _, _ = _checked(obj)
    assert [d.code.value for d in diagnostics] == [code]
    assert quick_check(obj) is None
    item = next(tjson.read(orjson.dumps(obj)))
    assert item.record is not None
    assert quick_check_record(item.record) is None


def test_quick_check_of_the_excuse_led_to_the_last_trick() -> None:
    obj = _example("excuse-last-trick.tarot")
    obj.pop("result", None)
    assert any(_agrees(obj, ruleset) for ruleset in SPECS)


def swap_own_cards(rng: random.Random, rec: DealRecord, obj: dict[str, Any]) -> None:
    """Two cards of one player swapped between two tricks: his hand still matches his
    play, but a card may now break the rules of its trick (or change who wins it)."""
    tricks = replay(rec).tricks
    seat = rng.randrange(rec.players)
    a, b = sorted(rng.sample(range(len(tricks)), 2))
    i, j = tricks[a].seats.index(seat), tricks[b].seats.index(seat)
    ca, cb = obj["play"][a]["cards"], obj["play"][b]["cards"]
    ca[i], cb[j] = cb[j], ca[i]


def mutate_call(rng: random.Random, obj: dict[str, Any]) -> None:
    """Another card called at five players: any card of a hand or the chien (a King, the
    taker's own, a Queen he may or may not call, a trump...), the King of the suit led
    first (the called suit led), or no call at all."""
    kind = rng.randrange(4)
    if kind == 0:
        obj.pop("call", None)
    elif kind == 1:
        first = obj["play"][0]["cards"][0]["card"] if obj.get("play") else "EX"
        obj["call"] = {"card": "K" + first[-1] if first[0] != "T" and first != "EX" else "KS"}
    else:
        pool = [c for cards in [*obj.get("hands", {}).values(), obj.get("chien", [])]
                for c in cards] or ["KS"]
        obj["call"] = {"card": rng.choice(pool if kind == 2 else
                                          [c for c in pool if c[0] in "KQNJ"])}


@pytest.mark.parametrize("players", [3, 4, 5])
def test_quick_check_agrees_with_the_replay_on_many_deals(players: int) -> None:
    """Generated deals, a third of them with a chelem announced; a third of them with a
    player's cards swapped between tricks (a revoke, an undertrump…), a third with another
    fault or oddity (``TAROT_QUICK_DEALS`` sets how many: 400 in CI); at five players a
    quarter with another card called (and the first lead free under one ruleset). The
    quick check takes every clean deal in the usual shape, and agrees with the replay on
    all."""
    rng = random.Random(2026 + players)
    taken = faults = 0
    specs = SPECS if players < 5 else [*SPECS, "fft five_player_first_lead=free"]
    for _ in range(QUICK_DEALS):
        spec = rng.choice(specs)
        rec = random_deal(rng, players, ruleset=Ruleset.from_spec(spec or "fft"),
                          chelem_chance=0.3, poignee_chance=0.3)
        obj = tjson.to_dict(rec)
        kind = rng.randrange(3 if players < 5 else 4)
        if kind == 1 and len(rec.play) > 1:
            swap_own_cards(rng, rec, obj)
        elif kind == 2:
            obj = mutate(rng, obj)
        elif kind == 3:
            mutate_call(rng, obj)
        ruleset = rng.choice([None, spec])
        took = _agrees(obj, ruleset)
        taken += took
        if kind == 0 and not took:
            # Only another shape: an annulled deal, trumps shown in the écart.
            diagnostics, status, _, _ = _checked(obj, ruleset=ruleset)
            assert status is not Status.SCORED or diagnostics or obj["ecart"]["shown"], obj
        if kind == 1 and not took:
            faults += 1
    assert taken > QUICK_DEALS // (3 if players < 5 else 4)  # (a quarter clean at five)
    assert faults > QUICK_DEALS // 10  # the swaps do break rules


@pytest.mark.process
@pytest.mark.parametrize("seed", range(6))
def test_json_lines_chunks_split_the_lines_as_the_reader_does(
        tmp_path: Path, cases: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch,
        seed: int) -> None:
    # Small limits so that chunk ends, overlong lines and their rests fall everywhere:
    # blank and white lines, a byte-order mark, lone \r, broken JSON, bytes that are not
    # UTF-8 (located by their offset), no final newline.
    rng = random.Random(seed)
    head = min((orjson.dumps(obj) for obj in cases[:40]), key=len)
    limit = rng.choice([len(head) + 5, 2 * len(head), 4 * len(head)])
    monkeypatch.setattr(cutting, "MAX_JSON_RECORD_BYTES", limit)
    monkeypatch.setattr(checking, "MAX_JSON_RECORD_BYTES", limit)
    monkeypatch.setattr(tjson, "MAX_JSON_RECORD_BYTES", limit)
    monkeypatch.setattr(cutting, "CHUNK_BYTES", rng.choice([50, 700, 2600, 1 << 20]))
    pieces = [orjson.dumps(obj) for obj in cases[:40]]
    pieces += [b"", b"   ", b"\t\r", b"{broken", b"x" * (limit + rng.randrange(-2, 3)),
               b'{"players": 4}\r{"players": 3}', b"y" * (3 * limit),
               b'{"players": 4, "tags": [["Event", "\xe9t\xe9"]]}']  # Latin-1: S007 at a byte
    rng.shuffle(pieces)
    pieces.insert(0, head)  # (a file that opens otherwise is read whole)
    bom = (b"", b"\xef\xbb\xbf", b"", b"\xef\xbb\xbf  \n")[seed % 4]  # alone on a line
    data = bom + b"\n".join(pieces)
    path = tmp_path / "deals.jsonl"
    path.write_bytes(data + (b"\n" if seed % 3 else b""))

    def run(**kwargs: Any) -> list[tuple[Any, ...]]:
        return [(c.index, c.diagnostics, c.status,
                 None if c.scores is None else dict(c.scores), c.taker_half)
                for c in check_paths([path], **kwargs)]

    assert archive.json_lines_chunks(str(path)) is not None
    reference = run()  # the JSON reader, line by line
    assert run(keep=False) == reference  # chunks, quick checks
    assert run(keep=False, jobs=2) == reference
