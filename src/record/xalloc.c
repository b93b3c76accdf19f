/* xalloc.c: allocation that aborts when memory runs out. See xalloc.h. */
#include <config.h>

#include "record/xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "i18n/i18n.h"

void *xalloc_realloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fputs(_("arbiter: out of memory\n"), stderr);
        abort();
    }
    return q;
}

/* Below this a block's pages are left to fault in as they are written. */
#define PREFAULT_MIN ((size_t)64 * 1024)
#define PAGE_MASK ((uintptr_t)4095)

/* One madvise call for the whole pages; a hint: where it fails (an old kernel, pages
 * bigger than 4 KiB and so a start not on one), the pages fault in as before. */
void xalloc_prefault(void *p, size_t n)
{
#ifdef MADV_POPULATE_WRITE
    uintptr_t from = ((uintptr_t)p + PAGE_MASK) & ~PAGE_MASK;
    uintptr_t to = ((uintptr_t)p + n) & ~PAGE_MASK;
    if (n >= PREFAULT_MIN && to > from)
        madvise((void *)from, to - from, MADV_POPULATE_WRITE);
#else
    (void)p;
    (void)n;
#endif
}

void *xalloc_zeroed(size_t n)
{
    void *p = xalloc_realloc(NULL, n);
    xalloc_prefault(p, n);
    return memset(p, 0, n);
}

void *xalloc_grow(void *p, size_t old, size_t n)
{
    char *q = xalloc_realloc(p, n);
    if (n > old)
        xalloc_prefault(q + old, n - old);
    return q;
}

char *xalloc_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xalloc_realloc(NULL, n), s, n);
}
