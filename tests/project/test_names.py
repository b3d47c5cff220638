"""One name, one meaning (issue 30): a name that meant two things is renamed, and the old
name the package gave keeps working, with a DeprecationWarning that says the new one."""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable

import pytest

import tarotnotation
from tarotnotation import replay
from tarotnotation.analysis import Position
from tarotnotation.replay import Turn


def _old(get: Callable[[], object]) -> tuple[object, list[warnings.WarningMessage]]:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        value = get()
    return value, seen


def test_a_point_of_a_recorded_deal_is_a_turn_and_a_position_is_the_solvers() -> None:
    # (the replay's Position, what legal_moves gives, is Turn; analysis.Position is a deal
    # in play for the solver)
    assert "Turn" in tarotnotation.__all__
    assert "Position" not in tarotnotation.__all__
    assert tarotnotation.Turn is Turn
    assert Position.__module__ == "tarotnotation.analysis.position"


@pytest.mark.parametrize("get", [lambda: tarotnotation.Position, lambda: replay.Position],
                         ids=["tarotnotation.Position", "replay.Position"])
def test_the_old_name_position_is_turn_with_a_warning(get: Callable[[], object]) -> None:
    value, seen = _old(get)
    assert value is Turn
    assert [w.category for w in seen] == [DeprecationWarning]
    assert "tarotnotation.replay.Turn" in str(seen[0].message)


def test_an_unknown_name_of_the_replay_is_still_an_attribute_error() -> None:
    with pytest.raises(AttributeError):
        importlib.import_module("tarotnotation.replay").Nothing  # noqa: B018


def test_the_narrator_is_named_so_and_annotate_is_its_old_name_with_a_warning() -> None:
    import sys

    from tarotnotation import narrator

    sys.modules.pop("tarotnotation.annotate", None)
    value, seen = _old(lambda: importlib.import_module("tarotnotation.annotate"))
    assert [w.category for w in seen] == [DeprecationWarning]
    assert "tarotnotation.narrator" in str(seen[0].message)
    assert all(getattr(value, name) is getattr(narrator, name) for name in narrator.__all__)
    assert sorted(value.__all__) == sorted(narrator.__all__)  # type: ignore[attr-defined]


def test_no_two_modules_of_the_package_share_a_name() -> None:
    # (html/fast.py and notation/fast.py, values.py and notation/values.py were two)
    import pathlib

    root = pathlib.Path(tarotnotation.__file__).parent
    names = [p.name for p in root.rglob("*.py") if p.name != "__init__.py"]
    assert sorted({n for n in names if names.count(n) > 1}) == []
