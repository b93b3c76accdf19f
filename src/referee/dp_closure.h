/* dp_closure.h: decide "can winner checkmate by some series of legal moves" (FIDE
 * 5.2.2, 6.9) by a search that visits each position reachable from a position at most
 * once, cheapest first (a cost per move, as the directed helpmate search of M. Ambrona's
 * CHA weighs its moves). Positions are compared exactly (men, side, castling and en
 * passant rights; the move counters apart, which only widens what is reachable), never
 * by hash alone. Two proofs come out of it:
 *   - a mate of the loser reached: winnable, with the line to it;
 *   - every reachable position expanded (or proved unwinnable by the leaf test) without
 *     a mate of the loser: unwinnable. This happens in locked structures where only the
 *     kings and a few men shuffle. */
#ifndef ARBITER_REFEREE_DP_CLOSURE_H
#define ARBITER_REFEREE_DP_CLOSURE_H

#include <stdbool.h>

#include "core/chess.h"
#include "referee/dead_position.h"

typedef enum dp_closure_result {
    DP_CLOSURE_UNKNOWN = 0, /* budget spent or too many positions */
    DP_CLOSURE_NO_MATE,     /* every reachable position visited: no mate (unwinnable) */
    DP_CLOSURE_MATE         /* a mate of the loser is reachable (winnable) */
} dp_closure_result;

/* The most positions one call keeps (48 bytes each). */
#define DP_CLOSURE_MAX_STATES 100000L

typedef struct dp_graph_hooks {
    /* a sound proof that winner cannot mate from a position (not expanded); may be NULL */
    bool (*leaf)(const chess_pos *pos, int winner);
    /* the cost of a move (0 to 3; NULL: 1 for every move, breadth first) */
    int (*cost)(void *ctx, const chess_pos *pos, chess_move m);
    void *ctx;
} dp_graph_hooks;

/* budget: positions expanded at most. info (may be NULL) receives the mating line on
 * DP_CLOSURE_MATE (line_len 0 when over DP_LINE_MAX plies). nodes (may be NULL) receives
 * the positions expanded. */
dp_closure_result dp_graph_search(const chess_pos *root, int winner, long budget,
                                  const dp_graph_hooks *hooks, dp_info *info, long *nodes);

#endif
