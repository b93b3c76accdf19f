/* test_doc_place.c: the document layer's placement rules (src/document/doc_play.h and
 * the two readers over it): where a run of moves starts, which number fits which
 * position, when a bad move is repaired to go on, how findings land in their game;
 * then the same rules seen through whole documents (xskak's inferred starts, skak's
 * rollback, a blog's prose runs and diagrams). */
#include <config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "document/doc_play.h"
#include "document/document.h"

/* "12... Nf3 e5": numbers and moves of a run, offsets counted in the string. */
static void run_of(move_run *r, const char *text)
{
    memset(r, 0, sizeof *r);
    const char *p = text;
    while (*p) {
        while (*p == ' ')
            p++;
        size_t n = strcspn(p, " ");
        if (n == 0)
            break;
        move_item it = {MOVE_ITEM_MOVE, (uint64_t)(p - text), (uint32_t)n, strndup(p, n), 0, false};
        if (p[n - 1] == '.') {
            it.kind = MOVE_ITEM_NUM;
            it.num = (uint32_t)atoi(p);
            it.black = n >= 3 && p[n - 2] == '.';
        }
        assert_true(move_run_push(r, &it));
        p += n;
    }
}

/* The position after the moves of text from the start. */
static doc_pos after(const char *text)
{
    doc_pos t;
    doc_pos_start(&t);
    move_run r;
    run_of(&r, text);
    for (size_t i = 0; i < r.n; i++)
        if (r.items[i].kind == MOVE_ITEM_MOVE)
            assert_true(doc_pos_play(&t, r.items[i].text));
    move_run_free(&r);
    return t;
}

