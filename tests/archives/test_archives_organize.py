"""``tarot split`` and ``tarot sort``: safe file names, collisions numbered, all files or
none, natural order in bounded memory; ``tarot convert`` merging several inputs."""

from __future__ import annotations

import os
import unicodedata
from pathlib import Path

import pytest
from archive_builders import generated, write_jsonl, write_tarot
from cli_runs import EXAMPLES, FAULTY, invoke, rel
from hypothesis import given
from hypothesis import strategies as st

from tarotnotation.archives.organize import (
    MAX_NAME_BYTES,
    Names,
    record_key,
    safe_name,
    sort_key,
    sorted_records,
)
from tarotnotation.archives.stream import Options, scan
from tarotnotation.cards import Card, CardSet
from tarotnotation.notation import read as read_tarot
from tarotnotation.records import DealRecord, Poignee


@given(st.text())
def test_a_safe_name_never_escapes_its_folder(value: str) -> None:
    name = safe_name(value)
    assert name
    assert name not in (".", "..")
    assert "/" not in name
    assert "\\" not in name
    assert ".." not in name
    assert not any(unicodedata.category(c) == "Cc" for c in name)
    assert not name.startswith((".", "-"))
    assert not name.endswith((".", " "))
    assert len(name.encode("utf-8")) <= MAX_NAME_BYTES
    assert name.split(".")[0].lower() not in ("con", "nul", "aux", "prn", "com1", "lpt1")


@pytest.mark.parametrize(("value", "name"), [
    ("Lyon", "Lyon"),
    ("Tournoi d'été", "Tournoi d'été"),
    ("a/b\\c", "a_b_c"),
    ("..", "_"),
    ("../secret", "_secret"),
    (".hidden", "hidden"),
    ("x\x00y\x1b[31m", "x_y_[31m"),
    ("CON", "CON_"),
    ("", "_"),
])
def test_safe_names(value: str, name: str) -> None:
    assert safe_name(value) == name


def test_collisions_are_numbered_whatever_the_case() -> None:
    names = Names()
    assert [names.take(n, ".tarot") for n in ("a", "A", "a", "a-2")] == [
        "a.tarot", "A-2.tarot", "a-3.tarot", "a-2-2.tarot"]


def test_natural_order_of_tag_values() -> None:
    values = ["Table 10", "2026.11.14", None, "9", "2026.11.??", "table 9", "10", "Élan",
              "abc", "2025.01.01"]
    assert sorted(values, key=sort_key) == [
        "2025.01.01", "2026.11.??", "2026.11.14", "9", "10", "abc", "Élan", "table 9",
        "Table 10", None]


def test_sorting_in_runs_is_stable_and_merges(tmp_path: Path) -> None:
    records = generated(40, seed=31)
    key = record_key(["Event", "Date"])
    runs = list(sorted_records(records, key, run=7, folder=str(tmp_path)))
    assert runs == sorted(records, key=key)
    assert [r.tag("Deal") for r in runs] == [r.tag("Deal") for r in sorted(records, key=key)]
    assert not list(tmp_path.iterdir())  # the runs are removed
    backwards = list(sorted_records(records, key, run=7, reverse=True))
    assert [key(r) for r in backwards] == sorted((key(r) for r in records), reverse=True)


def _tags(path: Path) -> list[tuple[str | None, ...]]:
    return [(s.tag("Event"), s.tag("Date"), s.tag("Deal"))  # type: ignore[union-attr]
            for s in (d.summary for d in scan([path], options=Options(replay=False)))]


def test_sort_command(tmp_path: Path) -> None:
    records = generated(25, seed=41)
    path = write_jsonl(tmp_path / "in.jsonl", records)
    out = tmp_path / "sorted.tarot"
    ran = invoke("sort", str(path), "--by", "Date,Deal", "-o", str(out))
    assert ran.code == 0, ran
    got = _tags(out)
    assert got == sorted(got, key=lambda t: (sort_key(t[1]), sort_key(t[2])))
    assert len(got) == 25
    ran = invoke("sort", str(path), "--by", "Event", "-r", "--to", "jsonl")
    events = [line.split('"Event","')[1].split('"')[0] for line in ran.out.splitlines()]
    assert events == sorted(events, reverse=True)
    assert invoke("sort", str(path), "--by", "Date", "-o", str(path)).code == 2


