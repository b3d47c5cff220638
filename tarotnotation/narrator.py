r"""What the rules make of a deal, written back into it as comments; the score in words.

:func:`annotate` returns a copy of a record with computed comments added: after each
trick, its winner and both camps' running points; at each card, bid, call, écart or
declaration where a rule is broken, the violation (when one slip explains many faults,
its cause alone, :mod:`tarotnotation.causes`); and at the result (or the last trick)
the score worked out the way a scorer writes it. Every computed comment starts with
:data:`PREFIX`, so annotating again first removes them and gives the same record: the
function is idempotent, and comments written by people are kept, in place.

:func:`running_points` and :func:`score_lines` are the pieces, also used by
``tarot replay``.

>>> from tarotnotation import notation
>>> rec = notation.load("examples/faulty/revoke.tarot")
>>> out = annotate(rec)
>>> print(*out.play[2].cards[1].comments)
tarot: error P105 must-follow-suit: Clubs led and the player holds Clubs: expected 2C, ...
>>> out.play[0].cards[-1].comments
('tarot: S wins (taker), 4 points; taker 4, defence 0',)
>>> print(*out.result.comments[0].split("; "), sep="\n")
tarot: Garde by S: 18 points with 1 bout, needs 51: lost by 33
contract (25 + 33) × 2 = -116
each defender +116
S -348, E +116, N +116, W +116
>>> annotate(out) == out
True
>>> strip(out) == rec
True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, TypeVar

from .cards import ALL_MASK, Card, card_points, mask_of, points_text
from .causes import explain
from .diagnostics import Diagnostic
from .i18n import Msg, comma_list, nmsg, pmsg, render
from .records import DealRecord
from .replay import Replay, Status, TrickCount, replay
from .rules import Camp, Contract, PoigneeSize, threshold
from .scoring import ChelemTerm, Score

__all__ = [
    "PREFIX",
    "annotate",
    "is_computed",
    "place_of",
    "running_points",
    "score_lines",
    "scored_lines",
    "speakers",
    "strip",
    "trick_note",
    "unplayed_points",
]

PREFIX: Final = "tarot: "
"""The start of every computed comment. Comments that start with it are replaced when a
record is annotated again; do not start your own comments with it."""

_EXCUSE_HALF: Final = Card.EXCUSE.points
_LOW_CARD_HALF: Final = 1
_PATH: Final = re.compile(r"^(?P<section>[a-z_]+)(?:\[(?P<i>\d+)\])?"
                          r"(?:\.cards\[(?P<c>\d+)\])?")


def is_computed(comment: str) -> bool:
    """True for a comment written by :func:`annotate`."""
    return comment.startswith(PREFIX)


def running_points(rep: Replay) -> list[TrickCount]:
    """Each complete trick's winner and the camps' running points, as the replay counted
    them (:attr:`Replay.counts`).

    Points are those won in tricks, with the Excuse exchange (the Excuse stays with its
    owner's camp, which gives a half-point card in exchange) and the ruleset's Excuse on
    the last trick; the chien or écart is counted only in the final score. Empty when
    the camps are unknown (no taker, or the partner unknown at five players).
    """
    return list(rep.counts)


def trick_note(tc: TrickCount, lang: str = "en") -> str:
    """A trick's computed comment: winner, points, and both camps' running points (in
    ``lang``: the words only, the prefix and the numbers are the same)."""
    excuse = (Msg("") if tc.excuse is None else
              Msg(", the Excuse to the {camp}", camp=_CAMP_WORDS[tc.excuse]))
    note = Msg("{winner} wins ({camp}), {points} points{excuse}; taker {taker},"
               " defence {defence}", winner=tc.winner, camp=_CAMP_WORDS[tc.camp],
               points=points_text(tc.points), excuse=excuse,
               taker=points_text(tc.taker_half), defence=points_text(tc.defence_half))
    return PREFIX + render(note, lang)


def unplayed_points(rep: Replay, counts: list[TrickCount] | None = None
                    ) -> tuple[int, Camp] | None:
    """The half-points of the cards never played (the chien or the écart) and the camp
    they count for, once every trick is played; None before that."""
    if counts is None:
        counts = running_points(rep)
    if not counts or len(counts) != rep.record.table.tricks or rep.contract is None:
        return None
    played = mask_of(c for tr in rep.tricks for c in tr.cards)
    camp = Camp.DEFENCE if rep.contract is Contract.GARDE_CONTRE else Camp.TAKER
    return card_points(ALL_MASK & ~played), camp


def score_lines(rep: Replay) -> list[str]:
    """The score worked out the way a scorer writes it, one step a line.

    Points and bouts, the threshold, made or lost by how much, ``(25 + d) × m``, each
    bonus, what each defender pays, and each player's score. One line saying why when
    the deal is not scored.
    """
    if rep.status is Status.ANNULLED:
        return [Msg("annulled: no score")]
    sc = rep.score
    if rep.status is not Status.SCORED or sc is None or rep.scores is None:
        lines: list[str] = []
        known = rep.outcome
        if known is not None and rep.contract is not None and rep.taker is not None:
            # The taker's camp's count without the seats' scores (a 5-player TarotClub log
            # with its score block: no called card, so no partner).
            made, margin = known
            assert rep.taker_half is not None
            assert rep.bouts is not None
            facts: dict[str, object] = {
                "who": Msg("{contract} by {taker}, partner unknown",
                           contract=rep.contract.french, taker=rep.taker),
                "points": points_text(rep.taker_half), "bouts": rep.bouts,
                "needs": points_text(threshold(rep.bouts)), "margin": margin}
            lines.append(
                nmsg("{who}: {points} points with {bouts} bout, needs {needs}: made by {margin}",
                     "{who}: {points} points with {bouts} bouts, needs {needs}: made by"
                     " {margin}", rep.bouts, **facts) if made else
                nmsg("{who}: {points} points with {bouts} bout, needs {needs}: lost by {margin}",
                     "{who}: {points} points with {bouts} bouts, needs {needs}: lost by"
                     " {margin}", rep.bouts, **facts))
        if rep.taker is not None and rep.record.unrecorded("call"):
            return [*lines, Msg("not scored: each player's score needs the partner, and the"
                                " record's format cannot hold the called card")]
        return [*lines, Msg("not scored ({status})", status=_STATUS_WORDS[rep.status])]
    assert rep.contract is not None
    assert rep.taker_half is not None
    assert rep.bouts is not None
    assert rep.taker is not None
    return scored_lines(sc, rep.scores, rep.contract, rep.taker, rep.taker_half, rep.bouts,
                        partner=rep.partner, players=rep.record.players, called=rep.called,
                        poignees=[size for _, size in rep.poignees],
                        seat_ids=rep.record.seat_ids)


def scored_lines(sc: Score, scores: Mapping[str, int], contract: Contract, taker: str,
                 taker_half: int, bouts: int, *, partner: str | None, players: int,
                 called: Card | None, poignees: Sequence[PoigneeSize],
                 seat_ids: Sequence[str]) -> list[str]:
    """:func:`score_lines` of a scored deal, from its facts: the score worked out
    (:func:`tarotnotation.scoring.score`), each seat's, the contract, the taker (and
    partner, and the card called at five players), the points and bouts, the poignées'
    sizes in the record's order."""
    french = contract.french
    if partner is not None and partner != taker:
        who = Msg("{contract} by {taker} with {partner}", contract=french, taker=taker,
                  partner=partner)
    elif players == 5 and called is not None:
        who = Msg("{contract} by {taker} alone", contract=french, taker=taker)
    else:
        who = Msg("{contract} by {taker}", contract=french, taker=taker)
    facts: dict[str, object] = {"who": who, "points": points_text(taker_half),
                                "bouts": bouts, "needs": points_text(sc.threshold_half),
                                "margin": abs(sc.margin_points)}
    first = (nmsg("{who}: {points} points with {bouts} bout, needs {needs}: made by {margin}",
                  "{who}: {points} points with {bouts} bouts, needs {needs}: made by {margin}",
                  bouts, **facts) if sc.made else
             nmsg("{who}: {points} points with {bouts} bout, needs {needs}: lost by {margin}",
                  "{who}: {points} points with {bouts} bouts, needs {needs}: lost by {margin}",
                  bouts, **facts))
    lines: list[str] = [first]
    lines.append(Msg("contract (25 + {margin}) × {multiplier} = {amount}",
                     margin=abs(sc.margin_points),
                     multiplier=sc.multiplier, amount=f"{sc.contract_amount:+d}"))
    if sc.petit_au_bout_amount:
        pab = f"{sc.petit_au_bout_amount:+d}"
        lines.append(Msg("petit au bout (taker) 10 × {multiplier} = {amount}",
                         multiplier=sc.multiplier, amount=pab)
                     if sc.petit_au_bout_amount > 0 else
                     Msg("petit au bout (defence) 10 × {multiplier} = {amount}",
                         multiplier=sc.multiplier, amount=pab))
    if sc.poignee_amount:
        sizes = " + ".join(f"{size.value} {size.bonus}" for size in poignees)
        lines.append(Msg("poignée {sizes} = {amount}", sizes=sizes,
                         amount=f"{sc.poignee_amount:+d}"))
    for term, amount in sc.chelem_terms:
        lines.append(Msg("chelem {term} = {amount}", term=_CHELEM_WORDS[term],
                         amount=f"{amount:+d}"))
    if any(sc.misere_amounts):
        ids = seat_ids
        lines.append(Msg("misère {amounts}", amounts=comma_list([
            Msg("{seat} {score}", seat=ids[i], score=f"{v:+d}")
            for i, v in enumerate(sc.misere_amounts) if v])))
    lines.append(Msg("each defender {amount}", amount=f"{-sc.x:+d}"))
    lines.append(comma_list([Msg("{seat} {score}", seat=seat, score=f"{value:+d}")
                             for seat, value in scores.items()]))
    return lines


