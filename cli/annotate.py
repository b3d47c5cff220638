"""``tarot annotate``: the records with computed comments, in the notation or any format."""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterable, Iterator
from typing import Annotated

from tarotnotation.archive import STDIN, check_deal, format_of, read_path
from tarotnotation.diagnostics import Severity
from tarotnotation.formats import registry
from tarotnotation.i18n import Msg, language, ngettext
from tarotnotation.narrator import PREFIX, annotate
from tarotnotation.records import DealRecord
from tarotnotation.source import ReadDeal

from . import declare
from .common import (
    EXIT_FAULTS,
    EXIT_OK,
    checked_spec,
    diagnostic_lines,
    echo_err,
    existing_file,
    exit_status,
    fail,
    ruleset_spec,
    use_color,
    worst,
)
from .options import ForceOpt, RulesOpt, SetOpt, ToOpt
from .output import opened, output_format, target, write_records

EPILOG = f"""\
Examples:

  tarot annotate examples/annotated.tarot

  tarot annotate club.tarot -o club-annotated.tarot

  tarot annotate export.json -o deal.tarot

  tarot annotate club.tarot --in-place

Computed comments start with "{PREFIX}": annotating again replaces
them, so the result does not change; other comments are kept. The
output is in the format OUT's name says (or --to). A file that cannot
be read cleanly is not annotated (exit status 1); a deal with a fault
is annotated, the fault in place, and the exit status is 1.
"""


def annotate_cmd(
    path: Annotated[str, declare.Argument(metavar="FILE",
                                        help="A record file of any format, or -.")],
    output: Annotated[str | None, declare.Option(
        "--output", "-o", metavar="OUT",
        help="Write to OUT (written whole or not at all, never over FILE); standard"
        " output if left out.")] = None,
    to: ToOpt = None,
    in_place: Annotated[bool, declare.Option(
        "--in-place", "-i", help="Rewrite FILE itself, in its own format (whole or not at"
        " all).")] = False,
    rules: RulesOpt = None,
    sets: SetOpt = None,
    force: ForceOpt = None,
) -> None:
    """Write records back with computed comments (the notation by default).

    Adds each trick's winner and both camps' running points, each
    violation at the card or bid where it happens, and the score worked
    out at the end.
    """
    default = ruleset_spec(rules, sets)
    forced = checked_spec(force, "--ruleset")
    if path != STDIN:
        existing_file(path)
    if in_place:
        if path == STDIN or output is not None or to is not None:
            fail(Msg("--in-place rewrites FILE itself: give a file, and neither -o nor --to"))
        if not stat.S_ISREG(os.stat(path).st_mode):
            fail(Msg("{path}: not a regular file: it cannot be rewritten in place", path=path))
        fmt = registry.get(format_of(path))
        if fmt.write is None or fmt.cannot_hold is not None:
            fail(Msg("{path}: {fmt} cannot hold the comments: annotate to another file (-o)",
                     path=path, fmt=fmt.title))
        out: str | None = path
    else:
        out = target(output, inputs=[path])
        fmt = output_format(to, out)
    color = use_color(sys.stderr)
    regular = path != STDIN and stat.S_ISREG(os.stat(path).st_mode)
    # A file is read twice (checked, then annotated), one deal at a time; a stream once,
    # held, since it cannot be read again.
    held = None if regular else list(read_path(path))
    status = EXIT_OK
    deals = 0
    bad = False
    for item in held if held is not None else read_path(path):
        for d in item.diagnostics:
            for line in diagnostic_lines(d, color):
                echo_err(line)
        status = worst(status, exit_status(item.diagnostics))
        if item.about_file:
            continue
        deals += 1
        bad |= item.record is None or any(d.severity is Severity.ERROR
                                          for d in item.diagnostics)
    if bad or not deals:
        if bad:
            echo_err(Msg("tarot: {path}: not annotated: it cannot be read cleanly", path=path))
        raise SystemExit(worst(status, EXIT_FAULTS))
    faulty = 0

    def records(items: Iterable[ReadDeal]) -> Iterator[DealRecord]:
        nonlocal faulty
        for item in items:
            if item.record is None:
                continue
            rep = check_deal(item, path, forced, default_ruleset=default).replay
            assert rep is not None
            faulty += not rep.ok
            yield annotate(rep.record, lang=language())

    with opened(out) as fh:
        count = write_records(records(held if held is not None else read_path(path)), fmt,
                              fh)
    if out is not None:
        echo_err(ngettext("{n} deal annotated in {output}", "{n} deals annotated in {output}",
                          count).format(n=f"{count:,}", output=out))
    if faulty:
        echo_err("tarot: " + ngettext("{n} deal with errors (annotated where they happen)",
                                      "{n} deals with errors (annotated where they happen)",
                                      faulty).format(n=f"{faulty:,}"))
    raise SystemExit(worst(status, EXIT_FAULTS if faulty else EXIT_OK))
