"""French for the people who play (issue 20): the catalogue is complete, the language is
chosen as documented, French runs read as reviewed, and machine outputs never change."""

from __future__ import annotations

import ast
import functools
import pickle
import re
from pathlib import Path

import orjson
import pytest
from cli_runs import EXAMPLES, FAULTY, ROOT, invoke, rel

from tarotnotation.cards import Card, CardSet
from tarotnotation.catalog import extract, source_files, translated
from tarotnotation.diagnostics import Code, Diagnostic
from tarotnotation.i18n import (
    CONTEXT_SEP,
    Msg,
    PoTranslations,
    and_list,
    catalog_path,
    language_from_env,
    or_list,
    read_po,
    render,
    translations,
)
from tarotnotation.legality import why_illegal

FIXTURES = ROOT / "tests" / "fixtures" / "i18n"
PLACEHOLDER = re.compile(r"\{(\w*)\}")
#: Reviewed French outputs; each is compared whole.
FAULTY_FR = sorted(FAULTY.glob("*.tarot"))
#: Translations that are the same words in French (checked by a person, not left out).
SAME_IN_FRENCH = frozenset({"{items}, {item}", "{seat} {score}", "{n} bout", "Arguments", "Options",
                            "Chien", "Écart", "Score", "poignée {sizes} = {amount}",
                            "chelem {term} = {amount}", "misère {amounts}", "position",
                            "{points}{with_bouts}", "{message}{tail}", "simple", "double",
                            "triple", "{counted} ({per})", "column\x04points",
                            "column\x04bouts", "column\x04score", "column\x04total",
                            "column\x04poignées", "column\x04petits", "column\x04chelems",
                            "column\x04chelem", "column\x04camp", "column\x04scores",
                            "index\x04Table", "index\x04Score", "index\x04Date", "Index", "Exc",
                            "{errors}, {warnings}", "score {value}", "score {low}..{high}"})


def _french() -> dict[str, str | list[str]]:
    text = catalog_path("fr").read_text(encoding="utf-8")
    return {m: s for m, s, _, fuzzy in read_po(text) if m and not fuzzy}


@functools.cache
def _extracted() -> tuple[str, ...]:
    """The msgids of :func:`extract`, read once a test process (two tests ask)."""
    return tuple(extract())


def test_every_message_has_a_french_translation() -> None:
    """The catalogue completeness check: every English sentence of the sources (each
    ``Msg``, ``gettext_``, ``ngettext``) and every help text of every command has a French
    translation. A new message without one fails here: run ``python -m
    tarotnotation.catalog`` to add it to the .po, then translate it."""
    found = _extracted()
    french = _french()
    missing = sorted(m for m in found if not translated(french.get(m)))
    assert not missing, f"{len(missing)} of {len(found)} messages have no French: {missing[:20]}"
    assert len(found) > 300


#: Sentences whose braces are the notation's own (a { comment }), not placeholders.
LITERAL_BRACES = frozenset({"a {comment}"})


def test_no_placeholder_is_lost_or_invented() -> None:
    for msgid, msgstr in _french().items():
        if msgid in LITERAL_BRACES:
            continue
        forms = msgstr if isinstance(msgstr, list) else [msgstr]
        for form in forms:
            assert set(PLACEHOLDER.findall(form)) == set(PLACEHOLDER.findall(msgid)), msgid


def test_no_english_left_in_the_french_catalogue() -> None:
    """No translation is the English itself (a word said in a context, a plural's
    singular form included), unless a person checked that French says it the same."""
    plurals = {m: p for m, p, plural, _ in read_po(catalog_path("fr").read_text("utf-8"))
               if plural is not None}
    for msgid, msgstr in _french().items():
        if msgid in SAME_IN_FRENCH:
            continue
        english = msgid.rpartition(CONTEXT_SEP)[2]
        forms = msgstr if isinstance(msgstr, list) else [msgstr]
        assert english not in forms, f"not translated: {msgid!r}"
        assert msgid not in plurals or len(forms) == 2, f"two plural forms: {msgid!r}"


