"""``tarot legal``: the legal cards at a point of a recorded deal, and why the others are not."""

from __future__ import annotations

import sys
from typing import Annotated

from tarotnotation.archive import STDIN, check_deal, read_path
from tarotnotation.i18n import Msg, message_of, nmsg, render
from tarotnotation.replay import legal_moves

from . import declare
from .common import (
    EXIT_FAULTS,
    EXIT_OK,
    diagnostic_lines,
    echo,
    echo_err,
    existing_file,
    exit_status,
    fail,
    use_color,
    worst,
)
from .terminal import ljust, width

#: The labels of the answer's lines, aligned in the run's language.
_LABELS = {"holds": Msg("holds:"), "legal": Msg("legal:"), "not": Msg("not:"),
           "why": Msg("why:")}

EPILOG = """\
Examples:

  tarot legal examples/faulty/revoke.tarot --trick 3 --card 1

  tarot legal club.tarot --deal 2 --trick 18 --card 0

Exit status 1 when the deal holds an error (the answer is still given, as
far as the record allows).
"""


def legal(
    path: Annotated[str, declare.Argument(metavar="FILE", help="A record file, or -.")],
    trick: Annotated[int, declare.Option("--trick", "-t", min=1,
                                       help="Trick number (1-based).")],
    card: Annotated[int, declare.Option("--card", "-c", min=0,
                                      help="Card index in the trick (0 = the lead).")] = 0,
    deal: Annotated[int, declare.Option("--deal", "-d", min=1,
                                      help="Deal number (1-based).")] = 1,
) -> None:
    """The legal cards at a point of a recorded deal, and why the others are not."""
    if path != STDIN:
        existing_file(path)
    color = use_color(sys.stderr)
    status = EXIT_OK
    found = None
    total = 0
    for item in read_path(path):
        if item.about_file:
            for d in item.diagnostics:
                for line in diagnostic_lines(d, color):
                    echo_err(line)
            status = worst(status, exit_status(item.diagnostics))
            continue
        total += 1
        if item.index == deal:
            for d in item.diagnostics:
                for line in diagnostic_lines(d, color):
                    echo_err(line)
            if item.record is None:
                echo_err("tarot: " + Msg("{path}: deal {deal} cannot be read", path=path,
                                         deal=deal).render())
                raise SystemExit(worst(status, EXIT_FAULTS))
            found = item
            break
    if found is None or found.record is None:
        if not total:  # nothing to ask about: the file's fault, not the question's
            raise SystemExit(worst(status, EXIT_FAULTS))
        fail(Msg("{path}: no deal number {deal}", path=path, deal=deal))
    try:
        pos = legal_moves(found.record, trick, card)
    except ValueError as err:
        fail(message_of(err))
    played = " ".join(c.code for c in pos.played)
    echo(render(Msg("Trick {trick}, {seat} to play after {played}", trick=pos.trick,
                    seat=pos.seat, played=played) if played else
                Msg("Trick {trick}, {seat} to play after (leads)", trick=pos.trick,
                    seat=pos.seat)))
    labels = {k: render(v) for k, v in _LABELS.items()}
    pad = max(width(v) for v in labels.values()) + 2

    def answer(key: str, text: str) -> None:
        echo(f"  {ljust(labels[key], pad)}{text}")

    answer("holds", f"{render(str(pos.hand))}"
                    f"{'' if pos.exact else render(Msg('  (known part of the hand)'))}")
    answer("legal", render(str(pos.legal)))
    illegal = pos.hand - pos.legal
    if illegal:
        first = next(iter(illegal))
        why = pos.constraint.explain(first)
        answer("not", render(str(illegal)))
        if why is not None:
            answer("why", f"{why.code.value} {why.code.slug}{render(Msg(': '))}"
                        f"{render(why.message)}")
    rep = check_deal(found, path).replay
    errors = 0 if rep is None else len(rep.errors)
    if errors:
        echo_err(nmsg("tarot: note: deal {deal} holds {n} error (tarot validate {path} lists"
                      " it)", "tarot: note: deal {deal} holds {n} errors (tarot validate {path}"
                      " lists them)", errors, deal=deal, n=errors, path=path))
    raise SystemExit(worst(status, EXIT_FAULTS if errors else EXIT_OK))
