"""How every command runs: one line for a usage error, plain help, signals, exit statuses.

Every ``tarot`` command exits with one of these statuses (the README's table):

====  ==============================================================================
0     clean: every deal read, no error (with ``--strict``, no warning either)
1     faults in the records: an error in a deal, a file with no deal under ``--strict``,
      or no deal read at all
2     could not run: a usage error, or a path or file that cannot be read or written
      (after the other paths were checked)
130   interrupted (Ctrl-C, SIGINT); 143 terminated (SIGTERM) and 129 hung up (SIGHUP),
      128 + the signal's number, as shells report it
====  ==============================================================================

When several apply, the highest in the order 130 (and the other signals), 2, 1, 0 wins.
A signal ends the command as an exception does: files being written are left as they were
(no temporary file stays), worker processes end.
"""

from __future__ import annotations

import difflib
import functools
import re
import sys
from collections.abc import Sequence
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup

from .status import (
    EXIT_FAULTS,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    Interrupted,
    guarded,
    install_signal_handlers,
    worst,
)
from .terminal import safe

__all__ = [
    "EXIT_FAULTS",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "Interrupted",
    "TarotCommand",
    "TarotGroup",
    "install_signal_handlers",
    "usage_line",
    "worst",
]

def _click_class(name: str) -> type[Exception]:
    """A class of click's exceptions (typer may carry its own copy of click)."""
    for cls in typer.BadParameter.__mro__:
        if cls.__name__ == name:
            return cls
    raise LookupError(name)  # pragma: no cover


_CLICK_ERROR = _click_class("ClickException")
_USAGE_ERROR = _click_class("UsageError")


def usage_line(err: Exception, commands: Sequence[str]) -> str:
    """A click usage error as the one line ``tarot: …`` on standard error."""
    message = getattr(err, "format_message", lambda: str(err))()
    ctx = getattr(err, "ctx", None)
    path = getattr(ctx, "command_path", "tarot") or "tarot"
    message = message.strip().rstrip(".")
    if message.startswith("No such command"):
        typo = message.split("'", 2)[1] if message.count("'") >= 2 else ""
        similar = difflib.get_close_matches(typo, commands, n=3, cutoff=0.7)
        message = f"no command {typo!r}"
        if similar:
            message += f": did you mean {' or '.join(repr(c) for c in similar)}?"
        return f"tarot: {safe(message)} (tarot --help lists the commands)"
    if message.startswith("Missing argument"):
        name = message.split("'", 2)[1] if message.count("'") >= 2 else "an argument"
        command = path.removeprefix("tarot").strip() or "tarot"
        return (f"tarot: {command} needs {name}: see '{path} --help'")
    message = " ".join(message.replace("Value error, ", "").split())
    close = re.search(r"\s*\(Possible options?: ([^)]*)\)|\s*Did you mean ([^?]*)\?", message)
    if close:  # click's suggestion, in our words
        options = [o.strip() for o in (close.group(1) or close.group(2)).split(",")]
        message = (message[:close.start()].rstrip(".")
                   + f": did you mean {' or '.join(options)}?")
    message = message[:1].lower() + message[1:]
    return f"tarot: {safe(message)} (see '{path} --help')"


#: How an option's value is named in help, for the types typer names as Python does.
_PLAIN_TYPES = {"<int>": "N", "<int range>": "N", "<str>": "TEXT", "<float>": "NUMBER",
                "<bool>": "", "<list[str]>": "TEXT"}


def _localized_sections(formatter: Any) -> None:
    """The help's section headings (Options, Arguments, Commands) in the run's language."""
    from tarotnotation.i18n import gettext_

    plain = formatter.section
    formatter.section = lambda name: plain(gettext_(name))


class TarotCommand(TyperCommand):
    """A command whose help names its arguments plainly (``PATH...``, not
    ``{PATH...}... <list[str]>``), its headings in the run's language."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        """The help, its section headings translated."""
        _localized_sections(formatter)
        super().format_help(ctx, formatter)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for param in self.params:
            kind = getattr(param, "param_type_name", "")
            if kind == "argument":
                shown = param.metavar or (param.name or "").upper()
                setattr(param, "display_type", _no_type)  # noqa: B010 (typer's method)
                setattr(param, "get_usage_pieces",  # noqa: B010
                        lambda ctx, shown=shown: [shown])
            elif kind == "option" and hasattr(param, "display_type"):
                typed = param.display_type
                flag = bool(getattr(param, "is_flag", False))
                setattr(param, "display_type",  # noqa: B010
                        functools.partial(_plain_type, typed, flag))


def _no_type(ctx: Any) -> str:
    return ""


def _plain_type(typed: Any, flag: bool, ctx: Any) -> str:
    """An option's value as help names it: N, TEXT… for the Python names typer gives."""
    if flag:
        return ""
    text = str(typed(ctx))
    return _PLAIN_TYPES.get(text, text)


class TarotGroup(TyperGroup):
    """The ``tarot`` command: usage errors as one line, plain help, the exit statuses of
    the table above whatever happens."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        """The help, its section headings translated."""
        _localized_sections(formatter)
        super().format_help(ctx, formatter)

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             windows_expand_args: bool = True, **extra: Any) -> Any:
        """Run the command line; exit with its status (or return it, not standalone)."""
        code = self._run(args, prog_name or "tarot", complete_var, **extra)
        if standalone_mode:
            sys.exit(code)
        return code

    def _run(self, args: Sequence[str] | None, prog_name: str, complete_var: str | None,
             **extra: Any) -> int:
        def run() -> int:
            try:
                rv = super(TarotGroup, self).main(args, prog_name, complete_var,
                                                  standalone_mode=False, **extra)
                return rv if isinstance(rv, int) else EXIT_OK
            except _USAGE_ERROR as err:
                if type(err).__name__ == "NoArgsIsHelpError":  # `tarot` alone: the help
                    typer.echo(err.format_message())  # type: ignore[attr-defined]
                    return EXIT_USAGE
                typer.echo(usage_line(err, sorted(self.list_commands(None))),  # type: ignore[arg-type]
                           err=True)
                return EXIT_USAGE
            except _CLICK_ERROR as err:
                typer.echo(f"tarot: {safe(err.format_message())}", err=True)  # type: ignore[attr-defined]
                return EXIT_USAGE
            except typer.Abort:
                return EXIT_INTERRUPTED

        # Ctrl-C, SIGTERM, a reader gone, the files not finished: as the front door
        # (cli/front.py) ends its runs.
        return guarded(run)
