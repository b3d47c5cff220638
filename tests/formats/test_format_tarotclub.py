"""TarotClub deal files: the mapping, its errors, the writer, and every file of the corpus.

The corpus (``../shared/corpus/tarotclub``) holds real files written by TarotClub; it is
read in place, never copied. The expected results of the played logs are those of
TarotClub's own unit test (``src/tarotclub-tst/tst_tarot_rules.cpp``, ``TestScoreCalculation``),
which asserts for each file the winning camp, the attack's total score
(``GetPoints(ATTACK)``, i.e. the taker's score at 4 players), the oudlers, the petit au
bout and the slam. Where that test asserts no score we give the one computed by hand from
the play (points of the taker's tricks + écart or chien, then the Excuse rule).
"""

from __future__ import annotations

import io
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
import pytest

from tarotnotation import archive, notation
from tarotnotation.cards import Card, CardSet
from tarotnotation.diagnostics import Code, Severity, TarotError
from tarotnotation.formats import tarotclub as tc
from tarotnotation.records import ChelemAnnouncement, DealRecord, Poignee, Points
from tarotnotation.replay import Status, replay
from tarotnotation.rules import Camp, Contract
from tarotnotation.simulate import random_deal

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "tarotclub"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _files(kind: str) -> list[Any]:
    folder = CORPUS / kind
    if not folder.is_dir():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"{folder} is absent"))]
    return [pytest.param(p, id=p.stem) for p in sorted(folder.glob("*.json"))]


def _raw(path: Path) -> dict[str, Any]:
    obj: dict[str, Any] = orjson.loads(path.read_bytes())
    return obj


# --- the mapping, without the corpus ---------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "card"),
    [
        ("01-S", Card.S1), ("10-S", Card.S10), ("11-H", Card.HJ), ("12-D", Card.DN),
        ("13-C", Card.CQ), ("14-H", Card.HK), ("01-T", Card.T1), ("21-T", Card.T21),
        ("00-T", Card.EXCUSE), (" 07-C ", Card.C7),
    ],
)
def test_card_code_maps_to_card(code: str, card: Card) -> None:
    assert tc.parse_card(code) is card


def test_every_card_code_round_trips() -> None:
    codes = {tc.card_code(c) for c in Card}
    assert len(codes) == 78
    assert all(tc.parse_card(tc.card_code(c)) is c for c in Card)


@pytest.mark.parametrize("code", ["15-S", "00-S", "22-T", "1-S", "14-X", "KH", "", "14-h"])
def test_bad_card_code_is_rejected(code: str) -> None:
    with pytest.raises(ValueError, match="not a card"):
        tc.parse_card(code)


def test_places_map_to_seats_in_tarotclub_order_of_play() -> None:
    assert [tc.seat_of_place(p, 5) for p in tc.PLACES] == ["S", "E", "N", "W", "F"]
    assert [tc.seat_of_place(p, 3) for p in tc.PLACES[:3]] == ["S", "E", "N"]
    with pytest.raises(ValueError, match="not a place at 4 players"):
        tc.seat_of_place("Fifth", 4)
    with pytest.raises(ValueError, match="not a place"):
        tc.seat_of_place("south", 4)


def _log(**info: Any) -> dict[str, Any]:
    deal_info: dict[str, Any] = {
        "number_of_players": 4, "taker": "South", "contract": "Guard", "slam": False,
        "first_trick_lead": "East", "dog": "", "attack_handle": "", "defense_handle": "",
    }
    tricks = info.pop("tricks", ["14-H;03-H;01-T;00-T", "21-T;02-T;05-T;06-T"])
    deal_info.update(info)
    return {"version": "3", "deal_info": deal_info, "tricks": tricks}


def _loads(obj: dict[str, Any]) -> DealRecord:
    return tc.loads(orjson.dumps(obj))


def _error(obj: dict[str, Any] | bytes) -> tuple[Code, str | None, str]:
    data = obj if isinstance(obj, bytes) else orjson.dumps(obj)
    with pytest.raises(TarotError) as info:
        tc.loads(data)
    [diag] = info.value.diagnostics
    return diag.code, diag.location.path, diag.message


def test_trick_leaders_follow_the_previous_winner() -> None:
    rec = _loads(_log())
    # East leads KH; West trumps with the Petit; the next trick is West's.
    assert [t.leader for t in rec.play] == ["E", "W"]
    assert [pc.card for pc in rec.play[1].cards] == [Card.T21, Card.T2, Card.T5, Card.T6]
    r = replay(rec)
    assert [rec.seat_ids[s] for s in r.tricks[0].seats] == ["E", "N", "W", "S"]
    assert [rec.seat_ids[t.winner] for t in r.tricks if t.winner is not None] == ["W", "W"]


