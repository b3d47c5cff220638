"""TarotClub deal files: the played-deal logs and the prepared deals of TarotClub.

TarotClub (https://www.tarotclub.fr, repository belegar/tarotclub, GPL-3) is an open-source
French Tarot program written in C++. It writes two kinds of JSON file, both with
``"version": "3"``:

* **played logs** (``Deal::GenerateEndDealLog``): ``deal_info`` (``number_of_players``,
  ``taker``, ``contract``, ``slam``, ``first_trick_lead``, ``dog``, ``attack_handle``,
  ``defense_handle``) and ``tricks``, one string per trick;
* **prepared deals** (``DealFile::Build``): ``FirstPlayer``, ``Dog`` and one hand per
  place (``South``, ``East``, ``North``, ``West``, ``Fifth``; unused places are ``""``).

TarotClub's conventions, as established from its source and checked on its own files:

* **Places** are ``South``, ``East``, ``North``, ``West``, ``Fifth`` (values 0-4), and
  ``Place::Next`` goes 0 → 1 → 2 … → 0: play runs South, East, North, West (, Fifth),
  counter-clockwise. They map to the seat ids ``S``, ``E``, ``N``, ``W``, ``F`` in the
  same order of play (the model's default seats).
* **Cards** are ``NN-X``: a two-digit value and a suit letter ``S`` ``H`` ``D`` ``C``
  ``T``. Plain ranks run 01-14 with 11 Jack, 12 Knight, 13 Queen, 14 King (``Card::
  GetPoints`` gives ``0.5 + value - 10`` above 10); trumps are ``01-T``..``21-T`` and
  ``00-T`` is the Excuse. Lists of cards are joined with ``;``; ``""`` is empty.
* **Tricks** list their cards from the trick's leader (``Deal::GetOwner`` counts places
  from the leader). The first trick is led by ``first_trick_lead``, "the first player
  after the dealer", and each later trick by the winner of the one before. Each trick's
  leader is written into the record (:attr:`Trick.leader`); the dealer is the place before
  ``first_trick_lead`` (left unknown when a slam was announced, since the announcer then
  leads whoever dealt). A trick string ``""`` is a trick never played (TarotClub writes
  all 18 slots, empty ones included); only trailing empty tricks are accepted.
* **Contracts** are ``Take``, ``Guard``, ``Guard without``, ``Guard against``
  (prise, garde, garde sans, garde contre). TarotClub does not log the auction: the
  contract and taker go into ``Result(contract=..., taker=...)`` and no bid is invented.
* **dog** is the chien as dealt (``Deal::mDog``); TarotClub recomputes the écart as the
  cards that were never played, and so does the replay engine. ``""`` leaves the chien
  unknown.
* **Handles** (poignées) are kept per team, not per player: ``attack_handle`` is shown
  by the taker (at 3 and 4 players), ``defense_handle`` by a defender. The defender (and
  at 5 players the attacker) is the seat that went on to play most of the handle's cards;
  a handle that cannot be attributed so (no play, or a tie) is an error.
* **slam** true is a chelem announced by the taker (:class:`ChelemAnnouncement`).
* At 5 players TarotClub logs no called card, so such a record has no ``call``; the reader
  tags it ``Unrecorded "call"`` and the replay reports the missing call as a K101
  *warning*, a limit of the format (the partner, and what depends on it, stays unknown).

The ``score`` block that some played logs carry (``attacker_points``, ``oudlers``,
``attacker_score``…, written by older TarotClub versions from their own count) is never read
back by TarotClub, so it can be stale: ``tarotmag_17.json`` says 28 points, while its play
gives 42 (lost by 9, -102 for the taker, which is what TarotClub's own unit test now
expects). Its facts go into the recorded result, ``attacker_points`` as
:attr:`Result.taker_points` and ``oudlers`` as :attr:`Result.bouts`, so that the replay
checks them against the play and reports a stale block as R103/R104 (a recorded-score
mismatch). TarotClub writes whole points, rounding a half point to the winning camp: a
count half a point from the exact one is read as the exact one. The block's other entries
(``attacker_score``, the bonuses), whose meaning in the old versions is not established
(28 points and 1 oudler do not give ``attacker_score`` 38 under any TarotClub formula), are
kept unchecked as ``TarotClub_*`` tags, e.g. ``TarotClub_attacker_score``.

**Leniency**: input is parsed with orjson; if that fails, trailing commas before ``]``
or ``}`` outside strings are removed and the text is parsed again (some hand-edited
TarotClub files carry them). :func:`read` reports this as a J001 *warning*. Card codes may
carry surrounding spaces. Anything else that does not fit raises :class:`TarotError`
with code J001 (not JSON), J002 (not a TarotClub deal file; the JSON path of the fault is
in ``Location.path``) or J003 (``version`` missing or other than 3: older TarotClub logs
have another layout, with a ``discard`` and tricks written by another routine, and must
not be misread as version 3).

The writer :func:`dumps` produces a played log; a recorded result's taker points and bouts
are written as a ``score`` block (``attacker_points``, ``oudlers``), which TarotClub
ignores and :func:`read` maps back. The format holds less than a record: :func:`dropped`
lists what a log written from a given record loses (the auction, the hands, the écart,
names, tags, comments, the scores…), and a record that the format cannot express (no
contract or taker known, two poignées in one camp, a trick whose leader is not the previous
winner) raises ``ValueError``.

>>> rec = loads('''{"version": "3", "deal_info": {"number_of_players": 4,
...   "taker": "South", "contract": "Guard", "slam": false, "first_trick_lead": "East",
...   "dog": "", "attack_handle": "", "defense_handle": ""},
...   "tricks": ["14-H;03-H;01-T;00-T", "21-T;02-T;05-T;06-T"]}''')
>>> rec.result.contract.keyword, rec.result.taker, rec.dealer
('garde', 'S', 'S')
>>> [(t.leader, " ".join(c.card.code for c in t.cards)) for t in rec.play]
[('E', 'KH 3H T1 EX'), ('W', 'T21 T2 T5 T6')]
>>> loads('{"version": "3", "deal_info": {"number_of_players": 6}, "tricks": []}')
Traceback (most recent call last):
...
tarotnotation.diagnostics.TarotError: J002 error: $.deal_info.number_of_players: \
expected 3, 4 or 5 players, found 6
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Final

import orjson

from ..cards import Card, CardSet
from ..diagnostics import Code, Diagnostic, Severity, TarotError
from ..encoding import not_utf8
from ..fields import DEFAULT_SEATS, UNRECORDED_TAG, Points
from ..i18n import Msg, Quoted, comma_list, message_of, nmsg, render
from ..limits import MAX_JSON_RECORD_BYTES, exceeded
from ..rules import Camp, table
from ..source import ReadDeal, SourceMap, read_deal
from .base import Format, Head
from .json import json_fault, json_type
from .tarotclubcards import (
    CONTRACT_NAMES,
    CONTRACTS,
    PLACES,
    SEATS,
    VERSION,
    card_code,
    parse_card,
    place_of_seat,
    seat_of_place,
)

if TYPE_CHECKING:  # (the model: imported by the functions that build or write records)
    from ..records import DealRecord

__all__ = [
    "CONTRACTS",
    "DEAL_FILE",
    "LOG",
    "PLACES",
    "VERSION",
    "card_code",
    "dropped",
    "dump",
    "dumps",
    "load",
    "loads",
    "parse_card",
    "place_of_seat",
    "read",
    "seat_of_place",
    "write",
]

# --- reading ----------------------------------------------------------------------------------


def _error(path: str, message: str, code: Code = Code.JSON_SCHEMA) -> TarotError:
    return TarotError(Diagnostic.make(code, message, path=path))


def _strip_trailing_commas(text: str) -> tuple[str, int]:
    """The text without commas that stand before ``]`` or ``}`` outside strings.

    >>> _strip_trailing_commas('{"a": [1, 2,], "b": "x,]",}')
    ('{"a": [1, 2], "b": "x,]"}', 2)
    """
    out: list[str] = []
    removed = 0
    in_string = False
    escaped = False
    n = len(text)
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
            out.append(ch)
            continue
        if ch == '"':
            in_string = True
        elif ch == ",":
            j = i + 1
            while j < n and text[j] in " \t\r\n":
                j += 1
            if j < n and text[j] in "]}":
                removed += 1
                continue
        out.append(ch)
    return "".join(out), removed


def _parse(data: bytes | str) -> tuple[Any, list[Diagnostic]]:
    """The parsed JSON and the leniency warnings (trailing commas removed)."""
    try:
        return orjson.loads(data), []
    except orjson.JSONDecodeError as err:
        first = err
    if isinstance(data, bytes) and data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]  # a BOM: orjson refuses it
        try:
            return orjson.loads(data), []
        except orjson.JSONDecodeError as err:
            first = err
    if "depth limit" in first.msg or "infinity" in first.msg:
        raise TarotError(json_fault(data, first)) from None
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError as err:
        assert isinstance(data, bytes)
        msg, col = not_utf8(data, err)
        raise TarotError(Diagnostic.make(
            Code.ENCODING, Msg("{message}; this record is not read", message=msg), path="$",
            col=col,
            line=data.count(b"\n", 0, err.start) + 1)) from None
    fixed, removed = _strip_trailing_commas(text)
    if removed:
        try:
            obj = orjson.loads(fixed)
        except orjson.JSONDecodeError:
            pass
        else:
            return obj, [Diagnostic.make(
                Code.JSON_SYNTAX, nmsg("{removed} trailing comma before ] or }} removed: not"
                                       " JSON, accepted leniently",
                                       "{removed} trailing commas before ] or }} removed: not"
                                       " JSON, accepted leniently", removed, removed=removed),
                severity=Severity.WARNING, path="$")]
    raise TarotError(Diagnostic.make(
        Code.JSON_SYNTAX, Msg("not valid JSON: {msg}", msg=first.msg), line=first.lineno,
        col=first.colno, path="$")) from None


def _string(obj: Mapping[str, Any], key: str, path: str) -> str:
    if key not in obj:
        raise _error(path, Msg("missing: expected {what}", what=_what(key)))
    value = obj[key]
    if not isinstance(value, str):
        raise _error(path, Msg("expected {what} (a string), found {found}", what=_what(key),
                               found=json_type(value)))
    return value


def _what(key: str) -> str:
    return {
        "taker": Msg("the taker's place (South, East, North, West or Fifth)"),
        "first_trick_lead": Msg("the place that led the first trick"),
        "FirstPlayer": Msg("the place that plays first"),
        "contract": Msg("the contract (Take, Guard, Guard without or Guard against)"),
        "dog": Msg("the dog as ;-separated card codes (or \"\")"),
        "Dog": Msg("the dog as ;-separated card codes"),
        "attack_handle": Msg("the attack's handle as ;-separated card codes (or \"\")"),
        "defense_handle": Msg("the defence's handle as ;-separated card codes (or \"\")"),
    }.get(key) or Msg("a hand as ;-separated card codes (or \"\")")


def _show(value: object) -> str:
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else (
        json_type(value) if value is not None else Msg("nothing"))


def _cards(text: str, path: str) -> list[Card]:
    """The cards of a ``;``-separated list; a card twice is an error."""
    if not text.strip():
        return []
    out: list[Card] = []
    for i, code in enumerate(text.split(";")):
        try:
            card = parse_card(code)
        except ValueError as err:
            raise _error(path, Msg("card {n}: {message}", n=i + 1, message=message_of(err))
                         ) from None
        if card in out:
            raise _error(path, Msg("card {n}: {code} appears twice", n=i + 1, code=code.strip()))
        out.append(card)
    return out


def _place(obj: Mapping[str, Any], key: str, path: str, players: int) -> str:
    value = _string(obj, key, path)
    try:
        return seat_of_place(value, players)
    except ValueError as err:
        raise _error(path, message_of(err)) from None


def _check_version(obj: Mapping[str, Any]) -> None:
    # Older TarotClub logs (before version 3) have another layout: never guess.
    if "version" not in obj:
        raise _error("$.version", Msg("missing: expected the TarotClub file version {version}",
                                      version=repr(VERSION)), Code.JSON_VERSION)
    version = obj["version"]
    if str(version) != VERSION:
        raise _error("$.version", Msg("TarotClub file version {version} is not known: expected"
                                      " {expected}", version=repr(version),
                                      expected=repr(VERSION)), Code.JSON_VERSION)


def _build(fields: dict[str, Any]) -> DealRecord:
    from pydantic import ValidationError

    from ..faults import model_faults
    from ..records import DealRecord

    try:
        return DealRecord(**fields)
    except ValidationError as err:  # the checks before this name the path; this is a backstop
        # (the record's paths are not this file's: said in the message, at "$")
        raise TarotError([Diagnostic.make(d.code, Msg("the deal's {path}: {message}",
                                                      path=d.location.path, message=d.message)
                                          if d.location.path else d.message, path="$")
                          for d in model_faults(err)]) from None


def _or_each(items: Sequence[str]) -> str:
    """``a or b or c``, translated with its ``or``s."""
    out: str = items[0]
    for item in items[1:]:
        out = Msg("{items} or {item}", items=out, item=item)
    return out


def _previous(seat: str, players: int) -> str:
    ids = SEATS[:players]
    return ids[(ids.index(seat) - 1) % players]


def _from_played(obj: Mapping[str, Any]) -> DealRecord:
    # (imported here: telling the format from its first bytes needs neither)
    from ..kernel import winner_index
    from ..records import ChelemAnnouncement, PlayedCard, Poignee, Result, Trick

    info = obj["deal_info"]
    if not isinstance(info, dict):
        raise _error("$.deal_info", Msg("expected an object, found {found}",
                                        found=json_type(info)))
    p = "$.deal_info"
    players = info.get("number_of_players")
    if isinstance(players, str) and players.strip() in ("3", "4", "5"):
        players = int(players)  # (not int() of any digits: '²' and 5,000 digits raise)
    if not isinstance(players, int) or isinstance(players, bool) or players not in (3, 4, 5):
        raise _error(f"{p}.number_of_players",
                     Msg("expected 3, 4 or 5 players, found {found}", found=_show(players)))
    tab = table(players)
    taker = _place(info, "taker", f"{p}.taker", players)
    contract_name = _string(info, "contract", f"{p}.contract")
    contract = CONTRACTS.get(contract_name.strip())
    if contract is None:
        raise _error(f"{p}.contract", Msg("{name} is not a contract: expected Take, Guard, Guard"
                                          " without or Guard against",
                                          name=Quoted(contract_name)))
    if "slam" not in info:
        raise _error(f"{p}.slam", Msg("missing: expected true or false (slam announced)"))
    slam = info["slam"]
    if not isinstance(slam, bool):
        raise _error(f"{p}.slam", Msg("expected true or false, found {found}",
                                      found=json_type(slam)))
    first = _place(info, "first_trick_lead", f"{p}.first_trick_lead", players)
    dog = _cards(_string(info, "dog", f"{p}.dog"), f"{p}.dog")
    if dog and len(dog) != tab.chien:
        raise _error(f"{p}.dog", Msg("expected the {n} cards of the dog at {players} players"
                                     " (or \"\"), found {found}", n=tab.chien, players=players,
                                     found=len(dog)))

    # The play: each trick from its leader; the next leader is the winner.
    tricks = obj.get("tricks", [])
    if not isinstance(tricks, list):
        raise _error("$.tricks", Msg("expected a list of tricks, found {found}",
                                     found=json_type(tricks)))
    if len(tricks) > tab.tricks:
        raise _error("$.tricks", Msg("a deal has {n} tricks at {players} players, found {found}",
                                     n=tab.tricks, players=players, found=len(tricks)))
    ids = SEATS[:players]
    play: list[Trick] = []
    played: dict[Card, str] = {}
    played_by: dict[str, set[Card]] = {s: set() for s in ids}
    leader = first
    ended_at: int | None = None
    for t, text in enumerate(tricks):
        path = f"$.tricks[{t}]"
        if not isinstance(text, str):
            raise _error(path, Msg("expected a trick as ;-separated card codes, found {found}",
                                   found=json_type(text)))
        cards = _cards(text, path)
        if not cards:
            ended_at = t if ended_at is None else ended_at
            continue
        if ended_at is not None:
            raise _error(path, Msg("trick {n} follows the unplayed trick {empty}: expected empty"
                                   " tricks only at the end", n=t + 1, empty=ended_at + 1))
        if len(cards) != players:
            raise _error(path, Msg("expected {players} cards (one per player), found {found}",
                                   players=players, found=len(cards)))
        for c, card in enumerate(cards):
            if card in played:
                raise _error(path, Msg("card {n}: {card} was already played in {where}", n=c + 1,
                                       card=card_code(card), where=played[card]))
            played[card] = path
            played_by[ids[(ids.index(leader) + c) % players]].add(card)
        play.append(Trick(cards=tuple(PlayedCard(card=c) for c in cards), leader=leader))
        w = winner_index(cards)
        assert w is not None  # a full trick holds a card other than the Excuse
        leader = ids[(ids.index(leader) + w) % players]

    declarations: list[Poignee | ChelemAnnouncement] = []
    for key, attack in (("attack_handle", True), ("defense_handle", False)):
        path = f"{p}.{key}"
        shown = _cards(_string(info, key, path), path)
        if not shown:
            continue
        if attack and players < 5:
            candidates: Sequence[str] = (taker,)
        elif attack:
            candidates = ids
        else:
            candidates = [s for s in ids if s != taker]
        counts = {s: len(played_by[s].intersection(shown)) for s in candidates}
        best = max(counts.values())
        holders = [s for s in candidates if counts[s] == best]
        if len(holders) != 1:
            raise _error(path, Msg("TarotClub records the handle per team: the player who showed"
                                   " it must be found from the play, and it cannot be"
                                   " ({holders} played as many of its cards)",
                                   holders=_or_each(holders)))
        declarations.append(Poignee(seat=holders[0], cards=CardSet.from_cards(shown)))
    if slam:
        declarations.insert(0, ChelemAnnouncement(seat=taker))

    tags: list[tuple[str, str]] = [("Source", "TarotClub")]
    if players == 5:  # no called card in a log: the replay says so as the format's limit
        tags.append((UNRECORDED_TAG, "call"))
    points, bouts = _score_block(info.get("score"), tags)
    record = _build({
        "tags": tags,
        "players": players,
        "dealer": None if slam else _previous(first, players),
        "chien": CardSet.from_cards(dog) if dog else None,
        "declarations": declarations,
        "play": play,
        "result": Result(contract=contract, taker=taker),
    })
    if points is None and bouts is None:
        return record
    if points is not None and points.half % 2 == 0:
        # TarotClub writes whole points, rounding a half point to the winning camp: a
        # recorded count half a point from the exact one is that rounding, not a fault.
        from ..replay import replay  # the replay imports no format module: no cycle

        exact = replay(record).taker_half
        if exact is not None and abs(exact - points.half) == 1:
            points = Points(exact)
    return record.model_copy(update={"result": Result(
        contract=contract, taker=taker, taker_points=points, bouts=bouts)})


#: The facts of TarotClub's ``score`` block checked against the play, and their fields.
_SCORE_FACTS: Final = {"attacker_points": "taker_points", "oudlers": "bouts"}


def _score_block(score: object, tags: list[tuple[str, str]]) -> tuple[Points | None,
                                                                        int | None]:
    """The taker's points and bouts of a ``score`` block; its other entries go to tags."""
    if score is None:
        return None, None
    path = "$.deal_info.score"
    if not isinstance(score, dict):
        raise _error(path, Msg("expected an object (TarotClub's score block), found {found}",
                               found=json_type(score)))
    points: Points | None = None
    bouts: int | None = None
    for name, value in score.items():
        if name == "attacker_points":
            try:
                if isinstance(value, bool) or not isinstance(value, (int, float)):
                    raise ValueError(Msg("found {found}", found=json_type(value)))
                points = Points.parse(value)
                if not points.is_card_points:
                    raise ValueError(Msg("points must be whole or half and lie between 0 and"
                                         " 91, not {points}", points=str(points)))
            except ValueError as err:
                raise _error(f"{path}.{name}", Msg("expected the attack's card points, a number"
                                                   " from 0 to 91: {why}",
                                                   why=message_of(err))) from None
        elif name == "oudlers":
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
                raise _error(f"{path}.{name}", Msg("expected the attack's oudlers (bouts), 0 to 3,"
                                                   " found {found}", found=_show(value)))
            bouts = value
        elif name.replace("_", "").isalnum() and name.isascii():
            tags.append((f"TarotClub_{name}", " ".join(str(value).split())))
    return points, bouts


