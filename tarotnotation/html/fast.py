"""The page data of a plain clean deal of JSON Lines, from its quick facts: no record
model built, no replay.

A site of an archive spent most of its time reading each record into its model and
replaying it, though nearly every deal of a real archive is clean. :func:`reader` gives
a function of one JSON Lines record (its bytes) that, when the quick check
(:mod:`tarotnotation.quick`) judges it a plain clean deal, returns a :class:`FastDeal`:
the quick facts and what of the record a page shows beside them (the chien, the écart,
the poignées' cards, the recorded scores, the glyphs and comments); any other record
gives None, and the caller reads and replays it as usual. :func:`deal_data` and
:func:`index_row` then make of a :class:`FastDeal` what :func:`.data.deal_data` and
:func:`.data.index_row` make of the deal read and replayed, byte for byte once encoded
(``tests/twins/test_html_fast.py`` holds them to it, with the compiled twin and without).

The rules come from the kernel: the quick check judged the deal; each trick's winner is
the compiled twin's (:func:`tarotnotation._kernel.play`), else
:class:`tarotnotation.kernel.PlayState`'s; what each trick brings each camp is
:func:`tarotnotation.kernel.settle_trick`'s; the score is
:func:`tarotnotation.scoring.score`'s, in the words of
:func:`tarotnotation.narrator.scored_lines`.

>>> import random
>>> from tarotnotation.formats import json as tjson
>>> from tarotnotation.simulate import random_deal
>>> deal = reader()(tjson.dumps_bytes(random_deal(random.Random(3), 4)))
>>> data = deal_data(deal, 1, "club.jsonl", 1, "{}", "club-1.jsonl")
>>> data["contract"] == deal.facts.contract.french, len(data["cards"]), data["status"]
(True, 72, 'scored')
>>> reader()(b'{"players": 4}') is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, NamedTuple

import orjson

from .. import kernel, native
from ..cards import ALL_MASK, BIT_OF_CODE, Card, card_points, points_text
from ..i18n import Msg, language, pmsg, render
from ..narrator import scored_lines
from ..quick import QuickFacts, quick_facts_reader
from ..rules import Camp, Contract, Ruleset
from ..scoring import DealFacts, score
from ..status import Status
from .data import (
    DATA_VERSION,
    codes_of,
    deal_flags,
    notes_of,
    published_name,
    rest_sum,
    row_of,
    tags_title,
    winning_seats,
)
from .escape import clean

__all__ = ["FastDeal", "deal_data", "index_row", "reader"]

#: A part's glyph and comments, as written.
_Note = tuple[str | None, Sequence[str]]
_NO_NOTE: Final[_Note] = (None, ())
_CODE: Final = tuple(c.code for c in Card)
_BIT: Final = tuple(1 << c for c in range(78))
_CAMPS: Final = (Camp.TAKER, Camp.DEFENCE)
_CAMP_VALUES: Final = tuple(camp.value for camp in _CAMPS)
#: Each card's half-points (the kernel's count of one card).
_HALF: Final = tuple(card_points(1 << c) for c in range(78))
#: _ORDERS[n][leader]: the seats of a trick, from its leader's.
_ORDERS: Final = {n: tuple(tuple((lead + c) % n for c in range(n)) for lead in range(n))
                  for n in (3, 4, 5)}
_POINTS: Final = tuple(points_text(half) for half in range(2 * 91 + 1))
_CHELEM_WORD: Final = Msg("chelem announced")
#: The score's lines worked out, by the facts they depend on (``score`` is pure) and the
#: language.
_SCORES: dict[tuple[Any, ...], list[str]] = {}
_SCORES_KEPT: Final = 4096
#: The compiled twin's flags of each ruleset met.
_FLAGS: dict[Ruleset, int] = {}


class FastDeal(NamedTuple):
    """A plain clean deal as the quick check read it, and what a page shows beside its
    facts. Seats are indices in the order of play."""

    facts: QuickFacts
    rules: Ruleset
    ruleset: str
    """The ruleset's spec as the replayed record carries it (the page shows it)."""
    chien: int
    ecart: int | None
    decls: tuple[tuple[str, int, int | None], ...]
    """Each declaration: its kind (``poignee``, ``chelem``), seat, and cards shown."""
    scores: Mapping[str, int] | None
    """The scores the record's result gives, as written."""
    deal_note: _Note
    card_notes: Mapping[int, _Note]
    """The notes of the cards that have some, by their place in the play (0-based)."""
    other_notes: Mapping[tuple[str, int], _Note]
    """The notes of the other parts (``bid``, ``trick``, ``decl``: their index;
    ``ecart``, ``result``: 0), when read from the parsed record."""
    twin: Any = None
    """The kernel's compiled twin (:func:`tarotnotation.native.compiled`) when read
    with it."""


