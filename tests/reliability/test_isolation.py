"""Isolation: in a 10,000-deal archive with 1 record in 100 damaged, each damaged record is
reported at its line, every other record validates, and the count of valid deals is exact,
through ``archive.check_paths`` and ``tarot validate``, in one process and with two.

The archive is written with the notation writer from 1,000 generated deals
(``simulate.random_deal`` at 3, 4 and 5 players; each written ten times with its own
``Deal`` tag, which keeps the fixture at a few seconds). Every hundredth record gets one of
five faults, each at a known line: a card code that is not a card (S003), a comment never
closed (S005), bytes that are not UTF-8 (S007), a wrong recorded score (R101), a card
played twice (the play's own codes).
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import pytest
from typer.testing import CliRunner

from tarotnotation.archive import CheckedDeal, check_paths
from tarotnotation.diagnostics import Code
from tarotnotation.notation import dumps
from tarotnotation.simulate import random_deal

pytestmark = pytest.mark.process

SLOW: Final = os.environ.get("TAROT_SLOW", "") not in ("", "0")
DEALS: Final = 10_000
UNIQUE: Final = 1_000
EVERY: Final = 100
FILES: Final = 4


@dataclass(frozen=True)
class Damage:
    """What was done to one record: its file, index in the file, line, and the code."""

    file: str
    index: int
    line: int
    first: int
    last: int
    code: Code | None  # None: the replay's own code for a card played twice


@dataclass(frozen=True)
class Archive:
    single: Path
    folder: Path
    damaged: dict[tuple[str, int], Damage]
    files: dict[str, int]  # deals per file


def _damage(lines: list[str], kind: int) -> tuple[list[str], int, Code | None]:
    """One fault in a record's lines: the new lines, the 0-based line hit, the code."""
    find = {name: next(i for i, ln in enumerate(lines) if ln.startswith(name))
            for name in ("[Event", "auction:", "result:")}
    tricks = [i for i, ln in enumerate(lines) if re.match(r"\s*\d+\. ", ln)]
    out = list(lines)
    if kind == 0:  # a card code that is no card
        at = tricks[3]
        out[at] = re.sub(r"(\d+\. )(\S+)", r"\1ZZ", out[at], count=1)
        return out, at, Code.BAD_CARD_CODE
    if kind == 1:  # a comment never closed
        at = find["auction:"]
        out[at] += " {no end"
        return out, at, Code.UNTERMINATED_COMMENT
    if kind == 2:  # Latin-1 bytes (written as surrogates, encoded back below)
        at = find["[Event"]
        out[at] = out[at].replace("Random deal", "Donn\udce9e")
        return out, at, Code.ENCODING
    if kind == 3:  # a wrong recorded score
        at = find["result:"]
        out[at] = re.sub(r"scores (\S+?)([+-])(\d+)", lambda m: f"scores {m[1]}{m[2]}"
                         f"{int(m[3]) + 10}", out[at], count=1)
        return out, at, Code.SCORE_MISMATCH
    at = tricks[6]  # a card played twice: trick 7's first card is trick 1's
    first = re.search(r"\d+\. (\S+)", out[tricks[0]])
    assert first is not None
    out[at] = re.sub(r"(\d+\. )(\S+)", lambda m: m[1] + first[1], out[at], count=1)
    return out, at, None


