/* chess_query.c: the rules questions asked about one move without making it:
 * is a pseudo-legal move legal, which pieces would attack the king after it,
 * does it give check or mate.  notation/ and referee/ ask these; none of them
 * copies or edits the position.
 *
 * Legality uses the occupancy after the move (the mover lifted, the captured
 * piece taken out) to find the attackers of the mover's king; only castling,
 * which moves two pieces, is judged on the squares the king crosses.  Check is
 * judged the same way from the enemy king: directly from the destination with
 * the piece the move ends as, or by a slider of ours the move uncovers.  FIDE
 * Laws of Chess (2023) 3.9 (check), 3.10.1 (legal moves), 3.8.2 (castling). */
#include "core/chess.h"
#include "core/chess_tables.h"

#define BB(sq) CHESS_BB(sq)

/* Every square a bishop, or a rook, on sq would reach on an empty board, and sq: small
 * tables, which stay in the cache. */
static inline uint64_t diag_rays(int sq) { return chess_diag_rays[sq]; }
static inline uint64_t orth_rays(int sq) { return chess_orth_rays[sq]; }

/* Of the pieces c, all on the diagonals (diag) or on the file and rank (!diag) of sq
 * but not on sq, those that see sq with occ as the blockers: the same set as
 * chess_bishop_attacks(sq, occ) & c or chess_rook_attacks(sq, occ) & c.  None or one
 * such piece, the usual case, is settled by the small table of squares between,
 * which stays in the cache where the large attack tables do not. */
static inline uint64_t slider_hits(int sq, uint64_t c, uint64_t occ, bool diag)
{
    if (!(c & (c - 1)))
        return c && !(chess_between[sq][__builtin_ctzll(c)] & occ) ? c : 0;
    return (diag ? chess_bishop_attacks(sq, occ) : chess_rook_attacks(sq, occ)) & c;
}

/* Pieces of colour by attacking sq with occ as the blockers, by_type as in pos. */
static inline uint64_t attackers_occ(const chess_pos *pos, int sq, int by, uint64_t occ)
{
    const uint64_t *t = pos->by_type;
    uint64_t mine = pos->by_color[by], not_sq = ~BB(sq);
    return (((chess_pawn_attacks[by ^ 1][sq] & t[CHESS_PAWN])
             | (chess_knight_attacks[sq] & t[CHESS_KNIGHT])
             | (chess_king_attacks[sq] & t[CHESS_KING])) & mine)
           | slider_hits(sq, (t[CHESS_BISHOP] | t[CHESS_QUEEN]) & mine & diag_rays(sq) & not_sq,
                         occ, true)
           | slider_hits(sq, (t[CHESS_ROOK] | t[CHESS_QUEEN]) & mine & orth_rays(sq) & not_sq,
                         occ, false);
}

uint64_t chess_attackers_occ(const chess_pos *pos, int sq, int by_color, uint64_t occ)
{
    return attackers_occ(pos, sq, by_color, occ);
}

uint64_t chess_attackers_of_type(const chess_pos *pos, int sq, int by_color, int type)
{
    uint64_t occ = pos->by_color[0] | pos->by_color[1];
    uint64_t own = pos->by_type[type] & pos->by_color[by_color] & ~BB(sq);
    switch (type) {
    case CHESS_KNIGHT: return chess_knight_attacks[sq] & own;
    case CHESS_BISHOP: return slider_hits(sq, own & diag_rays(sq), occ, true);
    case CHESS_ROOK: return slider_hits(sq, own & orth_rays(sq), occ, false);
    case CHESS_QUEEN:
        return slider_hits(sq, own & diag_rays(sq), occ, true)
               | slider_hits(sq, own & orth_rays(sq), occ, false);
    case CHESS_KING: return chess_king_attacks[sq] & own;
    case CHESS_PAWN: return chess_pawn_attacks[by_color ^ 1][sq] & own;
    default: return 0;
    }
}

/* The rook's destination of a castling move to king square kdst. */
static inline int castle_rook_dest(int kdst)
{
    return (kdst & 56) + (CHESS_FILE(kdst) == 6 ? 5 : 3);
}

