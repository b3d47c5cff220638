"""Rulesets, switches and the fixed tables of the game (docs/rules.md §2, §3, §5, §9, §12).

A :class:`Ruleset` is an immutable value: a preset (``fft``, the default, or ``pagat``)
with any switch overridden by name. Its *spec* is a short string that records carry.

>>> Ruleset.fft().excuse_last_trick
<ExcuseLastTrick.CHANGES_CAMP: 'changes_camp'>
>>> r = Ruleset.from_spec("pagat misere=on")
>>> r.excuse_last_trick.value, r.ecart_trumps.value, r.misere
('to_trick_winner', 'never', True)
>>> r.spec()
'pagat misere=on'
>>> Ruleset.from_spec("fft").spec()
'fft'
>>> table(5).chien, table(5).poignee
(3, (8, 10, 13))
>>> Contract.GARDE_SANS.multiplier, Contract.GARDE < Contract.GARDE_CONTRE
(4, True)
"""

from __future__ import annotations

from enum import IntEnum, StrEnum
from functools import lru_cache
from typing import Any, Final

from .diagnostics import quote
from .i18n import Msg, or_list
from .lexicon import CONTRACTS
from .values import Value, fields, replace

__all__ = [
    "BOUT_THRESHOLDS",
    "POIGNEE_BONUS",
    "Camp",
    "Contract",
    "EcartTrumps",
    "ExcuseLastTrick",
    "FivePlayerFirstLead",
    "MisereKind",
    "PetitAuBout",
    "PetitInChien",
    "PlayerTable",
    "PoigneeSize",
    "Ruleset",
    "RulesetError",
    "table",
    "threshold",
]


class RulesetError(ValueError):
    """A ruleset spec names an unknown preset, switch or value."""


def _unknown_switch(name: str) -> Msg:
    return Msg("unknown rule switch {name}: expected one of {switches}", name=quote(name),
               switches=", ".join(_SWITCHES))


class Contract(IntEnum):
    """The four contracts, from low to high; the value is the rank of the bid."""

    PRISE = 1
    GARDE = 2
    GARDE_SANS = 3
    GARDE_CONTRE = 4

    @property
    def multiplier(self) -> int:
        """1, 2, 4 or 6."""
        return _MULTIPLIERS[self]

    def __str__(self) -> str:
        return self.keyword

    @property
    def keyword(self) -> str:
        """The lower-case name used in records: ``prise``, ``garde``, ``garde_sans``..."""
        return self.name.lower()

    @property
    def takes_chien(self) -> bool:
        """Prise and Garde: the taker takes the chien into his hand and makes an écart."""
        return self <= Contract.GARDE

    @property
    def french(self) -> str:
        """The French name: Prise, Garde, Garde sans, Garde contre."""
        return _CONTRACT_FRENCH[self]

    @classmethod
    def from_keyword(cls, word: str) -> Contract:
        """Parse ``prise``, ``petite``, ``garde``, ``garde_sans``, ``garde-contre`` (any case).

        >>> Contract.from_keyword("Garde-Sans")
        <Contract.GARDE_SANS: 3>
        """
        key = CONTRACTS.get(word.strip().lower().replace(" ", "_"))
        if key is None:
            raise ValueError(Msg(
                "{word} is not a contract: expected prise, garde, garde_sans or garde_contre",
                word=quote(word)))
        return cls[key.upper()]


_MULTIPLIERS: Final = {1: 1, 2: 2, 3: 4, 4: 6}
_CONTRACT_FRENCH: Final = {1: "Prise", 2: "Garde", 3: "Garde sans", 4: "Garde contre"}


class Camp(StrEnum):
    """The two sides of a deal: the taker's camp (attack) and the defence."""

    TAKER = "taker"
    DEFENCE = "defence"

    @property
    def other(self) -> Camp:
        """The opposite camp."""
        return Camp.DEFENCE if self is Camp.TAKER else Camp.TAKER


