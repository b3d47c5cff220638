"""The one judge of a deal in the usual shape, as plain ints: the rules on its hands,
auction, call, écart, declarations and tricks, by the kernel (:mod:`tarotnotation.kernel`)
and, when built, its compiled twin (``_kernel.play``), then the score
(:func:`tarotnotation.scoring.score`). Every scanner's parts come here, whatever the
format (a parsed JSON record, the parts of ``_kernel.scan_json`` or ``_kernel.scan_text``,
a record already read: :mod:`tarotnotation.quick`); its C twin is ``jb_judge`` in
``csrc/bulk.h``. It says what a clean deal makes (:class:`QuickFacts`) or raises
:class:`LookCloserError`: the caller reads and replays the deal, which words every fault.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import accumulate, compress
from operator import and_, call, itemgetter, or_
from typing import Any, Final, NamedTuple

from . import kernel, native
from .cards import BOUTS_MASK, TRUMP_MASK, Card, card_points
from .fields import UnusualDataError
from .kernel import DEFENCE, SUIT_OF, TAKER
from .rules import Camp, Contract, FivePlayerFirstLead, PoigneeSize, Ruleset, table
from .scoring import DealFacts, Score, score
from .status import Status

__all__ = [
    "ASK",
    "SCORES_KEPT",
    "LookCloserError",
    "QuickFacts",
    "forget_scores",
    "judge",
    "look_closer",
]

#: _BY_SEAT[n][leader](cards): the cards of a trick led by ``leader``, by seat.
_BY_SEAT: Final = {n: tuple(itemgetter(*((s - lead) % n for s in range(n))) for lead in range(n))
                   for n in (3, 4, 5)}
_FIRST: Final = itemgetter(0)
#: The Excuse's and the Petit's numbers (cards.Card), as the played cards hold them.
_EXCUSE: Final = int(Card.EXCUSE)
_PETIT: Final = int(Card.T1)
_ALL: Final = (1 << 78) - 1

#: _FOLLOWERS[n][leader]: the seats that play after the leader, in turn.
_FOLLOWERS: Final = {n: tuple(tuple((lead + c) % n for c in range(1, n)) for lead in range(n))
                     for n in (3, 4, 5)}

#: A kernel camp (0, 1, or -1 for none) as a Camp.
_CAMP_OF: Final = {0: Camp.TAKER, 1: Camp.DEFENCE, -1: None}

_BITS: Final = tuple(1 << c for c in range(78))

#: A bid as a byte: 0 for a pass, else the contract's rank.
_BID_BYTE: Final[dict[Contract | None, int]] = {None: 0, **{c: int(c) for c in Contract}}

#: Scores already worked out (``score`` is pure), by the facts they depend on but the
#: taker, who is the first seat: the other seats' shares are the same. The facts of most
#: deals take a few thousand values.
_SCORES: dict[tuple[Any, ...], Score] = {}
SCORES_KEPT: Final = 16384
#: The compiled twin's flags of each ruleset met (native.rule_flags).
_FLAGS: dict[Ruleset, int] = {}


def forget_scores() -> None:
    """Forget the scores worked out so far: for a program (or a test) that changes how a
    score is worked out while it runs."""
    _SCORES.clear()
#: _CAMPS[n][taker][partner]: each seat's camp (the taker and his partner, the taker's own
#: seat when he plays alone, against the others).
_CAMPS: Final = {n: tuple(tuple(tuple(TAKER if s in (t, p) else DEFENCE for s in range(n))
                                for p in range(n)) for t in range(n)) for n in (3, 4, 5)}



#: "Ask native.compiled()": the default of the functions that may be handed the twin.
ASK: Final = object()


#: What the quick check makes of a clean deal: the first three are
#: :func:`tarotnotation.quick.quick_check`'s answer, then the facts the replay would give
#: (seats are indices in the order of play, the record's seats), then the deal as it was
#: read (what the archive tools summarize with the facts: players, cards, bids, tags).
#: (Declared with its types as values, not as a class whose annotations are strings:
#: typing compiles each of those at import, issue 17.)
QuickFacts = NamedTuple("QuickFacts", [  # noqa: UP014 (types as values: see above)
    ("status", Status),
    ("scores", dict[str, int]),
    ("taker_half", int),
    ("contract", Contract),
    ("taker", int),
    ("bouts", int),
    ("petit_au_bout", Camp | None),
    # The seat that played the Petit in the trick that counted it au bout.
    ("petit_au_bout_seat", int | None),
    ("chelem", Camp | None),
    ("chelem_announced", bool),
    # Each poignée shown, in the record's order: its seat and size.
    ("poignees", tuple[tuple[int, PoigneeSize], ...]),
    ("made", bool),
    # Points over or under the threshold (abs of tarotnotation.scoring.Score.margin_points).
    ("margin", int),
    # The seats' ids, in the order of play.
    ("seats", tuple[str, ...]),
    # Each seat's player's name, when recorded.
    ("names", tuple[str | None, ...]),
    ("dealer", int | None),
    # Each seat's hand as dealt (card bitsets).
    ("hands", tuple[int, ...]),
    # The bids in order, one byte each: 0 for a pass, else the contract's rank.
    ("auction", bytes),
    # The cards played in order, one byte each: the card's number.
    ("play", bytes),
    ("tags", tuple[tuple[str, str], ...]),
    # The record's own ruleset spec as written (None when it names none).
    ("ruleset", str | None),
    # At five players the card called (its number) and the partner who held it (None
    # when the taker plays alone: the card in his own hand or the chien); None and None
    # at three and four.
    ("called", int | None),
    ("partner", int | None),
])
QuickFacts.__doc__ = """What the quick check makes of a clean deal: its answer, the facts
the replay would give and the deal as it was read (see the comment above it)."""


class LookCloserError(UnusualDataError):
    """Not a plain clean deal: the caller reads and replays it. (It is the fast record
    builder's "unusual data", so the checks shared with it, records._keys and
    records.check_notes, say it too.)"""

def look_closer() -> LookCloserError:
    """A new :class:`LookCloserError`: ``raise look_closer()``."""
    return LookCloserError()

def judge(n: int, rules: Ruleset, ids: tuple[str, ...], first: int, given: list[int],
           chien: int, bids: list[Contract | None], called: int | None, ecart: int | None,
           poignees: list[tuple[int, int]], announcers: list[int],
           cards: Sequence[int], recorded: dict[str, int] | None, twin: Any = ASK, *,
           read: tuple[tuple[str | None, ...], int | None, Sequence[tuple[str, str]],
                       str | None]
           ) -> QuickFacts:
    """The rules on a deal in the usual shape, as plain ints: ``given`` the hands as
    dealt, ``bids`` in order of speech from ``first``, ``called`` the card called at
    five players (else None), ``poignees`` (seat, cards shown),
    ``announcers`` the seats announcing a chelem, ``cards`` the cards of each trick from
    its leader's, ``recorded`` the scores; ``read`` is what the facts carry of the
    record as read and the rules do not judge (the names, the dealer's seat, the tags
    and the record's own ruleset spec)."""
    tab = table(n)
    # Every card once (with a card twice, the sum carries and loses bits).
    if (list(map(int.bit_count, given)) != [tab.hand] * n or chien.bit_count() != tab.chien
            or sum(given) + chien != _ALL or len(cards) != n * tab.tricks):
        raise look_closer()
    if any(map(kernel.petit_sec, given)):
        raise look_closer()  # the Petit sec: the deal is annulled

    # Auction: one bid each, in turn, each higher.
    if len(bids) != n:
        raise look_closer()
    contract: Contract | None = None
    taker = -1
    for i, wanted in enumerate(bids):
        if wanted is not None:
            if not kernel.outbids(wanted, contract):
                raise look_closer()
            contract, taker = wanted, (first + i) % n
    if contract is None:
        raise look_closer()  # all passed

    # The call (five players, §3): a card the taker may call; its holder is his partner,
    # none when it is in his own hand or the chien (he plays alone).
    partner: int | None = None
    first_lead_called = -1
    if (called is None) is (n == 5):
        raise look_closer()
    if called is not None:
        if kernel.call_fault(called, given[taker]):
            raise look_closer()
        bit = _BITS[called]
        partner = next((s for s in range(n) if given[s] & bit and s != taker), None)
        if rules.five_player_first_lead is FivePlayerFirstLead.NO_CALLED_SUIT:
            first_lead_called = called
    camps = _CAMPS[n][taker][taker if partner is None else partner]

    # Chien and écart (an écart with trumps, which are shown, goes to the replay).
    start = list(given)
    if contract.takes_chien:
        if kernel.petit_in_chien_annuls(rules, contract, chien):
            raise look_closer()
        pool = given[taker] | chien
        if (ecart is None or ecart.bit_count() != tab.chien or ecart & ~pool
                or kernel.ecart_forbidden(ecart) or ecart & TRUMP_MASK):
            raise look_closer()
        start[taker] = pool & ~ecart
    elif ecart is not None:
        raise look_closer()

    # Declarations: poignées shown with their cards, one a seat; a chelem announced by
    # the taker, who then leads.
    sizes = []
    seen = set()
    for s, shown in poignees:
        if s in seen:
            raise look_closer()
        seen.add(s)
        size = tab.poignee_size(shown.bit_count())
        if (size is None or kernel.poignee_wrong_cards(shown) or shown & ~start[s]
                or kernel.poignee_hidden_trumps(start[s], shown)):
            raise look_closer()
        sizes.append(size)
    if announcers and announcers != [taker]:
        raise look_closer()
    leader = kernel.first_leader(first, taker if announcers else None)

    if twin is ASK:
        twin = native.compiled()
    if twin is None:
        taker_half, bouts, pab, pab_seat, chelem = _play_pure(
            n, rules, contract, camps, leader, start, cards, first_lead_called)
    else:
        taker_half, bouts, pab, pab_seat, chelem = _play_compiled(
            twin, n, rules, contract, camps, leader, start, cards, first_lead_called)
    # (the partner's seat counted from the taker's, as the score is worked out for a
    # taker in the first seat)
    beside = None if partner is None else (partner - taker) % n
    key = (n, contract, taker_half, bouts, pab, tuple(sizes), chelem, bool(announcers),
           beside)
    worked = _SCORES.get(key)  # the score when the first seat takes
    if worked is None:
        if len(_SCORES) >= SCORES_KEPT:
            _SCORES.clear()
        worked = _SCORES[key] = score(DealFacts(
            players=n, taker=0, contract=contract, taker_half=taker_half, bouts=bouts,
            partner=beside, petit_au_bout=pab, poignees=tuple(sizes),
            chelem_announced=bool(announcers), chelem=chelem))
    by_taker = worked.seats
    scores = dict(zip(ids, by_taker[n - taker:] + by_taker[:n - taker], strict=True))

    # The recorded result: at most the scores, each as the rules give it (and so
    # summing to zero when they are all there).
    if recorded is not None and not recorded.items() <= scores.items():
        raise look_closer()
    names, dealer, tags, own = read
    return QuickFacts(
        Status.SCORED, scores, taker_half, contract, taker, bouts, pab, pab_seat, chelem,
        bool(announcers), tuple(zip((s for s, _ in poignees), sizes, strict=True)),
        worked.made, abs(worked.margin_points), ids, names, dealer, tuple(given),
        bytes(map(_BID_BYTE.__getitem__, bids)),
        cards if type(cards) is bytes else bytes(cards), tuple(tags), own, called, partner)


def _play_compiled(twin: Any, n: int, rules: Ruleset, contract: Contract,
                   camps: tuple[int, ...], leader: int, start: list[int], cards: Sequence[int],
                   called: int) -> tuple[int, int, Camp | None, int | None, Camp | None]:
    """The play and the count of a deal in the usual shape, by the kernel's compiled twin
    (:func:`tarotnotation._kernel.play`, the twin of :class:`kernel.PlayState` stepped
    card by card): ``(taker's camp's half-points, bouts, petit au bout's camp, the seat
    that played the Petit then, chelem's camp)``; ``camps`` each seat's camp, ``called``
    the called card whose suit may not lead the first trick (-1: no such rule);
    a card not in its player's hand or not legal: not clean. :func:`_play_pure` is the
    same over Python ints; ``tests/twins/test_quick_native.py`` holds the two to the same
    answers."""
    flags = _FLAGS.get(rules)
    if flags is None:
        flags = _FLAGS[rules] = native.rule_flags(rules)
    played, winners, half, bouts, won, petit = twin.play(flags, start, camps, leader, cards,
                                                         called)
    if played != len(cards):
        raise look_closer()  # a card not in the hand, or not legal
    if kernel.unplayed_camp(contract) == TAKER:  # the cards aside (§9)
        aside = _ALL & ~sum(start)
        half += card_points(aside)
        bouts += (aside & BOUTS_MASK).bit_count()
    pab_seat = None
    if petit >= 0:  # the Petit's trick counted it: who led that trick, and its place
        t, at = divmod(list(cards).index(_PETIT), n)
        pab_seat = ((leader if t == 0 else winners[t - 1]) + at) % n
    return (half, bouts, _CAMP_OF[petit], pab_seat,
            _CAMP_OF[kernel.chelem_camp(won[TAKER], len(cards) // n)])


def _play_pure(n: int, rules: Ruleset, contract: Contract, camps: tuple[int, ...],
               leader: int, start: list[int], cards: Sequence[int], called: int
               ) -> tuple[int, int, Camp | None, int | None, Camp | None]:
    """:func:`_play_compiled` in pure Python, over all the tricks at once."""
    tricks = list(zip(*[iter(cards)] * n, strict=True))
    # The play, in two passes, each over all the tricks at once. First who won each
    # trick: that needs only its cards (kernel.winning_card), and each trick's leader is
    # the last one's winner. Then each seat's hand before each trick: the cards it played
    # from then on, which is the hand when every seat played exactly the cards it held
    # (checked); with it, the tricks where not everyone followed the suit led are checked
    # card by card, against the kernel's transition table (kernel.transitions).
    tab = table(n)
    last = tab.tricks - 1
    flat = list(cards)
    by_trick = list(zip(*[iter(map(_BITS.__getitem__, flat))] * n, strict=True))
    bits = list(map(sum, by_trick))  # each trick's cards
    played = sum(bits)
    if played.bit_count() != n * tab.tricks:
        raise look_closer()  # a card played twice: the sum carried
    firsts = list(map(_FIRST, tricks))
    if _EXCUSE in firsts:  # the Excuse led: the card that sets the suit (kernel.led_card)
        firsts = list(map(kernel.led_card, tricks))
    led = list(map(SUIT_OF.__getitem__, firsts))
    tops = map(kernel.winning_card, bits, led)
    # seats[t]: the leader of trick t, and seats[t + 1] the seat of its winning card (the
    # Excuse's case on the last trick is the kernel's: count_tricks, below).
    seats = list(map(n.__rmod__, accumulate(map(tuple.index, tricks, tops), initial=leader)))
    leaders = seats[:-1]
    # later[s][last - t]: the cards seat s played from trick t on.
    later = [list(accumulate(reversed(column), or_))
             for column in zip(*map(call, map(_BY_SEAT[n].__getitem__, leaders), by_trick),
                               strict=True)]
    if [cards[-1] for cards in later] != start:
        raise look_closer()  # a card not in the player's hand
    if called >= 0 and not kernel.first_lead(start[leader], called)[0] >> tricks[0][0] & 1:
        raise look_closer()  # the called suit led to the first trick (five players, §6)
    legal, after_lead, can_be_illegal = kernel.transitions()
    checks = compress(range(tab.tricks), map(and_, bits, map(can_be_illegal.__getitem__, led)))
    if n == 4:  # the loop below, unrolled
        for t in checks:
            r = last - t
            c0, c1, c2, c3 = tricks[t]
            lead = leaders[t]
            f1, state = legal[after_lead[c0] + c1]
            f2, state = legal[state + c2]
            f3 = legal[state + c3][0]
            if ((f1 and later[(lead + 1) % 4][r] & f1) or (f2 and later[(lead + 2) % 4][r] & f2)
                    or (f3 and later[(lead + 3) % 4][r] & f3)):
                raise look_closer()  # must follow suit, trump or overtrump
    else:
        followers = _FOLLOWERS[n]
        for t in checks:
            r = last - t
            cards = tricks[t]
            state = after_lead[cards[0]]  # the lead is free
            for s, card in zip(followers[leaders[t]], cards[1:], strict=True):
                forbid, state = legal[state + card]
                if forbid and later[s][r] & forbid:
                    raise look_closer()  # must follow suit, trump or overtrump

    # Counting (§7-§10), with the kernel.
    counting = kernel.count_tricks(rules, tricks, camps, tab.tricks, leader=leader,
                                   winners=seats[1:])
    piles = [counting.taker, counting.defence]
    piles[kernel.unplayed_camp(contract)] |= ~played & _ALL
    taker_half = card_points(piles[TAKER]) + counting.moved
    bouts = (piles[TAKER] & BOUTS_MASK).bit_count()
    chelem = _CAMP_OF[counting.chelem]
    p = counting.petit_trick
    pab = _CAMP_OF[counting.petit]
    return (taker_half, bouts, pab,
            None if pab is None else (leaders[p] + tricks[p].index(_PETIT)) % n, chelem)
