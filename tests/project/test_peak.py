"""The measure of the memory tests (tests/support/peak.py): a command's own peak, whatever the test
process holds (issue 39)."""

from __future__ import annotations

import sys

import pytest
from peak import peak_of

MB = 1 << 20

pytestmark = [pytest.mark.process,
              pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ru_maxrss in KiB")]


def test_a_command_peak_does_not_count_the_memory_of_the_test_process() -> None:
    # ru_maxrss from os.wait4 on a child of the test process gave this 300 MB: Linux keeps
    # the size of the process it was forked from. A 150 MB bound failed once earlier tests
    # had grown the test process (212 MB), and "the same memory for six times the deals"
    # compared the test process with itself.
    held = bytearray(b"x") * (300 * MB)  # resident: every page written
    small = peak_of([sys.executable, "-c", "pass"])
    assert len(held) == 300 * MB
    assert small.code == 0
    assert small.rss < 64 * MB, f"{small.rss / MB:.0f} MB"


def test_a_command_peak_counts_its_own_memory() -> None:
    ran = peak_of([sys.executable, "-c", "held = b'x' * (200 << 20)"])
    assert ran.code == 0
    assert ran.rss > 200 * MB, f"{ran.rss / MB:.0f} MB"


def test_a_command_exit_status_and_memory_limit_are_its_own() -> None:
    assert peak_of([sys.executable, "-c", "raise SystemExit(3)"]).code == 3
    runaway = peak_of([sys.executable, "-c", "held = b'x' * (200 << 20)"], limit=100 * MB)
    assert runaway.code == 1  # MemoryError, at once
    assert runaway.rss < 100 * MB
