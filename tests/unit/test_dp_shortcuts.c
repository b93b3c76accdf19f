/* test_dp_shortcuts.c: the shortcuts of the dead-position analysis (FIDE 5.2.2) give
 * the answers of the full analysis. dp_static_analyse settles most open positions
 * without its fixpoint (dp_static_analyse_full runs it always); dp_is_dead skips the
 * quick static tests along a quiet probing line once quiet moves cannot change their
 * answer (dp_is_dead_full asks them at every step). Both pairs are compared on chosen
 * positions and on the positions of every game in the fixtures and the shared chess
 * corpus: each game's last position (where the referee asks, at every game end) and
 * every fourth one before it. */
#include <config.h>

#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "core/chess.h"
#include "grammar/pgn_reader.h"
#include "record/arena.h"
#include "record/record.h"
#include "referee/dead_position.h"
#include "referee/dp_static.h"
#include "referee/referee.h"

typedef struct tally {
    long positions, dead;
} tally;

/* Both analyses of pos agree: dp_static_analyse with dp_static_analyse_full (answer and
 * result), dp_is_dead with dp_is_dead_full (verdict, reason, nodes). */
static void assert_same_answers(const chess_pos *pos, tally *t)
{
    dp_static_result fast, full;
    memset(&fast, 0x5a, sizeof fast);
    memset(&full, 0xa5, sizeof full);
    int a = dp_static_analyse(pos, &fast), b = dp_static_analyse_full(pos, &full);
    if (a != b) {
        char fen[128];
        chess_pos_to_fen(pos, fen, sizeof fen);
        fail_msg("dp_static_analyse %d, full analysis %d: %s", a, b, fen);
    }
    assert_memory_equal(&fast, &full, sizeof fast);
    dp_info i1, i2;
    dp_verdict v1 = dp_is_dead(pos, 0, &i1), v2 = dp_is_dead_full(pos, 0, &i2);
    if (v1 != v2 || i1.nodes != i2.nodes || strcmp(i1.reason, i2.reason) != 0) {
        char fen[128];
        chess_pos_to_fen(pos, fen, sizeof fen);
        fail_msg("dp_is_dead %d (%s, %ld nodes), full %d (%s, %ld nodes): %s", v1, i1.reason,
                 i1.nodes, v2, i2.reason, i2.nodes, fen);
    }
    t->positions++;
    t->dead += v1 == DP_UNWINNABLE;
}

static void check_fen(const char *fen, tally *t)
{
    chess_pos pos;
    char err[160];
    if (!chess_pos_from_fen(&pos, fen, err, sizeof err))
        fail_msg("FEN '%s' refused: %s", fen, err);
    assert_same_answers(&pos, t);
}

/* Positions on both sides of each shortcut: the analysis gives up by its second round
 * (a rook, a knight, a pawn that captures or a king that steps aside in front of a
 * pawn), settles and proves (walls), or gives up later; quiet probing lines with a
 * pawn free of pawns, with none, and with walls. */
