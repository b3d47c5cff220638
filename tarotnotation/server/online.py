"""``tarot serve``'s web application: names and tokens, the daily game, leaderboards,
behind a guard that bounds every request (docs/serve.md).

=====================================  ===================================================
``GET /``                              the front page (lobby.py): a name, the deal, the board
``POST /api/players``                  ``{"name": ...}``: a new name; its token, given once
``GET /api/me``                        the token's player, and today's game if any
``POST /api/daily``                    today's game: started (one attempt), or resumed
``GET /api/leaderboard/{period}``      ``day``, ``week`` or ``month`` (``?date=``)
``GET /api/me/history``                the player's days (``?from=&to=``)
``GET /api/days/games?date=``          the games of a day that is over (player, score)
``GET /games/{id}``, ``/games/{id}.tarot``  a game of a day that is over: the viewer's page,
                                       the record
=====================================  ===================================================

The token is read from the ``Authorization: Bearer`` header only (never an address, a
cookie or a log). :class:`Guard` runs before everything: the request's address
(:func:`~.quotas.client_address`, ``X-Forwarded-For`` believed only from a trusted
proxy), a token bucket per address and per token (429 with ``Retry-After``), the body's
size (413: read whole before anything else runs, counted as it arrives, whatever
``Content-Length`` says). Every refusal is
JSON (refusals.py): ``{"refused": {"code": CODE, "message": WORDS, "expected": ...}}``,
with a stable code, in the request's language.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import re
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import orjson
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..i18n import Msg, language
from . import dailygame, leaderboard, lobby
from .quotas import Buckets, Limits, Network, client_address
from .refusals import refused, request_language
from .session import Session
from .store import PLAYING, AlreadyPlayedError, NameTakenError, PlayerRow, Store
from .tokens import BadNameError, address_key, authenticate, bearer, register, token_hash

__all__ = ["Guard", "Owned", "Server", "StoreSessions", "make_serve_app", "refusal",
           "serve_routes", "sweep_once"]

#: The headers of every answer.
HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}


def refusal(lang: str, status: int, code: str, message: Msg | str,
            headers: dict[str, str] | None = None, *, expected: Msg | str | None = None
            ) -> Response:
    """A refused request in ``lang`` (:func:`~.refusals.refused`: its status, a stable
    code, the words and what was expected)."""
    return refused(status, code, message, lang, expected=expected,
                   headers={**HEADERS, **(headers or {})})


def _json(data: Any, status: int = 200) -> Response:
    return Response(orjson.dumps(data), status_code=status, media_type="application/json",
                    headers=HEADERS)


@dataclass
class Server:
    """What the server runs on: its store, secret key, time zone, limits, trusted proxies
    and clock (the tests set it)."""

    store: Store
    zone: datetime.tzinfo
    limits: Limits = field(default_factory=Limits)
    proxies: Sequence[Network] = ()
    clock: Callable[[], float] = time.time
    key: bytes = b""
    lang: str | None = None
    """The language of the pages and refusals (default: the run's)."""
    pace: int = 350
    """The milliseconds the game page shows each bot's answer before the next."""
    hosts: Sequence[str] = ("*",)
    """The host names the game's app answers to (tarot play's TrustedHostMiddleware)."""

    def __post_init__(self) -> None:
        if not self.key:
            self.key = dailygame.key_of(self.store)
        self.address_secret = self.store.secret("address-key")
        lim = self.limits
        self.per_address = Buckets(lim.address_rate, lim.address_burst, lim.max_keys)
        self.per_token = Buckets(lim.token_rate, lim.token_burst, lim.max_keys)
        self.new_tokens = Buckets(lim.new_tokens_per_hour / 3600, lim.new_tokens_burst,
                                  lim.max_keys)

    def now(self) -> int:
        return int(self.clock())

    def day_over(self, day: str) -> bool:
        """Is ``day`` (``YYYY-MM-DD``) over, its deal no longer secret?"""
        end = datetime.date.fromisoformat(day) + datetime.timedelta(days=1)
        return self.clock() >= dailygame.day_start(end, self.zone)

    def today(self) -> datetime.date:
        return dailygame.day_of(self.clock(), self.zone)


class Guard:
    """The ASGI middleware every request passes first (see the module)."""

    def __init__(self, app: ASGIApp, server: Server) -> None:
        self.app = app
        self.server = server

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        server = self.server
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", [])}
        peer = scope.get("client")
        address = client_address(peer[0] if peer else None, headers.get("x-forwarded-for"),
                                 server.proxies)
        lang = request_language(headers.get("accept-language"), server.lang or language())
        scope.setdefault("state", {}).update(address=address, lang=lang)
        now = server.clock()
        if not server.per_address.take(address, now):
            wait = server.per_address.retry_after(address, now)
            await _send(refusal(lang, 429, "too-many-requests",
                                Msg("too many requests from this address: slow down"),
                                {"Retry-After": str(max(1, round(wait)))},
                                expected=_wait(wait)), scope, receive, send)
            return
        token = bearer(headers.get("authorization"))
        if token is not None and not server.per_token.take(token_hash(token), now):
            wait = server.per_token.retry_after(token_hash(token), now)
            await _send(refusal(lang, 429, "too-many-requests",
                                Msg("too many requests with this token: slow down"),
                                {"Retry-After": str(max(1, round(wait)))},
                                expected=_wait(wait)), scope, receive, send)
            return
        limit = server.limits.max_body
        length = headers.get("content-length", "0")
        if not length.isdigit() or int(length) > limit:
            await _send(_too_large(lang, limit), scope, receive, send)
            return
        body = b""
        more = True
        while more:  # (read whole, within the limit, before anything else runs)
            message = await receive()
            if message["type"] != "http.request":
                return  # the client left
            body += message.get("body", b"")
            if len(body) > limit:
                await _send(_too_large(lang, limit), scope, receive, send)
                return
            more = bool(message.get("more_body", False))
        given = False

        async def replayed() -> Message:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replayed, send)


