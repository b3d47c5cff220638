"""``tarot match A B``: a duplicate match between two bots (docs/bots.md)."""

from __future__ import annotations

import dataclasses
import itertools
from collections import deque
from collections.abc import Iterator, Sequence
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Final

import orjson

from tarotnotation.i18n import Msg, message_of, nmsg, render

from . import declare
from .common import echo, fail, ruleset_spec, stdout_bytes, worker_count
from .options import RulesOpt, SetOpt

if TYPE_CHECKING:  # (the players are imported when a match is played)
    from tarotnotation.players.match import BotStats, DealOutcome, MatchSpec, MatchSummary
    from tarotnotation.records import DealRecord

#: The solver's node budget for each contract's makeable test (``--makeable``): about 5
#: to 6 CPU seconds at most (docs/analysis.md: 5 to 6 million nodes a CPU second).
MAKEABLE_NODES: Final = 30_000_000

EPILOG = """\
Examples:

  tarot match heuristic random --deals 200

  tarot match heuristic random -n 500 -p 3 -j 2 --format json

  tarot match heuristic random --deals 20 --makeable --save games/

  tarot match heuristic random --deals 5 --makeable --nodes 2000000

Each deal is played at 2×N tables (N players): A in each seat with B in
the others, then B in each seat with A in the others. A deal's result is
A's scores minus B's in the same seats; the mean over the deals comes with
its 95% interval (Student's t). The deals follow from --seed alone: the
output is the same for any --jobs. --save writes each deal's tables as
records, one file a deal. Exit status: 0, or 2 for a usage error.
"""


class MatchFormat(StrEnum):
    """What ``--format`` accepts."""

    TEXT = "text"
    JSON = "json"


def match(
    a: Annotated[str, declare.Argument(metavar="A", help="The first bot: random,"
                                       " heuristic, pimc or oracle (settings after a colon:"
                                       " pimc:samples=10,nodes=20000).")],
    b: Annotated[str, declare.Argument(metavar="B", help="The bot it plays against.")],
    deals: Annotated[int, declare.Option("--deals", "-n", min=1, metavar="N",
                                       help="How many deals.")] = 100,
    players: Annotated[int, declare.Option("--players", "-p", min=3, max=5,
                                         help="3, 4 or 5 players.")] = 4,
    seed: Annotated[int, declare.Option("--seed", "-s", metavar="N",
                                      help="Seed of the random generator: the same"
                                      " seed gives the same deals.")] = 0,
    jobs: Annotated[int, declare.Option("--jobs", "-j", min=0, metavar="N",
                                      help="Worker processes (0: one per core).")] = 1,
    save: Annotated[str | None, declare.Option(
        "--save", metavar="DIR", help="Write every table's record to this folder, one"
        " file a deal.")] = None,
    makeable: Annotated[bool, declare.Option(
        "--makeable", help="Count the contracts makeable with every hand open (the"
        " solver, node-budgeted: costly).")] = False,
    nodes: Annotated[int, declare.Option(
        "--nodes", min=1, metavar="NODES", help="With --makeable: the solver's budget for"
        " each contract, in nodes.")] = MAKEABLE_NODES,
    output_format: Annotated[MatchFormat, declare.Option(
        "--format", "-f", case_sensitive=False, help="Output format.")] = MatchFormat.TEXT,
    rules: RulesOpt = None,
    sets: SetOpt = None,
) -> None:
    """A duplicate match between two bots: each deal played at 2×N tables."""
    from tarotnotation.players import make
    from tarotnotation.players.match import MatchSpec, summary

    for name in (a, b):
        try:
            make(name)
        except ValueError as err:
            fail(message_of(err))
    spec_text = ruleset_spec(rules, sets) or "fft"
    folder = _folder(save) if save is not None else None
    spec = MatchSpec(a, b, players=players, seed=seed, rules=spec_text,
                     save=folder is not None,
                     makeable=nodes if makeable else None)
    outcomes = []
    for outcome in _outcomes(spec, deals, worker_count(jobs)):
        if folder is not None:
            _write(folder, outcome.index, deals, outcome.records)
        outcomes.append(dataclasses.replace(outcome, records=()))  # (memory bounded)
    s = summary(outcomes)
    if output_format is MatchFormat.JSON:
        stdout_bytes(orjson.dumps(_json(spec, s, deals), option=orjson.OPT_INDENT_2) + b"\n")
        return
    for line in _text(spec, s):
        echo(render(line))


