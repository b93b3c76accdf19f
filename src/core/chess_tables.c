/* chess_tables.c: gen_chess_tables, the build-time program that computes the chess
 * core's lookup tables (leaper attacks, between/line masks, magic bitboards for rooks
 * and bishops, Zobrist keys) and writes them as C on standard output: the constant
 * data of chess_tables_data.c (chess_tables.h says why).
 *
 * The magic multipliers were found by a trial search with a fixed seed (see
 * rook_magic); this program only fills the tables they index. */
#ifndef CHESS_TABLES_GENERATOR
#error "chess_tables.c is the table generator: compile it with -DCHESS_TABLES_GENERATOR"
#endif

#include "core/chess_tables.h"

#include "core/chess.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/prng.h"

struct chess_magic chess_rook_magics[64];
struct chess_magic chess_bishop_magics[64];
uint64_t chess_knight_attacks[64];
uint64_t chess_king_attacks[64];
uint64_t chess_pawn_attacks[2][64];
uint64_t chess_between[64][64];
uint64_t chess_line[64][64];
uint64_t chess_diag_rays[64];
uint64_t chess_orth_rays[64];
uint64_t chess_check_reach[16][64];
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

/* The multipliers, one a square: found once by a trial search with a fixed seed
 * (sparse random candidates, each checked against every blocker subset; the search
 * this file ran at every start-up before, about 10 million instructions), so no
 * published constants are used. perft checks every table they index. */