@pytest.fixture(scope="session")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Archive:
    root = tmp_path_factory.mktemp("isolation")
    texts = []
    for i in range(UNIQUE):
        rec = random_deal(random.Random(i), (3, 4, 5)[i % 3])
        texts.append(dumps(rec).rstrip("\n").split("\n"))
    folder = root / "folder"
    folder.mkdir()
    per_file = DEALS // FILES
    damaged: dict[tuple[str, int], Damage] = {}
    single_chunks: list[bytes] = []
    file_chunks: list[list[bytes]] = [[] for _ in range(FILES)]
    line_single = 1
    line_file = [1] * FILES
    for n in range(DEALS):
        lines = list(texts[n % UNIQUE])
        lines.insert(1, f'[Deal "{n + 1}"]')
        code: Code | None = Code.SYNTAX_ERROR
        hit = -1
        if n % EVERY == EVERY // 2:
            lines, hit, code = _damage(lines, (n // EVERY) % 5)
        data = ("\n".join(lines) + "\n\n").encode("utf-8", "surrogateescape")
        f = n // per_file
        name = str(folder / f"part{f + 1}.tarot")
        for key, start in ((str(root / "archive.tarot"), line_single),
                           (name, line_file[f])):
            if hit >= 0:
                index = n + 1 if key.endswith("archive.tarot") else n % per_file + 1
                damaged[(key, index)] = Damage(key, index, start + hit, start,
                                               start + len(lines) - 1, code)
        single_chunks.append(data)
        file_chunks[f].append(data)
        line_single += len(lines) + 1
        line_file[f] += len(lines) + 1
    single = root / "archive.tarot"
    single.write_bytes(b"".join(single_chunks))
    for f in range(FILES):
        (folder / f"part{f + 1}.tarot").write_bytes(b"".join(file_chunks[f]))
    files = {str(single): DEALS, **{str(folder / f"part{f + 1}.tarot"): per_file
                                    for f in range(FILES)}}
    return Archive(single, folder, damaged, files)


def _assert_isolated(checked: Iterable[CheckedDeal], arc: Archive, files: list[str]
                     ) -> list[tuple[str, int]]:
    """Checks each deal as it comes (holding no replay), and returns (file, index) of each."""
    expected = {k: v for k, v in arc.damaged.items() if k[0] in files}
    seen: list[tuple[str, int]] = []
    valid = 0
    for deal in checked:
        seen.append((deal.file, deal.index))
        damage = expected.get((deal.file, deal.index))
        if damage is None:
            assert deal.errors == 0, [str(d) for d in deal.diagnostics]
            valid += 1
            continue
        errors = [d for d in deal.diagnostics if d.is_error]
        assert errors, damage
        for d in deal.diagnostics:  # every fault inside the damaged record
            assert d.location.line is not None
            assert damage.first <= d.location.line <= damage.last, (str(d), damage)
        at_line = [d for d in errors if d.location.line == damage.line]
        assert at_line, ([str(d) for d in errors], damage)
        if damage.code is not None:
            assert damage.code in {d.code for d in at_line}, ([str(d) for d in errors], damage)
    assert len(seen) == sum(arc.files[f] for f in files)
    assert len(expected) == len(seen) // EVERY
    assert valid == len(seen) - len(expected) == len(seen) * (EVERY - 1) // EVERY
    return seen


def test_check_paths_isolates_damaged_records(archive: Archive) -> None:
    # The full replay of every deal (``keep=True``) costs about a millisecond a deal: the
    # whole 10,000-deal archive under TAROT_SLOW=1, one of the folder's files (2,500 deals,
    # 25 damaged, five of each kind) otherwise. The quick paths read the whole archive below.
    target = archive.single if SLOW else archive.folder / "part1.tarot"
    _assert_isolated(check_paths([target]), archive, [str(target)])


def test_check_paths_in_two_processes(archive: Archive) -> None:
    files = sorted(str(p) for p in archive.folder.iterdir())
    seen = _assert_isolated(check_paths([archive.folder], jobs=2), archive, files)
    assert seen == [(f, i) for f in files for i in range(1, archive.files[f] + 1)]


#: validate's summary; its numbers are grouped (10,000) as every command's are.
_SUMMARY: Final = re.compile(r"([\d,]+) deals read from ([\d,]+) files?: ([\d,]+) valid,"
                             r" ([\d,]+) with errors")


def _cli(*args: str) -> tuple[int, str]:
    from tarotnotation.cli.app import app

    result = CliRunner().invoke(app, ["validate", *args])
    return result.exit_code, result.stdout


def _reported(out: str) -> set[tuple[str, int]]:
    found = set()
    for line in out.splitlines():
        m = re.match(r"(.+?):(\d+):(?:\d+:)? [A-Z]\d{3} error: deal \d+", line)
        if m:
            found.add((m[1], int(m[2])))
    return found


def test_cli_validate_isolates_damaged_records(archive: Archive) -> None:
    code, out = _cli(str(archive.single))
    assert code == 1
    m = _SUMMARY.search(out)
    assert m is not None, out[-500:]
    assert tuple(int(m[i].replace(",", "")) for i in (1, 3, 4)) == (DEALS, 9_900, 100)
    reported = _reported(out)
    for damage in (d for d in archive.damaged.values() if d.file == str(archive.single)):
        assert (damage.file, damage.line) in reported, damage


def test_cli_validate_with_two_jobs(archive: Archive) -> None:
    code, out = _cli(str(archive.folder), "-j", "2")
    assert code == 1
    m = _SUMMARY.search(out)
    assert m is not None, out[-500:]
    assert tuple(int(m[i].replace(",", "")) for i in (1, 3, 4)) == (DEALS, 9_900, 100)
    reported = _reported(out)
    for damage in (d for d in archive.damaged.values() if d.file != str(archive.single)):
        assert (damage.file, damage.line) in reported, damage
