"""The game to push and pop (issue 37): each promise of :class:`tarotnotation.game.Game`,
named after it, and the properties that hold it to the kernel and the replay (push then
pop gives back the same state; a game pushed to its end scores as the replay does)."""

from __future__ import annotations

import random
import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import legal_deals

from tarotnotation import notation
from tarotnotation.analysis import Position
from tarotnotation.cards import Card, CardSet
from tarotnotation.diagnostics import Code
from tarotnotation.formats import json as tjson
from tarotnotation.game import Game, IllegalMoveError, Phase
from tarotnotation.i18n import Msg, message_of
from tarotnotation.kernel import ecart_plain
from tarotnotation.records import Bid, ChelemAnnouncement, DealRecord, Misere, Poignee
from tarotnotation.replay import replay
from tarotnotation.rules import Camp, Contract, MisereKind
from tarotnotation.simulate import random_deal


def _auction(game: Game, *bids: str) -> None:
    for bid in bids:
        game.push_bid(bid)


def _plain_ecart(game: Game) -> list[Card]:
    return sorted(CardSet(ecart_plain(game.ecart_choices.bits)))[:len(game.chien)]


def _phase(game: Game) -> Phase:
    """The game's phase, as a call (mypy would keep a property narrowed across moves)."""
    return game.phase


def _snapshot(game: Game) -> tuple[object, ...]:
    return (game.phase, game.turn, dict(game.hands), game.trick, game.trick_number,
            game.trick_leader, game.trick_winner, game.legal_moves, game.legal_bids,
            game.points(Camp.TAKER), game.points(Camp.DEFENCE), game.bouts(Camp.TAKER),
            game.tricks_won(Camp.DEFENCE), game.moves, game.contract, game.taker)


# --- starting a game ---------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_fresh_deal_deals_every_card_once(players: int) -> None:
    game = Game.deal(players, seed=3)
    held = [c for hand in game.hands.values() for c in hand] + list(game.chien)
    assert sorted(held) == list(Card)
    assert _phase(game) is Phase.AUCTION
    assert game.seats[0] == game.turn  # the dealer's right speaks first


def test_the_same_seed_deals_the_same_cards() -> None:
    assert Game.deal(4, seed=9).hands == Game.deal(4, seed=9).hands


def test_a_game_needs_every_hand_as_dealt() -> None:
    rec = DealRecord(players=4, auction=[{"contract": "garde"}])
    with pytest.raises(ValueError, match="every hand as dealt"):
        Game(rec)


# --- the auction, the call, the écart, the declarations as moves ------------------------


def test_the_auction_names_the_taker_and_the_contract() -> None:
    game = Game.deal(4, seed=1)
    assert game.legal_bids == (None, *Contract)
    _auction(game, "pass", "prise", "garde", "pass")
    assert (game.taker, game.contract) == ("N", Contract.GARDE)
    assert _phase(game) is Phase.ECART
    assert game.turn == "N"


def test_a_bid_not_higher_is_an_illegal_move_a102() -> None:
    game = Game.deal(4, seed=1)
    _auction(game, "garde")
    assert game.legal_bids == (None, Contract.GARDE_SANS, Contract.GARDE_CONTRE)
    with pytest.raises(IllegalMoveError) as err:
        game.push_bid("prise")
    assert err.value.code is Code.BID_NOT_HIGHER
    assert err.value.reason == "prise is not higher than garde: expected pass or a higher contract"
    assert err.value.diagnostic.location.seat == "E"
    assert len(game.moves) == 1  # nothing pushed


def test_a_bid_naming_another_seat_is_out_of_turn_a101() -> None:
    game = Game.deal(4, seed=1)
    with pytest.raises(IllegalMoveError) as err:
        game.push_bid(Bid(contract=None, seat="E"))
    assert err.value.code is Code.BID_OUT_OF_TURN
    game.push_bid(Bid(contract=Contract.PRISE, seat="S"))
    assert game.record().auction[0].seat == "S"


def test_an_illegal_move_error_is_a_value_error() -> None:
    assert issubclass(IllegalMoveError, ValueError)


