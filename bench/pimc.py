"""The bots' benchmark: the CPU seconds a card of the ``pimc`` bot (and the ``oracle``).

Run: ``python bench/pimc.py [--players 4] [--deals 6] [--samples N] [--nodes N]
[--bot pimc|oracle]``.

Whole deals are dealt from seeds 0, 1, … and played at a :class:`Table` with the bot
in every seat (its fallback, the ``random`` bot, bids, calls and discards); each card it
chooses is timed in CPU seconds of this process (``time.process_time``: one core, the
same whatever else runs on the machine, within the noise a busy machine adds to a
process's own CPU time). Cards with one legal choice are played at once and left out.
It prints the median, the 90th percentile and the largest, and the slowest card's
trick, with the settings. ``docs/bots.md`` gives the numbers.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tarotnotation.cards import Card, CardSet
from tarotnotation.game import Game
from tarotnotation.players import Kind, Table
from tarotnotation.players.oracle import ORACLE_NODES, OraclePlayer
from tarotnotation.players.pimc import DEFAULT_NODES, DEFAULT_SAMPLES, PimcPlayer
from tarotnotation.players.view import SeatView


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--deals", type=int, default=6)
    ap.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    ap.add_argument("--nodes", type=int, default=None)
    ap.add_argument("--bot", choices=("pimc", "oracle"), default="pimc")
    args = ap.parse_args(argv)
    times: list[tuple[float, int]] = []
    if args.bot == "pimc":
        nodes = args.nodes or DEFAULT_NODES
        bot: PimcPlayer | OraclePlayer = PimcPlayer(seed=1, samples=args.samples, nodes=nodes)
    else:
        nodes = args.nodes or ORACLE_NODES
        bot = OraclePlayer(seed=1, nodes=nodes)
    for seed in range(args.deals):
        t = Table(Game.deal(args.players, seed=seed))
        while (d := t.pending()) is not None:
            if d.kind is Kind.PLAY and len(t.game.legal_moves) > 1:
                v: SeatView = t.view(d.seat, open_hands=bot.sees_all)
                legal: CardSet = t.game.legal_moves
                start = time.process_time()
                card: Card = bot.play(v, legal)
                times.append((time.process_time() - start, len(v.tricks) + 1))
                t.answer_play(d.seat, card)
            else:
                t.ask(bot)
    secs = sorted(s for s, _ in times)
    slowest = max(times)
    print(f"{bot.name} at {args.players} players, {args.deals} deals, {len(secs)} cards"
          f" with a choice: CPU seconds a card median {statistics.median(secs):.3f},"
          f" p90 {secs[int(0.9 * (len(secs) - 1))]:.3f}, max {slowest[0]:.3f}"
          f" (trick {slowest[1]})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
