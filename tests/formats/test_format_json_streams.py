"""JSON and JSON Lines as streams: the published schema, byte-identical round trips of the
examples, line-by-line reading of JSON Lines, and the format-version keys."""

from __future__ import annotations

import functools
import io
from pathlib import Path
from typing import Any

import orjson
import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

from tarotnotation import notation
from tarotnotation.diagnostics import Code
from tarotnotation.formats import json as tjson
from tarotnotation.records import DealRecord
from tarotnotation.replay import replay

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.tarot"))
FAULTY = sorted((ROOT / "examples" / "faulty").iterdir())


@functools.cache
def _validator() -> Draft202012Validator:
    """The schema's validator, made by the first test that needs it (not when the module
    is collected: each xdist worker collects every module, and the schema takes 0.4 s)."""
    return Draft202012Validator(tjson.json_schema())


def _records(path: Path) -> list[DealRecord]:
    return [item.record for item in notation.read(path) if item.record is not None]


def _errors(obj: Any) -> list[str]:
    """Each schema error as ``path: message``; an ``anyOf``/``oneOf`` failure gives the
    errors of each of its branches instead (where the fault really is)."""
    out: list[str] = []
    pending = list(_validator().iter_errors(obj))
    while pending:
        error = pending.pop()
        if error.context:
            pending.extend(error.context)
        else:
            out.append(f"{'/'.join(map(str, error.absolute_path))}: {error.message}")
    return out


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    Draft202012Validator.check_schema(tjson.json_schema())
    assert tjson.json_schema()["$schema"] == "https://json-schema.org/draft/2020-12/schema"


@pytest.mark.parametrize("path", EXAMPLES + FAULTY, ids=lambda p: p.name)
def test_every_example_record_validates_against_the_schema(path: Path) -> None:
    records = _records(path)
    if path.parent.name != "faulty":
        assert records, f"{path.name} holds no readable record"
    for rec in records:
        assert _errors(orjson.loads(tjson.dumps_bytes(rec))) == []


def test_the_faulty_examples_are_checked_too() -> None:
    # Each faulty example but one reads to records (their faults are the replay's);
    # syntax-error.tarot's first deal cannot be read, its second one can.
    counts = {p.name: len(_records(p)) for p in FAULTY}
    assert all(counts.values()), counts
    assert counts["syntax-error.tarot"] == 1


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"players": 6}, "players"),
        ({"chien": ["7H", "ZZ"]}, "chien/1"),
        ({"dealer": 3}, "dealer"),
        ({"tarotnotation": 2}, "tarotnotation"),
        ({"unknown_field": 1}, ""),
        ({"play": [{"cards": [{"card": "7H", "seat": "S", "extra": 1}]}]}, "play/0/cards/0"),
        ({"declarations": [{"seat": "E"}]}, "declarations/0"),
        ({"declarations": [{"kind": "poignee", "seat": "E"}]}, "declarations/0"),
        ({"declarations": [{"kind": "chelem", "seat": "E", "cards": []}]}, "declarations/0"),
    ],
)
def test_the_schema_refuses_what_the_reader_refuses(change: dict[str, Any],
                                                    where: str) -> None:
    obj = orjson.loads(tjson.dumps_bytes(_records(EXAMPLES[0])[0]))
    obj.update(change)
    errors = _errors(obj)
    assert errors
    assert any(e.startswith(f"{where}:") for e in errors), errors
    assert not all(item.ok for item in tjson.read(orjson.dumps(obj)))


