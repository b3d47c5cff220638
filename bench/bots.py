"""The bots' table: ``random``, ``heuristic``, ``pimc`` and ``oracle`` measured in duplicate
against the heuristic, run split over days or machines.

Play a part of the benchmark (each finished deal written to ``DIR`` as it goes)::

    python bench/bots.py --players 4 --deals 2000 --part 3/16 --out DIR

and combine whatever parts are in ``DIR`` into the table::

    python bench/bots.py --report DIR [--format json]

Three duplicate matches are played on the same deals (:mod:`tarotnotation.players.match`,
the one way a deal's tables are played): ``heuristic`` against ``random``, ``pimc``
against ``heuristic`` and ``oracle`` against ``heuristic`` (the bots as the roster writes
them: ``--pimc pimc:samples=10,nodes=20000``). The table's reference is the heuristic:
its row is 0 by definition, the ``random`` row is the first match's result negated.

``--reuse DIR`` takes, for each deal, the matches another benchmark's folder played the
same way (the same bots with the same settings, the same deal and makeable count) and
plays only the others: a lever of pimc (``--pimc pimc:auction=30``) is measured on the
same deals as the defaults without playing the random's and the oracle's matches again.
Given more than once, each match is taken from the first folder that played it so: a
table of new defaults is put together from the runs that measured them.
The matches are compared as the plans write them (the bots' names, which show the
settings that differ from their defaults): reuse a folder played by the same version of
the bots, since a changed default or a change in a bot's code does not show there.

``--compare A B`` pairs two folders' pimc matches on the deals both hold (two settings of
pimc on the same deals: ``--reuse`` above): B's result less A's a deal, with its 95%
interval, each one's share of the heuristic-oracle gap there, and their CPU::

    python bench/bots.py --compare bench-4p bench-4p-habits

``--match oracle`` pairs the two folders' oracle matches instead (an oracle's setting
measured the same way: ``--oracle oracle:bid_shift=-3``).

``--part I/M`` plays the I-th of M blocks of consecutive deals (``--part 1/1``, the
default, all of them). A deal's cards and every bot's decisions follow from the seed and
the deal's number alone, so a deal gives the same results in any part, on any machine.
Each finished deal is written as ``DIR/deal-K.json`` (whole or not at all:
:mod:`tarotnotation.atomic`); a rerun skips the deals already written, so a part stopped
halfway is resumed by running it again. ``DIR/plan.json`` holds what is played (players,
deals, seed, rules, the bots with their settings written out, the makeable count's
deals and nodes): a part run with another plan into the same folder is refused (exit 2).

The makeable count (``analysis.makeable``, every hand open after the auction and the
écart, within ``--makeable-nodes`` nodes a contract) is made on the first
``--makeable-deals`` deals only: it is the costly part. Each deal also records the CPU
seconds of each match (``time.process_time``), which the report sums.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tarotnotation.atomic import writing
from tarotnotation.players.match import (
    BotStats,
    DealOutcome,
    MatchSpec,
    MatchSummary,
    play_duplicate,
    summary,
)
from tarotnotation.players.roster import name_at

#: The reference every bot is measured against.
REFERENCE = "heuristic"
#: The plan's matches by index: heuristic v random, pimc v heuristic, oracle v heuristic.
PIMC_MATCH = 1
ORACLE_MATCH = 2
#: The makeable count's defaults: the first 100 deals, 10 million nodes a contract (about
#: 2 CPU seconds at most a contract; some 15 contracts a deal at 4 players, most of them
#: settled well within it: under 50 CPU minutes in all).
MAKEABLE_DEALS = 100
MAKEABLE_NODES = 10_000_000


class UsageError(Exception):
    """A usage error: said on stderr, exit 2."""


@dataclass(frozen=True, slots=True)
class Plan:
    """What a benchmark folder plays: the deals, and the matches (A, B) on each."""

    players: int
    deals: int
    seed: int
    rules: str
    matches: tuple[tuple[str, str], ...]
    names: tuple[tuple[str, str], ...]
    """Each match's bots as they name themselves, their settings written out (a default
    changed between two parts shows here)."""
    makeable_deals: int
    makeable_nodes: int

    def spec(self, match: int, deal: int) -> MatchSpec:
        """Match ``match``'s spec for deal ``deal`` (the makeable count on the first
        deals only)."""
        a, b = self.matches[match]
        return MatchSpec(a, b, players=self.players, seed=self.seed, rules=self.rules,
                         makeable=self.makeable_nodes if deal <= self.makeable_deals
                         else None)

    def to_json(self) -> dict[str, Any]:
        return {"players": self.players, "deals": self.deals, "seed": self.seed,
                "rules": self.rules, "matches": [list(m) for m in self.matches],
                "names": [list(n) for n in self.names],
                "makeable_deals": self.makeable_deals,
                "makeable_nodes": self.makeable_nodes}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Plan:
        return cls(int(data["players"]), int(data["deals"]), int(data["seed"]),
                   str(data["rules"]), tuple((str(a), str(b)) for a, b in data["matches"]),
                   tuple((str(a), str(b)) for a, b in data["names"]),
                   int(data["makeable_deals"]), int(data["makeable_nodes"]))


def plan_of(players: int, deals: int, seed: int, rules: str, pimc: str, oracle: str,
            makeable_deals: int, makeable_nodes: int) -> Plan:
    """The plan of a benchmark: heuristic v random, pimc v heuristic, oracle v
    heuristic. ValueError for a bot the roster does not know.

    The names are the bots' at this number of players: pimc's with the samples it draws
    and the bid shift it bids with there (``roster.name_at``), so that a folder played
    before a change of its defaults is not taken for one played after.

    >>> p = plan_of(4, 10, 0, "fft", "pimc:samples=2,nodes=500", "oracle", 0, 1)
    >>> p.matches[1]
    ('pimc:samples=2,nodes=500', 'heuristic')
    >>> p.names[1]
    ('pimc(samples=2,nodes=500,bid_shift=-3)', 'heuristic')
    >>> plan_of(5, 10, 0, "fft", "pimc:samples=2,nodes=500", "oracle", 0, 1).names[1][0]
    'pimc(samples=2,nodes=500)'
    """
    matches = ((REFERENCE, "random"), (pimc, REFERENCE), (oracle, REFERENCE))
    names = tuple((name_at(a, players), name_at(b, players)) for a, b in matches)
    return Plan(players, deals, seed, rules, matches, names, makeable_deals, makeable_nodes)


def part_range(part: str, deals: int) -> range:
    """The deals (numbered from 1) of part ``I/M``: the I-th of M blocks of consecutive
    deals, as even as can be.

    >>> part_range("3/16", 2000), part_range("1/1", 5), part_range("2/3", 7)
    (range(251, 376), range(1, 6), range(3, 5))
    """
    i, slash, m = part.partition("/")
    if not (slash and i.strip().isdigit() and m.strip().isdigit()
            and 1 <= int(i) <= int(m)):
        raise UsageError(f"--part {part}: expected I/M with 1 <= I <= M")
    k, n = int(i), int(m)
    return range(1 + (k - 1) * deals // n, 1 + k * deals // n)


def deal_file(out: Path, deal: int) -> Path:
    return out / f"deal-{deal:06d}.json"


def _stats_json(st: BotStats) -> dict[str, int]:
    return {"taken": st.taken, "made": st.made, "makeable": st.makeable,
            "unknown": st.unknown}


def _stats_of(data: dict[str, Any]) -> BotStats:
    return BotStats(int(data["taken"]), int(data["made"]), int(data["makeable"]),
                    int(data["unknown"]))


def play_deal_results(plan: Plan, deal: int,
                      reused: dict[int, dict[str, Any]] | None = None) -> dict[str, Any]:
    """Deal ``deal`` played in each match of the plan: its results, each bot's
    contracts, and each match's CPU seconds; the matches of ``reused`` (by index) are
    taken as they are, not played again."""
    matches = []
    for m in range(len(plan.matches)):
        if reused and m in reused:
            matches.append(reused[m])
            continue
        start = time.process_time()
        o = play_duplicate(plan.spec(m, deal), deal)
        matches.append({"result": o.result, "a": _stats_json(o.a), "b": _stats_json(o.b),
                        "cpu": round(time.process_time() - start, 3)})
    return {"deal": deal, "matches": matches}


def _write_json(path: Path, data: dict[str, Any]) -> None:
    with writing(path) as fh:
        fh.write(orjson.dumps(data, option=orjson.OPT_INDENT_2) + b"\n")


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError) as err:
        raise UsageError(f"{path}: not a benchmark file ({err})") from err
    if not isinstance(data, dict):
        raise UsageError(f"{path}: not a benchmark file")
    return data


def _plan_in(out: Path) -> Plan | None:
    path = out / "plan.json"
    if not path.exists():
        return None
    try:
        return Plan.from_json(_read_json(path))
    except (KeyError, TypeError, ValueError) as err:
        raise UsageError(f"{path}: not a benchmark plan ({err})") from err


def reusable(plan: Plan, other: Plan, folder: Path, deal: int) -> dict[int, dict[str, Any]]:
    """The matches of deal ``deal`` that ``folder`` (a benchmark of plan ``other``) has
    played as ``plan`` would play them (the same bots with the same settings, the same
    deal, the same makeable count), by their index in ``plan``. The bots are compared by
    their names, which write every setting out: ``pimc`` and ``pimc:bid_shift=-3`` are
    one bot at four players, where -3 is the default."""
    path = deal_file(folder, deal)
    if not path.exists():
        return {}
    found = _read_json(path).get("matches", [])
    out: dict[int, dict[str, Any]] = {}
    for m in range(len(plan.matches)):
        for o in range(len(other.matches)):
            if (replace(plan.spec(m, deal), a="", b="") == replace(other.spec(o, deal), a="",
                                                                  b="")
                    and plan.names[m] == other.names[o] and o < len(found)):
                out[m] = found[o]
                break
    return out


def run_part(plan: Plan, part: str, out: Path, *, say: bool = True,
             reuse: str | os.PathLike[str] | Sequence[str | os.PathLike[str]] = ()) -> int:
    """Play the deals of ``part`` not yet in ``out``; the number played now. With
    ``reuse`` (other benchmarks' folders), a match one of them played as this plan would
    is taken from the first that did, not played again."""
    folders = ([Path(reuse)] if isinstance(reuse, (str, os.PathLike))
               else [Path(folder) for folder in reuse])
    others: list[tuple[Plan, Path]] = []
    for folder in folders:
        other = _plan_in(folder)
        if other is None:
            raise UsageError(f"{folder}: no benchmark plan there ({folder / 'plan.json'})")
        others.append((other, folder))
    deals = part_range(part, plan.deals)
    out.mkdir(parents=True, exist_ok=True)
    known = _plan_in(out)
    if known is None:
        _write_json(out / "plan.json", plan.to_json())
    elif known != plan:
        raise UsageError(f"{out}: holds another plan ({out / 'plan.json'}): a part of"
                         " another benchmark goes to another folder")
    played = 0
    for k in deals:
        path = deal_file(out, k)
        if path.exists():
            continue
        reused: dict[int, dict[str, Any]] = {}
        for other, folder in reversed(others):  # (the first folder's matches win)
            reused.update(reusable(plan, other, folder, k))
        _write_json(path, play_deal_results(plan, k, reused))
        played += 1
        if say:
            print(f"deal {k} written ({deals.start} to {deals.stop - 1})", file=sys.stderr,
                  flush=True)
    return played


@dataclass(frozen=True, slots=True)
class Row:
    """A line of the table: a bot measured against the reference."""

    bot: str
    name: str
    summary: MatchSummary | None
    """The match's figures, from this bot's side (None: the reference's own row)."""
    stats: BotStats
    makeable_stats: BotStats
    cpu: float
    reference: BotStats | None = None
    """The heuristic's contracts in the same match (None: the reference's own row)."""


def _outcomes(out: Path, plan: Plan) -> Iterator[dict[str, Any]]:
    for k in range(1, plan.deals + 1):
        path = deal_file(out, k)
        if path.exists():
            yield _read_json(path)


def _flip(s: MatchSummary) -> MatchSummary:
    """A match's figures seen from B's side."""
    return MatchSummary(s.deals, -s.mean, None if s.high is None else -s.high,
                        None if s.low is None else -s.low, s.lost, s.won, s.even, s.b, s.a)


def report(out: Path) -> tuple[Plan, int, list[Row]]:
    """The table from the deals in ``out``: the plan, the deals in, and the rows."""
    plan = _plan_in(out)
    if plan is None:
        raise UsageError(f"{out}: no plan.json: not a benchmark folder")
    per_match: list[list[DealOutcome]] = [[] for _ in plan.matches]
    cpu = [0.0] * len(plan.matches)
    makeable = [[BotStats(), BotStats()] for _ in plan.matches]
    count = 0
    for data in _outcomes(out, plan):
        count += 1
        try:
            k = int(data["deal"])
            if len(data["matches"]) != len(plan.matches):
                raise ValueError("a result for each match of the plan expected")
            for m, d in enumerate(data["matches"]):
                a, b = _stats_of(d["a"]), _stats_of(d["b"])
                per_match[m].append(DealOutcome(k, int(d["result"]), a, b))
                cpu[m] += float(d["cpu"])
                if k <= plan.makeable_deals:
                    makeable[m] = [makeable[m][0] + a, makeable[m][1] + b]
        except (KeyError, TypeError, ValueError) as err:
            raise UsageError(f"{out}: deal {count}'s file is not a benchmark deal"
                             f" ({err!r})") from err
    sums = [summary(o) for o in per_match]
    first = _flip(sums[0])  # (random against the heuristic)
    rows = [Row("random", plan.names[0][1], first, first.a, makeable[0][1], cpu[0],
                first.b),
            Row(REFERENCE, plan.names[0][0], None, sums[0].a, makeable[0][0], 0.0),
            Row("pimc", plan.names[1][0], sums[1], sums[1].a, makeable[1][0], cpu[1],
                sums[1].b),
            Row("oracle", plan.names[2][0], sums[2], sums[2].a, makeable[2][0], cpu[2],
                sums[2].b)]
    return plan, count, rows


def half_gap(out: Path) -> MatchSummary | None:
    """pimc's result less half the oracle's, deal by deal, over the deals in ``out``: above
    0, pimc closes more than half of the heuristic-oracle gap; its 95% interval says
    whether the deals show it (the share alone, a ratio of two means, has none). None
    with fewer than two deals.

    The pairs are those of the same deal, so the deal's luck, which both matches share,
    cancels out."""
    plan = _plan_in(out)
    if plan is None:
        raise UsageError(f"{out}: no plan.json: not a benchmark folder")
    doubled = []  # (2 x pimc - oracle: whole numbers, halved at the end)
    for data in _outcomes(out, plan):
        try:
            k = int(data["deal"])
            pimc = int(data["matches"][PIMC_MATCH]["result"])
            oracle = int(data["matches"][ORACLE_MATCH]["result"])
        except (KeyError, IndexError, TypeError, ValueError) as err:
            raise UsageError(f"{out}: a deal's file is not a benchmark deal ({err!r})"
                             ) from err
        doubled.append(DealOutcome(k, 2 * pimc - oracle, BotStats(), BotStats()))
    if len(doubled) < 2:
        return None
    s = summary(doubled)
    if s.low is None or s.high is None:
        return None
    return replace(s, mean=s.mean / 2, low=s.low / 2, high=s.high / 2)


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def _signed(x: float | None) -> str:
    return "-" if x is None else f"{x:+,.1f}"


def text(plan: Plan, count: int, rows: Sequence[Row], half: MatchSummary | None = None
         ) -> list[str]:
    """The table as text lines (``half``: :func:`half_gap`'s figures, said after the
    share)."""
    lines = [f"{plan.players} players, {count:,} of the {plan.deals:,} deals planned in"
             f" (seed {plan.seed}, rules {plan.rules}); each bot against {REFERENCE}, in"
             " duplicate, score points a deal (the bot's seat scores minus the"
             " heuristic's in the same seats)",
             f"makeable double-dummy: on the first {min(plan.makeable_deals, plan.deals):,}"
             f" deals, {plan.makeable_nodes:,} nodes a contract",
             "",
             "| bot | settings | − heuristic, a deal | 95% interval | won / lost / even |"
             " contracts made / taken | the heuristic's in that match |"
             " makeable / tested (unknown) | CPU |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        m = r.makeable_stats
        if r.summary is None:
            result, interval, wle = "0 (the reference)", "-", "-"
        else:
            s = r.summary
            result = _signed(s.mean)
            interval = f"{_signed(s.low)} to {_signed(s.high)}"
            wle = f"{s.won:,} / {s.lost:,} / {s.even:,}"
        made = _pct(r.stats.made, r.stats.taken)
        ref = "-" if r.reference is None else (
            f"{r.reference.made:,} / {r.reference.taken:,}"
            f" ({_pct(r.reference.made, r.reference.taken)})")
        lines.append(f"| {r.bot} | {r.name} | {result} | {interval} | {wle} |"
                     f" {r.stats.made:,} / {r.stats.taken:,} ({made}) | {ref} |"
                     f" {m.makeable:,} / {m.taken:,} ({m.unknown:,}) | {r.cpu:,.0f} s |")
    pimc, oracle = rows[2].summary, rows[3].summary
    if pimc is not None and oracle is not None and oracle.mean:
        lines += ["", f"pimc closes {100 * pimc.mean / oracle.mean:.1f}% of the"
                  " heuristic-oracle gap (pimc's mean over the oracle's)"]
    if half is not None:
        shown = ("half the gap shown" if half.low is not None and half.low > 0 else
                 "less than half shown" if half.high is not None and half.high < 0 else
                 "half the gap not shown either way")
        lines.append(f"pimc less half the oracle, a deal: {_signed(half.mean)}"
                     f" ({_signed(half.low)} to {_signed(half.high)}): {shown}")
    total = sum(r.cpu for r in rows)
    lines.append(f"CPU so far: {total / 3600:.2f} h for {count:,} deals"
                 + (f", {total / count * plan.deals / 3600:.1f} h at this rate for all"
                    f" {plan.deals:,}" if count else ""))
    return lines


def as_json(plan: Plan, count: int, rows: Sequence[Row], half: MatchSummary | None = None
            ) -> dict[str, Any]:
    """The table for machines (``half``: :func:`half_gap`'s figures)."""
    def row(r: Row) -> dict[str, Any]:
        s = r.summary
        return {"bot": r.bot, "settings": r.name,
                "mean": 0.0 if s is None else round(s.mean, 4),
                "interval": None if s is None or s.low is None or s.high is None
                else [round(s.low, 4), round(s.high, 4)],
                "won": None if s is None else s.won, "lost": None if s is None else s.lost,
                "even": None if s is None else s.even,
                "contracts": _stats_json(r.stats), "makeable": _stats_json(r.makeable_stats),
                "heuristic_contracts": None if r.reference is None
                else _stats_json(r.reference),
                "cpu_seconds": round(r.cpu, 3)}

    return {"plan": plan.to_json(), "deals_in": count, "reference": REFERENCE,
            "unit": "score points a deal: the bot's seat scores minus the heuristic's",
            "rows": [row(r) for r in rows],
            "pimc_less_half_the_oracle": None if half is None or half.low is None
            or half.high is None else {"mean": round(half.mean, 4),
                                       "interval": [round(half.low, 4),
                                                    round(half.high, 4)]}}


@dataclass(frozen=True, slots=True)
class Comparison:
    """Two folders' pimc matches (or oracle matches) on the deals both hold (see
    :func:`compare`)."""

    names: tuple[str, str]
    """The pimc (or oracle) of each folder, as it names itself."""
    difference: MatchSummary
    """B's result less A's, a deal (won: the deals where B did better)."""
    means: tuple[float, float]
    """Each pimc's result against the heuristic on those deals."""
    oracle: float
    """The other end of the gap on those deals: A's oracle against the heuristic when
    the pimc matches are compared; B's pimc when the oracles' are."""
    bid: int
    """The deals of those where someone took (in either match)."""
    cpu: tuple[float, float]
    """Each pimc match's CPU seconds on those deals."""
    kind: str = "pimc"
    """The matches compared: ``"pimc"`` or ``"oracle"``."""


def compare(a: Path, b: Path, match: int = PIMC_MATCH) -> Comparison:
    """Folder ``b``'s pimc match (or its oracle's: ``match=ORACLE_MATCH``) against folder
    ``a``'s, deal by deal, on the deals both hold (the same players, deals, seed and
    rules, else UsageError)."""
    if match not in (PIMC_MATCH, ORACLE_MATCH):
        raise ValueError(f"match is PIMC_MATCH or ORACLE_MATCH, not {match}")
    plans = [_plan_in(a), _plan_in(b)]
    if plans[0] is None or plans[1] is None:
        raise UsageError(f"{a if plans[0] is None else b}: no plan.json: not a benchmark"
                         " folder")
    pa, pb = plans[0], plans[1]
    if (pa.players, pa.deals, pa.seed, pa.rules) != (pb.players, pb.deals, pb.seed, pb.rules):
        raise UsageError(f"{a} and {b} play other deals: no pair to compare")
    outcomes, xa, xb, others, cpu_a, cpu_b, bid = [], [], [], [], 0.0, 0.0, 0
    for k in range(1, pa.deals + 1):
        fa, fb = deal_file(a, k), deal_file(b, k)
        if not (fa.exists() and fb.exists()):
            continue
        try:
            ma, mb = _read_json(fa)["matches"], _read_json(fb)["matches"]
            ra, rb = int(ma[match]["result"]), int(mb[match]["result"])
            # the other bot of the gap: A's oracle for pimc matches, B's pimc for oracles'
            others.append(int(ma[ORACLE_MATCH]["result"]) if match == PIMC_MATCH
                          else int(mb[PIMC_MATCH]["result"]))
            cpu_a += float(ma[match]["cpu"])
            cpu_b += float(mb[match]["cpu"])
            taken = any(m[match][side]["taken"] for m in (ma, mb) for side in ("a", "b"))
        except (KeyError, IndexError, TypeError, ValueError) as err:
            raise UsageError(f"deal {k}: not a benchmark deal in both folders"
                             f" ({err!r})") from err
        bid += taken
        xa.append(ra)
        xb.append(rb)
        outcomes.append(DealOutcome(k, rb - ra, BotStats(), BotStats()))
    if not outcomes:
        raise UsageError(f"{a} and {b} hold no deal in common")
    n = len(outcomes)
    return Comparison((pa.names[match][0], pb.names[match][0]), summary(outcomes),
                      (sum(xa) / n, sum(xb) / n), sum(others) / n, bid, (cpu_a, cpu_b),
                      "oracle" if match == ORACLE_MATCH else "pimc")


def comparison_text(c: Comparison) -> list[str]:
    """A comparison as text lines."""
    d = c.difference
    head = (f"B {c.names[1]} less A {c.names[0]}, in duplicate against the heuristic on the"
            f" {d.deals:,} deals both hold ({c.bid:,} bid): {_signed(d.mean)} a deal"
            f" ({_signed(d.low)} to {_signed(d.high)}); B better on {d.won:,}, worse on"
            f" {d.lost:,}, even on {d.even:,}")
    cpu = f"CPU of the {c.kind} matches there: A {c.cpu[0]:,.0f} s, B {c.cpu[1]:,.0f} s"
    if c.kind == "pimc":
        share = [f"{100 * m / c.oracle:.1f}%" if c.oracle else "-" for m in c.means]
        gap = (f"against the heuristic there: A {_signed(c.means[0])}, B"
               f" {_signed(c.means[1])}, the oracle {_signed(c.oracle)}: A closes {share[0]}"
               f" of the gap, B {share[1]}")
    else:
        share = [f"{100 * c.oracle / m:.1f}%" if m else "-" for m in c.means]
        gap = (f"against the heuristic there: A {_signed(c.means[0])}, B"
               f" {_signed(c.means[1])}; B's pimc {_signed(c.oracle)} closes {share[0]} of"
               f" the gap to A, {share[1]} of the gap to B")
    return [head, gap, cpu]


def comparison_json(c: Comparison) -> dict[str, Any]:
    """A comparison for machines."""
    d = c.difference
    return {"a": c.names[0], "b": c.names[1], "deals": d.deals, "bid": c.bid,
            "difference": round(d.mean, 4),
            "interval": None if d.low is None or d.high is None
            else [round(d.low, 4), round(d.high, 4)],
            "b_better": d.won, "b_worse": d.lost, "even": d.even,
            "means": [round(m, 4) for m in c.means], "matches": c.kind,
            "oracle" if c.kind == "pimc" else "pimc": round(c.oracle, 4),
            "cpu_seconds": [round(x, 3) for x in c.cpu]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, choices=(3, 4, 5), default=4)
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rules", default="fft")
    ap.add_argument("--pimc", default="pimc", help="pimc as the roster writes it")
    ap.add_argument("--oracle", default="oracle", help="the oracle as the roster writes it")
    ap.add_argument("--makeable-deals", type=int, default=MAKEABLE_DEALS)
    ap.add_argument("--makeable-nodes", type=int, default=MAKEABLE_NODES)
    ap.add_argument("--part", default="1/1", help="I/M: the I-th of M blocks of deals")
    ap.add_argument("--out", type=Path, help="the folder the deals' results go to")
    ap.add_argument("--reuse", type=Path, metavar="DIR", action="append", default=[],
                    help="take the matches another benchmark's folder played the same way"
                         " (more than once: from the first that played each)")
    ap.add_argument("--report", type=Path, metavar="DIR",
                    help="combine the parts in DIR into the table")
    ap.add_argument("--compare", type=Path, nargs=2, metavar=("A", "B"),
                    help="pair B's pimc match with A's on the deals both hold")
    ap.add_argument("--match", choices=("pimc", "oracle"), default="pimc",
                    help="with --compare: pair the pimc matches (the default) or the"
                         " oracle's")
    ap.add_argument("--format", choices=("text", "json"), default="text")
    args = ap.parse_args(argv)
    try:
        if args.compare is not None:
            c = compare(args.compare[0], args.compare[1],
                        match=ORACLE_MATCH if args.match == "oracle" else PIMC_MATCH)
            if args.format == "json":
                sys.stdout.buffer.write(orjson.dumps(comparison_json(c),
                                                     option=orjson.OPT_INDENT_2) + b"\n")
            else:
                print("\n".join(comparison_text(c)))
            return 0
        if args.report is not None:
            plan, count, rows = report(args.report)
            half = half_gap(args.report)
            if args.format == "json":
                sys.stdout.buffer.write(orjson.dumps(as_json(plan, count, rows, half),
                                                     option=orjson.OPT_INDENT_2) + b"\n")
            else:
                print("\n".join(text(plan, count, rows, half)))
            return 0
        if args.out is None:
            raise UsageError("give --out DIR to play a part, or --report DIR")
        if args.deals < 1 or args.makeable_deals < 0 or args.makeable_nodes < 1:
            raise UsageError("--deals and --makeable-nodes are 1 or more,"
                             " --makeable-deals 0 or more")
        try:
            plan = plan_of(args.players, args.deals, args.seed, args.rules, args.pimc,
                           args.oracle, args.makeable_deals, args.makeable_nodes)
        except ValueError as err:
            raise UsageError(str(err)) from err
        played = run_part(plan, args.part, args.out, reuse=args.reuse)
        print(f"{played} deals played, part {args.part} of {args.out}", file=sys.stderr)
        return 0
    except (UsageError, OSError) as err:
        print(f"bots.py: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
