"""``tarot codes``: every diagnostic code, its severity and meaning."""

from __future__ import annotations

import typer

from tarotnotation.diagnostics import Code

EPILOG = "Example:\n\n  tarot codes | grep P1\n"


def codes() -> None:
    """Every diagnostic code, its severity and what it means."""
    for c in Code:
        typer.echo(f"{c.value}  {c.default_severity.value:<7}  {c.slug:<26} {c.summary}")
