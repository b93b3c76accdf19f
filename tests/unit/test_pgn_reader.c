/* test_pgn_reader.c: the PGN reader, from strings (fmemopen) and from fixtures; a
 * piece read in place (pgn_reader_open_buffer) as from a stream. */
#include <config.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "chunked_source.h"

#include "pgn_reader.h"
#include "record/nag.h"

#define MAX_GAMES 10

/* Up to MAX_GAMES games of one input, each in its own arena so all stay readable. */
typedef struct parsed {
    arena a[MAX_GAMES];
    rec_game g[MAX_GAMES];
    int n;          /* games read */
    int last_rc;    /* what pgn_reader_next said last */
} parsed;

static void read_games(parsed *p, FILE *f, const char *name)
{
    assert_non_null(f);
    memset(p, 0, sizeof *p);
    pgn_reader *r = pgn_reader_open(f, name);
    assert_non_null(r);
    for (;;) {
        assert_true(p->n < MAX_GAMES);
        arena_init(&p->a[p->n]);
        int rc = pgn_reader_next(r, &p->g[p->n], &p->a[p->n]);
        p->last_rc = rc;
        if (rc != 1)
            break;
        p->n++;
    }
    pgn_reader_close(r);
    fclose(f);
}

static void parse_string(parsed *p, const char *s)
{
    FILE *f = fmemopen((void *)s, strlen(s), "rb");
    read_games(p, f, "mem");
}

static const char *fixtures_dir(void)
{
    const char *d = getenv("FIXTURES");
    return d ? d : "fixtures";
}

static void parse_fixture(parsed *p, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/pgn/hostile/%s", fixtures_dir(), name);
    FILE *f = fopen(path, "rb");
    if (!f)
        fprintf(stderr, "cannot open %s\n", path);
    read_games(p, f, name);
}

static void release(parsed *p)
{
    for (int i = 0; i <= p->n && i < MAX_GAMES; i++)
        arena_free(&p->a[i]);
}

static const rec_finding *finding(const rec_game *g, const char *code)
{
    for (const rec_finding *f = g->findings; f; f = f->next)
        if (strcmp(f->code, code) == 0)
            return f;
    return NULL;
}

static int count_findings(const rec_game *g, const char *code)
{
    int n = 0;
    for (const rec_finding *f = g->findings; f; f = f->next)
        if (strcmp(f->code, code) == 0)
            n++;
    return n;
}

static void assert_finding_at(const rec_game *g, const char *code, unsigned line, unsigned col)
{
    const rec_finding *f = finding(g, code);
    if (!f)
        fprintf(stderr, "no finding %s\n", code);
    assert_non_null(f);
    assert_int_equal(f->where.line, line);
    assert_int_equal(f->where.column, col);
}

static const rec_node *nth_node(const rec_line *l, int i)
{
    const rec_node *n = l->first;
    while (n && i-- > 0)
        n = n->next;
    assert_non_null(n);
    return n;
}

static int line_length(const rec_line *l)
{
    int k = 0;
    for (const rec_node *n = l->first; n; n = n->next)
        k++;
    return k;
}

/* The game after a broken one must come out whole: its tag and its one move "1. d4 *". */
static void assert_next_game_whole(const rec_game *g)
{
    assert_string_equal(rec_game_tag(g, "Event"), "Next");
    assert_int_equal(line_length(&g->main), 1);
    assert_string_equal(g->main.first->text, "d4");
    assert_non_null(g->result);
    assert_string_equal(g->result, "*");
    assert_int_equal(g->error_count, 0);
}

/* ------------------------------------------------------------------ tags */

static void test_tags_and_escapes(void **state)
{
    (void)state;
    parsed p;
    parse_string(&p, "[Event \"A \\\"quoted\\\" \\\\ back\"]\n"
                     "[Site \"[Round 1] in [brackets]\"]\n"
                     "  [ Result   \"1 - 0\" ]\n"
                     "\n1. e4 1-0\n");
    assert_int_equal(p.n, 1);
    const rec_game *g = &p.g[0];
    assert_string_equal(rec_game_tag(g, "Event"), "A \"quoted\" \\ back");
    assert_string_equal(rec_game_tag(g, "Site"), "[Round 1] in [brackets]");
    assert_string_equal(rec_game_tag(g, "Result"), "1 - 0");
    assert_int_equal(g->finding_count, 0);
    const rec_tag *t = g->tags->next->next;
    assert_string_equal(t->name, "Result");
    assert_int_equal(rec_game_locate(g, t->where).line, 3);
    assert_int_equal(rec_game_locate(g, t->where).column, 3);
    assert_int_equal(t->where.offset, strlen("[Event \"A \\\"quoted\\\" \\\\ back\"]\n") +
                                          strlen("[Site \"[Round 1] in [brackets]\"]\n") + 2);
    assert_string_equal(g->result, "1-0");
    assert_int_equal(g->result_where.line, 5);
    assert_int_equal(g->result_where.column, 7);
    release(&p);
}

/* ------------------------------------------------------------------ move numbers */

/* The scanner notes the shape of each plain SAN word (rec_node.san_shape) and of nothing
 * else: not castling, a pawn's rank alone or own file alone, lenient forms. */
static void test_san_shapes(void **state)
{
    (void)state;
    parsed p;
    /* after a tag pair the scanner's fast path takes the movetext from its first move */
    parse_string(&p, "[Event \"shapes\"]\n\n1. e4 Nf6 2. exd5 Qxd8+ 3. e8=Q# Ng1f3 4. Rae1 "
                     "R1xe2 5. O-O dd4 6. 4d5 e2e4 7. Pe4 nf3 8. e8Q exd6e.p. *\n");
    assert_int_equal(p.n, 1);
    const rec_line *m = &p.g[0].main;
    static const struct { const char *text; unsigned shape; } want[] = {
        {"e4", REC_SAN_READ},
        {"Nf6", REC_SAN_READ | REC_SAN_PIECE},
        {"exd5", REC_SAN_READ | REC_SAN_FILE | REC_SAN_X},
        {"Qxd8+", REC_SAN_READ | REC_SAN_PIECE | REC_SAN_X | REC_SAN_MARK},
        {"e8=Q#", REC_SAN_READ | REC_SAN_PROMO | REC_SAN_MARK},
        {"Ng1f3", REC_SAN_READ | REC_SAN_PIECE | REC_SAN_FILE | REC_SAN_RANK},
        {"Rae1", REC_SAN_READ | REC_SAN_PIECE | REC_SAN_FILE},
        {"R1xe2", REC_SAN_READ | REC_SAN_PIECE | REC_SAN_RANK | REC_SAN_X},
        {"O-O", 0}, {"dd4", 0}, {"4d5", 0},
        {"e2e4", REC_SAN_READ | REC_SAN_FILE | REC_SAN_RANK},
        {"Pe4", 0}, {"nf3", 0}, {"e8Q", 0}, {"exd6", 0},
    };
    size_t count = sizeof want / sizeof want[0];
    assert_int_equal(line_length(m), count);
    for (size_t i = 0; i < count; i++) {
        const rec_node *n = nth_node(m, (int)i);
        assert_string_equal(n->text, want[i].text);
        assert_int_equal(n->san_shape, want[i].shape);
    }
    release(&p);
}

static void test_move_numbers(void **state)
{
    (void)state;
    parsed p;
    parse_string(&p, "12. e4 12... e5 13 . Nf3 13\xE2\x80\xA6 Nc6 14.Bb5 14 ... a6 Ba4 *");
    assert_int_equal(p.n, 1);
    const rec_line *m = &p.g[0].main;
    assert_int_equal(line_length(m), 7);
    static const struct { const char *text; unsigned num; bool dots3; } want[] = {
        {"e4", 12, false}, {"e5", 12, true}, {"Nf3", 13, false}, {"Nc6", 13, true},
        {"Bb5", 14, false}, {"a6", 14, true}, {"Ba4", 0, false},
    };
    for (int i = 0; i < 7; i++) {
        const rec_node *n = nth_node(m, i);
        assert_string_equal(n->text, want[i].text);
        assert_int_equal(n->number, want[i].num);
        assert_int_equal(n->number_dots3, want[i].dots3);
    }
    /* Columns count characters: the U+2026 after 13 is one. */
    assert_int_equal(rec_game_locate(&p.g[0], nth_node(m, 3)->where).column, 30);
    assert_int_equal(nth_node(m, 3)->where.offset, 31);
    assert_int_equal(p.g[0].finding_count, 0);
    release(&p);
}

/* ------------------------------------------------------------------ lenient moves */

