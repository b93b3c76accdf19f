/* test_db_twins.c: twin keys of refereed games (src/database/db_keys.c) and the twin
 * index's rules (src/database/db_twins.c): the first copy in input order, the plies
 * threshold, copies that lost their end, headers, reference inputs, no false twin
 * among many unrelated games, and the memory per game. */
#include <config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "database/db_keys.h"
#include "database/db_twins.h"
#include "pgn_reader.h"
#include "referee/referee.h"

/* Knight moves that never capture or check: any sequence of them is legal. */
static const char *const knights[] = {"Nf3 Nf6 Ng1 Ng8", "Nc3 Nc6 Nb1 Nb8", "Nh3 Nh6 Ng1 Ng8",
                                      "Na3 Na6 Nb1 Nb8"};

/* A main line of n plies (n even) picked by seed from the knights' tours. */
static char *moves_text(unsigned seed, unsigned plies)
{
    size_t cap = 64 + plies * 8;
    char *s = malloc(cap);
    assert_non_null(s);
    size_t o = 0;
    unsigned move = 1;
    for (unsigned done = 0; done < plies; done += 4) {
        const char *quad = knights[(seed >> ((done / 4) % 16 * 2)) & 3];
        char a[4][4];
        sscanf(quad, "%3s %3s %3s %3s", a[0], a[1], a[2], a[3]);
        for (unsigned k = 0; k < 4 && done + k < plies; k += 2) {
            o += (size_t)snprintf(s + o, cap - o, "%u. %s ", move++, a[k]);
            if (done + k + 1 < plies)
                o += (size_t)snprintf(s + o, cap - o, "%s ", a[k + 1]);
        }
    }
    s[o] = '\0';
    return s;
}

/* The keys of the first game of PGN text, refereed as check does. */
static void keys_of(const char *pgn, db_keys *k)
{
    FILE *f = fmemopen((void *)pgn, strlen(pgn), "r");
    assert_non_null(f);
    pgn_reader *r = pgn_reader_open(f, "t.pgn");
    assert_non_null(r);
    arena a;
    arena_init(&a);
    rec_game g;
    rec_game_init(&g, &a, "t.pgn", 1);
    assert_int_equal(pgn_reader_next(r, &g, &a), 1);
    referee_options o = REFEREE_OPTIONS_DEFAULT;
    referee_chess_game(&g, &o);
    db_keys_of_game(&g, NULL, NULL, k);
    arena_free(&a);
    pgn_reader_close(r);
    fclose(f);
}

static void game_keys(const char *white, const char *black, const char *round, const char *moves,
                      db_keys *k)
{
    char pgn[4096];
    snprintf(pgn, sizeof pgn,
             "[Event \"Test\"]\n[Site \"Here\"]\n[Date \"2024.01.02\"]\n[Round \"%s\"]\n"
             "[White \"%s\"]\n[Black \"%s\"]\n[Result \"*\"]\n\n%s *\n",
             round, white, black, moves);
    keys_of(pgn, k);
}

