/* chess_movegen.c: attacks, check, and the legal move generator.
 *
 * The generator is legal by construction: it finds the checkers and the
 * absolutely pinned pieces first, then restricts each piece's targets to the
 * check-evasion mask and, when pinned, to the line through its king.  King
 * steps are tested against attacks with the king lifted off the board (so it
 * cannot hide behind itself on a slider's ray); en passant, which can uncover
 * a rank attack by removing two pawns at once, is tested by recomputing the
 * king's attackers with the changed occupancy. */
#include "core/chess.h"
#include "core/chess_tables.h"

/* Pieces of colour by that attack sq, with occ as the blockers. */
static inline uint64_t attackers_occ(const chess_pos *pos, int sq, int by, uint64_t occ)
{
    const uint64_t *t = pos->by_type;
    return ((chess_pawn_attacks[by ^ 1][sq] & t[CHESS_PAWN])
            | (chess_knight_attacks[sq] & t[CHESS_KNIGHT])
            | (chess_king_attacks[sq] & t[CHESS_KING])
            | (chess_bishop_attacks(sq, occ) & (t[CHESS_BISHOP] | t[CHESS_QUEEN]))
            | (chess_rook_attacks(sq, occ) & (t[CHESS_ROOK] | t[CHESS_QUEEN])))
           & pos->by_color[by];
}

uint64_t chess_piece_attacks(int type, int color, int sq, uint64_t occ)
{
    switch (type) {
    case CHESS_PAWN: return chess_pawn_attacks[color][sq];
    case CHESS_KNIGHT: return chess_knight_attacks[sq];
    case CHESS_BISHOP: return chess_bishop_attacks(sq, occ);
    case CHESS_ROOK: return chess_rook_attacks(sq, occ);
    case CHESS_QUEEN: return chess_bishop_attacks(sq, occ) | chess_rook_attacks(sq, occ);
    case CHESS_KING: return chess_king_attacks[sq];
    default: return 0;
    }
}

uint64_t chess_attackers(const chess_pos *pos, int sq, int by_color)
{
    return attackers_occ(pos, sq, by_color, pos->by_color[0] | pos->by_color[1]);
}

bool chess_square_attacked(const chess_pos *pos, int sq, int by_color)
{
    return chess_attackers(pos, sq, by_color) != 0;
}

uint64_t chess_checkers(const chess_pos *pos)
{
    return chess_attackers(pos, pos->king[pos->side], pos->side ^ 1);
}

bool chess_in_check(const chess_pos *pos)
{
    return chess_checkers(pos) != 0;
}

/* Would the pawn on from capturing en passant leave its own king safe? */
static bool ep_safe(const chess_pos *pos, int from)
{
    int us = pos->side, ep = pos->ep;
    int cap = us == CHESS_WHITE ? ep - 8 : ep + 8;
    uint64_t occ = ((pos->by_color[0] | pos->by_color[1]) ^ CHESS_BB(from) ^ CHESS_BB(cap))
                   | CHESS_BB(ep);
    return (attackers_occ(pos, pos->king[us], us ^ 1, occ) & ~CHESS_BB(cap)) == 0;
}

bool chess_ep_capture_legal(const chess_pos *pos)
{
    if (pos->ep < 0)
        return false;
    uint64_t cand = chess_pawn_attacks[pos->side ^ 1][pos->ep]
                    & pos->by_type[CHESS_PAWN] & pos->by_color[pos->side];
    while (cand)
        if (ep_safe(pos, chess_pop_lsb(&cand)))
            return true;
    return false;
}

static inline chess_move *emit_from(chess_move *out, int from, uint64_t targets)
{
    while (targets)
        *out++ = chess_move_make(from, chess_pop_lsb(&targets), CHESS_MOVE_NORMAL);
    return out;
}

static inline chess_move *emit_promotions(chess_move *out, int from, int to)
{
    *out++ = chess_move_make(from, to, CHESS_MOVE_PROMO_QUEEN);
    *out++ = chess_move_make(from, to, CHESS_MOVE_PROMO_ROOK);
    *out++ = chess_move_make(from, to, CHESS_MOVE_PROMO_BISHOP);
    *out++ = chess_move_make(from, to, CHESS_MOVE_PROMO_KNIGHT);
    return out;
}