def test_contract_and_taker_go_to_the_result_and_no_bid_is_invented() -> None:
    for name, contract in tc.CONTRACTS.items():
        rec = _loads(_log(contract=name, taker="North"))
        assert rec.auction == ()
        assert rec.result is not None
        assert (rec.result.contract, rec.result.taker) == (contract, "N")
        assert rec.result.taker_points is None
        assert rec.result.scores is None
    assert set(tc.CONTRACTS.values()) == set(Contract)


def test_dealer_is_the_place_before_the_first_lead() -> None:
    assert _loads(_log(first_trick_lead="South")).dealer == "W"
    assert _loads(_log(first_trick_lead="East")).first_seat == "E"
    three = _loads(_log(number_of_players=3, first_trick_lead="South", tricks=[]))
    assert three.dealer == "N"


def test_slam_is_a_chelem_announced_by_the_taker_who_leads() -> None:
    rec = _loads(_log(slam=True, taker="North", first_trick_lead="North",
                      tricks=["14-H;03-H;01-T;00-T"]))
    assert rec.declarations == (ChelemAnnouncement(seat="N"),)
    assert rec.dealer is None  # unknown: the announcer leads whoever dealt
    assert replay(rec).tricks[0].leader == rec.seat_index("N")


def test_handles_are_attributed_to_the_taker_and_to_the_defender_who_played_them() -> None:
    rec = _loads(_log(attack_handle="02-T;05-T", defense_handle="06-T;01-T;21-T"))
    poignees = [d for d in rec.declarations if isinstance(d, Poignee)]
    assert [(p.seat, p.cards) for p in poignees] == [
        ("S", CardSet.of(Card.T2, Card.T5)),
        # West played the Petit and the 21, North the 6: West showed it.
        ("W", CardSet.of(Card.T1, Card.T21, Card.T6)),
    ]


def test_defense_handle_without_play_cannot_be_attributed() -> None:
    code, path, message = _error(_log(defense_handle="02-T;06-T", tricks=[]))
    assert (code, path) == (Code.JSON_SCHEMA, "$.deal_info.defense_handle")
    assert "per team" in message


def test_score_block_goes_to_the_result_and_its_other_entries_to_tags() -> None:
    rec = _loads(_log(score={"attacker_points": 80, "oudlers": 2, "attacker_score": 1000,
                             "slam_bonus": 0}))
    assert rec.result is not None
    assert (rec.result.taker_points, rec.result.bouts) == (Points(160), 2)
    assert rec.tag("TarotClub_attacker_score") == "1000"
    assert rec.tag("TarotClub_slam_bonus") == "0"
    assert rec.tag("TarotClub_attacker_points") is None


def test_stale_score_block_is_a_recorded_score_mismatch() -> None:
    obj = orjson.loads(tc.dumps(random_deal(random.Random(7), 4)))
    played = replay(_loads(obj))
    assert played.ok
    assert played.taker_points is not None
    assert played.bouts is not None
    stale_points = 90 if played.taker_points < 60 else 10
    obj["deal_info"]["score"] = {"attacker_points": stale_points,
                                 "oudlers": (played.bouts + 1) % 4}
    r = replay(_loads(obj))
    found = {d.code: d for d in r.result_differences}
    assert set(found) == {Code.POINTS_MISMATCH, Code.BOUTS_MISMATCH}
    assert found[Code.POINTS_MISMATCH].location.path == "result.taker_points"
    assert (f"gives the taker {stale_points} points; the play gives"
            f" {played.taker_points:g}") in found[Code.POINTS_MISMATCH].message
    assert found[Code.BOUTS_MISMATCH].severity is Severity.ERROR


def test_score_block_rounded_to_a_whole_point_is_read_as_the_exact_count() -> None:
    for seed in range(200):
        rec = random_deal(random.Random(seed), 3)
        r = replay(rec)
        if r.taker_half is not None and r.taker_half % 2:
            break
    else:
        pytest.fail("no generated 3-player deal leaves a half point")
    rounded = (r.taker_half + 1) // 2
    obj = orjson.loads(tc.dumps(rec))
    obj["deal_info"]["score"] = {"attacker_points": rounded, "oudlers": r.bouts}
    back = _loads(obj)
    assert back.result is not None
    assert back.result.taker_points == Points(r.taker_half)
    assert replay(back).result_differences == []
    obj["deal_info"]["score"] = {"attacker_points": rounded + 1}
    assert [d.code for d in replay(_loads(obj)).result_differences] == [Code.POINTS_MISMATCH]


