"""``tarot sort``: the deals of archives sorted by tags."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from tarotnotation.archives.organize import is_tag, record_key, sort_fields, sorted_records
from tarotnotation.archives.safety import for_terminal
from tarotnotation.i18n import Msg, nmsg
from tarotnotation.records import DealRecord, find_tag

from . import declare
from .common import echo_err, fail
from .options import OutOpt, PathsArg, ToOpt
from .output import opened, output_format, write_records
from .reading import JobsOpt, Reading, StrictOpt, StrictStopError

EPILOG = """\
Examples:

  tarot sort season.jsonl --by Date,Round,Table -o sorted.jsonl

  tarot sort club/ --by Date --reverse > latest-first.tarot

Tag values sort as people expect: dates by their known parts
(2026.11.?? before 2026.11.14), numbers as numbers (9 before 10), text
without regard to case or accents; a deal without the tag comes last.
A field of the query language (contract, taker, points, margin...:
docs/query.md) sorts by its value, worked out from the record.
Equal deals keep their order. Memory stays bounded: past a few thousand
deals, sorted runs go to temporary files and are merged (removed at the
end). To merge archives without sorting, use tarot convert A B -o OUT.
"""


def sort(
    paths: PathsArg,
    by: Annotated[str, declare.Option(
        "--by", "-b", metavar="TAG[,TAG...]",
        help="The tags (or fields: contract, points...) to sort by, the first first, e.g."
        " Date,Round,Table.")],
    reverse: Annotated[bool, declare.Option("--reverse", "-r",
                                          help="Last first.")] = False,
    output: OutOpt = None,
    to: ToOpt = None,
    jobs: JobsOpt = 1,
    strict: StrictOpt = False,
) -> None:
    """Sort the deals of archives by their tags."""
    tags = [t.strip() for t in by.split(",") if t.strip()]
    if not tags:
        fail(Msg("--by {by}: expected tag names such as Date,Round,Table", by=repr(by)))
    try:
        key = record_key(tags)
    except ValueError as err:
        fail(Msg("--by {by}: {err}", by=by, err=err))
    fmt = output_format(to, output)
    reading = Reading(paths, jobs=jobs, strict=strict, replay=False)
    reading.refuse_overwrite(output)
    unseen = {tag for tag in tags if is_tag(tag)}  # the tags no deal has had yet

    def records() -> Iterator[DealRecord]:
        for deal in reading.deals(records=True):
            assert deal.record is not None
            for tag in [t for t in unseen if find_tag(deal.record.tags, t) is not None]:
                unseen.discard(tag)
            yield deal.record

    try:
        with opened(output) as fh:
            written = write_records(sorted_records(records(), key, reverse=reverse), fmt, fh)
    except StrictStopError:
        reading.stopped()
    fields = sort_fields()
    for tag in (t for t in tags if t in unseen and reading.read):  # said, not sorted by
        field = tag.lower() if tag.lower() in fields else None
        if field is not None:
            echo_err(Msg("tarot: warning: --by {tag}: no deal has the tag {tag}, so nothing"
                         " was sorted by it; the field is written {field}", tag=tag,
                         field=field))
        else:
            echo_err(Msg("tarot: warning: --by {tag}: no deal has the tag {tag}, so nothing"
                         " was sorted by it", tag=tag))
    if output not in (None, "-"):
        echo_err(nmsg("{n} deal written to {output} ({fmt})",
                      "{n} deals written to {output} ({fmt})", written, n=f"{written:,}",
                      output=for_terminal(output or ""), fmt=fmt.name))
    reading.finish()
