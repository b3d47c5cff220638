"""The game's server (``tarot play``): a person plays deals against bots in the browser.

- :mod:`.session`: :class:`Session`, the referee (it deals, holds the hidden hands, asks
  the bots, judges the person's answers by the rules kernel); its state is its
  :class:`Start` and the answers given;
- :mod:`.api`: the pydantic models the page and the server exchange, the page's state
  built from the person's view only;
- :mod:`.app`: the ASGI application (Starlette), :func:`~.app.make_app`;
- ``tarot serve``'s online game (docs/serve.md): :mod:`.store` (the database),
  :mod:`.dailygame` (the day's secret deal, games kept answer by answer, expiry, the
  export), :mod:`.leaderboard`, :mod:`.tokens` (names and tokens), :mod:`.quotas` (limits)
  and :mod:`.online` (its web application).
"""

from __future__ import annotations

from .session import BOTS, Refusal, Session, Start, bot

__all__ = ["BOTS", "Refusal", "Session", "Start", "bot"]
