/* batch_progress.h: the progress line on stderr (bytes, games, rate, ETA), redrawn at
 * most five times a second, only when stderr is a terminal. */
#ifndef ARBITER_BATCH_PROGRESS_H
#define ARBITER_BATCH_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct batch_progress {
    bool on, shown;
    uint64_t total;          /* bytes of all inputs when known (regular files), or 0 */
    uint64_t done_bytes;     /* of the inputs already finished (sequential loop) */
    uint64_t games;
    double start, last;
} batch_progress;

/* On when wanted and stderr is a terminal; the total when every path is a regular file. */
void batch_progress_init(batch_progress *pg, char **paths, int count, bool wanted);

/* Take the line off the terminal (before anything else is written to stderr). */
void batch_progress_clear(batch_progress *pg);

/* Redraw with bytes read so far (force: even within 0.2 s of the last time). */
void batch_progress_show(batch_progress *pg, uint64_t bytes, bool force);

/* The line itself for these figures, without the terminal codes (exposed for tests):
 * elapsed seconds, bytes read, total (0: unknown). */
void batch_progress_format(char *buf, size_t size, uint64_t bytes, uint64_t total,
                           uint64_t games, double elapsed);

#endif
