/* The scanner of one JSON Lines record in the canonical layout the project writes (orjson's
 * compact form: no blank, no escape), for the quick check (tarotnotation/quick.py): the one
 * scanner of the format in C, with two visitors.
 *
 * js_scan reads the usual shape of a complete plain deal into one set of plain C parts
 * (jb_deal): the hands, chien and écart as card sets, the cards played as their numbers,
 * the bids as contracts' ranks, the seats, names, ruleset and scores as the bytes read,
 * where the tags, comments and the cards' notes are (checked as the quick check checks
 * them: tags, glyphs, comments). Then either visitor takes the parts: js_parts hands them
 * to Python (_kernel.scan_json, which tarotnotation.quick checks exactly as it checks the
 * parsed record), bulk.h's jb_judge judges them in C (_kernel.check_lines). It says nothing
 * about the rules. On anything else (another layout, whitespace, an escape, a number that
 * is not a plain integer, a key repeated or unknown, a card code that is not canonical or
 * is written twice in a hand, notes on a bid or a trick, a seat's name before its id, a
 * glyph, tag or bid word the quick check would refuse...) it gives up (None), and the
 * caller parses the line with orjson as before. So it never has to be right about a
 * record it does not take: tests/twins/test_quick_native.py holds what it takes to what orjson
 * and the Python quick check make of the same line, tests/twins/test_quick_bulk.py the two
 * visitors to each other.
 */
#ifndef TAROT_JSONSCAN_H
#define TAROT_JSONSCAN_H

#include <Python.h>
#include <stddef.h>
#include <string.h>

#include "kernel.h"

typedef struct {
    const char *p;
    const char *end;
} js_t;

/* The 78 canonical card codes (tarotnotation.cards.Card.code), by card number. */
static const char *const JS_CODES[78] = {
    "1S", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "NS", "QS", "KS",
    "1H", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "NH", "QH", "KH",
    "1D", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD", "ND", "QD", "KD",
    "1C", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "NC", "QC", "KC",
    "T1", "T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9", "T10", "T11", "T12", "T13", "T14",
    "T15", "T16", "T17", "T18", "T19", "T20", "T21", "EX",
};

/* The card of a code (LEN bytes at S), or -1. */
static int js_card(const char *s, Py_ssize_t len)
{
    if (len == 2 && s[0] == 'E' && s[1] == 'X')
        return TK_EXCUSE;
    if (s[0] == 'T') {
        if (len == 2 && s[1] >= '1' && s[1] <= '9')
            return 56 + (s[1] - '1');
        if (len == 3 && (s[1] == '1' || s[1] == '2') && s[2] >= '0' && s[2] <= '9') {
            int n = (s[1] - '0') * 10 + (s[2] - '0');
            return n <= 21 ? 56 + n - 1 : -1;
        }
        return -1;
    }
    int suit;
    switch (s[len - 1]) {
    case 'S': suit = 0; break;
    case 'H': suit = 1; break;
    case 'D': suit = 2; break;
    case 'C': suit = 3; break;
    default: return -1;
    }
    int rank;
    if (len == 2) {
        switch (s[0]) {
        case 'J': rank = 10; break;
        case 'N': rank = 11; break;
        case 'Q': rank = 12; break;
        case 'K': rank = 13; break;
        default:
            if (s[0] < '1' || s[0] > '9')
                return -1;
            rank = s[0] - '1';
        }
    } else if (len == 3 && s[0] == '1' && s[1] == '0') {
        rank = 9;
    } else {
        return -1;
    }
    return suit * 14 + rank;
}

static inline int js_eat(js_t *j, char c)
{
    if (j->p < j->end && *j->p == c) {
        j->p++;
        return 1;
    }
    return 0;
}

/* A string without escapes or control characters: its bytes (*s, *len). */
static int js_raw_string(js_t *j, const char **s, Py_ssize_t *len)
{
    if (!js_eat(j, '"'))
        return 0;
    const char *start = j->p;
    while (j->p < j->end) {
        unsigned char c = (unsigned char)*j->p;
        if (c == '"') {
            *s = start;
            *len = j->p - start;
            j->p++;
            return 1;
        }
        if (c == '\\' || c < 0x20)
            return 0;
        j->p++;
    }
    return 0;
}

