/* xiangqi.c: xiangqi board, tables, attacks, move generation, make/unmake, perft.
 *
 * A 90-point mailbox with per-side piece lists. Every short-range piece moves
 * through precomputed per-point tables that carry the blocking point (horse leg,
 * elephant eye), so generation only looks at occupancy. Legality is decided by
 * testing attacks on the own general only, from the general's point outward,
 * and only for moves that can change them. */
#include "core/xiangqi_internal.h"

#include <pthread.h>
#include <string.h>

#include "core/prng.h"

struct xq_tables xq_tab;

static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

#define GEN(c) XQ_PIECE(XQ_GENERAL, c)
#define ADV(c) XQ_PIECE(XQ_ADVISOR, c)
#define ELE(c) XQ_PIECE(XQ_ELEPHANT, c)
#define HOR(c) XQ_PIECE(XQ_HORSE, c)
#define CHA(c) XQ_PIECE(XQ_CHARIOT, c)
#define CAN(c) XQ_PIECE(XQ_CANNON, c)
#define SOL(c) XQ_PIECE(XQ_SOLDIER, c)

static bool on_board(int f, int r)
{
    return f >= 0 && f < XQ_FILES && r >= 0 && r < XQ_RANKS;
}

/* Art. 2.1: the palace is files d-f on each side's first three ranks. */
bool xq_in_palace(int sq, int color)
{
    int f = XQ_FILE(sq), r = XQ_RANK(sq);
    if (f < 3 || f > 5)
        return false;
    return color == XQ_RED ? r <= 2 : r >= 7;
}

/* Red's half is ranks 0-4, Black's ranks 5-9; the river lies between. */
static int half_of(int sq)
{
    return XQ_RANK(sq) <= 4 ? XQ_RED : XQ_BLACK;
}

