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

/* A malloc'd copy of s, as xalloc_realloc. */
char *xalloc_strdup(const char *s);

#endif