static void test_lenient_move_forms(void **state)
{
    (void)state;
    parsed p;
    parse_string(&p, "0-0 O-O-O e2e4 e2-e4 Ng1f3 exd6 e.p. e8Q e8=Q e8(Q) N:f3 nf3 "
                     "Ng1xf3 -- Z0 cxd6e.p. Qh5+ Qxf7# Kd1++ fxg1=N+ *");
    assert_int_equal(p.n, 1);
    static const char *const want[] = {
        "0-0", "O-O-O", "e2e4", "e2-e4", "Ng1f3", "exd6", "e8Q", "e8=Q", "e8(Q)", "N:f3",
        "nf3", "Ng1xf3", "--", "Z0", "cxd6", "Qh5+", "Qxf7#", "Kd1++", "fxg1=N+",
    };
    const rec_line *m = &p.g[0].main;
    assert_int_equal(line_length(m), 19);
    for (int i = 0; i < 19; i++)
        assert_string_equal(nth_node(m, i)->text, want[i]);
    assert_true(nth_node(m, 5)->ep_written);
    assert_true(nth_node(m, 14)->ep_written);
    assert_true(!nth_node(m, 4)->ep_written);
    assert_int_equal(p.g[0].finding_count, 0);
    assert_string_equal(p.g[0].result, "*");
    release(&p);
}

/* ------------------------------------------------------------------ NAGs */

/* comments_claim_free: set only when no comment of the game, by any of the reader's three
 * ways (a short one-line comment, a longer one, one the rules read: a tab, a CR, UTF-8, a
 * rest-of-line comment), may hold a mate claim by mate_claim_possible's word test: a
 * claim's first byte alone ("material", "Mate" at the end) no longer clears it. */
static void test_comments_claim_free(void **state)
{
    (void)state;
    parsed p;
    parse_string(&p,
                 "[Event \"a\"]\n\n1. e4 {[%clk 0:05:00]} e5 {[%eval 0.17] [%clk 0:04:59] "
                 "a longer note, with a few words in it} 2. Nf3 {\ttab, \xC3\xA9t\xC3\xA9} *\n\n"
                 "[Event \"b\"]\n\n1. e4 {[%clk 0:05:00]} e5 {White could mate in two} *\n\n"
                 "[Event \"c\"]\n\n1. e4 {a short one} e5 {a longer comment, and its last words "
                 "are Mate in 3} *\n\n"
                 "[Event \"d\"]\n\n1. e4 {\tch\xE1\xBA\xBFu h\xE1\xBA\xBFt} *\n\n"
                 "[Event \"e\"]\n\n1. e4 e5 ; rest of the line: Mate in 2\n2. Nf3 *\n\n"
                 "[Event \"f\"]\n\n1. e4 (1. d4 {mate in 1}) e5 *\n\n"
                 "[Event \"g\"]\n\n1. e4 e5 *\n\n"
                 "[Event \"h\"]\n\n1. e4 {material} e5 {a longer comment: no matter, the match "
                 "goes on; its last word is Mate} 2. Nf3 {\tformat} ; Mat\n*\n");
    assert_int_equal(p.n, 8);
    assert_true(p.g[0].comments_claim_free);
    assert_false(p.g[1].comments_claim_free);   /* short: "mate in" */
    assert_false(p.g[2].comments_claim_free);   /* long: "Mate in" past 32 bytes */
    assert_false(p.g[3].comments_claim_free);   /* the rules' way: UTF-8 "ế" */
    assert_false(p.g[4].comments_claim_free);   /* rest of line */
    assert_false(p.g[5].comments_claim_free);   /* in a variation */
    assert_true(p.g[6].comments_claim_free);    /* no comment */
    assert_true(p.g[7].comments_claim_free);    /* claim bytes, no claim word: each way */
    release(&p);
}

/* moves_fast_only: every move a word of the scanner's SAN fast path (English letters,
 * a file, castling, with markers), so the referee looks for no other language's piece
 * letters; a move read another way (another letter set, a lenient form) clears it. */
static void test_moves_fast_only(void **state)
{
    (void)state;
    parsed p;
    parse_string(&p,
                 "[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O Nf6 5. Bxc6 dxc6+ *\n\n"
                 "[Event \"b\"]\n\n1. e4 e5 2. Sf3 Sc6 *\n\n"
                 "[Event \"c\"]\n\n1. e4 e5 2. Ng1-f3 *\n\n"
                 "[Event \"d\"]\n\n1. e4 (1. d4 d5 2. Sf3) e5 *\n");
    assert_int_equal(p.n, 4);
    assert_true(p.g[0].moves_fast_only);
    assert_false(p.g[1].moves_fast_only);   /* German knights */
    assert_false(p.g[2].moves_fast_only);   /* a lenient long-algebraic form */
    assert_false(p.g[3].moves_fast_only);   /* in a variation too */
    release(&p);
}

static void test_nags_suffixes_and_symbols(void **state)
{
    (void)state;
    parsed p;
    parse_string(&p,
                 "e4! e5? Nf3!! Nc6?? Bb5!? a6?! Ba4 ! Nf6 $13 O-O +- Be7 -+ Re1 += b5 =+ "
                 "Bb3 \xC2\xB1 d6 \xE2\x88\x93 c3 +/- O-O -/+ h3 = Nb8 \xE2\x88\x9E "
                 "d4 \xE2\xA9\xB2 Nbd7 \xE2\xA9\xB1 c4 \xE2\x96\xA1 c6 \xE2\xA8\x80 "
                 "Nc3 N Qc7 =/\xE2\x88\x9E Be3 \xE2\x88\x86 Bb7 +\xE2\x88\x92 Rc1 "
                 "e4+- d5-+ $0 $255 *");
    assert_int_equal(p.n, 1);
    const rec_game *g = &p.g[0];
    assert_int_equal(g->finding_count, 0);
    static const struct { const char *text; int nags[2]; } want[] = {
        {"e4", {1, -1}}, {"e5", {2, -1}}, {"Nf3", {3, -1}}, {"Nc6", {4, -1}},
        {"Bb5", {5, -1}}, {"a6", {6, -1}}, {"Ba4", {1, -1}}, {"Nf6", {13, -1}},
        {"O-O", {18, -1}}, {"Be7", {19, -1}}, {"Re1", {14, -1}}, {"b5", {15, -1}},
        {"Bb3", {16, -1}}, {"d6", {17, -1}}, {"c3", {16, -1}}, {"O-O", {17, -1}},
        {"h3", {10, -1}}, {"Nb8", {13, -1}}, {"d4", {14, -1}}, {"Nbd7", {15, -1}},
        {"c4", {7, -1}}, {"c6", {22, -1}}, {"Nc3", {146, -1}}, {"Qc7", {44, -1}},
        {"Be3", {140, -1}}, {"Bb7", {18, -1}}, {"Rc1", {-1, -1}}, {"e4", {18, -1}},
        {"d5", {19, 0}},
    };
    const rec_line *m = &g->main;
    assert_int_equal(line_length(m), 29);
    for (int i = 0; i < 29; i++) {
        const rec_node *n = nth_node(m, i);
        assert_string_equal(n->text, want[i].text);
        int expect = want[i].nags[0] < 0 ? 0 : want[i].nags[1] < 0 ? 1 : 2;
        if (i == 28)
            expect = 3;
        assert_int_equal(n->nag_count, expect);
        if (expect >= 1)
            assert_int_equal(n->nags[0], want[i].nags[0]);
        if (expect >= 2)
            assert_int_equal(n->nags[1], want[i].nags[1]);
    }
    assert_int_equal(nth_node(m, 28)->nags[2], 255);
    release(&p);
}

static void test_nag_table(void **state)
{
    (void)state;
    assert_int_equal(nag_from_symbol("!?", 2), 5);
    assert_int_equal(nag_from_symbol("+/-", 3), 16);
    assert_int_equal(nag_from_symbol("\xE2\xA9\xB1", 3), 15);
    assert_int_equal(nag_from_symbol("N", 1), 146);
    assert_int_equal(nag_from_symbol("!!!", 3), -1);
    assert_int_equal(nag_from_symbol("+", 1), -1);
    assert_string_equal(nag_symbol(14), "\xE2\xA9\xB2");
    assert_string_equal(nag_symbol(6), "?!");
    assert_true(nag_symbol(200) == NULL);
    assert_string_equal(nag_symbol_ascii(18), "+-");
    assert_true(nag_symbol_ascii(13) == NULL);
    assert_string_equal(nag_meaning(19), "Black has a decisive advantage");
    assert_string_equal(nag_meaning(139), "Black has severe time control pressure");
    assert_true(nag_meaning(250) == NULL);
    /* Every symbol we print reads back as its number. */
    for (int n = 0; n <= NAG_MAX; n++) {
        const char *s = nag_symbol_ascii(n);
        if (s)
            assert_int_equal(nag_from_symbol(s, strlen(s)), n);
        s = nag_symbol(n);
        if (s && n % 2 == 0)
            assert_int_equal(nag_from_symbol(s, strlen(s)), n);
    }
}

