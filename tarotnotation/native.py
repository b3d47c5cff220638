"""The compiled twin of the rules kernel and the solver's search core, when it is built.

``pip install .`` compiles ``tarotnotation._kernel`` from ``tarotnotation/csrc`` (C through
the CPython API) when a C compiler is present; without one the install still succeeds and
everything runs on the pure-Python kernel (:mod:`tarotnotation.kernel`) and search
(:mod:`tarotnotation.analysis.search`). Setting ``TAROT_PURE=1`` forces the pure paths,
built or not (CI runs the differential tests both ways).

The twin's functions take plain ints, as the kernel's do; a ruleset is passed as the int
:func:`rule_flags` makes of it (only the switches that change play or counting).

>>> from tarotnotation.rules import Ruleset
>>> rule_flags(Ruleset.fft()) == CHELEM_EXCUSE
True
>>> rule_flags(Ruleset.pagat()) == TO_TRICK_WINNER | CHELEM_EXCUSE
True
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:  # (imported when used: ``tarot --version`` asks compiled() alone)
    from .rules import Ruleset

__all__ = [
    "CHELEM_EXCUSE",
    "FIRST_LEAD_FREE",
    "PETIT_IN_CHIEN_ANNULS",
    "TO_TRICK_WINNER",
    "WINS_LAST_TRICK",
    "compiled",
    "pure_forced",
    "rule_flags",
]

#: ``excuse_last_trick = to_trick_winner`` (else ``changes_camp``).
TO_TRICK_WINNER: Final = 1
#: ``petit_au_bout = wins_last_trick`` (else ``in_last_trick``).
WINS_LAST_TRICK: Final = 2
#: ``chelem_excuse_wins = true``.
CHELEM_EXCUSE: Final = 4
#: ``petit_in_chien = annuls``: not a switch of the play, only of the bulk quick check
#: (``_kernel.check_lines``, :func:`tarotnotation.quick.bulk_checker`).
PETIT_IN_CHIEN_ANNULS: Final = 256
#: The bulk check's flag for five_player_first_lead = free (csrc/bulk.h).
FIRST_LEAD_FREE: Final = 512


def rule_flags(rules: Ruleset) -> int:
    """The switches of ``rules`` that change play or counting, as the twin's ``flags``."""
    from .rules import ExcuseLastTrick, PetitAuBout

    flags = 0
    if rules.excuse_last_trick is ExcuseLastTrick.TO_TRICK_WINNER:
        flags |= TO_TRICK_WINNER
    if rules.petit_au_bout is PetitAuBout.WINS_LAST_TRICK:
        flags |= WINS_LAST_TRICK
    if rules.chelem_excuse_wins:
        flags |= CHELEM_EXCUSE
    return flags


def pure_forced() -> bool:
    """True when ``TAROT_PURE`` asks for the pure-Python paths."""
    return os.environ.get("TAROT_PURE", "") not in ("", "0")


_LOADED: dict[str, ModuleType | None] = {}


def compiled(*, force: bool = False) -> ModuleType | None:
    """The compiled module ``tarotnotation._kernel``, or None when it was not built or
    ``TAROT_PURE`` is set (``force=True`` ignores ``TAROT_PURE``, for the differential
    tests)."""
    if pure_forced() and not force:
        return None
    if "module" not in _LOADED:
        try:
            module: ModuleType | None = importlib.import_module("tarotnotation._kernel")
        except ImportError:
            module = None
        _LOADED["module"] = module
    return _LOADED["module"]
