/* test_web_reader.c: PGN in Markdown/HTML wrappers (places mapped back, tags and
 * entities, code skipped, remote sources), and moves in prose (anchoring, unplaced
 * runs, figurines, diagrams), from strings. */
#include <config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "io/article.h"
#include "reader/reader.h"
#include "referee/referee.h"
#include "document/document.h"

#define MAX_GAMES 12

typedef struct parsed {
    arena a[MAX_GAMES];
    rec_game g[MAX_GAMES];
    int n;
    char trace[2048];
} parsed;

static void parse(parsed *p, const char *doc)
{
    memset(p, 0, sizeof *p);
    FILE *f = fmemopen((void *)doc, strlen(doc), "rb");
    FILE *t = fmemopen(p->trace, sizeof p->trace - 1, "w");
    assert_non_null(f);
    assert_non_null(t);
    doc_reader *r = doc_reader_open(f, "mem.md", DOC_WEB);
    assert_non_null(r);
    doc_reader_trace(r, t);
    referee_options opts = REFEREE_OPTIONS_DEFAULT;
    for (;;) {
        assert_true(p->n < MAX_GAMES);
        arena_init(&p->a[p->n]);
        int rc = doc_reader_next(r, &p->g[p->n], &p->a[p->n]);
        if (rc != 1) {
            assert_int_equal(rc, 0);
            arena_free(&p->a[p->n]);
            break;
        }
        referee_chess_game(&p->g[p->n], &opts);
        rec_game_sort_findings(&p->g[p->n]);
        p->n++;
    }
    doc_reader_close(r);
    fclose(f);
    fclose(t);
}

static void release(parsed *p)
{
    for (int i = 0; i < p->n; i++)
        arena_free(&p->a[i]);
}

static const rec_finding *find(const rec_game *g, const char *code)
{
    for (const rec_finding *f = g->findings; f; f = f->next)
        if (strcmp(f->code, code) == 0)
            return f;
    return NULL;
}

static void test_wrappers(void **state)
{
    (void)state;
    parsed p;
    parse(&p, "Text `[pgn]1. e4[/pgn]` in code.\n"
              "[pgn width=3]1. e4 <b>e5</b> 2. Nf3 Ke7 3. Bc4 Qh4 *[/pgn]\n"
              "```pgn\n[White \"A &amp; B\"]\n\n1. d4 d5 *\n```\n"
              "```text\n<pgn>1. e4 Ke7</pgn>\n```\n"
              "<ct-pgn-viewer has-url=\"true\">x.pgn</ct-pgn-viewer>\n"
              "<div class=\"cbreplay\">1. c4 *</div>\n");
    assert_int_equal(p.n, 3);
    const rec_finding *f = find(&p.g[0], "illegal-move");
    assert_non_null(f);
    assert_int_equal(f->where.line, 2);
    assert_int_equal(f->where.column, 48);   /* Qh4, past the blanked <b> tags */
    assert_string_equal(rec_game_tag(&p.g[1], "White"), "A &amp; B");
    assert_int_equal(p.g[1].plies, 2);
    assert_int_equal(p.g[2].plies, 1);
    assert_non_null(strstr(p.trace, "11:1 <ct-pgn-viewer> remote"));
    release(&p);
}

static void test_entities_html(void **state)
{
    (void)state;
    parsed p;
    parse(&p, "<textarea id=\"pgnText\">[White &quot;A &amp; B&quot;]\n\n"
              "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0</textarea>");
    assert_int_equal(p.n, 1);
    assert_string_equal(rec_game_tag(&p.g[0], "White"), "A & B");
    assert_int_equal(p.g[0].error_count, 0);
    assert_string_equal(p.g[0].derived_result, "1-0");
    release(&p);
}

