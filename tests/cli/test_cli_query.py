"""``tarot legal``, ``rules``, ``codes`` and ``card``: questions to the library."""

from __future__ import annotations

import pytest
from cli_runs import EXAMPLES, FAULTY, invoke, rel, run_forked

from tarotnotation import notation
from tarotnotation.diagnostics import Code
from tarotnotation.replay import legal_moves
from tarotnotation.rules import Ruleset

pytestmark = pytest.mark.process


def test_legal_lists_the_legal_cards_and_why_not_the_others() -> None:
    ran = run_forked("legal", rel(FAULTY / "revoke.tarot"), "--trick", "3", "--card", "1")
    assert ran.code == 1, ran  # the deal holds a revoke (later): a fault in the record
    assert ran.err == ("tarot: note: deal 1 holds 1 error (tarot validate"
                       " examples/faulty/revoke.tarot lists it)\n")
    pos = legal_moves(notation.load(FAULTY / "revoke.tarot"), 3, 1)
    lines = ran.out.splitlines()
    assert lines[0] == f"Trick 3, {pos.seat} to play after 3C"
    assert lines[1] == f"  holds:  {pos.hand}"
    assert lines[2] == f"  legal:  {pos.legal}"
    assert lines[3] == f"  not:    {pos.hand - pos.legal}"
    assert lines[4].startswith("  why:    P105 must-follow-suit: Clubs led")


def test_legal_beyond_the_play_or_the_file_is_a_usage_error() -> None:
    ran = invoke("legal", rel(EXAMPLES / "prise.tarot"), "--trick", "30")
    assert ran.code == 2
    assert ran.err.startswith("tarot: trick 30, card 0 is beyond the recorded play")
    ran = invoke("legal", rel(EXAMPLES / "prise.tarot"), "--trick", "1", "--deal", "2")
    assert (ran.code, ran.err) == (2, "tarot: examples/prise.tarot: no deal number 2\n")


def test_rules_lists_every_switch_with_both_presets() -> None:
    ran = run_forked("rules")
    assert ran.code == 0
    for name in Ruleset.switch_names():
        line = next(line for line in ran.out.splitlines() if line.strip().startswith(name))
        assert f"fft={Ruleset.fft().switch(name)}" in line
        assert f"pagat={Ruleset.pagat().switch(name)}" in line


def test_codes_lists_every_code() -> None:
    out = run_forked("codes").out.splitlines()
    assert len(out) == len(Code)
    assert "P105  error    must-follow-suit" in "\n".join(out)


def test_card_names_a_card() -> None:
    assert invoke("card", "kh").out == "KH: King of Hearts / Roi de Cœur, 4.5 points\n"
    assert run_forked("card", "T21").out.endswith(", a bout\n")
    ran = invoke("card", "ZZ")
    assert ran.code == 2
    assert ran.err.startswith("tarot: 'ZZ' is not a card code")


def test_card_takes_every_spelling_the_notation_takes() -> None:
    # issue 12: `tarot card K♥` and `tarot card DC` were refused; the CLI reads cards with
    # the notation's own alias table (tarotnotation.notation.cardcodes), so every word the
    # notation reads as a card names that card here
    from tarotnotation.cards import Card
    from tarotnotation.notation.cardcodes import ALIAS_RANKS, ALIAS_SUITS, parse_card

    assert invoke("card", "K♥").out.startswith("KH: King of Hearts")
    assert invoke("card", "D♣").out.startswith("QC: Queen of Clubs")
    assert invoke("card", "10♠").out.startswith("10S: ")
    assert invoke("card", "ex").out.startswith("EX: ")
    words = [c.code for c in Card]
    words += [r + s for r in ALIAS_RANKS for s in "SHD"]  # not C: issue 38, RC is refused
    words += ["7" + sym for sym in ALIAS_SUITS] + ["R" + sym for sym in ALIAS_SUITS]
    for word in words + [w.lower() for w in words]:
        card = parse_card(word)
        assert card is not None, word
        ran = invoke("card", word)
        assert ran.code == 0, (word, ran.err)
        assert ran.out.startswith(f"{card.code}: "), (word, ran.out)
    for word in ("ZZ", "T22", "11H", "KX", "", "K♥♥"):
        ran = invoke("card", word)
        assert ran.code == 2, word
        assert ran.err.startswith(f"tarot: {word!r} is not a card code"), ran.err
