/* test_tour.c: the horse's tour (src/tour): moves, search, verification, names. */
#include <config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/xiangqi_internal.h"
#include "tour/tour.h"

static tour_result res;

/* On the 9x10 board the tour's horse moves are the core's (Art. 4.3e, leg unblocked). */
static void test_moves_match_core(void **state)
{
    (void)state;
    xq_tables_init();
    for (int sq = 0; sq < XQ_SQUARES; sq++) {
        int to[8];
        int n = tour_horse_moves(9, 10, sq, to);
        assert_int_equal(n, xq_tab.horse_n[sq]);
        for (int i = 0; i < n; i++) {
            bool in_core = false;
            for (int j = 0; j < xq_tab.horse_n[sq]; j++)
                in_core = in_core || xq_tab.horse_to[sq][j] == to[i];
            assert_true(in_core);
        }
    }
    int to[8];
    assert_int_equal(tour_horse_moves(9, 10, 0, to), 2);     /* a corner */
    assert_int_equal(tour_horse_moves(9, 10, 40, to), 8);    /* e4, the middle */
    assert_int_equal(tour_horse_moves(1, 1, 0, to), 0);
}

/* The article's claim: a tour exists from every one of the 90 points. */
static void test_xiangqi_every_point(void **state)
{
    (void)state;
    for (int sq = 0; sq < 90; sq++) {
        tour_request req = {9, 10, sq, false, 0};
        char err[120] = "";
        assert_true(tour_solve(&req, &res));
        assert_int_equal(res.status, TOUR_FOUND);
        assert_int_equal(res.path[0], sq);
        if (!tour_verify(9, 10, res.path, false, err, sizeof err))
            fail_msg("tour from %d: %s", sq, err);
    }
}

static void test_closed_tours(void **state)
{
    (void)state;
    char err[120];
    tour_request req = {8, 8, 0, true, 0};
    assert_true(tour_solve(&req, &res));
    assert_int_equal(res.status, TOUR_FOUND);
    assert_true(tour_verify(8, 8, res.path, true, err, sizeof err));
    req = (tour_request){9, 10, 4, true, 0};
    assert_true(tour_solve(&req, &res));
    assert_int_equal(res.status, TOUR_FOUND);
    assert_true(tour_verify(9, 10, res.path, true, err, sizeof err));
    /* an odd number of points: no closed tour, known without searching */
    req = (tour_request){7, 7, 0, true, 0};
    assert_true(tour_solve(&req, &res));
    assert_int_equal(res.status, TOUR_NONE);
    assert_true(res.nodes == 0);
}

/* 5x5: open tours start only on the 13 points of the corners' colour; from the others
 * the search ends having tried everything. */
static void test_five_by_five(void **state)
{
    (void)state;
    int found = 0;
    for (int sq = 0; sq < 25; sq++) {
        tour_request req = {5, 5, sq, false, 0};
        char err[120];
        assert_true(tour_solve(&req, &res));
        bool even = (sq % 5 + sq / 5) % 2 == 0;
        assert_int_equal(res.status, even ? TOUR_FOUND : TOUR_NONE);
        if (res.status == TOUR_FOUND) {
            assert_true(tour_verify(5, 5, res.path, false, err, sizeof err));
            found++;
        }
    }
    assert_int_equal(found, 13);
    tour_request req = {4, 4, 0, false, 0};
    assert_true(tour_solve(&req, &res));
    assert_int_equal(res.status, TOUR_NONE);
}

static void test_budget(void **state)
{
    (void)state;
    tour_request req = {5, 5, 1, false, 10};
    assert_true(tour_solve(&req, &res));
    assert_int_equal(res.status, TOUR_GAVE_UP);
    assert_true(res.nodes <= 10);
    req = (tour_request){10, 10, 0, false, 0};
    req.start = 100;
    assert_false(tour_solve(&req, &res)); /* off the board */
    req = (tour_request){27, 2, 0, false, 0};
    assert_false(tour_solve(&req, &res));
}

static void test_verify_rejects(void **state)
{
    (void)state;
    char err[120];
    tour_request req = {8, 8, 0, false, 0};
    assert_true(tour_solve(&req, &res));
    int path[64];
    memcpy(path, res.path, sizeof path);
    assert_true(tour_verify(8, 8, path, false, err, sizeof err));
    path[2] = path[0]; /* back to the start: a horse move, but a point twice */
    assert_false(tour_verify(8, 8, path, false, err, sizeof err));
    assert_non_null(strstr(err, "twice"));
    memcpy(path, res.path, sizeof path);
    int t = path[10]; /* two points swapped: some step is no longer a jump */
    path[10] = path[11];
    path[11] = t;
    assert_false(tour_verify(8, 8, path, false, err, sizeof err));
    assert_non_null(strstr(err, "horse move"));
    memcpy(path, res.path, sizeof path);
    path[5] = 64;
    assert_false(tour_verify(8, 8, path, false, err, sizeof err));
    /* an open tour of 5x5 (25 points, an odd number) cannot close */
    req = (tour_request){5, 5, 0, false, 0};
    assert_true(tour_solve(&req, &res));
    assert_true(tour_verify(5, 5, res.path, false, err, sizeof err));
    assert_false(tour_verify(5, 5, res.path, true, err, sizeof err));
    assert_non_null(strstr(err, "last point"));
}

static void test_point_names(void **state)
{
    (void)state;
    char buf[4];
    tour_point_name(9, 10, 81, buf);
    assert_string_equal(buf, "a9");
    tour_point_name(9, 10, 4, buf);
    assert_string_equal(buf, "e0");
    tour_point_name(8, 8, 0, buf);
    assert_string_equal(buf, "a1");
    tour_point_name(26, 26, 26 * 26 - 1, buf);
    assert_string_equal(buf, "z26");
    assert_int_equal(tour_point_parse(9, 10, "a9"), 81);
    assert_int_equal(tour_point_parse(9, 10, "i0"), 8);
    assert_int_equal(tour_point_parse(8, 8, "h8"), 63);
    assert_int_equal(tour_point_parse(8, 8, "a0"), -1);
    assert_int_equal(tour_point_parse(9, 10, "j1"), -1);
    assert_int_equal(tour_point_parse(9, 10, "a10"), -1);
    assert_int_equal(tour_point_parse(9, 10, "a"), -1);
    assert_int_equal(tour_point_parse(9, 10, "a1x"), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_moves_match_core),
        cmocka_unit_test(test_xiangqi_every_point),
        cmocka_unit_test(test_closed_tours),
        cmocka_unit_test(test_five_by_five),
        cmocka_unit_test(test_budget),
        cmocka_unit_test(test_verify_rejects),
        cmocka_unit_test(test_point_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
