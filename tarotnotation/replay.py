"""The replay engine: re-run a recorded deal under its rules, report every fault, score it.

:func:`replay` takes a :class:`~tarotnotation.records.DealRecord` and returns a
:class:`Replay`: the contract, taker, partner and camps, every trick with its leader,
seats, winner and points, each camp's points, the bouts, the bonuses, the
:class:`~tarotnotation.scoring.Score`, and every :class:`~tarotnotation.diagnostics.Diagnostic`
found on the way. It never stops at the first fault: a revoke at trick 3 does not hide an
underplayed trump at trick 7 nor a wrong recorded score.

Hands need not be recorded. When they are missing, the engine knows at least the cards
each seat went on to play, and judges every card against that: a player who failed to
follow Hearts and later played a Heart is caught; nothing legal is ever flagged. With the
play complete, those known cards *are* the hands.

:func:`legal_moves` gives the legal cards at any point of a recorded deal, from the same
rule function the validator uses (:func:`tarotnotation.legality.constraint`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from operator import attrgetter
from typing import Any, Final

from .cards import (
    ALL_MASK,
    BOUTS_MASK,
    EXCUSE_BIT,
    FACES_MASK,
    KINGS_MASK,
    SUIT_MASKS,
    TRUMP_MASK,
    TRUMPS_ABOVE,
    Card,
    CardSet,
    Suit,
    card_points,
    card_suit,
)
from .diagnostics import Code, Diagnostic, Location, Severity
from .legality import Constraint, constraint, constraint_of, ecart_plain, rule, winning_index
from .plausibility import Facts, check
from .records import ChelemAnnouncement, DealRecord, Misere, PlayedCard, Poignee
from .rules import (
    Camp,
    Contract,
    EcartTrumps,
    ExcuseLastTrick,
    FivePlayerFirstLead,
    MisereKind,
    PetitAuBout,
    PetitInChien,
    PoigneeSize,
    Ruleset,
)
from .scoring import DealFacts, Score, score
from .source import SourceMap

__all__ = ["PlayedTrick", "Position", "Replay", "Status", "legal_moves", "replay"]

_RANK_NAMES: Final = {14: "King", 13: "Queen", 12: "Knight", 11: "Jack"}


class Status(StrEnum):
    """How far a replay got."""

    SCORED = "scored"
    """A score was computed (from the play, or from the recorded facts)."""
    ANNULLED = "annulled"
    """The deal is annulled (all passed, or the Petit in the chien under ``annuls``)."""
    INCOMPLETE = "incomplete"
    """The play stops before the end and the record gives no facts to score from."""
    UNSCORED = "unscored"
    """The record holds too little to compute a score (no contract, no taker…)."""


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
    taker_half: int | None = None
    """The taker's camp's points in half-points."""
    defence_half: int | None = None
    bouts: int | None = None
    """Bouts held by the taker's camp."""
    petit_au_bout: Camp | None = None
    chelem: Camp | None = None
    chelem_announced: bool = False
    poignees: tuple[tuple[str | None, PoigneeSize], ...] = ()
    score: Score | None = None
    scores: Mapping[str, int] | None = None
    """Each seat's recomputed score, by seat id."""
    hands: Mapping[str, CardSet] = field(default_factory=dict)
    """Each seat's hand at the first card, where known exactly (given or derived)."""

    @property
    def errors(self) -> list[Diagnostic]:
        """The diagnostics of severity error."""
        return [d for d in self.diagnostics if d.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Diagnostic]:
        """The diagnostics of severity warning."""
        return [d for d in self.diagnostics if d.severity is Severity.WARNING]

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
    engine = _Engine(record, None)
    result = engine.run()
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
        raise ValueError("tricks are numbered from 1 and cards from 0")
    engine = _Engine(record, (trick - 1, index))
    try:
        engine.run()
    except _StopError as stop:
        return stop.position
    raise ValueError(
        f"trick {trick}, card {index} is beyond the recorded play"
        f" ({len(record.play)} tricks recorded)"
    )


def _cards_text(bits: int) -> str:
    return str(CardSet(bits))


