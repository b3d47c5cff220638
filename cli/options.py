"""The options several commands share, defined once (declared with cli/declare.py: typer
reads them when a command is built, the front door of cli/front.py without typer)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Annotated

from tarotnotation.i18n import Msg, message_of

from . import declare
from .common import STDIN, fail
from .output import WRITE_FORMATS

if TYPE_CHECKING:
    from tarotnotation.cluster import Cluster

PathsArg = Annotated[
    list[str],
    declare.Argument(help="Record files, folders (searched recursively), glob patterns, or -"
                   " for standard input.", metavar="PATH..."),
]
RulesOpt = Annotated[
    str | None,
    declare.Option("--rules", metavar="PRESET",
                 help="Ruleset preset (fft, pagat) for records that do not name one."),
]
SetOpt = Annotated[
    list[str] | None,
    declare.Option("--set", metavar="SWITCH=VALUE",
                 help="Set a rule switch for records that do not name a ruleset"
                 " (repeatable; see `tarot rules`)."),
]
ForceOpt = Annotated[
    str | None,
    declare.Option("--ruleset", metavar="SPEC",
                 help="Replay every record under this ruleset, even one that names its own,"
                 " e.g. 'pagat' or 'fft misere=on'."),
]
OutOpt = Annotated[
    str | None,
    declare.Option("--output", "-o", metavar="OUT",
                 help="Output file (written whole or not at all); standard output if left out."),
]
ToOpt = Annotated[
    str | None,
    declare.Option("--to", "-t", metavar="FORMAT",
                 help=f"Output format: {', '.join(WRITE_FORMATS)} (default: from OUT's"
                 " extension, or tarot on standard output)."),
]
ColumnsOpt = Annotated[
    str | None,
    declare.Option("--columns", metavar="MAPPING",
                 help="Score sheets: map headers the reader does not know, e.g."
                 " 'Joueur 1=Alice,Pts=Points,Couleur=-', or a .toml file with a [columns]"
                 " table (docs/formats.md)."),
]

SchedulerOpt = Annotated[
    str | None,
    declare.Option("--scheduler", metavar="ADDRESS",
                 help="Run on a Dask cluster: tcp://HOST:PORT or tls://HOST:PORT (a"
                 " scheduler's), local or local:N (N workers on this machine); the same"
                 " output as on one machine (docs/distributed.md)."),
]


@contextlib.contextmanager
def on_cluster(spec: str | None, jobs: int, inputs: Sequence[str] = ()
               ) -> Iterator[Cluster | None]:
    """The Dask cluster ``--scheduler`` names (None without it), its workers checked
    (``inputs``: the files they read); what goes wrong with it, from the connection to
    the last result, is a usage error (exit status 2), said as it is. ``-j`` with it is
    refused: ``-j`` is the one-machine way."""
    if spec is None:
        yield None
        return
    if jobs != 1:
        fail(Msg("--scheduler and --jobs cannot be given together"))
    from tarotnotation import cluster

    try:
        with cluster.connect(spec, [f for f in inputs if f != STDIN]) as running:
            yield running
    except cluster.ClusterError as err:
        fail(err.message)


def use_columns(spec: str | None) -> None:
    """Check a --columns value and give it to every sheet reader of the run (worker
    processes included) through ``TAROT_COLUMNS``; a bad one is a usage error."""
    if spec is None:
        return
    import os

    from tarotnotation.formats.sheetwords import Columns

    try:
        Columns.of(spec)
    except (ValueError, OSError) as err:
        fail(Msg("--columns: {err}", err=message_of(err)))
    os.environ["TAROT_COLUMNS"] = spec


def columns_inputs(spec: str | None) -> list[str]:
    """The file a --columns value reads (a ``.toml`` mapping), as an input of the run that
    no output may be written over; none for an inline mapping."""
    if spec is None:
        return []
    spec = spec.strip()
    return [spec] if spec.lower().endswith(".toml") and "=" not in spec else []
