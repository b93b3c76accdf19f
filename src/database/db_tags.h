/* db_tags.h: header values (PGN standard 8.1.1 and 9; the xqbase tags of xiangqi PGN
 * and the XQF fields read into the same names): bad-tag-value and missing-tag.
 *
 * The validators are pure; db_tags_check() adds the findings to a refereed game, each
 * with its tag (rec_finding.tag) and, for the repairs that are certain, the repaired
 * value as the suggestion and the edit of the tag's text (fix_certain) that
 * `arbiter fix` applies. */
#ifndef ARBITER_DB_TAGS_H
#define ARBITER_DB_TAGS_H

#include <stdbool.h>
#include <stddef.h>

#include "record/record.h"

typedef enum db_tag_verdict {
    DB_TAG_OK,          /* as the standard writes it */
    DB_TAG_FIXABLE,     /* wrong form, one certain repair (written into the buffer) */
    DB_TAG_BAD          /* wrong, and nothing certain to put instead */
} db_tag_verdict;

/* PGN 8.1.1.3: "YYYY.MM.DD", '?' for each unknown digit, a calendar date.
 * "2021-05-12", "2021/05/12", "2021" and "2021.05" have one certain form. */
db_tag_verdict db_tag_check_date(const char *value, char *fixed, size_t size);

/* PGN 8.1.1.4: an integer, dotted integers ("3.1"), "?" or "-". */
db_tag_verdict db_tag_check_round(const char *value);

/* PGN 9.1.1 (WhiteElo, BlackElo; xqbase RedElo): a whole number 0..3999 or "-";
 * "" and "?" are taken as unknown. */
db_tag_verdict db_tag_check_elo(const char *value);

/* PGN 9.6: "?", "-", or ':'-separated periods "moves/seconds", "seconds",
 * "seconds+increment", "*seconds". */
db_tag_verdict db_tag_check_time_control(const char *value);

/* PGN 9.4.1.1 (ECO), xqbase ECCO: a letter A to E and two digits; "?" unknown. */
db_tag_verdict db_tag_check_eco(const char *value);

/* The plies of the main line as written, or -1 when a move of it did not replay
 * (then the count the PlyCount tag should give is not known). */
long db_tags_main_plies(const rec_game *g);

/* Adds the findings of game g's tags. pgn: the game was read from PGN text, so its
 * tag spans are offsets of "[Name "value"]" in the input (repairs, missing-tag). */
void db_tags_check(rec_game *g, bool pgn);

#endif
