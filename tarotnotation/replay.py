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

import warnings
from collections.abc import Sequence
from dataclasses import replace
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Final

from . import kernel
from .cards import ALL_MASK, Card, CardSet, card_points
from .diagnostics import Code, Severity
from .i18n import Msg, nmsg, pmsg
from .kernel import DEFENCE, NO_SUIT, TAKER
from .legality import constraint, constraint_of
from .records import ChelemAnnouncement, DealRecord, PlayedCard
from .replaydeclared import DeclarationChecks
from .replayed import PlayedTrick, Replay, TrickCount, Turn
from .replayresult import ResultChecks
from .replaystate import CARD_CODES, cards_text, union_of
from .rules import (
    Contract,
    FivePlayerFirstLead,
)
from .status import Status

if TYPE_CHECKING:  # the readers' source map, a layer above: ReadDeal.replay() calls this
    from .source import SourceMap

__all__ = [
    "PlayedTrick",
    "Replay",
    "Status",
    "TrickCount",
    "Turn",
    "legal_moves",
    "replay",
]

_RANK_NAMES: Final = {14: Msg("King"), 13: Msg("Queen"), 12: Msg("Knight"), 11: Msg("Jack")}
_RANKS_NAMES: Final = {14: Msg("Kings"), 13: Msg("Queens"), 12: Msg("Knights"), 11: Msg("Jacks")}


def __getattr__(name: str) -> Any:
    if name == "Position":  # (the old name of Turn: analysis.Position is a deal in play)
        warnings.warn("tarotnotation.replay.Position is tarotnotation.replay.Turn",
                      DeprecationWarning, stacklevel=2)
        return Turn
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _StopError(Exception):
    def __init__(self, position: Turn) -> None:
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


def legal_moves(record: DealRecord, trick: int, index: int) -> Turn:
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


class _Replayer(DeclarationChecks, ResultChecks):
    """One run over one record. Seats are indices; hands and card sets are int bitsets.

    :meth:`run` calls the phases in order; each phase reads what the earlier ones found
    (attributes set in :class:`~tarotnotation.replaystate.ReplayState`) and reports what
    is wrong with :meth:`report`. The phases on the chien, the écart and the declarations
    are :class:`~tarotnotation.replaydeclared.DeclarationChecks`', those on the count and
    the result :class:`~tarotnotation.replayresult.ResultChecks`'.
    """

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
            self.chien = ALL_MASK & ~union_of(self.given)

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
        held = att.played_by[taker] | (ALL_MASK & ~union_of(att.played_by))
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
                                                       card=CARD_CODES[card]),
                                path=f"play[{t}].cards[{c}]", trick=t + 1, seat=s, card=card)
                elif exact[s] and not hand & bit:
                    self.report(Code.NOT_IN_HAND, Msg("{seat} does not hold {card}{where}",
                                                      seat=self.ids[s], card=CARD_CODES[card],
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
                                                     seat=self.ids[s], cards=cards_text(hands[s])),
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
        raise _StopError(Turn(
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


def _played_count(rec: DealRecord) -> str:
    """``1 card`` or ``n cards``: how many cards a record's play holds."""
    played = sum(len(t.cards) for t in rec.play)
    return f"{played} card" if played == 1 else f"{played} cards"


_CARD_OF: Final = attrgetter("card")
_SEAT_OF: Final = attrgetter("seat")
_ROTATIONS: Final = {n: tuple(tuple((leader + c) % n for c in range(n)) for leader in range(n))
                     for n in (3, 4, 5)}
_PLAIN: Final = tuple(range(78))
_CARDS: Final = tuple(Card)
