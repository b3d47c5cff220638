"""The compiled twin for the differential tests, and a hostile int to hand it.

:func:`twin_or_skip` is the body of each twin test module's ``twin`` fixture: the compiled
module ``tarotnotation._kernel``, the test skipped when it is not built, unless
``TAROT_REQUIRE_NATIVE=1`` (CI sets it): then a failure.
"""

from __future__ import annotations

import os
from types import ModuleType

import pytest

from tarotnotation.native import compiled


def twin_or_skip() -> ModuleType:
    """The compiled twin, forced past ``TAROT_PURE`` (see the module)."""
    module = compiled(force=True)
    if module is None:
        if os.environ.get("TAROT_REQUIRE_NATIVE"):
            pytest.fail("the compiled twin tarotnotation._kernel is not built")
        pytest.skip("the compiled twin tarotnotation._kernel is not built")
    return module


class Emptying:
    """An int (``value``) whose conversion empties ``items``, the list being read: a
    reader that lends a list's own items would read freed memory after it."""

    def __init__(self, items: list[object], value: int) -> None:
        self.items = items
        self.value = value

    def __index__(self) -> int:
        self.items.clear()
        return self.value
