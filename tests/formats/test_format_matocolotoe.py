"""Matocolotoe/Tarot's monthly game files (commit b2ab4ca7): each game an outcome-only
record, its enums read from their ordinals, scored by the replay as the app scores it."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import orjson
import pytest

from tarotnotation import archive
from tarotnotation.formats import matocolotoe
from tarotnotation.replay import Status, replay

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "fixtures" / "sheets" / "matocolotoe" / "data"
MONTH = DATA / "games" / "games_2026_11.json"
MULTIPLIER = (1, 2, 4, 6)
REQUIRED = (56, 51, 41, 36)
HANDFUL = (20, 30, 40)


def app_scores(game: dict[str, Any]) -> list[int]:
    """Each player's score as the app's Game.calculateAttackScore computes it (its public
    model written again here), for games without an announced slam."""
    players = game["players"]
    n = len(players)
    diff = game["attack_score"] - REQUIRED[game["oudlers"]]
    final = (25 + abs(diff)) * MULTIPLIER[game["contract"]]
    final = -final if diff < 0 else final
    for p in players:
        if "handful" in p:
            final += -HANDFUL[p["handful"]] if diff < 0 else HANDFUL[p["handful"]]
    if "petit_au_bout" in game:
        final += (10 if game["petit_au_bout"] == 0 else -10) * MULTIPLIER[game["contract"]]
    if game["attack_score"] == 91:
        final += 200
    elif game["attack_score"] == 0:
        final -= 200
    sides = [p.get("side", 2) for p in players]
    scores = [0] * n
    if n == 5 and 1 not in sides:
        scores[sides.index(0)] += 4 * final
    elif n == 5:
        scores[sides.index(0)] += 2 * final
        scores[sides.index(1)] += final
    else:
        scores[sides.index(0)] += (n - 1) * final
    for i, side in enumerate(sides):
        if side == 2:
            scores[i] -= final
    for i, p in enumerate(players):
        if "misery" in p:
            scores[i] += (n - 1) * 10
            for j in range(n):
                if j != i:
                    scores[j] -= 10
    return scores


def _game(rng: random.Random, n: int) -> dict[str, Any]:
    ids = rng.sample(range(1, 9), n)
    players: list[dict[str, Any]] = [{"id": i} for i in ids]
    players[0]["side"] = 0
    if n == 5 and rng.random() < 0.8:
        players[1 + rng.randrange(n - 1)]["side"] = 1
    for p in players:
        if rng.random() < 0.15:
            p["handful"] = rng.randrange(3)
        if rng.random() < 0.1:
            p["misery"] = 0
    game: dict[str, Any] = {"day": rng.randrange(1, 29), "contract": rng.randrange(4),
                            "attack_score": rng.randrange(92), "oudlers": rng.randrange(4)}
    if rng.random() < 0.3:
        game["petit_au_bout"] = rng.randrange(2)
    game["players"] = players
    return game


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_replay_scores_each_game_as_the_app_does(players: int) -> None:
    rng = random.Random(100 + players)
    games = [_game(rng, players) for _ in range(300)]
    deals = list(matocolotoe.read(orjson.dumps(games), "data/games/games_2025_03.json"))
    for deal, game in zip(deals, games, strict=True):
        assert deal.record is not None
        assert deal.diagnostics == ()
        rep = replay(deal.record)
        assert rep.status is Status.SCORED
        assert rep.scores is not None
        assert list(rep.scores.values()) == app_scores(game), game
        assert deal.record.tag("Date") == f"2025.03.{game['day']:02d}"


def test_the_month_file_names_players_dates_and_every_enum() -> None:
    assert archive.format_of(MONTH) == "matocolotoe"
    assert archive.format_of(DATA / "players.json") == "matocolotoe-players"
    assert list(archive.read_path(DATA / "players.json")) == []
    deals = list(archive.read_path(MONTH))
    records = [d.record for d in deals]
    first, second, third, fourth, fifth, sixth = records
    assert first is not None
    assert second is not None
    assert third is not None
    assert fourth is not None
    assert fifth is not None
    assert sixth is not None
    assert [s.name for s in first.seats] == ["Chloé", "Alice", "Bruno", "David"]
    assert first.tag("Date") == "2026.11.03"
    assert str(second).splitlines()[-1] == (
        "result: prise taker S partner E points 40 bouts 1 petit_au_bout defence")
    assert "poignee S simple" in str(second)
    assert "misere F atout" in str(second)
    assert second.rules.misere
    assert "chelem S" in str(third)
    assert str(third).endswith("chelem taker\n")
    assert third.result is not None
    assert third.result.partner == "S"
    assert fourth.result is not None
    assert fourth.result.chelem is not None
    assert fourth.result.chelem.value == "defence"  # 0 points, as the app counts it
    assert fifth.tag("Date") == "2026.11.??"  # day 0: unknown
    assert "a player's id is not in players.json" in sixth.comments[0]
    got = [(d.index, x.code.value, x.location.path) for d in deals for x in d.diagnostics]
    assert got == [
        (5, "C108", "$[4].players[1].misery"),  # a double misère
        (5, "C108", "$[4].slam"),  # announced by the defence
        (6, "C102", "$[5].players[1].side"),
        (6, "C102", "$[5].players[3].handful"),
        (6, "C102", "$[5].contract"),
        (6, "C102", "$[5].attack_score"),
    ]


def test_without_players_json_players_are_named_by_id(tmp_path: Path) -> None:
    path = tmp_path / "games_2026_12.json"
    path.write_bytes(MONTH.read_bytes())
    [deal, *_] = list(archive.read_path(path))
    assert deal.record is not None
    assert [s.name for s in deal.record.seats] == ["#3", "#1", "#2", "#4"]
    assert deal.record.tag("Date") == "2026.12.03"
    [broken] = list(matocolotoe.read(b'[{"day":1,"attack_score":3', "x.json"))
    assert broken.record is None
    assert broken.diagnostics[0].code.value == "J001"


def test_replay_and_score_of_the_players_file_say_it_holds_no_deal() -> None:
    # A companion file with no deal (no F005 either) is not passed over in silence: the
    # command says there is nothing to replay or score, and fails as a run that reads no
    # deal does.
    from cli_runs import invoke

    players = str(DATA / "players.json")
    ran = invoke("replay", players)
    assert ran.code == 1
    assert ran.out == ""
    assert ran.err.strip() == (f"{players}: no deal to replay (read as Matocolotoe's list"
                               " of players (no deal))")
    ran = invoke("score", players)
    assert (ran.code, ran.out, ran.err.strip()) == (1, "", f"no deal to score in {players}")
    ran = invoke("score", players, players)
    assert ran.err.strip() == "no deal to score in the 2 files given"
    assert invoke("replay", "examples/prise.tarot").err == ""  # (only when there is none)


@pytest.mark.parametrize("first", [1, "x", None, [1], True])
def test_a_first_element_that_is_not_an_object_is_told_by_the_documents_shape(
        tmp_path: Path, first: object) -> None:
    """Issue 31: the file was read as a JSON archive (26 errors on all 6 deals); the same
    fault in element 3 gave 1. Now the first element is one game's fault, as any other."""
    games = orjson.loads((ROOT / "examples" / "sheets" / "games_2026_11.json").read_bytes())
    path = tmp_path / "games_2026_11.json"
    path.write_bytes(orjson.dumps([first, *games[1:]]))
    assert archive.format_of(path) == "matocolotoe"
    deals = list(archive.read_path(path))
    assert len(deals) == len(games)
    assert [len(d.diagnostics) for d in deals] == [1] + [0] * (len(games) - 1)
    assert deals[0].record is None
