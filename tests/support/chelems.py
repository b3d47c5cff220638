"""Built deals that one camp wins trick by trick: the chelems that reach each bound.

:func:`chelem_deal` deals the cards so that the winning camp holds every trump that is
not in the chien and the highest cards of every suit, and the losing camp the lowest; the
winning camp then leads its trumps from the top, so the losing camp can never take a
trick. What the bound depends on is set by hand: the chien (which, in a Prise or Garde, is
also the écart: the taker discards what he took), and what becomes of the Excuse
(``excuse``):

- ``"chien"``: the Excuse is in the chien (give it in ``chien``);
- ``"losing-early"``: the losing camp plays it to the first trick (it keeps it and gives a
  low card, docs/rules.md §7);
- ``"losing-last"``: the losing camp plays it to the last trick;
- ``"winning-led-last"``: the winning camp's leader keeps it and leads it to the last
  trick (the chelem case of §7);
- ``"winning-last"`` / ``"winning-early"``: a second player of the winning camp plays it
  to the last trick, or to the first trick he does not lead.

Every card is chosen among the legal ones (:func:`tarotnotation.legality.constraint`), and
the record's result is the replay's own, with every fact filled in, so a built deal
replays clean and its facts are those a deal produces. The tests check that it is a
chelem of the camp asked for.
"""

from __future__ import annotations

from collections.abc import Sequence

from tarotnotation.cards import Card, CardSet
from tarotnotation.kernel import winner_index
from tarotnotation.legality import constraint
from tarotnotation.records import Bid, Call, DealRecord, Ecart, PlayedCard, Result, Trick
from tarotnotation.replay import replay
from tarotnotation.rules import Camp, Contract, FivePlayerFirstLead, Ruleset, table

SEATS = ("S", "E", "N", "W", "F")
EXCUSE_PLANS = ("chien", "losing-early", "losing-last", "winning-led-last", "winning-last",
                "winning-early")


def _suit_cards() -> list[Card]:
    return [c for c in Card if c < Card.T1]


def _rank(card: Card) -> int:
    return card.rank


def low_suit_cards(count: int) -> list[Card]:
    """The ``count`` lowest suit cards (the 1s, then the 2s...)."""
    return sorted(_suit_cards(), key=lambda c: (c.rank, c))[:count]


def best_ecart(count: int) -> list[Card]:
    """The most an écart can be worth: Queens, then Knights (no King, no bout, §4)."""
    faces = [c for c in _suit_cards() if c.rank in (13, 12)]
    return sorted(faces, key=lambda c: (-c.rank, c))[:count]


def highest_plain(count: int) -> list[Card]:
    """The ``count`` most valuable suit cards: Kings, Queens, Knights, Jacks."""
    return sorted(_suit_cards(), key=lambda c: (-c.rank, c))[:count]


def best_chien(count: int) -> list[Card]:
    """The most a chien can be worth without the Excuse: the Petit, the 21, then Kings."""
    kings = [c for c in _suit_cards() if c.rank == 14]
    return [Card.T1, Card.T21, *kings][:count]


def _strength(card: Card) -> tuple[int, int]:
    """Higher wins more tricks: trumps above suit cards, then rank."""
    if card.is_trump:
        return (1, card.rank)
    return (0, card.rank)


def chelem_deal(players: int, contract: Contract, winner: Camp, *, chien: Sequence[Card],
                excuse: str, partner: bool = False, rules: Ruleset | None = None
                ) -> DealRecord:
    """A complete legal deal that ``winner`` wins trick by trick (see the module doc)."""
    rules = rules or Ruleset.fft()
    if excuse not in EXCUSE_PLANS:
        raise ValueError(f"excuse plan {excuse!r}: expected one of {EXCUSE_PLANS}")
    n = players
    tab = table(n)
    tricks = tab.tricks
    assert len(chien) == tab.chien
    assert len(set(chien)) == len(chien)
    assert (excuse == "chien") == (Card.EXCUSE in chien)
    taker = 0
    attack = {0, 2} if partner else {0}
    strong = sorted(attack if winner is Camp.TAKER else set(range(n)) - attack)
    weak = sorted(set(range(n)) - set(strong))
    lead = strong[0]
    dealer = (lead - 1) % n  # the dealer's right-hand neighbour leads first
    owner: int | None = None
    if excuse.startswith("losing"):
        owner = weak[-1]
    elif excuse == "winning-led-last":
        owner = lead
    elif excuse.startswith("winning"):
        assert len(strong) >= 2, "a second player of the winning camp holds the Excuse"
        owner = strong[-1]
    rest: list[Card] = [c for c in Card if c not in chien and c != Card.EXCUSE]
    weak_count = len(weak) * tricks - (owner in weak)
    by_weakness = sorted(rest, key=_strength)
    weak_cards = by_weakness[:weak_count]
    strong_cards: list[Card] = sorted(by_weakness[weak_count:], key=_strength, reverse=True)
    hands: dict[int, list[Card]] = {s: [] for s in range(n)}
    for s in strong:  # the leader the highest cards, then the others
        size = tricks - (owner == s)
        hands[s], strong_cards = strong_cards[:size], strong_cards[size:]
    assert not strong_cards
    for i, card in enumerate(weak_cards):
        spots = [s for s in weak if len(hands[s]) < tricks - (owner == s)]
        hands[spots[i % len(spots)]].append(card)
    if owner is not None:
        hands[owner].append(Card.EXCUSE)
    for s in weak:  # a Petit sec would annul the deal (§2): the winning camp takes it,
        # for its weakest card (a low trump, forced out at once, or a card of a suit the
        # losing camp then cannot take, having no trump left)
        trumps = [c for c in hands[s] if c.is_trump]
        if trumps == [Card.T1] and Card.EXCUSE not in hands[s]:
            other = strong[-1]
            low = min((c for c in hands[other] if c != Card.EXCUSE), key=_strength)
            hands[other][hands[other].index(low)] = Card.T1
            hands[s][hands[s].index(Card.T1)] = low
    call: Card | None = None
    if n == 5:
        holder = 2 if partner else taker
        call = _give_a_king(hands, holder, chien)
    assert all(len(h) == tricks for h in hands.values()), {s: len(h) for s, h in hands.items()}
    play = _play(n, rules, hands, lead, owner, excuse, call)
    first = (dealer + 1) % n
    record = DealRecord(
        ruleset=rules.spec(), players=n, dealer=SEATS[dealer],
        hands={SEATS[s]: CardSet.from_cards(h) for s, h in hands.items()},
        chien=CardSet.from_cards(chien),
        auction=tuple(Bid(contract=contract if (first + i) % n == taker else None)
                      for i in range(n)),
        call=None if call is None else Call(card=call),
        ecart=Ecart(cards=CardSet.from_cards(chien)) if contract.takes_chien else None,
        play=tuple(Trick(cards=tuple(PlayedCard(card=c) for c in t)) for t in play),
    )
    return with_replayed_result(record)


