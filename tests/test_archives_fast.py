"""The fast paths of the archive tools, held to the slow ones: a summary made straight
from JSON data equals the summary of the record read and replayed; a scan with the fast
paths gives what reading every deal gives."""

from __future__ import annotations

import random
from pathlib import Path

import orjson
from archive_builders import generated, write_jsonl

from tarotnotation.archives.stream import Options, scan
from tarotnotation.archives.summary import summarize_json, summarize_record
from tarotnotation.formats import json as tjson
from tarotnotation.quick import quick_check
from tarotnotation.records import DealRecord
from tarotnotation.simulate import random_deal


def _variants() -> list[DealRecord]:
    rng = random.Random(5)
    out = generated(60, seed=17) + generated(20, seed=18, players=3)
    for i in range(20):  # no seats written, no dealer, other rulesets, no tags
        record = random_deal(rng, 4)
        update: dict[str, object] = {"tags": ()}
        if i % 2:
            update["dealer"] = None
        if i % 3 == 0:
            update["ruleset"] = "pagat"
        out.append(record.model_copy(update=update))
    return out


def test_a_summary_from_json_data_is_the_summary_of_its_record() -> None:
    checked = 0
    for record in _variants():
        obj = orjson.loads(tjson.dumps(record))
        if quick_check(obj) is None:
            continue
        checked += 1
        assert summarize_json(obj, file="f", index=3, line=7) == summarize_record(
            record, file="f", index=3, line=7)
    assert checked >= 80


def test_a_scan_without_the_fast_path_gives_the_same(tmp_path: Path) -> None:
    records = _variants()
    path = write_jsonl(tmp_path / "a.jsonl", records)
    # A broken line and a faulty deal among them: read by the reader, reported the same.
    lines = path.read_bytes().splitlines(keepends=True)
    bad = orjson.loads(lines[5])
    bad["play"][0]["cards"][0], bad["play"][0]["cards"][1] = (
        bad["play"][0]["cards"][1], bad["play"][0]["cards"][0])
    lines[5] = orjson.dumps(bad) + b"\n"
    lines[9] = b'{"players": 4, "hands": \n'
    path.write_bytes(b"".join(lines))
    for replay in (False, True):
        fast = list(scan([path], options=Options(replay=replay)))
        slow = list(scan([path], options=Options(replay=replay, records=lambda s: False)))
        assert [(d.index, d.summary, d.diagnostics) for d in fast] == [
            (d.index, d.summary, d.diagnostics) for d in slow]
        assert fast[9].summary is None
        assert fast[5].summary is not None
    one = list(scan([path], options=Options(replay=False)))
    two = list(scan([path], jobs=2, options=Options(replay=False)))
    assert [(d.index, d.summary) for d in two] == [(d.index, d.summary) for d in one]
