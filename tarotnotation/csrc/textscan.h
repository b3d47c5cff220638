/* A scanner of the text notation in the canonical layout (what `tarot fmt` and the writer
 * print), for the quick check of .tarot files (tarotnotation/notation/bulk.py).
 *
 * It reads one record from a buffer of the file, at the start of a record, and hands back
 * the parts `tarotnotation.quick` checks, in the layout of scan_json (jsonscan.h): the
 * hands, chien and écart as card sets, the cards played as the bytes of their numbers, the
 * bids as words, the tags, notes and scores as read; with where the next record starts and
 * how many lines the record took. It reads only: no rule of play or counting.
 *
 * It takes a strict subset of what notation/scanner.py takes, which is a subset of the
 * grammar: one or more lines of tags `[Name "value"]` (no escape, no control character;
 * a Players tag of 3, 4 or 5; no Result tag, a Date as DATE_RE), then lines of words
 * separated by spaces: the deal's glyph and comments, `hand S:` lines of canonical card
 * codes, `chien:`, `auction:` with plain bid words, `call:` with one card, `ecart:`,
 * `poignee S:` with its cards and `chelem S`, `play:` with numbered tricks of plain card
 * codes (a glyph and comments after a card), `result:` with the scores alone; and the
 * record ends at a blank line followed by a line starting with `[`, or at the end of the
 * file. Anything else (another layout, a tab or a carriage return, a backslash, a comment
 * over two lines, a card that is not canonical or written twice in a list, notes on a bid
 * or the call, a section the quick check leaves to the replay...) gives up, and the
 * caller reads the record with the Python reader. So the record it takes is cut exactly
 * where the reader cuts it, and read to the same data: tests/twins/test_textscan.py holds it
 * to notation/scanner.py on generated deals and edits of them.
 */
#ifndef TAROT_TEXTSCAN_H
#define TAROT_TEXTSCAN_H

#include <Python.h>
#include <string.h>

#include "jsonscan.h"

typedef struct {
    const char *p;
    const char *end;
    const char *start;  /* the record's first byte */
    int eof;            /* the buffer ends where the file ends */
    int more;           /* the record runs past the buffer (and the file goes on) */
    int ended;          /* the record's last line was read */
    const char *next;   /* where the next record starts (when ended) */
} ts_t;

enum { TS_GIVE_UP = 0, TS_TAKEN = 1, TS_MORE = -1, TS_ERROR = -2 };

/* The end of the buffer was reached inside the record. */
static inline int ts_short(ts_t *t)
{
    if (!t->eof)
        t->more = 1;
    return 0;
}

/* Each byte's class, for the tokenizer. */
enum { TC_OTHER, TC_WORD, TC_MARK, TC_OPEN };
static unsigned char TS_CLASS[256];

static void ts_classes(void)
{
    for (int c = 0x21; c < 0x7f; c++)  /* printable ASCII but the marks and braces */
        TS_CLASS[c] = TC_WORD;
    TS_CLASS['!'] = TS_CLASS['?'] = TC_MARK;
    TS_CLASS['{'] = TC_OPEN;
    TS_CLASS['}'] = TC_OTHER;
}