static inline int castle_rook_from(const chess_pos *pos, chess_move m)
{
    int side = CHESS_FILE(chess_move_to(m)) == 6 ? CHESS_KINGSIDE : CHESS_QUEENSIDE;
    return pos->castle_rook[CHESS_CASTLE_INDEX(pos->side, side)];
}

/* After castling m: the occupancy, and the king's square is kdst.  Attackers of a
 * square are then found with attackers_occ (king and rook are the mover's, so
 * moving them changes only the blockers). */
static inline uint64_t castle_occ(const chess_pos *pos, chess_move m)
{
    int from = chess_move_from(m), to = chess_move_to(m), rsq = castle_rook_from(pos, m);
    uint64_t occ = (pos->by_color[0] | pos->by_color[1]) & ~BB(from) & ~BB(rsq);
    return occ | BB(to) | BB(castle_rook_dest(to));
}

/* chess_king_attackers_after, inlined with its attackers_occ into the settling paths below:
 * a king move, or any move in check, then makes no call for its legality. */
static inline __attribute__((always_inline)) uint64_t king_attackers_after(const chess_pos *pos,
                                                                         chess_move m)
{
    int from = chess_move_from(m), to = chess_move_to(m), kind = chess_move_kind(m);
    int us = pos->side;
    if (kind == CHESS_MOVE_CASTLE)
        return attackers_occ(pos, to, us ^ 1, castle_occ(pos, m));
    int cap = kind == CHESS_MOVE_EN_PASSANT ? to ^ 8 : to;
    uint64_t occ = ((pos->by_color[0] | pos->by_color[1]) & ~BB(from) & ~BB(cap)) | BB(to);
    int ksq = from == pos->king[us] ? to : pos->king[us];
    return attackers_occ(pos, ksq, us ^ 1, occ) & ~BB(cap);
}

uint64_t chess_king_attackers_after(const chess_pos *pos, chess_move m)
{
    return king_attackers_after(pos, m);
}

bool chess_move_legal(const chess_pos *pos, chess_move m)
{
    return chess_king_attackers_after(pos, m) == 0;
}

/* Not in check, a piece other than the king can only uncover a ray to its king: only from
 * and to change occupancy, to only blocks or takes an attacker away, and leapers' attacks
 * do not depend on occupancy. So a piece leaving a square on no line with its king, or
 * moving along that line on its side of the king, is legal; else only an enemy slider on
 * that line, beyond from, can attack. En passant empties a second square and castling
 * moves the king: both take the full test. */
/* chess_move_legal_unchecked for a move of a piece on a line with its king: out of
 * line, so the usual move, on none, saves no registers for it. */
static __attribute__((noinline)) bool legal_from_king_line(const chess_pos *pos, chess_move m,
                                                           int ksq)
{
    int from = chess_move_from(m), to = chess_move_to(m);
    uint64_t line = chess_line[ksq][from];
    if ((line & BB(to)) && !(chess_between[from][to] & BB(ksq)))
        return true;
    bool diag = CHESS_FILE(from) != CHESS_FILE(ksq) && CHESS_RANK(from) != CHESS_RANK(ksq);
    const uint64_t *t = pos->by_type;
    uint64_t c = (t[diag ? CHESS_BISHOP : CHESS_ROOK] | t[CHESS_QUEEN]) & pos->by_color[pos->side ^ 1]
                 & line & ~BB(to);
    if (!c)
        return true;
    uint64_t occ = ((pos->by_color[0] | pos->by_color[1]) & ~BB(from)) | BB(to);
    return slider_hits(ksq, c, occ, diag) == 0;
}

