"""The heuristic bot: each habit it holds, in a position built for it, and every action
legal over many deals at three, four and five players and every ruleset switch."""

from __future__ import annotations

import dataclasses

import pytest

from tarotnotation.analysis import Position
from tarotnotation.cards import KINGS_MASK, TRUMP_MASK, Card, CardSet, Suit
from tarotnotation.game import Game
from tarotnotation.players import SeenTrick, Table, legal_calls, play_deal, view_of
from tarotnotation.players.heuristic import (
    THRESHOLDS,
    HeuristicPlayer,
    call_choice,
    chelem_certain,
    contract_for,
    ecart_choice,
    hand_points,
    misere_choice,
    petit_kept,
    poignee_choice,
    shown_voids,
    signalled_suits,
)
from tarotnotation.records import Misere
from tarotnotation.replay import replay
from tarotnotation.rules import Contract, MisereKind, Ruleset

BOT = HeuristicPlayer()
NO_BOUT = HeuristicPlayer(petit_au_bout=False)


def four(south: str, east: str = "", north: str = "", west: str = "",
         void: dict[str, str] | None = None) -> Game:
    """A four-player game whose hands hold the cards given, each filled to 18 cards from
    the rest in order (a seat of ``void`` gets no card of the suits named: ``{"E": "HT"}``
    keeps hearts and trumps from East); South speaks first."""
    given = {s: CardSet.parse(h) for s, h in zip("SENW", (south, east, north, west),
                                                  strict=True)}
    rest = sorted(CardSet.all() - CardSet(sum(h.bits for h in given.values())))
    hands = {}
    void = void or {}
    for s in sorted(given, key=lambda s: s not in void):
        h = given[s]
        skip = {Suit.HEARTS if x == "H" else Suit.TRUMPS if x == "T" else Suit.CLUBS
                if x == "C" else Suit.SPADES if x == "S" else Suit.DIAMONDS
                for x in void.get(s, "")}
        fill = [c for c in rest if (c.suit not in skip and c != Card.EXCUSE)
                or (c == Card.EXCUSE and s not in void)][:18 - len(h)]
        hands[s] = h | CardSet.from_cards(fill)
        rest = [c for c in rest if c not in fill]
    return Game.new({s: hands[s] for s in "SENW"}, players=4, dealer="W")


def garde_sans(game: Game, taker: str = "S") -> Game:
    for s in game.seats:
        game.push_bid(Contract.GARDE_SANS if s == taker else None)
    return game


def test_heuristic_bids_from_the_point_count_thresholds() -> None:
    strong = CardSet.parse("T21 T20 T19 T18 T17 T16 T15 T14 T12 T9 T1 EX KH QH KS KD KC 2C")
    weak = CardSet.parse("T2 T5 1S 2S 3S 4S 6H 7H 8H 9H 1D 2D 5D 7D 1C 2C 4C 6C")
    four = THRESHOLDS[4]
    assert hand_points(weak) < four[0]
    assert contract_for(hand_points(weak), four) is None
    assert contract_for(hand_points(strong), four) is Contract.GARDE_CONTRE
    # per number of players: the hand holds 24 cards at three players, 15 at five
    assert contract_for(45, four) is Contract.PRISE
    assert contract_for(45, THRESHOLDS[3]) is None
    assert contract_for(45, THRESHOLDS[5]) is Contract.PRISE
    assert contract_for(50, THRESHOLDS[5]) is Contract.GARDE
    # the thresholds rise with each contract, and with the hand's size
    for n in (3, 4, 5):
        assert list(THRESHOLDS[n]) == sorted(set(THRESHOLDS[n]))
    assert THRESHOLDS[3] > THRESHOLDS[4] > THRESHOLDS[5]


def test_heuristic_thresholds_are_a_setting() -> None:
    hand = CardSet.parse("T21 T20 T18 T15 T12 T9 T7 T1 EX KH QH 3H KS 5S 2D 7C 9C 10C")
    g = four(str(hand))
    v = view_of(g, "S")
    assert BOT.bid(v, g.legal_bids) is Contract.GARDE
    assert HeuristicPlayer(thresholds=(70, 80, 90, 100)).bid(v, g.legal_bids) is None


