"""``tarot solve``'s report in the run's language (issue 20): the position, the value, the
best line and each card's cost read in French when asked, and in English as before; the
JSON does not change with the language."""

from __future__ import annotations

from cli_runs import EXAMPLES, invoke, rel

PRISE = rel(EXAMPLES / "prise.tarot")
FEN = ("  S=2S,NC,T11 E=JS,10H,T20 N=9H,5C,KC W=JD,7C,T9 taker=S lead=S won=28/2"
       " tricks=5/10 contract=prise rules=fft\n")


def _without_timing(out: str) -> str:
    """The report without its line of nodes and seconds (they vary from run to run)."""
    return "".join(line for line in out.splitlines(keepends=True)
                   if " s (" not in line)


def test_solve_reports_in_french() -> None:
    ran = invoke("solve", "--lang", "fr", PRISE, "--trick", "16")
    assert ran.code == 0
    assert _without_timing(ran.out) == (
        "Donne 1, pli 16, carte 0 : S à jouer (l'attaque)\n" + FEN
        + "Valeur : -11 (marge), chutée de 11 avec le meilleur jeu\n"
        "Meilleure suite : l'attaque finit avec 30 points et 2 bouts\n"
        "  16. NC T20 5C 7C\n  17. 10H 9H T9 T11\n  18. 2S JS KC JD\n"
        "Cartes (S) :\n"
        "  NC         -11  chutée de 11   meilleure\n"
        "  2S         -13  chutée de 13   coûte 2\n"
        "  T11        -13  chutée de 13   coûte 2\n")
    assert "  exacte ; " in ran.out
    assert " positions en " in ran.out


def test_solve_reports_in_english_as_before() -> None:
    ran = invoke("solve", PRISE, "--trick", "16")
    assert ran.code == 0
    assert _without_timing(ran.out) == (
        "Deal 1, trick 16, card 0: S to play (taker)\n" + FEN
        + "Value: -11 (margin), lost by 11 with best play\n"
        "Best line: the taker's camp ends with 30 points and 2 bouts\n"
        "  16. NC T20 5C 7C\n  17. 10H 9H T9 T11\n  18. 2S JS KC JD\n"
        "Cards (S):\n"
        "  NC         -11  lost by 11     best\n"
        "  2S         -13  lost by 13     costs 2\n"
        "  T11        -13  lost by 13     costs 2\n")
    assert "  exact; 81 nodes in " in ran.out


def test_solve_by_score_in_french() -> None:
    ran = invoke("solve", "--lang", "fr", PRISE, "--trick", "16", "--objective", "score")
    assert "Valeur : -108 (score du preneur), score -108 avec le meilleur jeu\n" in ran.out
    assert "  2S        -114  score -114     coûte 6\n" in ran.out


def test_solves_json_does_not_change_with_the_language() -> None:
    def solved(*lang: str) -> str:
        out = invoke("solve", *lang, PRISE, "--trick", "16", "--format", "json").out
        return "".join(line for line in out.splitlines() if '"seconds"' not in line)

    assert solved("--lang", "fr") == solved()
