/* chess_tables.h: private to the chess core: bitboard helpers, attack tables
 * (magic bitboards for sliders) and Zobrist keys.  Not for use outside
 * src/core/chess*.c.
 *
 * The tables are constant data, computed at build time: gen_chess_tables
 * (chess_tables.c, compiled with CHESS_TABLES_GENERATOR) fills them and writes
 * them out as C (chess_tables_data.c), so a run pays neither the 2.5 million
 * instructions of building them nor the page faults of writing 900 KB. */
#ifndef ARBITER_CORE_CHESS_TABLES_H
#define ARBITER_CORE_CHESS_TABLES_H

#include <stdint.h>

#define CHESS_BB(sq) (UINT64_C(1) << (sq))
#define CHESS_FILE_A_BB UINT64_C(0x0101010101010101)
#define CHESS_FILE_H_BB (CHESS_FILE_A_BB << 7)
#define CHESS_RANK_1_BB UINT64_C(0xff)
#define CHESS_RANK_BB(r) (CHESS_RANK_1_BB << (8 * (r)))

static inline int chess_lsb(uint64_t b) { return __builtin_ctzll(b); }
static inline int chess_popcount(uint64_t b) { return __builtin_popcountll(b); }
static inline int chess_pop_lsb(uint64_t *b)
{
    int sq = __builtin_ctzll(*b);
    *b &= *b - 1;
    return sq;
}

/* One square's magic: index = ((occ & mask) * magic) >> shift. */
struct chess_magic {
    uint64_t mask;           /* relevant blockers: the rays without their last square */
    uint64_t magic;
    const uint64_t *attacks; /* this square's slice of the shared table */
    unsigned shift;
};

/* Constant, but for the generator that fills them. */
#ifdef CHESS_TABLES_GENERATOR
#define CHESS_TABLE
#else
#define CHESS_TABLE const
#endif

extern CHESS_TABLE struct chess_magic chess_rook_magics[64];
extern CHESS_TABLE struct chess_magic chess_bishop_magics[64];
extern CHESS_TABLE uint64_t chess_knight_attacks[64];
extern CHESS_TABLE uint64_t chess_king_attacks[64];
/* squares a pawn of [color] on sq attacks */
extern CHESS_TABLE uint64_t chess_pawn_attacks[2][64];
/* strictly between two aligned squares, else 0 */
extern CHESS_TABLE uint64_t chess_between[64][64];
/* the full line through two aligned squares, else 0 */
extern CHESS_TABLE uint64_t chess_line[64][64];
extern CHESS_TABLE uint64_t chess_diag_rays[64];         /* both diagonals through sq, sq included */
extern CHESS_TABLE uint64_t chess_orth_rays[64];         /* the file and rank of sq, sq included */
/* By piece code and square: the squares the piece attacks from there on an empty board,
 * none for a king (a king never gives check): one load where a check test would switch
 * on the piece type. */
extern CHESS_TABLE uint64_t chess_check_reach[16][64];

/* by piece code; rows 0, 7, 8, 15 unused */
extern CHESS_TABLE uint64_t chess_zobrist_piece[16][64];
extern CHESS_TABLE uint64_t chess_zobrist_ep[8];         /* by file */
/* by rights bit set: xor of one key per right */
extern CHESS_TABLE uint64_t chess_zobrist_castling[16];
extern CHESS_TABLE uint64_t chess_zobrist_side;          /* xor-ed in when Black is to move */

static inline uint64_t chess_rook_attacks(int sq, uint64_t occ)
{
    const struct chess_magic *m = &chess_rook_magics[sq];
    return m->attacks[((occ & m->mask) * m->magic) >> m->shift];
}

static inline uint64_t chess_bishop_attacks(int sq, uint64_t occ)
{
    const struct chess_magic *m = &chess_bishop_magics[sq];
    return m->attacks[((occ & m->mask) * m->magic) >> m->shift];
}

#endif
