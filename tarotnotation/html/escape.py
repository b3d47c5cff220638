r"""Making user strings safe for where they go in a page.

Records come from strangers: every tag, name and comment is escaped for its context.
:func:`text` is for HTML text and double-quoted attribute values; :func:`json_script` is
for data embedded in a ``<script type="application/json">`` element, where ``<``, ``>``,
``&`` and the line separators U+2028 and U+2029 are written as ``\uXXXX`` escapes, so
that nothing in the data can close the element, open a comment or break a script that
reads it. The page's script puts these strings into the page with ``textContent`` only.

>>> text('</script><img src=x onerror="alert(1)">')
'&lt;/script&gt;&lt;img src=x onerror=&quot;alert(1)&quot;&gt;'
>>> json_script({"name": "</script><!-- & \u2028"})
'{"name":"\\u003c/script\\u003e\\u003c!-- \\u0026 \\u2028"}'
"""

from __future__ import annotations

import html
import re
from typing import Any, Final

import orjson

__all__ = ["clean", "json_bytes", "json_script", "text"]

#: Characters that may not appear raw in the content of a script element (``<``, ``>``,
#: ``&``) or that some JavaScript parsers take for line ends (U+2028, U+2029), and their
#: escapes (none of them is a part of another, so the order does not matter).
_ESCAPES: Final = {b"<": b"\\u003c", b">": b"\\u003e", b"&": b"\\u0026",
                   "\u2028".encode(): b"\\u2028", "\u2029".encode(): b"\\u2029"}
#: C0 and C1 control characters but tab, line feed and carriage return: they have no
#: business in a page (the parser turns NUL into U+FFFD anyway).
_CONTROLS: Final = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_SURROGATES: Final = re.compile("[\ud800-\udfff]")


def clean(value: str) -> str:
    r"""``value`` without control characters (but tab and line ends) and with any lone
    surrogate replaced, so that it can be encoded as UTF-8 and shown.

    >>> clean("a\x00b\x1b[31mc\ud800")
    'ab[31mc\ufffd'
    """
    if value.isprintable():  # no control character, no surrogate: the usual case
        return value
    if _CONTROLS.search(value):
        value = _CONTROLS.sub("", value)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        value = _SURROGATES.sub("\ufffd", value)
    return value


def text(value: str) -> str:
    """``value`` escaped for HTML text or a double-quoted attribute value."""
    return html.escape(clean(value), quote=True)


def json_bytes(data: Any) -> bytes:
    """``data`` as JSON (UTF-8) safe to embed in a ``<script type="application/json">``
    element: no ``<``, ``>`` or ``&``, no raw U+2028 or U+2029."""
    raw = orjson.dumps(data)
    for bad, escaped in _ESCAPES.items():  # bytes.replace scans at C speed
        if bad in raw:
            raw = raw.replace(bad, escaped)
    return raw


def json_script(data: Any) -> str:
    """:func:`json_bytes` as a string."""
    return json_bytes(data).decode("utf-8")