#: The camps, severities, a replay's status and a chelem's terms, in words to translate.
_CAMP_WORDS: Final = {Camp.TAKER: pmsg("camp", "taker"), Camp.DEFENCE: pmsg("camp", "defence")}
_SEVERITY_WORDS: Final = {"error": Msg("error"), "warning": Msg("warning")}
_STATUS_WORDS: Final = {Status.SCORED: Msg("scored"), Status.ANNULLED: Msg("annulled"),
                        Status.INCOMPLETE: Msg("incomplete"), Status.UNSCORED: Msg("unscored")}
_CHELEM_WORDS: Final = {ChelemTerm.ANNOUNCED_MADE: Msg("announced and made"),
                        ChelemTerm.MADE: Msg("made unannounced"),
                        ChelemTerm.ANNOUNCED_FAILED: Msg("announced, not made"),
                        ChelemTerm.DEFENCE: Msg("by the defence")}


_A = TypeVar("_A")


def _cleaned(item: _A) -> _A:
    comments: tuple[str, ...] = getattr(item, "comments", ())
    if not any(map(is_computed, comments)):
        return item
    kept = tuple(c for c in comments if not is_computed(c))
    return item.model_copy(update={"comments": kept})  # type: ignore[attr-defined, no-any-return]


def _with(item: _A, notes: list[str]) -> _A:
    if not notes:
        return item
    comments: tuple[str, ...] = item.comments  # type: ignore[attr-defined]
    return item.model_copy(  # type: ignore[attr-defined, no-any-return]
        update={"comments": comments + tuple(notes)})


