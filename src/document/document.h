/* document.h: games inside documents people write — LaTeX books and articles,
 * Markdown and HTML pages — read the way their typesetting packages and blog
 * readers show them.
 *
 * The readers in grammar/ (tex_reader.h, web_reader.h) give the syntax: commands with
 * their arguments, wrappers, prose move runs, each with byte offsets. The document
 * layer does what the packages do with them: a game across many \mainline calls,
 * where each variation or prose run starts, diagrams against positions, going on after
 * a move with one certain fix. It asks the notation, the rules and fixit about moves
 * (doc_play.h) and hands each game out as a rec_game whose every place (moves,
 * comments, findings) is in the document's own lines and columns. See
 * tex_document.h and web_document.h for what each kind reads and finds. */
#ifndef ARBITER_DOCUMENT_DOCUMENT_H
#define ARBITER_DOCUMENT_DOCUMENT_H

#include <stdio.h>

#include "record/arena.h"
#include "record/record.h"

typedef enum { DOC_LATEX, DOC_WEB } doc_kind;

typedef struct doc_reader doc_reader;

/* Read the document from in (not closed here) when the first game is asked for; name
 * is used in findings and must outlive the reader. NULL when out of memory. */
doc_reader *doc_reader_open(FILE *in, const char *name, doc_kind kind);

/* The next game (1), end (0), or an error (-1, doc_reader_error). */
int doc_reader_next(doc_reader *r, rec_game *g, arena *a);

/* After the referee, on the game just read: each finding names the command or wrapper
 * it is in ("... (in \variation)", "... (in <pgn>)"); a LaTeX book's suggestions go
 * back into its piece letters. */
void doc_reader_name_places(const doc_reader *r, rec_game *g);

const char *doc_reader_error(const doc_reader *r);

void doc_reader_close(doc_reader *r);

/* How each move command, wrapper and prose run was taken, one line each ("LINE:COL
 * \variation placed", "LINE:COL <pgn> games 2", "LINE:COL prose unplaced"), for the
 * accounting tests; set before the first doc_reader_next. */
void doc_reader_trace(doc_reader *r, FILE *trace);

#endif
