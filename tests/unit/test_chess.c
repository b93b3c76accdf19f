/* test_chess.c: unit tests for the chess rules core (src/core/chess*.c):
 * FEN in/out and its error messages, make/unmake and Zobrist keys, the
 * en passant key rule, pins, checks, castling, promotion, mate, perft. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/chess.h"
#include "core/prng.h"

#define START_FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
#define KIWIPETE "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

static void load(chess_pos *pos, const char *fen)
{
    char err[128];
    bool ok = chess_pos_from_fen(pos, fen, err, sizeof err);
    if (!ok)
        fail_msg("FEN '%s' refused: %s", fen, err);
}

static int sq_of(const char *name)
{
    return (name[1] - '1') * 8 + (name[0] - 'a');
}

/* Find the legal move spelled in UCI, or fail the test. */
static chess_move find_uci(const chess_pos *pos, const char *uci)
{
    chess_movelist list;
    chess_gen_legal(pos, &list);
    for (int i = 0; i < list.count; i++) {
        char buf[6];
        chess_move_to_uci(list.moves[i], pos, buf);
        if (strcmp(buf, uci) == 0)
            return list.moves[i];
    }
    fail_msg("move %s is not legal here", uci);
    return CHESS_MOVE_NONE;
}

static bool has_uci(const chess_pos *pos, const char *uci)
{
    chess_movelist list;
    chess_gen_legal(pos, &list);
    for (int i = 0; i < list.count; i++) {
        char buf[6];
        chess_move_to_uci(list.moves[i], pos, buf);
        if (strcmp(buf, uci) == 0)
            return true;
    }
    return false;
}

static void play(chess_pos *pos, const char *moves)
{
    char buf[8];
    const char *p = moves;
    while (*p) {
        int n = 0;
        while (*p == ' ')
            p++;
        while (*p && *p != ' ' && n < 7)
            buf[n++] = *p++;
        buf[n] = '\0';
        if (n) {
            chess_undo undo;
            chess_make(pos, find_uci(pos, buf), &undo);
        }
    }
}

/* ---- FEN ---- */

static void test_fen_round_trip(void **state)
{
    static const char *const fens[] = {
        START_FEN,
        KIWIPETE,
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b Kq e3 0 3",
        "4k3/8/8/8/8/8/8/4K3 b - - 99 123456",
        /* Chess960, Shredder-FEN */
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
        "1r2k1r1/8/8/8/8/8/8/R4KR1 w GAgb - 0 1",
        "qrkr4/pppppppp/8/8/8/8/PPPPPPPP/QRKR4 w Db - 0 1",
    };
    (void)state;
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        chess_pos pos;
        char out[CHESS_FEN_BUFSIZE];
        load(&pos, fens[i]);
        chess_pos_to_fen(&pos, out, sizeof out);
        assert_string_equal(out, fens[i]);
    }
}

