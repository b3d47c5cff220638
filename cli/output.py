"""Writing records: the output format from ``--to`` or the file's name, files replaced
atomically, standard output when no file is named."""

from __future__ import annotations

import contextlib
import io
import itertools
import os
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Final

from tarotnotation.i18n import Msg
from tarotnotation.records import DealRecord

from .common import fail

#: What ``--to`` accepts.
WRITE_FORMATS: Final = ("tarot", "json", "jsonl", "tarotclub", "csv")
_BY_SUFFIX: Final = {".tarot": "tarot", ".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl",
                     ".csv": "csv"}


def output_format(to: str | None, out: str | None, default: str = "tarot") -> str:
    """The format to write: ``--to`` if given, else from the output file's extension,
    else ``default`` (standard output). Unknown names are usage errors."""
    if to is not None:
        fmt = to.strip().lower()
        if fmt not in WRITE_FORMATS:
            fail(Msg("--to {to}: unknown format: expected {write_formats} or {write_formats2}",
                     to=to, write_formats=', '.join(WRITE_FORMATS[:-1]),
                     write_formats2=WRITE_FORMATS[-1]))
        return fmt
    if out is None or out == "-":
        return default
    guessed = _BY_SUFFIX.get(Path(out).suffix.lower())
    if guessed is None:
        fail(Msg("{out}: cannot tell the format from the name: give --to", out=out))
    return guessed


@contextlib.contextmanager
def opened(out: str | None) -> Iterator[IO[bytes]]:
    """A binary stream to write to: standard output for None or ``-``; otherwise a
    temporary file in the target's folder, renamed over the target only when the block
    ends without an exception (a failed write never leaves a truncated file)."""
    if out is None or out == "-":
        sys.stdout.flush()
        yield sys.stdout.buffer
        sys.stdout.buffer.flush()
        return
    target = Path(out)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        fail(Msg("{out}: no such folder: {folder}", out=out, folder=folder))
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            yield fh
        if target.exists():
            os.chmod(tmp, target.stat().st_mode & 0o777)
        else:
            mask = os.umask(0)
            os.umask(mask)
            os.chmod(tmp, 0o666 & ~mask)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_records(records: Iterable[DealRecord], fmt: str, fh: IO[bytes]) -> int:
    """Write records in ``fmt`` as they come (constant memory); returns the count.

    ``json`` writes one record as one indented object and several as an archive
    document; ``tarotclub`` holds one deal (more raise ``ValueError``).
    """
    if fmt == "tarot":
        from tarotnotation import notation

        text = io.TextIOWrapper(fh, encoding="utf-8", newline="\n", write_through=True)
        counted = _Counted(records)
        try:
            notation.dump(counted, text)
            text.flush()
        finally:
            text.detach()
        return counted.count
    if fmt == "tarotclub":
        from tarotnotation.formats import tarotclub

        return tarotclub.write(records, fh)
    if fmt == "csv":
        from tarotnotation.formats import csvsheet

        return csvsheet.write(records, fh)
    from tarotnotation.formats import json as json_format

    if fmt == "json":
        it = iter(records)
        first = list(itertools.islice(it, 2))
        if len(first) == 1:
            json_format.dump(first[0], fh, indent=True)
            return 1
        return json_format.write(itertools.chain(first, it), fh, lines=False)
    return json_format.write(records, fh, lines=True)


class _Counted:
    """An iterable that counts what was taken from it."""

    def __init__(self, items: Iterable[DealRecord]) -> None:
        self.items = items
        self.count = 0

    def __iter__(self) -> Iterator[DealRecord]:
        for item in self.items:
            self.count += 1
            yield item
