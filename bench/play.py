"""``tarot play``'s speed: the bots' answers, a click to its card on screen, first paint.

Run: ``python bench/play.py [--deals 200] [--bots random] [--browser]``.

- **The bots' answers**: the time the session takes from an answer of South's to the next
  question for South (every bot's answer in between, judged by the rules, and the state
  the page is sent), over ``--deals`` whole deals at 4 players, South answering at random;
  the median, the 99th centile and the worst, on one core.
- With ``--browser`` (Chromium, as the tests drive it): ``tarot play`` started on
  127.0.0.1, the game page's **first paint** (``first-contentful-paint`` from the
  navigation's start, over 10 loads) and the time from a **click on a card to that card
  shown** in the trick (the click, then the next frame: the page draws the card before it
  asks the server), over the cards of 3 deals.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import time
from typing import Any

from tarotnotation.server.api import Action, State, answer_of, state_of
from tarotnotation.server.session import Session, Start


def centiles(samples: list[float]) -> dict[str, float]:
    """Median, 99th centile and worst, in milliseconds."""
    s = sorted(samples)
    p99 = s[min(len(s) - 1, int(len(s) * 0.99))]
    return {"n": len(s), "median_ms": round(statistics.median(s) * 1000, 2),
            "p99_ms": round(p99 * 1000, 2), "max_ms": round(s[-1] * 1000, 2)}


def pick(state: State, rng: random.Random) -> Action:
    q = state.question
    assert q is not None
    if q.kind == "bid":
        return Action(kind="bid", value=rng.choice(q.bids))
    if q.kind in ("call", "play"):
        return Action(kind=q.kind, value=rng.choice(q.cards))
    if q.kind == "ecart":
        return Action(kind="ecart", cards=rng.sample(q.cards, q.size))
    if q.kind == "chelem":
        return Action(kind="chelem", value="no")
    return Action(kind="declare", cards=[])


def bots(deals: int, name: str) -> dict[str, float]:
    rng = random.Random(1)
    samples: list[float] = []
    for seed in range(deals):
        session = Session(Start(players=4, seed=seed, bots=name))
        state = state_of(session, 0, "en")
        while state.question is not None:
            action = pick(state, rng)
            t0 = time.perf_counter()
            refused = session.answer(answer_of(action, "S"))
            state = state_of(session, state.seen, "en")
            samples.append(time.perf_counter() - t0)
            assert refused is None
    return centiles(samples)


def browser() -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    proc = subprocess.Popen([sys.executable, "-m", "tarotnotation", "play", "--no-browser",
                             "--pace", "0", "--seed", "5"], stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    found = re.search(r"http://127\.0\.0\.1:\d+/", proc.stderr.readline())
    assert found
    address = found.group()
    out: dict[str, Any] = {}
    try:
        with sync_playwright() as pw:
            chromium = pw.chromium.launch(
                executable_path=os.environ.get("TAROT_CHROMIUM", "/usr/bin/chromium"))
            page = chromium.new_page(viewport={"width": 375, "height": 740})
            paints = []
            for _ in range(10):
                page.goto(address)
                page.wait_for_selector("body[data-ready]")
                paints.append(page.evaluate(
                    "() => performance.getEntriesByName('first-contentful-paint')[0].startTime")
                    / 1000)
            out["first_paint"] = centiles(paints)
            clicks: list[float] = []
            missed = 0
            for _ in range(3):
                page.goto(address)
                page.wait_for_selector("body[data-ready]")
                while True:
                    page.wait_for_function("() => { const m = document.querySelector('#tarot');"
                                           " return !m.dataset.busy && (m.dataset.question ||"
                                           " m.dataset.phase === 'over'); }")
                    q = page.locator("#tarot").get_attribute("data-question")
                    if not q:
                        break
                    seen = page.locator("#tarot").get_attribute("data-seen")
                    if q == "play":
                        clicks.append(page.evaluate(
                            "() => new Promise(done => { const b = document.querySelector("
                            "'.hand-card:not(.illegal)'); const code = b.dataset.card;"
                            " const t0 = performance.now(); b.click(); requestAnimationFrame("
                            "() => { const shown = document.querySelector("
                            "'.play-trick [data-card=\"' + code + '\"]');"
                            " done(shown ? (performance.now() - t0) / 1000 :"
                            " 'missed ' + code + ' busy=' + !!document.querySelector("
                            "'#tarot').dataset.busy + ' trick=' + Array.from("
                            "document.querySelectorAll('.play-trick [data-card]')).map("
                            "e => e.dataset.card).join(',')); }); })"))
                        if isinstance(clicks[-1], str):
                            print(clicks.pop(), file=sys.stderr)
                            missed += 1
                    elif q == "bid":
                        page.locator(".play-choice:not(.pass)").first.click()
                    elif q == "ecart":
                        size = int(page.locator(".play-prompt").get_attribute("data-size") or 0)
                        for i in range(size):
                            page.locator(".hand-card:not(.illegal)").nth(i).click()
                        page.locator(".play-choice.make").click()
                    elif q == "chelem":
                        page.locator(".play-choice.no").click()
                    elif q == "declare":
                        page.locator(".play-choice.none").click()
                    else:
                        page.locator(".play-choice").first.click()
                    try:
                        page.wait_for_function(
                            "s => { const m = document.querySelector('#tarot');"
                            " return m.dataset.seen !== s && !m.dataset.busy; }", arg=seen)
                    except Exception:
                        print(q, page.locator(".play-why").inner_text(), file=sys.stderr)
                        raise
            out["click_to_card"] = {**centiles(clicks), "missed": missed}
            chromium.close()
    finally:
        proc.send_signal(signal.SIGINT)
        out["exit_status"] = proc.wait(timeout=20)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--bots", default="random")
    parser.add_argument("--browser", action="store_true")
    args = parser.parse_args(argv)
    results: dict[str, Any] = {"bots": args.bots,
                               "bots_answer": bots(args.deals, args.bots)}
    if args.browser:
        results.update(browser())
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