def test_heuristic_bid_shift_moves_every_threshold() -> None:
    hand = CardSet.parse("T21 T20 T18 T15 T12 T9 T7 T1 EX KH QH 3H KS 5S 2D 7C 9C 10C")
    g = four(str(hand))
    v = view_of(g, "S")
    assert hand_points(hand) == 64  # a Garde at four players: 60 to 73
    assert HeuristicPlayer(bid_shift=0).bid(v, g.legal_bids) is Contract.GARDE
    assert HeuristicPlayer(bid_shift=5).bid(v, g.legal_bids) is Contract.PRISE  # 64 < 65
    assert HeuristicPlayer(bid_shift=4).bid(v, g.legal_bids) is Contract.GARDE  # 64 = 64
    assert HeuristicPlayer(bid_shift=-10).bid(v, g.legal_bids) is Contract.GARDE_SANS
    assert HeuristicPlayer(bid_shift=20).bid(v, g.legal_bids) is None  # 64 < 65 (Prise)
    # with thresholds given, the shift moves those
    assert HeuristicPlayer(thresholds=(70, 80, 90, 100), bid_shift=-6).bid(
        v, g.legal_bids) is Contract.PRISE


def test_heuristic_bid_passes_when_its_contract_is_already_outbid() -> None:
    g = four("T21 T20 T18 T15 T12 T9 T7 T1 EX KH QH 3H KS 5S 2D 7C 9C 10C")
    g.push_bid(None)  # (South passes: the seat to bid is East, given the same hand below)
    hand = g.dealt["S"]
    assert contract_for(hand_points(hand), THRESHOLDS[4]) is Contract.GARDE
    v = view_of(g, "S")
    assert BOT.bid(v, (None, Contract.GARDE_SANS, Contract.GARDE_CONTRE)) is None
    assert BOT.bid(v, (None, *Contract)) is Contract.GARDE


def test_heuristic_calls_the_king_of_its_shortest_suit() -> None:
    hand = CardSet.parse("KS 2S 3S 4S QH 5H 6H KD 3C")
    assert call_choice(hand, legal_calls(hand)) == Card.CK


def test_heuristic_calls_a_queen_when_it_holds_every_king() -> None:
    hand = CardSet.parse("KS KH KD KC QS QH QC 2H 5D 6D")
    assert call_choice(hand, legal_calls(hand)) == Card.DQ


def test_heuristic_ecart_keeps_kings() -> None:
    pool = CardSet.parse("KS KH KD KC 2S 3H 4D 5C 6C 7C QS NH JD T1 T2 T3 T4 T5 T6 T7 T8 "
                         "T9 T21 EX")
    ecart = ecart_choice(pool, 6)
    assert len(ecart) == 6
    assert ecart <= pool
    assert not ecart.bits & KINGS_MASK
    assert not ecart.trumps()
    assert Card.EXCUSE not in ecart


def test_heuristic_ecart_makes_voids() -> None:
    pool = CardSet.parse("KS QS 2S 3S 4S 5S 2H 7H KD 3D 4D 5D 9C T1 T2 T3 T4 T5 T6 T7 T8 "
                         "T9 T21 EX")
    ecart = ecart_choice(pool, 6)
    rest = pool - ecart
    # hearts and clubs (no King) are emptied; the King of Diamonds keeps guards
    assert not rest.of_suit(Suit.HEARTS)
    assert not rest.of_suit(Suit.CLUBS)
    assert Card.DK in rest


def test_heuristic_ecart_puts_trumps_only_when_forced_the_lowest() -> None:
    pool = CardSet.parse("KS KH KD KC 2S 3H T1 T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 "
                         "T14 T15 T16 T21 EX")
    ecart = ecart_choice(pool, 6)
    assert ecart == CardSet.parse("2S 3H T2 T3 T4 T5")


def test_heuristic_announces_a_chelem_only_with_a_hand_that_cannot_lose() -> None:
    sure = CardSet.parse("T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10 T9 T8 T7 KH QH EX")
    assert chelem_certain(sure, 4)
    assert not chelem_certain(sure - CardSet.parse("T20") | CardSet.parse("T2"), 4)
    assert not chelem_certain(sure - CardSet.parse("QH") | CardSet.parse("NH"), 4)


def test_heuristic_poignee_shows_its_lowest_trumps_and_hides_the_petit() -> None:
    hand = CardSet.parse("T1 T3 T5 T7 T9 T11 T13 T15 T17 T19 T21 KH")
    p = poignee_choice(hand, (10,), "S")
    assert p is not None
    assert p.cards == CardSet.parse("T3 T5 T7 T9 T11 T13 T15 T17 T19 T21")
    assert poignee_choice(hand, (), "S") is None


