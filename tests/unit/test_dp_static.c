/* test_dp_static.c: unit tests for the semi-static analysis of blocked positions
 * (src/referee/dp_static.c) and the reachable-position search (src/referee/dp_closure.c)
 * behind dp_can_mate (FIDE 5.2.2, 6.9): proofs where CHA (Ambrona, FUN 2022) labels a
 * side unable to mate, no proof where the label says a mate exists, the cases where the
 * analysis must give up, and mating lines that really mate. Labels come from the
 * D3-Chess test vectors sampled in $SHARED/corpus/rules/chess-cha-test-vectors-sample.txt. */
#include <config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/chess.h"
#include "referee/dead_position.h"
#include "referee/dp_closure.h"
#include "referee/dp_static.h"

static void load(chess_pos *pos, const char *fen)
{
    char err[160];
    if (!chess_pos_from_fen(pos, fen, err, sizeof err))
        fail_msg("FEN '%s' refused: %s", fen, err);
}

static bool static_proof(const char *fen, int winner)
{
    chess_pos pos;
    load(&pos, fen);
    return dp_static_cannot_mate(&pos, winner);
}

/* A line that is legal move by move and ends with the loser checkmated (5.1.1). */
static void assert_mating_line(const chess_pos *start, int winner, const dp_info *info)
{
    chess_pos pos = *start;
    assert_true(info->line_len > 0);
    for (int i = 0; i < info->line_len; i++) {
        assert_true(chess_is_legal(&pos, info->line[i]));
        chess_undo u;
        chess_make(&pos, info->line[i], &u);
    }
    assert_true(chess_is_checkmate(&pos));
    assert_int_not_equal(pos.side, winner);
}

/* Labelled "--" or with the side's letter '-': the analysis proves them. */
static void test_proofs(void **state)
{
    (void)state;
    /* a pawn wall with every white man below it, every black one above: the knight on
     * a1 never moves, the light bishop alone cannot cover the king's dark neighbours,
     * and Black's attacks below the wall all fall on dark squares */
    const char *wall = "8/1k5B/7b/8/1p1p1p1p/1PpP1P1P/2P3K1/N3b3 b - - 0 1";
    assert_true(static_proof(wall, CHESS_WHITE));
    assert_true(static_proof(wall, CHESS_BLACK));
    /* a file-bound pair a2/a5 cannot pass each other: no promotion, no check of the
     * king on the eighth rank */
    assert_true(static_proof("1k6/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/4K3 w - - 0 1",
                             CHESS_WHITE));
    /* dp_is_dead now sees the first one dead (5.2.2) */
    chess_pos pos;
    load(&pos, wall);
    dp_info info;
    assert_int_equal(dp_is_dead(&pos, 2000, &info), DP_UNWINNABLE);
    /* the blocked bishop of chess-dead-unwinnable-examples.txt: no static proof on the
     * board, but dp_can_mate proves White cannot mate (6.9) */
    assert_false(static_proof("1k6/1P5p/BP3p2/1P6/8/8/5PKP/8 b - - 0 1", CHESS_WHITE));
    load(&pos, "1k6/1P5p/BP3p2/1P6/8/8/5PKP/8 b - - 0 1");
    assert_int_equal(dp_can_mate(&pos, CHESS_WHITE, 50000, &info), DP_UNWINNABLE);
}

