"""The benchmark scripts of ``bench/`` loaded as modules, for the tests of their
bookkeeping (they are scripts, not a package: each is loaded from its file)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[2] / "bench"


def load(name: str) -> ModuleType:
    """``bench/NAME.py`` as a fresh module (named ``bench_NAME``)."""
    module_name = f"bench_{name}"
    spec = importlib.util.spec_from_file_location(module_name, BENCH / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # (its dataclasses look their module up)
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[module_name]
    return module