static void test_chosen_positions(void **state)
{
    (void)state;
    static const char *const fens[] = {
        "8/1k5B/7b/8/1p1p1p1p/1PpP1P1P/2P3K1/N3b3 b - - 0 1",     /* proved wall */
        "4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1",            /* settles */
        "4k3/8/8/p1p1p1p1/P1P1P1P1/8/7P/4K3 w - - 0 1",           /* a pawn runs free */
        "4k3/8/8/pRp1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1",            /* a rook ahead */
        "4k3/8/8/pNp1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1",            /* a knight ahead */
        "4k3/8/1p6/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1",          /* a pawn ahead */
        "8/8/4k3/p1p1p1p1/P1P1P1P1/4K3/8/8 w - - 0 1",            /* kings in front */
        "8/8/1k6/p1p1p1p1/P1P1P1P1/1P6/8/1K6 w - - 0 1",          /* a king ahead */
        "8/8/3k4/1p2p1p1/pP1pP1P1/P2P4/1K6/8 w - - 32 62",        /* dead: blocked */
        "8/8/3k4/1p2p1p1/pP1pP1P1/P2P4/1K6/7R w - - 32 62",       /* a rook to spare */
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "8/5k2/8/8/8/8/3K4/4B3 w - - 0 1",                        /* dead: material */
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",                  /* no pawn free of pawns */
        "6k1/5pp1/8/8/8/8/5PPP/3R2K1 b - - 0 1",                  /* the h-pawn is free */
        "7k/8/8/8/8/8/8/R5K1 w - - 0 1",                          /* no pawn at all */
        "7k/6pp/8/8/8/8/6PP/6K1 w - - 0 1",                       /* pawn endings */
        "k7/P7/1K6/8/8/8/8/8 b - - 0 1",
    };
    tally t = {0};
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++)
        check_fen(fens[i], &t);
    assert_true(t.dead >= 2);
    /* the first-round test decides these without the fixpoint, as the fixpoint does */
    chess_pos pos;
    dp_static_result r;
    char err[160];
    assert_true(chess_pos_from_fen(&pos, "4k3/8/8/pRp1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1", err,
                                   sizeof err));
    assert_int_equal(dp_static_analyse(&pos, &r), -1);
    assert_true(chess_pos_from_fen(&pos, "4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1", err,
                                   sizeof err));
    assert_int_equal(dp_static_analyse(&pos, &r), 0);
}

/* Every fourth position of a game's main line as the referee played it, and its last. */
static void check_game(rec_game *g, tally *t)
{
    referee_options opts = REFEREE_OPTIONS_DEFAULT;
    referee_chess_game(g, &opts);
    chess_pos pos;
    char err[200];
    if (!referee_chess_start(g, &pos, err, sizeof err))
        return;
    int ply = 0;
    for (const rec_node *n = g->main.first; n && n->status == REC_MOVE_OK; n = n->next, ply++) {
        if (ply % 4 == 0)
            assert_same_answers(&pos, t);
        chess_undo u;
        chess_make(&pos, n->move, &u);
    }
    assert_same_answers(&pos, t);
}

static void check_file(const char *path, tally *t)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    pgn_reader *r = pgn_reader_open(f, path);
    assert_non_null(r);
    arena a;
    arena_init(&a);
    rec_game g;
    while (pgn_reader_next(r, &g, &a) == 1) {
        if (g.kind == REC_CHESS)
            check_game(&g, t);
        arena_reset(&a);
    }
    pgn_reader_close(r);
    arena_free(&a);
    fclose(f);
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), k = strlen(tail);
    return n >= k && strcmp(s + n - k, tail) == 0;
}

/* Every .pgn file under dir, in any depth. */
static void check_tree(const char *dir, tally *t)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode))
            check_tree(path, t);
        else if (ends_with(e->d_name, ".pgn") || ends_with(e->d_name, ".PGN"))
            check_file(path, t);
    }
    closedir(d);
}

static void test_fixture_games(void **state)
{
    (void)state;
    const char *d = getenv("FIXTURES");
    tally t = {0};
    check_tree(d ? d : "fixtures", &t);
    print_message("# %ld fixture positions compared\n", t.positions);
    assert_true(t.positions > 1000);
}

/* The shared corpus; skipped, saying why, in a source tree without it. */
static void test_corpus_games(void **state)
{
    (void)state;
    const char *d = getenv("SHARED");
    d = d && *d ? d : "../shared";
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/corpus/chess", d);
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        print_message("# no shared corpus at %s (configure --with-shared=DIR)\n", d);
        skip();
    }
    tally t = {0};
    check_tree(dir, &t);
    print_message("# %ld corpus positions compared\n", t.positions);
    assert_true(t.positions > 10000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chosen_positions),
        cmocka_unit_test(test_fixture_games),
        cmocka_unit_test(test_corpus_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
