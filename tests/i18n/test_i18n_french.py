"""French a club player is at ease with (issue 38): cards no French player can misread,
numbers as the French write them, French typography, the players' words, and no English
left in the catalogue, the help of every command, and what the commands print."""

from __future__ import annotations

import re
from pathlib import Path

import orjson
import pytest
from cli_runs import EXAMPLES, FAULTY, ROOT, invoke, rel
from frenchtext import (
    NBSP,
    decimal_points,
    english_words,
    misreadable_cards,
    typography_faults,
)

from tarotnotation.cards import Card, CardSet
from tarotnotation.cli.commands import COMMANDS
from tarotnotation.diagnostics import Code, quote
from tarotnotation.i18n import CONTEXT_SEP, Msg, catalog_path, comma_list, read_po, render
from tarotnotation.legality import why_illegal
from tarotnotation.lexicon import BIDS, CAMPS, MISERES, RESULT_ITEMS, SIZES, french_card
from tarotnotation.notation.cardcodes import parse_card, read_card


def _catalogue() -> list[tuple[str, str]]:
    """Every (msgid, French) of the catalogue, each plural form on its own."""
    out = []
    for msgid, msgstr, _, fuzzy in read_po(catalog_path("fr").read_text(encoding="utf-8")):
        if msgid and not fuzzy:
            for form in msgstr if isinstance(msgstr, list) else [msgstr]:
                out.append((msgid, form))
    return out


def test_the_catalogue_has_no_break_spaces_before_colons_and_inside_guillemets() -> None:
    """Every French message puts a no-break space before « : ; ? ! » and inside « »,
    so that a help text never wraps before a colon (« [par défaut⏎ : text] »)."""
    faults = [(msgid.rpartition(CONTEXT_SEP)[2], fault) for msgid, french in _catalogue()
              for fault in typography_faults(french)]
    assert faults == []


def test_the_catalogue_quotes_with_guillemets() -> None:
    """A word quoted in a French sentence is in « », not '…' (a command line to type, in
    an example, keeps the shell's quotes)."""
    quoted = [french for _, french in _catalogue()
              if any(q in french for q in ("'{name}'", "'{found}'", "'{path} --help'",
                                           "'pagat'", "'Tarot deals'", "('-')"))]
    assert quoted == []


def _help(*args: str) -> str:
    ran = invoke(*args, "--help")
    assert ran.code == 0, ran
    return ran.out


def test_lang_is_listed_in_each_commands_help() -> None:
    """``--lang`` is read anywhere on the command line: each command's help says so, not
    only ``tarot --help``, in both languages."""
    for entry in COMMANDS:
        assert "--lang LANG" in _help(entry.name), entry.name
        assert "Langue des messages affichés" in _help("--lang", "fr", entry.name), entry.name


def test_usage_options_and_commands_are_said_in_french() -> None:
    """« Utilisation : », « Options : », « Commandes : » (click writes "Usage:" itself);
    the English help is as before."""
    french = _help("--lang", "fr", "validate")
    assert french.startswith(f"Utilisation{NBSP}: tarot validate [OPTIONS] CHEMIN...")
    assert f"\nOptions{NBSP}:\n" in french
    assert f"\nArguments{NBSP}:\n" in french
    assert f"\nCommandes{NBSP}:\n" in _help("--lang", "fr")
    english = _help("validate")
    assert english.startswith("Usage: tarot validate [OPTIONS] PATH...")
    assert "\nOptions:\n" in english


def test_the_names_of_the_values_in_help_are_french() -> None:
    """Issue 38: no English word in French help, the names of the values included
    (``--output OUT``, ``PATH...``, ``--set SWITCH=VALUE``): FICHIER, CHEMIN, SORTIE..."""
    english = {"OUT", "PATH", "FILE", "LANG", "SWITCH", "VALUE", "PRESET", "SPEC", "TAG",
               "IN", "TEXT", "NODES", "MAPPING", "NAME", "DIR", "COMMAND", "ARGS", "MB",
               "NUMBER", "ADDRESS"}
    left = {}
    for args in [("--lang", "fr"), *(("--lang", "fr", e.name) for e in COMMANDS)]:
        words = set(re.findall(r"(?<![\w-])[A-Z]{2,}(?![\w-])", _help(*args))) & english
        if words:
            left[args[-1]] = sorted(words)
    assert left == {}
    solve = _help("--lang", "fr", "solve")
    assert "[OPTIONS] FICHIER" in solve
    assert "--budget NŒUDS" in solve
    assert "--set OPTION=VALEUR" in _help("--lang", "fr", "validate")
    assert "--budget NODES" in _help("solve")  # (English as before)


