/* test_ccbridge.c: the CCBridge readers (io/ccb.h, cbr.h, cbl.h, cbf.h) on records
 * built here byte by byte from the reference layout (§4) and on the shared samples:
 * header fields, start position and side to move, trees with variations and comments,
 * libraries driven by their index (unused entries, records over several slots, a
 * heading with no moves, the library name as Event), the compressed kind, the XML
 * form; hostile input (every truncation, looping and huge lengths, bad index entries)
 * gives findings at byte offsets, the other records intact, never a crash. */
#include <config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#ifdef HAVE_ZLIB
#include <zlib.h>
#endif

#include "io/cbf.h"
#include "io/cbl.h"
#include "io/cbr.h"
#include "io/ccb.h"
#include "io/ccb_reader.h"

/* ------------------------------------------------------------------ builders */

typedef struct bytes {
    unsigned char *d;
    size_t n, cap;
} bytes;

static void reserve(bytes *b, size_t n)
{
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2;
        b->d = realloc(b->d, b->cap);
        assert_non_null(b->d);
    }
}

static void add(bytes *b, const void *s, size_t n)
{
    reserve(b, n);
    memcpy(b->d + b->n, s, n);
    b->n += n;
}

static void add32(bytes *b, uint32_t v)
{
    unsigned char x[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 24)};
    add(b, x, 4);
}

static void add16(bytes *b, unsigned v)
{
    unsigned char x[2] = {(unsigned char)v, (unsigned char)(v >> 8)};
    add(b, x, 2);
}

static void zeros(bytes *b, size_t n)
{
    reserve(b, n);
    memset(b->d + b->n, 0, n);
    b->n += n;
}

static void put32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

/* ASCII or BMP text given as UTF-8 into UTF-16LE at p (no more than width bytes). */
static void put_utf16(unsigned char *p, const char *s, size_t width)
{
    size_t o = 0;
    const unsigned char *u = (const unsigned char *)s;
    while (*u && o + 2 <= width) {
        uint32_t c;
        if (*u < 0x80)
            c = *u++;
        else if ((*u & 0xE0) == 0xC0) {
            c = (uint32_t)(u[0] & 0x1F) << 6 | (u[1] & 0x3F);
            u += 2;
        } else {
            c = (uint32_t)(u[0] & 0x0F) << 12 | (uint32_t)(u[1] & 0x3F) << 6 | (u[2] & 0x3F);
            u += 3;
        }
        p[o++] = (unsigned char)c;
        p[o++] = (unsigned char)(c >> 8);
    }
}

/* The standard start as a CBR board. */
static void start_board(unsigned char *b)
{
    static const char *rows[10] = {"rnbakabnr", ".........", ".c.....c.", "p.p.p.p.p", ".........",
                                   ".........", "P.P.P.P.P", ".C.....C.", ".........", "RNBAKABNR"};
    static const char kinds[] = "?RNBAKCP";
    for (int r = 0; r < 10; r++)
        for (int c = 0; c < 9; c++) {
            char ch = rows[r][c];
            unsigned char v = 0;
            if (ch != '.') {
                char up = (char)(ch >= 'a' ? ch - 32 : ch);
                v = (unsigned char)((strchr(kinds, up) - kinds) | (ch >= 'a' ? 0x20 : 0x10));
            }
            b[r * 9 + c] = v;
        }
}

/* A version 2 header: title, event, red, black, result, Red to move at move 1. */
static void cbr_header(bytes *b, const char *title, unsigned result)
{
    zeros(b, CBR_V2_TREE);
    unsigned char *h = b->d + b->n - CBR_V2_TREE;
    memcpy(h, CBR_MAGIC, 16);
    h[19] = 2;
    put_utf16(h + 180, title, 128);
    put_utf16(h + 1076, "许银川", 64);
    put_utf16(h + 1300, "吕钦", 64);
    put_utf16(h + 884, "1999.12.09", 64);
    h[2076] = (unsigned char)result;
    put32(h + 2112, 1);
    h[2116] = 1;
    start_board(h + 2120);
}

static int sq(const char *ucci)
{
    return ('9' - ucci[1]) * 9 + (ucci[0] - 'a');
}

/* A tree node: flags (1 end of line, 2 alternative follows), move, comment or NULL. */
static void node(bytes *b, unsigned flags, const char *move, const char *comment)
{
    unsigned char n[4] = {(unsigned char)(flags | (comment ? 4 : 0)), 0,
                          (unsigned char)(move ? sq(move) : 0), (unsigned char)(move ? sq(move + 2) : 0)};
    add(b, n, 4);
    if (comment) {
        unsigned char t[256] = {0};
        put_utf16(t, comment, sizeof t);
        size_t len = 0;
        while (len + 1 < sizeof t && (t[len] || t[len + 1]))
            len += 2;
        add32(b, (uint32_t)len);
        add(b, t, len);
    }
}

