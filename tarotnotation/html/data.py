"""The data of a deal page: everything the page shows, worked out on the Python side.

:func:`deal_data` turns one deal (the record, its replay and its diagnostics) into a
plain dict that the page embeds as JSON: the seats and their camps, the hands at the first
card, the chien, the auction, the call, the écart, the declarations, every card played
(its seat, trick, glyph, comments and diagnostics), every trick (its winner and both camps'
running points), the score worked out as ``tarot replay`` shows it, and the record's own
text. What the data says in words (the score, the diagnostics' messages, the title) is in
the run's language (:func:`tarotnotation.i18n.language`); its keys and codes never are.
The page's script only steps through this data: every rule (who wins a trick, the
points, the score) is applied here, by the replay and :mod:`tarotnotation.narrator`.

Each card is a small dict; the card-play analysis (``tarot analyze``'s computed comments,
read by :func:`tarotnotation.analysis.comments.parse_comment`), when a record carries it,
is one more field of it (``"a"``: the card's cost, the best cards, the outcome in words).

>>> from tarotnotation import notation
>>> from tarotnotation.replay import replay
>>> rec = notation.load("examples/annotated.tarot")
>>> data = deal_data(DealSource(1, "annotated.tarot", 1, rec, replay(rec), (), "", "x"))
>>> data["contract"], data["seats"][data["taker"]]["id"], len(data["cards"])
('Garde', 'N', 72)
>>> data["cards"][7]
{'c': '5H', 's': 1, 't': 1, 'g': '?', 'm': ['il fallait garder cette carte']}
>>> data["tricks"][0]
{'n': 1, 'at': 0, 'len': 4, 'ws': [1, 2, 2], 'w': 2, 'pts': '6', 'cw': 'taker', \
'tk': '6', 'df': '0', 'm': ['entame classique dans la longue']}
>>> data["score"][0]
'Garde by N: 44 points with 1 bout, needs 51: lost by 7'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any, Final

from ..analysis.comments import (
    AnalysisNote,
    cost_phrase,
    cost_text,
    note_text,
    outcome_words,
    parse_comment,
)
from ..cards import Card, CardSet, points_text
from ..diagnostics import Diagnostic, Severity
from ..fields import find_tag
from ..i18n import Msg, pmsg, render
from ..kernel import winner_index
from ..narrator import (
    is_computed,
    place_of,
    running_points,
    score_lines,
    speakers,
    unplayed_points,
)
from ..records import ChelemAnnouncement, DealRecord, Misere, Poignee
from ..replay import Replay, Status, TrickCount
from ..rules import Camp, Contract, MisereKind
from ..scoring import ChelemTerm, chelem_terms_of
from ..values import replace
from .escape import clean

__all__ = ["DATA_VERSION", "DealSource", "deal_data", "deal_title", "index_row",
           "published_name"]

DATA_VERSION = 1
"""The version of the page data's layout (``"v"``)."""


@dataclass(frozen=True, slots=True)
class DealSource:
    """One deal to show: what was read, what the replay made of it, and its text."""

    number: int
    """The deal's number in its page or site: the ``deal=N`` of a permalink."""
    file: str | None
    """The file it was read from, as named on the command line (None: standard input)."""
    index: int
    """1-based number of the deal in its file."""
    record: DealRecord | None
    """The record as read; None when the deal could not be read."""
    replay: Replay | None
    """What the rules make of it (its ``record`` is the one replayed)."""
    diagnostics: tuple[Diagnostic, ...]
    """Every diagnostic of the deal: reading, then replay, located in the file."""
    text: str
    """The record's own text, embedded in the page and downloadable."""
    text_name: str
    """The file name offered when the text is downloaded."""
    name: str | None = None
    """The name the page shows for its source (``tarot html --source-name``), in its
    heading, the index and every diagnostic's place; None: its ``file``. Either way
    through :func:`published_name`, so never a local path."""

    @property
    def shown(self) -> str | None:
        """The name the page shows for the deal's source (None: standard input, unnamed).

        >>> DealSource(1, "/home/ann/x.tarot", 1, None, None, (), "", "x").shown
        'x.tarot'
        >>> DealSource(1, None, 1, None, None, (), "", "x", name="club/5-12.tarot").shown
        'club/5-12.tarot'
        """
        given = self.file if self.name is None else self.name
        return None if given is None else published_name(given)

    @property
    def errors(self) -> int:
        """Number of errors (a fault that follows from a cause is not counted)."""
        return sum(d.severity is Severity.ERROR and d.counts for d in self.diagnostics)

    @property
    def warnings(self) -> int:
        """Number of warnings (a fault that follows from a cause is not counted)."""
        return sum(d.severity is Severity.WARNING and d.counts for d in self.diagnostics)


