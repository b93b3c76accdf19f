/* db_names_run.c: the names of a run, counted, grouped and checked (see db_names.h).
 *
 * The rule (arbiter-check(1), name-variant): two spellings are one person (one event,
 * one site) when their keys are equal (case, accents, punctuation, spacing, the comma
 * forms, traditional/simplified Chinese folded), or, for players, when one is written
 * with an initial and exactly one full name of the run fits it.  Nothing else is
 * merged: two given names after one surname, an initial that fits two full names, a
 * different compound surname, a reordered name stay apart. */
#include <config.h>

#include "database/db_names.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "record/arena.h"
#include "record/strhash.h"
#include "record/xalloc.h"

#include "database/db_names_internal.h"

db_names *db_names_new(void)
{
    db_names *t = xalloc_realloc(NULL, sizeof *t);
    memset(t, 0, sizeof *t);
    t->cap = 1024;
    t->slots = xalloc_realloc(NULL, t->cap * sizeof *t->slots);
    memset(t->slots, 0, t->cap * sizeof *t->slots);
    for (int f = 0; f < DB_NAME_FIELDS; f++)
        t->last[f] = -1;
    t->white = -1;
    arena_init(&t->text);
    static atomic_ulong tables;
    t->id = atomic_fetch_add(&tables, 1) + 1;
    return t;
}

void db_names_free(db_names *t)
{
    if (!t)
        return;
    arena_free(&t->text);
    free(t->e);
    free(t->slots);
    free(t->sets);
    free(t->set_group);
    free(t->groups);
    free(t->group_of_entry);
    free(t->index);
    for (size_t i = 0; i < t->nssp; i++)
        free(t->ssp[i].key);
    free(t->ssp);
    for (size_t i = 0; i < t->nnames; i++)
        free(t->ssp_names[i]);
    free(t->ssp_names);
    for (size_t i = 0; i < t->nsspkeys; i++)
        free(t->ssp_keys[i]);
    free(t->ssp_keys);
    free(t->pairs);
    free(t);
}

/* The name field of a tag of that rec_tag_id, or -1. */
static inline int field_of_id(unsigned id)
{
    switch (id) {
    case REC_TAG_WHITE: case REC_TAG_BLACK: case REC_TAG_RED: return DB_NAME_PLAYER;
    case REC_TAG_EVENT: return DB_NAME_EVENT;
    case REC_TAG_SITE: return DB_NAME_SITE;
    default: return -1;
    }
}

int db_name_field_of(const char *tag)
{
    return field_of_id(rec_tag_id_of(tag, strlen(tag)));
}

static uint64_t hash_name_n(int field, const char *s, size_t len)
{
    return strhash_bytes((uint64_t)field, s, len);
}

static void grow(db_names *t)
{
    t->cap *= 2;
    free(t->slots); /* rebuilt from the entries */
    t->slots = xalloc_zeroed(t->cap * sizeof *t->slots);
    for (size_t i = 0; i < t->count; i++) {
        size_t j = t->e[i].hash & (t->cap - 1);
        while (t->slots[j])
            j = (j + 1) & (t->cap - 1);
        t->slots[j] = (uint32_t)i + 1;
    }
}

/* Count one use of the LEN bytes at SPELLING in FIELD (before grouping; not empty):
 * returns the entry's index (counting order; its spelling stays where it is). */
long db_names_count_use(db_names *t, int field, const char *spelling, size_t len)
{
    long last = t->last[field];
    if (last >= 0 && t->e[last].len == len && names_same_bytes(t->e[last].spelling, spelling, len)) {
        t->e[last].count++;
        return last;
    }
    if ((t->count + 1) * 2 > t->cap)
        grow(t);
    uint32_t h = (uint32_t)hash_name_n(field, spelling, len);
    size_t j = h & (t->cap - 1);
    for (; t->slots[j]; j = (j + 1) & (t->cap - 1)) {
        name_entry *e = &t->e[t->slots[j] - 1];
        if (e->hash == h && e->field == field && e->len == len &&
            names_same_bytes(e->spelling, spelling, len)) {
            e->count++;
            return t->last[field] = (long)(t->slots[j] - 1);
        }
    }
    if (t->count == t->cape) {
        size_t old = t->cape * sizeof *t->e;
        t->cape = t->cape ? 2 * t->cape : 512;
        t->e = xalloc_grow(t->e, old, t->cape * sizeof *t->e);
    }
    name_entry *e = &t->e[t->count];
    memset(e, 0, sizeof *e);
    e->spelling = arena_strndup(&t->text, spelling, len);
    e->field = (uint8_t)field;
    e->len = (uint16_t)len;
    e->count = 1;
    e->hash = h;
    e->first = (uint32_t)t->count;
    t->slots[j] = (uint32_t)++t->count;
    return t->last[field] = (long)(t->count - 1);
}

