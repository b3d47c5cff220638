"""The record model: what was written down about one deal (pydantic v2, immutable).

A :class:`DealRecord` holds the tags, the ruleset, the seats in order of play, the hands
and chien, the auction, the called card, the écart, the declarations, the play trick by
trick, and the recorded result, each part optional where the record is partial. It says
nothing about whether the deal was *legal*: that is the replay's job. The model refuses
only what cannot be a record at all (a card twice, a seat that does not exist, a hand of
the wrong size), with a message naming the field.

Cards are :class:`~tarotnotation.cards.Card` values (written as codes such as ``7H`` in
JSON), hands and piles :class:`~tarotnotation.cards.CardSet` values, and the taker's
points a :class:`Points` value (exact half-points).

>>> rec = DealRecord(players=4, dealer="W", auction=[Bid(contract="garde")])
>>> [s.id for s in rec.seats], rec.first_seat
(['S', 'E', 'N', 'W'], 'S')
>>> rec.auction[0].contract
<Contract.GARDE: 2>
>>> DealRecord(players=4, dealer="X")
Traceback (most recent call last):
...
pydantic_core._pydantic_core.ValidationError: 1 validation error for DealRecord
  Value error, dealer: 'X' is not a seat of this deal (seats: S, E, N, W) ...
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Annotated, Any, Final, Literal, Self

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    SerializerFunctionWrapHandler,
    WithJsonSchema,
    field_validator,
    model_serializer,
    model_validator,
)

from .cards import CARD_OF_CODE, Card, CardSet
from .diagnostics import quote
from .fields import (
    BID_WORDS,
    DEFAULT_SEATS,
    FIELD_TAGS,
    NAME_RE,
    UNRECORDED_TAG,
    Points,
    check_tags,
    find_tag,
)
from .i18n import Msg, at, comma_list
from .lexicon import GLYPH_SET, GLYPHS, SEAT_ID_PATTERN, SEAT_ID_RE
from .limits import MAX_DIGITS
from .modeldoc import ModelDocMeta, own_description
from .rules import Camp, Contract, MisereKind, PlayerTable, PoigneeSize, Ruleset, table

__all__ = [
    "BID_WORDS",
    "DEFAULT_SEATS",
    "FIELD_TAGS",
    "GLYPHS",
    "GLYPH_SET",
    "NAME_RE",
    "SEAT_ID_PATTERN",
    "SEAT_ID_RE",
    "Bid",
    "Call",
    "CardField",
    "CardSetField",
    "ChelemAnnouncement",
    "DealRecord",
    "Declaration",
    "Ecart",
    "Misere",
    "PlayedCard",
    "Poignee",
    "Points",
    "Result",
    "Seat",
    "Trick",
    "check_record",
    "check_tags",
    "find_tag",
]

Glyph = Literal["!", "?", "!!", "??", "!?", "?!"]

_CARD_PATTERN: Final = r"^(10|[1-9JNQK])[SHDC]$|^T([1-9]|1[0-9]|2[01])$|^EX$"



def _to_card(value: Any) -> Card:
    card = CARD_OF_CODE.get(value) if isinstance(value, str) else None
    if card is not None:
        return card
    if isinstance(value, Card):
        return value
    if isinstance(value, str):
        return Card.from_code(value)  # raises, saying what was expected
    raise ValueError(Msg("expected a card code such as 7H, KS, T21 or EX, not {value}",
                         value=quote(value)))


def _to_cardset(value: Any) -> CardSet:
    if isinstance(value, CardSet):
        return value
    if isinstance(value, str):
        value = value.split()
    if not isinstance(value, (list, tuple)):
        raise ValueError(Msg("expected a list of card codes, not {value}", value=quote(value)))
    bits = 0
    for item in value:
        card = _to_card(item)
        if bits >> card & 1:
            raise ValueError(Msg("card {card} appears twice", card=card.code))
        bits |= 1 << card
    return CardSet(bits)


CardField = Annotated[
    Card,
    PlainValidator(_to_card),
    PlainSerializer(lambda c: c.code, return_type=str),
    WithJsonSchema({"type": "string", "pattern": _CARD_PATTERN}),
]
"""A card, validated from its canonical code and written back as that code."""

CardSetField = Annotated[
    CardSet,
    PlainValidator(_to_cardset),
    PlainSerializer(lambda s: [c.code for c in s], return_type=list[str]),
    WithJsonSchema(
        {
            "type": "array",
            "items": {"type": "string", "pattern": _CARD_PATTERN},
            "uniqueItems": True,
        }
    ),
]
"""A set of distinct cards, validated from a list of codes, written in canonical order."""


PointsField = Annotated[
    Points,
    PlainValidator(Points.parse),
    PlainSerializer(lambda p: p.as_number(), return_type=float),
    WithJsonSchema({"type": "number", "minimum": 0, "maximum": 91, "multipleOf": 0.5}),
]

BoutsField = Annotated[
    int,
    Field(gt=-(10 ** MAX_DIGITS), lt=10 ** MAX_DIGITS),
    WithJsonSchema({"type": "integer", "minimum": 0, "maximum": 3}),
]
"""The recorded bouts: the schema says 0 to 3; the model keeps any number a record can
hold, so that the replay can say why it is impossible."""


def _to_contract(value: Any) -> Contract:
    if isinstance(value, Contract):
        return value
    if isinstance(value, str):
        return Contract.from_keyword(value)
    raise ValueError(Msg("expected a contract: prise, garde, garde_sans or garde_contre"))


def _to_bid(value: Any) -> Contract | None:
    if value is None or (isinstance(value, str) and value.strip().lower() == "pass"):
        return None
    try:
        return _to_contract(value)
    except ValueError:
        raise ValueError(Msg("expected a bid: pass, prise, garde, garde_sans or garde_contre")
                         ) from None


_CONTRACT_SCHEMA: Final = {"enum": ["prise", "garde", "garde_sans", "garde_contre"]}

ContractField = Annotated[
    Contract,
    PlainValidator(_to_contract),
    PlainSerializer(lambda c: c.keyword, return_type=str),
    WithJsonSchema({"type": "string", **_CONTRACT_SCHEMA}),
]
"""A contract, written as its keyword (``garde_sans``)."""

BidField = Annotated[
    Contract | None,
    PlainValidator(_to_bid),
    PlainSerializer(lambda c: "pass" if c is None else c.keyword, return_type=str),
    WithJsonSchema({"type": "string", "enum": ["pass", *_CONTRACT_SCHEMA["enum"]]}),
]
"""A bid: a contract keyword, or ``pass`` (None)."""

SeatId = Annotated[str, Field(pattern=f"^{SEAT_ID_PATTERN}$")]


class _Model(BaseModel, metaclass=ModelDocMeta):  # (help() shows the fields first)
    model_config = ConfigDict(frozen=True, extra="forbid", json_schema_extra=own_description)

    def model_copy(self, *, update: Mapping[str, Any] | None = None,
                   deep: bool = False) -> Self:
        """A copy with ``update``'s fields changed, validated as the constructor validates
        them: plain lists and dicts become the model's tuples, cards and parts, and a
        value that cannot be is refused, so that a record built in code writes without
        pydantic's serializer warnings and reads back equal (pydantic's own
        ``model_copy`` takes the values as they come).

        >>> rec = DealRecord(players=4)
        >>> new = rec.model_copy(update={"play": [{"cards": [{"card": "7H"}]}]})
        >>> new.play[0].cards[0].card, type(new.play)
        (<Card.H7: 20>, <class 'tuple'>)
        """
        if not update:
            return super().model_copy(deep=deep)
        data = {name: getattr(self, name) for name in type(self).model_fields}
        copy = type(self).model_validate({**data, **update})
        # (the fields set stay those of the original and the update, as pydantic's own)
        object.__setattr__(copy, "__pydantic_fields_set__", self.model_fields_set | set(update))
        return copy.model_copy(deep=True) if deep else copy


class _Annotated(_Model):
    glyph: Glyph | None = None
    """One of ``! ? !! ?? !? ?!``, as in PGN."""
    comments: tuple[str, ...] = ()
    """Free-text comments, in the order they were written."""


class Seat(_Model):
    """A seat at the table: a short id (``S``, ``E``…) and the player's name if known."""

    id: SeatId
    name: str | None = Field(default=None, pattern=r"^[^\r\n]*$")
    """The player's name, on one line."""


