/* gbk.h: GBK/GB18030 strings of binary records (XQF headers and comments) to UTF-8.
 *
 * XQF stores Delphi ShortStrings and comment bytes in GBK. Text comes in short pieces,
 * many per file, so the converter keeps one iconv descriptor per thread instead of
 * opening one per string (opening costs more than converting a name). ASCII is copied
 * without iconv at all. */
#ifndef ARBITER_IO_GBK_H
#define ARBITER_IO_GBK_H

#include <stdbool.h>
#include <stddef.h>

#include "record/arena.h"

typedef enum gbk_status {
    GBK_OK = 0,
    GBK_CUT = 1,     /* the text ended in the middle of a double-byte character */
    GBK_BAD = 2      /* bytes that are not GBK, written as U+FFFD */
} gbk_status;

/* len bytes of GBK as a NUL-terminated UTF-8 string in the arena. *status (may be
 * NULL) gets the GBK_* bits of what went wrong; the text is kept whatever happens:
 * a cut last character is dropped, a bad byte becomes U+FFFD. */
char *gbk_to_utf8(arena *a, const unsigned char *s, size_t len, unsigned *status);

/* UTF-8 to GBK (GB18030) into out; characters outside GB18030 become '?'. Returns the
 * bytes written (at most outsize; a character that does not fit whole is left out). */
size_t gbk_from_utf8(const char *s, size_t len, unsigned char *out, size_t outsize);

/* Close this thread's descriptors (a worker thread that read XQF files calls it before
 * it ends: thread-local descriptors are not freed with the thread). */
void gbk_thread_done(void);

#endif
