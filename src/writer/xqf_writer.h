/* xqf_writer.h: xiangqi games as XQF files (one game a file).
 *
 * Version 0x12 by default, as XQStudio 1.63 writes it (../shared/reference/
 * xiangqi-databases.md §1.5-1.7): keys drawn from a seeded generator so that the same
 * input and seed give the same bytes, the key sum rule kept (XQStudio rejects a file
 * without it), the table rotated and scrambled, off-board pieces a random value from
 * 90 to 244, the root's squares 'X' 'Q', random low tag bits. Version 0x0A (XQF 1.0)
 * on request: no keys, 0xFF for off-board pieces, tags 0xF0/0x0F, every node with a
 * comment length.
 *
 * What is written: the header fields from the tags (Event, Site, Date, Red, Black,
 * Title, Subtitle, TimeRule (else TimeControl), RedTime, BlackTime, Annotator, Author;
 * the WXF keys EVENT, PLACE, DATE, RED, BLACK as well), texts in GBK cut to the field on a whole
 * character, the result, XQFType as the record type, the piece table and side to move
 * from the FEN tag, the whole tree (variations as siblings; a variation's own
 * alternatives become more siblings of the move it replaces), comments as CRLF lines
 * (the main line's opening comment on the root; a comment before a variation's first
 * move joins that move's). A move that did not replay is written when its text is
 * UCCI ("h2e2"); the rest of that line is left out otherwise. NAGs are not stored in
 * XQF. */
#ifndef ARBITER_WRITER_XQF_WRITER_H
#define ARBITER_WRITER_XQF_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "record/record.h"

typedef struct xqf_write_options {
    int version;             /* 0x12 (default when 0) or 0x0A */
    uint64_t seed;           /* for the keys and random bytes; 0: PRNG_SEED */
    bool strip_comments, strip_variations;
} xqf_write_options;

/* Write one replayed xiangqi game. Returns false with a message in err on a game XQF
 * cannot hold (chess; more pieces of a kind than the table has slots) or a write
 * error. *dropped (may be NULL) counts moves left out (unreadable after an error). */
bool xqf_write_game(FILE *out, const rec_game *g, const xqf_write_options *o,
                    unsigned *dropped, char *err, size_t errsize);

/* Shared with the DhtmlXQ writer (same slot order). The piece squares (10x + rank,
 * 0xFF off the board) and side (0 Red, 1 Black) of a FEN, or of the start when fen is
 * NULL; false with a message when the table cannot hold it. */
bool xqf_table_from_fen(const char *fen, uint8_t sq[32], int *side, char *err, size_t errsize);

#endif
