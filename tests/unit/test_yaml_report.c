/* test_yaml_report.c: the YAML report's direct writer (src/report/yaml_report.c) writes
 * the bytes libyaml's emitter writes, on the shapes its fast paths take: double-quoted
 * values of 0 to 40 bytes, plain or with a byte that needs an escape or a UTF-8 check at
 * each place (two loads that may overlap for 1 to 16 bytes, sixteen at a time past
 * that); tag names that are plain or not, of every length around the paths' limits
 * (16, 128), and names with the same rec_tag_name_bit and length as a plain name seen
 * before (the writer remembers that one); numbers around their digit counts. Each game
 * goes through both writers (ARBITER_YAML_EMITTER=libyaml for the second). */
#include <config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "record/arena.h"
#include "record/record.h"
#include "report/yaml_report.h"

/* The games' documents from one writer (libyaml: every document through libyaml). */
typedef void (*game_maker)(rec_game *g, arena *a, int k);

static char *write_games(game_maker make, int count, bool libyaml, size_t *len)
{
    char *text = NULL;
    FILE *out = open_memstream(&text, len);
    assert_non_null(out);
    if (libyaml)
        setenv("ARBITER_YAML_EMITTER", "libyaml", 1);
    else
        unsetenv("ARBITER_YAML_EMITTER");
    yaml_report *y = yaml_report_open(out);
    unsetenv("ARBITER_YAML_EMITTER");
    assert_non_null(y);
    for (int k = 0; k < count; k++) {
        arena a;
        arena_init(&a);
        rec_game g;
        make(&g, &a, k);
        assert_true(yaml_report_game(y, &g));
        arena_free(&a);
    }
    assert_true(yaml_report_close(y));
    fclose(out);
    return text;
}

/* Both writers give the same bytes for the games; the direct writer's text is returned
 * for more checks. */
static char *same_as_libyaml(game_maker make, int count)
{
    size_t dlen = 0, llen = 0;
    char *direct = write_games(make, count, false, &dlen);
    char *lib = write_games(make, count, true, &llen);
    if (dlen != llen || memcmp(direct, lib, dlen) != 0)
        fail_msg("the direct writer differs from libyaml:\n--- libyaml\n%s\n--- direct\n%s\n",
                 lib, direct);
    free(lib);
    return direct;
}

/* The bytes put at each place of a value: plain, the quote and backslash (escaped), a
 * tab and DEL (escaped), two- and three-byte UTF-8, NBSP (\_), a byte that is no UTF-8
 * (libyaml's document). */
static const char *const odd_bytes[] = {"a", "\"", "\\", "\t", "\x7F", "\xC3\xA9",
                                        "\xE2\x82\xAC", "\xC2\xA0", "\xFF"};
enum { ODD_KINDS = sizeof odd_bytes / sizeof odd_bytes[0], MAX_LEN = 40 };

/* Game k: a value of k % (MAX_LEN + 1) bytes with the odd byte k / (MAX_LEN + 1) at each
 * place, as tags (one a place) and as the file name. */
static void make_values(rec_game *g, arena *a, int k)
{
    size_t n = (size_t)(k % (MAX_LEN + 1));
    const char *odd = odd_bytes[k / (MAX_LEN + 1)];
    char plain[MAX_LEN + 1];
    memset(plain, 'x', n);
    plain[n] = '\0';
    rec_game_init(g, a, arena_strdup(a, plain), (uint64_t)k + 1);
    rec_span at = {.line = 1, .column = 1};
    rec_game_add_tag(g, "Event", plain, at);
    for (size_t i = 0; i < n && i < 20; i++) {
        char value[MAX_LEN + 8], name[8];
        snprintf(value, sizeof value, "%.*s%s%s", (int)i, plain, odd, plain + i + 1);
        snprintf(name, sizeof name, "T%zu", i);
        rec_game_add_tag(g, name, value, at);
    }
    g->result = arena_strdup(a, plain);
}

static void test_values(void **state)
{
    (void)state;
    free(same_as_libyaml(make_values, ODD_KINDS * (MAX_LEN + 1)));
}

/* Tag names: game k has the names of row k, each with the value "v". Rows 1 and 3
 * hold names with the bits and lengths of row 0's and 2's (first byte, last byte and
 * length make the bit) but other bytes, not plain: they must not be taken for the
 * names seen before. */
static const char *const name_rows[][6] = {
    {"Event", "E", "Ab", "Date", "WhiteElo", "LongerThanEight16"},
    {"Ev\x7Fnt", "Ab", "D\tte", "Wh\"teElo", NULL, NULL},
    {"Event", "Event2", "Abcdefghijklmnop", "Abcdefghijklmnopq", "_u", "9x"},
    {"Ev\xC3\xA9t", "Abcdefgh\x01jklmnop", "-x", ".x", "x-", "x.y"},
    {"Abcdefghijklmnop", "Event", "Site", "Date", NULL, NULL},
};

static void make_names(rec_game *g, arena *a, int k)
{
    rec_game_init(g, a, "names.pgn", (uint64_t)k + 1);
    rec_span at = {.line = 1, .column = 1};
    for (int i = 0; i < 6 && name_rows[k][i]; i++)
        rec_game_add_tag(g, name_rows[k][i], "v", at);
}

static void test_names(void **state)
{
    (void)state;
    char *text = same_as_libyaml(make_names, 5);
    /* the plain names went as they are, the DEL one was not taken for "Event" */
    assert_non_null(strstr(text, "\n  Event: \"v\"\n"));
    assert_non_null(strstr(text, "\n  Abcdefghijklmnopq: \"v\"\n"));
    assert_null(strstr(text, "\n  Ev\x7Fnt: "));
    free(text);
}

/* Names of 120 to 136 bytes: libyaml writes a key longer than 128 bytes as a complex
 * key, the direct writer leaves those to it. */
static void make_long_names(rec_game *g, arena *a, int k)
{
    rec_game_init(g, a, "long.pgn", 1);
    char name[140];
    size_t n = 120 + (size_t)k;
    memset(name, 'N', n);
    name[n] = '\0';
    rec_game_add_tag(g, name, "v", (rec_span){.line = 1, .column = 1});
}

static void test_long_names(void **state)
{
    (void)state;
    free(same_as_libyaml(make_long_names, 17));
}

/* Numbers: the game number, line, column and plies around each count of digits. */
static void make_numbers(rec_game *g, arena *a, int k)
{
    uint64_t v = 1;
    for (int i = 0; i < k / 3; i++)
        v *= 10;
    v -= (uint64_t)(k % 3 == 0);   /* 9, 99, ... then 10, 11, 100, 101, ... */
    v += (uint64_t)(k % 3 == 2);
    rec_game_init(g, a, "n.pgn", k == 59 ? UINT64_MAX : v);
    g->start = (rec_span){.line = (uint32_t)v, .column = (uint32_t)(v >> 32) | 1};
    g->plies = (uint32_t)v;
}

static void test_numbers(void **state)
{
    (void)state;
    char *text = same_as_libyaml(make_numbers, 60);
    assert_non_null(strstr(text, "\ngame: 18446744073709551615\n"));
    assert_non_null(strstr(text, "\ngame: 0\n"));
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_long_names),
        cmocka_unit_test(test_numbers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
