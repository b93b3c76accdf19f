/* yaml_report.h: the YAML report, one document per game and a summary document.
 *
 * Written through libyaml. Strings that came from a record are always double-quoted
 * (plain "No" or "007" would load as a boolean or a number); unicode output is on. */
#ifndef ARBITER_REPORT_YAML_REPORT_H
#define ARBITER_REPORT_YAML_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "record/record.h"
#include "report/report_places.h"
#include "report/summary.h"

typedef struct yaml_report yaml_report;

yaml_report *yaml_report_open(FILE *out);
/* Each returns false on a write error (message from yaml_report_error). */
bool yaml_report_game(yaml_report *r, const rec_game *g);
bool yaml_report_summary(yaml_report *r, const summary *s);
/* The document yaml_report_game writes, made and not written: in *doc (r's buffer,
 * until the next call), *len bytes; for a writer that puts it in its place itself (the
 * text of a piece, -j). False when only libyaml writes it (a finding with a fix,
 * ARBITER_YAML_EMITTER=libyaml) or a write failed: then call yaml_report_game. */
bool yaml_report_game_doc(yaml_report *r, const rec_game *g, const char **doc, size_t *len);
/* Where the last game document yaml_report_game wrote (or yaml_report_game_doc made)
 * has its places; false when libyaml wrote it: search it. */
bool yaml_report_places(const yaml_report *r, report_places *at);

/* The text of F as an item of a game's findings list, as yaml_report_game writes it
 * ("- code: ..." lines), in *text (malloc'd, *len bytes, not NUL-terminated), without
 * a stream: for report_splice.c. False when the direct writer does not vouch for it
 * (only libyaml writes it) or ARBITER_YAML_EMITTER=libyaml. */
bool yaml_report_finding_item(const rec_finding *f, char **text, size_t *len);
const char *yaml_report_error(const yaml_report *r);
/* Ends the stream; false if that failed. Frees r. */
bool yaml_report_close(yaml_report *r);

#endif
