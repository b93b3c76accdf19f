/* chess_rules.c: position identity (FIDE 9.2.2) and repetition counts; see chess_rules.h. */
#include <config.h>

#include "referee/chess_rules.h"

#include <string.h>

#define REP_FIRST_SLOTS 64u
#define REP_FIRST_ENTRIES 32

void chess_ident_of(const chess_pos *pos, chess_ident *id)
{
    memcpy(id->board, pos->board, sizeof id->board);
    id->castling = pos->castling;                       /* FIDE 9.2.2.2: rights */
    id->side = pos->side;
    id->ep_file = pos->ep_in_key ? (int8_t)(pos->ep & 7) : (int8_t)-1; /* 9.2.2.1 */
}

bool chess_ident_equal(const chess_ident *a, const chess_ident *b)
{
    return a->side == b->side && a->castling == b->castling && a->ep_file == b->ep_file &&
           memcmp(a->board, b->board, sizeof a->board) == 0;
}

static bool ident_matches(const chess_ident *id, const chess_pos *pos)
{
    int8_t ep = pos->ep_in_key ? (int8_t)(pos->ep & 7) : (int8_t)-1;
    return id->side == pos->side && id->castling == pos->castling && id->ep_file == ep &&
           memcmp(id->board, pos->board, sizeof id->board) == 0;
}

void chess_rep_init(chess_rep *r, arena *a)
{
    memset(r, 0, sizeof *r);
    r->a = a;
}

void chess_rep_clear(chess_rep *r)
{
    if (r->n == 0)
        return;
    r->n = 0;
    r->max_count = 0;
    memset(r->slot, 0, (r->mask + 1) * sizeof *r->slot);
}

bool chess_rep_irreversible(const chess_pos *before, const chess_pos *after)
{
    return after->halfmove == 0 || after->castling != before->castling;
}

/* The slot holding the latest occurrence of pos, or the empty slot where it would go.
 * Inlined: every ply asks it once. */
static inline __attribute__((always_inline)) uint32_t probe(const chess_rep *r,
                                                            const chess_pos *pos)
{
    uint32_t i = (uint32_t)(pos->key ^ (pos->key >> 32)) & r->mask;
    for (;;) {
        int32_t s = r->slot[i];
        if (s == 0)
            return i;
        const chess_rep_entry *e = &r->e[s - 1];
        /* a key hit is confirmed on the position itself (9.2.2), never the key alone */
        if (e->key == pos->key && ident_matches(&e->id, pos))
            return i;
        i = (i + 1) & r->mask;
    }
}

static void grow_slots(chess_rep *r, uint32_t size)
{
    r->slot = arena_alloc(r->a, size * sizeof *r->slot);
    r->mask = size - 1;
    /* re-insert in order so that each slot ends on the latest occurrence */
    for (int k = 0; k < r->n; k++) {
        const chess_rep_entry *e = &r->e[k];
        uint32_t i = (uint32_t)(e->key ^ (e->key >> 32)) & r->mask;
        while (r->slot[i] != 0 && !(r->e[r->slot[i] - 1].key == e->key &&
                                    chess_ident_equal(&r->e[r->slot[i] - 1].id, &e->id)))
            i = (i + 1) & r->mask;
        r->slot[i] = k + 1;
    }
}

const chess_rep_entry *chess_rep_add(chess_rep *r, const chess_pos *pos, int ply)
{
    if (r->n == r->cap) {
        int cap = r->cap ? r->cap * 2 : REP_FIRST_ENTRIES;
        chess_rep_entry *e = arena_alloc_uninit(r->a, (size_t)cap * sizeof *e, ARENA_ALIGN);
        if (r->n)
            memcpy(e, r->e, (size_t)r->n * sizeof *e);
        r->e = e;
        r->cap = cap;
    }
    if (!r->slot)
        grow_slots(r, REP_FIRST_SLOTS);
    else if ((uint32_t)(r->n + 1) * 2 > r->mask + 1)
        grow_slots(r, (r->mask + 1) * 2);

    uint32_t i = probe(r, pos);
    chess_rep_entry *e = &r->e[r->n];
    e->key = pos->key;
    chess_ident_of(pos, &e->id);
    e->ply = ply;
    e->prev = r->slot[i] ? r->slot[i] - 1 : -1;
    e->count = e->prev >= 0 ? r->e[e->prev].count + 1 : 1;
    if (e->count > r->max_count)
        r->max_count = e->count;
    r->slot[i] = ++r->n;
    return e;
}

const chess_rep_entry *chess_rep_find(const chess_rep *r, const chess_pos *pos)
{
    if (!r->slot || r->n == 0)
        return NULL;
    int32_t s = r->slot[probe(r, pos)];
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
    uint32_t size = 8;
    while (size < (uint32_t)(src->n + 1) * 2)
        size *= 2;
    grow_slots(dst, size);
}

int chess_rep_plies(const chess_rep *r, const chess_rep_entry *e, int *plies, int max)
{
    int n = e->count < max ? e->count : max;
    int k = n;
    for (const chess_rep_entry *x = e; x && k > 0; x = x->prev >= 0 ? &r->e[x->prev] : NULL)
        plies[--k] = x->ply;
    return n;
}
