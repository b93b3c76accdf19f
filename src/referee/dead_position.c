/* dead_position.c: can a side still checkmate (FIDE 5.2.2, 6.9)? See dead_position.h.
 *
 * Attacks are computed here with plain loops rather than the core's private tables: this
 * code runs at game ends only, never per ply. */
#include <config.h>

#include "i18n/i18n.h"
#include "referee/dead_position.h"
#include "referee/dp_closure.h"
#include "referee/dp_static.h"

#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define BB(sq) (UINT64_C(1) << (sq))
#define LIGHT_SQUARES UINT64_C(0x55AA55AA55AA55AA)

static int popcount(uint64_t b) { return __builtin_popcountll(b); }
static int pop_lsb(uint64_t *b)
{
    int sq = __builtin_ctzll(*b);
    *b &= *b - 1;
    return sq;
}

/* Squares a piece of type t (not a pawn) on sq attacks, and may move to. */
static uint64_t piece_attacks(int t, int sq, uint64_t occ)
{
    return t == CHESS_PAWN ? 0 : chess_piece_attacks(t, CHESS_WHITE, sq, occ);
}

static uint64_t pawn_attack_set(uint64_t pawns, int color)
{
    const uint64_t not_a = ~UINT64_C(0x0101010101010101), not_h = ~UINT64_C(0x8080808080808080);
    if (color == CHESS_WHITE)
        return ((pawns & not_a) << 7) | ((pawns & not_h) << 9);
    return ((pawns & not_a) >> 9) | ((pawns & not_h) >> 7);
}

const char *dp_verdict_name(dp_verdict v)
{
    switch (v) {
    case DP_WINNABLE: return "winnable";
    case DP_UNWINNABLE: return "unwinnable";
    default: return "undetermined";
    }
}

/* ---- material (5.2.2, 6.9) ---- */

bool dp_material_cannot_mate(const chess_pos *pos, int winner)
{
    const uint64_t *t = pos->by_type;
    uint64_t kings = t[CHESS_KING];
    uint64_t mine = pos->by_color[winner] & ~kings;
    uint64_t theirs = pos->by_color[winner ^ 1] & ~kings;
    if (mine == 0)
        return true; /* a lone king never gives check */
    /* King and bishops, every bishop on the board on one colour, no knight or pawn on the
     * board: the mated king would stand on that colour and one of its orthogonal
     * neighbours (the other colour, which no bishop and at most one square of the
     * other king can cover) would hold a rook or queen of the loser that can always step
     * onto the checking diagonal (no pin is possible without a rook or queen of the
     * winner; no double check by bishops alone). */
    if ((mine & ~t[CHESS_BISHOP]) == 0 && t[CHESS_KNIGHT] == 0 && t[CHESS_PAWN] == 0 &&
        ((t[CHESS_BISHOP] & LIGHT_SQUARES) == 0 || (t[CHESS_BISHOP] & ~LIGHT_SQUARES) == 0))
        return true;
    /* King and one knight against a king with queens only (python-chess, scalachess):
     * nothing of the loser can be trapped in a way that a lone knight mates. */
    if (mine == (t[CHESS_KNIGHT] & pos->by_color[winner]) && popcount(mine) == 1 &&
        (theirs & ~t[CHESS_QUEEN]) == 0)
        return true;
    return false;
}

bool dp_insufficient_material(const chess_pos *pos)
{
    /* a pawn, rook or queen on the board is mating material for its side (no case of
     * dp_material_cannot_mate allows one in the winner's men): the usual position, which
     * the referee asks about after every capture, is decided here */
    const uint64_t *t = pos->by_type;
    if (t[CHESS_PAWN] | t[CHESS_ROOK] | t[CHESS_QUEEN])
        return false;
    return dp_material_cannot_mate(pos, CHESS_WHITE) && dp_material_cannot_mate(pos, CHESS_BLACK);
}

/* ---- static test for blocked positions ---- */

/* The pawn structure of a locked position. A pawn is fixed when the square in front of
 * it holds a fixed pawn (a pair of pawns head to head is fixed, and so is a pawn behind
 * a fixed one). Every other pawn must be able to advance only until it meets a fixed
 * pawn: its squares are then the path up to there. */
typedef struct pawn_frame {
    uint64_t fixed[2];       /* fixed pawns per colour */
    uint64_t squares[2];     /* every square a pawn of the colour may ever stand on */
    uint64_t fixed_att[2];   /* squares fixed pawns attack, for ever */
    uint64_t any_att[2];     /* squares any pawn of the colour may ever attack */
} pawn_frame;

static bool pawn_frame_of(const chess_pos *pos, pawn_frame *pf)
{
    uint64_t p[2] = {pos->by_type[CHESS_PAWN] & pos->by_color[CHESS_WHITE],
                     pos->by_type[CHESS_PAWN] & pos->by_color[CHESS_BLACK]};
    uint64_t all = p[0] | p[1];
    if (all == 0 || pos->ep_in_key)
        return false;
    uint64_t fixed[2] = {p[0] & (p[1] >> 8), p[1] & (p[0] << 8)};
    for (;;) { /* a pawn behind a fixed pawn of either colour is fixed */
        uint64_t fx = fixed[0] | fixed[1];
        uint64_t w = p[0] & (fx >> 8) & ~fixed[0], b = p[1] & (fx << 8) & ~fixed[1];
        if (!w && !b)
            break;
        fixed[0] |= w;
        fixed[1] |= b;
    }
    for (int c = 0; c < 2; c++) {
        pf->fixed[c] = fixed[c];
        pf->squares[c] = fixed[c];
        uint64_t loose = p[c] & ~fixed[c];
        while (loose) {
            int sq = pop_lsb(&loose);
            uint64_t path = BB(sq);
            for (int t = sq;;) {
                t += c == CHESS_WHITE ? 8 : -8;
                if (t < 8 || t >= 56)
                    return false;          /* it could promote */
                if (all & BB(t)) {
                    if (!((fixed[0] | fixed[1]) & BB(t)))
                        return false;      /* it meets a pawn that moves too */
                    break;
                }
                path |= BB(t);
            }
            pf->squares[c] |= path;
        }
        pf->fixed_att[c] = pawn_attack_set(fixed[c], c);
        pf->any_att[c] = pawn_attack_set(pf->squares[c], c);
    }
    /* no pawn may ever capture a pawn (en passant included: the square passed over is
     * on the path) */
    if ((pf->any_att[0] & pf->squares[1]) || (pf->any_att[1] & pf->squares[0]))
        return false;
    return true;
}

