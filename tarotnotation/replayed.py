"""What a replay gives (:func:`tarotnotation.replay.replay`, which gives these names too):
:class:`Replay`, the deal replayed; :class:`PlayedTrick` and :class:`TrickCount`, each
trick as played and as counted; :class:`Turn`, a point of a recorded deal (whose turn
it is, what they hold, what they may play) where :func:`tarotnotation.replay.legal_moves`
stops."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from .cards import Card, CardSet
from .diagnostics import Diagnostic, Severity
from .legality import Constraint
from .records import DealRecord
from .rules import (
    Camp,
    Contract,
    PoigneeSize,
    Ruleset,
)
from .scoring import DealFacts, Score, outcome
from .status import Status

__all__ = ["PlayedTrick", "Replay", "TrickCount", "Turn"]

@dataclass(frozen=True, slots=True)
class PlayedTrick:
    """A trick as replayed. Seats are indices in the order of play."""

    number: int
    """1-based."""
    leader: int
    cards: tuple[Card, ...]
    seats: tuple[int, ...]
    winner: int | None
    """The seat that won it; None while the trick is incomplete."""
    points: int
    """Half-points of its cards."""

    @property
    def complete(self) -> bool:
        """True when every player has played to it."""
        return self.winner is not None


class TrickCount(NamedTuple):
    """One complete trick's winner and both camps' points after it, as the kernel counts
    them (half-points, tricks only: the chien or écart is counted at the end)."""

    number: int
    winner: str
    camp: Camp
    """The camp of the trick's winner."""
    points: int
    """Half-points of the trick's cards."""
    taker_half: int
    defence_half: int
    excuse: Camp | None = None
    """The camp the Excuse of this trick went to, when it did not go to the winner's."""


@dataclass(frozen=True, slots=True)
class Replay:
    """What the rules make of a record. ``diagnostics`` lists every fault found."""

    record: DealRecord
    rules: Ruleset
    status: Status
    diagnostics: tuple[Diagnostic, ...]
    contract: Contract | None = None
    taker: str | None = None
    partner: str | None = None
    """At five players, the holder of the called card; None when the taker plays alone."""
    called: Card | None = None
    camps: Mapping[str, Camp] = field(default_factory=dict)
    tricks: tuple[PlayedTrick, ...] = ()
    counts: tuple[TrickCount, ...] = ()
    """Each complete trick's winner and both camps' running points, once the camps are
    known (empty without a taker, or at five players with the partner unknown)."""
    taker_half: int | None = None
    """The taker's camp's points in half-points."""
    defence_half: int | None = None
    bouts: int | None = None
    """Bouts held by the taker's camp."""
    petit_au_bout: Camp | None = None
    chelem: Camp | None = None
    chelem_announced: bool = False
    poignees: tuple[tuple[str | None, PoigneeSize], ...] = ()
    facts: DealFacts | None = None
    """What the score was computed from (from the play, or from the recorded result)."""
    score: Score | None = None
    scores: Mapping[str, int] | None = None
    """Each seat's recomputed score, by seat id."""
    hands: Mapping[str, CardSet] = field(default_factory=dict)
    """Each seat's hand at the first card, where known exactly (given or derived)."""

    @property
    def errors(self) -> list[Diagnostic]:
        """The diagnostics of severity error (not those that follow from a cause)."""
        return [d for d in self.diagnostics if d.severity is Severity.ERROR and d.counts]

    @property
    def warnings(self) -> list[Diagnostic]:
        """The diagnostics of severity warning (not those that follow from a cause)."""
        return [d for d in self.diagnostics if d.severity is Severity.WARNING and d.counts]

    @property
    def ok(self) -> bool:
        """True when no error was found (warnings allowed)."""
        return not any(d.severity is Severity.ERROR for d in self.diagnostics)

    @property
    def result_differences(self) -> list[Diagnostic]:
        """The diagnostics where the recorded result differs from the recomputed one."""
        return [d for d in self.diagnostics if d.code.value.startswith("R1")]

    @property
    def taker_points(self) -> float | None:
        """The taker's camp's points (may end in .5)."""
        return None if self.taker_half is None else self.taker_half / 2

    @property
    def made(self) -> bool | None:
        """Whether the taker's camp made its contract, when its points and bouts are
        known (as :attr:`tarotnotation.archives.DealSummary.made`)."""
        out = self.outcome
        return None if out is None else out[0]

    @property
    def outcome(self) -> tuple[bool, int] | None:
        """Whether the contract was made, and by how many points, when the taker's camp's
        points and bouts are known (even where the seats' scores are not: a 5-player
        TarotClub log with its score block but no call)."""
        if self.taker_half is None or self.bouts is None:
            return None
        return outcome(self.taker_half, self.bouts)


@dataclass(frozen=True, slots=True)
class Turn:
    """A point of a deal: whose turn it is, what they hold, and what they may play (was
    ``Position``, a name :class:`tarotnotation.analysis.Position` holds: a deal in play
    for the solver)."""

    trick: int
    """1-based number of the trick being played."""
    seat: str
    hand: CardSet
    """The cards the player holds (or is known to hold, when ``exact`` is False)."""
    exact: bool
    """True when the hands were recorded or derived from a complete play."""
    played: tuple[Card, ...]
    """The cards already in the trick, from the leader's."""
    constraint: Constraint

    @property
    def legal(self) -> CardSet:
        """The cards the player may play."""
        return CardSet(self.constraint.legal)


