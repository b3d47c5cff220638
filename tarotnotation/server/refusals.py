"""A refused request: the one shape of every refusal of ``tarot play`` and ``tarot serve``.

Every refusal (the guard's 401, 403, 409, 413, 429, the game's 400, 404, 409, 415) is
JSON ``{"refused": {"code": CODE, "message": WORDS, "expected": WORDS or null}}``: a
stable code, the words in the request's language (:func:`request_language`: the first
language of ours its ``Accept-Language`` asks for, else the server's), and what was
expected when the words alone do not say it. The game page shows ``message`` and
``expected`` for every one.

>>> request_language("de-DE, fr;q=0.8, en;q=0.5", "en")
'fr'
>>> request_language("en-GB;q=0.2, fr-CA", "en")
'fr'
>>> request_language(None, "fr")
'fr'
"""

from __future__ import annotations

from collections.abc import Mapping

import orjson
from starlette.responses import Response

from ..i18n import Msg, normalize, render

__all__ = ["refused", "request_language"]

#: How much of an Accept-Language header is read (a longer one is cut, never parsed whole).
_MAX_ACCEPT = 256


def request_language(accept: str | None, default: str) -> str:
    """The language of ours the ``Accept-Language`` header ``accept`` prefers (the highest
    ``q``, the first among equals), else ``default``."""
    best: tuple[float, int, str] | None = None
    for i, part in enumerate((accept or "")[:_MAX_ACCEPT].split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                q = float(params[2:])
            except ValueError:
                continue
        lang = normalize(tag.strip()) if tag.strip() != "*" else None
        if lang is not None and q > 0 and (best is None or (-q, i) < (-best[0], best[1])):
            best = (q, i, lang)
    return default if best is None else best[2]


def refused(status: int, code: str, message: Msg | str, lang: str, *,
            expected: Msg | str | None = None,
            headers: Mapping[str, str] | None = None) -> Response:
    """The refusal: ``status``, the stable ``code``, the words of ``message`` and of
    ``expected`` (what was expected, or None) in ``lang``, as JSON, with ``headers``."""
    body = {"refused": {"code": code, "message": render(message, lang),
                        "expected": None if expected is None else render(expected, lang)}}
    return Response(orjson.dumps(body), status_code=status, media_type="application/json",
                    headers=dict(headers or {}))
