"""``tarot dedupe``: the same deal recorded twice, across files and formats."""

from __future__ import annotations

from collections.abc import Iterator
from enum import StrEnum
from typing import Annotated

from tarotnotation.archives.dedupe import DEFAULT_LIMIT, Dedupe
from tarotnotation.archives.safety import for_terminal
from tarotnotation.i18n import Msg, nmsg, render
from tarotnotation.records import DealRecord

from . import declare
from .common import EXIT_FAULTS, EXIT_OK, echo_err, echo_styled, fail
from .options import OutOpt, PathsArg, ToOpt
from .output import opened, output_format, write_records
from .reading import JobsOpt, Reading, StrictOpt, StrictStopError

EPILOG = """\
Examples:

  tarot dedupe club/ season.jsonl

  tarot dedupe season.jsonl old/*.tarot --by play

  tarot dedupe season.jsonl -o season-once.jsonl --report

--by deal: the same cards dealt (the same hands and chien, whoever held
them; records without their hands are not compared). --by play: the
same cards dealt and played, in order. Without -o, each deal met before
is reported with where it was first met, and the exit status is 1 when
there is one. With -o, every deal is written once (its first meeting),
in any format. Only fingerprints are kept (16 bytes a deal); past
--memory the table moves to a temporary file.
"""


class By(StrEnum):
    """What ``--by`` accepts."""

    DEAL = "deal"
    PLAY = "play"


def dedupe(
    paths: PathsArg,
    by: Annotated[By, declare.Option("--by", "-b", case_sensitive=False,
                                   help="deal: the same cards dealt; play: and the same"
                                   " cards played.")] = By.DEAL,
    report: Annotated[bool, declare.Option(
        "--report", help="Report each deal met before (the default without -o; with -o,"
        " on standard error).")] = False,
    output: OutOpt = None,
    to: ToOpt = None,
    memory: Annotated[int, declare.Option(
        "--memory", metavar="MB", min=1,
        help="Fingerprints held in memory up to this size, then in a temporary file.")
    ] = DEFAULT_LIMIT >> 20,
    jobs: JobsOpt = 1,
    strict: StrictOpt = False,
) -> None:
    """Find the deals recorded twice, across files and formats; write each once."""
    fmt = output_format(to, output) if output is not None else None
    reading = Reading(paths, jobs=jobs, strict=strict, replay=False)
    reading.refuse_overwrite(output)
    judge = Dedupe(by.value, limit=memory << 20)

    def say(line: str) -> None:
        if output is None:
            echo_styled(for_terminal(line))
        elif report:
            echo_err(for_terminal(line))

    def kept() -> Iterator[DealRecord]:
        for deal in reading.deals(records=output is not None,
                                  skipped=lambda d: judge.met(d.file, d.index)):
            assert deal.summary is not None
            duplicate = judge.judge(deal.summary)
            if duplicate is not None:
                say(render(Msg("{where}: the same deal as {first}", where=duplicate.where,
                               first=duplicate.first) if by is By.DEAL else
                           Msg("{where}: the same deal and play as {first}",
                               where=duplicate.where, first=duplicate.first)))
                continue
            if deal.record is not None:
                yield deal.record

    written = 0
    try:
        if output is None:
            for _ in kept():
                pass
        else:
            assert fmt is not None
            with opened(output) as fh:
                written = write_records(kept(), fmt, fh)
    except StrictStopError:
        judge.close()
        reading.stopped()
    except ValueError as err:
        judge.close()
        fail(Msg("cannot write {fmt}: {err}",
                 fmt=fmt.name if fmt is not None else output, err=err))
    finally:
        judge.close()
    if not reading.read and reading.status:  # nothing read, and a path could not be:
        reading.finish()  # said above (exit status 2)
    dup, read = f"{judge.duplicates:,}", f"{reading.read:,}"
    # the verb agrees with the deals that repeat ("1 of 5 deals repeats")
    summary = (nmsg("{dup} of {n} deals repeats deals met before",
                    "{dup} of {n} deals repeat deals met before", judge.duplicates, dup=dup,
                    n=read)
               if by is By.DEAL else
               nmsg("{dup} of {n} deals repeats deals and plays met before",
                    "{dup} of {n} deals repeat deals and plays met before", judge.duplicates,
                    dup=dup, n=read))
    if judge.unmarked:
        unmarked = f"{judge.unmarked:,}"
        summary = nmsg("{summary}; {n} without its hands not compared",
                       "{summary}; {n} without their hands not compared", judge.unmarked,
                       summary=summary, n=unmarked) if by is By.DEAL else nmsg(
            "{summary}; {n} without a play not compared",
            "{summary}; {n} without a play not compared", judge.unmarked, summary=summary,
            n=unmarked)
    if output is None:
        echo_err(summary)
    else:
        echo_err(nmsg("{summary}; {n} written to {output}", "{summary}; {n} written to {output}",
                      written, summary=summary, n=f"{written:,}", output=for_terminal(output)))
    if reading.unreadable or reading.status or not reading.read:
        reading.finish()
    raise SystemExit(EXIT_FAULTS if judge.duplicates and output is None else EXIT_OK)
