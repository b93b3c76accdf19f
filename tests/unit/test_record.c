/* test_record.c: the game tree and its arena. */
#include <config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <limits.h>
#include <string.h>
#include <cmocka.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "record/bytes8.h"
#include "record/record.h"
#include "record/xalloc.h"

static void test_arena_alignment_and_zero(void **state)
{
    (void)state;
    arena a;
    arena_init(&a);
    for (int i = 1; i < 5000; i++) {
        unsigned char *p = arena_alloc(&a, (size_t)(i % 97) + 1);
        assert_int_equal((uintptr_t)p % 16, 0);
        for (int j = 0; j < i % 97 + 1; j++)
            assert_int_equal(p[j], 0);
        memset(p, 0xAB, (size_t)(i % 97) + 1);
    }
    /* a block bigger than the standard size */
    char *big = arena_alloc(&a, 1 << 20);
    big[(1 << 20) - 1] = 'x';
    assert_true(a.total > (1 << 20));
    arena_reset(&a);
    assert_int_equal(a.total, 0);
    assert_string_equal(arena_printf(&a, "%s-%d", "game", 7), "game-7");
    assert_string_equal(arena_strndup(&a, "abcdef", 3), "abc");
    arena_free(&a);
}

/* arena_printf: a text written where the block has room, one that does not fit (a new
 * block), one in an arena with no block yet; the texts before stay intact. */
static void test_arena_printf(void **state)
{
    (void)state;
    arena a;
    arena_init(&a);
    char *first = arena_printf(&a, "%s %u", "no block yet", 1u);
    assert_string_equal(first, "no block yet 1");
    char *texts[400];
    for (unsigned i = 0; i < 400; i++) {
        texts[i] = arena_printf(&a, "game %u of %s (line %u)", i, "a-file-name.pgn", 3 * i);
        if (i % 7 == 0)
            arena_alloc_uninit(&a, 301, 1);   /* leave odd room at a block's end */
    }
    /* longer than a block: measured, then written in a block of its own */
    char *long_text = arena_printf(&a, "%070000d", 5);
    assert_int_equal(strlen(long_text), 70000);
    assert_int_equal(long_text[69999], '5');
    char *after = arena_printf(&a, "%s", "after");
    assert_string_equal(after, "after");
    /* the conversions written without vsnprintf, and others, as snprintf writes them */
    char want[128];
#define SAME_AS_SNPRINTF(...) \
    do { \
        snprintf(want, sizeof want, __VA_ARGS__); \
        assert_string_equal(arena_printf(&a, __VA_ARGS__), want); \
    } while (0)
    SAME_AS_SNPRINTF("%d %d %d %d", 0, -1, INT_MIN, INT_MAX);
    SAME_AS_SNPRINTF("%u %u|%lu|%llu", 0u, UINT_MAX, ULONG_MAX, ULLONG_MAX);
    SAME_AS_SNPRINTF("100%% of %s%s", "", "games");
    SAME_AS_SNPRINTF("%5d|%-4s|%x|%.2s|%lld", 42, "ab", 255u, "abc", -7ll);
    SAME_AS_SNPRINTF("plain text, no conversion");
    SAME_AS_SNPRINTF("%s", "");
#undef SAME_AS_SNPRINTF
    assert_string_equal(first, "no block yet 1");
    for (unsigned i = 0; i < 400; i++) {
        char expected[64];
        snprintf(expected, sizeof expected, "game %u of %s (line %u)", i, "a-file-name.pgn", 3 * i);
        assert_string_equal(texts[i], expected);
    }
    arena_free(&a);
}

/* bytes8_copy copies any length exactly, writing nothing past t + n. */
static void test_bytes8_copy(void **state)
{
    (void)state;
    char src[80], dst[96];
    for (int i = 0; i < 80; i++)
        src[i] = (char)('A' + i % 50);
    for (size_t n = 0; n <= 70; n++) {
        memset(dst, '#', sizeof dst);
        bytes8_copy(dst + 3, src + 5, n);
        assert_memory_equal(dst + 3, src + 5, n);
        assert_int_equal(dst[2], '#');
        assert_int_equal(dst[3 + n], '#');
    }
}

