/* replay_util.h: what the chess and xiangqi replays share: move findings, stopping a
 * line at a bad move, move numbers, result strings. Game-specific work (positions,
 * notation) stays in chess_replay.c and xq_replay.c. */
#ifndef ARBITER_REFEREE_REPLAY_UTIL_H
#define ARBITER_REFEREE_REPLAY_UTIL_H

#include <stdbool.h>

#include "record/record.h"

/* A finding about node n's move at ply, with the FEN before it. */
rec_finding *replay_move_finding(rec_game *g, const rec_node *n, int ply, const char *fen,
                                 const char *code, rec_severity sev, const char *msg);

/* Mark bad as the move where its line stops and report it (error); the message says
 * how many moves after it are kept as text ("Never fabricate"). */
rec_finding *replay_stop_line(rec_game *g, rec_node *bad, int ply, const char *fen,
                              const char *code, const char *msg);

/* Whether node n's written move number (if any) is the right one; cheap, for the hot
 * path: the FEN for a finding is only made when this says no. */
bool replay_move_number_ok(const rec_node *n, int fullmove, bool second_to_move);

/* A written move number must be the right one (PGN 8.2.2; WXF likewise): fullmove is the
 * number due, second_to_move whether the second player (Black) is to move. */
void replay_check_move_number(rec_game *g, const rec_node *n, int ply, const char *fen,
                              int fullmove, bool second_to_move, const char *first_name,
                              const char *second_name);

/* Whether a comment's text shows the clock run out: [%clk 0:00:00] (PGN Specification
 * Supplement); its commands are parsed only when it holds one. */
bool replay_clock_ran_out(arena *a, const char *text);

/* The start position is not usable: a bad-fen finding (error) at the FEN tag, or at the
 * game's start. */
void replay_bad_fen(rec_game *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
