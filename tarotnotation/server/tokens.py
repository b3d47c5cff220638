"""Players' names and tokens: no registration, a name and a secret.

A player picks a name (:func:`valid_name`: 1 to 24 letters, digits, spaces, ``-`` or
``_``, NFC, unique without regard to case in the store) and gets a random token, given
once (:func:`new_token`); the store keeps only its hash (:func:`token_hash`). The client
sends it back in the ``Authorization: Bearer`` header (:func:`bearer`): never in an
address, a cookie or a log. The addresses the server counts attempts by are kept as keyed
hashes (:func:`address_key`), not as addresses.

>>> valid_name("  Zoé_2 ")
'Zoé_2'
>>> valid_name("x" * 25)
Traceback (most recent call last):
...
tarotnotation.server.tokens.BadNameError: a name has 1 to 24 characters, not 25
>>> t = new_token()
>>> len(t), bearer(f"Bearer {t}") == t, bearer("Basic abc"), bearer(None)
(43, True, None, None)
>>> len(token_hash(t)), token_hash(t) == token_hash(t)
(64, True)
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import unicodedata
from typing import Final

from ..i18n import Msg, Quoted
from .store import PlayerRow, Store

__all__ = ["MAX_NAME", "BadNameError", "address_key", "authenticate", "bearer", "new_token",
           "register", "token_hash", "valid_name"]

#: The longest name, in characters (after NFC).
MAX_NAME: Final = 24
#: A token: 32 random bytes in URL-safe base64 without padding.
_TOKEN: Final = re.compile(r"[A-Za-z0-9_-]{43}")
_OTHER_CHARACTERS: Final = frozenset(" -_")


class BadNameError(ValueError):
    """A name that is not 1 to 24 letters, digits, spaces, ``-`` or ``_``."""


def valid_name(text: str) -> str:
    """The name as kept: NFC, the spaces around it dropped; BadNameError says what is
    wrong (its length, a character that is not allowed, inner spaces doubled)."""
    name = unicodedata.normalize("NFC", text).strip(" ")
    if not 1 <= len(name) <= MAX_NAME:
        raise BadNameError(Msg("a name has 1 to {most} characters, not {n}", most=MAX_NAME,
                             n=len(name)))
    for ch in name:
        category = unicodedata.category(ch)
        if not (category.startswith("L") or category == "Nd" or ch in _OTHER_CHARACTERS):
            raise BadNameError(Msg("a name holds letters, digits, spaces, - and _ only, not"
                                 " {character}", character=Quoted(ch)))
    if "  " in name:
        raise BadNameError(Msg("a name has no two spaces in a row"))
    return name


def new_token() -> str:
    """A new secret token: 32 random bytes, URL-safe base64 (43 characters)."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What the store keeps of a token: its SHA-256, in hex (a token is 256 random bits:
    no slow hash is needed)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def bearer(header: str | None) -> str | None:
    """The token of an ``Authorization`` header (``Bearer TOKEN``), or None when there is
    none or it is not of a token's form."""
    if header is None or len(header) > 200:
        return None
    scheme, _, value = header.strip().partition(" ")
    value = value.strip()
    if scheme.lower() != "bearer" or not _TOKEN.fullmatch(value):
        return None
    return value


def address_key(address: str, secret: str) -> str:
    """An address as the store keeps it: an HMAC under the server's secret (one attempt
    a day per address is counted without keeping the address)."""
    return hmac.new(secret.encode("utf-8"), address.encode("utf-8"), hashlib.sha256).hexdigest()


def register(store: Store, name: str, *, now: int) -> tuple[PlayerRow, str]:
    """A new player called ``name`` (BadNameError, NameTakenError) and their token, given
    here once: the store keeps only its hash."""
    token = new_token()
    return store.add_player(valid_name(name), token_hash(token), now=now), token


def authenticate(store: Store, header: str | None) -> PlayerRow | None:
    """The player whose token the ``Authorization`` header carries; None for no token,
    a malformed one, or one the store does not know (forged, or never given)."""
    token = bearer(header)
    return None if token is None else store.player_by_token_hash(token_hash(token))