static void test_keys_moves(void **state)
{
    (void)state;
    db_keys a, b, c, d, e;
    char *m = moves_text(0x1234, 40);
    game_keys("Carlsen, Magnus", "Caruana, Fabiano", "1", m, &a);
    /* other tags, spellings, comments, NAGs and variations: the same moves key */
    char pgn[4096];
    snprintf(pgn, sizeof pgn, "[White \"X\"]\n[Black \"Y\"]\n\n1. Nf3 {a comment} (1. e4) Nf6 $1 %s *\n",
             strstr(m, "2."));
    keys_of(pgn, &b);
    assert_int_equal(a.plies, 40);
    assert_true(strncmp(m, "1. Nf3 Nf6 2.", 13) == 0);
    assert_true(db_keys_moves(&a) == db_keys_moves(&b));
    game_keys("CARLSEN,Magnus", "caruana, fabiano", "1", m, &c);
    assert_int_equal(a.players, c.players);
    assert_int_equal(a.header, c.header);
    assert_true(db_keys_moves(&a) == db_keys_moves(&c));
    /* a FEN of the standard start is no FEN; another start is another key */
    snprintf(pgn, sizeof pgn,
             "[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n\n%s *\n", m);
    keys_of(pgn, &d);
    assert_true(db_keys_moves(&a) == db_keys_moves(&d));
    snprintf(pgn, sizeof pgn,
             "[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kkq - 0 1\"]\n\n%s *\n", m);
    keys_of(pgn, &e);
    assert_true(db_keys_moves(&a) != db_keys_moves(&e));
    /* unknown players: no players key, no header key */
    game_keys("?", "Caruana, Fabiano", "1", m, &e);
    assert_int_equal(e.players, 0);
    assert_int_equal(e.header, 0);
    /* round unknown: no header key */
    game_keys("Carlsen, Magnus", "Caruana, Fabiano", "?", m, &e);
    assert_int_equal(e.header, 0);
    assert_int_equal(e.players, a.players);
    /* colours swapped: other players */
    game_keys("Caruana, Fabiano", "Carlsen, Magnus", "1", m, &e);
    assert_int_not_equal(e.players, a.players);
    /* the same moves in another order: another key */
    char *m2 = moves_text(0x4321, 40);
    game_keys("Carlsen, Magnus", "Caruana, Fabiano", "1", m2, &e);
    assert_true(db_keys_moves(&a) != db_keys_moves(&e));
    free(m);
    free(m2);
}

static void test_keys_text(void **state)
{
    (void)state;
    db_keys a, b;
    char *m = moves_text(77, 36);
    game_keys("A, B", "C, D", "3", m, &a);
    free(m);
    char text[DB_KEYS_TEXT_MAX];
    size_t n = db_keys_format(&a, text, sizeof text);
    assert_true(n > 20 && n < sizeof text);
    assert_true(db_keys_parse(text, &b));
    a.line = 0;
    assert_memory_equal(&a, &b, sizeof a);
    assert_false(db_keys_parse("", &b));
    assert_false(db_keys_parse("zz.1.2.3.4.5.6.7.8", &b));
    assert_false(db_keys_parse("1.2.3", &b));
    assert_false(db_keys_parse("1.2.3.4.5.6.7.8.10000", &b));
}

/* Main lines of every length from 1 to 26 plies (each place in the rounds of eight
 * the key's walk takes) and the same without their last d plies: tails agree, and a
 * line shorter than d has none. */
static void test_keys_tail_every_length(void **state)
{
    (void)state;
    for (unsigned n = 1; n <= 26; n++) {
        char *m = moves_text(0x1d2c, n);
        db_keys full, cut;
        game_keys("A, B", "C, D", "1", m, &full);
        assert_int_equal(full.plies, n);
        for (unsigned d = 1; d <= DB_KEYS_TAIL; d++) {
            if (d > n) {
                assert_int_equal(full.tail[d - 1], 0);
                continue;
            }
            char *mc = moves_text(0x1d2c, n - d);
            game_keys("A, B", "C, D", "2", mc, &cut);
            assert_int_equal(cut.plies, n - d);
            if (full.tail[d - 1] != db_keys_fingerprint(db_keys_moves(&cut)))
                fail_msg("%u plies without %u: tail %x, key %x", n, d, full.tail[d - 1],
                         db_keys_fingerprint(db_keys_moves(&cut)));
            free(mc);
        }
        free(m);
    }
}

/* The main line of 40 plies and the same without its last d plies: tails agree. */
static void test_keys_tail(void **state)
{
    (void)state;
    char *m = moves_text(0xbeef, 40);
    db_keys full, cut;
    game_keys("A, B", "C, D", "1", m, &full);
    for (unsigned d = 1; d <= DB_KEYS_TAIL; d++) {
        char *mc = moves_text(0xbeef, 40 - d + (d & 1)); /* whole moves, then drop one */
        if (d & 1) {
            char *last = strrchr(mc, ' ');
            *last = '\0';
            last = strrchr(mc, ' ');
            *last = '\0';
        }
        game_keys("A, B", "C, D", "2", mc, &cut);
        assert_int_equal(cut.plies, 40 - d);
        assert_int_equal(full.tail[d - 1], db_keys_fingerprint(db_keys_moves(&cut)));
        free(mc);
    }
    free(m);
}

