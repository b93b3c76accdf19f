/* chess_rules.c: position identity (FIDE 9.2.2) and repetition counts; see chess_rules.h. */
#include <config.h>

#include "referee/chess_rules.h"

#include <string.h>

#define REP_FIRST_ENTRIES 32

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

bool chess_rep_same(const chess_rep *r, int k, const chess_pos *pos, chess_move move)
{
    /* 9.2.2: the same player to move (one ply per entry, so an even distance), the same
     * castling rights (a lost one clears the history), the same en passant right
     * (9.2.2.1; only the first position may have one), the same men on the same squares:
     * pos's board with the moves back to entry k taken back must be pos's own */
    int8_t ep_file = k == 0 ? r->first_ep_file : (int8_t)-1;
    if (((r->n - k) & 1) || ep_file != chess_ident_ep_file(pos))
        return false;
    uint8_t board[64];
    memcpy(board, pos->board, sizeof board);
    unmove_quiet(board, move);
    for (int j = r->n - 1; j > k; j--)
        unmove_quiet(board, r->e[j].move);
    return memcmp(board, pos->board, sizeof board) == 0;
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
        if (r->e[s - 1].key == pos->key && chess_rep_same(r, s - 1, pos, move))
            return i;
        i = (i + 1) & r->mask;
    }
}

/* The index of the latest occurrence of pos, or -1: a scan from the newest (scan mode).
 * The history holds one position per ply, so the sides to move alternate and only every
 * second entry, counted back from the newest, can be pos with the same side to move. */
static inline __attribute__((always_inline)) int scan(const chess_rep *r, const chess_pos *pos,
                                                      chess_move move)
{
    for (int k = r->n - 2; k >= 0; k -= 2)
        if (r->e[k].key == pos->key && chess_rep_same(r, k, pos, move))
            return k;
    return -1;
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

const chess_rep_entry *chess_rep_add_slow(chess_rep *r, const chess_pos *pos, chess_move move,
                                          int ply)
{
    if (r->n == r->cap) {
        int cap = r->cap ? r->cap * 2 : REP_FIRST_ENTRIES;
        chess_rep_entry *e = arena_alloc_uninit(r->a, (size_t)cap * sizeof *e, ARENA_ALIGN);
        if (r->n)
            memcpy(e, r->e, (size_t)r->n * sizeof *e);
        r->e = e;
        r->cap = cap;
    }
    if (r->n == 0)
        r->first_ep_file = chess_ident_ep_file(pos);
    if (r->n < CHESS_REP_SCAN_MAX)
        return chess_rep_put(r, pos, move, ply, scan(r, pos, move));
    if (r->n == CHESS_REP_SCAN_MAX || (uint32_t)(r->n + 1) * 2 > r->mask + 1)
        build_slots(r, slots_for(r->n));
    uint32_t i = probe(r, pos, move);
    chess_rep_entry *e = chess_rep_put(r, pos, move, ply, r->slot[i] - 1);
    r->slot[i] = r->n;
    return e;
}

const chess_rep_entry *chess_rep_find(const chess_rep *r, const chess_pos *pos,
                                      chess_move move)
{
    if (r->n <= CHESS_REP_SCAN_MAX) {
        int k = scan(r, pos, move);
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
    /* sized to the entries, not to src's tables: a game may branch many times */
    dst->cap = src->n;
    dst->e = arena_alloc_uninit(a, (size_t)dst->cap * sizeof *dst->e, ARENA_ALIGN);
    memcpy(dst->e, src->e, (size_t)src->n * sizeof *dst->e);
    dst->n = src->n;
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
        plies[--k] = x->ply;
    return n;
}
