/* The deal sampler's two loops (tarotnotation/players/sampling.py, _fill and _mix), in C.
 *
 * Both draw from the caller's random() (a Python callable: random.Random.random; a number
 * outside [0, 1) is refused), one number where the pure-Python loops draw one, in the
 * same order, so that a seed gives
 * the same deal with or without this module (tests/twins/test_sampling_twin.py
 * holds the two to the same deals).
 *
 * fill: the constraint-ordered fill. CARDS cards, card i allowed in the bins of
 *   MASKS[i]; bin b holds SIZES[b] places. The cards are taken by (bins allowed, a
 *   random key drawn for each card in turn), a stable order; each is put in one of its
 *   bins with places left, drawn with a weight of the places left there (random.choices
 *   with integer weights: the first cumulated weight above random() * total). Returns 1
 *   and each card's bin in OUT, 0 at a dead end (a card with no place left: the draws
 *   stop there), -1 with a Python error set.
 * mix: STEPS steps of the Markov chain; WHERE[i] is card i's bin, changed in place. A
 *   step draws k = 2 + int(random() * (MOST - 1)), then k cards int(random() * CARDS);
 *   when their bins are all different and each card may lie in the next one's bin, each
 *   moves there (2 <= MOST <= CARDS). Returns 0, or -1 with a Python error set (Ctrl-C
 *   is looked at every 65,536 steps).
 */
#ifndef TAROT_SAMPLING_H
#define TAROT_SAMPLING_H

#include <Python.h>

#include "kernel.h"

#define TSM_MAX_CARDS 78
#define TSM_MAX_BINS 8

static int tsm_draw(PyObject *random, double *out)
{
    PyObject *r = PyObject_CallNoArgs(random);
    if (!r)
        return -1;
    double x = PyFloat_AsDouble(r);
    if (x == -1.0 && PyErr_Occurred()) {
        Py_DECREF(r);
        return -1;
    }
    if (!(x >= 0.0 && x < 1.0)) { /* (a draw indexes the cards: never past them) */
        PyErr_Format(PyExc_ValueError, "random() gave %R, not a number in [0, 1)", r);
        Py_DECREF(r);
        return -1;
    }
    Py_DECREF(r);
    *out = x;
    return 0;
}

static int tsm_fill(int cards, const unsigned *masks, int bins, const int *sizes,
                    PyObject *random, int *out)
{
    int left[TSM_MAX_BINS];
    int order[TSM_MAX_CARDS];
    int count[TSM_MAX_CARDS];
    double key[TSM_MAX_CARDS];
    for (int b = 0; b < bins; b++)
        left[b] = sizes[b];
    for (int i = 0; i < cards; i++) {
        count[i] = tk_popcount32(masks[i]);
        if (tsm_draw(random, &key[i]) < 0)
            return -1;
        /* insertion sort: stable, as Python's sorted */
        int j = i;
        while (j > 0 && (count[order[j - 1]] > count[i]
                         || (count[order[j - 1]] == count[i] && key[order[j - 1]] > key[i]))) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    for (int n = 0; n < cards; n++) {
        int c = order[n];
        int choice[TSM_MAX_BINS];
        long cum[TSM_MAX_BINS];
        int k = 0;
        long total = 0;
        for (int b = 0; b < bins; b++)
            if (masks[c] >> b & 1 && left[b]) {
                total += left[b];
                choice[k] = b;
                cum[k++] = total;
            }
        if (!k)
            return 0;
        double x;
        if (tsm_draw(random, &x) < 0)
            return -1;
        x *= (double)total;
        int pick = 0; /* bisect_right(cum, x, 0, k - 1) */
        int hi = k - 1;
        while (pick < hi) {
            int mid = (pick + hi) / 2;
            if (x < (double)cum[mid])
                hi = mid;
            else
                pick = mid + 1;
        }
        left[choice[pick]]--;
        out[c] = choice[pick];
    }
    return 1;
}

static int tsm_mix(int cards, const unsigned *masks, int *where, int most, long steps,
                   PyObject *random)
{
    for (long s = 0; s < steps; s++) {
        if ((s & 0xffff) == 0xffff && PyErr_CheckSignals() < 0)
            return -1;
        double x;
        if (tsm_draw(random, &x) < 0)
            return -1;
        int k = 2 + (int)(x * (double)(most - 1));
        int group[TSM_MAX_BINS + 1] = {0};
        if (k > TSM_MAX_BINS) {
            PyErr_SetString(PyExc_ValueError, "too many bins to mix");
            return -1;
        }
        for (int j = 0; j < k; j++) {
            if (tsm_draw(random, &x) < 0)
                return -1;
            group[j] = (int)(x * (double)cards);
        }
        unsigned seen = 0;
        int ok = 1;
        for (int j = 0; j < k && ok; j++) {
            unsigned bit = 1u << where[group[j]];
            ok = !(seen & bit);
            seen |= bit;
        }
        for (int j = 0; j < k && ok; j++)
            ok = masks[group[j]] >> where[group[(j + 1) % k]] & 1;
        if (!ok)
            continue;
        int first = where[group[0]];
        for (int j = 0; j + 1 < k; j++)
            where[group[j]] = where[group[j + 1]];
        where[group[k - 1]] = first;
    }
    return 0;
}

#endif
