/* test_mate_search.c: arbiter's own mate search and the mate claims read from comments.
 *
 * The expected mate distances are the engines' own: Stockfish 15.1 (chess) and
 * Fairy-Stockfish 11.1 with UCI_Variant xiangqi, "go depth 16", Threads 1, on these
 * FENs (the chess ones are positions of lichess games whose [%eval #N] comments led
 * there, in ../shared/corpus/chess/bench/shakmaty-lichess_db_1000k.pgn).
 * tests/shell/mate-claim.test asks the engines again when they are installed. */
#include <config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "core/chess.h"
#include "core/variant.h"
#include "core/xiangqi.h"
#include "engine/mate_claim.h"
#include "engine/mate_search.h"

typedef struct oracle {
    const char *fen;
    int mate;    /* the engine's score for the side to move: mate in N (> 0), mated in
                  * -N (< 0), 0: no mate (a centipawn score) */
} oracle;

static const oracle chess_cases[] = {
    {"1N3Q1Q/8/8/6Q1/p1k5/P3R3/1P1K4/7R w - - 1 47", 1},
    {"1N6/5P2/8/7Q/p1k4P/P3R3/1P1K4/7R w - - 1 41", 2},
    {"1N6/8/8/5P1Q/p1k4P/P3R3/1P1K4/7R w - - 1 39", 3},
    {"1N6/8/8/5P1Q/p2k3P/P3R3/1P1K4/7R b - - 0 38", -3},   /* depth 26 (16 says -4) */
    {"2b4r/2Q2ppp/p3pk2/1pN5/1q1P4/1P5P/5PP1/1BR1R2K w - - 3 27", 3},
    {"2b4r/2Q1k1pp/p3pp2/1pNP4/1q6/1P5P/5PP1/1BR1R2K b - - 1 29", -3},
    {"2b4r/4k1pp/p3pp2/1pNPQ3/1q6/1P5P/5PP1/1BR1R2K w - - 0 29", 4},
    {"2k4r/ppp3p1/2b1pp1r/3pP3/1P1P3P/2N5/1PP2P2/R4RK1 b - - 0 21", 2},
    {"2k4r/ppp3p1/2b1ppr1/3pP3/1P1P3P/2N5/1PP2P2/R4RK1 w - - 1 22", -1},
    {"2r2k2/4r3/7P/5p2/b2n1P2/1q3B2/7K/1q5N b - - 5 44", 3},
    {"3r3r/N2k2pp/3P1p2/3Qp3/2P3n1/8/PP6/2KR2N1 w - - 3 27", 1},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0},
};

static const oracle xiangqi_cases[] = {
    {"3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", 1},
    {"3k5/4a4/9/9/9/9/9/9/9/R3K4 w - - 0 1", 3},
    /* Fairy-Stockfish says 4 even at depth 26; the mate in 3 ends in a stalemate, which
     * loses in xiangqi, and a plain exhaustive search (no table, no ordering) agrees */
    {"3ak4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1", 3},
    {"3k5/9/9/9/9/9/9/9/4R4/5K3 w - - 0 1", 1},
    {"4ka3/9/9/9/9/9/9/9/9/3K1R3 w - - 0 1", 3},
    {"2bak4/4a4/4b4/9/9/9/9/9/4R4/3K5 w - - 0 1", 0},
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", 0},
};

/* Ask for the mate (none: in up to 3), and one less than the engine's distance, which must fail). */
static void check_case(const variant *v, const oracle *o)
{
    variant_pos pos;
    char err[200];
    assert_true(v->from_fen(&pos, o->fen, err, sizeof err));
    int n = o->mate > 0 ? o->mate : 3;
    mate_result a = mate_search_attacker(v, &pos, n, 0);
    /* the quick pass alone: a mate it finds, the full search finds too */
    mate_result q = mate_search_quick(v, &pos, n, 0, true);
    if (q.verdict == MATE_FOUND)
        assert_int_equal(a.verdict, MATE_FOUND);
    else
        assert_int_equal(q.verdict, MATE_UNKNOWN);
    if (o->mate > 0) {
        assert_int_equal(a.verdict, MATE_FOUND);
        assert_int_equal(a.moves, o->mate);
        assert_int_not_equal(a.first, 0);
        if (o->mate > 1)
            assert_int_equal(mate_search_attacker(v, &pos, o->mate - 1, 0).verdict, MATE_NONE);
    } else {
        assert_int_equal(a.verdict, MATE_NONE);
    }
    /* the other side: mated in -mate after any move of the side to move */
    if (o->mate < 0) {
        mate_result d = mate_search_defender(v, &pos, -o->mate, 0);
        assert_int_equal(d.verdict, MATE_FOUND);
        assert_int_equal(d.moves, -o->mate);
        if (-o->mate > 1)
            assert_int_equal(mate_search_defender(v, &pos, -o->mate - 1, 0).verdict, MATE_NONE);
    }
}

static void test_chess_against_stockfish(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof chess_cases / sizeof chess_cases[0]; i++) {
        print_message("%s\n", chess_cases[i].fen);
        check_case(&variant_chess, &chess_cases[i]);
    }
}

