"""Shared test configuration: hypothesis profiles, the markers, the isolation of each test,
corpus paths.

- ``TAROT_SLOW=1`` runs the tests marked ``slow`` (long fuzz and differential runs) and
  switches hypothesis to the ``slow`` profile (thousands of examples per property).
- ``process`` marks the tests that start a process (``subprocess``, ``os.fork``, the fork
  servers of tests/support/forkserver.py) or a browser (the ``browser`` fixture marks its tests
  itself). The quick lane, ``pytest -m "not slow and not process"``, leaves them out; a
  test that starts a process without the mark fails, so the lane stays what it says.
- Every test leaves the test process as it found it: a thread it started that still runs
  after it, or an environment variable it changed and did not restore, fails it (and the
  environment is restored for the next test). ``--shuffle SEED`` runs the test files, and
  the tests of each file, in an order shuffled by SEED, to show that no test needs
  another's leftovers (issue 39).
- The shared corpus of other programs' records lives beside the project, in
  ``../shared/corpus``; tests that read it skip when it is absent.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from forkserver import close_shared
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
#: The tests read English unless they ask for French: a French locale on the machine running
#: them must not change what the other tests expect (tests/i18n/test_i18n.py sets it per run).
os.environ["TAROT_LANG"] = "en"

SLOW = os.environ.get("TAROT_SLOW", "") not in ("", "0")

#: Python keeps each module it compiles, and pytest each test module it rewrites, in a
#: cache of bytecode. With PYTHONDONTWRITEBYTECODE=1 it keeps none, and every run, in each
#: xdist worker, compiles the package and rewrites the 200 test modules again: 7 of the
#: 12.5 s of CPU a worker takes to collect the quick lane. The test run keeps that cache
#: all the same, out of the source tree (where the variable asks for none) in
#: .pytest_cache/pycache, which git ignores. (The processes the tests start are untouched.)
if sys.dont_write_bytecode:
    sys.pycache_prefix = str(ROOT / ".pytest_cache" / "pycache")
    sys.dont_write_bytecode = False

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
settings.register_profile(
    "quick",
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,
)
settings.load_profile("slow" if SLOW else os.environ.get("HYPOTHESIS_PROFILE", "ci"))

#: Fixtures several folders' tests take by name (tests/support): the serve tests' databases.
pytest_plugins = ["serve_databases"]


#: The doctests that start processes (a docstring cannot carry a mark).
PROCESS_DOCTESTS = frozenset({"tarotnotation.workers"})


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--shuffle", metavar="SEED", type=int, default=None,
        help="run the test files, and the tests of each, in an order shuffled by SEED")


def pytest_configure(config: pytest.Config) -> None:
    """A run that leaves out the ``process`` tests is the quick lane: ``TAROT_QUICK=1``
    (before the test modules, and tests/support/budget.py, are imported) and hypothesis's
    ``quick`` profile, unless TAROT_SLOW=1 or HYPOTHESIS_PROFILE says otherwise."""
    if re.search(r"\bnot\s+process\b", config.getoption("markexpr") or ""):
        os.environ["TAROT_QUICK"] = "1"
    if (os.environ.get("TAROT_QUICK", "") not in ("", "0") and not SLOW
            and "HYPOTHESIS_PROFILE" not in os.environ):
        settings.load_profile("quick")


def pytest_report_header(config: pytest.Config) -> list[str]:
    seed = config.getoption("shuffle")
    lines = [] if seed is None else [f"shuffled: --shuffle {seed}"]
    if os.environ.get("TAROT_QUICK", "") not in ("", "0") and not SLOW:
        lines.append("quick lane: TAROT_QUICK=1, fewer random cases (tests/support/budget.py)")
    return lines


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Shuffle with ``--shuffle``; mark the browser's tests ``process``; skip tests marked
    ``slow`` unless TAROT_SLOW=1."""
    seed = config.getoption("shuffle")
    if seed is not None:
        items[:] = shuffled(items, seed)
    for item in items:
        if ("browser" in getattr(item, "fixturenames", ()) or item.get_closest_marker("browser")
                or (isinstance(item, pytest.DoctestItem) and item.name in PROCESS_DOCTESTS)):
            item.add_marker(pytest.mark.process)
    if SLOW:
        return
    skip = pytest.mark.skip(reason="slow: set TAROT_SLOW=1 to run")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


