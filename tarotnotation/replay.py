"""The replay engine: re-run a recorded deal under its rules, report every fault, score it.

:func:`replay` takes a :class:`~tarotnotation.records.DealRecord` and returns a
:class:`Replay`: the contract, taker, partner and camps, every trick with its leader,
seats, winner and points, both camps' running points, each camp's points, the bouts, the
bonuses, the :class:`~tarotnotation.scoring.Score`, and every
:class:`~tarotnotation.diagnostics.Diagnostic` found on the way. It never stops at the
first fault: a revoke at trick 3 does not hide an underplayed trump at trick 7 nor a wrong
recorded score.

Every rule comes from the rules kernel (:mod:`tarotnotation.kernel`); this module goes
through a record in phases (:meth:`_Replayer.run` lists them), asks the kernel at each
step, and puts what it finds into words. It steps the kernel's functions rather than a
:class:`~tarotnotation.kernel.PlayState` because a record may break what a state assumes
(a card played out of turn or twice, a leader who did not win the last trick), and the
replay must go on through such faults to find the next ones.

Hands need not be recorded. When they are missing, the engine knows at least the cards
each seat went on to play, and judges every card against that: a player who failed to
follow Hearts and later played a Heart is caught; nothing legal is ever flagged (legality
is monotone in the hand). With the play complete, those known cards *are* the hands.

:func:`legal_moves` gives the legal cards at any point of a recorded deal, from the same
rule function the validator uses (:func:`tarotnotation.kernel.rule`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from operator import attrgetter
from typing import TYPE_CHECKING, Final, NamedTuple

from . import kernel
from .cards import ALL_MASK, BOUTS_MASK, TRUMP_MASK, Card, CardSet, card_points
from .diagnostics import Code, Diagnostic, Location, Severity
from .i18n import Msg, and_list, nmsg, pmsg
from .kernel import DEFENCE, NO_SUIT, TAKER
from .legality import Constraint, constraint, constraint_of
from .plausibility import Facts, check
from .records import ChelemAnnouncement, DealRecord, Misere, PlayedCard, Poignee
from .rules import (
    Camp,
    Contract,
    EcartTrumps,
    FivePlayerFirstLead,
    MisereKind,
    PlayerTable,
    PoigneeSize,
    Ruleset,
)
from .scoring import DealFacts, Score, outcome, score
from .status import Status

if TYPE_CHECKING:  # the readers' source map, a layer above: ReadDeal.replay() calls this
    from .source import SourceMap

__all__ = [
    "PlayedTrick",
    "Position",
    "Replay",
    "Status",
    "TrickCount",
    "legal_moves",
    "replay",
]

_RANK_NAMES: Final = {14: Msg("King"), 13: Msg("Queen"), 12: Msg("Knight"), 11: Msg("Jack")}
_RANKS_NAMES: Final = {14: Msg("Kings"), 13: Msg("Queens"), 12: Msg("Knights"), 11: Msg("Jacks")}
#: The camps as the messages name them (the words of ``Camp``'s values, translated).
_CAMP_WORDS: Final = {Camp.TAKER: pmsg("camp", "taker"), Camp.DEFENCE: pmsg("camp", "defence")}


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
class Position:
    """A point of a deal: whose turn it is, what they hold, and what they may play."""

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


class _StopError(Exception):
    def __init__(self, position: Position) -> None:
        self.position = position


def replay(
    record: DealRecord,
    *,
    deal: int | None = None,
    source: SourceMap | None = None,
) -> Replay:
    """Re-run ``record`` and return what the rules make of it.

    ``deal`` (the 1-based index of the record in its file) and ``source`` (text positions
    from the notation reader) are added to every diagnostic's location.
    """
    result = _Replayer(record, None).run()
    if (deal is None and source is None) or not result.diagnostics:
        return result
    diags = []
    for d in result.diagnostics:
        if deal is not None:
            d = d.at(deal=deal)
        if source is not None:
            d = source.locate(d)
        diags.append(d)
    return replace(result, diagnostics=tuple(diags))


def legal_moves(record: DealRecord, trick: int, index: int) -> Position:
    """The position before card ``index`` (0-based) of trick ``trick`` (1-based).

    The record's play before that point is replayed; the point may be just past the end
    of the recorded play (the next card to play). Raises ValueError when the point is
    beyond it, or when the deal's contract or leader cannot be followed that far.

    >>> from tarotnotation.records import Trick, PlayedCard
    >>> rec = DealRecord(players=4, play=[Trick(cards=[PlayedCard(card=Card.H5)])],
    ...                  hands={"E": CardSet.parse(
    ...                      "1H KH 2S 3S 4S 5S 6S 7S 8S 9S 10S JS NS QS KS T2 T3 EX")})
    >>> pos = legal_moves(rec, 1, 1)
    >>> pos.seat, str(pos.legal)
    ('E', '1H KH EX')
    """
    if trick < 1 or index < 0:
        raise ValueError(Msg("tricks are numbered from 1 and cards from 0"))
    try:
        _Replayer(record, (trick - 1, index)).run()
    except _StopError as stop:
        return stop.position
    raise ValueError(Msg("trick {trick}, card {index} is beyond the recorded play ({n} tricks"
                         " recorded)", trick=trick, index=index, n=len(record.play)))


def _cards_text(bits: int) -> str:
    return str(CardSet(bits))


@dataclass(frozen=True, slots=True)
class _Attribution:
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


class _Replayer:
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
        self.att = _Attribution([], [], [], [], [0] * self.n)
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
                    card=None if card is None else _CODES[card],
                    path=path,
                ),
            )
        )

    def camp_of(self, seat: int) -> int:
        """The kernel's camp of a seat (0 the taker's, 1 the defence), camps known."""
        return TAKER if seat in (self.taker, self.partner) else DEFENCE

    # --- the run ------------------------------------------------------------------------

    def run(self) -> Replay:
        """Every phase in turn, then the score and the comparison with the record."""
        self.read_cards()
        self.read_auction()
        self.check_result_contract()
        self.check_dealt_hands()
        self.check_petit_in_chien()
        self.find_first_leader()
        self.attribute()
        self.find_partner()
        self.count_play()
        self.check_chien_and_ecart()
        self.find_hands_at_first_card()
        self.check_declarations()
        self.check_play()
        return self.conclude()

    # --- the deal ---------------------------------------------------------------------

    def read_cards(self) -> None:
        """The hands as dealt and the chien, where recorded (the chien derived when every
        hand is)."""
        rec = self.rec
        if rec.hands is not None:
            for sid, dealt in rec.hands.items():
                self.given[self.index[sid]] = dealt.bits
        self.chien = rec.chien.bits if rec.chien is not None else None
        if self.chien is None and all(h is not None for h in self.given):
            self.chien = ALL_MASK & ~_union(self.given)

    def check_dealt_hands(self) -> None:
        """A recorded hand that is petit sec (§2): a warning, or the annulment the
        record's result declares."""
        res = self.rec.result
        for s, hand in enumerate(self.given):
            if hand is not None:
                if res is not None and res.annulled and kernel.petit_sec(hand):
                    self.annulled = True  # declared before bidding: no score (§2)
                else:
                    self.check_petit_sec(s, hand, f"hands.{self.ids[s]}")

    def check_petit_sec(self, seat: int, hand: int, path: str | None) -> None:
        """Report a hand held petit sec (§2)."""
        if kernel.petit_sec(hand):
            self.report(Code.PETIT_SEC, Msg("{seat} held the Petit sec (the Petit as only trump,"
                                            " no Excuse): the deal should have been annulled",
                                            seat=self.ids[seat]),
                        path=path, seat=seat)

    def check_petit_in_chien(self) -> None:
        """The Petit in the chien of a Prise or Garde annuls the deal under
        ``petit_in_chien = annuls`` (§12). A deal played out all the same (its play
        recorded, its result not annulled) is flagged and scored as played, as a hand held
        petit sec is (§2)."""
        if (self.contract is not None and self.chien is not None
                and kernel.petit_in_chien_annuls(self.rules, self.contract, self.chien)):
            res = self.rec.result
            if self.rec.play and not (res is not None and res.annulled):
                self.report(Code.PETIT_IN_CHIEN, Msg(
                    "the Petit is in the chien of a {contract}: under petit_in_chien=annuls"
                    " the deal should have been annulled; it was played out, and is scored as"
                    " played", contract=self.contract.french), path="chien")
                return
            self.report(Code.PETIT_IN_CHIEN, Msg("the Petit is in the chien of a {contract}:"
                                                 " under petit_in_chien=annuls the deal is"
                                                 " annulled",
                                                 contract=self.contract.french), path="chien")
            self.annulled = True

    # --- auction ----------------------------------------------------------------------

    def read_auction(self) -> None:
        """The auction (§3): each player speaks once, in turn from the dealer's right;
        each bid higher than the last; all passing annuls the deal."""
        bids = self.rec.auction
        n = self.n
        first = self.index[self.rec.first_seat]
        best: Contract | None = None
        taker: int | None = None
        for i, bid in enumerate(bids):
            path = f"auction[{i}]"
            expected = (first + i) % n
            seat = expected
            if i >= n:
                self.report(Code.AUCTION_TOO_LONG, Msg("each player speaks once: {n} bids"
                                                       " expected, this is bid {i}",
                                                       n=n, i=i + 1), path=path)
            if bid.seat is not None and self.index[bid.seat] != expected:
                seat = self.index[bid.seat]
                self.report(Code.BID_OUT_OF_TURN, Msg("it is {seat}'s turn to speak, not"
                                                      " {seat2}'s",
                                                      seat=self.ids[expected], seat2=bid.seat),
                                                  path=path, seat=seat)
            if bid.contract is not None:
                if not kernel.outbids(bid.contract, best):
                    assert best is not None
                    self.report(Code.BID_NOT_HIGHER, Msg("{contract} is not higher than {best}:"
                                                         " expected pass or a higher contract",
                                                         contract=bid.contract.keyword,
                                                         best=best.keyword),
                                path=path, seat=seat)
                else:
                    best, taker = bid.contract, seat
        if bids and len(bids) < n:
            self.report(Code.AUCTION_INCOMPLETE, Msg("{count} bids for {n} players: every player"
                                                     " speaks once",
                                                     count=len(bids), n=n),
                                                 path=f"auction[{len(bids) - 1}]")
        self.annulled = bool(bids) and len(bids) >= n and best is None
        if self.annulled:
            self.report(Code.ALL_PASSED, Msg("every player passed: the deal is annulled"),
                        path="auction")
        self.contract, self.taker = best, taker

    def check_result_contract(self) -> None:
        """The result's contract and taker: taken when there is no auction (a score
        sheet), compared with the auction's otherwise."""
        res = self.rec.result
        if res is None:
            return
        no_auction = not self.rec.auction
        if res.contract is not None:
            if self.contract is None and no_auction:
                self.contract = res.contract
            elif self.contract is not None and res.contract != self.contract:
                self.report(Code.CONTRACT_MISMATCH,
                            Msg("the result says {contract}, the auction {contract2}",
                                contract=res.contract.keyword, contract2=self.contract.keyword),
                            path="result.contract")
        if res.taker is not None:
            rt = self.index[res.taker]
            if self.taker is None and no_auction:
                self.taker = rt
            elif self.taker is not None and rt != self.taker:
                self.report(Code.TAKER_MISMATCH,
                            Msg("the result names {taker} as taker, the auction {seat}",
                                taker=res.taker, seat=self.ids[self.taker]), path="result.taker")

    def find_first_leader(self) -> None:
        """Who leads the first trick: the dealer's right, or the taker who announced a
        chelem (§5); a chelem announced by another player is a fault."""
        for i, decl in enumerate(self.rec.declarations):
            if isinstance(decl, ChelemAnnouncement):
                s = self.index[decl.seat]
                if self.taker is not None and s != self.taker:
                    self.report(Code.CHELEM_NOT_TAKER,
                                Msg("only the taker ({seat}) may announce a chelem",
                                    seat=self.ids[self.taker]), path=f"declarations[{i}]", seat=s)
                elif self.announcer is None:
                    self.announcer = s
        self.leader0 = kernel.first_leader(self.index[self.rec.first_seat], self.announcer)

    # --- who played what ----------------------------------------------------------------

    def attribute(self) -> None:
        """The seat of every card and the winner of every trick, from the written order
        alone (§6: the winner of a trick leads the next); a written leader or seat that
        is not the one whose turn it is is reported, and taken as the one that played."""
        n = self.n
        rotation = _ROTATIONS[n]
        att = self.att
        played_by, seats_of, cards_of = att.played_by, att.seats, att.cards
        leaders, winners = att.leaders, att.winners
        winner_index = kernel.winner_index
        expected = self.leader0
        play = self.rec.play
        last = len(play) - 1
        for t, trick in enumerate(play):
            leader = expected
            if trick.leader is not None and self.index[trick.leader] != expected:
                leader = self.index[trick.leader]
                self.report(Code.WRONG_LEADER,
                            Msg("{seat} leads this trick (it won the previous one), not"
                                " {leader}", seat=self.ids[expected], leader=trick.leader)
                            if t else
                            Msg("{seat} leads this trick (first to play), not {leader}",
                                seat=self.ids[expected], leader=trick.leader),
                            path=f"play[{t}]", trick=t + 1, seat=leader)
            pcs = trick.cards
            cards = list(map(_PLAIN.__getitem__, map(_CARD_OF, pcs)))
            m = len(cards)
            seats: Sequence[int]
            if list(map(_SEAT_OF, pcs)).count(None) == m:
                seats = rotation[leader][:m]
            else:
                seats = self.seats_written(t, pcs, leader)
            for s, card in zip(seats, cards, strict=True):
                played_by[s] |= 1 << card
            seats_of.append(seats)
            cards_of.append(cards)
            leaders.append(leader)
            winner: int | None = None
            if m == n:
                w = winner_index(cards)
                winner = seats[w] if w is not None else None
            elif t < last:
                self.report(Code.TRICK_INCOMPLETE, nmsg("trick {t} has {m} card: every trick"
                                                        " but the last one recorded has {n}",
                                                        "trick {t} has {m} cards: every trick"
                                                        " but the last one recorded has {n}", m,
                                                        t=t + 1, m=m, n=n),
                            path=f"play[{t}]", trick=t + 1)
            winners.append(winner)
            if winner is not None:
                expected = winner
        self.complete = (len(play) == self.tab.tricks
                         and all(len(t.cards) == n for t in play))

    def seats_written(self, t: int, pcs: Sequence[PlayedCard], leader: int) -> list[int]:
        """The seats of a trick's cards where some are written: a written seat that is not
        the one whose turn it is is reported, and taken as the one that played."""
        seats = []
        for c, pc in enumerate(pcs):
            s = (leader + c) % self.n
            if pc.seat is not None and self.index[pc.seat] != s:
                self.report(Code.OUT_OF_TURN, Msg("it is {seat}'s turn, not {seat2}'s",
                                                  seat=self.ids[s], seat2=pc.seat),
                                              path=f"play[{t}].cards[{c}]", trick=t + 1,
                            seat=self.index[pc.seat], card=pc.card)
                s = self.index[pc.seat]
            seats.append(s)
        return seats

    # --- the call (five players) --------------------------------------------------------

    def find_partner(self) -> None:
        """The called card and its holder, the partner (§3, five players only)."""
        rec = self.rec
        self.called = rec.call.card if rec.call is not None else None
        if self.n != 5 and rec.call is not None:
            self.report(Code.CALL_NOT_ALLOWED,
                        Msg("a card is called only at five players, not at {n}",
                            n=self.n), path="call")
            self.called = None
        if self.n == 5 and self.contract is not None and not self.annulled:
            self.partner, self.partner_known = self.call()

    def call(self) -> tuple[int | None, bool]:
        """The partner at five players, and whether it is known: from the hands, from
        who played the called card (never played in a complete deal: it is in the chien
        or the écart, the taker alone), or from the recorded result."""
        res = self.rec.result
        called, taker = self.called, self.taker
        if called is None:
            if self.rec.unrecorded("call"):
                # The source format cannot hold the call (a 5-player TarotClub log): a limit
                # of the format, said once as a warning, with what it leaves uncounted.
                source = self.rec.tag("Source") or pmsg("format", "source")
                if res is None or res.taker_points is None or res.bouts is None:
                    self.uncalled = self.count_uncalled()
                self.report(Code.CALL_MISSING, Msg(
                    "the {source} format cannot hold the called card at five players: the"
                    " partner is unknown (a limit of the format, not a fault of the game),"
                    " so who won each trick for the taker's camp and each player's score"
                    " cannot be counted", source=source)
                    if self.uncalled is not None or (
                        res is not None and res.taker_points is not None
                        and res.bouts is not None) else Msg(
                    "the {source} format cannot hold the called card at five players: the"
                    " partner is unknown (a limit of the format, not a fault of the game),"
                    " so who won each trick for the taker's camp, that camp's points and"
                    " bouts, and each player's score cannot be counted", source=source),
                    path="call", severity=Severity.WARNING)
            elif self.rec.play or self.rec.hands is not None:
                self.report(Code.CALL_MISSING, Msg("at five players the taker calls a card (a"
                                                   " King) before the chien is turned"),
                                               path="call")
            if res is not None and res.partner is not None:
                p = self.index[res.partner]
                return (None if p == taker else p), True
            return None, False
        self.check_call_rank(called)
        holder: int | None = None
        found = False
        for s, hand in enumerate(self.given):
            if hand is not None and hand >> called & 1:
                holder, found = s, True
        if not found and self.chien is not None and self.chien >> called & 1:
            found = True
        if not found:
            for t, trick in enumerate(self.rec.play):
                for c, pc in enumerate(trick.cards):
                    if pc.card == called:
                        holder, found = self.att.seats[t][c], True
            if not found and self.complete:
                found = True  # never played: in the chien or the écart, the taker is alone
        if not found:
            if res is not None and res.partner is not None:
                # A score sheet: the cards do not tell, the recorded partner does.
                p = self.index[res.partner]
                return (None if p == taker else p), True
            return None, False
        return (None if holder == taker else holder), True

    def count_uncalled(self) -> tuple[int, int] | None:
        """The taker's camp's half-points and bouts from a whole play whose call the
        format cannot hold, when every partner the call allows (§3) gives the same count;
        else None. The taker's hand as dealt lies within what he played and the cards never
        played, and a card callable with fewer cards is callable with more
        (:func:`kernel.call_fault`), so each holder of a card callable with those cards is
        tried as the partner, and the taker alone when one of them is his or aside."""
        taker, att = self.taker, self.att
        if not self.complete or taker is None or self.contract is None:
            return None
        held = att.played_by[taker] | (ALL_MASK & ~_union(att.played_by))
        partners: set[int | None] = set()
        for card in range(56):  # (only plain cards are called)
            if kernel.call_fault(card, held) == 0:
                owner = next((s for s in range(self.n) if att.played_by[s] >> card & 1), None)
                partners.add(None if owner in (None, taker) else owner)
        counted: set[tuple[int, int]] = set()
        winners = [w for w in att.winners if w is not None]
        for partner in partners:
            camps = [TAKER if s in (taker, partner) else DEFENCE for s in range(self.n)]
            facts = self.facts_from_play(kernel.count_tricks(
                self.rules, att.cards, camps, self.tab.tricks, seats=att.seats,
                winners=winners))
            counted.add((facts.taker_half, facts.bouts))
        return counted.pop() if len(counted) == 1 else None

    def check_call_rank(self, called: Card) -> None:
        """A King is called; a Queen, Knight or Jack only by a taker holding every card
        of each higher rank (§3, :func:`kernel.call_fault`). A trump or the Excuse cannot
        be called."""
        taker = self.taker
        hand = None if taker is None else self.given[taker]
        # (a hand not recorded: only the card itself is judged, every rank held)
        fault = kernel.call_fault(called, ALL_MASK if hand is None else hand)
        if fault > 0:
            self.report(Code.CALL_WRONG_RANK, Msg("the taker may call a {rank} only when"
                                                  " holding all four {ranks}: expected a"
                                                  " {rank2}",
                                                  rank=_RANK_NAMES[called.rank],
                                                  rank2=_RANK_NAMES[fault],
                                                  ranks=_RANKS_NAMES[fault]),
                        path="call", card=called)
        elif fault < 0:
            self.report(Code.CALL_WRONG_RANK, Msg("{called} cannot be called: expected a King"
                                                  " (or a Queen, Knight or Jack when holding"
                                                  " every higher card)", called=called.code),
                        path="call", card=called)

    def count_play(self) -> None:
        """The whole tricks, camps known, counted by the kernel (§6-§10,
        :func:`kernel.count_tricks`): each one's winner (the Excuse led to the last trick
        by a camp that won every earlier one wins it under ``chelem_excuse_wins``), each
        camp's cards with the Excuse's exchange, petit au bout and chelem. Counting stops
        at the first trick that is not whole; the winners are the kernel's."""
        if self.taker is None or not self.partner_known:
            return
        att = self.att
        won: list[int] = []  # (the winners of the whole tricks, up to the first not whole)
        for w in att.winners:
            if w is None:
                break
            won.append(w)
        whole = len(won)
        self.counting = kernel.count_tricks(
            self.rules, att.cards[:whole], [self.camp_of(s) for s in range(self.n)],
            self.tab.tricks, seats=att.seats[:whole],
            winners=won)  # (attribute's, by kernel.winner_index)
        att.winners[:whole] = self.counting.winners

    # --- chien and écart ---------------------------------------------------------------

    def check_chien_and_ecart(self) -> None:
        """The écart (§4): only in a Prise or Garde; its size; cards of the taker's hand
        and the chien; no King nor bout; trumps only when unavoidable, and shown."""
        if self.contract is None or self.taker is None or self.annulled:
            return
        contract, taker = self.contract, self.taker
        rec = self.rec
        size = self.tab.chien
        recorded = rec.ecart
        if not contract.takes_chien:
            if recorded is not None and recorded.cards:
                self.report(Code.ECART_NOT_ALLOWED, Msg("in a {contract} the chien is not taken:"
                                                        " expected no écart",
                                                        contract=contract.french),
                                                    path="ecart", seat=taker)
            return
        ecart = recorded.cards.bits if recorded is not None and recorded.cards is not None else None
        if ecart is None and self.complete:
            ecart = ALL_MASK & ~_union(self.att.played_by)
        if ecart is None:
            if recorded is not None and recorded.shown:
                self.check_shown(recorded.shown.bits, None, taker)
            return
        dealt = self.given[taker]
        pool = None if dealt is None or self.chien is None else dealt | self.chien
        if recorded is not None and recorded.cards is not None:
            if len(recorded.cards) != size:
                self.report(Code.ECART_SIZE, Msg("the écart has {size} cards at {n} players,"
                                                 " found {count}",
                                                 size=size, n=self.n, count=len(recorded.cards)),
                                             path="ecart", seat=taker)
            if pool is not None and ecart & ~pool:
                self.report(Code.ECART_NOT_IN_HAND, Msg("{cards} not in the taker's hand and the"
                                                        " chien",
                                                        cards=_cards_text(ecart & ~pool)),
                                                    path="ecart", seat=taker)
        bad = kernel.ecart_forbidden(ecart)
        if bad:
            self.report(Code.ECART_KING_OR_BOUT, Msg("{cards} in the écart: expected no King and"
                                                     " no bout",
                                                     cards=_cards_text(bad)),
                                                 path="ecart", seat=taker)
        trumps = ecart & TRUMP_MASK & ~BOUTS_MASK
        if trumps:
            if pool is not None:
                allowed = kernel.ecart_trumps_allowed(pool, size)
                if trumps.bit_count() > allowed:
                    spare = kernel.ecart_plain(pool) & ~ecart
                    self.report(Code.ECART_TRUMP_AVOIDABLE,
                                nmsg("{cards} in the écart, but the taker could discard {cards2}:"
                                     " expected at most {allowed} trump",
                                     "{cards} in the écart, but the taker could discard {cards2}:"
                                     " expected at most {allowed} trumps", allowed,
                                     cards=_cards_text(trumps), cards2=_cards_text(spare),
                                     allowed=allowed), path="ecart", seat=taker)
            elif self.rules.ecart_trumps is EcartTrumps.NEVER:
                self.report(Code.ECART_TRUMP_AVOIDABLE,
                            Msg("{cards} in the écart: ecart_trumps=never allows trumps only when"
                                " no other écart exists, and the hands are not recorded to show"
                                " it", cards=_cards_text(trumps)), path="ecart", seat=taker)
            shown = recorded.shown.bits if recorded is not None else 0
            if (recorded is not None and recorded.cards is not None) or shown:
                missing = trumps & ~shown
                if missing:
                    self.report(Code.ECART_TRUMP_NOT_SHOWN, nmsg("{cards} discarded but not shown:"
                                                                 " expected every trump of the"
                                                                 " écart shown",
                                                                 "{cards} discarded but not shown:"
                                                                 " expected every trump of the"
                                                                 " écart shown",
                                                                 missing.bit_count(),
                                                                 cards=_cards_text(missing)),
                                path="ecart", seat=taker)
        if recorded is not None and recorded.shown:
            self.check_shown(recorded.shown.bits, ecart, taker)
        self.ecart = ecart

    def check_shown(self, shown: int, ecart: int | None, taker: int) -> None:
        """The cards shown with the écart are its trumps, and only them (§4)."""
        wrong = shown & ~TRUMP_MASK
        if ecart is not None:
            wrong |= shown & ~ecart
        if wrong:
            self.report(Code.ECART_SHOWN_WRONG, nmsg("{cards} shown with the écart: expected only"
                                                     " the trumps of the écart",
                                                     "{cards} shown with the écart: expected"
                                                     " only the trumps of the écart",
                                                     wrong.bit_count(), cards=_cards_text(wrong)),
                                                path="ecart", seat=taker)

    def find_hands_at_first_card(self) -> None:
        """Each seat's hand at the first card: recorded (the taker's with the chien taken
        and the écart made), or the cards it went on to play, which are the hand exactly
        when the play is complete; a derived hand is then checked for the Petit sec."""
        taker, contract, chien, ecart = self.taker, self.contract, self.chien, self.ecart
        takes_chien = contract is not None and contract.takes_chien
        for s in range(self.n):
            at_start = self.given[s]
            if at_start is not None and s == taker and takes_chien:
                at_start = None if chien is None or ecart is None else (at_start | chien) & ~ecart
            if at_start is not None:
                self.start[s], self.exact[s] = at_start, True
            else:
                self.start[s] = self.att.played_by[s]
                self.exact[s] = self.complete
        if self.complete and self.rec.hands is None:
            for s in range(self.n):
                as_dealt: int | None = self.start[s]
                if s == taker and takes_chien:
                    # He took the chien and discarded the écart: undo both.
                    as_dealt = (None if chien is None or ecart is None
                                else (self.start[s] | ecart) & ~chien)
                if as_dealt is not None:
                    self.check_petit_sec(s, as_dealt, None)

    # --- declarations -------------------------------------------------------------------

    def check_declarations(self) -> None:
        """Poignées (§5: size, trumps from the hand, the Excuse only when no trump is
        left hidden) and misères (§12); one of each kind a seat."""
        seen: set[tuple[int, str]] = set()
        for i, decl in enumerate(self.rec.declarations):
            path = f"declarations[{i}]"
            s = self.index[decl.seat]
            key = (s, decl.kind)
            if key in seen:
                self.report(Code.DECLARATION_TWICE, Msg("{seat} declares a {kind} twice: expected"
                                                        " one",
                                                        seat=decl.seat, kind=decl.kind),
                                                    path=path, seat=s)
                continue
            seen.add(key)
            if isinstance(decl, Poignee):
                self.check_poignee(decl, s, path)
            elif isinstance(decl, Misere):
                self.check_misere(decl, s, path)

    def check_poignee(self, decl: Poignee, s: int, path: str) -> None:
        """One poignée: its size at this table, its cards, and the Excuse rule (§5)."""
        counts = self.tab.poignee
        size = decl.size
        if decl.cards is not None:
            shown = decl.cards.bits
            derived = self.tab.poignee_size(len(decl.cards))
            if derived is None:
                self.report(Code.POIGNEE_SIZE, Msg("{count} cards shown: a poignée shows exactly"
                                                   " {counts}, {counts2} or {counts3} trumps at"
                                                   " {n} players",
                                                   count=len(decl.cards), counts=counts[0],
                                                   counts2=counts[1], counts3=counts[2], n=self.n),
                                               path=path, seat=s)
            elif size is not None and size is not derived:
                self.report(Code.POIGNEE_DECLARED_SIZE, Msg("a {size} poignée shows"
                                                            " {poignee_count} trumps; these"
                                                            " {count} make a {derived}",
                                                            size=size.value,
                                                            poignee_count=self.tab.poignee_count(size),
                                                            count=len(decl.cards),
                                                            derived=derived.value),
                                                        path=path, seat=s)
            size = size or derived
            not_trump = kernel.poignee_wrong_cards(shown)
            if not_trump:
                self.report(Code.POIGNEE_NOT_TRUMP, nmsg("{cards} shown: expected only trumps (and"
                                                         " the Excuse)",
                                                         "{cards} shown: expected only trumps"
                                                         " (and the Excuse)",
                                                         not_trump.bit_count(),
                                                         cards=_cards_text(not_trump)),
                                                    path=path, seat=s)
            elsewhere = 0
            for other in range(self.n):
                if other != s:
                    elsewhere |= self.att.played_by[other] | (
                        self.start[other] if self.exact[other] else 0)
            if s != self.taker and self.ecart is not None:
                elsewhere |= self.ecart
            missing = shown & (~self.start[s] if self.exact[s] else elsewhere)
            if missing:
                self.report(Code.POIGNEE_NOT_IN_HAND, nmsg("{cards} shown but not in {seat}'s hand",
                                                           "{cards} shown but not in {seat}'s"
                                                           " hand", missing.bit_count(),
                                                           cards=_cards_text(missing),
                                                           seat=decl.seat), path=path, seat=s)
            hidden = kernel.poignee_hidden_trumps(self.start[s], shown)
            if hidden:
                self.report(Code.POIGNEE_EXCUSE, Msg("the Excuse stands in for a trump while"
                                                     " {cards} stay hidden: expected those trumps"
                                                     " shown instead",
                                                     cards=_cards_text(hidden)), path=path, seat=s)
        if size is not None:
            self.poignees.append((s, size))

    def check_misere(self, decl: Misere, s: int, path: str) -> None:
        """A misère (``misere = on``, §12): no trump nor Excuse, or no face card."""
        if not self.rules.misere:
            self.report(Code.MISERE_NOT_ALLOWED, Msg("misère is declared but the ruleset has"
                                                     " misere=off"), path=path, seat=s)
            return
        bad = kernel.misere_faults(self.start[s], decl.misere)
        if bad:
            what = (Msg("no trump and no Excuse") if decl.misere is MisereKind.ATOUT
                    else Msg("no King, Queen, Knight or Jack"))
            self.report(Code.MISERE_FALSE, Msg("{seat} holds {cards}: a misère {misere} needs"
                                               " {what}",
                                               seat=decl.seat, cards=_cards_text(bad),
                                               misere=decl.misere.value, what=what),
                                           path=path, seat=s)
        else:
            self.miseres.append(s)

    # --- the play -----------------------------------------------------------------------

    def check_play(self) -> None:
        """Every card (§6): in the hand, not played before, and legal where it was
        played; then the cards left in a hand after the last trick, and a play that stops
        early."""
        rec, n = self.rec, self.n
        if self.annulled and rec.play:
            self.report(Code.PLAY_AFTER_ANNULMENT, Msg("the deal is annulled: no card should be"
                                                       " played"), path="play[0]")
        first_lead_called = (
            int(self.called) if self.called is not None and n == 5
            and self.rules.five_player_first_lead is FivePlayerFirstLead.NO_CALLED_SUIT
            else None)
        hands = list(self.start)
        played = 0
        out: list[PlayedTrick] = []
        att = self.att
        stop = self.stop
        exact = self.exact
        table = kernel.transitions().table
        nothing_led = kernel.state_of(NO_SUIT, 0)
        for t, cards in enumerate(att.cards):
            bits = 0
            seats = att.seats[t]
            state = nothing_led
            for c, card in enumerate(cards):
                s = seats[c]
                called = first_lead_called if t == 0 and c == 0 else None
                if stop is not None and stop == (t, c):
                    self.stop_at(t, s, hands, cards[:c], called)
                bit = 1 << card
                hand = hands[s]
                forbid, after = table[state + card]
                if played & bit:
                    self.report(Code.PLAYED_TWICE, Msg("{card} was already played",
                                                       card=_CODES[card]),
                                path=f"play[{t}].cards[{c}]", trick=t + 1, seat=s, card=card)
                elif exact[s] and not hand & bit:
                    self.report(Code.NOT_IN_HAND, Msg("{seat} does not hold {card}{where}",
                                                      seat=self.ids[s], card=_CODES[card],
                                                      where=self.where(card, s)),
                                                  path=f"play[{t}].cards[{c}]",
                                trick=t + 1, seat=s, card=card)
                elif hand & forbid or called is not None:
                    # The rule itself (the kernel's), for its words.
                    answer = kernel.rule_in(hand, *kernel.led_top(state), called)
                    if not answer[0] & bit:
                        illegal = constraint_of(*answer).explain(card)
                        if illegal is not None:
                            self.report(illegal.code, illegal.message,
                                        path=f"play[{t}].cards[{c}]", trick=t + 1,
                                        seat=s, card=card)
                state = after
                hands[s] = hand & ~bit
                played |= bit
                bits |= bit
            self.trick_bits.append(bits)
            out.append(PlayedTrick(t + 1, att.leaders[t], tuple(map(_CARDS.__getitem__, cards)),
                                   tuple(seats), att.winners[t], card_points(bits)))
        if stop is not None:
            self.stop_after(stop, hands, first_lead_called)
        if self.complete:
            for s in range(n):
                if self.exact[s] and hands[s]:
                    self.report(Code.CARDS_LEFT, Msg("{seat} still holds {cards} after the last"
                                                     " trick",
                                                     seat=self.ids[s], cards=_cards_text(hands[s])),
                                                 seat=s,
                                path=f"hands.{self.ids[s]}")
        self.tricks = tuple(out)
        if not self.complete and rec.play and not self.annulled:
            tricks_total = self.tab.tricks
            self.report(Code.PLAY_INCOMPLETE,
                        Msg("the play stops at trick {count} of {tricks_total} ({played_count} of"
                            " {n})",
                            count=len(rec.play), tricks_total=tricks_total,
                            played_count=_played_count(rec), n=n * tricks_total),
                        path=f"play[{len(rec.play) - 1}]")

    def stop_after(self, stop: tuple[int, int], hands: list[int],
                   first_lead_called: int | None) -> None:
        """For :func:`legal_moves` just past the recorded play: the next card of the last
        trick, or the lead of the next trick."""
        t, c = stop
        play = self.rec.play
        if play and t == len(play) - 1 and c == len(play[t].cards) < self.n:
            self.stop_at(t, (self.att.leaders[t] + c) % self.n, hands,
                         [pc.card for pc in play[t].cards],
                         first_lead_called if t == 0 and c == 0 else None)
        if t == len(play) and c == 0 and t < self.tab.tricks:
            leader = self.att.winners[-1] if play else self.leader0
            if leader is not None:
                self.stop_at(t, leader, hands, [], first_lead_called if t == 0 else None)

    def stop_at(self, t: int, s: int, hands: list[int], cards: Sequence[int],
                called: int | None) -> None:
        """Stop the run with the position of seat ``s`` before its card of trick ``t``."""
        raise _StopError(Position(
            trick=t + 1, seat=self.ids[s], hand=CardSet(hands[s]), exact=self.exact[s],
            played=tuple(Card(c) for c in cards),
            constraint=constraint(hands[s], cards, called),
        ))

    def where(self, card: int, seat: int) -> str:
        """Where a card played by a seat that did not hold it was: another hand, the
        écart or the chien."""
        bit = 1 << card
        for s, hand in enumerate(self.given):
            if hand is not None and hand & bit and s != seat:
                return Msg(": it was dealt to {seat}", seat=self.ids[s])
        if self.ecart is not None and self.ecart & bit:
            return Msg(": it is in the écart")
        if self.chien is not None and self.chien & bit:
            return Msg(": it is in the chien")
        return ""

    # --- counting -------------------------------------------------------------------------

    def count_tricks(self, counting: kernel.Counting) -> list[TrickCount]:
        """Each whole trick's count (§7), as the kernel counted it (:meth:`count_play`):
        the winner and both camps' running points. A card played twice counts once, in
        the trick it was first in."""
        ids, camps = self.ids, _CAMPS
        out: list[TrickCount] = []
        taker_half = total = 0  # (the half-points of the tricks counted so far)
        for end, tr, bits in zip(counting.tricks, self.tricks, self.trick_bits, strict=False):
            live = end.taker | end.defence
            points = tr.points if live == bits else card_points(live)
            total += points
            # (the points of the whole trick are known; only a split one is counted again)
            taker_half += (points if not end.defence else card_points(end.taker) if end.taker
                           else 0) + end.moved
            excuse = camps[end.excuse] if end.excuse >= 0 and end.excuse != end.camp else None
            assert tr.winner is not None
            out.append(TrickCount(tr.number, ids[tr.winner], camps[end.camp], tr.points,
                                  taker_half, total - taker_half, excuse))
        return out

    def facts_from_play(self, counting: kernel.Counting) -> DealFacts:
        """The deal's facts from a complete play (§7-§10): each camp's points with the
        cards never played, the bouts, petit au bout and chelem."""
        assert self.contract is not None
        assert self.taker is not None
        taker_cards = counting.taker
        unplayed = ALL_MASK & ~_union(self.att.played_by)
        if kernel.unplayed_camp(self.contract) == TAKER:
            taker_cards |= unplayed
        taker_half = card_points(taker_cards) + counting.moved
        bouts = (taker_cards & BOUTS_MASK).bit_count()
        pab, chelem = counting.petit, counting.chelem
        return DealFacts(
            players=self.n, taker=self.taker, contract=self.contract, taker_half=taker_half,
            bouts=bouts, partner=self.partner,
            petit_au_bout=None if pab < 0 else _CAMPS[pab],
            poignees=tuple(size for _, size in self.poignees),
            chelem_announced=self.announcer is not None,
            chelem=None if chelem < 0 else _CAMPS[chelem], miseres=tuple(self.miseres),
        )

    def facts_from_result(self) -> DealFacts | None:
        """The deal's facts from the recorded result (a score sheet, or a play that stops
        early), or None when it lacks what the score needs."""
        assert self.contract is not None
        assert self.taker is not None
        res = self.rec.result
        if res is not None and (
                (res.taker_points is not None and res.taker_points.exact_half is None)
                or (res.bouts is not None and not 0 <= res.bouts <= 3)):
            return None  # no score from facts that cannot be counted (check_facts said why)
        missing: list[str] = []
        if res is None or res.taker_points is None:
            missing.append(Msg("the taker's points"))
        if res is None or res.bouts is None:
            missing.append(Msg("the bouts"))
        if not self.partner_known:
            if not missing and self.rec.unrecorded("call"):
                # Only the partner is missing, and the format cannot hold it (K101 said so):
                # the taker's camp's points and bouts are known, the seats' scores are not.
                assert res is not None
                assert res.taker_points is not None
                assert res.bouts is not None
                self.uncalled = (res.taker_points.half, res.bouts)
                return None
            missing.append(Msg("the partner"))
        if missing:
            if res is not None and (res.scores or res.taker_points is not None):
                self.report(Code.NOT_SCORABLE, Msg("the score cannot be recomputed: the record"
                                                   " lacks {join}",
                                                   join=and_list(missing)), path="result")
            return None
        assert res is not None
        assert res.taker_points is not None
        assert res.bouts is not None
        return DealFacts(
            players=self.n, taker=self.taker, contract=self.contract,
            taker_half=res.taker_points.half, bouts=res.bouts, partner=self.partner,
            petit_au_bout=res.petit_au_bout,
            poignees=tuple(size for _, size in self.poignees),
            chelem_announced=self.announcer is not None, chelem=res.chelem,
            miseres=tuple(self.miseres),
        )

    # --- the conclusion -------------------------------------------------------------------

    def conclude(self) -> Replay:
        """The camps, the running counts, the deal's facts and score, and the
        comparison with the recorded result."""
        n, rec = self.n, self.rec
        camps: dict[str, Camp] = {}
        counts: list[TrickCount] | None = None
        if self.taker is not None and self.partner_known:
            for s in range(n):
                camps[self.ids[s]] = _CAMPS[self.camp_of(s)]
            counts = self.count_tricks(self.counting) if self.counting is not None else []
        taker_id = None if self.taker is None else self.ids[self.taker]
        partner_id = None if self.partner is None else self.ids[self.partner]
        declared = tuple((None if s is None else self.ids[s], size) for s, size in self.poignees)
        known = {self.ids[s]: CardSet(self.start[s]) for s in range(n) if self.exact[s]}

        def done(status: Status, facts: DealFacts | None = None, sc: Score | None = None,
                 scores: dict[str, int] | None = None) -> Replay:
            taker_half, bouts = ((facts.taker_half, facts.bouts) if facts is not None
                                 else self.uncalled or (None, None))
            return Replay(
                record=rec, rules=self.rules, status=status, diagnostics=tuple(self.diags),
                contract=self.contract, taker=taker_id, partner=partner_id,
                called=self.called, camps=camps, tricks=self.tricks,
                counts=() if counts is None else tuple(counts),
                chelem_announced=self.announcer is not None, poignees=declared,
                hands=known, facts=facts, score=sc, scores=scores,
                taker_half=taker_half, defence_half=None if taker_half is None
                else 182 - taker_half, bouts=bouts,
                petit_au_bout=None if facts is None else facts.petit_au_bout,
                chelem=None if facts is None else facts.chelem,
            )

        res = rec.result
        self.check_facts()
        if self.annulled:
            self.check_annulled_result()
            return done(Status.ANNULLED)
        if res is not None and res.annulled:
            self.report(Code.ANNULMENT_MISMATCH, Msg("the result says the deal was annulled, but"
                                                     " nobody held the Petit sec, not every"
                                                     " player passed and the ruleset does not"
                                                     " annul it: expected a score"),
                        path="result.annulled")
        if self.contract is None or self.taker is None:
            if rec.play or rec.result is not None:
                self.report(Code.NOT_SCORABLE, Msg("no contract and taker can be found (no"
                                                   " auction, and the result names none): the"
                                                   " deal is not scored"))
            return done(Status.UNSCORED)
        if self.complete and self.counting is not None:
            facts = self.facts_from_play(self.counting)
            self.compare_result(facts)
        else:
            maybe = self.facts_from_result()
            if maybe is None:
                # (a whole play not scored lacks the partner: unscored, not incomplete)
                return done(Status.INCOMPLETE if rec.play and not self.complete
                            else Status.UNSCORED)
            facts = maybe
        sc = score(facts)
        scores = dict(zip(self.ids, sc.seats, strict=True))
        self.compare_scores(scores)
        return done(Status.SCORED, facts, sc, scores)

    def check_facts(self) -> None:
        """The recorded facts against what a deal can produce
        (:func:`tarotnotation.plausibility.check`), for score sheets and played deals
        alike."""
        res = self.rec.result
        if res is None:
            return
        poignees: list[tuple[int, int, int]] = []
        declared: list[tuple[int, int, MisereKind]] = []
        for i, decl in enumerate(self.rec.declarations):
            s = self.index[decl.seat]
            if isinstance(decl, Poignee) and all(p[1] != s for p in poignees):  # H106 else
                count = (len(decl.cards) if decl.cards is not None
                         else self.tab.poignee_count(decl.size) if decl.size is not None else 0)
                poignees.append((i, s, count))
            elif isinstance(decl, Misere):
                declared.append((i, s, decl.misere))
        scores = res.scores or {}
        facts = Facts(
            players=self.n, rules=self.rules, seat_ids=self.ids, contract=self.contract,
            taker=self.taker, partner=self.partner, partner_known=self.partner_known,
            points=None if res.taker_points is None else res.taker_points.value,
            points_written=None if res.taker_points is None else str(res.taker_points),
            bouts=res.bouts, petit_au_bout=res.petit_au_bout, chelem=res.chelem,
            chelem_announced=self.announcer is not None,
            annulled=self.annulled or res.annulled,
            recorded_partner=None if res.partner is None else self.index[res.partner],
            poignees=tuple(poignees), miseres=tuple(declared),
            misere_seats=tuple(self.miseres), scores=tuple(scores.get(sid) for sid in self.ids),
        )
        for finding in check(facts):
            self.report(finding.code, finding.message, path=finding.path, seat=finding.seat)

    def compare_result(self, facts: DealFacts) -> None:
        """The recorded points, bouts, partner, petit au bout and chelem against the
        play's."""
        res = self.rec.result
        if res is None:
            return
        if res.taker_points is not None and res.taker_points.exact_half != facts.taker_half:
            self.report(Code.POINTS_MISMATCH, Msg("the result gives the taker {taker_points}"
                                                  " points; the play gives {points}",
                                                  taker_points=res.taker_points,
                                                  points=_pts(facts.taker_half)),
                        path="result.taker_points")
        if res.bouts is not None and res.bouts != facts.bouts:
            self.report(Code.BOUTS_MISMATCH, nmsg("the result gives the taker {bouts} bout; the"
                                                  " play gives {bouts2}",
                                                  "the result gives the taker {bouts} bouts; the"
                                                  " play gives {bouts2}", res.bouts,
                                                  bouts=res.bouts, bouts2=facts.bouts),
                                             path="result.bouts")
        if self.n == 5 and res.partner is not None:
            rp = self.index[res.partner]
            actual = facts.taker if self.partner is None else self.partner
            if rp != actual:
                self.report(Code.PARTNER_MISMATCH, Msg("the result names {partner} as partner;"
                                                       " the called card was held by {seat}",
                                                       partner=res.partner, seat=self.ids[actual]),
                            path="result.partner")
        if res.petit_au_bout is not None and res.petit_au_bout is not facts.petit_au_bout:
            actual_pab = (Msg("nobody") if facts.petit_au_bout is None
                          else _CAMP_WORDS[facts.petit_au_bout])
            self.report(Code.PETIT_AU_BOUT_MISMATCH, Msg("the result gives the petit au bout to"
                                                         " the {petit_au_bout}; the play gives it"
                                                         " to {actual_pab}",
                                                         petit_au_bout=_CAMP_WORDS[res.petit_au_bout],
                                                         actual_pab=actual_pab),
                        path="result.petit_au_bout")
        if res.chelem is not None and res.chelem is not facts.chelem:
            actual_ch = (Msg("no camp") if facts.chelem is None
                         else Msg("the {camp}", camp=_CAMP_WORDS[facts.chelem]))
            self.report(Code.CHELEM_MISMATCH, Msg("the result gives a chelem to the {chelem}; in"
                                                  " the play {actual_ch} won every trick",
                                                  chelem=_CAMP_WORDS[res.chelem],
                                                  actual_ch=actual_ch),
                        path="result.chelem")

    def compare_scores(self, scores: dict[str, int]) -> None:
        """Each recorded score against the rules' (their sum: :meth:`check_facts`)."""
        res = self.rec.result
        if res is None or res.scores is None:
            return
        for sid, recorded in res.scores.items():
            if scores[sid] != recorded:
                self.report(Code.SCORE_MISMATCH, Msg("{sid} is recorded with {recorded}; the"
                                                     " rules give {scores}",
                                                     sid=sid, recorded=format(recorded, '+d'),
                                                     scores=format(scores[sid], '+d')),
                                                 path=f"result.scores.{sid}",
                            seat=self.index[sid])

    def check_annulled_result(self) -> None:
        """An annulled deal scores nothing: every recorded score is 0."""
        res = self.rec.result
        if res is None or res.scores is None:
            return
        self.compare_scores(dict.fromkeys(self.ids, 0))


def _played_count(rec: DealRecord) -> str:
    """``1 card`` or ``n cards``: how many cards a record's play holds."""
    played = sum(len(t.cards) for t in rec.play)
    return f"{played} card" if played == 1 else f"{played} cards"


def _pts(half: int) -> str:
    return str(half // 2) if half % 2 == 0 else f"{half / 2}"


def _union(hands: Sequence[int | None]) -> int:
    out = 0
    for h in hands:
        if h is not None:
            out |= h
    return out


_CARD_OF: Final = attrgetter("card")
_SEAT_OF: Final = attrgetter("seat")
_ROTATIONS: Final = {n: tuple(tuple((leader + c) % n for c in range(n)) for leader in range(n))
                     for n in (3, 4, 5)}
_PLAIN: Final = tuple(range(78))
_CARDS: Final = tuple(Card)
_CODES: Final = tuple(c.code for c in Card)
_CAMPS: Final = (Camp.TAKER, Camp.DEFENCE)