static db_keys mk(uint64_t moves, uint32_t players, uint32_t header, uint16_t event, uint16_t plies)
{
    db_keys k;
    memset(&k, 0, sizeof k);
    k.moves_lo = (uint32_t)moves;
    k.moves_hi = (uint32_t)(moves >> 32);
    k.players = players;
    k.header = header;
    k.event = event;
    k.plies = plies;
    k.line = 10u * plies + 1;
    return k;
}

static void test_rules(void **state)
{
    (void)state;
    db_twins *t = db_twins_new(30);
    db_twin f;
    db_keys k;
    /* a.pgn: 1 first; b.pgn: 1 its copy by the same players, 2 by other players, 3 a
     * short line shared with others, 4 a copy without players */
    k = mk(0x1111, 5, 50, 7, 60); k.line = 1;
    assert_int_equal(db_twins_settle(t, &k, "a.pgn", 1, false, &f), DB_TWIN_NONE);
    k = mk(0x2222, 6, 0, 0, 8);
    assert_int_equal(db_twins_settle(t, &k, "a.pgn", 2, false, &f), DB_TWIN_NONE);
    k = mk(0x1111, 5, 51, 7, 60);
    assert_int_equal(db_twins_settle(t, &k, "b.pgn", 1, false, &f), DB_TWIN_GAME);
    assert_string_equal(f.file, "a.pgn");
    assert_int_equal(f.game, 1);
    assert_int_equal(f.line, 1);
    assert_int_equal(f.plies, 60);
    assert_false(f.reference);
    k = mk(0x1111, 9, 0, 3, 60);
    assert_int_equal(db_twins_settle(t, &k, "b.pgn", 2, false, &f), DB_TWIN_MOVES);
    assert_int_equal(f.game, 1);
    /* short: the same 8 plies by others is no twin; by the same players in the same
     * event with another round is none either; with the same header it is */
    k = mk(0x2222, 8, 0, 0, 8);
    assert_int_equal(db_twins_settle(t, &k, "b.pgn", 3, false, &f), DB_TWIN_NONE);
    k = mk(0x3333, 12, 70, 1, 8);
    assert_int_equal(db_twins_settle(t, &k, "b.pgn", 4, false, &f), DB_TWIN_NONE);
    k = mk(0x3333, 12, 71, 1, 8);
    assert_int_equal(db_twins_settle(t, &k, "b.pgn", 5, false, &f), DB_TWIN_NONE);
    k = mk(0x3333, 12, 70, 1, 8);
    assert_int_equal(db_twins_settle(t, &k, "b.pgn", 6, false, &f), DB_TWIN_GAME);
    assert_int_equal(f.game, 4);
    /* players unknown: a copy when long enough */
    k = mk(0x1111, 0, 0, 0, 60);
    assert_int_equal(db_twins_settle(t, &k, "b.pgn", 7, false, &f), DB_TWIN_GAME);
    assert_string_equal(f.file, "a.pgn");
    /* same players, another event: the same moves, not the same game */
    k = mk(0x1111, 5, 0, 99, 60);
    assert_int_equal(db_twins_settle(t, &k, "b.pgn", 8, false, &f), DB_TWIN_MOVES);
    /* same header, other moves */
    k = mk(0x4444, 5, 50, 7, 41);
    assert_int_equal(db_twins_settle(t, &k, "c.pgn", 1, false, &f), DB_TWIN_HEADER);
    assert_string_equal(f.file, "a.pgn");
    assert_int_equal(f.game, 1);
    /* no moves at all: never a copy by its moves */
    k = mk(0x5555, 5, 0, 7, 0);
    assert_int_equal(db_twins_settle(t, &k, "c.pgn", 2, false, &f), DB_TWIN_NONE);
    k = mk(0x5555, 5, 0, 7, 0);
    assert_int_equal(db_twins_settle(t, &k, "c.pgn", 3, false, &f), DB_TWIN_NONE);
    assert_int_equal(db_twins_games(t), 13);
    db_twins_free(t);
}

