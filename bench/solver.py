"""The solver's benchmark: double-dummy values of positions from generated deals.

Run: ``python bench/run.py --solver [--positions N] [--only STAGE...] [--limit S]
[--node-limit N]`` (or ``python bench/solver.py`` with the same options).

Each stage searches ``--positions`` positions (default 30) taken from seeded random legal
deals (``simulate.random_deal``: random contract and taker), one solver (and table) per
position, and reports the median, 95th percentile and largest time (seconds of the wall
clock; the CPU time's median beside it, since a shared machine slows the wall clock), the
nodes searched per CPU second, the table's hit rate, and how many searches a time limit
stopped (``--limit``, 60 s by default: their time counts as the limit's). On a shared
machine the wall clock's limit stops a search after less CPU time the busier the machine
is: ``--node-limit N`` caps each search at N nodes instead (about 5 to 6 million a CPU
second), the same work whatever the load, so that two versions compare; the CPU time's
95th percentile and largest are reported beside the wall clock's:

- ``dd-8``, ``dd-12``: 8 and 12 tricks left at 4 players, exact value;
- ``close-12``: 12 tricks left at 4 players, exact value, the positions whose value lies
  within 10 points (20 half-points) of the threshold, as real deals do: the deals are
  drawn as ``dd-12`` draws them (the same stream: its first positions are ``dd-12``'s),
  and each is kept when two null-window tests (value >= -20, value <= 20) say so,
  each searched within 20 million nodes (the draws not decided within them are left
  out, and listed); no other selection. The draws kept are cached in
  ``bench/close-positions.json`` with each position's one-line form (checked against
  the draw, so that a change of the generator selects again; ``--reselect`` forces it);
- ``deal-yesno``: the whole deal from the first lead, "is the contract makeable?" (one
  null-window test at the threshold);
- ``analyze``: ``analyse_play`` of a whole deal from the first card (every card's cost;
  ``--analyze-limit`` bounds each position, 10 s by default, or ``--analyze-node-limit``
  nodes: a deal is capped when one of its positions is);
- the same at 3 and 5 players (``dd-8-3p``, ``dd-12-3p``, ``deal-yesno-3p``, and
  ``-5p``): 8 and 12 tricks are a third and a half of a deal at 3 players, more than half
  at 5;
- ``python-6``: the pure-Python core on 6 tricks left at 4 players;
- ``analyze-gen``: ``analyse_play`` with its defaults (a node budget per deal, costs to
  1 point) on the first ``--deals`` deals (20) of ``random_deal`` with the seed whose
  result as played lies within 10 points of the contract's threshold (no other
  selection), and ``analyze-real`` on the 4-player deals TarotClub played
  (``tarotmag_17`` and ``_18``, published in TAROT magazine, and the others of the
  shared corpus, ``../shared/corpus/tarotclub/played``, read in place; skipped with a
  message when absent): CPU seconds a deal, nodes, and the cards whose outcome is
  decided, whose cost is known within the precision, and exact (``--budget``,
  ``--precision`` change the defaults; ``--all-cards`` values every card).

It prints a table and writes it as JSON (``--json``, default ``bench/solver-results.json``).
``--log-tests`` also prints, for each position of the exact and yes/no stages, its value
and quick bounds and every null-window test the driver ran: ``[beta:g>=nodes]`` (passed,
value >= g), ``[beta:g<nodes]`` (failed, value <= g), ``!`` when a limit stopped it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tarotnotation.analysis import Position, Solver, analyse_play, deal_start, position_at
from tarotnotation.analysis.analyse import DEFAULT_BUDGET, DEFAULT_PRECISION
from tarotnotation.analysis.plan import known
from tarotnotation.analysis.search import Core, CoreTuple, core_tuple
from tarotnotation.atomic import writing
from tarotnotation.kernel import margin
from tarotnotation.records import DealRecord
from tarotnotation.simulate import random_deal

HERE = Path(__file__).resolve().parent
CLOSE_CACHE = HERE / "close-positions.json"
# Each of the selection's two tests is searched within this many nodes: a position whose
# place is not decided within them is left out (the cache lists these draws).
SELECT_NODES = 20_000_000


@dataclass(frozen=True)
class Stage:
    """A stage: the deals' players, the tricks left (0: the whole deal), what is asked."""

    players: int
    left: int
    kind: str  # "exact", "yesno", "analyze"
    engine: str = "c"
    close: int | None = None  # half-points: only positions valued within this of 0


