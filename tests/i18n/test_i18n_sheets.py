"""The score-sheet readers' diagnostics in the run's language (issue 20): a cell the
reader cannot take, a column it does not know, a bad --columns mapping read in French
when asked (the sheet's own words and headers left as they are), in English as before."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_runs import invoke

from tarotnotation.formats import csvsheet
from tarotnotation.formats.sheetwords import Columns, score_of
from tarotnotation.i18n import Msg

HEAD = "Date;Donneur;Preneur;Contrat;Points;Bouts;Chelem;Alice;Bruno;Chloé;David\n"
EN_ENV = {"TAROT_LANG": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "C"}


def _messages(tmp_path: Path, body: str) -> list[Msg]:
    path = tmp_path / "sheet.csv"
    path.write_text(HEAD + body, encoding="utf-8")
    out: list[Msg] = []
    for deal in csvsheet.read(path):
        for diag in deal.diagnostics:
            assert isinstance(diag.message, Msg), diag.message
            out.append(diag.message)
    return out


@pytest.mark.parametrize(("row", "english", "french"), [
    ("2026-11-12;David;David;Garde;-3;1;;-50;-50;-50;150\n",
     "column E (Points): '-3': the taker's points are never negative",
     "colonne E (Points) : «\xa0-3\xa0» : les points du preneur ne sont jamais négatifs"),
    ("2026-11-12;David;David;Garde;51;1;peut-être;50;50;50;-150\n",
     "column G (Chelem): 'peut-être' is not a chelem: expected oui (made), annoncé"
     " (announced and made), annoncé chuté, or défense",
     "colonne G (Chelem) : «\xa0peut-être\xa0» n'est pas un chelem : attendu oui (réussi), annoncé"
     " (annoncé et réussi), annoncé chuté ou défense"),
])
def test_a_bad_cell_reads_in_both_languages(tmp_path: Path, row: str, english: str,
                                            french: str) -> None:
    # the first row's scores are whole numbers, so that every player column is one
    found = [m for m in _messages(tmp_path, row) if m.startswith("column")]
    assert [(str(m), m.render("en"), m.render("fr")) for m in found] == [
        (english, english, french)]


def test_an_unknown_column_names_the_known_headers_in_french(tmp_path: Path) -> None:
    path = tmp_path / "sheet.csv"
    path.write_text("Preneur;Contrat;Couleur;Alice;Bruno;Chloé\n"
                    "Alice;Garde;rouge;100;-50;-50\n", encoding="utf-8")
    (diag,) = [d for deal in csvsheet.read(path) for d in deal.diagnostics
               if d.code.value == "C101"]
    english, french = str(diag.message), diag.message.render("fr")  # type: ignore[attr-defined]
    assert english.startswith("column C (Couleur): not a column this reader knows")
    assert english.endswith("Somme/Sum; a player's name, 'Score <name>' or 'Total <name>'"
                            " (a running total). A mapping names it: --columns"
                            " 'HEADER=COLUMN' or 'HEADER=PLAYER'")
    assert french.startswith("colonne C (Couleur) : ni une colonne connue de ce lecteur")
    assert french.endswith("Somme/Sum ; le nom d'un joueur, « Score <nom> » ou « Total <nom> »"
                           " (un total courant). Une correspondance la nomme : --columns"
                           " « EN-TÊTE=COLONNE » ou « EN-TÊTE=JOUEUR »")


def test_a_column_without_a_header_is_said_so_in_french(tmp_path: Path) -> None:
    path = tmp_path / "sheet.csv"
    path.write_text("Preneur;Contrat;;Alice;Bruno;Chloé\n"
                    "Alice;Garde;rouge;100;-50;-50\n", encoding="utf-8")
    said = [d.message for deal in csvsheet.read(path) for d in deal.diagnostics
            if d.code.value == "C101"]
    assert [m.startswith("column C (no header): ") for m in said] == [True]
    assert said[0].render("fr").startswith(  # type: ignore[attr-defined]
        "colonne C (sans en-tête) : ")


def test_a_score_with_a_fraction_in_both_languages() -> None:
    with pytest.raises(ValueError, match="is not a whole number") as caught:
        score_of("12,5")
    message = caught.value.args[0]
    assert isinstance(message, Msg)
    assert str(message) == "'12,5' is not a whole number: a score is"
    assert message.render("fr") == (
        "«\xa012,5\xa0» n'est pas un nombre entier : un score doit l'être")


def test_a_bad_columns_mapping_is_a_usage_error_in_both_languages(tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.csv"
    sheet.write_text(HEAD, encoding="utf-8")
    ran = invoke("validate", "--columns", "Pts", str(sheet), env=EN_ENV)
    assert (ran.code, ran.err) == (2, "tarot: --columns: 'Pts': expected HEADER=COLUMN or"
                                      " HEADER=NAME (e.g. 'Joueur 1=Alice,Pts=Points')\n")
    ran = invoke("validate", "--columns", "Pts", str(sheet), env={"TAROT_LANG": "fr"})
    assert (ran.code, ran.err) == (2, "tarot: --columns\xa0: «\xa0Pts\xa0»\xa0:"
                                      " attendu EN-TÊTE=COLONNE ou"
                                      " EN-TÊTE=NOM (p. ex. « Joueur 1=Alice,Pts=Points »)\n")


def test_a_bad_mapping_file_in_both_languages(tmp_path: Path) -> None:
    toml = tmp_path / "cols.toml"
    toml.write_text("[columns]\nPts = 3\n", encoding="utf-8")
    with pytest.raises(ValueError, match="expected a string") as caught:
        Columns.of(str(toml))
    message = caught.value.args[0]
    assert isinstance(message, Msg)
    assert str(message) == f"{toml}: columns.Pts: expected a string, not int"
    assert message.render("fr") == f"{toml} : columns.Pts : attendu une chaîne, pas int"
    toml.write_bytes(b"\xff\xfe")
    with pytest.raises(ValueError, match="not UTF-8") as caught:
        Columns.of(str(toml))
    message = caught.value.args[0]
    assert (str(message), message.render("fr")) == (
        f"{toml}: not UTF-8 text", f"{toml} : pas du texte UTF-8")


def test_a_bad_tarot_columns_variable_is_said_in_french(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAROT_COLUMNS", "Pts")
    (deal,) = csvsheet.read(HEAD.encode("utf-8"), "s.csv")
    (diag,) = deal.diagnostics
    assert str(diag.message) == ("the column mapping TAROT_COLUMNS cannot be read: 'Pts':"
                                 " expected HEADER=COLUMN or HEADER=NAME (e.g. 'Joueur"
                                 " 1=Alice,Pts=Points')")
    assert diag.message.render("fr") == (  # type: ignore[attr-defined]
        "la correspondance de colonnes TAROT_COLUMNS ne peut pas être lue : «\xa0Pts\xa0» : attendu"
        " EN-TÊTE=COLONNE ou EN-TÊTE=NOM (p. ex. « Joueur 1=Alice,Pts=Points »)")
