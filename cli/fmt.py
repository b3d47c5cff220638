"""``tarot fmt``: rewrite text-notation files in canonical form, like black or ruff format.

A file is rewritten only when every deal in it reads without an error, and only when
its canonical text reads back to the same records (formatting never changes a meaning);
the new text goes to a temporary file in the same folder, renamed over the old one.
"""

from __future__ import annotations

import difflib
import io
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

from tarotnotation.archive import STDIN, expand_paths, format_name, format_of
from tarotnotation.diagnostics import Severity
from tarotnotation.records import DealRecord
from tarotnotation.source import ReadDeal

from .common import (
    EXIT_FAULTS,
    EXIT_OK,
    diagnostic_lines,
    echo_err,
    expand_arguments,
    stdout_bytes,
    use_color,
)
from .output import opened

EPILOG = """\
Examples:

  tarot fmt club/

  tarot fmt --check .

  tarot fmt --diff deal.tarot

  cat deal.tarot | tarot fmt -

--check and --diff write nothing and exit 1 when a file would change. A
file with a syntax error is left untouched and reported (exit status 1).
"""


@dataclass(frozen=True)
class Formatted:
    """A file's text now and in canonical form, or why it cannot be formatted."""

    old: bytes
    new: bytes | None
    items: list[ReadDeal]

    @property
    def changed(self) -> bool:
        """True when the canonical text differs from the file's."""
        return self.new is not None and self.new != self.old


def canonical(data: bytes, name: str) -> Formatted:
    """Read ``data`` and write it back in canonical form; ``new`` is None when a deal
    cannot be read cleanly or (never expected) the canonical text would read back
    differently."""
    from tarotnotation import notation  # (the grammar loads only when text is read)

    items = list(notation.read(io.BytesIO(data), name=name))
    bad = any(item.record is None or any(d.severity is Severity.ERROR
                                         for d in item.diagnostics) for item in items)
    if bad:
        return Formatted(data, None, items)
    records: list[DealRecord] = [item.record for item in items if item.record is not None]
    text = notation.dumps(records)
    again = [item.record for item in notation.reads(text, name=name)]
    if again != records:
        return Formatted(data, None, items)
    return Formatted(data, text.encode("utf-8"), items)


def fmt(
    paths: Annotated[list[str], typer.Argument(
        metavar="PATH...", help="Text-notation files, folders (their .tarot files,"
        " recursively), glob patterns, or - for standard input.")],
    check: Annotated[bool, typer.Option("--check", help="Write nothing; exit 1 when a"
                                        " file would change.")] = False,
    diff: Annotated[bool, typer.Option("--diff", help="Write nothing; print a unified"
                                       " diff of each change (exit 1 when any).")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q",
                                        help="No summary.")] = False,
) -> None:
    """Rewrite records in the canonical form of the text notation."""
    args = expand_arguments(paths)
    color = use_color(sys.stderr)
    changed = unchanged = broken = 0
    for arg in args:
        named = arg == STDIN or not Path(arg).is_dir()
        for path in expand_paths([arg]):
            name = str(path)
            if name != STDIN and path.suffix.lower() != ".tarot":
                kind = format_of(path)
                if kind != "tarot":
                    if named:
                        echo_err(f"tarot: {name}: left alone: it is {format_name(kind)},"
                                 " not the text notation")
                    continue
            data = sys.stdin.buffer.read() if name == STDIN else path.read_bytes()
            result = canonical(data, "<stdin>" if name == STDIN else name)
            if result.new is None:
                broken += 1
                for item in result.items:
                    for d in item.diagnostics:
                        for line in diagnostic_lines(d, color):
                            echo_err(line)
                echo_err(f"tarot: {name}: not formatted: it cannot be read cleanly"
                         " (left untouched)")
                if name == STDIN and not (check or diff):
                    stdout_bytes(data)
                continue
            if not result.changed:
                unchanged += 1
                if name == STDIN and not (check or diff):
                    stdout_bytes(data)
                continue
            changed += 1
            if diff:
                old = result.old.decode("utf-8", errors="replace").splitlines(keepends=True)
                new = result.new.decode("utf-8").splitlines(keepends=True)
                typer.echo("".join(difflib.unified_diff(old, new, fromfile=name,
                                                        tofile=f"{name} (formatted)")),
                           nl=False)
            elif check:
                typer.echo(f"would reformat {name}")
            elif name == STDIN:
                stdout_bytes(result.new)
            else:
                with opened(name) as fh:
                    fh.write(result.new)
                echo_err(f"reformatted {name}")
    if not quiet and (len(args) != 1 or args[0] != STDIN):
        verb = "would be reformatted" if check or diff else "reformatted"
        parts = [f"{changed} file{'s' if changed != 1 else ''} {verb}",
                 f"{unchanged} unchanged"]
        if broken:
            parts.append(f"{broken} not formatted (errors)")
        echo_err(", ".join(parts))
    failed = broken > 0 or ((check or diff) and changed > 0)
    raise typer.Exit(EXIT_FAULTS if failed else EXIT_OK)
