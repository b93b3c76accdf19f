/* chess_rules.c: position identity (FIDE 9.2.2) and repetition counts; see chess_rules.h. */
#include <config.h>

#include "referee/chess_rules.h"

#include <string.h>

#define REP_FIRST_ENTRIES 32
/* A copy's entries are rounded up to a multiple of this (a power of two). */
#define REP_COPY_ROOM 8

bool chess_ident_equal(const chess_ident *a, const chess_ident *b)
{
    return a->side == b->side && a->castling == b->castling && a->ep_file == b->ep_file &&
           memcmp(a->board, b->board, sizeof a->board) == 0;
}

void chess_rep_init(chess_rep *r, arena *a)
{
    memset(r, 0, sizeof *r);
    r->a = a;
}

void chess_rep_clear(chess_rep *r)
{
    /* the table is only read while n > CHESS_REP_SCAN_MAX, and rebuilt when n gets there */
    r->n = 0;
    r->settled = 0;
    r->max_count = 0;
}

bool chess_rep_irreversible(const chess_pos *before, const chess_pos *after)
{
    return after->halfmove == 0 || after->castling != before->castling;
}

/* Take back the quiet move m on board: the piece goes home, its square is empty again
 * (no capture, castling, promotion or pawn move happens inside a history). */
static inline void unmove_quiet(uint8_t *board, chess_move m)
{
    int from = chess_move_from(m), to = chess_move_to(m);
    board[from] = board[to];
    board[to] = 0;
}

/* Whether entry j is the position of entry k > j (9.2.2). board is the position of
 * entry top >= k, where top == n stands for a position one quiet move, next, after the
 * newest entry. Called on a key hit only. */
static bool same_entries(const chess_rep *r, int j, int k, const uint8_t *board, int top,
                         chess_move next)
{
    /* 9.2.2: the same player to move (one ply per entry, so an even distance), the same
     * castling rights (a lost one clears the history), the same en passant right
     * (9.2.2.1: only the first position may have one, and k > j is not the first), the
     * same men on the same squares: k's board with the moves back to j taken back must
     * be k's own */
    if (((k - j) & 1) || (j == 0 && r->first_ep_file >= 0))
        return false;
    uint8_t at_j[64], at_k[64];
    const uint8_t *ref = board;
    memcpy(at_j, board, sizeof at_j);
    for (int i = top; i > j; i--) {
        if (i == k && k < top) {
            memcpy(at_k, at_j, sizeof at_k);
            ref = at_k;
        }
        unmove_quiet(at_j, i < r->n ? r->e[i].move : next);
    }
    return memcmp(at_j, ref, sizeof at_j) == 0;
}

/* The slot holding the latest occurrence of pos (reached by move from the newest entry),
 * or the empty slot where it would go (table mode: n > CHESS_REP_SCAN_MAX). */
static inline uint32_t probe(const chess_rep *r, const chess_pos *pos, chess_move move)
{
    uint32_t i = (uint32_t)(pos->key ^ (pos->key >> 32)) & r->mask;
    for (;;) {
        int32_t s = r->slot[i];
        if (s == 0)
            return i;
        /* a key hit is confirmed on the position itself (9.2.2), never the key alone */
        if (r->e[s - 1].key == pos->key && same_entries(r, s - 1, r->n, pos->board, r->n, move))
            return i;
        i = (i + 1) & r->mask;
    }
}

/* The index of the latest occurrence before entry k of the position of entry k, or -1:
 * a scan from the newest (scan mode). board is the position of entry top >= k (top == n:
 * one quiet move, next, after the newest). The history holds one position per ply, so
 * the sides to move alternate and only every second entry can be the same position;
 * and a position stands again four plies later at the soonest: the two plies between
 * two of the same side moved a man of each side away. */
static inline __attribute__((always_inline)) int scan(const chess_rep *r, int k, uint64_t key,
                                                      const uint8_t *board, int top,
                                                      chess_move next)
{
    for (int j = k - 4; j >= 0; j -= 2)
        if (r->e[j].key == key && same_entries(r, j, k, board, top, next))
            return j;
    return -1;
}

/* Entry k's previous occurrence is prev: its count, and max_count. */
static inline void count_entry(chess_rep *r, int k, int prev)
{
    chess_rep_entry *e = &r->e[k];
    e->prev = prev;
    e->count = prev >= 0 ? r->e[prev].count + 1 : 1;
    if (e->count > r->max_count)
        r->max_count = e->count;
}

void chess_rep_settle(chess_rep *r, const chess_pos *pos)
{
    /* scan mode: the table exists only past CHESS_REP_SCAN_MAX entries, all settled */
    for (int k = r->settled; k < r->n; k++)
        count_entry(r, k, scan(r, k, r->e[k].key, pos->board, r->n - 1, CHESS_MOVE_NONE));
    r->settled = r->n;
}

