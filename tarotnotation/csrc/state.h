/* A deal in play, the C twin of tarotnotation.kernel.PlayState: the hands, the trick so
 * far, who is to play, what the taker's camp has won (half-points and bouts) and each
 * camp's tricks. tk_play and tk_unplay step it one card at a time, ending a trick exactly
 * as PlayState._end_trick does, through the kernel functions of kernel.h.
 *
 * Unlike PlayState it keeps only what the search and the count need: the taker's camp's
 * half-points (its cards won, plus the Excuse's low cards) and bouts, not the cards won.
 */
#ifndef TAROT_STATE_H
#define TAROT_STATE_H

#include "kernel.h"

#define TK_MAX_PLAYERS 5

typedef struct {
    int n;                  /* players, 3-5 */
    int flags;              /* the ruleset (kernel.h) */
    int tricks;             /* tricks in the deal */
    int called;             /* the called card restricting the first lead, or -1 */
    int camp[TK_MAX_PLAYERS];
    cards_t hand[TK_MAX_PLAYERS];
    int leader;
    int len;                /* cards in the current trick */
    int trick[TK_MAX_PLAYERS];
    int led, top;
    int excuse_owner;       /* camp that played the Excuse to this trick, -1 */
    int trick_number;       /* 0-based */
    int half;               /* taker's camp: half-points won so far (Excuse settled) */
    int bouts;              /* taker's camp: bouts won so far */
    int tricks_won[2];
    int prev[TK_MAX_PLAYERS];
    int prev_len;
    int petit;              /* petit au bout's camp once the deal is over, else -1 */
} tk_state;

typedef struct {
    int8_t card, led, top, excuse_owner;
    int8_t ended;           /* this card completed a trick */
    int8_t leader, petit, prev_len;
    int16_t half, bouts;
    int8_t prev[TK_MAX_PLAYERS];
} tk_undo;

static inline int tk_to_play(const tk_state *s)
{
    return (s->leader + s->len) % s->n;
}

/* The legal cards of the player to move (PlayState.legal). */
static inline cards_t tk_legal(const tk_state *s)
{
    int kind;
    cards_t hand = s->hand[tk_to_play(s)];
    if (s->called >= 0 && s->len == 0 && s->trick_number == 0)
        return tk_first_lead(hand, s->called, &kind);
    return tk_legal_in(hand, s->led, s->top, &kind);
}

/* The end of a trick (PlayState._end_trick): who wins it, what it brings each camp
 * (§6-§8), and the next leader. Returns the winner's seat. */
static inline int tk_end_trick(tk_state *s)
{
    int n = s->n;
    int last = s->trick_number == s->tricks - 1;
    int leader_camp = s->camp[s->leader];
    int excuse_led = last && s->trick[0] == TK_EXCUSE;
    int leader_won_all = s->tricks_won[1 - leader_camp] == 0;
    int excuse_won = tk_excuse_wins_last_trick(s->flags, excuse_led, leader_won_all);
    int index = 0;
    if (!excuse_won) {
        index = tk_winner_index(s->trick, s->len);
        if (index < 0)
            index = 0;
    }
    int winner = (s->leader + index) % n;
    int wcamp = s->camp[winner];
    /* settle_trick, counted as it goes: the taker's camp's half-points and bouts */
    int owner = s->excuse_owner;
    if (owner >= 0) {
        int ends, low;
        tk_excuse_settlement(s->flags, owner, wcamp, last, excuse_won, &ends, &low);
        if (ends == TK_TAKER) {
            s->half += 9;
            s->bouts += 1;
        }
        if (low)
            s->half += wcamp == TK_TAKER ? 1 : -1;
    }
    if (wcamp == TK_TAKER) {
        for (int i = 0; i < s->len; i++) {
            int c = s->trick[i];
            if (c != TK_EXCUSE) {
                s->half += tk_points_of(c);
                s->bouts += tk_is_bout(c);
            }
        }
    }
    s->tricks_won[wcamp] += 1;
    if (last) {
        if (tk_petit_trick_before_last(excuse_led, leader_won_all, wcamp == leader_camp))
            s->petit = tk_petit_au_bout(s->flags, s->prev, s->prev_len, leader_camp);
        else
            s->petit = tk_petit_au_bout(s->flags, s->trick, s->len, wcamp);
    }
    for (int i = 0; i < s->len; i++)
        s->prev[i] = s->trick[i];
    s->prev_len = s->len;
    s->len = 0;
    s->led = TK_NO_SUIT;
    s->top = 0;
    s->excuse_owner = -1;
    s->leader = winner;
    s->trick_number += 1;
    return winner;
}

/* Play CARD for the player to move (no check: ask tk_legal first). */
static inline void tk_play(tk_state *s, int card, tk_undo *u)
{
    int seat = tk_to_play(s);
    u->card = (int8_t)card;
    u->led = (int8_t)s->led;
    u->top = (int8_t)s->top;
    u->excuse_owner = (int8_t)s->excuse_owner;
    u->ended = 0;
    s->hand[seat] &= ~TK_BIT(card);
    if (card == TK_EXCUSE)
        s->excuse_owner = s->camp[seat];
    tk_step(&s->led, &s->top, card);
    s->trick[s->len++] = card;
    if (s->len == s->n) {
        u->ended = 1;
        u->leader = (int8_t)s->leader;
        u->petit = (int8_t)s->petit;
        u->half = (int16_t)s->half;
        u->bouts = (int16_t)s->bouts;
        u->prev_len = (int8_t)s->prev_len;
        for (int i = 0; i < s->prev_len; i++)
            u->prev[i] = (int8_t)s->prev[i];
        tk_end_trick(s);
    }
}

/* Take back the card of U (and the end of the trick it completed). */
static inline void tk_unplay(tk_state *s, const tk_undo *u)
{
    if (u->ended) {
        s->trick_number -= 1;
        s->tricks_won[s->camp[s->leader]] -= 1;
        s->len = s->prev_len;
        for (int i = 0; i < s->len; i++)
            s->trick[i] = s->prev[i];
        s->leader = u->leader;
        s->petit = u->petit;
        s->half = u->half;
        s->bouts = u->bouts;
        s->prev_len = u->prev_len;
        for (int i = 0; i < s->prev_len; i++)
            s->prev[i] = u->prev[i];
    }
    s->led = u->led;
    s->top = u->top;
    s->excuse_owner = u->excuse_owner;
    s->len -= 1;
    s->hand[tk_to_play(s)] |= TK_BIT(u->card);
}

#endif