class PoigneeSize(StrEnum):
    """Simple, double or triple poignée."""

    SIMPLE = "simple"
    DOUBLE = "double"
    TRIPLE = "triple"

    @property
    def bonus(self) -> int:
        """20, 30 or 40 points (never multiplied)."""
        return POIGNEE_BONUS[self]


POIGNEE_BONUS: Final = {PoigneeSize.SIMPLE: 20, PoigneeSize.DOUBLE: 30, PoigneeSize.TRIPLE: 40}


class MisereKind(StrEnum):
    """Misère d'atout (no trump, no Excuse) or misère de tête (no face card)."""

    ATOUT = "atout"
    TETE = "tete"


# --- switches (docs/rules.md §12) -----------------------------------------------------------


class ExcuseLastTrick(StrEnum):
    """Where an Excuse played to the last trick goes."""

    CHANGES_CAMP = "changes_camp"
    TO_TRICK_WINNER = "to_trick_winner"


class PetitAuBout(StrEnum):
    """When the Petit in the last trick earns the bonus."""

    IN_LAST_TRICK = "in_last_trick"
    WINS_LAST_TRICK = "wins_last_trick"


class EcartTrumps(StrEnum):
    """Whether the écart may hold trumps."""

    IF_UNAVOIDABLE_SHOWN = "if_unavoidable_shown"
    NEVER = "never"


class PetitInChien(StrEnum):
    """What a Petit turned up in the chien of a Prise or Garde does."""

    NO_EFFECT = "no_effect"
    ANNULS = "annuls"


class FivePlayerFirstLead(StrEnum):
    """Whether the called suit may be led to the first trick at five players."""

    NO_CALLED_SUIT = "no_called_suit"
    FREE = "free"


_ON_OFF: Final = {"on": True, "off": False, "true": True, "false": False}


