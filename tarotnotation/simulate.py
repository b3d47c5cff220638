"""Random legal deals, for tests, benchmarks and examples.

:func:`random_deal` deals the cards, runs a legal auction, call, écart and declarations,
and plays every card at random among the legal ones (from
:func:`tarotnotation.kernel.rule`, the rule function the validator uses). The
recorded result is the replay's own score, so a generated record replays clean (under
``petit_in_chien=annuls`` a Petit turned up in the chien gives an annulled deal, unplayed).

>>> import random
>>> from tarotnotation.replay import replay
>>> rec = random_deal(random.Random(7), players=5)
>>> r = replay(rec)
>>> r.ok, r.status.value, sum(r.scores.values()), r.taker_half + r.defence_half
(True, 'scored', 0, 182)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from .cards import BOUTS_MASK, EXCUSE_BIT, TRUMP_MASK, Card, CardSet, mask_of
from .kernel import ecart_plain, first_leader, petit_sec, rule, winner_index
from .records import (
    Bid,
    Call,
    ChelemAnnouncement,
    DealRecord,
    Declaration,
    Ecart,
    PlayedCard,
    Poignee,
    Result,
    Trick,
)
from .rules import Contract, FivePlayerFirstLead, PetitInChien, Ruleset, table

__all__ = ["random_deal"]

#: Each card as played with no seat written: the records are frozen, so every trick of
#: every deal made here shares them (made once: a random deal's 78 cards, each validated
#: by pydantic again, were a sixth of its cost).
_PLAYED: Final = tuple(PlayedCard(card=card) for card in Card)


def _cards(bits: int) -> list[int]:
    """The cards of ``bits``, lowest first: ``[c for c in range(78) if bits >> c & 1]``,
    through the set bits alone."""
    return [int(card) for card in CardSet(bits)]


def _pick(rng: random.Random, bits: int, k: int) -> int:
    return mask_of(rng.sample(_cards(bits), k))


def random_deal(
    rng: random.Random,
    players: int = 4,
    *,
    contract: Contract | None = None,
    taker: int | None = None,
    deck: Sequence[Card] | None = None,
    ruleset: Ruleset | None = None,
    poignee_chance: float = 0.5,
    chelem_chance: float = 0.02,
    stop_after: int | None = None,
    with_result: bool = True,
) -> DealRecord:
    """A random legal deal. ``stop_after`` cards ends the play early (a partial record).

    ``taker`` (a seat index) and ``contract`` fix the auction's outcome; ``deck`` gives
    the 78 cards in dealing order (each seat's hand in turn, then the chien) instead of a
    shuffle. A shuffle that gives a player the Petit sec (§2: the deal would be annulled)
    is shuffled again, so that a random deal is always one that is played.
    """
    from .replay import replay

    rules = ruleset or Ruleset.fft()
    tab = table(players)
    order = [int(c) for c in deck] if deck is not None else list(range(78))
    if deck is not None and sorted(order) != list(range(78)):
        raise ValueError("deck must hold each of the 78 cards once")
    while True:
        if deck is None:
            rng.shuffle(order)
        hands = [mask_of(order[i * tab.hand:(i + 1) * tab.hand]) for i in range(players)]
        if deck is not None or not any(map(petit_sec, hands)):
            break
    chien = mask_of(order[players * tab.hand:])
    seats = ("S", "E", "N", "W", "F")[:players]
    dealer = rng.randrange(players)
    first = (dealer + 1) % players
    taker = rng.randrange(players) if taker is None else taker
    chosen = contract or rng.choice(list(Contract))
    auction = [
        Bid(contract=chosen if (first + i) % players == taker else None)
        for i in range(players)
    ]
    call = None
    called: int | None = None
    if players == 5:
        called = Card.suited(rng.choice(list(_SUITS)), 14)
        call = Call(card=Card(called))
    start = list(hands)
    ecart_model = None
    if chosen.takes_chien:
        pool = hands[taker] | chien
        plain = ecart_plain(pool)
        if plain.bit_count() >= tab.chien:
            ecart = _pick(rng, plain, tab.chien)
        else:
            extra = _pick(rng, pool & TRUMP_MASK & ~BOUTS_MASK, tab.chien - plain.bit_count())
            ecart = plain | extra
        start[taker] = pool & ~ecart
        ecart_model = Ecart(cards=CardSet(ecart), shown=CardSet(ecart & TRUMP_MASK))
    if (chosen.takes_chien and chien & (1 << Card.T1)
            and rules.petit_in_chien is PetitInChien.ANNULS):
        # The Petit turned up in the chien annuls the deal: nothing is played.
        return DealRecord(
            tags=(("Event", "Random deal"),), ruleset=rules.spec(), players=players,
            dealer=seats[dealer], hands={seats[s]: CardSet(hands[s]) for s in range(players)},
            chien=CardSet(chien), auction=tuple(auction), call=call,
            result=Result(annulled=True) if with_result else None,
        )
    declarations: list[Declaration] = []
    announcer = None
    if rng.random() < chelem_chance:
        announcer = taker
        declarations.append(ChelemAnnouncement(seat=seats[taker]))
    for s in range(players):
        trumps = start[s] & TRUMP_MASK
        count = trumps.bit_count() + (1 if start[s] & EXCUSE_BIT else 0)
        sizes = [n for n in tab.poignee if n <= count]
        if sizes and rng.random() < poignee_chance:
            n = sizes[-1]
            # With one trump too few, the Excuse stands in and every trump is shown.
            shown = _pick(rng, trumps, n) if trumps.bit_count() >= n else trumps | EXCUSE_BIT
            declarations.append(Poignee(seat=seats[s], cards=CardSet(shown)))
    lead_rule = (called if players == 5 and rules.five_player_first_lead
                 is FivePlayerFirstLead.NO_CALLED_SUIT else None)
    leader = first_leader(first, announcer)
    live = list(start)
    tricks: list[Trick] = []
    remaining = stop_after if stop_after is not None else players * tab.tricks
    for t in range(tab.tricks):
        cards: list[int] = []
        for i in range(players):
            if remaining == 0:
                break
            s = (leader + i) % players
            legal = rule(live[s], cards, lead_rule if t == 0 and i == 0 else None)[0]
            card = rng.choice(_cards(legal))
            live[s] &= ~(1 << card)
            cards.append(card)
            remaining -= 1
        if not cards:
            break
        tricks.append(Trick(cards=tuple(_PLAYED[c] for c in cards)))
        if len(cards) < players:
            break
        w = winner_index(cards)
        assert w is not None
        leader = (leader + w) % players
    record = DealRecord(
        tags=(("Event", "Random deal"),),
        ruleset=rules.spec(),
        players=players,
        dealer=seats[dealer],
        hands={seats[s]: CardSet(hands[s]) for s in range(players)},
        chien=CardSet(chien),
        auction=tuple(auction),
        call=call,
        ecart=ecart_model,
        declarations=tuple(declarations),
        play=tuple(tricks),
    )
    if not with_result:
        return record
    r = replay(record)
    if r.scores is None:
        return record
    return record.model_copy(update={"result": Result(scores=r.scores)})


_SUITS: Final = tuple(Card.SK.suit.__class__)[:4]
