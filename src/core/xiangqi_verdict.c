/* xiangqi_verdict.c: why a single xiangqi move is or is not legal.
 *
 * Move generation answers "which moves"; the referee needs "why not this one",
 * naming the rule broken, so this file checks one move against each rule in
 * turn rather than searching the generated list. */
#include <config.h>

#include "core/xiangqi_internal.h"
#include "i18n/i18n.h"

#include <stdlib.h>

static int sign(int v)
{
    return (v > 0) - (v < 0);
}

/* Pieces strictly between a and b, which share a file or rank. */
static int between_count(const xq_pos *pos, int a, int b)
{
    int df = sign(XQ_FILE(b) - XQ_FILE(a)), dr = sign(XQ_RANK(b) - XQ_RANK(a));
    int step = dr * XQ_FILES + df, n = 0;
    for (int sq = a + step; sq != b; sq += step)
        n += pos->board[sq] != 0;
    return n;
}

/* Once from-to is played, the generals on a and b (one file) see each other: no piece
 * stands between them.  Nothing is played: from reads as empty, to as taken. */
static bool faced_after(const xq_pos *pos, int a, int b, int from, int to)
{
    int step = b > a ? XQ_FILES : -XQ_FILES;
    for (int sq = a + step; sq != b; sq += step)
        if (sq == to || (sq != from && pos->board[sq]))
            return false;
    return true;
}

/* Movement rules only (Art. 4.3, 5.2); own-general safety is not looked at. */
static enum xq_verdict pseudo_verdict(const xq_pos *pos, int from, int to)
{
    int p = pos->board[from], target = pos->board[to];
    int us = pos->side;
    int df = XQ_FILE(to) - XQ_FILE(from), dr = XQ_RANK(to) - XQ_RANK(from);
    int adf = abs(df), adr = abs(dr);

    if (!p)
        return XQ_ILLEGAL_NO_PIECE;
    if (XQ_COLOR(p) != us)
        return XQ_ILLEGAL_NOT_YOUR_PIECE;
    if (target && XQ_COLOR(target) == us)
        return XQ_ILLEGAL_OWN_CAPTURE;

    switch (XQ_TYPE(p)) {
    case XQ_GENERAL:  /* Art. 4.3a */
        if (adf + adr != 1)
            return XQ_ILLEGAL_GEOMETRY;
        return xq_in_palace(to, us) ? XQ_LEGAL : XQ_ILLEGAL_PALACE;
    case XQ_ADVISOR:  /* Art. 4.3b */
        if (adf != 1 || adr != 1)
            return XQ_ILLEGAL_GEOMETRY;
        return xq_in_palace(to, us) ? XQ_LEGAL : XQ_ILLEGAL_PALACE;
    case XQ_ELEPHANT: /* Art. 4.3c */
        if (adf != 2 || adr != 2)
            return XQ_ILLEGAL_GEOMETRY;
        if ((XQ_RANK(to) <= 4 ? XQ_RED : XQ_BLACK) != us)
            return XQ_ILLEGAL_RIVER;
        if (pos->board[from + (dr / 2) * XQ_FILES + df / 2])
            return XQ_ILLEGAL_ELEPHANT_EYE;
        return XQ_LEGAL;
    case XQ_HORSE:    /* Art. 4.3e */
        if (!((adf == 1 && adr == 2) || (adf == 2 && adr == 1)))
            return XQ_ILLEGAL_GEOMETRY;
        {
            int leg = adr == 2 ? from + sign(dr) * XQ_FILES : from + sign(df);
            return pos->board[leg] ? XQ_ILLEGAL_HORSE_LEG : XQ_LEGAL;
        }
    case XQ_CHARIOT:  /* Art. 4.3d */
        if (df != 0 && dr != 0)
            return XQ_ILLEGAL_GEOMETRY;
        return between_count(pos, from, to) ? XQ_ILLEGAL_PATH_BLOCKED : XQ_LEGAL;
    case XQ_CANNON:   /* Art. 4.3g */
        if (df != 0 && dr != 0)
            return XQ_ILLEGAL_GEOMETRY;
        if (target)
            return between_count(pos, from, to) == 1 ? XQ_LEGAL : XQ_ILLEGAL_CANNON_SCREEN;
        return between_count(pos, from, to) ? XQ_ILLEGAL_PATH_BLOCKED : XQ_LEGAL;
    case XQ_SOLDIER:  /* Art. 4.3h */
    {
        int fwd = us == XQ_RED ? 1 : -1;
        bool crossed = (XQ_RANK(from) <= 4 ? XQ_RED : XQ_BLACK) != us;
        if (dr == -fwd && df == 0)
            return XQ_ILLEGAL_SOLDIER_BACKWARD;
        if (dr == 0 && adf == 1)
            return crossed ? XQ_LEGAL : XQ_ILLEGAL_SOLDIER_SIDEWAYS;
        if (dr == fwd && df == 0)
            return XQ_LEGAL;
        if (dr * fwd < 0)
            return XQ_ILLEGAL_SOLDIER_BACKWARD;
        return XQ_ILLEGAL_GEOMETRY;
    }
    default:
        return XQ_ILLEGAL_NO_PIECE;
    }
}

