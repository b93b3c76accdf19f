/* variant.c: adapters from the generic variant table to each rules core. */
#include <config.h>

#include <string.h>

#include "core/chess.h"
#include "core/variant.h"
#include "core/xiangqi.h"

_Static_assert(sizeof(chess_pos) <= VARIANT_POS_SIZE, "chess_pos fits variant_pos");
_Static_assert(sizeof(xq_pos) <= VARIANT_POS_SIZE, "xq_pos fits variant_pos");
_Static_assert(sizeof(chess_undo) <= VARIANT_UNDO_SIZE, "chess_undo fits variant_undo");
_Static_assert(sizeof(xq_undo) <= VARIANT_UNDO_SIZE, "xq_undo fits variant_undo");

/* --- chess */

static bool chess_from_fen_v(void *pos, const char *fen, char *err, size_t errsize)
{
    return chess_pos_from_fen(pos, fen, err, errsize);
}

static void chess_to_fen_v(const void *pos, char *buf, size_t size)
{
    chess_pos_to_fen(pos, buf, size);
}

static int chess_gen_legal_v(const void *pos, uint16_t *moves)
{
    chess_movelist list;
    chess_gen_legal(pos, &list);
    memcpy(moves, list.moves, (size_t)list.count * sizeof moves[0]);
    return list.count;
}

static void chess_make_v(void *pos, uint16_t move, void *undo) { chess_make(pos, move, undo); }
static void chess_unmake_v(void *pos, uint16_t move, const void *undo) { chess_unmake(pos, move, undo); }
static bool chess_in_check_v(const void *pos) { return chess_in_check(pos); }
static bool chess_gives_check_v(const void *pos, uint16_t move) { return chess_gives_check(pos, move); }
static bool chess_gives_mate_v(const void *pos, uint16_t move)
{
    return chess_move_check_state(pos, move) == CHESS_CHECKMATE;
}

static uint64_t chess_key_v(const void *pos) { return chess_key(pos); }
static uint64_t chess_perft_v(void *pos, int depth) { return chess_perft(pos, depth); }
static void chess_move_text_v(const void *pos, uint16_t move, char *buf) { chess_move_to_uci(move, pos, buf); }

const variant variant_chess = {
    .name = "chess",
    .start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    .from_fen = chess_from_fen_v,
    .to_fen = chess_to_fen_v,
    .gen_legal = chess_gen_legal_v,
    .make = chess_make_v,
    .unmake = chess_unmake_v,
    .in_check = chess_in_check_v,
    .gives_check = chess_gives_check_v,
    .gives_mate = chess_gives_mate_v,
    .key = chess_key_v,
    .perft = chess_perft_v,
    .move_text = chess_move_text_v,
};

/* --- xiangqi */

static bool xq_from_fen_v(void *pos, const char *fen, char *err, size_t errsize)
{
    return xq_pos_from_fen(pos, fen, err, errsize);
}

static void xq_to_fen_v(const void *pos, char *buf, size_t size) { xq_pos_to_fen(pos, buf, size); }

static int xq_gen_legal_v(const void *pos, uint16_t *moves)
{
    xq_movelist list;
    xq_gen_legal(pos, &list);
    memcpy(moves, list.moves, (size_t)list.count * sizeof moves[0]);
    return list.count;
}

static void xq_make_v(void *pos, uint16_t move, void *undo) { xq_make(pos, move, undo); }
static void xq_unmake_v(void *pos, uint16_t move, const void *undo) { xq_unmake(pos, move, undo); }
static bool xq_in_check_v(const void *pos) { return xq_in_check(pos); }
static bool xq_gives_check_v(const void *pos, uint16_t move) { return xq_gives_check(pos, move); }
static bool xq_gives_mate_v(const void *pos, uint16_t move)
{
    xq_pos after = *(const xq_pos *)pos;
    xq_undo u;
    xq_make(&after, move, &u);
    return xq_is_checkmate(&after);
}

static uint64_t xq_key_v(const void *pos) { return xq_key(pos); }
static uint64_t xq_perft_v(void *pos, int depth) { return xq_perft(pos, depth); }

static void xq_move_text_v(const void *pos, uint16_t move, char *buf)
{
    (void)pos;
    xq_move_to_ucci(move, buf);
}

const variant variant_xiangqi = {
    .name = "xiangqi",
    .start_fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    .from_fen = xq_from_fen_v,
    .to_fen = xq_to_fen_v,
    .gen_legal = xq_gen_legal_v,
    .make = xq_make_v,
    .unmake = xq_unmake_v,
    .in_check = xq_in_check_v,
    .gives_check = xq_gives_check_v,
    .gives_mate = xq_gives_mate_v,
    .key = xq_key_v,
    .perft = xq_perft_v,
    .move_text = xq_move_text_v,
};

const variant *variant_by_name(const char *name)
{
    if (strcmp(name, "chess") == 0)
        return &variant_chess;
    if (strcmp(name, "xiangqi") == 0 || strcmp(name, "xq") == 0)
        return &variant_xiangqi;
    return NULL;
}
