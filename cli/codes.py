"""``tarot codes``: every diagnostic code, its severity and meaning."""

from __future__ import annotations

from tarotnotation.diagnostics import Code
from tarotnotation.i18n import Msg, gettext_, render

from .common import echo

EPILOG = "Example:\n\n  tarot codes | grep P1\n"


def codes() -> None:
    """Every diagnostic code, its severity and what it means."""
    words = {s: render(w) for s, w in _SEVERITY_WORDS.items()}
    width = max(map(len, words.values()))
    for c in Code:
        severity = words[c.default_severity.value]
        echo(f"{c.value}  {severity:<{width}}  {c.slug:<26} {gettext_(c.summary)}")


_SEVERITY_WORDS = {"error": Msg("error"), "warning": Msg("warning")}
