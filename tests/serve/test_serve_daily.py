"""The daily game (server/dailygame.py) on SQLite and PostgreSQL: the secret deal, the day in
the server's time zone, one attempt, a game played and restored, all pass, expiry, the
export that `tarot validate` finds clean."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_runs import invoke

from tarotnotation import notation
from tarotnotation.archives.daily import daily_deal
from tarotnotation.players import Answer, HeuristicPlayer, Kind, RandomPlayer, Table
from tarotnotation.server import dailygame as daily
from tarotnotation.server.session import Session, Start
from tarotnotation.server.store import AlreadyPlayedError, GameRow, Store

PARIS = daily.parse_zone("Europe/Paris")
DAY = datetime.date(2026, 12, 5)
NOON = int(daily.day_start(DAY, PARIS)) + 12 * 3600
KEY = bytes(range(32))


@pytest.fixture
def store(database: str) -> Iterator[Store]:
    s = Store.open(database)
    s.migrate(now=1)
    yield s
    s.close()


def _player(store: Store, name: str = "Ana") -> str:
    return store.add_player(name, f"hash-{name}", now=NOON).id


def _start(store: Store, player_id: str, *, now: int = NOON, address: str = "a1"
           ) -> GameRow:
    return daily.start(store, KEY, player_id, address_key=address, now=now, zone=PARIS,
                       max_games=100)


def _play_to_the_end(store: Store, game: GameRow, seed: int = 3, *, now: int = NOON
                     ) -> None:
    """The player answers as a random bot would, one answer at a time, through the store."""
    me = RandomPlayer(seed=seed)
    while True:
        row = store.game(game.id)
        assert row is not None
        if row.state != "playing":
            return
        table = daily.session_of(store, KEY, row).table
        d = table.pending()
        assert d is not None
        assert d.seat == "S"
        a = table.ask(me)  # the answer the player would send
        daily.answer(store, KEY, row, Answer(a.seat, a.kind, a.value), now=now)


def test_the_days_deal_is_secret_without_the_key() -> None:
    deal = daily.day_deal(KEY, DAY)
    assert deal == daily.day_deal(KEY, DAY)
    assert deal.hands != daily.day_deal(bytes(32), DAY).hands
    assert deal.hands != daily.day_deal(KEY, DAY + datetime.timedelta(days=1)).hands
    assert deal.hands != daily_deal(DAY).hands  # not the public deal of `tarot new --daily`
    assert sorted(len(h) for h in (deal.hands or {}).values()) == [18, 18, 18, 18]
    assert deal.first_seat == "S"


def test_the_key_is_made_at_the_first_start_and_kept(store: Store) -> None:
    key = daily.key_of(store)
    assert len(key) == 32
    assert daily.key_of(store) == key


def test_the_day_begins_at_midnight_in_the_time_zone() -> None:
    start = daily.day_start(DAY, PARIS)
    assert daily.day_of(start, PARIS) == DAY
    assert daily.day_of(start - 1, PARIS) == DAY - datetime.timedelta(days=1)
    # midnight in Paris is 23:00 UTC the day before, in winter
    assert daily.day_of(start, daily.parse_zone("UTC")) == DAY - datetime.timedelta(days=1)
    spring = datetime.date(2026, 3, 29)  # the clocks go forward: a day of 23 hours
    length = daily.day_start(spring + datetime.timedelta(days=1), PARIS) - daily.day_start(
        spring, PARIS)
    assert length == 23 * 3600


def test_a_time_zone_that_does_not_exist_is_refused() -> None:
    with pytest.raises(ValueError, match="not a time zone"):
        daily.parse_zone("Europe/Atlantis")
    with pytest.raises(ValueError, match="not a time zone"):
        daily.parse_zone("../../etc/passwd")


def test_one_attempt_per_player_and_per_address(store: Store) -> None:
    ana, bruno = _player(store, "Ana"), _player(store, "Bruno")
    _start(store, ana)
    with pytest.raises(AlreadyPlayedError):
        _start(store, ana, address="a2")
    with pytest.raises(AlreadyPlayedError):  # a new name from the same address
        _start(store, bruno, address="a1")
    tomorrow = int(daily.day_start(DAY + datetime.timedelta(days=1), PARIS))
    assert _start(store, ana, now=tomorrow).day == "2026-12-06"


def test_games_in_progress_are_bounded(store: Store) -> None:
    ana, bruno = _player(store, "Ana"), _player(store, "Bruno")
    daily.start(store, KEY, ana, address_key="a1", now=NOON, zone=PARIS, max_games=1)
    with pytest.raises(daily.TooManyGamesError):
        daily.start(store, KEY, bruno, address_key="a2", now=NOON, zone=PARIS, max_games=1)
    assert store.game_of(bruno, "2026-12-05") is None


def test_a_game_is_played_to_its_end_through_the_store(store: Store) -> None:
    game = _start(store, _player(store))
    assert game.deal is not None
    assert notation.loads(game.deal).hands == daily.day_deal(KEY, DAY).hands
    _play_to_the_end(store, game)
    row = store.game(game.id)
    assert row is not None
    assert row.state == "over"
    (result,) = store.results(first_day="2026-12-05", last_day="2026-12-05")
    record = notation.loads(result.record)
    assert record.player("S") == "Ana"
    assert record.player("E") == "bot (E)"
    assert record.result is not None
    assert result.score == (record.result.scores or {}).get("S", 0)
    assert len(store.answers(game.id)) == len(daily.session_of(store, KEY, row).logs[0])


def test_a_card_the_rules_forbid_is_refused_and_nothing_is_written(store: Store) -> None:
    game = _start(store, _player(store))
    before = store.answers(game.id)
    with pytest.raises(daily.RefusedError) as refused:  # a card while the auction runs
        daily.answer(store, KEY, game, Answer("S", Kind.PLAY, "T21"), now=NOON)
    assert refused.value.code == "not-your-turn"
    with pytest.raises(daily.RefusedError):  # another seat's answer
        daily.answer(store, KEY, game, Answer("E", Kind.BID, "pass"), now=NOON)
    with pytest.raises(daily.RefusedError) as refused:  # a bid that is no bid
        daily.answer(store, KEY, game, Answer("S", Kind.BID, "grande"), now=NOON)
    assert refused.value.code == "bad-answer"
    assert store.answers(game.id) == before


def test_the_bots_are_the_same_in_every_game_of_the_day(store: Store) -> None:
    a = _start(store, _player(store, "Ana"), address="a1")
    b = _start(store, _player(store, "Bruno"), address="a2")
    _play_to_the_end(store, a, seed=3)
    _play_to_the_end(store, b, seed=3)
    ra, rb = (notation.loads(r.record) for r in store.results(first_day="2026-12-05",
                                                             last_day="2026-12-05"))
    assert ra.play == rb.play  # the same answers from the player: the same deal played


def _row(day: datetime.date) -> GameRow:
    """A game of ``day`` under the test's key, as the store would hand it back."""
    return GameRow("g", "p", day.isoformat(), None, str(daily.day_deal(KEY, day)), "S",
                   "playing", 0, 0, None)


