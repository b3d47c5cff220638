"""pimc's levers, each measured by what its cards cost double-dummy: a screen far
cheaper than a match (a decision at a time, every decision of a deal), for choosing which
settings are worth a match.

    python bench/levers.py --deals 120 --out DIR pimc pimc:samples=40 pimc:auction=30 heuristic

The decisions: every card with a choice (two legal cards or more) of ``heuristic`` bots
playing ``Game.deal(N, seed=k)`` for k = 1, 2, ... (``--players`` N, 4 by default; the
first ``--deals`` deals with a taker; the passed deals are skipped). Each decision's
truth: every legal card rated in the real deal, every hand open, as the ``oracle`` rates it
(:func:`~tarotnotation.players.solving.card_values` at ``--truth-nodes``, 200,000 by
default: the oracle's budget). A bot's loss at a decision is the best card's rating less
the rating of the card it plays (the rating of :mod:`tarotnotation.players.solving`: the
margin in half-points, and 50 more or less when the outcome is settled): 0 when it plays
a card the oracle rates best.

Each bot (a roster spec: ``pimc:samples=40``) plays each decision from its seat's view
(the ``oracle`` from the open view); the table gives its mean loss a decision, over the
tricks 1-6, 7-12 and 13 to the last too, and its difference with the first bot named,
with a 95% interval over the deals (each deal's summed difference: the decisions of a deal
are not independent). The truth and each bot's losses are kept in ``DIR`` (JSON, written
whole, named after the number of players, the truth's budget and each bot's name there:
``loss-4p-200000-pimc_samples=10,nodes=20000,bid_shift=-3.json``), so that a run resumes
and a new bot reuses the truth; the truth is kept with a key of each decision, and a
folder whose decisions are not those worked out again (another version of the heuristic
or of the rules) is refused. A bot's losses are its cards' in the version that played
them: a bot changed since goes to another folder.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tarotnotation.atomic import writing
from tarotnotation.cards import CardSet
from tarotnotation.game import Game
from tarotnotation.players import Kind, SeatView, Table, make, view_of
from tarotnotation.players.roster import name_at
from tarotnotation.players.solving import card_values, position_of
from tarotnotation.rules import table as rules_table

#: The oracle's node budget a decision, the truth's by default.
TRUTH_NODES = 200_000


@dataclass(frozen=True, slots=True)
class Decision:
    """A card to choose: the deal, the seat's view, its legal cards and every hand."""

    deal: int
    view: SeatView
    legal: CardSet
    hands: dict[str, CardSet]
    aside: CardSet


def decisions(deals: int, players: int = 4) -> Iterator[Decision]:
    """Every card with a choice of the first ``deals`` deals with a taker at ``players``
    players (see the module), in order."""
    found = 0
    k = 0
    while found < deals:
        k += 1
        t = Table(Game.deal(players, seed=k))
        bots = {s: make("heuristic", seed=k) for s in t.game.seats}
        here = []
        while (d := t.pending()) is not None:
            g = t.game
            if d.kind is Kind.PLAY and len(g.legal_moves) > 1:
                taken = g.contract is not None and g.contract.takes_chien
                ecart = g.ecart.cards if g.ecart is not None else None
                aside = ecart if taken and ecart is not None else g.chien
                here.append(Decision(k, view_of(g, d.seat), g.legal_moves, dict(g.hands),
                                     aside))
            t.ask(bots[d.seat])
        if t.game.contract is not None:
            found += 1
            yield from here


def truth_of(d: Decision, nodes: int) -> dict[int, float]:
    pos = position_of(d.view, d.hands, d.aside)
    return {int(r.card): r.rating for r in card_values(pos, nodes=nodes, exact_tricks=4)}


def _load(path: Path) -> Any:
    return orjson.loads(path.read_bytes()) if path.exists() else None


def _save(path: Path, data: Any) -> None:
    with writing(path) as fh:
        fh.write(orjson.dumps(data))


def file_key(name: str) -> str:
    """A bot's name (:func:`~tarotnotation.players.roster.name_at`) as a file name's part:
    each run of other characters than letters, digits and ``=,.-`` made one ``_``.

    >>> file_key("oracle(nodes=3000)"), file_key("pimc(samples=30,nodes=20000)")
    ('oracle_nodes=3000', 'pimc_samples=30,nodes=20000')
    """
    return re.sub(r"[^A-Za-z0-9=,.-]+", "_", name).strip("_")