def _note(item: Mapping[str, Any]) -> _Note:
    return item.get("glyph"), item.get("comments", ())


def reader(ruleset: str | None = None, default_ruleset: str | None = None
           ) -> Callable[[bytes], FastDeal | None]:
    """A function of one JSON Lines record (its bytes, without blanks around) giving its
    :class:`FastDeal`, or None when the record is not a plain clean deal. ``ruleset``
    overrides every record's own, ``default_ruleset`` applies to those that name none,
    as in :func:`tarotnotation.archive.check_deal`."""
    twin = native.compiled()
    facts_of = quick_facts_reader(ruleset, default_ruleset)

    def read(line: bytes) -> FastDeal | None:
        facts = facts_of(line)
        if facts is None:
            return None
        parts = None if twin is None else twin.scan_json(line)
        try:
            return _from_parts(facts, parts) if parts is not None else _from_object(
                facts, orjson.loads(line))
        except (ValueError, KeyError, TypeError, IndexError):  # (judged clean: never)
            return None

    canonical: dict[str, str] = {}

    def _rules(facts: QuickFacts) -> tuple[Ruleset, str]:
        """The rules the deal is judged by, and the ruleset the replayed record carries
        (an override or a default as given, the record's own in its canonical form)."""
        own = facts.ruleset
        spec = ruleset if ruleset is not None else own if own is not None else default_ruleset
        rules = Ruleset.from_spec(spec) if spec is not None else Ruleset.fft()
        if ruleset is not None:
            return rules, ruleset
        if own is not None:
            shown = canonical.get(own)
            if shown is None:
                if len(canonical) >= 256:  # (memory stays bounded)
                    canonical.clear()
                shown = canonical[own] = Ruleset.from_spec(own).spec()
            return rules, shown
        return rules, default_ruleset or "fft"

    def _from_parts(facts: QuickFacts, parts: tuple[Any, ...]) -> FastDeal:
        # (the scanner takes notes on the deal and on cards only)
        ecart, notes, recorded, comments, glyph, declarations = (
            parts[9], parts[11], parts[12], parts[13], parts[14], parts[15])
        ids = facts.seats
        rules, shown = _rules(facts)
        return FastDeal(
            facts, rules, shown, parts[7][0], None if ecart is None else ecart[0],
            tuple((kind, ids.index(seat), None if cards is None else cards[0])
                  for kind, seat, cards in declarations or ()),
            recorded, (glyph, comments or ()),
            {at: _note(note) for at, note in notes or ()}, {}, twin)

    def _from_object(facts: QuickFacts, obj: dict[str, Any]) -> FastDeal:
        ids = facts.seats
        rules, shown = _rules(facts)
        others: dict[tuple[str, int], _Note] = {}
        for i, bid in enumerate(obj["auction"]):
            if len(bid) > 1:
                others["bid", i] = _note(bid)
        call = obj.get("call")
        if call is not None:
            others["call", 0] = _note(call)
        ecart = obj.get("ecart")
        if ecart is not None:
            others["ecart", 0] = _note(ecart)
        decls = []
        for i, decl in enumerate(obj.get("declarations", ())):
            held = decl.get("cards")
            decls.append((decl["kind"], ids.index(decl["seat"]),
                          None if held is None else sum(map(BIT_OF_CODE.__getitem__, held))))
            others["decl", i] = _note(decl)
        cards: dict[int, _Note] = {}
        at = 0
        for t, trick in enumerate(obj["play"]):
            if len(trick) > 1:
                others["trick", t] = _note(trick)
            for pc in trick["cards"]:
                if len(pc) > 1:
                    cards[at] = _note(pc)
                at += 1
        result = obj.get("result")
        if result is not None:
            others["result", 0] = _note(result)
        return FastDeal(
            facts, rules, shown, sum(map(BIT_OF_CODE.__getitem__, obj["chien"])),
            None if ecart is None else sum(map(BIT_OF_CODE.__getitem__, ecart["cards"])),
            tuple(decls), None if result is None else result.get("scores"), _note(obj),
            cards, others, twin)

    return read


def _points(half: int) -> str:
    return _POINTS[half] if 0 <= half < len(_POINTS) else points_text(half)


def _start(deal: FastDeal) -> list[int]:
    """Each seat's hand at the first card: as dealt, the taker's with the chien taken
    and the écart put aside."""
    facts = deal.facts
    start = list(facts.hands)
    if deal.ecart is not None:
        start[facts.taker] = (start[facts.taker] | deal.chien) & ~deal.ecart
    return start


