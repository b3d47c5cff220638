"""The cross-check of a recorded result against what a deal can produce.

A score sheet records facts: the contract, the taker, the taker's camp's card points, its
bouts, the petit au bout, the chelem, the poignées, the partner, each seat's score. The
replay recomputes the score from them (:mod:`tarotnotation.scoring`); this module asks
first whether the facts can be true at all, under the record's ruleset, contract and
number of players: a chelem with 58 points, 95 points, a petit au bout for a camp that
took no trick, scores that do not share the way the rules share them.

Pure: ints, enums and frozen dataclasses (no pydantic, no text).

- **Bounds** are :mod:`tarotnotation.bounds`'s (what a deal can produce, derived from the
  rules; its names are given here too).
- **The cross-check.** :func:`check` takes a :class:`Facts` (the recorded result as plain
  values) and returns a :class:`Finding` for each fact that cannot be true, with the code
  (``R2xx``, or ``R102`` for scores that do not sum to zero) and words that say why. One
  impossible fact never stops the others from being checked.
- **Sessions** are :mod:`tarotnotation.sessions`'s: :func:`deal_number` and
  :class:`SessionDeals` find the same deal number twice in one session of a file
  (``R301``; given here too).

The rules are cited by their sections in ``docs/rules.md``.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from . import kernel
from .bounds import (
    PACK_HALF,
    Accounting,
    Won,
    accountings,
    counting_rules,
    plain_range,
    plain_sums,
    poignee_trumps,
    points_bounds,
    reachable_points,
    score_bounds,
    share_weights,
)
from .cards import points_text
from .diagnostics import Code
from .i18n import Msg, and_list, comma_list, nmsg, pmsg
from .rules import Camp, Contract, ExcuseLastTrick, MisereKind, Ruleset, threshold
from .scoring import DealFacts, score
from .sessions import SESSION_TAGS, SessionDeals, deal_number, plain_number
from .values import Value

if TYPE_CHECKING:
    from fractions import Fraction

__all__ = [
    "PACK_HALF",
    "SESSION_TAGS",
    "Accounting",
    "Facts",
    "Finding",
    "SessionDeals",
    "Won",
    "accountings",
    "check",
    "deal_number",
    "plain_number",
    "plain_range",
    "plain_sums",
    "poignee_trumps",
    "points_bounds",
    "reachable_points",
    "score_bounds",
    "share_weights",
]


# --- the cross-check ---------------------------------------------------------------------


class Facts(Value):
    """A recorded result and what the replay knows around it, as plain values.

    Seats are indices into ``seat_ids``. ``contract``, ``taker`` and the partner are the
    replay's (from the auction, the call and the cards, else from the result).
    """

    __slots__ = (
        "annulled",
        "bouts",
        "chelem",
        "chelem_announced",
        "contract",
        "misere_seats",
        "miseres",
        "partner",
        "partner_known",
        "petit_au_bout",
        "players",
        "poignees",
        "points",
        "points_written",
        "recorded_partner",
        "rules",
        "scores",
        "seat_ids",
        "taker",
    )
    players: int
    rules: Ruleset
    seat_ids: tuple[str, ...]
    contract: Contract | None
    taker: int | None
    partner: int | None
    """The partner's seat at five players; None when the taker is alone or unknown."""
    partner_known: bool
    """True when it is known whether (and with whom) the taker played with a partner."""
    points: Fraction | None
    """The taker's camp's points as recorded (any number: this module judges it)."""
    points_written: str | None
    """Those points as the record writes them (``45.3``), for the messages."""
    bouts: int | None
    petit_au_bout: Camp | None
    chelem: Camp | None
    chelem_announced: bool
    annulled: bool
    """The deal is annulled (all passed, a Petit sec, the Petit in the chien under
    ``petit_in_chien=annuls``), or the result says so."""
    recorded_partner: int | None
    """The partner the result names (the taker's own seat when alone)."""
    poignees: tuple[tuple[int, int, int], ...]
    """``(declaration index, seat, cards shown)`` of each poignée."""
    miseres: tuple[tuple[int, int, MisereKind], ...]
    """``(declaration index, seat, kind)`` of each misère declared."""
    misere_seats: tuple[int, ...]
    """The seats whose misère counts in the score."""
    scores: tuple[int | None, ...]
    """Each seat's recorded score (None where not recorded)."""

    def __init__(self, players: int, rules: Ruleset, seat_ids: tuple[str, ...],
                 contract: Contract | None = None, taker: int | None = None,
                 partner: int | None = None, partner_known: bool = False,
                 points: Fraction | None = None, points_written: str | None = None,
                 bouts: int | None = None, petit_au_bout: Camp | None = None,
                 chelem: Camp | None = None, chelem_announced: bool = False, annulled: bool = False,
                 recorded_partner: int | None = None,
                 poignees: tuple[tuple[int, int, int], ...] = (),
                 miseres: tuple[tuple[int, int, MisereKind], ...] = (),
                 misere_seats: tuple[int, ...] = (), scores: tuple[int | None, ...] = ()) -> None:
        setfield = object.__setattr__
        setfield(self, "players", players)
        setfield(self, "rules", rules)
        setfield(self, "seat_ids", seat_ids)
        setfield(self, "contract", contract)
        setfield(self, "taker", taker)
        setfield(self, "partner", partner)
        setfield(self, "partner_known", partner_known)
        setfield(self, "points", points)
        setfield(self, "points_written", points_written)
        setfield(self, "bouts", bouts)
        setfield(self, "petit_au_bout", petit_au_bout)
        setfield(self, "chelem", chelem)
        setfield(self, "chelem_announced", chelem_announced)
        setfield(self, "annulled", annulled)
        setfield(self, "recorded_partner", recorded_partner)
        setfield(self, "poignees", poignees)
        setfield(self, "miseres", miseres)
        setfield(self, "misere_seats", misere_seats)
        setfield(self, "scores", scores)


