/* xq_annex.h: the Vietnamese annex for rapid and blitz xiangqi (seed 002, "Phụ lục 1"):
 * what an illegal move is under it, which ones must be put right, and whether a side
 * that won on time could still mate (§8). */
#ifndef ARBITER_REFEREE_XQ_ANNEX_H
#define ARBITER_REFEREE_XQ_ANNEX_H

#include <stdbool.h>

#include "core/xiangqi.h"

typedef enum xq_annex_fault {
    XQ_ANNEX_UNPLAYABLE = 0, /* no move at all on the board (no piece, own capture, the
                              * general taken): nothing can stand */
    XQ_ANNEX_ILLEGAL,        /* §4.1-4.3: a move not in the law */
    XQ_ANNEX_GENERAL_EXPOSED /* §4.4: the generals left facing, or the general left in check */
} xq_annex_fault;

/* What the illegal move m on pos is under the annex. */
xq_annex_fault xq_annex_classify(const xq_pos *pos, xq_move m);

/* §4.3: a general, advisor or elephant taken outside its points, or a soldier off its
 * file before the river, must be put right even once the opponent has moved. */
bool xq_annex_must_put_right(const xq_pos *pos, xq_move m);

/* §8: side cannot checkmate by any series of legal moves, proved from the material
 * (why: a phrase for the message). False means "not proved", not "can mate". */
bool xq_annex_cannot_mate(const xq_pos *pos, int side, const char **why);

/* §8 beyond the material: a helpmate search (both sides playing for a mate of
 * loser's general, as for chess 6.9) of at most max_plies plies and budget nodes.
 * True with the line (at most max_plies moves, in line, *len) when a position is
 * reached where the loser, to move, has no legal move (checkmate, or stalemate, which
 * also loses: Law Art. 7.1a-b). *nodes: the positions visited. */
bool xq_annex_helpmate(const xq_pos *pos, int winner, int max_plies, long budget,
                       xq_move *line, int *len, long *nodes);

#endif
