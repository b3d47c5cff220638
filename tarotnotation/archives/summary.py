"""What the archive tools know of one deal: a :class:`DealSummary`, and its fingerprints.

Every archive tool (``query``, ``stats``, ``standings``, ``dedupe``) works on summaries, not
on records or replays: a summary is a small immutable value of plain ints and strings
(it crosses between worker processes cheaply) that holds the deal's tags and players, the
facts the rules make of it (contract, taker, partner, made, margin, bouts, petit au bout,
chelem, poignées, scores), its diagnostic codes, and the cards dealt and played, from
which the fingerprints of :func:`deal_fingerprint` and :func:`play_fingerprint` come.

:func:`summarize` builds one from a record and its replay; :func:`summarize_quick` from
what the quick check (:func:`tarotnotation.quick.quick_facts`) makes of a plain clean
deal, with no record and no replay, and gives the same summary. The facts themselves come
from the rules kernel by either way: the replay, or the quick check on the same kernel.

>>> import random
>>> from tarotnotation.replay import replay
>>> from tarotnotation.simulate import random_deal
>>> rec = random_deal(random.Random(3), 4)
>>> s = summarize(rec, replay(rec), file="x.tarot", index=1)
>>> s.contract.keyword, s.taker, s.player(s.taker), s.made, s.margin_points, s.scores
('prise', 'N', 'N', False, -26, {'S': 51, 'E': 51, 'N': -153, 'W': 51})
>>> s.taker_index, s.scores_in_order    # (the same facts by index in the order of play)
(2, (51, 51, -153, 51))
>>> len(deal_fingerprint(s)), deal_fingerprint(s) == play_fingerprint(s)
(16, False)
"""

from __future__ import annotations

import hashlib
import warnings
from functools import lru_cache
from itertools import chain
from typing import Final, NamedTuple

from ..cards import ALL_MASK, Card
from ..quick import QuickFacts
from ..records import DealRecord, find_tag
from ..replay import Replay, Status
from ..rules import Camp, Contract, PoigneeSize, Ruleset

__all__ = [
    "DealSummary",
    "deal_fingerprint",
    "hand_key",
    "play_fingerprint",
    "summarize",
    "summarize_quick",
    "summarize_record",
]

#: Bytes of a fingerprint.
FINGERPRINT_BYTES: Final = 16


