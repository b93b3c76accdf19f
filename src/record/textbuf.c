/* textbuf.c: growing a malloc'd text buffer. See textbuf.h. */
#include <config.h>

#include <string.h>

#include "record/textbuf.h"
#include "record/xalloc.h"

const char *textbuf_find(const char *s, size_t n, const char *needle, size_t m)
{
    if (m > n)
        return NULL;
    const char *last = s + (n - m); /* the last place where the needle fits */
    for (const char *p = s; p <= last; p++) {
        p = memchr(p, needle[0], (size_t)(last - p) + 1);
        if (!p)
            return NULL;
        if (memcmp(p + 1, needle + 1, m - 1) == 0)
            return p;
    }
    return NULL;
}

void textbuf_reserve(char **buf, size_t *cap, size_t need)
{
    if (need <= *cap)
        return;
    size_t grown_cap = *cap ? *cap : 4096;
    while (grown_cap < need)
        grown_cap *= 2;
    *buf = xalloc_realloc(*buf, grown_cap);
    /* the bytes asked for are about to be written: mapped at once when many (a piece's
     * room); the doubling's slack faults in only if it is ever written */
    xalloc_prefault(*buf + *cap, need - *cap);
    *cap = grown_cap;
}