@pytest.mark.parametrize(
    ("score", "path", "expected"),
    [
        ([], "$.deal_info.score", "expected an object"),
        ({"attacker_points": "many"}, "$.deal_info.score.attacker_points", "a number"),
        ({"attacker_points": 95}, "$.deal_info.score.attacker_points", "between 0 and 91"),
        ({"oudlers": 4}, "$.deal_info.score.oudlers", "0 to 3, found 4"),
    ],
)
def test_bad_score_block_names_the_json_path(score: Any, path: str, expected: str) -> None:
    code, where, message = _error(_log(score=score))
    assert (code, where) == (Code.JSON_SCHEMA, path)
    assert expected in message


def test_unplayed_trailing_tricks_are_empty_strings() -> None:
    rec = _loads(_log(tricks=["14-H;03-H;01-T;00-T", *[""] * 17]))
    assert len(rec.play) == 1
    assert replay(rec).status is Status.INCOMPLETE


@pytest.mark.parametrize(
    ("obj", "path", "expected"),
    [
        (_log(number_of_players=6), "$.deal_info.number_of_players", "3, 4 or 5 players"),
        (_log(taker="Fifth"), "$.deal_info.taker", "not a place at 4 players"),
        (_log(contract="Pass"), "$.deal_info.contract", "expected Take, Guard"),
        (_log(slam="no"), "$.deal_info.slam", "true or false"),
        (_log(dog="01-S;02-S"), "$.deal_info.dog", "6 cards of the dog"),
        (_log(dog="01-S;01-S;02-S;03-S;04-S;05-S"), "$.deal_info.dog", "appears twice"),
        (_log(tricks=["14-H;03-H;01-T;00-T", "21-T;02-T;05-T;06-T", "01-S;02-S;03-S;04-S",
                      "05-S;06-S;07-S;15-S"]), "$.tricks[3]", "card 4: '15-S' is not a card"),
        (_log(tricks=["14-H;03-H;01-T"]), "$.tricks[0]", "expected 4 cards"),
        (_log(tricks=["14-H;03-H;01-T;00-T", "14-H;02-T;05-T;06-T"]), "$.tricks[1]",
         "14-H was already played in $.tricks[0]"),
        (_log(tricks=["", "14-H;03-H;01-T;00-T"]), "$.tricks[1]", "unplayed trick 1"),
        (_log(tricks="14-H"), "$.tricks", "expected a list of tricks"),
        (_log(tricks=[""] * 19), "$.tricks", "18 tricks at 4 players"),
        ({"version": "3", "deal_info": []}, "$.deal_info", "expected an object"),
        ({"version": "3"}, "$", "expected a TarotClub played log"),
    ],
)
def test_bad_played_log_names_the_json_path(obj: dict[str, Any], path: str,
                                             expected: str) -> None:
    code, where, message = _error(obj)
    assert (code, where) == (Code.JSON_SCHEMA, path)
    assert expected in message


def test_missing_field_says_what_is_expected() -> None:
    obj = _log()
    del obj["deal_info"]["first_trick_lead"]
    code, path, message = _error(obj)
    assert (code, path) == (Code.JSON_SCHEMA, "$.deal_info.first_trick_lead")
    assert message.startswith("missing: expected the place that led the first trick")


def test_unknown_version_is_a_version_error() -> None:
    code, path, _ = _error({**_log(), "version": "2"})
    assert (code, path) == (Code.JSON_VERSION, "$.version")
    unversioned = _log()
    del unversioned["version"]
    code, path, message = _error(unversioned)
    assert (code, path) == (Code.JSON_VERSION, "$.version")
    assert message.startswith("missing")


def test_invalid_json_is_a_syntax_error_with_its_position() -> None:
    with pytest.raises(TarotError) as info:
        tc.loads(b'{"version": "3",\n "deal_info": {')
    [diag] = info.value.diagnostics
    assert diag.code is Code.JSON_SYNTAX
    assert diag.location.line == 2
    assert diag.location.col == 16  # the end of the text, where the object stops short


def test_trailing_commas_are_tolerated_and_reported_as_a_warning() -> None:
    text = orjson.dumps(_log(), option=orjson.OPT_INDENT_2).decode()
    lenient = text.replace('06-T"', '06-T",').replace('"defense_handle": ""',
                                                      '"defense_handle": "",')
    assert lenient.count(",\n") == text.count(",\n") + 2
    assert tc.loads(lenient) == tc.loads(text)
    [deal] = tc.read(lenient.encode())
    assert deal.ok
    assert deal.record == tc.loads(text)
    [warning] = deal.diagnostics
    assert warning.code is Code.JSON_SYNTAX
    assert warning.severity is Severity.WARNING
    assert "2 trailing commas before ] or } removed" in warning.message