/* A string as a Python str (new reference), or NULL (with a Python error only when the
 * interpreter failed; invalid UTF-8 is a give-up, not an error). */
static PyObject *js_string(js_t *j)
{
    const char *s;
    Py_ssize_t len;
    if (!js_raw_string(j, &s, &len))
        return NULL;
    PyObject *out = PyUnicode_DecodeUTF8(s, len, NULL);
    if (!out && PyErr_ExceptionMatches(PyExc_UnicodeDecodeError))
        PyErr_Clear();
    return out;
}

/* A key and its colon; *s, *len its bytes. */
static int js_key(js_t *j, const char **s, Py_ssize_t *len)
{
    return js_raw_string(j, s, len) && js_eat(j, ':');
}

static inline int js_is(const char *s, Py_ssize_t len, const char *word)
{
    return (Py_ssize_t)strlen(word) == len && memcmp(s, word, (size_t)len) == 0;
}

/* A plain integer: -?[1-9][0-9]{0,17} or 0. */
static int js_int(js_t *j, long long *out)
{
    int neg = js_eat(j, '-');
    const char *start = j->p;
    long long v = 0;
    while (j->p < j->end && *j->p >= '0' && *j->p <= '9' && j->p - start < 18) {
        v = v * 10 + (*j->p - '0');
        j->p++;
    }
    Py_ssize_t digits = j->p - start;
    if (digits == 0 || (digits > 1 && *start == '0') || (neg && v == 0))
        return 0;
    if (j->p < j->end && ((*j->p >= '0' && *j->p <= '9') || *j->p == '.' || *j->p == 'e'
                          || *j->p == 'E'))
        return 0;
    *out = neg ? -v : v;
    return 1;
}

/* A list of card codes: their set (*bits) and how many (*count); a code twice or not
 * canonical gives up. */
static int js_cards(js_t *j, cards_t *bits, int *count)
{
    *bits = 0;
    *count = 0;
    if (!js_eat(j, '['))
        return 0;
    if (js_eat(j, ']'))
        return 1;
    do {
        const char *s;
        Py_ssize_t len;
        if (!js_raw_string(j, &s, &len) || len < 2 || len > 3)
            return 0;
        int c = js_card(s, len);
        if (c < 0 || (*bits & TK_BIT(c)))
            return 0;
        *bits |= TK_BIT(c);
        (*count)++;
    } while (js_eat(j, ','));
    return js_eat(j, ']');
}

