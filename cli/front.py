"""The front door of the common invocations: ``tarot validate [-q] [-f json] PATH...``,
``tarot score FILE``, ``tarot replay FILE --deal 2``, ``tarot rules``... run without typer.

Importing typer costs more than checking a file of a few deals (typer itself, and pydantic,
which typer's parameter types load): more than the whole start-up budget of issue 17 (120
ms for ``tarot validate`` of one deal). So :func:`tarotnotation.cli.app.main` first offers
the command line to :func:`run`, which takes a strict subset of what the typer app takes,
and hands anything else (any other option, ``--help``, ``--lang``, ``--``, a usage error, a
command not in :data:`tarotnotation.cli.app.FRONT_DOOR`) to the typer app, untouched.

The words it takes are not a second list: they are read from the command's own
declaration (:mod:`tarotnotation.cli.declare`), the same one typer reads. Of the command's
parameters it takes those whose kind it can parse strictly:

- its one argument: the paths (a ``list[str]``: one word or more), a file (a ``str``:
  exactly one) or an optional word (a ``str | None``: none or one); each any word that
  does not start with ``-``, or ``-`` (standard input); a command with no argument takes
  no such word;
- a flag (a ``bool`` option whose default is False): its names, each word alone;
- an option whose value is one of an enumeration's (``--format json``, ``-f json``,
  ``--format=json``): the value exactly as the enumeration writes it;
- an ``int`` option declared with no more than a help, a metavar and bounds (``-j 2``,
  ``--jobs=0``, ``--deal 3``): its value in ASCII digits alone, within the bounds (``-j +2``,
  ``-j ٢`` or ``-j -1`` go to typer, which reads or refuses them as it does);
- a string option declared with no more than a help and a metavar (``--rules pagat``,
  ``-o OUT``, ``--set misere=on`` repeated, each value added to a list): a value that is
  not empty and does not start with ``-`` (``-o -`` goes to typer);
- and only when every parameter without a default was given (else typer says which is
  missing).

Every other word, an option of any other kind included, sends the whole command line to
typer. The command then runs as typer runs it (the same function, wrapped the same way,
its exit status and signals handled by the same code: :mod:`tarotnotation.cli.status`),
so the two doors write the same bytes and exit with the same status:
``tests/cli/test_cli_front.py`` runs a grid of command lines through both.
"""

from __future__ import annotations

import enum
import functools
import types
import typing
from collections.abc import Callable
from typing import Any, NamedTuple

from .commands import ALIASES, COMMANDS, FRONT_DOOR
from .common import command
from .declare import NO_DEFAULT, declared
from .status import EXIT_OK, guarded

__all__ = ["Words", "declared_words", "parse", "run"]


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
    >>> parse(["replay", "a.tarot", "--rules=pagat", "--set", "misere=on"])[1]
    {'rules': 'pagat', 'sets': ['misere=on'], 'path': 'a.tarot'}
    >>> parse(["replay", "a.tarot", "b.tarot"]), parse(["codes", "x"]), parse(["codes"])[1]
    (None, None, {})
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
    positional: list[str] = []
    kwargs: dict[str, Any] = {}
    rest = iter(argv[1:])
    for word in rest:
        if word == "-" or not word.startswith("-"):
            positional.append(word)
        elif word in words.flags:
            kwargs[words.flags[word]] = True
        else:
            option, equals, value = word.partition("=")
            if option not in words.valued or (equals and not option.startswith("--")):
                return None  # (-f=json is not click's: its value would be "=json")
            if not equals:
                value = next(rest, None)  # type: ignore[assignment]
            param, read = words.valued[option]
            got = read(value)
            if got is None:
                return None
            if param in words.lists:
                kwargs.setdefault(param, []).append(got)
            else:
                kwargs[param] = got
    if words.argument is not None and positional:
        param, many = words.argument
        if len(positional) > 1 and not many:
            return None
        kwargs[param] = positional if many else positional[0]
    elif positional:
        return None
    if words.required - set(kwargs):  # (typer says which is missing)
        return None
    return fn, kwargs


#: The keywords of an option's declaration that the front door reads, by the option's
#: kind (any other keyword sends the option to typer).
_NUMBER_KEYWORDS = frozenset({"help", "metavar", "min", "max"})
_CHOICE_KEYWORDS = frozenset({"help", "metavar", "case_sensitive", "show_default"})
_STRING_KEYWORDS = frozenset({"help", "metavar"})
_ARGUMENT_KEYWORDS = frozenset({"help", "metavar", "show_default"})