static void init_tables(void)
{
    struct xq_tables *t = &xq_tab;
    static const int ray_df[4] = { 0, 0, 1, -1 }, ray_dr[4] = { 1, -1, 0, 0 };
    static const int hdf[8] = { 1, -1, 1, -1, 2, 2, -2, -2 };
    static const int hdr[8] = { 2, 2, -2, -2, 1, -1, 1, -1 };
    static const int ddf[4] = { 1, 1, -1, -1 }, ddr[4] = { 1, -1, 1, -1 };

    memset(t, 0, sizeof *t);
    for (int sq = 0; sq < XQ_SQUARES; sq++) {
        int f = XQ_FILE(sq), r = XQ_RANK(sq);
        t->file[sq] = (uint8_t)f;
        t->rank[sq] = (uint8_t)r;

        for (int d = 0; d < 4; d++) {
            int n = 0;
            for (int ff = f + ray_df[d], rr = r + ray_dr[d]; on_board(ff, rr);
                 ff += ray_df[d], rr += ray_dr[d])
                t->ray[sq][d][n++] = (uint8_t)XQ_SQ(ff, rr);
            t->ray_len[sq][d] = (uint8_t)n;
        }

        /* Art. 4.3e: one step straight (the leg), then one diagonally outward. */
        for (int i = 0; i < 8; i++) {
            int tf = f + hdf[i], tr = r + hdr[i];
            int lf = f + (hdf[i] == 2 ? 1 : hdf[i] == -2 ? -1 : 0);
            int lr = r + (hdr[i] == 2 ? 1 : hdr[i] == -2 ? -1 : 0);
            if (on_board(tf, tr)) {
                t->horse_to[sq][t->horse_n[sq]] = (uint8_t)XQ_SQ(tf, tr);
                t->horse_leg[sq][t->horse_n[sq]++] = (uint8_t)XQ_SQ(lf, lr);
            }
            /* a horse on (f - df, r - dr) reaching sq has its leg next to itself */
            int of = f - hdf[i], orr = r - hdr[i];
            if (on_board(of, orr)) {
                int olf = of + (hdf[i] == 2 ? 1 : hdf[i] == -2 ? -1 : 0);
                int olr = orr + (hdr[i] == 2 ? 1 : hdr[i] == -2 ? -1 : 0);
                t->horse_from[sq][t->horse_from_n[sq]] = (uint8_t)XQ_SQ(of, orr);
                t->horse_from_leg[sq][t->horse_from_n[sq]++] = (uint8_t)XQ_SQ(olf, olr);
            }
        }

        /* Art. 4.3c: two points diagonally, eye in between, never over the river. */
        for (int i = 0; i < 4; i++) {
            int tf = f + 2 * ddf[i], tr = r + 2 * ddr[i];
            if (!on_board(tf, tr) || half_of(XQ_SQ(tf, tr)) != half_of(sq))
                continue;
            t->eleph_to[sq][t->eleph_n[sq]] = (uint8_t)XQ_SQ(tf, tr);
            t->eleph_eye[sq][t->eleph_n[sq]++] = (uint8_t)XQ_SQ(f + ddf[i], r + ddr[i]);
        }

        /* Art. 4.3a-b: general orthogonally, advisor diagonally, one point, inside
         * the palace the point belongs to. */
        for (int c = 0; c < 2; c++) {
            if (!xq_in_palace(sq, c))
                continue;
            for (int i = 0; i < 4; i++) {
                int af = f + ddf[i], ar = r + ddr[i];
                if (on_board(af, ar) && xq_in_palace(XQ_SQ(af, ar), c))
                    t->adv_to[sq][t->adv_n[sq]++] = (uint8_t)XQ_SQ(af, ar);
                int gf = f + ray_df[i], gr = r + ray_dr[i];
                if (on_board(gf, gr) && xq_in_palace(XQ_SQ(gf, gr), c))
                    t->gen_to[sq][t->gen_n[sq]++] = (uint8_t)XQ_SQ(gf, gr);
            }
        }

        /* Art. 4.3h: forward one point; sideways too once across the river. */
        for (int c = 0; c < 2; c++) {
            int fwd = c == XQ_RED ? 1 : -1;
            bool crossed = half_of(sq) != c;
            if (on_board(f, r + fwd))
                t->sol_to[c][sq][t->sol_n[c][sq]++] = (uint8_t)XQ_SQ(f, r + fwd);
            if (crossed) {
                if (f > 0)
                    t->sol_to[c][sq][t->sol_n[c][sq]++] = (uint8_t)(sq - 1);
                if (f < XQ_FILES - 1)
                    t->sol_to[c][sq][t->sol_n[c][sq]++] = (uint8_t)(sq + 1);
            }
        }
    }

    for (int c = 0; c < 2; c++)
        for (int from = 0; from < XQ_SQUARES; from++)
            for (int i = 0; i < t->sol_n[c][from]; i++) {
                int to = t->sol_to[c][from][i];
                t->sol_from[c][to][t->sol_from_n[c][to]++] = (uint8_t)from;
            }

    for (int g = 0; g < XQ_SQUARES; g++)
        for (int sq = 0; sq < XQ_SQUARES; sq++) {
            int df = t->file[sq] - t->file[g], dr = t->rank[sq] - t->rank[g];
            uint8_t v = 0;
            if (sq != g && (df == 0 || dr == 0))
                v |= 1;
            if ((df == 1 || df == -1) && (dr == 1 || dr == -1))
                v |= 2;
            t->rel[g][sq] = v;
        }

    /* Fixed order: Red then Black, types 1-7, points 0-89, then the side key. */
    uint64_t state = PRNG_SEED;
    for (int c = 0; c < 2; c++)
        for (int type = XQ_GENERAL; type <= XQ_SOLDIER; type++)
            for (int sq = 0; sq < XQ_SQUARES; sq++)
                t->zobrist[XQ_PIECE(type, c)][sq] = prng_next(&state);
    t->zobrist_side = prng_next(&state);
}

void xq_tables_init(void)
{
    pthread_once(&tables_once, init_tables);
}

/* ---- position basics ---- */

void xq_pos_rebuild(xq_pos *pos)
{
    memset(pos->list_index, 0, sizeof pos->list_index);
    memset(pos->plist, 0, sizeof pos->plist);
    pos->count[0] = pos->count[1] = 0;
    pos->general[0] = pos->general[1] = 0;
    pos->key = pos->side == XQ_BLACK ? xq_tab.zobrist_side : 0;
    for (int sq = 0; sq < XQ_SQUARES; sq++) {
        int p = pos->board[sq];
        if (!p)
            continue;
        int c = XQ_COLOR(p);
        if (pos->count[c] < 16) {
            pos->list_index[sq] = pos->count[c];
            pos->plist[c][pos->count[c]++] = (uint8_t)sq;
        }
        if (XQ_TYPE(p) == XQ_GENERAL)
            pos->general[c] = (uint8_t)sq;
        pos->key ^= xq_tab.zobrist[p][sq];
    }
}

