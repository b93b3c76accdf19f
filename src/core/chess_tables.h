/* chess_tables.h: private to the chess core: bitboard helpers, attack tables
 * (kindergarten bitboards for sliders) and Zobrist keys.  Not for use outside
 * src/core/chess*.c.
 *
 * The tables are constant data, computed at build time: gen_chess_tables
 * (chess_tables.c, compiled with CHESS_TABLES_GENERATOR) fills them and writes
 * them out as C (chess_tables_data.c), so a run pays nothing to build them. */
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

/* Constant, but for the generator that fills them. */
#ifdef CHESS_TABLES_GENERATOR
#define CHESS_TABLE
#else
#define CHESS_TABLE const
#endif

/* The sliders' tables (kindergarten bitboards), 8.5 KB in all where magic bitboards
 * take 900 KB: one line's blockers are gathered into a 6-bit index by a multiply (or a
 * shift, on a rank), and the attacks along that line are read from a table indexed by
 * the slider's file or rank. A magic lookup is a few instructions fewer, but its 900 KB
 * table does not stay in the caches of a run that also reads and writes text: on the
 * bench corpus the small tables took about 3% less time (issue 29). */
/* [file][blockers on files b..g, bit 0 = b]: what a rook on that file of a rank reaches
 * along the rank, the rank's byte copied to all eight ranks (a mask picks one) */
extern CHESS_TABLE uint64_t chess_kg_fill[8][64];
/* [rank][blockers on ranks 2..7, bit 0 = rank 2]: what a rook on that rank of the a-file
 * reaches along the file */
extern CHESS_TABLE uint64_t chess_kg_file[8][64];
/* the diagonal (a1-h8 direction) and the anti-diagonal through sq, sq not included */
extern CHESS_TABLE uint64_t chess_kg_diag[64];
extern CHESS_TABLE uint64_t chess_kg_anti[64];
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

#define CHESS_KG_B_FILE (CHESS_FILE_A_BB << 1)
#define CHESS_KG_A_INNER UINT64_C(0x0001010101010100) /* a2..a7 */
/* A multiplier that moves a2..a7 to bits 58..63 with no carry (one square of the c2-h7
 * diagonal a rank), as the b-file moves a line's files b..g there. */
#define CHESS_KG_C2H7 UINT64_C(0x0004081020408000)

/* The squares a rook on sq reaches with the pieces occ on the board. */
static inline uint64_t chess_rook_attacks(int sq, uint64_t occ)
{
    int f = sq & 7, r = sq >> 3;
    uint64_t rank = chess_kg_fill[f][(occ >> (8 * r + 1)) & 63] & CHESS_RANK_BB(r);
    uint64_t file = chess_kg_file[r][(((occ >> f) & CHESS_KG_A_INNER) * CHESS_KG_C2H7) >> 58] << f;
    return rank | file;
}

/* The squares a bishop on sq reaches: each diagonal has one square a file, so its
 * blockers' files index the rank table, and the diagonal's mask picks the squares. */
static inline uint64_t chess_bishop_attacks(int sq, uint64_t occ)
{
    int f = sq & 7;
    uint64_t d = chess_kg_diag[sq], a = chess_kg_anti[sq];
    return (chess_kg_fill[f][((occ & d) * CHESS_KG_B_FILE) >> 58] & d) |
           (chess_kg_fill[f][((occ & a) * CHESS_KG_B_FILE) >> 58] & a);
}

#endif
