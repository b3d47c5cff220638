"""Text made safe for a terminal, and its width as a terminal shows it.

Records, file names and arguments come from people and other programs: a tag, a comment,
a player's name or a file name may hold control characters, and a terminal obeys them
(``ESC ] 52`` writes the clipboard, ``ESC ] 0`` the window title, ``ESC [ 2J`` clears the
screen, bidirectional overrides reorder what is read). :func:`safe` shows every such
character escaped, visibly, instead; every command prints user text through it (through
:func:`cli.common.style`, :func:`cli.common.echo` and the reports). Alignment takes the
width a terminal gives (:func:`width`): wide characters take two columns, combining marks
none.

>>> safe("Club\\x1b]52;c;aGk=\\x07 de Lyon")
'Club\\\\x1b]52;c;aGk=\\\\x07 de Lyon'
>>> safe("line\\nbreak\\ttab \\u202eevil"), safe("Sète ♥ 東京")
('line\\\\nbreak\\\\ttab \\\\u202eevil', 'Sète ♥ 東京')
>>> width("東京"), width("e\\u0301"), ljust("東京", 5) + "|"
(4, 1, '東京 |')
"""

from __future__ import annotations

import unicodedata

from tarotnotation.controls import escaped
from tarotnotation.i18n import Msg, render

__all__ = ["ljust", "rjust", "safe", "width"]

#: ``text`` with every character a terminal would obey (controls, bidirectional
#: overrides) written as a visible escape (``\\x1b``, ``\\n``, ``\\u202e``): the one
#: escaping function (:func:`tarotnotation.controls.escaped`), which the archive tools'
#: ``for_terminal`` is too.
safe = escaped


def safe_message(message: str) -> str:
    r"""A message in the run's language, made safe for a terminal (:func:`safe`). A
    :class:`~tarotnotation.i18n.Msg` whose own template spans lines (an expression and a
    caret under its fault) keeps those line breaks: its values are made safe one by one,
    and the template is the program's own text.

    >>> safe_message(Msg("bad: {what}\n  {caret}", what="a\nb", caret="^"))
    'bad: a\\nb\n  ^'
    >>> safe_message("a\nb")
    'a\\nb'
    """
    if not isinstance(message, Msg) or "\n" not in message.template:
        return safe(render(message))
    values = {k: safe(v.render() if isinstance(v, Msg) else str(v))
              for k, v in message.params.items()}
    said = Msg(message.template, **values)
    said.context, said.plural, said.plural_n = message.context, message.plural, message.plural_n
    return said.render()


def width(text: str) -> int:
    """The columns ``text`` takes on a terminal: 2 for wide characters, 0 for combining
    marks and other zero-width ones, 1 for the rest."""
    if text.isascii():
        return len(text)
    total = 0
    for ch in text:
        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            continue
        total += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return total


def ljust(text: str, columns: int) -> str:
    """``text`` padded with spaces on the right to ``columns`` terminal columns."""
    return text + " " * max(0, columns - width(text))


def rjust(text: str, columns: int) -> str:
    """``text`` padded with spaces on the left to ``columns`` terminal columns."""
    return " " * max(0, columns - width(text)) + text
