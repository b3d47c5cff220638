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

import os
import re
import stat
from pathlib import PosixPath
from typing import IO, Any, Final, cast

from .i18n import Msg

__all__ = ["INSTALL", "Url", "is_regular", "is_url", "local_path", "open_bytes", "readable",
           "size_of", "url_fault"]

#: How to install what a URL needs.
INSTALL: Final = "pip install fsspec"
_URL: Final = re.compile(r"[A-Za-z][A-Za-z0-9+.-]+://")


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
        from urllib.parse import unquote, urlsplit

        return unquote(urlsplit(name).path) or "/"
    return name


class Url(PosixPath):
    """A URL among the paths of a walk (:func:`tarotnotation.opening.walk`): a path for
    its name and extension, whose text (``str``) is the URL as given (a path's would fold
    its ``//``)."""

    __slots__ = ("_url",)
    _url: str

    def __new__(cls, url: str) -> Url:
        made = super().__new__(cls, url)
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
        return cast("IO[bytes]", fs.open(path, "rb"))
    except Exception as err:  # (a file system's own errors: a network's, a service's)
        raise _oserror(err) from None


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
