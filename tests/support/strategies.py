"""Hypothesis strategies for tarotnotation records, for property and round-trip tests.

The card parts are built from :func:`tarotnotation.simulate.random_deal` with a
hypothesis-drawn integer seed (so examples shrink towards seed 0 and replay exactly), and
everything around them is drawn by hypothesis. Generation is cheap (about a millisecond
per record) so the strategies fit a CI run on two cores.

Public strategies:

- :func:`rulesets`: presets with switches overridden (via ``Ruleset.from_spec``).
- :func:`legal_deals`: complete (or, with ``partial=True``, cut short) *legal* deals at
  3, 4 and 5 players under every contract; they replay without error.
- :func:`records`: arbitrary *valid* :class:`DealRecord` values (they validate; they need
  not be legal) exercising every section of the model, with glyphs and comments on every
  annotated element. ``outcome_only=True`` gives score-sheet records (a result, no cards).
- :func:`outcome_records`: shorthand for ``records(outcome_only=True)``.
- :func:`comments`, :func:`tag_names`, :func:`tag_values`, :func:`seat_names`: the text
  pieces, for tests of a reader or writer on their own.

The text the strategies put in records (what a notation writer must round-trip):

- **Comments** are non-empty, have no leading or trailing whitespace (``str.strip``),
  never contain ``{`` or ``}`` and are single-line: no control characters (no newline, no
  tab), no line or paragraph separators (U+2028, U+2029), no format, private-use,
  surrogate or unassigned code points. They may contain quotes, backslashes, brackets,
  ``;``, ``%``, glyph characters (``!?``), card-like words, runs of inner spaces,
  accented, non-Latin and astral-plane characters (emoji). Elements get 0 to 3 comments.
- **Tag names** match ``[A-Za-z0-9_]+`` with at least one letter or digit (odd ones
  included: a leading digit or ``_``, runs of ``_``, the same name twice); the model itself
  also accepts non-ASCII letters, which these strategies do not generate.
- **Tag values** are single-line text with the same exclusions as comments but *may*
  contain ``{`` and ``}`` and may be empty or have outer spaces.
- **Seat ids** match the model's ``[A-Za-z][A-Za-z0-9_]{0,15}``; **seat names** are
  non-empty, stripped, single-spaced runs of letters (accented ones included), digits,
  ``'``, ``-`` and ``.``.
"""

from __future__ import annotations

import random
from typing import Final, TypeVar

from hypothesis import strategies as st
from pydantic import BaseModel

from tarotnotation.cards import Card, CardSet
from tarotnotation.records import (
    GLYPHS,
    Bid,
    Call,
    ChelemAnnouncement,
    DealRecord,
    Declaration,
    Ecart,
    Misere,
    PlayedCard,
    Poignee,
    Points,
    Result,
    Seat,
    Trick,
)
from tarotnotation.replay import replay
from tarotnotation.rules import (
    Camp,
    Contract,
    MisereKind,
    PetitInChien,
    PoigneeSize,
    Ruleset,
    table,
)
from tarotnotation.simulate import random_deal

__all__ = [
    "PLAYER_COUNTS",
    "comments",
    "contracts",
    "glyphs",
    "legal_deals",
    "outcome_records",
    "player_counts",
    "records",
    "rulesets",
    "seat_ids",
    "seat_names",
    "seeds",
    "tag_names",
    "tag_values",
]

PLAYER_COUNTS: Final = (3, 4, 5)
_DEFAULT_IDS: Final = ("S", "E", "N", "W", "F")

# Characters the strategies never put in text: surrogates (not encodable), controls
# (newline, tab...), line/paragraph separators, format characters (BOM, zero-width
# joiners), private use and unassigned code points.
_EXCLUDED_CATEGORIES: Final = ("Cs", "Cc", "Zl", "Zp", "Cf", "Co", "Cn")

