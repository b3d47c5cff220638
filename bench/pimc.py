"""The bots' benchmark: the CPU seconds a card of the ``pimc`` bot (and the ``oracle``).

Run: ``python bench/pimc.py [--players 4] [--deals 6] [--first 0] [--bot SPEC]``, the bot
written as the roster writes it (``pimc``, ``pimc:samples=10,nodes=20000``,
``oracle:nodes=200000``; ``--samples`` and ``--nodes`` still set pimc's).

Whole deals are dealt from seeds ``first``, ``first + 1``, … and played at a
:class:`Table` with the bot in every seat (its fallback, the ``heuristic`` bot, bids,
calls and discards: a deal all pass is not played); each card it chooses is timed in CPU
seconds of this process (``time.process_time``: one core, the same whatever else runs on
the machine, within the noise a busy machine adds to a process's own CPU time). Cards
with one legal choice are played at once and left out of the median, percentiles and
largest; the mean over every card (those included) gives the projection: the CPU hours
the issue's benchmark at that number of players spends on this bot's cards (4 players:
2,000 deals, 288 of the bot's cards a deal, 576,000 in all; 3 and 5 players: 500 deals,
216 and 375 cards a deal). ``docs/bots.md`` gives the numbers.
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
from tarotnotation.players import Kind, Table, make
from tarotnotation.players.roster import name_of
from tarotnotation.players.view import SeatView
from tarotnotation.rules import table as rules_table

#: The deals of the issue's benchmark by number of players.
BENCHMARK_DEALS = {3: 500, 4: 2000, 5: 500}


def benchmark_cards(players: int) -> int:
    """The bot's cards in the issue's benchmark at ``players`` players: each deal at
    ``2 × players`` tables, the bot alone at half of them and in every other seat at the
    other half, a seat's hand a card a trick.

    >>> benchmark_cards(4), benchmark_cards(3), benchmark_cards(5)
    (576000, 108000, 187500)
    """
    return BENCHMARK_DEALS[players] * players * players * rules_table(players).tricks


def percentile(sorted_secs: list[float], q: float) -> float:
    """The ``q`` quantile of sorted values (the nearest rank below).

    >>> percentile([1.0, 2.0, 3.0, 4.0], 0.99)
    3.0
    """
    return sorted_secs[int(q * (len(sorted_secs) - 1))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    ap.add_argument("--deals", type=int, default=6)
    ap.add_argument("--first", type=int, default=0, help="the first deal's seed")
    ap.add_argument("--samples", type=int, default=None)
    ap.add_argument("--nodes", type=int, default=None)
    ap.add_argument("--bot", default="pimc")
    args = ap.parse_args(argv)
    settings = {k: v for k, v in (("samples", args.samples), ("nodes", args.nodes))
                if v is not None}
    if args.bot.partition(":")[0] == "oracle":
        settings.pop("samples", None)
    bot = make(args.bot, seed=1, **settings)
    name = name_of(bot, args.players)
    total = benchmark_cards(args.players)
    times: list[tuple[float, int]] = []
    every = 0.0
    cards = 0
    for seed in range(args.first, args.first + args.deals):
        t = Table(Game.deal(args.players, seed=seed))
        while (d := t.pending()) is not None:
            if d.kind is Kind.PLAY:
                v: SeatView = t.view(d.seat, open_hands=bot.sees_all)
                legal: CardSet = t.game.legal_moves
                start = time.process_time()
                card: Card = bot.play(v, legal)
                spent = time.process_time() - start
                every += spent
                cards += 1
                if len(legal) > 1:
                    times.append((spent, len(v.tricks) + 1))
                t.answer_play(d.seat, card)
            else:
                t.ask(bot)
    if not times:
        print(f"{name}: no card with a choice in {args.deals} deals")
        return 0
    secs = sorted(s for s, _ in times)
    slowest = max(times)
    mean = every / cards
    print(f"{name} at {args.players} players, deals {args.first} to"
          f" {args.first + args.deals - 1}, {len(secs)} cards with a choice of {cards}:"
          f" CPU seconds a card median {statistics.median(secs):.3f},"
          f" p90 {percentile(secs, 0.9):.3f}, p99 {percentile(secs, 0.99):.3f},"
          f" max {slowest[0]:.3f} (trick {slowest[1]}); mean over every card {mean:.4f},"
          f" so {mean * total / 3600:.1f} CPU hours for the {args.players}-player"
          f" benchmark's {total:,} cards")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