class Finding(Value):
    """A fact that cannot be true: a code, words that say why, and where (a record path
    and, where it applies, a seat)."""

    __slots__ = ("code", "message", "path", "seat")
    code: Code
    message: str
    path: str
    seat: int | None

    def __init__(self, code: Code, message: str, path: str, seat: int | None = None) -> None:
        setfield = object.__setattr__
        setfield(self, "code", code)
        setfield(self, "message", message)
        setfield(self, "path", path)
        setfield(self, "seat", seat)


def check(facts: Facts) -> tuple[Finding, ...]:
    """Every recorded fact that a deal under these rules cannot produce.

    >>> from fractions import Fraction
    >>> from tarotnotation.rules import Ruleset
    >>> f = Facts(players=4, rules=Ruleset.fft(), seat_ids=("S", "E", "N", "W"),
    ...           contract=Contract.GARDE, taker=0, points=Fraction(58), bouts=3,
    ...           chelem=Camp.TAKER)
    >>> for finding in check(f):
    ...     print(finding.code.value, finding.path)
    ...     print(finding.message)
    R207 result.taker_points
    a chelem by the taker's camp in a Garde at 4 players leaves it 91 points with 3 bouts,
    or 87 with 2 (the defence kept the Excuse, which counts 4): not 58 with 3 bouts
    """
    return tuple(_Checker(facts).run())


