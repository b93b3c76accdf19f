/* test_wxf_reader.c: the WXF reader (files and articles), the [game] splitter and
 * format sniffing, from strings (fmemopen), fixtures and the shared corpus. */
#include <config.h>

#include <glob.h>
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

#include "io/article.h"
#include "reader/reader.h"
#include "record/nag.h"
#include "wxf_reader.h"

#define MAX_GAMES 8

typedef struct parsed {
    arena a[MAX_GAMES];
    rec_game g[MAX_GAMES];
    int n;
    int last_rc;
} parsed;

static void read_games(parsed *p, FILE *f, const char *name, wxf_input kind)
{
    assert_non_null(f);
    memset(p, 0, sizeof *p);
    wxf_reader *r = wxf_reader_open(f, name, kind);
    assert_non_null(r);
    for (;;) {
        assert_true(p->n < MAX_GAMES);
        arena_init(&p->a[p->n]);
        int rc = wxf_reader_next(r, &p->g[p->n], &p->a[p->n]);
        p->last_rc = rc;
        if (rc != 1)
            break;
        assert_int_equal(p->g[p->n].kind, REC_XIANGQI);
        p->n++;
    }
    wxf_reader_close(r);
    fclose(f);
}

static void parse_string(parsed *p, const char *s, wxf_input kind)
{
    FILE *f = fmemopen((void *)s, strlen(s), "rb");
    read_games(p, f, "mem", kind);
}

static const char *fixtures_dir(void)
{
    const char *d = getenv("FIXTURES");
    return d ? d : "fixtures";
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

static void parse_path(parsed *p, const char *path, wxf_input kind)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fprintf(stderr, "cannot open %s\n", path);
    read_games(p, f, path, kind);
}

static void parse_fixture(parsed *p, const char *name, wxf_input kind)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", fixtures_dir(), name);
    parse_path(p, path, kind);
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