/* Where a man of colour c and type t on sq can ever go, fixed pawns being the only
 * obstacles (every other man is ignored: that only makes the set larger). False when it
 * could capture a pawn or stand where a pawn could capture it (either would change the
 * pawn structure). */
static bool piece_region(int t, int c, int sq, const pawn_frame *pf, uint64_t *region,
                         uint64_t *attacks)
{
    uint64_t obstacles = pf->fixed[0] | pf->fixed[1];
    uint64_t own_fixed = pf->fixed[c], enemy_pawns = pf->squares[c ^ 1];
    uint64_t reg = BB(sq), todo = BB(sq), att = 0;
    while (todo) {
        int s = pop_lsb(&todo);
        uint64_t a = piece_attacks(t, s, obstacles);
        att |= a;
        uint64_t to = a & ~own_fixed;
        if (t == CHESS_KING)
            to &= ~pf->fixed_att[c ^ 1]; /* a king never steps into a pawn's attack */
        if (to & enemy_pawns)
            return false;
        to &= ~reg;
        reg |= to;
        todo |= to;
    }
    if (t != CHESS_KING && (reg & pf->any_att[c ^ 1]))
        return false;
    *region = reg;
    *attacks = att;
    return true;
}

/* pawn_wall_cannot_mate in the pawn frame pf of pos. */
static bool pawn_wall_in_frame(const chess_pos *pos, int winner, const pawn_frame *pf)
{
    if (chess_in_check(pos))
        return false;
    uint64_t loser_king_region = 0, winner_attacks = 0;
    uint64_t men = (pos->by_color[0] | pos->by_color[1]) & ~pos->by_type[CHESS_PAWN];
    while (men) {
        int sq = pop_lsb(&men);
        int pc = pos->board[sq];
        int c = CHESS_PIECE_COLOR(pc), ty = CHESS_PIECE_TYPE(pc);
        uint64_t reg, att;
        if (!piece_region(ty, c, sq, pf, &reg, &att))
            return false;
        if (ty == CHESS_KING && c != winner)
            loser_king_region = reg;
        else if (ty != CHESS_KING && c == winner)
            winner_attacks |= att;
    }
    /* No man of the winner can ever give check, nor any of its pawns (fixed ones never
     * attack a square the loser's king may enter; the others are tested here). */
    return ((winner_attacks | pf->any_att[winner]) & loser_king_region) == 0;
}

/* Whether some pawn has no pawn of either side ahead of it on its file, or there is no
 * pawn at all: pawn_frame_of then fails (a fixed pawn has a pawn just ahead; a loose one
 * with none ahead reaches its last rank), so the pawn wall proves nothing. */
static bool pawn_never_walled(const chess_pos *pos)
{
    uint64_t pawns = pos->by_type[CHESS_PAWN];
    uint64_t wp = pawns & pos->by_color[CHESS_WHITE], bp = pawns & pos->by_color[CHESS_BLACK];
    return pawns == 0 || dp_pawn_unblocked(wp, bp, pawns);
}

static bool pawn_wall_cannot_mate(const chess_pos *pos, int winner)
{
    /* the usual position at a game's end has a pawn with none ahead: decided on the
     * pawns' files, without building the frame */
    if (pawn_never_walled(pos))
        return false;
    pawn_frame pf;
    return pawn_frame_of(pos, &pf) && pawn_wall_in_frame(pos, winner, &pf);
}

bool dp_blocked_cannot_mate(const chess_pos *pos, int winner)
{
    return pawn_wall_cannot_mate(pos, winner) || dp_static_cannot_mate(pos, winner);
}

/* ---- search ---- */

enum { R_UNKNOWN = 0, R_WIN, R_UNWIN };

typedef struct tt_entry {
    uint64_t key;
    int8_t depth;            /* no mate within depth plies from here */
} tt_entry;

/* A position as the static tests see it (3.x men, castling and en passant rights, the
 * side to move for "in check"), with their answer. */
typedef struct static_memo {
    uint8_t board[64];
    uint8_t castling, side;
    bool ep_in_key, used, unwinnable;
} static_memo;

#define STATIC_MEMO_SIZE 64

typedef struct search {
    int winner;
    long nodes, budget;
    bool out_of_budget;
    bool plain;              /* the first, plain directed search (see dp_can_mate) */
    bool quick;              /* dp_is_dead: the cheap static tests only inside prove */
    uint64_t sc_mask;        /* size of sc - 1 */
    uint64_t *sc;            /* find_mate's memo of the static proofs: key, or key ^ 1
                                when proved (a slip of the hash only costs a pruned
                                branch there, never a verdict) */
    tt_entry *tt;
    uint64_t tt_mask;
    static_memo *memo;       /* prove's exact memo of the static tests (may be NULL) */
    chess_move stack[DP_LINE_MAX + 1];
    int line_len;
    dp_info *info;
} search;