_TRICKY_COMMENTS: Final = (
    'he said "garde" and meant it',
    "back\\slash \\ and \\\\ double",
    "a; b; c",
    "[Event \"not a tag\"]",
    "1. KH 2H T21 EX",
    "!! ?? !? ?!",
    "% not a line comment",
    "(parenthèse) <angle> «guillemets»",
    "déjà vu, naïve, Œdipe, ça",
    "日本語のコメント",
    "🃏 joker 🂡",
    "trailing dot.",
    "two  inner   spaces",
    "*",
    "1-0",
    "pass",
    "EX",
    "0",
    "'single' quotes",
    "#hash $dollar &amp;",
)

_TRICKY_TAG_VALUES: Final = (
    "",
    " padded ",
    'quote " inside',
    "back\\slash",
    "{braces} in a value",
    "Tournoi de Pâques — Lyon",
    "2024.03.31",
    "?",
    "東京",
    "🃏",
)

_TAG_NAMES: Final = (
    "Event",
    "Site",
    "Date",
    "Round",
    "Table",
    "Annotator",
    "x",
    "_private",
    "9lives",
    "a__b",
    "Z_",
    "UPPER_CASE_TAG",
    "tag123",
)

_NAME_LETTERS: Final = (
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    "éèêëàâäîïôöùûüçÉÈÊÀÂÎÔÛÇœŒßñÑøØåÅ0123456789'-."
)

_TRICKY_NAMES: Final = (
    "Jean-Pierre",
    "Hélène Dupont",
    "Zoë",
    "Anne-Sophie de la Tour",
    "O'Brien",
    "J. R. Ewing",
    "François",
    "Ærø",
)

_SEAT_ID_ALPHABET: Final = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"


# --- building blocks ---------------------------------------------------------------------


def seeds() -> st.SearchStrategy[int]:
    """Seeds for :class:`random.Random` (shrink towards 0)."""
    return st.integers(min_value=0, max_value=2**32 - 1)


def player_counts() -> st.SearchStrategy[int]:
    """3, 4 or 5."""
    return st.sampled_from(PLAYER_COUNTS)


def contracts() -> st.SearchStrategy[Contract]:
    """Any of the four contracts."""
    return st.sampled_from(list(Contract))


def glyphs() -> st.SearchStrategy[str | None]:
    """No glyph (most often) or one of ``! ? !! ?? !? ?!``."""
    return st.one_of(st.none(), st.sampled_from(GLYPHS))


def _clean_text(
    *, min_size: int, max_size: int, extra_excluded: str = ""
) -> st.SearchStrategy[str]:
    return st.text(
        alphabet=st.characters(
            exclude_categories=_EXCLUDED_CATEGORIES, exclude_characters=extra_excluded
        ),
        min_size=min_size,
        max_size=max_size,
    )


def comments() -> st.SearchStrategy[str]:
    """One comment: non-empty, stripped, single-line, no ``{`` or ``}`` (see module doc)."""
    drawn = (
        _clean_text(min_size=1, max_size=24, extra_excluded="{}")
        .map(str.strip)
        .filter(bool)
    )
    return st.one_of(st.sampled_from(_TRICKY_COMMENTS), drawn)


def _comment_lists() -> st.SearchStrategy[tuple[str, ...]]:
    return st.lists(comments(), max_size=3).map(tuple)


def tag_names() -> st.SearchStrategy[str]:
    """A tag name: ``[A-Za-z0-9_]+`` with at least one letter or digit."""
    drawn = st.from_regex(r"\A[A-Za-z0-9_]{0,6}[A-Za-z0-9][A-Za-z0-9_]{0,6}\Z")
    return st.one_of(st.sampled_from(_TAG_NAMES), drawn)


def tag_values() -> st.SearchStrategy[str]:
    """A tag value: single-line text, possibly empty, padded, or holding braces."""
    return st.one_of(
        st.sampled_from(_TRICKY_TAG_VALUES), _clean_text(min_size=0, max_size=20)
    )


