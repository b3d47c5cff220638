"""The fast reader: a hand-written scanner for the common shapes of the notation.

The grammar (``grammar/tarot.lark``) is the single source of truth for the syntax, and
reading a record with Lark is exact but slow: its lexer and LALR parser do Python work for
every token. Most records of an archive are plain: canonical text, perhaps with lower-case
or French card codes, seats glued to the cards, glyphs and comments. For those,
:func:`scan` builds the record's data in one pass over its words, most of it in bulk (a
run of card codes is checked and turned into canonical codes or played cards at once): the
same record as the grammar path's data, in the JSON layout (canonical card codes, lists),
which :func:`~tarotnotation.builder.build_record` turns into a record without pydantic.
The rest (the model, when the data is unusual or wrong, and its faults) is shared with the
grammar path.

The scanner accepts a strict subset of what the grammar accepts, and it never reports
anything: whenever it meets something it does not fully understand (a word the grammar
might read otherwise, a card written twice, an odd tag, a trick numbered wrongly, a
``[Result]`` tag...) it gives up on the record and returns None, and the reader parses the
record with the grammar, which gives the diagnostics. So every syntax error and every fault
found while building comes from the grammar path, word for word.

The text positions of the record's parts (the :class:`~tarotnotation.source.SourceMap`
that puts file:line:col on replay faults) are the reader's ``LazyPositions``: worked out
by the grammar path itself, from the record's text, the first time anything asks for one
(a deal with a fault). A clean deal never needs them, and they are the grammar path's own.

``TAROT_READER=grammar`` in the environment (or ``parse_record(..., fast=False)``) turns
the scanner off. ``tests/twins/test_notation_fast.py`` checks, on the examples, on generated and
annotated deals, on lenient spellings and on the fuzz corpus, that both paths give the same
records, diagnostics and positions, and that the scanner does read the plain records.

>>> data = scan('[Players "4"]\\nauction: pass E:garde! {sure} pass pass\\n')
>>> data["auction"][1]
{'contract': 'garde', 'seat': 'E', 'glyph': '!', 'comments': ['sure']}
>>> scan('[Players "4"]\\nauction: pass gardez\\n') is None  # left to the grammar
True
"""

from __future__ import annotations

import itertools
import re
from typing import Any, Final

from ..cards import Card
from ..fields import FIELD_TAGS, Points
from ..lexicon import (
    BIDS,
    CAMPS,
    CONTRACTS,
    DATE_RE,
    GLYPH_SET,
    MISERES,
    RESULT_ITEMS,
    SEAT_ID_PATTERN,
    SEAT_ID_RE,
    SECTIONS,
    SIZES,
    TAG_RE,
    uncomment,
    untag,
)
from ..rules import RulesetError
from .cardcodes import WORDS
from .tagvalues import players_of, ruleset_spec, seats_entries

__all__ = ["scan"]


class _GiveUpError(Exception):
    """The scanner met something it leaves to the grammar."""


def _case_variants(word: str) -> list[str]:
    options = [(ch.lower(), ch.upper()) if ch.isascii() and ch.isalpha() else (ch,)
               for ch in word]
    return ["".join(p) for p in itertools.product(*options)]


def _card_table() -> dict[str, Card]:
    """Every spelling of every card the grammar reads, in ASCII cases (no other case
    folding: a word the table does not hold is left to the grammar)."""
    return {variant: card for code, card in WORDS.items()
            for variant in _case_variants(code)}


_CARD: Final = _card_table()
_BIT: Final = {word: 1 << card for word, card in _CARD.items()}
_CODE: Final = {word: card.code for word, card in _CARD.items()}  # canonical codes
_PLAYED: Final = {word: (("card", card.code),) for word, card in _CARD.items()}  # dict() pairs

# The sections, in the record's fixed order (lexicon.SECTION_ORDER).
_HANDS, _CHIEN, _AUCTION, _CALL, _ECART, _DECL, _PLAY, _RESULT = range(1, 9)
_NOTE: Final = frozenset("{!?")  # how an annotation's token starts
_TRICKNO: Final = {f"{a}{b}.": int(f"{a}{b}") for a in ("", *"0123456789")
                   for b in "0123456789"}
