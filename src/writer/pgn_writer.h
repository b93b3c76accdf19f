/* pgn_writer.h: chess games in PGN export format (PGN standard §3.2, §8).
 *
 * Seven Tag Roster first, the other tags in ASCII order; movetext in canonical SAN (or
 * LAN / UCI on request) regenerated from the resolved moves, so checks, mates and
 * disambiguation are right whatever the input said; suffix annotations as NAGs; lines
 * of at most 79 characters; comments with their whitespace folded, so that converting
 * the output again gives the same bytes. A line that stopped at a bad move keeps the
 * rest, as written, in a comment. */
#ifndef ARBITER_WRITER_PGN_WRITER_H
#define ARBITER_WRITER_PGN_WRITER_H

#include <stdbool.h>
#include <stdio.h>

#include "notation/chess_letters.h"
#include "notation/chess_san.h"
#include "notation/xq_notation.h"
#include "record/record.h"

typedef struct pgn_write_options {
    chess_notation notation;     /* for chess games */
    chess_letters letters;       /* SAN's piece letters (English by default) */
    xqn_notation xq_notation;    /* for xiangqi games (xiangqi PGN, xqbase style) */
    unsigned xq_style;           /* xqn_style flags */
    bool strip_comments, strip_nags, strip_variations;
} pgn_write_options;

/* A notation's name (convert -n): for chess san, lan, uci, san-ru, ..., figurine (into
 * notation and letters); for xiangqi wxf, vi, chinese, iccs, ucci, fsf-uci, winboard,
 * fsf-san (into xq_notation; *xiangqi set true). False for anything else. */
bool pgn_write_notation_from_name(const char *name, pgn_write_options *w, bool *xiangqi);

/* Write one replayed game (after referee_chess_game). Returns false on a write error. */
bool pgn_write_game(FILE *out, const rec_game *g, const pgn_write_options *opts);

#endif
