"""The archive tools' lines in the run's language (issue 20): ``tarot dedupe`` names a
repeated deal and where it was first met in French when asked (``donne 11``), in
English exactly as before."""

from __future__ import annotations

from pathlib import Path

from archive_builders import generated, write_jsonl, write_tarot
from cli_runs import invoke

EN_ENV = {"TAROT_LANG": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "C"}


def test_dedupe_names_the_deals_in_both_languages(tmp_path: Path) -> None:
    records = generated(30, seed=4)
    a = write_tarot(tmp_path / "a.tarot", records[:20])
    b = write_jsonl(tmp_path / "b.jsonl", records[10:] + records[:2])
    english = invoke("dedupe", str(a), str(b), env=EN_ENV)
    french = invoke("dedupe", str(a), str(b), env={"TAROT_LANG": "fr"})
    assert english.code == french.code == 1
    assert english.out.splitlines()[0] == f"{b}, deal 1: the same deal as {a}, deal 11"
    lines = french.out.splitlines()
    assert len(lines) == 12
    assert lines[0].startswith(f"{b}, donne 1 : ")
    assert lines[0].endswith(f"{a}, donne 11")
    assert lines[-1].startswith(f"{b}, donne 22 : ")
    assert lines[-1].endswith(f"{a}, donne 2")
    assert ", deal " not in french.out.replace(str(tmp_path), "")


def test_a_bad_column_and_a_bad_date_in_both_languages() -> None:
    prise = str(Path(__file__).resolve().parents[2] / "examples" / "prise.tarot")
    for args, english, french in [
        (("query", prise, "--fields", "player"),
         "tarot: --fields: player is a field of one player (for --where), not a column: use"
         " names or scores\n",
         "tarot: --fields : player est un champ d'un seul joueur (pour --where), pas une"
         " colonne : utilisez names ou scores\n"),
        (("new", "--daily", "2026-13-01"),
         "tarot: '2026-13-01' is not a date: expected YYYY-MM-DD, e.g. 2026-11-14\n",
         "tarot: « 2026-13-01 » n'est pas une date : attendu AAAA-MM-JJ, p. ex. 2026-11-14\n"),
    ]:
        ran = invoke(*args, env=EN_ENV)
        assert (ran.code, ran.out, ran.err) == (2, "", english)
        ran = invoke(*args, env={"TAROT_LANG": "fr"})
        assert (ran.code, ran.out, ran.err) == (2, "", french)
    ran = invoke("query", prise, "--fields", "contract,flavour", env={"TAROT_LANG": "fr"})
    assert ran.err.startswith("tarot: --fields : colonne inconnue « flavour » : les colonnes"
                              " sont bouts, ")
    assert ran.err.endswith(", ou une balise écrite avec une majuscule (Event, Date...)\n")