# --- cards no French player can misread -----------------------------------------------------


def test_french_output_writes_cards_with_symbols_and_french_ranks() -> None:
    """« (2♣, 5♣, 8♣, V♣ ou C♣) », « R♣ à l'écart »: ``2C`` read « 2 de Cœur » to a
    French player. English and the machine outputs keep the notation's codes."""
    args = (rel(FAULTY / "revoke.tarot"), rel(FAULTY / "wrong-ecart.tarot"))
    french = invoke("validate", "--lang", "fr", *args).out
    assert f"carte atout{NBSP}19{NBSP}: renonce{NBSP}: Trèfle demandé" in french
    assert "le joueur doit fournir (2♣, 5♣, 8♣, V♣ ou C♣)\n" in french
    assert "R♣ à l'écart" in french
    assert misreadable_cards(french) == []
    english = invoke("validate", *args).out
    assert "card T19: Clubs led and the player holds Clubs: expected 2C, 5C, 8C, JC or NC\n" \
        in english
    assert (invoke("validate", "--lang", "fr", "-f", "json", *args).out
            == invoke("validate", "-f", "json", *args).out)


def test_every_card_french_output_writes_reads_back() -> None:
    """What French output writes is a card the tools read: a plain card in the notation
    itself (``R♣`` is an alias of ``KC``), a trump or the Excuse in ``tarot card``."""
    for card in Card:
        said = french_card(card.code)
        assert said is not None
        assert read_card(said) is card, said
        if card.suit.is_plain:
            assert parse_card(said) is card, said
        assert misreadable_cards(said) == [], said


@pytest.mark.parametrize("word", ["RC", "dc", "CC", "Vc"])
def test_a_french_rank_letter_with_c_is_refused_with_an_explanation(word: str,
                                                                    tmp_path: Path) -> None:
    """``RC`` was the King of Clubs; a French player reads it Roi de Cœur. It is refused
    (S003) by the notation and ``tarot card``, saying how to write either card."""
    assert parse_card(word) is None
    deal = (FAULTY / "wrong-ecart.tarot").read_text(encoding="utf-8")
    path = tmp_path / "french-letters.tarot"
    path.write_text(deal.replace("ecart: 6H 8D 4C 6C JC KC", f"ecart: 6H 8D 4C 6C JC {word}"),
                    encoding="utf-8")
    ran = invoke("validate", "--lang", "fr", str(path))
    assert ran.code == 1
    rank = {"R": "R", "D": "D", "C": "C", "V": "V"}[word[0].upper()]
    assert (f"S003 erreur{NBSP}: donne 1{NBSP}: «{NBSP}{word}{NBSP}» est ambigu{NBSP}:"
            " la notation lit C"
            f" comme Trèfle, un joueur français comme Cœur{NBSP}; écrivez {rank}♣ ou") in ran.out
    english = invoke("validate", str(path)).out
    assert f"S003 error: deal 1: {word!r} is ambiguous: C is Clubs in the notation" in english
    card = invoke("card", word)
    assert (card.code, card.out) == (2, "")
    assert card.err.startswith(f"tarot: {word!r} is ambiguous")


def test_a_french_suit_initial_is_refused_with_how_to_write_it() -> None:
    """``DP`` (Dame de Pique) is no card of the notation: S003 says to write D♠ or QS."""
    ran = invoke("--lang", "fr", "card", "DP")
    assert ran.code == 2
    assert ran.err == ("tarot: «\xa0DP\xa0» n'est pas une carte de la notation\xa0: ses couleurs"
                       " s'écrivent S H D C ou ♠ ♥ ♦ ♣, pas avec les initiales"
                       " françaises\xa0; écrivez D♠ ou QS pour Pique\n")


