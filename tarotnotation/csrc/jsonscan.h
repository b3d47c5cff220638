/* A scanner of one JSON Lines record in the canonical layout the project writes (orjson's
 * compact form: no blank, no escape), for the quick check (tarotnotation/quick.py).
 *
 * It reads the usual shape of a complete plain deal and hands back its parts as Python
 * values and plain ints: the hands, chien and écart as card sets, the cards played as the
 * bytes of their numbers, the bids as words, the tags, notes and scores as read. It says
 * nothing about the rules: tarotnotation.quick checks the parts exactly as it checks the
 * parsed record. On anything else (another layout, whitespace, an escape, a number that is
 * not a plain integer, a key repeated or unknown, a card code that is not canonical or is
 * written twice in a hand, notes on a bid or a trick, a seat's name before its id...) it
 * gives up (None), and the caller parses the line with orjson as before. So it never has
 * to be right about a record it does not take: tests/twins/test_quick_native.py holds what it
 * takes to what orjson and the Python quick check make of the same line.
 */
#ifndef TAROT_JSONSCAN_H
#define TAROT_JSONSCAN_H

#include <Python.h>
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

/* The parts of a record, as the scan hands them back (each NULL or a new reference). */
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

/* "play": [{"cards": [...]}, ...]: the card numbers (bytes, in order) and the notes
 * ([index of the card, {notes}]...). Every trick has PLAYERS cards. */
static int js_play(js_t *j, int players, PyObject **cards, PyObject **notes)
{
    char buf[78];
    int count = 0;
    const char *s;
    Py_ssize_t len;
    PyObject *found = PyList_New(0);
    if (!found)
        return 0;
    if (!js_eat(j, '['))
        goto fail;
    if (!js_eat(j, ']')) {
        do {
            if (!js_eat(j, '{') || !js_key(j, &s, &len) || !js_is(s, len, "cards")
                || !js_eat(j, '['))
                goto fail;
            for (int i = 0; i < players; i++) {
                int card;
                PyObject *note;
                if ((i && !js_eat(j, ',')) || count >= 78 || !js_played(j, &card, &note))
                    goto fail;
                if (note) {
                    PyObject *item = Py_BuildValue("(iN)", count, note);
                    if (!item || PyList_Append(found, item) < 0) {
                        Py_XDECREF(item);
                        goto fail;
                    }
                    Py_DECREF(item);
                }
                buf[count++] = (char)card;
            }
            if (!js_eat(j, ']') || !js_eat(j, '}'))
                goto fail;
        } while (js_eat(j, ','));
        if (!js_eat(j, ']'))
            goto fail;
    }
    *cards = PyBytes_FromStringAndSize(buf, count);
    if (!*cards)
        goto fail;
    *notes = found;
    return 1;
fail:
    Py_DECREF(found);
    return 0;
}

/* "declarations": [{"kind": "poignee", "seat": "S", "cards": [...]}, {"kind": "chelem",
 * "seat": "S"}...], keys in any order, no notes: a list of (kind, seat, cards, count),
 * cards and count None when not written (new reference), or NULL. */