/* A record: 1. h2e2 (1. b2e2) h9g7 {c} 2. h0g2 and a game comment. */
static void sample_record(bytes *b, const char *title)
{
    cbr_header(b, title, 1);
    node(b, 0, NULL, "game comment");
    node(b, 2, "h2e2", "central cannon");
    node(b, 1, "h9g7", "horse");
    node(b, 0, "b2e2", NULL);
    node(b, 1, "h9g7", NULL);
}

static int count_line(const rec_line *l, int *vars)
{
    int n = 0;
    for (const rec_node *x = l->first; x; x = x->next) {
        n++;
        for (const rec_line *v = x->variations; v; v = v->next) {
            (*vars)++;
            n += count_line(v, vars);
        }
    }
    return n;
}

static bool has_finding(const rec_game *g, const char *code, rec_severity sev)
{
    for (const rec_finding *f = g->findings; f; f = f->next)
        if (strcmp(f->code, code) == 0 && f->severity == sev)
            return true;
    return false;
}

/* ------------------------------------------------------------------ shared */

static void test_utf16(void **state)
{
    (void)state;
    arena a;
    arena_init(&a);
    /* "A", U+4E2D, U+1F600 as a pair, CR LF, "B", NUL, "C" */
    static const unsigned char s[] = {'A', 0, 0x2D, 0x4E, 0x3D, 0xD8, 0x00, 0xDE, '\r', 0,
                                      '\n', 0, 'B', 0, 0, 0, 'C', 0};
    bool bad;
    assert_string_equal(ccb_utf16(&a, s, sizeof s, true, &bad), "A\xE4\xB8\xAD\xF0\x9F\x98\x80\nB");
    assert_false(bad);
    assert_string_equal(ccb_utf16(&a, s, sizeof s, false, &bad), "A\xE4\xB8\xAD\xF0\x9F\x98\x80\nBC");
    /* a lone surrogate and an odd last byte */
    static const unsigned char lone[] = {0x00, 0xDC, 'x', 0, 'y'};
    assert_string_equal(ccb_utf16(&a, lone, sizeof lone, true, &bad), "\xEF\xBF\xBDx");
    assert_true(bad);
    assert_string_equal(ccb_utf16(&a, lone, 0, true, &bad), "");
    arena_free(&a);
}

