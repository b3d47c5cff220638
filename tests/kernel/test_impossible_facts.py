"""Score sheets that cannot be true are flagged (issue 18): one fixture per impossibility.

Each file of ``tests/fixtures/impossible/`` is named after the impossible fact its score
sheets record, at the table sizes and contracts where it applies; every deal of it gets
that fact's diagnostic, located at the fact, with words that say why it cannot be. The
bounds themselves are tested in ``tests/kernel/test_plausibility_bounds.py`` (a built deal
reaches each one) and ``tests/kernel/test_plausibility_properties.py`` (no deal trips them).
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Final

import pytest

from tarotnotation.archive import check_paths
from tarotnotation.diagnostics import Code, Severity
from tarotnotation.notation import read
from tarotnotation.quick import quick_check_record
from tarotnotation.records import DealRecord, Misere, Poignee, Points, Result
from tarotnotation.replay import Status, replay
from tarotnotation.rules import Camp, Contract, MisereKind, PoigneeSize, Ruleset, threshold
from tarotnotation.scoring import DealFacts, score
from tarotnotation.simulate import random_deal

FIXTURES: Final = Path(__file__).resolve().parents[1] / "fixtures" / "impossible"

#: Each fixture: its code, the other codes of these families its deals may also get (one
#: slip can break two facts), and words the first deal's message holds.
EXPECTED: Final[dict[str, tuple[Code, frozenset[Code], str]]] = {
    "points-above-91.tarot": (Code.POINTS_OUT_OF_RANGE, frozenset(), "95 points"),
    "points-below-zero.json": (Code.POINTS_OUT_OF_RANGE, frozenset(), "-4 points"),
    "points-not-a-half-point.tarot": (Code.POINTS_NOT_HALF, frozenset(),
                                      "expected 45 or 45.5"),
    "bouts-above-3.tarot": (Code.BOUTS_OUT_OF_RANGE, frozenset(), "4 bouts"),
    "bouts-below-zero.json": (Code.BOUTS_OUT_OF_RANGE, frozenset(), "-1 bouts"),
    "points-below-what-the-bouts-give.tarot": (
        Code.POINTS_BELOW_BOUTS, frozenset(), "16 points with 3 bouts in a Prise at 4"
        " players: the taker's camp has at least 17"),
    "points-above-what-the-defence-leaves.tarot": (
        Code.POINTS_ABOVE_BOUTS, frozenset(), "at most 77"),
    "points-no-deal-counts.tarot": (
        Code.POINTS_UNREACHABLE, frozenset(), "the nearest counts are 45 and 46"),
    "chelem-with-58-points.tarot": (
        Code.CHELEM_ATTACK_IMPOSSIBLE, frozenset(), "leaves it 91 points with 3 bouts, or 87"
        " with 2 (the defence kept the Excuse, which counts 4): not 58 with 3 bouts"),
    "chelem-by-the-attack-with-one-bout.tarot": (
        Code.CHELEM_ATTACK_IMPOSSIBLE, frozenset(), "not 1 bout"),
    "defence-chelem-with-30-points.tarot": (
        Code.CHELEM_DEFENCE_IMPOSSIBLE, frozenset(), "not 30 with 1 bout"),
    "petit-au-bout-against-a-chelem.tarot": (
        Code.PETIT_AU_BOUT_AGAINST_CHELEM, frozenset(),
        "the petit au bout goes to the defence, but the taker's camp won every trick"),
    "petit-au-bout-without-the-petit.tarot": (
        Code.PETIT_AU_BOUT_WITHOUT_PETIT, frozenset(), "the result gives it no bout"),
    "poignees-need-more-trumps-than-exist.tarot": (
        Code.POIGNEES_TOO_MANY_TRUMPS, frozenset(), "need 23 trumps"),
    "two-poignees-of-one-seat.tarot": (
        Code.DECLARATION_TWICE, frozenset(), "S declares a poignee twice"),
    "poignee-and-misere-d-atout.tarot": (
        Code.POIGNEE_WITH_MISERE, frozenset(), "E shows a poignée and declares a misère"
        " d'atout"),
    "partner-at-four-players.tarot": (
        Code.PARTNER_AT_FEWER_THAN_FIVE, frozenset(), "only at five players, not at 4"),
    "scores-not-zero-sum.tarot": (
        Code.SCORES_NOT_ZERO_SUM, frozenset({Code.SCORES_NOT_SHARED}), "sum to +4"),
    "scores-not-shared-as-a-deal-is.tarot": (
        Code.SCORES_NOT_SHARED, frozenset(), "(E -60, N -50, W -40)"),
    "taker-score-against-the-result.tarot": (
        Code.SCORE_AGAINST_RESULT, frozenset(), "made the Garde (48 points with 2 bouts; 41"
        " needed), so each defender pays at least 30"),
    "annulled-deal-with-points.tarot": (
        Code.ANNULLED_WITH_FACTS, frozenset({Code.ANNULMENT_MISMATCH}),
        "the result gives points and bouts"),
    "deal-number-twice-in-a-session.tarot": (
        Code.DEAL_NUMBER_REPEATED, frozenset(), "deal number 2 of session Event \"Club\","
        " Date \"2026.11.19\", Round \"1\", Table \"1\" was already given to deal 2"),
    "several-impossible-facts-in-one-sheet.tarot": (
        Code.POINTS_OUT_OF_RANGE, frozenset({
            Code.BOUTS_OUT_OF_RANGE, Code.PARTNER_AT_FEWER_THAN_FIVE,
            Code.POIGNEES_TOO_MANY_TRUMPS, Code.PETIT_AU_BOUT_AGAINST_CHELEM,
            Code.SCORES_NOT_ZERO_SUM, Code.SCORES_NOT_SHARED}), "95 points"),
}

#: The families this test watches: facts no deal gives, and faults across a file.
_WATCHED: Final = frozenset(c for c in Code if c.value[:2] in ("R2", "R3")) | {
    Code.SCORES_NOT_ZERO_SUM, Code.DECLARATION_TWICE}


def test_every_fixture_has_its_expectation() -> None:
    assert sorted(p.name for p in FIXTURES.iterdir()) == sorted(EXPECTED)


def test_every_new_code_has_a_fixture() -> None:
    covered = {code for code, _, _ in EXPECTED.values()}
    covered |= {c for _, others, _ in EXPECTED.values() for c in others}
    assert {c for c in Code if c.value[:2] in ("R2", "R3")} <= covered


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_impossible_fact_is_flagged_where_it_is(name: str) -> None:
    code, others, words = EXPECTED[name]
    path = FIXTURES / name
    checked = list(check_paths([path]))
    assert checked, name
    flagged = 0
    for deal in checked:
        assert deal.status is not None, [str(d) for d in deal.diagnostics]  # it was read
        watched = {d.code for d in deal.diagnostics if d.code in _WATCHED}
        assert watched <= {code} | others, (deal.index, [str(d) for d in deal.diagnostics])
        mine = [d for d in deal.diagnostics if d.code is code]
        if code is Code.DEAL_NUMBER_REPEATED and not mine:
            continue  # the first deal of each number, and the other table's deal 1
        assert mine, (deal.index, [str(d) for d in deal.diagnostics])
        flagged += 1
        for d in mine:
            assert d.severity is Severity.ERROR
            assert d.location.file == str(path)
            assert d.location.deal == deal.index
            assert d.location.line is not None or path.suffix == ".json"
            if path.suffix == ".tarot" and code is not Code.DEAL_NUMBER_REPEATED:
                assert d.location.col is not None
    assert flagged >= 1
    first = next(d for deal in checked for d in deal.diagnostics if d.code is code)
    assert words in first.message, first.message


def test_the_deal_number_is_repeated_only_within_a_session() -> None:
    checked = list(check_paths([FIXTURES / "deal-number-twice-in-a-session.tarot"]))
    repeated = [(c.index, c.line) for c in checked
                if any(d.code is Code.DEAL_NUMBER_REPEATED for d in c.diagnostics)]
    # Deal 1 at table 2 is a duplicate tournament's, not a repeat; deal 2 of table 1 is.
    assert repeated == [(4, 7)]


def test_a_file_named_twice_is_not_a_repeat_of_itself() -> None:
    path = FIXTURES / "deal-number-twice-in-a-session.tarot"
    codes = [d.code for c in check_paths([path, path]) for d in c.diagnostics]
    assert codes.count(Code.DEAL_NUMBER_REPEATED) == 2


@pytest.mark.process
def test_the_deal_number_repeats_the_same_way_in_parallel_and_json_lines(
        tmp_path: Path) -> None:
    from tarotnotation.formats import json as tjson

    records = [d.record for d in read(FIXTURES / "deal-number-twice-in-a-session.tarot")]
    lines = tmp_path / "sessions.jsonl"
    with lines.open("wb") as fh:
        tjson.write([r for r in records if r is not None], fh)
    for jobs in (1, 2):
        found = [(c.index, c.line) for c in check_paths([lines], jobs=jobs, keep=False)
                 if any(d.code is Code.DEAL_NUMBER_REPEATED for d in c.diagnostics)]
        assert found == [(4, 4)]


# --- the other checks still run -----------------------------------------------------------


def test_one_impossible_fact_does_not_stop_the_others() -> None:
    [deal] = read(FIXTURES / "several-impossible-facts-in-one-sheet.tarot")
    assert deal.record is not None
    codes = {d.code for d in replay(deal.record).diagnostics}
    assert codes >= EXPECTED["several-impossible-facts-in-one-sheet.tarot"][1] | {
        Code.POINTS_OUT_OF_RANGE}


def test_points_no_deal_gives_are_read_and_flagged_not_refused() -> None:
    # 95 points and 45.3 points are kept by the model; the replay says why they cannot be.
    deal = next(iter(read(FIXTURES / "points-above-91.tarot")))
    assert deal.ok
    assert deal.record is not None
    assert deal.record.result is not None
    assert deal.record.result.taker_points == Points(190)
    sheet = DealRecord(players=4, result=Result(contract="garde", taker="S",
                                                taker_points="45.3", bouts=4,
                                                scores={"S": 30, "E": -10, "N": -10,
                                                        "W": -10}))
    r = replay(sheet)
    codes = [d.code for d in r.diagnostics]
    assert Code.POINTS_NOT_HALF in codes
    assert Code.BOUTS_OUT_OF_RANGE in codes
    assert Code.SCORE_AGAINST_RESULT in codes  # each defender pays 10: less than any Garde
    assert Code.NOT_SCORABLE not in codes  # the facts cannot be counted: that was said
    assert r.status is Status.UNSCORED


def test_points_out_of_range_are_still_scored_as_written() -> None:
    # 95 points is a typo; the score recomputed from it is still compared.
    seats = score(DealFacts(players=4, taker=0, contract=Contract.PRISE, taker_half=190,
                            bouts=1)).seats
    assert seats == (3 * 69, -69, -69, -69)  # (25 + 95 - 51) x 1
    sheet = DealRecord(players=4, result=Result(
        contract="prise", taker="S", taker_points=95, bouts=1,
        scores=dict(zip("SENW", seats, strict=True))))
    r = replay(sheet)
    assert [d.code for d in r.diagnostics] == [Code.POINTS_OUT_OF_RANGE]
    assert r.scores == dict(zip("SENW", seats, strict=True))


# --- the full-deal path gets the same diagnostics -------------------------------------------

_IMPOSSIBLE_RESULTS: Final = (
    {"taker_points": 58, "bouts": 3, "chelem": "taker"},
    {"taker_points": 30, "bouts": 1, "chelem": "defence"},
    {"taker_points": 95},
    {"taker_points": 45.3},
    {"bouts": 5},
    {"taker_points": 16, "bouts": 3},
    {"petit_au_bout": "defence", "chelem": "taker"},
    {"petit_au_bout": "taker", "bouts": 0},
    {"partner": "N"},
    {"scores": {"S": 150, "E": -60, "N": -50, "W": -40}},
    {"taker_points": 48, "bouts": 2, "scores": {"S": -192, "E": 64, "N": 64, "W": 64}},
)


@pytest.mark.parametrize("facts", _IMPOSSIBLE_RESULTS, ids=lambda f: "-".join(f))
def test_a_played_deal_gets_the_diagnostic_a_score_sheet_gets(facts: dict[str, object]
                                                              ) -> None:
    played = random_deal(random.Random(5), 4, contract=Contract.GARDE, taker=0,
                         poignee_chance=0, chelem_chance=0)
    result = Result.model_validate({"contract": "garde", "taker": "S", **facts})
    sheet = DealRecord(players=4, dealer=played.dealer, result=result)
    with_play = played.model_copy(update={"result": result})

    def impossible(rec: DealRecord) -> list[tuple[str, str, str | None]]:
        return [(d.code.value, d.message, d.location.path) for d in replay(rec).diagnostics
                if d.code in _WATCHED]

    found = impossible(sheet)
    assert found
    assert impossible(with_play) == found


# --- what it does not flag -------------------------------------------------------------------


def test_the_examples_validate_clean() -> None:
    examples = Path(__file__).resolve().parents[2] / "examples"
    for checked in check_paths(list(examples.glob("*.tarot"))):
        assert not [str(d) for d in checked.diagnostics if d.is_error], checked.file


def test_the_scores_of_a_misere_share_as_the_rules_share_them() -> None:
    # misère: 10 from every other player to each declarer, on top of the deal's shares
    facts = DealFacts(players=4, taker=0, contract=Contract.GARDE, taker_half=96, bouts=2,
                      miseres=(2,))
    seats = score(facts).seats
    sheet = DealRecord(
        players=4, ruleset="fft misere=on",
        declarations=[Misere(seat="N", misere=MisereKind.TETE)],
        result=Result(contract="garde", taker="S", taker_points=48, bouts=2,
                      scores=dict(zip("SENW", seats, strict=True))))
    assert replay(sheet).diagnostics == ()


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_score_sheet_with_every_fact_true_raises_nothing(players: int) -> None:
    ids = "SENWF"[:players]
    partner = {"partner": "N"} if players == 5 else {}
    facts = DealFacts(players=players, taker=1, partner=2 if players == 5 else None,
                      contract=Contract.GARDE_SANS, taker_half=threshold(1) + 9, bouts=1,
                      poignees=(PoigneeSize.SIMPLE,), petit_au_bout=Camp.TAKER)
    seats = score(facts).seats
    sheet = DealRecord(
        players=players, declarations=[Poignee(seat="N", size=PoigneeSize.SIMPLE)],
        result=Result(contract="garde_sans", taker="E", taker_points=(threshold(1) + 9) / 2,
                      bouts=1, petit_au_bout="taker", scores=dict(zip(ids, seats,
                                                                      strict=True)),
                      **partner))
    assert replay(sheet).diagnostics == ()


def test_the_quick_check_takes_no_result_beyond_the_scores() -> None:
    # So it never meets a recorded fact to cross-check: it needs none of these checks, and
    # scores it accepts are the rules' own, which pass every cross-check.
    rec = random_deal(random.Random(11), 4, poignee_chance=0, chelem_chance=0)
    assert quick_check_record(rec) is not None
    assert rec.result is not None
    for fact in ({"bouts": 2}, {"taker_points": 40}, {"chelem": Camp.TAKER},
                 {"petit_au_bout": Camp.DEFENCE}, {"taker": "S"}, {"contract": "garde"},
                 {"partner": "S"}, {"annulled": True}):
        with_fact = rec.model_copy(update={"result": Result.model_validate(
            {**rec.result.model_dump(), **fact})})
        assert quick_check_record(with_fact) is None, fact


def test_default_rules_are_fft() -> None:
    assert DealRecord(players=4).rules == Ruleset.fft()


def test_the_shared_corpus_of_real_records_raises_no_false_alarm(corpus: Path) -> None:
    # Real files written by TarotClub (played deals with the program's own score block):
    # what they record is what a deal produced, so no cross-check may flag it.
    checked = list(check_paths([corpus]))
    assert checked
    flagged = [str(d) for c in checked for d in c.diagnostics if d.code in _WATCHED]
    assert flagged == []


def test_validate_counts_the_impossible_facts_and_fails() -> None:
    from cli_runs import invoke

    ran = invoke("validate", "-q", "--statistics", str(FIXTURES))
    assert ran.code == 1
    counts = {m.group(2): int(m.group(1))
              for m in re.finditer(r"^\s+(\d+)\s+(R\d{3}|H\d{3})\s", ran.out, re.M)}
    for name, (code, _, _) in EXPECTED.items():
        assert counts.get(code.value, 0) >= 1, (name, code, ran.out)
    assert counts["R207"] == 8  # five chelems with points, three with bouts, none left
    ignored = invoke("validate", "-q", "--ignore", "R2", "--ignore", "R3", "--ignore", "R1",
                     "--ignore", "H106", "--ignore", "A105", str(FIXTURES))
    assert ignored.code == 0, ignored.out
