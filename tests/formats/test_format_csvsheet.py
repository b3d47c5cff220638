"""CSV score sheets: the layout read in French and English, every fault at its row and
column, inferences noted, round trips notation -> CSV -> notation (issue 19)."""

from __future__ import annotations

import csv
import io
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sheetgen import evening
from strategies import outcome_records

from tarotnotation import archive, notation
from tarotnotation.archive import check_paths, read_path
from tarotnotation.diagnostics import Code, Severity
from tarotnotation.formats import csvsheet, detect
from tarotnotation.formats.sheet import read_rows
from tarotnotation.formats.sheetwords import Columns, is_blank
from tarotnotation.formats.sheetwriter import cannot_hold
from tarotnotation.records import DealRecord
from tarotnotation.replay import replay

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
FIXTURES = ROOT / "tests" / "fixtures" / "sheets"
TAROT = Path(sys.executable).parent / "tarot"  # the installed script, as test_cli


def _read(text: str, name: str = "sheet.csv", **kw: object) -> list:  # type: ignore[type-arg]
    return list(csvsheet.read(text.encode("utf-8"), name=name, **kw))  # type: ignore[arg-type]


def _where(deals: list) -> list[tuple[str, int | None, int | None]]:  # type: ignore[type-arg]
    """Every diagnostic of the deals, read and replayed, as (code, line, col)."""
    out = []
    for d in deals:
        out += [(x.code.value, x.location.line, x.location.col) for x in d.diagnostics]
        if d.record is not None:
            out += [(x.code.value, x.location.line, x.location.col)
                    for x in d.replay().diagnostics]
    return out


# --- round trips ---------------------------------------------------------------------------

def test_the_examples_score_sheet_round_trips_through_csv() -> None:
    records = [d.record for d in notation.read(EXAMPLES / "score-sheet.tarot")]
    data = csvsheet.dumps(records)  # type: ignore[arg-type]
    back = list(csvsheet.read(data, name="sheet.csv"))
    assert [d.record for d in back] == records
    assert all(not d.diagnostics for d in back)
    assert all(cannot_hold(r) == [] for r in records)  # type: ignore[arg-type]
    assert csvsheet.dumps([d.record for d in back]) == data  # type: ignore[misc]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_generated_sheets_round_trip_and_replay_clean(players: int) -> None:
    records = evening(players, 60, seed=players)
    data = csvsheet.dumps(records)
    back = list(csvsheet.read(data, name="evening.csv"))
    assert [d.record for d in back] == records
    for d in back:
        assert d.record is not None
        assert replay(d.record).diagnostics == ()
    text = notation.dumps(records)
    assert notation.dumps([d.record for d in back]) == text  # type: ignore[misc]


