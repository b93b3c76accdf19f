/* test_dhtmlxq_reader.c: DhtmlXQ blocks from strings: branch resolution in any order,
 * comments by branch and ply, binit, escapes, results, orphan and mismatched tags. */
#include <config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "dhtmlxq_reader.h"
#include "reader/reader.h"

typedef struct one {
    arena a;
    rec_game g;
    int rc, games;
} one;

/* Read the first game of text (and count the games). */
static void read_text(one *o, const char *text)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    assert_non_null(f);
    dhtmlxq_reader *r = dhtmlxq_reader_open(f, "t");
    assert_non_null(r);
    arena_init(&o->a);
    rec_game_init(&o->g, &o->a, "t", 1);
    o->rc = dhtmlxq_reader_next(r, &o->g, &o->a);
    o->games = o->rc == 1;
    arena scratch;
    arena_init(&scratch);
    for (;;) {
        rec_game g2;
        arena_reset(&scratch);
        rec_game_init(&g2, &scratch, "t", 2);
        if (dhtmlxq_reader_next(r, &g2, &scratch) != 1)
            break;
        o->games++;
    }
    arena_free(&scratch);
    dhtmlxq_reader_close(r);
    fclose(f);
}

static bool has_finding(const rec_game *g, const char *code, rec_severity sev)
{
    for (const rec_finding *f = g->findings; f; f = f->next)
        if (strcmp(f->code, code) == 0 && f->severity == sev)
            return true;
    return false;
}

static void test_branches_any_order(void **state)
{
    (void)state;
    /* branch 2 hangs on branch 1, which comes after it; both replace later plies */
    one o;
    read_text(&o, "<html><p>before</p>\n"
                  "[DhtmlXQ]\n"
                  "[DhtmlXQ_title]t\\u0031[/DhtmlXQ_title]\n"
                  "[DhtmlXQ_move_1_3_2]1927[/DhtmlXQ_move_1_3_2]\n"
                  "[DhtmlXQ_movelist]7747\n7242 7967[/DhtmlXQ_movelist]\n"
                  "[DhtmlXQ_move_0_2_1]10227967[/DhtmlXQ_move_0_2_1]\n"
                  "[DhtmlXQ_move_0_2_3]7062[/DhtmlXQ_move_0_2_3]\n"
                  "[DhtmlXQ_comment0]start[/DhtmlXQ_comment0]\n"
                  "[DhtmlXQ_comment1_2]one||two[/DhtmlXQ_comment1_2]\n"
                  "[DhtmlXQ_comment0_3]third[/DhtmlXQ_comment0_3]\n"
                  "[DhtmlXQ_result]红胜[/DhtmlXQ_result]\n"
                  "[/DhtmlXQ]\n<p>after</p>\n");
    assert_int_equal(o.rc, 1);
    assert_int_equal(o.games, 1);
    rec_game *g = &o.g;
    assert_int_equal(g->error_count, 0);
    assert_string_equal(rec_game_tag(g, "Title"), "t1");
    assert_string_equal(rec_game_tag(g, "Result"), "1-0");
    assert_null(rec_game_tag(g, "FEN"));
    assert_int_equal(g->start.line, 2);
    assert_int_equal(g->start.column, 1);
    const rec_node *m = g->main.first;
    assert_string_equal(m->text, "h2e2");
    assert_string_equal(m->next->text, "h7e7");
    assert_string_equal(m->next->next->text, "h0g2");
    assert_string_equal(g->main.comments->text, "start");
    assert_string_equal(m->next->next->comments->text, "third");
    /* ply 2 has two alternatives, in branch order: 1 (b9c7 h0g2) then 3 (h9g7) */
    const rec_line *v1 = m->next->variations;
    assert_non_null(v1);
    assert_string_equal(v1->first->text, "b9c7");
    assert_string_equal(v1->first->comments->text, "one\ntwo");
    assert_string_equal(v1->first->next->text, "h0g2");
    const rec_line *v3 = v1->next;
    assert_non_null(v3);
    assert_string_equal(v3->first->text, "h9g7");
    /* branch 2 replaces ply 3 of branch 1 (h0g2) */
    assert_non_null(v1->first->next->variations);
    assert_string_equal(v1->first->next->variations->first->text, "b0c2");
    arena_free(&o.a);
}

static void test_orphans_and_tags(void **state)
{
    (void)state;
    one o;
    read_text(&o, "[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]"
                  "[DhtmlXQ_blacktime][/DhtmlXQ_time]"
                  "[DhtmlXQ_move_5_1_6]1927[/DhtmlXQ_move_5_1_6]"
                  "[DhtmlXQ_move_0_9_7]1927[/DhtmlXQ_move_0_9_7]"
                  "[DhtmlXQ_result]平局吧[/DhtmlXQ_result][/DhtmlXQ]");
    rec_game *g = &o.g;
    assert_int_equal(o.rc, 1);
    assert_true(has_finding(g, "bad-dhtmlxq", REC_WARNING)); /* mismatched closing tag */
    assert_true(has_finding(g, "bad-dhtmlxq", REC_ERROR));   /* orphan branch, missing ply */
    assert_string_equal(rec_game_tag(g, "Result"), "*");
    assert_null(g->main.first->variations);
    arena_free(&o.a);
}

