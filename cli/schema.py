"""``tarot schema``: the JSON Schema of the JSON format."""

from __future__ import annotations

import orjson

from tarotnotation.formats.json import json_schema

from .common import stdout_bytes

EPILOG = "Example:\n\n  tarot schema > tarot-record.schema.json\n"


def schema() -> None:
    """Print the JSON Schema of the JSON format (one record; docs/json-format.md)."""
    stdout_bytes(orjson.dumps(json_schema(), option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS)
                 + b"\n")
