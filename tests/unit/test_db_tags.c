/* test_db_tags.c: header value checks (src/database/db_tags.c): PGN 8.1.1.3 dates,
 * 8.1.1.4 rounds, 9.1.1 ratings, 9.6 time controls, ECO codes. */
#include <config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "database/db_tags.h"
#include "record/arena.h"
#include "record/record.h"

static db_tag_verdict date(const char *v, char *fixed)
{
    return db_tag_check_date(v, fixed, 16);
}

static void test_date(void **state)
{
    (void)state;
    char fixed[16];
    assert_int_equal(date("2021.05.12", fixed), DB_TAG_OK);
    assert_int_equal(date("????.??.??", fixed), DB_TAG_OK);
    assert_int_equal(date("1992.??.??", fixed), DB_TAG_OK);
    assert_int_equal(date("19??.??.??", fixed), DB_TAG_OK);
    assert_int_equal(date("2024.02.29", fixed), DB_TAG_OK);    /* leap year */
    assert_int_equal(date("2000.02.29", fixed), DB_TAG_OK);    /* 400-year rule */
    assert_int_equal(date("????.02.29", fixed), DB_TAG_OK);    /* possible in some year */
    /* not a calendar date: reported, never guessed */
    assert_int_equal(date("2023.02.29", fixed), DB_TAG_BAD);
    assert_int_equal(date("1900.02.29", fixed), DB_TAG_BAD);
    assert_int_equal(date("2024.13.45", fixed), DB_TAG_BAD);
    assert_int_equal(date("2024.00.10", fixed), DB_TAG_BAD);
    assert_int_equal(date("2024.04.31", fixed), DB_TAG_BAD);
    assert_int_equal(date("2024.2?.01", fixed), DB_TAG_BAD);
    assert_int_equal(date("2021-02-30", fixed), DB_TAG_BAD);
    assert_int_equal(date("12.05.2021", fixed), DB_TAG_BAD);   /* day first: which? */
    assert_int_equal(date("May 2021", fixed), DB_TAG_BAD);
    assert_int_equal(date("2021.5.12", fixed), DB_TAG_BAD);
    /* one certain form */
    assert_int_equal(date("2021-05-12", fixed), DB_TAG_FIXABLE);
    assert_string_equal(fixed, "2021.05.12");
    assert_int_equal(date("2021/05/12", fixed), DB_TAG_FIXABLE);
    assert_string_equal(fixed, "2021.05.12");
    assert_int_equal(date("2021", fixed), DB_TAG_FIXABLE);
    assert_string_equal(fixed, "2021.??.??");
    assert_int_equal(date("2021-05", fixed), DB_TAG_FIXABLE);
    assert_string_equal(fixed, "2021.05.??");
    assert_int_equal(date("?", fixed), DB_TAG_FIXABLE);
    assert_string_equal(fixed, "????.??.??");
    assert_int_equal(date("1997\xe5\xb9\xb4" "11\xe6\x9c\x88" "16\xe6\x97\xa5", fixed),
                     DB_TAG_FIXABLE);                          /* 1997年11月16日 */
    assert_string_equal(fixed, "1997.11.16");
    assert_int_equal(date("2024\xe5\xb9\xb4" "1\xe6\x9c\x88", fixed), DB_TAG_FIXABLE);
    assert_string_equal(fixed, "2024.01.??");
    assert_int_equal(date("2023\xe5\xb9\xb4" "2\xe6\x9c\x88" "30\xe6\x97\xa5", fixed),
                     DB_TAG_BAD);
}

static void test_round(void **state)
{
    (void)state;
    assert_int_equal(db_tag_check_round("1"), DB_TAG_OK);
    assert_int_equal(db_tag_check_round("3.1"), DB_TAG_OK);
    assert_int_equal(db_tag_check_round("1.2.3"), DB_TAG_OK);
    assert_int_equal(db_tag_check_round("?"), DB_TAG_OK);
    assert_int_equal(db_tag_check_round("-"), DB_TAG_OK);
    assert_int_equal(db_tag_check_round(""), DB_TAG_BAD);
    assert_int_equal(db_tag_check_round("1."), DB_TAG_BAD);
    assert_int_equal(db_tag_check_round(".1"), DB_TAG_BAD);
    assert_int_equal(db_tag_check_round("1 - 0"), DB_TAG_BAD);
    assert_int_equal(db_tag_check_round("final"), DB_TAG_BAD);
}

