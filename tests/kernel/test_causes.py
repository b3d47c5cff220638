"""One slip, one cause: tarotnotation.causes (issue 12, "errors a person can act on").

Each fixture of tests/fixtures/causes holds one kind of slip, named by the file, in a deal
that is otherwise legal and scored right; the test holds each to its single cause (a Y
code at its line), the cascade it explains (the faults counted before, with ``--ignore
Y``), the repair replaying clean, and the cause never hiding an independent fault.
Random deals spoiled by each kind of slip check that the repair finds the deal as it was
played; deals spoiled only by independent faults check that no cause is made up.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Final

import orjson
import pytest
from cli_runs import ROOT, invoke

from tarotnotation import causes, notation
from tarotnotation.archive import check_deal, check_paths, read_path
from tarotnotation.causes import MIN_FAULTS, explain, find_cause
from tarotnotation.diagnostics import Code, Severity
from tarotnotation.kernel import winner_index
from tarotnotation.records import DealRecord, PlayedCard
from tarotnotation.replay import Replay, replay
from tarotnotation.simulate import random_deal

FIXTURES: Final = ROOT / "tests" / "fixtures" / "causes"
EXAMPLES: Final = ROOT / "examples"

#: Each fixture: its cause, the line the cause points at, and at least how many faults
#: the replay finds without causes (``tarot validate --ignore Y``: the cascade, errors and
#: warnings; the exact count follows the replay's own words for each fault).
CASES: Final = {
    "trick-written-from-the-wrong-seat.tarot": (Code.TRICK_FROM_WRONG_SEAT, 25, 65),
    "trick-written-from-the-wrong-seat.json": (Code.TRICK_FROM_WRONG_SEAT, None, 65),
    "five-players-trick-written-from-the-wrong-seat.tarot": (
        Code.TRICK_FROM_WRONG_SEAT, 25, 71),
    "three-players-trick-written-from-the-wrong-seat-without-hands.tarot": (
        Code.TRICK_FROM_WRONG_SEAT, 32, 7),
    "wrong-dealer.tarot": (Code.WRONG_DEALER, 9, 78),
    "card-missing-from-a-trick.tarot": (Code.CARD_MISSING, 27, 47),
    "trick-missing.tarot": (Code.TRICK_MISSING, 29, 33),
    "tricks-in-seat-order.tarot": (Code.TRICKS_IN_SEAT_ORDER, 18, 72),
    "tricks-swapped.tarot": (Code.TRICKS_SWAPPED, 24, 18),
    "seats-clockwise.tarot": (Code.SEATS_CLOCKWISE, 8, 38),
    "card-miswritten.tarot": (Code.CARD_MISWRITTEN, 27, 55),
    # issue 31: the auction contradicts the recorded taker (the écart and the play agree
    # with the result): 23 faults, and the auction is the one slip
    "auction-written-from-the-wrong-seat.tarot": (Code.AUCTION_FROM_WRONG_SEAT, 16, 23),
}


def _checked(path: Path) -> tuple[Replay, Replay]:
    """The fixture's one deal: its plain replay and its explained replay."""
    [item] = list(read_path(path))
    assert item.record is not None, item.diagnostics
    plain = replay(item.record, deal=1, source=item.source)
    checked = check_deal(item, str(path))
    assert checked.replay is not None
    return plain, checked.replay


def test_every_kind_of_slip_has_a_fixture() -> None:
    assert {p.name for p in FIXTURES.iterdir()} == {
        *CASES, "trick-written-from-the-wrong-seat-and-a-wrong-score.tarot"}
    assert {code for code, _, _ in CASES.values()} == {
        c for c in Code if c.value.startswith("Y")}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_slip_is_said_once_with_its_fix(name: str) -> None:
    code, line, least = CASES[name]
    plain, told = _checked(FIXTURES / name)
    before = len(plain.diagnostics)  # the cascade, as the replay sees it
    assert before >= least
    counted = [d for d in told.diagnostics if d.counts]
    assert [d.code for d in counted] == [code], [str(d) for d in counted]
    [cause] = counted
    assert cause.severity is Severity.ERROR
    assert cause.location.deal == 1
    if line is not None:
        assert cause.location.line == line, cause
    assert f"({before} faults follow from this)" in cause.message
    assert ": " in cause.message  # what happened, then the fix
    # the cascade is kept, marked, and not counted
    follows = [d for d in told.diagnostics if not d.counts]
    assert len(follows) == before
    assert all(d.cause is code for d in follows)
    assert told.errors == [cause]
    # the repair is the deal as it was played: it replays clean
    found = find_cause(plain)
    assert found is not None
    assert replay(found.record).errors == []


