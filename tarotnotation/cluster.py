"""The work of a command on a Dask cluster (``--scheduler``): one place for the Dask client.

``tarot analyze|validate|query|stats PATH... --scheduler ADDRESS`` runs the same tasks as
``-j N`` (the same cutting of the inputs, the same functions, the results gathered in the
same order: the output is byte for byte the local run's) on the workers of Dask's
``distributed`` scheduler instead of this machine's processes. ``ADDRESS`` is a
scheduler's (``tcp://HOST:PORT``, ``tls://HOST:PORT``) or ``local[:N]``: a cluster of N
worker processes started here, bound to 127.0.0.1, ended with the command.

:func:`connect` opens the client; the :class:`Cluster` it gives has an executor's
``submit(fn, *args)`` (the one :class:`tarotnotation.workers.Workers` has), so the
callers hand it to the same code as their local pool. Before any task it checks that
every worker runs this version of tarotnotation and can read every input (the workers
read the files themselves, from a path they share; a relative path is resolved in this
process's working folder, where each task runs). A task is a pure function of its
arguments: a task of a worker that died is run again on another, with the same result.
What goes wrong is a :class:`ClusterError` whose message says what (the commands exit
with status 2): Dask not installed (and how to install it), a scheduler that cannot be
reached or is lost in the middle, a worker of another version, a path a worker cannot
read.

Dask is imported here only, and only when a command is given ``--scheduler``: the
command line starts as fast without it.

>>> parse("local:3"), parse("tcp://10.0.0.5:8786")
(Scheduler(address=None, workers=3), Scheduler(address='tcp://10.0.0.5:8786', workers=0))
>>> parse("10.0.0.5")
Traceback (most recent call last):
...
tarotnotation.cluster.ClusterError: --scheduler 10.0.0.5: expected tcp://HOST:PORT,
  tls://HOST:PORT, local or local:N
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Generic, TypeVar

from . import atomic
from .i18n import Msg

__all__ = ["ENV", "INSTALL", "Cluster", "ClusterError", "Scheduler", "Task", "connect",
           "mismatched_versions", "parse", "unreadable"]

#: How to install what ``--scheduler`` needs.
INSTALL: Final = "pip install 'tarotnotation[dask]'"
#: The environment variables of the run that its tasks need on the workers (a local
#: pool's workers inherit them): the score sheets' column mapping (``--columns``).
ENV: Final = ("TAROT_COLUMNS",)

_R = TypeVar("_R")
#: The longest sleep between two looks at whether a task is over (:meth:`Task.result`).
_LONGEST_PAUSE: Final = 0.05
_ADDRESS = re.compile(r"(tcp|tls)://\S+:\d+")
_LOCAL = re.compile(r"local(?::(\d+))?")


class ClusterError(Exception):
    """The command cannot go on on the cluster; ``message`` says why (a :class:`Msg`)."""

    def __init__(self, message: Msg) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Scheduler:
    """What ``--scheduler`` names: a scheduler's ``address``, or (None) a local cluster
    of ``workers`` processes."""

    address: str | None
    workers: int


def parse(spec: str) -> Scheduler:
    """The scheduler ``--scheduler`` names; ``local`` alone: a worker per core."""
    text = spec.strip()
    local = _LOCAL.fullmatch(text)
    if local is not None:
        count = int(local[1]) if local[1] is not None else (os.cpu_count() or 1)
        if count >= 1:
            return Scheduler(None, min(count, 1024))
    elif _ADDRESS.fullmatch(text):
        return Scheduler(text, 0)
    raise ClusterError(Msg("--scheduler {spec}: expected tcp://HOST:PORT, tls://HOST:PORT,"
                           " local or local:N", spec=spec))


def mismatched_versions(versions: Mapping[str, str], mine: str) -> ClusterError | None:
    """The refusal of workers that run another version of tarotnotation than ``mine``
    (``versions``: each worker's), None when all run it.

    >>> mismatched_versions({"tcp://a:1": "0.1.0"}, "0.1.0") is None
    True
    >>> print(mismatched_versions({"tcp://a:1": "0.1.0", "tcp://b:2": "0.0.9"}, "0.1.0"))
    the worker tcp://b:2 runs tarotnotation 0.0.9, this command 0.1.0: install the same
      version on every worker
    """
    for worker, theirs in sorted(versions.items()):
        if theirs != mine:
            return ClusterError(Msg(
                "the worker {worker} runs tarotnotation {theirs}, this command {mine}: install"
                " the same version on every worker", worker=worker, theirs=theirs, mine=mine))
    return None


def unreadable(paths: Sequence[str]) -> list[str]:
    """Which of ``paths`` (absolute, or URLs) this process cannot read (run on each
    worker: a URL needs fsspec and its file system's package there too)."""
    from .inputs import readable

    return readable(list(paths))


def _version() -> str:
    from . import __version__

    return __version__


def _run(folder: str, env: Mapping[str, str | None], fn: Callable[..., _R], *args: Any
         ) -> _R:
    """A task as a worker runs it: in the command's working folder (so that a relative
    path names what it names for the command), with the command's :data:`ENV`."""
    for name, value in env.items():
        if value is None:
            os.environ.pop(name, None)
        elif os.environ.get(name) != value:
            os.environ[name] = value
    with contextlib.suppress(OSError):  # (a worker without it: only absolute paths then,
        if os.getcwd() != folder:       # which the checks before the first task made sure of)
            os.chdir(folder)
    return fn(*args)


class Task(Generic[_R]):
    """A task handed to the cluster: its ``result()`` is the value (the task's own
    exception raised as it is), or a :class:`ClusterError` when the cluster failed it."""

    __slots__ = ("_cluster", "_future")

    def __init__(self, cluster: Cluster, future: Any) -> None:
        self._cluster = cluster
        self._future = future

    def done(self) -> bool:
        """Whether the task is over (its result, or its failure, is back)."""
        return bool(self._future.done())

    def result(self) -> _R:
        """The value, once the task is over. A signal's handler may raise between any two
        steps of Python code, and Dask's client waits for a result in a lock written in
        Python (its event's): this process waits instead by looking at whether the task
        is over (one flag, no lock) between sleeps, 1 ms growing to 50 ms, and takes the
        value with the signals held (:func:`.atomic.signals_held`; a signal one of Dask's
        threads takes meanwhile waits for the block's end: :func:`.atomic.held_back`)."""
        pause = 0.001
        while not self._future.done():
            time.sleep(pause)
            pause = min(2 * pause, _LONGEST_PAUSE)
        try:
            with atomic.signals_held():
                value: _R = self._future.result()
        except Exception as err:
            lost = self._cluster.failure(err, self._future)
            if lost is not None:
                raise lost from None
            raise
        return value


class Cluster:
    """A client of a Dask scheduler with an executor's ``submit``; ``workers``: the
    tasks its workers run at once (their threads)."""

    def __init__(self, client: Any, address: str, workers: int) -> None:
        self.client = client
        self.address = address
        self.workers = workers
        self._folder = os.getcwd()
        self._env = {name: os.environ.get(name) for name in ENV}

    def submit(self, fn: Callable[..., _R], /, *args: Any) -> Task[_R]:
        """Run ``fn(*args)`` on a worker; a task may run more than once (it is pure)."""
        try:
            future = self.client.submit(_run, self._folder, self._env, fn, *args, pure=False)
        except Exception as err:
            lost = self.failure(err)
            if lost is None:
                raise
            raise lost from None
        return Task(self, future)

    def failure(self, err: BaseException, future: Any = None) -> ClusterError | None:
        """The cluster's failure behind the exception ``err`` of a task (``future``: its
        Dask future, None when it could not be handed over), None when the task itself
        raised it (its future's status is then "error")."""
        from distributed import KilledWorker

        if isinstance(err, KilledWorker):
            return ClusterError(Msg("a task ended every worker that ran it ({address}): the"
                                    " command stopped", address=self.address))
        if future is not None:
            # (a task's own exception comes back with the task in error; anything else
            # that ends a wait, a connection reset or closed, a task cancelled, is the
            # scheduler's going)
            return None if future.status == "error" else _lost(self.address)
        import concurrent.futures

        if isinstance(err, OSError | concurrent.futures.CancelledError | TimeoutError) or (
                self.client.status not in ("running", "connecting")):
            return _lost(self.address)
        return None


def _lost(address: str) -> ClusterError:
    """The scheduler lost in the middle of a command."""
    return ClusterError(Msg("the scheduler {address} was lost: the command stopped (an"
                            " analysis to a file continues with --resume)", address=address))


def _imported() -> Any:
    """Dask's ``distributed``, or a :class:`ClusterError` that says how to install it."""
    try:
        import distributed
    except ImportError:
        raise ClusterError(Msg("--scheduler needs Dask, which is not installed: {command}",
                               command=INSTALL)) from None
    # Dask's own notes (a worker restarted, a connection closed) are not the command's:
    # what matters reaches the command as an error.
    _quiet()
    return distributed


def _quiet() -> None:
    """Dask's loggers (some with a level of their own) told to say only the critical."""
    for name in ("distributed", "tornado", "bokeh", *logging.root.manager.loggerDict):
        if name.split(".")[0] in ("distributed", "tornado", "bokeh"):
            logging.getLogger(name).setLevel(logging.CRITICAL)


@contextlib.contextmanager
def connect(spec: str, paths: Sequence[str] = ()) -> Iterator[Cluster]:
    """A :class:`Cluster` on the scheduler ``spec`` names (:func:`parse`), its workers
    checked (the same version of tarotnotation; ``paths``, the inputs, readable by each);
    closed when the block ends (a local cluster's workers ended)."""
    scheduler = parse(spec)
    distributed = _imported()
    local = None
    client = None
    try:
        if scheduler.address is None:
            try:
                local = _local(distributed, scheduler.workers)
            except Exception as err:  # (no port free, workers that cannot start...)
                raise ClusterError(Msg("cannot start a local cluster of {n} workers: {reason}",
                                       n=scheduler.workers,
                                       reason=str(err) or type(err).__name__)) from None
            address = str(local.scheduler_address)
        else:
            address = scheduler.address
            _tls_settings(address)
        try:
            client = distributed.Client(local or address, set_as_default=False)
            client.wait_for_workers(1, timeout=_connect_seconds())
        except Exception as err:  # (refused, timed out, TLS settings missing or wrong...)
            raise ClusterError(Msg("cannot reach the scheduler {address}, or no worker joined"
                                   " it: {reason}", address=address,
                                   reason=str(err) or type(err).__name__)) from None
        cluster = Cluster(client, address, _threads(client))
        _check(cluster, paths)
        yield cluster
    finally:
        _close(client, local)


def _tls_settings(address: str) -> None:
    """Refuse a ``tls://`` address when Dask has no TLS settings to reach it with (its
    client would fail half-built, and complain again when the process ends)."""
    if not address.startswith("tls://"):
        return
    from distributed import security

    settings: Any = security.Security  # (untyped)
    if settings().get_connection_args("client").get("ssl_context") is None:
        raise ClusterError(Msg(
            "{address}: a tls:// scheduler needs Dask's TLS settings"
            " (distributed.comm.tls: the authority's certificate, the client's certificate"
            " and key; docs/distributed.md)", address=address))


def _connect_seconds() -> float:
    """How long to wait for the scheduler to answer, and for a first worker to join it:
    Dask's ``distributed.comm.timeouts.connect`` (30 s unless configured)."""
    import dask.config
    from dask.utils import parse_timedelta

    return float(parse_timedelta(dask.config.get("distributed.comm.timeouts.connect")))


def _local(distributed: Any, workers: int) -> Any:
    """A cluster of ``workers`` processes of one thread, bound to 127.0.0.1 (its
    dashboard too, at a free port, when bokeh is installed)."""
    try:
        import bokeh  # noqa: F401 (the dashboard's)

        dashboard: str | None = "127.0.0.1:0"
    except ImportError:
        dashboard = None
    return distributed.LocalCluster(
        n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
        scheduler_port=0, dashboard_address=dashboard, silence_logs=logging.CRITICAL)


def _threads(client: Any) -> int:
    info = client.scheduler_info()
    return max(1, sum(int(w.get("nthreads", 1)) for w in info.get("workers", {}).values()))


def _check(cluster: Cluster, paths: Sequence[str]) -> None:
    """Refuse workers of another version, and inputs a worker cannot read."""
    from . import __version__

    client = cluster.client
    try:
        versions = client.run(_version)
    except Exception as err:  # (a worker without tarotnotation cannot even unpickle it)
        raise ClusterError(Msg("a worker of {address} cannot run tarotnotation ({reason}):"
                               " install the same version on every worker ({command})",
                               address=cluster.address, reason=type(err).__name__,
                               command=INSTALL)) from None
    refused = mismatched_versions(versions, __version__)
    if refused is not None:
        raise refused
    from .inputs import is_url

    absolute = sorted({p if is_url(p) else os.path.abspath(p) for p in paths})
    if not absolute:
        return
    if any(not is_url(p) and not os.path.isabs(p) for p in paths):
        absolute.append(cluster._folder)
    for worker, missing in sorted(client.run(unreadable, absolute).items()):
        if missing and is_url(missing[0]):
            raise ClusterError(Msg(
                "the worker {worker} cannot read {url}: every worker reads the URLs itself,"
                " with fsspec and the package of their file system installed (s3fs for"
                " s3://...) and access to it", worker=worker, url=missing[0]))
        if missing:
            raise ClusterError(Msg(
                "the worker {worker} cannot read {path}: every worker reads the inputs"
                " from a path they share (docs/distributed.md)", worker=worker,
                path=missing[0]))


def _close(client: Any, local: Any) -> None:
    """Close the client and end a local cluster, whatever state they are in."""
    with contextlib.suppress(Exception):
        if client is not None:
            client.close(timeout=5)
    with contextlib.suppress(Exception):
        if local is not None:
            local.close(timeout=10)