void xq_pos_start(xq_pos *pos)
{
    static const uint8_t back[9] = { XQ_CHARIOT, XQ_HORSE, XQ_ELEPHANT, XQ_ADVISOR,
                                     XQ_GENERAL, XQ_ADVISOR, XQ_ELEPHANT, XQ_HORSE,
                                     XQ_CHARIOT };
    xq_tables_init();
    memset(pos, 0, sizeof *pos);
    /* Art. 3: the initial array. */
    for (int f = 0; f < XQ_FILES; f++) {
        pos->board[XQ_SQ(f, 0)] = (uint8_t)XQ_PIECE(back[f], XQ_RED);
        pos->board[XQ_SQ(f, 9)] = (uint8_t)XQ_PIECE(back[f], XQ_BLACK);
        if (f % 2 == 0) {
            pos->board[XQ_SQ(f, 3)] = SOL(XQ_RED);
            pos->board[XQ_SQ(f, 6)] = SOL(XQ_BLACK);
        }
    }
    pos->board[XQ_SQ(1, 2)] = pos->board[XQ_SQ(7, 2)] = CAN(XQ_RED);
    pos->board[XQ_SQ(1, 7)] = pos->board[XQ_SQ(7, 7)] = CAN(XQ_BLACK);
    pos->side = XQ_RED;  /* Art. 4.2: Red (White in the law) moves first */
    pos->fullmove = 1;
    xq_pos_rebuild(pos);
}

uint64_t xq_key(const xq_pos *pos)
{
    return pos->key;
}

uint64_t xq_key_compute(const xq_pos *pos)
{
    uint64_t k = pos->side == XQ_BLACK ? xq_tab.zobrist_side : 0;
    for (int sq = 0; sq < XQ_SQUARES; sq++)
        if (pos->board[sq])
            k ^= xq_tab.zobrist[pos->board[sq]][sq];
    return k;
}

/* ---- moves ---- */

xq_move xq_move_make(int from, int to)
{
    return (xq_move)((from & 127) | ((to & 127) << 7));
}

int xq_move_from(xq_move m)
{
    return m & 127;
}

int xq_move_to(xq_move m)
{
    return (m >> 7) & 127;
}

void xq_move_to_ucci(xq_move m, char buf[5])
{
    int from = xq_move_from(m), to = xq_move_to(m);
    if (m == XQ_MOVE_NONE || from >= XQ_SQUARES || to >= XQ_SQUARES) {
        memcpy(buf, "0000", 5);  /* the UCI null move */
        return;
    }
    buf[0] = (char)('a' + XQ_FILE(from));
    buf[1] = (char)('0' + XQ_RANK(from));
    buf[2] = (char)('a' + XQ_FILE(to));
    buf[3] = (char)('0' + XQ_RANK(to));
    buf[4] = '\0';
}

xq_move xq_move_from_ucci(const char *s)
{
    if (!s)
        return XQ_MOVE_NONE;
    for (int i = 0; i < 4; i++) {
        char lo = i % 2 == 0 ? 'a' : '0', hi = i % 2 == 0 ? 'i' : '9';
        if (s[i] < lo || s[i] > hi)
            return XQ_MOVE_NONE;
    }
    if (s[4] != '\0')
        return XQ_MOVE_NONE;
    int from = XQ_SQ(s[0] - 'a', s[1] - '0'), to = XQ_SQ(s[2] - 'a', s[3] - '0');
    return from == to ? XQ_MOVE_NONE : xq_move_make(from, to);
}

/* ---- attacks ---- */

/* Attacks on the general of `color`. Only chariots, cannons, horses and soldiers
 * reach a palace from the other side (advisors and elephants stay home,
 * Art. 4.3b-c); the other general counts when it faces this one (Art. 4.3a). */
bool xq_general_attacked(const xq_pos *pos, int color)
{
    const uint8_t *b = pos->board;
    int k = pos->general[color], them = color ^ 1;

    for (int d = 0; d < 4; d++) {
        const uint8_t *r = xq_tab.ray[k][d];
        int n = xq_tab.ray_len[k][d], i = 0;
        while (i < n && !b[r[i]])
            i++;
        if (i == n)
            continue;
        int p = b[r[i]];
        /* generals never share a rank (their palaces are ranks apart) */
        if (p == CHA(them) || p == GEN(them))
            return true;
        for (i++; i < n && !b[r[i]]; i++)
            ;
        if (i < n && b[r[i]] == CAN(them))
            return true;
    }
    for (int i = 0; i < xq_tab.horse_from_n[k]; i++)
        if (b[xq_tab.horse_from[k][i]] == HOR(them) && !b[xq_tab.horse_from_leg[k][i]])
            return true;
    for (int i = 0; i < xq_tab.sol_from_n[them][k]; i++)
        if (b[xq_tab.sol_from[them][k][i]] == SOL(them))
            return true;
    return false;
}

