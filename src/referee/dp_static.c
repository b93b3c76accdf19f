/* dp_static.c: a semi-static proof that a side can never checkmate (FIDE 5.2.2, 6.9).
 *
 * The idea follows the semi-static analysis of M. Ambrona's CHA (FUN 2022), written
 * anew here as a least fixpoint over "which men may ever move freely or be taken":
 *
 *   Every man starts "bound": a piece that never moves, a pawn that never leaves its
 *   file and is never taken. A bound pawn keeps its order on the file with the other
 *   bound pawns and still pieces (no pawn passes another, 3.7.1), so it stays in a
 *   segment: from its square up to the first bound enemy pawn or still piece ahead,
 *   less one square per bound pawn of its own side between. A bound man whose segment
 *   is its square is "still". Under the hypothesis that the bound men stay bound, each
 *   free man gets a region (every square it may ever stand on) and an attack set, with
 *   the still men as the only obstacles (free men are ignored: that only enlarges both;
 *   a free pawn keeps to its segment until its first capture). A bound man turns free
 *   when it has somewhere to go (a piece: a square not held by a still man of its side),
 *   when a pawn may capture (an enemy man, kings apart, may stand on a square it
 *   attacks), or when an enemy may attack a square it stands on (a king only where no
 *   still man defends it in a way that cannot be blocked, 3.8.2, 3.9).
 *
 * The fixpoint is sound by induction on the first move that breaks the hypothesis for a
 * bound man of the final state: before it, every bound man is where the hypothesis puts
 * it, every free man stays in its region, and the breaking move would have made the man
 * free. Kings never enter squares that a still man attacks without possible
 * interposition (3.9: a king may not move into check).
 *
 * If then no man of the winner can ever attack a square the loser's king may ever reach,
 * the winner can never give check, hence never checkmate (5.2.2, 6.9): unwinnable. If it
 * can, a mate on square k still needs every neighbour of k that the winner can never
 * attack to hold a man of the loser: when fewer men of the loser can ever stand there,
 * k is no mating square. A pawn that might reach its last rank, castling rights or an en
 * passant capture now give up (no proof): the answer is then "no proof", never a wrong
 * "unwinnable". */
#include <config.h>

#include "referee/dp_static.h"

#include <stdint.h>
#include <string.h>

#define SQB(sq) (UINT64_C(1) << (sq))
#define RANK1 UINT64_C(0x00000000000000FF)
#define RANK8 UINT64_C(0xFF00000000000000)
#define FILE_A UINT64_C(0x0101010101010101)
#define FILE_H UINT64_C(0x8080808080808080)

static int lsb_pop(uint64_t *b)
{
    int sq = __builtin_ctzll(*b);
    *b &= *b - 1;
    return sq;
}

static uint64_t shift_dir(uint64_t b, int df, int dr)
{
    if (df > 0)
        b &= ~FILE_H;
    else if (df < 0)
        b &= ~FILE_A;
    int s = df + 8 * dr;
    return s > 0 ? b << s : b >> -s;
}

static const int dirs8[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1},
                                {1, 1}, {-1, 1}, {1, -1}, {-1, -1}};
static const int jumps[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2},
                                {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};

static uint64_t king_set(uint64_t b)
{
    uint64_t out = 0;
    for (int i = 0; i < 8; i++)
        out |= shift_dir(b, dirs8[i][0], dirs8[i][1]);
    return out;
}

static uint64_t knight_set(uint64_t b)
{
    uint64_t out = 0;
    for (int i = 0; i < 8; i++) {
        uint64_t x = b;
        int df = jumps[i][0], dr = jumps[i][1];
        for (int k = 0; k < (df < 0 ? -df : df); k++)
            x = shift_dir(x, df < 0 ? -1 : 1, 0);
        out |= shift_dir(x, 0, dr);
    }
    return out;
}

/* Slides from every square of from in the directions [lo, hi) of dirs8, stopping on
 * (and including) squares of block. */
