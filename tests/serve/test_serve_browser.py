"""`tarot serve` for real in Chromium: the front page takes a name by clicking, keeps the
token in the browser (never in an address or a cookie), starts the deal of the day, and
the game page plays it to its end by clicking, every request of the game carrying the
token (its analysis refused until the day is over); the day's leaderboard then shows the
player. Ctrl-C ends the server with 130."""

from __future__ import annotations

import calendar
import datetime
import http.client
import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cli_runs import invoke

pytestmark = [pytest.mark.browser, pytest.mark.process]


def _click_through(page: Any) -> None:
    """Play the game page to its end by clicking: pass, declare nothing, the first legal
    card."""
    main = page.locator("#tarot")
    for _ in range(200):
        page.wait_for_function(
            "() => { const m = document.querySelector('#tarot'); return m &&"
            " !m.dataset.busy && (m.dataset.question || m.dataset.phase === 'over'); }",
            timeout=20000)
        question = main.get_attribute("data-question") or ""
        if not question:
            break
        seen = main.get_attribute("data-seen")
        if question == "bid":
            page.locator(".play-choice.pass").first.click()
        elif question == "declare":
            page.locator(".play-choice.none").click()
        else:
            assert question == "play", question
            page.locator(".hand-card:not(.illegal)").first.click()
        page.wait_for_function(
            "s => { const m = document.querySelector('#tarot'); return m.dataset.seen !== s"
            " && !m.dataset.busy; }", arg=seen, timeout=20000)
    assert main.get_attribute("data-phase") == "over"


#: The day the clocked test plays (a Wednesday), and its clock: 10:00 UTC that day, then
#: five seconds past the next midnight (TAROT_SERVE_CLOCK, docs/serve.md).
DAY = datetime.date(2026, 3, 4)
DURING = calendar.timegm((2026, 3, 4, 10, 0, 0))
AFTER = calendar.timegm((2026, 3, 5, 0, 0, 5))


def _start(database: str, clock: int, *extra: str) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "tarotnotation", "serve", "--port", "0", "--pace", "0",
         "--trusted-proxy", "127.0.0.1", "--database", database, *extra,
         *(f"--limit={name}=1000" for name in ("token_rate", "token_burst"))],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
        env={**os.environ, "TAROT_LANG": "en", "TAROT_SERVE_CLOCK": str(clock)})
    assert proc.stderr is not None
    found = re.search(r"http://127\.0\.0\.1:\d+/", proc.stderr.readline())
    assert found, proc.stderr.read()
    return proc, found.group()


def _stop(proc: subprocess.Popen[str]) -> None:
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=30) == 130
    assert proc.stderr is not None
    proc.stderr.close()


class _Client:
    """A simulated player of the HTTP API (as bench/serve_load.py's), from its own address
    (the server trusts 127.0.0.1's X-Forwarded-For)."""

    def __init__(self, address: str, number: int) -> None:
        self.port = int(address.rstrip("/").rsplit(":", 1)[1])
        self.forwarded = f"10.0.0.{number}"
        self.token = ""

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = {"X-Forwarded-For": self.forwarded}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        data = None if body is None else json.dumps(body).encode()
        if data is not None:
            headers["Content-Type"] = "application/json"
        try:
            conn.request(method, path, body=data, headers=headers)
            answer = conn.getresponse()
            text = answer.read()
            kind = answer.getheader("Content-Type") or ""
        finally:
            conn.close()
        return answer.status, json.loads(text) if kind == "application/json" else text

    def play_the_day(self, name: str, number: int) -> str:
        """Take ``name`` and play the day's deal to its end: the ``number``-th bid offered
        (or the last), then the first choice of every question; the game's id."""
        status, body = self.call("POST", "/api/players", {"name": name})
        assert status == 201, body
        self.token = body["token"]
        status, body = self.call("POST", "/api/daily")
        assert status in (200, 201), body
        game = str(body["game"])
        for _ in range(400):
            status, state = self.call("GET", f"/api/{game}/state")
            assert status == 200, state
            question = state.get("question")
            if question is None or state.get("deals"):
                return game
            kind = question["kind"]
            if kind == "bid":
                bids = question["bids"]
                action = {"kind": "bid", "value": bids[min(number, len(bids) - 1)]}
            elif kind == "call":
                action = {"kind": "call", "value": question["cards"][0]}
            elif kind == "ecart":
                action = {"kind": "ecart", "cards": question["cards"][:question["size"]]}
            elif kind == "chelem":
                action = {"kind": "chelem", "value": "no"}
            elif kind == "declare":
                action = {"kind": "declare", "cards": []}
            else:
                action = {"kind": "play", "value": question["cards"][0]}
            status, body = self.call("POST", f"/api/{game}/action", action)
            assert status == 200, (action, body)
        raise AssertionError("the game did not end")


def _matchpoints(scores: dict[str, int]) -> dict[str, float]:
    """Each score against every other of the deal: 1 for each beaten, 1/2 for a tie."""
    return {p: sum(1.0 if s > t else 0.5 if s == t else 0.0
                   for q, t in scores.items() if q != p) for p, s in scores.items()}


