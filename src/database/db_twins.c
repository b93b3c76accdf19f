/* db_twins.c: the twin index of a run (see db_twins.h). */
#include <config.h>

#include "database/db_twins.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/xalloc.h"

/* A run of consecutive games of one input (game numbers counting up by one), so that a
 * game's input and number cost nothing per game. */
typedef struct game_run {
    uint32_t first_id;   /* the run's first game in settle order */
    uint32_t file;       /* index into files[] */
    uint64_t first_game; /* its number in the input */
    bool reference;
} game_run;

/* A table of game ids + 1 (0: empty slot), linear probing; any size (a key's home is
 * its hash scaled to the size), grown by a quarter at four fifths full, so that a
 * million games do not leave half a table empty. */
typedef struct id_table {
    uint32_t *slot;
    size_t cap, used;
} id_table;

/* Keys are kept in blocks that never move: a growing run copies none, and each block's
 * pages are mapped at once (xalloc_grow), not faulted in one by one (128 KiB). */
#define KEY_BLOCK 4096

struct db_twins {
    unsigned min_plies;
    db_keys **blocks;       /* the keys by id (settle order), KEY_BLOCK to a block */
    size_t n, nblocks, capblocks;
    game_run *runs;
    size_t nruns, capruns;
    char **files;
    size_t nfiles, capfiles;
    id_table by_moves;      /* first game of each main line */
    id_table by_players;    /* every game with both players known */
};

static inline db_keys *key_at(const db_twins *t, uint32_t id)
{
    return &t->blocks[id / KEY_BLOCK][id % KEY_BLOCK];
}

const char *db_twin_code(db_twin_kind kind)
{
    switch (kind) {
    case DB_TWIN_GAME: return "duplicate-game";
    case DB_TWIN_MOVES: return "duplicate-moves";
    case DB_TWIN_TRUNCATED: return "truncated-copy";
    case DB_TWIN_HEADER: return "duplicate-header";
    default: return NULL;
    }
}

db_twins *db_twins_new(unsigned min_plies)
{
    db_twins *t = xalloc_realloc(NULL, sizeof *t);
    memset(t, 0, sizeof *t);
    t->min_plies = min_plies;
    return t;
}

void db_twins_free(db_twins *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->nblocks; i++)
        free(t->blocks[i]);
    free(t->blocks);
    free(t->runs);
    for (size_t i = 0; i < t->nfiles; i++)
        free(t->files[i]);
    free(t->files);
    free(t->by_moves.slot);
    free(t->by_players.slot);
    free(t);
}

uint64_t db_twins_games(const db_twins *t)
{
    return t->n;
}

size_t db_twins_memory(const db_twins *t)
{
    size_t bytes = sizeof *t + t->nblocks * KEY_BLOCK * sizeof(db_keys) +
                   t->capblocks * sizeof *t->blocks + t->capruns * sizeof *t->runs +
                   (t->by_moves.cap + t->by_players.cap) * sizeof(uint32_t);
    for (size_t i = 0; i < t->nfiles; i++)
        bytes += strlen(t->files[i]) + 1 + sizeof *t->files;
    return bytes;
}

/* ------------------------------------------------------------------ tables */

static size_t home(const id_table *tb, uint32_t h)
{
    /* the key is a hash already; one more mix spreads keys that differ in low bits */
    uint32_t x = h * 0x9e3779b1u;
    x ^= x >> 15;
    return (size_t)(((uint64_t)x * tb->cap) >> 32);
}

static size_t next_slot(const id_table *tb, size_t j)
{
    return j + 1 < tb->cap ? j + 1 : 0;
}

typedef uint32_t (*key_of)(const db_keys *k);

static uint32_t moves_key(const db_keys *k) { return k->moves_lo ^ k->moves_hi; }
static uint32_t players_key(const db_keys *k) { return k->players; }

