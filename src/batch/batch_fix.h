/* batch_fix.h: arbiter fix over one file: the safe repairs (writer/byte_repair.h),
 * written back into the file as it was.
 *
 * The file is read and refereed as check does; the repairs are edits of the original
 * bytes, so everything around them stays byte for byte. A repair can uncover the next
 * error of the same line, so the file is refereed again until nothing changes (at most
 * BATCH_FIX_PASSES times); a second `fix` then changes nothing. GBK and Big5 files are
 * repaired in UTF-8 and written back in their own encoding; compressed files are
 * refused. The result replaces the file atomically (io/whole_file.h). */
#ifndef ARBITER_BATCH_FIX_H
#define ARBITER_BATCH_FIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "batch/batch.h"
#include "writer/byte_repair.h"

#define BATCH_FIX_PASSES 8

/* Referee and repair path until nothing changes. Returns the repaired text (malloc'd,
 * *out_len bytes) or NULL on an I/O failure or a refused file (said on stderr). Each
 * repair is listed on list and, when report is not NULL, as YAML there; *repairs
 * counts them. canonical (NULL: none) gives the spelling of names (fix --names). */
char *batch_fix_file(const char *path, const batch_options *opts, repair_name_fn canonical,
                     void *canonical_ctx, size_t *out_len, unsigned long *repairs, FILE *list,
                     FILE *report);

/* Put the repaired text of path where it goes: to output ("-": stdout; a device or a
 * pipe: written through), or replacing path when there were repairs (or to output, a
 * file, replaced atomically with the input's permissions). False (said) on a failure. */
bool batch_fix_write(const char *path, const char *output, const char *text, size_t len,
                     unsigned long repairs);

#endif
