/* The quick check of JSON Lines in bulk: a block of lines judged in C, no Python object
 * built for a clean deal but its scores (tarotnotation/quick.py, check_lines below).
 *
 * For each line it reads the record in the canonical layout exactly as jsonscan.h does
 * (the same js_* readers), into plain C values, then runs the C twin of quick._check_scanned and quick._judge over them: each
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

#define JB_MAX_SEATS 5
#define JB_MAX_BIDS 8
#define JB_MAX_DECLS 8
#define JB_MAX_SCORES 8
#define JB_MAX_TAGS 1000   /* quick._MAX_ITEMS */

/* js_is with a literal: its length known when compiled, the comparison inlined. */
#define JB_IS(s, len, lit) \
    ((len) == (Py_ssize_t)sizeof(lit) - 1 && memcmp((s), (lit), sizeof(lit) - 1) == 0)

typedef struct {
    const char *s;
    Py_ssize_t len;
} jb_str;

typedef struct {
    int kind;               /* 1 poignée, 2 chelem, 0 another word */
    jb_str seat;
    int has_cards;
    cards_t cards;
    int count;
} jb_decl;

typedef struct {
    int n;
    const char *tags_at;    /* the tags' list, when there is a Deal tag */
    int has_ruleset;
    jb_str ruleset;         /* the record's own ruleset spec, as written */
    int has_seats, nseats;
    jb_str seat_id[JB_MAX_SEATS];
    int named;              /* a seat has a name */
    int has_dealer;
    jb_str dealer;
    int has_hands, nhands;
    jb_str hand_key[JB_MAX_SEATS];
    cards_t hand[JB_MAX_SEATS];
    int hand_count[JB_MAX_SEATS];
    int has_chien, chien_count;
    cards_t chien;
    int has_auction, nbids;
    int bid[JB_MAX_BIDS];   /* 0 pass, else the contract's rank (rules.Contract) */
    int has_call, called;   /* the card called (five players) */
    int has_ecart, ecart_count;
    cards_t ecart;
    int ndecls;
    jb_decl decl[JB_MAX_DECLS];
    int ncards;
    int8_t cards[78];
    int has_scores, nscores;
    jb_str score_seat[JB_MAX_SCORES];
    long long score[JB_MAX_SCORES];
} jb_deal;

/* Valid UTF-8 as Python decodes it (no overlong form, no surrogate, at most U+10FFFF):
 * a string the scanner would decode, so orjson and the model read the same text. */
static int jb_utf8(const char *p, Py_ssize_t len)
{
    const unsigned char *s = (const unsigned char *)p, *end = s + len;
    while (s < end) {
        unsigned char c = *s;
        if (c < 0x80) {
            s++;
            continue;
        }
        int more;
        unsigned int cp;
        if (c >= 0xC2 && c <= 0xDF) { more = 1; cp = c & 0x1F; }
        else if (c >= 0xE0 && c <= 0xEF) { more = 2; cp = c & 0x0F; }
        else if (c >= 0xF0 && c <= 0xF4) { more = 3; cp = c & 0x07; }
        else return 0;
        if (end - s <= more)
            return 0;
        for (int i = 1; i <= more; i++) {
            if ((s[i] & 0xC0) != 0x80)
                return 0;
            cp = (cp << 6) | (s[i] & 0x3F);
        }
        if ((more == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF)))
                || (more == 3 && (cp < 0x10000 || cp > 0x10FFFF)))
            return 0;
        s += more + 1;
    }
    return 1;
}

static int jb_string(js_t *j, jb_str *out)
{
    return js_raw_string(j, &out->s, &out->len) && jb_utf8(out->s, out->len);
}

static inline int jb_same(jb_str a, jb_str b)
{
    return a.len == b.len && memcmp(a.s, b.s, (size_t)a.len) == 0;
}

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

static int jb_lower_is(jb_str s, const char *word)
{
    Py_ssize_t len = (Py_ssize_t)strlen(word);
    if (s.len != len)
        return 0;
    for (Py_ssize_t i = 0; i < len; i++) {
        char c = s.s[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != word[i])
            return 0;
    }
    return 1;
}

/* The tags, as fields.check_tags takes them: a name of ASCII letters, digits and _ (one
 * letter or digit at least), not a field's (fields.FIELD_TAGS), a value of one line (the
 * raw string has no control character). *deal: a Deal tag is there. */
