"""``tarot legal``: the legal cards at a point of a recorded deal, and why the others are not."""

from __future__ import annotations

from typing import Annotated

import typer

from tarotnotation.archive import STDIN, read_path
from tarotnotation.i18n import Msg
from tarotnotation.replay import legal_moves

from .common import diagnostic_lines, existing_file, fail

EPILOG = """\
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
                fail(Msg("{path}: deal {deal} cannot be read", path=path, deal=deal))
            record = item.record
            break
    if record is None:
        fail(Msg("{path}: no deal number {deal}", path=path, deal=deal))
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