@st.composite
def sheet_records(draw: st.DrawFn) -> list[DealRecord]:
    """Records with only what a score sheet holds, all at one table."""
    n = draw(st.sampled_from([3, 4, 5]))
    ids = ("S", "E", "N", "W", "F")[:n]
    names = draw(st.lists(st.sampled_from(["Alice", "Bruno", "Chloé", "David", "Émilie",
                                           "Zoé", "Jean-Luc", "Ana Lúcia", "O'Brien"]),
                          min_size=n, max_size=n, unique=True))
    seats = [{"id": s, "name": nm} for s, nm in zip(ids, names, strict=True)]
    text = st.text(st.characters(exclude_categories=("Cc", "Cs", "Zl", "Zp")),
                   min_size=1, max_size=12).map(str.strip).filter(
        lambda t: bool(t) and "|" not in t and not is_blank(t))
    out = []
    for number in range(1, draw(st.integers(1, 4)) + 1):
        tags = [(k, draw(text)) for k in ("Event", "Site") if draw(st.booleans())]
        if draw(st.booleans()):
            tags.append(("Date", draw(st.sampled_from(["2026.11.19", "2025.01.??"]))))
        tags += [(k, str(draw(st.integers(1, 9)))) for k in ("Round", "Table")
                 if draw(st.booleans())]
        tags.append(("Deal", str(number)))
        taker = draw(st.sampled_from(ids))
        result: dict[str, object] = {
            "contract": draw(st.sampled_from(["prise", "garde", "garde_sans", "garde_contre"])),
            "taker": taker,
        }
        if n == 5:
            result["partner"] = draw(st.sampled_from(ids))
        if draw(st.booleans()):
            result["taker_points"] = draw(st.integers(0, 182)) / 2
        if draw(st.booleans()):
            result["bouts"] = draw(st.integers(0, 3))
        for key in ("petit_au_bout", "chelem"):
            if draw(st.integers(0, 3)) == 0:
                result[key] = draw(st.sampled_from(["taker", "defence"]))
        if draw(st.booleans()):
            result["scores"] = {s: draw(st.integers(-2000, 2000)) for s in ids}
        declarations: list[dict[str, object]] = []
        if draw(st.integers(0, 4)) == 0:
            declarations.append({"kind": "chelem", "seat": taker})
        for seat in draw(st.lists(st.sampled_from(ids), max_size=2, unique=True)):
            declarations.append({"kind": "poignee", "seat": seat,
                                 "size": draw(st.sampled_from(["simple", "double", "triple"]))})
        data: dict[str, object] = {"tags": tags, "players": n, "seats": seats,
                                   "result": result, "ruleset": "fft"}
        if draw(st.booleans()):
            data["dealer"] = draw(st.sampled_from(ids))
        misere = draw(st.lists(st.sampled_from(ids), max_size=2, unique=True))
        for seat in misere:
            declarations.append({"kind": "misere", "seat": seat,
                                 "misere": draw(st.sampled_from(["atout", "tete"]))})
        if misere:
            data["ruleset"] = "fft misere=on"
        if declarations:
            data["declarations"] = declarations
        if n == 5 and draw(st.booleans()):
            data["call"] = {"card": draw(st.sampled_from(["KH", "KS", "KD", "KC", "QH"]))}
        if draw(st.booleans()):
            data["comments"] = draw(st.lists(text, min_size=1, max_size=2))
        out.append(DealRecord.model_validate(data))
    return out


@given(sheet_records())
def test_what_a_sheet_holds_round_trips(records: list[DealRecord]) -> None:
    assert all(cannot_hold(r) == [] for r in records)
    back = list(csvsheet.read(csvsheet.dumps(records), name="h.csv"))
    assert [d.record for d in back] == records
    assert all(not any(x.is_error for x in d.diagnostics) for d in back)


@given(outcome_records())
def test_a_record_the_sheet_holds_whole_comes_back_whole(record: DealRecord) -> None:
    """Whatever cannot_hold leaves unlisted comes back: a record with nothing listed
    round-trips to itself; any record reads back without an error."""
    back = list(csvsheet.read(csvsheet.dumps([record]), name="o.csv"))
    assert len(back) == 1
    if not cannot_hold(record) and back[0].record is not None:
        got = back[0].record
        if any(c.startswith("sheet: ") for c in got.comments if c not in record.comments):
            return  # the reader inferred a fact the record left out: a gain, noted
        assert got.result == record.result or (record.result is not None and not any(
            (record.result.contract, record.result.taker, record.result.scores)))
        assert got.seats == record.seats
        assert got.declarations == record.declarations
        assert got.tags == tuple(t for t in record.tags)


def test_a_played_deal_is_written_with_the_facts_the_replay_gives(tmp_path: Path) -> None:
    [prise] = [d.record for d in notation.read(EXAMPLES / "prise.tarot")]
    assert prise is not None
    lost = cannot_hold(prise)
    assert any(p.startswith("the play (18 tricks") for p in lost)
    assert any(p.startswith("the hands") for p in lost)
    [back] = list(csvsheet.read(csvsheet.dumps([prise]), name="p.csv"))
    rep = replay(prise)
    assert back.record is not None
    assert back.record.result is not None
    assert back.record.result.scores == dict(rep.scores or {})
    assert back.record.result.taker_points is not None
    assert back.record.result.taker_points.half == rep.taker_half
    assert replay(back.record).diagnostics == ()


def test_one_sheet_holds_one_table() -> None:
    records = evening(4, 2, seed=1) + evening(5, 1, seed=2)
    with pytest.raises(ValueError, match="deal 3 is played by"):
        csvsheet.dumps(records)


# --- the messy sheet -----------------------------------------------------------------------

