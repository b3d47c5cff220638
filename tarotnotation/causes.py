"""Causes: when one slip explains many faults, say the slip once, with its fix.

A trick written from the wrong seat gives every later trick the wrong leader, and the
replay then finds dozens of faults (cards "not in hand", revokes, wrong scores) where a
person sees one slip. :func:`explain` does what that person does: given a replay whose
deal has many faults, it tries the plausible single repairs of a record written
carelessly, replays each, and when one repair removes most faults it adds one *cause*
(a ``Y`` code) that says what happened and how to fix it:

- ``Y001`` a trick's cards listed from another seat than its leader (its cards rotated);
- ``Y002`` a wrong dealer (each other dealer);
- ``Y003`` a card left out of a trick (the card never played, in its player's place);
- ``Y004`` a trick left out (the cards never played, one per seat, at each place);
- ``Y005`` every trick listed in seat order from one seat, not from its leader;
- ``Y006`` two tricks written in each other's place;
- ``Y007`` the seats listed clockwise (play goes counter-clockwise);
- ``Y008`` a card written as another (the one never played);
- ``Y009`` the auction's bids listed from the wrong seat (the taker they make is not the
  result's).

The faults that the repair removes are kept, marked as consequences of the cause
(:attr:`~tarotnotation.diagnostics.Diagnostic.cause`), and are not counted. The cause
never hides an independent fault: a fault that remains after the repair stays reported
as it was, and a fault that the repair reveals (one the cascade had buried under other
faults) is reported too, saying so.

It is cheap on clean deals: a deal is examined only when it has at least
:data:`MIN_FAULTS` errors, not all of them in the recorded result. An examined deal costs
at most :data:`MAX_TRIALS` replays, the likeliest repairs first; when the hands are
recorded, a repair that gives a seat a card it was not dealt is dropped unplayed, so it
costs one or two (about 2 to 3 ms a deal; without the hands up to about 50 ms).

>>> from tarotnotation import notation
>>> from tarotnotation.replay import replay
>>> rec = notation.load("examples/garde-poignee.tarot")
>>> tricks = list(rec.play)
>>> cards = tricks[4].cards                    # trick 5 written from W instead of N
>>> tricks[4] = tricks[4].model_copy(update={"cards": cards[1:] + cards[:1]})
>>> rep = replay(rec.model_copy(update={"play": tuple(tricks)}))
>>> len(rep.errors)
65
>>> told = explain(rep)
>>> cause, first = told.diagnostics[:2]
>>> cause.code.value, cause.location.trick
('Y001', 5)
>>> print(cause.message.replace(": ", ":\\n"))
trick 5 is written from W, but N leads it (N won trick 4):
list its cards from N:
NS QS T8 T15 (65 faults follow from this)
>>> print(first)
P103 error: trick 5, seat N, card QS: N does not hold QS: it was dealt to W [follows from Y001]
>>> sum(not d.counts for d in told.diagnostics)
65
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import islice
from typing import TYPE_CHECKING, Final

from . import values
from .cards import ALL_MASK, Card, CardSet
from .diagnostics import Code, Diagnostic, Severity
from .i18n import Msg, comma_list
from .i18n import written as as_written
from .kernel import winner_index
from .records import DealRecord, PlayedCard, Seat, Trick
from .replay import Replay, replay

if TYPE_CHECKING:  # the readers' source map, a layer above: ReadDeal.replay() calls this
    from .source import SourceMap

__all__ = ["MAX_TRIALS", "MIN_FAULTS", "Cause", "explain", "find_cause"]

#: A deal is examined only when it has at least this many errors.
MIN_FAULTS: Final = 4
#: At most this many repaired records are replayed for one deal.
MAX_TRIALS: Final = 32


@dataclass(frozen=True, slots=True)
class Cause:
    """The one slip that explains a deal's faults, and what the repair leaves."""

    diagnostic: Diagnostic
    """The cause: a ``Y`` code, what happened and how to fix it."""
    record: DealRecord
    """The record repaired."""
    repaired: Replay
    """The replay of the repaired record."""
    diagnostics: tuple[Diagnostic, ...]
    """The deal's diagnostics, explained: the cause, the faults that remain (as they were),
    the faults the repair reveals, then the consequences (marked, not counted)."""


