"""`tarot serve` for real in Chromium: the front page takes a name by clicking, keeps the
token in the browser (never in an address or a cookie), starts the deal of the day, and
the game page plays it to its end by clicking, every request of the game carrying the
token (its analysis refused until the day is over); the day's leaderboard then shows the
player. Ctrl-C ends the server with 130."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.process]


def test_chromium_takes_a_name_and_plays_the_deal_of_the_day(browser: Any,
                                                              tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "tarotnotation", "serve", "--port", "0", "--pace", "0",
         "--database", str(tmp_path / "serve.db")], stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL, text=True, env={**os.environ, "TAROT_LANG": "en"})
    context = None
    try:
        assert proc.stderr is not None
        found = re.search(r"http://127\.0\.0\.1:\d+/", proc.stderr.readline())
        assert found
        address = found.group()
        context = browser.new_context(viewport={"width": 375, "height": 740})
        page = context.new_page()
        errors: list[str] = []
        urls: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        failed: list[tuple[str, int]] = []
        page.on("request", lambda r: urls.append(r.url))
        page.on("response", lambda r: failed.append((r.url, r.status))
                if r.status >= 400 else None)
        page.goto(address)
        page.fill("#lobby-name-input", "Zoé")
        page.click("#lobby-name button")
        page.wait_for_selector("#lobby-start", state="visible")
        assert "Zoé" in page.inner_text("#lobby-say")
        page.click("#lobby-start")
        page.wait_for_url(re.compile(r".*/play/[0-9a-f]+$"))
        page.wait_for_selector("body[data-ready]", timeout=10000)
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
        # every refusal is shown in its words: the analysis before the day's end (403)...
        page.wait_for_function("() => document.querySelector('.play-analysis')"
                               ".textContent.includes('once its day is over')", timeout=20000)
        game_page = page.url
        page.goto(address)
        page.wait_for_selector("#lobby-board tr")
        assert "Zoé" in page.inner_text("#lobby-board")
        # ... and the guard's: the game without its token (401)
        token = page.evaluate("() => localStorage.getItem('tarot-token')")
        page.evaluate("() => localStorage.removeItem('tarot-token')")
        page.goto(game_page)
        page.wait_for_function("() => document.querySelector('.play-status')"
                               ".textContent.includes(\"a player's token\")", timeout=20000)
        page.evaluate("t => localStorage.setItem('tarot-token', t)", token)
        assert not errors, errors
        # refused, and only these: the analysis shows every hand, so not before the day's
        # end (403), the game without its token (401), and the browser's own favicon
        # request (404)
        assert {(re.sub(r"/api/[0-9a-f]+/", "/api/GAME/", u.split("?")[0].removeprefix(
            address.rstrip("/"))), status) for u, status in failed} <= {
            ("/api/GAME/analysis", 403), ("/api/GAME/state", 401),
            ("/favicon.ico", 404)}, failed
        assert all(u.startswith(address) for u in urls), urls
        assert not any("token" in u.lower() for u in urls), urls
        assert context.cookies() == []
    finally:
        if context is not None:
            context.close()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 130
        assert proc.stderr is not None
        proc.stderr.close()
