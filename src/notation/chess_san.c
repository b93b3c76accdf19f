/* chess_san.c: chess move text read on a position (SAN, LAN, UCI).
 *
 * Reading is done in two steps.  The text is first cut into its parts in one
 * pass (chess_san_text.c: piece, origin file and rank, separator, destination,
 * promotion, suffixes), with no look at the position.  Then, here, the parts are
 * matched against the position without generating every legal move: the possible
 * origins of a piece move are the pieces of that type attacking the
 * destination (chess_attackers), those of a pawn move follow from geometry,
 * and only those few candidates are tested, by placing the move on a scratch
 * copy of the board and asking whether the own king is attacked.  Only when
 * nothing legal matches is the slower work of finding the reason done.
 * Writing moves is chess_san_format.c.
 *
 * Canonical SAN is the PGN Standard (1994) 8.2.3; castling is FIDE Laws of
 * Chess (2023) 3.8.2, Chess960 castling their Appendix C (Guidelines III),
 * which the core encodes as the king's move to the g- or c-file. */
#include <config.h>

/* notation/ asks the core and never touches a position's fields (chess.h) */
#define ARBITER_OPAQUE_POSITIONS 1

#include "i18n/i18n.h"
#include "notation/chess_san.h"
#include "notation/chess_san_parts.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char *const piece_name[7] = {
    N_("piece"), N_("pawn"), N_("knight"), N_("bishop"), N_("rook"), N_("queen"), N_("king")
};
static const char *const color_lower[2] = { N_("white"), N_("black") };
static const char *const color_upper[2] = { N_("White"), N_("Black") };

/* ------------------------------------------------------------------ */
/* small helpers                                                        */

static const char *ordinal(int rank)
{
    static const char *const names[8] = { N_("1st"), N_("2nd"), N_("3rd"), N_("4th"), N_("5th"),
                                          N_("6th"), N_("7th"), N_("8th") };
    return _(names[rank & 7]);
}

const char *san_status_name(san_status status)
{
    switch (status) {
    case SAN_OK: return "ok";
    case SAN_UNREADABLE: return "unreadable";
    case SAN_ILLEGAL: return "illegal";
    case SAN_AMBIGUOUS: return "ambiguous";
    case SAN_NULL: return "null";
    }
    return "?";
}

/* ------------------------------------------------------------------ */
/* matching against the position                                       */

typedef struct ctx {
    const chess_pos *pos;
    int us, them;
    san_result *out;
} ctx;

