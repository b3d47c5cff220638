"""Partial records: hands derived from the play, unknown hands, incomplete plays,
outcome-only score sheets, and the legal-move API at any point of a deal."""

from __future__ import annotations

import random

import pytest

from tarotnotation.cards import Card, CardSet
from tarotnotation.diagnostics import Code, Severity
from tarotnotation.legality import why_illegal
from tarotnotation.records import DealRecord, PlayedCard, Result, Trick
from tarotnotation.replay import Status, legal_moves, replay
from tarotnotation.rules import Contract, Ruleset
from tarotnotation.simulate import random_deal


def _deal(seed: int, players: int = 4) -> DealRecord:
    return random_deal(random.Random(seed), players)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_hands_omitted_are_derived_from_a_complete_play(players: int) -> None:
    full = _deal(30 + players, players)
    bare = full.model_copy(update={"hands": None, "chien": None, "ecart": None})
    a, b = replay(full), replay(bare)
    assert b.ok, [str(d) for d in b.diagnostics]
    assert b.scores == a.scores
    assert b.taker_half == a.taker_half
    # The derived hands are the hands at the first card (the taker's after his écart).
    assert set(b.hands) == set(full.seat_ids)
    for sid in full.seat_ids:
        assert b.hands[sid] == a.hands[sid]


def test_revoke_is_caught_without_hands_when_the_play_proves_it() -> None:
    # E fails to follow Hearts at trick 1, then plays a Heart at trick 2.
    rec = DealRecord(players=4, auction=[{"contract": "pass"}, {"contract": "garde"},
                                         {"contract": "pass"}, {"contract": "pass"}],
                     play=[Trick(cards=[PlayedCard(card=Card.H5), PlayedCard(card=Card.C2),
                                        PlayedCard(card=Card.H9), PlayedCard(card=Card.H1)]),
                           Trick(cards=[PlayedCard(card=Card.S3), PlayedCard(card=Card.S4),
                                        PlayedCard(card=Card.S5), PlayedCard(card=Card.H7)])])
    # Trick 1 is won by N (9H); N leads trick 2, then W, S, E: E plays the 7H.
    r = replay(rec)
    codes = [(d.code, d.location.trick, d.location.seat) for d in r.diagnostics]
    assert (Code.MUST_FOLLOW_SUIT, 1, "E") in codes
    assert r.status is Status.INCOMPLETE


def test_unknown_hands_never_flag_a_legal_card() -> None:
    for seed in range(20):
        full = _deal(seed, (3, 4, 5)[seed % 3])
        cut = len(full.play) // 2
        partial = full.model_copy(update={"hands": None, "chien": None, "ecart": None,
                                          "play": full.play[:cut], "result": None})
        r = replay(partial)
        assert r.ok, [str(d) for d in r.diagnostics]
        assert r.status is Status.INCOMPLETE
        assert Code.PLAY_INCOMPLETE in [d.code for d in r.diagnostics]


def test_trick_incomplete_before_the_last_one_is_reported() -> None:
    full = _deal(5)
    broken = list(full.play)
    broken[3] = broken[3].model_copy(update={"cards": broken[3].cards[:2]})
    r = replay(full.model_copy(update={"play": tuple(broken), "result": None}))
    hits = [d for d in r.diagnostics if d.code is Code.TRICK_INCOMPLETE]
    assert len(hits) == 1
    assert hits[0].location.trick == 4
    assert hits[0].location.path == "play[3]"
    assert r.status is Status.INCOMPLETE


def test_recorded_annulment_without_cause_is_reported() -> None:
    rec = DealRecord(players=4, auction=[{"contract": "garde"}, {"contract": "pass"},
                                         {"contract": "pass"}, {"contract": "pass"}],
                     result=Result(annulled=True))
    r = replay(rec)
    assert [d.code for d in r.diagnostics] == [Code.ANNULMENT_MISMATCH]


def test_score_sheet_line_is_scored_from_its_facts() -> None:
    rec = DealRecord(players=5, result=Result(contract="garde", taker="N", partner="S",
                                              taker_points=51, bouts=2,
                                              scores={"S": 70, "E": -70, "N": 140,
                                                      "W": -70, "F": -70}))
    r = replay(rec)
    assert rec.is_outcome_only
    assert r.status is Status.SCORED
    assert r.ok
    assert r.scores == {"S": 70, "E": -70, "N": 140, "W": -70, "F": -70}