@dataclass(frozen=True, slots=True)
class _Trial:
    """One repair to try: the repaired record, and how to word and place its cause."""

    code: Code
    record: DealRecord
    words: str | Callable[[Replay], str]
    """The message, or how to word it given the replay of the repaired record."""
    path: str
    trick: int | None = None
    seat: str | None = None
    card: str | None = None
    order: tuple[int, ...] | None = None
    """When tricks moved: the original index of each repaired trick (-1: a trick added)."""
    holds: tuple[tuple[str, Card], ...] = ()
    """Cards the repair gives to seats: when the hands are recorded, a repair that gives a
    seat a card it was not dealt (nor could take from the chien) is not worth a replay."""


def explain(rep: Replay, *, deal: int | None = None, source: SourceMap | None = None
            ) -> Replay:
    """``rep`` with its diagnostics explained when one slip causes most of them (see the
    module doc); ``rep`` itself when no single slip does.

    ``deal`` and ``source`` locate the cause and the faults the repair reveals, as
    :func:`~tarotnotation.replay.replay` locates its own.
    """
    cause = find_cause(rep, deal=deal, source=source)
    return rep if cause is None else replace(rep, diagnostics=cause.diagnostics)


def find_cause(rep: Replay, *, deal: int | None = None, source: SourceMap | None = None
               ) -> Cause | None:
    """The :class:`Cause` of a replay's faults, or None (few faults, or no single slip)."""
    errors = [d for d in rep.diagnostics if d.severity is Severity.ERROR and d.counts]
    if len(errors) < MIN_FAULTS or all(d.code.value[0] == "R" for d in errors):
        return None
    if any(not d.counts or d.code.value[0] == "Y" for d in rep.diagnostics):
        return None  # already explained
    best: tuple[int, _Trial, Replay] | None = None
    for trial in _trials(rep, errors):
        repaired = replay(trial.record)
        left = len(repaired.errors)
        if best is None or left < best[0]:
            best = (left, trial, repaired)
            if left == 0:
                break
    if best is None:
        return None
    left, trial, repaired = best
    if left > len(errors) // 2 or len(errors) - left < 3:
        return None
    return _explained(rep, trial, repaired, deal, source)


# --- what the repair leaves, and the cause in words ------------------------------------------

_PLAY_PATH: Final = re.compile(r"play\[(\d+)\]")


def _key(d: Diagnostic, moved: dict[int, int] | None) -> tuple[object, ...]:
    """What makes two diagnostics the same fault in a record and its repair: the code, the
    card (cards are unique in a deal, wherever the repair moves them) and the seat, else
    the code, the path and the seat."""
    loc = d.location
    if loc.card is not None:
        return (d.code, loc.card, loc.seat)
    path = loc.path or ""
    if moved is not None:
        m = _PLAY_PATH.match(path)
        if m:
            path = f"play[{moved.get(int(m[1]), -1)}]{path[m.end():]}"
    return (d.code, path, loc.seat)


def _explained(rep: Replay, trial: _Trial, repaired: Replay, deal: int | None,
               source: SourceMap | None) -> Cause:
    moved = None if trial.order is None else {
        old: new for new, old in enumerate(trial.order) if old >= 0}
    after = Counter(_key(d, None) for d in repaired.diagnostics)
    remain: list[Diagnostic] = []
    follow: list[Diagnostic] = []
    for d in rep.diagnostics:
        key = _key(d, moved)
        if after[key] > 0:
            after[key] -= 1
            remain.append(d)
        else:
            follow.append(d.follows(trial.code))
    # Faults of the repaired record the original did not show: the cascade buried them.
    before = Counter(_key(d, moved) for d in rep.diagnostics)
    revealed = []
    for d in repaired.diagnostics:
        key = _key(d, None)
        if before[key] > 0:
            before[key] -= 1
            continue
        revealed.append(_placed(d, trial, rep.record, deal, source))
    count = len(follow)
    words = trial.words if isinstance(trial.words, str) else trial.words(repaired)
    message = (words if not count else
               Msg("{cause} (1 fault follows from this)", cause=words) if count == 1 else
               Msg("{cause} ({n} faults follow from this)", cause=words, n=count))
    cause = Diagnostic.make(trial.code, message, path=trial.path, trick=trial.trick,
                            seat=trial.seat, card=trial.card)
    if deal is not None:
        cause = cause.at(deal=deal)
    if source is not None:
        cause = source.locate(cause)
    return Cause(cause, trial.record, repaired,
                 (cause, *remain, *revealed, *follow))