/* Tag values are at most a few hundred bytes (the pre-pass cuts them shorter). */
#define SPELLING_MAX 65535

void db_names_add(db_names *t, db_name_field field, const char *spelling)
{
    if (t->grouped || !spelling || !*spelling)
        return;
    size_t len = strlen(spelling);
    if (len <= SPELLING_MAX)
        db_names_count_use(t, field, spelling, len);
}

/* ------------------------------------------------------------------ spelling file */

static const char *keep_name(db_names *t, const char *s)
{
    if (t->nnames == t->capnames) {
        t->capnames = t->capnames ? 2 * t->capnames : 64;
        t->ssp_names = xalloc_realloc(t->ssp_names, t->capnames * sizeof *t->ssp_names);
    }
    return t->ssp_names[t->nnames++] = xalloc_strdup(s);
}

static void ssp_add(db_names *t, int field, const char *spelling, const char *canonical)
{
    char key[DB_NAME_KEY_MAX];
    if (db_name_key(spelling, key, sizeof key) == 0)
        return;
    if (t->nssp == t->capssp) {
        t->capssp = t->capssp ? 2 * t->capssp : 64;
        t->ssp = xalloc_realloc(t->ssp, t->capssp * sizeof *t->ssp);
    }
    t->ssp[t->nssp].key = xalloc_strdup(key);
    t->ssp[t->nssp].canonical = canonical;
    t->ssp[t->nssp].field = (uint8_t)field;
    t->nssp++;
}

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
        s[--n] = '\0';
    size_t i = 0;
    while (s[i] == ' ' || s[i] == '\t')
        i++;
    memmove(s, s + i, n - i + 1);
}

bool db_names_load_spelling(db_names *t, const char *path, char *err, size_t errsize)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errsize, "%s: %s", path, strerror(errno));
        return false;
    }
    char line[2048];
    int field = -1;
    const char *canonical = NULL;
    while (fgets(line, sizeof line, f)) {
        char *hash = line[0] == '@' ? NULL : strchr(line, '#');
        if (hash)
            *hash = '\0';   /* player data: title, federation, [peak], birth */
        trim(line);
        if (line[0] == '\0' || line[0] == '%' || line[0] == '>')
            continue;
        if (line[0] == '@') {
            field = strncmp(line + 1, "PLAYER", 6) == 0 ? DB_NAME_PLAYER
                  : strncmp(line + 1, "EVENT", 5) == 0  ? DB_NAME_EVENT
                  : strncmp(line + 1, "SITE", 4) == 0   ? DB_NAME_SITE
                                                        : -1;
            canonical = NULL;
            continue;
        }
        if (field < 0)
            continue;
        if (line[0] == '=') {
            char *alias = line + 1;
            while (*alias == ' ')
                alias++;
            if (canonical)
                ssp_add(t, field, alias, canonical);
            continue;
        }
        canonical = keep_name(t, line);
        ssp_add(t, field, line, canonical);
    }
    bool ok = !ferror(f);
    if (!ok)
        snprintf(err, errsize, "%s: %s", path, strerror(errno));
    fclose(f);
    return ok;
}

static int ssp_order(const void *pa, const void *pb)
{
    const ssp_entry *a = pa, *b = pb;
    if (a->field != b->field)
        return a->field < b->field ? -1 : 1;
    return strcmp(a->key, b->key);
}