def _from_prepared(obj: Mapping[str, Any]) -> DealRecord:
    hands: dict[str, list[Card]] = {}
    for place, seat in zip(PLACES, SEATS, strict=True):
        if place not in obj:
            raise _error(f"$.{place}", Msg("missing: expected {place}'s hand as ;-separated card"
                                           " codes (or \"\" for no player)", place=place))
        hand = _cards(_string(obj, place, f"$.{place}"), f"$.{place}")
        if hand:
            if len(hands) != PLACES.index(place):
                missing = next(pl for pl, s in zip(PLACES, SEATS, strict=True)
                               if s not in hands)
                raise _error(f"$.{place}", Msg("{place} has a hand but {missing} has none: expected"
                                               " the places filled from South in order of"
                                               " play", place=place, missing=missing))
            hands[seat] = hand
    players = len(hands)
    if players not in (3, 4, 5):
        raise _error("$", Msg("expected the hands of 3, 4 or 5 players, found {found}",
                              found=players))
    tab = table(players)
    first = _place(obj, "FirstPlayer", "$.FirstPlayer", players)
    dog = _cards(_string(obj, "Dog", "$.Dog"), "$.Dog")
    where: dict[Card, str] = {}
    for seat, hand in hands.items():
        path = f"$.{PLACES[SEATS.index(seat)]}"
        if len(hand) != tab.hand:
            raise _error(path, Msg("expected {n} cards at {players} players, found {found}",
                                   n=tab.hand, players=players, found=len(hand)))
        for card in hand:
            if card in where:
                raise _error(path, Msg("{card} is also in {where}", card=card_code(card),
                                       where=where[card]))
            where[card] = path
    if len(dog) != tab.chien:
        raise _error("$.Dog", Msg("expected the {n} cards of the dog at {players} players,"
                                  " found {found}", n=tab.chien, players=players,
                                  found=len(dog)))
    for card in dog:
        if card in where:
            raise _error("$.Dog", Msg("{card} is also in {where}", card=card_code(card),
                                         where=where[card]))
    return _build({
        "tags": [("Source", "TarotClub")],
        "players": players,
        "dealer": _previous(first, players),
        "hands": {s: CardSet.from_cards(h) for s, h in hands.items()},
        "chien": CardSet.from_cards(dog),
    })


