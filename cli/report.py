"""How ``tarot validate`` reports: text, JSON, JSON Lines, GitHub annotations, JUnit XML.

A reporter receives each checked deal in order (:meth:`Reporter.deal`) and the totals at
the end (:meth:`Reporter.finish`). Streaming reporters print as deals arrive; the JSON
document and the JUnit report need the totals first and print at the end.
"""

from __future__ import annotations

import sys
from collections import Counter
from typing import IO, TYPE_CHECKING, Any, Final

from tarotnotation.archive import CheckedDeal
from tarotnotation.diagnostics import IO_CODES, Code, Diagnostic, Severity
from tarotnotation.i18n import gettext_, ngettext

if TYPE_CHECKING:
    import xml.etree.ElementTree as ET

from .common import EXIT_FAULTS, EXIT_OK, EXIT_USAGE, diagnostic_lines, safe, style, worst

FORMATS: Final = ("text", "json", "jsonl", "github", "junit")


class Tally:
    """The totals of a validation run (a plain class, not a dataclass: cheaper to define
    at start-up, issue 17)."""

    def __init__(self) -> None:
        self.files: set[str] = set()
        self.deals = 0
        self.valid = 0
        """Deals without an error (warnings allowed)."""
        self.with_errors = 0
        self.with_warnings = 0
        """Deals with at least one warning (with or without errors)."""
        self.errors = 0
        self.warnings = 0
        self.by_code: Counter[str] = Counter()
        self.unreadable = 0
        """Paths and files that could not be read (F001–F004)."""
        self.empty = 0
        """Files with no deal (F005)."""

    def add(self, checked: CheckedDeal) -> None:
        """Count one deal, or what is said of a file (it cannot be read, it is empty)."""
        if checked.about_file:
            for d in checked.diagnostics:
                self.by_code[f"{d.code.value} {d.code.slug}"] += 1
                if d.code in IO_CODES:
                    self.unreadable += 1
                elif d.code is Code.NO_DEAL:
                    self.empty += 1
                if d.severity is Severity.ERROR:
                    self.errors += 1
                else:
                    self.warnings += 1
            return
        self.files.add(checked.file)
        self.deals += 1
        if not checked.diagnostics:  # most deals: valid, nothing more to count
            self.valid += 1
            return
        errors, warnings = checked.errors, checked.warnings
        self.errors += errors
        self.warnings += warnings
        if errors:
            self.with_errors += 1
        else:
            self.valid += 1
        if warnings:
            self.with_warnings += 1
        for d in checked.diagnostics:
            if d.counts:
                self.by_code[f"{d.code.value} {d.code.slug}"] += 1

    def add_clean(self, file: str, count: int) -> None:
        """Count ``count`` deals of ``file`` with nothing to say (as :meth:`add` counts
        each)."""
        self.files.add(file)
        self.deals += count
        self.valid += count

    def failed(self, strict: bool) -> bool:
        """True when the run found faults: an error, a warning under ``strict``, or no
        deal read at all."""
        return self.errors > 0 or (strict and self.warnings > 0) or self.deals == 0

    def status(self, strict: bool) -> int:
        """The exit status: 2 when a path or file could not be read, 1 for faults (an
        error, a warning under ``strict``, no deal read at all), else 0."""
        return worst(EXIT_USAGE if self.unreadable else EXIT_OK,
                     EXIT_FAULTS if self.failed(strict) else EXIT_OK)

    def line(self, lang: str | None = "en") -> str:
        """The summary in words, in ``lang`` (None: the run's language)."""
        n_files = len(self.files)
        line = gettext_("{deals} read from {files}: {valid} valid, {with_errors} with errors,"
                        " {with_warnings} with warnings ({errors}, {warnings})", lang).format(
            # numbers grouped as every other command writes them ("1,500 deals written")
            deals=ngettext("{n} deal", "{n} deals", self.deals, lang).format(n=f"{self.deals:,}"),
            files=ngettext("{n} file", "{n} files", n_files, lang).format(n=f"{n_files:,}"),
            valid=f"{self.valid:,}", with_errors=f"{self.with_errors:,}",
            with_warnings=f"{self.with_warnings:,}",
            errors=ngettext("{n} error", "{n} errors", self.errors, lang).format(
                n=f"{self.errors:,}"),
            warnings=ngettext("{n} warning", "{n} warnings", self.warnings, lang).format(
                n=f"{self.warnings:,}"))
        notes = []
        if self.unreadable:
            notes.append(ngettext("{n} path could not be read", "{n} paths could not be read",
                                  self.unreadable, lang).format(n=f"{self.unreadable:,}"))
        if self.empty:
            notes.append(ngettext("{n} file with no deal", "{n} files with no deal",
                                  self.empty, lang).format(n=f"{self.empty:,}"))
        if not self.deals:
            notes.append(gettext_("no deal read", lang))
        return gettext_("; ", lang).join([line, *notes])

    def to_dict(self) -> dict[str, Any]:
        """The summary for machines."""
        return {
            "files": len(self.files),
            "deals": self.deals,
            "valid": self.valid,
            "with_errors": self.with_errors,
            "with_warnings": self.with_warnings,
            "errors": self.errors,
            "warnings": self.warnings,
            "unreadable": self.unreadable,
            "empty_files": self.empty,
            "by_code": dict(self.by_code.most_common()),
        }


