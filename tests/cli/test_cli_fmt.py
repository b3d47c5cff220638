"""``tarot fmt`` (canonical form, safely) and ``tarot annotate`` (computed comments)."""

from __future__ import annotations

import os
import random
import re
import stat
from pathlib import Path

import pytest
from cli_runs import CLEAN_EXAMPLES, EXAMPLES, FAULTY, invoke, rel, run_forked

from tarotnotation import notation
from tarotnotation.archive import check_paths
from tarotnotation.narrator import PREFIX, annotate
from tarotnotation.replay import replay
from tarotnotation.simulate import random_deal

pytestmark = pytest.mark.process

UGLY = (
    '[Event "Soirée"]\r\n[Players "4"] [Dealer "S"]\r\n'
    "hand S: 2s 6s ns qs 6h nh qh 3d 5d kd 1c 3c 7c jc qc t4 t12 t15\r\n"
    "auction:  pass   garde {à voir}  pass pass\r\n"
    "result: garde taker E   scores S-64 E+192 N-64 W-64\r\n"
)


def _records(path: Path) -> list[object]:
    return [d.record for d in notation.read(path)]


def test_the_examples_are_already_canonical() -> None:
    ran = run_forked("fmt", "--check", *[rel(p) for p in CLEAN_EXAMPLES])
    assert ran.code == 0, ran
    assert ran.out == ""
    assert ran.err.strip() == f"0 files would be reformatted, {len(CLEAN_EXAMPLES)} unchanged"


def test_check_and_diff_write_nothing_and_exit_one(tmp_path: Path) -> None:
    path = tmp_path / "ugly.tarot"
    path.write_bytes(UGLY.encode())
    check = run_forked("fmt", "--check", str(path))
    assert check.code == 1
    assert check.out == f"would reformat {path}\n"
    diff = invoke("fmt", "--diff", str(path))
    assert diff.code == 1
    assert diff.out.startswith(f"--- {path}\n+++ {path} (formatted)\n")
    assert "+hand S: 2S 6S NS QS 6H NH QH 3D 5D KD 1C 3C 7C JC QC T4 T12 T15\n" in diff.out
    assert path.read_bytes() == UGLY.encode()


def test_fmt_rewrites_in_place_keeping_the_meaning(tmp_path: Path) -> None:
    path = tmp_path / "ugly.tarot"
    path.write_bytes(UGLY.encode())
    path.chmod(0o640)
    before = _records(path)
    ran = run_forked("fmt", str(path))
    assert ran.code == 0, ran
    assert ran.err.splitlines() == [f"reformatted {path}", "1 file reformatted, 0 unchanged"]
    text = path.read_text(encoding="utf-8")
    assert "\r" not in text
    assert "auction: pass garde {à voir} pass pass\n" in text
    assert _records(path) == before
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ugly.tarot"]  # no temp file left
    again = invoke("fmt", "--check", str(path))
    assert again.code == 0


