/* The double-dummy search over tk_state: fail-soft alpha-beta run as null-window tests
 * ("is the value >= beta?"), with a bounded transposition table at trick boundaries,
 * merging of equivalent cards, move ordering and quick bounds. The driver (MTD(f) for
 * exact values, the time and node limits' bounds) is tarotnotation/analysis/search.py,
 * which runs this core and its pure-Python twin the same way.
 *
 * Values are what a leaf table says of the deal's end: LEAF[half][bouts][petit+1]
 * [chelem+1], the taker's camp's final half-points (cards aside included) and bouts,
 * petit au bout's and the chelem's camps. The table comes from Python (kernel.margin, or
 * the score of tarotnotation.scoring for objective="score"); it is non-decreasing in the
 * half-points and the bouts. When it is additive (the margin: half - threshold(bouts)),
 * the table stores values relative to the half-points already won, so one entry serves
 * every history that reaches the same cards with the same bouts won.
 *
 * The table's key (at trick boundaries): for each suit, the number of live cards, which
 * of its point cards are live, and the owner of each live card in rank order (only the
 * relative ranks matter); the Excuse's holder; who leads; the bouts the taker's camp has
 * won; whether each camp has won a trick yet (the chelem rules); and, when the values
 * are not additive, the half-points won. When they are, which point cards of the plain
 * suits are live is kept apart from the key's shape: an entry serves every position of
 * its shape, its bounds shifted by what the point cards are worth (ts_same_shape).
 */
#ifndef TAROT_SEARCH_H
#define TAROT_SEARCH_H

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "state.h"

#define TS_INF 30000
#define TS_NONE_LO (-32000)
#define TS_NONE_HI 32000
#define TS_KEY_WORDS 5
#define TS_BUCKET 8        /* entries a bucket: the positions of one shape share one (ts_same_shape) */
#define TS_LEAF_SIZE (183 * 4 * 3 * 3)
#define TS_MAX_MOVES 32
/* the plain suits' live point cards in the key's last word, outside its shape (the
 * shape takes fewer than 300 bits: at most 36 + 7 for the suits' heads, 3 planes of
 * 77 cards at 5 players, 10 for the Excuse, leader, bouts and tricks, 9 for the
 * half-points when the values are not additive) */
#define TS_POINTS_SHIFT 48
#define TS_POINTS_MASK (0xFFFFull << TS_POINTS_SHIFT)

typedef struct {
    uint64_t w[TS_KEY_WORDS];
} ts_key;

typedef struct {
    ts_key key;
    int16_t lo, hi;         /* bounds, relative to the half-points won when additive */
    uint8_t move;           /* the best lead, relative (suit << 5 | rank index), 0xFF none */
    uint8_t left;           /* tricks left: the work the entry saves */
    uint8_t age;
    uint8_t used;
} ts_entry;

typedef struct {
    tk_state st;
    int additive;
    int aside_half, aside_bouts;
    int32_t leaf[TS_LEAF_SIZE];
    ts_entry *table;
    size_t buckets;         /* a power of two */
    size_t max_buckets;     /* the size cap: the table doubles up to it */
    size_t used;            /* entries in use */
    uint8_t age;
    uint32_t history[TK_MAX_PLAYERS][78];
    tk_undo undo[96];
    int ply;
    /* the cards still out (in the hands or the trick), their points and bouts; each
     * ply's values before its card, to take back */
    cards_t out;
    int out_points, out_bouts;
    cards_t saved_out[96];
    int saved_points[96], saved_bouts[96];
    /* limits */
    uint64_t node_limit;    /* 0: none */
    double deadline;        /* monotonic seconds, 0: none */
    int aborted;            /* a limit was reached: the search's result is void */
    int interrupted;        /* a signal (Ctrl-C): a Python exception is set */
    /* statistics */
    uint64_t nodes, probes, hits, cuts, stores;
    uint64_t similar, similar_cuts;   /* probes that found a similar entry, its cut-offs */
    uint64_t beta_cuts, first_cuts;   /* cut-offs by a card, and by the first card tried */
    uint64_t bound_cuts[4], visits[4];  /* by position in the trick */
    uint64_t expanded[25];              /* boundaries searched, by tricks left */
    uint64_t all_nodes[4], all_moves[4];  /* nodes without a cut-off and their cards */
} ts_search;

static double ts_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Whether a signal (Ctrl-C) ends the search: a Python exception is then set
 * (_kernel.c, PyErr_CheckSignals). */
int tarotnotation_search_signalled(void);

/* Called every 1024 nodes; returns non-zero when the search must stop. */
static int ts_check_limits(ts_search *S)
{
    if (S->node_limit && S->nodes >= S->node_limit)
        return 1;
    if (S->deadline > 0 && ts_now() >= S->deadline)
        return 1;
    if ((S->nodes & 0x3FFFF) == 0 && tarotnotation_search_signalled()) {
        S->interrupted = 1;
        return 1;
    }
    return 0;
}

static inline int ts_leaf_index(int half, int bouts, int petit, int chelem)
{
    return ((half * 4 + bouts) * 3 + petit + 1) * 3 + chelem + 1;
}

/* --- the key ------------------------------------------------------------------------ */

static inline uint32_t ts_suit_bits(cards_t x, int s)
{
    if (s < 4)
        return (uint32_t)(x >> (14 * s)) & 0x3FFFu;
    return (uint32_t)(x >> 56) & 0x1FFFFFu;
}

typedef struct {
    ts_key *k;
    int pos;
} ts_writer;

