"""``tarot rules``: the rulesets and switches a record may name."""

from __future__ import annotations

from tarotnotation.i18n import Msg, render
from tarotnotation.rules import Ruleset

from .common import echo

EPILOG = "Example:\n\n  tarot rules\n"


def rules() -> None:
    """The rulesets and switches a record may name (and --rules/--set may set)."""
    echo(render(Msg("Presets: {fft} (default), {pagat}", fft="fft", pagat="pagat")))
    fft, pagat = Ruleset.fft(), Ruleset.pagat()
    for name in Ruleset.switch_names():  # (the switches and values are the notation's words)
        echo(render(Msg("  {name} fft={fft} pagat={pagat} values: {values}",
                        name=f"{name:<24}", fft=f"{fft.switch(name):<22}",
                        pagat=f"{pagat.switch(name):<22}",
                        values=", ".join(Ruleset.switch_values(name)))))