/* What stands on sq once from-to is played (from empties, `moved` lands on to), read
 * without playing it. */
static inline int occ_after(const uint8_t *b, int sq, int from, int to, int moved)
{
    return sq == to ? moved : sq == from ? 0 : b[sq];
}

/* xq_general_attacked on the board as from-to would leave it, with no copy and no make:
 * the same attacks (Art. 4.3: chariot and cannon lines with their screens, horse legs,
 * soldiers, and the face-off of Art. 4.3a), each square read through occ_after. */
bool xq_general_attacked_after(const xq_pos *pos, int color, int from, int to)
{
    const uint8_t *b = pos->board;
    int moved = b[from], them = color ^ 1;
    int k = pos->general[color] == from ? to : pos->general[color];

    for (int d = 0; d < 4; d++) {
        const uint8_t *r = xq_tab.ray[k][d];
        int n = xq_tab.ray_len[k][d], i = 0;
        while (i < n && !occ_after(b, r[i], from, to, moved))
            i++;
        if (i == n)
            continue;
        int p = occ_after(b, r[i], from, to, moved);
        if (p == CHA(them) || p == GEN(them))
            return true;
        for (i++; i < n && !occ_after(b, r[i], from, to, moved); i++)
            ;
        if (i < n && occ_after(b, r[i], from, to, moved) == CAN(them))
            return true;
    }
    for (int i = 0; i < xq_tab.horse_from_n[k]; i++)
        if (occ_after(b, xq_tab.horse_from[k][i], from, to, moved) == HOR(them) &&
            !occ_after(b, xq_tab.horse_from_leg[k][i], from, to, moved))
            return true;
    for (int i = 0; i < xq_tab.sol_from_n[them][k]; i++)
        if (occ_after(b, xq_tab.sol_from[them][k][i], from, to, moved) == SOL(them))
            return true;
    return false;
}

bool xq_gives_check(const xq_pos *pos, xq_move m)
{
    return xq_general_attacked_after(pos, pos->side ^ 1, m & 127, m >> 7);
}

bool xq_move_legal(const xq_pos *pos, xq_move m)
{
    return !xq_general_attacked_after(pos, pos->side, m & 127, m >> 7);
}

bool xq_in_check(const xq_pos *pos)
{
    return xq_general_attacked(pos, pos->side);
}

bool xq_square_attacked(const xq_pos *pos, int sq, int by)
{
    const uint8_t *b = pos->board;
    if (sq < 0 || sq >= XQ_SQUARES || (by != XQ_RED && by != XQ_BLACK))
        return false;

    for (int d = 0; d < 4; d++) {
        const uint8_t *r = xq_tab.ray[sq][d];
        int n = xq_tab.ray_len[sq][d], i = 0;
        while (i < n && !b[r[i]])
            i++;
        if (i == n)
            continue;
        int p = b[r[i]];
        if (p == CHA(by))
            return true;
        /* Art. 4.3a: the face-off, which only concerns the other general */
        if (p == GEN(by) && b[sq] == GEN(by ^ 1))
            return true;
        for (i++; i < n && !b[r[i]]; i++)
            ;
        if (i < n && b[r[i]] == CAN(by))
            return true;
    }
    for (int i = 0; i < xq_tab.horse_from_n[sq]; i++)
        if (b[xq_tab.horse_from[sq][i]] == HOR(by) && !b[xq_tab.horse_from_leg[sq][i]])
            return true;
    for (int i = 0; i < xq_tab.sol_from_n[by][sq]; i++)
        if (b[xq_tab.sol_from[by][sq][i]] == SOL(by))
            return true;
    /* the short-range pieces' moves are symmetric, so look from sq itself */
    if (xq_in_palace(sq, by)) {
        for (int i = 0; i < xq_tab.gen_n[sq]; i++)
            if (b[xq_tab.gen_to[sq][i]] == GEN(by))
                return true;
        for (int i = 0; i < xq_tab.adv_n[sq]; i++)
            if (b[xq_tab.adv_to[sq][i]] == ADV(by))
                return true;
    }
    if (half_of(sq) == by)
        for (int i = 0; i < xq_tab.eleph_n[sq]; i++)
            if (b[xq_tab.eleph_to[sq][i]] == ELE(by) && !b[xq_tab.eleph_eye[sq][i]])
                return true;
    return false;
}

