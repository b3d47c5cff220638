"""One shape per fact (issue 37): the library gives each fact in one shape everywhere
(cards as Card values, seats as seat ids, scores by seat id, signed margins with their
unit in the name), and the old shapes keep working for a release with a
DeprecationWarning that names the new one."""

from __future__ import annotations

import pytest

from tarotnotation.analysis import Position, Solver, best_cards, solve
from tarotnotation.cards import Card

ENDGAME = "S=KH,T21 E=2H,T5 N=3H,EX W=4H,T2 taker=S lead=S won=60/1 tricks=9/7"


def test_the_solvers_best_card_and_line_are_cards() -> None:
    sol = solve(Position.parse(ENDGAME))
    assert type(sol.best) is Card
    assert sol.best is Card.HK
    assert sol.line is not None
    assert all(type(c) is Card for c in sol.line)
    assert sol.line[:4] == (Card.HK, Card.H2, Card.EXCUSE, Card.H4)


def test_each_cards_value_names_a_card() -> None:
    values = best_cards(Position.parse(ENDGAME))
    assert [type(cv.card) for cv in values] == [Card, Card]
    assert [cv.card for cv in values] == [Card.HK, Card.T21]


def test_solver_best_card_is_a_card() -> None:
    pos = Position.parse(ENDGAME)
    card = Solver(pos).best_card(pos, 62)
    assert type(card) is Card


@pytest.mark.parametrize("card", [Card.HK, Card.T21])
def test_a_card_of_the_solver_is_still_an_int(card: Card) -> None:
    assert card == int(card)
    assert Card(int(card)) is card