/* A list of strings (new reference), or NULL. */
static PyObject *js_strings(js_t *j)
{
    if (!js_eat(j, '['))
        return NULL;
    PyObject *out = PyList_New(0);
    if (!out)
        return NULL;
    if (js_eat(j, ']'))
        return out;
    do {
        PyObject *s = js_string(j);
        if (!s || PyList_Append(out, s) < 0) {
            Py_XDECREF(s);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(s);
    } while (js_eat(j, ','));
    if (!js_eat(j, ']')) {
        Py_DECREF(out);
        return NULL;
    }
    return out;
}

/* The parts of a record, as scan_json (js_parts) and textscan.h's scan_text hand them
 * back, after the number of players. */
enum { JS_TAGS, JS_RULESET, JS_SEATS, JS_DEALER, JS_HAND_KEYS, JS_HANDS, JS_CHIEN,
       JS_WORDS, JS_ECART, JS_CARDS, JS_NOTES, JS_SCORES, JS_COMMENTS, JS_GLYPH,
       JS_DECLARATIONS, JS_NAMES, JS_CALL, JS_PARTS };

/* Keys of the record (a key twice gives up). */
enum { K_VERSION = 1, K_TAGS = 2, K_RULESET = 4, K_PLAYERS = 8, K_SEATS = 16,
       K_DEALER = 32, K_HANDS = 64, K_CHIEN = 128, K_AUCTION = 256, K_ECART = 512,
       K_DECLARATIONS = 1024, K_PLAY = 2048, K_RESULT = 4096, K_COMMENTS = 8192,
       K_GLYPH = 16384, K_CALL = 32768 };

#define JS_GIVE_UP 0

/* A card cell of a trick: {"card": "X"} with a glyph and comments in any order (the
 * writer puts the notes first); *card its number, *note a new dict of the notes or NULL. */
static int js_played(js_t *j, int *card, PyObject **note)
{
    const char *s;
    Py_ssize_t len;
    PyObject *d = NULL;
    int seen = 0;
    *note = NULL;
    *card = -1;
    if (!js_eat(j, '{'))
        return 0;
    do {
        if (!js_key(j, &s, &len))
            goto fail;
        PyObject *value;
        const char *key;
        if (js_is(s, len, "card") && !(seen & 4)) {
            seen |= 4;
            if (!js_raw_string(j, &s, &len) || len < 2 || len > 3)
                goto fail;
            *card = js_card(s, len);
            if (*card < 0)
                goto fail;
            continue;
        }
        if (js_is(s, len, "glyph") && !(seen & 1)) {
            seen |= 1;
            key = "glyph";
            value = js_string(j);
        } else if (js_is(s, len, "comments") && !(seen & 2)) {
            seen |= 2;
            key = "comments";
            value = js_strings(j);
        } else {
            goto fail;
        }
        if (!d && !(d = PyDict_New())) {
            Py_XDECREF(value);
            goto fail;
        }
        if (!value || PyDict_SetItemString(d, key, value) < 0) {
            Py_XDECREF(value);
            goto fail;
        }
        Py_DECREF(value);
    } while (js_eat(j, ','));
    if (!js_eat(j, '}') || *card < 0)
        goto fail;
    *note = d;
    return 1;
fail:
    Py_XDECREF(d);
    return 0;
}

/* "call": {"card": "KS"} at five players, no notes: the card's number, or -1. */
static int js_call(js_t *j)
{
    const char *s;
    Py_ssize_t len;
    int card;
    if (!js_eat(j, '{') || !js_key(j, &s, &len) || !js_is(s, len, "card")
            || !js_raw_string(j, &s, &len) || len < 2 || len > 3
            || (card = js_card(s, len)) < 0 || !js_eat(j, '}'))
        return -1;
    return card;
}

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
    jb_str kind_word;       /* the kind as written */
    jb_str seat;
    int has_cards;
    cards_t cards;
    int count;
} jb_decl;

typedef struct {
    int n;
    const char *tags_at;    /* the tags' list (NULL: no tags) */
    int deal_tag;           /* one of them is a Deal tag */
    const char *comments_at;  /* the deal's comments' list (NULL: none) */
    int has_glyph;
    jb_str glyph;           /* the deal's glyph */
    int has_ruleset;
    jb_str ruleset;         /* the record's own ruleset spec, as written */
    int has_seats, nseats;
    jb_str seat_id[JB_MAX_SEATS];
    int named;              /* a seat has a name */
    jb_str seat_name[JB_MAX_SEATS];  /* each seat's name (s NULL: none) */
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
    int has_decls;          /* a declarations' list (maybe empty) */
    int has_result;         /* a result object (not null) */
    int ndecls;
    jb_decl decl[JB_MAX_DECLS];
    int ncards;
    int8_t cards[78];
    int has_scores, nscores;
    jb_str score_seat[JB_MAX_SCORES];
    long long score[JB_MAX_SCORES];
    int nnotes;             /* the cards with notes: their place in the play, their cell */
    int note_index[78];
    const char *note_at[78];
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

/* A glyph of the notation's (lexicon.GLYPHS); *out (when given) its bytes. */
static int jb_glyph(js_t *j, jb_str *out)
{
    const char *s;
    Py_ssize_t len;
    if (!js_raw_string(j, &s, &len))
        return 0;
    if (out) {
        out->s = s;
        out->len = len;
    }
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
 * as quick._all_notes checks them); its number, or -1. *note: where the cell starts when
 * it has notes (js_played reads them), else NULL. */
static int jb_played(js_t *j, const char **note)
{
    const char *at = j->p;
    *note = NULL;
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
            if (!jb_glyph(j, NULL))
                return -1;
        } else if (JB_IS(s, len, "comments") && !(seen & 2)) {
            seen |= 2;
            if (!jb_comments(j, INT32_MAX))
                return -1;
        } else {
            return -1;
        }
    } while (js_eat(j, ','));
    if (seen & 3)
        *note = at;
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
            const char *note;
            int card = jb_played(j, &note);
            if (card < 0)
                return 0;
            if (note) {
                d->note_index[d->nnotes] = d->ncards;
                d->note_at[d->nnotes++] = note;
            }
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
                x->kind_word = kind;
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

