"""The server's limits: request sizes, rates per token and per address (token buckets),
new tokens per address, games in progress, and which address a request comes from.

Every limit is a field of :class:`Limits` (``tarot serve`` sets them; docs/serve.md lists
the defaults). A :class:`Buckets` holds a token bucket per key (a token's hash, an
address) in bounded memory: past ``max_keys`` keys the one used longest ago is forgotten.
:func:`client_address` trusts ``X-Forwarded-For`` only from the proxies named by
``--trusted-proxy``.

>>> b = Buckets(rate=1.0, burst=2)
>>> [b.take("a", now=0.0) for _ in range(3)], b.take("b", now=0.0), b.take("a", now=1.0)
([True, True, False], True, True)
>>> proxies = trusted_proxies(["10.0.0.0/8"])
>>> client_address("10.1.2.3", "203.0.113.9, 10.9.9.9", proxies)
'203.0.113.9'
>>> client_address("198.51.100.7", "203.0.113.9", proxies)   # not from a trusted proxy
'198.51.100.7'
"""

from __future__ import annotations

import ipaddress
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from ..i18n import Msg, Quoted

__all__ = ["DEFAULT_LIMITS", "Buckets", "Limits", "client_address", "trusted_proxies"]

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True, slots=True)
class Limits:
    """What the server allows (each configurable; the defaults in docs/serve.md)."""

    max_body: int = 16 * 1024
    """The largest request body, in bytes (an action is a few hundred)."""
    token_rate: float = 5.0
    """Requests a second per token, on average..."""
    token_burst: int = 30
    """...and at once."""
    address_rate: float = 20.0
    """Requests a second per address, on average..."""
    address_burst: int = 100
    """...and at once."""
    new_tokens_per_hour: float = 5.0
    """New names (tokens) an address may take an hour, on average..."""
    new_tokens_burst: int = 5
    """...and at once."""
    max_games: int = 1000
    """Games in progress at once (a new one is refused past it)."""
    expire_after: int = 30 * 60
    """Seconds after a game's last answer when it expires (docs/serve.md)."""
    max_keys: int = 100_000
    """Tokens and addresses whose buckets are kept (the oldest forgotten past it)."""

    def __post_init__(self) -> None:
        for name in ("max_body", "token_burst", "address_burst", "new_tokens_burst",
                     "max_games", "expire_after", "max_keys"):
            if getattr(self, name) < 1:
                raise ValueError(Msg("the limit {name} must be at least 1", name=name))
        for name in ("token_rate", "address_rate", "new_tokens_per_hour"):
            if not getattr(self, name) > 0:
                raise ValueError(Msg("the limit {name} must be more than 0", name=name))


DEFAULT_LIMITS: Final = Limits()


class Buckets:
    """A token bucket per key: ``burst`` at once, refilled at ``rate`` a second. Safe to
    use from several threads."""

    def __init__(self, rate: float, burst: int, max_keys: int = 100_000) -> None:
        self.rate = rate
        self.burst = burst
        self.max_keys = max_keys
        self._levels: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, key: str, now: float) -> bool:
        """Take one token from ``key``'s bucket at time ``now`` (seconds); False when it
        is empty (the request is refused and takes nothing)."""
        with self._lock:
            level, then = self._levels.pop(key, (float(self.burst), now))
            level = min(float(self.burst), level + max(0.0, now - then) * self.rate)
            allowed = level >= 1.0
            if allowed:
                level -= 1.0
            self._levels[key] = (level, now)
            while len(self._levels) > self.max_keys:
                self._levels.popitem(last=False)
            return allowed

    def retry_after(self, key: str, now: float) -> float:
        """Seconds until ``key``'s bucket holds a token again."""
        with self._lock:
            level, then = self._levels.get(key, (float(self.burst), now))
        level = min(float(self.burst), level + max(0.0, now - then) * self.rate)
        return 0.0 if level >= 1.0 else (1.0 - level) / self.rate

    def __len__(self) -> int:
        return len(self._levels)


def trusted_proxies(texts: Iterable[str]) -> tuple[Network, ...]:
    """The networks of ``--trusted-proxy`` (an address or a network, ``10.0.0.0/8``);
    ValueError names the one that is neither."""
    out = []
    for text in texts:
        try:
            out.append(ipaddress.ip_network(text.strip(), strict=False))
        except ValueError:
            raise ValueError(Msg("{text} is not an address or a network: expected for example"
                                 " 10.0.0.1 or 10.0.0.0/8", text=Quoted(text))) from None
    return tuple(out)


def _trusted(address: str, proxies: Sequence[Network]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in proxies)


def client_address(peer: str | None, forwarded_for: str | None,
                   proxies: Sequence[Network]) -> str:
    """The address a request comes from: the peer's, unless the peer is a trusted proxy;
    then the last address of ``X-Forwarded-For`` that is not a trusted proxy's (the
    addresses a client wrote itself, to the left, are never believed)."""
    address = peer or "unknown"
    if forwarded_for is None or not _trusted(address, proxies):
        return address
    hops = [h.strip() for h in forwarded_for[:4096].split(",")]
    for hop in reversed(hops):
        try:
            ipaddress.ip_address(hop)
        except ValueError:
            return address  # a proxy wrote something that is not an address
        if not _trusted(hop, proxies):
            return hop
        address = hop
    return address
