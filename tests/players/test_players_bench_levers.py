"""bench/levers.py, pimc's levers screened by their double-dummy loss a decision: the
oracle at the truth's own budget loses nothing, a bot that cannot see does, and a
rerun resumes from what is kept."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType, SimpleNamespace

import orjson
import pytest
from bench_scripts import load


def _bench() -> ModuleType:
    return load("levers")


def test_the_oracle_at_the_truths_budget_loses_nothing_and_a_rerun_resumes(
        tmp_path: Path) -> None:
    levers = _bench()
    specs = ["oracle:nodes=3000", "random"]
    lines = levers.run(tmp_path, 2, 3000, specs)
    oracle = orjson.loads((tmp_path / "loss-4p-3000-oracle_nodes=3000.json").read_bytes())
    rand = orjson.loads((tmp_path / "loss-4p-3000-random.json").read_bytes())
    assert len(oracle) == len(rand) > 20
    assert set(oracle) == {0.0}
    assert sum(rand) > 0
    assert lines[0].startswith(f"{len(oracle)} decisions of 2 deals")
    assert lines[-2].startswith("| oracle:nodes=3000 | 0.000 |")
    # a rerun plays nothing again (the losses kept are read) and gives the same table
    (tmp_path / "loss-4p-3000-random.json").write_bytes(orjson.dumps([0.0] * len(rand)))
    again = levers.run(tmp_path, 2, 3000, specs)
    assert again[:-1] == lines[:-1]
    assert again[-1].startswith("| random | 0.000 |")


def test_the_table_gives_each_bots_loss_by_trick_and_its_difference_over_the_deals(
        ) -> None:
    levers = _bench()

    def point(deal: int, tricks: int) -> SimpleNamespace:
        return SimpleNamespace(deal=deal, view=SimpleNamespace(tricks=(None,) * tricks))

    points = [point(1, 0), point(1, 7), point(2, 13), point(3, 2)]
    lines = levers.table(points, {"a": [1.0, 2.0, 3.0, 2.0], "b": [0.0, 2.0, 1.0, 4.0]})
    assert lines[0].startswith("4 decisions of 3 deals")
    # b - a by deal: -1, -2, +2 (sum -1 over 4 decisions: -0.25); the deals' sd is
    # 2.0817, so the half-width is 1.96 * 2.0817 * sqrt(3) / 4 = 1.767
    assert lines[-2] == "| a | 2.000 | 1.50 | 2.00 | 3.00 | +0.000 (+0.000 to +0.000) |"
    assert lines[-1] == "| b | 1.750 | 2.00 | 2.00 | 1.00 | -0.250 (-2.017 to +1.517) |"
    one = levers.table(points[:2], {"a": [1.0, 2.0]})
    assert one[-1].endswith("+0.000 (one deal: none) |")


def test_a_folder_worked_out_for_other_decisions_is_refused(tmp_path: Path) -> None:
    levers = _bench()
    levers.run(tmp_path, 1, 500, ["random"])
    path = tmp_path / "truth-4p-500.json"
    kept = orjson.loads(path.read_bytes())
    kept["keys"][3] = "1:0000000000000000"
    path.write_bytes(orjson.dumps(kept))
    with pytest.raises(SystemExit, match="other decisions"):
        levers.run(tmp_path, 1, 500, ["random"])


def test_at_three_players_the_deals_are_three_players_and_the_last_tricks_run_to_24(
        tmp_path: Path) -> None:
    levers = _bench()
    lines = levers.run(tmp_path, 1, 500, ["random"], players=3)
    assert lines[2].startswith("| bot | loss | tricks 1-6 | 7-12 | 13-24 |")
    kept = orjson.loads((tmp_path / "truth-3p-500.json").read_bytes())
    points = list(levers.decisions(1, 3))
    assert {len(p.hands) for p in points} == {3}
    assert len(kept["truth"]) == len(points) > 24
    # a folder's 4-player truth is another file: nothing of the 3-player one is read
    levers.run(tmp_path, 1, 500, ["random"])
    assert (tmp_path / "truth-4p-500.json").exists()


def test_a_bots_losses_are_kept_under_its_name_at_the_number_of_players(
        tmp_path: Path) -> None:
    # pimc's samples default by the number of players: the losses of "pimc:nodes=200" at
    # three players are those of 30 samples, kept apart from a file of another default
    levers = _bench()
    old = tmp_path / "loss-3p-500-pimc_nodes=200.json"  # (named after the spec alone)
    old.write_bytes(orjson.dumps([0.0] * 500))
    lines = levers.run(tmp_path, 1, 500, ["random", "pimc:nodes=200"], players=3)
    kept = tmp_path / "loss-3p-500-pimc_samples=30,nodes=200.json"
    assert kept.exists()
    assert orjson.loads(old.read_bytes()) == [0.0] * 500  # (not read, not written)
    assert len(orjson.loads(kept.read_bytes())) == len(list(levers.decisions(1, 3)))
    assert lines[-1].startswith("| pimc:nodes=200 |")
