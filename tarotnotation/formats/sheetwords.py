"""The words of score sheets: column headers and cell values, in French and English.

A club's score sheet (a spreadsheet, or its CSV export) has one row per deal and one
column per fact. Its headers are written by people, so they are compared once
normalized (:func:`norm`: no accents, no case, punctuation as spaces): ``Appelé(e)``,
``APPELE`` and ``appelé`` are the same header. This module says which header is which
column (:data:`ROLES`), reads each kind of cell (a contract, points, bouts, a poignée, the
petit au bout, a chelem, a misère, a date, a score), and reads the mapping a user gives
for the layouts it does not know (:class:`Columns`). Pure functions of strings: the
sheet reader (:mod:`tarotnotation.formats.sheet`) locates and reports their faults.

>>> role_of("Appelé(e)"), role_of("N°"), role_of("Petit au bout ?"), role_of("Alice")
('partner', 'deal', 'petit', None)
>>> contract_of("Garde sans"), contract_of("GS"), contract_of("Guard without kitty")
(<Contract.GARDE_SANS: 3>, <Contract.GARDE_SANS: 3>, <Contract.GARDE_SANS: 3>)
>>> points_of("40,5"), points_of("41 pts"), bouts_of("petit + 21"), bouts_of("2 bouts")
(Points(81), Points(82), 2, 2)
>>> date_of("19/11/2026"), date_of("2026-11-19"), date_of("2026.11.??")
('2026.11.19', '2026.11.19', '2026.11.??')
>>> score_of("+72"), score_of("−216"), score_of("72,0")
(72, -216, 72)
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Final

from ..cards import Card
from ..diagnostics import quote
from ..fields import Points
from ..i18n import Msg
from ..lexicon import CAMPS, CONTRACTS, MISERES, SIZES
from ..rules import Camp, Contract, MisereKind, PoigneeSize

__all__ = [
    "ALL_PASSED",
    "KNOWN_HEADERS",
    "ROLES",
    "ROLE_TITLES",
    "SEAT_HEADERS",
    "TAG_ROLES",
    "TOTALS_WORDS",
    "ChelemCell",
    "Columns",
    "PlayerHeader",
    "bouts_of",
    "call_of",
    "chelem_of",
    "contract_of",
    "date_of",
    "is_blank",
    "misere_of",
    "norm",
    "player_header",
    "poignee_parts",
    "poignee_size_of",
    "points_of",
    "role_of",
    "ruleset_of",
    "score_of",
    "side_of",
]


@functools.lru_cache(maxsize=4096)
def norm(text: str) -> str:
    """A header or word as it is compared: no accents, lower case, anything but letters
    and digits as one space.

    >>> norm("  Appelé(e) "), norm("Garde-Sans"), norm("N°")
    ('appele e', 'garde sans', 'n')
    """
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(re.sub(r"[^0-9a-z]+", " ", plain.lower().replace("œ", "oe")).split())


#: Each column a sheet may have (its role), and the headers that name it, normalized.
ROLES: Final[dict[str, frozenset[str]]] = {
    "deal": frozenset({"donne", "deal", "n", "no", "num", "numero", "numero de donne",
                       "n donne", "no donne", "partie", "manche", "game", "lap", "deal no",
                       "deal number", "donne n", "donne no"}),
    "date": frozenset({"date", "jour", "day", "date de la partie"}),
    "event": frozenset({"evenement", "event", "soiree", "tournoi", "tournament", "session",
                        "rencontre"}),
    "site": frozenset({"lieu", "site", "club", "venue"}),
    "round": frozenset({"ronde", "round", "tour"}),
    "table": frozenset({"table", "table n", "table no"}),
    "dealer": frozenset({"donneur", "donneuse", "dealer", "distributeur", "donneur euse",
                         "donneur se"}),
    "taker": frozenset({"preneur", "preneuse", "preneur euse", "preneur se", "taker",
                        "attaquant", "attaquante", "attaque", "attacker", "declarer",
                        "bidder", "qui prend", "joueur qui prend", "pris par"}),
    "contract": frozenset({"contrat", "contract", "enchere", "bid", "annonce", "prise",
                           "type de contrat", "mise"}),
    "partner": frozenset({"appele", "appelee", "appele e", "partner", "partenaire",
                          "called", "called player", "allie", "ally", "joueur appele",
                          "partenaire appele", "coequipier"}),
    "call": frozenset({"roi", "roi appele", "carte appelee", "called card", "called king",
                       "king called", "appel", "couleur appelee"}),
    "points": frozenset({"points", "pts", "score", "points preneur", "points attaque",
                         "points du preneur", "points de l attaque", "taker points",
                         "taker s points", "attack points", "attack score", "card points",
                         "points faits", "realise", "points realises", "points de l attaquant",
                         "points attaquant", "attacker points", "attacker score"}),
    "bouts": frozenset({"bouts", "oudlers", "nb bouts", "nombre de bouts", "bouts preneur",
                        "bouts attaque", "oudler", "bout", "bouts de l attaque", "nb oudlers",
                        "number of oudlers", "bouts du preneur"}),
    "poignee": frozenset({"poignee", "poignees", "handful", "handfuls", "handle", "handles",
                          "poignee s", "poignee annoncee"}),
    "petit": frozenset({"petit", "petit au bout", "pab", "petit bout", "bonus petit",
                        "petit at the end", "petit au bout camp", "little one at the end"}),
    "chelem": frozenset({"chelem", "slam", "grand chelem", "chelem annonce", "chelems"}),
    "misere": frozenset({"misere", "miseres", "misery", "miseries"}),
    "rules": frozenset({"regles", "ruleset", "rules", "variante", "regle"}),
    "comment": frozenset({"commentaire", "commentaires", "comment", "comments", "remarque",
                          "remarques", "notes", "note", "observations", "observation"}),
    "rowsum": frozenset({"somme", "sum", "total", "verif", "verification", "controle",
                         "check", "total donne"}),
}

#: The columns that are tags, and the tag each fills.
TAG_ROLES: Final = (("event", "Event"), ("site", "Site"), ("date", "Date"),
                    ("round", "Round"), ("table", "Table"), ("deal", "Deal"))

#: How each column is named in messages, and in the sheets the writer makes (French).
ROLE_TITLES: Final[dict[str, str]] = {
    "deal": "Donne", "date": "Date", "event": "Événement", "site": "Lieu", "round": "Ronde",
    "table": "Table", "dealer": "Donneur", "taker": "Preneur", "contract": "Contrat",
    "partner": "Appelé", "call": "Roi", "points": "Points", "bouts": "Bouts",
    "poignee": "Poignée", "petit": "Petit au bout", "chelem": "Chelem", "misere": "Misère",
    "rules": "Règles", "comment": "Commentaire", "rowsum": "Somme",
}
assert set(ROLE_TITLES) == set(ROLES)

_ROLE_OF: Final = {name: role for role, names in ROLES.items() for name in names}

#: The headers a sheet reader knows, as a person reads the list (one or two per column).
KNOWN_HEADERS: Final = Msg(
    "Donne/Deal, Date, Événement/Event, Lieu/Site, Ronde/Round, Table, Donneur/Dealer,"
    " Preneur/Taker, Contrat/Contract, Appelé/Partner, Roi/Called card, Points/Score,"
    " Bouts/Oudlers, Poignée/Handful, Petit au bout, Chelem/Slam, Misère, Règles/Rules,"
    " Commentaire/Comment, Somme/Sum; a player's name, 'Score <name>' or 'Total <name>'"
    " (a running total)")

#: What the first cell of a totals row says (normalized).
TOTALS_WORDS: Final = frozenset({"total", "totaux", "totals", "somme", "sum", "sous total",
                                 "subtotal", "cumul", "bilan", "resultat", "resultats",
                                 "total general", "grand total", "totaux cumules"})


#: Seat ids that head the columns of unnamed players, when three or more of them head a
#: sheet's columns (alone, ``N`` is the deal number, as ``N°``).
SEAT_HEADERS: Final = frozenset({"S", "E", "N", "W", "F"})


def role_of(header: str) -> str | None:
    """The column a header names, or None (a player's name, or a header not known).

    >>> role_of("N°"), role_of("Appelé"), role_of("Alice")
    ('deal', 'partner', None)
    """
    key = norm(header)
    if not key:
        return "deal" if header.strip() == "#" else None
    return _ROLE_OF.get(key)


@dataclass(frozen=True, slots=True)
class PlayerHeader:
    """A header that names a player's column: the deal's score, or a running total."""

    name: str
    total: bool


_SCORE_PREFIX: Final = re.compile(r"^(?:score|scores|pts|points)\s+(?:de\s+|d\s+)?(.+)$")
_SCORE_SUFFIX: Final = re.compile(r"^(.+?)\s+(?:score|scores|pts)$")
_TOTAL_PREFIX: Final = re.compile(r"^(?:total|cumul|running total|cumule)\s+(?:de\s+|d\s+)?"
                                  r"(.+)$")
_TOTAL_SUFFIX: Final = re.compile(r"^(.+?)\s+(?:total|cumul|cumule|running total)$")


def player_header(header: str) -> PlayerHeader | None:
    """A header that says it is a player's score or running total: ``Score Alice``,
    ``Alice (score)``, ``Total Alice``, ``Cumul de Bruno``, ``Chloé cumul``; None otherwise
    (a plain name is told from the data, not the header).

    >>> player_header("Total Alice"), player_header("Chloé (score)")
    (PlayerHeader(name='Alice', total=True), PlayerHeader(name='Chloé', total=False))
    >>> player_header("Points") is None, player_header("Alice") is None
    (True, True)
    """
    key = norm(header)
    if not key or role_of(header) is not None:
        return None
    words = header.strip()
    for pattern, total in ((_TOTAL_PREFIX, True), (_TOTAL_SUFFIX, True),
                           (_SCORE_PREFIX, False), (_SCORE_SUFFIX, False)):
        m = pattern.match(key)
        if m is not None:
            name = _original_words(words, m.group(1))
            if role_of(name) is None or name in SEAT_HEADERS:
                return PlayerHeader(name, total)
    return None


def _original_words(header: str, key: str) -> str:
    """The part of ``header`` whose normalized form is ``key`` (the player's name as the
    sheet writes it, accents and case kept)."""
    tokens = re.findall(r"[^\W_]+(?:['’.-][^\W_]+)*", header)
    want = key.split()
    for i in range(len(tokens)):
        for j in range(i + 1, len(tokens) + 1):
            if norm(" ".join(tokens[i:j])).split() == want:
                return " ".join(tokens[i:j])
    return key


def is_blank(text: str) -> bool:
    """A cell that says nothing: empty, spaces, or a dash."""
    return text.strip() in ("", "-", "–", "—", "/")


# --- contracts ------------------------------------------------------------------------------

#: The words of an all-passed (annulled) deal in the contract column.
ALL_PASSED: Final = frozenset({"passe", "pass", "passes", "annulee", "annule", "annulled",
                               "tous passent", "tout le monde passe", "all pass", "all passed",
                               "aucun", "aucune", "none", "personne", "redistribution",
                               "redonne", "nul", "nulle", "0"})

_CONTRACTS: Final[dict[str, Contract]] = {
    # the notation's own spellings (tarotnotation.lexicon), then the sheets'
    **{norm(word): Contract.from_keyword(bid) for word, bid in CONTRACTS.items()},
    **dict.fromkeys(("prise", "petite", "petit", "p", "take", "small", "1", "pr"),
                    Contract.PRISE),
    **dict.fromkeys(("garde", "g", "guard", "2", "gd"), Contract.GARDE),
    **dict.fromkeys(("garde sans", "gs", "garde sans chien", "garde sans le chien",
                     "guard without", "guard without kitty", "guard without the kitty",
                     "guard without the dog", "gardesans", "g s", "3"), Contract.GARDE_SANS),
    **dict.fromkeys(("garde contre", "gc", "garde contre le chien", "guard against",
                     "guard against kitty", "guard against the kitty",
                     "guard against the dog", "gardecontre", "g c", "4"),
                    Contract.GARDE_CONTRE),
}


def contract_of(text: str) -> Contract | None:
    """The contract a cell names, or None when it names none (see also
    :data:`ALL_PASSED`)."""
    key = norm(text)
    return _CONTRACTS.get(key) or _CONTRACTS.get(key.replace("_", " "))


# --- numbers --------------------------------------------------------------------------------

_NUMBER: Final = re.compile(r"^\s*([+\-−–]?)\s*(\d{1,3}(?: \d{3}){1,5}|\d{1,18})"
                            r"(?:[.,](\d{1,18}))?\s*(?:pts?|points?|pt\.?)?\s*$", re.IGNORECASE)


def _number(text: str) -> tuple[int, int, str] | None:
    """``(sign, whole, fraction digits)`` of a number written in a cell, or None; the
    thousands may be set apart by a space, a no-break or a narrow no-break space.

    >>> _number("1 062"), _number("-1\u202f062,5"), _number("10 62")
    ((1, 1062, ''), (-1, 1062, '5'), None)
    """
    m = _NUMBER.match(text.replace("\u00a0", " ").replace("\u202f", " "))
    if m is None:
        return None
    sign = -1 if m.group(1) in ("-", "−", "–") else 1
    return sign, int(m.group(2).replace(" ", "")), m.group(3) or ""


def points_of(text: str) -> Points | None:
    """The taker's points a cell gives (``41``, ``40,5``, ``40.5``, ``41 pts``), or None
    when it is not a number (ValueError, in the model's words, for a number the record's
    points cannot be, e.g. ``40.3``).
    """
    got = _number(text)
    if got is None:
        return None
    sign, whole, frac = got
    if sign < 0:
        raise ValueError(Msg("{text}: the taker's points are never negative",
                             text=quote(text.strip())))
    return Points.parse(f"{whole}.{frac or 0}")


def score_of(text: str) -> int | None:
    """A player's score for a deal, or a running total (a whole number, signed), or None
    when the cell holds no number (ValueError for a number with a fraction)."""
    got = _number(text)
    if got is None:
        return None
    sign, whole, frac = got
    if frac.strip("0"):
        raise ValueError(Msg("{text} is not a whole number: a score is", text=quote(text.strip())))
    return sign * whole


_BOUT_WORDS: Final = {"petit": 1, "le petit": 1, "1": 1, "21": 1, "le 21": 1, "vingt et un": 1,
                      "monde": 1, "le monde": 1, "excuse": 1, "l excuse": 1,
                      "excuses": 1, "fou": 1, "le fou": 1, "twenty one": 1, "petit 1": 1}
_BOUT_LIST: Final = re.compile(r"\s*(?:\+|,|;|/|&|\bet\b|\band\b)\s*")


def bouts_of(text: str) -> int | None:
    """The number of bouts a cell gives (``2``, ``2 bouts``, ``aucun``, or the bouts
    named: ``petit + 21``, ``Excuse, 21``), or None when it says nothing readable."""
    key = norm(text)
    if key in ("aucun", "aucune", "none", "zero", "pas de bout", "pas de bouts", "sans",
               "0 bout", "0 bouts", "no oudler", "no oudlers"):
        return 0
    m = re.fullmatch(r"(\d{1,2})(?: bouts?| oudlers?)?", key)
    if m is not None:
        return int(m.group(1))
    parts = [norm(p) for p in _BOUT_LIST.split(text) if norm(p)]
    if parts and all(p in _BOUT_WORDS for p in parts) and len(set(parts)) == len(parts):
        return len(parts)
    return None


# --- poignées, petit au bout, chelem, misère -----------------------------------------------------

_POIGNEE_NONE: Final = frozenset({"non", "no", "aucune", "aucun", "none", "pas de poignee",
                                  "sans", "0", "sans poignee", "pas de", "n"})
_SIZES: Final = {**{norm(w): PoigneeSize(v) for w, v in SIZES.items()},
                 "simple": PoigneeSize.SIMPLE, "double": PoigneeSize.DOUBLE,
                 "triple": PoigneeSize.TRIPLE, "poignee": PoigneeSize.SIMPLE,
                 "single": PoigneeSize.SIMPLE, "s": PoigneeSize.SIMPLE,
                 "d": PoigneeSize.DOUBLE, "t": PoigneeSize.TRIPLE,
                 "poignee simple": PoigneeSize.SIMPLE, "double poignee": PoigneeSize.DOUBLE,
                 "triple poignee": PoigneeSize.TRIPLE, "poignee double": PoigneeSize.DOUBLE,
                 "poignee triple": PoigneeSize.TRIPLE, "simple poignee": PoigneeSize.SIMPLE}
_POIGNEE_LIST: Final = re.compile(r"\s*(?:\+|;|/|&|\bet\b|\band\b|,)\s*")
_TRUMPS: Final = re.compile(r"^(\d{1,2})\s*(?:atouts?|trumps?|a)?$")


def poignee_parts(text: str) -> list[str] | None:
    """The poignées a cell lists (one item each), or None for a cell that says there is
    none (``Pas de poignée``, ``non``)."""
    if norm(text) in _POIGNEE_NONE:
        return None
    return [p.strip() for p in _POIGNEE_LIST.split(text) if p.strip()]


def poignee_size_of(part: str, counts: tuple[int, int, int]) -> tuple[PoigneeSize | None, str]:
    """The size a poignée item gives and the words left (the holder, if named): ``simple
    Alice``, ``Alice : double``, ``10 atouts (Bruno)``; ``counts`` are the trumps of a
    simple, double and triple poignée at this table.

    >>> poignee_size_of("Double (Bruno)", (10, 13, 15))
    (<PoigneeSize.DOUBLE: 'double'>, 'Bruno')
    >>> poignee_size_of("13 atouts", (10, 13, 15))
    (<PoigneeSize.DOUBLE: 'double'>, '')
    >>> poignee_size_of("11 atouts", (10, 13, 15))
    (None, '11 atouts')
    """
    words = re.findall(r"[^\s:()\[\]]+", part)
    keys = [norm(w) for w in words]
    for i in range(len(words)):
        two = " ".join(keys[i:i + 2]) if i + 1 < len(words) else ""
        size: PoigneeSize | None = None
        width = 1
        if two in _SIZES:
            size, width = _SIZES[two], 2
        elif keys[i] in _SIZES and (keys[i] not in ("s", "d", "t") or len(words) == 1):
            size = _SIZES[keys[i]]
        else:
            m = _TRUMPS.match(two or keys[i])
            if m is not None and (two and two.split()[-1] in _TRUMP_WORDS):
                width = 2
            elif _TRUMPS.match(keys[i]) and not keys[i].isdigit():
                m = _TRUMPS.match(keys[i])
            else:
                m = None
            if m is not None:
                count = int(m.group(1))
                if count not in counts:
                    return None, part
                size = list(PoigneeSize)[counts.index(count)]
        if size is not None:
            rest = " ".join(words[:i] + words[i + width:])
            return size, rest.strip(" ,;-")
    return None, part


_TRUMP_WORDS: Final = frozenset({"atouts", "atout", "trumps", "trump", "a"})


#: The words of a camp (``attaque``, ``défense``…), normalized.
_CAMP_WORDS: Final = {
    **{norm(word): Camp(camp) for word, camp in CAMPS.items()},
    **dict.fromkeys(("attaque", "attack", "preneur", "taker", "att", "a", "pour",
                     "attaquant", "camp du preneur", "taker s camp", "preneuse"), Camp.TAKER),
    **dict.fromkeys(("defense", "defence", "def", "d", "contre", "defenseurs", "defenders",
                     "la defense", "the defence", "the defense"), Camp.DEFENCE),
}
_YES: Final = frozenset({"oui", "yes", "x", "1", "o", "y", "vrai", "true", "ok", "petit au bout",
                         "fait", "made", "au bout", "pab", "v"})
_NO: Final = frozenset({"non", "no", "n", "0", "faux", "false", "aucun", "none", "pas de",
                        "sans"})


def side_of(text: str) -> Camp | str | None:
    """What a petit-au-bout cell says: a camp; ``"yes"`` (no side given); a player's name
    (a string other than ``"yes"``); None for none.

    >>> side_of("Défense"), side_of("x"), side_of("non"), side_of("Bruno")
    (<Camp.DEFENCE: 'defence'>, 'yes', None, 'Bruno')
    """
    key = norm(text)
    if not key or key in _NO:
        return None
    key = re.sub(r"^(?:petit au bout|pab|petit)\s+(?:a l |a la |au |pour l |pour la |pour |"
                 r"par |by |for the |to the |for |to )?", "", key)
    if key in _CAMP_WORDS:
        return _CAMP_WORDS[key]
    if key in _YES or not key:
        return "yes"
    return text.strip()


@dataclass(frozen=True, slots=True)
class ChelemCell:
    """What a chelem cell says: announced (by the taker) and which camp won every trick."""

    announced: bool
    camp: Camp | None


_CHELEM_FAILED: Final = ("chute", "rate", "failed", "perdu", "manque", "non realise",
                         "not made", "echoue", "fail")


def chelem_of(text: str) -> ChelemCell | None:
    """A chelem cell: ``oui``/``réussi`` (made by the taker's camp, unannounced),
    ``annoncé`` (announced and made), ``annoncé chuté`` (announced, not made),
    ``défense`` (the defence won every trick); None for no chelem. ValueError for words
    it does not know.

    >>> chelem_of("Annoncé, chuté")
    ChelemCell(announced=True, camp=None)
    >>> chelem_of("défense")
    ChelemCell(announced=False, camp=<Camp.DEFENCE: 'defence'>)
    """
    key = norm(text)
    if not key or key in _NO or key in ("pas de chelem", "no slam"):
        return None
    announced = bool(re.search(r"\b(?:annonce|annoncee|announced|annonce e)\b", key))
    failed = any(re.search(rf"\b{w}\b", key) for w in _CHELEM_FAILED)
    defence = bool(re.search(r"\b(?:defense|defence|def)\b", key))
    rest = re.sub(r"\b(?:annonce|annoncee|announced|annonce e|chelem|slam|grand|non|not|"
                  r"reussi|realise|fait|made|oui|yes|x|par|la|l|a|le|by|the|de|du|"
                  r"attaque|attack|preneur|taker|defense|defence|def|et|and)\b", "", key)
    for w in _CHELEM_FAILED:
        rest = rest.replace(w, "")
    if rest.strip():
        raise ValueError(Msg("{text} is not a chelem: expected oui (made), annoncé (announced"
                             " and made), annoncé chuté, or défense", text=quote(text.strip())))
    if failed:
        return ChelemCell(announced or True, Camp.DEFENCE if defence else None)
    return ChelemCell(announced, Camp.DEFENCE if defence else Camp.TAKER)


_MISERE_KINDS: Final = {**{norm(w): MisereKind(v) for w, v in MISERES.items()},
                        "atout": MisereKind.ATOUT, "atouts": MisereKind.ATOUT,
                        "d atout": MisereKind.ATOUT, "trump": MisereKind.ATOUT,
                        "trumps": MisereKind.ATOUT, "tete": MisereKind.TETE,
                        "tetes": MisereKind.TETE, "de tete": MisereKind.TETE,
                        "head": MisereKind.TETE, "face": MisereKind.TETE,
                        "faces": MisereKind.TETE, "honneurs": MisereKind.TETE}


def misere_of(part: str) -> tuple[MisereKind | None, str]:
    """The kind of misère an item names (``atout``, ``tête``), and the words left (the
    player).

    >>> misere_of("Chloé (tête)"), misere_of("Bruno")
    ((<MisereKind.TETE: 'tete'>, 'Chloé'), (None, 'Bruno'))
    """
    words = re.findall(r"[^\s:()\[\],]+", part)
    kind: MisereKind | None = None
    left: list[str] = []
    i = 0
    while i < len(words):
        pair = norm(" ".join(words[i:i + 2])) if i + 1 < len(words) else ""
        if pair in _MISERE_KINDS:
            kind = _MISERE_KINDS[pair]
            i += 2
            continue
        one = norm(words[i])
        if one in _MISERE_KINDS:
            kind = _MISERE_KINDS[one]
        elif one not in ("misere", "de", "d"):
            left.append(words[i])
        i += 1
    return kind, " ".join(left)


# --- the called card, dates, rulesets ------------------------------------------------------

def _card_names() -> dict[str, Card]:
    out: dict[str, Card] = {}
    for card in Card:
        out[norm(card.french)] = card
        out[norm(card.english)] = card
        out[norm(card.code)] = card
    for card in Card:
        if card.suit.is_plain and card.rank == 14:  # a suit alone names its King
            suit_fr = norm(card.french).split(" de ")[-1]
            out.setdefault(suit_fr, card)
            out.setdefault(norm(card.english).split(" of ")[-1], card)
            out.setdefault(f"roi {suit_fr}", card)
    return out


_CARD_NAMES: Final = _card_names()


def call_of(text: str) -> Card | None:
    """The called card a cell names: a code (``KH``, ``RC``, ``K♥``), a name (``Roi de
    Cœur``, ``King of Hearts``), or a suit alone (its King); None when it names none.

    >>> call_of("Roi de cœur"), call_of("carreau"), call_of("DS")
    (<Card.HK: 27>, <Card.DK: 41>, <Card.SQ: 12>)
    """
    from ..notation.cardcodes import parse_card

    return parse_card(text.strip()) or _CARD_NAMES.get(norm(text))


_ISO: Final = re.compile(r"^(\d{4})[-./](\d{1,2}|\?\?)[-./](\d{1,2}|\?\?)(?:[ T].*)?$")
_DMY: Final = re.compile(r"^(\d{1,2})[-./](\d{1,2})[-./](\d{2}|\d{4})$")


def date_of(text: str | date) -> str | None:
    """A date as the ``Date`` tag writes it (``2026.11.19``, ``2026.11.??``), from ISO,
    day/month/year (French order) or the tag's own form; None when it is not a date."""
    if isinstance(text, datetime):
        text = text.date()
    if isinstance(text, date):
        return f"{text.year:04d}.{text.month:02d}.{text.day:02d}"
    raw = text.strip()
    m = _ISO.match(raw)
    if m is not None:
        y, mo, d = m.groups()
        if _valid(int(y), mo, d):
            return f"{y}.{mo.zfill(2)}.{d.zfill(2)}"
        return None
    m = _DMY.match(raw)
    if m is not None:
        d, mo, y = m.groups()
        year = int(y) + (2000 if len(y) == 2 else 0)
        if _valid(year, mo, d):
            return f"{year:04d}.{int(mo):02d}.{int(d):02d}"
    return None


def _valid(year: int, month: str, day: str) -> bool:
    if "?" in month or "?" in day:
        return ("?" in day or 1 <= int(day) <= 31) and ("?" in month or 1 <= int(month) <= 12)
    try:
        date(year, int(month), int(day))
    except ValueError:
        return False
    return True


def ruleset_of(text: str) -> str:
    """A ruleset spec from a cell (``fft``, ``pagat misere=on``); ValueError naming what is
    wrong."""
    from ..rules import Ruleset

    return Ruleset.from_spec(text.strip()).spec()


# --- a user's mapping ---------------------------------------------------------------------

#: What a mapping's value may say to leave a column out.
IGNORED: Final = frozenset({"-", "ignore", "ignorer", "skip", "none", "aucun", ""})


#: How deep the arrays and inline tables of a column map's TOML may nest (it needs none:
#: past this, Python's TOML reader would recurse out of the stack).
MAX_COLUMNS_DEPTH: Final = 16
_TOML_SKIP: Final = re.compile(r'#[^\n]*|"""(?:[^\\]|\\.)*?"""|\'\'\'.*?\'\'\'|"(?:[^"\\\n]|\\.)*"'
                               r"|'[^'\n]*'", re.DOTALL)


def toml_depth(text: str) -> int:
    """How deep the brackets and braces of a TOML text nest, outside its strings and
    comments (found without recursion).

    >>> toml_depth('[columns]\\n"a [[[" = "b" # ]]\\nx = [[1], {y = [2]}]'), toml_depth("[" * 500)
    (3, 500)
    """
    depth = deepest = 0
    for piece in re.split(r"([\[\]{}])", _TOML_SKIP.sub("", text)):
        if piece in ("[", "{"):
            depth += 1
            deepest = max(deepest, depth)
        elif piece in ("]", "}"):
            depth -= 1
    return deepest


@dataclass(frozen=True)
class Columns:
    """A user's mapping of a sheet's headers: to a column this reader knows (``Pts=Points``),
    to a player's name (``Joueur 1=Alice``: the column holds Alice's scores), or to nothing
    (``Couleur=-``: leave it out). Headers are compared normalized.

    Given as ``"Joueur 1=Alice,Joueur 2=Bruno,Pts=Points"`` (:meth:`parse`; ``\\,`` and
    ``\\=`` for a comma or an equals sign inside a name) or as a TOML file with a
    ``[columns]`` table (:meth:`load`)::

        [columns]
        "Joueur 1" = "Alice"
        "Pts" = "Points"

    >>> cols = Columns.parse("Joueur 1=Alice, Pts=Points, Couleur=-")
    >>> cols.target("JOUEUR 1"), cols.target("pts"), cols.target("couleur"), cols.target("x")
    (('player', 'Alice'), ('role', 'points'), ('ignore', ''), None)
    """

    mapping: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def parse(cls, text: str) -> Columns:
        """From ``"A=B,C=D"``; ValueError for an item without ``=``."""
        out: dict[str, str] = {}
        for item in re.split(r"(?<!\\),", text):
            if not item.strip():
                continue
            parts = re.split(r"(?<!\\)=", item, maxsplit=1)
            if len(parts) != 2 or not parts[0].strip():
                raise ValueError(Msg("{item}: expected HEADER=COLUMN or HEADER=NAME (e.g."
                                     " 'Joueur 1=Alice,Pts=Points')", item=quote(item.strip())))
            key, value = (p.strip().replace("\\,", ",").replace("\\=", "=") for p in parts)
            out[norm(key) or key] = value
        return cls(out)

    @classmethod
    def load(cls, path: str | Path) -> Columns:
        """From a TOML file with a ``[columns]`` table (or top-level string keys);
        ValueError naming the fault, OSError when it cannot be read."""
        import tomllib  # (a mapping file is rare: not loaded with every sheet reader)

        try:
            text = Path(path).read_text(encoding="utf-8")
            if toml_depth(text) > MAX_COLUMNS_DEPTH:  # (Python's reader recurses on nesting)
                raise ValueError(Msg("{path}: nested more than {limit} deep: a column map is a"
                                     " table of HEADER = \"COLUMN\"", path=str(path),
                                     limit=MAX_COLUMNS_DEPTH))
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as err:
            raise ValueError(Msg("{path}: not TOML: {err}", path=str(path), err=str(err))) from None
        except UnicodeDecodeError:
            raise ValueError(Msg("{path}: not UTF-8 text", path=str(path))) from None
        table = data.get("columns", data)
        if not isinstance(table, dict):
            raise ValueError(Msg("{path}: 'columns' must be a table of HEADER = \"COLUMN\"",
                                 path=str(path)))
        out: dict[str, str] = {}
        for key, value in table.items():
            if not isinstance(value, str):
                raise ValueError(Msg("{path}: columns.{key}: expected a string, not {type}",
                                     path=str(path), key=key, type=type(value).__name__))
            out[norm(key) or key] = value.strip()
        return cls(out)

    @classmethod
    def of(cls, spec: str) -> Columns:
        """From a ``--columns`` value: a ``.toml`` file's path, or ``"A=B,…"``."""
        if spec.strip().lower().endswith(".toml") and "=" not in spec:
            return cls.load(spec.strip())
        return cls.parse(spec)

    def target(self, header: str) -> tuple[str, str] | None:
        """``("role", role)``, ``("player", name)``, ``("ignore", "")`` or None (not
        mapped) for a header."""
        value = self.mapping.get(norm(header) or header.strip())
        if value is None:
            return None
        if norm(value) in IGNORED:
            return ("ignore", "")
        role = role_of(value)
        if role is not None:
            return ("role", role)
        return ("player", value)

    def __bool__(self) -> bool:
        return bool(self.mapping)