static void test_bad_nag(void **state)
{
    (void)state;
    parsed p;
    parse_fixture(&p, "bad-nag.pgn");
    assert_int_equal(p.n, 2);
    const rec_game *g = &p.g[0];
    assert_finding_at(g, "syntax-error", 3, 10);
    assert_true(strstr(finding(g, "syntax-error")->message, "bad NAG $256") != NULL);
    const rec_node *e4 = nth_node(&g->main, 0);
    assert_int_equal(e4->nag_count, 1);
    assert_int_equal(e4->nags[0], 1);
    assert_int_equal(nth_node(&g->main, 1)->nags[0], 255);
    assert_next_game_whole(&p.g[1]);
    release(&p);
}

/* ------------------------------------------------------------------ comments */

static void test_comments_and_positions(void **state)
{
    (void)state;
    parsed p;
    parse_fixture(&p, "comments.pgn");
    assert_int_equal(p.n, 1);
    const rec_game *g = &p.g[0];
    assert_int_equal(g->finding_count, 0);
    assert_string_equal(rec_game_tag(g, "Event"), "Escapes");
    /* The ';' line before the tags hangs on the main line; the '%' line is gone. */
    const rec_comment *c = g->main.comments;
    assert_non_null(c);
    assert_string_equal(c->text, " a rest-of-line comment before the tags");
    assert_true(c->rest_of_line);
    assert_int_equal(rec_game_locate(g, c->where).line, 2);
    assert_int_equal(rec_game_locate(g, c->where).column, 1);
    assert_true(c->next == NULL);
    const rec_node *e4 = nth_node(&g->main, 0);
    assert_non_null(e4->comments);
    assert_string_equal(e4->comments->text, " to the end {of} line");
    assert_int_equal(rec_game_locate(g, e4->comments->where).line, 5);
    assert_int_equal(rec_game_locate(g, e4->comments->where).column, 7);
    const rec_node *e5 = nth_node(&g->main, 1);
    assert_int_equal(rec_game_locate(g, e5->where).line, 6);
    assert_int_equal(rec_game_locate(g, e5->where).column, 1);
    assert_string_equal(e5->comments->text, "multi\nline");
    assert_true(!e5->comments->rest_of_line);
    assert_int_equal(rec_game_locate(g, e5->comments->where).line, 6);
    assert_int_equal(rec_game_locate(g, e5->comments->where).column, 4);
    const rec_node *nf3 = nth_node(&g->main, 2);
    assert_int_equal(rec_game_locate(g, nf3->where).line, 7);
    assert_int_equal(rec_game_locate(g, nf3->where).column, 10);
    assert_int_equal(nf3->number, 2);
    release(&p);
}

static void test_comment_commands_kept_verbatim(void **state)
{
    (void)state;
    parsed p;
    parse_string(&p, "1. e4 { [%clk 0:05:00] [%eval 0.31] } 1... e5 {[%cal Ge2e4]} *");
    assert_int_equal(p.n, 1);
    const rec_line *m = &p.g[0].main;
    assert_string_equal(nth_node(m, 0)->comments->text, " [%clk 0:05:00] [%eval 0.31] ");
    assert_string_equal(nth_node(m, 1)->comments->text, "[%cal Ge2e4]");
    assert_int_equal(p.g[0].finding_count, 0);
    release(&p);
}

/* ------------------------------------------------------------------ variations */

static void test_variation_structure(void **state)
{
    (void)state;
    parsed p;
    parse_string(&p, "1. e4 e5 (1... c5 {Sicilian} 2. Nf3 (2. c3 d5) 2... d6) (1... e6) "
                     "({empty first}) 2. Nf3 *");
    assert_int_equal(p.n, 1);
    const rec_game *g = &p.g[0];
    assert_int_equal(g->finding_count, 0);
    assert_int_equal(line_length(&g->main), 3);
    const rec_node *e5 = nth_node(&g->main, 1);
    const rec_line *v1 = e5->variations;
    assert_non_null(v1);
    assert_int_equal(rec_game_locate(g, v1->where).column, 10);
    assert_int_equal(line_length(v1), 3);
    assert_string_equal(v1->first->text, "c5");
    assert_true(v1->first->number_dots3);
    assert_string_equal(v1->first->comments->text, "Sicilian");
    const rec_node *nf3 = nth_node(v1, 1);
    assert_non_null(nf3->variations);
    assert_string_equal(nf3->variations->first->text, "c3");
    assert_int_equal(line_length(nf3->variations), 2);
    assert_string_equal(nth_node(v1, 2)->text, "d6");
    const rec_line *v2 = v1->next;
    assert_non_null(v2);
    assert_string_equal(v2->first->text, "e6");
    const rec_line *v3 = v2->next;
    assert_non_null(v3);
    assert_true(v3->first == NULL);
    assert_string_equal(v3->comments->text, "empty first");
    assert_true(v3->next == NULL);
    assert_string_equal(nth_node(&g->main, 2)->text, "Nf3");
    assert_true(nth_node(&g->main, 2)->variations == NULL);
    release(&p);
}

static char *deep_text(int depth, bool closed)
{
    size_t cap = (size_t)depth * 8 + 64;
    char *s = malloc(cap);
    assert_non_null(s);
    size_t o = (size_t)sprintf(s, "1. e4 ");
    for (int i = 0; i < depth; i++)
        o += (size_t)sprintf(s + o, "(d4 ");
    if (closed)
        for (int i = 0; i < depth; i++)
            s[o++] = ')';
    o += (size_t)sprintf(s + o, " *\n");
    return s;
}

static void test_deep_nesting(void **state)
{
    (void)state;
    const int depth = 100000;
    char *s = deep_text(depth, true);
    parsed p;
    parse_string(&p, s);
    assert_int_equal(p.n, 1);
    const rec_game *g = &p.g[0];
    assert_int_equal(g->finding_count, 0);
    int k = 0;
    const rec_node *n = g->main.first;
    while (n->variations) {
        assert_true(!n->variations->unterminated);
        n = n->variations->first;
        assert_non_null(n);
        k++;
    }
    assert_int_equal(k, depth);
    assert_string_equal(n->text, "d4");
    assert_string_equal(g->result, "*");
    release(&p);
    free(s);

    /* Never closed: one game, the lines marked, the findings bounded. */
    s = deep_text(depth, false);
    parse_string(&p, s);
    assert_int_equal(p.n, 1);
    g = &p.g[0];
    assert_true(count_findings(g, "unterminated-variation") < 20);
    assert_finding_at(g, "unterminated-variation", 1, 7);
    /* The '*' sits inside the open variations: reported, and the game has no result. */
    assert_non_null(finding(g, "missing-result"));
    assert_true(g->main.first->variations->unterminated);
    release(&p);
    free(s);
}

/* ------------------------------------------------------------------ recovery */

static void test_unterminated_comment(void **state)
{
    (void)state;
    parsed p;
    parse_fixture(&p, "unterminated-comment.pgn");
    assert_int_equal(p.n, 2);
    const rec_game *g = &p.g[0];
    assert_finding_at(g, "unterminated-comment", 4, 7);
    assert_non_null(finding(g, "missing-result"));
    assert_true(strstr(nth_node(&g->main, 0)->comments->text, "never closes") != NULL);
    const rec_game *n = &p.g[1];
    assert_string_equal(rec_game_tag(n, "Event"), "Next");
    assert_string_equal(rec_game_tag(n, "Result"), "0-1");
    assert_int_equal(line_length(&n->main), 3);
    assert_string_equal(nth_node(&n->main, 2)->text, "c4");
    assert_string_equal(n->result, "0-1");
    assert_int_equal(n->finding_count, 0);
    assert_int_equal(n->start.line, 7);
    release(&p);
}

static void test_unterminated_variation(void **state)
{
    (void)state;
    parsed p;
    parse_fixture(&p, "unterminated-variation.pgn");
    assert_int_equal(p.n, 2);
    const rec_game *g = &p.g[0];
    assert_int_equal(count_findings(g, "unterminated-variation"), 2);
    assert_finding_at(g, "unterminated-variation", 3, 10);
    assert_finding_at(g, "missing-result", 3, 35);
    const rec_line *v = nth_node(&g->main, 1)->variations;
    assert_true(v->unterminated);
    assert_true(nth_node(v, 1)->variations->unterminated);
    const rec_game *n = &p.g[1];
    assert_string_equal(rec_game_tag(n, "Event"), "Next");
    assert_int_equal(line_length(&n->main), 2);
    assert_string_equal(n->result, "1/2-1/2");
    assert_int_equal(n->finding_count, 0);
    release(&p);
}