def _placed(d: Diagnostic, trial: _Trial, original: DealRecord, deal: int | None,
            source: SourceMap | None) -> Diagnostic:
    """A fault of the repaired record, placed in the original and said to be revealed."""
    path = d.location.path or ""
    m = _PLAY_PATH.match(path)
    trick = d.location.trick
    if m:
        i = int(m[1])
        old = trial.order[i] if trial.order is not None and i < len(trial.order) else i
        if d.location.card is not None:  # where that card is written
            for t, tr in enumerate(original.play):
                if any(pc.card.code == d.location.card for pc in tr.cards):
                    old = t
                    c = next(c for c, pc in enumerate(tr.cards)
                             if pc.card.code == d.location.card)
                    path = f"play[{t}].cards[{c}]"
                    break
        elif old >= 0:
            path = f"play[{old}]{path[m.end():]}"
        else:
            path = "play"
        trick = old + 1 if old >= 0 else None
    out = values.replace(d, message=Msg("{message} (with {trial} fixed)",
                                        message=d.message, trial=trial.code.value),
                         location=values.replace(d.location, path=path or None,
                                                 trick=trick, line=None, col=None))
    if deal is not None:
        out = out.at(deal=deal)
    if source is not None:
        out = source.locate(out)
    return out


# --- the repairs to try, the likeliest first --------------------------------------------------


def _trials(rep: Replay, errors: Sequence[Diagnostic]) -> Iterator[_Trial]:
    rec = rep.record
    trials = _all_trials(rep, errors)
    if rec.hands is not None and len(rec.hands) == rec.players:
        chien = rec.chien.bits if rec.chien is not None else ALL_MASK & ~sum(
            h.bits for h in rec.hands.values())
        held = {seat: hand.bits | chien for seat, hand in rec.hands.items()}
        trials = (t for t in trials
                  if all(held[seat] >> card & 1 for seat, card in t.holds))
    return islice(trials, MAX_TRIALS)


def _holds(ids: Sequence[str], leader: int, cards: Sequence[PlayedCard]
           ) -> tuple[tuple[str, Card], ...]:
    """Who holds each card of a trick led by ``leader``, its cards in the order played."""
    n = len(ids)
    return tuple((ids[(leader + i) % n], pc.card) for i, pc in enumerate(cards))


def _all_trials(rep: Replay, errors: Sequence[Diagnostic]) -> Iterator[_Trial]:
    rec = rep.record
    n = rec.players
    ids = rec.seat_ids
    hands_known = rec.hands is not None and len(rec.hands) == n
    faulted = [d.location.trick - 1 for d in errors if d.location.trick is not None]
    first = min(faulted) if faulted else None
    plain = [not any(pc.seat is not None for pc in t.cards) and t.leader is None
             and len(t.cards) == n for t in rec.play]

    yield from _auction_rotated(rec, ids)
    yield from _dealers(rec, ids, plain)
    yield from _clockwise(rec, ids, plain)
    if first is not None:
        yield from _rotations(rep, ids, plain, [first])
    if first is not None and all(plain[:-1]):
        yield from _seat_order(rep, ids)
    unplayed = _unplayed(rep)
    yield from _missing_card(rep, ids, unplayed, hands_known)
    if first is not None and hands_known:
        yield from _missing_trick(rep, ids, unplayed, first)
        yield from _swaps(rep, ids, plain, range(max(0, first - 1), first + 1))
    yield from _miswritten(rep, errors, unplayed, hands_known)
    if first is not None and not hands_known:
        # Without the hands, each seat's hand is what it went on to play, so a card put
        # on the wrong seat makes the cards its seat played before look illegal: the slip
        # is in a trick at fault or just after the last one (seldom more than 4 after:
        # random deals), rarely anywhere else.
        last = max(faulted)
        at_fault = sorted(set(faulted), reverse=True)
        near = [last + 1, *at_fault, *range(last + 2, len(rec.play)),
                *(t for t in range(last, first, -1) if t not in at_fault),
                *range(first - 1, -1, -1)]
        yield from _rotations(rep, ids, plain, [t for t in near if t != first])
        yield from _swaps(rep, ids, plain, range(first - 2, -1, -1))


def _cards_text(cards: Sequence[PlayedCard]) -> str:
    return as_written(" ".join(pc.card.code for pc in cards))  # to be typed as it is


def _with_play(rec: DealRecord, play: Sequence[Trick]) -> DealRecord:
    return rec.model_copy(update={"play": tuple(play)})


