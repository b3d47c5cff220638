"""The bots' benchmark: the time the heuristic bot takes to choose a card.

Run: ``python bench/bot_cards.py [--deals N] [--bot NAME]``. Plays ``--deals`` deals (200 by
default) at 3, 4 and 5 players, the bot at every seat, and times each ``play`` call
alone (the table's judging and the view's making are not counted; the view is made
before the clock starts): the median, 99th percentile and largest time a card, in
milliseconds of CPU time (``time.process_time``, so that a shared machine's load counts
less), and the cards timed. The issue's goal: ``heuristic`` at most 1 ms a card.
"""

from __future__ import annotations

import argparse
import statistics
import time

from tarotnotation.game import Game
from tarotnotation.players import Kind, Table, make


def card_times(bot_name: str, players: int, deals: int) -> list[float]:
    """The CPU seconds of each ``play`` call of ``deals`` deals at ``players`` players."""
    bot = make(bot_name)
    times: list[float] = []
    for seed in range(deals):
        t = Table(Game.deal(players, seed=seed))
        while (d := t.pending()) is not None:
            if d.kind is not Kind.PLAY:
                t.ask(bot)
                continue
            view = t.view(d.seat)
            legal = t.game.legal_moves
            start = time.process_time()
            card = bot.play(view, legal)
            times.append(time.process_time() - start)
            t.answer_play(d.seat, card)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--bot", default="heuristic")
    args = parser.parse_args()
    print(f"{args.bot}: CPU time of a card (ms), {args.deals} deals each")
    print("players   median     p99     max   cards")
    for players in (3, 4, 5):
        ms = sorted(x * 1000 for x in card_times(args.bot, players, args.deals))
        p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
        print(f"{players:7d} {statistics.median(ms):8.3f} {p99:7.3f} {ms[-1]:7.3f} "
              f"{len(ms):7d}")


if __name__ == "__main__":
    main()