static void set_reason(san_result *out, san_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set_reason(san_result *out, san_status st, const char *fmt, ...)
{
    va_list ap;
    out->status = st;
    va_start(ap, fmt);
    vsnprintf(out->reason, sizeof out->reason, fmt, ap);
    va_end(ap);
}

/* "the bishop on c4" for the piece on sq of pos */
static void describe(const chess_pos *pos, int sq, char *buf, size_t size)
{
    char name[3];
    san_sqname(sq, name);
    snprintf(buf, size, _("the %s on %s"), _(piece_name[CHESS_PIECE_TYPE(chess_piece_at(pos, sq))]), name);
}

/* Why the pseudo-legal, non-castling move m is illegal. */
static void explain_illegal(const chess_pos *pos, chess_move m, san_result *out)
{
    int us = chess_pos_side(pos);
    int from = chess_move_from(m), to = chess_move_to(m);
    int pt = CHESS_PIECE_TYPE(chess_piece_at(pos, from));
    char a[40], k[3], f[3], t[3];

    uint64_t att = chess_king_attackers_after(pos, m);
    uint64_t fresh = att & ~chess_checkers(pos);
    san_sqname(chess_king_square(pos, us), k);
    san_sqname(from, f);
    san_sqname(to, t);
    if (!att) { /* cannot happen for a pseudo-legal move judged illegal */
        set_reason(out, SAN_ILLEGAL, _("%s-%s is not a legal move"), f, t);
        return;
    }
    if (pt == CHESS_KING) {
        describe(pos, __builtin_ctzll(att), a, sizeof a);
        set_reason(out, SAN_ILLEGAL, _("the king cannot go to %s: it is attacked by %s"), t, a);
    } else if (chess_move_kind(m) == CHESS_MOVE_EN_PASSANT) {
        describe(pos, __builtin_ctzll(att), a, sizeof a);
        set_reason(out, SAN_ILLEGAL, _("en passant not possible: the king on %s would be in check "
                   "from %s"), k, a);
    } else if (fresh) {
        describe(pos, __builtin_ctzll(fresh), a, sizeof a);
        set_reason(out, SAN_ILLEGAL, _("the %s on %s is pinned against the king on %s by %s"),
                   _(piece_name[pt]), f, k, a);
    } else {
        describe(pos, __builtin_ctzll(att), a, sizeof a);
        set_reason(out, SAN_ILLEGAL, _("the king on %s would still be in check from %s"), k, a);
    }
}

/* Castling to side; *m gets the move when legal, else out gets the reason.  no_check: the
 * side to move is known not to be in check. */
static bool resolve_castle(const chess_pos *pos, int side, bool no_check, chess_move *m,
                           san_result *out)
{
    /* the core's test settles it; the walk below only finds the reason it fails */
    if (no_check || !chess_in_check(pos)) {
        *m = chess_castle_move_unchecked(pos, side);
        if (*m != CHESS_MOVE_NONE)
            return true;
    }
    int us = chess_pos_side(pos), them = us ^ 1;
    int rsq = chess_castle_rook(pos, us, side);
    char name[3], a[40];

    if (rsq < 0) { /* a lost right forgets its rook (chess.h) */
        set_reason(out, SAN_ILLEGAL, _("castling %s: %s has lost that right"),
                   side == CHESS_KINGSIDE ? _("king-side") : _("queen-side"), _(color_upper[us]));
        return false;
    }
    if (chess_in_check(pos)) {
        set_reason(out, SAN_ILLEGAL, _("castling out of check"));
        return false;
    }
    int ksq = chess_king_square(pos, us);
    int base = us == CHESS_WHITE ? 0 : 56;
    int kdst = base + (side == CHESS_KINGSIDE ? 6 : 2);
    int rdst = base + (side == CHESS_KINGSIDE ? 5 : 3);

    /* every square the king or rook crosses or lands on must be empty but for
     * the two of them; report the one nearest the king first */
    int lo_k = ksq < kdst ? ksq : kdst, hi_k = ksq < kdst ? kdst : ksq;
    int lo_r = rsq < rdst ? rsq : rdst, hi_r = rsq < rdst ? rdst : rsq;
    int step = kdst >= ksq ? 1 : -1;
    for (int pass = 0; pass < 2; pass++) {
        int lo = pass ? lo_r : lo_k, hi = pass ? hi_r : hi_k;
        int first = step > 0 ? lo : hi, last = step > 0 ? hi : lo;
        for (int sq = first;; sq += step) {
            if (sq != ksq && sq != rsq && chess_piece_at(pos, sq)) {
                san_sqname(sq, name);
                set_reason(out, SAN_ILLEGAL, _("castling is blocked: %s is occupied"), name);
                return false;
            }
            if (sq == last)
                break;
        }
    }

    /* no square the king passes or lands on may be attacked; judged with
     * king and rook lifted (a Chess960 rook may shield the destination) */
    uint64_t occ = chess_occupied(pos) & ~(UINT64_C(1) << ksq) & ~(UINT64_C(1) << rsq);
    for (int sq = ksq;; sq += step) {
        if (sq != ksq || ksq == kdst) {
            uint64_t att = chess_attackers_occ(pos, sq, them, occ);
            if (att) {
                san_sqname(sq, name);
                describe(pos, __builtin_ctzll(att), a, sizeof a);
                set_reason(out, SAN_ILLEGAL, sq == kdst
                                                 ? _("castling into check: %s is attacked by %s")
                                                 : _("castling through check: %s is attacked by %s"),
                           name, a);
                return false;
            }
        }
        if (sq == kdst)
            break;
    }
    *m = chess_move_make(ksq, kdst, CHESS_MOVE_CASTLE);
    return true;
}

/* Candidates: pseudo-legal moves matching the text. */
typedef struct cands {
    chess_move m[16];
    int n;
} cands;

static void add_cand(cands *c, chess_move m)
{
    if (c->n < 16)
        c->m[c->n++] = m;
}

/* The moves of the pawn on from to `to`, when pseudo-legal; otherwise a
 * reason in out when `report` (used when from was written in full or is the
 * only possibility).  promo: written promotion type or 0. */
static void pawn_from(const chess_pos *pos, int from, int to, int promo, cands *c,
                      san_result *out, bool report)
{
    int us = chess_pos_side(pos), them = us ^ 1;
    int dir = us == CHESS_WHITE ? 8 : -8;
    int rel_from = us == CHESS_WHITE ? CHESS_RANK(from) : 7 - CHESS_RANK(from);
    int df = CHESS_FILE(to) - CHESS_FILE(from);
    char f[3], t[3];
    int kind = CHESS_MOVE_NORMAL;

    san_sqname(from, f);
    san_sqname(to, t);
    if (chess_piece_at(pos, from) != CHESS_PIECE(CHESS_PAWN, us)) {
        if (report)
            set_reason(out, SAN_ILLEGAL, _("there is no %s pawn on %s"), _(color_lower[us]), f);
        return;
    }
    if (df == 0) {
        int mid = from + dir;
        if (to == from + dir) {
            if (chess_piece_at(pos, to)) {
                if (report)
                    set_reason(out, SAN_ILLEGAL, _("the pawn on %s cannot advance: %s is occupied"),
                               f, t);
                return;
            }
        } else if (to == from + 2 * dir && rel_from == 1) {
            if (chess_piece_at(pos, mid) || chess_piece_at(pos, to)) {
                char b[3];
                san_sqname(chess_piece_at(pos, mid) ? mid : to, b);
                if (report)
                    set_reason(out, SAN_ILLEGAL, _("the pawn on %s cannot advance: %s is occupied"),
                               f, b);
                return;
            }
            kind = CHESS_MOVE_DOUBLE_PUSH;
        } else {
            if (report)
                set_reason(out, SAN_ILLEGAL, _("a pawn cannot move from %s to %s"), f, t);
            return;
        }
    } else if ((df == 1 || df == -1) && to == from + dir + df) {
        int victim = chess_piece_at(pos, to);
        if (victim && CHESS_PIECE_COLOR(victim) == them) {
            /* a normal capture */
        } else if (!victim && to == chess_ep_square(pos)) {
            kind = CHESS_MOVE_EN_PASSANT;
        } else if (!victim) {
            if (report) {
                int behind = to - dir;
                if (chess_piece_at(pos, behind) == CHESS_PIECE(CHESS_PAWN, them)
                    && (us == CHESS_WHITE ? CHESS_RANK(to) == 5 : CHESS_RANK(to) == 2)) {
                    char b[3];
                    san_sqname(behind, b);
                    set_reason(out, SAN_ILLEGAL, _("en passant not possible: the pawn on %s did "
                               "not just advance two squares"), b);
                } else {
                    set_reason(out, SAN_ILLEGAL, _("no pawn can capture on %s: the square is empty"),
                               t);
                }
            }
            return;
        } else {
            return; /* own piece: reported before */
        }
    } else {
        if (report)
            set_reason(out, SAN_ILLEGAL, _("a pawn cannot move from %s to %s"), f, t);
        return;
    }
    int last = us == CHESS_WHITE ? 7 : 0;
    if (CHESS_RANK(to) == last)
        kind = promo ? promo + 2 : CHESS_MOVE_PROMO_QUEEN; /* a missing letter is caught later */
    add_cand(c, chess_move_make(from, to, kind));
}

/* Fill c with the pseudo-legal pawn moves the text can mean; on none, a
 * reason is left in out. */
static void pawn_cands(const chess_pos *pos, const san_parts *p, cands *c, san_result *out)
{
    int us = chess_pos_side(pos);
    int dir = us == CHESS_WHITE ? 8 : -8;
    int to = p->to, tf = CHESS_FILE(to);
    int rel_to = us == CHESS_WHITE ? CHESS_RANK(to) : 7 - CHESS_RANK(to);
    char t[3];

    san_sqname(to, t);
    if (p->ff >= 0 && p->fr >= 0) {
        pawn_from(pos, CHESS_SQ(p->ff, p->fr), to, p->promo, c, out, true);
        return;
    }
    if (p->ff >= 0) { /* a capture from that file */
        int df = tf - p->ff;
        if ((df != 1 && df != -1) || rel_to < 2) {
            set_reason(out, SAN_ILLEGAL, _("no pawn on the %c-file can capture on %s"),
                       'a' + p->ff, t);
            return;
        }
        pawn_from(pos, to - dir - df, to, p->promo, c, out, false);
        if (!c->n && !out->reason[0]) {
            int from = to - dir - df;
            if (chess_piece_at(pos, from) == CHESS_PIECE(CHESS_PAWN, us))
                pawn_from(pos, from, to, p->promo, c, out, true);
            else
                set_reason(out, SAN_ILLEGAL, _("no %s pawn on the %c-file can capture on %s"),
                           _(color_lower[us]), 'a' + p->ff, t);
        }
        return;
    }
    if (p->sep == SEP_X || p->sep == SEP_COLON) { /* xd5: a capture from either side */
        if (rel_to >= 2) {
            for (int df = -1; df <= 1; df += 2) {
                int ff = tf - df;
                if (ff < 0 || ff > 7)
                    continue;
                pawn_from(pos, to - dir - df, to, p->promo, c, out, false);
            }
        }
        if (!c->n && !out->reason[0]) {
            if (!chess_piece_at(pos, to) && to != chess_ep_square(pos))
                set_reason(out, SAN_ILLEGAL, _("no pawn can capture on %s: the square is empty"), t);
            else
                set_reason(out, SAN_ILLEGAL, _("no %s pawn can capture on %s"), _(color_lower[us]), t);
        }
        return;
    }
    /* a push */
    if (rel_to >= 2) {
        int one = to - dir;
        if (chess_piece_at(pos, one) == CHESS_PIECE(CHESS_PAWN, us)) {
            pawn_from(pos, one, to, p->promo, c, out, true);
            return;
        }
        if (rel_to == 3 && chess_piece_at(pos, to - 2 * dir) == CHESS_PIECE(CHESS_PAWN, us)) {
            pawn_from(pos, to - 2 * dir, to, p->promo, c, out, true);
            return;
        }
    }
    set_reason(out, SAN_ILLEGAL, _("no %s pawn can reach %s"), _(color_lower[us]), t);
}

/* Why no piece of type pt matching the written origin can reach to. */
static void explain_unreachable(const chess_pos *pos, const san_parts *p, int pt, san_result *out)
{
    int us = chess_pos_side(pos);
    char t[3], f[3];
    san_sqname(p->to, t);

    if (p->ff >= 0 && p->fr >= 0) {
        int from = CHESS_SQ(p->ff, p->fr);
        san_sqname(from, f);
        if (chess_piece_at(pos, from) != CHESS_PIECE(pt, us)) {
            set_reason(out, SAN_ILLEGAL, _("there is no %s %s on %s"), _(color_lower[us]),
                       _(piece_name[pt]), f);
            return;
        }
        /* on a line but blocked? */
        int df = CHESS_FILE(p->to) - CHESS_FILE(from), dr = CHESS_RANK(p->to) - CHESS_RANK(from);
        bool straight = df == 0 || dr == 0, diag = df == dr || df == -dr;
        bool slides = (pt == CHESS_ROOK && straight) || (pt == CHESS_BISHOP && diag)
                      || (pt == CHESS_QUEEN && (straight || diag));
        if (slides && from != p->to) {
            int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0);
            for (int sq = from + sf + 8 * sr; sq != p->to; sq += sf + 8 * sr) {
                if (chess_piece_at(pos, sq)) {
                    char b[3];
                    san_sqname(sq, b);
                    set_reason(out, SAN_ILLEGAL, _("the %s on %s cannot reach %s: %s is in the way"),
                               _(piece_name[pt]), f, t, b);
                    return;
                }
            }
        }
        set_reason(out, SAN_ILLEGAL, _("the %s on %s cannot move to %s"), _(piece_name[pt]), f, t);
        return;
    }
    if (!chess_pieces(pos, us, pt)) {
        set_reason(out, SAN_ILLEGAL, _("%s has no %s"), _(color_upper[us]), _(piece_name[pt]));
        return;
    }
    if (p->ff >= 0)
        set_reason(out, SAN_ILLEGAL, _("no %s %s on the %c-file can reach %s"), _(color_lower[us]),
                   _(piece_name[pt]), 'a' + p->ff, t);
    else if (p->fr >= 0)
        set_reason(out, SAN_ILLEGAL, _("no %s %s on the %s rank can reach %s"), _(color_lower[us]),
                   _(piece_name[pt]), ordinal(p->fr), t);
    else
        set_reason(out, SAN_ILLEGAL, _("no %s %s can reach %s"), _(color_lower[us]), _(piece_name[pt]), t);
}


