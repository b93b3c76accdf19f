/* dhtmlxq_writer.h: xiangqi games as DhtmlXQ blocks (dpxq.com's UBB format).
 *
 * One block per game (../shared/reference/xiangqi-databases.md §2):
 *   [DhtmlXQ]
 *   [DhtmlXQ_ver]www_dpxq_com[/DhtmlXQ_ver]
 *   metadata fields from the tags (Title title, Event event, Date date, Site place,
 *   Round round, Red red, Black black, Opening open, Annotator remark, Author author,
 *   XQFType xqftype (ours), RedTime redtime, BlackTime blacktime,
 *   TimeRule (else TimeControl) timerule,
 *   every other tag whose name is a field name [a-z0-9_] under its own name), the
 *   result in Chinese (红胜 黑胜 和棋; 未知 for unknown),
 *   binit from the FEN (only when not the standard start), movelist, one
 *   move_P_I_B per variation (ids in the order the variations come, depth first by
 *   level), commentB_N after ply N of branch B (comment0_0 on the start; a comment
 *   before a variation's first move at ply I-1 of its branch).
 *   [/DhtmlXQ]
 * Values are UTF-8; a line break is "||"; '[' is written \u005B so no value can end
 * a field. A move that did not replay is written when its text is UCCI; the rest of
 * its line is left out otherwise. NAGs have no field and are not written. */
#ifndef ARBITER_WRITER_DHTMLXQ_WRITER_H
#define ARBITER_WRITER_DHTMLXQ_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "record/record.h"

typedef struct dhtmlxq_write_options {
    bool strip_comments, strip_variations;
} dhtmlxq_write_options;

/* Write one replayed xiangqi game; false with a message in err for a game DhtmlXQ
 * cannot hold (chess, too many pieces of a kind) or a write error. */
bool dhtmlxq_write_game(FILE *out, const rec_game *g, const dhtmlxq_write_options *o,
                        unsigned *dropped, char *err, size_t errsize);

#endif
