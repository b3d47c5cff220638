"""`tarot serve` (cli/serve.py): its options refused with one line and exit 2, --export
publishing the days that are over, and the server started, answering, and stopped by
Ctrl-C with exit status 130."""

from __future__ import annotations

import datetime
import json
import os
import signal
import subprocess
import urllib.request
from pathlib import Path

import pytest
from cli_runs import ROOT, TAROT, invoke

from tarotnotation.players import Answer, RandomPlayer
from tarotnotation.server import dailygame
from tarotnotation.server.store import Store

UTC = dailygame.parse_zone("UTC")


@pytest.mark.parametrize(("args", "says"), [
    (["--time-zone", "Mars/Olympus"], "--time-zone: 'Mars/Olympus' is not a time zone"),
    (["--trusted-proxy", "proxy.example"], "--trusted-proxy: 'proxy.example' is not an"),
    (["--limit", "max_body"], "--limit max_body: expected NAME=VALUE"),
    (["--limit", "max_body=big"], "--limit max_body=big: 'big' is not a number"),
    (["--limit", "speed=3"], "--limit speed=3: expected NAME=VALUE"),
    (["--limit", "max_games=0"], "--limit: the limit max_games must be at least 1"),
    (["--database", "mysql://db/x"], "'mysql://db/x' is not a database address"),
    (["--database", "postgresql://u:s3cret@127.0.0.1:1/x"], "postgresql://u:***@"),
])
def test_a_bad_option_is_one_line_and_exit_two(args: list[str], says: str) -> None:
    ran = invoke("serve", *args)
    assert ran.code == 2, ran
    assert ran.err.startswith("tarot: "), ran.err
    assert says in ran.err
    assert len(ran.err.strip().splitlines()) == 1
    assert "s3cret" not in ran.err


def _a_day_played(path: Path, day: datetime.date) -> None:
    """Two players on ``day`` (in UTC): one plays to the end, one leaves."""
    store = Store.open(f"sqlite:///{path}")
    try:
        store.migrate()
        key = dailygame.key_of(store)
        now = int(dailygame.day_start(day, UTC)) + 3600
        for i, name in enumerate(["Ana", "Bruno"]):
            p = store.add_player(name, f"h{i}", now=now)
            game = dailygame.start(store, key, p.id, address_key=f"a{i}", now=now, zone=UTC,
                                   max_games=10)
            while i == 0 and (row := store.game(game.id)) is not None \
                    and row.state == "playing":
                a = dailygame.session_of(store, key, row).table.ask(RandomPlayer(seed=1))
                dailygame.answer(store, key, row, Answer(a.seat, a.kind, a.value), now=now)
    finally:
        store.close()


@pytest.mark.process
def test_the_clock_of_the_tests_decides_which_days_are_over(tmp_path: Path) -> None:
    """TAROT_SERVE_CLOCK (docs/serve.md, tests only): a day of the future is not over on the
    system's clock, and is once the given clock has passed its midnight."""
    db = tmp_path / "serve.db"
    day = datetime.date.today() + datetime.timedelta(days=400)
    _a_day_played(db, day)
    out = tmp_path / "published"
    ran = invoke("serve", "--database", str(db), "--export", str(out), "--budget", "5000")
    assert ran.code == 0, ran
    assert "0 days published" in ran.err, ran
    after = int(dailygame.day_start(day + datetime.timedelta(days=1), UTC)) + 5
    ran = invoke("serve", "--database", str(db), "--export", str(out), "--budget", "5000",
                 env={"TAROT_SERVE_CLOCK": str(after)})
    assert ran.code == 0, ran
    assert "1 day published" in ran.err, ran
    assert (out / day.isoformat() / "games.tarot").exists()


@pytest.mark.parametrize("value", ["soon", "nan", "-5", "1e20"])
def test_a_clock_that_is_not_a_unix_time_is_refused(tmp_path: Path, value: str) -> None:
    ran = invoke("serve", "--database", str(tmp_path / "serve.db"), "--export",
                 str(tmp_path / "out"), env={"TAROT_SERVE_CLOCK": value, "TAROT_LANG": "en"})
    assert ran.code == 2, ran
    assert "TAROT_SERVE_CLOCK" in ran.err
    assert "Unix time" in ran.err
    assert not (tmp_path / "out").exists()


@pytest.mark.process
def test_export_publishes_the_days_that_are_over(tmp_path: Path) -> None:
    db = tmp_path / "serve.db"
    _a_day_played(db, datetime.date(2026, 11, 20))
    out = tmp_path / "published"
    ran = invoke("serve", "--database", str(db), "--export", str(out), "--budget", "5000")
    assert ran.code == 0, ran
    assert "1 day published" in ran.err
    games = out / "2026-11-20" / "games.tarot"
    text = games.read_text(encoding="utf-8")
    assert text.count("[Event ") == 2  # the game left half played expired, and counts
    checked = invoke("validate", str(out / "2026-11-20" / "deal.tarot"), str(games))
    assert checked.code == 0, checked
    again = invoke("serve", "--database", str(db), "--export", str(out))
    assert again.code == 0
    assert "0 days published" in again.err
    assert games.read_text(encoding="utf-8") == text


@pytest.mark.process
def test_the_server_answers_and_ctrl_c_stops_it_with_130(tmp_path: Path) -> None:
    db = tmp_path / "serve.db"
    proc = subprocess.Popen([str(TAROT), "serve", "--port", "0", "--database", str(db)],
                            cwd=ROOT, stderr=subprocess.PIPE, stdout=subprocess.PIPE,
                            env={**os.environ, "TAROT_LANG": "en"})
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline().decode()
        assert "the daily game is at http://127.0.0.1:" in line, line
        address = line.split(" at ")[1].split()[0]
        request = urllib.request.Request(address + "api/players", method="POST",
                                         data=b'{"name": "Ana"}',
                                         headers={"Content-Type": "application/json"})
        direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with direct.open(request, timeout=30) as answer:
            token = json.loads(answer.read())["token"]
        with direct.open(address + "api/leaderboard/day", timeout=30) as answer:
            assert json.loads(answer.read())["rows"] == []
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert token.encode() not in out + err
    assert b"Traceback" not in err
    assert db.exists()