def _leader_text(rep: Replay, ids: Sequence[str], t: int) -> str:
    """Why a seat leads trick ``t`` (0-based) in a replay."""
    leader = ids[rep.tricks[t].leader]
    if t == 0:
        return Msg("{leader} leads it (first to play)", leader=leader)
    return Msg("{leader} leads it ({leader} won trick {t})", leader=leader, t=t)


def _first_trick(rec: DealRecord, plain: Sequence[bool], ids: Sequence[str], first: str
                 ) -> tuple[tuple[str, Card], ...]:
    """Who holds the cards of the first trick when ``first`` leads it (nothing to check
    when a chelem is announced, or the trick names its seats)."""
    if not rec.play or not plain[0] or any(d.kind == "chelem" for d in rec.declarations):
        return ()
    return _holds(ids, ids.index(first), rec.play[0].cards)


def _dealers(rec: DealRecord, ids: Sequence[str], plain: Sequence[bool]
             ) -> Iterator[_Trial]:
    written = rec.dealer if rec.dealer is not None else ids[-1]
    for dealer in ids:
        if dealer == written:
            continue
        first = ids[(ids.index(dealer) + 1) % len(ids)]
        said = (Msg("the dealer is written as {dealer}", dealer=rec.dealer)
                if rec.dealer is not None else
                Msg("no dealer is written (so {seat} speaks and leads first)", seat=ids[0]))
        yield _Trial(Code.WRONG_DEALER, rec.model_copy(update={"dealer": dealer}),
                     Msg("{said}, but the cards fit {dealer} as dealer ({first} speaks and"
                         " leads first): write {dealer} as the dealer", said=said,
                         dealer=as_written(dealer), first=first), "dealer",
                     holds=_first_trick(rec, plain, ids, first))


def _auction_rotated(rec: DealRecord, ids: Sequence[str]) -> Iterator[_Trial]:
    """The auction's bids listed from the wrong seat: the taker the auction makes is not
    the one the result names. The repair turns the bids so that the highest falls to the
    result's taker, each player still speaking once from the dealer's right."""
    res, bids, n = rec.result, rec.auction, rec.players
    if (res is None or res.taker is None or len(bids) != n
            or any(b.seat is not None for b in bids)):
        return
    spoken = [i for i, b in enumerate(bids) if b.contract is not None]
    if not spoken:
        return
    first = ids.index(rec.first_seat)
    won = spoken[-1]  # (the bids rise: the last is the highest)
    if ids[(first + won) % n] == res.taker:
        return
    shift = (ids.index(res.taker) - first - won) % n
    turned = tuple(bids[(i - shift) % n] for i in range(n))
    words = " ".join("pass" if b.contract is None else b.contract.keyword for b in turned)
    yield _Trial(Code.AUCTION_FROM_WRONG_SEAT, rec.model_copy(update={"auction": turned}),
                 Msg("the auction makes {auction} the taker, but the result names {taker}:"
                     " its bids are listed from the wrong seat; from {first} (the dealer's"
                     " right) they read: {bids}", auction=ids[(first + won) % n],
                     taker=res.taker, first=ids[first], bids=words), "auction[0]",
                 seat=res.taker)


def _clockwise(rec: DealRecord, ids: Sequence[str], plain: Sequence[bool]
               ) -> Iterator[_Trial]:
    seats = rec.seats
    turned: tuple[Seat, ...] = (seats[0], *seats[:0:-1])
    listed = comma_list(ids)
    order = [s.id for s in turned]
    record = rec.model_copy(update={"seats": turned})
    yield _Trial(Code.SEATS_CLOCKWISE, record,
                 Msg("the seats are listed clockwise ({listed}); play goes counter-clockwise:"
                     " list them in the order of play, {order}", listed=listed,
                     order=comma_list(order)), "seats",
                 holds=_first_trick(rec, plain, order, record.first_seat))