static inline __attribute__((always_inline)) bool legal_unchecked(const chess_pos *pos,
                                                                chess_move m)
{
    int from = chess_move_from(m), kind = chess_move_kind(m);
    int ksq = pos->king[pos->side];
    if (from == ksq || kind == CHESS_MOVE_EN_PASSANT || kind == CHESS_MOVE_CASTLE)
        return king_attackers_after(pos, m) == 0;
    /* only a piece on a line with its king, with an enemy slider of that line's kind
     * on one of the king's lines, can be pinned (the small ray tables say, which stay
     * in the cache) */
    const uint64_t *t = pos->by_type;
    uint64_t enemy = pos->by_color[pos->side ^ 1], f = BB(from);
    uint64_t o = orth_rays(ksq), d = diag_rays(ksq);
    if (!((o & f) && ((t[CHESS_ROOK] | t[CHESS_QUEEN]) & enemy & o))
        && !((d & f) && ((t[CHESS_BISHOP] | t[CHESS_QUEEN]) & enemy & d)))
        return true;
    return legal_from_king_line(pos, m, ksq);
}

bool chess_move_legal_unchecked(const chess_pos *pos, chess_move m)
{
    return legal_unchecked(pos, m);
}

/* False when m surely gives no check: neither a discovered check (from is
 * on no line with the enemy king) nor a direct one (the piece cannot attack
 * the king from to on an empty board).  A cheap filter before asking the attack
 * tables: small tables only. */
static inline bool may_check(const chess_pos *pos, chess_move m)
{
    int from = chess_move_from(m), to = chess_move_to(m), us = pos->side;
    int ek = pos->king[us ^ 1];
    if (chess_move_kind(m) != CHESS_MOVE_NORMAL && chess_move_kind(m) != CHESS_MOVE_DOUBLE_PUSH)
        return true;
    /* a discovered check needs from on a line with the enemy king (told by the small
     * ray tables, not the 32 KiB chess_line, which missed the cache) and a slider of
     * ours on that line */
    uint64_t d = diag_rays(ek), o = orth_rays(ek);
    if ((d | o) & BB(from)) {
        const uint64_t *t = pos->by_type;
        uint64_t ours = pos->by_color[us] & ~BB(from);
        if (((d & BB(from)) && ((t[CHESS_BISHOP] | t[CHESS_QUEEN]) & ours & d))
            || ((o & BB(from)) && ((t[CHESS_ROOK] | t[CHESS_QUEEN]) & ours & o)))
            return true;
    }
    /* the direct check, on an empty board: the piece's reach from to */
    return (chess_check_reach[pos->board[from]][to] & BB(ek)) != 0;
}

/* The legal, non-castling move m attacks the enemy king: directly, from to with the
 * piece it ends as, or by uncovering a slider of ours, with the occupancy after it.  Out
 * of line: asked only after may_check, so the usual move saves no registers for it. */
static __attribute__((noinline)) bool gives_check_plain(const chess_pos *pos, chess_move m)
{
    int from = chess_move_from(m), to = chess_move_to(m), kind = chess_move_kind(m);
    int us = pos->side, ek = pos->king[us ^ 1];
    int cap = kind == CHESS_MOVE_EN_PASSANT ? to ^ 8 : to;
    uint64_t occ = ((pos->by_color[0] | pos->by_color[1]) & ~BB(from) & ~BB(cap)) | BB(to);
    int pt = chess_move_promotion(m) ? chess_move_promotion(m)
                                     : CHESS_PIECE_TYPE(pos->board[from]);
    uint64_t direct, ekb = BB(ek);
    switch (pt) {
    case CHESS_PAWN: direct = chess_pawn_attacks[us][to] & ekb; break;
    case CHESS_KNIGHT: direct = chess_knight_attacks[to] & ekb; break;
    case CHESS_BISHOP: direct = slider_hits(to, ekb & diag_rays(to) & ~BB(to), occ, true); break;
    case CHESS_ROOK: direct = slider_hits(to, ekb & orth_rays(to) & ~BB(to), occ, false); break;
    case CHESS_QUEEN:
        direct = slider_hits(to, ekb & diag_rays(to) & ~BB(to), occ, true)
                 | slider_hits(to, ekb & orth_rays(to) & ~BB(to), occ, false);
        break;
    default: direct = 0; break;
    }
    if (direct)
        return true;
    const uint64_t *t = pos->by_type;
    uint64_t ours = pos->by_color[us] & ~BB(from) & ~BB(ek);
    return (slider_hits(ek, (t[CHESS_BISHOP] | t[CHESS_QUEEN]) & ours & diag_rays(ek), occ, true)
            | slider_hits(ek, (t[CHESS_ROOK] | t[CHESS_QUEEN]) & ours & orth_rays(ek), occ, false))
           != 0;
}

