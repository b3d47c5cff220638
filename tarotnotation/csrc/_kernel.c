/* tarotnotation._kernel: the rules kernel's C twin and the double-dummy search core.
 *
 * Functions (plain ints in, plain ints out; card sets are Python ints, bit c = card c;
 * FLAGS is tarotnotation.native.rule_flags(ruleset)):
 *   step(led, top, card) -> (led, top)
 *   legal_in(hand, led, top) -> (legal, kind)
 *   first_lead(hand, called) -> (legal, kind)
 *   winner_index(cards) -> int | None
 *   excuse_wins_last_trick(flags, excuse_led, leader_won_all) -> bool
 *   petit_trick_before_last(excuse_led, leader_won_all, same_camp_takes_last) -> bool
 *   excuse_settlement(flags, owner, winner, last, excuse_won) -> (camp, low)
 *   settle_trick(flags, bits, winner, owner, last, excuse_won)
 *       -> (to_taker, to_defence, moved)
 *   winning_card(bits, led) -> card
 *   rule_in(hand, led, top, called=None) -> (legal, kind, led, top)
 *   unplayed_camp(contract) -> int
 *   petit_au_bout(flags, cards, winner) -> int
 *   chelem_camp(taker_tricks, tricks) -> int
 *   margin(taker_half, taker_bouts) -> int
 *   card_points(bits) -> int
 *   petit_sec(hand) -> bool; petit_in_chien_annuls(annuls, contract, chien) -> bool;
 *   outbids(bid, best) -> bool; call_fault(called, hand) -> int;
 *   first_leader(first, announcer) -> seat;
 *   ecart_forbidden(ecart), poignee_wrong_cards(shown), poignee_hidden_trumps(hand, shown)
 *       -> cards  (the checks before the first card, for the bulk quick check)
 *   play(flags, hands, camps, leader, cards, called=-1, tricks=-1)
 *       -> (played, winners, taker_half, taker_bouts, tricks_won, petit)
 *     plays CARDS from the first lead (PlayState's rules), stopping before the first
 *     card that is not legal (played < len(cards) then); the taker's camp's half-points
 *     and bouts are those of its tricks (the cards aside are the caller's).
 *   scan_json(line) -> (players, tags, ruleset, seats, dealer, hand_keys, hands, chien,
 *                       words, ecart, cards, notes, scores, comments, glyph,
 *                       declarations, names) | None
 *     a JSON Lines record in the canonical layout, in parts (jsonscan.h); None: another
 *     layout (the caller parses it with orjson).
 *   scan_text(buffer, pos, eof) -> ((players, ...as scan_json...), next, lines) | -1 | None
 *     the record of the text notation at BUFFER[POS:] in the canonical layout, in parts
 *     (textscan.h): where the next record starts and the lines it took; -1: the buffer
 *     ends inside it (EOF false); None: another layout (the Python reader reads it).
 *   judge_parts(parts, flags) -> (taker_half, scores) | None
 *     the quick check of a record's parts (scan_text's, scan_json's) by bulk.h's judge
 *     (FLAGS as check_lines'); None: not settled here (quick_facts_scanned then).
 *   check_lines(lines, start, flags, limit, specs)
 *       -> [(taker_half, scores, tags) | bytes | None, ...]
 *     the quick check of lines[start:] of JSON Lines in bulk (bulk.h): for each line, a
 *     clean deal's taker's half-points, scores by seat and tags (when one is a Deal
 *     tag, else None), or None: not settled here (the caller runs quick_check_line), or
 *     the record's own ruleset spec (bytes) when SPECS does not hold it yet (the caller
 *     adds it and asks again). FLAGS: rule_flags, | PETIT_IN_CHIEN_ANNULS, for a record
 *     that names no ruleset; SPECS: {spec as written: its flags, or -1 for none};
 *     LIMIT: the longest line looked at.
 *   count_lines(block) -> (lines, deals)
 *     the lines of a block as readlines cuts them, and those that hold a record.
 *   sample_fill(masks, sizes, random) -> [bin, ...] | None
 *   sample_mix(masks, where, most, steps, random) -> [bin, ...]
 *     not rules: the deal sampler's two loops (sampling.h), drawing from RANDOM
 *     (random.Random.random) as tarotnotation/players/sampling.py's do.
 *   die_with_parent(signal) -> bool
 *     not a rule: a worker's first act (tarotnotation/workers.py), here because every
 *     worker has this module loaded already; see k_die_with_parent.
 * Types:
 *   Search(players, flags, camps, called, tricks, aside_half, aside_bouts, leaf,
 *          additive, table_mb, *, portable=False): the search core (see search.h and
 *          tarotnotation/analysis/search.py); portable: never the POPCNT build.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "sampling.h"
#include "search.h"
#include "search_popcnt.h"

static PyObject *ZERO;          /* 0 */
static PyObject *HIGH_SHIFT;    /* 64 */
static PyObject *CARDS_LIMIT;   /* 1 << 78 */

/* --- conversions -------------------------------------------------------------------- */

