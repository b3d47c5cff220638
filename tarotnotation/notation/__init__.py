"""The Tarot text notation: the reader (Lark grammar -> records) and the canonical writer.

``docs/notation.md`` specifies the notation; ``grammar/tarot.lark`` is its grammar.

>>> from tarotnotation.notation import loads, dumps
>>> text = '''[Event "Club de Lyon"] [Players "4"] [Dealer "W"] [Ruleset "fft"]
... auction: pass garde! pass pass
... result: garde taker E points 48 bouts 2 scores S-64 E+192 N-64 W-64
... '''
>>> dumps(loads(text)) == text
True
"""

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
from .writer import WIDTH, dump, dumps, write_record

__all__ = [
    "FIELD_TAGS",
    "WIDTH",
    "SkimmedDeal",
    "code_table",
    "dump",
    "dumps",
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
