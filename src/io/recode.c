/* recode.c: strict whole-text conversion with iconv. See recode.h. */
#include <config.h>

#include <errno.h>
#include <iconv.h>
#include <stdlib.h>

#include "io/recode.h"

char *recode(const char *to, const char *from, const char *s, size_t len, size_t *out_len)
{
    iconv_t cd = iconv_open(to, from);
    if (cd == (iconv_t)-1)
        return NULL;
    size_t cap = len * 2 + 16;
    char *out = malloc(cap);
    char *in = (char *)s;
    size_t in_left = len, used = 0;
    while (out) {
        char *o = out + used;
        size_t o_left = cap - used - 1;
        size_t r = iconv(cd, &in, &in_left, &o, &o_left);
        used = (size_t)(o - out);
        if (r != (size_t)-1 && in_left == 0 &&
            iconv(cd, NULL, NULL, &o, &o_left) != (size_t)-1) { /* flush any shift state */
            used = (size_t)(o - out);
            break;
        }
        if (r != (size_t)-1 || errno != E2BIG) { /* EILSEQ, EINVAL: not convertible */
            free(out);
            out = NULL;
            break;
        }
        char *grown = realloc(out, cap *= 2);
        if (!grown)
            free(out);
        out = grown;
    }
    iconv_close(cd);
    if (!out)
        return NULL;
    out[used] = '\0';
    *out_len = used;
    return out;
}