static void test_counter(void **state)
{
    (void)state;
    doc_pos t = after("e4 e5 Nf3");
    assert_int_equal(t.full, 2);
    assert_true(doc_pos_black(&t));
    char fen[DOC_FEN_SIZE];
    doc_pos_fen(&t, fen, sizeof fen);
    assert_string_equal(fen, "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
    /* six fields: the FEN's own number is the article's (skak's \fenboard) */
    assert_true(doc_pos_from_fen(&t, "8/8/8/8/8/8/8/K6k w - - 0 37"));
    assert_int_equal(t.full, 37);
    /* fewer: the count starts at 1 */
    assert_true(doc_pos_from_fen(&t, "8/8/8/8/8/8/8/K6k w - - 0"));
    assert_int_equal(t.full, 1);
    assert_false(doc_pos_from_fen(&t, "not a fen"));
}

static void test_fits(void **state)
{
    (void)state;
    doc_pos t = after("e4 e5 Nf3");   /* 2... to move */
    move_run r;
    run_of(&r, "2... Nc6");
    assert_true(doc_run_fits(&r, &t));
    move_run_free(&r);
    run_of(&r, "2. Nc3");   /* White's number at Black's turn */
    assert_false(doc_run_fits(&r, &t));
    move_run_free(&r);
    run_of(&r, "3... Nc6");   /* another number */
    assert_false(doc_run_fits(&r, &t));
    move_run_free(&r);
    run_of(&r, "Nc6");   /* no number: any position */
    assert_true(doc_run_fits(&r, &t));
    move_run_free(&r);
}

/* The first candidate from which the whole run replays wins over an earlier one that
 * replays part of it; with none whole, the furthest (ties to the earlier); none when no
 * first move plays, unless the place is fixed (skak). */
static void test_pick_start(void **state)
{
    (void)state;
    doc_pos a = after("e4 e5"), b = after("d4 d5"), c = after("e4 c5"), d = after("d4 d6");
    move_run r;
    /* after 1.e4 e5 all four; after 1.e4 c5 three (no Bc5); after 1.d4 two (e2 blocks
     * Bc4) */
    run_of(&r, "Nf3 Nc6 Bc4 Bc5");
    const doc_pos *cands[] = {&c, &b, &a};
    size_t done = 99;
    assert_int_equal(doc_pick_start(&r, cands, 3, false, &done), 2);
    assert_int_equal(done, 4);
    const doc_pos *partial[] = {&b, &c};
    assert_int_equal(doc_pick_start(&r, partial, 2, false, &done), 1);
    assert_int_equal(done, 3);
    const doc_pos *ties[] = {&b, &d};
    assert_int_equal(doc_pick_start(&r, ties, 2, false, &done), 0);
    assert_int_equal(done, 2);
    move_run_free(&r);

    run_of(&r, "Ke2");   /* no position lets it be played */
    const doc_pos *no_king[] = {&b};
    assert_int_equal(doc_pick_start(&r, no_king, 1, false, &done), -1);
    assert_int_equal(done, 0);
    assert_int_equal(doc_pick_start(&r, no_king, 1, true, &done), 0);   /* skak's place */
    assert_int_equal(doc_pick_start(&r, no_king, 0, true, &done), -1);
    move_run_free(&r);
}

/* One slip is repaired only when one candidate lets the rest replay. */
static void test_certain_fix(void **state)
{
    (void)state;
    doc_pos t = after("e4 e5");
    const char *rest[] = {"Nc6", "Bb5", "a6", "Ba4"};
    san_result why;
    fixit_result fr;
    assert_true(doc_fix_wanted(&t, "Nf4", &why));
    assert_int_equal(why.status, SAN_ILLEGAL);
    assert_true(doc_fix_certain(&t, "Nf4", rest, 4, &fr));   /* Nf3 meant */
    assert_string_equal(fr.cand[0].text, "Nf3");
    assert_false(doc_fix_wanted(&t, "Nf3", &why));   /* legal: nothing to repair */
    assert_false(doc_fix_certain(&t, "Nf4", rest, 0, &fr));   /* nothing after it */
    doc_pos mate = after("f3 e5 g4 Qh4#");
    assert_false(doc_fix_wanted(&mate, "Ke2", &why));   /* after the end */
}

/* A waiting finding goes into its game at its place in the document, with its repair. */
static void test_findings_attach(void **state)
{
    (void)state;
    const char *doc = "line one\nxx Nf4 here\n";
    FILE *in = fmemopen((void *)doc, strlen(doc), "r");
    doc_map m;
    assert_true(doc_map_load(&m, in));
    fclose(in);
    doc_findings fs = {0};
    doc_finding *f = doc_findings_add(&fs, "illegal-move", REC_ERROR, 12, "bad %s", "Nf4");
    assert_non_null(f);
    f->repair = calloc(1, sizeof *f->repair);
    assert_non_null(f->repair);
    snprintf(f->repair->written, sizeof f->repair->written, "Nf4");
    snprintf(f->repair->fen, sizeof f->repair->fen, "FEN");
    f->repair->ply = 3;
    f->repair->len = 3;
    assert_non_null(doc_findings_add(&fs, "prose-unplaced", REC_INFO, 0, "plain"));
    arena a;
    arena_init(&a);
    rec_game g;
    rec_game_init(&g, &a, "mem", 1);
    doc_findings_attach(&fs, &m, &g);
    assert_int_equal(g.finding_count, 2);
    const rec_finding *x = g.findings;
    assert_string_equal(x->code, "illegal-move");
    assert_string_equal(x->message, "bad Nf4");
    assert_int_equal(x->where.line, 2);
    assert_int_equal(x->where.column, 4);
    assert_int_equal(x->ply, 3);
    assert_string_equal(x->move_text, "Nf4");
    assert_string_equal(x->fen, "FEN");
    assert_int_equal(x->next->where.line, 1);
    assert_null(x->next->move_text);
    doc_findings_free(&fs);
    arena_free(&a);
    doc_map_free(&m);
}

/* The trace of a whole document read with the document layer. */
static void trace_of(const char *doc, doc_kind kind, char *trace, size_t size)
{
    memset(trace, 0, size);
    FILE *in = fmemopen((void *)doc, strlen(doc), "r");
    FILE *t = fmemopen(trace, size - 1, "w");
    assert_non_null(in);
    assert_non_null(t);
    doc_reader *r = doc_reader_open(in, "mem", kind);
    assert_non_null(r);
    doc_reader_trace(r, t);
    arena a;
    arena_init(&a);
    rec_game g;
    int rc;
    while ((rc = doc_reader_next(r, &g, &a)) == 1)
        arena_reset(&a);
    assert_int_equal(rc, 0);
    arena_free(&a);
    doc_reader_close(r);
    fclose(t);
    fclose(in);
}

/* xskak: a variation right after a \mainline answers the main line, not the end of
 * the variation before it; a sequence that fits no position is left unplaced; skak
 * starts every \variation one ply back. */
static void test_latex_places(void **state)
{
    (void)state;
    char trace[1024];
    trace_of("\\usepackage{xskak}\n"
             "\\newchessgame\\mainline{1.e4 e5 2.Nf3}\n"
             "\\variation{2.Nc3 Nf6}\n"
             "\\mainline{2...Nc6}\n"
             "\\variation{3.Bc4}\n"
             "\\variation{9.Qh5}\n",
             DOC_LATEX, trace, sizeof trace);
    assert_non_null(strstr(trace, "3:1 \\variation placed\n"));
    assert_non_null(strstr(trace, "5:1 \\variation own-game\n"));   /* after the last move */
    assert_non_null(strstr(trace, "6:1 \\variation unplaced\n"));
    trace_of("\\usepackage{skak}\n"
             "\\newgame\\mainline{1.e4 e5 2.Nf3}\n"
             "\\variation{2.Nc3}\n"
             "\\variation{2...Nc6}\n",
             DOC_LATEX, trace, sizeof trace);
    assert_non_null(strstr(trace, "3:1 \\variation placed\n"));
    assert_non_null(strstr(trace, "4:1 \\variation skak-start-error\n"));
}

/* A blog: each prose run starts at the newest position of the prose so far whose
 * number fits, else at the initial one; a run with a slip goes on after its certain
 * fix; a run whose number fits nowhere is unplaced. */
static void test_web_places(void **state)
{
    (void)state;
    char trace[1024];
    trace_of("The game went 1. e4 e5 2. Nf3 Nc6 and then\n"
             "3. Bb5 a6 4. Ba4 Nf6 was the Spanish.\n"
             "Not 3. Bc4 Bc5 either.\n"
             "Later 30. Qh5 won.\n"
             "A slip: 1. e4 e5 2. Nf4 Nc6 3. Bb5 a6\n",
             DOC_WEB, trace, sizeof trace);
    assert_string_equal(trace, "1:15 prose placed\n"
                               "2:1 prose placed\n"
                               "3:5 prose placed\n"
                               "4:7 prose unplaced\n"
                               "5:9 prose placed\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counter),        cmocka_unit_test(test_fits),
        cmocka_unit_test(test_pick_start),     cmocka_unit_test(test_certain_fix),
        cmocka_unit_test(test_findings_attach), cmocka_unit_test(test_latex_places),
        cmocka_unit_test(test_web_places),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