/* The scanner: the record of a line, in the canonical layout, into D, or 0 (give up). */
static int js_scan(js_t *j, jb_deal *d)
{
    const char *s;
    Py_ssize_t len;
    int seen = 0;
    memset(d, 0, offsetof(jb_deal, decl));
    d->ndecls = 0;
    d->ncards = 0;
    d->has_scores = 0;
    d->nscores = 0;
    d->nnotes = 0;
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
            d->tags_at = at;
            d->deal_tag = deal;
            break;
        }
        case K_RULESET:  /* its flags: the caller's table of specs (k_check_lines) */
            d->has_ruleset = 1;
            if (!jb_string(j, &d->ruleset))
                return 0;
            break;
        case K_COMMENTS:  /* at most quick._MAX_ITEMS */
            d->comments_at = j->p;
            if (!jb_comments(j, JB_MAX_TAGS))
                return 0;
            break;
        case K_GLYPH:
            d->has_glyph = 1;
            if (!jb_glyph(j, &d->glyph))
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
                    d->seat_name[d->nseats - 1] = name;
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
            d->has_decls = 1;
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
            d->has_result = 1;
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

/* --- the visitor that hands the parts to Python (scan_json) --------------------------- */

/* A string js_scan found (valid UTF-8 already): a new str, or NULL. */
static PyObject *js_text(jb_str x)
{
    return PyUnicode_DecodeUTF8(x.s, x.len, NULL);
}

/* The list of strings at AT (read and checked by js_scan already): a new list, or NULL. */
static PyObject *js_strings_at(const char *at, const char *end)
{
    js_t j = {at, end};
    return js_strings(&j);
}

/* The tags at AT, each a list [name, value], as a new list, or NULL. */
static PyObject *js_tags_at(const char *at, const char *end)
{
    js_t j = {at, end};
    PyObject *tags = PyList_New(0);
    if (!tags || !js_eat(&j, '['))
        goto fail;
    if (js_eat(&j, ']'))
        return tags;
    do {
        PyObject *pair = js_strings(&j);
        if (!pair || PyList_Append(tags, pair) < 0) {
            Py_XDECREF(pair);
            goto fail;
        }
        Py_DECREF(pair);
    } while (js_eat(&j, ','));
    return tags;
fail:
    Py_XDECREF(tags);
    return PyErr_Occurred() ? NULL : PyErr_Format(PyExc_RuntimeError, "scan_json: tags");
}

/* (bits, count) of a set of cards, as a new tuple. */
static PyObject *js_cards_value(cards_t bits, int count)
{
    return Py_BuildValue("(Ni)", from_cards(bits), count);
}

/* The bids' words, by rules.Contract's rank (the words js_scan takes). */
static const char *const JS_BID_WORDS[5] = {"pass", "prise", "garde", "garde_sans",
                                            "garde_contre"};

/* The parts of the deal js_scan read from a line ending at END, as scan_json hands them to
 * Python (tarotnotation.quick._judge): (players, tags, ruleset, seat ids, dealer,
 * hand keys, hands, chien, bid words, ecart, cards, notes, scores, comments, glyph,
 * declarations, seat names, card called), None where a part is not written. A new
 * tuple, or NULL with a Python error. */
static PyObject *js_parts(const jb_deal *d, const char *end)
{
    PyObject *out = PyTuple_New(1 + JS_PARTS), *x;
    if (!out)
        return NULL;
/* Part K of the tuple (after the number of players): set to VALUE, NULL a failure. */
#define JS_PUT(k, value) do { if (!(x = (value))) goto fail; \
                              PyTuple_SET_ITEM(out, 1 + (k), x); } while (0)
