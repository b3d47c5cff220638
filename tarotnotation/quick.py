"""A quick check of JSON records in the usual shape: clean and scored, or "look closer".

Checking an archive spends most of its time building each record (pydantic) and replaying
it (:mod:`tarotnotation.replay`), though nearly every deal of a real archive is clean.
:func:`quick_check` takes a parsed JSON record and, when it has the usual shape of a
complete deal (3, 4 or 5 players, every hand and the chien recorded, an auction of one
bid each, at five players the card called, the écart when the chien is taken, poignées
shown with their cards, a chelem announced by the taker, all the tricks, a result with at
most the scores) and the rules find nothing wrong with it, returns its status, scores and
the taker's half-points, with no record built and no replay. It works on all the tricks
at once (see :func:`tarotnotation.judge.judge`): each trick's winner from its cards alone, then each
player's hand before each trick from the cards he played later, then only the tricks
where someone did not follow the suit led are gone through card by card, against a table
of what each card forbids in the hand. On anything else (another shape, any fault, any
doubt) it returns None, and the caller reads the record and replays it, which words every
diagnostic. So it may only ever say *clean* when the replay would find the deal clean,
with the same scores: ``tests/twins/test_fast_paths.py`` checks it against the replay on
generated deals, on every example, and on generated deals with faults injected.

However a deal was read, it is checked in one place: the compiled scanners cut a record
into parts (``_kernel.scan_json``, ``_kernel.scan_text``), a parsed record or the text
scanner's data is put into the same parts (``_data_parts``, with the checks of the
usual shape the parts cannot hold), and so is a record already built
(``_record_parts``); ``_judge`` checks the rest of the shape and calls
:func:`tarotnotation.judge.judge`, the rules, for all of them.

>>> import random
>>> from tarotnotation.formats import json as tjson
>>> from tarotnotation.simulate import random_deal
>>> rec = random_deal(random.Random(3), 4)
>>> status, scores, half = quick_check(tjson.to_dict(rec))
>>> from tarotnotation.replay import replay
>>> r = replay(rec)
>>> (status, scores, half) == (r.status, r.scores, r.taker_half)
True
>>> bad = tjson.to_dict(rec)
>>> bad["play"][0]["cards"][0], bad["play"][0]["cards"][1] = (
...     bad["play"][0]["cards"][1], bad["play"][0]["cards"][0])
>>> quick_check(bad) is None
True
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import chain, compress, repeat
from operator import attrgetter, itemgetter, methodcaller
from typing import TYPE_CHECKING, Any, Final, NamedTuple, cast

from . import native
from .cards import BIT_OF_CODE, Card
from .fields import (
    BID_WORDS,
    DECL_KEYS,
    DEFAULT_SEATS,
    ECART_KEYS,
    NAME_RE,
    NOTE_KEYS,
    SEAT_KEYS,
    Points,
    UnusualDataError,
    check_notes,
    check_tags,
    keys_of,
)
from .judge import (
    ASK,
    SCORES_KEPT,
    QuickFacts,
    forget_scores,
    judge,
    look_closer,
)
from .lexicon import GLYPH_SET, SEAT_ID_RE
from .limits import MAX_JSON_RECORD_BYTES
from .plausibility import Facts, check
from .rules import (
    Camp,
    Contract,
    FivePlayerFirstLead,
    PetitInChien,
    Ruleset,
    table,
)
from .status import Status

if TYPE_CHECKING:  # (a record's model: imported only by what reads one)
    from .records import DealRecord

__all__ = [
    "BulkAnswer",
    "QuickFacts",
    "bulk_checker",
    "forget_scores",
    "parts_checker",
    "quick_check",
    "quick_check_line",
    "quick_check_record",
    "quick_facts",
    "quick_facts_line",
    "quick_facts_reader",
    "quick_facts_scanned",
]

_INT: Final[dict[str, int]] = {c.code: int(c) for c in Card}
# The keys of the usual shape: narrower than the record's own (builder.*_KEYS) where the
# quick check leaves something to the replay (written seats and leaders, a poignée's
# size, a result beyond the scores).
_RECORD_KEYS: Final = frozenset({"tarotnotation", "tags", "ruleset", "players", "seats",
                                 "dealer", "hands", "chien", "auction", "call", "ecart",
                                 "declarations", "play", "result"}) | NOTE_KEYS
_CARD_KEYS: Final = frozenset({"card"}) | NOTE_KEYS
_CALL_KEYS: Final = _CARD_KEYS  # (fields.CALL_KEYS: the card called, notes)
_TRICK_KEYS: Final = frozenset({"cards"}) | NOTE_KEYS
_BID_KEYS: Final = frozenset({"contract"}) | NOTE_KEYS
_POIGNEE_KEYS: Final = frozenset({"kind", "seat", "cards"}) | NOTE_KEYS
_RESULT_KEYS: Final = frozenset({"scores"}) | NOTE_KEYS
#: The facts a result may record beside the scores, each checked against the play's and
#: by the plausibility checks as the replay checks them (a partner, an annulment: left to
#: the replay).
_FACT_KEYS: Final = frozenset({"contract", "taker", "taker_points", "bouts", "petit_au_bout",
                               "chelem"})
_CONTRACT_OF: Final = {c.keyword: c for c in Contract}
_CAMP_NAMED: Final = {c.value: c for c in Camp}
_MINUS_ONE: Final = (-1).__add__
_MORE_THAN_ONE: Final = (1).__lt__
_CARD_OF: Final = attrgetter("card")
_SEAT_OF: Final = attrgetter("seat")
_PLAIN: Final = tuple(range(78))
_MAX_ITEMS: Final = 1000
_INT64: Final = 1 << 63
_CARD_KEY: Final = itemgetter("card")
_BITS: Final = itemgetter(0)  # (of a hand as the scanners give it: bits, size)
_SIZE: Final = itemgetter(1)
_CARDS_KEY: Final = itemgetter("cards")
_DICT: Final = {dict}
_STR: Final = {str}
_LIST: Final = {list}
_SEQUENCES: Final = {list, tuple}  # (a tuple: no comments)
_GLYPH_OF: Final = methodcaller("get", "glyph")
_COMMENTS_OF: Final = methodcaller("get", "comments", ())
_INT_TYPE: Final = {int}
_CONTRACT_KEY: Final = itemgetter("contract")
#: The seats' ids of a record that names none.
_PLAIN_IDS: Final = {n: list(DEFAULT_SEATS[n]) for n in (3, 4, 5)}
#: No names, for a record whose seats have none.
_NO_NAMES: Final = {n: (None,) * n for n in (3, 4, 5)}
_NO_NAMES_LIST: Final = {n: [None] * n for n in (3, 4, 5)}
#: The seats of a record that names none, as written in JSON.
_PLAIN_SEATS: Final = {n: [{"id": sid} for sid in DEFAULT_SEATS[n]] for n in (3, 4, 5)}
#: Each bid's word (``fields.BID_WORDS`` the other way).
_WORD_OF: Final = {contract: word for word, contract in BID_WORDS.items()}
#: A deal in parts, as the compiled scanners cut a record (``_kernel.scan_json``,
#: ``_kernel.scan_text``) and as :func:`_data_parts` and :func:`_record_parts` give a
#: parsed record and a record model: (players, tags, own ruleset, seat ids, dealer, hand
#: keys, hands as (bits, size), chien (bits, size), bid words, écart (bits, size) or None,
#: the cards played, the cards' notes, scores, comments, glyph, declarations as (kind,
#: seat, shown), seat names, the card called).
Parts = tuple[Any, ...]





def quick_check(obj: Any, ruleset: str | None = None, default_ruleset: str | None = None
                ) -> tuple[Status, dict[str, int], int] | None:
    """``(status, scores by seat, taker's half-points)`` of a clean deal in the usual
    shape, or None (see the module doc). ``ruleset`` overrides the record's own,
    ``default_ruleset`` applies when it names none, as in
    :func:`tarotnotation.archive.check_deal`."""
    try:
        facts = _data_facts(obj, ruleset, default_ruleset)
    except (UnusualDataError, ValueError, KeyError, TypeError, IndexError):
        return None
    return facts.status, facts.scores, facts.taker_half


def quick_facts(obj: Any, ruleset: str | None = None, default_ruleset: str | None = None
                ) -> QuickFacts | None:
    """:func:`quick_check` with every fact of the deal (contract, taker, bouts, petit au
    bout, chelem, poignées, the score), for the archive tools: the same judgement, so
    None whenever :func:`quick_check` says None.

    >>> import random
    >>> from tarotnotation.formats import json as tjson
    >>> from tarotnotation.replay import replay
    >>> from tarotnotation.simulate import random_deal
    >>> rec = random_deal(random.Random(3), 4)
    >>> facts, r = quick_facts(tjson.to_dict(rec)), replay(rec)
    >>> assert facts is not None
    >>> assert r.score is not None
    >>> (facts.contract, rec.seat_ids[facts.taker], facts.bouts, facts.made, facts.margin) == (
    ...     r.contract, r.taker, r.bouts, r.score.made, abs(r.score.margin_points))
    True
    """
    try:
        return _data_facts(obj, ruleset, default_ruleset)
    except (UnusualDataError, ValueError, KeyError, TypeError, IndexError):
        return None


def quick_check_record(record: DealRecord, ruleset: str | None = None,
                       default_ruleset: str | None = None
                       ) -> tuple[Status, dict[str, int], int] | None:
    """:func:`quick_check` of a record already read (from the text notation, say)."""
    try:
        facts = _judge(_record_parts(record), ruleset, default_ruleset, ASK)
    except (UnusualDataError, ValueError, KeyError, TypeError, IndexError):
        return None
    return facts.status, facts.scores, facts.taker_half


def _all_notes(items: list[Any], allowed: frozenset[str]) -> None:
    """``check_notes(keys_of(item, allowed))`` of each item, a few passes over them all."""
    if set(map(type, items)) - _DICT or not all(map(allowed.issuperset, items)):
        raise look_closer()
    glyphs = set(map(_GLYPH_OF, items))  # TypeError: a glyph that is not a string
    glyphs.discard(None)
    comments = list(map(_COMMENTS_OF, items))
    if (not glyphs <= GLYPH_SET or set(map(type, comments)) - _SEQUENCES
            or set(map(type, chain.from_iterable(comments))) - _STR):
        raise look_closer()


def _counted(codes: Any) -> tuple[int, int]:
    """The cards of a list of card codes and how many codes it holds (a code twice: not
    as many bits), as the scanners give a hand: ``(bits, size)``."""
    if type(codes) is not list:
        raise look_closer()
    return sum(map(BIT_OF_CODE.__getitem__, codes)), len(codes)  # KeyError, TypeError


def _data_facts(obj: Any, override: str | None, default: str | None, twin: Any = ASK
                ) -> QuickFacts:
    """:func:`_judge` of a parsed record (:func:`_data_parts`)."""
    parts, stated = _data_parts(obj)
    return _judge(parts, override, default, twin, stated)


def _seat(value: Any) -> str:
    if type(value) is not str or SEAT_ID_RE.fullmatch(value) is None:
        raise look_closer()
    return value


def _data_parts(obj: Any) -> tuple[Parts, _Recorded | None]:
    """A parsed JSON record (or the fast scanner's data) in the parts the compiled
    scanners cut a record into, after the checks of the usual shape the parts cannot
    hold (known keys, exact types, notes on bids, tricks, the call, the écart and the
    declarations, each trick whole, nothing shown of the écart), and the facts its result
    records beside the scores; :func:`_judge` checks the rest."""
    data = keys_of(obj, _RECORD_KEYS)
    if data.get("tarotnotation", 1) != 1:
        raise look_closer()
    n = data["players"]
    if type(n) is not int or n not in (3, 4, 5):
        raise look_closer()
    tab = table(n)
    check_notes(data)
    tags = data.get("tags", [])
    if type(tags) is not list or len(tags) > _MAX_ITEMS or any(
            type(t) is not list or len(t) != 2 or type(t[0]) is not str
            or type(t[1]) is not str for t in tags):
        raise look_closer()
    own = data.get("ruleset")
    if "ruleset" in data and type(own) is not str:
        raise look_closer()

    # Seats (none, or the plain ones: the default seats).
    seats = data.get("seats")
    seat_ids: list[Any] | None = None
    seat_names: list[str | None] | None = None
    if seats and seats != _PLAIN_SEATS[n]:
        if type(seats) is not list:
            raise look_closer()
        seat_ids, seat_names = [], []
        for item in seats:
            item = keys_of(item, SEAT_KEYS)
            name = item.get("name")
            if name is not None and type(name) is not str:
                raise look_closer()
            seat_ids.append(item["id"])
            seat_names.append(name)

    # Hands and chien, all recorded.
    hands = data["hands"]
    if type(hands) is not dict:
        raise look_closer()
    codes_held = list(hands.values())
    if set(map(type, codes_held)) - _LIST:
        raise look_closer()
    held = list(zip(map(sum, map(map, repeat(BIT_OF_CODE.__getitem__), codes_held)),
                    map(len, codes_held), strict=True))  # KeyError, TypeError: not codes
    chien = _counted(data["chien"])

    # Auction: one bid each (the seats follow from the order of speech).
    auction = data["auction"]
    if type(auction) is not list:
        raise look_closer()
    if set(map(type, auction)) - _DICT:
        raise look_closer()
    if sum(map(len, auction)) != len(auction):  # notes on bids
        for bid in auction:
            check_notes(keys_of(bid, _BID_KEYS))
    words = list(map(_CONTRACT_KEY, auction))  # KeyError: a bid without a contract
    if set(map(type, words)) - _STR:
        raise look_closer()

    # The call (the judge wants one at five players only).
    call = data.get("call")
    called: int | None = None
    if call is not None:
        call = keys_of(call, _CALL_KEYS)
        check_notes(call)
        called = _INT[call["card"]]  # KeyError, TypeError: not a card's code

    # The écart, if any: its cards, nothing shown.
    ecart_data = data.get("ecart")
    ecart: tuple[int, int] | None = None
    if ecart_data is not None:
        ecart_data = keys_of(ecart_data, ECART_KEYS)
        check_notes(ecart_data)
        if ecart_data.get("shown", []) != []:
            raise look_closer()
        ecart = _counted(ecart_data["cards"])

    # Declarations: poignées shown with their cards (each card once), chelems announced.
    declared = data.get("declarations", [])
    if type(declared) is not list:
        raise look_closer()
    declarations: list[tuple[str, Any, tuple[int, int] | None]] = []
    for decl in declared:
        if type(decl) is dict and decl.get("kind") == "chelem":
            check_notes(keys_of(decl, DECL_KEYS["chelem"]))
            declarations.append(("chelem", decl["seat"], None))
            continue
        decl = keys_of(decl, _POIGNEE_KEYS)
        check_notes(decl)
        if decl["kind"] != "poignee":
            raise look_closer()
        shown = _counted(decl["cards"])
        if shown[0].bit_count() != shown[1]:
            raise look_closer()
        declarations.append(("poignee", decl["seat"], shown))

    # The play: every trick, whole, its cards as ints.
    play = data["play"]
    if type(play) is not list or len(play) != tab.tricks:
        raise look_closer()
    # (Items of another type raise TypeError: lists, strings and numbers have no "cards"
    # nor "card" key, the cards of a dict or a string of n items are strings.)
    by_trick = list(map(_CARDS_KEY, play))  # KeyError: a trick without cards
    if sum(map(len, play)) != len(play):  # notes on tricks
        for trick in compress(play, map(_MORE_THAN_ONE, map(len, play))):
            check_notes(keys_of(trick, _TRICK_KEYS))
    if set(map(len, by_trick)) != {n}:
        raise look_closer()
    pcs = list(chain.from_iterable(by_trick))
    codes = list(map(_INT.__getitem__, map(_CARD_KEY, pcs)))  # KeyError, TypeError
    if sum(map(len, pcs)) != len(pcs):  # annotated cards
        _all_notes(list(compress(pcs, map(_MORE_THAN_ONE, map(len, pcs)))), _CARD_KEYS)

    # The recorded result: the scores, and the facts of the deal it may give.
    result = data.get("result")
    recorded: dict[str, int] | None = None
    stated: _Recorded | None = None
    if result is not None:
        result = keys_of(result, _RESULT_KEYS | _FACT_KEYS)
        check_notes(result)
        if not result.keys() <= _RESULT_KEYS:
            stated = _recorded_facts(result)
        recorded = result.get("scores")
        if recorded is not None:
            if type(recorded) is not dict:
                raise look_closer()
            values = recorded.values()
            if values and set(map(type, values)) != _INT_TYPE:
                raise look_closer()
    return (n, tags, own, seat_ids, data.get("dealer"), list(hands), held, chien, words,
            ecart, codes, None, recorded, data.get("comments"), None, declarations,
            seat_names, called), stated


def _record_parts(rec: DealRecord) -> Parts:
    """A record already read in the parts of :func:`_data_parts` (the model has checked
    its types and notes); a record beyond the usual shape (hands or the chien missing,
    seats on bids or cards, leaders, cards shown of the écart, a misère, a poignée by its
    size, a result beyond the scores) looks closer."""
    from .records import ChelemAnnouncement, Poignee  # (loaded already: rec is one)

    n = rec.players
    hands = rec.hands
    if hands is None or rec.chien is None:
        raise look_closer()
    words = []
    for bid in rec.auction:
        if bid.seat is not None:
            raise look_closer()
        words.append(_WORD_OF[bid.contract])
    ecart: tuple[int, int] | None = None
    if rec.ecart is not None:
        if rec.ecart.cards is None or rec.ecart.shown:
            raise look_closer()
        ecart = _size_of(rec.ecart.cards.bits)
    declarations: list[tuple[str, str, tuple[int, int] | None]] = []
    for decl in rec.declarations:
        if type(decl) is ChelemAnnouncement:
            declarations.append(("chelem", decl.seat, None))
            continue
        if type(decl) is not Poignee or decl.cards is None or decl.size is not None:
            raise look_closer()
        declarations.append(("poignee", decl.seat, _size_of(decl.cards.bits)))
    cards: list[int] = []
    for trick in rec.play:
        if trick.leader is not None:
            raise look_closer()
        pcs = trick.cards
        if len(pcs) != n or list(map(_SEAT_OF, pcs)).count(None) != n:
            raise look_closer()
        cards.extend(map(_PLAIN.__getitem__, map(_CARD_OF, pcs)))
    res = rec.result
    recorded = None
    if res is not None:
        if (res.contract is not None or res.taker is not None or res.partner is not None
                or res.taker_points is not None or res.bouts is not None
                or res.petit_au_bout is not None or res.chelem is not None or res.annulled):
            raise look_closer()
        recorded = res.scores
    return (n, rec.tags, rec.ruleset if "ruleset" in rec.model_fields_set else None,
            [seat.id for seat in rec.seats], rec.dealer, list(hands),
            [_size_of(cs.bits) for cs in hands.values()], _size_of(rec.chien.bits), words,
            ecart, cards, None, recorded, None, None, declarations,
            [seat.name for seat in rec.seats], None if rec.call is None else int(rec.call.card))


def _size_of(bits: int) -> tuple[int, int]:
    """A set of cards as the scanners give a hand: ``(bits, size)``."""
    return bits, bits.bit_count()


#: The facts a result records beside the scores (None: not recorded). (Types as values:
#: see QuickFacts.)
_Recorded = NamedTuple("_Recorded", [  # noqa: UP014 (see QuickFacts)
    ("contract", Contract | None),
    ("taker", str | None),
    ("points", Points | None),
    ("bouts", int | None),
    ("petit_au_bout", Camp | None),
    ("chelem", Camp | None),
])


def _recorded_facts(result: dict[str, Any]) -> _Recorded:
    """The facts of a result in the usual shape (as :func:`tarotnotation.builder` takes
    them: exact types, card points a deal can give)."""
    contract = result.get("contract")
    if contract is not None:
        contract = _CONTRACT_OF[contract]  # KeyError, TypeError: not a contract's keyword
    taker = result.get("taker")
    if taker is not None:
        taker = _seat(taker)
    points = result.get("taker_points")
    if points is not None:
        if type(points) is not int and type(points) is not float:
            raise look_closer()
        try:
            points = Points.parse(points)
        except (ValueError, OverflowError):
            raise look_closer() from None
        if not points.is_card_points:
            raise look_closer()
    bouts = result.get("bouts")
    if bouts is not None and (type(bouts) is not int or not 0 <= bouts <= 3):
        raise look_closer()
    pab, chelem = (result.get(key) for key in ("petit_au_bout", "chelem"))
    return _Recorded(contract, taker, points, bouts,
                     None if pab is None else _CAMP_NAMED[pab],  # KeyError, TypeError
                     None if chelem is None else _CAMP_NAMED[chelem])


def _check_recorded(judged: QuickFacts, given: _Recorded, rules: Ruleset,
                    ids: tuple[str, ...], poignees: tuple[tuple[int, int, int], ...],
                    scores: dict[str, int] | None) -> None:
    """A result's facts, as the replay checks them: each the play's (else a mismatch:
    look closer), and what the plausibility checks say of them all together
    (:func:`tarotnotation.plausibility.check`, with the facts the replay gives it)."""
    if ((given.contract is not None and given.contract is not judged.contract)
            or (given.taker is not None and given.taker != ids[judged.taker])
            or (given.points is not None and given.points.exact_half != judged.taker_half)
            or (given.bouts is not None and given.bouts != judged.bouts)
            or (given.petit_au_bout is not None
                and given.petit_au_bout is not judged.petit_au_bout)
            or (given.chelem is not None and given.chelem is not judged.chelem)):
        raise look_closer()
    recorded = scores or {}
    facts = Facts(
        players=len(ids), rules=rules, seat_ids=ids, contract=judged.contract,
        taker=judged.taker, partner=judged.partner, partner_known=True,
        points=None if given.points is None else given.points.value,
        points_written=None if given.points is None else str(given.points),
        bouts=given.bouts, petit_au_bout=given.petit_au_bout, chelem=given.chelem,
        chelem_announced=judged.chelem_announced, poignees=poignees,
        scores=tuple(recorded.get(sid) for sid in ids))
    if check(facts):
        raise look_closer()


def quick_check_line(line: bytes, ruleset: str | None = None,
                     default_ruleset: str | None = None
                     ) -> tuple[tuple[Status, dict[str, int], int], Any] | None:
    """:func:`quick_check` of one JSON Lines record (its bytes, without blanks around),
    and its tags as read (for :func:`tarotnotation.plausibility.deal_number`); None when
    it is not a plain clean deal, or not JSON.

    With the compiled core, a record in the canonical layout is scanned in C
    (``_kernel.scan_json``: no ``dict`` built) and its parts checked here as
    :func:`quick_check` checks the parsed record; any other line is parsed with orjson.
    ``tests/twins/test_quick_native.py`` holds the two ways to the same answers.
    """
    judged = _line_facts(line, ruleset, default_ruleset, native.compiled())
    if judged is None:
        return None
    facts, tags = judged
    return (facts.status, facts.scores, facts.taker_half), tags


def quick_facts_line(line: bytes, ruleset: str | None = None,
                     default_ruleset: str | None = None) -> QuickFacts | None:
    """:func:`quick_facts` of one JSON Lines record (its bytes, without blanks around),
    read as :func:`quick_check_line` reads it (the C scanner, else orjson): the facts of
    a plain clean deal and the deal as read, for the archive tools; None when it is not
    one, or not JSON.

    >>> import random
    >>> from tarotnotation.formats import json as tjson
    >>> from tarotnotation.simulate import random_deal
    >>> rec = random_deal(random.Random(3), 4)
    >>> line = tjson.dumps_bytes(rec)
    >>> facts = quick_facts_line(line)
    >>> facts == quick_facts(tjson.to_dict(rec)), facts.seats, len(facts.play)
    (True, ('S', 'E', 'N', 'W'), 72)
    >>> quick_facts_line(line.replace(b'"players":4', b'"players":5')) is None
    True
    """
    judged = _line_facts(line, ruleset, default_ruleset, native.compiled())
    return None if judged is None else judged[0]


def quick_facts_reader(ruleset: str | None = None, default_ruleset: str | None = None
                       ) -> Callable[[bytes], QuickFacts | None]:
    """:func:`quick_facts_line` as a function of the line alone, the compiled twin looked
    up once (not once a line), for a stream of lines.

    >>> import random
    >>> from tarotnotation.formats import json as tjson
    >>> from tarotnotation.simulate import random_deal
    >>> line = tjson.dumps_bytes(random_deal(random.Random(3), 4))
    >>> quick_facts_reader("pagat")(line) == quick_facts_line(line, "pagat")
    True
    """
    twin = native.compiled()

    def facts_of(line: bytes) -> QuickFacts | None:
        judged = _line_facts(line, ruleset, default_ruleset, twin)
        return None if judged is None else judged[0]

    return facts_of


def quick_facts_scanned(parts: tuple[Any, ...], ruleset: str | None = None,
                        default_ruleset: str | None = None, twin: Any = ASK
                        ) -> QuickFacts | None:
    """:func:`quick_facts` of a record in the parts a compiled scanner cut it into
    (``_kernel.scan_json``, or ``_kernel.scan_text`` through
    :mod:`tarotnotation.notation.bulk`), checked as :func:`quick_facts_line` checks them;
    None when it is not a plain clean deal. ``twin``: the compiled core (by default
    ``native.compiled()``), or None for the pure-Python play."""
    if twin is ASK:
        twin = native.compiled()
    try:
        return _judge(parts, ruleset, default_ruleset, twin)
    except (UnusualDataError, ValueError, KeyError, TypeError, IndexError):
        return None


def parts_checker(ruleset: str | None = None, default_ruleset: str | None = None
                  ) -> Callable[[tuple[Any, ...]], tuple[int, dict[str, int]] | None] | None:
    """:func:`quick_facts_scanned`'s judgement in C, or None (the pure paths): ``check(parts)``
    says ``(taker's half-points, scores by seat)`` of a record in the parts of
    ``_kernel.scan_text`` (or ``scan_json``) when :func:`quick_facts_scanned` would say it
    is clean with those scores, else None where it does not settle it (then the caller
    asks :func:`quick_facts_scanned`). It runs ``_kernel.judge_parts``: the checks of
    ``_judge`` that are not rules, then the bulk check's C twin of the rules
    (``csrc/bulk.h``), under the ruleset of each record (``ruleset`` overrides it,
    ``default_ruleset`` stands for none). ``tests/twins/test_textscan.py`` holds the two to the
    same answers.

    >>> import random
    >>> from tarotnotation.notation import bulk, dumps_bytes
    >>> from tarotnotation.simulate import random_deal
    >>> text = dumps_bytes(random_deal(random.Random(3), 4))
    >>> check, twin = parts_checker(), native.compiled()
    >>> if check is not None and twin is not None:  # (compiled)
    ...     parts = bulk.normalized(twin.scan_text(text, 0, True)[0])
    ...     facts = quick_facts_scanned(parts)
    ...     assert check(parts) == (facts.taker_half, facts.scores)
    """
    twin = native.compiled()
    if twin is None:
        return None
    judge_parts = twin.judge_parts
    flags_of: dict[str | None, int | None] = {}

    def flags(own: str | None) -> int | None:
        spec = ruleset if ruleset is not None else own if own is not None else default_ruleset
        try:
            if own is not None:
                Ruleset.from_spec(own)  # an unknown spec: the record is not read
            rules = Ruleset.from_spec(spec) if spec is not None else Ruleset.fft()
        except ValueError:
            return None
        return _bulk_flags(rules)

    def check(parts: tuple[Any, ...]) -> tuple[int, dict[str, int]] | None:
        own = parts[2]
        try:
            value = flags_of[own]
        except KeyError:
            if len(flags_of) >= SCORES_KEPT:
                flags_of.clear()
            value = flags_of[own] = flags(own)
        if value is None:
            return None
        answer: tuple[int, dict[str, int]] | None = judge_parts(parts, value)
        return answer

    return check


#: What :func:`bulk_checker`'s function says of each line: a clean deal's taker's
#: half-points, scores by seat and tags (when one is a ``Deal`` tag, else None), or None.
BulkAnswer = tuple[int, dict[str, int], list[tuple[str, str]] | None] | None


def bulk_checker(ruleset: str | None = None, default_ruleset: str | None = None
                 ) -> Callable[[tuple[bytes, ...], int], list[BulkAnswer]] | None:
    """The quick check of JSON Lines in bulk, by the compiled core, or None (the pure
    paths, or a ruleset that cannot be read): ``check(lines, start)`` judges each line of
    ``lines[start:]`` (as the JSON Lines reader splits them, blanks around) in C, with no
    Python object built for a clean deal but its answer (``_kernel.check_lines``, the C
    twin of :func:`quick_check_line` over the kernel's compiled twin). For each line it
    says ``(taker's half-points, scores by seat, tags)`` when :func:`quick_check_line`
    would say clean with those scores, or None where it does not settle the line (not the
    canonical layout, any fault or doubt, a blank line): the caller runs
    :func:`quick_check_line` there, then the reader and the replay. A record's own ruleset
    is read here once per spec met (``ruleset`` overrides it, ``default_ruleset`` applies
    when it names none, as in :func:`quick_check_line`). ``tests/twins/test_quick_bulk.py``
    holds the two to the same answers.

    >>> import random
    >>> from tarotnotation.formats import json as tjson
    >>> from tarotnotation.simulate import random_deal
    >>> line = tjson.dumps_bytes(random_deal(random.Random(3), 4))
    >>> check = bulk_checker()
    >>> if check is not None:  # (compiled)
    ...     [(half, scores, tags)] = check((line + b"\\n",), 0)
    ...     assert quick_check_line(line)[0][1:] == (scores, half)
    """
    twin = native.compiled()
    if twin is None:
        return None
    spec = ruleset if ruleset is not None else default_ruleset
    try:
        rules = Ruleset.from_spec(spec) if spec is not None else Ruleset.fft()
        forced = Ruleset.from_spec(ruleset) if ruleset is not None else None
    except ValueError:
        return None
    flags = _bulk_flags(rules)
    check_lines = twin.check_lines
    limit = MAX_JSON_RECORD_BYTES
    specs: dict[bytes, int] = {}  # a record's own ruleset as written: its flags, or -1

    def check(lines: tuple[bytes, ...], start: int) -> list[BulkAnswer]:
        answers = check_lines(lines, start, flags, limit, specs)
        for at, answer in enumerate(answers):
            if type(answer) is bytes:  # a ruleset of its own, not met yet
                if len(specs) >= _SPECS_KEPT:
                    specs.clear()
                specs[answer] = _own_flags(answer, forced)
                answers[at] = check_lines((lines[start + at],), 0, flags, limit, specs)[0]
        return cast("list[BulkAnswer]", answers)

    return check


_SPECS_KEPT: Final = 1024


def _bulk_flags(rules: Ruleset) -> int:
    """The compiled bulk check's flags of a ruleset (native.rule_flags, the Petit in the
    chien and the first lead at five players)."""
    flags = native.rule_flags(rules)
    if rules.petit_in_chien is PetitInChien.ANNULS:
        flags |= native.PETIT_IN_CHIEN_ANNULS
    if rules.five_player_first_lead is FivePlayerFirstLead.FREE:
        flags |= native.FIRST_LEAD_FREE
    return flags


def _own_flags(written: bytes, forced: Ruleset | None) -> int:
    """The flags a record whose ruleset is ``written`` is checked with (``forced``
    overrides it, though it must still be a ruleset), or -1 when it is not a ruleset
    (the record is not read: today's path says why)."""
    try:
        own = Ruleset.from_spec(written.decode())
    except (UnusualDataError, ValueError, KeyError, TypeError, IndexError):
        return -1
    return _bulk_flags(forced if forced is not None else own)


def _line_facts(line: bytes, ruleset: str | None, default: str | None, twin: Any
                ) -> tuple[QuickFacts, Any] | None:
    """The facts of one JSON Lines record and its tags as read, or None (``twin``: the
    compiled core, or None for the pure paths)."""
    parts = None if twin is None else twin.scan_json(line)
    if parts is not None:
        try:
            return _judge(parts, ruleset, default, twin), parts[1]
        except (UnusualDataError, ValueError, KeyError, TypeError, IndexError):
            return None
    import orjson  # (here: the notation and the scanned lines need no JSON reader)

    try:
        obj = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    if type(obj) is not dict:
        return None
    try:
        return _data_facts(obj, ruleset, default, twin), obj.get("tags")
    except (UnusualDataError, ValueError, KeyError, TypeError, IndexError):
        return None


def _judge(parts: Parts, override: str | None, default: str | None, twin: Any,
           stated: _Recorded | None = None) -> QuickFacts:
    """The quick check of a deal in parts, whichever way it was read: the parts
    ``_kernel.scan_json`` and ``_kernel.scan_text`` cut a record into (they took only
    the canonical layout: known keys once each, card codes, a card once in a hand or a
    poignée, notes only on the deal and on cards, the call's card), a parsed record's
    (:func:`_data_parts`) or a record model's (:func:`_record_parts`); the checks of the
    usual shape they leave, then :func:`tarotnotation.judge.judge`, then the facts the
    result records beside the scores (``stated``), as the replay checks them."""
    (n, tags, own, seat_ids, dealer, hand_keys, hands, chien, words, ecart, cards, notes,
     recorded, comments, glyph, declarations, seat_names, called) = parts
    tab = table(n)
    if glyph is not None and glyph not in GLYPH_SET:
        raise look_closer()
    if tags is None:
        tags = []
    if len(tags) > _MAX_ITEMS:
        raise look_closer()
    check_tags(tags)
    if comments is not None and len(comments) > _MAX_ITEMS:
        raise look_closer()
    if own is not None:
        Ruleset.from_spec(own)  # an unknown spec: the record is not read
    spec = override if override is not None else own if own is not None else default
    rules = Ruleset.from_spec(spec) if spec is not None else Ruleset.fft()

    # Seats.
    if not seat_ids or (seat_ids == _PLAIN_IDS[n] and seat_names == _NO_NAMES_LIST[n]):
        ids: tuple[str, ...] = DEFAULT_SEATS[n]
        names: tuple[str | None, ...] = _NO_NAMES[n]
    else:
        if len(seat_ids) != n:
            raise look_closer()
        ids = tuple(map(_seat, seat_ids))
        if len(set(ids)) != n:
            raise look_closer()
        names = tuple(seat_names)
        for name in names:  # (the scanner takes no escape: never a line break)
            if name is not None and not NAME_RE.fullmatch(name):
                raise look_closer()
    dealt = None if dealer is None else ids.index(dealer)  # ValueError: not a seat
    first = 0 if dealt is None else (dealt + 1) % n

    # Hands and chien, all recorded (a card twice in a hand: fewer bits than cards).
    if len(hand_keys) != n:
        raise look_closer()
    by_seat = dict(zip(hand_keys, hands, strict=True))
    held = list(map(by_seat.__getitem__, ids))  # KeyError: another seat
    if set(map(_SIZE, held)) != {tab.hand} or chien[1] != tab.chien:
        raise look_closer()
    given = list(map(_BITS, held))

    bids = list(map(BID_WORDS.__getitem__, words))
    ecart_bits: int | None = None
    if ecart is not None:
        if ecart[1] != tab.chien:
            raise look_closer()
        ecart_bits = ecart[0]

    # Declarations: poignées shown with their cards, chelems announced.
    poignees = []
    poignee_at = []  # (each poignée's place among the declarations)
    announcers = []
    for at, (kind, seat, shown) in enumerate(declarations or ()):
        if kind == "chelem" and shown is None:
            announcers.append(ids.index(_seat(seat)))
            continue
        if kind != "poignee" or shown is None:  # (cards twice: the scanner gave up)
            raise look_closer()
        poignees.append((ids.index(_seat(seat)), shown[0]))
        poignee_at.append(at)

    # The play: every trick whole (the scanner counted n cards a trick).
    if len(cards) != n * tab.tricks:
        raise look_closer()
    if notes:
        _all_notes([note for _, note in notes], _CARD_KEYS)
    if recorded is not None:
        values = recorded.values()
        if values and (min(values) < -_INT64 or max(values) >= _INT64):
            raise look_closer()
    judged = judge(n, rules, ids, first, given, chien[0], bids, called, ecart_bits, poignees,
                   announcers, cards, recorded or None, twin,
                   read=(names, dealt, tuple(map(tuple, tags)), own))
    if stated is not None:
        _check_recorded(judged, stated, rules, ids, tuple(
            (at, s, shown.bit_count()) for at, (s, shown) in zip(poignee_at, poignees,
                                                                 strict=True)), recorded)
    return judged
