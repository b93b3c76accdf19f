/* batch_output.h: what a piece of the input writes, kept until its turn comes: its
 * text (report, diagnostics) in a growing buffer behind a stdio stream, where the
 * game numbers stand in it (numbers within the piece, renumbered within the file when
 * the piece is written), and the encoding warning said once per file. */
#ifndef ARBITER_BATCH_OUTPUT_H
#define ARBITER_BATCH_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "batch/batch.h"

/* A piece's text: a buffer kept across pieces. */
typedef struct batch_text {
    char *buf;
    size_t len, cap;
} batch_text;

/* Offsets in a batch_text just before a game number. */
typedef struct batch_fixes {
    size_t *at;
    size_t n, cap;
} batch_fixes;

/* Replacements in a piece's text made when it is written (batch_splice): del bytes
 * at at become len bytes of text from from; in the order of at. */
typedef struct batch_edit {
    size_t at, del, from, len;
} batch_edit;

typedef struct batch_edits {
    batch_edit *e;
    size_t n, cap;
    batch_text text;         /* the replacing bytes */
} batch_edits;

/* The marks a sink's game() records through batch_mark_index, the texts it may hold
 * games in and the replacements settle() asks for in the out text (batch.h). */
struct batch_marks {
    batch_text *out_text, *err_text;
    batch_fixes *out_fixes, *err_fixes;
    FILE *out, *err;
    batch_text *held_err;
    batch_edits *out_edits;
};

/* A write-only unbuffered stream appending to t (ftell answers its length): what it
 * wrote is in t at once. Aborts when out of memory. */
FILE *batch_text_open(batch_text *t);

void batch_fixes_push(batch_fixes *f, size_t at);

/* Write t to f with the numbers at fixes moved on by base and the replacements of
 * edits made (NULL: none). A stream with a descriptor is flushed, then given t's runs
 * and the new numbers by writev, with no copy; a memory stream gets one block (a copy
 * in *scratch first: a number may grow a digit). False on a write error. */
bool batch_write_renumbered(FILE *f, const batch_text *t, const batch_fixes *fixes,
                            const batch_edits *edits, uint64_t base, char **scratch,
                            size_t *scratch_cap);

/* The encoding warning is said once per input file (diag.c does it within a piece):
 * drop err's warning blocks (the line and the source lines under it) that follow
 * another one, every one when said (an earlier piece of the file said it), moving the
 * game-number marks with the text. Returns whether err holds such a warning. */
bool batch_drop_repeated_encoding(batch_text *err, batch_fixes *fixes, bool said);

#endif