class _Checker:
    def __init__(self, facts: Facts) -> None:
        self.f = facts
        self.out: list[Finding] = []

    def add(self, code: Code, message: str, path: str, seat: int | None = None) -> None:
        self.out.append(Finding(code, message, path, seat))

    def run(self) -> list[Finding]:
        f = self.f
        half = self.points()
        bouts = self.bouts()
        if f.recorded_partner is not None and f.players != 5:
            self.add(Code.PARTNER_AT_FEWER_THAN_FIVE, Msg("the result names a partner ({seat}),"
                                                          " but a taker has a partner only at"
                                                          " five players, not at {players}"
                                                          " (docs/rules.md §3)",
                                                          seat=f.seat_ids[f.recorded_partner],
                                                          players=f.players),
                     "result.partner", f.recorded_partner)
        self.declarations()
        if f.annulled:
            self.annulled()
        else:
            self.card_facts(half, bouts)
        self.scores(half, bouts)
        return self.out

    # --- points and bouts ---------------------------------------------------------------

    def points(self) -> int | None:
        """The recorded points in half-points when they can be card points, else None
        (each reason reported)."""
        points = self.f.points
        if points is None:
            return None
        doubled = points * 2
        if doubled.denominator == 1 and 0 <= doubled.numerator <= PACK_HALF:
            return doubled.numerator  # card points, as nearly every record gives them
        from fractions import Fraction  # (only for points that are not card points)

        text = self.f.points_written or str(float(points))
        usable = True
        if not 0 <= points <= Fraction(PACK_HALF, 2):
            self.add(Code.POINTS_OUT_OF_RANGE, Msg("{text} points: a camp's card points lie"
                                                   " between 0 and {points}, the value of the"
                                                   " whole pack (docs/rules.md §1)",
                                                   text=text, points=points_text(PACK_HALF)),
                                               "result.taker_points")
            usable = False
        doubled = points * 2
        if doubled.denominator != 1:
            below = Fraction(int(doubled // 1), 2)
            self.add(Code.POINTS_NOT_HALF, Msg("{text} points: every card is worth a whole number"
                                               " of half points, so a camp's points are whole or"
                                               " end in .5 (docs/rules.md §1): expected {points}"
                                               " or {points2}",
                                               text=text, points=points_text(int(below * 2)),
                                               points2=points_text(int(below * 2) + 1)),
                                           "result.taker_points")
            usable = False
        return int(doubled) if usable else None

    def bouts(self) -> int | None:
        bouts = self.f.bouts
        if bouts is None:
            return None
        if not 0 <= bouts <= 3:
            self.add(Code.BOUTS_OUT_OF_RANGE, Msg("{bouts} bouts: there are three bouts, the"
                                                  " Petit, the 21 and the Excuse (docs/rules.md"
                                                  " §1): expected 0 to 3", bouts=bouts),
                     "result.bouts")
            return None
        return bouts

    def contracts(self) -> tuple[Contract, ...]:
        return (self.f.contract,) if self.f.contract is not None else tuple(Contract)

    def camp_sizes(self) -> tuple[int, ...]:
        f = self.f
        if f.players != 5:
            return (1,)
        if f.partner_known:
            return (2,) if f.partner is not None else (1,)
        return (1, 2)

    def reachable(self, won: Iterable[Won]) -> Mapping[int, frozenset[int]]:
        return _reachable_any(self.f.players, self.contracts(), counting_rules(self.f.rules),
                              self.camp_sizes(), tuple(won))

    def setting(self) -> str:
        """``a Garde at 4 players``: where the bound holds."""
        f = self.f
        if f.contract is None:
            return Msg("a deal at {players} players", players=f.players)
        return Msg("a {contract} at {players} players", contract=f.contract.french,
                   players=f.players)

    def card_facts(self, half: int | None, bouts: int | None) -> None:
        f = self.f
        if f.chelem is not None:
            self.chelem(f.chelem, half, bouts)
        elif half is not None:
            self.points_for_bouts(half, bouts)
        pab = f.petit_au_bout
        if pab is not None:
            if f.chelem is pab.other:
                self.add(Code.PETIT_AU_BOUT_AGAINST_CHELEM, Msg("the petit au bout goes to the"
                                                                " {camp}, but the {camp2} won"
                                                                " every trick: the last trick (or"
                                                                " the one before it, when the"
                                                                " Excuse is led last in a chelem)"
                                                                " is the chelem camp's"
                                                                " (docs/rules.md §8)",
                                                                camp=_camp(pab),
                                                                camp2=_camp(f.chelem)),
                         "result.petit_au_bout")
            elif bouts == (0 if pab is Camp.TAKER else 3):
                gives = (Msg("it no bout") if pab is Camp.TAKER
                         else Msg("the taker's camp all 3 bouts"))
                self.add(Code.PETIT_AU_BOUT_WITHOUT_PETIT, Msg("the petit au bout goes to the"
                                                               " {camp}, which then ends with the"
                                                               " Petit in its tricks, but the"
                                                               " result gives {gives}"
                                                               " (docs/rules.md §8)",
                                                               camp=_camp(pab), gives=gives),
                         "result.petit_au_bout")

    def chelem(self, camp: Camp, half: int | None, bouts: int | None) -> None:
        won = Won.EVERY if camp is Camp.TAKER else Won.NONE
        found = self.reachable([won])
        code = (Code.CHELEM_ATTACK_IMPOSSIBLE if camp is Camp.TAKER
                else Code.CHELEM_DEFENCE_IMPOSSIBLE)
        if bouts is not None and bouts not in found:
            self.add(code, Msg("a chelem by the {camp} in {setting} leaves {whom} {counts}: not"
                               " {given}", camp=_camp(camp), setting=self.setting(),
                               whom=_whom(camp), counts=_describe(found, camp),
                               given=_bouts_text(bouts)),
                     "result.bouts")
            return
        if half is None:
            return
        allowed = found[bouts] if bouts is not None else set().union(*found.values())
        if half not in allowed:
            given = Msg("{points}{with_bouts}", points=points_text(half),
                        with_bouts=_with_bouts(bouts))
            self.add(code, Msg("a chelem by the {camp} in {setting} leaves {whom} {counts}: not"
                               " {given}", camp=_camp(camp), setting=self.setting(),
                               whom=_whom(camp), counts=_describe(found, camp), given=given),
                     "result.taker_points")

    def points_for_bouts(self, half: int, bouts: int | None) -> None:
        found = self.reachable(Won)
        allowed = found.get(bouts, set()) if bouts is not None else set().union(
            *found.values())
        if half in allowed:
            return
        with_bouts = _with_bouts(bouts)
        lo, hi = min(allowed), max(allowed)
        given = (Msg("{points} point{with_bouts} in {setting}", points=points_text(half),
                     with_bouts=with_bouts, setting=self.setting()) if half == 2 else
                 Msg("{points} points{with_bouts} in {setting}", points=points_text(half),
                     with_bouts=with_bouts, setting=self.setting()))
        if half < lo:
            self.add(Code.POINTS_BELOW_BOUTS, Msg("{given}: the taker's camp has at least"
                                                  " {points} (its bouts count 4.5 points each,"
                                                  " and every other card it counts, in its tricks"
                                                  " or the chien or écart that goes to it, at"
                                                  " least half a point; docs/rules.md §1, §4, §9)",
                                                  given=given, points=points_text(lo)),
                     "result.taker_points")
        elif half > hi:
            left = (Msg("") if bouts is None or bouts == 3
                    else Msg(" the other {bouts} and", bouts=_bouts_text(3 - bouts)))
            self.add(Code.POINTS_ABOVE_BOUTS, Msg("{given}: the defence holds{left} the cards of"
                                                  " its own tricks (or the chien), so the taker's"
                                                  " camp has at most {points} (docs/rules.md §1,"
                                                  " §4, §9)",
                                                  given=given, left=left, points=points_text(hi)),
                                              "result.taker_points")
        else:
            below = max(h for h in allowed if h < half)
            above = min(h for h in allowed if h > half)
            self.add(Code.POINTS_UNREACHABLE, Msg("{given}: no deal counts so; the nearest counts"
                                                  " are {points} and {points2}{why_gap}"
                                                  " (docs/rules.md §7, §9)",
                                                  given=given, points=points_text(below),
                                                  points2=points_text(above),
                                                  why_gap=_why_gap(self.f, half)),
                     "result.taker_points")

    # --- declarations -----------------------------------------------------------------

    def declarations(self) -> None:
        f = self.f
        shown = 0
        limit = poignee_trumps()
        for index, _seat, count in f.poignees:
            shown += count
            if shown > limit and shown - count <= limit:
                each = comma_list([Msg("{seat} {score}", seat=f.seat_ids[s], score=c)
                                    for _, s, c in f.poignees])
                self.add(Code.POIGNEES_TOO_MANY_TRUMPS, Msg("the poignées shown ({each}) need"
                                                            " {sum} trumps, but there are {limit}"
                                                            " trumps and the Excuse, which stands"
                                                            " in for one (docs/rules.md §5)",
                                                            each=each,
                                                            sum=sum(c for _, _, c in f.poignees),
                                                            limit=limit - 1),
                                                        f"declarations[{index}]", _seat)
        atout = {s: i for i, s, kind in f.miseres if kind is MisereKind.ATOUT}
        if f.rules.misere:
            for index, seat, _count in f.poignees:
                if seat in atout:
                    self.add(Code.POIGNEE_WITH_MISERE, Msg("{seat} shows a poignée and declares a"
                                                           " misère d'atout (no trump, no"
                                                           " Excuse): both cannot be true"
                                                           " (docs/rules.md §5, §12)",
                                                           seat=f.seat_ids[seat]),
                             f"declarations[{max(index, atout[seat])}]", seat)

    def annulled(self) -> None:
        f = self.f
        facts = [name for name, value in ((Msg("points"), f.points), (Msg("bouts"), f.bouts),
                                          (Msg("a petit au bout"), f.petit_au_bout),
                                          (Msg("a chelem"), f.chelem)) if value is not None]
        if facts:
            self.add(Code.ANNULLED_WITH_FACTS, Msg("the result gives {facts} for an annulled deal"
                                                   " (by its auction, or as the result says): an"
                                                   " annulled deal is not played, so it has none"
                                                   " (docs/rules.md §2, §3)",
                                                   facts=and_list(facts)), "result")

    # --- scores -----------------------------------------------------------------------

    def scores(self, half: int | None, bouts: int | None) -> None:
        f = self.f
        recorded = f.scores
        if not recorded or all(s is None for s in recorded):
            return
        if None not in recorded:
            total = sum(s for s in recorded if s is not None)
            if total != 0:
                self.add(Code.SCORES_NOT_ZERO_SUM, Msg("the recorded scores sum to {total}:"
                                                       " expected 0",
                                                       total=format(total, '+d')), "result.scores")
        if f.annulled or f.taker is None:
            return
        misere = [0] * f.players
        if f.misere_seats:  # settled apart from the contract, whatever it is
            misere = list(score(DealFacts(players=f.players, taker=f.taker,
                                          contract=Contract.PRISE, taker_half=threshold(0),
                                          bouts=0, miseres=f.misere_seats)).misere_amounts)
        own = [None if s is None else s - m for s, m in zip(recorded, misere, strict=True)]
        x = self.shares(own)
        if x is not None and f.contract is not None:
            self.sign(x, half, bouts)

    def weights(self, partner: int | None) -> list[int]:
        """Each seat's share in units of what a defender pays, with ``partner``."""
        f = self.f
        taker_w, partner_w, defender_w = share_weights(f.players, partner is not None)
        out = [defender_w] * f.players
        if partner is not None and partner_w is not None:
            out[partner] = partner_w
        assert f.taker is not None
        out[f.taker] = taker_w
        return out

    def shares(self, own: Sequence[int | None]) -> int | None:
        """Check that the scores share the way the rules share a deal (docs/rules.md §10);
        return what each defender pays (X) when they do and it is known."""
        f = self.f
        taker = f.taker
        assert taker is not None
        known = {s: v for s, v in enumerate(own) if v is not None}
        if f.players == 5 and not f.partner_known:
            # Alone, or with any other seat as partner: the scores must fit one of them.
            fits = {x for partner in (None, *(s for s in range(5) if s != taker))
                    for x in [_fit(known, self.weights(partner))] if x is not None}
            if not fits:
                listed = comma_list([Msg("{seat} {score}", seat=f.seat_ids[s], score=f"{v:+d}")
                                     for s, v in known.items()])
                self.add(Code.SCORES_NOT_SHARED, Msg("the scores ({listed}) are not shared as a"
                                                     " deal is at 5 players: each defender pays"
                                                     " the same, the taker gets 4 times that"
                                                     " alone, or 2 times with a partner who gets"
                                                     " as much (docs/rules.md §10)",
                                                     listed=listed), "result.scores")
            return next(iter(fits)) if len(fits) == 1 else None
        partner = f.partner if f.players == 5 else None
        weights = self.weights(partner)
        defenders = [s for s in known if weights[s] < 0]
        if len({known[s] for s in defenders}) > 1:
            listed = comma_list([Msg("{seat} {score}", seat=f.seat_ids[s], score=f"{known[s]:+d}")
                                 for s in defenders])
            self.add(Code.SCORES_NOT_SHARED, Msg("the defenders are recorded with different"
                                                 " scores ({listed}): every defender pays or"
                                                 " receives the same (docs/rules.md §10)",
                                                 listed=listed),
                                             f"result.scores.{f.seat_ids[defenders[-1]]}",
                     defenders[-1])
            return None
        x = -known[defenders[0]] if defenders else None
        alone = ""
        if f.players == 5 and f.recorded_partner is not None:
            alone = (Msg(" (the result names the taker as partner: he played alone)")
                     if f.recorded_partner == taker else
                     Msg(" (the result names {seat} as partner)",
                         seat=f.seat_ids[f.recorded_partner]))
        for seat in (taker, partner):
            if seat is None or seat not in known:
                continue
            role = Msg("the taker") if seat == taker else Msg("the partner")
            value, weight = known[seat], weights[seat]
            if x is None:
                if value % weight == 0:
                    x = value // weight
                    continue
                self.add(Code.SCORES_NOT_SHARED, Msg("{role} ({seat}) is recorded with {value},"
                                                     " which is not {weight} times what a"
                                                     " defender pays{alone} (docs/rules.md §10)",
                                                     role=role, seat=f.seat_ids[seat],
                                                     value=format(value, '+d'), weight=weight,
                                                     alone=alone),
                         f"result.scores.{f.seat_ids[seat]}", seat)
                return None
            if value != weight * x:
                self.add(Code.SCORES_NOT_SHARED, Msg("{role} ({seat}) is recorded with {value}"
                                                     " and each defender with {value2}: at"
                                                     " {players} players {role} gets {times} what"
                                                     " a defender pays, {weight}{alone}"
                                                     " (docs/rules.md §10)",
                                                     role=role, seat=f.seat_ids[seat],
                                                     value=format(value, '+d'),
                                                     value2=format(-x, '+d'), players=f.players,
                                                     times=_times(weight),
                                                     weight=format(weight * x, '+d'), alone=alone),
                         f"result.scores.{f.seat_ids[seat]}", seat)
                return None
        return x

    def sign(self, x: int, half: int | None, bouts: int | None) -> None:
        """A made contract pays the taker, a lost one the defence, by at least the
        contract's least amount (:func:`score_bounds`)."""
        f = self.f
        contract = f.contract
        assert contract is not None
        assert f.taker is not None
        most_lost, least_made = score_bounds(contract, announced=f.chelem_announced)
        made: bool | None = None
        if half is not None and bouts is not None:
            made = kernel.margin(half, bouts) >= 0
        elif half is not None and kernel.margin(half, 0) >= 0:
            made = True  # enough with no bout
        elif half is not None and kernel.margin(half, 3) < 0:
            made = False  # too few even with three
        taker_id = f.seat_ids[f.taker]
        who = (Msg("each defender pays {x}", x=x) if x >= 0
               else Msg("each defender gets {x}", x=-x))
        path = f"result.scores.{taker_id}" if f.scores[f.taker] is not None else "result.scores"
        if made is True and x < least_made:
            need = threshold(bouts if bouts is not None else 0)
            self.add(Code.SCORE_AGAINST_RESULT, Msg("the taker ({taker_id}) made the {contract}"
                                                    " ({points} points{value}; {points2} needed),"
                                                    " so each defender pays at least"
                                                    " {least_made}, but the scores say {who}"
                                                    " (docs/rules.md §9, §10)",
                                                    taker_id=taker_id, contract=contract.french,
                                                    points=points_text(half or 0),
                                                    value=_with_bouts(bouts),
                                                    points2=points_text(need),
                                                    least_made=least_made, who=who), path, f.taker)
        elif made is False and x > most_lost:
            self.add(Code.SCORE_AGAINST_RESULT, Msg("the taker ({taker_id}) lost the {contract}"
                                                    " ({points} points{value}), so each defender"
                                                    " gets at least {value2}, but the scores say"
                                                    " {who} (docs/rules.md §9, §10)",
                                                    taker_id=taker_id, contract=contract.french,
                                                    points=points_text(half or 0),
                                                    value=_with_bouts(bouts),
                                                    value2=-most_lost, who=who), path, f.taker)
        elif made is None and most_lost < x < least_made:
            self.add(Code.SCORE_AGAINST_RESULT, Msg("the scores say {who} in a {contract}: a made"
                                                    " contract pays each defender's share at"
                                                    " least {least_made}, a lost one at least"
                                                    " {value} the other way (docs/rules.md §10)",
                                                    who=who, contract=contract.french,
                                                    least_made=least_made, value=-most_lost),
                                                path, f.taker)


@lru_cache(maxsize=256)
def _reachable_any(players: int, contracts: tuple[Contract, ...], rules: Ruleset,
                   sizes: tuple[int, ...], wons: tuple[Won, ...]
                   ) -> Mapping[int, frozenset[int]]:
    """Bouts -> the points any of these contracts, camp sizes and outcomes allow."""
    out: dict[int, set[int]] = {}
    for contract in contracts:
        for size in sizes:
            for w in wons:
                for b, half in reachable_points(players, contract, rules, w,
                                                attackers=size).items():
                    out.setdefault(b, set()).update(half)
    return {b: frozenset(half) for b, half in sorted(out.items())}


def _fit(known: Mapping[int, int], weights: Sequence[int]) -> int | None:
    """The X with ``known[s] == weights[s] * X`` for every seat, or None."""
    xs = {v // weights[s] if v % weights[s] == 0 else None for s, v in known.items()}
    if len(xs) != 1 or None in xs:
        return None
    return next(iter(xs))


def _why_gap(f: Facts, half: int) -> str:
    if f.players == 4 and half % 2:
        if f.rules.excuse_last_trick is ExcuseLastTrick.CHANGES_CAMP:
            return Msg(": at 4 players a half point arises only when the Excuse changes camp"
                       " on the last trick")
        return Msg(": at 4 players under excuse_last_trick=to_trick_winner every count is a"
                   " whole number of points")
    return Msg(": the cards a camp counts come by whole tricks")


def _whom(camp: Camp) -> str:
    return pmsg("to camp", "it") if camp is Camp.TAKER else pmsg("to camp", "the taker's camp")


def _camp(camp: Camp | None) -> str:
    return pmsg("camp", "taker's camp") if camp is Camp.TAKER else pmsg("camp", "defence")


def _bouts_text(bouts: int) -> str:
    return nmsg("{n} bout", "{n} bouts", bouts, n=bouts)


def _with_bouts(bouts: int | None) -> str:
    return Msg("") if bouts is None else Msg(" with {bouts}", bouts=_bouts_text(bouts))


def _times(weight: int) -> str:
    return Msg("as much as") if weight == 1 else Msg("{n} times", n=weight)


def _and(items: Sequence[str]) -> str:
    return and_list(items)


def _describe(found: Mapping[int, Collection[int]], camp: Camp) -> str:
    """The taker's camp's possible counts by bouts, in words."""
    parts: list[tuple[str, int]] = []
    for bouts in sorted(found, reverse=True):
        values = sorted(found[bouts])
        if len(values) <= 3:
            text = points_text(values[0])
            for v in values[1:]:
                text = Msg("{items} or {item}", items=text, item=points_text(v))
        else:
            text = Msg("between {low} and {high}", low=points_text(values[0]),
                       high=points_text(values[-1]))
        parts.append((text, bouts))
    words: list[str] = []
    for i, (text, bouts) in enumerate(parts):
        if i == 0:
            words.append(Msg("{values} points with {bouts}", values=text,
                             bouts=_bouts_text(bouts)))
        else:
            words.append(Msg("{values} with {n}", values=text, n=bouts))
    out = words[0]
    for word in words[1:-1]:
        out = Msg("{items}, {item}", items=out, item=word)
    if len(words) > 1:
        out = Msg("{items}, or {item}", items=out, item=words[-1])
    if camp is Camp.TAKER and len(parts) == 2 and all(len(v) == 1 for v in found.values()):
        out = Msg("{counts} (the defence kept the Excuse, which counts 4)", counts=out)
    return out
