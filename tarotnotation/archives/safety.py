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
import re
import unicodedata
from typing import Final

from ..formats.csvcell import protected

__all__ = ["for_csv", "for_html", "for_terminal", "ljust", "rjust", "sort_key", "width"]

# C0 and C1 controls, DEL, and the Unicode marks that reorder text (bidi overrides and
# isolates), which can make a line read other than it is.
_UNSAFE: Final = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def for_terminal(text: str) -> str:
    """``text`` with control characters and text-reordering marks written as escapes
    (``\\x1b``, ``\\u202e``): what is printed is what the text holds, nothing runs."""
    return _UNSAFE.sub(_escape, text)


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
