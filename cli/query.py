"""Questions to the library: legal moves, rulesets, codes, cards, the JSON Schema."""

from __future__ import annotations

from typing import Annotated

import orjson
import typer

from tarotnotation.archive import STDIN, read_path
from tarotnotation.cards import Card
from tarotnotation.diagnostics import Code
from tarotnotation.formats.json import json_schema
from tarotnotation.replay import legal_moves
from tarotnotation.rules import Ruleset

from .common import diagnostic_lines, existing_file, fail, stdout_bytes

LEGAL_EPILOG = """\
Examples:

  tarot legal examples/faulty/revoke.tarot --trick 3 --card 1

  tarot legal club.tarot --deal 2 --trick 18 --card 0
"""


def legal(
    path: Annotated[str, typer.Argument(metavar="FILE", help="A record file.")],
    trick: Annotated[int, typer.Option("--trick", "-t", min=1,
                                       help="Trick number (1-based).")],
    card: Annotated[int, typer.Option("--card", "-c", min=0,
                                      help="Card index in the trick (0 = the lead).")] = 0,
    deal: Annotated[int, typer.Option("--deal", "-d", min=1,
                                      help="Deal number (1-based).")] = 1,
) -> None:
    """The legal cards at a point of a recorded deal, and why the others are not."""
    if path != STDIN:
        existing_file(path)
    record = None
    for item in read_path(path):
        if item.index == deal:
            for d in item.diagnostics:
                for line in diagnostic_lines(d, False):
                    typer.echo(line, err=True)
            if item.record is None:
                fail(f"{path}: deal {deal} cannot be read")
            record = item.record
            break
    if record is None:
        fail(f"{path}: no deal number {deal}")
    try:
        pos = legal_moves(record, trick, card)
    except ValueError as err:
        fail(str(err))
    typer.echo(f"Trick {pos.trick}, {pos.seat} to play after"
               f" {' '.join(c.code for c in pos.played) or '(leads)'}")
    typer.echo(f"  holds:  {pos.hand}{'' if pos.exact else '  (known part of the hand)'}")
    typer.echo(f"  legal:  {pos.legal}")
    illegal = pos.hand - pos.legal
    if illegal:
        first = next(iter(illegal))
        why = pos.constraint.explain(first)
        typer.echo(f"  not:    {illegal}")
        if why is not None:
            typer.echo(f"  why:    {why.code.value} {why.code.slug}: {why.message}")


def rules() -> None:
    """The rulesets and switches a record may name (and --rules/--set may set)."""
    typer.echo("Presets: fft (default), pagat")
    fft, pagat = Ruleset.fft(), Ruleset.pagat()
    for name in Ruleset.switch_names():
        typer.echo(f"  {name:<24} fft={fft.switch(name):<22} pagat={pagat.switch(name):<22}"
                   f" values: {', '.join(Ruleset.switch_values(name))}")


def codes() -> None:
    """Every diagnostic code, its severity and what it means."""
    for c in Code:
        typer.echo(f"{c.value}  {c.default_severity.value:<7}  {c.slug:<26} {c.summary}")


def card(code: Annotated[str, typer.Argument(help="A card code such as KH or T21.")]) -> None:
    """Name a card from its code."""
    try:
        c = Card.from_code(code.strip().upper())
    except ValueError as err:
        fail(str(err))
    typer.echo(f"{c.code}: {c.english} / {c.french}, {c.points / 2:g} points"
               f"{', a bout' if c.is_bout else ''}")


def schema() -> None:
    """Print the JSON Schema of the JSON format (one record; docs/json-format.md)."""
    stdout_bytes(orjson.dumps(json_schema(), option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS)
                 + b"\n")
