"""``tarot rules``: the rulesets and switches a record may name."""

from __future__ import annotations

from tarotnotation.rules import Ruleset

from .common import echo

EPILOG = "Example:\n\n  tarot rules\n"


def rules() -> None:
    """The rulesets and switches a record may name (and --rules/--set may set)."""
    echo("Presets: fft (default), pagat")
    fft, pagat = Ruleset.fft(), Ruleset.pagat()
    for name in Ruleset.switch_names():
        echo(f"  {name:<24} fft={fft.switch(name):<22} pagat={pagat.switch(name):<22}"
                   f" values: {', '.join(Ruleset.switch_values(name))}")
