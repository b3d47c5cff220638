"""The deal numbers of one file, by session: the same ``Deal`` number twice in a session
is a fault (``R301``; docs/notation.md §2 tags). :func:`deal_number` reads a record's
session and number from its tags, :class:`SessionDeals` remembers the numbers seen in
bounded memory (as runs) and says when one comes again."""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Iterable
from typing import Final

from .i18n import Msg

__all__ = ["SESSION_TAGS", "SessionDeals", "deal_number", "plain_number"]


#: The tags that name a session: the same deal number twice under the same values is a
#: fault; the same deal at several tables (another Table) is a duplicate tournament.
SESSION_TAGS: Final = ("Event", "Site", "Date", "Round", "Table")


def deal_number(tags: Iterable[tuple[str, str]]) -> tuple[tuple[str, ...], str] | None:
    """``(session, deal number)`` of a record from its tags, or None without a ``Deal``
    tag. The session is the values of :data:`SESSION_TAGS` (empty when absent); a number
    is compared without leading zeros.

    >>> deal_number([("Event", "Club"), ("Deal", "07"), ("Table", "2")])
    (('Club', '', '', '', '2'), '7')
    >>> deal_number([("Event", "Club")]) is None
    True
    """
    values: dict[str, str] = {}
    for name, value in tags:
        values.setdefault(name.lower(), value.strip())
    number = values.get("deal")
    if number is None or not number:
        return None
    if number.isdigit():
        number = str(int(number))
    return tuple(values.get(t.lower(), "") for t in SESSION_TAGS), number


class SessionDeals:
    """The deal numbers seen in one file, by session: :meth:`see` says when a number comes
    again (docs/notation.md §2 tags).

    Numbers are kept as runs: ``n`` to ``m`` first seen at deals ``d`` to ``d + m - n``
    (a file numbered 1, 2, 3… holds one run a session, whatever its size), so a file of
    a million numbered deals is checked in bounded memory; :meth:`see_run` takes a run
    at once. A number that is not written as a plain decimal (``12a``, ``007`` given as
    such) is kept as it is.

    >>> seen = SessionDeals()
    >>> seen.see((("Club", "", "", "", ""), "1"), 1) is None
    True
    >>> seen.see((("Club", "", "", "", ""), "1"), 4)
    1
    >>> seen.see_run(("Club", "", "", "", ""), 2, 3, 2)  # numbers 2-4 at deals 2-4
    []
    >>> seen.see_run(("Club", "", "", "", ""), 3, 4, 5)  # 3-6 at deals 5-8: 3 and 4 again
    [(5, 3), (6, 4)]
    >>> seen.see((("Club", "", "", "", ""), "6"), 9)
    8
    """

    def __init__(self) -> None:
        self.named: dict[tuple[tuple[str, ...], str], int] = {}
        self.runs: dict[tuple[str, ...], _Runs] = {}
        # (session, number, deal, runs): the key that would continue the highest run of a
        # session, as the last one seen did
        self._next: tuple[tuple[str, ...], str, int, _Runs] | None = None

    def see(self, key: tuple[tuple[str, ...], str] | None, deal: int) -> int | None:
        """The deal (index in the file) that first had ``key``, or None the first time."""
        if key is None:
            return None
        session, number = key
        then = self._next
        if then is not None and number == then[1] and deal == then[2] and session == then[0]:
            # (the usual case: the number after the last one seen, at the next deal)
            then[3].highs[-1] += 1
            self._next = (session, str(int(number) + 1), deal + 1, then[3])
            return None
        n = plain_number(number)
        if n is None:
            first = self.named.setdefault(key, deal)
            return None if first == deal else first
        runs = self.runs.get(session)
        if runs is None:
            runs = self.runs[session] = _Runs()
        again = runs.see(n, 1, deal)
        self._next = (session, str(n + 1), deal + 1, runs) if runs.extends(n + 1, deal + 1,
                                                                          probe=True) else None
        return again[0][1] if again else None

    def see_run(self, session: tuple[str, ...], number: int, count: int, deal: int
                ) -> list[tuple[int, int]]:
        """See the numbers ``number`` to ``number + count - 1`` of ``session`` at deals
        ``deal`` to ``deal + count - 1``: ``(deal, first)`` for each deal whose number an
        earlier deal ``first`` had (as :meth:`see` says it of each in turn)."""
        self._next = None  # (its runs may change)
        runs = self.runs.get(session)
        if runs is None:
            runs = self.runs[session] = _Runs()
        return runs.see(number, count, deal)

    @staticmethod
    def message(key: tuple[tuple[str, ...], str], first: int) -> str:
        """The words of an R301 diagnostic."""
        session, number = key
        named = ", ".join(f'{t} "{v}"' for t, v in zip(SESSION_TAGS, session, strict=True)
                          if v)
        where = (Msg("session {named}", named=named) if named
                 else Msg("session (no Event, Site, Date, Round or Table tag)"))
        return Msg("deal number {number} of {where} was already given to deal {first} of"
                   " this file: a session numbers each deal once (the same deal at another"
                   " Table is a duplicate tournament)", number=number, where=where,
                   first=first)


