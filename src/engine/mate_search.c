/* mate_search.c: a full-width AND/OR search for a forced mate (see mate_search.h).
 *
 * attack(n): the side to move has a mate in at most n moves when one of its moves
 * leaves the defender mated or facing attack(n-1) after every reply. defend(n): the
 * side to move is lost when it has no move (mate; in xiangqi also stalemate) or every
 * move leads to attack(n). Results proven for a depth are kept in a small table, as
 * "wins within w" and "fails within f", which hold for any deeper/shallower ask. */
#include <config.h>

#include "engine/mate_search.h"

#include <pthread.h>
#include <sys/mman.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define TT_BITS 16
#define TT_SIZE (1u << TT_BITS)
#define TT_PAGE_ENTRIES (4096 / sizeof(tt_entry)) /* the entries of a page of the table */
#define TT_PAGES (TT_SIZE / TT_PAGE_ENTRIES)
#define DEFEND_SALT 0x9e3779b97f4a7c15ULL

typedef struct tt_entry {
    uint64_t key;
    uint32_t search;         /* the search that wrote it (1; 0: an empty entry) */
    int8_t win_within;       /* proven: mate within this many moves (0: not proven) */
    int8_t fail_within;      /* proven: no mate within this many moves (-1: not proven) */
} tt_entry;

typedef struct search {
    const variant *v;
    bool stalemate_loses;    /* xiangqi */
    long nodes, budget;
    tt_entry *tt;            /* NULL when the table could not be had: slower, same answers */
    uint32_t id;             /* this search's mark on the entries it writes */
    bool written[TT_PAGES];  /* pages of tt written to; the others are all empty and never
                              * read, so that a page's first touch is a write (see
                              * table_open) */
    uint16_t killer[2 * MATE_SEARCH_MAX_MOVES + 2]; /* per ply: the last defence that refuted */
    bool checks_only;        /* the quick pass: the attacker tries only checks, so what it
                              * proves is a mate and what it fails to prove is not known */
} search;

static tt_entry *tt_find(search *s, uint64_t key)
{
    if (!s->tt || !s->written[(key & (TT_SIZE - 1)) / TT_PAGE_ENTRIES])
        return NULL;
    tt_entry *e = &s->tt[key & (TT_SIZE - 1)];
    return e->key == key && e->search == s->id ? e : NULL;
}

static void tt_store(search *s, uint64_t key, mate_verdict r, int n)
{
    if (!s->tt || r == MATE_UNKNOWN || (s->checks_only && r == MATE_NONE))
        return;
    bool *written = &s->written[(key & (TT_SIZE - 1)) / TT_PAGE_ENTRIES];
    tt_entry *e = &s->tt[key & (TT_SIZE - 1)];
    if (!*written || e->key != key || e->search != s->id) {
        *written = true;
        e->key = key;
        e->search = s->id;
        e->win_within = 0;
        e->fail_within = -1;
    }
    if (r == MATE_FOUND && (e->win_within == 0 || n < e->win_within))
        e->win_within = (int8_t)n;
    if (r == MATE_NONE && n > e->fail_within)
        e->fail_within = (int8_t)n;
}

/* A lookup answers when something proven covers n. */
static bool tt_answer(search *s, uint64_t key, int n, mate_verdict *out)
{
    const tt_entry *e = tt_find(s, key);
    if (!e)
        return false;
    if (e->win_within && e->win_within <= n) {
        *out = MATE_FOUND;
        return true;
    }
    if (e->fail_within >= n) {
        *out = MATE_NONE;
        return true;
    }
    return false;
}

static mate_verdict defend(search *s, void *pos, int n, int ply);

/* Checks first: most mates are made of them, and a found mate ends the loop. */
static int order_checks_first(search *s, const void *pos, uint16_t *moves, int count,
                              bool *gives)
{
    int checks = 0;
    for (int i = 0; i < count; i++) {
        gives[i] = s->v->gives_check(pos, moves[i]);
        checks += gives[i];
    }
    /* stable partition: checks to the front */
    uint16_t tmp[VARIANT_MAX_MOVES];
    bool gtmp[VARIANT_MAX_MOVES];
    int a = 0, b = checks;
    for (int i = 0; i < count; i++) {
        int at = gives[i] ? a++ : b++;
        tmp[at] = moves[i];
        gtmp[at] = gives[i];
    }
    memcpy(moves, tmp, (size_t)count * sizeof *moves);
    memcpy(gives, gtmp, (size_t)count * sizeof *gives);
    return checks;
}

/* defend(0) after the checking move m, without playing it: the defender in check is
 * lost exactly when mated. The node is counted as defend counts it. */
static mate_verdict checked_leaf(search *s, const void *pos, uint16_t m)
{
    if (++s->nodes > s->budget)
        return MATE_UNKNOWN;
    return s->v->gives_mate(pos, m) ? MATE_FOUND : MATE_NONE;
}

