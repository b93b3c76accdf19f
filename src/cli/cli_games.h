/* cli_games.h: the loop shared by check and convert: open each input, read its games
 * one at a time, replay each through the referee, and hand it to a callback. */
#ifndef ARBITER_CLI_GAMES_H
#define ARBITER_CLI_GAMES_H

#include <stdbool.h>

#include "io/article.h"
#include "record/record.h"
#include "referee/referee.h"

/* Called once per game, after the referee; return false to stop (write error). */
typedef bool (*cli_game_fn)(rec_game *g, const char *path, void *ctx);

typedef struct cli_games_result {
    unsigned long files;
    bool io_failed;           /* an input could not be opened or read */
    bool stopped;             /* the callback asked to stop */
} cli_games_result;

typedef struct cli_games_options {
    input_format format;     /* INPUT_UNKNOWN: detect per input */
    int variant;             /* rec_game_kind for every PGN game, or -1: by its tags */
    referee_options referee;
    bool verbose;            /* say which encoding a Chinese input was read in */
} cli_games_options;

/* Read every game of every input (paths; "-" or none means stdin). */
cli_games_result cli_for_each_game(char **paths, int count, const cli_games_options *opts,
                                   cli_game_fn fn, void *ctx);

/* --variant NAME: chess or xiangqi; false for anything else. */
bool cli_parse_variant(const char *name, int *out);

/* --from NAME: pgn, wxf or article; false for anything else. */
bool cli_parse_format(const char *name, input_format *out);

#endif