def test_tarot_card_names_a_card_in_french() -> None:
    """« R♣ : Roi de Trèfle, 4,5 points » (not "KC: King of Clubs / Roi de Trèfle, 4.5
    points, a bout"); the French form is read too (« atout 21 »)."""
    assert invoke("--lang", "fr", "card", "KC").out == f"R♣{NBSP}: Roi de Trèfle, 4,5 points\n"
    assert invoke("--lang", "fr", "card", "atout 21").out == (
        f"atout{NBSP}21{NBSP}: 21 d'atout, 4,5 points, un bout\n")
    assert invoke("--lang", "fr", "card", "1C").out == f"1♣{NBSP}: 1 de Trèfle, 0,5 point\n"
    assert invoke("card", "KC").out == "KC: King of Clubs / Roi de Trèfle, 4.5 points\n"
    assert invoke("card", "T1").out == (
        "T1: the Petit (Trump 1) / le Petit, 4.5 points, a bout\n")


def test_seat_w_is_shown_as_o_in_french_output() -> None:
    """West is Ouest: O in French output; the notation and the machine outputs keep W."""
    french = invoke("validate", "--lang", "fr", rel(FAULTY / "wrong-score.tarot")).out
    assert f"siège O{NBSP}: O est marqué +88" in french
    english = invoke("validate", rel(FAULTY / "wrong-score.tarot")).out
    assert "seat W: W is recorded with +88" in english


def test_what_a_message_says_to_write_keeps_the_notations_words() -> None:
    """A slip's fix is typed into the record as it is: its cards stay the notation's."""
    causes = ROOT / "tests" / "fixtures" / "causes"
    ran = invoke("validate", "--lang", "fr",
                 rel(causes / "trick-written-from-the-wrong-seat.tarot"))
    assert f"écrivez ses cartes depuis N{NBSP}: NS QS T8 T15 (65 fautes en découlent)" in ran.out


# --- numbers, contracts and seats as the French write them ------------------------------------


def test_numbers_of_points_have_a_decimal_comma_in_french() -> None:
    """« 43,5 points », « 40,5 », « 28,6 % » (not 43.5, 40.5, 28.6%); English as before."""
    deal = rel(EXAMPLES / "excuse-last-trick.tarot")
    french = invoke("replay", "--lang", "fr", deal).out
    assert f"Prise par O{NBSP}: 43,5 points avec 2 bouts" in french
    assert "    40,5     47,5  la défense" in french
    assert decimal_points(french) == []
    assert "Prise by W: 43.5 points with 2 bouts" in invoke("replay", deal).out
    stats = invoke("stats", "--lang", "fr", *map(rel, sorted(EXAMPLES.glob("*.tarot")))).out
    assert f"prise 7 (28,6{NBSP}% réussies)" in stats
    assert decimal_points(stats) == []


def test_the_score_sheet_names_contracts_in_words() -> None:
    """« garde sans » in ``score``'s table, not the notation's keyword ``garde_sans``;
    West is O there too."""
    sheet = rel(EXAMPLES / "score-sheet.tarot")
    french = invoke("score", "--lang", "fr", sheet).out
    assert "      5  garde sans  E            47" in french
    assert "      2  prise       O            34" in french
    assert "garde_sans" not in french
    english = invoke("score", sheet).out
    assert "     5  garde_sans  E          47" in english
    assert (invoke("score", "--lang", "fr", "--format", "json", sheet).out
            == invoke("score", "--format", "json", sheet).out)


def test_a_french_replay_writes_cards_and_seats_as_a_player_reads_them() -> None:
    """The hands, the écart and every trick in French: « E atout 20, N atout 21, O atout 7,
    S atout 15 », the table's columns aligned; the English replay as before."""
    deal = rel(EXAMPLES / "annotated.tarot")
    french = invoke("replay", "--lang", "fr", deal).out
    trump = f"{NBSP}atout{NBSP}"
    assert f"   1.   E{trump}20, N{trump}21, O{trump}7, S{trump}15" in french
    assert f"  O (David Moreau)   1♠ 8♠ 1♥ 2♥ 3♥ 4♥ 8♥ 9♥ V♥ 4♦ V♦ C♦ 5♣ atout{NBSP}3" in french
    assert "  S +64, E +64, N -192, O +64\n" in french
    assert misreadable_cards(french) == []
    lines = french.splitlines()
    head = next(line for line in lines if line.startswith("Jeu "))
    first = next(line for line in lines if line.startswith("   1. "))
    assert head.index("gagne") <= first.index(" N  ") + 1 < head.index("gagne") + 6
    english = invoke("replay", deal).out
    assert "   1.   E:T20 N:T21 W:T7 S:T15         N           6       6        0  taker" in english