def _map(items: tuple[_A, ...], fn: Callable[[int, _A], _A]) -> tuple[_A, ...]:
    return tuple(fn(i, item) for i, item in enumerate(items))


def strip(record: DealRecord) -> DealRecord:
    """The record without its computed comments (those starting with :data:`PREFIX`)."""
    update: dict[str, Any] = {
        "comments": tuple(c for c in record.comments if not is_computed(c)),
        "auction": _map(record.auction, lambda _, b: _cleaned(b)),
        "declarations": _map(record.declarations, lambda _, d: _cleaned(d)),
        "play": _map(record.play, lambda _, t: _cleaned(t).model_copy(
            update={"cards": _map(t.cards, lambda _, c: _cleaned(c))})),
    }
    if record.call is not None:
        update["call"] = _cleaned(record.call)
    if record.ecart is not None:
        update["ecart"] = _cleaned(record.ecart)
    if record.result is not None:
        update["result"] = _cleaned(record.result)
    out = record.model_copy(update=update)
    return record if out == record else out


def place_of(d: Diagnostic) -> tuple[str, int | None, int | None]:
    """Where in a record a diagnostic applies, from its record path: the section
    (``play``, ``auction``, ``declarations``, ``call``, ``ecart``, ``result``, ``hands``…
    or ``""``), the index in it, and for a card the index in its trick.

    >>> from tarotnotation.diagnostics import Code
    >>> place_of(Diagnostic.make(Code.MUST_FOLLOW_SUIT, "x", path="play[2].cards[1]"))
    ('play', 2, 1)
    >>> place_of(Diagnostic.make(Code.SCORE_MISMATCH, "x", path="result.scores.E"))
    ('result', None, None)
    """
    m = _PATH.match(d.location.path or "")
    if m is None:
        return "", None, None
    i, c = m["i"], m["c"]
    return m["section"], None if i is None else int(i), None if c is None else int(c)


