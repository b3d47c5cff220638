"""``tarot validate -j N`` shares one .tarot file among its workers (issue 17).

``archive.check_paths`` cuts a file of the text notation into parts of about
``cutting.CHUNK_BYTES`` at record starts (a line of tags after a blank line); each worker
reads its part with the notation's reader (``notation.read_at``) and the results come back
in order, renumbered. It must report exactly what reading the file whole reports: the same
deals, numbers, lines, diagnostics and scores, in the same order. Here on archives of
generated deals with faults of every kind mixed in (illegal cards, bad words, records of
tags only, comments never closed or cut by a line starting with ``[``, bytes that are not
UTF-8, a byte-order mark, CRLF line ends), cut at many sizes so that parts start and end
everywhere.
"""

from __future__ import annotations

import itertools
import random
import tempfile
from pathlib import Path
from typing import Any

import budget
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tarotnotation import archive, cutting, notation
from tarotnotation.archive import check_paths
from tarotnotation.rules import Contract, Ruleset
from tarotnotation.simulate import random_deal
from tarotnotation.source import ReadDeal

ROOT = Path(__file__).resolve().parents[2]
RULESETS = [Ruleset.fft(), Ruleset.pagat()]

#: Records that read differently from a clean deal, each ending with its blank line.
ODD = [
    '[Event "Tags only"]\n[Players "4"]\n',
    '[Event "Cut"]\n[Players "4"]\nauction: pass garde {this comment is never closed pass\n',
    '[Event "Runs on"]\n[Players "4"]\nauction: pass garde pass pass { a comment\n\n'
    '[that goes on } \n',
    '[Event "Bad word"]\n[Players "4"]\nauction: pass gardez pass pass\n',
    '[Event "Latin-1"]\n[Players "4"]\nauction: pass garde pass pass { \udce9t\udce9 }\n',
    'play: 1. 7H 8H\n',
    '[Event "A"]\n\n[Site "B"]\n[Players "4"]\nauction: pass garde pass pass\n',
    '[not a tag\nauction: pass\n',
]


def _archive(rng: random.Random, count: int, crlf: bool = False) -> bytes:
    records = []
    for i in range(count):
        rec = random_deal(rng, rng.choice([3, 4, 5]), ruleset=RULESETS[i % 2],
                          contract=rng.choice([None, *Contract]),
                          stop_after=rng.choice([None] * 8 + [rng.randrange(80)]))
        text = notation.dumps(rec)
        if rng.random() < 0.15:  # an illegal card, most likely: two cards swapped
            words = text.split(" ")
            i, j = sorted(rng.sample(range(len(words)), 2))
            words[i], words[j] = words[j], words[i]
            text = " ".join(words)
        records.append(text)
        if rng.random() < 0.2:
            records.append(rng.choice(ODD))
    data = "\n".join(records).encode("utf-8", "surrogateescape")
    data = data.replace("\ufeff".encode(), b"")
    if crlf:
        data = data.replace(b"\n", b"\r\n")
    return b"\xef\xbb\xbf" + data


def _run(path: Path, keep: bool = False, **kwargs: Any) -> list[tuple[Any, ...]]:
    return [(c.file, c.index, c.line, c.diagnostics, c.status,
             None if c.scores is None else dict(c.scores), c.taker_half, c.number)
            for c in check_paths([path, path], keep=keep, **kwargs)]


@pytest.mark.parametrize("seed", range(3))
def test_plain_clean_records_judged_from_the_scanner_report_what_the_replay_does(
        tmp_path: Path, seed: int) -> None:
    # keep=False: a plain clean record is judged by the quick check from the fast
    # scanner's data, no record built (notation.read_at's judge); keep=True replays all.
    path = tmp_path / "deals.tarot"
    path.write_bytes(_archive(random.Random(seed), 80))
    reference = _run(path, keep=True)
    assert _run(path) == reference
    judged = []
    with path.open("rb") as fh:
        for item in notation.read_at(fh, name=str(path), judge=lambda data: True):
            judged.append(not isinstance(item, ReadDeal))
    assert sum(judged) > len(judged) // 2


