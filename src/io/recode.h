/* recode.h: a whole text from one charset to another, strictly.
 *
 * For `arbiter fix` on GBK and Big5 files: the repairs are made on the UTF-8 text the
 * readers see, and the result is written back in the file's own encoding. Unlike the
 * readers' transcoding, nothing is replaced: any byte that does not convert makes the
 * conversion fail, so a file is only ever written back when every byte survives. */
#ifndef ARBITER_IO_RECODE_H
#define ARBITER_IO_RECODE_H

#include <stddef.h>

/* len bytes of s in charset from, as charset to (iconv names), malloc'd and
 * NUL-terminated, its length in *out_len; NULL when a byte does not convert or memory
 * runs out. */
char *recode(const char *to, const char *from, const char *s, size_t len, size_t *out_len);

#endif