@pytest.mark.parametrize("name", sorted(CASES))
def test_validate_counts_the_cause_not_the_cascade(name: str) -> None:
    code, line, least = CASES[name]
    path = str(FIXTURES / name)
    before = len(_checked(FIXTURES / name)[0].diagnostics)
    assert before >= least
    ran = invoke("validate", path)
    assert ran.code == 1
    lines = ran.out.splitlines()
    assert lines[-1].endswith("(1 error, 0 warnings)"), ran.out
    assert f": {code.value} error: deal 1" in lines[0]
    if line is not None:
        assert lines[0].startswith(f"{path}:{line}:")
    old = invoke("validate", path, "--ignore", "Y").out.splitlines()[-1]
    errors, warnings = old.rsplit("(", 1)[1].split(" error")[0], old.split(", ")[-1]
    assert int(errors) + int(warnings.split()[0]) == before
    # -v shows the cascade, marked
    shown = invoke("validate", path, "-v").out
    assert shown.count(f"[follows from {code.value}]") == before
    assert shown.splitlines()[-1] == lines[-1]  # and still does not count it


def test_a_fault_that_remains_after_the_repair_stays_reported() -> None:
    name = "trick-written-from-the-wrong-seat-and-a-wrong-score.tarot"
    _, told = _checked(FIXTURES / name)
    counted = [d for d in told.diagnostics if d.counts]
    assert counted[0].code is Code.TRICK_FROM_WRONG_SEAT
    # the wrong bouts stay reported, as they were, with what they bring (the scores)
    rest = counted[1:]
    assert Code.BOUTS_MISMATCH in {d.code for d in rest}
    assert all(d.code.value.startswith("R") and d.location.line == 39 for d in rest)
    assert all("[follows" not in str(d) for d in rest)


def _revoke_by_swap(rec: DealRecord, rng: random.Random | None = None) -> DealRecord:
    """``rec`` with one more real fault (a revoke, a trump under…): a player's cards of two
    tricks swapped, every trick keeping its winner (so nothing else changes); the first
    such swap, or one drawn by ``rng``."""
    seats = replay(rec).tricks
    before = len(replay(rec).errors)
    pairs = [(a, b) for a in range(len(rec.play)) for b in range(a + 1, len(rec.play))]
    if rng is not None:
        rng.shuffle(pairs)
    for a, b in pairs:
        for i, pa in enumerate(rec.play[a].cards):
            j = seats[b].seats.index(seats[a].seats[i])
            pb = rec.play[b].cards[j]
            if pa.card.suit == pb.card.suit:
                continue
            play = list(rec.play)
            ca, cb = list(play[a].cards), list(play[b].cards)
            ca[i], cb[j] = pb, pa
            if (winner_index([c.card for c in ca]) != winner_index(
                    [c.card for c in play[a].cards]) or winner_index(
                    [c.card for c in cb]) != winner_index([c.card for c in play[b].cards])):
                continue
            play[a] = play[a].model_copy(update={"cards": tuple(ca)})
            play[b] = play[b].model_copy(update={"cards": tuple(cb)})
            spoiled = rec.model_copy(update={"play": tuple(play)})
            faults = replay(spoiled).errors
            if len(faults) > before and all(d.code.value.startswith("P") for d in faults):
                return spoiled
    raise AssertionError("no revoke found")


def test_a_fault_the_cascade_buried_is_reported_after_the_cause() -> None:
    # a real revoke, then the dealer written wrong: the cascade puts the revoking card on
    # another seat, so the revoke does not show; fixing the dealer shows it
    rec = _revoke_by_swap(notation.load(EXAMPLES / "garde-poignee.tarot"))
    revoke = {(d.code, d.location.card) for d in replay(rec).errors}
    spoiled = rec.model_copy(update={"dealer": "N"})
    told = explain(replay(spoiled))
    counted = [d for d in told.diagnostics if d.counts]
    assert counted[0].code is Code.WRONG_DEALER
    assert {(d.code, d.location.card) for d in counted[1:]} == revoke
    assert all(d.message.endswith("(with Y002 fixed)") for d in counted[1:])
    assert all(d.location.path is not None and d.location.path.startswith("play[")
               for d in counted[1:])


