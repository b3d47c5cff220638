"""The game's ASGI application (Starlette): :func:`make_app`.

=====================================  ===================================================
``GET /``                              a new session, and a redirect to its page
``GET /play/{sid}``                    the game page (the viewer's page in play mode)
``GET /api/{sid}/state?since=N``       the :class:`~.api.State` (answers after the N-th)
``POST /api/{sid}/action?since=N``     an :class:`~.api.Action`; the state (with a
                                       ``Server-Timing: bots;dur=MS`` header: the bots'
                                       part of the time), or a refusal
``GET /api/{sid}/record?deal=N``       a deal's record (``.tarot``), once it is over
``GET /api/{sid}/analysis?deal=N``     the analysis of the person's cards, once computed
=====================================  ===================================================

The sessions come from a :class:`Sessions` provider, so that another server (the online
game) gives its own store: :class:`LocalSessions` keeps them in memory and writes each
deal over to ``--save DIR``. Every answer carries the security headers and the page the
same Content Security Policy as the viewer's pages, with its own server as the one place
it may connect to; a request is refused past :data:`~.api.MAX_ACTION_BYTES` (413), when it
is not JSON (415), or for a host that is not the server's (400: no page of another site
reaches it through a name it controls). The analysis runs in one background thread,
within a node budget, and is shown when it arrives.
"""

from __future__ import annotations

import contextlib
import datetime
import secrets
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, Protocol

import orjson
from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from ..atomic import writing
from ..cards import points_text
from ..i18n import Msg, language, render
from ..records import DealRecord
from .api import MAX_ACTION_BYTES, Action, State, answer_of, state_of
from .refusals import refused, request_language
from .session import Session, Start

__all__ = ["ANALYSIS_BUDGET", "LocalSessions", "Sessions", "analysis_of", "make_app"]

#: The nodes the analysis of one deal's cards may search (about a second of one core).
ANALYSIS_BUDGET = 4_000_000

#: How many deals' analyses the server keeps (each a few KB; the oldest go first).
_ANALYSES_KEPT = 64

#: The headers of every answer.
SECURITY_HEADERS: Mapping[str, str] = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Cache-Control": "no-store",
}


class Sessions(Protocol):
    """Where the server finds its sessions: made, found by id, and told of each change
    (to keep them)."""

    def create(self) -> str:
        """A new session; its id."""
        ...

    def get(self, sid: str) -> Session | None:
        """The session ``sid``, or None."""
        ...

    def changed(self, sid: str, session: Session) -> None:
        """``session`` took an answer or dealt a deal (a store keeps its state)."""
        ...


class LocalSessions:
    """The sessions of ``tarot play``, in memory: the first made from ``start``, each
    later one (another tab) from the next seed; the ``limit`` latest are kept (memory
    stays bounded however often the page is opened). With ``save``, each deal over is
    written to that folder as a ``.tarot`` record (whole or not at all)."""

    def __init__(self, start: Start, save: Path | None = None, limit: int = 32) -> None:
        self.start = start
        self.save = save
        self.limit = limit
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self._written: dict[str, int] = {}
        self._made = 0
        self._lock = threading.Lock()

    def create(self) -> str:
        with self._lock:
            n = self._made
            self._made += 1
            while len(self._sessions) >= self.limit:
                gone, _ = self._sessions.popitem(last=False)
                self._written.pop(gone, None)
            start = self.start if n == 0 or self.start.daily is not None else Start(
                players=self.start.players, rules=self.start.rules, seed=self.start.seed + n,
                human=self.start.human, bots=self.start.bots, settings=self.start.settings)
            sid = secrets.token_urlsafe(12)
            self._sessions[sid] = Session(start)
            self._written[sid] = 0
            return sid

    def get(self, sid: str) -> Session | None:
        return self._sessions.get(sid)

    def changed(self, sid: str, session: Session) -> None:
        if self.save is None:
            return
        records = session.records
        for number in range(self._written.get(sid, 0), len(records)):
            name = f"play-{datetime.date.today().isoformat()}-{sid[:8]}-{number + 1}.tarot"
            with writing(self.save / name) as fh:
                fh.write(str(records[number]).encode("utf-8"))
        self._written[sid] = len(records)