#define JS_AT(k) PyTuple_GET_ITEM(out, 1 + (k))
    if (!(x = PyLong_FromLong(d->n)))
        goto fail;
    PyTuple_SET_ITEM(out, 0, x);
    if (d->tags_at)
        JS_PUT(JS_TAGS, js_tags_at(d->tags_at, end));
    if (d->has_ruleset)
        JS_PUT(JS_RULESET, js_text(d->ruleset));
    if (d->has_seats) {
        JS_PUT(JS_SEATS, PyList_New(d->nseats));
        JS_PUT(JS_NAMES, PyList_New(d->nseats));
        for (int i = 0; i < d->nseats; i++) {
            if (!(x = js_text(d->seat_id[i])))
                goto fail;
            PyList_SET_ITEM(JS_AT(JS_SEATS), i, x);
            if (!(x = d->seat_name[i].s ? js_text(d->seat_name[i]) : Py_NewRef(Py_None)))
                goto fail;
            PyList_SET_ITEM(JS_AT(JS_NAMES), i, x);
        }
    }
    if (d->has_dealer)
        JS_PUT(JS_DEALER, js_text(d->dealer));
    JS_PUT(JS_HAND_KEYS, PyList_New(d->nhands));
    JS_PUT(JS_HANDS, PyList_New(d->nhands));
    for (int i = 0; i < d->nhands; i++) {
        if (!(x = js_text(d->hand_key[i])))
            goto fail;
        PyList_SET_ITEM(JS_AT(JS_HAND_KEYS), i, x);
        if (!(x = js_cards_value(d->hand[i], d->hand_count[i])))
            goto fail;
        PyList_SET_ITEM(JS_AT(JS_HANDS), i, x);
    }
    JS_PUT(JS_CHIEN, js_cards_value(d->chien, d->chien_count));
    JS_PUT(JS_WORDS, PyList_New(d->nbids));
    for (int i = 0; i < d->nbids; i++) {
        if (!(x = PyUnicode_FromString(JS_BID_WORDS[d->bid[i]])))
            goto fail;
        PyList_SET_ITEM(JS_AT(JS_WORDS), i, x);
    }
    if (d->has_ecart)
        JS_PUT(JS_ECART, js_cards_value(d->ecart, d->ecart_count));
    JS_PUT(JS_CARDS, PyBytes_FromStringAndSize((const char *)d->cards, d->ncards));
    JS_PUT(JS_NOTES, PyList_New(d->nnotes));
    for (int i = 0; i < d->nnotes; i++) {  /* each annotated cell read again, as a dict */
        js_t j = {d->note_at[i], end};
        int card;
        PyObject *note;
        if (!js_played(&j, &card, &note) || !note) {
            Py_XDECREF(note);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_RuntimeError, "scan_json: notes");
            goto fail;
        }
        if (!(x = Py_BuildValue("(iN)", d->note_index[i], note)))
            goto fail;
        PyList_SET_ITEM(JS_AT(JS_NOTES), i, x);
    }
    if (d->has_result)  /* {"scores": {...}}, or {} */
        JS_PUT(JS_SCORES, PyDict_New());
    for (int i = 0; i < d->nscores; i++) {
        PyObject *seat = js_text(d->score_seat[i]);
        PyObject *value = seat ? PyLong_FromLongLong(d->score[i]) : NULL;
        int bad = !value || PyDict_SetItem(JS_AT(JS_SCORES), seat, value) < 0;
        Py_XDECREF(seat);
        Py_XDECREF(value);
        if (bad)
            goto fail;
    }
    if (d->comments_at)
        JS_PUT(JS_COMMENTS, js_strings_at(d->comments_at, end));
    if (d->has_glyph)
        JS_PUT(JS_GLYPH, js_text(d->glyph));
    if (d->has_decls) {
        JS_PUT(JS_DECLARATIONS, PyList_New(d->ndecls));
        for (int i = 0; i < d->ndecls; i++) {
            const jb_decl *y = &d->decl[i];
            x = Py_BuildValue("(NNN)", js_text(y->kind_word), js_text(y->seat),
                              y->has_cards ? js_cards_value(y->cards, y->count)
                                           : Py_NewRef(Py_None));
            if (!x)
                goto fail;
            PyList_SET_ITEM(JS_AT(JS_DECLARATIONS), i, x);
        }
    }
    if (d->has_call)
        JS_PUT(JS_CALL, PyLong_FromLong(d->called));
    for (int k = 0; k < JS_PARTS; k++)  /* the parts not written: None */
        if (!JS_AT(k))
            PyTuple_SET_ITEM(out, 1 + k, Py_NewRef(Py_None));
#undef JS_PUT
#undef JS_AT
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

#endif