#: Each card's code, by its number (a tuple lookup is the fastest way there).
_CODE: Final = tuple(c.code for c in Card)


#: The bits set in each byte value.
_BYTE_BITS: Final = tuple(tuple(i for i in range(8) if byte >> i & 1) for byte in range(256))


#: _BYTE_CODES[k][byte]: the codes of the cards of that byte of a bitset, the k-th.
_BYTE_CODES: Final = tuple(tuple(tuple(_CODE[8 * k + i] for i in bits if 8 * k + i < 78)
                                 for bits in _BYTE_BITS) for k in range(10))


def _codes(cards: CardSet) -> list[str]:
    """The codes of a set of cards, in card order (a byte at a time: several times
    faster than iterating the set)."""
    return codes_of(cards.bits)


def codes_of(bits: int) -> list[str]:
    """The codes of the cards of a bitset (:mod:`tarotnotation.cards`' numbering), in
    card order.

    >>> codes_of(0b101)
    ['1S', '3S']
    """
    out: list[str] = []
    codes = _BYTE_CODES
    k = 0
    while bits:
        if bits & 255:
            out += codes[k][bits & 255]
        bits >>= 8
        k += 1
    return out


def _notes(item: Any, out: dict[str, Any], diags: Sequence[int] = ()) -> dict[str, Any]:
    """Glyph ``g``, people's comments ``m``, computed comments ``k`` and diagnostic
    indices ``d`` of an annotated part of the record, each only when present."""
    return notes_of(getattr(item, "glyph", None), getattr(item, "comments", ()), out, diags)


def notes_of(glyph: str | None, comments: Sequence[str], out: dict[str, Any],
             diags: Sequence[int] = ()) -> dict[str, Any]:
    """The notes of a part of a record (see ``_notes``) from its glyph and comments."""
    if glyph:
        out["g"] = glyph
    if comments:
        people = [clean(c) for c in comments if not is_computed(c)]
        computed = []
        for c in comments:
            if not is_computed(c):
                continue
            note = parse_comment(c)
            if note is None:
                computed.append(clean(c))
            else:
                out["a"] = _analysis(note)
        if people:
            out["m"] = people
        if computed:
            out["k"] = computed
    if diags:
        out["d"] = list(diags)
    return out


def _analysis(note: AnalysisNote) -> dict[str, Any]:
    """A card's analysis (a ``tarot analyze`` comment, read by the analysis' own parser):
    its cost as shown (``-1.5``, ``0``, ``-3..0``), the best cards, whether it changed the
    outcome, and all of it in words; for the deal, where the analysis starts. Both say
    the outcome with best play after them (``after``, in words; ``by``, the taker's
    margin as a scorer counts it, negative when lost, None unless exact; ``made``, None
    while undecided); a card valued with ``--all-cards`` has every legal card's cost
    (``cards``: code, cost as shown, cost in words, best first)."""
    after = {"after": render(outcome_words(note.made, note.by)), "made": note.made,
             "by": None if note.by is None or note.made is None else
             (note.by if note.made else -note.by)}
    if note.cost is None:
        return {"from": note.from_trick,
                "note": render(Msg("{outcome} with best play", outcome=outcome_words(
                    note.made, note.by))), **after}
    out: dict[str, Any] = {"cost": cost_text(note), "best": [c.code for c in note.best],
           "changed": note.changed, "note": render(note_text(note)), **after}
    if note.cards:
        out["cards"] = [[card.code, cost_text(AnalysisNote(cost)), render(cost_phrase(cost))]
                        for card, cost in note.cards]
    return out


