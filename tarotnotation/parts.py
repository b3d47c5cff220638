"""The parts of an archive, for tools that read deals in parallel (the archive tools,
:mod:`tarotnotation.archives.stream`): a file whole, or the chunks of whole lines of a
JSON Lines file; :func:`read_part` reads one, offering each line's bytes to a fast path.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

from .cutting import Chunk, chunks_of, file_start, is_json_lines, line_content, stream_chunks
from .formats import detect
from .limits import MAX_JSON_RECORD_BYTES
from .opening import STDIN, binary_fault, file_fault, read_path, read_stream, stdin_stream
from .source import ReadDeal, read_deal

__all__ = ["Part", "in_chunks", "parts_of", "read_part", "stdin_parts"]

Part = str | Chunk
"""What a worker reads on its own: a whole file (its path), or a chunk of whole lines of a
JSON Lines file (a picklable value that knows where its lines start in the file)."""

_T = TypeVar("_T")


def parts_of(path: str | Path) -> Iterator[Part]:
    """The parts of one file, in order: the chunks of a JSON Lines file (about
    :data:`CHUNK_BYTES` each, as ``check_paths`` shares them among its workers), or the
    file whole. Standard input is one part, read in this process.

    >>> list(parts_of("examples/prise.tarot"))
    ['examples/prise.tarot']
    """
    name = str(path)
    return chunks_of(name) if in_chunks(name) else iter((name,))


def in_chunks(path: str | Path) -> bool:
    """Whether :func:`parts_of` cuts ``path`` into chunks (a regular file of JSON Lines),
    not gives it as one part; nothing read but its first line.

    >>> in_chunks("examples/prise.tarot"), in_chunks("-")
    (False, False)
    """
    name = str(path)
    return name != STDIN and is_json_lines(name)


def stdin_parts() -> tuple[Iterator[Chunk], Iterator[ReadDeal]]:
    """Standard input for the workers of a cluster, as ``(chunks, deals)``: JSON Lines
    in chunks of whole lines (:func:`~tarotnotation.cutting.stream_chunks`, numbered from
    the stream's start, read as they are taken: one chunk held at a time), no deal; any
    other format, no chunk, and its deals read here as :func:`read_path` reads ``-`` (an
    F002 or S007 for a stream that cannot be read or is binary)."""
    fh = stdin_stream()
    try:
        kind, stream = detect.detected(fh)
    except OSError as err:
        return iter(()), iter((read_deal(0, None, (file_fault("<stdin>", err),)),))
    except detect.BinaryError as err:
        return iter(()), iter((read_deal(0, None, (binary_fault("<stdin>", err),)),))
    if kind.name == "jsonl":
        return stream_chunks(stream, STDIN), iter(())
    return iter(()), read_stream(stream, "<stdin>", kind.name)


def read_part(part: Part, fast: Callable[[bytes], _T | None] | None = None
              ) -> Iterator[ReadDeal | tuple[int, int, _T]]:
    """Every deal of a part, as :func:`read_path` reads them (numbers, lines and offsets
    count from the file's start).

    ``fast``, when given, is offered each JSON Lines record after the file's first, as
    its bytes (without the blanks around it, at most :data:`MAX_JSON_RECORD_BYTES`):
    when it returns a value, ``(index, line, value)`` stands for that deal and the line
    is not read further; when it returns None the line is read as usual (and its faults
    reported). This is where a fast path that judges plain records from their data
    (:func:`tarotnotation.quick.quick_facts_line`, as :func:`check_paths` does) plugs in.
    """
    if isinstance(part, str):
        yield from read_path(part)
        return
    from .formats import json as json_format

    path, lines = part.path, part.lines
    name = "<stdin>" if path == STDIN else path  # (the reader's name, as read_path's)
    index, lineno, offset = part.index, part.lineno, part.offset
    start = 0
    if part.first:  # the file's start: a byte-order mark, blank lines, the first record
        head, start, data = file_start(lines)
        yield from json_format.read_stream(io.BytesIO(data), name)
        index, lineno, offset = (1 if head < len(lines) else 0), start, len(data)
    limit = MAX_JSON_RECORD_BYTES
    for raw in lines[start:]:
        lineno += 1
        at = offset
        offset += len(raw)
        line = line_content(raw)
        if not line:
            continue
        index += 1
        if fast is not None and len(line) <= limit:
            value = fast(line)
            if value is not None:
                yield index, lineno, value
                continue
        yield from json_format.read_lines(io.BytesIO(raw), name, index=index - 1,
                                          lineno=lineno - 1, offset=at)