class Words(NamedTuple):
    """What the front door takes of a command, read from its declaration."""

    argument: tuple[str, bool] | None
    """The parameter of its one argument, and whether it takes several words (a
    ``list[str]``) or one (a ``str``, or a ``str | None`` that may be left out); None
    when it has no argument. (An argument without a default is among :attr:`required`.)"""
    flags: dict[str, str]
    """Each name of a flag: its parameter."""
    valued: dict[str, tuple[str, Callable[[str | None], Any]]]
    """Each name of an option with a value: its parameter and the reader of its value
    (None when the value is not one the front door is sure of)."""
    lists: frozenset[str]
    """The parameters of the repeatable options (each value added to a list)."""
    required: frozenset[str]
    """The parameters without a default (the run needs them)."""


def declared_words(fn: Any) -> Words | None:
    """From the command's declaration: its argument, its flags, its options with a value
    it can read strictly (a choice of an enumeration's values, a plain ``int``, a
    string, a repeated string) and the parameters it needs. None when its arguments are
    not ones the front door knows (more than one, or of another kind)."""
    argument: tuple[str, bool] | None = None
    flags: dict[str, str] = {}
    valued: dict[str, tuple[str, Callable[[str | None], Any]]] = {}
    lists: set[str] = set()
    required: set[str] = set()
    for param, (kind, mark, default) in declared(fn).items():
        if mark is None:
            if default is NO_DEFAULT:
                return None
            continue
        if default is NO_DEFAULT:
            required.add(param)
        if mark.kind == "argument":
            if argument is not None or set(mark.keywords) - _ARGUMENT_KEYWORDS or not (
                    (kind in (list[str], str) and default is NO_DEFAULT)
                    or (kind == str | None and default is None)):
                return None
            argument = (param, kind == list[str])
            continue
        if any("/" in n for n in mark.names):
            continue  # (an on/off pair: typer's)
        keywords = set(mark.keywords)
        read: Callable[[str | None], Any] | None = None
        if kind is bool and default is False and not keywords - {"help"}:
            flags.update(dict.fromkeys(mark.names, param))
        elif (kind in (int, int | None) and (type(default) is int or default in (None, NO_DEFAULT))
              and not keywords - _NUMBER_KEYWORDS):
            read = functools.partial(_number, low=mark.keywords.get("min"),
                                     high=mark.keywords.get("max"))
        elif ((kind in (str | None, list[str] | None) and default is None)
              or (kind is str and default is NO_DEFAULT)) and not keywords - _STRING_KEYWORDS:
            read = _string
            if kind == list[str] | None:
                lists.add(param)
        else:
            choice = _enumeration(kind)
            if choice is not None and (default is None or isinstance(default, choice)) and (
                    not keywords - _CHOICE_KEYWORDS):
                read = functools.partial(_member, choice)
        if read is not None:
            valued.update(dict.fromkeys(mark.names, (param, read)))
    return Words(argument, flags, valued, frozenset(lists), frozenset(required))


def _enumeration(kind: Any) -> type[enum.Enum] | None:
    """The enumeration of ``E`` or ``E | None``, else None."""
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return kind
    if typing.get_origin(kind) not in (typing.Union, types.UnionType):
        return None
    members = [a for a in typing.get_args(kind) if a is not type(None)]
    if len(members) == 1 and isinstance(members[0], type) and issubclass(members[0], enum.Enum):
        return members[0]
    return None


def _number(value: str | None, low: int | None = None, high: int | None = None) -> int | None:
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


def _string(value: str | None) -> str | None:
    """``value`` when the front door is sure typer reads it as it is: not empty, and not
    starting with ``-`` (an option's name, or a value click may read otherwise).

    >>> _string("pagat"), _string("fft misere=on"), _string("-"), _string(""), _string(None)
    ('pagat', 'fft misere=on', None, None, None)
    """
    if not value or value.startswith("-"):
        return None
    return value


def _member(kind: type[enum.Enum], value: str | None) -> enum.Enum | None:
    """The member whose value is ``value`` exactly (another spelling: typer's to read)."""
    for member in kind:
        if member.value == value:
            return member
    return None