def test_sort_by_a_tag_no_deal_has_says_so(tmp_path: Path) -> None:
    """Issue 31: ``sort --by Nope`` changed nothing and said nothing; it says which tag no
    deal has (and the field a capitalised field name meant)."""
    path = write_jsonl(tmp_path / "in.jsonl", generated(5, seed=43))
    ran = invoke("sort", str(path), "--by", "Nope,Date")
    assert ran.code == 0, ran
    assert ran.err == ("tarot: warning: --by Nope: no deal has the tag Nope, so nothing was"
                       " sorted by it\n")
    ran = invoke("sort", str(path), "--by", "Contract")
    assert ("--by Contract: no deal has the tag Contract, so nothing was sorted by it; the"
            " field is written contract") in ran.err
    assert "--by Date" not in invoke("sort", str(path), "--by", "Date").err


def test_sort_by_a_field_deals_cannot_be_sorted_by_is_a_usage_error(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "in.jsonl", generated(2, seed=44))
    ran = invoke("sort", str(path), "--by", "Date,score")
    assert ran.code == 2
    assert ran.err.startswith("tarot: --by Date,score: 'score' is a field of one player, or"
                              " where a deal is: deals are sorted by tags or by bouts,"
                              " called_self, ")
    assert invoke("sort", str(path), "--by", "file").code == 2
    ran = invoke("sort", str(path), "--by", "nope")  # any other name is a tag (none has it)
    assert ran.code == 0
    assert "--by nope: no deal has the tag nope" in ran.err


def test_sort_by_a_field_of_the_query_language(tmp_path: Path) -> None:
    """Issue 31: ``sort --by contract`` sorts by the contract (a field the query language
    names), worked out from the record; then by points within a contract."""
    path = write_jsonl(tmp_path / "in.jsonl", generated(30, seed=45))
    ran = invoke("sort", str(path), "--by", "contract,points", "--to", "jsonl")
    assert ran.code == 0, ran
    assert ran.err == ""
    facts = []
    for item in scan([str(_lines(tmp_path / "sorted.jsonl", ran.out))]):
        assert item.summary is not None
        facts.append((item.summary.contract, item.summary.taker_half))
    assert len(facts) == 30
    assert len({c for c, _ in facts}) > 1  # (the test sorts something)
    assert facts == sorted(facts, key=lambda f: (f[0], f[1]))
    reverse = invoke("sort", str(path), "--by", "taker_score", "-r", "--to", "jsonl")
    scores = [s.summary.scores[s.summary.taker] for s in scan(
        [str(_lines(tmp_path / "rev.jsonl", reverse.out))])
              if s.summary is not None and s.summary.scores and s.summary.taker is not None]
    assert scores == sorted(scores, reverse=True)