static uint64_t slide_set(uint64_t from, uint64_t block, int lo, int hi)
{
    uint64_t out = 0;
    for (int i = lo; i < hi; i++) {
        uint64_t x = from;
        while (x) {
            x = shift_dir(x, dirs8[i][0], dirs8[i][1]);
            out |= x;
            x &= ~block;
        }
    }
    return out;
}

/* Squares attacked from the set from by a man of type t (pawns of colour c). */
static uint64_t attacks_from(int t, int c, uint64_t from, uint64_t block)
{
    switch (t) {
    case CHESS_PAWN:
        return shift_dir(from, 1, c == CHESS_WHITE ? 1 : -1) |
               shift_dir(from, -1, c == CHESS_WHITE ? 1 : -1);
    case CHESS_KNIGHT: return knight_set(from);
    case CHESS_BISHOP: return slide_set(from, block, 4, 8);
    case CHESS_ROOK: return slide_set(from, block, 0, 4);
    case CHESS_QUEEN: return slide_set(from, block, 0, 8);
    default: return king_set(from);
    }
}

/* Squares next to from that a man of type t attacks: no man can step between. */
static uint64_t near_attacks(int t, int c, uint64_t from)
{
    switch (t) {
    case CHESS_PAWN:
    case CHESS_KNIGHT: return attacks_from(t, c, from, 0);
    case CHESS_BISHOP: return slide_set(from, ~UINT64_C(0), 4, 8);
    case CHESS_ROOK: return slide_set(from, ~UINT64_C(0), 0, 4);
    default: return king_set(from);
    }
}

typedef struct man {
    int sq, type, color;
    bool mobile;      /* may leave its file or be taken (pawn), may move (piece) */
    uint64_t region;  /* every square it may stand on (a file-bound pawn: its segment) */
    uint64_t attacks; /* every square it may attack from there */
} man;

/* The furthest square a pawn on sq may reach by pushes alone while the file-bound
 * pawns and still pieces ahead of it keep their order on the file (no pawn passes
 * another on a file; 3.7.1). Returns the squares from sq to there. */
static uint64_t file_segment(const man *men, const int *at, int sq, int c)
{
    int dr = c == CHESS_WHITE ? 8 : -8;
    int k = 0, t;
    uint64_t seg = SQB(sq);
    for (t = sq + dr; t >= 0 && t < 64; t += dr) {
        int i = at[t];
        if (i < 0 || men[i].mobile)
            continue;
        if (men[i].type != CHESS_PAWN || men[i].color != c)
            break; /* a still man, or a file-bound enemy pawn: t - (k + 1) at most */
        k++;       /* a file-bound pawn of its own side stays ahead of it */
    }
    int hi = t - (k + 1) * dr;
    for (int u = sq + dr; (dr > 0 ? u <= hi : u >= hi) && u >= 0 && u < 64; u += dr)
        seg |= SQB(u);
    return seg;
}

/* Whether some pawn has no man at all ahead of it on its file. The analysis below then
 * gives up in its first round: every man starts bound, and such a pawn's segment runs to
 * its last rank (it may promote). Testing it first gives the same answer for a few
 * instructions; it is the common case at game ends. */
static bool static_pawn_runs_free(uint64_t wp, uint64_t bp, uint64_t men)
{
    return dp_pawn_unblocked(wp, bp, men);
}

/* The men that surely turn free in the first round of dp_static_analyse, where every
 * man is bound, every piece is still and the regions are the men's own squares (a
 * pawn's: its segment, which holds its square), so that the attack sets there hold the
 * ordinary ones (with fewer blockers, from more squares):
 *  - a man that a man of the other side other than the king attacks ("it may be
 *    taken");
 *  - a piece with a square next to it in its reach (near_attacks) that holds no man of
 *    its side ("it may move": still_c holds men of its side only), for a king also
 *    outside the reach of every man of the other side (guard holds no more);
 *  - a pawn that attacks a man of the other side other than the king ("it may
 *    capture": reach holds that man's square). */