static int jb_tags(js_t *j, int *deal)
{
    int count = 0;
    *deal = 0;
    if (!js_eat(j, '['))
        return 0;
    if (js_eat(j, ']'))
        return 1;
    do {
        jb_str name, value;
        if (++count > JB_MAX_TAGS || !js_eat(j, '[') || !jb_string(j, &name)
                || !js_eat(j, ',') || !jb_string(j, &value) || !js_eat(j, ']'))
            return 0;
        int alnum = 0;
        for (Py_ssize_t i = 0; i < name.len; i++) {
            char c = name.s[i];
            int an = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
            if (!an && c != '_')
                return 0;
            alnum |= an;
        }
        if (!alnum || jb_lower_is(name, "players") || jb_lower_is(name, "seats")
                || jb_lower_is(name, "dealer") || jb_lower_is(name, "ruleset"))
            return 0;
        if (jb_lower_is(name, "deal"))
            *deal = 1;
    } while (js_eat(j, ','));
    return js_eat(j, ']');
}

/* A glyph of the notation's (lexicon.GLYPHS). */
static int jb_glyph(js_t *j)
{
    const char *s;
    Py_ssize_t len;
    if (!js_raw_string(j, &s, &len))
        return 0;
    return JB_IS(s, len, "!") || JB_IS(s, len, "?") || JB_IS(s, len, "!!")
        || JB_IS(s, len, "??") || JB_IS(s, len, "!?") || JB_IS(s, len, "?!");
}

/* Comments: a list of strings (at most MOST of them). */
static int jb_comments(js_t *j, int most)
{
    int count = 0;
    if (!js_eat(j, '['))
        return 0;
    if (js_eat(j, ']'))
        return 1;
    do {
        jb_str c;
        if (++count > most || !jb_string(j, &c))
            return 0;
    } while (js_eat(j, ','));
    return js_eat(j, ']');
}

/* A card of a trick: {"card": "X"} with a glyph and comments in any order (js_played,
 * as quick._all_notes checks them); its number, or -1. */
static int jb_played(js_t *j)
{
    const char *s;
    Py_ssize_t len;
    int seen = 0, card = -1;
    /* The writer's cell, {"card":"XX"} (nearly every card): read at once. */
    if (j->end - j->p >= 13 && memcmp(j->p, "{\"card\":\"", 9) == 0) {
        const char *code = j->p + 9;
        int n = code[2] == '"' ? 2 : (j->end - code >= 5 && code[3] == '"') ? 3 : 0;
        if (n && code[n + 1] == '}' && (card = js_card(code, n)) >= 0) {
            j->p = code + n + 2;
            return card;
        }
        card = -1;
    }
    if (!js_eat(j, '{'))
        return -1;
    do {
        if (!js_key(j, &s, &len))
            return -1;
        if (JB_IS(s, len, "card") && !(seen & 4)) {
            seen |= 4;
            if (!js_raw_string(j, &s, &len) || len < 2 || len > 3
                    || (card = js_card(s, len)) < 0)
                return -1;
        } else if (JB_IS(s, len, "glyph") && !(seen & 1)) {
            seen |= 1;
            if (!jb_glyph(j))
                return -1;
        } else if (JB_IS(s, len, "comments") && !(seen & 2)) {
            seen |= 2;
            if (!jb_comments(j, INT32_MAX))
                return -1;
        } else {
            return -1;
        }
    } while (js_eat(j, ','));
    return js_eat(j, '}') ? card : -1;
}

/* "play": every trick {"cards": [...]} of N cards. */
static int jb_play(js_t *j, jb_deal *d)
{
    const char *s;
    Py_ssize_t len;
    d->ncards = 0;
    if (!js_eat(j, '['))
        return 0;
    if (js_eat(j, ']'))
        return 1;
    do {
        if (!js_eat(j, '{') || !js_key(j, &s, &len) || !JB_IS(s, len, "cards")
                || !js_eat(j, '['))
            return 0;
        for (int i = 0; i < d->n; i++) {
            if ((i && !js_eat(j, ',')) || d->ncards >= 78)
                return 0;
            int card = jb_played(j);
            if (card < 0)
                return 0;
            d->cards[d->ncards++] = (int8_t)card;
        }
        if (!js_eat(j, ']') || !js_eat(j, '}'))
            return 0;
    } while (js_eat(j, ','));
    return js_eat(j, ']');
}

