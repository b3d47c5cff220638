"""The journal of an analysis to a file (``tarotnotation.journal``, ``analyze --resume``):
each finished deal noted whole, a line cut short by a crash dropped, another run's journal
refused, nothing held in memory but where each result is."""

from __future__ import annotations

from pathlib import Path

import pytest

from tarotnotation.journal import Journal, JournalError, journal_path, run_key
from tarotnotation.records import DealRecord


def test_a_line_cut_short_by_a_crash_is_dropped_and_written_over(tmp_path: Path) -> None:
    path = str(tmp_path / "out.tarot.journal")
    with Journal(path, "k", resume=False) as journal:
        journal.add("a.jsonl", 1, DealRecord(players=4), error=False, done=True)
        journal.add("a.jsonl", 2, None, error=True, done=False)
    whole = Path(path).read_bytes()
    Path(path).write_bytes(whole + b'{"file": "a.jsonl", "deal": 3, "err')  # the crash
    with Journal(path, "k", resume=True) as journal:
        assert journal.resumed == 2
        assert not journal.has("a.jsonl", 3)
        assert journal.get("a.jsonl", 2) == (None, True, False)
        entry = journal.get("a.jsonl", 1)
        assert entry is not None
        assert entry.record == DealRecord(players=4)
        journal.add("a.jsonl", 3, None, error=False, done=False)
    with Journal(path, "k", resume=True) as journal:
        assert journal.resumed == 3
        assert journal.get("a.jsonl", 3) == (None, False, False)


def test_without_resume_a_journal_starts_again(tmp_path: Path) -> None:
    path = str(tmp_path / "out.tarot.journal")
    with Journal(path, "k", resume=False) as journal:
        journal.add("a.jsonl", 1, None, error=False, done=False)
    with Journal(path, "other", resume=False) as journal:
        assert journal.resumed == 0
        assert not journal.has("a.jsonl", 1)


@pytest.mark.parametrize("head", [b"", b"not json\n", b'{"journal": 1, "key": "other"}\n'])
def test_a_journal_of_another_run_or_of_nothing_is_refused(tmp_path: Path, head: bytes) -> None:
    path = tmp_path / "out.tarot.journal"
    path.write_bytes(head)
    with pytest.raises(JournalError):
        Journal(str(path), "k", resume=True)
    assert path.read_bytes() == head  # left as it was


def test_the_run_key_follows_the_inputs_and_the_options(tmp_path: Path) -> None:
    deals = tmp_path / "deals.jsonl"
    deals.write_bytes(b"{}\n")
    key = run_key([str(deals)], {"budget": 1}, "0.1.0")
    assert key == run_key([str(deals)], {"budget": 1}, "0.1.0")
    assert key != run_key([str(deals)], {"budget": 2}, "0.1.0")
    assert key != run_key([str(deals)], {"budget": 1}, "0.2.0")
    deals.write_bytes(b"{}\n{}\n")
    assert key != run_key([str(deals)], {"budget": 1}, "0.1.0")
    assert journal_path(str(tmp_path / "o.tarot")) == str(tmp_path / "o.tarot.journal")