def test_every_player_passing_ends_the_game_annulled() -> None:
    game = Game.deal(4, seed=2)
    _auction(game, "pass", "pass", "pass", "pass")
    assert game.is_over()
    assert game.result().status.value == "annulled"
    result = game.record().result
    assert result is not None
    assert result.annulled
    with pytest.raises(IllegalMoveError) as err:
        game.push(next(iter(game.hands["S"])))
    assert err.value.code is Code.MOVE_OUT_OF_ORDER


def test_the_call_at_five_players_finds_the_partner() -> None:
    game = Game.deal(5, seed=4)
    _auction(game, "garde_sans", "pass", "pass", "pass", "pass")
    assert _phase(game) is Phase.CALL
    holder, king = next((s, c) for s, h in game.hands.items() if s != "S"
                        for c in (Card.SK, Card.HK, Card.DK, Card.CK) if c in h)
    game.push_call(king)
    assert game.partner == holder
    assert game.camp(holder) is Camp.TAKER
    assert _phase(game) is Phase.PLAY  # a Garde sans: no écart


def test_a_queen_called_without_every_king_is_an_illegal_move_k103() -> None:
    game = Game.deal(5, seed=4)
    _auction(game, "garde", "pass", "pass", "pass", "pass")
    queen = next(c for c in (Card.SQ, Card.HQ, Card.DQ, Card.CQ))
    with pytest.raises(IllegalMoveError) as err:
        game.push_call(queen)
    assert err.value.code is Code.CALL_WRONG_RANK
    assert "holding all four Kings" in err.value.reason


def test_a_call_at_four_players_is_out_of_order() -> None:
    game = Game.deal(4, seed=4)
    _auction(game, "garde", "pass", "pass", "pass")
    with pytest.raises(IllegalMoveError) as err:
        game.push_call(Card.HK)
    assert err.value.code is Code.MOVE_OUT_OF_ORDER
    assert "expected the écart" in err.value.reason


def test_the_ecart_rules_and_their_reasons() -> None:
    game = Game.deal(4, seed=7)
    _auction(game, "pass", "garde", "pass", "pass")
    pool = game.ecart_choices
    plain = _plain_ecart(game)
    with pytest.raises(IllegalMoveError) as size:
        game.push_ecart(plain[:5])
    assert size.value.code is Code.ECART_SIZE
    king = next(c for c in pool if c.is_king)
    with pytest.raises(IllegalMoveError) as bout:
        game.push_ecart([king, *plain[:5]])
    assert bout.value.code is Code.ECART_KING_OR_BOUT
    assert bout.value.reason == f"{king.code} in the écart: expected no King and no bout"
    trump = next(c for c in pool if c.is_trump and not c.is_bout)
    with pytest.raises(IllegalMoveError) as avoidable:
        game.push_ecart([trump, *plain[:5]])
    assert avoidable.value.code is Code.ECART_TRUMP_AVOIDABLE
    outside = next(c for c in Card if c not in pool)
    with pytest.raises(IllegalMoveError) as not_held:
        game.push_ecart([outside, *plain[:5]])
    assert not_held.value.code is Code.ECART_NOT_IN_HAND
    game.push_ecart(plain)
    assert _phase(game) is Phase.PLAY
    assert len(game.hands["E"]) == 18
    assert not set(plain) & set(game.hands["E"])


def test_a_card_before_the_ecart_is_out_of_order_p112() -> None:
    game = Game.deal(4, seed=7)
    _auction(game, "pass", "garde", "pass", "pass")
    with pytest.raises(IllegalMoveError) as err:
        game.push(Card.EXCUSE)
    assert err.value.code is Code.MOVE_OUT_OF_ORDER
    assert err.value.reason == "not the time for this move: expected the écart"
    assert game.legal_moves == CardSet()


def test_a_bid_after_the_auction_is_out_of_order() -> None:
    game = Game.deal(4, seed=7)
    _auction(game, "pass", "garde_sans", "pass", "pass")
    with pytest.raises(IllegalMoveError) as err:
        game.push_bid("garde_contre")
    assert err.value.code is Code.MOVE_OUT_OF_ORDER


