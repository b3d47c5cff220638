"""``tarot replay``: a deal as a person follows it, trick by trick, then the score.

Everything shown comes from the library (:func:`tarotnotation.replay.replay` and
:mod:`tarotnotation.narrator`); this module only lays it out.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

from tarotnotation import i18n
from tarotnotation.archive import STDIN, check_deal, read_path
from tarotnotation.cards import points_text
from tarotnotation.diagnostics import Diagnostic, Severity
from tarotnotation.i18n import Msg, gettext_, ngettext, pmsg, said
from tarotnotation.narrator import (
    place_of,
    running_points,
    score_lines,
    speakers,
    unplayed_points,
)
from tarotnotation.records import DealRecord, Misere, Poignee
from tarotnotation.replay import Replay
from tarotnotation.rules import Camp, Contract, MisereKind

from . import declare
from .common import (
    EXIT_FAULTS,
    EXIT_OK,
    checked_spec,
    diagnostic_lines,
    echo_err,
    echo_styled,
    existing_file,
    exit_status,
    fail,
    read_as,
    ruleset_spec,
    safe,
    severity_color,
    style,
    use_color,
    worst,
)
from .options import ForceOpt, RulesOpt, SetOpt
from .terminal import ljust, width

if TYPE_CHECKING:
    from tarotnotation.analysis.comments import AnalysisNote

EPILOG = """\
Examples:

  tarot replay examples/annotated.tarot

  tarot replay club.tarot --deal 3

  tarot replay export.json --ruleset pagat

  tarot replay examples/annotated.tarot --html

