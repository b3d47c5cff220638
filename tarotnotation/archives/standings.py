"""League tables of an evening, a tournament or a season; duplicate deals compared.

A *session* is one table's sitting: the deals that share the tags ``Event``, ``Round`` and
``Table``. When the same deal (the same hands and chien, whoever held them: see
:func:`~tarotnotation.archives.summary.deal_fingerprint`) was played in several
sessions, it is a *duplicate* deal, as in a duplicate tournament: each player's result on
it is compared with the results of the players who held the same hand in the other
sessions. docs/standings.md works an example through.

Methods (:data:`METHODS`):

- ``total``: the sum of each player's results. A deal played in one session counts its
  score; on a duplicate deal the result is the score minus the mean score of that hand
  over the sessions (so the luck of the cards cancels out);
- ``mean``: that sum divided by the deals played;
- ``matchpoints``: on each duplicate deal, each holder of a hand scores 1 for every other
  session where that hand scored less, ½ for every tie; the standing is the percentage
  of the most that could be scored. Deals played in one session give no matchpoints.

>>> from tarotnotation.archives.stream import scan
>>> table = Standings("total")
>>> for deal in scan(["examples/score-sheet.tarot"]):
...     table.add(deal.summary)
>>> [(row.rank, row.player, row.deals, row.result) for row in table.rows()][:2]
[(1, 'Bruno Lefèvre', 8, 727.0), (2, 'Chloé Dubois', 8, 103.0)]
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Final

from ..i18n import Msg, language, nmsg, pmsg, render
from .safety import for_html, sort_key
from .summary import DealSummary, deal_fingerprint

__all__ = ["METHODS", "Repeat", "Row", "Standings", "html_page", "session_text"]

#: What ``--method`` accepts.
METHODS: Final = ("total", "mean", "matchpoints")

Session = tuple[str, str, str]


@dataclass(frozen=True, slots=True)
class Repeat:
    """A deal seen twice in one session: the second is left out."""

    where: str
    first: str
    session: Session


@dataclass(slots=True)
class _Entry:
    """One player's part in one deal."""

    order: int
    player: int
    score: int
    hand: int
    result: float = 0.0
    matchpoints: float | None = None
    top: int = 0


@dataclass(slots=True)
class _Board:
    """Every session's play of one deal: each session's entries."""

    sessions: dict[Session, list[_Entry]] = field(default_factory=dict)
    first: str = ""


@dataclass(frozen=True, slots=True)
class Row:
    """A line of the table."""

    rank: int
    player: str
    deals: int
    """Deals played."""
    duplicates: int
    """Duplicate deals played (compared with other sessions)."""
    score: int
    """The sum of the player's scores, as scored at the table."""
    result: float
    """What the player is ranked by (see the method)."""
    running: tuple[float, ...]
    """The player's running result after each deal played, in order."""
    matchpoints: float | None = None
    top: int = 0