static const char *ssp_lookup(const db_names *t, int field, const char *key)
{
    size_t lo = 0, hi = t->nssp;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = t->ssp[mid].field != field ? (t->ssp[mid].field < field ? -1 : 1)
                                           : strcmp(t->ssp[mid].key, key);
        if (c == 0) {
            /* two canonical names for one key: ambiguous, none */
            const char *can = t->ssp[mid].canonical;
            for (size_t k = mid; k > 0 && t->ssp[k - 1].field == field &&
                                 strcmp(t->ssp[k - 1].key, key) == 0; k--)
                if (strcmp(t->ssp[k - 1].canonical, can) != 0)
                    return NULL;
            for (size_t k = mid + 1; k < t->nssp && t->ssp[k].field == field &&
                                     strcmp(t->ssp[k].key, key) == 0; k++)
                if (strcmp(t->ssp[k].canonical, can) != 0)
                    return NULL;
            return can;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* ------------------------------------------------------------------ grouping */

static int entry_order(const void *pa, const void *pb)
{
    const name_entry *a = pa, *b = pb;
    if (a->field != b->field)
        return a->field < b->field ? -1 : 1;
    int c = strcmp(a->key, b->key);
    return c ? c : strcmp(a->spelling, b->spelling);
}

/* Sorting the entries: an item is an entry's field and the first seven bytes of its key
 * in one number (byte order is strcmp's order; a shorter key pads with NUL, which is
 * smaller too), so most compares are one; equal prefixes fall back to entry_order. */
typedef struct sort_item {
    uint64_t prefix;
    uint32_t i;
} sort_item;

static bool item_before(const name_entry *e, const sort_item *a, const sort_item *b)
{
    if (a->prefix != b->prefix)
        return a->prefix < b->prefix;
    return entry_order(&e[a->i], &e[b->i]) < 0;
}

static void merge_sort(const name_entry *e, sort_item *a, sort_item *tmp, size_t n)
{
    if (n <= 8) {
        /* a short run: insertion costs fewer moves and calls than halving it */
        for (size_t i = 1; i < n; i++) {
            sort_item v = a[i];
            size_t j = i;
            for (; j > 0 && item_before(e, &v, &a[j - 1]); j--)
                a[j] = a[j - 1];
            a[j] = v;
        }
        return;
    }
    size_t h = n / 2;
    merge_sort(e, a, tmp, h);
    merge_sort(e, a + h, tmp, n - h);
    if (!item_before(e, &a[h], &a[h - 1]))
        return;                      /* the halves are in order already */
    memcpy(tmp, a, h * sizeof *a);   /* merge the left half back from tmp: the write
                                        never passes the right half's read */
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        a[k++] = item_before(e, &a[j], &tmp[i]) ? a[j++] : tmp[i++];
    while (i < h)
        a[k++] = tmp[i++];
}

/* Sort t->e by (field, key, spelling): the order qsort with entry_order gives (the
 * entries are distinct, so there are no ties), with fewer calls. */
static void sort_entries(db_names *t)
{
    size_t n = t->count;
    sort_item *items = xalloc_realloc(NULL, 2 * n * sizeof *items);
    for (size_t i = 0; i < n; i++) {
        uint64_t p = t->e[i].field;
        const unsigned char *k = (const unsigned char *)t->e[i].key;
        for (int b = 0; b < 7; b++) {
            p = p << 8 | *k;
            k += *k != '\0';
        }
        items[i].prefix = p;
        items[i].i = (uint32_t)i;
    }
    merge_sort(t->e, items, items + n, n);
    name_entry *sorted = xalloc_realloc(NULL, n * sizeof *sorted);
    for (size_t i = 0; i < n; i++)
        sorted[i] = t->e[items[i].i];
    free(t->e);
    t->e = sorted;
    t->cape = n;
    free(items);
}

static long find(keyset *s, long i)
{
    while (s[i].parent != i)
        i = s[i].parent = s[s[i].parent].parent;
    return i;
}

/* the first word of a key and its length */
static size_t first_word(const char *k)
{
    const char *sp = strchr(k, ' ');
    return sp ? (size_t)(sp - k) : strlen(k);
}

/* a is the better majority than b: more uses, then the longer key (a full name over an
 * initial), then byte order (stable whatever the input order) */
static bool better(const name_entry *a, const name_entry *b)
{
    if (a->count != b->count)
        return a->count > b->count;
    size_t la = strlen(a->key), lb = strlen(b->key);
    if (la != lb)
        return la > lb;
    return strcmp(a->spelling, b->spelling) < 0;
}

/* A given name folded over the usual transliterations of one name: kh/ch -> h, ph -> f,
 * w -> v, x -> ks, y -> i, a final ij -> i, a vowel run inside the word -> its first
 * vowel (ae, ai, ei), doubled letters once. Empty when the name is shorter than four
 * letters (short names such as Chinese given names differ by one letter: Yan, Yang). */
static void fold_given(const char *w, size_t n, char *out, size_t size)
{
    char a[64];
    size_t k = 0;
    out[0] = '\0';
    if (n < 4 || n >= sizeof a / 2)
        return;
    for (size_t i = 0; i < n; i++) {
        char c = w[i];
        if (c < 'a' || c > 'z')
            return;                  /* not a Latin name: no folding */
        char nx = i + 1 < n ? w[i + 1] : 0;
        if ((c == 'k' || c == 'c') && nx == 'h') { a[k++] = 'h'; i++; continue; }
        if (c == 'p' && nx == 'h') { a[k++] = 'f'; i++; continue; }
        if (c == 'x') { a[k++] = 'k'; a[k++] = 's'; continue; }
        if (c == 'w') c = 'v';
        if (c == 'y') c = 'i';
        if (c == 'j' && i + 1 == n && k > 0 && a[k - 1] == 'i')
            continue;
        a[k++] = c;
    }
    size_t o = 0;
    for (size_t i = 0; i < k && o + 1 < size; i++) {
        bool vowel = strchr("aeiou", a[i]) != NULL;
        if (o > 0 && out[o - 1] == a[i])
            continue;                /* doubled letter */
        if (vowel && o > 0 && strchr("aeiou", out[o - 1])) {
            size_t j = i;            /* a run of vowels: kept whole at the word's end */
            while (j < k && strchr("aeiou", a[j]))
                j++;
            if (j < k)
                continue;
        }
        out[o++] = a[i];
    }
    out[o] = '\0';
}

typedef struct loose_key { char *key; size_t set; } loose_key;

static int loose_order(const void *pa, const void *pb)
{
    const loose_key *a = pa, *b = pb;
    int c = strcmp(a->key, b->key);
    return c ? c : (a->set < b->set ? -1 : a->set > b->set);
}

/* KEY is ASCII: its first word is its surname key's (see join_transliterations) */
static bool ascii_key(const char *key)
{
    for (; *key; key++)
        if ((unsigned char)*key >= 0x80)
            return false;
    return true;
}

/* Two keys with the same first word. */
static bool same_first_word(const char *a, const char *b)
{
    size_t n = first_word(a);
    return first_word(b) == n && memcmp(a, b, n) == 0;
}

static void join_transliterations(db_names *t)
{
    /* the candidates: players' key sets written "Surname, Given" without an initial,
     * in key order, each with its first spelling with a comma */
    const name_entry **cand = xalloc_realloc(NULL, (t->nsets ? t->nsets : 1) * sizeof *cand);
    size_t *cand_set = xalloc_realloc(NULL, (t->nsets ? t->nsets : 1) * sizeof *cand_set);
    size_t nc = 0;
    for (size_t s = 0; s < t->nsets; s++) {
        const name_entry *e = NULL;
        for (size_t k = t->sets[s].first; k < t->sets[s].first + t->sets[s].n && !e; k++)
            if (strchr(t->e[k].spelling, ','))
                e = &t->e[k];
        if (!e || e->field != DB_NAME_PLAYER || db_name_has_initial(e->key))
            continue;
        cand[nc] = e;
        cand_set[nc++] = s;
    }
    loose_key *l = xalloc_realloc(NULL, (nc ? nc : 1) * sizeof *l);
    size_t nl = 0;
    for (size_t c = 0; c < nc; c++) {
        const name_entry *e = cand[c];
        size_t s = cand_set[c];
        /* Two sets join only when their surname keys are equal. The surname key's
         * first word is the whole key's (the same characters folded the same way up
         * to the comma, which ends a word) when that word is ASCII (CJK characters
         * run on over the comma), and the keys' order puts the sets of one first word
         * together: a set whose ASCII first word no neighbour shares has no partner,
         * and its loose key (two db_name_key calls) is not worked out. */
        if (ascii_key(e->key) && !(c > 0 && same_first_word(cand[c - 1]->key, e->key)) &&
            !(c + 1 < nc && same_first_word(cand[c + 1]->key, e->key)))
            continue;
        char sur[DB_NAME_KEY_MAX], given[DB_NAME_KEY_MAX], buf[DB_NAME_KEY_MAX * 2];
        const char *comma = strchr(e->spelling, ',');
        /* the surname as a string: on the stack when it fits (the pre-pass keeps values
         * under 1,200 bytes, db_names_add up to SPELLING_MAX) */
        char surname[DB_NAME_KEY_MAX * 2];
        size_t sl = (size_t)(comma - e->spelling);
        char *sp = sl < sizeof surname ? surname : xalloc_realloc(NULL, sl + 1);
        memcpy(sp, e->spelling, sl);
        sp[sl] = '\0';
        size_t o = db_name_key(sp, sur, sizeof sur);
        if (sp != surname)
            free(sp);
        db_name_key(comma + 1, given, sizeof given);
        if (!*sur || !*given)
            continue;
        /* "surname| given1 given2", folded; none when longer than buf */
        memcpy(buf, sur, o);
        buf[o++] = '|';
        bool ok = true;
        for (const char *p = given; *p && ok;) {
            size_t n = strcspn(p, " ");
            char f[64];
            fold_given(p, n, f, sizeof f);
            ok = *f != '\0';
            size_t fl = strlen(f);
            if (o + 1 + fl >= sizeof buf) {
                ok = false;
                break;
            }
            buf[o++] = ' ';
            memcpy(buf + o, f, fl);
            o += fl;
            p += n;
            while (*p == ' ')
                p++;
        }
        if (!ok)
            continue;
        l[nl].key = arena_strndup(&t->text, buf, o);
        l[nl].set = s;
        nl++;
    }
    free(cand);
    free(cand_set);
    if (nl > 1)
        qsort(l, nl, sizeof *l, loose_order);
    for (size_t i = 1; i < nl; i++)
        if (strcmp(l[i].key, l[i - 1].key) == 0)
            t->sets[find(t->sets, (long)l[i].set)].parent = find(t->sets, (long)l[i - 1].set);
    free(l);
}

static void build_index(db_names *t);
static const char *entry_canonical(const db_names *t, const name_entry *e,
                                   const name_entry **from);

/* The key of a spelling-file name, kept once for the run. */
static const char *ssp_name_key(db_names *t, const char *name)
{
    char key[DB_NAME_KEY_MAX];
    db_name_key(name, key, sizeof key);
    t->ssp_keys = xalloc_realloc(t->ssp_keys, (t->nsspkeys + 1) * sizeof *t->ssp_keys);
    return t->ssp_keys[t->nsspkeys++] = xalloc_strdup(key);
}

/* What twin keys compare for entry e: the key of its canonical spelling (worked out
 * once here, not for every game). */
static const char *twin_key_of(db_names *t, const name_entry *e)
{
    const name_entry *from;
    const char *c = entry_canonical(t, e, &from);
    if (!c)
        return e->key;
    return from ? from->key : ssp_name_key(t, c);
}

void db_names_group(db_names *t)
{
    if (t->grouped)
        return;
    /* sort by (field, key) */
    size_t n = t->count;
    free(t->slots);
    t->slots = NULL;
    for (size_t i = 0; i < n; i++) {
        char key[DB_NAME_KEY_MAX];
        size_t len = db_name_key(t->e[i].spelling, key, sizeof key);
        t->e[i].key = arena_strndup(&t->text, key, len);
    }
    if (n > 1)
        sort_entries(t);
    if (t->nssp > 1)
        qsort(t->ssp, t->nssp, sizeof *t->ssp, ssp_order);
    t->grouped = true;
    build_index(t);
    /* key sets */
    t->sets = xalloc_realloc(NULL, (n ? n : 1) * sizeof *t->sets);
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && t->e[j].field == t->e[i].field && strcmp(t->e[j].key, t->e[i].key) == 0)
            j++;
        keyset *s = &t->sets[t->nsets];
        s->first = i;
        s->n = j - i;
        s->parent = (long)t->nsets;
        for (size_t k = i; k < j; k++)
            t->e[k].keyset = (long)t->nsets;
        t->nsets++;
        i = j;
    }
    /* players whose given names are two transliterations of one ("Botvinnik, Mikhail"
     * and "Botvinnik, Michael", "Naiditsch, Arkadij" and "Naiditsch, Arkadi") */
    join_transliterations(t);
    /* players written with an initial: joined to the one full name that fits, among
     * the key sets of the same surname (contiguous: sorted by key) */
    for (size_t s = 0; s < t->nsets; s++) {
        const name_entry *a = &t->e[t->sets[s].first];
        if (a->field != DB_NAME_PLAYER || !*a->key || !db_name_has_initial(a->key))
            continue;
        size_t fw = first_word(a->key);
        long fit = -1;
        int fits = 0;
        /* scan the neighbours with the same first word */
        size_t lo = s;
        while (lo > 0 && t->e[t->sets[lo - 1].first].field == a->field &&
               first_word(t->e[t->sets[lo - 1].first].key) == fw &&
               strncmp(t->e[t->sets[lo - 1].first].key, a->key, fw) == 0)
            lo--;
        for (size_t o = lo; o < t->nsets; o++) {
            const name_entry *b = &t->e[t->sets[o].first];
            if (b->field != a->field || first_word(b->key) != fw ||
                strncmp(b->key, a->key, fw) != 0)
                break;
            if (o == s || !db_name_compatible(a->key, b->key))
                continue;
            if (db_name_has_initial(b->key))
                continue;            /* another abbreviation: says nothing */
            long root = find(t->sets, (long)o);
            if (fits == 0 || root != fit)   /* spellings already one person count once */
                fits++;
            fit = root;
        }
        if (fits == 1)
            t->sets[find(t->sets, (long)s)].parent = find(t->sets, fit);
    }
    /* groups: roots with two spellings or more */
    t->set_group = xalloc_realloc(NULL, (t->nsets ? t->nsets : 1) * sizeof *t->set_group);
    for (size_t s = 0; s < t->nsets; s++)
        t->set_group[s] = -1;
    long *root_group = xalloc_realloc(NULL, (t->nsets ? t->nsets : 1) * sizeof *root_group);
    uint32_t *root_spellings = xalloc_realloc(NULL, (t->nsets ? t->nsets : 1) * sizeof *root_spellings);
    for (size_t s = 0; s < t->nsets; s++) {
        root_group[s] = -1;
        root_spellings[s] = 0;
    }
    for (size_t s = 0; s < t->nsets; s++)
        if (*t->e[t->sets[s].first].key)
            root_spellings[find(t->sets, (long)s)] += (uint32_t)t->sets[s].n;
    t->groups = xalloc_realloc(NULL, (t->nsets ? t->nsets : 1) * sizeof *t->groups);
    for (size_t s = 0; s < t->nsets; s++) {
        long r = find(t->sets, (long)s);
        if (root_spellings[r] < 2)
            continue;
        if (root_group[r] < 0) {
            root_group[r] = (long)t->ngroups;
            name_group *g = &t->groups[t->ngroups++];
            g->majority = t->sets[s].first;
            g->spellings = 0;
            g->uses = 0;
        }
        name_group *g = &t->groups[root_group[r]];
        t->set_group[s] = root_group[r];
        for (size_t k = t->sets[s].first; k < t->sets[s].first + t->sets[s].n; k++) {
            g->spellings++;
            g->uses += t->e[k].count;
            if (better(&t->e[k], &t->e[g->majority]))
                g->majority = k;
        }
    }
    free(root_group);
    free(root_spellings);
    /* two spellings of one group that met over the board are two people: the group
     * is no group (the data tells them apart) */
    uint32_t *sorted = xalloc_realloc(NULL, (n ? n : 1) * sizeof *sorted);
    for (size_t i = 0; i < n; i++)
        sorted[t->e[i].first] = (uint32_t)i;   /* counting order -> sorted entry */
    for (size_t i = 0; i + 1 < t->npairs; i += 2) {
        long ga = t->set_group[t->e[sorted[t->pairs[i]]].keyset];
        if (ga < 0 || ga != t->set_group[t->e[sorted[t->pairs[i + 1]]].keyset])
            continue;
        for (size_t k = 0; k < t->nsets; k++)
            if (t->set_group[k] == ga)
                t->set_group[k] = -1;
        t->groups[ga].spellings = 0;
    }
    free(sorted);
    /* the spelling file's canonical names */
    for (size_t i = 0; i < n && t->nssp; i++)
        t->e[i].canonical = ssp_lookup(t, t->e[i].field, t->e[i].key);
    for (size_t i = 0; i < n; i++) {
        t->e[i].twin_key = twin_key_of(t, &t->e[i]);
        t->e[i].twin_key_len = (uint16_t)strlen(t->e[i].twin_key);
    }
}