def test_the_catalogue_holds_no_stale_entry() -> None:
    """Every translation is of a sentence the program still says (no dead French)."""
    stale = set(_french()) - set(_extracted())
    assert not stale, sorted(stale)


def _message_args(path: Path) -> list[ast.expr]:
    """The message argument of every diagnostic made in ``path`` (the argument that
    follows a ``Code.X``)."""
    out: list[ast.expr] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        for first, second in zip(node.args, node.args[1:], strict=False):
            if (isinstance(first, ast.Attribute) and isinstance(first.value, ast.Name)
                    and first.value.id == "Code"):
                out.append(second)
    return out


#: Modules whose every diagnostic message is a Msg (a new f-string message there fails).
TRANSLATED_MODULES = ("replay.py", "legality.py", "plausibility.py", "analysis/position.py",
                      "analysis/analyse.py", "formats/json.py", "formats/sheet.py",
                      "formats/csvsheet.py", "formats/scoreit.py", "formats/matocolotoe.py",
                      "formats/xlsx.py", "formats/tarotclub.py", "notation/reader.py", "faults.py",
                      "causes.py", "narrator.py", "replaydeclared.py", "replayresult.py",
                      "notation/syntax.py", "notation/chunks.py", "formats/sheetdeal.py")


@pytest.mark.parametrize("module", TRANSLATED_MODULES)
def test_diagnostic_messages_are_whole_sentences_to_translate(module: str) -> None:
    """In these modules every diagnostic's message is a ``Msg`` (a whole sentence with
    named placeholders) or a value that is one, never an f-string or a fixed English
    string the catalogue cannot see."""
    path = next(p for p in source_files() if p.as_posix().endswith("tarotnotation/" + module))
    bad = [ast.unparse(a)[:60] for a in _message_args(path)
           if isinstance(a, ast.JoinedStr | ast.Constant | ast.BinOp)]
    assert not bad, bad


def test_french_words_and_agreement() -> None:
    """The issue's own sentence, from the rule's words (legality), and the lists."""
    hand = CardSet.of(Card.C2, Card.C5, Card.C8, Card.CJ, Card.CN, Card.T21)
    bad = why_illegal(Card.T21, hand, [Card.C10])
    assert bad is not None
    assert bad.message == ("Clubs led and the player holds Clubs: expected 2C, 5C, 8C, JC"
                           " or NC")
    assert render(bad.message, "fr") == ("renonce\xa0: Trèfle demandé, le joueur doit fournir"
                                            " (2♣, 5♣, 8♣, V♣ ou C♣)")
    assert render(and_list([Msg("the bouts"), Msg("the partner")]), "fr") == (
        "les bouts et le partenaire")
    assert render(or_list(["T4", "T9"]), "fr") == "atout\xa04 ou atout\xa09"


def test_a_diagnostic_in_french_keeps_its_code_place_and_card() -> None:
    d = Diagnostic.make(Code.MUST_FOLLOW_SUIT,
                        Msg("{suit} led and the player holds {suit}", suit=Msg("Hearts")),
                        trick=3, seat="E", card="7C").at(file="club.tarot", line=12, col=7,
                                                        deal=2)
    assert d.text("fr") == ("club.tarot:12:7: P105 erreur : donne 2, pli 3, siège E,"
                            " carte 7♣ : renonce : Cœur demandé, le joueur doit fournir")
    assert d.text("en") == str(d)
    assert d.to_dict()["message"] == "Hearts led and the player holds Hearts"
    assert type(d.to_dict()["message"]) is str


def test_a_message_survives_pickling_for_the_workers() -> None:
    m = Msg("{seat} does not hold {card}{where}", seat="E", card="KH",
            where=Msg(": it is in the chien"))
    back = pickle.loads(pickle.dumps(m))
    assert back == m
    assert back.render("fr") == "E n'a pas R♥ : elle est dans le chien"


def test_a_broken_translation_falls_back_to_english() -> None:
    po = 'msgid "deal {deal}"\nmsgstr "donne {numéro}"\n'
    assert PoTranslations(po).gettext("deal {deal}") == "donne {numéro}"
    translations.cache_clear()
    assert Msg("{x} y", x=1).render("fr") == "1 y"  # not in the catalogue: English


