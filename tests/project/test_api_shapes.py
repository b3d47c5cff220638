"""One shape per fact (issue 37): the library gives each fact in one shape everywhere
(cards as Card values, seats as seat ids, scores by seat id, signed margins with their
unit in the name), and the old shapes keep working for a release with a
DeprecationWarning that names the new one."""

from __future__ import annotations

import inspect
import io
import pickle
import pydoc
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tarotnotation import html, notation
from tarotnotation.analysis import Position, Solver, best_cards, solve
from tarotnotation.archives import scan
from tarotnotation.archives.stream import (
    ArchiveDeal,
    ArchiveDealFailed,
    ArchiveDealOk,
    Options,
    archive_deal,
)
from tarotnotation.cards import Card
from tarotnotation.cli.app import app
from tarotnotation.diagnostics import Code, Diagnostic, Severity
from tarotnotation.formats import json as tjson
from tarotnotation.records import DealRecord, Trick
from tarotnotation.replay import replay
from tarotnotation.rules import Contract
from tarotnotation.scoring import DealFacts, score
from tarotnotation.source import ReadDeal, ReadDealFailed, ReadDealOk, read_deal

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
        if deal.summary is None or deal.record is None or deal.summary.margin_points is None:
            continue
        sc = replay(deal.record).score
        if sc is not None:
            assert sc.margin_points == deal.summary.margin_points


def test_summary_margin_keeps_working_with_a_warning_naming_margin_points() -> None:
    summary = next(d.summary for d in scan(["examples"]) if d.summary is not None
                   and d.summary.margin_points is not None)
    with pytest.warns(DeprecationWarning, match=r"DealSummary\.margin_points"):
        assert summary.margin == summary.margin_points


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


ROOT = Path(__file__).resolve().parents[2]


def _error() -> Diagnostic:
    diag = Diagnostic.make(Code.NOT_IN_HAND, "E does not hold 7H")
    assert diag.severity is Severity.ERROR
    return diag


def test_read_deal_gives_the_kind_that_ok_says() -> None:
    rec = notation.load("examples/prise.tarot")
    clean, faulty, gone = read_deal(1, rec), read_deal(2, rec, (_error(),)), read_deal(3, None)
    assert (type(clean), clean.ok, clean.record) == (ReadDealOk, True, rec)
    assert (type(faulty), faulty.ok, faulty.record) == (ReadDealFailed, False, rec)
    assert (type(gone), gone.ok, gone.record) == (ReadDealFailed, False, None)
    assert all(isinstance(d, ReadDeal) for d in (clean, faulty, gone))
    assert pickle.loads(pickle.dumps(clean)) == clean


def test_the_old_read_deal_constructor_keeps_working_with_a_warning_naming_read_deal() -> None:
    rec = notation.load("examples/prise.tarot")
    build: Any = ReadDeal  # (typed code calls read_deal: a union cannot be called)
    with pytest.warns(DeprecationWarning, match=r"read_deal"):
        old = build(1, rec)
    assert old == read_deal(1, rec)
    assert type(old) is ReadDealOk


def test_archive_deal_gives_the_kind_that_ok_says() -> None:
    [read] = scan(["examples/prise.tarot"])
    assert type(read) is ArchiveDealOk
    assert read.ok
    gone = archive_deal("x.tarot", 2, None, (_error(),))
    assert (type(gone), gone.ok, gone.summary) == (ArchiveDealFailed, False, None)
    assert archive_deal(read.file, read.index, read.summary) == read
    assert all(isinstance(d, ArchiveDeal) for d in (read, gone))
    assert pickle.loads(pickle.dumps(gone)) == gone


def test_the_old_archive_deal_constructor_keeps_working_with_a_warning() -> None:
    build: Any = ArchiveDeal
    with pytest.warns(DeprecationWarning, match=r"archive_deal"):
        old = build("x.tarot", 2, None)
    assert type(old) is ArchiveDealFailed


def test_an_unreadable_file_scans_as_failed_archive_deals(tmp_path: Path) -> None:
    bad = tmp_path / "bad.tarot"
    bad.write_text("this is no deal\n", encoding="utf-8")
    deals = list(scan([str(bad)]))
    assert deals
    assert all(type(d) is ArchiveDealFailed and d.diagnostics for d in deals)


