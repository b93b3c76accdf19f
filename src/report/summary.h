/* summary.h: counts over a run, for the summary document of a report. */
#ifndef ARBITER_REPORT_SUMMARY_H
#define ARBITER_REPORT_SUMMARY_H

#include <stdint.h>

#include "record/record.h"

#define SUMMARY_MAX_CODES 64

typedef struct summary {
    uint64_t files;
    uint64_t games;
    uint64_t games_ok, games_with_warnings, games_with_errors;
    uint64_t plies;
    uint64_t findings_by_severity[3];
    struct { const char *code; uint64_t count; } codes[SUMMARY_MAX_CODES];
    int code_count;          /* codes[] sorted by name */
} summary;

void summary_init(summary *s);
/* Count a finished game (its findings' codes must be static strings). */
void summary_add_game(summary *s, const rec_game *g);
/* Add the counts of from to into (the runs of several threads or reports). */
void summary_merge(summary *into, const summary *from);
/* Count n findings of code (a string that outlives s). */
void summary_add_code(summary *s, const char *code, uint64_t n);
/* "ok", "warnings" or "errors" for a game. */
const char *summary_game_status(const rec_game *g);

#endif