_SCORE: Final = re.compile(f"({SEAT_ID_PATTERN})([+-][0-9]{{1,6}})")
_NUMBER: Final = re.compile(r"[0-9]{1,6}(?:[.,][0-9]{1,6})?")
_INT: Final = re.compile(r"[0-9]{1,6}")
_SPACES: Final = re.compile(r"\s*")
# The tokens of a text with annotations: a comment (the grammar's COMMENT), a run of glyph
# marks, a word, or any other character (an unclosed { or a lone }: left to the grammar).
_TOKENS: Final = re.compile(r"\{(?:[^\\}]|\\[\s\S])*\}|[!?]+|[^\s{}!?]+|\S")
_COMMENT_SPLIT: Final = re.compile(r"(\{(?:[^\\}]|\\[\s\S])*\})")


def _note(ws: list[str], i: int, n: int, out: dict[str, Any]) -> int:
    """Read an annotation (a glyph, then comments) at ``i`` into ``out``."""
    token = ws[i]
    if token[0] != "{":
        if token not in GLYPH_SET:
            raise _GiveUpError
        out["glyph"] = token
        i += 1
    comments: list[str] = []
    while i < n and ws[i][0] == "{":
        token = ws[i]
        if len(token) < 2:  # a { never closed
            raise _GiveUpError
        inner = token[1:-1]
        comments.append(uncomment(inner))
        i += 1
    if comments:
        out["comments"] = comments
    return i


def _cards(ws: list[str], i: int, n: int) -> tuple[int, list[str]]:
    """A run of card codes (or ``-``) at ``i``: the index after it, and the canonical codes."""
    window = list(map(_BIT.get, ws[i:i + _LONGEST_RUN]))
    try:
        k = window.index(None)
    except ValueError:
        k = len(window)
        if i + k < n:  # a run longer than any hand: left to the grammar
            raise _GiveUpError from None
    if not k:
        if i < n and ws[i] == "-":
            return i + 1, []
        raise _GiveUpError
    bits: int = sum(window[:k])  # type: ignore[arg-type]
    if bits.bit_count() != k:  # a card written twice: the grammar path says so
        raise _GiveUpError
    return i + k, list(map(_CODE.__getitem__, ws[i:i + k]))


_LONGEST_RUN: Final = 25  # a hand at three players is 24 cards


def _word(ws: list[str], i: int, n: int) -> str:
    if i >= n:
        raise _GiveUpError
    return ws[i]


def _seat(word: str) -> str:
    if not SEAT_ID_RE.fullmatch(word):
        raise _GiveUpError
    return word


def _tags(tags: list[tuple[str, str]], data: dict[str, Any]) -> None:
    other: list[list[str]] = []
    seen: set[str] = set()
    for name, raw in tags:
        value = untag(raw)
        if name in FIELD_TAGS:
            if name in seen:
                raise _GiveUpError
            seen.add(name)
            if name == "Players":
                if value not in ("3", "4", "5"):
                    raise _GiveUpError
                data["players"] = int(value)
            elif name == "Seats":
                seats = seats_entries(value)
                if isinstance(seats, str):
                    raise _GiveUpError
                data["seats"] = seats
            elif name == "Dealer":
                data["dealer"] = value.strip()
            else:
                try:
                    data["ruleset"] = ruleset_spec(value)
                except RulesetError:
                    raise _GiveUpError from None
            continue
        if name == "Result" or (name == "Date" and not DATE_RE.fullmatch(value)):
            raise _GiveUpError
        other.append([name, value])
    data["tags"] = other


def scan(text: str) -> dict[str, Any] | None:
    """The record's data (JSON layout), or None to read the record with the grammar.

    ``text`` is the text of one record (as :func:`~tarotnotation.notation.parse_record`
    takes it).
    """
    try:
        return _scan(text)
    except _GiveUpError:
        return None


def _words(body: str) -> list[str]:
    """The tokens of the text after the tags: words, glyph marks and whole comments."""
    if "{" not in body and "!" not in body and "?" not in body and "}" not in body:
        return body.split()
    ws: list[str] = []
    plain = True
    for part in _COMMENT_SPLIT.split(body):  # text, comment, text, comment...
        if not plain:
            ws.append(part)
        elif "{" in part or "}" in part:
            ws += _TOKENS.findall(part)
        else:  # glyph marks: most often only on the word before a comment (7H!? {...})
            words = part.split()
            last = words[-1] if words else ""
            marks = last.count("!") + last.count("?")
            if marks and marks == part.count("!") + part.count("?"):
                words[-1:] = _TOKENS.findall(last)
                ws += words
            elif marks or "!" in part or "?" in part:
                ws += _TOKENS.findall(part)
            else:
                ws += words
        plain = not plain
    return ws


