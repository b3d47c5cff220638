"""The solver agrees exactly with a brute-force minimax on random endgames.

The oracle (:func:`solver_cases.oracle`) plays every legal card of every line on the
kernel's PlayState, without pruning, table or merging. The solver, on the compiled core
and on its pure-Python twin, must give the same value, a best card that keeps it, each
legal card's value, and quick bounds that contain the value, on endgames of up to 3
tricks (4 at 3 and 4 players) at 3, 4 and 5 players, under every ruleset that changes
play or counting, with the Excuse, the Petit and the 21 left in often, with the chelem
cases, and a trick in progress; for the margin and for the score. A few hundred in CI,
thousands under ``TAROT_SLOW=1`` (``TAROT_ORACLE_CASES`` sets the number).

Then the rules that only the end of a deal shows, each on a position written for it.
"""

from __future__ import annotations

import os
import random

import pytest
from budget import cases
from solver_cases import children, endgame, oracle

from tarotnotation import native
from tarotnotation.analysis import Objective, Position, Solver, deal_start, position_at
from tarotnotation.analysis.search import core_tuple, leaf_table
from tarotnotation.cards import SUIT_MASKS, Card, card_points, mask_of
from tarotnotation.kernel import DEFENCE, TAKER, suit_of, winner_index
from tarotnotation.native import compiled
from tarotnotation.rules import Contract, Ruleset
from tarotnotation.simulate import random_deal

CASES = int(os.environ.get("TAROT_ORACLE_CASES", cases(240, slow=4000)))
ENGINES = ["python", pytest.param("c", marks=pytest.mark.skipif(
    compiled(force=True) is None and not os.environ.get("TAROT_REQUIRE_NATIVE"),
    reason="the compiled core is not built"))]


def _case(seed: int) -> tuple[Position, Objective]:
    rng = random.Random(seed)
    players = rng.choice((3, 4, 5))
    most = 4 if players < 5 else 3
    left = rng.choice([1, 2, 2, 3, 3] + ([most] if rng.random() < 0.15 else []))
    objective = Objective.SCORE if rng.random() < 0.3 else Objective.MARGIN
    return endgame(rng, players, left, score=objective is Objective.SCORE), objective


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("block", range(4))
def test_random_endgames_match_the_oracle(engine: str, block: int) -> None:
    for seed in range(block, CASES, 4):
        pos, objective = _case(seed)
        leaf = leaf_table(pos, objective)
        want = oracle(pos, objective, leaf)
        solver = Solver(pos, objective=objective, engine=engine)
        lo, hi = solver.core.bounds(core_tuple(pos.state()))
        assert lo <= want <= hi, (seed, pos.fen())
        sol = solver.solve(pos)
        assert (sol.lower, sol.upper) == (want, want), (seed, objective, pos.fen())
        assert sol.best is not None
        assert pos.legal().bits >> sol.best & 1
        assert oracle(pos.play(sol.best), objective, leaf) == want, (seed, pos.fen())
        assert sol.line is not None
        assert sol.taker_half is not None
        st = pos.state()
        for card in sol.line:
            assert st.legal() >> card & 1
            st.play(card)
        assert st.over
        assert st.result() == (sol.taker_half, sol.taker_bouts, sol.petit_au_bout, sol.chelem)
        half, bouts, petit, chelem = st.result()
        assert leaf[((half * 4 + bouts) * 3 + petit + 1) * 3 + chelem + 1] == want
        decided = solver.solve(pos, at_least=0)
        assert (decided.lower >= 0) == (want >= 0), (seed, pos.fen())
        assert decided.lower <= want <= decided.upper


