/* tex_reader.h: chess games inside a LaTeX document (skak, xskak, chess.sty).
 *
 * The reader reads the whole document (books are chapters of kilobytes), follows the
 * commands that carry moves or positions, and hands out each game as a rec_game the
 * referee replays like any PGN game, every place in it (moves, comments, findings)
 * in the document's own lines and columns.
 *
 * A game: \newgame, \newchessgame[...] (id, setfen, moveid/movenr/player, newvar,
 * setwhite/addwhite/setblack/addblack, white, black, result, event, site, date,
 * round), \fenboard{FEN}, \restoregame{name} or \resumechessgame[id=..,moveid=..]
 * start one; its main line is every \mainline{} and \hidemoves{} after that, with any
 * prose between. \variation{} is placed by skak's rule under \usepackage{skak} (the
 * position before the last main-line move) and otherwise by xskak inference (the end
 * of the last variation, then the main line newest first, then earlier variations; the
 * first from which the whole sequence replays, else the one that replays furthest).
 * A variation that starts at a main-line position inside the game becomes a PGN
 * variation of that game; any other becomes a game of its own from its start FEN.
 *
 * The reader's own findings:
 *   variation-unplaced   info: no position the sequence could start from
 *   variation-start      error (skak): the variation does not start at skak's
 *                        rollback point (LaTeX stops there)
 *   diagram-mismatch     warning: a \fenboard, \chessboard[setfen=], or a "%FEN@"
 *                        comment, that matches no position of the game's main line
 *   print-move           warning: \wmove/\bmove prints a move the side cannot play at
 *                        any position of the game so far
 *   syntax-error         a token in a move argument that no PGN reader could take
 *   bad-fen              error: a FEN in a command that does not parse
 *
 * Sources coordinates: every move keeps the byte offset of its text in the document
 * (tex_item.off), so suggestions and fixes can be written back in place. */
#ifndef ARBITER_GRAMMAR_TEX_READER_H
#define ARBITER_GRAMMAR_TEX_READER_H

#include <stdio.h>

#include "record/arena.h"
#include "record/record.h"

typedef struct tex_reader tex_reader;

/* Read the document from in (not closed here); name is used in findings and must
 * outlive the reader. NULL when out of memory. */
tex_reader *tex_reader_open(FILE *in, const char *name);

/* The next game (1), end (0), or an I/O error (-1, tex_reader_error). */
int tex_reader_next(tex_reader *r, rec_game *g, arena *a);

/* After the referee: each finding inside a move command's argument says which
 * command ("... (in \variation)"). */
void tex_reader_name_commands(const tex_reader *r, rec_game *g);

const char *tex_reader_error(const tex_reader *r);

void tex_reader_close(tex_reader *r);

/* How each \mainline, \hidemoves and \variation was taken, one line per sequence
 * ("LINE:COL \variation placed|own-game|unplaced|main"), for accounting tests; set
 * before the first tex_reader_next. */
void tex_reader_trace(tex_reader *r, FILE *trace);

#endif
