/* cli_games.c: read, replay and hand over every game of every input. */
#include <config.h>

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli/cli.h"
#include "cli/cli_games.h"
#include "io/input.h"
#include "pgn_reader.h"
#include "wxf_reader.h"

/* The readers behind one interface: PGN, or WXF (plain or inside an article). */
typedef struct game_source {
    pgn_reader *pgn;
    wxf_reader *wxf;
} game_source;

static bool source_open(game_source *s, const input *in, const char *path)
{
    memset(s, 0, sizeof *s);
    if (in->format == INPUT_WXF || in->format == INPUT_ARTICLE)
        s->wxf = wxf_reader_open(in->fp, path,
                                 in->format == INPUT_ARTICLE ? WXF_INPUT_ARTICLE : WXF_INPUT_WXF);
    else
        s->pgn = pgn_reader_open(in->fp, path);
    return s->pgn || s->wxf;
}

static int source_next(game_source *s, rec_game *g, arena *a)
{
    return s->pgn ? pgn_reader_next(s->pgn, g, a) : wxf_reader_next(s->wxf, g, a);
}

static const char *source_error(const game_source *s)
{
    return s->pgn ? pgn_reader_error(s->pgn) : wxf_reader_error(s->wxf);
}

static void source_close(game_source *s)
{
    if (s->pgn)
        pgn_reader_close(s->pgn);
    if (s->wxf)
        wxf_reader_close(s->wxf);
}

/* A PGN game is xiangqi when its tags say so: xqbase's Game "Chinese Chess",
 * WinBoard's and Fairy-Stockfish's Variant "xiangqi", or players named by colour Red
 * (wukong's files carry only Event, Red and Black). --variant decides for all. */
static void classify_pgn_game(rec_game *g, int forced)
{
    const char *game = rec_game_tag(g, "Game");
    const char *variant = rec_game_tag(g, "Variant");
    if (forced >= 0)
        g->kind = (rec_game_kind)forced;
    else if ((game && strcasecmp(game, "Chinese Chess") == 0) ||
             (variant && strcasecmp(variant, "xiangqi") == 0) || rec_game_tag(g, "Red") ||
             rec_game_tag(g, "RedTeam"))
        g->kind = REC_XIANGQI;
    if (g->kind == REC_XIANGQI && !g->result)
        /* xiangqi PGN writers often end a record without a result token (wukong): that is
         * their format, not damage */
        rec_game_set_severity(g, "missing-result", REC_INFO);
}

static void each_game_of(const char *path, const input *in, arena *a, const cli_games_options *opts,
                         cli_game_fn fn, void *ctx, cli_games_result *res)
{
    game_source src;
    if (!source_open(&src, in, path)) {
        cli_error("%s: out of memory", path);
        res->io_failed = true;
        return;
    }
    uint64_t index = 0;
    for (;;) {
        rec_game g;
        arena_reset(a);
        rec_game_init(&g, a, path, index + 1);
        int got = source_next(&src, &g, a);
        if (got < 0) {
            cli_error("%s: %s", path, source_error(&src));
            res->io_failed = true;
            break;
        }
        if (got == 0)
            break;
        index++;
        g.index = index;
        if (src.pgn)
            classify_pgn_game(&g, opts->variant);
        if (g.kind == REC_XIANGQI)
            referee_xiangqi_game(&g, &opts->referee);
        else
            referee_chess_game(&g, &opts->referee);
        rec_game_sort_findings(&g);
        if (!fn(&g, path, ctx)) {
            res->stopped = true;
            break;
        }
    }
    source_close(&src);
}

cli_games_result cli_for_each_game(char **paths, int count, const cli_games_options *opts,
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
        input in;
        char err[512];
        if (!input_open(&in, paths[i], opts->format, err, sizeof err)) {
            cli_error("%s", err);
            res.io_failed = true;
            continue;
        }
        res.files++;
        if (in.encoding != INPUT_ENC_UTF8 && opts->verbose)
            fprintf(stderr, "arbiter: %s: read as %s\n", paths[i], input_encoding_name(in.encoding));
        each_game_of(paths[i], &in, &a, opts, fn, ctx, &res);
        if (in.bad_bytes)
            fprintf(stderr, "arbiter: %s: %lu byte%s could not be read as %s and became U+FFFD\n",
                    paths[i], in.bad_bytes, in.bad_bytes == 1 ? "" : "s",
                    input_encoding_name(in.encoding));
        input_close(&in);
    }
    arena_free(&a);
    return res;
}

bool cli_parse_format(const char *name, input_format *out)
{
    if (strcmp(name, "pgn") == 0)
        *out = INPUT_PGN;
    else if (strcmp(name, "wxf") == 0)
        *out = INPUT_WXF;
    else if (strcmp(name, "article") == 0)
        *out = INPUT_ARTICLE;
    else
        return false;
    return true;
}

bool cli_parse_variant(const char *name, int *out)
{
    if (strcmp(name, "chess") == 0)
        *out = REC_CHESS;
    else if (strcmp(name, "xiangqi") == 0)
        *out = REC_XIANGQI;
    else
        return false;
    return true;
}