def _prepared(**hands: str) -> dict[str, Any]:
    deck = [tc.card_code(c) for c in Card]
    obj: dict[str, Any] = {"version": "3", "FirstPlayer": "South", "Dog": ";".join(deck[72:]),
                           "Fifth": ""}
    for i, place in enumerate(tc.PLACES[:4]):
        obj[place] = ";".join(deck[18 * i:18 * i + 18])
    obj.update(hands)
    return obj


def test_prepared_deal_maps_hands_and_dog() -> None:
    rec = _loads(_prepared())
    assert rec.players == 4
    assert rec.dealer == "W"
    assert rec.first_seat == "S"
    assert rec.hands is not None
    assert rec.hands["E"] == CardSet.from_cards(list(Card)[18:36])
    assert rec.chien == CardSet.from_cards(list(Card)[72:])


@pytest.mark.parametrize(
    ("hands", "path", "expected"),
    [
        ({"West": "01-S;02-S"}, "$.West", "expected 18 cards at 4 players"),
        ({"North": "", "West": ""}, "$", "3, 4 or 5 players, found 2"),
        ({"North": ""}, "$.West", "West has a hand but North has none"),
        ({"Dog": "01-S;02-S;03-S;04-S;05-S;06-S"}, "$.Dog", "01-S is also in $.South"),
        ({"FirstPlayer": "Nowhere"}, "$.FirstPlayer", "not a place at 4 players"),
    ],
)
def test_bad_prepared_deal_names_the_json_path(hands: dict[str, str], path: str,
                                               expected: str) -> None:
    code, where, message = _error(_prepared(**hands))
    assert (code, where) == (Code.JSON_SCHEMA, path)
    assert expected in message


