/* cli_games.c: read, replay and hand over every game of every input. */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/cli_games.h"
#include "pgn_reader.h"

/* Open path for reading; NULL with a message when it is not a readable file. */
static FILE *open_input(const char *path)
{
    if (strcmp(path, "-") == 0)
        return stdin;
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        cli_error("%s: is a directory", path);
        return NULL;
    }
    FILE *in = fopen(path, "rb");
    if (!in)
        cli_error("%s: %s", path, strerror(errno));
    return in;
}

static bool each_game_of(const char *path, FILE *in, arena *a, const referee_options *ropts,
                         cli_game_fn fn, void *ctx, cli_games_result *res)
{
    pgn_reader *reader = pgn_reader_open(in, path);
    if (!reader) {
        cli_error("%s: out of memory", path);
        res->io_failed = true;
        return true;
    }
    uint64_t index = 0;
    for (;;) {
        rec_game g;
        arena_reset(a);
        rec_game_init(&g, a, path, index + 1);
        int got = pgn_reader_next(reader, &g, a);
        if (got < 0) {
            cli_error("%s: %s", path, pgn_reader_error(reader));
            res->io_failed = true;
            break;
        }
        if (got == 0)
            break;
        index++;
        g.index = index;
        referee_chess_game(&g, ropts);
        rec_game_sort_findings(&g);
        if (!fn(&g, path, ctx)) {
            res->stopped = true;
            break;
        }
    }
    pgn_reader_close(reader);
    return !res->stopped;
}

cli_games_result cli_for_each_game(char **paths, int count, const referee_options *ropts,
                                   cli_game_fn fn, void *ctx)
{
    static char *stdin_only[] = {"-"};
    cli_games_result res = {0};
    if (count == 0) {
        paths = stdin_only;
        count = 1;
    }
    arena a;
    arena_init(&a);
    for (int i = 0; i < count && !res.stopped; i++) {
        FILE *in = open_input(paths[i]);
        if (!in) {
            res.io_failed = true;
            continue;
        }
        res.files++;
        each_game_of(paths[i], in, &a, ropts, fn, ctx, &res);
        if (in != stdin)
            fclose(in);
    }
    arena_free(&a);
    return res;
}