static void assert_finding_at(const rec_game *g, const char *code, unsigned line, unsigned col)
{
    const rec_finding *f = finding(g, code);
    if (!f)
        fprintf(stderr, "no finding %s\n", code);
    assert_non_null(f);
    if (f->where.line != line || f->where.column != col)
        fprintf(stderr, "%s at %u:%u\n", code, (unsigned)f->where.line,
                (unsigned)f->where.column);
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

static void assert_node(const rec_node *n, const char *text, unsigned line, unsigned col)
{
    assert_string_equal(n->text, text);
    assert_int_equal(n->where.line, line);
    assert_int_equal(n->where.column, col);
}

/* The record after a broken one: GAME Two, "1. C2.5 h8+7", no findings. */
static void assert_game_two(const rec_game *g)
{
    assert_string_equal(rec_game_tag(g, "GAME"), "Two");
    assert_int_equal(line_length(&g->main), 2);
    assert_string_equal(nth_node(&g->main, 0)->text, "C2.5");
    assert_string_equal(nth_node(&g->main, 1)->text, "h8+7");
    assert_int_equal(g->finding_count, 0);
}

/* ------------------------------------------------------------------ xiangqi-setup */

static void test_playok(void **state)
{
    (void)state;
    parsed p;
    char path[1024];
    snprintf(path, sizeof path, "%s/corpus/xiangqi/xiangqi-setup/demo-with-history-playok.wxf",
             shared_dir());
    parse_path(&p, path, WXF_INPUT_WXF);
    assert_int_equal(p.n, 1);
    assert_int_equal(p.last_rc, 0);
    const rec_game *g = &p.g[0];
    assert_string_equal(rec_game_tag(g, "FORMAT"), "WXF");
    assert_string_equal(rec_game_tag(g, "RED"), "jugador rojo ; 1200 ;;");
    assert_string_equal(rec_game_tag(g, "BLACK"), "jugador negro ; 1240 ;;");
    assert_string_equal(rec_game_tag(g, "RESULT"), "0-1");
    assert_string_equal(rec_game_tag(g, "DATE"), "2020-02-02 02:02:02");
    assert_string_equal(rec_game_tag(g, "EVENT"), "PlayOK Game ; 10m+0s");
    assert_int_equal(g->finding_count, 0);
    assert_int_equal(line_length(&g->main), 54);
    /* " 1. P3+1 c8.7   2. E7+5 ..." on line 8; "10. H++7" on line 11 */
    assert_node(nth_node(&g->main, 0), "P3+1", 8, 5);
    assert_int_equal(nth_node(&g->main, 0)->number, 1);
    assert_node(nth_node(&g->main, 1), "c8.7", 8, 10);
    assert_int_equal(nth_node(&g->main, 1)->number, 0);
    assert_node(nth_node(&g->main, 2), "E7+5", 8, 20);
    assert_int_equal(nth_node(&g->main, 2)->number, 2);
    assert_node(nth_node(&g->main, 18), "H++7", 11, 5);
    assert_int_equal(nth_node(&g->main, 18)->number, 10);
    /* "27. P7+1 r5.4 }END" */
    assert_node(nth_node(&g->main, 53), "r5.4", 16, 40);
    assert_int_equal(g->end.line, 16);
    assert_int_equal(g->end.column, 48);
    release(&p);
}

static void test_xiexie(void **state)
{
    (void)state;
    static const struct { const char *file, *date, *fen; } files[] = {
        {"demo.wxf", "2014-07-16",
         "4kaer1/4a2c1/2h1e1h2/3Rp1C1p/2C6/5rP2/1pP1P3P/8E/9/1cEAKA1R1 b"},
        {"initial.wxf", "2020-02-25",
         "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r"},
    };
    for (size_t i = 0; i < 2; i++) {
        parsed p;
        char path[1024];
        snprintf(path, sizeof path, "%s/corpus/xiangqi/xiangqi-setup/%s", shared_dir(),
                 files[i].file);
        parse_path(&p, path, WXF_INPUT_WXF);
        assert_int_equal(p.n, 1);
        const rec_game *g = &p.g[0];
        assert_string_equal(rec_game_tag(g, "FORMAT"), "WXF");
        assert_string_equal(rec_game_tag(g, "GAME"), "");
        assert_string_equal(rec_game_tag(g, "RED"), ";;;");
        assert_string_equal(rec_game_tag(g, "DATE"), files[i].date);
        assert_string_equal(rec_game_tag(g, "FEN"), files[i].fen);
        assert_null(g->main.first);
        assert_int_equal(g->finding_count, 0);
        assert_int_equal(g->end.line, 9);
        release(&p);
    }
}

/* ------------------------------------------------------------------ own fixtures */

static void test_basic_fixture(void **state)
{
    (void)state;
    parsed p;
    parse_fixture(&p, "wxf/basic.wxf", WXF_INPUT_WXF);
    assert_int_equal(p.n, 2);
    const rec_game *g = &p.g[0];
    assert_int_equal(g->finding_count, 0);
    assert_string_equal(rec_game_tag(g, "EVENT"), "Club ; 15m+10s");
    assert_string_equal(rec_game_tag(g, "PLACE"), "Hanoi");
    assert_string_equal(rec_game_tag(g, "CUSTOM"), "kept as a tag");
    assert_non_null(g->main.comments);
    assert_string_equal(g->main.comments->text, " opening comment ");
    assert_int_equal(line_length(&g->main), 9);
    const rec_node *n = nth_node(&g->main, 3);            /* r9.8?! */
    assert_string_equal(n->text, "r9.8");
    assert_int_equal(n->nag_count, 1);
    assert_int_equal(n->nags[0], 6);
    n = nth_node(&g->main, 4);                             /* R1.2! */
    assert_string_equal(n->text, "R1.2");
    assert_int_equal(n->nags[0], 1);
    assert_int_equal(nth_node(&g->main, 5)->nags[0], 5);  /* c8.9 !? */
    n = nth_node(&g->main, 6);                             /* R2+6 ± DIAG */
    assert_int_equal(n->nags[0], 16);
    assert_non_null(n->comments);
    assert_true(n->comments->diagram);
    assert_string_equal(n->comments->text, "#5 RED");
    assert_int_equal(n->comments->where.line, 13);
    assert_int_equal(n->comments->where.column, 1);
    n = nth_node(&g->main, 7);                             /* 5... p7+1 */
    assert_node(n, "p7+1", 14, 7);
    assert_int_equal(n->number, 5);
    assert_true(n->number_dots3);
    assert_non_null(n->comments);
    assert_false(n->comments->diagram);
    assert_int_equal(n->comments->where.line, 14);
    assert_int_equal(n->comments->where.column, 12);
    assert_non_null(strstr(n->comments->text, "\n   over two lines: 5... c2.1 6. H8+7 "));
    assert_int_equal(nth_node(&g->main, 8)->nags[0], 15);  /* =+ */
    assert_int_equal(g->game_nag_count, 1);                /* }END +- */
    assert_int_equal(g->game_nags[0], 18);

    g = &p.g[1];                                           /* 1.c2.5 2…h8+7 3. ... r9.8 1-0 */
    assert_int_equal(g->finding_count, 0);
    assert_int_equal(line_length(&g->main), 3);
    assert_node(nth_node(&g->main, 0), "c2.5", 21, 3);
    assert_int_equal(nth_node(&g->main, 1)->number, 2);
    assert_true(nth_node(&g->main, 1)->number_dots3);
    assert_int_equal(nth_node(&g->main, 2)->number, 3);
    assert_true(nth_node(&g->main, 2)->number_dots3);
    assert_string_equal(g->result, "1-0");
    release(&p);
}

static void test_setup_fixture(void **state)
{
    (void)state;
    parsed p;
    parse_fixture(&p, "wxf/setup.wxf", WXF_INPUT_WXF);
    assert_int_equal(p.n, 2);
    assert_string_equal(rec_game_tag(&p.g[0], "FEN"),
                        "3ak4/9/9/4P4/9/9/9/9/9/3RK4 b - - 0 12");
    assert_null(rec_game_tag(&p.g[0], "SETUP"));
    assert_int_equal(p.g[0].finding_count, 0);
    assert_string_equal(rec_game_tag(&p.g[1], "SETUP"), "Ke0 Xz9");
    assert_finding_at(&p.g[1], "bad-fen", 10, 1);
    release(&p);
}

static void test_moves_as_text(void **state)
{
    (void)state;
    parsed p;
    parse_string(&p,
                 "FORMAT WXF\nSTART{\n1. Xs-5 C+.5 2. \xEF\xBC\xA3\xEF\xBC\x92\xEF\xBC\x9D"
                 "\xEF\xBC\x95 \xEF\xBC\x8B\xEF\xBC\xB0\xEF\xBC\x8B\xEF\xBC\x91\n"
                 "3. \xE7\x82\xAE\xE4\xBA\x8C\xE5\xB9\xB3\xE4\xBA\x94 h2e2 4. Ch2-e2 H2-E2\n}END\n",
                 WXF_INPUT_WXF);
    assert_int_equal(p.n, 1);
    const rec_game *g = &p.g[0];
    assert_int_equal(g->finding_count, 0);
    assert_int_equal(line_length(&g->main), 8);
    assert_string_equal(nth_node(&g->main, 0)->text, "Xs-5");
    assert_string_equal(nth_node(&g->main, 1)->text, "C+.5");
    assert_string_equal(nth_node(&g->main, 2)->text, "\xEF\xBC\xA3\xEF\xBC\x92\xEF\xBC\x9D\xEF\xBC\x95");
    assert_string_equal(nth_node(&g->main, 3)->text, "\xEF\xBC\x8B\xEF\xBC\xB0\xEF\xBC\x8B\xEF\xBC\x91");
    /* columns count characters: "2. Ｃ２＝５ ＋Ｐ＋１" */
    assert_node(nth_node(&g->main, 3), "\xEF\xBC\x8B\xEF\xBC\xB0\xEF\xBC\x8B\xEF\xBC\x91", 3, 22);
    assert_string_equal(nth_node(&g->main, 4)->text, "\xE7\x82\xAE\xE4\xBA\x8C\xE5\xB9\xB3\xE4\xBA\x94");
    assert_node(nth_node(&g->main, 5), "h2e2", 4, 9);
    assert_string_equal(nth_node(&g->main, 7)->text, "H2-E2");
    release(&p);
}

/* ------------------------------------------------------------------ hostile WXF */

static void test_hostile_unterminated_start(void **state)
{
    (void)state;
    parsed p;
    parse_fixture(&p, "wxf/hostile/unterminated-start.wxf", WXF_INPUT_WXF);
    assert_int_equal(p.n, 2);
    assert_finding_at(&p.g[0], "unterminated-block", 3, 1);
    assert_int_equal(finding(&p.g[0], "unterminated-block")->severity, REC_ERROR);
    assert_int_equal(line_length(&p.g[0].main), 3);
    assert_game_two(&p.g[1]);
    release(&p);
}

static void test_hostile_unterminated_comment(void **state)
{
    (void)state;
    parsed p;
    parse_fixture(&p, "wxf/hostile/unterminated-comment.wxf", WXF_INPUT_WXF);
    assert_int_equal(p.n, 2);
    assert_finding_at(&p.g[0], "unterminated-comment", 4, 9);
    assert_int_equal(line_length(&p.g[0].main), 1);
    const rec_comment *c = p.g[0].main.first->comments;
    assert_non_null(c);
    assert_non_null(strstr(c->text, "2. M2.3 M8.7"));
    assert_game_two(&p.g[1]);
    release(&p);

    /* closed by }END: the block ends there, the record is whole otherwise */
    parse_string(&p, "FORMAT WXF\nSTART{\n1. P2-6 /* open\n}END\n", WXF_INPUT_WXF);
    assert_int_equal(p.n, 1);
    assert_finding_at(&p.g[0], "unterminated-comment", 3, 9);
    assert_null(finding(&p.g[0], "unterminated-block"));
    release(&p);
}

static void test_hostile_junk(void **state)
{
    (void)state;
    parsed p;
    parse_fixture(&p, "wxf/hostile/junk.wxf", WXF_INPUT_WXF);
    assert_int_equal(p.n, 2);
    assert_finding_at(&p.g[0], "syntax-error", 4, 14);
    assert_finding_at(&p.g[0], "encoding", 5, 9);
    assert_int_equal(line_length(&p.g[0].main), 5);
    assert_game_two(&p.g[1]);
    release(&p);
}

static void test_hostile_nul(void **state)
{
    (void)state;
    parsed p;
    parse_fixture(&p, "wxf/hostile/nul.wxf", WXF_INPUT_WXF);
    assert_int_equal(p.n, 2);
    assert_finding_at(&p.g[0], "syntax-error", 4, 8);
    assert_int_equal(line_length(&p.g[0].main), 2);
    assert_string_equal(nth_node(&p.g[0].main, 0)->text, "P2-6");
    assert_game_two(&p.g[1]);
    release(&p);
}

static void test_hostile_crlf_bom(void **state)
{
    (void)state;
    parsed p;
    parse_fixture(&p, "wxf/hostile/crlf.wxf", WXF_INPUT_WXF);
    assert_int_equal(p.n, 2);
    const rec_game *g = &p.g[0];
    assert_int_equal(g->finding_count, 0);
    assert_string_equal(rec_game_tag(g, "FORMAT"), "WXF");
    assert_string_equal(rec_game_tag(g, "GAME"), "Crlf");
    assert_node(nth_node(&g->main, 3), "r9.8", 4, 25);
    const rec_comment *c = nth_node(&g->main, 3)->comments;
    assert_non_null(c);
    assert_string_equal(c->text, " two\r\nlines ");     /* verbatim */
    assert_int_equal(c->where.line, 5);
    assert_game_two(&p.g[1]);
    release(&p);
}

static void test_hostile_empty(void **state)
{
    (void)state;
    parsed p;
    parse_fixture(&p, "wxf/hostile/empty.wxf", WXF_INPUT_WXF);
    assert_int_equal(p.n, 0);
    assert_int_equal(p.last_rc, 0);
    release(&p);
    parse_string(&p, " \r\n\t\n", WXF_INPUT_WXF);
    assert_int_equal(p.n, 0);
    release(&p);
    parse_fixture(&p, "wxf/hostile/empty.wxf", WXF_INPUT_ARTICLE);
    assert_int_equal(p.n, 0);
    assert_int_equal(p.last_rc, 0);
    release(&p);
}

static void test_hostile_eof_mid_token(void **state)
{
    (void)state;
    parsed p;
    parse_fixture(&p, "wxf/hostile/eof-mid-token.wxf", WXF_INPUT_WXF);
    assert_int_equal(p.n, 2);
    assert_int_equal(p.g[0].finding_count, 0);
    assert_int_equal(line_length(&p.g[0].main), 2);
    assert_finding_at(&p.g[1], "unterminated-block", 8, 1);
    assert_int_equal(line_length(&p.g[1].main), 4);
    assert_node(nth_node(&p.g[1].main, 3), "M8", 10, 9);
    release(&p);

    /* inside a header value, a DIAG marker, a comment */
    static const char *cuts[] = {"FORMAT WXF\nGAME Tru", "FORMAT WXF\nSTART{\nDIAG{ #3",
                                 "FORMAT WXF\nSTART{\n1. P2-6 /* ab", "FORMAT WXF\nSETUP{ Ke"};
    for (size_t i = 0; i < 4; i++) {
        parse_string(&p, cuts[i], WXF_INPUT_WXF);
        assert_int_equal(p.n, 1);
        assert_int_equal(p.last_rc, 0);
        release(&p);
    }
}

static void test_hostile_unterminated_setup_diag(void **state)
{
    (void)state;
    parsed p;
    parse_fixture(&p, "wxf/hostile/unterminated-setup.wxf", WXF_INPUT_WXF);
    assert_int_equal(p.n, 2);
    assert_int_equal(p.g[0].finding_count, 0);
    assert_finding_at(&p.g[1], "unterminated-block", 8, 1);
    assert_string_equal(rec_game_tag(&p.g[1], "SETUP"), "Ke0 ke9");
    assert_int_equal(line_length(&p.g[1].main), 1);
    const rec_comment *c = p.g[1].main.first->comments;
    assert_non_null(c);
    assert_true(c->diagram);
    assert_string_equal(c->text, "#2 RED");
    release(&p);
}

static void test_misplaced(void **state)
{
    (void)state;
    parsed p;
    parse_string(&p, "junk before\nFORMAT WXF\n! }END\nSTART{\n? 1. P2-6\nFORMAT WXF\n"
                     "START{\n1. C2.5\n}END\nGAME Three\nSTART{\n}END\n",
                 WXF_INPUT_WXF);
    assert_int_equal(p.n, 3);
    assert_finding_at(&p.g[0], "syntax-error", 1, 1);      /* "junk" before START{ */
    assert_int_equal(p.g[0].start.line, 1);
    assert_string_equal(rec_game_tag(&p.g[0], "FORMAT"), "WXF");
    assert_int_equal(p.g[0].error_count, 6);  /* junk, before, !, }END, ?, START{ open */
    assert_int_equal(line_length(&p.g[0].main), 1);
    assert_int_equal(p.g[1].finding_count, 0);
    assert_string_equal(rec_game_tag(&p.g[2], "GAME"), "Three");  /* header after }END */
    assert_int_equal(p.g[2].finding_count, 0);
    release(&p);
}

/* ------------------------------------------------------------------ articles */

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return buf;
}

