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

from . import annotate, convert, fmt, query, score, show, validate
from .common import command

app = typer.Typer(
    name="tarot",
    help="Validate, replay, score, convert, annotate and format French Tarot game records.",
    epilog="Run 'tarot COMMAND --help' for a command's options and examples.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
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
) -> None:
    """Validate, replay, score, convert, annotate and format French Tarot game records."""


app.command("validate", epilog=validate.EPILOG, no_args_is_help=True)(
    command(validate.validate))
app.command("check", hidden=True, epilog=validate.EPILOG, no_args_is_help=True)(
    command(validate.validate))
app.command("replay", epilog=show.EPILOG, no_args_is_help=True)(command(show.replay_cmd))
app.command("score", epilog=score.EPILOG, no_args_is_help=True)(command(score.score))
app.command("convert", epilog=convert.CONVERT_EPILOG, no_args_is_help=True)(
    command(convert.convert))
app.command("annotate", epilog=annotate.EPILOG, no_args_is_help=True)(
    command(annotate.annotate_cmd))
app.command("fmt", epilog=fmt.EPILOG, no_args_is_help=True)(command(fmt.fmt))
app.command("schema", epilog="Example:\n\n  tarot schema > tarot-record.schema.json\n")(
    command(query.schema))
app.command("new", epilog=convert.NEW_EPILOG)(command(convert.new))
app.command("legal", epilog=query.LEGAL_EPILOG, no_args_is_help=True)(command(query.legal))
app.command("rules", epilog="Example:\n\n  tarot rules\n")(command(query.rules))
app.command("codes", epilog="Example:\n\n  tarot codes | grep P1\n")(command(query.codes))
app.command("card", epilog="Examples:\n\n  tarot card T21\n\n  tarot card kh\n",
            no_args_is_help=True)(command(query.card))


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


__all__ = ["app", "main"]
