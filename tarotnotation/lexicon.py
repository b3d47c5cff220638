r"""The words of the Tarot notation, in one place.

Every word and pattern the notation reads is written here once: the section keywords,
the bid words and their aliases, the result's items, camps, poignée sizes and misères,
the card aliases (French rank letters, suit symbols), the seat id, the glyphs, and the
patterns of tags, comments and dates. The others take them from here:

- the grammar (``grammar/tarot.lark``) is a template whose word terminals are filled in
  from these tables (:func:`grammar_text`), so that the grammar says how a record is built
  and this module says how its words are spelt;
- the grammar path's transformer and the fast scanner (``notation/reader.py``,
  ``notation/scanner.py``) look words up here;
- the record model (``records.py``) checks seat ids and glyphs, and ``rules.Contract``
  reads bid words, with these;
- format detection (``formats/detect.py``) recognises a record's sections by them.

Keywords are read in any case. ``tests/notation/test_lexicon.py`` checks that the grammar,
filled in, reads every spelling listed here and nothing else.

>>> BIDS["petite"], BIDS["garde-sans"], CAMPS["defense"], MISERES["tête"]
('prise', 'garde_sans', 'defence', 'tete')
>>> SECTIONS["écart:"] == SECTIONS["ecart:"], RESULT_ITEMS["points"]
(True, 'taker_points')
>>> untag(r'Caf\"e \\ bar'), uncomment(r'a \{ b \}')
('Caf"e \\ bar', 'a { b }')
"""

from __future__ import annotations

import re
from typing import Final

__all__ = [
    "ALIAS_RANKS",
    "ALIAS_SUITS",
    "BIDS",
    "CAMPS",
    "CARD_PATTERN",
    "COMMENT_PATTERN",
    "COMMENT_RE",
    "CONTRACTS",
    "DATE_RE",
    "FRENCH_RANK_SUITS",
    "FRENCH_SEATS",
    "GLYPHS",
    "GLYPH_SET",
    "KEYWORDS",
    "MISERES",
    "RESULT_ITEMS",
    "SEAT_ID_PATTERN",
    "SEAT_ID_RE",
    "SECTIONS",
    "SECTION_ORDER",
    "SIZES",
    "TAG_PATTERN",
    "TAG_RE",
    "french_card",
    "grammar_text",
    "uncomment",
    "untag",
]

# --- seats, glyphs, cards -------------------------------------------------------------------

#: A seat id: a letter, then up to 15 letters, digits or ``_`` (every reader checks this).
SEAT_ID_PATTERN: Final = r"[A-Za-z][A-Za-z0-9_]{0,15}"
SEAT_ID_RE: Final = re.compile(SEAT_ID_PATTERN)

#: The annotation glyphs, as in PGN.
GLYPHS: Final = ("!", "?", "!!", "??", "!?", "?!")
GLYPH_SET: Final = frozenset(GLYPHS)

#: Rank letters read besides the canonical ones (French: valet, cavalier, dame, roi).
ALIAS_RANKS: Final = {"V": "J", "C": "N", "D": "Q", "R": "K"}
#: Suit symbols read as suit letters.
ALIAS_SUITS: Final = {
    "♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C",
}
#: How French output writes a card's rank and suit: the French rank letter and the suit
#: symbol, both read by the notation (``R♣``, ``D♠``, ``10♥``), so that a French player
#: reads the card as it is (``KC`` reads « Roi de Cœur » to him: it is the King of Clubs).
_FRENCH_RANKS: Final = {canon: alias for alias, canon in ALIAS_RANKS.items()}
_FRENCH_SUITS: Final = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_CANONICAL_CARD: Final = re.compile(r"(10|[1-9]|[JNQK])([SHDC])|T(2[01]|1[0-9]|[1-9])|EX")
#: The seats as French output writes them: West is Ouest, O (the notation keeps W).
FRENCH_SEATS: Final = {"W": "O"}
_SUIT_LETTERS: Final = "SHDC" + "".join(ALIAS_SUITS)
#: The suits a French rank letter is read with: not ``C``, which is Clubs in the notation
#: but Cœur to a French player (``RC`` would be read Roi de Cœur: it is refused, and
#: ``R♣`` or ``KC`` is the King of Clubs, ``R♥`` or ``KH`` the King of Hearts).
FRENCH_RANK_SUITS: Final = "SHD" + "".join(ALIAS_SUITS)
#: A card word, any case: a rank (1-10, J N Q K) and a suit (a letter or a symbol), a
#: French rank letter and a suit of :data:`FRENCH_RANK_SUITS`, a trump ``T1``..``T21``,
#: or the Excuse ``EX``; the canonical codes and the aliases of ``notation/cardcodes.py``.
CARD_PATTERN: Final = (
    rf"(?:(?:10|[1-9]|[jnqk])[{_SUIT_LETTERS.lower()}]"
    rf"|[{''.join(ALIAS_RANKS).lower()}][{FRENCH_RANK_SUITS.lower()}]"
    r"|t(?:2[01]|1[0-9]|[1-9])|ex)")



