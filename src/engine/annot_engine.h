/* annot_engine.h: the annotation checks that need an engine (check --engine):
 * eval-contradicted (a position symbol the evaluation is clearly outside of) and
 * move-mark-contradicted (!/!! on a move losing a mistake's worth, ?/?? on the best
 * move). One engine and one cache connection per worker thread, opened on first use. */
#ifndef ARBITER_ENGINE_ANNOT_ENGINE_H
#define ARBITER_ENGINE_ANNOT_ENGINE_H

#include <stdbool.h>
#include <stdio.h>

#include "record/record.h"

typedef struct annot_engine_options {
    const char *command;     /* --engine: stockfish, fairy-stockfish or a path; NULL: off */
    long nodes;              /* --engine-nodes (default 100000 when depth is 0) */
    int depth;               /* --engine-depth */
    const char *cache;       /* --engine-cache FILE; NULL: the default path */
} annot_engine_options;

/* Before the run (single-threaded). */
void annot_engine_configure(const annot_engine_options *o);
bool annot_engine_enabled(void);

/* Check one replayed game (any worker thread). */
void annot_engine_game(rec_game *g);

/* For other engine-backed checks (puzzle_check.c): the evaluation of pos for its side
 * to move, in centipawns with mates as +-ANNOT_ENGINE_MATE_CP, through the cache;
 * false when the engine cannot run (said once on stderr). g gives the game's kind. */
#define ANNOT_ENGINE_MATE_CP 10000
bool annot_engine_score(const rec_game *g, const void *pos, int *cp);

/* The evaluation of pos as text from White's (Red's) view, as the engine findings give
 * it: "+1.20", "#3" / "-#3" (the engine's mate distance), "#0" / "-#0" (mated). */
bool annot_engine_eval_text(const rec_game *g, const void *pos, char *buf, size_t size);

/* The engine's "name version" for g's kind, or the command when it has not started. */
const char *annot_engine_label(const rec_game *g);

/* Win chances of a score in centipawns as lichess computes them, -1 to +1. */
double annot_engine_win_chances(int cp);

/* After the run: stop the engines, say the cost on err; false when an engine failed. */
bool annot_engine_finish(FILE *err);

#endif