def deal_title(record: DealRecord | None, number: int) -> str:
    """The heading of a deal: its event, round and deal number when tagged.

    >>> deal_title(DealRecord(players=4, tags=[("Event", "Club"), ("Round", "2")]), 7)
    'Club — round 2'
    >>> deal_title(DealRecord(players=4, tags=[("Deal", "3")]), 7)
    'Deal 3'
    >>> deal_title(None, 7)
    'Deal 7'
    """
    if record is None:
        return render(Msg("Deal {deal}", deal=number))
    return tags_title(record.tags, number)


def tags_title(tags: Sequence[tuple[str, str]] | Sequence[Sequence[str]], number: int) -> str:
    """:func:`deal_title` of a record's tags.

    >>> tags_title([["Round", "2"]], 7)
    'Round 2'
    """
    def tag(name: str) -> str | None:
        return find_tag(tags, name)  # type: ignore[arg-type]

    event, round_, deal = tag("Event"), tag("Round"), tag("Deal")
    parts = [p for p in (event, round_ and render(Msg("round {round}", round=round_)),
                         deal and render(Msg("deal {deal}", deal=deal))) if p]
    if not parts:
        return render(Msg("Deal {deal}", deal=number))
    title = clean(" — ".join(parts))
    return title[0].upper() + title[1:] if not event else title


class _Places:
    """The diagnostics of a deal, sorted by the part of the record they apply to."""

    def __init__(self, record: DealRecord | None, diags: Sequence[Diagnostic]) -> None:
        self.at: dict[tuple[str, int | None, int | None], list[int]] = {}
        plays = record.play if record is not None else ()
        for k, d in enumerate(diags):
            section, i, c = place_of(d)
            key: tuple[str, int | None, int | None]
            if section == "play" and i is not None and i < len(plays):
                if c is not None and c < len(plays[i].cards):
                    key = ("play", i, c)
                else:
                    key = ("play", i, None)
            elif section in ("auction", "declarations") and i is not None:
                key = (section, i, None)
            elif section == "auction" and record is not None and record.auction:
                key = ("auction", len(record.auction) - 1, None)  # the whole auction
            elif section in ("call", "ecart", "chien", "result", "hands"):
                key = (section, None, None)
            else:
                key = ("", None, None)
            self.at.setdefault(key, []).append(k)

    def get(self, section: str, i: int | None = None, c: int | None = None) -> list[int]:
        """The indices of the diagnostics at that place."""
        return self.at.get((section, i, c), []) if self.at else []


def published_name(file: str) -> str:
    """A source's name as a published page shows it: as given when it is a relative path
    inside the folder it was given from, else its base name (no local path, such as
    ``/home/ann/club/x.tarot`` or ``../x.tarot``, goes into a page).

    >>> published_name("club/x.tarot"), published_name("/home/ann/x.tarot")
    ('club/x.tarot', 'x.tarot')
    >>> published_name("../private/x.tarot"), published_name("C:\\\\Users\\\\ann\\\\x.tarot")
    ('x.tarot', 'x.tarot')
    """
    path = PurePosixPath(file.replace("\\", "/"))
    if path.is_absolute() or ".." in path.parts or ":" in file:
        return path.name
    return file