static int ts_seat_id(const char *s, Py_ssize_t len)
{
    if (len < 1 || len > 16)
        return 0;
    if (!((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z')))
        return 0;
    for (Py_ssize_t i = 1; i < len; i++) {
        char c = s[i];
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
              || c == '_'))
            return 0;
    }
    return 1;
}

/* After a line break: the record goes on (1), ends (t->ended, 0 with nothing else set),
 * or gives up (0). The record ends at a blank line followed by a line of tags (or the
 * file's end); a line of spaces, a tag line right after the record's lines, or a line
 * after the blank one that is not a tag line give up (the reader's cut is not this one). */
static int ts_line_break(ts_t *t)
{
    const char *p = t->p;
    if (p == t->end) {
        if (!t->eof)
            return ts_short(t);
        t->ended = 1;
        t->next = p;
        return 0;
    }
    if (*p == '\n') {
        while (p < t->end && *p == '\n')
            p++;
        if (p == t->end) {
            if (!t->eof)
                return ts_short(t);
        } else if (*p != '[') {
            return 0;
        }
        t->ended = 1;
        t->next = p;
        return 0;
    }
    if (*p == '[')
        return 0;
    const char *q = p;
    while (q < t->end && *q == ' ')
        q++;
    if (q == t->end)
        return ts_short(t);
    if (*q == '\n')
        return 0;  /* a line of spaces: a blank line to the reader */
    return 1;
}

/* The next token of the body: a word, a run of glyph marks or a comment ({...} on one
 * line, no backslash, no brace inside). 0 at the record's end or on a give-up (t->ended
 * tells them apart). */
static int ts_token(ts_t *t, const char **s, Py_ssize_t *len)
{
    if (t->ended)
        return 0;
    for (;;) {
        if (t->p == t->end) {
            if (!t->eof)
                return ts_short(t);
            t->ended = 1;
            t->next = t->p;
            return 0;
        }
        char c = *t->p;
        if (c == ' ') {
            t->p++;
            continue;
        }
        if (c == '\n') {
            t->p++;
            if (!ts_line_break(t))
                return 0;
            continue;
        }
        break;
    }
    const char *start = t->p;
    unsigned char c = (unsigned char)*t->p;
    if (c == '{') {
        t->p++;
        while (t->p < t->end) {
            unsigned char d = (unsigned char)*t->p;
            if (d == '}') {
                t->p++;
                *s = start;
                *len = t->p - start;
                return 1;
            }
            if (d == '\\' || d == '{' || d < 0x20 || d == 0x7f)
                return 0;
            t->p++;
        }
        return ts_short(t);
    }
    int kind = TS_CLASS[c];
    if (kind != TC_WORD && kind != TC_MARK)
        return 0;  /* a tab, a carriage return, a byte beyond ASCII, a lone } ... */
    const unsigned char *q = (const unsigned char *)t->p + 1;
    const unsigned char *end = (const unsigned char *)t->end;
    while (q < end && TS_CLASS[*q] == kind)
        q++;
    t->p = (const char *)q;
    if (q == end) {
        if (!t->eof)
            return ts_short(t);  /* the token may go on in the next block */
    } else if (*q != ' ' && *q != '\n' && TS_CLASS[*q] == TC_OTHER) {
        return 0;
    }
    *s = start;
    *len = t->p - start;
    return 1;
}

/* A token, peeked: the scanner's position is left as it was. */
static int ts_peek(ts_t *t, const char **s, Py_ssize_t *len)
{
    ts_t saved = *t;
    int ok = ts_token(t, s, len);
    int more = t->more;
    *t = saved;
    t->more = more;
    return ok;
}

/* The next token when it is WORD (LEN bytes): 1, the scanner past it; else 0, the
 * scanner where it was. */
static int ts_take(ts_t *t, const char *word, Py_ssize_t len)
{
    ts_t saved = *t;
    const char *s;
    Py_ssize_t n;
    if (ts_token(t, &s, &n) && n == len && memcmp(s, word, (size_t)len) == 0)
        return 1;
    int more = t->more;
    *t = saved;
    t->more = more;
    return 0;
}

static inline int ts_is_glyph(const char *s, Py_ssize_t len)
{
    (void)s;
    return len == 1 || len == 2;  /* a run of ! and ?: ! ? !! ?? !? ?! (lexicon.GLYPHS) */
}

/* Strings made once: the bid words and the declarations' kinds. */
static PyObject *TS_BIDS[5];  /* pass, prise, garde, garde_sans, garde_contre */
static PyObject *TS_POIGNEE, *TS_CHELEM;

static int ts_init(void)
{
    static const char *const bids[5] = {"pass", "prise", "garde", "garde_sans",
                                        "garde_contre"};
    if (TS_CHELEM)
        return 1;
    ts_classes();
    for (int i = 0; i < 5; i++)
        if (!TS_BIDS[i] && !(TS_BIDS[i] = PyUnicode_InternFromString(bids[i])))
            return 0;
    if (!TS_POIGNEE && !(TS_POIGNEE = PyUnicode_InternFromString("poignee")))
        return 0;
    return (TS_CHELEM = PyUnicode_InternFromString("chelem")) != NULL;
}

/* A card set as a Python int (new reference). */
static PyObject *ts_set(cards_t bits)
{
    unsigned char bytes[16];
    for (int i = 0; i < 16; i++)
        bytes[i] = (unsigned char)(bits >> (8 * i));
#if PY_VERSION_HEX >= 0x030D0000
    return PyLong_FromUnsignedNativeBytes(bytes, 16, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    return _PyLong_FromByteArray(bytes, 16, 1, 0);
#endif
}

/* (cards, count) as a new tuple, or NULL. */
static PyObject *ts_pair(cards_t bits, int count)
{
    PyObject *set = ts_set(bits);
    PyObject *n = set ? PyLong_FromLong(count) : NULL;
    PyObject *out = n ? PyTuple_New(2) : NULL;
    if (!out) {
        Py_XDECREF(set);
        Py_XDECREF(n);
        return NULL;
    }
    PyTuple_SET_ITEM(out, 0, set);
    PyTuple_SET_ITEM(out, 1, n);
    return out;
}

/* A run of card codes (at least one, at most 24, each once): their set and count. */
/* The usual case of the next token, quickly: a space, then a card code of 2 or 3
 * characters and a space or a line break (all in the buffer). The card (the scanner
 * moved past it), or -2: ask ts_token. */
static inline int ts_quick_card(ts_t *t)
{
    const unsigned char *p = (const unsigned char *)t->p;
    if (t->end - t->p < 5 || p[0] != ' ' || TS_CLASS[p[1]] != TC_WORD
            || TS_CLASS[p[2]] != TC_WORD)
        return -2;
    int len = TS_CLASS[p[3]] == TC_WORD ? 3 : 2;
    unsigned char after = p[1 + len];
    if (after != ' ' && after != '\n')
        return -2;
    int c = js_card((const char *)p + 1, len);
    if (c < 0)
        return -2;
    t->p += 1 + len;
    return c;
}

static int ts_cards(ts_t *t, cards_t *bits, int *count)
{
    const char *s;
    Py_ssize_t len;
    *bits = 0;
    *count = 0;
    for (;;) {
        int c = ts_quick_card(t);
        if (c == -2) {
            ts_t saved = *t;
            c = -1;
            if (ts_token(t, &s, &len) && (len == 2 || len == 3))
                c = js_card(s, len);
            if (c < 0) {  /* not a card: the token is the next part's */
                int more = t->more;
                *t = saved;
                t->more = more;
                break;
            }
        }
        if (*bits & TK_BIT(c) || *count >= 24)
            return 0;
        *bits |= TK_BIT(c);
        (*count)++;
    }
    return *count > 0 && !t->more;
}

/* A glyph, then comments, after a token (glyph: NULL when none). New references. */
static int ts_note(ts_t *t, PyObject **glyph, PyObject **comments)
{
    const char *s;
    Py_ssize_t len;
    *glyph = NULL;
    *comments = NULL;
    const char *q = t->p;  /* most often no note: the next word is on the same line */
    while (q < t->end && *q == ' ')
        q++;
    if (q < t->end && *q != '\n' && *q != '{' && *q != '!' && *q != '?')
        return !t->more;
    if (ts_peek(t, &s, &len) && (s[0] == '!' || s[0] == '?')) {
        if (!ts_is_glyph(s, len))
            return 0;
        ts_token(t, &s, &len);
        if (!(*glyph = PyUnicode_FromStringAndSize(s, len)))
            return 0;
    }
    while (ts_peek(t, &s, &len) && s[0] == '{') {
        ts_token(t, &s, &len);
        PyObject *text = PyUnicode_DecodeUTF8(s + 1, len - 2, NULL);
        if (!text) {
            if (PyErr_ExceptionMatches(PyExc_UnicodeDecodeError))
                PyErr_Clear();
            return 0;
        }
        if (!*comments && !(*comments = PyList_New(0))) {
            Py_DECREF(text);
            return 0;
        }
        int failed = PyList_Append(*comments, text) < 0;
        Py_DECREF(text);
        if (failed)
            return 0;
    }
    return !t->more;
}

/* The token (S, LEN) is the literal WORD. */
#define ts_eq(s, len, word) \
    ((len) == (Py_ssize_t)sizeof(word) - 1 && memcmp((s), (word), sizeof(word) - 1) == 0)

/* A Date tag's value: (\d{4}|\?{4})\.(\d\d|\?\?)\.(\d\d|\?\?), in ASCII. */
static int ts_date(const char *s, Py_ssize_t len)
{
    static const int parts[3] = {4, 2, 2};
    Py_ssize_t i = 0;
    for (int k = 0; k < 3; k++) {
        if (k) {
            if (i >= len || s[i] != '.')
                return 0;
            i++;
        }
        if (i + parts[k] > len)
            return 0;
        int digits = s[i] >= '0' && s[i] <= '9';
        for (int m = 0; m < parts[k]; m++) {
            char c = s[i + m];
            if (digits ? !(c >= '0' && c <= '9') : c != '?')
                return 0;
        }
        i += parts[k];
    }
    return i == len;
}

static PyObject *ts_text(const char *s, Py_ssize_t len)
{
    PyObject *out = PyUnicode_DecodeUTF8(s, len, NULL);
    if (!out && PyErr_ExceptionMatches(PyExc_UnicodeDecodeError))
        PyErr_Clear();
    return out;
}

/* The tag lines: PARTS' tags, ruleset, seats (raw), dealer; *players. */
static int ts_tags(ts_t *t, PyObject **parts, int *players)
{
    int seen = 0;  /* 1 Players, 2 Seats, 4 Dealer, 8 Ruleset */
    PyObject *tags = PyList_New(0);
    if (!tags)
        return 0;
    parts[JS_TAGS] = tags;
    while (t->p < t->end && *t->p == '[') {
        for (;;) {  /* the tags of one line */
            const char *p = t->p + 1;
            const char *name = p;
            while (p < t->end && ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z')
                                  || (*p >= '0' && *p <= '9') || *p == '_'))
                p++;
            if (p == t->end)
                return ts_short(t);
            Py_ssize_t name_len = p - name;
            if (!name_len || *p != ' ')
                return 0;
            while (p < t->end && *p == ' ')
                p++;
            if (p == t->end)
                return ts_short(t);
            if (*p != '"')
                return 0;
            const char *value = ++p;
            while (p < t->end && *p != '"') {
                unsigned char c = (unsigned char)*p;
                if (c == '\\' || c < 0x20 || c == 0x7f)
                    return 0;
                p++;
            }
            if (p + 1 >= t->end)
                return ts_short(t);
            Py_ssize_t value_len = p - value;
            if (p[1] != ']')
                return 0;
            t->p = p + 2;
            int bit = 0;
            if (ts_eq(name, name_len, "Players")) bit = 1;
            else if (ts_eq(name, name_len, "Seats")) bit = 2;
            else if (ts_eq(name, name_len, "Dealer")) bit = 4;
            else if (ts_eq(name, name_len, "Ruleset")) bit = 8;
            if (bit) {
                if (seen & bit)
                    return 0;
                seen |= bit;
            }
            if (bit == 1) {
                if (value_len != 1 || value[0] < '3' || value[0] > '5')
                    return 0;
                *players = value[0] - '0';
            } else if (bit == 2) {
                if (!(parts[JS_SEATS] = ts_text(value, value_len)))
                    return 0;
            } else if (bit == 4) {
                if (!ts_seat_id(value, value_len)
                        || !(parts[JS_DEALER] = PyUnicode_FromStringAndSize(value, value_len)))
                    return 0;
            } else if (bit == 8) {
                if (!(parts[JS_RULESET] = ts_text(value, value_len)))
                    return 0;
            } else {
                if (ts_eq(name, name_len, "Result")
                        || (ts_eq(name, name_len, "Date") && !ts_date(value, value_len)))
                    return 0;
                PyObject *text = ts_text(value, value_len);
                if (!text)
                    return 0;  /* not UTF-8: the reader says so */
                PyObject *key = PyUnicode_FromStringAndSize(name, name_len);
                PyObject *pair = key ? PyList_New(2) : NULL;
                if (!pair) {
                    Py_XDECREF(key);
                    Py_DECREF(text);
                    return 0;
                }
                PyList_SET_ITEM(pair, 0, key);
                PyList_SET_ITEM(pair, 1, text);
                int failed = PyList_Append(tags, pair) < 0;
                Py_DECREF(pair);
                if (failed)
                    return 0;
            }
            while (t->p < t->end && *t->p == ' ')
                t->p++;
            if (t->p == t->end)
                return ts_short(t);
            if (*t->p == '\n') {
                t->p++;
                break;
            }
            if (*t->p != '[')
                return 0;
        }
    }
    if (t->p == t->end)
        return ts_short(t);  /* tags alone (at the file's end: the reader's case) */
    if (*t->p == '\n' || *t->p == ' ')
        return 0;  /* a blank line or an indented line after the tags */
    return *players != 0;
}

/* The body's words after the tags (see the file's comment). */
static int ts_body(ts_t *t, PyObject **parts, int players)
{
    const char *s;
    Py_ssize_t len;
    cards_t bits;
    int count;
    if (!ts_note(t, &parts[JS_GLYPH], &parts[JS_COMMENTS]))
        return 0;

    /* hand S: ... (one line a seat) */
    PyObject *keys = PyList_New(0), *hands = PyList_New(0);
    parts[JS_HAND_KEYS] = keys;
    parts[JS_HANDS] = hands;
    if (!keys || !hands)
        return 0;
    while (ts_take(t, "hand", 4)) {
        if (!ts_token(t, &s, &len) || len < 2 || s[len - 1] != ':'
                || !ts_seat_id(s, len - 1))
            return 0;
        PyObject *key = PyUnicode_FromStringAndSize(s, len - 1);
        if (!key || PySequence_Contains(keys, key) != 0 || PyList_Append(keys, key) < 0) {
            Py_XDECREF(key);
            return 0;
        }
        Py_DECREF(key);
        if (!ts_cards(t, &bits, &count))
            return 0;
        PyObject *hand = ts_pair(bits, count);
        if (!hand || PyList_Append(hands, hand) < 0) {
            Py_XDECREF(hand);
            return 0;
        }
        Py_DECREF(hand);
    }
    if (!PyList_GET_SIZE(keys))
        return 0;

    /* chien: ... */
    if (!ts_token(t, &s, &len) || !ts_eq(s, len, "chien:") || !ts_cards(t, &bits, &count)
            || !(parts[JS_CHIEN] = ts_pair(bits, count)))
        return 0;

    /* auction: plain bid words (the reader's spellings, in lower case) */
    if (!ts_token(t, &s, &len) || !ts_eq(s, len, "auction:"))
        return 0;
    PyObject *words = PyList_New(0);
    if (!(parts[JS_WORDS] = words))
        return 0;
    for (;;) {
        if (!ts_peek(t, &s, &len))
            break;
        int word;
        if (ts_eq(s, len, "pass") || ts_eq(s, len, "passe")) word = 0;
        else if (ts_eq(s, len, "prise") || ts_eq(s, len, "petite")) word = 1;
        else if (ts_eq(s, len, "garde")) word = 2;
        else if (ts_eq(s, len, "garde_sans") || ts_eq(s, len, "garde-sans")) word = 3;
        else if (ts_eq(s, len, "garde_contre") || ts_eq(s, len, "garde-contre")) word = 4;
        else break;
        ts_token(t, &s, &len);
        if (PyList_Append(words, TS_BIDS[word]) < 0)
            return 0;
        if (ts_peek(t, &s, &len) && (s[0] == '{' || s[0] == '!' || s[0] == '?'))
            return 0;  /* notes on a bid: left to the reader */
    }
    if (t->more)
        return 0;

    /* call: KS (five players; notes on it: left to the reader) */
    if (ts_take(t, "call:", 5)) {
        int card = -1;
        if (ts_token(t, &s, &len) && (len == 2 || len == 3))
            card = js_card(s, len);
        if (card < 0 || !(parts[JS_CALL] = PyLong_FromLong(card)))
            return 0;
        if (ts_peek(t, &s, &len) && (s[0] == '{' || s[0] == '!' || s[0] == '?'))
            return 0;
        if (t->more)
            return 0;
    }

    /* ecart: ... */
    if (ts_take(t, "ecart:", 6)) {
        if (!ts_cards(t, &bits, &count)
                || !(parts[JS_ECART] = ts_pair(bits, count)))
            return 0;
    }

    /* poignee S: ... and chelem S */
    for (;;) {
        if (!ts_peek(t, &s, &len))
            break;
        int poignee = ts_eq(s, len, "poignee");
        if (!poignee && !ts_eq(s, len, "chelem"))
            break;
        ts_token(t, &s, &len);
        if (!ts_token(t, &s, &len))
            return 0;
        PyObject *item;
        if (poignee) {
            if (len < 2 || s[len - 1] != ':' || !ts_seat_id(s, len - 1))
                return 0;
            Py_ssize_t seat_len = len - 1;
            const char *seat = s;
            if (!ts_cards(t, &bits, &count))
                return 0;
            PyObject *shown = ts_pair(bits, count);
            item = shown ? Py_BuildValue("(Os#N)", TS_POIGNEE, seat, seat_len, shown) : NULL;
        } else {
            if (!ts_seat_id(s, len))
                return 0;
            item = Py_BuildValue("(Os#O)", TS_CHELEM, s, len, Py_None);
        }
        if (!item)
            return 0;
        if (!parts[JS_DECLARATIONS] && !(parts[JS_DECLARATIONS] = PyList_New(0))) {
            Py_DECREF(item);
            return 0;
        }
        int failed = PyList_Append(parts[JS_DECLARATIONS], item) < 0;
        Py_DECREF(item);
        if (failed)
            return 0;
        if (ts_peek(t, &s, &len) && (s[0] == '{' || s[0] == '!' || s[0] == '?'))
            return 0;
    }
    if (t->more)
        return 0;

    /* play: 1. c c c c 2. ... (a glyph and comments after a card) */
    if (!ts_token(t, &s, &len) || !ts_eq(s, len, "play:"))
        return 0;
    char played[78];
    int at = 0;
    for (int trick = 1;; trick++) {
        ts_t saved = *t;
        int number = 0;
        if (ts_token(t, &s, &len)) {
            if (len == 2 && s[0] >= '1' && s[0] <= '9' && s[1] == '.')
                number = s[0] - '0';
            else if (len == 3 && s[0] >= '1' && s[0] <= '9' && s[1] >= '0' && s[1] <= '9'
                     && s[2] == '.')
                number = (s[0] - '0') * 10 + (s[1] - '0');
        }
        if (!number) {  /* the result, the end, or what the reader reads (a card more in
                         * the trick, a card with its seat...): see below */
            int more = t->more;
            *t = saved;
            t->more = more;
            break;
        }
        if (number != trick)
            return 0;
        for (int k = 0; k < players; k++) {
            int card = ts_quick_card(t);
            if (card == -2) {
                card = -1;
                if (ts_token(t, &s, &len) && (len == 2 || len == 3))
                    card = js_card(s, len);
            }
            if (card < 0 || at >= 78)
                return 0;
            played[at] = (char)card;
            const char *q = t->p;  /* most often no note: the next word, on this line */
            while (q < t->end && *q == ' ')
                q++;
            if (q < t->end && TS_CLASS[(unsigned char)*q] == TC_WORD) {
                at++;
                continue;
            }
            PyObject *glyph, *comments;
            if (!ts_note(t, &glyph, &comments)) {
                Py_XDECREF(glyph);
                Py_XDECREF(comments);
                return 0;
            }
            if (glyph || comments) {
                PyObject *note = PyDict_New();
                int failed = !note
                    || (glyph && PyDict_SetItemString(note, "glyph", glyph) < 0)
                    || (comments && PyDict_SetItemString(note, "comments", comments) < 0);
                Py_XDECREF(glyph);
                Py_XDECREF(comments);
                PyObject *item = failed ? NULL : Py_BuildValue("(iO)", at, note);
                Py_XDECREF(note);
                if (item && !parts[JS_NOTES] && !(parts[JS_NOTES] = PyList_New(0))) {
                    Py_DECREF(item);
                    return 0;
                }
                if (!item || PyList_Append(parts[JS_NOTES], item) < 0) {
                    Py_XDECREF(item);
                    return 0;
                }
                Py_DECREF(item);
            }
            at++;
        }
    }
    if (t->more || !(parts[JS_CARDS] = PyBytes_FromStringAndSize(played, at)))
        return 0;

    /* result: scores S+62 ... */
    if (ts_token(t, &s, &len)) {
        if (!ts_eq(s, len, "result:"))
            return 0;
        PyObject *scores = PyDict_New();
        if (!(parts[JS_SCORES] = scores))
            return 0;
        if (ts_token(t, &s, &len)) {
            if (!ts_eq(s, len, "scores"))
                return 0;
            while (ts_token(t, &s, &len)) {
                Py_ssize_t cut = 0;
                while (cut < len && s[cut] != '+' && s[cut] != '-')
                    cut++;
                Py_ssize_t digits = len - cut - 1;
                if (cut == len || !ts_seat_id(s, cut) || digits < 1 || digits > 6)
                    return 0;
                long v = 0;
                for (Py_ssize_t i = cut + 1; i < len; i++) {
                    if (s[i] < '0' || s[i] > '9')
                        return 0;
                    v = v * 10 + (s[i] - '0');
                }
                if (s[cut] == '-')
                    v = -v;
                PyObject *seat = PyUnicode_FromStringAndSize(s, cut);
                PyObject *value = PyLong_FromLong(v);
                int bad = !seat || !value || PyDict_Contains(scores, seat) != 0
                    || PyDict_SetItem(scores, seat, value) < 0;
                Py_XDECREF(seat);
                Py_XDECREF(value);
                if (bad)
                    return 0;
            }
        }
    }
    return t->ended;
}

/* The record at BUF[POS:]: TS_TAKEN (*out: (parts, next, lines)), TS_GIVE_UP, TS_MORE
 * (the buffer ends inside the record and EOF is false) or TS_ERROR (a Python error). */
static int ts_scan(const char *buf, Py_ssize_t size, Py_ssize_t pos, int eof,
                   PyObject **out)
{
    ts_t t = {buf + pos, buf + size, buf + pos, eof, 0, 0, NULL};
    PyObject *parts[JS_PARTS];
    memset(parts, 0, sizeof(parts));
    int players = 0;
    int status = TS_GIVE_UP;
    *out = NULL;
    if (pos < 0 || pos >= size || buf[pos] != '[')
        return TS_GIVE_UP;
    if (!ts_init())
        return TS_ERROR;
    int ok = ts_tags(&t, parts, &players) && ts_body(&t, parts, players);
    if (PyErr_Occurred()) {
        status = TS_ERROR;
        goto done;
    }
    if (!ok) {
        status = t.more ? TS_MORE : TS_GIVE_UP;
        goto done;
    }
    PyObject *tuple = PyTuple_New(JS_PARTS + 1);
    if (!tuple) {
        status = TS_ERROR;
        goto done;
    }
    PyTuple_SET_ITEM(tuple, 0, PyLong_FromLong(players));
    for (int i = 0; i < JS_PARTS; i++) {
        PyTuple_SET_ITEM(tuple, i + 1, parts[i] ? parts[i] : Py_NewRef(Py_None));
        parts[i] = NULL;
    }
    Py_ssize_t lines = 0;
    for (const char *q = t.start; q < t.next; q++)
        lines += *q == '\n';
    PyObject *next = PyLong_FromSsize_t(t.next - buf);
    PyObject *took = next ? PyLong_FromSsize_t(lines) : NULL;
    *out = took ? PyTuple_New(3) : NULL;
    if (*out) {
        PyTuple_SET_ITEM(*out, 0, tuple);
        PyTuple_SET_ITEM(*out, 1, next);
        PyTuple_SET_ITEM(*out, 2, took);
    } else {
        Py_DECREF(tuple);
        Py_XDECREF(next);
        Py_XDECREF(took);
    }
    status = *out ? TS_TAKEN : TS_ERROR;
done:
    for (int i = 0; i < JS_PARTS; i++)
        Py_XDECREF(parts[i]);
    return status;
}


/* --- the quick check of scanned parts in C (bulk.h's judge) -------------------------- */

#include "bulk.h"

/* A str of the parts as a jb_str (its UTF-8, which the str keeps), or 0. */
static int tj_str(PyObject *o, jb_str *out)
{
    if (!PyUnicode_Check(o))
        return 0;
    out->s = PyUnicode_AsUTF8AndSize(o, &out->len);
    if (!out->s) {
        PyErr_Clear();
        return 0;
    }
    return 1;
}

/* A (cards, count) pair of the parts, or 0. */
static int tj_pair(PyObject *o, cards_t *bits, int *count)
{
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 2
            || to_cards(PyTuple_GET_ITEM(o, 0), bits) < 0) {
        PyErr_Clear();
        return 0;
    }
    long c = PyLong_AsLong(PyTuple_GET_ITEM(o, 1));
    if (c < 0 || c > 78) {
        PyErr_Clear();
        return 0;
    }
    *count = (int)c;
    return 1;
}