static uint64_t first_round_free(const chess_pos *pos)
{
    const uint64_t *t = pos->by_type;
    uint64_t occ = pos->by_color[0] | pos->by_color[1];
    uint64_t freed = 0, att[2], near[2];
    for (int c = 0; c < 2; c++) {
        uint64_t own = pos->by_color[c], enemy = pos->by_color[c ^ 1];
        uint64_t pawns = own & t[CHESS_PAWN], pieces = own & ~t[CHESS_KING] & ~pawns;
        att[c] = near[c] = attacks_from(CHESS_PAWN, c, pawns, 0);
        for (uint64_t kings = own & t[CHESS_KING]; kings;)
            near[c] |= chess_piece_attacks(CHESS_KING, c, lsb_pop(&kings), 0);
        while (pieces) {
            int sq = lsb_pop(&pieces), type = CHESS_PIECE_TYPE(pos->board[sq]);
            /* with every square occupied a slider reaches its neighbours on its lines
             * only: near_attacks of a single square */
            uint64_t next_to = chess_piece_attacks(type, c, sq, ~UINT64_C(0));
            near[c] |= next_to;
            if (next_to & ~own)
                freed |= SQB(sq);
            att[c] |= chess_piece_attacks(type, c, sq, occ);
        }
        /* a pawn of colour c attacks a square exactly when a pawn of the other colour
         * there would attack the pawn's square */
        freed |= pawns & attacks_from(CHESS_PAWN, c ^ 1, enemy & ~t[CHESS_KING], 0);
    }
    for (int c = 0; c < 2; c++) {
        uint64_t kings = pos->by_color[c] & t[CHESS_KING];
        while (kings) {
            int sq = lsb_pop(&kings);
            if (chess_piece_attacks(CHESS_KING, c, sq, 0) & ~pos->by_color[c] & ~near[c ^ 1])
                freed |= SQB(sq);
        }
    }
    return freed | (pos->by_color[CHESS_WHITE] & att[CHESS_BLACK]) |
           (pos->by_color[CHESS_BLACK] & att[CHESS_WHITE]);
}

/* Whether the analysis surely gives up by its second round, found without running it:
 * some pawn has, ahead of it on its file, only men that turn free in the first round
 * (first_round_free; none at all is static_pawn_runs_free). Proof: with no man ahead,
 * the first round gives up already. Otherwise those men turn free in the first round,
 * so it changes something and a second round follows, with them mobile; file_segment
 * skips mobile men, so the pawn's segment then runs to its last rank, with no bound pawn
 * of its own side ahead to shorten it, and the second round gives up at the pawn: in
 * its first loop if the pawn is still bound, or where its region is grown (its segment
 * is part of it) if it has turned free. Every other way out of the first two rounds
 * gives up too. Most open positions at a game's end are settled here, for a few
 * hundred instructions instead of the analysis's thousands. */
static bool static_gives_up_early(const chess_pos *pos)
{
    uint64_t wp = pos->by_type[CHESS_PAWN] & pos->by_color[CHESS_WHITE];
    uint64_t bp = pos->by_type[CHESS_PAWN] & pos->by_color[CHESS_BLACK];
    uint64_t men = pos->by_color[0] | pos->by_color[1];
    return static_pawn_runs_free(wp, bp, men & ~first_round_free(pos));
}

int dp_static_analyse(const chess_pos *pos, dp_static_result *res)
{
    if (static_gives_up_early(pos)) {
        memset(res, 0, sizeof *res); /* as the analysis leaves it when it gives up */
        return -1;
    }
    return dp_static_analyse_full(pos, res);
}

