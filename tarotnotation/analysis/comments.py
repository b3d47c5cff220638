r"""The analysis written into a record as computed comments, and read back.

:func:`annotate_analysis` puts one comment on each card analysed, after the project's
convention for computed comments (they start with ``tarot: ``,
:data:`tarotnotation.narrator.PREFIX`)::

    {tarot: dd 0; made by 2 with best play}
    {tarot: dd -1.5, best T12; made by 1 with best play; ? added}
    {tarot: dd -3, best KS; lost by 1 with best play, was made by 2; ?? added}
    {tarot: dd -3..0; made with best play}

- ``dd`` and the card's **cost** to its camp in card points (``0`` for a best card, ``-3``,
  ``-1.5``; a range ``-3..0`` when a time limit left bounds);
- ``best`` and a best card in its place, when this one cost something;
- the **outcome** with best play by both camps after the card: ``made by D`` or ``lost by
  D`` (D as a scorer counts it: the half point goes to the camp that wins the deal),
  ``made`` or ``lost`` when only bounds are known, ``undecided``; ``was ...`` the outcome
  before the card, when the card changed it;
- ``? added`` or ``?? added`` when the analysis put that glyph on the card (``?`` a card
  that cost at least ``mistake``, ``??`` one that changed the outcome). A card that
  already carries a glyph keeps it and gets none.

The deal gets one comment, ``{tarot: dd from trick N; made by D with best play}``, the
value where the analysis starts. Analysing again first removes these comments and the
glyphs they say they added, so the result does not change (idempotent); people's comments
and glyphs are kept. :func:`parse_comment` reads any of these comments back (the HTML
viewer shows each card's cost from it).

>>> note = parse_comment("tarot: dd -1.5, best T12; made by 1 with best play; ? added")
>>> note.cost, note.best, note.made, note.by, note.glyph
((3, 3), (<Card.T12: 67>,), True, 1, '?')
>>> parse_comment("a comment of a person's") is None
True
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, cast

from ..cards import Card
from ..diagnostics import Code, Diagnostic
from ..i18n import Msg, pmsg
from ..narrator import PREFIX
from ..records import DealRecord, Glyph, PlayedCard, Trick
from ..replay import Replay
from .analyse import (
    DEFAULT_BUDGET,
    DEFAULT_PRECISION,
    DEFAULT_SPLIT,
    CardAnalysis,
    Executor,
    PlayAnalysis,
    analyse_play,
)
from .position import PositionError
from .search import DEFAULT_TABLE_MB

__all__ = ["DD", "AnalysisNote", "analyse_record", "annotate_analysis", "card_comment",
           "cost_phrase", "cost_text", "cost_words", "deal_comment", "note_text",
           "outcome_text", "outcome_words", "parse_comment", "strip_analysis"]

#: What every analysis comment starts with.
DD: Final = PREFIX + "dd "

_POINTS: Final = r"\d+(?:\.5)?"
#: A cost: ``0``, ``-3``, a range ``-3..0`` / ``-5..-3``, or ``≤ -3`` (at least 3 points:
#: ``<= -3`` is read too).
_COST: Final = rf"0|-{_POINTS}(?:\.\.-?{_POINTS})?|(?:≤|<=) ?-{_POINTS}"
_COMMENT: Final = re.compile(
    rf"^{re.escape(DD)}(?:(?P<cost>{_COST})"
    rf"(?:, best (?P<best>[0-9A-Z]+(?: [0-9A-Z]+)*))?"
    rf"|from trick (?P<trick>\d+))"
    rf"; (?P<out>(?:made|lost)(?: by \d+)?|undecided) with best play"
    rf"(?:, was (?P<was>(?:made|lost)(?: by \d+)?))?"
    rf"(?:; cards (?P<cards>[0-9A-Z]+ (?:{_COST})(?:, [0-9A-Z]+ (?:{_COST}))*))?"
    rf"(?:; (?P<glyph>\?\??) added)?$")
_CARD_COST: Final = re.compile(rf"([0-9A-Z]+) ({_COST})(?:, |$)")
#: Past this width (half-points) a cost's upper bound says little: ``≤ -3`` is written.
_OPEN: Final = 20


@dataclass(frozen=True, slots=True)
class AnalysisNote:
    """What an analysis comment says (:func:`parse_comment`)."""

    cost: tuple[int, int | None] | None
    """The card's cost to its camp in half-points, least and most (equal when exact;
    None when only the least is said, ``≤ -3``); None for the deal's comment."""
    best: tuple[Card, ...] = ()
    made: bool | None = None
    """The contract made with best play after the card (None: undecided)."""
    by: int | None = None
    """By how many points (the scorer's count), when exact."""
    was_made: bool | None = None
    """Before the card, when the card changed the outcome."""
    was_by: int | None = None
    glyph: str | None = None
    """The glyph the analysis added to the card."""
    from_trick: int | None = None
    """For the deal's comment: the trick where the analysis starts."""
    cards: tuple[tuple[Card, tuple[int, int | None]], ...] = ()
    """Every legal card and its cost, when the analysis valued them all (``--all-cards``),
    best first."""

    @property
    def changed(self) -> bool:
        """True when the card changed the outcome."""
        return self.was_made is not None and self.was_made != self.made

    @property
    def may_cost(self) -> bool:
        """True when the card may have cost its camp something (its cost is not 0)."""
        return self.cost is not None and self.cost[1] != 0


