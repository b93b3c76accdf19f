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
 * the common ply copies no board. The history holds one position per ply, so an entry's
 * ply is the first entry's plus its index.
 *
 * A position comes back four plies later at the soonest (each side must take a man
 * away and back), so none can stand a fifth time (9.6.1) in the first
 * CHESS_REP_LAZY_MAX entries: there the common ply only writes a key and a move, and the
 * occurrences are counted when they are asked for (chess_rep_settle) or when the
 * history grows past that. A short history is then searched by scanning its keys; a
 * long one through an open-addressing table keyed by the Zobrist key, so a ply costs one
 * probe there. Memory comes from the game's arena. */
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
    int prev;                /* index of the previous occurrence of the same position, -1 */
    int count;               /* occurrences of this position up to and including this one */
    chess_move move;         /* the quiet move from the entry before (none for the first) */
} chess_rep_entry;

/* prev and count of the entries below settled only: see chess_rep_settle. */
typedef struct chess_rep {
    arena *a;
    chess_rep_entry *e;      /* the positions since the last irreversible move */
    int n, cap;
    int settled;             /* entries whose prev and count are known */
    int first_ply;           /* plies played from the game's start when entry 0 stood */
    int32_t *slot;           /* index + 1 into e, 0 = empty; size mask + 1; kept only
                              * while the history is long (chess_rules.c) */
    uint32_t mask;
    int max_count;           /* the most occurrences of any settled position */
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
/* Up to this many positions the history does not count occurrences as it grows: the
 * fifth occurrence of a position is entry 16 at the soonest (chess_rep_add). */
#define CHESS_REP_LAZY_MAX 16

/* chess_rep_add when the history is past CHESS_REP_LAZY_MAX entries or its array is
 * full. */
const chess_rep_entry *chess_rep_add_slow(chess_rep *r, const chess_pos *pos, chess_move move);

/* Record pos as the newest position of a history that has one already; move is the
 * move that led to it from the newest entry: a quiet move of a piece other than a pawn,
 * which loses no castling right and leaves no en passant right (else chess_rep_restart
 * is the call). Returns the entry with its count (how many times this position has
 * stood, this time included), or NULL while the history is too short for any count to
 * reach 5: the counts wait for chess_rep_settle then. Inline: the referee adds a
 * position at more than half its plies, and the usual one only stores a key and a
 * move. */
static inline const chess_rep_entry *chess_rep_add(chess_rep *r, const chess_pos *pos,
                                                   chess_move move)
{
    /* entry n (from 0) is the position after n quiet plies; a position stands again
     * after four of them at the soonest, so its fifth occurrence is entry 16 or later */
    if (r->n >= CHESS_REP_LAZY_MAX || r->n == r->cap)
        return chess_rep_add_slow(r, pos, move);
    chess_rep_entry *e = &r->e[r->n++];
    e->key = pos->key;
    e->move = move;
    return NULL;
}

/* The first position of a history whose arrays do not exist yet. */
void chess_rep_start(chess_rep *r, const chess_pos *pos, int ply);

/* chess_rep_clear, then pos as the first position after ply plies: the history after
 * an irreversible move (a capture, a pawn move, a lost castling right), or a line's
 * first position. Inline: a third of the referee's plies start a history again. */
static inline void chess_rep_restart(chess_rep *r, const chess_pos *pos, int ply)
{
    if (r->cap == 0) {
        chess_rep_start(r, pos, ply);
        return;
    }
    chess_rep_clear(r);
    r->first_ply = ply;
    r->first_ep_file = chess_ident_ep_file(pos);
    r->e[0].key = pos->key;
    r->e[0].move = CHESS_MOVE_NONE;
    r->n = 1;
}

/* Count the occurrences of the entries not counted yet (their prev and count, and
 * max_count); pos is the newest entry's position. Before prev, count or max_count are
 * read. */
void chess_rep_settle(chess_rep *r, const chess_pos *pos);

/* The newest entry, or NULL for an empty history. */
static inline const chess_rep_entry *chess_rep_newest(const chess_rep *r)
{
    return r->n ? &r->e[r->n - 1] : NULL;
}

/* The ply at which entry e stood. */
static inline int chess_rep_ply(const chess_rep *r, const chess_rep_entry *e)
{
    return r->first_ply + (int)(e - r->e);
}

/* The latest earlier occurrence of pos, or NULL, without recording it; move leads to pos
 * from the newest entry, as for chess_rep_add. */
const chess_rep_entry *chess_rep_find(const chess_rep *r, const chess_pos *pos,
                                      chess_move move);

/* The plies of every occurrence of the position of entry e, oldest first, into plies
 * (at most max); returns how many were written. The history settled. */
int chess_rep_plies(const chess_rep *r, const chess_rep_entry *e, int *plies, int max);

#endif