/* A WXF file fed by a source function (as -j1 reads one: input_read straight into the
 * scanner's buffer) gives the games, moves, places and findings a stream gives,
 * however small the reads. */
static void test_source_reads(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/wxf/basic.wxf", fixtures_dir());
    size_t len;
    char *text = slurp(path, &len);
    parsed whole;
    parse_fixture(&whole, "wxf/basic.wxf", WXF_INPUT_WXF);
    for (size_t step = 1; step <= 9; step += 2) {
        chunked_source c = {text, len, 0, step, (size_t)-1};
        FILE *unused = fopen("/dev/null", "r");
        assert_non_null(unused);
        wxf_reader *r = wxf_reader_open_source(unused, chunked_source_read, &c, "src");
        assert_non_null(r);
        for (int i = 0; i <= whole.n; i++) {
            arena a;
            arena_init(&a);
            rec_game g;
            int rc = wxf_reader_next(r, &g, &a);
            assert_int_equal(rc, i < whole.n ? 1 : 0);
            if (rc == 1) {
                const rec_game *w = &whole.g[i];
                assert_int_equal(line_length(&g.main), line_length(&w->main));
                assert_int_equal(g.finding_count, w->finding_count);
                for (const rec_node *n = g.main.first, *m = w->main.first; n;
                     n = n->next, m = m->next) {
                    assert_string_equal(n->text, m->text);
                    assert_int_equal(n->where.offset, m->where.offset);
                }
            }
            arena_free(&a);
        }
        wxf_reader_close(r);
        fclose(unused);
    }
    release(&whole);
    free(text);
}