def test_heuristic_feeds_points_to_partner_trick() -> None:
    # South (taker, Garde Sans) leads 2H; East (defence) takes it with the King; North
    # follows with the Queen of Hearts (points to its camp's trick, West after is a
    # defender too); West, last, gives its Knight.
    g = garde_sans(four("2H T20", "KH", "QH 3H", "NH 4H"))
    g.push(Card.H2)
    g.push(Card.HK)
    assert BOT.play(view_of(g, "N"), g.legal_moves) == Card.HQ
    g.push(Card.HQ)
    assert BOT.play(view_of(g, "W"), g.legal_moves) == Card.HN


def test_heuristic_does_not_feed_a_trick_the_other_camp_may_still_take() -> None:
    # West takes (Garde Sans); South leads 3H, East (defence) follows: West, the taker,
    # plays after, and may take the trick with the King: East keeps its Queen.
    g = four("3H", "QH 4H", "", "KH")
    for s in g.seats:
        g.push_bid(Contract.GARDE_SANS if s == "W" else None)
    g.push(Card.H3)
    assert BOT.play(view_of(g, "E"), g.legal_moves) == Card.H4


def test_heuristic_saves_the_petit_when_it_wins_last() -> None:
    # West, last and out of hearts, holds the Petit and the 12: the Petit wins (no trump
    # yet) and no one plays after.
    g = garde_sans(four("3H", "5H", "7H", "T1 T12", void={"W": "H"}))
    for c in (Card.H3, Card.H5, Card.H7):
        g.push(c)
    v = view_of(g, "W")
    assert not v.hand.of_suit(Suit.HEARTS)
    assert BOT.play(v, g.legal_moves) == Card.T1


def test_heuristic_does_not_risk_the_petit_with_players_after() -> None:
    # West takes; South leads 3H; East, out of hearts with West still to play, trumps
    # with its lowest trump but the Petit.
    g = four("3H", "T1 T6 T15", void={"E": "H"})
    for s in g.seats:
        g.push_bid(Contract.GARDE_SANS if s == "W" else None)
    g.push(Card.H3)
    v = view_of(g, "E")
    assert not v.hand.of_suit(Suit.HEARTS)
    assert BOT.play(v, g.legal_moves) == Card.T6


def test_heuristic_gives_the_petit_to_a_trick_its_camp_keeps() -> None:
    # South (taker) leads; East, out of hearts, has only defenders after it: the Petit
    # goes now, safe.
    g = garde_sans(four("3H", "T1 T6 T15", void={"E": "H"}))
    g.push(Card.H3)
    assert BOT.play(view_of(g, "E"), g.legal_moves) == Card.T1


def test_heuristic_does_not_waste_high_trumps() -> None:
    g = garde_sans(four("3H", "T6 T20 T21", void={"E": "H"}))
    g.push(Card.H3)
    assert not view_of(g, "E").hand.of_suit(Suit.HEARTS)
    assert BOT.play(view_of(g, "E"), g.legal_moves) == Card.T6


def test_heuristic_discards_cheap() -> None:
    # East, out of hearts and of trumps, throws its cheapest card, not a face card.
    g = garde_sans(four("3H", "KS QS 2C JD", void={"E": "HT"}))
    g.push(Card.H3)
    v = view_of(g, "E")
    assert not v.hand.of_suit(Suit.HEARTS)
    assert not v.hand.trumps()
    card = BOT.play(v, g.legal_moves)
    assert card.points == 1
    assert card in g.legal_moves


def test_heuristic_leads_kings_early_in_defence() -> None:
    # North takes (Garde Sans); South, a defender, leads first: its King of Clubs.
    g = four("KC 2C 3C 4S T3 T4", "", "", "")
    for s in g.seats:
        g.push_bid(Contract.GARDE_SANS if s == "N" else None)
    assert g.turn == "S"
    assert BOT.play(view_of(g, "S"), g.legal_moves) == Card.CK


def test_heuristic_defence_hunts_the_petit() -> None:
    # A defender without a King, holding trumps, leads its lowest trump while the Petit is
    # unseen and the taker has shown no void in trumps.
    hand = ("1S 2S 3S 4S 5S 6S 7S 8S 1H 2H 3H 4H 1D 2D 3D T4 T9 T13")
    g = four(hand, "T1", "", "")
    for s in g.seats:
        g.push_bid(Contract.GARDE_SANS if s == "E" else None)
    assert g.turn == "S"
    assert BOT.play(view_of(g, "S"), g.legal_moves) == Card.T4