class _Engine:
    """One run over one record. Seats are indices; hands are int bitsets."""

    def __init__(self, record: DealRecord, stop: tuple[int, int] | None) -> None:
        self.rec = record
        self.stop = stop
        self.rules = record.rules
        self.n = record.players
        self.tab = record.table
        self.ids = record.seat_ids
        self.index = {s: i for i, s in enumerate(self.ids)}
        self.diags: list[Diagnostic] = []
        self.trick_bits: list[int] = []
        """The bitset of each trick's cards (filled by :meth:`play`)."""

    # --- helpers ----------------------------------------------------------------------

    def report(self, code: Code, message: str, *, path: str | None = None,
               trick: int | None = None, seat: int | None = None,
               card: int | None = None) -> None:
        self.diags.append(
            Diagnostic(
                code,
                code.default_severity,
                message,
                Location(
                    trick=trick,
                    seat=None if seat is None else self.ids[seat],
                    card=None if card is None else Card(card).code,
                    path=path,
                ),
            )
        )

    def seat_of(self, seat_id: str | None) -> int | None:
        return None if seat_id is None else self.index[seat_id]

    # --- the run ------------------------------------------------------------------------

    def run(self) -> Replay:
        rec = self.rec
        n = self.n
        first = self.index[rec.first_seat]
        given: list[int | None] = [None] * n
        if rec.hands is not None:
            for sid, dealt in rec.hands.items():
                given[self.index[sid]] = dealt.bits
        chien = rec.chien.bits if rec.chien is not None else None
        if chien is None and all(h is not None for h in given):
            chien = ALL_MASK & ~_union(given)

        # Auction.
        contract, taker, annulled = self.auction(first)
        res = rec.result
        if res is not None:
            if res.contract is not None:
                if contract is None and not rec.auction:
                    contract = res.contract
                elif contract is not None and res.contract != contract:
                    self.report(Code.CONTRACT_MISMATCH,
                                f"the result says {res.contract.keyword}, the auction"
                                f" {contract.keyword}", path="result.contract")
            if res.taker is not None:
                rt = self.index[res.taker]
                if taker is None and not rec.auction:
                    taker = rt
                elif taker is not None and rt != taker:
                    self.report(Code.TAKER_MISMATCH,
                                f"the result names {res.taker} as taker, the auction"
                                f" {self.ids[taker]}", path="result.taker")
        for s, hand in enumerate(given):
            if hand is not None:
                if res is not None and res.annulled and _is_petit_sec(hand):
                    annulled = True  # declared before bidding: no score (RULES.md §2)
                else:
                    self.check_petit_sec(s, hand, f"hands.{self.ids[s]}")
        if (contract is not None and contract.takes_chien and chien is not None
                and chien >> Card.T1 & 1
                and self.rules.petit_in_chien is PetitInChien.ANNULS):
            self.report(Code.PETIT_IN_CHIEN, "the Petit is in the chien of a "
                        f"{contract.french}: under petit_in_chien=annuls the deal is annulled",
                        path="chien")
            annulled = True

        # Chelem announcer leads first.
        announcer: int | None = None
        for i, decl in enumerate(rec.declarations):
            if isinstance(decl, ChelemAnnouncement):
                s = self.index[decl.seat]
                if taker is not None and s != taker:
                    self.report(Code.CHELEM_NOT_TAKER,
                                f"only the taker ({self.ids[taker]}) may announce a chelem",
                                path=f"declarations[{i}]", seat=s)
                elif announcer is None:
                    announcer = s
        leader0 = announcer if announcer is not None else first
        self.leader0 = leader0

        # Attribution: who played each card, and who won each trick.
        seats_of, leaders, winners, cards_of, played_by = self.attribute(leader0)
        played_all = _union(played_by)
        tricks_total = self.tab.tricks
        complete = (len(rec.play) == tricks_total
                    and all(len(t.cards) == n for t in rec.play))

        # Call (five players) and the partner.
        called = rec.call.card if rec.call is not None else None
        partner: int | None = None
        partner_known = n != 5
        if n != 5 and rec.call is not None:
            self.report(Code.CALL_NOT_ALLOWED,
                        f"a card is called only at five players, not at {n}", path="call")
            called = None
        if n == 5 and contract is not None and not annulled:
            partner, partner_known = self.call(called, taker, given, chien, seats_of,
                                               complete)

        chelem_last = False
        if taker is not None and partner_known:
            team = {taker} if partner is None else {taker, partner}
            chelem_last = self.chelem_excuse(seats_of, winners, team)

        # Écart; each seat's hand at the first card (exact, or the known part of it).
        ecart = None
        if contract is not None and taker is not None and not annulled:
            ecart = self.chien_and_ecart(contract, taker, given, chien, played_all, complete)
        start: list[int] = [0] * n
        exact: list[bool] = [False] * n
        for s in range(n):
            at_start = given[s]
            if (at_start is not None and s == taker and contract is not None
                    and contract.takes_chien):
                if chien is not None and ecart is not None:
                    at_start = (at_start | chien) & ~ecart
                else:
                    at_start = None
            if at_start is not None:
                start[s], exact[s] = at_start, True
            else:
                start[s] = played_by[s]
                exact[s] = complete
        if complete and rec.hands is None:
            for s in range(n):
                as_dealt: int | None = start[s]
                if s == taker and contract is not None and contract.takes_chien:
                    # He took the chien and discarded the écart: undo both.
                    as_dealt = (None if chien is None or ecart is None
                                else (start[s] | ecart) & ~chien)
                if as_dealt is not None:
                    self.check_petit_sec(s, as_dealt, None)

        # Declarations.
        poignees, miseres = self.declarations(start, exact, played_by, ecart, taker)

        # The play.
        if annulled and rec.play:
            self.report(Code.PLAY_AFTER_ANNULMENT, "the deal is annulled: no card should be"
                        " played", path="play[0]")
        first_lead_called = (
            called if n == 5 and self.rules.five_player_first_lead
            is FivePlayerFirstLead.NO_CALLED_SUIT else None
        )
        tricks = self.play(seats_of, leaders, winners, cards_of, start, exact, given, chien,
                           ecart, first_lead_called)
        if not complete and rec.play and not annulled:
            self.report(Code.PLAY_INCOMPLETE,
                        f"the play stops at trick {len(rec.play)} of {tricks_total}"
                        f" ({_played_count(rec)} of {n * tricks_total})",
                        path=f"play[{len(rec.play) - 1}]")

        # Camps, points, score.
        camps: dict[str, Camp] = {}
        if taker is not None and partner_known:
            for s in range(n):
                camps[self.ids[s]] = Camp.TAKER if s in (taker, partner) else Camp.DEFENCE
        taker_id = None if taker is None else self.ids[taker]
        partner_id = None if partner is None else self.ids[partner]
        declared = tuple((None if s is None else self.ids[s], size) for s, size in poignees)
        known = {self.ids[s]: CardSet(start[s]) for s in range(n) if exact[s]}

        self.check_facts(contract, taker, partner, partner_known, annulled,
                         announcer is not None, miseres)

        def done(status: Status, **scored: Any) -> Replay:
            return Replay(
                record=rec, rules=self.rules, status=status, diagnostics=tuple(self.diags),
                contract=contract, taker=taker_id, partner=partner_id, called=called,
                camps=camps, tricks=tricks, chelem_announced=announcer is not None,
                poignees=declared, hands=known, **scored,
            )

        if annulled:
            self.check_annulled_result()
            return done(Status.ANNULLED)
        if res is not None and res.annulled:
            self.report(Code.ANNULMENT_MISMATCH, "the result says the deal was annulled, but"
                        " nobody held the Petit sec, not every player passed"
                        " and the ruleset does not annul it: expected a score",
                        path="result.annulled")
        if contract is None or taker is None:
            if rec.play or rec.result is not None:
                self.report(Code.NOT_SCORABLE, "no contract and taker can be found (no"
                            " auction, and the result names none): the deal is not scored")
            return done(Status.UNSCORED)

        if complete and partner_known:
            facts = self.count(contract, taker, partner, tricks, chelem_last, played_all,
                               announcer is not None, poignees, miseres)
            self.compare_result(facts, partner)
        else:
            maybe = self.facts_from_result(contract, taker, partner, partner_known,
                                           announcer is not None, poignees, miseres)
            if maybe is None:
                status = Status.INCOMPLETE if rec.play else Status.UNSCORED
                return done(status)
            facts = maybe
        sc = score(facts)
        scores = {self.ids[s]: v for s, v in enumerate(sc.seats)}
        self.compare_scores(scores)
        return done(
            Status.SCORED,
            taker_half=facts.taker_half,
            defence_half=182 - facts.taker_half,
            bouts=facts.bouts,
            petit_au_bout=facts.petit_au_bout,
            chelem=facts.chelem,
            score=sc,
            scores=scores,
        )

    # --- deal -----------------------------------------------------------------------------

    def check_petit_sec(self, seat: int, hand: int, path: str | None) -> None:
        if _is_petit_sec(hand):
            self.report(Code.PETIT_SEC, f"{self.ids[seat]} held the Petit sec (the Petit as"
                        " only trump, no Excuse): the deal should have been annulled",
                        path=path, seat=seat)

    # --- auction --------------------------------------------------------------------------

    def auction(self, first: int) -> tuple[Contract | None, int | None, bool]:
        bids = self.rec.auction
        n = self.n
        best: Contract | None = None
        taker: int | None = None
        for i, bid in enumerate(bids):
            path = f"auction[{i}]"
            expected = (first + i) % n
            seat = expected
            if i >= n:
                self.report(Code.AUCTION_TOO_LONG, f"each player speaks once: {n} bids"
                            f" expected, this is bid {i + 1}", path=path)
            if bid.seat is not None and self.index[bid.seat] != expected:
                seat = self.index[bid.seat]
                self.report(Code.BID_OUT_OF_TURN, f"it is {self.ids[expected]}'s turn to"
                            f" speak, not {bid.seat}'s", path=path, seat=seat)
            if bid.contract is not None:
                if best is not None and bid.contract <= best:
                    self.report(Code.BID_NOT_HIGHER, f"{bid.contract.keyword} is not higher"
                                f" than {best.keyword}: expected pass or a higher contract",
                                path=path, seat=seat)
                else:
                    best, taker = bid.contract, seat
        if bids and len(bids) < n:
            self.report(Code.AUCTION_INCOMPLETE, f"{len(bids)} bids for {n} players: every"
                        " player speaks once", path=f"auction[{len(bids) - 1}]")
        annulled = bool(bids) and len(bids) >= n and best is None
        if annulled:
            self.report(Code.ALL_PASSED, "every player passed: the deal is annulled",
                        path="auction")
        return best, taker, annulled

    # --- call -----------------------------------------------------------------------------

    def call(self, called: Card | None, taker: int | None, given: list[int | None],
             chien: int | None, seats_of: Sequence[Sequence[int]],
             complete: bool) -> tuple[int | None, bool]:
        res = self.rec.result
        if called is None:
            if self.rec.play or self.rec.hands is not None:
                self.report(Code.CALL_MISSING, "at five players the taker calls a card"
                            " (a King) before the chien is turned", path="call")
            if res is not None and res.partner is not None:
                p = self.index[res.partner]
                return (None if p == taker else p), True
            return None, False
        if called.suit is Suit.TRUMPS or called.suit is Suit.EXCUSE or called.rank < 11:
            self.report(Code.CALL_WRONG_RANK, f"{called.code} cannot be called: expected a"
                        " King (or a Queen, Knight or Jack when holding every higher card)",
                        path="call", card=called)
        elif taker is not None and given[taker] is not None:
            hand = given[taker]
            assert hand is not None
            for rank in range(14, called.rank, -1):
                mask = sum(1 << (14 * s + rank - 1) for s in range(4))
                if hand & mask != mask:
                    self.report(Code.CALL_WRONG_RANK, f"the taker may call a"
                                f" {_RANK_NAMES[called.rank]} only when holding all four"
                                f" {_RANK_NAMES[rank]}s: expected a"
                                f" {_RANK_NAMES[rank]}", path="call", card=called)
                    break
        holder: int | None = None
        found = False
        for s, hand in enumerate(given):
            if hand is not None and hand >> called & 1:
                holder, found = s, True
        if not found and chien is not None and chien >> called & 1:
            found = True
        if not found:
            for t, trick in enumerate(self.rec.play):
                for c, pc in enumerate(trick.cards):
                    if pc.card == called:
                        holder, found = seats_of[t][c], True
            if not found and complete:
                found = True  # never played: in the chien or the écart, the taker is alone
        if not found:
            if res is not None and res.partner is not None:
                # A score sheet: the cards do not tell, the recorded partner does.
                p = self.index[res.partner]
                return (None if p == taker else p), True
            return None, False
        partner = None if holder == taker else holder
        return partner, True

    # --- chien and écart ---------------------------------------------------------------------

    def chien_and_ecart(self, contract: Contract, taker: int, given: list[int | None],
                        chien: int | None, played_all: int, complete: bool) -> int | None:
        rec = self.rec
        size = self.tab.chien
        recorded = rec.ecart
        if not contract.takes_chien:
            if recorded is not None and recorded.cards:
                self.report(Code.ECART_NOT_ALLOWED, f"in a {contract.french} the chien is not"
                            " taken: expected no écart", path="ecart", seat=taker)
            return None
        ecart = recorded.cards.bits if recorded is not None and recorded.cards is not None else None
        if ecart is None and complete:
            ecart = ALL_MASK & ~played_all
        if ecart is None:
            if recorded is not None and recorded.shown:
                self.check_shown(recorded.shown.bits, None, taker)
            return None
        dealt = given[taker]
        pool = None if dealt is None or chien is None else dealt | chien
        if recorded is not None and recorded.cards is not None:
            if len(recorded.cards) != size:
                self.report(Code.ECART_SIZE, f"the écart has {size} cards at {self.n}"
                            f" players, found {len(recorded.cards)}", path="ecart", seat=taker)
            if pool is not None and ecart & ~pool:
                self.report(Code.ECART_NOT_IN_HAND, f"{_cards_text(ecart & ~pool)} not in"
                            " the taker's hand and the chien", path="ecart", seat=taker)
        bad = ecart & (KINGS_MASK | BOUTS_MASK)
        if bad:
            self.report(Code.ECART_KING_OR_BOUT, f"{_cards_text(bad)} in the écart: expected"
                        " no King and no bout", path="ecart", seat=taker)
        trumps = ecart & TRUMP_MASK & ~BOUTS_MASK
        if trumps:
            if pool is not None:
                plain = ecart_plain(pool)
                allowed = max(0, size - plain.bit_count())
                if trumps.bit_count() > allowed:
                    spare = plain & ~ecart
                    self.report(Code.ECART_TRUMP_AVOIDABLE,
                                f"{_cards_text(trumps)} in the écart, but the taker could"
                                f" discard {_cards_text(spare)}: expected at most {allowed}"
                                " trump(s)", path="ecart", seat=taker)
            elif self.rules.ecart_trumps is EcartTrumps.NEVER:
                self.report(Code.ECART_TRUMP_AVOIDABLE,
                            f"{_cards_text(trumps)} in the écart: ecart_trumps=never allows"
                            " trumps only when no other écart exists, and the hands are not"
                            " recorded to show it", path="ecart", seat=taker)
            shown = recorded.shown.bits if recorded is not None else 0
            if (recorded is not None and recorded.cards is not None) or shown:
                missing = trumps & ~shown
                if missing:
                    self.report(Code.ECART_TRUMP_NOT_SHOWN, f"{_cards_text(missing)} discarded"
                                " but not shown: expected every trump of the écart shown",
                                path="ecart", seat=taker)
        if recorded is not None and recorded.shown:
            self.check_shown(recorded.shown.bits, ecart, taker)
        return ecart

    def check_shown(self, shown: int, ecart: int | None, taker: int) -> None:
        wrong = shown & ~TRUMP_MASK
        if ecart is not None:
            wrong |= shown & ~ecart
        if wrong:
            self.report(Code.ECART_SHOWN_WRONG, f"{_cards_text(wrong)} shown with the écart:"
                        " expected only the trumps of the écart", path="ecart", seat=taker)

    # --- declarations -------------------------------------------------------------------------

    def declarations(self, start: list[int], exact: list[bool], played_by: list[int],
                     ecart: int | None, taker: int | None
                     ) -> tuple[list[tuple[int | None, PoigneeSize]], list[int]]:
        poignees: list[tuple[int | None, PoigneeSize]] = []
        miseres: list[int] = []
        seen: set[tuple[int, str]] = set()
        counts = self.tab.poignee
        for i, decl in enumerate(self.rec.declarations):
            path = f"declarations[{i}]"
            s = self.index[decl.seat]
            key = (s, decl.kind)
            if key in seen:
                self.report(Code.DECLARATION_TWICE, f"{decl.seat} declares a {decl.kind}"
                            " twice: expected one", path=path, seat=s)
                continue
            seen.add(key)
            if isinstance(decl, Poignee):
                size = decl.size
                if decl.cards is not None:
                    shown = decl.cards.bits
                    derived = self.tab.poignee_size(len(decl.cards))
                    if derived is None:
                        self.report(Code.POIGNEE_SIZE, f"{len(decl.cards)} cards shown: a"
                                    f" poignée shows exactly {counts[0]}, {counts[1]} or"
                                    f" {counts[2]} trumps at {self.n} players",
                                    path=path, seat=s)
                    elif size is not None and size is not derived:
                        self.report(Code.POIGNEE_DECLARED_SIZE, f"a {size.value} poignée"
                                    f" shows {self.tab.poignee_count(size)} trumps; these"
                                    f" {len(decl.cards)} make a {derived.value}",
                                    path=path, seat=s)
                    size = size or derived
                    not_trump = shown & ~TRUMP_MASK & ~EXCUSE_BIT
                    if not_trump:
                        self.report(Code.POIGNEE_NOT_TRUMP, f"{_cards_text(not_trump)} shown:"
                                    " expected only trumps (and the Excuse)", path=path, seat=s)
                    elsewhere = 0
                    for other in range(self.n):
                        if other != s:
                            elsewhere |= played_by[other] | (start[other] if exact[other] else 0)
                    if s != taker and ecart is not None:
                        elsewhere |= ecart
                    missing = shown & (~start[s] if exact[s] else elsewhere)
                    if missing:
                        self.report(Code.POIGNEE_NOT_IN_HAND, f"{_cards_text(missing)} shown"
                                    f" but not in {decl.seat}'s hand", path=path, seat=s)
                    if shown & EXCUSE_BIT and start[s] & TRUMP_MASK & ~shown:
                        self.report(Code.POIGNEE_EXCUSE, "the Excuse stands in for a trump"
                                    f" while {_cards_text(start[s] & TRUMP_MASK & ~shown)}"
                                    " stay hidden: expected those trumps shown instead",
                                    path=path, seat=s)
                if size is not None:
                    poignees.append((s, size))
            elif isinstance(decl, Misere):
                if not self.rules.misere:
                    self.report(Code.MISERE_NOT_ALLOWED, "misère is declared but the ruleset"
                                " has misere=off", path=path, seat=s)
                    continue
                if decl.misere is MisereKind.ATOUT:
                    bad = start[s] & (TRUMP_MASK | EXCUSE_BIT)
                    what = "no trump and no Excuse"
                else:
                    bad = start[s] & FACES_MASK
                    what = "no King, Queen, Knight or Jack"
                if bad:
                    self.report(Code.MISERE_FALSE, f"{decl.seat} holds {_cards_text(bad)}:"
                                f" a misère {decl.misere.value} needs {what}",
                                path=path, seat=s)
                else:
                    miseres.append(s)
        return poignees, miseres

    # --- play -----------------------------------------------------------------------------------

    def attribute(self, leader0: int) -> tuple[list[Sequence[int]], list[int],
                                               list[int | None], list[list[int]], list[int]]:
        """Seats of every card, leaders and winners, from the written order alone; also the
        cards of each trick (as plain ints) and the cards each seat played."""
        n = self.n
        rotation = _ROTATIONS[n]
        seats_of: list[Sequence[int]] = []
        leaders: list[int] = []
        winners: list[int | None] = []
        cards_of: list[list[int]] = []
        played_by = [0] * n
        expected = leader0
        play = self.rec.play
        last = len(play) - 1
        for t, trick in enumerate(play):
            leader = expected
            if trick.leader is not None and self.index[trick.leader] != expected:
                leader = self.index[trick.leader]
                self.report(Code.WRONG_LEADER, f"{self.ids[expected]} leads this trick"
                            + (" (it won the previous one)" if t else " (first to play)")
                            + f", not {trick.leader}", path=f"play[{t}]", trick=t + 1,
                            seat=leader)
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
                w = winning_index(cards)
                winner = seats[w] if w is not None else None
            elif t < last:
                self.report(Code.TRICK_INCOMPLETE, f"trick {t + 1} has {m}"
                            f" card(s): every trick but the last one recorded has {n}",
                            path=f"play[{t}]", trick=t + 1)
            winners.append(winner)
            if winner is not None:
                expected = winner
        return seats_of, leaders, winners, cards_of, played_by

    def seats_written(self, t: int, pcs: Sequence[PlayedCard], leader: int) -> list[int]:
        """The seats of a trick's cards where some are written: a written seat that is not
        the one whose turn it is is reported, and taken as the one that played."""
        seats = []
        for c, pc in enumerate(pcs):
            s = (leader + c) % self.n
            if pc.seat is not None and self.index[pc.seat] != s:
                self.report(Code.OUT_OF_TURN, f"it is {self.ids[s]}'s turn, not"
                            f" {pc.seat}'s", path=f"play[{t}].cards[{c}]", trick=t + 1,
                            seat=self.index[pc.seat], card=pc.card)
                s = self.index[pc.seat]
            seats.append(s)
        return seats

    def chelem_excuse(self, seats_of: Sequence[Sequence[int]], winners: list[int | None],
                      team: set[int]) -> bool:
        """The chelem case of RULES.md §7: the Excuse led to the last trick by a camp that
        won every earlier trick wins it. Updates ``winners`` and says whether it applied."""
        play = self.rec.play
        last = self.tab.tricks - 1
        if (not self.rules.chelem_excuse_wins or len(play) != last + 1 or last == 0
                or len(play[last].cards) != self.n or play[last].cards[0].card != Card.EXCUSE):
            return False
        leader = seats_of[last][0]
        camp = team if leader in team else set(range(self.n)) - team
        if all(w in camp for w in winners[:last]):
            winners[last] = leader
            return True
        return False

    def play(self, seats_of: list[Sequence[int]], leaders: list[int],
             winners: list[int | None], cards_of: list[list[int]], start: list[int],
             exact: list[bool], given: list[int | None], chien: int | None,
             ecart: int | None, first_lead_called: Card | None) -> tuple[PlayedTrick, ...]:
        hands = list(start)
        played = 0
        out: list[PlayedTrick] = []
        stop = self.stop
        suit_of = _SUIT_OF
        suit_masks = SUIT_MASKS
        above = TRUMPS_ABOVE
        for t, cards in enumerate(cards_of):
            bits = 0
            seats = seats_of[t]
            led = -1  # the suit led (the Excuse does not lead a suit), -1 before it
            top = 0  # the highest trump in the trick so far, 0 if none
            for c, card in enumerate(cards):
                s = seats[c]
                if stop is not None and stop == (t, c):
                    self._stop(t, s, hands, exact, cards[:c], first_lead_called)
                bit = 1 << card
                hand = hands[s]
                if played & bit:
                    self.report(Code.PLAYED_TWICE, f"{_CODES[card]} was already played",
                                path=f"play[{t}].cards[{c}]", trick=t + 1, seat=s, card=card)
                elif exact[s] and not hand & bit:
                    where = self._where(card, s, given, chien, ecart)
                    self.report(Code.NOT_IN_HAND, f"{self.ids[s]} does not hold {_CODES[card]}"
                                f"{where}", path=f"play[{t}].cards[{c}]", trick=t + 1, seat=s,
                                card=card)
                else:
                    # The card is in the hand here. The common cases of legality.rule,
                    # inline; the rule itself (and its words) for the rest.
                    suit = suit_of[card]
                    if card == 77:
                        legal = True
                    elif led < 0:
                        legal = not (c == 0 and t == 0 and first_lead_called is not None)
                    elif led == 4:
                        legal = (not hand & above[top] or card - 55 > top if suit == 4
                                 else not hand & TRUMP_MASK)
                    elif suit == led:
                        legal = True
                    elif hand & suit_masks[led]:
                        legal = False
                    elif not hand & TRUMP_MASK:
                        legal = True
                    elif suit != 4:
                        legal = False
                    else:
                        legal = not top or not hand & above[top] or card - 55 > top
                    if not legal:
                        called = first_lead_called if t == 0 and c == 0 else None
                        answer = rule(hand, cards[:c], called)
                        if not answer[0] & bit:  # words only for the faults
                            illegal = constraint_of(*answer).explain(card)
                            if illegal is not None:
                                self.report(illegal.code, illegal.message,
                                            path=f"play[{t}].cards[{c}]", trick=t + 1,
                                            seat=s, card=card)
                if card != 77:
                    if led < 0:
                        led = suit_of[card]
                    if card >= 56 and card - 55 > top:
                        top = card - 55
                hands[s] = hand & ~bit
                played |= bit
                bits |= bit
            self.trick_bits.append(bits)
            out.append(PlayedTrick(t + 1, leaders[t], tuple(map(_CARDS.__getitem__, cards)),
                                   tuple(seats), winners[t], card_points(bits)))
        if stop is not None:
            self._stop_after(stop, leaders, winners, hands, exact, first_lead_called)
        if len(self.rec.play) == self.tab.tricks and all(len(x.cards) == self.n
                                                        for x in self.rec.play):
            for s in range(self.n):
                if exact[s] and hands[s]:
                    self.report(Code.CARDS_LEFT, f"{self.ids[s]} still holds"
                                f" {_cards_text(hands[s])} after the last trick", seat=s,
                                path=f"hands.{self.ids[s]}")
        return tuple(out)

    def _stop_after(self, stop: tuple[int, int], leaders: list[int],
                    winners: list[int | None], hands: list[int], exact: list[bool],
                    first_lead_called: Card | None) -> None:
        """Stop just past the recorded play: the next card of the last trick, or the lead
        of the next trick."""
        t, c = stop
        play = self.rec.play
        if play and t == len(play) - 1 and c == len(play[t].cards) < self.n:
            self._stop(t, (leaders[t] + c) % self.n, hands, exact,
                       [pc.card for pc in play[t].cards], first_lead_called)
        if t == len(play) and c == 0 and t < self.tab.tricks:
            leader = winners[-1] if play else self.leader0
            if leader is not None:
                self._stop(t, leader, hands, exact, [], first_lead_called)

    def _stop(self, t: int, s: int, hands: list[int], exact: list[bool],
              cards: Sequence[int], first_lead_called: Card | None) -> None:
        called = first_lead_called if t == 0 and not cards else None
        raise _StopError(Position(
            trick=t + 1, seat=self.ids[s], hand=CardSet(hands[s]), exact=exact[s],
            played=tuple(Card(c) for c in cards),
            constraint=constraint(hands[s], cards, called),
        ))

    def _where(self, card: int, seat: int, given: list[int | None], chien: int | None,
               ecart: int | None) -> str:
        bit = 1 << card
        for s, hand in enumerate(given):
            if hand is not None and hand & bit and s != seat:
                return f": it was dealt to {self.ids[s]}"
        if ecart is not None and ecart & bit:
            return ": it is in the écart"
        if chien is not None and chien & bit:
            return ": it is in the chien"
        return ""

    # --- counting ---------------------------------------------------------------------------------

    def count(self, contract: Contract, taker: int, partner: int | None,
              tricks: tuple[PlayedTrick, ...], chelem_last: bool, played_all: int,
              announced: bool, poignees: list[tuple[int | None, PoigneeSize]],
              miseres: list[int]) -> DealFacts:
        rules = self.rules
        # Camps as indices: 0 the taker's, 1 the defence (_CAMPS).
        camp_of = [0 if s in (taker, partner) else 1 for s in range(self.n)]
        piles = [0, 0]
        adjust = 0  # half-points moved to the taker's camp by the Excuse exchange
        last = len(tricks) - 1
        excuse_owner = -1
        excuse_trick = -1
        counted = 0
        won = 0  # bit 0: the taker's camp won a trick; bit 1: the defence did
        trick_bits = self.trick_bits
        for t, tr in enumerate(tricks):
            assert tr.winner is not None
            wcamp = camp_of[tr.winner]
            won |= 1 << wcamp
            # A card played twice (reported) counts once, in the trick it was first in.
            bits = trick_bits[t] & ~counted
            counted |= bits
            piles[wcamp] |= bits
            if bits & EXCUSE_BIT:
                excuse_owner = camp_of[tr.seats[tr.cards.index(Card.EXCUSE)]]
                excuse_trick = t
        unplayed = ALL_MASK & ~played_all
        piles[0 if contract is not Contract.GARDE_CONTRE else 1] |= unplayed
        if excuse_owner >= 0:
            winner = tricks[excuse_trick].winner
            assert winner is not None
            winner_camp = camp_of[winner]
            goes_to = excuse_owner
            low_card = winner_camp != excuse_owner
            if excuse_trick == last and not chelem_last:
                low_card = False
                if rules.excuse_last_trick is ExcuseLastTrick.CHANGES_CAMP:
                    goes_to = 1 - excuse_owner
                else:
                    goes_to = winner_camp
            piles[winner_camp] &= ~EXCUSE_BIT
            piles[goes_to] |= EXCUSE_BIT
            if low_card:
                adjust = 1 if winner_camp == 0 else -1
        taker_half = card_points(piles[0]) + adjust
        assert taker_half + card_points(piles[1]) - adjust == 182
        bouts = (piles[0] & BOUTS_MASK).bit_count()
        # Chelem: one camp won every trick.
        chelem = _CAMPS[0] if won == 1 else _CAMPS[1] if won == 2 else None
        # Petit au bout: the Petit in the last trick (the one before, in the chelem case).
        pab_index = last - 1 if chelem_last else last
        pab: Camp | None = None
        ptrick = tricks[pab_index] if pab_index >= 0 else None
        if ptrick is not None and Card.T1 in ptrick.cards:
            assert ptrick.winner is not None
            wins_itself = ptrick.seats[ptrick.cards.index(Card.T1)] == ptrick.winner and (
                _top_is_petit(ptrick.cards))
            if rules.petit_au_bout is PetitAuBout.IN_LAST_TRICK or wins_itself:
                pab = _CAMPS[camp_of[ptrick.winner]]
        return DealFacts(
            players=self.n, taker=taker, contract=contract, taker_half=taker_half,
            bouts=bouts, partner=partner, petit_au_bout=pab,
            poignees=tuple(size for _, size in poignees), chelem_announced=announced,
            chelem=chelem, miseres=tuple(miseres),
        )

    def facts_from_result(self, contract: Contract, taker: int, partner: int | None,
                          partner_known: bool, announced: bool,
                          poignees: list[tuple[int | None, PoigneeSize]],
                          miseres: list[int]) -> DealFacts | None:
        res = self.rec.result
        if res is not None and (
                (res.taker_points is not None and res.taker_points.exact_half is None)
                or (res.bouts is not None and not 0 <= res.bouts <= 3)):
            return None  # no score from facts that cannot be counted (check_facts said why)
        missing = []
        if res is None or res.taker_points is None:
            missing.append("the taker's points")
        if res is None or res.bouts is None:
            missing.append("the bouts")
        if not partner_known:
            missing.append("the partner")
        if missing:
            if res is not None and (res.scores or res.taker_points is not None):
                self.report(Code.NOT_SCORABLE, f"the score cannot be recomputed: the record"
                            f" lacks {' and '.join(missing)}", path="result")
            return None
        assert res is not None
        assert res.taker_points is not None
        assert res.bouts is not None
        return DealFacts(
            players=self.n, taker=taker, contract=contract, taker_half=res.taker_points.half,
            bouts=res.bouts, partner=partner, petit_au_bout=res.petit_au_bout,
            poignees=tuple(size for _, size in poignees), chelem_announced=announced,
            chelem=res.chelem, miseres=tuple(miseres),
        )

    # --- the recorded result --------------------------------------------------------------------

    def check_facts(self, contract: Contract | None, taker: int | None, partner: int | None,
                    partner_known: bool, annulled: bool, announced: bool,
                    miseres: list[int]) -> None:
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
            players=self.n, rules=self.rules, seat_ids=self.ids, contract=contract,
            taker=taker, partner=partner, partner_known=partner_known,
            points=None if res.taker_points is None else res.taker_points.value,
            bouts=res.bouts, petit_au_bout=res.petit_au_bout, chelem=res.chelem,
            chelem_announced=announced, annulled=annulled or res.annulled,
            recorded_partner=None if res.partner is None else self.index[res.partner],
            poignees=tuple(poignees), miseres=tuple(declared), misere_seats=tuple(miseres),
            scores=tuple(scores.get(sid) for sid in self.ids),
        )
        for finding in check(facts):
            self.report(finding.code, finding.message, path=finding.path, seat=finding.seat)

    def compare_result(self, facts: DealFacts, partner: int | None) -> None:
        res = self.rec.result
        if res is None:
            return
        if res.taker_points is not None and res.taker_points.exact_half != facts.taker_half:
            self.report(Code.POINTS_MISMATCH, f"the result gives the taker"
                        f" {res.taker_points} points; the play gives {_pts(facts.taker_half)}",
                        path="result.taker_points")
        if res.bouts is not None and res.bouts != facts.bouts:
            self.report(Code.BOUTS_MISMATCH, f"the result gives the taker {res.bouts} bout(s);"
                        f" the play gives {facts.bouts}", path="result.bouts")
        if self.n == 5 and res.partner is not None:
            rp = self.index[res.partner]
            actual = facts.taker if partner is None else partner
            if rp != actual:
                self.report(Code.PARTNER_MISMATCH, f"the result names {res.partner} as"
                            f" partner; the called card was held by {self.ids[actual]}",
                            path="result.partner")
        if res.petit_au_bout is not None and res.petit_au_bout is not facts.petit_au_bout:
            actual_pab = "nobody" if facts.petit_au_bout is None else facts.petit_au_bout.value
            self.report(Code.PETIT_AU_BOUT_MISMATCH, f"the result gives the petit au bout to"
                        f" the {res.petit_au_bout.value}; the play gives it to {actual_pab}",
                        path="result.petit_au_bout")
        if res.chelem is not None and res.chelem is not facts.chelem:
            actual_ch = "no camp" if facts.chelem is None else f"the {facts.chelem.value}"
            self.report(Code.CHELEM_MISMATCH, f"the result gives a chelem to the"
                        f" {res.chelem.value}; in the play {actual_ch} won every trick",
                        path="result.chelem")

    def compare_scores(self, scores: dict[str, int]) -> None:
        res = self.rec.result
        if res is None or res.scores is None:
            return
        for sid, recorded in res.scores.items():
            if scores[sid] != recorded:
                self.report(Code.SCORE_MISMATCH, f"{sid} is recorded with {recorded:+d};"
                            f" the rules give {scores[sid]:+d}", path=f"result.scores.{sid}",
                            seat=self.index[sid])

    def check_annulled_result(self) -> None:
        res = self.rec.result
        if res is None or res.scores is None:
            return
        self.compare_scores(dict.fromkeys(self.ids, 0))


