/* pgn_reader.h: read PGN games one at a time from a stream.
 *
 * The reader turns a byte stream (UTF-8, or Latin-1/Windows-1252 strings and comments
 * which it transcodes; CRLF; a BOM) into rec_game trees, one per call, in constant
 * memory: all per-game data goes into the arena the caller passes, and the reader keeps
 * only its scanner buffer and a bounded text buffer between games.
 *
 * Every game-looking chunk of input yields exactly one game, however broken; what is
 * wrong is in the game's findings, with line, column (characters) and byte offset:
 *   syntax-error           unexpected text, control characters, NAG > 255, unmatched ')',
 *                          a result inside a variation, NAG/e.p./variation with no move
 *   unterminated-comment   '{' without '}' (at the '{')
 *   unterminated-variation '(' without ')' (at the '(')
 *   missing-result         no termination marker (just after the last token)
 *   bad-tag                no value, unterminated value, missing ']', duplicate name,
 *                          tag in the movetext
 *   encoding               text that is not UTF-8 (warning, once per game); a BOM (info)
 *   comment-too-long       comment or tag value over 1 MiB, cut (warning)
 * Move text stays as written (SAN, LAN, "0-0", "--", "Z0"), without suffix annotations
 * (they become NAGs) and without "e.p." (rec_node.ep_written). */
#ifndef ARBITER_GRAMMAR_PGN_READER_H
#define ARBITER_GRAMMAR_PGN_READER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "record/arena.h"
#include "record/record.h"

typedef struct pgn_reader pgn_reader;

/* Read games from in (not closed by the reader); name is used in findings ("-" for
 * stdin) and must outlive the reader. NULL when out of memory. */
pgn_reader *pgn_reader_open(FILE *in, const char *name);

/* The same, the bytes read by read(source, ...) instead of from in (which nothing else
 * may read while the reader lives): into the scanner's buffer with no copy out of a
 * stdio buffer. read returns the bytes read, 0 at the end, -1 on an error (errno set). */
pgn_reader *pgn_reader_open_source(FILE *in, ssize_t (*read)(void *source, char *buf, size_t size),
                                   void *source, const char *name);

/* Read games from the len bytes at text, scanned where they are (no stream, no copy):
 * text must have room for two bytes more, which become the scanner's end marks, and
 * its bytes are the reader's (the scanner ends its tokens with a NUL in place, and
 * puts the byte back) until it is closed. NULL when out of memory. */
pgn_reader *pgn_reader_open_buffer(char *text, size_t len, const char *name);

/* Parse the next game into *game, allocating from a (which the caller resets between
 * games). Returns 1 when a game was read (always, even a broken one: it then carries
 * findings), 0 at end of input, -1 on an I/O error (message via pgn_reader_error). */
int pgn_reader_next(pgn_reader *r, rec_game *game, arena *a);

/* The last I/O error, or "" when there was none. */
const char *pgn_reader_error(const pgn_reader *r);

void pgn_reader_close(pgn_reader *r);

/* For a reader of one piece of a larger input (parallel check): the piece starts a
 * line; offset and line are those of its first byte in the whole input, bom_seen
 * whether the input had a byte-order mark before it. Call before the first
 * pgn_reader_next. */
void pgn_reader_set_start(pgn_reader *r, uint64_t offset, uint32_t line, bool bom_seen);

/* After pgn_reader_next returned 0: true when the input ended on a game boundary, so
 * that a reader of the whole input would have read the same games up to there and
 * begun the next one afresh: the last game ended with its result (nothing but blanks
 * after it) or had movetext and met the end (as it would meet the next tag section). */
bool pgn_reader_ended_cleanly(const pgn_reader *r);

#endif
