"""The game session of ``tarot play`` alone, through its API (no server): whole deals at
3, 4 and 5 players, the all-pass redeal, a refused card, the restore, and the property
that the page's state never holds a card the person may not see."""

from __future__ import annotations

import random
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tarotnotation.cards import Card, CardSet
from tarotnotation.i18n import render
from tarotnotation.players import view_of
from tarotnotation.replay import replay
from tarotnotation.server.api import Action, State, answer_of, state_of
from tarotnotation.server.session import Session, Start
from tarotnotation.status import Status


def choose(state: State, rng: random.Random, *, bid: bool | None = None) -> Action:
    """An action the page could send for the question of ``state``: a random legal one
    (``bid`` True: always a contract; False: always pass)."""
    q = state.question
    assert q is not None
    if q.kind == "bid":
        bids = [b for b in q.bids if b != "pass"]
        if bid is False or not bids:
            return Action(kind="bid", value="pass")
        return Action(kind="bid", value=bids[0] if bid else rng.choice(q.bids))
    if q.kind == "call":
        return Action(kind="call", value=rng.choice(q.cards))
    if q.kind == "ecart":
        return Action(kind="ecart", cards=rng.sample(q.cards, q.size))
    if q.kind == "chelem":
        return Action(kind="chelem", value="no")
    if q.kind == "declare":
        return Action(kind="declare", cards=rng.choice([[], *q.poignees]))
    return Action(kind="play", value=rng.choice(q.cards))


def play_out(session: Session, rng: random.Random, *, bid: bool | None = None,
             each: Any = None) -> State:
    """Answer every question of the deal in progress as the page would; the last state."""
    since = 0
    state = state_of(session, since, "en")
    while state.question is not None:
        if each is not None:
            each(session, state)
        refusal = session.answer(answer_of(choose(state, rng, bid=bid), session.human))
        assert refusal is None, refusal
        since = state.seen
        state = state_of(session, since, "en")
    return state


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_whole_deal_by_the_api(players: int) -> None:
    session = Session(Start(players=players, seed=players))
    state = play_out(session, random.Random(1), bid=True)
    assert state.phase == "over"
    assert state.score is not None
    assert state.record is not None
    assert state.taker is not None
    rep = session.game.result()
    assert rep.ok
    assert rep.status is Status.SCORED
    assert sum(state.score.scores.values()) == 0
    assert state.score.scores == dict(rep.scores or {})
    assert state.score.lines
    assert f"by {state.taker}" in state.score.lines[0]
    from tarotnotation import notation

    again = notation.loads(state.record)
    assert replay(again).ok


def test_all_pass_annuls_the_deal_and_deals_a_new_one() -> None:
    for seed in range(60):
        session = Session(Start(players=4, seed=seed))
        state = state_of(session, 0, "en")
        if state.question is None or state.question.kind != "bid":
            continue
        assert session.answer(answer_of(Action(kind="bid", value="pass"), "S")) is None
        if session.number == 1 and session.records[0].result is not None \
                and session.records[0].result.annulled:
            break
    else:
        pytest.fail("no seed below 60 where every player passes after S")
    state = state_of(session, 0, "en")
    assert state.deal == 1
    assert state.deals[0].annulled
    assert state.phase != "over"
    assert len(state.hand) == 18
    first = replay(session.records[0])
    assert first.status is Status.ANNULLED
    assert first.ok
    # the first deal's events are only its bids: every one a pass
    assert {e.value for e in state.events if e.deal == 0} == {"pass"}
    # and the session comes back as it was from its start and logs
    assert state_of(Session(session.start, session.logs), 0, "en") == state


def test_a_refused_card_leaves_the_state_unchanged() -> None:
    rng = random.Random(4)
    for seed in range(40):
        session = Session(Start(players=4, seed=seed))
        state = play_out_until_refused(session, rng)
        if state is not None:
            break
    else:
        pytest.fail("no deal where S holds a card he may not play")
    assert state.question is not None
    card = sorted(state.question.refused)[0]
    logs = session.logs
    refusal = session.answer(answer_of(Action(kind="play", value=card), "S"))
    assert refusal is not None
    assert refusal.code.startswith("P1")
    assert render(refusal.message, "en") == state.question.refused[card]
    assert session.logs == logs
    assert state_of(session, 0, "en") == state_of(Session(session.start, logs), 0, "en")


def play_out_until_refused(session: Session, rng: random.Random) -> State | None:
    state = state_of(session, 0, "en")
    while state.question is not None:
        if state.question.kind == "play" and state.question.refused:
            return state_of(session, 0, "en")
        assert session.answer(answer_of(choose(state, rng, bid=True), "S")) is None
        state = state_of(session, 0, "en")
    return None


def test_an_answer_out_of_turn_or_unknown_is_refused_in_words() -> None:
    session = Session(Start(players=4, seed=2))
    refusal = session.answer(answer_of(Action(kind="play", value="KH"), "S"))
    assert refusal is not None
    assert refusal.code == "not-your-turn"
    refusal = session.answer(answer_of(Action(kind="bid", value="grande"), "S"))
    assert refusal is not None
    assert refusal.code == "bad-answer"
    assert "grande" in render(refusal.message, "fr")


