/* fuzz_common.h: what the libFuzzer harnesses share: a sink for output, the input as
 * a stream, the CLI's rule for telling a xiangqi PGN game from a chess one, the full
 * pipeline after a read (replay, sort findings, write PGN, write the YAML report) and
 * the loop over the games of a reader. Neither writer may fail: a game whose report
 * cannot be written is a game lost, so that aborts. */
#ifndef ARBITER_FUZZ_COMMON_H
#define ARBITER_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "record/arena.h"
#include "record/record.h"
#include "referee/referee.h"
#include "report/yaml_report.h"
#include "writer/pgn_writer.h"

#include "fuzz_text.h"

static inline FILE *fuzz_sink(void)
{
    static FILE *sink;
    if (!sink)
        sink = fopen("/dev/null", "w");
    return sink;
}

/* The input as a stream, or NULL (fmemopen refuses a zero-length buffer). */
static inline FILE *fuzz_stream(const uint8_t *data, size_t size)
{
    return size ? fmemopen((void *)data, size, "r") : NULL;
}

/* The same test as cli_games.c's classify_pgn_game. */
static inline void fuzz_classify_pgn(rec_game *g)
{
    const char *game = rec_game_tag(g, "Game");
    const char *variant = rec_game_tag(g, "Variant");
    if ((game && strcasecmp(game, "Chinese Chess") == 0) ||
        (variant && strcasecmp(variant, "xiangqi") == 0) || rec_game_tag(g, "Red") ||
        rec_game_tag(g, "RedTeam"))
        g->kind = REC_XIANGQI;
}

/* Replay, then every consumer the CLI has: the PGN writer and the YAML report. */
static inline void fuzz_after_read(rec_game *g, yaml_report *rep)
{
    referee_options opts = REFEREE_OPTIONS_DEFAULT;
    if (g->kind == REC_XIANGQI)
        referee_xiangqi_game(g, &opts);
    else
        referee_chess_game(g, &opts);
    rec_game_sort_findings(g);
    pgn_write_options w;
    memset(&w, 0, sizeof w);
    w.notation = CHESS_NOTATION_SAN;
    w.xq_notation = XQN_WXF;
    if (!pgn_write_game(fuzz_sink(), g, &w))
        abort();   /* the writer gave up on a game it was handed */
    if (rep && !yaml_report_game(rep, g)) {
        fprintf(stderr, "yaml report failed: %s\n", yaml_report_error(rep));
        abort();   /* the report could not be written: games would be lost */
    }
}

/* A reader under test: its next game into g (1: one was read), what the game's kind is
 * before the replay (NULL: as read), and one more writer after it (NULL: none). */
typedef struct fuzz_games {
    void *reader;            /* NULL: the reader refused to open, no game */
    const char *name;        /* the input's name in the findings */
    int (*next)(void *reader, rec_game *g, arena *a);
    void (*prepare)(rec_game *g);
    void (*write)(rec_game *g);
} fuzz_games;

/* Every game of the reader through the pipeline, as `arbiter check` does. */
static inline void fuzz_each_game(const fuzz_games *s)
{
    yaml_report *rep = yaml_report_open(fuzz_sink());
    arena a;
    arena_init(&a);
    for (uint64_t index = 1; s->reader; index++) {
        rec_game g;
        arena_reset(&a);
        rec_game_init(&g, &a, s->name, index);
        if (s->next(s->reader, &g, &a) != 1)
            break;
        if (s->prepare)
            s->prepare(&g);
        fuzz_after_read(&g, rep);
        if (s->write)
            s->write(&g);
    }
    if (rep)
        yaml_report_close(rep);
    arena_free(&a);
}

static inline void fuzz_as_xiangqi(rec_game *g) { g->kind = REC_XIANGQI; }

#endif
