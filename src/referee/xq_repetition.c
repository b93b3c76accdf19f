/* xq_repetition.c: classifying the moves of a xiangqi repetition cycle and judging it.
 *
 * Only called when a position has occurred the third time (the replay's hot path keeps
 * keys only), so clarity wins over speed here: attacks come from the core's move
 * generator, roots from its legality test. See xq_repetition.h for the rule texts. */
#include <config.h>

#include <string.h>

#include "i18n/i18n.h"
#include "referee/xq_repetition.h"

const char *xqrep_piece_name(int type)
{
    switch (type) {
    case XQ_GENERAL: return _("general");
    case XQ_ADVISOR: return _("advisor");
    case XQ_ELEPHANT: return _("elephant");
    case XQ_HORSE: return _("horse");
    case XQ_CHARIOT: return _("chariot");
    case XQ_CANNON: return _("cannon");
    case XQ_SOLDIER: return _("soldier");
    default: return _("piece");
    }
}

/* A soldier has crossed the river once it stands in the other side's half (Art. 4.3h);
 * Red's half is ranks 0-4. */
static bool crossed(int piece, int sq)
{
    return XQ_COLOR(piece) == XQ_RED ? XQ_RANK(sq) >= 5 : XQ_RANK(sq) <= 4;
}

/* Exempt targets (AXF; CXA 29; Vietnamese glossary "đuổi bắt"): the general, and a
 * soldier that has not crossed the river. */
static bool chase_target(int piece, int sq)
{
    int t = XQ_TYPE(piece);
    if (t == XQ_GENERAL)
        return false;
    if (t == XQ_SOLDIER)
        return crossed(piece, sq);
    return true;
}

/* Exempt chasers: the general and the soldiers may chase (AXF; CXA 27.1-27.2). */
static bool chase_attacker(int piece)
{
    int t = XQ_TYPE(piece);
    return t != XQ_GENERAL && t != XQ_SOLDIER;
}

/* Attacks that count even on a protected piece (B2): a horse or cannon on a chariot
 * (AXF), an advisor or elephant on a chariot, horse or cannon (the stronger piece is
 * won all the same; Fairy-Stockfish and Pikafish count them too). */
static bool counts_protected(int attacker, int target)
{
    int a = XQ_TYPE(attacker), t = XQ_TYPE(target);
    if (t == XQ_CHARIOT && (a == XQ_HORSE || a == XQ_CANNON))
        return true;
    return (a == XQ_ADVISOR || a == XQ_ELEPHANT) &&
           (t == XQ_CHARIOT || t == XQ_HORSE || t == XQ_CANNON);
}

/* A real root: after the capture on sq, the owner can legally take back there. A
 * protector that is pinned, or whose recapture would leave the generals facing (Art.
 * 4.3a), is a fake root and fails the legality test. */
static bool has_real_root(const xq_pos *after_capture, int sq)
{
    xq_movelist list;
    int n = xq_gen_legal(after_capture, &list);
    for (int i = 0; i < n; i++)
        if (xq_move_to(list.moves[i]) == sq)
            return true;
    return false;
}

int xqrep_chase_targets(const xq_pos *pos, int by, uint8_t targets[XQREP_MAX],
                        uint8_t chasers[XQREP_MAX])
{
    xq_pos p = *pos;
    p.side = (uint8_t)by;       /* as if `by` were to move; the key is not used here */
    xq_movelist list;
    int n = xq_gen_pseudo(&p, &list), count = 0;
    for (int i = 0; i < n; i++) {
        xq_move m = list.moves[i];
        int from = xq_move_from(m), to = xq_move_to(m);
        int attacker = p.board[from], target = p.board[to];
        if (!target || !chase_attacker(attacker) || !chase_target(target, to))
            continue;
        bool seen = false;
        for (int k = 0; k < count; k++)
            seen |= targets[k] == to;
        if (seen)
            continue;
        /* the capture must be legal: a pinned chaser only threatens what keeps its
         * general safe (Art. 6) */
        if (!xq_is_legal(&p, m))
            continue;
        if (!counts_protected(attacker, target)) {
            xq_pos q = p;
            xq_undo undo;
            xq_make(&q, m, &undo);
            if (has_real_root(&q, to))
                continue;
            if (XQ_TYPE(attacker) == XQ_TYPE(target)) {
                /* same-type mutual attack (two chariots, two horses ...): a chase only
                 * when the target cannot take back (a blocked horse leg, a pin) */
                xq_pos r = p;
                r.side = (uint8_t)(by ^ 1);
                if (xq_is_legal(&r, xq_move_make(to, from)))
                    continue;
            }
        }
        targets[count] = (uint8_t)to;
        chasers[count] = (uint8_t)from;
        if (++count == XQREP_MAX)
            break;
    }
    return count;
}