int dp_static_analyse_full(const chess_pos *pos, dp_static_result *res)
{
    memset(res, 0, sizeof *res);
    if (pos->castling || pos->ep_in_key)
        return -1;
    man men[32];
    int at[64];
    int n = 0;
    memset(at, -1, sizeof at);
    uint64_t all = pos->by_color[0] | pos->by_color[1];
    if (__builtin_popcountll(all) > 32)
        return -1; /* not from a game: every man must be counted */
    for (uint64_t b = all; b;) {
        int sq = lsb_pop(&b);
        int pc = pos->board[sq];
        at[sq] = n;
        men[n++] = (man){.sq = sq, .type = CHESS_PIECE_TYPE(pc), .color = CHESS_PIECE_COLOR(pc)};
    }
    const uint64_t last_rank[2] = {RANK8, RANK1};
    for (int round = 0; round < 100; round++) {
        /* file-bound pawns: their segments; still men: pieces that never move and
         * file-bound pawns whose segment is their square */
        uint64_t still = 0, still_c[2] = {0, 0};
        for (int i = 0; i < n; i++) {
            man *m = &men[i];
            if (m->mobile)
                continue;
            if (m->type == CHESS_PAWN) {
                m->region = file_segment(men, at, m->sq, m->color);
                if (m->region & last_rank[m->color])
                    return -1; /* it may promote */
            } else
                m->region = SQB(m->sq);
            if (m->region == SQB(m->sq)) {
                still |= m->region;
                still_c[m->color] |= m->region;
            }
        }
        /* squares still men attack with no square between (3.9: no king goes there) */
        uint64_t guard[2] = {0, 0};
        for (int i = 0; i < n; i++)
            if (!men[i].mobile && (still & SQB(men[i].sq)))
                guard[men[i].color] |= near_attacks(men[i].type, men[i].color, SQB(men[i].sq));
        /* where each side's men (kings apart) may stand: what a pawn may capture */
        uint64_t reach[2];
        for (int i = 0; i < n; i++)
            if (men[i].mobile)
                men[i].region = 0;
        bool grew = true;
        int pass;
        for (pass = 0; grew && pass < 64; pass++) {
            grew = false;
            reach[0] = reach[1] = 0;
            for (int i = 0; i < n; i++)
                if (men[i].type != CHESS_KING)
                    reach[men[i].color] |= men[i].region;
            for (int i = 0; i < n; i++) {
                man *m = &men[i];
                if (!m->mobile)
                    continue;
                int c = m->color, e = c ^ 1;
                uint64_t before = m->region;
                if (m->type == CHESS_PAWN) {
                    int dr = c == CHESS_WHITE ? 1 : -1;
                    /* on its own file until its first capture: its segment */
                    uint64_t home = file_segment(men, at, m->sq, c);
                    uint64_t reg = home | before;
                    for (;;) {
                        uint64_t away = reg & ~home;
                        uint64_t fwd = shift_dir(away, 0, dr) & ~still;
                        uint64_t diag = (shift_dir(reg, 1, dr) | shift_dir(reg, -1, dr)) &
                                        reach[e];
                        uint64_t next = reg | fwd | diag;
                        if (next == reg)
                            break;
                        reg = next;
                    }
                    m->region = reg;
                    m->attacks = attacks_from(CHESS_PAWN, c, reg, 0);
                    if (reg & last_rank[c])
                        return -1; /* it may promote */
                } else {
                    uint64_t reg = before | SQB(m->sq);
                    for (;;) {
                        uint64_t to = attacks_from(m->type, c, reg, still) & ~still;
                        if (m->type == CHESS_KING)
                            to &= ~guard[e];
                        uint64_t next = reg | to;
                        if (next == reg)
                            break;
                        reg = next;
                    }
                    m->region = reg;
                    m->attacks = attacks_from(m->type, c, reg, still);
                }
                if (m->region != before)
                    grew = true;
            }
        }
        if (grew)
            return -1; /* not settled: no proof */
        /* every square each side may attack; kings apart */
        uint64_t att[2] = {0, 0}, katt[2] = {0, 0};
        for (int i = 0; i < n; i++) {
            man *m = &men[i];
            if (!m->mobile)
                m->attacks = attacks_from(m->type, m->color, m->region, still);
            if (m->type == CHESS_KING)
                katt[m->color] |= m->attacks;
            else
                att[m->color] |= m->attacks;
        }
        /* which men break the hypothesis? */
        bool changed = false;
        for (int i = 0; i < n; i++) {
            man *m = &men[i];
            if (m->mobile)
                continue;
            int c = m->color, e = c ^ 1;
            bool go = false;
            if ((att[e] & m->region) || (katt[e] & m->region & ~guard[c]))
                go = true; /* it may be taken (a king never takes a guarded man) */
            else if (m->type == CHESS_PAWN)
                go = (m->attacks & reach[e]) != 0; /* it may capture */
            else {
                uint64_t to = near_attacks(m->type, c, m->region) & ~still_c[c];
                if (m->type == CHESS_KING)
                    to &= ~guard[e];
                go = to != 0; /* it may move */
            }
            if (go) {
                m->mobile = true;
                changed = true;
            }
        }
        if (changed)
            continue;
        /* the fixpoint */
        res->still = still;
        res->n = n;
        for (int i = 0; i < n; i++) {
            res->men[i].sq = (uint8_t)men[i].sq;
            res->men[i].color = (uint8_t)men[i].color;
            res->men[i].type = (uint8_t)men[i].type;
            res->men[i].region = men[i].region;
        }
        for (int c = 0; c < 2; c++) {
            res->check_squares[c] = att[c];
            for (int i = 0; i < n; i++)
                if (men[i].type == CHESS_KING && men[i].color == c)
                    res->king_region[c] = men[i].region;
        }
        return 0;
    }
    return -1;
}