def test_score_sheet_without_points_is_not_scorable() -> None:
    rec = DealRecord(players=4, result=Result(contract="prise", taker="E",
                                              scores={"S": -25, "E": 75, "N": -25, "W": -25}))
    r = replay(rec)
    assert r.status is Status.UNSCORED
    assert [d.code for d in r.diagnostics] == [Code.NOT_SCORABLE]


def test_legal_moves_at_every_card_agree_with_the_validator() -> None:
    full = _deal(77, 5)
    for t, trick in enumerate(full.play, 1):
        for i, played in enumerate(trick.cards):
            pos = legal_moves(full, t, i)
            assert pos.exact
            assert played.card in pos.legal
            for c in pos.hand:
                verdict = why_illegal(c, pos.hand, list(pos.played),
                                      full.call.card if (t, i) == (1, 0) and full.call
                                      else None)
                assert (verdict is None) == (c in pos.legal)


def test_legal_moves_just_past_the_recorded_play() -> None:
    full = _deal(8)
    part = full.model_copy(update={"play": full.play[:3], "result": None})
    pos = legal_moves(part, 4, 0)
    assert pos.played == ()
    assert pos.seat == replay(full).record.seat_ids[replay(full).tricks[3].leader]
    half = full.model_copy(update={"play": (*full.play[:3], full.play[3].model_copy(
        update={"cards": full.play[3].cards[:2]})), "result": None})
    pos = legal_moves(half, 4, 2)
    assert len(pos.played) == 2
    with pytest.raises(ValueError, match="beyond the recorded play"):
        legal_moves(part, 6, 0)


def test_legal_moves_reason_says_what_was_expected() -> None:
    hand = CardSet.parse("2H 9H KH 7C T3")
    verdict = why_illegal(Card.C7, hand, [Card.H5])
    assert verdict is not None
    assert verdict.code is Code.MUST_FOLLOW_SUIT
    assert verdict.message.endswith("expected 2H, 9H or KH")


def test_petit_sec_of_a_taker_who_took_the_chien_is_found_without_hands() -> None:
    # S is dealt the Petit sec, takes a Garde; the record keeps only the chien and the
    # play: his dealt hand is what he played, plus the écart, less the chien.
    rng = random.Random(4)
    plain = [c for c in Card if c.suit.is_plain]
    rng.shuffle(plain)
    others = [c for c in Card if c not in plain[:17] and c != Card.T1]
    rng.shuffle(others)
    deck = [Card.T1, *plain[:17], *others]
    full = random_deal(rng, 4, contract=Contract.GARDE, taker=0, deck=deck)
    assert full.hands is not None
    assert full.hands["S"].trumps() == CardSet.of(Card.T1)
    bare = full.model_copy(update={"hands": None, "ecart": None})
    hits = [d for d in replay(bare).diagnostics if d.code is Code.PETIT_SEC]
    assert [d.location.seat for d in hits] == ["S"]


def test_a_deal_played_out_with_the_petit_in_the_chien_under_annuls_is_scored_as_played(
        ) -> None:
    """Issue 31: a record played out although the Petit turned up in the chien under
    ``petit_in_chien = annuls`` got an A106 error and no score; it is flagged (D105, a
    warning) and scored as played, as a petit sec is."""
    rest = [c for c in Card if c != Card.T1]
    deck = [*rest[:72], Card.T1, *rest[72:]]  # the Petit lands in the chien
    played = random_deal(random.Random(1), 4, contract=Contract.PRISE, deck=deck)
    assert played.chien is not None
    assert Card.T1 in played.chien
    assert played.play
    under_fft = replay(played)
    rec = played.model_copy(update={"ruleset": "fft petit_in_chien=annuls"})
    r = replay(rec)
    assert r.status is Status.SCORED
    assert r.scores == under_fft.scores
    assert [(d.code, d.severity) for d in r.diagnostics] == [
        (Code.PETIT_IN_CHIEN, Severity.WARNING)]
    assert "it was played out, and is scored as played" in r.diagnostics[0].message
    declared = rec.model_copy(update={"play": (), "result": Result(annulled=True),
                                      "ecart": None})
    assert replay(declared).status is Status.ANNULLED  # annulled as the rule says: no score


def test_simulated_deal_with_the_petit_in_the_chien_is_annulled_under_annuls() -> None:
    rules = Ruleset.from_spec("fft petit_in_chien=annuls")
    rest = [c for c in Card if c != Card.T1]
    deck = [*rest[:72], Card.T1, *rest[72:]]  # the Petit lands in the chien
    rec = random_deal(random.Random(1), 4, contract=Contract.PRISE, ruleset=rules, deck=deck)
    r = replay(rec)
    assert r.status is Status.ANNULLED
    assert r.ok
    assert rec.play == ()