/* Every game asks for its players' entries: a hash of the spelling as written finds
 * them without working out its key again (an entry is one field and spelling). */
static void build_index(db_names *t)
{
    t->index_cap = 16;
    while (t->index_cap < 2 * t->count)
        t->index_cap *= 2;
    t->index = xalloc_zeroed(t->index_cap * sizeof *t->index);
    for (size_t i = 0; i < t->count; i++) {
        size_t j = t->e[i].hash & (t->index_cap - 1);
        while (t->index[j])
            j = (j + 1) & (t->index_cap - 1);
        t->index[j] = i + 1;
    }
}

/* The entries a thread found last: a game asks for its names twice (db_names_check,
 * then its twin keys) and a tournament's games share Event and Site, so a strcmp
 * answers most lookups without a hash. Per thread: the table stays read-only; the id
 * tells a table from a later one at the same address. */
typedef struct lookup_memo {
    unsigned long table;
    const name_entry *e[DB_NAME_FIELDS][2];   /* per field, the last found first */
} lookup_memo;
static _Thread_local lookup_memo memo;

/* The entry of SPELLING (LEN bytes) in FIELD, or NULL. */
static const name_entry *lookup_n(const db_names *t, int field, const char *spelling, size_t len)
{
    if (!t->grouped || !len)
        return NULL;
    lookup_memo *m = &memo;
    if (m->table != t->id) {
        memset(m, 0, sizeof *m);
        m->table = t->id;
    }
    const name_entry **seen = m->e[field];
    /* the lengths first: a different name mostly has another, and an equal one is
     * told by a compare of known length, not a strcmp */
    for (int k = 0; k < 2 && seen[k]; k++)
        if (seen[k]->len == len && seen[k]->spelling[0] == spelling[0] &&
            names_same_bytes(seen[k]->spelling, spelling, len))
            return seen[k];
    uint32_t h = (uint32_t)hash_name_n(field, spelling, len);
    for (size_t j = h & (t->index_cap - 1); t->index[j]; j = (j + 1) & (t->index_cap - 1)) {
        const name_entry *e = &t->e[t->index[j] - 1];
        /* the hash and length first, then the bytes: cheaper than strcmp on short names */
        if (e->hash == h && e->field == field && e->len == len &&
            names_same_bytes(e->spelling, spelling, len)) {
            seen[1] = seen[0];
            seen[0] = e;
            return e;
        }
    }
    return NULL;
}

