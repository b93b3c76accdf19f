/* xq_comment_lines.h: DIAG markers and move sequences in the comments of a xiangqi
 * line, checked against the positions of the line (see xq_comment_lines.c). */
#ifndef ARBITER_REFEREE_XQ_COMMENT_LINES_H
#define ARBITER_REFEREE_XQ_COMMENT_LINES_H

#include <stdbool.h>

#include "core/xiangqi.h"
#include "notation/xq_notation.h"
#include "record/record.h"

/* The positions along a line, kept only for lines whose comments need them. */
typedef struct xq_line_positions {
    xq_pos *at;              /* at[k]: the position before the line's k-th move (0-based) */
    int count;               /* positions recorded: moves replayed + 1 */
} xq_line_positions;

/* Whether line or one of its moves carries a comment. */
bool xq_line_has_comments(const rec_line *line);

/* Check the comments of line against its positions lp (moves read in notation):
 * DIAG markers and the move sequences written in them. */
void xq_check_line_comments(rec_game *g, const rec_line *line, const xq_line_positions *lp,
                            xqn_notation notation);

#endif
