"""French a club player is at ease with (issue 38): cards no French player can misread,
numbers as the French write them, French typography, the players' words, and no English
left in the catalogue, the help of every command, and what the commands print."""

from __future__ import annotations

from frenchtext import english_words, typography_faults

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
