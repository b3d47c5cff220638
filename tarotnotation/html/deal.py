"""One call to draw a deal: :func:`page`, the self-contained page of a record.

>>> from tarotnotation import notation
>>> html = page(notation.load("examples/prise.tarot"))
>>> html.startswith("<!doctype html>"), "Content-Security-Policy" in html
(True, True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .data import DealSource, deal_data
from .layout import deal_page

if TYPE_CHECKING:
    from ..records import DealRecord

__all__ = ["page"]


def page(record: DealRecord) -> str:
    """The deal's page, as ``tarot html`` writes it for one deal: one self-contained HTML
    document (its script and style inline, under its Content Security Policy) to step
    through the deal card by card, with every fault the replay finds; the record's text
    is the canonical notation."""
    from ..causes import explain  # the replay and the causes are layers above the pages
    from ..replay import replay

    rep = explain(replay(record, deal=1), deal=1)
    source = DealSource(1, None, 1, record, rep, rep.diagnostics, str(record), "deal-1.tarot")
    return deal_page(deal_data(source))