class Ruleset(Value):
    """A preset of the rule switches of docs/rules.md §12, with any of them overridden.

    Build one with :meth:`fft`, :meth:`pagat`, :meth:`preset` or :meth:`from_spec`; change
    a switch with :meth:`with_switch`. Equal rulesets compare equal whatever their preset.
    """

    __slots__ = (
        "chelem_excuse_wins",
        "ecart_trumps",
        "excuse_last_trick",
        "five_player_first_lead",
        "misere",
        "petit_au_bout",
        "petit_in_chien",
        "preset_name",
    )
    preset_name: str
    excuse_last_trick: ExcuseLastTrick
    petit_au_bout: PetitAuBout
    ecart_trumps: EcartTrumps
    petit_in_chien: PetitInChien
    chelem_excuse_wins: bool
    misere: bool
    five_player_first_lead: FivePlayerFirstLead

    def __init__(self, preset_name: str = "fft",
                 excuse_last_trick: ExcuseLastTrick = ExcuseLastTrick.CHANGES_CAMP,
                 petit_au_bout: PetitAuBout = PetitAuBout.IN_LAST_TRICK,
                 ecart_trumps: EcartTrumps = EcartTrumps.IF_UNAVOIDABLE_SHOWN,
                 petit_in_chien: PetitInChien = PetitInChien.NO_EFFECT,
                 chelem_excuse_wins: bool = True, misere: bool = False,
                 five_player_first_lead: FivePlayerFirstLead = (
                     FivePlayerFirstLead.NO_CALLED_SUIT)) -> None:
        setfield = object.__setattr__
        setfield(self, "preset_name", preset_name)
        setfield(self, "excuse_last_trick", excuse_last_trick)
        setfield(self, "petit_au_bout", petit_au_bout)
        setfield(self, "ecart_trumps", ecart_trumps)
        setfield(self, "petit_in_chien", petit_in_chien)
        setfield(self, "chelem_excuse_wins", chelem_excuse_wins)
        setfield(self, "misere", misere)
        setfield(self, "five_player_first_lead", five_player_first_lead)

    @classmethod
    def fft(cls) -> Ruleset:
        """The Fédération Française de Tarot official rules (the default)."""
        return _PRESETS["fft"]

    @classmethod
    def pagat(cls) -> Ruleset:
        """pagat.com's description of the four-player game (seed 003)."""
        return _PRESETS["pagat"]

    @classmethod
    def preset(cls, name: str) -> Ruleset:
        """A preset by name (``fft`` or ``pagat``, any case)."""
        try:
            return _PRESETS[name.strip().lower()]
        except KeyError:
            raise RulesetError(Msg("unknown ruleset {name}: expected one of {presets}",
                                   name=quote(name), presets=", ".join(sorted(_PRESETS)))
                               ) from None

    @staticmethod
    def switch_names() -> tuple[str, ...]:
        """The names of the switches, in the order of docs/rules.md §12."""
        return _SWITCHES

    @staticmethod
    def switch_values(name: str) -> tuple[str, ...]:
        """The values a switch accepts, as written in specs."""
        kind = _SWITCH_TYPES.get(name)
        if kind is None:
            raise RulesetError(_unknown_switch(name))
        if kind is bool:
            return ("on", "off") if name == "misere" else ("true", "false")
        return tuple(m.value for m in kind)  # type: ignore[attr-defined]

    def switch(self, name: str) -> str:
        """The value of a switch as written in specs (``misere`` gives ``on``/``off``)."""
        if name not in _SWITCH_TYPES:
            raise RulesetError(_unknown_switch(name))
        value = getattr(self, name)
        if isinstance(value, bool):
            if name == "misere":
                return "on" if value else "off"
            return "true" if value else "false"
        return str(value.value)

    def with_switch(self, name: str, value: str) -> Ruleset:
        """A copy with one switch set from its written value.

        >>> Ruleset.fft().with_switch("petit_au_bout", "wins_last_trick").spec()
        'fft petit_au_bout=wins_last_trick'
        >>> Ruleset.fft().with_switch("misere", "maybe")
        Traceback (most recent call last):
        ...
        tarotnotation.rules.RulesetError: rule switch misere cannot be 'maybe': expected on or off
        """
        kind = _SWITCH_TYPES.get(name)
        if kind is None:
            raise RulesetError(_unknown_switch(name))
        allowed = self.switch_values(name)
        text = value.strip().lower()
        if text not in allowed:
            raise RulesetError(Msg("rule switch {name} cannot be {value}: expected {allowed}",
                                   name=name, value=quote(value), allowed=or_list(allowed)))
        parsed: Any = _ON_OFF[text] if kind is bool else kind(text)
        return replace(self, **{name: parsed})

    @classmethod
    def from_spec(cls, spec: str) -> Ruleset:
        """Parse ``"<preset> [switch=value ...]"``; an empty spec is ``fft``.

        Parsed specs are cached (a ruleset is an immutable value).

        >>> Ruleset.from_spec("fft excuse_last_trick=to_trick_winner").excuse_last_trick.value
        'to_trick_winner'
        """
        return _from_spec(spec)

    @classmethod
    def _parse_spec(cls, spec: str) -> Ruleset:
        words = spec.split()
        if not words:
            return cls.fft()
        ruleset = cls.preset(words[0]) if "=" not in words[0] else cls.fft()
        for word in words[1:] if "=" not in words[0] else words:
            name, sep, value = word.partition("=")
            if not sep:
                raise RulesetError(Msg("expected switch=value in the ruleset, found {word}",
                                       word=quote(word)))
            ruleset = ruleset.with_switch(name.strip().lower(), value)
        return ruleset

    def overrides(self) -> dict[str, str]:
        """The switches that differ from this ruleset's preset, by name."""
        base = _PRESETS.get(self.preset_name, _PRESETS["fft"])
        return {
            name: self.switch(name)
            for name in _SWITCHES
            if getattr(self, name) != getattr(base, name)
        }

    def spec(self) -> str:
        """The canonical spec string: the preset, then overridden switches in table order."""
        parts = [self.preset_name]
        parts.extend(f"{k}={v}" for k, v in self.overrides().items())
        return " ".join(parts)

    def same_rules(self, other: Ruleset) -> bool:
        """True when both rulesets set every switch alike, whatever their preset names."""
        return all(getattr(self, n) == getattr(other, n) for n in _SWITCHES)


