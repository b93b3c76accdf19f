/* chess_tables.c: builds the chess core's lookup tables once: leaper attacks,
 * between/line masks, magic bitboards for rooks and bishops, Zobrist keys.
 *
 * The magic multipliers are found here at start-up by a trial search with a
 * fixed seed (sparse random candidates, checked against every blocker subset),
 * so no published constants are needed and every run finds the same ones.
 * It takes a few milliseconds. */
#include "core/chess_tables.h"

#include <pthread.h>
#include <stdbool.h>
#include <string.h>

#include "core/prng.h"

struct chess_magic chess_rook_magics[64];
struct chess_magic chess_bishop_magics[64];
uint64_t chess_knight_attacks[64];
uint64_t chess_king_attacks[64];
uint64_t chess_pawn_attacks[2][64];
uint64_t chess_between[64][64];
uint64_t chess_line[64][64];
uint64_t chess_zobrist_piece[16][64];
uint64_t chess_zobrist_ep[8];
uint64_t chess_zobrist_castling[16];
uint64_t chess_zobrist_side;

/* Sizes: sum over squares of 2^(relevant bits). */
static uint64_t rook_table[102400];
static uint64_t bishop_table[5248];

static const int rook_dirs[4][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } };
static const int bishop_dirs[4][2] = { { 1, 1 }, { 1, -1 }, { -1, 1 }, { -1, -1 } };

static bool on_board(int file, int rank)
{
    return file >= 0 && file < 8 && rank >= 0 && rank < 8;
}

/* Ray walking: the slow reference the magics are checked against. */
static uint64_t slide(int sq, uint64_t occ, const int dirs[4][2])
{
    uint64_t att = 0;
    for (int d = 0; d < 4; d++) {
        int f = (sq & 7) + dirs[d][0], r = (sq >> 3) + dirs[d][1];
        while (on_board(f, r)) {
            att |= CHESS_BB(r * 8 + f);
            if (occ & CHESS_BB(r * 8 + f))
                break;
            f += dirs[d][0];
            r += dirs[d][1];
        }
    }
    return att;
}

/* Blockers that matter: each ray minus its last square, whose occupancy
 * cannot change what the slider reaches. */
static uint64_t relevant_mask(int sq, const int dirs[4][2])
{
    uint64_t mask = 0;
    for (int d = 0; d < 4; d++) {
        int f = (sq & 7) + dirs[d][0], r = (sq >> 3) + dirs[d][1];
        while (on_board(f + dirs[d][0], r + dirs[d][1])) {
            mask |= CHESS_BB(r * 8 + f);
            f += dirs[d][0];
            r += dirs[d][1];
        }
    }
    return mask;
}

/* Per-square seed tweaks, chosen offline (by running this same search over
 * tweaks 0..255 and keeping the quickest) so that start-up takes about a
 * millisecond instead of a few hundred; any values would give correct
 * magics, only more slowly. */
static const uint8_t rook_tweak[64] = {
    241, 152, 101, 113, 156, 93, 33, 95, 239, 128, 64, 105, 177, 141, 137, 89,
    102, 83, 94, 53, 130, 165, 222, 11, 150, 246, 179, 224, 230, 213, 221, 87,
    126, 10, 31, 80, 166, 58, 125, 73, 243, 167, 213, 134, 151, 0, 96, 33,
    68, 99, 26, 253, 188, 153, 40, 103, 180, 37, 136, 185, 34, 203, 216, 17,
};
static const uint8_t bishop_tweak[64] = {
    57, 162, 90, 74, 111, 52, 38, 180, 129, 207, 45, 14, 193, 167, 106, 255,
    29, 205, 243, 251, 123, 174, 192, 1, 212, 48, 85, 153, 212, 118, 87, 52,
    25, 142, 178, 170, 216, 69, 154, 234, 199, 185, 75, 246, 135, 248, 102, 25,
    99, 8, 5, 13, 89, 141, 90, 88, 160, 116, 30, 70, 61, 185, 174, 174,
};

/* Search a multiplier for one square; returns the candidates tried.  With
 * limit > 0, gives up (returning limit) after that many tries. */