static const name_entry *lookup(const db_names *t, int field, const char *spelling)
{
    return spelling ? lookup_n(t, field, spelling, strlen(spelling)) : NULL;
}

long db_names_group_of(const db_names *t, db_name_field field, const char *spelling)
{
    const name_entry *e = lookup(t, (int)field, spelling);
    return e ? t->set_group[e->keyset] : -1;
}

size_t db_names_group_count(const db_names *t)
{
    size_t n = 0;
    for (size_t i = 0; t && i < t->ngroups; i++)
        n += t->groups[i].spellings > 0;
    return n;
}

/* The canonical spelling of entry e, or NULL (see db_names_canonical); *from: the
 * entry whose spelling it is, NULL for a spelling file's name. */
static const char *entry_canonical(const db_names *t, const name_entry *e,
                                   const name_entry **from)
{
    *from = NULL;
    if (e->canonical)
        return strcmp(e->canonical, e->spelling) != 0 ? e->canonical : NULL;
    long g = t->set_group[e->keyset];
    if (g < 0)
        return NULL;
    const name_entry *m = &t->e[t->groups[g].majority];
    /* the group's spellings all agree with the spelling file, or none is in it */
    if (m == e)
        return NULL;
    if (m->canonical)
        return m->canonical;
    *from = m;
    return m->spelling;
}