def french_card(code: str) -> str | None:
    """A canonical card code as French output writes it, or None for a word that is no
    canonical code: the French rank letter and the suit symbol (read back by the
    notation), a trump by its number (« atout 21 », a no-break space inside), the Excuse
    by its name.

    >>> [french_card(c) for c in ("KC", "QS", "10H", "NC", "7D", "T21", "T1", "EX", "RC")]
    ['R♣', 'D♠', '10♥', 'C♣', '7♦', 'atout\xa021', 'atout\xa01', 'Excuse', None]
    """
    m = _CANONICAL_CARD.fullmatch(code)
    if m is None:
        return None
    if m.group(1):
        return _FRENCH_RANKS.get(m.group(1), m.group(1)) + _FRENCH_SUITS[m.group(2)]
    return f"atout\u00a0{m.group(3)}" if m.group(3) else "Excuse"


# --- keywords -------------------------------------------------------------------------------

#: Each keyword terminal of the grammar and its spellings (read in any case).
KEYWORDS: Final[dict[str, tuple[str, ...]]] = {
    "HAND_KW": ("hand",),
    "HANDS_KW": ("hands:",),
    "CHIEN_KW": ("chien:",),
    "AUCTION_KW": ("auction:",),
    "CALL_KW": ("call:",),
    "ECART_KW": ("ecart:", "écart:"),
    "_SHOWN": ("shown:",),
    "POIGNEE_KW": ("poignee", "poignée"),
    "CHELEM_KW": ("chelem",),
    "MISERE_KW": ("misere", "misère"),
    "PLAY_KW": ("play:",),
    "RESULT_KW": ("result:",),
    "_TAKER": ("taker",),
    "_PARTNER": ("partner",),
    "_POINTS": ("points",),
    "_BOUTS": ("bouts",),
    "_PETIT": ("petit_au_bout",),
    "ANNULLED": ("annulled",),
    "SCORES_KW": ("scores",),
}

#: The record's sections in their fixed order, each with the keywords that open it.
SECTION_ORDER: Final = (
    ("hands", ("HAND_KW", "HANDS_KW")),
    ("chien", ("CHIEN_KW",)),
    ("auction", ("AUCTION_KW",)),
    ("call", ("CALL_KW",)),
    ("ecart", ("ECART_KW",)),
    ("declarations", ("POIGNEE_KW", "CHELEM_KW", "MISERE_KW")),
    ("play", ("PLAY_KW",)),
    ("result", ("RESULT_KW",)),
)
#: Each spelling of a keyword that opens a section (lower case) -> the section's place in
#: the order (1-based).
SECTIONS: Final[dict[str, int]] = {
    word: place for place, (_, terminals) in enumerate(SECTION_ORDER, start=1)
    for terminal in terminals for word in KEYWORDS[terminal]}

#: The items of a result (their keyword) and the record's field each fills.
RESULT_ITEMS: Final = {
    "taker": "taker", "partner": "partner", "points": "taker_points", "bouts": "bouts",
    "petit_au_bout": "petit_au_bout", "chelem": "chelem", "annulled": "annulled",
    "scores": "scores",
}

