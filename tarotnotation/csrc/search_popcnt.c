/* The search core (search.h) compiled a second time, for x86-64 processors with the
 * POPCNT instruction: the card counts of the bounds, the key and the moves take one
 * instruction each instead of a dozen (kernel.h's tk_popcount64), about 15% of the
 * search's time. The same source, so the same search: _kernel.c runs this build when
 * the processor has the instruction (Search(..., portable=True) never does), and the
 * tests hold the two builds to the same results, node for node. */
#include "search_popcnt.h"

#if TS_HAS_POPCNT_BUILD
#pragma GCC target("popcnt")
#include "search.h"

int ts_search_node_popcnt(ts_search *S, int beta, int root, int *best);

int ts_search_node_popcnt(ts_search *S, int beta, int root, int *best)
{
    return ts_search_node(S, beta, root, best);
}
#else
/* ISO C forbids an empty translation unit */
typedef int ts_search_popcnt_unused;
#endif