def test_a_full_disk_is_said_as_a_write_failure_by_fmt(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # fmt printed "reformatted ugly.tarot" and "1 file reformatted" when the write failed,
    # then "F002 ... cannot read the file: No space left on device" (issue 31): it says it
    # cannot write, claims nothing it did not do, and leaves the file as it was (exit 2)
    path = tmp_path / "ugly.tarot"
    path.write_bytes(UGLY.encode())

    def full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    ran = invoke("fmt", str(path))
    assert ran.code == 2, ran
    assert ran.err.splitlines() == [f"tarot: {path}: cannot write: No space left on device",
                                    "0 files reformatted, 0 unchanged, 1 not written (see"
                                    " above)"]
    assert path.read_bytes() == UGLY.encode()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ugly.tarot"]  # no temp file left


def test_fmt_never_changes_what_a_deal_replays_to(tmp_path: Path) -> None:
    rng = random.Random(2024)
    for n in (3, 4, 5, 4, 5):
        record = random_deal(rng, n)
        record = annotate(record)  # comments on cards, tricks and the result
        text = notation.dumps(record)
        # the same record written loosely: lower case, extra spaces, CRLF
        loose = "\r\n".join(
            line if line.startswith("[") or "{" in line
            else line.replace(" ", "  ").lower() if re.match(r"\s*\d+\. [^(]", line)
            else line.replace(" ", "  ")
            for line in text.split("\n"))
        path = tmp_path / f"deal{n}.tarot"
        path.write_text(loose, encoding="utf-8", newline="")
        assert loose != text
        assert invoke("fmt", str(path)).code == 0
        assert path.read_text(encoding="utf-8") == text
        [item] = list(notation.read(path))
        assert item.record is not None
        assert replay(item.record).scores == replay(record).scores


def test_a_file_with_a_syntax_error_is_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "broken.tarot"
    data = (FAULTY / "syntax-error.tarot").read_bytes().replace(b"\n", b"\r\n")
    path.write_bytes(data)
    for args in (["fmt", str(path)], ["fmt", "--check", str(path)]):
        ran = run_forked(*args)
        assert ran.code == 1
        assert f"{path}:25:8:" in ran.err
        assert f"tarot: {path}: not formatted: it cannot be read cleanly" in ran.err
        assert path.read_bytes() == data
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.tarot"]


def test_fmt_walks_folders_and_leaves_other_formats_alone(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    ugly = tmp_path / "sub" / "a.tarot"
    ugly.write_bytes(UGLY.encode())
    as_json = tmp_path / "b.json"
    assert invoke("convert", rel(EXAMPLES / "prise.tarot"), "-o", str(as_json)).code == 0
    json_bytes = as_json.read_bytes()
    ran = invoke("fmt", str(tmp_path))
    assert ran.code == 0
    assert ran.err.splitlines()[-1] == "1 file reformatted, 0 unchanged"
    assert as_json.read_bytes() == json_bytes
    named = invoke("fmt", str(as_json))
    assert named.code == 0
    assert "left alone" in named.err


def test_fmt_standard_input_to_standard_output() -> None:
    ran = run_forked("fmt", "-", stdin=UGLY.encode())
    assert ran.code == 0
    assert ran.out.startswith('[Event "Soirée"]\n')
    assert notation.loads(ran.out) == notation.loads(UGLY)
    check = run_forked("fmt", "--check", "-", stdin=UGLY.encode())
    assert check.code == 1


def test_annotate_prints_the_deal_with_computed_comments() -> None:
    ran = run_forked("annotate", rel(EXAMPLES / "annotated.tarot"))
    assert ran.code == 0, ran
    lines = ran.out.splitlines()
    first = next(line for line in lines if line.startswith(" 1."))
    assert first.endswith("T20 T21 T7 T15 {tarot: N wins (taker), 6 points; taker 6, defence 0}")
    assert " 2. 10H 3H NH 5H? {il fallait garder cette carte} {tarot: S wins (defence)," in ran.out
    assert "{feuille contrôlée par l'arbitre} {tarot: Garde by N: 44 points" in ran.out
    assert "the écart, 4 points, to the taker" in ran.out
    assert "(25 + 7) × 2 = -64" in ran.out


def test_annotate_twice_gives_the_same_file(tmp_path: Path) -> None:
    out = tmp_path / "annotated.tarot"
    # a rule fault is annotated where it happens, and the exit status says it (1)
    assert run_forked("annotate", rel(FAULTY / "revoke.tarot"), "-o", str(out)).code == 1
    once = out.read_bytes()
    assert f"{{{PREFIX}error P105 must-follow-suit".encode() in once
    refused = run_forked("annotate", str(out), "-o", str(out))  # never over its input
    assert refused.code == 2
    assert refused.err == (f"tarot: {out}: this is one of the inputs: it would be written"
                           " over; write to another file\n")
    assert out.read_bytes() == once
    assert run_forked("annotate", str(out), "--in-place").code == 1
    assert out.read_bytes() == once
    # the comments change nothing the validator sees, but where it says it
    codes = [d.code for c in check_paths([out]) for d in c.diagnostics]
    assert [c.value for c in codes] == ["P105"]


def test_annotate_refuses_a_file_it_cannot_read(tmp_path: Path) -> None:
    out = tmp_path / "out.tarot"
    ran = invoke("annotate", rel(FAULTY / "syntax-error.tarot"), "-o", str(out))
    assert ran.code == 1
    assert "syntax-error.tarot:25:8" in ran.err
    assert "not annotated" in ran.err
    assert not out.exists()


def test_annotate_reads_any_format(tmp_path: Path) -> None:
    as_jsonl = tmp_path / "sheet.jsonl"
    assert invoke("convert", rel(EXAMPLES / "score-sheet.tarot"), "-o", str(as_jsonl)).code == 0
    ran = invoke("annotate", str(as_jsonl))
    assert ran.code == 0
    assert ran.out.count("{tarot: ") == 8
    assert os.linesep not in ran.out.replace("\n", "") or os.linesep == "\n"
