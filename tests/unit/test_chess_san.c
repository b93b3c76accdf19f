/* test_chess_san.c: chess move text in and out (notation/chess_san.c). */
#include <config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/chess.h"
#include "core/prng.h"
#include "notation/chess_san.h"

#define START_FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

static chess_pos fen(const char *text)
{
    chess_pos pos;
    char err[128];
    bool ok = chess_pos_from_fen(&pos, text, err, sizeof err);
    if (!ok)
        fail_msg("bad FEN %s: %s", text, err);
    return pos;
}

static const char *uci(const chess_pos *pos, chess_move m)
{
    static char buf[8];
    chess_move_to_uci(m, pos, buf);
    return buf;
}

/* Parse text on fen; expect SAN_OK with the move whose UCI is want, and
 * return the result for further checks. */
static san_result ok_move(const char *fen_text, const char *text, const char *want)
{
    chess_pos pos = fen(fen_text);
    san_result r;
    chess_san_parse(&pos, text, &r);
    if (r.status != SAN_OK)
        fail_msg("\"%s\": status %s (%s), want %s", text, san_status_name(r.status), r.reason,
                 want);
    assert_string_equal(uci(&pos, r.move), want);
    assert_true(chess_is_legal(&pos, r.move));
    return r;
}

static void illegal(const char *fen_text, const char *text, const char *reason)
{
    chess_pos pos = fen(fen_text);
    san_result r;
    chess_san_parse(&pos, text, &r);
    if (r.status != SAN_ILLEGAL)
        fail_msg("\"%s\": status %s (%s), want illegal", text, san_status_name(r.status),
                 r.reason);
    assert_string_equal(r.reason, reason);
}

static void unreadable(const char *text)
{
    chess_pos pos = fen(START_FEN);
    san_result r;
    chess_san_parse(&pos, text, &r);
    if (r.status != SAN_UNREADABLE)
        fail_msg("\"%s\": status %s, want unreadable", text, san_status_name(r.status));
    assert_true(r.reason[0] != '\0');
}

static void formats(const char *fen_text, const char *uci_text, const char *san,
                    const char *lan)
{
    chess_pos pos = fen(fen_text);
    san_result r;
    char buf[CHESS_NOTATION_BUFSIZE];
    chess_san_parse(&pos, uci_text, &r);
    assert_int_equal(r.status, SAN_OK);
    chess_notation_format(&pos, r.move, CHESS_NOTATION_SAN, buf, sizeof buf);
    assert_string_equal(buf, san);
    chess_notation_format(&pos, r.move, CHESS_NOTATION_LAN, buf, sizeof buf);
    assert_string_equal(buf, lan);
    chess_notation_format(&pos, r.move, CHESS_NOTATION_UCI, buf, sizeof buf);
    assert_string_equal(buf, uci_text);
}

/* ------------------------------------------------------------------ */

