/* chess.c: chess positions: the start position, make/unmake (normal and null
 * moves) with incremental Zobrist keys, keys from scratch, UCI move text.
 * FEN lives in chess_fen.c, move generation in chess_movegen.c. */
#include "core/chess.h"

#include <stddef.h>
#include <string.h>

#include "core/chess_tables.h"

static inline void put_piece(chess_pos *pos, int sq, int pc)
{
    pos->board[sq] = (uint8_t)pc;
    pos->by_type[CHESS_PIECE_TYPE(pc)] |= CHESS_BB(sq);
    pos->by_color[CHESS_PIECE_COLOR(pc)] |= CHESS_BB(sq);
}

static inline void remove_piece(chess_pos *pos, int sq)
{
    int pc = pos->board[sq];
    pos->board[sq] = 0;
    pos->by_type[CHESS_PIECE_TYPE(pc)] ^= CHESS_BB(sq);
    pos->by_color[CHESS_PIECE_COLOR(pc)] ^= CHESS_BB(sq);
}

void chess_pos_start(chess_pos *pos)
{
    /* cannot fail, so no need to look at err */
    char err[8];
    chess_pos_from_fen(pos, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                       err, sizeof err);
}

void chess_pos_set_chess960(chess_pos *pos, bool on)
{
    pos->chess960 = on;
}

uint64_t chess_key(const chess_pos *pos)
{
    return pos->key;
}

uint64_t chess_key_compute(const chess_pos *pos)
{
    uint64_t key = chess_zobrist_castling[pos->castling];
    for (int sq = 0; sq < 64; sq++)
        if (pos->board[sq])
            key ^= chess_zobrist_piece[pos->board[sq]][sq];
    if (pos->side == CHESS_BLACK)
        key ^= chess_zobrist_side;
    if (chess_ep_capture_legal(pos))
        key ^= chess_zobrist_ep[pos->ep & 7];
    return key;
}

/* The piece pc (of colour us) from from to the empty square to: one update of each set. */
static inline void move_piece(chess_pos *pos, int from, int to, int pc)
{
    uint64_t both = CHESS_BB(from) | CHESS_BB(to);
    pos->board[from] = 0;
    pos->board[to] = (uint8_t)pc;
    pos->by_type[CHESS_PIECE_TYPE(pc)] ^= both;
    pos->by_color[CHESS_PIECE_COLOR(pc)] ^= both;
}

/* castle_rook, castling, ep and ep_in_key follow one another in a position and in an
 * undo record: 7 bytes, then side in the one and captured in the other.  They are saved
 * and restored as one 8-byte copy, not field by field. */
#define POS_STATE(pos) ((char *)(pos) + offsetof(chess_pos, castle_rook))
#define UNDO_STATE(undo) ((char *)(undo) + offsetof(chess_undo, castle_rook))
_Static_assert(offsetof(chess_pos, castling) == offsetof(chess_pos, castle_rook) + 4
                   && offsetof(chess_pos, ep) == offsetof(chess_pos, castle_rook) + 5
                   && offsetof(chess_pos, ep_in_key) == offsetof(chess_pos, castle_rook) + 6
                   && offsetof(chess_pos, side) == offsetof(chess_pos, castle_rook) + 7,
               "chess_pos: castle_rook, castling, ep, ep_in_key, side in a row");
_Static_assert(offsetof(chess_undo, castling) == offsetof(chess_undo, castle_rook) + 4
                   && offsetof(chess_undo, ep) == offsetof(chess_undo, castle_rook) + 5
                   && offsetof(chess_undo, ep_in_key) == offsetof(chess_undo, castle_rook) + 6
                   && offsetof(chess_undo, captured) == offsetof(chess_undo, castle_rook) + 7,
               "chess_undo: castle_rook, castling, ep, ep_in_key, captured in a row");

static void save_undo(const chess_pos *pos, chess_undo *undo)
{
    undo->key = pos->key;
    undo->halfmove = pos->halfmove;
    memcpy(UNDO_STATE(undo), POS_STATE(pos), 8); /* side lands on captured: */
    undo->captured = 0;
}

/* save_undo's fields back into pos; pos->side is set again by the caller. */
static void restore_undo(chess_pos *pos, const chess_undo *undo)
{
    pos->key = undo->key;
    pos->halfmove = undo->halfmove;
    memcpy(POS_STATE(pos), UNDO_STATE(undo), 8); /* captured lands on side */
}

/* A right is lost when its king or rook leaves its square or the rook is
 * captured there (FIDE Laws 3.8.2.1.1).  While a right is live its king is
 * still on its start square, so "from is that king's square" covers king
 * moves and castling. */