class DealSummary(NamedTuple):
    """One deal as the archive tools see it.

    ``taker``, ``partner`` and ``dealer`` are seat ids and ``scores`` a mapping by seat
    id, as a :class:`~tarotnotation.replay.Replay` has them; the fields behind them,
    ``taker_index``, ``partner_index``, ``dealer_index`` (the seat's index in
    :attr:`seats`, the order of play) and ``scores_in_order`` (a tuple in that order),
    are the shapes these names had before (issue 37), which the archive tools use.

    An immutable value; a named tuple rather than a frozen dataclass because a deal of
    an archive makes one and a frozen dataclass of 31 fields takes six times as long to
    build (every field set through ``object.__setattr__``). It pickles by position."""

    file: str
    index: int  # type: ignore[assignment]  # (tuple.index, shadowed)
    """1-based number of the deal in its file."""
    line: int | None
    """The line where the deal starts in its file, when known."""
    tags: tuple[tuple[str, str], ...]
    ruleset: str
    players: int
    seats: tuple[str, ...]
    """Seat ids in order of play."""
    names: tuple[str | None, ...]
    """Each seat's player's name, when recorded."""
    dealer_index: int | None
    """The dealer's index in :attr:`seats` (:attr:`dealer` is the seat id)."""
    status: Status | None
    """How far the replay got; None when the deal was read but not replayed."""
    codes: tuple[str, ...]
    """The code of every diagnostic of the deal (reading and replay), in order."""
    errors: int
    warnings: int
    contract: Contract | None = None
    taker_index: int | None = None
    """The taker's index in :attr:`seats` (:attr:`taker` is the seat id)."""
    partner_index: int | None = None
    """At five players, the taker's partner's index in :attr:`seats`; None when the taker
    is alone or unknown (:attr:`partner` is the seat id)."""
    partner_known: bool = False
    """True when the camps are known (always, but at five players with no partner found)."""
    taker_half: int | None = None
    """The taker's camp's card points, in half-points."""
    bouts: int | None = None
    made: bool | None = None
    margin_points: int | None = None
    """The margin in whole points: at least 0 when the contract is made, negative when
    lost (as :attr:`tarotnotation.scoring.Score.margin_points`; ``margin`` before)."""
    petit_au_bout: Camp | None = None
    petit_au_bout_seat: int | None = None
    """The seat that played the Petit in the trick that counted it au bout."""
    chelem: Camp | None = None
    chelem_announced: bool = False
    poignees: tuple[tuple[int | None, PoigneeSize], ...] = ()
    """Each poignée: the seat that showed it (when known) and its size."""
    scores_in_order: tuple[int, ...] | None = None
    """Each seat's score, in the order of :attr:`seats` (None when the deal is not scored;
    :attr:`scores` is the mapping by seat id)."""
    tricks: int = 0
    """Tricks recorded (complete or not)."""
    hands: tuple[int, ...] | None = None
    """Each seat's hand as dealt (card bitsets), when every one is known."""
    play: bytes = b""
    """The cards played, in order (one byte per card: its number)."""
    auction: bytes = b""
    """The bids, in order (one byte per bid: 0 for a pass, else the contract's rank)."""

    def __repr__(self) -> str:
        # (the cards dealt, played and bid left out: long and unreadable as bytes)
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(
            self._fields[:_SHOWN], self[:_SHOWN], strict=True))
        return f"DealSummary({shown})"

    def tag(self, name: str) -> str | None:
        """The value of the first tag named ``name`` (case-insensitive), or None."""
        return find_tag(self.tags, name)

    def player(self, seat: int | str) -> str:
        """The player at ``seat`` (a seat id, or its index in :attr:`seats`): the name, or
        the seat id when the record names none."""
        index = self.seats.index(seat) if isinstance(seat, str) else seat
        name = self.names[index]
        return name if name else self.seats[index]

    @property
    def margin(self) -> int | None:
        """:attr:`margin_points` under its old name (deprecated: the unit is in the new
        one)."""
        warnings.warn("DealSummary.margin is deprecated: use DealSummary.margin_points"
                      " (the same signed whole points)", DeprecationWarning, stacklevel=2)
        return self.margin_points

    @property
    def taker(self) -> str | None:
        """The taker's seat id, when known."""
        index = self.taker_index
        return None if index is None else self.seats[index]

    @property
    def partner(self) -> str | None:
        """At five players, the taker's partner's seat id; None when the taker is alone
        or unknown."""
        index = self.partner_index
        return None if index is None else self.seats[index]

    @property
    def dealer(self) -> str | None:
        """The dealer's seat id, when recorded."""
        index = self.dealer_index
        return None if index is None else self.seats[index]

    @property
    def scores(self) -> dict[str, int] | None:
        """Each seat's score by seat id, in the order of play (None when the deal is not
        scored)."""
        row = self.scores_in_order
        return None if row is None else dict(zip(self.seats, row, strict=True))

    @property
    def named(self) -> bool:
        """True when every seat has a player's name."""
        return all(self.names)

    @property
    def scored(self) -> bool:
        """True when the deal has a score."""
        return self.status is Status.SCORED and self.scores_in_order is not None

    @property
    def camps(self) -> tuple[Camp, ...] | None:
        """Each seat's camp, when the taker and the camps are known."""
        if self.taker_index is None or not self.partner_known:
            return None
        team = {self.taker_index, self.partner_index}
        # tuple() of a list, not of a generator: a tuple of its own size from the start
        # (one grown from a guess is resized, and a freed one then lingers in the free
        # list of the other size, which tracemalloc counts as memory held)
        return tuple([Camp.TAKER if s in team else Camp.DEFENCE for s in range(self.players)])

    @property
    def called_self(self) -> bool | None:
        """At five players, True when the taker plays alone (called his own card or one
        in the chien); None at 3 and 4 players or when the camps are unknown."""
        if self.players != 5 or self.taker_index is None or not self.partner_known:
            return None
        return self.partner_index is None

    @property
    def chien(self) -> int | None:
        """The chien as dealt (a card bitset), when every hand is known."""
        if self.hands is None:
            return None
        held = 0
        for hand in self.hands:
            held |= hand
        return ALL_MASK & ~held

    @property
    def where(self) -> str:
        """``file:line`` or ``file, deal N``: where the deal is, for people."""
        if self.line is not None:
            return f"{self.file}:{self.line}"
        return f"{self.file}, deal {self.index}"


