"""Archive tools: query, statistics, standings, duplicates, split and sort, the daily deal.

Each tool reads archives as a stream of :class:`~tarotnotation.archives.stream.ArchiveDeal`
values (:func:`~tarotnotation.archives.stream.scan`): every deal summarized as a
:class:`~tarotnotation.archives.summary.DealSummary` (its tags, players, the facts the
rules make of it, its cards), or, when it cannot be read, the diagnostics that say why.

- :mod:`.query`: the query language of ``tarot query`` (its grammar is ``query.lark``);
- :mod:`.stats`: statistics by player, seat and contract (``tarot stats``);
- :mod:`.standings`: league tables and duplicate comparison (``tarot standings``);
- :mod:`.dedupe`: the same deal recorded twice (``tarot dedupe``);
- :mod:`.organize`: one file per deal or tag value, deals sorted by tags;
- :mod:`.daily`: the deal of the day (``tarot new --daily``).
"""

from .query import Query, QueryError, compile_query
from .stream import ArchiveDeal, Options, scan
from .summary import DealSummary, deal_fingerprint, play_fingerprint, summarize

__all__ = [
    "ArchiveDeal",
    "DealSummary",
    "Options",
    "Query",
    "QueryError",
    "compile_query",
    "deal_fingerprint",
    "play_fingerprint",
    "scan",
    "summarize",
]
