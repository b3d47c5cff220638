"""User strings made safe for where they go: a terminal, a spreadsheet, a web page.

A record's tags, names and comments are whatever its author typed, or whatever an attacker
wrote: escape sequences that rewrite a terminal's title or clipboard, formulas that a
spreadsheet runs, markup that a browser runs. Every archive tool passes user strings
through one of these before they leave.

>>> for_terminal("Alice\\x1b]52;c;ZXZpbA==\\x07 Martin")
'Alice\\\\x1b]52;c;ZXZpbA==\\\\x07 Martin'
>>> for_terminal("Chloé\\u202eevil")
'Chloé\\\\u202eevil'
>>> for_csv("=HYPERLINK(\\"http://x\\")"), for_csv("-12"), for_csv("Bruno")
('\\'=HYPERLINK("http://x")', '-12', 'Bruno')
>>> for_html('<b>"Tom" & Jerry</b>')
'&lt;b&gt;&quot;Tom&quot; &amp; Jerry&lt;/b&gt;'
"""

from __future__ import annotations

import html
import unicodedata

from ..controls import escaped
from ..formats.csvcell import protected

__all__ = ["for_csv", "for_html", "for_terminal", "ljust", "rjust", "sort_key", "width"]

#: ``text`` with control characters, line separators and text-reordering marks written
#: as escapes (``\\x1b``, ``\\n``, ``\\u202e``): what is printed is what the text holds,
#: nothing runs. The one escaping function (:func:`tarotnotation.controls.escaped`),
#: which the command line's ``safe`` is too.
for_terminal = escaped


def for_csv(text: str) -> str:
    """A cell of a table a spreadsheet shows and never runs: the CSV writer's one rule
    (:func:`tarotnotation.formats.csvcell.protected`: a text that starts like a formula
    gets a leading ``'``, numbers are left alone), then control characters escaped."""
    return for_terminal(protected(text))


def for_html(text: str) -> str:
    """``text`` for an HTML page (text or a quoted attribute), control characters
    escaped too."""
    return html.escape(for_terminal(text), quote=True)


def width(text: str) -> int:
    """The columns ``text`` takes on a terminal: wide characters count two, combining
    marks none.

    >>> width("Chloé"), width("Chloe\u0301"), width("王芳")
    (5, 5, 4)
    """
    total = 0
    for char in text:
        if unicodedata.combining(char):
            continue
        total += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return total


def ljust(text: str, columns: int) -> str:
    """``text`` padded on the right to ``columns`` visible columns."""
    return text + " " * max(0, columns - width(text))


def rjust(text: str, columns: int) -> str:
    """``text`` padded on the left to ``columns`` visible columns."""
    return " " * max(0, columns - width(text)) + text


def sort_key(text: str) -> tuple[str, str]:
    """A key that sorts names as people expect: case and accents second.

    >>> sorted(["Élodie", "luc", "Emma", "Alice"], key=sort_key)
    ['Alice', 'Élodie', 'Emma', 'luc']
    """
    plain = "".join(c for c in unicodedata.normalize("NFD", text)
                    if not unicodedata.combining(c))
    return plain.casefold(), text
