/* test_db_ecco.c: ECCO codes for xiangqi games (src/database/db_ecco.c): the compiled
 * table replays whole, families' codes from the published classification, a left-right
 * mirror image is the same opening, a transposition finds its code, the deepest named
 * position wins, only the standard start is classified, and --check-eco's finding. */
#include <config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "database/db_ecco.h"
#include "database/db_openings.h"
#include "pgn_reader.h"
#include "referee/referee.h"

typedef struct one {
    arena a;
    rec_game g;
} one;

/* The first game of a xiangqi PGN text (ICCS moves), replayed and classified. */
static void play(one *o, const char *pgn, bool check_eco)
{
    memset(o, 0, sizeof *o);
    FILE *f = fmemopen((void *)pgn, strlen(pgn), "rb");
    assert_non_null(f);
    pgn_reader *r = pgn_reader_open(f, "mem.pgn");
    assert_non_null(r);
    arena_init(&o->a);
    assert_int_equal(pgn_reader_next(r, &o->g, &o->a), 1);
    o->g.kind = REC_XIANGQI;
    referee_options opts = REFEREE_OPTIONS_DEFAULT;
    referee_xiangqi_game(&o->g, &opts);
    rec_game_sort_findings(&o->g);
    db_openings_classify(&o->g, check_eco);
    pgn_reader_close(r);
    fclose(f);
}

/* The code of a game of these moves from the standard start (NULL: none). */
static const char *code_of(const char *moves)
{
    static char code[4];
    char pgn[512];
    snprintf(pgn, sizeof pgn, "[Game \"Chinese Chess\"]\n\n%s *\n", moves);
    one o;
    play(&o, pgn, false);
    const char *c = o.g.opening_eco;
    if (c)
        snprintf(code, sizeof code, "%s", c);
    arena_free(&o.a);
    return c ? code : NULL;
}

static const rec_finding *find(const rec_game *g, const char *code)
{
    for (const rec_finding *f = g->findings; f; f = f->next)
        if (strcmp(f->code, code) == 0)
            return f;
    return NULL;
}

static void test_table_replays(void **state)
{
    (void)state;
    /* every line of the table is a legal line from the start (one that is not is said
     * on stderr and left out), and names a position of its own */
    assert_true(db_ecco_line_count > 800);
    assert_int_equal(db_ecco_positions(), db_ecco_line_count);
    /* the names are sorted by code (they are looked up by bisection) */
    for (size_t i = 1; i < db_ecco_name_count; i++)
        assert_true(strcmp(db_ecco_names[i - 1].eco, db_ecco_names[i].eco) < 0);
}

static void test_families(void **state)
{
    (void)state;
    /* the published classification's families, by the first moves */
    assert_string_equal(code_of("1. C3-C4"), "E00");       /* 仙人指路 */
    assert_string_equal(code_of("1. C3-C4 B7-C7"), "E10"); /* 对卒底炮 */
    assert_string_equal(code_of("1. G0-E2"), "A10");       /* 飞相局 */
    assert_string_equal(code_of("1. H0-G2"), "A40");       /* 起马局 */
    assert_string_equal(code_of("1. H2-D2"), "A60");       /* 过宫炮局 */
    assert_string_equal(code_of("1. H2-F2"), "A50");       /* 仕角炮局 */
    assert_string_equal(code_of("1. H2-E2 H7-E7"), "D00"); /* 顺炮 */
    assert_string_equal(code_of("1. H2-E2 H9-G7 2. H0-G2 B9-C7"), "C00"); /* 对屏风马 */
}

static void test_mirror(void **state)
{
    (void)state;
    /* 炮八平五 炮2平5 is 炮二平五 炮8平5 seen in a mirror; 兵三进一 is 兵七进一's */
    assert_string_equal(code_of("1. B2-E2 B7-E7"), "D00");
    assert_string_equal(code_of("1. G3-G4"), "E00");
    assert_string_equal(code_of("1. G3-G4 H7-G7"), "E10");
    assert_string_equal(code_of("1. B2-E2 B9-C7 2. B0-C2 H9-G7"), "C00");
}

static void test_transposition(void **state)
{
    (void)state;
    /* 炮二平五 马2进3 马二进三 马8进7 reaches 对屏风马's position by another order */
    assert_string_equal(code_of("1. H2-E2 B9-C7 2. H0-G2 H9-G7"), "C00");
}

static void test_move_order(void **state)
{
    (void)state;
    /* 五七炮对屏风马: one position after 14 plies, two codes by the order of the moves
     * (the tagged records: 炮2进2 before 车九平八 车1平2 is C67, after it C65) */
    assert_string_equal(code_of("1. H2-E2 H9-G7 2. H0-G2 B9-C7 3. I0-H0 I9-H9 4. B0-A2 G6-G5 "
                                "5. B2-C2 B7-B5 6. H0-H6 G7-F5 7. A0-B0 A9-B9"),
                        "C67");
    assert_string_equal(code_of("1. H2-E2 H9-G7 2. H0-G2 I9-H9 3. I0-H0 B9-C7 4. B0-A2 G6-G5 "
                                "5. B2-C2 A9-B9 6. A0-B0 B7-B5 7. H0-H6 G7-F5"),
                        "C65");
}

