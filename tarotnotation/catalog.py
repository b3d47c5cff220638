"""The message catalogue: every sentence a person reads, found in the sources, and the
French ``.po`` file that translates them (``tarotnotation/locale/fr/LC_MESSAGES``).

The English sentences are found the way ``xgettext`` finds them: the first argument of
``Msg("...")`` and ``gettext_("...")`` (and both of ``ngettext``) when it is a literal
string, in every module of the package and of its command line; the meaning of every
diagnostic code (``tarot codes``); and the help texts of every command and option of
``tarot`` (from the command tree itself, so that a new option is found too).
``python -m tarotnotation.catalog`` rewrites the French catalogue with every sentence
found, keeping the translations it holds and leaving the new ones empty; the
completeness test (``tests/i18n/test_i18n.py``) fails while one is empty.
"""

from __future__ import annotations

import ast
import importlib
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from .i18n import CONTEXT_SEP, DOMAIN, read_po

__all__ = ["Entry", "extract", "help_texts", "main", "po_text", "source_files", "translated"]

_MARKERS: Final = frozenset({"Msg", "gettext_", "ngettext", "nmsg", "plural_forms", "pmsg",
                             "pgettext"})
#: The markers whose first argument is a context (``msgctxt``), the msgid following it.
_WITH_CONTEXT: Final = frozenset({"pmsg", "pgettext"})
#: The markers whose second argument is the plural.
_WITH_PLURAL: Final = frozenset({"ngettext", "nmsg", "plural_forms"})


@dataclass
class Entry:
    """One English sentence and where it was found."""

    msgid: str
    plural: str | None = None
    where: list[str] = field(default_factory=list)


def source_files() -> list[Path]:
    """The modules of the package and of its command line."""
    roots = [Path(importlib.import_module("tarotnotation").__file__ or "").parent]
    cli = importlib.import_module("tarotnotation.cli")
    roots.extend(Path(p) for p in cli.__path__)
    files: list[Path] = []
    for root in roots:
        files.extend(p for p in sorted(root.rglob("*.py")) if "grammar" not in p.parts)
    return list(dict.fromkeys(files))


def _literal(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _calls(path: Path) -> Iterator[tuple[str, str | None, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else (
            func.attr if isinstance(func, ast.Attribute) else None)
        if name not in _MARKERS:
            continue
        args = node.args
        context = None
        if name in _WITH_CONTEXT:
            context = _literal(args[0])
            args = args[1:]
            if context is None or not args:
                continue
        first = _literal(args[0])
        if first is None:
            continue
        plural = _literal(args[1]) if name in _WITH_PLURAL and len(args) > 1 else None
        yield (first if context is None else context + CONTEXT_SEP + first), plural, node.lineno


def help_texts() -> Iterator[tuple[str, str]]:
    """Every help text of ``tarot``: the app's, each command's help, epilog and options'
    help (with where each is)."""
    from tarotnotation.cli import app, language  # the command line, loaded on demand

    yield from language.texts(app.get_app())


def extract(with_help: bool = True) -> dict[str, Entry]:
    """Every sentence to translate, by msgid, in the order found."""
    found: dict[str, Entry] = {}
    base = source_files()[0].parent
    for path in source_files():
        for msgid, plural, line in _calls(path):
            if not msgid:
                continue
            entry = found.setdefault(msgid, Entry(msgid, plural))
            try:
                rel = path.relative_to(base)
            except ValueError:  # the command line's modules: cli/x.py
                rel = Path(path.parent.name) / path.name if path.parent.name == "cli" else path
            entry.where.append(f"{rel}:{line}")
    from .diagnostics import Code  # the meaning of each code (tarot codes)

    for code in Code:
        found.setdefault(code.summary, Entry(code.summary)).where.append(
            f"diagnostics.py {code.value}")
    if with_help:
        for text, where in help_texts():
            found.setdefault(text, Entry(text)).where.append(where)
    return found


def _quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
    lines = escaped.split("\n")
    if len(lines) == 1:
        return f'"{escaped}"'
    parts = [f'"{line}\\n"' for line in lines[:-1]] + ([f'"{lines[-1]}"'] if lines[-1] else [])
    return '""\n' + "\n".join(parts)


def po_text(entries: Iterable[Entry], translated: dict[str, str | list[str]],
            lang: str = "fr") -> str:
    """A ``.po`` catalogue of ``entries`` with the translations known."""
    out = [
        "# French messages of tarotnotation (tarot --lang fr).",
        "# The words follow the French glossary of docs/rules.md.",
        'msgid ""',
        'msgstr ""',
        '"Content-Type: text/plain; charset=UTF-8\\n"',
        f'"Language: {lang}\\n"',
        '"Plural-Forms: nplurals=2; plural=(n > 1);\\n"',
        "",
    ]
    for e in entries:
        refs = e.where[:3]
        out.append("#: " + " ".join(refs))
        if "{" in e.msgid.rpartition(CONTEXT_SEP)[2]:
            out.append("#, python-brace-format")
        context, sep, msgid = e.msgid.rpartition(CONTEXT_SEP)
        if sep:
            out.append(f"msgctxt {_quote(context)}")
        out.append(f"msgid {_quote(msgid)}")
        old = translated.get(e.msgid)
        if e.plural is not None:
            out.append(f"msgid_plural {_quote(e.plural)}")
            forms = old if isinstance(old, list) else ["", ""]
            out.extend(f"msgstr[{i}] {_quote(f)}" for i, f in enumerate(forms))
        else:
            out.append(f"msgstr {_quote(old if isinstance(old, str) else '')}")
        out.append("")
    return "\n".join(out)


def translated(msgstr: str | list[str] | None) -> bool:
    """Whether a catalogue's entry is translated: its msgstr, or every plural form.

    >>> translated("donne"), translated(["{n} bout", ""]), translated(None)
    (True, False, False)
    """
    if isinstance(msgstr, list):
        return bool(msgstr) and all(msgstr)
    return bool(msgstr)


def catalog_file(lang: str = "fr") -> Path:
    """The ``.po`` file of ``lang`` in the source tree."""
    root = Path(importlib.import_module("tarotnotation").__file__ or "").parent
    return root / "locale" / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def main(argv: list[str] | None = None) -> int:
    """Rewrite the French catalogue with every sentence found; print what is missing."""
    args = sys.argv[1:] if argv is None else argv
    path = catalog_file()
    old: dict[str, str | list[str]] = {}
    if path.exists():
        old = {m: s for m, s, _, _ in read_po(path.read_text(encoding="utf-8")) if m}
    entries = list(extract().values())
    path.parent.mkdir(parents=True, exist_ok=True)
    if "--check" not in args:
        path.write_text(po_text(entries, old), encoding="utf-8")
    missing = [e.msgid for e in entries if not translated(old.get(e.msgid))]
    print(f"{len(entries) - len(missing)} of {len(entries)} messages translated", file=sys.stderr)
    return 1 if missing and "--check" in args else 0


if __name__ == "__main__":
    raise SystemExit(main())