STAGES: dict[str, Stage] = {
    "dd-8": Stage(4, 8, "exact"),
    "dd-12": Stage(4, 12, "exact"),
    "close-12": Stage(4, 12, "exact", close=20),
    "deal-yesno": Stage(4, 0, "yesno"),
    "analyze": Stage(4, 0, "analyze"),
    "dd-8-3p": Stage(3, 8, "exact"),
    "dd-12-3p": Stage(3, 12, "exact"),
    "deal-yesno-3p": Stage(3, 0, "yesno"),
    "dd-8-5p": Stage(5, 8, "exact"),
    "dd-12-5p": Stage(5, 12, "exact"),
    "deal-yesno-5p": Stage(5, 0, "yesno"),
    "python-6": Stage(4, 6, "exact", "python"),
    "analyze-gen": Stage(4, 0, "deals"),
    "analyze-real": Stage(4, 0, "deals"),
}
LABELS = {
    "dd-8": "4 players, 8 tricks left, exact",
    "dd-12": "4 players, 12 tricks left, exact",
    "close-12": "4 players, 12 left, exact, value within ±10",
    "deal-yesno": "4 players, whole deal, makeable? (yes/no)",
    "analyze": "4 players, analyse_play of a whole deal",
    "dd-8-3p": "3 players, 8 tricks left, exact",
    "dd-12-3p": "3 players, 12 tricks left, exact",
    "deal-yesno-3p": "3 players, whole deal, makeable?",
    "dd-8-5p": "5 players, 8 tricks left, exact",
    "dd-12-5p": "5 players, 12 tricks left, exact",
    "deal-yesno-5p": "5 players, whole deal, makeable?",
    "python-6": "pure Python, 4 players, 6 tricks left",
    "analyze-gen": "analyse_play, generated deals near the threshold",
    "analyze-real": "analyse_play, TarotClub's played deals",
}
#: Where the shared corpus's TarotClub deals are (read in place; skipped when absent).
CORPUS = HERE.parent.parent / "shared" / "corpus" / "tarotclub" / "played"


def _draws(stage: Stage, seed: int) -> Iterator[tuple[Position, DealRecord]]:
    """The stage's stream of positions: each deal's play up to ``stage.left`` tricks from
    the end (a stage with a ``close`` margin draws from the same stream as its plain
    twin)."""
    rng = random.Random(seed * 1000 + stage.players)
    while True:
        rec = random_deal(rng, stage.players, poignee_chance=0.3)
        start, cards = deal_start(rec)
        done = 0 if stage.left == 0 else (start.tricks - stage.left) * stage.players
        yield position_at(start, cards[:done]), rec


def _is_close(pos: Position, margin: int, node_limit: int) -> bool | None:
    """Whether the exact value of ``pos`` lies within ``margin`` half-points of 0: two
    null-window tests, each within ``node_limit`` nodes (None: not decided within it)."""
    solver = Solver(pos)
    low = solver.solve(pos, at_least=-margin, line=False, find_best=False,
                       node_limit=node_limit)
    if low.upper < -margin:
        return False
    high = solver.solve(pos, at_least=margin + 1, line=False, find_best=False,
                        node_limit=node_limit)
    if high.lower > margin:
        return False
    if low.lower >= -margin and high.upper <= margin:
        return True
    return None


