/* db_names_internal.h: the run's names table as db_names_run.c (counting, grouping,
 * checking, the table) and db_names_scan.c (the pre-pass over the inputs' tag lines)
 * share it. Not for other modules: db_names.h is the interface. */
#ifndef ARBITER_DB_NAMES_INTERNAL_H
#define ARBITER_DB_NAMES_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "database/db_names.h"
#include "record/arena.h"
#include "record/bytes8.h"

/* Whether the N bytes at A and B are equal: 8 to 16 bytes (most names) in two
 * overlapping loads each, no call; else memcmp. */
static inline bool names_same_bytes(const char *a, const char *b, size_t n)
{
    if (n - 8 <= 8)
        return bytes8_load(a) == bytes8_load(b) &&
               bytes8_load(a + n - 8) == bytes8_load(b + n - 8);
    return memcmp(a, b, n) == 0;
}

typedef struct name_entry {
    char *spelling;           /* in the table's arena, as the key */
    char *key;
    const char *twin_key;     /* after grouping: the key of the canonical spelling (twin
                                 keys compare players by it), key or a key of ssp_keys */
    uint16_t twin_key_len;    /* its strlen (< DB_NAME_KEY_MAX) */
    uint8_t field;
    bool plain;               /* the pre-pass read the spelling as the bytes of a value
                                 (ASCII, no escape): see scan_value */
    uint16_t len;             /* of spelling */
    uint32_t count;           /* uses in the run */
    uint32_t hash;            /* of (field, spelling), to regrow the table */
    uint32_t first;           /* its place in counting order (pairs name entries so) */
    long keyset;              /* index of its key set after grouping */
    const char *canonical;    /* the spelling file's name for it, or NULL */
} name_entry;

typedef struct keyset {
    size_t first, n;          /* entries sorted by (field, key): [first, first + n) */
    long parent;              /* union-find */
} keyset;

typedef struct name_group {
    size_t majority;          /* entry index (sorted order) */
    uint32_t spellings;
    uint64_t uses;
} name_group;

typedef struct ssp_entry {
    char *key;
    const char *canonical;
    uint8_t field;
} ssp_entry;

struct db_names {
    name_entry *e;            /* in counting order, sorted by grouping */
    size_t count, cape;
    uint32_t *slots;          /* before grouping: (field, spelling) hash -> entry + 1 */
    size_t cap;               /* of slots: a power of two over twice count */
    long last[DB_NAME_FIELDS];/* the entry counted last per field, or -1: a tournament
                                 file repeats its Event and Site game after game */
    arena text;               /* spellings and keys: one block, not a malloc each */
    unsigned long id;         /* this table among the process's (lookup_memo) */
    bool grouped;
    keyset *sets;
    size_t nsets;
    long *set_group;          /* key set -> group index or -1 */
    name_group *groups;
    size_t ngroups;
    long *group_of_entry;     /* sorted entry -> group or -1 */
    size_t *index;            /* after grouping: (field, spelling) hash -> sorted entry + 1 */
    size_t index_cap;         /* a power of two over twice count; 0 before grouping */
    ssp_entry *ssp;
    size_t nssp, capssp;
    char **ssp_names;         /* canonical strings owned */
    size_t nnames, capnames;
    char **ssp_keys;          /* keys of spelling-file names that are no entry's */
    size_t nsspkeys;
    uint32_t *pairs;          /* opponents of one game, two by two: two people (entries
                                 in counting order) */
    size_t npairs, cappairs;
    long white;               /* the current tag section's first player (entry), or -1 */
};

/* Count one use of SPELLING (LEN bytes) in FIELD; returns its entry (counting order). */
long db_names_count_use(db_names *t, int field, const char *spelling, size_t len);

/* Count the tag lines of the plain file at PATH as db_names_scan would, scanning it in
 * parts by threads: a part starts at the first line at or after each of the N offsets
 * WANT (ascending) that opens with '[' after a line without one (none found: one part
 * less). Returns the parts; 0, nothing counted, when the file cannot be read. For the
 * tests: check splits a plain file so when it has cores to spare (db_names_scan_all). */
int db_names_scan_parts(db_names *t, const char *path, const uint64_t *want, int n);

#endif
