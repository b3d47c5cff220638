"""The old name of :mod:`tarotnotation.narrator`, the narrator of the replay and the pages
(issue 30: a room named for what it holds). Its names are the narrator's; importing this
module warns."""

from __future__ import annotations

import warnings

from .narrator import (
    PREFIX,
    annotate,
    is_computed,
    place_of,
    running_points,
    score_lines,
    scored_lines,
    speakers,
    strip,
    trick_note,
    unplayed_points,
)

__all__ = [
    "PREFIX",
    "annotate",
    "is_computed",
    "place_of",
    "running_points",
    "score_lines",
    "scored_lines",
    "speakers",
    "strip",
    "trick_note",
    "unplayed_points",
]

warnings.warn("tarotnotation.annotate is tarotnotation.narrator", DeprecationWarning,
              stacklevel=2)
