/* chess.h: the chess rules core: positions, FEN in and out, legal moves,
 * make/unmake, check, mate, Zobrist keys and perft, for standard chess and
 * Chess960.  It never sees move text; notation/ turns text into chess_move.
 *
 * Squares: a1 = 0, b1 = 1, ..., h8 = 63; file = sq & 7, rank = sq >> 3.
 *
 * Initialisation: none.  The attack and key tables are constant data made at
 * build time (chess_tables.h), so any thread may call anything at any time.
 *
 * Castling moves are encoded as kind CHESS_MOVE_CASTLE with from = the king's
 * square and to = the king's destination (g1/c1/g8/c8), in standard chess and
 * in Chess960 alike.  The kind bits keep this unambiguous even when the king
 * does not move or moves one square (Chess960), and the rook's square comes
 * from the position's castling rights. */
#ifndef ARBITER_CORE_CHESS_H
#define ARBITER_CORE_CHESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum chess_color { CHESS_WHITE = 0, CHESS_BLACK = 1 };

/* 0 means "no piece" */
enum chess_piece_type {
    CHESS_PAWN = 1, CHESS_KNIGHT, CHESS_BISHOP, CHESS_ROOK, CHESS_QUEEN, CHESS_KING
};

/* A piece code is type | (color << 3); 0 is an empty square.  Codes fit in
 * 4 bits, so tables indexed by piece code have 16 rows. */
#define CHESS_PIECE(type, color) ((type) | ((color) << 3))
#define CHESS_PIECE_TYPE(pc) ((pc) & 7)
#define CHESS_PIECE_COLOR(pc) ((pc) >> 3)

#define CHESS_SQ(file, rank) ((rank) * 8 + (file))
#define CHESS_FILE(sq) ((sq) & 7)
#define CHESS_RANK(sq) ((sq) >> 3)

/* Castling: one right per colour and side, index color * 2 + side; the bit of
 * right r in chess_pos.castling is 1 << r. */
enum chess_castle_side { CHESS_KINGSIDE = 0, CHESS_QUEENSIDE = 1 };
#define CHESS_CASTLE_INDEX(color, side) ((color) * 2 + (side))

/* Move: from (6 bits) | to (6 bits) << 6 | kind (4 bits) << 12. */
typedef uint16_t chess_move;
#define CHESS_MOVE_NONE 0

enum chess_move_kind {
    CHESS_MOVE_NORMAL = 0,
    CHESS_MOVE_DOUBLE_PUSH = 1,   /* pawn two squares: sets the en passant square */
    CHESS_MOVE_EN_PASSANT = 2,
    CHESS_MOVE_CASTLE = 3,        /* to = king's destination, see the top comment */
    CHESS_MOVE_PROMO_KNIGHT = 4,  /* promotion kinds are 2 + the piece type */
    CHESS_MOVE_PROMO_BISHOP = 5,
    CHESS_MOVE_PROMO_ROOK = 6,
    CHESS_MOVE_PROMO_QUEEN = 7
};

static inline chess_move chess_move_make(int from, int to, int kind)
{
    return (chess_move)(from | (to << 6) | (kind << 12));
}
static inline int chess_move_from(chess_move m) { return m & 63; }
static inline int chess_move_to(chess_move m) { return (m >> 6) & 63; }
static inline int chess_move_kind(chess_move m) { return m >> 12; }
/* promoted piece type, or 0 for a move that is not a promotion */
static inline int chess_move_promotion(chess_move m)
{
    return chess_move_kind(m) >= CHESS_MOVE_PROMO_KNIGHT ? chess_move_kind(m) - 2 : 0;
}

/* Outside the core a position is read only through the accessors further down.  A file
 * that defines ARBITER_OPAQUE_POSITIONS before its includes (every file of notation/
 * does) sees the fields under other names, so touching one there does not compile. */
#ifdef ARBITER_OPAQUE_POSITIONS
#define CHESS_POS_FIELD(name) name##_core_only
#else
#define CHESS_POS_FIELD(name) name
#endif

/* A position.  Invariants: board[], by_type[], by_color[] and king[] always
 * agree; castle_rook[r] >= 0 exactly when bit r of castling is set (a lost
 * right forgets its rook, so equal positions have equal castling bytes); key
 * is the Zobrist key of the position as chess_key_compute() defines it. */
typedef struct chess_pos {
    uint64_t CHESS_POS_FIELD(by_type)[7];     /* [t] = squares holding type t, both colours; [0] unused */
    uint64_t CHESS_POS_FIELD(by_color)[2];    /* squares holding each colour's pieces */
    uint64_t CHESS_POS_FIELD(key);            /* Zobrist key, updated incrementally by make/unmake */
    uint8_t CHESS_POS_FIELD(board)[64];       /* piece code per square, 0 = empty */
    int8_t CHESS_POS_FIELD(castle_rook)[4];   /* rook's square per right (color*2+side), -1 = no right */
    uint8_t CHESS_POS_FIELD(castling);        /* live rights as a bit set, 1 << (color*2+side) */
    int8_t CHESS_POS_FIELD(ep);               /* en passant square after any double push, -1 = none */
    bool CHESS_POS_FIELD(ep_in_key);          /* an en passant capture is legal, so the key holds ep's file */
    uint8_t CHESS_POS_FIELD(side);            /* colour to move */
    uint8_t CHESS_POS_FIELD(king)[2];         /* each king's square */
    bool CHESS_POS_FIELD(chess960);           /* write Shredder-FEN castling and king-takes-rook UCI */
    int CHESS_POS_FIELD(halfmove);            /* plies since the last capture or pawn move */
    int CHESS_POS_FIELD(fullmove);            /* starts at 1, incremented after Black's move */
} chess_pos;

