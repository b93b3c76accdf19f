/* textbuf.c: growing a malloc'd text buffer. See textbuf.h. */
#include <config.h>

#include "record/textbuf.h"
#include "record/xalloc.h"

void textbuf_reserve(char **buf, size_t *cap, size_t need)
{
    if (need <= *cap)
        return;
    size_t grown_cap = *cap ? *cap : 4096;
    while (grown_cap < need)
        grown_cap *= 2;
    *buf = xalloc_realloc(*buf, grown_cap);
    *cap = grown_cap;
}
