"""Immutable value classes that cost nothing to define (issue 17: start-up).

A frozen dataclass is built when its module is imported: :mod:`dataclasses` (which
imports :mod:`inspect`, :mod:`ast`, :mod:`dis`, :mod:`tokenize`...) and the compiling of
each class's methods cost more than checking a deal (about 3.6 million instructions a
class, 40 million for the module). The value classes of the validation path are
:class:`Value` subclasses instead: their fields are their annotations, in order (their
``__slots__``, in any order, hold them), their ``__init__`` is written out, and this base
gives them what a frozen dataclass has, the same way: equality and hash over the fields
(``NotImplemented`` against another class), the dataclass ``repr``, no assignment,
pickling, ``__match_args__``; :func:`replace` and :func:`fields` stand for
:func:`dataclasses.replace` and :func:`dataclasses.fields`.

>>> class Point(Value):
...     __slots__ = ("x", "y")  # (the fields: the annotations, in order)
...     x: int
...     y: int
...     def __init__(self, x: int, y: int = 0) -> None:
...         object.__setattr__(self, "x", x)
...         object.__setattr__(self, "y", y)
>>> p = Point(1)
>>> p, p == Point(1, 0), hash(p) == hash((1, 0)), replace(p, y=5), fields(Point)
(Point(x=1, y=0), True, True, Point(x=1, y=5), ('x', 'y'))
>>> p.x = 3
Traceback (most recent call last):
...
AttributeError: cannot assign to field 'x'
>>> import copy  # (pickled the same way: tests/kernel/test_values.py)
>>> copy.copy(p) == p, Point.__match_args__
(True, ('x', 'y'))
"""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["Value", "fields", "replace"]

class Value:
    """The base of a frozen value class (see the module's docstring)."""

    __slots__ = ()
    #: The field names, in order (set for each subclass).
    __match_args__: tuple[str, ...] = ()
    #: The fields' values as a tuple (set for each subclass).
    __values: Callable[[object], tuple[Any, ...]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # (not inspect.get_annotations: importing inspect is what this module avoids)
        names = tuple(cls.__dict__.get("__annotations__", ()))  # noqa: RUF063
        slots = cls.__dict__.get("__slots__")
        if slots is not None and set(slots) != set(names):
            raise TypeError(f"{cls.__name__}: __slots__ {slots} do not hold the fields {names}")
        cls.__match_args__ = names  # type: ignore[misc]
        get = attrgetter(*names)
        # (attrgetter of one name gives the value itself, not a 1-tuple; a staticmethod
        # so that it is called with the value, as a plain function would be)
        cls.__values = staticmethod(
            get if len(names) > 1 else (lambda v: (get(v),)))

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self.__values(self) == self.__values(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.__values(self))

    def __repr__(self) -> str:
        values = self.__values(self)
        inner = ", ".join(f"{name}={value!r}"
                          for name, value in zip(self.__match_args__, values, strict=True))
        return f"{self.__class__.__qualname__}({inner})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (self.__class__, self.__values(self))

    def astuple(self) -> tuple[Any, ...]:
        """The fields' values, in order (not recursive, unlike ``dataclasses.astuple``)."""
        return self.__values(self)


#: (bound after the class: a string bound would be compiled at import)
V = TypeVar("V", bound=Value)


def replace(value: V, /, **changes: Any) -> V:
    """A copy of ``value`` with some fields changed (as :func:`dataclasses.replace`)."""
    kwargs = dict(zip(value.__match_args__, value.astuple(), strict=True))
    kwargs.update(changes)
    return value.__class__(**kwargs)


def fields(cls: type[Value]) -> tuple[str, ...]:
    """The field names of a value class, in order."""
    return cls.__match_args__