/* Pawn targets as shifted sets: delta is to - from for every bit. */
static inline chess_move *emit_pawn_set(chess_move *out, uint64_t to_set, int delta,
                                        uint64_t promo_rank, int kind)
{
    uint64_t promo = to_set & promo_rank;
    to_set &= ~promo_rank;
    while (to_set) {
        int to = chess_pop_lsb(&to_set);
        *out++ = chess_move_make(to - delta, to, kind);
    }
    while (promo) {
        int to = chess_pop_lsb(&promo);
        out = emit_promotions(out, to - delta, to);
    }
    return out;
}

static inline uint64_t forward(uint64_t b, int us)
{
    return us == CHESS_WHITE ? b << 8 : b >> 8;
}

static chess_move *gen_pawns(const chess_pos *pos, chess_move *out, uint64_t target,
                             uint64_t pinned)
{
    int us = pos->side, ksq = pos->king[us];
    uint64_t occ = pos->by_color[0] | pos->by_color[1];
    uint64_t empty = ~occ, enemy = pos->by_color[us ^ 1];
    uint64_t pawns = pos->by_type[CHESS_PAWN] & pos->by_color[us];
    uint64_t promo_rank = CHESS_RANK_BB(us == CHESS_WHITE ? 7 : 0);
    uint64_t third = CHESS_RANK_BB(us == CHESS_WHITE ? 2 : 5);
    int up = us == CHESS_WHITE ? 8 : -8;
    uint64_t free_pawns = pawns & ~pinned;

    /* unpinned pawns, all at once */
    uint64_t one = forward(free_pawns, us) & empty;
    uint64_t two = forward(one & third, us) & empty & target;
    out = emit_pawn_set(out, one & target, up, promo_rank, CHESS_MOVE_NORMAL);
    out = emit_pawn_set(out, two, 2 * up, 0, CHESS_MOVE_DOUBLE_PUSH);
    if (us == CHESS_WHITE) {
        out = emit_pawn_set(out, ((free_pawns & ~CHESS_FILE_A_BB) << 7) & enemy & target, 7,
                            promo_rank, CHESS_MOVE_NORMAL);
        out = emit_pawn_set(out, ((free_pawns & ~CHESS_FILE_H_BB) << 9) & enemy & target, 9,
                            promo_rank, CHESS_MOVE_NORMAL);
    } else {
        out = emit_pawn_set(out, ((free_pawns & ~CHESS_FILE_H_BB) >> 7) & enemy & target, -7,
                            promo_rank, CHESS_MOVE_NORMAL);
        out = emit_pawn_set(out, ((free_pawns & ~CHESS_FILE_A_BB) >> 9) & enemy & target, -9,
                            promo_rank, CHESS_MOVE_NORMAL);
    }

    /* pinned pawns may only move along the pin line */
    uint64_t pp = pawns & pinned;
    while (pp) {
        int from = chess_pop_lsb(&pp);
        uint64_t allowed = chess_line[ksq][from] & target;
        uint64_t b1 = forward(CHESS_BB(from), us) & empty;
        uint64_t b2 = forward(b1 & third, us) & empty & allowed;
        uint64_t caps = chess_pawn_attacks[us][from] & enemy & allowed;
        b1 &= allowed;
        if (b1 & promo_rank) {
            out = emit_promotions(out, from, chess_lsb(b1));
        } else if (b1) {
            *out++ = chess_move_make(from, chess_lsb(b1), CHESS_MOVE_NORMAL);
        }
        if (b2)
            *out++ = chess_move_make(from, chess_lsb(b2), CHESS_MOVE_DOUBLE_PUSH);
        while (caps) {
            int to = chess_pop_lsb(&caps);
            if (CHESS_BB(to) & promo_rank)
                out = emit_promotions(out, from, to);
            else
                *out++ = chess_move_make(from, to, CHESS_MOVE_NORMAL);
        }
    }

    if (pos->ep >= 0) {
        uint64_t cand = chess_pawn_attacks[us ^ 1][pos->ep] & pawns;
        while (cand) {
            int from = chess_pop_lsb(&cand);
            if (ep_safe(pos, from))
                *out++ = chess_move_make(from, pos->ep, CHESS_MOVE_EN_PASSANT);
        }
    }
    return out;
}

