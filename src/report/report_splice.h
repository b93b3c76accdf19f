/* report_splice.h: a finding put into a game document already written.
 *
 * Twins settle in input order on the calling thread, after a worker wrote the game's
 * document (batch.h, settle); the finding is spliced into that text so that the
 * document has the bytes the writer gives a game whose first finding it is, and the
 * status its severity makes (yaml_report.c, jsonl_report.c: the same for -j1 and -jN). */
#ifndef ARBITER_REPORT_REPORT_SPLICE_H
#define ARBITER_REPORT_REPORT_SPLICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "record/record.h"
#include "report/report_places.h"

/* Write the game document DOC (LEN bytes, as yaml_report_game or jsonl_report_game
 * wrote it) to OUT with finding F first among its findings. False on a write error. */
bool report_splice_finding(FILE *out, const char *doc, size_t len, bool jsonl,
                           const rec_finding *f);

/* A replacement in a document: del bytes at at become text[0..len) (malloc'd). */
typedef struct report_splice_edit {
    size_t at, del;
    char *text;
    size_t len;
} report_splice_edit;

/* The replacements (*n of them, in the order of at) that make DOC the document
 * report_splice_finding writes: the status raised, F first in the findings. False
 * (*n 0) when DOC does not have the expected shape or memory ran out. */
bool report_splice_plan(const char *doc, size_t len, bool jsonl, const rec_finding *f,
                        report_splice_edit e[2], int *n);
/* The same with the places of DOC's status and findings (its writer's: no search);
 * NULL: searched for (report_splice_locate). */
bool report_splice_plan_at(const char *doc, size_t len, bool jsonl, const rec_finding *f,
                           const report_places *places, report_splice_edit e[2], int *n);
/* The places of the status word and the findings key of DOC, searched for (at->game
 * is left alone); false when DOC does not have them, in that order. */
bool report_splice_locate(const char *doc, size_t len, bool jsonl, report_places *at);

/* Put F before the other findings of G, counting it. */
void report_prepend_finding(rec_game *g, rec_finding *f);

#endif
