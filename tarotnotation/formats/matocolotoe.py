"""Matocolotoe/Tarot's monthly game files: ``games_YYYY_MM.json``, one record per game.

Tarot – Compteur de points (Matocolotoe/Tarot, a Java score manager) keeps a month's games
in ``data/games/games_YYYY_MM.json`` and its players in ``data/players.json``. The layout
here is its model as of commit b2ab4ca7 (``objects/Game.java``, ``objects/LocalPlayer.java``,
``objects/Player.java``, ``enums/*.java``, ``Files.java``): a JSON array of games, their
enums stored as ordinals (their place in the Java enum)::

    [{"day": 19, "contract": 1, "attack_score": 48, "oudlers": 2, "petit_au_bout": 0,
      "players": [{"id": 3, "side": 0, "handful": 0}, {"id": 1}, {"id": 4},
                  {"id": 2, "misery": 0}]}, …]

=====================  ===================================================================
Matocolotoe            record
=====================  ===================================================================
``players[i].id``      the seats ``S E N W F`` in the file's order, named from
                       ``players.json`` (beside the file or in its parent folder), else
                       ``#<id>``; the app keeps no order of play, nor a dealer
``side``               0 attack (the taker), 1 the called ally (five players), absent
                       the defence; at five players without an ally the taker is alone
``contract``           0 Petite (prise), 1 Garde, 2 Garde sans, 3 Garde contre
``attack_score``       the taker's points (whole)
``oudlers``            the bouts, 0 to 3
``petit_au_bout``      0 to the attack, 1 to the defence; absent: none
``slam``               0 announced by the attack (a chelem announced by the taker);
                       1 announced by the defence (not held: **C108**)
``handful``            0 simple, 1 double, 2 triple: a poignée of that player
``misery``             0 simple, 1 double: a misère of that player (its kind, atout or
                       tête, is not kept; a double one is held as one misère: C108), and
                       the ruleset ``fft misere=on``
``day``                with the file's year and month, the ``Date`` tag (0: day unknown)
=====================  ===================================================================

The app stores no score. It counts a chelem from the points: 91 is the attack's chelem,
0 the defence's; the reader records those chelems (and says so in a comment). The replay
then scores each game under the FFT rules, which are the app's but for a few points:
an announced chelem that fails costs −200 under FFT and nothing in the app, a double
misère is worth 20 there, and the app counts a chelem announced by the defence. Each
record carries ``[Source "Matocolotoe"]`` and its place in the month as ``Deal``. A value
that cannot be read is a **C102** error at its JSON path (``$[3].players[1].side``).

``players.json`` itself (``[{"id": 1, "name": "Alice"}, …]``) is read as no deal at all.

>>> month = b'[{"day":19,"contract":1,"attack_score":48,"oudlers":2,"players":[' \\
...         b'{"id":3,"side":0},{"id":1},{"id":4},{"id":2}]}]'
>>> [deal] = read(month, "games_2026_11.json")
>>> print(deal.record, end="")
[Source "Matocolotoe"] [Date "2026.11.19"] [Deal "1"] [Players "4"]
[Seats "S:#3, E:#1, N:#4, W:#2"] [Ruleset "fft"]
{Matocolotoe: the players' names are in players.json, which is not beside this file}
result: garde taker S points 48 bouts 2
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
from .base import Format

__all__ = ["CONTRACTS", "MATOCOLOTOE", "MATOCOLOTOE_PLAYERS", "MAX_FILE_BYTES", "SUFFIXES",
           "is_players_file", "read", "sniff"]

#: File name endings.
SUFFIXES: Final = (".json",)
#: The largest games file read (bytes).
MAX_FILE_BYTES: Final = 16 << 20
#: ``contract`` ordinals.
CONTRACTS: Final = ("prise", "garde", "garde_sans", "garde_contre")
_SIZES: Final = ("simple", "double", "triple")
_FILE_NAME: Final = re.compile(r"games_(\d{4})_(\d{2})\.json$", re.IGNORECASE)
_GAME_KEY: Final = re.compile(rb'"attack_score"\s*:')
#: A JSON array: ``[`` and the start of a JSON value (a notation tag is ``[`` and a name).
_ARRAY: Final = re.compile(rb'\[\s*(?:[{\["\-0-9\]]|(?:null|true|false)\s*[,\]])')
_PLAYER_KEYS: Final = frozenset({"id", "name", "monthNicks", "yearNicks"})
NOTE: Final = "Matocolotoe: "


_LEFT_OUT: Final = Msg(": left out")


def _shown(value: object) -> str:
    """A value of the file as a message quotes it (a list or an object as its JSON text)."""
    if isinstance(value, (list, dict)):
        return quote(orjson.dumps(value).decode())
    return quote(value)


def sniff(head: bytes) -> bool:
    """True when content starting with ``head`` is a Matocolotoe games file: a JSON array
    of games (``attack_score`` keys), told by the document's shape, whatever its first
    element (a broken first game is that game's fault, not another format).

    >>> sniff(b'[{"day":3,"contract":0,"attack_score":41'), sniff(b'[{"players": 4}]')
    (True, False)
    >>> sniff(b'[null, {"day":3,"contract":0,"attack_score":41'), sniff(b'[Event "attack_score":')
    (True, False)
    """
    text = head.removeprefix(b"\xef\xbb\xbf").lstrip()
    return _ARRAY.match(text) is not None and bool(_GAME_KEY.search(text[:4096]))


def is_players_file(head: bytes) -> bool:
    """True for Matocolotoe's ``players.json``: an array of ``{"id", "name"}`` objects.

    >>> is_players_file(b'[{"id":1,"name":"Alice"},{"id":2,"name":"Bruno"}]')
    True
    """
    try:
        doc = orjson.loads(head.removeprefix(b"\xef\xbb\xbf"))
    except orjson.JSONDecodeError:
        return False
    return (isinstance(doc, list) and bool(doc) and all(
        isinstance(p, dict) and isinstance(p.get("id"), int)
        and isinstance(p.get("name"), str) and set(p) <= _PLAYER_KEYS for p in doc))


def _names(name: str | None) -> dict[int, str] | None:
    """The players' names from the ``players.json`` beside the file or in its parent
    folder (``data/games/games_….json`` and ``data/players.json``)."""
    if name is None:
        return None
    here = Path(name).parent
    for folder in (here, here.parent):
        path = folder / "players.json"
        try:
            doc = orjson.loads(path.read_bytes()[:MAX_FILE_BYTES])
        except (OSError, orjson.JSONDecodeError):
            continue
        if isinstance(doc, list):
            return {p["id"]: " ".join(str(p["name"]).split()) for p in doc
                    if isinstance(p, dict) and isinstance(p.get("id"), int)
                    and isinstance(p.get("name"), str)}
    return None


def read(source: bytes | str | Path | IO[bytes], name: str | None = None
         ) -> Iterator[ReadDeal]:
    """Every game of a Matocolotoe month file (a path, a binary stream or the bytes);
    ``name`` (the file's path) gives the year and month and finds ``players.json``."""
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
        yield fail(Code.LIMIT_EXCEEDED, Msg("this games file has more than {max_file_bytes} MiB"
                                            " (the limit MAX_FILE_BYTES of"
                                            " tarotnotation.formats.matocolotoe); it is not read",
                                            max_file_bytes=MAX_FILE_BYTES >> 20))
        return
    try:
        doc = orjson.loads(data.removeprefix(b"\xef\xbb\xbf"))
    except orjson.JSONDecodeError as err:
        yield fail(Code.JSON_SYNTAX, Msg("not JSON: {err}", err=err))
        return
    if not isinstance(doc, list):
        yield fail(Code.SHEET_NOT_A_SHEET, Msg("not a Matocolotoe games file: expected a list of"
                                               " games"))
        return
    if is_players_file(data):
        return
    month = _FILE_NAME.search(name or "")
    names = _names(name)
    for i, game in enumerate(doc):
        yield _game(game, i, names, month, name)


def _game(game: Any, i: int, names: dict[int, str] | None, month: re.Match[str] | None,
          file: str | None) -> ReadDeal:
    index = i + 1
    base = f"$[{i}]"
    diags: list[Diagnostic] = []
    notes: list[str] = []

    def bad(key: str, message: str, code: Code = Code.SHEET_BAD_CELL,
            tail: str = _LEFT_OUT) -> None:
        diags.append(Diagnostic.make(code, Msg("{message}{tail}", message=message, tail=tail),
                                     file=file, deal=index,
                                     path=f"{base}.{key}"))

    def ordinal(obj: dict[str, Any], key: str, size: int, where: str) -> int | None:
        value = obj.get(key)
        if value is None:
            return None
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < size:
            bad(where, Msg("{shown}: expected 0 to {size}", shown=_shown(value), size=size - 1))
            return None
        return value

    if not isinstance(game, dict) or not isinstance(game.get("players"), list):
        return read_deal(index, None, (Diagnostic.make(
            Code.SHEET_BAD_CELL, Msg("expected a game: an object with its players"), file=file,
            deal=index, path=base),))
    players = game["players"]
    n = len(players)
    if not 3 <= n <= 5:
        return read_deal(index, None, (Diagnostic.make(
            Code.SHEET_BAD_CELL, Msg("a game has 3 to 5 players: found {n}", n=n), file=file,
            deal=index, path=f"{base}.players"),))
    ids = DEFAULT_SEATS[n]
    seats = []
    taker: int | None = None
    ally: int | None = None
    res: dict[str, Any] = {}
    declarations: list[dict[str, Any]] = []
    miseres = False
    for p, player in enumerate(players):
        where = f"players[{p}]"
        if not isinstance(player, dict) or not isinstance(player.get("id"), int):
            return read_deal(index, None, (Diagnostic.make(
                Code.SHEET_BAD_CELL, Msg("expected a player: an object with an id"), file=file,
                deal=index, path=f"{base}.{where}"),))
        pid = player["id"]
        label = names.get(pid) if names is not None else None
        seats.append({"id": ids[p], "name": label or f"#{pid}"})
        side = ordinal(player, "side", 3, f"{where}.side")
        if side == 0:
            if taker is not None:
                bad(f"{where}.side", Msg("a second attacker (side 0)"))
            else:
                taker = p
        elif side == 1:
            if n != 5:
                bad(f"{where}.side", Msg("an ally (side 1) at {n} players", n=n))
            elif ally is not None:
                bad(f"{where}.side", Msg("a second ally (side 1)"))
            else:
                ally = p
        handful = ordinal(player, "handful", 3, f"{where}.handful")
        if handful is not None:
            declarations.append({"kind": "poignee", "seat": ids[p], "size": _SIZES[handful]})
        misery = ordinal(player, "misery", 2, f"{where}.misery")
        if misery is not None:
            miseres = True
            declarations.append({"kind": "misere", "seat": ids[p], "misere": "atout"})
            notes.append(f"{seats[-1]['name']}'s misère: its kind (atout or tête) is not in"
                         " the file; recorded as atout")
            if misery == 1:
                bad(f"{where}.misery", Msg("a double misère (20 points in the app): the notation"
                                           " holds one misère per player (10 points); the second"
                                           " is left out"),
                    Code.SHEET_NOT_HELD, Msg(""))
    if names is None:
        notes.insert(0, "the players' names are in players.json, which is not beside this"
                     " file")
    elif any(s["name"].startswith("#") for s in seats):
        notes.insert(0, "a player's id is not in players.json")
    if taker is None:
        bad("players", Msg("no attacker (side 0): the taker is not known"))
    else:
        res["taker"] = ids[taker]
        if n == 5:
            res["partner"] = ids[taker if ally is None else ally]
    contract = ordinal(game, "contract", 4, "contract")
    if contract is not None:
        res["contract"] = CONTRACTS[contract]
    elif "contract" not in game:
        bad("contract", Msg("no contract"))
    score = game.get("attack_score")
    if isinstance(score, int) and not isinstance(score, bool) and 0 <= score <= 91:
        res["taker_points"] = score
        if score == 91:
            res["chelem"] = Camp.TAKER.value
            notes.append("a chelem by the attack, from its 91 points (as the app counts it)")
        elif score == 0:
            res["chelem"] = Camp.DEFENCE.value
            notes.append("a chelem by the defence, from the attack's 0 points (as the app"
                         " counts it)")
    else:
        bad("attack_score", Msg("{shown}: expected the taker's points, a whole number 0 to 91",
                                shown=_shown(score)))
    oudlers = ordinal(game, "oudlers", 4, "oudlers")
    if oudlers is not None:
        res["bouts"] = oudlers
    pab = ordinal(game, "petit_au_bout", 2, "petit_au_bout")
    if pab is not None:
        res["petit_au_bout"] = (Camp.TAKER if pab == 0 else Camp.DEFENCE).value
    slam = ordinal(game, "slam", 2, "slam")
    if slam == 0 and taker is not None:
        declarations.insert(0, {"kind": "chelem", "seat": ids[taker]})
    elif slam == 1:
        bad("slam", Msg("a chelem announced by the defence: the notation holds a chelem announced"
                        " by the taker only"), Code.SHEET_NOT_HELD)
    tags = [("Source", "Matocolotoe")]
    if month is not None:
        day = game.get("day")
        dd = f"{day:02d}" if isinstance(day, int) and 1 <= day <= 31 else "??"
        tags.append(("Date", f"{month.group(1)}.{month.group(2)}.{dd}"))
    tags.append(("Deal", str(index)))
    data: dict[str, Any] = {"tags": tags, "players": n, "seats": seats, "result": res}
    if miseres:
        data["ruleset"] = "fft misere=on"
    if declarations:
        data["declarations"] = declarations
    if notes:
        data["comments"] = [NOTE + note for note in notes]
    from .sheet import (
        validated,  # (the sheets' module: loaded when a sheet is read, not to detect a format)
    )

    record, faults = validated(data, file=file, path=base, deal=index)
    return read_deal(index, record, tuple(diags + faults))


# --- the formats, as the registry (formats/registry.py) knows them --------------------------


def _read_stream_of(stream: IO[bytes], name: str | None) -> Iterator[ReadDeal]:
    return read(stream, name)


#: Matocolotoe's month files (read only; ``.json`` files are JSON's by their name).
MATOCOLOTOE: Final = Format(
    name="matocolotoe",
    title=Msg("a Matocolotoe month of games (score app)"),
    suffixes=(),
    sniff=lambda head: sniff(head.text),
    read=_read_stream_of,
)
#: Matocolotoe's ``players.json``: no deal, and no fault either.
MATOCOLOTOE_PLAYERS: Final = Format(
    name="matocolotoe-players",
    title=Msg("Matocolotoe's list of players (no deal)"),
    suffixes=(),
    sniff=lambda head: head.complete and is_players_file(head.text),
    read=_read_stream_of,
    holds_deals=False,
)
