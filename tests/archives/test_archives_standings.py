"""``tarot standings``: league tables, duplicate deals compared, the HTML page.

The tournament of ``archive_builders.tournament``: three tables (Ana, Ben, Cy, Dee at S,
E, N, W; Eve, Finn, Gus, Hal; Ivy, Jo, Kim, Lou) play the same 8 deals, the hands
rotated one seat from a table to the next. On every deal the holder of hand 0 (Ana at
table 1, Hal at table 2, Kim at table 3) takes a prise and makes 56 points with one bout
(made by 5: taker +90, each defender -30), 51 (made by 0: +75, -25) or 48 (lost by 3:
-84, +28); table t gets outcome (t + d) % 3 on deal d, so:

- table 1 has outcomes 0, 1, 2 on 3, 3, 2 deals; table 2 on 2, 3, 3; table 3 on 3, 2, 3.
- On a deal, the holders of hand 0 score 90, 75 and -84 (mean 27): results +63, +48,
  -111. The holders of another hand score -30, -25 and +28 (mean -9): -21, -16, +37.
- Totals: Ana 3*63 + 3*48 - 2*111 = +111; Hal 2*63 + 3*48 - 3*111 = -63; Kim 3*63 +
  2*48 - 3*111 = -48; Ben, Cy, Dee -3*21 - 3*16 + 2*37 = -37; Eve, Finn, Gus -2*21 -
  3*16 + 3*37 = +21; Ivy, Jo, Lou -3*21 - 2*16 + 3*37 = +16.
- Scores as played: Ana 3*90 + 3*75 - 2*84 = 327; Hal 180 + 225 - 252 = 153; Kim 270 +
  150 - 252 = 168; Ben... -90 - 75 + 56 = -109; Eve... -60 - 75 + 84 = -51; Ivy... -90 -
  50 + 84 = -56.
- Matchpoints (1 per session beaten, top 2 a deal, 16 in all): the best outcome for the
  taker's hand is 0 and for the others 2. Ana 3*2 + 3*1 = 9 (56.25%), Hal 2*2 + 3 = 7
  (43.75%), Kim 3*2 + 2 = 8 (50%); Ben... 3*1 + 2*2 = 7, Eve... 3 + 3*2 = 9, Ivy... 2 +
  3*2 = 8.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from archive_builders import TABLES, tournament, write_tarot, write_tournament
from cli_runs import EXAMPLES, invoke, rel

from tarotnotation.archives.standings import Standings, html_page
from tarotnotation.archives.stream import scan

TOTALS = {"Ana": 111, "Hal": -63, "Kim": -48, "Ben": -37, "Cy": -37, "Dee": -37,
          "Eve": 21, "Finn": 21, "Gus": 21, "Ivy": 16, "Jo": 16, "Lou": 16}
SCORES = {"Ana": 327, "Hal": 153, "Kim": 168, "Ben": -109, "Cy": -109, "Dee": -109,
          "Eve": -51, "Finn": -51, "Gus": -51, "Ivy": -56, "Jo": -56, "Lou": -56}
MATCHPOINTS = {"Ana": 9, "Hal": 7, "Kim": 8, "Ben": 7, "Cy": 7, "Dee": 7,
               "Eve": 9, "Finn": 9, "Gus": 9, "Ivy": 8, "Jo": 8, "Lou": 8}


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return write_tournament(tmp_path_factory.mktemp("tournament"))


def _standings(paths: list[Path], method: str) -> Standings:
    table = Standings(method)
    for deal in scan(paths):
        assert deal.summary is not None
        assert deal.summary.errors == 0, deal.summary.codes
        table.add(deal.summary)
    return table


def test_the_tournament_totals_worked_out_by_hand(tables: list[Path]) -> None:
    table = _standings(tables, "total")
    rows = table.rows()
    assert {r.player: r.result for r in rows} == TOTALS
    assert {r.player: r.score for r in rows} == SCORES
    assert all((r.deals, r.duplicates) == (8, 8) for r in rows)
    assert [(r.rank, r.player) for r in rows][:5] == [
        (1, "Ana"), (2, "Eve"), (2, "Finn"), (2, "Gus"), (5, "Ivy")]
    assert [r.rank for r in rows][-2:] == [11, 12]
    assert table.duplicate_deals == 8
    assert sum(TOTALS.values()) == 0


def test_the_tournament_in_matchpoints_and_mean(tables: list[Path]) -> None:
    rows = _standings(tables, "matchpoints").rows()
    assert {r.player: r.matchpoints for r in rows} == MATCHPOINTS
    assert {r.player: r.top for r in rows} == dict.fromkeys(MATCHPOINTS, 16)
    assert {r.player: r.result for r in rows} == {
        p: round(100 * mp / 16, 2) for p, mp in MATCHPOINTS.items()}
    assert [r.player for r in rows if r.rank == 1] == ["Ana", "Eve", "Finn", "Gus"]
    mean = {r.player: r.result for r in _standings(tables, "mean").rows()}
    assert mean == {p: round(t / 8, 2) for p, t in TOTALS.items()}


def test_the_running_result_of_a_player(tables: list[Path]) -> None:
    ana = next(r for r in _standings(tables, "total").rows() if r.player == "Ana")
    # Ana has outcome d % 3 on deal d: +63, +48, -111, +63, ...
    steps = [(63, 48, -111)[d % 3] for d in range(8)]
    assert ana.running == tuple(float(sum(steps[:i + 1])) for i in range(8))


def test_the_same_deals_in_one_session_are_no_duplicates_of_each_other(
        tables: list[Path], tmp_path: Path) -> None:
    # Without Round and Table the three tables are one session: each deal then appears
    # three times in it, and only its first play counts.
    records = [r.model_copy(update={"tags": (("Event", "One table"),)})
               for table in tournament() for r in table]
    path = write_tarot(tmp_path / "one.tarot", records)
    table = _standings([path], "total")
    assert len(table.repeats) == 16
    assert table.duplicate_deals == 0
    assert {r.player for r in table.rows()} == set(TABLES[0])
    ran = invoke("standings", str(path))
    assert ran.code == 1
    assert "the same deal as" in ran.err
    assert "left out" in ran.err


def test_standings_command_text_json_csv(tables: list[Path]) -> None:
    ran = invoke("standings", *map(str, tables))
    assert ran.code == 0, ran
    lines = ran.out.splitlines()
    assert lines[0].split() == ["rank", "player", "deals", "duplicates", "score", "total"]
    assert lines[1].split() == ["1", "Ana", "8", "8", "+327", "+111"]
    assert "8 duplicate deals" in ran.out
    data = json.loads(invoke("standings", *map(str, tables), "-f", "json", "-m",
                             "matchpoints").out)
    assert {r["player"]: r["matchpoints"] for r in data["rows"]} == MATCHPOINTS
    csv = invoke("standings", *map(str, tables), "--format", "csv").out.splitlines()
    assert csv[0] == "rank,player,deals,duplicates,score,total"
    assert csv[-1] == "12,Hal,8,8,+153,-63"


def test_the_page_is_self_contained_and_escapes_names(tables: list[Path],
                                                       tmp_path: Path) -> None:
    evil = [r.model_copy(update={"seats": tuple(
        s.model_copy(update={"name": '<script>alert("x")</script>' if s.id == "S" else s.name})
        for s in r.seats)}) for r in tournament()[0]]
    path = write_tarot(tmp_path / "evil.tarot", evil)
    page_path = tmp_path / "page.html"
    ran = invoke("standings", *map(str, tables[1:]), str(path), "--html", str(page_path),
                 "--title", "Club <b>night</b>")
    assert ran.code == 0, ran
    page = page_path.read_text(encoding="utf-8")
    assert "<script" not in page
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page
    assert "Club &lt;b&gt;night&lt;/b&gt;" in page
    assert not re.search(r"(src|href)\s*=", page)
    assert "http://" not in page
    assert "https://" not in page
    assert page.count("<svg") == 12
    assert page.count("<polyline") == 12


def test_the_page_draws_each_running_result(tables: list[Path]) -> None:
    table = _standings(tables, "total")
    page = html_page(table)
    ana = page.split(">Ana<", 1)[1].split("</tr>", 1)[0]
    points = re.search(r'<polyline [^>]*points="([^"]+)"', ana)
    assert points is not None
    assert len(points.group(1).split()) == 9  # zero, then after each of the 8 deals
    assert "Ana: +111 after 8 deals" in ana


def test_deals_without_names_count_seats_with_a_note(tmp_path: Path) -> None:
    records = [r.model_copy(update={"seats": tuple(s.model_copy(update={"name": None})
                                                   for s in r.seats)})
               for r in tournament()[0][:3]]
    path = write_tarot(tmp_path / "anonymous.tarot", records)
    ran = invoke("standings", str(path))
    assert ran.code == 0
    assert {line.split()[1] for line in ran.out.splitlines()[1:5]} == {"S", "E", "N", "W"}
    assert "name no player" in ran.out


def test_score_sheets_count_their_scores() -> None:
    ran = invoke("standings", rel(EXAMPLES / "score-sheet.tarot"))
    assert ran.code == 0
    assert ran.out.splitlines()[1].split()[1:] == ["Bruno", "Lefèvre", "8", "0", "+727",
                                                   "+727"]
    assert "cannot be compared" in ran.out