static bool static_unwinnable(const chess_pos *pos, int winner)
{
    if (dp_material_cannot_mate(pos, winner))
        return true;
    return dp_blocked_cannot_mate(pos, winner);
}

/* static_unwinnable through s->memo: the deepening of prove_deepening meets the
 * positions of its first lines again at every depth. A hit needs the same men, rights
 * and side (the key only picks the slot), so the answer is the test's own. */
static bool prove_static(search *s, const chess_pos *pos)
{
    if (!s->memo)
        return static_unwinnable(pos, s->winner);
    static_memo *e = &s->memo[pos->key & (STATIC_MEMO_SIZE - 1)];
    if (e->used && e->castling == pos->castling && e->side == pos->side &&
        e->ep_in_key == pos->ep_in_key && memcmp(e->board, pos->board, 64) == 0)
        return e->unwinnable;
    bool r = static_unwinnable(pos, s->winner);
    memcpy(e->board, pos->board, 64);
    e->castling = pos->castling;
    e->side = pos->side;
    e->ep_in_key = pos->ep_in_key;
    e->used = true;
    e->unwinnable = r;
    return r;
}

/* Every line of depth plies (forced moves not counted, up to forced_left of them) ends
 * where winner provably cannot mate. Stops at the first line that does not. */
static bool prove(search *s, chess_pos *pos, int depth, int forced_left)
{
    if (++s->nodes > s->budget) {
        s->out_of_budget = true;
        return false;
    }
    chess_movelist ml;
    int n = chess_gen_legal(pos, &ml);
    if (n == 0) /* checkmate of the loser disproves; stalemate or the winner mated ends */
        return !(pos->side != s->winner && chess_in_check(pos));
    if (s->quick ? dp_material_cannot_mate(pos, s->winner) ||
                       pawn_wall_cannot_mate(pos, s->winner)
                 : prove_static(s, pos))
        return true;
    bool forced = n == 1 && forced_left > 0; /* trivial progress */
    if (depth <= 0 && !forced)
        return false;
    for (int i = 0; i < n; i++) {
        chess_undo u;
        chess_make(pos, ml.moves[i], &u);
        bool ok = prove(s, pos, forced ? depth : depth - 1, forced ? forced_left - 1 : forced_left);
        chess_unmake(pos, ml.moves[i], &u);
        if (!ok)
            return false;
    }
    return true;
}

static int cheb(int a, int b)
{
    int df = abs((a & 7) - (b & 7)), dr = abs((a >> 3) - (b >> 3));
    return df > dr ? df : dr;
}

/* Knight distance between squares, for the directed search. */
static uint8_t knight_dist[64][64];
static pthread_once_t knight_dist_once = PTHREAD_ONCE_INIT;

static void knight_dist_init(void)
{
    for (int a = 0; a < 64; a++) {
        int queue[64], head = 0, tail = 0;
        memset(knight_dist[a], 0xff, sizeof knight_dist[a]);
        knight_dist[a][a] = 0;
        queue[tail++] = a;
        while (head < tail) {
            int sq = queue[head++];
            uint64_t next = piece_attacks(CHESS_KNIGHT, sq, 0);
            while (next) {
                int t = pop_lsb(&next);
                if (knight_dist[a][t] == 0xff) {
                    knight_dist[a][t] = (uint8_t)(knight_dist[a][sq] + 1);
                    queue[tail++] = t;
                }
            }
        }
    }
}

/* The mating picture the directed search aims at (after CHA, which leads the loser's
 * king to a corner on the winner's far rank, the winner's king two squares in front of
 * it, a loser's man next to it blocking the way out and a winner's man checking). The
 * corner is dark when the winner has a dark-squared bishop, or no bishop while the
 * loser has a light-squared one. */
typedef struct targets {
    int loser_king, loser_men, winner_king, winner_men;
} targets;

static int flip_file(int sq) { return sq ^ 7; }
static int flip_rank(int sq) { return sq ^ 56; }

static targets make_targets(const chess_pos *pos, int winner)
{
    uint64_t wb = pos->by_type[CHESS_BISHOP] & pos->by_color[winner];
    uint64_t lb = pos->by_type[CHESS_BISHOP] & pos->by_color[winner ^ 1];
    bool dark = (wb & ~LIGHT_SQUARES) || (wb == 0 && (lb & LIGHT_SQUARES));
    targets t = {CHESS_SQ(7, 7), CHESS_SQ(6, 7), CHESS_SQ(7, 5), CHESS_SQ(7, 7)};
    int *all[4] = {&t.loser_king, &t.loser_men, &t.winner_king, &t.winner_men};
    for (int i = 0; i < 4; i++) {
        if (!dark)
            *all[i] = flip_file(*all[i]);
        if (winner == CHESS_BLACK)
            *all[i] = flip_rank(flip_file(*all[i]));
    }
    return t;
}

/* Whether a king or knight gets closer to sq (the slow pieces; the others reach their
 * squares in a move or two anyway). */
static bool approaches(int type, int from, int to, int sq)
{
    if (type == CHESS_KING)
        return cheb(to, sq) < cheb(from, sq);
    if (type == CHESS_KNIGHT)
        return knight_dist[to][sq] < knight_dist[from][sq];
    return false;
}

/* The loser must promote for a mate to exist (the winner has a lone knight against no
 * minor piece or rook, or bishops of one colour against no knight and no bishop of the
 * other colour): its pawn moves are what leads on. */