def test_the_daily_bots_are_tarot_plays_default_bot_with_the_daily_thresholds() -> None:
    start = daily.start_of(KEY, _row(DAY))
    assert start.bots == Start().bots == "heuristic"  # tarot play's default bot
    session = Session(start)
    assert sorted(session.bots) == ["E", "N", "W"]
    for seat_bot in session.bots.values():
        assert isinstance(seat_bot, HeuristicPlayer)
        assert seat_bot.thresholds == daily.BOT_THRESHOLDS
    # derived from the key and the day alone: a restart makes the same bots
    assert daily.start_of(KEY, _row(DAY)) == start
    assert Session(daily.start_of(KEY, _row(DAY))).bots == session.bots


def test_a_start_with_a_setting_its_bot_has_not_is_refused() -> None:
    """The bots' settings are checked when the session's start is made, not at the first
    bot's answer."""
    with pytest.raises(ValueError, match="the bot random has no setting thresholds"):
        Start(bots="random", settings=(("thresholds", daily.BOT_THRESHOLDS),))
    east = Start(settings=(("thresholds", daily.BOT_THRESHOLDS),)).player("E")
    assert isinstance(east, HeuristicPlayer)
    assert east.thresholds == daily.BOT_THRESHOLDS


def test_a_deal_the_player_passes_is_rarely_passed_out() -> None:
    """docs/serve.md: with the daily thresholds, about one day in seven when the player
    passes (the bot's own thresholds: two days in three)."""
    days = 300
    passed_out = 0
    for n in range(days):
        session = Session(daily.start_of(KEY, _row(DAY + datetime.timedelta(days=n))))
        assert session.answer(Answer("S", Kind.BID, "pass")) is None
        passed_out += session.game.is_over()
    assert 0 < passed_out <= days // 5


def _an_all_pass_day() -> datetime.date:
    """A day whose bots all pass when South passes (found, as the key is fixed)."""
    for n in range(200):
        day = DAY + datetime.timedelta(days=n)
        row = GameRow("g", "p", day.isoformat(), None, str(daily.day_deal(KEY, day)), "S",
                      "playing", 0, 0, None)
        session = Session(daily.start_of(KEY, row))
        assert session.answer(Answer("S", Kind.BID, "pass")) is None
        if session.game.is_over():  # (annulled: South's pass was the bidding's last word)
            return day
    raise AssertionError("no day of all passes in 200")


def test_all_pass_deals_no_other_deal_and_asks_nothing_more() -> None:
    """The page is shown the annulled deal over, not a bid of a deal dealt again that the
    server would refuse (409 game-over)."""
    day = _an_all_pass_day()
    row = GameRow("g", "p", day.isoformat(), None, str(daily.day_deal(KEY, day)), "S",
                  "playing", 0, 0, None)
    session = Session(daily.start_of(KEY, row))
    assert session.answer(Answer("S", Kind.BID, "pass")) is None
    assert len(session.logs) == 1
    assert session.game.is_over()
    assert session.table.pending() is None