static int to_cards(PyObject *obj, cards_t *out)
{
    if (!PyLong_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "a card set is an int, not %.100s",
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    int negative = PyObject_RichCompareBool(obj, ZERO, Py_LT);
    if (negative < 0)
        return -1;
    int large = PyObject_RichCompareBool(obj, CARDS_LIMIT, Py_GE);
    if (large < 0)
        return -1;
    if (negative || large) {
        PyErr_SetString(PyExc_ValueError, "a card set holds bits 0 to 77 only");
        return -1;
    }
    unsigned long long lo = PyLong_AsUnsignedLongLongMask(obj);
    if (lo == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    PyObject *high = PyNumber_Rshift(obj, HIGH_SHIFT);
    if (!high)
        return -1;
    unsigned long long hi = PyLong_AsUnsignedLongLong(high);
    Py_DECREF(high);
    if (hi == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    *out = ((cards_t)hi << 64) | (cards_t)lo;
    return 0;
}

static PyObject *from_cards(cards_t bits)
{
    unsigned long long hi = (unsigned long long)(bits >> 64);
    unsigned long long lo = (unsigned long long)bits;
    if (!hi)
        return PyLong_FromUnsignedLongLong(lo);
    PyObject *h = PyLong_FromUnsignedLongLong(hi);
    if (!h)
        return NULL;
    PyObject *shifted = PyNumber_Lshift(h, HIGH_SHIFT);
    Py_DECREF(h);
    if (!shifted)
        return NULL;
    PyObject *l = PyLong_FromUnsignedLongLong(lo);
    if (!l) {
        Py_DECREF(shifted);
        return NULL;
    }
    PyObject *out = PyNumber_Or(shifted, l);
    Py_DECREF(shifted);
    Py_DECREF(l);
    return out;
}

static int check_card(int card)
{
    if (card < 0 || card > 77) {
        PyErr_Format(PyExc_ValueError, "%d is not a card (0 to 77)", card);
        return -1;
    }
    return 0;
}

static int check_camp(int camp, const char *what)
{
    if (camp != 0 && camp != 1) {
        PyErr_Format(PyExc_ValueError, "%s must be a camp (0 or 1), not %d", what, camp);
        return -1;
    }
    return 0;
}

/* OBJ's items as a tuple (a new reference; NULL with TypeError WHAT when OBJ is not
 * iterable). Not PySequence_Fast: it lends a list's own items, and converting one (an
 * int subclass's comparison, an __index__) may run Python code that empties the list
 * under the loop that reads it; a tuple holds its items. */
static PyObject *as_tuple(PyObject *obj, const char *what)
{
    PyObject *t = PySequence_Tuple(obj);
    if (!t && PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, what);
    }
    return t;
}

/* A sequence of cards into BUF (at most MAX); returns the count or -1. */
static int card_list(PyObject *seq, int *buf, int max, const char *what)
{
    PyObject *fast = as_tuple(seq, "expected a sequence of cards");
    if (!fast)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > max) {
        PyErr_Format(PyExc_ValueError, "%s holds %zd cards, at most %d", what, n, max);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (c == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (check_card((int)c) < 0) {
            Py_DECREF(fast);
            return -1;
        }
        buf[i] = (int)c;
    }
    Py_DECREF(fast);
    return (int)n;
}

/* --- the kernel's functions ----------------------------------------------------------- */

static PyObject *k_step(PyObject *self, PyObject *args)
{
    int led, top, card;
    if (!PyArg_ParseTuple(args, "iii:step", &led, &top, &card) || check_card(card) < 0)
        return NULL;
    tk_step(&led, &top, card);
    return Py_BuildValue("(ii)", led, top);
}

static PyObject *k_legal_in(PyObject *self, PyObject *args)
{
    PyObject *hand_obj;
    int led, top, kind;
    cards_t hand;
    if (!PyArg_ParseTuple(args, "Oii:legal_in", &hand_obj, &led, &top)
        || to_cards(hand_obj, &hand) < 0)
        return NULL;
    if (led < -1 || led > 4 || top < 0 || top > 21) {
        PyErr_SetString(PyExc_ValueError, "led is -1 to 4 and top 0 to 21");
        return NULL;
    }
    cards_t legal = tk_legal_in(hand, led, top, &kind);
    PyObject *l = from_cards(legal);
    if (!l)
        return NULL;
    return Py_BuildValue("(Ni)", l, kind);
}

static PyObject *k_first_lead(PyObject *self, PyObject *args)
{
    PyObject *hand_obj;
    int called, kind;
    cards_t hand;
    if (!PyArg_ParseTuple(args, "Oi:first_lead", &hand_obj, &called)
        || to_cards(hand_obj, &hand) < 0 || check_card(called) < 0)
        return NULL;
    cards_t legal = tk_first_lead(hand, called, &kind);
    PyObject *l = from_cards(legal);
    if (!l)
        return NULL;
    return Py_BuildValue("(Ni)", l, kind);
}

static PyObject *k_winner_index(PyObject *self, PyObject *arg)
{
    int cards[8];
    int n = card_list(arg, cards, 8, "a trick");
    if (n < 0)
        return NULL;
    int w = tk_winner_index(cards, n);
    if (w < 0)
        Py_RETURN_NONE;
    return PyLong_FromLong(w);
}

static PyObject *k_excuse_wins_last_trick(PyObject *self, PyObject *args)
{
    int flags, excuse_led, leader_won_all;
    if (!PyArg_ParseTuple(args, "ipp:excuse_wins_last_trick", &flags, &excuse_led,
                          &leader_won_all))
        return NULL;
    return PyBool_FromLong(tk_excuse_wins_last_trick(flags, excuse_led, leader_won_all));
}

static PyObject *k_petit_trick_before_last(PyObject *self, PyObject *args)
{
    int a, b, c;
    if (!PyArg_ParseTuple(args, "ppp:petit_trick_before_last", &a, &b, &c))
        return NULL;
    return PyBool_FromLong(tk_petit_trick_before_last(a, b, c));
}

static PyObject *k_excuse_settlement(PyObject *self, PyObject *args)
{
    int flags, owner, winner, last, excuse_won, camp, low;
    if (!PyArg_ParseTuple(args, "iiipp:excuse_settlement", &flags, &owner, &winner, &last,
                          &excuse_won)
        || check_camp(owner, "owner") < 0 || check_camp(winner, "winner") < 0)
        return NULL;
    tk_excuse_settlement(flags, owner, winner, last, excuse_won, &camp, &low);
    return Py_BuildValue("(ii)", camp, low);
}

static PyObject *k_settle_trick(PyObject *self, PyObject *args)
{
    PyObject *bits_obj;
    int flags, winner, owner, last, excuse_won, moved;
    cards_t bits, to_taker, to_defence;
    if (!PyArg_ParseTuple(args, "iOiipp:settle_trick", &flags, &bits_obj, &winner, &owner,
                          &last, &excuse_won)
        || to_cards(bits_obj, &bits) < 0 || check_camp(winner, "winner") < 0)
        return NULL;
    if (owner != -1 && check_camp(owner, "owner") < 0)
        return NULL;
    tk_settle_trick(flags, bits, winner, owner, last, excuse_won, &to_taker, &to_defence,
                    &moved);
    PyObject *t = from_cards(to_taker);
    PyObject *d = t ? from_cards(to_defence) : NULL;
    if (!d) {
        Py_XDECREF(t);
        return NULL;
    }
    return Py_BuildValue("(NNi)", t, d, moved);
}

static PyObject *k_winning_card(PyObject *self, PyObject *args)
{
    PyObject *bits_obj;
    int led;
    cards_t bits;
    if (!PyArg_ParseTuple(args, "Oi:winning_card", &bits_obj, &led)
        || to_cards(bits_obj, &bits) < 0)
        return NULL;
    if (led < 0 || led > 4) {
        PyErr_SetString(PyExc_ValueError, "led is 0 to 4");
        return NULL;
    }
    return PyLong_FromLong(tk_winning_card(bits, led));
}

static PyObject *k_rule_in(PyObject *self, PyObject *args)
{
    PyObject *hand_obj, *called_obj = Py_None;
    int led, top, kind;
    cards_t hand;
    if (!PyArg_ParseTuple(args, "Oii|O:rule_in", &hand_obj, &led, &top, &called_obj)
        || to_cards(hand_obj, &hand) < 0)
        return NULL;
    if (led < -1 || led > 4 || top < 0 || top > 21) {
        PyErr_SetString(PyExc_ValueError, "led is -1 to 4 and top 0 to 21");
        return NULL;
    }
    if (called_obj != Py_None) {
        long called = PyLong_AsLong(called_obj);
        if ((called == -1 && PyErr_Occurred()) || check_card((int)called) < 0)
            return NULL;
        cards_t legal = tk_first_lead(hand, (int)called, &kind);
        if (kind == TK_CALLED_SUIT) {
            PyObject *l = from_cards(legal);
            if (!l)
                return NULL;
            return Py_BuildValue("(Niii)", l, kind, tk_suit_of((int)called), 0);
        }
    }
    cards_t legal = tk_legal_in(hand, led, top, &kind);
    PyObject *l = from_cards(legal);
    if (!l)
        return NULL;
    return Py_BuildValue("(Niii)", l, kind, led, top);
}

/* --- the deal sampler's loops (sampling.h) ------------------------------------------ */

/* Reads a sequence of at most MOST small ints (0 to LIMIT - 1) into OUT; their count, or
 * -1 with an error set. */
static int small_ints(PyObject *obj, int most, long limit, const char *what, int *out)
{
    PyObject *seq = as_tuple(obj, "expected a sequence of ints");
    if (!seq)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > most) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%s: at most %d", what, most);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (v < 0 || v >= limit) {
            Py_DECREF(seq);
            PyErr_Format(PyExc_ValueError, "%s: %ld is out of range", what, v);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(seq);
    return (int)n;
}

static PyObject *int_list(const int *values, int n)
{
    PyObject *out = PyList_New(n);
    if (!out)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLong(values[i]);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, v);
    }
    return out;
}