/* Copies that lost their end, in both orders; the first copy in input order. */
static void test_truncated(void **state)
{
    (void)state;
    char *m = moves_text(0xfeed, 40), *mc = moves_text(0xfeed, 38), *ms = moves_text(0xfeed, 20),
         *m3 = moves_text(0xfeed, 34);
    db_keys full, cut, short_cut, far_cut, other;
    game_keys("A, B", "C, D", "1", m, &full);
    game_keys("A, B", "C, D", "2", mc, &cut);
    game_keys("A, B", "C, D", "3", ms, &short_cut);
    game_keys("A, B", "C, D", "4", m3, &far_cut);
    game_keys("E, F", "C, D", "1", mc, &other);
    db_twin f;
    db_twins *t = db_twins_new(30);
    assert_int_equal(db_twins_settle(t, &full, "x.pgn", 1, false, &f), DB_TWIN_NONE);
    assert_int_equal(db_twins_settle(t, &short_cut, "x.pgn", 2, false, &f), DB_TWIN_NONE);
    assert_int_equal(db_twins_settle(t, &far_cut, "x.pgn", 3, false, &f), DB_TWIN_NONE);
    assert_int_equal(db_twins_settle(t, &cut, "x.pgn", 4, false, &f), DB_TWIN_TRUNCATED);
    assert_int_equal(f.game, 1);
    /* another player: the 38 plies of game 4 by other players */
    assert_int_equal(db_twins_settle(t, &other, "x.pgn", 5, false, &f), DB_TWIN_MOVES);
    assert_int_equal(f.game, 4);
    db_twins_free(t);
    /* the other order: the longer copy later */
    t = db_twins_new(30);
    assert_int_equal(db_twins_settle(t, &cut, "y.pgn", 1, false, &f), DB_TWIN_NONE);
    assert_int_equal(db_twins_settle(t, &full, "y.pgn", 2, false, &f), DB_TWIN_TRUNCATED);
    assert_int_equal(f.game, 1);
    assert_int_equal(f.plies, 38);
    db_twins_free(t);
    free(m);
    free(mc);
    free(ms);
    free(m3);
}

/* A reference input: its games are named as such; game numbers follow runs. */
static void test_reference(void **state)
{
    (void)state;
    db_twins *t = db_twins_new(30);
    db_twin f;
    for (uint64_t i = 1; i <= 100; i++) {
        db_keys k = mk(0xabc000 + i, (uint32_t)i, 0, 0, 40);
        assert_int_equal(db_twins_settle(t, &k, "ref.pgn", i, true, &f), DB_TWIN_NONE);
    }
    db_keys k = mk(0xabc000 + 57, 57, 0, 0, 40);
    assert_int_equal(db_twins_settle(t, &k, "new.pgn", 1, false, &f), DB_TWIN_GAME);
    assert_true(f.reference);
    assert_string_equal(f.file, "ref.pgn");
    assert_int_equal(f.game, 57);
    /* a part's numbering that does not start at 1 (summary over parts) */
    k = mk(0xdef, 1000, 0, 0, 40);
    db_twins_settle(t, &k, "part2.yaml", 17, false, &f);
    k = mk(0xdef0, 1001, 0, 0, 40);
    db_twins_settle(t, &k, "part2.yaml", 18, false, &f);
    k = mk(0xdef0, 1001, 0, 0, 40);
    assert_int_equal(db_twins_settle(t, &k, "new.pgn", 2, false, &f), DB_TWIN_GAME);
    assert_string_equal(f.file, "part2.yaml");
    assert_int_equal(f.game, 18);
    assert_false(f.reference);
    db_twins_free(t);
}

/* 200000 unrelated games (keys from a generator): no twin; memory per game stated in
 * arbiter-check(1) (at most 64 bytes here, whatever the growth step). */
