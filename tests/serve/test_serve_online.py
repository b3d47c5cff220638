"""The web application of `tarot serve` (server/online.py) on SQLite and PostgreSQL: names
and tokens, today's game, leaderboards, and a hostile client refused with a clear 4xx
that changes nothing."""

from __future__ import annotations

import datetime
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from tarotnotation.server import dailygame
from tarotnotation.server.online import Server, make_serve_app, sweep_once
from tarotnotation.server.quotas import Limits
from tarotnotation.server.store import Store

PARIS = dailygame.parse_zone("Europe/Paris")
DAY = datetime.date(2026, 12, 5)
NOON = dailygame.day_start(DAY, PARIS) + 12 * 3600


class Clock:
    """The tests' clock: it moves when told."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def store(database: str) -> Iterator[Store]:
    s = Store.open(database)
    s.migrate(now=1)
    yield s
    s.close()


def _client(store: Store, clock: Clock, limits: Limits | None = None,
            address: str = "203.0.113.9") -> TestClient:
    server = Server(store, PARIS, limits or Limits(), clock=clock)
    return TestClient(make_serve_app(server), client=(address, 50000))


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _counts(store: Store) -> tuple[int, int, int]:
    day = DAY.isoformat()
    return (len(store.games()), sum(len(store.answers(g.id)) for g in store.games()),
            len(store.results(first_day=day, last_day=day)))


def test_a_name_gives_a_token_once_and_the_token_finds_the_player(store: Store) -> None:
    with _client(store, Clock(NOON)) as c:
        r = c.post("/api/players", json={"name": "Zoé"})
        assert r.status_code == 201
        token = r.json()["token"]
        assert r.json()["name"] == "Zoé"
        assert c.get("/api/me", headers=_auth(token)).json() == {"name": "Zoé", "today": None}
        r = c.post("/api/players", json={"name": "ZOÉ"})
        assert r.json()["refused"]["code"] == "name-taken"
        assert c.post("/api/players", json={"name": "<b>"}).json()["refused"]["code"] == "bad-name"
        assert c.get("/api/me").status_code == 401
    player = store.player_by_name("zoé")
    assert player is not None
    assert token not in repr(store.player(player.id))


def test_new_names_are_rate_limited_per_address(store: Store) -> None:
    limits = Limits(new_tokens_burst=2, new_tokens_per_hour=1)
    with _client(store, Clock(NOON), limits) as c:
        assert c.post("/api/players", json={"name": "A1"}).status_code == 201
        assert c.post("/api/players", json={"name": "A2"}).status_code == 201
        r = c.post("/api/players", json={"name": "A3"})
        assert (r.status_code, r.json()["refused"]["code"]) == (429, "too-many-names")
    with _client(store, Clock(NOON), limits, address="198.51.100.1") as c:
        assert c.post("/api/players", json={"name": "A3"}).status_code == 201
    assert store.player_by_name("A2") is not None


def test_todays_game_is_started_once_and_resumed(store: Store) -> None:
    with _client(store, Clock(NOON)) as c:
        token = c.post("/api/players", json={"name": "Ana"}).json()["token"]
        r = c.post("/api/daily", headers=_auth(token))
        assert r.status_code == 201
        game = r.json()["game"]
        again = c.post("/api/daily", headers=_auth(token))
        assert (again.status_code, again.json()["game"], again.json()["resumed"]) == (
            200, game, True)
        assert c.get("/api/me", headers=_auth(token)).json()["today"] == {
            "game": game, "state": "playing"}


def test_the_leaderboards_answer(store: Store) -> None:
    with _client(store, Clock(NOON)) as c:
        for period in ("day", "week", "month"):
            r = c.get(f"/api/leaderboard/{period}", params={"date": "2026-12-05"})
            assert r.status_code == 200
            assert r.json() == {"period": period, "date": "2026-12-05", "rows": []}
        assert c.get("/api/leaderboard/year").status_code == 404
        assert c.get("/api/leaderboard/day", params={"date": "5/12/2026"}).status_code == 400
        token = c.post("/api/players", json={"name": "Ana"}).json()["token"]
        assert c.get("/api/me/history", headers=_auth(token)).json() == {
            "player": "Ana", "days": []}


# --- the hostile client ------------------------------------------------------------------


def test_a_forged_or_malformed_token_is_refused(store: Store) -> None:
    with _client(store, Clock(NOON)) as c:
        c.post("/api/players", json={"name": "Ana"})
        before = _counts(store)
        for header in ("Bearer " + "A" * 43, "Bearer x", "Basic YWxhZGRpbjpvcGVu", "A" * 43):
            r = c.post("/api/daily", headers={"Authorization": header})
            assert (r.status_code, r.json()["refused"]["code"]) == (401, "no-token")
        r = c.post("/api/daily", params={"token": "A" * 43})  # never from the address
        assert r.status_code == 401
    assert _counts(store) == before


def test_a_second_attempt_under_a_new_name_from_the_same_address_is_refused(
        store: Store) -> None:
    with _client(store, Clock(NOON)) as c:
        first = c.post("/api/players", json={"name": "Ana"}).json()["token"]
        assert c.post("/api/daily", headers=_auth(first)).status_code == 201
        other = c.post("/api/players", json={"name": "Ana2"}).json()["token"]
        before = _counts(store)
        r = c.post("/api/daily", headers=_auth(other))
        assert (r.status_code, r.json()["refused"]["code"]) == (409, "already-played")
    assert _counts(store) == before


def test_a_game_left_expires_and_cannot_be_played_again(store: Store) -> None:
    clock = Clock(NOON)
    server = Server(store, PARIS, Limits(expire_after=600), clock=clock)
    with TestClient(make_serve_app(server), client=("203.0.113.9", 1)) as c:
        token = c.post("/api/players", json={"name": "Ana"}).json()["token"]
        game = c.post("/api/daily", headers=_auth(token)).json()["game"]
        clock.now += 599
        assert sweep_once(server).finished == ()
        clock.now += 1
        assert sweep_once(server).finished == (game,)
        assert c.get("/api/me", headers=_auth(token)).json()["today"] == {
            "game": game, "state": "expired"}
        before = _counts(store)
        r = c.post("/api/daily", headers=_auth(token))
        assert (r.status_code, r.json()["refused"]["code"]) == (409, "already-played")
    assert _counts(store) == before


def test_a_10_mb_body_is_refused_before_it_is_read(store: Store) -> None:
    with _client(store, Clock(NOON)) as c:
        r = c.post("/api/players", content=b"{" + b" " * (10 * 1024 * 1024) + b"}",
                   headers={"Content-Type": "application/json"})
        assert (r.status_code, r.json()["refused"]["code"]) == (413, "too-large")

        def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it comes
            for _ in range(160):
                yield b" " * 65536

        r = c.post("/api/players", content=chunks(),
                   headers={"Content-Type": "application/json"})
        assert r.status_code == 413
    assert store.player_by_name("x") is None
    assert _counts(store) == (0, 0, 0)


def test_a_thousand_requests_a_second_are_refused_past_the_rate(store: Store) -> None:
    clock = Clock(NOON)
    limits = Limits(address_rate=20, address_burst=50, token_rate=5, token_burst=10)
    with _client(store, clock, limits) as c:
        token = c.post("/api/players", json={"name": "Ana"}).json()["token"]
        codes = [c.get("/api/me", headers=_auth(token)).status_code for _ in range(1000)]
        assert codes.count(200) == 10  # the token's burst (the clock stands still)
        assert set(codes) == {200, 429}
        r = c.get("/api/leaderboard/day")
        assert r.status_code == 429  # the address's bucket is empty too
        assert int(r.headers["Retry-After"]) >= 1
        clock.now += 0.2  # one of the token's back (and four of the address's)
        assert c.get("/api/me", headers=_auth(token)).status_code == 200
        assert c.get("/api/me", headers=_auth(token)).status_code == 429
    assert _counts(store) == (0, 0, 0)


def test_a_forwarded_address_is_believed_only_from_a_trusted_proxy(store: Store) -> None:
    from tarotnotation.server.quotas import trusted_proxies

    limits = Limits(new_tokens_burst=1)
    server = Server(store, PARIS, limits, clock=Clock(NOON),
                    proxies=trusted_proxies(["127.0.0.1"]))
    with TestClient(make_serve_app(server), client=("127.0.0.1", 1)) as proxy:
        for i, client in enumerate(["203.0.113.1", "203.0.113.2"]):
            r = proxy.post("/api/players", json={"name": f"P{i}"},
                           headers={"X-Forwarded-For": client})
            assert r.status_code == 201
    with TestClient(make_serve_app(server), client=("198.51.100.9", 1)) as direct:
        assert direct.post("/api/players", json={"name": "Q1"},
                           headers={"X-Forwarded-For": "203.0.113.77"}).status_code == 201
        assert direct.post("/api/players", json={"name": "Q2"},  # the same peer
                           headers={"X-Forwarded-For": "203.0.113.78"}).status_code == 429


def test_a_game_is_shown_in_the_viewer_once_its_day_is_over(store: Store) -> None:
    clock = Clock(NOON)
    server = Server(store, PARIS, Limits(expire_after=600), clock=clock)
    with TestClient(make_serve_app(server, sweep=None), client=("203.0.113.9", 1)) as c:
        token = c.post("/api/players", json={"name": "Ana"}).json()["token"]
        game = c.post("/api/daily", headers=_auth(token)).json()["game"]
        assert c.get(f"/games/{game}").json()["refused"]["code"] == "not-yet"  # being played
        clock.now += 600
        sweep_once(server)
        for path in (f"/games/{game}", f"/games/{game}.tarot", "/api/days/games"):
            r = c.get(path, params={"date": "2026-12-05"} if "days" in path else None)
            # the day goes on
            assert (r.status_code, r.json()["refused"]["code"]) == (403, "not-yet")
        clock.now = dailygame.day_start(DAY + datetime.timedelta(days=1), PARIS)
        page = c.get(f"/games/{game}")
        assert page.status_code == 200
        assert page.text.startswith("<!doctype html>")
        assert "Ana" in page.text
        record = c.get(f"/games/{game}.tarot").text
        assert "Ana" in record
        games = c.get("/api/days/games", params={"date": "2026-12-05"}).json()["games"]
        assert [(g["game"], g["player"]) for g in games] == [(game, "Ana")]
        assert c.get("/games/nope").status_code == 404


# --- the game through tarot play's app ---------------------------------------------------


def _first_choice(question: dict[str, object]) -> dict[str, object]:
    kind = question["kind"]
    cards = question.get("cards") or []
    assert isinstance(cards, list)
    if kind == "bid":  # the lowest bid: the player takes, so that cards get played
        bids = question.get("bids") or ["pass"]
        assert isinstance(bids, list)
        return {"kind": "bid", "value": bids[1] if len(bids) > 1 else "pass"}
    if kind == "ecart":
        size = question["size"]
        assert isinstance(size, int)
        return {"kind": "ecart", "cards": cards[:size]}
    if kind == "chelem":
        return {"kind": "chelem", "value": "no"}
    if kind == "declare":
        return {"kind": "declare", "cards": []}
    return {"kind": str(kind), "value": cards[0]}


def test_a_game_is_played_through_the_app_and_resumes_after_a_restart(store: Store) -> None:
    clock = Clock(NOON)
    server = Server(store, PARIS, Limits(), clock=clock)
    with TestClient(make_serve_app(server, sweep=None), client=("203.0.113.9", 1)) as c:
        token = c.post("/api/players", json={"name": "Ana"}).json()["token"]
        game = c.post("/api/daily", headers=_auth(token)).json()["game"]
        page = c.get(f"/play/{game}")
        assert page.status_code == 200
        state = c.get(f"/api/{game}/state", headers=_auth(token)).json()
        assert state["seat"] == "S"
        assert len(state["hand"]) == 18
        for _ in range(3):
            if state["question"] is None:
                break
            state = c.post(f"/api/{game}/action", json=_first_choice(state["question"]),
                           headers=_auth(token)).json()
        half = c.get(f"/api/{game}/state", headers=_auth(token)).json()
        answers = len(store.answers(game))
    restarted = Server(store, PARIS, Limits(), clock=clock)  # a new process, the same store
    with TestClient(make_serve_app(restarted, sweep=None), client=("203.0.113.9", 1)) as c:
        again = c.get(f"/api/{game}/state", headers=_auth(token)).json()
        assert again == half
        assert len(store.answers(game)) == answers
        while (question := again["question"]) is not None:
            again = c.post(f"/api/{game}/action", json=_first_choice(question),
                           headers=_auth(token)).json()
        row = store.game(game)
        assert row is not None
        assert row.state == "over"
        (result,) = store.results(first_day="2026-12-05", last_day="2026-12-05")
        assert result.player == "Ana"
        r = c.post(f"/api/{game}/action", json={"kind": "next"}, headers=_auth(token))
        assert (r.status_code, r.json()["refused"]["code"]) == (409, "game-over")


def test_a_hostile_player_is_refused_in_the_game_and_nothing_changes(store: Store) -> None:
    """Cards not held, out of turn, another player's game, no token, a replayed action,
    the record before the day's end: each a clear 4xx, and the store as it was."""
    with _client(store, Clock(NOON)) as c:
        ana = c.post("/api/players", json={"name": "Ana"}).json()["token"]
        game = c.post("/api/daily", headers=_auth(ana)).json()["game"]
        eve = c.post("/api/players", json={"name": "Eve"}).json()["token"]
        state = c.get(f"/api/{game}/state", headers=_auth(ana)).json()
        assert state["question"]["kind"] == "bid"
        not_held = next(code for code in ("T21", "T20", "EX", "KS", "QH")
                        if code not in state["hand"])
        before = _counts(store)
        tries = [
            (ana, {"kind": "play", "value": state["hand"][0]}),  # out of turn: a card now
            (ana, {"kind": "bid", "value": "grande"}),  # no such bid
            (ana, {"kind": "ecart", "cards": [not_held] * 6}),  # not asked, not held
            (eve, {"kind": "bid", "value": "pass"}),  # another player's game
            ("x" * 43, {"kind": "bid", "value": "pass"}),  # a forged token
        ]
        for token, action in tries:
            r = c.post(f"/api/{game}/action", json=action, headers=_auth(token))
            assert 400 <= r.status_code < 500, (action, r.status_code, r.text)
            assert r.json()["refused"]["code"], r.text
        assert c.get(f"/api/{game}/state", headers=_auth(eve)).status_code == 403
        assert c.get(f"/api/{game}/state").status_code == 401
        assert c.get(f"/api/{game}/record", headers=_auth(ana)).status_code == 403
        assert c.get(f"/api/{game}/analysis", headers=_auth(ana)).status_code == 403
        front = c.get("/")
        assert front.status_code == 200
        assert "script-src 'sha256-" in front.headers["Content-Security-Policy"]
        assert 'id="lobby-name"' in front.text
        assert _counts(store) == before
        assert c.get(f"/api/{game}/state", headers=_auth(ana)).json() == state
        # the card play: a card not held, once the player is asked for a card
        while (q := state["question"]) is not None and q["kind"] != "play":
            state = c.post(f"/api/{game}/action", json=_first_choice(q),
                           headers=_auth(ana)).json()
        assert q is not None  # (the player took: the cards are played)
        if q is not None:
            held = set(state["hand"])
            missing = next(code for code in ("T21", "T20", "T19", "EX", "KS", "KH", "KD", "KC")
                           if code not in held)
            before = _counts(store)
            r = c.post(f"/api/{game}/action", json={"kind": "play", "value": missing},
                       headers=_auth(ana))
            assert r.status_code == 409, r.text
            assert _counts(store) == before