/* What make cannot recompute when it is undone. */
typedef struct chess_undo {
    uint64_t key;
    int halfmove;
    int8_t castle_rook[4];
    uint8_t castling;
    int8_t ep;
    bool ep_in_key;
    uint8_t captured;        /* piece code taken, 0 if none */
} chess_undo;

typedef struct chess_movelist {
    chess_move moves[256];   /* 218 is the most any legal position has */
    int count;
} chess_movelist;

void chess_pos_start(chess_pos *pos);

/* Parse FEN, X-FEN (KQkq meaning the outermost rook) and Shredder-FEN
 * (file letters AHah) castling.  The halfmove and fullmove fields may be
 * absent (then 0 and 1).  Returns true on success; on failure *pos is
 * unspecified and err receives one line saying what is wrong and where.
 * Never crashes, whatever the bytes; input over CHESS_FEN_MAX bytes is
 * refused. */
#define CHESS_FEN_MAX 255
bool chess_pos_from_fen(chess_pos *pos, const char *fen, char *err, size_t errsize);

/* How castling rights are read.  AUTO (what chess_pos_from_fen does): X-FEN
 * and Shredder-FEN, and the position is flagged chess960 when a right needs
 * it (king off the e-file, rook off the corner) or file letters are used.
 * STANDARD: only rights standard chess can have (king on e1/e8, corner rook;
 * K/Q/k/q or A/H/a/h); anything else is an error.  CHESS960: as AUTO, and the
 * position is always flagged chess960. */
enum chess_fen_mode { CHESS_FEN_AUTO = 0, CHESS_FEN_STANDARD, CHESS_FEN_CHESS960 };
bool chess_pos_from_fen_mode(chess_pos *pos, const char *fen, int mode, char *err,
                             size_t errsize);

/* Canonical FEN into buf (100 bytes are always enough).  The en passant
 * square is written after every double push, whether or not a capture is
 * possible, as the PGN standard (8.1.3.4) says; castling is written KQkq
 * unless the position is flagged chess960, then as Shredder letters (HAha). */
#define CHESS_FEN_BUFSIZE 100
void chess_pos_to_fen(const chess_pos *pos, char *buf, size_t size);

/* Mark a position as Chess960 (PGN Variant tag) or not; only notation and
 * FEN output change. */
void chess_pos_set_chess960(chess_pos *pos, bool on);

int  chess_gen_legal(const chess_pos *pos, chess_movelist *list);  /* returns count */
bool chess_is_legal(const chess_pos *pos, chess_move m);           /* m is one of them */
void chess_make(chess_pos *pos, chess_move m, chess_undo *undo);   /* m must be legal */
void chess_unmake(chess_pos *pos, chess_move m, const chess_undo *undo);
/* Pass the move (e.g. "--" in PGN); the caller checks it is not made in check. */
void chess_make_null(chess_pos *pos, chess_undo *undo);
void chess_unmake_null(chess_pos *pos, const chess_undo *undo);

bool chess_in_check(const chess_pos *pos);                         /* side to move */
bool chess_square_attacked(const chess_pos *pos, int sq, int by_color);
uint64_t chess_attackers(const chess_pos *pos, int sq, int by_color); /* bitboard */
uint64_t chess_checkers(const chess_pos *pos);                     /* pieces giving check */
/* Squares a piece of type (CHESS_KNIGHT..CHESS_KING; a pawn: its captures) and color on
 * sq attacks, with occ as the blockers. The tables exist once any position was made. */
