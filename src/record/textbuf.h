/* textbuf.h: growing a malloc'd text buffer, the one way the readers, the report and the
 * writers do it (the arena holds what a game keeps; these buffers are reused across
 * games). */
#ifndef ARBITER_RECORD_TEXTBUF_H
#define ARBITER_RECORD_TEXTBUF_H

#include <stddef.h>

/* Make *buf hold at least need bytes, doubling from 4 KiB. Like the arena, it aborts with
 * a message when memory runs out: the per-game limits keep that from happening. */
void textbuf_reserve(char **buf, size_t *cap, size_t need);

/* The first needle (m > 0 bytes) in s[0..n), or NULL: memchr for its first byte, then a
 * compare. For needles expected near the start of a report document, where glibc's
 * memmem costs more in setting up its tables than in searching. */
const char *textbuf_find(const char *s, size_t n, const char *needle, size_t m);

#endif