def seat_ids() -> st.SearchStrategy[str]:
    """A seat id as the model accepts it: a letter, then up to 15 letters, digits or ``_``."""
    return st.builds(
        lambda first, rest: first + rest,
        st.sampled_from(_SEAT_ID_ALPHABET[:52]),
        st.text(alphabet=_SEAT_ID_ALPHABET, max_size=5),
    )


def seat_names() -> st.SearchStrategy[str]:
    """A player's name: words of letters (accents too), digits, ``'-.`` joined by one space."""
    word = st.text(alphabet=_NAME_LETTERS, min_size=1, max_size=8)
    drawn = st.lists(word, min_size=1, max_size=3).map(" ".join)
    return st.one_of(st.sampled_from(_TRICKY_NAMES), drawn)


@st.composite
def rulesets(draw: st.DrawFn) -> Ruleset:
    """A preset, sometimes with switches overridden, parsed back from its written spec."""
    preset = draw(st.sampled_from(("fft", "pagat")))
    names = draw(st.lists(st.sampled_from(Ruleset.switch_names()), unique=True, max_size=3))
    # A spec may start with a switch (the preset is then fft).
    words = [] if preset == "fft" and names and draw(st.booleans()) else [preset]
    for name in names:
        words.append(f"{name}={draw(st.sampled_from(Ruleset.switch_values(name)))}")
    return Ruleset.from_spec(" ".join(words))


# --- legal deals -------------------------------------------------------------------------


@st.composite
def _legal_deal(
    draw: st.DrawFn,
    players: int | None,
    contract: Contract | None,
    ruleset: Ruleset | None,
    partial: bool,
) -> DealRecord:
    n = players if players is not None else draw(player_counts())
    chosen = contract if contract is not None else draw(contracts())
    rules = ruleset if ruleset is not None else draw(rulesets())
    stop_after: int | None = None
    if partial:
        stop_after = draw(st.integers(min_value=0, max_value=n * table(n).tricks))
    seed = draw(seeds())
    poignee_chance = draw(st.sampled_from((0.0, 0.5, 1.0)))
    chelem_chance = draw(st.sampled_from((0.0, 0.0, 1.0)))
    while True:
        rec = random_deal(
            random.Random(seed),
            n,
            contract=chosen,
            ruleset=rules,
            poignee_chance=poignee_chance,
            chelem_chance=chelem_chance,
            stop_after=stop_after,
        )
        # random_deal plays out a deal that petit_in_chien=annuls annuls (the Petit in
        # the chien of a Prise or Garde): not a legal deal, so take the next seed.
        annulled = (rules.petit_in_chien is PetitInChien.ANNULS and chosen.takes_chien
                    and rec.chien is not None and Card.T1 in rec.chien)
        if not annulled:
            return rec
        seed += 1


def legal_deals(
    players: int | None = None,
    contract: Contract | None = None,
    ruleset: Ruleset | None = None,
    *,
    partial: bool = False,
) -> st.SearchStrategy[DealRecord]:
    """Legal deals from :func:`random_deal` with a drawn seed.

    Each of ``players``, ``contract`` and ``ruleset`` is drawn when not given (3/4/5
    players, the four contracts, presets with switches overridden). The deal holds the
    hands, chien, auction, call (5 players), écart, declarations (poignées, sometimes a
    chelem announcement), the whole play and a result with the replay's own scores.
    With ``partial=True`` the play stops after a drawn number of cards (0 to all), the
    last trick possibly incomplete; such a deal carries no result.
    """
    return _legal_deal(players, contract, ruleset, partial)


# --- arbitrary valid records ---------------------------------------------------------------


_M = TypeVar("_M", bound=BaseModel)


def _annotate(draw: st.DrawFn, model: _M, *, always: bool = False) -> _M:
    """``model`` with a drawn glyph and comments (one time in three, or ``always``)."""
    if not always and draw(st.integers(min_value=0, max_value=2)):
        return model
    glyph = draw(glyphs())
    notes = draw(_comment_lists())
    return model.model_copy(update={"glyph": glyph, "comments": notes})