static uint64_t update_castling(chess_pos *pos, int from, int to)
{
    uint8_t old = pos->castling;
    /* only the live rights: a right's rook square is set exactly while it lives */
    for (unsigned live = old; live; live &= live - 1) {
        int r = __builtin_ctz(live);
        int rsq = pos->castle_rook[r];
        if (from == rsq || to == rsq || from == pos->king[r >> 1]) {
            pos->castle_rook[r] = -1;
            pos->castling &= (uint8_t)~(1u << r);
        }
    }
    return chess_zobrist_castling[old] ^ chess_zobrist_castling[pos->castling];
}

/* Castling's king and rook moves (the king from from to to); returns the key change.
 * Out of line: rare, and chess_make's usual path then saves fewer registers. */
static __attribute__((noinline)) uint64_t make_castle(chess_pos *pos, int from, int to,
                                                      const chess_undo *undo)
{
    int us = pos->side, pc = pos->board[from];
    int side = CHESS_FILE(to) == 6 ? CHESS_KINGSIDE : CHESS_QUEENSIDE;
    int rsq = undo->castle_rook[CHESS_CASTLE_INDEX(us, side)];
    int rdst = (to & 56) + (side == CHESS_KINGSIDE ? 5 : 3);
    int rook = CHESS_PIECE(CHESS_ROOK, us);
    /* lift both first: in Chess960 each may land on the other's square */
    remove_piece(pos, from);
    remove_piece(pos, rsq);
    put_piece(pos, to, pc);
    put_piece(pos, rdst, rook);
    pos->king[us] = (uint8_t)to;
    return chess_zobrist_piece[pc][from] ^ chess_zobrist_piece[pc][to]
           ^ chess_zobrist_piece[rook][rsq] ^ chess_zobrist_piece[rook][rdst];
}

/* The pawn on to becomes kind's piece; returns the key change.  Out of line: rare. */
static __attribute__((noinline)) uint64_t make_promotion(chess_pos *pos, int to, int kind)
{
    int pawn = pos->board[to], promo = CHESS_PIECE(kind - 2, CHESS_PIECE_COLOR(pawn));
    remove_piece(pos, to);
    put_piece(pos, to, promo);
    return chess_zobrist_piece[pawn][to] ^ chess_zobrist_piece[promo][to];
}

/* Any move but castling: the capture, the piece moved, a pawn's promotion or double
 * push, a king's square; returns the key change. */
static inline uint64_t make_plain(chess_pos *pos, int from, int to, int kind, chess_undo *undo)
{
    int pc = pos->board[from];
    uint64_t key = chess_zobrist_piece[pc][from] ^ chess_zobrist_piece[pc][to];
    int cap_sq = kind == CHESS_MOVE_EN_PASSANT ? to ^ 8 : to;
    int captured = pos->board[cap_sq];
    if (captured) {
        remove_piece(pos, cap_sq);
        key ^= chess_zobrist_piece[captured][cap_sq];
        undo->captured = (uint8_t)captured;
        pos->halfmove = 0;
    }
    move_piece(pos, from, to, pc);
    if (CHESS_PIECE_TYPE(pc) == CHESS_PAWN) {
        pos->halfmove = 0;
        if (kind >= CHESS_MOVE_PROMO_KNIGHT)
            key ^= make_promotion(pos, to, kind);
        else if (kind == CHESS_MOVE_DOUBLE_PUSH)
            pos->ep = (int8_t)((from + to) >> 1);
    } else if (CHESS_PIECE_TYPE(pc) == CHESS_KING) {
        pos->king[CHESS_PIECE_COLOR(pc)] = (uint8_t)to;
    }
    return key;
}

/* chess_make's work.  usual: m is a normal move (no castling, promotion, en passant or
 * double push), so that the code for the rest folds away. */
static inline __attribute__((always_inline)) void make_move(chess_pos *pos, chess_move m,
                                                            chess_undo *undo, bool usual)
{
    int from = chess_move_from(m), to = chess_move_to(m);
    int kind = usual ? CHESS_MOVE_NORMAL : chess_move_kind(m);
    uint64_t key = pos->key ^ chess_zobrist_side;

    save_undo(pos, undo);
    if (pos->ep_in_key)
        key ^= chess_zobrist_ep[pos->ep & 7];
    pos->ep = -1;
    pos->ep_in_key = false;
    pos->halfmove++;
    /* a live right's king and rook stand on their back rank */
    if (pos->castling && ((CHESS_BB(from) | CHESS_BB(to)) & (CHESS_RANK_BB(0) | CHESS_RANK_BB(7))))
        key ^= update_castling(pos, from, to);
    key ^= kind == CHESS_MOVE_CASTLE ? make_castle(pos, from, to, undo)
                                     : make_plain(pos, from, to, kind, undo);
    /* the full move count goes up after Black's move (CHESS_BLACK is 1) */
    pos->fullmove += pos->side;
    pos->side ^= 1;
    /* FIDE 9.2.2: the ep file counts only if the capture is really possible */
    if (!usual && pos->ep >= 0 && chess_ep_capture_legal(pos)) {
        pos->ep_in_key = true;
        key ^= chess_zobrist_ep[pos->ep & 7];
    }
    pos->key = key;
}

