"""How many random cases a test draws: CI's count by default, a fifth of it in the quick
lane, the long run's with ``TAROT_SLOW=1``.

The quick lane (``pytest -m "not slow and not process"``: tests/conftest.py sets
``TAROT_QUICK=1`` for a run that leaves out the ``process`` tests; or ``TAROT_QUICK=1`` by
hand) runs every test and every property with fewer random cases, for a person at work; the
whole suite, as CI runs it, draws CI's count, and ``TAROT_SLOW=1`` the long run's. A test's
own variable (``TAROT_FUZZ_EXAMPLES``...) still sets its count whatever the lane.
"""

from __future__ import annotations

import os

#: ``TAROT_SLOW=1``: the long runs (tests/conftest.py).
SLOW = os.environ.get("TAROT_SLOW", "") not in ("", "0")
#: ``TAROT_QUICK=1``: the quick lane.
QUICK = not SLOW and os.environ.get("TAROT_QUICK", "") not in ("", "0")


def cases(ci: int, *, slow: int | None = None, quick: int | None = None) -> int:
    """The count of random cases to draw: ``ci`` in the whole suite, ``slow`` (``ci`` if
    not given) with ``TAROT_SLOW=1``, ``quick`` (a fifth of ``ci``, at least one) in the
    quick lane."""
    if SLOW:
        return ci if slow is None else slow
    if QUICK:
        return max(1, ci // 5) if quick is None else quick
    return ci
