"""The query language's errors in the run's language (issue 20): each mistake in a
``--where`` expression reads in French when asked, the field names, keywords and values
of the language left as they are, and in English exactly as before."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_runs import invoke

from tarotnotation.archives.query import QueryError, compile_query
from tarotnotation.i18n import Msg

PRISE = str(Path(__file__).resolve().parents[2] / "examples" / "prise.tarot")
FIELDS = ("bouts, called_self, camp, chelem, chelem_announced, contract, deal, dealer,"
          " errors, file, made, margin, names, partner, petit_au_bout, player, players,"
          " poignee, poignees, points, ruleset, score, status, taker, taker_score, tricks,"
          " valid, warnings")

#: (expression, English, French): the whole message.
CASES = [
    ("foo = 1",
     f"unknown field 'foo': the fields are {FIELDS}; a tag is written with a capital"
     " (Event, Date, Round...)",
     f"champ inconnu « foo » : les champs sont {FIELDS} ; une balise s'écrit avec une"
     " majuscule (Event, Date, Round...)"),
    ("contrat >= garde",
     f"unknown field 'contrat': did you mean contract? the fields are {FIELDS}; a tag is"
     " written with a capital (Event, Date, Round...)",
     f"champ inconnu « contrat » : vouliez-vous dire contract ? les champs sont {FIELDS} ;"
     " une balise s'écrit avec une majuscule (Event, Date, Round...)"),
    ("contract >= ",
     "the expression ends too soon: expected a value",
     "l'expression se termine trop tôt : attendu une valeur"),
    ("(made or chelem",
     "the expression ends too soon: expected ')'",
     "l'expression se termine trop tôt : attendu ')'"),
    ("and",
     "unexpected 'and': expected '(', 'has', 'not' or a value",
     "« and » inattendu : attendu '(', 'has', 'not' ou une valeur"),
    ("bouts ) 2",
     "unexpected ')': expected the end",
     "« ) » inattendu : attendu la fin"),
    ("Event = 'Lyon",
     "this text is never closed: add the closing '",
     "ce texte n'est jamais fermé : ajoutez le ' fermant"),
    ("contract >= gard",
     "'gard' is not a contract: expected prise, garde, garde_sans or garde_contre",
     "« gard » n'est pas un contrat : attendu prise, garde, garde_sans ou garde_contre"),
    ("status = done",
     "'done' is not a status: expected scored, annulled, incomplete or unscored",
     "« done » n'est pas un statut : attendu scored, annulled, incomplete ou unscored"),
    ("made = maybe",
     "made is true or false, not 'maybe'",
     "made vaut true ou false, pas « maybe »"),
    ("contract ~ garde",
     "contract takes !=, <, <=, =, >, >=, not ~",
     "contract accepte !=, <, <=, =, >, >=, pas ~"),
    ("bouts = 1.5", "bouts is a whole number", "bouts est un nombre entier"),
    ("bouts = 'two'",
     "bouts is compared with a number, e.g. bouts >= 2",
     "bouts se compare à un nombre, p. ex. bouts >= 2"),
    ("margin",
     "margin is a whole number: compare it, e.g. margin >= 2",
     "margin est un nombre entier : comparez-le, p. ex. margin >= 2"),
    ("taker = points",
     "points is a number of points, and taker is a seat: they cannot be compared",
     "points est un nombre de points et taker est un siège : ils ne peuvent pas être"
     " comparés"),
    ("taker ~ S",
     "~ takes a pattern in quotes, e.g. taker ~ \"Martin\"",
     "~ prend un motif entre guillemets, p. ex. taker ~ \"Martin\""),
    ("taker = 3",
     "expected a seat id (S, E, N, W, F...), a name in quotes or a seat field after =,"
     " not 3",
     "attendu un identifiant de siège (S, E, N, W, F...), un nom entre guillemets ou un"
     " champ de siège après =, pas 3"),
    ("has Z9",
     "no diagnostic code starts with Z9: expected a code such as P105 or a family such as"
     " P1 (see `tarot codes`)",
     "aucun code de diagnostic ne commence par Z9 : attendu un code comme P105 ou une"
     " famille comme P1 (voir `tarot codes`)"),
    ("Event = Round",
     "Round looks like a tag: put a value in quotes",
     "Round ressemble à une balise : mettez une valeur entre guillemets"),
    ("Event = bouts",
     "a tag is compared with a value, not with the field bouts",
     "une balise se compare à une valeur, pas au champ bouts"),
    ("2 = 3",
     "compare a field or a tag with a value, e.g. bouts >= 2",
     "comparez un champ ou une balise à une valeur, p. ex. bouts >= 2"),
    ("names = S",
     "expected a name in quotes, e.g. names = \"Alice Martin\"",
     "attendu un nom entre guillemets, p. ex. names = \"Alice Martin\""),
    ("file ~ '('",
     "not a valid pattern: missing ), unterminated subpattern",
     "motif invalide : missing ), unterminated subpattern"),
]


def _error(expr: str) -> QueryError:
    with pytest.raises(QueryError) as caught:
        compile_query(expr)
    return caught.value


@pytest.mark.parametrize(("expr", "english", "french"), CASES, ids=[c[0] for c in CASES])
def test_a_query_error_reads_in_both_languages(expr: str, english: str,
                                               french: str) -> None:
    message = _error(expr).message
    assert isinstance(message, Msg)
    assert (str(message), message.render("en"), message.render("fr")) == (
        english, english, french)


@pytest.mark.parametrize(("expr", "english", "french"), CASES[:8],
                         ids=[c[0] for c in CASES[:8]])
def test_tarot_query_says_it_in_the_runs_language(expr: str, english: str,
                                                  french: str) -> None:
    shown = _error(expr).show().replace("\n", "\n  ")
    for env, said in (({"TAROT_LANG": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "C"},
                       f"--where: {english}"),
                      ({"TAROT_LANG": "fr"}, f"--where : {french}")):
        ran = invoke("query", PRISE, "--where", expr, env=env)
        assert (ran.code, ran.out) == (2, "")
        # the message, then the expression and the caret under its fault, each on its line
        assert ran.err == f"tarot: {said}\n  {shown}\n", ran.err


def test_a_field_name_in_a_message_is_not_translated() -> None:
    """The language's words (fields, keywords, values) are the same in French."""
    message = _error("contract >= gard").message
    assert isinstance(message, Msg)
    french = message.render("fr")
    for word in ("prise", "garde", "garde_sans", "garde_contre"):
        assert word in french


def test_a_control_character_in_an_expression_is_shown_escaped_in_french() -> None:
    ran = invoke("query", PRISE, "--where", "foo\x1b[31m = 1", env={"TAROT_LANG": "fr"})
    assert ran.code == 2
    assert "\x1b" not in ran.err
    assert ran.err.startswith("tarot: --where : ")