/* Any other move: out of line, so the usual move's path calls nothing and saves no
 * registers. */
static __attribute__((noinline)) void make_unusual(chess_pos *pos, chess_move m,
                                                   chess_undo *undo)
{
    make_move(pos, m, undo, false);
}

void chess_make(chess_pos *pos, chess_move m, chess_undo *undo)
{
    if (chess_move_kind(m) != CHESS_MOVE_NORMAL)
        make_unusual(pos, m, undo);
    else
        make_move(pos, m, undo, true);
}

void chess_unmake(chess_pos *pos, chess_move m, const chess_undo *undo)
{
    int from = chess_move_from(m), to = chess_move_to(m), kind = chess_move_kind(m);
    int us = pos->side ^ 1;

    pos->side = (uint8_t)us;
    if (us == CHESS_BLACK)
        pos->fullmove--;

    if (kind == CHESS_MOVE_CASTLE) {
        int side = CHESS_FILE(to) == 6 ? CHESS_KINGSIDE : CHESS_QUEENSIDE;
        int rsq = undo->castle_rook[CHESS_CASTLE_INDEX(us, side)];
        int rdst = (to & 56) + (side == CHESS_KINGSIDE ? 5 : 3);
        remove_piece(pos, to);
        remove_piece(pos, rdst);
        put_piece(pos, from, CHESS_PIECE(CHESS_KING, us));
        put_piece(pos, rsq, CHESS_PIECE(CHESS_ROOK, us));
        pos->king[us] = (uint8_t)from;
    } else {
        int pc = pos->board[to];
        if (kind >= CHESS_MOVE_PROMO_KNIGHT)
            pc = CHESS_PIECE(CHESS_PAWN, us);
        if (kind >= CHESS_MOVE_PROMO_KNIGHT) {
            remove_piece(pos, to);
            put_piece(pos, from, pc);
        } else {
            move_piece(pos, to, from, pc);
        }
        if (undo->captured)
            put_piece(pos, kind == CHESS_MOVE_EN_PASSANT ? to ^ 8 : to, undo->captured);
        if (CHESS_PIECE_TYPE(pc) == CHESS_KING)
            pos->king[us] = (uint8_t)from;
    }

    restore_undo(pos, undo);
    pos->side = (uint8_t)us;
}

void chess_make_null(chess_pos *pos, chess_undo *undo)
{
    save_undo(pos, undo);
    if (pos->ep_in_key)
        pos->key ^= chess_zobrist_ep[pos->ep & 7];
    pos->key ^= chess_zobrist_side;
    pos->ep = -1;
    pos->ep_in_key = false;
    pos->halfmove++;
    if (pos->side == CHESS_BLACK)
        pos->fullmove++;
    pos->side ^= 1;
}

void chess_unmake_null(chess_pos *pos, const chess_undo *undo)
{
    pos->side ^= 1;
    if (pos->side == CHESS_BLACK)
        pos->fullmove--;
    pos->key = undo->key;
    pos->halfmove = undo->halfmove;
    pos->ep = undo->ep;
    pos->ep_in_key = undo->ep_in_key;
}

void chess_square_name(int sq, char buf[3])
{
    buf[0] = (char)('a' + (sq & 7));
    buf[1] = (char)('1' + ((sq >> 3) & 7));
    buf[2] = '\0';
}

void chess_move_to_uci(chess_move m, const chess_pos *pos_before, char buf[6])
{
    int from = chess_move_from(m), to = chess_move_to(m);

    if (m == CHESS_MOVE_NONE) {
        /* the UCI spelling of a null move */
        memcpy(buf, "0000", 5);
        return;
    }
    if (chess_move_kind(m) == CHESS_MOVE_CASTLE && pos_before->chess960) {
        int side = CHESS_FILE(to) == 6 ? CHESS_KINGSIDE : CHESS_QUEENSIDE;
        int rsq = pos_before->castle_rook[CHESS_CASTLE_INDEX(pos_before->side, side)];
        if (rsq >= 0)
            to = rsq;
    }
    chess_square_name(from, buf);
    chess_square_name(to, buf + 2);
    if (chess_move_promotion(m)) {
        buf[4] = " pnbrqk"[chess_move_promotion(m)];
        buf[5] = '\0';
    }
}