static PyObject *k_sample_fill(PyObject *self, PyObject *args)
{
    PyObject *masks_obj, *sizes_obj, *random;
    int masks_in[TSM_MAX_CARDS], sizes[TSM_MAX_BINS], out[TSM_MAX_CARDS];
    unsigned masks[TSM_MAX_CARDS];
    if (!PyArg_ParseTuple(args, "OOO:sample_fill", &masks_obj, &sizes_obj, &random))
        return NULL;
    int bins = small_ints(sizes_obj, TSM_MAX_BINS, 1000, "sizes", sizes);
    if (bins < 0)
        return NULL;
    int cards = small_ints(masks_obj, TSM_MAX_CARDS, 1L << bins, "masks", masks_in);
    if (cards < 0)
        return NULL;
    for (int i = 0; i < cards; i++)
        masks[i] = (unsigned)masks_in[i];
    int done = tsm_fill(cards, masks, bins, sizes, random, out);
    if (done < 0)
        return NULL;
    if (!done)
        Py_RETURN_NONE;
    return int_list(out, cards);
}

static PyObject *k_sample_mix(PyObject *self, PyObject *args)
{
    PyObject *masks_obj, *where_obj, *random;
    int most;
    long steps;
    int masks_in[TSM_MAX_CARDS], where[TSM_MAX_CARDS];
    unsigned masks[TSM_MAX_CARDS];
    if (!PyArg_ParseTuple(args, "OOilO:sample_mix", &masks_obj, &where_obj, &most, &steps,
                          &random))
        return NULL;
    if (most < 2 || most > TSM_MAX_BINS) {
        PyErr_Format(PyExc_ValueError, "most is 2 to %d", TSM_MAX_BINS);
        return NULL;
    }
    int cards = small_ints(masks_obj, TSM_MAX_CARDS, 1L << TSM_MAX_BINS, "masks", masks_in);
    if (cards < 0)
        return NULL;
    if (small_ints(where_obj, TSM_MAX_CARDS, TSM_MAX_BINS, "where", where) != cards) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "a bin for each card");
        return NULL;
    }
    if (most > cards) { /* (a round of MOST cards needs as many) */
        PyErr_SetString(PyExc_ValueError, "most is at most the number of cards");
        return NULL;
    }
    for (int i = 0; i < cards; i++)
        masks[i] = (unsigned)masks_in[i];
    if (tsm_mix(cards, masks, where, most, steps, random) < 0)
        return NULL;
    return int_list(where, cards);
}

static PyObject *k_unplayed_camp(PyObject *self, PyObject *arg)
{
    long contract = PyLong_AsLong(arg);
    if (contract == -1 && PyErr_Occurred())
        return NULL;
    return PyLong_FromLong(tk_unplayed_camp((int)contract));
}

static PyObject *k_petit_au_bout(PyObject *self, PyObject *args)
{
    int flags, winner, cards[8];
    PyObject *trick;
    if (!PyArg_ParseTuple(args, "iOi:petit_au_bout", &flags, &trick, &winner))
        return NULL;
    int n = card_list(trick, cards, 8, "a trick");
    if (n < 0)
        return NULL;
    return PyLong_FromLong(tk_petit_au_bout(flags, cards, n, winner));
}

static PyObject *k_chelem_camp(PyObject *self, PyObject *args)
{
    int taker_tricks, tricks;
    if (!PyArg_ParseTuple(args, "ii:chelem_camp", &taker_tricks, &tricks))
        return NULL;
    return PyLong_FromLong(tk_chelem_camp(taker_tricks, tricks));
}

static PyObject *k_petit_sec(PyObject *self, PyObject *arg)
{
    cards_t hand;
    if (to_cards(arg, &hand) < 0)
        return NULL;
    return PyBool_FromLong(tk_petit_sec(hand));
}

static PyObject *k_petit_in_chien_annuls(PyObject *self, PyObject *args)
{
    int annuls, contract;
    PyObject *chien_obj;
    cards_t chien;
    if (!PyArg_ParseTuple(args, "piO:petit_in_chien_annuls", &annuls, &contract, &chien_obj)
            || to_cards(chien_obj, &chien) < 0)
        return NULL;
    return PyBool_FromLong(tk_petit_in_chien_annuls(annuls, contract, chien));
}

static PyObject *k_outbids(PyObject *self, PyObject *args)
{
    int bid, best;
    if (!PyArg_ParseTuple(args, "ii:outbids", &bid, &best))
        return NULL;
    return PyBool_FromLong(tk_outbids(bid, best));
}

static PyObject *k_call_fault(PyObject *self, PyObject *args)
{
    int called;
    PyObject *hand_obj;
    cards_t hand;
    if (!PyArg_ParseTuple(args, "iO:call_fault", &called, &hand_obj)
        || check_card(called) < 0 || to_cards(hand_obj, &hand) < 0)
        return NULL;
    return PyLong_FromLong(tk_call_fault(called, hand));
}