static void table_put(id_table *tb, const db_twins *t, key_of key, uint32_t id)
{
    if ((tb->used + 1) * 5 > tb->cap * 4) {
        size_t oldcap = tb->cap;
        uint32_t *old = tb->slot;
        /* the first size is 1,024 grown by a quarter six times: a few thousand games
         * need no growth (each walks the table), and big runs keep the sizes that
         * arbiter-check(1) states */
        tb->cap = oldcap ? oldcap + oldcap / 4 : 3906;
        tb->slot = xalloc_zeroed(tb->cap * sizeof *tb->slot);
        tb->used = 0;
        for (size_t i = 0; i < oldcap; i++) {
            if (!old[i])
                continue;
            size_t j = home(tb, key(key_at(t, old[i] - 1)));
            while (tb->slot[j])
                j = next_slot(tb, j);
            tb->slot[j] = old[i];
            tb->used++;
        }
        free(old);
    }
    size_t j = home(tb, key(key_at(t, id)));
    while (tb->slot[j])
        j = next_slot(tb, j);
    tb->slot[j] = id + 1;
    tb->used++;
}

/* ------------------------------------------------------------------ settling */

static bool same_moves(const db_keys *a, const db_keys *b)
{
    return a->moves_lo == b->moves_lo && a->moves_hi == b->moves_hi;
}

/* Every field settling reads of an indexed game is the same in a and b: players, main
 * line (its plies and tails follow from it), event and header. */
static bool alike(const db_keys *a, const db_keys *b)
{
    return a->players == b->players && same_moves(a, b) && a->plies == b->plies &&
           memcmp(a->tail, b->tail, sizeof a->tail) == 0 && a->event == b->event &&
           a->header == b->header;
}

static bool compatible16(uint16_t a, uint16_t b)
{
    return !a || !b || a == b;
}

/* One main line is the other's without its last 1..DB_KEYS_TAIL plies. */
static bool truncated(const db_keys *a, const db_keys *b)
{
    const db_keys *shorter = a->plies < b->plies ? a : b, *longer = shorter == a ? b : a;
    unsigned d = (unsigned)longer->plies - shorter->plies;
    if (d == 0 || d > DB_KEYS_TAIL || longer->plies == UINT16_MAX)
        return false;
    return longer->tail[d - 1] == db_keys_fingerprint(db_keys_moves(shorter));
}

static void fill(const db_twins *t, uint32_t id, db_twin_kind kind, db_twin *found)
{
    /* the run of id: the last run starting at or before it */
    size_t lo = 0, hi = t->nruns;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->runs[mid].first_id <= id)
            lo = mid;
        else
            hi = mid;
    }
    const game_run *r = &t->runs[lo];
    found->kind = kind;
    found->file = t->files[r->file];
    found->game = r->first_game + (id - r->first_id);
    found->line = key_at(t, id)->line;
    found->plies = key_at(t, id)->plies;
    found->reference = r->reference;
}

/* The input FILE as a run continuing with game GAME. */
static void note_run(db_twins *t, const char *file, uint64_t game, bool reference)
{
    if (t->nruns) {
        const game_run *r = &t->runs[t->nruns - 1];
        if (r->reference == reference && r->first_game + (t->n - r->first_id) == game &&
            strcmp(t->files[r->file], file) == 0)
            return;
    }
    size_t f = t->nfiles;
    if (f && strcmp(t->files[f - 1], file) == 0)
        f--;
    else {
        if (t->nfiles == t->capfiles) {
            t->capfiles = t->capfiles ? 2 * t->capfiles : 16;
            t->files = xalloc_realloc(t->files, t->capfiles * sizeof *t->files);
        }
        size_t len = strlen(file) + 1;
        t->files[t->nfiles++] = memcpy(xalloc_realloc(NULL, len), file, len);
    }
    if (t->nruns == t->capruns) {
        t->capruns = t->capruns ? 2 * t->capruns : 16;
        t->runs = xalloc_realloc(t->runs, t->capruns * sizeof *t->runs);
    }
    t->runs[t->nruns++] = (game_run){(uint32_t)t->n, (uint32_t)f, game, reference};
}