static bool loser_must_promote(const chess_pos *pos, int winner)
{
    const uint64_t *t = pos->by_type;
    uint64_t mine = pos->by_color[winner] & ~t[CHESS_KING];
    uint64_t theirs = pos->by_color[winner ^ 1];
    if (mine && (mine & ~t[CHESS_KNIGHT]) == 0 && popcount(mine) == 1 &&
        (theirs & (t[CHESS_KNIGHT] | t[CHESS_BISHOP] | t[CHESS_ROOK])) == 0)
        return true;
    if (mine && (mine & ~t[CHESS_BISHOP]) == 0) {
        uint64_t colour = (mine & LIGHT_SQUARES) ? LIGHT_SQUARES : ~LIGHT_SQUARES;
        if ((t[CHESS_BISHOP] & ~colour) == 0 && (theirs & t[CHESS_KNIGHT]) == 0)
            return true;
    }
    return false;
}

enum { V_NORMAL, V_REWARD, V_PUNISH };

static int classify(const chess_pos *pos, chess_move m, int winner, const targets *tg,
                    bool must_promote, bool plain)
{
    int from = chess_move_from(m), to = chess_move_to(m);
    int type = CHESS_PIECE_TYPE(pos->board[from]);
    bool capture = pos->board[to] != 0 || chess_move_kind(m) == CHESS_MOVE_EN_PASSANT;
    if (pos->side == winner) {
        int rel = winner == CHESS_WHITE ? CHESS_RANK(from) : 7 - CHESS_RANK(from);
        if ((type == CHESS_PAWN && rel >= 4) || capture ||
            approaches(type, from, to, type == CHESS_KING ? tg->winner_king : tg->winner_men))
            return V_REWARD;
        return V_NORMAL;
    }
    int v = V_NORMAL;
    if (must_promote) {
        int promo = chess_move_promotion(m);
        v = type == CHESS_PAWN && promo != CHESS_QUEEN && promo != CHESS_ROOK ? V_REWARD
                                                                             : V_PUNISH;
    }
    if (approaches(type, from, to, type == CHESS_KING ? tg->loser_king : tg->loser_men))
        return V_REWARD;
    if (!plain && type != CHESS_KING && type != CHESS_PAWN) {
        /* a man of the loser closing a flight square of the mating corner */
        uint64_t near = piece_attacks(CHESS_KING, tg->loser_king, 0);
        if ((near & BB(to)) && !(near & BB(from)))
            return V_REWARD;
        /* or a line piece of the loser coming to bear on one (it closes it next) */
        if (type >= CHESS_BISHOP && type <= CHESS_QUEEN && !(near & BB(from))) {
            uint64_t occ = (pos->by_color[0] | pos->by_color[1]) & ~BB(from);
            if ((piece_attacks(type, to, occ) & near) && !(piece_attacks(type, from, occ) & near))
                return V_REWARD;
        }
    }
    if (capture)
        return V_PUNISH;
    return v;
}


static bool memo_unwinnable(search *s, const chess_pos *pos)
{
    uint64_t k = pos->key & ~UINT64_C(1);
    uint64_t *e = s->sc ? &s->sc[(pos->key >> 1) & s->sc_mask] : NULL;
    if (e && (*e & ~UINT64_C(1)) == k)
        return *e & 1;
    bool r = static_unwinnable(pos, s->winner);
    if (e)
        *e = k | (r ? 1 : 0);
    return r;
}

/* Directed helpmate search (after CHA's find_mate): a rewarded move costs no depth, a
 * normal one a ply (none right after a rewarded one), a punished one three. Returns
 * R_WIN when winner mates on some line within max_depth. */
static int find_mate(search *s, chess_pos *pos, int depth, int max_depth, int ply,
                     bool past_progress, const targets *tg)
{
    if (++s->nodes > s->budget) {
        s->out_of_budget = true;
        return R_UNKNOWN;
    }
    int left = max_depth - depth;
    tt_entry *te = &s->tt[(pos->key ^ (uint64_t)s->winner) & s->tt_mask];
    if (te->key == pos->key && te->depth >= left)
        return R_UNKNOWN;
    if (s->plain ? dp_material_cannot_mate(pos, s->winner) : memo_unwinnable(s, pos))
        return R_UNWIN;
    chess_movelist ml;
    int n = chess_gen_legal(pos, &ml);
    if (n == 0)
        return pos->side != s->winner && chess_in_check(pos) ? R_WIN : R_UNWIN;
    if (depth >= max_depth || ply >= DP_LINE_MAX) {
        if (!s->plain && pos->side == s->winner && ply < DP_LINE_MAX) {
            /* the horizon: a mate in one of the winner is still looked for */
            for (int i = 0; i < n; i++) {
                chess_undo u;
                chess_make(pos, ml.moves[i], &u);
                bool mate = chess_in_check(pos) && (++s->nodes, chess_is_checkmate(pos));
                chess_unmake(pos, ml.moves[i], &u);
                if (mate) {
                    s->stack[ply] = ml.moves[i];
                    s->line_len = ply + 1;
                    return R_WIN;
                }
            }
        }
        return R_UNKNOWN;
    }
    te->key = pos->key;
    te->depth = (int8_t)(left > 127 ? 127 : left);
    bool must_promote = pos->side != s->winner && loser_must_promote(pos, s->winner);
    if (!s->plain) {
        /* rewarded moves first, punished ones last: the first mate found ends it */
        int cls[256];
        chess_move order[256];
        int k = 0;
        for (int i = 0; i < n; i++)
            cls[i] = classify(pos, ml.moves[i], s->winner, tg, must_promote, false);
        static const int rank[3] = {V_REWARD, V_NORMAL, V_PUNISH};
        for (int pass = 0; pass < 3; pass++)
            for (int i = 0; i < n; i++)
                if (cls[i] == rank[pass])
                    order[k++] = ml.moves[i];
        for (int i = 0; i < k; i++) /* k == n: every move has one of the three classes */
            ml.moves[i] = order[i];
    }
    for (int i = 0; i < n; i++) {
        int v = classify(pos, ml.moves[i], s->winner, tg, must_promote, s->plain);
        int next = depth + 1;
        if (ply > 100 && v == V_REWARD)
            v = V_NORMAL;
        if (v == V_REWARD)
            next--;
        else if (v == V_PUNISH)
            next = next + 2 < max_depth ? next + 2 : max_depth;
        else if (past_progress)
            next--;
        chess_undo u;
        chess_make(pos, ml.moves[i], &u);
        s->stack[ply] = ml.moves[i];
        int r = find_mate(s, pos, next, max_depth, ply + 1, v == V_REWARD, tg);
        chess_unmake(pos, ml.moves[i], &u);
        if (r == R_WIN) {
            if (s->line_len == 0)
                s->line_len = ply + 1;
            return R_WIN;
        }
        if (s->out_of_budget)
            return R_UNKNOWN;
    }
    return R_UNKNOWN;
}

