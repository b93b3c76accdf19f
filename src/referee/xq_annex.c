/* xq_annex.c: rules of the Vietnamese rapid and blitz annex (seed 002); see xq_annex.h. */
#include <config.h>

#include "i18n/i18n.h"
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
        *why = _("only the general, advisors and elephants are left");
        return true;
    }
    /* A cannon checks only over a screen (Art. 4.3g). Against a bare general, with no
     * man of its own to screen with, a lone cannon has none: its own general cannot
     * stand between without the generals facing, and never reaches the other's rank. */
    if (attackers == 1 && cannons == 1 && helpers == 0 && xq_piece_count(pos, side ^ 1) == 1) {
        *why = _("a lone cannon against a bare general has no screen to check over");
        return true;
    }
    return false;
}

typedef struct helpmate {
    int winner;
    long budget, nodes;
    xq_move line[32];
} helpmate;

/* Depth-first to exactly depth plies more; the winner's checks first, since every mate
 * ends with one and they narrow the loser's replies. */
static bool hm_search(helpmate *h, xq_pos *pos, int ply, int depth)
{
    if (++h->nodes > h->budget)
        return false;
    int side = xq_pos_side(pos);
    if (depth == 0)
        return side != h->winner && !xq_has_legal_move(pos);
    xq_movelist list;
    xq_gen_legal(pos, &list);
    if (list.count == 0)
        return false; /* an end, but not the one sought (or not at this depth) */
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < list.count; i++) {
            xq_undo u;
            xq_make(pos, list.moves[i], &u);
            /* the winner's checks in the first pass, the rest in the second */
            bool skip = side == h->winner && (pass == 0) != xq_in_check(pos);
            bool found = false;
            if (!skip) {
                h->line[ply] = list.moves[i];
                found = hm_search(h, pos, ply + 1, depth - 1);
            }
            xq_unmake(pos, list.moves[i], &u);
            if (found)
                return true;
            if (h->nodes > h->budget)
                return false;
        }
        if (side != h->winner)
            break; /* the loser's moves: all in one pass */
    }
    return false;
}

bool xq_annex_helpmate(const xq_pos *pos, int winner, int max_plies, long budget,
                       xq_move *line, int *len, long *nodes)
{
    helpmate h = {.winner = winner, .budget = budget};
    xq_pos p = *pos;
    if (max_plies > 32)
        max_plies = 32;
    bool found = false;
    int depth;
    for (depth = 1; depth <= max_plies && !found && h.nodes <= h.budget; depth++)
        found = hm_search(&h, &p, 0, depth);
    *nodes = h.nodes;
    *len = 0;
    if (!found)
        return false;
    *len = depth - 1;
    for (int i = 0; i < *len; i++)
        line[i] = h.line[i];
    return true;
}