static PyObject *k_first_leader(PyObject *self, PyObject *args)
{
    int first, announcer;
    if (!PyArg_ParseTuple(args, "ii:first_leader", &first, &announcer))
        return NULL;
    return PyLong_FromLong(tk_first_leader(first, announcer));
}

static PyObject *k_ecart_forbidden(PyObject *self, PyObject *arg)
{
    cards_t ecart;
    if (to_cards(arg, &ecart) < 0)
        return NULL;
    return from_cards(tk_ecart_forbidden(ecart));
}

static PyObject *k_poignee_wrong_cards(PyObject *self, PyObject *arg)
{
    cards_t shown;
    if (to_cards(arg, &shown) < 0)
        return NULL;
    return from_cards(tk_poignee_wrong_cards(shown));
}

static PyObject *k_poignee_hidden_trumps(PyObject *self, PyObject *args)
{
    PyObject *hand_obj, *shown_obj;
    cards_t hand, shown;
    if (!PyArg_ParseTuple(args, "OO:poignee_hidden_trumps", &hand_obj, &shown_obj)
            || to_cards(hand_obj, &hand) < 0 || to_cards(shown_obj, &shown) < 0)
        return NULL;
    return from_cards(tk_poignee_hidden_trumps(hand, shown));
}

static PyObject *k_margin(PyObject *self, PyObject *args)
{
    int half, bouts;
    if (!PyArg_ParseTuple(args, "ii:margin", &half, &bouts))
        return NULL;
    if (bouts < 0 || bouts > 3) {
        PyErr_SetString(PyExc_ValueError, "bouts are 0 to 3");
        return NULL;
    }
    return PyLong_FromLong(tk_margin(half, bouts));
}

static PyObject *k_card_points(PyObject *self, PyObject *arg)
{
    cards_t bits;
    if (to_cards(arg, &bits) < 0)
        return NULL;
    return PyLong_FromLong(tk_card_points(bits));
}

/* A state from Python arguments; returns 0 or -1 with an exception set. */
static int read_state(tk_state *st, int flags, PyObject *hands, PyObject *camps, int leader,
                      int called, int tricks)
{
    memset(st, 0, sizeof(*st));
    PyObject *fh = as_tuple(hands, "hands: expected a sequence of card sets");
    if (!fh)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fh);
    if (n < 3 || n > TK_MAX_PLAYERS) {
        Py_DECREF(fh);
        PyErr_Format(PyExc_ValueError, "3 to 5 hands, not %zd", n);
        return -1;
    }
    st->n = (int)n;
    int most = 0;
    cards_t seen = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (to_cards(PySequence_Fast_GET_ITEM(fh, i), &st->hand[i]) < 0) {
            Py_DECREF(fh);
            return -1;
        }
        if (seen & st->hand[i]) {
            Py_DECREF(fh);
            PyErr_SetString(PyExc_ValueError, "a card is in two hands");
            return -1;
        }
        seen |= st->hand[i];
        int count = tk_popcount(st->hand[i]);
        if (count > most)
            most = count;
    }
    Py_DECREF(fh);
    PyObject *fc = as_tuple(camps, "camps: expected a sequence of camps");
    if (!fc)
        return -1;
    if (PySequence_Fast_GET_SIZE(fc) != n) {
        Py_DECREF(fc);
        PyErr_SetString(PyExc_ValueError, "one camp per hand");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(fc, i));
        if ((c == -1 && PyErr_Occurred()) || check_camp((int)c, "a camp") < 0) {
            Py_DECREF(fc);
            return -1;
        }
        st->camp[i] = (int)c;
    }
    Py_DECREF(fc);
    if (leader < 0 || leader >= n) {
        PyErr_Format(PyExc_ValueError, "no seat %d", leader);
        return -1;
    }
    if (called != -1 && check_card(called) < 0)
        return -1;
    st->flags = flags;
    st->called = called;
    st->leader = leader;
    st->led = TK_NO_SUIT;
    st->excuse_owner = -1;
    st->petit = -1;
    st->tricks = tricks >= 0 ? tricks : most;
    return 0;
}

static PyObject *k_play(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"flags", "hands", "camps", "leader", "cards", "called", "tricks",
                            NULL};
    int flags, leader, called = -1, tricks = -1;
    PyObject *hands, *camps, *cards;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "iOOiO|ii:play", names, &flags, &hands,
                                     &camps, &leader, &cards, &called, &tricks))
        return NULL;
    tk_state st;
    if (read_state(&st, flags, hands, camps, leader, called, tricks) < 0)
        return NULL;
    PyObject *fast = as_tuple(cards, "cards: expected a sequence of cards");
    if (!fast)
        return NULL;
    Py_ssize_t total = PySequence_Fast_GET_SIZE(fast);
    PyObject *winners = PyList_New(0);
    if (!winners) {
        Py_DECREF(fast);
        return NULL;
    }
    Py_ssize_t played = 0;
    tk_undo u;
    for (; played < total && st.trick_number < st.tricks; played++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, played));
        if (c == -1 && PyErr_Occurred())
            goto fail;
        if (c < 0 || c > 77 || !(tk_legal(&st) & TK_BIT(c)))
            break;
        tk_play(&st, (int)c, &u);
        if (u.ended) {
            PyObject *w = PyLong_FromLong(st.leader);
            if (!w || PyList_Append(winners, w) < 0) {
                Py_XDECREF(w);
                goto fail;
            }
            Py_DECREF(w);
        }
    }
    Py_DECREF(fast);
    return Py_BuildValue("(nNii(ii)i)", played, winners, st.half, st.bouts,
                         st.tricks_won[0], st.tricks_won[1], st.petit);
fail:
    Py_DECREF(fast);
    Py_DECREF(winners);
    return NULL;
}

/* --- the quick check's scanner of JSON Lines (jsonscan.h) ---------------------------- */

#include "jsonscan.h"

static PyObject *k_scan_json(PyObject *self, PyObject *arg)
{
    char *data;
    Py_ssize_t size;
    if (!PyBytes_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "scan_json: expected bytes");
        return NULL;
    }
    if (PyBytes_AsStringAndSize(arg, &data, &size) < 0)
        return NULL;
    js_t j = {data, data + size};
    jb_deal d;
    if (!js_scan(&j, &d))
        Py_RETURN_NONE;
    return js_parts(&d, data + size);  /* the same scan as check_lines', another visitor */
}

/* --- the quick check's scanner of the text notation (textscan.h) --------------------- */

#include "textscan.h"