#: The fields a summary's repr shows: all but the cards dealt, played and bid.
_SHOWN: Final = len(DealSummary._fields) - 3


def summarize(record: DealRecord, result: Replay, *, file: str, index: int,
              line: int | None = None, codes: tuple[str, ...] | None = None,
              errors: int | None = None, warnings: int | None = None) -> DealSummary:
    """The summary of a deal from its record and its replay.

    ``codes``, ``errors`` and ``warnings`` default to the replay's diagnostics; give them
    when the deal has reading diagnostics too.
    """
    ids = record.seat_ids
    seat_of = {s: i for i, s in enumerate(ids)}
    diags = result.diagnostics
    if codes is None:
        codes = tuple(d.code.value for d in diags)
    if errors is None:
        errors = len(result.errors)
    if warnings is None:
        warnings = len(result.warnings)
    taker = seat_of.get(result.taker) if result.taker is not None else None
    partner = seat_of.get(result.partner) if result.partner is not None else None
    sc = result.score
    made = margin = None
    scores = None
    if result.status is Status.SCORED and sc is not None and result.scores is not None:
        made = sc.made
        margin = sc.margin_points
        scores = tuple(result.scores.get(s, 0) for s in ids)
    elif result.outcome is not None:  # counted without the partner (no call in the format)
        made, by = result.outcome
        margin = by if made else -by
    pab_seat = None
    if result.petit_au_bout is not None:
        for trick in reversed(result.tricks):
            if Card.T1 in trick.cards:
                pab_seat = trick.seats[trick.cards.index(Card.T1)]
                break
    return DealSummary(
        file=file,
        index=index,
        line=line,
        tags=record.tags,
        ruleset=record.ruleset,
        players=record.players,
        seats=ids,
        names=tuple(s.name for s in record.seats),
        dealer_index=None if record.dealer is None else seat_of[record.dealer],
        status=result.status,
        codes=codes,
        errors=errors,
        warnings=warnings,
        contract=result.contract,
        taker_index=taker,
        partner_index=partner,
        partner_known=bool(result.camps),
        taker_half=result.taker_half,
        bouts=result.bouts,
        made=made,
        margin_points=margin,
        petit_au_bout=result.petit_au_bout,
        petit_au_bout_seat=pab_seat,
        chelem=result.chelem,
        chelem_announced=result.chelem_announced,
        poignees=tuple((None if s is None else seat_of.get(s), size)
                       for s, size in result.poignees),
        scores_in_order=scores,
        tricks=len(record.play),
        hands=dealt_hands(record, result),
        play=bytes(chain.from_iterable(trick.cards for trick in result.tricks)),
        auction=_auction(record),
    )


def summarize_record(record: DealRecord, *, file: str, index: int, line: int | None = None
                     ) -> DealSummary:
    """The summary of a deal read but not replayed: its tags, players and cards, no facts.

    >>> from tarotnotation import notation
    >>> s = summarize_record(notation.load("examples/prise.tarot"), file="p", index=1)
    >>> s.status is None, s.contract, len(s.hands or ()), len(s.play)
    (True, None, 4, 72)
    """
    ids = record.seat_ids
    return DealSummary(
        file=file,
        index=index,
        line=line,
        tags=record.tags,
        ruleset=record.ruleset,
        players=record.players,
        seats=ids,
        names=tuple(s.name for s in record.seats),
        dealer_index=None if record.dealer is None else ids.index(record.dealer),
        status=None,
        codes=(),
        errors=0,
        warnings=0,
        tricks=len(record.play),
        hands=dealt_hands(record, None),
        play=bytes([p.card for trick in record.play for p in trick.cards]),
        auction=_auction(record),
    )


def _auction(record: DealRecord) -> bytes:
    return bytes([0 if bid.contract is None else bid.contract for bid in record.auction])


@lru_cache(maxsize=64)
def _canonical(spec: str) -> str:
    return Ruleset.from_spec(spec).spec()


