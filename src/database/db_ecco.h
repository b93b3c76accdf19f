/* db_ecco.h: ECCO, xqbase's A00-E99 classification of xiangqi openings.
 *
 * There is no open-licensed ECCO table, so arbiter's is made from facts in data: the
 * ECCO tags that other classifiers wrote into real game records (data/ecco, made by
 * data/ecco/make-table.py). Each line names the position its moves reach. The rule is
 * the chess table's: walk the first 20 plies of the main line (what the reference
 * classifier reads) and take the deepest position the table names, comparing positions,
 * so a transposition finds its code; where the records show that the move order
 * decides (two orders reach one position with two codes), a line applies only to the
 * games arriving with the code it names as "from". A position and its left-right
 * mirror image are one position (炮二平五 and 炮八平五 open the same way). Only games
 * from the standard start are classified. */
#ifndef ARBITER_DB_ECCO_H
#define ARBITER_DB_ECCO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record/record.h"

#define DB_ECCO_PLIES 20

/* A line of the table. Its moves are an offset into db_ecco_text, not a pointer: a
 * table of pointers costs every run, used or not, relocations at load and the pages
 * they write (db_openings.h). */
typedef struct db_ecco_line {
    char eco[4];
    /* "": the line names its position for every game reaching it; else only for the
     * games that carry this code when they reach it ("-": no code yet), which is how
     * the table tells move orders apart (C45 and C46 meet in one position) */
    char from[4];
    uint32_t moves; /* ICCS, lower case, space-separated: "h2-e2 h9-g7" */
} db_ecco_line;

/* A code's opening and variation (NULL: none) as the tagged records spell them. */
typedef struct db_ecco_name {
    const char *eco;
    const char *opening;
    const char *variation;
} db_ecco_name;

/* The codes a tagged game moves on to from a code (space-separated): a game meeting a
 * position's own line (no line from its code there) takes it only if its code is
 * none yet, or one of these leads to it. */
typedef struct db_ecco_reach {
    const char *eco;
    const char *to;
} db_ecco_reach;

extern const db_ecco_line db_ecco_lines[];
extern const char db_ecco_text[]; /* the lines' moves */
extern const size_t db_ecco_line_count;
extern const db_ecco_name db_ecco_names[];
extern const size_t db_ecco_name_count;
extern const db_ecco_reach db_ecco_reaches[];
extern const size_t db_ecco_reach_count;

/* Distinct positions the table names (the first call replays the lines). */
size_t db_ecco_positions(void);

/* The code of the deepest named position of g's first 20 main-line plies (after the
 * referee replayed it), or NULL: none named, or not the standard start. *name and
 * *variation are the code's names, or NULL where the records gave none. */
const char *db_ecco_classify(const rec_game *g, const char **name, const char **variation);

#endif
