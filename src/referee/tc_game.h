/* tc_game.h: the time control of a game for the referee, and helpers the chess and
 * xiangqi rapid/blitz rules share. */
#ifndef ARBITER_REFEREE_TC_GAME_H
#define ARBITER_REFEREE_TC_GAME_H

#include <stdbool.h>

#include "record/record.h"
#include "referee/referee.h"
#include "referee/time_control.h"

/* Decide g's time control (option, time fields, default), note it on g for the
 * reports, and return it. */
tc_kind referee_time_control(rec_game *g, const referee_options *opts);

/* The declared result: the termination marker, else a Result (PGN) or RESULT (WXF)
 * tag; or NULL. *where (when where is not NULL) is set to the place of the one used. */
const char *tc_declared_result(const rec_game *g, rec_span *where);

/* The declared result is a win for the opponent of the side that moves first
 * (White, Red) when mover_first, else of the second side. */
bool tc_opponent_won(const rec_game *g, bool mover_first);

/* A Termination tag or comment that says the game ended on time ("time forfeit",
 * "flag", "hết giờ", "超时"...). */
bool tc_text_says_time(const char *text);

#endif
