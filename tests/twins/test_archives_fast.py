"""The fast paths of the archive tools, held to the slow ones: a summary made from the
quick check's facts equals the summary of the record read and replayed (or read only); a
scan with the fast paths gives what reading every deal gives, on the compiled scanner and
the pure path alike."""

from __future__ import annotations

import functools
import random
from pathlib import Path

import orjson
import pytest
from archive_builders import generated, write_jsonl
from chelems import best_chien, chelem_deal, low_suit_cards
from cli_runs import EXAMPLES

from tarotnotation.archive import read_path
from tarotnotation.archives.stream import Options, scan
from tarotnotation.archives.summary import summarize, summarize_quick, summarize_record
from tarotnotation.formats import json as tjson
from tarotnotation.quick import quick_check, quick_facts, quick_facts_line
from tarotnotation.records import DealRecord
from tarotnotation.replay import replay as replay_of
from tarotnotation.rules import Camp, Contract
from tarotnotation.simulate import random_deal


def _variants() -> list[DealRecord]:
    return list(_made_variants())


@functools.cache
def _made_variants() -> tuple[DealRecord, ...]:
    """The variants, made once a test process (the records are immutable)."""
    rng = random.Random(5)
    out = (generated(60, seed=17) + generated(20, seed=18, players=3)
           + generated(30, seed=20, players=5))
    for i in range(20):  # no seats written, no dealer, other rulesets, no tags
        record = random_deal(rng, 4)
        update: dict[str, object] = {"tags": ()}
        if i % 2:
            update["dealer"] = None
        if i % 3 == 0:
            update["ruleset"] = "pagat"
        out.append(record.model_copy(update=update))
    return tuple(out)


def test_a_summary_from_quick_facts_unjudged_is_the_summary_of_its_record() -> None:
    checked = 0
    for record in _variants():
        obj = orjson.loads(tjson.dumps_bytes(record))
        facts = quick_facts(obj)
        if facts is None:
            continue
        checked += 1
        assert summarize_quick(facts, file="f", index=3, line=7, judged=False
                               ) == summarize_record(record, file="f", index=3, line=7)
    assert checked >= 80


def _with_facts() -> list[DealRecord]:
    """The variants, and every example deal (a petit au bout, a chelem announced and
    made, poignées, the Excuse led last, five players)."""
    examples = [item.record for path in sorted(EXAMPLES.glob("*.tarot"))
                for item in read_path(path) if item.record is not None]
    chelems = []  # chelems of either camp, the taker's announced or not, the result left out
    for players, excuse in ((4, "winning-led-last"), (3, "losing-early"), (4, "losing-last")):
        for winner in (Camp.TAKER, Camp.DEFENCE):
            chien = best_chien(6) if winner is Camp.TAKER else low_suit_cards(6)
            record = chelem_deal(players, Contract.GARDE_SANS, winner, chien=chien,
                                 excuse=excuse)
            chelems.append(record.model_copy(update={"result": None}))
    return _variants() + generated(200, seed=19) + examples + chelems


def test_a_summary_from_quick_facts_is_the_summary_of_its_replay() -> None:
    checked = pab = chelem = poignees = partners = alone = 0
    for record in _with_facts():
        line = tjson.dumps_bytes(record)
        obj = orjson.loads(line)
        facts = quick_facts(obj)
        assert (facts is None) == (quick_check(obj) is None)
        assert quick_facts_line(line) == facts  # the C scanner's reading, where built
        if facts is None:
            continue
        checked += 1
        fast = summarize_quick(facts, file="f", index=3, line=7)
        assert fast == summarize(record, replay_of(record), file="f", index=3, line=7)
        pab += fast.petit_au_bout is not None
        chelem += fast.chelem is not None
        poignees += bool(fast.poignees)
        if fast.players == 5:
            partners += fast.partner is not None
            alone += fast.partner is None
    assert checked >= 280
    # the facts that are rare were met
    assert pab
    assert chelem
    assert poignees
    assert partners  # five players: a partner
    assert alone  # ... and a taker alone (his own card called, or one in the chien)


@pytest.mark.process
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
        slow = list(scan([path], options=Options(replay=replay, quick=False)))
        assert [(d.index, d.summary, d.diagnostics) for d in fast] == [
            (d.index, d.summary, d.diagnostics) for d in slow]
        assert fast[9].summary is None
        assert fast[5].summary is not None
    one = list(scan([path], options=Options(replay=False)))
    two = list(scan([path], jobs=2, options=Options(replay=False)))
    assert [(d.index, d.summary) for d in two] == [(d.index, d.summary) for d in one]


@pytest.mark.process
def test_a_line_holding_only_a_byte_order_mark_is_no_deal(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    # Files concatenated leave a byte-order mark alone on a line: the reader skips it,
    # and so must the chunks of JSON Lines (validate's quick path, -j N, the archive
    # tools), or every later deal is numbered one too far.
    from tarotnotation import archive, cutting

    lines = write_jsonl(tmp_path / "x.jsonl", generated(12, seed=3)).read_bytes().splitlines(
        keepends=True)
    bom = b"\xef\xbb\xbf"
    data = bom + b"\n" + b"".join(lines[:4]) + bom + b"\n" + b"".join(lines[4:9]) + bom + (
        b"  \n") + b"".join(lines[9:]) + b'{"players": 9}\n'
    path = tmp_path / "cat.jsonl"
    path.write_bytes(data)
    monkeypatch.setattr(cutting, "CHUNK_BYTES", 4096)  # several chunks
    assert len(list(archive.parts_of(path))) > 3

    def where(checked: list[archive.CheckedDeal]) -> list[tuple[int, list[object]]]:
        return [(c.index, [(d.location.deal, d.location.line) for d in c.diagnostics])
                for c in checked]

    serial = where(list(archive.check_paths([path], keep=True)))
    assert [i for i, _ in serial] == list(range(1, 14))
    assert serial[-1][1] == [(13, 16)]  # 3 lines of marks, 12 deals, then the 16th
    assert where(list(archive.check_paths([path], keep=False))) == serial
    assert where(list(archive.check_paths([path], keep=False, jobs=2))) == serial
    scanned = list(scan([path], options=Options(replay=False)))
    assert [(d.index, [(x.location.deal, x.location.line) for x in d.diagnostics])
            for d in scanned] == serial


@pytest.fixture(scope="module")
def ruleset_archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The archive of the test below, written once for its four rulesets."""
    return write_jsonl(tmp_path_factory.mktemp("rulesets") / "a.jsonl",
                       _variants() + generated(300, seed=23))


@pytest.mark.parametrize("rules", [{"ruleset": "fft petit_au_bout=wins_last_trick"},
                                   {"default_ruleset": "fft petit_au_bout=wins_last_trick"},
                                   {"ruleset": "pagat"},
                                   {"ruleset": "fft excuse_last_trick=to_trick_winner"}])
def test_the_fast_path_under_another_ruleset_gives_the_same(ruleset_archive: Path,
                                                             rules: dict[str, str]) -> None:
    # --ruleset and --rules/--set reach the quick check as they reach the replay
    path = ruleset_archive
    ruleset, default = rules.get("ruleset"), rules.get("default_ruleset")
    fast = [d.summary for d in scan([path], options=Options(ruleset=ruleset,
                                                            default_ruleset=default))]
    slow = [d.summary for d in scan([path], options=Options(
        ruleset=ruleset, default_ruleset=default, quick=False))]
    assert fast == slow
    if "ruleset" in rules:  # the override did reach the quick check: a deal changes
        assert fast != [d.summary for d in scan([path])]