class Bid(_Annotated):
    """One call of the auction: a contract, or ``None`` for a pass (``"pass"`` in JSON)."""

    contract: BidField
    seat: SeatId | None = None
    """The seat that spoke, when written; otherwise it follows from the order of speech."""

    @property
    def is_pass(self) -> bool:
        """True for a pass."""
        return self.contract is None


class Call(_Annotated):
    """The card called by the taker at five players."""

    card: CardField


class Ecart(_Annotated):
    """The taker's écart (discard) and the trumps he showed with it."""

    cards: CardSetField | None = None
    """The discarded cards, when recorded (they are face down at the table)."""
    shown: CardSetField = CardSet()
    """The cards shown with the écart (the trumps it holds)."""


class _Declaration(_Annotated):
    """Declarations always write their ``kind`` (the JSON discriminator) first."""

    @model_serializer(mode="wrap")
    def _with_kind(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        kind = getattr(self, "kind")  # noqa: B009 (declared by each subclass)
        return {"kind": kind, **{k: v for k, v in data.items() if k != "kind"}}


class Poignee(_Declaration):
    """A poignée (handful of trumps) shown by a player before his first card."""

    kind: Literal["poignee"] = "poignee"
    seat: SeatId
    size: PoigneeSize | None = None
    """The size declared, when written; otherwise it follows from the cards shown."""
    cards: CardSetField | None = None
    """The cards shown, when recorded (a score sheet gives only the size)."""

    @model_validator(mode="after")
    def _size_or_cards(self) -> Poignee:
        if self.size is None and self.cards is None:
            raise ValueError(Msg("a poignée needs its size or the cards shown"))
        return self


class ChelemAnnouncement(_Declaration):
    """A chelem (slam) announced before the first lead."""

    kind: Literal["chelem"] = "chelem"
    seat: SeatId


class Misere(_Declaration):
    """A misère declared before the first card (only when the ruleset has ``misere=on``)."""

    kind: Literal["misere"] = "misere"
    seat: SeatId
    misere: MisereKind


Declaration = Annotated[Poignee | ChelemAnnouncement | Misere, Field(discriminator="kind")]


class PlayedCard(_Annotated):
    """A card of a trick, and the seat that played it when written."""

    card: CardField
    seat: SeatId | None = None


class Trick(_Annotated):
    """One trick, its cards listed from the leader's."""

    cards: tuple[PlayedCard, ...]
    leader: SeatId | None = None
    """The seat that led, when written; otherwise the winner of the previous trick."""

    def __str__(self) -> str:
        """The trick as the notation writes it (without its number).

        >>> print(Trick(cards=[{"card": "7H"}, {"card": "KH", "comments": ["wins"]}]))
        7H KH {wins}
        """
        from .notation.writer import write_trick  # the notation is a layer above

        return write_trick(self)


class Result(_Annotated):
    """The result as recorded: the facts of a score sheet and each seat's score.

    An outcome-only record (a club score sheet) has this and no cards; the score is then
    recomputed from these facts. With the play recorded, they are checked against it.
    """

    contract: ContractField | None = None
    taker: SeatId | None = None
    partner: SeatId | None = None
    """At five players, the holder of the called card (the taker's own id if alone)."""
    taker_points: PointsField | None = None
    bouts: BoutsField | None = None
    """Bouts won by the taker's camp as recorded (a number other than 0 to 3 is kept, and
    the replay says it cannot be: R203)."""
    petit_au_bout: Camp | None = None
    """The camp that scored the petit au bout, if any."""
    chelem: Camp | None = None
    """The camp that won every trick, if any."""
    annulled: bool = False
    """The deal was annulled (all passed, petit sec): no score."""
    scores: dict[SeatId, int] | None = None
    """Each seat's score for the deal, in seat order."""

    @field_validator("scores", mode="after")
    @classmethod
    def _no_empty_scores(cls, value: dict[str, int] | None) -> dict[str, int] | None:
        return value or None



class DealRecord(_Model):
    """One deal as written down. Every section but ``players`` may be left out."""

    tags: tuple[tuple[str, str], ...] = ()
    """Key/value tags in the order written; unknown tags are kept."""
    ruleset: str = "fft"
    """The ruleset spec (``fft``, ``pagat``, ``fft misere=on``…), kept in canonical form."""
    players: int = Field(ge=3, le=5)
    seats: tuple[Seat, ...] = ()
    """The seats in order of play (counter-clockwise); default ids when left out."""
    dealer: SeatId | None = None
    """The dealer; when left out, the first seat listed speaks and leads first."""
    hands: dict[SeatId, CardSetField] | None = None
    """The hands as dealt, by seat id (some seats may be missing)."""
    chien: CardSetField | None = None
    auction: tuple[Bid, ...] = ()
    call: Call | None = None
    ecart: Ecart | None = None
    declarations: tuple[Declaration, ...] = ()
    play: tuple[Trick, ...] = ()
    result: Result | None = None
    glyph: Glyph | None = None
    comments: tuple[str, ...] = ()
    """Comments on the deal as a whole."""

    @field_validator("ruleset", mode="before")
    @classmethod
    def _canonical_ruleset(cls, value: Any) -> Any:
        if isinstance(value, Ruleset):
            return value.spec()
        if isinstance(value, str):
            return Ruleset.from_spec(value).spec()
        return value

    @field_validator("tags", mode="before")
    @classmethod
    def _tag_pairs(cls, value: Any) -> Any:
        if isinstance(value, dict):
            return tuple(value.items())
        return value

    @field_validator("tags")
    @classmethod
    def _tag_names(cls, value: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
        check_tags(value)
        return value

    @field_validator("hands", mode="after")
    @classmethod
    def _no_empty_hands(cls, value: dict[str, CardSet] | None) -> dict[str, CardSet] | None:
        return value or None

    @model_validator(mode="before")
    @classmethod
    def _default_seats(cls, data: Any) -> Any:
        if isinstance(data, dict) and not data.get("seats"):
            players = data.get("players")
            if isinstance(players, int) and players in DEFAULT_SEATS:
                data = {**data, "seats": [{"id": s} for s in DEFAULT_SEATS[players]]}
        return data

    @model_validator(mode="after")
    def check_structure(self) -> DealRecord:
        check_record(self)
        return self

    # --- derived views ----------------------------------------------------------------

    @property
    def table(self) -> PlayerTable:
        """The table for this number of players."""
        return table(self.players)

    @property
    def rules(self) -> Ruleset:
        """The ruleset this deal was played under."""
        return Ruleset.from_spec(self.ruleset)

    @property
    def seat_ids(self) -> tuple[str, ...]:
        """Seat ids in order of play."""
        return tuple(s.id for s in self.seats)

    @property
    def first_seat(self) -> str:
        """The dealer's right-hand neighbour: the first to speak and to lead."""
        ids = self.seat_ids
        if self.dealer is None:
            return ids[0]
        return ids[(ids.index(self.dealer) + 1) % len(ids)]

    def seat_index(self, seat: str) -> int:
        """The position of a seat in the order of play."""
        return self.seat_ids.index(seat)

    def player(self, seat: str) -> str:
        """The player at ``seat`` (a seat id): the name, or the seat id when the record
        names none.

        >>> rec = DealRecord(players=4, seats=[{"id": "S", "name": "Alice"}, {"id": "E"},
        ...                                    {"id": "N"}, {"id": "W"}])
        >>> rec.player("S"), rec.player("E")
        ('Alice', 'E')
        """
        name = self.seats[self.seat_index(seat)].name
        return name if name else seat

    def tag(self, name: str, default: str | None = None) -> str | None:
        """The value of the first tag named ``name`` (case-insensitive), or ``default``."""
        return find_tag(self.tags, name, default)

    def unrecorded(self, part: str) -> bool:
        """Whether the record's source format cannot hold ``part`` (a word of the
        ``Unrecorded`` tag, such as ``call``), so that its absence is no fault of the game.

        >>> DealRecord(players=5, tags={"Unrecorded": "call"}).unrecorded("call")
        True
        >>> DealRecord(players=5).unrecorded("call")
        False
        """
        return part in (self.tag(UNRECORDED_TAG) or "").split()

    def cards_played(self) -> Iterator[Card]:
        """Every card of the play, in order."""
        for trick in self.play:
            for played in trick.cards:
                yield played.card

    def __str__(self) -> str:
        """The record in the text notation, in canonical form (as ``tarot fmt`` writes it).

        >>> print(DealRecord(players=4, auction=[{"contract": "garde"}]), end="")
        [Players "4"] [Ruleset "fft"]
        auction: garde
        """
        from .notation.writer import write_record  # the notation is a layer above

        return write_record(self)

    def __repr__(self) -> str:
        """A short description: its tags, players, tricks and result.

        >>> DealRecord(players=4, tags={"Event": "Club"}, result={"contract": "garde",
        ...            "taker": "E", "taker_points": 48, "bouts": 2})
        <DealRecord Event='Club', 4 players, 0 tricks, result garde by E>
        """
        parts = [f"{name}={value!r}" for name, value in self.tags[:3]]
        parts.append(f"{self.players} players")
        parts.append(f"{len(self.play)} trick{'s' if len(self.play) != 1 else ''}")
        res = self.result
        if res is not None:
            if res.annulled:
                parts.append("annulled")
            elif res.contract is not None:
                who = f" by {res.taker}" if res.taker is not None else ""
                parts.append(f"result {res.contract.keyword}{who}")
        return f"<DealRecord {', '.join(parts)}>"

    @property
    def is_outcome_only(self) -> bool:
        """True for a score-sheet record: a result and no cards at all."""
        return (
            self.result is not None
            and not self.play
            and self.hands is None
            and self.chien is None
        )


def check_record(rec: DealRecord) -> None:
    """The record-wide checks of the model (raises ValueError naming the field first)."""
    n = rec.players
    tab = table(n)
    ids = [s.id for s in rec.seats]
    if len(ids) != n:
        raise ValueError(at("seats", Msg("{n} players need {n} seats, found {found}", n=n,
                                         found=len(ids))))
    known = set(ids)
    if len(known) != n:
        raise ValueError(at("seats", Msg("seat ids must differ, found {ids}",
                                         ids=comma_list(ids))))

    def bad_seat(where: str, seat: str) -> ValueError:
        return ValueError(at(where, Msg("{seat} is not a seat of this deal (seats: {seats})",
                                        seat=quote(seat), seats=comma_list(ids))))

    if rec.dealer is not None and rec.dealer not in known:
        raise bad_seat("dealer", rec.dealer)
    placed: list[tuple[str, int]] = []

    def place(where: str, cards: CardSet) -> None:
        bits = cards.bits
        for other, held in placed:
            common = held & bits
            if common:
                card = Card((common & -common).bit_length() - 1)
                raise ValueError(at(where, Msg("card {card} is also in {other}", card=card.code,
                                               other=other)))
        placed.append((where, bits))

    if rec.hands is not None:
        size = tab.hand
        for seat, hand in rec.hands.items():
            if seat not in known:
                raise bad_seat("hands", seat)
            if len(hand) != size:
                raise ValueError(at(f"hands.{seat}", Msg(
                    "a hand has {size} cards at {n} players, found {found}", size=size, n=n,
                    found=len(hand))))
            place(f"hands.{seat}", hand)
    if rec.chien is not None:
        if len(rec.chien) != tab.chien:
            raise ValueError(at("chien", Msg(
                "the chien has {size} cards at {n} players, found {found}", size=tab.chien,
                n=n, found=len(rec.chien))))
        place("chien", rec.chien)
    for i, bid in enumerate(rec.auction):
        if bid.seat is not None and bid.seat not in known:
            raise bad_seat(f"auction[{i}].seat", bid.seat)
    for i, decl in enumerate(rec.declarations):
        if decl.seat not in known:
            raise bad_seat(f"declarations[{i}].seat", decl.seat)
    if len(rec.play) > tab.tricks:
        raise ValueError(at("play", Msg(
            "a deal has {tricks} tricks at {n} players, found {found}", tricks=tab.tricks, n=n,
            found=len(rec.play))))
    for t, trick in enumerate(rec.play):
        if trick.leader is not None and trick.leader not in known:
            raise bad_seat(f"play[{t}].leader", trick.leader)
        cards = trick.cards
        if len(cards) > n:
            raise ValueError(at(f"play[{t}]", Msg(
                "a trick has {n} cards at {n} players, found {found}", n=n,
                found=len(cards))))
        if not cards:
            raise ValueError(at(f"play[{t}]", Msg("a trick needs at least one card")))
        for c, played in enumerate(cards):
            if played.seat is not None and played.seat not in known:
                raise bad_seat(f"play[{t}].cards[{c}].seat", played.seat)
    res = rec.result
    if res is not None:
        if res.taker is not None and res.taker not in known:
            raise bad_seat("result.taker", res.taker)
        if res.partner is not None and res.partner not in known:
            raise bad_seat("result.partner", res.partner)
        for seat in res.scores or {}:
            if seat not in known:
                raise bad_seat("result.scores", seat)