static int jb_declarations(js_t *j, jb_deal *d)
{
    const char *s;
    Py_ssize_t len;
    d->ndecls = 0;
    if (!js_eat(j, '['))
        return 0;
    if (js_eat(j, ']'))
        return 1;
    do {
        if (d->ndecls >= JB_MAX_DECLS || !js_eat(j, '{'))
            return 0;
        jb_decl *x = &d->decl[d->ndecls++];
        int seen = 0;
        x->has_cards = 0;
        do {
            if (!js_key(j, &s, &len))
                return 0;
            if (JB_IS(s, len, "kind") && !(seen & 1)) {
                jb_str kind;
                seen |= 1;
                if (!jb_string(j, &kind))
                    return 0;
                x->kind = JB_IS(kind.s, kind.len, "poignee") ? 1
                    : JB_IS(kind.s, kind.len, "chelem") ? 2 : 0;
            } else if (JB_IS(s, len, "seat") && !(seen & 2)) {
                seen |= 2;
                if (!jb_string(j, &x->seat))
                    return 0;
            } else if (JB_IS(s, len, "cards") && !(seen & 4)) {
                seen |= 4;
                x->has_cards = 1;
                if (!js_cards(j, &x->cards, &x->count))
                    return 0;
            } else {
                return 0;
            }
        } while (js_eat(j, ','));
        if (!js_eat(j, '}') || (seen & 3) != 3)
            return 0;
    } while (js_eat(j, ','));
    return js_eat(j, ']');
}