def _close_draws(name: str, stage: Stage, count: int, seed: int, reselect: bool,
                 progress: Callable[[str], None] | None) -> list[int]:
    """The indices, in the stage's stream, of its first ``count`` positions valued within
    ``stage.close`` of 0: from the cache when it holds them for this seed (each
    position's one-line form checked against the draw), or selected again and cached."""
    assert stage.close is not None
    key = f"{name} seed {seed}"
    cache: dict[str, Any] = {}
    if CLOSE_CACHE.exists():
        cache = json.loads(CLOSE_CACHE.read_text(encoding="utf-8"))
    entry = cache.get(key)
    if entry is not None and not reselect and len(entry["kept"]) >= count:
        kept = entry["kept"][:count]
        wanted = {k["draw"]: k["fen"] for k in kept}
        last = max(wanted)
        for i, (pos, _) in enumerate(_draws(stage, seed)):
            if i in wanted and pos.fen() != wanted[i]:
                break
            if i >= last:
                return [k["draw"] for k in kept]
    kept = []
    undecided: list[int] = []
    for i, (pos, _) in enumerate(_draws(stage, seed)):
        if len(kept) >= count:
            break
        if progress is not None:
            progress(f"{name}: selecting, draw {i + 1}, {len(kept)}/{count} kept")
        close = _is_close(pos, stage.close, SELECT_NODES)
        if close:
            kept.append({"draw": i, "fen": pos.fen()})
        elif close is None:
            undecided.append(i)
    cache[key] = {"margin_half_points": stage.close, "select_node_limit": SELECT_NODES,
                  "draws": i, "undecided": undecided, "kept": kept}
    with writing(CLOSE_CACHE) as f:
        f.write((json.dumps(cache, indent=1) + "\n").encode("utf-8"))
    return [k["draw"] for k in kept]


def positions(stage: Stage, count: int, seed: int,
              keep: list[int] | None = None) -> list[tuple[Position, DealRecord]]:
    """The stage's positions: the first ``count`` of its stream, or those at the indices
    ``keep``."""
    out = []
    wanted = set(keep) if keep is not None else set(range(count))
    last = max(wanted, default=-1)
    for i, draw in enumerate(_draws(stage, seed)):
        if i > last:
            break
        if i in wanted:
            out.append(draw)
    return out