/* The origin of a pawn push to `to` (no capture) by the side to move, whose pawns step
 * dir and for whom `to` is on relative rank rel_to: the square behind, or two behind
 * for a double push from the pawn's first rank (*kind set to CHESS_MOVE_DOUBLE_PUSH, the
 * square between empty); -1 when no pawn of the side can push there. */
static inline int pawn_push_origin(const chess_pos *pos, int to, int dir, int rel_to, int *kind)
{
    int own_pawn = CHESS_PIECE(CHESS_PAWN, chess_pos_side(pos));
    int from = to - dir;
    if (chess_piece_at(pos, from) == own_pawn)
        return from;
    if (rel_to != 3 || chess_piece_at(pos, from) || chess_piece_at(pos, to - 2 * dir) != own_pawn)
        return -1;
    *kind = CHESS_MOVE_DOUBLE_PUSH;
    return to - 2 * dir;
}

/* The usual moves, settled without match(): a piece move that one piece of its type
 * matching the written origin can make, a pawn push, a pawn capture from a written file,
 * each pseudo-legal (the caller asks whether it is legal), a promotion only with its
 * letter.  match() would give the same answer; this one skips its many questions for
 * the rare forms.  Returns false for anything else, which match() then answers or
 * explains.  p comes from read_plain or read_shaped.  *move: the move settled,
 * *capture: whether it takes.  Inlined in both callers, so that p stays in registers. */
