/* xiangqi.h: the xiangqi (Chinese chess) rules core.
 *
 * Board, FEN in and out, pseudo-legal and legal move generation, make/unmake,
 * check, mate, stalemate, Zobrist keys and perft. It never sees move text: the
 * notation modules turn text into xq_move values against an xq_pos.
 *
 * Rules follow the Vietnamese law (seeds/001, "Luật cờ tướng"), cited as
 * "Art. N" in comments: Art. 4.3 piece movement, Art. 5 capture, Art. 6 check,
 * Art. 7.1 win by mate or by the opponent having no move (stalemate loses).
 *
 * Coordinates are UCCI: sq = rank * 9 + file, file 0..8 = a..i from Red's left,
 * rank 0..9 from Red's back rank. Red's general starts on e0 (4), Black's on e9 (85). */
#ifndef ARBITER_CORE_XIANGQI_H
#define ARBITER_CORE_XIANGQI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define XQ_FILES 9
#define XQ_RANKS 10
#define XQ_SQUARES 90
#define XQ_SQ(file, rank) ((rank) * XQ_FILES + (file))
#define XQ_FILE(sq) ((sq) % XQ_FILES)
#define XQ_RANK(sq) ((sq) / XQ_FILES)

enum xq_color { XQ_RED = 0, XQ_BLACK = 1 };

/* 0 means "no piece" */
enum xq_piece_type {
    XQ_GENERAL = 1, XQ_ADVISOR, XQ_ELEPHANT, XQ_HORSE, XQ_CHARIOT, XQ_CANNON, XQ_SOLDIER
};

/* A piece code is type | (color << 3); 0 is an empty point. */
#define XQ_PIECE(type, color) ((type) | ((color) << 3))
#define XQ_TYPE(piece) ((piece) & 7)
#define XQ_COLOR(piece) ((piece) >> 3)

/* A move is from (7 bits) | to (7 bits) << 7. A real move never has from == to,
 * so 0 is free to mean "no move". */
typedef uint16_t xq_move;
#define XQ_MOVE_NONE ((xq_move)0)

/* Enough for every position: pseudo-legal moves are at most 2 chariots and
 * 2 cannons x 17, 2 horses x 8, elephants 4 + 2, advisors 4 + 1, general 4,
 * soldiers 5 x 3 = 114. */
#define XQ_MAX_MOVES 128

/* Buffer size that always holds xq_pos_to_fen's output. */
#define XQ_FEN_MAX 128

/* Outside the core a position is read only through the accessors further down; see
 * ARBITER_OPAQUE_POSITIONS in chess.h (every file of notation/ defines it). */
#ifdef ARBITER_OPAQUE_POSITIONS
#define XQ_POS_FIELD(name) name##_core_only
#else
#define XQ_POS_FIELD(name) name
#endif

/* Position. Invariants: board[] holds piece codes; plist[c][0..count[c]-1] are
 * the points of colour c's pieces, in no fixed order, and list_index[sq] is
 * the position of sq in its side's list (0 for empty points); unused slots of
 * plist are 0, so equal positions reached by make/unmake compare equal bytewise. */
typedef struct xq_pos {
    uint8_t XQ_POS_FIELD(board)[XQ_SQUARES];      /* piece code on each point, 0 empty */
    uint8_t XQ_POS_FIELD(list_index)[XQ_SQUARES]; /* index into plist[colour of piece] */
    uint8_t XQ_POS_FIELD(plist)[2][16];           /* points of each side's pieces */
    uint8_t XQ_POS_FIELD(count)[2];               /* number of pieces per side */
    uint8_t XQ_POS_FIELD(general)[2];             /* point of each side's general */
    uint8_t XQ_POS_FIELD(side);                   /* side to move, enum xq_color */
    uint8_t XQ_POS_FIELD(pad_);                   /* always 0 (keeps bytewise comparison exact) */
    uint16_t XQ_POS_FIELD(halfmove);              /* plies since the last capture */
    uint32_t XQ_POS_FIELD(fullmove);              /* move number, starts at 1, +1 after Black */
    uint64_t XQ_POS_FIELD(key);                   /* Zobrist key, kept incrementally */
} xq_pos;

/* What make needs to undo a move and cannot recompute. */
typedef struct xq_undo {
    uint64_t key;      /* key before the move */
    uint16_t halfmove; /* clock before the move */
    uint8_t captured;  /* piece code taken, 0 for none */
    uint8_t cap_index; /* its index in the opponent's piece list */
} xq_undo;

typedef struct xq_movelist {
    xq_move moves[XQ_MAX_MOVES];
    int count;
} xq_movelist;

/* Why a move is not legal; xq_move_check() answers with one of these. */
enum xq_verdict {
    XQ_LEGAL = 0,
    XQ_ILLEGAL_OFF_BOARD,       /* a point outside 0..89 */
    XQ_ILLEGAL_NULL,            /* from == to */
    XQ_ILLEGAL_NO_PIECE,        /* nothing on the from point */
    XQ_ILLEGAL_NOT_YOUR_PIECE,  /* the piece belongs to the side not to move */
    XQ_ILLEGAL_OWN_CAPTURE,     /* Art. 5.2: own piece on the target */
    XQ_ILLEGAL_GEOMETRY,        /* the piece does not move that way (Art. 4.3) */
    XQ_ILLEGAL_PALACE,          /* Art. 4.3a-b: general or advisor leaving the palace */
    XQ_ILLEGAL_RIVER,           /* Art. 4.3c: elephant crossing the river */
    XQ_ILLEGAL_ELEPHANT_EYE,    /* Art. 4.3c: elephant blocked on the midpoint */
    XQ_ILLEGAL_HORSE_LEG,       /* Art. 4.3e: horse blocked on its leg */
    XQ_ILLEGAL_PATH_BLOCKED,    /* Art. 4.3d/g: chariot or non-capturing cannon blocked */
    XQ_ILLEGAL_CANNON_SCREEN,   /* Art. 4.3g: cannon capture without exactly one screen */
    XQ_ILLEGAL_SOLDIER_BACKWARD,/* Art. 4.3h: soldiers never retreat */
    XQ_ILLEGAL_SOLDIER_SIDEWAYS,/* Art. 4.3h: sideways only after crossing the river */
    XQ_ILLEGAL_FLYING_GENERAL,  /* Art. 4.3a: the move leaves the generals facing */
    XQ_ILLEGAL_SELF_CHECK,      /* Art. 6: the move exposes the own general */
    XQ_ILLEGAL_CHECK_NOT_MET    /* Art. 6.2: in check, and the move does not answer it */
};