def shuffled(items: list[pytest.Item], seed: int) -> list[pytest.Item]:
    """The items in an order drawn from ``seed``: the files shuffled, then the classes (and
    the functions outside one) of each file, then the tests of each class. Each file's
    tests stay together, so that its module-scoped fixtures are still made once; the same
    seed gives the same order in every xdist worker, as xdist requires."""
    rng = random.Random(seed)
    files: dict[str, dict[str, list[pytest.Item]]] = {}
    for item in items:
        cls = getattr(item, "cls", None)
        group = files.setdefault(str(item.path), {})
        group.setdefault("" if cls is None else cls.__qualname__, []).append(item)
    order: list[pytest.Item] = []
    for path in rng.sample(sorted(files), len(files)):
        groups = files[path]
        for name in rng.sample(sorted(groups), len(groups)):
            order.extend(rng.sample(groups[name], len(groups[name])))
    return order


#: The audit events of a process starting (a fork server's run: tests/support/forkserver.py).
STARTS = frozenset({"subprocess.Popen", "os.fork", "os.forkpty", "os.posix_spawn",
                    "os.system", "os.exec", "os.spawn", "tests.forkserver.run"})
#: Set by pytest itself at each phase of a test.
_PYTEST_CURRENT = "PYTEST_CURRENT_TEST"
#: The starts seen during the running test (its function-scoped fixtures included).
_started: list[str] = []


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event in STARTS:
        _started.append(event)


sys.addaudithook(_audit)


@pytest.fixture(autouse=True)
def _each_test_leaves_the_process_as_it_found_it(request: pytest.FixtureRequest
                                                 ) -> Iterator[None]:
    """Fails a test that leaves a thread running or the environment changed (restoring
    the environment), or that starts a process without the ``process`` mark."""
    threads = set(threading.enumerate())
    environ = dict(os.environ)
    _started.clear()
    yield
    faults = []
    if _started and request.node.get_closest_marker("process") is None:
        faults.append(f"it started a process ({', '.join(sorted(set(_started)))}) without"
                      " the `process` mark (@pytest.mark.process, see tests/conftest.py)")
    for thread in set(threading.enumerate()) - threads:
        if thread.name.startswith("asyncio_") and "browser" in request.fixturenames:
            # the default executor of the session's browser's event loop (Playwright
            # writes a screenshot to a path in it): the session's, ended with the browser
            continue
        thread.join(timeout=5)  # a helper thread finishing its work
        if thread.is_alive():
            faults.append(f"its thread {thread.name!r} still runs")
    changed = sorted(name for name in environ.keys() | os.environ.keys()
                     if environ.get(name) != os.environ.get(name) and name != _PYTEST_CURRENT)
    for name in changed:
        if name in environ:
            os.environ[name] = environ[name]
        else:
            del os.environ[name]
    if changed:
        faults.append(f"it changed the environment variables {', '.join(changed)}"
                      " (monkeypatch.setenv restores them)")
    if faults:
        pytest.fail("this test does not leave the test process as it found it: "
                    + "; ".join(faults), pytrace=False)


@pytest.fixture(scope="session", autouse=True)
def _end_the_shared_fork_server() -> Iterator[None]:
    """Ends the fork server of ``test_cli.run_forked`` (tests/support/forkserver.py) with the
    session, when a test started it."""
    yield
    close_shared()


@pytest.fixture
def corpus() -> Path:
    """The shared corpus folder; skips the test when it is absent."""
    if not CORPUS.is_dir():
        pytest.skip("the shared corpus (../shared/corpus) is absent")
    return CORPUS


# --- the browser of the browser tests (tests/html/test_html_browser.py, test_i18n_pages.py) ---
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
