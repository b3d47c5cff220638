"""JSON and JSON Lines import and export of deal records (orjson), format version 1.

A record is a JSON object: the model's fields (see ``docs/json-format.md`` and the JSON
Schema in ``docs/tarot-record.schema.json``), led by ``"tarotnotation": 1``, the format
version. Fields at their default are left out; cards are codes (``"7H"``, ``"T21"``,
``"EX"``); the taker's points are a number that may end in ``.5``.

Three layouts are read: one record object; an archive document
``{"tarotnotation": 1, "deals": [...]}`` (or a bare list of records); and JSON Lines, one
record per line. Import errors name the JSON path of the fault (``$.play[2].cards[0]``).

>>> from tarotnotation.records import DealRecord
>>> rec = DealRecord(players=4, dealer="N", auction=[{"contract": "garde"}])
>>> text = dumps(rec)
>>> text[:60]
'{"tarotnotation":1,"players":4,"seats":[{"id":"S"},{"id":"E"'
>>> loads(text) == rec
True
>>> loads(b'{"tarotnotation": 1, "players": 4, "chien": ["7H", "7H"]}')
Traceback (most recent call last):
...
tarotnotation.diagnostics.TarotError: S006 error: $.chien: card 7H appears twice
"""

from __future__ import annotations

import contextlib
import functools
import io
import itertools
import warnings
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Final

import orjson

from ..diagnostics import Code, Diagnostic, TarotError
from ..encoding import first_bad_byte, not_utf8
from ..i18n import Msg, message_of
from ..limits import MAX_ITEMS, MAX_JSON_RECORD_BYTES, exceeded
from ..source import ReadDeal, SourceMap, read_deal
from .base import Format, Head
from .jsonpos import DealStarts, JsonPositions, locate

if TYPE_CHECKING:  # (the model: imported when a record is built by it, or written)
    from pydantic import TypeAdapter

    from ..records import DealRecord

__all__ = [
    "JSON",
    "JSON_LINES",
    "VERSION",
    "dump",
    "dumps",
    "dumps_bytes",
    "from_dict",
    "json_schema",
    "json_type",
    "load",
    "loads",
    "read",
    "read_lines",
    "read_stream",
    "to_dict",
    "write",
    "write_document",
]

#: The version of the JSON format written by this module.
VERSION: Final = 1
_KEY: Final = "tarotnotation"
#: An optional key naming the JSON Schema (editors validate with it); read and ignored.
_SCHEMA_KEY: Final = "$schema"


@functools.cache
def _adapter() -> TypeAdapter[DealRecord]:
    """The model's adapter, made on first use (a plain clean deal never needs it)."""
    from pydantic import TypeAdapter

    from ..records import DealRecord

    return TypeAdapter(DealRecord)


def to_dict(record: DealRecord) -> dict[str, Any]:
    """The JSON object of a record, as plain Python data (version key first)."""
    body = record.model_dump(mode="json", exclude_defaults=True)
    body["players"] = record.players
    return {_KEY: VERSION, **body}


def dumps(record: DealRecord, *, indent: bool = False) -> str:
    """The JSON text of one record (a ``str``, compact unless ``indent``), as
    :func:`tarotnotation.notation.dumps` gives the notation's; :func:`dumps_bytes` gives
    its UTF-8 bytes, for a file or a stream.

    >>> from tarotnotation import notation
    >>> rec = notation.load("examples/prise.tarot")
    >>> text = dumps(rec)
    >>> type(text).__name__, text.encode("utf-8") == dumps_bytes(rec), loads(text) == rec
    ('str', True, True)
    """
    return dumps_bytes(record, indent=indent).decode("utf-8")


def dumps_bytes(record: DealRecord, *, indent: bool = False) -> bytes:
    """The JSON text of one record as UTF-8 bytes (compact unless ``indent``)."""
    option = orjson.OPT_INDENT_2 if indent else 0
    return orjson.dumps(to_dict(record), option=option)


