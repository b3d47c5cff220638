"""tarotnotation: the reference toolkit for French Tarot game records.

Read a deal, replay it under the rules, name every fault, recompute the score:

>>> from tarotnotation import DealRecord, Card, CardSet
>>> from tarotnotation.replay import replay
>>> rec = DealRecord(players=4, auction=[{"contract": "pass"}, {"contract": "garde"},
...                  {"contract": "pass"}, {"contract": "pass"}],
...                  result={"taker_points": 48, "bouts": 2, "scores": {"S": -64,
...                          "E": 192, "N": -64, "W": -64}})
>>> r = replay(rec)
>>> r.status.value, r.taker, r.scores["E"], r.ok
('scored', 'E', 192, True)

The names below are loaded when first used (``import tarotnotation`` alone loads nothing
else), so a program pays only for what it uses. ``tarotnotation.replay`` is the replay
module; its function is ``tarotnotation.replay.replay`` (and ``ReadDeal.replay()`` on
what a reader yields).
"""

from __future__ import annotations

import importlib
import warnings
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: Each public name and the module it lives in.
_EXPORTS = {
    "Card": "cards", "CardSet": "cards", "Suit": "cards", "points_text": "cards",
    "Code": "diagnostics", "Diagnostic": "diagnostics", "Location": "diagnostics",
    "Severity": "diagnostics", "TarotError": "diagnostics",
    "constraint": "legality", "legal_cards": "legality", "why_illegal": "legality",
    "Bid": "records", "Call": "records", "ChelemAnnouncement": "records",
    "DealRecord": "records", "Ecart": "records", "Misere": "records",
    "PlayedCard": "records", "Poignee": "records", "Points": "records", "Result": "records",
    "Seat": "records", "Trick": "records",
    "PlayedTrick": "replay", "Replay": "replay", "Status": "replay",
    "TrickCount": "replay", "Turn": "replay", "legal_moves": "replay",
    "Camp": "rules", "Contract": "rules", "PoigneeSize": "rules", "Ruleset": "rules",
    "table": "rules",
    "Game": "game", "IllegalMoveError": "game", "Phase": "game",
    "DealFacts": "scoring", "Score": "scoring", "score": "scoring",
    "ReadDeal": "source", "SourceMap": "source",
    "PlayState": "kernel",
}

__all__ = [
    "Bid",
    "Call",
    "Camp",
    "Card",
    "CardSet",
    "ChelemAnnouncement",
    "Code",
    "Contract",
    "DealFacts",
    "DealRecord",
    "Diagnostic",
    "Ecart",
    "Game",
    "IllegalMoveError",
    "Location",
    "Misere",
    "Phase",
    "PlayState",
    "PlayedCard",
    "PlayedTrick",
    "Poignee",
    "PoigneeSize",
    "Points",
    "ReadDeal",
    "Replay",
    "Result",
    "Ruleset",
    "Score",
    "Seat",
    "Severity",
    "SourceMap",
    "Status",
    "Suit",
    "TarotError",
    "Trick",
    "TrickCount",
    "Turn",
    "__version__",
    "constraint",
    "legal_cards",
    "legal_moves",
    "points_text",
    "score",
    "table",
    "why_illegal",
]

#: Names that moved: the old name, where it now lives and under which name. They keep
#: working, with a DeprecationWarning.
_MOVED = {
    "winning_index": ("kernel", "winner_index"),
    "Position": ("replay", "Turn"),
}


def __getattr__(name: str) -> Any:
    if name in _MOVED:
        home, new = _MOVED[name]
        warnings.warn(f"tarotnotation.{name} is tarotnotation.{home}.{new}",
                      DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module(f".{home}", __name__), new)
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'tarotnotation' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})


if TYPE_CHECKING:
    from .cards import Card, CardSet, Suit, points_text
    from .diagnostics import Code, Diagnostic, Location, Severity, TarotError
    from .game import Game, IllegalMoveError, Phase
    from .kernel import PlayState
    from .legality import constraint, legal_cards, why_illegal
    from .records import (
        Bid,
        Call,
        ChelemAnnouncement,
        DealRecord,
        Ecart,
        Misere,
        PlayedCard,
        Poignee,
        Points,
        Result,
        Seat,
        Trick,
    )
    from .replay import PlayedTrick, Replay, Status, TrickCount, Turn, legal_moves
    from .rules import Camp, Contract, PoigneeSize, Ruleset, table
    from .scoring import DealFacts, Score, score
    from .source import ReadDeal, SourceMap
