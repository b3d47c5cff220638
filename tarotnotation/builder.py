"""Records built from data already in the usual shape, without validating them again.

Validating a record through pydantic costs more than replaying it. :func:`build_record`
builds the same record from plain data in the JSON layout (parsed JSON, or what the
notation's fast scanner produces) with pydantic's public ``model_construct``, after its
own checks of the usual shape: canonical card codes, exact types, no unknown key, and the
model's record-wide checks (:func:`~tarotnotation.records.check_record`). On anything
else it returns None and the caller validates through the model, which gives the
diagnostics. ``tests/twins/test_fast_paths.py`` checks that both ways give equal records with
equal field sets.

The checks of the shape (:func:`keys_of`, :func:`check_notes`, the key sets) are public:
the quick check (:mod:`tarotnotation.quick`) takes the same shape.

>>> rec = build_record({"players": 4, "auction": [{"contract": "garde"}]})
>>> rec == DealRecord.model_validate({"players": 4, "auction": [{"contract": "garde"}]})
True
>>> build_record({"players": 4, "dealer": "X"}) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final, TypeVar

from pydantic import BaseModel

from .cards import BIT_OF_CODE, CARD_OF_CODE, Card, CardSet
from .fields import (
    BID_KEYS,
    CALL_KEYS,
    DECL_KEYS,
    ECART_KEYS,
    NOTE_KEYS,
    PLAYED_KEYS,
    RESULT_KEYS,
    SEAT_KEYS,
    TRICK_KEYS,
    UnusualDataError,
    check_notes,
    keys_of,
)
from .records import (
    BID_WORDS,
    DEFAULT_SEATS,
    NAME_RE,
    SEAT_ID_RE,
    Bid,
    Call,
    ChelemAnnouncement,
    DealRecord,
    Ecart,
    Misere,
    PlayedCard,
    Poignee,
    Points,
    Result,
    Seat,
    Trick,
    check_record,
    check_tags,
)
from .rules import Camp, Contract, MisereKind, PoigneeSize, Ruleset

__all__ = [
    "BID_KEYS",
    "CALL_KEYS",
    "DECL_KEYS",
    "ECART_KEYS",
    "NOTE_KEYS",
    "PLAYED_KEYS",
    "RECORD_KEYS",
    "RESULT_KEYS",
    "SEAT_KEYS",
    "TRICK_KEYS",
    "UnusualDataError",
    "build_record",
    "check_notes",
    "keys_of",
]

_M = TypeVar("_M", bound=BaseModel)
_KEYWORDS: Final = {c.keyword: c for c in Contract}
_CAMPS: Final = {c.value: c for c in Camp}
_SIZES: Final = {s.value: s for s in PoigneeSize}
_MISERES: Final = {m.value: m for m in MisereKind}
_CACHE_LIMIT: Final = 4096
_seat_ok: dict[str, bool] = {}
_plain_cards: dict[str, PlayedCard] = {}
_plain_bids: dict[str, Bid] = {}
_plain_seats: dict[str, Seat] = {}


def _new(cls: type[_M], values: dict[str, Any], given: Iterable[str]) -> _M:
    """A model from values already checked; ``given`` are the fields the data set
    (``model_fields_set``). Only public constructors: the record itself through
    ``model_construct`` (its validators look at the whole deal), every smaller model
    through its validating constructor, given only what the data set, which for these
    values is about twice as fast as ``model_construct`` (measured with callgrind)."""
    if cls is DealRecord:
        return cls.model_construct(set(given), **values)
    return cls(**{key: values[key] for key in given})


def _seat(value: Any) -> str:
    ok = _seat_ok.get(value) if type(value) is str else False
    if ok is None:
        ok = SEAT_ID_RE.fullmatch(value) is not None
        if len(_seat_ok) < _CACHE_LIMIT:
            _seat_ok[value] = ok
    if not ok:
        raise UnusualDataError
    return value  # type: ignore[no-any-return]


def _opt_seat(data: dict[str, Any], key: str) -> str | None:
    value = data.get(key)
    return None if value is None else _seat(value)


def _cardset(value: Any) -> CardSet:
    if type(value) is not list:
        raise UnusualDataError
    try:
        bits = sum(map(BIT_OF_CODE.__getitem__, value))
    except (KeyError, TypeError):
        raise UnusualDataError from None
    if bits.bit_count() != len(value):  # a card twice
        raise UnusualDataError
    return CardSet(bits)


def _card(value: Any) -> Card:
    card = CARD_OF_CODE.get(value) if type(value) is str else None
    if card is None:
        raise UnusualDataError
    return card


def _notes(data: dict[str, Any], values: dict[str, Any]) -> None:
    check_notes(data)
    values["glyph"] = data.get("glyph")
    values["comments"] = tuple(data.get("comments", ()))


def _played(data: Any) -> PlayedCard:
    if type(data) is dict and len(data) == 1:
        code = data.get("card")
        plain = _plain_cards.get(code) if type(code) is str else None
        if plain is not None:
            return plain
    data = keys_of(data, PLAYED_KEYS)
    values: dict[str, Any] = {}
    _notes(data, values)
    values["card"] = _card(data.get("card"))
    values["seat"] = _opt_seat(data, "seat")
    out = _new(PlayedCard, values, data)
    if len(data) == 1:
        _plain_cards[values["card"].code] = out
    return out


def _trick(data: Any) -> Trick:
    if type(data) is dict and len(data) == 1:
        cards = data.get("cards")
        if type(cards) is list:
            plain = _plain_cards
            try:
                out = tuple([plain[c["card"]] for c in cards])
            except (KeyError, TypeError):
                out = None
            if out is None or sum(map(len, cards)) != len(cards):  # not all plain
                out = tuple([_played(c) for c in cards])
            # pydantic's validating constructor is public and, for a trick of model
            # instances, twice as fast as model_construct
            return Trick(cards=out)
    data = keys_of(data, TRICK_KEYS)
    cards = data.get("cards")
    if type(cards) is not list:
        raise UnusualDataError
    values: dict[str, Any] = {}
    _notes(data, values)
    values["cards"] = tuple([_played(c) for c in cards])
    values["leader"] = _opt_seat(data, "leader")
    return _new(Trick, values, data)


def _bid(data: Any) -> Bid:
    if type(data) is dict and len(data) == 1:
        word = data.get("contract")
        plain = _plain_bids.get(word) if type(word) is str else None
        if plain is not None:
            return plain
    data = keys_of(data, BID_KEYS)
    word = data.get("contract")
    if type(word) is not str or word not in BID_WORDS:
        raise UnusualDataError
    values: dict[str, Any] = {}
    _notes(data, values)
    values["contract"] = BID_WORDS[word]
    values["seat"] = _opt_seat(data, "seat")
    out = _new(Bid, values, data)
    if len(data) == 1:
        _plain_bids[word] = out
    return out


def _declaration(data: Any) -> Poignee | ChelemAnnouncement | Misere:
    kind = data.get("kind") if type(data) is dict else None
    allowed = DECL_KEYS.get(kind) if type(kind) is str else None
    if allowed is None:
        raise UnusualDataError
    data = keys_of(data, allowed)
    values: dict[str, Any] = {}
    _notes(data, values)
    values["kind"] = kind
    values["seat"] = _seat(data.get("seat"))
    if kind == "poignee":
        size = data.get("size")
        if size is not None and (type(size) is not str or size not in _SIZES):
            raise UnusualDataError
        values["size"] = None if size is None else _SIZES[size]
        cards = data.get("cards")
        values["cards"] = None if cards is None else _cardset(cards)
        if size is None and cards is None:
            raise UnusualDataError
        return _new(Poignee, values, data)
    if kind == "chelem":
        return _new(ChelemAnnouncement, values, data)
    misere = data.get("misere")
    if type(misere) is not str or misere not in _MISERES:
        raise UnusualDataError
    values["misere"] = _MISERES[misere]
    return _new(Misere, values, data)


def _result(data: Any) -> Result:
    data = keys_of(data, RESULT_KEYS)
    values: dict[str, Any] = {}
    _notes(data, values)
    contract = data.get("contract")
    if contract is not None and (type(contract) is not str or contract not in _KEYWORDS):
        raise UnusualDataError
    values["contract"] = None if contract is None else _KEYWORDS[contract]
    values["taker"] = _opt_seat(data, "taker")
    values["partner"] = _opt_seat(data, "partner")
    points = data.get("taker_points")
    if points is not None:
        if type(points) is not int and type(points) is not float:
            raise UnusualDataError
        try:
            points = Points.parse(points)
        except (ValueError, OverflowError):
            raise UnusualDataError from None
        if not points.is_card_points:  # kept by the model, for the replay to flag
            raise UnusualDataError
    values["taker_points"] = points
    bouts = data.get("bouts")
    if bouts is not None and (type(bouts) is not int or not 0 <= bouts <= 3):
        raise UnusualDataError
    values["bouts"] = bouts
    for key in ("petit_au_bout", "chelem"):
        camp = data.get(key)
        if camp is not None and (type(camp) is not str or camp not in _CAMPS):
            raise UnusualDataError
        values[key] = None if camp is None else _CAMPS[camp]
    annulled = data.get("annulled", False)
    if type(annulled) is not bool:
        raise UnusualDataError
    values["annulled"] = annulled
    scores = data.get("scores")
    if scores is not None:
        if type(scores) is not dict:
            raise UnusualDataError
        for seat, value in scores.items():
            _seat(seat)
            if type(value) is not int or not -(2**63) <= value < 2**63:
                raise UnusualDataError
        scores = dict(scores) or None
    values["scores"] = scores
    return _new(Result, values, data)


def _seats(data: Any) -> tuple[Seat, ...]:
    if type(data) is not list:
        raise UnusualDataError
    out = []
    for item in data:
        if type(item) is dict and len(item) == 1:
            sid = item.get("id")
            plain = _plain_seats.get(sid) if type(sid) is str else None
            if plain is not None:
                out.append(plain)
                continue
        item = keys_of(item, SEAT_KEYS)
        name = item.get("name")
        if name is not None and (type(name) is not str or NAME_RE.fullmatch(name) is None):
            raise UnusualDataError
        seat = _new(Seat, {"id": _seat(item.get("id")), "name": name}, item)
        if len(item) == 1 and len(_plain_seats) < _CACHE_LIMIT:
            _plain_seats[seat.id] = seat
        out.append(seat)
    return tuple(out)


RECORD_KEYS: Final = frozenset(DealRecord.model_fields)


def build_record(data: Any) -> DealRecord | None:
    """The record of ``data`` (the JSON layout, parsed), built without pydantic; None when
    ``data`` is not in the usual shape or is not a valid record: validate it through the
    model then (``DealRecord.model_validate``), which says what is wrong.

    """
    try:
        return _build(data)
    except (UnusualDataError, ValueError):
        return None


def _build(data: Any) -> DealRecord:
    data = keys_of(data, RECORD_KEYS)
    given = set(data)
    players = data.get("players")
    if type(players) is not int or not 3 <= players <= 5:
        raise UnusualDataError
    values: dict[str, Any] = {}
    tags = data.get("tags", ())
    if type(tags) is not list and tags != ():
        raise UnusualDataError
    if tags:
        pairs = []
        for pair in tags:
            if (type(pair) is not list or len(pair) != 2 or type(pair[0]) is not str
                    or type(pair[1]) is not str):
                raise UnusualDataError
            pairs.append((pair[0], pair[1]))
        tags = tuple(pairs)
        check_tags(tags)
    values["tags"] = tags or ()
    ruleset = data.get("ruleset", "fft")
    if type(ruleset) is not str:
        raise UnusualDataError
    values["ruleset"] = ruleset if ruleset == "fft" else Ruleset.from_spec(ruleset).spec()
    values["players"] = players
    seats = data.get("seats")
    if not seats:
        given.add("seats")
        seats = [{"id": s} for s in DEFAULT_SEATS[players]]
    values["seats"] = _seats(seats)
    values["dealer"] = _opt_seat(data, "dealer")
    hands = data.get("hands")
    if hands is not None:
        if type(hands) is not dict:
            raise UnusualDataError
        hands = {_seat(k): _cardset(v) for k, v in hands.items()} or None
    values["hands"] = hands
    chien = data.get("chien")
    values["chien"] = None if chien is None else _cardset(chien)
    auction = data.get("auction", ())
    if type(auction) is not list and auction != ():
        raise UnusualDataError
    values["auction"] = tuple([_bid(b) for b in auction])
    call = data.get("call")
    if call is not None:
        call = keys_of(call, CALL_KEYS)
        call_values: dict[str, Any] = {}
        _notes(call, call_values)
        call_values["card"] = _card(call.get("card"))
        call = _new(Call, call_values, call)
    values["call"] = call
    ecart = data.get("ecart")
    if ecart is not None:
        ecart = keys_of(ecart, ECART_KEYS)
        ecart_values: dict[str, Any] = {}
        _notes(ecart, ecart_values)
        cards = ecart.get("cards")
        ecart_values["cards"] = None if cards is None else _cardset(cards)
        ecart_values["shown"] = _cardset(ecart["shown"]) if "shown" in ecart else _NO_CARDS
        ecart = _new(Ecart, ecart_values, ecart)
    values["ecart"] = ecart
    declarations = data.get("declarations", ())
    if type(declarations) is not list and declarations != ():
        raise UnusualDataError
    values["declarations"] = tuple([_declaration(d) for d in declarations])
    play = data.get("play", ())
    if type(play) is not list and play != ():
        raise UnusualDataError
    values["play"] = tuple([_trick(t) for t in play])
    result = data.get("result")
    values["result"] = None if result is None else _result(result)
    _notes(data, values)
    record = _new(DealRecord, values, given)
    check_record(record)
    return record


_NO_CARDS: Final = CardSet()