def _draw_seats(draw: st.DrawFn, n: int) -> tuple[tuple[str, ...], tuple[Seat, ...]]:
    """Seat ids in order of play and the seats to write (empty: the default ids)."""
    kind = draw(st.sampled_from(("default", "default_named", "custom")))
    if kind == "default":
        return _DEFAULT_IDS[:n], ()
    if kind == "default_named":
        ids: tuple[str, ...] = _DEFAULT_IDS[:n]
    else:
        ids = tuple(draw(st.lists(seat_ids(), min_size=n, max_size=n, unique=True)))
    seats = tuple(
        Seat(id=sid, name=draw(st.one_of(st.none(), seat_names()))) for sid in ids
    )
    return ids, seats


def _pick_subset(draw: st.DrawFn, items: list[Card], k: int) -> CardSet:
    k = min(k, len(items))
    chosen = draw(st.lists(st.sampled_from(items), min_size=k, max_size=k, unique=True))
    return CardSet.from_cards(chosen) if items else CardSet()


def _declarations(
    draw: st.DrawFn, n: int, ids: tuple[str, ...], base: DealRecord
) -> tuple[Declaration, ...]:
    out: list[Declaration] = []
    # Keep the base deal's declarations (legal poignées, chelem), annotated.
    for decl in base.declarations:
        if draw(st.booleans()):
            seat = ids[_DEFAULT_IDS.index(decl.seat)]
            if isinstance(decl, Poignee):
                size = decl.size
                cards = decl.cards
                how = draw(st.sampled_from(("cards", "size", "both")))
                if how != "cards" and cards is not None:
                    size = table(n).poignee_size(len(cards)) or PoigneeSize.SIMPLE
                if how == "size":
                    cards = None
                out.append(_annotate(draw, Poignee(seat=seat, size=size, cards=cards)))
            else:
                out.append(_annotate(draw, ChelemAnnouncement(seat=seat)))
    # And some made up: every kind of declaration.
    trumps = [Card.trump(i) for i in range(1, 22)] + [Card.EXCUSE]
    for _ in range(draw(st.integers(min_value=0, max_value=3))):
        seat = draw(st.sampled_from(ids))
        kind = draw(st.sampled_from(("poignee", "chelem", "misere")))
        if kind == "poignee":
            size = draw(st.one_of(st.none(), st.sampled_from(list(PoigneeSize))))
            count = draw(st.sampled_from(table(n).poignee))
            cards = _pick_subset(draw, trumps, count) if size is None or draw(
                st.booleans()) else None
            out.append(_annotate(draw, Poignee(seat=seat, size=size, cards=cards)))
        elif kind == "chelem":
            out.append(_annotate(draw, ChelemAnnouncement(seat=seat)))
        else:
            kind_of = draw(st.sampled_from(list(MisereKind)))
            out.append(_annotate(draw, Misere(seat=seat, misere=kind_of)))
    return tuple(out)


def _result(
    draw: st.DrawFn, n: int, ids: tuple[str, ...], base: DealRecord, consistent: bool
) -> Result:
    """A result: the replay's own facts (``consistent``) or any values the model accepts."""
    maybe = st.booleans()
    if consistent:
        r = replay(base)
        taker = None if r.taker is None else ids[_DEFAULT_IDS.index(r.taker)]
        partner = None
        if n == 5 and r.taker is not None and r.camps:
            partner = ids[_DEFAULT_IDS.index(r.partner)] if r.partner else taker
        scores = (
            None if r.scores is None
            else {ids[_DEFAULT_IDS.index(k)]: v for k, v in r.scores.items()}
        )
        return _annotate(draw, Result(
            contract=r.contract if draw(maybe) else None,
            taker=taker if draw(maybe) else None,
            partner=partner if draw(maybe) else None,
            taker_points=(
                Points(r.taker_half) if r.taker_half is not None and draw(maybe) else None
            ),
            bouts=r.bouts if draw(maybe) else None,
            petit_au_bout=r.petit_au_bout if draw(maybe) else None,
            chelem=r.chelem if draw(maybe) else None,
            scores=scores if draw(maybe) else None,
        ))
    camps = st.one_of(st.none(), st.sampled_from(list(Camp)))
    score_seats = draw(st.sampled_from(("all", "some", "none")))
    scores_out: dict[str, int] | None = None
    if score_seats != "none":
        chosen = [s for s in ids if score_seats == "all" or draw(maybe)]
        scores_out = {
            s: draw(st.integers(min_value=-2000, max_value=2000)) for s in chosen
        }
    return _annotate(draw, Result(
        contract=draw(st.one_of(st.none(), contracts())),
        taker=draw(st.one_of(st.none(), st.sampled_from(ids))),
        partner=draw(st.one_of(st.none(), st.sampled_from(ids))) if n == 5 else None,
        taker_points=draw(
            st.one_of(st.none(), st.integers(min_value=0, max_value=182).map(Points))
        ),
        bouts=draw(st.one_of(st.none(), st.integers(min_value=0, max_value=3))),
        petit_au_bout=draw(camps),
        chelem=draw(camps),
        annulled=draw(maybe),
        scores=scores_out,
    ))


