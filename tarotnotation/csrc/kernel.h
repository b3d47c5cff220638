/* The rules kernel's C twin: every function of tarotnotation/kernel.py that the play and
 * the count need, over the same plain ints (cards 0-77, camps 0 the taker's and 1 the
 * defence, half-points), with card sets as 128-bit ints (bit c is card c).
 *
 * Each function mirrors the Python function of the same name line for line; the
 * differential tests (tests/twins/test_kernel_twin.py) hold the two to the same answers over
 * every card of thousands of generated deals. A ruleset is passed as FLAGS, the bits of
 * tarotnotation.native.rule_flags:
 *   TK_TO_TRICK_WINNER   excuse_last_trick = to_trick_winner (else changes_camp)
 *   TK_WINS_LAST_TRICK   petit_au_bout = wins_last_trick (else in_last_trick)
 *   TK_CHELEM_EXCUSE     chelem_excuse_wins = true
 * Only the switches that change play or counting appear here; the others act before the
 * first card.
 */
#ifndef TAROT_KERNEL_H
#define TAROT_KERNEL_H

#include <stdint.h>

#ifndef __SIZEOF_INT128__
#error "the compiled kernel needs a compiler with 128-bit integers (gcc, clang)"
#endif

typedef unsigned __int128 cards_t;

#define TK_TO_TRICK_WINNER 1
#define TK_WINS_LAST_TRICK 2
#define TK_CHELEM_EXCUSE 4

#define TK_TAKER 0
#define TK_DEFENCE 1

#define TK_NO_SUIT (-1)
#define TK_TRUMPS_LED 4

enum { TK_FREE, TK_CALLED_SUIT, TK_FOLLOW, TK_OVERTRUMP, TK_TRUMP, TK_OVERTRUMP_LED,
       TK_TRUMP_LED };

#define TK_EXCUSE 77
#define TK_PETIT 56
#define TK_21 76
#define TK_BIT(c) (((cards_t)1) << (c))
#define TK_EXCUSE_BIT TK_BIT(TK_EXCUSE)
#define TK_ALL_MASK ((((cards_t)1) << 78) - 1)
#define TK_TRUMP_MASK (((((cards_t)1) << 21) - 1) << 56)
#define TK_BOUTS_MASK (TK_BIT(TK_PETIT) | TK_BIT(TK_21) | TK_EXCUSE_BIT)

static inline cards_t tk_suit_mask(int suit)
{
    if (suit < 4)
        return ((cards_t)0x3FFF) << (14 * suit);
    if (suit == 4)
        return TK_TRUMP_MASK;
    return TK_EXCUSE_BIT;
}

/* The trumps strictly higher than trump number n (0 gives every trump). */
static inline cards_t tk_trumps_above(int n)
{
    return TK_TRUMP_MASK & ~((((cards_t)1) << (56 + n)) - 1);
}

/* Population counts without the POPCNT instruction (a portable build has no -mpopcnt,
 * and the compiler's fallback is a function call); with it where the code is compiled
 * for it (search_popcnt.c). */
static inline int tk_popcount64(uint64_t x)
{
#ifdef __POPCNT__
    return __builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (int)((x * 0x0101010101010101ull) >> 56);
#endif
}

static inline int tk_popcount32(uint32_t x)
{
#ifdef __POPCNT__
    return __builtin_popcount(x);
#else
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (int)((x * 0x01010101u) >> 24);
#endif
}

static inline int tk_popcount(cards_t x)
{
    return tk_popcount64((uint64_t)x) + tk_popcount64((uint64_t)(x >> 64));
}

static inline int tk_lowest(cards_t x)
{
    uint64_t lo = (uint64_t)x;
    if (lo)
        return __builtin_ctzll(lo);
    return 64 + __builtin_ctzll((uint64_t)(x >> 64));
}

static inline int tk_highest(cards_t x)
{
    uint64_t hi = (uint64_t)(x >> 64);
    if (hi)
        return 127 - __builtin_clzll(hi);
    return 63 - __builtin_clzll((uint64_t)x);
}

/* suit_of: 0-3 the plain suits, 4 the trumps, 5 the Excuse. */
static inline int tk_suit_of(int card)
{
    if (card < 56)
        return card / 14;
    return card < 77 ? 4 : 5;
}

/* Kings and bouts (9 half-points), Queens (7), Knights (5), Jacks (3); every card 1 more. */
#define TK_KINGS ((((cards_t)1) << 13) | (((cards_t)1) << 27) | (((cards_t)1) << 41) \
                  | (((cards_t)1) << 55))
#define TK_NINES (TK_KINGS | TK_BOUTS_MASK)
#define TK_QUEENS (TK_KINGS >> 1)
#define TK_KNIGHTS (TK_KINGS >> 2)
#define TK_JACKS (TK_KINGS >> 3)