def dump(record: DealRecord, fp: IO[bytes], *, indent: bool = False) -> None:
    """Write one record as JSON to a binary file."""
    fp.write(dumps_bytes(record, indent=indent))
    if indent:
        fp.write(b"\n")


def json_path(loc: Iterable[int | str], prefix: str = "$") -> str:
    """A JSON path from a pydantic error location (discriminator tags dropped).

    >>> json_path(("declarations", 0, "poignee", "cards"))
    '$.declarations[0].cards'
    """
    from ..faults import path_of

    return path_of(loc, prefix)


def from_dict(obj: Any, *, prefix: str = "$") -> DealRecord:
    """The record of a parsed JSON object; raises :class:`TarotError` naming JSON paths."""
    if not isinstance(obj, dict):
        raise TarotError(Diagnostic.make(
            Code.JSON_SCHEMA, Msg("expected a deal record (a JSON object), found {json_type}",
                                  json_type=json_type(obj)), path=prefix))
    version = obj.get(_KEY, VERSION)
    if version != VERSION:
        raise TarotError(Diagnostic.make(
            Code.JSON_VERSION, Msg("format version {version} is not known: expected {version2}",
                                   version=repr(version), version2=VERSION),
                               path=f"{prefix}.{_KEY}"))
    body = {k: v for k, v in obj.items() if k != _KEY and k != _SCHEMA_KEY}
    too_many = _too_many(body, prefix)
    if too_many is not None:
        raise TarotError(too_many)
    from pydantic import ValidationError

    from ..builder import build_record
    from ..faults import model_faults

    record = build_record(body)  # the usual shape, without pydantic: the same record
    if record is not None:
        return record
    try:
        return _adapter().validate_python(body)
    except ValidationError as err:
        raise TarotError(model_faults(err, prefix)) from None
    except ValueError as err:  # e.g. a ruleset spec raised outside pydantic's wrapping
        raise TarotError(Diagnostic.make(Code.JSON_SCHEMA, message_of(err), path=prefix)) from None


def json_type(obj: object) -> str:
    """How an error message names the type of a parsed JSON value: ``a list``, ``null``…"""
    return {dict: Msg("an object"), list: Msg("a list"), str: Msg("a string"),
            bool: Msg("true or false"), int: Msg("a number"), float: Msg("a number"),
            type(None): "null"}.get(type(obj)) or Msg("a value")


def _parse(data: bytes | str) -> Any:
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as err:
        raise TarotError(json_fault(data, err)) from None


def json_fault(data: bytes | str, err: orjson.JSONDecodeError, offset: int = 0,
               line: int | None = None) -> Diagnostic:
    """The diagnostic of JSON text that orjson refuses: S007 for bytes that are not UTF-8
    (with the byte offset; ``offset`` is where ``data`` starts in its file), L001 for
    nesting or a number past orjson's limits, J001 for anything else."""
    where: dict[str, Any] = {"line": err.lineno if line is None else line, "col": err.colno,
                             "path": "$"}
    if isinstance(data, bytes) and "UTF-8" in err.msg:
        bad = first_bad_byte(data)
        if bad is not None:
            msg, col = not_utf8(data, bad, offset)
            if line is None:
                where["line"] = data.count(b"\n", 0, bad.start) + 1
            where["col"] = col
            return Diagnostic.make(Code.ENCODING, Msg("{message}; this record is not read",
                                                                 message=msg), **where)
    if "depth limit" in err.msg:
        return Diagnostic.make(Code.LIMIT_EXCEEDED, Msg("the JSON is nested deeper than 1,024"
                                                        " levels (the limit JSON_MAX_DEPTH of"
                                                        " tarotnotation.limits, set by orjson)"),
                                                    **where)
    if "infinity" in err.msg:
        return Diagnostic.make(Code.LIMIT_EXCEEDED, Msg("a number is too large to be read (beyond"
                                                        " the range of a double)"), **where)
    return Diagnostic.make(Code.JSON_SYNTAX, Msg("not valid JSON: {msg}", msg=err.msg), **where)