/* Castling gives check only through its rook (a king never checks): the rook on its
 * destination, with the occupancy after the move. */
static __attribute__((noinline)) bool gives_check_castle(const chess_pos *pos, chess_move m)
{
    int ek = pos->king[pos->side ^ 1];
    int rdst = castle_rook_dest(chess_move_to(m));
    return (chess_rook_attacks(rdst, castle_occ(pos, m)) & BB(ek)) != 0;
}

bool chess_gives_check(const chess_pos *pos, chess_move m)
{
    if (!may_check(pos, m))
        return false;
    return chess_move_kind(m) == CHESS_MOVE_CASTLE ? gives_check_castle(pos, m)
                                                   : gives_check_plain(pos, m);
}

/* After the checking move m, can the enemy king step to a square no piece of ours
 * attacks?  Our pieces as after m: m's destination occupied, its origin and the
 * captured piece's square empty (a piece it captured attacks nothing). */
static bool king_can_step_after(const chess_pos *pos, chess_move m)
{
    int us = pos->side, them = us ^ 1, ek = pos->king[them];
    int from = chess_move_from(m), to = chess_move_to(m), kind = chess_move_kind(m);
    uint64_t occ, removed;
    chess_pos s;
    const chess_pos *after = pos;
    if (kind == CHESS_MOVE_CASTLE || kind == CHESS_MOVE_EN_PASSANT || chess_move_promotion(m)) {
        /* rare: the placement of the pieces changes in more than one square */
        chess_undo undo;
        s = *pos;
        chess_make(&s, m, &undo);
        after = &s;
        occ = s.by_color[0] | s.by_color[1];
        removed = 0;
    } else {
        occ = ((pos->by_color[0] | pos->by_color[1]) & ~BB(from)) | BB(to);
        removed = BB(to); /* the enemy piece on to, if any, is gone */
    }
    uint64_t steps = chess_king_attacks[ek] & ~(after->by_color[them] & ~removed);
    occ &= ~BB(ek);
    if (after == pos) {
        /* the squares the moved piece attacks from to are no way out; the king on a step
         * blocks only squares beyond it, so they are found once for all steps */
        steps &= ~chess_piece_attacks(CHESS_PIECE_TYPE(pos->board[from]), us, to, occ);
    }
    while (steps) {
        int d = __builtin_ctzll(steps);
        steps &= steps - 1;
        uint64_t att;
        if (after == pos) {
            /* our other pieces: as in pos but the mover stands on to */
            att = attackers_occ(pos, d, us, occ | BB(d)) & ~BB(from) & ~BB(d);
        } else {
            att = attackers_occ(after, d, us, occ | BB(d)) & ~BB(d);
        }
        if (!att)
            return true;
    }
    return false;
}

/* The checking move m: check or mate. Out of line, so the usual move, which gives no
 * check, costs no more than the filter. */
static __attribute__((noinline)) int check_or_mate(const chess_pos *pos, chess_move m)
{
    /* Most checks are answered by a king step: no need to generate every move. */
    if (king_can_step_after(pos, m))
        return CHESS_CHECK;
    chess_pos c = *pos;
    chess_undo undo;
    chess_make(&c, m, &undo);
    return chess_is_checkmate(&c) ? CHESS_CHECKMATE : CHESS_CHECK;
}

/* chess_move_check_state for a move may_check passed. */
static __attribute__((noinline)) int check_state_slow(const chess_pos *pos, chess_move m)
{
    bool check = chess_move_kind(m) == CHESS_MOVE_CASTLE ? gives_check_castle(pos, m)
                                                         : gives_check_plain(pos, m);
    return check ? check_or_mate(pos, m) : CHESS_NO_CHECK;
}