#: The longest deal number kept as an int in a run (a 64-bit one).
_PLAIN_DIGITS: Final = 18


def plain_number(number: str) -> int | None:
    """A deal number written as a plain decimal (no leading zero, as :func:`deal_number`
    gives it), as an int; None for any other.

    >>> plain_number("12"), plain_number("012"), plain_number("12a"), plain_number("0")
    (12, None, None, 0)
    """
    if (number.isascii() and number.isdigit() and len(number) <= _PLAIN_DIGITS
            and (number[0] != "0" or number == "0")):
        return int(number)
    return None


class _Runs:
    """The plain numbers seen in one session: sorted runs that do not overlap, run ``i``
    the numbers ``lows[i]`` to ``highs[i]``, first seen at deals ``firsts[i]`` on."""

    __slots__ = ("firsts", "highs", "lows")

    def __init__(self) -> None:
        self.lows = array("q")
        self.highs = array("q")
        self.firsts = array("q")

    def extends(self, number: int, deal: int, *, probe: bool = False) -> bool:
        """Whether ``number`` at ``deal`` continues the highest run (the next number, at
        the next deal); taken there unless ``probe``."""
        highs = self.highs
        if highs and number == highs[-1] + 1 and (
                deal == self.firsts[-1] + number - self.lows[-1]):
            if not probe:
                highs[-1] = number
            return True
        return False

    def see(self, low: int, count: int, deal: int) -> list[tuple[int, int]]:
        high = low + count - 1
        lows, highs, firsts = self.lows, self.highs, self.firsts
        again: list[tuple[int, int]] = []
        new: list[tuple[int, int]] = []  # the numbers not seen yet: (from, to)
        at = low
        i = bisect_right(lows, low) - 1
        if i < 0 or highs[i] < low:
            i += 1
        while i < len(lows) and lows[i] <= high:
            if at < lows[i]:
                new.append((at, lows[i] - 1))
            for n in range(max(at, lows[i]), min(high, highs[i]) + 1):
                first = firsts[i] + n - lows[i]
                if first != deal + n - low:
                    again.append((deal + n - low, first))
            at = highs[i] + 1
            i += 1
        if at <= high:
            new.append((at, high))
        for start, end in new:
            self._add(start, end, deal + start - low)
        return again

    def _add(self, low: int, high: int, first: int) -> None:
        """Add numbers ``low`` to ``high`` (none seen yet), first seen at deal ``first`` on,
        joined to the run before or after when they continue it."""
        lows, highs, firsts = self.lows, self.highs, self.firsts
        i = bisect_right(lows, low)
        before = i > 0 and highs[i - 1] == low - 1 and firsts[i - 1] + low - lows[i - 1] == first
        after = i < len(lows) and lows[i] == high + 1 and firsts[i] == first + high + 1 - low
        if before and after:
            highs[i - 1] = highs[i]
            del lows[i], highs[i], firsts[i]
        elif before:
            highs[i - 1] = high
        elif after:
            lows[i], firsts[i] = low, first
        else:
            lows.insert(i, low)
            highs.insert(i, high)
            firsts.insert(i, first)