def test_the_messy_sheet_reports_every_problem_at_its_row_and_drops_nothing() -> None:
    path = FIXTURES / "messy-five-player-evening.csv"
    deals = list(read_path(path))
    assert archive.format_of(path) == "csv"
    assert [d.index for d in deals] == [1, 2, 3, 4, 5, 6]
    assert [d.record.tag("Deal") for d in deals if d.record] == ["1", "2", "3", "4", "5", "6"]
    assert sorted(_where(deals)) == sorted([
        ("C106", 1, 1),     # the title above the header
        ("C101", 3, 10),    # "Couleur": not a column, not a player
        ("A105", 8, 4),     # everyone passed
        ("C106", 9, 1),     # "Pause café"
        ("C102", 10, 6),    # points "abc"
        ("R110", 10, 1),    # so that deal cannot be scored
        ("C103", 13, 14),   # david's total
        *[("R101", 11, c) for c in range(11, 16)],  # deal 6's scores are not the rules'
    ])
    first, second, third, annulled, _, sixth = (d.record for d in deals)
    assert first
    assert second
    assert third
    assert annulled
    assert sixth
    assert [s.name for s in first.seats] == ["alice", "BRUNO", "Chloé", "david", "Émilie"]
    assert first.result
    assert first.result.partner == "N"
    assert first.call
    assert first.call.card.code == "KH"
    assert "sheet: the partner, Chloé, is inferred from the scores (2 : 1 : −1)" in (
        first.comments)
    assert second.result
    assert second.result.taker_points
    assert str(second.result.taker_points) == "40.5"  # the decimal comma
    assert second.result.petit_au_bout is not None
    assert second.result.petit_au_bout.value == "defence"  # inferred from the scores
    assert any("poignée's holder is not on the sheet" in c for c in second.comments)
    assert third.result
    assert third.result.partner == third.result.taker == "N"
    assert third.result.bouts == 2  # "Excuse + 21"
    assert annulled.result
    assert annulled.result.annulled
    assert sixth.tag("Date") == "2026.11.19"


def test_cp1252_sheet_is_read_with_a_warning_naming_the_file() -> None:
    text = "Donne;Preneur;Contrat;Points;Bouts;Hélène;Bruno;Chloé;Désiré\n" \
           "1;Hélène;Garde;48;2;192;-64;-64;-64\n2;Désiré;Prise;56;0;-25;-25;-25;75\n"
    deals = list(csvsheet.read(text.encode("cp1252"), name="vieux.csv"))
    assert [d.record.seats[0].name for d in deals if d.record] == ["Hélène", "Hélène"]
    warned = [x for d in deals for x in d.diagnostics]
    assert [(x.code, x.severity, x.location.line) for x in warned] == [
        (Code.SHEET_ENCODING, Severity.WARNING, 1)]
    assert "vieux.csv is not UTF-8" in warned[0].message
    assert "iconv -f cp1252" in warned[0].message
    assert all(d.record is not None and not d.replay().diagnostics for d in deals)


def test_a_line_that_turns_cp1252_half_way_is_named() -> None:
    data = "Donne;Preneur;Contrat;Points;Bouts;Alice;Bruno;Chloé;David\n".encode() + \
        "1;Alice;Garde;48;2;192;-64;-64;-64\n2;Alice;Garde;48;2;192;-64;-64;-64 ;é\n".encode(
            "cp1252")
    deals = list(csvsheet.read(data, name="mixte.csv"))
    assert [(x.code.value, x.location.line) for d in deals for x in d.diagnostics] == [
        ("C104", 3)]


# --- headers, languages, separators ----------------------------------------------------------

def test_english_headers_comma_separator_and_quoted_decimal_comma() -> None:
    text = ('Deal,Dealer,Taker,Contract,Partner,Score,Oudlers,Handful,"Petit au bout",'
            'Slam,Ann,Bob,Cat,Dan,Eve\n'
            '1,Eve,Ann,Guard without the kitty,nobody,"56,5",2,,,,'
            '656,-164,-164,-164,-164\n')
    [deal] = _read(text)
    rec = deal.record
    assert rec is not None
    assert rec.result is not None
    assert rec.dealer == "F"
    assert rec.result.partner == "S"
    assert str(rec.result.taker_points) == "56.5"
    assert rec.result.contract is not None
    assert rec.result.contract.keyword == "garde_sans"
    assert not deal.diagnostics
    assert not deal.replay().diagnostics