#: Bid words (lower case) -> the record's bid word: ``pass`` or a contract's keyword.
BIDS: Final = {
    "pass": "pass", "passe": "pass", "prise": "prise", "petite": "prise", "garde": "garde",
    "garde_sans": "garde_sans", "garde-sans": "garde_sans",
    "garde_contre": "garde_contre", "garde-contre": "garde_contre",
}
#: The bid words that name a contract.
CONTRACTS: Final = {word: bid for word, bid in BIDS.items() if bid != "pass"}
#: Camp words (lower case) -> the record's camp.
CAMPS: Final = {"taker": "taker", "defence": "defence", "defense": "defence"}
#: Poignée sizes.
SIZES: Final = {"simple": "simple", "double": "double", "triple": "triple"}
#: Misère words (lower case) -> the record's misère.
MISERES: Final = {"atout": "atout", "tete": "tete", "tête": "tete"}

# --- tags, comments, dates ---------------------------------------------------------------------

#: ``[Name "value"]``: one tag; ``\\`` and ``\"`` escape inside the value.
TAG_PATTERN: Final = r'\[[ \t]*(\w+)[ \t]+"((?:[^"\\\n]|\\.)*)"[ \t]*\]'
TAG_RE: Final = re.compile(TAG_PATTERN)
_TAG_ESCAPE: Final = re.compile(r'\\([\\"])')
#: ``{ free text }``: ``\{ \} \\`` and ``\[`` escape; a comment may span lines.
COMMENT_PATTERN: Final = r"\{(?:[^\\}]|\\[\s\S])*\}"
COMMENT_RE: Final = re.compile(COMMENT_PATTERN)
_COMMENT_ESCAPE: Final = re.compile(r"\\([\\{}\[])")
#: A Date tag's value: ``YYYY.MM.DD``, ``??`` for an unknown part.
DATE_RE: Final = re.compile(r"(?:\d{4}|\?{4})\.(?:\d\d|\?\?)\.(?:\d\d|\?\?)")


def untag(raw: str) -> str:
    """A tag's value as written between its quotes, its escapes undone."""
    return _TAG_ESCAPE.sub(r"\1", raw) if "\\" in raw else raw


def uncomment(inner: str) -> str:
    """A comment's text as written between its braces, its escapes undone."""
    return _COMMENT_ESCAPE.sub(r"\1", inner) if "\\" in inner else inner


# --- the grammar ---------------------------------------------------------------------------


def _alternation(words: tuple[str, ...] | list[str]) -> str:
    """A regex alternation of literal words, the longest first (so none hides another)."""
    return "|".join(re.escape(w) for w in sorted(set(words), key=lambda w: (-len(w), w)))


def _keyword(words: tuple[str, ...]) -> str:
    """A keyword terminal's definition: a literal when it has one spelling (Lark prefers
    literals to patterns), a pattern otherwise; a word ending in a letter never runs
    into the next one."""
    end = "(?!\\w)" if words[0][-1].isalnum() else ""
    if len(words) == 1 and not end:
        return f'"{words[0]}"i'
    return f"/(?:{_alternation(words)}){end}/i"


def _fills() -> dict[str, str]:
    out = {name: _keyword(words) for name, words in KEYWORDS.items()}
    out.update({
        "SEAT_ID": SEAT_ID_PATTERN,
        "CARD": CARD_PATTERN,
        "BIDS": _alternation(list(BIDS)),
        "CONTRACTS": _alternation(list(CONTRACTS)),
        "CAMPS": _alternation(list(CAMPS)),
        "SIZES": _alternation(list(SIZES)),
        "MISERES": _alternation(list(MISERES)),
        "TAG": TAG_PATTERN,
        "COMMENT": COMMENT_PATTERN,
        "GLYPH": _alternation(list(GLYPHS)),
    })
    return out


_PLACE: Final = re.compile(r"@([A-Z_]+)@")


def grammar_text(template: str | None = None) -> str:
    """The grammar of one record: ``grammar/tarot.lark`` with its ``@NAME@`` places
    filled in from this module's words and patterns.

    >>> text = grammar_text()
    >>> "@" not in text.replace('"@', "").split("// ---")[-1], 'CHIEN_KW: "chien:"i' in text
    (True, True)
    """
    if template is None:
        from importlib import resources

        template = (resources.files("tarotnotation.grammar") / "tarot.lark").read_text("utf-8")
    fills = _fills()
    return _PLACE.sub(lambda m: fills[m.group(1)], template)