static void test_fen_variants(void **state)
{
    chess_pos pos;
    char out[CHESS_FEN_BUFSIZE];
    (void)state;

    /* the clocks may be left out */
    load(&pos, "4k3/8/8/8/8/8/8/4K3 w - -");
    chess_pos_to_fen(&pos, out, sizeof out);
    assert_string_equal(out, "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    load(&pos, "4k3/8/8/8/8/8/8/4K3 b - - 7");
    chess_pos_to_fen(&pos, out, sizeof out);
    assert_string_equal(out, "4k3/8/8/8/8/8/8/4K3 b - - 7 1");

    /* X-FEN KQkq in a Chess960 position means the outermost rooks */
    load(&pos, "1r3kr1/8/8/8/8/8/8/R4KR1 w KQkq - 0 1");
    assert_true(pos.chess960);
    assert_int_equal(pos.castle_rook[CHESS_CASTLE_INDEX(CHESS_WHITE, CHESS_KINGSIDE)],
                     sq_of("g1"));
    assert_int_equal(pos.castle_rook[CHESS_CASTLE_INDEX(CHESS_BLACK, CHESS_QUEENSIDE)],
                     sq_of("b8"));
    chess_pos_to_fen(&pos, out, sizeof out);
    assert_string_equal(out, "1r3kr1/8/8/8/8/8/8/R4KR1 w GAgb - 0 1");
    /* ...also with the king on the e-file, as lichess writes them */
    load(&pos, "4k3/8/8/8/8/8/8/1R2KR2 w KQ - 0 1");
    assert_true(pos.chess960);
    chess_pos_to_fen(&pos, out, sizeof out);
    assert_string_equal(out, "4k3/8/8/8/8/8/8/1R2KR2 w FB - 0 1");

    /* the standard reading refuses what only Chess960 allows */
    char err[128];
    assert_false(chess_pos_from_fen_mode(&pos, "4k3/8/8/8/8/8/8/1R2KR2 w KQ - 0 1",
                                         CHESS_FEN_STANDARD, err, sizeof err));
    assert_non_null(strstr(err, "castling right 'K' but no rook on h1"));
    assert_false(chess_pos_from_fen_mode(&pos, "4k3/8/8/8/8/8/8/R4KR1 w G - 0 1",
                                         CHESS_FEN_STANDARD, err, sizeof err));
    assert_non_null(strstr(err, "castling right 'G' is only possible in Chess960"));
    assert_false(chess_pos_from_fen_mode(&pos, "4k3/8/8/8/8/8/8/R4KR1 w Q - 0 1",
                                         CHESS_FEN_STANDARD, err, sizeof err));
    assert_non_null(strstr(err, "castling right 'Q' but the white king is not on e1"));
    assert_true(chess_pos_from_fen_mode(&pos, "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1",
                                        CHESS_FEN_STANDARD, err, sizeof err));
    assert_false(pos.chess960);
    chess_pos_to_fen(&pos, out, sizeof out);
    assert_string_equal(out, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    /* and the Chess960 reading flags even a position without rights */
    assert_true(chess_pos_from_fen_mode(&pos, "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
                                        CHESS_FEN_CHESS960, err, sizeof err));
    assert_true(pos.chess960);

    /* Shredder letters for a standard set-up also mark the game Chess960 */
    load(&pos, "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1");
    assert_true(pos.chess960);
    load(&pos, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_false(pos.chess960);

    /* surrounding blanks and a final newline are tolerated */
    load(&pos, "  4k3/8/8/8/8/8/8/4K3  w  -  -  0  1 \n");
    chess_pos_to_fen(&pos, out, sizeof out);
    assert_string_equal(out, "4k3/8/8/8/8/8/8/4K3 w - - 0 1");

    /* a short buffer is cut, never overrun */
    char small[10];
    memset(small, 'x', sizeof small);
    chess_pos_to_fen(&pos, small, 8);
    assert_string_equal(small, "4k3/8/8");
    assert_int_equal(small[8], 'x');
}

struct fen_error {
    const char *fen;
    const char *message;  /* expected substring of the error */
};

static void test_fen_errors(void **state)
{
    static const struct fen_error cases[] = {
        { "rnbqkbnrx/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
          "field 1, column 9: bad piece letter 'x'" },
        { "rnbqkbnr/ppp?pppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
          "field 1, column 13: bad piece letter '?'" },
        { "rnbqkbnr/pppppppp/8/8/8/8P/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 3 has 9 squares" },
        { "rnbqkbnr/pppppppp/8/8/8/7/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 3 has 7 squares" },
        { "rnbqkbnr/pppppppp/8/8/8//PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 3 has 0 squares" },
        { "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
          "column 19: bad empty-square count '9'" },
        { "rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
          "two empty-square counts in a row" },
        { "8/8/8/8/8/8/K6k w - - 0 1", "field 1 has 7 ranks, expected 8" },
        { "8/8/8/8/8/8/8/K6k/8 w - - 0 1", "more than 8 ranks" },
        { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w - - 0 1",
          "expected exactly one white king, found 2" },
        { "8/8/8/8/8/8/8/K7 w - - 0 1", "expected exactly one black king, found 0" },
        { "4k3/8/8/8/8/8/8/K3P3 w - - 0 1", "pawn on the first or eighth rank (e1)" },
        { "3pk3/8/8/8/8/8/8/K7 w - - 0 1", "pawn on the first or eighth rank (d8)" },
        { "4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", "black has 9 pawns" },
        { "4k3/8/8/8/8/8/QQQQQQQQ/QQQQQQQK w - - 0 1", "white has 14 promoted pieces but only 8 pawns missing" },
        { "4k3/8/8/8/8/8/8/4K3 x - - 0 1", "side to move must be 'w' or 'b', not 'x'" },
        { "4k3/8/8/8/8/8/8/4K3 white - - 0 1", "side to move must be 'w' or 'b'" },
        { "r3k2r/8/8/8/8/8/8/R3K3 w KQkq - 0 1", "castling right 'K' but no rook on h1" },
        { "r3k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "castling right 'k' but no rook on h8" },
        { "r3k2r/8/8/8/8/8/4K3/R6R w K - 0 1",
          "castling right 'K' but the white king is not on the first rank" },
        { "r3k2r/8/8/8/8/8/8/R3K2R w KX - 0 1", "field 3, column 28: bad castling letter 'X'" },
        { "r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1", "castling right 'K' repeats one already given" },
        { "r3k2r/8/8/8/8/8/8/R3K2R w KH - 0 1", "castling right 'H' repeats one already given" },
        { "r3k2r/8/8/8/8/8/8/R3K2R w G - 0 1", "castling right 'G' but no white rook on g1" },
        { "r3k2r/8/8/8/8/8/8/R3K2R w E - 0 1", "castling right 'E' names the king's file" },
        { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1",
          "en passant square e3 impossible: no white pawn on e4 that just moved two squares" },
        { "rnbqkbnr/pppp1ppp/8/8/4p3/8/PPPPPPPP/RNBQKBNR b KQkq e6 0 1",
          "en passant square e6 impossible: with black to move it must be on the third rank" },
        { "4k3/8/8/8/4P3/8/4P3/4K3 b - e3 0 1", "en passant square e3 impossible" },
        { "4k3/8/8/8/4P3/8/4P3/4K3 b - e3 0 1", "leaves e2 and e3 empty" },
        { "4k3/8/8/8/8/8/8/4K3 w - e9 0 1", "field 4: bad en passant square 'e9'" },
        { "4k3/8/8/8/8/8/8/4K3 w - - x 1", "field 5: bad halfmove clock 'x'" },
        { "4k3/8/8/8/8/8/8/4K3 w - - -1 1", "field 5: bad halfmove clock '-1'" },
        { "4k3/8/8/8/8/8/8/4K3 w - - 1234567 1", "field 5: bad halfmove clock" },
        { "4k3/8/8/8/8/8/8/4K3 w - - 0 0", "field 6: bad fullmove number '0'" },
        { "4k3/8/8/8/8/8/8/4K3 w - - 0 one", "field 6: bad fullmove number 'one'" },
        { "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", "the side not to move (black) is in check" },
        { "4k3/8/8/8/8/8/4r3/4K3 b - - 0 1", "the side not to move (white) is in check" },
        { "4k3/8/8/1b6/8/3n4/8/r3K2r w - - 0 1", "in check from 3 pieces" },
        { "4k3/8/8/8/8/8/8/4K3", "missing field 2 (side to move)" },
        { "4k3/8/8/8/8/8/8/4K3 w", "missing field 3 (castling rights)" },
        { "4k3/8/8/8/8/8/8/4K3 w -", "missing field 4 (en passant square)" },
        { "4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", "column 31: extra text after the 6 FEN fields" },
        { "", "empty FEN" },
        { "   \t ", "empty FEN" },
        { "4k3/8/8/8/8/8/8/4K3 w - - 0\x01 1", "column 28: unexpected byte 0x01" },
        { "4k3/8/8/8/8/8/8/4K3 w - - 0 1\xc3\xa9", "unexpected byte 0xc3" },
        { "4k3/8/8/8\n/8/8/8/4K3 w - - 0 1", "line break inside the FEN" },
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        chess_pos pos;
        char err[160] = "";
        bool ok = chess_pos_from_fen(&pos, cases[i].fen, err, sizeof err);
        if (ok)
            fail_msg("FEN '%s' accepted, expected \"%s\"", cases[i].fen, cases[i].message);
        if (!strstr(err, cases[i].message))
            fail_msg("FEN '%s': got \"%s\", expected \"%s\"", cases[i].fen, err,
                     cases[i].message);
        assert_true(strchr(err, '\n') == NULL);
    }
}

static void test_fen_hostile_input(void **state)
{
    chess_pos pos;
    char err[128];
    char *big = malloc(100000);
    uint64_t rng = PRNG_SEED;
    (void)state;

    assert_non_null(big);
    assert_false(chess_pos_from_fen(&pos, NULL, err, sizeof err));
    assert_non_null(strstr(err, "no FEN given"));

    /* very long input is refused after a bounded look */
    memset(big, '8', 99999);
    big[99999] = '\0';
    assert_false(chess_pos_from_fen(&pos, big, err, sizeof err));
    assert_non_null(strstr(err, "longer than 255 characters"));

    /* a tiny or absent error buffer is fine */
    assert_false(chess_pos_from_fen(&pos, "x", err, 4));
    assert_int_equal(strlen(err), 3);
    assert_false(chess_pos_from_fen(&pos, "x", NULL, 0));

    /* random mutations of real FENs: never crash; anything accepted must
     * write a FEN that reads back to the same position */
    static const char alphabet[] = "pnbrqkPNBRQK12345678/ wb-KQkqAHah0e3\t\x01\xff";
    for (int round = 0; round < 20000; round++) {
        int len;
        if (round % 2) {
            const char *base = round % 4 == 1 ? START_FEN : KIWIPETE;
            len = (int)strlen(base);
            memcpy(big, base, (size_t)len + 1);
            for (int k = 0; k < 1 + round % 3; k++)
                big[prng_next(&rng) % (uint64_t)len] =
                    alphabet[prng_next(&rng) % (sizeof alphabet - 1)];
        } else {
            len = (int)(prng_next(&rng) % 300);
            for (int k = 0; k < len; k++)
                big[k] = (char)(prng_next(&rng) & 0xff ? prng_next(&rng) & 0xff : 'K');
            big[len] = '\0';
        }
        err[0] = '\0';
        if (chess_pos_from_fen(&pos, big, err, sizeof err)) {
            chess_pos again;
            char out[CHESS_FEN_BUFSIZE], out2[CHESS_FEN_BUFSIZE];
            chess_pos_to_fen(&pos, out, sizeof out);
            load(&again, out);
            chess_pos_to_fen(&again, out2, sizeof out2);
            assert_string_equal(out, out2);
            assert_true(chess_key(&pos) == chess_key(&again));
        } else {
            assert_true(err[0] != '\0');
        }
    }
    free(big);
}

/* ---- make/unmake and keys ---- */

static void check_random_play(const char *fen, int games, int plies, uint64_t *rng,
                              int *total_plies)
{
    for (int g = 0; g < games; g++) {
        chess_pos pos;
        load(&pos, fen);
        for (int ply = 0; ply < plies; ply++) {
            chess_movelist list;
            chess_pos before;
            chess_undo undo;
            int n = chess_gen_legal(&pos, &list);
            if (n == 0)
                break;
            memcpy(&before, &pos, sizeof pos);

            /* every move of the list undoes cleanly and keys match */
            for (int i = 0; i < n; i++) {
                chess_make(&pos, list.moves[i], &undo);
                assert_true(chess_key(&pos) == chess_key_compute(&pos));
                /* the mover never leaves its own king attacked */
                assert_false(chess_square_attacked(&pos, pos.king[pos.side ^ 1], pos.side));
                chess_unmake(&pos, list.moves[i], &undo);
                assert_memory_equal(&pos, &before, sizeof pos);
            }
            if (!chess_in_check(&pos) && prng_next(rng) % 16 == 0) {
                chess_make_null(&pos, &undo);
                assert_true(chess_key(&pos) == chess_key_compute(&pos));
                chess_unmake_null(&pos, &undo);
                assert_memory_equal(&pos, &before, sizeof pos);
            }
            chess_make(&pos, list.moves[prng_next(rng) % (uint64_t)n], &undo);
            (*total_plies)++;

            /* the position written and read back has the same key */
            char out[CHESS_FEN_BUFSIZE];
            chess_pos copy;
            chess_pos_to_fen(&pos, out, sizeof out);
            load(&copy, out);
            chess_pos_set_chess960(&copy, pos.chess960);
            assert_true(chess_key(&copy) == chess_key(&pos));
            assert_memory_equal(copy.board, pos.board, sizeof pos.board);
        }
    }
}

static void test_make_unmake_random(void **state)
{
    uint64_t rng = PRNG_SEED;
    int plies = 0;
    (void)state;
    check_random_play(START_FEN, 30, 150, &rng, &plies);
    check_random_play(KIWIPETE, 20, 100, &rng, &plies);
    check_random_play("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 10,
                      100, &rng, &plies);
    check_random_play("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 10, 100, &rng, &plies);
    check_random_play("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", 10,
                      100, &rng, &plies);
    check_random_play("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/R4KR1 w GAgb - 0 1", 10, 100, &rng,
                      &plies);
    assert_true(plies > 5000);
}

static void test_key_fixed(void **state)
{
    chess_pos a, b;
    (void)state;
    /* keys are the same on every machine (fixed seed); this pins the value */
    chess_pos_start(&a);
    assert_true(chess_key(&a) == chess_key_compute(&a));
    assert_true(chess_key(&a) == UINT64_C(0xb4d30cd15a43432d));
    /* side to move, castling and pieces all change it */
    load(&b, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    assert_true(chess_key(&a) != chess_key(&b));
    load(&b, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Qkq - 0 1");
    assert_true(chess_key(&a) != chess_key(&b));
    /* the clocks do not */
    load(&b, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 12 40");
    assert_true(chess_key(&a) == chess_key(&b));
    /* transpositions meet */
    chess_pos_start(&b);
    play(&a, "g1f3 g8f6 b1c3");
    play(&b, "b1c3 g8f6 g1f3");
    assert_true(chess_key(&a) == chess_key(&b));
}

static void test_ep_key_rule(void **state)
{
    chess_pos a, b;
    char out[CHESS_FEN_BUFSIZE];
    (void)state;

    /* 1.e4: the FEN keeps e3, but no capture is possible, so the key
     * matches the same position without an ep square */
    chess_pos_start(&a);
    play(&a, "e2e4");
    chess_pos_to_fen(&a, out, sizeof out);
    assert_string_equal(out, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    assert_false(a.ep_in_key);
    load(&b, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    assert_true(chess_key(&a) == chess_key(&b));

    /* a capture is possible: the key differs from the ep-less position */
    chess_pos_start(&a);
    play(&a, "a2a3 d7d5 a3a4 d5d4 e2e4");
    assert_true(a.ep_in_key);
    assert_true(has_uci(&a, "d4e3"));
    load(&b, "rnbqkbnr/ppp1pppp/8/8/P2pP3/8/1PPP1PPP/RNBQKBNR b KQkq e3 0 3");
    assert_true(chess_key(&a) == chess_key(&b));
    load(&b, "rnbqkbnr/ppp1pppp/8/8/P2pP3/8/1PPP1PPP/RNBQKBNR b KQkq - 0 3");
    assert_true(chess_key(&a) != chess_key(&b));
    /* ...and once the chance passes, the keys meet again */
    play(&a, "g8f6 g1f3 f6g8 f3g1");
    load(&b, "rnbqkbnr/ppp1pppp/8/8/P2pP3/8/1PPP1PPP/RNBQKBNR b KQkq - 4 5");
    assert_true(chess_key(&a) == chess_key(&b));

    /* ep that would open the rank to the king is illegal and not hashed */
    load(&a, "8/8/8/KPp4r/8/8/8/7k w - c6 0 1");
    assert_false(has_uci(&a, "b5c6"));
    assert_false(a.ep_in_key);
    load(&b, "8/8/8/KPp4r/8/8/8/7k w - - 0 1");
    assert_true(chess_key(&a) == chess_key(&b));
    load(&a, "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1");
    assert_false(has_uci(&a, "e4d3"));
    load(&b, "8/8/8/8/k2Pp2Q/8/8/3K4 b - - 0 1");
    assert_true(chess_key(&a) == chess_key(&b));
    /* the same with nothing on the rank: legal and hashed */
    load(&a, "8/8/8/8/k2Pp3/8/8/3K4 b - d3 0 1");
    assert_true(has_uci(&a, "e4d3"));
    load(&b, "8/8/8/8/k2Pp3/8/8/3K4 b - - 0 1");
    assert_true(chess_key(&a) != chess_key(&b));
}

/* ---- move generation ---- */

static void test_pins(void **state)
{
    chess_pos pos;
    chess_movelist list;
    (void)state;

    /* a pinned knight cannot move at all */
    load(&pos, "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1");
    chess_gen_legal(&pos, &list);
    for (int i = 0; i < list.count; i++)
        assert_int_not_equal(chess_move_from(list.moves[i]), sq_of("e2"));

    /* a pinned rook slides along the pin only, up to taking the pinner */
    load(&pos, "4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1");
    chess_gen_legal(&pos, &list);
    int rook_moves = 0;
    for (int i = 0; i < list.count; i++) {
        if (chess_move_from(list.moves[i]) == sq_of("e2")) {
            assert_int_equal(CHESS_FILE(chess_move_to(list.moves[i])), 4);
            rook_moves++;
        }
    }
    assert_int_equal(rook_moves, 5);
    assert_true(has_uci(&pos, "e2e7"));

    /* a diagonally pinned bishop may take its pinner but not leave the line */
    load(&pos, "4k3/8/8/b7/8/8/3B4/4K3 w - - 0 1");
    assert_true(has_uci(&pos, "d2a5"));
    assert_true(has_uci(&pos, "d2c3"));
    assert_false(has_uci(&pos, "d2e3"));

    /* a pinned pawn may push along a file pin but not capture off it */
    load(&pos, "4r2k/8/8/8/3p4/4P3/8/4K3 w - - 0 1");
    assert_true(has_uci(&pos, "e3e4"));
    assert_false(has_uci(&pos, "e3d4"));
    /* and capture its pinner along a diagonal pin */
    load(&pos, "7k/8/8/8/8/5b2/4P3/3K4 w - - 0 1");
    assert_true(has_uci(&pos, "e2f3"));
    assert_false(has_uci(&pos, "e2e3"));
}

static void test_en_passant(void **state)
{
    chess_pos pos;
    (void)state;
    /* the textbook case is generated and removes the right pawn */
    load(&pos, "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1");
    chess_move m = find_uci(&pos, "d5e6");
    assert_int_equal(chess_move_kind(m), CHESS_MOVE_EN_PASSANT);
    chess_undo undo;
    chess_make(&pos, m, &undo);
    assert_int_equal(chess_piece_at(&pos, sq_of("e5")), 0);
    assert_int_equal(chess_piece_at(&pos, sq_of("e6")), CHESS_PIECE(CHESS_PAWN, CHESS_WHITE));
    assert_int_equal(pos.halfmove, 0);
    chess_unmake(&pos, m, &undo);
    assert_int_equal(chess_piece_at(&pos, sq_of("e5")), CHESS_PIECE(CHESS_PAWN, CHESS_BLACK));

    /* exposing the king along the rank (both pawns leave it) */
    load(&pos, "8/8/8/KPp4r/8/8/8/7k w - c6 0 1");
    assert_false(has_uci(&pos, "b5c6"));
    assert_true(has_uci(&pos, "b5b6"));
    /* ep capture answers a check by the pawn that just moved */
    load(&pos, "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1");
    assert_true(chess_in_check(&pos));
    assert_true(has_uci(&pos, "e4d3"));
    /* but not a check from elsewhere */
    load(&pos, "8/8/8/8/1k1Pp2R/8/8/4K3 b - d3 0 1");
    assert_false(has_uci(&pos, "e4d3"));
    /* a diagonally pinned capturer may take en passant along the pin only */
    load(&pos, "7k/8/8/8/3pP3/8/8/B3K3 b - e3 0 1");
    assert_false(has_uci(&pos, "d4e3"));
    load(&pos, "7k/8/8/8/2Pp4/8/8/B3K3 b - c3 0 1");
    assert_true(has_uci(&pos, "d4c3"));
}

static void test_castling(void **state)
{
    chess_pos pos;
    (void)state;

    load(&pos, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_true(has_uci(&pos, "e1g1"));
    assert_true(has_uci(&pos, "e1c1"));
    /* through check: f1 attacked */
    load(&pos, "4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1");
    assert_false(has_uci(&pos, "e1g1"));
    assert_true(has_uci(&pos, "e1c1"));
    /* out of check */
    load(&pos, "4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_false(has_uci(&pos, "e1g1"));
    assert_false(has_uci(&pos, "e1c1"));
    /* into check */
    load(&pos, "4k3/8/8/8/8/8/6r1/R3K2R w KQ - 0 1");
    assert_false(has_uci(&pos, "e1g1"));
    /* b1 attacked does not matter for the long castle, b1 occupied does */
    load(&pos, "4k3/8/8/8/8/8/1r6/R3K2R w KQ - 0 1");
    assert_true(has_uci(&pos, "e1c1"));
    load(&pos, "4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1");
    assert_false(has_uci(&pos, "e1c1"));
    /* no rights, no castling */
    load(&pos, "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1");
    assert_false(has_uci(&pos, "e1g1"));
    assert_false(has_uci(&pos, "e1c1"));

    /* rights lost by moving the rook there and back, and by a capture */
    load(&pos, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&pos, "h1h2 e8d8 h2h1 d8e8");
    assert_false(has_uci(&pos, "e1g1"));
    assert_true(has_uci(&pos, "e1c1"));
    play(&pos, "a1a8");
    char out[CHESS_FEN_BUFSIZE];
    chess_pos_to_fen(&pos, out, sizeof out);
    assert_string_equal(out, "R3k2r/8/8/8/8/8/8/4K2R b - - 0 3");
    /* taking a rook on its square removes the other side's right */
    load(&pos, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&pos, "a1a8");
    chess_pos_to_fen(&pos, out, sizeof out);
    assert_string_equal(out, "R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 1");

    /* the move itself: both pieces land, both rights go */
    load(&pos, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    chess_move m = find_uci(&pos, "e1c1");
    assert_int_equal(chess_move_kind(m), CHESS_MOVE_CASTLE);
    assert_int_equal(chess_move_to(m), sq_of("c1"));
    play(&pos, "e1c1");
    chess_pos_to_fen(&pos, out, sizeof out);
    assert_string_equal(out, "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1");
}

static void test_castling_960(void **state)
{
    chess_pos pos;
    char out[CHESS_FEN_BUFSIZE], uci[6];
    (void)state;

    /* the rook on g8 watches g1, the king's destination */
    load(&pos, "1r2k1r1/8/8/8/8/8/8/R4KR1 w GAgb - 0 1");
    assert_false(has_uci(&pos, "f1g1"));
    assert_true(has_uci(&pos, "f1a1"));

    /* king on f1 castles short onto the rook's square; spelled king-takes-rook */
    load(&pos, "1r2k2r/8/8/8/8/8/8/R4KR1 w GA - 0 1");
    chess_move m = find_uci(&pos, "f1g1");
    assert_int_equal(chess_move_kind(m), CHESS_MOVE_CASTLE);
    assert_int_equal(chess_move_to(m), sq_of("g1"));
    chess_move_to_uci(m, &pos, uci);
    assert_string_equal(uci, "f1g1");
    play(&pos, "f1g1");
    chess_pos_to_fen(&pos, out, sizeof out);
    assert_string_equal(out, "1r2k2r/8/8/8/8/8/8/R4RK1 b - - 1 1");

    /* long castling: king f1 to c1, rook a1 to d1 */
    load(&pos, "1r2k2r/8/8/8/8/8/8/R4KR1 w GA - 0 1");
    play(&pos, "f1a1");
    chess_pos_to_fen(&pos, out, sizeof out);
    assert_string_equal(out, "1r2k2r/8/8/8/8/8/8/2KR2R1 b - - 1 1");
    /* king g1 with the rook on h1 castles without moving the king */
    load(&pos, "4k3/8/8/8/8/8/8/6KR w H - 0 1");
    chess_move keep = find_uci(&pos, "g1h1");
    assert_int_equal(chess_move_from(keep), chess_move_to(keep));
    play(&pos, "g1h1");
    chess_pos_to_fen(&pos, out, sizeof out);
    assert_string_equal(out, "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");

    /* a castling rook that shields the king's destination from a rook on
     * the far side: castling would expose the king, so it is illegal */
    load(&pos, "4k3/8/8/8/8/8/8/rRK5 w B - 0 1");
    assert_false(has_uci(&pos, "c1b1"));
    load(&pos, "4k3/8/8/8/8/8/8/nRK5 w B - 0 1");
    assert_true(has_uci(&pos, "c1b1"));

    /* the same castling in a standard position spells e1g1 */
    load(&pos, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    chess_move_to_uci(find_uci(&pos, "e1g1"), &pos, uci);
    assert_string_equal(uci, "e1g1");
    chess_pos_set_chess960(&pos, true);
    assert_true(has_uci(&pos, "e1h1"));
    assert_false(has_uci(&pos, "e1g1"));
}

static void test_promotion(void **state)
{
    chess_pos pos;
    chess_movelist list;
    char out[CHESS_FEN_BUFSIZE];
    (void)state;

    load(&pos, "1n5k/P7/8/8/8/8/8/K7 w - - 0 1");
    assert_int_equal(chess_gen_legal(&pos, &list), 3 + 8);
    assert_true(has_uci(&pos, "a7a8q"));
    assert_true(has_uci(&pos, "a7a8n"));
    assert_true(has_uci(&pos, "a7b8r"));
    assert_true(has_uci(&pos, "a7b8b"));
    assert_false(has_uci(&pos, "a7a8"));
    chess_move m = find_uci(&pos, "a7b8n");
    assert_int_equal(chess_move_promotion(m), CHESS_KNIGHT);
    assert_int_equal(chess_move_promotion(find_uci(&pos, "a7a8q")), CHESS_QUEEN);
    play(&pos, "a7b8n");
    chess_pos_to_fen(&pos, out, sizeof out);
    assert_string_equal(out, "1N5k/8/8/8/8/8/8/K7 b - - 0 1");
    /* black promotes downwards */
    load(&pos, "7k/8/8/8/8/8/p7/7K b - - 0 1");
    play(&pos, "a2a1r");
    assert_int_equal(chess_piece_at(&pos, sq_of("a1")), CHESS_PIECE(CHESS_ROOK, CHESS_BLACK));
}


static void test_checks_and_mates(void **state)
{
    chess_pos pos;
    chess_movelist list;
    (void)state;

    /* double check (rook along the rank, knight): only the king moves */
    load(&pos, "7k/8/8/8/8/5n2/3R4/r3K3 w - - 0 1");
    assert_true(chess_in_check(&pos));
    assert_int_equal(chess_gen_legal(&pos, &list), 2);
    for (int i = 0; i < list.count; i++)
        assert_int_equal(chess_move_from(list.moves[i]), sq_of("e1"));
    assert_false(has_uci(&pos, "e1f1")); /* still on the rook's rank behind the king */

    /* single check: block, capture or step aside */
    load(&pos, "7k/8/8/8/8/8/3R4/r3K3 w - - 0 1");
    assert_true(has_uci(&pos, "d2d1"));
    assert_false(has_uci(&pos, "d2d3"));

    /* fool's mate */
    load(&pos, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    assert_true(chess_is_checkmate(&pos));
    assert_false(chess_is_stalemate(&pos));
    /* smothered mate */
    load(&pos, "6rk/5Npp/8/8/8/8/8/7K b - - 0 1");
    assert_true(chess_is_checkmate(&pos));
    /* a check that can be blocked is not mate; one that cannot is */
    load(&pos, "rnbqkbnr/ppppp1pp/5p2/7Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2");
    assert_true(chess_in_check(&pos));
    assert_false(chess_is_checkmate(&pos));
    assert_true(has_uci(&pos, "g7g6"));
    load(&pos, "rnbqkbnr/ppppp2p/5p2/6pQ/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 3");
    assert_true(chess_is_checkmate(&pos));
    /* stalemate */
    load(&pos, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert_true(chess_is_stalemate(&pos));
    assert_false(chess_is_checkmate(&pos));
    assert_int_equal(chess_gen_legal(&pos, &list), 0);
    chess_pos_start(&pos);
    assert_false(chess_is_stalemate(&pos));
    assert_false(chess_is_checkmate(&pos));
}

static void test_attacks(void **state)
{
    chess_pos pos;
    (void)state;
    chess_pos_start(&pos);
    assert_true(chess_attackers(&pos, sq_of("f3"), CHESS_WHITE)
                == ((UINT64_C(1) << sq_of("e2")) | (UINT64_C(1) << sq_of("g2"))
                    | (UINT64_C(1) << sq_of("g1"))));
    assert_true(chess_attackers(&pos, sq_of("e4"), CHESS_WHITE) == 0);
    assert_true(chess_square_attacked(&pos, sq_of("f6"), CHESS_BLACK));
    assert_false(chess_square_attacked(&pos, sq_of("f6"), CHESS_WHITE));
    assert_false(chess_in_check(&pos));

    /* sliders stop at the first blocker, both colours count as blockers */
    load(&pos, "4k3/8/8/8/1q6/8/3P4/4K2R w - - 0 1");
    assert_false(chess_square_attacked(&pos, sq_of("e1"), CHESS_BLACK));
    assert_true(chess_square_attacked(&pos, sq_of("d2"), CHESS_BLACK));
    assert_true(chess_attackers(&pos, sq_of("h8"), CHESS_WHITE) == UINT64_C(1) << sq_of("h1"));
    assert_int_equal(chess_piece_at(&pos, sq_of("b4")), CHESS_PIECE(CHESS_QUEEN, CHESS_BLACK));
    assert_int_equal(chess_piece_at(&pos, sq_of("b5")), 0);
    assert_int_equal(chess_piece_at(&pos, 64), 0);
}

static void test_is_legal_and_uci(void **state)
{
    chess_pos pos;
    char uci[6];
    (void)state;
    chess_pos_start(&pos);
    chess_move m = chess_move_make(sq_of("e2"), sq_of("e4"), CHESS_MOVE_DOUBLE_PUSH);
    assert_true(chess_is_legal(&pos, m));
    assert_int_equal(chess_move_from(m), sq_of("e2"));
    assert_int_equal(chess_move_to(m), sq_of("e4"));
    assert_int_equal(chess_move_kind(m), CHESS_MOVE_DOUBLE_PUSH);
    assert_int_equal(chess_move_promotion(m), 0);
    assert_false(chess_is_legal(&pos, chess_move_make(sq_of("e2"), sq_of("e4"),
                                                      CHESS_MOVE_NORMAL)));
    assert_false(chess_is_legal(&pos, chess_move_make(sq_of("e2"), sq_of("e5"),
                                                      CHESS_MOVE_NORMAL)));
    assert_false(chess_is_legal(&pos, CHESS_MOVE_NONE));
    chess_move_to_uci(m, &pos, uci);
    assert_string_equal(uci, "e2e4");
    chess_move_to_uci(CHESS_MOVE_NONE, &pos, uci);
    assert_string_equal(uci, "0000");
    chess_move_to_uci(chess_move_make(sq_of("h2"), sq_of("g1"), CHESS_MOVE_PROMO_KNIGHT),
                      &pos, uci);
    assert_string_equal(uci, "h2g1n");
}

/* ---- perft ---- */

struct perft_case {
    const char *fen;
    uint64_t counts[6];  /* depth 1.., 0 ends */
};

/* ---- move queries (chess_query.c) against make and the generator ---- */

/* Pseudo-legal moves by brute force: every piece of the side to move, every square its
 * type attacks or (pawn) pushes to, promotions, en passant, castling by the king's two
 * squares; a move is pseudo-legal when it is in the legal list or it is a plain move of
 * our piece onto a square not holding our own piece (castling only when legal). */
static void check_queries_at(const chess_pos *pos, int *checked)
{
    chess_movelist legal;
    chess_gen_legal(pos, &legal);
    int us = chess_pos_side(pos);
    uint64_t ours = chess_color_pieces(pos, us), occ = chess_occupied(pos);
    for (int from = 0; from < 64; from++) {
        if (!(ours >> from & 1))
            continue;
        int pt = CHESS_PIECE_TYPE(chess_piece_at(pos, from));
        uint64_t targets = chess_piece_attacks(pt, us, from, occ) & ~ours;
        if (pt == CHESS_PAWN) {
            int ep = chess_ep_square(pos);
            targets &= chess_color_pieces(pos, us ^ 1) | (ep >= 0 ? UINT64_C(1) << ep : 0);
            int one = from + (us == CHESS_WHITE ? 8 : -8);
            if (one >= 0 && one < 64 && !(occ >> one & 1))
                targets |= UINT64_C(1) << one;
        }
        for (int to = 0; to < 64; to++) {
            if (!(targets >> to & 1))
                continue;
            int kind = CHESS_MOVE_NORMAL;
            if (pt == CHESS_PAWN && to == chess_ep_square(pos) && !(occ >> to & 1))
                kind = CHESS_MOVE_EN_PASSANT;
            if (pt == CHESS_PAWN && (CHESS_RANK(to) == 0 || CHESS_RANK(to) == 7))
                kind = CHESS_MOVE_PROMO_QUEEN;
            chess_move m = chess_move_make(from, to, kind);
            bool in_list = false;
            for (int i = 0; i < legal.count; i++)
                in_list |= legal.moves[i] == m;
            assert_int_equal(chess_move_legal(pos, m), in_list);
            assert_int_equal(chess_king_attackers_after(pos, m) == 0, in_list);
            if (!chess_in_check(pos))
                assert_int_equal(chess_move_legal_unchecked(pos, m), in_list);
            /* both questions in one: -1 for the illegal, else the check state */
            int settled = in_list ? chess_move_check_state(pos, m) : -1;
            assert_int_equal(chess_move_settle(pos, m, false), settled);
            if (!chess_in_check(pos))
                assert_int_equal(chess_move_settle(pos, m, true), settled);
            (*checked)++;
        }
    }
    for (int i = 0; i < legal.count; i++) {
        chess_move m = legal.moves[i];
        chess_pos after = *pos;
        chess_undo undo;
        chess_make(&after, m, &undo);
        bool check = chess_in_check(&after);
        int expected = !check ? CHESS_NO_CHECK
                       : chess_is_checkmate(&after) ? CHESS_CHECKMATE : CHESS_CHECK;
        assert_int_equal(chess_gives_check(pos, m), check);
        assert_int_equal(chess_move_check_state(pos, m), expected);
        assert_int_equal(chess_move_settle(pos, m, false), expected);
        if (chess_move_kind(m) == CHESS_MOVE_CASTLE)
            assert_true(chess_move_legal(pos, m));
        (*checked)++;
    }
}

static void test_move_queries(void **state)
{
    (void)state;
    static const char *const fens[] = {
        START_FEN, KIWIPETE,
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "8/8/8/2k5/3Pp3/8/8/4K2Q b - d3 0 1",        /* en passant into a pin */
        "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",            /* castling with check */
        "6k1/5ppp/8/8/8/8/8/R3K3 w Q - 0 1",           /* back-rank mates */
        "bnrbkrqn/pppppppp/8/8/8/8/PPPPPPPP/BNRBKRQN w FCfc - 0 1",
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",               /* stalemate */
        "k7/8/1K6/8/8/8/6b1/7N w - - 0 1",              /* a knight pinned: not stalemate, the king moves */
        "7k/8/8/8/8/1q6/2N5/K2r4 w - - 0 1",            /* only pinned or blocked men */
        "8/8/8/8/p7/P7/k1K5/8 w - - 0 1",               /* pawns blocked */
    };
    uint64_t rng = 12345;
    int checked = 0;
    for (size_t f = 0; f < sizeof fens / sizeof fens[0]; f++) {
        for (int game = 0; game < 12; game++) {
            chess_pos pos;
            load(&pos, fens[f]);
            for (int ply = 0; ply < 80; ply++) {
                check_queries_at(&pos, &checked);
                /* the end-state questions stop at the first legal move: the full
                 * generator says the same */
                chess_movelist list;
                int n = chess_gen_legal(&pos, &list);
                bool in_check = chess_in_check(&pos);
                assert_int_equal(chess_end_state(&pos), n ? CHESS_END_NONE
                                                        : in_check ? CHESS_END_CHECKMATE
                                                                   : CHESS_END_STALEMATE);
                assert_int_equal(chess_is_stalemate(&pos), !n && !in_check);
                assert_int_equal(chess_is_checkmate(&pos), !n && in_check);
                if (n == 0)
                    break;
                chess_undo undo;
                chess_make(&pos, list.moves[prng_next(&rng) % (uint64_t)n], &undo);
            }
        }
    }
    assert_true(checked > 100000);
}

static void test_perft_small(void **state)
{
    /* counts from the chessprogramming wiki "Perft Results", checked with
     * Stockfish 15.1; Chess960 ones from Stockfish with UCI_Chess960 */
    static const struct perft_case cases[] = {
        { START_FEN, { 20, 400, 8902, 197281 } },
        { KIWIPETE, { 48, 2039, 97862 } },
        { "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", { 14, 191, 2812, 43238, 674624 } },
        { "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
          { 6, 264, 9467, 422333 } },
        { "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
          { 6, 264, 9467, 422333 } },
        { "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", { 44, 1486, 62379 } },
        { "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
          { 46, 2079, 89890 } },
        { "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
          { 21, 528, 12189, 326672 } },
        { "1r2k1r1/8/8/8/8/8/8/R4KR1 w GAgb - 0 1", { 23, 491, 11054, 249426 } },
        { "4k3/8/8/8/8/8/8/rRK5 w B - 0 1", { 5, 57, 821, 12489 } },
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        chess_pos pos, before;
        load(&pos, cases[i].fen);
        memcpy(&before, &pos, sizeof pos);
        for (int d = 0; d < 6 && cases[i].counts[d]; d++) {
            uint64_t n = chess_perft(&pos, d + 1);
            if (n != cases[i].counts[d])
                fail_msg("perft(%d) of %s: %llu, expected %llu", d + 1, cases[i].fen,
                         (unsigned long long)n, (unsigned long long)cases[i].counts[d]);
        }
        assert_memory_equal(&pos, &before, sizeof pos);
        assert_true(chess_perft(&pos, 0) == 1);
    }
}

/* Runs the shared fixture (fixtures/perft/chess.epd, found through $srcdir
 * as automake sets it, else from the current directory) up to 1M leaves
 * per line, so it stays quick under sanitizers too. */
static void test_perft_fixture(void **state)
{
    const char *srcdir = getenv("srcdir");
    char path[4096], line[512];
    int lines = 0, checked = 0;
    (void)state;

    snprintf(path, sizeof path, "%s/fixtures/perft/chess.epd", srcdir ? srcdir : ".");
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s", path);
    while (fgets(line, sizeof line, f)) {
        char *semi = strchr(line, ';');
        if (line[0] == '#' || !semi)
            continue;
        *semi = '\0';
        chess_pos pos;
        load(&pos, line);
        lines++;
        char *p = semi + 1;
        int depth;
        unsigned long long want;
        int used;
        while (sscanf(p, " D%d %llu%n", &depth, &want, &used) == 2) {
            if (want <= 1000000) {
                uint64_t n = chess_perft(&pos, depth);
                if (n != want)
                    fail_msg("%s: perft(%d) = %llu, expected %llu", line, depth,
                             (unsigned long long)n, want);
                checked++;
            }
            p += used;
            while (*p == ' ' || *p == ';')
                p++;
        }
    }
    fclose(f);
    assert_true(lines >= 8);
    assert_true(checked >= 30);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fen_round_trip),
        cmocka_unit_test(test_fen_variants),
        cmocka_unit_test(test_fen_errors),
        cmocka_unit_test(test_fen_hostile_input),
        cmocka_unit_test(test_make_unmake_random),
        cmocka_unit_test(test_key_fixed),
        cmocka_unit_test(test_ep_key_rule),
        cmocka_unit_test(test_pins),
        cmocka_unit_test(test_en_passant),
        cmocka_unit_test(test_castling),
        cmocka_unit_test(test_castling_960),
        cmocka_unit_test(test_promotion),
        cmocka_unit_test(test_checks_and_mates),
        cmocka_unit_test(test_attacks),
        cmocka_unit_test(test_is_legal_and_uci),
        cmocka_unit_test(test_move_queries),
        cmocka_unit_test(test_perft_small),
        cmocka_unit_test(test_perft_fixture),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