# --- the players' words ----------------------------------------------------------------------


def _why(hand: str, trick: str, card: str) -> str:
    illegal = why_illegal(Card.from_code(card), CardSet.parse(hand),
                          [Card.from_code(c) for c in trick.split()])
    assert illegal is not None
    return render(illegal.message, "fr")


def test_p105_says_renonce_and_fournir() -> None:
    assert _why("2C 5C T4", "KC", "T4") == (
        f"renonce{NBSP}: Trèfle demandé, le joueur doit fournir (2♣ ou 5♣)")


def test_p106_says_couper_without_chained_colons() -> None:
    said = _why("2H T4 T9", "KC", "2H")
    assert said == ("ne peut pas fournir à Trèfle et a de l'atout, il doit couper"
                    f" (atouts permis{NBSP}: atout{NBSP}4 ou atout{NBSP}9)")
    assert said.count(":") == 1


def test_p107_says_monter_when_trumps_are_led_and_surcouper_on_a_plain_suit() -> None:
    assert ", il doit monter (" in _why("T4 T19", "T10", "T4")
    assert "il doit surcouper (" in _why("2H T4 T19", "KC T10", "T4")
    assert "monter" not in _why("2H T4 T19", "KC T10", "T4")


def test_k103_says_a_queen_when_the_taker_holds_the_four_kings() -> None:
    meaning = render(Msg(Code.CALL_WRONG_RANK.summary), "fr")
    assert "(ou une Dame si le preneur a les quatre Rois" in meaning
    said = render(Msg("{called} cannot be called: expected a King (or a Queen, Knight or Jack"
                      " when holding every higher card)", called="T4"), "fr")
    assert "attendu un Roi (ou une Dame si le preneur a les quatre Rois" in said


def test_r201_r204_r205_say_inferieurs_and_superieurs_a() -> None:
    codes = {line.split()[0]: line for line in invoke("--lang", "fr", "codes").out.splitlines()}
    assert "sont inférieurs à 0 ou supérieurs à 91" in codes["R201"]
    assert "sont inférieurs à ce que" in codes["R204"]
    assert "sont supérieurs à ce que" in codes["R205"]


def test_ne_rien_ecrire_and_tete_with_its_accent() -> None:
    fmt = " ".join(_help("--lang", "fr", "fmt").split())
    assert "Ne rien écrire" in fmt
    assert "N'écrire rien" not in fmt
    for msgid, french in _catalogue():
        if "tete" in french:
            assert "tete (misère de tête)" in french or "tete pour la misère de tête" in french, \
                msgid


def test_the_called_king_is_named_as_players_say_it() -> None:
    """« appelle le Roi de Carreau ; l'appelé est O », not « appelle KD : appelé : W »."""
    french = invoke("replay", "--lang", "fr", rel(EXAMPLES / "five-players.tarot")).out
    assert f"  appelle le Roi de Carreau{NBSP}; l'appelé est O (Karine Lambert)\n" in french
    english = invoke("replay", rel(EXAMPLES / "five-players.tarot")).out
    assert "  calls KD: partner W (Karine Lambert)\n" in english


def test_suits_are_capitalised_one_way() -> None:
    """A suit's name is capitalised in every French message, as the glossary writes it
    (« à Pique », « de Trèfle »; « un par cœur » is no suit)."""
    assert [render(Msg(s), "fr") for s in ("spades", "hearts", "diamonds", "clubs")] == [
        "Pique", "Cœur", "Carreau", "Trèfle"]
    lower = re.compile(r"\b(?:à|de|du|en) (pique|cœur|carreau|trèfle)s?(?!\w)")
    assert [french for _, french in _catalogue() if lower.search(french)] == []


def test_html_help_names_the_index_title_in_french() -> None:
    help_ = " ".join(_help("--lang", "fr", "html").split())
    assert "sinon « Donnes de tarot »" in help_  # (split() takes the no-break spaces too)
    assert "Tarot deals" not in help_


# --- done when: what a French reader finds nowhere --------------------------------------------

#: The faulty and clean records the outputs are read on.
_DEALS = [rel(FAULTY / name) for name in ("revoke.tarot", "wrong-ecart.tarot",
                                          "wrong-score.tarot", "false-poignee.tarot")]
