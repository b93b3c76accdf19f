/* cli_games.h: the loop shared by check and convert: open each input, read its games
 * one at a time, replay each through the referee, and hand it to a sink.
 *
 * With jobs > 1, PGN inputs are cut into pieces of whole games (256 KiB, smaller near
 * the end of a file) by the calling thread, each piece is read and replayed by one of
 * jobs - 1 worker threads or by the calling thread into its own buffers, and the
 * calling thread writes the pieces out in input order, so the output is byte for byte
 * that of jobs = 1 (positions and game numbers are those of the whole input). */
#ifndef ARBITER_CLI_GAMES_H
#define ARBITER_CLI_GAMES_H

#include <stdbool.h>
#include <stdio.h>

#include "io/article.h"
#include "record/record.h"
#include "referee/referee.h"

/* Where a game's number was written in a piece's output, so the writer can turn the
 * number within the piece into the number within the file. NULL when not needed. */
typedef struct cli_marks cli_marks;

/* Record that the first occurrence of needle at or after byte from of stream (the
 * out or err stream handed to begin) is followed by the game's number. */
void cli_mark_index(cli_marks *m, FILE *stream, long from, const char *needle);

/* A consumer of games. begin makes a part writing to out and err (called in a worker;
 * it may only read ctx); game is called for each game (path: the input for source
 * lines, NULL when offsets do not match the file); finish flushes the part (worker);
 * merge folds it into ctx and frees it, in input order (keep false: just free it).
 * game, finish and merge return false on a write error. */
typedef struct cli_game_sink {
    void *(*begin)(void *ctx, FILE *out, FILE *err);
    bool (*game)(rec_game *g, const char *path, void *part, cli_marks *marks);
    bool (*finish)(void *part);
    bool (*merge)(void *ctx, void *part, bool keep);
} cli_game_sink;

typedef struct cli_games_result {
    unsigned long files;
    bool io_failed;           /* an input could not be opened or read */
    bool stopped;             /* the sink asked to stop */
} cli_games_result;

typedef struct cli_games_options {
    input_format format;     /* INPUT_UNKNOWN: detect per input */
    int variant;             /* rec_game_kind for every PGN game, or -1: by its tags */
    referee_options referee;
    bool verbose;            /* say which encoding a Chinese input was read in */
    int jobs;                /* worker threads; 0: one per core; 1: no threads */
    bool progress;           /* a progress line on stderr when it is a terminal */
} cli_games_options;

/* Read every game of every input (paths; "-" or none means stdin). out and err are
 * the final streams. */
cli_games_result cli_run_games(char **paths, int count, const cli_games_options *opts,
                               const cli_game_sink *sink, void *ctx, FILE *out, FILE *err);

/* The simple form, one thread: fn for each game ("path" as for sink->game). */
typedef bool (*cli_game_fn)(rec_game *g, const char *path, void *ctx);
cli_games_result cli_for_each_game(char **paths, int count, const cli_games_options *opts,
                                   cli_game_fn fn, void *ctx);

/* Where to cut PGN text buf[0..len) at or after from: the start of a tag line whose
 * previous non-blank line is not a tag line (the start of a game's tag section); 0 if
 * none. The cut of -j's pieces, and of 'arbiter split'. */
size_t cli_find_cut(const char *buf, size_t len, size_t from);

/* -j N: a number of jobs from 1 to 256; false for anything else. */
bool cli_parse_jobs(const char *text, int *out);

/* --variant NAME: chess or xiangqi; false for anything else. */
bool cli_parse_variant(const char *name, int *out);

/* --from NAME: pgn, wxf or article; false for anything else. */
bool cli_parse_format(const char *name, input_format *out);

#endif
