"""ScoreIt's saved Tarot games (StephaneBg/ScoreIt, tarot v2 as of commit 7684d40c): each
lap an outcome-only record, scored by the replay as ScoreIt's own solver scores it."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import orjson
import pytest

from tarotnotation import archive
from tarotnotation.diagnostics import Code
from tarotnotation.formats import scoreit
from tarotnotation.replay import Status, replay

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "sheets"
POSITIONS = ("ONE", "TWO", "THREE", "FOUR", "FIVE")
COEFFICIENT = {"SMALL": 1, "GUARD": 2, "GUARD_WITHOUT_KITTY": 4, "GUARD_AGAINST_KITTY": 6}
BONUS_POINTS = {"PETIT_AU_BOUT": 10, "POIGNEE_SIMPLE": 20, "POIGNEE_DOUBLE": 30,
                "POIGNEE_TRIPLE": 40, "CHELEM_NON_ANNONCE": 200,
                "CHELEM_ANNONCE_REALISE": 400, "CHELEM_ANNONCE_NON_REALISE": -200}


def dumps_game(names: list[str], laps: list[dict[str, Any]]) -> bytes:
    """A ScoreIt game as the app writes it: the players' names and the laps, each a dict
    of the model's keys."""
    doc = {"type": "TAROT",
           "players": [{"name": nm, "color": -16777216 + 1000 * i}
                       for i, nm in enumerate(names)],
           "laps": laps}
    return orjson.dumps(doc)


def scoreit_results(lap: dict[str, Any]) -> list[int]:
    """Each player's score as ScoreIt's TarotSolver.getResults computes it (its public
    model, written again here: the threshold by oudlers, (25 + |diff|) x coefficient, the
    first poignée to the winner, ±10 x coefficient for the petit au bout by camp, the
    chelem bonus; 3:-1, 2:1:-1 or 4:-1 shares)."""
    n = lap["playerCount"]
    taker = POSITIONS.index(lap["taker"])
    partner = POSITIONS.index(lap["partner"]) if lap["partner"] in POSITIONS else -1
    coefficient = COEFFICIENT[lap["bid"]]
    diff = lap["points"] - (56, 51, 41, 36)[len(lap["oudlers"])]
    won = diff >= 0
    points = (25 + abs(diff)) * coefficient
    bonuses = [b["bonus"] for b in lap["bonuses"]]
    points += next((BONUS_POINTS[b] for b in bonuses if b.startswith("POIGNEE")), 0)
    points = points if won else -points
    for b in lap["bonuses"]:
        if b["bonus"] == "PETIT_AU_BOUT":
            p = POSITIONS.index(b["player"])
            ours = p == taker or (n == 5 and p == partner)
            points += (10 if ours else -10) * coefficient
            break
    points += next((BONUS_POINTS[b] for b in bonuses if b.startswith("CHELEM")), 0)
    if n == 5 and taker != partner:
        return [(2 if i == taker else 1 if i == partner else -1) * points for i in range(n)]
    return [((n - 1) if i == taker else -1) * points for i in range(n)]


def _lap(rng: random.Random, n: int) -> dict[str, Any]:
    taker = rng.randrange(n)
    partner = rng.randrange(n) if n == 5 else -1
    camp = [taker] + ([partner] if partner >= 0 else [])
    bonuses: list[dict[str, str]] = []
    if rng.random() < 0.4:
        bonuses.append({"player": POSITIONS[rng.randrange(n)],
                        "bonus": rng.choice(["POIGNEE_SIMPLE", "POIGNEE_DOUBLE",
                                             "POIGNEE_TRIPLE"])})
    if rng.random() < 0.3:
        bonuses.append({"player": POSITIONS[rng.randrange(n)], "bonus": "PETIT_AU_BOUT"})
    oudlers = rng.sample(["PETIT", "EXCUSE", "TWENTY_ONE"], rng.randrange(4))
    points = rng.randrange(92)
    if rng.random() < 0.1:
        bonuses.append({"player": POSITIONS[camp[0]], "bonus": rng.choice(
            ["CHELEM_NON_ANNONCE", "CHELEM_ANNONCE_REALISE", "CHELEM_ANNONCE_NON_REALISE"])})
    return {"playerCount": n, "taker": POSITIONS[taker],
            "partner": POSITIONS[partner] if partner >= 0 else "NONE",
            "bid": rng.choice(list(COEFFICIENT)), "oudlers": oudlers, "points": points,
            "bonuses": bonuses}


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_replay_scores_each_lap_as_scoreit_does(players: int) -> None:
    rng = random.Random(players)
    names = ["Alice", "Bruno", "Chloé", "David", "Émilie"][:players]
    laps = [_lap(rng, players) for _ in range(300)]
    deals = list(scoreit.read(dumps_game(names, laps), name="g.json"))
    assert len(deals) == len(laps)
    for deal, lap in zip(deals, laps, strict=True):
        assert deal.record is not None
        assert deal.diagnostics == ()
        rep = replay(deal.record)
        assert rep.status is Status.SCORED
        assert rep.scores is not None
        assert list(rep.scores.values()) == scoreit_results(lap), lap


