/* test_fixit.c: unit tests for the candidate generator and its ranking (src/fixit/).
 *
 * The distance's cheap slips, chess candidates (a wrong destination, the wrong
 * castling side, a pawn capture written as a push, an ambiguous text, two plies
 * swapped, nothing close), ranking by how far the rest replays, when a fix is
 * certain, and xiangqi in WXF, Vietnamese and Chinese. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fixit/fixit_internal.h"

#define XQ_START "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

static void chess_after(chess_pos *pos, const char *const *moves, int n)
{
    chess_pos_start(pos);
    for (int i = 0; i < n; i++) {
        san_result r;
        chess_san_parse(pos, moves[i], &r);
        assert_int_equal(r.status, SAN_OK);
        chess_undo u;
        chess_make(pos, r.move, &u);
    }
}

static void xq_after(xq_pos *pos, xqn_notation n, const char *const *moves, int count)
{
    char err[160];
    assert_true(xq_pos_from_fen(pos, XQ_START, err, sizeof err));
    for (int i = 0; i < count; i++) {
        xqn_result r;
        xqn_parse(pos, n, moves[i], &r);
        assert_int_equal(r.status, XQN_OK);
        xq_undo u;
        xq_make(pos, r.move, &u);
    }
}

static void test_distance(void **state)
{
    (void)state;
    assert_true(fixit_distance("Nf3", "Nf3") == 0);
    /* a file or a digit off by one costs less than a far one */
    assert_true(fixit_distance("Nf3", "Ne3") < fixit_distance("Nf3", "Nb3"));
    assert_true(fixit_distance("C2.5", "C3.5") < fixit_distance("C2.5", "C7.5"));
    /* two characters swapped cost less than two substitutions */
    assert_true(fixit_distance("N3f", "Nf3") < 1.0);
    /* a doubled digit and WXF sign confusion are cheap */
    assert_true(fixit_distance("M716.", "M71.6") < 1.0);
    assert_true(fixit_distance("C2-5", "C2.5") <= 0.5);
    assert_true(fixit_distance("X1/2", "X1.2") <= 0.5);
    /* Chinese signs and numerals, code point by code point */
    assert_true(fixit_distance("炮二退五", "炮二平五") <= 0.5);
    assert_true(fixit_distance("炮三平五", "炮二平五") <= 0.6);
    /* front and rear markers */
    assert_true(fixit_distance("Xs-5", "Xt-5") <= 0.5);
}

static void test_chess_wrong_square(void **state)
{
    (void)state;
    static const char *const played[] = {"e4", "e5", "Nf3", "Nc6"};
    static const char *const rest[] = {"a6", "Ba4", "Nf6", "O-O", "Be7"};
    chess_pos pos;
    chess_after(&pos, played, 4);
    fixit_result r;
    fixit_chess(&pos, "Bb6", rest, 5, &r);
    assert_true(r.count >= 2);
    assert_string_equal(r.cand[0].text, "Bb5");  /* only Bb5 lets Ba4 follow */
    assert_int_equal(r.cand[0].replays, 5);
    assert_true(r.full);
    assert_true(r.certain);
    assert_true(r.cand[1].replays < 5);
}

static void test_chess_castling_side(void **state)
{
    (void)state;
    static const char *const played[] = {"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6"};
    static const char *const rest[] = {"Be7", "Re1"};
    chess_pos pos;
    chess_after(&pos, played, 8);
    fixit_result r;
    fixit_chess(&pos, "O-O-O", rest, 2, &r);
    assert_true(r.count >= 1);
    assert_string_equal(r.cand[0].text, "O-O");
    assert_true(r.certain);
    /* zeros read as the letter O */
    fixit_chess(&pos, "0-0-0", rest, 2, &r);
    assert_string_equal(r.cand[0].text, "O-O");
}

static void test_chess_pawn_push(void **state)
{
    (void)state;
    static const char *const played[] = {"e4", "d5"};
    static const char *const rest[] = {"Qxd5", "Nc3"};
    chess_pos pos;
    chess_after(&pos, played, 2);
    fixit_result r;
    fixit_chess(&pos, "d5", rest, 2, &r);   /* exd5 written as a push */
    assert_true(r.count >= 1);
    assert_string_equal(r.cand[0].text, "exd5");
}

static void test_chess_ambiguous(void **state)
{
    (void)state;
    /* both knights reach d2: the text's own candidates come first; the rest decides */
    static const char *const played[] = {"d4", "d5", "Nf3", "Nf6", "c4", "e6"};
    static const char *const rest[] = {"Be7", "Nc3"};
    chess_pos pos;
    chess_after(&pos, played, 6);
    /* Nc3 can follow only if the b-knight stayed home */
    fixit_result r;
    fixit_chess(&pos, "Nd2", rest, 2, &r);
    assert_true(r.count >= 2);
    assert_string_equal(r.cand[0].text, "Nfd2");
    assert_true(r.certain);
    /* without a rest the two are rivals: suggested, not certain */
    fixit_chess(&pos, "Nd2", rest, 0, &r);
    assert_false(r.certain);
    assert_true(strcmp(r.cand[0].text, "Nbd2") == 0 || strcmp(r.cand[0].text, "Nfd2") == 0);
    assert_true(strcmp(r.cand[1].text, "Nbd2") == 0 || strcmp(r.cand[1].text, "Nfd2") == 0);
}

