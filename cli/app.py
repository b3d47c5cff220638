"""The ``tarot`` command: validate, replay, score, convert, annotate and format records.

This module only registers the commands; each lives in its own module and is a thin
layer over the library: it parses arguments, calls ``tarotnotation`` and prints. No rule
and no format logic lives in the CLI.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from tarotnotation import __version__

from . import (
    analyze,
    annotate,
    card,
    codes,
    convert,
    dedupe,
    fmt,
    html,
    legal,
    new,
    query,
    replay,
    rules,
    schema,
    score,
    solve,
    sort,
    split,
    standings,
    stats,
    validate,
)
from .common import command
from .language import LANG_HELP, LocalizedGroup

app = typer.Typer(
    name="tarot",
    help="Validate, replay, score, convert, annotate and format French Tarot game records.",
    epilog="Run 'tarot COMMAND --help' for a command's options and examples.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=LocalizedGroup,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"tarot {__version__}")
        raise typer.Exit(0)


@app.callback()
def _main(
    version: Annotated[bool, typer.Option("--version", "-V", is_eager=True,
                                          callback=_version,
                                          help="Print the version and exit.")] = False,
    lang: Annotated[str | None, typer.Option("--lang", metavar="LANG",
                                             help=LANG_HELP)] = None,
) -> None:
    """Validate, replay, score, convert, annotate and format French Tarot game records."""


#: Every command: (name, module, function, needs an argument). Each module holds one
#: command and its EPILOG; tests walk this table (and the app) so that every command,
#: new ones included, keeps the exit-code table and the refusal to write over an input.
COMMANDS = (
    ("validate", validate, validate.validate, True),
    ("replay", replay, replay.replay_cmd, True),
    ("score", score, score.score, True),
    ("convert", convert, convert.convert, True),
    ("annotate", annotate, annotate.annotate_cmd, True),
    ("analyze", analyze, analyze.analyze, True),
    ("solve", solve, solve.solve, True),
    ("fmt", fmt, fmt.fmt, True),
    ("html", html, html.html_cmd, True),
    ("schema", schema, schema.schema, False),
    ("new", new, new.new, False),
    ("legal", legal, legal.legal, True),
    ("rules", rules, rules.rules, False),
    ("codes", codes, codes.codes, False),
    ("card", card, card.card, True),
    ("query", query, query.query, True),
    ("stats", stats, stats.stats, True),
    ("standings", standings, standings.standings, True),
    ("dedupe", dedupe, dedupe.dedupe, True),
    ("split", split, split.split, True),
    ("sort", sort, sort.sort, True),
)

for _name, _module, _fn, _needs_args in COMMANDS:
    app.command(_name, epilog=_module.EPILOG, no_args_is_help=_needs_args)(command(_fn))
app.command("check", hidden=True, epilog=validate.EPILOG, no_args_is_help=True)(
    command(validate.validate))


@app.command("version", hidden=True)
def version() -> None:
    """Print the version (as ``tarot --version``)."""
    typer.echo(f"tarot {__version__}")


def main() -> None:
    """Entry point of the ``tarot`` script and of ``python -m tarotnotation``."""
    try:
        app()
    except BrokenPipeError:  # `tarot ... | head`: the reader went away
        sys.stderr.close()
        raise SystemExit(1) from None
    except KeyboardInterrupt:
        raise SystemExit(130) from None


__all__ = ["COMMANDS", "app", "main"]