/* where must be the place of offset in text, counted independently, and the text
 * there must start with expect. */
static void assert_span(const char *text, size_t len, const rec_span *where, const char *expect)
{
    assert_true(where->offset + strlen(expect) <= len);
    assert_memory_equal(text + where->offset, expect, strlen(expect));
    uint32_t line = 1, col = 1;
    for (uint64_t i = 0; i < where->offset; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c == '\n') {
            line++;
            col = 1;
        } else if ((c & 0xC0) != 0x80) {
            col++;
        }
    }
    assert_int_equal(where->line, line);
    assert_int_equal(where->column, col);
}

static void check_spans(const char *text, size_t len, const rec_game *g)
{
    for (const rec_tag *t = g->tags; t; t = t->next)
        assert_span(text, len, &t->where, t->name);
    for (const rec_comment *c = g->main.comments; c; c = c->next)
        assert_span(text, len, &c->where, c->diagram ? "DIAG{" : "/*");
    for (const rec_node *n = g->main.first; n; n = n->next) {
        assert_span(text, len, &n->where, n->text);
        for (const rec_comment *c = n->comments; c; c = c->next) {
            assert_span(text, len, &c->where, c->diagram ? "DIAG{" : "/*");
            if (!c->diagram)  /* verbatim: the text follows the opener */
                assert_memory_equal(text + c->where.offset + 2, c->text, strlen(c->text));
        }
    }
    assert_span(text, len, &g->start, "[");
}

