"""A JSON archive document is read a record at a time (``formats/jsondoc.py``), in bounded
memory: the pieces it is cut into are exactly the records a whole parse gives, whatever the
layout (compact, a record a line, pretty-printed, escapes, brackets inside strings), the
size of the blocks read, the point where the input is cut short, and the records past the
limit (skipped, never held)."""

from __future__ import annotations

import io
import json
import random
from typing import Any

import orjson
import pytest
from budget import cases
from hypothesis import given, settings
from hypothesis import strategies as st

from tarotnotation.formats import json as tjson
from tarotnotation.formats import jsondoc
from tarotnotation.simulate import random_deal

_TEXT = st.text(alphabet=st.sampled_from('ab"\\[]{},: \n\té€'), max_size=12)
_LEAF = st.one_of(st.integers(-5, 10**6), st.booleans(), st.none(), _TEXT)
_VALUE = st.recursive(_LEAF, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(_TEXT, inner, max_size=4)), max_leaves=20)
_RECORD = st.dictionaries(_TEXT, _VALUE, max_size=5)


def _layout(records: list[Any], how: str, archive: bool) -> bytes:
    if how == "lines":
        body = b"[\n" + b",\n".join(orjson.dumps(r) for r in records) + b"\n]"
    elif how == "pretty":
        body = orjson.dumps(records, option=orjson.OPT_INDENT_2)
    else:
        body = orjson.dumps(records)
    return b'{"tarotnotation": 1, "deals": ' + body + b"}\n" if archive else body


def _pieces(data: bytes, limit: int = 1 << 20) -> list[Any]:
    return list(jsondoc.split(io.BytesIO(data), limit=limit))


def _elements(pieces: list[Any]) -> list[Any]:
    return [orjson.loads(p.data) if p.parsed is None else p.parsed
            for p in pieces if isinstance(p, jsondoc.Element)]


@settings(max_examples=cases(50))
@given(records=st.lists(_RECORD, max_size=6), how=st.sampled_from(["compact", "lines",
                                                                      "pretty"]),
       archive=st.booleans(), block=st.integers(1, 64), window=st.sampled_from([8, 64, 4096]))
def test_the_pieces_are_the_records(records: list[Any], how: str, archive: bool, block: int,
                                    window: int) -> None:
    data = _layout(records, how, archive)
    old = jsondoc.BLOCK, jsondoc.WINDOW
    jsondoc.BLOCK, jsondoc.WINDOW = block, window
    try:
        pieces = _pieces(data)
    finally:
        jsondoc.BLOCK, jsondoc.WINDOW = old
    assert _elements(pieces) == records
    assert not any(isinstance(p, jsondoc.Fault) for p in pieces)
    lines = data.split(b"\n")
    for p in pieces:
        if isinstance(p, jsondoc.Element):  # where each record starts
            assert data[p.offset:p.offset + len(p.data)] == p.data
            assert lines[p.line - 1][p.col - 1:].startswith(p.data[:1])


@settings(max_examples=cases(40))
@given(records=st.lists(_RECORD, min_size=1, max_size=5), how=st.sampled_from(
    ["compact", "lines", "pretty"]), cut=st.integers(0, 10**6), block=st.integers(1, 64))
def test_a_document_cut_short_gives_the_records_before_and_one_fault(
        records: list[Any], how: str, cut: int, block: int) -> None:
    data = _layout(records, how, True)
    cut %= len(data.rstrip())
    old = jsondoc.BLOCK
    jsondoc.BLOCK = block
    try:
        pieces = _pieces(data[:cut])
    finally:
        jsondoc.BLOCK = old
    got = _elements(pieces)
    assert got == records[:len(got)]
    if not isinstance(pieces[-1], jsondoc.Whole):  # a cut before "deals": one document
        assert isinstance(pieces[-1], jsondoc.Fault), pieces[-1]
        assert sum(isinstance(p, jsondoc.Fault) for p in pieces) == 1


@settings(max_examples=cases(40))
@given(records=st.lists(_RECORD, min_size=1, max_size=6), how=st.sampled_from(
    ["compact", "lines", "pretty"]), limit=st.integers(2, 120), window=st.sampled_from(
    [8, 64, 4096]), block=st.integers(1, 64))
def test_records_past_the_limit_are_skipped_and_the_others_read(
        records: list[Any], how: str, limit: int, window: int, block: int) -> None:
    data = _layout(records, how, True)
    old = jsondoc.BLOCK, jsondoc.WINDOW
    jsondoc.BLOCK, jsondoc.WINDOW = block, window
    try:
        pieces = _pieces(data, limit)
    finally:
        jsondoc.BLOCK, jsondoc.WINDOW = old
    items = [p for p in pieces if not isinstance(p, jsondoc.Header)]
    assert len(items) == len(records)
    text = data.decode("utf-8")
    for piece, record in zip(items, records, strict=True):
        # the record's length as written, by the standard library's parser
        at = len(data[:piece.offset].decode("utf-8"))
        written = len(text[at:json.JSONDecoder().raw_decode(text, at)[1]].encode("utf-8"))
        if isinstance(piece, jsondoc.Fault):
            assert piece.limit
            assert written > limit
        else:
            assert orjson.loads(piece.data) == record
            assert len(piece.data) == written <= limit


def test_an_archive_of_real_deals_in_every_layout_reads_alike() -> None:
    rng = random.Random(5)
    records = [random_deal(rng, rng.choice((3, 4, 5))) for _ in range(30)]
    objs = [orjson.loads(tjson.dumps(r)) for r in records]
    written = io.BytesIO()
    tjson.write(records, written, lines=False)
    for data in (written.getvalue(), *(_layout(objs, how, True)
                                       for how in ("compact", "lines", "pretty"))):
        padded = data + b" " * (1 << 20)  # past MAX_JSON_RECORD_BYTES: streamed
        for source in (data, padded):
            assert [d.record for d in tjson.read(io.BytesIO(source))] == records


@pytest.mark.parametrize("data", [
    b'{"tarotnotation": 2, "deals": [{"players": 4}]}',
    b'{"deals": [{"players": 4}], "tarotnotation": 2}',
])
def test_an_unknown_version_is_refused_when_streamed(data: bytes) -> None:
    items = list(tjson.read(io.BytesIO(data.replace(b"[", b"[" + b" " * (1 << 20), 1))))
    assert items[-1].diagnostics[0].code.value == "J003"