@pytest.mark.parametrize(("env", "lang"), [
    ({}, "en"),
    ({"LANG": "fr_FR.UTF-8"}, "fr"),
    ({"LANG": "fr_FR.UTF-8", "LC_MESSAGES": "en_US.UTF-8"}, "en"),
    ({"LANG": "en_US.UTF-8", "LC_ALL": "fr_BE.UTF-8"}, "fr"),
    ({"LC_ALL": "C", "LANG": "fr_FR"}, "en"),
    ({"LANG": "de_DE.UTF-8"}, "en"),
    ({"TAROT_LANG": "fr", "LC_ALL": "en_US.UTF-8"}, "fr"),
    ({"TAROT_LANG": "", "LANG": "fr_CA"}, "fr"),
])
def test_the_language_follows_tarot_lang_then_the_locale(env: dict[str, str],
                                                        lang: str) -> None:
    assert language_from_env(env) == lang


def test_french_validate_of_the_faulty_examples_is_as_reviewed() -> None:
    ran = invoke("validate", "--lang", "fr", *map(rel, FAULTY_FR))
    assert ran.code == 1
    expected = (FIXTURES / "validate-faulty.fr.txt").read_text(encoding="utf-8")
    assert ran.out == expected
    assert "renonce : Trèfle demandé, le joueur doit fournir (2♣, 5♣, 8♣, V♣ ou C♣)" in ran.out
    assert "R♣ à l'écart : attendu ni Roi ni bout" in ran.out


def test_french_causes_are_as_reviewed() -> None:
    """The one slip behind many faults (Y codes), in French, as reviewed."""
    ran = invoke("validate", "--lang", "fr", rel(ROOT / "tests" / "fixtures" / "causes"))
    expected = (FIXTURES / "validate-causes.fr.txt").read_text(encoding="utf-8")
    assert ran.out == expected
    assert "le pli 5 est écrit depuis O, mais N l'entame (N a gagné le pli 4)" in ran.out
    verbose = invoke("validate", "--lang", "fr", "-v",
                     rel(ROOT / "tests" / "fixtures" / "causes" /
                         "trick-written-from-the-wrong-seat.tarot")).out
    assert "[découle de Y001]" in verbose


@pytest.mark.parametrize("where", ["before", "after", "env", "locale"])
def test_lang_is_taken_anywhere_or_from_the_environment(where: str) -> None:
    path = rel(FAULTY / "revoke.tarot")
    args, env = {
        "before": (["--lang", "fr", "validate", path], None),
        "after": (["validate", path, "--lang=fr"], None),
        "env": (["validate", path], {"TAROT_LANG": "fr"}),
        "locale": (["validate", path], {"TAROT_LANG": "", "LC_ALL": "", "LC_MESSAGES": "",
                                        "LANG": "fr_FR.UTF-8"}),
    }[where]
    ran = invoke(*args, env=env)
    assert ran.code == 1
    assert "pli 3, siège S, carte atout 19 : renonce : Trèfle demandé" in ran.out
    assert "1 donne dans 1 fichier : 0 sans erreur, 1 avec erreurs" in ran.out
    # the language chosen ends with the run
    assert "deal 1, trick 3" in invoke("validate", path).out


def test_an_unknown_language_is_a_usage_error() -> None:
    ran = invoke("validate", rel(FAULTY / "revoke.tarot"), "--lang", "de")
    assert ran.code == 2
    assert "not a language" in ran.out + ran.err


@pytest.mark.parametrize("fmt", ["json", "jsonl", "junit", "github"])
def test_machine_outputs_do_not_change_with_the_language(fmt: str) -> None:
    paths = [rel(p) for p in sorted(FAULTY.glob("*.tarot"))]
    english = invoke("validate", "--format", fmt, *paths)
    french = invoke("validate", "--lang", "fr", "--format", fmt, *paths)
    assert english.code == french.code == 1
    assert french.out == english.out
    if fmt == "json":
        doc = orjson.loads(french.out)
        assert doc["deals"][1]["diagnostics"][0]["message"].startswith("Clubs led")


