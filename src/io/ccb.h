/* ccb.h: what the CCBridge (象棋桥) readers share: UTF-16 text, the board and its FEN,
 * square texts, and a tree builder for moves that come depth first.
 *
 * Layouts: ../shared/reference/database-maintenance.md §4. The readers are io/cbr.h
 * (single records, and the records inside a library), io/cbl.h (libraries, plain and
 * compressed) and io/cbf.h (the XML form). */
#ifndef ARBITER_IO_CCB_H
#define ARBITER_IO_CCB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record/arena.h"
#include "record/record.h"

/* Piece codes of a CBR board: 0x10 | k for Red, 0x20 | k for Black, k = 1..7 for
 * rook, horse, elephant, advisor, king, cannon, pawn; 0 empty. */
#define CCB_RED 0x10
#define CCB_BLACK 0x20

/* A span holding only a byte offset (binary input: no lines). */
static inline rec_span ccb_at(uint64_t off)
{
    rec_span s = {0, 0, off};
    return s;
}

/* n bytes of UTF-16LE at s as UTF-8 in the arena, up to the first NUL character when
 * to_nul; CR LF becomes LF. *bad (may be NULL) is set when a unit was not valid
 * UTF-16 (written as U+FFFD). Never NULL; "" for no text. */
char *ccb_utf16(arena *a, const unsigned char *s, size_t n, bool to_nul, bool *bad);

/* The FEN of a 90-square board (square = row * 9 + column, row 0 Black's back rank)
 * with Red (side 0) or Black (1) to move and the move number, in the arena; NULL for
 * the standard start with Red to move at move 1. *bad: a square held a code that is
 * no piece (left empty). */
char *ccb_board_fen(arena *a, const uint8_t board[90], int side, unsigned move_number, bool *bad);

/* The UCCI text ("h2e2") of a move between squares (row * 9 + column), in the arena;
 * "?" and the two numbers when a square is off the board. */
const char *ccb_move_text(arena *a, int from, int to);

/* The game result tag for a CCBridge result code (0 unknown, 1 Red wins, 2 Black wins,
 * 3 draw), "*" for anything else. */
const char *ccb_result(unsigned code);

/* Builds a move tree from nodes that arrive depth first, each saying whether a
 * continuation and an alternative follow (the CBR and XQF order: a move, its
 * continuation subtree, then its alternatives). */
typedef struct ccb_tree {
    rec_game *g;
    arena *a;
    rec_node *parent;        /* NULL: the next continuation is the main line's first move */
    rec_node *anchor;        /* non-NULL: the next node is an alternative to this one */
    rec_node **stack;        /* anchors of alternatives still to come */
    size_t depth, cap;
    bool done;               /* the tree is complete */
    uint32_t moves, variations, comments;
} ccb_tree;

void ccb_tree_init(ccb_tree *t, rec_game *g, arena *a);
/* Add the next move (the root is not a move: put its comment on g->main). child: a
 * continuation follows; sibling: an alternative to this move follows after its
 * subtree. Sets t->done when no node can follow. */
rec_node *ccb_tree_add(ccb_tree *t, const char *text, rec_span where, bool child, bool sibling);
/* After the root: whether any move follows (a root with no continuation ends it). */
void ccb_tree_root(ccb_tree *t, bool child);
/* Append a comment to a node (or to the main line when n is NULL). */
void ccb_comment(ccb_tree *t, rec_node *n, const char *text, rec_span where);

#endif
