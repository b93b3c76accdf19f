/* test_xqf.c: XQF key derivation, stream, squares and the tree walk, against the hand
 * decode of eleeye's XQFTOOLS/SAMPLE.XQF (reference §1.10) and hand-made 1.0 files;
 * hostile files give findings with offsets, never a crash. */
#include <config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "io/xqf.h"

/* SAMPLE.XQF's bytes 00..0F (reference §1.10) */
static const unsigned char sample_head[16] = {'X', 'Q', 0x12, 0xbe, 0, 0, 0, 0,
                                              0xe8, 0xd8, 0xbc, 0x84, 0xa5, 0x9c, 0xe7, 0xd8};

static void test_keys(void **state)
{
    (void)state;
    xqf_keys k;
    assert_true(xqf_derive_keys(sample_head, &k));
    assert_int_equal(k.kp, 44);
    assert_int_equal(k.kf, 196);
    assert_int_equal(k.kt, 52);
    assert_int_equal(k.kr, 11163);
    const unsigned char start[4] = {0x48, 0x08, 0x02, 0x08};
    assert_memory_equal(k.stream, start, 4);
    /* the key sum rule: change one key and the check fails */
    unsigned char bad[16];
    memcpy(bad, sample_head, 16);
    bad[13]++;
    assert_false(xqf_derive_keys(bad, &k));
    /* 1.0: no keys at all */
    unsigned char v10[16] = {'X', 'Q', 0x0A};
    assert_true(xqf_derive_keys(v10, &k));
    assert_int_equal(k.kp, 0);
    assert_int_equal(k.kr, 0);
    for (int i = 0; i < 32; i++)
        assert_int_equal(k.stream[i], 0);
    /* an all-zero 0x0B header still has KR = 767 */
    unsigned char v11[16] = {'X', 'Q', 0x0B};
    assert_true(xqf_derive_keys(v11, &k));
    assert_int_equal(k.kr, 767);
}

static void test_squares(void **state)
{
    (void)state;
    /* SAMPLE.XQF's raw table (0x10..0x2F) */
    static const unsigned char raw[32] = {
        0xf7, 0xfb, 0xb2, 0x35, 0x3f, 0x49, 0x53, 0x5d, 0x67, 0x71, 0x7b, 0x85, 0x3d, 0x79, 0x32, 0x46,
        0x5a, 0x6e, 0x82, 0x2c, 0x36, 0x02, 0xf8, 0x54, 0x12, 0xea, 0x72, 0x7c, 0x38, 0x74, 0xd7, 0xb4};
    unsigned char h[XQF_HEADER_SIZE] = {0};
    memcpy(h, sample_head, 16);
    memcpy(h + 0x10, raw, 32);
    xqf_keys k;
    assert_true(xqf_derive_keys(h, &k));
    uint8_t sq[32];
    xqf_piece_squares(h, &k, sq);
    /* Red keeps R a0, N b0, K e0, N h0, R i0, C b2, C h2 (a nine-piece odds game) */
    static const int red[16] = {0, 10, -1, -1, 40, -1, -1, 70, 80, 12, 72, -1, -1, -1, -1, -1};
    for (int i = 0; i < 16; i++) {
        if (red[i] < 0)
            assert_true(sq[i] > 89);
        else
            assert_int_equal(sq[i], red[i]);
    }
    /* Black has the full standard set */
    static const int black[16] = {9, 19, 29, 39, 49, 59, 69, 79, 89, 17, 77, 6, 26, 46, 66, 86};
    for (int i = 0; i < 16; i++)
        assert_int_equal(sq[16 + i], black[i]);
}

static unsigned char *load(const char *rel, size_t *len)
{
    const char *shared = getenv("SHARED");
    if (!shared || !*shared)
        return NULL;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", shared, rel);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    unsigned char *buf = malloc(1 << 20);
    *len = fread(buf, 1, 1 << 20, f);
    fclose(f);
    return buf;
}

static int count_nodes(const rec_line *l)
{
    int n = 0;
    for (const rec_node *x = l->first; x; x = x->next) {
        n++;
        for (const rec_line *v = x->variations; v; v = v->next)
            n += count_nodes(v);
    }
    return n;
}