static void test_elo(void **state)
{
    (void)state;
    assert_int_equal(db_tag_check_elo("2847"), DB_TAG_OK);
    assert_int_equal(db_tag_check_elo("0"), DB_TAG_OK);
    assert_int_equal(db_tag_check_elo("-"), DB_TAG_OK);
    assert_int_equal(db_tag_check_elo(""), DB_TAG_OK);
    assert_int_equal(db_tag_check_elo("27x9"), DB_TAG_BAD);
    assert_int_equal(db_tag_check_elo("28470"), DB_TAG_BAD);   /* out of range */
    assert_int_equal(db_tag_check_elo("-5"), DB_TAG_BAD);
    assert_int_equal(db_tag_check_elo("2700?"), DB_TAG_BAD);
}

static void test_time_control(void **state)
{
    (void)state;
    const char *good[] = {"?", "-", "300", "180+2", "40/7200:3600", "40/5400+30:1800+30",
                          "*180", "40/9000:20/3600:900+30"};
    for (size_t i = 0; i < sizeof good / sizeof *good; i++)
        assert_int_equal(db_tag_check_time_control(good[i]), DB_TAG_OK);
    const char *bad[] = {"", "15 min", "40/", "300+", "300:", ":300", "*", "90'+30\"",
                         "G/90", "1234567890"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (db_tag_check_time_control(bad[i]) != DB_TAG_BAD)
            fail_msg("TimeControl \"%s\" accepted", bad[i]);
}

static void test_eco(void **state)
{
    (void)state;
    assert_int_equal(db_tag_check_eco("C65"), DB_TAG_OK);
    assert_int_equal(db_tag_check_eco("E99"), DB_TAG_OK);
    assert_int_equal(db_tag_check_eco("?"), DB_TAG_OK);
    assert_int_equal(db_tag_check_eco("F00"), DB_TAG_BAD);
    assert_int_equal(db_tag_check_eco("C6"), DB_TAG_BAD);
    assert_int_equal(db_tag_check_eco("c65"), DB_TAG_BAD);
    assert_int_equal(db_tag_check_eco("C65a"), DB_TAG_BAD);
}

/* The findings db_tags_check gives a PGN chess game with one tag NAME of value "x" and
 * the rest of the Seven Tag Roster: a value check only for the names it knows, not for
 * a name one byte shorter or longer, or another case. */
static uint32_t findings_for_tag(const char *name)
{
    arena a;
    arena_init(&a);
    rec_game g;
    rec_game_init(&g, &a, "t.pgn", 1);
    rec_span at = {.line = 1, .column = 1};
    static const char *const roster[] = {"Event", "Site", "Date", "Round", "White", "Black",
                                         "Result"};
    static const char *const fine[] = {"e", "s", "2024.01.02", "1", "w", "b", "*"};
    for (int i = 0; i < 7; i++)
        if (strcmp(name, roster[i]) != 0)
            rec_game_add_tag(&g, roster[i], fine[i], at);
    rec_game_add_tag(&g, name, "x", at);
    db_tags_check(&g, true);
    uint32_t n = g.finding_count;
    arena_free(&a);
    return n;
}

static void test_tag_names(void **state)
{
    (void)state;
    static const char *const checked[] = {"Date", "EventDate", "Round", "WhiteElo", "BlackElo",
                                          "RedElo", "TimeControl", "ECO", "PlyCount"};
    for (size_t i = 0; i < sizeof checked / sizeof checked[0]; i++)
        if (findings_for_tag(checked[i]) != 1)
            fail_msg("%s \"x\" not reported", checked[i]);
    static const char *const other[] = {"Dat", "Datee", "date", "EventDat", "EventDates", "Roun",
                                        "Rounds", "WhiteEl", "WhiteElos", "BlackEl", "RedEl",
                                        "TimeContro", "EC", "ECOO", "PlyCoun", "PlyCounts", "E",
                                        "W", "X"};
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++)
        if (findings_for_tag(other[i]) != 0)
            fail_msg("%s \"x\" reported", other[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_date), cmocka_unit_test(test_round), cmocka_unit_test(test_elo),
        cmocka_unit_test(test_time_control), cmocka_unit_test(test_eco),
        cmocka_unit_test(test_tag_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