db_twin_kind db_twins_settle(db_twins *t, const db_keys *k, const char *file, uint64_t game,
                             bool reference, db_twin *found)
{
    memset(found, 0, sizeof *found);
    bool long_enough = k->plies >= t->min_plies;
    long game_id = -1, trunc_id = -1, moves_id = -1, header_id = -1;
    bool indexed_alike = false; /* an earlier game with k's players, moves, event, header */
    /* the same players: a copy, or a copy that lost its end */
    if (k->players && t->by_players.cap) {
        const id_table *tb = &t->by_players;
        for (size_t j = home(tb, k->players); tb->slot[j]; j = next_slot(tb, j)) {
            uint32_t id = tb->slot[j] - 1;
            const db_keys *e = key_at(t, id);
            if (e->players != k->players)
                continue;
            if (alike(e, k))
                indexed_alike = true;
            if (same_moves(e, k)) {
                if (k->plies > 0 && compatible16(e->event, k->event) &&
                    (long_enough || !e->header || !k->header || e->header == k->header) &&
                    (game_id < 0 || id < (uint32_t)game_id))
                    game_id = id;
                continue;
            }
            unsigned shorter = e->plies < k->plies ? e->plies : k->plies;
            if (shorter >= t->min_plies && truncated(e, k) && (trunc_id < 0 || id < (uint32_t)trunc_id))
                trunc_id = id;
            /* the same entry, another main line (a header key implies the players': 64
             * bits together, where 32 alone would meet by chance in big runs) */
            if (k->header && e->header == k->header && (header_id < 0 || id < (uint32_t)header_id))
                header_id = id;
        }
    }
    /* the same moves, whoever played them */
    if (game_id < 0 && t->by_moves.cap) {
        const id_table *tb = &t->by_moves;
        for (size_t j = home(tb, moves_key(k)); tb->slot[j]; j = next_slot(tb, j)) {
            uint32_t id = tb->slot[j] - 1;
            if (same_moves(key_at(t, id), k)) {
                moves_id = id;
                break;
            }
        }
    }
    if (game_id >= 0)
        fill(t, (uint32_t)game_id, DB_TWIN_GAME, found);
    else if (moves_id >= 0 && long_enough)
        fill(t, (uint32_t)moves_id,
             !k->players || !key_at(t, (uint32_t)moves_id)->players ? DB_TWIN_GAME : DB_TWIN_MOVES,
             found);
    else if (trunc_id >= 0)
        fill(t, (uint32_t)trunc_id, DB_TWIN_TRUNCATED, found);
    else if (header_id >= 0)
        fill(t, (uint32_t)header_id, DB_TWIN_HEADER, found);

    /* keep the game's keys */
    if (t->n >= UINT32_MAX - 1)
        return found->kind;        /* four billion games: later ones are only looked up */
    note_run(t, file, game, reference);
    if (t->n == t->nblocks * KEY_BLOCK) {
        if (t->nblocks == t->capblocks) {
            t->capblocks = t->capblocks ? 2 * t->capblocks : 16;
            t->blocks = xalloc_realloc(t->blocks, t->capblocks * sizeof *t->blocks);
        }
        t->blocks[t->nblocks++] = xalloc_grow(NULL, 0, KEY_BLOCK * sizeof(db_keys));
    }
    uint32_t id = (uint32_t)t->n++;
    *key_at(t, id) = *k;
    /* a game alike an indexed one would only ever be found after it (every test above
     * reads the same fields of both, and the earlier id wins), so it is not indexed:
     * a pairing's chain holds its distinct games, not every copy of them */
    if (k->players && !indexed_alike)
        table_put(&t->by_players, t, players_key, id);
    /* a copy found by its players has a main line the table holds already */
    if (moves_id < 0 && game_id < 0)
        table_put(&t->by_moves, t, moves_key, id);
    return found->kind;
}