class TestLog:
    """A search core that records each null-window test: (beta, g, nodes, complete)."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self.tests: list[tuple[int, int, int, bool]] = []

    def test(self, position: CoreTuple, beta: int, node_limit: int = 0,
             time_limit: float = 0.0) -> tuple[int, int, int, bool]:
        g, best, nodes, complete = self.core.test(position, beta, node_limit, time_limit)
        self.tests.append((beta, g, nodes, complete))
        return g, best, nodes, complete

    def bounds(self, position: CoreTuple) -> tuple[int, int]:
        return self.core.bounds(position)

    def next_generation(self) -> None:
        self.core.next_generation()

    def stats(self) -> dict[str, int]:
        return self.core.stats()

    def line(self) -> str:
        """The tests as ``[beta:g>=nodes]`` items."""
        return " ".join(f"[{beta}:{g}{'>=' if g >= beta else '<'}{nodes / 1e6:.2f}M"
                        f"{'' if complete else '!'}]"
                        for beta, g, nodes, complete in self.tests)


def measure(name: str, count: int, seed: int, limit: float, analyze_limit: float = 10.0,
            progress: Callable[[str], None] | None = None, node_limit: int | None = None,
            analyze_node_limit: int | None = None, log_tests: bool = False,
            reselect: bool = False) -> dict[str, Any]:
    """Search every position of a stage; the row of the table. ``analyze_limit`` bounds
    each position of an analysed deal (``tarot analyze --time-limit``); a node limit,
    when given, replaces the time limit."""
    stage = STAGES[name]
    walls: list[float] = []
    cpus: list[float] = []
    nodes = probes = hits = capped = tests = 0
    keep = (_close_draws(name, stage, count, seed, reselect, progress)
            if stage.close is not None else None)
    for i, (pos, rec) in enumerate(positions(stage, count, seed, keep)):
        if progress is not None:
            progress(f"{name} {i + 1}/{count}")
        wall, cpu = time.perf_counter(), time.process_time()
        if stage.kind == "analyze":
            analysis = analyse_play(
                rec, time_limit=None if analyze_node_limit else analyze_limit,
                node_limit=analyze_node_limit)
            nodes += analysis.nodes
            capped += not analysis.exact
        else:
            solver = Solver(pos, engine=stage.engine)
            log = TestLog(solver.core)
            solver.core = log
            sol = solver.solve(pos, time_limit=None if node_limit else limit,
                               node_limit=node_limit, line=False,
                               at_least=0 if stage.kind == "yesno" else None)
            decided = sol.exact if stage.kind == "exact" else sol.made is not None
            capped += not decided
            stats = solver.stats()
            nodes += stats["nodes"]
            probes += stats["probes"]
            hits += stats["hits"]
            tests += len(log.tests)
            if log_tests:
                lo, hi = log.bounds(core_tuple(pos.state()))
                print(f"{name} {i:2d}: value {sol.lower}..{sol.upper}, quick bounds {lo}..{hi},"
                      f" {len(log.tests)} tests, {stats['nodes'] / 1e6:.2f} M nodes, table"
                      f" {stats['entries']:,}/{stats['capacity']:,}\n    {log.line()}")
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    walls.sort()
    by_cpu = sorted(cpus)
    return {
        "label": LABELS[name], "positions": count, "median_s": statistics.median(walls),
        "p95_s": walls[min(len(walls) - 1, round(0.95 * (len(walls) - 1)))],
        "max_s": walls[-1], "cpu_median_s": statistics.median(cpus),
        "cpu_p95_s": by_cpu[min(len(by_cpu) - 1, round(0.95 * (len(by_cpu) - 1)))],
        "cpu_max_s": by_cpu[-1], "nodes": nodes,
        "nodes_per_cpu_s": nodes / max(sum(cpus), 1e-9),
        "hit_rate": hits / probes if probes else None, "capped": capped, "tests": tests,
        "walls": [round(w, 4) for w in walls],
    }


def gen_deals(count: int, seed: int) -> list[tuple[str, DealRecord]]:
    """The first ``count`` deals of ``random_deal`` (seed ``seed``, 4 players) whose
    result as played lies within 10 points (20 half-points) of the threshold."""
    rng = random.Random(seed)
    out: list[tuple[str, DealRecord]] = []
    drawn = 0
    while len(out) < count:
        rec = random_deal(rng, 4)
        drawn += 1
        start, cards = deal_start(rec)
        st = start.state()
        for c in cards:
            st.play(c)
        half, bouts, _, _ = st.result()
        if abs(margin(half, bouts)) <= 20:
            out.append((f"deal {drawn}", rec))
    return out


def real_deals() -> list[tuple[str, DealRecord]]:
    """TarotClub's played 4-player deals of the shared corpus (none when it is absent),
    ``tarotmag_17`` and ``tarotmag_18`` first."""
    if not CORPUS.is_dir():
        print(f"analyze-real: skipped: no corpus at {CORPUS}", file=sys.stderr)
        return []
    from tarotnotation.archive import read_path

    out: list[tuple[str, DealRecord]] = []
    names = sorted(CORPUS.glob("*.json"), key=lambda p: (not p.stem.startswith("tarotmag"),
                                                          p.stem))
    for path in names:
        for item in read_path(str(path)):
            rec = item.record
            if rec is None or len(rec.seat_ids) != 4 or not rec.play:
                continue
            try:
                deal_start(rec)
            except ValueError:
                continue
            out.append((path.stem, rec))
    return out


def measure_deals(name: str, count: int, seed: int, budget: int | None, precision: int,
                  all_cards: bool, progress: Callable[[str], None] | None = None
                  ) -> dict[str, Any]:
    """Analyse every deal of an ``analyze-*`` stage; the row of the table and each
    deal's figures."""
    deals = gen_deals(count, seed) if name == "analyze-gen" else real_deals()
    rows: list[dict[str, Any]] = []
    for i, (label, rec) in enumerate(deals):
        if progress is not None:
            progress(f"{name} {i + 1}/{len(deals)}")
        cpu = time.process_time()
        a = analyse_play(rec, budget=budget, precision=precision, all_cards=all_cards)
        cpu = time.process_time() - cpu
        costs = [c.cost_bounds for c in a.cards]
        rows.append({
            "deal": label, "cpu_s": round(cpu, 2), "nodes": a.nodes, "cards": len(a.cards),
            "decided": sum(c.made_before is not None and c.made_after is not None
                           for c in a.cards),
            "within": sum(known(lo, hi, precision) for lo, hi in costs),
            "exact": sum(c.exact for c in a.cards),
            "all_settled": not a.diagnostics})
    cpus: list[float] = sorted(r["cpu_s"] for r in rows) or [0.0]
    return {"label": LABELS[name], "deals": len(rows), "budget": budget,
            "precision": precision, "all_cards": all_cards,
            "cpu_median_s": statistics.median(cpus), "cpu_max_s": cpus[-1],
            "nodes": sum(r["nodes"] for r in rows), "cards": sum(r["cards"] for r in rows),
            "decided": sum(r["decided"] for r in rows),
            "within": sum(r["within"] for r in rows), "exact": sum(r["exact"] for r in rows),
            "settled_deals": sum(r["all_settled"] for r in rows), "per_deal": rows}


