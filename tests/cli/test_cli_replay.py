"""``tarot replay`` (the deal as a person follows it) and ``tarot score`` (score sheets)."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from cli_runs import EXAMPLES, FAULTY, invoke, rel, run_forked

from tarotnotation import notation
from tarotnotation.replay import replay


@pytest.mark.process
def test_replay_follows_the_deal_section_by_section() -> None:
    ran = run_forked("replay", rel(EXAMPLES / "annotated.tarot"))
    assert ran.code == 0, ran
    out = ran.out
    order = ["Deal 1: Club de Tarot de Lyon", "Hands (as dealt)", "Auction", "Écart", "Play",
             "Score"]
    positions = [out.index(part) for part in order]
    assert positions == sorted(positions)
    lines = out.splitlines()
    # the hands, each seat named
    assert any(line.startswith("  N (Chloé Dubois)") and "T21" in line for line in lines)
    assert "  chien" in out
    # the auction with its glyph and comments, and who took
    assert "  N: Garde!?" in lines
    assert "      {Chloé garde avec deux bouts seulement}" in lines
    assert "  → Garde by N (Chloé Dubois)" in lines
    # trick 1: who led, the cards by seat, the winner, its points, both camps' points
    first = next(line for line in lines if line.startswith("   1."))
    assert first.split()[1:9] == ["E:T20", "N:T21", "W:T7", "S:T15", "N", "6", "6", "0"]
    # the Excuse exchange is said where it happens
    eighth = next(line for line in lines if line.startswith("   8."))
    assert "the Excuse to the defence" in eighth
    # comments in place: the card comment after trick 2
    i = lines.index(next(line for line in lines if line.startswith("   2.")))
    assert lines[i + 1] == "      5H: {il fallait garder cette carte}"
    assert "      the écart: 4 points to the taker" in lines
    # the score, worked out
    for step in ("  Garde by N: 44 points with 1 bout, needs 51: lost by 7",
                 "  contract (25 + 7) × 2 = -64", "  each defender +64",
                 "  S +64, E +64, N -192, W +64", "  valid: 0 errors, 0 warnings"):
        assert step in lines


def test_replay_marks_a_violation_at_its_card_and_exits_one() -> None:
    ran = invoke("replay", rel(FAULTY / "revoke.tarot"))
    assert ran.code == 1
    lines = ran.out.splitlines()
    i = lines.index(next(line for line in lines if line.startswith("   3.")))
    assert lines[i + 1].startswith("      T19: ✗ error P105 must-follow-suit: Clubs led")
    assert lines[i + 1].endswith("(examples/faulty/revoke.tarot:21:8)")
    assert "  faulty: 1 error, 0 warnings" in lines


def test_replay_marks_a_recorded_score_at_the_result() -> None:
    lines = invoke("replay", rel(FAULTY / "wrong-score.tarot")).out.splitlines()
    score = lines.index("Score")
    marks = [line for line in lines[score:] if "R101 score-mismatch" in line]
    assert len(marks) == 4


def test_replay_of_a_five_player_deal_names_the_partner() -> None:
    out = invoke("replay", rel(EXAMPLES / "five-players.tarot")).out
    assert "  calls KD: partner W (Karine Lambert)" in out
    assert "Garde by F with W: 39.5 points with 1 bout, needs 51: lost by 12" in out


def test_replay_of_bonuses_shows_each_term() -> None:
    out = invoke("replay", rel(EXAMPLES / "chelem-announced.tarot")).out
    assert "chelem announced and made = +400" in out
    sheet = invoke("replay", rel(EXAMPLES / "score-sheet.tarot"), "--deal", "2").out
    assert "petit au bout (taker) 10 × 1 = +10" in sheet
    assert sheet.count("Deal ") == 1
    first = invoke("replay", rel(EXAMPLES / "score-sheet.tarot"), "-d", "1").out
    assert "poignée simple 20 = -20" in first


def test_replay_deal_out_of_range_and_rules() -> None:
    ran = invoke("replay", rel(EXAMPLES / "prise.tarot"), "--deal", "4")
    assert ran.code == 2
    assert ran.err.strip() == "tarot: examples/prise.tarot: no deal number 4 (the file holds 1)"
    forced = invoke("replay", rel(EXAMPLES / "excuse-last-trick.tarot"), "--ruleset", "pagat")
    assert forced.code == 1
    assert "ruleset pagat" in forced.out


@pytest.mark.process
def test_replay_reads_other_formats_and_stdin(tmp_path: Path) -> None:
    data = (EXAMPLES / "prise.tarot").read_bytes()
    ran = run_forked("replay", "-", stdin=data)
    assert ran.code == 0
    assert invoke("replay", rel(EXAMPLES / "prise.tarot")).out == ran.out


@pytest.mark.process
def test_score_sheet_rows_running_totals_and_zero_sum() -> None:
    ran = run_forked("score", rel(EXAMPLES / "score-sheet.tarot"))
    assert ran.code == 0, ran
    lines = ran.out.splitlines()
    assert lines[0].startswith("examples/score-sheet.tarot")
    header = lines[1].split()
    assert header[:7] == ["deal", "contract", "taker", "points", "bouts", "result", "score"]
    # the players the records name, each a column (issue 31: totals by player, not seat)
    assert " ".join(header[7:]) == "Alice Martin Bruno Lefèvre Chloé Dubois David Moreau"
    rows = [line.split() for line in lines[2:10]]
    assert [r[0] for r in rows] == [str(i) for i in range(1, 9)]
    # the library's scores, summed row by row
    running = dict.fromkeys("SENW", 0)
    for row, item in zip(rows, notation.read(EXAMPLES / "score-sheet.tarot"), strict=True):
        assert item.record is not None
        rep = replay(item.record)
        assert rep.scores is not None
        assert rep.taker is not None
        for seat, value in rep.scores.items():
            running[seat] += value
        assert row[1] == rep.contract.keyword if rep.contract else False
        assert row[2] == rep.taker
        assert int(row[-5]) == rep.scores[rep.taker]
        assert [int(v) for v in row[-4:]] == [running[s] for s in "SENW"]
    total = lines[10].split()
    assert total[0] == "total"
    assert [int(v) for v in total[1:5]] == [running[s] for s in "SENW"]
    assert sum(running.values()) == 0
    assert lines[10].endswith("(zero-sum)")


def test_score_flags_faulty_deals_and_exits_one() -> None:
    ran = invoke("score", rel(FAULTY / "wrong-score.tarot"), rel(EXAMPLES / "prise.tarot"))
    assert ran.code == 1
    assert "✗4" in ran.out
    assert ran.out.count("R101 error") == 4
    # one sheet per file
    assert ran.out.count("(zero-sum)") == 2


@pytest.mark.process
@pytest.mark.parametrize("runner", ["invoke", "forked"])
def test_score_json_lines(runner: str) -> None:
    args = ("score", "--format", "json", rel(EXAMPLES / "score-sheet.tarot"),
            rel(FAULTY / "revoke.tarot"))
    ran = invoke(*args) if runner == "invoke" else run_forked(*args)
    assert ran.code == 1
    deals = [orjson.loads(line) for line in ran.out.splitlines()]
    assert len(deals) == 9
    first = deals[0]
    assert {"deal", "contract", "taker", "made", "points", "bouts", "taker_score", "scores",
            "violations"} <= set(first)
    assert (first["deal"], first["contract"], first["taker"], first["made"], first["points"],
            first["bouts"], first["taker_score"]) == (1, "prise", "S", False, 29, 0, -216)
    assert first["scores"] == {"S": -216, "E": 72, "N": 72, "W": 72}
    assert first["violations"] == []
    assert deals[7]["running"] == {"Alice Martin": -621, "Bruno Lefèvre": 727,
                                   "Chloé Dubois": 103, "David Moreau": -209}
    revoke = deals[8]
    assert revoke["deal"] == 1
    assert revoke["points"] == 18
    assert revoke["violations"][0]["code"] == "P105"
    assert "Clubs led" in revoke["violations"][0]["message"]
    assert list(revoke["running"].values()) == list(revoke["scores"].values())  # a new sheet


def test_score_totals_by_player_name_when_the_players_change_seats(tmp_path: Path) -> None:
    """Issue 31: a score app puts the taker in S every time, a club's members rotate: the
    running totals are each player's (as standings counts), not each seat's."""
    moving = tmp_path / "moving.tarot"
    moving.write_text(
        '[Deal "1"] [Players "4"]\n[Seats "S:Alice, E:Bruno, N:Chloé, W:David"]\n'
        "result: garde taker S points 48 bouts 2\n\n"
        '[Deal "2"] [Players "4"]\n[Seats "S:Bruno, E:Alice, N:Chloé, W:David"]\n'
        "result: prise taker S points 56 bouts 0\n", encoding="utf-8")
    ran = invoke("score", "-f", "json", str(moving))
    assert ran.code == 0, ran.out
    last = orjson.loads(ran.out.splitlines()[-1])
    assert last["running"] == {"Alice": 167, "Bruno": 11, "Chloé": -89, "David": -89}
    text = invoke("score", str(moving)).out.splitlines()
    assert text[1].split()[-4:] == ["Alice", "Bruno", "Chloé", "David"]
    assert text[-1].split()[1:5] == ["+167", "+11", "-89", "-89"]


def test_score_of_half_points_is_a_number() -> None:
    deals = [orjson.loads(line) for line in invoke(
        "score", "-f", "json", rel(EXAMPLES / "five-players.tarot")).out.splitlines()]
    assert deals[0]["points"] == 39.5
    assert deals[0]["partner"] == "W"


def test_score_json_of_an_unreadable_and_an_unscored_deal(tmp_path: Path) -> None:
    partial = tmp_path / "partial.tarot"
    partial.write_text('[Players "4"]\nauction: pass garde pass pass\n', encoding="utf-8")
    ran = invoke("score", "-f", "json", rel(FAULTY / "syntax-error.tarot"), str(partial))
    assert ran.code == 1
    broken, sheet, unscored = (orjson.loads(line) for line in ran.out.splitlines())
    assert broken["status"] is None
    assert broken["scores"] is None
    assert broken["violations"][0]["code"] == "S003"
    assert (broken["violations"][0]["line"], broken["violations"][0]["col"]) == (25, 8)
    assert sheet["status"] == "scored"
    assert (unscored["status"], unscored["contract"], unscored["taker"]) == (
        "unscored", "garde", "E")
    assert unscored["points"] is None
    assert unscored["running"] == {}