def _from_object(obj: Any) -> DealRecord:
    if not isinstance(obj, dict):
        raise _error("$", Msg("expected a TarotClub deal file (a JSON object), found {found}",
                              found=json_type(obj)))
    _check_version(obj)
    if "deal_info" in obj:
        return _from_played(obj)
    if "Dog" in obj or "FirstPlayer" in obj:
        return _from_prepared(obj)
    raise _error("$", Msg("expected a TarotClub played log (deal_info and tricks) or a"
                          " prepared deal (FirstPlayer, Dog and the hands)"))


def _load(data: bytes | str) -> tuple[DealRecord, list[Diagnostic]]:
    obj, warnings = _parse(data)
    return _from_object(obj), warnings


def loads(data: bytes | str) -> DealRecord:
    """The record of a TarotClub deal file's text (played log or prepared deal)."""
    return _load(data)[0]


def load(fp: IO[bytes] | str | Path) -> DealRecord:
    """The record of a TarotClub deal file (a path or a binary file object)."""
    if isinstance(fp, (str, Path)):
        return loads(Path(fp).read_bytes())
    return loads(fp.read())


def read(source: bytes | str | Path | IO[bytes], *, name: str | None = None
         ) -> Iterator[ReadDeal]:
    """Yield the one deal of a TarotClub file as a :class:`ReadDeal`.

    ``source`` is a path, a binary file, or the JSON text itself (a ``str`` starting
    with ``{``). A file that cannot be read yields a ``ReadDeal`` with no record and the
    diagnostics saying why; leniencies used are warnings.

    >>> [d.ok for d in read(b'{"version": "3", "FirstPlayer": "South",}')]
    [False]
    """
    if isinstance(source, Path) or (isinstance(source, str)
                                    and not source.lstrip().startswith("{")):
        path = Path(source)
        name = name or str(path)
        data: bytes | str = path.read_bytes()
    elif isinstance(source, (bytes, str)):
        data = source
    else:
        data = source.read(MAX_JSON_RECORD_BYTES + 1)  # never more than the limit
    src = SourceMap(file=name) if name else None
    if len(data) > MAX_JSON_RECORD_BYTES:
        yield read_deal(1, None, (Diagnostic.make(Code.LIMIT_EXCEEDED, exceeded(
            Msg("this TarotClub file has more than"), "MAX_JSON_RECORD_BYTES",
            Msg("bytes; it is not read")), file=name, line=1, deal=1, path="$"),),
            source=src, line=1, offset=0)
        return
    try:
        record, warnings = _load(data)
    except TarotError as err:
        yield read_deal(1, None, tuple(d.at(file=name, deal=1) for d in err.diagnostics),
                       source=src, line=1, offset=0)
        return
    yield read_deal(1, record, tuple(d.at(file=name, deal=1) for d in warnings),
                   source=src, line=1, offset=0)