def test_usage_errors_in_french() -> None:
    # A path that names nothing is an F001 fault in its place (issue 12), in French too.
    ran = invoke("validate", "--lang", "fr", "no/such/file.tarot")
    assert ran.code == 2
    assert "no/such/file.tarot: F001 erreur : ni fichier ni dossier de ce nom" in ran.out
    ran = invoke("card", "--lang", "fr", "ZZ")
    assert ran.code == 2
    assert "tarot: 'ZZ' n'est pas un code de carte" in ran.err
    ran = invoke("validate", "--lang", "fr", "--ignore", "Z9", rel(FAULTY / "revoke.tarot"))
    assert ran.code == 2
    assert "aucun code de diagnostic ne commence par Z9" in ran.err


def test_score_json_does_not_change_with_the_language() -> None:
    path = rel(EXAMPLES / "score-sheet.tarot")
    assert (invoke("score", "--lang", "fr", "--format", "json", path).out
            == invoke("score", "--format", "json", path).out)


def _help(*args: str) -> str:
    ran = invoke(*args, "--help", env={"COLUMNS": "200"})
    assert ran.code == 0
    return ran.out


def test_every_command_has_its_help_in_french() -> None:
    """Each command's help differs in French, and shows the French words asked for."""
    from tarotnotation.cli.app import COMMANDS

    for name, *_ in COMMANDS:
        english, french = _help(name), _help("--lang", "fr", name)
        assert english != french, name
        assert "Options" in french
        # nor what click writes itself: the help of --help, the bracket after an option
        for click_says in ("Show this message and exit.", "default:", "[required]",
                           "env var:"):
            assert click_says not in french, (name, click_says)
        assert "Afficher ce message et quitter." in french, name
    assert "Valider chaque donne" in _help("--lang", "fr", "validate")
    assert "RC, qu'un joueur lirait Roi de Cœur" in " ".join(_help("--lang", "fr", "card").split())
    top = _help("--lang", "fr")
    assert "Commandes" in top
    assert "Show this message and exit." not in top
    assert "Valider, rejouer, marquer" in top
    assert "Validate every deal" in _help("validate")


def test_every_code_has_its_meaning_in_both_languages() -> None:
    """``tarot codes`` walks every diagnostic code: the same codes and names in both
    languages, each meaning translated, the severities in words."""
    english = invoke("codes").out.splitlines()
    french = invoke("--lang", "fr", "codes").out.splitlines()
    assert len(english) == len(french) == len(Code)
    for code, en, fr in zip(Code, english, french, strict=True):
        assert en.split()[0] == fr.split()[0] == code.value
        assert code.slug in en.split()
        assert code.slug in fr.split()
        assert en.endswith(code.summary)
        assert not fr.endswith(code.summary), code
        assert fr.split()[1] in ("erreur", "avertissement")


def test_french_help_texts_fit_an_80_column_terminal() -> None:
    """As the English ones do (tests/cli/test_cli.py): typer keeps the texts' line breaks.
    The examples' command lines are the same in both languages, so are left out."""
    import inspect

    import typer.main

    from tarotnotation.cli.app import app
    from tarotnotation.cli.language import localize

    group = typer.main.get_command(app)
    localize(group, "fr")
    for name, cmd in group.commands.items():  # type: ignore[attr-defined]
        for text in (cmd.help or "", cmd.epilog or ""):
            for line in inspect.cleandoc(text).splitlines():
                assert len(line) <= 76 or line.startswith("  tarot "), (name, line)


def _glossary() -> list[tuple[str, list[str]]]:
    """The French glossary of docs/rules.md: each row's English, and the French words the
    messages use (its middle column)."""
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    table = text.split("## French words", 1)[1]
    rows = []
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or cells[0] in ("English in this page", "---"):
            continue
        words = [w.strip().replace(" N", "") for w in cells[1].split(",") if w.strip()]
        rows.append((cells[0], words))
    return rows