_REPLAYED = [rel(EXAMPLES / name) for name in ("annotated.tarot", "excuse-last-trick.tarot",
                                               "five-players.tarot", "misere.tarot")]
#: The query language's keywords (docs/query.md) and a written position's fields
#: (docs/analysis.md): typed as they are, in both languages.
_TYPED = frozenset({"and", "or", "not", "has", "taker", "partner", "lead", "trick", "won",
                    "tricks", "contract", "rules"})


def _identifiers() -> frozenset[str]:
    """What the help and ``tarot codes`` name as one types it, the same in both languages
    (the documented allow-list): the commands, their options' choices, the query
    language's fields and keywords, a written position's fields, the JSON format's
    fields (from ``tarot schema``)."""
    import typer.main

    from tarotnotation.archives.query import FIELDS
    from tarotnotation.cli.app import app

    group = typer.main.get_command(app)
    words = {entry.name for entry in COMMANDS} | set(FIELDS) | _TYPED
    for name in group.commands:  # type: ignore[attr-defined]
        for param in group.commands[name].params:  # type: ignore[attr-defined]
            words.update(str(c) for c in getattr(getattr(param, "type", None), "choices", ()) or ())
    words.update(orjson.loads(invoke("schema").out)["properties"])
    words.update(*(table for table in (BIDS, CAMPS, MISERES, SIZES, RESULT_ITEMS)))
    return frozenset(words)


def _outputs() -> dict[str, str]:
    """What the French commands print (standard output and error)."""
    runs: dict[str, tuple[str, ...]] = {
        "validate": ("validate", *_DEALS),
        "score": ("score", rel(EXAMPLES / "score-sheet.tarot"),
                  rel(EXAMPLES / "five-players.tarot")),
        "rules": ("rules",),
        "legal": ("legal", rel(FAULTY / "revoke.tarot"), "--trick", "3", "--card", "3"),
        **{f"replay {deal}": ("replay", deal) for deal in _REPLAYED},
        **{f"card {code}": ("card", code) for code in ("KC", "T1", "T21", "EX", "1C", "QS")},
    }
    out = {}
    for name, args in runs.items():
        ran = invoke("--lang", "fr", *args)
        out[name] = ran.out + ran.err
    return out


#: What of a page's data a person reads (the rest is codes, cards and numbers, which the
#: script shows as faces and with the page's decimal separator): the diagnostics' and the
#: analysis' words, the score's lines.
_DATA_WORDS = frozenset({"msg", "note", "after", "score"})


def _data_words(value: object, key: str = "") -> list[str]:
    if isinstance(value, dict):
        return [w for k, v in value.items() for w in _data_words(v, k)]
    if isinstance(value, list):
        return [w for v in value for w in _data_words(v, key)]
    return [value] if key in _DATA_WORDS and isinstance(value, str) else []


def _page_text(tmp_path: Path) -> str:
    """French deal pages' words (a plain deal, a faulty one, an analysed one): their text,
    the words their script shows, and the words of their data (:data:`_DATA_WORDS`)."""
    import html

    shown = []
    for source in (EXAMPLES / "annotated.tarot", FAULTY / "revoke.tarot",
                   ROOT / "tests" / "fixtures" / "html" / "analysed-deal.tarot"):
        page = tmp_path / f"{source.stem}.html"
        ran = invoke("--lang", "fr", "html", rel(source), "-o", str(page))
        assert ran.code == (1 if source.parent == FAULTY else 0), ran  # (1: faults found)
        text = page.read_text(encoding="utf-8")
        scripts = dict(re.findall(r'<script type="application/json" id="(tarot-\w+)">(.*?)'
                                  r"</script>", text, flags=re.S))
        said = orjson.loads(scripts["tarot-words"])
        body = re.sub(r"<script.*?</script>|<style.*?</style>", " ", text, flags=re.S)
        shown.append(html.unescape(re.sub(r"<[^>]+>", " ", body)))
        for value in said.values():
            shown += [v for v in (value if isinstance(value, list) else [value])
                      if isinstance(v, str) and v not in (",", ".")]
        shown += _data_words(orjson.loads(scripts["tarot-data"]))
    return "\n".join(shown)