def _winners(deal: FastDeal, start: list[int], camps: tuple[int, ...], leader: int
             ) -> list[int] | None:
    """Each trick's winner by the kernel's compiled twin, or None without it (then
    :func:`tarotnotation.kernel.count_tricks` finds them)."""
    facts = deal.facts
    twin = deal.twin
    if twin is None:
        return None
    flags = _FLAGS.get(deal.rules)
    if flags is None:
        flags = _FLAGS[deal.rules] = native.rule_flags(deal.rules)
    played, winners = twin.play(flags, start, camps, leader, facts.play)[:2]
    if played != len(facts.play):
        raise ValueError("a clean deal's play is legal")
    return list(winners)


def _score_lines(deal: FastDeal) -> list[str]:
    """The score worked out (:func:`tarotnotation.scoring.score`) in the words of
    :func:`tarotnotation.narrator.scored_lines`, in the run's language; kept for the next
    deals of the same facts (a few thousand in a real archive)."""
    facts = deal.facts
    sizes = tuple(size for _, size in facts.poignees)
    n = len(facts.seats)
    key = (n, facts.taker, facts.partner, facts.called, facts.contract, facts.taker_half,
           facts.bouts, facts.petit_au_bout, sizes, facts.chelem_announced, facts.chelem,
           facts.seats, language())
    lines = _SCORES.get(key)
    if lines is None:
        if len(_SCORES) >= _SCORES_KEPT:
            _SCORES.clear()
        worked = score(DealFacts(
            players=n, taker=facts.taker, contract=facts.contract,
            taker_half=facts.taker_half, bouts=facts.bouts, partner=facts.partner,
            petit_au_bout=facts.petit_au_bout, poignees=sizes,
            chelem_announced=facts.chelem_announced, chelem=facts.chelem))
        ids = facts.seats
        lines = _SCORES[key] = [render(line) for line in scored_lines(
            worked, facts.scores, facts.contract, ids[facts.taker], facts.taker_half,
            facts.bouts, partner=None if facts.partner is None else ids[facts.partner],
            players=n, called=None if facts.called is None else Card(facts.called),
            poignees=sizes, seat_ids=ids)]
    return list(lines)


