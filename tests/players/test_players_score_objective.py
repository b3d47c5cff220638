"""Rating the cards by the deal's score (``pimc:score=1``, ``oracle:score=1``): the
margin and the contract as before, with petit au bout (and the poignées declared) on
top, in the same unit; and the solver keeps the Petit apart from the 21 under the score
objective, where only the Petit makes petit au bout."""

from __future__ import annotations

import itertools

import pytest
from test_players_sampling import moments

from tarotnotation.analysis.position import Position
from tarotnotation.analysis.search import Solver, equivalent_cards
from tarotnotation.cards import Card
from tarotnotation.game import Game
from tarotnotation.players import HeuristicPlayer, OraclePlayer, PimcPlayer, Table, make, view_of
from tarotnotation.players.solving import card_values, position_of
from tarotnotation.records import Poignee
from tarotnotation.rules import table

#: Two tricks left, the taker to lead with the Petit and the 21, every other trump gone:
#: the two are the same points and bout, but only the Petit kept for the last trick
#: makes petit au bout.
PETIT_AND_21 = ("S=T1,T21 E=2H,3H N=4H,5H W=6H,7H taker=S lead=S won=50/1 tricks=10/6"
                " contract=garde")


@pytest.mark.parametrize("engine", ["c", "python"])
def test_under_the_score_objective_the_petit_is_not_merged_with_the_21(engine: str) -> None:
    pos = Position.parse(PETIT_AND_21)
    st = pos.state()
    t1, t21 = int(Card.T1), int(Card.T21)
    # under the margin the Petit is tried as the 21 (the same points, a bout each) ...
    assert equivalent_cards(st) == {t1: t21, t21: t21}
    # ... under the score each is tried
    assert equivalent_cards(st, petit_apart=True) == {t1: t1, t21: t21}
    solver = Solver(pos, objective="score", engine=engine)
    sol = solver.solve(pos)
    assert sol.best == Card.T21
    after_t1 = solver.solve(pos.play(t1))
    # leading the Petit gives petit au bout away: 2 x 10 points a defender, x3 at four
    assert sol.exact
    assert after_t1.exact
    assert sol.lower - after_t1.lower == 3 * 2 * 10
    assert sol.petit_au_bout == 0  # (the taker's camp)


def test_the_score_rating_prefers_keeping_the_petit_for_the_last_trick() -> None:
    pos = Position.parse(PETIT_AND_21)
    for exact_tricks in (0, 4):
        by_margin = {r.card: r.rating for r in card_values(pos, nodes=1000,
                                                           exact_tricks=exact_tricks)}
        by_score = {r.card: r.rating for r in card_values(pos, nodes=1000,
                                                          exact_tricks=exact_tricks,
                                                          objective="score")}
        assert by_margin[Card.T1] == by_margin[Card.T21] == 52 + 50
        # the same unit: the margin and the contract, with petit au bout's 10 points a
        # defender (20 half-points) to the taker's camp when the Petit is kept
        assert by_score == {Card.T1: 52 + 50, Card.T21: 52 + 50 + 20}


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_score_rating_is_the_margin_rating_and_petit_au_bout_in_exact_endgames(
        players: int) -> None:
    checked = 0
    for seed in range(4):
        late = (m for m in moments(players, seed)
                if table(players).tricks - len(m.view.tricks) <= 3 and m.view.trick
                is not None and m.view.trick.seat_of(len(m.view.trick.cards),
                                                     m.view.seats) == m.view.seat)
        for m in itertools.islice(late, 6):
            pos = position_of(m.view, m.hands, m.aside)
            # (no poignée, misère or chelem: a camp with no trick yet could still
            # see a chelem scored, whose amount the multiplier does not scale)
            if len(pos.legal()) < 2 or pos.poignees or pos.miseres or 0 in pos.tricks_won:
                continue
            margin = {r.card: r for r in card_values(pos, nodes=1, exact_tricks=4)}
            score = {r.card: r for r in card_values(pos, nodes=1, exact_tricks=4,
                                                    objective="score")}
            assert margin.keys() == score.keys()
            for card, r in margin.items():
                assert r.lower == r.upper
                assert score[card].lower == score[card].upper
                # petit au bout's 20 half-points either way, and the score's whole points
                # (the margin rounded up: one half-point at most)
                gap = score[card].rating - r.rating
                assert min(abs(gap - pab) for pab in (-20, 0, 20)) <= 1, (card, gap)
                checked += 1
    assert checked >= 20


def test_a_poignee_declared_is_in_the_position_pimc_solves() -> None:
    found = 0
    for seed in range(60):
        t = Table(Game.deal(3, seed=seed))
        bot = HeuristicPlayer(seed=seed)
        while (d := t.pending()) is not None:
            g = t.game
            if d.kind.value == "play" and g.declarations and len(g.cards_played) == 6:
                declared = [x for x in g.declarations if isinstance(x, Poignee)]
                if declared and g.contract is not None:
                    v = view_of(g, d.seat)
                    aside = g.ecart.cards if g.ecart is not None and \
                        g.contract.takes_chien else g.chien
                    assert aside is not None
                    pos = position_of(v, dict(g.hands), aside)
                    # each size the one whose count of trumps the seat showed
                    assert [table(3).poignee_count(size) for size in pos.poignees] \
                        == [len(x.cards or ()) for x in declared]
                    found += 1
            t.ask(bot)
        if found >= 2:
            break
    assert found >= 2, "no poignée declared in the deals tried"


def test_the_score_setting_is_named_and_checked() -> None:
    assert PimcPlayer(score=1).name == "pimc(nodes=20000,score=1)"
    assert make("pimc:score=1,samples=4").name == "pimc(samples=4,nodes=20000,score=1)"
    assert make("oracle:score=1").name == "oracle(nodes=200000,score=1)"
    assert OraclePlayer().name == "oracle(nodes=200000)"
    for bot in (PimcPlayer, OraclePlayer):
        with pytest.raises(ValueError, match="score is 0"):
            bot(score=2)
