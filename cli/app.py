"""The ``tarot`` command: validate, replay, score, convert, annotate and format records.

This module only registers the commands; each lives in its own module and is a thin
layer over the library: it parses arguments, calls ``tarotnotation`` and prints. No rule
and no format logic lives in the CLI.

Start-up is lazy: a command's module (and the parts of the library it uses) is imported
only when that command runs, or when its own help is asked for; the common invocations
of ``tarot validate`` run without typer at all (cli/front.py, issue 17). ``tarot --help`` lists the
commands from the summaries of the :data:`COMMANDS` table (each the first paragraph of its
function's docstring: ``tests/cli/test_cli_startup.py`` holds them to it), and
``tarot --version`` does not even import typer.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator, MutableMapping
from typing import TYPE_CHECKING, Any, Final, NoReturn

from tarotnotation import __version__

from .commands import ALIASES, COMMANDS, FRONT_DOOR, Entry

if TYPE_CHECKING:
    import typer
    from typer.core import TyperGroup


def version_text() -> str:
    """What ``tarot --version`` prints on standard output."""
    return f"tarot {__version__}"


def version_warning() -> str | None:
    """The warning ``tarot --version`` gives on standard error when the compiled core was
    not built (``pip install`` without a C compiler): every command still works, on the
    pure-Python kernel, only slower. None when it is built or ``TAROT_PURE`` is set."""
    from tarotnotation import native

    if native.pure_forced() or native.compiled() is not None:
        return None
    return ("tarot: warning: the compiled core (tarotnotation._kernel) is not built:"
            " running on the pure-Python kernel, several times slower (reinstall with a C"
            " compiler: pip install --force-reinstall .)")


def _build(entry: Entry, name: str, hidden: bool = False) -> Any:
    """The click command of a table entry (its module imported now)."""
    import typer.main
    from typer.models import CommandInfo

    from .common import command
    from .declare import typer_signature
    from .runner import TarotCommand

    module, fn = entry.load()
    callback = command(fn)
    typer_signature(fn, callback)  # (options declared with cli/declare.py, as typer's)
    # A command run without its argument says what it needs in one line (not the whole
    # help): no ``no_args_is_help`` (cli/runner.py).
    info = CommandInfo(name=name, cls=TarotCommand, callback=callback,
                       epilog=module.EPILOG, hidden=hidden)
    return typer.main.get_command_from_info(
        info, pretty_exceptions_short=get_app().pretty_exceptions_short,
        rich_markup_mode=get_app().rich_markup_mode)


class _Commands(MutableMapping[str, Any]):
    """The app's commands by name, in the table's order, each built when first looked up
    (click and typer find a group's commands through this mapping)."""

    def __init__(self, lang: Any = None) -> None:
        self.built: dict[str, Any] = {}
        self.lang = lang
        self.entries = {e.name: (e, False) for e in COMMANDS}
        self.entries.update({alias: (next(e for e in COMMANDS if e.name == name), True)
                             for alias, name in ALIASES.items()})

    def __getitem__(self, name: str) -> Any:
        if name not in self.built:
            from tarotnotation.i18n import language

            from .language import localize_command

            entry, hidden = self.entries[name]
            self.built[name] = built = _build(entry, name, hidden)
            if self.lang is not None:  # taken before parsing (cli/language.py), anywhere:
                import copy  # (only a command built by typer needs it)

                shown = copy.copy(self.lang)  # each command's help lists it too
                shown.expose_value = False
                built.params.append(shown)
            localize_command(built, language())
        return self.built[name]

    def __setitem__(self, name: str, cmd: Any) -> None:
        self.built[name] = cmd

    def __delitem__(self, name: str) -> None:
        self.built.pop(name)
        self.entries.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        yield from self.entries
        yield from (name for name in self.built if name not in self.entries)

    def __len__(self) -> int:
        return len(set(self.entries) | set(self.built))

    def listed(self) -> dict[str, Any]:
        """Every command for the group's help: a stand-in with its summary for each of
        the table (nothing imported; the same list whichever commands a process has built
        before), and those added to the group besides."""
        from typer.core import TyperCommand

        from tarotnotation.i18n import gettext_

        out = {}
        for name in self:
            if name not in self.entries:
                out[name] = self[name]
            else:
                entry, hidden = self.entries[name]
                out[name] = TyperCommand(name=name, help=gettext_(entry.summary),
                                         hidden=hidden)
        return out


def _group_class() -> type[TyperGroup]:
    from .language import LocalizedGroup
    from .runner import TarotGroup

    class LazyGroup(LocalizedGroup, TarotGroup):
        """The app's group: its commands load on demand (:class:`_Commands`), in the
        run's language (:class:`LocalizedGroup`), with one-line usage errors and the exit
        statuses of cli/runner.py (:class:`TarotGroup`)."""

        def __init__(self, **attrs: Any) -> None:
            super().__init__(**attrs)
            lazy = _Commands(next((p for p in self.params if p.name == "lang"), None))
            lazy.built.update(self.commands)
            self.commands = lazy

        def format_help(self, ctx: Any, formatter: Any) -> None:
            lazy = self.commands
            if isinstance(lazy, _Commands):
                self.commands = lazy.listed()
            try:
                super().format_help(ctx, formatter)
            finally:
                self.commands = lazy

    return LazyGroup


def _version(value: bool) -> None:
    if value:
        _print_version()
        import typer

        raise typer.Exit(0)


def _print_version() -> None:
    print(version_text())
    warning = version_warning()
    if warning is not None:
        print(warning, file=sys.stderr)


def _make_app() -> typer.Typer:
    import typer

    made = typer.Typer(
        name="tarot",
        cls=_group_class(),
        help="Validate, replay, score, convert, annotate and format French Tarot game"
        " records.",
        epilog="Run 'tarot COMMAND --help' for a command's options and examples.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
    )

    from .language import LANG_HELP

    @made.callback()
    def _main(
        version: bool = typer.Option(False, "--version", "-V", is_eager=True,
                                     callback=_version, help="Print the version and exit."),
        lang: str | None = typer.Option(None, "--lang", metavar="LANG", help=LANG_HELP),
    ) -> None:
        """Validate, replay, score, convert, annotate and format French Tarot game records."""

    @made.command("version", hidden=True)
    def version() -> None:
        """Print the version (as ``tarot --version``)."""
        _print_version()

    return made


def get_app() -> typer.Typer:
    """The typer app, made on first use (``tarot --version`` never needs it)."""
    made = globals().get("app")
    if made is None:
        made = globals()["app"] = _make_app()
    return made


def __getattr__(name: str) -> Any:
    if name == "app":
        return get_app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: The environment variable that sends every command line to the typer app, the front
#: door of cli/front.py never used (for the tests that compare the two).
TYPER_ONLY: Final = "TAROT_TYPER_ONLY"

#: The words that only ask for the version: answered before typer is imported.
_VERSION_ARGS = (["--version"], ["-V"], ["version"])


def main() -> None:
    """Entry point of the ``tarot`` script and of ``python -m tarotnotation``: the exit
    statuses of cli/runner.py, SIGTERM and SIGHUP included."""
    ended: type[BaseException] = KeyboardInterrupt  # (SIGTERM's and SIGHUP's, once caught)
    try:
        if sys.argv[1:] in _VERSION_ARGS:  # (answered before typer is imported)
            _print_version()
            return
        from .status import Interrupted, install_signal_handlers

        ended = Interrupted
        install_signal_handlers()
        words = sys.argv[1:]
        if (words and ALIASES.get(words[0], words[0]) in FRONT_DOOR
                and not os.environ.get(TYPER_ONLY)):
            from .front import run

            status = run(words)  # the common invocations, without typer
            if status is not None:
                sys.exit(status)
        get_app()()
    except BrokenPipeError:  # `tarot ... | head`: the reader went away
        sys.stderr.close()
        raise SystemExit(1) from None
    except KeyboardInterrupt:
        _end_now(130)
    except SystemExit as end:
        if end.code in _SIGNALLED:
            _end_now(end.code)
        raise
    except ended as signalled:  # SIGTERM or SIGHUP before a command ran (importing typer)
        _end_now(getattr(signalled, "status", 130))


#: The statuses of a run ended by a signal (SIGHUP, SIGINT, SIGTERM).
_SIGNALLED: Final = frozenset({129, 130, 143})


def _end_now(status: int) -> NoReturn:
    """End an interrupted run at once. The command has already discarded its temporary
    files and ended its workers; the interpreter's own shutdown would then join a process
    pool's queue threads, and one of them can wait for ever on a pipe whose reader was
    ended (seen with ``tarot sort -j 2`` under SIGTERM)."""
    if "multiprocessing.util" in sys.modules:  # a pool's semaphores, unlinked as exit would
        from tarotnotation.workers import release_semaphores

        release_semaphores()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(status)


if TYPE_CHECKING:
    app: typer.Typer

__all__ = ["ALIASES", "COMMANDS", "Entry", "app", "get_app", "main", "version_text",
           "version_warning"]
