/* byte_repair.h: the safe repairs of a refereed game as edits of its file's own bytes
 * (arbiter fix), so that everything around them stays byte for byte.
 *
 * The repairs: a move error whose fix is certain (the referee's fix_certain), a wrong
 * or missing check or mate marker (PGN 8.2.3.2), a wrong move number (PGN 8.2.2), a
 * Result tag or terminator contradicting the other or the board, and with a name
 * callback the canonical spelling of a player's name. Every edit is made only when the
 * file holds the bytes the referee's spans say it holds (never fabricated). */
#ifndef ARBITER_WRITER_BYTE_REPAIR_H
#define ARBITER_WRITER_BYTE_REPAIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record/record.h"

typedef struct repair_edit {
    uint64_t offset;
    uint32_t length;
    char *before, *text;
    uint32_t line, column;
    const char *what;        /* what kind of repair: move, tag, check-marker, ... */
} repair_edit;

/* The canonical spelling of a tag's value (a player's name), or NULL to leave it. */
typedef const char *(*repair_name_fn)(void *ctx, const char *tag, const char *value);

typedef struct repair_run {
    const char *name;        /* the input as the user named it */
    const char *bytes;       /* the text being refereed */
    size_t len;
    repair_edit *edits;
    size_t count, cap;
    unsigned long skipped;   /* games whose offsets do not match the file (transcoded) */
    bool latex;              /* a LaTeX book: its results are xskak keys, not PGN text */
    repair_name_fn canonical; /* fix --names, or NULL */
    void *canonical_ctx;
} repair_run;

/* Collect the repairs of g into run (a batch_game_fn: ctx is the run; path NULL: the
 * game's spans are not the file's bytes, it is only counted as skipped). */
bool repair_game(rec_game *g, const char *path, void *ctx);

/* The text with run's edits applied in file order (an edit overlapping the one before
 * is dropped, for the next pass), malloc'd; run keeps the edits applied. NULL when out
 * of memory. */
char *repair_apply(repair_run *run, size_t *out_len);

/* Forget run's edits (the array is kept for the next pass). */
void repair_clear(repair_run *run);

#endif
