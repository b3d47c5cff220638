"""Which format a file holds, from its content (its name is only a fallback).

Five formats are told apart from the first bytes (:data:`HEAD` bytes at most):

========================  ===============================================================
``tarot``                 the text notation: a tag ``[Event "…"]``, a ``{comment}``, or
                          a section (``hand S:``, ``auction:``, ``result:``…)
``json``                  one JSON value: a record object, an archive document
                          ``{"tarotnotation": 1, "deals": […]}`` or a list of records
``jsonl``                 JSON Lines: a complete record object on the first line, and
                          another value after it
``tarotclub``             a TarotClub played-deal log (a ``deal_info`` key)
``tarotclub-deal``        a TarotClub deal file, hands only (``FirstPlayer``, ``Dog``)
``scoreit``               a ScoreIt game (``{"type": "TAROT", …, "laps": […]}``)
``matocolotoe``           a Matocolotoe month of games (a list of ``attack_score`` objects)
``matocolotoe-players``   Matocolotoe's ``players.json`` (no deal)
``csv``                   a CSV score sheet: its first rows hold a sheet's header
``xlsx``                  an Excel workbook (a ZIP archive with ``xl/`` parts)
========================  ===============================================================

A UTF-8 byte order mark and leading white space are skipped. A JSON object is
``{`` followed by ``"`` or ``}``; any other ``{`` opens a notation comment, and ``[``
followed by a letter opens a notation tag. Content that looks like neither (empty, binary
junk) takes the format of its extension (:data:`SUFFIXES`), and the text notation when
the extension says nothing: its reader then reports what is wrong.

>>> sniff(b'[Event "Club"]\\n[Players "4"]\\nresult: garde taker E points 48')
'tarot'
>>> sniff(b'{"tarotnotation":1,"players":4}\\n{"tarotnotation":1,"players":3}\\n')
'jsonl'
>>> sniff(b'{\\n  "tarotnotation": 1,\\n  "players": 4\\n}\\n')
'json'
>>> sniff(b'{"version": "3", "deal_info": {"number_of_players": 4}, "tricks": []}')
'tarotclub'
>>> sniff(b'{"version":"3","FirstPlayer":"East","Dog":"","South":""}')
'tarotclub-deal'
>>> sniff(b'{"type":"TAROT","players":[],"laps":[]}')
'scoreit'
>>> sniff("Donne;Preneur;Contrat;Points;Bouts\\n1;Alice;Garde;48;2\\n".encode())
'csv'
>>> sniff(b'\\x00\\x01junk', suffix=".json"), sniff(b'', suffix=".txt")
('json', 'tarot')
>>> format_name("jsonl")
'JSON Lines (one record per line)'
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import IO, Final

import orjson

from ..lexicon import SECTIONS

__all__ = ["FORMATS", "HEAD", "SUFFIXES", "detect", "detect_stream", "format_name", "sniff"]

#: The formats told apart, and how a person names each.
FORMATS: Final = {
    "tarot": "the Tarot text notation",
    "json": "JSON (a record, or an archive of records)",
    "jsonl": "JSON Lines (one record per line)",
    "tarotclub": "a TarotClub played-deal log",
    "tarotclub-deal": "a TarotClub deal file (hands only)",
    "scoreit": "a ScoreIt game (score app)",
    "matocolotoe": "a Matocolotoe month of games (score app)",
    "matocolotoe-players": "Matocolotoe's list of players (no deal)",
    "csv": "a CSV score sheet",
    "xlsx": "an Excel workbook of score sheets",
}
#: File extensions and the format each suggests (folders are searched for these).
SUFFIXES: Final = {
    ".tarot": "tarot",
    ".json": "json",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".csv": "csv",
    ".tsv": "csv",
    ".xlsx": "xlsx",
    ".xlsm": "xlsx",
}
#: How many bytes of a file :func:`sniff` looks at.
HEAD: Final = 1 << 16
_AFTER_LINE: Final = 1 << 10

_BOM: Final = b"\xef\xbb\xbf"
#: A section keyword of the notation (without its colon; lexicon.SECTIONS), as bytes.
_SECTION: Final = re.compile(
    ("(?:" + "|".join(sorted({re.escape(w.rstrip(":")) for w in SECTIONS}, key=len,
                             reverse=True)) + r")\b").encode(), re.IGNORECASE)
# A key: a quote inside a JSON string is escaped, so ``{ "deal_info":`` is always a key.
_CLUB_LOG: Final = re.compile(rb'[{,]\s*"deal_info"\s*:')
_CLUB_DEAL: Final = re.compile(rb'[{,]\s*"(?:FirstPlayer|Dog)"\s*:')


def format_name(fmt: str) -> str:
    """How a person names a format id (``tarotclub`` → ``a TarotClub played-deal log``)."""
    return FORMATS.get(fmt, fmt)


def _looks_like_json(text: bytes) -> bool:
    if text.startswith(b"{"):
        return text[1:].lstrip()[:1] in (b'"', b"}")
    if text.startswith(b"["):
        return text[1:].lstrip()[:1] in (b"{", b"]", b"")
    return False


def _object_kind(obj: dict[str, object]) -> str | None:
    if "laps" in obj and isinstance(obj.get("type"), str):
        return "scoreit"
    if "deal_info" in obj:
        return "tarotclub"
    if "FirstPlayer" in obj or "Dog" in obj:
        return "tarotclub-deal"
    return None


def sniff(head: bytes, *, suffix: str = "", complete: bool = False) -> str:
    """The format of content that starts with ``head``; ``suffix`` is the fallback.

    ``complete`` says that ``head`` is the whole content (it is then parsed whole when it
    looks like JSON, for an exact answer).
    """
    if head.startswith(_BOM):
        head = head[len(_BOM):]
    text = head.lstrip()
    fallback = SUFFIXES.get(suffix.lower(), "tarot")
    if not text:
        return fallback
    if head.startswith(b"PK\x03\x04"):
        from . import xlsx

        return "xlsx" if xlsx.sniff(head) else fallback
    if _looks_like_json(text):
        return _json_kind(text, complete)
    if (text[:1] == b"{" or (text[:1] == b"[" and text[1:].lstrip()[:1].isalpha())
            or _SECTION.match(text)):
        return "tarot"
    from . import csvsheet

    if csvsheet.sniff(head):
        return "csv"
    return fallback


def _json_kind(text: bytes, complete: bool) -> str:
    from . import matocolotoe, scoreit

    if text.startswith(b"["):
        if matocolotoe.sniff(text):
            return "matocolotoe"
        if complete and matocolotoe.is_players_file(text):
            return "matocolotoe-players"
        return "json"
    if scoreit.sniff(text):
        return "scoreit"
    first, _, rest = text.partition(b"\n")
    try:
        obj = orjson.loads(first)
    except orjson.JSONDecodeError:
        obj = None
    if isinstance(obj, dict):  # a whole object on the first line
        kind = _object_kind(obj)
        if kind is not None:
            return kind
        return "jsonl" if rest.strip() and "deals" not in obj else "json"
    if complete:
        try:
            whole = orjson.loads(text)
        except orjson.JSONDecodeError:
            whole = None
        if isinstance(whole, dict):
            return _object_kind(whole) or "json"
    # A pretty-printed object too long to parse here, or broken JSON (TarotClub's trailing
    # commas): look for TarotClub's keys, which no record has.
    if _CLUB_LOG.search(text):
        return "tarotclub"
    if _CLUB_DEAL.search(text):
        return "tarotclub-deal"
    return "json"


def detect_stream(fh: IO[bytes], *, suffix: str = "") -> tuple[str, bytes]:
    """The format of a binary stream and the bytes read from it to tell (at most
    :data:`HEAD`, or the first line and 1 KiB after it); the caller reads on from there."""
    head = fh.read(HEAD)
    complete = len(head) < HEAD
    if not complete and b"\n" not in head:  # one long first line: a JSON Lines record?
        head += fh.readline()
        head += fh.read(_AFTER_LINE)  # and what follows it: another record?
    return sniff(head, suffix=suffix, complete=complete), head


def detect(path: str | Path) -> str:
    """The format of a file, from its content (its extension is only a fallback).

    Raises ``OSError`` when the file cannot be read.
    """
    path = Path(path)
    with path.open("rb") as fh:
        return detect_stream(fh, suffix=path.suffix)[0]
