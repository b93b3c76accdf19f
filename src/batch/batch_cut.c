/* batch_cut.c: where a PGN text may be cut into pieces. See batch_cut.h. */
#include <config.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "batch/batch_cut.h"

/* A line that opens a tag section: '[', a tag name, blanks and a quote. */
static bool tag_line_at(const char *s, const char *end)
{
    if (s >= end || *s != '[')
        return false;
    const char *p = s + 1;
    while (p < end && (isalnum((unsigned char)*p) || *p == '_'))
        p++;
    if (p == s + 1 || p >= end || (*p != ' ' && *p != '\t'))
        return false;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p < end && *p == '"';
}

/* Where to cut buf[0..len) at or after from: the start of a tag line whose previous
 * non-blank line is not a tag line (the start of a game's tag section); 0 if none. */
size_t batch_find_cut(const char *buf, size_t len, size_t from)
{
    const char *end = buf + len;
    const char *p = buf + from;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            return 0;
        const char *ls = nl + 1;
        if (ls < end && *ls == '[' && tag_line_at(ls, end)) {
            /* the previous non-blank line */
            const char *q = nl;
            while (q > buf) {
                const char *e = q; /* end of a line (its '\n') */
                const char *b = e;
                while (b > buf && b[-1] != '\n')
                    b--;
                const char *t = b;
                while (t < e && (*t == ' ' || *t == '\t' || *t == '\r'))
                    t++;
                if (t < e) {
                    if (*t != '[')
                        return (size_t)(ls - buf);
                    break;
                }
                q = b > buf ? b - 1 : buf;
                if (b == buf)
                    break;
            }
        }
        p = ls;
    }
    return 0;
}

/* The splitter looks at every byte in the main thread while it cuts: the line count
 * goes sixteen bytes at a time. */
uint32_t batch_count_newlines(const char *s, size_t n)
{
    uint32_t lines = 0;
    size_t i = 0;
#if defined(__SSE2__)
    const __m128i nl = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();
    while (n - i >= 16) {
        /* a byte lane counts up to 255 matches (a match is -1), then the lanes are summed */
        size_t blocks = (n - i) / 16 < 255 ? (n - i) / 16 : 255;
        __m128i acc = zero;
        for (size_t b = 0; b < blocks; b++, i += 16)
            acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(_mm_loadu_si128((const void *)(s + i)), nl));
        __m128i sums = _mm_sad_epu8(acc, zero);
        lines += (uint32_t)_mm_cvtsi128_si32(sums) + (uint32_t)_mm_extract_epi16(sums, 4);
    }
#else
    const uint64_t ones = UINT64_C(0x0101010101010101), high = ones << 7;
    const uint64_t lanes16 = UINT64_C(0x00FF00FF00FF00FF);
    while (n - i >= 8) {
        size_t words = (n - i) / 8 < 255 ? (n - i) / 8 : 255;
        uint64_t acc = 0; /* a byte per lane, up to 255 */
        for (size_t w = 0; w < words; w++, i += 8) {
            /* a byte of x is zero where s has '\n'; ~t sets the high bit of exactly
             * those bytes (no borrow crosses a byte) */
            uint64_t x;
            memcpy(&x, s + i, 8);
            x ^= ones * '\n';
            uint64_t t = ((x & ~high) + ~high) | x;
            acc += (~t & high) >> 7;
        }
        acc = (acc & lanes16) + ((acc >> 8) & lanes16);
        lines += (uint32_t)((acc * UINT64_C(0x0001000100010001)) >> 48);
    }
#endif
    for (; i < n; i++)
        lines += s[i] == '\n';
    return lines;
}

/* A UTF-8 byte-order mark anywhere in s[0..n) (memmem is slow with a 3-byte needle). */
bool batch_has_bom(const char *s, size_t n)
{
    const char *end = s + n;
    for (const char *p = s; (p = memchr(p, '\xEF', (size_t)(end - p))) != NULL; p++)
        if (end - p >= 3 && p[1] == '\xBB' && p[2] == '\xBF')
            return true;
    return false;
}

/* 256 KiB a piece by default: small pieces keep the buffers in the caches and cost
 * about 15,000 instructions each. ARBITER_PIECE_SIZE=N (bytes) sets it, for the tests
 * that cut inputs at every game, and then pieces do not shrink near the end. */
size_t batch_piece_target(bool *fixed)
{
    const char *env = getenv("ARBITER_PIECE_SIZE");
    long n = env ? strtol(env, NULL, 10) : 0;
    *fixed = n > 0 && n <= BATCH_PIECE_MAX / 2;
    return *fixed ? (size_t)n : 256 * 1024;
}

size_t batch_piece_size_at(size_t target, bool fixed, uint64_t size, uint64_t offset, int jobs)
{
    if (fixed || size <= offset)
        return target;
    uint64_t share = (size - offset) / (4 * (uint64_t)jobs);
    return share >= target ? target : share < BATCH_PIECE_MIN ? BATCH_PIECE_MIN : (size_t)share;
}
