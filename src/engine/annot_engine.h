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

/* After the run: stop the engines, say the cost on err; false when an engine failed. */
bool annot_engine_finish(FILE *err);

#endif