def test_the_daily_deal_is_the_days_hands_and_the_same_bots() -> None:
    from datetime import date

    from tarotnotation.archives.daily import daily_deal

    a = Session(Start(players=4, daily="2026-11-14"))
    assert a.game.dealt == daily_deal(date(2026, 11, 14), 4).hands
    b = Session(Start(players=4, daily="2026-11-14"))
    rng_a, rng_b = random.Random(7), random.Random(7)
    assert play_out(a, rng_a, bid=True) == play_out(b, rng_b, bid=True)


# --- the page never receives a card South may not see ---------------------------------

def seen_by(session: Session) -> CardSet:
    """Every card the person's seat may have seen now (from view_of)."""
    v = view_of(session.game, session.human)
    seen = v.hand | v.played | v.ecart_shown
    for part in (v.chien, v.ecart):
        if part is not None:
            seen = seen | part
    for d in v.declarations:
        cards = getattr(d, "cards", None)
        if cards is not None:
            seen = seen | cards
    return seen


def cards_in(state: State) -> set[str]:
    """Every card code in the state's fields that say where a card is (not the card
    called, nor the cards that may be called: names, not cards seen), the record once the
    deal is over left out."""
    found: set[str] = set(state.hand)
    for part in (state.chien, state.ecart, state.ecart_shown):
        found.update(part or ())
    for t in (*state.tricks, *((state.trick,) if state.trick else ())):
        found.update(t.cards)
    found.update(c for d in state.declarations for c in d.get("cards", ()))  # type: ignore[attr-defined]
    for e in state.events:
        if e.kind in ("play", "ecart"):
            found.update(e.value.split())
        elif e.kind == "declare":
            found.update(c for d in orjson.loads(e.value) for c in d.get("cards", ()))
    q = state.question
    if q is not None and q.kind != "call":
        found.update(q.cards)
        found.update(q.refused)
        found.update(c for p in q.poignees for c in p)
    return found


@settings(max_examples=30)
@given(seed=st.integers(0, 2**32), players=st.sampled_from([3, 4, 5]),
       choices=st.integers(0, 2**16))
def test_the_state_never_holds_a_card_south_may_not_see(seed: int, players: int,
                                                         choices: int) -> None:
    session = Session(Start(players=players, seed=seed))

    def check(s: Session, state: State) -> None:
        seen = {c.code for c in seen_by(s)}
        assert cards_in(state) <= seen, cards_in(state) - seen
        assert cards_in(state_of(s, 0, "en")) <= seen
        # what a card the page shows is: a code the notation knows
        for c in cards_in(state):
            Card.from_code(c)

    last = play_out(session, random.Random(choices), each=check)
    assert cards_in(last) <= {c.code for c in seen_by(session)}


def _to_the_declare_question(session: Session, until: tuple[str, ...] = ("declare",)
                             ) -> State:
    """Pass, and give the first of each choice, until the person is asked to declare
    (or another question of ``until``)."""
    for _ in range(60):
        state = state_of(session, 0, "en")
        q = state.question
        assert q is not None
        if q.kind in until:
            return state
        action = (Action(kind="bid", value="pass") if q.kind == "bid" else
                  Action(kind="chelem", value="no") if q.kind == "chelem" else
                  Action(kind="ecart", cards=q.cards[:q.size]) if q.kind == "ecart" else
                  Action(kind=q.kind, value=q.cards[0]))
        assert session.answer(answer_of(action, "S")) is None
    pytest.fail("never asked to declare")


def test_a_misere_the_kernel_finds_true_is_offered_and_declared() -> None:
    """Under misere=on the declare question offers the misères misere_faults finds true
    (seed 165: South holds no face card, and trumps: a misère de tête only); one that is
    false is refused in the kernel's words; without misere=on none is offered."""
    from tarotnotation.kernel import misere_faults
    from tarotnotation.records import Misere
    from tarotnotation.rules import MisereKind

    start = Start(players=4, rules="pagat misere=on", seed=165, bots="random")
    state = _to_the_declare_question(Session(start))
    assert state.question is not None
    hand = CardSet.from_cards(Card.from_code(c) for c in state.hand)
    assert state.question.miseres == ["tete"]
    assert misere_faults(hand.bits, MisereKind.TETE) == 0
    assert misere_faults(hand.bits, MisereKind.ATOUT) != 0
    session = Session(start)
    _to_the_declare_question(session)
    refusal = session.answer(answer_of(Action(kind="declare", value="atout"), "S"))
    assert refusal is not None
    assert session.answer(answer_of(Action(kind="declare", value="tete"), "S")) is None
    assert Misere(seat="S", misere=MisereKind.TETE) in session.game.declarations
    plain = _to_the_declare_question(Session(Start(players=4, seed=165, bots="random")),
                                     until=("declare", "play"))
    assert plain.question is not None
    assert plain.question.kind == "play"  # (no poignée, no misère: nothing asked)


def test_tarot_play_seats_the_sessions_default_bot_unless_told() -> None:
    # cli/play.py writes its default as text (the command line imports no server at
    # start): it must be the session's, which the daily game seats too
    import inspect

    from cli.play import play
    from tarotnotation.server.session import DEFAULT_BOT

    option = inspect.signature(play).parameters["bots"].default
    assert option == DEFAULT_BOT == Start(players=4, rules="fft", seed=1).bots
