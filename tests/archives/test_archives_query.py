"""``tarot query`` and its language: every field against the replay, mistakes shown with a
caret, streaming in every format, -j 2 as -j 1."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from archive_builders import generated, write_jsonl, write_tarot
from cli_runs import EXAMPLES, FAULTY, invoke, rel

from tarotnotation.archives.query import FIELDS, QueryError, compile_query
from tarotnotation.archives.stream import Options, scan
from tarotnotation.archives.summary import DealSummary
from tarotnotation.formats import json as tjson
from tarotnotation.replay import Status, replay
from tarotnotation.rules import Camp, Contract


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("query")
    records = generated(150, seed=11) + generated(30, seed=12, players=5) + generated(
        20, seed=13, players=3)
    return write_jsonl(folder / "season.jsonl", records)


@pytest.fixture(scope="module")
def summaries(archive: Path) -> list[DealSummary]:
    out = []
    for deal in scan([archive]):
        assert deal.summary is not None
        out.append(deal.summary)
    return out


def _matching(summaries: list[DealSummary], expr: str) -> list[int]:
    q = compile_query(expr)
    return [s.index for s in summaries if q(s)]


def test_fields_agree_with_the_replay(archive: Path, summaries: list[DealSummary]) -> None:
    records = [item.record for item in tjson.read(archive)]
    for s, record in zip(summaries, records, strict=True):
        assert record is not None
        r = replay(record)
        assert s.contract == r.contract
        assert s.taker == r.taker
        assert s.taker_index is None or s.seats[s.taker_index] == r.taker
        assert r.scores is not None
        assert s.scores == dict(r.scores)
        assert s.scores_in_order == tuple(r.scores[seat] for seat in s.seats)
        assert r.score is not None
        assert s.made == r.score.made
        assert s.margin_points == r.score.margin_points
        assert s.petit_au_bout == r.petit_au_bout
        assert s.chelem == r.chelem
        assert s.hands == tuple(record.hands[seat].bits for seat in s.seats)  # type: ignore[index]


@pytest.mark.parametrize(("expr", "truth"), [
    ("contract >= garde and not made",
     lambda s: s.contract >= Contract.GARDE and not s.made),
    ("garde <= contract", lambda s: s.contract >= Contract.GARDE),
    ("players = 5 and called_self", lambda s: s.players == 5 and s.partner is None),
    ("petit_au_bout = defence", lambda s: s.petit_au_bout is Camp.DEFENCE),
    ("petit_au_bout", lambda s: s.petit_au_bout is not None),
    ("poignee", lambda s: bool(s.poignees)),
    ("poignee = double", lambda s: any(size.value == "double" for _, size in s.poignees)),
    ("chelem or chelem_announced", lambda s: s.chelem is not None or s.chelem_announced),
    ("margin <= -10", lambda s: s.margin_points <= -10),
    ("10 < margin", lambda s: s.margin_points > 10),
    ("points > 45.5", lambda s: s.taker_half > 91),
    ("bouts = 3 or (bouts = 0 and made)", lambda s: s.bouts == 3 or (s.bouts == 0 and s.made)),
    ('Event ~ "soirée 2"', lambda s: s.tag("Event") == "Soirée 2"),
    ("Event = 'Soirée 1'", lambda s: s.tag("Event") == "Soirée 1"),
    ("Date >= 2026.11.20", lambda s: int(s.tag("Date")[-2:]) >= 20),
    ("Date < 2026-11-03", lambda s: int(s.tag("Date")[-2:]) < 3),
    ("Deal > 100", lambda s: int(s.tag("Deal")) > 100),
    ("dealer = S", lambda s: s.dealer == "S"),
    ('player = "Alice" and taker = player',
     lambda s: s.taker is not None and s.player(s.taker) == "Alice"),
    ('taker = "Alice"', lambda s: s.taker is not None and s.player(s.taker) == "Alice"),
    ('not player = "Alice"', lambda s: "Alice" not in s.names),
    ('names = "Alice" and names = "Bruno"', lambda s: {"Alice", "Bruno"} <= set(s.names)),
    ('player = "Alice" and camp = defence',
     lambda s: "Alice" in s.names and s.camps[s.names.index("Alice")] is Camp.DEFENCE),
    ("score > 400", lambda s: max(s.scores.values()) > 400),
    ("taker_score < 0", lambda s: s.scores[s.taker] < 0),
    ("taker = partner", lambda s: False),
    ("status = scored and valid", lambda s: True),
    ("has P105 or has R", lambda s: False),
    ("deal = 3", lambda s: s.index == 3),
    ("", lambda s: True),
])
def test_the_language_matches_what_it_says(summaries: list[DealSummary], expr: str,
                                           truth: object) -> None:
    want = [s.index for s in summaries if truth(s)]  # type: ignore[operator]
    assert _matching(summaries, expr) == want


def test_a_missing_value_is_unknown_and_never_matches() -> None:
    [annulled] = [d.summary for d in scan([EXAMPLES / "prise.tarot"])]
    assert annulled is not None
    unscored = DealSummary(**{**{f: getattr(annulled, f) for f in DealSummary._fields},
                              "status": Status.ANNULLED, "contract": None, "made": None,
                              "margin_points": None, "scores_in_order": None})
    for expr in ("made", "not made", "contract >= prise", "not contract >= prise",
                 "margin < 0 or margin >= 0", "Flavour = 1", "not Flavour = 1"):
        assert not compile_query(expr)(unscored), expr
    assert compile_query("made or status = annulled")(unscored)


@pytest.mark.parametrize(("expr", "message", "caret"), [
    ("contrat >= garde", "unknown field 'contrat': did you mean contract?", "^^^^^^^"),
    ("contract >= gard", "'gard' is not a contract: expected prise, garde, garde_sans or"
     " garde_contre", "            ^^^^"),
    ("contract >=", "the expression ends too soon: expected a value", "           ^"),
    ("contract >= and made", "unexpected 'and': expected a value", "            ^^^"),
    ("(made or chelem", "the expression ends too soon: expected ')'", "               ^"),
    ("made)", "unexpected ')'", "    ^"),
    ("has Z9", "no diagnostic code starts with Z9", "    ^^"),
    ("margin = garde", "margin is compared with a number", "         ^^^^^"),
    ("Event ~ \"(\"", "not a valid pattern", "        ^^^"),
    ('taker = "Alice', "this text is never closed", "        ^^^^^^"),
    ("taker = bouts", "bouts is a whole number, and taker is a seat", "        ^^^^^"),
    ("margin", "margin is a whole number: compare it", "^^^^^^"),
    ("made = maybe", "made is true or false, not 'maybe'", "       ^^^^^"),
    ("bouts > 1.5", "bouts is a whole number", "        ^^^"),
    ("3 = 3", "compare a field or a tag with a value", "  ^"),
    ("made & chelem", "unexpected '&'", "     ^"),
])
def test_a_mistake_is_shown_with_a_caret(expr: str, message: str, caret: str) -> None:
    with pytest.raises(QueryError) as info:
        compile_query(expr)
    assert info.value.message.startswith(message), info.value.message
    assert info.value.show() == f"{expr}\n{caret}"


@pytest.mark.parametrize(("expr", "message", "at"), [
    ("margin > " + "9" * 309, "a number has at most 18 digits (the limit MAX_DIGITS of"
     " tarotnotation.limits)", 9),
    ("bouts = -" + "1" * 19, "a number has at most 18 digits", 8),
    ("Round > " + "9" * 400, "a number has at most 18 digits", 8),
    ("not " * 986 + "made", "the expression is nested more than 100 deep (not and"
     " parentheses)", None),
    ("made and (" * 500 + "made" + ")" * 500, "the expression is nested more than 100 deep",
     None),
])
def test_no_traceback_from_the_query_language(expr: str, message: str, at: int | None) -> None:
    # --where "margin > <309 nines>" ended in an OverflowError, 986 nested not or
    # "made and (" 500 deep in a RecursionError (issue 31): a clear error with the limit
    with pytest.raises(QueryError) as caught:
        compile_query(expr)
    assert caught.value.message.startswith(message)
    if at is not None:
        assert caught.value.start == at
    ran = invoke("query", rel(EXAMPLES / "prise.tarot"), "--where", expr)
    assert ran.code == 2, ran
    assert ran.err.startswith(f"tarot: --where: {message}")
    assert compile_query("not " * 99 + "made")  # (below the limit: compiled, and it runs)
    assert invoke("query", rel(EXAMPLES / "prise.tarot"), "--count", "--where",
                  "not " * 98 + "made").code == 0


def test_an_unknown_field_lists_every_field() -> None:
    with pytest.raises(QueryError) as info:
        compile_query("vulnerable")
    for name in FIELDS:
        assert name in info.value.message
    assert "a tag is written with a capital" in info.value.message


def test_the_caret_stays_under_the_fault_with_control_characters() -> None:
    with pytest.raises(QueryError) as info:
        compile_query('Event ~ "\x1b" and contrat')
    text, caret = info.value.show().split("\n")
    assert "\x1b" not in text
    assert "\\x1b" in text
    assert text[caret.index("^"):].startswith("contrat")


def test_a_query_pickles_by_its_text() -> None:
    import pickle

    q = compile_query("contract >= garde and not made")
    assert pickle.loads(pickle.dumps(q)).text == q.text


def test_query_command_count_and_formats(archive: Path, summaries: list[DealSummary],
                                         tmp_path: Path) -> None:
    expr = "contract >= garde and not made"
    want = _matching(summaries, expr)
    assert want
    ran = invoke("query", str(archive), "--where", expr, "--count")
    assert (ran.code, ran.out) == (0, f"{len(want)}\n")
    out = tmp_path / "lost.tarot"
    ran = invoke("query", str(archive), "-w", expr, "-o", str(out))
    assert ran.code == 0, ran
    assert f"{len(want)} of 200 deals matched" in ran.err
    assert [d.summary.tag("Deal") for d in scan([out])] == [  # type: ignore[union-attr]
        summaries[i - 1].tag("Deal") for i in want]
    ran = invoke("query", str(archive), "-w", expr, "--format", "jsonl")
    lines = ran.out.splitlines()
    assert len(lines) == len(want)
    assert tjson.loads(lines[0]) == next(tjson.read(archive)).record if want[0] == 1 else True


def test_query_fields_as_a_spreadsheet_table(archive: Path,
                                             summaries: list[DealSummary]) -> None:
    ran = invoke("query", str(archive), "-w", "poignee", "--fields",
                 "Date,contract,taker,made,margin", "--format", "table-csv")
    assert ran.code == 0, ran
    rows = list(csv.reader(io.StringIO(ran.out)))
    assert rows[0] == ["Date", "contract", "taker", "made", "margin"]
    want = [s for s in summaries if s.poignees]
    assert len(rows) == len(want) + 1
    first = want[0]
    assert rows[1] == [first.tag("Date"), first.contract.keyword,  # type: ignore[union-attr]
                       first.player(first.taker or 0), "yes" if first.made else "no",
                       str(first.margin_points)]
    table = invoke("query", str(archive), "-w", "poignee", "--fields", "contract,margin")
    assert table.out.splitlines()[0].split() == ["contract", "margin"]
    jl = invoke("query", str(archive), "-w", "poignee", "--fields", "contract,made",
                "-f", "table-jsonl").out.splitlines()
    assert json.loads(jl[0]) == {"contract": first.contract.keyword,  # type: ignore[union-attr]
                                 "made": first.made}


@pytest.mark.process
def test_query_in_parallel_gives_the_same_output(archive: Path) -> None:
    one = invoke("query", str(archive), "-w", "made and poignee", "-f", "jsonl")
    two = invoke("query", str(archive), "-w", "made and poignee", "-f", "jsonl", "-j", "2")
    assert one.code == two.code == 0
    assert one.out == two.out
    assert one.out


def test_query_reports_unreadable_deals_and_skips_them(tmp_path: Path) -> None:
    ran = invoke("query", rel(FAULTY), "--count")
    assert ran.code == 1
    assert "syntax-error.tarot:25:8: S003 error" in ran.err
    assert "1 deal could not be read and was left out" in ran.err
    readable = sum(1 for d in scan([FAULTY]) if d.ok)
    assert ran.out == f"{readable}\n"
    out = tmp_path / "x.jsonl"
    ran = invoke("query", rel(FAULTY), "-o", str(out), "--strict")
    assert ran.code == 1
    assert "stopped at the first deal that could not be read" in ran.err
    assert not out.exists()


def test_query_finds_diagnostic_codes() -> None:
    ran = invoke("query", rel(FAULTY), "-w", "has P105", "--fields", "file,deal")
    assert ran.out.splitlines()[1:] == ["examples/faulty/revoke.tarot  1"]
    ran = invoke("query", rel(FAULTY), "-w", "has R1", "--fields", "file")
    assert "examples/faulty/wrong-score.tarot" in ran.out


@pytest.mark.parametrize(("args", "message"), [
    (("-w", "contrat = 1"), "tarot: --where: unknown field 'contrat'"),
    (("-f", "pgn"), "tarot: --format pgn: unknown format"),
    (("--fields", "contract,flavour"), "tarot: --fields: unknown column 'flavour'"),
    (("--fields", "player"), "tarot: --fields: player is a field of one player"),
    (("--fields", "contract", "-f", "jsonl"), "tarot: --fields makes a table"),
])
def test_query_usage_errors_exit_two(args: tuple[str, ...], message: str) -> None:
    ran = invoke("query", rel(EXAMPLES / "prise.tarot"), *args)
    assert ran.code == 2
    assert ran.out == ""
    assert ran.err.startswith(message), ran.err


def test_query_never_writes_over_an_input(tmp_path: Path) -> None:
    path = write_tarot(tmp_path / "a.tarot", generated(3))
    before = path.read_bytes()
    ran = invoke("query", str(path), "-o", str(path))
    assert ran.code == 2
    assert "is one of the inputs" in ran.err
    assert path.read_bytes() == before
    link = tmp_path / "link.tarot"
    link.symlink_to(path)
    assert invoke("query", str(tmp_path), "-o", str(link)).code == 2
    assert path.read_bytes() == before


def test_scan_without_replay_reads_cards_and_tags_only() -> None:
    [deal] = scan([EXAMPLES / "garde-poignee.tarot"], options=Options(replay=False))
    assert deal.summary is not None
    assert deal.summary.status is None
    assert deal.summary.contract is None
    assert deal.summary.tag("Site") == "Lyon"
    assert len(deal.summary.play) == 72


@pytest.mark.process
def test_a_query_of_tags_alone_reads_without_replaying(archive: Path,
                                                       tmp_path: Path) -> None:
    expr = 'Event ~ "soirée 1" and player = "Alice" and dealer = S'
    assert not compile_query(expr).needs_replay
    replayed = f"({expr}) and errors >= 0"  # the same deals, through the replay
    assert compile_query(replayed).needs_replay
    for args in (["--count"], ["-f", "jsonl"], ["--fields", "Date,Deal,names,line"]):
        fast = invoke("query", str(archive), "-w", expr, *args)
        slow = invoke("query", str(archive), "-w", replayed, *args)
        assert fast.code == slow.code == 0
        assert fast.out == slow.out
        assert fast.out.strip() not in ("", "0")
    two = invoke("query", str(archive), "-w", expr, "-f", "jsonl", "-j", "2")
    assert two.out == invoke("query", str(archive), "-w", expr, "-f", "jsonl").out


def test_a_csv_output_is_a_score_sheet_unless_fields_make_a_table(tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.csv"
    ran = invoke("query", rel(EXAMPLES / "score-sheet.tarot"), "-w", "made", "-o", str(sheet))
    assert ran.code == 0, ran
    made = [d for d in scan([EXAMPLES / "score-sheet.tarot"]) if d.summary and d.summary.made]
    assert len(list(scan([sheet]))) == len(made)
    table = tmp_path / "table.csv"
    ran = invoke("query", rel(EXAMPLES / "score-sheet.tarot"), "-w", "made", "--fields",
                 "contract,margin", "-o", str(table))
    assert ran.code == 0, ran
    assert table.read_text(encoding="utf-8").splitlines()[0] == "contract,margin"