static void test_chess_edge_piece_first(void **state)
{
    (void)state;
    /* rooks on a1 and f1 both reach d1 and the rest replays either way: the corner rook
     * is the likelier mover, suggested first, and the fix is not certain */
    static const char *const rest[] = {"Kg7", "h4"};
    chess_pos pos;
    char err[120];
    assert_true(chess_pos_from_fen(&pos, "6k1/8/8/8/8/8/7P/R4RK1 w - - 0 1", err, sizeof err));
    fixit_result r;
    fixit_chess(&pos, "Rd1", rest, 2, &r);
    assert_true(r.count >= 2);
    assert_string_equal(r.cand[0].text, "Rad1");
    assert_string_equal(r.cand[1].text, "Rfd1");
    assert_true(r.full);
    assert_false(r.certain);
    /* knights on b1 and f3, neither on an edge file, as far from d2: in text order */
    static const char *const played[] = {"d4", "d5", "Nf3", "Nf6", "c4", "e6"};
    static const char *const quiet[] = {"Be7"};
    chess_after(&pos, played, 6);
    fixit_chess(&pos, "Nd2", quiet, 1, &r);
    assert_string_equal(r.cand[0].text, "Nbd2");
    assert_false(r.certain);
}

static void test_rank_ambiguous_reading_beats_slip(void **state)
{
    (void)state;
    /* the text read but for its missing disambiguation (0.45) against a one-character
     * slip (0.6), both replaying the rest as written: the reading of the text wins and
     * the fix is certain; against a sign slip (0.5) it is not */
    fixit_cand c[2] = {{.text = "Rfe8", .cost = FIXIT_AMBIGUOUS_COST, .replays = 3,
                        .canon = 3, .group = 1},
                       {.text = "Rd8", .cost = 0.6, .replays = 3, .canon = 3, .group = 2}};
    fixit_result r;
    fixit_rank(c, 2, 3, &r);
    assert_string_equal(r.cand[0].text, "Rfe8");
    assert_true(r.certain);
    fixit_cand d[2] = {{.text = "Rfe8", .cost = FIXIT_AMBIGUOUS_COST, .replays = 3,
                        .canon = 3, .group = 1},
                       {.text = "Rd8", .cost = 0.5, .replays = 3, .canon = 3, .group = 2}};
    fixit_rank(d, 2, 3, &r);
    assert_false(r.certain);
}

static void test_rank_group_named_by_text(void **state)
{
    (void)state;
    /* "Raf1" with a rook on f1: Rae1 (0.6) and Rfe1 (1.5) both replay; the text's 'a'
     * names the a-rook clearly, so the fix is certain. Two of one group the text
     * names as poorly (0.6 and 0.9: a wrong disambiguation letter) stay rivals. */
    fixit_cand c[2] = {{.text = "Rae1", .cost = 0.6, .replays = 4, .canon = 4, .group = 7},
                       {.text = "Rfe1", .cost = 1.5, .replays = 4, .canon = 4, .group = 7}};
    fixit_result r;
    fixit_rank(c, 2, 4, &r);
    assert_string_equal(r.cand[0].text, "Rae1");
    assert_true(r.certain);
    fixit_cand d[2] = {{.text = "Rdd1", .cost = 0.6, .replays = 4, .canon = 4, .group = 7,
                        .prior = 12},
                       {.text = "Rad1", .cost = 0.9, .replays = 4, .canon = 4, .group = 7,
                        .prior = 4}};
    fixit_rank(d, 2, 4, &r);
    assert_false(r.certain);
    /* ...and rank as equally close: the likelier mover (the corner rook) first */
    assert_string_equal(r.cand[0].text, "Rad1");
}

static void test_chess_check_mark_written(void **state)
{
    (void)state;
    /* "Qh4+": Qh5+ (a rank off, and it checks as written) and Qg4 (a file off, no
     * check) are as close as texts; the '+' written tells them apart */
    static const char *const rest[] = {"Kf8"};
    chess_pos pos;
    char err[120];
    assert_true(chess_pos_from_fen(&pos, "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", err, sizeof err));
    fixit_result r;
    fixit_chess(&pos, "Qh4+", rest, 1, &r);
    assert_string_equal(r.cand[0].text, "Qh5+");
    assert_true(r.certain);
    /* without the sign the two are rivals */
    fixit_chess(&pos, "Qh4", rest, 1, &r);
    assert_false(r.certain);
}