static void test_binit_and_side(void **state)
{
    (void)state;
    /* binit with only the kings and a black rook; the first move is Black's */
    char binit[65], text[300];
    for (int i = 0; i < 64; i++)
        binit[i] = '9';
    binit[64] = '\0';
    memcpy(binit + 2 * 4, "49", 2);  /* Red's king (slot 4) on e0 */
    memcpy(binit + 2 * 20, "40", 2); /* Black's king (slot 20) on e9 */
    memcpy(binit + 2 * 16, "09", 2); /* a Black rook (slot 16) on a0 */
    snprintf(text, sizeof text, "[DHTMLXQ][DhtmlXQ_binit]%s[/DhtmlXQ_binit]"
             "[DhtmlXQ_movelist]0908[/DhtmlXQ_movelist][/DHTMLXQ]", binit);
    one o;
    read_text(&o, text);
    rec_game *g = &o.g;
    assert_int_equal(o.rc, 1);
    assert_int_equal(g->error_count, 0);
    assert_string_equal(rec_game_tag(g, "FEN"), "4k4/9/9/9/9/9/9/9/9/r3K4 b - - 0 1");
    assert_string_equal(g->main.first->text, "a0a1");
    arena_free(&o.a);
}

static void test_version2(void **state)
{
    (void)state;
    /* the old movelist with the whole tree (Conv_Ver2): node 3 replaces node 1 (a
     * variation of the main line at ply 2), node 5 replaces node 3 (beside that branch),
     * node 6 replaces node 4 (a variation of branch 1 at ply 3); commentN is on node N */
    one o;
    read_text(&o, "[DhtmlXQ][DhtmlXQ_movelist]"
                  "774700X00 706200X01 796700X02 724200X01 796700X04 102200X03 192700X04"
                  "[/DhtmlXQ_movelist]"
                  "[DhtmlXQ_comment0]start[/DhtmlXQ_comment0]"
                  "[DhtmlXQ_comment5]on h0g2 of branch 1[/DhtmlXQ_comment5]"
                  "[DhtmlXQ_comment7]nested[/DhtmlXQ_comment7][/DhtmlXQ]");
    rec_game *g = &o.g;
    assert_int_equal(o.rc, 1);
    assert_int_equal(g->error_count, 0);
    assert_int_equal(g->warning_count, 0);
    const rec_node *m = g->main.first;
    assert_string_equal(m->text, "h2e2");
    assert_string_equal(m->next->text, "h9g7");
    assert_string_equal(m->next->next->text, "h0g2");
    assert_null(m->next->next->next);
    assert_string_equal(g->main.comments->text, "start");
    const rec_line *v1 = m->next->variations;
    assert_non_null(v1);
    assert_string_equal(v1->first->text, "h7e7");
    assert_string_equal(v1->first->next->text, "h0g2");
    assert_string_equal(v1->first->next->comments->text, "on h0g2 of branch 1");
    const rec_line *v2 = v1->next;
    assert_non_null(v2);
    assert_string_equal(v2->first->text, "b9c7");
    assert_null(v2->next);
    const rec_line *v3 = v1->first->next->variations;
    assert_non_null(v3);
    assert_string_equal(v3->first->text, "b0c2");
    assert_string_equal(v3->first->comments->text, "nested");
    arena_free(&o.a);
}

static void test_fen_field(void **state)
{
    (void)state;
    /* a board-only FEN: the first move (Black's) gives the side; binit is overruled */
    one o;
    read_text(&o, "[DhtmlXQ][DhtmlXQ_binit]8979695949392919097717866646260600102030405060708012720323436383"
                  "[/DhtmlXQ_binit][DhtmlXQ_fen]4k4/9/9/9/9/9/P8/9/4A4/3K5[/DhtmlXQ_fen]"
                  "[DhtmlXQ_movelist]4041[/DhtmlXQ_movelist][/DhtmlXQ]");
    rec_game *g = &o.g;
    assert_int_equal(o.rc, 1);
    assert_string_equal(rec_game_tag(g, "FEN"), "4k4/9/9/9/9/9/P8/9/4A4/3K5 b - - 0 1");
    assert_null(rec_game_tag(g, "fen"));
    assert_true(has_finding(g, "bad-dhtmlxq", REC_WARNING)); /* binit disagrees */
    arena_free(&o.a);
}

static void test_unterminated(void **state)
{
    (void)state;
    one o;
    read_text(&o, "[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]\n"
                  "[DhtmlXQ][DhtmlXQ_movelist]7242[/DhtmlXQ_movelist][/DhtmlXQ]");
    assert_int_equal(o.games, 2);
    assert_true(has_finding(&o.g, "bad-dhtmlxq", REC_ERROR));
    assert_string_equal(o.g.main.first->text, "h2e2");
    arena_free(&o.a);
    read_text(&o, "no block here [DhtmlXQ_title]x[/DhtmlXQ_title]");
    assert_int_equal(o.rc, 0);
    arena_free(&o.a);
}

static void test_sniff(void **state)
{
    (void)state;
    assert_int_equal(reader_sniff("x [dhtmlxq] y", 13, NULL), INPUT_DHTMLXQ);
    assert_int_equal(reader_sniff("[DhtmlXQiFrame]", 15, NULL), INPUT_DHTMLXQ);
    assert_int_equal(reader_sniff("[Event \"x\"]", 11, NULL), INPUT_PGN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_branches_any_order), cmocka_unit_test(test_orphans_and_tags),
        cmocka_unit_test(test_binit_and_side),     cmocka_unit_test(test_unterminated),
        cmocka_unit_test(test_sniff),              cmocka_unit_test(test_version2),
        cmocka_unit_test(test_fen_field),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