def _diagnostic(d: Diagnostic, name: str | None) -> dict[str, Any]:
    """A diagnostic as the page shows it, its file named ``name`` when given (the
    source's chosen name), else by :func:`published_name`."""
    out: dict[str, Any] = {"code": d.code.value, "sev": d.severity.value,
                           "slug": d.code.slug, "msg": clean(render(d.message))}
    loc = d.location
    shown = loc.file if name is None else name
    where = (loc if shown is None else replace(loc, file=published_name(shown))
             ).text_position()
    if where:
        out["at"] = clean(where)
    if d.cause is not None:
        out["cause"] = d.cause.value  # it follows from that cause: shown, not counted
    return out


def _hands(record: DealRecord, rep: Replay | None, cards: Sequence[Mapping[str, Any]]
           ) -> tuple[list[list[str]], list[bool]]:
    """Each seat's hand at the first card (codes) and whether it is exact: the replay's
    hands, else the recorded ones, else the cards the seat went on to play."""
    known = dict(rep.hands) if rep is not None else {}
    recorded = record.hands or {}
    hands: list[list[str]] = []
    exact: list[bool] = []
    for i, seat in enumerate(record.seat_ids):
        hand = known.get(seat)
        if hand is None and seat in recorded and not (rep is not None and rep.taker == seat):
            hand = recorded[seat]
        if hand is not None:
            hands.append(_codes(hand))
            exact.append(True)
        else:
            hands.append([c["c"] for c in cards if c["s"] == i])
            exact.append(False)
    return hands, exact