def test_all_pass_ends_the_game_annulled_and_it_counts_as_played(store: Store) -> None:
    day = _an_all_pass_day()
    now = int(daily.day_start(day, PARIS)) + 3600
    game = _start(store, _player(store), now=now)
    daily.answer(store, KEY, game, Answer("S", Kind.BID, "pass"), now=now)
    row = store.game(game.id)
    assert row is not None
    assert row.state == "over"
    (result,) = store.results(first_day=day.isoformat(), last_day=day.isoformat())
    assert result.score == 0
    record = notation.loads(result.record)
    assert record.result is not None
    assert record.result.annulled


def test_a_game_left_half_played_expires_and_counts_as_played(store: Store) -> None:
    game = _start(store, _player(store))
    daily.answer(store, KEY, game, Answer("S", Kind.BID, "pass"), now=NOON)
    row = store.game(game.id)
    assert row is not None
    if row.state == "over":  # (all passed: nothing left to expire on this day)
        pytest.skip("the day's bots all passed")
    after = 600
    assert daily.expire(store, KEY, now=NOON + after - 1, expire_after=after).finished == ()
    done = daily.expire(store, KEY, now=NOON + after, expire_after=after)
    assert done.finished == (game.id,)
    assert done.failed == ()
    row = store.game(game.id)
    assert row is not None
    assert (row.state, row.expired) == ("expired", NOON + after)
    (result,) = store.results(first_day="2026-12-05", last_day="2026-12-05")
    record = notation.loads(result.record)
    assert record.result is not None
    assert record.result.scores is not None or record.result.annulled
    assert daily.expire(store, KEY, now=NOON + 10 * after, expire_after=after).finished == ()


def test_an_expired_game_plays_the_players_seat_by_the_days_bot(store: Store) -> None:
    """The player's seat is played out by the same bot as the other seats: each answer
    written at expiry for South is the one the day's bot gives at that point."""
    game = _start(store, _player(store))
    row = store.game(game.id)
    assert row is not None
    session = daily.session_of(store, KEY, row)
    pending = session.table.pending()
    assert pending is not None
    assert pending.kind is Kind.BID
    daily.answer(store, KEY, row, Answer("S", Kind.BID, "garde"), now=NOON)  # then leaves
    given = len(store.answers(game.id))
    done = daily.expire(store, KEY, now=NOON + 600, expire_after=600)
    assert done.finished == (game.id,)
    log = [Answer(a.seat, Kind(a.kind), a.value) for a in store.answers(game.id)]
    start = daily.start_of(KEY, row)
    days_bot = start.player("S")
    assert isinstance(days_bot, HeuristicPlayer)
    assert days_bot.thresholds == daily.BOT_THRESHOLDS
    deal = start.game(0)
    played_for_south = 0
    for i in range(given, len(log)):
        if log[i].seat != "S":
            continue
        table = Table.restore(start.game(0), log[:i])
        assert table.ask(days_bot) == log[i], i
        played_for_south += 1
    assert played_for_south >= 18  # at least South's eighteen cards
    assert Table.restore(deal, log).game.is_over()


def test_one_broken_game_never_stops_the_others_expiring(store: Store) -> None:
    good = _start(store, _player(store, "Ana"), address="a1")
    bad = _start(store, _player(store, "Bruno"), address="a2")
    # a stored answer the rules refuse (written behind the server's back)
    store.add_answer(bad.id, len(store.answers(bad.id)), "S", "play", "T21", now=NOON)
    done = daily.expire(store, KEY, now=NOON + 10_000, expire_after=600)
    assert done.finished == (good.id,)
    assert [g for g, _ in done.failed] == [bad.id]


@pytest.mark.process
def test_the_export_waits_for_the_days_end_and_validates_clean(store: Store,
                                                              tmp_path: Path) -> None:
    a = _start(store, _player(store, "Ana"), address="a1")
    _start(store, _player(store, "Bruno"), address="a2")  # left half played
    _play_to_the_end(store, a)
    end = int(daily.day_start(DAY + datetime.timedelta(days=1), PARIS))
    with pytest.raises(ValueError, match="not over"):
        daily.export(store, KEY, DAY, tmp_path, now=end - 1, zone=PARIS, expire_after=600)
    deal, games = daily.export(store, KEY, DAY, tmp_path, now=end, zone=PARIS,
                               expire_after=600, budget=20_000)
    assert deal == tmp_path / "2026-12-05" / "deal.tarot"
    assert notation.loads(deal.read_text()).hands == daily.day_deal(KEY, DAY).hands
    text = games.read_text()
    assert text.count("[Event ") == 2
    assert "Ana" in text
    assert "Bruno" in text
    assert "dd" in text  # the solver's comments
    ran = invoke("validate", str(deal), str(games))
    assert ran.code == 0, ran.out + ran.err