static PyObject *js_declarations(js_t *j)
{
    const char *s;
    Py_ssize_t len;
    if (!js_eat(j, '['))
        return NULL;
    PyObject *out = PyList_New(0);
    if (!out)
        return NULL;
    if (js_eat(j, ']'))
        return out;
    do {
        PyObject *kind = NULL, *seat = NULL, *cards = NULL;
        int seen = 0;
        if (!js_eat(j, '{'))
            goto fail;
        do {
            if (!js_key(j, &s, &len))
                goto fail_item;
            if (js_is(s, len, "kind") && !(seen & 1)) {
                seen |= 1;
                if (!(kind = js_string(j)))
                    goto fail_item;
            } else if (js_is(s, len, "seat") && !(seen & 2)) {
                seen |= 2;
                if (!(seat = js_string(j)))
                    goto fail_item;
            } else if (js_is(s, len, "cards") && !(seen & 4)) {
                cards_t bits;
                int count;
                seen |= 4;
                if (!js_cards(j, &bits, &count)
                        || !(cards = Py_BuildValue("(Ni)", from_cards(bits), count)))
                    goto fail_item;
            } else {
                goto fail_item;
            }
        } while (js_eat(j, ','));
        if (!js_eat(j, '}') || !kind || !seat)
            goto fail_item;
        PyObject *item = Py_BuildValue("(NNN)", kind, seat, cards ? cards : Py_NewRef(Py_None));
        if (!item || PyList_Append(out, item) < 0) {
            Py_XDECREF(item);
            goto fail;
        }
        Py_DECREF(item);
        continue;
    fail_item:
        Py_XDECREF(kind);
        Py_XDECREF(seat);
        Py_XDECREF(cards);
        goto fail;
    } while (js_eat(j, ','));
    if (!js_eat(j, ']'))
        goto fail;
    return out;
fail:
    Py_DECREF(out);
    return NULL;
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

/* The record of LINE, or 0 (give up). On success PARTS holds new references or NULL,
 * *players the number of players; the caller releases PARTS either way. */
static int js_record(js_t *j, PyObject **parts, int *players)
{
    const char *s;
    Py_ssize_t len;
    int seen = 0;
    *players = 0;
    if (!js_eat(j, '{'))
        return 0;
    if (js_eat(j, '}'))
        return 0;
    do {
        if (!js_key(j, &s, &len))
            return 0;
        int key;
        if (js_is(s, len, "tarotnotation")) key = K_VERSION;
        else if (js_is(s, len, "tags")) key = K_TAGS;
        else if (js_is(s, len, "ruleset")) key = K_RULESET;
        else if (js_is(s, len, "players")) key = K_PLAYERS;
        else if (js_is(s, len, "seats")) key = K_SEATS;
        else if (js_is(s, len, "dealer")) key = K_DEALER;
        else if (js_is(s, len, "hands")) key = K_HANDS;
        else if (js_is(s, len, "chien")) key = K_CHIEN;
        else if (js_is(s, len, "auction")) key = K_AUCTION;
        else if (js_is(s, len, "ecart")) key = K_ECART;
        else if (js_is(s, len, "declarations")) key = K_DECLARATIONS;
        else if (js_is(s, len, "play")) key = K_PLAY;
        else if (js_is(s, len, "result")) key = K_RESULT;
        else if (js_is(s, len, "comments")) key = K_COMMENTS;
        else if (js_is(s, len, "glyph")) key = K_GLYPH;
        else if (js_is(s, len, "call")) key = K_CALL;
        else return 0;
        if (seen & key)
            return 0;
        seen |= key;
        long long v;
        cards_t bits;
        int count;
        switch (key) {
        case K_VERSION:
            if (!js_int(j, &v) || v != 1)
                return 0;
            break;
        case K_PLAYERS:
            if (!js_int(j, &v) || v < 3 || v > 5)
                return 0;
            *players = (int)v;
            break;
        case K_CALL: {  /* {"card": "KS"}: the card's number (notes: left to orjson) */
            int card = js_call(j);
            if (card < 0 || !(parts[JS_CALL] = PyLong_FromLong(card)))
                return 0;
            break;
        }
        case K_TAGS: {
            PyObject *tags = PyList_New(0);
            if (!tags)
                return 0;
            parts[JS_TAGS] = tags;
            if (!js_eat(j, '['))
                return 0;
            if (js_eat(j, ']'))
                break;
            do {
                PyObject *pair = js_strings(j);
                if (!pair || PyList_GET_SIZE(pair) != 2 || PyList_Append(tags, pair) < 0) {
                    Py_XDECREF(pair);
                    return 0;
                }
                Py_DECREF(pair);
            } while (js_eat(j, ','));
            if (!js_eat(j, ']'))
                return 0;
            break;
        }
        case K_RULESET:
            if (!(parts[JS_RULESET] = js_string(j)))
                return 0;
            break;
        case K_DEALER:
            if (!(parts[JS_DEALER] = js_string(j)))
                return 0;
            break;
        case K_GLYPH:
            if (!(parts[JS_GLYPH] = js_string(j)))
                return 0;
            break;
        case K_COMMENTS:
            if (!(parts[JS_COMMENTS] = js_strings(j)))
                return 0;
            break;
        case K_SEATS: {  /* [{"id": "S", "name": "Ann"}, ...]: the ids and the names
                          * (None where a seat has none), the id first as written */
            PyObject *ids = PyList_New(0), *names = PyList_New(0);
            parts[JS_SEATS] = ids;
            parts[JS_NAMES] = names;
            if (!ids || !names || !js_eat(j, '[') || js_eat(j, ']'))
                return 0;
            do {
                if (!js_eat(j, '{') || !js_key(j, &s, &len) || !js_is(s, len, "id"))
                    return 0;
                PyObject *id = js_string(j);
                if (!id || PyList_Append(ids, id) < 0) {
                    Py_XDECREF(id);
                    return 0;
                }
                Py_DECREF(id);
                PyObject *name = NULL;
                if (js_eat(j, ',')) {
                    if (!js_key(j, &s, &len) || !js_is(s, len, "name")
                            || !(name = js_string(j)))
                        return 0;
                }
                if (PyList_Append(names, name ? name : Py_None) < 0) {
                    Py_XDECREF(name);
                    return 0;
                }
                Py_XDECREF(name);
                if (!js_eat(j, '}'))
                    return 0;
            } while (js_eat(j, ','));
            if (!js_eat(j, ']'))
                return 0;
            break;
        }
        case K_HANDS: {  /* {"S": [...], ...}: the keys, and each hand's cards */
            PyObject *keys = PyList_New(0), *hands = PyList_New(0);
            parts[JS_HAND_KEYS] = keys;
            parts[JS_HANDS] = hands;
            if (!keys || !hands || !js_eat(j, '{') || js_eat(j, '}'))
                return 0;
            do {
                PyObject *key_obj = js_string(j);
                if (!key_obj || PySequence_Contains(keys, key_obj) != 0
                        || PyList_Append(keys, key_obj) < 0) {
                    Py_XDECREF(key_obj);
                    return 0;
                }
                Py_DECREF(key_obj);
                if (!js_eat(j, ':') || !js_cards(j, &bits, &count))
                    return 0;
                PyObject *hand = Py_BuildValue("(Ni)", from_cards(bits), count);
                if (!hand || PyList_Append(hands, hand) < 0) {
                    Py_XDECREF(hand);
                    return 0;
                }
                Py_DECREF(hand);
            } while (js_eat(j, ','));
            if (!js_eat(j, '}'))
                return 0;
            break;
        }
        case K_CHIEN:
            if (!js_cards(j, &bits, &count))
                return 0;
            if (!(parts[JS_CHIEN] = Py_BuildValue("(Ni)", from_cards(bits), count)))
                return 0;
            break;
        case K_AUCTION: {  /* [{"contract": "pass"}, ...]: the words */
            PyObject *words = PyList_New(0);
            if (!words)
                return 0;
            parts[JS_WORDS] = words;
            if (!js_eat(j, '['))
                return 0;
            if (js_eat(j, ']'))
                break;
            do {
                if (!js_eat(j, '{') || !js_key(j, &s, &len) || !js_is(s, len, "contract"))
                    return 0;
                PyObject *word = js_string(j);
                if (!word || PyList_Append(words, word) < 0) {
                    Py_XDECREF(word);
                    return 0;
                }
                Py_DECREF(word);
                if (!js_eat(j, '}'))
                    return 0;
            } while (js_eat(j, ','));
            if (!js_eat(j, ']'))
                return 0;
            break;
        }
        case K_ECART:  /* {"cards": [...]} or null */
            if (j->end - j->p >= 4 && memcmp(j->p, "null", 4) == 0) {
                j->p += 4;
                break;
            }
            if (!js_eat(j, '{') || !js_key(j, &s, &len) || !js_is(s, len, "cards")
                    || !js_cards(j, &bits, &count) || !js_eat(j, '}'))
                return 0;
            if (!(parts[JS_ECART] = Py_BuildValue("(Ni)", from_cards(bits), count)))
                return 0;
            break;
        case K_DECLARATIONS:
            if (!(parts[JS_DECLARATIONS] = js_declarations(j)))
                return 0;
            break;
        case K_PLAY:
            if (*players == 0 || !js_play(j, *players, &parts[JS_CARDS], &parts[JS_NOTES]))
                return 0;
            break;
        case K_RESULT: {  /* {"scores": {"S": -64, ...}} or null */
            if (j->end - j->p >= 4 && memcmp(j->p, "null", 4) == 0) {
                j->p += 4;
                break;
            }
            PyObject *scores = PyDict_New();
            if (!scores)
                return 0;
            parts[JS_SCORES] = scores;
            if (!js_eat(j, '{'))
                return 0;
            if (js_eat(j, '}'))
                break;
            if (!js_key(j, &s, &len) || !js_is(s, len, "scores") || !js_eat(j, '{'))
                return 0;
            if (!js_eat(j, '}')) {
                do {
                    PyObject *seat = js_string(j);
                    PyObject *value = NULL;
                    if (seat && js_eat(j, ':') && js_int(j, &v))
                        value = PyLong_FromLongLong(v);
                    if (!value || PyDict_SetItem(scores, seat, value) < 0) {
                        Py_XDECREF(seat);
                        Py_XDECREF(value);
                        return 0;
                    }
                    Py_DECREF(seat);
                    Py_DECREF(value);
                } while (js_eat(j, ','));
                if (!js_eat(j, '}'))
                    return 0;
            }
            if (!js_eat(j, '}'))
                return 0;
            break;
        }
        }
    } while (js_eat(j, ','));
    return js_eat(j, '}') && j->p == j->end && *players != 0;
}

#endif