def test_chromium_ranked_against_simulated_players_then_the_day_published(
        browser: Any, database: str, tmp_path: Path) -> None:
    proc, address = _start(database, DURING)
    context = None
    games: dict[str, str] = {}
    try:
        # three simulated players play the day's deal through the API before the browser
        for number, name in enumerate(("Ana", "Bruno", "Chloé"), start=1):
            games[name] = _Client(address, number).play_the_day(name, number)
        context = browser.new_context(viewport={"width": 375, "height": 740})
        page = context.new_page()
        errors: list[str] = []
        urls: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("request", lambda r: urls.append(r.url))
        # refused, and only these: the analysis shows every hand, so not before the day's
        # end (403), and the browser's own favicon request (404); later the game without
        # its token (401)
        allowed = {(403, "analysis"), (404, "favicon.ico")}
        page.on("response", lambda r: errors.append(f"{r.status} {r.url}")
                if r.status >= 400
                and (r.status, r.url.split("?")[0].rsplit("/", 1)[1]) not in allowed else None)
        page.goto(address)
        page.fill("#lobby-name-input", "Zoé")
        page.click("#lobby-name button")
        page.wait_for_selector("#lobby-start", state="visible")
        assert "Zoé" in page.inner_text("#lobby-say")
        page.click("#lobby-start")
        page.wait_for_url(re.compile(r".*/play/[0-9a-f]+$"))
        games["Zoé"] = page.url.rsplit("/", 1)[1]
        game_page = page.url
        page.wait_for_selector("body[data-ready]", timeout=10000)
        try:
            _click_through(page)
            # every refusal is shown in its words: the analysis before the day's end
            # (a scored deal's: a day when everyone passed has no score and no analysis)...
            if page.locator(".play-scores").count():
                page.wait_for_function("() => document.querySelector('.play-analysis')"
                                       ".textContent.includes('once its day is over')",
                                       timeout=20000)
        finally:
            assert not errors, errors
        # a fourth plays after the browser
        games["Dan"] = _Client(address, 4).play_the_day("Dan", 0)
        status, board = _Client(address, 9).call("GET", "/api/leaderboard/day")
        assert status == 200, board
        assert board["date"] == DAY.isoformat(), board
        rows = {r["player"]: r for r in board["rows"]}
        assert set(rows) == set(games)
        scores = {p: int(r["score"]) for p, r in rows.items()}
        assert {p: float(r["matchpoints"]) for p, r in rows.items()} == _matchpoints(scores)
        assert {p: r["top"] for p, r in rows.items()} == dict.fromkeys(rows, len(rows) - 1)
        ranks = sorted(rows.values(), key=lambda r: r["rank"])
        assert [r["matchpoints"] for r in ranks] == sorted(
            (r["matchpoints"] for r in ranks), reverse=True)
        # the browser's leaderboard shows the same ranking, Zoé among the others
        page.goto(address)
        page.wait_for_function("n => document.querySelectorAll('#lobby-board tr').length"
                               " === n", arg=len(games), timeout=20000)
        shown = [[td.strip() for td in tr.split("\t")] for tr in
                 page.inner_text("#lobby-board").strip().split("\n")]
        assert [[int(rank), player, float(percent.removesuffix(" %")), int(score)]
                for rank, player, percent, score in shown] == [
            [r["rank"], r["player"], r["percent"], r["score"]] for r in board["rows"]], shown
        # ... and the guard's: the game without its token (401)
        token = page.evaluate("() => localStorage.getItem('tarot-token')")
        page.evaluate("() => localStorage.removeItem('tarot-token')")
        allowed.add((401, "state"))
        page.goto(game_page)
        page.wait_for_function("() => document.querySelector('.play-status')"
                               ".textContent.includes(\"a player's token\")", timeout=20000)
        page.evaluate("t => localStorage.setItem('tarot-token', t)", token)
        # the token kept in the browser: never in an address, nor in a cookie
        assert all(u.startswith(address) for u in urls), urls
        assert not any("token" in u.lower() for u in urls), urls
        assert context.cookies() == []
        # before midnight nothing is published
        status, _ = _Client(address, 9).call("GET", f"/games/{games['Zoé']}.tarot")
        assert status == 403
        assert not errors, errors
    finally:
        if context is not None:
            context.close()
        _stop(proc)
    # the day is over on the clock the test controls: every game is published...
    proc, address = _start(database, AFTER)
    try:
        client = _Client(address, 9)
        status, body = client.call("GET", f"/api/days/games?date={DAY.isoformat()}")
        assert status == 200, body
        assert {g["game"] for g in body["games"]} == set(games.values())
        for name, gid in games.items():
            status, text = client.call("GET", f"/games/{gid}.tarot")
            assert status == 200, text
            (tmp_path / f"{name}.tarot").write_bytes(text)
            status, _ = client.call("GET", f"/games/{gid}")
            assert status == 200
    finally:
        _stop(proc)
    ran = invoke("validate", *sorted(str(p) for p in tmp_path.glob("*.tarot")))
    assert ran.code == 0, ran.out + ran.err
    # ... and --export writes the deal and the games, records that validate clean
    ran = invoke("serve", "--database", database, "--export", str(tmp_path / "out"),
                 "--budget", "20000", env={"TAROT_SERVE_CLOCK": str(AFTER)})
    assert ran.code == 0, ran.err
    day = tmp_path / "out" / DAY.isoformat()
    assert sorted(p.name for p in day.iterdir()) == ["deal.tarot", "games.tarot"]
    ran = invoke("validate", str(day / "deal.tarot"), str(day / "games.tarot"))
    assert ran.code == 0, ran.out + ran.err