static void set_info(dp_info *info, const search *s, const char *reason)
{
    if (!info)
        return;
    info->nodes = s->nodes;
    info->reason = reason;
}

/* The short exhaustive proof with iterative deepening: every line of up to 8 plies
 * (forced moves free) ends where winner provably cannot mate.  A position where the
 * winner can still mate fails at its first unproved leaf, after a few nodes. */
static bool prove_deepening(search *s, chess_pos *pos, long budget)
{
    static_memo memo[STATIC_MEMO_SIZE];
    memset(memo, 0, sizeof memo);
    s->memo = memo;
    bool proved = false;
    for (int d = 1; d <= 8 && !proved; d++) {
        s->nodes = 0;
        s->budget = budget;
        s->out_of_budget = false;
        proved = prove(s, pos, d, 100);
        if (s->out_of_budget)
            break;
    }
    s->memo = NULL;
    return proved;
}

/* Whether the side to move, not in check, has two legal quiet moves of pieces other
 * than the king; *first: one of them. A piece that no enemy slider pins (its square
 * lifted, the king stays out of reach) may go to any empty square it attacks. */
static bool two_quiet_moves(const chess_pos *pos, chess_move *first)
{
    if (chess_in_check(pos))
        return false;
    const uint64_t *t = pos->by_type;
    int us = pos->side, ksq = pos->king[us];
    uint64_t own = pos->by_color[us], enemy = pos->by_color[us ^ 1];
    uint64_t occ = own | enemy;
    uint64_t rq = (t[CHESS_ROOK] | t[CHESS_QUEEN]) & enemy;
    uint64_t bq = (t[CHESS_BISHOP] | t[CHESS_QUEEN]) & enemy;
    uint64_t pieces = own & ~t[CHESS_KING] & ~t[CHESS_PAWN];
    /* The king not in check, lifting a man off a line of the king's on which no enemy
     * slider of that line's kind stands (on an empty board) uncovers nothing: only the
     * men on pin_lines need the two slider lookups. */
    uint64_t orth = piece_attacks(CHESS_ROOK, ksq, 0), diag = piece_attacks(CHESS_BISHOP, ksq, 0);
    uint64_t pin_lines = ((orth & rq) ? orth : 0) | ((diag & bq) ? diag : 0);
    int found = 0;
    while (pieces) {
        int from = pop_lsb(&pieces);
        uint64_t lifted = occ & ~BB(from);
        if ((pin_lines & BB(from)) && ((piece_attacks(CHESS_ROOK, ksq, lifted) & rq) ||
                                       (piece_attacks(CHESS_BISHOP, ksq, lifted) & bq)))
            continue; /* pinned, perhaps */
        uint64_t to = piece_attacks(CHESS_PIECE_TYPE(pos->board[from]), from, occ) & ~occ;
        while (to) {
            int sq = pop_lsb(&to);
            if (found++ == 0)
                *first = chess_move_make(from, sq, CHESS_MOVE_NORMAL);
            else
                return true;
        }
    }
    /* single pushes of unpinned pawns short of the last rank */
    uint64_t pawns = own & t[CHESS_PAWN];
    uint64_t ahead = us == CHESS_WHITE ? (pawns << 8) & ~occ & ~UINT64_C(0xFF00000000000000)
                                       : (pawns >> 8) & ~occ & UINT64_C(0xFFFFFFFFFFFFFF00);
    while (ahead) {
        int sq = pop_lsb(&ahead), from = us == CHESS_WHITE ? sq - 8 : sq + 8;
        uint64_t lifted = (occ & ~BB(from)) | BB(sq);
        if ((pin_lines & BB(from)) && ((piece_attacks(CHESS_ROOK, ksq, lifted) & rq) ||
                                       (piece_attacks(CHESS_BISHOP, ksq, lifted) & bq)))
            continue;
        if (found++ == 0)
            *first = chess_move_make(from, sq, CHESS_MOVE_NORMAL);
        else
            return true;
    }
    return false;
}

/* Whether the side to move, in check or not, has two legal king steps (castling aside);
 * *first: one of them. A square is safe when no enemy man attacks it with the king
 * lifted off its own square (a slider's ray through the king reaches past it). Decides
 * most positions two_quiet_moves leaves (a check, kings and pawns) without generating
 * every move. */
