"""TarotClub's reader in the run's language (issue 20): what is wrong with a TarotClub
file (a place, a card code, a count of cards or tricks, the version, the score block)
reads in French when asked, TarotClub's own words (South, Guard, 14-H) left as they are,
and in English exactly as before."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from cli_runs import invoke

from tarotnotation.diagnostics import TarotError
from tarotnotation.formats import tarotclub as tc
from tarotnotation.i18n import Msg

EN_ENV = {"TAROT_LANG": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "C"}


def _log(**info: Any) -> dict[str, Any]:
    deal_info: dict[str, Any] = {
        "number_of_players": 4, "taker": "South", "contract": "Guard", "slam": False,
        "first_trick_lead": "East", "dog": "", "attack_handle": "", "defense_handle": "",
    }
    tricks = info.pop("tricks", ["14-H;03-H;01-T;00-T", "21-T;02-T;05-T;06-T"])
    deal_info.update(info)
    return {"version": "3", "deal_info": deal_info, "tricks": tricks}


CASES = [
    (_log(taker="Fifth"), "$.deal_info.taker",
     "'Fifth' is not a place at 4 players: expected South, East, North or West",
     "« Fifth » n'est pas une place à 4 joueurs : attendu South, East, North ou West"),
    (_log(contract="Small"), "$.deal_info.contract",
     "'Small' is not a contract: expected Take, Guard, Guard without or Guard against",
     "« Small » n'est pas un contrat : attendu `Take`, `Guard`, "
     "`Guard without` ou `Guard against`"),
    (_log(slam="no"), "$.deal_info.slam",
     "expected true or false, found a string",
     "attendu true ou false, trouvé une chaîne"),
    (_log(number_of_players=7), "$.deal_info.number_of_players",
     "expected 3, 4 or 5 players, found 7",
     "attendu 3, 4 ou 5 joueurs, trouvé 7"),
    (_log(tricks=["14-H;99-H;01-T;00-T"]), "$.tricks[0]",
     "card 2: '99-H' is not a card: expected a TarotClub card code NN-X: 01-14 of S, H, D"
     " or C (11 Jack, 12 Knight, 13 Queen, 14 King), 01-21 of T for trumps, 00-T for the"
     " Excuse",
     "carte 2 : « 99-H » n'est pas une carte : attendu un code de carte TarotClub NN-X :"
     " 01-14 de S, H, D ou C (11 Valet, 12 Cavalier, 13 Dame, 14 Roi), 01-21 de T pour les"
     " atouts, 00-T pour l'Excuse"),
    (_log(tricks=["14-H;03-H;01-T"]), "$.tricks[0]",
     "expected 4 cards (one per player), found 3",
     "attendu 4 cartes (une par joueur), trouvé 3"),
    (_log(tricks=["14-H;03-H;01-T;00-T", "14-H;02-T;05-T;06-T"]), "$.tricks[1]",
     "card 1: 14-H was already played in $.tricks[0]",
     "carte 1 : 14-H a déjà été jouée dans $.tricks[0]"),
    (_log(tricks=["", "21-T;02-T;05-T;06-T"]), "$.tricks[1]",
     "trick 2 follows the unplayed trick 1: expected empty tricks only at the end",
     "le pli 2 suit le pli non joué 1 : attendu des plis vides seulement à la fin"),
    (_log(dog="01-S;02-S"), "$.deal_info.dog",
     "expected the 6 cards of the dog at 4 players (or \"\"), found 2",
     "attendu les 6 cartes du chien à 4 joueurs (ou \"\"), trouvé 2"),
    (_log(score={"oudlers": 4}), "$.deal_info.score.oudlers",
     "expected the attack's oudlers (bouts), 0 to 3, found 4",
     "attendu les oudlers (bouts) de l'attaque, de 0 à 3, trouvé 4"),
    (_log(score={"attacker_points": "80"}), "$.deal_info.score.attacker_points",
     "expected the attack's card points, a number from 0 to 91: found a string",
     "attendu les points de cartes de l'attaque, un nombre de 0 à 91 : trouvé une chaîne"),
    ({**_log(), "version": "2"}, "$.version",
     "TarotClub file version '2' is not known: expected '3'",
     "la version de fichier TarotClub '2' est inconnue : attendu '3'"),
    ({"version": "3"}, "$",
     "expected a TarotClub played log (deal_info and tricks) or a prepared deal"
     " (FirstPlayer, Dog and the hands)",
     "attendu un journal de partie TarotClub (deal_info et tricks) ou une donne préparée"
     " (FirstPlayer, Dog et les mains)"),
    ({"version": "3", "South": "01-S", "FirstPlayer": "South", "Dog": ""}, "$.East",
     "missing: expected East's hand as ;-separated card codes (or \"\" for no player)",
     "manquant : attendu la main de East en codes de cartes séparés par des ; (ou \"\" s'il"
     " n'y a pas de joueur)"),
]


@pytest.mark.parametrize(("obj", "path", "english", "french"), CASES,
                         ids=[c[2][:40] for c in CASES])
def test_a_tarotclub_fault_reads_in_both_languages(obj: dict[str, Any], path: str,
                                                   english: str, french: str) -> None:
    with pytest.raises(TarotError) as caught:
        tc.loads(orjson.dumps(obj))
    (diag,) = caught.value.diagnostics
    assert diag.location.path == path
    message = diag.message
    assert isinstance(message, Msg), message
    assert (str(message), message.render("en"), message.render("fr")) == (
        english, english, french)


def test_a_handle_that_cannot_be_attributed_names_its_candidates_in_french() -> None:
    # a defence handle of three cards the three defenders each played one of (East led
    # 14-H, North 03-H, West 01-T): East, North and West played as many of them
    obj = _log(defense_handle="14-H;03-H;01-T", tricks=["14-H;03-H;01-T;00-T"])
    with pytest.raises(TarotError) as caught:
        tc.loads(orjson.dumps(obj))
    (diag,) = caught.value.diagnostics
    message = diag.message
    assert isinstance(message, Msg)
    assert str(message).endswith("(E or N or W played as many of its cards)")
    assert message.render("fr").endswith("(E ou N ou O ont joué autant de ses cartes)")


def test_validate_a_bad_tarotclub_file_in_both_languages(tmp_path: Path) -> None:
    path = tmp_path / "deal.json"
    path.write_bytes(orjson.dumps(_log(tricks=["14-H;03-H;01-T"])))
    english = invoke("validate", str(path), env=EN_ENV)
    french = invoke("validate", str(path), env={"TAROT_LANG": "fr"})
    assert english.code == french.code != 0
    said = (english.out + english.err).replace("\\n", "\n")
    assert "expected 4 cards (one per player), found 3" in said
    said = (french.out + french.err).replace("\\n", "\n")
    assert "attendu 4 cartes (une par joueur), trouvé 3" in said
    assert "expected 4 cards" not in said