static void test_prose_anchoring(void **state)
{
    (void)state;
    parsed p;
    parse(&p, "---\ntitle: 1. e4\n---\n"
              "**1\\. e4 e5 2. Nf3 Nc6 3. Bb5**\n"
              "Black plays 3...a6 4.Ba4, while 3...Nf6 is the Berlin.\n"
              "The plan 9. Qh5 comes later.\n"
              "Then 4...Nf6 5. O-O Nxe4 6. Qe3.\n");
    /* runs: 1.e4.., 3...a6 4.Ba4, 3...Nf6, 9.Qh5 (unplaced), 4...Nf6 .. 6.Qe3 */
    assert_int_equal(p.n, 5);
    assert_int_equal(p.g[0].plies, 5);
    assert_null(rec_game_tag(&p.g[0], "FEN"));
    assert_string_equal(rec_game_tag(&p.g[1], "FEN"),
                        "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3");
    assert_int_equal(p.g[2].plies, 1);
    assert_non_null(find(&p.g[3], "prose-unplaced"));
    assert_int_equal(p.g[3].plies, 0);
    /* the newest position with Black's 4th move: after 4.Ba4 */
    const rec_finding *f = find(&p.g[4], "illegal-move");
    assert_non_null(f);
    assert_int_equal(f->where.line, 7);
    assert_int_equal(f->where.column, 29);
    assert_non_null(strstr(p.trace, "6:10 prose unplaced"));
    release(&p);
}

static void test_prose_before_its_game(void **state)
{
    (void)state;
    parsed p;
    parse(&p, "The game turns on 3...Nf6 4. d3 Bc5, see below.\n"
              "<pgn>1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. d3 *</pgn>\n");
    assert_int_equal(p.n, 2);
    assert_null(find(&p.g[0], "prose-unplaced"));
    assert_int_equal(p.g[0].plies, 3);
    assert_int_equal(p.g[0].error_count, 0);
    release(&p);
}

static void test_figurines_lists_diagrams(void **state)
{
    (void)state;
    parsed p;
    parse(&p, "1.  e4  e5\n2.  \xE2\x99\x98" "f3  \xE2\x99\x9E" "c6\n\n"
              "<fen>r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3</fen>\n"
              "[fen]8/8/8/8/8/8/8/8 w - - 0 1[/fen]\n");
    assert_int_equal(p.n, 2);
    assert_string_equal(p.g[1].main.first->text, "Nf3");
    /* the first diagram is right, the second is not */
    const rec_finding *f = find(&p.g[1], "diagram-mismatch");
    assert_non_null(f);
    assert_int_equal(f->where.line, 5);
    assert_null(f->next);
    release(&p);
}

static void test_prose_goes_on_after_a_typo(void **state)
{
    (void)state;
    parsed p;
    /* 4. Nxd5 for Nxd4: only Nxd4 lets the rest of the run replay */
    parse(&p, "**1\\. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd5 Nf6 5. Nc3 a6 6. Bg5 e6 7. f4 Be7**\n"
              "then 8. Qf3 Qc7 9. O-O-O Nbd7.\n");
    assert_int_equal(p.n, 2);
    assert_int_equal(p.g[0].plies, 14);
    const rec_finding *f = find(&p.g[0], "illegal-move");
    assert_non_null(f);
    assert_non_null(strstr(f->message, "goes on with Nxd4"));
    assert_int_equal(f->where.column, 37);
    assert_true(f->fix_certain);
    assert_string_equal(f->fix->text, "Nxd4");
    /* and the next run is placed after it */
    assert_int_equal(p.g[1].plies, 4);
    assert_int_equal(p.g[1].error_count, 0);
    release(&p);
}

static void test_sniff(void **state)
{
    (void)state;
    const char *a = "# Post\n\n<pgn>1. e4</pgn>\n";
    const char *b = "Some text\n```pgn\n1. e4\n```\n";
    assert_int_equal(reader_sniff(a, strlen(a), NULL), INPUT_WEB);
    assert_int_equal(reader_sniff(b, strlen(b), NULL), INPUT_WEB);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wrappers),
        cmocka_unit_test(test_entities_html),
        cmocka_unit_test(test_prose_anchoring),
        cmocka_unit_test(test_prose_before_its_game),
        cmocka_unit_test(test_figurines_lists_diagrams),
        cmocka_unit_test(test_prose_goes_on_after_a_typo),
        cmocka_unit_test(test_sniff),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
