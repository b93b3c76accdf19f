/* fixit_internal.h: what the per-game candidate generators share. */
#ifndef ARBITER_FIXIT_FIXIT_INTERNAL_H
#define ARBITER_FIXIT_FIXIT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fixit/fixit.h"

/* Candidates further than this from the text are not suggested. */
#define FIXIT_MAX_COST 2.05
/* A check or mate sign written that the move does not give (or gives otherwise). */
#define FIXIT_MARK_COST 0.3
/* The cost of a move an ambiguous text could mean. */
#define FIXIT_AMBIGUOUS_COST 0.45  /* below any other slip, not clearly: a fix still needs the rest */

/* text without trailing + # ! ? */
void fixit_strip(const char *text, char *buf, size_t size);

/* text (size bytes) kept in best_text as a move's best form when cost is below *best
 * (then cost). */
void fixit_keep_cheaper(const char *text, double cost, double *best, char *best_text,
                        size_t size);

/* best, at most FIXIT_AMBIGUOUS_COST when move m is one of the count candidates an
 * ambiguous text named. */
double fixit_ambiguous_cap(double best, const uint16_t *candidates, int count, uint16_t m);

/* A replacement candidate text at cost, of group, appended to c (cap of them, *count
 * so far): NULL when it is too far from what was written or c is full. */
fixit_cand *fixit_add_replace(fixit_cand *c, int *count, int cap, const char *text,
                              double cost, int group);

/* The candidate "the move written next belongs here" (two plies in the wrong order),
 * with text, appended to c (*count so far, room left for it). */
fixit_cand *fixit_add_swap(fixit_cand *c, int *count, const char *text);

/* Sort c (count of them) best first and fill out. */
void fixit_rank(fixit_cand *c, int count, int nrest, fixit_result *out);

#endif