--html writes the deal as a page for the browser (FILE's name with
.html, or -o PAGE) and opens it when run on a terminal (not with
--no-open); see tarot html.
"""


#: Words of the view to translate (the severities and the camps).
_SEVERITY_WORDS = {Severity.ERROR: Msg("error"), Severity.WARNING: Msg("warning")}
#: How a misère is named (docs/rules.md §12), as the deal pages name it.
_MISERE_WORDS = {MisereKind.ATOUT: Msg("d'atout (no trump)"),
                 MisereKind.TETE: Msg("de tête (no face card)")}
_CAMP_WORDS = {Camp.TAKER: pmsg("camp", "taker"), Camp.DEFENCE: pmsg("camp", "defence")}


class View:
    """Lines of the replay view, styled when colour is on."""

    def __init__(self, color: bool) -> None:
        self.color = color
        self.lines: list[str] = []

    def add(self, text: str = "", **how: object) -> None:
        """One line, made safe for a terminal (a tag or a comment may hold control
        characters: they are shown escaped)."""
        self.lines.append(style(text, self.color, **how))

    def head(self, text: str) -> None:
        """A section title."""
        self.add(text, bold=True)

    def comments(self, comments: Iterable[str], indent: str) -> None:
        """Comments written in the record, in braces as in the notation."""
        for c in comments:
            self.add(f"{indent}{{{c}}}", fg="cyan")

    def faults(self, diags: Iterable[Diagnostic], indent: str) -> None:
        """Violations, marked where they happen."""
        for d in diags:
            mark = "✗" if d.severity is Severity.ERROR else "!"
            pos = d.location.text_position()
            where = f" ({pos})" if pos else ""
            severity = i18n.render(_SEVERITY_WORDS[d.severity])
            self.add(f"{indent}{mark} {severity} {d.code.value} {d.code.slug}:"
                     f" {i18n.render(d.message)}{where}", fg=severity_color(d.severity))


def _glyph(glyph: str | None) -> str:
    return glyph or ""


def render(index: int, record: DealRecord, rep: Replay, *, color: bool = False,
           verbose: bool = False, analysis: bool = False) -> list[str]:
    """The replay view of one deal (``verbose``: with the faults that follow from a
    cause; ``analysis``: each card's cost beside it, from the record's analysis comments,
    ``tarot analyze``)."""
    v = View(color)
    ids = record.seat_ids
    # (cards, seats and points as a person reads them in the run's language: i18n.said)
    names = {s.id: f"{said(s.id)} ({s.name})" if s.name else said(s.id) for s in record.seats}
    colon = i18n.render(Msg(": "))
    at: dict[tuple[str, int | None, int | None], list[Diagnostic]] = {}
    for d in rep.diagnostics:
        if not (verbose or d.counts):
            continue
        section, i, c = place_of(d)
        key: tuple[str, int | None, int | None]
        if section in ("play", "auction", "declarations") and i is not None:
            key = (section, i, c if section == "play" else None)
        elif section in ("call", "ecart", "chien", "result"):
            key = (section, None, None)
        else:
            key = ("", None, None)
        at.setdefault(key, []).append(d)

    event, round_, number = record.tag("Event"), record.tag("Round"), record.tag("Deal")
    heading = " — ".join(part for part in (
        event, round_ and gettext_("round {round}").format(round=round_),
        number and gettext_("deal {deal}").format(deal=number)) if part)
    v.head(gettext_("Deal {index}: {heading}").format(index=index, heading=heading) if heading
           else gettext_("Deal {index}").format(index=index))
    dealer = (gettext_(", dealer {dealer}").format(dealer=said(record.dealer))
              if record.dealer else "")
    v.add(gettext_("  {players} players, ruleset {ruleset}{dealer}").format(
        players=record.players, ruleset=record.ruleset, dealer=dealer))
    if record.glyph:
        v.add(f"  {record.glyph}")
    v.comments(record.comments, "  ")
    v.faults(at.get(("", None, None), []), "  ")

    hands = dict(record.hands or {})
    title = gettext_("Hands (as dealt)")
    if not hands and rep.hands:
        hands, title = dict(rep.hands), gettext_("Hands (at the first card, from the play)")
    if hands or record.chien is not None:
        v.head(title if hands else gettext_("Chien"))
        column = max(width(safe(names[s])) for s in ids)
        for seat in ids:
            if seat in hands:
                v.add(f"  {ljust(safe(names[seat]), column)}  {said(str(hands[seat]))}")
        if record.chien is not None:
            v.add(f"  {ljust('chien', column)}  {said(str(record.chien))}")
        v.faults(at.get(("chien", None, None), []), "  ")

    if record.auction:
        v.head(gettext_("Auction"))
        for i, (seat, bid) in enumerate(zip(speakers(record), record.auction, strict=True)):
            word = i18n.pgettext("bid", "pass") if bid.contract is None else bid.contract.french
            v.add(f"  {said(seat)}{colon}{word}{_glyph(bid.glyph)}")
            v.comments(bid.comments, "      ")
            v.faults(at.get(("auction", i, None), []), "      ")
    if rep.contract is not None and rep.taker is not None:
        v.add(gettext_("  → {contract} by {taker}").format(contract=rep.contract.french,
                                                          taker=names[rep.taker]))
    if record.call is not None or rep.called is not None:
        called = record.call.card if record.call is not None else rep.called
        partner = (gettext_("plays alone") if rep.partner in (None, rep.taker)
                   else gettext_("partner {partner}").format(partner=names[rep.partner])
                   if rep.partner else "")
        card = str(called) if i18n.language() == "en" or called is None else called.french
        v.add(gettext_("  calls {card}: {partner}").format(card=card, partner=partner))
        if record.call is not None:
            v.comments(record.call.comments, "      ")
        v.faults(at.get(("call", None, None), []), "      ")
    if record.ecart is not None:
        v.head(gettext_("Écart"))
        e = record.ecart
        cards = gettext_("(face down)") if e.cards is None else said(str(e.cards))
        shown = (gettext_("  shown: {cards}").format(cards=said(str(e.shown))) if e.shown
                 else "")
        v.add(f"  {cards}{shown}{_glyph(e.glyph)}")
        v.comments(e.comments, "      ")
    v.faults(at.get(("ecart", None, None), []), "      ")
    if record.declarations:
        v.head(gettext_("Declarations"))
        for i, decl in enumerate(record.declarations):
            if isinstance(decl, Poignee):
                kind = "poignée"
                extra = " ".join(x for x in (decl.size.value if decl.size else "",
                                             "" if decl.cards is None else said(str(decl.cards)))
                                 if x)
            elif isinstance(decl, Misere):
                kind, extra = "misère", i18n.render(_MISERE_WORDS[decl.misere])
            else:
                kind, extra = gettext_("chelem announced"), ""
            v.add(f"  {said(decl.seat)}{colon}{kind} {extra}".rstrip())
            v.comments(decl.comments, "      ")
            v.faults(at.get(("declarations", i, None), []), "      ")

    if record.play:
        counts = {tc.number: tc for tc in running_points(rep)}
        # a trick's cards: E:T20 N:T21 in English, « E atout 21, N R♣ » in French
        between = " " if i18n.language() == "en" else ", "
        rows = [between.join(f"{said(ids[seat])}{':' if between == ' ' else chr(0xA0)}"
                             f"{said(pc.card.code)}{_glyph(pc.glyph)}"
                             + (_cost(pc.comments) if analysis else "")
                             for pc, seat in zip(trick.cards, played.seats, strict=False))
                for trick, played in zip(record.play, rep.tricks, strict=False)]
        span = max([30, *(width(row) for row in rows)])
        v.head(gettext_("Play") + ("" if not counts else
                                   gettext_("{pad}winner points   taker  defence").format(
                                       pad=" " * (span + 5))))
        for t, (trick, played) in enumerate(zip(record.play, rep.tricks, strict=False)):
            tc = counts.get(played.number)
            if played.winner is None:
                after = gettext_("(incomplete)")
            elif tc is None:
                after = f"{said(ids[played.winner]):<6} {said(points_text(played.points)):>6}"
            else:
                after = (f"{said(tc.winner):<6} {said(points_text(tc.points)):>6}"
                         f"  {said(points_text(tc.taker_half)):>6}"
                         f"  {said(points_text(tc.defence_half)):>7}"
                         f"  {i18n.render(_CAMP_WORDS[tc.camp])}")
                if tc.excuse is not None:
                    after += i18n.render(Msg(", the Excuse to the {camp}",
                                             camp=_CAMP_WORDS[tc.excuse]))
            v.add(f"  {played.number:>2}. {_glyph(trick.glyph):<2}{ljust(rows[t], span)}"
                  f" {after}")
            v.comments(trick.comments, "      ")
            v.faults(at.get(("play", t, None), []), "      ")
            for c, pc in enumerate(trick.cards):
                for comment in pc.comments:
                    note = _note(comment) if analysis else None
                    if note is None:
                        v.add(f"      {said(pc.card.code)}{colon}{{{comment}}}", fg="cyan")
                    elif note.may_cost:
                        from tarotnotation.analysis.comments import note_text

                        v.add(f"      {said(pc.card.code)}{colon}"
                              f"{i18n.render(note_text(note))}",
                              fg="magenta")
                v.faults(at.get(("play", t, c), []), f"      {said(pc.card.code)}{colon}")
        rest = unplayed_points(rep)
        if rest is not None and rest[0]:
            unplayed = (Msg("the chien: {points} points to the {camp}",
                            points=points_text(rest[0]),
                            camp=_CAMP_WORDS[rest[1]])
                        if rep.contract in (Contract.GARDE_SANS, Contract.GARDE_CONTRE) else
                        Msg("the écart: {points} points to the {camp}",
                            points=points_text(rest[0]), camp=_CAMP_WORDS[rest[1]]))
            v.add(f"      {i18n.render(unplayed)}")

    v.head(gettext_("Score"))
    for line in score_lines(rep):
        v.add(f"  {i18n.render(line)}")
    if record.result is not None:
        v.comments(record.result.comments, "  ")
    v.faults(at.get(("result", None, None), []), "  ")
    errors, warnings = len(rep.errors), len(rep.warnings)
    verdict = gettext_("valid") if not errors else gettext_("faulty")
    v.add(gettext_("  {verdict}: {errors}, {warnings}").format(
        verdict=verdict, errors=ngettext("{n} error", "{n} errors", errors).format(n=errors),
        warnings=ngettext("{n} warning", "{n} warnings", warnings).format(n=warnings)),
          fg="red" if errors else "green", bold=True)
    return v.lines


def _note(comment: str) -> AnalysisNote | None:
    """The analysis a comment holds (:func:`tarotnotation.analysis.comments.parse_comment`;
    the solver's modules imported only when a replay shows the analysis)."""
    from tarotnotation.analysis.comments import parse_comment

    return parse_comment(comment)


def _cost(comments: tuple[str, ...]) -> str:
    """A card's cost from its analysis comment, to show beside it: ``(-1.5)``."""
    for comment in comments:
        note = _note(comment)
        if note is not None and note.may_cost:
            from tarotnotation.analysis.comments import cost_text

            return f"({cost_text(note)})"
    return ""


def replay_cmd(
    path: Annotated[str, declare.Argument(metavar="FILE",
                                        help="A record file of any format, or -.")],
    deal: Annotated[int | None, declare.Option("--deal", "-d", min=1,
                                             help="Only this deal (1-based).")] = None,
    analysis: Annotated[bool, declare.Option(
        "--analysis", help="Show each card's double-dummy cost beside it: from the"
        " record's analysis comments, or analysed now (see tarot analyze).")] = False,
    time_limit: Annotated[float, declare.Option(
        "--time-limit", min=0.001, metavar="S",
        help="With --analysis: seconds for the deal's analysis (past them, bounds).")] = 10.0,
    rules: RulesOpt = None,
    sets: SetOpt = None,
    force: ForceOpt = None,
    verbose: Annotated[bool, declare.Option(
        "--verbose", "-v", help="Also show the faults that follow from a cause (Y codes).")
    ] = False,
    html: Annotated[bool, declare.Option(
        "--html", help="Write the deal as a page for the browser and open it.")] = False,
    output: Annotated[str | None, declare.Option(
        "--output", "-o", metavar="PAGE",
        help="With --html: the page to write (default: FILE's name with .html).")] = None,
    no_open: Annotated[bool, declare.Option(
        "--no-open", help="With --html: do not open the page in a browser.")] = False,
) -> None:
    """Replay deals as a person follows them, trick by trick, then the score.

    Shows the hands, the auction, the chien and écart, each trick with its
    winner and both camps' running points, comments and violations in
    place, then the score worked out the way a scorer writes it. Exit
    status 1 when a deal has an error.
    """
    default = ruleset_spec(rules, sets)
    forced = checked_spec(force, "--ruleset")
    if path != STDIN:
        existing_file(path)
    if not html and (output is not None or no_open):
        fail(Msg("-o and --no-open go with --html"))
    if html:
        _html(path, deal, output, no_open, forced, default)
    color = use_color(sys.stdout)
    faulty = False
    status = EXIT_OK
    shown = 0
    total = 0
    for item in read_path(path):
        if item.about_file:  # the file cannot be read, or holds no deal
            for d in item.diagnostics:
                for line in diagnostic_lines(d, use_color(sys.stderr)):
                    echo_err(line)
            status = worst(status, exit_status(item.diagnostics))
            continue
        total += 1
        if deal is not None and item.index != deal:
            continue
        for d in item.diagnostics:
            for line in diagnostic_lines(d, color):
                echo_styled(line)
            faulty |= d.severity is Severity.ERROR
        if item.record is None:
            continue
        rep = check_deal(item, item.source.file if item.source and item.source.file else path,
                         forced, default_ruleset=default).replay
        assert rep is not None
        shown_record = rep.record
        if analysis and not any(_note(c) for t in shown_record.play
                                for pc in t.cards for c in pc.comments):
            from tarotnotation.analysis.comments import analyse_record

            shown_record, _, diags = analyse_record(rep.record, rep=rep,
                                                    time_limit=time_limit)
            for d in diags:
                for line in diagnostic_lines(d.at(deal=item.index), color):
                    echo_styled(line)
        if shown:
            echo_styled("")
        for line in render(item.index, shown_record, rep, color=color, verbose=verbose,
                           analysis=analysis):
            echo_styled(line)
        shown += 1
        faulty |= not rep.ok
        if deal is not None:
            break
    if deal is not None and not shown and not faulty and total:
        fail(Msg("{path}: no deal number {deal} (the file holds {total})",
                 path=path, deal=deal, total=total))
    if not total and status == EXIT_OK:  # (a file with no deal and nothing said of it)
        echo_err(Msg("{path}: no deal to replay (read as {kind})", path=path,
                     kind=read_as(path)))
    raise SystemExit(worst(status, EXIT_FAULTS if faulty or not total else EXIT_OK))


def on_terminal() -> bool:
    """True when a person is at a terminal (then --html opens the page)."""
    return sys.stdout.isatty() and sys.stdin.isatty()


def _html(path: str, deal: int | None, output: str | None, no_open: bool,
          forced: str | None, default: str | None) -> None:
    """``--html``: write the page (one deal, or every deal of the file) and open it."""
    from .html import write_pages

    if output is None:
        if path == STDIN:
            fail(Msg("--html: give -o PAGE when reading standard input"))
        source = Path(path)
        stem = source.stem if deal is None else f"{source.stem}-deal-{deal}"
        output = str(source.with_name(stem + ".html"))
    from .html import report

    tally = write_pages([path], output, site=False, single_file=True, forced=forced,
                        default=default, deal=deal, what="--html")
    if output != STDIN:
        echo_err(Msg("page written: {page}", page=output))
        if not no_open and on_terminal():
            import webbrowser

            webbrowser.open(Path(output).resolve().as_uri())
    report(tally.faults)
    raise SystemExit(worst(exit_status(tally.faults),
                           EXIT_FAULTS if tally.with_errors else EXIT_OK))