static inline __attribute__((always_inline)) bool match_plain(const chess_pos *pos,
                                                             const san_parts *p,
                                                             chess_move *move, bool *capture)
{
    int us = chess_pos_side(pos), to = p->to;
    int victim = chess_piece_at(pos, to);
    chess_move m;

    if (victim && CHESS_PIECE_COLOR(victim) == us)
        return false;
    if (p->ptype) {
        /* a king next to its destination, the only one the set can hold, is not
         * castling: that needs two files or the own rook's square */
        if (p->promo || p->ptype == CHESS_PAWN)
            return false;
        uint64_t set = chess_attackers_of_type(pos, to, us, p->ptype);
        if (p->ff >= 0)
            set &= UINT64_C(0x0101010101010101) << p->ff;
        if (p->fr >= 0)
            set &= UINT64_C(0xff) << (8 * p->fr);
        if (!set || (set & (set - 1)))
            return false;
        m = chess_move_make(__builtin_ctzll(set), to, CHESS_MOVE_NORMAL);
    } else {
        int dir = us == CHESS_WHITE ? 8 : -8;
        int rel_to = us == CHESS_WHITE ? CHESS_RANK(to) : 7 - CHESS_RANK(to);
        int own_pawn = CHESS_PIECE(CHESS_PAWN, us);
        int kind = p->promo ? p->promo + 2 : CHESS_MOVE_NORMAL;
        int from;
        /* UCI text, a promotion letter off the last rank or none on it, a pawn on
         * its first two ranks' destinations */
        if (p->fr >= 0 || (rel_to == 7) != (p->promo != 0) || rel_to < 2)
            return false;
        if (p->ff < 0) {
            if (p->sep != SEP_NONE || victim)
                return false;
            if ((from = pawn_push_origin(pos, to, dir, rel_to, &kind)) < 0)
                return false;
        } else {
            int df = CHESS_FILE(to) - p->ff;
            if (df != 1 && df != -1)
                return false;
            from = to - dir - df;
            if (chess_piece_at(pos, from) != own_pawn)
                return false;
            if (!victim) {
                if (to != chess_ep_square(pos))
                    return false;
                kind = CHESS_MOVE_EN_PASSANT;
            }
        }
        m = chess_move_make(from, to, kind);
    }
    *move = m;
    *capture = victim || chess_move_kind(m) == CHESS_MOVE_EN_PASSANT;
    return true;
}

/* Match san_parts text p against pos.  Lenient and disambiguation observations are added by
 * the caller. */
