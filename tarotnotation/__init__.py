"""tarotnotation: the reference toolkit for French Tarot game records.

Read a deal, replay it under the rules, name every fault, recompute the score:

>>> from tarotnotation import DealRecord, replay, Card, CardSet
>>> rec = DealRecord(players=4, auction=[{"contract": "pass"}, {"contract": "garde"},
...                  {"contract": "pass"}, {"contract": "pass"}],
...                  result={"taker_points": 48, "bouts": 2, "scores": {"S": -64,
...                          "E": 192, "N": -64, "W": -64}})
>>> r = replay(rec)
>>> r.status.value, r.taker, r.scores["E"], r.ok
('scored', 'E', 192, True)
"""

from .cards import Card, CardSet, Suit
from .diagnostics import Code, Diagnostic, Location, Severity, TarotError
from .legality import constraint, legal_cards, why_illegal, winning_index
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
from .replay import PlayedTrick, Position, Replay, Status, legal_moves, replay
from .rules import Camp, Contract, PoigneeSize, Ruleset, table
from .scoring import DealFacts, Score, score
from .source import ReadDeal, SourceMap

__version__ = "0.1.0"

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
    "Location",
    "Misere",
    "PlayedCard",
    "PlayedTrick",
    "Poignee",
    "PoigneeSize",
    "Points",
    "Position",
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
    "__version__",
    "constraint",
    "legal_cards",
    "legal_moves",
    "replay",
    "score",
    "table",
    "why_illegal",
    "winning_index",
]