def _too_many(obj: dict[str, Any], path: str) -> Diagnostic | None:
    """L001 when a list of the record (or a trick's cards) has more than MAX_ITEMS items."""
    for key, value in obj.items():
        if type(value) is not list:
            continue
        if len(value) > MAX_ITEMS:
            return Diagnostic.make(Code.LIMIT_EXCEEDED, exceeded(
                Msg("{path} has {n} items, more than", path=f"{path}.{key}",
                    n=f"{len(value):,}"), "MAX_ITEMS", Msg("items; the record is not read")),
                path=f"{path}.{key}")
        if key == "play":
            for i, trick in enumerate(value):
                cards = trick.get("cards") if type(trick) is dict else None
                if type(cards) is list and len(cards) > MAX_ITEMS:
                    return Diagnostic.make(Code.LIMIT_EXCEEDED, exceeded(
                        Msg("{path} has {n} items, more than",
                            path=f"{path}.play[{i}].cards", n=f"{len(cards):,}"),
                        "MAX_ITEMS", Msg("items; the record is not read")),
                        path=f"{path}.play[{i}].cards")
    return None


def loads(data: bytes | str) -> DealRecord:
    """The record of a JSON text holding one record object."""
    return from_dict(_parse(data))


def load(fp: IO[bytes] | str | Path) -> DealRecord:
    """The record of a JSON file (a path or a binary file object)."""
    if isinstance(fp, (str, Path)):
        return loads(Path(fp).read_bytes())
    return loads(fp.read())


def write(records: Iterable[DealRecord], fp: IO[bytes], *, lines: bool = True) -> int:
    """Write records as JSON Lines (default) or as one archive document, a record a line;
    returns the count. Either is read back one record at a time."""
    count = 0
    if lines:
        for record in records:
            fp.write(dumps_bytes(record))
            fp.write(b"\n")
            count += 1
        return count
    # One record a line: the reader then takes each record in one step (it reads any
    # layout, one record at a time).
    fp.write(b'{"' + _KEY.encode() + b'":' + str(VERSION).encode() + b',"deals":[\n')
    for record in records:
        if count:
            fp.write(b",\n")
        fp.write(dumps_bytes(record))
        count += 1
    fp.write(b"\n]}\n" if count else b"]}\n")
    return count


def read(source: bytes | str | Path | IO[bytes], *, name: str | None = None
         ) -> Iterator[ReadDeal]:
    """Yield every deal of a JSON record, archive document or JSON Lines input.

    ``source`` is a path, a binary file, or the bytes/str themselves. JSON Lines are read
    line by line (constant memory); a broken line is reported and the next one read.
    """
    if isinstance(source, Path) or (isinstance(source, str) and not source.lstrip().startswith(
            ("{", "["))):
        path = Path(source)
        name = name or str(path)
        with path.open("rb") as fh:
            yield from read_stream(fh, name)
        return
    if isinstance(source, (bytes, str)):
        data = source.encode() if isinstance(source, str) else source
        yield from read_stream(io.BytesIO(data), name)
        return
    yield from read_stream(source, name)


