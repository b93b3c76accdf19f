/* xalloc.h: allocation that cannot fail, for the tables that live across games (the
 * names and twins indexes, the readers' and writers' text buffers). Running out of
 * memory there has no useful recovery: the program says so and aborts, as the arena
 * does. */
#ifndef ARBITER_RECORD_XALLOC_H
#define ARBITER_RECORD_XALLOC_H

#include <stddef.h>

/* realloc(p, n), n of 0 taken as 1 (never NULL); aborts with a message when memory
 * runs out. */
void *xalloc_realloc(void *p, size_t n);

/* Fresh memory is mapped by the kernel a page at a time, at its first write; on a
 * virtual machine such a fault costs some 13 us, and a page asked for in one call for
 * many (MADV_POPULATE_WRITE, Linux 5.14) about 1 us. The functions below ask so for
 * the blocks of 64 KiB or more that are about to be written: the tables that are
 * cleared whole, and the part a growing array grew by. Elsewhere they are plain. */

/* Map the whole pages of p[0..n) now, when n is 64 KiB or more (a hint: nothing
 * happens where the system cannot). */
void xalloc_prefault(void *p, size_t n);

/* A block of n zero bytes. */
void *xalloc_zeroed(size_t n);

/* xalloc_realloc(p, n) of a block of old bytes (the bytes it grows by are then mapped at
 * once when the block is big). */
void *xalloc_grow(void *p, size_t old, size_t n);

/* A malloc'd copy of s, as xalloc_realloc. */
char *xalloc_strdup(const char *s);

#endif