def analysis_of(record: DealRecord, seat: str, budget: int) -> dict[str, Any]:
    """The analysis of ``seat``'s cards in a deal played out: each card's cost to its camp
    (points, the least and most when the budget left bounds), the best card, and whether
    the card turned the contract; what the page shows."""
    from ..analysis import analyse_play

    analysis = analyse_play(record, budget=budget)
    cards = []
    for c in analysis.cards:
        if c.seat != seat:
            continue
        lo, hi = c.cost_bounds
        cards.append({"trick": c.trick, "card": c.card.code,
                      "cost": points_text(lo) if lo == hi
                      else f"{points_text(lo)}–{points_text(hi)}",
                      "best": c.best.code if c.best is not None and lo else None,
                      "changed": c.changed})
    return {"status": "done", "cards": cards, "exact": all(c.exact for c in analysis.cards)}


class _Bounded:
    """ASGI middleware: a request body past ``limit`` bytes is refused (413) before it
    is read whole."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or ()).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await _too_large(scope, receive, send)
            return
        seen = 0

        async def bounded() -> Any:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise _TooLargeError
            return message

        try:
            await self.app(scope, bounded, send)
        except _TooLargeError:
            await _too_large(scope, receive, send)


class _TooLargeError(Exception):
    pass


async def _too_large(scope: Scope, receive: Receive, send: Send) -> None:
    accept = dict(scope.get("headers") or ()).get(b"accept-language", b"").decode("latin-1")
    response = _refused(413, "too-large", Msg("a request holds at most {n} bytes",
                                              n=MAX_ACTION_BYTES),
                        request_language(accept, language()))
    await response(scope, receive, send)


def _refused(status: int, code: str, message: Msg | str, lang: str, *,
             expected: Msg | str | None = None) -> Response:
    return refused(status, code, message, lang, expected=expected, headers=SECURITY_HEADERS)


def _json(model: State | Mapping[str, Any]) -> Response:
    body = (model.model_dump_json().encode() if isinstance(model, State)
            else orjson.dumps(model))
    return Response(body, media_type="application/json", headers=dict(SECURITY_HEADERS))


def make_app(sessions: Sessions, *, page: Callable[[str], bytes] | None = None,
             csp: str | None = None, hosts: Iterable[str] = ("127.0.0.1", "localhost"),
             analysis_budget: int = ANALYSIS_BUDGET, lang: str | None = None,
             pace: int = 350, record_shown: Callable[[str], bool] | None = None
             ) -> Starlette:
    """The game's ASGI application over ``sessions`` (see the module). ``page`` makes
    the game page of a session id (default: :func:`tarotnotation.html.play_page`) and
    ``csp`` is its Content Security Policy; ``hosts`` the host names the server answers
    to; ``lang`` the language of the page and of the refusals (default: the run's);
    ``pace`` the milliseconds the page shows each bot's answer before the next;
    ``record_shown`` whether the state of a session id may carry the record of a deal
    over (every hand: None, always; ``tarot serve``: once the day is over)."""
    from ..html.layout import play_csp, play_page

    words = lang or language()
    make_page = page or (lambda sid: play_page({"session": sid, "delay": pace}))
    policy = csp or play_csp()
    locks: dict[str, threading.Lock] = {}
    shown = record_shown or (lambda sid: True)
    analyses: OrderedDict[tuple[str, int], Future[dict[str, Any]]] = OrderedDict()
    workers = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tarot-analysis")

    def session_of(request: Request) -> tuple[str, Session] | None:
        sid = str(request.path_params["sid"])
        found = sessions.get(sid) if len(sid) <= 64 else None
        return None if found is None else (sid, found)

    def since_of(request: Request) -> int:
        text = request.query_params.get("since", "0")
        return int(text) if text.isdigit() and len(text) < 9 else 0

    def lang_of(request: Request) -> str:
        return request_language(request.headers.get("accept-language"), words)

    def not_found(request: Request, what: Msg) -> Response:
        lang = lang_of(request)
        return _refused(404, "not-found", Msg("no such {what}", what=render(what, lang)), lang)

    async def index(request: Request) -> Response:
        sid = await run_in_threadpool(sessions.create)
        return RedirectResponse(f"/play/{sid}", status_code=303, headers=dict(SECURITY_HEADERS))

    async def game_page(request: Request) -> Response:
        found = session_of(request)
        if found is None:
            return not_found(request, Msg("game"))
        headers = {**SECURITY_HEADERS, "Content-Security-Policy": policy}
        return Response(make_page(found[0]), media_type="text/html; charset=utf-8",
                        headers=headers)

    async def state(request: Request) -> Response:
        found = session_of(request)
        if found is None:
            return not_found(request, Msg("game"))
        sid, session = found

        def read() -> Response:
            with locks.setdefault(sid, threading.Lock()):
                return _json(state_of(session, since_of(request), words,
                                      with_record=session.game.is_over() and shown(sid)))

        return await run_in_threadpool(read)

    async def action(request: Request) -> Response:
        found = session_of(request)
        if found is None:
            return not_found(request, Msg("game"))
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return _refused(415, "not-json", Msg("an action is sent as JSON"), lang_of(request),
                            expected="Content-Type: application/json")
        try:
            act = Action.model_validate_json(await request.body())
        except ValidationError:
            return _refused(400, "bad-action", Msg("an action is a JSON object as the game"
                                                   " page sends it"), lang_of(request))
        sid, session = found
        lang = lang_of(request)

        def apply() -> Response:
            with locks.setdefault(sid, threading.Lock()):
                if act.kind == "next":
                    if not session.next_deal():
                        return _refused(409, "not-over", Msg("the deal is not over"), lang,
                                        expected=Msg("the deal's last card played"))
                else:
                    try:
                        answer = answer_of(act, session.human)
                    except ValueError as err:
                        return _refused(400, "bad-action", str(err), lang)
                    refusal = session.answer(answer)
                    if refusal is not None:
                        return _refused(409, refusal.code, refusal.message, lang)
                sessions.changed(sid, session)
                done = _json(state_of(session, since_of(request), words,
                                      with_record=session.game.is_over() and shown(sid)))
                # (the bots' part of the answer's time: what "an action's time, the bots
                # not counted" leaves out; bench/serve_load.py reads it)
                done.headers["Server-Timing"] = f"bots;dur={1000 * session.bots_seconds:.1f}"
                return done

        return await run_in_threadpool(apply)

    async def record(request: Request) -> Response:
        found = session_of(request)
        if found is None:
            return not_found(request, Msg("game"))
        session = found[1]
        records = session.records
        text = request.query_params.get("deal", str(len(records) - 1))
        number = int(text) if text.isdigit() and len(text) < 9 else -1
        if not 0 <= number < len(records):
            return not_found(request, Msg("deal"))
        headers = {**SECURITY_HEADERS,
                   "Content-Disposition": f'attachment; filename="deal-{number + 1}.tarot"'}
        return Response(str(records[number]).encode("utf-8"), headers=headers,
                        media_type="text/plain; charset=utf-8")

    async def analysis(request: Request) -> Response:
        found = session_of(request)
        if found is None:
            return not_found(request, Msg("game"))
        sid, session = found
        records = session.records
        text = request.query_params.get("deal", str(len(records) - 1))
        number = int(text) if text.isdigit() and len(text) < 9 else -1
        result = records[number].result if 0 <= number < len(records) else None
        if result is None or result.annulled:
            return not_found(request, Msg("deal"))
        key = (sid, number)
        if key not in analyses:
            while len(analyses) >= _ANALYSES_KEPT:  # (the oldest, done or dropped)
                analyses.popitem(last=False)[1].cancel()
            analyses[key] = workers.submit(analysis_of, records[number], session.human,
                                           analysis_budget)
        job = analyses[key]
        if not job.done():
            return _json({"status": "running"})
        try:
            return _json(job.result())
        except Exception:  # (a deal the solver cannot take: said, never a traceback)
            return _json({"status": "failed"})

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            workers.shutdown(wait=False, cancel_futures=True)

    routes = [
        Route("/", index, methods=["GET"]),
        Route("/play/{sid}", game_page, methods=["GET"]),
        Route("/api/{sid}/state", state, methods=["GET"]),
        Route("/api/{sid}/action", action, methods=["POST"]),
        Route("/api/{sid}/record", record, methods=["GET"]),
        Route("/api/{sid}/analysis", analysis, methods=["GET"]),
    ]
    middleware = [Middleware(_Bounded, limit=MAX_ACTION_BYTES),
                  Middleware(TrustedHostMiddleware, allowed_hosts=list(hosts))]
    return Starlette(routes=routes, middleware=middleware, lifespan=lifespan)
