"""Score sheets for tests: the outcome-only records a club would write down for random
legal deals (:func:`evening`), as the replay scores them.

Each deal is played by :func:`tarotnotation.simulate.random_deal` and replayed; its
record keeps only what a score sheet says: the tags, the seats and their names, the
dealer, the poignées (size and holder), a chelem announced, and the result (contract,
taker, partner at five players, points, bouts, petit au bout, chelem, each score).
"""

from __future__ import annotations

import random
from typing import Any, Final

from tarotnotation.records import DEFAULT_SEATS, DealRecord
from tarotnotation.replay import Status, replay
from tarotnotation.simulate import random_deal

__all__ = ["NAMES", "evening", "outcome_of"]

NAMES: Final = ("Alice Martin", "Bruno Lefèvre", "Chloé Dubois", "David Moreau",
                "Émilie Faure")


def outcome_of(played: DealRecord, *, tags: list[tuple[str, str]],
               names: tuple[str, ...]) -> DealRecord | None:
    """The score-sheet record of a played deal (None when it is not scored)."""
    rep = replay(played)
    if rep.status is not Status.SCORED or rep.taker is None or rep.contract is None:
        return None
    assert rep.taker_half is not None
    assert rep.scores is not None
    n = played.players
    ids = DEFAULT_SEATS[n]
    result: dict[str, Any] = {
        "contract": rep.contract.keyword, "taker": rep.taker,
        "taker_points": rep.taker_half / 2, "bouts": rep.bouts,
        "scores": dict(rep.scores),
    }
    if n == 5:
        result["partner"] = rep.partner or rep.taker
    if rep.petit_au_bout is not None:
        result["petit_au_bout"] = rep.petit_au_bout.value
    if rep.chelem is not None:
        result["chelem"] = rep.chelem.value
    declarations: list[dict[str, Any]] = []
    if rep.chelem_announced:
        declarations.append({"kind": "chelem", "seat": rep.taker})
    for seat, size in rep.poignees:
        if seat is not None:
            declarations.append({"kind": "poignee", "seat": seat, "size": size.value})
    data: dict[str, Any] = {
        "tags": tags, "players": n, "ruleset": played.ruleset,
        "seats": [{"id": s, "name": nm} for s, nm in zip(ids, names, strict=True)],
        "dealer": played.dealer, "result": result,
    }
    if declarations:
        data["declarations"] = declarations
    return DealRecord.model_validate(data)


def evening(players: int, deals: int, seed: int) -> list[DealRecord]:
    """A club evening at ``players`` players: ``deals`` score-sheet records."""
    rng = random.Random(seed)
    names = NAMES[:players]
    out: list[DealRecord] = []
    number = 0
    while len(out) < deals:
        played = random_deal(rng, players, poignee_chance=0.3, chelem_chance=0.05)
        number += 1
        tags = [("Event", "Tarot du jeudi"), ("Site", "Villeurbanne"),
                ("Date", f"2026.11.{1 + seed % 28:02d}"), ("Deal", str(number))]
        rec = outcome_of(played, tags=tags, names=names)
        if rec is not None:
            out.append(rec)
    return out