/* ---- move generation ---- */

/* Art. 5.1-5.2: a target is fine when empty or held by the other side. */
#define TARGET_OK(p, us) ((p) == 0 || XQ_COLOR(p) != (us))

int xq_gen_pseudo(const xq_pos *pos, xq_movelist *list)
{
    const uint8_t *b = pos->board;
    int us = pos->side, n = 0;
    xq_move *out = list->moves;

    for (int i = 0; i < pos->count[us]; i++) {
        int from = pos->plist[us][i];
        int p = b[from];
        switch (XQ_TYPE(p)) {
        case XQ_GENERAL:
            for (int j = 0; j < xq_tab.gen_n[from]; j++) {
                int to = xq_tab.gen_to[from][j];
                if (TARGET_OK(b[to], us))
                    out[n++] = (xq_move)(from | to << 7);
            }
            break;
        case XQ_ADVISOR:
            for (int j = 0; j < xq_tab.adv_n[from]; j++) {
                int to = xq_tab.adv_to[from][j];
                if (TARGET_OK(b[to], us))
                    out[n++] = (xq_move)(from | to << 7);
            }
            break;
        case XQ_ELEPHANT:
            for (int j = 0; j < xq_tab.eleph_n[from]; j++) {
                int to = xq_tab.eleph_to[from][j];
                if (!b[xq_tab.eleph_eye[from][j]] && TARGET_OK(b[to], us))
                    out[n++] = (xq_move)(from | to << 7);
            }
            break;
        case XQ_HORSE:
            for (int j = 0; j < xq_tab.horse_n[from]; j++) {
                int to = xq_tab.horse_to[from][j];
                if (!b[xq_tab.horse_leg[from][j]] && TARGET_OK(b[to], us))
                    out[n++] = (xq_move)(from | to << 7);
            }
            break;
        case XQ_CHARIOT:
            for (int d = 0; d < 4; d++) {
                const uint8_t *r = xq_tab.ray[from][d];
                int len = xq_tab.ray_len[from][d], k = 0;
                for (; k < len && !b[r[k]]; k++)
                    out[n++] = (xq_move)(from | r[k] << 7);
                if (k < len && XQ_COLOR(b[r[k]]) != us)
                    out[n++] = (xq_move)(from | r[k] << 7);
            }
            break;
        case XQ_CANNON:
            /* Art. 4.3g: slides like a chariot, captures over exactly one screen */
            for (int d = 0; d < 4; d++) {
                const uint8_t *r = xq_tab.ray[from][d];
                int len = xq_tab.ray_len[from][d], k = 0;
                for (; k < len && !b[r[k]]; k++)
                    out[n++] = (xq_move)(from | r[k] << 7);
                for (k++; k < len && !b[r[k]]; k++)
                    ;
                if (k < len && XQ_COLOR(b[r[k]]) != us)
                    out[n++] = (xq_move)(from | r[k] << 7);
            }
            break;
        case XQ_SOLDIER:
            for (int j = 0; j < xq_tab.sol_n[us][from]; j++) {
                int to = xq_tab.sol_to[us][from][j];
                if (TARGET_OK(b[to], us))
                    out[n++] = (xq_move)(from | to << 7);
            }
            break;
        default:
            break;
        }
    }
    list->count = n;
    return n;
}

/* Play from-to on the board alone and ask whether the mover's general is safe.
 * pos is restored before returning. */
static bool leaves_general_safe(xq_pos *pos, int from, int to)
{
    uint8_t *b = pos->board;
    int us = pos->side;
    uint8_t p = b[from], cap = b[to];
    uint8_t g = pos->general[us];
    b[to] = p;
    b[from] = 0;
    if (p == GEN(us))
        pos->general[us] = (uint8_t)to;
    bool safe = !xq_general_attacked(pos, us);
    b[from] = p;
    b[to] = cap;
    pos->general[us] = g;
    return safe;
}

/* Keep the legal moves of a pseudo-legal list. Out of check, only a move of the
 * general, a move from or to the general's file or rank (discovered chariot or
 * cannon, a new or lost cannon screen, the face-off) or a move off a horse's leg
 * next to the general can expose it; everything else is legal as it stands. */