class Standings:
    """The table, built from deal summaries one at a time (see the module doc)."""

    def __init__(self, method: str = "total") -> None:
        if method not in METHODS:
            raise ValueError(f"method must be one of {', '.join(METHODS)}, not {method!r}")
        self.method = method
        self.players: dict[str, int] = {}
        self.names: list[str] = []
        self.boards: dict[bytes, _Board] = {}
        self.single: list[_Entry] = []
        self.order = 0
        self.repeats: list[Repeat] = []
        self.unnamed = 0
        self.unscored = 0
        self.events: dict[str, None] = {}
        self.deals = 0
        """Deals counted (a duplicate deal once per session)."""
        self.uncompared = 0
        """Deals whose hands are not known."""
        self.seen: dict[bytes, str] = {}

    def _player(self, name: str) -> int:
        index = self.players.get(name)
        if index is None:
            index = self.players[name] = len(self.names)
            self.names.append(name)
        return index

    def add(self, s: DealSummary) -> None:
        """Count one deal (a deal without a score is counted as not scored)."""
        scores = s.scores_in_order
        if not s.scored or scores is None:
            self.unscored += 1
            return
        event = s.tag("Event")
        session: Session = (event or "", s.tag("Round") or "", s.tag("Table") or "")
        key = deal_fingerprint(s)
        board = None
        if key is None:  # the cards are not known: it cannot be compared
            same = _record_key(s, session)
            if same in self.seen:
                self.repeats.append(Repeat(s.where, self.seen[same], session))
                return
            self.seen[same] = s.where
        else:
            board = self.boards.get(key)
            if board is None:
                board = self.boards[key] = _Board(first=s.where)
            if session in board.sessions:
                self.repeats.append(Repeat(s.where, board.first, session))
                return
        if event:
            self.events.setdefault(event, None)
        if not s.named:
            self.unnamed += 1
        hands = s.hands or (0,) * s.players
        entries = []
        for seat in range(s.players):
            self.order += 1
            entries.append(_Entry(self.order, self._player(s.player(seat)), scores[seat],
                                  hands[seat]))
        self.deals += 1
        if board is None:
            self.single.extend(entries)
            self.uncompared += 1
        else:
            board.sessions[session] = entries

    def _results(self) -> list[_Entry]:
        """Every entry with its result, in the order played."""
        out = list(self.single)
        for e in self.single:
            e.result = float(e.score)
        for board in self.boards.values():
            plays = list(board.sessions.values())
            out.extend(e for entries in plays for e in entries)
            if len(plays) == 1:
                for e in plays[0]:
                    e.result = float(e.score)
                    e.matchpoints = None
                continue
            by_hand: dict[int, list[_Entry]] = {}
            for entries in plays:
                for e in entries:
                    by_hand.setdefault(e.hand, []).append(e)
            for holders in by_hand.values():
                mean = sum(e.score for e in holders) / len(holders)
                for e in holders:
                    e.result = e.score - mean
                    e.top = len(holders) - 1
                    e.matchpoints = sum(1.0 if o.score < e.score else 0.5
                                        for o in holders
                                        if o is not e and o.score <= e.score)
        out.sort(key=lambda e: e.order)
        return out

    def rows(self) -> list[Row]:
        """The table, best first; equal results share a rank."""
        per: list[dict[str, Any]] = [
            {"deals": 0, "dup": 0, "score": 0, "result": 0.0, "running": [], "mp": 0.0,
             "top": 0} for _ in self.names]
        for e in self._results():
            p = per[e.player]
            p["deals"] += 1
            p["score"] += e.score
            if e.matchpoints is not None:
                p["dup"] += 1
                p["mp"] += e.matchpoints
                p["top"] += e.top
            if self.method == "matchpoints":
                if e.matchpoints is not None:
                    p["running"].append(p["mp"])
            else:
                p["result"] += e.result
                p["running"].append(p["result"])
        rows = []
        for index, name in enumerate(self.names):
            p = per[index]
            if self.method == "matchpoints":
                result = 100 * p["mp"] / p["top"] if p["top"] else 0.0
            elif self.method == "mean":
                result = p["result"] / p["deals"] if p["deals"] else 0.0
            else:
                result = p["result"]
            rows.append((name, p, round(result, 2)))
        rows.sort(key=lambda r: (-r[2], sort_key(r[0])))
        out = []
        rank = 0
        previous: float | None = None
        for position, (name, p, result) in enumerate(rows, 1):
            if result != previous:
                rank, previous = position, result
            out.append(Row(rank, name, p["deals"], p["dup"], p["score"], result,
                           tuple(round(v, 2) for v in p["running"]),
                           round(p["mp"], 2) if p["top"] else None, p["top"]))
        return out

    @property
    def duplicate_deals(self) -> int:
        """Deals played in more than one session."""
        return sum(1 for b in self.boards.values() if len(b.sessions) > 1)

    def notes(self) -> list[str]:
        """What a reader of the table should know (in English, as the JSON has them; each
        a :class:`Msg` that :func:`~tarotnotation.i18n.render` translates)."""
        out: list[str] = []
        dup = self.duplicate_deals
        sessions = {s for b in self.boards.values() for s in b.sessions}
        if dup:
            out.append(nmsg("{n} duplicate deal (played in more than one of the {sessions}"
                            " sessions) compared hand by hand",
                            "{n} duplicate deals (played in more than one of the {sessions}"
                            " sessions) compared hand by hand", dup, n=dup,
                            sessions=len(sessions)))
        elif self.method == "matchpoints":
            out.append(Msg("no deal was played in more than one session: no matchpoints"))
        if self.method == "matchpoints":
            alone = sum(1 for b in self.boards.values() if len(b.sessions) == 1)
            alone += self.uncompared
            if alone:
                out.append(nmsg("{n} deal played in one session only gives no matchpoints",
                                "{n} deals played in one session only give no matchpoints",
                                alone, n=alone))
        if self.unnamed:
            out.append(nmsg("{n} deal names no player for some seats: those seats count as"
                            " players by their seat id (S, E, N, W, F), the same id at every"
                            " table",
                            "{n} deals name no player for some seats: those seats count as"
                            " players by their seat id (S, E, N, W, F), the same id at every"
                            " table", self.unnamed, n=self.unnamed))
        if self.unscored:
            out.append(nmsg("{n} deal without a score (annulled, incomplete) left out",
                            "{n} deals without a score (annulled, incomplete) left out",
                            self.unscored, n=self.unscored))
        if self.uncompared and self.method != "matchpoints":
            out.append(nmsg("{n} deal without the hands recorded cannot be compared: it counts"
                            " its score",
                            "{n} deals without the hands recorded cannot be compared: they"
                            " count their scores", self.uncompared, n=self.uncompared))
        return out

    def to_json(self) -> dict[str, Any]:
        """The table for machines."""
        return {
            "method": self.method,
            "events": list(self.events),
            "duplicate_deals": self.duplicate_deals,
            "rows": [{"rank": r.rank, "player": r.player, "deals": r.deals,
                      "duplicate_deals": r.duplicates, "score": r.score, "result": r.result,
                      "matchpoints": r.matchpoints, "top": r.top, "running": list(r.running)}
                     for r in self.rows()],
            "repeats": [{"where": r.where, "first": r.first, "session": list(r.session)}
                        for r in self.repeats],
            "notes": self.notes(),
        }

    def heading(self) -> str:
        """What the result column holds (its CSV key)."""
        return {"total": "total", "mean": "mean", "matchpoints": "matchpoints %"}[self.method]