static mate_verdict attack(search *s, void *pos, int n, int ply, uint16_t *first)
{
    if (n <= 0)
        return MATE_NONE;
    if (++s->nodes > s->budget)
        return MATE_UNKNOWN;
    uint64_t key = s->v->key(pos);
    mate_verdict r;
    if (!first && tt_answer(s, key, n, &r))
        return r;
    uint16_t moves[VARIANT_MAX_MOVES];
    bool gives[VARIANT_MAX_MOVES];
    int count = s->v->gen_legal(pos, moves);
    int checks = order_checks_first(s, pos, moves, count, gives);
    /* Mate in one needs a check in chess; in xiangqi a quiet move may stalemate. */
    int tried = ((n == 1 && !s->stalemate_loses) || s->checks_only) ? checks : count;
    bool unknown = false;
    r = MATE_NONE;
    for (int i = 0; i < tried && r != MATE_FOUND; i++) {
        mate_verdict d;
        if (n == 1 && gives[i]) {
            d = checked_leaf(s, pos, moves[i]);
        } else {
            variant_undo u;
            s->v->make(pos, moves[i], &u);
            d = defend(s, pos, n - 1, ply + 1);
            s->v->unmake(pos, moves[i], &u);
        }
        if (d == MATE_FOUND) {
            r = MATE_FOUND;
            if (first)
                *first = moves[i];
        } else if (d == MATE_UNKNOWN)
            unknown = true;
    }
    if (r != MATE_FOUND && unknown)
        r = MATE_UNKNOWN;
    tt_store(s, key, r, n);
    return r;
}

/* MATE_FOUND here means the defender (side to move) is lost within n attacker moves. */
static mate_verdict defend(search *s, void *pos, int n, int ply)
{
    if (++s->nodes > s->budget)
        return MATE_UNKNOWN;
    uint16_t moves[VARIANT_MAX_MOVES];
    int count = s->v->gen_legal(pos, moves);
    if (count == 0)
        return (s->stalemate_loses || s->v->in_check(pos)) ? MATE_FOUND : MATE_NONE;
    if (n <= 0)
        return MATE_NONE;
    uint64_t key = s->v->key(pos) ^ DEFEND_SALT;
    mate_verdict r;
    if (tt_answer(s, key, n, &r))
        return r;
    /* The defence that refuted a sibling's attack first: it often refutes this one too
     * (a killer move), which keeps the proof that there is no mate small. */
    for (int i = 1; i < count; i++)
        if (moves[i] == s->killer[ply]) {
            uint16_t t = moves[0];
            moves[0] = moves[i];
            moves[i] = t;
            break;
        }
    bool unknown = false;
    r = MATE_FOUND;
    for (int i = 0; i < count; i++) {
        variant_undo u;
        s->v->make(pos, moves[i], &u);
        mate_verdict a = attack(s, pos, n, ply + 1, NULL);
        s->v->unmake(pos, moves[i], &u);
        if (a == MATE_NONE) {
            r = MATE_NONE;
            s->killer[ply] = moves[i];
            break;
        }
        if (a == MATE_UNKNOWN)
            unknown = true;
    }
    if (r == MATE_FOUND && unknown)
        r = MATE_UNKNOWN;
    tt_store(s, key, r, n);
    return r;
}

/* The table of a thread's searches: 1 MiB of fresh zero pages from the kernel, of
 * which a search pays only for the pages it touches. A zero entry is empty: ids start at 1. A page is
 * first written, never first read: a read maps the shared zero page, and the write
 * after it costs a second fault whose TLB flush interrupts every other core running
 * one of the process's threads (-j); that was 8% of the CPU time of check -j2. */