static void test_missing_result(void **state)
{
    (void)state;
    parsed p;
    parse_fixture(&p, "missing-result.pgn");
    assert_int_equal(p.n, 2);
    const rec_game *g = &p.g[0];
    assert_true(g->result == NULL);
    assert_finding_at(g, "missing-result", 3, 16);
    assert_int_equal(line_length(&g->main), 3);
    assert_next_game_whole(&p.g[1]);
    release(&p);
}

static void test_games_without_blank_lines_or_tags(void **state)
{
    (void)state;
    parsed p;
    parse_fixture(&p, "no-blank-line.pgn");
    assert_int_equal(p.n, 4);
    assert_string_equal(rec_game_tag(&p.g[0], "Event"), "A");
    assert_string_equal(rec_game_tag(&p.g[1], "Event"), "B");
    assert_true(p.g[2].tags == NULL);
    assert_string_equal(p.g[2].main.first->text, "c4");
    assert_string_equal(p.g[3].result, "1/2-1/2");
    for (int i = 0; i < 4; i++)
        assert_int_equal(p.g[i].finding_count, 0);
    /* Never the same bytes twice. */
    for (int i = 1; i < 4; i++)
        assert_true(p.g[i].start.offset > p.g[i - 1].end.offset);
    release(&p);
}

static void test_bad_tags(void **state)
{
    (void)state;
    parsed p;
    parse_fixture(&p, "bad-tags.pgn");
    assert_int_equal(p.n, 2);
    const rec_game *g = &p.g[0];
    assert_int_equal(count_findings(g, "bad-tag"), 5);
    assert_finding_at(g, "bad-tag", 2, 1);                     /* [Site] */
    const rec_finding *f = finding(g, "bad-tag");
    assert_true(strstr(f->next->message, "Date") != NULL);    /* missing ] */
    assert_int_equal(rec_game_locate(g, f->next->where).line, 3);
    assert_true(strstr(f->next->next->message, "duplicate tag White") != NULL);
    assert_int_equal(rec_game_locate(g, f->next->next->where).line, 5);
    assert_true(strstr(f->next->next->next->message, "closing quote") != NULL);
    assert_int_equal(rec_game_locate(g, f->next->next->next->where).line, 7);
    assert_true(strstr(f->next->next->next->next->message, "Remark") != NULL);
    assert_int_equal(rec_game_locate(g, f->next->next->next->next->where).column, 7);
    assert_string_equal(rec_game_tag(g, "White"), "The \"Big\" One");
    assert_string_equal(rec_game_tag(g, "Round"), "1 - 0");
    assert_string_equal(rec_game_tag(g, "Black"), "[x] y");
    assert_string_equal(rec_game_tag(g, "Annotator"), "Unterminated");
    assert_string_equal(rec_game_tag(g, "Date"), "2024.01.01");
    assert_true(rec_game_tag(g, "Site") == NULL);
    assert_int_equal(line_length(&g->main), 2);
    assert_string_equal(g->result, "*");
    assert_next_game_whole(&p.g[1]);
    release(&p);
}

static void test_control_characters(void **state)
{
    (void)state;
    parsed p;
    parse_fixture(&p, "control-chars.pgn");
    assert_int_equal(p.n, 2);
    const rec_game *g = &p.g[0];
    assert_int_equal(count_findings(g, "syntax-error"), 3);
    assert_finding_at(g, "syntax-error", 3, 7);
    assert_int_equal(line_length(&g->main), 3);
    assert_string_equal(nth_node(&g->main, 2)->comments->text, "nulhere");
    assert_next_game_whole(&p.g[1]);
    release(&p);
}

static void test_unmatched_paren(void **state)
{
    (void)state;
    parsed p;
    parse_fixture(&p, "unmatched-paren.pgn");
    assert_int_equal(p.n, 2);
    assert_finding_at(&p.g[0], "syntax-error", 3, 10);
    assert_int_equal(line_length(&p.g[0].main), 3);
    assert_string_equal(p.g[0].result, "*");
    assert_next_game_whole(&p.g[1]);
    release(&p);
}

static void test_junk_and_result_in_variation(void **state)
{
    (void)state;
    parsed p;
    parse_fixture(&p, "junk.pgn");
    assert_int_equal(p.n, 2);
    const rec_game *g = &p.g[0];
    assert_int_equal(count_findings(g, "syntax-error"), 4);
    assert_finding_at(g, "syntax-error", 3, 7);
    assert_true(strstr(finding(g, "syntax-error")->message, "expecting") != NULL);
    assert_int_equal(line_length(&g->main), 3);
    assert_next_game_whole(&p.g[1]);
    release(&p);

    parse_fixture(&p, "result-in-variation.pgn");
    assert_int_equal(p.n, 2);
    g = &p.g[0];
    assert_finding_at(g, "syntax-error", 3, 14);
    assert_int_equal(line_length(&g->main), 2);
    assert_string_equal(g->result, "*");
    assert_next_game_whole(&p.g[1]);
    release(&p);
}

static void test_eof_mid_token_and_empty(void **state)
{
    (void)state;
    parsed p;
    parse_fixture(&p, "eof-mid-token.pgn");
    assert_int_equal(p.n, 2);
    assert_int_equal(p.last_rc, 0);
    assert_int_equal(p.g[0].finding_count, 0);
    const rec_game *g = &p.g[1];
    assert_string_equal(rec_game_tag(g, "White"), "Half");
    assert_finding_at(g, "bad-tag", 6, 1);
    assert_non_null(finding(g, "missing-result"));
    release(&p);

    parse_fixture(&p, "empty.pgn");
    assert_int_equal(p.n, 0);
    assert_int_equal(p.last_rc, 0);
    release(&p);

    /* Ending inside a comment, a string, a variation; and only a trailing comment. */
    parse_string(&p, "1. e4 {never");
    assert_int_equal(p.n, 1);
    assert_finding_at(&p.g[0], "unterminated-comment", 1, 7);
    release(&p);
    parse_string(&p, "1. e4 *\n{ trailing remark }\n");
    assert_int_equal(p.n, 1);
    release(&p);
    parse_string(&p, "1. e4 (e3");
    assert_int_equal(p.n, 1);
    assert_finding_at(&p.g[0], "unterminated-variation", 1, 7);
    release(&p);
}

static void test_long_comment(void **state)
{
    (void)state;
    const size_t big = 10u * 1024u * 1024u;
    const char *head = "[Event \"Long\"]\n\n1. e4 {";
    const char *tail = "} e5 *\n\n[Event \"Next\"]\n\n1. d4 *\n";
    char *s = malloc(strlen(head) + big + strlen(tail) + 1);
    assert_non_null(s);
    strcpy(s, head);
    memset(s + strlen(head), 'x', big);
    strcpy(s + strlen(head) + big, tail);
    parsed p;
    parse_string(&p, s);
    assert_int_equal(p.n, 2);
    const rec_game *g = &p.g[0];
    assert_finding_at(g, "comment-too-long", 3, 7);
    const rec_node *e4 = nth_node(&g->main, 0);
    assert_int_equal(strlen(e4->comments->text), 1024u * 1024u);
    const rec_node *e5 = nth_node(&g->main, 1);
    assert_string_equal(e5->text, "e5");
    assert_int_equal(rec_game_locate(g, e5->where).line, 3);
    assert_int_equal(rec_game_locate(g, e5->where).column, (unsigned)(7 + big + 3));
    assert_next_game_whole(&p.g[1]);
    release(&p);
    free(s);
}

/* ------------------------------------------------------------------ move limit */

/* PGN_MOVE_LIMIT (pgn_internal.h): moves, variations and comments kept per game. */
#define MOVE_LIMIT 500000

/* A game of total items, each four bytes ("e4 " or "{c} ", ten to a line): a comment
 * where k % every == phase, a move elsewhere. The fast path counts its moves a chunk
 * at a time and comments take from the chunk: the cut must still fall on the item
 * just past the limit, whatever mix came before it. */
