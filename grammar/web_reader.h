/* web_reader.h: the syntax of Markdown and HTML articles that hold chess (blogs, CMS).
 *
 * A web_doc is the article in memory cut into blocks, each with its byte offsets:
 *   shortcodes   [pgn ...]...[/pgn], [pgnv], [pgne], [pgnb], [pgnp], [lpgnv],
 *                [ctpgn], [copgn] (WordPress plugins)
 *   elements     <pgn>, <pgn-reader>, <pgn-training-...> (JekyllChess),
 *                <ct-pgn-viewer> (ChessTempo), <div class="cbreplay"> (ChessBase),
 *                <textarea> whose attributes name pgn (pgn4web)
 *   fences       ```pgn, ```chess-pgn, ```chessboard-pgn (and ~~~)
 *   puzzles      <puzzle...> with "FEN:" and "Moves:" lines (JekyllChess)
 *   diagrams     <fen>X</fen>, [fen]X[/fen]
 *   prose runs   numbered moves on one line (bold, headings, list items, sentences;
 *                figurines for pieces), as a move_run
 * HTML tags inside a wrapper are ignored (pgn4web strips them) and the common entities
 * (&amp; &lt; &gt; &quot; &#39; &nbsp;) read as their characters; a fence's text is
 * literal. Other code fences and inline code are skipped: they show syntax, not games.
 * Wrappers that point at remote PGN (src=, data-url=, has-url) cannot be checked
 * offline: they are blocks of their own kind. Where a prose run goes and what a
 * diagram is compared with is the document layer's (src/document/web_document.c). */
#ifndef ARBITER_GRAMMAR_WEB_READER_H
#define ARBITER_GRAMMAR_WEB_READER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "doc_map.h"
#include "move_run.h"

typedef enum { WEB_PGN, WEB_PUZZLE, WEB_PROSE, WEB_FEN, WEB_REMOTE } web_block_kind;

typedef struct web_block {
    web_block_kind kind;
    move_run run;            /* WEB_PROSE: its numbers and moves (figurines as letters) */
    bool raw;                /* a code fence: its text is literal, no tags or entities */
    char *fen;               /* WEB_FEN: the diagram, leading blanks off */
    uint64_t open;           /* the wrapper's first byte */
    uint64_t body, end;      /* its content */
    char what[40];           /* the wrapper as named in traces: "<pgn>", "[pgn]", "```pgn" */
} web_block;

typedef struct web_doc {
    doc_map m;               /* the article, and the PGN text of a block */
    web_block *blocks;
    size_t nblocks;
} web_doc;

/* Cut the article loaded in m (doc_map_load) into blocks; false when out of memory. */
bool web_doc_find_blocks(web_doc *d);
void web_doc_free(web_doc *d);

/* The body from..to as PGN text: tags blanked (same length), each entity one
 * character mapped to the entity's bytes, "([D])" a comment. */
void web_put_body(web_doc *d, uint64_t from, uint64_t to);

/* A puzzle's "FEN:" and "Moves:" lines as a PGN game. */
typedef enum { WEB_PUZZLE_OK, WEB_PUZZLE_REMOTE, WEB_PUZZLE_EMPTY } web_puzzle;
web_puzzle web_put_puzzle(web_doc *d, const web_block *b);

#endif