/* The first stop of sixteen bytes: a control byte, DEL, a byte >= 0x80 or one of two
 * given bytes, at each place, with the SSE2 and the word versions alike. */
static void test_bytes16_first_stop(void **state)
{
    (void)state;
    static const unsigned char stops[] = {0x00, 0x09, 0x0A, 0x0D, 0x1F, 0x7F, 0x80,
                                          0xC3, 0xFF, '}', '"'};
    char s[16];
    memset(s, 'x', sizeof s);
    assert_int_equal(bytes16_first_stop(s, '}', '"'), 16);
    assert_int_equal(bytes16_first_stop_words(s, '}', '"'), 16);
    for (size_t k = 0; k < sizeof stops; k++)
        for (size_t at = 0; at < 16; at++) {
            memset(s, ' ', sizeof s);   /* blanks and '~' (0x7E) go on */
            s[15 - at] = '~';
            s[at] = (char)stops[k];
            if (at + 1 < 16)
                s[at + 1] = (char)stops[k];   /* a later stop changes nothing */
            assert_int_equal(bytes16_first_stop(s, '}', '"'), at);
            assert_int_equal(bytes16_first_stop_words(s, '}', '"'), at);
        }
    memset(s, 'x', sizeof s);
    s[9] = '\\';
    assert_int_equal(bytes16_first_stop(s, '"', '\\'), 9);
    assert_int_equal(bytes16_first_stop(s, '}', '}'), 16);
    assert_int_equal(bytes16_first_stop_words(s, '}', '}'), 16);
}

/* The mask of the bytes equal to one given: each place alone and with a second one,
 * beside neighbours one off (0x09, 0x0B) and bytes >= 0x80, SSE2 and byte by byte. */
static void test_bytes16_eq_mask(void **state)
{
    (void)state;
    char s[16];
    memset(s, 0x0B, sizeof s);
    s[3] = 0x09;
    s[7] = (char)0x8A;
    assert_int_equal(bytes16_eq_mask(s, '\n'), 0);
    assert_int_equal(bytes16_eq_mask_bytes(s, '\n'), 0);
    for (unsigned at = 0; at < 16; at++) {
        memset(s, (char)0xFF, sizeof s);
        if (at > 0)
            s[at - 1] = 0x09;
        s[at] = '\n';
        assert_int_equal(bytes16_eq_mask(s, '\n'), 1u << at);
        assert_int_equal(bytes16_eq_mask_bytes(s, '\n'), 1u << at);
        s[15 - at] = '\n';
        unsigned both = 1u << at | 1u << (15 - at);
        assert_int_equal(bytes16_eq_mask(s, '\n'), both);
        assert_int_equal(bytes16_eq_mask_bytes(s, '\n'), both);
    }
}

/* The run of tag-name bytes at the start of sixteen: every byte next to the ranges
 * [A-Za-z0-9_] ends it ('@' '[' '`' '{' '/' ':' '^' after '_', a blank, a quote, a NUL,
 * DEL, bytes >= 0x80), at each place, with the SSE2 and the word versions alike. */
static void test_bytes16_name_run(void **state)
{
    (void)state;
    static const unsigned char stops[] = {'@', '[', '`', '{', '/', ':', '^', ' ', '\t', '"',
                                          0x00, 0x7F, 0x80, 0xC3, 0xDA, 0xFF, '-', '.'};
    static const char names[] = "AZaz09_Event_Date9";
    char s[16];
    memcpy(s, names, 16);
    assert_int_equal(bytes16_name_run(s), 16);
    assert_int_equal(bytes16_name_run_words(s), 16);
    for (size_t k = 0; k < sizeof stops; k++)
        for (size_t at = 0; at < 16; at++) {
            memcpy(s, names, 16);
            if (at > 0)
                s[at - 1] = '_';   /* a borrow from a '_' before must not hide the stop */
            s[at] = (char)stops[k];
            assert_int_equal(bytes16_name_run(s), at);
            assert_int_equal(bytes16_name_run_words(s), at);
        }
}