def _points(half: int) -> str:
    return str(half // 2) if half % 2 == 0 else f"{half // 2}.5"


def _half(text: str) -> int:
    whole, _, frac = text.partition(".")
    return int(whole) * 2 + (1 if frac == "5" else 0)


def outcome_text(bounds: tuple[int, int]) -> str:
    """The outcome with best play, from the value's bounds: ``made by 2``, ``lost by 1``,
    ``made``, ``lost`` or ``undecided``.

    >>> outcome_text((3, 3)), outcome_text((-1, -1)), outcome_text((0, 40)), outcome_text((-4, 2))
    ('made by 2', 'lost by 1', 'made', 'undecided')
    """
    lo, hi = bounds
    if lo == hi:
        return _outcome_words(lo >= 0, (abs(lo) + 1) // 2)
    if lo >= 0:
        return _outcome_words(True, None)
    if hi < 0:
        return _outcome_words(False, None)
    return _outcome_words(None, None)  # (a Msg: the English, to be read in any language)


def cost_words(bounds: tuple[int, int]) -> str:
    """A cost in half-points, least and most, as a comment writes it: ``0``, ``-1.5``,
    ``-3..0``, ``-5..-3``, or ``≤ -3`` when the most is far from the least.

    >>> cost_words((0, 0)), cost_words((3, 3)), cost_words((0, 6)), cost_words((6, 10))
    ('0', '-1.5', '-3..0', '-5..-3')
    >>> cost_words((6, 60))
    '≤ -3'
    """
    lo, hi = bounds
    if hi == 0:
        return "0"
    if lo == hi:
        return f"-{_points(lo)}"
    if lo > 0 and hi - lo > _OPEN:
        return f"≤ -{_points(lo)}"
    return f"-{_points(hi)}..{'-' + _points(lo) if lo else '0'}"


def card_comment(item: CardAnalysis, glyph: str | None = None) -> str:
    """The comment of one card's analysis (``glyph``: the glyph added to the card)."""
    lo, hi = item.cost_bounds
    text = f"{DD}{cost_words((lo, hi))}"
    if item.best is not None and hi > 0:
        text += f", best {item.best.code}"
    text += f"; {outcome_text(item.after)} with best play"
    if item.changed:
        text += f", was {outcome_text(item.before)}"
    if item.values:
        text += "; cards " + ", ".join(
            f"{Card(v.card).code} {cost_words(item.cost_of(v))}" for v in item.values)
    if glyph:
        text += f"; {glyph} added"
    return text


def deal_comment(analysis: PlayAnalysis) -> str:
    """The deal's comment: the value where the analysis starts."""
    return (f"{DD}from trick {analysis.from_trick}; {outcome_text(analysis.value)}"
            " with best play")


def _outcome(text: str | None) -> tuple[bool | None, int | None]:
    if text is None or text == "undecided":
        return None, None
    word, _, by = text.partition(" by ")
    return word == "made", int(by) if by else None


def parse_comment(comment: str) -> AnalysisNote | None:
    """What an analysis comment (see the module doc) says, or None for any other
    comment.

    >>> parse_comment("tarot: dd -3..0; made with best play").cost
    (0, 6)
    >>> parse_comment("tarot: dd from trick 1; lost by 4 with best play").from_trick
    1
    >>> n = parse_comment("tarot: dd -3, best KS; lost by 1 with best play, was made by 2;"
    ...                   " ?? added")
    >>> n.changed, n.was_by, n.glyph
    (True, 2, '??')
    """
    m = _COMMENT.match(comment)
    if m is None:
        return None
    made, by = _outcome(m["out"])
    was_made, was_by = _outcome(m["was"])
    if m["trick"] is not None:
        return AnalysisNote(None, (), made, by, from_trick=int(m["trick"]))
    best: tuple[Card, ...] = ()
    cards: list[tuple[Card, tuple[int, int | None]]] = []
    try:
        if m["best"]:
            best = tuple(Card.from_code(code) for code in m["best"].split())
        for code, cost in _CARD_COST.findall(m["cards"] or ""):
            cards.append((Card.from_code(code), _cost(cost)))
    except ValueError:
        return None
    return AnalysisNote(_cost(m["cost"]), best, made, by, was_made, was_by, m["glyph"],
                        cards=tuple(cards))


def _cost(raw: str) -> tuple[int, int | None]:
    """A cost as written (``0``, ``-3``, ``-3..0``, ``≤ -3``) in half-points."""
    if raw == "0":
        return (0, 0)
    if raw[0] in "≤<":
        least = _half(raw.lstrip("≤<= -"))
        return (least, None)
    if ".." in raw:
        a, b = raw.split("..")
        return (_half(b.lstrip("-")), _half(a.lstrip("-")))
    return (_half(raw[1:]), _half(raw[1:]))


def _strip_card(pc: PlayedCard) -> PlayedCard:
    notes = [parse_comment(c) for c in pc.comments]
    if not any(n is not None for n in notes):
        return pc
    glyph: str | None = pc.glyph
    for n in notes:
        if n is not None and n.glyph is not None and n.glyph == glyph:
            glyph = None
    kept = tuple(c for c, n in zip(pc.comments, notes, strict=True) if n is None)
    return pc.model_copy(update={"comments": kept, "glyph": glyph})


def strip_analysis(record: DealRecord) -> DealRecord:
    """The record without analysis comments, nor the glyphs they say they added."""
    play = tuple(t.model_copy(update={"cards": tuple(_strip_card(pc) for pc in t.cards)})
                 for t in record.play)
    comments = tuple(c for c in record.comments if parse_comment(c) is None)
    out = record.model_copy(update={"play": play, "comments": comments})
    return record if out == record else out


def annotate_analysis(record: DealRecord, analysis: PlayAnalysis, *, mistake: int = 1,
                      blunder: int | None = None) -> DealRecord:
    """``record`` with the analysis as computed comments (see the module doc). A card
    that cost at least ``mistake`` half-points gets ``?``, one that changed the outcome
    (or cost at least ``blunder``, when given) ``??``, where no glyph is written yet.
    Earlier analysis comments, and the glyphs they added, are replaced."""
    base = strip_analysis(record)
    notes: dict[tuple[int, int], CardAnalysis] = {(c.trick, c.index): c
                                                  for c in analysis.cards}
    tricks: list[Trick] = []
    for t, trick in enumerate(base.play):
        cards: list[PlayedCard] = []
        for i, pc in enumerate(trick.cards):
            item = notes.get((t + 1, i))
            if item is None:
                cards.append(pc)
                continue
            lo = item.cost_bounds[0]
            glyph: str | None = None
            if pc.glyph is None:
                if item.changed or (blunder is not None and lo >= blunder):
                    glyph = "??"
                elif lo >= mistake and lo > 0:
                    glyph = "?"
            update: dict[str, Any] = {"comments": (*pc.comments, card_comment(item, glyph))}
            if glyph is not None:
                update["glyph"] = cast(Glyph, glyph)
            cards.append(pc.model_copy(update=update))
        tricks.append(trick.model_copy(update={"cards": tuple(cards)}))
    return base.model_copy(update={"play": tuple(tricks),
                                   "comments": (*base.comments, deal_comment(analysis))})


def analyse_record(record: DealRecord, *, from_trick: int = 1,
                   budget: int | None = DEFAULT_BUDGET, time_limit: float | None = None,
                   precision: int = DEFAULT_PRECISION, all_cards: bool = False,
                   node_limit: int | None = None,
                   table_mb: float = DEFAULT_TABLE_MB, engine: str | None = None,
                   mistake: int = 1, blunder: int | None = None, rep: Replay | None = None,
                   progress: Callable[[int, int], None] | None = None,
                   split: int = DEFAULT_SPLIT, executor: Executor | None = None
                   ) -> tuple[DealRecord, PlayAnalysis | None, tuple[Diagnostic, ...]]:
    """Analyse a record's play and write the analysis into it (what ``tarot analyze``
    does to each deal): ``(record, analysis, diagnostics)``. A deal that cannot be
    analysed comes back unchanged (but for earlier analysis comments, which are kept)
    with the diagnostic that says why (Q110); a card that is not legal stops the analysis
    before it (Q111, the cards before it analysed). Should the solver fail on a deal (a
    bug), the deal comes back unchanged with a Q113 error that says so, so that one deal
    never stops an archive's analysis."""
    base = strip_analysis(record)
    try:
        analysis = analyse_play(base, from_trick=from_trick, budget=budget,
                                time_limit=time_limit, precision=precision,
                                all_cards=all_cards, node_limit=node_limit,
                                table_mb=table_mb, engine=engine, rep=rep, progress=progress,
                                split=split, executor=executor)
    except PositionError as err:
        return record, None, tuple(err.diagnostics)
    except (RuntimeError, ValueError, ArithmeticError, LookupError) as err:
        return record, None, (Diagnostic.make(
            Code.ANALYSIS_FAILED, Msg("the solver failed on this deal ({error}: {err}): the deal"
                                      " is kept without its analysis; please report it with the"
                                      " deal", error=type(err).__name__, err=err)),)
    out = annotate_analysis(base, analysis, mistake=mistake, blunder=blunder)
    return out, analysis, analysis.diagnostics


def cost_text(note: AnalysisNote) -> str:
    """A card's cost as shown beside it: ``-1.5``, ``-3..0`` (bounds), or ``0``.

    >>> cost_text(parse_comment("tarot: dd -1.5, best T12; made by 1 with best play"))
    '-1.5'
    """
    if note.cost is None:
        return ""
    lo, hi = note.cost
    if hi is None:
        return f"≤ -{_points(lo)}"
    return cost_words((lo, hi))


def note_text(note: AnalysisNote) -> str:
    """An analysis note in words, for a person: ``costs 1.5 points (best T12); made by 1
    with best play`` (a :class:`~tarotnotation.i18n.Msg`: the English, rendered in the
    run's language where a person reads it).

    >>> text = note_text(parse_comment("tarot: dd -3, best KS; lost by 1 with best play,"
    ...                                " was made by 2; ?? added"))
    >>> text
    'costs 3 points (best KS): lost by 1 with best play, was made by 2'
    >>> for part in text.render("fr").split(", "):
    ...     print(part)
    coûte 3 points (meilleure carte R♠) : chutée de 1 avec le meilleur jeu
    remplie de 2 dans la partie
    """
    if note.cost is None:
        return ""
    cost = cost_phrase(note.cost)
    best = (Msg(" (best {cards})", cards=" ".join(c.code for c in note.best)) if note.best
            else "")
    return Msg("{cost}{best}: {after} with best play{was}", cost=cost, best=best,
               after=_outcome_words(note.made, note.by), was=(
                   "" if note.was_made is None else
                   Msg(", was {outcome}", outcome=_outcome_words(note.was_made, note.was_by))))


def cost_phrase(cost: tuple[int, int | None]) -> str:
    """A cost in half-points, least and most (None: only the least known), in words for
    a person (a :class:`~tarotnotation.i18n.Msg`).

    >>> cost_phrase((0, 0)), cost_phrase((3, 3)), cost_phrase((2, 6)), cost_phrase((6, None))
    ('costs nothing', 'costs 1.5 points', 'costs 1 to 3 points', 'costs at least 3 points')
    >>> cost_phrase((2, 2))
    'costs 1 point'
    """
    lo, hi = cost
    return (Msg("costs nothing") if hi == 0 else
            Msg("costs 1 point") if lo == hi == 2 else
            Msg("costs at least {points} points", points=_points(lo)) if hi is None else
            Msg("costs {points} points", points=_points(lo)) if lo == hi else
            Msg("costs {low} to {high} points", low=_points(lo), high=_points(hi)))


def outcome_words(made: bool | None, by: int | None) -> str:
    """The outcome with best play in words (``made by 2``, ``lost``, ``undecided``; a
    :class:`~tarotnotation.i18n.Msg`)."""
    return _outcome_words(made, by)


def _outcome_words(made: bool | None, by: int | None) -> str:
    """Made, lost or undecided, by how much when known, in words to translate."""
    if made is None:
        return Msg("undecided")
    if by is None:
        return pmsg("outcome", "made") if made else pmsg("outcome", "lost")
    return (Msg("made by {margin}", margin=by) if made
            else Msg("lost by {margin}", margin=by))