def test_read_yields_one_deal_per_file_with_its_name(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_bytes(orjson.dumps(_log()))
    bad = tmp_path / "bad.json"
    bad.write_bytes(orjson.dumps(_log(contract="Pass")))
    [ok] = tc.read(good)
    assert ok.ok
    assert ok.index == 1
    assert ok.record == tc.load(good)
    [broken] = tc.read(str(bad))
    assert broken.record is None
    assert not broken.ok
    [diag] = broken.diagnostics
    assert (diag.location.file, diag.location.deal, diag.location.path) == (
        str(bad), 1, "$.deal_info.contract")
    with bad.open("rb") as fh:
        assert next(tc.read(fh, name="x")).diagnostics[0].location.file == "x"


# --- the writer --------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("seed", range(6))
def test_written_log_replays_to_the_same_score(players: int, seed: int) -> None:
    rec = random_deal(random.Random(seed), players)
    out = tc.loads(tc.dumps(rec))
    before, after = replay(rec), replay(out)
    assert after.ok
    assert after.status is Status.SCORED
    assert (after.taker, after.contract, after.scores) == (
        before.taker, before.contract, before.scores)
    assert [t.cards for t in after.tricks] == [t.cards for t in before.tricks]


def test_writer_refuses_what_the_format_cannot_hold() -> None:
    with pytest.raises(ValueError, match="contract and the taker"):
        tc.dumps(DealRecord(players=4))
    two = _loads(_log(defense_handle="01-T;21-T"))
    extra = Poignee(seat="N", cards=CardSet.of(Card.T3))
    with pytest.raises(ValueError, match="one handle per team"):
        tc.dumps(two.model_copy(update={"declarations": (*two.declarations, extra)}))


def _example_params() -> list[Any]:
    out = []
    for path in sorted(EXAMPLES.glob("*.tarot")):
        for item in notation.read(path):
            assert item.record is not None, f"{path.name} deal {item.index} does not read"
            out.append(pytest.param(item.record, id=f"{path.stem}#{item.index}"))
    return out


#: Examples whose score a TarotClub log cannot carry, and the entry of dropped() that says so.
SCORE_LOST: dict[str, str] = {
    "five-players#1": "the called card (KD)",  # no call: the partner is unknown
    "misere#1": "misère declarations (N)",
    "score-sheet#2": "the recorded result (petit_au_bout",
}
#: Examples that a TarotClub log cannot express at all.
REFUSED: dict[str, str] = {"score-sheet#1": "the poignée of S gives no cards"}


@pytest.mark.parametrize("rec", _example_params())
def test_tarot_to_tarotclub_to_tarot_keeps_the_cards_the_play_and_the_score(
        rec: DealRecord, request: pytest.FixtureRequest) -> None:
    case = request.node.callspec.id
    if case in REFUSED:
        with pytest.raises(ValueError, match=REFUSED[case]):
            tc.dumps(rec)
        return
    back = notation.loads(notation.dumps(tc.loads(tc.dumps(rec))))
    before, after = replay(rec), replay(back)
    assert [(t.leader, t.cards, t.winner) for t in after.tricks] == [
        (t.leader, t.cards, t.winner) for t in before.tricks]
    assert back.chien == rec.chien
    assert (after.taker, after.contract) == (before.taker, before.contract)
    if rec.hands is not None:  # derived again from the play and the dog
        assert after.hands == before.hands
    lost = tc.dropped(rec)
    if case in SCORE_LOST:
        assert after.scores != before.scores
        assert any(entry.startswith(SCORE_LOST[case]) for entry in lost), lost
    else:
        assert after.scores == before.scores
        assert after.scores is not None
        assert after.result_differences == []


@pytest.mark.parametrize("rec", _example_params())
def test_dropped_names_every_section_the_log_loses(rec: DealRecord) -> None:
    lost = " / ".join(tc.dropped(rec))
    assert ("tags (" in lost) == bool(rec.tags)
    assert ("player names" in lost) == any(s.name for s in rec.seats)
    assert ("the auction" in lost) == bool(rec.auction)
    assert ("the called card" in lost) == (rec.call is not None)
    assert ("the hands" in lost) == (rec.hands is not None)
    annotated = rec.comments or rec.glyph or any(
        t.comments or t.glyph or any(c.comments or c.glyph for c in t.cards)
        for t in rec.play) or any(b.comments or b.glyph for b in rec.auction) or any(
        d.comments or d.glyph for d in rec.declarations) or (
        rec.result is not None and (rec.result.comments or rec.result.glyph)) or (
        rec.ecart is not None and (rec.ecart.comments or rec.ecart.glyph))
    assert ("comments and glyphs" in lost) == bool(annotated)


def test_dropped_is_empty_for_what_a_tarotclub_log_holds() -> None:
    rec = _loads(_log(attack_handle="02-T;05-T", dog="01-S;02-S;03-S;04-S;05-S;06-S",
                      score={"attacker_points": 40, "oudlers": 1}))
    assert tc.dropped(rec) == []
    kept = rec.model_copy(update={"tags": (*rec.tags, ("TarotClub_slam_bonus", "0"))})
    assert tc.dropped(kept) == ["tags (TarotClub_slam_bonus)"]


def test_dropped_names_comments_where_they_stand() -> None:
    rec = _loads(_log())
    trick = rec.play[1].model_copy(update={"comments": ("the 21 falls",)})
    card = rec.play[0].cards[2].model_copy(update={"glyph": "!"})
    first = rec.play[0].model_copy(update={"cards": (*rec.play[0].cards[:2], card,
                                                     rec.play[0].cards[3])})
    noted = rec.model_copy(update={"play": (first, trick)})
    assert tc.dropped(noted) == ["comments and glyphs (on trick 1, trick 2)"]


def test_write_holds_one_deal_per_file() -> None:
    rec = _loads(_log())
    out = io.BytesIO()
    assert tc.write([rec], out) == 1
    assert tc.loads(out.getvalue()) == rec
    out.seek(0)
    assert tc.load(out) == rec
    with pytest.raises(ValueError, match="one deal"):
        tc.write([rec, rec], io.BytesIO())


# --- the corpus --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Expected:
    """What the replay must find in a played log, and where it comes from."""

    taker_score: int
    bouts: int
    taker_points: float
    petit_au_bout: Camp | None = None
    chelem: Camp | None = None
    why: str = ""


PLAYED: dict[str, Expected] = {
    # TarotClub's test: defence wins, attack -58*3, 1 oudler, petit au bout to the defence.
    "01-T_lasttrickbydefense_game_lost": Expected(-174, 1, 28, Camp.DEFENCE),
    # Same bytes of play as ..._game_lost (only the file name differs); TarotClub's test
    # expects the same result, the defence winning, despite the name.
    "01-T_lasttrickbydefense_game_won": Expected(-174, 1, 28, Camp.DEFENCE),
    # TarotClub's test: attack wins, 216 (Garde made by 11 with 3 oudlers: 36*2*3).
    "3_oudlers": Expected(216, 3, 47),
    # TarotClub's test: attack wins with 3 oudlers, not 4 (the bug of the file name): the
    # defence's Excuse played to the last trick, won by the taker, changes camp.
    "4_oudlers_bug": Expected(108, 3, 47),
    # TarotClub's test: 2886 (Garde contre + announced slam + triple handle + petit au bout).
    "maximum_points": Expected(2886, 3, 88, Camp.TAKER, Camp.TAKER),
    # TarotClub's test: 360, 3 oudlers, slam failed, petit au bout to the attack.
    "slam_announced_failure": Expected(360, 3, 81, Camp.TAKER),
    # TarotClub's test: -686*3, 0 oudlers, the defence takes every trick.
    "slam_not_announed_by_defense": Expected(-2058, 0, 0, chelem=Camp.DEFENCE),
    # TarotClub's test: attack wins with 1 oudler (its Petit taken, its Excuse led to the
    # last trick and lost). Score by hand: 64 in tricks + 3 in the chien = 67, made by 16.
    "taker_loses_two_oudlers": Expected(492, 1, 67),
    # TarotClub's test: attack -34*3 with 1 oudler. Its stale score block says 28 points.
    "tarotmag_17": Expected(-102, 1, 42),
    # TarotClub's test: attack 54*3 with 2 oudlers.
    "tarotmag_18": Expected(162, 2, 43),
}


@pytest.mark.parametrize("path", _files("played"))
def test_played_log_loads_and_replays_without_any_fault(path: Path) -> None:
    raw = _raw(path)
    rec = tc.load(path)
    assert rec.players == raw["deal_info"]["number_of_players"] == 4
    assert len(rec.play) == len(raw["tricks"]) == 18
    assert rec.play[0].leader == tc.seat_of_place(raw["deal_info"]["first_trick_lead"], 4)
    r = replay(rec)
    assert r.status is Status.SCORED
    # TarotClub is a rules engine: every card is legal. Only the stale score block of
    # tarotmag_17 (28 points recorded, 42 played) is a recorded-score mismatch.
    stale = [Code.POINTS_MISMATCH] if path.stem == "tarotmag_17" else []
    assert [d.code for d in r.diagnostics] == stale
    assert r.scores is not None
    assert sum(r.scores.values()) == 0


@pytest.mark.parametrize("path", _files("played"))
def test_played_log_scores_as_tarotclub_says(path: Path) -> None:
    if path.stem not in PLAYED:
        pytest.fail(f"{path.name} is new in the corpus: add what its replay must find")
    want = PLAYED[path.stem]
    r = replay(tc.load(path))
    assert r.taker is not None
    assert r.scores is not None
    assert (r.scores[r.taker], r.bouts, r.taker_points, r.petit_au_bout, r.chelem) == (
        want.taker_score, want.bouts, want.taker_points, want.petit_au_bout, want.chelem)


def test_stale_score_block_of_tarotmag_17_differs_from_the_play() -> None:
    path = CORPUS / "played" / "tarotmag_17.json"
    if not path.is_file():
        pytest.skip(f"{path} is absent")
    block = _raw(path)["deal_info"]["score"]
    r = replay(tc.load(path))
    assert (block["attacker_points"], block["oudlers"]) == (28, 1)
    assert (r.taker_points, r.bouts) == (42, 1)  # 42 < 51: lost by 9, 34 per defender
    assert r.score is not None
    assert r.scores is not None
    assert r.scores["S"] == -102
    [stale] = r.diagnostics
    assert (stale.code, stale.severity, stale.location.path) == (
        Code.POINTS_MISMATCH, Severity.ERROR, "result.taker_points")
    assert stale.message == "the result gives the taker 28 points; the play gives 42"


@pytest.mark.parametrize("path", _files("played"))
def test_played_log_is_written_back_as_tarotclub_wrote_it(path: Path) -> None:
    raw = _raw(path)
    rec = tc.load(path)
    out = orjson.loads(tc.dumps(rec))
    assert out["tricks"] == raw["tricks"]
    info, raw_info = out["deal_info"], raw["deal_info"]
    for key in ("number_of_players", "taker", "contract", "slam", "first_trick_lead"):
        assert info[key] == raw_info[key], key
    for key in ("dog", "attack_handle", "defense_handle"):
        assert set(info[key].split(";")) == set(raw_info[key].split(";")), key
    assert tc.loads(tc.dumps(rec)).model_copy(update={"tags": rec.tags}) == rec


@pytest.mark.parametrize("path", _files("deals"))
def test_prepared_deal_loads_with_every_card_once(path: Path) -> None:
    raw = _raw(path)
    rec = tc.load(path)
    assert rec.players == 4
    assert rec.hands is not None
    assert rec.chien is not None
    assert set(rec.hands) == {"S", "E", "N", "W"}
    every = CardSet()
    for hand in rec.hands.values():
        every = every | hand
    assert every | rec.chien == CardSet.all()
    assert rec.first_seat == tc.seat_of_place(raw["FirstPlayer"], 4)
    assert rec.hands["S"] == CardSet.from_cards(tc.parse_card(c) for c in raw["South"].split(";"))


@pytest.mark.parametrize("path", _files("deals"))
def test_only_the_petit_sec_deal_warns_of_a_petit_sec(path: Path) -> None:
    r = replay(tc.load(path))
    assert r.ok
    assert r.status is Status.UNSCORED
    petit_sec = [d for d in r.diagnostics if d.code is Code.PETIT_SEC]
    if path.stem == "petit_sec":
        [d] = petit_sec
        assert d.severity is Severity.WARNING
        assert d.location.seat == "S"
    else:
        assert petit_sec == []


def test_corpus_handle_and_slam_files_are_mapped() -> None:
    path = CORPUS / "played" / "maximum_points.json"
    if not path.is_file():
        pytest.skip(f"{path} is absent")
    rec = tc.load(path)
    chelem, poignee = rec.declarations
    assert chelem == ChelemAnnouncement(seat="S")
    assert isinstance(poignee, Poignee)
    assert poignee.seat == "S"
    assert poignee.cards is not None
    assert len(poignee.cards) == 15
    assert replay(rec).poignees[0][1].value == "triple"


@pytest.mark.process
def test_corpus_folder_is_checked_with_each_file_told_by_its_content() -> None:
    if not CORPUS.is_dir():
        pytest.skip(f"{CORPUS} is absent")
    files = sorted(CORPUS.rglob("*.json"))
    assert {archive.format_of(f) for f in files if f.parent.name == "played"} == {"tarotclub"}
    assert {archive.format_of(f) for f in files if f.parent.name == "deals"} == {
        "tarotclub-deal"}
    checked = list(archive.check_paths([CORPUS], jobs=2))
    assert [c.file for c in checked] == [str(f) for f in files]
    for c in checked:
        played = Path(c.file).parent.name == "played"
        assert c.status is (Status.SCORED if played else Status.UNSCORED), c.file
        stale = Path(c.file).stem == "tarotmag_17"
        assert [d.code for d in c.diagnostics if d.severity is Severity.ERROR] == (
            [Code.POINTS_MISMATCH] if stale else []), c.file


# --- five players: the format holds no called card ---------------------------------------------


def _five_player_log(**score: Any) -> bytes:
    """A 5-player deal, played out, written as a TarotClub log by the project's writer (the
    shared corpus has none); ``score`` adds an old TarotClub ``score`` block."""
    obj = orjson.loads(tc.dumps(random_deal(random.Random(0), 5)))
    if score:
        obj["deal_info"]["score"] = score
    return orjson.dumps(obj)


def test_five_player_log_without_a_call_is_a_limit_of_the_format_not_a_fault() -> None:
    rec = tc.loads(_five_player_log())
    assert rec.call is None
    assert rec.unrecorded("call")
    rep = replay(rec)
    assert rep.ok  # no error: the game is not at fault
    [warning] = rep.diagnostics
    assert (warning.code, warning.severity, warning.location.path) == (
        Code.CALL_MISSING, Severity.WARNING, "call")
    assert warning.message.startswith("the TarotClub format cannot hold the called card at"
                                      " five players: the partner is unknown (a limit of the"
                                      " format, not a fault of the game)")
    assert "that camp's points and bouts, and each player's score cannot be counted" in (
        warning.message)
    # Every figure that does not need the partner; nothing invented for what does.
    assert (rep.contract, rep.taker) == (Contract.PRISE, "N")
    assert rep.status is Status.UNSCORED  # the play is whole: unscored, not incomplete
    assert (rep.partner, rep.camps, rep.counts) == (None, {}, ())
    assert (rep.taker_half, rep.bouts, rep.outcome, rep.scores) == (None, None, None, None)


def test_five_player_log_with_a_score_block_gives_the_points_bouts_and_margin() -> None:
    rep = replay(tc.loads(_five_player_log(attacker_points=40, oudlers=1)))
    assert rep.ok
    assert [d.code for d in rep.diagnostics] == [Code.CALL_MISSING]  # no R110 on top
    [warning] = rep.diagnostics
    assert warning.severity is Severity.WARNING
    assert warning.message.endswith("not a fault of the game), so who won each trick for"
                                    " the taker's camp and each player's score cannot be"
                                    " counted")
    # 40 points with 1 bout against 51 needed: lost by 11; the seats' shares need the partner.
    assert (rep.contract, rep.taker, rep.taker_points, rep.bouts) == (Contract.PRISE, "N", 40, 1)
    assert rep.outcome == (False, 11)
    assert (rep.partner, rep.score, rep.scores) == (None, None, None)


def test_five_player_record_without_a_call_and_no_format_limit_is_still_an_error() -> None:
    rec = tc.loads(_five_player_log())
    plain = rec.model_copy(update={"tags": (("Source", "TarotClub"),)})
    [error] = replay(plain).diagnostics
    assert (error.code, error.severity) == (Code.CALL_MISSING, Severity.ERROR)


def test_five_player_log_keeps_its_format_limit_through_the_notation() -> None:
    rec = tc.loads(_five_player_log())
    back = notation.loads(notation.dumps(rec))
    assert back.unrecorded("call")
    assert replay(back).ok
    assert "tags (" not in " / ".join(tc.dropped(rec))  # its own tags, not a loss


def test_five_player_log_shows_every_figure_but_the_score(tmp_path: Path) -> None:
    from cli_runs import invoke

    log = tmp_path / "five.json"
    log.write_bytes(_five_player_log(attacker_points=40, oudlers=1))
    validated = invoke("validate", str(log))
    assert validated.code == 0, validated.out + validated.err
    assert "K101 warning" in validated.out + validated.err
    sheet = invoke("score", str(log))
    assert sheet.code == 0, sheet.out
    row = next(line for line in sheet.out.splitlines() if line.split()[:1] == ["1"])
    assert row.split() == ["1", "prise", "N", "40", "1", "lost", "by", "11"]
    deal = orjson.loads(invoke("score", "--format", "json", str(log)).out.splitlines()[0])
    assert (deal["contract"], deal["taker"], deal["made"], deal["points"], deal["bouts"],
            deal["scores"]) == ("prise", "N", False, 40, 1, None)
    assert [(v["code"], v["severity"]) for v in deal["violations"]] == [("K101", "warning")]
    shown = invoke("replay", str(log)).out
    assert "Prise by N, partner unknown: 40 points with 1 bout, needs 51: lost by 11" in shown
    assert ("not scored: each player's score needs the partner, and the record's format"
            " cannot hold the called card") in shown
    french = invoke("replay", "--lang", "fr", str(log)).out
    assert ("Prise par N, partenaire inconnu\xa0: 40 points avec 1 bout, il en faut 51\xa0:"
            " chutée de 11") in french
    told = invoke("validate", "--lang", "fr", str(log))
    assert "le format TarotClub ne peut pas contenir la carte appelée" in told.out + told.err


def test_five_player_log_counts_the_taker_camp_when_every_possible_partner_agrees() -> None:
    """Seed 138: N takes with S (the KD, say); every seat that could hold a card N may
    call, or N alone, gives N's camp the same 32 points and 1 bout: counted, lost by 19."""
    rec = random_deal(random.Random(138), 5)
    rep = replay(tc.loads(tc.dumps(rec)))
    assert rep.ok
    [warning] = rep.diagnostics
    assert "who won each trick for the taker's camp and each player's score" in warning.message
    assert (rep.taker, rep.taker_points, rep.bouts, rep.outcome) == ("N", 32, 1, (False, 19))
    assert (rep.partner, rep.scores) == (None, None)
    assert (rep.taker_half, rep.bouts) == (replay(rec).taker_half, replay(rec).bouts)


@pytest.mark.parametrize("seed", [*range(40), 133, 350])
def test_five_player_log_counts_the_taker_camp_only_as_the_called_card_would(seed: int) -> None:
    """Counted without the call, the taker's camp's points and bouts are those of the
    deal with its call, never another; left out when the possible partners disagree."""
    rec = random_deal(random.Random(seed), 5)
    rep, full = replay(tc.loads(tc.dumps(rec))), replay(rec)
    assert rep.ok
    if rep.taker_half is not None:
        assert (rep.taker_half, rep.bouts) == (full.taker_half, full.bouts)
    assert seed not in (133, 350) or rep.taker_half is not None


def test_five_player_log_is_queried_by_every_figure_but_the_score(tmp_path: Path) -> None:
    """The archive's summary (query, stats) carries the made/margin counted without the
    partner, and no score."""
    from tarotnotation.archives.summary import summarize

    rec = tc.loads(_five_player_log(attacker_points=40, oudlers=1))
    summary = summarize(rec, replay(rec), file="five.json", index=1)
    assert (summary.taker_half, summary.made, summary.margin_points, summary.scores) == (
        80, False, -11, None)
