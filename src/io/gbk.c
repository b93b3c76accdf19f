/* gbk.c: GBK <-> UTF-8 for binary records. See gbk.h. */
#include <config.h>

#include <errno.h>
#include <iconv.h>
#include <string.h>

#include "io/gbk.h"

/* One descriptor per thread and direction: iconv_t is not thread-safe, and -j runs
 * readers in several threads. The main thread's live until the process ends; a
 * worker's are closed by gbk_thread_done(). */
static _Thread_local iconv_t to_utf8 = (iconv_t)-1, from_utf8 = (iconv_t)-1;
static _Thread_local bool to_utf8_tried, from_utf8_tried;

static iconv_t descriptor(bool decode)
{
    if (decode) {
        if (!to_utf8_tried) {
            to_utf8 = iconv_open("UTF-8", "GB18030");
            to_utf8_tried = true;
        }
        return to_utf8;
    }
    if (!from_utf8_tried) {
        from_utf8 = iconv_open("GB18030", "UTF-8");
        from_utf8_tried = true;
    }
    return from_utf8;
}

void gbk_thread_done(void)
{
    if (to_utf8 != (iconv_t)-1)
        iconv_close(to_utf8);
    if (from_utf8 != (iconv_t)-1)
        iconv_close(from_utf8);
    to_utf8 = from_utf8 = (iconv_t)-1;
    to_utf8_tried = from_utf8_tried = false;
}

char *gbk_to_utf8(arena *a, const unsigned char *s, size_t len, unsigned *status)
{
    unsigned st = 0;
    size_t i = 0;
    while (i < len && s[i] < 0x80)
        i++;
    if (i == len) { /* plain ASCII: most names, dates and every ICCS comment */
        if (status)
            *status = 0;
        return arena_strndup(a, (const char *)s, len);
    }
    /* a GB18030 character is at most 4 bytes and at most 4 in UTF-8; U+FFFD is 3 */
    size_t cap = len * 3 + 4;
    char *out = arena_alloc(a, cap + 1);
    iconv_t cd = descriptor(true);
    char *inp = (char *)s, *outp = out;
    size_t in_left = len, out_left = cap;
    if (cd == (iconv_t)-1) {
        /* no converter: keep ASCII, mark the rest */
        for (size_t k = 0; k < len && out_left >= 3; k++) {
            if (s[k] < 0x80) {
                *outp++ = (char)s[k];
                out_left--;
            } else {
                memcpy(outp, "\xEF\xBF\xBD", 3);
                outp += 3;
                out_left -= 3;
                st |= GBK_BAD;
            }
        }
        in_left = 0;
    } else {
        iconv(cd, NULL, NULL, NULL, NULL); /* a fresh shift state for each string */
    }
    while (in_left > 0) {
        if (iconv(cd, &inp, &in_left, &outp, &out_left) != (size_t)-1)
            break;
        if (errno == EINVAL) { /* a lead byte with nothing after it */
            st |= GBK_CUT;
            break;
        }
        if (errno == EILSEQ && out_left >= 3) {
            /* a lone lead byte before ASCII is also a cut character, but only at the end
             * of the field does it mean the writer cut the name; elsewhere it is damage */
            memcpy(outp, "\xEF\xBF\xBD", 3);
            outp += 3;
            out_left -= 3;
            inp++;
            in_left--;
            st |= GBK_BAD;
            continue;
        }
        st |= GBK_BAD;
        break;
    }
    *outp = '\0';
    if (status)
        *status = st;
    return out;
}

size_t gbk_from_utf8(const char *s, size_t len, unsigned char *out, size_t outsize)
{
    size_t i = 0;
    while (i < len && (unsigned char)s[i] < 0x80)
        i++;
    if (i == len) {
        size_t n = len < outsize ? len : outsize;
        memcpy(out, s, n);
        return n;
    }
    iconv_t cd = descriptor(false);
    char *inp = (char *)s, *outp = (char *)out;
    size_t in_left = len, out_left = outsize;
    if (cd == (iconv_t)-1)
        return 0;
    iconv(cd, NULL, NULL, NULL, NULL);
    while (in_left > 0 && out_left > 0) {
        if (iconv(cd, &inp, &in_left, &outp, &out_left) != (size_t)-1)
            break;
        if (errno == EILSEQ) {
            /* not in GB18030 (or not UTF-8): one '?' for the character */
            *outp++ = '?';
            out_left--;
            do {
                inp++;
                in_left--;
            } while (in_left > 0 && ((unsigned char)*inp & 0xC0) == 0x80);
            continue;
        }
        break; /* E2BIG: the field is full; EINVAL: a cut UTF-8 sequence */
    }
    return outsize - out_left;
}
