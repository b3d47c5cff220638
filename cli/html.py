"""``tarot html``: deals as pages for the browser: one page, a site, or one file.

Everything shown is worked out by the library (:mod:`tarotnotation.html`); this module
picks the output from the command line, checks it and reports.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, NoReturn

from tarotnotation.archive import walk
from tarotnotation.diagnostics import Diagnostic
from tarotnotation.formats import registry
from tarotnotation.html import (
    DealSource,
    NoDealError,
    Tally,
    build_site,
    page_problem,
    published_name,
    read_sources,
    site_problem,
    write_book,
    write_page,
)
from tarotnotation.i18n import Msg, ngettext, nmsg

from . import declare
from .common import (
    EXIT_FAULTS,
    EXIT_OK,
    STDIN,
    checked_spec,
    diagnostic_lines,
    echo_err,
    exit_status,
    expand_arguments,
    fail,
    ruleset_spec,
    use_color,
    worker_count,
    worst,
)
from .options import ForceOpt, PathsArg, RulesOpt, SetOpt
from .output import opened, page_target, refuse_inputs
from .progress import FileProgress

EPILOG = """\
Examples:

  tarot html examples/annotated.tarot -o deal.html

  tarot html examples/ -o site/

  tarot html club.tarot --single-file -o club.html