static const rec_comment *diag_of(const rec_game *g, int k)
{
    for (const rec_comment *c = g->main.comments; c; c = c->next)
        if (c->diagram && k-- == 0)
            return c;
    for (const rec_node *n = g->main.first; n; n = n->next)
        for (const rec_comment *c = n->comments; c; c = c->next)
            if (c->diagram && k-- == 0)
                return c;
    return NULL;
}

static void test_seed_article(void **state)
{
    (void)state;
    char pattern[1024];
    snprintf(pattern, sizeof pattern, "%s/seeds/001_*.txt", shared_dir());
    glob_t gl;
    assert_int_equal(glob(pattern, 0, NULL, &gl), 0);
    assert_int_equal(gl.gl_pathc, 1);
    size_t len;
    char *text = slurp(gl.gl_pathv[0], &len);
    parsed p;
    parse_path(&p, gl.gl_pathv[0], WXF_INPUT_ARTICLE);
    globfree(&gl);

    assert_int_equal(p.n, 5);
    assert_int_equal(p.last_rc, 0);
    static const char *titles[] = {"Biến chung", "Biến 1", "Biến 2", "Biến 3", "Biến 4"};
    static const int plies[] = {4, 32, 32, 32, 32};
    static const int starts[] = {39, 52, 83, 104, 127};
    static const struct { unsigned line; const char *text; } diags[] = {
        {47, "#3 RED"}, {61, "#4 RED"}, {91, "#3 BLUE"}, {112, "#4 BLUE"}, {135, "#4 BLUE"}};
    static const int game_nag[] = {-1, 13, 15, 10, 15};   /* none, ∞, =+, =, =+ */
    for (int i = 0; i < 5; i++) {
        const rec_game *g = &p.g[i];
        char title[256];
        snprintf(title, sizeof title, "Pháo quá cung bị Pháo đầu phá (kiểu mới) – %s",
                 titles[i]);
        assert_string_equal(rec_game_tag(g, "GAME"), title);
        assert_string_equal(rec_game_tag(g, "FORMAT"), "WXF");
        assert_string_equal(rec_game_tag(g, "RED"), "Trắng");
        assert_string_equal(rec_game_tag(g, "BLACK"), "Đen");
        assert_int_equal(line_length(&g->main), plies[i]);
        assert_int_equal(g->finding_count, 0);
        assert_int_equal(g->start.line, starts[i]);
        const rec_comment *d = diag_of(g, 0);
        assert_non_null(d);
        assert_string_equal(d->text, diags[i].text);
        assert_int_equal(d->where.line, diags[i].line);
        assert_int_equal(d->where.column, 1);
        if (game_nag[i] < 0) {
            assert_int_equal(g->game_nag_count, 0);
        } else {
            assert_int_equal(g->game_nag_count, 1);
            assert_int_equal(g->game_nags[0], game_nag[i]);
        }
        check_spans(text, len, g);
    }

    /* Game 2 (Biến 1): a second DIAG, three comments, "7. … P2-1". */
    const rec_game *g = &p.g[1];
    const rec_comment *d = diag_of(g, 1);
    assert_non_null(d);
    assert_string_equal(d->text, "#5 RED");
    assert_int_equal(d->where.line, 66);
    const rec_node *n = nth_node(&g->main, 5);             /* 3. S4.5 X9-8 */
    assert_node(n, "X9-8", 60, 9);
    assert_non_null(n->comments);
    assert_true(n->comments->diagram);
    const rec_comment *c = n->comments->next;              /* the comment on line 62 */
    assert_non_null(c);
    assert_false(c->diagram);
    assert_int_equal(c->where.line, 62);
    assert_int_equal(c->where.column, 1);
    assert_non_null(strstr(c->text, "*Một là 3…X9.1 4. X1-2 M2.3"));
    static const char tail[] = "18. X5-4 X1-4, cân bằng.";   /* then the closing "*" "/" */
    assert_true(strlen(c->text) > sizeof tail);
    assert_string_equal(c->text + strlen(c->text) - (sizeof tail - 1), tail);
    n = nth_node(&g->main, 12);                            /* 7. X9.1 and its comment */
    assert_node(n, "X9.1", 72, 4);
    assert_int_equal(n->number, 7);
    assert_non_null(n->comments);
    assert_int_equal(n->comments->where.line, 73);
    n = n->next;                                           /* 7. … P2-1 */
    assert_node(n, "P2-1", 74, 6);
    assert_int_equal(n->number, 7);
    assert_true(n->number_dots3);
    n = nth_node(&g->main, 31);
    assert_node(n, "M5/6", 78, 24);
    assert_null(n->next);

    /* Game 3 (Biến 2): "3. … M2.3" after the comment; the =+ is on line 101 */
    g = &p.g[2];
    n = nth_node(&g->main, 5);
    assert_node(n, "M2.3", 93, 6);
    assert_int_equal(n->number, 3);
    assert_true(n->number_dots3);
    assert_int_equal(g->end.line, 101);
    /* Game 1 ends with its [/game] (the next line holds only a blank). */
    assert_int_equal(p.g[0].end.line, 48);
    assert_int_equal(p.g[0].end.column, 11);
    free(text);
    release(&p);
}