def test_a_poignee_is_declared_before_the_first_card_and_judged() -> None:
    rng = random.Random(0)
    while True:
        game = Game.deal(4, seed=rng)
        trumps = {s: h.trumps() for s, h in game.hands.items()}
        seat = next((s for s, t in trumps.items() if len(t) >= 10 and s != "E"), None)
        if seat is not None:
            break
    _auction(game, "pass", "garde_sans", "pass", "pass")
    shown = CardSet.from_cards(sorted(trumps[seat])[:10])
    with pytest.raises(IllegalMoveError) as err:
        game.push_declaration(Poignee(seat=seat, cards=shown - CardSet.of(min(shown))))
    assert err.value.code is Code.POIGNEE_SIZE
    game.push_declaration(Poignee(seat=seat, cards=shown))
    assert game.record().declarations[0].seat == seat


def test_a_poignee_after_the_players_first_card_is_out_of_order() -> None:
    game = Game.deal(4, seed=7)
    _auction(game, "pass", "garde_sans", "pass", "pass")
    first = game.turn
    game.push(min(game.legal_moves))
    with pytest.raises(IllegalMoveError) as err:
        game.push_declaration(ChelemAnnouncement(seat="E"))
    assert err.value.code is Code.MOVE_OUT_OF_ORDER
    assert first == "S"


def test_a_chelem_announced_makes_the_taker_lead() -> None:
    game = Game.deal(4, seed=7)
    _auction(game, "pass", "garde_sans", "pass", "pass")
    assert game.turn == "S"
    game.push_declaration(ChelemAnnouncement(seat="E"))
    assert game.turn == "E"
    assert game.trick_leader == "E"
    game.pop()
    assert game.turn == "S"


def test_a_chelem_announced_by_a_defender_is_an_illegal_move_h107() -> None:
    game = Game.deal(4, seed=7)
    _auction(game, "pass", "garde_sans", "pass", "pass")
    with pytest.raises(IllegalMoveError) as err:
        game.push_declaration(ChelemAnnouncement(seat="N"))
    assert err.value.code is Code.CHELEM_NOT_TAKER


# --- the cards ----------------------------------------------------------------------------


def _in_play(seed: int = 7) -> Game:
    game = Game.deal(4, seed=seed)
    _auction(game, "pass", "garde_sans", "pass", "pass")
    return game


def test_legal_moves_are_the_kernels_and_yield_cards() -> None:
    game = _in_play()
    moves = game.legal_moves
    assert all(isinstance(c, Card) for c in moves)
    assert moves == game.hands["S"]  # the lead is free
    game.push(Card.EXCUSE if Card.EXCUSE in moves else min(moves))
    assert game.legal_moves <= game.hands["E"]


def test_a_card_not_held_is_an_illegal_move_p103() -> None:
    game = _in_play()
    card = next(iter(game.hands["E"]))
    with pytest.raises(IllegalMoveError) as err:
        game.push(card)
    assert err.value.code is Code.NOT_IN_HAND
    loc = err.value.diagnostic.location
    assert (loc.trick, loc.seat, loc.card, loc.path) == (1, "S", card.code, "play[0].cards[0]")


def test_a_revoke_is_an_illegal_move_with_the_kernels_reason() -> None:
    for seed in range(200):
        game = _in_play(seed)
        lead = next((c for c in game.hands["S"] if not c.is_trump and c is not Card.EXCUSE),
                    None)
        if lead is None:
            continue
        game.push(lead)
        hand = game.hands["E"]
        same = hand.of_suit(lead.suit)
        other = next((c for c in hand if c.suit is not lead.suit and c is not Card.EXCUSE),
                     None)
        if same and other is not None:
            break
    else:
        pytest.fail("no deal with a revoke to try")
    with pytest.raises(IllegalMoveError) as err:
        game.push(other)
    assert err.value.code is Code.MUST_FOLLOW_SUIT
    assert err.value.reason.startswith(f"{('Spades', 'Hearts', 'Diamonds', 'Clubs')[lead.suit]}"
                                       " led and the player holds")
    assert all(c.code in err.value.reason.split("expected")[1] for c in same)


def test_the_trick_so_far_and_who_wins_it() -> None:
    pos = Position.parse("S=2H,T21 E=KH,T5 N=3H,EX W=4C,T2 taker=S lead=S won=60/1 tricks=9/7")
    game = Game.from_position(pos)
    assert not game.trick
    assert game.trick_winner is None
    assert game.trick_number == 17
    winners: list[str | None] = []
    for card in (Card.H2, Card.HK, Card.H3):
        game.push(card)
        winners.append(game.trick_winner)
    assert game.trick == (Card.H2, Card.HK, Card.H3)
    assert winners == ["S", "E", "E"]
    assert game.legal_moves == CardSet.of(Card.T2)  # W has no Heart: he must trump
    game.push(Card.T2)
    assert not game.trick
    assert game.previous_trick == (Card.H2, Card.HK, Card.H3, Card.T2)
    assert game.turn == game.trick_leader == "W"
    assert game.trick_number == 18


