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

/* Write the game document DOC (LEN bytes, as yaml_report_game or jsonl_report_game
 * wrote it) to OUT with finding F first among its findings. False on a write error. */
bool report_splice_finding(FILE *out, const char *doc, size_t len, bool jsonl,
                           const rec_finding *f);

/* Put F before the other findings of G, counting it. */
void report_prepend_finding(rec_game *g, rec_finding *f);

#endif
