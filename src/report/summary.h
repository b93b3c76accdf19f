/* summary.h: counts over a run, for the summary document of a report. */
#ifndef ARBITER_REPORT_SUMMARY_H
#define ARBITER_REPORT_SUMMARY_H

#include <stdbool.h>
#include <stdint.h>

#include "record/record.h"

#define SUMMARY_MAX_CODES 64
#define SUMMARY_OPENING_CODES 500 /* A00 to E99 */

typedef struct summary {
    uint64_t files;
    uint64_t games;
    uint64_t games_ok, games_with_warnings, games_with_errors;
    uint64_t plies;
    uint64_t findings_by_severity[3];
    struct { const char *code; uint64_t count; } codes[SUMMARY_MAX_CODES];
    int code_count;          /* codes[] sorted by name */
    /* games by opening code (ECO for chess, ECCO for xiangqi): [kind][letter*100+nn] */
    uint64_t openings[2][SUMMARY_OPENING_CODES];
} summary;

void summary_init(summary *s);
/* Count a finished game (its findings' codes must be static strings). */
void summary_add_game(summary *s, const rec_game *g);
/* Add the counts of from to into (the runs of several threads or reports). */
void summary_merge(summary *into, const summary *from);
/* Count n findings of code (a string that outlives s). */
void summary_add_code(summary *s, const char *code, uint64_t n);
/* Count n games of opening code ("A00".."E99") of kind k; false for another text. */
bool summary_add_opening(summary *s, rec_game_kind k, const char *code, uint64_t n);
/* Whether any game of kind k (0 chess, 1 xiangqi), or of either, has an opening. */
bool summary_has_openings_of(const summary *s, int k);
bool summary_has_openings(const summary *s);
/* The code of index i (0..499) into buf[4]. */
void summary_opening_code(int i, char buf[4]);
/* "ok", "warnings" or "errors" for a game. */
const char *summary_game_status(const rec_game *g);

#endif