@pytest.mark.parametrize(
    ("change", "where", "code"),
    [
        ({"taker_points": 40.25}, "result/taker_points", "R202"),
        ({"taker_points": 95}, "result/taker_points", "R201"),
        ({"bouts": 4}, "result/bouts", "R203"),
    ],
)
def test_the_schema_refuses_a_fact_no_deal_gives_which_the_validator_flags(
        change: dict[str, Any], where: str, code: str) -> None:
    # The schema says what a true result holds; the reader keeps such a fact so that the
    # replay can say why it cannot be, and check the rest of the record.
    obj = orjson.loads(tjson.dumps_bytes(_records(EXAMPLES[0])[0]))
    obj["result"] = {**obj.get("result", {}), **change}
    assert any(e.startswith(f"{where}:") for e in _errors(obj))
    [item] = tjson.read(orjson.dumps(obj))
    assert item.ok
    assert item.record is not None
    assert code in [d.code.value for d in replay(item.record).diagnostics]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_tarot_to_json_to_tarot_is_byte_identical(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    records = _records(path)
    back = [tjson.loads(tjson.dumps_bytes(rec)) for rec in records]
    assert back == records
    assert notation.dumps(back) == text
    pretty = [tjson.loads(tjson.dumps_bytes(rec, indent=True)) for rec in records]
    assert notation.dumps(pretty) == text


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_tarot_to_jsonl_to_tarot_is_byte_identical(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    records = _records(path)
    archive = io.BytesIO()
    assert tjson.write(records, archive) == len(records)
    assert archive.getvalue().count(b"\n") == len(records)
    items = list(tjson.read(archive.getvalue(), name="archive.jsonl"))
    assert [i.line for i in items] == list(range(1, len(records) + 1))
    assert notation.dumps([i.record for i in items if i.record is not None]) == text
    document = io.BytesIO()
    tjson.write(records, document, lines=False)
    items = list(tjson.read(document.getvalue()))
    assert notation.dumps([i.record for i in items if i.record is not None]) == text


class _LineOnly(io.BytesIO):
    """A stream that refuses to be read whole: JSON Lines must come a line at a time."""

    def read(self, size: int | None = -1) -> bytes:
        if size is None or size < 0:
            raise AssertionError("JSON Lines read whole instead of line by line")
        return super().read(size)


def test_json_lines_are_read_line_by_line_from_the_stream() -> None:
    records = [rec for p in EXAMPLES[:4] for rec in _records(p)]
    data = b"".join(tjson.dumps_bytes(r) + b"\n" for r in records)
    stream = _LineOnly(data)
    items = tjson.read(stream, name="big.jsonl")
    first = next(items)
    assert first.record == records[0]
    assert stream.tell() == len(tjson.dumps_bytes(records[0])) + 1  # no read-ahead past line 1
    rest = list(items)
    assert [i.record for i in rest] == records[1:]
    offsets = [i.offset for i in (first, *rest) if i.offset is not None]
    assert len(offsets) == len(records)
    assert [data[o:o + 17] for o in offsets] == [b'{"tarotnotation":'] * len(records)


def test_json_lines_with_bom_blank_lines_and_crlf() -> None:
    records = _records(EXAMPLES[0]) + _records(EXAMPLES[1])
    data = (b"\xef\xbb\xbf\r\n" + tjson.dumps_bytes(records[0]) + b"\r\n\r\n"
            + tjson.dumps_bytes(records[1]) + b"\r\n")
    items = list(tjson.read(data))
    assert [i.record for i in items] == records
    assert [i.line for i in items] == [2, 4]
    assert [i.index for i in items] == [1, 2]


def test_broken_line_is_located_and_the_next_one_read() -> None:
    rec = _records(EXAMPLES[0])[0]
    line = tjson.dumps_bytes(rec)
    data = line + b"\n" + b'{"players": 4,' + b"\n" + line + b"\n"
    items = list(tjson.read(data, name="a.jsonl"))
    assert [i.ok for i in items] == [True, False, True]
    [diag] = items[1].diagnostics
    assert (diag.code, diag.location.file, diag.location.line, diag.location.deal) == (
        Code.JSON_SYNTAX, "a.jsonl", 2, 2)


def test_one_line_archive_document_is_not_taken_for_json_lines() -> None:
    # The writer lays an archive out a record a line (read back a record at a time); an
    # archive written on one line by another program is no JSON Lines either.
    records = _records(ROOT / "examples" / "score-sheet.tarot")
    data = io.BytesIO()
    tjson.write(records, data, lines=False)
    assert data.getvalue().count(b"\n") == len(records) + 2
    assert [i.record for i in tjson.read(data.getvalue())] == records
    deals = b",".join(map(tjson.dumps_bytes, records))
    one_line = b'{"tarotnotation":1,"deals":[' + deals + b"]}\n"
    assert one_line.count(b"\n") == 1
    assert [i.record for i in tjson.read(one_line)] == records


def test_empty_input_holds_no_deal() -> None:
    assert list(tjson.read(b"")) == []
    assert list(tjson.read(b"\n  \n")) == []


def test_schema_key_is_accepted_and_ignored() -> None:
    rec = _records(EXAMPLES[0])[0]
    obj = {"$schema": "../docs/tarot-record.schema.json", **orjson.loads(tjson.dumps_bytes(rec))}
    assert tjson.from_dict(obj) == rec
    assert _errors(obj) == []


def test_unknown_format_version_is_refused_in_every_layout() -> None:
    rec = orjson.loads(tjson.dumps_bytes(_records(EXAMPLES[0])[0]))
    rec["tarotnotation"] = 2
    for data in (orjson.dumps(rec), orjson.dumps(rec) + b"\n" + orjson.dumps(rec) + b"\n",
                 orjson.dumps({"tarotnotation": 2, "deals": []})):
        items = list(tjson.read(data))
        assert items
        assert all(i.diagnostics[0].code is Code.JSON_VERSION for i in items)
