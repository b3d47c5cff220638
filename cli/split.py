"""``tarot split``: an archive into one file per deal or per tag value."""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO, Annotated

import typer

from tarotnotation.archive import STDIN
from tarotnotation.archives.organize import Names, replace_into, safe_name, staging
from tarotnotation.archives.safety import for_terminal
from tarotnotation.formats import json as json_format
from tarotnotation.records import find_tag

from .common import echo_err, fail
from .options import PathsArg, ToOpt
from .output import write_records
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

_SUFFIX = {"tarot": ".tarot", "json": ".json", "jsonl": ".jsonl", "tarotclub": ".json"}
_OPEN_AT_ONCE = 64


def split(
    paths: PathsArg,
    folder: Annotated[str, typer.Option(
        "--output", "-o", metavar="DIR", help="The folder to write the files in (made if"
        " missing).")],
    by: Annotated[str, typer.Option(
        "--by", "-b", metavar="deal|TAG[,TAG...]",
        help="One file per deal, or per value of these tags.")] = "deal",
    to: ToOpt = None,
    force: Annotated[bool, typer.Option(
        "--force", help="Replace files already in the folder.")] = False,
    jobs: JobsOpt = 1,
    strict: StrictOpt = False,
) -> None:
    """Split archives into one file per deal or per tag value."""
    fmt = (to or "tarot").strip().lower()
    if fmt not in _SUFFIX:
        fail(f"--to {to}: unknown format: expected tarot, json, jsonl or tarotclub")
    tags = [t.strip() for t in by.split(",") if t.strip()]
    per_deal = tags == ["deal"]
    if not tags or ("deal" in tags and not per_deal):
        fail(f"--by {by}: expected deal, or tag names such as Event or Date,Table")
    if not per_deal and fmt == "tarotclub":
        fail("a TarotClub file holds one deal: use --by deal, or --to tarot, json or jsonl")
    out = Path(folder)
    if out.exists() and not out.is_dir():
        fail(f"{folder}: is not a folder")
    reading = Reading(paths, jobs=jobs, strict=strict, replay=False)
    out.mkdir(parents=True, exist_ok=True)
    suffix = _SUFFIX[fmt]
    names = Names()
    made: list[tuple[Path, str]] = []
    with staging(out) as stage_name:
        stage = Path(stage_name)
        groups: dict[tuple[str | None, ...], tuple[str, Path]] = {}
        handles: dict[tuple[str | None, ...], IO[bytes]] = {}
        try:
            for deal in reading.deals(records=True):
                record = deal.record
                assert record is not None
                if per_deal:
                    stem = "stdin" if deal.file == STDIN else Path(deal.file).stem
                    name = names.take(f"{safe_name(stem)}-{deal.index:04d}", suffix)
                    path = stage / f"{len(made):08d}"
                    with path.open("wb") as one:
                        write_records([record], fmt, one)
                    made.append((path, name))
                    continue
                key = tuple(find_tag(record.tags, t) for t in tags)
                if key not in groups:
                    label = "-".join(safe_name(v) if v else f"no-{safe_name(t)}"
                                     for v, t in zip(key, tags, strict=True))
                    groups[key] = (names.take(label, suffix), stage / f"{len(groups):08d}")
                group = handles.get(key)
                if group is None:
                    if len(handles) >= _OPEN_AT_ONCE:
                        handles.pop(next(iter(handles))).close()
                    group = handles[key] = groups[key][1].open("ab")
                group.write(json_format.dumps(record) + b"\n")
        except StrictStopError:
            reading.stopped()
        finally:
            for group in handles.values():
                group.close()
        for name, path in groups.values():
            if fmt == "jsonl":
                made.append((path, name))
                continue
            final = path.with_suffix(".out")
            with final.open("wb") as whole:
                write_records((item.record for item in json_format.read(path)
                               if item.record is not None), fmt, whole)
            path.unlink()
            made.append((final, name))
        targets = [out / name for _, name in made]
        for target in targets:
            refuse_overwrite(str(target), reading.files)
        there = [t for t in targets if os.path.lexists(t)]
        if there and not force:
            fail(f"{for_terminal(str(there[0]))} is already there"
                 f"{f' (and {len(there) - 1} more)' if len(there) > 1 else ''}: nothing was"
                 " written; --force replaces them")
        for (path, _), target in zip(made, targets, strict=True):
            replace_into(path, target)
    echo_err(f"{len(made):,} file{'s' if len(made) != 1 else ''} written to"
             f" {for_terminal(str(out))} ({reading.read:,} deals)")
    reading.finish()
