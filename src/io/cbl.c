/* cbl.c: CBL libraries, the plain kind and the index walk. See cbl.h and
 * ../shared/reference/database-maintenance.md §4. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "io/cbl.h"
#include "io/ccb.h"

bool cbl_sniff(const unsigned char *bytes, size_t len)
{
    if (len >= 16 && memcmp(bytes, CBL_MAGIC, 16) == 0)
        return true;
    /* the compressed kind: "CCBridge", then 21 and 3 as 32-bit numbers */
    static const unsigned char packed[16] = {'C', 'C', 'B', 'r', 'i', 'd', 'g', 'e',
                                             21, 0, 0, 0, 3, 0, 0, 0};
    return len >= 16 && memcmp(bytes, packed, 16) == 0;
}

static uint32_t u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* One used index entry. */
typedef struct entry {
    uint64_t entry_at;       /* the entry in the index */
    uint64_t offset;         /* the record */
    uint32_t slots, length, type;
} entry;

struct cbl_library {
    const unsigned char *data;
    size_t len;
    arena names;             /* the library name */
    const char *name;
    entry *entries;
    size_t count;
    cbl_packed_index *packed;
    /* a header that could not be read: one game with this error */
    char error[256];
    uint64_t error_at;
};

static void fail(cbl_library *l, uint64_t at, const char *msg)
{
    snprintf(l->error, sizeof l->error, "%s", msg);
    l->error_at = at;
}

static void open_plain(cbl_library *l)
{
    const unsigned char *d = l->data;
    if (l->len < CBL_INDEX) {
        fail(l, l->len, _("the library ends inside its 66,624-byte header"));
        return;
    }
    bool bad;
    l->name = ccb_utf16(&l->names, d + 64, 512, true, &bad);
    uint32_t cap = u32(d + 60);
    uint64_t data_at = (uint64_t)CBL_INDEX + (uint64_t)CBL_ENTRY * cap;
    if (cap == 0 || data_at > l->len) {
        char msg[200];
        snprintf(msg, sizeof msg,
                 _("the index capacity (%lu entries) does not fit in the file; no record can "
                   "be found"), (unsigned long)cap);
        fail(l, 60, msg);
        return;
    }
    l->entries = malloc(cap * sizeof *l->entries);
    if (!l->entries) {
        fail(l, 60, _("out of memory"));
        return;
    }
    uint64_t slot = 0;
    for (uint32_t i = 0; i < cap; i++) {
        const unsigned char *e = d + CBL_INDEX + (size_t)CBL_ENTRY * i;
        uint32_t type = u32(e);
        if (type == 0)
            continue;
        entry *x = &l->entries[l->count++];
        x->entry_at = CBL_INDEX + (uint64_t)CBL_ENTRY * i;
        x->type = type;
        x->slots = u32(e + 8);
        x->length = u32(e + 12);
        x->offset = data_at + slot * CBL_SLOT;
        slot += x->slots;
    }
    if (l->count == 0)
        fail(l, CBL_INDEX, _("the index has no used entry: the library holds no record"));
}

cbl_library *cbl_open(const unsigned char *data, size_t len)
{
    cbl_library *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    l->data = data;
    l->len = len;
    arena_init(&l->names);
    l->name = "";
    if (len >= 16 && memcmp(data, CBL_MAGIC, 16) == 0) {
        open_plain(l);
    } else if (cbl_sniff(data, len)) {
        char *name = NULL;
        l->packed = cbl_packed_open(data, len, &name, l->error, sizeof l->error, &l->error_at);
        if (name) {
            l->name = arena_strdup(&l->names, name);
            free(name);
        }
    } else {
        fail(l, 0, _("not a CBL library: it starts with neither \"CCBridgeLibrary\" nor "
                     "\"CCBridge\""));
    }
    return l;
}

size_t cbl_count(const cbl_library *l)
{
    if (l->error[0])
        return 1;
    return l->packed ? cbl_packed_count(l->packed) : l->count;
}

bool cbl_packed(const cbl_library *l)
{
    return l->packed != NULL;
}

const char *cbl_name(const cbl_library *l)
{
    return l->name;
}

void cbl_event_fallback(rec_game *g, const char *library)
{
    if (library && *library && !rec_game_tag(g, "Event"))
        rec_game_add_tag(g, "Event", library, ccb_at(g->start.offset));
}

static void plain_game(cbl_library *l, size_t k, rec_game *g, arena *a, cbr_counts *c)
{
    const entry *x = &l->entries[k];
    g->kind = REC_XIANGQI;
    g->start = ccb_at(x->offset);
    g->end = ccb_at(x->offset);
    if (c)
        memset(c, 0, sizeof *c);
    if (x->offset >= l->len) {
        rec_game_add_finding(g, "bad-cbl", REC_ERROR, ccb_at(x->entry_at),
                             _("index entry %zu places its record at offset %llu, past the end "
                               "of the library (%zu bytes)"), k + 1,
                             (unsigned long long)x->offset, l->len);
        return;
    }
    uint64_t room = (uint64_t)x->slots * CBL_SLOT;
    uint64_t len = x->length;
    if (len > room) {
        rec_game_add_finding(g, "bad-cbl", REC_ERROR, ccb_at(x->entry_at + 12),
                             _("index entry %zu gives a record of %lu bytes in %lu slots of "
                               "4,096 bytes; read to the end of its slots"), k + 1,
                             (unsigned long)x->length, (unsigned long)x->slots);
        len = room;
    }
    if (len > l->len - x->offset) {
        rec_game_add_finding(g, "bad-cbl", REC_ERROR, ccb_at(x->entry_at + 12),
                             _("the record of index entry %zu (%llu bytes at offset %llu) runs "
                               "past the end of the library; read to the end"), k + 1,
                             (unsigned long long)len, (unsigned long long)x->offset);
        len = l->len - x->offset;
    }
    cbr_decode(l->data + x->offset, (size_t)len, x->offset, true, g, a, c);
    cbl_event_fallback(g, l->name);
    if (g->main.first == NULL && g->error_count == 0)
        rec_game_add_finding(g, "cbl-heading", REC_INFO, ccb_at(x->offset),
                             _("record %zu of the library has no moves (a section heading?); "
                               "kept as a game without moves"), k + 1);
}

void cbl_game(cbl_library *l, size_t k, rec_game *g, arena *a, cbr_counts *c)
{
    if (l->error[0]) {
        g->kind = REC_XIANGQI;
        g->start = g->end = ccb_at(l->error_at);
        if (c)
            memset(c, 0, sizeof *c);
        rec_game_add_finding(g, "bad-cbl", REC_ERROR, ccb_at(l->error_at), "%s", l->error);
        return;
    }
    if (l->packed)
        cbl_packed_game(l->packed, k, l->name, g, a, c);
    else
        plain_game(l, k, g, a, c);
}

void cbl_close(cbl_library *l)
{
    if (!l)
        return;
    if (l->packed)
        cbl_packed_close(l->packed);
    free(l->entries);
    arena_free(&l->names);
    free(l);
}
