"""The record model's own checks in the run's language (issue 20): a bad card code, a card
twice, a seat that is not one, a ruleset that cannot be read. The model raises each as a
``Msg`` (an English sentence with named placeholders); pydantic carries it to
:func:`tarotnotation.faults.model_faults`, which keeps it, so ``tarot validate`` says it in
French when asked, in English otherwise, byte for byte as before, with the same codes."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from cli_runs import invoke
from pydantic import ValidationError

from tarotnotation.cards import Card
from tarotnotation.catalog import source_files
from tarotnotation.faults import model_faults
from tarotnotation.i18n import Msg, message_of
from tarotnotation.records import DealRecord, Points
from tarotnotation.rules import Contract, Ruleset, RulesetError, table

#: One fault a line: a bad card code, a card twice, a dealer not at the table, an unknown
#: ruleset, a switch's bad value, a bad bid, points that are not a number, a bad tag name,
#: a hand of the wrong size, a poignée with neither size nor cards.
RECORDS = "\n".join([
    '{"players":4,"hands":{"N":["ZZ"]}}',
    '{"players":4,"hands":{"N":["KH","KH"]}}',
    '{"players":4,"dealer":"X"}',
    '{"players":4,"ruleset":"foo"}',
    '{"players":4,"ruleset":"fft misere=maybe"}',
    '{"players":4,"auction":[{"contract":"grande"}]}',
    '{"players":4,"result":{"taker_points":"abc"}}',
    '{"players":4,"tags":{"Ev ent":"x"}}',
    '{"players":4,"hands":{"N":["KH"]}}',
    '{"players":4,"declarations":[{"kind":"poignee","seat":"N"}]}',
]) + "\n"

FRENCH = """\
{f}:1:27: S003 erreur : donne 1, $.hands.N : « ZZ » n'est pas un code de carte : attendu une \
carte comme 7H, KS, T21 ou EX
{f}:2:27: S006 erreur : donne 2, $.hands.N : la carte R♥ figure deux fois
{f}:3:23: M001 erreur : donne 3, $.dealer : « X » n'est pas un siège de cette donne (sièges : \
S, E, N, O)
{f}:4:24: X001 erreur : donne 4, $.ruleset : règles inconnues « foo » : attendu l'une de fft, \
pagat
{f}:5:24: X001 erreur : donne 5, $.ruleset : l'option de règle misere ne peut pas valoir \
« maybe » : attendu on ou off
{f}:6:37: S006 erreur : donne 6, $.auction[0].contract : attendu une enchère : pass, prise, \
garde, garde_sans ou garde_contre
{f}:7:39: S006 erreur : donne 7, $.result.taker_points : « abc » n'est pas un nombre de points
{f}:8:21: S004 erreur : donne 8, $.tags : le nom de balise « Ev ent » ne doit contenir que des \
lettres ASCII, des chiffres et _
{f}:9:27: M001 erreur : donne 9, $.hands.N : une main a 18 cartes à 4 joueurs, trouvé 1
{f}:10:30: M001 erreur : donne 10, $.declarations[0] : une poignée demande sa taille ou les \
cartes montrées
"""

ENGLISH = """\
{f}:1:27: S003 error: deal 1, $.hands.N: 'ZZ' is not a card code: expected a card such as \
7H, KS, T21 or EX
{f}:2:27: S006 error: deal 2, $.hands.N: card KH appears twice
{f}:3:23: M001 error: deal 3, $.dealer: 'X' is not a seat of this deal (seats: S, E, N, W)
{f}:4:24: X001 error: deal 4, $.ruleset: unknown ruleset 'foo': expected one of fft, pagat
{f}:5:24: X001 error: deal 5, $.ruleset: rule switch misere cannot be 'maybe': expected on or \
off
{f}:6:37: S006 error: deal 6, $.auction[0].contract: expected a bid: pass, prise, garde, \
garde_sans or garde_contre
{f}:7:39: S006 error: deal 7, $.result.taker_points: 'abc' is not a number of points
{f}:8:21: S004 error: deal 8, $.tags: tag name 'Ev ent' must be ASCII letters, digits and _
{f}:9:27: M001 error: deal 9, $.hands.N: a hand has 18 cards at 4 players, found 1
{f}:10:30: M001 error: deal 10, $.declarations[0]: a poignée needs its size or the cards shown
"""


@pytest.fixture
def records(tmp_path: Path) -> Path:
    path = tmp_path / "model-checks.jsonl"
    path.write_text(RECORDS, encoding="utf-8")
    return path


def _faults(out: str) -> str:
    return "".join(line + "\n" for line in out.splitlines() if ": " in line and "$." in line)


def test_the_models_checks_read_in_french(records: Path) -> None:
    ran = invoke("validate", "--lang", "fr", str(records))
    assert ran.code == 1
    assert _faults(ran.out) == FRENCH.format(f=records)


def test_the_models_checks_in_english_are_as_before(records: Path) -> None:
    """The English text (and so every code chosen on it) is what it was."""
    ran = invoke("validate", str(records))
    assert ran.code == 1
    assert _faults(ran.out) == ENGLISH.format(f=records)


def test_the_codes_do_not_change_with_the_language(records: Path) -> None:
    english = invoke("validate", "--format", "json", str(records)).out
    french = invoke("validate", "--lang", "fr", "--format", "json", str(records)).out
    assert english == french


def test_a_card_twice_in_the_notation_reads_in_french(tmp_path: Path) -> None:
    path = tmp_path / "card-twice-in-a-hand.tarot"
    path.write_text('[Players "4"]\nhand S: 2S 2S\n', encoding="utf-8")
    ran = invoke("validate", "--lang", "fr", str(path))
    assert f"{path}:2:12: S006 erreur : donne 1 : 2♠ est écrite deux fois dans la main de S" \
        in ran.out
    assert f"{path}:2:12: S006 error: deal 1: 2S is written twice in the hand of S" in (
        invoke("validate", str(path)).out)


def test_a_bad_ruleset_tag_reads_in_french(tmp_path: Path) -> None:
    path = tmp_path / "ruleset-switch-bad-value.tarot"
    path.write_text('[Players "4"]\n[Ruleset "fft misere=maybe"]\n', encoding="utf-8")
    ran = invoke("validate", "--lang", "fr", str(path))
    assert ("X001 erreur : donne 1 : l'option de règle misere ne peut pas valoir «\xa0maybe\xa0» :"
            " attendu on ou off") in ran.out


def test_model_faults_keep_the_message_to_translate() -> None:
    """pydantic carries the Msg raised by a check; the fault keeps it (the place cut off
    when the check names it first), so it reads in either language."""
    with pytest.raises(ValidationError) as info:
        DealRecord.model_validate({"players": 4, "hands": {"N": ["KH"]}, "dealer": "S"})
    [fault] = model_faults(info.value, "$")
    assert fault.location.path == "$.hands.N"
    assert isinstance(fault.message, Msg)
    assert fault.message == "a hand has 18 cards at 4 players, found 1"
    assert fault.message.render("fr") == "une main a 18 cartes à 4 joueurs, trouvé 1"


@pytest.mark.parametrize(("call", "english", "french"), [
    (lambda: Card.from_code("ZZ"),
     "'ZZ' is not a card code: expected a card such as 7H, KS, T21 or EX",
     "«\xa0ZZ\xa0» n'est pas un code de carte : attendu une carte comme 7H, KS, T21 ou EX"),
    (lambda: Card.trump(22), "no trump numbered 22: trumps run from 1 to 21",
     "aucun atout numéro 22 : les atouts vont de 1 à 21"),
    (lambda: Contract.from_keyword("grande"),
     "'grande' is not a contract: expected prise, garde, garde_sans or garde_contre",
     "«\xa0grande\xa0» n'est pas un contrat : attendu prise, garde, garde_sans ou garde_contre"),
    (lambda: Ruleset.from_spec("fft petit=maybe"),
     "unknown rule switch 'petit': expected one of excuse_last_trick, petit_au_bout,"
     " ecart_trumps, petit_in_chien, chelem_excuse_wins, misere, five_player_first_lead",
     "option de règle inconnue «\xa0petit\xa0» : attendu l'une de excuse_last_trick, petit_au_bout,"
     " ecart_trumps, petit_in_chien, chelem_excuse_wins, misere, five_player_first_lead"),
    (lambda: table(6), "French Tarot is played by 3, 4 or 5 players, not 6",
     "le Tarot se joue à 3, 4 ou 5 joueurs, pas 6"),
    (lambda: Points.parse("1" * 30),
     "'111111111111111111111111111111' is not a number of points a record can hold (more"
     " than 18 digits)",
     "«\xa0111111111111111111111111111111\xa0» n'est pas un nombre de points qu'une donne puisse"
     " contenir (plus de 18 chiffres)"),
])
def test_a_value_check_says_it_in_both_languages(call: object, english: str,
                                                  french: str) -> None:
    with pytest.raises(ValueError, match=f"^{re.escape(english)}$") as info:
        call()  # type: ignore[operator]
    said = message_of(info.value)
    assert isinstance(said, Msg)
    assert said.render("fr") == french


#: The modules of the record model whose checks reach a person through a fault.
MODEL_MODULES = ("records.py", "fields.py", "cards.py", "rules.py")


@pytest.mark.parametrize("module", MODEL_MODULES)
def test_every_check_of_the_model_raises_a_message_to_translate(module: str) -> None:
    """Each ``raise ValueError(...)`` / ``RulesetError(...)`` of the record model gives a
    ``Msg`` (or a value that is one), never an f-string or a fixed English string."""
    path = next(p for p in source_files() if p.as_posix().endswith("tarotnotation/" + module))
    bad = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
            continue
        func = node.exc.func
        if not (isinstance(func, ast.Name) and func.id in ("ValueError", "RulesetError")):
            continue
        args = node.exc.args
        if args and isinstance(args[0], ast.JoinedStr | ast.Constant | ast.BinOp):
            bad.append(f"{path.name}:{node.lineno}")
    assert not bad, bad


def test_a_ruleset_error_keeps_its_message() -> None:
    with pytest.raises(RulesetError) as info:
        Ruleset.preset("nope")
    said = message_of(info.value)
    assert isinstance(said, Msg)
    assert said.render("fr") == "règles inconnues «\xa0nope\xa0» : attendu l'une de fft, pagat"