static bool two_king_moves(const chess_pos *pos, chess_move *first)
{
    int us = pos->side, ksq = pos->king[us];
    uint64_t occ = (pos->by_color[0] | pos->by_color[1]) & ~BB(ksq);
    uint64_t to = piece_attacks(CHESS_KING, ksq, 0) & ~pos->by_color[us];
    int found = 0;
    while (to) {
        int sq = pop_lsb(&to);
        if (chess_attackers_occ(pos, sq, us ^ 1, occ))
            continue;
        if (found++ == 0)
            *first = chess_move_make(ksq, sq, CHESS_MOVE_NORMAL);
        else
            return true;
    }
    return false;
}

/* Whether the quick static tests of prove (material, the pawn wall) fail at pos and at
 * every position a line of quiet moves (two_quiet_moves: a piece other than the king to
 * an empty square, a pawn's single push short of its last rank) leads to. Such moves
 * take nothing and promote nothing, and bishops keep the colour of their squares, so
 * dp_material_cannot_mate, which reads only which men there are and the colours of the
 * bishops' squares, answers the same after them. A pawn with no pawn ahead keeps none:
 * no pawn changes its file, one behind it cannot pass it, and pawns appear nowhere; no
 * pawns at all stay none. So pawn_never_walled holds on, and the wall proves nothing. */
static bool quick_tests_fail_for_good(const chess_pos *pos, int winner)
{
    return !dp_material_cannot_mate(pos, winner) && pawn_never_walled(pos);
}

/* The most forced moves (a single legal move, which prove follows without counting a
 * ply while it has forced moves left: 100 from its callers) a line of line_fails
 * follows; fewer than prove allows, so prove would follow each of them too. */
#define LINE_FORCED_MAX 8

/* A line that makes prove(pos, depth, ...) fail, found without generating every move:
 * at each position the side to move has at least two legal moves (not the end of the
 * game) or a single one (forced: prove follows it without counting a ply, as this does,
 * at most LINE_FORCED_MAX times) and the static tests prove nothing (the quick ones, or
 * with full all of static_unwinnable); after depth unforced such positions, prove gives
 * up on this line, hence on the whole proof (it needs every line). prove at a smaller
 * depth fails too (a proof at a smaller depth would be the same tree at this one).
 * False: no such line found here (prove must decide). Games often end on a check with
 * one reply: without the forced step, prove had to search them. */
static bool line_fails(const chess_pos *pos_in, int winner, int depth, bool full,
                       bool every_step, long *nodes)
{
    chess_pos pos = *pos_in;
    /* the quick tests, once they fail for a reason quiet moves keep (see
     * quick_tests_fail_for_good), fail on the rest of a quiet line unasked (unless
     * every_step: the same answer, for the tests that check it) */
    bool unproved = !full && !every_step && quick_tests_fail_for_good(&pos, winner);
    /* dp_material_cannot_mate said no here, and quiet moves keep its answer (see
     * quick_tests_fail_for_good): not asked again on a quiet line */
    bool material_open = false;
    /* pawn_frame_of failed here for a reason of the pawns alone (no en passant right):
     * so it does until a pawn moves or is taken, and the wall proves nothing */
    bool walls_open = false;
    for (int forced_steps = 0;;) {
        chess_move m = CHESS_MOVE_NONE; /* set by two_quiet_moves when quiet */
        ++*nodes;
        bool quiet = two_quiet_moves(&pos, &m), forced = false;
        if (!quiet && !two_king_moves(&pos, &m)) {
            chess_movelist ml; /* few quiet moves, and the king few steps: the generator */
            int n = chess_gen_legal(&pos, &ml);
            forced = n == 1;
            if (n == 0 || (forced && forced_steps >= LINE_FORCED_MAX))
                return false;
            m = ml.moves[0];
        }
        if (!unproved) {
            if (!material_open && dp_material_cannot_mate(&pos, winner))
                return false;
            material_open = true;
            if (full) {
                if (dp_blocked_cannot_mate(&pos, winner))
                    return false;
            } else if (!walls_open) {
                pawn_frame pf;
                if (pawn_frame_of(&pos, &pf)) {
                    if (pawn_wall_in_frame(&pos, winner, &pf))
                        return false;
                } else {
                    walls_open = !pos.ep_in_key;
                }
            }
        }
        if (forced) {
            forced_steps++; /* prove: a forced move costs no ply */
        } else {
            if (depth <= 0)
                return true;
            depth--;
        }
        walls_open = walls_open && quiet &&
                     CHESS_PIECE_TYPE(pos.board[chess_move_from(m)]) != CHESS_PAWN;
        chess_undo u;
        chess_make(&pos, m, &u);
        unproved = unproved && quiet;
        material_open = material_open && quiet;
    }
}

/* The legal moves of both sides (the side not to move's counted after a null move): a
 * measure of how many positions can ever be reached. A side to move in check, or a
 * position the null move makes illegal, counts as open. */
static int both_sides_moves(const chess_pos *pos_in)
{
    chess_pos pos = *pos_in;
    if (chess_in_check(&pos))
        return INT_MAX;
    chess_movelist ml;
    int n = chess_gen_legal(&pos, &ml);
    chess_undo u;
    chess_make_null(&pos, &u);
    n = chess_in_check(&pos) ? INT_MAX : n + chess_gen_legal(&pos, &ml);
    return n;
}

