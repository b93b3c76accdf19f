/* wxf_reader.h: read xiangqi WXF records, alone or inside an article, one at a time.
 *
 * WXF_INPUT_WXF reads a WXF file: records of a FORMAT line, header lines
 * ("KEY value"), an optional SETUP{...} block and a START{ ... }END move block. A
 * FORMAT line at the start of a line begins a new record (as does a header line after
 * "}END"). WXF_INPUT_ARTICLE reads free text with records inside "[game]...[/game]";
 * text outside blocks is ignored, each block is exactly one game, and an evaluation
 * symbol right after "[/game]" ("[b]∞[/b]", same line or the next) belongs to it.
 * Every position (nodes, comments, tags, findings) is line, column (characters) and
 * byte offset in the input as given, the article included.
 *
 * The tree (record/record.h), kind REC_XIANGQI:
 *   tags       FORMAT and every header key as written (GAME RED BLACK DATE PLACE ROUND
 *              RESULT EVENT FEN ...), value trimmed; a SETUP{} block becomes a "FEN"
 *              tag ("<placement> w|b - - 0 <move>") or, when it cannot, a "SETUP" tag
 *              with the raw text.
 *   main line  the moves of START{ }END as written (never checked here); number is the
 *              move number written before a move, number_dots3 marks a Black-only entry
 *              ("3…X9.1", "7. … P2-1", "7...").
 *   NAGs       "! ? !! ?? !? ?!" glued to or after a move, evaluation symbols after a
 *              move; after "}END" (or after "[/game]") they go to game->game_nags.
 *   comments   "/ * ... * /" (without the delimiters, verbatim, CR kept): where is the
 *              "/" of the opener, so the text starts two columns (bytes) later;
 *              "DIAG{ #3 RED }" is a comment with diagram = true and text "#3 RED".
 *   result     a result token (1-0, 0-1, 1/2-1/2, *) inside the move block, else the
 *              RESULT key's value (with its position): what the record declares.
 *
 * Findings (code, severity, where):
 *   syntax-error         error: unexpected text (in the header, outside or after the
 *                        move block), control characters (NUL...), a move number or
 *                        NAG with no move, START{ inside the block, }END without
 *                        START{, a second FORMAT in one article block
 *   unterminated-block   error: START{ without }END (at START{), SETUP{ or DIAG{
 *                        without '}', [game] without [/game] (at [game])
 *   unterminated-comment error: "/ *" without "* /" (at the opener); the comment ends at
 *                        the end of the record, at "}END", or at a FORMAT line
 *   bad-tag              warning: a header key repeated (both kept)
 *   bad-fen              warning: a SETUP{} block that cannot be turned into a FEN
 *   encoding             warning: text that is not UTF-8 (read as Latin-1), once a game
 *   comment-too-long     warning: a comment or value over 1 MiB, cut
 *   empty-block          warning: an article block with nothing in it */
#ifndef ARBITER_GRAMMAR_WXF_READER_H
#define ARBITER_GRAMMAR_WXF_READER_H

#include <stdio.h>
#include <sys/types.h>

#include "io/article.h"
#include "record/arena.h"
#include "record/record.h"

typedef enum { WXF_INPUT_WXF, WXF_INPUT_ARTICLE } wxf_input;

typedef struct wxf_reader wxf_reader;

/* Read records from in (not closed by the reader); name is used in findings ("-" for
 * stdin) and must outlive the reader. NULL when out of memory. */
wxf_reader *wxf_reader_open(FILE *in, const char *name, wxf_input kind);

/* A WXF file (WXF_INPUT_WXF) read by read(source, ...) instead of from in, as
 * pgn_reader_open_source: straight into the scanner's buffer. */
wxf_reader *wxf_reader_open_source(FILE *in, ssize_t (*read)(void *source, char *buf, size_t size),
                                   void *source, const char *name);

/* Parse the next game into *game, allocating from a (which the caller resets between
 * games). Returns 1 when a game was read (always, even a broken one: it then carries
 * findings), 0 at end of input, -1 on an I/O error (message via wxf_reader_error). */
int wxf_reader_next(wxf_reader *r, rec_game *game, arena *a);

/* The last I/O error, or "" when there was none. */
const char *wxf_reader_error(const wxf_reader *r);

void wxf_reader_close(wxf_reader *r);

#endif
