/* test_dead_position.c: unit tests for the dead-position analysis
 * (src/referee/dead_position.c, FIDE 5.2.2 and 6.9): material rules, the static test for
 * blocked pawn walls, forced lines, the helpmate search and its mating lines, soundness
 * (never "unwinnable" where a mate exists) and the node budget. */
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

static void load(chess_pos *pos, const char *fen)
{
    char err[160];
    if (!chess_pos_from_fen(pos, fen, err, sizeof err))
        fail_msg("FEN '%s' refused: %s", fen, err);
}

static dp_verdict can_mate(const char *fen, int winner)
{
    chess_pos pos;
    load(&pos, fen);
    return dp_can_mate(&pos, winner, 200000, NULL);
}

static bool material_dead(const char *fen)
{
    chess_pos pos;
    load(&pos, fen);
    return dp_insufficient_material(&pos);
}

/* 5.2.2 by material: K v K, K+minor v K, bishops all on one colour are dead; the
 * positions where a mate exists (K+N v K+N, K+B v K+N, K+N+N v K, opposite bishops)
 * are not. */
static void test_material(void **state)
{
    (void)state;
    assert_true(material_dead("8/5k2/8/8/8/8/3K4/8 w - - 0 1"));
    assert_true(material_dead("8/3k4/8/8/2N5/8/3K4/8 b - - 0 1"));
    assert_true(material_dead("8/3k4/8/8/2B5/8/3K4/8 b - - 0 1"));
    assert_true(material_dead("k1K1B1B1/8/8/8/8/8/8/8 w - - 7 32"));   /* bishops on one colour */
    assert_true(material_dead("8/8/8/4k3/5b2/3K4/8/2B5 w - - 0 33"));  /* same-coloured B v B */
    assert_false(material_dead("8/4bk2/8/8/8/8/3KB3/8 w - - 0 1"));    /* opposite colours */
    assert_false(material_dead("8/8/8/4k3/8/2n5/8/K1N5 w - - 0 1"));   /* K+N v K+N */
    assert_false(material_dead("8/8/8/4k3/8/2n5/8/K1B5 w - - 0 1"));   /* K+B v K+N */
    assert_false(material_dead("8/8/8/4k3/8/2n5/8/K1n5 w - - 0 1"));   /* K v K+N+N */
    assert_false(material_dead("kbK1B1B1/8/8/8/8/8/8/8 w - - 7 32"));  /* both colours */
    assert_false(material_dead("8/8/8/8/8/4k3/4p3/4K3 w - - 0 1"));    /* a pawn */

    /* one side (6.9): K+R v K -- the king cannot mate, the rook side can */
    chess_pos pos;
    load(&pos, "8/4rk2/8/8/8/8/3K4/8 w - - 0 1");
    assert_true(dp_material_cannot_mate(&pos, CHESS_WHITE));
    assert_false(dp_material_cannot_mate(&pos, CHESS_BLACK));
    /* bishops of one colour against a rook: that side cannot mate (python-chess case) */
    load(&pos, "3b4/8/8/6b1/8/8/R7/K1k5 w - - 0 1");
    assert_true(dp_material_cannot_mate(&pos, CHESS_BLACK));
    assert_false(dp_material_cannot_mate(&pos, CHESS_WHITE));
}

/* A blocked pawn wall with the kings on either side is dead; a wall with a gap or a
 * capturable pawn is not proved. */
static void test_blocked(void **state)
{
    (void)state;
    chess_pos pos;
    load(&pos, "8/8/3k4/1p2p1p1/pP1pP1P1/P2P4/1K6/8 w - - 32 62");
    assert_true(dp_blocked_cannot_mate(&pos, CHESS_WHITE));
    assert_true(dp_blocked_cannot_mate(&pos, CHESS_BLACK));
    assert_int_equal(dp_is_dead(&pos, 0, NULL), DP_UNWINNABLE);
    /* bishops walled in on their own side, each of the colour the other side's pawns
     * would need */
    load(&pos, "2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - -");
    assert_int_equal(dp_is_dead(&pos, 0, NULL), DP_UNWINNABLE);
    /* the same wall with the h-pawns gone: the kings get through */
    load(&pos, "2b1k3/8/8/1p1p1p2/1P1P1P2/8/8/2B1K3 w - -");
    assert_false(dp_blocked_cannot_mate(&pos, CHESS_WHITE));
    assert_int_not_equal(dp_is_dead(&pos, 0, NULL), DP_UNWINNABLE);
    /* without the a-pawns the wall still holds: a4 and c5 are guarded by pawns */
    load(&pos, "8/8/3k4/1p2p1p1/1P1pP1P1/3P4/1K6/8 w - - 0 1");
    assert_true(dp_blocked_cannot_mate(&pos, CHESS_WHITE));
    /* without the b-pawns too, the kings walk round the wall */
    load(&pos, "8/8/3k4/4p1p1/3pP1P1/3P4/1K6/8 w - - 0 1");
    assert_false(dp_blocked_cannot_mate(&pos, CHESS_WHITE));
    /* a pawn that can still advance until it meets the wall */
    load(&pos, "8/8/3k4/1p2p1p1/pP1pP1P1/P2P4/1K4P1/8 w - - 0 1");
    assert_true(dp_blocked_cannot_mate(&pos, CHESS_BLACK));
    assert_true(dp_blocked_cannot_mate(&pos, CHESS_WHITE));
    /* two loose pawns facing each other: not proved (either may be taken) */
    load(&pos, "8/8/3k4/1p2p1p1/pP1pP1P1/3P4/PK6/8 w - - 0 1");
    assert_false(dp_blocked_cannot_mate(&pos, CHESS_BLACK));
}