def _played_count(rec: DealRecord) -> str:
    """``1 card`` or ``n cards``: how many cards a record's play holds."""
    played = sum(len(t.cards) for t in rec.play)
    return f"{played} card" if played == 1 else f"{played} cards"


def _is_petit_sec(hand: int) -> bool:
    """The Petit as only trump, and no Excuse (RULES.md §2)."""
    return hand & TRUMP_MASK == 1 << Card.T1 and not hand & EXCUSE_BIT


def _pts(half: int) -> str:
    return str(half // 2) if half % 2 == 0 else f"{half / 2}"


def _union(hands: Sequence[int | None]) -> int:
    out = 0
    for h in hands:
        if h is not None:
            out |= h
    return out


def _top_is_petit(cards: tuple[Card, ...]) -> bool:
    return not any(c.is_trump and c != Card.T1 for c in cards)




_CARD_OF: Final = attrgetter("card")
_SEAT_OF: Final = attrgetter("seat")
_SUIT_OF: Final = tuple(int(card_suit(c)) for c in range(78))
_ROTATIONS: Final = {n: tuple(tuple((leader + c) % n for c in range(n)) for leader in range(n))
                     for n in (3, 4, 5)}
_PLAIN: Final = tuple(range(78))
_CARDS: Final = tuple(Card)
_CODES: Final = tuple(c.code for c in Card)
_CAMPS: Final = (Camp.TAKER, Camp.DEFENCE)
