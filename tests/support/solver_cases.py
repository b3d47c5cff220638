"""Random positions for the solver's tests, and the brute-force oracle.

:func:`oracle` is minimax written plainly on the kernel's PlayState: no pruning, no table,
no merging of cards; the value of the deal's end comes from the same leaf table the
solver uses (``leaf_table``: ``kernel.margin`` or ``scoring.score``). :func:`endgame`
builds a random position with a few tricks left at 3, 4 or 5 players under a random
ruleset, with the Excuse, the Petit and the 21 left in often, a camp that has won every
trick so far often (the chelem rules), and sometimes a trick in progress.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from tarotnotation.analysis.position import Position
from tarotnotation.analysis.search import Objective, leaf_table
from tarotnotation.cards import BOUTS_MASK, Card, card_points, mask_of
from tarotnotation.kernel import DEFENCE, TAKER
from tarotnotation.rules import Contract, PoigneeSize, Ruleset, table

RULESETS = [
    Ruleset.fft(),
    Ruleset.pagat(),
    Ruleset.fft().with_switch("petit_au_bout", "wins_last_trick"),
    Ruleset.fft().with_switch("chelem_excuse_wins", "false"),
    Ruleset.from_spec("pagat chelem_excuse_wins=false petit_au_bout=wins_last_trick"),
    Ruleset.fft().with_switch("five_player_first_lead", "free"),
]

_SPECIAL = (int(Card.EXCUSE), int(Card.T1), int(Card.T21))


def endgame(rng: random.Random, players: int, left: int, *, in_trick: int | None = None,
            score: bool = False, pool: Sequence[int] | None = None) -> Position:
    """A random position with ``left`` tricks to play (the one in progress included),
    its cards drawn from ``pool`` when given (all 78 otherwise)."""
    rules = rng.choice(RULESETS)
    tricks = table(players).tricks
    pool = list(range(78)) if pool is None else list(pool)
    chosen: list[int] = []
    for c in _SPECIAL:
        if c in pool and rng.random() < 0.6:
            chosen.append(c)
    rest = [c for c in pool if c not in chosen]
    # Short suits and trumps make the play constrained and the tests meaningful.
    suits = rng.sample(range(5), rng.choice((2, 3, 3, 4)))
    narrow = [c for c in rest if (c // 14 if c < 56 else (4 if c < 77 else 5)) in suits]
    need = players * left - len(chosen)
    if need < 0:
        chosen = chosen[:players * left]
        need = 0
    source = narrow if len(narrow) >= need else rest
    chosen += rng.sample(source, need)
    rng.shuffle(chosen)
    hands = [mask_of(chosen[s * left:(s + 1) * left]) for s in range(players)]
    taker = rng.randrange(players)
    partner = None
    camps = [DEFENCE] * players
    camps[taker] = TAKER
    if players == 5:
        partner = rng.randrange(players)
        camps[partner] = TAKER
    leader = rng.randrange(players)
    done = tricks - left
    kind = rng.random()
    if done == 0:
        tw = (0, 0)
    elif kind < 0.25:
        tw = (done, 0)
    elif kind < 0.45:
        tw = (0, done)
    else:
        a = rng.randint(1, done - 1) if done >= 2 else rng.randint(0, done)
        tw = (a, done - a)
    if tw == (done, 0) and done:
        leader = rng.choice([s for s in range(players) if camps[s] == TAKER])
    elif tw == (0, done) and done:
        leader = rng.choice([s for s in range(players) if camps[s] == DEFENCE])
    gone = ((1 << 78) - 1) & ~mask_of(chosen)
    won0 = 0
    if tw[0]:
        gone_cards = [c for c in range(78) if gone >> c & 1]
        won0 = mask_of(c for c in gone_cards if rng.random() < tw[0] / max(done, 1))
    won1 = gone & ~won0
    if tw[0] == 0:
        won0, won1 = 0, gone
    if tw[1] == 0 and done:
        won0, won1 = gone, 0
    contract = rng.choice(list(Contract))
    pos = Position(rules=rules, seats=("S", "E", "N", "W", "F")[:players], hands=tuple(hands),
                   camps=tuple(camps), taker=taker, leader=leader, trick_number=done,
                   tricks=tricks, won=(won0, won1), tricks_won=tw, contract=contract,
                   partner=partner,
                   poignees=tuple(rng.sample(list(PoigneeSize), rng.randint(0, 1)))
                   if score else (),
                   chelem_announced=score and rng.random() < 0.2)
    k = rng.randrange(players) if in_trick is None else in_trick
    for _ in range(k):
        legal = pos.legal()
        cards = list(legal)
        # keep the Excuse and the Petit in, most of the time
        keep = [c for c in cards if c not in _SPECIAL]
        if keep and rng.random() < 0.7:
            cards = keep
        pos = pos.play(rng.choice(cards))
    return pos


def oracle(pos: Position, objective: Objective = Objective.MARGIN,
           leaf: Sequence[int] | None = None) -> int:
    """The value of ``pos`` by plain minimax over every legal card."""
    if leaf is None:
        leaf = leaf_table(pos, objective)
    st = pos.state()

    def value() -> int:
        if st.over:
            half, bouts, petit, chelem = st.result()
            return leaf[((half * 4 + bouts) * 3 + petit + 1) * 3 + chelem + 1]
        seat = (st.leader + len(st.trick)) % st.n
        legal = st.legal()
        results = []
        for c in range(78):
            if legal >> c & 1:
                st.play(c)
                results.append(value())
                st.unplay()
        return max(results) if st.camps[seat] == TAKER else min(results)

    return value()


def children(pos: Position, objective: Objective = Objective.MARGIN) -> dict[int, int]:
    """Each legal card's value by the oracle."""
    leaf = leaf_table(pos, objective)
    return {int(c): oracle(pos.play(c), objective, leaf) for c in pos.legal()}


def points_out(pos: Position) -> int:
    """The half-points not yet won: in the hands and the trick."""
    out = mask_of(pos.trick)
    for h in pos.hands:
        out |= h
    return card_points(out)


def bouts_out(pos: Position) -> int:
    """The bouts in the hands and the trick."""
    out = mask_of(pos.trick)
    for h in pos.hands:
        out |= h
    return (out & BOUTS_MASK).bit_count()
