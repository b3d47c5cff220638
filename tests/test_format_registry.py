"""The format registry (``formats/registry.py``): every format declared once, and looked up
there by everything that deals with more than one format.

A format added to the registry is held to the same tests as the others (detection of its
own output, reading from a stream read once, writing and reading back, what it cannot
hold), since they walk :data:`registry.FORMATS`.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from tarotnotation import archive, notation
from tarotnotation.cli.output import WRITE_FORMATS
from tarotnotation.formats import detect, registry
from tarotnotation.formats.base import Head

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
RECORD = notation.load(EXAMPLES / "prise.tarot")
SHEET = [d.record for d in notation.read(EXAMPLES / "score-sheet.tarot")
         if d.record is not None]


def test_every_format_declares_what_it_is() -> None:
    names = [f.name for f in registry.FORMATS]
    assert len(names) == len(set(names))
    for fmt in registry.FORMATS:
        assert re.fullmatch(r"[a-z][a-z0-9-]*", fmt.name), fmt.name
        assert fmt.title
        assert all(s.startswith(".") and s == s.lower() for s in fmt.suffixes)
        assert callable(fmt.sniff)
        assert callable(fmt.read)
        assert registry.get(fmt.name.upper()) is fmt
    assert registry.DEFAULT in registry.FORMATS
    assert set(WRITE_FORMATS) == set(registry.names(writable=True))


@pytest.mark.parametrize("fmt", [f for f in registry.FORMATS if f.write is not None],
                         ids=lambda f: f.name)
def test_each_written_format_is_detected_and_read_back_from_a_stream(
        fmt: registry.Format) -> None:
    records = [RECORD] if fmt.one_deal else SHEET
    out = io.BytesIO()
    assert fmt.write(records, out) == len(records)  # type: ignore[misc]
    data = out.getvalue()
    found, stream = detect.detected(io.BufferedReader(io.BytesIO(data)))
    assert found is fmt
    back = [d for d in found.read(stream, "x") if d.record is not None]
    lost = fmt.cannot_hold(records[0]) if fmt.cannot_hold is not None else []
    assert len(back) == len(records)
    if not lost:
        assert [d.record for d in back] == records
    if fmt.one_deal:
        with pytest.raises(ValueError, match="one deal"):
            fmt.write([RECORD, RECORD], io.BytesIO())  # type: ignore[misc]


def test_what_a_format_cannot_hold_is_declared_with_it() -> None:
    club = registry.get("tarotclub")
    assert club.cannot_hold is not None
    assert any(phrase.startswith("tags (Event") for phrase in club.cannot_hold(RECORD))
    for name in ("tarot", "json", "jsonl"):
        assert registry.get(name).cannot_hold is None  # they hold everything


def test_detection_asks_the_formats_in_order_and_falls_back_on_the_name() -> None:
    assert detect.sniff_head(Head.of(b"")) is registry.DEFAULT
    assert detect.sniff_head(Head.of(b"\x00\x01", suffix=".jsonl")).name == "jsonl"
    assert detect.sniff_head(Head.of(b"\x00\x01", suffix=".txt")) is registry.DEFAULT
    seen = []
    for fmt in registry.FORMATS:  # each format's own content is its own, and no earlier
        out = io.BytesIO()        # format takes it
        if fmt.write is None:
            continue
        fmt.write([RECORD, RECORD][: 1 if fmt.one_deal else 2], out)
        head = Head.of(out.getvalue(), complete=True)
        takers = [f.name for f in registry.FORMATS if f.sniff(head)]
        assert takers[0] == fmt.name, (fmt.name, takers)
        seen.append(fmt.name)
    assert seen == [f.name for f in registry.FORMATS if f.write is not None]


def test_detection_reads_a_bounded_head() -> None:
    endless = io.BytesIO(b"{" + b"x" * (8 << 20))
    head, complete = detect.read_head(endless)
    assert not complete
    assert len(head) <= (1 << 20) + 1 + (1 << 10)


def test_folders_are_searched_for_every_suffix_of_the_registry(tmp_path: Path) -> None:
    for suffix in registry.SUFFIXES:
        (tmp_path / f"deal{suffix}").write_bytes(b"")
    (tmp_path / "notes.txt").write_bytes(b"")
    found = sorted(p.suffix for p in archive.expand_paths([tmp_path]))
    assert found == sorted(registry.SUFFIXES)


def test_no_other_module_holds_a_table_of_formats() -> None:
    # one source of truth: the record formats' suffixes and names are in formats/ only
    pattern = re.compile(r"""["'](\.tarot|\.jsonl|\.ndjson|\.csv|\.tsv|\.xlsx|\.xlsm)["']"""
                         r"""|["'](tarotclub-deal|matocolotoe|scoreit|xlsx)["']""")
    offenders = []
    for folder in (ROOT / "tarotnotation", ROOT / "cli"):
        for path in folder.rglob("*.py"):
            if path.parent.name == "formats":
                continue
            for line in path.read_text(encoding="utf-8").splitlines():
                if pattern.search(line) and ">>>" not in line and "..." not in line[:8]:
                    offenders.append(f"{path.relative_to(ROOT)}: {line.strip()}")
    assert offenders == [
        'cli/validate.py: _REPORT_BY_SUFFIX = {".json": OutputFormat.JSON, ".jsonl":'
        ' OutputFormat.JSONL,',
        'cli/validate.py: ".ndjson": OutputFormat.JSONL, ".xml": OutputFormat.JUNIT}',
    ]  # (reports, not records)