def deal_data(deal: FastDeal, number: int, file: str, index: int, text: str,
              text_name: str, nav: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """:func:`.data.deal_data` of a plain clean deal (``number`` in its site, ``file``
    and ``index`` where it was read, its own ``text`` and the name to download it as,
    the ``nav`` links of a site's page)."""
    facts = deal.facts
    n = len(facts.seats)
    ids = facts.seats
    taker = facts.taker
    partner = taker if facts.partner is None else facts.partner  # (alone: his own seat)
    others = deal.other_notes
    data: dict[str, Any] = {
        "v": DATA_VERSION, "n": number, "title": tags_title(facts.tags, number),
        "file": clean(published_name(file)), "index": index, "diags": [], "errors": 0,
        "warnings": 0, "text": text, "textName": clean(text_name),
    }
    if nav:
        data["nav"] = dict(nav)
    camp_words = ["taker" if s in (taker, partner) else "defence" for s in range(n)]
    data.update({
        "tags": [[clean(k), clean(v)] for k, v in facts.tags],
        "players": n,
        "ruleset": deal.ruleset,
        "dealer": facts.dealer,
        "seats": [{"id": sid, "name": clean(name) if name else None, "camp": camp}
                  for sid, name, camp in zip(ids, facts.names, camp_words, strict=True)],
        "deal": notes_of(*deal.deal_note, {}),
    })

    # The play: each card, each trick's winner and both camps' running points.
    first = 0 if facts.dealer is None else (facts.dealer + 1) % n
    leader = kernel.first_leader(first, taker if facts.chelem_announced else None)
    start = _start(deal)
    camps = tuple(kernel.TAKER if s in (taker, partner) else kernel.DEFENCE for s in range(n))
    play = facts.play
    tricks_count = len(play) // n
    counting = kernel.count_tricks(
        deal.rules, [play[at:at + n] for at in range(0, len(play), n)], camps, tricks_count,
        leader=leader, winners=_winners(deal, start, camps, leader))
    winners = counting.winners
    leaders = [leader, *winners[:-1]]
    code, half, points_of = _CODE, _HALF, _POINTS
    orders = _ORDERS[n]
    cards = [{"c": code[card_no], "s": seat, "t": t}
             for t, lead in enumerate(leaders)
             for card_no, seat in zip(play[t * n:t * n + n], orders[lead], strict=True)]
    for at, (glyph, comments) in deal.card_notes.items():
        if glyph or comments:
            notes_of(glyph, comments, cards[at])
    tricks: list[dict[str, Any]] = []
    taker_half = total = 0
    for t, end in enumerate(counting.tricks):
        at = t * n
        points = sum(map(half.__getitem__, play[at:at + n]))
        total += points
        wcamp = end.camp
        # (a trick goes whole to one camp but where the Excuse stays with its owner)
        taker_half += (points if not end.defence else card_points(end.taker) if end.taker
                       else 0) + end.moved
        entry: dict[str, Any] = {
            "n": t + 1, "at": at, "len": n,
            "ws": winning_seats(play[at:at + n], orders[leaders[t]]), "w": winners[t],
            "pts": points_of[points], "cw": _CAMP_VALUES[wcamp], "tk": points_of[taker_half],
            "df": points_of[total - taker_half]}
        if end.excuse >= 0 and end.excuse != wcamp:
            entry["ex"] = _CAMP_VALUES[end.excuse]
        if others:
            notes_of(*others.get(("trick", t), _NO_NOTE), entry)
        tricks.append(entry)
    data["cards"], data["tricks"] = cards, tricks
    data["hands"] = [codes_of(hand) for hand in start]
    data["exact"] = [True] * n
    data["handsNote"] = []
    data["chien"] = codes_of(deal.chien)
    data["chienNote"] = []

    # The auction, the contract, the écart, the declarations.
    contract = facts.contract
    data["auction"] = [
        notes_of(*others.get(("bid", i), _NO_NOTE), {
            "s": (first + i) % n, "bid": "pass" if not bid else Contract(bid).french})
        for i, bid in enumerate(facts.auction)]
    called = None if facts.called is None else _CODE[facts.called]
    called_at = -1 if facts.called is None else play.find(facts.called)
    data.update({"contract": contract.french, "chienSeen": contract.takes_chien,
                 "taker": taker, "partner": facts.partner, "called": called,
                 "calledAt": None if called_at < 0 else called_at,
                 "call": None if called is None else notes_of(
                     *others.get(("call", 0), _NO_NOTE), {"card": called})})
    data["ecart"] = None if deal.ecart is None else notes_of(
        *others.get(("ecart", 0), _NO_NOTE), {"cards": codes_of(deal.ecart), "shown": []})
    sizes = iter(facts.poignees)
    decls = []
    for i, (kind, seat, shown) in enumerate(deal.decls):
        item: dict[str, Any] = {"s": seat}
        if kind == "poignee":
            item["kind"] = "poignée"
            item["size"] = next(sizes)[1].value
            item["cards"] = None if shown is None else codes_of(shown)
        else:
            item["kind"] = render(_CHELEM_WORD)
        decls.append(notes_of(*others.get(("decl", i), _NO_NOTE), item))
    data["decl"] = decls

    # The end: the cards aside, the score worked out, the recorded result.
    aside = card_points(ALL_MASK & ~sum(map(_BIT.__getitem__, play)))
    if aside:
        rest, camp = points_text(aside), pmsg("camp", _CAMPS[kernel.unplayed_camp(
            contract)].value)
        data["rest"] = render(
            Msg("the écart, {points} points, to the {camp}", points=rest, camp=camp)
            if contract.takes_chien else
            Msg("the chien, {points} points, to the {camp}", points=rest, camp=camp))
        data["restSum"] = rest_sum(contract.takes_chien, aside, _CAMPS[kernel.unplayed_camp(
            contract)], taker_half, total - taker_half)
    data["score"] = _score_lines(deal)
    data["status"] = Status.SCORED.value
    res: dict[str, Any] = {}
    if deal.scores:
        res["scores"] = " ".join(f"{s}{v:+d}" for s, v in deal.scores.items())
    notes_of(*others.get(("result", 0), _NO_NOTE), res)
    data["result"] = res or None
    return data


def index_row(deal: FastDeal, number: int, file: str, index: int) -> dict[str, Any]:
    """:func:`.data.index_row` of a plain clean deal."""
    facts = deal.facts
    taker = facts.seats[facts.taker]
    return row_of(number, file, index, 0, 0, facts.tags, len(facts.seats), facts.contract,
                  taker, facts.names[facts.taker], Status.SCORED, facts.made, facts.margin,
                  facts.scores.get(taker), names=[n for n in facts.names if n],
                  flags=deal_flags(facts.chelem, facts.chelem_announced, facts.petit_au_bout,
                                   bool(facts.poignees)))
