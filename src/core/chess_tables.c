/* chess_tables.c: gen_chess_tables, the build-time program that computes the chess
 * core's lookup tables (leaper attacks, between/line masks, the sliders' kindergarten
 * tables, Zobrist keys) and writes them as C on standard output: the constant data of
 * chess_tables_data.c (chess_tables.h says why). */
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
uint64_t chess_kg_fill[8][64];
uint64_t chess_kg_file[8][64];
uint64_t chess_kg_diag[64];
uint64_t chess_kg_anti[64];

static const int rook_dirs[4][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } };
static const int bishop_dirs[4][2] = { { 1, 1 }, { 1, -1 }, { -1, 1 }, { -1, -1 } };

static bool on_board(int file, int rank)
{
    return file >= 0 && file < 8 && rank >= 0 && rank < 8;
}

/* Ray walking: the slow reference the sliders' tables are made from and checked against. */
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

/* The sliders' tables (chess_tables.h), then chess_rook_attacks and
 * chess_bishop_attacks checked against the ray walk on 256,000 boards: a wrong table
 * fails the build. */
static void init_kindergarten(void)
{
    for (int f = 0; f < 8; f++)
        for (int idx = 0; idx < 64; idx++) {
            /* a rook on (f, rank 1) with the blockers idx on b1..g1: its reach on the
             * rank, copied up the board by the multiply (no carry: one byte) */
            uint64_t rank = slide(f, (uint64_t)idx << 1, rook_dirs) & CHESS_RANK_1_BB;
            chess_kg_fill[f][idx] = rank * CHESS_FILE_A_BB;
            /* a rook on (a, rank f + 1) with the blockers idx on a2..a7 */
            uint64_t focc = 0;
            for (int i = 0; i < 6; i++)
                if (idx >> i & 1)
                    focc |= CHESS_BB((i + 1) * 8);
            chess_kg_file[f][idx] = slide(f * 8, focc, rook_dirs) & CHESS_FILE_A_BB;
        }
    for (int sq = 0; sq < 64; sq++) {
        int f = sq & 7, r = sq >> 3;
        for (int t = 0; t < 64; t++) {
            int tf = t & 7, tr = t >> 3;
            if (t != sq && tf - tr == f - r)
                chess_kg_diag[sq] |= CHESS_BB(t);
            if (t != sq && tf + tr == f + r)
                chess_kg_anti[sq] |= CHESS_BB(t);
        }
    }
    uint64_t state = PRNG_SEED;
    for (int sq = 0; sq < 64; sq++)
        for (int i = 0; i < 4000; i++) {
            uint64_t occ = prng_next(&state) & prng_next(&state);  /* a quarter full */
            if (chess_rook_attacks(sq, occ) != slide(sq, occ, rook_dirs) ||
                chess_bishop_attacks(sq, occ) != slide(sq, occ, bishop_dirs)) {
                fprintf(stderr, "gen_chess_tables: kindergarten attacks wrong on %d\n", sq);
                exit(EXIT_FAILURE);
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

int main(void)
{
    init_leapers();
    init_lines();
    init_check_reach();
    init_zobrist();
    init_kindergarten();

    printf("/* chess_tables_data.c: made by gen_chess_tables (src/core/chess_tables.c) at build\n"
           " * time; do not edit. */\n#include \"core/chess_tables.h\"\n\n");
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
    put_table2("const uint64_t chess_kg_fill[8][64]", chess_kg_fill[0], 8, 64);
    put_table2("const uint64_t chess_kg_file[8][64]", chess_kg_file[0], 8, 64);
    put_table("const uint64_t chess_kg_diag[64]", chess_kg_diag, 64);
    put_table("const uint64_t chess_kg_anti[64]", chess_kg_anti, 64);
    printf("const uint64_t chess_zobrist_side = 0x%016" PRIx64 "u;\n", chess_zobrist_side);
    return fflush(stdout) == 0 && !ferror(stdout) ? EXIT_SUCCESS : EXIT_FAILURE;
}