/* Castling, standard and Chess960 (FIDE Laws 3.8.2 and Appendix C for 960), for a side to
 * move not in check: every square the king and the rook cross or land on must be empty but
 * for the two of them, and no square from the king's start to its destination may be
 * attacked.  Attacks are tested with both pieces lifted, which also covers a Chess960 rook
 * that was shielding the king's destination.  The move, or CHESS_MOVE_NONE. */
static inline __attribute__((always_inline)) chess_move castle_move(const chess_pos *pos, int side,
                                                                    uint64_t occ)
{
    int us = pos->side, ksq = pos->king[us];
    int base = us == CHESS_WHITE ? 0 : 56;
    int rsq = pos->castle_rook[CHESS_CASTLE_INDEX(us, side)];
    if (rsq < 0)
        return CHESS_MOVE_NONE;
    int kdst = base + (side == CHESS_KINGSIDE ? 6 : 2);
    int rdst = base + (side == CHESS_KINGSIDE ? 5 : 3);
    uint64_t kpath = chess_between[ksq][kdst] | CHESS_BB(kdst);
    uint64_t need = (kpath | chess_between[rsq][rdst] | CHESS_BB(rdst))
                    & ~(CHESS_BB(ksq) | CHESS_BB(rsq));
    if (occ & need)
        return CHESS_MOVE_NONE;
    uint64_t occ2 = occ ^ CHESS_BB(ksq) ^ CHESS_BB(rsq);
    while (kpath)
        if (attackers_occ(pos, chess_pop_lsb(&kpath), us ^ 1, occ2))
            return CHESS_MOVE_NONE;
    return chess_move_make(ksq, kdst, CHESS_MOVE_CASTLE);
}

chess_move chess_castle_move_unchecked(const chess_pos *pos, int side)
{
    return castle_move(pos, side, pos->by_color[0] | pos->by_color[1]);
}

static chess_move *gen_castling(const chess_pos *pos, chess_move *out)
{
    uint64_t occ = pos->by_color[0] | pos->by_color[1];
    /* both sides asked before either is stored: a store might alias pos for the compiler */
    chess_move k = castle_move(pos, CHESS_KINGSIDE, occ);
    chess_move q = castle_move(pos, CHESS_QUEENSIDE, occ);
    if (k != CHESS_MOVE_NONE)
        *out++ = k;
    if (q != CHESS_MOVE_NONE)
        *out++ = q;
    return out;
}

int chess_gen_legal(const chess_pos *pos, chess_movelist *list)
{
    chess_move *out = list->moves;
    const uint64_t *t = pos->by_type;
    int us = pos->side, them = us ^ 1, ksq = pos->king[us];
    uint64_t own = pos->by_color[us], enemy = pos->by_color[them];
    uint64_t occ = own | enemy;
    uint64_t checkers = attackers_occ(pos, ksq, them, occ);

    /* king steps, judged with the king lifted */
    uint64_t occ_noking = occ ^ CHESS_BB(ksq);
    uint64_t steps = chess_king_attacks[ksq] & ~own;
    while (steps) {
        int to = chess_pop_lsb(&steps);
        if (!attackers_occ(pos, to, them, occ_noking))
            *out++ = chess_move_make(ksq, to, CHESS_MOVE_NORMAL);
    }
    if (checkers & (checkers - 1))
        goto done; /* double check: only the king may move */

    uint64_t target = checkers ? chess_between[ksq][chess_lsb(checkers)] | checkers : ~own;

    /* absolute pins: an enemy slider on a line to the king with exactly one
     * piece between, ours */
    uint64_t rq = (t[CHESS_ROOK] | t[CHESS_QUEEN]) & enemy;
    uint64_t bq = (t[CHESS_BISHOP] | t[CHESS_QUEEN]) & enemy;
    uint64_t snipers = (chess_rook_attacks(ksq, 0) & rq) | (chess_bishop_attacks(ksq, 0) & bq);
    uint64_t pinned = 0;
    while (snipers) {
        uint64_t b = chess_between[ksq][chess_pop_lsb(&snipers)] & occ;
        if (b && !(b & (b - 1)))
            pinned |= b & own;
    }

    /* a pinned knight can never move */
    uint64_t pieces = t[CHESS_KNIGHT] & own & ~pinned;
    while (pieces) {
        int from = chess_pop_lsb(&pieces);
        out = emit_from(out, from, chess_knight_attacks[from] & target);
    }
    pieces = (t[CHESS_BISHOP] | t[CHESS_QUEEN]) & own;
    while (pieces) {
        int from = chess_pop_lsb(&pieces);
        uint64_t to = chess_bishop_attacks(from, occ) & target;
        if (CHESS_BB(from) & pinned)
            to &= chess_line[ksq][from];
        out = emit_from(out, from, to);
    }
    pieces = (t[CHESS_ROOK] | t[CHESS_QUEEN]) & own;
    while (pieces) {
        int from = chess_pop_lsb(&pieces);
        uint64_t to = chess_rook_attacks(from, occ) & target;
        if (CHESS_BB(from) & pinned)
            to &= chess_line[ksq][from];
        out = emit_from(out, from, to);
    }
    out = gen_pawns(pos, out, target, pinned);
    if (!checkers && pos->castling & (3u << (2 * us)))
        out = gen_castling(pos, out);
done:
    list->count = (int)(out - list->moves);
    return list->count;
}