def read_stream(fh: IO[bytes], name: str | None) -> Iterator[ReadDeal]:
    """Read a binary stream: JSON Lines line by line, or one JSON document whole.

    The first non-blank line decides: a complete JSON object that is not an archive
    document (no ``deals`` key) starts JSON Lines, read one line at a time from ``fh``
    (memory does not grow with the archive); anything else is one JSON value (a record,
    an archive, a list) or not JSON at all, read whole so that junk gives one error
    rather than a phantom deal for every line.
    """
    offset = 0
    lineno = 0
    first = b""
    limit = MAX_JSON_RECORD_BYTES
    for raw in iter(lambda: fh.readline(limit + 1), b""):
        lineno += 1
        if lineno == 1 and raw.startswith(_BOM):
            offset += len(_BOM)
            raw = raw[len(_BOM):]
        if raw.strip():
            first = raw
            break
        offset += len(raw)
    if not first:
        return  # an empty input holds no deal
    if len(first) > limit and not first.endswith(b"\n"):  # a line past the limit
        if first.lstrip().startswith(b"[") or b'"deals"' in first[:1 << 16]:
            yield from _read_archive(first, fh, name, lineno, offset)  # an archive on a line
            return
        size = len(first) + _skip_line(fh)  # one record past the limit: JSON Lines go on
        yield read_deal(1, None, (Diagnostic.make(Code.LIMIT_EXCEEDED, exceeded(
            Msg("this line has more than"), "MAX_JSON_RECORD_BYTES",
            Msg("bytes; it is not read")),
            file=name, line=lineno, col=1, deal=1, path="$"),), line=lineno, offset=offset)
        yield from read_lines(fh, name, index=1, lineno=lineno, offset=offset + size)
        return
    first_fault: Diagnostic | None = None
    try:
        obj = orjson.loads(first)
    except orjson.JSONDecodeError as err:
        obj = None
        if "UTF-8" in err.msg:  # judge the layout by the rest; the line gets its S007
            first_fault = json_fault(first, err, offset, lineno)
            with contextlib.suppress(orjson.JSONDecodeError):
                obj = orjson.loads(first.decode("utf-8", "replace"))
    if not isinstance(obj, dict) or "deals" in obj:
        yield from _read_archive(first, fh, name, lineno, offset)
        return
    if first_fault is not None:
        yield read_deal(1, None, (first_fault.at(file=name, deal=1),), line=lineno,
                       offset=offset)
    else:
        yield _one(obj, 1, "$", name, lineno, offset, first)
    offset += len(first)
    yield from read_lines(fh, name, index=1, lineno=lineno, offset=offset)


_BOM: Final = b"\xef\xbb\xbf"


def _skip_line(fh: IO[bytes]) -> int:
    """Read past the end of the current line, 64 KiB at a time; the bytes skipped."""
    skipped = 0
    while True:
        more = fh.readline(1 << 16)
        skipped += len(more)
        if not more or more.endswith(b"\n"):
            return skipped


def _read_archive(head: bytes, fh: IO[bytes], name: str | None, line: int, offset: int
                  ) -> Iterator[ReadDeal]:
    """A JSON document that is not JSON Lines, from ``head`` (its start) and ``fh``: read
    whole when it is within MAX_JSON_RECORD_BYTES; beyond, an archive's records one at a
    time as they are read (:mod:`.jsondoc`), in bounded memory whatever its size."""
    from . import jsondoc

    limit = MAX_JSON_RECORD_BYTES
    if len(head) <= limit:
        head += fh.read(limit + 1 - len(head))
        if len(head) <= limit:
            yield from _read_document(head, name)
            return
    count = 0
    for piece in jsondoc.split(fh, head, line=line, offset=offset):
        if isinstance(piece, jsondoc.Whole):
            yield from _read_document(piece.data, name)
            return
        if isinstance(piece, jsondoc.Header):
            version = piece.members.get(_KEY, VERSION)
            if version != VERSION:
                yield read_deal(count + 1, None, (Diagnostic.make(
                    Code.JSON_VERSION, Msg("format version {version} is not known: expected"
                                           " {version2}",
                                           version=repr(version), version2=VERSION),
                    path=f"$.{_KEY}", file=name),))
                return
            continue
        if isinstance(piece, jsondoc.Fault):
            code = Code.LIMIT_EXCEEDED if piece.limit else Code.JSON_SYNTAX
            index = count + 1 if piece.index is None else piece.index + 1
            if piece.index is not None:
                count = index
            yield read_deal(index, None, (Diagnostic.make(
                code, piece.message if piece.limit else f"not valid JSON: {piece.message}",
                file=name, line=piece.line, col=piece.col, deal=index, path=piece.path),),
                line=piece.line, offset=piece.offset)
            continue
        count = piece.index + 1
        obj = piece.parsed
        if obj is None:
            try:
                obj = orjson.loads(piece.data)
            except orjson.JSONDecodeError as err:
                at = piece.line + err.lineno - 1
                diag = json_fault(piece.data, err, piece.offset, at)
                if err.lineno == 1:
                    diag = diag.at(col=(diag.location.col or 1) + piece.col - 1)
                yield read_deal(count, None, (diag.at(file=name, deal=count, path=piece.path),),
                               line=piece.line, offset=piece.offset)
                continue
        yield _one(obj, count, piece.path, name, piece.line, piece.offset)