const char *db_names_canonical(const db_names *t, db_name_field field, const char *spelling)
{
    const name_entry *e = lookup(t, (int)field, spelling);
    const name_entry *from;
    return e ? entry_canonical(t, e, &from) : NULL;
}

const char *db_names_twin_key(const db_names *t, db_name_field field, const char *spelling)
{
    const name_entry *e = lookup(t, (int)field, spelling);
    return e ? e->twin_key : NULL;
}

/* The twin key of entry E into the slot of FOUND for a tag of name field ID. */
static void found_set(db_game_names *found, unsigned id, const name_entry *e)
{
    switch (id) {
    case REC_TAG_EVENT: found->event = e->twin_key; found->event_len = e->twin_key_len; break;
    case REC_TAG_SITE: found->site = e->twin_key; found->site_len = e->twin_key_len; break;
    case REC_TAG_WHITE: found->white = e->twin_key; found->white_len = e->twin_key_len; break;
    case REC_TAG_BLACK: found->black = e->twin_key; found->black_len = e->twin_key_len; break;
    default: found->red = e->twin_key; found->red_len = e->twin_key_len; break;
    }
}

/* The spelling entry E of a tag valued VALUE is a variant: the spelling it should
 * have (the spelling file's, else its group's majority's), or NULL. */