static void match(const chess_pos *pos, const san_parts *p, san_result *out,
                  unsigned *extra_flags, bool no_check)
{
    int us = chess_pos_side(pos);
    int pt = p->ptype;
    int castle = p->castle;
    cands c;
    c.n = 0;

    /* UCI / LAN without a piece letter: the piece is whatever stands on the
     * origin square */
    if (!castle && pt == 0 && p->ff >= 0 && p->fr >= 0) {
        int from = CHESS_SQ(p->ff, p->fr);
        int pc = chess_piece_at(pos, from);
        char f[3];
        san_sqname(from, f);
        if (!pc) {
            set_reason(out, SAN_ILLEGAL, _("there is no piece on %s"), f);
            return;
        }
        if (CHESS_PIECE_COLOR(pc) != us) {
            set_reason(out, SAN_ILLEGAL, _("%s holds a %s %s, but %s is to move"), f,
                       _(color_lower[us ^ 1]), _(piece_name[CHESS_PIECE_TYPE(pc)]), _(color_upper[us]));
            return;
        }
        pt = CHESS_PIECE_TYPE(pc);
        if (p->sep == SEP_NONE)
            *extra_flags |= SAN_LENIENT_UCI;
        else if (pt == CHESS_PAWN)
            *extra_flags |= SAN_LENIENT_LAN;
    }
    if (pt == 0)
        pt = CHESS_PAWN;

    /* a king move of two squares along its rank, or onto its own castling
     * rook, is castling */
    if (!castle && pt == CHESS_KING) {
        int ksq = chess_king_square(pos, us);
        bool from_ok = (p->ff < 0 || p->ff == CHESS_FILE(ksq)) && (p->fr < 0 || p->fr == CHESS_RANK(ksq));
        int back = us == CHESS_WHITE ? 0 : 7;
        if (from_ok && CHESS_RANK(ksq) == back && CHESS_RANK(p->to) == back) {
            if (chess_piece_at(pos, p->to) == CHESS_PIECE(CHESS_ROOK, us)) {
                for (int side = 0; side < 2; side++)
                    if (chess_castle_rook(pos, us, side) == p->to)
                        castle = 1 + side;
            } else {
                int d = CHESS_FILE(p->to) - CHESS_FILE(ksq);
                if ((d >= 2 || d <= -2) && (CHESS_FILE(p->to) == 6 || CHESS_FILE(p->to) == 2))
                    castle = 1 + (CHESS_FILE(p->to) == 6 ? CHESS_KINGSIDE : CHESS_QUEENSIDE);
            }
            if (castle && p->ptype)
                *extra_flags |= SAN_LENIENT_CASTLE_KING;
        }
    }

    if (castle) {
        chess_move m;
        if (p->promo) {
            set_reason(out, SAN_ILLEGAL, _("only pawns promote"));
            return;
        }
        if (!resolve_castle(pos, castle - 1, no_check, &m, out))
            return;
        out->status = SAN_OK;
        out->move = m;
        return;
    }

    /* the real cause first: a piece the side does not have at all, before whatever
     * stands on the destination ("White has no queen", not "h3 is occupied") */
    if (!chess_pieces(pos, us, pt)) {
        set_reason(out, SAN_ILLEGAL, _("%s has no %s"), _(color_upper[us]), _(piece_name[pt]));
        return;
    }

    /* the destination must not hold one of our own pieces */
    {
        int pc = chess_piece_at(pos, p->to);
        if (pc && CHESS_PIECE_COLOR(pc) == us) {
            char t[3];
            san_sqname(p->to, t);
            set_reason(out, SAN_ILLEGAL, _("%s is occupied by a %s %s"), t, _(color_lower[us]),
                       _(piece_name[CHESS_PIECE_TYPE(pc)]));
            return;
        }
    }

    if (p->promo && pt != CHESS_PAWN) {
        set_reason(out, SAN_ILLEGAL, _("only pawns promote"));
        return;
    }
    if (p->promo && (p->promo == CHESS_PAWN || p->promo == CHESS_KING)) {
        set_reason(out, SAN_ILLEGAL, _("pawns promote to N, B, R or Q"));
        return;
    }
    if (pt == CHESS_PAWN) {
        int last = us == CHESS_WHITE ? 7 : 0;
        if (p->promo && CHESS_RANK(p->to) != last) {
            set_reason(out, SAN_ILLEGAL, _("only a pawn reaching the last rank can promote"));
            return;
        }
        pawn_cands(pos, p, &c, out);
        if (!c.n)
            return;
    } else {
        uint64_t set = chess_attackers_of_type(pos, p->to, us, pt);
        if (p->ff >= 0)
            set &= UINT64_C(0x0101010101010101) << p->ff;
        if (p->fr >= 0)
            set &= UINT64_C(0xff) << (8 * p->fr);
        if (!set) {
            explain_unreachable(pos, p, pt, out);
            return;
        }
        while (set) {
            int sq = __builtin_ctzll(set);
            set &= set - 1;
            add_cand(&c, chess_move_make(sq, p->to, CHESS_MOVE_NORMAL));
        }
    }

    /* legality of the few candidates */
    int legal = 0, first_legal = -1;
    out->candidate_count = 0;
    if (c.n == 1 && (no_check ? chess_move_legal_unchecked(pos, c.m[0])
                              : chess_move_legal(pos, c.m[0]))) { /* the usual case */
        legal = 1;
        first_legal = 0;
    }
    for (int i = 0; i < c.n && c.n > 1; i++) {
        if (no_check ? chess_move_legal_unchecked(pos, c.m[i]) : chess_move_legal(pos, c.m[i])) {
            if (legal == 0)
                first_legal = i;
            if (out->candidate_count < 8)
                out->candidates[out->candidate_count++] = c.m[i];
            legal++;
        }
    }
    if (legal == 0) {
        explain_illegal(pos, c.m[0], out);
        if (c.n == 1)
            out->named = c.m[0];
        out->candidate_count = 0;
        return;
    }
    if (legal > 1) {
        char t[3];
        san_sqname(p->to, t);
        /* no piece type reaches a square from more than 8 places, so this
         * is the full list; the clamp only guards the array */
        out->candidate_count = legal < 8 ? legal : 8;
        set_reason(out, SAN_AMBIGUOUS, _("%d %s %ss can move to %s"), legal, _(color_lower[us]),
                   _(piece_name[pt]), t);
        return;
    }
    out->candidate_count = 0;
    out->candidates[0] = 0;
    chess_move m = c.m[first_legal];
    if (pt == CHESS_PAWN && chess_move_promotion(m) && !p->promo) {
        set_reason(out, SAN_ILLEGAL, _("a pawn reaching the last rank must promote"));
        return;
    }
    out->status = SAN_OK;
    out->move = m;
}

static const struct { unsigned flag; const char *note; } notes[] = {
    { SAN_LENIENT_ZERO_CASTLE, N_("castling written with zeros") },
    { SAN_LENIENT_LOWER_CASTLE, N_("castling written with lower-case o") },
    { SAN_LENIENT_CASTLE_KING, N_("castling written as a king move") },
    { SAN_LENIENT_UCI, N_("UCI notation") },
    { SAN_LENIENT_LAN, N_("long algebraic notation") },
    { SAN_LENIENT_LOWER_PIECE, N_("lower-case piece letter") },
    { SAN_LENIENT_PAWN_LETTER, N_("pawn written with P") },
    { SAN_LENIENT_FIGURINE, N_("figurine piece symbol") },
    { SAN_LENIENT_COLON, N_("capture written with ':' or a sign other than 'x'") },
    { SAN_LENIENT_MISSING_X, N_("capture written without 'x'") },
    { SAN_LENIENT_EXTRA_X, N_("'x' written but nothing is captured") },
    { SAN_LENIENT_PROMOTION, N_("promotion not written as =Q, =R, =B or =N") },
    { SAN_LENIENT_EP_SUFFIX, N_("e.p. suffix") },
    { SAN_LENIENT_MARKER_FORM, N_("check or mate marker other than + or #") },
    { SAN_LENIENT_PAWN_NO_FILE, N_("pawn capture without its file") },
    { SAN_LENIENT_DISAMBIG, N_("disambiguated by rank where the file is enough") },
};

