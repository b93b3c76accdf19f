/* reader_sniff.h: byte tests the formats' sniffers share (reader.h: sniffing). */
#ifndef ARBITER_READER_SNIFF_H
#define ARBITER_READER_SNIFF_H

#include <stdbool.h>
#include <stddef.h>

/* needle anywhere in s[0..n), case-sensitive or not. */
bool sniff_has(const char *s, size_t n, const char *needle);
bool sniff_has_ci(const char *s, size_t n, const char *needle);

/* A PGN tag pair at s: '[' Name blanks '"'. */
bool sniff_pgn_tag_at(const char *s, size_t n);

/* The offset of the first byte of s[0..n) that is not white space (n: none). */
size_t sniff_text_start(const char *s, size_t n);

#endif
