"""The Tarot text notation: the reader (Lark grammar -> records) and the canonical writer.

``docs/notation.md`` specifies the notation; ``grammar/tarot.lark`` is its grammar.

>>> from tarotnotation.notation import loads, dumps
>>> text = '''[Event "Club de Lyon"] [Players "4"] [Dealer "W"] [Ruleset "fft"]
... auction: pass garde! pass pass
... result: garde taker E points 48 bouts 2 scores S-64 E+192 N-64 W-64
... '''
>>> dumps(loads(text)) == text
True

The names below are loaded when first used: checking a file of plain records
(:func:`read_at` with a judge) needs neither the grammar nor the writer, nor the
record model (issue 17: nothing a command does not use is imported).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

#: Each public name and the module of this package it lives in.
_EXPORTS = {
    "code_table": "cardcodes", "parse_card": "cardcodes",
    "FIELD_TAGS": "reader", "SkimmedDeal": "reader", "load": "reader", "loads": "reader",
    "parse_record": "reader", "parser": "reader", "read": "reader", "read_at": "reader",
    "read_file": "reader", "reads": "reader", "skim_tags": "reader",
    "WIDTH": "writer", "dump": "writer", "dumps": "writer",
    "dumps_bytes": "writer", "write_record": "writer",
}

__all__ = [
    "FIELD_TAGS",
    "WIDTH",
    "SkimmedDeal",
    "code_table",
    "dump",
    "dumps",
    "dumps_bytes",
    "load",
    "loads",
    "parse_card",
    "parse_record",
    "parser",
    "read",
    "read_at",
    "read_file",
    "reads",
    "skim_tags",
    "write_record",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'tarotnotation.notation' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})


if TYPE_CHECKING:
    from .cardcodes import code_table, parse_card
    from .reader import (
        FIELD_TAGS,
        SkimmedDeal,
        load,
        loads,
        parse_record,
        parser,
        read,
        read_at,
        read_file,
        reads,
        skim_tags,
    )
    from .writer import WIDTH, dump, dumps, dumps_bytes, write_record