static char *limit_game(size_t total, size_t every, size_t phase)
{
    const char *head = "[Event \"Big\"]\n\n";
    const char *tail = "*\n\n[Event \"Next\"]\n\n1. d4 *\n";
    size_t hl = strlen(head);
    char *s = malloc(hl + 4 * total + strlen(tail) + 1);
    assert_non_null(s);
    memcpy(s, head, hl);
    char *o = s + hl;
    for (size_t k = 0; k < total; k++, o += 4) {
        memcpy(o, k % every == phase ? "{c} " : "e4  ", 4);
        if (k % 10 == 9)
            o[3] = '\n';
    }
    strcpy(o, tail);
    return s;
}

static void assert_limit_game(size_t total, size_t every, size_t phase)
{
    char *s = limit_game(total, every, phase);
    parsed p;
    parse_string(&p, s);
    assert_int_equal(p.n, 2);
    const rec_game *g = &p.g[0];
    size_t kept = total < MOVE_LIMIT ? total : MOVE_LIMIT;
    size_t moves = 0, comments = 0;
    for (size_t k = 0; k < kept; k++)
        *(k % every == phase ? &comments : &moves) += 1;
    size_t got_moves = 0, got_comments = 0;
    for (const rec_node *n = g->main.first; n; n = n->next) {
        got_moves++;
        for (const rec_comment *c = n->comments; c; c = c->next)
            got_comments++;
    }
    assert_int_equal(got_moves, moves);
    assert_int_equal(got_comments, comments);
    if (total <= MOVE_LIMIT) {
        assert_null(finding(g, "game-too-long"));
    } else {
        /* at the first item past the limit, and only there */
        assert_int_equal(count_findings(g, "game-too-long"), 1);
        assert_finding_at(g, "game-too-long", (unsigned)(3 + MOVE_LIMIT / 10),
                          (unsigned)(MOVE_LIMIT % 10 * 4 + 1));
    }
    assert_next_game_whole(&p.g[1]);
    release(&p);
    free(s);
}

static void test_move_limit(void **state)
{
    (void)state;
    assert_limit_game(MOVE_LIMIT, 7, 3);        /* exactly at the limit: all kept */
    assert_limit_game(MOVE_LIMIT + 1, 7, 3);    /* one past: a move */
    assert_limit_game(MOVE_LIMIT + 1, 7, 4);    /* one past: a comment (500000 % 7 == 4) */
    assert_limit_game(MOVE_LIMIT + 40, 3, 2);   /* further past, a comment every third */
    assert_limit_game(MOVE_LIMIT + 1, 1000001, 5);  /* moves, one comment near the start */
}

/* ------------------------------------------------------------------ encodings */

static void test_crlf_and_bom(void **state)
{
    (void)state;
    parsed p;
    parse_fixture(&p, "crlf-bom.pgn");
    assert_int_equal(p.n, 2);
    const rec_game *g = &p.g[0];
    assert_string_equal(rec_game_tag(g, "Event"), "BOM \xE2\x99\x9E");
    assert_int_equal(rec_game_locate(g, g->tags->where).column, 1);
    assert_int_equal(g->tags->where.offset, 3);
    assert_int_equal(g->error_count + g->warning_count, 0);
    const rec_node *e4 = nth_node(&g->main, 0);
    assert_string_equal(e4->comments->text, "A\ncomment");
    const rec_node *e5 = nth_node(&g->main, 1);
    assert_int_equal(rec_game_locate(g, e5->where).line, 5);
    assert_int_equal(rec_game_locate(g, e5->where).column, 10);
    assert_string_equal(nth_node(&g->main, 2)->text, "Nf3");
    assert_string_equal(g->result, "1-0");
    assert_next_game_whole(&p.g[1]);
    release(&p);
}

/* What the scanner's fast path reads by hand (tag pairs, comments, NAGs, numbered
 * moves) with CRLF lines, texts longer than its sixteen-byte steps, a repeated tag, a NUL
 * after a move's blank and a tag in the movetext: texts, nodes and places exact. */
static void test_fast_path_texts_and_places(void **state)
{
    (void)state;
    static const char in[] =
        "[Event \"Fast\"]\r\n"
        "[Site \"A site name that is longer than thirty-two bytes\"]\r\n"
        "[Site \"again\"]\n\r\n"
        "{A comment longer than thirty-two bytes\r\non two lines} 1. e4 $1 {short} e5 "
        "2. Nf3 Nc6 {x\r\ny\r\nz} 3. Bb5 \0a6 4. Ba4 $300 Nf6 [Round \"late\"] *\n";
    parsed p;
    read_games(&p, fmemopen((void *)in, sizeof in - 1, "rb"), "mem");
    assert_int_equal(p.n, 1);
    const rec_game *g = &p.g[0];
    assert_string_equal(rec_game_tag(g, "Site"),
                        "A site name that is longer than thirty-two bytes");
    assert_string_equal(g->tags->next->next->value, "again");
    assert_finding_at(g, "bad-tag", 3, 1);   /* the repeated Site, then Round */
    assert_int_equal(count_findings(g, "bad-tag"), 2);
    assert_string_equal(g->main.comments->text,
                        "A comment longer than thirty-two bytes\non two lines");
    assert_int_equal(line_length(&g->main), 8);
    const rec_node *e4 = nth_node(&g->main, 0);
    assert_int_equal(rec_game_locate(g, e4->where).line, 6);
    assert_int_equal(rec_game_locate(g, e4->where).column, 18);
    assert_int_equal(e4->number, 1);
    assert_int_equal(e4->nag_count, 1);
    assert_int_equal(e4->nags[0], 1);
    assert_string_equal(e4->comments->text, "short");
    assert_string_equal(nth_node(&g->main, 3)->text, "Nc6");
    assert_string_equal(nth_node(&g->main, 3)->comments->text, "x\ny\nz");
    const rec_node *a6 = nth_node(&g->main, 5);
    assert_string_equal(a6->text, "a6");
    assert_int_equal(rec_game_locate(g, a6->where).line, 8);
    assert_int_equal(rec_game_locate(g, a6->where).column, 12);
    assert_finding_at(g, "syntax-error", 8, 11);   /* the NUL, then the bad NAG */
    assert_int_equal(count_findings(g, "syntax-error"), 2);
    assert_int_equal(nth_node(&g->main, 6)->nag_count, 0);
    assert_string_equal(nth_node(&g->main, 7)->text, "Nf6");
    assert_string_equal(rec_game_tag(g, "Round"), "late");
    assert_string_equal(g->result, "*");
    release(&p);
}

static char *read_piece(const char *text, size_t from, size_t to, uint32_t line,
                        bool in_place, bool *clean);
static void game_digest(FILE *d, const rec_game *g);

/* Tag pairs of every head the fast path tells apart (names of 1, 15 and 16 bytes, an
 * underscore and digits, a tab or two spaces before the value, an empty value, a quote
 * or a backslash in it, a name with a byte no name has), CRLF lines: names, values,
 * findings and places as the rules read them. */
static void test_tag_heads(void **state)
{
    (void)state;
    static const char in[] =
        "[Event \"Heads\"]\r\n"
        "[A \"one\"]\r\n"
        "[ABCDEFGHIJKLMNO \"fifteen\"]\r\n"
        "[ABCDEFGHIJKLMNOP \"sixteen\"]\r\n"
        "[Under_score9 \"u\"]\r\n"
        "[Tab\t\"tab\"]\r\n"
        "[Two  \"two\"]\r\n"
        "[Empty \"\"]\r\n"
        "[Q \"say \\\"hi\\\" \\\\\"]\r\n"
        "[A \"again\"]\r\n"
        "[White \"W\"]\r\n"
        "[Bad-name \"x\"]\r\n\r\n"
        "1. e4 e5 *\r\n";
    parsed p;
    parse_string(&p, in);
    assert_int_equal(p.n, 1);
    const rec_game *g = &p.g[0];
    assert_string_equal(rec_game_tag(g, "Event"), "Heads");
    assert_string_equal(rec_game_tag(g, "A"), "one");
    assert_string_equal(rec_game_tag(g, "ABCDEFGHIJKLMNO"), "fifteen");
    assert_string_equal(rec_game_tag(g, "ABCDEFGHIJKLMNOP"), "sixteen");
    assert_string_equal(rec_game_tag(g, "Under_score9"), "u");
    assert_string_equal(rec_game_tag(g, "Tab"), "tab");
    assert_string_equal(rec_game_tag(g, "Two"), "two");
    assert_string_equal(rec_game_tag(g, "Empty"), "");
    assert_string_equal(rec_game_tag(g, "Q"), "say \"hi\" \\");
    assert_string_equal(rec_game_tag(g, "White"), "W");
    assert_null(rec_game_tag(g, "Bad-name"));
    const rec_tag *t = g->tags;
    for (int i = 0; i < 9; i++)
        t = t->next;
    assert_string_equal(t->name, "A");   /* the repeated one is kept, in its place */
    assert_string_equal(t->value, "again");
    assert_int_equal(rec_game_locate(g, t->where).line, 10);
    assert_int_equal(rec_game_locate(g, g->tags->next->next->where).line, 3);
    assert_int_equal(rec_game_locate(g, g->tags->next->next->where).column, 1);
    assert_finding_at(g, "bad-tag", 10, 1);   /* duplicate tag A */
    assert_true(strstr(finding(g, "bad-tag")->message, "duplicate tag A ") != NULL);
    assert_true(strstr(finding(g, "bad-tag")->next->message, "tag Bad has no value") != NULL);
    assert_finding_at(g, "syntax-error", 12, 5);   /* the '-' of Bad-name */
    const rec_node *e4 = nth_node(&g->main, 1);   /* after "name" of Bad-name */
    assert_string_equal(e4->text, "e4");
    assert_int_equal(rec_game_locate(g, e4->where).line, 14);
    assert_int_equal(rec_game_locate(g, e4->where).column, 4);
    release(&p);
}