_NARROWS = """
from tarotnotation.archive import read_path
from tarotnotation.archives import scan
for deal in read_path("examples/prise.tarot"):
    if deal.ok:
        print(deal.record.players)
    else:
        print(deal.record{unchecked}, deal.diagnostics)
for item in scan(["examples/prise.tarot"]):
    if item.ok:
        print(item.summary.players)
    else:
        print(item.summary{unchecked}, item.diagnostics)
"""


@pytest.mark.process
@pytest.mark.parametrize(("unchecked", "passes"), [("", True), (".players", False)])
def test_checking_ok_narrows_the_record_and_the_summary_for_mypy(
        tmp_path: Path, unchecked: str, passes: bool) -> None:
    program = tmp_path / "narrows.py"
    program.write_text(_NARROWS.format(unchecked=unchecked), encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", str(program)], cwd=ROOT,
                            capture_output=True, text=True, check=False)
    assert (result.returncode == 0) is passes, result.stdout + result.stderr
    if not passes:  # where ok is False, the record and the summary may be None
        assert result.stdout.count('has no attribute "players"') == 2, result.stdout
        assert ":8: error:" in result.stdout
        assert ":13: error:" in result.stdout


def test_the_summary_gives_seats_as_seat_ids_and_scores_by_seat_id_as_the_replay() -> None:
    seen = 0
    for deal in scan(["examples"], options=Options(records=True)):
        if not deal.ok or deal.record is None or deal.summary.status is None:
            continue
        s, r = deal.summary, replay(deal.record)
        assert s.taker == r.taker
        assert s.partner == (r.partner if s.partner_known else None)
        assert s.dealer == deal.record.dealer
        assert s.scores == (None if s.scores_in_order is None else dict(r.scores or {}))
        assert s.scores is None or list(s.scores) == list(s.seats)  # in the order of play
        seen += s.taker is not None and s.scores is not None
    assert seen >= 20


def test_the_summarys_old_index_shapes_live_on_under_new_names() -> None:
    [deal] = scan(["examples/five-players.tarot"])
    assert deal.ok
    s = deal.summary
    assert s.seats == ("S", "E", "N", "W", "F")
    assert (s.taker, s.partner, s.dealer) == ("F", "W", "N")
    assert (s.taker_index, s.partner_index, s.dealer_index) == (4, 3, 2)
    assert s.scores is not None
    assert s.scores_in_order == tuple(s.scores.values())
    assert s.player("F") == s.player(4) == "Luc Chevalier"


def test_json_dumps_and_notation_dumps_are_both_str() -> None:
    rec = notation.load("examples/annotated.tarot")  # (names with accents: Chloé)
    assert type(tjson.dumps(rec)) is str
    assert type(notation.dumps(rec)) is str
    assert tjson.loads(tjson.dumps(rec)) == rec
    assert notation.loads(notation.dumps(rec)) == rec


def test_dumps_bytes_is_the_utf8_of_dumps_in_both_modules() -> None:
    rec = notation.load("examples/annotated.tarot")
    assert "é" in tjson.dumps(rec)
    assert tjson.dumps_bytes(rec) == tjson.dumps(rec).encode("utf-8")
    assert tjson.dumps_bytes(rec, indent=True) == tjson.dumps(rec, indent=True).encode("utf-8")
    assert notation.dumps_bytes(rec) == notation.dumps(rec).encode("utf-8")
    assert tjson.loads(tjson.dumps_bytes(rec)) == rec
    out = io.BytesIO()
    tjson.dump(rec, out)
    assert out.getvalue() == tjson.dumps_bytes(rec)


def test_the_solvers_margin_has_its_unit_in_its_name() -> None:
    from tarotnotation.analysis import Position, solve

    pos = Position.parse("S=KH,T21 E=2H,T5 N=3H,EX W=4H,T2 taker=S lead=S won=60/1"
                         " tricks=9/7")
    sol = solve(pos)
    assert (sol.value, sol.margin_half, sol.made) == (62, 62, True)
