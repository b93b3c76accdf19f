/* textbuf.c: growing a malloc'd text buffer. See textbuf.h. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>

#include "i18n/i18n.h"
#include "record/textbuf.h"

void textbuf_reserve(char **buf, size_t *cap, size_t need)
{
    if (need <= *cap)
        return;
    size_t grown_cap = *cap ? *cap : 4096;
    while (grown_cap < need)
        grown_cap *= 2;
    char *grown = realloc(*buf, grown_cap);
    if (!grown) {
        fputs(_("arbiter: out of memory\n"), stderr);
        abort();
    }
    *buf = grown;
    *cap = grown_cap;
}