# --- writing ----------------------------------------------------------------------------------


def _annotation_places(record: DealRecord) -> list[str]:
    """Where the record carries glyphs or comments, as short names (``trick 3``)."""
    out: list[str] = []
    if record.glyph is not None or record.comments:
        out.append(Msg("the deal"))
    if any(b.glyph is not None or b.comments for b in record.auction):
        out.append(Msg("the auction"))
    if record.call is not None and (record.call.glyph is not None or record.call.comments):
        out.append(Msg("the call"))
    if record.ecart is not None and (record.ecart.glyph is not None or record.ecart.comments):
        out.append(Msg("the écart"))
    if any(d.glyph is not None or d.comments for d in record.declarations):
        out.append(Msg("the declarations"))
    for t, trick in enumerate(record.play, 1):
        if (trick.glyph is not None or trick.comments
                or any(pc.glyph is not None or pc.comments for pc in trick.cards)):
            out.append(Msg("trick {t}", t=t))
    if record.result is not None and (record.result.glyph is not None
                                      or record.result.comments):
        out.append(Msg("the result"))
    return out


def dropped(record: DealRecord) -> list[str]:
    """What a TarotClub log written from ``record`` by :func:`dumps` cannot hold.

    One short phrase per kind of information lost, in the order of the record (empty
    when nothing is lost). ``tarot convert --to tarotclub`` prints them as a warning.
    The ``Source "TarotClub"`` and ``Unrecorded "call"`` tags that :func:`read` adds are
    not counted.

    >>> rec = loads(b'{"version": "3", "deal_info": {"number_of_players": 4,'
    ...   b' "taker": "West", "contract": "Guard", "slam": false,'
    ...   b' "first_trick_lead": "North", "dog": "", "attack_handle": "",'
    ...   b' "defense_handle": ""}, "tricks": ["01-S;14-S;02-T;00-T"]}')
    >>> dropped(rec)
    []
    >>> from tarotnotation.records import DealRecord
    >>> named = DealRecord.model_validate({**rec.model_dump(), "comments": ["a lead"],
    ...     "seats": [{"id": "S", "name": "Ann"}, {"id": "E"}, {"id": "N"}, {"id": "W"}]})
    >>> dropped(named)
    ['player names (S Ann)', 'comments and glyphs (on the deal)']
    """
    from ..records import ChelemAnnouncement, Misere, Poignee  # (loaded: record is one)

    out: list[str] = []
    tags = [name for name, value in record.tags
            if (name, value) not in (("Source", "TarotClub"), (UNRECORDED_TAG, "call"))]
    if tags:
        out.append(Msg("tags ({tags})", tags=", ".join(tags)))
    if record.ruleset != "fft":
        out.append(Msg("the ruleset ({ruleset}: TarotClub plays its own rules)",
                       ruleset=record.ruleset))
    names = [f"{s.id} {s.name}" for s in record.seats if s.name]
    if names:
        out.append(Msg("player names ({names})", names=", ".join(names)))
    ids = record.seat_ids
    if ids != DEFAULT_SEATS[record.players]:
        out.append(Msg("the seat ids ({ids} become {places})", ids=" ".join(ids),
                       places=", ".join(PLACES[:record.players])))
    if record.dealer is not None and (
            any(isinstance(d, ChelemAnnouncement) for d in record.declarations)
            or (record.play and record.play[0].leader not in (None, record.first_seat))):
        out.append(Msg("the dealer ({dealer}: TarotClub keeps only the first leader)",
                       dealer=record.dealer))
    if record.hands:
        out.append(Msg("the hands (TarotClub derives them from the play and the dog)"))
    if record.auction:
        out.append(nmsg("the auction ({n} bid: only the taker's contract is kept)",
                        "the auction ({n} bids: only the taker's contract is kept)",
                        len(record.auction), n=len(record.auction)))
    if record.call is not None:
        out.append(Msg("the called card ({card})", card=record.call.card.code))
    if record.ecart is not None and (record.ecart.cards is not None or record.ecart.shown):
        out.append(Msg("the écart (TarotClub derives it from the cards never played)"))
    miseres = [d.seat for d in record.declarations if isinstance(d, Misere)]
    if miseres:
        out.append(Msg("misère declarations ({seats})", seats=comma_list(miseres)))
    if any(isinstance(d, Poignee) and d.size is not None for d in record.declarations):
        out.append(Msg("the declared size of poignées (TarotClub counts the cards shown)"))
    res = record.result
    if res is not None:
        kept = {"contract", "taker", "taker_points", "bouts"}
        facts = sorted(f for f in res.model_fields_set - kept - {"glyph", "comments"}
                       if getattr(res, f) not in (None, False))
        if facts:
            out.append(Msg("the recorded result ({facts}): TarotClub recomputes the score",
                           facts=", ".join(facts)))
    annotated = _annotation_places(record)
    if annotated:
        out.append(Msg("comments and glyphs (on {places})",
                       places=", ".join(render(a) for a in annotated)))
    return out