def test_the_french_glossary_is_what_the_translations_say() -> None:
    """Every French word the glossary gives for the messages is one the catalogue uses
    (its translations, whole words), and the words said in a context are the glossary's:
    the camps, the cards, made and lost."""
    french = _french()
    said = "\n".join(v if isinstance(v, str) else "\n".join(v) for v in french.values())
    rows = _glossary()
    assert len(rows) > 25
    for english, words in rows:
        for word in words:
            assert re.search(rf"(?<!\w){re.escape(word)}(?!\w)", said, re.I), (english, word)
    glossary = dict(rows)
    assert render(Msg("Hearts"), "fr") in glossary["Spades, Hearts, Diamonds, Clubs"]
    from tarotnotation.i18n import pgettext

    assert pgettext("camp", "taker", "fr") in glossary["the taker's camp"]
    assert pgettext("camp", "defence", "fr") in glossary["defence, defender"]
    assert [pgettext("card", w, "fr") for w in ("King", "Queen", "Knight", "Jack")] == (
        glossary["King, Queen, Knight, Jack"])
    assert render(Msg("made by {margin}", margin=3), "fr") == "remplie de 3"
    assert render(Msg("lost by {margin}", margin=3), "fr") == "chutée de 3"
    assert "remplie de" in glossary["made / lost by N"]
    assert pgettext("bid", "pass", "fr") in glossary["auction, pass"]


def test_the_readmes_french_example_is_true() -> None:
    """The README shows one command and its output in French, verbatim: it is what the
    command prints."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## En français", 1)[1].split("\n## ", 1)[0]
    block = section.split("```console\n", 1)[1].split("```", 1)[0]
    command, _, shown = block.partition("\n")
    assert command.startswith("$ tarot ")
    ran = invoke(*command.removeprefix("$ tarot ").split())
    assert ran.code == 1
    assert ran.out == shown
    assert "0 bout," in section  # French plurals, as the catalogue says them


def test_a_message_with_a_context_or_a_plural_survives_pickling() -> None:
    """The workers send diagnostics back pickled: a word said in a context and a plural
    keep what makes them translate."""
    from tarotnotation.i18n import nmsg, pmsg

    for n, french in ((0, "0 bout"), (1, "1 bout"), (2, "2 bouts")):
        m = nmsg("{n} bout", "{n} bouts", n, n=n)
        assert pickle.loads(pickle.dumps(m)).render("fr") == french
    camp = pickle.loads(pickle.dumps(pmsg("camp", "taker")))
    assert (str(camp), camp.render("fr")) == ("taker", "l'attaque")
    nested = Msg(", the Excuse to the {camp}", camp=pmsg("camp", "defence"))
    assert pickle.loads(pickle.dumps(nested)).render("fr") == ", l'Excuse pour la défense"


def test_the_catalogue_writes_contexts_and_plurals_as_gettext_does() -> None:
    """``python -m tarotnotation.catalog`` writes ``msgctxt`` and ``msgid_plural`` entries
    that read back the same (the .po stays a standard gettext catalogue)."""
    from tarotnotation.catalog import Entry, po_text

    entries = [Entry(f"camp{CONTEXT_SEP}taker"), Entry("{n} bout", "{n} bouts")]
    text = po_text(entries, {f"camp{CONTEXT_SEP}taker": "l'attaque",
                             "{n} bout": ["{n} bout", "{n} bouts"]})
    assert 'msgctxt "camp"\nmsgid "taker"\nmsgstr "l\'attaque"' in text
    assert 'msgid "{n} bout"\nmsgid_plural "{n} bouts"\nmsgstr[0] "{n} bout"' in text
    back = {m: s for m, s, _, _ in read_po(text) if m}
    assert back == {f"camp{CONTEXT_SEP}taker": "l'attaque", "{n} bout": ["{n} bout", "{n} bouts"]}
    t = PoTranslations(text)
    assert [t.ngettext("{n} bout", "{n} bouts", n) for n in (0, 1, 2)] == [
        "{n} bout", "{n} bout", "{n} bouts"]
    assert t.pgettext("camp", "taker") == "l'attaque"
    assert t.gettext("taker") == "taker"  # the word without its context is another message