def test_heuristic_taker_leads_the_petit_once_no_trump_can_take_it() -> None:
    pos = Position.parse("S=T1,KH E=2H,3S N=3H,4S W=4H,5S taker=S lead=S won=60/1 "
                         "tricks=9/7")
    g = Game.from_position(pos)
    v = view_of(g, "S")
    # what was played before (a position does not say it): every other card
    gone = CardSet.all() - CardSet.parse("T1 KH 2H 3S 3H 4S 4H 5S")
    seen = dataclasses.replace(v, tricks=(SeenTrick("S", tuple(gone), "S"),))
    # (the habit without the Petit au bout, which keeps a Petit no trump can take to the
    # last trick: test_heuristic_plays_for_the_petit_au_bout)
    assert NO_BOUT.play(seen, g.legal_moves) == Card.T1
    # with a trump still unseen, the Petit is kept
    assert NO_BOUT.play(v, g.legal_moves) == Card.HK


def test_heuristic_plays_the_excuse_before_the_last_trick() -> None:
    pos = Position.parse("S=KH,EX E=2H,T5 N=3H,T2 W=4H,T21 taker=S lead=S won=60/1 "
                         "tricks=9/7")
    g = Game.from_position(pos)
    assert BOT.play(view_of(g, "S"), g.legal_moves) == Card.EXCUSE


def test_heuristic_reads_voids_from_the_play() -> None:
    g = garde_sans(four("3H", "T6 T20 T21", void={"E": "H"}))
    g.push(Card.H3)
    g.push(Card.T6)
    assert shown_voids(view_of(g, "N")) == {"E": 1 << int(Suit.HEARTS)}


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("spec", ["fft", "pagat", "fft petit_in_chien=annuls",
                                  "pagat misere=on excuse_last_trick=to_trick_winner"])
def test_heuristic_plays_only_legal_actions_and_replays_clean(players: int, spec: str) -> None:
    rules = Ruleset.from_spec(spec)
    for seed in range(15):
        t = Table(Game.deal(players, seed=seed, rules=rules))
        record = play_deal(t, dict.fromkeys(t.game.seats, BOT))
        r = replay(record)
        assert r.ok, [str(d) for d in r.diagnostics]


def test_heuristic_same_view_same_decision() -> None:
    g1 = Game.deal(4, seed=1)
    south = g1.dealt["S"]
    rest = sorted(CardSet.all() - south)
    g2 = Game.new({"S": south, "E": CardSet.from_cards(rest[-18:]),
                   "N": CardSet.from_cards(rest[:18]), "W": CardSet.from_cards(rest[18:36])},
                  players=4, dealer="W")
    assert BOT.bid(view_of(g1, "S"), g1.legal_bids) == BOT.bid(view_of(g2, "S"), g2.legal_bids)


def test_heuristic_takes_with_master_trumps_when_long() -> None:
    # The taker holding more trumps than are unseen, the top ones, draws trumps.
    trumps = "T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10"
    g = four(f"{trumps} 2H 3H 4H 5H 6H 7H")
    for s in g.seats:
        g.push_bid(Contract.GARDE_SANS if s == "S" else None)
    held = g.hands["S"].bits & TRUMP_MASK
    assert held.bit_count() == 12
    assert BOT.play(view_of(g, "S"), g.legal_moves) == Card.T21



def _seen(g: Game, seat: str, kept: str) -> SeenTrick:
    """One trick standing for everything played before a position (which does not say
    it): every card but those of ``kept``."""
    return SeenTrick(seat, tuple(CardSet.all() - CardSet.parse(kept)), seat)


def test_heuristic_plays_for_the_petit_au_bout() -> None:
    # South (taker) holds the Petit and the King of Hearts, no trump unseen: it keeps the
    # Petit to the last trick (which it takes whoever leads: the Petit au bout) and leads
    # the King; without the habit it leads the Petit at once (saved, no bonus).
    pos = Position.parse("S=T1,KH E=2H,3S N=3H,4S W=4H,5S taker=S lead=S won=60/1 "
                         "tricks=9/7")
    g = Game.from_position(pos)
    seen = dataclasses.replace(view_of(g, "S"),
                               tricks=(_seen(g, "S", "T1 KH 2H 3S 3H 4S 4H 5S"),))
    assert petit_kept(seen)
    assert BOT.play(seen, g.legal_moves) == Card.HK
    assert NO_BOUT.play(seen, g.legal_moves) == Card.T1