static void test_tags(void **state)
{
    (void)state;
    arena a;
    arena_init(&a);
    rec_game g;
    rec_game_init(&g, &a, "x.pgn", 1);
    rec_span at = {1, 1, 0};
    rec_game_add_tag(&g, "Event", "E", at);
    rec_game_add_tag(&g, "White", "W1", at);
    rec_game_add_tag(&g, "White", "W2", at);
    assert_string_equal(rec_game_tag(&g, "White"), "W1"); /* the first wins */
    assert_null(rec_game_tag(&g, "Black"));
    assert_string_equal(g.tags->next->next->value, "W2"); /* but both are kept */
    arena_free(&a);
}

static void test_findings_sorted_stably(void **state)
{
    (void)state;
    arena a;
    arena_init(&a);
    rec_game g;
    rec_game_init(&g, &a, "x.pgn", 1);
    rec_span s5 = {5, 1, 0}, s2 = {2, 9, 0}, s2b = {2, 3, 0};
    rec_game_add_finding(&g, "b", REC_WARNING, s5, "first at 5");
    rec_game_add_finding(&g, "a", REC_ERROR, s2, "at 2:9");
    rec_game_add_finding(&g, "c", REC_INFO, s5, "second at %d", 5);
    rec_game_add_finding(&g, "d", REC_ERROR, s2b, "at 2:3");
    assert_int_equal(g.finding_count, 4);
    assert_int_equal(g.error_count, 2);
    assert_int_equal(g.warning_count, 1);
    rec_game_sort_findings(&g);
    const char *order[] = {"at 2:3", "at 2:9", "first at 5", "second at 5"};
    const rec_finding *f = g.findings;
    for (int i = 0; i < 4; i++, f = f->next)
        assert_string_equal(f->message, order[i]);
    assert_null(f);
    assert_string_equal(g.findings_tail->message, "second at 5");
    arena_free(&a);
}

static void test_many_findings_sort(void **state)
{
    (void)state;
    arena a;
    arena_init(&a);
    rec_game g;
    rec_game_init(&g, &a, "x.pgn", 1);
    for (uint32_t i = 0; i < 20000; i++) {
        rec_span s = {(i * 7919u) % 1000u + 1, i % 13u + 1, 0};
        rec_game_add_finding(&g, "x", REC_INFO, s, "%u", i);
    }
    rec_game_sort_findings(&g);
    uint32_t count = 0;
    for (const rec_finding *f = g.findings; f && f->next; f = f->next, count++) {
        const rec_finding *n = f->next;
        assert_true(f->where.line < n->where.line ||
                    (f->where.line == n->where.line && f->where.column <= n->where.column));
    }
    assert_int_equal(count + 1, 20000);
    arena_free(&a);
}

/* Findings already in order (ties included) stay in their order, with the tail set;
 * none leaves no tail; one out of place at the end is sorted in, its tail the last. */
static void test_sorted_findings_kept(void **state)
{
    (void)state;
    arena a;
    arena_init(&a);
    rec_game g;
    rec_game_init(&g, &a, "x.pgn", 1);
    rec_game_sort_findings(&g);
    assert_null(g.findings);
    assert_null(g.findings_tail);
    rec_game_add_finding(&g, "x", REC_INFO, (rec_span){.line = 1, .column = 4}, "a");
    rec_game_add_finding(&g, "x", REC_INFO, (rec_span){.line = 2, .column = 1}, "b");
    rec_game_add_finding(&g, "x", REC_INFO, (rec_span){.line = 2, .column = 1}, "c");
    rec_game_sort_findings(&g);
    const char *kept[] = {"a", "b", "c"};
    const rec_finding *f = g.findings;
    for (int i = 0; i < 3; i++, f = f->next)
        assert_string_equal(f->message, kept[i]);
    assert_string_equal(g.findings_tail->message, "c");
    rec_game_add_finding(&g, "x", REC_INFO, (rec_span){.line = 2, .column = 0}, "d");
    rec_game_sort_findings(&g);
    const char *sorted[] = {"a", "d", "b", "c"};
    f = g.findings;
    for (int i = 0; i < 4; i++, f = f->next)
        assert_string_equal(f->message, sorted[i]);
    assert_null(f);
    assert_string_equal(g.findings_tail->message, "c");
    arena_free(&a);
}