bool xqrep_mate_threat(const xq_pos *pos, int by)
{
    xq_pos p = *pos;
    p.side = (uint8_t)by;
    if (xq_in_check(&p))
        return false;
    xq_movelist list;
    int n = xq_gen_legal(&p, &list);
    for (int i = 0; i < n; i++) {
        xq_pos q = p;
        xq_undo undo;
        xq_make(&q, list.moves[i], &undo);
        if (xq_is_checkmate(&q))
            return true;
    }
    return false;
}

void xqrep_classify(const xq_pos *before, xq_move m, referee_rules rules, xqrep_class *out)
{
    int us = before->side;
    xq_pos after = *before;
    xq_undo undo;
    xq_make(&after, m, &undo);
    out->kind = XQREP_IDLE;
    out->count = 0;
    /* Art. 6.1: a check. A check that also attacks a piece anew keeps that chase (its
     * kind stays CHECK): a perpetual chase follows the target through every move, checks
     * included, as Fairy-Stockfish reads the AXF rules (its cases "discovered and
     * anti-discovered chase by cannon"). */
    if (xq_in_check(&after))
        out->kind = XQREP_CHECK;
    /* CXA (长杀): a mate threat; the AXF and the Vietnamese law allow it */
    else if (rules == REFEREE_RULES_CXA && xqrep_mate_threat(&after, us)) {
        out->kind = XQREP_KILL;
        return;
    }
    uint8_t now[XQREP_MAX], now_by[XQREP_MAX], was[XQREP_MAX], was_by[XQREP_MAX];
    int n_now = xqrep_chase_targets(&after, us, now, now_by);
    if (!n_now)
        return;
    int n_was = xqrep_chase_targets(before, us, was, was_by);
    /* only new attacks chase (B2): the target pieces do not move on our move, so the
     * same point is the same piece */
    for (int i = 0; i < n_now; i++) {
        bool old = false;
        for (int k = 0; k < n_was; k++)
            old |= was[k] == now[i];
        if (!old) {
            out->chased[out->count] = now[i];
            out->chaser[out->count] = now_by[i];
            out->count++;
        }
    }
    if (out->count && out->kind == XQREP_IDLE)
        out->kind = XQREP_CHASE;
}

