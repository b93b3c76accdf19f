/* bytes8.h: tests on eight bytes at once (one 64-bit word), for the loops that look for
 * the first byte of a few kinds in text (the PGN scanner's fast path, the YAML report).
 *
 * Each test sets the high bit of the bytes it finds. A borrow or a carry can also set it
 * in bytes above one rightly found, never below, so "is there one" and "which is the
 * first" are exact; which of the later ones are set is not. */
#ifndef ARBITER_RECORD_BYTES8_H
#define ARBITER_RECORD_BYTES8_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define BYTES8_ONES 0x0101010101010101ull
#define BYTES8_HIGHS 0x8080808080808080ull

/* The eight bytes at s, in memory order as bytes8_first counts them. */
static inline uint64_t bytes8_load(const void *s)
{
    uint64_t w;
    memcpy(&w, s, 8);
    return w;
}

/* Bytes that are 0. */
static inline uint64_t bytes8_zero(uint64_t w)
{
    return (w - BYTES8_ONES) & ~w & BYTES8_HIGHS;
}

/* Bytes equal to c. */
static inline uint64_t bytes8_eq(uint64_t w, unsigned char c)
{
    return bytes8_zero(w ^ (BYTES8_ONES * c));
}

/* Bytes below n (n <= 0x80). */
static inline uint64_t bytes8_below(uint64_t w, unsigned n)
{
    return (w - BYTES8_ONES * n) & ~w & BYTES8_HIGHS;
}

/* Bytes above n (n <= 0x7F). */
static inline uint64_t bytes8_above(uint64_t w, unsigned n)
{
    return ((w + BYTES8_ONES * (0x7F - n)) | w) & BYTES8_HIGHS;
}

/* Bytes from lo to hi (1 <= lo <= hi <= 0x7F), exactly, up to the first byte >= 0x80
 * (never one of them; its carry may mark bytes after it). */
static inline uint64_t bytes8_in(uint64_t w, unsigned lo, unsigned hi)
{
    return (w + BYTES8_ONES * (0x80 - lo)) & ~(w + BYTES8_ONES * (0x7F - hi)) & ~w &
           BYTES8_HIGHS;
}

/* The index in memory order of the first byte found (found != 0). */
static inline size_t bytes8_first(uint64_t found)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return (size_t)__builtin_clzll(found) / 8;
#else
    return (size_t)__builtin_ctzll(found) / 8;
#endif
}

/* The index of the first byte of s[0..16) that is no printable ASCII (a control byte,
 * DEL, a byte >= 0x80) or is c1 or c2; 16 when there is none. As two words: */
static inline size_t bytes16_first_stop_words(const char *s, unsigned char c1,
                                              unsigned char c2)
{
    for (size_t i = 0; i < 16; i += 8) {
        uint64_t w = bytes8_load(s + i);
        uint64_t stop = bytes8_below(w, 0x20) | bytes8_above(w, 0x7E) | bytes8_eq(w, c1) |
                        bytes8_eq(w, c2);
        if (stop)
            return i + bytes8_first(stop);
    }
    return 16;
}

/* The same, sixteen bytes at once with SSE2 (a signed compare takes the bytes >= 0x80
 * with those below 0x20). */
static inline size_t bytes16_first_stop(const char *s, unsigned char c1, unsigned char c2)
{
#if defined(__SSE2__)
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)s);
    __m128i stop = _mm_or_si128(_mm_cmplt_epi8(x, _mm_set1_epi8(0x20)),
                                _mm_cmpeq_epi8(x, _mm_set1_epi8(0x7F)));
    stop = _mm_or_si128(stop, _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8((char)c1)),
                                           _mm_cmpeq_epi8(x, _mm_set1_epi8((char)c2))));
    unsigned m = (unsigned)_mm_movemask_epi8(stop);
    return m ? (size_t)__builtin_ctz(m) : 16;
#else
    return bytes16_first_stop_words(s, c1, c2);
#endif
}

/* The bytes of s[0..16) equal to c, bit i for byte i: two masks make one of 32 bytes,
 * tested with one branch. Byte by byte: */
static inline unsigned bytes16_eq_mask_bytes(const char *s, unsigned char c)
{
    unsigned m = 0;
    for (unsigned i = 0; i < 16; i++)
        m |= (unsigned)((unsigned char)s[i] == c) << i;
    return m;
}

/* The same, sixteen bytes at once with SSE2. */
static inline unsigned bytes16_eq_mask(const char *s, unsigned char c)
{
#if defined(__SSE2__)
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)s);
    return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8((char)c)));
#else
    return bytes16_eq_mask_bytes(s, c);
#endif
}

/* Whether c is a byte of REC_CLAIM_BYTES (record.h): 'm', 'M', 0xD0, 0xE1 or 0xE6. */
static inline int bytes_claim_byte(unsigned char c)
{
    return (c | 0x20) == 'm' || c == 0xD0 || c == 0xE1 || c == 0xE6;
}

