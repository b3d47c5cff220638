"""Property tests (hypothesis): invariants of deals, legality, scoring, cards and JSON.

The legal-move function is checked against :func:`reference_legal`, a second, deliberately
plain implementation of docs/rules.md §6 written here from the rules text: it works on card
*codes* (strings), with lists, and shares nothing with :mod:`tarotnotation.legality` or
the bitsets of :mod:`tarotnotation.cards`.

Example counts come from the hypothesis profile loaded in ``conftest.py`` (``ci`` by
default, ``slow`` under ``TAROT_SLOW=1``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st
from strategies import (
    PLAYER_COUNTS,
    legal_deals,
    outcome_records,
    records,
)

from tarotnotation.cards import ALL_MASK, Card, CardSet, card_points
from tarotnotation.legality import legal_cards, why_illegal
from tarotnotation.records import DealRecord, PlayedCard, Trick
from tarotnotation.replay import Replay, Status, legal_moves, replay
from tarotnotation.rules import (
    Camp,
    Contract,
    FivePlayerFirstLead,
    PoigneeSize,
    Ruleset,
)
from tarotnotation.scoring import DealFacts, score

# --- docs/rules.md, written out independently of the library ---------------------------------

_FACES = {"K": 9, "Q": 7, "N": 5, "J": 3}
_FACE_RANKS = {"J": 11, "N": 12, "Q": 13, "K": 14}


def half_points(code: str) -> int:
    """§1: bout 9, King 9, Queen 7, Knight 5, Jack 3, every other card 1 (half-points)."""
    if code in ("T1", "T21", "EX"):
        return 9
    if code.startswith("T"):
        return 1
    return _FACES.get(code[:-1], 1)


def suit_of(code: str) -> str:
    """``S``, ``H``, ``D``, ``C`` for plain cards, ``T`` for trumps, ``EX`` for the Excuse."""
    if code == "EX":
        return "EX"
    if code.startswith("T"):
        return "T"
    return code[-1]


def rank_of(code: str) -> int:
    """1..14 within a plain suit, 1..21 for a trump."""
    if code.startswith("T"):
        return int(code[1:])
    head = code[:-1]
    return _FACE_RANKS[head] if head in _FACE_RANKS else int(head)


def reference_legal(hand: Sequence[str], trick: Sequence[str], called: str | None = None
                    ) -> set[str]:
    """The cards of ``hand`` that may be played after ``trick`` (docs/rules.md §6), by the text.

    ``called`` is the called card, passed for the first trick at five players under
    ``five_player_first_lead = no_called_suit``.
    """
    hand = list(hand)
    excuse = [c for c in hand if c == "EX"]
    # "If it [the Excuse] is led, the next card played sets the suit to follow."
    real = [c for c in trick if c != "EX"]
    if not real:
        # Leading, or the first card after a led Excuse: free ...
        if called is not None and not trick:
            # ... except that at the first trick nobody may lead the called suit, except
            # the called card itself. (This binds the lead only, not after a led Excuse.)
            allowed = [c for c in hand if suit_of(c) != suit_of(called) or c == called]
            if allowed:
                return set(allowed)
        return set(hand)
    led = suit_of(real[0])
    my_trumps = [c for c in hand if suit_of(c) == "T"]
    highest = max((rank_of(c) for c in trick if suit_of(c) == "T"), default=0)
    higher = [c for c in my_trumps if rank_of(c) > highest]
    if led != "T":
        # "Suit led: follow suit if you can (any card of that suit)."
        same = [c for c in hand if suit_of(c) == led]
        if same:
            return set(same + excuse)
        # "If you cannot, you must trump. If a trump is already in the trick, you must
        # play a higher trump if you can; if you cannot, you still play a trump."
        if my_trumps:
            if higher:
                return set(higher + excuse)
            return set(my_trumps + excuse)
        # "With neither the suit nor a trump, play any card."
        return set(hand)
    # "Trump led: play a higher trump than the highest so far if you can, else any trump,
    # else any card." The Excuse may always be played instead.
    if higher:
        return set(higher + excuse)
    if my_trumps:
        return set(my_trumps + excuse)
    return set(hand)


_THRESHOLD_POINTS = {3: 36, 2: 41, 1: 51, 0: 56}
_MULTIPLIER = {Contract.PRISE: 1, Contract.GARDE: 2, Contract.GARDE_SANS: 4,
               Contract.GARDE_CONTRE: 6}
_POIGNEE_POINTS = {PoigneeSize.SIMPLE: 20, PoigneeSize.DOUBLE: 30, PoigneeSize.TRIPLE: 40}
_CHIEN_SIZE = {3: 6, 4: 6, 5: 3}
_TRICKS = {3: 24, 4: 18, 5: 15}
_CODES = [c.code for c in Card]


# --- random legal deals -----------------------------------------------------------------


def _check_legal_deal(rec: DealRecord) -> Replay:
    r = replay(rec)
    assert r.ok, [str(d) for d in r.errors]
    assert r.status is Status.SCORED
    assert r.scores is not None
    assert r.taker_half is not None
    assert r.defence_half is not None
    assert sum(r.scores.values()) == 0
    assert r.taker_half + r.defence_half == 182
    assert 0 <= r.taker_half <= 182
    assert r.bouts is not None
    assert 0 <= r.bouts <= 3
    assert len(r.tricks) == _TRICKS[rec.players]
    played: list[str] = []
    for tr in r.tricks:
        codes = [c.code for c in tr.cards]
        assert len(codes) == rec.players
        assert tr.points == sum(half_points(c) for c in codes)
        played.extend(codes)
    assert len(set(played)) == len(played) == 78 - _CHIEN_SIZE[rec.players]
    unplayed = set(_CODES) - set(played)
    assert sum(tr.points for tr in r.tricks) + sum(half_points(c) for c in unplayed) == 182
    # The recorded result is the replay's own: replaying it again changes nothing.
    assert rec.result is not None
    assert rec.result.scores == dict(r.scores)
    return r


@pytest.mark.parametrize("contract", list(Contract), ids=lambda c: c.keyword)
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_random_legal_deal_invariants(players: int, contract: Contract) -> None:
    @given(legal_deals(players=players, contract=contract))
    def check(rec: DealRecord) -> None:
        assert rec.players == players
        r = _check_legal_deal(rec)
        assert r.contract is contract

    check()


@given(legal_deals(partial=True))
def test_partial_legal_deals_have_no_errors(rec: DealRecord) -> None:
    r = replay(rec)
    assert r.ok, [str(d) for d in r.errors]
    complete = (len(rec.play) == _TRICKS[rec.players]
                and all(len(t.cards) == rec.players for t in rec.play))
    assert r.status is (Status.SCORED if complete else
                        Status.INCOMPLETE if rec.play else Status.UNSCORED)


@given(legal_deals(partial=True))
def test_written_seats_and_leaders_change_nothing(rec: DealRecord) -> None:
    r = replay(rec)
    ids = rec.seat_ids
    play = tuple(
        Trick(
            cards=tuple(PlayedCard(card=c, seat=ids[s])
                        for c, s in zip(tr.cards, tr.seats, strict=True)),
            leader=ids[tr.leader],
        )
        for tr in r.tricks
    )
    assert len(play) == len(rec.play)
    r2 = replay(rec.model_copy(update={"play": play}))
    assert r2.diagnostics == r.diagnostics
    assert r2.tricks == r.tricks
    assert r2.scores == r.scores


# --- the legal-move function against the reference ----------------------------------------


@st.composite
def positions(draw: st.DrawFn) -> tuple[list[Card], list[Card], Card | None]:
    """A hand, a partial trick consistent with it (no card in both), and maybe a called
    card (for the first lead at five players, with a hand of 15 cards)."""
    players = draw(st.sampled_from(PLAYER_COUNTS))
    cards = list(Card)
    if players == 5 and draw(st.booleans()):
        called = draw(st.sampled_from([c for c in cards if c.is_king] + [Card.DQ, Card.CN]))
        # The lead (restricted), or the card after a led Excuse (free). The called card
        # may be in the hand or elsewhere.
        trick = draw(st.sampled_from([[], [Card.EXCUSE]]))
        rest = [c for c in cards if c not in trick]
        hand = draw(st.lists(st.sampled_from(rest), min_size=15, max_size=15, unique=True))
        return hand, trick, called
    trick = draw(st.lists(st.sampled_from(cards), max_size=players - 1, unique=True))
    rest = [c for c in cards if c not in trick]
    led = next((c.suit for c in trick if c is not Card.EXCUSE), None)
    if led is not None and draw(st.booleans()):
        # Often void in the suit led, so that the trumping rules are reached.
        rest = [c for c in rest if c.suit is not led]
    hand = draw(st.lists(st.sampled_from(rest), min_size=1, max_size=24, unique=True))
    return hand, trick, None


def _assert_agrees(hand: Sequence[Card], trick: Sequence[Card], called: Card | None) -> None:
    expected = reference_legal([c.code for c in hand], [c.code for c in trick],
                               None if called is None else called.code)
    cs = CardSet.from_cards(hand)
    got = {c.code for c in legal_cards(cs, list(trick), called)}
    assert got <= {c.code for c in hand}
    assert not got - expected, f"offered illegal cards {sorted(got - expected)}"
    assert not expected - got, f"withheld legal cards {sorted(expected - got)}"
    for card in hand:
        reason = why_illegal(card, cs, list(trick), called)
        assert (reason is None) == (card.code in expected), (card.code, reason)


@given(positions())
@example(([Card.T4, Card.T9, Card.C3, Card.CK, Card.EXCUSE], [Card.H5, Card.T18], None))
@example(([Card.H2, Card.T3, Card.EXCUSE], [Card.EXCUSE, Card.H9], None))
@example(([Card.H2, Card.S3, Card.HK], [Card.EXCUSE], None))
@example(([Card.T2, Card.T20, Card.S1], [Card.T5, Card.T21], None))
@example(([Card.S1, Card.H1, Card.D1], [Card.T5], None))
@example(([Card.S1, Card.SK, Card.H1, Card.EXCUSE], [], Card.SK))
@example(([Card.S1, Card.S2, Card.H1], [], Card.SK))
@example(([Card.S1, Card.S2, Card.H1], [Card.EXCUSE], Card.SK))
def test_legal_cards_agree_with_reference(
    pos: tuple[list[Card], list[Card], Card | None],
) -> None:
    hand, trick, called = pos
    _assert_agrees(hand, trick, called)


@given(legal_deals(), st.data())
def test_legal_cards_agree_with_reference_along_deals(rec: DealRecord, data: st.DataObject
                                                      ) -> None:
    r = replay(rec)
    ids = rec.seat_ids
    hands = {sid: list(h) for sid, h in r.hands.items()}
    assert len(hands) == rec.players
    rules = rec.rules
    called = (rec.call.card if rec.call is not None and rules.five_player_first_lead
              is FivePlayerFirstLead.NO_CALLED_SUIT else None)
    for tr in r.tricks:
        for i, (card, seat) in enumerate(zip(tr.cards, tr.seats, strict=True)):
            hand = hands[ids[seat]]
            lead_called = called if tr.number == 1 and i == 0 else None
            _assert_agrees(hand, tr.cards[:i], lead_called)
            hand.remove(card)
    # legal_moves (the replay's API) gives the same at one drawn point of the deal.
    t = data.draw(st.integers(min_value=1, max_value=len(r.tricks)), label="trick")
    i = data.draw(st.integers(min_value=0, max_value=rec.players - 1), label="card")
    pos = legal_moves(rec, t, i)
    tr = r.tricks[t - 1]
    assert pos.seat == ids[tr.seats[i]]
    assert pos.played == tr.cards[:i]
    assert pos.exact
    lead_called = called if t == 1 and i == 0 else None
    expected = reference_legal([c.code for c in pos.hand], [c.code for c in pos.played],
                               None if lead_called is None else lead_called.code)
    assert {c.code for c in pos.legal} == expected


# --- fault injection ---------------------------------------------------------------------


@given(legal_deals(), st.data())
def test_injected_illegal_card_is_reported(rec: DealRecord, data: st.DataObject) -> None:
    r = replay(rec)
    ids = rec.seat_ids
    hands = {sid: set(h) for sid, h in r.hands.items()}
    called = (rec.call.card if rec.call is not None and rec.rules.five_player_first_lead
              is FivePlayerFirstLead.NO_CALLED_SUIT else None)
    candidates: list[tuple[int, int, str, CardSet, list[Card]]] = []
    for tr in r.tricks:
        for i, (card, seat) in enumerate(zip(tr.cards, tr.seats, strict=True)):
            hand = CardSet.from_cards(hands[ids[seat]])
            lead_called = called if tr.number == 1 and i == 0 else None
            illegal = list(hand - legal_cards(hand, tr.cards[:i], lead_called))
            if illegal:
                candidates.append((tr.number, i, ids[seat], hand, illegal))
            hands[ids[seat]].remove(card)
    assume(candidates)
    t, i, sid, hand_then, illegal = data.draw(st.sampled_from(candidates), label="position")
    wrong = data.draw(st.sampled_from(illegal), label="card")
    trick = r.tricks[t - 1]
    reason = why_illegal(wrong, hand_then, trick.cards[:i],
                         called if t == 1 and i == 0 else None)
    assert reason is not None
    old = rec.play[t - 1]
    cards = list(old.cards)
    cards[i] = PlayedCard(card=wrong)
    play = list(rec.play)
    play[t - 1] = Trick(cards=tuple(cards))
    bad = rec.model_copy(update={"play": tuple(play)})
    r2 = replay(bad)
    assert not r2.ok
    hits = [d for d in r2.diagnostics
            if d.code is reason.code and d.location.trick == t and d.location.seat == sid
            and d.location.card == wrong.code]
    assert hits, [str(d) for d in r2.diagnostics]
    # Nothing is reported in the play before the injected card.
    earlier = [d for d in r2.diagnostics if d.code.value.startswith("P")
               and d.location.trick is not None and d.location.trick < t]
    assert not earlier, [str(d) for d in earlier]


# --- JSON round trip ---------------------------------------------------------------------


def _same_replay(a: DealRecord, b: DealRecord) -> None:
    ra, rb = replay(a), replay(b)
    assert ra.status is rb.status
    assert ra.scores == rb.scores
    assert ra.taker_half == rb.taker_half
    assert ra.diagnostics == rb.diagnostics


def _json_round_trip(rec: DealRecord) -> None:
    from tarotnotation.formats import json as tjson

    data = tjson.dumps_bytes(rec)
    back = tjson.loads(data)
    assert back.model_dump() == rec.model_dump()
    assert back == rec
    assert tjson.dumps_bytes(back) == data
    assert tjson.loads(data.decode("utf-8")) == rec
    _same_replay(rec, back)


@given(records())
def test_json_round_trip_records(rec: DealRecord) -> None:
    _json_round_trip(rec)


@given(outcome_records())
def test_json_round_trip_outcome_records(rec: DealRecord) -> None:
    assert rec.is_outcome_only
    _json_round_trip(rec)


@given(legal_deals(partial=True))
def test_json_round_trip_legal_deals(rec: DealRecord) -> None:
    _json_round_trip(rec)


# --- card sets ---------------------------------------------------------------------------

card_lists = st.lists(st.sampled_from(list(Card)), max_size=30)


@given(card_lists, card_lists)
@example([], [])
@example(list(Card), [Card.EXCUSE])
def test_cardset_agrees_with_python_sets(xs: list[Card], ys: list[Card]) -> None:
    a, b = CardSet.from_cards(xs), CardSet.from_cards(ys)
    sa, sb = set(xs), set(ys)
    assert set(a | b) == sa | sb
    assert set(a & b) == sa & sb
    assert set(a - b) == sa - sb
    assert set(a ^ b) == sa ^ sb
    assert len(a) == len(sa)
    assert bool(a) == bool(sa)
    assert list(a) == sorted(sa) == a.sorted()
    assert (a <= b) == (sa <= sb)
    assert (a < b) == (sa < sb)
    assert (a >= b) == (sa >= sb)
    assert (a == b) == (sa == sb)
    assert (a == b) <= (hash(a) == hash(b))
    for card in Card:
        assert (card in a) == (card in sa)
    assert CardSet.parse(str(a)) == a
    assert str(a) == " ".join(c.code for c in sorted(sa))
    assert a.points() == card_points(a.bits) == sum(c.points for c in sa)
    assert a.points() == sum(half_points(c.code) for c in sa)
    assert a.bouts() == sum(1 for c in sa if c.code in ("T1", "T21", "EX"))
    assert set(a.trumps()) == {c for c in sa if c.is_trump}
    if xs:
        c = xs[0]
        assert set(a.without(c)) == sa - {c}
        assert set(b.with_card(c)) == sb | {c}


def test_whole_pack_is_182_half_points() -> None:
    assert card_points(ALL_MASK) == 182 == sum(half_points(c) for c in _CODES)


# --- scoring -----------------------------------------------------------------------------


@st.composite
def deal_facts(draw: st.DrawFn) -> DealFacts:
    n = draw(st.sampled_from(PLAYER_COUNTS))
    taker = draw(st.integers(min_value=0, max_value=n - 1))
    partner = draw(st.one_of(st.none(), st.integers(min_value=0, max_value=n - 1))) \
        if n == 5 else None
    camps = st.one_of(st.none(), st.sampled_from(list(Camp)))
    return DealFacts(
        players=n,
        taker=taker,
        contract=draw(st.sampled_from(list(Contract))),
        taker_half=draw(st.integers(min_value=0, max_value=182)),
        bouts=draw(st.integers(min_value=0, max_value=3)),
        partner=partner,
        petit_au_bout=draw(camps),
        poignees=tuple(draw(st.lists(st.sampled_from(list(PoigneeSize)), max_size=3))),
        chelem_announced=draw(st.booleans()),
        chelem=draw(camps),
        miseres=tuple(draw(st.lists(st.integers(min_value=0, max_value=n - 1),
                                    unique=True, max_size=2))),
    )


@given(deal_facts())
@example(DealFacts(players=4, taker=0, contract=Contract.GARDE, taker_half=96, bouts=2))
@example(DealFacts(players=4, taker=0, contract=Contract.PRISE, taker_half=102, bouts=1))
@example(DealFacts(players=4, taker=0, contract=Contract.GARDE, taker_half=81, bouts=2))
@example(DealFacts(players=5, taker=1, partner=1, contract=Contract.GARDE_CONTRE,
                   taker_half=83, bouts=2))
def test_scoring_invariants(f: DealFacts) -> None:
    s = score(f)
    n = f.players
    assert len(s.seats) == n
    assert sum(s.seats) == 0
    assert sum(s.misere_amounts) == 0
    # §9: made when the points reach the threshold set by the bouts.
    thr_half = 2 * _THRESHOLD_POINTS[f.bouts]
    made = f.taker_half >= thr_half
    assert s.made is made
    # §9-10: d = |points - threshold|, the half point going to the camp that wins.
    d = math.ceil(abs(f.taker_half - thr_half) / 2)
    m = _MULTIPLIER[f.contract]
    sign = 1 if made else -1
    assert s.contract_amount == sign * (25 + d) * m
    pab = 0 if f.petit_au_bout is None else (10 if f.petit_au_bout is Camp.TAKER else -10) * m
    poignee = sign * sum(_POIGNEE_POINTS[p] for p in f.poignees)
    chelem = 0
    if f.chelem is Camp.TAKER:
        chelem = 400 if f.chelem_announced else 200
    elif f.chelem_announced:
        chelem = -200
    if f.chelem is Camp.DEFENCE:
        chelem -= 200
    x = s.contract_amount + pab + poignee + chelem
    assert s.x == x
    # §10 sharing: each defender -X; the taker (n-1)X alone, 2X with a partner, who gets X.
    share = [v - mis for v, mis in zip(s.seats, s.misere_amounts, strict=True)]
    partner = f.partner if f.partner is not None and f.partner != f.taker else None
    for seat in range(n):
        if seat == f.taker:
            assert share[seat] == (2 * x if partner is not None else (n - 1) * x)
        elif seat == partner:
            assert share[seat] == x
        else:
            assert share[seat] == -x
    # The taker's sign follows made/lost when no chelem is in play (a petit au bout
    # against him is at most 10m, less than the 25m of the contract).
    if f.chelem is None and not f.chelem_announced:
        assert (share[f.taker] > 0) is made
        assert (share[f.taker] < 0) is (not made)


# --- outcome-only records are scored from their facts --------------------------------------


@given(outcome_records())
def test_outcome_records_replay_without_crashing(rec: DealRecord) -> None:
    r = replay(rec)
    assert r.status in set(Status)
    if r.status is Status.SCORED:
        assert r.scores is not None
        assert sum(r.scores.values()) == 0


@given(records())
def test_records_replay_without_crashing(rec: DealRecord) -> None:
    r = replay(rec)
    if r.status is Status.SCORED:
        assert r.scores is not None
        assert sum(r.scores.values()) == 0
        assert r.taker_half is not None
        assert r.defence_half is not None
        assert r.taker_half + r.defence_half == 182


def test_rulesets_cover_every_switch_value() -> None:
    # The strategies draw switch values from Ruleset.switch_values: make sure each parses.
    for name in Ruleset.switch_names():
        for value in Ruleset.switch_values(name):
            assert Ruleset.from_spec(f"fft {name}={value}").switch(name) == value