def deal_dict(checked: CheckedDeal) -> dict[str, Any]:
    """One checked deal for machines: file, deal, valid, status, scores, diagnostics
    (what is said of a file itself has ``"deal": null``)."""
    out: dict[str, Any] = {"file": checked.file,
                           "deal": None if checked.about_file else checked.index,
                           "valid": checked.errors == 0}
    if checked.status is not None:
        out["status"] = checked.status.value
    if checked.scores is not None:
        out["scores"] = dict(checked.scores)
    if checked.taker_half is not None:
        out["taker_points"] = checked.taker_half / 2
    out["diagnostics"] = [d.to_dict() for d in checked.diagnostics]
    return out


class Reporter:
    """Prints a validation run; subclasses choose the format."""

    def __init__(self, out: IO[str], *, color: bool = False, quiet: bool = False,
                 strict: bool = False, statistics: bool = False) -> None:
        self.out = out
        self.color = color
        self.quiet = quiet
        self.strict = strict
        self.statistics = statistics

    def deal(self, checked: CheckedDeal) -> None:
        """One deal, in the order of the run."""

    def finish(self, tally: Tally) -> None:
        """The end of the run."""

    def more(self, checked: CheckedDeal, hidden: int) -> None:
        """``hidden`` faults of the deal were left out (``--max-errors``)."""

    def _write(self, text: str) -> None:
        self.out.write(text + "\n")


class TextReport(Reporter):
    """Each diagnostic on its line (with the source line and caret), then the summary."""

    def deal(self, checked: CheckedDeal) -> None:
        """Print the deal's diagnostics."""
        if self.quiet:
            return
        for d in checked.diagnostics:
            for line in diagnostic_lines(d, self.color):
                self._write(line)

    def more(self, checked: CheckedDeal, hidden: int) -> None:
        """Say how many faults of the deal are not shown."""
        if not self.quiet:
            self._write(ngettext("{file}: deal {deal}: {n} more fault not shown (--max-errors)",
                                 "{file}: deal {deal}: {n} more faults not shown"
                                 " (--max-errors)", hidden).format(
                file=checked.file, deal=checked.index, n=hidden))

    def finish(self, tally: Tally) -> None:
        """Print the count of each code (``--statistics``), then the summary line."""
        if self.statistics:
            for code, count in tally.by_code.most_common():
                self._write(f"{count:>7}  {code}")
        failed = tally.failed(self.strict)
        self._write(style(tally.line(None), self.color, bold=True,
                          fg="red" if failed else "green"))


class JsonLinesReport(Reporter):
    """One JSON object per deal, on its own line."""

    def deal(self, checked: CheckedDeal) -> None:
        """Print the deal as a line of JSON (held until the next, for :meth:`more`)."""
        self._flush()
        self.held = deal_dict(checked)

    def more(self, checked: CheckedDeal, hidden: int) -> None:
        """Note the faults not shown in the deal's object."""
        if self.held is not None:
            self.held["not_shown"] = hidden

    def finish(self, tally: Tally) -> None:
        """Print the last deal."""
        self._flush()

    held: dict[str, Any] | None = None

    def _flush(self) -> None:
        if self.held is not None:
            import orjson  # (only the JSON reports: the text one needs none)

            self._write(orjson.dumps(self.held).decode())
            self.held = None


class JsonReport(Reporter):
    """One JSON document: ``{"deals": [...], "summary": {...}}``."""

    def __init__(self, out: IO[str], **kw: Any) -> None:
        super().__init__(out, **kw)
        self.deals: list[dict[str, Any]] = []

    def deal(self, checked: CheckedDeal) -> None:
        """Keep the deal for the document."""
        self.deals.append(deal_dict(checked))

    def more(self, checked: CheckedDeal, hidden: int) -> None:
        """Note the faults not shown in the deal's object."""
        self.deals[-1]["not_shown"] = hidden

    def finish(self, tally: Tally) -> None:
        """Print the document."""
        import orjson

        doc = {"deals": self.deals, "summary": tally.to_dict()}
        self._write(orjson.dumps(doc, option=orjson.OPT_INDENT_2).decode())


