/* strhash.h: a 64-bit hash of a byte string, eight bytes a step (names and tag values
 * are hashed for tables and twin keys many times a game; FNV's byte a step cost more
 * than the rest of a lookup). Not for anything an adversary chooses: a table that
 * meets collisions still answers right, only slower.
 *
 * The words are read little-endian on every machine, so keys written into reports
 * (db_keys_format) are the same bytes on any architecture. */
#ifndef ARBITER_RECORD_STRHASH_H
#define ARBITER_RECORD_STRHASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* splitmix64's finaliser: every input bit moves every output bit */
static inline uint64_t strhash_mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static inline uint64_t strhash_le64(const unsigned char *s)
{
    uint64_t w;
    memcpy(&w, s, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

static inline uint32_t strhash_le32(const unsigned char *s)
{
    uint32_t w;
    memcpy(&w, s, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap32(w);
#endif
    return w;
}

/* The hash of the N bytes at P, from SEED. The length is mixed in first, so the last
 * word's overlapping loads (up to 7 bytes read twice) cannot make two strings one. */
static inline uint64_t strhash_bytes(uint64_t seed, const void *p, size_t n)
{
    const unsigned char *s = p;
    uint64_t h = (seed ^ 0x9e3779b97f4a7c15ull) + n * 0xff51afd7ed558ccdull;
    for (; n >= 8; s += 8, n -= 8) {
        h = (h ^ strhash_le64(s)) * 0xbf58476d1ce4e5b9ull;
        h ^= h >> 32;
    }
    if (n) {
        uint64_t w = n >= 4 ? (uint64_t)strhash_le32(s) << 32 | strhash_le32(s + n - 4)
                            : (uint64_t)s[0] << 16 | (uint64_t)s[n / 2] << 8 | s[n - 1];
        h = (h ^ w) * 0x94d049bb133111ebull;
        h ^= h >> 32;
    }
    return strhash_mix(h);
}

#endif
