/* test_xiangqi.c: unit tests for the xiangqi rules core (src/core/xiangqi*.c).
 *
 * FEN reading and writing with every error message, make/unmake and Zobrist
 * keys over random play, each piece's movement rule, check, mate, stalemate,
 * and perft at small depths (deep counts live in fixtures/perft/xiangqi.epd). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/prng.h"
#include "core/xiangqi.h"

#define START_FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
#define POS2_FEN "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1"
#define POS3_FEN "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1"
#define POS4_FEN "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1"

static int sq(const char *name)
{
    return XQ_SQ(name[0] - 'a', name[1] - '0');
}

static xq_move mv(const char *ucci)
{
    return xq_move_from_ucci(ucci);
}

static void load(xq_pos *pos, const char *fen)
{
    char err[160];
    bool ok = xq_pos_from_fen(pos, fen, err, sizeof err);
    if (!ok)
        fail_msg("FEN rejected: %s (%s)", fen, err);
}

static bool in_list(const xq_movelist *list, xq_move m)
{
    for (int i = 0; i < list->count; i++)
        if (list->moves[i] == m)
            return true;
    return false;
}

/* ---- FEN ---- */

static void test_start_position(void **state)
{
    (void)state;
    xq_pos a, b;
    char buf[128];
    xq_pos_start(&a);
    xq_pos_to_fen(&a, buf, sizeof buf);
    assert_string_equal(buf, START_FEN);
    load(&b, START_FEN);
    assert_memory_equal(&a, &b, sizeof a);
    assert_int_equal(xq_piece_at(&a, 4), XQ_PIECE(XQ_GENERAL, XQ_RED));
    assert_int_equal(xq_piece_at(&a, 85), XQ_PIECE(XQ_GENERAL, XQ_BLACK));
    assert_int_equal(xq_piece_at(&a, -1), 0);
    assert_int_equal(xq_piece_at(&a, 90), 0);
    assert_true(xq_key(&a) != 0);
    assert_true(xq_key(&a) == xq_key_compute(&a));
}

static void test_fen_round_trips(void **state)
{
    (void)state;
    static const char *const fens[] = { START_FEN, POS2_FEN, POS3_FEN, POS4_FEN,
                                        "4k4/9/9/9/9/9/9/9/4A4/3K5 b - - 17 42" };
    char buf[128];
    xq_pos pos, again;
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        load(&pos, fens[i]);
        xq_pos_to_fen(&pos, buf, sizeof buf);
        assert_string_equal(buf, fens[i]);
        load(&again, buf);
        assert_memory_equal(&pos, &again, sizeof pos);
    }
}

