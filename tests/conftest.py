"""Shared test configuration: hypothesis profiles, the opt-in slow marker, corpus paths.

- ``TAROT_SLOW=1`` runs the tests marked ``slow`` (long fuzz and differential runs) and
  switches hypothesis to the ``slow`` profile (thousands of examples per property).
- The shared corpus of other programs' records lives beside the project, in
  ``../shared/corpus``; tests that read it skip when it is absent.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
#: The tests read English unless they ask for French: a French locale on the machine running
#: them must not change what the other tests expect (tests/test_i18n.py sets it per run).
os.environ["TAROT_LANG"] = "en"

SLOW = os.environ.get("TAROT_SLOW", "") not in ("", "0")

#: A run started in the background by a shell without job control (``nohup … &``, some CI
#: runners) ignores SIGINT, and every ``tarot`` the tests start would inherit that: it
#: rightly leaves an ignored signal ignored, so the tests of Ctrl-C could interrupt
#: nothing. The test process takes Python's own handler instead, so that the processes it
#: starts begin with the default.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

settings.register_profile(
    "ci",
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,
)
settings.register_profile(
    "slow",
    max_examples=3000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("slow" if SLOW else os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip tests marked ``slow`` unless TAROT_SLOW=1."""
    if SLOW:
        return
    skip = pytest.mark.skip(reason="slow: set TAROT_SLOW=1 to run")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def corpus() -> Path:
    """The shared corpus folder; skips the test when it is absent."""
    if not CORPUS.is_dir():
        pytest.skip("the shared corpus (../shared/corpus) is absent")
    return CORPUS