def deals_table(rows: dict[str, dict[str, Any]]) -> str:
    """The ``analyze-*`` rows as a text table, each deal on its line."""
    head = (f"{'deal':<32} {'cpu':>8} {'nodes':>9} {'cards':>6} {'decided':>8}"
            f" {'within':>7} {'exact':>6}")
    lines = []
    for row in rows.values():
        lines += ["", f"{row['label']} (budget {row['budget']:,} nodes, precision"
                  f" {row['precision'] / 2:g} point{'s' if row['precision'] != 2 else ''}"
                  f"{', all cards' if row['all_cards'] else ''})", head, "-" * len(head)]
        for r in row["per_deal"]:
            lines.append(f"{r['deal']:<32} {r['cpu_s']:>7.1f}s {r['nodes'] / 1e6:>8.1f}M"
                         f" {r['cards']:>6} {r['decided']:>8} {r['within']:>7} {r['exact']:>6}")
        lines.append(f"{'all (median / max cpu)':<32} {row['cpu_median_s']:>7.1f}s"
                     f" {row['nodes'] / 1e6:>8.1f}M {row['cards']:>6} {row['decided']:>8}"
                     f" {row['within']:>7} {row['exact']:>6}   max {row['cpu_max_s']:.1f}s;"
                     f" {row['settled_deals']}/{row['deals']} deals settled")
    return "\n".join(lines)


def _time(seconds: float) -> str:
    if seconds < 1:
        return f"{seconds * 1000:.1f} ms"
    return f"{seconds:.2f} s"


