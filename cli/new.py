"""``tarot new``: random complete legal deals (practice, tests, benchmarks)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Annotated

import typer

from tarotnotation.records import DealRecord
from tarotnotation.rules import Ruleset
from tarotnotation.simulate import random_deal

from .common import echo_err, fail, ruleset_spec
from .options import OutOpt, RulesOpt, SetOpt, ToOpt
from .output import opened, output_format, target, write_records

EPILOG = """\
Examples:

  tarot new

  tarot new --players 5 --seed 7 --count 100 -o practice.tarot

  tarot new --count 100000 --to jsonl > archive.jsonl
"""


def new(
    players: Annotated[int, typer.Option("--players", "-p", min=3, max=5,
                                         help="3, 4 or 5 players.")] = 4,
    seed: Annotated[int | None, typer.Option("--seed", "-s",
                                             help="Seed of the random generator: the same"
                                             " seed gives the same deals.")] = None,
    count: Annotated[int, typer.Option("--count", "-n", min=1,
                                       help="How many deals.")] = 1,
    output: OutOpt = None,
    to: ToOpt = None,
    rules: RulesOpt = None,
    sets: SetOpt = None,
) -> None:
    """Random complete legal deals: hands, auction, écart, play, score."""
    out = target(output)
    fmt = output_format(to, out)
    if fmt.one_deal and count > 1:
        fail(f"{fmt.title} holds one deal: use --count 1")
    spec = ruleset_spec(rules, sets)
    ruleset = Ruleset.from_spec(spec) if spec is not None else None
    rng = random.Random(seed)

    def records() -> Iterator[DealRecord]:
        for i in range(1, count + 1):
            record = random_deal(rng, players, ruleset=ruleset)
            yield record.model_copy(update={"tags": (*record.tags, ("Deal", str(i)))})

    with opened(out) as fh:
        written = write_records(records(), fmt, fh)
    if out is not None:
        echo_err(f"{written} deal{'s' if written != 1 else ''} written to {out} ({fmt.name})")
