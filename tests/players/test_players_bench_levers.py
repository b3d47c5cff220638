"""bench/levers.py, pimc's levers screened by their double-dummy loss a decision: the
oracle at the truth's own budget loses nothing, a bot that cannot see does, and a
rerun resumes from what is kept."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import orjson

BENCH = Path(__file__).resolve().parents[2] / "bench" / "levers.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_levers", BENCH)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_levers"] = module  # (its dataclasses look their module up)
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules["bench_levers"]
    return module


def test_the_oracle_at_the_truths_budget_loses_nothing_and_a_rerun_resumes(
        tmp_path: Path) -> None:
    levers = _bench()
    specs = ["oracle:nodes=3000", "random"]
    lines = levers.run(tmp_path, 2, 3000, specs)
    oracle = orjson.loads((tmp_path / "loss-3000-oracle_nodes=3000.json").read_bytes())
    rand = orjson.loads((tmp_path / "loss-3000-random.json").read_bytes())
    assert len(oracle) == len(rand) > 20
    assert set(oracle) == {0.0}
    assert sum(rand) > 0
    assert lines[0].startswith(f"{len(oracle)} decisions of 2 deals")
    assert lines[-2].startswith("| oracle:nodes=3000 | 0.000 |")
    # a rerun plays nothing again (the losses kept are read) and gives the same table
    (tmp_path / "loss-3000-random.json").write_bytes(orjson.dumps([0.0] * len(rand)))
    again = levers.run(tmp_path, 2, 3000, specs)
    assert again[:-1] == lines[:-1]
    assert again[-1].startswith("| random | 0.000 |")
