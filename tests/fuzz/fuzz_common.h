/* fuzz_common.h: what the libFuzzer harnesses share: a sink for output, the CLI's rule
 * for telling a xiangqi PGN game from a chess one, and the full pipeline after a read
 * (replay, sort findings, write PGN, write the YAML report). Neither writer may fail:
 * a game whose report cannot be written is a game lost, so that aborts. */
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static inline FILE *fuzz_sink(void)
{
    static FILE *sink;
    if (!sink)
        sink = fopen("/dev/null", "w");
    return sink;
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

#endif