@pytest.mark.process
@pytest.mark.parametrize("seed", range(4))
def test_a_tarot_file_in_parts_reports_what_it_reports_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    rng = random.Random(seed)
    path = tmp_path / "deals.tarot"
    path.write_bytes(_archive(rng, 60, crlf=seed == 3))
    reference = _run(path)  # serial: the file read whole
    assert len(reference) > 120
    for size in rng.sample(range(150, 6000), 5):
        monkeypatch.setattr(cutting, "CHUNK_BYTES", size)
        parts = list(archive.tarot_parts(str(path)) or [])
        assert len(parts) > 2, size
        assert _run(path, jobs=2) == reference, size


def test_the_parts_start_at_records_and_count_the_lines(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "deals.tarot"
    data = _archive(random.Random(9), 40)
    path.write_bytes(data)
    monkeypatch.setattr(cutting, "CHUNK_BYTES", 700)
    parts = list(archive.tarot_parts(str(path)) or [])
    assert parts[0].start == 0
    assert parts[-1].end is None
    for before, after in itertools.pairwise(parts):
        assert before.end == after.start
        assert after.start - before.start >= 700
        assert data[after.start - 2:after.start + 1] == b"\n\n["
        assert after.line == data.count(b"\n", 0, after.start)


def _cuts_of_the_whole(data: bytes, apart: int) -> list[tuple[int, int | None, int]]:
    """The reference: the parts of ``data`` found by searching it whole, each cut at least
    ``apart`` bytes after the last, the lines counted from the start each time."""
    parts: list[tuple[int, int | None, int]] = []
    start = 0
    while (found := archive.TAROT_CUT.search(data, start + apart)) is not None:
        parts.append((start, found.end() - 1, data.count(b"\n", 0, start)))
        start = found.end() - 1
    return [*parts, (start, None, data.count(b"\n", 0, start))]


#: Pieces of a .tarot file around its cuts: record starts after a blank line (LF, CRLF),
#: lines that look like one and are not, blank lines in runs.
CUT_PIECES = [b"\n\n[", b"\r\n\r\n[", b"\n\r\n[", b"\n\n\n[", b"\n[", b"[", b"\n",
              b"\r\n", b"\n\n", b"x", b'[Event "A"]\n', b"play: 1. 7H\n", b"\r", b"\xff"]


@settings(max_examples=budget.cases(300), deadline=None)
@given(pieces=st.lists(st.sampled_from(CUT_PIECES), max_size=60),
       block=st.integers(1, 12), apart=st.integers(1, 30))
def test_the_cuts_are_those_of_the_file_searched_whole(
        pieces: list[bytes], block: int, apart: int) -> None:
    # blocks of a few bytes: cuts that straddle two blocks, several cuts in a block, none
    data = b"".join(pieces)
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as m:
        m.setattr(cutting, "CHUNK_BYTES", block)
        path = Path(folder) / "cuts.tarot"
        path.write_bytes(data)
        found = [(p.start, p.end, p.line) for p in archive.tarot_cuts(str(path), apart)]
    assert found == _cuts_of_the_whole(data, apart)


@pytest.mark.process
def test_a_comment_that_runs_on_across_a_cut_is_read_again_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Every record's comment runs on into a line starting with [: wherever the file is cut,
    # the part before takes in the record after, and this process reads on from there.
    text = ('[Event "Runs on"]\n[Players "4"]\nauction: pass garde pass pass { a comment\n\n'
            '[that goes on } \n\n')
    path = tmp_path / "comments.tarot"
    path.write_text(text * 60, encoding="utf-8")
    reference = _run(path)
    assert len(reference) == 120
    monkeypatch.setattr(cutting, "CHUNK_BYTES", 300)
    assert len(list(archive.tarot_parts(str(path)) or [])) > 2
    assert _run(path, jobs=2) == reference


def test_small_files_and_other_formats_are_not_cut(tmp_path: Path) -> None:
    path = tmp_path / "one.tarot"
    path.write_bytes((ROOT / "examples" / "prise.tarot").read_bytes())
    assert archive.tarot_parts(str(path)) is None
    assert archive.tarot_parts(str(tmp_path / "missing.tarot")) is None
