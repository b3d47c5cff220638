"""The value classes written out (tarotnotation/values.py, issue 17) behave as the frozen
dataclasses they replace: each one is held here to a dataclass of the same fields built
from its annotations, on equality, hash, repr, replace, pickling and refused assignment."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pickle
from typing import Any

import pytest

from tarotnotation import values
from tarotnotation.values import Value

#: Every module that defines value classes.
MODULES = ("tarotnotation.diagnostics", "tarotnotation.rules", "tarotnotation.source",
           "tarotnotation.formats.base", "tarotnotation.scoring", "tarotnotation.plausibility",
           "tarotnotation.bounds", "tarotnotation.cutting", "tarotnotation.checking",
           "tarotnotation.notation.skim")


def value_classes() -> list[type[Value]]:
    found = []
    for name in MODULES:
        module = importlib.import_module(name)
        found += [c for c in vars(module).values()
                  if isinstance(c, type) and issubclass(c, Value) and c.__module__ == name]
    return found


def test_every_module_is_walked() -> None:
    assert {c.__module__ for c in value_classes()} == set(MODULES)
    assert len(value_classes()) >= 16


@pytest.mark.parametrize("cls", value_classes(), ids=lambda c: c.__name__)
def test_the_init_takes_the_fields_in_their_order(cls: type[Value]) -> None:
    # replace() and pickling pass the fields by name and in order: the written-out
    # __init__ must take exactly them, in the annotations' order, nothing else.
    params = list(inspect.signature(cls.__init__).parameters)[1:]
    assert tuple(params) == values.fields(cls) == cls.__match_args__
    if "__slots__" in cls.__dict__:
        assert set(cls.__slots__) == set(values.fields(cls))


def _sample(cls: type[Value], salt: int) -> dict[str, Any]:
    """Arguments for every field: hashable stand-ins (the classes do not check types)."""
    return {name: (name, salt, i) for i, name in enumerate(values.fields(cls))}


@pytest.mark.parametrize("cls", value_classes(), ids=lambda c: c.__name__)
def test_a_value_behaves_as_the_frozen_dataclass_of_its_fields(cls: type[Value]) -> None:
    twin = dataclasses.make_dataclass(cls.__name__, values.fields(cls), frozen=True,
                                      slots=True)
    twin.__qualname__ = cls.__qualname__
    a, b = cls(**_sample(cls, 1)), cls(**_sample(cls, 2))
    ta, tb = twin(**_sample(cls, 1)), twin(**_sample(cls, 2))
    assert (a == cls(**_sample(cls, 1)), a == b) == (True, False)
    assert a != ta  # (another class: NotImplemented both ways, as between dataclasses)
    assert hash(a) == hash(ta)
    assert hash(b) == hash(tb)
    if cls.__repr__ is Value.__repr__:
        assert repr(a) == repr(ta)
    first = values.fields(cls)[0]
    assert values.replace(a, **{first: "x"}) == cls(**{**_sample(cls, 1), first: "x"})
    assert a.astuple() == dataclasses.astuple(ta)
    with pytest.raises(AttributeError, match="cannot assign to field"):
        setattr(a, first, 1)
    with pytest.raises(AttributeError, match="cannot delete field"):
        delattr(a, first)


@pytest.mark.parametrize("cls", [c for c in value_classes() if c.__name__ != "Format"],
                         ids=lambda c: c.__name__)
def test_a_value_pickles(cls: type[Value]) -> None:
    # (the workers of -j N send them through pipes; a Format holds functions, not sent)
    a = cls(**_sample(cls, 3))
    assert pickle.loads(pickle.dumps(a)) == a


def test_the_real_values_keep_their_defaults_and_json() -> None:
    from tarotnotation.diagnostics import Code, Diagnostic, Location
    from tarotnotation.rules import Ruleset

    d = Diagnostic.make(Code.MUST_FOLLOW_SUIT, "x", trick=3, seat="S", card="T19", line=4)
    assert d.location == Location(line=4, trick=3, seat="S", card="T19")
    assert list(d.to_dict()) == ["code", "name", "severity", "message", "line", "trick",
                                 "seat", "card"]  # (the location's fields in their order)
    assert Diagnostic(Code.MUST_FOLLOW_SUIT, d.severity, "x").location == Location()
    assert repr(Location(line=2)) == ("Location(file=None, line=2, col=None, deal=None,"
                                      " trick=None, seat=None, card=None, path=None)")
    assert pickle.loads(pickle.dumps(Ruleset.pagat())) == Ruleset.pagat()
    assert values.replace(Ruleset(), misere=True).misere is True