/* The record of a line, in the canonical layout (js_record's, narrower), or 0. */
static int jb_record(js_t *j, jb_deal *d)
{
    const char *s;
    Py_ssize_t len;
    int seen = 0;
    memset(d, 0, offsetof(jb_deal, decl));
    d->ndecls = 0;
    d->ncards = 0;
    d->has_scores = 0;
    d->nscores = 0;
    if (!js_eat(j, '{') || js_eat(j, '}'))
        return 0;
    do {
        if (!js_key(j, &s, &len))
            return 0;
        int key;
        if (JB_IS(s, len, "tarotnotation")) key = K_VERSION;
        else if (JB_IS(s, len, "tags")) key = K_TAGS;
        else if (JB_IS(s, len, "players")) key = K_PLAYERS;
        else if (JB_IS(s, len, "seats")) key = K_SEATS;
        else if (JB_IS(s, len, "dealer")) key = K_DEALER;
        else if (JB_IS(s, len, "hands")) key = K_HANDS;
        else if (JB_IS(s, len, "chien")) key = K_CHIEN;
        else if (JB_IS(s, len, "auction")) key = K_AUCTION;
        else if (JB_IS(s, len, "ecart")) key = K_ECART;
        else if (JB_IS(s, len, "declarations")) key = K_DECLARATIONS;
        else if (JB_IS(s, len, "play")) key = K_PLAY;
        else if (JB_IS(s, len, "result")) key = K_RESULT;
        else if (JB_IS(s, len, "comments")) key = K_COMMENTS;
        else if (JB_IS(s, len, "glyph")) key = K_GLYPH;
        else if (JB_IS(s, len, "ruleset")) key = K_RULESET;
        else if (JB_IS(s, len, "call")) key = K_CALL;
        else return 0;  /* another key: not settled here */
        if (seen & key)
            return 0;
        seen |= key;
        long long v;
        switch (key) {
        case K_VERSION:
            if (!js_int(j, &v) || v != 1)
                return 0;
            break;
        case K_PLAYERS:
            if (!js_int(j, &v) || v < 3 || v > 5)
                return 0;
            d->n = (int)v;
            break;
        case K_CALL:  /* {"card": "KS"} (js_call) */
            d->has_call = 1;
            if ((d->called = js_call(j)) < 0)
                return 0;
            break;
        case K_TAGS: {
            const char *at = j->p;
            int deal;
            if (!jb_tags(j, &deal))
                return 0;
            d->tags_at = deal ? at : NULL;
            break;
        }
        case K_RULESET:  /* its flags: the caller's table of specs (k_check_lines) */
            d->has_ruleset = 1;
            if (!jb_string(j, &d->ruleset))
                return 0;
            break;
        case K_COMMENTS:  /* at most quick._MAX_ITEMS */
            if (!jb_comments(j, JB_MAX_TAGS))
                return 0;
            break;
        case K_GLYPH:
            if (!jb_glyph(j))
                return 0;
            break;
        case K_DEALER:
            d->has_dealer = 1;
            if (!jb_string(j, &d->dealer))
                return 0;
            break;
        case K_SEATS:  /* [{"id": "S", "name": "Ann"}, ...], the id first */
            d->has_seats = 1;
            if (!js_eat(j, '[') || js_eat(j, ']'))
                return 0;
            do {
                if (d->nseats >= JB_MAX_SEATS || !js_eat(j, '{') || !js_key(j, &s, &len)
                        || !JB_IS(s, len, "id") || !jb_string(j, &d->seat_id[d->nseats++]))
                    return 0;
                if (js_eat(j, ',')) {  /* a name: one line (fields.NAME_RE) */
                    jb_str name;
                    if (!js_key(j, &s, &len) || !JB_IS(s, len, "name") || !jb_string(j, &name))
                        return 0;
                    d->named = 1;
                }
                if (!js_eat(j, '}'))
                    return 0;
            } while (js_eat(j, ','));
            if (!js_eat(j, ']'))
                return 0;
            break;
        case K_HANDS:
            d->has_hands = 1;
            if (!js_eat(j, '{') || js_eat(j, '}'))
                return 0;
            do {
                jb_str key_str;
                if (d->nhands >= JB_MAX_SEATS || !jb_string(j, &key_str))
                    return 0;
                for (int i = 0; i < d->nhands; i++)
                    if (jb_same(d->hand_key[i], key_str))
                        return 0;
                d->hand_key[d->nhands] = key_str;
                if (!js_eat(j, ':') || !js_cards(j, &d->hand[d->nhands],
                                                 &d->hand_count[d->nhands]))
                    return 0;
                d->nhands++;
            } while (js_eat(j, ','));
            if (!js_eat(j, '}'))
                return 0;
            break;
        case K_CHIEN:
            d->has_chien = 1;
            if (!js_cards(j, &d->chien, &d->chien_count))
                return 0;
            break;
        case K_AUCTION:  /* [{"contract": "pass"}, ...]: rules.Contract's ranks */
            d->has_auction = 1;
            if (!js_eat(j, '['))
                return 0;
            if (js_eat(j, ']'))
                break;
            do {
                jb_str w;
                if (d->nbids >= JB_MAX_BIDS || !js_eat(j, '{') || !js_key(j, &s, &len)
                        || !JB_IS(s, len, "contract") || !jb_string(j, &w) || !js_eat(j, '}'))
                    return 0;
                int bid;
                if (JB_IS(w.s, w.len, "pass")) bid = 0;
                else if (JB_IS(w.s, w.len, "prise")) bid = 1;
                else if (JB_IS(w.s, w.len, "garde")) bid = 2;
                else if (JB_IS(w.s, w.len, "garde_sans")) bid = 3;
                else if (JB_IS(w.s, w.len, "garde_contre")) bid = 4;
                else return 0;
                d->bid[d->nbids++] = bid;
            } while (js_eat(j, ','));
            if (!js_eat(j, ']'))
                return 0;
            break;
        case K_ECART:  /* {"cards": [...]} or null */
            if (j->end - j->p >= 4 && memcmp(j->p, "null", 4) == 0) {
                j->p += 4;
                break;
            }
            d->has_ecart = 1;
            if (!js_eat(j, '{') || !js_key(j, &s, &len) || !JB_IS(s, len, "cards")
                    || !js_cards(j, &d->ecart, &d->ecart_count) || !js_eat(j, '}'))
                return 0;
            break;
        case K_DECLARATIONS:
            if (!jb_declarations(j, d))
                return 0;
            break;
        case K_PLAY:
            if (d->n == 0 || !jb_play(j, d))
                return 0;
            break;
        case K_RESULT:  /* {"scores": {"S": -64, ...}}, {} or null */
            if (j->end - j->p >= 4 && memcmp(j->p, "null", 4) == 0) {
                j->p += 4;
                break;
            }
            if (!js_eat(j, '{'))
                return 0;
            if (js_eat(j, '}'))
                break;
            if (!js_key(j, &s, &len) || !JB_IS(s, len, "scores") || !js_eat(j, '{'))
                return 0;
            d->has_scores = 1;
            if (!js_eat(j, '}')) {
                do {
                    if (d->nscores >= JB_MAX_SCORES
                            || !jb_string(j, &d->score_seat[d->nscores]) || !js_eat(j, ':')
                            || !js_int(j, &d->score[d->nscores]))
                        return 0;
                    d->nscores++;
                } while (js_eat(j, ','));
                if (!js_eat(j, '}'))
                    return 0;
            }
            if (!js_eat(j, '}'))
                return 0;
            break;
        }
    } while (js_eat(j, ','));
    return js_eat(j, '}') && j->p == j->end && d->n != 0 && d->has_hands && d->has_chien
        && d->has_auction && (seen & K_PLAY);
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

/* quick._check_scanned and quick._judge of a deal read by jb_record: 1 clean (OUT
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