def speakers(record: DealRecord) -> list[str]:
    """The seat of each bid of the auction: as written, or in the order of speech from
    the dealer's right.

    >>> speakers(DealRecord(players=4, dealer="E", auction=[{"contract": "pass"},
    ...                                                      {"contract": "garde"}]))
    ['N', 'W']
    """
    ids = record.seat_ids
    first = ids.index(record.first_seat)
    return [bid.seat or ids[(first + i) % len(ids)] for i, bid in enumerate(record.auction)]


def _note(d: Diagnostic, lang: str = "en") -> str:
    severity = render(_SEVERITY_WORDS[d.severity.value], lang)
    return f"{PREFIX}{severity} {d.code.value} {d.code.slug}: {render(d.message, lang)}"


def annotate(record: DealRecord, *, rep: Replay | None = None, lang: str = "en"
             ) -> DealRecord:
    """A copy of ``record`` with computed comments: trick winners and running points,
    violations where they happen, and the score. Existing computed comments are replaced
    (annotating twice gives the same record); other comments are kept. ``lang`` is the
    language of the comments' words (the notation itself never changes).

    ``rep`` is the replay of the record when the caller already has it (its record must
    be the stripped one, ``strip(record)``).
    """
    base = strip(record)
    if rep is None or rep.record != base:
        rep = explain(replay(base))
    deal: list[str] = []
    bids: dict[int, list[str]] = {}
    decls: dict[int, list[str]] = {}
    tricks: dict[int, list[str]] = {}
    cards: dict[tuple[int, int], list[str]] = {}
    call: list[str] = []
    ecart: list[str] = []
    result: list[str] = []
    for d in rep.diagnostics:
        if not d.counts:
            continue  # follows from a cause, written where the cause is
        section, i, c = place_of(d)
        if i is None and section == "auction" and base.auction:
            i = len(base.auction) - 1  # about the whole auction: after its last bid
        if section == "play" and i is not None and i < len(base.play):
            if c is not None and c < len(base.play[i].cards):
                cards.setdefault((i, c), []).append(_note(d, lang))
            else:
                tricks.setdefault(i, []).append(_note(d, lang))
        elif section == "auction" and i is not None and i < len(base.auction):
            bids.setdefault(i, []).append(_note(d, lang))
        elif section == "declarations" and i is not None and i < len(base.declarations):
            decls.setdefault(i, []).append(_note(d, lang))
        elif section == "call" and base.call is not None:
            call.append(_note(d, lang))
        elif section == "ecart" and base.ecart is not None:
            ecart.append(_note(d, lang))
        elif section == "result" and base.result is not None:
            result.append(_note(d, lang))
        else:
            deal.append(_note(d, lang))
    counts = running_points(rep)
    # What happens at the end of a trick is written after its last card.
    for k, tc in enumerate(counts):
        cards.setdefault((k, len(base.play[k].cards) - 1), []).append(trick_note(tc, lang))
    chien = unplayed_points(rep, counts)
    if chien is not None and chien[0]:
        note = (Msg("the chien, {points} points, to the {camp}", points=points_text(chien[0]),
                    camp=_CAMP_WORDS[chien[1]])
                if rep.contract in (Contract.GARDE_SANS, Contract.GARDE_CONTRE) else
                Msg("the écart, {points} points, to the {camp}", points=points_text(chien[0]),
                    camp=_CAMP_WORDS[chien[1]]))
        last = len(base.play) - 1
        cards.setdefault((last, len(base.play[last].cards) - 1), []).append(
            PREFIX + render(note, lang))
    score = PREFIX + render(Msg("; "), lang).join(render(line, lang)
                                                   for line in score_lines(rep))
    if base.result is not None:
        result.append(score)
    elif base.play:
        last = len(base.play) - 1
        cards.setdefault((last, len(base.play[last].cards) - 1), []).append(score)
    else:
        deal.append(score)
    update: dict[str, Any] = {
        "comments": base.comments + tuple(deal),
        "auction": _map(base.auction, lambda i, b: _with(b, bids.get(i, []))),
        "declarations": _map(base.declarations, lambda i, d: _with(d, decls.get(i, []))),
        "play": _map(base.play, lambda i, t: _with(t, tricks.get(i, [])).model_copy(
            update={"cards": _map(t.cards, lambda c, p: _with(p, cards.get((i, c), [])))})),
    }
    if base.call is not None:
        update["call"] = _with(base.call, call)
    if base.ecart is not None:
        update["ecart"] = _with(base.ecart, ecart)
    if base.result is not None:
        update["result"] = _with(base.result, result)
    return base.model_copy(update=update)
