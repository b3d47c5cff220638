"""A quick check of JSON records in the usual shape: clean and scored, or "look closer".

Checking an archive spends most of its time building each record (pydantic) and replaying
it (:mod:`tarotnotation.replay`), though nearly every deal of a real archive is clean.
:func:`quick_check` takes a parsed JSON record and, when it has the usual shape of a
complete deal (3 or 4 players, every hand and the chien recorded, an auction of one bid
each, the écart when the chien is taken, poignées shown with their cards, all the tricks,
a result with at most the scores) and the rules find nothing wrong with it, returns its
status, scores and the taker's half-points, with no record built and no replay. On
anything else (another shape, any fault, any doubt) it returns None, and the caller reads
the record and replays it, which words every diagnostic. So it may only ever say *clean*
when the replay would find the deal clean, with the same scores:
``tests/test_fast_paths.py`` checks it against the replay on generated deals, on every
example, and on generated deals with faults injected.

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

from operator import attrgetter
from typing import Any, Final

from .cards import (
    BOUTS_MASK,
    EXCUSE_BIT,
    KINGS_MASK,
    SUIT_MASKS,
    TRUMP_MASK,
    TRUMPS_ABOVE,
    Card,
    card_points,
)
from .records import (
    BID_WORDS,
    DEFAULT_SEATS,
    GLYPH_SET,
    NAME_RE,
    SEAT_ID_RE,
    DealRecord,
    Poignee,
    _check_tags,
)
from .replay import Status
from .rules import (
    Camp,
    Contract,
    ExcuseLastTrick,
    PetitAuBout,
    PetitInChien,
    Ruleset,
    table,
)
from .scoring import DealFacts, score

__all__ = ["quick_check", "quick_check_record"]

_BIT: Final[dict[str, int]] = {c.code: 1 << c for c in Card}
_INT: Final[dict[str, int]] = {c.code: int(c) for c in Card}
_RECORD_KEYS: Final = frozenset({"tarotnotation", "tags", "ruleset", "players", "seats",
                                 "dealer", "hands", "chien", "auction", "ecart",
                                 "declarations", "play", "result", "glyph", "comments"})
_NOTES: Final = frozenset({"glyph", "comments"})
_CARD_KEYS: Final = frozenset({"card"}) | _NOTES
_TRICK_KEYS: Final = frozenset({"cards"}) | _NOTES
_BID_KEYS: Final = frozenset({"contract"}) | _NOTES
_ECART_KEYS: Final = frozenset({"cards", "shown"}) | _NOTES
_POIGNEE_KEYS: Final = frozenset({"kind", "seat", "cards"}) | _NOTES
_RESULT_KEYS: Final = frozenset({"scores"}) | _NOTES
_SEAT_KEYS: Final = frozenset({"id", "name"})
_SUIT: Final = tuple(4 if c >= 56 else c // 14 for c in range(78))
_ROTATIONS: Final = {n: tuple(tuple((lead + c) % n for c in range(n)) for lead in range(n))
                     for n in (3, 4)}
_MAX_ITEMS: Final = 1000
_INT64: Final = 1 << 63
_BITS: Final = tuple(1 << c for c in range(78))
_PLAIN: Final = tuple(range(78))
_CARD_OF: Final = attrgetter("card")
_SEAT_OF: Final = attrgetter("seat")


class _LookCloserError(Exception):
    """Not a plain clean deal: the caller reads and replays it."""


def quick_check(obj: Any, ruleset: str | None = None, default_ruleset: str | None = None
                ) -> tuple[Status, dict[str, int], int] | None:
    """``(status, scores by seat, taker's half-points)`` of a clean deal in the usual
    shape, or None (see the module doc). ``ruleset`` overrides the record's own,
    ``default_ruleset`` applies when it names none, as in
    :func:`tarotnotation.archive.check_deal`."""
    try:
        return _check(obj, ruleset, default_ruleset)
    except (_LookCloserError, ValueError, KeyError, TypeError, IndexError):
        return None


def quick_check_record(record: DealRecord, ruleset: str | None = None,
                       default_ruleset: str | None = None
                       ) -> tuple[Status, dict[str, int], int] | None:
    """:func:`quick_check` of a record already read (from the text notation, say)."""
    try:
        return _check_record(record, ruleset, default_ruleset)
    except (_LookCloserError, ValueError, KeyError, TypeError, IndexError):
        return None


def _check_record(rec: DealRecord, override: str | None, default: str | None
                  ) -> tuple[Status, dict[str, int], int]:
    n = rec.players
    if n not in (3, 4) or rec.hands is None or rec.chien is None or rec.call is not None:
        raise _fail()
    if override is not None:
        spec = override
    elif default is not None and "ruleset" not in rec.model_fields_set:
        spec = default
    else:
        spec = rec.ruleset
    rules = Ruleset.from_spec(spec)
    ids = tuple(seat.id for seat in rec.seats)
    first = 0 if rec.dealer is None else (ids.index(rec.dealer) + 1) % n
    hands = rec.hands
    if len(hands) != n:
        raise _fail()
    given = [hands[sid].bits for sid in ids]
    bids = []
    for bid in rec.auction:
        if bid.seat is not None:
            raise _fail()
        bids.append(bid.contract)
    ecart: int | None = None
    if rec.ecart is not None:
        if rec.ecart.cards is None or rec.ecart.shown:
            raise _fail()
        ecart = rec.ecart.cards.bits
    poignees = []
    for decl in rec.declarations:
        if type(decl) is not Poignee or decl.cards is None or decl.size is not None:
            raise _fail()
        poignees.append((ids.index(decl.seat), decl.cards.bits))
    tricks = []
    for trick in rec.play:
        if trick.leader is not None:
            raise _fail()
        pcs = trick.cards
        if list(map(_SEAT_OF, pcs)).count(None) != len(pcs):
            raise _fail()
        tricks.append(list(map(_PLAIN.__getitem__, map(_CARD_OF, pcs))))
    res = rec.result
    recorded = None
    if res is not None:
        if (res.contract is not None or res.taker is not None or res.partner is not None
                or res.taker_points is not None or res.bouts is not None
                or res.petit_au_bout is not None or res.chelem is not None or res.annulled):
            raise _fail()
        recorded = res.scores
    return _judge(n, rules, ids, first, given, rec.chien.bits, bids, ecart, poignees, tricks,
                  recorded)


def _fail() -> _LookCloserError:
    return _LookCloserError()


def _notes(data: dict[str, Any]) -> None:
    glyph = data.get("glyph")
    if glyph is not None and (type(glyph) is not str or glyph not in GLYPH_SET):
        raise _fail()
    if "comments" in data:
        comments = data["comments"]
        if type(comments) is not list or any(type(c) is not str for c in comments):
            raise _fail()


def _keys(data: Any, allowed: frozenset[str]) -> dict[str, Any]:
    if type(data) is not dict or not data.keys() <= allowed:
        raise _fail()
    return data


def _bits(codes: Any, size: int) -> int:
    if type(codes) is not list or len(codes) != size:
        raise _fail()
    bits = sum(map(_BIT.__getitem__, codes))  # KeyError, TypeError: not card codes
    if bits.bit_count() != size:
        raise _fail()
    return bits


def _seat(value: Any) -> str:
    if type(value) is not str or SEAT_ID_RE.fullmatch(value) is None:
        raise _fail()
    return value


def _check(obj: Any, override: str | None, default: str | None
           ) -> tuple[Status, dict[str, int], int]:
    data = _keys(obj, _RECORD_KEYS)
    if data.get("tarotnotation", 1) != 1:
        raise _fail()
    n = data["players"]
    if type(n) is not int or n not in (3, 4):
        raise _fail()
    tab = table(n)
    _notes(data)
    tags = data.get("tags", [])
    if type(tags) is not list or len(tags) > _MAX_ITEMS or any(
            type(t) is not list or len(t) != 2 or type(t[0]) is not str
            or type(t[1]) is not str for t in tags):
        raise _fail()
    _check_tags(tags)
    if len(data.get("comments", ())) > _MAX_ITEMS:
        raise _fail()
    own = data.get("ruleset")
    if "ruleset" in data:
        if type(own) is not str:
            raise _fail()
        Ruleset.from_spec(own)  # an unknown spec: the record is not read
    spec = override if override is not None else own if own is not None else default
    rules = Ruleset.from_spec(spec) if spec is not None else Ruleset.fft()

    # Seats.
    seats = data.get("seats")
    if not seats:
        ids: tuple[str, ...] = DEFAULT_SEATS[n]
    else:
        if type(seats) is not list or len(seats) != n:
            raise _fail()
        out = []
        for item in seats:
            item = _keys(item, _SEAT_KEYS)
            name = item.get("name")
            if name is not None and (type(name) is not str or not NAME_RE.fullmatch(name)):
                raise _fail()
            out.append(_seat(item["id"]))
        ids = tuple(out)
        if len(set(ids)) != n:
            raise _fail()
    dealer = data.get("dealer")
    first = 0 if dealer is None else (ids.index(dealer) + 1) % n  # ValueError: not a seat

    # Hands and chien, all recorded.
    hands_data = data["hands"]
    if type(hands_data) is not dict or len(hands_data) != n:
        raise _fail()
    given = [_bits(hands_data[sid], tab.hand) for sid in ids]  # KeyError: another seat
    chien = _bits(data["chien"], tab.chien)
    union = chien
    for hand in given:
        if union & hand:
            raise _fail()
        union |= hand
        if hand & TRUMP_MASK == 1 << Card.T1 and not hand & EXCUSE_BIT:
            raise _fail()  # the Petit sec

    # Auction: one bid each (the seats follow from the order of speech).
    auction = data["auction"]
    if type(auction) is not list:
        raise _fail()
    bids = []
    for bid in auction:
        bid = _keys(bid, _BID_KEYS)
        _notes(bid)
        word = bid["contract"]
        if type(word) is not str:
            raise _fail()
        bids.append(BID_WORDS[word])

    # The écart, if any: its cards, nothing shown.
    ecart_data = data.get("ecart")
    ecart: int | None = None
    if ecart_data is not None:
        ecart_data = _keys(ecart_data, _ECART_KEYS)
        _notes(ecart_data)
        if ecart_data.get("shown", []) != []:
            raise _fail()
        ecart = _bits(ecart_data["cards"], tab.chien)

    # Declarations: poignées shown with their cards.
    declarations = data.get("declarations", [])
    if type(declarations) is not list:
        raise _fail()
    poignees = []
    for decl in declarations:
        decl = _keys(decl, _POIGNEE_KEYS)
        _notes(decl)
        if decl["kind"] != "poignee":
            raise _fail()
        codes = decl["cards"]
        if type(codes) is not list:
            raise _fail()
        poignees.append((ids.index(_seat(decl["seat"])), _bits(codes, len(codes))))

    # The play: every trick, whole, its cards as ints.
    play = data["play"]
    if type(play) is not list or len(play) != tab.tricks:
        raise _fail()
    tricks = []
    for trick in play:
        if type(trick) is not dict:
            raise _fail()
        if len(trick) > 1:
            _notes(_keys(trick, _TRICK_KEYS))
        cards_data = trick["cards"]
        if type(cards_data) is not list or len(cards_data) != n:
            raise _fail()
        tricks.append([_INT[pc["card"]] for pc in cards_data])  # TypeError, KeyError
        if sum(map(len, cards_data)) != n:  # annotated cards
            for pc in cards_data:
                _notes(_keys(pc, _CARD_KEYS))

    # The recorded result: at most the scores.
    result = data.get("result")
    recorded: dict[str, int] | None = None
    if result is not None:
        result = _keys(result, _RESULT_KEYS)
        _notes(result)
        recorded = result.get("scores")
        if recorded is not None:
            if type(recorded) is not dict:
                raise _fail()
            for value in recorded.values():
                if type(value) is not int or not -_INT64 <= value < _INT64:
                    raise _fail()
    return _judge(n, rules, ids, first, given, chien, bids, ecart, poignees, tricks,
                  recorded or None)


def _judge(n: int, rules: Ruleset, ids: tuple[str, ...], first: int, given: list[int],
           chien: int, bids: list[Contract | None], ecart: int | None,
           poignees: list[tuple[int, int]], tricks: list[list[int]],
           recorded: dict[str, int] | None) -> tuple[Status, dict[str, int], int]:
    """The rules on a deal in the usual shape, as plain ints: ``given`` the hands as
    dealt, ``bids`` in order of speech from ``first``, ``poignees`` (seat, cards shown),
    ``tricks`` the cards of each trick from its leader's, ``recorded`` the scores."""
    tab = table(n)
    union = chien
    for hand in given:
        if union & hand or hand.bit_count() != tab.hand:
            raise _fail()
        union |= hand
        if hand & TRUMP_MASK == 1 << Card.T1 and not hand & EXCUSE_BIT:
            raise _fail()  # the Petit sec
    if chien.bit_count() != tab.chien or len(tricks) != tab.tricks:
        raise _fail()

    # Auction: one bid each, in turn, each higher.
    if len(bids) != n:
        raise _fail()
    contract: Contract | None = None
    taker = -1
    for i, wanted in enumerate(bids):
        if wanted is not None:
            if contract is not None and wanted <= contract:
                raise _fail()
            contract, taker = wanted, (first + i) % n
    if contract is None:
        raise _fail()  # all passed

    # Chien and écart.
    start = list(given)
    if contract.takes_chien:
        if chien & (1 << Card.T1) and rules.petit_in_chien is PetitInChien.ANNULS:
            raise _fail()
        pool = given[taker] | chien
        if (ecart is None or ecart.bit_count() != tab.chien or ecart & ~pool
                or ecart & (KINGS_MASK | BOUTS_MASK | TRUMP_MASK)):
            raise _fail()
        start[taker] = pool & ~ecart
    elif ecart is not None:
        raise _fail()

    # Declarations: poignées shown with their cards, one a seat.
    sizes = []
    seen = set()
    for s, shown in poignees:
        if s in seen:
            raise _fail()
        seen.add(s)
        size = tab.poignee_size(shown.bit_count())
        if (size is None or shown & ~(TRUMP_MASK | EXCUSE_BIT) or shown & ~start[s]
                or (shown & EXCUSE_BIT and start[s] & TRUMP_MASK & ~shown)):
            raise _fail()
        sizes.append(size)

    # The play: every card in turn, each legal.
    rotation = _ROTATIONS[n]
    hands = list(start)
    played = 0
    leader = first
    camp_of = [0 if s == taker else 1 for s in range(n)]
    piles = [0, 0]
    won = 0
    excuse_owner = excuse_winner = excuse_trick = -1
    suit_of = _SUIT
    bit_of = _BITS
    above = TRUMPS_ABOVE
    suit_masks = SUIT_MASKS
    last_cards: list[int] = []
    last_seats: tuple[int, ...] = ()
    last_winner = -1
    for t, cards in enumerate(tricks):
        if len(cards) != n:
            raise _fail()
        seats = rotation[leader]
        held = []  # each player's hand before his card
        for s, card in zip(seats, cards, strict=True):
            hand = hands[s]
            bit = bit_of[card]
            if not hand & bit:  # hands are disjoint: a card played twice is in none
                raise _fail()
            hands[s] = hand ^ bit
            held.append(hand)
        bits = sum(map(bit_of.__getitem__, cards))
        played |= bits
        lead = cards[0] if cards[0] != 77 else cards[1]
        led = suit_of[lead]
        if led != 4 and not bits & ~(suit_masks[led] | EXCUSE_BIT):
            # Everyone followed the suit led (or played the Excuse): legal, and the
            # highest card of the suit wins.
            w = cards.index(max(cards) if not bits & EXCUSE_BIT else sorted(cards)[-2])
        else:
            led = -1
            top = 0
            best = -1  # the highest card of the suit led
            for hand, card in zip(held, cards, strict=True):
                if card == 77:
                    continue
                suit = suit_of[card]
                if suit == led:
                    if card > best:
                        best = card
                    if suit == 4 and card - 55 <= top and hand & above[top]:
                        raise _fail()
                elif led < 0:
                    led = suit
                    best = card
                elif led == 4:
                    if hand & TRUMP_MASK:
                        raise _fail()
                elif hand & suit_masks[led] or (hand & TRUMP_MASK and (
                        suit != 4 or (top and card - 55 <= top and hand & above[top]))):
                    raise _fail()
                if suit == 4 and card - 55 > top:
                    top = card - 55
            w = cards.index(top + 55 if top else best)
        winner = seats[w]
        wcamp = camp_of[winner]
        won |= 1 << wcamp
        piles[wcamp] |= bits
        if bits & EXCUSE_BIT:
            excuse_owner = camp_of[seats[cards.index(77)]]
            excuse_winner = wcamp
            excuse_trick = t
        leader = winner
        last_cards, last_seats, last_winner = cards, seats, winner
    if any(hands) or last_cards[0] == 77:
        raise _fail()  # cards left; the Excuse led to the last trick (the chelem case)

    # Counting (RULES.md §7, §8), as the replay counts.
    last = tab.tricks - 1
    piles[0 if contract is not Contract.GARDE_CONTRE else 1] |= ~played & ((1 << 78) - 1)
    adjust = 0
    if excuse_owner >= 0:
        goes_to = excuse_owner
        if excuse_trick == last:
            if rules.excuse_last_trick is ExcuseLastTrick.CHANGES_CAMP:
                goes_to = 1 - excuse_owner
            else:
                goes_to = excuse_winner
        elif excuse_winner != excuse_owner:
            adjust = 1 if excuse_winner == 0 else -1
        piles[excuse_winner] &= ~EXCUSE_BIT
        piles[goes_to] |= EXCUSE_BIT
    taker_half = card_points(piles[0]) + adjust
    bouts = (piles[0] & BOUTS_MASK).bit_count()
    chelem = Camp.TAKER if won == 1 else Camp.DEFENCE if won == 2 else None
    pab: Camp | None = None
    if 56 in last_cards:
        winner = last_winner
        wins_itself = (last_seats[last_cards.index(56)] == winner
                       and not any(57 <= c <= 76 for c in last_cards))
        if rules.petit_au_bout is PetitAuBout.IN_LAST_TRICK or wins_itself:
            pab = Camp.TAKER if camp_of[winner] == 0 else Camp.DEFENCE
    sc = score(DealFacts(players=n, taker=taker, contract=contract, taker_half=taker_half,
                         bouts=bouts, petit_au_bout=pab, poignees=tuple(sizes),
                         chelem=chelem))
    scores = dict(zip(ids, sc.seats, strict=True))

    # The recorded result: at most the scores, each as the rules give it.
    if recorded is not None:
        for sid, value in recorded.items():
            if scores[sid] != value:
                raise _fail()
        if len(recorded) == n and sum(recorded.values()) != 0:
            raise _fail()
    return Status.SCORED, scores, taker_half
