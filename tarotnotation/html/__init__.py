"""Deal pages: records shown in the browser, card by card (``tarot html``).

- :mod:`.data` works out everything a page shows (the rules are applied there, by the
  replay and :mod:`tarotnotation.narrator`), as a plain dict embedded in the page;
- :mod:`.page` lays out the pages around that data, with their Content Security Policy;
- :mod:`.escape` makes every user string safe for its place in a page;
- :mod:`.site` reads deals and writes one page, a site (a folder) or one file;
- ``tarot.js`` and ``tarot.css`` (package data) are the pages' script and stylesheet: the
  script steps through the data and holds no rule of the game.

:func:`page` is the one call that draws a record (``tarotnotation.html.page(record)``, a
``str``). To write pages of files:

>>> import io
>>> from tarotnotation.html import read_sources, write_page
>>> src = next(read_sources(["examples/prise.tarot"]))
>>> out = io.BytesIO()
>>> write_page(src, out)
>>> out.getvalue().startswith(b"<!doctype html>")
True
"""

from .data import DealSource, deal_data, index_row, published_name
from .deal import page
from .layout import deal_page, index_page
from .site import (
    NoDealError,
    Tally,
    build_site,
    page_problem,
    read_sources,
    site_problem,
    write_book,
    write_page,
    write_site,
)

__all__ = [
    "DealSource",
    "NoDealError",
    "Tally",
    "build_site",
    "deal_data",
    "deal_page",
    "index_page",
    "index_row",
    "page",
    "page_problem",
    "published_name",
    "read_sources",
    "site_problem",
    "write_book",
    "write_page",
    "write_site",
]
