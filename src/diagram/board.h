/* board.h: a position to draw, taken from a game record, and what is drawn over it.
 *
 * The diagram writers (svg.h, text_board.h) draw a dg_board; this module makes one
 * from a replayed game: the position after any ply of the main line, or at each
 * "DIAG{ #n COLOR }" marker of a WXF record (rec_comment.diagram), with the last move
 * and the coloured squares and arrows of [%csl]/[%cal] comment commands (PGN
 * Specification Supplement) written after that move. */
#ifndef ARBITER_DIAGRAM_BOARD_H
#define ARBITER_DIAGRAM_BOARD_H

#include <stdbool.h>
#include <stddef.h>

#include "core/chess.h"
#include "core/xiangqi.h"
#include "record/record.h"

#define DG_MAX_MARKS 64

typedef struct dg_mark {
    char color;          /* 'R', 'G', 'Y', 'B' */
    int from, to;        /* points of the board (dg_board numbering); to = -1: a square */
} dg_mark;

/* Points are rank * files + file, rank 0 at the bottom (White's / Red's side) as in the
 * cores: chess a1 = 0, xiangqi a0 = 0. Pieces are the cores' codes (type | colour << 3). */
typedef struct dg_board {
    rec_game_kind kind;
    int files, ranks;
    unsigned char piece[XQ_SQUARES];
    int side;            /* side to move: 0 White/Red, 1 Black */
    unsigned fullmove;
    int ply;             /* plies of the main line played to get here */
    int last_from, last_to;  /* the move that led here, or -1 */
    int mark_count;
    dg_mark marks[DG_MAX_MARKS];
    char fen[XQ_FEN_MAX];
    char caption[256];   /* "title — where in the game", UTF-8 */
} dg_board;

void dg_board_from_xiangqi(dg_board *b, const xq_pos *pos);
void dg_board_from_chess(dg_board *b, const chess_pos *pos);

/* Add the [%csl]/[%cal] marks of a comment list (squares named as the game's
 * coordinates: a1..h8 for chess, a0..i9 for xiangqi). */
void dg_board_add_marks(dg_board *b, arena *a, const rec_comment *comments);

/* The position after ply plies of g's main line (0: the start; -1: after the last
 * replayed move), with the last move and the marks of the comments after it. False,
 * with the reason in err, when the game has no such ply or its start is unusable. */
bool dg_board_at_ply(const rec_game *g, int ply, dg_board *b, char *err, size_t errsize);

/* Called for each DIAG marker of the main line, in order, with the position there;
 * return false to stop. */
typedef bool (*dg_marker_fn)(const rec_game *g, const rec_comment *marker, const dg_board *b,
                             void *ctx);

/* Walk g's main line making the replayed moves and call fn at every DIAG marker
 * (markers after a move the referee could not play are skipped). Returns the number
 * of markers seen, or -1 when fn asked to stop. */
int dg_for_each_marker(const rec_game *g, dg_marker_fn fn, void *ctx);

/* Append text to the caption, cut at a character boundary when it does not fit. */
void dg_caption_append(dg_board *b, const char *text);

/* The character of a piece: Chinese for xiangqi (帥仕相傌俥炮兵 / 將士象馬車砲卒),
 * the Unicode chess glyph for chess; ascii: the FEN letter instead. */
const char *dg_piece_glyph(rec_game_kind kind, int piece, bool ascii);

#endif