def test_a_french_reader_finds_no_english_word_decimal_point_misreadable_card_or_missing_space(
        tmp_path: Path) -> None:
    """The issue's "done when": the catalogue, ``--help`` of every registered command,
    ``validate``, ``replay``, ``score``, ``rules``, ``card``, ``codes``, ``legal`` and a
    page, in French, hold no English word (tests/support/frenchtext.py's list; proper nouns,
    codes and what one types are not words of it), no decimal point, no card in the
    notation's letters (the help describes the notation's input, so only its misread
    forms count there), and no missing no-break space before « : ; ? ! » or inside « »."""
    typed = _identifiers()
    faults: list[tuple[str, str, list[str]]] = []

    def check(where: str, text: str, *, cards: bool, allowed: frozenset[str] = frozenset()
              ) -> None:
        english = [w for w in english_words(text) if w.lower() not in allowed]
        for kind, found in (("english", english), ("decimal", decimal_points(text)),
                            ("card", misreadable_cards(text) if cards else []),
                            ("typography", typography_faults(text))):
            if found:
                faults.append((where, kind, found))
        if "Usage:" in text:
            faults.append((where, "english", ["Usage:"]))

    for msgid, french in _catalogue():
        check(f"catalogue {msgid[:40]!r}", french, cards=False, allowed=typed)
    check("tarot --help", _help("--lang", "fr"), cards=False, allowed=typed)
    for entry in COMMANDS:
        check(f"tarot {entry.name} --help", _help("--lang", "fr", entry.name), cards=False,
              allowed=typed)
    check("codes", invoke("--lang", "fr", "codes").out, cards=False, allowed=typed)
    for where, text in _outputs().items():
        check(where, text, cards=True)
    check("page", _page_text(tmp_path), cards=True)
    assert faults == []


def test_a_french_page_shows_french_card_letters_seats_and_decimal_commas() -> None:
    """The page's script is given what a card's face, a seat and a number show: a King is
    R, West is O, 40.5 is 40,5 in French (the data, codes and numbers, stays the
    English page's)."""
    from tarotnotation.html.words import page_words

    french, english = page_words("fr"), page_words("en")
    assert [french[f"letter.{r}"] for r in "JNQK"] == ["V", "C", "D", "R"]
    assert (french["seat.W"], french["decimal"]) == ("O", ",")
    assert [english[f"letter.{r}"] for r in "JNQK"] == ["J", "N", "Q", "K"]
    assert (english["seat.W"], english["decimal"]) == ("W", ".")
    script = (ROOT / "tarotnotation" / "html" / "tarot.js").read_text(encoding="utf-8")
    assert 'text.replace(".", say("decimal"))' in script
    assert 'label: WORDS["letter." + r] || r' in script


@pytest.mark.parametrize("args", [
    ("convert", "examples/annotated.tarot", "--to", "tarot", "-o", "-"),
    ("convert", "examples/annotated.tarot", "--to", "json", "-o", "-"),
    ("query", "examples/annotated.tarot", "--format", "jsonl"),
    ("stats", "examples/annotated.tarot", "--format", "json"),
    ("standings", "examples/annotated.tarot", "--format", "json"),
    ("new", "--players", "5", "--seed", "7"),
    ("dedupe", "examples/annotated.tarot", "-o", "-"),
    ("validate", "examples/faulty/revoke.tarot", "--format", "jsonl"),
], ids=lambda args: " ".join(args[:2]))
def test_machine_outputs_stay_byte_identical_in_french(args: tuple[str, ...]) -> None:
    """The notation, JSON and JSON Lines a command writes are the same bytes whatever the
    language: cards stay KC and T21, West stays W, 40.5 stays 40.5."""
    english, french = invoke(*args), invoke("--lang", "fr", *args)
    assert english.out
    assert (french.code, french.out) == (english.code, english.out)


def test_a_quoted_value_is_in_guillemets_in_french() -> None:
    """« 1OS » n'est pas une carte (not '1OS'); the English, and a message sent to the
    workers of -j and back, as before."""
    import pickle

    ran = invoke("validate", "--lang", "fr", rel(FAULTY / "syntax-error.tarot"))
    assert f"S003 erreur{NBSP}: donne 1{NBSP}: «{NBSP}1OS{NBSP}» n'est pas une carte" in ran.out
    english = invoke("validate", rel(FAULTY / "syntax-error.tarot")).out
    assert "S003 error: deal 1: '1OS' is not a card" in english
    message = pickle.loads(pickle.dumps(Msg("{code} is not a card code: expected a card such"
                                            " as 7H, KS, T21 or EX", code=quote("ZZ"))))
    assert str(message).startswith("'ZZ' is not a card code")
    assert message.render("fr").startswith(f"«{NBSP}ZZ{NBSP}» n'est pas un code de carte")
    assert render(quote("\x1b[2J"), "fr") == f"«{NBSP}\\x1b[2J{NBSP}»"  # escaped, as in English


