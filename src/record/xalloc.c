/* xalloc.c: allocation that aborts when memory runs out. See xalloc.h. */
#include <config.h>

#include "record/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

char *xalloc_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xalloc_realloc(NULL, n), s, n);
}
