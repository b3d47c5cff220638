"""``tarot split``: an archive into one file per deal or per tag value."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Annotated

from tarotnotation import atomic
from tarotnotation.archives.organize import Splitter
from tarotnotation.archives.safety import for_terminal
from tarotnotation.formats.registry import Format
from tarotnotation.i18n import Msg, nmsg
from tarotnotation.records import DealRecord

from . import declare
from .common import echo_err, fail
from .options import PathsArg, ToOpt
from .output import output_format, warn_lost, write_records
from .reading import JobsOpt, Reading, StrictOpt, StrictStopError, refuse_overwrite

EPILOG = """\
Examples:

  tarot split season.jsonl -o deals/

  tarot split season.jsonl --by Event -o events/ --to jsonl

  tarot split club/ --by Date,Table -o sessions/

Each deal, or each value of the tags named, makes one file in the
folder. Tag values become safe file names: no separator, no '..', no
control character; two values that would give the same name are
numbered (Lyon, Lyon-2). The files are made aside and moved into place
at the end, all of them or none; a file already there is replaced only
with --force, and never one of the inputs.
"""

def split(
    paths: PathsArg,
    folder: Annotated[str, declare.Option(
        "--output", "-o", metavar="DIR", help="The folder to write the files in (made if"
        " missing).")],
    by: Annotated[str, declare.Option(
        "--by", "-b", metavar="deal|TAG[,TAG...]",
        help="One file per deal, or per value of these tags.")] = "deal",
    to: ToOpt = None,
    force: Annotated[bool, declare.Option(
        "--force", help="Replace files already in the folder.")] = False,
    jobs: JobsOpt = 1,
    strict: StrictOpt = False,
) -> None:
    """Split archives into one file per deal or per tag value."""
    fmt = output_format(to, None)
    tags = [t.strip() for t in by.split(",") if t.strip()]
    per_deal = tags == ["deal"]
    if not tags or ("deal" in tags and not per_deal):
        fail(Msg("--by {by}: expected deal, or tag names such as Event or Date,Table", by=by))
    if not per_deal and fmt.one_deal:
        fail(Msg("{fmt} holds one deal: use --by deal, or --to tarot, json or jsonl",
                 fmt=fmt.title))
    if folder == "-":
        fail(Msg("-o -: split writes a file per deal or per group into a folder: name the "
                 "folder (standard output cannot hold several files)"))
    out = Path(folder)
    reading = Reading(paths, jobs=jobs, strict=strict, replay=False)
    refuse_overwrite(folder, reading.files)  # before anything is read or written
    if out.exists() and not out.is_dir():
        fail(Msg("{folder}: is not a folder", folder=folder))
    made = 0
    created = _missing_folders(out)
    try:
        with atomic.naming(folder, ""):  # (a folder that cannot be made: cannot write)
            out.mkdir(parents=True, exist_ok=True)
        made = _split(reading, out, folder, tags if not per_deal else None, fmt, force)
    finally:
        if not made:  # nothing written (a full disk, a refusal, no deal): what was made goes
            for made_folder in created:
                with contextlib.suppress(OSError):
                    made_folder.rmdir()
    echo_err(nmsg("{n} file written to {folder} ({deals})",
                  "{n} files written to {folder} ({deals})", made, n=f"{made:,}",
                  folder=for_terminal(str(out)),
                  deals=nmsg("{n} deal", "{n} deals", reading.read, n=f"{reading.read:,}")))
    reading.finish()


def _missing_folders(folder: Path) -> list[Path]:
    """The folders that making ``folder`` creates, deepest first."""
    missing = []
    for path in (folder, *folder.parents):
        if os.path.lexists(path):
            break
        missing.append(path)
    return missing


def _split(reading: Reading, out: Path, folder: str, tags: list[str] | None,
           fmt: Format, force: bool) -> int:
    """Write the files into ``out`` (made aside, then moved into place): how many."""

    def write(records: Iterable[DealRecord], fh: IO[bytes]) -> int:
        return write_records(records, fmt, fh)

    # (what fails in making the files, aside or in place, is a failure to write the folder)
    with atomic.naming(folder, ""):
        splitter = Splitter(out, tags, fmt.file_suffix, write, lines=fmt.name == "jsonl")
    with splitter:
        try:
            for deal in reading.deals(records=True):
                assert deal.record is not None
                warn_lost(deal.record, fmt, deal.index, deal.file)
                with atomic.naming(folder, ""):
                    splitter.add(deal.file, deal.index, deal.record)
        except StrictStopError:
            reading.stopped()
        if not reading.read and reading.status:  # nothing read, and a path could not be:
            reading.finish()  # said above (exit status 2); nothing written
        with atomic.naming(folder, ""):
            targets = splitter.finish()
        for target in targets:
            refuse_overwrite(str(target), reading.files)
        there = [t for t in targets if os.path.lexists(t)]
        if there and not force:
            fail(Msg("{there} is already there{value}: nothing was written; --force replaces them",
                     there=for_terminal(str(there[0])),
                     value=Msg(" (and {n} more)", n=len(there) - 1) if len(there) > 1 else ""))
        with atomic.naming(folder, ""):
            return splitter.place()