/* Whether the loser's king may be mated on k. Every neighbour of k that no man of the
 * winner can ever attack (attacks taken through the squares of a king that moves, so a
 * square behind the king on a checking line counts as attacked) must hold a man of the
 * loser when the king stands mated on k (3.8: a king may step to any free, unattacked
 * neighbour, or take an unprotected man there), so at least as many distinct men of the
 * loser must be able to stand on those neighbours. */
static bool may_mate_on(const dp_static_result *r, int loser, int k, uint64_t attacked)
{
    uint64_t free_sq = king_set(SQB(k)) & ~attacked;
    int need = __builtin_popcountll(free_sq), can = 0;
    for (int i = 0; i < r->n && can < need; i++)
        if (r->men[i].color == loser && r->men[i].type != CHESS_KING &&
            (r->men[i].region & free_sq))
            can++;
    return can >= need;
}

bool dp_static_cannot_mate(const chess_pos *pos, int winner)
{
    /* a cheap way out for open positions: unless some pawn has a man in front of it,
     * hardly anything can stand still (a proof is lost only in odd cases of pieces boxed
     * in by pawns that are all free to advance) */
    uint64_t wp = pos->by_type[CHESS_PAWN] & pos->by_color[CHESS_WHITE];
    uint64_t bp = pos->by_type[CHESS_PAWN] & pos->by_color[CHESS_BLACK];
    uint64_t men = pos->by_color[0] | pos->by_color[1];
    if (!((wp << 8) & men) && !((bp >> 8) & men))
        return false;
    if (static_pawn_runs_free(wp, bp, men))
        return false;
    dp_static_result r;
    if (dp_static_analyse(pos, &r) != 0)
        return false;
    int loser = winner ^ 1;
    uint64_t king = r.king_region[loser];
    /* 5.2.2, 6.9: no man of the winner can ever attack a square the loser's king may
     * stand on, so no check, hence no checkmate, is ever possible */
    uint64_t checks = r.check_squares[winner] & king;
    if (checks == 0)
        return true;
    /* a king that never moves blocks the lines through its square in the attack sets:
     * the count below would not be sound */
    if (__builtin_popcountll(king) < 2)
        return false;
    uint64_t attacked = r.check_squares[winner];
    for (int i = 0; i < r.n; i++)
        if (r.men[i].type == CHESS_KING && r.men[i].color == winner)
            attacked |= king_set(r.men[i].region);
    while (checks) {
        int k = lsb_pop(&checks);
        if (may_mate_on(&r, loser, k, attacked))
            return false;
    }
    return true;
}