static void test_reach(void **state)
{
    (void)state;
    /* 兵七进一 卒7进1 马八进七 马8进7 炮二平五 马2进3 马二进三 车9平8 reaches a 中炮对屏风马
     * position (C1x in the records), but the game is a 仙人指路 (E) one: the tagged games
     * never move on from its code to C1x, so it keeps its code */
    const char *c = code_of("1. C3-C4 G6-G5 2. B0-C2 H9-G7 3. H2-E2 B9-C7 4. H0-G2 I9-H9");
    assert_non_null(c);
    assert_int_equal(c[0], 'E');
}

static void test_deepest_named(void **state)
{
    (void)state;
    /* 中炮过河车互进七兵对屏风马平炮兑车, 红左边炮对黑退边炮上右士右直车: the deep line
     * decides at ply 16; the moves after it name nothing deeper */
    const char *c46 = "1. H2-E2 H9-G7 2. H0-G2 G6-G5 3. I0-H0 I9-H9 4. H0-H6 B9-C7 "
                      "5. C3-C4 H7-I7 6. H6-G6 I7-I8 7. B0-C2 D9-E8 8. B2-A2 A9-B9";
    assert_string_equal(code_of(c46), "C46");
    char longer[512];
    snprintf(longer, sizeof longer, "%s 9. A0-B0 I8-G8", c46);
    assert_string_equal(code_of(longer), "C46");
    /* the same position with 士4进5 played before 炮8平9: 上士 (C31, group C3, not
     * 平炮兑车), as the record tagged so says; the C4x line does not take it over */
    assert_string_equal(code_of("1. H2-E2 H9-G7 2. H0-G2 I9-H9 3. I0-H0 G6-G5 4. H0-H6 B9-C7 "
                                "5. C3-C4 D9-E8 6. B0-C2 H7-I7 7. H6-G6 I7-I8 8. B2-A2 A9-B9"),
                        "C31");
    /* its names, as XQWizard writes them */
    one o;
    char pgn[600];
    snprintf(pgn, sizeof pgn, "[Game \"Chinese Chess\"]\n\n%s *\n", c46);
    play(&o, pgn, false);
    assert_string_equal(o.g.opening_name, "中炮过河车互进七兵对屏风马平炮兑车");
    assert_string_equal(o.g.opening_variation, "红左边炮对黑退边炮上右士右直车");
    arena_free(&o.a);
}

static void test_standard_start_only(void **state)
{
    (void)state;
    one o;
    /* no move: nothing */
    assert_null(code_of(""));
    /* a set-up position (a handicap without Red's horses): no opening */
    play(&o,
         "[Game \"Chinese Chess\"]\n"
         "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/R1BAKAB1R w - - 0 1\"]\n\n"
         "1. H2-E2 H7-E7 *\n",
         false);
    assert_int_equal(o.g.plies, 2);
    assert_null(o.g.opening_eco);
    arena_free(&o.a);
    /* the standard start written out as a FEN is the standard start */
    play(&o,
         "[Game \"Chinese Chess\"]\n"
         "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\"]\n\n"
         "1. H2-E2 H7-E7 *\n",
         false);
    assert_string_equal(o.g.opening_eco, "D00");
    arena_free(&o.a);
}

static void test_check_eco(void **state)
{
    (void)state;
    one o;
    const char *pgn = "[Game \"Chinese Chess\"]\n[ECCO \"A10\"]\n\n1. C3-C4 *\n";
    play(&o, pgn, false);
    assert_string_equal(o.g.opening_eco, "E00");
    assert_null(find(&o.g, "eco-mismatch")); /* not by default */
    arena_free(&o.a);
    play(&o, pgn, true);
    const rec_finding *f = find(&o.g, "eco-mismatch");
    assert_non_null(f);
    assert_int_equal(f->severity, REC_INFO);
    assert_string_equal(f->tag, "ECCO");
    assert_string_equal(f->value, "A10");
    assert_non_null(strstr(f->message, "A10"));
    assert_non_null(strstr(f->message, "E00"));
    assert_int_equal(f->where.line, 2);
    arena_free(&o.a);
    /* the same code, or an empty tag (endgame records): nothing */
    play(&o, "[Game \"Chinese Chess\"]\n[ECCO \"E00\"]\n\n1. C3-C4 *\n", true);
    assert_null(find(&o.g, "eco-mismatch"));
    arena_free(&o.a);
    play(&o, "[Game \"Chinese Chess\"]\n[ECCO \"\"]\n\n1. C3-C4 *\n", true);
    assert_null(find(&o.g, "eco-mismatch"));
    arena_free(&o.a);
}

static void test_add_tags(void **state)
{
    (void)state;
    one o;
    /* a code the records gave no name for: the ECCO tag alone */
    play(&o, "[Game \"Chinese Chess\"]\n\n1. C3-C4 *\n", false);
    assert_true(db_openings_add_tags(&o.g, false));
    assert_string_equal(rec_game_tag(&o.g, "ECCO"), "E00");
    assert_null(rec_game_tag(&o.g, "Opening"));
    assert_null(rec_game_tag(&o.g, "Variation"));
    arena_free(&o.a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_replays),
        cmocka_unit_test(test_families),
        cmocka_unit_test(test_mirror),
        cmocka_unit_test(test_transposition),
        cmocka_unit_test(test_move_order),
        cmocka_unit_test(test_reach),
        cmocka_unit_test(test_deepest_named),
        cmocka_unit_test(test_standard_start_only),
        cmocka_unit_test(test_check_eco),
        cmocka_unit_test(test_add_tags),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