/* card_points: the value in half-points of the cards of a set (cards.card_points). */
static inline int tk_card_points(cards_t bits)
{
    return tk_popcount(bits) + 8 * tk_popcount(bits & TK_NINES)
        + 6 * tk_popcount(bits & TK_QUEENS) + 4 * tk_popcount(bits & TK_KNIGHTS)
        + 2 * tk_popcount(bits & TK_JACKS);
}

/* The half-points of one card: 9 for a King or bout, 7 Queen, 5 Knight, 3 Jack, else 1. */
static inline int tk_points_of(int card)
{
    static const int8_t rank_points[14] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 5, 7, 9};
    if (card < 56)
        return rank_points[card % 14];
    return (card == 56 || card >= 76) ? 9 : 1;
}

static inline int tk_is_bout(int card)
{
    return card == 56 || card >= 76;
}

/* step: the trick's (led, top) after CARD. */
static inline void tk_step(int *led, int *top, int card)
{
    if (card == TK_EXCUSE)
        return;
    int suit = tk_suit_of(card);
    if (*led == TK_NO_SUIT)
        *led = suit;
    if (suit == 4 && card - 55 > *top)
        *top = card - 55;
}

/* legal_in: the legal cards of HAND in a trick whose state is (led, top), and the rule
 * that restricts them (*kind). */
static inline cards_t tk_legal_in(cards_t hand, int led, int top, int *kind)
{
    if (led == TK_NO_SUIT) {
        *kind = TK_FREE;
        return hand;
    }
    cards_t excuse = hand & TK_EXCUSE_BIT;
    cards_t trumps = hand & TK_TRUMP_MASK;
    if (led != TK_TRUMPS_LED) {
        cards_t same = hand & tk_suit_mask(led);
        if (same) {
            *kind = TK_FOLLOW;
            return same | excuse;
        }
        if (!trumps) {
            *kind = TK_FREE;
            return hand;
        }
        cards_t higher = trumps & tk_trumps_above(top);
        if (top && higher) {
            *kind = TK_OVERTRUMP;
            return higher | excuse;
        }
        *kind = TK_TRUMP;
        return trumps | excuse;
    }
    if (!trumps) {
        *kind = TK_FREE;
        return hand;
    }
    cards_t higher = trumps & tk_trumps_above(top);
    if (higher) {
        *kind = TK_OVERTRUMP_LED;
        return higher | excuse;
    }
    *kind = TK_TRUMP_LED;
    return trumps | excuse;
}

/* first_lead: the legal leads of the first trick at five players (no called suit). */
static inline cards_t tk_first_lead(cards_t hand, int called, int *kind)
{
    int suit = tk_suit_of(called);
    cards_t allowed = hand & ~(tk_suit_mask(suit) & ~TK_BIT(called));
    if (allowed != hand && allowed) {
        *kind = TK_CALLED_SUIT;
        return allowed;
    }
    *kind = TK_FREE;
    return hand;
}

/* CAN_WIN[led]: the cards that can win a trick whose suit led is LED (its suit and the
 * trumps; any trump when trumps are led). */
static inline cards_t tk_can_win(int led)
{
    if (led < 4)
        return tk_suit_mask(led) | TK_TRUMP_MASK;
    return TK_TRUMP_MASK;
}

/* winning_card: the card that wins a trick of the cards BITS whose suit led is LED: the
 * highest-numbered card of CAN_WIN[led]. */
static inline int tk_winning_card(cards_t bits, int led)
{
    return tk_highest(bits & tk_can_win(led));
}

/* winner_index: the index of the card that wins a trick, -1 for none (only the Excuse). */
static inline int tk_winner_index(const int *trick, int len)
{
    int led = TK_NO_SUIT;
    cards_t bits = 0;
    for (int i = 0; i < len; i++) {
        bits |= TK_BIT(trick[i]);
        if (led == TK_NO_SUIT && trick[i] != TK_EXCUSE)
            led = tk_suit_of(trick[i]);
    }
    if (led == TK_NO_SUIT)
        return -1;
    int card = tk_winning_card(bits, led);
    for (int i = 0; i < len; i++)
        if (trick[i] == card)
            return i;
    return -1;
}

/* excuse_wins_last_trick (§7). */
static inline int tk_excuse_wins_last_trick(int flags, int excuse_led, int leader_won_all)
{
    return excuse_led && leader_won_all && (flags & TK_CHELEM_EXCUSE);
}

/* petit_trick_before_last (§8). */
static inline int tk_petit_trick_before_last(int excuse_led, int leader_won_all,
                                             int same_camp_takes_last)
{
    return excuse_led && leader_won_all && same_camp_takes_last;
}

/* excuse_settlement (§7): where the Excuse ends (*camp) and the low card it costs (*low). */
static inline void tk_excuse_settlement(int flags, int owner, int winner, int last,
                                        int excuse_won, int *camp, int *low)
{
    if (last && !excuse_won) {
        if (!(flags & TK_TO_TRICK_WINNER))
            *camp = 1 - owner;
        else
            *camp = winner;
        *low = 0;
        return;
    }
    *camp = owner;
    *low = owner != winner;
}