def _seat_order(rep: Replay, ids: Sequence[str]) -> Iterator[_Trial]:
    """Every trick listed from one seat (a score sheet's columns), not from its leader."""
    rec = rep.record
    n = rec.players
    if len(rec.play) < 2 or not rep.tricks:
        return
    for start in range(n):
        leader = rep.tricks[0].leader
        play = []
        holds: list[tuple[str, Card]] = []
        for trick in rec.play:
            written = trick.cards
            if len(written) < n:
                play.append(trick)
                break
            order = tuple(written[(leader + i - start) % n] for i in range(n))
            holds.extend(_holds(ids, leader, order))
            play.append(trick if order == written else trick.model_copy(
                update={"cards": order}))
            w = winner_index([pc.card for pc in order])
            leader = (leader + (w or 0)) % n
        if all(a is b for a, b in zip(play, rec.play, strict=True)):
            continue
        yield _Trial(Code.TRICKS_IN_SEAT_ORDER, _with_play(rec, play),
                     Msg("the tricks are listed from {seat} each time (in seat order), not"
                         " from their leaders: write each trick from the seat that leads it"
                         " (the winner of the trick before)", seat=ids[start]), "play",
                     holds=tuple(holds))


def _rotations(rep: Replay, ids: Sequence[str], plain: Sequence[bool],
               tricks: Iterator[int] | Sequence[int] | range) -> Iterator[_Trial]:
    rec = rep.record
    n = rec.players
    for t in tricks:
        if not 0 <= t < len(rec.play) or not plain[t]:
            continue
        trick = rec.play[t]
        for k in range(1, n):
            cards = trick.cards[k:] + trick.cards[:k]
            play = list(rec.play)
            play[t] = trick.model_copy(update={"cards": cards})

            def words(r: Replay, t: int = t, k: int = k, cards: tuple[PlayedCard, ...] = cards
                      ) -> str:
                leader = r.tricks[t].leader
                written = ids[(leader + n - k) % n]
                return Msg("trick {trick} is written from {written}, but {why}: list its"
                           " cards from {leader}: {cards}", trick=t + 1, written=written,
                           why=_leader_text(r, ids, t), leader=ids[leader],
                           cards=_cards_text(cards))

            leader = rep.tricks[t].leader if t < len(rep.tricks) else None
            yield _Trial(Code.TRICK_FROM_WRONG_SEAT, _with_play(rec, play), words,
                         f"play[{t}]", trick=t + 1,
                         holds=() if leader is None else _holds(ids, leader, cards))


def _unplayed(rep: Replay) -> list[Card]:
    """The cards never played that a player held: from the exact hands when all are known,
    else every card neither played nor in the chien or the écart."""
    rec = rep.record
    played = 0
    for trick in rec.play:
        for pc in trick.cards:
            played |= 1 << pc.card
    if len(rep.hands) == rec.players:
        held = 0
        for hand in rep.hands.values():
            held |= hand.bits
        return list(CardSet(held & ~played))
    aside = rec.chien.bits if rec.chien is not None else 0
    if rec.ecart is not None and rec.ecart.cards is not None:
        aside |= rec.ecart.cards.bits
    return list(CardSet(ALL_MASK & ~played & ~aside))


def _holder(rep: Replay, card: Card) -> int | None:
    for s, sid in enumerate(rep.record.seat_ids):
        hand = rep.hands.get(sid)
        if hand is not None and card in hand:
            return s
    return None


def _missing_card(rep: Replay, ids: Sequence[str], unplayed: Sequence[Card],
                  hands_known: bool) -> Iterator[_Trial]:
    rec = rep.record
    n = rec.players
    short = [t for t, tr in enumerate(rec.play[:-1]) if len(tr.cards) < n]
    if not short or not 1 <= len(unplayed) <= 3 or len(rec.play[short[0]].cards) != n - 1:
        return
    t = short[0]
    trick = rec.play[t]
    leader = rep.tricks[t].leader if t < len(rep.tricks) else None
    for card in unplayed:
        holder = _holder(rep, card) if hands_known else None
        if holder is not None and leader is not None:
            places = [(holder - leader) % n]
        else:
            places = list(range(n))
        for p in places:
            if p > len(trick.cards):
                continue
            cards = (*trick.cards[:p], PlayedCard(card=card), *trick.cards[p:])
            play = list(rec.play)
            play[t] = trick.model_copy(update={"cards": cards})
            where = (Msg("first") if p == 0 else
                     Msg("after {card}", card=as_written(trick.cards[p - 1].card.code)))

            def words(r: Replay, t: int = t, p: int = p, card: Card = card,
                      cards: tuple[PlayedCard, ...] = cards, where: str = where) -> str:
                seat = ids[r.tricks[t].seats[p]]
                return Msg("trick {trick} lacks a card: {seat}'s {card}, never played, fits"
                           " there: write it {where}: {cards}", trick=t + 1, seat=seat,
                           card=card.code, where=where, cards=_cards_text(cards))

            yield _Trial(Code.CARD_MISSING, _with_play(rec, play), words, f"play[{t}]",
                         trick=t + 1)


