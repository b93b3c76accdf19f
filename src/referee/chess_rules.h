/* chess_rules.h: position identity and repetition counts for the chess referee.
 *
 * FIDE Laws of Chess (2023) 9.2.2: positions are the same when the same player is to
 * move, the same pieces stand on the same squares and the same moves are possible:
 * castling rights (9.2.2.2) and an en passant capture only when one is legal (9.2.2.1)
 * are part of a position. The core's Zobrist key already follows that reading
 * (chess_pos.key); a key hit is confirmed on the positions themselves, never the key
 * alone.
 *
 * A history holds the positions since the last irreversible move (capture, pawn move,
 * loss of a castling right): no position before one can come back. So every move inside
 * a history is a quiet move of a piece other than a pawn (castling loses a right), and a
 * position of the history is the newest one with those moves taken back. An entry keeps
 * its key and the move that led to it, not its board: a key hit (a repetition, or
 * rarely a collision) is confirmed on the board rebuilt by taking the moves back, so
 * the common ply copies no board. A short history (the usual case) is searched by
 * scanning its keys; a long one through an open-addressing table keyed by the Zobrist
 * key, so a ply costs one probe there. Memory comes from the game's arena. */
#ifndef ARBITER_REFEREE_CHESS_RULES_H
#define ARBITER_REFEREE_CHESS_RULES_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core/chess.h"
#include "record/arena.h"

/* What makes a position the same position (9.2.2), for an exact comparison. */
typedef struct chess_ident {
    uint8_t board[64];
    uint8_t castling;        /* rights (9.2.2.2) */
    uint8_t side;
    int8_t ep_file;          /* file of a legal en passant capture (9.2.2.1), or -1 */
} chess_ident;

typedef struct chess_rep_entry {
    uint64_t key;
    int ply;                 /* plies played from the game's start when it stood */
    int prev;                /* index of the previous occurrence of the same position, -1 */
    int count;               /* occurrences of this position up to and including this one */
    chess_move move;         /* the quiet move from the entry before (none for the first) */
} chess_rep_entry;

typedef struct chess_rep {
    arena *a;
    chess_rep_entry *e;      /* the positions since the last irreversible move */
    int n, cap;
    int32_t *slot;           /* index + 1 into e, 0 = empty; size mask + 1; kept only
                              * while the history is long (chess_rules.c) */
    uint32_t mask;
    int max_count;           /* the most occurrences of any position in the history */
    int8_t first_ep_file;    /* the first position's legal en passant file (9.2.2.1), or
                              * -1; the later ones follow quiet moves, which leave none */
} chess_rep;

/* The file of pos's legal en passant capture (9.2.2.1), or -1. */
static inline int8_t chess_ident_ep_file(const chess_pos *pos)
{
    return pos->ep_in_key ? (int8_t)(pos->ep & 7) : (int8_t)-1;
}

/* The identity of pos (9.2.2), for tests and comparisons outside the history. */
static inline void chess_ident_of(const chess_pos *pos, chess_ident *id)
{
    memcpy(id->board, pos->board, sizeof id->board);
    id->castling = pos->castling;                                      /* 9.2.2.2: rights */
    id->side = pos->side;
    id->ep_file = chess_ident_ep_file(pos);                            /* 9.2.2.1 */
}
bool chess_ident_equal(const chess_ident *a, const chess_ident *b);

/* An empty history. */
void chess_rep_init(chess_rep *r, arena *a);
/* A copy of src (for a variation that branches off a line), in a's memory. */
void chess_rep_copy(chess_rep *dst, const chess_rep *src, arena *a);
/* Forget every position: an irreversible move was made. */
void chess_rep_clear(chess_rep *r);
/* Whether the move that led from before to after is irreversible for repetitions:
 * a capture or pawn move (halfmove clock reset) or a lost castling right. */
bool chess_rep_irreversible(const chess_pos *before, const chess_pos *after);

/* Up to this many positions a backward scan of the keys is cheaper than the table: most
 * histories stay this short (a capture or pawn move empties them), so the table is built
 * only for a long run of reversible moves, and kept up from then on. */
#define CHESS_REP_SCAN_MAX 32

/* Write entry n for pos, reached by move, after ply plies, its previous occurrence
 * being prev (or -1). */
static inline chess_rep_entry *chess_rep_put(chess_rep *r, const chess_pos *pos,
                                             chess_move move, int ply, int prev)
{
    chess_rep_entry *e = &r->e[r->n];
    e->key = pos->key;
    e->move = move;
    e->ply = ply;
    e->prev = prev;
    e->count = prev >= 0 ? r->e[prev].count + 1 : 1;
    if (e->count > r->max_count)
        r->max_count = e->count;
    r->n++;
    return e;
}

/* Whether entry k is pos (9.2.2), pos being the position move leads to from the newest
 * entry: called on a key hit only. */
bool chess_rep_same(const chess_rep *r, int k, const chess_pos *pos, chess_move move);

/* chess_rep_add when the history is empty or long (the table), its array is full or a
 * key hit needs confirming. */
const chess_rep_entry *chess_rep_add_slow(chess_rep *r, const chess_pos *pos, chess_move move,
                                          int ply);

/* Record pos as standing after ply plies; move is the move that led to it from the
 * newest entry: a quiet move of a piece other than a pawn, which loses no castling right
 * and leaves no en passant right (else the history must be cleared first, or
 * chess_rep_restart used), or anything when the history is empty.
 * Returns the entry (its count says how many times this position has stood, this time
 * included). Inline: the referee adds a position every ply, and a short history (the
 * usual one) is a scan of a few keys; a key hit, rare, is left to chess_rep_add_slow,
 * so that the scan calls nothing. The history holds one position per ply, so the sides
 * to move alternate and only every second entry, counted back from the newest, can be
 * pos with the same side to move. */
static inline const chess_rep_entry *chess_rep_add(chess_rep *r, const chess_pos *pos,
                                                   chess_move move, int ply)
{
    /* n - 1 wraps for an empty history: its first position is the slow path's */
    if ((unsigned)r->n - 1u >= CHESS_REP_SCAN_MAX - 1u || r->n == r->cap)
        return chess_rep_add_slow(r, pos, move, ply);
    for (int k = r->n - 2; k >= 0; k -= 2)
        if (r->e[k].key == pos->key)
            return chess_rep_add_slow(r, pos, move, ply);
    return chess_rep_put(r, pos, move, ply, -1);
}

/* chess_rep_clear, then pos as the first position after ply plies: the history after
 * an irreversible move (a capture, a pawn move, a lost castling right). Inline: a
 * third of the referee's plies start a history again. */
static inline const chess_rep_entry *chess_rep_restart(chess_rep *r, const chess_pos *pos,
                                                       int ply)
{
    chess_rep_clear(r);
    if (r->cap == 0)
        return chess_rep_add_slow(r, pos, CHESS_MOVE_NONE, ply);
    r->first_ep_file = chess_ident_ep_file(pos);
    return chess_rep_put(r, pos, CHESS_MOVE_NONE, ply, -1);
}

/* The latest earlier occurrence of pos, or NULL, without recording it; move leads to pos
 * from the newest entry, as for chess_rep_add. */
const chess_rep_entry *chess_rep_find(const chess_rep *r, const chess_pos *pos,
                                      chess_move move);

/* The plies of every occurrence of the position of entry e, oldest first, into plies
 * (at most max); returns how many were written. */
int chess_rep_plies(const chess_rep *r, const chess_rep_entry *e, int *plies, int max);

#endif