static PyObject *k_scan_text(PyObject *self, PyObject *args)
{
    Py_buffer view;
    Py_ssize_t pos;
    int eof;
    if (!PyArg_ParseTuple(args, "y*np:scan_text", &view, &pos, &eof))
        return NULL;
    PyObject *out;
    int status = ts_scan(view.buf, view.len, pos, eof, &out);
    PyBuffer_Release(&view);
    switch (status) {
    case TS_TAKEN: return out;
    case TS_MORE: return PyLong_FromLong(-1);
    case TS_ERROR: return NULL;
    default: Py_RETURN_NONE;
    }
}

static PyObject *k_judge_parts(PyObject *self, PyObject *args)
{
    PyObject *parts;
    int flags;
    if (!PyArg_ParseTuple(args, "O!i:judge_parts", &PyTuple_Type, &parts, &flags))
        return NULL;
    return ts_judge_parts(parts, flags);
}

/* --- the quick check of JSON Lines in bulk (bulk.h) -------------------------------- */

#include "bulk.h"

static PyObject *PLAIN_IDS[JB_MAX_SEATS];  /* "S", "E", "N", "W", "F" (fields.DEFAULT_SEATS) */

/* What check_lines says of a clean deal: (taker_half, scores by seat, tags or None). */
static PyObject *jb_result(const jb_deal *d, const jb_clean *c, const jb_str *ids,
                           const char *end)
{
    PyObject *keys[JB_MAX_SEATS];
    for (int i = 0; i < d->n; i++)  /* (none made after a failure) */
        keys[i] = i && !keys[i - 1] ? NULL
                  : d->has_seats ? PyUnicode_DecodeASCII(ids[i].s, ids[i].len, NULL)
                                 : Py_NewRef(PLAIN_IDS[i]);
    PyObject *scores = jb_scores_dict(d->n, keys, c);
    if (!scores)
        return NULL;
    PyObject *tags = Py_NewRef(Py_None);
    if (d->deal_tag) {  /* a Deal tag: the tags, for plausibility.deal_number */
        Py_DECREF(tags);
        js_t j = {d->tags_at, end};
        tags = PyList_New(0);
        if (!tags || !js_eat(&j, '[')) {
            Py_XDECREF(tags);
            Py_DECREF(scores);
            return PyErr_Occurred() ? NULL : PyErr_Format(PyExc_RuntimeError, "tags");
        }
        do {
            PyObject *list = js_strings(&j);
            PyObject *pair = list ? PyList_AsTuple(list) : NULL;
            Py_XDECREF(list);
            if (!pair || PyList_Append(tags, pair) < 0) {
                Py_XDECREF(pair);
                Py_DECREF(tags);
                Py_DECREF(scores);
                return PyErr_Occurred() ? NULL : PyErr_Format(PyExc_RuntimeError, "tags");
            }
            Py_DECREF(pair);
        } while (js_eat(&j, ','));
    }
    return Py_BuildValue("(iNN)", c->taker_half, scores, tags);
}

/* count_lines(block) -> (lines, deals): the lines of a block of JSON Lines as readlines
 * cuts them (at each \n; a last line without one counts), and those that hold a record
 * as archive.line_content sees them (not blank once the blanks around are stripped, nor a
 * byte-order mark alone). */
/* A worker process's first act (tarotnotation/workers.py): the kernel sends it SIG when
 * its parent ends, whatever ended it. True when done (Linux's PR_SET_PDEATHSIG), False
 * where there is no such call: the caller then watches for a new parent itself. Here,
 * in the module the workers have loaded already, so that starting one imports nothing. */
static PyObject *k_die_with_parent(PyObject *self, PyObject *arg)
{
    long sig = PyLong_AsLong(arg);
    if (sig == -1 && PyErr_Occurred())
        return NULL;
#ifdef __linux__
    if (sig > 0 && sig < 65 && prctl(PR_SET_PDEATHSIG, (unsigned long)sig, 0, 0, 0) == 0)
        Py_RETURN_TRUE;
#endif
    Py_RETURN_FALSE;
}

static PyObject *k_count_lines(PyObject *self, PyObject *arg)
{
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    const char *p = view.buf, *end = p + view.len;
    Py_ssize_t lines = 0, deals = 0;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *q = nl ? nl + 1 : end;
        lines++;
        deals += !jb_blank(p, q);
        p = q;
    }
    PyBuffer_Release(&view);
    return Py_BuildValue("(nn)", lines, deals);
}

static PyObject *k_check_lines(PyObject *self, PyObject *args)
{
    PyObject *lines, *specs;
    Py_ssize_t start, limit;
    int flags;
    if (!PyArg_ParseTuple(args, "O!ninO!:check_lines", &PyTuple_Type, &lines, &start, &flags,
                          &limit, &PyDict_Type, &specs))
        return NULL;
    Py_ssize_t total = PyTuple_GET_SIZE(lines);
    if (start < 0 || start > total)
        return PyErr_Format(PyExc_ValueError, "start %zd: not in 0-%zd", start, total);
    PyObject *out = PyList_New(total - start);
    if (!out)
        return NULL;
    for (Py_ssize_t i = start; i < total; i++) {
        PyObject *item = PyTuple_GET_ITEM(lines, i);
        if (!PyBytes_Check(item)) {
            Py_DECREF(out);
            return PyErr_Format(PyExc_TypeError, "check_lines: a line is bytes, not %.100s",
                                Py_TYPE(item)->tp_name);
        }
        const char *s = PyBytes_AS_STRING(item), *e = s + PyBytes_GET_SIZE(item);
        PyObject *res = NULL;
        if (jb_content(&s, &e) && e - s <= limit) {
            js_t j = {s, e};
            jb_deal d;
            jb_clean c;
            jb_str ids[JB_MAX_SEATS];
            int ok = js_scan(&j, &d), own = flags;
            if (ok && d.has_ruleset) {  /* the flags the caller found for this spec */
                PyObject *spec = PyBytes_FromStringAndSize(d.ruleset.s, d.ruleset.len);
                PyObject *known = spec ? PyDict_GetItemWithError(specs, spec) : NULL;
                if (!known && PyErr_Occurred()) {
                    Py_XDECREF(spec);
                    Py_DECREF(out);
                    return NULL;
                }
                if (!known) {
                    res = spec;  /* not known yet: the caller reads it, then asks again */
                    ok = 0;
                } else {
                    Py_DECREF(spec);
                    own = (int)PyLong_AsLong(known);
                    if (own == -1 && PyErr_Occurred()) {
                        Py_DECREF(out);
                        return NULL;
                    }
                    ok = own >= 0;  /* -1: not a ruleset (the record is not read) */
                }
            }
            if (ok && jb_judge(&d, own, &c, ids)) {
                res = jb_result(&d, &c, ids, e);
                if (!res) {
                    Py_DECREF(out);
                    return NULL;
                }
            }
        }
        PyList_SET_ITEM(out, i - start, res ? res : Py_NewRef(Py_None));
    }
    return out;
}