def _gh_data(text: str) -> str:
    return safe(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def _gh_property(text: str) -> str:
    return _gh_data(text).replace(":", "%3A").replace(",", "%2C")


def github_line(d: Diagnostic) -> str:
    """A GitHub Actions workflow command for one diagnostic.

    ``::error file=F,line=L,col=C,title=CODE::where: slug: message`` (``::warning`` for
    warnings; the position fields that are unknown are left out). Values are escaped as
    GitHub documents (``%``, CR and LF in the message; ``:`` and ``,`` in properties too).
    """
    loc = d.location
    props = []
    if loc.file is not None:
        props.append(f"file={_gh_property(loc.file)}")
    if loc.line is not None:
        props.append(f"line={loc.line}")
        if loc.col is not None:
            props.append(f"col={loc.col}")
    props.append(f"title={d.code.value}")
    where = loc.where()
    message = f"{d.code.slug}: {d.message}"
    if where:
        message = f"{where}: {message}"
    kind = "error" if d.severity is Severity.ERROR else "warning"
    if d.cause is not None:  # follows from a cause (shown with -v): not a fault of its own
        kind = "notice"
        message += f" [follows from {d.cause.value}]"
    return f"::{kind} {','.join(props)}::{_gh_data(message)}"


class GithubReport(Reporter):
    """GitHub Actions annotations, one per diagnostic, and the summary as a notice."""

    def deal(self, checked: CheckedDeal) -> None:
        """Print the deal's annotations."""
        for d in checked.diagnostics:
            self._write(github_line(d))

    def more(self, checked: CheckedDeal, hidden: int) -> None:
        """Say how many faults of the deal are not shown, as a notice."""
        self._write(f"::notice file={_gh_property(checked.file)},title=tarot validate::"
                    f"deal {checked.index}: {hidden} more fault{'s' if hidden != 1 else ''}"
                    " not shown (--max-errors)")

    def finish(self, tally: Tally) -> None:
        """Print the summary as a notice."""
        self._write(f"::notice title=tarot validate::{_gh_data(tally.line())}")


class JunitReport(Reporter):
    """A JUnit XML report: a test suite per file, a test case per deal; errors (and, under
    ``--strict``, warnings) are failures; other warnings go to the case's system-out."""

    def __init__(self, out: IO[str], **kw: Any) -> None:
        import xml.etree.ElementTree as ET  # (only for this report)

        super().__init__(out, **kw)
        self.et = ET
        self.root = ET.Element("testsuites", name="tarot validate")
        self.suite: ET.Element | None = None
        self.suite_file: str | None = None

    def _suite(self, file: str) -> ET.Element:
        if self.suite is None or self.suite_file != file:
            self.suite = self.et.SubElement(self.root, "testsuite", name=safe(file), tests="0",
                                       failures="0", errors="0", skipped="0")
            self.suite_file = file
        return self.suite

    def deal(self, checked: CheckedDeal) -> None:
        """Add the deal's test case."""
        suite = self._suite(checked.file)
        suite.set("tests", str(int(suite.get("tests", "0")) + 1))
        case = self.et.SubElement(suite, "testcase", classname=safe(checked.file),
                             name="the file" if checked.about_file else f"deal {checked.index}")
        failing = [d for d in checked.diagnostics
                   if d.counts and (d.severity is Severity.ERROR or self.strict)]
        others = [d for d in checked.diagnostics if d not in failing]
        if failing:
            suite.set("failures", str(int(suite.get("failures", "0")) + 1))
            first = failing[0]
            failure = self.et.SubElement(case, "failure", type=first.code.value,
                                    message=safe(f"{first.code.value} {first.code.slug}:"
                                                 f" {first.message}"))
            failure.text = "\n".join("\n".join(diagnostic_lines(d, False, "en"))
                                     for d in failing)
        if others:
            out = self.et.SubElement(case, "system-out")
            out.text = "\n".join(safe(str(d)) for d in others)

    def finish(self, tally: Tally) -> None:
        """Print the XML document."""
        suites = list(self.root)
        self.root.set("tests", str(sum(int(s.get("tests", "0")) for s in suites)))
        self.root.set("failures", str(sum(int(s.get("failures", "0")) for s in suites)))
        self.root.set("errors", "0")
        self.et.indent(self.root)
        self._write('<?xml version="1.0" encoding="UTF-8"?>')
        self._write(self.et.tostring(self.root, encoding="unicode"))


_REPORTERS: Final[dict[str, type[Reporter]]] = {
    "text": TextReport,
    "json": JsonReport,
    "jsonl": JsonLinesReport,
    "github": GithubReport,
    "junit": JunitReport,
}


def reporter(fmt: str, *, color: bool, quiet: bool, strict: bool, statistics: bool = False,
             out: IO[str] | None = None) -> Reporter:
    """The reporter of a ``--format`` value."""
    return _REPORTERS[fmt](out or sys.stdout, color=color, quiet=quiet, strict=strict,
                           statistics=statistics)