/* The bytes of s[0..16) that bytes_claim_byte takes, bit i for byte i. */
static inline unsigned bytes16_claim_mask(const char *s)
{
#if defined(__SSE2__)
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)s);
    __m128i hit = _mm_cmpeq_epi8(_mm_or_si128(x, _mm_set1_epi8(0x20)), _mm_set1_epi8('m'));
    hit = _mm_or_si128(hit, _mm_cmpeq_epi8(x, _mm_set1_epi8((char)0xD0)));
    hit = _mm_or_si128(hit, _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8((char)0xE1)),
                                         _mm_cmpeq_epi8(x, _mm_set1_epi8((char)0xE6))));
    return (unsigned)_mm_movemask_epi8(hit);
#else
    unsigned m = 0;
    for (unsigned i = 0; i < 16; i++)
        m |= (unsigned)bytes_claim_byte((unsigned char)s[i]) << i;
    return m;
#endif
}

/* Whether s[0..n) holds a byte bytes_claim_byte takes; reads only those bytes. */
static inline int bytes_has_claim_byte(const char *s, size_t n)
{
    size_t i = 0;
    for (; i + 16 <= n; i += 16)
        if (bytes16_claim_mask(s + i))
            return 1;
    for (; i < n; i++)
        if (bytes_claim_byte((unsigned char)s[i]))
            return 1;
    return 0;
}

/* The length of the run of tag-name bytes ([A-Za-z0-9_], PGN 8.1.1: a tag name is a
 * symbol of letters, digits and underscores) at the start of s[0..16); 16 when all
 * are. As two words: */
static inline size_t bytes16_name_run_words(const char *s)
{
    for (size_t i = 0; i < 16; i += 8) {
        uint64_t w = bytes8_load(s + i);
        uint64_t ok = bytes8_in(w | BYTES8_ONES * 0x20, 'a', 'z') | bytes8_in(w, '0', '9') |
                      bytes8_in(w, '_', '_');
        uint64_t stop = ~ok & BYTES8_HIGHS;
        if (stop)
            return i + bytes8_first(stop);
    }
    return 16;
}

/* The same, sixteen bytes at once with SSE2 (signed compares: bytes >= 0x80 are below
 * every range). */
static inline size_t bytes16_name_run(const char *s)
{
#if defined(__SSE2__)
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)s);
    __m128i low = _mm_or_si128(x, _mm_set1_epi8(0x20));   /* A-Z to a-z */
    __m128i ok = _mm_and_si128(_mm_cmpgt_epi8(low, _mm_set1_epi8('a' - 1)),
                               _mm_cmplt_epi8(low, _mm_set1_epi8('z' + 1)));
    ok = _mm_or_si128(ok, _mm_and_si128(_mm_cmpgt_epi8(x, _mm_set1_epi8('0' - 1)),
                                        _mm_cmplt_epi8(x, _mm_set1_epi8('9' + 1))));
    ok = _mm_or_si128(ok, _mm_cmpeq_epi8(x, _mm_set1_epi8('_')));
    unsigned stop = ~(unsigned)_mm_movemask_epi8(ok);   /* bit 16 and up always set */
    return (size_t)__builtin_ctz(stop);
#else
    return bytes16_name_run_words(s);
#endif
}

/* A copy of s[0..n), 1 to 16 bytes, to t: two loads that may overlap instead of a copy
 * of any length (a call), and only bytes of s are read. */
static inline void bytes8_copy_short(char *t, const char *s, size_t n)
{
    if (n >= 8) {
        uint64_t x = bytes8_load(s), y = bytes8_load(s + n - 8);
        memcpy(t, &x, 8);
        memcpy(t + n - 8, &y, 8);
    } else if (n >= 4) {
        uint32_t x, y;
        memcpy(&x, s, 4);
        memcpy(&y, s + n - 4, 4);
        memcpy(t, &x, 4);
        memcpy(t + n - 4, &y, 4);
    } else if (n >= 2) {
        uint16_t x, y;
        memcpy(&x, s, 2);
        memcpy(&y, s + n - 2, 2);
        memcpy(t, &x, 2);
        memcpy(t + n - 2, &y, 2);
    } else {
        t[0] = s[0];
    }
}

/* A copy of s[0..n), any n, to t, eight bytes at a time (the last eight may overlap
 * the ones before), reading only bytes of s: for the short texts of a game (most
 * comments), where a call to memcpy costs more than the copy. */
static inline void bytes8_copy(char *t, const char *s, size_t n)
{
    if (n <= 16) {
        if (n)
            bytes8_copy_short(t, s, n);
        return;
    }
    size_t i = 0;
    for (; i + 8 < n; i += 8) {
        uint64_t x = bytes8_load(s + i);
        memcpy(t + i, &x, 8);
    }
    uint64_t y = bytes8_load(s + n - 8);
    memcpy(t + n - 8, &y, 8);
}

#endif