#: The table's columns for people (the text and the page); the CSV keeps its keys.
COLUMNS: Final = {
    "rank": pmsg("column", "rank"), "player": pmsg("column", "player"),
    "deals": pmsg("column", "deals"), "duplicates": pmsg("column", "duplicates"),
    "score": pmsg("column", "score"), "total": pmsg("column", "total"),
    "mean": pmsg("column", "mean"), "matchpoints %": pmsg("column", "matchpoints %"),
    "running": pmsg("column", "running"),
}


def column(key: str, lang: str | None = None) -> str:
    """A column's heading for people, in ``lang`` (default: the run's).

    >>> column("rank", "fr"), column("matchpoints %", "en")
    ('rang', 'matchpoints %')
    """
    word = COLUMNS.get(key)
    return render(word, lang) if word is not None else key


def session_text(session: Session) -> str:
    """A session for people: ``Event "X", Round 2, Table 3`` (the tags it has).

    >>> session_text(("Club", "", "4"))
    'Event "Club", Table 4'
    """
    parts = [f'{name} "{value}"' if name == "Event" else f"{name} {value}"
             for name, value in zip(("Event", "Round", "Table"), session, strict=True)
             if value]
    return ", ".join(parts) or render(Msg("no Event, Round or Table tag"))


def _record_key(s: DealSummary, session: Session) -> bytes:
    """What tells a deal whose hands are not known from another of its session: its
    number, players, contract, taker and scores."""
    data = repr((session, s.tag("Deal"), s.names, s.seats, s.contract, s.taker_index,
                 s.scores_in_order))
    return hashlib.blake2b(data.encode("utf-8"), digest_size=16).digest()


def _number(value: float) -> str:
    if value == int(value):
        return f"{int(value):+,}"
    return f"{value:+,.2f}"


def result_text(method: str, value: float) -> str:
    """A result as the table shows it."""
    if method == "matchpoints":
        return f"{value:.2f}%"
    return _number(value)


def lines(table: Standings) -> Iterator[list[str]]:
    """The table as rows of cells (user strings raw), heading first."""
    yield ["rank", "player", "deals", "duplicates", "score", table.heading()]
    for r in table.rows():
        yield [str(r.rank), r.player, str(r.deals), str(r.duplicates), f"{r.score:+,}",
               result_text(table.method, r.result)]


# --- the page ------------------------------------------------------------------------------

_CHART_W: Final = 260
_CHART_H: Final = 56