def _too_large(lang: str, limit: int) -> Response:
    return refusal(lang, 413, "too-large", Msg("a request is at most {n} bytes", n=limit))


def _wait(seconds: float) -> Msg:
    """What a refusal for too many requests expects: a wait."""
    return Msg("a request after {n} seconds", n=max(1, round(seconds)))


async def _send(response: Response, scope: Scope, receive: Receive, send: Send) -> None:
    await response(scope, receive, send)


def serve_routes(server: Server) -> list[BaseRoute]:
    """The routes of names, the daily game's start and the leaderboards."""
    store = server.store

    def no(request: Request, status: int, code: str, message: Msg | str,
           headers: dict[str, str] | None = None) -> Response:
        return refusal(request.state.lang, status, code, message, headers)

    async def body_of(request: Request) -> dict[str, Any] | None:
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return None
        try:
            data = orjson.loads(await request.body())
        except orjson.JSONDecodeError:
            return None
        return data if isinstance(data, dict) else None

    def player_of(request: Request) -> PlayerRow | None:
        return authenticate(store, request.headers.get("authorization"))

    def unknown_token(request: Request) -> Response:
        return no(request, 401, "no-token", Msg("this needs a player's token (Authorization:"
                                            " Bearer TOKEN)"), {"WWW-Authenticate": "Bearer"})

    async def new_player(request: Request) -> Response:
        data = await body_of(request)
        if data is None or not isinstance(data.get("name"), str):
            return no(request, 400, "bad-request",
                      Msg('a new player is sent as JSON: {"name": ...}'))
        address = request.state.address
        name = data["name"]

        def make() -> Response:
            if not server.new_tokens.take(address, server.clock()):
                return no(request, 429, "too-many-names",
                          Msg("too many new names from this address: try again later"))
            try:
                player, token = register(store, name, now=server.now())
            except BadNameError as err:
                return no(request, 400, "bad-name", str(err.args[0]))
            except NameTakenError as err:
                return no(request, 409, "name-taken", str(err.args[0]))
            return _json({"name": player.name, "token": token}, 201)

        return await run_in_threadpool(make)

    async def me(request: Request) -> Response:
        def read() -> Response:
            player = player_of(request)
            if player is None:
                return unknown_token(request)
            game = store.game_of(player.id, server.today().isoformat())
            return _json({"name": player.name, "today": None if game is None else
                          {"game": game.id, "state": game.state}})

        return await run_in_threadpool(read)

    async def daily(request: Request) -> Response:
        address = request.state.address

        def start() -> Response:
            player = player_of(request)
            if player is None:
                return unknown_token(request)
            today = server.today().isoformat()
            game = store.game_of(player.id, today)
            if game is not None:
                if game.state == "playing":
                    return _json({"game": game.id, "day": today, "resumed": True})
                return no(request, 409, "already-played", Msg("the deal of {day} was already"
                                                          " played from this token or this"
                                                          " address", day=today))
            try:
                game = dailygame.start(store, server.key, player.id,
                                       address_key=address_key(address, server.address_secret),
                                       now=server.now(), zone=server.zone,
                                       max_games=server.limits.max_games)
            except AlreadyPlayedError as err:
                return no(request, 409, "already-played", str(err.args[0]))
            except dailygame.TooManyGamesError as err:
                return no(request, 503, "too-many-games", str(err.args[0]), {"Retry-After": "60"})
            return _json({"game": game.id, "day": today, "resumed": False}, 201)

        return await run_in_threadpool(start)

    def day_param(request: Request, name: str, default: datetime.date) -> datetime.date | None:
        text = request.query_params.get(name)
        if text is None:
            return default
        try:
            return datetime.date.fromisoformat(text[:10]) if len(text) == 10 else None
        except ValueError:
            return None

    async def board(request: Request) -> Response:
        period = request.path_params["period"]
        boards = {"day": leaderboard.day_board, "week": leaderboard.week_board,
                  "month": leaderboard.month_board}
        if period not in boards:
            return no(request, 404, "not-found", Msg("no such leaderboard: expected day, week or"
                                                 " month"))
        day = day_param(request, "date", server.today())
        if day is None:
            return no(request, 400, "bad-date", Msg("a date is written YYYY-MM-DD"))

        def read() -> Response:
            rows = boards[period](store, day)
            return _json({"period": period, "date": day.isoformat(), "rows": [
                {"rank": r.rank, "player": r.player, "games": r.games, "percent": r.percent,
                 "matchpoints": r.matchpoints, "top": r.top, "score": r.score} for r in rows]})

        return await run_in_threadpool(read)

    async def history(request: Request) -> Response:
        today = server.today()
        first = day_param(request, "from", today - datetime.timedelta(days=30))
        last = day_param(request, "to", today)
        if first is None or last is None or (last - first).days > 366:
            return no(request, 400, "bad-date", Msg("a date is written YYYY-MM-DD, and a history"
                                                " covers a year at most"))

        def read() -> Response:
            player = player_of(request)
            if player is None:
                return unknown_token(request)
            rows = leaderboard.history(store, player.id, first, last)
            return _json({"player": player.name, "days": [
                {"day": r.day, "score": r.score, "percent": r.percent, "rank": r.rank,
                 "players": r.players} for r in rows]})

        return await run_in_threadpool(read)

    def published(request: Request, gid: str) -> tuple[str, str] | Response:
        """The game's day and record once its day is over, or the refusal."""
        game = store.game(gid) if len(gid) <= 64 else None
        if game is None:
            return no(request, 404, "not-found", Msg("no such game"))
        if game.state == "playing" or not server.day_over(game.day):
            return no(request, 403, "not-yet", Msg("a game is shown once its day is over"))
        found = store.results(first_day=game.day, last_day=game.day)
        record = next((r.record for r in found if r.game_id == gid), None)
        if record is None:
            return no(request, 404, "not-found", Msg("no such game"))
        return game.day, record

    async def day_games(request: Request) -> Response:
        day = day_param(request, "date", server.today())
        if day is None:
            return no(request, 400, "bad-date", Msg("a date is written YYYY-MM-DD"))

        def read() -> Response:
            if not server.day_over(day.isoformat()):
                return no(request, 403, "not-yet", Msg("a game is shown once its day is over"))
            text = day.isoformat()
            return _json({"date": text, "games": [
                {"game": r.game_id, "player": r.player, "score": r.score}
                for r in store.results(first_day=text, last_day=text)]})

        return await run_in_threadpool(read)

    async def game_page(request: Request) -> Response:
        def read() -> Response:
            from .. import notation
            from ..html.deal import page

            found = published(request, str(request.path_params["gid"]))
            if isinstance(found, Response):
                return found
            html = page(notation.loads(found[1]))
            return Response(html.encode("utf-8"), media_type="text/html; charset=utf-8",
                            headers=HEADERS)

        return await run_in_threadpool(read)

    async def game_record(request: Request) -> Response:
        def read() -> Response:
            found = published(request, str(request.path_params["gid"]))
            if isinstance(found, Response):
                return found
            return Response(found[1].encode("utf-8"), media_type="text/plain; charset=utf-8",
                            headers=HEADERS)

        return await run_in_threadpool(read)

    async def index(request: Request) -> Response:
        html, policy = lobby.page(server.lang or language())
        return Response(html.encode("utf-8"), media_type="text/html; charset=utf-8",
                        headers={**HEADERS, "Content-Security-Policy": policy})

    return [
        Route("/", index, methods=["GET"]),
        Route("/api/days/games", day_games, methods=["GET"]),
        Route("/games/{gid}.tarot", game_record, methods=["GET"]),
        Route("/games/{gid}", game_page, methods=["GET"]),
        Route("/api/players", new_player, methods=["POST"]),
        Route("/api/me", me, methods=["GET"]),
        Route("/api/daily", daily, methods=["POST"]),
        Route("/api/leaderboard/{period}", board, methods=["GET"]),
        Route("/api/me/history", history, methods=["GET"]),
    ]