/* Whether the whole reachable set is worth walking: both sides together have at most
 * DP_CLOSED_MOVES legal moves (kings in pockets behind pawn walls, pieces caged by
 * their own pawns, forced sequences). An open position would only spend the budget. */
static bool looks_closed(const chess_pos *pos)
{
    return both_sides_moves(pos) <= DP_CLOSED_MOVES;
}

/* 5.2.2, 6.9, by exhaustion: every position reachable from pos is visited (exactly,
 * never by hash alone) and none has the loser mated, so no series of legal moves
 * reaches a mate. The leaf test is material only (cheap, and itself a proof); a found
 * mate or the budget spent give no answer. Only for positions that look closed. */
static bool closure_proves_unwinnable(const chess_pos *pos, int winner, long budget,
                                      long *nodes)
{
    dp_graph_hooks hooks = {.leaf = dp_material_cannot_mate};
    return dp_graph_search(pos, winner, budget, &hooks, NULL, nodes) == DP_CLOSURE_NO_MATE;
}

/* The last proof of dp_prove_unwinnable, for positions that look closed: first the
 * plain helpmate search (budget / 2 nodes), since a closed position where a mate is
 * still near would make the closure spend its whole budget for no proof; then the
 * closure. *nodes: what both spent. */
static bool closed_unwinnable(const chess_pos *pos, int winner, long budget, long *nodes)
{
    *nodes = 0;
    if (!looks_closed(pos))
        return false;
    dp_info mate;
    bool found = dp_find_helpmate(pos, winner, budget / 2, &mate) == DP_WINNABLE;
    *nodes = mate.nodes;
    if (found)
        return false;
    long used = 0;
    bool proved = closure_proves_unwinnable(pos, winner, budget * DP_CLOSURE_PER_PROOF_NODE,
                                            &used);
    *nodes += used;
    return proved;
}

dp_verdict dp_prove_unwinnable(const chess_pos *pos_in, int winner, long budget, dp_info *info)
{
    search s = {.winner = winner};
    chess_pos pos = *pos_in;
    if (info)
        memset(info, 0, sizeof *info);
    if (dp_material_cannot_mate(&pos, winner)) {
        set_info(info, &s, "material");
        return DP_UNWINNABLE;
    }
    if (dp_blocked_cannot_mate(&pos, winner)) {
        set_info(info, &s, _("blocked pawns"));
        return DP_UNWINNABLE;
    }
    /* prove_deepening goes to 8 plies: a line failing at 8 fails every depth */
    long probe = 0;
    if (budget > 0 && !line_fails(&pos, winner, 8, true, true, &probe) &&
        prove_deepening(&s, &pos, budget)) {
        set_info(info, &s, _("every line ends without mate"));
        return DP_UNWINNABLE;
    }
    long used = 0;
    bool closed = budget > 0 && closed_unwinnable(&pos, winner, budget, &used);
    s.nodes += used;
    if (closed) {
        set_info(info, &s, _("every reachable position is without mate"));
        return DP_UNWINNABLE;
    }
    set_info(info, &s, _("no proof"));
    return DP_UNDETERMINED;
}

/* A power of two of entries for a search of budget nodes: twice the budget, within
 * [lo, hi], so that a small budget does not pay for clearing large tables. */
static uint64_t table_size(long budget, uint64_t lo, uint64_t hi)
{
    uint64_t n = lo;
    while (n < hi && n < (uint64_t)budget * 2)
        n <<= 1;
    return n;
}

/* The plain directed helpmate search with iterative deepening, up to s->budget nodes
 * in all (counting from s->nodes). R_WIN with the line in s->stack. */
static int plain_search(search *s, chess_pos *pos, const targets *tg)
{
    s->plain = true;
    s->out_of_budget = false;
    memset(s->tt, 0, (s->tt_mask + 1) * sizeof *s->tt);
    for (int d = 2; d < 1000 && !s->out_of_budget; d++) {
        s->line_len = 0;
        if (find_mate(s, pos, 0, d, 0, false, tg) == R_WIN)
            return R_WIN;
    }
    return R_UNKNOWN;
}

static void keep_line(dp_info *info, const chess_move *line, int len)
{
    if (!info)
        return;
    info->line_len = len;
    memcpy(info->line, line, (size_t)len * sizeof line[0]);
}

dp_verdict dp_find_helpmate(const chess_pos *pos_in, int winner, long budget, dp_info *info)
{
    search s = {.winner = winner, .budget = budget > 0 ? budget : DP_DEFAULT_BUDGET};
    chess_pos pos = *pos_in;
    if (info)
        memset(info, 0, sizeof *info);
    pthread_once(&knight_dist_once, knight_dist_init);
    targets tg = make_targets(&pos, winner);
    s.tt_mask = table_size(s.budget, 1u << 10, 1u << 20) - 1;
    s.tt = calloc(s.tt_mask + 1, sizeof *s.tt);
    if (!s.tt)
        return DP_UNDETERMINED;
    dp_verdict v = DP_UNDETERMINED;
    if (plain_search(&s, &pos, &tg) == R_WIN) {
        keep_line(info, s.stack, s.line_len);
        v = DP_WINNABLE;
    }
    free(s.tt);
    set_info(info, &s, v == DP_WINNABLE ? N_("mate found") : N_("node budget spent"));
    return v;
}