def with_replayed_result(record: DealRecord) -> DealRecord:
    """The record with every fact of its result as the replay finds it."""
    r = replay(record)
    assert r.ok, [str(d) for d in r.diagnostics]
    assert r.taker_half is not None
    partner = None
    if record.players == 5 and r.taker is not None:
        partner = r.partner or r.taker
    return record.model_copy(update={"result": Result(
        contract=r.contract, taker=r.taker, partner=partner, taker_points=r.taker_half / 2,
        bouts=r.bouts, petit_au_bout=r.petit_au_bout, chelem=r.chelem, scores=r.scores)})


def _give_a_king(hands: dict[int, list[Card]], holder: int, chien: Sequence[Card]) -> Card:
    """A King for ``holder`` to be called by (a partner), or to call himself (alone)."""
    for card in hands[holder]:
        if not card.is_trump and card != Card.EXCUSE and card.rank == 14:
            return card
    king = next(c for c in _suit_cards() if c.rank == 14 and c not in chien)
    other = next(s for s, h in hands.items() if king in h)
    give = min((c for c in hands[holder] if c != Card.EXCUSE), key=_strength)
    hands[other][hands[other].index(king)] = give
    hands[holder][hands[holder].index(give)] = king
    return king


def scripted_deal(players: int, contract: Contract, *, dealer: int,
                  hands: dict[int, list[Card]], chien: Sequence[Card],
                  script: dict[tuple[int, int], Card], rules: Ruleset | None = None
                  ) -> DealRecord:
    """A deal played out from given hands (seat 0 takes; in a Prise or Garde his écart is
    the chien he took): ``script`` sets the card of (trick, seat), 0-based; otherwise the
    leader plays his strongest card and the others their weakest legal one, the Excuse
    only when scripted or last. The result is the replay's own, every fact filled in."""
    rules = rules or Ruleset.fft()
    n = players
    first = (dealer + 1) % n
    play = _play(n, rules, hands, first, None, "chien", None, script)
    record = DealRecord(
        ruleset=rules.spec(), players=n, dealer=SEATS[dealer],
        hands={SEATS[s]: CardSet.from_cards(h) for s, h in hands.items()},
        chien=CardSet.from_cards(chien),
        auction=tuple(Bid(contract=contract if (first + i) % n == 0 else None)
                      for i in range(n)),
        ecart=Ecart(cards=CardSet.from_cards(chien)) if contract.takes_chien else None,
        play=tuple(Trick(cards=tuple(PlayedCard(card=c) for c in t)) for t in play),
    )
    return with_replayed_result(record)


def _play(n: int, rules: Ruleset, dealt: dict[int, list[Card]], lead: int,
          owner: int | None, excuse: str, call: Card | None,
          script: dict[tuple[int, int], Card] | None = None) -> list[list[Card]]:
    hands = {s: set(h) for s, h in dealt.items()}
    tricks = len(dealt[0])
    called = (call if n == 5 and rules.five_player_first_lead
              is FivePlayerFirstLead.NO_CALLED_SUIT else None)
    leader = lead
    out: list[list[Card]] = []
    played_excuse = False
    for t in range(tricks):
        cards: list[Card] = []
        last = t == tricks - 1
        for i in range(n):
            s = (leader + i) % n
            bits = CardSet.from_cards(hands[s]).bits
            allowed = constraint(bits, cards, called if t == 0 and i == 0 else None).legal
            legal = [c for c in hands[s] if allowed >> c & 1]
            card = (script or {}).get((t, s)) or _choose(legal, s == owner and not
                                                         played_excuse, excuse, i, last)
            assert card in legal, (t, s, card, legal)
            played_excuse |= card == Card.EXCUSE
            hands[s].discard(card)
            cards.append(card)
        out.append(cards)
        w = winner_index([int(c) for c in cards])
        if last and cards[0] == Card.EXCUSE:
            w = 0  # the chelem case (checked by the replay)
        assert w is not None
        leader = (leader + w) % n
    return out


def _choose(legal: list[Card], holds_excuse: bool, excuse: str, index: int,
            last: bool) -> Card:
    if holds_excuse:
        now = (excuse in ("losing-early", "winning-early") and index > 0) or last
        if now and Card.EXCUSE in legal:
            return Card.EXCUSE
    others = [c for c in legal if c != Card.EXCUSE] or legal
    if index == 0:
        return max(others, key=_strength)
    return min(others, key=_strength)
