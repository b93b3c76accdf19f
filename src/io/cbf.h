/* cbf.h: CBF records (CCBridge's XML form of a game).
 *
 * Layout: ../shared/reference/database-maintenance.md §4. UTF-8 (with or without a
 * BOM), root ChineseChessRecord; Head holds the game data as child elements, MoveList
 * holds Move elements whose value is "cr-cr" (column 0-8 from the left, row 0-9 from
 * the top); the first Move is the root ("00-00") and carries the opening comment; a
 * comment is the element's text (CDATA); end="1" marks the last move of the line.
 *
 * Tags: Name -> Title, Contest -> Event, RedRating/BlackRating -> RedElo/BlackElo,
 * Commentator -> Annotator, RecordResult -> Result (0-3 as in CBR), FEN when not the
 * standard start with Red to move; every other Head element that is not empty keeps
 * its own name (Round, Group, Table, Date, Site, Red, RedTeam, ..., ECCO). Format
 * "UCCI". No sample holds a variation, and how CBF would nest one is not known: Move
 * elements after the end of the line are a finding, not guessed into a tree.
 *
 * Findings: bad-cbf (error: not well-formed where it matters, a bad move value, moves
 * past the end of the line; warning: result code). Positions are byte offsets. */
#ifndef ARBITER_IO_CBF_H
#define ARBITER_IO_CBF_H

#include <stdbool.h>
#include <stddef.h>

#include "io/cbr.h"
#include "record/arena.h"
#include "record/record.h"

/* Whether bytes start like a CBF file (an XML declaration or not, then the root). */
bool cbf_sniff(const unsigned char *bytes, size_t len);

/* Decode a whole CBF file into g (strings in a). c may be NULL. */
void cbf_decode(const unsigned char *data, size_t len, rec_game *g, arena *a, cbr_counts *c);

#endif
