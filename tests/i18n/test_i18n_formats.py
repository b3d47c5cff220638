"""The formats' names in the run's language (issue 20): ``-v`` says what each file is read
as in French when asked (``lu comme une feuille de marque CSV``), in English as before."""

from __future__ import annotations

import pytest
from cli_runs import EXAMPLES, invoke, rel

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
    assert f"{name} : {french}\n" in invoke("validate", "--lang", "fr", "-v", name).err


def test_convert_says_what_its_input_is_read_as_in_french() -> None:
    name = rel(EXAMPLES / "prise.tarot")
    ran = invoke("convert", "--lang", "fr", "-v", name, "--to", "json")
    assert f"{name} : lu comme la notation texte du Tarot\n" in ran.err


@pytest.mark.parametrize(("to", "english", "french"), [
    ("tarotclub",
     "tarot: warning: deal 1: a TarotClub played-deal log cannot hold tags (Event, Site, Date,"
     " Round, Deal, Table); player names (S Alice Martin, E Bruno Lefèvre, N Chloé Dubois,"
     " W David Moreau); the hands (TarotClub derives them from the play and the dog); the"
     " auction (4 bids: only the taker's contract is kept); the écart (TarotClub derives it"
     " from the cards never played); the recorded result (scores): TarotClub recomputes the"
     " score; comments and glyphs (on the deal, the auction, the écart, trick 1, trick 2,"
     " trick 3, the result)\n",
     "tarot: avertissement : donne 1 : un journal de donne jouée TarotClub ne peut pas"
     " contenir les balises (Event, Site, Date, Round, Deal, Table) ; les noms des joueurs"
     " (S Alice Martin, E Bruno Lefèvre, N Chloé Dubois, W David Moreau) ; les mains"
     " (TarotClub les déduit du jeu et du chien) ; les enchères (4 enchères : seul le contrat"
     " du preneur est gardé) ; l'écart (TarotClub le déduit des cartes jamais jouées) ; le"
     " résultat inscrit (scores) : TarotClub recalcule le score ; commentaires et glyphes"
     " (sur la donne, les enchères, l'écart, le pli 1, le pli 2, le pli 3, le résultat)\n"),
    ("csv",
     "tarot: warning: deal 1: a CSV score sheet cannot hold the hands and the chien; the"
     " auction (4 bids: the contract and taker are kept); the écart; the play (18 tricks:"
     " the facts and scores the replay works out from it are written); comments and glyphs"
     " (the deal's glyph, annotations on the result)\n",
     "tarot: avertissement : donne 1 : une feuille de marque CSV ne peut pas contenir les"
     " mains et le chien ; les enchères (4 enchères : le contrat et le preneur sont gardés) ;"
     " l'écart ; le jeu (18 plis : les faits et les scores que le rejeu en tire sont écrits) ;"
     " commentaires et glyphes (le glyphe de la donne, les annotations du résultat)\n"),
])
def test_what_a_format_cannot_hold_is_said_in_both_languages(
        to: str, english: str, french: str) -> None:
    name = rel(EXAMPLES / "annotated.tarot")
    for lang, said in (("en", english), ("fr", french)):
        ran = invoke("convert", "--lang", lang, name, "--to", to)
        assert ran.code == 0, ran
        assert ran.err.startswith(said), ran.err
