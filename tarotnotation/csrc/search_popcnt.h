/* Whether the search core is built a second time for x86-64 processors with the POPCNT
 * instruction (search_popcnt.c): with GCC on x86-64 (#pragma GCC target). */
#ifndef TAROT_SEARCH_POPCNT_H
#define TAROT_SEARCH_POPCNT_H

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define TS_HAS_POPCNT_BUILD 1
#else
#define TS_HAS_POPCNT_BUILD 0
#endif

#endif
