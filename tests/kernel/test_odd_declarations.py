"""Odd calls, seats and declarations never crash a check, on any path (issue 12).

A trump or the Excuse called at five players (``call: T21``) raised IndexError in the
legality rule and stopped a whole archive. The class: any card called (or a call at 3 or
4 players), any dealer, leaders and card seats written wrongly, poignées of any cards and
size, chelem and misère declared by anyone, under any ruleset. Each such record goes
through every path a check takes: the replay, the legal-move API, the text notation
(read back and checked), JSON, JSON Lines (the quick check and the replay, serially),
and ``-j 2``; each must give diagnostics, never an exception.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any

import pytest
from budget import cases
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import rulesets
from typer.testing import CliRunner

from tarotnotation import notation
from tarotnotation.archive import check_deal, check_paths
from tarotnotation.cards import Card
from tarotnotation.diagnostics import Code
from tarotnotation.formats import json as tjson
from tarotnotation.legality import constraint
from tarotnotation.records import DealRecord
from tarotnotation.replay import legal_moves, replay
from tarotnotation.rules import Ruleset
from tarotnotation.simulate import random_deal

_CARDS = list(Card)
_ODD_CALLS = [c.code for c in Card if c.is_trump or c is Card.EXCUSE]


@st.composite
def odd_records(draw: st.DrawFn) -> DealRecord:
    """A legal deal, then its call, dealer, leaders, seats and declarations made odd."""
    n = draw(st.sampled_from((5, 4, 3)))
    rules: Ruleset = draw(rulesets())
    rec = random_deal(random.Random(draw(st.integers(0, 10**6))), n, ruleset=rules,
                      poignee_chance=0.5)
    data: dict[str, Any] = tjson.to_dict(rec)
    data.pop("tarotnotation")
    ids = list(rec.seat_ids)
    seat = st.sampled_from(ids)
    card = st.sampled_from(_CARDS).map(lambda c: c.code)
    how = draw(st.sampled_from(("odd", "any", "keep")))
    if how == "odd":  # a trump or the Excuse: what crashed
        data["call"] = {"card": draw(st.sampled_from(_ODD_CALLS))}
    elif how == "any":
        data["call"] = {"card": draw(card)}
    if draw(st.booleans()):
        data["dealer"] = draw(seat)
    play = data.get("play", [])
    for trick in play:
        if draw(st.integers(0, 5)) == 0:
            trick["leader"] = draw(seat)
        for pc in trick["cards"]:
            if draw(st.integers(0, 9)) == 0:
                pc["seat"] = draw(seat)
    if draw(st.booleans()):
        decls = []
        for _ in range(draw(st.integers(0, 4))):
            kind = draw(st.sampled_from(("poignee", "chelem", "misere")))
            d: dict[str, Any] = {"kind": kind, "seat": draw(seat)}
            if kind == "poignee":
                cards = draw(st.lists(card, max_size=16, unique=True))
                size = draw(st.sampled_from((None, "simple", "double", "triple")))
                if size is not None:
                    d["size"] = size
                if cards or size is None:
                    d["cards"] = cards
            elif kind == "misere":
                d["misere"] = draw(st.sampled_from(("atout", "tete")))
            decls.append(d)
        data["declarations"] = decls
    if play and draw(st.booleans()):
        data["play"] = play[: draw(st.integers(0, len(play)))]
    return DealRecord.model_validate(data)


def _check_everywhere(rec: DealRecord, tmp: Path) -> None:
    result = replay(rec)
    for d in result.diagnostics:
        assert isinstance(d.code, Code)
    for t, trick in enumerate(rec.play[:3]):
        for c in range(len(trick.cards)):
            try:
                pos = legal_moves(rec, t + 1, c)
            except ValueError:
                continue  # a point the record cannot be followed to: said in words
            assert pos.legal.bits & ~pos.hand.bits == 0
    text = notation.dumps(rec)
    for deal in notation.reads(text, name="odd.tarot"):
        assert deal.record is not None, deal.diagnostics
        check_deal(deal, "odd.tarot", keep=False)
        check_deal(deal, "odd.tarot", keep=True)
    for deal in tjson.read(tjson.dumps_bytes(rec, indent=True), name="odd.json"):
        assert deal.record is not None, deal.diagnostics
        check_deal(deal, "odd.json", keep=False)
    lines = tmp / "odd.jsonl"
    lines.write_bytes(tjson.dumps_bytes(rec) + b"\n" + tjson.dumps_bytes(rec) + b"\n")
    assert len(list(check_paths([lines], keep=False))) == 2


_TMP = Path(tempfile.mkdtemp(prefix="tarot-odd-"))


@settings(max_examples=cases(40, slow=1000))
@given(odd_records())
def test_odd_calls_seats_and_declarations_never_crash(rec: DealRecord) -> None:
    _check_everywhere(rec, _TMP)


@pytest.mark.parametrize("called", ["T21", "T1", "T6", "EX", "1C", "QS"])
def test_a_trump_or_the_excuse_called_at_five_players_is_a_diagnostic(called: str) -> None:
    # the first lead is a trump while a trump is called: this raised IndexError
    rec = _five_player_deal_led_by_a_trump()
    data = tjson.to_dict(rec)
    data["call"] = {"card": called}
    data.pop("tarotnotation")
    odd = DealRecord.model_validate(data)
    result = replay(odd)
    codes = {d.code for d in result.diagnostics}
    assert Code.CALL_WRONG_RANK in codes
    # the text and JSON paths and the quick check say the same, without a traceback
    [deal] = notation.reads(notation.dumps(odd), name="five.tarot")
    checked = check_deal(deal, "five.tarot", keep=False)
    assert Code.CALL_WRONG_RANK in {d.code for d in checked.diagnostics}


def test_the_first_lead_rule_ignores_a_called_trump() -> None:
    from tarotnotation import kernel

    hand = (1 << Card.T6) | (1 << Card.T15) | (1 << Card.C10)
    for called in (Card.T21, Card.T6, Card.EXCUSE):
        assert constraint(hand, [], called).legal == hand  # no suit called: no rule
        assert kernel.rule(hand, [], called)[:2] == (hand, kernel.FREE)
    # a King called: its suit may not be led (the rule still holds)
    assert constraint(hand | (1 << Card.C2), [], Card.CK).legal == (
        (1 << Card.T6) | (1 << Card.T15))


def _five_player_deal_led_by_a_trump() -> DealRecord:
    rng = random.Random(0)
    for _ in range(500):
        rec = random_deal(rng, 5)
        if rec.play and rec.play[0].cards[0].card.is_trump:
            return rec
    raise AssertionError("no five-player deal led by a trump in 500")


@pytest.mark.process
def test_odd_calls_through_parallel_checks_and_the_cli(tmp_path: Path) -> None:
    from tarotnotation.cli.app import app

    rng = random.Random(3)
    lines = []
    base = _five_player_deal_led_by_a_trump()
    for called in ("T21", "EX", "T1", "KD"):
        data = tjson.to_dict(base)
        data["call"] = {"card": called}
        lines.append(tjson.dumps_bytes(DealRecord.model_validate(
            {k: v for k, v in data.items() if k != "tarotnotation"})))
    for _ in range(4):
        lines.append(tjson.dumps_bytes(random_deal(rng, 4)))
    path = tmp_path / "odd.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    serial = [(c.index, sorted(d.code.value for d in c.diagnostics))
              for c in check_paths([path], keep=False)]
    parallel = [(c.index, sorted(d.code.value for d in c.diagnostics))
                for c in check_paths([path], jobs=2, keep=False)]
    assert serial == parallel
    assert len(serial) == 8
    run = CliRunner().invoke(app, ["validate", str(path), "-j", "2"])
    assert run.exit_code == 1, run.output
    assert "Traceback" not in run.output
    assert "K103" in run.output
    text = tmp_path / "odd.tarot"
    text.write_text("\n".join(notation.dumps(tjson.loads(ln)) for ln in lines))
    run = CliRunner().invoke(app, ["validate", str(text)])
    assert run.exit_code == 1, run.output
    assert "K103" in run.output
