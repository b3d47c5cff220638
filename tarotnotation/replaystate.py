"""One run of the replay over one record (:mod:`tarotnotation.replay`): what its phases
find, in :class:`ReplayState`, and how a fault is reported; the phases are
:mod:`tarotnotation.replay` (the cards, the auction, the call, the play),
:mod:`tarotnotation.replaydeclared` (the chien, the écart, the declarations) and
:mod:`tarotnotation.replayresult` (the deal counted, its result compared)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from . import kernel
from .cards import Card, CardSet
from .diagnostics import Code, Diagnostic, Location, Severity
from .kernel import DEFENCE, TAKER
from .records import DealRecord
from .replayed import PlayedTrick
from .rules import (
    Contract,
    PlayerTable,
    PoigneeSize,
    Ruleset,
)

__all__ = ["CARD_CODES", "Attribution", "ReplayState", "cards_text", "union_of"]

def cards_text(bits: int) -> str:
    return str(CardSet(bits))


@dataclass(frozen=True, slots=True)
class Attribution:
    """Who played each card and who won each trick, from the written order alone."""

    seats: list[Sequence[int]]
    """The seat of each card, trick by trick."""
    leaders: list[int]
    winners: list[int | None]
    """The seat that won each trick (None while incomplete); the chelem case of the
    Excuse led to the last trick is applied once the camps are known."""
    cards: list[list[int]]
    """Each trick's cards as plain ints."""
    played_by: list[int]
    """The cards each seat played (a bitset per seat)."""


class ReplayState:
    """One run over one record. Seats are indices; hands and card sets are int bitsets.

    :meth:`run` calls the phases in order; each phase reads what the earlier ones found
    (attributes set in ``__init__``) and reports what is wrong with :meth:`report`.
    """

    def __init__(self, record: DealRecord, stop: tuple[int, int] | None) -> None:
        self.rec = record
        self.stop = stop
        """Where :func:`legal_moves` wants the position: (trick, card), 0-based."""
        self.rules: Ruleset = record.rules
        self.n: int = record.players
        self.tab: PlayerTable = record.table
        self.ids: tuple[str, ...] = record.seat_ids
        self.index = {s: i for i, s in enumerate(self.ids)}
        self.diags: list[Diagnostic] = []
        # What the phases find, in order.
        self.given: list[int | None] = [None] * self.n
        """Each hand as dealt, where recorded."""
        self.chien: int | None = None
        self.contract: Contract | None = None
        self.taker: int | None = None
        self.annulled = False
        self.announcer: int | None = None
        """The seat that announced a chelem (the taker), who then leads."""
        self.leader0 = 0
        self.att = Attribution([], [], [], [], [0] * self.n)
        self.complete = False
        """Every trick recorded, each with every card."""
        self.called: Card | None = None
        self.partner: int | None = None
        self.partner_known = self.n != 5
        self.uncalled: tuple[int, int] | None = None
        """The taker's camp's half-points and bouts from the recorded result when only the
        partner is unknown, the format holding no call (:meth:`facts_from_result`)."""
        self.counting: kernel.Counting | None = None
        """The whole tricks counted by the kernel, camps known (:meth:`count_play`)."""
        self.ecart: int | None = None
        self.start: list[int] = [0] * self.n
        """Each seat's hand at the first card: exactly, or the cards it went on to play."""
        self.exact: list[bool] = [False] * self.n
        self.poignees: list[tuple[int | None, PoigneeSize]] = []
        self.miseres: list[int] = []
        self.tricks: tuple[PlayedTrick, ...] = ()
        self.trick_bits: list[int] = []
        """The bitset of each trick's cards."""

    # --- helpers ----------------------------------------------------------------------

    def report(self, code: Code, message: str, *, path: str | None = None,
               trick: int | None = None, seat: int | None = None,
               card: int | None = None, severity: Severity | None = None) -> None:
        """Add a diagnostic of ``code`` (its default severity unless ``severity`` is
        given) at a place of the record."""
        self.diags.append(
            Diagnostic(
                code,
                severity or code.default_severity,
                message,
                Location(
                    trick=trick,
                    seat=None if seat is None else self.ids[seat],
                    card=None if card is None else CARD_CODES[card],
                    path=path,
                ),
            )
        )

    def camp_of(self, seat: int) -> int:
        """The kernel's camp of a seat (0 the taker's, 1 the defence), camps known."""
        return TAKER if seat in (self.taker, self.partner) else DEFENCE


def union_of(hands: Sequence[int | None]) -> int:
    out = 0
    for h in hands:
        if h is not None:
            out |= h
    return out


CARD_CODES: Final = tuple(c.code for c in Card)