/* --- the search type ------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    ts_search *S;
    int popcnt;             /* search with the POPCNT build (search_popcnt.c) */
} SearchObject;

int tarotnotation_search_signalled(void)
{
    return PyErr_CheckSignals() < 0;
}

/* The search core compiled for processors with the POPCNT instruction
 * (search_popcnt.c), used when this one has it: the same search, about 15% faster. */
#if TS_HAS_POPCNT_BUILD
int ts_search_node_popcnt(ts_search *S, int beta, int root, int *best);
#endif

static int popcnt_usable(void)
{
#if TS_HAS_POPCNT_BUILD
    __builtin_cpu_init();
    return __builtin_cpu_supports("popcnt");
#else
    return 0;
#endif
}

static void Search_dealloc(SearchObject *self)
{
    if (self->S) {
        free(self->S->table);
        PyMem_RawFree(self->S);
    }
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Search_init(SearchObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"players", "flags", "camps", "called", "tricks", "aside_half",
                            "aside_bouts", "leaf", "additive", "table_mb", "portable",
                            NULL};
    int players, flags, called, tricks, aside_half, aside_bouts, additive, portable = 0;
    double table_mb;
    PyObject *camps;
    Py_buffer leaf;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "iiOiiiiy*pd|$p:Search", names, &players,
                                     &flags, &camps, &called, &tricks, &aside_half,
                                     &aside_bouts, &leaf, &additive, &table_mb, &portable))
        return -1;
    self->popcnt = !portable && popcnt_usable();
    if (leaf.len != (Py_ssize_t)sizeof(int32_t) * TS_LEAF_SIZE) {
        PyBuffer_Release(&leaf);
        PyErr_Format(PyExc_ValueError, "the leaf table holds %d int32 values",
                     TS_LEAF_SIZE);
        return -1;
    }
    if (players < 3 || players > 5 || tricks < 1 || tricks > 24 || aside_half < 0
        || aside_half > 182 || aside_bouts < 0 || aside_bouts > 3 || table_mb <= 0
        || table_mb > 1 << 16) {
        PyBuffer_Release(&leaf);
        PyErr_SetString(PyExc_ValueError, "Search: an argument is out of range");
        return -1;
    }
    ts_search *S = PyMem_RawCalloc(1, sizeof(ts_search));
    if (!S) {
        PyBuffer_Release(&leaf);
        PyErr_NoMemory();
        return -1;
    }
    memcpy(S->leaf, leaf.buf, sizeof(S->leaf));
    PyBuffer_Release(&leaf);
    PyObject *fc = as_tuple(camps, "camps: expected a sequence of camps");
    if (!fc || PySequence_Fast_GET_SIZE(fc) != players) {
        if (fc) {
            Py_DECREF(fc);
            PyErr_SetString(PyExc_ValueError, "one camp per seat");
        }
        PyMem_RawFree(S);
        return -1;
    }
    for (int i = 0; i < players; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(fc, i));
        if ((c == -1 && PyErr_Occurred()) || check_camp((int)c, "a camp") < 0) {
            Py_DECREF(fc);
            PyMem_RawFree(S);
            return -1;
        }
        S->st.camp[i] = (int)c;
    }
    Py_DECREF(fc);
    if (called != -1 && check_card(called) < 0) {
        PyMem_RawFree(S);
        return -1;
    }
    S->st.n = players;
    S->st.flags = flags;
    S->st.called = called;
    S->st.tricks = tricks;
    S->additive = additive;
    S->aside_half = aside_half;
    S->aside_bouts = aside_bouts;
    size_t entries = (size_t)(table_mb * 1048576.0) / sizeof(ts_entry);
    size_t max_buckets = 1;
    while (max_buckets * 2 * TS_BUCKET <= entries)
        max_buckets *= 2;
    size_t buckets = max_buckets < 4096 ? max_buckets : 4096;
    S->table = ts_alloc(buckets);
    if (!S->table) {
        PyMem_RawFree(S);
        PyErr_NoMemory();
        return -1;
    }
    S->buckets = buckets;
    S->max_buckets = max_buckets;
    if (self->S) {
        free(self->S->table);
        PyMem_RawFree(self->S);
    }
    self->S = S;
    return 0;
}

/* Set the search's state from a position tuple:
 * (hands, leader, trick, trick_number, half, bouts, tricks_won, previous). */
static int set_position(ts_search *S, PyObject *pos)
{
    PyObject *hands, *trick, *won, *previous;
    int leader, trick_number, half, bouts;
    if (!PyArg_ParseTuple(pos, "OiOiiiOO:position", &hands, &leader, &trick, &trick_number,
                          &half, &bouts, &won, &previous))
        return -1;
    tk_state *st = &S->st;
    int n = st->n;
    PyObject *fh = as_tuple(hands, "hands: expected a sequence of card sets");
    if (!fh)
        return -1;
    if (PySequence_Fast_GET_SIZE(fh) != n) {
        Py_DECREF(fh);
        PyErr_SetString(PyExc_ValueError, "one hand per seat");
        return -1;
    }
    cards_t seen = 0;
    for (int i = 0; i < n; i++) {
        if (to_cards(PySequence_Fast_GET_ITEM(fh, i), &st->hand[i]) < 0) {
            Py_DECREF(fh);
            return -1;
        }
        if (seen & st->hand[i]) {
            Py_DECREF(fh);
            PyErr_SetString(PyExc_ValueError, "a card is in two hands");
            return -1;
        }
        seen |= st->hand[i];
    }
    Py_DECREF(fh);
    if (leader < 0 || leader >= n) {
        PyErr_Format(PyExc_ValueError, "no seat %d", leader);
        return -1;
    }
    st->leader = leader;
    int len = card_list(trick, st->trick, n - 1, "the trick");
    if (len < 0)
        return -1;
    st->len = len;
    st->led = TK_NO_SUIT;
    st->top = 0;
    st->excuse_owner = -1;
    for (int i = 0; i < len; i++) {
        int c = st->trick[i];
        if (seen & TK_BIT(c)) {
            PyErr_SetString(PyExc_ValueError, "a card of the trick is in a hand");
            return -1;
        }
        seen |= TK_BIT(c);
        if (c == TK_EXCUSE)
            st->excuse_owner = st->camp[(leader + i) % n];
        tk_step(&st->led, &st->top, c);
    }
    if (trick_number < 0 || trick_number >= st->tricks) {
        PyErr_SetString(PyExc_ValueError, "the trick number is out of range");
        return -1;
    }
    st->trick_number = trick_number;
    int left = st->tricks - trick_number;
    for (int i = 0; i < n; i++) {
        int played = ((i - leader + n) % n) < len;
        if (tk_popcount(st->hand[i]) != left - played) {
            PyErr_Format(PyExc_ValueError, "seat %d holds %d cards: expected %d", i,
                         tk_popcount(st->hand[i]), left - played);
            return -1;
        }
    }
    if (half < 0 || half + S->aside_half + tk_card_points(seen) > 182 || bouts < 0
        || bouts + S->aside_bouts + tk_popcount(seen & TK_BOUTS_MASK) > 3) {
        PyErr_SetString(PyExc_ValueError, "the points or bouts won are out of range");
        return -1;
    }
    st->half = half;
    st->bouts = bouts;
    if (!PyArg_ParseTuple(won, "ii:tricks_won", &st->tricks_won[0], &st->tricks_won[1]))
        return -1;
    if (st->tricks_won[0] < 0 || st->tricks_won[1] < 0
        || st->tricks_won[0] + st->tricks_won[1] != trick_number) {
        PyErr_SetString(PyExc_ValueError, "the tricks won do not add up to the trick number");
        return -1;
    }
    int prev = card_list(previous, st->prev, n, "the previous trick");
    if (prev < 0)
        return -1;
    st->prev_len = prev;
    st->petit = -1;
    ts_reset_out(S);
    return 0;
}