enum xq_verdict xq_move_check(const xq_pos *pos, xq_move m)
{
    int from = xq_move_from(m), to = xq_move_to(m);
    if (from >= XQ_SQUARES || to >= XQ_SQUARES)
        return XQ_ILLEGAL_OFF_BOARD;
    if (from == to)
        return XQ_ILLEGAL_NULL;
    enum xq_verdict v = pseudo_verdict(pos, from, to);
    if (v != XQ_LEGAL)
        return v;

    int us = pos->side;
    int a = pos->general[XQ_RED], b = pos->general[XQ_BLACK];
    if (a == from)
        a = to;
    if (b == from)
        b = to;
    /* Art. 4.3a: the face-off is named apart from ordinary checks (a move that takes
     * the other general, possible only from a broken position, faces nobody) */
    if (to != pos->general[us ^ 1] && XQ_FILE(a) == XQ_FILE(b) && faced_after(pos, a, b, from, to))
        return XQ_ILLEGAL_FLYING_GENERAL;
    /* whether the general stood in check before is asked only of an illegal move: most
     * moves are legal, and this halves the attack tests of a replay */
    if (xq_general_attacked_after(pos, us, from, to))
        return xq_general_attacked(pos, us) ? XQ_ILLEGAL_CHECK_NOT_MET : XQ_ILLEGAL_SELF_CHECK;
    return XQ_LEGAL;
}

bool xq_is_legal(const xq_pos *pos, xq_move m)
{
    return xq_move_check(pos, m) == XQ_LEGAL;
}

const char *xq_verdict_text(enum xq_verdict v)
{
    switch (v) {
    case XQ_LEGAL: return "legal";
    case XQ_ILLEGAL_OFF_BOARD: return _("point off the board");
    case XQ_ILLEGAL_NULL: return _("the piece does not move");
    case XQ_ILLEGAL_NO_PIECE: return _("no piece on the starting point");
    case XQ_ILLEGAL_NOT_YOUR_PIECE: return _("the piece belongs to the other side");
    case XQ_ILLEGAL_OWN_CAPTURE: return _("captures a piece of its own side");
    case XQ_ILLEGAL_GEOMETRY: return _("the piece does not move that way");
    case XQ_ILLEGAL_PALACE: return _("general and advisors may not leave the palace");
    case XQ_ILLEGAL_RIVER: return _("elephants may not cross the river");
    case XQ_ILLEGAL_ELEPHANT_EYE: return _("the elephant's eye is blocked");
    case XQ_ILLEGAL_HORSE_LEG: return _("the horse's leg is blocked");
    case XQ_ILLEGAL_PATH_BLOCKED: return _("the path is blocked");
    case XQ_ILLEGAL_CANNON_SCREEN: return _("a cannon captures over exactly one screen");
    case XQ_ILLEGAL_SOLDIER_BACKWARD: return _("soldiers never move backward");
    case XQ_ILLEGAL_SOLDIER_SIDEWAYS: return _("soldiers move sideways only after crossing the river");
    case XQ_ILLEGAL_FLYING_GENERAL: return _("the generals would face each other");
    case XQ_ILLEGAL_SELF_CHECK: return _("the move exposes its own general");
    case XQ_ILLEGAL_CHECK_NOT_MET: return _("the move leaves its general in check");
    }
    return "unknown";
}
