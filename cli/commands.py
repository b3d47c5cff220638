"""The table of ``tarot``'s commands: each command's name, the module of ``cli/`` that holds
it, its function, and its summary for ``tarot --help``; the aliases, and the commands the
front door runs without typer.

The table sits below the app (:mod:`tarotnotation.cli.app`, which registers each command
from it) and the front door (:mod:`tarotnotation.cli.front`, which reads the same table),
so neither imports the other to read it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, NamedTuple

__all__ = ["ALIASES", "COMMANDS", "FRONT_DOOR", "Entry"]


class Entry(NamedTuple):
    """A command of the table: its name, the module of ``cli/`` that holds it, the
    function's name there, whether it needs an argument, and its summary for
    ``tarot --help``."""

    name: str
    module: str
    function: str
    needs_args: bool
    summary: str

    def load(self) -> tuple[Any, Callable[..., None]]:
        """The command's module (imported now) and its function."""
        module = importlib.import_module(f"{__package__}.{self.module}")
        return module, getattr(module, self.function)


#: Every command: (name, module, function, needs an argument, summary). Each module holds
#: one command and its EPILOG; tests walk this table (and the app) so that every command,
#: new ones included, keeps the exit-code table and the refusal to write over an input.
COMMANDS = (
    Entry("validate", "validate", "validate", True,
          "Validate every deal: cards, bids, écart, poignées, play, scores."),
    Entry("replay", "replay", "replay_cmd", True,
          "Replay deals as a person follows them, trick by trick, then the score."),
    Entry("score", "score", "score", True,
          "Score each deal; each file's running score sheet, checked zero-sum."),
    Entry("convert", "convert", "convert", True,
          "Convert records between the text notation, JSON, JSON Lines, TarotClub\n"
          "and CSV score sheets (and read Excel sheets, ScoreIt and Matocolotoe)."),
    Entry("annotate", "annotate", "annotate_cmd", True,
          "Write records back with computed comments (the notation by default)."),
    Entry("analyze", "analyze", "analyze", True,
          "Analyse the card play of every deal: each card's double-dummy cost."),
    Entry("solve", "solve", "solve", True,
          "The value of a position with every hand open, and each legal card's value."),
    Entry("fmt", "fmt", "fmt", True,
          "Rewrite records in the canonical form of the text notation."),
    Entry("html", "html", "html_cmd", True,
          "Write deals as pages for the browser: a page, a site or one file."),
    Entry("schema", "schema", "schema", False,
          "Print the JSON Schema of the JSON format (one record; docs/json-format.md)."),
    Entry("new", "new", "new", False,
          "Random complete legal deals: hands, auction, écart, play, score."),
    Entry("legal", "legal", "legal", True,
          "The legal cards at a point of a recorded deal, and why the others are not."),
    Entry("rules", "rules", "rules", False,
          "The rulesets and switches a record may name (and --rules/--set may set)."),
    Entry("codes", "codes", "codes", False,
          "Every diagnostic code, its severity and what it means."),
    Entry("card", "card", "card", True, "Name a card from its code."),
    Entry("query", "query", "query", True,
          "The deals that match an expression, streamed, in any format."),
    Entry("stats", "stats", "stats", True,
          "Statistics per player, seat or contract, and of the archive as a whole."),
    Entry("standings", "standings", "standings", True,
          "The league table across files; duplicate deals compared table by table."),
    Entry("dedupe", "dedupe", "dedupe", True,
          "Find the deals recorded twice, across files and formats; write each once."),
    Entry("split", "split", "split", True,
          "Split archives into one file per deal or per tag value."),
    Entry("sort", "sort", "sort", True, "Sort the deals of archives by their tags."),
    Entry("match", "match", "match", True,
          "A duplicate match between two bots: each deal played at 2×N tables."),
    Entry("play", "play", "play", False,
          "Play Tarot in the browser against bots: bids, écart, cards, the score."),
    Entry("serve", "serve", "serve", False,
          "The daily game online: names and tokens, one deal a day, leaderboards."),
)
#: Hidden commands: another name of a command (``check`` is ``validate``).
ALIASES = {"check": "validate"}
#: The commands whose common invocations run without typer (cli/front.py): those whose
#: module imports without it.
FRONT_DOOR = ("validate", "score", "replay", "rules", "codes", "convert", "query", "stats",
              "annotate", "dedupe", "standings", "split", "sort", "schema",
              "fmt", "html", "new", "card", "legal")