/* Move numbers around the fast path's "12. e4" (one dot, one space, a move): castling
 * with letters and with zeros, a NAG or a comment after the number, two spaces, a tab,
 * words that go on past a SANM word, ten digits, a number at a line's end. */
static void test_number_forms(void **state)
{
    (void)state;
    static const char in[] =
        "[Event \"N\"]\n\n1. e4 e5 2. O-O 2. 0-0 3. Nf3 3. $1 4. {c} 4.  Nc6 5.\tBb5 6. e4e5 "
        "7. e8=Q 8. Kx 9. Z 1234567890. e4 10. O-O-O 11. a\n12. \n13. 12.. e4 *\n";
    parsed p;
    parse_string(&p, in);
    assert_int_equal(p.n, 1);
    const rec_game *g = &p.g[0];
    static const struct { const char *text; unsigned num; unsigned off; } want[] = {
        {"e4", 1, 16}, {"e5", 0, 19}, {"O-O", 2, 25}, {"0-0", 2, 32}, {"Nf3", 3, 39},
        {"Nc6", 4, 60}, {"Bb5", 5, 67}, {"e4e5", 6, 74}, {"e8=Q", 7, 82}, {"Kx", 8, 90},
        {"Z", 9, 96}, {"1234567890", 0, 98}, {"e4", 0, 110}, {"O-O-O", 10, 117},
        {"a", 11, 127}, {"e4", 12, 143},
    };
    assert_int_equal(line_length(&g->main), 16);
    for (int i = 0; i < 16; i++) {
        const rec_node *n = nth_node(&g->main, i);
        assert_string_equal(n->text, want[i].text);
        assert_int_equal(n->number, want[i].num);
        assert_int_equal(n->where.offset, want[i].off);
    }
    assert_int_equal(nth_node(&g->main, 4)->nag_count, 1);   /* "3. $1" */
    assert_string_equal(nth_node(&g->main, 4)->comments->text, "c");
    assert_int_equal(rec_game_locate(g, nth_node(&g->main, 5)->where).column, 48);
    assert_int_equal(rec_game_locate(g, nth_node(&g->main, 15)->where).line, 5);
    assert_int_equal(rec_game_locate(g, nth_node(&g->main, 15)->where).column, 10);
    assert_finding_at(g, "syntax-error", 3, 96);   /* the '.' after ten digits */
    assert_int_equal(g->finding_count, 1);
    release(&p);
}

/* Comments of every length around the fast path's two sixteen-byte steps (its '}' at
 * each place up to 40), with a tab, a CR alone, a CRLF, a '[' starting a line inside,
 * a byte >= 0x80 and a NUL: texts, places and findings as the rules read them, and the
 * same when the stream's 64 KiB read cuts them at every byte. */
static void test_comment_lengths(void **state)
{
    (void)state;
    char text[4096];
    size_t n = (size_t)snprintf(text, sizeof text, "[Event \"C\"]\n\n1. e4 ");
    for (int len = 0; len <= 40; len++) {
        text[n++] = '{';
        for (int i = 0; i < len; i++)
            text[n++] = (char)('a' + i % 26);
        n += (size_t)snprintf(text + n, sizeof text - n, "} e5 ");
    }
    n += (size_t)snprintf(text + n, sizeof text - n,
                          "{tab\there} {cr\ralone} {crlf\r\nnext} {line\n[x] in} "
                          "{caf\xc3\xa9} {nul\x01" "byte} *\n");
    text[n] = '\0';
    parsed p;
    parse_string(&p, text);
    assert_int_equal(p.n, 1);
    const rec_game *g = &p.g[0];
    const rec_node *m = g->main.first;
    for (int len = 0; len <= 40; len++, m = m->next) {
        assert_non_null(m);
        assert_non_null(m->comments);
        assert_int_equal(strlen(m->comments->text), (size_t)len);
        assert_int_equal(m->comments->text[len ? len - 1 : 0], len ? 'a' + (len - 1) % 26 : 0);
    }
    assert_string_equal(m->comments->text, "tab\there");
    assert_string_equal(m->comments->next->text, "cr\ralone");
    assert_string_equal(m->comments->next->next->text, "crlf\nnext");
    assert_string_equal(m->comments->next->next->next->text, "line\n[x] in");
    assert_string_equal(m->comments->next->next->next->next->text, "caf\xc3\xa9");
    assert_finding_at(g, "syntax-error", 5, 20);   /* the control byte in the last one */
    release(&p);

    /* the same text after a first game long enough to put the cut in each of them */
    size_t tail = n;
    for (size_t pad = 65536 - tail - 40; pad < 65536 - 10; pad += 3) {
        size_t total = 2 + pad + 4 + tail;
        char *t = malloc(total + 1);
        assert_non_null(t);
        t[0] = '1';
        t[1] = '{';
        memset(t + 2, 'c', pad);
        memcpy(t + 2 + pad, "} *\n", 4);
        memcpy(t + 2 + pad + 4, text, tail);
        t[total] = '\0';
        bool clean_stream, clean_place;
        char *a = read_piece(t, 0, total, 1, false, &clean_stream);
        char *b = read_piece(t, 0, total, 1, true, &clean_place);
        assert_string_equal(a, b);
        assert_int_equal(clean_stream, clean_place);
        free(a);
        free(b);
        free(t);
    }
}

/* NUL bytes inside a tag value, after a tag name, between a name and its value, in a
 * comment and after a NAG: each is a control character skipped with a finding where
 * it is, and the tags, moves and comment around them are whole. */
static void test_nul_bytes(void **state)
{
    (void)state;
    static const char in[] = "[Event \"N\0L\"]\n[Ab\0 \"x\"]\n[Site \"S\"]\n[Date\0\"d\"]\n\n"
                             "1. e4 {a\0b} e5 $1\0 2. Nf3 *\n";
    parsed p;
    read_games(&p, fmemopen((void *)in, sizeof in - 1, "rb"), "mem");
    assert_int_equal(p.n, 1);
    const rec_game *g = &p.g[0];
    assert_string_equal(rec_game_tag(g, "Event"), "NL");
    assert_string_equal(rec_game_tag(g, "Ab"), "x");
    assert_string_equal(rec_game_tag(g, "Site"), "S");
    assert_string_equal(rec_game_tag(g, "Date"), "d");
    assert_int_equal(line_length(&g->main), 3);
    assert_string_equal(nth_node(&g->main, 0)->comments->text, "ab");
    assert_int_equal(nth_node(&g->main, 1)->nag_count, 1);
    assert_string_equal(nth_node(&g->main, 2)->text, "Nf3");
    static const unsigned at[][2] = {{1, 10}, {2, 4}, {4, 6}, {6, 9}, {6, 18}};
    const rec_finding *f = g->findings;
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++, f = f->next) {
        while (f && strcmp(f->code, "syntax-error") != 0)
            f = f->next;
        assert_non_null(f);
        assert_int_equal(f->where.line, at[i][0]);
        assert_int_equal(f->where.column, at[i][1]);
    }
    assert_int_equal(count_findings(g, "syntax-error"), 5);
    release(&p);
}

/* Tag sections and moves cut by the end of a stream's buffer (64 KiB) at every byte:
 * a long comment before them puts the cut at each place of their lines in turn. What
 * comes out is what a piece read whole in place gives (no cut there). */
