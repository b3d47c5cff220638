"""The load benchmark of ``tarot serve`` (issue 35's goal): simulated players on 127.0.0.1.

Run: ``python bench/serve_load.py [--games 200] [--database URL] [--kill]``.

It starts ``tarot serve`` on a free port (SQLite in a temporary folder unless
``--database`` names another, PostgreSQL included), with the limits raised for the load
(``--limit``: rates, new names, games) and 127.0.0.1 as a trusted proxy, so that each
simulated player comes from its own address (``X-Forwarded-For``). Each of ``--games``
threads takes a name, starts the day's game, and plays it to its end through the API
(``GET /api/{game}/state``, ``POST /api/{game}/action``: a legal choice drawn at random),
all at once, each waiting between two actions a time drawn from 0 to twice ``--think``
seconds (2 by default: a person's pace; 0: every player hammering the server). It reports
the median and 99th percentile of an action's answer time, with the bots' answers that
follow it (the server gives them in the same request) and without them (the answer's
``Server-Timing: bots;dur=MS``, the bots' part the server timed, taken off); for the
cards alone (an action ``play``: the answer brings the three bots' cards that follow, the
daily game's bots, ``tarot play``'s default heuristic) the 99th percentile and the
largest of the whole answer and of the bots' part; the machine's load average at the
start and at the end, the games finished, and the actions lost or doubled (each game's
record holds the answers the client gave, once each). With ``--kill`` the server is killed
with SIGKILL half way and started again on the same database: every game must resume
where it was (``finished`` equal to ``games``, nothing lost or doubled). An action whose
request the kill cut is sent again; when the server took the first before it died, the
second is refused (not the player's turn any more): ``resent_refused`` counts those, and
the action counts as given once (a resent action the server had not taken would show as
lost).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

TAROT = Path(sys.executable).parent / "tarot"


def start_server(database: str, games: int) -> tuple[subprocess.Popen[bytes], int]:
    limits = [f"max_games={games * 2}", "address_rate=1000", "address_burst=1000",
              "token_rate=1000", "token_burst=1000", "new_tokens_burst=1000",
              "new_tokens_per_hour=100000"]
    args = [str(TAROT), "serve", "--port", "0", "--database", database,
            "--trusted-proxy", "127.0.0.1"]
    for item in limits:
        args += ["--limit", item]
    proc = subprocess.Popen(args, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            env={**os.environ, "TAROT_LANG": "en"})
    assert proc.stderr is not None
    line = proc.stderr.readline().decode()
    port = int(line.split("127.0.0.1:")[1].split("/")[0])
    return proc, port


class Client:
    """One simulated player: its own connection, address and token."""

    def __init__(self, port: int, number: int) -> None:
        self.port = port
        self.address = f"10.{number // 65536 % 256}.{number // 256 % 256}.{number % 256}"
        self.token = ""
        self.bots = 0.0
        """The bots' part of the last answer's time (its Server-Timing), in seconds."""
        self.resent = False
        """Whether the last request was sent again (its connection cut: the server killed),
        so that the server may have taken the first."""
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        headers = {"X-Forwarded-For": self.address}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        self.resent = False
        for attempt in range(50):
            self.resent = attempt > 0
            try:
                self.conn.request(method, path, body=data, headers=headers)
                answer = self.conn.getresponse()
                text = answer.read()
                timing = answer.getheader("Server-Timing") or ""
                self.bots = (float(timing.partition(";dur=")[2]) / 1000
                             if timing.startswith("bots;dur=") else 0.0)
                return answer.status, json.loads(text) if text[:1] in (b"{", b"[") else text
            except (ConnectionError, http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
                time.sleep(0.2 * (attempt + 1))  # (the server restarting: --kill)
        raise RuntimeError("the server does not answer")


def choose(question: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    kind = question["kind"]
    if kind == "bid":
        return {"kind": "bid", "value": rng.choice(question["bids"])}
    if kind == "call":
        return {"kind": "call", "value": question["cards"][0]}
    if kind == "ecart":
        return {"kind": "ecart", "cards": question["cards"][:question["size"]]}
    if kind == "chelem":
        return {"kind": "chelem", "value": "no"}
    if kind == "declare":
        return {"kind": "declare", "cards": []}
    return {"kind": "play", "value": rng.choice(question["cards"])}


def play(client: Client, number: int, times: list[tuple[float, float, str]],
         report: dict[str, Any],
         halfway: threading.Event, lock: threading.Lock, think: float) -> None:
    rng = random.Random(number)
    time.sleep(rng.uniform(0, 2 * think))  # (the players do not all come at once)
    status, body = client.call("POST", "/api/players", {"name": f"bench {number}"})
    assert status == 201, body
    client.token = body["token"]
    status, body = client.call("POST", "/api/daily")
    assert status in (200, 201), body
    game = body["game"]
    given = 0
    while True:
        status, state = client.call("GET", f"/api/{game}/state")
        question = state.get("question") if isinstance(state, dict) else None
        if question is None or state.get("deals"):
            break
        action = choose(question, rng)
        if think:
            time.sleep(rng.uniform(0, 2 * think))
        t0 = time.perf_counter()
        status, _ = client.call("POST", f"/api/{game}/action", action)
        elapsed = time.perf_counter() - t0
        if status != 200:
            with lock:
                if client.resent:  # (taken before the kill, the answer lost with the server:
                    given += 1     # the check below finds it once in the store, or lost)
                    report["resent_refused"] += 1
                else:
                    report["refused"] += 1
            continue
        if action != {"kind": "declare", "cards": []}:
            given += 1  # (no declaration: the session may say it itself, see check)
        with lock:
            times.append((elapsed, client.bots, action["kind"]))
            if len(times) == report["half"]:
                halfway.set()
    with lock:
        report["finished"] += 1
        report["given"][game] = given


def check(database: str, given: dict[str, int]) -> tuple[int, int]:
    """Actions lost (the client's answer taken, not in the store) and doubled (South's
    answers in the store beyond those taken) over every game; "no declaration" is left
    out of both counts (the session gives it itself when South has nothing to declare)."""
    from tarotnotation.server.store import Store

    store = Store.open(database)
    try:
        lost = doubled = 0
        for game, n in given.items():
            mine = sum(1 for a in store.answers(game)
                       if a.seat == "S" and (a.kind, a.value) != ("declare", "[]"))
            lost += max(0, n - mine)
            doubled += max(0, mine - n)
        return lost, doubled
    finally:
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--database", default=None)
    parser.add_argument("--postgres", action="store_true",
                        help="a PostgreSQL server started for the run on 127.0.0.1 (as the"
                        " tests start it: tests/support/pg_server.py)")
    parser.add_argument("--kill", action="store_true")
    parser.add_argument("--think", type=float, default=2.0,
                        help="a player's mean time between two actions, in seconds (drawn"
                        " uniformly from 0 to twice it; 0: none, every player hammering)")
    args = parser.parse_args()
    if args.postgres:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))
        import pg_server

        with pg_server.postgres() as url:
            if url is None:
                raise SystemExit(f"PostgreSQL cannot start: {pg_server.WHY_NOT}")
            run(args, pg_server.fresh_database(url, "tarot_bench"))
        return
    folder = Path(tempfile.mkdtemp(prefix="tarot-serve-bench-"))
    run(args, args.database or f"sqlite:///{folder / 'serve.db'}")


def run(args: argparse.Namespace, database: str) -> None:
    """The benchmark on ``database``."""
    proc, port = start_server(database, args.games)
    times: list[tuple[float, float, str]] = []
    load_before = os.getloadavg()
    lock = threading.Lock()
    halfway = threading.Event()
    report: dict[str, Any] = {"finished": 0, "refused": 0, "resent_refused": 0, "given": {},
                              "half": args.games * 10}
    clients = [Client(port, i) for i in range(args.games)]
    threads = [threading.Thread(target=play,
                                args=(c, i, times, report, halfway, lock, args.think))
               for i, c in enumerate(clients)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    if args.kill:
        halfway.wait()
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc, new_port = start_server(database, args.games)
        for c in clients:
            c.port = new_port
            c.conn.close()
            c.conn = http.client.HTTPConnection("127.0.0.1", new_port, timeout=120)
    for t in threads:
        t.join()
    wall = time.perf_counter() - started
    proc.send_signal(signal.SIGINT)
    proc.wait()
    lost, doubled = check(database, report["given"])
    whole = sorted(t for t, _, _ in times)
    alone = sorted(max(0.0, t - bots) for t, bots, _ in times)
    cards = sorted(t for t, _, kind in times if kind == "play")
    card_bots = sorted(bots for _, bots, kind in times if kind == "play")
    print(json.dumps({
        "games": args.games, "finished": report["finished"], "actions": len(times),
        "refused": report["refused"], "resent_refused": report["resent_refused"],
        "wall_s": round(wall, 1),
        "median_ms": _ms(statistics.median(whole)) if whole else None,
        "p99_ms": _ms(whole[int(len(whole) * 0.99) - 1]) if whole else None,
        "median_ms_without_bots": _ms(statistics.median(alone)) if alone else None,
        "p99_ms_without_bots": _ms(alone[int(len(alone) * 0.99) - 1]) if alone else None,
        "cards": len(cards),
        "card_p99_ms": _ms(cards[int(len(cards) * 0.99) - 1]) if cards else None,
        "card_max_ms": _ms(cards[-1]) if cards else None,
        "card_bots_p99_ms": _ms(card_bots[int(len(card_bots) * 0.99) - 1]) if cards else None,
        "card_bots_max_ms": _ms(card_bots[-1]) if cards else None,
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "think_s": args.think, "lost": lost, "doubled": doubled,
        "database": "postgresql" if database.startswith("postgres") else "sqlite",
        "killed": args.kill}, indent=2))


def _ms(seconds: float) -> float:
    return round(1000 * seconds, 1)


if __name__ == "__main__":
    main()
