"""One shape per fact (issue 37): the library gives each fact in one shape everywhere
(cards as Card values, seats as seat ids, scores by seat id, signed margins with their
unit in the name), and the old shapes keep working for a release with a
DeprecationWarning that names the new one."""

from __future__ import annotations

import inspect
import pydoc
import warnings

import pytest
from typer.testing import CliRunner

from tarotnotation import html, notation
from tarotnotation.analysis import Position, Solver, best_cards, solve
from tarotnotation.archives import scan
from tarotnotation.cards import Card
from tarotnotation.cli.app import app
from tarotnotation.records import DealRecord, Trick
from tarotnotation.replay import replay
from tarotnotation.rules import Contract
from tarotnotation.scoring import DealFacts, score

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


def test_str_of_a_trick_is_the_notation() -> None:
    rec = notation.load("examples/prise.tarot")
    text = str(rec)
    for number, trick in enumerate(rec.play, 1):
        assert f"{number:>2}. {trick}" in text
    assert str(Trick(leader="E", cards=[{"card": "KH", "seat": "E"}, {"card": "2H"}])) == (
        "(E) E:KH 2H")


def test_made_on_the_replay_is_made_on_the_summary() -> None:
    for deal in scan(["examples"]):
        if deal.summary is None or deal.record is None:
            continue
        assert replay(deal.record).made == deal.summary.made


def test_a_records_player_is_the_name_or_the_seat_id() -> None:
    rec = notation.load("examples/prise.tarot")
    for seat in rec.seats:
        assert rec.player(seat.id) == (seat.name or seat.id)


def test_html_page_draws_a_record_in_one_call() -> None:
    rec = notation.load("examples/garde-poignee.tarot")
    page = html.page(rec)
    assert page.startswith("<!doctype html>")
    assert ' src="' not in page  # self-contained: nothing loaded from elsewhere
    assert html.page(rec) == page


def test_score_margin_points_is_signed_whole_points() -> None:
    made = score(DealFacts(players=4, taker=0, contract=Contract.GARDE, taker_half=96, bouts=2))
    lost = score(DealFacts(players=4, taker=0, contract=Contract.GARDE, taker_half=81, bouts=1))
    assert (made.made, made.margin_points) == (True, 7)
    assert (lost.made, lost.margin_points) == (False, -11)


def test_score_margin_keeps_working_with_a_warning_naming_margin_points() -> None:
    lost = score(DealFacts(players=4, taker=0, contract=Contract.GARDE, taker_half=81, bouts=1))
    with pytest.warns(DeprecationWarning, match=r"Score\.margin_points"):
        assert lost.margin == 11


def test_the_summary_and_the_score_give_one_signed_margin() -> None:
    for deal in scan(["examples"]):
        if deal.summary is None or deal.record is None or deal.summary.margin is None:
            continue
        sc = replay(deal.record).score
        if sc is not None:
            assert sc.margin_points == deal.summary.margin


@pytest.mark.parametrize("args", [
    ("score", "examples/score-sheet.tarot"),
    ("replay", "examples/garde-poignee.tarot"),
    ("annotate", "examples/prise.tarot"),
    ("validate", "examples"),
    ("stats", "examples/score-sheet.tarot"),
    ("query", "examples", "--where", "made or not made", "--fields", "contract,taker,margin"),
    ("standings", "examples/score-sheet.tarot"),
])
def test_the_commands_use_no_deprecated_shape(args: tuple[str, ...]) -> None:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        result = CliRunner().invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.exit_code in (0, 1), result.output
    assert not [w for w in seen if issubclass(w.category, DeprecationWarning)]


def test_help_of_a_model_shows_its_fields_and_their_docs_first() -> None:
    text = pydoc.render_doc(DealRecord, renderer=pydoc.TextDoc())
    fields = text.index("Fields:")
    assert fields < text.index("Method resolution order")
    assert "players: int\n" in text[fields:]
    assert "hands: dict[str, CardSet] | None = None" in text
    assert "The hands as dealt, by seat id (some seats may be missing)." in text
    signature = str(inspect.signature(Trick))
    assert "PlainValidator" not in signature
    assert "leader: 'str | None' = None" in signature


def test_a_models_json_schema_describes_it_by_its_own_docstring() -> None:
    schema = Trick.model_json_schema()
    assert schema["description"] == "One trick, its cards listed from the leader's."