static void test_xiangqi_against_fairy_stockfish(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof xiangqi_cases / sizeof xiangqi_cases[0]; i++) {
        print_message("%s\n", xiangqi_cases[i].fen);
        check_case(&variant_xiangqi, &xiangqi_cases[i]);
    }
}

/* A side without a move: lost in xiangqi (seed 001, like mate), drawn in chess
 * (FIDE 5.2.1), so the stalemated side counts as mated only in xiangqi. */
static void test_stalemate(void **state)
{
    (void)state;
    variant_pos pos;
    char err[200];
    assert_true(variant_chess.from_fen(&pos, "k7/8/1Q6/8/8/8/8/7K b - - 0 1", err, sizeof err));
    assert_int_equal(mate_search_defender(&variant_chess, &pos, 1, 0).verdict, MATE_NONE);
    /* the black general on d10 cannot move: d9 and e10 are the rook's */
    assert_true(variant_xiangqi.from_fen(&pos, "3k5/4R4/9/9/9/9/9/9/9/5K3 b - - 0 1", err,
                                         sizeof err));
    mate_result r = mate_search_defender(&variant_xiangqi, &pos, 1, 0);
    assert_int_equal(r.verdict, MATE_FOUND);
}

/* A budget too small to decide answers "unknown", never "none". */
static void test_budget_gives_unknown(void **state)
{
    (void)state;
    variant_pos pos;
    char err[200];
    assert_true(variant_chess.from_fen(&pos, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                                       err, sizeof err));
    assert_int_equal(mate_search_attacker(&variant_chess, &pos, 3, 50).verdict, MATE_UNKNOWN);
    assert_int_equal(mate_search_attacker(&variant_chess, &pos, 0, 0).verdict, MATE_UNKNOWN);
}

/* The variant's move queries the search orders and ends by, against playing the move:
 * gives_check is in_check after it, gives_mate is that and no legal reply. Random
 * games (a fixed LCG) from the oracle positions, where checks and mates are near. */
static void cross_check_moves(const variant *v, const oracle *cases, size_t count)
{
    uint32_t seed = 12345;
    int mates = 0;
    for (size_t c = 0; c < count; c++) {
        variant_pos pos;
        char err[200];
        assert_true(v->from_fen(&pos, cases[c].fen, err, sizeof err));
        for (int ply = 0; ply < 40; ply++) {
            uint16_t moves[VARIANT_MAX_MOVES];
            int n = v->gen_legal(&pos, moves);
            if (n == 0)
                break;
            for (int i = 0; i < n; i++) {
                variant_pos after = pos;
                variant_undo u;
                uint16_t replies[VARIANT_MAX_MOVES];
                v->make(&after, moves[i], &u);
                bool check = v->in_check(&after);
                bool mate = check && v->gen_legal(&after, replies) == 0;
                assert_int_equal(v->gives_check(&pos, moves[i]), check);
                assert_int_equal(v->gives_mate(&pos, moves[i]), mate);
                mates += mate;
            }
            seed = seed * 1103515245u + 12345u;
            variant_undo u;
            v->make(&pos, moves[(seed >> 16) % (uint32_t)n], &u);
        }
    }
    assert_true(mates > 0);
}

static void test_move_queries(void **state)
{
    (void)state;
    cross_check_moves(&variant_chess, chess_cases, sizeof chess_cases / sizeof chess_cases[0]);
    cross_check_moves(&variant_xiangqi, xiangqi_cases,
                      sizeof xiangqi_cases / sizeof xiangqi_cases[0]);
}

static void test_claims_read(void **state)
{
    arena a;
    arena_init(&a);
    (void)state;
    mate_claim c;
    assert_true(mate_claim_find(&a, "and mate in 3", &c));
    assert_int_equal(c.moves, 3);
    assert_int_equal(c.side, -1);
    assert_true(mate_claim_find(&a, "White mates in two", &c));
    assert_int_equal(c.moves, 2);
    assert_true(mate_claim_find(&a, "Checkmate in 4!", &c));
    assert_int_equal(c.moves, 4);
    assert_true(mate_claim_find(&a, "Мат в 3 хода", &c));
    assert_int_equal(c.moves, 3);
    assert_true(mate_claim_find(&a, "и мат в два хода", &c));
    assert_int_equal(c.moves, 2);
    assert_true(mate_claim_find(&a, "chiếu hết sau 3 nước", &c));
    assert_int_equal(c.moves, 3);
    assert_true(mate_claim_find(&a, "Chiếu hết sau ba nước", &c));
    assert_int_equal(c.moves, 3);
    assert_true(mate_claim_find(&a, "红方三步杀", &c));
    assert_int_equal(c.moves, 3);
    assert_true(mate_claim_find(&a, "5步杀", &c));
    assert_int_equal(c.moves, 5);
    assert_true(mate_claim_find(&a, "[%mate -2] nice", &c));
    assert_int_equal(c.moves, 2);
    assert_int_equal(c.side, 1);
    assert_true(c.command);
    /* no claims: threats, conditions, negations, stalemate, engine scores */
    assert_false(mate_claim_find(&a, "threatening mate in 2", &c));
    assert_false(mate_claim_find(&a, "if 23...Kg8 then mate in 3", &c));
    assert_false(mate_claim_find(&a, "there is no mate in 3 here", &c));
    assert_false(mate_claim_find(&a, "stalemate in 2 is the idea", &c));
    assert_false(mate_claim_find(&a, "[%eval #3]", &c));
    assert_false(mate_claim_find(&a, "mate in many", &c));
    assert_false(mate_claim_find(&a, "", &c));
    /* a command between the word and its number leaves a space in the prose */
    assert_true(mate_claim_find(&a, "mate[%clk 0:01:00]in 3", &c));
    assert_int_equal(c.moves, 3);
    arena_free(&a);
}