OUT ending in .html (or - for standard output) is one page: one deal,
or every deal with --single-file. Any other OUT is a folder: an index
(sortable, filtered as you type) and a page per deal. Pages open from
the disk, need no network, and step through the play with the arrow
keys; #deal=N&card=K in the address opens deal N at card K. A folder
is replaced whole, and only a new, empty or earlier tarot html one.
Exit status 1 when a deal has an error (the pages show it).
"""

_PAGE_SUFFIXES = (".html", ".htm", ".xhtml")


def _is_page(output: str) -> bool:
    return output == STDIN or (
        output.lower().endswith(_PAGE_SUFFIXES) and not Path(output).is_dir())


def write_pages(files: list[str], output: str, *, site: bool | None = None,
                single_file: bool = False, title: str | None = None,
                forced: str | None = None, default: str | None = None,
                deal: int | None = None, jobs: int = 1, what: str = "-o",
                source_name: str | None = None) -> Tally:
    """Read the deals of ``files`` and write them to ``output``: a site (a folder) when
    ``site`` is true, else one page (one deal, or every deal in one file when
    ``single_file``); ``site`` None decides by the name (:func:`html_cmd`). ``deal``
    keeps only that deal of each file (pages only); ``jobs`` worker processes write a
    site; ``what`` names the option that set ``output``; ``source_name`` is the name
    the pages show for the source (:func:`source_name_problem`)."""
    if site is None:
        site = not _is_page(output)
    if single_file and site:
        fail(Msg("{what} {output}: --single-file writes one page: give a name ending in .html",
                 what=what, output=output))
    if output != STDIN:  # never over an input, a page or a site: refused before reading
        refuse_inputs(output, files)
    named = registry.by_suffix(output)
    if not site:  # (replay --html -o y.tarot wrote a page into y.tarot)
        page_target(output, what)
    elif named is not None:  # (nor a site into a folder so named)
        fail(Msg("{what} {output}: the name says {fmt}: a page's name ends in .html, a site is a"
                 " folder (such as site/)", what=what, output=output, fmt=named.title))
    if site:
        problem = site_problem(output, files)
        if problem:
            fail(Msg("{what} {output}: {problem}", what=what, output=output, problem=problem))
    elif output != STDIN:
        folder = Path(output).parent
        if not folder.is_dir():
            fail(Msg("{what} {output}: no such folder: {folder}",
                     what=what, output=output, folder=folder))
        problem = page_problem(output)
        if problem:
            fail(Msg("{what} {output}: {problem}", what=what, output=output, problem=problem))
    # (SIGTERM ends the command as an exception, cli/runner.py: what was being written,
    # a page's temporary file or a site's folder, is removed and the workers ended)
    return _write(files, output, site, single_file, title, forced, default, deal, jobs, what,
                  source_name)


def source_name_problem(name: str, files: list[str]) -> Msg | None:
    """Why ``--source-name`` cannot name the source of ``files``, or None: it names one
    file (or standard input), and is a name to publish, not a local path (a page shows
    it as it is, :func:`tarotnotation.html.published_name`).

    >>> source_name_problem("club/5-12.tarot", ["/home/ann/x.tarot"]) is None
    True
    >>> print(source_name_problem("/home/ann/x.tarot", ["x.tarot"]))
    --source-name /home/ann/x.tarot: a name to publish, not a local path (such as x.tarot)
    """
    if len(files) > 1:
        return Msg("--source-name names one source: {n} files were given", n=len(files))
    if not name.strip() or published_name(name) != name:
        return Msg("--source-name {name}: a name to publish, not a local path (such as"
                   " {base})", name=name, base=published_name(name).strip() or "club.tarot")
    return None


def _write(files: list[str], output: str, site: bool, single_file: bool, title: str | None,
           forced: str | None, default: str | None, deal: int | None, jobs: int,
           what: str, source_name: str | None) -> Tally:
    if site:
        with FileProgress([f for f in files if f != STDIN], enabled=None if jobs <= 1
                          else False) as progress:
            try:
                return build_site(files, output, jobs=jobs, ruleset=forced,
                                  default_ruleset=default, title=title,
                                  on_deal=lambda file: progress.reached(file or STDIN),
                                  source_name=source_name)
            except NoDealError as err:
                _no_deal(files, err.faults)
    faults: list[Diagnostic] = []
    sources = read_sources(files, ruleset=forced, default_ruleset=default, faults=faults,
                           source_name=source_name)
    with FileProgress([f for f in files if f != STDIN]) as progress:
        def counted(items: Iterator[DealSource]) -> Iterator[DealSource]:
            for src in items:
                progress.reached(src.file or STDIN)
                if deal is None or src.index == deal:
                    yield src

        stream = counted(sources)
        first = list(itertools.islice(stream, 2))
        if not first:
            if deal is not None and not faults:
                fail(Msg("{files}: no deal number {deal}", files=", ".join(files), deal=deal))
            _no_deal(files, faults)
        if len(first) > 1 and not single_file:
            fail(Msg("{what} {output}: the input holds more than one deal: give a folder (such as"
                     " site/) for a site, or --single-file for one page",
                     what=what, output=output))
        deals = itertools.chain(first, stream)
        with opened(output) as fh:
            if len(first) == 1:
                tally = Tally()
                tally.count(first[0])
                write_page(first[0], fh)
            else:
                tally = write_book(deals, fh, title=title)
        tally.faults = faults
        return tally


def _no_deal(files: list[str], faults: list[Diagnostic]) -> NoReturn:
    """No deal was read (exit status 1; 2 when a file could not be read): nothing is
    written."""
    report(faults)
    echo_err(Msg("tarot: no deal was read from {files}: nothing written",
                 files=", ".join(files)))
    raise SystemExit(worst(exit_status(faults), EXIT_FAULTS))


def report(faults: list[Diagnostic]) -> None:
    """Diagnostics of whole files on standard error."""
    color = use_color(sys.stderr)
    for d in faults:
        for line in diagnostic_lines(d, color):
            echo_err(line)


def html_cmd(
    paths: PathsArg,
    output: Annotated[str, declare.Option(
        "--output", "-o", metavar="OUT",
        help="A page (a name ending in .html, or - for standard output) or a folder.")],
    single_file: Annotated[bool, declare.Option(
        "--single-file", help="Every deal in one page (OUT ending in .html), with an"
        " index.")] = False,
    title: Annotated[str | None, declare.Option(
        "--title", metavar="TEXT", help="The index's title (default: the event of"
        " every deal, else 'Tarot deals').")] = None,
    jobs: Annotated[int, declare.Option(
        "--jobs", "-j", min=0, metavar="N",
        help="Worker processes writing a site (0: one per core).")] = 1,
    source_name: Annotated[str | None, declare.Option(
        "--source-name", metavar="NAME", help="The name the pages show for the source (one"
        " file, or standard input; default: its path when relative, else its base"
        " name).")] = None,
    rules: RulesOpt = None,
    sets: SetOpt = None,
    force: ForceOpt = None,
) -> None:
    """Write deals as pages for the browser: a page, a site or one file.

    Each deal page shows the hands, the chien, the auction, the call, the
    écart and the declarations, then steps through the play card by card
    (buttons, arrow keys, Home, End), with comments, glyphs and faults at
    their card, both camps' running points and the score worked out.
    """
    default = ruleset_spec(rules, sets)
    forced = checked_spec(force, "--ruleset")
    args = expand_arguments(paths)
    items = list(walk(args))
    faults = [d for d in items if not isinstance(d, Path)]
    files = [str(p) for p in items if isinstance(p, Path)]
    if faults:  # a page or a site is written whole from every input, or not at all
        report(faults)
        fail(ngettext("{n} path cannot be read (see above): nothing written",
                      "{n} paths cannot be read (see above): nothing written",
                      len(faults)).format(n=len(faults)))
    if not files:  # no deal read: exit status 1, as every command (the README's table)
        echo_err(Msg("tarot: warning: no record file found in {paths}", paths=", ".join(args)))
        _no_deal(args, [])
    if source_name is not None:
        problem = source_name_problem(source_name, files)
        if problem:
            fail(problem)
    jobs = worker_count(jobs)
    tally = write_pages(files, output, single_file=single_file, title=title, forced=forced,
                        default=default, jobs=jobs, source_name=source_name)
    where: str = Msg("standard output") if output == STDIN else output
    if not _is_page(output):
        where = str(Path(output) / "index.html")
    echo_err(nmsg("{n} deal written to {where}: {errors} with errors, {warnings} with warnings",
                  "{n} deals written to {where}: {errors} with errors, {warnings} with"
                  " warnings", tally.deals, n=f"{tally.deals:,}", where=where,
                  errors=f"{tally.with_errors:,}", warnings=f"{tally.with_warnings:,}"))
    if tally.with_errors:
        echo_err(Msg("tarot validate lists the faults; the pages show each at its card"))
    report(tally.faults)
    raise SystemExit(worst(exit_status(tally.faults),
                           EXIT_FAULTS if tally.with_errors else EXIT_OK))
