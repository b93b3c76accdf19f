/* batch_cut.h: where a PGN text may be cut into pieces of whole games, and what a
 * piece's bytes move the position by. Pure functions over bytes (the cutting loop
 * itself, reading the input into pieces, is in batch_pool.c). */
#ifndef ARBITER_BATCH_CUT_H
#define ARBITER_BATCH_CUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The most bytes a piece grows to while its cut is looked for; past it the rest of
 * the input is read in one thread. */
#define BATCH_PIECE_MAX (8 * 1024 * 1024)
/* Bytes read past a piece's target size, where its cut is looked for: most games are
 * 1-2 KiB, so the cut is nearly always there, and what lies after it (copied to the
 * next piece) stays small. */
#define BATCH_PIECE_SLACK (16 * 1024)
/* The least piece size near the end of a file of known size. */
#define BATCH_PIECE_MIN (32 * 1024)

/* Where to cut buf[0..len) at or after from: the start of a tag line whose previous
 * non-blank line is not a tag line (the start of a game's tag section); 0 if none. */
size_t batch_find_cut(const char *buf, size_t len, size_t from);

/* The line feeds in s[0..n). */
uint32_t batch_count_newlines(const char *s, size_t n);

/* A UTF-8 byte-order mark anywhere in s[0..n). */
bool batch_has_bom(const char *s, size_t n);

/* The target piece size: 256 KiB, or ARBITER_PIECE_SIZE=N bytes (for the tests that
 * cut inputs at every game; *fixed: then pieces do not shrink near the end). */
size_t batch_piece_target(bool *fixed);

/* The target size of the piece cut at offset of a text of size bytes (0: unknown)
 * read by jobs threads: target, but smaller near the end, so that the threads run out
 * of work at about the same time (a share of what is left for each). */
size_t batch_piece_size_at(size_t target, bool fixed, uint64_t size, uint64_t offset, int jobs);

#endif
