/* The quick check of JSON Lines in bulk: a block of lines judged in C, no Python object
 * built for a clean deal but its scores (tarotnotation/quick.py, check_lines below).
 *
 * Each line is read by jsonscan.h's scanner (js_scan, the one scanner of JSON Lines: its
 * other visitor, js_parts, hands the same parts to Python as scan_json) into plain C
 * values (jb_deal), then jb_judge, the C twin of quick._judge and judge.judge,
 * judges them: each
 * rule through its twin in kernel.h (tk_petit_sec, tk_outbids, tk_ecart_forbidden...:
 * the functions of kernel.py of the same names, docs/rules.md's table "Where each rule
 * lives") and state.h (the twin of kernel.PlayState), the score through jb_score, the
 * twin of scoring.score.
 * A line is either "clean" (its taker's half-points, its scores by seat, and its tags
 * when one is a Deal tag, for plausibility.deal_number), or "not settled here" (None):
 * the caller then runs today's path on it (quick_check_line, then the reader and the
 * replay), which words every diagnostic. So this path may only ever say clean where
 * quick_check_line says clean with the same scores; tests/twins/test_quick_bulk.py holds it
 * to that on generated deals at 3, 4 and 5 players, clean and with faults injected.
 *
 * Memory: the caller's lines only (each at most LIMIT bytes is looked at); nothing is
 * kept between lines.
 */
#ifndef TAROT_BULK_H
#define TAROT_BULK_H

#include <stddef.h>

#include "jsonscan.h"
#include "state.h"

/* Beside kernel.h's play flags: petit_in_chien = annuls, five_player_first_lead = free
 * (§12). */
#define JB_PETIT_IN_CHIEN_ANNULS 256
#define JB_FIRST_LEAD_FREE 512

/* lexicon.SEAT_ID_RE: [A-Za-z][A-Za-z0-9_]{0,15}. */
static int jb_seat_id(jb_str id)
{
    if (id.len < 1 || id.len > 16)
        return 0;
    for (Py_ssize_t i = 0; i < id.len; i++) {
        char c = id.s[i];
        int letter = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
        if (!(letter || (i && ((c >= '0' && c <= '9') || c == '_'))))
            return 0;
    }
    return 1;
}

/* The seat of ID among IDS, or -1. */
static int jb_index(const jb_str *ids, int n, jb_str id)
{
    for (int i = 0; i < n; i++)
        if (jb_same(ids[i], id))
            return i;
    return -1;
}

/* rules.PlayerTable.poignee_size: 1 simple, 2 double, 3 triple, 0 none (§5). */
static int jb_poignee_size(int n, int count)
{
    static const int sizes[3][3] = {{13, 15, 18}, {10, 13, 15}, {8, 10, 13}};
    for (int i = 0; i < 3; i++)
        if (sizes[n - 3][i] == count)
            return i + 1;
    return 0;
}

/* What a clean deal gives its caller. */
typedef struct {
    int taker_half;
    int seats[JB_MAX_SEATS];    /* each seat's score, in the order of play */
} jb_clean;

/* A clean deal's scores as the quick check gives them, {seat id: score}: ``keys`` the n
 * seats' ids, new references (NULL where one could not be made: the error is set), taken
 * over here. NULL on an error. */
static PyObject *jb_scores_dict(int n, PyObject **keys, const jb_clean *c)
{
    PyObject *scores = PyDict_New();
    for (int i = 0; i < n; i++) {
        PyObject *value = scores && keys[i] ? PyLong_FromLong(c->seats[i]) : NULL;
        if (!value || PyDict_SetItem(scores, keys[i], value) < 0)
            Py_CLEAR(scores);
        Py_XDECREF(value);
        Py_XDECREF(keys[i]);
    }
    return scores;
}

/* scoring.score of a deal (no misère) (§9, §10): X, what each defender pays the taker
 * (the taker gets it from each defender, and at five players gives his partner X). */
