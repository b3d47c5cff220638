"""The archive tools' lines in the run's language (issue 20): ``tarot dedupe`` names a
repeated deal and where it was first met in French when asked (``donne 11``), in
English exactly as before."""

from __future__ import annotations

from pathlib import Path

from archive_builders import generated, write_jsonl, write_tarot
from test_cli import invoke

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
    assert lines[0].startswith(f"{b}, donne 1 : ")
    assert lines[0].endswith(f"{a}, donne 11")
    assert lines[-1].startswith(f"{b}, donne 22 : ")
    assert lines[-1].endswith(f"{a}, donne 2")
    assert ", deal " not in french.out.replace(str(tmp_path), "")
