"""The players' table: views hold only what a seat may know, answers are judged by the
rules, logs restore a game, and random bots play whole deals that validate clean."""

from __future__ import annotations

import pytest

from tarotnotation.cards import CardSet
from tarotnotation.game import Game, IllegalMoveError
from tarotnotation.i18n import message_of, render
from tarotnotation.players import Answer, Kind, RandomPlayer, Table, play_deal, view_of
from tarotnotation.replay import replay
from tarotnotation.rules import Contract


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("rules", ["fft", "pagat"])
def test_random_bots_play_whole_deals_that_replay_clean(players: int, rules: str) -> None:
    for seed in range(6):
        t = Table(Game.deal(players, seed=seed, rules=rules))
        record = play_deal(t, {s: RandomPlayer(seed=seed) for s in t.game.seats})
        r = replay(record)
        assert r.ok, [str(d) for d in r.diagnostics]
        assert record.result is not None
        assert Table.restore(Game.deal(players, seed=seed, rules=rules), t.log).game.record() \
            == record


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_view_never_shows_another_seats_cards(players: int) -> None:
    for seed in range(4):
        t = Table(Game.deal(players, seed=seed, rules="pagat"))
        bots = {s: RandomPlayer(seed=seed) for s in t.game.seats}
        while (d := t.pending()) is not None:
            g = t.game
            for seat in g.seats:
                v = view_of(g, seat)
                assert v.open_hands is None
                assert v.hand == g.hands[seat]
                others = CardSet()
                for s, h in g.hands.items():
                    if s != seat:
                        others = others | h
                # The others' hands hold what the seat has not seen and the chien it
                # was shown (taken by the taker); what it has not seen lies there or face
                # down (a chien not shown, another's écart).
                shown = v.chien or CardSet()
                assert others <= v.unseen | shown
                face_down = g.chien | (g.ecart.cards if g.ecart and g.ecart.cards else CardSet())
                assert v.unseen <= others | face_down
                assert not (v.unseen & v.hand)
                if v.chien is None and g.contract is not None and g.phase.value != "auction":
                    assert not g.contract.takes_chien
                if v.ecart is not None:
                    assert seat == g.taker
            t.ask(bots[d.seat])


def test_the_same_view_gives_a_seeded_bot_the_same_decision() -> None:
    a = Table(Game.deal(4, seed=21))
    b = Table(Game.deal(4, seed=21))
    # Two tables whose other seats differ in nothing South can see: South's view is the
    # same at the first bid, so is its bid.
    bot = RandomPlayer(seed=9)
    va, vb = a.view("S"), b.view("S")
    assert va == vb
    assert va.key() == vb.key()
    assert {bot.bid(va, a.game.legal_bids) for _ in range(3)} == {bot.bid(vb, b.game.legal_bids)}


def test_the_same_hand_in_another_deal_looks_the_same_from_the_seat() -> None:
    g1 = Game.deal(4, seed=1)
    south = g1.dealt["S"]
    rest = sorted(CardSet.all() - south)
    g2 = Game.new({"S": south, "E": CardSet.from_cards(rest[-18:]),
                   "N": CardSet.from_cards(rest[:18]), "W": CardSet.from_cards(rest[18:36])},
                  players=4, dealer="W")
    assert g1.dealt["E"] != g2.dealt["E"]
    assert view_of(g1, "S").key() == view_of(g2, "S").key()
    assert view_of(g1, "E").key() != view_of(g2, "E").key()
    # South's bot bids the same at both tables once the others have passed or bid alike.
    bot = RandomPlayer(seed=4)
    t1, t2 = Table(g1), Table(g2)
    assert t1.ask(bot) == t2.ask(bot)


def test_an_answer_out_of_turn_is_refused_and_changes_nothing() -> None:
    t = Table(Game.deal(4, seed=2))
    with pytest.raises(ValueError, match="expected bid from S"):
        t.answer_bid("E", None)
    assert t.log == ()


def test_an_illegal_card_is_refused_with_the_rules_words() -> None:
    t = Table(Game.deal(4, seed=2))
    for seat in ("S", "E", "N", "W"):
        t.answer_bid(seat, Contract.GARDE_SANS if seat == "S" else None)
    t.answer_chelem("S", False)
    t.answer_declare("S", ())
    held = t.game.hands["S"]
    not_held = next(iter(CardSet.all() - held))
    with pytest.raises(IllegalMoveError) as e:
        t.answer_play("S", not_held)
    assert e.value.code.value == "P103"
    assert len(t.log) == 6


def test_a_log_written_as_text_restores_the_table() -> None:
    t = Table(Game.deal(5, seed=8))
    play_deal(t, {s: RandomPlayer(seed=2) for s in t.game.seats})
    text = [(a.seat, a.kind.value, a.value) for a in t.log]
    again = Table.restore(Game.deal(5, seed=8), (Answer(s, Kind(k), v) for s, k, v in text))
    assert again.game.record() == t.game.record()


def test_the_tables_refusals_are_said_in_french() -> None:
    t = Table(Game.deal(4, seed=2))
    with pytest.raises(ValueError, match="expected bid from S") as e:
        t.answer_bid("E", None)
    assert message_of(e.value) == "not E's bid now: expected bid from S"
    assert render(e.value.args[0], "fr") == ("ce n'est pas à E de répondre (enchère)\u00a0: on"
                                             " attend enchère de S")
    with pytest.raises(ValueError, match="'X' is not a seat") as e:
        view_of(t.game, "X")
    assert render(e.value.args[0], "fr") == ("«\u00a0X\u00a0» n'est pas un siège de cette donne"
                                             " (sièges\u00a0: S, E, N, O)")
    play_deal(t, {s: RandomPlayer(seed=1) for s in t.game.seats})
    with pytest.raises(ValueError, match="nothing to ask") as e:
        t.ask(RandomPlayer())
    assert render(e.value.args[0], "fr") == "la donne est finie\u00a0: il n'y a rien à demander"


def test_the_chien_is_not_shown_before_the_call_at_five_players() -> None:
    t = Table(Game.deal(5, seed=8))
    for seat in t.game.seats:
        t.answer_bid(seat, Contract.GARDE if seat == "S" else None)
    assert t.pending() is not None
    assert t.pending().kind is Kind.CALL  # type: ignore[union-attr]
    for seat in t.game.seats:
        assert view_of(t.game, seat).chien is None
    t.ask(RandomPlayer(seed=1))
    assert all(view_of(t.game, s).chien == t.game.chien for s in t.game.seats)