def test_every_value_of_the_model_maps_to_the_record() -> None:
    path = FIXTURES / "scoreit-five-players-every-bonus.json"
    assert archive.format_of(path) == "scoreit"
    deals = list(archive.read_path(path))
    records = [d.record for d in deals]
    assert all(r is not None for r in records)
    assert all(d.diagnostics == () for d in deals)
    text = [str(r).splitlines()[-1] for r in records]
    assert text[0] == "result: garde taker S partner N points 51 bouts 2"
    assert text[1] == ("result: prise taker E partner E points 48 bouts 1 petit_au_bout"
                       " defence")  # alone; the petit au bout by a defender
    assert text[2] == ("result: garde_sans taker N partner F points 60 bouts 3 petit_au_bout"
                       " taker")  # by the partner: the taker's camp
    assert "poignee N double" in str(records[2])
    assert "chelem W" in str(records[3])
    assert text[3].endswith("chelem taker")
    assert "chelem F" in str(records[4])
    assert "chelem taker" not in text[4]
    assert "chelem" not in str(records[5]).split("result:")[0]  # made, not announced
    assert text[5].endswith("chelem taker")
    # A lap written with ScoreIt's defaults left out: taker ONE, partner TWO, SMALL, 56.
    assert text[6] == "result: prise taker S partner E points 56 bouts 0"
    assert [s.name for s in records[0].seats] == ["Alice", "Bruno", "Chloé", "David",  # type: ignore[union-attr]
                                                  "Émilie"]
    assert [r.tag("Deal") for r in records if r] == [str(i) for i in range(1, 8)]
    assert all(r.tag("Source") == "ScoreIt" for r in records if r)


def test_values_that_cannot_be_read_are_reported_at_their_path() -> None:
    deals = list(archive.read_path(FIXTURES / "scoreit-faulty-values.json"))
    got = [(d.index, x.code.value, x.location.path) for d in deals for x in d.diagnostics]
    assert got == [
        (1, "C102", "$.laps[0].taker"),
        (2, "C102", "$.laps[1].partner"),
        (2, "C102", "$.laps[1].bid"),
        (2, "C102", "$.laps[1].oudlers"),
        (2, "C102", "$.laps[1].points"),
        (2, "C102", "$.laps[1].bonuses[0].player"),
        (2, "C102", "$.laps[1].bonuses[1]"),
    ]
    third = deals[2].record
    assert third is not None  # the next lap is read whole
    assert deals[2].diagnostics == ()
    assert replay(third).diagnostics == ()


def test_other_games_and_broken_files_are_no_record_files(tmp_path: Path) -> None:
    belote = tmp_path / "belote.txt"
    belote.write_bytes(orjson.dumps({"type": "BELOTE", "players": [], "laps": []}))
    assert archive.format_of(belote) == "scoreit"
    [deal] = list(archive.read_path(belote))
    assert deal.record is None
    assert (deal.diagnostics[0].code, deal.diagnostics[0].location.path) == (
        Code.SHEET_NOT_A_SHEET, "$.type")
    assert "Belote" in deal.diagnostics[0].message
    [deal] = list(scoreit.read(b'{"type":"TAROT","players":[{"name":"A"}],"laps":[]}'))
    assert deal.diagnostics[0].message == "a Tarot game has 3 to 5 players: found 1"
    [deal] = list(scoreit.read(b'{"type":"TAROT","players":'))
    assert deal.diagnostics[0].code is Code.JSON_SYNTAX