/* settle_trick (§7): the cards to each camp's pile, the Excuse where it ends, and the
 * half-point the low card moves to the taker's camp (*moved: +1, -1 or 0). */
static inline void tk_settle_trick(int flags, cards_t bits, int winner, int owner, int last,
                                   int excuse_won, cards_t *to_taker, cards_t *to_defence,
                                   int *moved)
{
    cards_t piles[2] = {0, 0};
    *moved = 0;
    if (owner >= 0) {
        int ends, low;
        tk_excuse_settlement(flags, owner, winner, last, excuse_won, &ends, &low);
        bits &= ~TK_EXCUSE_BIT;
        piles[ends] = TK_EXCUSE_BIT;
        if (low)
            *moved = winner == TK_TAKER ? 1 : -1;
    }
    piles[winner] |= bits;
    *to_taker = piles[0];
    *to_defence = piles[1];
}

/* unplayed_camp (§9): the defence in a Garde contre (contract 4), else the taker's camp. */
static inline int tk_unplayed_camp(int contract)
{
    return contract == 4 ? TK_DEFENCE : TK_TAKER;
}

/* petit_au_bout (§8): the camp that scores it from the trick that counts as the last. */
static inline int tk_petit_au_bout(int flags, const int *trick, int len, int winner)
{
    int petit = 0, other_trump = 0;
    for (int i = 0; i < len; i++) {
        if (trick[i] == TK_PETIT)
            petit = 1;
        else if (trick[i] >= 57 && trick[i] <= 76)
            other_trump = 1;
    }
    if (!petit)
        return -1;
    if (!(flags & TK_WINS_LAST_TRICK))
        return winner;
    if (other_trump)
        return -1;
    return winner;
}

/* chelem_camp (§10). */
static inline int tk_chelem_camp(int taker_tricks, int tricks)
{
    if (taker_tricks == tricks)
        return TK_TAKER;
    if (taker_tricks == 0)
        return TK_DEFENCE;
    return -1;
}

/* petit_sec (§2): a hand whose only trump is the Petit, without the Excuse, annuls the
 * deal. */
static inline int tk_petit_sec(cards_t hand)
{
    return (hand & TK_TRUMP_MASK) == TK_BIT(TK_PETIT) && !(hand & TK_EXCUSE_BIT);
}

/* petit_in_chien_annuls (§12): under petit_in_chien = annuls (ANNULS), the Petit in the
 * chien of a Prise or Garde (contract 1, 2) annuls the deal. */
static inline int tk_petit_in_chien_annuls(int annuls, int contract, cards_t chien)
{
    return annuls && contract <= 2 && (chien & TK_BIT(TK_PETIT)) != 0;
}

/* outbids (§3): a bid (a contract's rank, 1-4) above the best so far (0: none). */
static inline int tk_outbids(int bid, int best)
{
    return best == 0 || bid > best;
}

/* call_fault (§3): what keeps a taker whose hand as dealt is HAND from calling CALLED at
 * five players: 0 when he may; the highest rank (14 King, 13 Queen, 12 Knight) of which
 * he lacks a card when CALLED is a Queen, Knight or Jack; -1 for a card never called (a
 * trump, the Excuse, a plain card below the Jack). */
static inline int tk_call_fault(int called, cards_t hand)
{
    if (called >= 56 || called % 14 < 10)
        return -1;
    for (int rank = 13; rank > called % 14; rank--) {
        cards_t mask = TK_KINGS >> (13 - rank);
        if ((hand & mask) != mask)
            return rank + 1;
    }
    return 0;
}

/* first_leader (§2, §5): the dealer's right-hand neighbour FIRST, or the taker who
 * announced a chelem (ANNOUNCER, -1 for none). */
static inline int tk_first_leader(int first, int announcer)
{
    return announcer < 0 ? first : announcer;
}

/* ecart_forbidden (§4): the Kings and bouts of an écart. */
static inline cards_t tk_ecart_forbidden(cards_t ecart)
{
    return ecart & (TK_KINGS | TK_BOUTS_MASK);
}

/* poignee_wrong_cards (§5): what a poignée shows beside trumps and the Excuse. */
static inline cards_t tk_poignee_wrong_cards(cards_t shown)
{
    return shown & ~TK_TRUMP_MASK & ~TK_EXCUSE_BIT;
}

/* poignee_hidden_trumps (§5): the trumps left hidden while the Excuse stands in. */
static inline cards_t tk_poignee_hidden_trumps(cards_t hand, cards_t shown)
{
    if (!(shown & TK_EXCUSE_BIT))
        return 0;
    return hand & TK_TRUMP_MASK & ~shown;
}

/* threshold and margin (§9). */
static inline int tk_threshold(int bouts)
{
    static const int thresholds[4] = {112, 102, 82, 72};
    return thresholds[bouts];
}

static inline int tk_margin(int taker_half, int taker_bouts)
{
    return taker_half - tk_threshold(taker_bouts);
}

#endif
