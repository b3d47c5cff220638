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

import contextlib
import difflib
import functools
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any, Final

import typer
from typer.core import TyperCommand, TyperGroup

from tarotnotation.i18n import Msg, render

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
from .terminal import safe, safe_message

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
    """A click usage error as the one line ``tarot: …`` on standard error, in the run's
    language (:func:`usage_message`)."""
    return f"tarot: {safe_message(usage_message(err, commands))}"


def _or(items: Sequence[str]) -> str:
    """``a or b or c`` (each ``or`` translated)."""
    said: str = items[0] if items else ""
    for item in items[1:]:
        said = Msg("{first} or {second}", first=said, second=item)
    return said


#: A sentence of click's (a pattern of its English) and ours that says the same, from the
#: match (and the message a parameter's own check raised, if any).
_Saying = tuple[re.Pattern[str], Callable[[re.Match[str], str | None], str]]

#: What click says (its English, as it says it: click's messages are fixed English
#: sentences, or gettext of its own "messages" domain that no catalogue of ours feeds),
#: each with the same sentence as one of our messages, to be said in the run's language.
_CLICK_SAYS: Final[tuple[_Saying, ...]] = (
    (re.compile(r"no such option: (?P<option>.+)"),
     lambda m, own: Msg("no such option: {option}", option=m["option"])),
    (re.compile(r"missing option (?P<option>.+)"),
     lambda m, own: Msg("missing option {option}", option=m["option"])),
    (re.compile(r"option (?P<option>\S+) requires an argument"),
     lambda m, own: Msg("option {option} requires an argument", option=m["option"])),
    (re.compile(r"option (?P<option>\S+) requires (?P<n>\d+) arguments"),
     lambda m, own: Msg("option {option} requires {n} arguments", option=m["option"], n=m["n"])),
    (re.compile(r"option (?P<option>\S+) does not take a value"),
     lambda m, own: Msg("option {option} does not take a value", option=m["option"])),
    (re.compile(r"got unexpected extra argument\(s\) \((?P<args>.*)\)"),
     lambda m, own: Msg("got unexpected extra argument(s) ({args})", args=m["args"])),
    (re.compile(r"got unexpected extra arguments \((?P<args>.*)\)"),
     lambda m, own: Msg("got unexpected extra arguments ({args})", args=m["args"])),
    (re.compile(r"got unexpected extra argument \((?P<args>.*)\)"),
     lambda m, own: Msg("got unexpected extra argument ({args})", args=m["args"])),
    (re.compile(r"invalid value for (?P<option>.+?): (?P<reason>.*)"),
     lambda m, own: Msg("invalid value for {option}: {reason}", option=m["option"],
                   reason=_reason(m["reason"], own))),
    (re.compile(r"invalid value: (?P<reason>.*)"),
     lambda m, own: Msg("invalid value: {reason}", reason=_reason(m["reason"], own))),
)

#: Why a value is refused, as click (or pydantic, for typer's numbers) says it.
_REASONS: Final[tuple[_Saying, ...]] = (
    (re.compile(r"(?P<value>.+) is not one of (?P<choices>.+)"),
     lambda m, own: Msg("{value} is not one of {choices}", value=m["value"],
                   choices=m["choices"])),
    (re.compile(r"Input should be a valid integer, unable to parse string as an integer"),
     lambda m, own: Msg("Input should be a valid integer, unable to parse string as an integer")),
    (re.compile(r"Input should be a valid number, unable to parse string as a number"),
     lambda m, own: Msg("Input should be a valid number, unable to parse string as a number")),
    (re.compile(r"Input should be greater than or equal to (?P<n>\S+)"),
     lambda m, own: Msg("Input should be greater than or equal to {n}", n=m["n"])),
    (re.compile(r"Input should be less than or equal to (?P<n>\S+)"),
     lambda m, own: Msg("Input should be less than or equal to {n}", n=m["n"])),
    (re.compile(r"Input should be greater than (?P<n>\S+)"),
     lambda m, own: Msg("Input should be greater than {n}", n=m["n"])),
    (re.compile(r"'(?P<value>.*)' is not a valid integer"),
     lambda m, own: Msg("{value} is not a valid integer", value=f"'{m['value']}'")),
)


def _reason(text: str, own: str | None) -> str:
    """Why a value is refused, as one of our messages: ours as raised (``own``, a Msg),
    or the one with click's words."""
    if isinstance(own, Msg) and " ".join(own.split()).rstrip(".") == text:
        return own
    for pattern, said in _REASONS:
        m = pattern.fullmatch(text)
        if m is not None:
            return said(m, own)
    return text


