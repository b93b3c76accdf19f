/* xq_referee.h: what the xiangqi referee's modules (xq_replay.c, xq_track.c,
 * xq_comment_lines.c) share: side names in findings and the FEN of a position. */
#ifndef ARBITER_REFEREE_XQ_REFEREE_H
#define ARBITER_REFEREE_XQ_REFEREE_H

#include "core/xiangqi.h"

/* "Red" or "Black" in the user's language (defined in xq_replay.c). */
const char *xq_side_name(int side);

static inline void xq_fen_of(const xq_pos *pos, char fen[XQ_FEN_MAX])
{
    xq_pos_to_fen(pos, fen, XQ_FEN_MAX);
}

#endif