def _chart(running: tuple[float, ...], label: str, low: float, high: float, n: int) -> str:
    """An inline SVG of a running score: a line over the deals, zero marked. Every
    player's chart has the same scales (``low`` to ``high``, ``n`` deals), so that the
    charts compare."""
    values = (0.0, *running)
    if high == low:
        high, low = high + 1, low - 1
    pad = 4
    n = n or 1

    def x(i: int) -> float:
        return pad + i * (_CHART_W - 2 * pad) / n

    def y(v: float) -> float:
        return pad + (high - v) * (_CHART_H - 2 * pad) / (high - low)

    points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
    zero = y(0.0)
    last = values[-1]
    colour = "#1a7f37" if last >= 0 else "#b42318"
    return (
        f'<svg class="chart" width="{_CHART_W}" height="{_CHART_H}" viewBox="0 0 {_CHART_W}'
        f' {_CHART_H}" role="img" aria-label="{label}">'
        f"<title>{label}</title>"
        f'<line x1="{pad}" y1="{zero:.1f}" x2="{_CHART_W - pad}" y2="{zero:.1f}"'
        ' stroke="#999" stroke-dasharray="3 3" stroke-width="1"/>'
        f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{points}"/>'
        f'<circle cx="{x(len(values) - 1):.1f}" cy="{y(last):.1f}" r="3" fill="{colour}"/>'
        "</svg>"
    )


_STYLE: Final = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem auto;
       max-width: 60rem; padding: 0 1rem; color: #1f2328; }
h1 { font-size: 1.5rem; margin-bottom: .25rem; }
p.sub { color: #59636e; margin-top: 0; }
table { border-collapse: collapse; width: 100%; }
th, td { padding: .35rem .6rem; border-bottom: 1px solid #d1d9e0; text-align: right; }
th { background: #f6f8fa; }
td.player, th.player { text-align: left; }
td.chart, th.chart { padding: .2rem .6rem; text-align: left; }
svg.chart { display: block; }
ul.notes { color: #59636e; font-size: .9rem; }
@media print { body { margin: 0; } }
"""


def html_page(table: Standings, title: str | None = None) -> str:
    """The table as a self-contained HTML page: no script, no link, nothing fetched (it
    works from ``file://``); each player's running result drawn as an inline SVG chart.
    Every user string is escaped."""
    events = list(table.events)
    heading = title or (", ".join(events) if events else render(Msg("Standings")))
    method = render({"total": Msg("Ranked by the total of the results."),
                     "mean": Msg("Ranked by the mean result per deal."),
                     "matchpoints": Msg("Ranked by matchpoints (percentage of the top).")
                     }[table.method])
    rows = []
    table_rows = table.rows()
    every = [0.0, *(v for r in table_rows for v in r.running)]
    low, high = min(every), max(every)
    most = max((len(r.running) for r in table_rows), default=0)
    for r in table_rows:
        result = result_text(table.method, r.result)
        label = for_html(render(nmsg("{player}: {result} after {n} deal",
                                     "{player}: {result} after {n} deals", len(r.running),
                                     player=r.player, result=result, n=len(r.running))))
        rows.append(
            "<tr>"
            f"<td>{r.rank}</td>"
            f'<td class="player">{for_html(r.player)}</td>'
            f"<td>{r.deals}</td><td>{r.duplicates}</td>"
            f"<td>{for_html(f'{r.score:+,}')}</td>"
            f"<td><strong>{for_html(result)}</strong></td>"
            f'<td class="chart">{_chart(r.running, label, low, high, most)}</td>'
            "</tr>")
    notes = "".join(f"<li>{for_html(render(n))}</li>" for n in table.notes())
    repeats = "".join(
        "<li>" + for_html(render(Msg("{where} repeats {first} in the same session ({session}):"
                                     " left out", where=r.where, first=r.first,
                                     session=session_text(r.session)))) + "</li>"
        for r in table.repeats)
    heads = "".join(
        f'<th{cls}>{for_html(column(key))}</th>' for key, cls in (
            ("rank", ""), ("player", ' class="player"'), ("deals", ""), ("duplicates", ""),
            ("score", ""), (table.heading(), ""), ("running", ' class="chart"')))
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{language()}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';"
        " style-src 'unsafe-inline'; img-src data:\">\n"
        f"<title>{for_html(heading)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
        f"<h1>{for_html(heading)}</h1>\n"
        f'<p class="sub">{for_html(method)} {for_html(render(Msg("Generated by tarotnotation.")))}'
        "</p>\n"
        f"<table>\n<thead><tr>{heads}</tr></thead>\n<tbody>\n"
        + "\n".join(rows) + "\n</tbody>\n</table>\n"
        + (f'<ul class="notes">{notes}{repeats}</ul>\n' if notes or repeats else "")
        + "</body>\n</html>\n"
    )
