/* xq_annex.c: rules of the Vietnamese rapid and blitz annex (seed 002); see xq_annex.h. */
#include <config.h>

#include "referee/xq_annex.h"

xq_annex_fault xq_annex_classify(const xq_pos *pos, xq_move m)
{
    int to = xq_move_to(m);
    switch (xq_move_check(pos, m)) {
    case XQ_ILLEGAL_OFF_BOARD:
    case XQ_ILLEGAL_NULL:
    case XQ_ILLEGAL_NO_PIECE:
    case XQ_ILLEGAL_NOT_YOUR_PIECE:
    case XQ_ILLEGAL_OWN_CAPTURE:
        return XQ_ANNEX_UNPLAYABLE;
    case XQ_ILLEGAL_FLYING_GENERAL:
    case XQ_ILLEGAL_SELF_CHECK:
    case XQ_ILLEGAL_CHECK_NOT_MET:
        return XQ_ANNEX_GENERAL_EXPOSED; /* §4.4 */
    default:
        /* taking the general is no move: the game would already be over */
        if (XQ_TYPE(xq_piece_at(pos, to)) == XQ_GENERAL)
            return XQ_ANNEX_UNPLAYABLE;
        return XQ_ANNEX_ILLEGAL;
    }
}

/* Rank counted from the side's own back rank (Red's is rank 0). */
static int own_rank(int side, int sq) { return side == XQ_RED ? XQ_RANK(sq) : 9 - XQ_RANK(sq); }

bool xq_annex_must_put_right(const xq_pos *pos, xq_move m)
{
    int from = xq_move_from(m), to = xq_move_to(m);
    int piece = xq_piece_at(pos, from), side = XQ_COLOR(piece);
    int f = XQ_FILE(to), r = own_rank(side, to);
    bool palace = f >= 3 && f <= 5 && r <= 2;
    switch (XQ_TYPE(piece)) {
    case XQ_GENERAL:
        return !palace;
    case XQ_ADVISOR: /* the five points of the palace's diagonals */
        return !(palace && (f == 4) == (r == 1));
    case XQ_ELEPHANT: /* the seven points of its own half */
        return !((r == 0 || r == 4) && (f == 2 || f == 6)) && !(r == 2 && f % 4 == 0);
    case XQ_SOLDIER: /* before the river it may only go straight on */
        return own_rank(side, from) <= 4 && XQ_FILE(from) != f;
    default:
        return false;
    }
}

bool xq_annex_cannot_mate(const xq_pos *pos, int side, const char **why)
{
    int attackers = 0, cannons = 0, helpers = 0;
    for (int i = 0; i < xq_piece_count(pos, side); i++) {
        int t = XQ_TYPE(xq_piece_at(pos, xq_piece_square(pos, side, i)));
        if (t == XQ_CHARIOT || t == XQ_HORSE || t == XQ_SOLDIER || t == XQ_CANNON)
            attackers++;
        if (t == XQ_CANNON)
            cannons++;
        if (t == XQ_ADVISOR || t == XQ_ELEPHANT)
            helpers++;
    }
    /* Advisors and elephants stay in their own palace and half (Law Art. 4.3b-c) and a
     * general gives no check (two generals may never face, Art. 4.3a): without a
     * chariot, horse, cannon or soldier nothing can reach the other general. */
    if (attackers == 0) {
        *why = "only the general, advisors and elephants are left";
        return true;
    }
    /* A cannon checks only over a screen (Art. 4.3g). Against a bare general, with no
     * man of its own to screen with, a lone cannon has none: its own general cannot
     * stand between without the generals facing, and never reaches the other's rank. */
    if (attackers == 1 && cannons == 1 && helpers == 0 && xq_piece_count(pos, side ^ 1) == 1) {
        *why = "a lone cannon against a bare general has no screen to check over";
        return true;
    }
    return false;
}