def _scan(text: str) -> dict[str, Any]:
    tags: list[tuple[str, str]] = []
    p = 0
    while True:  # the tags, each the grammar's TAG, separated by white space
        p = _SPACES.match(text, p).end()  # type: ignore[union-attr]
        m = TAG_RE.match(text, p)
        if m is None:
            break
        tags.append((m.group(1), m.group(2)))
        p = m.end()
    if not tags:
        raise _GiveUpError
    data: dict[str, Any] = {}
    _tags(tags, data)
    body = text[p:]
    ws = _words(body)
    n = len(ws)
    i = 0
    if n and ws[0][0] in _NOTE:
        i = _note(ws, 0, n, data)
    stage = 0
    declarations: list[dict[str, Any]] = []
    while i < n:
        low = ws[i].lower()
        sec = SECTIONS.get(low)
        if sec is None or sec < stage or (sec == stage and sec != _DECL):
            raise _GiveUpError
        stage = sec
        i += 1
        if sec == _HANDS:
            hands: dict[str, list[str]] = {}
            if low == "hands:":
                if _word(ws, i, n) != "-":
                    raise _GiveUpError
                i += 1
            else:
                while True:
                    label = _word(ws, i, n)
                    seat = _seat(label[:-1]) if label[-1] == ":" else ""
                    if not seat or seat in hands:
                        raise _GiveUpError
                    i, hands[seat] = _cards(ws, i + 1, n)
                    if i < n and ws[i].lower() == "hand":
                        i += 1
                        continue
                    break
            data["hands"] = hands
        elif sec == _CHIEN:
            i, data["chien"] = _cards(ws, i, n)
        elif sec == _AUCTION:
            bids: list[dict[str, Any]] = []
            while i < n:
                w = ws[i]
                cut = w.find(":")
                contract = BIDS.get((w[cut + 1:] if cut > 0 else w).lower())
                if contract is None:
                    break
                bid: dict[str, Any] = {"contract": contract}
                if cut > 0:
                    bid["seat"] = _seat(w[:cut])
                bids.append(bid)
                i += 1
                if i < n and ws[i][0] in _NOTE:
                    i = _note(ws, i, n, bid)
            data["auction"] = bids
        elif sec == _CALL:
            code = _CODE.get(_word(ws, i, n))
            if code is None:
                raise _GiveUpError
            call: dict[str, Any] = {"card": code}
            i += 1
            if i < n and ws[i][0] in _NOTE:
                i = _note(ws, i, n, call)
            data["call"] = call
        elif sec == _ECART:
            ecart: dict[str, Any] = {}
            if i < n and (ws[i] in _BIT or ws[i] == "-"):
                i, ecart["cards"] = _cards(ws, i, n)
            if i < n and ws[i].lower() == "shown:":
                i, ecart["shown"] = _cards(ws, i + 1, n)
            if i < n and ws[i][0] in _NOTE:
                i = _note(ws, i, n, ecart)
            data["ecart"] = ecart
        elif sec == _DECL:
            decl, i = _declaration(ws, i, n, low)
            declarations.append(decl)
            if i < n and ws[i][0] in _NOTE:
                i = _note(ws, i, n, decl)
        elif sec == _PLAY:
            data["play"], i = _play(ws, i, n)
        else:
            data["result"], i = _result(ws, i, n)
    if declarations:
        data["declarations"] = declarations
    if "players" not in data:
        data["players"] = players_of(data)
    return data


def _declaration(ws: list[str], i: int, n: int, keyword: str) -> tuple[dict[str, Any], int]:
    """A poignée, chelem or misère after its keyword, and the index after it."""
    target = _word(ws, i, n)
    i += 1
    decl: dict[str, Any]
    if keyword[0] == "p":  # poignée
        if target[-1] == ":":
            decl = {"kind": "poignee", "seat": _seat(target[:-1])}
            i, decl["cards"] = _cards(ws, i, n)
        else:
            decl = {"kind": "poignee", "seat": _seat(target)}
            size = _word(ws, i, n).lower()
            i += 1
            colon = size[-1:] == ":"
            if colon:
                size = size[:-1]
            elif i < n and ws[i] == ":":
                colon = True
                i += 1
            if size not in SIZES:
                raise _GiveUpError
            decl["size"] = size
            if colon:
                i, decl["cards"] = _cards(ws, i, n)
    elif keyword[0] == "c":  # chelem
        decl = {"kind": "chelem", "seat": _seat(target)}
    else:  # misère
        kind = MISERES.get(_word(ws, i, n).lower())
        if kind is None:
            raise _GiveUpError
        decl = {"kind": "misere", "seat": _seat(target), "misere": kind}
        i += 1
    return decl, i


