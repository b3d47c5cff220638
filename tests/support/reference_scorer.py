"""A second, deliberately simple scorer, written from docs/rules.md §1–§10 and §12 alone.

It shares no code with the library: it takes a record as the plain JSON data of the
format (``tarotnotation.formats.json.to_dict``; card codes as strings), and works with
strings, lists and dicts. It plays the deal's tricks again to find who won each (§6),
counts the points of each camp with the Excuse rules (§7), the threshold and the result
(§9), and the score of every seat (§8, §10). Rule switches (§12) are read from the
record's ruleset spec, ``"<preset> switch=value ..."``.

It trusts the record to be legal (it is compared with the engine on generated legal
deals): it checks nothing, and ignores any recorded result.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# --- §1 cards --------------------------------------------------------------------------

BOUTS = ("T1", "T21", "EX")
FACE_HALF = {"K": 9, "Q": 7, "N": 5, "J": 3}
RANK = {"J": 11, "N": 12, "Q": 13, "K": 14}


def half_points(code: str) -> int:
    """Bout 9, King 9, Queen 7, Knight 5, Jack 3, every other card 1 (half-points)."""
    if code in BOUTS:
        return 9
    if code[0] == "T":
        return 1
    return FACE_HALF.get(code[:-1], 1)


def is_trump(code: str) -> bool:
    return code[0] == "T"


def trump_number(code: str) -> int:
    return int(code[1:])


def suit(code: str) -> str:
    return "EX" if code == "EX" else "T" if is_trump(code) else code[-1]


def rank(code: str) -> int:
    head = code[:-1]
    return RANK[head] if head in RANK else int(head)


# --- §2, §5 tables; §3 multipliers; §12 presets ------------------------------------------

POIGNEE_SIZES = {3: (13, 15, 18), 4: (10, 13, 15), 5: (8, 10, 13)}
POIGNEE_BONUS = {"simple": 20, "double": 30, "triple": 40}
MULTIPLIER = {"prise": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}
ORDER = ["pass", "prise", "garde", "garde_sans", "garde_contre"]
THRESHOLD = {3: 36, 2: 41, 1: 51, 0: 56}
PRESETS = {
    "fft": {"excuse_last_trick": "changes_camp", "petit_au_bout": "in_last_trick",
            "ecart_trumps": "if_unavoidable_shown", "petit_in_chien": "no_effect",
            "chelem_excuse_wins": "true", "misere": "off",
            "five_player_first_lead": "no_called_suit"},
}
PRESETS["pagat"] = {**PRESETS["fft"], "excuse_last_trick": "to_trick_winner",
                    "ecart_trumps": "never"}


def switches(spec: str | None) -> dict[str, str]:
    """The switches of a ruleset spec such as ``"pagat misere=on"``."""
    words = (spec or "fft").split()
    out = dict(PRESETS[words[0] if words and "=" not in words[0] else "fft"])
    for word in words:
        if "=" in word:
            name, value = word.split("=", 1)
            out[name.strip().lower()] = value.strip().lower()
    return out


@dataclass
class Outcome:
    """What the reference makes of a deal."""

    status: str  # "scored", "annulled", or "unscored" (the play is not complete)
    taker_half: int | None = None
    scores: dict[str, int] = field(default_factory=dict)
    x: int | None = None


def trick_winner(cards: list[str], excuse_wins: bool = False) -> int:
    """The index in ``cards`` of the card that wins the trick (§6; §7 chelem case)."""
    if excuse_wins:
        return cards.index("EX")
    trumps = [i for i, c in enumerate(cards) if is_trump(c)]
    if trumps:
        return max(trumps, key=lambda i: trump_number(cards[i]))
    led = next(suit(c) for c in cards if c != "EX")
    followers = [i for i, c in enumerate(cards) if suit(c) == led]
    return max(followers, key=lambda i: rank(cards[i]))


def score_deal(deal: dict[str, Any]) -> Outcome:
    """Score one record given as the JSON data of the format."""
    n: int = deal["players"]
    seats = [s["id"] for s in deal.get("seats") or [{"id": x} for x in "SENWF"[:n]]]
    rules = switches(deal.get("ruleset"))
    dealer = seats.index(deal["dealer"]) if deal.get("dealer") else n - 1
    first = (dealer + 1) % n

    # §3 the auction: each speaks once in turn from the dealer's right
    taker, contract = None, "pass"
    for i, bid in enumerate(deal.get("auction", [])):
        who = seats.index(bid["seat"]) if bid.get("seat") else (first + i) % n
        if ORDER.index(bid["contract"]) > ORDER.index(contract):
            taker, contract = who, bid["contract"]
    if taker is None:
        return Outcome("annulled")
    chien: list[str] = deal.get("chien", [])
    if (rules["petit_in_chien"] == "annuls" and contract in ("prise", "garde")
            and "T1" in chien):
        return Outcome("annulled")
    m = MULTIPLIER[contract]

    # §6 the play, trick by trick: who led, who played what, who won
    declarations = deal.get("declarations", [])
    announced = any(d["kind"] == "chelem" for d in declarations)
    for d in declarations:
        if d["kind"] == "chelem":
            first = seats.index(d["seat"])
    tricks: list[list[str]] = [[c["card"] for c in t["cards"]] for t in deal.get("play", [])]
    size = {3: 24, 4: 18, 5: 15}[n]
    if len(tricks) != size or any(len(t) != n for t in tricks):
        return Outcome("unscored")
    players_of: list[list[int]] = []
    winners: list[int] = []
    leader = first
    for cards in tricks:
        order = [(leader + k) % n for k in range(n)]
        players_of.append(order)
        leader = order[trick_winner(cards)]  # the last trick's chelem case comes below
        winners.append(leader)

    # the partner (§3, 5 players): the holder of the called card, unless it is the taker
    partner = None
    if n == 5 and deal.get("call"):
        called = deal["call"]["card"]
        for t, cards in enumerate(tricks):
            if called in cards:
                holder = players_of[t][cards.index(called)]
                partner = None if holder == taker else holder
    taker_camp = {taker} | ({partner} if partner is not None else set())

    # §7 chelem case: an Excuse led to the last trick by a camp that won every earlier
    # trick wins it (the winners before it do not depend on it)
    earlier = [w in taker_camp for w in winners[:-1]]
    leads_last_is_taker = players_of[-1][0] in taker_camp
    chelem_lead = tricks[-1][0] == "EX" and (
        all(earlier) if leads_last_is_taker else not any(earlier))
    if chelem_lead and rules["chelem_excuse_wins"] == "true":
        winners[-1] = players_of[-1][0]

    # §9 the points of the taker's camp, with §7's Excuse
    taker_half = 0
    bouts = 0
    for t, cards in enumerate(tricks):
        won_by_taker = winners[t] in taker_camp
        for k, card in enumerate(cards):
            owner_taker = players_of[t][k] in taker_camp
            if card == "EX":
                if t == size - 1 and not (chelem_lead and rules["chelem_excuse_wins"] == "true"):
                    if rules["excuse_last_trick"] == "changes_camp":
                        goes_to_taker = not owner_taker
                    else:
                        goes_to_taker = won_by_taker
                    if goes_to_taker:
                        taker_half += 9
                        bouts += 1
                    continue
                if owner_taker:
                    bouts += 1
                    taker_half += 9 if won_by_taker else 8
                elif won_by_taker:
                    taker_half += 1
                continue
            if won_by_taker:
                taker_half += half_points(card)
                bouts += card in BOUTS
    if contract in ("prise", "garde"):
        ecart = deal.get("ecart", {}).get("cards")
        if ecart is None:  # the cards the taker had and never played
            played = {c for t, cards in enumerate(tricks)
                      for k, c in enumerate(cards) if players_of[t][k] == taker}
            ecart = [c for c in deal["hands"][seats[taker]] + chien if c not in played]
        kept = ecart
    elif contract == "garde_sans":
        kept = chien
    else:
        kept = []
    taker_half += sum(half_points(c) for c in kept)
    bouts += sum(c in BOUTS for c in kept)

    threshold = THRESHOLD[bouts]
    whole, half = divmod(taker_half, 2)
    made = whole >= threshold
    points = whole + 1 if half and made else whole
    d = abs(points - threshold)
    x = (25 + d) * m if made else -(25 + d) * m

    # §8 petit au bout: the last trick, or the one before when the chelem case applies:
    # the camp that leads the Excuse to the last trick after winning every other one
    # takes the last trick too (the Excuse itself, or under chelem_excuse_wins=false a
    # partner; docs/rulings.md)
    same_camp_last = (winners[-1] in taker_camp) == leads_last_is_taker
    t_last = size - 2 if chelem_lead and same_camp_last else size - 1
    cards = tricks[t_last]
    if "T1" in cards:
        scorer_taker = winners[t_last] in taker_camp
        counts = True
        if rules["petit_au_bout"] == "wins_last_trick":
            petit_player = players_of[t_last][cards.index("T1")]
            counts = winners[t_last] == petit_player
        if counts:
            x += 10 * m if scorer_taker else -10 * m

    # §10 poignées: to the camp that wins the deal, whoever showed them
    for dcl in declarations:
        if dcl["kind"] == "poignee":
            size_name = dcl.get("size") or ["simple", "double", "triple"][
                POIGNEE_SIZES[n].index(len(dcl["cards"]))]
            x += POIGNEE_BONUS[size_name] if made else -POIGNEE_BONUS[size_name]

    # §10 chelem
    taker_all = all(w in taker_camp for w in winners)
    defence_all = not any(w in taker_camp for w in winners)
    if taker_all:
        x += 400 if announced else 200
    elif announced:
        x -= 200
    if defence_all:
        x -= 200

    scores = dict.fromkeys(seats, 0)
    for i, s in enumerate(seats):
        if i == taker:
            share = {3: 2, 4: 3, 5: 2 if partner is not None else 4}[n]
            scores[s] = share * x
        elif i == partner:
            scores[s] = x
        else:
            scores[s] = -x
    # the misère (§12): 10 points from each other player, unmultiplied
    if rules["misere"] == "on":
        for dcl in declarations:
            if dcl["kind"] == "misere":
                for s in seats:
                    scores[s] += 10 * (n - 1) if s == dcl["seat"] else -10
    return Outcome("scored", taker_half, scores, x)