static const char *variant_to(const db_names *t, const name_entry *e, const char *value)
{
    if (e->canonical)
        return strcmp(e->canonical, value) != 0 ? e->canonical : NULL;
    long gi = t->set_group[e->keyset];
    if (gi < 0 || &t->e[t->groups[gi].majority] == e)
        return NULL;
    const name_entry *m = &t->e[t->groups[gi].majority];
    return m->canonical ? m->canonical : m->spelling;
}

/* The rec_tag_id bits of the name tags. */
#define NAME_TAG_IDS                                                                        \
    (1u << REC_TAG_EVENT | 1u << REC_TAG_SITE | 1u << REC_TAG_WHITE | 1u << REC_TAG_BLACK | \
     1u << REC_TAG_RED)

/* db_names_check of a game whose name tags are each given once, the first pass: their
 * entries from the tag slots (no walk of the tags) and their twin keys into NAMES;
 * false when one of them is a variant, for the walk that adds the findings in tag
 * order (rare; a binary input's tags have no lines to sort them by). */
static bool check_slots(const db_names *t, const rec_game *g, db_game_names *names)
{
    for (uint32_t have = g->tag_known & NAME_TAG_IDS; have; have &= have - 1) {
        unsigned id = (unsigned)__builtin_ctz(have);
        const rec_tag *tag = g->tag_first[id];
        const name_entry *e = lookup_n(t, field_of_id(id), tag->value, tag->value_len);
        if (!e)
            continue;
        if (variant_to(t, e, tag->value))
            return false;
        if (names)
            found_set(names, id, e);
    }
    return true;
}