def _play(ws: list[str], i: int, n: int) -> tuple[list[dict[str, Any]], int]:
    """The tricks after ``play:``, and the index after them."""
    bulk = _plain_play(ws, i, n)
    if bulk is not None:
        return bulk
    tricks: list[dict[str, Any]] = []
    while i < n:
        number = _TRICKNO.get(ws[i])
        if number is None:
            break
        if number != len(tricks) + 1:  # misnumbered: the grammar path says so
            raise _GiveUpError
        trick: dict[str, Any] = {}
        i += 1
        if i < n and ws[i][0] == "(":
            leader = ws[i]
            if leader[-1] != ")":
                raise _GiveUpError
            trick["leader"] = _seat(leader[1:-1])
            i += 1
        if i < n and ws[i][0] in _NOTE:
            i = _note(ws, i, n, trick)
        played: list[dict[str, Any]] = []
        while True:
            j = i
            while j < n and ws[j] in _CARD:
                j += 1
            if j > i:  # plain card codes, all at once
                played += map(dict, map(_PLAYED.__getitem__, ws[i:j]))
                i = j
            elif i < n:  # a card with its seat, E:7H
                w = ws[i]
                cut = w.find(":")
                code = _CODE.get(w[cut + 1:]) if cut > 0 else None
                if code is None or not SEAT_ID_RE.fullmatch(w, 0, cut):
                    break
                played.append({"card": code, "seat": w[:cut]})
                i += 1
            else:
                break
            if i < n and ws[i][0] in _NOTE:
                i = _note(ws, i, n, played[-1])
        if not played:
            raise _GiveUpError
        trick["cards"] = played
        tricks.append(trick)
    return tricks, i


_NUMBERS: Final = [f"{t}." for t in range(1, 100)]


def _plain_play(ws: list[str], i: int, n: int) -> tuple[list[dict[str, Any]], int] | None:
    """The tricks at once when each is its number and the same count of plain card codes
    (``1. 7H 8H 9H 1H 2. ...``), up to ``result:`` or the end; else None."""
    try:
        end = ws.index("result:", i)
    except ValueError:
        end = n
    words = ws[i:end]
    try:
        size = words.index("2.", 1)  # each trick's number and cards
    except ValueError:
        size = len(words)
    if size < 2 or len(words) % size:
        return None
    count = len(words) // size
    if words[::size] != _NUMBERS[:count]:
        return None
    del words[::size]
    try:
        played = list(map(dict, map(_PLAYED.__getitem__, words)))
    except KeyError:
        return None
    per = size - 1
    return [{"cards": played[k:k + per]} for k in range(0, len(played), per)], end


def _result(ws: list[str], i: int, n: int) -> tuple[dict[str, Any], int]:
    """The result after ``result:`` (items, then an annotation), and the index after it."""
    out: dict[str, Any] = {}
    while i < n:
        w = ws[i]
        low = w.lower()
        value: Any
        if low in CONTRACTS:
            name, value = "contract", BIDS[low]
        else:
            name = RESULT_ITEMS.get(low, "")
            if not name:
                break
            if name in out:  # given twice: the grammar path says so
                raise _GiveUpError
            if name == "annulled":
                out["annulled"] = True
                i += 1
                continue
            if name == "scores":
                scores: dict[str, int] = {}
                i += 1
                while i < n:
                    m = _SCORE.fullmatch(ws[i])
                    if m is None:
                        break
                    seat = m.group(1)
                    if seat in scores:
                        raise _GiveUpError
                    scores[seat] = int(m.group(2))
                    i += 1
                out["scores"] = scores
                continue
            i += 1
            value = _word(ws, i, n)
            if name == "taker" or name == "partner":
                _seat(value)
            elif name == "taker_points":
                if not _NUMBER.fullmatch(value):
                    raise _GiveUpError
                try:  # whole or half, 0 to 91: else the grammar path reads it
                    if not Points.parse(value).is_card_points:
                        raise _GiveUpError
                except ValueError:
                    raise _GiveUpError from None
                value = float(value.replace(",", "."))
            elif name == "bouts":
                if not _INT.fullmatch(value) or int(value) > 3:
                    raise _GiveUpError
                value = int(value)
            else:  # petit_au_bout, chelem
                value = CAMPS.get(value.lower())
                if value is None:
                    raise _GiveUpError
        if name in out:
            raise _GiveUpError
        out[name] = value
        i += 1
    if i < n and ws[i][0] in _NOTE:
        i = _note(ws, i, n, out)
    return out, i
