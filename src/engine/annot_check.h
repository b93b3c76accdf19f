/* annot_check.h: checks what a game's annotations claim against the board. Runs after
 * the referee (moves resolved). Without an engine only what arbiter decides itself:
 * claims of a forced mate in at most ANNOT_MATE_MAX moves (mate-claim). */
#ifndef ARBITER_ENGINE_ANNOT_CHECK_H
#define ARBITER_ENGINE_ANNOT_CHECK_H

#include "record/record.h"

#define ANNOT_MATE_MAX 5              /* deepest claim decided by arbiter's own search */

void annot_check_game(rec_game *g);

#endif
