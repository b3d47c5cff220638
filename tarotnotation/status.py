"""How far a replay got: the status a check reports of each deal.

Its own module so that the quick check of a clean deal (:mod:`tarotnotation.quick`) and
the archive's reports name it without importing the replay; :mod:`tarotnotation.replay`
exports it too.

>>> Status("scored") is Status.SCORED
True
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Status"]


class Status(StrEnum):
    """How far a replay got."""

    SCORED = "scored"
    """A score was computed (from the play, or from the recorded facts)."""
    ANNULLED = "annulled"
    """The deal is annulled (all passed, or the Petit in the chien under ``annuls``)."""
    INCOMPLETE = "incomplete"
    """The play stops before the end and the record gives no facts to score from."""
    UNSCORED = "unscored"
    """The record holds too little to compute a score (no contract, no taker…)."""