static void test_sample(void **state)
{
    (void)state;
    size_t len;
    unsigned char *data = load("corpus/xiangqi/eleeye/XQFTOOLS/SAMPLE.XQF", &len);
    if (!data)
        skip();
    arena a;
    arena_init(&a);
    rec_game g;
    rec_game_init(&g, &a, "SAMPLE.XQF", 1);
    assert_int_equal(xqf_decode(data, len, &g, &a), 76);
    assert_int_equal(g.error_count, 0);
    assert_string_equal(rec_game_tag(&g, "FEN"),
                        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/1C5C1/9/RN2K2NR w - - 0 1");
    assert_string_equal(rec_game_tag(&g, "Event"), "许银川让九子对聂棋圣");
    assert_string_equal(rec_game_tag(&g, "Date"), "1999.12.09");
    assert_string_equal(rec_game_tag(&g, "Site"), "广州");
    assert_string_equal(rec_game_tag(&g, "Red"), "许银川");
    assert_string_equal(rec_game_tag(&g, "Black"), "聂卫平");
    assert_string_equal(rec_game_tag(&g, "Result"), "1-0");
    assert_string_equal(rec_game_tag(&g, "XQFType"), "middlegame");
    static const char *const first[10] = {"b2e2", "h7e7", "e2e7", "g9e7", "h2e2",
                                          "h9g7", "h0g2", "i9h9", "b0c2", "b9a7"};
    const rec_node *n = g.main.first;
    for (int i = 0; i < 10; i++, n = n->next) {
        assert_non_null(n);
        assert_string_equal(n->text, first[i]);
    }
    assert_int_equal(g.main.first->where.offset, 1024 + 8 + 315); /* after the root */
    assert_int_equal(count_nodes(&g.main) + 1, 76);
    /* the root's comment: 315 bytes of GBK, CRLF lines turned into LF */
    assert_non_null(g.main.comments);
    assert_null(strchr(g.main.comments->text, '\r'));
    arena_free(&a);
    free(data);
}

/* A 1.0 file made by hand: header, then nodes (4 bytes + a 4-byte length each). */
typedef struct xbuf {
    unsigned char b[4096];
    size_t len;
} xbuf;

static void x10_header(xbuf *x, const char *red_name)
{
    memset(x, 0, sizeof *x);
    x->b[0] = 'X';
    x->b[1] = 'Q';
    x->b[2] = 0x0A;
    static const uint8_t start[32] = {80, 70, 60, 50, 40, 30, 20, 10, 0,  72, 12, 83, 63, 43, 23, 3,
                                      9, 19, 29, 39, 49, 59, 69, 79, 89, 17, 77, 6, 26, 46, 66, 86};
    memcpy(x->b + 0x10, start, 32);
    if (red_name) {
        x->b[0x130] = (uint8_t)strlen(red_name);
        memcpy(x->b + 0x131, red_name, strlen(red_name));
    }
    x->len = XQF_HEADER_SIZE;
}

static void x10_node(xbuf *x, int from, int to, uint8_t tag, const char *comment)
{
    size_t n = comment ? strlen(comment) : 0;
    unsigned char *p = x->b + x->len;
    p[0] = (uint8_t)(from + 0x18);
    p[1] = (uint8_t)(to + 0x20);
    p[2] = tag;
    p[3] = 0;
    p[4] = (uint8_t)n;
    p[5] = p[6] = p[7] = 0;
    memcpy(p + 8, comment ? comment : "", n);
    x->len += 8 + n;
}

static int sq(const char *s)
{
    return (s[0] - 'a') * 10 + (s[1] - '0');
}

static void test_tree_walk(void **state)
{
    (void)state;
    /* root; h2e2 (child, sibling) { h9g7 } then sibling b2e2 (child) { b9c7 (sibling) }
     * then b9c7's sibling h7e7: main h2e2 h9g7, h2e2's alternative b2e2 b9c7 whose
     * b9c7 has the alternative h7e7 */
    xbuf x;
    x10_header(&x, NULL);
    x10_node(&x, 0, 0, 0xF0, "start");
    x10_node(&x, sq("h2"), sq("e2"), 0xFF, "a\r\nb");
    x10_node(&x, sq("h9"), sq("g7"), 0x00, NULL);
    x10_node(&x, sq("b2"), sq("e2"), 0xF0, NULL);
    x10_node(&x, sq("b9"), sq("c7"), 0x0F, NULL);
    x10_node(&x, sq("h7"), sq("e7"), 0x00, NULL);
    arena a;
    arena_init(&a);
    rec_game g;
    rec_game_init(&g, &a, "t", 1);
    assert_int_equal(xqf_decode(x.b, x.len, &g, &a), 6);
    assert_int_equal(g.error_count, 0);
    assert_null(rec_game_tag(&g, "FEN")); /* the standard start, Red to move */
    assert_string_equal(g.main.comments->text, "start");
    const rec_node *m1 = g.main.first;
    assert_string_equal(m1->text, "h2e2");
    assert_string_equal(m1->comments->text, "a\nb");
    assert_string_equal(m1->next->text, "h9g7");
    assert_null(m1->next->next);
    const rec_line *v = m1->variations;
    assert_non_null(v);
    assert_null(v->next);
    assert_string_equal(v->first->text, "b2e2");
    assert_string_equal(v->first->next->text, "b9c7");
    assert_non_null(v->first->next->variations);
    assert_string_equal(v->first->next->variations->first->text, "h7e7");
    arena_free(&a);
}

static void expect_error_at(const unsigned char *d, size_t len, uint64_t offset)
{
    arena a;
    arena_init(&a);
    rec_game g;
    rec_game_init(&g, &a, "t", 1);
    xqf_decode(d, len, &g, &a);
    assert_true(g.error_count > 0);
    const rec_finding *f = g.findings;
    while (f && f->severity != REC_ERROR)
        f = f->next;
    assert_non_null(f);
    assert_string_equal(f->code, "bad-xqf");
    assert_int_equal(f->where.line, 0);
    assert_int_equal(f->where.offset, offset);
    arena_free(&a);
}

static void test_hostile(void **state)
{
    (void)state;
    xbuf x;
    x10_header(&x, NULL);
    x10_node(&x, 0, 0, 0xF0, NULL);
    x10_node(&x, sq("h2"), sq("e2"), 0x00, NULL);
    size_t good = x.len;
    /* truncated in the header, in a node, in a length */
    expect_error_at(x.b, 100, 100);
    expect_error_at(x.b, good - 6, good - 8);
    expect_error_at(x.b, good - 2, good - 4);
    /* trailing bytes after the tree */
    expect_error_at(x.b, good + 3, good);
    /* a comment length past the end (a "looping" length) */
    unsigned char save = x.b[good - 4];
    x.b[good - 4] = 0xFF;
    expect_error_at(x.b, good, good - 4);
    x.b[good - 4] = save;
    /* signature, version */
    x.b[0] = 'Y';
    expect_error_at(x.b, good, 0);
    x.b[0] = 'X';
    x.b[2] = 0x13;
    expect_error_at(x.b, good, 2);
    /* a bad key sum */
    memcpy(x.b, sample_head, 16);
    x.b[15] ^= 1;
    expect_error_at(x.b, good, 12);
}

static void test_cut_name(void **state)
{
    (void)state;
    /* a name cut after a GBK lead byte: kept without it, with an encoding warning */
    xbuf x;
    x10_header(&x, "\xd0\xed\xd2\xf8\xb4");
    x10_node(&x, 0, 0, 0x00, NULL);
    arena a;
    arena_init(&a);
    rec_game g;
    rec_game_init(&g, &a, "t", 1);
    xqf_decode(x.b, x.len, &g, &a);
    assert_string_equal(rec_game_tag(&g, "Red"), "许银");
    assert_int_equal(g.warning_count, 1);
    assert_string_equal(g.findings->code, "encoding");
    arena_free(&a);
}

static void test_sniff(void **state)
{
    (void)state;
    assert_true(xqf_sniff((const unsigned char *)"XQ\x12", 3));
    assert_true(xqf_sniff((const unsigned char *)"XQ\x0a", 3));
    assert_false(xqf_sniff((const unsigned char *)"XQF text", 8));
    assert_false(xqf_sniff((const unsigned char *)"[Event", 6));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keys),      cmocka_unit_test(test_squares),
        cmocka_unit_test(test_sample),    cmocka_unit_test(test_tree_walk),
        cmocka_unit_test(test_hostile),   cmocka_unit_test(test_cut_name),
        cmocka_unit_test(test_sniff),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
