"""French a club player is at ease with (issue 38): cards no French player can misread,
numbers as the French write them, French typography, the players' words, and no English
left in the catalogue, the help of every command, and what the commands print."""

from __future__ import annotations

from frenchtext import NBSP, english_words, typography_faults
from test_cli import invoke

from tarotnotation.cli.commands import COMMANDS
from tarotnotation.i18n import CONTEXT_SEP, catalog_path, read_po


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
    assert french.startswith(f"Utilisation{NBSP}: tarot validate [OPTIONS] PATH...")
    assert f"\nOptions{NBSP}:\n" in french
    assert f"\nArguments{NBSP}:\n" in french
    assert f"\nCommandes{NBSP}:\n" in _help("--lang", "fr")
    english = _help("validate")
    assert english.startswith("Usage: tarot validate [OPTIONS] PATH...")
    assert "\nOptions:\n" in english
