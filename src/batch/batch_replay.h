/* batch_replay.h: what happens to every game between its reader and its sink, in the
 * thread that read it: the variant from the tags (PGN), the referee's replay, the
 * annotation check, the header checks, findings in order. The hook point for per-game
 * work that needs only the game itself (the engine check runs here). */
#ifndef ARBITER_BATCH_REPLAY_H
#define ARBITER_BATCH_REPLAY_H

#include "batch/batch.h"
#include "reader/reader.h"
#include "record/record.h"

/* A PGN game is xiangqi when its tags say so: xqbase's Game "Chinese Chess",
 * WinBoard's and Fairy-Stockfish's Variant "xiangqi", or players named by colour Red
 * (wukong's files carry only Event, Red and Black). forced >= 0 (--variant) decides. */
void batch_classify_by_tags(rec_game *g, int forced);

/* Replay g, read by a reader of format fmt, as opts say. */
void batch_replay(rec_game *g, const reader_format *fmt, const batch_options *opts);

#endif