static void finish_lenient(san_result *out, unsigned flags)
{
    size_t len = 0;
    out->lenient_flags = flags;
    out->lenient = flags != 0;
    out->lenient_note[0] = '\0';
    if (!flags)
        return;
    for (size_t i = 0; i < sizeof notes / sizeof notes[0]; i++) {
        if (!(flags & notes[i].flag))
            continue;
        int w = snprintf(out->lenient_note + len, sizeof out->lenient_note - len, "%s%s",
                         len ? "; " : "", _(notes[i].note));
        if (w < 0 || (size_t)w >= sizeof out->lenient_note - len)
            break;
        len += (size_t)w;
    }
}

static void reset_result(san_result *out)
{
    out->status = SAN_UNREADABLE;
    out->move = CHESS_MOVE_NONE;
    out->reason[0] = '\0';
    out->candidate_count = 0;
    out->check_marker_wrong = false;
    out->check_marker_written[0] = '\0';
    out->check_marker_expected[0] = '\0';
    out->over_disambiguated = false;
    out->lenient = false;
    out->lenient_flags = 0;
    out->lenient_note[0] = '\0';
    out->named = CHESS_MOVE_NONE;
}

static void unreadable(const unsigned char *s, size_t n, san_result *out)
{
    /* a square-like pair with a rank out of range gets its own sentence */
    for (size_t i = 0; i + 1 < n; i++) {
        if (san_is_file(s[i]) && s[i + 1] >= '0' && s[i + 1] <= '9' && !san_is_rank(s[i + 1])
            && (i + 2 >= n || !(s[i + 2] >= '0' && s[i + 2] <= '9'))) {
            set_reason(out, SAN_UNREADABLE, _("%c%c is not a square"), s[i], s[i + 1]);
            return;
        }
    }
    set_reason(out, SAN_UNREADABLE, _("not a chess move in SAN, LAN or UCI"));
}

/* "", "+" or "#" for marker 0, 1 or 2 */
static inline void set_marker(char buf[3], int marker)
{
    buf[0] = "\0+#"[marker];
    if (marker)
        buf[1] = '\0';
}

/* observe on the origin written for m (file ff, rank fr, -1 when not), a move of a piece
 * other than a pawn, no castling, not UCI nor written with '-': *over set when it is
 * over-disambiguated (else left), or the lenient flags it makes.  Given no san_parts, so
 * that the callers' stay in registers. */
static unsigned observe_disambiguation(const chess_pos *pos, int ff, int fr, chess_move m,
                                       bool written_x, bool *over)
{
    bool nf, nr;
    san_disambiguation(pos, m, &nf, &nr);
    int given = (ff >= 0) + (fr >= 0), needed = nf + nr;
    if (given > needed && given == 2 && written_x)
        return SAN_LENIENT_LAN;   /* Ng1xf3: the LAN form of a capture */
    if (given > needed)
        *over = true;
    else if (given == 1 && needed == 1 && (ff >= 0) != nf)
        return SAN_LENIENT_DISAMBIG;
    return 0;
}

/* observe's last part: the check marker, and the lenient flags seen. */
static inline void observe_marker(const chess_pos *pos, const san_parts *p, san_result *out,
                                  unsigned flags)
{
    int cs = chess_move_check_state(pos, out->move);
    set_marker(out->check_marker_written, p->marker);
    set_marker(out->check_marker_expected, cs);
    out->check_marker_wrong = cs != p->marker;
    finish_lenient(out, flags);
}

/* The observations on the move out->move read from p (lenient forms, disambiguation, the
 * check marker): every field of out that matching a legal move does not set. flags: the
 * lenient forms seen so far. */
static void observe(const chess_pos *pos, const san_parts *p, san_result *out, unsigned flags)
{
    chess_move m = out->move;
    int kind = chess_move_kind(m);
    int from = chess_move_from(m), to = chess_move_to(m);
    bool capture = kind == CHESS_MOVE_EN_PASSANT
                   || (kind != CHESS_MOVE_CASTLE && chess_piece_at(pos, to) != 0);
    bool written_x = p->sep == SEP_X || p->sep == SEP_COLON;
    bool full_origin = p->ff >= 0 && p->fr >= 0;
    bool uci_form = !p->castle && p->ptype == 0 && full_origin && p->sep == SEP_NONE;

    if (kind != CHESS_MOVE_CASTLE) {
        if (capture && !written_x && !uci_form)
            flags |= SAN_LENIENT_MISSING_X;
        if (!capture && written_x)
            flags |= SAN_LENIENT_EXTRA_X;
        if (CHESS_PIECE_TYPE(chess_piece_at(pos, from)) == CHESS_PAWN) {
            if (capture && p->ff < 0)
                flags |= SAN_LENIENT_PAWN_NO_FILE;
            if (full_origin && written_x)
                flags |= SAN_LENIENT_LAN;
        } else if (p->sep != SEP_DASH && !uci_form && (p->ff >= 0 || p->fr >= 0)) {
            flags |= observe_disambiguation(pos, p->ff, p->fr, m, written_x,
                                            &out->over_disambiguated);
        }
    }
    observe_marker(pos, p, out, flags);
}

/* observe's lenient flags and *over (set when over-disambiguated, else left) for the move m
 * match_plain settled, answered from what it knows: no castling and no lenient form read
 * (p from read_plain or read_shaped, so 'x' or no separator), the piece moved is p's (a
 * pawn when p names none, whose origin is then its file at most), and capture: whether m
 * takes. */
static inline __attribute__((always_inline)) unsigned
observe_plain_flags(const chess_pos *pos, const san_parts *p, chess_move m, bool capture,
                    bool *over)
{
    bool written_x = p->sep == SEP_X;
    unsigned flags = 0;

    if (capture && !written_x)
        flags = SAN_LENIENT_MISSING_X;
    else if (!capture && written_x)
        flags = SAN_LENIENT_EXTRA_X;
    /* the pawn moves match_plain settles (a push with no origin, a capture from a file)
     * are none of observe's pawn forms (a capture without its file, LAN) */
    if (p->ptype && (p->ff >= 0 || p->fr >= 0))
        flags |= observe_disambiguation(pos, p->ff, p->fr, m, written_x, over);
    return flags;
}

