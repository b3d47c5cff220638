"""bench/bots.py, the bots' table run split over days or machines: the parts of a
benchmark combined give what one run gives, a rerun resumes, another plan is refused."""

from __future__ import annotations

import shutil
from pathlib import Path
from types import ModuleType
from typing import Any

import orjson
import pytest
from bench_scripts import load


def _bench() -> ModuleType:
    return load("bots")


def _tiny(bots: ModuleType, deals: int = 2) -> Any:
    """A plan of ``deals`` deals with the smallest bots that still search: pimc draws one
    deal a decision (two took twice the CPU, 3.5 s a run of two deals, and the parts'
    bookkeeping, what these tests hold, is the same)."""
    return bots.plan_of(4, deals, 3, "fft", "pimc:samples=1,nodes=500,auction=0,habits=0",
                        "oracle:nodes=2000", 1, 20_000)


def _results(folder: Path) -> dict[str, object]:
    """Each deal file's content, the CPU seconds left out (they are the machine's)."""
    out: dict[str, object] = {}
    for path in sorted(folder.glob("deal-*.json")):
        data = orjson.loads(path.read_bytes())
        for m in data["matches"]:
            del m["cpu"]
        out[path.name] = data
    return out


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny plan played in one run (the tests below read it, and copy it to change
    it)."""
    out = tmp_path_factory.mktemp("bench") / "whole"
    bots = _bench()
    assert bots.run_part(_tiny(bots), "1/1", out, say=False) == 2
    return out


def test_bench_bots_parts_combined_give_what_one_run_gives(tmp_path: Path,
                                                             whole: Path) -> None:
    bots = _bench()
    plan = _tiny(bots)
    split = tmp_path / "split"
    assert bots.run_part(plan, "2/2", split, say=False) == 1
    assert bots.run_part(plan, "1/2", split, say=False) == 1
    assert bots.run_part(plan, "1/2", split, say=False) == 0  # (a rerun skips them)
    assert _results(whole) == _results(split)
    assert len(_results(whole)) == 2
    for folder in (whole, split):
        p, count, _rows = bots.report(folder)
        assert (p, count) == (plan, 2)
    strip = [(r.bot, r.name, r.summary, r.stats, r.makeable_stats)
             for r in bots.report(whole)[2]]
    assert strip == [(r.bot, r.name, r.summary, r.stats, r.makeable_stats)
                     for r in bots.report(split)[2]]
    assert [r.bot for r in bots.report(whole)[2]] == ["random", "heuristic", "pimc",
                                                       "oracle"]


def test_a_lever_reuses_the_matches_another_folder_played_the_same_way(
        tmp_path: Path, whole: Path) -> None:
    bots = _bench()
    plan = _tiny(bots)
    lever = bots.plan_of(4, 2, 3, "fft", "pimc:samples=1,nodes=500,auction=5,habits=0",
                         "oracle:nodes=2000", 1, 20_000)
    base, other = tmp_path / "base", tmp_path / "lever"
    shutil.copytree(whole, base)
    # a mark put in the base's matches shows which are taken as they are: the heuristic's
    # and the oracle's (the same bots, deals and makeable count), not pimc's
    for path in base.glob("deal-*.json"):
        data = orjson.loads(path.read_bytes())
        for m in data["matches"]:
            m["cpu"] = -1.0
        path.write_bytes(orjson.dumps(data))
    assert bots.run_part(lever, "1/1", other, say=False, reuse=base) == 2
    for path in other.glob("deal-*.json"):
        mine = orjson.loads(path.read_bytes())["matches"]
        theirs = orjson.loads((base / path.name).read_bytes())["matches"]
        assert (mine[0], mine[2]) == (theirs[0], theirs[2])
        assert mine[1]["cpu"] >= 0
    # (the name the plan writes: pimc's default bid shift at four players written out)
    assert bots.report(other)[2][2].name == "pimc(samples=1,nodes=500,auction=5,bid_shift=-3)"
    # a changed default shows in the plan: pimc bidding as the heuristic (bid_shift=0, the
    # default before BID_SHIFT) is another bot than the default pimc, at four players
    zero = bots.plan_of(4, 2, 3, "fft", "pimc:samples=1,nodes=500,bid_shift=0,auction=0,habits=0",
                        "oracle:nodes=2000", 1, 20_000)
    assert zero.names[1][0] == "pimc(samples=1,nodes=500)" != plan.names[1][0]
    assert plan.names[1][0] == "pimc(samples=1,nodes=500,bid_shift=-3)"
    assert set(bots.reusable(zero, plan, base, 1)) == {0, 2}  # not pimc's match
    assert set(bots.reusable(plan, plan, base, 1)) == {0, 1, 2}
    # a bot is known by its name, its settings written out: the default shift written in
    # the spec is the same pimc, its match taken
    written = bots.plan_of(4, 2, 3, "fft",
                           "pimc:samples=1,nodes=500,bid_shift=-3,auction=0,habits=0",
                           "oracle:nodes=2000", 1, 20_000)
    assert written.matches[1] != plan.matches[1]
    assert written.names == plan.names
    assert set(bots.reusable(written, plan, base, 1)) == {0, 1, 2}
    # every setting that changes the play is in the name: an oracle solving exactly from
    # another trick is another bot, its match played again
    exact = bots.plan_of(4, 2, 3, "fft", "pimc:samples=1,nodes=500,auction=0,habits=0",
                         "oracle:nodes=2000,exact_tricks=2", 1, 20_000)
    assert exact.names[2][0] == "oracle(nodes=2000,exact_tricks=2)"
    assert set(bots.reusable(exact, plan, base, 1)) == {0, 1}
    assert bots.plan_of(5, 2, 3, "fft", "pimc:samples=1,nodes=500", "oracle:nodes=2000", 1,
                        20_000).names[1][0] == "pimc(samples=1,nodes=500)"
    # the same plan takes every match, plays none
    again = tmp_path / "again"
    assert bots.run_part(plan, "1/1", again, say=False, reuse=str(base)) == 2  # (a str too)
    assert _results(again) == _results(base)
    assert {m["cpu"] for p in again.glob("deal-*.json")
            for m in orjson.loads(p.read_bytes())["matches"]} == {-1.0}
    # another makeable count on deal 1 (none there): its matches are played again; deal
    # 2, beyond both counts, is taken
    other_count = bots.plan_of(4, 2, 3, "fft", "pimc:samples=1,nodes=500,auction=0,habits=0",
                               "oracle:nodes=2000", 0, 20_000)
    fresh = tmp_path / "fresh"
    bots.run_part(other_count, "1/1", fresh, say=False, reuse=base)
    cpu = {p.name: [m["cpu"] for m in orjson.loads(p.read_bytes())["matches"]]
           for p in fresh.glob("deal-*.json")}
    assert min(cpu["deal-000001.json"]) >= 0
    assert cpu["deal-000002.json"] == [-1.0] * 3
    # given more than once, each match comes from the first folder that played it so: the
    # lever's pimc with the base's random and oracle, nothing played
    for path in other.glob("deal-*.json"):
        data = orjson.loads(path.read_bytes())
        for m in data["matches"]:
            m["cpu"] = -2.0
        path.write_bytes(orjson.dumps(data))
    both = tmp_path / "both"
    assert bots.run_part(lever, "1/1", both, say=False, reuse=[base, other]) == 2
    assert {p.name: [m["cpu"] for m in orjson.loads(p.read_bytes())["matches"]]
            for p in both.glob("deal-*.json")} == {
        "deal-000001.json": [-1.0, -2.0, -1.0], "deal-000002.json": [-1.0, -2.0, -1.0]}
    assert _results(both) == _results(other)
    first = tmp_path / "first"
    assert bots.run_part(lever, "1/1", first, say=False, reuse=[other, str(base)]) == 2
    assert {m["cpu"] for p in first.glob("deal-*.json")
            for m in orjson.loads(p.read_bytes())["matches"]} == {-2.0}
    with pytest.raises(bots.UsageError, match="no benchmark plan"):
        bots.run_part(lever, "1/1", tmp_path / "none", say=False, reuse=tmp_path)


def test_bench_bots_report_says_how_many_deals_are_in(tmp_path: Path) -> None:
    bots = _bench()
    plan = _tiny(bots, deals=3)
    bots.run_part(plan, "1/3", tmp_path, say=False)
    p, count, rows = bots.report(tmp_path)
    lines = bots.text(p, count, rows)
    assert lines[0].startswith("4 players, 1 of the 3 deals planned in")
    assert rows[1].summary is None  # (the heuristic: the reference, 0 by definition)
    data = bots.as_json(p, count, rows)
    assert data["deals_in"] == 1
    assert [r["bot"] for r in data["rows"]] == [
        "random", "heuristic", "pimc", "oracle"]


def test_bench_bots_report_says_whether_the_deals_show_half_the_gap(
        tmp_path: Path, whole: Path) -> None:
    """pimc less half the oracle, deal by deal: its interval says whether pimc closes
    half of the heuristic-oracle gap, which the share of the two means cannot."""
    bots = _bench()
    folder = tmp_path / "half"
    shutil.copytree(whole, folder)

    def results(pairs: dict[int, tuple[int, int]]) -> None:
        for deal, (pimc, oracle) in pairs.items():
            path = folder / f"deal-{deal:06d}.json"
            data = orjson.loads(path.read_bytes())
            data["matches"][1]["result"], data["matches"][2]["result"] = pimc, oracle
            path.write_bytes(orjson.dumps(data))

    # pimc 10 and 30 where the oracle makes 0 and 20: 10 - 0 and 30 - 10, a mean of 15,
    # its interval over two deals wide
    results({1: (10, 0), 2: (30, 20)})
    half = bots.half_gap(folder)
    assert half.mean == 15.0
    assert half.low < 0 < half.high
    p, count, rows = bots.report(folder)
    assert bots.text(p, count, rows, half)[-2] == (
        f"pimc less half the oracle, a deal: +15.0 ({half.low:+,.1f} to {half.high:+,.1f}):"
        " half the gap not shown either way")
    assert bots.as_json(p, count, rows, half)["pimc_less_half_the_oracle"]["mean"] == 15.0
    # the same gain on every deal: shown; pimc at a third of the oracle's: less shown
    results({1: (10, 10), 2: (10, 10)})
    assert bots.text(p, count, rows, bots.half_gap(folder))[-2].endswith(
        "+5.0 (+5.0 to +5.0): half the gap shown")
    results({1: (10, 30), 2: (10, 30)})
    assert bots.text(p, count, rows, bots.half_gap(folder))[-2].endswith(
        ": less than half shown")
    # one deal: no interval, nothing said
    (folder / "deal-000002.json").unlink()
    assert bots.half_gap(folder) is None
    assert not any("half the oracle" in line for line in bots.text(p, count, rows))


def test_bench_bots_refuses_another_plan_in_the_same_folder(tmp_path: Path) -> None:
    bots = _bench()
    bots.run_part(_tiny(bots, deals=3), "3/3", tmp_path, say=False)
    with pytest.raises(bots.UsageError, match="another plan"):
        bots.run_part(_tiny(bots, deals=4), "4/4", tmp_path, say=False)
    assert bots.main(["--deals", "4", "--pimc", "pimc:samples=1,nodes=500,auction=0,habits=0",
                      "--oracle", "oracle:nodes=2000", "--part", "4/4", "--out",
                      str(tmp_path)]) == 2


def test_bench_bots_parts_share_the_deals_out_whole() -> None:
    bots = _bench()
    for deals in (1, 7, 2000):
        for m in (1, 3, 16):
            numbers = [k for i in range(1, m + 1) for k in bots.part_range(f"{i}/{m}", deals)]
            assert numbers == list(range(1, deals + 1))
    for bad in ("0/3", "4/3", "3", "a/b", "1/0"):
        with pytest.raises(bots.UsageError):
            bots.part_range(bad, 10)


def test_bench_bots_report_refuses_a_broken_deal_file_without_a_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bots = _bench()
    bots.run_part(_tiny(bots, deals=3), "3/3", tmp_path, say=False)
    (tmp_path / "deal-000001.json").write_bytes(b'{"deal": 1, "matches": [{"a": 2}]}')
    assert bots.main(["--report", str(tmp_path)]) == 2
    assert "not a benchmark deal" in capsys.readouterr().err
    (tmp_path / "deal-000001.json").write_bytes(b"{half")
    assert bots.main(["--report", str(tmp_path)]) == 2
    assert bots.main(["--report", str(tmp_path / "nowhere")]) == 2



def test_bench_bots_compare_pairs_two_folders_pimc_matches_deal_by_deal(
        tmp_path: Path, whole: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bots = _bench()
    other = tmp_path / "other"
    shutil.copytree(whole, other)
    # B: another pimc (as its plan names it), whose results are A's moved by deal
    plan = orjson.loads((other / "plan.json").read_bytes())
    plan["names"][1][0] = "pimc(samples=1,nodes=500,auction=5,habits=4)"
    (other / "plan.json").write_bytes(orjson.dumps(plan))
    a_results, moved = [], {1: 30, 2: -10}
    for k, step in moved.items():
        path = other / f"deal-{k:06d}.json"
        data = orjson.loads(path.read_bytes())
        a_results.append(data["matches"][1]["result"])
        data["matches"][1]["result"] += step
        data["matches"][1]["cpu"] = 7.0
        path.write_bytes(orjson.dumps(data))
    oracle = [orjson.loads((whole / f"deal-{k:06d}.json").read_bytes())["matches"][2]["result"]
              for k in moved]
    c = bots.compare(whole, other)
    assert c.names == ("pimc(samples=1,nodes=500,bid_shift=-3)",
                       "pimc(samples=1,nodes=500,auction=5,habits=4)")
    assert (c.difference.deals, c.difference.mean) == (2, 10.0)
    assert (c.difference.won, c.difference.lost, c.difference.even) == (1, 1, 0)
    assert c.difference.low is not None
    assert c.difference.high is not None
    assert c.difference.low < 10.0 < c.difference.high
    assert c.means == (sum(a_results) / 2, sum(a_results) / 2 + 10.0)
    assert c.oracle == sum(oracle) / 2
    assert c.cpu[1] == 14.0
    assert bots.main(["--compare", str(whole), str(other)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("B pimc(samples=1,nodes=500,auction=5,habits=4) less A"
                               " pimc(samples=1,nodes=500,bid_shift=-3), in duplicate"
                               " against the"
                               " heuristic on the 2 deals both hold")
    assert "+10.0 a deal" in lines[0]
    assert bots.main(["--compare", str(whole), str(other), "--format", "json"]) == 0
    data = orjson.loads(capsys.readouterr().out)
    assert (data["deals"], data["difference"], data["b_better"]) == (2, 10.0, 1)
    # the oracle matches, paired the same way: the same in both folders here
    o = bots.compare(whole, other, match=bots.ORACLE_MATCH)
    assert o.names == ("oracle(nodes=2000)", "oracle(nodes=2000)")
    assert (o.difference.deals, o.difference.mean, o.difference.even) == (2, 0.0, 2)
    assert o.means == (sum(oracle) / 2, sum(oracle) / 2)
    assert o.oracle == sum(a_results) / 2 + 10.0  # the other end of the gap: B's pimc
    assert bots.main(["--compare", str(whole), str(other), "--match", "oracle"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("B oracle(nodes=2000) less A oracle(nodes=2000)")
    assert "B's pimc" in out
    assert "CPU of the oracle matches there" in out
    assert bots.main(["--compare", str(whole), str(other), "--match", "oracle",
                      "--format", "json"]) == 0
    data = orjson.loads(capsys.readouterr().out)
    assert (data["matches"], data["pimc"]) == ("oracle", sum(a_results) / 2 + 10.0)
    with pytest.raises(ValueError, match="ORACLE_MATCH"):
        bots.compare(whole, other, match=0)
    # only the deals both hold are paired; other deals, or none in common, are refused
    (other / "deal-000002.json").unlink()
    assert bots.compare(whole, other).difference.deals == 1
    (other / "deal-000001.json").unlink()
    with pytest.raises(bots.UsageError, match="no deal in common"):
        bots.compare(whole, other)
    elsewhere = tmp_path / "elsewhere"
    bots.run_part(bots.plan_of(4, 3, 3, "fft", "pimc:samples=1,nodes=500,auction=0,habits=0",
                               "oracle:nodes=2000", 1, 20_000), "1/3", elsewhere, say=False)
    with pytest.raises(bots.UsageError, match="other deals"):
        bots.compare(whole, elsewhere)
    assert bots.main(["--compare", str(whole), str(tmp_path / "none")]) == 2