void xqrep_judge(const xq_pos *start, const xq_move *moves, int count, referee_rules rules,
                 xqrep_verdict *out)
{
    memset(out, 0, sizeof *out);
    out->loser = -1;
    /* identities: each piece keeps its number (per colour) while it moves */
    int8_t id[XQ_SQUARES];
    int next[2] = {0, 0};
    for (int sq = 0; sq < XQ_SQUARES; sq++)
        id[sq] = start->board[sq] ? (int8_t)next[XQ_COLOR(start->board[sq])]++ : -1;

    bool all_check[2] = {true, true}, all_kill[2] = {true, true}, all_forcing[2] = {true, true};
    unsigned kinds[2] = {0, 0};
    uint32_t chase_all[2] = {~0u, ~0u};   /* pieces chased on every move */
    uint32_t chase_some[2] = {~0u, ~0u};  /* pieces chased on every chasing move */
    int mover_id[2] = {-2, -2};           /* the one piece that gave every check, or -1 */
    int mover_type[2] = {0, 0};
    /* the last chase of each side, to name the pieces */
    int last_target_id[2][XQREP_MAX], last_chaser_sq[2][XQREP_MAX], last_n[2] = {0, 0};
    int last_chaser_piece[2][XQREP_MAX];

    xq_pos pos = *start;
    for (int k = 0; k < count; k++) {
        int us = pos.side;
        xqrep_class c;
        xqrep_classify(&pos, moves[k], rules, &c);
        int from = xq_move_from(moves[k]), to = xq_move_to(moves[k]);
        int moved_id = id[from];
        id[to] = id[from];
        id[from] = -1;
        out->moves[us]++;
        all_check[us] &= c.kind == XQREP_CHECK;
        all_kill[us] &= c.kind == XQREP_KILL;
        all_forcing[us] &= c.kind != XQREP_IDLE;
        kinds[us] |= 1u << c.kind;
        if (c.kind == XQREP_CHECK) {
            if (mover_id[us] == -2) {
                mover_id[us] = moved_id;
                mover_type[us] = XQ_TYPE(pos.board[from]);
            } else if (mover_id[us] != moved_id) {
                mover_id[us] = -1;
            }
        }
        uint32_t mask = 0;
        for (int i = 0; i < c.count; i++) {
            /* the targets did not move: their identities are at their points */
            mask |= 1u << id[c.chased[i]];
            last_target_id[us][i] = id[c.chased[i]];
            last_chaser_sq[us][i] = c.chaser[i];
            /* c.chaser is a point after the move: the moved piece or one that stayed */
            last_chaser_piece[us][i] = pos.board[c.chaser[i] == to ? from : c.chaser[i]];
        }
        if (c.count)
            last_n[us] = c.count;
        if (c.kind == XQREP_CHASE)
            chase_some[us] &= mask;
        chase_all[us] &= mask;
        xq_undo undo;
        xq_make(&pos, moves[k], &undo);
    }

    bool forbidden[2];
    for (int s = 0; s < 2; s++) {
        if (out->moves[s] == 0) {
            forbidden[s] = false;
            continue;
        }
        if (all_check[s]) {
            out->fault[s] = XQREP_PERPETUAL_CHECK;
            out->check_piece[s] = mover_id[s] >= 0 ? mover_type[s] : 0;
        } else if (chase_all[s]) {
            out->fault[s] = XQREP_PERPETUAL_CHASE;
        } else if (rules == REFEREE_RULES_CXA && all_kill[s]) {
            out->fault[s] = XQREP_PERPETUAL_KILL;
        } else if (rules == REFEREE_RULES_CXA && all_forcing[s] &&
                   __builtin_popcount(kinds[s]) >= 2 &&
                   (!(kinds[s] & (1u << XQREP_CHASE)) || chase_some[s])) {
            /* CXA: 一将一杀, 一将一捉, 一杀一捉 (the chases on one and the same piece) */
            out->fault[s] = XQREP_MIXED;
        }
        forbidden[s] = out->fault[s] != XQREP_NONE;
        uint32_t chased = out->fault[s] == XQREP_PERPETUAL_CHASE ? chase_all[s]
                          : out->fault[s] == XQREP_MIXED        ? chase_some[s]
                                                                 : 0;
        if (chased) {
            /* name the first chased piece and, from the last chasing move, its chaser */
            for (int i = 0; i < last_n[s]; i++)
                if (chased & (1u << last_target_id[s][i])) {
                    int other = s ^ 1;
                    for (int sq = 0; sq < XQ_SQUARES; sq++)
                        if (id[sq] == last_target_id[s][i] && pos.board[sq] &&
                            XQ_COLOR(pos.board[sq]) == other) {
                            out->chased_sq[s] = sq;
                            out->chased_piece[s] = pos.board[sq];
                        }
                    out->chaser_sq[s] = last_chaser_sq[s][i];
                    out->chaser_piece[s] = last_chaser_piece[s][i];
                    break;
                }
        }
    }
    /* B3 step 4. Perpetual check first: Vietnamese law Art. 7.1g, CXA 26.1, AXF (the
     * checking side must change, also against a perpetual chase); both: Art. 7.2c, CXA
     * 26.3. */
    bool check_r = out->fault[XQ_RED] == XQREP_PERPETUAL_CHECK;
    bool check_b = out->fault[XQ_BLACK] == XQREP_PERPETUAL_CHECK;
    if (check_r != check_b) {
        out->loser = check_r ? XQ_RED : XQ_BLACK;
        return;
    }
    if (check_r && check_b)
        return;
    /* Then the other forbidden cycles: one side alone loses (Art. 7.1h, CXA 26.4, AXF);
     * both: draw (Art. 7.2c, CXA 26.3); neither: draw (Art. 7.2b, CXA 26.2). */
    if (forbidden[XQ_RED] != forbidden[XQ_BLACK])
        out->loser = forbidden[XQ_RED] ? XQ_RED : XQ_BLACK;
}
