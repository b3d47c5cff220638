"""``tarot serve``: the daily game online, leaderboards, a real database (docs/serve.md)."""

from __future__ import annotations

import datetime
import os
import socket
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

from tarotnotation.i18n import Msg, Quoted, message_of, nmsg

from . import declare
from .common import echo_err, fail

if TYPE_CHECKING:
    from collections.abc import Callable

    from tarotnotation.server.online import Server
    from tarotnotation.server.quotas import Limits
    from tarotnotation.server.store import Store

EPILOG = """\
Examples:

  tarot serve --database serve.db --time-zone Europe/Paris

  tarot serve --database postgresql://tarot@db.example/tarot

  tarot serve --port 8035 --trusted-proxy 127.0.0.1

  tarot serve --database serve.db --export published/

One deal a day for everyone, made from a secret key kept in the
database; the day begins at midnight in --time-zone. Players pick a
name and get a token; each plays the day's deal once. --export writes
the days that are over (the deal, and every game with the solver's
comments) to DIR and stops. Behind a proxy, name it with
--trusted-proxy: X-Forwarded-For is believed from it only. The limits
(--limit NAME=VALUE), the security model and the schema: docs/serve.md.
"""

#: The default database: a SQLite file in the working folder.
DEFAULT_DATABASE = "sqlite:///tarot-serve.db"

#: For tests only (docs/serve.md): the Unix time, in seconds, at which the server's clock
#: starts (it runs on from there), so that a test can end a day without waiting for it.
CLOCK_VARIABLE = "TAROT_SERVE_CLOCK"


def _clock() -> Callable[[], float]:
    """The server's clock: the system's, or the one ``TAROT_SERVE_CLOCK`` sets (tests)."""
    given = os.environ.get(CLOCK_VARIABLE, "")
    if not given:
        return time.time
    try:
        start = float(given)
    except ValueError:
        start = float("nan")
    if not 0 <= start < 2**40:  # (nan and inf fail this too)
        fail(Msg("{name}={value}: expected a Unix time in seconds (for tests only)",
                 name=CLOCK_VARIABLE, value=Quoted(given)))
    offset = start - time.time()
    return lambda: time.time() + offset


def serve(
    host: Annotated[str, declare.Option("--host", help="The address to listen on.")
                    ] = "127.0.0.1",
    port: Annotated[int, declare.Option("--port", min=0, max=65535,
                                      help="The port (0: a free one).")] = 8035,
    database: Annotated[str, declare.Option(
        "--database", metavar="DATABASE",
        help="sqlite:///PATH (or a path) or postgresql://USER@HOST/NAME.")
    ] = DEFAULT_DATABASE,
    time_zone: Annotated[str, declare.Option(
        "--time-zone", metavar="ZONE", help="The day begins at midnight here (Europe/Paris).")
    ] = "UTC",
    trusted_proxy: Annotated[list[str] | None, declare.Option(
        "--trusted-proxy", metavar="ADDRESS",
        help="A proxy whose X-Forwarded-For is believed (an address or a network; again"
        " for more).")] = None,
    export: Annotated[str | None, declare.Option(
        "--export", metavar="DIR",
        help="Write the days that are over to DIR as records, then stop.")] = None,
    limit: Annotated[list[str] | None, declare.Option(
        "--limit", metavar="NAME=VALUE",
        help="Set a limit (max_body=16384, max_games=1000...: docs/serve.md).")] = None,
    pace: Annotated[int, declare.Option(
        "--pace", metavar="MS", min=0, max=10000,
        help="How long the page shows each bot's bid or card before the next.")] = 350,
    budget: Annotated[int, declare.Option(
        "--budget", metavar="NODES", min=1,
        help="With --export: the solver's budget a game, in nodes.")] = 2_000_000,
) -> None:
    """The daily game online: names and tokens, one deal a day, leaderboards.

    Serves until Ctrl-C; with --export, publishes the days that are over
    instead.
    """
    from tarotnotation.server import dailygame
    from tarotnotation.server.quotas import trusted_proxies
    from tarotnotation.server.store import Store, StoreError

    try:
        zone = dailygame.parse_zone(time_zone)
    except ValueError as err:
        fail(Msg("--time-zone: {why}", why=message_of(err)))
    try:
        proxies = trusted_proxies(trusted_proxy or ())
    except ValueError as err:
        fail(Msg("--trusted-proxy: {why}", why=message_of(err)))
    limits = _limits(limit or ())
    clock = _clock()
    try:
        store = Store.open(database)
        store.migrate(now=int(clock()))
    except StoreError as err:
        fail(message_of(err))
    try:
        if export is not None:
            _export(store, Path(export), zone, limits, budget, int(clock()))
            return
        from tarotnotation.server.online import Server

        _serve(Server(store, zone, limits, proxies, clock=clock, pace=pace), host, port)
    finally:
        store.close()


def _limits(given: list[str] | tuple[str, ...]) -> Limits:
    """The limits of ``--limit NAME=VALUE`` over the defaults."""
    import dataclasses

    from tarotnotation.server.quotas import Limits

    fields = {f.name: f.type for f in dataclasses.fields(Limits)}
    values: dict[str, float | int] = {}
    for item in given:
        name, sep, text = item.partition("=")
        name = name.strip()
        if not sep or name not in fields:
            fail(Msg("--limit {item}: expected NAME=VALUE, NAME one of {names}", item=item,
                     names=", ".join(fields)))
        try:
            values[name] = float(text) if fields[name] in (float, "float") else int(text)
        except ValueError:
            fail(Msg("--limit {item}: {value} is not a number", item=item, value=Quoted(text)))
    try:
        return Limits(**values)  # type: ignore[arg-type]
    except ValueError as err:
        fail(Msg("--limit: {why}", why=message_of(err)))


def _export(store: Store, folder: Path, zone: datetime.tzinfo, limits: Limits,
            budget: int, now: int) -> None:
    """``--export DIR``: each day over and not yet written, written."""
    from tarotnotation.atomic import WriteError
    from tarotnotation.server import dailygame

    key = dailygame.key_of(store)
    today = dailygame.day_of(now, zone).isoformat()
    written = 0
    for day in store.days():
        if day >= today or (folder / day / "games.tarot").exists():
            continue
        try:
            dailygame.export(store, key, datetime.date.fromisoformat(day), folder, now=now,
                             zone=zone, expire_after=limits.expire_after, budget=budget)
        except ValueError as err:  # games still being played: said, the others written
            echo_err(message_of(err))
            continue
        except (WriteError, OSError) as err:
            fail(Msg("cannot write to {folder}: {why}", folder=str(folder),
                     why=message_of(err)))
        written += 1
    echo_err(nmsg("{n} day published to {folder}", "{n} days published to {folder}", written,
                  n=written, folder=str(folder)))


def _serve(server: Server, host: str, port: int) -> None:
    """Serve until Ctrl-C (a KeyboardInterrupt, which the app ends with status 130)."""
    import uvicorn

    from tarotnotation.server.online import make_serve_app

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(1024)  # (connections wait from now on, while the app starts)
    except OSError as err:
        sock.close()
        fail(Msg("--host {host} --port {port}: {why}", host=host, port=port,
                 why=message_of(err)))
    bound = sock.getsockname()
    config = uvicorn.Config(make_serve_app(server), log_level="warning", access_log=False,
                            lifespan="on", proxy_headers=False, server_header=False)
    echo_err(Msg("tarot serve: the daily game is at {address} (Ctrl-C stops it)",
                 address=f"http://{host if family == socket.AF_INET else f'[{host}]'}"
                         f":{bound[1]}/"))
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
