"""A progress bar on standard error, for long runs on a terminal only.

The bar appears only when standard error is a terminal, ``CI`` is not set, and the run
is still going after a short delay; piped, redirected or in CI, nothing is drawn. It is
transient: it disappears when the run ends, leaving the report alone on the screen.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from types import TracebackType
from typing import Final

from tarotnotation.i18n import Msg, nmsg, render
from tarotnotation.inputs import size_of

from .terminal import safe

#: Seconds of work before a bar is drawn (``TAROT_PROGRESS_DELAY`` changes it, for tests).
DELAY: Final = 1.0


def wanted() -> bool:
    """True when a progress bar may be drawn: stderr is a terminal and not in CI."""
    if os.environ.get("CI") or os.environ.get("TAROT_NO_PROGRESS"):
        return False
    return sys.stderr.isatty()


class FileProgress:
    """Progress through a list of files, measured in bytes read (the files done, and the
    offset reached in the current one), with the count of deals."""

    def __init__(self, files: list[str], *, enabled: bool | None = None) -> None:
        self.enabled = wanted() if enabled is None else enabled
        self.sizes: dict[str, int] = {}
        if self.enabled:
            for f in files:
                try:
                    self.sizes[f] = size_of(f)  # (a URL's too)
                except OSError:
                    self.sizes[f] = 0
        self.total = sum(self.sizes.values())
        self.done = 0
        self.deals = 0
        self.current: str | None = None
        self.start = time.monotonic()
        self.delay = float(os.environ.get("TAROT_PROGRESS_DELAY", DELAY))
        self.bar: object | None = None
        self.task: object | None = None

    def __enter__(self) -> FileProgress:
        return self

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.bar is not None:
            self.bar.stop()  # type: ignore[attr-defined]

    def reached(self, file: str, offset: int | None = None, deals: int = 1) -> None:
        """One more deal (or a note on a file), or ``deals`` more, of ``file``, the last
        starting ``offset`` bytes in (the files before it are done): the bar counts bytes
        read, so that a single big file shows its progress and the time left."""
        if not self.enabled:
            return
        before = self.deals
        self.deals += deals
        if file != self.current:
            if self.current is not None:
                self.done += self.sizes.get(self.current, 0)
            self.current = file
        elif self.deals >> 8 == before >> 8:  # (drawn every 256 deals)
            return
        if self.bar is None and time.monotonic() - self.start >= self.delay and self.total:
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

            bar = Progress(TextColumn(render(Msg("validating")), markup=False), BarColumn(),
                           TimeRemainingColumn(),
                           TextColumn("{task.description}", markup=False),
                           console=Console(stderr=True), transient=True)
            self.task = bar.add_task("", total=self.total)
            bar.start()
            self.bar = bar
        if self.bar is not None:
            within = min(offset or 0, self.sizes.get(file, 0))
            self.bar.update(self.task, completed=self.done + within,  # type: ignore[attr-defined]
                            description=safe(render(nmsg(
                                "{n} deal · {file}", "{n} deals · {file}", self.deals,
                                n=f"{self.deals:,}", file=Path(file).name))))
