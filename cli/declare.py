"""Options and arguments declared without importing typer: one declaration, two readers.

A command may declare a parameter as ``Annotated[T, Option("--name", "-n", help=...)]``
with :func:`Option` and :func:`Argument` from here instead of typer's. The declaration is
plain data (:class:`Declared`): when the command is built for typer
(:func:`tarotnotation.cli.app.get_app`), :func:`typer_signature` turns each into the
``typer.Option`` or ``typer.Argument`` of the same words; and the front door of the
common invocations (:mod:`tarotnotation.cli.front`), which runs without typer, reads the
very same declarations to know which words it may take. Typer (and through it pydantic)
is then imported only by the runs that need it (issue 17).

>>> from typing import Annotated
>>> def cmd(paths: Annotated[list[str], Argument(metavar="PATH...")],
...         quiet: Annotated[bool, Option("--quiet", "-q")] = False) -> None: ...
>>> [(name, d.kind, d.names) for name, (_, d, _) in declared(cmd).items()]
[('paths', 'argument', ()), ('quiet', 'option', ('--quiet', '-q'))]
"""

from __future__ import annotations

import typing
from collections.abc import Callable
from typing import Any, Final, NamedTuple

__all__ = ["NO_DEFAULT", "Argument", "Declared", "Option", "declared", "typer_signature"]

#: The default of a parameter that has none (:func:`declared`).
NO_DEFAULT: Final = object()


class Declared(NamedTuple):
    """What a parameter's ``Annotated`` metadata says: ``option`` or ``argument``, the
    option's names, and the keywords given (help, metavar, min, case_sensitive...), all
    as typer takes them."""

    kind: str
    names: tuple[str, ...]
    keywords: dict[str, Any]


def Option(*names: str, **keywords: Any) -> Declared:  # noqa: N802 (typer's name)
    """An option, as ``typer.Option(*names, **keywords)`` declares it."""
    return Declared("option", names, keywords)


def Argument(**keywords: Any) -> Declared:  # noqa: N802 (typer's name)
    """An argument, as ``typer.Argument(**keywords)`` declares it."""
    return Declared("argument", (), keywords)


def declared(fn: Callable[..., Any]) -> dict[str, tuple[Any, Declared | None, Any]]:
    """Each parameter of ``fn`` in order: its type (without the metadata), its
    :class:`Declared` (None when it has none of ours) and its default (:data:`NO_DEFAULT`
    when it has none). Read from the function itself, without :mod:`inspect`, which
    costs more to import than the front door's whole work."""
    hints = typing.get_type_hints(fn, include_extras=True)
    code = fn.__code__
    names = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
    defaults = fn.__defaults__ or ()
    default_of = dict(zip(names[code.co_argcount - len(defaults):code.co_argcount], defaults,
                          strict=True)) | (fn.__kwdefaults__ or {})
    out: dict[str, tuple[Any, Declared | None, Any]] = {}
    for name in names:
        hint = hints.get(name, Any)
        mark = None
        if typing.get_origin(hint) is typing.Annotated:
            base, *meta = typing.get_args(hint)
            marks = [m for m in meta if isinstance(m, Declared)]
            if marks:
                hint, mark = base, marks[0]
        out[name] = (hint, mark, default_of.get(name, NO_DEFAULT))
    return out


def typer_signature(fn: Callable[..., Any], wrapper: Callable[..., Any]) -> None:
    """Give ``wrapper`` (the command ``fn`` wrapped) the signature typer reads, each of
    our declarations made the ``typer.Option`` or ``typer.Argument`` of the same words
    (the other annotations as they are)."""
    import inspect

    import typer

    hints = typing.get_type_hints(fn, include_extras=True)
    params = []
    for name, param in inspect.signature(fn).parameters.items():
        hint = hints.get(name, param.annotation)
        if typing.get_origin(hint) is typing.Annotated:
            base, *meta = typing.get_args(hint)
            meta = [_typer_info(typer, m) if isinstance(m, Declared) else m for m in meta]
            hint = typing.Annotated[(base, *meta)]
        params.append(param.replace(annotation=hint))
    signature = inspect.signature(fn).replace(parameters=params,
                                              return_annotation=hints.get("return", None))
    wrapper.__signature__ = signature  # type: ignore[attr-defined]
    wrapper.__annotations__ = {p.name: p.annotation for p in params} | {
        "return": signature.return_annotation}


def _typer_info(typer: Any, mark: Declared) -> Any:
    if mark.kind == "argument":
        return typer.Argument(**mark.keywords)
    return typer.Option(*mark.names, **mark.keywords)