def deal_data(src: DealSource, nav: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The page data of one deal (a JSON-ready dict; see the module's doc).

    ``nav`` holds the links of a site's page (``index``, ``prev``, ``next``).
    """
    rep = src.replay
    record = rep.record if rep is not None else src.record
    diags = src.diagnostics
    data: dict[str, Any] = {
        "v": DATA_VERSION,
        "n": src.number,
        "title": deal_title(record, src.number),
        "file": clean(src.shown) if src.shown else None,
        "index": src.index,
        "diags": [_diagnostic(d, src.name) for d in diags],
        "errors": src.errors,
        "warnings": src.warnings,
        "text": src.text,
        "textName": clean(src.text_name),
    }
    if nav:
        data["nav"] = dict(nav)
    if record is None:
        data["deal"] = {"d": list(range(len(diags)))}
        return data
    places = _Places(record, diags)
    index_of = {s: i for i, s in enumerate(record.seat_ids)}
    camps = rep.camps if rep is not None else {}
    data.update({
        "tags": [[clean(k), clean(v)] for k, v in record.tags],
        "players": record.players,
        "ruleset": record.ruleset,
        "dealer": index_of.get(record.dealer) if record.dealer else None,
        "seats": [{"id": s.id, "name": clean(s.name) if s.name else None,
                   "camp": camps[s.id].value if s.id in camps else None}
                  for s in record.seats],
        "deal": _notes(record, {}, places.get("")),
    })
    counts = {tc.number: tc for tc in running_points(rep)} if rep is not None else {}
    data["cards"], data["tricks"] = _play(record, rep, places, index_of, counts)
    data["hands"], data["exact"] = _hands(record, rep, data["cards"])
    data["handsNote"] = places.get("hands")
    data["chien"] = _codes(record.chien) if record.chien is not None else None
    data["chienNote"] = places.get("chien")
    data.update(_bidding(record, rep, places, index_of, data["cards"]))
    data.update(_end(record, rep, places, counts))
    return data


#: How a misère is named (rules.md §12).
_MISERE: Final = {MisereKind.ATOUT: Msg("d'atout (no trump)"),
                  MisereKind.TETE: Msg("de tête (no face card)")}

#: :func:`~tarotnotation.narrator.points_text` of every number of half-points of a deal.
_POINTS: Final = tuple(points_text(half) for half in range(2 * 91 + 1))


def _points(half: int) -> str:
    return _POINTS[half] if 0 <= half < len(_POINTS) else points_text(half)


def _play(record: DealRecord, rep: Replay | None, places: _Places,
          index_of: Mapping[str, int], counts: Mapping[int, TrickCount]
          ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Every card played (code ``c``, seat ``s``, trick ``t``, notes) and every trick
    (number, first card ``at``, ``len``, winner ``w``, points, both camps' points)."""
    cards: list[dict[str, Any]] = []
    tricks: list[dict[str, Any]] = []
    code = _CODE
    card_places = places.at
    for t, trick in enumerate(record.play):
        replayed = rep.tricks[t] if rep is not None and t < len(rep.tricks) else None
        seats = replayed.seats if replayed is not None else ()
        at = len(cards)
        if len(seats) == len(trick.cards) and not card_places:  # the usual case, fast
            for pc, seat in zip(trick.cards, seats, strict=True):
                card: dict[str, Any] = {"c": code[pc.card], "s": seat, "t": t}
                if pc.glyph or pc.comments:
                    _notes(pc, card)
                cards.append(card)
        else:
            for c, pc in enumerate(trick.cards):
                where = seats[c] if c < len(seats) else (
                    index_of.get(pc.seat) if pc.seat else None)
                card = {"c": code[pc.card], "s": where, "t": t}
                here = card_places.get(("play", t, c)) if card_places else None
                if pc.glyph or pc.comments or here:
                    _notes(pc, card, here or ())
                cards.append(card)
        entry: dict[str, Any] = {"n": replayed.number if replayed else t + 1, "at": at,
                                 "len": len(trick.cards)}
        if len(seats) == len(trick.cards):
            entry["ws"] = winning_seats([int(pc.card) for pc in trick.cards], seats)
        if replayed is not None and replayed.winner is not None:
            entry["w"] = replayed.winner
            entry["pts"] = _points(replayed.points)
            tc = counts.get(replayed.number)
            if tc is not None:
                entry.update({"cw": tc.camp.value, "tk": _points(tc.taker_half),
                              "df": _points(tc.defence_half)})
                if tc.excuse is not None:
                    entry["ex"] = tc.excuse.value
        tricks.append(_notes(trick, entry, places.get("play", t)))
    return cards, tricks


def winning_seats(trick: Sequence[int], seats: Sequence[int]) -> list[int | None]:
    """Who wins the trick so far after each of its cards but the last (the trick's winner
    then: :func:`kernel.winner_index` of the cards played up to it; None while only the
    Excuse is down): ``seats`` played the ``trick``'s cards (card numbers).

    >>> from tarotnotation.cards import Card
    >>> winning_seats([Card.EXCUSE, Card.H5, Card.HK, Card.T2], [3, 0, 1, 2])
    [None, 0, 1]
    """
    out: list[int | None] = []
    for i in range(len(trick) - 1):
        w = winner_index(trick[:i + 1])
        out.append(None if w is None else seats[w])
    return out


def _bidding(record: DealRecord, rep: Replay | None, places: _Places,
             index_of: Mapping[str, int], cards: Sequence[Mapping[str, Any]]
             ) -> dict[str, Any]:
    """The auction, the contract and camps, the call, the écart, the declarations."""
    out: dict[str, Any] = {}
    out["auction"] = [
        _notes(bid, {"s": index_of.get(seat), "bid": "pass" if bid.contract is None
                     else bid.contract.french}, places.get("auction", i))
        for i, (seat, bid) in enumerate(zip(speakers(record), record.auction, strict=True))]
    contract = rep.contract if rep is not None else None
    out["contract"] = contract.french if contract is not None else None
    out["chienSeen"] = bool(contract is not None and contract.takes_chien)
    out["taker"] = index_of.get(rep.taker) if rep is not None and rep.taker else None
    partner = rep.partner if rep is not None else None
    out["partner"] = index_of.get(partner) if partner is not None else None
    called = rep.called if rep is not None else None
    if called is None and record.call is not None:
        called = record.call.card
    out["called"] = called.code if called is not None else None
    out["calledAt"] = None if called is None else next(
        (k for k, c in enumerate(cards) if c["c"] == out["called"]), None)
    out["call"] = (None if record.call is None else
                   _notes(record.call, {"card": record.call.card.code}, places.get("call")))
    ecart = record.ecart
    out["ecart"] = (
        None if ecart is None else _notes(ecart, {
            "cards": None if ecart.cards is None else _codes(ecart.cards),
            "shown": _codes(ecart.shown)}, places.get("ecart")))
    if ecart is None and places.get("ecart"):
        out["ecart"] = {"cards": None, "shown": [], "d": places.get("ecart")}
    decls = []
    sizes = dict(rep.poignees) if rep is not None else {}
    for i, decl in enumerate(record.declarations):
        item: dict[str, Any] = {"s": index_of.get(decl.seat)}
        if isinstance(decl, Poignee):
            item["kind"] = "poignée"
            size = decl.size or sizes.get(decl.seat)  # written, else from the cards shown
            item["size"] = size.value if size is not None else None
            item["cards"] = None if decl.cards is None else _codes(decl.cards)
        elif isinstance(decl, Misere):
            item["kind"] = "misère"
            item["size"] = render(_MISERE[decl.misere])
        elif isinstance(decl, ChelemAnnouncement):
            item["kind"] = render(Msg("chelem announced"))
        decls.append(_notes(decl, item, places.get("declarations", i)))
    out["decl"] = decls
    return out


#: The camps as the score's lines name them.
_CAMP_WORDS: Final = {"taker": pmsg("camp", "taker"), "defence": pmsg("camp", "defence")}


def rest_sum(ecart: bool, half: int, camp: Camp, taker_half: int, defence_half: int
             ) -> list[str]:
    """The chien or écart as the term that makes the camps' points from the tricks into
    those counted: what it is, its camp, its points, then both camps' totals.

    >>> rest_sum(True, 8, Camp.TAKER, 80, 94)
    ['ecart', 'taker', '4', '44', '47']
    """
    taker = taker_half + (half if camp is Camp.TAKER else 0)
    defence = defence_half + (half if camp is Camp.DEFENCE else 0)
    return ["ecart" if ecart else "chien", camp.value, points_text(half),
            points_text(taker), points_text(defence)]


def _end(record: DealRecord, rep: Replay | None, places: _Places,
         counts: Mapping[int, TrickCount]) -> dict[str, Any]:
    """The chien or écart's points, the score worked out, the recorded result."""
    out: dict[str, Any] = {}
    contract = rep.contract if rep is not None else None
    rest = unplayed_points(rep, list(counts.values())) if rep is not None else None
    if rest is not None and rest[0]:
        points, camp = points_text(rest[0]), _CAMP_WORDS[rest[1].value]
        out["rest"] = render(
            Msg("the écart, {points} points, to the {camp}", points=points, camp=camp)
            if contract is not None and contract.takes_chien else
            Msg("the chien, {points} points, to the {camp}", points=points, camp=camp))
        last = counts[max(counts)]
        out["restSum"] = rest_sum(contract is not None and contract.takes_chien, rest[0],
                                  rest[1], last.taker_half, last.defence_half)
    out["score"] = [render(line) for line in score_lines(rep)] if rep is not None else []
    out["status"] = rep.status.value if rep is not None else None
    result = record.result
    res: dict[str, Any] = {}
    if result is not None:
        if result.scores:
            res["scores"] = " ".join(f"{s}{v:+d}" for s, v in result.scores.items())
        _notes(result, res)
    if places.get("result"):
        res["d"] = places.get("result")
    out["result"] = res or None
    return out


def index_row(src: DealSource) -> dict[str, Any]:
    """One row of an archive's index: where the deal is, its tags, the contract, the
    taker, made or lost and by how much, the taker's score, the faults."""
    rep = src.replay
    record = rep.record if rep is not None else src.record
    if record is None:
        return row_of(src.number, src.shown, src.index, src.errors, src.warnings)
    if rep is None:
        return row_of(src.number, src.shown, src.index, src.errors, src.warnings,
                      record.tags, record.players)
    name = next((s.name for s in record.seats if s.id == rep.taker and s.name), None)
    flags = deal_flags(rep.chelem, rep.chelem_announced, rep.petit_au_bout,
                       bool(rep.poignees)) if rep.status is Status.SCORED else ()
    made = rep.score.made if rep.score is not None else None
    margin = abs(rep.score.margin_points) if rep.score is not None else None
    score = (rep.scores.get(rep.taker) if rep.scores is not None and rep.taker is not None
             else None)
    return row_of(src.number, src.shown, src.index, src.errors, src.warnings, record.tags,
                  record.players, rep.contract, rep.taker, name, rep.status, made, margin,
                  score, names=[s.name for s in record.seats if s.name], flags=flags)


def deal_flags(chelem: Camp | None, announced: bool, petit_au_bout: Camp | None,
               poignee: bool) -> tuple[str, ...]:
    """What an index row flags of a scored deal, as the page's words name them
    (``flag.*``): its chelem terms (:func:`tarotnotation.scoring.chelem_terms_of`: a
    chelem announced and failed is one), a poignée, a petit au bout and whose.

    >>> deal_flags(None, True, Camp.DEFENCE, True)
    ('chelemFailed', 'poignee', 'petitDefence')
    """
    terms = {ChelemTerm.ANNOUNCED_MADE: "chelem", ChelemTerm.MADE: "chelem",
             ChelemTerm.ANNOUNCED_FAILED: "chelemFailed", ChelemTerm.DEFENCE: "chelemDefence"}
    return (tuple(terms[t] for t in chelem_terms_of(chelem, announced))
            + (("poignee",) if poignee else ())
            + (() if petit_au_bout is None else
               ("petitTaker" if petit_au_bout is Camp.TAKER else "petitDefence",)))


#: The tags an index row shows in its own columns (not repeated in its searched text).
_SHOWN_TAGS: Final = frozenset({"event", "round", "table", "date"})


def row_of(number: int, file: str | None, index: int, errors: int, warnings: int,
           tags: Sequence[tuple[str, str]] | None = None, players: int = 0,
           contract: Contract | None = None, taker: str | None = None,
           name: str | None = None, status: Status | None = None, made: bool | None = None,
           margin: int | None = None, score: int | None = None, *,
           names: Sequence[str] = (), flags: Sequence[str] = ()) -> dict[str, Any]:
    """:func:`index_row` from the deal's facts: no ``tags`` for a deal that could not be
    read, no ``status`` for one not replayed; the players' ``names`` and the other tags'
    values are searched (``find``), the ``flags`` (:func:`deal_flags`) shown."""
    row: dict[str, Any] = {
        "n": number, "file": clean(published_name(file) if file else "<stdin>"),
        "index": index, "errors": errors, "warnings": warnings,
        "event": "", "round": "", "table": "", "date": "", "players": "",
        "contract": "", "taker": "", "outcome": "", "margin": None, "score": None,
        "find": "", "flags": list(flags),
    }
    if tags is None:
        row["outcome"] = "unreadable"
        return row
    row.update({
        "event": clean(find_tag(tags, "Event") or ""),
        "round": clean(find_tag(tags, "Round") or ""),
        "table": clean(find_tag(tags, "Table") or ""),
        "date": clean(find_tag(tags, "Date") or ""),
        "players": str(players),
        "find": clean(" ".join([*names, *(value for name, value in tags
                                          if name.lower() not in _SHOWN_TAGS)])),
    })
    if status is None:
        return row
    if contract is not None:
        row["contract"] = contract.french
    if taker is not None:
        row["taker"] = clean(f"{taker} ({name})" if name else taker)
    if status is Status.ANNULLED:
        row["outcome"] = "annulled"
    elif made is not None and margin is not None and status is Status.SCORED:
        row["outcome"] = "made" if made else "lost"
        row["margin"] = margin if made else -margin
        if taker is not None:
            row["score"] = score
    else:
        row["outcome"] = status.value
    return row