/* The search of an object whose __init__ ran, or NULL with RuntimeError set. */
static ts_search *search_of(SearchObject *self)
{
    if (!self->S)
        PyErr_SetString(PyExc_RuntimeError, "Search is not initialised");
    return self->S;
}

static PyObject *Search_test(SearchObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"position", "beta", "node_limit", "time_limit", NULL};
    PyObject *pos;
    int beta;
    unsigned long long node_limit = 0;
    double time_limit = 0.0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "Oi|Kd:test", names, &pos, &beta,
                                     &node_limit, &time_limit))
        return NULL;
    ts_search *S = search_of(self);
    if (!S || set_position(S, pos) < 0)
        return NULL;
    S->node_limit = node_limit ? S->nodes + node_limit : 0;
    S->deadline = time_limit > 0 ? ts_now() + time_limit : 0.0;
    S->aborted = 0;
    S->interrupted = 0;
    uint64_t before = S->nodes;
    int best = -1;
#if TS_HAS_POPCNT_BUILD
    int g = self->popcnt ? ts_search_node_popcnt(S, beta, 1, &best)
                         : ts_search_node(S, beta, 1, &best);
#else
    int g = ts_search_node(S, beta, 1, &best);
#endif
    if (S->interrupted)
        return NULL;
    return Py_BuildValue("(iiKO)", g, best, (unsigned long long)(S->nodes - before),
                         S->aborted ? Py_False : Py_True);
}

static PyObject *Search_bounds(SearchObject *self, PyObject *pos)
{
    ts_search *S = search_of(self);
    if (!S || set_position(S, pos) < 0)
        return NULL;
    int lo, hi;
    ts_bounds(S, &lo, &hi);
    return Py_BuildValue("(ii)", lo, hi);
}

static PyObject *Search_profile(SearchObject *self, PyObject *unused)
{
    ts_search *S = search_of(self);
    if (!S)
        return NULL;
    PyObject *exp = PyList_New(25);
    if (!exp)
        return NULL;
    for (int i = 0; i < 25; i++)
        PyList_SET_ITEM(exp, i, PyLong_FromUnsignedLongLong(S->expanded[i]));
    return Py_BuildValue("((KKKK)(KKKK)N(KKKK)(KKKK))", (unsigned long long)S->visits[0],
                         (unsigned long long)S->visits[1], (unsigned long long)S->visits[2],
                         (unsigned long long)S->visits[3], (unsigned long long)S->bound_cuts[0],
                         (unsigned long long)S->bound_cuts[1],
                         (unsigned long long)S->bound_cuts[2],
                         (unsigned long long)S->bound_cuts[3], exp,
                         (unsigned long long)S->all_nodes[0], (unsigned long long)S->all_nodes[1],
                         (unsigned long long)S->all_nodes[2], (unsigned long long)S->all_nodes[3],
                         (unsigned long long)S->all_moves[0], (unsigned long long)S->all_moves[1],
                         (unsigned long long)S->all_moves[2], (unsigned long long)S->all_moves[3]);
}

static PyObject *Search_next_generation(SearchObject *self, PyObject *unused)
{
    ts_search *S = search_of(self);
    if (!S)
        return NULL;
    S->age++;
    for (int i = 0; i < TK_MAX_PLAYERS; i++)
        for (int c = 0; c < 78; c++)
            S->history[i][c] >>= 1;
    Py_RETURN_NONE;
}

static PyObject *Search_stats(SearchObject *self, PyObject *unused)
{
    ts_search *S = search_of(self);
    if (!S)
        return NULL;
    size_t used = S->used, total = S->max_buckets * TS_BUCKET;
    return Py_BuildValue("{sKsKsKsKsKsKsKsKsKsnsn}", "nodes", (unsigned long long)S->nodes,
                         "beta_cuts", (unsigned long long)S->beta_cuts, "first_cuts",
                         (unsigned long long)S->first_cuts,
                         "probes", (unsigned long long)S->probes, "hits",
                         (unsigned long long)S->hits, "cuts", (unsigned long long)S->cuts,
                         "stores", (unsigned long long)S->stores,
                         "similar", (unsigned long long)S->similar, "similar_cuts",
                         (unsigned long long)S->similar_cuts, "entries", (Py_ssize_t)used,
                         "capacity", (Py_ssize_t)total);
}