static const uint64_t rook_magic[64] = {
    UINT64_C(0x10800013824009a0),    UINT64_C(0x2240001000402000),
    UINT64_C(0x0100144009002000),    UINT64_C(0x0a80040800900080),
    UINT64_C(0x0200080510020020),    UINT64_C(0x0900040001000822),
    UINT64_C(0xc080020000800100),    UINT64_C(0x6180082480104300),
    UINT64_C(0x1010800040008020),    UINT64_C(0x8001002040110080),
    UINT64_C(0x2000802000100080),    UINT64_C(0x2040808008001000),
    UINT64_C(0x20a0808008000400),    UINT64_C(0x1100800200800400),
    UINT64_C(0x0d9a008402000801),    UINT64_C(0x0840801040801100),
    UINT64_C(0x8080104000200e40),    UINT64_C(0x0000484000201000),
    UINT64_C(0x8000110020004502),    UINT64_C(0x0000848010000800),
    UINT64_C(0x0002020008042010),    UINT64_C(0x0d00080110400420),
    UINT64_C(0x0000040002080110),    UINT64_C(0x0800020013842045),
    UINT64_C(0x0980822280004001),    UINT64_C(0x0000200080400080),
    UINT64_C(0x0002002200408010),    UINT64_C(0x8480210100081000),
    UINT64_C(0x0108040080800800),    UINT64_C(0x0800020080040080),
    UINT64_C(0x0189000100020004),    UINT64_C(0x6002458a00010244),
    UINT64_C(0x000140008480012c),    UINT64_C(0x2010012002400040),
    UINT64_C(0x0000100080802000),    UINT64_C(0x8c00100080800802),
    UINT64_C(0x420a900801000500),    UINT64_C(0x1090040080800200),
    UINT64_C(0x4081000c09001200),    UINT64_C(0xc0c8010082000044),
    UINT64_C(0x02048022c0188001),    UINT64_C(0x002001300040c000),
    UINT64_C(0x4280200010008080),    UINT64_C(0x0890000804004040),
    UINT64_C(0x2008010010050008),    UINT64_C(0x039400190119000c),
    UINT64_C(0x0041020001008080),    UINT64_C(0xa080009041020024),
    UINT64_C(0x1910210050800100),    UINT64_C(0x0280c000a0100240),
    UINT64_C(0x0410200010410100),    UINT64_C(0x0140080080100080),
    UINT64_C(0x4000800400080080),    UINT64_C(0x0044800401020080),
    UINT64_C(0x0010502209880400),    UINT64_C(0x2802010428408200),
    UINT64_C(0xa080014080605303),    UINT64_C(0x10010080b12a4001),
    UINT64_C(0x1001000844200211),    UINT64_C(0x010101e00c300019),
    UINT64_C(0x1022010450082082),    UINT64_C(0x1042000410010802),
    UINT64_C(0x0200100108024084),    UINT64_C(0x0002342100408416),
};
static const uint64_t bishop_magic[64] = {
    UINT64_C(0x2008a80080820202),    UINT64_C(0x8829084080820000),
    UINT64_C(0x0410840040480020),    UINT64_C(0x001424028c810200),
    UINT64_C(0x0082021000009004),    UINT64_C(0x0c010420850080c8),
    UINT64_C(0x0002008420084211),    UINT64_C(0x0822404050101004),
    UINT64_C(0x0000224210020082),    UINT64_C(0x4000083044004044),
    UINT64_C(0x00820475041101a0),    UINT64_C(0x2490024081001112),
    UINT64_C(0x2004411041120003),    UINT64_C(0x0000009010082088),
    UINT64_C(0x0400020090041000),    UINT64_C(0x0410004042082001),
    UINT64_C(0x0008c09002280800),    UINT64_C(0x6208b06002140043),
    UINT64_C(0x0050000a04004048),    UINT64_C(0x2048000088250090),
    UINT64_C(0x0504000088a00400),    UINT64_C(0x4001010480a00100),
    UINT64_C(0x0004480c22021020),    UINT64_C(0x2000808220841082),
    UINT64_C(0x2021541490108200),    UINT64_C(0x0004028010300104),
    UINT64_C(0x84382801b0004040),    UINT64_C(0x0084080008220140),
    UINT64_C(0x08068c0000802001),    UINT64_C(0x00808100520110c0),
    UINT64_C(0x513c140404420200),    UINT64_C(0x7003004101bc0400),
    UINT64_C(0x2801101200412400),    UINT64_C(0x000402a010084120),
    UINT64_C(0x0480a08800502120),    UINT64_C(0xa042040400880211),
    UINT64_C(0x0440008020060020),    UINT64_C(0x0010010200044448),
    UINT64_C(0x4001042108049800),    UINT64_C(0x1002008200002210),
    UINT64_C(0x0002021085904040),    UINT64_C(0x0401011010000300),
    UINT64_C(0x8044108401001000),    UINT64_C(0x040a002011001800),
    UINT64_C(0x0000080100400400),    UINT64_C(0x200c18c081010200),
    UINT64_C(0x0808080800440089),    UINT64_C(0x0a24010042100100),
    UINT64_C(0x08a4908820100800),    UINT64_C(0x1c02010088041000),
    UINT64_C(0x4000805200b00014),    UINT64_C(0x8008008210440044),
    UINT64_C(0x2302002505040400),    UINT64_C(0x0020052004244000),
    UINT64_C(0x48490801280a0003),    UINT64_C(0x0003080204004040),
    UINT64_C(0x0202020100821004),    UINT64_C(0x8404450041042000),
    UINT64_C(0x00c0882112413000),    UINT64_C(0x00000c2080840400),
    UINT64_C(0x00000106100a0e08),    UINT64_C(0x4001200842282202),
    UINT64_C(0x0402a02041012108),    UINT64_C(0x0540840086120121),
};

/* Each direction's ray from each square, on an empty board. */
static uint64_t rook_rays[4][64], bishop_rays[4][64];

/* The part of ray (from a square, direction d) a slider reaches with blockers occ: up to
 * its first blocker, the lowest square on it going up the board (up), the highest going
 * down. */
static inline uint64_t ray_part(uint64_t occ, const uint64_t ray_from[64], uint64_t ray, bool up)
{
    uint64_t blockers = ray & occ;
    if (!blockers)
        return ray;
    return ray & ~ray_from[up ? chess_lsb(blockers) : 63 - __builtin_clzll(blockers)];
}

/* Each subset of one direction's relevant squares from a square, with what a slider there
 * reaches along that direction with those blockers (directions 0 and 2 go up the board, or
 * along rank 1 to the h-file; 1 and 3 down, in rook_dirs and bishop_dirs alike). */
struct ray_subsets {
    int n;
    uint64_t blockers[64], reach[64];
};

