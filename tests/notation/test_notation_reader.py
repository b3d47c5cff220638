"""The reader streams, skims tags, gives offsets to seek to, and maps record paths to text."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tarotnotation.diagnostics import Code
from tarotnotation.notation import dumps, load, loads, read, read_file, reads, skim_tags
from tarotnotation.replay import replay
from tarotnotation.simulate import random_deal

ROOT = Path(__file__).resolve().parents[2]


class _Lines(io.RawIOBase):
    """A binary stream that counts how many lines the reader has pulled from it."""

    def __init__(self, text: str) -> None:
        self._lines: Iterator[bytes] = iter(text.encode("utf-8").splitlines(keepends=True))
        self.pulled = 0

    def __iter__(self) -> Iterator[bytes]:
        for line in self._lines:
            self.pulled += 1
            yield line


def test_reader_yields_before_reading_the_whole_stream() -> None:
    recs = [random_deal(random.Random(s), 4) for s in range(5)]
    text = dumps(recs)
    stream = _Lines(text)
    deals = read(stream)  # type: ignore[arg-type]
    first = next(deals)
    assert first.record is not None
    assert first.record.model_dump() == recs[0].model_dump()
    # the first record is yielded once the second record's first line is seen
    assert stream.pulled <= len(dumps(recs[0]).splitlines()) + 2
    assert len(list(deals)) == 4


def test_text_and_binary_streams_and_paths_agree(tmp_path: Path) -> None:
    recs = [random_deal(random.Random(s), n) for s, n in ((7, 3), (8, 5))]
    text = dumps(recs)
    path = tmp_path / "two.tarot"
    path.write_text(text, "utf-8")
    from_text = [d.record for d in read(io.StringIO(text))]
    from_bytes = [d.record for d in read(io.BytesIO(text.encode()))]
    from_path = [d.record for d in read_file(path)]
    assert from_text == from_bytes == from_path
    assert [r.model_dump() for r in from_path if r] == [r.model_dump() for r in recs]
    assert load(io.StringIO(dumps(recs[0]))).model_dump() == recs[0].model_dump()
    with pytest.raises(ValueError, match="expected one record, found 2"):
        load(path)


def test_skim_tags_and_offsets_seek_to_each_record(tmp_path: Path) -> None:
    recs = []
    for i in range(6):
        rec = random_deal(random.Random(i), 3 + i % 3)
        tags = (("Event", "Café des Sports"), ("Deal", str(i + 1)))
        recs.append(rec.model_copy(update={"tags": tags}))
    path = tmp_path / "many.tarot"
    path.write_text(dumps(recs), "utf-8")
    skimmed = list(skim_tags(path))
    assert [s.index for s in skimmed] == [1, 2, 3, 4, 5, 6]
    assert [s.tag("deal") for s in skimmed] == ["1", "2", "3", "4", "5", "6"]
    assert skimmed[0].tags[:3] == (("Event", "Café des Sports"), ("Deal", "1"), ("Players", "3"))
    full = list(read_file(path))
    assert [s.offset for s in skimmed] == [d.offset for d in full]
    assert [s.line for s in skimmed] == [d.line for d in full]
    with path.open("rb") as fp:  # byte offsets: seek and read one record
        fp.seek(skimmed[4].offset)
        deal = next(read(fp))
    assert deal.record is not None
    assert deal.record.model_dump() == recs[4].model_dump()


def test_positions_follow_the_record_paths() -> None:
    text = (
        '[Event "Positions"]\n'
        '[Players "4"]\n'
        "hand S: 1S 2S 3S 4S 5S 6S 7S 8S 9S 10S JS NS QS KS 1H 2H 3H 4H\n"
        "auction: pass garde! {sure} pass pass\n"
        "ecart: shown: T5\n"
        "poignee E simple\n"
        "play:\n"
        " 1. 5H 6H 7H 8H\n"
        " 2. (E) 9H\n"
        "    10H E:JH\n"
        "result: garde taker E points 48 bouts 2 scores S-64 E+192 N-64 W-64\n"
    )
    [deal] = list(reads(text))
    assert deal.source is not None
    pos = deal.source.positions
    assert pos[""] == (1, 1)
    assert pos["players"] == (2, 1)
    assert pos["hands.S"] == (3, 6)
    assert pos["auction"] == (4, 1)
    assert pos["auction[1]"] == (4, 15)
    assert pos["auction[2]"] == (4, 29)
    assert pos["ecart"] == (5, 1)
    assert pos["declarations[0]"] == (6, 1)
    assert pos["play[0]"] == (8, 2)
    assert pos["play[0].cards[3]"] == (8, 14)
    assert pos["play[1]"] == (9, 2)
    assert pos["play[1].cards[0]"] == (9, 9)
    assert pos["play[1].cards[1]"] == (10, 5)
    assert pos["play[1].cards[2]"] == (10, 9)
    assert pos["result.taker"] == (11, 21)
    assert pos["result.taker_points"] == (11, 30)
    assert pos["result.scores.E"] == (11, 53)


def test_replay_violations_point_at_the_card() -> None:
    rec = random_deal(random.Random(3), 4)
    text = dumps(rec)
    lines = text.split("\n")
    t = next(i for i, line in enumerate(lines) if line.startswith(" 5."))
    first_card = rec.play[0].cards[0].card.code  # already played at trick 1
    number, lead, _second, *rest = lines[t].split(" ")[1:]
    lines[t] = " ".join(["", number, lead, first_card, *rest])
    col = len(" ".join(["", number, lead])) + 2
    [deal] = list(reads("\n".join(lines), name="club.tarot"))
    assert deal.record is not None
    rep = replay(deal.record, deal=deal.index, source=deal.source)
    twice = [d for d in rep.diagnostics if d.code is Code.PLAYED_TWICE]
    assert twice
    assert twice[0].location.text_position() == f"club.tarot:{t + 1}:{col}"
    assert lines[t][col - 1:].startswith(first_card)


def test_loads_and_dumps_are_inverse_on_canonical_text() -> None:
    text = dumps(random_deal(random.Random(9), 5))
    assert dumps(loads(text)) == text


@pytest.mark.parametrize(
    ("text", "players"),
    [
        ('[Seats "A, B, C"]\nauction: pass\n', 3),
        ('[Event "x"]\nhand S: ' + " ".join(f"T{i}" for i in range(1, 22)) + " EX 1S 2S\n", 3),
        ('[Event "x"]\nresult: scores S+2 E-1 N-1 W+0 F+0\n', 5),
        ('[Event "x"]\nauction: pass\n', 4),
    ],
)
def test_players_follow_from_the_record_when_not_tagged(text: str, players: int) -> None:
    assert loads(text).players == players


def test_skim_tags_numbers_the_records_as_the_reader_does() -> None:
    # skim_tags indexes an archive without parsing it: its numbers, lines and offsets are
    # the reader's, traps included (a comment cut by a line starting with [ goes on in the
    # next chunk: the reader reads the two as one record, S005, and so does the skim)
    texts = [
        '[Event "A"] [Players "4"]\n{note\n[Event "X"] inside}\n'
        "result: garde taker E points 48 bouts 2\n\n"
        '[Event "B"] [Players "4"]\nresult: prise taker S points 50 bouts 1\n',
        '[Event "A"]\n\n[Players "4"]\nresult: garde taker E points 48 bouts 2\n\n'
        '[Event "B"] [Players "4"]\nresult: prise taker S points 50 bouts 1\n',
        '[Event "A {"] [Players "4"] {a } note}\nresult: garde taker E points 48\n'
        '[Event "B"] [Players "4"]\nresult: prise taker S points 50 bouts 1\n',
    ]
    root = Path(__file__).resolve().parents[2]
    files = [*sorted((root / "examples").rglob("*.tarot")),
             *sorted((root / "tests" / "fixtures").rglob("*.tarot"))]
    texts += [p.read_bytes().decode("utf-8", "replace") for p in files]
    for text in texts:
        data = text.encode("utf-8")
        read_ = [(d.index, d.line, d.offset) for d in read(io.BytesIO(data))]
        skim = [(d.index, d.line, d.offset) for d in skim_tags(io.BytesIO(data))]
        assert skim == read_, text[:80]


def test_a_record_is_scanned_once_for_the_judge_and_the_builder(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The judge turns down every record (as it does a faulty one): the reader builds the
    # records from the same scan, and a record the scanner leaves goes to the grammar
    # without a second scan.
    from tarotnotation import notation
    from tarotnotation.notation import scanner

    text = dumps([random_deal(random.Random(s), 4) for s in range(3)])
    text += '\n[Players "4"]\nauction: pass gardez\n'  # left to the grammar
    calls: list[str] = []
    scan = scanner.scan

    def counted(record: str) -> Any:
        calls.append(record)
        return scan(record)

    monkeypatch.setattr(scanner, "scan", counted)
    judged: list[Any] = []

    def judge(data: dict[str, Any]) -> None:
        judged.append(data)

    deals: list[Any] = list(notation.read_at(io.BytesIO(text.encode()), judge=judge))
    assert [d.record is not None for d in deals] == [True, True, True, False]
    assert len(calls) == 4
    assert len(set(calls)) == 4
    assert len(judged) == 3  # (the record the scanner left is not offered to the judge)
