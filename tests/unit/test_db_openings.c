/* test_db_openings.c: opening names (src/database/db_openings.c): the compiled lichess
 * table replays whole, the deepest named position wins, transpositions find their
 * name, the en passant square counts only when a capture is legal, the walk stops at
 * the table's longest line, and --check-eco's finding. */
#include <config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "database/db_openings.h"
#include "pgn_reader.h"
#include "referee/referee.h"

typedef struct one {
    arena a;
    rec_game g;
} one;

/* The first game of a PGN text, replayed and classified. */
static void play(one *o, const char *pgn, bool check_eco)
{
    memset(o, 0, sizeof *o);
    FILE *f = fmemopen((void *)pgn, strlen(pgn), "rb");
    assert_non_null(f);
    pgn_reader *r = pgn_reader_open(f, "mem.pgn");
    assert_non_null(r);
    arena_init(&o->a);
    assert_int_equal(pgn_reader_next(r, &o->g, &o->a), 1);
    referee_options opts = REFEREE_OPTIONS_DEFAULT;
    referee_chess_game(&o->g, &opts);
    rec_game_sort_findings(&o->g);
    db_openings_classify(&o->g, check_eco);
    /* the referee's keys and a replay of the table's own give the same row */
    const char *eco = o->g.opening_eco, *name = o->g.opening_name;
    int kept = o->g.opening_key_count;
    o->g.opening_key_count = 0;
    const db_opening_line *replayed = db_openings_chess(&o->g);
    assert_ptr_equal(replayed ? replayed->eco : NULL, eco);
    assert_ptr_equal(replayed ? db_opening_line_name(replayed) : NULL, name);
    o->g.opening_key_count = kept;
    pgn_reader_close(r);
    fclose(f);
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
    /* every row of the table is a legal line (gen_opening_slots fails the build on a
     * row that is not) */
    assert_int_equal(db_chess_opening_line_count, 3807);
    /* "one position per line" (the table's README) */
    assert_int_equal(db_chess_opening_positions, 3807);
    assert_int_equal(db_chess_opening_max_plies, 36);
    /* the referee keeps the keys of every ply the walk asks for */
    assert_true(db_chess_opening_max_plies < REC_OPENING_KEYS);
}

/* The index made at build time agrees with this run's move generator and keys: each
 * row, replayed here from the start (by the PGN reader and the referee, not the
 * generator's code), ends on a position whose slot names a row with the same moves'
 * position; with one position a row, that row is itself. */
static void test_index_matches_replay(void **state)
{
    (void)state;
    for (size_t r = 0; r < db_chess_opening_line_count; r++) {
        char pgn[1024];
        snprintf(pgn, sizeof pgn, "%s *\n", db_opening_line_moves(&db_chess_opening_lines[r]));
        one o;
        play(&o, pgn, false);
        assert_true(o.g.opening_key_count > 0);
        uint64_t end = o.g.opening_keys[o.g.opening_key_count - 1];
        uint16_t row = db_rows_lookup(db_chess_opening_slots, DB_OPENING_SLOTS, end);
        assert_int_equal(row, r);
        /* the filter lets every named position through to the index */
        assert_true(db_opening_filter_may_hold(end));
        assert_ptr_equal(o.g.opening_name, db_opening_line_name(&db_chess_opening_lines[r]));
        arena_free(&o.a);
    }
}

/* The filter holds a bit per named position (some shared), no more: most keys of
 * positions no row names stop at it. */
static void test_filter_bits(void **state)
{
    (void)state;
    size_t bits = 0;
    for (size_t i = 0; i < DB_OPENING_FILTER_BITS / 64; i++)
        bits += (size_t)__builtin_popcountll(db_chess_opening_filter[i]);
    assert_true(bits <= db_chess_opening_positions);
    assert_true(bits > db_chess_opening_positions * 9 / 10);
    size_t held = 0;
    for (uint64_t k = 0; k < 65536; k++)
        held += db_opening_filter_may_hold(k << 48 | k);
    assert_int_equal(held, bits);
}

static void test_deepest_named(void **state)
{
    (void)state;
    one o;
    /* the Scotch: 3.d4 is C45 "Scotch Game"; 4...Nf6 names the Schmidt Variation; the
     * moves after it name nothing deeper */
    play(&o, "1. e4 e5 2. Nf3 Nc6 3. d4 exd4 4. Nxd4 Nf6 5. Nxc6 bxc6 6. Bd3 *\n", false);
    assert_string_equal(o.g.opening_eco, "C45");
    assert_string_equal(o.g.opening_name, "Scotch Game: Schmidt Variation");
    arena_free(&o.a);
    /* one move: the table's first row */
    play(&o, "1. Nh3 *\n", false);
    assert_string_equal(o.g.opening_eco, "A00");
    assert_string_equal(o.g.opening_name, "Amar Opening");
    arena_free(&o.a);
    /* no move: nothing named */
    play(&o, "[Event \"x\"]\n\n*\n", false);
    assert_null(o.g.opening_eco);
    arena_free(&o.a);
}