def test_a_list_of_seats_shows_o_for_west_in_french(tmp_path: Path) -> None:
    """A list of seats said in one value (M001's « sièges : S, E, N, W », the scores of a
    deal, the poignées, the order of play) shows West as O, each seat as the run's language
    writes it; the English list is as before."""
    path = tmp_path / "dealer.jsonl"
    path.write_text('{"players":4,"dealer":"X"}\n', encoding="utf-8")
    french = invoke("validate", "--lang", "fr", str(path)).out
    assert f"(sièges{NBSP}: S, E, N, O)" in french
    assert "(seats: S, E, N, W)" in invoke("validate", str(path)).out
    scores = Msg("the scores ({listed}) are not shared as a deal is at 5 players: each defender"
                 " pays the same, the taker gets 4 times that alone, or 2 times with a partner"
                 " who gets as much (docs/rules.md §10)",
                 listed=comma_list([Msg("{seat} {score}", seat=s, score=v)
                                    for s, v in (("S", "+40"), ("W", "-10"))]))
    assert "(S +40, O -10)" in scores.render("fr")
    assert "(S +40, W -10)" in scores


def test_a_long_quoted_text_is_cut_in_guillemets_in_french() -> None:
    """A text of more than 40 characters is quoted cut, with its length: « 999… »
    (5 000 caractères) in French, '999…' (5,000 characters) in English as before."""
    long = quote("9" * 5000)
    assert long == "'" + "9" * 40 + "…' (5,000 characters)"
    assert render(long, "fr") == f"«{NBSP}{'9' * 40}…{NBSP}» (5\u202f000 caractères)"
    assert render(quote("x" * 41), "fr").endswith(f"x…{NBSP}» (41 caractères)")


def _analyses(value: object) -> list[object]:
    """Every analysis (``"a"``) of a page's data."""
    if isinstance(value, dict):
        own = [value["a"]] if "a" in value else []
        return own + [a for v in value.values() for a in _analyses(v)]
    if isinstance(value, list):
        return [a for v in value for a in _analyses(v)]
    return []


def test_a_record_annotated_in_french_reads_back_as_one_annotated_in_english(
        tmp_path: Path) -> None:
    """``tarot --lang fr annotate`` writes its computed comments for people, in French
    (« O gagne pour la défense »); what programs read back of computed comments, the
    analysis' ``tarot: dd …``, is written the same in every language: a record annotated
    in French, then analysed, reads back in ``replay --analysis`` and in a page's data as
    the one annotated in English."""
    from tarotnotation.html import deal_data, read_sources

    runs = {}
    for lang in ("en", "fr"):
        annotated, analysed = tmp_path / f"annotated-{lang}.tarot", tmp_path / f"{lang}.tarot"
        assert invoke("--lang", lang, "annotate", rel(EXAMPLES / "analysis.tarot"), "-o",
                      str(annotated)).code == 0
        assert invoke("--lang", lang, "analyze", str(annotated), "--from-trick", "13", "-o",
                      str(analysed)).code == 0
        replay = invoke("replay", "--analysis", str(analysed)).out
        data = [deal_data(src) for src in read_sources([str(analysed)])]
        runs[lang] = (analysed.read_text(encoding="utf-8"), replay, _analyses(data))
    (english, en_replay, en_data), (french, fr_replay, fr_data) = runs["en"], runs["fr"]
    assert "O gagne pour la défense" in french
    assert "W wins (defence)" in english
    assert french.count("{tarot: dd ") == english.count("{tarot: dd ") > 1

    def analysis_lines(replay: str) -> list[str]:  # (the annotations' lines left out)
        return [line for line in replay.splitlines() if "{tarot: " not in line
                or "{tarot: dd " in line]

    assert analysis_lines(fr_replay) == analysis_lines(en_replay)
    assert len(fr_data) > 1
    assert fr_data == en_data
