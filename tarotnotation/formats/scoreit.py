"""ScoreIt's saved Tarot games: one JSON file per game, one record per lap (deal).

ScoreIt (StephaneBg/ScoreIt, Apache-2.0) is an Android score keeper. It saves each game
as JSON through Moshi, under ``tarot/v2/<players>/`` in the app's storage; the layout
here is its model as of commit 7684d40c (``data/model/Game.kt``, ``Lap.kt``,
``TarotBidValue.kt``, ``TarotBonusValue.kt``, ``TarotOudlerValue.kt``,
``PlayerPosition.kt``; the ``"type"`` label from ``cache/di/CacheModule.kt``)::

    {"type": "TAROT",
     "players": [{"name": "Alice", "color": -16711936}, …],
     "laps": [{"playerCount": 4, "taker": "TWO", "partner": "NONE", "bid": "GUARD",
               "oudlers": ["PETIT", "TWENTY_ONE"], "points": 48,
               "bonuses": [{"player": "TWO", "bonus": "POIGNEE_SIMPLE"}]}, …]}

============================  ===========================================================
ScoreIt                       record
============================  ===========================================================
``players[i].name``           the seats ``S E N W F`` in the list's order, named so (the
                              app keeps no order of play, nor a dealer)
``taker``, ``partner``        ``ONE``…``FIVE`` (``NONE``: no partner): the result's taker
                              and, at five players, partner (the taker's own seat when
                              ``partner`` is the taker: alone)
``bid``                       ``SMALL`` prise, ``GUARD`` garde, ``GUARD_WITHOUT_KITTY``
                              garde sans, ``GUARD_AGAINST_KITTY`` garde contre
``oudlers``                   ``PETIT``, ``EXCUSE``, ``TWENTY_ONE``: the bouts, counted
``points``                    the taker's points (whole: the app has no half point)
``PETIT_AU_BOUT`` (player)    the petit au bout, to that player's camp
``POIGNEE_SIMPLE`` … (player) a poignée of that size shown by that player
``CHELEM_NON_ANNONCE``        a chelem by the taker's camp, unannounced
``CHELEM_ANNONCE_REALISE``    a chelem announced by the taker and made
``CHELEM_ANNONCE_NON_REALISE`` a chelem announced by the taker, not made
============================  ===========================================================

A key left out takes the value ScoreIt's model gives it (``taker`` ``ONE``, ``bid``
``SMALL``, ``points`` 56, no oudler nor bonus; ``partner`` ``TWO`` at five players),
as the app itself reads it. ScoreIt stores no score: the replay computes each lap's from
its facts, under the FFT rules; they are ScoreIt's own, except that ScoreIt counts only
the first poignée of a lap, where the rules count each. Each record carries ``[Source
"ScoreIt"]`` and its lap's number as ``Deal``. A value that cannot be read is a **C102**
error at its JSON path (``$.laps[3].bid``), that fact left out; a ScoreIt file of
another game (Belote, Coinche) is not a Tarot record file (**C105**).

>>> doc = b'''{"type":"TAROT","players":[{"name":"Alice","color":1},{"name":"Bruno",
... "color":2},{"name":"Chlo\\xc3\\xa9","color":3},{"name":"David","color":4}],
... "laps":[{"playerCount":4,"taker":"TWO","partner":"NONE","bid":"GUARD",
... "oudlers":["PETIT","TWENTY_ONE"],"points":48,"bonuses":[]}]}'''
>>> [deal] = read(doc)
>>> print(str(deal.record).splitlines()[-1])
result: garde taker E points 48 bouts 2
>>> deal.replay().scores["E"]
192
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, Final

import orjson

from ..diagnostics import Code, Diagnostic, quote
from ..fields import DEFAULT_SEATS
from ..i18n import Msg
from ..rules import Camp
from ..source import ReadDeal, read_deal
from .base import Format, Head

__all__ = ["BIDS", "BONUSES", "MAX_FILE_BYTES", "SCOREIT", "SUFFIXES", "read", "sniff"]

#: File name endings (ScoreIt names its files as the user likes; JSON inside).
SUFFIXES: Final = (".json",)
#: The largest ScoreIt file read (bytes).
MAX_FILE_BYTES: Final = 16 << 20
#: ``bid`` values and the contracts they are.
BIDS: Final = {"SMALL": "prise", "GUARD": "garde", "GUARD_WITHOUT_KITTY": "garde_sans",
               "GUARD_AGAINST_KITTY": "garde_contre"}
#: ``bonus`` values.
BONUSES: Final = ("PETIT_AU_BOUT", "POIGNEE_SIMPLE", "POIGNEE_DOUBLE", "POIGNEE_TRIPLE",
                  "CHELEM_NON_ANNONCE", "CHELEM_ANNONCE_REALISE", "CHELEM_ANNONCE_NON_REALISE")
_POSITIONS: Final = ("NONE", "ONE", "TWO", "THREE", "FOUR", "FIVE")
_OUDLERS: Final = ("PETIT", "EXCUSE", "TWENTY_ONE")
_HEAD: Final = re.compile(rb'^\s*\{\s*"type"\s*:\s*"(?:TAROT|UNIVERSAL|BELOTE|COINCHE)"')
_GAMES: Final = {"UNIVERSAL": "a ScoreIt game of the universal score sheet",
                 "BELOTE": "a ScoreIt Belote game", "COINCHE": "a ScoreIt Coinche game"}


def _shown(value: object) -> str:
    """A value of the file as a message quotes it (a list or an object as its JSON text)."""
    if isinstance(value, (list, dict)):
        return quote(orjson.dumps(value).decode())
    return quote(value)


def sniff(head: bytes) -> bool:
    """True when content starting with ``head`` is a ScoreIt game (its ``"type"`` label
    first, as Moshi writes it; or a whole object with ``type`` and ``laps``).

    >>> sniff(b'{"type":"TAROT","players":[]'), sniff(b'{"players": 4}')
    (True, False)
    """
    head = head.removeprefix(b"\xef\xbb\xbf")
    if _HEAD.match(head):
        return True
    try:
        obj = orjson.loads(head)
    except orjson.JSONDecodeError:
        return False
    return isinstance(obj, dict) and "laps" in obj and isinstance(obj.get("type"), str)


class _FaultError(Exception):
    def __init__(self, path: str, message: str) -> None:
        super().__init__(message)
        self.path = path
        self.message = message


def read(source: bytes | str | Path | IO[bytes], name: str | None = None
         ) -> Iterator[ReadDeal]:
    """Every lap of a ScoreIt Tarot game, as an outcome-only record (a path, a binary
    stream or the bytes)."""
    if isinstance(source, (str, Path)):
        name = name or str(source)
        with Path(source).open("rb") as fh:
            data = fh.read(MAX_FILE_BYTES + 1)
    elif isinstance(source, bytes):
        data = source
    else:
        data = source.read(MAX_FILE_BYTES + 1)

    def fail(code: Code, message: str, path: str = "$") -> ReadDeal:
        return read_deal(1, None, (Diagnostic.make(code, message, file=name, path=path),))

    if len(data) > MAX_FILE_BYTES:
        yield fail(Code.LIMIT_EXCEEDED, Msg("this ScoreIt file has more than {max_file_bytes} MiB"
                                            " (the limit MAX_FILE_BYTES of"
                                            " tarotnotation.formats.scoreit); it is not read",
                                            max_file_bytes=MAX_FILE_BYTES >> 20))
        return
    try:
        doc = orjson.loads(data.removeprefix(b"\xef\xbb\xbf"))
    except orjson.JSONDecodeError as err:
        yield fail(Code.JSON_SYNTAX, Msg("not JSON: {err}", err=err))
        return
    if not isinstance(doc, dict) or not isinstance(doc.get("laps"), list):
        yield fail(Code.SHEET_NOT_A_SHEET, Msg("not a ScoreIt game: expected an object with"
                                               " \"type\", \"players\" and \"laps\""))
        return
    kind = doc.get("type")
    if kind != "TAROT":
        what = _GAMES.get(str(kind), f"a ScoreIt game of type {_shown(kind)}")
        yield fail(Code.SHEET_NOT_A_SHEET, Msg("{what}, not Tarot: not a record file",
                                               what=what), "$.type")
        return
    try:
        names = _players(doc.get("players"))
    except _FaultError as fault:
        yield fail(Code.SHEET_BAD_CELL, fault.message, fault.path)
        return
    for i, lap in enumerate(doc["laps"]):
        yield _lap(lap, i, names, name)


def _players(players: Any) -> list[str]:
    if not isinstance(players, list) or not 3 <= len(players) <= 5:
        count = len(players) if isinstance(players, list) else 0
        raise _FaultError("$.players", f"a Tarot game has 3 to 5 players: found {count}")
    names = []
    for i, p in enumerate(players):
        name = p.get("name") if isinstance(p, dict) else None
        if not isinstance(name, str):
            raise _FaultError(f"$.players[{i}].name", "expected the player's name, a string")
        names.append(" ".join(name.split()))
    return names


def _lap(lap: Any, i: int, names: list[str], file: str | None) -> ReadDeal:
    index = i + 1
    base = f"$.laps[{i}]"
    n = len(names)
    ids = DEFAULT_SEATS[n]
    diags: list[Diagnostic] = []

    def bad(key: str, message: str) -> None:
        diags.append(Diagnostic.make(Code.SHEET_BAD_CELL, Msg("{message}: left out",
                                                              message=message), file=file,
                                     deal=index, path=f"{base}.{key}"))

    if not isinstance(lap, dict):
        return read_deal(index, None, (Diagnostic.make(
            Code.SHEET_BAD_CELL, Msg("expected a lap, an object"), file=file, deal=index,
            path=base),))
    count = lap.get("playerCount", n)
    if count != n:
        bad("playerCount", Msg("{shown}: the game has {n} players", shown=_shown(count), n=n))

    def position(key: str, default: str) -> int | None:
        value = lap.get(key, default)
        if value not in _POSITIONS:
            bad(key, Msg("{shown} is not a player position: expected ONE to {positions} (or NONE)",
                         shown=_shown(value), positions=_POSITIONS[n]))
            return None
        pos = _POSITIONS.index(value) - 1
        if pos >= n:
            bad(key, Msg("{value}: the game has {n} players", value=value, n=n))
            return None
        return pos

    res: dict[str, Any] = {}
    data: dict[str, Any] = {
        "tags": [("Source", "ScoreIt"), ("Deal", str(index))],
        "players": n, "seats": [{"id": s, "name": nm} for s, nm in zip(ids, names,
                                                                      strict=True)],
    }
    taker = position("taker", "ONE")
    if taker == -1:
        bad("taker", Msg("NONE: a lap has a taker"))
        taker = None
    if taker is not None:
        res["taker"] = ids[taker]
    partner: int | None = None
    if n == 5:
        partner = position("partner", "TWO")
        if partner == -1:
            bad("partner", Msg("NONE: at five players the partner is a player (the taker's own"
                               " position when alone)"))
            partner = None
        if partner is not None:
            res["partner"] = ids[partner]
    elif lap.get("partner", "NONE") != "NONE":
        bad("partner", Msg("{shown}: no partner at {n} players",
                           shown=_shown(lap.get('partner')), n=n))
    bid = lap.get("bid", "SMALL")
    if bid in BIDS:
        res["contract"] = BIDS[bid]
    else:
        bad("bid", Msg("{shown} is not a bid: expected {bids}",
                       shown=_shown(bid), bids=', '.join(BIDS)))
    oudlers = lap.get("oudlers", [])
    if isinstance(oudlers, list) and all(o in _OUDLERS for o in oudlers) and len(
            set(oudlers)) == len(oudlers):
        res["bouts"] = len(oudlers)
    else:
        bad("oudlers", Msg("{shown}: expected a list of distinct PETIT, EXCUSE, TWENTY_ONE",
                           shown=_shown(oudlers)))
    points = lap.get("points", 56)
    if isinstance(points, int) and not isinstance(points, bool) and 0 <= points <= 91:
        res["taker_points"] = points
    else:
        bad("points", Msg("{shown}: expected the taker's points, a whole number 0 to 91",
                          shown=_shown(points)))
    declarations: list[dict[str, Any]] = []
    bonuses = lap.get("bonuses", [])
    if not isinstance(bonuses, list):
        bad("bonuses", Msg("expected a list"))
        bonuses = []
    for b, bonus in enumerate(bonuses):
        where = f"bonuses[{b}]"
        if not isinstance(bonus, dict) or bonus.get("bonus") not in BONUSES:
            got = bonus.get("bonus") if isinstance(bonus, dict) else bonus
            bad(where, Msg("{shown} is not a bonus: expected {bonuses}",
                           shown=_shown(got), bonuses=', '.join(BONUSES)))
            continue
        value = bonus["bonus"]
        player = bonus.get("player")
        pos = _POSITIONS.index(player) - 1 if player in _POSITIONS else None
        if pos is None or not 0 <= pos < n:
            bad(f"{where}.player", Msg("{shown} is not a player of this game",
                                       shown=_shown(player)))
            continue
        if value == "PETIT_AU_BOUT":
            if taker is None:
                bad(where, Msg("a petit au bout, but the taker is not known"))
                continue
            ours = pos == taker or (n == 5 and pos == partner)
            res["petit_au_bout"] = (Camp.TAKER if ours else Camp.DEFENCE).value
        elif value.startswith("POIGNEE_"):
            declarations.append({"kind": "poignee", "seat": ids[pos],
                                 "size": value.removeprefix("POIGNEE_").lower()})
        else:
            if value != "CHELEM_ANNONCE_NON_REALISE":
                res["chelem"] = Camp.TAKER.value
            if value != "CHELEM_NON_ANNONCE" and taker is not None:
                declarations.append({"kind": "chelem", "seat": ids[taker]})
    if declarations:
        data["declarations"] = declarations
    data["result"] = res
    from .sheet import (
        validated,  # (the sheets' module: loaded when a sheet is read, not to detect a format)
    )

    record, faults = validated(data, file=file, path=base, deal=index)
    return read_deal(index, record, tuple(diags + faults))


# --- the format, as the registry (formats/registry.py) knows it -----------------------------


def _sniff_head(head: Head) -> bool:
    """A JSON object that starts with its ``"type"`` label, or that has ``type`` and
    ``laps`` (parsed once, by the head)."""
    if not head.looks_like_json or not head.text.startswith(b"{"):
        return False
    if _HEAD.match(head.text):
        return True
    obj = head.json_object
    return obj is not None and "laps" in obj and isinstance(obj.get("type"), str)


def _read_stream_of(stream: IO[bytes], name: str | None) -> Iterator[ReadDeal]:
    return read(stream, name)


#: ScoreIt's saved games (read only; ``.json`` files are JSON's by their name).
SCOREIT: Final = Format(
    name="scoreit",
    title=Msg("a ScoreIt game (score app)"),
    suffixes=(),
    sniff=_sniff_head,
    read=_read_stream_of,
)