def _folder(save: str) -> Path:
    """The folder of ``--save``, made when missing; a usage error when it cannot be."""
    folder = Path(save)
    if folder.exists() and not folder.is_dir():
        fail(Msg("--save {folder}: not a folder", folder=save))
    folder.mkdir(parents=True, exist_ok=True)  # (an OSError: exit 2, said by the wrapper)
    return folder


def _write(folder: Path, index: int, deals: int, records: Sequence[DealRecord]) -> None:
    """Deal ``index``'s tables, written whole or not at all."""
    from tarotnotation import notation
    from tarotnotation.atomic import writing

    width = len(str(deals))
    with writing(folder / f"deal-{index:0{width}d}.tarot") as fh:
        fh.write(notation.dumps_bytes(list(records)))


def _outcomes(spec: MatchSpec, deals: int, jobs: int) -> Iterator[DealOutcome]:
    """Each deal's outcome, in order, played here or by ``jobs`` worker processes (a few
    deals ahead of the one awaited: memory bounded whatever ``--deals``)."""
    from tarotnotation.players.match import play_duplicate

    numbers = iter(range(1, deals + 1))
    if jobs <= 1:
        for k in numbers:
            yield play_duplicate(spec, k)
        return
    from tarotnotation.workers import Workers

    with Workers(jobs) as pool:
        ahead = deque(pool.submit(play_duplicate, spec, k)
                      for k in itertools.islice(numbers, 4 * jobs))
        while ahead:
            done = ahead.popleft().result()
            for k in itertools.islice(numbers, 1):
                ahead.append(pool.submit(play_duplicate, spec, k))
            yield done


def _figure(x: float) -> str:
    return f"{x:+,.1f}"


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def _text(spec: MatchSpec, s: MatchSummary) -> list[Msg]:
    lines = [
        nmsg("{a} against {b}: {deals} deal at {players} players (seed {seed}, rules"
             " {rules}), at {tables} tables",
             "{a} against {b}: {deals} deals at {players} players (seed {seed}, rules"
             " {rules}), each at {tables} tables", s.deals, a=spec.a, b=spec.b,
             deals=f"{s.deals:,}", players=spec.players, seed=spec.seed, rules=spec.rules,
             tables=2 * spec.players),
        Msg("result per deal (A's scores minus B's in the same seats): mean {mean}",
            mean=_figure(s.mean)) if s.low is None or s.high is None else
        Msg("result per deal (A's scores minus B's in the same seats): mean {mean}, 95%"
            " interval {low} to {high} (Student's t)", mean=_figure(s.mean),
            low=_figure(s.low), high=_figure(s.high)),
        Msg("deals won by {a}: {won}, lost: {lost}, even: {even}", a=spec.a, won=s.won,
            lost=s.lost, even=s.even),
    ]
    for label, name, st in (("A", spec.a, s.a), ("B", spec.b, s.b)):
        lines.append(Msg("{label} {name}: contracts taken {taken}, made {made} ({share})",
                         label=label, name=name, taken=st.taken, made=st.made,
                         share=_share(st.made, st.taken)))
        if spec.makeable is not None:
            lines.append(Msg("  makeable with every hand open: {makeable} ({share}), unknown"
                             " within the solver's budget: {unknown}", makeable=st.makeable,
                             share=_share(st.makeable, st.taken), unknown=st.unknown))
    return lines


def _json(spec: MatchSpec, s: MatchSummary, deals: int) -> dict[str, Any]:
    # machine output: English words, the same in every language
    def bot(name: str, st: BotStats) -> dict[str, Any]:
        out: dict[str, Any] = {"name": name, "taken": st.taken, "made": st.made}
        if spec.makeable is not None:
            out |= {"makeable": st.makeable, "unknown": st.unknown, "nodes": spec.makeable}
        return out

    return {
        "a": bot(spec.a, s.a), "b": bot(spec.b, s.b), "players": spec.players,
        "deals": deals, "tables": 2 * spec.players, "seed": spec.seed, "rules": spec.rules,
        "unit": "score points: A's scores minus B's in the same seats, per deal",
        "mean": round(s.mean, 4),
        "interval": (None if s.low is None or s.high is None
                     else [round(s.low, 4), round(s.high, 4)]),
        "method": "paired, Student's t, 95%",
        "won": s.won, "lost": s.lost, "even": s.even,
    }