def test_points_and_bouts_per_camp_add_up_at_the_end() -> None:
    game = _in_play()
    while not game.is_over():
        game.push(min(game.legal_moves))
    assert game.points(Camp.TAKER) + game.points(Camp.DEFENCE) == 182
    assert game.bouts(Camp.TAKER) + game.bouts(Camp.DEFENCE) == 3
    assert game.tricks_won(Camp.TAKER) + game.tricks_won(Camp.DEFENCE) == 18
    assert game.turn is None
    assert game.legal_moves == CardSet()


def test_a_card_after_the_last_trick_is_out_of_order() -> None:
    game = _in_play()
    while not game.is_over():
        game.push(min(game.legal_moves))
    with pytest.raises(IllegalMoveError) as err:
        game.push(Card.EXCUSE)
    assert err.value.code is Code.MOVE_OUT_OF_ORDER
    assert err.value.reason == "not the time for this move: expected nothing: the deal is over"


def test_pop_at_the_start_raises_a_clear_error() -> None:
    game = Game.deal(4, seed=1)
    with pytest.raises(IndexError, match="no move to take back"):
        game.pop()
    with pytest.raises(IndexError, match="no move to take back"):
        game.peek()


def test_pop_takes_back_every_kind_of_move_in_order() -> None:
    game = Game.deal(4, seed=7)
    start = _snapshot(game)
    _auction(game, "pass", "garde", "pass", "pass")
    plain = _plain_ecart(game)
    game.push_ecart(plain)
    game.push(min(game.legal_moves))
    assert isinstance(game.peek(), Card)
    assert isinstance(game.pop(), Card)
    assert game.pop().cards == CardSet.from_cards(plain)  # type: ignore[union-attr]
    assert _phase(game) is Phase.ECART
    for _ in range(4):
        game.pop()
    assert _snapshot(game) == start


def test_result_before_the_end_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="the deal is not over: expected a bid next"):
        Game.deal(4, seed=1).result()


# --- records from a game, games from records and positions -----------------------------


def test_a_games_record_writes_as_text_and_json_and_reads_back_equal() -> None:
    game = Game.deal(5, seed=11)
    _auction(game, "pass", "garde", "pass", "pass", "pass")
    king = next(c for c in (Card.SK, Card.HK, Card.DK, Card.CK)
                if c not in game.hands[game.taker or ""])
    game.push_call(king)
    game.push_ecart(_plain_ecart(game))
    while not game.is_over():
        game.push(max(game.legal_moves))
    rec = game.record()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert notation.loads(str(rec)) == rec
        assert tjson.loads(tjson.dumps(rec)) == rec
    r = replay(rec)
    assert r.ok
    assert rec.result is not None
    assert r.scores == rec.result.scores


def test_a_partial_games_record_replays_without_error() -> None:
    game = _in_play()
    for _ in range(7):
        game.push(min(game.legal_moves))
    r = replay(game.record())
    assert not r.errors
    assert r.status.value == "incomplete"


def test_a_game_from_a_record_plays_its_moves() -> None:
    rec = notation.load("examples/prise.tarot")
    game = Game.from_record(rec)
    assert game.is_over()
    assert game.record().play == rec.play
    assert game.record().result.scores == replay(rec).scores  # type: ignore[union-attr]


def test_a_game_from_a_faulty_record_stops_at_its_first_fault() -> None:
    rec = notation.load("examples/faulty/revoke.tarot")
    with pytest.raises(IllegalMoveError) as err:
        Game.from_record(rec)
    assert err.value.code is Code.MUST_FOLLOW_SUIT
    assert err.value.diagnostic.location.trick == 3


