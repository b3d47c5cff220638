"""Archives for the tests of the archive tools: a small duplicate tournament worked out by
hand, and generated archives of random legal deals with players' names."""

from __future__ import annotations

import functools
import random
from pathlib import Path

from tarotnotation.cards import Card
from tarotnotation.formats import json as tjson
from tarotnotation.kernel import petit_sec
from tarotnotation.notation import dump
from tarotnotation.records import DealRecord
from tarotnotation.simulate import random_deal

SEATS = ("S", "E", "N", "W")
#: The three tables of the tournament, their players at S, E, N, W.
TABLES = (("Ana", "Ben", "Cy", "Dee"), ("Eve", "Finn", "Gus", "Hal"),
          ("Ivy", "Jo", "Kim", "Lou"))
#: The three outcomes a deal can have at a table: the taker's points with one bout (the
#: threshold is 51): made by 5, made by 0, lost by 3.
POINTS = (56, 51, 48)


def _deck(seed: int) -> list[int]:
    """A shuffled pack with no Petit sec in any hand."""
    rng = random.Random(seed)
    cards = list(range(78))
    while True:
        rng.shuffle(cards)
        if not any(petit_sec(sum(1 << c for c in cards[i * 18:(i + 1) * 18]))
                   for i in range(4)):
            return cards


def _record(cards: list[int], deal: int, table: int, outcome: int) -> DealRecord:
    """Deal ``deal`` at ``table``: seat i holds hand (i + table) % 4; the holder of hand 0
    takes a prise and scores ``POINTS[outcome]`` with one bout (no play recorded)."""
    hands = [cards[i * 18:(i + 1) * 18] for i in range(4)]
    held = {SEATS[i]: [Card(c).code for c in hands[(i + table) % 4]] for i in range(4)}
    taker = (4 - table) % 4
    return DealRecord.model_validate({
        "tags": [["Event", "Duplicate test"], ["Round", "1"], ["Table", str(table + 1)],
                 ["Deal", str(deal + 1)]],
        "players": 4,
        "seats": [{"id": s, "name": n} for s, n in zip(SEATS, TABLES[table], strict=True)],
        "hands": held,
        "chien": [Card(c).code for c in cards[72:]],
        "auction": [{"contract": "prise" if i == taker else "pass"} for i in range(4)],
        "result": {"contract": "prise", "taker": SEATS[taker],
                   "taker_points": POINTS[outcome], "bouts": 1},
    })


def tournament() -> list[list[DealRecord]]:
    """Three tables (one list each) play the same 8 deals, the hands rotated one seat
    from a table to the next. At table t, deal d has outcome (t + d) % 3."""
    decks = [_deck(100 + d) for d in range(8)]
    return [[_record(decks[d], d, t, (t + d) % 3) for d in range(8)] for t in range(3)]


def write_tournament(folder: Path) -> list[Path]:
    """The tournament as one file per table (the third as JSON Lines)."""
    paths = []
    for t, records in enumerate(tournament()):
        if t == 2:
            path = folder / "table-3.jsonl"
            with path.open("wb") as fh:
                tjson.write(records, fh)
        else:
            path = folder / f"table-{t + 1}.tarot"
            with path.open("w", encoding="utf-8") as fh:
                dump(records, fh)
        paths.append(path)
    return paths


NAMES = ("Alice", "Bruno", "Chloé", "David", "Élodie", "Franck")


def generated(n: int, seed: int = 7, players: int = 4) -> list[DealRecord]:
    """``n`` random legal deals, played by players drawn from :data:`NAMES`, with the
    tags Event, Date and Deal (a new list each call; the records, frozen, are made once
    a test process for the same arguments: several tests ask for the same deals)."""
    return list(_generated(n, seed, players))


@functools.cache
def _generated(n: int, seed: int, players: int) -> tuple[DealRecord, ...]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        record = random_deal(rng, players)
        names = rng.sample(NAMES, players)
        out.append(record.model_copy(update={
            "seats": tuple(s.model_copy(update={"name": name})
                           for s, name in zip(record.seats, names, strict=True)),
            "tags": (("Event", f"Soirée {i % 3 + 1}"), ("Date", f"2026.11.{i % 28 + 1:02d}"),
                     ("Deal", str(i + 1))),
        }))
    return tuple(out)


def write_jsonl(path: Path, records: list[DealRecord]) -> Path:
    """Records as a JSON Lines file."""
    with path.open("wb") as fh:
        tjson.write(records, fh)
    return path


def write_tarot(path: Path, records: list[DealRecord]) -> Path:
    """Records as a text notation file."""
    with path.open("w", encoding="utf-8") as fh:
        dump(records, fh)
    return path
