"""Shared builders for the rule tests.

Everything here that computes an *expected* value does so from docs/rules.md directly and
independently of the library: card values come from the table of §1 written out below,
trick winners from the sentence of §6, and the camps' points from §7 and §9. The library
is used only to build records (the pydantic model) and, in :func:`seeded_deal`, to
generate random legal deals.

The crafted deal (:func:`slam_deal`) is a 4-player deal in which every trick is easy to
check by hand: seats S, E, N, W (dealer W, so S speaks and leads first), the chien
``1S 2S 1H 2H 1D 2D``. Its first twelve tricks are fixed: S leads the King, Queen and
Knight of each suit in turn (Spades, Hearts, Diamonds, Clubs, then again), E follows
with the 3-5, N with the 6-8 and W with the 9-Jack of that suit, so S wins all twelve.
The last six tricks are given by each test.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence

from tarotnotation.cards import Card, CardSet
from tarotnotation.records import (
    Bid,
    Call,
    ChelemAnnouncement,
    DealRecord,
    Declaration,
    Ecart,
    PlayedCard,
    Result,
    Trick,
)
from tarotnotation.replay import replay
from tarotnotation.rules import Contract, Ruleset
from tarotnotation.simulate import random_deal

SEATS4 = ("S", "E", "N", "W")
SEATS5 = ("S", "E", "N", "W", "F")

# --- docs/rules.md §1, written out independently of tarotnotation.cards ----------------------

_FACE_HALF = {"K": 9, "Q": 7, "N": 5, "J": 3}


def half_points(code: str) -> int:
    """Value of a card code in half-points: bout 9, King 9, Queen 7, Knight 5, Jack 3, else 1."""
    if code in ("T1", "T21", "EX"):
        return 9
    if code.startswith("T"):
        return 1
    return _FACE_HALF.get(code[:-1], 1)


def is_trump(code: str) -> bool:
    """True for T1..T21 (not the Excuse)."""
    return code.startswith("T")


def _rank(code: str) -> int:
    """Rank within a suit (1..14) or trump number (1..21)."""
    if is_trump(code):
        return int(code[1:])
    head = code[:-1]
    return {"J": 11, "N": 12, "Q": 13, "K": 14}.get(head) or int(head)


def trick_winner(cards: Sequence[str]) -> int:
    """Index of the winning card (§6): the highest trump, else the highest of the suit led.

    The suit led is that of the first card that is not the Excuse. The Excuse never wins.
    """
    trumps = [i for i, c in enumerate(cards) if is_trump(c)]
    if trumps:
        return max(trumps, key=lambda i: _rank(cards[i]))
    led = next(c[-1] for c in cards if c != "EX")
    same = [i for i, c in enumerate(cards) if c != "EX" and c[-1] == led]
    return max(same, key=lambda i: _rank(cards[i]))


# --- building records -------------------------------------------------------------------


def cards(text: str) -> CardSet:
    """A CardSet from codes."""
    return CardSet.parse(text)


def ordered_play(
    seats: Sequence[str], first: str, tricks: Sequence[Mapping[str, str]]
) -> tuple[Trick, ...]:
    """The tricks, each given as seat -> card code, put in order of play.

    The leader of the first trick is ``first``; the leader of each next trick is the
    winner of the previous one by :func:`trick_winner`. Each played card names its seat.
    """
    out: list[Trick] = []
    leader = seats.index(first)
    n = len(seats)
    for spec in tricks:
        order = [seats[(leader + i) % n] for i in range(n)]
        assert set(spec) == set(seats), spec
        codes = [spec[s] for s in order]
        out.append(
            Trick(cards=tuple(PlayedCard(card=Card.from_code(spec[s]), seat=s) for s in order))
        )
        leader = seats.index(order[trick_winner(codes)])
    return tuple(out)


def auction_for(
    seats: Sequence[str], first: str, taker: str, contract: Contract
) -> tuple[Bid, ...]:
    """Everyone passes but the taker, speaking once each from ``first``."""
    start = seats.index(first)
    order = [seats[(start + i) % len(seats)] for i in range(len(seats))]
    return tuple(Bid(contract=contract if s == taker else None, seat=s) for s in order)


def tricks_codes(record: DealRecord) -> list[list[tuple[str, str]]]:
    """The play as lists of (seat, card code)."""
    out: list[list[tuple[str, str]]] = []
    for trick in record.play:
        row: list[tuple[str, str]] = []
        for pc in trick.cards:
            assert pc.seat is not None
            row.append((pc.seat, pc.card.code))
        out.append(row)
    return out


def seat_play(record: DealRecord) -> list[list[tuple[str, str]]]:
    """The play of a record whose cards may not name seats: seat order from the winners
    (the first leader is the chelem announcer, if any, else the dealer's right-hand)."""
    seats = record.seat_ids
    announcer = [d.seat for d in record.declarations if isinstance(d, ChelemAnnouncement)]
    leader = seats.index(announcer[0] if announcer else record.first_seat)
    out: list[list[tuple[str, str]]] = []
    n = len(seats)
    for trick in record.play:
        row = [(seats[(leader + i) % n], pc.card.code) for i, pc in enumerate(trick.cards)]
        out.append(row)
        leader = seats.index(row[trick_winner([c for _, c in row])][0])
    return out


# --- the crafted slam deal ----------------------------------------------------------------

SLAM_CHIEN = "1S 2S 1H 2H 1D 2D"


def slam_plain_tricks() -> list[dict[str, str]]:
    """The twelve fixed tricks of the crafted deal: S leads K, Q, N of each suit in turn."""
    tricks: list[dict[str, str]] = []
    top = ("K", "Q", "N")
    follow = {"E": ("3", "4", "5"), "N": ("6", "7", "8"), "W": ("9", "10", "J")}
    for rnd in range(3):
        for suit in "SHDC":
            tricks.append({
                "S": top[rnd] + suit,
                "E": follow["E"][rnd] + suit,
                "N": follow["N"][rnd] + suit,
                "W": follow["W"][rnd] + suit,
            })
    return tricks


def slam_deal(
    tail: Sequence[Mapping[str, str]],
    *,
    taker: str = "S",
    contract: Contract = Contract.GARDE,
    ruleset: str = "fft",
    declarations: Iterable[Declaration] = (),
    result: Result | None = None,
    plain: Sequence[Mapping[str, str]] | None = None,
    chien: str = SLAM_CHIEN,
) -> DealRecord:
    """The crafted 4-player deal with the given last six tricks.

    Hands are what each seat plays; when the contract takes the chien, the taker's écart
    is the chien itself (six low plain cards), so his dealt hand is also what he plays.
    """
    tricks = list(plain if plain is not None else slam_plain_tricks()) + list(tail)
    assert len(tricks) == 18
    hands = {s: cards(" ".join(t[s] for t in tricks)) for s in SEATS4}
    decls = tuple(declarations)
    first = "S"
    leader = next((d.seat for d in decls if isinstance(d, ChelemAnnouncement)), first)
    return DealRecord(
        ruleset=ruleset,
        players=4,
        dealer="W",
        hands=hands,
        chien=cards(chien),
        auction=auction_for(SEATS4, first, taker, contract),
        ecart=Ecart(cards=cards(chien)) if contract.takes_chien else None,
        declarations=decls,
        play=ordered_play(SEATS4, leader, tricks),
        result=result,
    )


# --- independent counting ----------------------------------------------------------------


def camp_half_points(
    record: DealRecord,
    team: set[str],
    *,
    excuse_last: str = "changes_camp",
) -> tuple[int, int]:
    """The taker's camp's half-points and bouts from a complete play, by docs/rules.md §7 and §9.

    Trick winners come from :func:`trick_winner` (no chelem-Excuse case); the cards not
    played (écart or chien) go to the taker's camp except in a Garde contre.
    """
    play = seat_play(record)
    assert play[-1][0][1] != "EX", "the chelem case of §7 is not counted here"
    pile: dict[str, set[str]] = {"T": set(), "D": set()}
    exchange = 0
    last = len(play) - 1
    for t, row in enumerate(play):
        codes = [c for _, c in row]
        winner_seat = row[trick_winner(codes)][0]
        wcamp = "T" if winner_seat in team else "D"
        for seat, code in row:
            if code != "EX":
                pile[wcamp].add(code)
                continue
            owner = "T" if seat in team else "D"
            other = "D" if owner == "T" else "T"
            if t == last:
                dest = other if excuse_last == "changes_camp" else wcamp
                pile[dest].add(code)
            else:
                pile[owner].add(code)
                if owner != wcamp:  # the owner gives a low card: 1 half-point
                    exchange += 1 if wcamp == "T" else -1
    played = {c for row in play for _, c in row}
    unplayed = {c.code for c in CardSet.all()} - played
    assert record.auction
    contract = max(b.contract for b in record.auction if b.contract is not None)
    pile["D" if contract is Contract.GARDE_CONTRE else "T"] |= unplayed
    assert len(pile["T"]) + len(pile["D"]) == 78
    half = sum(half_points(c) for c in pile["T"]) + exchange
    bouts = len(pile["T"] & {"T1", "T21", "EX"})
    return half, bouts


def petit_au_bout_camp(record: DealRecord, team: set[str]) -> str | None:
    """'taker' or 'defence' when the Petit is in the last trick (fft), else None."""
    last = seat_play(record)[-1]
    codes = [c for _, c in last]
    if "T1" not in codes:
        return None
    return "taker" if last[trick_winner(codes)][0] in team else "defence"


def seeded_deal(
    seed: int,
    players: int,
    contract: Contract,
    ruleset: Ruleset | None = None,
) -> DealRecord:
    """A random legal deal without poignée or chelem announcement (for full-deal tests)."""
    return random_deal(
        random.Random(seed), players, contract=contract, ruleset=ruleset,
        poignee_chance=0.0, chelem_chance=0.0,
    )


# --- literal deals -----------------------------------------------------------------------


def parse_tricks(lines: Sequence[str]) -> tuple[Trick, ...]:
    """Tricks written as ``"S:7S E:QS N:JS W:2S"`` (seat:card in order of play)."""
    out: list[Trick] = []
    for line in lines:
        played = []
        for word in line.split():
            seat, _, code = word.partition(":")
            played.append(PlayedCard(card=Card.from_code(code), seat=seat))
        out.append(Trick(cards=tuple(played)))
    return tuple(out)


def literal_deal(
    *,
    players: int,
    dealer: str,
    hands: Mapping[str, str],
    chien: str,
    auction: Sequence[str],
    call: str | None,
    ecart: str | None,
    play: Sequence[str],
    ruleset: str = "fft",
    result: Result | None = None,
) -> DealRecord:
    """A record from the literal form used in the full-deal tests."""
    seats = SEATS5[:players]
    first = seats[(seats.index(dealer) + 1) % players]
    order = [seats[(seats.index(first) + i) % players] for i in range(players)]
    return DealRecord(
        ruleset=ruleset,
        players=players,
        dealer=dealer,
        hands={s: cards(h) for s, h in hands.items()},
        chien=cards(chien),
        auction=tuple(Bid(contract=b, seat=s) for s, b in zip(order, auction, strict=True)),
        call=None if call is None else Call(card=Card.from_code(call)),
        ecart=None if ecart is None else Ecart(cards=cards(ecart), shown=cards(ecart).trumps()),
        play=parse_tricks(play),
        result=result,
    )


def fill_hands(
    players: int, fixed: Mapping[str, str], chien: str = ""
) -> tuple[dict[str, CardSet], CardSet]:
    """Complete hands: each seat gets its ``fixed`` cards, the chien its own, and the rest
    of the pack is dealt one card at a time round the table (in canonical card order)."""
    seats = SEATS5[:players]
    size = {3: 24, 4: 18, 5: 15}[players]
    chien_size = {3: 6, 4: 6, 5: 3}[players]
    hands = {s: list(cards(fixed.get(s, ""))) for s in seats}
    pile = list(cards(chien))
    used = {c for h in hands.values() for c in h} | set(pile)
    rest = [c for c in Card if c not in used]
    turn = 0
    for c in rest:
        for _ in range(players + 1):
            slot = turn % (players + 1)
            target = seats[slot] if slot < players else ""
            turn += 1
            if target and len(hands[target]) < size:
                hands[target].append(c)
                break
            if not target and len(pile) < chien_size:
                pile.append(c)
                break
        else:
            raise AssertionError("no room left for " + c.code)
    assert all(len(h) == size for h in hands.values())
    assert len(pile) == chien_size
    return {s: CardSet.from_cards(h) for s, h in hands.items()}, CardSet.from_cards(pile)


# --- last six tricks of the crafted deal, each checked by hand in the tests -------------


def _tail(*rows: str) -> list[dict[str, str]]:
    """Tricks written ``"T21 T1 T6 T11"``: the cards of S, E, N and W (in seat order)."""
    return [dict(zip(SEATS4, row.split(), strict=True)) for row in rows]


#: S wins 13-17 with T21..T17; at 18 S leads 1C, E discards the Excuse, W ruffs with T16.
TAIL_EXCUSE_LAST_DEFENCE_WINS = _tail(
    "T21 T1 T6 T11", "T20 T2 T7 T12", "T19 T3 T8 T13", "T18 T4 T9 T14", "T17 T5 T10 T15",
    "1C EX 2C T16",
)
#: S wins every trick; W plays the Excuse at trick 13 (the defence has no trick yet).
TAIL_CHELEM_DEFENCE_EXCUSE = _tail(
    "T21 T1 T6 EX", "T20 T2 T7 T11", "T19 T3 T8 T12", "T18 T4 T9 T13", "T17 T5 T10 T14",
    "T16 1C 2C T15",
)
#: S wins 1-17 and leads the Excuse to trick 18; the Petit falls in trick 17.
TAIL_CHELEM_EXCUSE_LED = _tail(
    "T21 T2 T6 T11", "T20 T3 T7 T12", "T19 T4 T8 T13", "T18 T5 T9 T14", "T17 T1 T10 T15",
    "EX 1C 2C T16",
)
#: S wins 1-17 and leads the Excuse to trick 18, where E plays the Petit (the only trump).
TAIL_CHELEM_EXCUSE_LED_PETIT_LAST = _tail(
    "T21 T2 T7 T12", "T20 T3 T8 T13", "T19 T4 T9 T14", "T18 T5 T10 T15", "T17 T6 T11 T16",
    "EX T1 1C 2C",
)
#: E discards the Excuse at 17 (S wins); at 18 S leads 1C, E ruffs with the Petit and N
#: overtrumps with T16: the Petit is in the last trick, won by the defence, not by itself.
TAIL_PETIT_LAST_DEFENCE = _tail(
    "T21 T2 T6 T11", "T20 T3 T7 T12", "T19 T4 T8 T13", "T18 T5 T9 T14", "T17 EX T10 T15",
    "1C T1 T16 2C",
)
#: S wins every trick, the last with the Petit itself; E discards the Excuse at 18.
TAIL_PETIT_WINS_LAST = _tail(
    "T21 T2 T7 T12", "T20 T3 T8 T13", "T19 T4 T9 T14", "T18 T5 T10 T15", "T17 T6 T11 T16",
    "T1 EX 1C 2C",
)
#: W discards the Excuse at 13; S leads the Petit to 18 and W overtrumps it with T16.
TAIL_PETIT_LOST_LAST = _tail(
    "T21 T2 T7 EX", "T20 T3 T8 T12", "T19 T4 T9 T13", "T18 T5 T10 T14", "T17 T6 T11 T15",
    "T1 1C 2C T16",
)


def taker_excuse_tail() -> list[dict[str, str]]:
    """S leads his own Excuse to trick 13: E plays T5, N T10, W wins with T15 and leads
    T14 to trick 14, which S wins with T21; S wins 15-18."""
    return [
        {"S": "EX", "E": "T5", "N": "T10", "W": "T15"},
        {"W": "T14", "S": "T21", "E": "T4", "N": "T9"},
        *_tail("T20 T3 T8 T13", "T19 T2 T7 T12", "T18 T1 T6 T11", "T17 1C 2C T16"),
    ]


# --- deals played out by a script -------------------------------------------------------
# Each seat plays the first legal card of its own order of preference, so the tricks
# follow from the hands (rules.md §8's chelem cases, tests/kernel/test_rules_excuse.py).


def scripted_deal(players: int, hands: dict[str, str], orders: dict[str, str], chien: str,
              taker: str, dealer: str, ruleset: str, call: str | None = None) -> DealRecord:
    """A complete deal: each seat holds ``hands[seat]`` and plays the first legal card of
    ``orders[seat]`` (then of its hand in canonical order)."""
    from tarotnotation.cards import CardSet
    from tarotnotation.kernel import rule, winner_index
    from tarotnotation.records import Bid, Call, Result, Trick
    from tarotnotation.records import PlayedCard as Played

    seats = ("S", "E", "N", "W", "F")[:players]
    held = {s: CardSet.parse(hands[s]).bits for s in seats}
    prefs = {s: [Card.from_code(code) for code in orders.get(s, "").split()] for s in seats}
    first = (seats.index(dealer) + 1) % players
    leader = first
    tricks = []
    called = None if call is None else int(Card.from_code(call))
    for t in range(len(CardSet.parse(hands[seats[0]]))):
        cards: list[int] = []
        for i in range(players):
            s = seats[(leader + i) % players]
            legal = rule(held[s], cards, called if t == 0 and i == 0 else None)[0]
            choice = next((int(c) for c in prefs[s] if legal >> c & 1),
                          (legal & -legal).bit_length() - 1)
            held[s] &= ~(1 << choice)
            cards.append(choice)
        tricks.append(Trick(cards=tuple(Played(card=Card(c)) for c in cards)))
        w = winner_index(cards)
        assert w is not None
        leader = (leader + w) % players
    auction = tuple(Bid(contract=Contract.GARDE_SANS if seats[(first + i) % players] == taker
                        else None) for i in range(players))
    rec = DealRecord(players=players, ruleset=ruleset, dealer=dealer,
                     hands={s: CardSet.parse(hands[s]) for s in seats},
                     chien=CardSet.parse(chien), auction=auction,
                     call=None if call is None else Call(card=Card.from_code(call)),
                     play=tuple(tricks))
    scores = replay(rec).scores
    return rec.model_copy(update={"result": Result(scores=dict(scores or {}))})


def plain_cards(suit: str, ranks: str) -> str:
    return " ".join(f"{r}{suit}" for r in ranks.split())


def defence_chelem_excuse_led_last(last_winner: str,
                                   ruleset: str = "fft chelem_excuse_wins=false") -> DealRecord:
    """A 4-player defence chelem with the Excuse led to the last trick (see the comment)."""
    # S takes a Garde sans holding the low trumps; W (defence) holds T1, T6-T21 and the
    # Excuse: W leads T21 down to T6 (16 tricks), then the Petit (trick 17, won alone),
    # then the Excuse to trick 18. S plays first after it and sets Hearts; the last trick
    # goes to E (a fellow defender) or to S (the taker's camp). Each order ends with the
    # card kept for the last trick.
    spades = plain_cards("S", "1 2 3 4 5 6 7 8 9 10")
    diamonds = plain_cards("D", "1 2 3 4 5 6 7 8 9 10 J N Q K")
    clubs = plain_cards("C", "1 2 3 4 5 6 7 8 9 10 J N Q")
    hands = {
        "W": "T1 " + " ".join(f"T{n}" for n in range(6, 22)) + " EX",
        "N": f"{clubs} JS NS QS KS 6H",
    }
    orders = {
        "W": " ".join(f"T{n}" for n in range(21, 5, -1)) + " T1 EX",
        "N": f"{clubs} JS NS QS KS 6H",
    }
    if last_winner == "E":
        hands["S"] = f"T2 T3 T4 T5 {spades} 2H 3H 5H KC"
        orders["S"] = f"{spades} KC 3H 5H 2H"
        hands["E"] = f"{diamonds} 1H 4H QH KH"
        orders["E"] = f"{diamonds} 1H 4H QH KH"
    else:
        hands["S"] = f"T2 T3 T4 T5 {spades} 2H 3H 5H KH"
        orders["S"] = f"{spades} 2H 3H 5H KH"
        hands["E"] = f"{diamonds} 1H 4H QH KC"
        orders["E"] = f"{diamonds} 1H QH KC 4H"
    return scripted_deal(4, hands, orders, "7H 8H 9H 10H JH NH", taker="S", dealer="N",
                     ruleset=ruleset)


def attack_chelem_excuse_led_last(partner_takes_last: bool) -> DealRecord:
    """A 5-player attack chelem with the Excuse led to the last trick (see the comment)."""
    # S takes a Garde sans and calls the King of Hearts, held by E. S holds T1, T9-T21 and
    # the Excuse: he leads T21 down to T9 (13 tricks; the defenders' trumps fall in the
    # first three), then the Petit (trick 14, won alone), then the Excuse to trick 15. E
    # plays first after it: the King of Hearts takes the last trick, or a low Spade that N
    # beats with the King of Spades.
    hands = {
        "S": "T1 " + " ".join(f"T{n}" for n in range(9, 22)) + " EX",
        "E": "KH 3S " + plain_cards("D", "1 2 3 4 5 6 7 8 9 10 J N Q"),
        "N": "T2 T3 T4 KS " + plain_cards("C", "1 2 3 4 5 6 7 8 9 10 J"),
        "W": "T5 T6 2S 4S 5S 6S 7S 8S 9S 10S JS NS QS KD QC",
        "F": "T7 T8 1S 1H 2H 3H 4H 5H 6H 7H 8H 9H 10H JH NH",
    }
    chien = "QH KC NC"
    if partner_takes_last:
        orders = {"E": plain_cards("D", "1 2 3 4 5 6 7 8 9 10 J N Q") + " 3S KH"}
    else:
        orders = {"E": plain_cards("D", "1 2 3 4 5 6 7 8 9 10 J N Q") + " KH 3S"}
    orders["N"] = "T2 T3 T4 " + plain_cards("C", "1 2 3 4 5 6 7 8 9 10 J") + " KS"
    orders["S"] = " ".join(f"T{n}" for n in range(21, 8, -1)) + " T1 EX"
    return scripted_deal(5, hands, orders, chien, taker="S", dealer="F",
                     ruleset="fft chelem_excuse_wins=false", call="KH")
