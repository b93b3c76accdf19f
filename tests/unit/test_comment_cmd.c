/* test_comment_cmd.c: commands inside PGN comments. */
#include <config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "record/comment_cmd.h"

static int setup(void **state)
{
    arena *a = test_malloc(sizeof *a);
    arena_init(a);
    *state = a;
    return 0;
}

static int teardown(void **state)
{
    arena_free(*state);
    test_free(*state);
    return 0;
}

static void test_lichess_comment(void **state)
{
    const char *prose;
    rec_command *c = rec_comment_commands(*state, "[%clk 0:03:00] [%eval 0.25] main line", &prose);
    assert_non_null(c);
    assert_int_equal(c->kind, REC_CMD_CLK);
    assert_true(c->valid);
    assert_true(c->seconds == 180.0);
    c = c->next;
    assert_non_null(c);
    assert_int_equal(c->kind, REC_CMD_EVAL);
    assert_true(c->valid);
    assert_false(c->mate);
    assert_true(c->pawns == 0.25);
    assert_int_equal(c->depth, -1);
    assert_null(c->next);
    assert_string_equal(prose, "main line");
}

static void test_clock_forms(void **state)
{
    rec_command *c = rec_comment_commands(*state, "[%clk 1:05:23.5]", NULL);
    assert_true(c->valid);
    assert_true(c->seconds == 3923.5);
    c = rec_comment_commands(*state, "[%emt 0:00:07]", NULL);
    assert_int_equal(c->kind, REC_CMD_EMT);
    assert_true(c->seconds == 7.0);
    c = rec_comment_commands(*state, "[%clk 0:00:00]", NULL);
    assert_true(c->valid);
    assert_true(c->seconds == 0.0);
    c = rec_comment_commands(*state, "[%clk soon]", NULL);
    assert_int_equal(c->kind, REC_CMD_CLK);
    assert_false(c->valid);
    c = rec_comment_commands(*state, "[%clk 1:2:3:4]", NULL);
    assert_false(c->valid);
}

static void test_eval_forms(void **state)
{
    rec_command *c = rec_comment_commands(*state, "[%eval #-3]", NULL);
    assert_true(c->valid);
    assert_true(c->mate);
    assert_int_equal(c->mate_in, -3);
    c = rec_comment_commands(*state, "[%eval -1.30,22]", NULL);
    assert_true(c->valid);
    assert_true(c->pawns == -1.30);
    assert_int_equal(c->depth, 22);
    c = rec_comment_commands(*state, "[%eval +-]", NULL);
    assert_false(c->valid);
}

static void test_marks(void **state)
{
    rec_command *c = rec_comment_commands(*state, "x [%cal Ge2e4,rd7d5] [%csl Ya1]", NULL);
    assert_int_equal(c->kind, REC_CMD_CAL);
    assert_true(c->valid);
    assert_int_equal(c->mark_count, 2);
    assert_int_equal(c->marks[0].color, 'G');
    assert_int_equal(c->marks[0].from, 12); /* e2 */
    assert_int_equal(c->marks[0].to, 28);   /* e4 */
    assert_int_equal(c->marks[1].color, 'R');
    assert_int_equal(c->marks[1].from, 51); /* d7 */
    c = c->next;
    assert_int_equal(c->kind, REC_CMD_CSL);
    assert_int_equal(c->mark_count, 1);
    assert_int_equal(c->marks[0].from, 0);
    assert_int_equal(c->marks[0].to, -1);
    c = rec_comment_commands(*state, "[%cal Gz2e4]", NULL);
    assert_false(c->valid);
}

static void test_unknown_and_broken(void **state)
{
    const char *prose;
    rec_command *c = rec_comment_commands(*state, "before [%tqu \"En\",\"\",\"\",Nf3,\"\",0] after [%clk 1:00", &prose);
    assert_non_null(c);
    assert_int_equal(c->kind, REC_CMD_OTHER);
    assert_string_equal(c->name, "tqu");
    assert_string_equal(c->args, "\"En\",\"\",\"\",Nf3,\"\",0");
    assert_null(c->next); /* the unclosed one stays prose */
    assert_string_equal(prose, "before   after [%clk 1:00");
    assert_null(rec_comment_commands(*state, "no commands at all", &prose));
    assert_string_equal(prose, "no commands at all");
    assert_null(rec_comment_commands(*state, "", NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_lichess_comment, setup, teardown),
        cmocka_unit_test_setup_teardown(test_clock_forms, setup, teardown),
        cmocka_unit_test_setup_teardown(test_eval_forms, setup, teardown),
        cmocka_unit_test_setup_teardown(test_marks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unknown_and_broken, setup, teardown),
    };
    return cmocka_run_group_tests_name("comment_cmd", tests, NULL, NULL);
}