static void test_small_article(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/articles/small.txt", fixtures_dir());
    size_t len;
    char *text = slurp(path, &len);
    parsed p;
    parse_path(&p, path, WXF_INPUT_ARTICLE);
    assert_int_equal(p.n, 3);
    const rec_game *g = &p.g[0];
    assert_string_equal(rec_game_tag(g, "GAME"), "Article one");
    assert_int_equal(g->tags->where.line, 3);        /* "[game]FORMAT" on one line */
    assert_int_equal(g->tags->where.column, 19);
    assert_int_equal(line_length(&g->main), 4);
    assert_int_equal(g->game_nag_count, 1);           /* " [i]±[/i]" */
    assert_int_equal(g->game_nags[0], 16);
    assert_int_equal(g->finding_count, 0);
    check_spans(text, len, g);
    g = &p.g[1];                                      /* [GAME] ... [/game] newline [b]∞[/b] */
    assert_string_equal(rec_game_tag(g, "GAME"), "Article two");
    assert_int_equal(line_length(&g->main), 4);
    assert_string_equal(nth_node(&g->main, 0)->comments->text, "Biến: 1…h8+7 ");
    assert_int_equal(g->game_nag_count, 1);
    assert_int_equal(g->game_nags[0], 13);
    check_spans(text, len, g);
    g = &p.g[2];                                      /* [game][/game] */
    assert_finding_at(g, "empty-block", 18, 6);
    free(text);
    release(&p);
}