static inline int check_state(const chess_pos *pos, chess_move m)
{
    /* the filter alone settles most moves, with no registers to save */
    if (!may_check(pos, m))
        return CHESS_NO_CHECK;
    return check_state_slow(pos, m);
}

int chess_move_check_state(const chess_pos *pos, chess_move m)
{
    return check_state(pos, m);
}

static inline __attribute__((always_inline)) int settle(const chess_pos *pos, chess_move m,
                                                        bool no_check)
{
    if (!(no_check ? legal_unchecked(pos, m) : king_attackers_after(pos, m) == 0))
        return -1;
    return check_state(pos, m);
}

int chess_move_settle(const chess_pos *pos, chess_move m, bool no_check)
{
    return settle(pos, m, no_check);
}

/* chess_move_settle's answer packed as chess_settle_packed gives it, with no call but the
 * rare check state.  Out of line: the moves the quick tests below leave open (king moves,
 * and every move in check). */
static __attribute__((noinline)) int32_t settle_packed_slow(const chess_pos *pos, chess_move m,
                                                            bool no_check)
{
    int cs = settle(pos, m, no_check);
    return cs < 0 ? -1 : (int32_t)(m | (unsigned)cs << 16);
}

/* The same for a legal m that may_check passed: only its check state is left to find. */
static __attribute__((noinline)) int32_t check_packed_slow(const chess_pos *pos, chess_move m)
{
    return (int32_t)(m | (unsigned)check_state_slow(pos, m) << 16);
}

/* chess_settle_packed: the usual move (the side to move not in check, not a king move, not
 * en passant or castling, from on no line of its own king with an enemy slider of that
 * line's kind, neither a discovered nor a direct check possible) answered here with no call
 * and no register saved; the rest by the full tests, called last so that they return
 * straight to the caller. */
static inline __attribute__((always_inline)) int32_t settle_packed(const chess_pos *pos,
                                                                   chess_move m, bool no_check)
{
    int from = chess_move_from(m), ksq = pos->king[pos->side];
    if (!no_check || from == ksq || chess_move_kind(m) > CHESS_MOVE_DOUBLE_PUSH)
        return settle_packed_slow(pos, m, no_check);
    const uint64_t *t = pos->by_type;
    uint64_t enemy = pos->by_color[pos->side ^ 1], f = BB(from);
    uint64_t o = orth_rays(ksq), d = diag_rays(ksq);
    if (((o & f) && ((t[CHESS_ROOK] | t[CHESS_QUEEN]) & enemy & o))
        || ((d & f) && ((t[CHESS_BISHOP] | t[CHESS_QUEEN]) & enemy & d)))
        return settle_packed_slow(pos, m, no_check);
    if (may_check(pos, m))
        return check_packed_slow(pos, m);
    return m;
}

int32_t chess_settle_packed(const chess_pos *pos, chess_move m, bool no_check)
{
    return settle_packed(pos, m, no_check);
}

int32_t chess_settle_piece_move(const chess_pos *pos, int type, int to, bool no_check)
{
    /* the pieces of type that reach to on an empty board (the reach tables are symmetric
     * for every type but the pawn, which is not asked here), less those with a blocker
     * between: leapers never have one */
    uint64_t reach = type == CHESS_KING ? chess_king_attacks[to]
                                        : chess_check_reach[CHESS_PIECE(type, 0)][to];
    uint64_t c = pos->by_type[type] & pos->by_color[pos->side] & reach;
    if (c & (c - 1)) {
        uint64_t occ = pos->by_color[0] | pos->by_color[1];
        uint64_t hits = 0;
        for (; c; c &= c - 1)
            if (!(chess_between[to][__builtin_ctzll(c)] & occ))
                hits |= c & -c;
        c = hits;
        if (c & (c - 1))
            return -1;
    }
    if (!c)
        return -1;
    int from = __builtin_ctzll(c);
    if (chess_between[to][from] & (pos->by_color[0] | pos->by_color[1]))
        return -1;
    return settle_packed(pos, chess_move_make(from, to, CHESS_MOVE_NORMAL), no_check);
}