def key_of(d: Decision) -> str:
    """A decision's key: its deal and what its seat saw (the truth kept in a folder is
    checked against the decisions worked out again)."""
    return f"{d.deal}:" + hashlib.blake2b(d.view.key(), digest_size=8).hexdigest()


def run(out: Path, deals: int, truth_nodes: int, specs: list[str],
        players: int = 4) -> list[str]:
    """Work out the decisions and their truth (or read them from ``out``), play each
    bot's cards at them (or read its losses), and give the table."""
    out.mkdir(parents=True, exist_ok=True)
    points = list(decisions(deals, players))
    keys = [key_of(p) for p in points]
    tag = f"{players}p-{truth_nodes}"
    truth_path = out / f"truth-{tag}.json"
    kept = _load(truth_path) or {"keys": [], "truth": []}
    truth: list[dict[str, float]] = kept["truth"]
    common = min(len(kept["keys"]), len(keys))
    if kept["keys"][:common] != keys[:common]:
        raise SystemExit(f"levers.py: {truth_path} was worked out for other decisions (the"
                         " heuristic or the rules have changed since): use another folder")
    for i in range(len(truth), len(points)):
        truth.append({str(c): v for c, v in truth_of(points[i], truth_nodes).items()})
        if i % 200 == 0:
            _save(truth_path, {"keys": keys[:len(truth)], "truth": truth})
    if len(truth) > len(kept["keys"]):
        _save(truth_path, {"keys": keys[:len(truth)], "truth": truth})
    losses: dict[str, list[float]] = {}
    for spec in specs:
        path = out / f"loss-{tag}-{file_key(name_at(spec, players))}.json"
        done: list[float] = _load(path) or []
        start = time.process_time()
        for i in range(len(done), len(points)):
            p = points[i]
            bot = make(spec, seed=1)
            view = replace(p.view, open_hands=p.hands) if bot.sees_all else p.view
            card = str(int(bot.play(view, p.legal)))
            done.append(max(truth[i].values()) - truth[i][card])
            if i % 200 == 0:
                _save(path, done)
        _save(path, done)
        losses[spec] = done[:len(points)]  # (a file of more deals serves fewer)
        print(f"{spec}: {time.process_time() - start:.0f} CPU s", file=sys.stderr)
    return table(points, losses, rules_table(players).tricks)


def table(points: list[Decision], losses: dict[str, list[float]],
          tricks_in_deal: int = 18) -> list[str]:
    tricks = [len(p.view.tricks) for p in points]
    first = next(iter(losses.values()))
    lines = [f"{len(points):,} decisions of {len({p.deal for p in points})} deals;"
             " loss a decision in half-points (the best card's rating less the card"
             " played's)", "",
             f"| bot | loss | tricks 1-6 | 7-12 | 13-{tricks_in_deal} |"
             " − the first, 95% interval |",
             "|---|---|---|---|---|---|"]
    for spec, loss in losses.items():
        groups = []
        for low, high in ((0, 6), (6, 12), (12, 24)):
            xs = [x for x, t in zip(loss, tricks, strict=True) if low <= t < high]
            groups.append(f"{sum(xs) / max(1, len(xs)):.2f}")
        per: dict[int, float] = {}
        for p, a, b in zip(points, loss, first, strict=True):
            per[p.deal] = per.get(p.deal, 0.0) + a - b
        n = len(loss)
        diff = sum(per.values()) / n
        interval = "one deal: none"
        if len(per) > 1:
            half = 1.96 * statistics.stdev(per.values()) * len(per) ** 0.5 / n
            interval = f"{diff - half:+.3f} to {diff + half:+.3f}"
        lines.append(f"| {spec} | {sum(loss) / n:.3f} | {' | '.join(groups)} |"
                     f" {diff:+.3f} ({interval}) |")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("bots", nargs="+", help="roster specs: pimc, pimc:samples=40, ...")
    ap.add_argument("--deals", type=int, default=120)
    ap.add_argument("--players", type=int, choices=(3, 4, 5), default=4)
    ap.add_argument("--truth-nodes", type=int, default=TRUTH_NODES)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    for spec in args.bots:
        make(spec)  # (an unknown bot or setting: said before any work)
    print("\n".join(run(args.out, args.deals, args.truth_nodes, args.bots, args.players)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
