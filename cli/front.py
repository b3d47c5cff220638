"""The front door of the common invocations: ``tarot validate [-q] [-f json] PATH...``
run without typer.

Importing typer costs more than checking a file of a few deals (typer itself, and pydantic,
which typer's parameter types load): more than the whole start-up budget of issue 17 (120
ms for ``tarot validate`` of one deal). So :func:`tarotnotation.cli.app.main` first offers
the command line to :func:`run`, which takes a strict subset of what the typer app takes,
and hands anything else (any other option, ``--help``, ``--lang``, ``--``, a usage error, a
command not in :data:`tarotnotation.cli.app.FRONT_DOOR`) to the typer app, untouched.

The words it takes are not a second list: they are read from the command's own
declaration (:mod:`tarotnotation.cli.declare`), the same one typer reads. Of the command's
parameters it takes those whose kind it can parse strictly:

- the paths (the command's ``list[str]`` argument): any word that does not start with
  ``-``, and ``-`` (standard input); at least one;
- a flag (a ``bool`` option whose default is False): its names, each word alone;
- an option whose value is one of an enumeration's (``--format json``, ``-f json``,
  ``--format=json``): the value exactly as the enumeration writes it;
- an ``int`` option declared with no more than a help, a metavar and bounds (``-j 2``,
  ``--jobs=0``): its value in ASCII digits alone, within the bounds (``-j +2``, ``-j ٢``
  or ``-j -1`` go to typer, which reads or refuses them as it does).

Every other word, an option of any other kind included, sends the whole command line to
typer. The command then runs as typer runs it (the same function, wrapped the same way,
its exit status and signals handled by the same code: :mod:`tarotnotation.cli.status`),
so the two doors write the same bytes and exit with the same status:
``tests/test_cli_front.py`` runs a grid of command lines through both.
"""

from __future__ import annotations

import enum
import types
import typing
from typing import Any

from .app import ALIASES, COMMANDS, FRONT_DOOR
from .common import command
from .declare import Declared, declared
from .status import EXIT_OK, guarded

__all__ = ["declared_words", "parse", "run"]


def run(argv: list[str]) -> int | None:
    """The exit status of the command line ``argv`` (the words after ``tarot``) run here,
    or None, having done nothing, when it is one for the typer app."""
    parsed = parse(argv)
    if parsed is None:
        return None
    fn, kwargs = parsed
    wrapped = command(fn)

    def call() -> int:
        wrapped(**kwargs)
        return EXIT_OK

    return guarded(call)


def parse(argv: list[str]) -> tuple[Any, dict[str, Any]] | None:
    """The command's function and its keyword arguments, when the front door takes
    ``argv``; else None.

    >>> fn, kwargs = parse(["validate", "-q", "a.tarot", "--format", "json", "-"])
    >>> fn.__name__, kwargs["paths"], kwargs["quiet"], kwargs["output_format"].value
    ('validate', ['a.tarot', '-'], True, 'json')
    >>> parse(["validate", "-j", "2", "a.tarot"])[1]["jobs"]
    2
    >>> parse(["validate", "-j", "+2", "a.tarot"]) is None  # (typer's to read)
    True
    >>> parse(["validate", "-qv", "a.tarot"]), parse(["validate"]), parse(["fmt", "a"])
    (None, None, None)
    """
    if not argv:
        return None
    name = ALIASES.get(argv[0], argv[0])
    if name not in FRONT_DOOR:
        return None
    entry = next(e for e in COMMANDS if e.name == name)
    _, fn = entry.load()
    words = declared_words(fn)
    if words is None:
        return None
    paths_name, flags, choices, numbers = words
    paths: list[str] = []
    kwargs: dict[str, Any] = {paths_name: paths}
    rest = iter(argv[1:])
    for word in rest:
        if word == "-" or not word.startswith("-"):
            paths.append(word)
        elif word in flags:
            kwargs[flags[word]] = True
        else:
            option, equals, value = word.partition("=")
            if (option not in choices and option not in numbers) or (
                    equals and not option.startswith("--")):
                return None  # (-f=json is not click's: its value would be "=json")
            if not equals:
                value = next(rest, None)  # type: ignore[assignment]
            if option in numbers:
                param, low, high = numbers[option]
                number = _number(value, low, high)
                if number is None:
                    return None
                kwargs[param] = number
                continue
            param, kind = choices[option]
            member = _member(kind, value)
            if member is None:
                return None
            kwargs[param] = member
    return (fn, kwargs) if paths else None


#: The keywords of an ``int`` option's declaration that the front door reads (any other
#: sends the option to typer).
_NUMBER_KEYWORDS = frozenset({"help", "metavar", "min", "max"})

_Words = tuple[str, dict[str, str], dict[str, tuple[str, Any]],
               dict[str, tuple[str, int | None, int | None]]]


def declared_words(fn: Any) -> _Words | None:
    """From the command's declaration: the name of its paths argument, its flags (each
    name to its parameter), its options with a choice of values (each name to its
    parameter and enumeration) and its plain ``int`` options (each name to its parameter
    and bounds). None when its paths argument is not the one the front door knows."""
    paths: str | None = None
    flags: dict[str, str] = {}
    choices: dict[str, tuple[str, Any]] = {}
    numbers: dict[str, tuple[str, int | None, int | None]] = {}
    for param, (kind, mark, default) in declared(fn).items():
        if mark is None:
            continue
        if mark.kind == "argument":
            if paths is not None or kind != list[str]:
                return None
            paths = param
        elif kind is bool and default is False and not _valued(mark):
            flags.update(dict.fromkeys(mark.names, param))
        elif (kind is int and type(default) is int and not set(mark.keywords) - _NUMBER_KEYWORDS
              and all("/" not in n for n in mark.names)):
            numbers.update(dict.fromkeys(mark.names, (param, mark.keywords.get("min"),
                                                      mark.keywords.get("max"))))
        else:
            choice = _enumeration(kind)
            if choice is not None and default is None:
                choices.update(dict.fromkeys(mark.names, (param, choice)))
    return None if paths is None else (paths, flags, choices, numbers)


def _valued(mark: Declared) -> bool:
    """Whether a flag's declaration makes it more than a plain on-switch (a second name
    for off, a callback, an environment variable...)."""
    return any("/" in n for n in mark.names) or bool(set(mark.keywords) - {"help"})


def _enumeration(kind: Any) -> type[enum.Enum] | None:
    """The enumeration of ``E | None``, else None."""
    if typing.get_origin(kind) not in (typing.Union, types.UnionType):
        return None
    members = [a for a in typing.get_args(kind) if a is not type(None)]
    if len(members) == 1 and isinstance(members[0], type) and issubclass(members[0], enum.Enum):
        return members[0]
    return None


def _number(value: str | None, low: int | None, high: int | None) -> int | None:
    """``value`` as an int when it is ASCII digits alone within the bounds, else None
    (typer's to read: a sign, other digits, spaces, a number out of bounds).

    >>> _number("2", 0, None), _number("007", 0, 9), _number("10", 0, 9), _number("+2", 0, None)
    (2, 7, None, None)
    """
    if value is None or not value.isascii() or not value.isdigit():
        return None
    number = int(value)
    if (low is not None and number < low) or (high is not None and number > high):
        return None
    return number


def _member(kind: type[enum.Enum], value: str | None) -> enum.Enum | None:
    """The member whose value is ``value`` exactly (another spelling: typer's to read)."""
    for member in kind:
        if member.value == value:
            return member
    return None