static void test_transposition(void **state)
{
    (void)state;
    one o;
    /* the Queen's Gambit Declined reached by 1.c4 e6 2.Nc3 d5 3.d4: the position of
     * 1.d4 d5 2.c4 e6 3.Nc3 (D31, "Queen's Gambit Declined: Queen's Knight Variation") */
    play(&o, "1. c4 e6 2. Nc3 d5 3. d4 *\n", false);
    assert_string_equal(o.g.opening_eco, "D31");
    assert_string_equal(o.g.opening_name, "Queen's Gambit Declined: Queen's Knight Variation");
    arena_free(&o.a);
}

static void test_en_passant_only_when_legal(void **state)
{
    (void)state;
    one o;
    /* 1.e4: FEN has e3 but no capture is possible, so the position is the table's
     * King's Pawn Game (B00) */
    play(&o, "1. e4 *\n", false);
    assert_string_equal(o.g.opening_eco, "B00");
    assert_string_equal(o.g.opening_name, "King's Pawn Game");
    arena_free(&o.a);
}

static void test_stops_at_max_plies(void **state)
{
    (void)state;
    one o;
    /* knights out and back twice (8 plies), then 1.e4 e5 2.Nf3 Nc6 3.Bb5 (Ruy Lopez,
     * C60) reached at ply 13: a transposition, found. Out and back nine times (36
     * plies, the table's longest row) and the same moves reach it at ply 41, where
     * nothing is looked up any more: the name stays that of an earlier ply */
    play(&o, "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 e5 6. Nf3 Nc6 7. Bb5 *\n",
         false);
    assert_string_equal(o.g.opening_eco, "C60");
    arena_free(&o.a);
    char pgn[600] = "";
    for (int i = 0; i < 9; i++)
        snprintf(pgn + strlen(pgn), sizeof pgn - strlen(pgn), "%d. Nf3 Nf6 %d. Ng1 Ng8 ",
                 2 * i + 1, 2 * i + 2);
    strcat(pgn, "19. e4 e5 20. Nf3 Nc6 21. Bb5 *\n");
    play(&o, pgn, false);
    assert_non_null(o.g.opening_eco);
    assert_string_not_equal(o.g.opening_eco, "C60");
    arena_free(&o.a);
}

static void test_set_up_and_chess960(void **state)
{
    (void)state;
    one o;
    /* a set-up position the table names counts from ply 0 (C40, after 1.e4 e5 2.Nf3);
     * 2...a6 names nothing deeper */
    play(&o,
         "[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2\"]\n\n"
         "2... a6 *\n",
         false);
    assert_string_equal(o.g.opening_eco, "C40");
    assert_string_equal(o.g.opening_name, "King's Knight Opening");
    arena_free(&o.a);
    play(&o, "[Variant \"Chess960\"]\n\n1. e4 e5 *\n", false);
    assert_null(o.g.opening_eco);
    arena_free(&o.a);
}

static void test_check_eco(void **state)
{
    (void)state;
    one o;
    /* the table files the Scotch's 3.d4 under C44; a database says C45 */
    const char *pgn = "[Event \"x\"]\n[ECO \"C45\"]\n\n1. e4 e5 2. Nf3 Nc6 3. d4 *\n";
    play(&o, pgn, false);
    assert_string_equal(o.g.opening_eco, "C44");
    assert_null(find(&o.g, "eco-mismatch")); /* not by default */
    arena_free(&o.a);
    play(&o, pgn, true);
    const rec_finding *f = find(&o.g, "eco-mismatch");
    assert_non_null(f);
    assert_int_equal(f->severity, REC_INFO);
    assert_string_equal(f->tag, "ECO");
    assert_string_equal(f->value, "C45");
    assert_non_null(strstr(f->message, "C44"));
    assert_non_null(strstr(f->message, "C45"));
    assert_int_equal(f->where.line, 2);
    arena_free(&o.a);
    /* the same code, an unknown or a malformed one: nothing */
    play(&o, "[ECO \"C44\"]\n\n1. e4 e5 2. Nf3 Nc6 3. d4 *\n", true);
    assert_null(find(&o.g, "eco-mismatch"));
    arena_free(&o.a);
    play(&o, "[ECO \"?\"]\n\n1. e4 e5 2. Nf3 Nc6 3. d4 *\n", true);
    assert_null(find(&o.g, "eco-mismatch"));
    arena_free(&o.a);
    play(&o, "[ECO \"C4\"]\n\n1. e4 e5 2. Nf3 Nc6 3. d4 *\n", true);
    assert_null(find(&o.g, "eco-mismatch"));
    arena_free(&o.a);
}

static void test_name_parts(void **state)
{
    (void)state;
    const char *n = "Sicilian Defense: Najdorf Variation, English Attack";
    assert_int_equal(db_opening_name_length(n), strlen("Sicilian Defense"));
    assert_string_equal(db_opening_variation(n), "Najdorf Variation, English Attack");
    assert_int_equal(db_opening_name_length("Amar Opening"), strlen("Amar Opening"));
    assert_null(db_opening_variation("Amar Opening"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_replays),
        cmocka_unit_test(test_index_matches_replay),
        cmocka_unit_test(test_filter_bits),
        cmocka_unit_test(test_deepest_named),
        cmocka_unit_test(test_transposition),
        cmocka_unit_test(test_en_passant_only_when_legal),
        cmocka_unit_test(test_stops_at_max_plies),
        cmocka_unit_test(test_set_up_and_chess960),
        cmocka_unit_test(test_check_eco),
        cmocka_unit_test(test_name_parts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