static tt_entry *table_open(void)
{
    void *p = mmap(NULL, TT_SIZE * sizeof(tt_entry), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

/* A thread keeps its table from one search to the next instead (unless
 * mate_search_keep_tables says not to): giving it back (munmap) interrupted every other
 * core running one of the process's threads for its TLB, and the next search faulted
 * its pages in again. A fault costs some 16 us on a virtual machine: check -j1 of the
 * 33 MB bench input took 2,447 faults for its mate searches, about a tenth of its
 * time, where a kept table takes 175, once for each page it ever wrote. A kept table's
 * entries of earlier searches are empty to a later one, which has a greater id (and
 * only reads the pages it wrote itself); the pages written stay resident, at most
 * 1 MiB a thread (0.7 MB on the bench input). */
static atomic_bool keep_tables = true;
static _Thread_local tt_entry *kept_table;
static _Thread_local uint32_t kept_last_id;

void mate_search_keep_tables(bool keep)
{
    atomic_store(&keep_tables, keep);
}

void mate_search_thread_done(void)
{
    if (kept_table)
        munmap(kept_table, TT_SIZE * sizeof(tt_entry));
    kept_table = NULL;
    kept_last_id = 0;
}

/* A thread that ends without mate_search_thread_done (a library caller's) gives its
 * table back all the same: its key's destructor runs at the thread's exit. */
static pthread_key_t kept_key;
static pthread_once_t kept_key_once = PTHREAD_ONCE_INIT;

static void kept_table_free(void *table)
{
    if (table == kept_table)
        mate_search_thread_done();
}

static void kept_key_create(void)
{
    pthread_key_create(&kept_key, kept_table_free);
}

static void table_keep(tt_entry *t, uint32_t id)
{
    kept_table = t;
    kept_last_id = id;
    pthread_once(&kept_key_once, kept_key_create);
    pthread_setspecific(kept_key, t);
}

/* The table for the next search and its id. */
static tt_entry *table_take(uint32_t *id)
{
    tt_entry *t = kept_table;
    kept_table = NULL;
    if (t && kept_last_id == UINT32_MAX) {
        /* the ids ran out: fresh zero pages */
        munmap(t, TT_SIZE * sizeof(tt_entry));
        t = NULL;
    }
    *id = t ? kept_last_id + 1 : 1;
    return t ? t : table_open();
}

static void search_done(search *s)
{
    if (s->tt && atomic_load(&keep_tables) && !kept_table) {
        table_keep(s->tt, s->id);
    } else if (s->tt) {
        munmap(s->tt, TT_SIZE * sizeof(tt_entry));
    }
    s->tt = NULL;
}

static void search_init(search *s, const variant *v, long budget)
{
    s->v = v;
    s->stalemate_loses = strcmp(v->name, "xiangqi") == 0;
    s->nodes = 0;
    s->budget = budget > 0 ? budget : MATE_SEARCH_DEFAULT_BUDGET;
    s->tt = table_take(&s->id);
    memset(s->written, 0, sizeof s->written);
    memset(s->killer, 0, sizeof s->killer);
}

/* Most mates are a run of checks: a pass over checks alone, with a quarter of the
 * budget, proves them cheaply. true (and *res filled) when it found one. */
static bool quick_pass(search *s, void *pos, int n, bool attacker, mate_result *res)
{
    s->checks_only = true;
    long quick_budget = s->budget / 4;
    for (int d = 1; d <= n && s->nodes < quick_budget; d++) {
        uint16_t first = 0;
        long saved = s->budget;
        s->budget = quick_budget;
        mate_verdict r = attacker ? attack(s, pos, d, 0, &first) : defend(s, pos, d, 0);
        s->budget = saved;
        if (r == MATE_FOUND) {
            res->verdict = MATE_FOUND;
            res->moves = d;
            res->first = attacker ? first : 0;
            res->nodes = s->nodes;
            return true;
        }
    }
    s->checks_only = false;
    return false;
}

/* Iterative deepening: the shortest mate is found first, and the shallow passes fill
 * the table for the deep one. */
static mate_result run(const variant *v, const void *pos0, int n, long budget, bool attacker)
{
    mate_result res = {MATE_NONE, 0, 0, 0};
    if (n < 1 || n > MATE_SEARCH_MAX_MOVES) {
        res.verdict = MATE_UNKNOWN;
        return res;
    }
    search s;
    search_init(&s, v, budget);
    variant_pos pos;
    memcpy(&pos, pos0, sizeof pos);
    bool unknown = false;
    /* only when the quick pass fails does the full width run, to prove there is none */
    if (quick_pass(&s, &pos, n, attacker, &res)) {
        search_done(&s);
        return res;
    }
    for (int d = 1; d <= n; d++) {
        uint16_t first = 0;
        mate_verdict r = attacker ? attack(&s, &pos, d, 0, &first) : defend(&s, &pos, d, 0);
        if (r == MATE_FOUND) {
            res.verdict = MATE_FOUND;
            res.moves = d;
            res.first = attacker ? first : 0;
            break;
        }
        if (r == MATE_UNKNOWN) {
            unknown = true;
            break;
        }
    }
    if (res.verdict != MATE_FOUND && unknown)
        res.verdict = MATE_UNKNOWN;
    res.nodes = s.nodes;
    search_done(&s);
    return res;
}

mate_result mate_search_quick(const variant *v, const void *pos0, int n, long budget,
                              bool attacker)
{
    mate_result res = {MATE_UNKNOWN, 0, 0, 0};
    if (n < 1 || n > MATE_SEARCH_MAX_MOVES)
        return res;
    search s;
    search_init(&s, v, budget);
    variant_pos pos;
    memcpy(&pos, pos0, sizeof pos);
    if (!quick_pass(&s, &pos, n, attacker, &res))
        res.nodes = s.nodes;
    search_done(&s);
    return res;
}

mate_result mate_search_attacker(const variant *v, const void *pos, int n, long budget)
{
    return run(v, pos, n, budget, true);
}

mate_result mate_search_defender(const variant *v, const void *pos, int n, long budget)
{
    return run(v, pos, n, budget, false);
}