def _read_document(data: bytes, name: str | None) -> Iterator[ReadDeal]:
    if len(data) > MAX_JSON_RECORD_BYTES and not (
            data.lstrip().startswith(b"[") or b'"deals"' in data[:1 << 16]):
        yield read_deal(1, None, (Diagnostic.make(Code.LIMIT_EXCEEDED, exceeded(
            Msg("this JSON record (not an archive with a \"deals\" list) has more than"),
            "MAX_JSON_RECORD_BYTES", Msg("bytes; it is not read")), file=name, line=1, deal=1,
            path="$"),))
        return
    try:
        obj = _parse(data)
    except TarotError as err:
        yield read_deal(1, None, tuple(d.at(file=name, deal=1) for d in err.diagnostics))
        return
    if isinstance(obj, dict) and "deals" in obj:
        version = obj.get(_KEY, VERSION)
        if version != VERSION:
            yield read_deal(1, None, (Diagnostic.make(
                Code.JSON_VERSION, Msg("format version {version} is not known: expected"
                                       " {version2}",
                                       version=repr(version), version2=VERSION),
                                   path=f"$.{_KEY}", file=name),))
            return
        deals = obj["deals"]
        prefix = "$.deals"
        if not isinstance(deals, list):
            yield read_deal(1, None, (Diagnostic.make(
                Code.JSON_SCHEMA, Msg("expected a list of deal records"), path=prefix, file=name),))
            return
    elif isinstance(obj, list):
        deals, prefix = obj, "$"
    else:
        deals, prefix = [obj], ""
    starts = DealStarts(data, whole=not prefix)
    for i, item in enumerate(deals):
        path = f"{prefix}[{i}]" if prefix else "$"
        yield _one(item, i + 1, path, name, None, text=data, start=starts.of(i))


def read_lines(fh: IO[bytes], name: str | None = None, *, index: int = 0, lineno: int = 0,
               offset: int = 0) -> Iterator[ReadDeal]:
    """The deals of JSON Lines, one line at a time; counts continue from the arguments.

    A line longer than MAX_JSON_RECORD_BYTES is never held whole: its start is read, the
    rest skipped, and it is reported (L001)."""
    limit = MAX_JSON_RECORD_BYTES
    for raw in iter(lambda: fh.readline(limit + 1), b""):
        lineno += 1
        start = offset
        offset += len(raw)
        if len(raw) > limit and not raw.endswith(b"\n"):
            offset += _skip_line(fh)
        line = raw.strip()
        if line.startswith(_BOM):  # where files were concatenated
            line = line[len(_BOM):]
        if not line:
            continue
        index += 1
        if len(line) > MAX_JSON_RECORD_BYTES:
            yield read_deal(index, None, (Diagnostic.make(Code.LIMIT_EXCEEDED, exceeded(
                Msg("this line has more than"), "MAX_JSON_RECORD_BYTES",
                Msg("bytes; it is not read")),
                file=name, line=lineno, col=1, deal=index, path="$"),),
                line=lineno, offset=start)
            continue
        try:
            obj = orjson.loads(line)
        except orjson.JSONDecodeError as err:
            diag = json_fault(raw, err, start, lineno)
            yield read_deal(index, None, (diag.at(file=name, deal=index),),
                           line=lineno, offset=start)
            continue
        yield _one(obj, index, "$", name, lineno, start, raw,
                   len(_BOM) if raw.startswith(_BOM) else 0)


