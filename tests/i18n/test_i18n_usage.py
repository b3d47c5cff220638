"""Usage errors in the run's language (issue 20): what click says about a command line
(an unknown option or command, a missing argument or option, a value that is not one of
the choices, an option without its value, an extra argument) reads in French when asked,
on one line, and in English exactly as before."""

from __future__ import annotations

import pytest
import typer
from cli_runs import invoke

from tarotnotation.cli.runner import usage_message
from tarotnotation.i18n import Msg

#: (command line, English, French): each whole line on standard error.
CASES = [
    (("validate", "--bogus", "x"),
     "tarot: no such option: --bogus: did you mean --columns or --jobs or --verbose? (see"
     " 'tarot validate --help')",
     "tarot: option inconnue : --bogus : vouliez-vous dire --columns ou --jobs ou --verbose ?"
     " (voir « tarot validate --help »)"),
    (("replay", "--trick", "x", "f"),
     "tarot: no such option: --trick (see 'tarot replay --help')",
     "tarot: option inconnue : --trick (voir « tarot replay --help »)"),
    (("validatte",),
     "tarot: no command 'validatte': did you mean 'validate'? (tarot --help lists the"
     " commands)",
     "tarot: pas de commande 'validatte' : vouliez-vous dire 'validate' ? (tarot --help liste"
     " les commandes)"),
    (("vali",),
     "tarot: no command 'vali' (tarot --help lists the commands)",
     "tarot: pas de commande 'vali' (tarot --help liste les commandes)"),
    (("standings", "f", "--method", "nope"),
     "tarot: invalid value for '--method' / '-m': 'nope' is not one of 'total', 'mean',"
     " 'matchpoints' (see 'tarot standings --help')",
     "tarot: valeur invalide pour '--method' / '-m' : 'nope' n'est pas l'une des valeurs"
     " 'total', 'mean', 'matchpoints' (voir « tarot standings --help »)"),
    (("validate",),
     "tarot: validate needs PATH...: see 'tarot validate --help'",
     "tarot: validate demande CHEMIN... : voir « tarot validate --help »"),
    (("legal", "f", "x"),
     "tarot: missing option '--trick' / '-t' (see 'tarot legal --help')",
     "tarot: option '--trick' / '-t' manquante (voir « tarot legal --help »)"),
    (("validate", "--format"),
     "tarot: option '--format' requires an argument (see 'tarot --help')",
     "tarot: l'option '--format' demande une valeur (voir « tarot --help »)"),
    (("card", "ZZ", "extra"),
     "tarot: got unexpected extra argument(s) (extra) (see 'tarot card --help')",
     "tarot: argument(s) en trop : extra (voir « tarot card --help »)"),
    (("validate", "--jobs", "x", "f"),
     "tarot: invalid value for '--jobs' / '-j': Input should be a valid integer, unable to"
     " parse string as an integer (see 'tarot validate --help')",
     "tarot: valeur invalide pour '--jobs' / '-j' : attendu un nombre entier (voir « tarot"
     " validate --help »)"),
    (("validate", "--jobs", "-3", "f"),
     "tarot: invalid value for '--jobs' / '-j': Input should be greater than or equal to 0"
     " (see 'tarot validate --help')",
     "tarot: valeur invalide pour '--jobs' / '-j' : attendu un nombre supérieur ou égal à 0"
     " (voir « tarot validate --help »)"),
    (("validate", "x", "--lang", "de"),
     "tarot: invalid value for '--lang': 'de' is not a language: expected en or fr (see"
     " 'tarot --help')",
     None),  # the language asked for is not one: the environment's is used
]


@pytest.mark.parametrize(("args", "english", "french"), CASES,
                         ids=[" ".join(c[0]) for c in CASES])
def test_a_usage_error_in_english_is_as_before(args: tuple[str, ...], english: str,
                                               french: str | None) -> None:
    ran = invoke(*args, env={"TAROT_LANG": "", "LC_ALL": "", "LC_MESSAGES": "",
                             "LANG": "C"})
    assert (ran.code, ran.out, ran.err) == (2, "", english + "\n")


@pytest.mark.parametrize(("args", "english", "french"), CASES,
                         ids=[" ".join(c[0]) for c in CASES])
def test_a_usage_error_in_french(args: tuple[str, ...], english: str,
                                 french: str | None) -> None:
    ran = invoke(*args, env={"TAROT_LANG": "fr"})
    expected = french or english.replace("invalid value for '--lang': 'de' is not a"
                                         " language: expected en or fr (see 'tarot --help')",
                                         "valeur invalide pour '--lang'\xa0: 'de' n'est pas"
                                         " une langue\xa0: attendu en ou fr (voir"
                                         " «\xa0tarot --help\xa0»)")
    assert (ran.code, ran.out, ran.err) == (2, "", expected + "\n")
    assert len(ran.err.splitlines()) == 1


def test_lang_fr_on_the_command_line_gives_french_usage_errors() -> None:
    ran = invoke("standings", "--lang", "fr", "f", "-m", "nope")
    assert ran.err.startswith("tarot: valeur invalide pour '--method' / '-m' : 'nope'"
                              " n'est pas l'une des valeurs")


def test_a_message_click_does_not_know_stays_as_it_is() -> None:
    """A sentence of click's that has no message of ours (a new one, in a later click)
    is shown as click says it rather than lost."""
    usage_error = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")
    said = usage_message(usage_error("Something new happened."), ["validate"])
    assert said == "something new happened (see 'tarot --help')"
    assert isinstance(said, Msg)
    assert said.render("fr") == "something new happened (voir « tarot --help »)"