uint64_t chess_piece_attacks(int type, int color, int sq, uint64_t occ);
/* Reading a position: notation/ and referee/ use these, never the fields. */
static inline int chess_piece_at(const chess_pos *pos, int sq)    /* piece code, 0 empty */
{
    return sq >= 0 && sq < 64 ? pos->CHESS_POS_FIELD(board)[sq] : 0;
}
static inline int chess_pos_side(const chess_pos *pos) { return pos->CHESS_POS_FIELD(side); }
static inline int chess_king_square(const chess_pos *pos, int color) { return pos->CHESS_POS_FIELD(king)[color]; }
/* squares of color's pieces of type (CHESS_PAWN..CHESS_KING) */
static inline uint64_t chess_pieces(const chess_pos *pos, int color, int type)
{
    return pos->CHESS_POS_FIELD(by_type)[type] & pos->CHESS_POS_FIELD(by_color)[color];
}
static inline uint64_t chess_color_pieces(const chess_pos *pos, int color)
{
    return pos->CHESS_POS_FIELD(by_color)[color];
}
static inline uint64_t chess_occupied(const chess_pos *pos)
{
    return pos->CHESS_POS_FIELD(by_color)[0] | pos->CHESS_POS_FIELD(by_color)[1];
}
/* the en passant square after a double push (whether or not a capture is legal), or -1 */
static inline int chess_ep_square(const chess_pos *pos) { return pos->CHESS_POS_FIELD(ep); }
/* the rook's square of color's castling right on side, or -1 when the right is gone */
static inline int chess_castle_rook(const chess_pos *pos, int color, int side)
{
    return pos->CHESS_POS_FIELD(castle_rook)[CHESS_CASTLE_INDEX(color, side)];
}
static inline bool chess_pos_is_chess960(const chess_pos *pos) { return pos->CHESS_POS_FIELD(chess960); }

/* Questions about one move, answered without making it (chess_query.c).
 * A pseudo-legal move: the side to move's piece on from moving as its type may
 * (pawn pushes to empty squares, captures of the other side's pieces or en
 * passant onto the ep square, castling with a live right and a clear path). */
uint64_t chess_attackers_occ(const chess_pos *pos, int sq, int by_color, uint64_t occ);
/* by_color's pieces of type that attack sq (a piece on sq itself excluded) */
uint64_t chess_attackers_of_type(const chess_pos *pos, int sq, int by_color, int type);
/* The other side's pieces that would attack the mover's king after the pseudo-legal
 * move m (for castling: the king's destination); 0 means m is legal, except that
 * castling must also not start in or pass through check (asked separately). */
uint64_t chess_king_attackers_after(const chess_pos *pos, chess_move m);
bool chess_move_legal(const chess_pos *pos, chess_move m);         /* pseudo-legal m */
/* The same answer for a pseudo-legal m when the caller knows the side to move is not in
 * check (e.g. the last move gave none): most moves are then settled without the attack
 * tables. Wrong answers follow if the side to move is in check. */
bool chess_move_legal_unchecked(const chess_pos *pos, chess_move m);
bool chess_gives_check(const chess_pos *pos, chess_move m);        /* legal m */
enum chess_check_state { CHESS_NO_CHECK = 0, CHESS_CHECK = 1, CHESS_CHECKMATE = 2 };
int  chess_move_check_state(const chess_pos *pos, chess_move m);   /* legal m */
/* Both questions about a pseudo-legal m in one call: -1 when it is illegal, else its
 * chess_move_check_state.  no_check as for chess_move_legal_unchecked: true only when the
 * side to move is known not to be in check. */
int  chess_move_settle(const chess_pos *pos, chess_move m, bool no_check);
/* chess_move_settle in one value for a quick caller: -1 when m is illegal, else
 * m | check_state << 16. */
int32_t chess_settle_packed(const chess_pos *pos, chess_move m, bool no_check);
/* The usual SAN piece move: the side to move's only piece of type (KNIGHT..KING) that
 * reaches to, settled as chess_settle_packed does; -1 also when none or several reach
 * to. to must not hold a piece of the side to move. */
int32_t chess_settle_piece_move(const chess_pos *pos, int type, int to, bool no_check);
/* The castling move to side (CHESS_KINGSIDE, CHESS_QUEENSIDE) of the side to move when it
 * is legal, else CHESS_MOVE_NONE; only for a side to move known not to be in check, which
 * castling also needs (asked separately). */
chess_move chess_castle_move_unchecked(const chess_pos *pos, int side);
bool chess_is_checkmate(const chess_pos *pos);
bool chess_is_stalemate(const chess_pos *pos);
/* Both questions with one move generation: CHESS_END_NONE when pos has a legal move. */
enum chess_end_state { CHESS_END_NONE = 0, CHESS_END_CHECKMATE, CHESS_END_STALEMATE };
int  chess_end_state(const chess_pos *pos);

/* 64-bit Zobrist key.  The en passant file is hashed only when an en passant
 * capture is legal for the side to move: FIDE Laws of Chess (2023) 9.2.2 say
 * positions are the same only if the same moves are possible in each, so
 * after 1.e4 the key equals that of the same position without an ep square. */
uint64_t chess_key(const chess_pos *pos);
uint64_t chess_key_compute(const chess_pos *pos);  /* from scratch, for checks */
/* Whether the side to move has a legal en passant capture. */
bool chess_ep_capture_legal(const chess_pos *pos);

/* "e2e4", "e7e8q"; castling as king-from king-to (e1g1) in standard
 * positions, king-takes-rook (e1h1) in positions flagged chess960. */
void chess_move_to_uci(chess_move m, const chess_pos *pos_before, char buf[6]);
void chess_square_name(int sq, char buf[3]);

/* Leaf nodes at depth; depth 1 returns the legal move count (bulk counting). */
uint64_t chess_perft(chess_pos *pos, int depth);

#endif