/* Index the entries in a table of size slots (a power of two, more than twice n); the
 * table's memory is reused when it is big enough. The entries' previous occurrences say
 * which are the same position: no board is needed. */
static void build_slots(chess_rep *r, uint32_t size)
{
    if (r->slot && size <= r->mask + 1) {
        size = r->mask + 1;
        memset(r->slot, 0, size * sizeof *r->slot);
    } else {
        r->slot = arena_alloc(r->a, size * sizeof *r->slot);
    }
    r->mask = size - 1;
    /* insert in order so that each slot ends on the latest occurrence: a position seen
     * before takes over its previous occurrence's slot, a new one the first empty slot */
    for (int k = 0; k < r->n; k++) {
        const chess_rep_entry *e = &r->e[k];
        uint32_t i = (uint32_t)(e->key ^ (e->key >> 32)) & r->mask;
        while (r->slot[i] != 0 && r->slot[i] != e->prev + 1)
            i = (i + 1) & r->mask;
        r->slot[i] = k + 1;
    }
}

static uint32_t slots_for(int n)
{
    uint32_t size = 2u * CHESS_REP_SCAN_MAX;
    while (size < (uint32_t)(n + 1) * 2)
        size *= 2;
    return size;
}

/* Room for one more entry. */
static void grow(chess_rep *r)
{
    int cap = r->cap ? r->cap * 2 : REP_FIRST_ENTRIES;
    chess_rep_entry *e = arena_alloc_uninit(r->a, (size_t)cap * sizeof *e, ARENA_ALIGN);
    if (r->n)
        memcpy(e, r->e, (size_t)r->n * sizeof *e);
    r->e = e;
    r->cap = cap;
}

void chess_rep_start(chess_rep *r, const chess_pos *pos, int ply)
{
    if (r->cap == 0)
        grow(r);
    chess_rep_restart(r, pos, ply);
}

const chess_rep_entry *chess_rep_add_slow(chess_rep *r, const chess_pos *pos, chess_move move)
{
    if (r->n == r->cap)
        grow(r);
    if (r->n < CHESS_REP_SCAN_MAX) {
        /* the new entry, and any left uncounted from the history's short stretch */
        chess_rep_entry *e = &r->e[r->n++];
        e->key = pos->key;
        e->move = move;
        chess_rep_settle(r, pos);
        return e;
    }
    if (r->n == CHESS_REP_SCAN_MAX || (uint32_t)(r->n + 1) * 2 > r->mask + 1)
        build_slots(r, slots_for(r->n));
    uint32_t i = probe(r, pos, move);
    chess_rep_entry *e = &r->e[r->n];
    e->key = pos->key;
    e->move = move;
    count_entry(r, r->n, r->slot[i] - 1);
    r->n++;
    r->settled = r->n;
    r->slot[i] = r->n;
    return e;
}

const chess_rep_entry *chess_rep_find(const chess_rep *r, const chess_pos *pos,
                                      chess_move move)
{
    if (r->n <= CHESS_REP_SCAN_MAX) {
        int k = scan(r, r->n, pos->key, pos->board, r->n, move);
        return k >= 0 ? &r->e[k] : NULL;
    }
    int32_t s = r->slot[probe(r, pos, move)];
    return s ? &r->e[s - 1] : NULL;
}

void chess_rep_copy(chess_rep *dst, const chess_rep *src, arena *a)
{
    chess_rep_init(dst, a);
    if (src->n == 0)
        return;
    /* sized to the entries and a few plies more, not to src's tables: a game may
     * branch many times, and most variations are a few plies long */
    dst->cap = (src->n + REP_COPY_ROOM) & ~(REP_COPY_ROOM - 1);
    dst->e = arena_alloc_uninit(a, (size_t)dst->cap * sizeof *dst->e, ARENA_ALIGN);
    memcpy(dst->e, src->e, (size_t)src->n * sizeof *dst->e);
    dst->n = src->n;
    dst->settled = src->settled;
    dst->first_ply = src->first_ply;
    dst->max_count = src->max_count;
    dst->first_ep_file = src->first_ep_file;
    if (dst->n > CHESS_REP_SCAN_MAX)
        build_slots(dst, slots_for(dst->n));
}

int chess_rep_plies(const chess_rep *r, const chess_rep_entry *e, int *plies, int max)
{
    int n = e->count < max ? e->count : max;
    int k = n;
    for (const chess_rep_entry *x = e; x && k > 0; x = x->prev >= 0 ? &r->e[x->prev] : NULL)
        plies[--k] = chess_rep_ply(r, x);
    return n;
}