static void test_nags_grow(void **state)
{
    (void)state;
    arena a;
    arena_init(&a);
    rec_node n = {0};
    for (int i = 0; i < 100000; i++)
        rec_node_add_nag(&a, &n, (uint8_t)(i % 256));
    assert_int_equal(n.nag_count, 100000);
    assert_int_equal(n.nags[99999], 99999 % 256);
    assert_int_equal(n.nags[0], 0);
    arena_free(&a);
}

/* Pages of the whole pages of p[0..n) the process has mapped now. */
static size_t resident_pages(const void *p, size_t n)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    uintptr_t from = ((uintptr_t)p + page - 1) & ~(uintptr_t)(page - 1);
    uintptr_t to = ((uintptr_t)p + n) & ~(uintptr_t)(page - 1);
    size_t count = (to - from) / page, in = 0;
    unsigned char *vec = calloc(count ? count : 1, 1);
    assert_non_null(vec);
    assert_int_equal(mincore((void *)from, to - from, vec), 0);
    for (size_t i = 0; i < count; i++)
        in += vec[i] & 1;
    free(vec);
    return in;
}

/* xalloc_grow keeps a block's bytes as it grows, and maps the pages it grew by at once
 * where the kernel can (MADV_POPULATE_WRITE); xalloc_zeroed's block is zero even where
 * malloc hands back memory written before. */
static void test_xalloc_grow_and_zeroed(void **state)
{
    (void)state;
    size_t big = (size_t)4 << 20;
    unsigned char *p = NULL;
    size_t cap = 0;
    for (size_t n = 1000; n <= big; n *= 2) {
        p = xalloc_grow(p, cap, n);
        for (size_t i = cap; i < n; i++)
            p[i] = (unsigned char)(i * 7);
        cap = n;
    }
    for (size_t i = 0; i < cap; i++)
        if (p[i] != (unsigned char)(i * 7))
            fail_msg("byte %zu changed as the block grew", i);
    memset(p, 0xFF, cap);
    free(p);
    unsigned char *z = xalloc_zeroed(big);
    for (size_t i = 0; i < big; i++)
        if (z[i])
            fail_msg("byte %zu of a zeroed block is %d", i, z[i]);
    free(z);
#ifdef MADV_POPULATE_WRITE
    /* a fresh block, never written here: mapped whole, when the kernel knows the hint */
    void *probe = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(probe != MAP_FAILED);
    bool kernel_can = madvise(probe, 4096, MADV_POPULATE_WRITE) == 0;
    munmap(probe, 4096);
    if (kernel_can) {
        unsigned char *q = xalloc_grow(NULL, 0, big);
        size_t page = (size_t)sysconf(_SC_PAGESIZE);
        assert_int_equal(resident_pages(q, big), big / page - 1); /* all the whole pages */
        free(q);
    }
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arena_alignment_and_zero),
        cmocka_unit_test(test_arena_printf),
        cmocka_unit_test(test_bytes8_copy),
        cmocka_unit_test(test_bytes16_name_run),
        cmocka_unit_test(test_bytes16_first_stop),
        cmocka_unit_test(test_bytes16_eq_mask),
        cmocka_unit_test(test_sorted_findings_kept),
        cmocka_unit_test(test_tags),
        cmocka_unit_test(test_findings_sorted_stably),
        cmocka_unit_test(test_many_findings_sort),
        cmocka_unit_test(test_nags_grow),
        cmocka_unit_test(test_xalloc_grow_and_zeroed),
    };
    return cmocka_run_group_tests_name("record", tests, NULL, NULL);
}
