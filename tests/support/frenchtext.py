"""What a French club player notices in a text (issue 38): an English word left, a
decimal point in a number of points, a card a French reader can misread, and a missing
no-break space before « : ; ? ! » or inside « ».

Each check returns the faults it finds (a few characters around each), so that a test
says what is wrong and where. What is not prose is taken out first (:func:`prose`): it is
written as machines and the notation write it, the same in every language.

>>> typography_faults("Options: a ; b « c »")
['Options:', ' ;', '« c »']
>>> typography_faults("Options\\u00a0: a\\u00a0; b «\\u00a0c\\u00a0»")
[]
>>> english_words("Préréglages : fft (default), pagat, values: x")
['default', 'values']
>>> decimal_points("43.5 points, 2026.11.14, 43,5 points")
['43.5']
>>> misreadable_cards("attendu 2C, KH, T21 ou EX ; R♣, 10♥, atout 21, Excuse")
['2C', 'KH', 'T21', 'EX']
"""

from __future__ import annotations

import re
from typing import Final

NBSP: Final = "\u00a0"

#: What is written the same in every language, taken out of the text before it is read
#: as French prose. Each is documented:
_CODE_SPANS: Final = (
    # a place as compilers and editors write it, and the program's name before a message
    # (``club.tarot:21:8: P105``, ``tarot: …``: tools read them);
    re.compile(r"^\s*\S*:\d+(?::\d+)?:", re.M),
    re.compile(r"^tarot:", re.M),
    # an example of a command line (help epilogs) and text in backquotes;
    re.compile(r"^\s*(?:\$ )?tarot [^\n]*$", re.M),
    re.compile(r"`[^`\n]*`"),
    # the notation's computed comments and record comments ({tarot: dd -1.5, …}), and a
    # written position or a value typed on the command line (S=KH,T21, --set x=y);
    re.compile(r"\{[^{}]*\}"),
    re.compile(r"\w+:\w+:col:"),
    re.compile(r"\S+=\S*"),
    # options, paths and file names, the codes' slugs (``must-follow-suit``: ASCII words
    # joined by hyphens), and what an example quotes for the shell ('contract >= garde');
    re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*"),
    re.compile(r"\S*/\S*|\S+\.(?:tarot|jsonl?|csv|xlsx|html|toml|xml|po|md)\b"),
    re.compile(r"(?<![\w-])[a-z]+(?:-[a-z]+)+(?![\w-])"),
    re.compile(r"(?<=\s)'[^'\n]*'(?=[\s)]|$)"),
    re.compile(r"<[^<>\s]*\|[^<>\s]*>"),  # an option's choices: <player|seat|contract>
    # the annotation glyphs, listed or shown on a trick (``! ? !! ?? !? ou ?!``), on a
    # card or a bid (``5♥?``, ``Garde!?``), or on a deal (a line of its own);
    re.compile(r"(?<=[♠♥♦♣\d])[!?]{1,2}(?=\s|$)"),
    re.compile(r"(?i:passe|prise|garde|sans|contre)[!?]{1,2}(?=\s|$)"),
    re.compile(r"^\s*[!?]{1,2}\s*$", re.M),
    re.compile(r"(?<![^ \n(])(?:[!?]{1,2}[ ,]+)+(?:ou |or )?[!?]{1,2}(?![^ \n),])"),
    re.compile(r"(?<=\d\. )[!?]{1,2}(?= )"),
    re.compile(r"(?<=comme )[!?]{1,2}(?= )"),
    # the notation's dates with unknown parts (2026.11.??) and its sections' words (E:).
    re.compile(r"\d{4}\.[\d?]{2}\.[\d?]{2}"),
)


def prose(text: str) -> str:
    """``text`` without what machines and the notation read (:data:`_CODE_SPANS`)."""
    for span in _CODE_SPANS:
        text = span.sub(" ", text)
    return text


def _around(text: str, m: re.Match[str], before: int = 0, after: int = 0) -> str:
    return text[max(0, m.start() - before):m.end() + after]


def typography_faults(text: str) -> list[str]:
    """Where a no-break space is missing: before ``: ; ? !`` (an ordinary space, or none
    after a word) and inside « » (French typography, as the Imprimerie nationale has it)."""
    text = prose(text)
    faults = [m.group(0) for m in re.finditer(r"[\w»)\]]+[:;?!]+(?= |\n|$)", text)]
    faults += [m.group(0) for m in re.finditer(r" [:;?!]+", text)]
    faults += [m.group(0) for m in re.finditer(r"«(?!\u00a0)[^»\n]*»|«[^»\n]*[^\u00a0]»",
                                               text)]
    return faults


#: English words a French text must not hold: the words of the interface (the ones click
#: and typer write, and ours), each not a French word ("Options", "Arguments" and
#: "usage" are French too: "Usage:" is looked for on its own). Proper nouns, codes and the
#: identifiers one types (switch names, preset names, ALL-CAPS metavariables such as FILE)
#: are not in it: they are written the same in both languages.
ENGLISH: Final = frozenset({
    "the", "of", "and", "with", "without", "from", "into", "for", "by", "is", "are", "was",
    "not", "none", "this", "that", "these", "those", "commands",
    "command", "error", "errors", "warning", "warnings", "default", "values",
    "value", "presets", "preset", "show", "print", "exit", "help", "read", "write", "file",
    "files", "deal", "deals", "trick", "tricks", "seat", "seats", "card", "cards", "trump",
    "trumps", "taker", "defence", "defense", "made", "lost", "expected", "bid", "bids",
    "called", "partner", "king", "queen", "knight", "jack", "clubs", "hearts", "spades",
    "diamonds", "led", "follow", "holds", "player", "players", "points_text", "garde_sans",
    "garde_contre", "half", "a_bout", "only", "also", "when", "then", "else", "which",
    "where", "there", "here", "must", "may", "can", "cannot", "should",
})


def english_words(text: str) -> list[str]:
    """The words of :data:`ENGLISH` in ``text``'s prose (any case but ALL CAPS: those
    are metavariables and codes)."""
    words = re.findall(r"[A-Za-z_]+", prose(text))
    return [w for w in words if w.lower() in ENGLISH and not (w.isupper() and len(w) > 1)]


def decimal_points(text: str) -> list[str]:
    """Numbers written with a decimal point (French writes ``43,5``); dates and versions
    (three parts) are not numbers of points."""
    return re.findall(r"(?<![\d.,])-?\d+\.\d+(?![\d.])", prose(text))


#: A card written with the notation's letters (rank then suit letter, a trump, the
#: Excuse): ``2C`` reads « 2 de Cœur » to a French player, it is the 2 of Clubs.
_LETTER_CARD: Final = re.compile(r"(?<![\w♠♥♦♣])(?:(?:10|[1-9JNQKRDCV])[SHDC]|T(?:[1-9]|1\d|2[01])"
                                 r"|EX)(?![\w♠♥♦♣])")


def misreadable_cards(text: str) -> list[str]:
    """Cards written in letters in French output: the notation's codes (``2C``, ``KH``,
    ``T21``, ``EX``) rather than what a French player reads (``2♣``, ``R♥``,
    ``atout 21``, ``Excuse``)."""
    return _LETTER_CARD.findall(prose(text))
