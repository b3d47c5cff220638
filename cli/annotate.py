"""``tarot annotate``: the record back in the notation, with computed comments."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Annotated

import typer

from tarotnotation.annotate import PREFIX, annotate
from tarotnotation.archive import STDIN, check_deal, read_path
from tarotnotation.diagnostics import Severity
from tarotnotation.i18n import language, ngettext
from tarotnotation.records import DealRecord
from tarotnotation.source import ReadDeal

from .common import (
    EXIT_FAULTS,
    EXIT_OK,
    checked_spec,
    diagnostic_lines,
    echo_err,
    existing_file,
    ruleset_spec,
    use_color,
)
from .options import ForceOpt, RulesOpt, SetOpt
from .output import opened, write_records

EPILOG = f"""\
Examples:

  tarot annotate examples/annotated.tarot

  tarot annotate club.tarot -o club-annotated.tarot

  tarot annotate export.json -o deal.tarot

Computed comments start with "{PREFIX}": annotating again replaces
them, so the result does not change; other comments are kept. A file
that cannot be read cleanly is not annotated (exit status 1).
"""


def annotate_cmd(
    path: Annotated[str, typer.Argument(metavar="FILE",
                                        help="A record file of any format, or -.")],
    output: Annotated[str | None, typer.Option(
        "--output", "-o", metavar="OUT",
        help="Write to OUT (may be FILE itself; written whole or not at all);"
        " standard output if left out.")] = None,
    rules: RulesOpt = None,
    sets: SetOpt = None,
    force: ForceOpt = None,
) -> None:
    """Write records back in the notation with computed comments.

    Adds each trick's winner and both camps' running points, each
    violation at the card or bid where it happens, and the score worked
    out at the end.
    """
    default = ruleset_spec(rules, sets)
    forced = checked_spec(force, "--ruleset")
    if path != STDIN:
        existing_file(path)
    items: list[ReadDeal] = list(read_path(path))
    color = use_color(sys.stderr)
    bad = False
    for item in items:
        for d in item.diagnostics:
            for line in diagnostic_lines(d, color):
                echo_err(line)
        bad |= item.record is None or any(d.severity is Severity.ERROR
                                          for d in item.diagnostics)
    if bad:
        echo_err(f"tarot: {path}: not annotated: it cannot be read cleanly")
        raise typer.Exit(EXIT_FAULTS)

    def records() -> Iterator[DealRecord]:
        for item in items:
            assert item.record is not None
            rep = check_deal(item, path, forced, default_ruleset=default).replay
            assert rep is not None
            yield annotate(rep.record, lang=language())

    with opened(output) as fh:
        count = write_records(records(), "tarot", fh)
    if output not in (None, "-"):
        echo_err(ngettext("{n} deal annotated in {output}", "{n} deals annotated in {output}",
                          count).format(n=count, output=output))
    raise typer.Exit(EXIT_OK)
