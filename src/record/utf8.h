/* utf8.h: UTF-8 validity and the Windows-1252 fallback, shared by the readers and the
 * input layer. Old records (ICCF, pgnmentor, XieXie) are often Latin-1; a string that is
 * not valid UTF-8 is read as Windows-1252 (Latin-1 with the printable 0x80-0x9F range)
 * and converted, and the reader says so once a game. */
#ifndef ARBITER_RECORD_UTF8_H
#define ARBITER_RECORD_UTF8_H

#include <stddef.h>
#include <stdint.h>

#include "record/arena.h"

/* Length of the valid UTF-8 prefix of s[0..n) (n when all of it is valid). Overlong
 * forms, surrogates and code points above U+10FFFF are invalid. */
size_t utf8_valid_prefix(const unsigned char *s, size_t n);

/* s[0..n) decoded as Windows-1252, as NUL-terminated UTF-8 in the arena (*out_len
 * bytes). The five bytes Windows-1252 leaves unassigned stay C1 controls. */
char *utf8_from_cp1252(arena *a, const unsigned char *s, size_t n, uint32_t *out_len);

#endif
