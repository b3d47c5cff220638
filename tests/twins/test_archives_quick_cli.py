"""``tarot query``, ``stats`` and ``dedupe`` on the quick path and on the full path give the
same output, byte for byte: the same matches, the same statistics, the same duplicates.

The quick path judges a plain clean JSON Lines deal from its data (the C scanner and the
kernel's twin, or orjson and the pure play under ``TAROT_PURE=1``) and summarizes it
from the quick check's facts; the full path (``Options(quick=False)``) reads and replays
every deal. Each command runs here both ways on archives made by ``tarot new`` (3, 4 and
5 players), on the examples (as written, and as JSON Lines with the usual shape of a
result: the scores only), on the faulty examples, and on generated deals with faults
injected (a broken line, a revoke, a wrong score, an odd key...).
"""

from __future__ import annotations

import contextlib
import functools
import random
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from budget import cases
from cli_runs import EXAMPLES, FAULTY, Ran, invoke
from test_fast_paths import generated_cases

from tarotnotation.archive import read_path
from tarotnotation.archives import stream
from tarotnotation.cli import reading
from tarotnotation.formats import json as tjson
from tarotnotation.quick import quick_facts_reader


def _both(monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[Ran, Ran]:
    """``tarot ARGS`` on the quick path, then on the full path."""
    quick = invoke(*args)
    with _full_path(monkeypatch):
        full = invoke(*args)
    return quick, full


@contextlib.contextmanager
def _full_path(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The archive commands read and replay every deal while in this context."""
    with monkeypatch.context() as m:
        m.setattr(reading, "Options", functools.partial(stream.Options, quick=False))
        yield


def _same(monkeypatch: pytest.MonkeyPatch, *args: str) -> Ran:
    quick, full = _both(monkeypatch, *args)
    assert quick == full, args
    return quick


@pytest.fixture(scope="module")
def archives(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """The archives, by name: each a list of paths."""
    folder = tmp_path_factory.mktemp("archives")
    out: dict[str, list[str]] = {}
    made = []
    for players, count, seed in ((4, 80, 11), (3, 40, 12), (5, 12, 13)):
        path = folder / f"new-{players}.jsonl"
        ran = invoke("new", "--players", str(players), "--count", str(count), "--seed",
                     str(seed), "-o", str(path))
        assert ran.code == 0, ran
        made.append(str(path))
    out["new"] = made
    # The examples as JSON Lines: as written (results of every kind), then with the
    # usual shape of a result (the scores alone) and the seats' names, which the quick
    # path takes; the faulty ones too (a revoke, a false poignée, a wrong écart...).
    records = [item.record for path in sorted(EXAMPLES.glob("*.tarot"))
               for item in read_path(path) if item.record is not None]
    faulty = [item.record for path in sorted(FAULTY.glob("*.tarot"))
              for item in read_path(path) if item.record is not None]
    lines = []
    for record in records + faulty:
        obj = tjson.to_dict(record)
        lines.append(orjson.dumps(obj))
        result = obj.get("result") or {}
        obj["result"] = {"scores": result["scores"]} if result.get("scores") else None
        lines.append(orjson.dumps(obj))
    path = folder / "examples.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    out["examples"] = [str(path), *map(str, sorted(EXAMPLES.glob("*.tarot"))),
                       *map(str, sorted(FAULTY.glob("*.tarot")))]
    # Generated deals with faults injected, a broken line and blank lines among them.
    generated = generated_cases(cases(25), 29)
    random.Random(3).shuffle(generated)
    data = [orjson.dumps(obj) for obj in generated]
    data[7:7] = [b'{"players": 4, "hands": ', b"", b"[1, 2]"]
    path = folder / "faulty.jsonl"
    path.write_bytes(b"\n".join(data) + b"\n")
    out["faulty"] = [str(path)]
    # Duplicates: an archive, then some of its deals again and deals of another.
    first = (folder / "new-4.jsonl").read_bytes().splitlines(keepends=True)
    other = (folder / "new-3.jsonl").read_bytes().splitlines(keepends=True)
    path = folder / "again.jsonl"
    path.write_bytes(b"".join(first[::7] + other[:5] + first[3:9] + other[4:6]))
    out["duplicates"] = [*out["new"], str(path)]
    return out


NAMES = ("new", "examples", "faulty", "duplicates")
WHERE = ["contract >= garde and not made or petit_au_bout = defence",
         '(poignee or chelem or player = "Alice Martin") and taker = player',
         "has P105 or has R or players = 3 or margin <= -10"]
#: Every field that is a column: a table of them all shows every fact of every deal.
FIELDS = ("file,deal,line,status,valid,errors,warnings,ruleset,players,dealer,names,"
          "contract,taker,partner,called_self,made,margin,points,bouts,petit_au_bout,"
          "chelem,chelem_announced,poignee,poignees,scores,taker_score,tricks,Event,Date")


@pytest.mark.parametrize("name", NAMES)
def test_query_matches_the_same_deals(monkeypatch: pytest.MonkeyPatch,
                                      archives: dict[str, list[str]], name: str) -> None:
    paths = archives[name]
    matched = 0
    for where in WHERE:
        ran = _same(monkeypatch, "query", *paths, "--where", where, "--count")
        assert ran.code in (0, 1), ran
        matched += int(ran.out)
    assert matched > 0
    ran = _same(monkeypatch, "query", *paths, "--format", "table-csv", "--fields", FIELDS)
    assert ran.out.count("\n") > 1
    ran = _same(monkeypatch, "query", *paths, "--where", "made and contract <= garde",
                "-f", "jsonl")  # the records of the matches, built only for them
    assert ran.out


@pytest.mark.parametrize("name", NAMES)
def test_stats_are_the_same_byte_for_byte(monkeypatch: pytest.MonkeyPatch,
                                          archives: dict[str, list[str]], name: str) -> None:
    for by, fmt in (("player", "json"), ("seat", "json"), ("contract", "json"),
                    ("player", "text"), ("contract", "csv")):
        ran = _same(monkeypatch, "stats", *archives[name], "--by", by, "--format", fmt)
        assert ran.out


@pytest.mark.parametrize("name", NAMES)
def test_dedupe_reports_the_same_duplicates(monkeypatch: pytest.MonkeyPatch,
                                            archives: dict[str, list[str]], name: str,
                                            tmp_path: Path) -> None:
    for by in ("deal", "play"):
        ran = _same(monkeypatch, "dedupe", *archives[name], "--by", by)
        if name == "duplicates":
            assert ran.code == 1
            assert "the same deal" in ran.out
    out = tmp_path / "once.jsonl"
    args = ("dedupe", *archives[name], "-o", str(out), "--report")
    quick = invoke(*args)
    written = out.read_bytes()
    out.unlink()
    assert quick.code in (0, 1), quick
    with _full_path(monkeypatch):
        full = invoke(*args)
    outputs = [(quick, written), (full, out.read_bytes())]
    assert outputs[0] == outputs[1]


@pytest.mark.process
def test_two_workers_give_what_one_gives(monkeypatch: pytest.MonkeyPatch,
                                         archives: dict[str, list[str]]) -> None:
    paths = archives["duplicates"]
    for args in (["stats", "--format", "json"], ["dedupe"],
                 ["query", "--where", "contract >= garde", "-f", "jsonl"]):
        one = invoke(*args, *paths)
        quick, full = _both(monkeypatch, *args, *paths, "-j", "2")
        assert quick == one == full, args


def test_the_quick_path_takes_the_plain_deals_and_only_them(
        archives: dict[str, list[str]]) -> None:
    # (so that the tests above compare two ways, not the full path with itself)
    facts_of = quick_facts_reader()
    taken = {}
    for name in ("new", "examples", "faulty"):
        lines = [line.strip() for path in archives[name] if path.endswith(".jsonl")
                 for line in Path(path).read_bytes().splitlines() if line.strip()]
        taken[name] = sum(facts_of(line) is not None for line in lines), len(lines)
    assert taken["new"][0] >= 120  # all the deals of 3 and 4 players (not those of 5)
    assert 0 < taken["examples"][0] < taken["examples"][1] // 2
    assert 0 < taken["faulty"][0] < taken["faulty"][1] // 2
