/* db_openings.h: the opening of a game, named by an opening table.
 *
 * Chess: the lichess opening table (data/chess-openings, CC0; compiled in by
 * gen_chess_openings.sh). The table's own rule: walk the main line and take the deepest
 * position that the table names, comparing positions, not move orders, so a
 * transposition finds its name. Positions are compared by Zobrist key, which holds
 * what the table's EPD holds: placement, side to move, castling rights, and the en
 * passant file only when an en passant capture is legal. Positions after more plies
 * than the table's longest line are not looked up (a late transposition into a named
 * position is not the opening that was played, and the walk stays short).
 *
 * Xiangqi: ECCO (db_ecco.h), for games from the standard start. */
#ifndef ARBITER_DB_OPENINGS_H
#define ARBITER_DB_OPENINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "database/db_rows.h"
#include "record/record.h"

/* One row of an opening table: code, name ("Opening: Variation, Subvariation") and
 * the moves from the standard start (SAN, without move numbers). The two texts are
 * offsets into one string, not pointers: pointers would cost every run, used or not,
 * 11,400 relocations at load and the 23 pages they write (about 0.5 ms a process). */
typedef struct db_opening_line {
    char eco[4];
    uint32_t name, moves; /* offsets into db_chess_opening_text */
} db_opening_line;

/* The lichess table, in its own order (generated), and the text of its rows. */
extern const db_opening_line db_chess_opening_lines[];
extern const size_t db_chess_opening_line_count;
extern const char db_chess_opening_text[];

static inline const char *db_opening_line_name(const db_opening_line *row)
{
    return db_chess_opening_text + row->name;
}

static inline const char *db_opening_line_moves(const db_opening_line *row)
{
    return db_chess_opening_text + row->moves;
}

/* The table's index from position key to the first row naming it, made at build time
 * by gen_opening_slots (which replays every row with the core's move generator and
 * keys), and its facts: distinct positions named, the plies of the longest line. */
#define DB_OPENING_SLOTS 8192 /* a power of two, over twice the table's 3,807 rows */
extern const db_row_slot db_chess_opening_slots[DB_OPENING_SLOTS];
extern const size_t db_chess_opening_positions;
extern const int db_chess_opening_max_plies;

/* A one-bit-per-key filter of the same positions, 8 KB that stay in the first-level
 * cache: most positions of a game's first plies are named by no row, and the filter
 * says so without touching the 128 KB index (a set bit may still be another key's). */
#define DB_OPENING_FILTER_BITS 65536
extern const uint64_t db_chess_opening_filter[DB_OPENING_FILTER_BITS / 64];

static inline bool db_opening_filter_may_hold(uint64_t key)
{
    unsigned bit = (unsigned)(key >> 48); /* high bits: the index uses the low ones */
    return (db_chess_opening_filter[bit >> 6] >> (bit & 63)) & 1;
}

/* The row naming the deepest position of g's main line (after the referee replayed
 * it), or NULL: none named, a Chess960 game, or a start the referee could not set. */
const db_opening_line *db_openings_chess(const rec_game *g);

/* The length of the opening part of a table name (up to its ':'), and the variation
 * after it (NULL when the name has none). */
size_t db_opening_name_length(const char *name);
const char *db_opening_variation(const char *name);

/* Classify g (either kind) into g->opening_eco/_name/_variation; with check_eco, an
 * eco-mismatch finding (info) when the game's ECO (chess) or ECCO (xiangqi) tag is a
 * well-formed code other than the table's. */
void db_openings_classify(rec_game *g, bool check_eco);

/* convert --add-opening: classify g and write its ECO (xiangqi: ECCO), Opening and
 * Variation tags. A game that has any of the three keeps them as they are (one
 * classification, never a mix of two) unless replace; replace drops them first.
 * Returns whether tags were written. */
bool db_openings_add_tags(rec_game *g, bool replace);

#endif
