"""The format registry (``formats/registry.py``): every format declared once, and looked up
there by everything that deals with more than one format.

A format added to the registry is held to the same tests as the others (detection of its
own output, reading from a stream read once, writing and reading back, what it cannot
hold), since they walk :data:`registry.FORMATS`.
"""

from __future__ import annotations

import importlib
import io
import re
from pathlib import Path

import pytest

from tarotnotation import archive, notation
from tarotnotation.cli.output import WRITE_FORMATS
from tarotnotation.formats import detect, registry
from tarotnotation.formats.base import Head

ROOT = Path(__file__).resolve().parents[2]
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
        'cli/output.py: REPORT_SUFFIXES: Final = {".json": "json", ".jsonl": "jsonl",'
        ' ".ndjson": "jsonl",',
        'cli/output.py: ".csv": "csv", ".xml": "xml"}',
    ]  # (reports and tables, not records: validate's table, now every command's)


def test_each_line_of_the_registry_is_its_format_declaration() -> None:
    # The registry's lines carry what is needed before a format's module is imported
    # (its name, its suffixes, whether it is written): the same as the format declares.
    assert [e.name for e in registry.entries()] == [f.name for f in registry.FORMATS]
    for entry in registry.entries():
        fmt = entry.load()
        assert (fmt.name, fmt.suffixes, fmt.write is not None) == (
            entry.name, entry.suffixes, entry.writable), entry
        module = importlib.import_module(f"tarotnotation.formats.{entry.module}")
        assert getattr(module, entry.attr) is fmt
    assert registry.DEFAULT is registry.get("tarot")


def _heads() -> list[Head]:
    """Heads of every kind: each format's own content and the examples, whole and cut,
    with a byte-order mark and blanks before them, and junk."""
    from test_detect import SAMPLES

    contents = [content for _, content in SAMPLES.values()]
    contents += [p.read_bytes() for p in sorted(EXAMPLES.rglob("*")) if p.is_file()]
    contents += [b"", b" ", b"PK\x03\x04", b"PK\x03\x04word/", b"{", b"[", b"[]", b"{}",
                 b"[1, 2]", b'["a"]', b"{a comment}", b"[Event", b"\x00\x01junk",
                 b"Donne;Preneur\n1;A\n", b"null", b"12", b'"text"']
    heads = []
    for content in contents:
        for variant in (content, content[:40], content[:400], b"\xef\xbb\xbf \n" + content):
            heads += [Head.of(variant, complete=True), Head.of(variant)]
    return heads


def test_detection_asks_only_the_formats_whose_gate_the_head_passes() -> None:
    # The gate of each line is what its format's sniff needs: a format never says yes to
    # a head its gate turns away, so asking only those detects what asking all of them
    # in order detects (and imports nothing else).
    heads = _heads()
    assert len(heads) > 300
    gates = {e.name: e.gate for e in registry.entries()}
    said = set()
    for head in heads:
        for fmt in registry.FORMATS:
            if fmt.sniff(head):
                said.add(fmt.name)
                assert gates[fmt.name](head), (fmt.name, head.raw[:60])
        first = next((f for f in registry.FORMATS if f.sniff(head)), None)
        asked = next((f for f in registry.asked(head) if f.sniff(head)), None)
        assert asked is first, head.raw[:60]
    assert said == set(gates)  # every format met its own content