def test_a_game_from_a_position_plays_its_cards() -> None:
    pos = Position.parse("S=KH,T21 E=2H,T5 N=3H,EX W=4H,T2 taker=S lead=S won=60/1 tricks=9/7")
    game = Game.from_position(pos)
    game.push(Card.HK)
    assert game.legal_moves == CardSet.of(Card.H2)
    with pytest.raises(ValueError, match="no record"):
        game.record()
    for _ in range(7):
        game.push(min(game.legal_moves))
    assert game.is_over()
    assert game.points(Camp.TAKER) + game.points(Camp.DEFENCE) == 182


def test_the_new_messages_read_in_french() -> None:
    game = Game.deal(4, seed=7)
    with pytest.raises(IllegalMoveError) as err:
        game.push(Card.EXCUSE)
    reason = err.value.reason
    assert isinstance(reason, Msg)
    assert reason.render("fr") == "ce n'est pas le moment de ce coup\u00a0: attendu une enchère"
    with pytest.raises(IndexError) as pop:
        game.pop()
    said = message_of(pop.value)
    assert isinstance(said, Msg)
    assert said.render("fr") == "aucun coup à reprendre\u00a0: la partie est à son début"


# --- properties ---------------------------------------------------------------------------


@given(legal_deals(), st.integers(min_value=0, max_value=10 ** 6))
def test_push_then_pop_gives_back_the_same_state(rec: DealRecord, where: int) -> None:
    game = Game.from_record(rec.model_copy(update={"play": (), "result": None}))
    cards = list(rec.cards_played())
    for card in cards[:where % (len(cards) + 1)]:
        game.push(card)
    before = _snapshot(game)
    for card in list(game.legal_moves):
        game.push(card)
        game.pop()
        assert _snapshot(game) == before


@given(legal_deals())
def test_a_game_pushed_to_its_end_scores_as_the_replay_does(rec: DealRecord) -> None:
    game = Game.from_record(rec)
    r = replay(rec)
    assert game.is_over()
    if r.status.value == "annulled":
        return
    assert game.points(Camp.TAKER) == r.taker_half
    assert game.bouts(Camp.TAKER) == r.bouts
    assert game.result().scores == r.scores
    assert game.record().play == rec.play


def test_games_of_generated_deals_read_back_from_their_records() -> None:
    rng = random.Random(5)
    for _ in range(20):
        rec = random_deal(rng, rng.choice((3, 4, 5)))
        again = Game.from_record(rec).record()
        assert again.play == rec.play
        assert again.auction == rec.auction
        assert again.result is not None
        assert rec.result is not None
        assert again.result.scores == rec.result.scores


def test_a_game_from_a_record_without_hands_finds_them_from_the_play() -> None:
    rec = random_deal(random.Random(12), 4, contract=Contract.GARDE)
    bare = rec.model_copy(update={"hands": None})
    game = Game.from_record(bare)
    assert game.is_over()
    assert game.record().play == rec.play
    assert game.record().hands == rec.hands


def test_an_ecart_in_a_garde_sans_is_an_illegal_move_e106() -> None:
    game = _in_play()
    with pytest.raises(IllegalMoveError) as err:
        game.push_ecart(sorted(game.hands["E"])[:6])
    assert err.value.code is Code.ECART_NOT_ALLOWED


def test_a_misere_is_declared_under_misere_on_and_judged() -> None:
    for seed in range(300):
        game = Game.deal(4, seed=seed, rules="fft misere=on")
        seat = next((s for s, h in game.hands.items() if s != "E"
                     and not h.trumps() and Card.EXCUSE not in h), None)
        if seat is not None:
            break
    else:
        pytest.fail("no hand without trumps to try")
    _auction(game, "pass", "garde_sans", "pass", "pass")
    other = next(s for s in game.seats if s not in (seat, "E"))
    with pytest.raises(IllegalMoveError) as err:
        game.push_declaration(Misere(seat=other, misere=MisereKind.ATOUT))
    assert err.value.code is Code.MISERE_FALSE
    game.push_declaration(Misere(seat=seat, misere=MisereKind.ATOUT))
    while not game.is_over():
        game.push(min(game.legal_moves))
    assert game.result().ok


def test_a_misere_under_misere_off_is_an_illegal_move_h108() -> None:
    game = _in_play()
    with pytest.raises(IllegalMoveError) as err:
        game.push_declaration(Misere(seat="N", misere=MisereKind.TETE))
    assert err.value.code is Code.MISERE_NOT_ALLOWED