def _click_says(text: str, own: str | None = None) -> str:
    """A message of click's as one of ours (in English the same text), or the text;
    ``own``: the message a parameter's check raised, kept when it is a Msg."""
    for pattern, said in _CLICK_SAYS:
        m = pattern.fullmatch(text)
        if m is not None:
            return said(m, own)
    return text


def usage_message(err: Exception, commands: Sequence[str]) -> str:
    """What is wrong with a command line (a click usage error), in our words: a
    :class:`~tarotnotation.i18n.Msg`, so that it reads in the run's language. English:

    >>> said = usage_message(_USAGE_ERROR("No such command 'valdate'."), ["validate"])
    >>> said
    "no command 'valdate': did you mean 'validate'? (tarot --help lists the commands)"
    >>> said.render("fr")
    "pas de commande 'valdate'\xa0: vouliez-vous dire 'validate'\xa0? (tarot --help liste les ..."
    """
    message = getattr(err, "format_message", lambda: str(err))()
    ctx = getattr(err, "ctx", None)
    path = getattr(ctx, "command_path", "tarot") or "tarot"
    message = message.strip().rstrip(".")
    if message.startswith("No such command"):
        typo = _quoted(message.removeprefix("No such command").strip())
        similar = difflib.get_close_matches(typo, commands, n=3, cutoff=0.7)
        said: str = (Msg("no command {name}: did you mean {names}?", name=repr(typo),
                         names=_or([repr(c) for c in similar]))
                     if similar else Msg("no command {name}", name=repr(typo)))
        return Msg("{message} (tarot --help lists the commands)", message=said)
    if message.startswith("Missing argument"):
        name = message.split("'", 2)[1] if message.count("'") >= 2 else "an argument"
        command = path.removeprefix("tarot").strip() or "tarot"
        return Msg("{command} needs {name}: see '{path} --help'", command=command,
                   name=metavars(name), path=path)
    reason = getattr(err, "message", None)
    message = " ".join(message.replace("Value error, ", "").split())
    close = re.search(r"\s*\(Possible options?: ([^)]*)\)|\s*Did you mean ([^?]*)\?", message)
    options: list[str] = []
    if close:  # click's suggestion, in our words
        options = [o.strip() for o in (close.group(1) or close.group(2)).split(",")]
        message = message[:close.start()].rstrip(".")
    message = message[:1].lower() + message[1:]
    said = _click_says(message, reason if isinstance(reason, str) else None)
    if options:
        said = Msg("{message}: did you mean {options}?", message=said, options=_or(options))
    return Msg("{message} (see '{path} --help')", message=said, path=path)


def _quoted(text: str) -> str:
    r"""The name click wrote first in ``text`` as Python writes a string (``'x'``,
    ``"it's"``, its control characters as escapes): the name itself, which is then shown
    made safe once (a quote in it no longer cuts it short).

    >>> _quoted("'valdate'. Did you mean 'validate'?"), _quoted('"it\'s"')
    ('valdate', "it's")
    >>> _quoted("'\\x1b[2J'")
    '\x1b[2J'
    """
    import ast

    quote = text[:1]
    if quote in ("'", '"'):
        for end in range(1, len(text)):
            if text[end] == quote:
                with contextlib.suppress(ValueError, SyntaxError):
                    value = ast.literal_eval(text[:end + 1])
                    if isinstance(value, str):
                        return value
    return text


#: How an option's value is named in help, for the types typer names as Python does.
_PLAIN_TYPES = {"<int>": "N", "<int range>": "N", "<str>": "TEXT", "<float>": "NUMBER",
                "<bool>": "", "<list[str]>": "TEXT"}


def _localized_sections(formatter: Any) -> None:
    """The help's usage line and section headings (Usage, Options, Arguments, Commands)
    in the run's language, with its typography (« Options : »), what click itself
    writes in the rows of options (:func:`help_text`), and the names of the values
    (:func:`metavars`), before click lays the columns out."""
    from tarotnotation.i18n import gettext_

    plain = formatter.section
    formatter.section = lambda name: plain(gettext_(name))
    usage = formatter.write_usage
    formatter.write_usage = lambda prog, args="", prefix=None: usage(
        prog, metavars(args), render(Msg("Usage:")) + " " if prefix is None else prefix)
    formatter.write_heading = lambda heading: formatter.write(
        f"{'':>{formatter.current_indent}}{render(Msg('{heading}:', heading=heading))}\n")
    rows = formatter.write_dl
    formatter.write_dl = lambda items, *args, **kwargs: rows(
        [(metavars(term), metavars(help_text(_no_break(text)))) for term, text in items],
        *args, **kwargs)
    paragraphs = formatter.write_text
    formatter.write_text = lambda text: paragraphs(metavars(text))