def test_heuristic_plays_for_the_petit_au_bout_drawing_trumps_with_its_masters() -> None:
    # East (defence, on lead) holds the Petit, the 21 and the King of Hearts, one trump
    # (the taker's 5) unseen: it draws it with the 21, the Petit kept; without the habit
    # it leads its King.
    pos = Position.parse("S=2H,3S,T5 E=T1,T21,KH N=3H,4S,5H W=4H,5S,6H taker=S lead=E"
                         " won=60/1 tricks=9/6")
    g = Game.from_position(pos)
    kept = "T1 T21 KH 2H 3S T5 3H 4S 5H 4H 5S 6H"
    seen = dataclasses.replace(view_of(g, "E"), tricks=(_seen(g, "S", kept),))
    assert petit_kept(seen)
    assert BOT.play(seen, g.legal_moves) == Card.T21
    assert NO_BOUT.play(seen, g.legal_moves) == Card.HK
    # with two trumps unseen and one master, the Petit is not played for
    pos = Position.parse("S=2H,3S,T5 E=T1,T21,KH N=3H,4S,T6 W=4H,5S,6H taker=S lead=E"
                         " won=60/1 tricks=9/6")
    g = Game.from_position(pos)
    kept = "T1 T21 KH 2H 3S T5 3H 4S T6 4H 5S 6H"
    assert not petit_kept(dataclasses.replace(view_of(g, "E"), tricks=(_seen(g, "S", kept),)))


def test_heuristic_a_defender_keeps_the_petit_for_the_last_trick() -> None:
    # East (defence), out of hearts, holds the Petit and the 21, the taker's 5 the one
    # trump unseen: on the taker's heart it trumps with the 21 (drawing the 5 later), the
    # Petit waiting for the last trick; without the habit it plays the Petit now (the
    # lowest trump that wins, only its partners after it).
    pos = Position.parse("S=3H,KS,T5 E=T1,T21,2C N=4H,5S,6S W=5H,6C,7C taker=S lead=S"
                         " won=60/1 tricks=9/6")
    g = Game.from_position(pos)
    g.push(Card.H3)
    kept = "3H KS T5 T1 T21 2C 4H 5S 6S 5H 6C 7C"
    v = dataclasses.replace(view_of(g, "E"), tricks=(_seen(g, "S", kept),))
    assert petit_kept(v)
    assert BOT.play(v, g.legal_moves) == Card.T21
    assert NO_BOUT.play(v, g.legal_moves) == Card.T1


def test_heuristic_signals_a_suit_by_its_first_discard() -> None:
    # East (defence), out of hearts and of trumps, discards first a small card of the
    # suit whose King it holds (clubs), asking its partners for it; without the habit it
    # throws its cheapest card, a small spade.
    east = "KC 2C 3C 4C 5C 2S 3S 4S 5S 6S 7S 8S 9S 10S 1D 2D 3D 4D"
    g = garde_sans(four("3H", east, void={"E": "HT"}))
    g.push(Card.H3)
    v = view_of(g, "E")
    card = BOT.play(v, g.legal_moves)
    assert card.suit == Suit.CLUBS
    assert card.points == 1
    assert HeuristicPlayer(signals=False).play(v, g.legal_moves).suit == Suit.SPADES


def test_heuristic_answers_a_partners_signal() -> None:
    # West takes; East, out of hearts and trumps, discarded the 2 of clubs on South's
    # heart (a signal: East holds the King of clubs); North took the trick and leads a
    # club to East's King, not its own King of spades (Kings led early, without it).
    g = four("3H", "KC 2C 3C", "KS 5C 6C 9H", "5H", void={"E": "HT"})
    for s in g.seats:
        g.push_bid(Contract.GARDE_SANS if s == "W" else None)
    for c in (Card.H3, Card.C2, Card.H9, Card.H5):
        g.push(c)
    assert g.turn == "N"
    v = view_of(g, "N")
    assert signalled_suits(v) == {"E": int(Suit.CLUBS)}
    assert BOT.play(v, g.legal_moves) == min(c for c in v.hand if c.suit == Suit.CLUBS)
    assert HeuristicPlayer(signals=False).play(v, g.legal_moves) == Card.SK


def test_heuristic_declares_a_misere_when_the_rules_allow_and_the_hand_has_it() -> None:
    dealt = four("1S 2S 3S 4S 5S 6S 7S 8S 9S 10S 1H 2H 3H 4H 5H 6H 7H 8H").dealt
    for rules, want in (("fft misere=on", [MisereKind.ATOUT, MisereKind.TETE]),
                        ("fft", [])):
        g = Game.new(dealt, players=4, dealer="W", rules=rules)
        for s in g.seats:
            g.push_bid(Contract.GARDE_SANS if s == "E" else None)
        v = view_of(g, "S")
        assert [d.misere for d in BOT.declare(v) if isinstance(d, Misere)] == want
        assert HeuristicPlayer(misere=False).declare(v) == ()
        assert misere_choice(v) == tuple(Misere(seat="S", misere=k) for k in want)
