/* prng.h: the fixed-seed pseudo-random generator behind the Zobrist keys.
 *
 * xorshift64* (Vigna), seeded with 1070372 as Ethereal and Stockfish do, so that
 * keys are identical on every machine and may appear in reports and golden files. */
#ifndef ARBITER_CORE_PRNG_H
#define ARBITER_CORE_PRNG_H

#include <stdint.h>

#define PRNG_SEED UINT64_C(1070372)

/* Advance *state and return the next 64-bit value; *state must never be 0. */
static inline uint64_t prng_next(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * UINT64_C(2685821657736338717);
}

#endif