/* A str that holds no line break (fields.NAME_RE, a tag's value), or 0. */
static int tj_one_line(PyObject *o)
{
    jb_str s;
    return tj_str(o, &s) && !memchr(s.s, '\n', (size_t)s.len)
           && !memchr(s.s, '\r', (size_t)s.len);
}

/* A glyph of the notation (lexicon.GLYPHS), or 0. */
static int tj_glyph(PyObject *o)
{
    jb_str s;
    if (!tj_str(o, &s) || s.len < 1 || s.len > 2)
        return 0;
    for (Py_ssize_t i = 0; i < s.len; i++)
        if (s.s[i] != '!' && s.s[i] != '?')
            return 0;
    return 1;
}

/* quick._judge's checks of what the rules do not judge (the tags, notes, seats'
 * names), then bulk.h's jb_judge (the C twin of its checks and judge.judge), on the
 * parts of scan_text or scan_json: (taker_half, scores by seat) of a clean deal, or None
 * where it does not settle it (the caller runs quick.quick_facts_scanned then). */
static PyObject *ts_judge_parts(PyObject *parts, int flags)
{
    static const char *const plain[JB_MAX_SEATS] = {"S", "E", "N", "W", "F"};
    static const char *const bids[5] = {"pass", "prise", "garde", "garde_sans",
                                        "garde_contre"};
    jb_deal d;
    memset(&d, 0, sizeof(d));
    if (!PyTuple_Check(parts) || PyTuple_GET_SIZE(parts) != JS_PARTS + 1)
        Py_RETURN_NONE;
#define TJ_PART(i) PyTuple_GET_ITEM(parts, (i) + 1)
    long n = PyLong_AsLong(PyTuple_GET_ITEM(parts, 0));
    if (n < 3 || n > 5) {
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    d.n = (int)n;

    /* The tags (fields.check_tags), the deal's comments and glyph. */
    PyObject *o = TJ_PART(JS_TAGS);
    if (o != Py_None) {
        if (!PyList_Check(o) || PyList_GET_SIZE(o) > JB_MAX_TAGS)
            Py_RETURN_NONE;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(o); i++) {
            PyObject *pair = PyList_GET_ITEM(o, i);
            jb_str name;
            if (!PyList_Check(pair) || PyList_GET_SIZE(pair) != 2
                    || !tj_str(PyList_GET_ITEM(pair, 0), &name) || !name.len
                    || !tj_one_line(PyList_GET_ITEM(pair, 1))
                    || jb_lower_is(name, "players") || jb_lower_is(name, "seats")
                    || jb_lower_is(name, "dealer") || jb_lower_is(name, "ruleset"))
                Py_RETURN_NONE;
            for (Py_ssize_t k = 0; k < name.len; k++) {
                char c = name.s[k];
                if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                      || c == '_'))
                    Py_RETURN_NONE;
            }
        }
    }
    o = TJ_PART(JS_COMMENTS);
    if (o != Py_None && (!PyList_Check(o) || PyList_GET_SIZE(o) > JB_MAX_TAGS))
        Py_RETURN_NONE;
    o = TJ_PART(JS_GLYPH);
    if (o != Py_None && !tj_glyph(o))
        Py_RETURN_NONE;

    /* Seats: the record's ids, unless they are the default ones, unnamed. */
    PyObject *ids = TJ_PART(JS_SEATS), *names = TJ_PART(JS_NAMES);
    if (ids != Py_None) {
        if (!PyList_Check(ids) || !PyList_Check(names)
                || PyList_GET_SIZE(names) != PyList_GET_SIZE(ids)
                || PyList_GET_SIZE(ids) > JB_MAX_SEATS)
            Py_RETURN_NONE;
        int plain_ids = PyList_GET_SIZE(ids) == n, unnamed = 1;
        d.nseats = (int)PyList_GET_SIZE(ids);
        for (int i = 0; i < d.nseats; i++) {
            PyObject *name = PyList_GET_ITEM(names, i);
            if (!tj_str(PyList_GET_ITEM(ids, i), &d.seat_id[i])
                    || (name != Py_None && !tj_one_line(name)))
                Py_RETURN_NONE;
            unnamed &= name == Py_None;
            plain_ids &= d.seat_id[i].len == 1 && d.seat_id[i].s[0] == plain[i][0];
        }
        d.has_seats = d.nseats && !(plain_ids && unnamed);
    }
    o = TJ_PART(JS_DEALER);
    if (o != Py_None) {
        d.has_dealer = 1;
        if (!tj_str(o, &d.dealer))
            Py_RETURN_NONE;
    }

    /* Hands, chien, bids, écart, declarations, the cards played, the scores. */
    PyObject *keys = TJ_PART(JS_HAND_KEYS), *hands = TJ_PART(JS_HANDS);
    if (!PyList_Check(keys) || !PyList_Check(hands) || PyList_GET_SIZE(keys) > JB_MAX_SEATS
            || PyList_GET_SIZE(hands) != PyList_GET_SIZE(keys))
        Py_RETURN_NONE;
    d.has_hands = 1;
    d.nhands = (int)PyList_GET_SIZE(keys);
    for (int i = 0; i < d.nhands; i++)
        if (!tj_str(PyList_GET_ITEM(keys, i), &d.hand_key[i])
                || !tj_pair(PyList_GET_ITEM(hands, i), &d.hand[i], &d.hand_count[i]))
            Py_RETURN_NONE;
    d.has_chien = 1;
    if (!tj_pair(TJ_PART(JS_CHIEN), &d.chien, &d.chien_count))
        Py_RETURN_NONE;
    o = TJ_PART(JS_WORDS);
    if (!PyList_Check(o) || PyList_GET_SIZE(o) > JB_MAX_BIDS)
        Py_RETURN_NONE;
    d.has_auction = 1;
    d.nbids = (int)PyList_GET_SIZE(o);
    for (int i = 0; i < d.nbids; i++) {
        jb_str w;
        int rank = -1;
        if (tj_str(PyList_GET_ITEM(o, i), &w))
            for (int b = 0; b < 5; b++)
                if (w.len == (Py_ssize_t)strlen(bids[b])
                        && !memcmp(w.s, bids[b], (size_t)w.len))
                    rank = b;
        if (rank < 0)
            Py_RETURN_NONE;
        d.bid[i] = rank;
    }
    o = TJ_PART(JS_CALL);
    if (o != Py_None) {
        long card = PyLong_Check(o) ? PyLong_AsLong(o) : -1;
        if (card < 0 || card >= 78) {
            PyErr_Clear();
            Py_RETURN_NONE;
        }
        d.has_call = 1;
        d.called = (int)card;
    }
    o = TJ_PART(JS_ECART);
    if (o != Py_None) {
        d.has_ecart = 1;
        if (!tj_pair(o, &d.ecart, &d.ecart_count))
            Py_RETURN_NONE;
    }
    o = TJ_PART(JS_DECLARATIONS);
    if (o != Py_None) {
        if (!PyList_Check(o) || PyList_GET_SIZE(o) > JB_MAX_DECLS)
            Py_RETURN_NONE;
        d.ndecls = (int)PyList_GET_SIZE(o);
        for (int i = 0; i < d.ndecls; i++) {
            PyObject *item = PyList_GET_ITEM(o, i);
            jb_decl *x = &d.decl[i];
            jb_str kind;
            if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 3
                    || !tj_str(PyTuple_GET_ITEM(item, 0), &kind)
                    || !tj_str(PyTuple_GET_ITEM(item, 1), &x->seat))
                Py_RETURN_NONE;
            x->kind = ts_eq(kind.s, kind.len, "poignee") ? 1
                    : ts_eq(kind.s, kind.len, "chelem") ? 2 : 0;
            PyObject *shown = PyTuple_GET_ITEM(item, 2);
            if (shown != Py_None) {
                x->has_cards = 1;
                if (!tj_pair(shown, &x->cards, &x->count))
                    Py_RETURN_NONE;
            }
        }
    }
    o = TJ_PART(JS_CARDS);
    if (!PyBytes_Check(o) || PyBytes_GET_SIZE(o) > 78)
        Py_RETURN_NONE;
    d.ncards = (int)PyBytes_GET_SIZE(o);
    for (int i = 0; i < d.ncards; i++) {
        int c = (unsigned char)PyBytes_AS_STRING(o)[i];
        if (c >= 78)
            Py_RETURN_NONE;
        d.cards[i] = (int8_t)c;
    }
    o = TJ_PART(JS_NOTES);  /* a glyph of the notation and comments that are strings */
    if (o != Py_None) {
        if (!PyList_Check(o))
            Py_RETURN_NONE;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(o); i++) {
            PyObject *item = PyList_GET_ITEM(o, i), *note, *key, *value;
            Py_ssize_t at = 0;
            if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 2
                    || !PyDict_Check(note = PyTuple_GET_ITEM(item, 1)))
                Py_RETURN_NONE;
            while (PyDict_Next(note, &at, &key, &value)) {
                jb_str k;
                if (!tj_str(key, &k))
                    Py_RETURN_NONE;
                if (ts_eq(k.s, k.len, "glyph")) {
                    if (!tj_glyph(value))
                        Py_RETURN_NONE;
                } else if (ts_eq(k.s, k.len, "comments") && PyList_Check(value)) {
                    for (Py_ssize_t m = 0; m < PyList_GET_SIZE(value); m++)
                        if (!PyUnicode_Check(PyList_GET_ITEM(value, m)))
                            Py_RETURN_NONE;
                } else {
                    Py_RETURN_NONE;
                }
            }
        }
    }
    o = TJ_PART(JS_SCORES);
    if (o != Py_None) {
        PyObject *key, *value;
        Py_ssize_t at = 0;
        if (!PyDict_Check(o) || PyDict_GET_SIZE(o) > JB_MAX_SCORES)
            Py_RETURN_NONE;
        d.has_scores = 1;
        while (PyDict_Next(o, &at, &key, &value)) {
            int overflow = 0;
            long long v = PyLong_Check(value)
                ? PyLong_AsLongLongAndOverflow(value, &overflow) : 0;
            if (!PyLong_Check(value) || overflow || PyErr_Occurred()
                    || !tj_str(key, &d.score_seat[d.nscores])) {
                PyErr_Clear();
                Py_RETURN_NONE;
            }
            d.score[d.nscores++] = v;
        }
    }
#undef TJ_PART

    jb_clean c;
    jb_str seat[JB_MAX_SEATS];
    if (!jb_judge(&d, flags, &c, seat))
        Py_RETURN_NONE;
    PyObject *score_keys[JB_MAX_SEATS];
    for (int i = 0; i < d.n; i++)  /* (none made after a failure) */
        score_keys[i] = i && !score_keys[i - 1]
                            ? NULL : PyUnicode_FromStringAndSize(seat[i].s, seat[i].len);
    PyObject *scores = jb_scores_dict(d.n, score_keys, &c);
    if (!scores)
        return NULL;
    return Py_BuildValue("(iN)", c.taker_half, scores);
}

#endif