def test_tab_separated_and_seat_number_references() -> None:
    text = "N°\tPreneur\tContrat\tPoints\tBouts\tJ1\tJ2\tJ3\n" \
           "1\tJ2\tGarde\t49\t2\t-66\t132\t-66\n"
    [deal] = _read(text, name="t.tsv")
    assert deal.record is not None
    assert deal.record.result is not None
    assert deal.record.result.taker == "E"
    assert not deal.replay().diagnostics


def test_an_unknown_header_is_reported_once_with_the_known_names() -> None:
    text = "Donne;Preneur;Contrat;Points;Bouts;Couleur;Alice;Bruno;Chloé;David\n" + "".join(
        f"{i};Alice;Garde;48;2;rouge;192;-64;-64;-64\n" for i in range(1, 4))
    deals = _read(text)
    diags = [x for d in deals for x in d.diagnostics]
    assert [(x.code.value, x.location.line, x.location.col) for x in diags] == [
        ("C101", 1, 6)]
    assert "Preneur/Taker" in diags[0].message
    assert "--columns" in diags[0].message


def test_a_mapping_names_players_and_columns(tmp_path: Path) -> None:
    text = "Jeu;Qui;Enjeu;Pts;B;Joueur 1;Joueur 2;Joueur 3;Joueur 4;Couleur\n" \
           "1;Joueur 3;Garde;48;2;-64;-64;192;-64;rouge\n"
    assert _read(text)[0].record is None  # nothing a sheet has
    mapping = ("Jeu=Donne,Qui=Preneur,Enjeu=Contrat,Pts=Points,B=Bouts,Joueur 1=Alice,"
               "Joueur 2=Bruno,Joueur 3=Chloé,Joueur 4=David,Couleur=-")
    for columns in (Columns.parse(mapping), _toml(tmp_path, mapping)):
        [deal] = _read(text, columns=columns)
        assert deal.record is not None
        assert not deal.diagnostics
        assert [s.name for s in deal.record.seats] == ["Alice", "Bruno", "Chloé", "David"]
        assert deal.record.result is not None
        assert deal.record.result.taker == "N"
        assert not deal.replay().diagnostics