static int jb_score(int contract, int taker_half, int bouts, int pab, const int *sizes,
                    int npoignees, int chelem, int announced)
{
    static const int multipliers[5] = {0, 1, 2, 4, 6};
    static const int bonus[4] = {0, 20, 30, 40};  /* rules.POIGNEE_BONUS */
    int m = multipliers[contract];
    int diff = taker_half - tk_threshold(bouts);
    int sign = diff >= 0 ? 1 : -1;
    int margin = ((diff < 0 ? -diff : diff) + 1) / 2;  /* the half point to the winner */
    int x = sign * (25 + margin) * m;
    if (pab >= 0)
        x += (pab == TK_TAKER ? 10 : -10) * m;
    for (int i = 0; i < npoignees; i++)
        x += sign * bonus[sizes[i]];
    if (chelem == TK_TAKER) {
        x += announced ? 400 : 200;
    } else {
        if (announced)
            x -= 200;
        if (chelem == TK_DEFENCE)
            x -= 200;
    }
    return x;
}

/* quick._judge and judge.judge of a deal read by js_scan: 1 clean (OUT
 * filled, *ids the seats' ids in the order of play), 0 not settled here. */
static int jb_judge(const jb_deal *d, int flags, jb_clean *out, jb_str *ids)
{
    static const char *const plain[JB_MAX_SEATS] = {"S", "E", "N", "W", "F"};
    int n = d->n;
    /* rules.PlayerTable (§2) */
    int hand_size = n == 3 ? 24 : n == 4 ? 18 : 15, chien_size = n == 5 ? 3 : 6;
    int tricks = hand_size;

    /* Seats (§2): the record's ids, or the default ones. */
    if (d->has_seats) {
        if (d->nseats != n)
            return 0;
        for (int i = 0; i < n; i++) {
            if (!jb_seat_id(d->seat_id[i]) || jb_index(d->seat_id, i, d->seat_id[i]) >= 0)
                return 0;
            ids[i] = d->seat_id[i];
        }
    } else {
        for (int i = 0; i < n; i++) {
            ids[i].s = plain[i];
            ids[i].len = 1;
        }
    }
    int first = 0;
    if (d->has_dealer) {
        int dealt = jb_index(ids, n, d->dealer);
        if (dealt < 0)
            return 0;
        first = (dealt + 1) % n;
    }

    /* Hands and chien, all recorded, every card once (§2). */
    if (d->nhands != n || d->chien_count != chien_size)
        return 0;
    cards_t given[JB_MAX_SEATS], all = d->chien;
    int total = tk_popcount(d->chien);
    for (int i = 0; i < n; i++) {
        int k = jb_index(d->hand_key, n, ids[i]);
        if (k < 0 || d->hand_count[k] != hand_size)
            return 0;
        given[i] = d->hand[k];
        if (tk_popcount(given[i]) != hand_size || (all & given[i]))
            return 0;
        all |= given[i];
        total += hand_size;
    }
    if (all != TK_ALL_MASK || total != 78 || d->ncards != n * tricks)
        return 0;
    for (int i = 0; i < n; i++)
        if (tk_petit_sec(given[i]))
            return 0;  /* the deal is annulled */
    if (d->has_ecart && d->ecart_count != chien_size)
        return 0;

    /* The auction (§3): one bid each, in turn, each higher. */
    if (d->nbids != n)
        return 0;
    int contract = 0, taker = -1;
    for (int i = 0; i < n; i++) {
        if (d->bid[i]) {
            if (!tk_outbids(d->bid[i], contract))
                return 0;
            contract = d->bid[i];
            taker = (first + i) % n;
        }
    }
    if (!contract)
        return 0;  /* all passed */

    /* The call (five players, §3): a card the taker may call (kernel.call_fault); its
     * holder is his partner, none when it is in his own hand or the chien. */
    if (d->has_call != (n == 5))
        return 0;
    int partner = -1;
    if (d->has_call) {
        if (tk_call_fault(d->called, given[taker]))
            return 0;
        for (int i = 0; i < n; i++)
            if (i != taker && (given[i] & TK_BIT(d->called)))
                partner = i;
    }

    /* The chien and the écart (§4; §12 petit_in_chien); an écart with trumps, which are
     * shown, goes to the replay. */
    cards_t start[JB_MAX_SEATS];
    for (int i = 0; i < n; i++)
        start[i] = given[i];
    if (contract <= 2) {  /* Contract.takes_chien */
        if (tk_petit_in_chien_annuls(flags & JB_PETIT_IN_CHIEN_ANNULS, contract, d->chien))
            return 0;
        cards_t pool = given[taker] | d->chien;
        if (!d->has_ecart || tk_popcount(d->ecart) != chien_size || (d->ecart & ~pool)
                || tk_ecart_forbidden(d->ecart) || (d->ecart & TK_TRUMP_MASK))
            return 0;
        start[taker] = pool & ~d->ecart;
    } else if (d->has_ecart) {
        return 0;
    }

    /* Declarations (§5): poignées shown with their cards, one a seat; a chelem
     * announced by the taker alone, who then leads (kernel.first_leader). */
    int sizes[JB_MAX_DECLS], npoignees = 0, announcers = 0, seen_seats = 0;
    for (int i = 0; i < d->ndecls; i++) {
        const jb_decl *x = &d->decl[i];
        if (!jb_seat_id(x->seat))
            return 0;
        int s = jb_index(ids, n, x->seat);
        if (s < 0)
            return 0;
        if (x->kind == 2 && !x->has_cards) {
            if (s != taker)
                return 0;
            announcers++;
            continue;
        }
        if (x->kind != 1 || !x->has_cards || (seen_seats & (1 << s)))
            return 0;
        seen_seats |= 1 << s;
        int size = jb_poignee_size(n, x->count);
        if (!size || tk_poignee_wrong_cards(x->cards) || (x->cards & ~start[s])
                || tk_poignee_hidden_trumps(start[s], x->cards))
            return 0;
        sizes[npoignees++] = size;
    }
    if (announcers > 1)
        return 0;
    int leader = tk_first_leader(first, announcers ? taker : -1);

    /* The play (§6-§8), by the twin of kernel.PlayState; a card not in its player's
     * hand or not legal: not clean. */
    tk_state st;
    memset(&st, 0, sizeof(st));
    st.n = n;
    st.flags = flags & (TK_TO_TRICK_WINNER | TK_WINS_LAST_TRICK | TK_CHELEM_EXCUSE);
    st.tricks = tricks;
    st.called = d->has_call && !(flags & JB_FIRST_LEAD_FREE) ? d->called : -1;
    st.leader = leader;
    st.led = TK_NO_SUIT;
    st.excuse_owner = -1;
    st.petit = -1;
    cards_t held = 0;
    for (int i = 0; i < n; i++) {
        st.hand[i] = start[i];
        st.camp[i] = i == taker || i == partner ? TK_TAKER : TK_DEFENCE;
        held |= start[i];
    }
    tk_undo u;
    for (int i = 0; i < d->ncards; i++) {
        int c = d->cards[i];
        if (!(tk_legal(&st) & TK_BIT(c)))
            return 0;
        tk_play(&st, c, &u);
    }
    int half = st.half, bouts = st.bouts;
    if (tk_unplayed_camp(contract) == TK_TAKER) {  /* the cards aside (§9) */
        cards_t aside = TK_ALL_MASK & ~held;
        half += tk_card_points(aside);
        bouts += tk_popcount(aside & TK_BOUTS_MASK);
    }
    int chelem = tk_chelem_camp(st.tricks_won[TK_TAKER], tricks);
    int x = jb_score(contract, half, bouts, st.petit, sizes, npoignees, chelem, announcers);
    out->taker_half = half;
    for (int i = 0; i < n; i++)  /* (scoring.score: the partner's share) */
        out->seats[i] = i == taker ? (partner < 0 ? n - 1 : 2) * x : i == partner ? x : -x;

    /* The recorded result: at most the scores, each as the rules give it. */
    for (int i = 0; i < d->nscores; i++) {
        int s = jb_index(ids, n, d->score_seat[i]);
        if (s < 0 || d->score[i] != out->seats[s])
            return 0;
    }
    return 1;
}

/* The content of a line as archive.line_content sees it (blanks around it off), or 0 when
 * it is blank or starts with a byte-order mark (left to the caller). */
static int jb_content(const char **s, const char **e)
{
    const char *p = *s, *q = *e;
    while (p < q && (*p == ' ' || (*p >= '\t' && *p <= '\r')))
        p++;
    while (q > p && (q[-1] == ' ' || (q[-1] >= '\t' && q[-1] <= '\r')))
        q--;
    if (p == q || (q - p >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0))
        return 0;
    *s = p;
    *e = q;
    return 1;
}

/* A blank line as archive.line_content sees it: nothing once the blanks around are stripped,
 * or a byte-order mark alone. */
static int jb_blank(const char *p, const char *q)
{
    while (p < q && (*p == ' ' || (*p >= '\t' && *p <= '\r')))
        p++;
    while (q > p && (q[-1] == ' ' || (q[-1] >= '\t' && q[-1] <= '\r')))
        q--;
    return p == q || (q - p == 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0);
}

#endif
