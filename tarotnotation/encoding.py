"""Input that is not UTF-8: one clear message, with the byte offset and how to convert.

Every format the library reads is UTF-8. Bytes that are not are never guessed at: the
record (the text record, the JSON Lines line, the JSON or TarotClub file) gets one S007
error that names the first bad byte and its offset, and, when the bytes plainly read as
Latin-1 or cp1252 (every byte above 127 a letter or common punctuation there), or look
like UTF-16, the ``iconv`` command that converts the file. The reader then goes on with
the next record.

>>> raw = "[Event \\"Club de Sète\\"]".encode("latin-1")
>>> try:
...     raw.decode("utf-8")
... except UnicodeDecodeError as err:
...     message, col = not_utf8(raw, err, 100)
>>> col
18
>>> message.split("; ")[0]
'the text is not valid UTF-8: byte 0xE8 at byte offset 117 cannot be read'
>>> message.split("; ")[1].split(": ")[0]
"it reads as Latin-1 ('Sète')"
>>> message.split(", e.g. ")[1]
'iconv -f latin1 -t utf-8 FILE > FILE.utf8'
"""

from __future__ import annotations

import re
from typing import Final

from .i18n import Msg, Quoted

__all__ = ["first_bad_byte", "looks_utf16", "not_utf8", "single_byte_guess"]

_CP1252_ONLY: Final = frozenset(range(0x80, 0xA0)) - {0x81, 0x8D, 0x8F, 0x90, 0x9D}
_C1: Final = frozenset(range(0x80, 0xA0))
_PLAIN_EXTRA: Final = frozenset("«»€‘’‚“”„–—…°·•§£¥©®±×÷¿¡ªº²³µ¹¼½¾™\u00a0")
_UTF8_PAIR: Final = re.compile(rb"[\xc2-\xf4][\x80-\xbf]")
_WORD_BEFORE: Final = re.compile(r"[^\s\"{}\[\]()]*\Z")
_WORD_AFTER: Final = re.compile(r"[^\s\"{}\[\]()]*")


def single_byte_guess(raw: bytes) -> str | None:
    """``latin1`` or ``cp1252`` when bytes that are not UTF-8 plainly read as that, else None.

    Plainly: every byte above 127 is a letter or common punctuation in that encoding, and
    none is a UTF-8 lead byte followed by a continuation byte (broken UTF-8, or UTF-8
    encoded twice, is not plain Latin-1).

    >>> single_byte_guess("Club de Sète".encode("latin-1"))
    'latin1'
    >>> single_byte_guess("l’été".encode("cp1252")), single_byte_guess(b"\\x81\\x00\\xff")
    ('cp1252', None)
    """
    high = {b for b in raw if b >= 0x80}
    if b"\x00" in raw or high & (_C1 - _CP1252_ONLY) or _UTF8_PAIR.search(raw):
        return None  # NULs, bytes no text uses, or UTF-8 broken (or encoded twice)
    name = "cp1252" if high & _CP1252_ONLY else "latin1"
    text = raw.decode(name)
    if all(ch.isalpha() or ch in _PLAIN_EXTRA for ch in text if ord(ch) >= 0x80):
        return name
    return None


def not_utf8(raw: bytes, err: UnicodeDecodeError, offset: int = 0) -> tuple[str, int]:
    """The S007 message for ``raw`` (which starts at byte ``offset`` of its file) and the
    1-based column (in characters, on its line) of its first byte that is not UTF-8."""
    line_start = raw.rfind(b"\n", 0, err.start) + 1
    col = len(raw[line_start:err.start].decode("utf-8", "replace")) + 1
    byte, at = f"{raw[err.start]:02X}", offset + err.start
    if looks_utf16(raw):
        return Msg("the text is not valid UTF-8: byte 0x{byte} at byte offset {offset} cannot"
                   " be read; it looks like UTF-16: convert the file to UTF-8, e.g. iconv -f"
                   " utf-16 -t utf-8 FILE > FILE.utf8", byte=byte, offset=at), col
    guess = single_byte_guess(raw)
    if guess is not None:
        m = _WORD_BEFORE.search(raw[max(0, err.start - 40):err.start].decode(guess))
        n = _WORD_AFTER.match(raw[err.start:err.start + 40].decode(guess))
        word = (m.group() if m else "") + (n.group() if n else "")
        return Msg("the text is not valid UTF-8: byte 0x{byte} at byte offset {offset} cannot"
                   " be read; it reads as {encoding} ({word}): convert the file to UTF-8, e.g."
                   " iconv -f {guess} -t utf-8 FILE > FILE.utf8", byte=byte, offset=at,
                   encoding="Latin-1" if guess == "latin1" else "cp1252", word=Quoted(word),
                   guess=guess), col
    return Msg("the text is not valid UTF-8: byte 0x{byte} at byte offset {offset} cannot be"
               " read", byte=byte, offset=at), col


def looks_utf16(raw: bytes) -> bool:
    """Bytes that look like UTF-16 text: a UTF-16 byte-order mark, or NULs in a quarter of
    them (ASCII in UTF-16 is every other byte NUL).

    >>> looks_utf16("Donne;Preneur".encode("utf-16")), looks_utf16(b"Donne;Preneur")
    (True, False)
    """
    return raw.startswith((b"\xff\xfe", b"\xfe\xff")) or raw.count(b"\x00") * 4 > len(raw)


def first_bad_byte(raw: bytes) -> UnicodeDecodeError | None:
    """The error of decoding ``raw`` as UTF-8, or None when it is valid UTF-8."""
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as err:
        return err
    return None