static void test_board(void **state)
{
    (void)state;
    arena a;
    arena_init(&a);
    uint8_t b[90];
    start_board(b);
    bool bad;
    assert_null(ccb_board_fen(&a, b, 0, 1, &bad));
    assert_false(bad);
    assert_string_equal(ccb_board_fen(&a, b, 1, 1, &bad),
                        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1");
    memset(b, 0, sizeof b);
    b[4] = 0x25;   /* black king e9 */
    b[85] = 0x15;  /* red king e0 */
    b[40] = 0x99;  /* no piece */
    assert_string_equal(ccb_board_fen(&a, b, 0, 12, &bad), "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 12");
    assert_true(bad);
    assert_string_equal(ccb_move_text(&a, sq("h2"), sq("e2")), "h2e2");
    assert_string_equal(ccb_move_text(&a, 0, 89), "a9i0");
    assert_string_equal(ccb_move_text(&a, 90, 3), "?90-3");
    arena_free(&a);
}

/* ------------------------------------------------------------------ CBR */

static void test_cbr_built(void **state)
{
    (void)state;
    bytes b = {0};
    sample_record(&b, "Test 一");
    arena a;
    arena_init(&a);
    rec_game g;
    rec_game_init(&g, &a, "t.cbr", 1);
    cbr_counts c;
    cbr_decode(b.d, b.n, 0, false, &g, &a, &c);
    assert_int_equal(g.error_count + g.warning_count, 0);
    assert_true(c.complete);
    assert_int_equal(c.end, b.n);
    assert_int_equal(c.moves, 4);
    assert_int_equal(c.variations, 1);
    assert_int_equal(c.comments, 3);
    assert_string_equal(rec_game_tag(&g, "Title"), "Test 一");
    assert_string_equal(rec_game_tag(&g, "Red"), "许银川");
    assert_string_equal(rec_game_tag(&g, "Black"), "吕钦");
    assert_string_equal(rec_game_tag(&g, "Date"), "1999.12.09");
    assert_string_equal(rec_game_tag(&g, "Result"), "1-0");
    assert_null(rec_game_tag(&g, "FEN"));
    assert_null(rec_game_tag(&g, "Event"));
    assert_string_equal(g.main.comments->text, "game comment");
    const rec_node *n = g.main.first;
    assert_string_equal(n->text, "h2e2");
    assert_string_equal(n->comments->text, "central cannon");
    assert_string_equal(n->next->text, "h9g7");
    assert_null(n->next->next);
    assert_string_equal(n->variations->first->text, "b2e2");
    assert_string_equal(n->variations->first->next->text, "h9g7");
    assert_int_equal(n->where.offset, CBR_V2_TREE + 4 + 4 + 24);
    /* Black to move from move 5 of the standard start */
    put32(b.d + 2112, 2);
    b.d[2116] = 5;
    rec_game_init(&g, &a, "t.cbr", 1);
    cbr_decode(b.d, b.n, 0, false, &g, &a, NULL);
    assert_string_equal(rec_game_tag(&g, "FEN"),
                        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 5");
    /* a bad side code and result code: warnings, read as Red and unknown */
    put32(b.d + 2112, 7);
    b.d[2076] = 4;
    rec_game_init(&g, &a, "t.cbr", 1);
    cbr_decode(b.d, b.n, 0, false, &g, &a, NULL);
    assert_int_equal(g.warning_count, 2);
    assert_string_equal(rec_game_tag(&g, "Result"), "*");
    arena_free(&a);
    free(b.d);
}

/* Version 1 (reference: strings 128 bytes earlier, result/position/tree 256 earlier,
 * squares as column and row nibbles) made from a version 2 record: same game. */
static void test_cbr_v1(void **state)
{
    (void)state;
    bytes v2 = {0};
    sample_record(&v2, "old");
    bytes v1 = {0};
    zeros(&v1, CBR_V1_TREE);
    memcpy(v1.d, v2.d, 20);
    v1.d[19] = 1;
    memcpy(v1.d + 52, v2.d + 180, 2076 - 180 - 256 + 128); /* the string fields */
    memset(v1.d + 1820, 0, CBR_V1_TREE - 1820);
    v1.d[1820] = v2.d[2076];
    memcpy(v1.d + 1856, v2.d + 2112, 8);
    memcpy(v1.d + 1864, v2.d + 2120, 90);
    for (size_t p = CBR_V2_TREE; p < v2.n;) {
        unsigned char n[4];
        memcpy(n, v2.d + p, 4);
        for (int k = 2; k < 4; k++)
            n[k] = (unsigned char)((n[k] % 9) << 4 | n[k] / 9);
        add(&v1, n, 4);
        size_t len = 0;
        if (v2.d[p] & 4) {
            len = 4 + ((size_t)v2.d[p + 4] | (size_t)v2.d[p + 5] << 8);
            add(&v1, v2.d + p + 4, len);
        }
        p += 4 + len;
    }
    arena a;
    arena_init(&a);
    rec_game g1, g2;
    rec_game_init(&g1, &a, "v1.cbr", 1);
    rec_game_init(&g2, &a, "v2.cbr", 1);
    cbr_counts c1, c2;
    cbr_decode(v1.d, v1.n, 0, false, &g1, &a, &c1);
    cbr_decode(v2.d, v2.n, 0, false, &g2, &a, &c2);
    assert_int_equal(g1.error_count + g1.warning_count, 0);
    assert_int_equal(c1.moves, c2.moves);
    assert_int_equal(c1.variations, c2.variations);
    assert_int_equal(c1.comments, c2.comments);
    assert_string_equal(rec_game_tag(&g1, "Title"), "old");
    assert_string_equal(rec_game_tag(&g1, "Red"), "许银川");
    assert_string_equal(rec_game_tag(&g1, "Result"), "1-0");
    assert_string_equal(g1.main.first->text, "h2e2");
    assert_string_equal(g1.main.first->variations->first->text, "b2e2");
    /* an unknown version */
    v1.d[19] = 3;
    rec_game_init(&g1, &a, "v3.cbr", 1);
    cbr_decode(v1.d, v1.n, 0, false, &g1, &a, NULL);
    assert_true(has_finding(&g1, "bad-cbr", REC_ERROR));
    arena_free(&a);
    free(v1.d);
    free(v2.d);
}

static void test_cbr_hostile(void **state)
{
    (void)state;
    bytes b = {0};
    sample_record(&b, "hostile");
    arena a;
    arena_init(&a);
    /* every truncation: an error finding, never a crash */
    for (size_t n = 0; n < b.n; n++) {
        rec_game g;
        rec_game_init(&g, &a, "cut.cbr", 1);
        cbr_decode(b.d, n, 0, false, &g, &a, NULL);
        assert_true(g.error_count > 0);
        arena_reset(&a);
    }
    /* a comment length of 4 GiB - 1 */
    bytes h = {0};
    cbr_header(&h, "x", 0);
    unsigned char big[8] = {4, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF};
    add(&h, big, 8);
    rec_game g;
    rec_game_init(&g, &a, "big.cbr", 1);
    cbr_decode(h.d, h.n, 0, false, &g, &a, NULL);
    assert_true(has_finding(&g, "bad-cbr", REC_ERROR));
    assert_int_equal(g.findings->where.offset, CBR_V2_TREE + 4);
    /* alternatives promised forever: each node takes 4 bytes, so it ends */
    h.n = CBR_V2_TREE;
    node(&h, 0, NULL, NULL);
    for (int i = 0; i < 1000; i++)
        node(&h, 2, "h2e2", NULL);
    rec_game_init(&g, &a, "loop.cbr", 1);
    cbr_counts c;
    cbr_decode(h.d, h.n, 0, false, &g, &a, &c);
    assert_true(has_finding(&g, "bad-cbr", REC_ERROR));
    assert_int_equal(c.moves, 1000);
    /* bytes after the tree */
    zeros(&b, 3);
    rec_game_init(&g, &a, "tail.cbr", 1);
    cbr_decode(b.d, b.n, 0, false, &g, &a, NULL);
    assert_true(has_finding(&g, "bad-cbr", REC_ERROR));
    assert_int_equal(g.main.first->next->text[0], 'h');
    arena_free(&a);
    free(b.d);
    free(h.d);
}

/* ------------------------------------------------------------------ CBL */

/* A library: entries given as (type, record bytes or NULL for unused); records over
 * a slot take several. */
typedef struct lib_entry {
    uint32_t type;
    const bytes *record;
    int32_t slots_delta;     /* added to the slot count written (hostile) */
    int32_t length_delta;
} lib_entry;

static void build_library(bytes *out, const char *name, uint32_t cap, const lib_entry *e, size_t n)
{
    zeros(out, CBL_INDEX + (size_t)CBL_ENTRY * cap);
    memcpy(out->d, CBL_MAGIC, 16);
    put32(out->d + 16, 3);
    put32(out->d + 60, cap);
    put_utf16(out->d + 64, name, 512);
    for (size_t i = 0; i < n; i++) {
        unsigned char *x = out->d + CBL_INDEX + CBL_ENTRY * i;
        put32(x, e[i].type);
        if (!e[i].type)
            continue;
        uint32_t slots = (uint32_t)((e[i].record->n + CBL_SLOT - 1) / CBL_SLOT);
        put32(x + 4, (uint32_t)i);
        put32(x + 8, (uint32_t)((int32_t)slots + e[i].slots_delta));
        put32(x + 12, (uint32_t)((int32_t)e[i].record->n + e[i].length_delta));
    }
    for (size_t i = 0; i < n; i++) {
        if (!e[i].type)
            continue;
        size_t at = out->n;
        add(out, e[i].record->d, e[i].record->n);
        /* leftovers after the record, up to the slot boundary */
        size_t pad = (CBL_SLOT - (out->n - at) % CBL_SLOT) % CBL_SLOT;
        reserve(out, pad);
        memset(out->d + out->n, 0xAB, pad);
        out->n += pad;
    }
}

static void test_cbl_built(void **state)
{
    (void)state;
    bytes r1 = {0}, r2 = {0}, heading = {0};
    sample_record(&r1, "one");
    sample_record(&r2, "two");
    /* a long comment takes the record over two slots */
    r2.n = CBR_V2_TREE;
    node(&r2, 0, NULL, NULL);
    for (int i = 0; i < 40; i++)
        node(&r2, 0, i % 2 ? "h9g7" : "h0g2", "a long comment to fill the second slot ....");
    node(&r2, 1, "h9g7", NULL);
    assert_true(r2.n > CBL_SLOT);
    cbr_header(&heading, "Chapter 2", 0);
    node(&heading, 1, NULL, NULL);
    lib_entry e[] = {{0, NULL, 0, 0}, {7, &r1, 0, 0}, {0, NULL, 0, 0}, {7, &r2, 0, 0},
                     {5, &heading, 0, 0}};
    bytes lib = {0};
    build_library(&lib, "My library", 8, e, 5);
    cbl_library *l = cbl_open(lib.d, lib.n);
    assert_non_null(l);
    assert_false(cbl_packed(l));
    assert_string_equal(cbl_name(l), "My library");
    assert_int_equal(cbl_count(l), 3);
    arena a;
    arena_init(&a);
    rec_game g;
    cbr_counts c;
    rec_game_init(&g, &a, "lib.cbl", 1);
    cbl_game(l, 0, &g, &a, &c);
    assert_int_equal(g.error_count + g.warning_count, 0);
    assert_string_equal(rec_game_tag(&g, "Title"), "one");
    assert_string_equal(rec_game_tag(&g, "Event"), "My library");
    assert_int_equal(c.moves, 4);
    size_t data_at = CBL_INDEX + CBL_ENTRY * 8;
    assert_int_equal(g.start.offset, data_at);
    rec_game_init(&g, &a, "lib.cbl", 2);
    cbl_game(l, 1, &g, &a, &c);
    assert_int_equal(g.error_count + g.warning_count, 0);
    assert_string_equal(rec_game_tag(&g, "Title"), "two");
    assert_int_equal(c.moves, 41);
    assert_int_equal(c.comments, 40);
    assert_int_equal(g.start.offset, data_at + CBL_SLOT);
    rec_game_init(&g, &a, "lib.cbl", 3);
    cbl_game(l, 2, &g, &a, &c);
    assert_int_equal(g.start.offset, data_at + 3 * CBL_SLOT);
    assert_null(g.main.first);
    assert_true(has_finding(&g, "cbl-heading", REC_INFO));
    assert_int_equal(g.error_count, 0);
    cbl_close(l);

    /* a record longer than its slots, then a good one: the good one intact */
    lib_entry e2[] = {{7, &r2, -1, 0}, {7, &r1, 0, 0}};
    lib.n = 0;
    build_library(&lib, "bad", 4, e2, 2);
    l = cbl_open(lib.d, lib.n);
    assert_int_equal(cbl_count(l), 2);
    rec_game_init(&g, &a, "bad.cbl", 1);
    cbl_game(l, 0, &g, &a, NULL);
    assert_true(has_finding(&g, "bad-cbl", REC_ERROR));
    assert_int_equal(g.findings->where.offset, CBL_INDEX + 12);
    rec_game_init(&g, &a, "bad.cbl", 2);
    cbl_game(l, 1, &g, &a, &c);
    /* the first record's slot count is one short, so the second starts a slot early:
     * it reads the first record's second slot, which is no record */
    assert_true(g.error_count > 0);
    cbl_close(l);

    /* a record whose tree runs past its stated length */
    lib_entry e3[] = {{7, &r1, 0, -3}, {7, &r1, 0, 0}};
    lib.n = 0;
    build_library(&lib, "short", 4, e3, 2);
    l = cbl_open(lib.d, lib.n);
    rec_game_init(&g, &a, "short.cbl", 1);
    cbl_game(l, 0, &g, &a, &c);
    assert_true(has_finding(&g, "bad-cbr", REC_ERROR));
    assert_int_equal(c.moves, 3);
    rec_game_init(&g, &a, "short.cbl", 2);
    cbl_game(l, 1, &g, &a, &c);
    assert_int_equal(g.error_count, 0);
    assert_int_equal(c.moves, 4);
    cbl_close(l);

    /* an index that does not fit; a record past the end; no used entry */
    lib.n = 0;
    build_library(&lib, "cap", 4, e3, 2);
    put32(lib.d + 60, 0x7FFFFFFF);
    l = cbl_open(lib.d, lib.n);
    assert_int_equal(cbl_count(l), 1);
    rec_game_init(&g, &a, "cap.cbl", 1);
    cbl_game(l, 0, &g, &a, NULL);
    assert_true(has_finding(&g, "bad-cbl", REC_ERROR));
    assert_int_equal(g.findings->where.offset, 60);
    cbl_close(l);
    put32(lib.d + 60, 4);
    put32(lib.d + CBL_INDEX + 8, 0x7FFFFFFF); /* the first record takes "all" slots */
    l = cbl_open(lib.d, lib.n);
    rec_game_init(&g, &a, "slots.cbl", 2);
    cbl_game(l, 1, &g, &a, NULL);
    assert_true(has_finding(&g, "bad-cbl", REC_ERROR));
    cbl_close(l);
    memset(lib.d + CBL_INDEX, 0, CBL_ENTRY * 4);
    l = cbl_open(lib.d, lib.n);
    assert_int_equal(cbl_count(l), 1);
    cbl_close(l);
    /* every truncation of a library: findings, no crash */
    lib.n = 0;
    build_library(&lib, "cut", 2, e, 2);
    for (size_t n = 0; n < lib.n; n += n < CBL_INDEX ? 4099 : 97) {
        l = cbl_open(lib.d, n);
        for (size_t k = 0; k < cbl_count(l); k++) {
            rec_game_init(&g, &a, "cut.cbl", k + 1);
            cbl_game(l, k, &g, &a, NULL);
        }
        cbl_close(l);
        arena_reset(&a);
    }
    arena_free(&a);
    free(lib.d);
    free(r1.d);
    free(r2.d);
    free(heading.d);
}

/* ------------------------------------------------------------------ compressed CBL */

static void gbk_text(bytes *b, const char *s)
{
    add32(b, (uint32_t)strlen(s));
    add(b, s, strlen(s));
}

/* A compressed-kind record: kings and a rook; moves given as (ply, from, to). */
static void packed_record(bytes *b, const char *title, int red_to_move, const int (*moves)[3],
                          int n, const char *const *comments, const char *remark)
{
    size_t start = b->n;
    add32(b, 0); /* length, patched below */
    unsigned char table[32] = {0};
    table[0] = (unsigned char)((0 + 1) << 4 | (9 + 1));  /* R a0 */
    table[4] = (unsigned char)((4 + 1) << 4 | (9 + 1));  /* K e0 */
    table[20] = (unsigned char)((3 + 1) << 4 | (0 + 1)); /* k d9 */
    add(b, table, 32);
    add32(b, 4);
    add32(b, 0);
    add32(b, 1);
    gbk_text(b, title);
    for (int i = 0; i < 6; i++)
        gbk_text(b, "");
    add32(b, 1);
    for (int i = 0; i < 4; i++)
        gbk_text(b, "");
    gbk_text(b, remark);
    unsigned char side = (unsigned char)red_to_move;
    add(b, &side, 1);
    add(b, "2009-02-01 17:14:022009-02-01 17:14:05", 38);
    add32(b, (uint32_t)n);
    for (int i = 0; i < n; i++) {
        add16(b, (unsigned)moves[i][0]);
        unsigned char m[4] = {(unsigned char)moves[i][1], (unsigned char)moves[i][2], 0, 0};
        add(b, m, 4);
    }
    for (int i = 0; i < n; i++) {
        if (comments && comments[i])
            add(b, comments[i], strlen(comments[i]));
        add(b, "\r\n", 2);
    }
    put32(b->d + start, (uint32_t)(b->n - start));
}

#define SQ(col, row) ((col) << 4 | (row))

static void packed_library(bytes *inflated, int records)
{
    gbk_text(inflated, "\xb2\xd0\xbe\xd6"); /* 残局 */
    for (int i = 0; i < 4; i++)
        gbk_text(inflated, "");
    add(inflated, "2009-02-01 17:14:022009-02-01 17:14:05", 38);
    add32(inflated, (uint32_t)records);
    add32(inflated, 0);
    /* 1. Ra0-a8 (1. Ke0-f0) Kd9-d8 2. ... with a comment on the alternative */
    static const int m1[][3] = {{1, SQ(0, 9), SQ(0, 1)}, {2, SQ(3, 0), SQ(3, 1)},
                                {1, SQ(4, 9), SQ(5, 9)}, {2, SQ(3, 0), SQ(4, 0)}};
    static const char *const c1[] = {NULL, "two", "\xba\xec\xca\xa4", NULL}; /* 红胜 */
    packed_record(inflated, "r1", 1, m1, 4, c1, "remark");
    static const int m2[][3] = {{1, SQ(3, 0), SQ(4, 0)}};
    packed_record(inflated, "r2", 0, m2, 1, NULL, "");
    for (int i = 2; i < records; i++)
        packed_record(inflated, "heading", 1, NULL, 0, NULL, "");
}

#ifdef HAVE_ZLIB
static void compress_library(const bytes *inflated, bytes *out)
{
    add(out, "CCBridge", 8);
    add32(out, 21);
    add32(out, 3);
    add32(out, (uint32_t)inflated->n);
    uLongf n = compressBound(inflated->n);
    reserve(out, n);
    assert_int_equal(compress2(out->d + out->n, &n, inflated->d, inflated->n, 9), Z_OK);
    out->n += n;
}
#endif

static void test_cbl_packed(void **state)
{
    (void)state;
#ifndef HAVE_ZLIB
    skip();
#else
    bytes in = {0}, z = {0};
    packed_library(&in, 3);
    compress_library(&in, &z);
    assert_true(cbl_sniff(z.d, z.n));
    cbl_library *l = cbl_open(z.d, z.n);
    assert_true(cbl_packed(l));
    assert_string_equal(cbl_name(l), "残局");
    assert_int_equal(cbl_count(l), 3);
    arena a;
    arena_init(&a);
    rec_game g;
    cbr_counts c;
    rec_game_init(&g, &a, "p.cbl", 1);
    cbl_game(l, 0, &g, &a, &c);
    assert_int_equal(g.error_count + g.warning_count, 0);
    assert_string_equal(rec_game_tag(&g, "Title"), "r1");
    assert_string_equal(rec_game_tag(&g, "Event"), "残局");
    assert_string_equal(rec_game_tag(&g, "Result"), "1-0");
    assert_string_equal(rec_game_tag(&g, "FEN"), "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1");
    assert_int_equal(c.moves, 4);
    assert_int_equal(c.variations, 1);
    assert_int_equal(c.comments, 3);
    assert_string_equal(g.main.comments->text, "remark");
    const rec_node *n = g.main.first;
    assert_string_equal(n->text, "a0a8");
    assert_string_equal(n->next->text, "d9d8");
    assert_string_equal(n->next->comments->text, "two");
    assert_string_equal(n->variations->first->text, "e0f0");
    assert_string_equal(n->variations->first->comments->text, "红胜");
    assert_string_equal(n->variations->first->next->text, "d9e9");
    rec_game_init(&g, &a, "p.cbl", 2);
    cbl_game(l, 1, &g, &a, &c);
    assert_string_equal(rec_game_tag(&g, "FEN"), "3k5/9/9/9/9/9/9/9/9/R3K4 b - - 0 1");
    assert_string_equal(g.main.first->text, "d9e9");
    rec_game_init(&g, &a, "p.cbl", 3);
    cbl_game(l, 2, &g, &a, &c);
    assert_true(has_finding(&g, "cbl-heading", REC_INFO));
    cbl_close(l);

    /* a record length that runs past the data: the records before it intact */
    bytes bad = {0}, zb = {0};
    add(&bad, in.d, in.n);
    size_t second = 0;
    for (size_t p = 0; p + 2 < bad.n; p++)
        if (memcmp(bad.d + p, "\x02\x00\x00\x00r2", 6) == 0)
            second = p - 48;
    assert_true(second > 0);
    put32(bad.d + second, 0x7FFFFFF0);
    compress_library(&bad, &zb);
    l = cbl_open(zb.d, zb.n);
    assert_int_equal(cbl_count(l), 2);
    rec_game_init(&g, &a, "b.cbl", 1);
    cbl_game(l, 0, &g, &a, &c);
    assert_int_equal(c.moves, 4);
    rec_game_init(&g, &a, "b.cbl", 2);
    cbl_game(l, 1, &g, &a, &c);
    assert_true(has_finding(&g, "bad-cbl", REC_ERROR));
    assert_int_equal(g.findings->where.offset, second);
    cbl_close(l);
    /* a ply that jumps: the moves before it kept */
    bytes jump = {0}, zj = {0};
    add(&jump, in.d, in.n);
    for (size_t p = 0; p + 6 < jump.n; p++)
        if (jump.d[p] == 2 && jump.d[p + 1] == 0 && jump.d[p + 2] == SQ(3, 0) &&
            jump.d[p + 3] == SQ(3, 1)) {
            jump.d[p] = 9;
            break;
        }
    compress_library(&jump, &zj);
    l = cbl_open(zj.d, zj.n);
    rec_game_init(&g, &a, "j.cbl", 1);
    cbl_game(l, 0, &g, &a, &c);
    assert_true(has_finding(&g, "bad-cbl", REC_ERROR));
    assert_int_equal(c.moves, 1);
    cbl_close(l);
    /* cut zlib data, a huge inflated size, and every truncation */
    l = cbl_open(z.d, z.n - 10);
    rec_game_init(&g, &a, "cut.cbl", 1);
    cbl_game(l, 0, &g, &a, NULL);
    assert_true(has_finding(&g, "bad-cbl", REC_ERROR));
    cbl_close(l);
    put32(z.d + 16, 0xFFFFFFFF);
    l = cbl_open(z.d, z.n);
    assert_int_equal(cbl_count(l), 1);
    rec_game_init(&g, &a, "huge.cbl", 1);
    cbl_game(l, 0, &g, &a, NULL);
    assert_true(has_finding(&g, "bad-cbl", REC_ERROR));
    assert_int_equal(g.findings->where.offset, 16);
    cbl_close(l);
    put32(z.d + 16, (uint32_t)in.n);
    for (size_t cut_len = 0; cut_len < in.n; cut_len += 3) {
        bytes zc = {0};
        bytes cut = {in.d, cut_len, cut_len};
        compress_library(&cut, &zc);
        l = cbl_open(zc.d, zc.n);
        for (size_t k = 0; k < cbl_count(l); k++) {
            rec_game_init(&g, &a, "cut.cbl", k + 1);
            cbl_game(l, k, &g, &a, NULL);
        }
        cbl_close(l);
        free(zc.d);
        arena_reset(&a);
    }
    arena_free(&a);
    free(in.d);
    free(z.d);
    free(bad.d);
    free(zb.d);
    free(jump.d);
    free(zj.d);
#endif
}

/* ------------------------------------------------------------------ CBF */

static void test_cbf(void **state)
{
    (void)state;
    static const char xml[] =
        "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n"
        "<ChineseChessRecord Version=\"1.0\">\r\n <Head>\r\n  <Name>A &amp; B &#x4E2D;</Name>\r\n"
        "  <URL />\r\n  <Contest>Cup</Contest>\r\n  <Red>许银川</Red>\r\n  <RedRating>2600</RedRating>\r\n"
        "  <ECCO>B00</ECCO>\r\n  <RecordResult>2</RecordResult>\r\n"
        "  <FEN>rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1</FEN>\r\n"
        " </Head>\r\n <!-- a comment -->\r\n <MoveList>\r\n"
        "  <Move value=\"00-00\"><![CDATA[ opening\r\nline 2]]></Move>\r\n"
        "  <Move value=\"77-47\" />\r\n  <Move value=\"72-42\"><![CDATA[a <b> ]]]></Move>\r\n"
        "  <Move value=\"79-67\" end=\"1\" />\r\n </MoveList>\r\n</ChineseChessRecord>\r\n";
    const unsigned char *x = (const unsigned char *)xml;
    assert_true(cbf_sniff(x, sizeof xml - 1));
    assert_false(cbr_sniff(x, sizeof xml - 1));
    arena a;
    arena_init(&a);
    rec_game g;
    cbr_counts c;
    rec_game_init(&g, &a, "t.cbf", 1);
    cbf_decode(x, sizeof xml - 1, &g, &a, &c);
    assert_int_equal(g.error_count + g.warning_count, 0);
    assert_string_equal(rec_game_tag(&g, "Title"), "A & B 中");
    assert_string_equal(rec_game_tag(&g, "Event"), "Cup");
    assert_string_equal(rec_game_tag(&g, "Red"), "许银川");
    assert_string_equal(rec_game_tag(&g, "RedElo"), "2600");
    assert_string_equal(rec_game_tag(&g, "ECCO"), "B00");
    assert_string_equal(rec_game_tag(&g, "Result"), "0-1");
    assert_null(rec_game_tag(&g, "FEN"));
    assert_null(rec_game_tag(&g, "URL"));
    assert_int_equal(c.moves, 3);
    assert_int_equal(c.comments, 2);
    assert_string_equal(g.main.comments->text, "opening\nline 2");
    assert_string_equal(g.main.first->text, "h2e2");
    assert_string_equal(g.main.first->next->text, "h7e7");
    assert_string_equal(g.main.first->next->comments->text, "a <b> ]");
    assert_string_equal(g.main.first->next->next->text, "h0g2");
    /* moves after the end of the line, a bad value, an unclosed tag, every truncation */
    static const char after[] = "<ChineseChessRecord><MoveList><Move value=\"00-00\"/>"
                                "<Move value=\"77-47\" end=\"1\"/><Move value=\"72-42\"/>"
                                "</MoveList></ChineseChessRecord>";
    rec_game_init(&g, &a, "after.cbf", 1);
    cbf_decode((const unsigned char *)after, sizeof after - 1, &g, &a, &c);
    assert_true(has_finding(&g, "bad-cbf", REC_ERROR));
    assert_int_equal(c.moves, 1);
    static const char badval[] = "<ChineseChessRecord><MoveList><Move value=\"00-00\"/>"
                                 "<Move value=\"97-47\"/></MoveList></ChineseChessRecord>";
    rec_game_init(&g, &a, "v.cbf", 1);
    cbf_decode((const unsigned char *)badval, sizeof badval - 1, &g, &a, &c);
    assert_true(has_finding(&g, "bad-cbf", REC_ERROR));
    for (size_t n = 0; n < sizeof xml - 1; n++) {
        rec_game_init(&g, &a, "cut.cbf", 1);
        cbf_decode(x, n, &g, &a, NULL);
        arena_reset(&a);
    }
    rec_game_init(&g, &a, "other.cbf", 1);
    cbf_decode((const unsigned char *)"<html></html>", 13, &g, &a, NULL);
    assert_true(has_finding(&g, "bad-cbf", REC_ERROR));
    arena_free(&a);
}

/* ------------------------------------------------------------------ samples */

static unsigned char *load(const char *rel, size_t *len)
{
    const char *shared = getenv("SHARED");
    if (!shared || !*shared)
        return NULL;
    char path[4096];
    snprintf(path, sizeof path, "%s/corpus/xiangqi/cchess-ccbridge/%s", shared, rel);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    unsigned char *buf = malloc(1 << 21);
    *len = fread(buf, 1, 1 << 21, f);
    fclose(f);
    return buf;
}

/* Every sample through the stream reader: no error, every tree complete. */
static void test_samples(void **state)
{
    (void)state;
    static const char *const files[] = {"test.cbr", "test2.cbr", "test2-old.cbr", "test.cbf",
                                        "test2.cbf", "专辑林兴荣.CBL", "1966年全国个人赛对局选.CBL",
                                        "1989年龙化杯象棋名师邀请赛35局.CBL", "残局的生死棋型.CBL"};
    size_t len;
    unsigned char *probe = load(files[0], &len);
    if (!probe)
        skip();
    free(probe);
    arena a;
    arena_init(&a);
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        unsigned char *d = load(files[i], &len);
        assert_non_null(d);
        FILE *f = fmemopen(d, len, "rb");
        ccb_reader *r = ccb_reader_open(f, files[i], CCB_SNIFF);
        rec_game g;
        int games = 0;
        for (;;) {
            rec_game_init(&g, &a, files[i], (uint64_t)games + 1);
            int rc = ccb_reader_next(r, &g, &a);
            if (rc <= 0) {
                assert_int_equal(rc, 0);
                break;
            }
            games++;
            if (g.error_count) {
                print_error("%s game %d: %s\n", files[i], games, g.findings->message);
                fail();
            }
            int vars = 0;
            (void)count_line(&g.main, &vars);
            arena_reset(&a);
        }
        assert_true(games >= 1);
        ccb_reader_close(r);
        fclose(f);
        free(d);
    }
    arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_utf16),       cmocka_unit_test(test_board),
        cmocka_unit_test(test_cbr_built),   cmocka_unit_test(test_cbr_v1),
        cmocka_unit_test(test_cbr_hostile), cmocka_unit_test(test_cbl_built),
        cmocka_unit_test(test_cbl_packed),  cmocka_unit_test(test_cbf),
        cmocka_unit_test(test_samples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