static void test_article_missing_end(void **state)
{
    (void)state;
    parsed p;
    parse_fixture(&p, "articles/missing-end.txt", WXF_INPUT_ARTICLE);
    assert_int_equal(p.n, 2);
    const rec_finding *f = NULL;
    for (f = p.g[0].findings; f; f = f->next)
        if (strcmp(f->code, "unterminated-block") == 0 && f->where.line == 2)
            break;
    assert_non_null(f);                               /* [game] at 2:1 */
    assert_int_equal(f->where.column, 1);
    assert_finding_at(&p.g[0], "unterminated-block", 5, 1);   /* its START{ first */
    assert_string_equal(nth_node(&p.g[0].main, 0)->text, "P2-6");
    const rec_game *g = &p.g[1];
    assert_string_equal(rec_game_tag(g, "GAME"), "Closed block");
    assert_int_equal(g->finding_count, 0);
    assert_int_equal(line_length(&g->main), 1);
    assert_int_equal(g->game_nag_count, 1);
    assert_int_equal(g->game_nags[0], 15);
    release(&p);
}

static void test_article_hostile(void **state)
{
    (void)state;
    parsed p;
    /* NUL and junk inside a block, a comment left open at [/game], text after. */
    static const char art[] = "x\n[game]\nFORMAT WXF\nSTART{\n1. P2-6 \x01 }\n/* open\n"
                              "}END[/game] prose, not an evaluation: =\n"
                              "[game]FORMAT WXF\nGAME Two\nSTART{\n1. C2.5 h8+7\n}END[/game]";
    FILE *f = fmemopen((void *)art, sizeof art - 1, "rb");
    read_games(&p, f, "mem", WXF_INPUT_ARTICLE);
    assert_int_equal(p.n, 2);
    assert_finding_at(&p.g[0], "syntax-error", 5, 9);
    assert_finding_at(&p.g[0], "unterminated-comment", 6, 1);
    assert_int_equal(p.g[0].game_nag_count, 0);
    assert_game_two(&p.g[1]);
    release(&p);
    /* a block that is cut by the end of input in a comment */
    parse_string(&p, "[game]FORMAT WXF\nSTART{ 1. P2-6 /* ab", WXF_INPUT_ARTICLE);
    assert_int_equal(p.n, 1);
    assert_finding_at(&p.g[0], "unterminated-comment", 2, 16);
    assert_finding_at(&p.g[0], "unterminated-block", 2, 1);    /* START{, then [game] */
    assert_int_equal(p.g[0].error_count, 3);
    assert_int_equal(p.g[0].findings_tail->where.line, 1);
    assert_int_equal(p.g[0].findings_tail->where.column, 1);
    release(&p);
}