/* Trivial progress: a forced line that ends in bare kings proves the position dead. */
static void test_forced_line(void **state)
{
    (void)state;
    chess_pos pos;
    dp_info info;
    load(&pos, "k7/P1K5/8/8/8/8/8/8 b - - 2 58"); /* Kxa7 is forced */
    assert_int_equal(dp_is_dead(&pos, 0, &info), DP_UNWINNABLE);
    /* White flags in check; Kxh5 is forced and Black is left with a bare king */
    assert_int_equal(can_mate("8/6P1/5k1K/7r/8/8/8/8 w - - 0 54", CHESS_BLACK), DP_UNWINNABLE);
}

/* Helpmates are found, with a line that really mates. */
static void test_helpmate(void **state)
{
    (void)state;
    static const struct { const char *fen; int winner; } wins[] = {
        {"8/8/8/4k3/8/2n5/8/K1N5 w - - 0 1", CHESS_WHITE},  /* K+N v K+N */
        {"8/8/8/4k3/8/2n5/8/K1N5 w - - 0 1", CHESS_BLACK},
        {"8/8/8/4k3/8/2n5/8/K1B5 w - - 0 1", CHESS_WHITE},  /* K+B v K+N */
        {"8/8/8/4k3/8/2n5/8/K1n5 w - - 0 1", CHESS_BLACK},  /* K+N+N v K */
        {"2k5/8/8/8/8/8/8/2KR4 w - - 0 1", CHESS_WHITE},    /* K+R v K */
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", CHESS_BLACK},
    };
    for (size_t i = 0; i < sizeof wins / sizeof wins[0]; i++) {
        chess_pos pos;
        dp_info info;
        load(&pos, wins[i].fen);
        dp_verdict v = dp_can_mate(&pos, wins[i].winner, 200000, &info);
        if (v != DP_WINNABLE)
            fail_msg("%s: %s can mate, got %s", wins[i].fen,
                     wins[i].winner == CHESS_WHITE ? "White" : "Black", dp_verdict_name(v));
        /* replay the line: every move legal, and it ends in mate of the loser */
        assert_true(info.line_len > 0);
        for (int k = 0; k < info.line_len; k++) {
            assert_true(chess_is_legal(&pos, info.line[k]));
            chess_undo u;
            chess_make(&pos, info.line[k], &u);
        }
        assert_true(chess_is_checkmate(&pos));
        assert_int_not_equal(pos.side, wins[i].winner);
    }
}

/* Soundness on positions with a mate: never UNWINNABLE, whatever the budget. */
static void test_never_false_unwinnable(void **state)
{
    (void)state;
    static const char *const fens[] = {
        "8/8/8/4k3/8/2n5/8/K1N5 w - - 0 1",
        "8/4bk2/8/8/8/8/3KB3/8 w - - 0 1",
        "q4r2/pR3pkp/1p2p1p1/4P3/6P1/1P3Q2/1Pr2PK1/3R4 b - - 3 29",
        "8/8/3Q4/2bK4/B7/8/1k6/8 w - - 1 68",
    };
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++)
        for (long budget = 10; budget <= 100000; budget *= 10) {
            chess_pos pos;
            load(&pos, fens[i]);
            assert_int_not_equal(dp_can_mate(&pos, CHESS_WHITE, budget, NULL), DP_UNWINNABLE);
        }
}

/* The budget bounds the work: a tiny budget gives up, a normal position is not dead and
 * the quick test answers it in a handful of nodes. */
static void test_budget(void **state)
{
    (void)state;
    chess_pos pos;
    dp_info info;
    load(&pos, "2k5/8/8/8/8/8/8/2KR4 w - - 0 1");
    assert_int_equal(dp_can_mate(&pos, CHESS_WHITE, 50, &info), DP_UNDETERMINED);
    assert_true(info.nodes <= 60);
    load(&pos, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_int_equal(dp_is_dead(&pos, 0, &info), DP_UNDETERMINED);
    assert_true(info.nodes < 50);
    assert_string_equal(dp_verdict_name(DP_WINNABLE), "winnable");
    assert_string_equal(dp_verdict_name(DP_UNWINNABLE), "unwinnable");
    assert_string_equal(dp_verdict_name(DP_UNDETERMINED), "undetermined");
}

/* line_fails follows a single legal move without counting a ply, as prove does (5.2.2):
 * a check with one reply that leaves bishops of one colour is still proved dead (the
 * forced move is a capture, then both sides have quiet bishop moves: a probe that
 * skipped the static tests after the capture would wrongly refuse the proof), and a check with one reply in an open game is refused within a few
 * nodes (the probe's line: the forced step and five more). */
static void test_forced_probe(void **state)
{
    (void)state;
    chess_pos pos;
    dp_info info;
    load(&pos, "k3b3/1Q6/8/8/8/8/8/4KB2 b - - 0 1"); /* only Kxb7 */
    assert_int_equal(dp_is_dead(&pos, 0, &info), DP_UNWINNABLE);
    assert_string_equal(info.reason, "every line ends without mate");
    assert_int_equal(dp_is_dead_full(&pos, 0, &info), DP_UNWINNABLE);
    load(&pos, "rnbqkbnr/ppppp1pp/5p2/7Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2"); /* only g6 */
    assert_int_equal(dp_is_dead(&pos, 0, &info), DP_UNDETERMINED);
    assert_true(info.nodes <= 6);
    assert_int_equal(dp_is_dead_full(&pos, 0, &info), DP_UNDETERMINED);
    assert_true(info.nodes <= 6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_material),
        cmocka_unit_test(test_blocked),
        cmocka_unit_test(test_forced_line),
        cmocka_unit_test(test_helpmate),
        cmocka_unit_test(test_never_false_unwinnable),
        cmocka_unit_test(test_budget),
        cmocka_unit_test(test_forced_probe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