def test_clean_deals_and_deals_with_few_faults_are_not_examined(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def no_trial(*_: object, **__: object) -> Replay:
        raise AssertionError("a repair was tried")

    monkeypatch.setattr(causes, "replay", no_trial)
    for path in [*EXAMPLES.glob("*.tarot"), *(EXAMPLES / "faulty").glob("*.tarot")]:
        for item in read_path(path):
            if item.record is None:
                continue
            rep = replay(item.record)
            assert len(rep.errors) < MIN_FAULTS or all(
                d.code.value.startswith("R") for d in rep.errors)
            assert explain(rep) is rep


def test_faults_only_in_the_recorded_result_are_not_examined(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rec = notation.load(EXAMPLES / "garde-poignee.tarot")
    assert rec.result is not None
    wrong = rec.model_copy(update={"result": rec.result.model_copy(update={
        "scores": {"S": -100, "E": 50, "N": 50, "W": 10}, "bouts": 2})})
    rep = replay(wrong)
    assert len(rep.errors) >= MIN_FAULTS
    monkeypatch.setattr(causes, "replay", None)  # any trial would fail
    assert explain(rep) is rep


# --- random deals: each kind of slip, repaired to the deal as it was played -------------------


def _rotate(rec: DealRecord, rng: random.Random) -> DealRecord:
    play = list(rec.play)
    t = rng.randrange(len(play) - 1)
    k = rng.randrange(1, rec.players)
    cards = play[t].cards
    play[t] = play[t].model_copy(update={"cards": cards[k:] + cards[:k]})
    return rec.model_copy(update={"play": tuple(play)})


def _dealer(rec: DealRecord, rng: random.Random) -> DealRecord:
    others = [s for s in rec.seat_ids if s != (rec.dealer or rec.seat_ids[-1])]
    return rec.model_copy(update={"dealer": rng.choice(others)})


def _drop_card(rec: DealRecord, rng: random.Random) -> DealRecord:
    play = list(rec.play)
    t = rng.randrange(len(play) - 1)
    c = rng.randrange(rec.players)
    play[t] = play[t].model_copy(update={"cards": play[t].cards[:c] + play[t].cards[c + 1:]})
    return rec.model_copy(update={"play": tuple(play)})


def _drop_trick(rec: DealRecord, rng: random.Random) -> DealRecord:
    play = list(rec.play)
    del play[rng.randrange(len(play) - 1)]
    return rec.model_copy(update={"play": tuple(play)})


def _swap(rec: DealRecord, rng: random.Random) -> DealRecord:
    play = list(rec.play)
    t = rng.randrange(len(play) - 1)
    play[t], play[t + 1] = play[t + 1], play[t]
    return rec.model_copy(update={"play": tuple(play)})


def _miswrite(rec: DealRecord, rng: random.Random) -> DealRecord:
    play = list(rec.play)
    t = rng.randrange(len(play))
    c = rng.randrange(rec.players)
    other = rng.choice([pc.card for tr in play for pc in tr.cards])
    cards = list(play[t].cards)
    cards[c] = PlayedCard(card=other)
    play[t] = play[t].model_copy(update={"cards": tuple(cards)})
    return rec.model_copy(update={"play": tuple(play)})


def _turn_auction(rec: DealRecord, rng: random.Random) -> DealRecord:
    """The bids listed from another seat, the result naming the taker (as a club's record
    does): the auction then contradicts the recorded taker."""
    assert rec.result is not None
    first = rec.seat_ids.index(rec.first_seat)
    won = max(i for i, b in enumerate(rec.auction) if b.contract is not None)
    taker = rec.seat_ids[(first + won) % rec.players]
    k = rng.randrange(1, rec.players)
    return rec.model_copy(update={"auction": rec.auction[k:] + rec.auction[:k],
                                  "result": rec.result.model_copy(update={"taker": taker})})


SLIPS: Final = {
    Code.TRICK_FROM_WRONG_SEAT: _rotate,
    Code.WRONG_DEALER: _dealer,
    Code.CARD_MISSING: _drop_card,
    Code.TRICK_MISSING: _drop_trick,
    Code.TRICKS_SWAPPED: _swap,
    Code.CARD_MISWRITTEN: _miswrite,
    Code.AUCTION_FROM_WRONG_SEAT: _turn_auction,
}


@pytest.mark.parametrize("slip", list(SLIPS), ids=[c.slug for c in SLIPS])
def test_random_slips_are_repaired_to_the_deal_as_played(slip: Code) -> None:
    rng = random.Random(12)
    examined = repaired = 0
    for i in range(40):
        rec = random_deal(rng, (3, 4, 5)[i % 3])
        spoiled = SLIPS[slip](rec, rng)
        try:
            spoiled = DealRecord.model_validate(spoiled.model_dump())
        except ValueError:
            continue  # e.g. a card written twice in one trick: the model refuses it
        rep = replay(spoiled)
        if len(rep.errors) < MIN_FAULTS or all(d.code.value[0] == "R" for d in rep.errors):
            continue
        examined += 1
        cause = find_cause(rep)
        if cause is None:
            continue
        # whatever the cause, it never hides a fault of the repaired deal
        counted = [d for d in cause.diagnostics if d.counts]
        assert len(counted) == 1 + len(cause.repaired.diagnostics)
        assert len([d for d in counted if d.severity is Severity.ERROR]) < len(rep.errors)
        if cause.diagnostic.code is slip and cause.record.play == rec.play and (
                cause.record.dealer == rec.dealer) and cause.record.auction == rec.auction:
            repaired += 1
    assert examined >= 15, examined
    assert repaired >= 0.8 * examined, (repaired, examined)


def test_independent_faults_make_up_no_cause() -> None:
    # deals spoiled only by real revokes (each keeping every trick's winner): however many
    # faults, no single slip explains them, and none is made up
    rng = random.Random(5)
    seen = 0
    for _ in range(12):
        rec = random_deal(rng, 4)
        for _ in range(3):
            rec = _revoke_by_swap(rec)
        rep = replay(rec)
        if len(rep.errors) >= MIN_FAULTS:
            seen += 1
            assert find_cause(rep) is None, [str(d) for d in explain(rep).diagnostics[:3]]
    assert seen >= 4


# --- the commands ----------------------------------------------------------------------------


def test_max_errors_and_exit_zero() -> None:
    path = str(FIXTURES / "wrong-dealer.tarot")
    total = len(_checked(FIXTURES / "wrong-dealer.tarot")[0].diagnostics)  # the cascade
    ran = invoke("validate", path, "-v", "--max-errors", "5")
    lines = ran.out.splitlines()
    assert len(lines) == 7
    assert lines[5] == f"{path}: deal 1: {total + 1 - 5} more faults not shown (--max-errors)"
    assert lines[6].endswith("(1 error, 0 warnings)")
    assert ran.code == 1
    ran = invoke("validate", path, "--exit-zero")
    assert ran.code == 0
    assert ran.out.splitlines()[-1].endswith("(1 error, 0 warnings)")
    assert invoke("validate", path, "--max-errors", "0").code == 2
    js = orjson.loads(invoke("validate", path, "--ignore", "Y", "--max-errors", "3",
                             "--format", "jsonl").out)
    assert (len(js["diagnostics"]), js["not_shown"]) == (3, total - 3)
    github = invoke("validate", path, "--format", "github", "--max-errors", "1",
                    "--ignore", "Y").out.splitlines()
    assert github[1].startswith(
        f"::notice file={path},title=tarot validate::deal 1: {total - 1} more")


def test_machine_formats_mark_the_consequences() -> None:
    path = str(FIXTURES / "trick-written-from-the-wrong-seat.json")
    doc = orjson.loads(invoke("validate", path, "--format", "json").out)
    [deal] = doc["deals"]
    assert [d["code"] for d in deal["diagnostics"]] == ["Y001"]
    assert doc["summary"]["by_code"] == {"Y001 trick-from-wrong-seat": 1}
    doc = orjson.loads(invoke("validate", path, "--format", "json", "-v").out)
    diags = doc["deals"][0]["diagnostics"]
    assert len(diags) == 1 + len(_checked(Path(path))[0].diagnostics)
    assert {d.get("cause") for d in diags[1:]} == {"Y001"}
    assert doc["summary"]["errors"] == 1
    github = invoke("validate", path, "--format", "github", "-v").out.splitlines()
    assert github[0].startswith("::error ")
    assert all(line.startswith("::notice ") for line in github[1:])
    junit = invoke("validate", str(FIXTURES / "wrong-dealer.tarot"), "--format", "junit",
                   "-v").out
    assert 'type="Y002"' in junit
    assert "[follows from Y002]" in junit


@pytest.mark.process
def test_parallel_checks_keep_the_cause() -> None:
    serial = [(c.index, [(d.code, d.cause) for d in c.diagnostics])
              for c in check_paths([FIXTURES], keep=False)]
    parallel = [(c.index, [(d.code, d.cause) for d in c.diagnostics])
                for c in check_paths([FIXTURES], jobs=2)]
    assert serial == parallel
    assert sum(1 for _, diags in serial if diags and diags[0][0].value[0] == "Y") == 13


def test_read_deal_replay_says_the_cause_as_validate_does() -> None:
    # ReadDeal.replay(), the library's one call, gives what tarot validate reports: the
    # cause and the cascade marked, never the bare cascade (causes=False gives that)
    for path in sorted(FIXTURES.iterdir()):
        for item in read_path(path):
            if item.record is None:
                continue
            checked = check_deal(item, str(path), None, keep=True)
            said = [(d.code, d.cause, d.message) for d in item.replay().diagnostics]
            assert said == [(d.code, d.cause, d.message) for d in checked.diagnostics
                            if d not in item.diagnostics], path
            bare = item.replay(causes=False).diagnostics
            assert all(d.cause is None and d.code.value[0] != "Y" for d in bare), path
    [deal] = read_path(FIXTURES / "trick-written-from-the-wrong-seat.tarot")
    assert deal.replay().diagnostics[0].code is Code.TRICK_FROM_WRONG_SEAT


def test_replay_score_and_annotate_say_the_cause() -> None:
    path = str(FIXTURES / "trick-written-from-the-wrong-seat.tarot")
    out = invoke("replay", path).out
    assert "Y001" in out
    assert "P103" not in out
    assert "faulty: 1 error, 0 warnings" in out
    assert "P103" in invoke("replay", path, "-v").out
    sheet = invoke("score", path)
    assert sheet.code == 1
    assert "Y001" in sheet.out
    assert "P103" not in sheet.out
    assert "✗1 " in sheet.out or sheet.out.count("✗1") == 1
    assert "P103" in invoke("score", path, "-v").out
    entry = orjson.loads(invoke("score", path, "--format", "json").out)
    assert [v["code"] for v in entry["violations"]] == ["Y001"]
    rec = notation.load(FIXTURES / "trick-written-from-the-wrong-seat.tarot")
    from tarotnotation.narrator import annotate

    notes = [c for t in annotate(rec).play for x in (t, *t.cards) for c in x.comments
             if c.startswith("tarot: error")]
    assert len(notes) == 1
    assert notes[0].startswith("tarot: error Y001 trick-from-wrong-seat: trick 5 is written")


def test_with_the_hands_recorded_a_deal_costs_few_replays(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # a repair that gives a seat a card it was not dealt is not replayed: with the hands
    # recorded, an examined deal costs a few replays, not MAX_TRIALS
    calls: list[int] = []

    def counted(record: DealRecord) -> Replay:
        calls.append(1)
        return replay(record)

    monkeypatch.setattr(causes, "replay", counted)
    for name in CASES:
        [item] = list(read_path(FIXTURES / name))
        assert item.record is not None
        if item.record.hands is None:
            continue
        calls.clear()
        assert find_cause(replay(item.record)) is not None
        assert len(calls) <= 4, (name, len(calls))
    rng = random.Random(9)
    for _ in range(5):
        rec = _revoke_by_swap(_revoke_by_swap(random_deal(rng, 4), rng), rng)
        calls.clear()
        find_cause(replay(rec))
        assert len(calls) <= 8, len(calls)
