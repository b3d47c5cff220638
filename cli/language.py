"""The language of ``tarot``'s words for people: ``--lang``, ``TAROT_LANG``, the locale.

``--lang fr|en`` is taken anywhere before ``--`` (``tarot --lang fr validate x`` and
``tarot validate x --lang fr`` alike), before the command line is parsed, so that the
help of every command is shown in the language chosen. The help texts are translated
here, in one place, from the catalogue (:mod:`tarotnotation.i18n`); every command module
keeps writing its help in English.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator, Sequence
from typing import Any

import typer
import typer.main
from typer.core import TyperGroup

from tarotnotation.i18n import LANGUAGES, Msg, gettext_, normalize, or_list, set_language

DEFAULT_CHOICE = None
"""After a run: the language follows the environment again."""

LANG_HELP = "Language of the messages for people: en or fr (default: TAROT_LANG, then the locale)."
"""The help of ``--lang`` (shown by every command)."""

_PANELS = {
    "ARGUMENTS_PANEL_TITLE": "Arguments",
    "OPTIONS_PANEL_TITLE": "Options",
    "COMMANDS_PANEL_TITLE": "Commands",
    "ERRORS_PANEL_TITLE": "Error",
}


def take_lang(args: Sequence[str]) -> tuple[str | None, list[str]]:
    """``--lang X`` (or ``--lang=X``) taken out of ``args`` (before a ``--``): the value
    (None when absent) and the other arguments. An unknown language is a usage error.

    >>> take_lang(["validate", "--lang", "fr", "x.tarot"])
    ('fr', ['validate', 'x.tarot'])
    >>> take_lang(["--lang=en", "score", "--", "--lang"])
    ('en', ['score', '--', '--lang'])
    """
    out: list[str] = []
    value: str | None = None
    i = 0
    args = list(args)
    while i < len(args):
        arg = args[i]
        if arg == "--":
            out.extend(args[i:])
            break
        if arg == "--lang":
            if i + 1 >= len(args):
                raise typer.BadParameter(Msg("expected {languages}",
                                             languages=or_list(LANGUAGES)),
                                         param_hint="'--lang'")
            value = args[i + 1]
            i += 2
            continue
        if arg.startswith("--lang="):
            value = arg.partition("=")[2]
        else:
            out.append(arg)
        i += 1
    if value is not None and normalize(value) is None:
        raise typer.BadParameter(Msg("{value} is not a language: expected {languages}",
                                     value=repr(value), languages=or_list(LANGUAGES)),
                                 param_hint="'--lang'")
    return value, out


def _commands(group: Any, every: bool = False) -> Iterator[tuple[str, Any]]:
    """The group and its commands: those already built (the app builds a command when it
    is looked up, and localizes it then), or ``every`` one (built now)."""
    yield "tarot", group
    commands = getattr(group, "commands", {})
    built = commands if every else getattr(commands, "built", commands)
    for name in sorted(built):
        yield f"tarot {name}", commands[name]


def _texts_of(cmd: Any) -> Iterator[tuple[Any, str]]:
    for attr in ("help", "short_help", "epilog"):
        yield cmd, attr
    for param in cmd.params:
        yield param, "help"


def localize(group: Any, lang: str, panels: bool = True) -> None:
    """Every help text of ``group`` and its commands in ``lang`` (the English kept aside,
    so that a second call in another language starts from it); ``panels``: the titles of
    the help's panels too (that loads rich, which a run without ``--help`` never needs,
    so they are set then only when already loaded)."""
    for _, cmd in _commands(group):
        localize_command(cmd, lang)
    rich_utils = sys.modules.get("typer.rich_utils")
    if panels and rich_utils is None:
        rich_utils = importlib.import_module("typer.rich_utils")
    if rich_utils is not None:
        for name, english in _PANELS.items():
            setattr(rich_utils, name, gettext_(english, lang))


def localize_command(cmd: Any, lang: str) -> None:
    """Every help text of one command (or the group's own) in ``lang``; the English is
    kept aside, so that a second call in another language starts from it."""
    for obj, attr in _texts_of(cmd):
        english = obj.__dict__.setdefault(f"_en_{attr}", getattr(obj, attr, None))
        if english:
            setattr(obj, attr, gettext_(english, lang))


def texts(app: typer.Typer) -> Iterator[tuple[str, str]]:
    """Every help text of the typer ``app`` of ``tarot`` (English) and where it is, for
    the catalogue."""
    from .commands import COMMANDS

    group = typer.main.get_command(app)
    for _, cmd in _commands(group, every=True):
        localize_command(cmd, "en")
    for where, cmd in _commands(group):
        for obj, attr in _texts_of(cmd):
            text = getattr(obj, attr, None)
            if text:
                name = getattr(obj, "name", None) if obj is not cmd else attr
                yield text, f"{where} {name}"
    yield from ((entry.summary, f"tarot {entry.name} summary") for entry in COMMANDS)
    yield from ((text, "typer panel") for text in _PANELS.values())


class LocalizedGroup(TyperGroup):
    """``tarot``'s command group: takes ``--lang`` out first, then shows every help text
    in the language of the run."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        """Choose the language, translate the help texts, then parse as usual."""
        lang, rest = take_lang(args)
        wants_help = not rest or any(a in ("--help", "-h") for a in rest)
        localize(self, set_language(lang), panels=wants_help)
        return super().parse_args(ctx, rest)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """Run the command; the language chosen for it ends with it (a program that runs
        ``tarot`` in its own process, as the tests do, keeps its own language)."""
        try:
            return super().main(*args, **kwargs)
        finally:
            set_language(DEFAULT_CHOICE)