def summarize_quick(facts: QuickFacts, *, file: str, index: int, line: int | None = None,
                    judged: bool = True) -> DealSummary:
    """The summary of a plain clean deal from what :func:`tarotnotation.quick.quick_facts`
    (or :func:`~tarotnotation.quick.quick_facts_line`) makes of it: no record built, no
    replay. It is :func:`summarize` of the record and its replay (a clean deal: no
    diagnostic); with ``judged=False``, :func:`summarize_record` of the record (no facts).
    ``tests/twins/test_archives_fast.py`` holds it to both.

    >>> import orjson
    >>> from tarotnotation import notation
    >>> from tarotnotation.formats import json as tjson
    >>> from tarotnotation.quick import quick_facts
    >>> from tarotnotation.replay import replay
    >>> rec = notation.load("examples/prise.tarot").model_copy(update={"result": None})
    >>> facts = quick_facts(tjson.to_dict(rec))
    >>> assert facts is not None
    >>> summarize_quick(facts, file="p", index=1) == summarize(rec, replay(rec), file="p",
    ...                                                        index=1)
    True
    >>> summarize_quick(facts, file="p", index=1, judged=False) == summarize_record(
    ...     rec, file="p", index=1)
    True
    """
    ids = facts.seats
    n = len(ids)
    spec = facts.ruleset
    play = facts.play
    if not judged:
        return DealSummary(
            file, index, line, facts.tags, "fft" if spec is None else _canonical(spec), n,
            ids, facts.names, facts.dealer, None, (), 0, 0, tricks=len(play) // n,
            hands=facts.hands, play=play, auction=facts.auction)
    made = facts.made
    return DealSummary(
        file, index, line, facts.tags, "fft" if spec is None else _canonical(spec), n, ids,
        facts.names, facts.dealer, facts.status, (), 0, 0,
        facts.contract, facts.taker, facts.partner,
        True,  # a clean deal: the camps known (at five players, from the called card)
        facts.taker_half, facts.bouts, made, facts.margin if made else -facts.margin,
        facts.petit_au_bout, facts.petit_au_bout_seat, facts.chelem, facts.chelem_announced,
        facts.poignees, tuple(map(facts.scores.__getitem__, ids)), len(play) // n,
        facts.hands, play, facts.auction)


def dealt_hands(record: DealRecord, result: Replay | None) -> tuple[int, ...] | None:
    """Each seat's hand as dealt: recorded, or worked out from a complete play (the
    taker's from his hand at the first card, the écart and the chien, when he took it).
    None when a hand cannot be known."""
    ids = record.seat_ids
    if record.hands is not None and len(record.hands) == len(ids):
        return tuple(record.hands[s].bits for s in ids)
    if result is None or len(result.hands) != len(ids):
        return None
    out = []
    for s in ids:
        bits = result.hands[s].bits
        if s == result.taker and result.contract is not None and result.contract.takes_chien:
            if record.chien is None or record.ecart is None or record.ecart.cards is None:
                return None
            bits = (bits | record.ecart.cards.bits) & ~record.chien.bits
        out.append(bits)
    return tuple(out)


def _digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=FINGERPRINT_BYTES,
                           person=b"tarotnotation").digest()


def hand_key(hand: int) -> bytes:
    """A hand (card bitset) as 10 bytes: what identifies it across tables."""
    return hand.to_bytes(10, "little")


def deal_fingerprint(summary: DealSummary) -> bytes | None:
    """16 bytes that stand for the cards dealt: the same hands and chien, whoever held
    them (seat names and the order of the seats do not count). None when a hand is
    not known."""
    hands = summary.hands
    if hands is None:
        return None
    # (hand_key inline: a call a hand is a fifth of dedupe's time a deal)
    return _digest(b"deal" + b"".join(sorted([hand.to_bytes(10, "little") for hand in hands])))


def play_fingerprint(summary: DealSummary) -> bytes | None:
    """16 bytes that stand for the cards dealt, the bids and the cards played, in order
    (a record without its hands counts by its auction and play alone). None when no card
    was played."""
    if not summary.play:
        return None
    dealt = b"" if summary.hands is None else b"".join(sorted(map(hand_key, summary.hands)))
    return _digest(b"play" + dealt + b"|" + summary.auction + b"|" + summary.play)