def test_every_refusal_has_one_shape_in_the_requests_language(store: Store) -> None:
    """The guard's refusals (401, 403, 409, 413, 429) and the game's (400, 404, 409) are
    all {refused: {code, message, expected}}, their words in the Accept-Language's."""
    from tarotnotation.i18n import Msg, render

    limits = Limits(token_rate=0.001, token_burst=4, max_body=4096)
    fr = {"Accept-Language": "de, fr;q=0.9, en;q=0.1"}
    with _client(store, Clock(NOON), limits) as c:
        ana = c.post("/api/players", json={"name": "Ana"}).json()["token"]
        eve = c.post("/api/players", json={"name": "Eve"}).json()["token"]
        game = c.post("/api/daily", headers=_auth(ana)).json()["game"]
        answers = {
            401: c.get(f"/api/{game}/state", headers=fr),
            403: c.get(f"/api/{game}/state", headers={**fr, **_auth(eve)}),
            409: c.post(f"/api/{game}/action", json={"kind": "play", "value": "T21"},
                        headers={**fr, **_auth(ana)}),
            400: c.post("/api/players", json={"name": "<b>"}, headers=fr),
            404: c.get("/api/leaderboard/year", headers=fr),
            413: c.post("/api/players", content=b" " * 5000, headers=fr),
        }
        english_409 = c.post(f"/api/{game}/action", json={"kind": "play", "value": "T21"},
                             headers={"Accept-Language": "en", **_auth(ana)})
        while (r := c.get("/api/me", headers={**fr, **_auth(eve)})).status_code != 429:
            pass
        answers[429] = r
    for status, r in answers.items():
        assert r.status_code == status, r.text
        assert set(r.json()) == {"refused"}, r.text
        assert set(r.json()["refused"]) == {"code", "message", "expected"}, r.text
    assert answers[401].json()["refused"]["message"] == render(
        Msg("this needs a player's token (Authorization: Bearer TOKEN)"), "fr")
    assert answers[403].json()["refused"]["message"] == render(
        Msg("this game is another player's"), "fr")
    assert answers[413].json()["refused"]["message"] == render(
        Msg("a request is at most {n} bytes", n=4096), "fr")
    assert answers[429].json()["refused"] == {
        "code": "too-many-requests",
        "message": render(Msg("too many requests with this token: slow down"), "fr"),
        "expected": render(Msg("a request after {n} seconds", n=1000), "fr")}
    assert answers[409].json()["refused"]["code"] == "not-your-turn"
    assert answers[409].json()["refused"]["message"] != english_409.json()["refused"]["message"]