static long find_magic(struct chess_magic *m, uint64_t *slice, int sq, const int dirs[4][2],
                       uint64_t seed, long limit)
{
    static uint64_t occ[4096], ref[4096];
    static unsigned epoch[4096];
    static unsigned attempt;
    long tries = 0;
    int n = 0;
    uint64_t b = 0;

    m->mask = relevant_mask(sq, dirs);
    m->shift = 64u - (unsigned)chess_popcount(m->mask);
    m->attacks = slice;
    /* carry-rippler: visit every subset of the mask */
    do {
        occ[n] = b;
        ref[n] = slide(sq, b, dirs);
        n++;
        b = (b - m->mask) & m->mask;
    } while (b);

    for (;;) {
        uint64_t magic = prng_next(&seed) & prng_next(&seed) & prng_next(&seed);
        bool ok = true;
        /* a good multiplier spreads the mask into the top byte */
        if (chess_popcount((m->mask * magic) >> 56) < 6)
            continue;
        if (limit > 0 && tries >= limit)
            return limit;
        tries++;
        /* epoch stamps stand in for clearing the slice before each try */
        if (++attempt == 0) {
            memset(epoch, 0, sizeof epoch);
            attempt = 1;
        }
        for (int i = 0; i < n && ok; i++) {
            unsigned idx = (unsigned)((occ[i] * magic) >> m->shift);
            if (epoch[idx] != attempt) {
                epoch[idx] = attempt;
                slice[idx] = ref[i];
            } else if (slice[idx] != ref[i]) {
                ok = false;
            }
        }
        if (ok) {
            m->magic = magic;
            return tries;
        }
    }
}

static uint64_t square_seed(int sq, int tweak)
{
    /* any fixed non-zero seed works; this one is only for the magic search */
    return UINT64_C(0x2545F4914F6CDD1D) ^ ((uint64_t)(sq * 256 + tweak + 1) << 20);
}

static void find_magics(struct chess_magic *magics, uint64_t *table, const int dirs[4][2],
                        const uint8_t tweak[64])
{
    uint64_t *slice = table;
    for (int sq = 0; sq < 64; sq++) {
        find_magic(&magics[sq], slice, sq, dirs, square_seed(sq, tweak[sq]), 0);
        slice += (size_t)1 << (64 - magics[sq].shift);
    }
}

static void init_leapers(void)
{
    static const int knight[8][2] = { { 1, 2 }, { 2, 1 }, { 2, -1 }, { 1, -2 },
                                      { -1, -2 }, { -2, -1 }, { -2, 1 }, { -1, 2 } };
    static const int king[8][2] = { { 1, 0 }, { 1, 1 }, { 0, 1 }, { -1, 1 },
                                    { -1, 0 }, { -1, -1 }, { 0, -1 }, { 1, -1 } };
    for (int sq = 0; sq < 64; sq++) {
        int f = sq & 7, r = sq >> 3;
        for (int i = 0; i < 8; i++) {
            if (on_board(f + knight[i][0], r + knight[i][1]))
                chess_knight_attacks[sq] |= CHESS_BB((r + knight[i][1]) * 8 + f + knight[i][0]);
            if (on_board(f + king[i][0], r + king[i][1]))
                chess_king_attacks[sq] |= CHESS_BB((r + king[i][1]) * 8 + f + king[i][0]);
        }
        for (int df = -1; df <= 1; df += 2) {
            if (on_board(f + df, r + 1))
                chess_pawn_attacks[0][sq] |= CHESS_BB((r + 1) * 8 + f + df);
            if (on_board(f + df, r - 1))
                chess_pawn_attacks[1][sq] |= CHESS_BB((r - 1) * 8 + f + df);
        }
    }
}

static void init_lines(void)
{
    for (int a = 0; a < 64; a++) {
        uint64_t rook_a = slide(a, 0, rook_dirs), bishop_a = slide(a, 0, bishop_dirs);
        for (int b = 0; b < 64; b++) {
            const int (*dirs)[2];
            if (rook_a & CHESS_BB(b))
                dirs = rook_dirs;
            else if (bishop_a & CHESS_BB(b))
                dirs = bishop_dirs;
            else
                continue;
            /* the squares both sliders see, with the other square as the only blocker */
            chess_between[a][b] = slide(a, CHESS_BB(b), dirs) & slide(b, CHESS_BB(a), dirs);
            chess_line[a][b] = (slide(a, 0, dirs) & slide(b, 0, dirs)) | CHESS_BB(a) | CHESS_BB(b);
        }
    }
}

static void init_zobrist(void)
{
    uint64_t state = PRNG_SEED;
    uint64_t right[4];

    for (int color = 0; color < 2; color++)
        for (int type = 1; type <= 6; type++)
            for (int sq = 0; sq < 64; sq++)
                chess_zobrist_piece[type | (color << 3)][sq] = prng_next(&state);
    for (int f = 0; f < 8; f++)
        chess_zobrist_ep[f] = prng_next(&state);
    for (int r = 0; r < 4; r++)
        right[r] = prng_next(&state);
    for (int set = 0; set < 16; set++) {
        chess_zobrist_castling[set] = 0;
        for (int r = 0; r < 4; r++)
            if (set & (1 << r))
                chess_zobrist_castling[set] ^= right[r];
    }
    chess_zobrist_side = prng_next(&state);
}

static void build(void)
{
    init_leapers();
    init_lines();
    find_magics(chess_rook_magics, rook_table, rook_dirs, rook_tweak);
    find_magics(chess_bishop_magics, bishop_table, bishop_dirs, bishop_tweak);
    init_zobrist();
}

void chess_tables_init(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, build);
}