def _one(obj: Any, index: int, path: str, name: str | None, line: int | None,
         offset: int | None = None, text: bytes | None = None,
         start: int | Callable[[], tuple[int, int]] = 0) -> ReadDeal:
    """One deal read from its parsed JSON; ``text`` (the JSON Lines line, or the whole
    document with ``start`` finding the deal in it) gives its faults line and column."""
    positions = None if text is None else JsonPositions(
        text, start, 1 if line is None else line)
    try:
        record = from_dict(obj, prefix=path)
    except TarotError as err:
        diags = []
        for d in err.diagnostics:
            d = d.at(file=name, deal=index, line=line if line is not None else d.location.line)
            if positions is not None and d.location.path is not None:
                d = locate(d, positions, path)
            diags.append(d)
        return read_deal(index, None, tuple(diags), line=line, offset=offset)
    source = None if positions is None else SourceMap(name, positions)
    return read_deal(index, record, (), source=source, line=line, offset=offset)


def json_schema() -> dict[str, Any]:
    """The JSON Schema of a record in format version 1."""
    schema = _adapter().json_schema(mode="serialization")
    # A declaration serialises through a wrap serializer (to write ``kind`` first), which
    # pydantic can only describe as "any object": take the three kinds from the validation
    # schema, where each is exact, and require ``kind``, which the writer always writes.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # defaults such as CardSet() are not JSON values
        exact = _adapter().json_schema(mode="validation")["$defs"]
    defs = schema["$defs"]
    for name in ("Poignee", "ChelemAnnouncement", "Misere"):
        decl = exact[name]
        decl["required"] = ["kind", *decl.get("required", [])]
        if name == "Poignee":  # the model's check: the size, the cards shown, or both
            decl["anyOf"] = [{"required": ["size"]}, {"required": ["cards"]}]
        defs[name] = decl
    for name, definition in exact.items():  # what those refer to (MisereKind...)
        defs.setdefault(name, definition)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "tarotnotation deal record, format version 1"
    props = schema.setdefault("properties", {})
    schema["properties"] = {
        _KEY: {"const": VERSION, "description": "format version"},
        _SCHEMA_KEY: {"type": "string", "description": "the JSON Schema of the record"
                      " (optional, ignored by readers)"},
        **props,
    }
    return schema


def write_document(records: Iterable[DealRecord], fp: IO[bytes]) -> int:
    """Write one record as one indented object, several as an archive document (a record
    a line); returns the count."""
    it = iter(records)
    first = list(itertools.islice(it, 2))
    if len(first) == 1:
        dump(first[0], fp, indent=True)
        return 1
    return write(itertools.chain(first, it), fp, lines=False)


# --- the formats, as the registry (formats/registry.py) knows them --------------------------


def _sniff_lines(head: Head) -> bool:
    """A whole record object on the first line (no ``deals`` key), and more after it."""
    obj = head.line_object
    return head.looks_like_json and obj is not None and "deals" not in obj and head.more_lines


#: JSON Lines: one record a line.
JSON_LINES: Final = Format(
    name="jsonl",
    title=Msg("JSON Lines (one record per line)"),
    suffixes=(".jsonl", ".ndjson"),
    sniff=_sniff_lines,
    read=read_stream,
    write=lambda records, fp: write(records, fp, lines=True),
)
#: JSON: one record, an archive document ``{"tarotnotation": 1, "deals": [...]}`` or a list.
JSON: Final = Format(
    name="json",
    title=Msg("JSON (a record, or an archive of records)"),
    suffixes=(".json",),
    sniff=lambda head: head.looks_like_json,
    read=read_stream,
    write=write_document,
)


def _main(argv: list[str]) -> int:
    """``python -m tarotnotation.formats.json --schema`` prints the JSON Schema."""
    import sys

    if argv[1:] == ["--schema"]:
        sys.stdout.buffer.write(
            orjson.dumps(json_schema(), option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS)
            + b"\n"
        )
        return 0
    sys.stderr.write("usage: python -m tarotnotation.formats.json --schema\n")
    return 2


if __name__ == "__main__":
    import sys

    raise SystemExit(_main(sys.argv))