static void test_chess_swapped_plies(void **state)
{
    (void)state;
    static const char *const played[] = {"e4", "c5"};
    static const char *const rest[] = {"Nf3", "d4", "cxd4", "Nxd4"};
    chess_pos pos;
    chess_after(&pos, played, 2);
    fixit_result r;
    fixit_chess(&pos, "Nc6", rest, 4, &r);   /* White's and Black's moves swapped */
    assert_true(r.count >= 1);
    assert_string_equal(r.cand[0].text, "Nf3");
    assert_int_equal(r.cand[0].kind, FIXIT_SWAP);
    assert_true(r.full);
    assert_true(r.certain);
}

static void test_chess_nothing_close(void **state)
{
    (void)state;
    chess_pos pos;
    chess_pos_start(&pos);
    fixit_result r;
    fixit_chess(&pos, "Xy9", NULL, 0, &r);
    assert_int_equal(r.count, 0);
    assert_non_null(r.none);
    assert_false(r.certain);
}

static void test_ranking_prefers_replay(void **state)
{
    (void)state;
    /* Ne3 would be the closer text for "Nf3"-like slips, but only the move that lets
     * the rest replay is first */
    static const char *const played[] = {"e4", "e5"};
    static const char *const rest[] = {"Nc6", "Bb5", "a6", "Ba4"};
    chess_pos pos;
    chess_after(&pos, played, 2);
    fixit_result r;
    fixit_chess(&pos, "Ng3", rest, 4, &r);
    assert_true(r.count >= 2);
    assert_int_equal(r.cand[0].replays, 4);
    for (int i = 1; i < r.count; i++)
        assert_true(r.cand[i].replays <= r.cand[0].replays);
    for (int i = 1; i < r.count; i++)
        if (r.cand[i].replays == r.cand[i - 1].replays && r.cand[i].canon == r.cand[i - 1].canon)
            assert_true(r.cand[i].cost >= r.cand[i - 1].cost);
}

static void test_xq_wxf(void **state)
{
    (void)state;
    static const char *const played[] = {"E3+5", "H2+3", "P3+1", "P3+1", "H2+3", "H3+4",
                                         "H8+9", "C8.5", "A4+5", "H8+7", "H3+2"};
    static const char *const rest[] = {"C8.6", "C2+3", "H2+3", "R9.8", "R9.8"};
    xq_pos pos;
    xq_after(&pos, XQN_WXF, played, 11);
    fixit_result r;
    fixit_xq(&pos, XQN_WXF, "C55+4", rest, 5, &r);   /* a doubled digit */
    assert_true(r.count >= 1);
    assert_string_equal(r.cand[0].text, "C5+4");
    assert_true(r.certain);
    fixit_xq(&pos, XQN_WXF, "C5-4", rest, 5, &r);    /* sign confusion */
    assert_string_equal(r.cand[0].text, "C5+4");
    fixit_xq(&pos, XQN_WXF, "C4+4", rest, 5, &r);    /* a file off by one */
    assert_string_equal(r.cand[0].text, "C5+4");
}

static void test_xq_vietnamese_and_chinese(void **state)
{
    (void)state;
    static const char *const vi[] = {"P2-5"};
    static const char *const vi_rest[] = {"P8-5", "M2.3"};
    xq_pos pos;
    xq_after(&pos, XQN_VIETNAMESE, vi, 1);
    fixit_result r;
    fixit_xq(&pos, XQN_VIETNAMESE, "M8/7", vi_rest, 2, &r);   /* '/' for '.' */
    assert_true(r.count >= 1);
    assert_string_equal(r.cand[0].text, "M8.7");

    static const char *const cn[] = {"炮二平五"};
    static const char *const cn_rest[] = {"马二进三", "车９平８"};
    xq_after(&pos, XQN_CHINESE, cn, 1);
    fixit_xq(&pos, XQN_CHINESE, "马８退７", cn_rest, 2, &r);    /* 退 for 进 */
    assert_true(r.count >= 1);
    assert_string_equal(r.cand[0].text, "马８进７");
    assert_true(r.certain);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_distance),
        cmocka_unit_test(test_chess_wrong_square),
        cmocka_unit_test(test_chess_castling_side),
        cmocka_unit_test(test_chess_pawn_push),
        cmocka_unit_test(test_chess_ambiguous),
        cmocka_unit_test(test_chess_edge_piece_first),
        cmocka_unit_test(test_rank_ambiguous_reading_beats_slip),
        cmocka_unit_test(test_rank_group_named_by_text),
        cmocka_unit_test(test_chess_check_mark_written),
        cmocka_unit_test(test_chess_swapped_plies),
        cmocka_unit_test(test_chess_nothing_close),
        cmocka_unit_test(test_ranking_prefers_replay),
        cmocka_unit_test(test_xq_wxf),
        cmocka_unit_test(test_xq_vietnamese_and_chinese),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
