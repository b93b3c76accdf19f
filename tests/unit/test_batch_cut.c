/* test_batch_cut.c: where the batch engine cuts a PGN text into pieces (only at the
 * start of a game's tag section, never inside one, nor at a '[' in a comment or
 * movetext), the line count it carries on (against a plain count, across the 255-block
 * lane limit of the vector count), the byte-order mark search and the piece sizes. */
#include <config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "batch/batch_cut.h"

static size_t cut(const char *s, size_t from)
{
    return batch_find_cut(s, strlen(s), from);
}

static void test_cut_at_tag_sections(void **state)
{
    (void)state;
    const char *two = "[Event \"a\"]\n[Site \"b\"]\n\n1. e4 *\n\n[Event \"c\"]\n\n1. d4 *\n";
    size_t second = (size_t)(strstr(two, "[Event \"c\"]") - two);
    assert_int_equal(cut(two, 0), second);
    /* from inside the first tag section: the next section, never its second line */
    assert_int_equal(cut(two, 3), second);
    /* from past the second section's start: nothing */
    assert_int_equal(cut(two, second + 1), 0);
    /* a game whose movetext runs straight into the next tag section (no blank line) */
    const char *tight = "[Event \"a\"]\n1. e4 *\n[Event \"b\"]\n1. d4 *\n";
    assert_int_equal(cut(tight, 0), (size_t)(strstr(tight, "[Event \"b\"]") - tight));
    /* blank lines with spaces, tabs and CR between: still the previous non-blank line */
    const char *crlf = "[Event \"a\"]\r\n\r\n1. e4 *\r\n \t\r\n[Event \"b\"]\r\n";
    assert_int_equal(cut(crlf, 0), (size_t)(strstr(crlf, "[Event \"b\"]") - crlf));
    /* a tag line after blank lines after a tag line: the same section */
    const char *split = "[Event \"a\"]\n\n[Site \"b\"]\n\n1. e4 *\n";
    assert_int_equal(cut(split, 0), 0);
}

static void test_no_cut_inside(void **state)
{
    (void)state;
    /* a '[' that does not open a tag pair: a comment line, a clock, a bare bracket */
    assert_int_equal(cut("1. e4 {\n[%clk 0:01:00]} e5\n[not a tag]\n[X]\n*\n", 0), 0);
    assert_int_equal(cut("1. e4\n[Event\"x\"]\n", 0), 0);   /* no blank before the quote */
    assert_int_equal(cut("1. e4\n[ Event \"x\"]\n", 0), 0); /* a blank before the name */
    assert_int_equal(cut("1. e4\n[Event \"x\"]", 0), (size_t)6); /* the last line, no '\n' */
    assert_int_equal(cut("1. e4\n[Event ", 0), 0);              /* cut off before the quote */
    /* the first line of a buffer is never a cut (the piece starts there) */
    assert_int_equal(cut("[Event \"a\"]\n", 0), 0);
    assert_int_equal(cut("", 0), 0);
    assert_int_equal(cut("\n\n\n", 0), 0);
    /* a tag line at the start of the buffer after blank lines only: no previous line */
    assert_int_equal(cut("\n\n[Event \"a\"]\n", 0), 0);
}

static uint32_t plain_count(const char *s, size_t n)
{
    uint32_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += s[i] == '\n';
    return k;
}

static void test_count_newlines(void **state)
{
    (void)state;
    /* all newlines, well past 255 blocks of 16 and 255 words of 8 */
    size_t big = 255 * 16 * 3 + 37;
    char *s = malloc(big);
    assert_non_null(s);
    memset(s, '\n', big);
    for (size_t n = 0; n <= big; n += n < 64 ? 1 : 997)
        assert_int_equal(batch_count_newlines(s, n), (uint32_t)n);
    assert_int_equal(batch_count_newlines(s, big), (uint32_t)big);
    /* random bytes, every offset of a short tail, bytes next to '\n' (0x0A ^ bits) */
    srand(7);
    for (size_t i = 0; i < big; i++) {
        int r = rand() % 4;
        s[i] = r == 0 ? '\n' : r == 1 ? (char)(0x0A ^ (1 << (rand() % 8))) : (char)rand();
    }
    for (size_t start = 0; start < 17; start++)
        for (size_t n = 0; start + n <= big; n += 1 + n / 3)
            assert_int_equal(batch_count_newlines(s + start, n), plain_count(s + start, n));
    free(s);
}

static void test_bom(void **state)
{
    (void)state;
    assert_true(batch_has_bom("\xEF\xBB\xBF[Event", 9));
    assert_true(batch_has_bom("abc\xEF\xBB\xBF", 6));
    assert_false(batch_has_bom("abc\xEF\xBB", 5)); /* cut short */
    assert_false(batch_has_bom("\xEF\xEF\xBB", 3));
    assert_true(batch_has_bom("\xEF\xEF\xBB\xBF", 4));
    assert_false(batch_has_bom("", 0));
}

static void test_piece_sizes(void **state)
{
    (void)state;
    size_t t = 256 * 1024;
    /* unknown size, or fixed by the environment: the target */
    assert_int_equal(batch_piece_size_at(t, false, 0, 0, 4), t);
    assert_int_equal(batch_piece_size_at(100, true, 1000000, 0, 4), 100);
    /* far from the end: the target; near it: a share per thread, never below the least */
    assert_int_equal(batch_piece_size_at(t, false, 100000000, 0, 4), t);
    assert_int_equal(batch_piece_size_at(t, false, 1600000, 0, 4), (size_t)100000);
    assert_int_equal(batch_piece_size_at(t, false, 1000, 0, 4), (size_t)BATCH_PIECE_MIN);
    assert_int_equal(batch_piece_size_at(t, false, 1000, 1000, 4), t); /* at the end */
    unsetenv("ARBITER_PIECE_SIZE");
    bool fixed = true;
    assert_int_equal(batch_piece_target(&fixed), t);
    assert_false(fixed);
    setenv("ARBITER_PIECE_SIZE", "1500", 1);
    assert_int_equal(batch_piece_target(&fixed), (size_t)1500);
    assert_true(fixed);
    setenv("ARBITER_PIECE_SIZE", "99999999999", 1); /* past half the most: ignored */
    assert_int_equal(batch_piece_target(&fixed), t);
    assert_false(fixed);
    unsetenv("ARBITER_PIECE_SIZE");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cut_at_tag_sections),
        cmocka_unit_test(test_no_cut_inside),
        cmocka_unit_test(test_count_newlines),
        cmocka_unit_test(test_bom),
        cmocka_unit_test(test_piece_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