def _missing_trick(rep: Replay, ids: Sequence[str], unplayed: Sequence[Card],
                   first: int) -> Iterator[_Trial]:
    rec = rep.record
    n = rec.players
    if len(rec.play) >= rec.table.tricks or len(unplayed) != n:
        return
    if any(len(t.cards) != n for t in rec.play):
        return
    holders = {_holder(rep, card): card for card in unplayed}
    if len(holders) != n or None in holders:
        return
    for k in range(min(first, len(rec.play)), -1, -1):
        if k == 0:
            leader = rep.tricks[0].leader if rep.tricks else None
        else:
            leader = rep.tricks[k - 1].winner
        if leader is None:
            continue
        cards = tuple(PlayedCard(card=holders[(leader + i) % n]) for i in range(n))
        play = [*rec.play[:k], Trick(cards=cards), *rec.play[k:]]
        order = (*range(k), -1, *range(k, len(rec.play)))
        after = Msg("before trick 1") if k == 0 else Msg("after trick {k}", k=k)

        def words(r: Replay, k: int = k, cards: tuple[PlayedCard, ...] = cards,
                  after: str = after) -> str:
            return Msg("a trick is missing {after}: the cards never played, {cards}, make"
                       " trick {trick}, led by {leader}: write it there", after=after,
                       cards=_cards_text(cards), trick=k + 1, leader=ids[r.tricks[k].leader])

        yield _Trial(Code.TRICK_MISSING, _with_play(rec, play), words,
                     f"play[{k}]" if k < len(rec.play) else "play",
                     trick=k + 1 if k < len(rec.play) else None, order=order)


def _swaps(rep: Replay, ids: Sequence[str], plain: Sequence[bool],
           tricks: Sequence[int] | range) -> Iterator[_Trial]:
    rec = rep.record
    for t in tricks:
        if not 0 <= t < len(rec.play) - 1 or not plain[t] or not plain[t + 1]:
            continue
        play = list(rec.play)
        play[t], play[t + 1] = play[t + 1], play[t]
        order = tuple(range(len(play)))
        order = (*order[:t], t + 1, t, *order[t + 2:])
        leader = rep.tricks[t].leader if t < len(rep.tricks) else None
        yield _Trial(Code.TRICKS_SWAPPED, _with_play(rec, play),
                     Msg("tricks {first} and {second} are written in each other's place:"
                         " swap them", first=t + 1, second=t + 2), f"play[{t}]", trick=t + 1,
                     order=order,
                     holds=() if leader is None else _holds(ids, leader, play[t].cards))


_MISWRITTEN_CODES: Final = frozenset({Code.PLAYED_TWICE, Code.NOT_IN_HAND})


def _miswritten(rep: Replay, errors: Sequence[Diagnostic], unplayed: Sequence[Card],
                hands_known: bool) -> Iterator[_Trial]:
    """A card written as another: one card is never played, and a card written is played
    twice or held by nobody who could play it; try the first in its places."""
    rec = rep.record
    if not hands_known or len(unplayed) != 1:
        return
    right = unplayed[0]
    suspects = []
    for d in errors:
        if d.code in _MISWRITTEN_CODES and d.location.card is not None:
            suspects.append(d.location.card)
    seen: set[tuple[int, int]] = set()
    for code in dict.fromkeys(suspects):
        for t, trick in enumerate(rec.play):
            for c, pc in enumerate(trick.cards):
                if pc.card.code != code or (t, c) in seen:
                    continue
                seen.add((t, c))
                cards = list(trick.cards)
                cards[c] = pc.model_copy(update={"card": right})
                play = list(rec.play)
                play[t] = trick.model_copy(update={"cards": tuple(cards)})
                seat = rep.tricks[t].seats[c] if t < len(rep.tricks) else None
                yield _Trial(Code.CARD_MISWRITTEN, _with_play(rec, play),
                             Msg("{code} in trick {trick} is written for {right} ({right} is"
                                 " never played): write {right}", code=as_written(code),
                                 trick=t + 1, right=as_written(right.code)),
                             f"play[{t}].cards[{c}]", trick=t + 1, card=code,
                             holds=() if seat is None else ((rec.seat_ids[seat], right),))