static void test_tags_across_read_boundary(void **state)
{
    (void)state;
    static const char tail[] =
        "} *\n\n[Event \"Cut\"]\n[A \"one\"]\n[ABCDEFGHIJKLMNO \"fifteen\"]\r\n"
        "[Site \"A site name that is longer than thirty-two bytes\"]\n[Tab\t\"t\"]\n"
        "[White \"W\"]\n[White \"again\"]\n\n1. e4 {[%clk 0:05:00]} e5 2. Nf3 $1 *\n";
    const size_t cut = 65536;
    for (size_t pad = cut - 260; pad < cut; pad++) {
        size_t n = 2 + pad + sizeof tail - 1;
        char *text = malloc(n + 1);
        assert_non_null(text);
        text[0] = '1';
        text[1] = '{';   /* "1{...}": a number, then the comment that moves the cut */
        memset(text + 2, 'c', pad);
        memcpy(text + 2 + pad, tail, sizeof tail);
        bool clean_stream, clean_place;
        char *s = read_piece(text, 0, n, 1, false, &clean_stream);
        char *m = read_piece(text, 0, n, 1, true, &clean_place);
        assert_string_equal(s, m);
        assert_non_null(strstr(s, "[ABCDEFGHIJKLMNO \"fifteen\"]\n[Site \"A site name"));
        assert_non_null(strstr(s, "[Tab \"t\"]\n[White \"W\"]\n[White \"again\"]\n"));
        assert_non_null(strstr(s, "duplicate tag White (first at line 8)"));
        assert_int_equal(clean_stream, clean_place);
        free(s);
        free(m);
        free(text);
    }
}

static void test_latin1_transcoding(void **state)
{
    (void)state;
    parsed p;
    parse_fixture(&p, "latin1.pgn");
    assert_int_equal(p.n, 2);
    const rec_game *g = &p.g[0];
    assert_string_equal(rec_game_tag(g, "Event"), "Caf\xC3\xA9 Z\xC3\xBCrich");
    assert_string_equal(rec_game_tag(g, "White"), "M\xC3\xBCller, J\xC3\xB6rg");
    assert_string_equal(nth_node(&g->main, 0)->comments->text,
                        "Sch\xC3\xB6n gespielt \xE2\x82\xAC");
    assert_int_equal(count_findings(g, "encoding"), 1);
    assert_finding_at(g, "encoding", 1, 8);
    assert_int_equal(finding(g, "encoding")->severity, REC_WARNING);
    /* A Latin-1 byte is one character: e5 comes right after the 20-character comment. */
    assert_int_equal(rec_game_locate(g, nth_node(&g->main, 1)->where).column, 26);
    assert_int_equal(p.g[1].finding_count, 0);
    release(&p);
}

/* ------------------------------------------------------------------ I/O and corpora */

static void test_io_error(void **state)
{
    (void)state;
    FILE *f = fopen("/dev/null", "w");
    assert_non_null(f);
    pgn_reader *r = pgn_reader_open(f, "out");
    arena a;
    arena_init(&a);
    rec_game g;
    assert_int_equal(pgn_reader_next(r, &g, &a), -1);
    assert_true(strlen(pgn_reader_error(r)) > 0);
    pgn_reader_close(r);
    arena_free(&a);
    fclose(f);
}

/* The digest of every game read through a source of text (step bytes a read, failing
 * at fail_at), and what pgn_reader_next said last. malloc'd. */
static char *read_source(const char *text, size_t step, size_t fail_at, int *last_rc)
{
    chunked_source c = {text, strlen(text), 0, step, fail_at};
    char *out = NULL;
    size_t out_len = 0;
    FILE *d = open_memstream(&out, &out_len);
    FILE *unused = fopen("/dev/null", "r");
    assert_non_null(d);
    assert_non_null(unused);
    pgn_reader *r = pgn_reader_open_source(unused, chunked_source_read, &c, "src");
    assert_non_null(r);
    arena a;
    arena_init(&a);
    for (;;) {
        rec_game g;
        arena_reset(&a);
        *last_rc = pgn_reader_next(r, &g, &a);
        if (*last_rc != 1)
            break;
        game_digest(d, &g);
    }
    if (*last_rc < 0)
        fprintf(d, "error: %s\n", pgn_reader_error(r));
    pgn_reader_close(r);
    arena_free(&a);
    fclose(unused);
    fclose(d);
    return out;
}

/* A reader fed by a source function (how -j1 reads a file: input_read straight into the
 * scanner's buffer) reads the games a stream of the same text gives, however small the
 * reads; a read error ends it with -1 and a message, after the games before it. */
static void test_source_reads(void **state)
{
    (void)state;
    static const char text[] =
        "[Event \"A\"]\n[White \"M\xfcller\"]\n[Result \"1-0\"]\n\n"
        "1. e4 {open} e5 (1... c5 2. Nf3) 2. Nf3 $1 Nc6 3. Bb5!? a6 1-0\n\n"
        "[Event \"B\"]\n[Result \"*\"]\n\n1. d4 d5 2. c4 ; rest of line\n"
        "%escaped line\n2... e6 3. Nc3 {a comment\nover two lines} Nf6 *\n\n"
        "[Event \"C\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
    bool clean;
    char *stream = read_piece(text, 0, sizeof text - 1, 1, false, &clean);
    for (size_t step = 1; step <= 13; step++) {
        int rc;
        char *got = read_source(text, step, (size_t)-1, &rc);
        assert_int_equal(rc, 0);
        assert_string_equal(got, stream);
        free(got);
    }
    free(stream);
    /* an error in the third game: the two before it whole, then -1 and its message */
    const char *third = strstr(text, "[Event \"C\"]");
    int rc;
    char *got = read_source(text, 5, (size_t)(third - text) + 20, &rc);
    assert_int_equal(rc, -1);
    assert_non_null(strstr(got, "[Event \"A\"]"));
    assert_non_null(strstr(got, "[Event \"B\"]"));
    assert_non_null(strstr(got, "error: "));
    free(got);
}

/* The shared corpus; a test that needs it is skipped, saying why, in a source tree
 * without it (tests/unit/tap-skip.sh makes cmocka's skip a TAP skip). */
static const char *shared_dir(void)
{
    const char *d = getenv("SHARED");
    d = d && *d ? d : "../shared";
    struct stat st;
    if (stat(d, &st) != 0 || !S_ISDIR(st.st_mode)) {
        print_message("# no shared corpus at %s (configure --with-shared=DIR)\n", d);
        skip();
    }
    return d;
}

/* Count games and lines starting with "[Event " in a file. */
static void count_file(const char *path, long *games, long *events, long *errors)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fprintf(stderr, "cannot open %s\n", path);
    assert_non_null(f);
    char line[8192];
    *events = 0;
    bool at_start = true;
    while (fgets(line, sizeof line, f)) {
        if (at_start && strncmp(line, "[Event ", 7) == 0)
            (*events)++;
        at_start = strchr(line, '\n') != NULL;
    }
    rewind(f);
    pgn_reader *r = pgn_reader_open(f, path);
    arena a;
    arena_init(&a);
    rec_game g;
    *games = *errors = 0;
    uint64_t prev_end = 0;
    int rc;
    while ((rc = pgn_reader_next(r, &g, &a)) == 1) {
        if (*games > 0)
            assert_true(g.start.offset > prev_end);
        prev_end = g.end.offset;
        (*games)++;
        *errors += g.error_count;
        arena_reset(&a);
    }
    assert_int_equal(rc, 0);
    pgn_reader_close(r);
    arena_free(&a);
    fclose(f);
}

static void test_corpus_game_counts(void **state)
{
    (void)state;
    static const struct { const char *file; long games; } files[] = {
        {"python-chess/anastasian-lewis.pgn", 1},
        {"python-chess/antichess-programfox.pgn", 2},
        {"python-chess/chessbase-empty-line.pgn", 1},
        {"python-chess/cutechess-fischerrandom.pgn", 4},
        {"python-chess/kasparov-deep-blue-1997.pgn", 6},
        {"python-chess/knightvuillaume-jannlee-zh-lichess.pgn", 1},
        {"python-chess/molinari-bordais-1979.pgn", 1},
        {"python-chess/nepomniachtchi-liren-game1.pgn", 1},
        {"python-chess/saturs-jannlee-zh-lichess.pgn", 1},
        {"python-chess/stockfish-learning.pgn", 1},
        {"python-chess/uci-moves.pgn", 1},
        {"python-chess/utf8-bom.pgn", 2},
        {"bench/pychess-world_matches.pgn", 580},
        {"bench/pychess-dortmund.pgn", 347},
        {"bench/shakmaty-lichess_db_1000k.pgn", 438},
        {"bench/shakmaty-twic1599_1000k.pgn", 1110},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/corpus/chess/%s", shared_dir(), files[i].file);
        long games, events, errors;
        count_file(path, &games, &events, &errors);
        if (games != files[i].games)
            fprintf(stderr, "%s: %ld games\n", files[i].file, games);
        assert_int_equal(games, files[i].games);
        if (events > 0 && strstr(files[i].file, "utf8-bom") == NULL)
            assert_int_equal(games, events);
        /* Real files have no syntax errors (Latin-1 text is only a warning). */
        assert_int_equal(errors, 0);
    }
}