/* ------------------------------------------------------------------ streaming, sniffing */

/* Many records through the reader with one arena: every record comes out, in order,
 * with positions growing (a bounded-memory run is the point: nothing is kept). */
static void test_many_records(void **state)
{
    (void)state;
    const char *rec = "FORMAT WXF\nGAME G\nSTART{\n 1. C2.5 h8+7   2. H2+3 r9.8\n"
                      "/* a comment */ 3. R1.2 c8.9!\n}END\n";
    size_t rl = strlen(rec), n = 3000;
    char *buf = malloc(rl * n + 1);
    assert_non_null(buf);
    for (size_t i = 0; i < n; i++)
        memcpy(buf + i * rl, rec, rl);
    buf[rl * n] = '\0';
    FILE *f = fmemopen(buf, rl * n, "rb");
    wxf_reader *r = wxf_reader_open(f, "mem", WXF_INPUT_WXF);
    arena a;
    arena_init(&a);
    rec_game g;
    size_t count = 0;
    while (wxf_reader_next(r, &g, &a) == 1) {
        assert_int_equal(g.start.line, count * 6 + 1);
        assert_int_equal(line_length(&g.main), 6);
        assert_int_equal(g.finding_count, 0);
        count++;
        arena_reset(&a);
    }
    assert_int_equal(count, n);
    wxf_reader_close(r);
    arena_free(&a);
    fclose(f);
    free(buf);
}

static void test_sniff(void **state)
{
    (void)state;
    static const struct { const char *s; input_format want; } cases[] = {
        {"FORMAT  WXF\r\nRED x\r\n", INPUT_WXF},
        {"\xEF\xBB\xBF" "FORMAT\tWXF\n", INPUT_WXF},
        {"\n\n[Event \"x\"]\n[Site \"y\"]\n", INPUT_PGN},
        {"Some prose.\n[b]x[/b]\n[game]\nFORMAT WXF\n", INPUT_ARTICLE},
        {"Prose\n[GAME]FORMAT WXF", INPUT_ARTICLE},
        {"GAME x\nSTART{\n}END\n", INPUT_WXF},
        {"% comment\n[Event \"x\"]\n", INPUT_PGN},
        {"1. e4 e5 *\n", INPUT_PGN},
        {"hello world\n", INPUT_UNKNOWN},
        {"", INPUT_UNKNOWN},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        assert_int_equal(reader_sniff(cases[i].s, strlen(cases[i].s), NULL), cases[i].want);
}

static void test_io_error(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        FILE *f = fopen("/dev/null", "w");
        assert_non_null(f);
        wxf_reader *r = wxf_reader_open(f, "out", k ? WXF_INPUT_ARTICLE : WXF_INPUT_WXF);
        arena a;
        arena_init(&a);
        rec_game g;
        assert_int_equal(wxf_reader_next(r, &g, &a), -1);
        assert_true(strlen(wxf_reader_error(r)) > 0);
        wxf_reader_close(r);
        arena_free(&a);
        fclose(f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_playok),
        cmocka_unit_test(test_xiexie),
        cmocka_unit_test(test_basic_fixture),
        cmocka_unit_test(test_source_reads),
        cmocka_unit_test(test_setup_fixture),
        cmocka_unit_test(test_moves_as_text),
        cmocka_unit_test(test_hostile_unterminated_start),
        cmocka_unit_test(test_hostile_unterminated_comment),
        cmocka_unit_test(test_hostile_junk),
        cmocka_unit_test(test_hostile_nul),
        cmocka_unit_test(test_hostile_crlf_bom),
        cmocka_unit_test(test_hostile_empty),
        cmocka_unit_test(test_hostile_eof_mid_token),
        cmocka_unit_test(test_hostile_unterminated_setup_diag),
        cmocka_unit_test(test_misplaced),
        cmocka_unit_test(test_seed_article),
        cmocka_unit_test(test_small_article),
        cmocka_unit_test(test_article_missing_end),
        cmocka_unit_test(test_article_hostile),
        cmocka_unit_test(test_many_records),
        cmocka_unit_test(test_sniff),
        cmocka_unit_test(test_io_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