def dumps(record: DealRecord) -> bytes:
    """A TarotClub played log (format version 3) of a record, as UTF-8 JSON bytes.

    Seats map to places by position in the order of play (the first seat is South). The
    contract and taker come from the replay (auction or recorded result); tricks never
    played are written ``""`` as TarotClub does.

    >>> rec = loads(b'{"version": "3", "deal_info": {"number_of_players": 4,'
    ...   b' "taker": "West", "contract": "Guard against", "slam": false,'
    ...   b' "first_trick_lead": "North", "dog": "", "attack_handle": "",'
    ...   b' "defense_handle": ""}, "tricks": ["01-S;14-S;02-T;00-T"]}')
    >>> out = dumps(rec)
    >>> info = orjson.loads(out)["deal_info"]
    >>> info["taker"], info["contract"], info["first_trick_lead"]
    ('West', 'Guard against', 'North')
    >>> orjson.loads(out)["tricks"][:2]
    ['01-S;14-S;02-T;00-T', '']
    >>> loads(out) == rec.model_copy(update={"tags": (("Source", "TarotClub"),)})
    True
    """
    from ..records import ChelemAnnouncement, Poignee  # (loaded: record is one)
    from ..replay import replay  # the replay imports no format module: no cycle

    rep = replay(record)
    if rep.contract is None or rep.taker is None:
        raise ValueError("a TarotClub log needs the contract and the taker: the record"
                         " has neither an auction nor a result naming them")
    ids = record.seat_ids
    places = {s: PLACES[i] for i, s in enumerate(ids)}
    wrong = [d for d in rep.diagnostics if d.code in (Code.WRONG_LEADER, Code.OUT_OF_TURN)]
    if wrong:
        raise ValueError(f"TarotClub derives each trick's leader from the previous winner;"
                         f" this record departs from that: {wrong[0]}")
    first = rep.tricks[0].leader if rep.tricks else ids.index(record.first_seat)
    handles: dict[bool, CardSet] = {}
    for decl in record.declarations:
        if not isinstance(decl, Poignee):
            continue
        if decl.cards is None:
            raise ValueError(f"the poignée of {decl.seat} gives no cards: TarotClub records"
                             " the cards shown")
        attack = rep.camps.get(decl.seat) is Camp.TAKER
        if attack in handles:
            raise ValueError("TarotClub records one handle per team: this record has two"
                             f" in the {'attack' if attack else 'defence'}")
        handles[attack] = decl.cards
    chelem = any(isinstance(d, ChelemAnnouncement) for d in record.declarations)
    tricks = [";".join(card_code(pc.card) for pc in t.cards) for t in record.play]
    tricks += [""] * (record.table.tricks - len(tricks))

    def joined(cards: CardSet | None) -> str:
        return "" if cards is None else ";".join(card_code(c) for c in cards)

    info: dict[str, Any] = {
        "number_of_players": record.players,
        "taker": places[rep.taker],
        "contract": CONTRACT_NAMES[rep.contract],
        "slam": chelem,
        "first_trick_lead": PLACES[first],
        "dog": joined(record.chien),
        "attack_handle": joined(handles.get(True)),
        "defense_handle": joined(handles.get(False)),
    }
    res = record.result
    if res is not None and (res.taker_points is not None or res.bouts is not None):
        score: dict[str, Any] = {}
        if res.taker_points is not None:
            score["attacker_points"] = res.taker_points.as_number()
        if res.bouts is not None:
            score["oudlers"] = res.bouts
        info["score"] = score
    return orjson.dumps({"version": VERSION, "deal_info": info, "tricks": tricks})


