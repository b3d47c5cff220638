"""The game's ASGI application in-process (Starlette's test client): the routes, the
security headers and the Content Security Policy, the bounds on a request, the refusals
in words, the record of a deal over, and --save's files written whole."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from tarotnotation.server.api import MAX_ACTION_BYTES
from tarotnotation.server.app import LocalSessions, make_app
from tarotnotation.server.session import Start


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = make_app(LocalSessions(Start(players=4, seed=8), save=tmp_path), lang="en")
    with TestClient(app, base_url="http://127.0.0.1:8000", follow_redirects=False) as c:
        yield c


def new_game(client: TestClient) -> str:
    answer = client.get("/")
    assert answer.status_code == 303
    return answer.headers["location"].rsplit("/", 1)[1]


def test_the_page_carries_the_viewers_policy_and_its_own_server_only(client: TestClient) -> None:
    sid = new_game(client)
    page = client.get(f"/play/{sid}")
    assert page.status_code == 200
    policy = page.headers["content-security-policy"]
    assert policy.startswith("default-src 'none'; script-src 'sha256-")
    assert policy.endswith("trusted-types 'none'; connect-src 'self'")
    assert f'<meta http-equiv="Content-Security-Policy" content="{policy}">' in page.text
    for name, value in {"x-content-type-options": "nosniff", "x-frame-options": "DENY",
                        "referrer-policy": "no-referrer"}.items():
        assert page.headers[name] == value
    assert client.get("/play/nobody").status_code == 404


def test_a_request_too_large_not_json_or_for_another_host_is_refused(
        client: TestClient) -> None:
    sid = new_game(client)
    big = b'{"kind": "bid", "value": "' + b"x" * MAX_ACTION_BYTES + b'"}'
    answer = client.post(f"/api/{sid}/action", content=big,
                         headers={"content-type": "application/json"})
    assert answer.status_code == 413
    assert answer.json()["refused"]["code"] == "too-large"
    answer = client.post(f"/api/{sid}/action", content=b"kind=bid",
                         headers={"content-type": "application/x-www-form-urlencoded"})
    assert answer.status_code == 415
    answer = client.post(f"/api/{sid}/action", content=b"[1, 2",
                         headers={"content-type": "application/json"})
    assert answer.status_code == 400
    assert client.get("/", headers={"host": "evil.example"}).status_code == 400


def test_an_illegal_answer_is_refused_with_the_kernels_code_and_words(
        client: TestClient) -> None:
    sid = new_game(client)
    answer = client.post(f"/api/{sid}/action", json={"kind": "play", "value": "KH"})
    assert answer.status_code == 409
    assert answer.json()["refused"]["code"] == "not-your-turn"
    state = client.get(f"/api/{sid}/state").json()
    assert state["question"]["kind"] == "bid"


def test_a_deal_played_through_the_api_gives_its_record_and_saves_it(
        client: TestClient, tmp_path: Path) -> None:
    sid = new_game(client)
    rng = random.Random(3)
    state = client.get(f"/api/{sid}/state").json()
    assert client.get(f"/api/{sid}/record").status_code == 404
    while state["question"] is not None:
        q = state["question"]
        kind = q["kind"]
        body: dict[str, object] = {"kind": kind}
        if kind == "bid":
            body["value"] = next(b for b in q["bids"] if b != "pass")
        elif kind in ("call", "play"):
            body["value"] = rng.choice(q["cards"])
        elif kind == "ecart":
            body["cards"] = rng.sample(q["cards"], q["size"])
        elif kind == "chelem":
            body["value"] = "no"
        answer = client.post(f"/api/{sid}/action?since={state['seen']}", json=body)
        assert answer.status_code == 200, answer.text
        state = answer.json()
        assert all(e["index"] >= 0 for e in state["events"])
    assert state["phase"] == "over"
    assert state["score"]["lines"]
    record = client.get(f"/api/{sid}/record?deal=0")
    assert record.status_code == 200
    assert record.headers["content-disposition"] == 'attachment; filename="deal-1.tarot"'
    assert record.text == state["record"]
    saved = list(tmp_path.glob("*.tarot"))
    assert [p.read_text(encoding="utf-8") for p in saved] == [state["record"]]
    # the next deal, once this one is over
    again = client.post(f"/api/{sid}/action", json={"kind": "next"})
    assert again.json()["deal"] == 1
    assert client.post(f"/api/{sid}/action", json={"kind": "next"}).status_code == 409


def test_memory_stays_bounded_however_often_the_page_is_opened(tmp_path: Path) -> None:
    sessions = LocalSessions(Start(players=3, seed=1), limit=4)
    made = [sessions.create() for _ in range(10)]
    assert [sessions.get(sid) is not None for sid in made] == [False] * 6 + [True] * 4


def test_an_action_says_the_bots_part_of_its_time(client: TestClient) -> None:
    """Server-Timing: bots;dur=MS, the time the bots' answers took within the action's
    (what the load benchmark leaves out): more than nothing when bots answered."""
    sid = new_game(client)
    answer = client.post(f"/api/{sid}/action", json={"kind": "bid", "value": "pass"})
    assert answer.status_code == 200
    name, _, value = answer.headers["server-timing"].partition(";dur=")
    assert name == "bots"
    assert float(value) > 0