@pytest.mark.parametrize("engine", ENGINES)
def test_every_cards_value_matches_the_oracle(engine: str) -> None:
    for seed in range(CASES // 4):
        pos, objective = _case(10_000 + seed)
        want = children(pos, objective)
        got = {cv.card: cv.value for cv in Solver(pos, objective=objective,
                                                  engine=engine).best_cards(pos)}
        assert got == want, (seed, pos.fen())


def _dense_case(seed: int, suits: int = 2, last: bool = False) -> Position:
    """An endgame in a trick already begun, its cards from a few ranks of equal points
    (the 1 to 10 of ``suits`` suits, a few trumps, the Excuse): cards of one hand
    that lose the trick, with only cards of the trick between them, are many. ``last``:
    the player to move is the trick's last."""
    rng = random.Random(seed)
    players = rng.choice((3, 4, 5) if suits > 1 else (3, 4))
    left = rng.choice((2, 3, 3) if players == 5 or suits == 1 else (2, 3, 3, 4))
    pool = [s * 14 + r for s in rng.sample(range(4), suits) for r in range(10)]
    trumps = rng.randrange(4) if suits > 1 else 3
    pool += [int(Card.T1) + r for r in range(trumps)] + [int(Card.EXCUSE)]
    in_trick = players - 1 if last else rng.randrange(1, players)
    return endgame(rng, players, left, in_trick=in_trick, pool=pool)


@pytest.mark.parametrize("engine", ENGINES)
def test_cards_that_lose_the_trick_merged_across_its_cards_match_the_oracle(
        engine: str) -> None:
    # Two cards of a hand that both lose the trick, adjacent but for cards of the trick,
    # are tried once: each card's value and the position's must stay the oracle's.
    for seed in range(CASES):
        pos = _dense_case(20_000 + seed)
        want = children(pos)
        best = max(want.values()) if pos.camps[pos.to_play] == TAKER else min(want.values())
        solver = Solver(pos, engine=engine)
        assert solver.solve(pos, line=False).value == best, (seed, pos.fen())
        got = {cv.card: cv.value for cv in solver.best_cards(pos)}
        assert got == want, (seed, pos.fen())


def test_cards_that_lose_the_trick_adjacent_but_for_its_cards_are_worth_the_same() -> None:
    # The merging's claim itself, by the oracle: two legal cards of the player to move,
    # of one suit and the same points, that both lose the trick, with no card of any
    # hand between them (only cards of the trick), leave positions of the same value.
    pairs = 0
    for seed in range(CASES):
        pos = _dense_case(30_000 + seed, suits=1, last=True)
        held = 0
        for hand in pos.hands:
            held |= hand
        legal = [int(c) for c in pos.legal()]
        losing = [c for c in legal if c != int(Card.EXCUSE)
                  and winner_index([*pos.trick, c]) != len(pos.trick)]
        want = children(pos)
        for a in losing:
            for b in losing:
                mask = SUIT_MASKS[suit_of(a)]
                between = held & mask & ((1 << b) - 1) & ~((2 << a) - 1)
                if (a < b and suit_of(a) == suit_of(b) and not between
                        and card_points(1 << a) == card_points(1 << b)
                        and mask_of(pos.trick) & mask & ((1 << b) - 1) & ~((2 << a) - 1)):
                    pairs += 1
                    assert want[a] == want[b], (seed, pos.fen(), Card(a).code, Card(b).code)
    assert pairs >= CASES // 20


def _five_player_first_lead(rng: random.Random) -> Position:
    """A short deal at five players (2 or 3 tricks) from its first lead, a King called:
    the called suit may not be led to the first trick (but for the King itself) under
    ``no_called_suit``, and may under ``free``."""
    left = rng.choice((2, 3))
    suit = rng.randrange(4)
    king = 14 * suit + 13
    suits = (suit, (suit + 1) % 4)
    pool = [c for c in range(78)
            if c != king and ((c < 56 and c // 14 in suits) or (c >= 56 and rng.random() < 0.3))]
    if rng.random() < 0.8:
        chosen = [*rng.sample(pool, 5 * left - 1), king]
    else:
        chosen = rng.sample(pool, 5 * left)
    rng.shuffle(chosen)
    hands = tuple(mask_of(chosen[s * left:(s + 1) * left]) for s in range(5))
    taker = rng.randrange(5)
    partner = next((s for s in range(5) if hands[s] >> king & 1), taker)
    camps = tuple(TAKER if s in (taker, partner) else DEFENCE for s in range(5))
    # the leader often holds a small card of the called suit
    leader = next((s for s in rng.sample(range(5), 5)
                   if hands[s] & SUIT_MASKS[suit] & ~(1 << king)), rng.randrange(5))
    rules = Ruleset.fft() if rng.random() < 0.7 else \
        Ruleset.fft().with_switch("five_player_first_lead", "free")
    return Position(rules=rules, seats=("S", "E", "N", "W", "F"), hands=hands, camps=camps,
                    taker=taker, leader=leader, tricks=left, contract=rng.choice(list(Contract)),
                    called=king, partner=partner)


@pytest.mark.parametrize("engine", ENGINES)
def test_the_first_lead_at_five_players_matches_the_oracle(engine: str) -> None:
    # The called suit's restriction on the first lead is the compiled core's own code
    # (its move generation at the root), so each core is held to the oracle on it.
    restricted = 0
    for seed in range(CASES // 4):
        pos = _five_player_first_lead(random.Random(20_000 + seed))
        want = oracle(pos)
        sol = Solver(pos, engine=engine).solve(pos)
        assert (sol.lower, sol.upper) == (want, want), (seed, pos.fen())
        got = {cv.card: cv.value for cv in Solver(pos, engine=engine).best_cards(pos)}
        assert got == children(pos), (seed, pos.fen())
        if pos.first_lead_card() is not None and pos.legal().bits != pos.hands[pos.leader]:
            restricted += 1
    assert restricted >= CASES // 40


def test_the_called_suit_binds_the_first_lead_only_under_no_called_suit() -> None:
    # W leads 2H or the called KH... under no_called_suit only the King (or a trump)
    hands = (mask_of([Card.T5, Card.C2]), mask_of([Card.H3, Card.C3]),
             mask_of([Card.H4, Card.C4]), mask_of([Card.H2, Card.C5]),
             mask_of([Card.HK, Card.C6]))
    base = Position(rules=Ruleset.fft(), seats=("S", "E", "N", "W", "F"), hands=hands,
                    camps=(TAKER, DEFENCE, DEFENCE, DEFENCE, TAKER), taker=0, leader=3,
                    tricks=2, called=int(Card.HK), partner=4)
    assert str(base.legal()) == "5C"
    free = Position(**{**{f: getattr(base, f) for f in base.__dataclass_fields__},
                       "rules": Ruleset.fft().with_switch("five_player_first_lead", "free")})
    assert str(free.legal()) == "2H 5C"
    for pos in (base, free):
        want = oracle(pos)
        for engine in ("python", "c"):
            if engine == "c" and compiled() is None:
                continue
            assert Solver(pos, engine=engine).solve(pos).value == want


def test_quick_bounds_hold_at_every_card_of_the_last_tricks_of_generated_deals() -> None:
    # The quick bounds cut the search at every trick boundary: each must contain the
    # oracle's value, on both cores, at every card of the last tricks of whole deals.
    engines = ["python"] + (["c"] if compiled(force=True) is not None else [])
    for seed in range(max(4, CASES // 40)):
        rng = random.Random(30_000 + seed)
        players = (3, 4, 5)[seed % 3]
        start, cards = deal_start(random_deal(rng, players, poignee_chance=0.3))
        left = 3
        done = (start.tricks - left) * players
        for k in range(done, len(cards)):
            pos = position_at(start, cards[:k])
            want = oracle(pos)
            for engine in engines:
                solver = Solver(pos, engine=engine)
                lo, hi = solver.core.bounds(core_tuple(pos.state()))
                assert lo <= want <= hi, (seed, engine, pos.fen())
                assert solver.solve(pos).value == want, (seed, engine, pos.fen())


def _decided(pos: Position) -> bool:
    """Whether the trick begun (not the last) goes to the camp of its winning card
    whatever is still played to it, by playing every way (the claim the bounds make)."""
    st = pos.state()
    if not st.trick or st.trick_number >= st.tricks - 1:
        return False
    w = winner_index(st.trick)
    if w is None:
        return False
    camp = pos.camps[(st.leader + w) % pos.players]

    def winners(p: Position) -> set[int]:
        if not p.state().trick:  # the trick is over: who leads won it
            return {p.camps[p.state().leader]}
        out: set[int] = set()
        for card in p.legal():
            out |= winners(p.play(card))
        return out

    return winners(pos) == {camp}


def test_quick_bounds_within_a_trick_hold_where_the_trick_is_decided() -> None:
    # Within a trick, the quick bounds count the trick for the camp of its winning card
    # when no seat of the other camp still to play can beat it, and the master trumps
    # of the later tricks (less one a seat that may trump now could spend on this
    # trick). Each bound must contain the oracle's value, on both cores, at every card
    # of dense endgames in a trick begun (cards of few ranks, trumps, the Excuse), and
    # at many of them the trick is decided.
    engines = ["python"] + (["c"] if compiled(force=True) is not None else [])
    decided = 0
    cases = max(30, CASES // 6)
    for seed in range(cases):
        pos = _dense_case(40_000 + seed, suits=1 + seed % 2)
        want = oracle(pos)
        decided += _decided(pos)
        for engine in engines:
            solver = Solver(pos, engine=engine)
            lo, hi = solver.core.bounds(core_tuple(pos.state()))
            assert lo <= want <= hi, (seed, engine, pos.fen())
            assert solver.solve(pos, line=False).value == want, (seed, engine, pos.fen())
    assert decided >= cases // 5


def test_the_bounds_within_a_trick_count_the_trick_decided() -> None:
    # S led the 7 of trumps, E (the taker) the 21: whatever N and W play, the trick is
    # the taker's, and E's 5 of trumps, above every trump left in the defence's hands,
    # wins a later trick. The lower bound counts both: 120 half-points won, the trick
    # (7 and 21: 1 + 9, one card at least of N and of W: 2), a trick of four cards for
    # the 5, and the threshold of two bouts (82): 54, the value itself (with the 21
    # alone, as the bounds within a trick counted before, it was 47).
    pos = Position.parse("S=T2,KH E=T5,2H N=T3,3H,5H W=T4,4H,6H taker=E lead=S"
                         " trick=T7,T21 won=60/1 tricks=10/5")
    assert _decided(pos)
    want = oracle(pos)
    assert want == 54
    for engine in ("python", "c"):
        if engine == "c" and compiled() is None:
            continue
        lo, hi = Solver(pos, engine=engine).core.bounds(core_tuple(pos.state()))
        assert lo == 120 + 12 + 4 - 82 == want <= hi


def test_the_popcnt_build_of_the_search_core_matches_the_portable_one() -> None:
    # The compiled core runs a second build of the same search with the POPCNT
    # instruction where the processor has it: each test's result, best card and nodes
    # are the portable build's, node for node.
    module = compiled(force=True)
    if module is None:
        pytest.skip("the compiled core is not built")
    for seed in range(3):
        rng = random.Random(50_000 + seed)
        start, cards = deal_start(random_deal(rng, 4))
        pos = position_at(start, cards[:(start.tricks - 7) * 4 + seed])
        solver = Solver(pos, engine="c")
        results = []
        for portable in (False, True):
            core = module.Search(
                pos.players, native.rule_flags(pos.rules), pos.camps, -1, pos.tricks, 0, 0,
                solver.leaf.tobytes(), True, 8.0, portable=portable)
            pt = core_tuple(pos.state())
            results.append([core.test(pt, beta) for beta in (-60, -20, 0, 20)])
        assert results[0] == results[1], seed


# --- the rules only the end of a deal shows, one position each ---------------------------------


def test_a_partner_who_must_trump_takes_the_lead_from_a_leader_with_masters() -> None:
    # N leads for the defence and holds every heart and club left; the taker E has no
    # trump, but N's partner S holds the last one and must ruff N's hearts: S, not N,
    # leads next, and E's ND wins a trick. The quick bounds once counted N's hearts and
    # club as sure tricks from N's lead (the search's bounds crossed: "a bug").
    text = ("S=3D,9D,JC,T16 E=3S,10S,8D,ND N=8H,9H,NH,9C taker=E lead=N won=25/0"
            " tricks=6/14 contract=garde_sans")
    pos = Position.parse(text)
    want = oracle(pos)
    for engine in ("python", "c"):
        if engine == "c" and compiled() is None:
            continue
        solver = Solver(pos, engine=engine)
        lo, hi = solver.core.bounds(core_tuple(pos.state()))
        assert lo <= want <= hi
        assert solver.solve(pos).value == want


def _solve_both(text: str, objective: Objective = Objective.MARGIN) -> int:
    pos = Position.parse(text)
    want = oracle(pos, objective)
    for engine in ("python", "c"):
        if engine == "c" and compiled() is None:
            continue
        assert Solver(pos, objective=objective, engine=engine).solve(pos).value == want
    return want


def test_excuse_in_the_last_trick_changes_camp() -> None:
    # E (defence) holds only the Excuse for the last trick: it goes to the taker's camp.
    assert _solve_both("S=KH E=EX N=2H W=3H taker=S lead=S won=60/1 tricks=9/8") == \
        (120 + 9 + 1 + 1 + 9) - 82  # the Excuse and its bout to the taker


def test_excuse_in_the_last_trick_to_the_trick_winner() -> None:
    # Under pagat the Excuse goes to the trick's winner (the taker here).
    value = _solve_both("S=KH E=EX N=2H W=3H taker=S lead=S won=60/1 tricks=9/8 rules=pagat")
    assert value == (120 + 9 + 1 + 1 + 9) - 82
    # ...and stays with the defence when the defence wins the last trick.
    value = _solve_both("S=2H E=EX N=KH W=3H taker=S lead=S won=60/1 tricks=9/8 rules=pagat")
    assert value == 120 - 102


def test_excuse_led_to_the_last_trick_by_a_camp_with_every_trick_wins_it() -> None:
    # The taker won every trick and leads the Excuse: it wins the last trick (chelem).
    value = _solve_both("S=EX E=T21 N=2H W=3H taker=S lead=S won=80/1 tricks=17/0"
                        " chelem=announced", Objective.SCORE)
    assert value > 0
    pos = Position.parse("S=EX E=T21 N=2H W=3H taker=S lead=S won=80/1 tricks=17/0")
    assert Solver(pos).solve(pos).chelem == 0


def test_chelem_excuse_wins_false_lets_the_21_take_the_last_trick() -> None:
    pos = Position.parse("S=EX E=T21 N=2H W=3H taker=S lead=S won=80/1 tricks=17/0"
                         " rules=fft,chelem_excuse_wins=false")
    sol = Solver(pos).solve(pos)
    assert sol.chelem == -1
    assert sol.value == oracle(pos)


def test_petit_au_bout_counts_for_the_score_objective() -> None:
    # The taker can lead the Petit to the last trick and win it (no trump left elsewhere).
    text = "S=T1,KH E=2H,3S N=4H,5S W=6H,7S taker=S lead=S won=60/1 tricks=9/7"
    pos = Position.parse(text)
    sol = Solver(pos, objective=Objective.SCORE).solve(pos)
    assert sol.petit_au_bout == 0
    assert sol.value == oracle(pos, Objective.SCORE)


def test_petit_au_bout_in_the_trick_before_when_the_excuse_is_led_last() -> None:
    # A taker with every trick leads the Petit, then the Excuse to the last trick: the
    # trick before counts as the last one for petit au bout (rules.md §8).
    text = "S=T1,EX E=2H,3S N=4H,5S W=6H,7S taker=S lead=S won=60/1 tricks=16/0"
    pos = Position.parse(text)
    sol = Solver(pos, objective=Objective.SCORE).solve(pos)
    assert sol.petit_au_bout == 0
    assert sol.chelem == 0
    assert sol.value == oracle(pos, Objective.SCORE)


def test_a_line_with_more_points_can_lose_what_one_with_fewer_makes() -> None:
    # The Petit changes hands: keeping it (fewer points) beats winning a King without it.
    pos = Position.parse("S=T1,KH E=T2,2H N=3H,4H W=5H,6H taker=S lead=S won=72/1"
                         " tricks=9/7")
    sol = Solver(pos).solve(pos)
    assert sol.value == oracle(pos)


@pytest.mark.parametrize("engine", ENGINES)
def test_the_table_stays_within_its_size_and_the_values_do_not_change(engine: str) -> None:
    # A table far too small for the search: entries are replaced, never added past the
    # cap, and the values are those of a roomy table.
    left = 9 if engine == "c" else 6
    tiny = 0.05 if engine == "c" else 0.01
    overflowed = 0
    for seed in range(4):
        start, cards = deal_start(random_deal(random.Random(seed), 4))
        pos = position_at(start, cards[:(start.tricks - left) * 4])
        small = Solver(pos, engine=engine, table_mb=tiny)
        value = small.solve(pos, line=False).value
        stats = small.stats()
        assert stats["entries"] <= stats["capacity"] <= tiny * 1048576 / 16
        assert value == Solver(pos, engine=engine).solve(pos, line=False).value
        overflowed += stats["stores"] > stats["capacity"]
    assert overflowed >= 2



def _honours_case(seed: int) -> Position:
    """An endgame at a trick boundary of 3 or 4 tricks, its cards from the low cards and
    the Jack, Knight, Queen and King of two suits and a few trumps: lines that differ
    only in which point card of a suit was played reach positions of the same shape."""
    rng = random.Random(seed)
    players = rng.choice((3, 4))
    left = rng.choice((3, 4))
    suits = rng.sample(range(4), 2)
    pool = [s * 14 + r for s in suits for r in (0, 1, 2, 9, 10, 11, 12, 13)]
    pool += [int(Card.T1) + r for r in rng.sample(range(21), 3)]
    if rng.random() < 0.3:
        pool.append(int(Card.EXCUSE))
    return endgame(rng, players, left, in_trick=0, pool=pool)


def test_entries_of_positions_of_the_same_shape_serve_with_their_points_apart() -> None:
    # Payoff similarity: a table entry serves a position that differs from its own only
    # in which point cards of the plain suits are live (the same shape: the holders of
    # each suit's live cards in rank order), its bounds shifted by what the point cards
    # are worth more, rank for rank. Every card's value, and the position's, must stay
    # the oracle's on endgames of point cards of adjacent ranks (one table for all
    # the tests of a position), and the similar entries must cut often there.
    if compiled(force=True) is None:
        pytest.skip("the compiled core is not built")
    similar_cuts = 0
    for seed in range(max(40, CASES // 4)):
        pos = _honours_case(70_000 + seed)
        want = children(pos)
        solver = Solver(pos, engine="c")
        best = max(want.values()) if pos.camps[pos.to_play] == TAKER else min(want.values())
        assert solver.solve(pos, line=False).value == best, (seed, pos.fen())
        got = {cv.card: cv.value for cv in solver.best_cards(pos)}
        assert got == want, (seed, pos.fen())
        similar_cuts += solver.stats()["similar_cuts"]
    assert similar_cuts >= 100