class StoreSessions:
    """``tarot play``'s app's session provider (:class:`~.app.Sessions`) over the store:
    a session is a daily game, found by the game's id; made again from the store
    (:func:`~.dailygame.session_of`: after a restart, the game resumes where it was) and
    kept in memory while it is played (the ``max_games`` used last); each change writes
    the answers given since the last one, and the result once the deal is over
    (:func:`~.dailygame.persist`). Games are started by ``POST /api/daily`` only."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self._kept: OrderedDict[str, tuple[Session, int]] = OrderedDict()
        self._lock = threading.Lock()

    def create(self) -> str:
        raise PermissionError("a daily game is started by POST /api/daily, with a token")

    def get(self, sid: str) -> Session | None:
        with self._lock:
            kept = self._kept.get(sid)
            if kept is not None:
                self._kept.move_to_end(sid)
                return kept[0]
        store, server = self.server.store, self.server
        game = store.game(sid) if len(sid) <= 64 else None
        if game is None:
            return None
        session = dailygame.session_of(store, server.key, game)
        if game.state == PLAYING:  # (the bots that had not answered when it stopped)
            written = dailygame.persist(store, game, session, now=server.now())
            self._keep(sid, session, written)
        return session

    def changed(self, sid: str, session: Session) -> None:
        store, server = self.server.store, self.server
        game = store.game(sid)
        if game is None or game.state != PLAYING:
            return
        with self._lock:
            kept = self._kept.get(sid)
        written = dailygame.persist(store, game, session, now=server.now(),
                                    written=None if kept is None else kept[1])
        game = store.game(sid)
        if game is not None and game.state == PLAYING:
            self._keep(sid, session, written)
        else:
            with self._lock:
                self._kept.pop(sid, None)

    def _keep(self, sid: str, session: Session, written: int) -> None:
        with self._lock:
            self._kept[sid] = (session, written)
            self._kept.move_to_end(sid)
            while len(self._kept) > self.server.limits.max_games:
                self._kept.popitem(last=False)


#: The game's requests of tarot play's app: /api/GAME/state, action, record, analysis.
_GAME_PATH: Final = re.compile(r"/api/([^/]{1,64})/(state|action|record|analysis)")


class Owned:
    """Before ``tarot play``'s app: a game's requests only with its player's token (401
    without one, 403 ``not-your-game`` with another's), an action only while the game is
    played (409 ``game-over``), its record and analysis once its day is over (403
    ``not-yet``: they show every hand)."""

    def __init__(self, app: ASGIApp, server: Server) -> None:
        self.app = app
        self.server = server

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        m = _GAME_PATH.fullmatch(scope.get("path", "")) if scope["type"] == "http" else None
        if m is not None:
            headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                       for k, v in scope.get("headers", [])}
            lang = request_language(headers.get("accept-language"),
                                    self.server.lang or language())
            answer = await run_in_threadpool(self.check, headers.get("authorization"),
                                             m.group(1), m.group(2), lang)
            if answer is not None:
                await answer(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def check(self, authorization: str | None, gid: str, what: str, lang: str = "en"
              ) -> Response | None:
        store = self.server.store
        player = authenticate(store, authorization)
        if player is None:
            return refusal(lang, 401, "no-token", Msg("this needs a player's token (Authorization:"
                                                " Bearer TOKEN)"), {"WWW-Authenticate": "Bearer"})
        game = store.game(gid)
        if game is None:
            return refusal(lang, 404, "not-found", Msg("no such game"))
        if game.player_id != player.id:
            return refusal(lang, 403, "not-your-game", Msg("this game is another player's"))
        if what == "action" and game.state != PLAYING:
            return refusal(lang, 409, "game-over", Msg("the game is over"))
        if what in ("record", "analysis") and not self.server.day_over(game.day):
            return refusal(lang, 403, "not-yet", Msg("a game is shown once its day is over"))
        return None


def make_serve_app(server: Server, extra: Sequence[BaseRoute] = (), *,
                   sweep: float | None = 60.0) -> ASGIApp:
    """The application: :func:`serve_routes`, ``extra``, and ``tarot play``'s app (the
    game's page and requests, over :class:`StoreSessions`, behind :class:`Owned`), all
    behind the :class:`Guard`. Every ``sweep`` seconds (None: never) the games left
    expire (:func:`~.dailygame.expire`)."""
    from .app import make_app

    def record_shown(gid: str) -> bool:  # (the day's deal is secret until the day's end)
        game = server.store.game(gid)
        return game is not None and server.day_over(game.day)

    game_app = Owned(make_app(StoreSessions(server), hosts=server.hosts, lang=server.lang,
                              pace=server.pace, record_shown=record_shown), server)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        task = None if sweep is None else asyncio.create_task(_sweeping(server, sweep))
        try:
            yield
        finally:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    app = Starlette(routes=[*serve_routes(server), *extra, Mount("", app=game_app)],
                    lifespan=lifespan)
    return Guard(app, server)


async def _sweeping(server: Server, every: float) -> None:
    """Expire the games left, every ``every`` seconds, until cancelled."""
    while True:
        await asyncio.sleep(every)
        await run_in_threadpool(sweep_once, server)


def sweep_once(server: Server) -> dailygame.Expired:
    """Expire the games left now (what the server does every minute)."""
    return dailygame.expire(server.store, server.key, now=server.now(),
                            expire_after=server.limits.expire_after)