def _metavar_words() -> dict[str, str]:
    """The names of the values in help (``--output OUT``) in the run's language."""
    from tarotnotation.i18n import pgettext

    return {"OUT": pgettext("metavar", "OUT"), "PATH": pgettext("metavar", "PATH"),
            "FILE": pgettext("metavar", "FILE"), "LANG": pgettext("metavar", "LANG"),
            "SWITCH": pgettext("metavar", "SWITCH"), "VALUE": pgettext("metavar", "VALUE"),
            "PRESET": pgettext("metavar", "PRESET"), "SPEC": pgettext("metavar", "SPEC"),
            "TAG": pgettext("metavar", "TAG"), "IN": pgettext("metavar", "IN"),
            "TEXT": pgettext("metavar", "TEXT"), "NODES": pgettext("metavar", "NODES"),
            "MAPPING": pgettext("metavar", "MAPPING"), "NAME": pgettext("metavar", "NAME"),
            "DIR": pgettext("metavar", "DIR"), "COMMAND": pgettext("metavar", "COMMAND"),
            "ARGS": pgettext("metavar", "ARGS"), "MB": pgettext("metavar", "MB"),
            "NUMBER": pgettext("metavar", "NUMBER"),
            "DATABASE": pgettext("metavar", "DATABASE"), "ZONE": pgettext("metavar", "ZONE"),
            "ADDRESS": pgettext("metavar", "ADDRESS")}


#: A word in capitals (a value's name in help: ``FILE``, ``PATH...``), not part of a
#: longer name (``TAROT_LANG``).
_CAPITALS: Final = re.compile(r"(?<![\w-])[A-Z]{2,}(?![\w-])")


def metavars(text: str) -> str:
    """``text`` with the names of the values said in the run's language (``FILE`` is
    ``FICHIER`` in French); the others (``N``, ``JSON``, ``OPTIONS``) as they are.

    >>> from tarotnotation.i18n import set_language
    >>> _ = set_language("fr")
    >>> metavars("[OPTIONS] PATH... -o OUT (TAROT_LANG, JSON)")
    '[OPTIONS] CHEMIN... -o SORTIE (TAROT_LANG, JSON)'
    >>> _ = set_language("en")
    >>> metavars("[OPTIONS] PATH...")
    '[OPTIONS] PATH...'
    """
    words = _metavar_words()
    return _CAPITALS.sub(lambda m: words.get(m.group(0), m.group(0)), text)


#: An ordinary space before « : ; ? ! »: where click, shortening a command's help for the
#: list of commands, joined its words again with ordinary spaces.
_SPACE_BEFORE: Final = re.compile(r" (?=[:;?!](?:\s|$|\.\.\.))")


def _no_break(text: str) -> str:
    """A help row's text with its no-break spaces back, in French (click splits a help
    it shortens on every space, the no-break ones too, and joins it with spaces)."""
    from tarotnotation.i18n import language

    return _SPACE_BEFORE.sub("\u00a0", text) if language() == "fr" else text


#: What click writes in brackets after an option's help: ``[default: 1; x>=0]``.
_EXTRAS: Final = re.compile(r"\s*\[(?P<items>[^\[\]]*)\]\Z")


def help_text(text: str) -> str:
    r"""An option's help as click writes it, in the run's language: click's own help of
    ``--help``, and the words of the bracket it adds (default, required, env var), which
    it writes in English (the help of our own options is translated already).

    >>> from tarotnotation.i18n import set_language
    >>> _ = set_language("fr")
    >>> help_text("Show this message and exit.")
    'Afficher ce message et quitter.'
    >>> help_text("Processus de travail.  [default: 1; x>=0; required]")
    'Processus de travail.  [par défaut\xa0: 1\xa0; x>=0\xa0; obligatoire]'
    >>> _ = set_language("en")
    >>> help_text("Worker processes.  [default: 1; x>=0]")
    'Worker processes.  [default: 1; x>=0]'
    """
    if text == "Show this message and exit.":
        return render(Msg("Show this message and exit."))
    m = _EXTRAS.search(text)
    if m is None:
        return text  # (the help of our own options is said in the run's language already)
    said = []
    for item in m["items"].split("; "):
        word, colon, value = item.partition(": ")
        if colon and word in ("default", "env var"):
            said.append(render(Msg("default: {value}", value=value) if word == "default"
                               else Msg("env var: {value}", value=value)))
        elif item == "required":
            said.append(render(Msg("required")))
        else:
            said.append(item)
    return f"{text[:m.start('items') - 1]}[{render(Msg('; ')).join(said)}]"


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