def test_the_days_deal_is_not_sent_at_the_end_of_a_game_before_midnight(store: Store) -> None:
    """The end of a daily game gives the score and the tricks, not the record (every hand
    as dealt, the chien, the écart): that, only once the day is over."""
    clock = Clock(NOON)
    server = Server(store, PARIS, Limits(), clock=clock)
    with TestClient(make_serve_app(server, sweep=None), client=("203.0.113.9", 1)) as c:
        token = c.post("/api/players", json={"name": "Ana"}).json()["token"]
        game = c.post("/api/daily", headers=_auth(token)).json()["game"]
        state = c.get(f"/api/{game}/state", headers=_auth(token)).json()
        while (question := state["question"]) is not None:
            state = c.post(f"/api/{game}/action", json=_first_choice(question),
                           headers=_auth(token)).json()
        ended = c.get(f"/api/{game}/state?since=0", headers=_auth(token)).json()
        for seen in (state, ended):
            assert seen["score"] is not None
            assert seen["record"] is None
            assert len(seen["tricks"]) == 18
        clock.now = dailygame.day_start(DAY + datetime.timedelta(days=1), PARIS)
        published = c.get(f"/api/{game}/state", headers=_auth(token)).json()
        row = store.game(game)
        assert row is not None
        assert published["record"] is not None
        assert row.deal is not None
        dealt = [line for line in row.deal.splitlines() if line.startswith(("hand ", "chien"))]
        assert len(dealt) == 5
        assert all(line in published["record"].splitlines() for line in dealt)
