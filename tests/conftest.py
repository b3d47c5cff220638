"""Shared test configuration: hypothesis profiles, the opt-in slow marker, corpus paths.

- ``TAROT_SLOW=1`` runs the tests marked ``slow`` (long fuzz and differential runs) and
  switches hypothesis to the ``slow`` profile (thousands of examples per property).
- The shared corpus of other programs' records lives beside the project, in
  ``../shared/corpus``; tests that read it skip when it is absent.
"""

from __future__ import annotations

import os
import shutil
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from forkserver import close_shared
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


@pytest.fixture(scope="session", autouse=True)
def _end_the_shared_fork_server() -> Iterator[None]:
    """Ends the fork server of ``test_cli.run_forked`` (tests/forkserver.py) with the
    session, when a test started it."""
    yield
    close_shared()


@pytest.fixture
def corpus() -> Path:
    """The shared corpus folder; skips the test when it is absent."""
    if not CORPUS.is_dir():
        pytest.skip("the shared corpus (../shared/corpus) is absent")
    return CORPUS


# --- the browser of the browser tests (tests/test_html_browser.py, test_i18n_pages.py) ---
# One definition here: a fixture imported into a second test module is a second session
# fixture, and a second Playwright started in the same worker fails ("Sync API inside
# the asyncio loop").

CHROMIUM = os.environ.get("TAROT_CHROMIUM", "/usr/bin/chromium")
REQUIRED = os.environ.get("TAROT_BROWSER", "") == "required"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-default-apps", "--disable-extensions"]


def _unavailable() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed (pip install -e '.[test]')"
    if not (Path(CHROMIUM).is_file() or shutil.which(CHROMIUM)):
        return f"no Chromium at {CHROMIUM} (apt-get install chromium, or set TAROT_CHROMIUM)"
    return None


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Chromium for the session."""
    why = _unavailable()
    if why is not None:
        if REQUIRED:
            pytest.fail(f"TAROT_BROWSER=required but {why}")
        pytest.skip(why)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield chromium
        chromium.close()