/* Start position (Art. 3). */
void xq_pos_start(xq_pos *pos);

/* Parse a FEN: 10 ranks from Black's back rank (rank 9) down, Red upper case;
 * letters K A B/E N/H R C P; side w, r (Red) or b; fields 3-4 "- -" optional;
 * halfmove and fullmove optional. Validates the position (one general each in
 * its palace, pieces on reachable points, counts, generals not facing, side not
 * to move not in check). Returns true on success; otherwise pos is unspecified
 * and err (if errsize > 0) holds a one-line message. Safe on any input. */
bool xq_pos_from_fen(xq_pos *pos, const char *fen, char *err, size_t errsize);

/* Write the FEN with letters K A B N R C P, side w/b and "- - halfmove fullmove".
 * XQ_FEN_MAX bytes always suffice. */
void xq_pos_to_fen(const xq_pos *pos, char *buf, size_t size);

/* Moves. */
xq_move xq_move_make(int from, int to);
int xq_move_from(xq_move m);
int xq_move_to(xq_move m);
void xq_move_to_ucci(xq_move m, char buf[5]);  /* "h2e2" + NUL, ranks 0-9 */
xq_move xq_move_from_ucci(const char *text);   /* XQ_MOVE_NONE if not 4 valid chars */

/* Pseudo-legal moves: piece movement, palace, river, elephant eye, horse leg and
 * cannon screen obeyed; own-general safety not tested. Returns the count. */
int xq_gen_pseudo(const xq_pos *pos, xq_movelist *list);
/* Legal moves; returns the count. */
int xq_gen_legal(const xq_pos *pos, xq_movelist *list);
bool xq_is_legal(const xq_pos *pos, xq_move m);
/* The reason a move is illegal (the first rule it breaks), or XQ_LEGAL. */
enum xq_verdict xq_move_check(const xq_pos *pos, xq_move m);
const char *xq_verdict_text(enum xq_verdict v);

/* Make a legal move; unmake restores the position exactly (bytewise). */
void xq_make(xq_pos *pos, xq_move m, xq_undo *undo);
void xq_unmake(xq_pos *pos, xq_move m, const xq_undo *undo);

/* The side to move's general is attacked; generals facing on an open file
 * count as an attack (Art. 4.3a). */
bool xq_in_check(const xq_pos *pos);
/* Point sq is attacked by a piece of by_color (a capture by_color could make,
 * own-general safety ignored); the generals' face-off counts when sq holds the
 * other general. */
bool xq_square_attacked(const xq_pos *pos, int sq, int by_color);
/* Questions about a pseudo-legal move m of the side to move, answered on the board as m
 * would leave it, without playing it: xq_move_legal, m leaves the mover's general
 * unattacked (the face-off counting, Art. 4.3a); xq_gives_check, m attacks the other
 * general (direct, discovered through a chariot's or cannon's line, a new cannon
 * screen, a freed horse leg). xq_general_attacked_after: the general of `color` is
 * attacked once from-to is played. */
bool xq_move_legal(const xq_pos *pos, xq_move m);
bool xq_gives_check(const xq_pos *pos, xq_move m);
bool xq_general_attacked_after(const xq_pos *pos, int color, int from, int to);
/* Reading a position: notation/ and referee/ use these, never the fields. */
static inline int xq_piece_at(const xq_pos *pos, int sq)  /* 0 for empty or off-board */
{
    return sq >= 0 && sq < XQ_SQUARES ? pos->XQ_POS_FIELD(board)[sq] : 0;
}
static inline int xq_pos_side(const xq_pos *pos) { return pos->XQ_POS_FIELD(side); }
static inline int xq_general_square(const xq_pos *pos, int color) { return pos->XQ_POS_FIELD(general)[color]; }
/* color's pieces: their number, and the point of the i-th (0 <= i < count; the order is
 * the position's own, fixed for a given history) */
static inline int xq_piece_count(const xq_pos *pos, int color) { return pos->XQ_POS_FIELD(count)[color]; }
static inline int xq_piece_square(const xq_pos *pos, int color, int i) { return pos->XQ_POS_FIELD(plist)[color][i]; }
bool xq_has_legal_move(const xq_pos *pos);
/* No legal move and in check: the side to move lost (Art. 7.1a, c). */
bool xq_is_checkmate(const xq_pos *pos);
/* No legal move and not in check: also a loss for the side to move (Art. 7.1b). */
bool xq_is_stalemate(const xq_pos *pos);

/* Zobrist key (fixed seed, see prng.h), kept incrementally by make/unmake. */
uint64_t xq_key(const xq_pos *pos);
/* The same key computed from scratch (for checks and tests). */
uint64_t xq_key_compute(const xq_pos *pos);

/* Leaf count to depth; depth 1 is the legal move count (bulk counting). */
uint64_t xq_perft(xq_pos *pos, int depth);

#endif
