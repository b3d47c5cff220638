"""How an input is named, opened and sized: a path of this machine, or an fsspec URL.

An input named ``PROTOCOL://…`` (``s3://bucket/season.jsonl``, ``gcs://…``,
``file:///data/season.jsonl``) is read through `fsspec <https://filesystem-spec.
readthedocs.io/>`_ where it is installed (it comes with Dask); any other name is a path.
The readers, the cutting of files for workers (byte ranges of JSON Lines, parts of a
.tarot file) and the checks of a cluster's workers open, size and look at their inputs
here only, so that a URL is read as a path is: opened once, sought, read a block at a
time, never whole.

>>> is_url("s3://bucket/season.jsonl"), is_url("file:///data/x.tarot"), is_url("x.tarot")
(True, True, False)
>>> is_url("C:/deals.tarot"), is_url("-")
(False, False)
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import stat
from collections.abc import Collection
from pathlib import PosixPath, PurePosixPath
from typing import IO, Any, Final, cast

from .i18n import Msg

__all__ = ["INSTALL", "Url", "expand_url", "folder_files", "is_regular", "is_url",
           "local_path", "open_bytes", "readable", "size_of", "url_fault"]

#: How to install what a URL needs.
INSTALL: Final = "pip install fsspec"
_URL: Final = re.compile(r"[A-Za-z][A-Za-z0-9+.-]+://")
#: What makes a name a pattern (as for :mod:`glob`).
_MAGIC: Final = frozenset("*?[")


def is_url(name: str) -> bool:
    """Whether ``name`` is a URL (``PROTOCOL://…``), not a path."""
    return _URL.match(name) is not None


def local_path(name: str) -> str:
    """The file of this machine an input names: a path itself, the path of a ``file://``
    URL (what an output must not be written over); another URL as it is.

    >>> local_path("file:///data/season.jsonl"), local_path("season.jsonl")
    ('/data/season.jsonl', 'season.jsonl')
    >>> local_path("s3://bucket/season.jsonl")
    's3://bucket/season.jsonl'
    """
    if is_url(name) and name[:7].lower() == "file://":
        try:  # (the path fsspec opens, which the reading reads: never percent-decoded)
            from fsspec.core import url_to_fs
        except ImportError:  # (then the URL cannot be read at all)
            from urllib.parse import unquote, urlsplit

            return unquote(urlsplit(name).path) or "/"
        return str(url_to_fs(name)[1]) or "/"
    return name


class Url(PosixPath):
    """A URL among the paths of a walk (:func:`tarotnotation.opening.walk`): a path for
    its name and extension (a chained URL's first link's), whose text (``str``) is the
    URL as given (a path's would fold its ``//``).

    >>> u = Url("zip://x.tarot::file:///a.zip")
    >>> u.name, str(u)
    ('x.tarot', 'zip://x.tarot::file:///a.zip')
    """

    __slots__ = ("_url",)
    _url: str

    def __new__(cls, url: str) -> Url:
        # (a chained URL, zip://x.tarot::file:///a.zip, is named by its first link)
        made = super().__new__(cls, url.split("::", 1)[0])
        made._url = url
        return made

    def __str__(self) -> str:
        return self._url

    def __fspath__(self) -> str:
        return self._url

    def __repr__(self) -> str:
        return f"Url({self._url!r})"

    def __reduce__(self) -> tuple[type[Url], tuple[str]]:
        return Url, (self._url,)


def url_fault(name: str) -> Msg | None:
    """Why the URL ``name`` cannot be read on this machine, None when it can be opened:
    fsspec not installed, its protocol unknown, or the package of its file system
    missing (``s3fs`` for ``s3://``...)."""
    try:
        import fsspec
    except ImportError:
        return Msg("{url}: reading a URL needs fsspec, which is not installed: {command}",
                   url=name, command=INSTALL)
    protocol = name.split("://", 1)[0].lower()
    try:
        fsspec.get_filesystem_class(protocol)
    except ImportError as err:  # (fsspec's own words: "Install s3fs to access S3")
        return Msg("{url}: the file system {protocol}:// needs a package that is not"
                   " installed ({reason})", url=name, protocol=protocol, reason=str(err))
    except ValueError:
        return Msg("{url}: fsspec knows no file system {protocol}://", url=name,
                   protocol=protocol)
    return None


def _fs(name: str) -> tuple[Any, str]:
    """The fsspec file system of a URL and the path in it; ``OSError`` when it cannot be
    had (fsspec or the file system's package missing, a protocol unknown, its options
    refused)."""
    fault = url_fault(name)
    if fault is not None:
        raise OSError(str(fault))
    from fsspec.core import url_to_fs

    try:
        return cast("tuple[Any, str]", url_to_fs(name))
    except (ValueError, TypeError, ImportError) as err:
        raise OSError(str(err)) from None


def _oserror(err: Exception) -> OSError:
    """A file system's failure as the readers expect it: an ``OSError``."""
    return err if isinstance(err, OSError) else OSError(str(err) or type(err).__name__)


def open_bytes(name: str) -> IO[bytes]:
    """An input opened for reading as bytes (sought, read a block at a time): a path, or
    a URL through its fsspec file system; ``OSError`` when it cannot be."""
    if not is_url(name):
        return open(name, "rb")  # (the caller closes it)
    fs, path = _fs(name)
    try:
        opened = fs.open(path, "rb")
    except Exception as err:  # (a file system's own errors: a network's, a service's)
        raise _oserror(err) from None
    from fsspec.implementations.local import LocalFileOpener

    if isinstance(opened, LocalFileOpener):
        return cast("IO[bytes]", opened)  # (a file of this machine: OSError its errors)
    # The files of s3fs, gcsfs, adlfs, zip://...: their readline may take no limit, which
    # the readers give to bound a line (a buffered reader's does), and their errors may
    # be anything (a closed archive's ValueError): each is an OSError to the readers.
    return cast("IO[bytes]", io.BufferedReader(_Guarded(opened, fs)))


class _Guarded(io.RawIOBase):
    """A file system's file whose every failure is an ``OSError``; it holds its file
    system (``fs``) while it is open: a file in a ``zip://`` archive is read from the
    archive's file, which its file system closes when it is collected."""

    def __init__(self, raw: Any, fs: Any) -> None:
        super().__init__()
        self._raw = raw
        self._fs = fs

    def _failed(self, err: Exception) -> OSError:
        return _oserror(err)

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        try:
            return bool(self._raw.seekable())
        except Exception:
            return False

    def readinto(self, buffer: Any) -> int:
        try:
            data = self._raw.read(len(buffer))
        except Exception as err:
            raise self._failed(err) from None
        buffer[:len(data)] = data
        return len(data)

    def seek(self, offset: int, whence: int = 0) -> int:
        try:
            return int(self._raw.seek(offset, whence))
        except Exception as err:
            raise self._failed(err) from None

    def tell(self) -> int:
        try:
            return int(self._raw.tell())
        except Exception as err:
            raise self._failed(err) from None

    def close(self) -> None:
        with contextlib.suppress(Exception):  # (closing what failed: nothing to say)
            self._raw.close()
        super().close()


def size_of(name: str) -> int:
    """An input's size in bytes; ``OSError`` when it cannot be told."""
    if not is_url(name):
        return os.path.getsize(name)
    fs, path = _fs(name)
    try:
        return int(fs.size(path))
    except Exception as err:
        raise _oserror(err) from None


def is_regular(name: str) -> bool:
    """Whether an input is a file that can be read more than once and sought (not a
    FIFO, a device, a folder): a regular file, or a URL's file; ``OSError`` when it
    cannot be told."""
    if not is_url(name):
        return stat.S_ISREG(os.stat(name).st_mode)
    fs, path = _fs(name)
    try:
        return bool(fs.isfile(path))
    except Exception as err:
        raise _oserror(err) from None


def readable(names: list[str]) -> list[str]:
    """Which of ``names`` (absolute paths, URLs) this process cannot read (run on each
    worker of a cluster)."""
    missing = []
    for name in names:
        if not is_url(name):
            if not os.access(name, os.R_OK):
                missing.append(name)
            continue
        try:
            with open_bytes(name):
                pass
        except OSError:
            missing.append(name)
    return missing


def _named(name: str, path: str) -> str:
    """The URL of ``path`` in the file system of the URL ``name``, with its protocol as
    ``name`` spells it.

    >>> _named("file:///data/*.jsonl", "/data/a.jsonl"), _named("s3://b/x/", "b/x/a.tarot")
    ('file:///data/a.jsonl', 's3://b/x/a.tarot')
    """
    return name[:name.index("://") + 3] + path


def _listable(name: str, path: str) -> bool:
    """Whether the paths the file system of the URL ``name`` lists can be named as URLs
    by :func:`_named`: its path of ``name`` is the URL's rest (``file://``, ``s3://``,
    ``gcs://``, ``memory://``...), not a path without the host (``ftp://``, ``sftp://``)
    nor a whole URL (``http://``), nor one link of a chain (``zip://…::file://…``).

    >>> _listable("s3://b/x/", "b/x"), _listable("ftp://h.org/d/", "/d")
    (True, False)
    """
    rest = name.split("://", 1)[1]
    return "::" not in rest and rest.rstrip("/") == path.rstrip("/")


def _hidden(pattern: str, path: str) -> bool:
    """Whether :mod:`glob` would leave out ``path``, a match of ``pattern``: a name that
    starts with a dot, matched by a wildcard that does not start with a dot itself
    (``**`` matches no such name either).

    >>> _hidden("d/*/*.jsonl", "d/.git/x.jsonl"), _hidden("d/**", "d/a/x.jsonl")
    (True, False)
    >>> _hidden("d/.h/*.jsonl", "d/.h/x.jsonl"), _hidden("d/*/.h/*.t", "d/.g/.h/x.t")
    (False, True)
    >>> _hidden("d/**/*.t", "d/a/.b/x.t"), _hidden("d/.*", "d/.x")
    (True, False)
    """
    wanted = PurePosixPath(pattern).parts
    got = PurePosixPath(path).parts
    if wanted.count("**") > 1:  # (rare: any dot name under a wildcard part)
        fixed = next((i for i, part in enumerate(wanted) if _MAGIC & set(part)),
                     len(wanted))
        return any(part.startswith(".") for part in got[fixed:])
    if "**" in wanted:
        at = wanted.index("**")
        tail = len(wanted) - at - 1
        pairs = [*zip(wanted[:at], got[:at], strict=False),
                 *(("**", part) for part in got[at:len(got) - tail]),
                 *zip(wanted[at + 1:], got[len(got) - tail:], strict=False)]
    else:
        pairs = list(zip(wanted, got, strict=False))
    return any(_MAGIC & set(want) and not want.startswith(".") and part.startswith(".")
               for want, part in pairs)


def expand_url(name: str) -> list[str]:
    """The URLs a URL given on the command line stands for: a pattern's matches (``*``,
    ``?``, ``[...]``, ``**`` through folders), sorted and without dot files as a local
    pattern's are (:func:`glob.glob`); itself otherwise (not a pattern, the name of a
    file, a pattern that matches nothing or whose file system cannot be asked: read as
    a name, it is then said as one that names nothing, or cannot be read)."""
    if not is_url(name) or not _MAGIC & set(name.split("://", 1)[1]):
        return [name]
    try:
        fs, path = _fs(name)
        if not _listable(name, path) or fs.exists(path):
            return [name]
        if name.endswith("/"):  # (folders only, as a local pattern ending with / gives)
            found = [f"{str(match).rstrip('/')}/" for match, info
                     in fs.glob(path, detail=True).items()
                     if info.get("type") == "directory"]
        else:
            found = [str(match) for match in fs.glob(path)]
    except Exception:  # (a file system's own errors: the reading says them)
        return [name]
    return sorted(_named(name, p) for p in found if not _hidden(path, p)) or [name]


def folder_files(name: str, suffixes: Collection[str]
                 ) -> list[tuple[str, OSError | None]] | None:
    """The files in the folder the URL ``name`` names, and in its folders (those whose
    extension is one of ``suffixes``), sorted as a local folder's are (by their names'
    parts), each with None; a folder that cannot be listed in its place, with why (the
    others are still listed). None when ``name`` is not a folder's: a file, nothing, or a
    URL whose name ends with one of ``suffixes`` (a file's: not asked). A symbolic link
    found in a folder is not followed (fsspec's local file system lists it as neither a
    file nor a folder)."""
    rest = name.split("://", 1)[1].rstrip("/")
    if PurePosixPath(rest).suffix.lower() in suffixes:
        return None
    try:
        fs, path = _fs(name)
        if not _listable(name, path) or not fs.isdir(path):
            return None
    except Exception:  # (it cannot be told: read as a file, whose reading says why not)
        return None
    found: list[tuple[tuple[str, ...], str, OSError | None]] = []
    folders = [path]
    while folders:  # (fsspec's own walk says only the first folder it cannot list)
        folder = folders.pop()
        try:
            listing = fs.ls(folder, detail=True)
        except Exception as err:  # (a file system's own errors, a network's)
            found.append((PurePosixPath(folder).parts, _named(name, folder), _oserror(err)))
            continue
        for info in listing:
            where = str(info["name"]).rstrip("/")
            if info.get("type") == "directory" and where != folder.rstrip("/"):
                folders.append(where)
            elif info.get("type") == "file" and PurePosixPath(where).suffix.lower() in suffixes:
                found.append((PurePosixPath(where).parts, _named(name, where), None))
    found.sort(key=lambda item: item[0])
    return [(url, err) for _, url, err in found]