static void test_many(void **state)
{
    (void)state;
    db_twins *t = db_twins_new(30);
    uint64_t x = 88172645463325252ull;
    db_twin f;
    unsigned found = 0;
    for (uint64_t i = 1; i <= 200000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        db_keys k = mk(x, (uint32_t)(x >> 20) | 1, (uint32_t)(x >> 7) | 1, (uint16_t)(x >> 3),
                       (uint16_t)(20 + x % 100));
        for (int d = 0; d < DB_KEYS_TAIL; d++)
            k.tail[d] = (uint16_t)(x >> (16 * d));
        found += db_twins_settle(t, &k, "big.pgn", i, false, &f) != DB_TWIN_NONE;
    }
    assert_int_equal(found, 0);
    size_t per_game = db_twins_memory(t) / db_twins_games(t);
    assert_true(per_game <= 64);
    db_twins_free(t);
}

/* The keys made from the twin keys db_names_check found are those made by asking the
 * table: a canonical spelling ("Carlsen,M" is "Carlsen, Magnus" here), a name the
 * table never counted, an empty one, a repeated tag (the first counts, as
 * rec_game_tag), and xiangqi's Red before White. */
static void test_keys_from_found_names(void **state)
{
    (void)state;
    db_names *t = db_names_new();
    for (int i = 0; i < 3; i++) {
        db_names_add(t, DB_NAME_PLAYER, "Carlsen, Magnus");
        db_names_add(t, DB_NAME_PLAYER, "Anand, Viswanathan");
        db_names_add(t, DB_NAME_EVENT, "Tata Steel");
        db_names_add(t, DB_NAME_SITE, "Wijk aan Zee");
    }
    db_names_add(t, DB_NAME_PLAYER, "Carlsen,M");
    db_names_add(t, DB_NAME_PLAYER, "Xie, Jun");
    db_names_group(t);
    static const char *const tags[][2] = {
        {"Event", "Tata Steel"}, {"Site", ""},          {"Date", "2012.01.20"},
        {"Round", "3"},          {"White", "Carlsen,M"}, {"Black", "Unknown, Person"},
        {"White", "Anand, Viswanathan"}, {"Site", "Wijk aan Zee"}, {"Red", "Xie, Jun"},
    };
    for (int variant = 0; variant < 2; variant++) {
        for (size_t drop = 0; drop <= 9; drop++) {
            arena a;
            arena_init(&a);
            rec_game g;
            rec_game_init(&g, &a, "t.pgn", 1);
            g.kind = variant ? REC_XIANGQI : REC_CHESS;
            for (size_t i = 0; i < 9; i++)
                if (i != drop)
                    rec_game_add_tag(&g, tags[i][0], tags[i][1], (rec_span){.line = 1});
            db_game_names found;
            db_names_check(t, &g, &found);
            db_keys asked, given;
            db_keys_of_game(&g, t, NULL, &asked);
            db_keys_of_game(&g, t, &found, &given);
            assert_memory_equal(&asked, &given, sizeof asked);
            arena_free(&a);
        }
    }
    /* the canonical spelling's key was found, not the spelling's own */
    arena a;
    arena_init(&a);
    rec_game g;
    rec_game_init(&g, &a, "t.pgn", 1);
    rec_game_add_tag(&g, "White", "Carlsen,M", (rec_span){.line = 1});
    db_game_names found;
    db_names_check(t, &g, &found);
    assert_non_null(found.white);
    assert_string_equal(found.white, db_names_twin_key(t, DB_NAME_PLAYER, "Carlsen, Magnus"));
    assert_null(found.black);
    arena_free(&a);
    db_names_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keys_moves), cmocka_unit_test(test_keys_text),
        cmocka_unit_test(test_keys_tail),
        cmocka_unit_test(test_keys_tail_every_length),  cmocka_unit_test(test_rules),
        cmocka_unit_test(test_truncated),  cmocka_unit_test(test_reference),
        cmocka_unit_test(test_many),       cmocka_unit_test(test_keys_from_found_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
