/* web_reader.h: chess games embedded in Markdown and HTML articles (blogs, CMS).
 *
 * The PGN inside every wrapper blog tools use is read as PGN, with every place in the
 * article's own lines and columns:
 *   shortcodes   [pgn ...]...[/pgn], [pgnv], [pgne], [pgnb], [pgnp], [lpgnv],
 *                [ctpgn], [copgn] (WordPress plugins)
 *   elements     <pgn>, <pgn-reader>, <pgn-training-...> (JekyllChess),
 *                <ct-pgn-viewer> (ChessTempo), <div class="cbreplay"> (ChessBase),
 *                <textarea> whose attributes name pgn (pgn4web)
 *   fences       ```pgn, ```chess-pgn, ```chessboard-pgn (and ~~~)
 *   puzzles      <puzzle...> with "FEN:" and "Moves:" lines (JekyllChess)
 * HTML tags inside a wrapper are ignored (pgn4web strips them) and the common
 * entities (&amp; &lt; &gt; &quot; &#39; &nbsp;) read as their characters; a fence's
 * text is literal. Other code
 * fences and inline code are skipped: they show syntax, not games. Wrappers that
 * point at remote PGN (src=, data-url=, has-url, a puzzle's "PGN:" line) cannot be
 * checked offline and are only traced.
 *
 * Moves in prose: runs of numbered moves on one line (bold, headings, list items,
 * sentences; figurines for pieces) are each a game, started at the newest position of
 * the article's prose so far, else of its games' main lines, that the run's first
 * number and side name and from which it replays (prose-unplaced, info, when none lets its first move be played);
 * <fen>/[fen] diagrams are compared with the end of the run before them
 * (diagram-mismatch). */
#ifndef ARBITER_GRAMMAR_WEB_READER_H
#define ARBITER_GRAMMAR_WEB_READER_H

#include <stdio.h>

#include "record/arena.h"
#include "record/record.h"

typedef struct web_reader web_reader;

/* Read the article from in (not closed here); name is used in findings. */
web_reader *web_reader_open(FILE *in, const char *name);

/* The next game (1), end (0), or an error (-1, web_reader_error). */
int web_reader_next(web_reader *r, rec_game *g, arena *a);

/* After the referee: each finding of the game just read names its wrapper
 * ("... (in <pgn>)"). */
void web_reader_name_wrapper(const web_reader *r, rec_game *g);

const char *web_reader_error(const web_reader *r);

void web_reader_close(web_reader *r);

/* One line per wrapper ("LINE:COL <pgn> games N" or "... remote") and per prose run
 * ("LINE:COL prose placed|placed-error|unplaced"), for accounting. */
void web_reader_trace(web_reader *r, FILE *trace);

#endif