/* mate_claim_possible is the walk's filter: it must pass every text mate_claim_find
 * reads a claim in (or a game with a claim would go unchecked), and it passes over
 * words that only begin like "mate". */
static void test_claims_possible(void **state)
{
    arena a;
    arena_init(&a);
    (void)state;
    static const char *const texts[] = {
        "and mate in 3", "White mates in two", "Checkmate in 4!", "MATE IN 2", "Mating in 3",
        "mate-in-2", "[%mate 3]", "[%mate\t-1] x", "{mate[%clk 0:01:00]in 3", "Мат в 3 хода",
        "и мат в два хода", "chiếu hết sau 3 nước", "红方三步杀", "5步杀", "mates in 4",
        "MATES in 4", "mating in one", "threat: mate in 2", "mate in many", "mate",
        "material", "matter of taste", "the match", "format", "[%clk 0:03:00]", "mat",
        "ma", "m", "", "Mate[%emt 0:00:05] in 2", "checkmate  in 2", "mateS in 2",
    };
    mate_claim c;
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        if (mate_claim_find(&a, texts[i], &c))
            assert_true(mate_claim_possible(texts[i]));
    assert_false(mate_claim_possible("a material advantage"));
    assert_false(mate_claim_possible("no matter, the match goes on [%clk 0:10:00]"));
    assert_false(mate_claim_possible("format"));
    assert_false(mate_claim_possible("mat"));
    assert_true(mate_claim_possible("mate in 2"));
    assert_true(mate_claim_possible("Mating"));
    assert_true(mate_claim_possible("mate[%clk 0:01:00]in 3"));
    assert_true(mate_claim_possible("[%mate 3]"));
    arena_free(&a);
}

/* Every case asked at depths 1 to 4 as attacker and defender, in one order: the
 * verdicts, distances, first moves and node counts, into out. */
static size_t ask_all(const variant *v, const oracle *cases, size_t count, mate_result *out)
{
    size_t k = 0;
    for (size_t c = 0; c < count; c++) {
        variant_pos pos;
        char err[200];
        assert_true(v->from_fen(&pos, cases[c].fen, err, sizeof err));
        for (int n = 1; n <= 4; n++) {
            out[k++] = mate_search_attacker(v, &pos, n, 0);
            out[k++] = mate_search_defender(v, &pos, n, 0);
        }
    }
    return k;
}

/* A table kept from one search to the next (mate_search_keep_tables, the default)
 * holds the entries of the searches before: the answers and node counts are those of
 * fresh tables, the same searches asked twice over. */
static void test_kept_table_same_answers(void **state)
{
    (void)state;
    static const struct {
        const variant *v;
        const oracle *cases;
        size_t count;
    } sets[] = {{&variant_chess, chess_cases, sizeof chess_cases / sizeof chess_cases[0]},
                {&variant_xiangqi, xiangqi_cases, sizeof xiangqi_cases / sizeof xiangqi_cases[0]}};
    for (size_t i = 0; i < 2; i++) {
        mate_result fresh[2 * 4 * 16], kept[2][2 * 4 * 16];
        mate_search_keep_tables(false);
        size_t n = ask_all(sets[i].v, sets[i].cases, sets[i].count, fresh);
        mate_search_keep_tables(true);
        for (int round = 0; round < 2; round++)
            assert_int_equal(ask_all(sets[i].v, sets[i].cases, sets[i].count, kept[round]), n);
        mate_search_thread_done();
        for (int round = 0; round < 2; round++)
            for (size_t k = 0; k < n; k++) {
                assert_int_equal(kept[round][k].verdict, fresh[k].verdict);
                assert_int_equal(kept[round][k].moves, fresh[k].moves);
                assert_int_equal(kept[round][k].first, fresh[k].first);
                assert_int_equal(kept[round][k].nodes, fresh[k].nodes);
            }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chess_against_stockfish),
        cmocka_unit_test(test_xiangqi_against_fairy_stockfish),
        cmocka_unit_test(test_stalemate),
        cmocka_unit_test(test_budget_gives_unknown),
        cmocka_unit_test(test_move_queries),
        cmocka_unit_test(test_claims_read),
        cmocka_unit_test(test_claims_possible),
        cmocka_unit_test(test_kept_table_same_answers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