static PyMethodDef Search_methods[] = {
    {"test", (PyCFunction)(void (*)(void))Search_test, METH_VARARGS | METH_KEYWORDS,
     "test(position, beta, node_limit=0, time_limit=0.0) -> (g, best, nodes, complete)\n"
     "Fail-soft null-window test: g >= beta means value >= g, g < beta value <= g."},
    {"bounds", (PyCFunction)Search_bounds, METH_O, "bounds(position) -> (lo, hi)"},
    {"next_generation", (PyCFunction)Search_next_generation, METH_NOARGS,
     "Mark the table's entries as older (a new position is searched)."},
    {"stats", (PyCFunction)Search_stats, METH_NOARGS, "The search's counters."},
    {"profile", (PyCFunction)Search_profile, METH_NOARGS,
     "Nodes and quick-bound cut-offs by position in the trick."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "tarotnotation._kernel.Search",
    .tp_basicsize = sizeof(SearchObject),
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The double-dummy search core of one deal (see search.h).",
    .tp_methods = Search_methods,
    .tp_init = (initproc)Search_init,
    .tp_new = PyType_GenericNew,
};

static PyMethodDef methods[] = {
    {"step", k_step, METH_VARARGS, "step(led, top, card) -> (led, top)"},
    {"legal_in", k_legal_in, METH_VARARGS, "legal_in(hand, led, top) -> (legal, kind)"},
    {"first_lead", k_first_lead, METH_VARARGS, "first_lead(hand, called) -> (legal, kind)"},
    {"winner_index", k_winner_index, METH_O, "winner_index(cards) -> int | None"},
    {"excuse_wins_last_trick", k_excuse_wins_last_trick, METH_VARARGS,
     "excuse_wins_last_trick(flags, excuse_led, leader_won_all) -> bool"},
    {"petit_trick_before_last", k_petit_trick_before_last, METH_VARARGS,
     "petit_trick_before_last(excuse_led, leader_won_all, same_camp_takes_last) -> bool"},
    {"excuse_settlement", k_excuse_settlement, METH_VARARGS,
     "excuse_settlement(flags, owner, winner, last, excuse_won) -> (camp, low)"},
    {"settle_trick", k_settle_trick, METH_VARARGS,
     "settle_trick(flags, bits, winner, owner, last, excuse_won)\n"
     "-> (to_taker, to_defence, moved)"},
    {"winning_card", k_winning_card, METH_VARARGS, "winning_card(bits, led) -> card"},
    {"rule_in", k_rule_in, METH_VARARGS,
     "rule_in(hand, led, top, called=None) -> (legal, kind, led, top)"},
    {"unplayed_camp", k_unplayed_camp, METH_O, "unplayed_camp(contract) -> camp"},
    {"petit_au_bout", k_petit_au_bout, METH_VARARGS,
     "petit_au_bout(flags, cards, winner) -> camp or -1"},
    {"chelem_camp", k_chelem_camp, METH_VARARGS, "chelem_camp(taker_tricks, tricks) -> int"},
    {"margin", k_margin, METH_VARARGS, "margin(taker_half, taker_bouts) -> int"},
    {"petit_sec", k_petit_sec, METH_O, "petit_sec(hand) -> bool"},
    {"petit_in_chien_annuls", k_petit_in_chien_annuls, METH_VARARGS,
     "petit_in_chien_annuls(annuls, contract, chien) -> bool"},
    {"outbids", k_outbids, METH_VARARGS, "outbids(bid, best) -> bool (best 0: none)"},
    {"call_fault", k_call_fault, METH_VARARGS,
     "call_fault(called, hand) -> 0 (may call), a rank lacking, or -1 (never called)"},
    {"first_leader", k_first_leader, METH_VARARGS,
     "first_leader(first, announcer) -> seat (announcer -1: none)"},
    {"ecart_forbidden", k_ecart_forbidden, METH_O, "ecart_forbidden(ecart) -> cards"},
    {"poignee_wrong_cards", k_poignee_wrong_cards, METH_O,
     "poignee_wrong_cards(shown) -> cards"},
    {"poignee_hidden_trumps", k_poignee_hidden_trumps, METH_VARARGS,
     "poignee_hidden_trumps(hand, shown) -> cards"},
    {"card_points", k_card_points, METH_O, "card_points(bits) -> half-points"},
    {"scan_text", k_scan_text, METH_VARARGS,
     "scan_text(buffer, pos, eof) -> ((players, ...), next, lines) | -1 | None"},
    {"judge_parts", k_judge_parts, METH_VARARGS,
     "judge_parts(parts, flags) -> (taker_half, scores) | None"},
    {"scan_json", k_scan_json, METH_O,
     "scan_json(line) -> (players, tags, ruleset, seats, dealer, hand_keys, hands, chien,\n"
     "words, ecart, cards, notes, scores, comments, glyph, declarations) | None"},
    {"count_lines", k_count_lines, METH_O, "count_lines(block) -> (lines, deals)"},
    {"die_with_parent", k_die_with_parent, METH_O,
     "die_with_parent(signal) -> bool (PR_SET_PDEATHSIG: False where there is none)"},
    {"check_lines", k_check_lines, METH_VARARGS,
     "check_lines(lines, start, flags, limit, specs)\n"
     "-> [(taker_half, scores, tags) | bytes | None]"},
    {"sample_fill", k_sample_fill, METH_VARARGS,
     "sample_fill(masks, sizes, random) -> [bin, ...] | None"},
    {"sample_mix", k_sample_mix, METH_VARARGS,
     "sample_mix(masks, where, most, steps, random) -> [bin, ...]"},
    {"play", (PyCFunction)(void (*)(void))k_play, METH_VARARGS | METH_KEYWORDS,
     "play(flags, hands, camps, leader, cards, called=-1, tricks=-1)\n"
     "-> (played, winners, taker_half, taker_bouts, tricks_won, petit)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "tarotnotation._kernel",
    "The rules kernel's C twin and the double-dummy search core.", -1, methods,
};

PyMODINIT_FUNC PyInit__kernel(void)
{
    if (PyType_Ready(&SearchType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    ZERO = PyLong_FromLong(0);
    HIGH_SHIFT = PyLong_FromLong(64);
    PyObject *one = PyLong_FromLong(1), *bits = PyLong_FromLong(78);
    CARDS_LIMIT = one && bits ? PyNumber_Lshift(one, bits) : NULL;
    Py_XDECREF(one);
    Py_XDECREF(bits);
    if (!ZERO || !HIGH_SHIFT || !CARDS_LIMIT) {
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return NULL;
    }
    PyModule_AddIntConstant(m, "TO_TRICK_WINNER", TK_TO_TRICK_WINNER);
    PyModule_AddIntConstant(m, "WINS_LAST_TRICK", TK_WINS_LAST_TRICK);
    PyModule_AddIntConstant(m, "CHELEM_EXCUSE", TK_CHELEM_EXCUSE);
    PyModule_AddIntConstant(m, "LEAF_SIZE", TS_LEAF_SIZE);
    PyModule_AddIntConstant(m, "PETIT_IN_CHIEN_ANNULS", JB_PETIT_IN_CHIEN_ANNULS);
    PyModule_AddIntConstant(m, "FIRST_LEAD_FREE", JB_FIRST_LEAD_FREE);
    for (int i = 0; i < JB_MAX_SEATS; i++) {
        static const char *const plain[JB_MAX_SEATS] = {"S", "E", "N", "W", "F"};
        if (!(PLAIN_IDS[i] = PyUnicode_InternFromString(plain[i]))) {
            Py_DECREF(m);
            return NULL;
        }
    }
    return m;
}