/* ------------------------------------------------------------------ from memory */

/* What a reader made of a game, as text: tags, the main line's moves with their
 * numbers, NAGs, comments and places, variations counted, findings with their places. */
static void game_digest(FILE *d, const rec_game *g)
{
    fprintf(d, "game %llu %u:%u@%llu-%u:%u@%llu result %s\n", (unsigned long long)g->index,
            g->start.line, g->start.column, (unsigned long long)g->start.offset, g->end.line,
            g->end.column, (unsigned long long)g->end.offset, g->result ? g->result : "-");
    for (const rec_tag *t = g->tags; t; t = t->next)
        fprintf(d, "[%s \"%s\"]\n", t->name, t->value);
    for (const rec_comment *c = g->main.comments; c; c = c->next)
        fprintf(d, "{%s}\n", c->text);
    for (const rec_node *n = g->main.first; n; n = n->next) {
        /* not san_shape: a hint for the referee, set when the scanner's fast path read
         * the move, which a stream's first token never is (its buffer is not filled
         * yet) */
        fprintf(d, "%u %s %u:%u@%llu nags %u", n->number, n->text, n->where.line,
                n->where.column, (unsigned long long)n->where.offset, n->nag_count);
        for (const rec_comment *c = n->comments; c; c = c->next)
            fprintf(d, " {%s}", c->text);
        for (const rec_line *v = n->variations; v; v = v->next)
            fprintf(d, " (var)");
        fputc('\n', d);
    }
    for (const rec_finding *f = g->findings; f; f = f->next)
        fprintf(d, "%s %d %u:%u@%llu %s\n", f->code, (int)f->severity, f->where.line,
                f->where.column, (unsigned long long)f->where.offset, f->message);
}

/* The digest of every game of text[from..to) read as a piece starting at offset from,
 * line line, from a stream (fmemopen) or in place (pgn_reader_open_buffer); whether
 * it ended between games last. malloc'd. */
static char *read_piece(const char *text, size_t from, size_t to, uint32_t line,
                        bool in_place, bool *clean)
{
    char *digest = NULL;
    size_t dlen = 0;
    FILE *d = open_memstream(&digest, &dlen);
    assert_non_null(d);
    size_t len = to - from;
    char *copy = malloc(len + 2);
    assert_non_null(copy);
    memcpy(copy, text + from, len);
    FILE *f = NULL;
    pgn_reader *r;
    if (in_place) {
        r = pgn_reader_open_buffer(copy, len, "piece.pgn");
    } else {
        f = fmemopen(copy, len, "rb");
        assert_non_null(f);
        r = pgn_reader_open(f, "piece.pgn");
    }
    assert_non_null(r);
    pgn_reader_set_start(r, from, line, false);
    for (;;) {
        arena a;
        arena_init(&a);
        rec_game g;
        int rc = pgn_reader_next(r, &g, &a);
        if (rc == 1)
            game_digest(d, &g);
        arena_free(&a);
        assert_int_not_equal(rc, -1);
        if (rc != 1)
            break;
    }
    *clean = pgn_reader_ended_cleanly(r);
    pgn_reader_close(r);
    if (f)
        fclose(f);
    /* the scanner put back every byte it ended a token with */
    if (in_place)
        assert_memory_equal(copy, text + from, len);
    free(copy);
    fclose(d);
    return digest;
}

/* A piece read in place gives the games, places, findings and end a stream gives,
 * for pieces cut at every line start of a text with comments, variations, escapes,
 * Latin-1, a game without a result and one cut short (bytes8 loads near the end). */
static void test_piece_in_place(void **state)
{
    (void)state;
    static const char text[] =
        "[Event \"A\"]\n[White \"M\xfcller\"]\n[Result \"1-0\"]\n\n"
        "1. e4 {open} e5 (1... c5 2. Nf3) 2. Nf3 $1 Nc6 3. Bb5!? a6 1-0\n\n"
        "[Event \"B\"]\n[Result \"*\"]\n\n1. d4 d5 2. c4 ; rest of line\n"
        "%escaped line\n2... e6 3. Nc3 {a comment\nover two lines} Nf6\n\n"
        "[Event \"C\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n"
        "[Event \"D\"]\n1. f3 e5 2. g4 {unterminated\n";
    size_t n = sizeof text - 1;
    size_t starts[64];
    uint32_t lines[64];
    int k = 0;
    uint32_t line = 1;
    for (size_t i = 0; i < n && k < 64; i++) {
        if (i == 0 || text[i - 1] == '\n') {
            starts[k] = i;
            lines[k++] = line;
        }
        if (text[i] == '\n')
            line++;
    }
    for (int a = 0; a < k; a++) {
        for (size_t to = starts[a] + 1; to <= n; to += 7) {
            bool clean_stream, clean_place;
            char *s = read_piece(text, starts[a], to, lines[a], false, &clean_stream);
            char *m = read_piece(text, starts[a], to, lines[a], true, &clean_place);
            assert_string_equal(s, m);
            assert_int_equal(clean_stream, clean_place);
            free(s);
            free(m);
        }
    }
}

/* A comment over the text limit (1 MiB) in a piece read in place, which holds it whole
 * (a stream's buffer never does): cut with comment-too-long, as from a stream, and the
 * game after it read as from a stream. */
static void test_piece_in_place_long_comment(void **state)
{
    (void)state;
    const char head[] = "[Event \"long\"]\n\n1. e4 {";
    const char tail[] = "} e5 *\n\n[Event \"after\"]\n\n1. d4 d5 *\n";
    size_t body = 1024 * 1024 + 4096;
    size_t n = strlen(head) + body + strlen(tail);
    char *text = malloc(n + 1);
    assert_non_null(text);
    memcpy(text, head, strlen(head));
    for (size_t i = 0; i < body; i++)
        text[strlen(head) + i] = "abcdefghij "[i % 11];
    memcpy(text + strlen(head) + body, tail, strlen(tail) + 1);
    bool clean_stream, clean_place;
    char *s = read_piece(text, 0, n, 1, false, &clean_stream);
    char *m = read_piece(text, 0, n, 1, true, &clean_place);
    assert_non_null(strstr(s, "comment-too-long"));
    assert_string_equal(s, m);
    assert_int_equal(clean_stream, clean_place);
    free(s);
    free(m);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tags_and_escapes),
        cmocka_unit_test(test_move_numbers),
        cmocka_unit_test(test_san_shapes),
        cmocka_unit_test(test_lenient_move_forms),
        cmocka_unit_test(test_nags_suffixes_and_symbols),
        cmocka_unit_test(test_comments_claim_free),
        cmocka_unit_test(test_moves_fast_only),
        cmocka_unit_test(test_nag_table),
        cmocka_unit_test(test_bad_nag),
        cmocka_unit_test(test_comments_and_positions),
        cmocka_unit_test(test_comment_commands_kept_verbatim),
        cmocka_unit_test(test_variation_structure),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_unterminated_comment),
        cmocka_unit_test(test_unterminated_variation),
        cmocka_unit_test(test_missing_result),
        cmocka_unit_test(test_games_without_blank_lines_or_tags),
        cmocka_unit_test(test_bad_tags),
        cmocka_unit_test(test_control_characters),
        cmocka_unit_test(test_unmatched_paren),
        cmocka_unit_test(test_junk_and_result_in_variation),
        cmocka_unit_test(test_eof_mid_token_and_empty),
        cmocka_unit_test(test_long_comment),
        cmocka_unit_test(test_move_limit),
        cmocka_unit_test(test_crlf_and_bom),
        cmocka_unit_test(test_fast_path_texts_and_places),
        cmocka_unit_test(test_tag_heads),
        cmocka_unit_test(test_number_forms),
        cmocka_unit_test(test_comment_lengths),
        cmocka_unit_test(test_nul_bytes),
        cmocka_unit_test(test_tags_across_read_boundary),
        cmocka_unit_test(test_latin1_transcoding),
        cmocka_unit_test(test_io_error),
        cmocka_unit_test(test_corpus_game_counts),
        cmocka_unit_test(test_piece_in_place),
        cmocka_unit_test(test_source_reads),
        cmocka_unit_test(test_piece_in_place_long_comment),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
