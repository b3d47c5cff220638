"""The commands' outputs for people in French (issue 20): the text tables of ``tarot
score``, ``stats``, ``standings`` and ``query --format table``, the status lines every
command prints on standard error, and no English sentence left in the French output of
any command on any example. Machine outputs (JSON, JSON Lines, CSV for spreadsheets) keep
their keys and values in every language."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
from cli_runs import CLEAN_EXAMPLES, EXAMPLES, FAULTY_EXAMPLES, ROOT, invoke, rel

from tarotnotation.archives.query import FIELDS
from tarotnotation.archives.standings import COLUMNS
from tarotnotation.archives.tabular import HEADINGS, heading
from tarotnotation.catalog import extract
from tarotnotation.cli import score as score_cmd
from tarotnotation.i18n import CONTEXT_SEP, catalog_path, read_po, render

FIXTURES = ROOT / "tests" / "fixtures" / "i18n"
EXAMPLE_FILES = [rel(p) for p in sorted(EXAMPLES.glob("*.tarot"))]
#: The score sheets (players.json is a list of players, not of deals: left out).
SHEETS = [rel(p) for p in sorted((EXAMPLES / "sheets").iterdir()) if p.name != "players.json"]
#: Column headings a person checked are the same words in French.
SAME_HEADINGS = frozenset({"points", "bouts", "score", "total", "chelem", "camp", "scores",
                           "poignées", "petits", "chelems"})


def _reviewed(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


# --- the tables, as reviewed -----------------------------------------------------------------


def test_french_score_sheets_are_as_reviewed() -> None:
    """``tarot score`` in French: the headings, made or lost (remplie de, chutée de), the
    totals; a deal with no bout says 0 (``bouts`` column) and the sheet sums to zero."""
    ran = invoke("score", "--lang", "fr", rel(EXAMPLES / "garde-poignee.tarot"),
                 rel(EXAMPLES / "five-players.tarot"), rel(EXAMPLES / "score-sheet.tarot"))
    assert ran.code == 0, ran
    assert ran.out == _reviewed("score.fr.txt")
    assert "  donne  contrat  preneur  points  bouts  résultat" in ran.out
    assert "chutée de 13" in ran.out
    assert "(somme nulle)" in ran.out


def test_french_stats_are_as_reviewed() -> None:
    ran = invoke("stats", "--lang", "fr", *EXAMPLE_FILES)
    assert ran.code == 0, ran
    assert ran.out == _reviewed("stats.fr.txt")
    assert ran.out.startswith("20 donnes comptées (3 joueurs : 1, 4 joueurs : 18")
    assert "(1 annoncé)" in ran.out  # one chelem announced: the singular


def test_french_standings_are_as_reviewed() -> None:
    ran = invoke("standings", "--lang", "fr", *EXAMPLE_FILES)
    assert ran.code == 1, ran  # a deal repeated in its session (garde-sans, garde-contre)
    assert ran.out == _reviewed("standings.fr.txt")
    assert ran.err == ("examples/garde-sans.tarot:1 : la même donne que"
                       " examples/garde-contre.tarot:1 dans la même séance (Event \"Club de"
                       " Tarot de Lyon — Tournoi d'automne\", Round 2, Table 1) : laissée de"
                       " côté (voir tarot dedupe)\n")


def test_a_french_query_table_is_as_reviewed() -> None:
    ran = invoke("query", "--lang", "fr", *EXAMPLE_FILES, "--where", "bouts = 0 or made",
                 "--fields", "deal,contract,taker,partner,made,margin,points,bouts,Event",
                 "--format", "table")
    assert ran.code == 0, ran
    assert ran.out == _reviewed("query-table.fr.txt")
    assert ran.out.startswith("donne  contrat     preneur        appelé  remplie  marge")
    assert " oui " in ran.out
    assert " non " in ran.out


def test_a_french_replay_with_no_bout_is_as_reviewed() -> None:
    """The taker with no bout: "0 bout" (French takes the singular for 0), and the
    misère named in French."""
    ran = invoke("replay", "--lang", "fr", rel(EXAMPLES / "misere.tarot"))
    assert ran.code == 0, ran
    assert ran.out == _reviewed("replay-misere.fr.txt")
    assert "Garde par S : 14 points avec 0 bout, il en faut 56 : chutée de 42" in ran.out
    assert "misère de tête (sans figure)" in ran.out
    english = invoke("replay", rel(EXAMPLES / "misere.tarot")).out
    assert "Garde by S: 14 points with 0 bouts, needs 56: lost by 42" in english


# --- every heading in both languages ------------------------------------------------------


def _both(word: str) -> tuple[str, str]:
    return render(word, "en"), render(word, "fr")


def test_every_table_heading_exists_in_both_languages() -> None:
    """The headings of the text tables (score, stats, standings, query's aligned table):
    each has its French, different from the English unless checked as the same word. A
    new field of the query language gets a heading here too (its table column)."""
    headings = [*(h for h in score_cmd.HEAD if h), *COLUMNS.values(), *HEADINGS.values()]
    from tarotnotation.archives import stats

    headings.extend(stats.COLUMNS.values())
    for word in headings:
        en, fr = _both(word)
        assert fr, word
        assert en == str(word)
        if en not in SAME_HEADINGS:
            assert fr != en, f"the heading {en!r} is not translated"
    columns = {name for name, field in FIELDS.items() if not field.per_player}
    assert columns <= set(HEADINGS), sorted(columns - set(HEADINGS))
    assert heading("Event", "fr") == "Event"  # a tag is the notation's own word


# --- machine outputs never change ----------------------------------------------------------


@pytest.mark.parametrize("args", [
    ("stats", "--format", "json"), ("stats", "--format", "csv"),
    ("stats", "--by", "seat", "--format", "csv"),
    ("standings", "--format", "json"), ("standings", "--format", "csv"),
    ("query", "--fields", "file,contract,taker,made,margin", "--format", "table-csv"),
    ("query", "--fields", "file,contract,taker,made,margin", "--format", "table-jsonl"),
    ("score", "--format", "json"),
], ids=lambda a: "-".join(a[0::2]))
def test_machine_outputs_of_the_archive_tools_do_not_change_with_the_language(
        args: tuple[str, ...]) -> None:
    english = invoke(*args, *EXAMPLE_FILES)
    french = invoke("--lang", "fr", *args, *EXAMPLE_FILES)
    assert english.code == french.code
    assert english.out == french.out
    assert english.out


# --- no English left -----------------------------------------------------------------------


@functools.cache
def _english_fragments() -> tuple[str, ...]:
    """The pieces of English sentences (between placeholders, eight characters or more,
    with a space) that no French translation holds: none may be read in a French
    output. Worked out once a test process, by the first test that needs them (not when
    the module is collected: each xdist worker collects every module)."""
    french = {m: s for m, s, _, _ in read_po(catalog_path("fr").read_text("utf-8")) if m}
    french_text = "\n".join(v if isinstance(v, str) else "\n".join(v) for v in french.values())
    out: set[str] = set()
    for entry in extract(with_help=False).values():
        english = [entry.msgid.rpartition(CONTEXT_SEP)[2], entry.plural or ""]
        for sentence in english:
            for part in re.split(r"\{\w*\}", sentence):
                part = part.strip(" :;,.()")
                if len(part) >= 8 and " " in part and part not in french_text:
                    out.add(part)
    assert len(out) > 500  # the check has teeth
    return tuple(sorted(out))


def _records_own_words(path: str) -> str:
    """What a record says itself (comments, tags, names): English there is the record's."""
    return Path(ROOT / path).read_text(encoding="utf-8", errors="replace")


def _english_in(output: str, inputs: list[str]) -> list[str]:
    own = "\n".join(_records_own_words(p) for p in inputs if p.endswith(".tarot"))
    return [f for f in _english_fragments() if f in output and f not in own]


COMMANDS = ("replay", "validate", "score", "annotate")


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("path", [rel(p) for p in CLEAN_EXAMPLES + FAULTY_EXAMPLES] + SHEETS,
                         ids=lambda p: Path(p).name)
def test_no_english_is_left_in_the_french_output_of_a_command(command: str, path: str,
                                                              tmp_path: Path) -> None:
    """``tarot replay``, ``validate``, ``score`` and ``annotate`` on every example, in
    French: no English sentence on standard output or standard error (nor in the
    comments ``annotate`` writes)."""
    args = [command, "--lang", "fr", path]
    out = tmp_path / "annotated.tarot"
    if command == "annotate":
        args += ["-o", str(out)]
    ran = invoke(*args)
    assert ran.code in (0, 1, 2), ran
    written = out.read_text(encoding="utf-8") if out.exists() else ""
    said = ran.out + ran.err + written
    assert said.strip()
    left = _english_in(said, [path])
    assert left == [], f"English in tarot {command} --lang fr {path}: {left}"


@pytest.mark.parametrize("args", [
    ("stats",), ("stats", "--by", "contract"), ("stats", "--by", "seat"), ("standings",),
    ("standings", "--method", "mean"), ("standings", "--method", "matchpoints"),
    ("query", "--format", "table"), ("query", "--count"),
], ids=lambda a: "-".join(a))
def test_no_english_is_left_in_the_french_archive_tools(args: tuple[str, ...]) -> None:
    inputs = [rel(p) for p in CLEAN_EXAMPLES + FAULTY_EXAMPLES]
    ran = invoke("--lang", "fr", *args, *inputs)
    said = ran.out + ran.err
    assert said.strip()
    left = _english_in(said, inputs)
    assert left == [], f"English in tarot {' '.join(args)} --lang fr: {left}"


def test_the_status_lines_on_standard_error_are_french(tmp_path: Path) -> None:
    """What each command that writes a file says of it, in French (and the number of
    deals agreeing with its noun)."""
    src = rel(EXAMPLES / "score-sheet.tarot")
    one = rel(EXAMPLES / "prise.tarot")
    said = {
        "convert": invoke("--lang", "fr", "convert", one, "-o", str(tmp_path / "a.jsonl")),
        "sort": invoke("--lang", "fr", "sort", src, "--by", "Deal", "-o",
                       str(tmp_path / "s.tarot")),
        "query": invoke("--lang", "fr", "query", src, "--where", "made", "-o",
                        str(tmp_path / "q.tarot")),
        "new": invoke("--lang", "fr", "new", "--count", "2", "--seed", "1", "-o",
                      str(tmp_path / "n.tarot")),
        "split": invoke("--lang", "fr", "split", src, "--by", "deal", "-o",
                        str(tmp_path / "parts")),
        "html": invoke("--lang", "fr", "html", one, "-o", str(tmp_path / "p.html")),
        "annotate": invoke("--lang", "fr", "annotate", one, "-o", str(tmp_path / "x.tarot")),
        "dedupe": invoke("--lang", "fr", "dedupe", one, one, "-o", str(tmp_path / "d.tarot")),
    }
    expected = {
        "convert": f"1 donne écrite dans {tmp_path / 'a.jsonl'} (jsonl)\n",
        "sort": f"8 donnes écrites dans {tmp_path / 's.tarot'} (tarot)\n",
        "query": f"2 donnes retenues sur 8, écrites dans {tmp_path / 'q.tarot'}\n",
        "new": f"2 donnes écrites dans {tmp_path / 'n.tarot'} (tarot)\n",
        "html": f"1 donne écrite dans {tmp_path / 'p.html'} : 0 avec erreurs, 0 avec"
                " avertissements\n",
        "annotate": f"1 donne annotée dans {tmp_path / 'x.tarot'}\n",
        "dedupe": f"1 donne sur 2 répète des donnes déjà vues ; 1 écrite dans"
                  f" {tmp_path / 'd.tarot'}\n",
    }
    for command, ran in said.items():
        assert ran.code == 0, (command, ran)
        if command in expected:
            assert ran.err == expected[command], command
    assert re.fullmatch(r"8 fichiers écrits dans .*parts \(8 donnes\)\n", said["split"].err)


def test_a_single_deal_agrees_in_english_too(tmp_path: Path) -> None:
    """The English status lines agree with their number as well: 1 deal, 2 deals."""
    ran = invoke("convert", rel(EXAMPLES / "prise.tarot"), "-o", str(tmp_path / "a.jsonl"))
    assert ran.err == f"1 deal written to {tmp_path / 'a.jsonl'} (jsonl)\n"
    ran = invoke("new", "--count", "2", "--seed", "1", "-o", str(tmp_path / "n.tarot"))
    assert ran.err == f"2 deals written to {tmp_path / 'n.tarot'} (tarot)\n"


def test_tarot_legal_answers_in_french() -> None:
    """The answer's labels aligned in French, the rule's reason translated, the code
    the notation's, the cards as a French player writes them (issue 38)."""
    ran = invoke("legal", "--lang", "fr", rel(EXAMPLES / "faulty" / "revoke.tarot"),
                 "--trick", "3", "--card", "3")
    assert ran.code == 1, ran
    assert ran.out.splitlines() == [
        "Pli 3, N joue après 3♣ atout\xa019 atout\xa07",
        "  main\xa0:        1♠ 7♠ 4♥ R♦ 4♣ 7♣ 9♣ atout\xa02 atout\xa03 atout\xa04 atout\xa06"
        " atout\xa014 atout\xa015 atout\xa018 atout\xa020 Excuse",
        "  permises\xa0:    4♣ 7♣ 9♣ Excuse",
        "  interdites\xa0:  1♠ 7♠ 4♥ R♦ atout\xa02 atout\xa03 atout\xa04 atout\xa06 atout\xa014"
        " atout\xa015 atout\xa018 atout\xa020",
        "  pourquoi\xa0:    P105 must-follow-suit\xa0: renonce\xa0: Trèfle demandé, le joueur doit"
        " fournir (4♣, 7♣ ou 9♣ ou l'Excuse)",
    ]
    assert ran.err == ("tarot: note : la donne 1 contient 1 erreur (tarot validate"
                       " examples/faulty/revoke.tarot la montre)\n")
    lead = invoke("legal", "--lang", "fr", rel(EXAMPLES / "prise.tarot"), "--trick", "1",
                  "--card", "0")
    assert lead.out.startswith("Pli 1, O entame\n")  # W is Ouest, O


@pytest.mark.process
def test_the_progress_bar_speaks_french_on_a_terminal() -> None:
    """``tarot validate`` on a terminal draws its bar in the run's language."""
    from cli_runs import on_a_terminal

    code, out, seen = on_a_terminal("--lang", "fr", "validate", "examples")
    assert code == 1
    assert "donnes dans" in out
    assert b"validation" in seen
    assert b"validating" not in seen


def test_validate_says_what_each_file_is_read_as_in_french() -> None:
    ran = invoke("validate", "--lang", "fr", "-v", rel(EXAMPLES / "prise.tarot"))
    assert ran.code == 0
    assert ran.err.startswith("examples/prise.tarot : lu comme ")


def test_a_site_refused_in_french(tmp_path: Path) -> None:
    """Why a folder cannot receive a site, in the run's language (the English stays)."""
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    ran = invoke("html", "--lang", "fr", rel(EXAMPLES / "prise.tarot"), "-o", str(tmp_path))
    assert ran.code == 2
    assert ran.err == (f"tarot: -o {tmp_path} : contient des fichiers que tarot html n'a pas"
                       " écrits (notes.txt) : donnez un dossier nouveau ou vide\n")
    english = invoke("html", rel(EXAMPLES / "prise.tarot"), "-o", str(tmp_path))
    assert "holds files not written by tarot html (notes.txt)" in english.err