/* Where a mate exists, never a proof (soundness). */
static void test_no_false_proof(void **state)
{
    (void)state;
    assert_false(static_proof("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                              CHESS_WHITE));
    assert_false(static_proof("8/8/8/4k3/8/4K3/8/3R4 w - - 0 1", CHESS_WHITE));
    /* labelled W-: the same walls, but White can still mate */
    assert_false(static_proof("Bb1k1b2/bKp1p1p1/1pP1P1P1/pP6/6P1/P7/8/8 w - - 0 1",
                              CHESS_WHITE));
    assert_false(static_proof("7b/1k5B/7b/8/1p1p1p1p/1PpP1P1P/2P3K1/N7 b - - 0 1",
                              CHESS_WHITE));
    /* labelled -B: Black mates by bringing the bishop round */
    assert_false(static_proof("8/4kb2/8/1p1p1p1p/1P1P1P1P/1bB5/3B1K2/8 b - - 0 1",
                              CHESS_BLACK));
    /* labelled WB: the king walk wins for both */
    assert_false(static_proof("8/5p1p/k4p2/1p1p1PpP/1P1P2P1/8/8/K7 b - - 0 1", CHESS_WHITE));
}

/* The analysis gives up where it cannot argue: castling rights, a pawn that may
 * promote, an en passant capture now. */
static void test_gives_up(void **state)
{
    (void)state;
    chess_pos pos;
    dp_static_result r;
    load(&pos, "4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K2R w K - 0 1");
    assert_int_equal(dp_static_analyse(&pos, &r), -1);
    load(&pos, "4k3/8/8/p1p1p1p1/P1P1P1P1/8/7P/4K3 w - - 0 1");
    assert_int_equal(dp_static_analyse(&pos, &r), -1);
    load(&pos, "4k3/8/8/p1pPp1p1/P1P3P1/8/8/4K3 w - c6 0 1");
    assert_int_equal(dp_static_analyse(&pos, &r), -1);
    /* a settled analysis: the head-to-head pawns stand still, each king keeps to its
     * side of the wall */
    load(&pos, "4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1");
    assert_int_equal(dp_static_analyse(&pos, &r), 0);
    uint64_t pawns = pos.by_type[CHESS_PAWN];
    assert_true((r.still & pawns) == pawns);
    assert_true((r.king_region[CHESS_WHITE] & UINT64_C(0xFFFFFF0000000000)) == 0);
    assert_true((r.king_region[CHESS_BLACK] & UINT64_C(0x0000000000FFFFFF)) == 0);
}

static bool no_mate_leaf(const chess_pos *pos, int winner)
{
    return dp_material_cannot_mate(pos, winner);
}

/* Every reachable position: a closed locked position proves unwinnable; a mate found
 * comes with its line; a small budget gives no verdict. */
static void test_closure(void **state)
{
    (void)state;
    chess_pos pos;
    dp_info info;
    long nodes = 0;
    dp_graph_hooks leaf = {.leaf = dp_blocked_cannot_mate};
    /* labelled "--": the kings shuffle behind a wall; nothing else ever changes */
    load(&pos, "Bb1k1b2/bKp1p1p1/1pP1P1P1/1P6/p5P1/P7/8/8 w - - 0 1");
    memset(&info, 0, sizeof info);
    assert_int_equal(dp_graph_search(&pos, CHESS_WHITE, 20000, &leaf, &info, &nodes),
                     DP_CLOSURE_NO_MATE);
    assert_true(nodes > 1);
    /* too small a budget: no verdict */
    assert_int_equal(dp_graph_search(&pos, CHESS_WHITE, 3, &leaf, &info, &nodes),
                     DP_CLOSURE_UNKNOWN);
    /* K+Q v K: the shortest mate, breadth first */
    dp_graph_hooks plain = {.leaf = no_mate_leaf};
    load(&pos, "7k/8/6K1/8/8/8/8/1Q6 w - - 0 1");
    memset(&info, 0, sizeof info);
    assert_int_equal(dp_graph_search(&pos, CHESS_WHITE, 20000, &plain, &info, &nodes),
                     DP_CLOSURE_MATE);
    assert_int_equal(info.line_len, 1);
    assert_mating_line(&pos, CHESS_WHITE, &info);
}

/* dp_can_mate end to end on labelled vectors: the verdict agrees with the label and a
 * winnable verdict carries a line that mates. */
static void test_can_mate(void **state)
{
    (void)state;
    static const struct {
        const char *fen;
        int winner;
        dp_verdict want;
    } cases[] = {
        {"Bb1k1b2/bKp1p1p1/1pP1P1P1/1P6/p5P1/P7/8/8 w - - 0 1", CHESS_WHITE, DP_UNWINNABLE},
        {"Bb1k1b2/bKp1p1p1/1pP1P1P1/1P6/p5P1/P7/8/8 w - - 0 1", CHESS_BLACK, DP_UNWINNABLE},
        {"8/8/8/1k3p1p/3p1P2/1p1P1PpP/1P4P1/K7 b - - 0 1", CHESS_WHITE, DP_UNWINNABLE},
        {"2k5/6p1/6P1/6PK/6P1/6PR/7P/8 b - - 0 1", CHESS_BLACK, DP_UNWINNABLE},
        {"8/5p1p/k4p2/1p1p1PpP/1P1P2P1/8/8/K7 b - - 0 1", CHESS_BLACK, DP_WINNABLE},
        {"8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/5B2/8 b - - 0 1", CHESS_BLACK, DP_WINNABLE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        chess_pos pos;
        dp_info info;
        load(&pos, cases[i].fen);
        dp_verdict v = dp_can_mate(&pos, cases[i].winner, 50000, &info);
        if (v != cases[i].want)
            fail_msg("%s, %s to mate: %s, want %s", cases[i].fen,
                     cases[i].winner ? "Black" : "White", dp_verdict_name(v),
                     dp_verdict_name(cases[i].want));
        if (v == DP_WINNABLE)
            assert_mating_line(&pos, cases[i].winner, &info);
        assert_true(info.nodes <= 50000 + 256); /* the budget holds (a node's moves) */
    }
}

/* The default 6.9 check (dp_prove_unwinnable, 2000 nodes): each family of the CHA
 * sample that the static tests leave open is proved by walking every reachable
 * position, since both sides together have at most DP_CLOSED_MOVES legal moves. */
static void test_default_closed(void **state)
{
    (void)state;
    static const struct {
        const char *fen;
        int winner;
    } cases[] = {
        /* a king shut in by a pawn wall and bishops, both sides */
        {"Bb1k1b2/bKp1p1p1/1pP1P1P1/1P6/p5P1/P7/8/8 w - - 0 1", CHESS_WHITE},
        {"Bb2kb2/bKp1p1p1/1pP1P1P1/1P6/p5P1/P7/8/8 b - - 0 1", CHESS_BLACK},
        {"KbBk1b2/b1p1p1p1/1pP1P1P1/pP6/6P1/P7/8/8 b - - 0 1", CHESS_BLACK},
        /* pure pawn walls; bishops caged behind their own pawns */
        {"8/8/8/1k3p1p/3p1P2/1p1P1PpP/1P4P1/K7 b - - 0 1", CHESS_WHITE},
        {"8/8/8/1k3p1p/3p1P2/1p1P1PpP/1P4P1/K7 b - - 0 1", CHESS_BLACK},
        {"7k/8/1p6/1Pp5/2Pp4/pB1Pp1p1/P1B1P1P1/1B1B2K1 b - - 0 1", CHESS_WHITE},
        {"8/8/6pk/6pb/6pb/6p1/6P1/7K w - - 0 1", CHESS_WHITE},
        /* king and rook shut in on the h-file */
        {"2k5/6p1/6P1/6PK/6P1/6PR/7P/8 b - - 0 1", CHESS_WHITE},
        {"2k5/6p1/6P1/6PK/6P1/6PR/7P/8 b - - 0 1", CHESS_BLACK},
        /* one side has only forced moves */
        {"rnb1b3/pk1p4/p1pPp1p1/P1P1P1Pp/RBP4P/P7/5B2/7K b - - 0 1", CHESS_BLACK},
        {"1k6/1P3p1p/BP6/1P2K3/5P2/8/7P/8 w - - 0 1", CHESS_BLACK},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        chess_pos pos;
        dp_info info;
        load(&pos, cases[i].fen);
        /* without a budget only the static tests run, and they do not settle these */
        assert_int_equal(dp_prove_unwinnable(&pos, cases[i].winner, 0, &info),
                         DP_UNDETERMINED);
        dp_verdict v = dp_prove_unwinnable(&pos, cases[i].winner, 2000, &info);
        if (v != DP_UNWINNABLE)
            fail_msg("%s, %s to mate: %s", cases[i].fen, cases[i].winner ? "Black" : "White",
                     dp_verdict_name(v));
        assert_string_equal(info.reason, "every reachable position is without mate");
    }
}

/* ... and never where a mate exists, closed or not (labels W-, -B, WB, and open
 * positions); a closed position with a near helpmate does not walk its positions (the
 * WB king walk below does: its mate is too far for the helpmate search's 1000 nodes). */
static void test_default_no_false_proof(void **state)
{
    (void)state;
    static const struct {
        const char *fen;
        int winner;
    } cases[] = {
        {"Bb1k1b2/bKp1p1p1/1pP1P1P1/pP6/6P1/P7/8/8 w - - 0 1", CHESS_WHITE},
        {"Bb2kb2/bKp1p1p1/1pP1P1P1/pP6/6P1/P7/8/8 b - - 0 1", CHESS_WHITE},
        {"8/4kb2/8/1p1p1p1p/1P1P1P1P/1bB5/3B1K2/8 b - - 0 1", CHESS_BLACK},
        {"8/5p1p/k4p2/1p1p1PpP/1P1P2P1/8/8/K7 b - - 0 1", CHESS_WHITE},
        {"8/5p1p/k4p2/1p1p1PpP/1P1P2P1/8/8/K7 b - - 0 1", CHESS_BLACK},
        {"8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/5B2/8 b - - 0 1", CHESS_BLACK},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", CHESS_WHITE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        chess_pos pos;
        dp_info info;
        load(&pos, cases[i].fen);
        dp_verdict v = dp_prove_unwinnable(&pos, cases[i].winner, 2000, &info);
        if (v != DP_UNDETERMINED)
            fail_msg("%s, %s to mate: %s", cases[i].fen, cases[i].winner ? "Black" : "White",
                     dp_verdict_name(v));
    }
    /* the helpmate search finds the mate before the closure starts */
    chess_pos pos;
    dp_info info;
    load(&pos, "8/8/8/1pp3k1/5pP1/5K2/8/8 w - - 1 39");
    assert_int_equal(dp_prove_unwinnable(&pos, CHESS_BLACK, 2000, &info), DP_UNDETERMINED);
    assert_true(info.nodes < 2000);
}

/* A pawn with no man ahead on its file may promote: the analysis gives up, and
 * dp_static_cannot_mate says so before running it; with a man ahead it runs. */
static void test_free_pawn(void **state)
{
    (void)state;
    chess_pos pos;
    dp_static_result r;
    const char *free_pawn = "4k3/8/8/p1p1p1p1/P1P1P1P1/8/7P/4K3 w - - 0 1";
    load(&pos, free_pawn);
    assert_int_equal(dp_static_analyse(&pos, &r), -1);
    assert_false(static_proof(free_pawn, CHESS_WHITE));
    assert_false(static_proof(free_pawn, CHESS_BLACK));
    /* without the h-pawn every pawn has a man ahead: the analysis runs and proves */
    const char *walled = "4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1";
    load(&pos, walled);
    assert_int_equal(dp_static_analyse(&pos, &r), 0);
    assert_true(static_proof(walled, CHESS_WHITE));
    /* a black pawn with a free file down to its first rank */
    load(&pos, "4k3/7p/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1");
    assert_int_equal(dp_static_analyse(&pos, &r), -1);
    assert_false(static_proof("4k3/7p/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1", CHESS_WHITE));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_proofs),
        cmocka_unit_test(test_no_false_proof),
        cmocka_unit_test(test_gives_up),
        cmocka_unit_test(test_closure),
        cmocka_unit_test(test_can_mate),
        cmocka_unit_test(test_default_closed),
        cmocka_unit_test(test_default_no_false_proof),
        cmocka_unit_test(test_free_pawn),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