def table(rows: dict[str, dict[str, Any]], limit: float, analyze_limit: float = 10.0,
          node_limit: int | None = None, analyze_node_limit: int | None = None) -> str:
    """The rows as a text table."""
    head = (f"{'stage':<44} {'median':>9} {'p95':>9} {'max':>9} {'cpu med':>9}"
            f" {'cpu p95':>9} {'cpu max':>9} {'nodes':>9} {'nodes/s':>11} {'hits':>5}"
            f" {'capped':>7}")
    lines = [head, "-" * len(head)]
    for row in rows.values():
        hit = "" if row["hit_rate"] is None else f"{row['hit_rate'] * 100:.0f}%"
        lines.append(f"{row['label']:<44} {_time(row['median_s']):>9} {_time(row['p95_s']):>9}"
                     f" {_time(row['max_s']):>9} {_time(row['cpu_median_s']):>9}"
                     f" {_time(row['cpu_p95_s']):>9} {_time(row['cpu_max_s']):>9}"
                     f" {row['nodes'] / 1e6:>8.1f}M {row['nodes_per_cpu_s']:>11,.0f} {hit:>5}"
                     f" {row['capped']:>3}/{row['positions']:<3}")
    cap = f"{node_limit:,} nodes" if node_limit else f"{limit:g} s"
    analyze_cap = (f"{analyze_node_limit:,} nodes" if analyze_node_limit
                   else f"{analyze_limit:g} s")
    lines.append(f"(capped: a search stopped by the {cap} limit, counted at the limit;"
                 f" for an analysed deal, a deal with a position stopped by the"
                 f" {analyze_cap} limit)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the stages, print the table, write the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("--positions", type=int, default=30, help="positions per stage")
    parser.add_argument("--only", nargs="+", choices=list(STAGES), help="only these stages")
    parser.add_argument("--limit", type=float, default=60.0,
                        help="seconds a position may take (then counted capped)")
    parser.add_argument("--analyze-limit", type=float, default=10.0,
                        help="seconds for each position of an analysed deal")
    parser.add_argument("--node-limit", type=int, default=None,
                        help="nodes a position may take, instead of --limit")
    parser.add_argument("--analyze-node-limit", type=int, default=None,
                        help="nodes for each position of an analysed deal, instead of"
                             " --analyze-limit")
    parser.add_argument("--log-tests", action="store_true",
                        help="print each position's null-window tests (beta, result, nodes)")
    parser.add_argument("--reselect", action="store_true",
                        help="select close-12's positions again instead of reading"
                             " bench/close-positions.json")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--deals", type=int, default=20, help="deals of analyze-gen")
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET,
                        help="nodes a deal of analyze-gen/-real may take")
    parser.add_argument("--precision", type=float, default=DEFAULT_PRECISION / 2,
                        help="points within which a cost is known (analyze-gen/-real)")
    parser.add_argument("--all-cards", action="store_true",
                        help="analyze-gen/-real: value every legal card")
    parser.add_argument("--json", type=Path, default=HERE / "solver-results.json")
    args = parser.parse_args(argv)
    rows: dict[str, dict[str, Any]] = {}
    # The machine may be shared: its load beside the numbers, at the start and the end.
    load_start = os.getloadavg()
    deal_rows: dict[str, dict[str, Any]] = {}
    for name in args.only or [n for n in STAGES if STAGES[n].kind != "deals"]:
        if STAGES[name].kind == "deals":
            deal_rows[name] = measure_deals(
                name, args.deals, args.seed, args.budget, round(args.precision * 2),
                args.all_cards,
                lambda text: print(f"  {text} ...", file=sys.stderr, end="\r"))
            continue
        count = args.positions if STAGES[name].kind != "analyze" else max(
            3, args.positions // 6)
        rows[name] = measure(name, count, args.seed, args.limit, args.analyze_limit,
                             lambda text: print(f"  {text} ...", file=sys.stderr, end="\r"),
                             args.node_limit, args.analyze_node_limit, args.log_tests,
                             args.reselect)
    load = os.getloadavg()
    print(f"\nsolver benchmark: seed {args.seed}; {platform.python_implementation()}"
          f" {platform.python_version()}, {os.cpu_count()} cores, load average"
          f" {load_start[0]:.2f} at the start, {load[0]:.2f} at the end")
    if rows:
        print(table(rows, args.limit, args.analyze_limit, args.node_limit,
                    args.analyze_node_limit))
    if deal_rows:
        print(deals_table(deal_rows))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({
        "seed": args.seed, "limit_s": args.limit, "node_limit": args.node_limit,
        "analyze_node_limit": args.analyze_node_limit, "load_average_start": load_start,
        "load_average": load,
        "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "python": platform.python_version(), "cores": os.cpu_count(),
        "stages": rows | deal_rows,
    }, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