/* observe for the move out->move match_plain settled (see observe_plain_flags). */
static inline void observe_plain(const chess_pos *pos, const san_parts *p, san_result *out,
                                 bool capture)
{
    unsigned flags = observe_plain_flags(pos, p, out->move, capture, &out->over_disambiguated);
    observe_marker(pos, p, out, flags);
}

/* Resolve one reading (p filled by read_move or read_plain) and add the observations;
 * out was reset; no_check: the side to move is known not to be in check. */
static void resolve_known(const chess_pos *pos, const san_parts *p, san_result *out, bool no_check)
{
    unsigned flags = p->flags;

    match(pos, p, out, &flags, no_check);
    if (out->status != SAN_OK) {
        finish_lenient(out, flags);
        return;
    }
    observe(pos, p, out, flags);
}

static void resolve(const chess_pos *pos, const san_parts *p, san_result *out)
{
    resolve_known(pos, p, out, false);
}


static void parse_general(const chess_pos *pos, const unsigned char *s, san_result *out);

void chess_san_parse(const chess_pos *pos, const char *text, san_result *out)
{
    chess_san_parse_shaped(pos, text, 0, false, out);
}

void chess_san_parse_known(const chess_pos *pos, const char *text, bool no_check,
                           san_result *out)
{
    chess_san_parse_shaped(pos, text, 0, no_check, out);
}

/* Also chess_san_parse_known's work: shape 0 when the text's is not known. */
void chess_san_parse_shaped(const chess_pos *pos, const char *text, unsigned shape,
                            bool no_check, san_result *out)
{
    const unsigned char *s = (const unsigned char *)text;
    san_parts p;

    if (shape & SAN_SHAPE_READ) {
        san_read_shaped(s, shape, &p);
    } else {
        while (*s == ' ' || *s == '\t')
            s++;
        if (!san_read_plain(s, &p)) {
            reset_result(out);
            if (san_read_plain_castle(s, &p))
                resolve_known(pos, &p, out, false);
            else
                parse_general(pos, s, out);
            return;
        }
    }
    bool capture;
    chess_move m;
    if (match_plain(pos, &p, &m, &capture)
        && (no_check ? chess_move_legal_unchecked(pos, m) : chess_move_legal(pos, m))) {
        /* the usual move: the fields observe leaves, as reset */
        out->status = SAN_OK;
        out->move = m;
        out->candidate_count = 0;
        out->candidates[0] = 0;
        out->reason[0] = '\0';
        out->over_disambiguated = false;
        out->named = CHESS_MOVE_NONE;
        observe_plain(pos, &p, out, capture);
        return;
    }
    reset_result(out);
    resolve_known(pos, &p, out, no_check);
    if (out->status == SAN_OK)
        return;
    /* rare: the general way finds the same reason, and tries "b..." as a bishop */
    reset_result(out);
    parse_general(pos, s, out);
}

/* chess_san_quick for castling written "O-O" or "O-O-O", with a marker or none: the
 * texts with no shape that parse_shaped reads with read_plain_castle, none of them
 * lenient. */
static bool quick_castle(const chess_pos *pos, const char *text, bool no_check, san_quick *out)
{
    const unsigned char *s = (const unsigned char *)text;
    san_parts p;
    san_result unused; /* the reason for an illegal castling, which the full reader gives */
    chess_move m;

    while (*s == ' ' || *s == '\t')
        s++;
    if (!san_read_plain_castle(s, &p) || !resolve_castle(pos, p.castle - 1, no_check, &m, &unused))
        return false;
    int cs = chess_move_check_state(pos, m);
    out->move = m;
    out->check = (uint8_t)cs;
    out->marker_wrong = cs != p.marker;
    return true;
}

/* chess_san_quick for any shape: match_plain's answer, as the fast path below would give
 * where it answers.  Out of line, so that the usual move saves no registers for it. */
static __attribute__((noinline)) bool quick_general(const chess_pos *pos, const char *text,
                                                    unsigned shape, bool no_check,
                                                    san_quick *out)
{
    san_parts p;
    bool capture, over = false;
    chess_move m;

    if (!(shape & SAN_SHAPE_READ))
        return quick_castle(pos, text, no_check, out);
    san_read_shaped((const unsigned char *)text, shape, &p);
    if (!match_plain(pos, &p, &m, &capture))
        return false;
    int cs = chess_move_settle(pos, m, no_check);
    if (cs < 0 || observe_plain_flags(pos, &p, m, capture, &over) || over)
        return false;
    out->move = m;
    out->check = (uint8_t)cs;
    out->marker_wrong = cs != p.marker;
    return true;
}

/* chess_san_quick's settled move (as chess_settle_packed packs it, -1 for none) for a piece
 * of type written with its origin file ff ("Nbd2"), the destination's victim, if any,
 * written with 'x': quick_general's answer, found without reading the text again and
 * with the rivals match_plain's set leaves.  The move is the usual one when the file is
 * the disambiguation SAN needs (observe_disambiguation): a rival, which no file of the
 * origin's holds, can legally move there too. */
static __attribute__((noinline)) int32_t quick_piece_from_file(const chess_pos *pos, int type,
                                                               int ff, int to, bool no_check)
{
    uint64_t all = chess_attackers_of_type(pos, to, chess_pos_side(pos), type);
    uint64_t set = all & UINT64_C(0x0101010101010101) << ff;
    if (!set || (set & (set - 1)))
        return -1;
    int32_t r = chess_settle_packed(pos, chess_move_make(__builtin_ctzll(set), to,
                                                         CHESS_MOVE_NORMAL), no_check);
    /* a king has no rival, so its file is never needed */
    if (r < 0 || !san_legal_rivals(pos, all & ~set, to, !no_check))
        return -1;
    return r;
}

