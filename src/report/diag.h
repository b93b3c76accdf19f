/* diag.h: gcc-style diagnostics on a terminal or log.
 *
 *   games.pgn:12:5: error[illegal-move]: White Nf3 is illegal: no white knight can reach f3
 *      12 | 7. Nf3 Nc6 8. Bb5
 *         |    ^~~
 *
 * The source line is read back from the file by its byte offset (not for stdin). */
#ifndef ARBITER_REPORT_DIAG_H
#define ARBITER_REPORT_DIAG_H

#include <stdbool.h>
#include <stdio.h>

#include "record/record.h"

typedef struct diag diag;

/* Diagnostics for findings of at least min_severity, written to out. */
diag *diag_open(FILE *out, rec_severity min_severity);
/* Print every finding of g. path is the input (NULL or "-": no source lines). */
void diag_game(diag *d, const rec_game *g, const char *path);
void diag_close(diag *d);

#endif