def dump(record: DealRecord, fp: IO[bytes]) -> None:
    """Write a record to a binary file as a TarotClub played log (see :func:`dumps`)."""
    fp.write(dumps(record))
    fp.write(b"\n")


def write(records: Iterable[DealRecord], fp: IO[bytes]) -> int:
    """Write the one record of ``records`` as a TarotClub log; returns the count (1).

    A TarotClub file holds one deal: more than one record raises ``ValueError`` before
    anything is written for the second.
    """
    count = 0
    for record in records:
        if count:
            raise ValueError("a TarotClub file holds one deal: write each deal to its own"
                             " file")
        dump(record, fp)
        count += 1
    return count


# --- the formats, as the registry (formats/registry.py) knows them --------------------------

# A key: a quote inside a JSON string is escaped, so ``{ "deal_info":`` is always a key.
_LOG_KEY: Final = re.compile(rb'[{,]\s*"deal_info"\s*:')
_DEAL_KEY: Final = re.compile(rb'[{,]\s*"(?:FirstPlayer|Dog)"\s*:')


def _sniff_log(head: Head) -> bool:
    """An object with a ``deal_info`` key (looked for as a key in the text when the object
    cannot be parsed here: long, or with trailing commas)."""
    if not head.looks_like_json or head.text.startswith(b"["):
        return False
    obj = head.json_object
    return "deal_info" in obj if obj is not None else _LOG_KEY.search(head.text) is not None


def _sniff_deal(head: Head) -> bool:
    """An object with a ``FirstPlayer`` or ``Dog`` key (and no ``deal_info``)."""
    if not head.looks_like_json or head.text.startswith(b"["):
        return False
    obj = head.json_object
    if obj is not None:
        return "deal_info" not in obj and ("FirstPlayer" in obj or "Dog" in obj)
    return _LOG_KEY.search(head.text) is None and _DEAL_KEY.search(head.text) is not None


def _read_one(stream: IO[bytes], name: str | None) -> Iterator[ReadDeal]:
    return read(stream, name=name)


#: TarotClub's played-deal logs (read and written; a file holds one deal).
LOG: Final = Format(
    name="tarotclub",
    title=Msg("a TarotClub played-deal log"),
    suffixes=(),
    sniff=_sniff_log,
    read=_read_one,
    write=write,
    cannot_hold=dropped,
    one_deal=True,
    written_suffix=".json",
)
#: TarotClub's deal files, hands only (read only).
DEAL_FILE: Final = Format(
    name="tarotclub-deal",
    title=Msg("a TarotClub deal file (hands only)"),
    suffixes=(),
    sniff=_sniff_deal,
    read=_read_one,
    one_deal=True,
)
