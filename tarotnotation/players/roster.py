"""The bots by name (the roster): :func:`make` builds one, :data:`NAMES` lists them.

:data:`FACTORIES` maps each name to a factory that takes the seed and the bot's settings
(keywords) and returns a :class:`~.protocol.Player`; a new bot is one more entry.

>>> NAMES
('random', 'heuristic', 'pimc', 'oracle')
>>> make("heuristic", seed=3).name
'heuristic'
>>> make("alphago")
Traceback (most recent call last):
...
ValueError: no bot is called 'alphago': expected random, heuristic, pimc or oracle
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from ..diagnostics import quote
from ..i18n import Msg, or_list
from .heuristic import HeuristicPlayer
from .oracle import OraclePlayer
from .pimc import PimcPlayer
from .protocol import Player
from .random_bot import RandomPlayer

__all__ = ["FACTORIES", "NAMES", "OPPONENTS", "make", "name_at", "name_of"]

#: Each bot's factory: ``factory(seed=..., **settings) -> Player``.
FACTORIES: Final[dict[str, Callable[..., Player]]] = {
    "random": RandomPlayer,
    "heuristic": HeuristicPlayer,
    "pimc": PimcPlayer,
    "oracle": OraclePlayer,
}

#: The bots a person may play against (``tarot play``, ``tarot serve``): not the oracle,
#: which sees every hand.
OPPONENTS: Final = ("random", "heuristic", "pimc")

#: The names of the bots, in the order they are offered.
NAMES: Final = tuple(FACTORIES)


def make(name: str, *, seed: int = 0, **settings: Any) -> Player:
    """The bot called ``name``, with ``seed`` and its ``settings`` (which may also be
    written after the name: ``pimc:samples=10,nodes=20000``). ValueError for an unknown
    name or setting.

    >>> make("random", seed=2, colour="blue")
    Traceback (most recent call last):
    ...
    ValueError: the bot random has no setting colour
    """
    if ":" in name:
        name, _, written = name.partition(":")
        settings = {**_written_settings(name, written), **settings}
    factory = FACTORIES.get(name)
    if factory is None:
        raise ValueError(Msg("no bot is called {name}: expected {names}", name=quote(name),
                             names=or_list(list(FACTORIES))))
    known = _settings_of(factory)
    for key in settings:
        if known is not None and key not in known:
            raise ValueError(Msg("the bot {name} has no setting {setting}", name=name,
                                 setting=key))
    return factory(seed=seed, **settings)


def name_at(spec: str, players: int) -> str:
    """The name of the bot ``spec`` (as :func:`make` takes it) at ``players`` players:
    its settings written out, those whose default depends on the number of players
    (pimc's samples, its reading of the auction and of the play, and its bid shift) as
    they are there. Two specs of one name play alike; a benchmark's folder or cache is
    named so, that a changed default shows.

    >>> name_at("pimc", 3), name_at("pimc:samples=4,auction=0,habits=0", 4)
    ('pimc(samples=30,nodes=20000)', 'pimc(samples=4,nodes=20000,bid_shift=-3)')
    >>> name_at("pimc", 4)
    'pimc(samples=10,nodes=20000,auction=30,habits=40,bid_shift=-3)'
    >>> name_at("oracle:nodes=500", 4)
    'oracle(nodes=500)'
    """
    return name_of(make(spec), players)


def name_of(bot: Player, players: int) -> str:
    """The name of ``bot`` at ``players`` players (see :func:`name_at`).

    >>> name_of(make("pimc", samples=4), 5), name_of(make("heuristic"), 3)
    ('pimc(samples=4,nodes=20000)', 'heuristic')
    """
    return bot.name_at(players) if isinstance(bot, PimcPlayer) else bot.name


def _written_settings(name: str, written: str) -> dict[str, int]:
    """The settings written after a bot's name, ``key=value`` pairs joined by commas, each
    value a whole number (``pimc:samples=10,nodes=20000``).

    >>> make("pimc:samples=4,nodes=5000").name
    'pimc(samples=4,nodes=5000)'
    >>> make("pimc:samples=many")
    Traceback (most recent call last):
    ...
    ValueError: pimc:samples=many: a bot's setting is written key=value, the value a whole number
    """
    out: dict[str, int] = {}
    for pair in filter(None, written.split(",")):
        key, eq, value = pair.partition("=")
        if not eq or not key.strip() or not value.strip().lstrip("-").isdigit():
            raise ValueError(Msg("{spec}: a bot's setting is written key=value, the value a"
                                 " whole number", spec=f"{name}:{written}"))
        out[key.strip()] = int(value)
    return out


def _settings_of(factory: Callable[..., Player]) -> frozenset[str] | None:
    """The keywords a factory takes (a dataclass's fields but ``seed``, ``name`` and
    ``sees_all``), or None when it does not say."""
    fields = getattr(factory, "__dataclass_fields__", None)
    if fields is None:
        return None
    return frozenset(fields) - {"seed", "name", "sees_all"}
