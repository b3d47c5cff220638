"""``tarot play``: a deal in the browser against bots, the server the referee."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

from tarotnotation.i18n import Msg, language, message_of

from . import declare
from .common import checked_spec, echo_err, fail

if TYPE_CHECKING:
    from tarotnotation.server.session import Start

EPILOG = """\
Examples:

  tarot play

  tarot play --players 5 --rules fft

  tarot play --daily --save games/

  tarot play --no-browser --port 8123 --seed 7

The game is served on 127.0.0.1 (this machine only) at a free port
unless --port gives one; the address is printed and the browser opened.
The server deals, holds the other hands and judges every card by the
rules: the page is sent only what your seat may see. Ctrl-C stops it.
How to play and the keys: docs/play.md.
"""


def play(
    daily: Annotated[bool, declare.Option(
        "--daily", help="Play the deal of the day (tarot new --daily): the same hands for"
        " everyone, and the same bots.")] = False,
    players: Annotated[int, declare.Option("--players", "-p", min=3, max=5,
                                         help="3, 4 or 5 players.")] = 4,
    rules: Annotated[str, declare.Option("--rules", metavar="PRESET",
                                       help="The ruleset (fft, pagat, or a spec such as"
                                       " 'fft misere=on').")] = "pagat",
    bots: Annotated[str, declare.Option("--bots", metavar="NAME",
                                      help="The bots at the other seats (heuristic,"
                                      " random, pimc).")] = "heuristic",
    seed: Annotated[int | None, declare.Option(
        "--seed", "-s", help="Seed of the shuffle (and the bots): the same seed, the same"
        " deals.")] = None,
    port: Annotated[int, declare.Option("--port", min=0, max=65535,
                                      help="The port (default 0: a free one).")] = 0,
    no_browser: Annotated[bool, declare.Option(
        "--no-browser", help="Do not open the browser; print the address only.")] = False,
    save: Annotated[str | None, declare.Option(
        "--save", metavar="DIR", help="Write each deal played to DIR as a .tarot record.")
    ] = None,
    pace: Annotated[int, declare.Option(
        "--pace", metavar="MS", min=0, max=10000,
        help="How long the page shows each bot's bid or card before the next.")] = 350,
) -> None:
    """Play Tarot in the browser against bots: bids, écart, cards, the score.

    By default 4 players, the pagat rules, you South. Every deal played
    is a record that tarot validate finds clean.
    """
    import datetime
    import random

    from tarotnotation.server.session import BOTS, Start

    spec = checked_spec(rules, "--rules") or "pagat"
    if bots not in BOTS:
        fail(Msg("--bots {name}: expected one of {names}", name=bots, names=", ".join(BOTS)))
    if daily and seed is not None:
        fail(Msg("--seed cannot be used with --daily: the deal of the day is the same for"
                 " everyone"))
    folder = None
    if save is not None:
        folder = Path(save)
        if not folder.is_dir():
            fail(Msg("--save {dir}: not a folder", dir=save))
    start = Start(players=players, rules=spec, bots=bots,
                  seed=seed if seed is not None else random.SystemRandom().getrandbits(31),
                  daily=datetime.date.today().isoformat() if daily else None)
    serve(start, port, open_browser=not no_browser, save=folder, pace=pace)


def serve(start: Start, port: int, *, open_browser: bool, save: Path | None,
          pace: int) -> None:
    """Serve the game of ``start`` on 127.0.0.1 until Ctrl-C (a KeyboardInterrupt, which
    the app ends with status 130)."""
    import uvicorn

    from tarotnotation.server.app import LocalSessions, make_app

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port))
        sock.listen(128)  # (a browser that comes before the server is up waits, not refused)
    except OSError as err:
        sock.close()
        fail(Msg("--port {port}: {why}", port=port, why=message_of(err)))
    address = f"http://127.0.0.1:{sock.getsockname()[1]}/"
    app = make_app(LocalSessions(start, save), lang=language(), pace=pace)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on")
    server = uvicorn.Server(config)
    echo_err(Msg("tarot play: the game is at {address} (Ctrl-C stops it)", address=address))
    if open_browser:
        import webbrowser

        webbrowser.open(address)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