def _lines(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_split_by_deal_and_by_tag(tmp_path: Path) -> None:
    records = generated(9, seed=51)
    records[4] = records[4].model_copy(update={"tags": (("Event", "../../escape"),)})
    records[5] = records[5].model_copy(update={"tags": (("Event", "..\\escape"),)})
    path = write_tarot(tmp_path / "club.tarot", records)
    per_deal = tmp_path / "deals"
    ran = invoke("split", str(path), "-o", str(per_deal))
    assert ran.code == 0, ran
    assert sorted(os.listdir(per_deal)) == [f"club-{i:04d}.tarot" for i in range(1, 10)]
    by_event = tmp_path / "events"
    ran = invoke("split", str(path), "--by", "Event", "-o", str(by_event), "--to", "jsonl")
    assert ran.code == 0, ran
    names = sorted(os.listdir(by_event))
    assert names == ["Soirée 1.jsonl", "Soirée 2.jsonl", "Soirée 3.jsonl", "_._escape.jsonl",
                     "_escape.jsonl"]
    assert not any(n.startswith(".") for n in names)
    assert not (tmp_path / "escape.jsonl").exists()
    counts = {n: len(_tags(by_event / n)) for n in names}
    assert sum(counts.values()) == 9
    assert all(e == n.removesuffix(".jsonl") for n in names if n.startswith("Soirée")
               for e, _, _ in _tags(by_event / n))


def test_split_collisions_and_missing_tags(tmp_path: Path) -> None:
    records = generated(4, seed=61)
    tags = [(("Event", "A/B"),), (("Event", "A_B"),), (("Event", "a_b"),), ()]
    records = [r.model_copy(update={"tags": t}) for r, t in zip(records, tags, strict=True)]
    path = write_jsonl(tmp_path / "x.jsonl", records)
    out = tmp_path / "out"
    assert invoke("split", str(path), "--by", "Event", "-o", str(out)).code == 0
    assert sorted(os.listdir(out)) == ["A_B-2.tarot", "A_B.tarot", "a_b-3.tarot",
                                       "no-Event.tarot"]


def test_split_writes_all_files_or_none(tmp_path: Path) -> None:
    path = write_tarot(tmp_path / "x.tarot", generated(3, seed=71))
    out = tmp_path / "out"
    out.mkdir()
    (out / "x-0002.tarot").write_text("keep me", encoding="utf-8")
    ran = invoke("split", str(path), "-o", str(out))
    assert ran.code == 2
    assert "is already there" in ran.err
    assert "nothing was written" in ran.err
    assert sorted(os.listdir(out)) == ["x-0002.tarot"]
    assert (out / "x-0002.tarot").read_text(encoding="utf-8") == "keep me"
    assert invoke("split", str(path), "-o", str(out), "--force").code == 0
    assert sorted(os.listdir(out)) == ["x-0001.tarot", "x-0002.tarot", "x-0003.tarot"]
    # An input is never replaced, even with --force.
    [record] = generated(1, seed=72)
    own = write_tarot(out / "a.tarot", [record.model_copy(update={"tags": (("Event", "a"),)})])
    before = own.read_bytes()
    ran = invoke("split", str(own), "--by", "Event", "-o", str(out), "--force")
    assert ran.code == 2
    assert "is one of the inputs" in ran.err
    assert own.read_bytes() == before


@pytest.mark.parametrize("by", ["deal", "Event"])
def test_a_full_disk_is_said_as_a_write_failure_by_split(tmp_path: Path, by: str,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    # split on a full disk left its empty output folder behind (issue 31): what it made
    # is removed, and the failure is said as one to write (exit 2)
    out = tmp_path / "new" / "deals"

    def full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    ran = invoke("split", rel(EXAMPLES / "score-sheet.tarot"), "--by", by, "-o", str(out))
    assert ran.code == 2, ran
    assert ran.err == f"tarot: {out}: cannot write: No space left on device\n"
    assert list(tmp_path.iterdir()) == []
    monkeypatch.undo()  # a folder that was there stays, empty as it was
    (tmp_path / "mine").mkdir()
    monkeypatch.setattr(os, "fsync", full)
    assert invoke("split", rel(EXAMPLES / "prise.tarot"), "-o", str(tmp_path / "mine")).code == 2
    assert [p.name for p in tmp_path.iterdir()] == ["mine"]
    assert list((tmp_path / "mine").iterdir()) == []


def test_split_reports_unreadable_deals(tmp_path: Path) -> None:
    ran = invoke("split", rel(FAULTY / "syntax-error.tarot"), "-o", str(tmp_path / "o"))
    assert ran.code == 1
    assert "S003 error" in ran.err
    assert sorted(os.listdir(tmp_path / "o")) == ["syntax-error-0002.tarot"]
    ran = invoke("split", rel(FAULTY / "syntax-error.tarot"), "-o", str(tmp_path / "p"),
                 "--strict")
    assert ran.code == 1
    assert not (tmp_path / "p").exists()  # nothing written: the folder it made is removed


def _two_poignees_in_the_defence(tmp_path: Path) -> Path:
    """The 5-player example with a poignée shown by S and one by E (both of the defence):
    a TarotClub log keeps one handle per team."""
    [item] = read_tarot(EXAMPLES / "five-players.tarot")
    assert item.record is not None
    shown = (Poignee(seat="S", cards=CardSet.of(Card.T12, Card.T18, Card.T20, Card.T21)),
             Poignee(seat="E", cards=CardSet.of(Card.T1, Card.T3, Card.T10, Card.T13)))
    return write_tarot(tmp_path / "p5.tarot",
                       [item.record.model_copy(update={"declarations": shown})])


def test_split_to_tarotclub_of_two_poignees_in_the_defence_is_said_not_a_traceback(
        tmp_path: Path) -> None:
    """Issue 31: the writer's refusal ended ``split --to tarotclub`` in a traceback; it is
    said as ``convert`` says it (exit 2), and nothing is written."""
    path = _two_poignees_in_the_defence(tmp_path)
    out = tmp_path / "out"
    ran = invoke("split", str(path), "-o", str(out), "--to", "tarotclub")
    assert ran.code == 2, ran
    assert "Traceback" not in ran.err
    assert "tarot: cannot write tarotclub: TarotClub records one handle per team" in ran.err
    assert not out.exists()  # (the folder split made, nothing in it, is removed again)
    converted = invoke("convert", str(path), "-o", str(tmp_path / "c.json"), "--to",
                       "tarotclub")
    assert converted.code == 2
    assert "tarot: cannot write tarotclub: TarotClub records one handle per team" in (
        converted.err)


def test_split_of_mixed_table_sizes_to_csv_is_said_not_a_traceback(tmp_path: Path) -> None:
    """Issue 31: a score sheet holds one table; four and five players in one file ended
    ``split --to csv`` (and ``annotate --to csv``) in a traceback."""
    club = (("Event", "Club"),)
    p4 = write_tarot(tmp_path / "p4.tarot", [r.model_copy(update={"tags": club})
                                             for r in generated(2, seed=81)])
    p5 = write_tarot(tmp_path / "p5.tarot", [r.model_copy(update={"tags": club})
                                             for r in generated(2, seed=82, players=5)])
    ran = invoke("split", str(p4), str(p5), "-o", str(tmp_path / "o1"), "--to", "csv")
    assert ran.code == 0, ran  # a file per deal: each sheet holds one table
    assert len(os.listdir(tmp_path / "o1")) == 4
    both = tmp_path / "both.tarot"
    both.write_bytes(p4.read_bytes() + b"\n" + p5.read_bytes())
    for args in (("split", str(p4), str(p5), "--by", "Event", "-o", str(tmp_path / "o2")),
                 ("annotate", str(both), "-o", str(tmp_path / "a.csv"))):
        ran = invoke(*args, "--to", "csv")
        assert ran.code == 2, ran
        assert "Traceback" not in ran.err
        assert "tarot: cannot write csv: deal " in ran.err
        assert "not by the players of the first deal" in ran.err
    assert not (tmp_path / "o2").exists()  # (split removes the folder it made)
    assert not (tmp_path / "a.csv").exists()


def test_split_warns_of_what_the_target_format_drops(tmp_path: Path) -> None:
    """Issue 31: ``split`` wrote TarotClub logs and score sheets without a word of what
    they drop; it says it per deal, as ``convert`` does."""
    ran = invoke("split", rel(EXAMPLES / "prise.tarot"), "-o", str(tmp_path / "o"), "--to",
                 "tarotclub")
    assert ran.code == 0, ran
    assert (f"tarot: warning: {rel(EXAMPLES / 'prise.tarot')}: deal 1: a TarotClub "
            "played-deal log cannot hold tags (") in ran.err
    converted = invoke("convert", rel(EXAMPLES / "prise.tarot"), "--to", "tarotclub")
    assert "tarot: warning: deal 1: a TarotClub played-deal log cannot hold tags (" in (
        converted.err)


def test_convert_merges_several_inputs(tmp_path: Path) -> None:
    out = tmp_path / "all.jsonl"
    ran = invoke("convert", rel(EXAMPLES / "prise.tarot"), rel(EXAMPLES / "garde-sans.tarot"),
                 rel(EXAMPLES / "five-players.tarot"), "-o", str(out))
    assert ran.code == 0, ran
    records: list[DealRecord] = [d.record for d in scan([out], options=Options(
        replay=False, records=True)) if d.record is not None]
    assert [r.players for r in records] == [4, 4, 5]
