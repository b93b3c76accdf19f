/* batch.h: the batch engine shared by check, convert, fix and diagram: open each
 * input, read its games one at a time through its format's reader (reader/reader.h),
 * replay each through the referee (batch_replay.h), and hand it to a sink.
 *
 * With jobs > 1, inputs whose format may be cut (PGN) are cut into pieces of whole
 * games (256 KiB, smaller near the end of a file) by the calling thread
 * (batch_cut.h), each piece is read and replayed by one of jobs - 1 worker threads or
 * by the calling thread into its own buffers, and the calling thread writes the
 * pieces out in input order (batch_pool.c), so the output is byte for byte that of
 * jobs = 1 (positions and game numbers are those of the whole input). One-game-a-file
 * formats (XQF) are decoded and replayed by the workers a file at a time; the other
 * formats are read whole, in the calling thread, in their turn.
 *
 * Hook points for per-game work:
 *  - in any thread, as the game is replayed: batch_replay() (batch_replay.c), where the
 *    referee, the annotation check and the header checks run;
 *  - in any thread, after the replay: the sink's game();
 *  - on the calling thread, in input order, once per game, after game() ran for it and
 *    before anything game() wrote for its part reaches out or err: the sink's settle()
 *    (see below). Work that depends on the games before (twins across the whole input)
 *    goes there. */
#ifndef ARBITER_BATCH_BATCH_H
#define ARBITER_BATCH_BATCH_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "io/article.h"
#include "io/input.h"
#include "record/arena.h"
#include "record/record.h"
#include "referee/referee.h"

/* "arbiter: " and the message on stderr, the one way the engine and the commands say
 * an error (cli_error is this for the command line). */
void batch_verror(const char *fmt, va_list ap);

/* Where a game's number was written in a piece's output, so the writer can turn the
 * number within the piece into the number within the file. NULL when not needed. */
typedef struct batch_marks batch_marks;

/* Record that the first occurrence of needle at or after byte from of stream (the
 * out or err stream handed to begin) is followed by the game's number. */
void batch_mark_index(batch_marks *m, FILE *stream, long from, const char *needle);

/* Append len bytes to the out stream's text, as fwrite to that stream would (it is
 * unbuffered) without going through stdio. */
void batch_out_write(batch_marks *m, const char *text, size_t len);

/* Record that the game's number begins at byte at of the out stream's text (a place
 * its writer knows, as batch_out_len before the game plus the offset in the game's
 * text: batch_mark_index without the search). */
void batch_mark_out_at(batch_marks *m, size_t at);

/* Text a sink holds a piece's diagnostics in until their games settle (settle,
 * below): an unbuffered stream appending to a buffer of the piece, emptied when the
 * piece is replayed and kept across the pieces it is reused for (not fresh memory each
 * time). The stream is the sink's to close, before its part is merged; aborts when out
 * of memory. */
FILE *batch_hold_open(batch_marks *m);

/* The start of that text, all that the stream wrote (it is unbuffered). */
const char *batch_held_text(const batch_marks *m);

/* The start of the text of the out stream handed to begin, all that it wrote (it is
 * unbuffered); offsets in it are those ftell gave. */
const char *batch_out_text(const batch_marks *m);

/* The length of the out text and of the held text: what ftell on their streams says,
 * without asking the stream (a seek through stdio's locks and the cookie). */
size_t batch_out_len(const batch_marks *m);
size_t batch_held_len(const batch_marks *m);

/* In settle: the del bytes at offset at of the out text are replaced by text[0..len)
 * when the piece is written, the text of the games not copied meanwhile. Calls are in
 * the order of at, after the game-number marks before at (batch_mark_index). */
void batch_splice(batch_marks *m, size_t at, size_t del, const char *text, size_t len);

/* A consumer of games. begin makes a part writing to out and err (called in a worker;
 * it may only read ctx); game is called for each game (path: the input for source
 * lines, NULL when offsets do not match the file); finish flushes the part (worker);
 * merge folds it into ctx and frees it, in input order (keep false: just free it).
 * game, finish and merge return false on a write error.
 *
 * settle (NULL: none) is called on the calling thread, in input order, once for each
 * game, after game() ran for it: with jobs = 1 right after game(), with pieces when the
 * piece is written, game by game, before any of the piece's text is written (index:
 * the game's number within its part, from 1; a part begun again for a piece read
 * anew starts from 1 again). A sink whose output depends on what settle learns keeps
 * the game's output from game() (batch_hold_open) and writes it from settle, to the
 * streams begin got, marking game numbers with marks as game() would; or it writes it
 * from game() and settle asks for changes to it (batch_splice). False: stop
 * writing. */
typedef struct batch_sink {
    void *(*begin)(void *ctx, FILE *out, FILE *err);
    bool (*game)(rec_game *g, const char *path, void *part, batch_marks *marks);
    bool (*finish)(void *part);
    bool (*merge)(void *ctx, void *part, bool keep);
    bool (*settle)(void *ctx, void *part, uint64_t index, batch_marks *marks);
} batch_sink;

typedef struct batch_result {
    unsigned long files;
    bool io_failed;           /* an input could not be opened or read */
    bool stopped;             /* the sink asked to stop */
} batch_result;

typedef struct batch_options {
    input_format format;     /* INPUT_UNKNOWN: detect per input */
    int variant;             /* rec_game_kind for every PGN game, or -1: by its tags */
    referee_options referee;
    bool verbose;            /* say which encoding a Chinese input was read in */
    int jobs;                /* worker threads; 0: one per core; 1: no threads */
    bool progress;           /* a progress line on stderr when it is a terminal */
} batch_options;

/* Read every game of every input (paths; "-" or none means stdin). out and err are
 * the final streams. */
batch_result batch_run(char **paths, int count, const batch_options *opts,
                       const batch_sink *sink, void *ctx, FILE *out, FILE *err);

/* Pulling the games of one open input one at a time, each read through its format's
 * reader and replayed (batch_replay.h) as opts say: the loop of batch_run with one
 * thread, and the way libarbiter (src/lib/) reads. opts and in must outlive the pull
 * (path too: the games name it). NULL when out of memory. */
typedef struct batch_pull batch_pull;
batch_pull *batch_pull_open(const input *in, const char *path, const batch_options *opts);

/* The next game into g, begun (rec_game_init) in a, which the caller owns: 1 a game, 0
 * the end, -1 a read error (batch_pull_error says it). */
int batch_next_game(batch_pull *p, rec_game *g, arena *a);

/* The read error's sentence (no path). */
const char *batch_pull_error(const batch_pull *p);

/* The input's path for source lines, or NULL when the positions are not those of the
 * file's own bytes (compressed, binary or transcoded input). */
const char *batch_pull_source_path(const batch_pull *p);

/* Games read so far. */
uint64_t batch_pull_games(const batch_pull *p);

void batch_pull_close(batch_pull *p);

/* The simple form, one thread: fn for each game ("path" as for sink->game). */
typedef bool (*batch_game_fn)(rec_game *g, const char *path, void *ctx);
batch_result batch_for_each_game(char **paths, int count, const batch_options *opts,
                                 batch_game_fn fn, void *ctx);

#endif
