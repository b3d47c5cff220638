"""``tarot new --daily``: the deal of the day, pinned for three dates, and a second
implementation written from the specification in docs/daily.md."""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_runs import invoke, run_exe

from tarotnotation import notation
from tarotnotation.archives.daily import daily_deal
from tarotnotation.cards import Card
from tarotnotation.formats import json as tjson
from tarotnotation.replay import replay

#: The deals of three dates, as tarot new --daily gave them when the generator was made.
#: A change here is a change of every daily game ever played: it must never happen.
PINNED = {
    ("2026-11-14", 4): {
        "S": "5S 7S QS 1H 8H 10H NH QH KH 1D 2D 5D 10D JC T8 T9 T17 T20",
        "E": "1S 3S 4S 9S 2H 3H 7D 9D JD KD 4C 7C 10C T1 T2 T15 T21 EX",
        "N": "2S 10S KS 7H 9H QD 1C 2C 5C 6C 9C QC T5 T6 T7 T13 T14 T18",
        "W": "8S JS NS 4H 5H 6H JH 3D ND 3C 8C NC KC T3 T4 T11 T12 T19",
        "chien": "6S 4D 6D 8D T10 T16",
    },
    ("2027-01-01", 3): {
        "S": "2S 7S 9S QS KS 3H 9H JH QH KH 8D JD QD 1C 4C 5C 6C NC T1 T2 T4 T9 T16 T18",
        "E": "6S 8S JS 1H 7H 8H 1D 7D 9D 2C 7C JC QC KC T3 T5 T7 T8 T10 T12 T13 T14 T20 EX",
        "N": "3S 4S 5S 10S NS 2H 4H 5H 10H NH 3D 4D 5D 6D 10D ND KD 3C 8C 9C 10C T17 T19"
             " T21",
        "chien": "1S 6H 2D T6 T11 T15",
    },
    ("2028-02-29", 5): {
        "S": "1S 5S 10H 1D JD ND 2C 4C 6C KC T4 T5 T11 T12 T21",
        "E": "2H 3H 5H 8H 3D 4D 10D KD 5C 8C QC T3 T10 T14 T16",
        "N": "2S 3S KH 2D QD 1C 3C 9C 10C JC T2 T7 T9 T13 EX",
        "W": "6S 10S JS NS KS 1H 6H NH 7D 8D 7C NC T8 T19 T20",
        "F": "4S 7S 8S QS 4H 7H 9H JH 5D 6D 9D T1 T15 T17 T18",
        "chien": "9S QH T6",
    },
}


def _as_text(date: str, players: int) -> dict[str, str]:
    record = daily_deal(datetime.date.fromisoformat(date), players)
    assert record.hands is not None
    assert record.chien is not None
    return {**{seat: str(hand) for seat, hand in record.hands.items()},
            "chien": str(record.chien)}


@pytest.mark.parametrize(("date", "players"), list(PINNED))
def test_the_deal_of_a_date_never_changes(date: str, players: int) -> None:
    assert _as_text(date, players) == PINNED[date, players]


def _from_the_spec(date: str, players: int) -> dict[str, str]:
    """docs/daily.md, written again without the library's generator."""
    def stream() -> Iterator[int]:
        counter = 0
        while True:
            block = hashlib.sha256(b"tarotnotation daily deal v1\0" + date.encode() + b"\0"
                                   + str(players).encode() + b"\0"
                                   + counter.to_bytes(8, "big")).digest()
            yield from block
            counter += 1

    bytes_ = stream()

    def below(n: int) -> int:
        while True:
            b: int = next(bytes_)
            if b < 256 - 256 % n:
                return b % n

    size = {3: 24, 4: 18, 5: 15}[players]
    deck = list(range(78))
    while True:
        for i in range(77, 0, -1):
            j = below(i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        hands = [set(deck[k * size:(k + 1) * size]) for k in range(players)]
        trumps = [{c for c in h if Card.T1 <= c <= Card.T21} for h in hands]
        if not any(t == {Card.T1} and Card.EXCUSE not in h
                   for t, h in zip(trumps, hands, strict=True)):
            break
    seats = ("S", "E", "N", "W", "F")[:players]
    text = {seat: " ".join(Card(c).code for c in sorted(h)) for seat, h in zip(seats, hands,
                                                                               strict=True)}
    text["chien"] = " ".join(Card(c).code for c in sorted(deck[players * size:]))
    return text


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_second_implementation_of_the_spec_agrees(players: int) -> None:
    day = datetime.date(2026, 1, 1)
    for _ in range(40):
        date = day.isoformat()
        assert _as_text(date, players) == _from_the_spec(date, players), date
        day += datetime.timedelta(days=9)


def test_each_deal_of_the_day_is_a_deal_that_is_played() -> None:
    day = datetime.date(2026, 3, 1)
    for players in (3, 4, 5):
        for k in range(30):
            record = daily_deal(day + datetime.timedelta(days=k), players)
            assert all(d.code.value != "D103" for d in replay(record).diagnostics)
            assert record.hands is not None
            assert len(record.hands) == players


@pytest.mark.process
def test_the_command() -> None:
    ran = run_exe("new", "--daily", "2026-11-14")
    assert ran.code == 0
    [item] = list(notation.reads(ran.out))
    assert item.record == daily_deal(datetime.date(2026, 11, 14), 4)
    text = invoke("new", "--daily", "2026-11-14", "--players", "4").out
    assert text == ran.out
    assert 'hand S: ' + PINNED["2026-11-14", 4]["S"] in text
    five = invoke("new", "--daily", "2028.02.29", "-p", "5", "--to", "jsonl").out
    assert tjson.loads(five) == daily_deal(datetime.date(2028, 2, 29), 5)
    today = invoke("new", "--daily").out
    assert f'[Daily "{datetime.date.today().isoformat()}/4"]' in today


@pytest.mark.parametrize("date", ["0999-05-06", "0001-01-01", "0099-12-31"])
def test_the_daily_date_of_a_year_before_1000_is_one_validate_accepts(tmp_path: Path,
                                                                      date: str) -> None:
    """Issue 31: ``--daily 0999-05-06`` wrote ``[Date "999.05.06"]`` (``strftime`` drops the
    year's leading zero), which ``validate`` flagged (S004). The year has four digits."""
    out = tmp_path / "daily.tarot"
    assert invoke("new", "--daily", date, "-o", str(out)).code == 0
    assert f'[Date "{date.replace("-", ".")}"]' in out.read_text(encoding="utf-8")
    ran = invoke("validate", str(out))
    assert ran.code == 0, ran
    assert "S004" not in ran.out + ran.err
    assert "1 valid" in ran.err + ran.out


@pytest.mark.parametrize(("args", "message"), [
    (("--daily", "2026-02-30"), "tarot: '2026-02-30' is not a date: expected YYYY-MM-DD"),
    (("2026-11-14",), "tarot: 2026-11-14: a date is given with --daily"),
    (("--daily", "--seed", "4"), "tarot: --seed cannot be used with --daily"),
    (("--daily", "--count", "3"), "tarot: --count cannot be used with --daily"),
])
def test_daily_usage_errors(args: tuple[str, ...], message: str) -> None:
    ran = invoke("new", *args)
    assert ran.code == 2
    assert ran.err.startswith(message), ran.err