@lru_cache(maxsize=1024)
def _from_spec(spec: str) -> Ruleset:
    return Ruleset._parse_spec(spec)


_SWITCH_TYPES: Final[dict[str, type]] = {
    "excuse_last_trick": ExcuseLastTrick,
    "petit_au_bout": PetitAuBout,
    "ecart_trumps": EcartTrumps,
    "petit_in_chien": PetitInChien,
    "chelem_excuse_wins": bool,
    "misere": bool,
    "five_player_first_lead": FivePlayerFirstLead,
}
_SWITCHES: Final = tuple(_SWITCH_TYPES)
assert set(_SWITCHES) == set(fields(Ruleset)) - {"preset_name"}

_PRESETS: Final[dict[str, Ruleset]] = {
    "fft": Ruleset(),
    "pagat": Ruleset(
        preset_name="pagat",
        excuse_last_trick=ExcuseLastTrick.TO_TRICK_WINNER,
        ecart_trumps=EcartTrumps.NEVER,
    ),
}


class PlayerTable(Value):
    """What depends on the number of players (docs/rules.md §2, §5, §6, §10)."""

    __slots__ = ("chien", "dealt_by", "hand", "players", "poignee")
    players: int
    hand: int
    """Cards dealt to each player."""
    chien: int
    """Cards in the chien."""
    dealt_by: int
    """Cards given at a time while dealing."""
    poignee: tuple[int, int, int]
    """Trumps to show for a simple, double and triple poignée."""

    def __init__(self, players: int, hand: int, chien: int, dealt_by: int,
                 poignee: tuple[int, int, int]) -> None:
        setfield = object.__setattr__
        setfield(self, "players", players)
        setfield(self, "hand", hand)
        setfield(self, "chien", chien)
        setfield(self, "dealt_by", dealt_by)
        setfield(self, "poignee", poignee)

    @property
    def tricks(self) -> int:
        """Number of tricks in a deal (the size of a hand)."""
        return self.hand

    def poignee_size(self, count: int) -> PoigneeSize | None:
        """The poignée that shows exactly ``count`` trumps, or None.

        >>> table(4).poignee_size(13)
        <PoigneeSize.DOUBLE: 'double'>
        >>> table(4).poignee_size(11) is None
        True
        """
        for size, n in zip(PoigneeSize, self.poignee, strict=True):
            if count == n:
                return size
        return None

    def poignee_count(self, size: PoigneeSize) -> int:
        """Trumps to show for a poignée of that size."""
        return self.poignee[list(PoigneeSize).index(size)]


_TABLES: Final = {
    3: PlayerTable(3, 24, 6, 4, (13, 15, 18)),
    4: PlayerTable(4, 18, 6, 3, (10, 13, 15)),
    5: PlayerTable(5, 15, 3, 3, (8, 10, 13)),
}


def table(players: int) -> PlayerTable:
    """The table for 3, 4 or 5 players."""
    try:
        return _TABLES[players]
    except KeyError:
        raise ValueError(Msg("French Tarot is played by 3, 4 or 5 players, not {players}",
                             players=players)) from None


#: Points to make, in half-points, by number of bouts held (docs/rules.md §9).
BOUT_THRESHOLDS: Final = (112, 102, 82, 72)


def threshold(bouts: int) -> int:
    """The taker's threshold in half-points for 0-3 bouts.

    >>> threshold(2) // 2
    41
    """
    return BOUT_THRESHOLDS[bouts]