bool chess_is_legal(const chess_pos *pos, chess_move m)
{
    chess_movelist list;
    chess_gen_legal(pos, &list);
    for (int i = 0; i < list.count; i++)
        if (list.moves[i] == m)
            return true;
    return false;
}

/* Whether the side to move, not in check, has a legal move, found without generating
 * them all: one move of a piece other than the king (its first target, or a pawn's
 * single push short of the last rank) that chess_move_legal_unchecked passes answers
 * yes. No such move (every piece pinned, blocked or absent) asks the generator. */
static bool has_legal_move_unchecked(const chess_pos *pos)
{
    const uint64_t *t = pos->by_type;
    int us = pos->side;
    uint64_t own = pos->by_color[us], occ = own | pos->by_color[us ^ 1];
    uint64_t pieces = own & ~t[CHESS_KING] & ~t[CHESS_PAWN];
    while (pieces) {
        int from = chess_pop_lsb(&pieces);
        uint64_t to = chess_piece_attacks(CHESS_PIECE_TYPE(pos->board[from]), us, from, occ) & ~own;
        if (to && chess_move_legal_unchecked(pos, chess_move_make(from, chess_lsb(to),
                                                                   CHESS_MOVE_NORMAL)))
            return true;
    }
    uint64_t last = CHESS_RANK_BB(us == CHESS_WHITE ? 7 : 0);
    uint64_t pushes = forward(t[CHESS_PAWN] & own, us) & ~occ & ~last;
    int up = us == CHESS_WHITE ? 8 : -8;
    while (pushes) {
        int to = chess_pop_lsb(&pushes);
        if (chess_move_legal_unchecked(pos, chess_move_make(to - up, to, CHESS_MOVE_NORMAL)))
            return true;
    }
    chess_movelist list;
    return chess_gen_legal(pos, &list) > 0;
}

bool chess_is_checkmate(const chess_pos *pos)
{
    chess_movelist list;
    return chess_in_check(pos) && chess_gen_legal(pos, &list) == 0;
}

bool chess_is_stalemate(const chess_pos *pos)
{
    return !chess_in_check(pos) && !has_legal_move_unchecked(pos);
}

int chess_end_state(const chess_pos *pos)
{
    chess_movelist list;
    if (chess_in_check(pos))
        return chess_gen_legal(pos, &list) ? CHESS_END_NONE : CHESS_END_CHECKMATE;
    return has_legal_move_unchecked(pos) ? CHESS_END_NONE : CHESS_END_STALEMATE;
}

uint64_t chess_perft(chess_pos *pos, int depth)
{
    chess_movelist list;
    chess_undo undo;
    uint64_t nodes = 0;

    if (depth <= 0)
        return 1;
    chess_gen_legal(pos, &list);
    if (depth == 1)
        return (uint64_t)list.count;
    for (int i = 0; i < list.count; i++) {
        chess_make(pos, list.moves[i], &undo);
        nodes += chess_perft(pos, depth - 1);
        chess_unmake(pos, list.moves[i], &undo);
    }
    return nodes;
}
