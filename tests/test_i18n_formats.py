"""The formats' names in the run's language (issue 20): ``-v`` says what each file is read
as in French when asked (``lu comme une feuille de marque CSV``), in English as before."""

from __future__ import annotations

import pytest
from test_cli import EXAMPLES, invoke, rel

from tarotnotation.formats import registry
from tarotnotation.i18n import Msg


@pytest.mark.parametrize("fmt", registry.FORMATS, ids=lambda f: f.name)
def test_every_formats_name_is_a_message_with_its_french(fmt: registry.Format) -> None:
    assert isinstance(fmt.title, Msg)
    french = fmt.title.render("fr")
    assert french
    assert french != str(fmt.title)


@pytest.mark.parametrize(("path", "english", "french"), [
    (EXAMPLES / "prise.tarot", "read as the Tarot text notation",
     "lu comme la notation texte du Tarot"),
    (EXAMPLES / "sheets" / "club-evening.csv", "read as a CSV score sheet",
     "lu comme une feuille de marque CSV"),
    (EXAMPLES / "sheets" / "scoreit-tarot-4.json", "read as a ScoreIt game (score app)",
     "lu comme une partie ScoreIt (application de marque)"),
])
def test_validate_says_what_a_file_is_read_as_in_both_languages(
        path: object, english: str, french: str) -> None:
    name = rel(path)  # type: ignore[arg-type]
    assert f"{name}: {english}\n" in invoke("validate", "-v", name).err
    assert f"{name} : {french}\n" in invoke("validate", "--lang", "fr", "-v", name).err


def test_convert_says_what_its_input_is_read_as_in_french() -> None:
    name = rel(EXAMPLES / "prise.tarot")
    ran = invoke("convert", "--lang", "fr", "-v", name, "--to", "json")
    assert f"{name} : lu comme la notation texte du Tarot\n" in ran.err
