"""Every message a person reads has its French (issue 31): the encoding faults (S007), the
size limits (L001), the Excel workbook's own faults (C105) and ``tarot rules`` stayed in
English under ``LANG=fr_FR.UTF-8``, because they were built as f-strings the catalogue
cannot see. The walk below fails on any such message anywhere in the sources."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from cli_runs import invoke

from tarotnotation.catalog import source_files
from tarotnotation.i18n import Msg
from tarotnotation.limits import MAX_RECORD_CHARS, exceeded


def _french(*args: str) -> str:
    ran = invoke("--lang", "fr", *args)
    return ran.out + ran.err


def test_s007_bad_utf8_in_french(tmp_path: Path) -> None:
    path = tmp_path / "sete.tarot"
    path.write_bytes('[Event "Club de Sète"]\n'.encode("latin-1"))
    said = _french("validate", str(path))
    assert ("S007 erreur : donne 1 : le texte n'est pas de l'UTF-8 valide : l'octet 0xE8 à la"
            " position 17 (en octets) ne peut pas être lu ; il se lit en Latin-1 (« Sète ») :"
            " convertissez le fichier en UTF-8, par exemple iconv -f latin1 -t utf-8 FICHIER"
            " > FICHIER.utf8 ; cette donne n'est pas lue") in said
    english = invoke("validate", str(path)).out
    assert "it reads as Latin-1 ('Sète'): convert the file to UTF-8" in english


@pytest.mark.parametrize("suffix", [".tarot", ".jsonl"])
def test_s007_utf16_in_french(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"utf16{suffix}"
    path.write_bytes('[Event "Club"]\n'.encode("utf-16"))
    said = _french("validate", str(path))
    assert "S007 erreur" in said
    assert ("ne peut pas être lu ; il semble en UTF-16 : convertissez le fichier en UTF-8,"
            " par exemple iconv -f utf-16 -t utf-8 FICHIER > FICHIER.utf8") in said
    assert "looks like UTF-16" not in said


def test_l001_limits_in_french(tmp_path: Path) -> None:
    path = tmp_path / "long.tarot"
    path.write_bytes(b'[Event "' + b"x" * (MAX_RECORD_CHARS + 10) + b'"]\n')
    said = _french("validate", str(path))
    assert "L001 erreur" in said
    assert ("cette ligne a plus de 1\u202f048\u202f576 caractères ; cette donne n'est pas lue (la"
            " limite MAX_RECORD_CHARS de tarotnotation.limits)") in said
    line = tmp_path / "long.jsonl"
    line.write_bytes(b'{"players": 4, "tags": [["Event", "' + b"x" * (MAX_RECORD_CHARS + 10)
                     + b'"]]}\n')
    said = _french("validate", str(line))
    assert ("cette ligne a plus de 1\u202f048\u202f576 octets, qui ne sont pas lus (la limite"
            in said)


def test_every_limit_message_reads_whole_in_french() -> None:
    """Each phrase given to ``limits.exceeded`` is a message, so the sentence it makes is
    French throughout."""
    message = exceeded(Msg("{seat}'s score has more than", seat="N"), "MAX_DIGITS",
                       Msg("digits"))
    assert str(message) == ("N's score has more than 18 digits (the limit MAX_DIGITS of"
                            " tarotnotation.limits)")
    assert isinstance(message, Msg)
    assert message.render("fr") == ("le score de N a plus de 18 chiffres (la limite MAX_DIGITS"
                                    " de tarotnotation.limits)")


def test_c105_xlsx_messages_in_french(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                      ) -> None:
    book = tmp_path / "club.xlsx"
    book.write_bytes(b"PK\x03\x04" + b"\x00" * 200)  # a ZIP's start, and nothing more
    said = _french("validate", str(book))
    assert "C105 erreur" in said
    assert f"{book} n'est pas un classeur .xlsx lisible : " in said
    # (openpyxl's absence is no longer a case: .xlsx is read with the standard library)


def test_an_xlsx_without_openpyxl_or_an_empty_csv_is_no_deal_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 31: they said "1 deal read": what is said of a whole file is no deal."""
    empty = tmp_path / "empty.csv"
    empty.write_bytes(b"")
    ran = invoke("validate", str(empty))
    assert ran.code == 1
    assert "F005 warning: no deal in this file: it is empty or blank" in ran.out
    assert "0 deals read from 0 files" in ran.out
    book = tmp_path / "club.xlsx"
    book.write_bytes(b"PK\x03\x04" + b"\x00" * 200)  # a broken workbook
    ran = invoke("validate", str(book))
    assert ran.code == 1
    assert "C105 error" in ran.out
    assert "0 deals read from 0 files" in ran.out
    assert "F005" not in ran.out  # (the C105 says why there is no deal)
    other = tmp_path / "notes.csv"
    other.write_text("just,some\nwords,here\n", encoding="utf-8")
    ran = invoke("validate", str(other))
    assert ran.code == 1
    assert "C105 error: not a score sheet" in ran.out
    assert "0 deals read from 0 files" in ran.out


def test_rules_text_in_french() -> None:
    english = invoke("rules").out.splitlines()
    french = _french("rules").splitlines()
    assert english[0] == "Presets: fft (default), pagat"
    assert french[0] == "Préréglages : fft (par défaut), pagat"
    assert len(french) == len(english) > 5
    for en, fr in zip(english[1:], french[1:], strict=True):  # the notation's own words stay
        assert fr == en.replace(" values: ", " valeurs : ")
        assert " valeurs : " in fr


def _calls_to(calls: list[ast.Call], name: str) -> list[ast.Call]:
    return [node for node in calls if (
        (isinstance(node.func, ast.Name) and node.func.id == name)
        or (isinstance(node.func, ast.Attribute) and node.func.attr == name))]


def _is_msg(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and (
        node.func.id in ("Msg", "nmsg", "pmsg"))


def _plain_text(node: ast.expr) -> bool:
    """An f-string, a literal or a sum of them: text the catalogue cannot translate."""
    return isinstance(node, ast.JoinedStr | ast.BinOp) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str))


def test_every_message_template_has_its_french() -> None:
    """Every message of a diagnostic, in every module (not only those
    ``test_i18n`` lists), is a ``Msg``, so the completeness check of the catalogue sees it:
    the message given with a ``Code``, the phrases of an L001 (``limits.exceeded``) and
    the reason of a workbook that cannot be read (``xlsx``'s ``fail``)."""
    bad: list[str] = []
    for path in source_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = path.as_posix().rsplit("/", 2)[-2:]
        calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
        for node in calls:
            for first, second in zip(node.args, node.args[1:], strict=False):
                if (isinstance(first, ast.Attribute) and isinstance(first.value, ast.Name)
                        and first.value.id == "Code" and _plain_text(second)):
                    bad.append(f"{'/'.join(where)}:{second.lineno}")
        for call in _calls_to(calls, "exceeded"):
            if len(call.args) == 3 and not (_is_msg(call.args[0]) and _is_msg(call.args[2])):
                bad.append(f"{'/'.join(where)}:{call.lineno} (exceeded)")
        if path.name == "xlsx.py":
            for call in _calls_to(calls, "fail"):
                if call.args and _plain_text(call.args[0]):
                    bad.append(f"{'/'.join(where)}:{call.lineno} (fail)")
    assert not bad, bad
