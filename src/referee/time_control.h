/* time_control.h: the time control a game was played under, and why we think so.
 *
 * Rapid and blitz change the verdicts (FIDE Laws Appendices A and B; the Vietnamese
 * xiangqi annex, seed 002), so the referee needs to know which applied: from the
 * command line (--time-control), from the record's own time fields (the PGN
 * TimeControl tag, xiangqi game-type and time-rule fields), else standard. Event
 * names are not read: "Blitz Open" is a name, not a clock. */
#ifndef ARBITER_REFEREE_TIME_CONTROL_H
#define ARBITER_REFEREE_TIME_CONTROL_H

#include <stdbool.h>

#include "record/record.h"

typedef enum tc_kind {
    TC_AUTO = 0,    /* not decided: read the record (options only) */
    TC_STANDARD,
    TC_RAPID,
    TC_BLITZ
} tc_kind;

typedef enum tc_source {
    TC_SOURCE_DEFAULT = 0,  /* nothing in the record said: standard */
    TC_SOURCE_TAG,          /* a time field of the record */
    TC_SOURCE_OPTION        /* --time-control */
} tc_source;

typedef struct tc_decision {
    tc_kind kind;
    tc_source source;
    const char *tag;        /* TC_SOURCE_TAG: the field's name and value */
    const char *value;
    long seconds;           /* from a clock: time for 60 moves per player, else -1 */
} tc_decision;

/* "standard", "rapid", "blitz" (and the "classical" alias); false otherwise. */
bool tc_kind_from_name(const char *name, tc_kind *out);
const char *tc_kind_name(tc_kind k);
const char *tc_source_name(tc_source s);

/* A PGN TimeControl value (PGN standard 9.6.1: "?", "-", "40/9000:3600",
 * "5400+30", "*180", fields joined by ':'): *seconds is the time one player has
 * for 60 moves, FIDE's measure (A.1: the time allotted plus 60 times any
 * increment). Returns false for "?", "-" and anything unreadable. */
bool tc_parse_pgn(const char *text, long *seconds);

/* FIDE A.1 / B.1 thresholds: blitz at most 10 minutes, rapid more than 10 and less
 * than 60, standard 60 minutes or more (all for 60 moves per player). */
tc_kind tc_classify_seconds(long seconds);

/* A game-type word of a xiangqi record (DhtmlXQ gametype, XQF TimeRule, free text):
 * 快棋, 超快棋, 慢棋, 闪电, "cờ nhanh", "chớp nhoáng", "rapid", "blitz"...;
 * TC_AUTO when the text names none. */
tc_kind tc_classify_word(const char *text);

/* Decide the time control of g: forced (an option) unless TC_AUTO, else its time
 * fields, else standard by default. */
void tc_decide(const rec_game *g, tc_kind forced, tc_decision *out);

/* One sentence saying which time control applied and why, into buf. */
void tc_explain(const tc_decision *d, char *buf, size_t size);

#endif
