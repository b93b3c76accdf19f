/* jsonl_report.h: the report as JSON Lines: one object per game, then a summary object.
 *
 * The fields are those of the YAML report (yaml_report.h): a game object has file,
 * game, line, column, variant, status, tags, plies, result {declared, derived,
 * reason}, final_fen (when known), findings and claims (arrays of {code, severity,
 * line, column, ply, move, fen, message}); the summary object is {"summary": {files,
 * games, ok, with_warnings, with_errors, plies, findings {error, warning, info},
 * by_code, seconds}}. Written through jansson, one compact object per line. A build
 * without jansson has none of it (jsonl_report_available() is false). */
#ifndef ARBITER_REPORT_JSONL_REPORT_H
#define ARBITER_REPORT_JSONL_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "record/record.h"
#include "report/report_places.h"
#include "report/summary.h"

typedef struct jsonl_report jsonl_report;

bool jsonl_report_available(void);
jsonl_report *jsonl_report_open(FILE *out);
/* Each returns false on a write error. */
bool jsonl_report_game(jsonl_report *r, const rec_game *g);
bool jsonl_report_summary(jsonl_report *r, const summary *s);
/* The line jsonl_report_game writes, newline included, made and not written: in *line
 * (r's buffer, until the next call), *len bytes; for a writer that puts it in its place
 * itself (the text of a piece, -j). False without jansson. */
bool jsonl_report_game_line(jsonl_report *r, const rec_game *g, const char **line, size_t *len);
/* Where the last line jsonl_report_game or jsonl_report_game_line made has its places
 * (false without jansson). */
bool jsonl_report_places(const jsonl_report *r, report_places *at);

/* The text of F as an item of a game's findings array, as jsonl_report_game writes it
 * (one object), in *text (malloc'd, *len bytes, not NUL-terminated), without a
 * stream: for report_splice.c. False in a build without jansson. */
bool jsonl_report_finding_item(const rec_finding *f, char **text, size_t *len);
/* Flushes and frees r (NULL is fine); false if a write failed. */
bool jsonl_report_close(jsonl_report *r);

#endif