unsigned db_names_check(const db_names *t, rec_game *g, db_game_names *names)
{
    unsigned found = 0, seen = 0;
    if (names)
        memset(names, 0, sizeof *names);
    if (!t || !t->grouped)
        return 0;
    if (!(g->tag_repeated & NAME_TAG_IDS)) {
        if (check_slots(t, g, names))
            return 0;
        if (names)
            memset(names, 0, sizeof *names);
    }
    for (const rec_tag *tag = g->tags; tag; tag = tag->next) {
        int field = field_of_id(tag->id);
        if (field < 0)
            continue;
        const name_entry *e = lookup_n(t, field, tag->value, tag->value_len);
        /* the first tag of its name, as rec_game_tag, fills the slot */
        bool first = !(seen & 1u << tag->id);
        seen |= 1u << tag->id;
        if (!e)
            continue;
        if (names && first)
            found_set(names, tag->id, e);
        const char *to = variant_to(t, e, tag->value);
        if (!to)
            continue;
        rec_finding *f;
        if (e->canonical) {
            f = rec_game_add_finding(g, "name-variant", REC_INFO, tag->where,
                                     _("%s \"%s\" is spelt \"%s\" in the spelling file"),
                                     tag->name, tag->value, to);
        } else {
            long gi = t->set_group[e->keyset];
            const name_entry *m = &t->e[t->groups[gi].majority];
            f = rec_game_add_finding(g, "name-variant", REC_INFO, tag->where,
                                     _("%s \"%s\" is written \"%s\" in most of the run's "
                                       "games (%u of %llu uses of this name)"),
                                     tag->name, tag->value, to, m->count,
                                     (unsigned long long)t->groups[gi].uses);
        }
        f->tag = tag->name;
        f->value = tag->value;
        f->suggestions = arena_alloc(g->arena, sizeof *f->suggestions);
        f->suggestions[0] = arena_strdup(g->arena, to);
        f->suggestion_count = 1;
        found++;
    }
    if (found)
        rec_game_sort_findings(g);
    return found;
}

/* ------------------------------------------------------------------ the table */

static void put_quoted(FILE *out, const char *s, bool json)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(out, json ? "\\u%04x" : "\\x%02x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

static const char *const field_names[] = {"player", "event", "site"};

/* groups in output order: field, then majority spelling */
static int group_cmp_ctx(const db_names *t, size_t a, size_t b)
{
    const name_entry *ea = &t->e[t->groups[a].majority], *eb = &t->e[t->groups[b].majority];
    if (ea->field != eb->field)
        return ea->field < eb->field ? -1 : 1;
    return strcmp(ea->spelling, eb->spelling);
}

static size_t *group_order(const db_names *t)
{
    size_t *o = xalloc_realloc(NULL, (t->ngroups ? t->ngroups : 1) * sizeof *o);
    for (size_t i = 0; i < t->ngroups; i++)
        o[i] = i;
    /* insertion sort: groups are few */
    for (size_t i = 1; i < t->ngroups; i++) {
        size_t v = o[i], j = i;
        while (j > 0 && group_cmp_ctx(t, o[j - 1], v) > 0) {
            o[j] = o[j - 1];
            j--;
        }
        o[j] = v;
    }
    return o;
}

static bool write_table(const db_names *t, FILE *out, bool json)
{
    if (!t || db_names_group_count(t) == 0)
        return true;
    size_t *order = group_order(t), shown = 0;
    fputs(json ? "{\"name_variants\":[" : "---\nname_variants:\n", out);
    for (size_t i = 0; i < t->ngroups; i++) {
        size_t gi = order[i];
        const name_group *g = &t->groups[gi];
        const name_entry *m = &t->e[g->majority];
        if (g->spellings == 0)
            continue;             /* dissolved: two people */
        if (json) {
            fprintf(out, "%s{\"field\":\"%s\",\"name\":", shown++ ? "," : "", field_names[m->field]);
            put_quoted(out, m->canonical ? m->canonical : m->spelling, true);
            fprintf(out, ",\"uses\":%llu,\"spellings\":[", (unsigned long long)g->uses);
        } else {
            fprintf(out, "- field: %s\n  name: ", field_names[m->field]);
            put_quoted(out, m->canonical ? m->canonical : m->spelling, false);
            fprintf(out, "\n  uses: %llu\n  spellings:\n", (unsigned long long)g->uses);
        }
        bool first = true;
        for (size_t k = 0; k < t->count; k++) {
            if (t->set_group[t->e[k].keyset] != (long)gi)
                continue;
            if (json) {
                fputs(first ? "{\"spelling\":" : ",{\"spelling\":", out);
                put_quoted(out, t->e[k].spelling, true);
                fprintf(out, ",\"uses\":%u}", t->e[k].count);
            } else {
                fputs("  - spelling: ", out);
                put_quoted(out, t->e[k].spelling, false);
                fprintf(out, "\n    uses: %u\n", t->e[k].count);
            }
            first = false;
        }
        if (json)
            fputs("]}", out);
    }
    if (json)
        fputs("]}\n", out);
    free(order);
    return !ferror(out);
}

bool db_names_write_yaml(const db_names *t, FILE *out)
{
    return write_table(t, out, false);
}

bool db_names_write_jsonl(const db_names *t, FILE *out)
{
    return write_table(t, out, true);
}
