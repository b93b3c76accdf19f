/* dp_static.h: the semi-static analysis of blocked positions (FIDE 5.2.2, 6.9), after
 * the outline of M. Ambrona's CHA (FUN 2022). See dp_static.c for the argument. */
#ifndef ARBITER_REFEREE_DP_STATIC_H
#define ARBITER_REFEREE_DP_STATIC_H

#include <stdbool.h>
#include <stdint.h>

#include "core/chess.h"

typedef struct dp_static_result {
    uint64_t still;             /* men that can never move nor be taken */
    uint64_t king_region[2];    /* every square each king may ever stand on */
    uint64_t check_squares[2];  /* every square a man (not the king) of the colour may
                                   ever attack */
    int n;                      /* the men: square, colour, type, region */
    struct {
        uint8_t sq, color, type;
        uint64_t region;
    } men[32];
} dp_static_result;

/* 0 and res filled when the analysis settles; -1 when it proves nothing (a pawn may
 * promote, castling rights, an en passant capture, no fixpoint). */
int dp_static_analyse(const chess_pos *pos, dp_static_result *res);

/* The same analysis without the test that finds, for a few hundred instructions, most
 * positions where it gives up by its second round: the same answer and res, slower.
 * For tests that check the two agree. */
int dp_static_analyse_full(const chess_pos *pos, dp_static_result *res);

/* Whether some pawn of wp (White's) or bp (Black's) has none of blockers anywhere ahead
 * of it on its file: blockers filled down (White) or up (Black) the files, a shift at a
 * time, then compared. Shared by the dead-position tests that ask it of the pawns alone
 * and of all men. */
static inline bool dp_pawn_unblocked(uint64_t wp, uint64_t bp, uint64_t blockers)
{
    uint64_t ahead_w = blockers >> 8, ahead_b = blockers << 8; /* a blocker just ahead */
    ahead_w |= ahead_w >> 8;  /* then one anywhere ahead on the file */
    ahead_w |= ahead_w >> 16;
    ahead_w |= ahead_w >> 32;
    ahead_b |= ahead_b << 8;
    ahead_b |= ahead_b << 16;
    ahead_b |= ahead_b << 32;
    return (wp & ~ahead_w) || (bp & ~ahead_b);
}

/* True only with a proof that winner can never give check, hence never mate. */
bool dp_static_cannot_mate(const chess_pos *pos, int winner);

#endif
