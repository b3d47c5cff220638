"""How often the daily game's deal is passed out when the player passes, by bots.

Run: ``python bench/daily_passes.py [--days N] [--keys K]``. For each choice of bots the
daily game could seat (the ``random`` bot; the ``heuristic``, ``tarot play``'s default,
with its own bid thresholds, with the books' 40/56/71/81, and with lower Prise
thresholds), over ``--days`` days (1,000) under each of ``--keys`` secret keys (made from
``sha256("daily passes K")``, so the run is the same everywhere): the days whose deal
every seat passes when the player (South, first to speak) passes, out of all days, and
out of the days when South's hand is one the heuristic itself would pass (a player who
passes a weak hand); then, South's seat played by the heuristic, the contracts the bots
take and make, and the taker's mean score (what lowering the thresholds costs the bots).
Each game is the server's own session (:func:`~tarotnotation.server.dailygame.start_of`,
its bots replaced by the choice measured). docs/serve.md gives the figures.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import hashlib
from typing import Any

from tarotnotation.players import Answer, Kind, make
from tarotnotation.players.heuristic import THRESHOLDS, hand_points
from tarotnotation.server import dailygame
from tarotnotation.server.session import Session
from tarotnotation.server.store import GameRow

#: The bots measured: a label, the bot's name and its settings.
CHOICES: tuple[tuple[str, str, tuple[tuple[str, Any], ...]], ...] = (
    ("random", "random", ()),
    ("heuristic 45/60/74/84 (its own)", "heuristic", ()),
    ("heuristic 40/56/71/81 (the books')", "heuristic", (("thresholds", (40, 56, 71, 81)),)),
    ("heuristic 38/56/71/81", "heuristic", (("thresholds", (38, 56, 71, 81)),)),
    ("heuristic 35/56/71/81 (the daily game's)", "heuristic",
     (("thresholds", dailygame.BOT_THRESHOLDS),)),
    ("heuristic 32/56/71/81", "heuristic", (("thresholds", (32, 56, 71, 81)),)),
)

FIRST_DAY = datetime.date(2027, 1, 1)


def measure(name: str, settings: tuple[tuple[str, Any], ...], days: int, keys: int
            ) -> dict[str, int]:
    """The counts of one choice of bots (see the module)."""
    south = make("heuristic")
    n = {"days": 0, "passed out": 0, "weak": 0, "weak passed out": 0, "taken": 0, "made": 0,
         "taker points": 0}
    for k in range(keys):
        key = hashlib.sha256(f"daily passes {k}".encode()).digest()
        for i in range(days):
            day = (FIRST_DAY + datetime.timedelta(days=i)).isoformat()
            deal = str(dailygame.day_deal(key, datetime.date.fromisoformat(day)))
            row = GameRow("g", "p", day, None, deal, "S", "playing", 0, 0, None)
            start = dataclasses.replace(dailygame.start_of(key, row), bots=name,
                                        settings=settings)
            session = Session(start)
            weak = hand_points(session.game.hands["S"]) < THRESHOLDS[4][0]
            if session.answer(Answer("S", Kind.BID, "pass")) is not None:
                raise AssertionError("South's pass refused")
            out = session.game.is_over()
            n["days"] += 1
            n["passed out"] += out
            n["weak"] += weak
            n["weak passed out"] += weak and out
            if out:
                continue
            table = session.table
            while (d := table.pending()) is not None:
                table.ask(south if d.seat == "S" else session.bots[d.seat])
            result = table.game.record().result
            taker = table.game.taker
            if result is None or result.scores is None or taker is None:
                raise AssertionError("a deal taken but not scored")
            n["taken"] += 1
            n["made"] += result.scores[taker] > 0
            n["taker points"] += result.scores[taker]
    return n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=1000)
    parser.add_argument("--keys", type=int, default=1)
    args = parser.parse_args()
    print(f"{args.days} days x {args.keys} keys, South passing")
    print(f"{'bots':42} {'passed out':>14} {'weak S: out':>14} {'made':>12} {'taker':>6}")
    for label, name, settings in CHOICES:
        n = measure(name, settings, args.days, args.keys)
        out = f"{n['passed out']} ({100 * n['passed out'] / n['days']:.0f}%)"
        share = 100 * n["weak passed out"] / max(1, n["weak"])
        weak = f"{n['weak passed out']}/{n['weak']} ({share:.0f}%)"
        made = f"{n['made']}/{n['taken']}"
        mean = n["taker points"] / max(1, n["taken"])
        print(f"{label:42} {out:>14} {weak:>14} {made:>12} {mean:6.1f}")


if __name__ == "__main__":
    main()