static void test_fen_dialects(void **state)
{
    (void)state;
    xq_pos a, b;
    char buf[128];

    /* WXF letters E (elephant) and H (horse), side r for Red, no counters */
    load(&a, "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r");
    xq_pos_start(&b);
    assert_memory_equal(&a, &b, sizeof a);
    xq_pos_to_fen(&a, buf, sizeof buf);
    assert_string_equal(buf, START_FEN);

    load(&a, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - -");
    assert_memory_equal(&a, &b, sizeof a);
    load(&a, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w 0 1");
    assert_memory_equal(&a, &b, sizeof a);
    load(&a, "  rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR  w  -  -  0  1  ");
    assert_memory_equal(&a, &b, sizeof a);

    load(&a, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
    assert_int_equal(a.side, XQ_BLACK);
    assert_int_equal(a.halfmove, 1);
    assert_int_equal(a.fullmove, 1);
    xq_pos_to_fen(&a, buf, sizeof buf);
    assert_string_equal(buf, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
    /* the key of a position does not depend on how it was written */
    load(&b, "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RHEAKAEHR b");
    assert_true(xq_key(&a) == xq_key(&b));
    assert_true(xq_key(&a) == xq_key_compute(&a));
}

struct fen_case {
    const char *fen;
    const char *message;  /* substring expected in the error; NULL: valid */
};

static void test_fen_errors(void **state)
{
    (void)state;
    static const struct fen_case cases[] = {
        { "rnbakabnr/9/1c5x1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
          "bad piece letter 'x' at column 16" },
        { "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA\x01" "ABNR w",
          "bad piece letter (byte 0x01) at column 55" },
        { "rnbakabnrr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
          "FEN row 1 (rank 9) is too long" },
        { "rnbakabnr/9/1c5c2/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
          "FEN row 3 (rank 7) is too long" },
        { "rnbakabnr/8/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
          "FEN row 2 (rank 8) is too short" },
        { "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w",
          "FEN row 10 (rank 0) is too short" },
        { "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w", "too few ranks" },
        { "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR/9 w", "too many ranks" },
        { "", "empty FEN" },
        { "rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
          "Black has 0 generals: need exactly one general" },
        { "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBAKABNR w",
          "Red has 2 generals: need exactly one general" },
        { "3k5/9/9/9/9/9/9/9/9/2K6 w", "Red general on c0 is outside its palace" },
        { "3k5/9/9/9/9/9/4K4/9/9/9 w", "Red general on e3 is outside its palace" },
        { "9/3k5/9/9/9/9/9/9/9/4K4 w", NULL },
        { "9/9/9/3k5/9/9/9/9/9/4K4 w", "Black general on d6 is outside its palace" },
        { "3k5/9/9/9/9/9/9/9/9/4AK3 w",
          "Red advisor on e0 is on a point an advisor can never reach" },
        { "3k5/a8/9/9/9/9/9/9/9/4K4 w",
          "Black advisor on a8 is on a point an advisor can never reach" },
        { "3k5/9/9/9/9/9/4B4/9/9/4K4 w",
          "Red elephant on e3 is on a point an elephant can never reach" },
        { "3k5/9/9/9/2B6/9/9/9/9/4K4 w",
          "Red elephant on c5 is on a point an elephant can never reach" },
        { "3k5/9/9/9/9/9/9/P8/9/4K4 w",
          "Red soldier on a2 is on a point a soldier can never reach (behind its starting rank)" },
        { "3k5/9/9/9/9/9/1P7/9/9/4K4 w",
          "Red soldier on b3 is on a point a soldier can never reach (off its file before the river)" },
        { "3k5/9/2p6/9/9/9/9/9/9/4K4 w",
          "Black soldier on c7 is on a point a soldier can never reach (behind its starting rank)" },
        { "3k5/9/9/9/3p5/9/9/9/9/4K4 w",
          "Black soldier on d5 is on a point a soldier can never reach (off its file before the river)" },
        { "3k5/9/9/9/9/9/9/9/R8/RR2K4 w", "too many pieces: Red has 3 chariots (at most 2)" },
        { "3k5/9/9/9/9/9/9/9/c8/cc2K4 w", "too many pieces: Black has 3 cannons (at most 2)" },
        { "3k5/9/9/9/9/9/9/9/N8/NN2K4 w", "too many pieces: Red has 3 horses (at most 2)" },
        { "3k5/9/9/ppppp4/9/9/9/9/p8/4K4 w", "too many pieces: Black has 6 soldiers (at most 5)" },
        { "3aka3/4a4/9/9/9/9/9/9/9/3K5 w", "too many pieces: Black has 3 advisors (at most 2)" },
        { "2b1k1b2/9/4b4/9/9/9/9/9/9/3K5 w", "too many pieces: Black has 3 elephants (at most 2)" },
        { "4k4/9/9/9/9/9/9/9/9/4K4 w", "the generals face each other on the open e file" },
        { "3k5/9/9/9/9/9/9/9/9/3K5 b", "the generals face each other on the open d file" },
        { "4k4/9/9/9/9/9/9/9/4R4/3K5 w", "Black is in check but it is Red to move" },
        { "4k4/9/9/9/9/9/9/9/3p5/3K5 b", "Red is in check but it is Black to move" },
        { "4k4/9/9/9/9/9/9/9/9/3K5 x", "bad side to move 'x' at column 25" },
        { "4k4/9/9/9/9/9/9/9/9/3K5 white", "bad side to move 'white'" },
        { "4k4/9/9/9/9/9/9/9/9/3K5", "missing side to move" },
        { "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 junk", "trailing garbage at column 35" },
        { "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 2", "trailing garbage" },
        { "4k4/9/9/9/9/9/9/9/9/3K5 w - - x 1", "bad halfmove clock at column 31" },
        { "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 -1", "bad move number" },
        { "4k4/9/9/9/9/9/9/9/9/3K5 w - - 99999999999 1", "bad halfmove clock" },
    };
    xq_pos pos;
    char err[160];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        err[0] = '\0';
        bool ok = xq_pos_from_fen(&pos, cases[i].fen, err, sizeof err);
        if (!cases[i].message) {  /* a near miss that is valid */
            if (!ok)
                fail_msg("FEN \"%s\" rejected: %s", cases[i].fen, err);
            continue;
        }
        if (ok || !strstr(err, cases[i].message))
            fail_msg("FEN \"%s\": want \"%s\", got %s \"%s\"", cases[i].fen, cases[i].message,
                     ok ? "success" : "error", err);
        assert_true(strchr(err, '\n') == NULL);
    }
}

/* Garbage of every kind is refused without crashing (the sanitizer run checks
 * the "without crashing" part). */
static void test_fen_never_crashes(void **state)
{
    (void)state;
    static char buf[70000];
    xq_pos pos;
    char err[64];

    assert_false(xq_pos_from_fen(&pos, NULL, err, sizeof err));
    assert_false(xq_pos_from_fen(&pos, "x", NULL, 0));
    assert_false(xq_pos_from_fen(&pos, "x", err, 0));
    assert_false(xq_pos_from_fen(&pos, "x", err, 1));
    assert_int_equal(err[0], '\0');

    memset(buf, '1', sizeof buf - 1);
    buf[sizeof buf - 1] = '\0';
    assert_false(xq_pos_from_fen(&pos, buf, err, sizeof err));
    for (size_t i = 0; i + 1 < sizeof buf; i++)
        buf[i] = "9/"[i % 2];
    assert_false(xq_pos_from_fen(&pos, buf, err, sizeof err));
    snprintf(buf, sizeof buf, "%s", START_FEN);
    memset(buf + strlen(buf), ' ', 1000);
    buf[strlen(START_FEN) + 1000] = '\0';
    assert_true(xq_pos_from_fen(&pos, buf, err, sizeof err));

    /* random bytes, and the start FEN with random bytes spliced in */
    uint64_t rng = PRNG_SEED;
    size_t base_len = strlen(START_FEN);
    for (int round = 0; round < 20000; round++) {
        size_t len = prng_next(&rng) % 120;
        if (round % 2) {
            for (size_t i = 0; i < len; i++)
                buf[i] = (char)(prng_next(&rng) % 255 + 1);
        } else {
            memcpy(buf, START_FEN, base_len);
            len = base_len;
            for (int k = 0; k < 3; k++)
                buf[prng_next(&rng) % base_len] = (char)(prng_next(&rng) % 255 + 1);
        }
        buf[len] = '\0';
        if (xq_pos_from_fen(&pos, buf, err, sizeof err)) {
            char out[128];
            xq_pos_to_fen(&pos, out, sizeof out);
            assert_true(xq_key(&pos) == xq_key_compute(&pos));
        } else {
            assert_true(err[0] != '\0');
        }
    }
}

/* ---- moves and notation ---- */

static void test_move_encoding(void **state)
{
    (void)state;
    char buf[5];
    xq_move m = xq_move_make(sq("h2"), sq("e2"));
    assert_true(m != XQ_MOVE_NONE);
    assert_int_equal(xq_move_from(m), sq("h2"));
    assert_int_equal(xq_move_to(m), sq("e2"));
    xq_move_to_ucci(m, buf);
    assert_string_equal(buf, "h2e2");
    assert_true(mv("h2e2") == m);
    assert_true(mv("i9i0") == xq_move_make(89, 8));
    assert_true(mv("h2e") == XQ_MOVE_NONE);
    assert_true(mv("h2e2x") == XQ_MOVE_NONE);
    assert_true(mv("j2e2") == XQ_MOVE_NONE);
    assert_true(mv("e2e2") == XQ_MOVE_NONE);
    xq_move_to_ucci(XQ_MOVE_NONE, buf);
    assert_string_equal(buf, "0000");
    /* no move between two real points encodes as 0 */
    for (int from = 0; from < XQ_SQUARES; from++)
        for (int to = 0; to < XQ_SQUARES; to++)
            if (from != to)
                assert_true(xq_move_make(from, to) != XQ_MOVE_NONE);
}

/* Every generated move passes xq_move_check and every other from-to pair fails
 * it; pseudo moves are a superset of legal ones. */
static void cross_check_moves(const xq_pos *pos)
{
    xq_movelist legal, pseudo;
    xq_gen_legal(pos, &legal);
    xq_gen_pseudo(pos, &pseudo);
    for (int i = 0; i < legal.count; i++)
        assert_true(in_list(&pseudo, legal.moves[i]));
    int n = 0;
    for (int from = 0; from < XQ_SQUARES; from++)
        for (int to = 0; to < XQ_SQUARES; to++) {
            if (from == to)
                continue;
            xq_move m = xq_move_make(from, to);
            enum xq_verdict v = xq_move_check(pos, m);
            if (v == XQ_LEGAL) {
                n++;
                if (!in_list(&legal, m))
                    fail_msg("move %d-%d judged legal but not generated", from, to);
            } else if (v >= XQ_ILLEGAL_FLYING_GENERAL) {
                if (!in_list(&pseudo, m) || in_list(&legal, m))
                    fail_msg("move %d-%d: verdict %s disagrees with generation", from, to,
                             xq_verdict_text(v));
            } else if (in_list(&pseudo, m)) {
                fail_msg("move %d-%d generated but judged \"%s\"", from, to, xq_verdict_text(v));
            }
        }
    assert_int_equal(n, legal.count);
}

/* xq_square_attacked agrees with pseudo-legal captures on every occupied point. */
static void cross_check_attacks(const xq_pos *pos)
{
    for (int by = 0; by < 2; by++) {
        xq_pos as = *pos;
        xq_movelist pseudo;
        as.side = (uint8_t)by;
        xq_gen_pseudo(&as, &pseudo);
        for (int s = 0; s < XQ_SQUARES; s++) {
            int p = pos->board[s];
            if (!p || XQ_COLOR(p) == by || XQ_TYPE(p) == XQ_GENERAL)
                continue;
            bool gen = false;
            for (int i = 0; i < pseudo.count; i++)
                gen |= xq_move_to(pseudo.moves[i]) == s;
            assert_int_equal(xq_square_attacked(pos, s, by), gen);
        }
    }
    assert_int_equal(xq_in_check(pos),
                     xq_square_attacked(pos, pos->general[pos->side], pos->side ^ 1));
}

/* The move queries that answer without playing: xq_move_legal against the legal
 * generator for every pseudo-legal move, and xq_gives_check and xq_move_check against
 * playing the move and asking xq_in_check. Returns the checks seen. */
static int cross_check_queries(const xq_pos *pos)
{
    xq_movelist pseudo, legal;
    int checks = 0;
    xq_gen_pseudo(pos, &pseudo);
    xq_gen_legal(pos, &legal);
    for (int i = 0; i < pseudo.count; i++) {
        xq_move m = pseudo.moves[i];
        bool is_legal = in_list(&legal, m);
        assert_int_equal(xq_move_legal(pos, m), is_legal);
        assert_int_equal(xq_move_check(pos, m) == XQ_LEGAL, is_legal);
        if (!is_legal)
            continue;
        xq_pos after = *pos;
        xq_undo u;
        xq_make(&after, m, &u);
        bool check = xq_in_check(&after);
        if (xq_gives_check(pos, m) != check)
            fail_msg("xq_gives_check(%04x) says %d, the position after says %d", (unsigned)m,
                     !check, check);
        checks += check;
    }
    return checks;
}

static void test_random_play(void **state)
{
    (void)state;
    uint64_t rng = PRNG_SEED ^ UINT64_C(0x5851f42d4c957f2d);
    int plies = 0, mates = 0, stalemates = 0, checks = 0;
    char fen[128], err[160];

    for (int game = 0; game < 120; game++) {
        xq_pos pos, copy, reread;
        xq_pos_start(&pos);
        for (int ply = 0; ply < 160; ply++) {
            xq_movelist list;
            int n = xq_gen_legal(&pos, &list);
            if (ply % 16 == 0) {
                cross_check_moves(&pos);
                cross_check_attacks(&pos);
            }
            checks += cross_check_queries(&pos);
            if (n == 0) {
                assert_true(xq_is_checkmate(&pos) || xq_is_stalemate(&pos));
                mates += xq_is_checkmate(&pos);
                stalemates += xq_is_stalemate(&pos);
                break;
            }
            assert_false(xq_is_checkmate(&pos));
            assert_false(xq_is_stalemate(&pos));

            /* every move undoes exactly */
            copy = pos;
            for (int i = 0; i < n; i++) {
                xq_undo u;
                xq_make(&pos, list.moves[i], &u);
                assert_true(xq_key(&pos) == xq_key_compute(&pos));
                xq_unmake(&pos, list.moves[i], &u);
                assert_memory_equal(&pos, &copy, sizeof pos);
            }

            /* prefer captures now and then, so games thin out and end */
            xq_move m = list.moves[prng_next(&rng) % (uint64_t)n];
            if (prng_next(&rng) % 2)
                for (int i = 0; i < n; i++)
                    if (pos.board[xq_move_to(list.moves[i])]) {
                        m = list.moves[i];
                        break;
                    }
            xq_undo u;
            xq_make(&pos, m, &u);
            plies++;
            assert_true(xq_key(&pos) == xq_key_compute(&pos));
            xq_pos_to_fen(&pos, fen, sizeof fen);
            if (!xq_pos_from_fen(&reread, fen, err, sizeof err))
                fail_msg("own FEN %s rejected: %s", fen, err);
            assert_memory_equal(reread.board, pos.board, sizeof pos.board);
            assert_true(reread.key == pos.key);
            assert_int_equal(reread.halfmove, pos.halfmove);
            assert_int_equal(reread.fullmove, pos.fullmove);
        }
    }
    assert_true(plies > 5000);
    assert_true(checks > 1000);   /* the check answers were put to the test */
    print_message("# random play: %d plies, %d mates, %d stalemates, %d checking moves\n", plies,
                  mates, stalemates, checks);
}

/* ---- rules, one by one ---- */

static void expect(const char *fen, const char *move, enum xq_verdict want)
{
    xq_pos pos;
    xq_movelist list;
    load(&pos, fen);
    enum xq_verdict got = xq_move_check(&pos, mv(move));
    if (got != want)
        fail_msg("%s on %s: want \"%s\", got \"%s\"", move, fen, xq_verdict_text(want),
                 xq_verdict_text(got));
    xq_gen_legal(&pos, &list);
    assert_int_equal(in_list(&list, mv(move)), want == XQ_LEGAL);
    assert_int_equal(xq_is_legal(&pos, mv(move)), want == XQ_LEGAL);
}

static int legal_count(const char *fen)
{
    xq_pos pos;
    xq_movelist list;
    load(&pos, fen);
    return xq_gen_legal(&pos, &list);
}

static void test_flying_general(void **state)
{
    (void)state;
    /* the horse on e5 is the only thing between the generals: pinned */
    const char *pinned = "4k4/9/9/9/4N4/9/9/9/9/4K4 w - - 0 1";
    expect(pinned, "e5c6", XQ_ILLEGAL_FLYING_GENERAL);
    expect(pinned, "e5g4", XQ_ILLEGAL_FLYING_GENERAL);
    expect(pinned, "e0e1", XQ_LEGAL);
    assert_int_equal(legal_count(pinned), 3);
    /* a general may not step onto the open file facing the other one */
    const char *step = "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1";
    expect(step, "e0d0", XQ_ILLEGAL_FLYING_GENERAL);
    expect(step, "e0f0", XQ_LEGAL);
    /* a cannon pinned by the opposing general may slide along the file only */
    const char *rook = "4k4/9/9/9/9/9/9/4C4/9/4K4 w - - 0 1";
    expect(rook, "e2d2", XQ_ILLEGAL_FLYING_GENERAL);
    expect(rook, "e2e8", XQ_LEGAL);
    /* the face-off counts as check for the side to move */
    xq_pos pos;
    load(&pos, "4k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1");
    assert_false(xq_in_check(&pos));
    assert_true(xq_square_attacked(&pos, sq("e9"), XQ_RED) == false);
    expect("4k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1", "e9d9", XQ_ILLEGAL_FLYING_GENERAL);
}

static void test_cannon_screens(void **state)
{
    (void)state;
    /* the cannon on a0 and the black chariot on a5 with 0, 1 and 2 screens */
    const char *zero = "5k3/9/9/9/r8/9/9/9/9/C2K5 w - - 0 1";
    const char *one = "5k3/9/9/9/r8/9/P8/9/9/C2K5 w - - 0 1";
    const char *two = "5k3/9/9/9/r8/P8/P8/9/9/C2K5 w - - 0 1";
    const char *black_screen = "5k3/9/9/9/r8/p8/9/9/9/C2K5 w - - 0 1";
    expect(zero, "a0a5", XQ_ILLEGAL_CANNON_SCREEN);
    expect(zero, "a0a4", XQ_LEGAL);
    expect(one, "a0a5", XQ_LEGAL);
    expect(one, "a0a4", XQ_ILLEGAL_PATH_BLOCKED);
    expect(one, "a0a3", XQ_ILLEGAL_OWN_CAPTURE);
    expect(two, "a0a5", XQ_ILLEGAL_CANNON_SCREEN);
    expect(black_screen, "a0a5", XQ_LEGAL);
    expect(black_screen, "a0a4", XQ_ILLEGAL_CANNON_SCREEN);
    expect(one, "a0b0", XQ_LEGAL);
    expect(one, "a0b1", XQ_ILLEGAL_GEOMETRY);

    /* cannon checks: one screen gives check, none or two do not */
    xq_pos pos;
    load(&pos, "4k4/9/9/9/4C4/9/9/9/9/3K5 b - - 0 1");
    assert_false(xq_in_check(&pos));
    load(&pos, "4k4/4a4/9/9/4C4/9/9/9/9/3K5 b - - 0 1");
    assert_true(xq_in_check(&pos));
    load(&pos, "4k4/4a4/4b4/9/4C4/9/9/9/9/3K5 b - - 0 1");
    assert_false(xq_in_check(&pos));
    /* moving a piece onto the line makes a screen: exposing the own general */
    expect("3k5/9/9/9/4c4/9/9/9/9/2N1K4 w - - 0 1", "c0e1", XQ_ILLEGAL_SELF_CHECK);
    expect("3k5/9/9/9/4c4/9/9/9/9/2N1K4 w - - 0 1", "c0d2", XQ_LEGAL);
    /* ... and moving the only screen away answers a cannon check */
    load(&pos, "3k5/9/9/9/4c4/9/9/9/4A4/4K4 w - - 0 1");
    assert_true(xq_in_check(&pos));
    expect("3k5/9/9/9/4c4/9/9/9/4A4/4K4 w - - 0 1", "e1d2", XQ_LEGAL);
}

static void test_horse_legs(void **state)
{
    (void)state;
    const char *fen = "3k5/9/9/9/4P4/4N4/9/9/9/4K4 w - - 0 1";
    expect(fen, "e4d6", XQ_ILLEGAL_HORSE_LEG);
    expect(fen, "e4f6", XQ_ILLEGAL_HORSE_LEG);
    expect(fen, "e4c5", XQ_LEGAL);
    expect(fen, "e4g3", XQ_LEGAL);
    expect(fen, "e4e6", XQ_ILLEGAL_GEOMETRY);
    /* the horse on e4 has 8 - 2 = 6 moves, the crossed soldier 3, the general 2
     * (d0 would face Black's general) */
    assert_int_equal(legal_count(fen), 6 + 3 + 2);

    /* a horse checking from d7 through its leg d8; blocked by a piece on d8 */
    xq_pos pos;
    load(&pos, "4k4/9/3N5/9/9/9/9/9/9/3K5 b - - 0 1");
    assert_true(xq_in_check(&pos));
    load(&pos, "4k4/3P5/3N5/9/9/9/9/9/9/3K5 b - - 0 1");
    assert_false(xq_in_check(&pos));
    load(&pos, "4k4/2N6/9/9/9/9/9/9/9/3K5 b - - 0 1");  /* c8 -> e9, leg d8 */
    assert_true(xq_in_check(&pos));
    load(&pos, "4k4/2NP5/9/9/9/9/9/9/9/3K5 b - - 0 1");
    assert_false(xq_in_check(&pos));
    /* the checked side may answer by stepping onto the leg */
    expect("3rk4/9/3N5/9/9/9/9/9/9/3K5 b - - 0 1", "d9d8", XQ_LEGAL);
    expect("3rk4/9/3N5/9/9/9/9/9/9/3K5 b - - 0 1", "d9d7", XQ_LEGAL);
    expect("3rk4/9/3N5/9/9/9/9/9/9/3K5 b - - 0 1", "e9f9", XQ_LEGAL);
    expect("3rk4/9/3N5/9/9/9/9/9/9/3K5 b - - 0 1", "e9e8", XQ_LEGAL);
    expect("3rk4/9/3N5/9/9/9/9/9/9/3K5 b - - 0 1", "d9c9", XQ_ILLEGAL_CHECK_NOT_MET);
}

static void test_elephants(void **state)
{
    (void)state;
    const char *fen = "3k5/9/9/9/9/2B6/9/9/9/4K4 w - - 0 1";  /* elephant on c4 */
    expect(fen, "c4e6", XQ_ILLEGAL_RIVER);
    expect(fen, "c4a6", XQ_ILLEGAL_RIVER);
    expect(fen, "c4a2", XQ_LEGAL);
    expect(fen, "c4e2", XQ_LEGAL);
    expect(fen, "c4d5", XQ_ILLEGAL_GEOMETRY);
    /* blocked eye: the elephant on c0 with a piece on d1 */
    const char *eye = "3k5/9/9/9/9/9/9/9/3N5/2B1K4 w - - 0 1";
    expect(eye, "c0e2", XQ_ILLEGAL_ELEPHANT_EYE);
    expect(eye, "c0a2", XQ_LEGAL);
    /* Black's elephant may not cross either */
    expect("2b1k4/9/9/9/2b6/9/9/9/9/3K5 b - - 0 1", "c5e3", XQ_ILLEGAL_RIVER);
    expect("2b1k4/9/9/9/2b6/9/9/9/9/3K5 b - - 0 1", "c5e7", XQ_LEGAL);
}

static void test_palace(void **state)
{
    (void)state;
    const char *fen = "3k5/9/9/9/9/9/9/9/9/3AK4 w - - 0 1";
    expect(fen, "d0e1", XQ_LEGAL);
    expect(fen, "d0c1", XQ_ILLEGAL_PALACE);
    expect(fen, "d0d1", XQ_ILLEGAL_GEOMETRY);
    const char *gen = "4k4/9/9/9/9/9/9/3K5/9/9 w - - 0 1";  /* general on d2 */
    expect(gen, "d2d3", XQ_ILLEGAL_PALACE);
    expect(gen, "d2c2", XQ_ILLEGAL_PALACE);
    expect(gen, "d2d1", XQ_LEGAL);
    expect(gen, "d2e1", XQ_ILLEGAL_GEOMETRY);
    expect("3k5/9/9/9/9/9/9/9/9/4K4 b - - 0 1", "d9c9", XQ_ILLEGAL_PALACE);
    expect("3k5/9/9/9/9/9/9/9/9/4K4 b - - 0 1", "d9d8", XQ_LEGAL);
    /* a general in its palace corner has only two steps */
    assert_int_equal(legal_count("3k5/9/9/9/9/9/9/9/9/5K3 b - - 0 1"), 2);
}

static void test_soldiers(void **state)
{
    (void)state;
    const char *fen = "3k5/9/9/9/2P6/9/P8/9/9/4K4 w - - 0 1";  /* a3, c5 */
    expect(fen, "a3a4", XQ_LEGAL);
    expect(fen, "a3b3", XQ_ILLEGAL_SOLDIER_SIDEWAYS);
    expect(fen, "a3a2", XQ_ILLEGAL_SOLDIER_BACKWARD);
    expect(fen, "c5c6", XQ_LEGAL);
    expect(fen, "c5b5", XQ_LEGAL);
    expect(fen, "c5d5", XQ_LEGAL);
    expect(fen, "c5c4", XQ_ILLEGAL_SOLDIER_BACKWARD);
    expect(fen, "c5d6", XQ_ILLEGAL_GEOMETRY);
    expect(fen, "c5c7", XQ_ILLEGAL_GEOMETRY);
    const char *black = "3k5/9/9/4p4/9/9/2p6/9/9/4K4 b - - 0 1";  /* e6, c3 */
    expect(black, "e6e5", XQ_LEGAL);
    expect(black, "e6d6", XQ_ILLEGAL_SOLDIER_SIDEWAYS);
    expect(black, "e6e7", XQ_ILLEGAL_SOLDIER_BACKWARD);
    expect(black, "c3b3", XQ_LEGAL);
    expect(black, "c3c2", XQ_LEGAL);
    /* a soldier on the last rank still moves sideways */
    expect("3k4P/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "i9h9", XQ_LEGAL);
    /* soldiers attack forward and sideways (after the river), never backward */
    xq_pos pos;
    load(&pos, "9/3kP4/9/9/9/9/9/9/9/4K4 b - - 0 1");
    assert_true(xq_in_check(&pos));
    load(&pos, "3kP4/9/9/9/9/9/9/9/9/5K3 b - - 0 1");
    assert_true(xq_in_check(&pos));
    load(&pos, "3P5/3k5/9/9/9/9/9/9/9/5K3 b - - 0 1");
    assert_false(xq_in_check(&pos));
}

static void test_basic_verdicts(void **state)
{
    (void)state;
    xq_pos pos;
    xq_pos_start(&pos);
    assert_int_equal(xq_move_check(&pos, mv("h2e2")), XQ_LEGAL);
    assert_int_equal(xq_move_check(&pos, mv("e4e5")), XQ_ILLEGAL_NO_PIECE);
    assert_int_equal(xq_move_check(&pos, mv("h7e7")), XQ_ILLEGAL_NOT_YOUR_PIECE);
    assert_int_equal(xq_move_check(&pos, mv("a0a3")), XQ_ILLEGAL_OWN_CAPTURE);
    assert_int_equal(xq_move_check(&pos, mv("a0a2")), XQ_LEGAL);
    assert_int_equal(xq_move_check(&pos, mv("i0i4")), XQ_ILLEGAL_PATH_BLOCKED);
    assert_int_equal(xq_move_check(&pos, mv("h2h9")), XQ_LEGAL);  /* cannon takes horse */
    assert_int_equal(xq_move_check(&pos, mv("h2h7")), XQ_ILLEGAL_CANNON_SCREEN);
    assert_int_equal(xq_move_check(&pos, XQ_MOVE_NONE), XQ_ILLEGAL_NULL);
    assert_int_equal(xq_move_check(&pos, xq_move_make(100, 4)), XQ_ILLEGAL_OFF_BOARD);
    for (int v = XQ_LEGAL; v <= XQ_ILLEGAL_CHECK_NOT_MET; v++)
        assert_true(strlen(xq_verdict_text((enum xq_verdict)v)) > 0);
    /* out of check versus into check */
    expect("3k5/9/9/9/9/9/9/9/3r5/4K4 w - - 0 1", "e0d0", XQ_ILLEGAL_SELF_CHECK);
    const char *checked = "3k5/9/9/9/9/9/P8/9/4r4/4K4 w - - 0 1";
    expect(checked, "a3a4", XQ_ILLEGAL_CHECK_NOT_MET);
    expect(checked, "e0d0", XQ_ILLEGAL_FLYING_GENERAL);
    expect(checked, "e0f0", XQ_LEGAL);
    expect(checked, "e0e1", XQ_LEGAL);
}

static void test_double_check(void **state)
{
    (void)state;
    /* chariot on e5 and cannon on e2 (screened by the chariot) both check e9;
     * interposing blocks the chariot and gives the cannon a second screen */
    const char *fen = "4k4/9/2n6/9/4R4/9/9/4C4/9/3K5 b - - 0 1";
    xq_pos pos;
    load(&pos, fen);
    assert_true(xq_in_check(&pos));
    assert_int_equal(legal_count(fen), 3);
    expect(fen, "c7e8", XQ_LEGAL);
    expect(fen, "c7e6", XQ_LEGAL);
    expect(fen, "e9f9", XQ_LEGAL);
    expect(fen, "e9e8", XQ_ILLEGAL_CHECK_NOT_MET);
    expect(fen, "e9d9", XQ_ILLEGAL_FLYING_GENERAL);
    expect(fen, "c7d5", XQ_ILLEGAL_CHECK_NOT_MET);
    /* the position Sjaak II miscounts (1339089) */
    load(&pos, POS2_FEN);
    assert_true(xq_perft(&pos, 4) == UINT64_C(1339047));
}

static void test_mate_and_stalemate(void **state)
{
    (void)state;
    xq_pos pos;
    load(&pos, "R2k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1");
    assert_true(xq_in_check(&pos));
    assert_true(xq_is_checkmate(&pos));
    assert_false(xq_is_stalemate(&pos));
    assert_false(xq_has_legal_move(&pos));

    /* no move and no check: a loss too (Art. 7.1b) */
    load(&pos, "3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1");
    assert_false(xq_in_check(&pos));
    assert_false(xq_is_checkmate(&pos));
    assert_true(xq_is_stalemate(&pos));

    /* mate given by the face-off: Red's general covers the e file */
    load(&pos, "3k5/9/3R5/9/9/9/9/9/9/4K4 b - - 0 1");
    assert_true(xq_is_checkmate(&pos));

    xq_pos_start(&pos);
    assert_false(xq_is_checkmate(&pos));
    assert_false(xq_is_stalemate(&pos));
    assert_true(xq_has_legal_move(&pos));
}

static void test_make_unmake_counters(void **state)
{
    (void)state;
    xq_pos pos, copy;
    xq_undo u1, u2, u3;
    xq_pos_start(&pos);
    copy = pos;
    uint64_t k0 = xq_key(&pos);
    xq_make(&pos, mv("h2e2"), &u1);
    assert_int_equal(pos.side, XQ_BLACK);
    assert_int_equal(pos.halfmove, 1);
    assert_int_equal(pos.fullmove, 1);
    assert_true(xq_key(&pos) != k0);
    xq_make(&pos, mv("h7e7"), &u2);
    assert_int_equal(pos.fullmove, 2);
    xq_make(&pos, mv("e2e6"), &u3);  /* the cannon takes e6 over its own soldier */
    assert_int_equal(pos.halfmove, 0);
    assert_int_equal(pos.count[XQ_BLACK], 15);
    xq_unmake(&pos, mv("e2e6"), &u3);
    xq_unmake(&pos, mv("h7e7"), &u2);
    xq_unmake(&pos, mv("h2e2"), &u1);
    assert_memory_equal(&pos, &copy, sizeof pos);

    /* a capture resets the clock and is undone exactly */
    load(&pos, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 7 3");
    copy = pos;
    assert_int_equal(xq_move_check(&pos, mv("b2b9")), XQ_LEGAL);
    xq_make(&pos, mv("b2b9"), &u1);
    assert_int_equal(pos.halfmove, 0);
    assert_int_equal(pos.count[XQ_BLACK], 15);
    assert_int_equal(xq_piece_at(&pos, sq("b9")), XQ_PIECE(XQ_CANNON, XQ_RED));
    assert_true(xq_key(&pos) == xq_key_compute(&pos));
    xq_unmake(&pos, mv("b2b9"), &u1);
    assert_memory_equal(&pos, &copy, sizeof pos);
}

/* ---- perft ---- */

struct perft_case {
    const char *fen;
    int depth;
    uint64_t nodes;
};

static void test_perft(void **state)
{
    (void)state;
    /* counts from fixtures/perft/xiangqi.epd (wukong, fairy-stockfish) */
    static const struct perft_case cases[] = {
        { START_FEN, 1, 44 },      { START_FEN, 2, 1920 },   { START_FEN, 3, 79666 },
        { START_FEN, 4, 3290240 }, { POS2_FEN, 1, 38 },      { POS2_FEN, 2, 1128 },
        { POS2_FEN, 3, 43929 },    { POS3_FEN, 1, 49 },      { POS3_FEN, 2, 2265 },
        { POS3_FEN, 3, 100326 },   { POS4_FEN, 1, 13 },      { POS4_FEN, 2, 272 },
        { POS4_FEN, 3, 3707 },     { POS4_FEN, 4, 92741 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        xq_pos pos, copy;
        load(&pos, cases[i].fen);
        copy = pos;
        uint64_t n = xq_perft(&pos, cases[i].depth);
        if (n != cases[i].nodes)
            fail_msg("perft(%d) of %s: want %llu, got %llu", cases[i].depth, cases[i].fen,
                     (unsigned long long)cases[i].nodes, (unsigned long long)n);
        assert_memory_equal(&pos, &copy, sizeof pos);
    }
    xq_pos pos;
    xq_pos_start(&pos);
    assert_true(xq_perft(&pos, 0) == 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_start_position),
        cmocka_unit_test(test_fen_round_trips),
        cmocka_unit_test(test_fen_dialects),
        cmocka_unit_test(test_fen_errors),
        cmocka_unit_test(test_fen_never_crashes),
        cmocka_unit_test(test_move_encoding),
        cmocka_unit_test(test_basic_verdicts),
        cmocka_unit_test(test_flying_general),
        cmocka_unit_test(test_cannon_screens),
        cmocka_unit_test(test_horse_legs),
        cmocka_unit_test(test_elephants),
        cmocka_unit_test(test_palace),
        cmocka_unit_test(test_soldiers),
        cmocka_unit_test(test_double_check),
        cmocka_unit_test(test_mate_and_stalemate),
        cmocka_unit_test(test_make_unmake_counters),
        cmocka_unit_test(test_random_play),
        cmocka_unit_test(test_perft),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
