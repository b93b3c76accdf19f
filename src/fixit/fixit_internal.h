/* fixit_internal.h: what the per-game candidate generators share. */
#ifndef ARBITER_FIXIT_FIXIT_INTERNAL_H
#define ARBITER_FIXIT_FIXIT_INTERNAL_H

#include <stddef.h>

#include "fixit/fixit.h"

/* Candidates further than this from the text are not suggested. */
#define FIXIT_MAX_COST 2.05
/* A check or mate sign written that the move does not give (or gives otherwise). */
#define FIXIT_MARK_COST 0.3
/* The cost of a move an ambiguous text could mean. */
#define FIXIT_AMBIGUOUS_COST 0.45  /* below any other slip, not clearly: a fix still needs the rest */

/* text without trailing + # ! ? */
void fixit_strip(const char *text, char *buf, size_t size);

/* A replacement candidate text at cost, of group, appended to c (cap of them, *count
 * so far): NULL when it is too far from what was written or c is full. */
fixit_cand *fixit_add_replace(fixit_cand *c, int *count, int cap, const char *text,
                              double cost, int group);

/* Sort c (count of them) best first and fill out. */
void fixit_rank(fixit_cand *c, int count, int nrest, fixit_result *out);

#endif