dp_verdict dp_can_mate(const chess_pos *pos_in, int winner, long budget, dp_info *info)
{
    long total = budget > 0 ? budget : DP_DEFAULT_BUDGET;
    search s = {.winner = winner, .budget = total};
    chess_pos pos = *pos_in;
    if (info)
        memset(info, 0, sizeof *info);
    if (pos.side != winner && chess_is_checkmate(&pos)) {
        set_info(info, &s, _("checkmate on the board"));
        return DP_WINNABLE;
    }
    if (dp_material_cannot_mate(&pos, winner)) {
        set_info(info, &s, "material");
        return DP_UNWINNABLE;
    }
    pthread_once(&knight_dist_once, knight_dist_init);
    targets tg = make_targets(&pos, winner);
    s.tt_mask = table_size(total, 1u << 10, 1u << 16) - 1;
    s.sc_mask = table_size(total, 1u << 10, 1u << 14) - 1;
    s.tt = calloc(s.tt_mask + 1, sizeof *s.tt);
    s.sc = calloc(s.sc_mask + 1, sizeof *s.sc);
    if (!s.tt || !s.sc) {
        free(s.tt);
        free(s.sc);
        return DP_UNDETERMINED;
    }
    dp_verdict v = DP_UNDETERMINED;
    const char *reason = N_("node budget spent");
    long spent = 0;

    /* 1. The plain directed helpmate search, a fifth of the budget, before any proof:
     * most games lost on time leave the winner men enough to mate, and this finds such
     * a mate in a few hundred nodes, where the proofs below would be wasted. */
    s.budget = total / 5;
    if (plain_search(&s, &pos, &tg) == R_WIN) {
        keep_line(info, s.stack, s.line_len);
        v = DP_WINNABLE;
        reason = N_("mate found");
        goto done;
    }
    spent = s.nodes < s.budget ? s.nodes : s.budget;

    /* 2. The static proofs: material is done; the blocked-pawn and semi-static tests. */
    if (dp_blocked_cannot_mate(&pos, winner)) {
        v = DP_UNWINNABLE;
        reason = N_("blocked pawns");
        goto done;
    }

    /* 3. A short exhaustive proof (a tenth of the budget). */
    long proof_budget = total / 10;
    if (prove_deepening(&s, &pos, proof_budget)) {
        v = DP_UNWINNABLE;
        reason = N_("every line ends without mate");
        goto done;
    }
    spent += s.nodes < proof_budget ? s.nodes : proof_budget;

    /* 4. Every reachable position, breadth first, while there are few (locked
     * structures where only kings and a few men shuffle): an eighth. */
    long used = 0;
    dp_graph_hooks hooks = {.leaf = static_unwinnable};
    dp_info found = {0};
    dp_closure_result cr = dp_graph_search(&pos, winner, total / 8, &hooks, &found, &used);
    spent += used;
    s.nodes = spent;
    if (cr == DP_CLOSURE_NO_MATE) {
        v = DP_UNWINNABLE;
        reason = N_("every reachable position is without mate");
        goto done;
    }
    if (cr == DP_CLOSURE_MATE && found.line_len > 0) { /* a line we can show */
        keep_line(info, found.line, found.line_len);
        v = DP_WINNABLE;
        reason = N_("mate found");
        goto done;
    }

    /* 5. The directed search with its move ordering, the static proofs at every node,
     * a look for a mate in one at the horizon, and a coarser deepening, with all that
     * is left. */
    s.plain = false;
    s.nodes = spent;
    s.budget = total;
    s.out_of_budget = false;
    memset(s.tt, 0, (s.tt_mask + 1) * sizeof *s.tt);
    for (int d = 2; d < 1000 && !s.out_of_budget; d += 4) {
        s.line_len = 0;
        if (find_mate(&s, &pos, 0, d, 0, false, &tg) == R_WIN) {
            keep_line(info, s.stack, s.line_len);
            v = DP_WINNABLE;
            reason = N_("mate found");
            break;
        }
    }
done:
    free(s.tt);
    free(s.sc);
    set_info(info, &s, reason);
    return v;
}

/* dp_is_dead, and with every_step dp_is_dead_full. */
static dp_verdict is_dead(const chess_pos *pos_in, long budget, dp_info *info, bool every_step)
{
    chess_pos pos = *pos_in;
    if (info)
        memset(info, 0, sizeof *info);
    if (dp_insufficient_material(&pos)) {
        if (info)
            info->reason = N_("insufficient material");
        return DP_UNWINNABLE;
    }
    bool blocked = true;
    for (int c = 0; c < 2 && blocked; c++)
        blocked = dp_material_cannot_mate(&pos, c) || dp_blocked_cannot_mate(&pos, c);
    if (blocked) {
        if (info)
            info->reason = N_("blocked pawns");
        return DP_UNWINNABLE;
    }
    /* quick exhaustive proof, both sides, a few plies (forced moves free): a normal
     * position fails on its first line and costs a handful of nodes */
    search s = {.budget = budget > 0 ? budget : 2000, .quick = true};
    for (int c = 0; c < 2; c++) {
        s.winner = c;
        s.out_of_budget = false;
        long probe = 0;
        bool fails = line_fails(&pos, c, 4, false, every_step, &probe);
        if (fails)
            s.nodes += probe;
        if (fails || !prove(&s, &pos, 4, 100)) {
            if (info) {
                info->nodes = s.nodes;
                info->reason = N_("not proved dead");
            }
            return DP_UNDETERMINED;
        }
    }
    if (info) {
        info->nodes = s.nodes;
        info->reason = N_("every line ends without mate");
    }
    return DP_UNWINNABLE;
}

dp_verdict dp_is_dead(const chess_pos *pos, long budget, dp_info *info)
{
    return is_dead(pos, budget, info, false);
}

dp_verdict dp_is_dead_full(const chess_pos *pos, long budget, dp_info *info)
{
    return is_dead(pos, budget, info, true);
}