static void ray_subsets_of(struct ray_subsets *s, uint64_t part, const uint64_t ray_from[64],
                           uint64_t ray, bool up)
{
    uint64_t b = 0;
    s->n = 0;
    do { /* carry-rippler: every subset of part */
        s->blockers[s->n] = b;
        s->reach[s->n++] = ray_part(b, ray_from, ray, up);
        b = (b - part) & part;
    } while (b);
}

/* Every square's slice of table: the attacks for each blocker subset of its mask, at
 * the index its multiplier gives. The directions' blockers are disjoint and each decides
 * its own reach, so the subsets are walked direction by direction and an entry costs one
 * OR of reaches worked out once a direction, not four ray scans (107,648 entries). */
static void fill_magics(struct chess_magic *magics, uint64_t *table, const int dirs[4][2],
                        const uint64_t multiplier[64], uint64_t rays[4][64])
{
    for (int d = 0; d < 4; d++)
        for (int sq = 0; sq < 64; sq++) {
            uint64_t ray = 0;
            for (int f = (sq & 7) + dirs[d][0], r = (sq >> 3) + dirs[d][1]; on_board(f, r);
                 f += dirs[d][0], r += dirs[d][1])
                ray |= CHESS_BB(r * 8 + f);
            rays[d][sq] = ray;
        }
    uint64_t *slice = table;
    struct ray_subsets s[4];
    for (int sq = 0; sq < 64; sq++) {
        struct chess_magic *m = &magics[sq];
        m->mask = relevant_mask(sq, dirs);
        m->shift = 64u - (unsigned)chess_popcount(m->mask);
        m->magic = multiplier[sq];
        m->attacks = slice;
        for (int d = 0; d < 4; d++)
            ray_subsets_of(&s[d], m->mask & rays[d][sq], rays[d], rays[d][sq], (d & 1) == 0);
        for (int i0 = 0; i0 < s[0].n; i0++)
            for (int i1 = 0; i1 < s[1].n; i1++)
                for (int i2 = 0; i2 < s[2].n; i2++) {
                    uint64_t b = s[0].blockers[i0] | s[1].blockers[i1] | s[2].blockers[i2];
                    uint64_t a = s[0].reach[i0] | s[1].reach[i1] | s[2].reach[i2];
                    for (int i3 = 0; i3 < s[3].n; i3++)
                        slice[((b | s[3].blockers[i3]) * m->magic) >> m->shift] = a | s[3].reach[i3];
                }
        slice += (size_t)1 << (64 - m->shift);
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
    /* each square's empty-board reach, worked out once rather than once a pair */
    uint64_t rook_empty[64], bishop_empty[64];
    for (int a = 0; a < 64; a++) {
        rook_empty[a] = slide(a, 0, rook_dirs);
        bishop_empty[a] = slide(a, 0, bishop_dirs);
    }
    for (int a = 0; a < 64; a++) {
        uint64_t rook_a = rook_empty[a], bishop_a = bishop_empty[a];
        for (int b = 0; b < 64; b++) {
            const int (*dirs)[2];
            const uint64_t *empty;
            if (rook_a & CHESS_BB(b)) {
                dirs = rook_dirs;
                empty = rook_empty;
            } else if (bishop_a & CHESS_BB(b)) {
                dirs = bishop_dirs;
                empty = bishop_empty;
            } else {
                continue;
            }
            /* the squares both sliders see, with the other square as the only blocker */
            chess_between[a][b] = slide(a, CHESS_BB(b), dirs) & slide(b, CHESS_BB(a), dirs);
            chess_line[a][b] = (empty[a] & empty[b]) | CHESS_BB(a) | CHESS_BB(b);
        }
        chess_diag_rays[a] = bishop_a | CHESS_BB(a);
        chess_orth_rays[a] = rook_a | CHESS_BB(a);
    }
}

/* After init_leapers and init_lines: their tables by piece code; a king's row stays 0. */
static void init_check_reach(void)
{
    for (int color = 0; color < 2; color++)
        for (int sq = 0; sq < 64; sq++) {
            uint64_t diag = chess_diag_rays[sq] & ~CHESS_BB(sq);
            uint64_t orth = chess_orth_rays[sq] & ~CHESS_BB(sq);
            chess_check_reach[CHESS_PIECE(CHESS_PAWN, color)][sq] = chess_pawn_attacks[color][sq];
            chess_check_reach[CHESS_PIECE(CHESS_KNIGHT, color)][sq] = chess_knight_attacks[sq];
            chess_check_reach[CHESS_PIECE(CHESS_BISHOP, color)][sq] = diag;
            chess_check_reach[CHESS_PIECE(CHESS_ROOK, color)][sq] = orth;
            chess_check_reach[CHESS_PIECE(CHESS_QUEEN, color)][sq] = diag | orth;
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

/* ------------------------------------------------------------------ writing them as C */

/* One row of values in braces, four to a line. */
static void put_row(const uint64_t *v, size_t n, const char *indent)
{
    printf("{");
    for (size_t i = 0; i < n; i++)
        printf("%s0x%016" PRIx64 "u,", i % 4 ? " " : indent, v[i]);
    printf("\n%.*s}", (int)strlen(indent) - 5, indent + 1);
}

static void put_table(const char *decl, const uint64_t *v, size_t n)
{
    printf("%s = ", decl);
    put_row(v, n, "\n    ");
    printf(";\n\n");
}

static void put_table2(const char *decl, const uint64_t *v, size_t rows, size_t n)
{
    printf("%s = {", decl);
    for (size_t r = 0; r < rows; r++) {
        printf("\n    ");
        put_row(v + r * n, n, "\n        ");
        printf(",");
    }
    printf("\n};\n\n");
}

/* The magics point into their shared table, by offset. */
static void put_magics(const char *decl, const struct chess_magic *m, const char *table,
                       const uint64_t *base)
{
    printf("%s = {\n", decl);
    for (int sq = 0; sq < 64; sq++)
        printf("    {0x%016" PRIx64 "u, 0x%016" PRIx64 "u, %s + %td, %uu},\n", m[sq].mask,
               m[sq].magic, table, m[sq].attacks - base, m[sq].shift);
    printf("};\n\n");
}

int main(void)
{
    init_leapers();
    init_lines();
    init_check_reach();
    fill_magics(chess_rook_magics, rook_table, rook_dirs, rook_magic, rook_rays);
    fill_magics(chess_bishop_magics, bishop_table, bishop_dirs, bishop_magic, bishop_rays);
    init_zobrist();

    printf("/* chess_tables_data.c: made by gen_chess_tables (src/core/chess_tables.c) at build\n"
           " * time; do not edit. */\n#include \"core/chess_tables.h\"\n\n");
    put_table("static const uint64_t rook_table[102400]", rook_table, 102400);
    put_table("static const uint64_t bishop_table[5248]", bishop_table, 5248);
    put_magics("const struct chess_magic chess_rook_magics[64]", chess_rook_magics, "rook_table",
               rook_table);
    put_magics("const struct chess_magic chess_bishop_magics[64]", chess_bishop_magics,
               "bishop_table", bishop_table);
    put_table("const uint64_t chess_knight_attacks[64]", chess_knight_attacks, 64);
    put_table("const uint64_t chess_king_attacks[64]", chess_king_attacks, 64);
    put_table2("const uint64_t chess_pawn_attacks[2][64]", chess_pawn_attacks[0], 2, 64);
    put_table2("const uint64_t chess_between[64][64]", chess_between[0], 64, 64);
    put_table2("const uint64_t chess_line[64][64]", chess_line[0], 64, 64);
    put_table("const uint64_t chess_diag_rays[64]", chess_diag_rays, 64);
    put_table("const uint64_t chess_orth_rays[64]", chess_orth_rays, 64);
    put_table2("const uint64_t chess_check_reach[16][64]", chess_check_reach[0], 16, 64);
    put_table2("const uint64_t chess_zobrist_piece[16][64]", chess_zobrist_piece[0], 16, 64);
    put_table("const uint64_t chess_zobrist_ep[8]", chess_zobrist_ep, 8);
    put_table("const uint64_t chess_zobrist_castling[16]", chess_zobrist_castling, 16);
    printf("const uint64_t chess_zobrist_side = 0x%016" PRIx64 "u;\n", chess_zobrist_side);
    return fflush(stdout) == 0 && !ferror(stdout) ? EXIT_SUCCESS : EXIT_FAILURE;
}
