/* batch_internal.h: what the batch engine's modules share (not for the commands). */
#ifndef ARBITER_BATCH_INTERNAL_H
#define ARBITER_BATCH_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "batch/batch.h"
#include "batch/batch_progress.h"
#include "io/input.h"
#include "record/arena.h"

/* Whether the file's own bytes are not the text the readers saw, so that no source
 * line can be shown from it and fix must not edit it at the reported offsets:
 * compressed input, a binary format (XQF) whose spans are byte offsets, or a GBK or
 * Big5 file transcoded to UTF-8 (fix transcodes such a file itself first). */
bool batch_no_source_text(const input *in);

/* "arbiter: " and a formatted message on stderr. */
void batch_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Every game of one open input through its format's reader, in this thread, to sink
 * (part: begun on the final streams; *part_games: its games so far, for settle). */
void batch_each_game_of(const char *path, const input *in, arena *a, const batch_options *opts,
                        const batch_sink *sink, void *ctx, void *part,
                        uint64_t *part_games, batch_progress *pg, batch_result *res);

/* batch_run with jobs > 1 (batch_pool.c). */
batch_result batch_run_parallel(char **paths, int count, const batch_options *opts,
                                const batch_sink *sink, void *ctx, FILE *out, FILE *err,
                                int jobs, batch_progress *pg);

#endif