static int filter_legal(const xq_pos *cpos, xq_movelist *list)
{
    xq_pos tmp = *cpos;
    int us = tmp.side, k = tmp.general[us];
    bool check = xq_general_attacked(&tmp, us);
    const uint8_t *rel = xq_tab.rel[k];
    int n = 0;

    for (int i = 0; i < list->count; i++) {
        xq_move m = list->moves[i];
        int from = m & 127, to = m >> 7;
        if (check || from == k || (rel[from] & 3) || (rel[to] & 1)) {
            if (!leaves_general_safe(&tmp, from, to))
                continue;
        }
        list->moves[n++] = m;
    }
    list->count = n;
    return n;
}

int xq_gen_legal(const xq_pos *pos, xq_movelist *list)
{
    xq_gen_pseudo(pos, list);
    return filter_legal(pos, list);
}

bool xq_has_legal_move(const xq_pos *pos)
{
    xq_movelist list;
    return xq_gen_legal(pos, &list) > 0;
}

bool xq_is_checkmate(const xq_pos *pos)
{
    return xq_in_check(pos) && !xq_has_legal_move(pos);
}

bool xq_is_stalemate(const xq_pos *pos)
{
    return !xq_in_check(pos) && !xq_has_legal_move(pos);
}

/* ---- make / unmake ---- */

void xq_make(xq_pos *pos, xq_move m, xq_undo *undo)
{
    int from = m & 127, to = m >> 7;
    int us = pos->side, them = us ^ 1;
    uint8_t p = pos->board[from], cap = pos->board[to];

    undo->key = pos->key;
    undo->halfmove = pos->halfmove;
    undo->captured = cap;
    undo->cap_index = 0;
    pos->key ^= xq_tab.zobrist[p][from] ^ xq_tab.zobrist[p][to] ^ xq_tab.zobrist_side;
    if (cap) {
        /* take the captured piece out of its list: the last entry fills its slot */
        int idx = pos->list_index[to];
        int last = --pos->count[them];
        int moved = pos->plist[them][last];
        undo->cap_index = (uint8_t)idx;
        pos->plist[them][idx] = (uint8_t)moved;
        pos->list_index[moved] = (uint8_t)idx;
        pos->plist[them][last] = 0;
        pos->key ^= xq_tab.zobrist[cap][to];
        pos->halfmove = 0;
    } else if (pos->halfmove < UINT16_MAX) {
        pos->halfmove++;
    }
    pos->board[to] = p;
    pos->board[from] = 0;
    pos->list_index[to] = pos->list_index[from];
    pos->list_index[from] = 0;
    pos->plist[us][pos->list_index[to]] = (uint8_t)to;
    if (p == GEN(us))
        pos->general[us] = (uint8_t)to;
    pos->side = (uint8_t)them;
    if (us == XQ_BLACK)
        pos->fullmove++;
}

void xq_unmake(xq_pos *pos, xq_move m, const xq_undo *undo)
{
    int from = m & 127, to = m >> 7;
    int us = pos->side ^ 1, them = pos->side;
    uint8_t p = pos->board[to], cap = undo->captured;

    pos->side = (uint8_t)us;
    if (us == XQ_BLACK)
        pos->fullmove--;
    pos->board[from] = p;
    pos->list_index[from] = pos->list_index[to];
    pos->plist[us][pos->list_index[from]] = (uint8_t)from;
    if (p == GEN(us))
        pos->general[us] = (uint8_t)from;
    pos->board[to] = cap;
    if (cap) {
        /* reverse of make: the piece that filled the slot goes back to the end */
        int idx = undo->cap_index, last = pos->count[them];
        if (idx < last) {
            int moved = pos->plist[them][idx];
            pos->plist[them][last] = (uint8_t)moved;
            pos->list_index[moved] = (uint8_t)last;
        }
        pos->plist[them][idx] = (uint8_t)to;
        pos->list_index[to] = (uint8_t)idx;
        pos->count[them] = (uint8_t)(last + 1);
    } else {
        pos->list_index[to] = 0;
    }
    pos->key = undo->key;
    pos->halfmove = undo->halfmove;
}

/* ---- perft ---- */

uint64_t xq_perft(xq_pos *pos, int depth)
{
    xq_movelist list;
    if (depth <= 0)
        return 1;
    int n = xq_gen_legal(pos, &list);
    if (depth == 1)
        return (uint64_t)n;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        xq_undo u;
        xq_make(pos, list.moves[i], &u);
        total += xq_perft(pos, depth - 1);
        xq_unmake(pos, list.moves[i], &u);
    }
    return total;
}