static void test_canonical(void **state)
{
    (void)state;
    san_result r = ok_move(START_FEN, "e4", "e2e4");
    assert_false(r.lenient);
    assert_false(r.over_disambiguated);
    assert_false(r.check_marker_wrong);
    assert_int_equal(chess_move_kind(r.move), CHESS_MOVE_DOUBLE_PUSH);
    ok_move(START_FEN, "e3", "e2e3");
    ok_move(START_FEN, "Nf3", "g1f3");
    ok_move(START_FEN, "Nc3", "b1c3");
    r = ok_move("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", "exd5", "e4d5");
    assert_false(r.lenient);
    /* black to move */
    ok_move("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "c5", "c7c5");
    ok_move("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "Nf6", "g8f6");
    /* annotations and blanks around the move are ignored */
    r = ok_move(START_FEN, " e4!? ", "e2e4");
    assert_false(r.lenient);
}

static void test_null_moves(void **state)
{
    (void)state;
    chess_pos pos = fen(START_FEN);
    san_result r;
    const char *nulls[] = { "--", "Z0", "0000", "@@@@" };
    for (size_t i = 0; i < sizeof nulls / sizeof nulls[0]; i++) {
        chess_san_parse(&pos, nulls[i], &r);
        assert_int_equal(r.status, SAN_NULL);
        assert_int_equal(r.move, CHESS_MOVE_NONE);
    }
    char buf[16];
    chess_notation_format(&pos, CHESS_MOVE_NONE, CHESS_NOTATION_SAN, buf, sizeof buf);
    assert_string_equal(buf, "--");
    chess_notation_format(&pos, CHESS_MOVE_NONE, CHESS_NOTATION_UCI, buf, sizeof buf);
    assert_string_equal(buf, "0000");
}

static void test_unreadable(void **state)
{
    (void)state;
    const char *bad[] = { "Kx", "e9", "Qz4", "hello", "", "   ", "O-O-O-O", "e4e", "ee4",
                          "Nf", "x", "e2e4e6", "Ng1-", "N-", "4e4", "e8=", "e8(Q", "O-0",
                          "Ke1=Q=Q", "e8==Q", "Z1", "-" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        unreadable(bad[i]);
    chess_pos pos = fen(START_FEN);
    san_result r;
    chess_san_parse(&pos, "e9", &r);
    assert_string_equal(r.reason, "e9 is not a square");
}

#define CASTLE_FEN "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"
#define CASTLE_FEN_B "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1"

static void expect_flag(san_result r, unsigned flag, const char *note_part)
{
    if (!(r.lenient_flags & flag))
        fail_msg("flag %#x missing (flags %#x, note \"%s\")", flag, r.lenient_flags,
                 r.lenient_note);
    assert_true(r.lenient);
    if (note_part && !strstr(r.lenient_note, note_part))
        fail_msg("note \"%s\" lacks \"%s\"", r.lenient_note, note_part);
}

static void test_lenient_castling(void **state)
{
    (void)state;
    san_result r = ok_move(CASTLE_FEN, "O-O", "e1g1");
    assert_false(r.lenient);
    assert_int_equal(chess_move_kind(r.move), CHESS_MOVE_CASTLE);
    r = ok_move(CASTLE_FEN, "O-O-O", "e1c1");
    assert_false(r.lenient);
    r = ok_move(CASTLE_FEN, "0-0", "e1g1");
    expect_flag(r, SAN_LENIENT_ZERO_CASTLE, "castling written with zeros");
    r = ok_move(CASTLE_FEN, "0-0-0", "e1c1");
    expect_flag(r, SAN_LENIENT_ZERO_CASTLE, NULL);
    r = ok_move(CASTLE_FEN, "o-o", "e1g1");
    expect_flag(r, SAN_LENIENT_LOWER_CASTLE, NULL);
    r = ok_move(CASTLE_FEN, "o-o-o", "e1c1");
    expect_flag(r, SAN_LENIENT_LOWER_CASTLE, NULL);
    r = ok_move(CASTLE_FEN_B, "O-O", "e8g8");
    r = ok_move(CASTLE_FEN_B, "O-O-O", "e8c8");
    r = ok_move(CASTLE_FEN_B, "0-0-0", "e8c8");
    /* UCI: king to g1, and king takes rook */
    r = ok_move(CASTLE_FEN, "e1g1", "e1g1");
    assert_int_equal(chess_move_kind(r.move), CHESS_MOVE_CASTLE);
    expect_flag(r, SAN_LENIENT_UCI, NULL);
    r = ok_move(CASTLE_FEN, "e1h1", "e1g1");
    assert_int_equal(chess_move_kind(r.move), CHESS_MOVE_CASTLE);
    r = ok_move(CASTLE_FEN, "e1a1", "e1c1");
    r = ok_move(CASTLE_FEN, "e1c1", "e1c1");
    r = ok_move(CASTLE_FEN_B, "e8g8", "e8g8");
    /* as a king move */
    r = ok_move(CASTLE_FEN, "Kg1", "e1g1");
    expect_flag(r, SAN_LENIENT_CASTLE_KING, "castling written as a king move");
    r = ok_move(CASTLE_FEN, "Ke1-g1", "e1g1");
    expect_flag(r, SAN_LENIENT_CASTLE_KING, NULL);
    r = ok_move(CASTLE_FEN, "Kxh1", "e1g1");
    expect_flag(r, SAN_LENIENT_CASTLE_KING, NULL);
    /* the ordinary king steps stay king steps */
    r = ok_move(CASTLE_FEN, "Kf1", "e1f1");
    assert_int_equal(chess_move_kind(r.move), CHESS_MOVE_NORMAL);
    r = ok_move(CASTLE_FEN, "e1d1", "e1d1");
    assert_int_equal(chess_move_kind(r.move), CHESS_MOVE_NORMAL);
    /* with markers */
    r = ok_move("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "O-O+", "e1g1");
    assert_false(r.check_marker_wrong);
    r = ok_move("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "O-O", "e1g1");
    assert_true(r.check_marker_wrong);
    assert_string_equal(r.check_marker_expected, "+");
}

static void test_lenient_forms(void **state)
{
    (void)state;
    san_result r;
    /* UCI and LAN */
    r = ok_move(START_FEN, "e2e4", "e2e4");
    expect_flag(r, SAN_LENIENT_UCI, "UCI");
    assert_int_equal(chess_move_kind(r.move), CHESS_MOVE_DOUBLE_PUSH);
    r = ok_move(START_FEN, "g1f3", "g1f3");
    expect_flag(r, SAN_LENIENT_UCI, NULL);
    r = ok_move(START_FEN, "e2-e4", "e2e4");
    expect_flag(r, SAN_LENIENT_LAN, "long algebraic");
    r = ok_move(START_FEN, "Ng1-f3", "g1f3");
    expect_flag(r, SAN_LENIENT_LAN, NULL);
    assert_false(r.over_disambiguated);
    r = ok_move(START_FEN, "Ng1\xe2\x80\x93" "f3", "g1f3"); /* en dash */
    expect_flag(r, SAN_LENIENT_LAN, NULL);
    r = ok_move(START_FEN, "Ng1f3", "g1f3");
    assert_true(r.over_disambiguated);
    r = ok_move("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", "e4xd5", "e4d5");
    expect_flag(r, SAN_LENIENT_LAN, NULL);
    r = ok_move("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", "e4d5", "e4d5");
    expect_flag(r, SAN_LENIENT_UCI, NULL);
    assert_false(r.lenient_flags & SAN_LENIENT_MISSING_X);
    /* ':' and '×' captures */
    const char *capfen = "rn1qkbnr/ppp1pppp/8/3p4/4P3/5b2/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    r = ok_move(capfen, "N:f3", "g1f3");
    expect_flag(r, SAN_LENIENT_COLON, NULL);
    assert_false(r.lenient_flags & SAN_LENIENT_MISSING_X);
    r = ok_move(capfen, "e:d5", "e4d5");
    expect_flag(r, SAN_LENIENT_COLON, NULL);
    r = ok_move(capfen, "e\xc3\x97" "d5", "e4d5");
    expect_flag(r, SAN_LENIENT_COLON, NULL);
    /* missing and superfluous x */
    r = ok_move(capfen, "Nf3", "g1f3");
    expect_flag(r, SAN_LENIENT_MISSING_X, "without 'x'");
    r = ok_move(capfen, "ed5", "e4d5");
    expect_flag(r, SAN_LENIENT_MISSING_X, NULL);
    r = ok_move(START_FEN, "Nxf3", "g1f3");
    expect_flag(r, SAN_LENIENT_EXTRA_X, "nothing is captured");
    r = ok_move(capfen, "Ng1-f3", "g1f3");
    expect_flag(r, SAN_LENIENT_MISSING_X, NULL);
    r = ok_move(capfen, "Ng1xf3", "g1f3");
    expect_flag(r, SAN_LENIENT_LAN, NULL);
    assert_false(r.over_disambiguated);
    assert_false(r.lenient_flags & SAN_LENIENT_MISSING_X);
    /* lower-case piece letters */
    r = ok_move(START_FEN, "nf3", "g1f3");
    expect_flag(r, SAN_LENIENT_LOWER_PIECE, "lower-case");
    r = ok_move("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "qd5", "d1d5");
    expect_flag(r, SAN_LENIENT_LOWER_PIECE, NULL);
    r = ok_move("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "ra5", "a1a5");
    r = ok_move("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "kd2", "e1d2");
    /* lower-case b: the b-pawn first, then a bishop */
    const char *bfen = "4k3/8/8/B7/8/2n5/1P6/4K3 w - - 0 1";
    r = ok_move(bfen, "bxc3", "b2c3");
    assert_false(r.lenient);
    r = ok_move(bfen, "Bxc3", "a5c3");
    assert_false(r.lenient);
    r = ok_move(bfen, "bc3", "b2c3");
    expect_flag(r, SAN_LENIENT_MISSING_X, NULL);
    r = ok_move(bfen, "bb4", "a5b4");   /* cannot be a pawn move */
    r = ok_move("4k3/8/8/8/8/2n5/8/B3K3 w - - 0 1", "bxc3", "a1c3"); /* no pawn: bishop */
    expect_flag(r, SAN_LENIENT_LOWER_PIECE, NULL);
    r = ok_move("4k3/8/8/8/8/8/8/4KB2 w - - 0 1", "bb5", "f1b5");
    expect_flag(r, SAN_LENIENT_LOWER_PIECE, NULL);
    /* P for pawns, figurines */
    r = ok_move(START_FEN, "Pe4", "e2e4");
    expect_flag(r, SAN_LENIENT_PAWN_LETTER, NULL);
    r = ok_move(START_FEN, "\xe2\x99\x98" "f3", "g1f3"); /* ♘f3 */
    expect_flag(r, SAN_LENIENT_FIGURINE, NULL);
    r = ok_move(START_FEN, "\xe2\x99\x9e" "f3", "g1f3"); /* ♞f3 */
    expect_flag(r, SAN_LENIENT_FIGURINE, NULL);
    /* pawn capture without its file, when unique */
    r = ok_move(capfen, "xd5", "e4d5");
    expect_flag(r, SAN_LENIENT_PAWN_NO_FILE, NULL);
    /* disambiguation by rank where the file is enough */
    const char *twon = "4k3/8/8/8/8/8/3N4/4K1N1 w - - 0 1";
    r = ok_move(twon, "Ngf3", "g1f3");
    assert_false(r.lenient);
    assert_false(r.over_disambiguated);
    r = ok_move(twon, "N1f3", "g1f3");
    expect_flag(r, SAN_LENIENT_DISAMBIG, NULL);
    assert_false(r.over_disambiguated);
    /* several at once: the note lists them */
    r = ok_move(capfen, "n:f3", "g1f3");
    expect_flag(r, SAN_LENIENT_LOWER_PIECE | SAN_LENIENT_COLON, "lower-case piece letter; ");
}

static void test_lenient_promotion_ep(void **state)
{
    (void)state;
    const char *pfen = "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1";
    san_result r = ok_move(pfen, "e8=Q", "e7e8q");
    assert_false(r.lenient);
    assert_int_equal(chess_move_promotion(r.move), CHESS_QUEEN);
    const char *forms[] = { "e8Q", "e8/Q", "e8(Q)", "e8=q", "e8q", "e7e8q", "e7-e8=Q" };
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        r = ok_move(pfen, forms[i], "e7e8q");
        assert_true(r.lenient);
    }
    r = ok_move(pfen, "e8N", "e7e8n");
    expect_flag(r, SAN_LENIENT_PROMOTION, NULL);
    r = ok_move(pfen, "e8b", "e7e8b");
    r = ok_move(pfen, "e8=R", "e7e8r");
    r = ok_move(pfen, "exd8=N", "e7d8n");
    assert_false(r.lenient);
    r = ok_move(pfen, "exd8=Q+", "e7d8q");
    assert_false(r.check_marker_wrong);
    r = ok_move(pfen, "ed8Q", "e7d8q");
    expect_flag(r, SAN_LENIENT_MISSING_X | SAN_LENIENT_PROMOTION, NULL);
    assert_true(r.check_marker_wrong);
    assert_string_equal(r.check_marker_expected, "+");

    const char *efen = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
    r = ok_move(efen, "exf6", "e5f6");
    assert_int_equal(chess_move_kind(r.move), CHESS_MOVE_EN_PASSANT);
    assert_false(r.lenient);
    r = ok_move(efen, "exf6e.p.", "e5f6");
    expect_flag(r, SAN_LENIENT_EP_SUFFIX, NULL);
    r = ok_move(efen, "exf6 e.p.", "e5f6");
    expect_flag(r, SAN_LENIENT_EP_SUFFIX, NULL);
    r = ok_move(efen, "exf6ep", "e5f6");
    expect_flag(r, SAN_LENIENT_EP_SUFFIX, NULL);
    r = ok_move(efen, "e5f6", "e5f6");
    assert_int_equal(chess_move_kind(r.move), CHESS_MOVE_EN_PASSANT);
    r = ok_move(efen, "ef6", "e5f6");
    expect_flag(r, SAN_LENIENT_MISSING_X, NULL);
}

static void test_markers(void **state)
{
    (void)state;
    const char *scholar =
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
    san_result r = ok_move(scholar, "Qxf7#", "h5f7");
    assert_false(r.check_marker_wrong);
    assert_string_equal(r.check_marker_expected, "#");
    assert_string_equal(r.check_marker_written, "#");
    r = ok_move(scholar, "Qxf7", "h5f7");
    assert_true(r.check_marker_wrong);
    assert_string_equal(r.check_marker_expected, "#");
    assert_string_equal(r.check_marker_written, "");
    r = ok_move(scholar, "Qxf7+", "h5f7");
    assert_true(r.check_marker_wrong);
    assert_string_equal(r.check_marker_expected, "#");
    r = ok_move(scholar, "Qxf7++", "h5f7");
    assert_false(r.check_marker_wrong);
    expect_flag(r, SAN_LENIENT_MARKER_FORM, NULL);
    r = ok_move(scholar, "Qxf7\xe2\x80\xa1", "h5f7"); /* ‡ */
    assert_false(r.check_marker_wrong);
    r = ok_move(scholar, "Qxf7#!!", "h5f7");
    assert_false(r.check_marker_wrong);
    r = ok_move(START_FEN, "e4+", "e2e4");
    assert_true(r.check_marker_wrong);
    assert_string_equal(r.check_marker_expected, "");
    assert_string_equal(r.check_marker_written, "+");
    r = ok_move(START_FEN, "e4#", "e2e4");
    assert_true(r.check_marker_wrong);
    /* check, not mate */
    const char *cfen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
    r = ok_move(cfen, "Ra8+", "a1a8");
    assert_false(r.check_marker_wrong);
    r = ok_move(cfen, "Ra8\xe2\x80\xa0", "a1a8"); /* † */
    assert_false(r.check_marker_wrong);
    expect_flag(r, SAN_LENIENT_MARKER_FORM, NULL);
    r = ok_move(cfen, "Ra8#", "a1a8");
    assert_true(r.check_marker_wrong);
    assert_string_equal(r.check_marker_expected, "+");
    r = ok_move(cfen, "Ra8", "a1a8");
    assert_true(r.check_marker_wrong);
    /* markers never decide: a wrong one still resolves */
    r = ok_move(cfen, "Ra7+", "a1a7");
    assert_true(r.check_marker_wrong);
}

static void test_illegal_reasons(void **state)
{
    (void)state;
    illegal(START_FEN, "Nd4", "no white knight can reach d4");
    illegal(START_FEN, "Qh5", "no white queen can reach h5");
    illegal("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "Qd4", "White has no queen");
    illegal(START_FEN, "Nbd4", "no white knight on the b-file can reach d4");
    illegal("4k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1", "N2d2", "no white knight on the 2nd rank can reach d2");
    illegal(START_FEN, "Nd2", "d2 is occupied by a white pawn");
    illegal(START_FEN, "e5", "no white pawn can reach e5");
    illegal(START_FEN, "Ra1-a5", "the rook on a1 cannot reach a5: a2 is in the way");
    illegal(START_FEN, "Ng1-g3", "the knight on g1 cannot move to g3");
    illegal(START_FEN, "Nf1-e3", "there is no white knight on f1");
    illegal(START_FEN, "e3e4", "there is no piece on e3");
    illegal(START_FEN, "e7e5", "e7 holds a black pawn, but White is to move");
    illegal(START_FEN, "e2e5", "a pawn cannot move from e2 to e5");
    illegal("4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1", "e4", "the pawn on e2 cannot advance: e3 is occupied");
    illegal("4k3/8/8/8/4n3/4P3/8/4K3 w - - 0 1", "e4", "the pawn on e3 cannot advance: e4 is occupied");
    /* pins and checks */
    illegal("4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1", "Nf3",
            "the knight on d2 is pinned against the king on e1 by the bishop on b4");
    illegal("4r1k1/8/8/8/8/8/8/4K1N1 w - - 0 1", "Nf3",
            "the king on e1 would still be in check from the rook on e8");
}

static void test_illegal_reasons2(void **state)
{
    (void)state;
    illegal("5rk1/8/8/8/8/8/8/4K3 w - - 0 1", "Kf2", "the king cannot go to f2: it is attacked by the rook on f8");
    illegal("4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1", "Bd3",
            "the bishop on e2 is pinned against the king on e1 by the rook on e7");
    /* castling */
    illegal("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", "O-O", "castling king-side: White has lost that right");
    illegal("r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1", "O-O-O", "castling queen-side: White has lost that right");
    illegal("r3k2r/8/8/8/8/8/8/R3K2R b KQ - 0 1", "O-O", "castling king-side: Black has lost that right");
    illegal("r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1", "O-O", "castling through check: f1 is attacked by the bishop on c4");
    illegal("r3k2r/8/8/8/8/8/5n2/R3K2R w KQkq - 0 1", "O-O-O", "castling through check: d1 is attacked by the knight on f2");
    illegal("r3k2r/8/8/8/8/8/4n3/R3K2R w KQkq - 0 1", "O-O", "castling into check: g1 is attacked by the knight on e2");
    illegal("r3k2r/8/8/8/8/8/8/R3K1NR w KQkq - 0 1", "O-O", "castling is blocked: g1 is occupied");
    illegal(START_FEN, "O-O", "castling is blocked: f1 is occupied");
    illegal("r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1", "O-O-O", "castling is blocked: b1 is occupied");
    /* pawns */
    illegal("4k3/8/8/4P3/8/8/8/4K3 w - - 0 1", "exd6", "no pawn can capture on d6: the square is empty");
    illegal("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1", "exd6",
            "en passant not possible: the pawn on d5 did not just advance two squares");
    illegal("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1", "bxc6",
            "en passant not possible: the king on a5 would be in check from the rook on h5");
    illegal("4k3/8/8/4P3/8/8/8/4K3 w - - 0 1", "exf6", "no pawn can capture on f6: the square is empty");
    illegal("4k3/8/8/4P3/8/8/8/4K3 w - - 0 1", "cxd6", "no white pawn on the c-file can capture on d6");
    illegal("4k3/8/8/4P3/8/8/8/4K3 w - - 0 1", "exg6", "no pawn on the e-file can capture on g6");
    illegal("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e8", "a pawn reaching the last rank must promote");
    illegal("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "exd8", "a pawn reaching the last rank must promote");
    illegal("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8", "a pawn reaching the last rank must promote");
    illegal("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e8=K", "pawns promote to N, B, R or Q");
    illegal("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e8=P", "pawns promote to N, B, R or Q");
    illegal("4k3/8/8/8/8/4P3/8/4K3 w - - 0 1", "e4=Q", "only a pawn reaching the last rank can promote");
    illegal(START_FEN, "Nf3=Q", "only pawns promote");
}

/* castling out of check; castling rights lost, asked for as a king move */
static void test_illegal_reasons3(void **state)
{
    (void)state;
    san_result r;
    chess_pos pos = fen("r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1");
    chess_san_parse(&pos, "O-O", &r);
    assert_int_equal(r.status, SAN_ILLEGAL);
    assert_string_equal(r.reason, "castling out of check");
    pos = fen("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1");
    chess_san_parse(&pos, "e1g1", &r);
    assert_int_equal(r.status, SAN_ILLEGAL);
    assert_string_equal(r.reason, "castling king-side: White has lost that right");
    chess_san_parse(&pos, "Kg1", &r);
    assert_string_equal(r.reason, "castling king-side: White has lost that right");
    chess_san_parse(&pos, "Kf1", &r);
    assert_int_equal(r.status, SAN_OK);
}

static void test_ambiguity(void **state)
{
    (void)state;
    chess_pos pos = fen("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    san_result r;
    chess_san_parse(&pos, "Nd2", &r);
    assert_int_equal(r.status, SAN_AMBIGUOUS);
    assert_int_equal(r.candidate_count, 2);
    assert_string_equal(uci(&pos, r.candidates[0]), "b1d2");
    assert_string_equal(uci(&pos, r.candidates[1]), "f3d2");
    assert_string_equal(r.reason, "2 white knights can move to d2");
    r = ok_move("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "Nbd2", "b1d2");
    assert_false(r.over_disambiguated);
    assert_false(r.lenient);
    r = ok_move("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "Nfd2", "f3d2");
    r = ok_move("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "Nb1d2", "b1d2");
    assert_true(r.over_disambiguated);
    /* a pinned knight does not count (jhlywa/chess.js#311) */
    r = ok_move("4k3/8/8/8/8/5N2/8/rN2K3 w - - 0 1", "Nd2", "f3d2");
    assert_false(r.over_disambiguated);
    formats("4k3/8/8/8/8/5N2/8/rN2K3 w - - 0 1", "f3d2", "Nd2", "Nf3-d2");
    r = ok_move("4k3/8/8/8/8/5N2/8/rN2K3 w - - 0 1", "Nfd2", "f3d2");
    assert_true(r.over_disambiguated);
    /* rooks on one rank: by file; on one file: by rank */
    pos = fen("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1");
    chess_san_parse(&pos, "Rd1", &r);
    assert_int_equal(r.status, SAN_AMBIGUOUS);
    ok_move("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", "Rad1", "a1d1");
    ok_move("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", "Rfd1", "f1d1");
    pos = fen("4k3/R7/8/8/8/8/8/R5K1 w - - 0 1");
    chess_san_parse(&pos, "Ra4", &r);
    assert_int_equal(r.status, SAN_AMBIGUOUS);
    ok_move("4k3/R7/8/8/8/8/8/R5K1 w - - 0 1", "R1a4", "a1a4");
    /* three queens */
    const char *q3 = "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1";
    pos = fen(q3);
    chess_san_parse(&pos, "Qb2", &r);
    assert_int_equal(r.status, SAN_AMBIGUOUS);
    assert_int_equal(r.candidate_count, 3);
    chess_san_parse(&pos, "Qab2", &r);
    assert_int_equal(r.status, SAN_AMBIGUOUS);
    assert_int_equal(r.candidate_count, 2);
    chess_san_parse(&pos, "Q1b2", &r);
    assert_int_equal(r.status, SAN_AMBIGUOUS);
    r = ok_move(q3, "Qa1b2", "a1b2");
    assert_false(r.over_disambiguated);
    r = ok_move(q3, "Q3b2", "a3b2");
    assert_false(r.over_disambiguated);
    r = ok_move(q3, "Qa3b2", "a3b2");
    assert_true(r.over_disambiguated);
    r = ok_move(q3, "Qcb2", "c1b2");
    assert_false(r.over_disambiguated);
    formats(q3, "a1b2", "Qa1b2", "Qa1-b2");
    formats(q3, "a3b2", "Q3b2", "Qa3-b2");
    formats(q3, "c1b2", "Qcb2", "Qc1-b2");
    /* ambiguous pawn capture without its file */
    pos = fen("4k3/8/8/3p4/2P1P3/8/8/4K3 w - - 0 1");
    chess_san_parse(&pos, "xd5", &r);
    assert_int_equal(r.status, SAN_AMBIGUOUS);
    assert_int_equal(r.candidate_count, 2);
}

static void test_over_disambiguation(void **state)
{
    (void)state;
    san_result r = ok_move(START_FEN, "Ngf3", "g1f3");
    assert_true(r.over_disambiguated);
    assert_false(r.lenient);
    r = ok_move(START_FEN, "N1f3", "g1f3");
    assert_true(r.over_disambiguated);
    r = ok_move(START_FEN, "Ng1f3", "g1f3");
    assert_true(r.over_disambiguated);
    r = ok_move("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "Ked2", "e1d2");
    assert_true(r.over_disambiguated);
    r = ok_move(START_FEN, "Nf3", "g1f3");
    assert_false(r.over_disambiguated);
}

static void test_format(void **state)
{
    (void)state;
    formats(START_FEN, "e2e4", "e4", "e2-e4");
    formats(START_FEN, "g1f3", "Nf3", "Ng1-f3");
    formats("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", "e4d5", "exd5",
            "e4xd5");
    formats("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "h5f7",
            "Qxf7#", "Qh5xf7#");
    formats("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q", "e8=Q+", "e7-e8=Q+");
    formats("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8q", "exd8=Q+", "e7xd8=Q+");
    formats("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8r", "exd8=R+", "e7xd8=R+");
    formats("3r4/4P1k1/8/8/8/8/8/4K3 w - - 0 1", "e7e8n", "e8=N+", "e7-e8=N+");
    formats("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "e5f6", "exf6",
            "e5xf6");
    formats(CASTLE_FEN, "e1g1", "O-O", "O-O");
    formats(CASTLE_FEN, "e1c1", "O-O-O", "O-O-O");
    formats(CASTLE_FEN_B, "e8c8", "O-O-O", "O-O-O");
    formats("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "b1d2", "Nbd2", "Nb1-d2");
    formats("4k3/R7/8/8/8/8/8/R5K1 w - - 0 1", "a1a4", "R1a4", "Ra1-a4");
    formats("4k3/8/8/8/8/8/1p6/R3K3 b - - 0 1", "b2a1q", "bxa1=Q+", "b2xa1=Q+");
    /* truncation */
    chess_pos pos = fen(START_FEN);
    char small[3];
    san_result r;
    chess_san_parse(&pos, "Nf3", &r);
    assert_int_equal(chess_notation_format(&pos, r.move, CHESS_NOTATION_LAN, small, sizeof small), 6);
    assert_string_equal(small, "Ng");
    assert_string_equal(san_status_name(SAN_AMBIGUOUS), "ambiguous");
}

/* Chess960: castling where the king or the rook hardly moves */
static void test_chess960(void **state)
{
    (void)state;
    /* king b1, rooks a1 and g1 */
    const char *f1 = "7k/8/8/8/8/8/8/RK4R1 w GA - 0 1";
    chess_pos pos = fen(f1);
    assert_true(pos.chess960);
    san_result r;
    chess_san_parse(&pos, "O-O-O", &r);
    assert_int_equal(r.status, SAN_OK);
    assert_int_equal(chess_move_kind(r.move), CHESS_MOVE_CASTLE);
    assert_int_equal(chess_move_from(r.move), 1);
    assert_int_equal(chess_move_to(r.move), 2);
    assert_true(chess_is_legal(&pos, r.move));
    assert_string_equal(uci(&pos, r.move), "b1a1");
    formats(f1, "b1a1", "O-O-O", "O-O-O");
    formats(f1, "b1g1", "O-O", "O-O");
    r = ok_move(f1, "b1a1", "b1a1");
    assert_int_equal(chess_move_kind(r.move), CHESS_MOVE_CASTLE);
    r = ok_move(f1, "b1c1", "b1c1"); /* a king step, not castling */
    assert_int_equal(chess_move_kind(r.move), CHESS_MOVE_NORMAL);
    r = ok_move(f1, "O-O", "b1g1");
    assert_int_equal(chess_move_kind(r.move), CHESS_MOVE_CASTLE);
    r = ok_move(f1, "Kxa1", "b1a1");
    expect_flag(r, SAN_LENIENT_CASTLE_KING, NULL);
    /* king already on g1: O-O moves only the rook */
    const char *f2 = "6k1/8/8/8/8/8/8/6KR w H - 0 1";
    pos = fen(f2);
    chess_san_parse(&pos, "O-O", &r);
    assert_int_equal(r.status, SAN_OK);
    assert_int_equal(chess_move_from(r.move), 6);
    assert_int_equal(chess_move_to(r.move), 6);
    assert_true(chess_is_legal(&pos, r.move));
    formats(f2, "g1h1", "O-O", "O-O");
    r = ok_move(f2, "Kh1", "g1h1");
    assert_int_equal(chess_move_kind(r.move), CHESS_MOVE_CASTLE);
    /* rook on f1 and king on g1: the rook goes to f1, i.e. stays: a pure flag move */
    /* blocked, attacked */
    illegal("7k/8/8/8/8/8/8/RK1B2R1 w GA - 0 1", "O-O-O", "castling is blocked: d1 is occupied");
    illegal("7k/8/8/8/8/8/8/RK1B2R1 w GA - 0 1", "O-O", "castling is blocked: d1 is occupied");
    illegal("2r4k/8/8/8/8/8/8/RK4R1 w GA - 0 1", "O-O-O", "castling into check: c1 is attacked by the rook on c8");
    illegal("4r2k/8/8/8/8/8/8/RK4R1 w GA - 0 1", "O-O", "castling through check: e1 is attacked by the rook on e8");
    /* a rook shielding the king's destination from a rook behind it */
    illegal("6k1/8/8/8/8/8/8/r1RK4 w C - 0 1", "O-O-O", "castling into check: c1 is attacked by the rook on a1");
    /* black */
    r = ok_move("rk4r1/8/8/8/8/8/8/7K b ga - 0 1", "O-O-O", "b8a8");
    r = ok_move("rk4r1/8/8/8/8/8/8/7K b ga - 0 1", "O-O", "b8g8");
}

/* ------------------------------------------------------------------ */
/* round trips over random play                                          */

static const char *const start_fens[] = {
    START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
    "qrbkrnnb/pppppppp/8/8/8/8/PPPPPPPP/QRBKRNNB w KQkq - 0 1",
    "rbbknrqn/pppppppp/8/8/8/8/PPPPPPPP/RBBKNRQN w FAfa - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
};

static void check_round_trip(const chess_pos *pos, chess_move m)
{
    static const chess_notation kinds[3] = { CHESS_NOTATION_SAN, CHESS_NOTATION_LAN,
                                             CHESS_NOTATION_UCI };
    char buf[CHESS_NOTATION_BUFSIZE], fenbuf[CHESS_FEN_BUFSIZE];
    for (int k = 0; k < 3; k++) {
        san_result r;
        int len = chess_notation_format(pos, m, kinds[k], buf, sizeof buf);
        assert_int_equal(len, (int)strlen(buf));
        chess_san_parse(pos, buf, &r);
        if (r.status != SAN_OK || r.move != m) {
            chess_pos_to_fen(pos, fenbuf, sizeof fenbuf);
            fail_msg("%s: \"%s\" gave %s (%s), move %s", fenbuf, buf,
                     san_status_name(r.status), r.reason, uci(pos, r.move));
        }
        if (kinds[k] == CHESS_NOTATION_SAN
            && (r.lenient || r.over_disambiguated || r.check_marker_wrong)) {
            chess_pos_to_fen(pos, fenbuf, sizeof fenbuf);
            fail_msg("%s: canonical \"%s\" flagged: %s%s%s", fenbuf, buf, r.lenient_note,
                     r.over_disambiguated ? " over-disambiguated" : "",
                     r.check_marker_wrong ? " marker" : "");
        }
        if (kinds[k] == CHESS_NOTATION_LAN
            && ((r.lenient_flags & ~(unsigned)SAN_LENIENT_LAN) || r.over_disambiguated
                || r.check_marker_wrong)) {
            chess_pos_to_fen(pos, fenbuf, sizeof fenbuf);
            fail_msg("%s: LAN \"%s\" flagged: %s", fenbuf, buf, r.lenient_note);
        }
        assert_true(len <= (kinds[k] == CHESS_NOTATION_SAN ? 7 : 9));
    }
}

/* Every (from, to) of the side to move's pieces, as UCI text: SAN_OK
 * exactly for the legal moves (promotions asked for as queens). */
static void check_uci_matches_movegen(const chess_pos *pos, const chess_movelist *list)
{
    char text[8], fenbuf[CHESS_FEN_BUFSIZE];
    bool seen[256] = { false };
    for (int from = 0; from < 64; from++) {
        int pc = pos->board[from];
        if (!pc || CHESS_PIECE_COLOR(pc) != pos->side)
            continue;
        for (int to = 0; to < 64; to++) {
            bool promo = CHESS_PIECE_TYPE(pc) == CHESS_PAWN && (to >> 3) == (pos->side ? 0 : 7);
            snprintf(text, sizeof text, "%c%c%c%c%s", 'a' + (from & 7), '1' + (from >> 3),
                     'a' + (to & 7), '1' + (to >> 3), promo ? "q" : "");
            san_result r;
            chess_san_parse(pos, text, &r);
            if (r.status == SAN_OK) {
                int at = -1;
                for (int i = 0; i < list->count; i++)
                    if (list->moves[i] == r.move)
                        at = i;
                if (at < 0) {
                    chess_pos_to_fen(pos, fenbuf, sizeof fenbuf);
                    fail_msg("%s: %s accepted but not legal", fenbuf, text);
                }
                seen[at] = true;
            } else if (r.status != SAN_ILLEGAL || !r.reason[0]) {
                chess_pos_to_fen(pos, fenbuf, sizeof fenbuf);
                fail_msg("%s: %s gave %s", fenbuf, text, san_status_name(r.status));
            }
        }
    }
    for (int i = 0; i < list->count; i++) {
        int kind = chess_move_kind(list->moves[i]);
        if (kind >= CHESS_MOVE_PROMO_KNIGHT && kind != CHESS_MOVE_PROMO_QUEEN)
            continue;
        if (!seen[i]) {
            chess_pos_to_fen(pos, fenbuf, sizeof fenbuf);
            fail_msg("%s: legal %s not found by UCI text", fenbuf, uci(pos, list->moves[i]));
        }
    }
}

static void test_round_trip_random(void **state)
{
    (void)state;
    uint64_t rng = PRNG_SEED;
    int positions = 0;
    long moves = 0;
    for (int game = 0; game < 120; game++) {
        chess_pos pos = fen(start_fens[game % (sizeof start_fens / sizeof start_fens[0])]);
        for (int ply = 0; ply < 160; ply++) {
            chess_movelist list;
            chess_gen_legal(&pos, &list);
            if (list.count == 0)
                break;
            positions++;
            for (int i = 0; i < list.count; i++) {
                check_round_trip(&pos, list.moves[i]);
                moves++;
            }
            if (ply % 8 == 5)
                check_uci_matches_movegen(&pos, &list);
            chess_undo undo;
            chess_make(&pos, list.moves[prng_next(&rng) % (uint64_t)list.count], &undo);
        }
    }
    assert_true(positions > 5000);
    assert_true(moves > 50000);
}

/* The same san_result, field by field (the strings up to their ends). */
static void same_result(const chess_pos *pos, const char *text, const san_result *a,
                        const san_result *b)
{
    char fenbuf[CHESS_FEN_BUFSIZE];
    bool same = a->status == b->status && a->move == b->move
                && strcmp(a->reason, b->reason) == 0 && a->candidate_count == b->candidate_count
                && a->check_marker_wrong == b->check_marker_wrong
                && strcmp(a->check_marker_written, b->check_marker_written) == 0
                && strcmp(a->check_marker_expected, b->check_marker_expected) == 0
                && a->over_disambiguated == b->over_disambiguated && a->lenient == b->lenient
                && a->lenient_flags == b->lenient_flags
                && strcmp(a->lenient_note, b->lenient_note) == 0 && a->named == b->named;
    for (int i = 0; same && i < a->candidate_count && i < 8; i++)
        same = a->candidates[i] == b->candidates[i];
    if (!same) {
        chess_pos_to_fen(pos, fenbuf, sizeof fenbuf);
        fail_msg("%s: \"%s\": %s (%s) move %04x, but the general reading says %s (%s) move %04x",
                 fenbuf, text, san_status_name(a->status), a->reason, a->move,
                 san_status_name(b->status), b->reason, b->move);
    }
}

/* The shape (SAN_SHAPE_*) a reader gives text of the form
 * [NBRQK]?[a-h]?[1-8]?x?[a-h][1-8](=[NBRQ])?[+#]?, or 0 for any other text and for a
 * pawn move whose origin is its rank alone or its own file alone (written here apart
 * from the PGN scanner's, to check chess_san_parse_shaped against the general reader). */
static unsigned shape_of(const char *s)
{
    unsigned shape = SAN_SHAPE_READ;
    size_t i = 0;
    bool piece = s[0] && strchr("NBRQK", s[0]);
    if (piece) {
        shape |= SAN_SHAPE_PIECE;
        i++;
    }
    size_t origin = i;
    bool file = s[i] >= 'a' && s[i] <= 'h', rank;
    i += file;
    rank = s[i] >= '1' && s[i] <= '8';
    i += rank;
    bool x = s[i] == 'x';
    i += x;
    if (s[i] >= 'a' && s[i] <= 'h' && s[i + 1] >= '1' && s[i + 1] <= '8') {
        if (!piece && file != rank && (rank || s[origin] == s[i]))
            return 0;
        shape |= (file ? SAN_SHAPE_FILE : 0) | (rank ? SAN_SHAPE_RANK : 0) |
                 (x ? SAN_SHAPE_X : 0);
        i += 2;
    } else if (x || !file || !rank) {
        return 0;
    }
    if (s[i] == '=') {
        if (!s[i + 1] || !strchr("NBRQ", s[i + 1]))
            return 0;
        shape |= SAN_SHAPE_PROMO;
        i += 2;
    }
    if (s[i] == '+' || s[i] == '#') {
        shape |= SAN_SHAPE_MARK;
        i++;
    }
    return s[i] ? 0 : shape;
}

/* text read the quick way (canonical SAN and plain UCI are read in one pass and the usual
 * moves settled without the general matcher; or, when a reader gives its shape, its parts
 * taken from their places) and, with a blank after it, the general way: the same answer,
 * whether or not the caller says the side to move is not in check. */
static long shaped_texts;   /* texts plain_equals_general read by their shape too */
static long quick_texts;    /* texts chess_san_quick answered */

/* chess_san_quick on a shaped text: when it answers, the answer of the full reading r
 * (an ordinary legal move with nothing lenient or over-disambiguated to say). */
static void quick_agrees(const chess_pos *pos, const char *text, unsigned shape, bool no_check,
                         const san_result *r)
{
    static const char *const marks[3] = { "", "+", "#" };
    char fenbuf[CHESS_FEN_BUFSIZE];
    san_quick q;
    if (!chess_san_quick(pos, text, shape, no_check, &q))
        return;
    quick_texts++;
    if (r->status != SAN_OK || r->move != q.move || r->lenient || r->over_disambiguated
        || q.check > 2 || strcmp(r->check_marker_expected, marks[q.check]) != 0
        || r->check_marker_wrong != q.marker_wrong) {
        chess_pos_to_fen(pos, fenbuf, sizeof fenbuf);
        fail_msg("%s: \"%s\": quick move %04x check %d%s, but the full reading says %s (%s) "
                 "move %04x expected '%s'%s%s%s", fenbuf, text, q.move, q.check,
                 q.marker_wrong ? " marker wrong" : "", san_status_name(r->status), r->reason,
                 r->move, r->check_marker_expected, r->check_marker_wrong ? " marker wrong" : "",
                 r->lenient ? " lenient" : "", r->over_disambiguated ? " over" : "");
    }
}

static void plain_equals_general(const chess_pos *pos, const char *text)
{
    char padded[32];
    san_result quick, quick_known, general;
    unsigned shape = shape_of(text);
    snprintf(padded, sizeof padded, "%s ", text);
    chess_san_parse(pos, text, &quick);
    chess_san_parse(pos, padded, &general);
    same_result(pos, text, &quick, &general);
    quick_agrees(pos, text, 0, false, &general); /* castling only */
    if (shape) {
        shaped_texts++;
        chess_san_parse_shaped(pos, text, shape, false, &quick);
        same_result(pos, text, &quick, &general);
        quick_agrees(pos, text, shape, false, &general);
    }
    if (!chess_in_check(pos)) {
        chess_san_parse_known(pos, text, true, &quick_known);
        same_result(pos, text, &quick_known, &general);
        if (shape) {
            chess_san_parse_shaped(pos, text, shape, true, &quick_known);
            same_result(pos, text, &quick_known, &general);
            quick_agrees(pos, text, shape, true, &general);
        }
    }
}

/* Every legal move's SAN, LAN and UCI, with and without its marker, capture sign and
 * origin, and piece moves to every square (most illegal, unreachable or ambiguous). */
static void test_plain_reading_random(void **state)
{
    (void)state;
    uint64_t rng = PRNG_SEED ^ 0x1234;
    long texts = 0;
    for (int game = 0; game < 60; game++) {
        chess_pos pos = fen(start_fens[game % (sizeof start_fens / sizeof start_fens[0])]);
        for (int ply = 0; ply < 120; ply++) {
            chess_movelist list;
            chess_gen_legal(&pos, &list);
            if (list.count == 0)
                break;
            for (int i = 0; i < list.count; i++) {
                char t[CHESS_NOTATION_BUFSIZE], v[CHESS_NOTATION_BUFSIZE + 4];
                for (int k = 0; k < 3; k++) {
                    chess_notation_format(&pos, list.moves[i], (chess_notation)k, t, sizeof t);
                    plain_equals_general(&pos, t);
                    texts++;
                }
                chess_notation_format(&pos, list.moves[i], CHESS_NOTATION_SAN, t, sizeof t);
                size_t n = strlen(t);
                /* the marker dropped, or a wrong one */
                snprintf(v, sizeof v, "%.*s", (int)(n - (t[n - 1] == '+' || t[n - 1] == '#')), t);
                plain_equals_general(&pos, v);
                snprintf(v + strlen(v), sizeof v - strlen(v), "%c", "+#"[prng_next(&rng) % 2]);
                plain_equals_general(&pos, v);
                /* the capture sign dropped */
                char *x = strchr(t, 'x');
                if (x) {
                    snprintf(v, sizeof v, "%.*s%s", (int)(x - t), t, x + 1);
                    plain_equals_general(&pos, v);
                }
                /* a piece move with its origin file, rank, or both */
                int from = chess_move_from(list.moves[i]), to = chess_move_to(list.moves[i]);
                int pt = CHESS_PIECE_TYPE(chess_piece_at(&pos, from));
                if (pt != CHESS_PAWN && chess_move_kind(list.moves[i]) != CHESS_MOVE_CASTLE) {
                    char p = "?PNBRQK"[pt];
                    snprintf(v, sizeof v, "%c%c%c%c", p, 'a' + (from & 7), 'a' + (to & 7),
                             '1' + (to >> 3));
                    plain_equals_general(&pos, v);
                    snprintf(v, sizeof v, "%c%c%c%c", p, '1' + (from >> 3), 'a' + (to & 7),
                             '1' + (to >> 3));
                    plain_equals_general(&pos, v);
                    snprintf(v, sizeof v, "%c%c%cx%c%c", p, 'a' + (from & 7), '1' + (from >> 3),
                             'a' + (to & 7), '1' + (to >> 3));
                    plain_equals_general(&pos, v);
                }
            }
            /* castling, mostly illegal here */
            plain_equals_general(&pos, "O-O");
            plain_equals_general(&pos, "O-O-O+");
            plain_equals_general(&pos, "O-O#");
            /* every piece letter and pawn form to a few squares */
            for (int k = 0; k < 12; k++) {
                int to = (int)(prng_next(&rng) % 64), ff = (int)(prng_next(&rng) % 8);
                char v[12];
                snprintf(v, sizeof v, "%s%c%c", (const char *[]){ "", "N", "B", "R", "Q", "K" }[k % 6],
                         'a' + (to & 7), '1' + (to >> 3));
                plain_equals_general(&pos, v);
                snprintf(v, sizeof v, "%cx%c%c", 'a' + ff, 'a' + (to & 7), '1' + (to >> 3));
                plain_equals_general(&pos, v);
                snprintf(v, sizeof v, "%c%c=%c%c", 'a' + (to & 7), '1' + (to >> 3),
                         "NBRQ"[k % 4], k < 6 ? '+' : '#');
                plain_equals_general(&pos, v);
                snprintf(v, sizeof v, "%c%c=%c", 'a' + (to & 7), '1' + (to >> 3), "NBRQ"[k % 4]);
                plain_equals_general(&pos, v);
                texts += 4;
            }
            chess_undo undo;
            chess_make(&pos, list.moves[prng_next(&rng) % (uint64_t)list.count], &undo);
        }
    }
    assert_true(texts > 100000);
    assert_true(shaped_texts > texts / 2);
    assert_true(quick_texts > texts / 4);
}

/* chess_san_quick answers the usual moves and leaves the rest to the full reader. */
static void test_quick(void **state)
{
    (void)state;
    chess_pos pos = fen(START_FEN);
    san_quick q;
    assert_true(chess_san_quick(&pos, "Nf3", SAN_SHAPE_READ | SAN_SHAPE_PIECE, false, &q));
    assert_string_equal(uci(&pos, q.move), "g1f3");
    assert_int_equal(q.check, CHESS_NO_CHECK);
    assert_false(q.marker_wrong);
    /* a wrong marker is still answered: the move is the usual one */
    assert_true(chess_san_quick(&pos, "e4+", SAN_SHAPE_READ | SAN_SHAPE_MARK, true, &q));
    assert_string_equal(uci(&pos, q.move), "e2e4");
    assert_true(q.marker_wrong);
    /* over-disambiguated, an extra 'x', an unknown shape, no such move: the full reader's */
    assert_false(chess_san_quick(&pos, "Ngf3", SAN_SHAPE_READ | SAN_SHAPE_PIECE | SAN_SHAPE_FILE,
                                 false, &q));
    assert_false(chess_san_quick(&pos, "Nxf3", SAN_SHAPE_READ | SAN_SHAPE_PIECE | SAN_SHAPE_X,
                                 false, &q));
    assert_false(chess_san_quick(&pos, "Nf3", 0, false, &q));
    assert_false(chess_san_quick(&pos, "e5", SAN_SHAPE_READ, false, &q));
    /* castling, which has no shape: when legal, and written O-O */
    assert_false(chess_san_quick(&pos, "O-O", 0, false, &q));
    pos = fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_true(chess_san_quick(&pos, "O-O-O", 0, false, &q));
    assert_string_equal(uci(&pos, q.move), "e1c1");
    assert_false(q.marker_wrong);
    assert_true(chess_san_quick(&pos, "O-O+", 0, false, &q));
    assert_string_equal(uci(&pos, q.move), "e1g1");
    assert_true(q.marker_wrong);
    assert_false(chess_san_quick(&pos, "0-0", 0, false, &q));
    pos = fen("5k2/8/8/8/8/8/8/4K2R w K - 0 1");
    assert_true(chess_san_quick(&pos, "O-O+", 0, true, &q));
    assert_int_equal(q.check, CHESS_CHECK);
    assert_false(q.marker_wrong);
    /* check and mate, unmarked */
    pos = fen("rnbqkbnr/ppppp2p/5p2/6p1/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3");
    assert_true(chess_san_quick(&pos, "Qh5", SAN_SHAPE_READ | SAN_SHAPE_PIECE, false, &q));
    assert_int_equal(q.check, CHESS_CHECKMATE);
    assert_true(q.marker_wrong);
    assert_true(chess_san_quick(&pos, "Qh5#", SAN_SHAPE_READ | SAN_SHAPE_PIECE | SAN_SHAPE_MARK,
                                false, &q));
    assert_false(q.marker_wrong);
    pos = fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    assert_true(chess_san_quick(&pos, "Ra8+", SAN_SHAPE_READ | SAN_SHAPE_PIECE | SAN_SHAPE_MARK,
                                false, &q));
    assert_int_equal(q.check, CHESS_CHECK);
    assert_false(q.marker_wrong);
}

/* Random text on random positions: never a crash, and every answer is
 * consistent (an accepted move is legal, candidates are legal, a refusal
 * says why). */
static void test_random_text(void **state)
{
    (void)state;
    static const char alphabet[] = "abcdefgh12345678NBRQKPnbrqkpxx:-=+#/()!?Oo0. e";
    uint64_t rng = PRNG_SEED ^ 0x5a5a;
    chess_pos pos = fen(START_FEN);
    long accepted = 0;
    for (int iter = 0; iter < 60000; iter++) {
        if (iter % 40 == 0) {
            /* move on: a random legal move, or back to a start */
            chess_movelist list;
            if (chess_gen_legal(&pos, &list) == 0 || prng_next(&rng) % 50 == 0) {
                pos = fen(start_fens[prng_next(&rng) % (sizeof start_fens / sizeof start_fens[0])]);
            } else {
                chess_undo undo;
                chess_make(&pos, list.moves[prng_next(&rng) % (uint64_t)list.count], &undo);
            }
        }
        char text[24];
        int len;
        chess_movelist list;
        if (iter % 2 && chess_gen_legal(&pos, &list) > 0) {
            /* a legal move's text with one character replaced, inserted or dropped */
            chess_move m = list.moves[prng_next(&rng) % (uint64_t)list.count];
            len = chess_notation_format(&pos, m, (chess_notation)(prng_next(&rng) % 3), text, 16);
            int at = (int)(prng_next(&rng) % (uint64_t)(len + 1));
            char c = alphabet[prng_next(&rng) % (sizeof alphabet - 1)];
            switch (prng_next(&rng) % 4) {
            case 0:
                if (at < len)
                    text[at] = c;
                break;
            case 1:
                memmove(text + at + 1, text + at, (size_t)(len - at + 1));
                text[at] = c;
                len++;
                break;
            case 2:
                if (at < len) {
                    memmove(text + at, text + at + 1, (size_t)(len - at));
                    len--;
                }
                break;
            default:
                break; /* unchanged */
            }
        } else {
            len = (int)(prng_next(&rng) % 10);
            for (int i = 0; i < len; i++)
                text[i] = alphabet[prng_next(&rng) % (sizeof alphabet - 1)];
        }
        text[len] = '\0';
        san_result r;
        chess_pos before = pos;
        chess_san_parse(&pos, text, &r);
        assert_memory_equal(&before, &pos, sizeof pos);
        switch (r.status) {
        case SAN_OK:
            assert_true(chess_is_legal(&pos, r.move));
            accepted++;
            break;
        case SAN_AMBIGUOUS:
            assert_true(r.candidate_count >= 2);
            for (int i = 0; i < r.candidate_count && i < 8; i++)
                assert_true(chess_is_legal(&pos, r.candidates[i]));
            break;
        case SAN_ILLEGAL:
        case SAN_UNREADABLE:
            if (!r.reason[0])
                fail_msg("\"%s\": no reason", text);
            break;
        case SAN_NULL:
            break;
        default:
            fail_msg("\"%s\": bad status", text);
        }
    }
    assert_true(accepted > 5000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_canonical),
        cmocka_unit_test(test_null_moves),
        cmocka_unit_test(test_unreadable),
        cmocka_unit_test(test_lenient_castling),
        cmocka_unit_test(test_lenient_forms),
        cmocka_unit_test(test_lenient_promotion_ep),
        cmocka_unit_test(test_markers),
        cmocka_unit_test(test_illegal_reasons),
        cmocka_unit_test(test_illegal_reasons2),
        cmocka_unit_test(test_illegal_reasons3),
        cmocka_unit_test(test_ambiguity),
        cmocka_unit_test(test_over_disambiguation),
        cmocka_unit_test(test_format),
        cmocka_unit_test(test_chess960),
        cmocka_unit_test(test_round_trip_random),
        cmocka_unit_test(test_random_text),
        cmocka_unit_test(test_plain_reading_random),
        cmocka_unit_test(test_quick),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