static inline void ts_put(ts_writer *w, uint64_t value, int bits)
{
    if (!bits)
        return;
    int word = w->pos >> 6, off = w->pos & 63;
    w->k->w[word] |= value << off;
    if (off + bits > 64)
        w->k->w[word + 1] |= value >> (64 - off);
    w->pos += bits;
}

static void ts_make_key(const ts_search *S, ts_key *k)
{
    const tk_state *st = &S->st;
    int n = st->n;
    int planes = n <= 4 ? 2 : 3;
    cards_t live = 0, plane[3] = {0, 0, 0};
    for (int i = 0; i < n; i++) {
        live |= st->hand[i];
        for (int b = 0; b < planes; b++)
            if ((i >> b) & 1)
                plane[b] |= st->hand[i];
    }
    memset(k, 0, sizeof(*k));
    ts_writer w = {k, 0};
    uint64_t points = 0;
    for (int s = 0; s < 5; s++) {
        uint32_t ls = ts_suit_bits(live, s);
        int count = tk_popcount32(ls);
        /* the count, which point cards are live, and each plane's bits at the live
         * cards (a pext of every plane at once), appended in that order */
        uint64_t head;
        int head_bits;
        if (s == 4) {
            head = (uint64_t)count | (uint64_t)((ls & 1u) | ((ls >> 19) & 2u)) << 5;
            head_bits = 7;
        } else if (S->additive) {
            /* the suit's live point cards, apart (payoff similarity, ts_similar) */
            points |= (uint64_t)((ls >> 10) & 0xFu) << (4 * s);
            head = (uint64_t)count;
            head_bits = 5;
        } else {
            head = (uint64_t)count | (uint64_t)((ls >> 10) & 0xFu) << 5;
            head_bits = 9;
        }
        uint32_t p0 = ts_suit_bits(plane[0], s), p1 = ts_suit_bits(plane[1], s);
        uint32_t p2 = ts_suit_bits(plane[2], s);
        uint32_t r0 = 0, r1 = 0, r2 = 0, bit = 1;
        for (uint32_t m = ls; m; m &= m - 1, bit <<= 1) {
            uint32_t low = m & (0u - m);
            if (p0 & low)
                r0 |= bit;
            if (p1 & low)
                r1 |= bit;
        }
        bit = 1;
        for (uint32_t m = planes > 2 ? ls : 0; m; m &= m - 1, bit <<= 1)
            if (p2 & m & (0u - m))
                r2 |= bit;
        ts_put(&w, head | (uint64_t)r0 << head_bits | (uint64_t)r1 << (head_bits + count),
               head_bits + 2 * count);
        if (planes > 2)
            ts_put(&w, r2, count);
    }
    int excuse = 7;
    for (int i = 0; i < n; i++)
        if (st->hand[i] & TK_EXCUSE_BIT)
            excuse = i;
    ts_put(&w, (uint64_t)excuse, 3);
    ts_put(&w, (uint64_t)st->leader, 3);
    ts_put(&w, (uint64_t)st->bouts, 2);
    ts_put(&w, (uint64_t)(st->tricks_won[0] == 0), 1);
    ts_put(&w, (uint64_t)(st->tricks_won[1] == 0), 1);
    if (!S->additive)
        ts_put(&w, (uint64_t)st->half + 200, 9);
    k->w[TS_KEY_WORDS - 1] |= points << TS_POINTS_SHIFT;
}

/* Payoff similarity (Furtak and Buro's for Skat): positions that differ only in which
 * of the plain suits' point cards are live (the same number of live cards in each suit,
 * held in the same rank order) play the same: a line of one is a line of the other, the
 * same cards by rank won by the same camp, so for the margin their values (relative to
 * the half-points won) differ by what those cards are worth at most. A suit's point
 * cards rank above its low cards: the k-th highest live card of the suit is worth, in
 * each position, its point card's half-points or 1. An entry of position A serves
 * position B with its lower bound less the half-points that A's cards are worth more
 * than B's, rank for rank (ts_points_down), and its upper bound plus what B's are worth
 * more (ts_points_down with A and B swapped). The key keeps the four suits' live point
 * cards (4 bits a suit, the Jack lowest) in the top bits of its last word, outside the
 * shape that the hash and the similarity compare. */
static inline int ts_same_shape(const ts_key *a, const ts_key *b)
{
    for (int i = 0; i < TS_KEY_WORDS - 1; i++)
        if (a->w[i] != b->w[i])
            return 0;
    return ((a->w[TS_KEY_WORDS - 1] ^ b->w[TS_KEY_WORDS - 1]) & ~TS_POINTS_MASK) == 0;
}

/* The half-points the live point cards of A (a suit's 4 bits, the Jack lowest) are worth
 * more than those of B, rank for rank from the top (each position worth its point
 * card's 9, 7, 5 or 3, or 1 for a low card), summed where A's is worth more:
 * TS_POINTS_DOWN[A][B], written out from that rule (the oracle tests fail when the
 * shift is left out or taken the wrong way round). */