/* The usual texts, read at the places their shape gives and settled in one pass: a piece
 * letter and the destination ("Nf3", "Qxd5"), a pawn push ("e4") or a pawn capture from
 * its file ("exd5"), with a marker or none.  A capture written so is one (or en passant:
 * quick_general), anything else is not the usual move or is asked of quick_general,
 * whose answers these are. */
bool chess_san_quick(const chess_pos *pos, const char *text, unsigned shape, bool no_check,
                     san_quick *out)
{
    const unsigned char *s = (const unsigned char *)text;
    /* castling, an origin rank, a promotion: rare */
    if ((shape & (SAN_SHAPE_READ | SAN_SHAPE_RANK | SAN_SHAPE_PROMO)) != SAN_SHAPE_READ)
        return quick_general(pos, text, shape, no_check, out);
    int us = chess_pos_side(pos);
    /* piece letter, file and 'x' take a byte each before the destination: their count by
     * the bits PIECE, FILE, RANK (clear here) and X, shifted down one */
    static const uint8_t lead[16] = { 0, 1, 1, 2, 0, 0, 0, 0, 1, 2, 2, 3, 0, 0, 0, 0 };
    _Static_assert(SAN_SHAPE_PIECE == 2 && SAN_SHAPE_FILE == 4 && SAN_SHAPE_X == 16,
                   "lead[] follows the shape bits");
    const unsigned char *d = s + lead[(shape >> 1) & 15];
    int to = CHESS_SQ(d[0] - 'a', d[1] - '1');
    int marker = shape & SAN_SHAPE_MARK ? (d[2] == '+' ? 1 : 2) : 0;
    int victim = chess_piece_at(pos, to);
    if ((victim != 0) != ((shape & SAN_SHAPE_X) != 0)) {
        /* en passant, or lenient: a piece's is a lenient form, which is no usual move */
        if (shape & SAN_SHAPE_PIECE)
            return false;
        return quick_general(pos, text, shape, no_check, out);
    }
    if (victim && CHESS_PIECE_COLOR(victim) == us)
        return false;
    int32_t r;
    if (shape & SAN_SHAPE_PIECE) {
        int type = san_piece_by_letter_bits[s[0] & 31];
        if (type == CHESS_PAWN)
            return false;
        if (shape & SAN_SHAPE_FILE)
            r = quick_piece_from_file(pos, type, s[1] - 'a', to, no_check);
        else
            r = chess_settle_piece_move(pos, type, to, no_check);
    } else {
        int dir = us == CHESS_WHITE ? 8 : -8;
        int rel_to = us == CHESS_WHITE ? CHESS_RANK(to) : 7 - CHESS_RANK(to);
        int own_pawn = CHESS_PIECE(CHESS_PAWN, us);
        int from, kind = CHESS_MOVE_NORMAL;
        /* the last rank needs a promotion; no pawn reaches its first two */
        if (rel_to == 7 || rel_to < 2)
            return false;
        if (shape & SAN_SHAPE_FILE) {
            /* a capture from that file ("ed5" without 'x' is no usual move) */
            int df = CHESS_FILE(to) - (s[0] - 'a');
            if (!(shape & SAN_SHAPE_X) || (df != 1 && df != -1))
                return false;
            from = to - dir - df;
            if (chess_piece_at(pos, from) != own_pawn)
                return false;
        } else {
            if (shape & SAN_SHAPE_X)
                return false;
            if ((from = pawn_push_origin(pos, to, dir, rel_to, &kind)) < 0)
                return false;
        }
        r = chess_settle_packed(pos, chess_move_make(from, to, kind), no_check);
    }
    if (r < 0)
        return false;
    int cs = r >> 16;
    out->move = (chess_move)r;
    out->check = (uint8_t)cs;
    out->marker_wrong = cs != marker;
    return true;
}

/* chess_san_parse for any text; s has no leading blanks, out is reset. */
static void parse_general(const chess_pos *pos, const unsigned char *s, san_result *out)
{
    size_t n;
    san_parts p;

    n = strlen((const char *)s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
        n--;

    memset(&p, 0, sizeof p);
    n = san_strip_suffixes(s, n, &p);

    if (san_text_is((const char *)s, n, "--") || san_text_is((const char *)s, n, "Z0")
        || san_text_is((const char *)s, n, "0000") || san_text_is((const char *)s, n, "@@@@")) {
        out->status = SAN_NULL;
        return;
    }

    /* castling written as such */
    if (n >= 3 && (s[0] == 'O' || s[0] == '0' || s[0] == 'o')) {
        unsigned char o = s[0];
        int side = -1;
        if (n == 3 && s[1] == '-' && s[2] == o)
            side = CHESS_KINGSIDE;
        else if (n == 5 && s[1] == '-' && s[2] == o && s[3] == '-' && s[4] == o)
            side = CHESS_QUEENSIDE;
        if (side >= 0 && !p.ep_suffix) {
            p.castle = 1 + side;
            p.ff = p.fr = -1;
            p.to = -1;
            if (o == '0')
                p.flags |= SAN_LENIENT_ZERO_CASTLE;
            else if (o == 'o')
                p.flags |= SAN_LENIENT_LOWER_CASTLE;
            resolve(pos, &p, out);
            return;
        }
    }

    san_parts first = p;
    bool readable = san_read_move(s, n, false, &first);
    if (readable)
        resolve(pos, &first, out);
    if (n && s[0] == 'b' && (!readable || out->status != SAN_OK)) {
        /* "b..." as a bishop move, written in lower case */
        san_parts second = p;
        if (san_read_move(s, n, true, &second)) {
            san_result alt;
            reset_result(&alt);
            resolve(pos, &second, &alt);
            if (!readable || alt.status == SAN_OK)
                *out = alt;
            readable = true;
        }
    }
    if (!readable)
        unreadable(s, n, out);
}
