"""Virtual players: the seat's view, the protocol a player implements, the table that
asks and judges, and the bots.

- :mod:`.view`: :class:`SeatView`, what a seat may know (:func:`view_of`), and
  :func:`decision_rng`, a bot's seeded random source;
- :mod:`.protocol`: :class:`Player`, one method per question of the deal;
- :mod:`.table`: :class:`Table` (who is asked what, answers judged by the rules and
  logged) and :func:`play_deal`;
- :mod:`.sampling`: the hidden hands dealt consistently with a view; :mod:`.inference`:
  what the auction says of them;
- the bots: :class:`RandomPlayer` (``random``) and :class:`HeuristicPlayer`
  (``heuristic``, :mod:`.heuristic`), by name: :func:`make` and :data:`NAMES`
  (:mod:`.roster`); :class:`PimcPlayer` (``pimc``: sampled deals solved double-dummy)
  and :class:`OraclePlayer` (``oracle``: every hand open, the ceiling; never an opponent
  in a game).
"""

from __future__ import annotations

from .heuristic import HeuristicPlayer
from .oracle import OraclePlayer
from .pimc import PimcPlayer
from .protocol import Player
from .random_bot import RandomPlayer
from .roster import NAMES, OPPONENTS, make
from .table import Answer, Decision, Kind, Table, legal_calls, play_deal, poignee_sizes
from .view import SeatView, SeenTrick, decision_rng, view_of

__all__ = [
    "NAMES",
    "OPPONENTS",
    "Answer",
    "Decision",
    "HeuristicPlayer",
    "Kind",
    "OraclePlayer",
    "PimcPlayer",
    "Player",
    "RandomPlayer",
    "SeatView",
    "SeenTrick",
    "Table",
    "decision_rng",
    "legal_calls",
    "make",
    "play_deal",
    "poignee_sizes",
    "view_of",
]
