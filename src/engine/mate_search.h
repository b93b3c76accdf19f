/* mate_search.h: arbiter's own forced-mate search, for chess and xiangqi, over the
 * variant interface (core/variant.h). It decides short mate claims ("mate in 3",
 * [%eval #3]) without an engine: a claim of mate in N holds when the side named has a
 * mate in at most N moves against every defence.
 *
 * Full width (no move is left out, so a "no mate" answer is a proof), checks tried
 * first, a transposition table of proven results, and a node budget: when the budget
 * runs out the answer is MATE_UNKNOWN and nobody is told anything false. Chess
 * stalemate is a draw (FIDE 5.2.1); xiangqi stalemate loses for the side that cannot
 * move (seed 001 / AXF: a side without a legal move has lost). */
#ifndef ARBITER_ENGINE_MATE_SEARCH_H
#define ARBITER_ENGINE_MATE_SEARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "core/variant.h"

typedef enum mate_verdict { MATE_NONE = 0, MATE_FOUND, MATE_UNKNOWN } mate_verdict;

#define MATE_SEARCH_MAX_MOVES 8        /* deepest claim searched (moves of the mating side) */
#define MATE_SEARCH_DEFAULT_BUDGET 1000000L

typedef struct mate_result {
    mate_verdict verdict;
    int moves;               /* MATE_FOUND: the shortest mate, in moves of the mating side */
    uint16_t first;          /* MATE_FOUND and the mating side to move: its first move */
    long nodes;              /* positions visited */
} mate_result;

/* Does the side to move in pos mate in at most n moves (1 <= n <= MATE_SEARCH_MAX_MOVES)?
 * pos is not changed. budget: nodes allowed, <= 0 for the default. */
mate_result mate_search_attacker(const variant *v, const void *pos, int n, long budget);

/* Does the side NOT to move mate in at most n of its moves, whatever the side to move
 * plays first? (A position after a move, asked about the side that made it.) */
mate_result mate_search_defender(const variant *v, const void *pos, int n, long budget);

/* The first pass of either search alone: a mate made of checks only (every defence
 * answered). MATE_FOUND is a proof, as from the searches above (which would find the
 * same); anything else is MATE_UNKNOWN. attacker: mate_search_attacker's question,
 * else mate_search_defender's. */
mate_result mate_search_quick(const variant *v, const void *pos, int n, long budget,
                              bool attacker);

/* While keep is true (the default), each thread keeps its search table between
 * searches (fewer page faults, and none of the TLB flushes that interrupt other
 * threads: see mate_search.c); a thread that searched calls mate_search_thread_done
 * before it ends, which gives its table back. */
void mate_search_keep_tables(bool keep);
void mate_search_thread_done(void);

#endif