def test_a_mapping_in_the_environment_that_cannot_be_read_is_said(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAROT_COLUMNS", "Joueur 1")
    [deal] = _read("Donne;Preneur\n1;A\n")
    assert deal.record is None
    assert deal.diagnostics[0].message.startswith("the column mapping TAROT_COLUMNS")
    monkeypatch.setenv("TAROT_COLUMNS", "missing-file.toml")
    [deal] = _read("Donne;Preneur\n1;A\n")
    assert "missing-file.toml" in deal.diagnostics[0].message


@pytest.mark.process
def test_no_traceback_from_a_column_map_nested_past_the_limit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a --columns TOML file (or TAROT_COLUMNS) with an array nested 500 deep ended in a
    # RecursionError in Python's TOML reader (issue 31): a clear error with the limit
    deep = tmp_path / "deep.toml"
    deep.write_text('[columns]\n"Pts" = "Points"\nx = ' + "[" * 500 + "]" * 500 + "\n")
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("Donne;Preneur\n1;A\n")
    said = f'{deep}: nested more than 16 deep: a column map is a table of HEADER = "COLUMN"'
    with pytest.raises(ValueError, match="nested more than 16 deep"):
        Columns.load(deep)
    done = subprocess.run([str(TAROT), "validate", str(sheet), "--columns", str(deep)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert (done.returncode, done.stderr) == (2, f"tarot: --columns: {said}\n")
    monkeypatch.setenv("TAROT_COLUMNS", str(deep))
    [deal] = _read("Donne;Preneur\n1;A\n")
    assert deal.diagnostics[0].message == ("the column mapping TAROT_COLUMNS cannot be read: "
                                           + said)
    ok = tmp_path / "ok.toml"  # brackets in strings and comments do not count
    ok.write_text('[columns]\n"Pts [[[[[[[[[[[[[[[[[" = "Points" # ]]]]]]]]]]]]]]]]]]]\n')
    assert Columns.load(ok).target("pts [[[[[[[[[[[[[[[[[") == ("role", "points")


#: Names and tags that a spreadsheet would run as formulas (and one that starts with the
#: writer's own mark), each replacing a player or a tag of the example sheet.
FORMULAS = {"Alice Martin": "=HYPERLINK(A1)", "Bruno Lefèvre": "@SUM(A1)",
            "Chloé Dubois": "'t Hoen", "David Moreau": "-Dave",
            "Tarot du jeudi — Café des Sports": "+1+1 le jeudi", "Villeurbanne": "=1+1"}


@pytest.mark.process
@pytest.mark.parametrize("how", [["convert", "{src}", "-o", "{out}"],
                                 ["query", "{src}", "--format", "csv", "-o", "{out}"],
                                 ["convert", "{src}", "--to", "csv", "-o", "{out}.txt"]])
def test_spreadsheet_formula_injection(tmp_path: Path, how: list[str]) -> None:
    # convert x.tarot -o x.csv and query --format csv wrote names and tags such as
    # =HYPERLINK(...), @SUM(...), +1+1 as they are (issue 31), where stats, standings and
    # the tables prefixed '. One rule for every CSV written (formats/csvcell.py), and the
    # reader takes off the ' it added: the records read back are the records written.
    text = (EXAMPLES / "score-sheet.tarot").read_text(encoding="utf-8")
    for name, evil in FORMULAS.items():
        text = text.replace(name, evil)
    src = tmp_path / "evil.tarot"
    src.write_text(text, encoding="utf-8")
    out = tmp_path / "evil.csv"
    args = [a.format(src=src, out=out) for a in how]
    done = subprocess.run([str(TAROT), *args], capture_output=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    written = Path(args[-1])
    cells = [c for row in csv.reader(io.StringIO(written.read_text(encoding="utf-8-sig")),
                                     delimiter=";") for c in row]
    for evil in FORMULAS.values():
        assert "'" + evil in cells, evil
    runs = [c for c in cells if c.startswith(("=", "+", "@", "\t", "\r"))
            or (c.startswith("-") and not c.lstrip("-").replace(",", "").isdigit())]
    assert not runs, runs
    back = [(d.record.seats, d.record.tags) for d in csvsheet.read(written)
            if d.record is not None]
    first = notation.loads(text.split("\n\n")[0])
    assert [s.name for s in back[0][0]] == [s.name for s in first.seats]
    assert dict(back[0][1])["Event"] == "+1+1 le jeudi"
    assert dict(back[0][1])["Site"] == "=1+1"


def _toml(tmp_path: Path, mapping: str) -> Columns:
    lines = ["[columns]"] + [f'"{k}" = "{v}"' for k, v in (
        item.split("=") for item in mapping.split(","))]
    path = tmp_path / "columns.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return Columns.of(str(path))


def test_scores_only_sheet_and_running_totals() -> None:
    text = "Date;Alice;Bruno;Chloé;David\n2026-11-19;192;-64;-64;-64\n" \
           "2026-11-19;-50;150;-50;-50\n"
    deals = _read(text)
    assert [d.record.result.taker for d in deals if d.record and d.record.result] == [
        "S", "E"]  # the taker from the scores' shape, noted
    assert all(any("inferred from the scores" in c for c in d.record.comments)
               for d in deals if d.record)
    totals = "Donne;Preneur;Contrat;Points;Bouts;Total Alice;Total Bruno;Total Chloé;" \
             "Total David\n1;Alice;Garde;48;2;192;-64;-64;-64\n" \
             "2;Bruno;Prise;56;0;167;11;-89;-89\n3;Bruno;Prise;56;0;142;86;-114;-110\n"
    deals = _read(totals)
    assert [d.record.result.scores for d in deals if d.record and d.record.result][1] == {
        "S": -25, "E": 75, "N": -25, "W": -25}  # from the running totals
    assert all("sheet: the scores are worked out from the running totals" in d.record.comments
               for d in deals if d.record)
    # David's third total is off by 4: the scores it gives do not add up.
    assert [(x.code.value, x.location.line, x.location.col) for d in deals
            for x in d.replay().diagnostics] == [("R102", 4, 6), ("R214", 4, 9), ("R101", 4, 9)]
    with_scores = "Donne;Preneur;Contrat;Points;Bouts;Alice;Bruno;Chloé;David;Total David\n" \
        "1;Alice;Garde;48;2;192;-64;-64;-64;-64\n2;Bruno;Prise;56;0;-25;75;-25;-25;-89\n" \
        "3;Bruno;Prise;56;0;-25;75;-25;-25;-110\nTotal;;;;;142;86;-114;-114;-114\n"
    deals = _read(with_scores)
    assert [(x.code.value, x.location.line, x.location.col) for d in deals
            for x in d.diagnostics] == [("C103", 4, 10), ("C103", 5, 10)]


def test_more_players_than_a_table_each_deal_played_by_those_with_a_score() -> None:
    text = "Donne;Preneur;Contrat;Points;Bouts;Alice;Bruno;Chloé;David;Émilie;Fanny\n" \
           "1;Alice;Garde;48;2;192;-64;-64;-64;;\n2;Fanny;Prise;56;0;;-25;;-25;-25;75\n"
    deals = _read(text)
    assert [[s.name for s in d.record.seats] for d in deals if d.record] == [
        ["Alice", "Bruno", "Chloé", "David"], ["Bruno", "David", "Émilie", "Fanny"]]
    assert all(not d.replay().diagnostics for d in deals)


def test_cells_that_cannot_be_read_are_errors_at_their_cell() -> None:
    text = "Donne;Preneur;Contrat;Points;Bouts;Poignée;Chelem;Misère;Score Alice;" \
           "Score Bruno;Score Chloé\n1;Zoé;Garde contrée;40.3;5;12 atouts;peut-être;Bruno;x;" \
           "-1.5;\n"
    [deal] = _read(text)
    got = [(x.code.value, x.location.col) for x in deal.diagnostics]
    assert got == [("C102", 9), ("C102", 10), ("C102", 3), ("C102", 2), ("C102", 7),
                   ("C102", 6)]
    assert "'Zoé' is not a player of this deal" in deal.diagnostics[3].message
    assert deal.record is not None
    assert deal.record.rules.misere  # Bruno's misère
    # Points and bouts that no deal gives are kept, and the facts' cross-checks flag them
    # at their cells.
    replayed = [(x.code.value, x.location.line, x.location.col)
                for x in deal.replay().diagnostics]
    assert ("R202", 2, 4) in replayed
    assert ("R203", 2, 5) in replayed


def test_a_csv_file_that_is_no_sheet_is_not_a_record_file(tmp_path: Path) -> None:
    folder = tmp_path / "club"
    folder.mkdir()
    (folder / "members.csv").write_text("name,email\nAnn,ann@example.org\n")
    (folder / "jeudi.csv").write_text("Donne;Preneur;Contrat;Points;Bouts;A;B;C;D\n"
                                      "1;A;Garde;48;2;192;-64;-64;-64\n")
    checked = list(check_paths([folder]))
    assert [(Path(c.file).name, c.status is not None) for c in checked] == [
        ("jeudi.csv", True), ("members.csv", False)]
    [fault] = checked[1].diagnostics
    assert fault.code is Code.SHEET_NOT_A_SHEET
    assert "not a record file" in fault.message
    assert detect.sniff(b"name,email\nAnn,ann@example.org\n", suffix=".txt") == "tarot"


def test_limits_a_huge_line_and_a_huge_cell_cost_only_their_row() -> None:
    head = b"Donne;Preneur;Contrat;Points;Bouts;A;B;C;D\n"
    good = b"1;A;Garde;48;2;192;-64;-64;-64\n"
    data = head + good + b"2;" + b"x" * (2 << 20) + b"\n" + b'3;"' + b"y" * 200_000 + \
        b'";\n' + good
    deals = list(csvsheet.read(io.BytesIO(data), name="big.csv"))
    assert [d.record is not None for d in deals] == [True, True]
    assert [(x.code.value, x.location.line) for d in deals for x in d.diagnostics] == [
        ("L001", 3), ("C102", 4)]


@pytest.mark.process
def test_standard_input_and_the_command_line(tmp_path: Path) -> None:
    data = (FIXTURES / "messy-five-player-evening.csv").read_bytes()
    ran = subprocess.run([str(TAROT), "validate", "-"], input=data, capture_output=True,
                         cwd=tmp_path, check=False)
    assert ran.returncode == 1
    assert "<stdin>:10:6: C102 error: deal 5: column F (pts)" in ran.stdout.decode()
    sheet = tmp_path / "jeudi.csv"
    ran = subprocess.run([str(TAROT), "convert", str(EXAMPLES / "prise.tarot"), "-o",
                          str(sheet)], capture_output=True, check=False)
    assert ran.returncode == 0, ran.stderr
    assert b"a CSV score sheet cannot hold the hands" in ran.stderr
    back = subprocess.run([str(TAROT), "validate", str(sheet)], capture_output=True,
                          check=False)
    assert back.returncode == 0, back.stdout
    bad = subprocess.run([str(TAROT), "validate", "--columns", "Joueur 1", str(sheet)],
                         capture_output=True, check=False)
    assert bad.returncode == 2
    assert b"--columns" in bad.stderr
    mapped = tmp_path / "j.csv"
    mapped.write_text("Qui;Contrat;Points;Bouts;J1;J2;J3;J4\nJ1;Garde;48;2;192;-64;-64;-64\n",
                      encoding="utf-8")
    ran = subprocess.run([str(TAROT), "convert", str(mapped), "--columns",
                          "Qui=Preneur,J1=Alice,J2=Bruno,J3=Chloé,J4=David"],
                         capture_output=True, check=False)
    assert ran.returncode == 0, ran.stderr
    assert b'[Seats "S:Alice, E:Bruno, N:Chlo\xc3\xa9, W:David"]' in ran.stdout
    piped = subprocess.run([str(TAROT), "convert", "-", "--columns",
                            "Qui=Preneur,J1=Alice,J2=Bruno,J3=Chloé,J4=David"],
                           input=mapped.read_bytes(), capture_output=True, check=False)
    assert piped.stdout == ran.stdout  # the mapping tells standard input's format too


def test_rows_api_reads_any_table() -> None:
    from tarotnotation.formats.sheet import Row

    rows = [Row(1, ("Preneur", "Contrat", "Points", "Bouts", "Score A", "Score B", "Score C")),
            Row(2, ("A", "Garde", "50", "2", "", "", ""))]
    [deal] = read_rows(rows, file="t")
    assert deal.record is not None
    assert deal.record.result is not None
    assert deal.record.result.scores is None  # what the sheet does not say stays unknown


# --- issue 31: score sheets as clubs keep them ----------------------------------------------

_MEMBERS = "Donne;Preneur;Contrat;Points;Bouts;Alice;Bruno;Chloé;David;Émilie\n"


def test_a_blank_member_cell_is_a_player_sitting_out() -> None:
    """Five member columns, four at the table: the sitter's cell is blank (no R214)."""
    text = _MEMBERS + "1;Alice;Garde;48;2;192;-64;-64;-64;\n2;Émilie;Prise;56;0;;-25;-25;-25;75\n"
    deals = _read(text)
    assert [[s.name for s in d.record.seats] for d in deals if d.record] == [
        ["Alice", "Bruno", "Chloé", "David"], ["Bruno", "Chloé", "David", "Émilie"]]
    assert _where(deals) == []


def test_one_text_cell_in_a_member_column_is_named_and_the_column_kept() -> None:
    """``abs`` for a member away: one C102 at that cell, not the column dropped (which
    made every row of the sheet wrong)."""
    rows = "".join(f"{n};Alice;Garde;48;2;192;-64;-64;-64;{'abs' if n == 3 else ''}\n"
                   for n in range(1, 7))
    rows += "7;Émilie;Prise;56;0;;-25;-25;-25;75\n"
    deals = _read(_MEMBERS + rows)
    assert _where(deals) == [("C102", 4, 10)]
    assert "'abs' is not a score" in deals[2].diagnostics[0].message
    assert [s.name for s in deals[6].record.seats] == ["Bruno", "Chloé", "David", "Émilie"]


def test_thousands_separators_are_accepted() -> None:
    """``1 062`` with a space, a no-break space or a narrow no-break space."""
    for space in (" ", "\u00a0", "\u202f"):
        text = ("Donne;Preneur;Contrat;Points;Bouts;Alice;Bruno;Chloé;David\n"
                f"1;Alice;Garde contre;91;3;3{space}186;-1{space}062;-1{space}062;-1{space}062\n")
        [deal] = _read(text)
        assert deal.record.result.scores == {"S": 3186, "E": -1062, "N": -1062, "W": -1062}
        assert deal.diagnostics == ()  # (the replay says the rules give other scores)


_COMMAS = "Donne,Preneur,Contrat,Points,Bouts,Alice,Bruno,Chloé,David,Commentaire\n"


def test_an_unquoted_decimal_comma_says_the_row_has_more_cells_than_the_header() -> None:
    text = _COMMAS + "1,Alice,Garde,48,2,192,-64,-64,-64,\n2,Bruno,Prise,38,5,1,-38,114,-38," \
        "-38,\n3,Alice,Garde,48,2,192,-64,-64,-64,\n"
    deals = _read(text)
    assert [d.index for d in deals if d.record] == [1, 2]  # the shifted row is left out
    [said] = [x for d in deals for x in d.diagnostics]
    assert (said.code, said.location.line, said.location.col) == (Code.SHEET_BAD_CELL, 3, 11)
    assert said.message.startswith("the row has 11 cells, the header 10")
    assert '"38,5"' in said.message
    # The issue's own: no trailing blank cell, the last cell past the header.
    deals = _read(_COMMAS.replace(",Commentaire", "") + "1,Bruno,Prise,38,5,1,-38,114,-38,-38\n")
    assert [x.message.split(":")[0] for d in deals for x in d.diagnostics][:1] == [
        "the row has 10 cells, the header 9"]


def test_a_stray_quote_is_said_with_where_it_opens_and_the_rows_after_are_read() -> None:
    rows = [f"{n},Alice,Garde,48,2,192,-64,-64,-64,ok\n" for n in range(1, 7)]
    rows[2] = '3,Alice,Garde,48,2,192,-64,-64,-64,"à revoir\n'
    deals = _read(_COMMAS + "".join(rows))
    assert [d.index for d in deals if d.record] == [1, 2, 3, 4, 5, 6]
    [said] = [x for d in deals for x in d.diagnostics]
    assert (said.code, said.location.line, said.location.col) == (Code.SHEET_BAD_CELL, 4, 10)
    assert said.message.startswith('a quote (") opens the cell in column J and is never closed')
    assert _where(deals)[1:] == []


def test_a_utf16_csv_is_detected_as_the_tarot_reader_does() -> None:
    """A spreadsheet's "Unicode text" (UTF-16, tab-separated): one S007 with the iconv
    command, not a sheet read as cp1252."""
    text = "Donne\tPreneur\tContrat\tPoints\tBouts\tAlice\tBruno\tChloé\tDavid\n" \
           "1\tAlice\tGarde\t48\t2\t192\t-64\t-64\t-64\n"
    for data in (text.encode("utf-16"), text.encode("utf-16-le")):
        [deal] = list(csvsheet.read(data, name="unicode.csv"))
        assert deal.record is None
        [said] = deal.diagnostics
        assert said.code is Code.ENCODING
        assert "iconv -f utf-16 -t utf-8" in said.message


def test_mac_roman_with_cr_only_line_ends_is_read() -> None:
    """An old Mac's export: CR line ends (Python's "universal-newline mode" error before)
    and Mac Roman accents, read as such with one C104 warning."""
    text = "Donne;Preneur;Contrat;Points;Bouts;Hélène;Bruno;Chloé;Désiré\r" \
           "1;Hélène;Garde;48;2;192;-64;-64;-64\r2;Désiré;Prise;56;0;-25;-25;-25;75\r"
    deals = list(csvsheet.read(text.encode("mac_roman"), name="mac.csv"))
    assert [d.record.seats[0].name for d in deals if d.record] == ["Hélène", "Hélène"]
    warned = [x for d in deals for x in d.diagnostics]
    assert [(x.code, x.location.line) for x in warned] == [(Code.SHEET_ENCODING, 1)]
    assert "iconv -f macintosh" in warned[0].message
    assert all(not d.replay().diagnostics for d in deals)
    ascii_only = text.replace("é", "e").encode()  # CR line ends alone
    assert [d.index for d in csvsheet.read(ascii_only, name="cr.csv") if d.record] == [1, 2]


def test_a_blank_score_of_a_player_the_row_names_is_no_sitter() -> None:
    """The taker's score not written: the taker played (R-codes say what is missing), and
    is not 'not a player of this deal'."""
    deal, other = _read(_MEMBERS + "1;Alice;Garde;48;2;;-64;-64;-64;\n"
                         "2;Émilie;Prise;56;0;;-25;-25;-25;75\n")
    assert [s.name for s in deal.record.seats] == ["Alice", "Bruno", "Chloé", "David"]
    assert [s.name for s in other.record.seats] == ["Bruno", "Chloé", "David", "Émilie"]
    assert deal.diagnostics == ()
