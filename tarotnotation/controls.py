"""Text with every character a terminal would obey written as a visible escape: the one
escaping function of everything ``tarot`` prints for people (the command line's
:func:`cli.terminal.safe`, the archive tools' :func:`tarotnotation.archives.safety.for_terminal`
are this function).

Records, file names and arguments come from people and other programs: a tag, a comment,
a player's name or a file name may hold control characters, and a terminal obeys them
(``ESC ] 52`` writes the clipboard, ``ESC ] 0`` the window title, ``ESC [ 2J`` clears the
screen, bidirectional overrides reorder what is read, a line separator starts a line).

>>> escaped("Club\\x1b]52;c;aGk=\\x07 de Lyon")
'Club\\\\x1b]52;c;aGk=\\\\x07 de Lyon'
>>> escaped("line\\nbreak\\ttab \\u202eevil\\u2028"), escaped("Sète ♥ 東京")
('line\\\\nbreak\\\\ttab \\\\u202eevil\\\\u2028', 'Sète ♥ 東京')
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["escaped"]

# C0 and C1 controls, DEL, the line and paragraph separators, and the bidirectional
# formatting characters (embeddings, overrides, isolates, marks).
_UNSAFE: Final = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_NAMED: Final = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _escape(match: re.Match[str]) -> str:
    ch = match.group()
    named = _NAMED.get(ch)
    if named is not None:
        return named
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escaped(text: str) -> str:
    """``text`` with every character a terminal would obey (controls, bidirectional
    overrides, line separators) written as a visible escape (``\\x1b``, ``\\n``,
    ``\\u202e``)."""
    return _UNSAFE.sub(_escape, text) if _UNSAFE.search(text) else text