@st.composite
def records(draw: st.DrawFn, outcome_only: bool = False) -> DealRecord:
    """An arbitrary valid record (it validates; it need not be legal): see the module doc.

    The card parts come from a random legal deal (any player count, contract, ruleset),
    and every section is then kept, dropped or varied: tags (unicode values, odd names,
    repeats), seats (default ids, or custom ids, with or without names), the dealer or
    none, all hands or some or none, the chien or none, the auction or none (each bid with
    its seat written or not), the call at 5 players, the écart (cards and shown trumps, or
    shown only), declarations of every kind (poignée by size, cards or both; chelem;
    misère), the play whole or cut short (the last trick possibly incomplete) with the
    leader and each card's seat sometimes written (and, one time in four, one card
    replaced by any card: a fault for the replay to report), and a result either matching the play
    or made of arbitrary values (half points, every field, scores for all seats or some).
    Glyphs and 0-3 comments appear on bids, the call, the écart, declarations, cards,
    tricks, the result and the deal.

    With ``outcome_only=True`` the record is a score sheet: no hands, chien or play, and a
    result always present (``DealRecord.is_outcome_only`` holds).
    """
    n = draw(player_counts())
    contract = draw(contracts())
    rules = draw(rulesets())
    seed = draw(seeds())
    total = n * table(n).tricks
    stop_after = None if outcome_only else draw(
        st.one_of(st.none(), st.integers(min_value=0, max_value=total))
    )
    base = random_deal(
        random.Random(seed), n, contract=contract, ruleset=rules,
        poignee_chance=0.5, chelem_chance=0.1, stop_after=stop_after, with_result=False,
    )
    ids, seats = _draw_seats(draw, n)
    rename = dict(zip(_DEFAULT_IDS, ids, strict=False))

    tag_list = draw(st.lists(st.tuples(tag_names(), tag_values()), max_size=4))
    repeat = draw(st.booleans())
    if tag_list and repeat:
        tag_list.append((tag_list[0][0], draw(tag_values())))  # the same name twice
    tags = tuple(tag_list)

    dealer = rename[base.dealer] if base.dealer is not None and draw(
        st.integers(min_value=0, max_value=3)) else None

    hands: dict[str, CardSet] | None = None
    chien: CardSet | None = None
    if not outcome_only:
        assert base.hands is not None
        which = draw(st.sampled_from(("all", "all", "some", "none")))
        if which != "none":
            hands = {
                rename[k]: v for k, v in base.hands.items()
                if which == "all" or draw(st.booleans())
            }
        chien = base.chien if draw(st.integers(min_value=0, max_value=2)) else None

    auction: tuple[Bid, ...] = ()
    if draw(st.integers(min_value=0, max_value=3)):
        with_seats = draw(st.sampled_from(("never", "always", "sometimes")))
        seat_at = (ids.index(rename[base.first_seat]) if base.dealer is not None else 0)
        auction = tuple(
            _annotate(draw, Bid(
                contract=bid.contract,
                seat=ids[(seat_at + i) % n] if with_seats == "always" or (
                    with_seats == "sometimes" and draw(st.booleans())) else None,
            ))
            for i, bid in enumerate(base.auction)
        )

    call = None
    if n == 5 and base.call is not None and draw(st.integers(min_value=0, max_value=3)):
        call = _annotate(draw, Call(card=base.call.card))

    ecart = None
    if base.ecart is not None and draw(st.integers(min_value=0, max_value=3)):
        cards = base.ecart.cards if outcome_only is False and draw(
            st.integers(min_value=0, max_value=3)) else None
        ecart = _annotate(draw, Ecart(cards=cards, shown=base.ecart.shown))
    elif draw(st.integers(min_value=0, max_value=5)) == 0:
        # An écart with shown trumps only (the discard itself unrecorded).
        shown = _pick_subset(draw, [Card.trump(i) for i in range(2, 21)],
                             draw(st.integers(min_value=0, max_value=2)))
        ecart = _annotate(draw, Ecart(shown=shown))

    declarations = _declarations(draw, n, ids, base)

    play: tuple[Trick, ...] = ()
    if not outcome_only and base.play:
        played = replay(base).tricks
        # Per-card choices would cost a hypothesis draw per card: annotate a few drawn
        # cards and tricks, and let a drawn seed decide where "sometimes" writes seats.
        n_cards = sum(len(t.cards) for t in base.play)
        noted_cards = draw(st.sets(st.integers(0, n_cards - 1), max_size=4))
        noted_tricks = draw(st.sets(st.integers(0, len(base.play) - 1), max_size=3))
        leaders_mode = draw(st.sampled_from(("never", "always", "sometimes")))
        seats_mode = draw(st.sampled_from(("never", "always", "sometimes")))
        coin = random.Random(draw(seeds()))
        tricks: list[Trick] = []
        k = 0
        for t, (trick, rt) in enumerate(zip(base.play, played, strict=True)):
            cards_out: list[PlayedCard] = []
            for pc, seat in zip(trick.cards, rt.seats, strict=True):
                written = seats_mode == "always" or (
                    seats_mode == "sometimes" and coin.random() < 0.5)
                card = PlayedCard(card=pc.card, seat=ids[seat] if written else None)
                cards_out.append(_annotate(draw, card, always=True) if k in noted_cards
                                 else card)
                k += 1
            leader = ids[rt.leader] if leaders_mode == "always" or (
                leaders_mode == "sometimes" and coin.random() < 0.5) else None
            out = Trick(cards=tuple(cards_out), leader=leader)
            tricks.append(_annotate(draw, out, always=True) if t in noted_tricks else out)
        if draw(st.integers(min_value=0, max_value=3)) == 0:
            # A fault: one card replaced by any card (illegal, or held by another seat,
            # or played twice). The model accepts it; the replay reports it.
            t = draw(st.integers(0, len(tricks) - 1))
            i = draw(st.integers(0, len(tricks[t].cards) - 1))
            swapped = list(tricks[t].cards)
            swapped[i] = swapped[i].model_copy(update={"card": draw(st.sampled_from(list(Card)))})
            tricks[t] = tricks[t].model_copy(update={"cards": tuple(swapped)})
        play = tuple(tricks)

    result = None
    if outcome_only or draw(st.integers(min_value=0, max_value=3)):
        consistent = not outcome_only and stop_after is None and draw(st.booleans())
        result = _result(draw, n, ids, base, consistent)

    return _annotate(draw, DealRecord(
        tags=tags,
        ruleset=rules.spec(),
        players=n,
        seats=seats,
        dealer=dealer,
        hands=hands,
        chien=chien,
        auction=auction,
        call=call,
        ecart=ecart,
        declarations=declarations,
        play=play,
        result=result,
    ))


def outcome_records() -> st.SearchStrategy[DealRecord]:
    """Score-sheet records: a result and no cards (see :func:`records`)."""
    return records(outcome_only=True)