static const int8_t TS_POINTS_DOWN[16][16] = {
    {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {4, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {6, 4, 2, 0, 2, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0},
    {6, 4, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {8, 6, 4, 2, 2, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0},
    {10, 8, 6, 4, 4, 2, 0, 0, 4, 2, 0, 0, 0, 0, 0, 0},
    {12, 10, 8, 6, 6, 4, 2, 0, 6, 4, 2, 0, 2, 0, 0, 0},
    {8, 6, 4, 4, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0},
    {10, 8, 6, 4, 4, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0},
    {12, 10, 8, 6, 6, 4, 2, 2, 4, 2, 0, 0, 0, 0, 0, 0},
    {14, 12, 10, 8, 8, 6, 4, 2, 6, 4, 2, 0, 2, 0, 0, 0},
    {14, 12, 10, 8, 8, 6, 4, 4, 6, 4, 2, 2, 0, 0, 0, 0},
    {16, 14, 12, 10, 10, 8, 6, 4, 8, 6, 4, 2, 2, 0, 0, 0},
    {18, 16, 14, 12, 12, 10, 8, 6, 10, 8, 6, 4, 4, 2, 0, 0},
    {20, 18, 16, 14, 14, 12, 10, 8, 12, 10, 8, 6, 6, 4, 2, 0},
};

static inline int ts_points_down(uint64_t a, uint64_t b)
{
    int down = 0;
    for (int s = 0; s < 4; s++)
        down += TS_POINTS_DOWN[(a >> (4 * s)) & 0xF][(b >> (4 * s)) & 0xF];
    return down;
}

static inline uint64_t ts_points_of_key(const ts_key *k)
{
    return (k->w[TS_KEY_WORDS - 1] & TS_POINTS_MASK) >> TS_POINTS_SHIFT;
}

static inline uint64_t ts_hash(const ts_key *k)
{
    uint64_t h = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < TS_KEY_WORDS; i++) {
        /* the shape only: similar positions share a bucket */
        h ^= i == TS_KEY_WORDS - 1 ? k->w[i] & ~TS_POINTS_MASK : k->w[i];
        h *= 0xBF58476D1CE4E5B9ull;
        h ^= h >> 31;
    }
    return h;
}

static inline ts_entry *ts_bucket(const ts_search *S, const ts_key *k)
{
    return S->table + (ts_hash(k) & (S->buckets - 1)) * TS_BUCKET;
}

static ts_entry *ts_probe_bucket(ts_search *S, ts_entry *b, const ts_key *k)
{
    S->probes++;
    for (int i = 0; i < TS_BUCKET; i++)
        if (b[i].used && memcmp(&b[i].key, k, sizeof(*k)) == 0) {
            S->hits++;
            return &b[i];
        }
    return NULL;
}

/* A zeroed table of BUCKETS buckets, aligned on cache lines. */
static ts_entry *ts_alloc(size_t buckets)
{
    size_t size = buckets * TS_BUCKET * sizeof(ts_entry);
    ts_entry *table = aligned_alloc(64, size);
    if (table)
        memset(table, 0, size);
    return table;
}

/* Double the table (while under its cap) once it is half full: small searches stay in a
 * small table, large ones get the whole allowance. Returns 0, or -1 when out of memory
 * (the table then stays as it is). */
static int ts_grow(ts_search *S)
{
    size_t buckets = S->buckets * 2;
    ts_entry *table = ts_alloc(buckets);
    if (!table)
        return -1;
    ts_entry *old = S->table;
    size_t total = S->buckets * TS_BUCKET;
    S->table = table;
    S->buckets = buckets;
    S->used = 0;
    for (size_t i = 0; i < total; i++) {
        if (!old[i].used)
            continue;
        ts_entry *b = ts_bucket(S, &old[i].key);
        for (int j = 0; j < TS_BUCKET; j++)
            if (!b[j].used) {
                b[j] = old[i];
                S->used++;
                break;
            }
    }
    free(old);
    return 0;
}

static void ts_store(ts_search *S, const ts_key *k, int lo, int hi, int move, int left)
{
    if (S->used * 2 > S->buckets * TS_BUCKET && S->buckets < S->max_buckets)
        ts_grow(S);
    ts_entry *b = ts_bucket(S, k);
    /* note: after a growth the bucket moved; ts_bucket recomputes it */
    ts_entry *victim = NULL;
    int worst = 1 << 30;
    S->stores++;
    for (int i = 0; i < TS_BUCKET; i++) {
        ts_entry *e = &b[i];
        if (e->used && memcmp(&e->key, k, sizeof(*k)) == 0) {
            if (lo > e->lo)
                e->lo = (int16_t)lo;
            if (hi < e->hi)
                e->hi = (int16_t)hi;
            if (move != 0xFF)
                e->move = (uint8_t)move;
            e->age = S->age;
            return;
        }
        int priority = !e->used ? -1 : (e->age == S->age ? 256 : 0) + e->left;
        if (priority < worst) {
            worst = priority;
            victim = e;
        }
    }
    if (!victim->used)
        S->used++;
    victim->key = *k;
    victim->lo = (int16_t)lo;
    victim->hi = (int16_t)hi;
    victim->move = (uint8_t)move;
    victim->left = (uint8_t)left;
    victim->age = S->age;
    victim->used = 1;
}

/* A lead as the table stores it: its suit and its rank among that suit's live cards. */
static inline int ts_relative_move(cards_t live, int card)
{
    if (card == TK_EXCUSE)
        return 5 << 5;
    int s = tk_suit_of(card);
    int index = s < 4 ? card - 14 * s : card - 56;
    uint32_t below = ts_suit_bits(live, s) & ((1u << index) - 1u);
    return (s << 5) | tk_popcount32(below);
}

static inline int ts_absolute_move(cards_t live, int move)
{
    if (move == 0xFF)
        return -1;
    int s = move >> 5, rank = move & 31;
    if (s == 5)
        return (live & TK_EXCUSE_BIT) ? TK_EXCUSE : -1;
    uint32_t ls = ts_suit_bits(live, s);
    for (int i = 0; i < rank && ls; i++)
        ls &= ls - 1;
    if (!ls)
        return -1;
    return (s < 4 ? 14 * s : 56) + __builtin_ctz(ls);
}

/* The camp a trick begun (not the last) goes to whatever is still played to it, or -1:
 * the camp of its winning card so far, when no seat of the other camp still to play can
 * beat that card (a higher card of the suit led; a trump when it has none of the suit
 * and the trick has none; a higher trump when it may trump: trumps led, or none of the
 * suit led). A seat of the winning camp that plays higher keeps the trick in its camp. */
static inline int ts_trick_decided_at(const tk_state *st, int w);

static inline int ts_trick_decided(const tk_state *st)
{
    return ts_trick_decided_at(st, tk_winner_index(st->trick, st->len));
}

/* ts_trick_decided, given W: the trick's winner_index so far. */
static inline int ts_trick_decided_at(const tk_state *st, int w)
{
    int n = st->n;
    if (w < 0 || st->trick_number >= st->tricks - 1)
        return -1;
    int card = st->trick[w];
    int x = st->camp[(st->leader + w) % n];
    cards_t led_suit = st->led < 4 ? tk_suit_mask(st->led) : 0;
    int trump = tk_suit_of(card) == 4;
    cards_t higher = trump ? tk_trumps_above(card - 55)
                           : led_suit & ~((TK_BIT(card) << 1) - 1);
    for (int k = st->len; k < n; k++) {
        int j = (st->leader + k) % n;
        if (st->camp[j] == x)
            continue;
        cards_t h = st->hand[j];
        if (trump) {
            if ((h & higher) && !(h & led_suit))
                return -1;
        } else if (h & led_suit) {
            if (h & higher)
                return -1;
        } else if (h & TK_TRUMP_MASK) {
            return -1;
        }
    }
    return x;
}

/* --- bounds ------------------------------------------------------------------------- */

/* The lowest and highest final values the position can still reach with best play by
 * one camp: every point still out goes to one camp or the other (a camp's gain from
 * the cards still out lies between 0 and their points); the Excuse stays with its
 * holder's camp (at least 8 half-points and a bout) when its holder can still play it
 * before the last trick; the 21 wins the trick it is played to, unless the Excuse led to
 * the last trick by a camp that won every trick could still beat it. The leaf table is
 * non-decreasing in the half-points and the bouts; petit au bout and the chelem range
 * over the camps still possible. */
static void ts_bounds_decided(const ts_search *S, int decided, int *lo, int *hi);

static void ts_bounds(const ts_search *S, int *lo, int *hi)
{
    ts_bounds_decided(S, S->st.len ? ts_trick_decided(&S->st) : -1, lo, hi);
}

/* ts_bounds, given DECIDED: ts_trick_decided of a trick begun, -1 at a boundary. */
static void ts_bounds_decided(const ts_search *S, int decided, int *lo, int *hi)
{
    const tk_state *st = &S->st;
    int n = st->n;
    cards_t out = S->out;
    int points = S->out_points;
    int bouts_out = S->out_bouts;
    cards_t in_trick = 0;
    for (int i = 0; i < st->len; i++)
        in_trick |= TK_BIT(st->trick[i]);
    cards_t live = out & ~in_trick;
    int sure_half[2] = {0, 0}, sure_bouts[2] = {0, 0};
    int left = st->tricks - st->trick_number;   /* this trick included */
    int excuse_camp = -1, excuse_early = 0;
    if (live & TK_EXCUSE_BIT) {
        int holder = 0;
        while (!(st->hand[holder] & TK_EXCUSE_BIT))
            holder++;
        excuse_camp = st->camp[holder];
        /* seats still to play in this trick: len .. n-1 after the leader */
        int offset = (holder - st->leader + n) % n;
        int can_now = st->len <= offset && left >= 2;
        int can_later = left >= 3 || (left >= 2 && st->len == 0);
        excuse_early = can_now || can_later;
        if (excuse_early) {
            sure_half[excuse_camp] += 8;
            sure_bouts[excuse_camp] += 1;
        }
    } else if (in_trick & TK_EXCUSE_BIT) {
        excuse_camp = st->excuse_owner;
        if (left >= 2) {
            sure_half[excuse_camp] += 8;
            sure_bouts[excuse_camp] += 1;
        }
    }
    if (st->len == 0 || left >= 2) {
        /* Master trumps: a trump above every trump of the other camp wins the trick it
         * is played to for its camp, with every card of that trick (one at least for
         * each seat). A seat's master trumps fall in as many different tricks.
         *
         * Within a trick (not the last), the trick's cards are out of the hands: a
         * master trump (above the other camp's trumps in the hands) wins every later
         * trick it is played to. A seat still to play to this trick that may trump now
         * (trumps led, or none of the suit led) may spend one of its masters on it:
         * when its masters are all above the other camp's trumps in the trick, that
         * master wins this trick too (its camp's, with its cards: nothing changes);
         * when this trick is the camp's already (decided, below), the master's points
         * go to the camp with it but the trick is counted there, so the seat has one
         * master trick fewer; otherwise the master may fall under a higher trump of
         * the other camp: the master worth the most of those below it is left out,
         * and the seat has one master trick fewer.
         *
         * The trick is decided for the camp of its winning card so far when no seat
         * of the other camp still to play can beat that card (a higher card of the
         * suit led, a trump when it has none of the suit and the trick has none, a
         * higher trump when it may trump): its cards, and one card at least of each
         * seat still to play, go to that camp (the Excuse counted 1: its low card,
         * or 8 with its owner's camp and 1 with the trick's). */
        cards_t trumps[2] = {0, 0};
        for (int i = 0; i < n; i++)
            trumps[st->camp[i]] |= st->hand[i] & TK_TRUMP_MASK;
        /* DECIDED: the camp this trick goes to whatever is played, -1 none */
        int top_trick[2] = {0, 0};  /* each camp's highest trump in the trick, 0 none */
        int to_play = 0;        /* seats still to play to this trick, as a bit set */
        if (st->len) {
            for (int k = st->len; k < n; k++)
                to_play |= 1 << ((st->leader + k) % n);
            for (int k = 0; k < st->len; k++) {
                int c = st->trick[k];
                int pc = st->camp[(st->leader + k) % n];
                if (tk_suit_of(c) == 4 && c > top_trick[pc])
                    top_trick[pc] = c;
            }
        }
        for (int c = 0; c < 2; c++) {
            if (!trumps[c])
                continue;
            cards_t other = trumps[1 - c];
            cards_t masters = other ? trumps[c] & ~((TK_BIT(tk_highest(other)) << 1) - 1)
                                    : trumps[c];
            if (!masters)
                continue;
            cards_t lost = 0;
            int most = 0;
            for (int i = 0; i < n; i++)
                if (st->camp[i] == c) {
                    cards_t mine = st->hand[i] & masters;
                    int k = tk_popcount(mine);
                    if (k && ((to_play >> i) & 1)
                        && (st->led == TK_NO_SUIT || st->led == TK_TRUMPS_LED
                            || !(st->hand[i] & tk_suit_mask(st->led)))) {
                        /* it may trump now (it holds trumps: its masters) */
                        int top = top_trick[1 - c];
                        if (decided == c) {
                            k -= 1;
                        } else if (top && tk_lowest(mine) < top) {
                            cards_t below = mine & ((TK_BIT(top) << 1) - 1);
                            lost |= (below & TK_BIT(TK_PETIT)) ? TK_BIT(TK_PETIT)
                                                               : TK_BIT(tk_highest(below));
                            k -= 1;
                        }
                    }
                    if (k > most)
                        most = k;
                }
            masters &= ~lost;
            /* The Excuse led to the last trick by a camp that won every trick beats a
             * master trump. With two master tricks or more, one comes before the last
             * trick and that camp cannot have won them all; nor can it when this trick
             * (not the last) is decided for this camp. */
            if (most < 2 && decided != c && excuse_camp == 1 - c
                && (st->flags & TK_CHELEM_EXCUSE) && st->tricks_won[c] == 0)
                continue;
            int gain = tk_card_points(masters) - tk_popcount(masters) + n * most;
            int bouts = tk_popcount(masters & TK_BOUTS_MASK);
            /* Drawing trumps: the leader of this camp, with as many master trumps as the
             * other camp's longest trump holding (the Excuse counted, as it may be
             * played instead of a trump once), leads them and draws every trump of
             * the other camp into tricks it wins; then each of its trumps and of its
             * plain cards above the other camp's cards of their suit wins a trick in
             * turn: a run of tricks from now on. (Not when the leader holds the Excuse,
             * which must go before the last trick, nor at a first lead the called suit
             * restricts.) Its partners must never take the lead from it: their trumps
             * lie below its own and fall while it leads them, and its plain cards
             * counted are above every other seat's cards of their suit. */
            int p = st->leader;
            if (st->len == 0 && st->camp[p] == c && !(st->hand[p] & TK_EXCUSE_BIT)
                && !(st->trick_number == 0 && st->called >= 0)) {
                int longest = 0;
                int partners_ok = 1;
                cards_t theirs = 0, others = 0;
                cards_t mine = st->hand[p];
                cards_t my_trumps = mine & TK_TRUMP_MASK;
                for (int i = 0; i < n; i++) {
                    if (i == p)
                        continue;
                    others |= st->hand[i];
                    if (st->camp[i] != c) {
                        /* the Excuse may stand in for a trump once: one draw more */
                        int t = tk_popcount(st->hand[i] & (TK_TRUMP_MASK | TK_EXCUSE_BIT));
                        if (t > longest)
                            longest = t;
                        theirs |= st->hand[i];
                    } else if (st->hand[i] & TK_TRUMP_MASK) {
                        /* a partner's trumps must fall under the leader's (the Excuse
                         * may stand in for one once), never win and take the lead */
                        cards_t pt = st->hand[i] & TK_TRUMP_MASK;
                        int held = tk_popcount(st->hand[i] & (TK_TRUMP_MASK | TK_EXCUSE_BIT));
                        if (!my_trumps || tk_highest(pt) > tk_lowest(my_trumps)
                            || held > tk_popcount(my_trumps))
                            partners_ok = 0;
                    }
                }
                if (partners_ok && tk_popcount(mine & masters) >= longest) {
                    cards_t sure = my_trumps;
                    for (int suit = 0; suit < 4; suit++) {
                        cards_t m = tk_suit_mask(suit);
                        cards_t other_suit = others & m;
                        cards_t above = other_suit
                            ? ~((TK_BIT(tk_highest(other_suit)) << 1) - 1) : ~(cards_t)0;
                        sure |= mine & m & above;
                    }
                    cards_t drawn = theirs & TK_TRUMP_MASK;
                    int run = tk_popcount(sure);
                    int g2 = tk_card_points(sure) - run + n * run
                        + tk_card_points(drawn) - tk_popcount(drawn);
                    int b2 = tk_popcount((sure | drawn) & TK_BOUTS_MASK);
                    /* both hold on that line of play: the larger of each */
                    if (g2 > gain)
                        gain = g2;
                    if (b2 > bouts)
                        bouts = b2;
                }
            }
            sure_half[c] += gain;
            /* its own Excuse, if it must go to the last trick, may change camp there */
            if (excuse_camp == c && (live & TK_EXCUSE_BIT) && !excuse_early && most > 0)
                sure_half[c] -= 1;
            sure_bouts[c] += bouts;
        }
        if (decided >= 0) {
            cards_t won = in_trick & ~TK_EXCUSE_BIT;
            sure_half[decided] += tk_card_points(won) + ((in_trick & TK_EXCUSE_BIT) ? 1 : 0)
                + (n - st->len);
            sure_bouts[decided] += tk_popcount(won & TK_BOUTS_MASK);
        }
    } else if (out & TK_BIT(TK_21)) {
        int camp21;
        if (in_trick & TK_BIT(TK_21)) {
            int i = 0;
            while (st->trick[i] != TK_21)
                i++;
            camp21 = st->camp[(st->leader + i) % n];
        } else {
            int holder = 0;
            while (!(st->hand[holder] & TK_BIT(TK_21)))
                holder++;
            camp21 = st->camp[holder];
        }
        int excuse_may_beat = excuse_camp >= 0 && excuse_camp != camp21
            && (st->flags & TK_CHELEM_EXCUSE) && st->tricks_won[camp21] == 0;
        if (!excuse_may_beat) {
            sure_half[camp21] += 9;
            sure_bouts[camp21] += 1;
        }
    }
    int base_half = st->half + S->aside_half, base_bouts = st->bouts + S->aside_bouts;
    int half_lo = base_half + sure_half[0];
    int half_hi = base_half + points - sure_half[1];
    int bouts_lo = base_bouts + sure_bouts[0];
    int bouts_hi = base_bouts + bouts_out - sure_bouts[1];
    /* petit au bout: possible while the Petit is out or in the trick before */
    int petit_any = (out & TK_BIT(TK_PETIT)) != 0;
    for (int i = 0; i < st->prev_len; i++)
        if (st->prev[i] == TK_PETIT)
            petit_any = 1;
    int l = TS_INF, h = -TS_INF;
    for (int p = -1; p <= 1; p++) {
        if (p >= 0 && !petit_any)
            break;
        for (int c = -1; c <= 1; c++) {
            if (c >= 0 && st->tricks_won[1 - c] != 0)
                continue;
            int a = S->leaf[ts_leaf_index(half_lo, bouts_lo, p, c)];
            int b = S->leaf[ts_leaf_index(half_hi, bouts_hi, p, c)];
            if (a < l)
                l = a;
            if (b > h)
                h = b;
        }
    }
    *lo = l;
    *hi = h;
}

/* --- moves -------------------------------------------------------------------------- */

/* Whether CARD (not the Excuse) played now would win the trick so far (winning_card of
 * the trick with it). */
static inline int ts_wins(const tk_state *st, cards_t trick_bits, int card)
{
    int led = st->led == TK_NO_SUIT ? tk_suit_of(card) : st->led;
    return tk_winning_card(trick_bits | TK_BIT(card), led) == card;
}

/* A plain card led surely wins the trick when it is the highest card of its suit still
 * out and no seat of the other camp can trump it (each holds a card of the suit, or no
 * trump). Such leads are tried first, after the table's move (the history of cut-offs
 * orders them; a weight above it was worse). The plain suits (a bit each) in which a
 * seat of the other camp than SEAT's may trump a lead: it holds none of the suit and a
 * trump (worked out once for every lead of a node). */
static inline int ts_ruffed_suits(const tk_state *st, int seat)
{
    int ruffed = 0;
    for (int j = 0; j < st->n; j++)
        if (st->camp[j] != st->camp[seat] && (st->hand[j] & TK_TRUMP_MASK))
            for (int s = 0; s < 4; s++)
                if (!(st->hand[j] & tk_suit_mask(s)))
                    ruffed |= 1 << s;
    return ruffed;
}

/* The cards worth trying, best first: the legal cards, one of each run of equivalent
 * cards (same hand, same suit, same points, adjacent among the cards still out or in the
 * trick: the top of the run is kept; for cards that lose the trick, adjacent among the
 * cards in the hands: the lowest is kept; the Petit is its own when the values are not
 * additive, the score, where petit au bout tells it from the 21), ordered by the table's
 * move, what the card
 * does to the trick (a lead: a plain card sure to win it), and the history of
 * cut-offs. W: the trick's winner_index so far (-1 at a lead). */
static int ts_moves(ts_search *S, int *moves, int hint, int w)
{
    tk_state *st = &S->st;
    int n = st->n;
    int seat = tk_to_play(st);
    int my = st->camp[seat];
    cards_t legal = tk_legal(st);
    cards_t live = S->out;
    int scores[TS_MAX_MOVES];
    int count = 0;
    int wcamp = -1;
    cards_t trick_bits = 0;
    for (int i = 0; i < st->len; i++)
        trick_bits |= TK_BIT(st->trick[i]);
    if (st->len && w >= 0)
        wcamp = st->camp[(st->leader + w) % n];
    int last = st->len == n - 1;
    int ruffed = st->len ? 0 : ts_ruffed_suits(st, seat);
    /* the cards in the hands: a card of the trick leaves with it, so between two cards
     * that both lose the trick it does not tell them apart */
    cards_t held = live & ~trick_bits;
    cards_t rest = legal;
    while (rest) {
        int c = tk_lowest(rest);
        rest &= rest - 1;
        int pts = tk_points_of(c);
        /* would the card win the trick? (winning_card of the trick with it) */
        int wins = st->len && c != TK_EXCUSE && ts_wins(st, trick_bits, c);
        if (c != TK_EXCUSE && !(c == TK_PETIT && !S->additive)) {
            int s = tk_suit_of(c);
            if (st->len && !wins) {
                /* a card that loses the trick: the lowest of its run is kept (the cards
                 * below it lose too) */
                cards_t below = held & tk_suit_mask(s) & (TK_BIT(c) - 1);
                if (below) {
                    int prev = tk_highest(below);
                    if ((legal & TK_BIT(prev)) && tk_points_of(prev) == pts)
                        continue;
                }
            } else {
                /* a lead, or a card that wins the trick so far: the top of its run (the
                 * cards above it win too) */
                cards_t above = live & tk_suit_mask(s) & ~((TK_BIT(c) << 1) - 1);
                if (above) {
                    int next = tk_lowest(above);
                    if ((legal & TK_BIT(next)) && tk_points_of(next) == pts)
                        continue;
                }
            }
        }
        int score;
        if (c == hint) {
            score = 1 << 28;
        } else if (!st->len) {
            /* a sure lead (ts_ruffed_suits): the highest of its suit still out, not trumped */
            int sure = c != TK_EXCUSE && tk_suit_of(c) < 4
                && !((ruffed >> tk_suit_of(c)) & 1)
                && !(live & tk_suit_mask(tk_suit_of(c)) & ~((TK_BIT(c) << 1) - 1));
            score = sure ? 1 << 16 : 0;
        } else {
            int rank = c & 127;
            if (wins)
                score = last ? 3000000 + pts * 1000 - rank : 3000000 + rank * 10;
            else if (wcamp == my)
                score = 2000000 + pts * 1000 - rank;
            else
                score = 1000000 - pts * 1000 - rank;
        }
        score += (int)(S->history[seat][c] < (1u << 19) ? S->history[seat][c] : (1u << 19));
        int j = count++;
        while (j > 0 && scores[j - 1] < score) {
            scores[j] = scores[j - 1];
            moves[j] = moves[j - 1];
            j--;
        }
        scores[j] = score;
        moves[j] = c;
    }
    return count;
}

/* --- the search --------------------------------------------------------------------- */

/* Play a card, keeping the cards still out up to date. */
static inline void ts_play(ts_search *S, int card)
{
    int ply = S->ply++;
    tk_undo *u = &S->undo[ply];
    tk_state *st = &S->st;
    tk_play(st, card, u);
    if (u->ended) {
        S->saved_out[ply] = S->out;
        S->saved_points[ply] = S->out_points;
        S->saved_bouts[ply] = S->out_bouts;
        for (int i = 0; i < st->prev_len; i++) {
            int c = st->prev[i];
            S->out &= ~TK_BIT(c);
            S->out_points -= tk_points_of(c);
            S->out_bouts -= tk_is_bout(c);
        }
    }
}

static inline void ts_unplay(ts_search *S)
{
    int ply = --S->ply;
    tk_undo *u = &S->undo[ply];
    if (u->ended) {
        S->out = S->saved_out[ply];
        S->out_points = S->saved_points[ply];
        S->out_bouts = S->saved_bouts[ply];
    }
    tk_unplay(&S->st, u);
}

/* Set the cards still out from the state (after a new position is set). */
static inline void ts_reset_out(ts_search *S)
{
    tk_state *st = &S->st;
    cards_t out = 0;
    for (int i = 0; i < st->n; i++)
        out |= st->hand[i];
    for (int i = 0; i < st->len; i++)
        out |= TK_BIT(st->trick[i]);
    S->out = out;
    S->out_points = tk_card_points(out);
    S->out_bouts = tk_popcount(out & TK_BOUTS_MASK);
    S->ply = 0;
}

static int ts_value(const ts_search *S)
{
    const tk_state *st = &S->st;
    int half = st->half + S->aside_half, bouts = st->bouts + S->aside_bouts;
    int chelem = tk_chelem_camp(st->tricks_won[0], st->tricks);
    return S->leaf[ts_leaf_index(half, bouts, st->petit, chelem)];
}

/* The last trick: every hand holds one card, so the play is forced. */
static int ts_last_trick(ts_search *S)
{
    tk_state *st = &S->st;
    int base = S->ply;
    while (st->trick_number < st->tricks)
        tk_play(st, tk_lowest(st->hand[tk_to_play(st)]), &S->undo[S->ply++]);
    int v = ts_value(S);
    while (S->ply > base)
        tk_unplay(st, &S->undo[--S->ply]);
    return v;
}

/* The last two tricks (or what is left of them), by plain alpha-beta over the legal
 * cards: no table, bounds, merging or ordering, which cost more than they save on so
 * few cards (each hand holds two at most). Fail-soft within (alpha, beta). */
static int ts_two_tricks(ts_search *S, int alpha, int beta)
{
    tk_state *st = &S->st;
    if (st->trick_number >= st->tricks)
        return ts_value(S);
    if (st->len == 0 && st->trick_number == st->tricks - 1)
        return ts_last_trick(S);
    cards_t legal = tk_legal(st);
    int maxing = st->camp[tk_to_play(st)] == TK_TAKER;
    int g = maxing ? -TS_INF : TS_INF;
    while (legal) {
        int c = tk_lowest(legal);
        legal &= legal - 1;
        tk_play(st, c, &S->undo[S->ply++]);
        int v = ts_two_tricks(S, alpha, beta);
        tk_unplay(st, &S->undo[--S->ply]);
        if (maxing) {
            if (v > g)
                g = v;
            if (g > alpha)
                alpha = g;
        } else {
            if (v < g)
                g = v;
            if (g < beta)
                beta = g;
        }
        if (alpha >= beta)
            break;
    }
    return g;
}

/* A node's result g of the test against beta, fail-soft, made no weaker than the bounds
   [lo, hi] the quick bounds gave it on the side of beta it fell (a pass at least lo, a
   fail at most hi), and kept in the table when key is given (a trick boundary), as a
   lower or an upper bound relative to the half-points won (offset), with the card
   (card, -1: none) to try first next time. */
static inline int ts_settle(ts_search *S, const ts_key *key, int g, int beta, int lo, int hi,
                            int offset, cards_t live, int card, int left)
{
    if (g >= beta) {
        if (g < lo)
            g = lo;
    } else if (g > hi) {
        g = hi;
    }
    if (key) {
        int move = card >= 0 ? ts_relative_move(live, card) : 0xFF;
        if (g >= beta)
            ts_store(S, key, g - offset, TS_NONE_HI, move, left);
        else
            ts_store(S, key, TS_NONE_LO, g - offset, move, left);
    }
    return g;
}

/* Fail-soft null-window test: a result g >= beta means value >= g; g < beta means
 * value <= g. ROOT: search every card here (no cut-off from the bounds or the table),
 * and leave the best card in *best. */
static int ts_search_node(ts_search *S, int beta, int root, int *best)
{
    tk_state *st = &S->st;
    if (st->trick_number >= st->tricks)
        return ts_value(S);
    S->nodes++;
    if ((S->nodes & 1023) == 0 && ts_check_limits(S)) {
        S->aborted = 1;
        return 0;
    }
    int left = st->tricks - st->trick_number;
    if (st->len == 0 && left == 1 && !root)
        return ts_last_trick(S);
    int boundary = st->len == 0 && left >= 2 && !(st->trick_number == 0 && st->called >= 0);
    int lo = -TS_INF, hi = TS_INF;
    S->visits[st->len < 4 ? st->len : 3]++;
    /* The bounds, before the key, which a cut-off on them spares: at trick boundaries,
     * and within a trick but the last (the trick decided, the master trumps left). */
    int winner = st->len ? tk_winner_index(st->trick, st->len) : -1;
    int decided = st->len ? ts_trick_decided_at(st, winner) : -1;
    if (st->len == 0 || root || (left >= 2 && decided >= 0)) {
        ts_bounds_decided(S, decided, &lo, &hi);
        if (!root) {
            if (lo >= beta) {
                S->bound_cuts[st->len < 4 ? st->len : 3]++;
                return lo;
            }
            if (hi < beta) {
                S->bound_cuts[st->len < 4 ? st->len : 3]++;
                return hi;
            }
        }
    }
    ts_key key;
    ts_entry *bucket = NULL;
    if (boundary) {
        ts_make_key(S, &key);
        bucket = ts_bucket(S, &key);
    }
    int hint = -1;
    int offset = S->additive ? st->half : 0;
    cards_t live = S->out;
    if (boundary) {
        ts_entry *e = ts_probe_bucket(S, bucket, &key);
        if (S->additive) {
            /* entries of similar positions (ts_same_shape), their bounds shifted */
            uint64_t mine = ts_points_of_key(&key);
            ts_entry *similar = NULL;
            for (int i = 0; i < TS_BUCKET; i++) {
                ts_entry *o = &bucket[i];
                if (o == e || !o->used || !ts_same_shape(&o->key, &key))
                    continue;
                uint64_t theirs = ts_points_of_key(&o->key);
                if (o->lo != TS_NONE_LO) {
                    int v = o->lo - ts_points_down(theirs, mine) + offset;
                    if (v > lo)
                        lo = v;
                }
                if (o->hi != TS_NONE_HI) {
                    int v = o->hi + ts_points_down(mine, theirs) + offset;
                    if (v < hi)
                        hi = v;
                }
                similar = o;
            }
            if (similar) {
                S->similar++;
                if (!e)
                    hint = ts_absolute_move(live, similar->move);
                if (!root && (lo >= beta || hi < beta)) {
                    S->cuts++;
                    S->similar_cuts++;
                    return lo >= beta ? lo : hi;
                }
            }
        }
        if (e) {
            if (e->lo != TS_NONE_LO && e->lo + offset > lo)
                lo = e->lo + offset;
            if (e->hi != TS_NONE_HI && e->hi + offset < hi)
                hi = e->hi + offset;
            if (!root) {
                if (lo >= beta) {
                    S->cuts++;
                    return lo;
                }
                if (hi < beta) {
                    S->cuts++;
                    return hi;
                }
            }
            hint = ts_absolute_move(live, e->move);
        }
    }
    if (left == 2 && !root) {
        int v = ts_two_tricks(S, beta - 1, beta);
        return ts_settle(S, boundary ? &key : NULL, v, beta, lo, hi, offset, live, hint,
                         left);
    }
    if (boundary)
        S->expanded[left]++;
    int moves[TS_MAX_MOVES];
    int count = ts_moves(S, moves, hint, winner);
    int seat = tk_to_play(st);
    int maxing = st->camp[seat] == TK_TAKER;
    int g = maxing ? -TS_INF : TS_INF;
    int chosen = -1;
    for (int i = 0; i < count; i++) {
        int c = moves[i];
        ts_play(S, c);
        int v = ts_search_node(S, beta, 0, NULL);
        ts_unplay(S);
        if (S->aborted)
            return 0;
        if (maxing ? v > g : v < g) {
            g = v;
            chosen = c;
        }
        if (maxing ? g >= beta : g < beta) {
            S->beta_cuts++;
            S->first_cuts += i == 0;
            uint32_t *h = &S->history[seat][c];
            *h += (uint32_t)(left * left);
            break;
        }
    }
    if (maxing ? g < beta : g >= beta) {
        S->all_nodes[st->len < 4 ? st->len : 3]++;
        S->all_moves[st->len < 4 ? st->len : 3] += (uint64_t)count;
    }
    if (best)
        *best = chosen;
    return ts_settle(S, boundary ? &key : NULL, g, beta, lo, hi, offset, live, chosen, left);
}

#endif
