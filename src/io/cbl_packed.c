/* cbl_packed.c: the compressed CBL kind. See cbl.h.
 *
 * No description of this kind exists; the layout below was worked out from the one
 * sample (残局的生死棋型.CBL: 41,674 bytes, 118,621 inflated, 196 records, 5,137 moves,
 * 276 alternatives). File: "CCBridge", u32 21, u32 3, u32 inflated size, zlib data.
 * Inflated, all integers little-endian, text GBK with a u32 byte count before it:
 *
 *   library   name; four texts (empty in the sample: source, creator, e-mail...?);
 *             created and modified, 19 characters each ("2009-02-01 17:14:02");
 *             u32 record count; a text (empty: the remark?); then the records.
 *   record    u32 length of the whole record, this field included (certain: the 196
 *             lengths tile the data exactly);
 *             +4: 32 squares in XQF slot order (R N B A K A B N R C C P P P P P, then
 *             Black's), (column + 1) * 16 + (row + 1), row 0 at Black's back rank,
 *             0 = not on the board (certain: every position replays);
 *             +36: u32 4, 0, 1 in every record (meaning unknown);
 *             +48: title; six texts (all empty); u32 result as in CBR (1, 2, 3 seen);
 *             four texts (all empty); the game comment (shown before the first move);
 *             u8 side to move, 1 Red, 0 Black (certain: the first move's piece agrees
 *             in all 196); created and modified (19 characters each);
 *             u32 node count N; N nodes of 6 bytes: u16 ply (1 = the first move), from,
 *             to (column * 16 + row), two bytes of the move in Chinese notation (piece
 *             and file, direction and file or distance; redundant, not read);
 *             N comments, each ended by CR LF (empty for a node without one).
 *   tree      depth first, a move before its continuation, alternatives after the
 *             subtree: a node whose ply is not one more than the previous node's is an
 *             alternative to the move at that ply on the current line (certain: all
 *             lines replay legally).
 *
 * What stays unsure: which header field each empty text is (none is filled in the
 * sample: their contents are kept as tags CBLText1..CBLText10 when not empty), the
 * three numbers at +36, whether the library's last u32 is a remark length, and how a
 * comment holding CR LF would be stored ("||" appears where a paragraph break would be;
 * kept as written). */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef HAVE_ZLIB
#include <zlib.h>
#endif

#include "i18n/i18n.h"
#include "io/cbl.h"
#include "io/ccb.h"
#include "io/gbk.h"

static uint32_t u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

typedef struct rec_at {
    size_t offset, length;
} rec_at;

struct cbl_packed_index {
    unsigned char *data;     /* inflated */
    size_t len;
    rec_at *records;
    size_t count;
    char error[200];         /* the data did not inflate whole: on the first game */
    char record_error[200];  /* a record whose length does not fit: its game holds this
                              * error, and it is the last */
};

/* A cursor over one record's bytes. */
typedef struct cur {
    const unsigned char *d;
    size_t p, end;
    bool short_;             /* a field ran past the end */
    size_t short_at;
} cur;

static bool need(cur *c, size_t n)
{
    if (c->short_ || c->end - c->p < n) {
        if (!c->short_)
            c->short_at = c->p;
        c->short_ = true;
        return false;
    }
    return true;
}

static uint32_t take32(cur *c)
{
    if (!need(c, 4))
        return 0;
    uint32_t v = u32(c->d + c->p);
    c->p += 4;
    return v;
}

/* A counted GBK text as UTF-8 ("" when empty or cut). */
static const char *text(cur *c, arena *a, size_t *at)
{
    uint32_t n = take32(c);
    *at = c->p;
    if (!need(c, n))
        return "";
    const unsigned char *s = c->d + c->p;
    c->p += n;
    while (n > 0 && s[n - 1] == '\0')
        n--;
    return n ? gbk_to_utf8(a, s, n, NULL) : "";
}

cbl_packed_index *cbl_packed_open(const unsigned char *data, size_t len, char **name,
                                  char *err, size_t errsize, uint64_t *err_at)
{
    *name = NULL;
    *err_at = 0;
    uint32_t size = len >= 20 ? u32(data + 16) : 0;
    if (len < 20) {
        snprintf(err, errsize, _("the compressed library ends inside its 20-byte header"));
        *err_at = len;
        return NULL;
    }
    if (size == 0 || size > CBL_PACKED_MAX) {
        snprintf(err, errsize, _("the compressed library says it inflates to %lu bytes; at "
                                 "most %u are accepted"), (unsigned long)size, CBL_PACKED_MAX);
        *err_at = 16;
        return NULL;
    }
#ifndef HAVE_ZLIB
    snprintf(err, errsize, _("a compressed CBL library, but this arbiter was built without "
                             "zlib (install zlib1g-dev and rebuild)"));
    return NULL;
#else
    cbl_packed_index *p = calloc(1, sizeof *p);
    unsigned char *out = malloc(size);
    if (!p || !out) {
        free(p);
        free(out);
        snprintf(err, errsize, _("out of memory"));
        return NULL;
    }
    z_stream z;
    memset(&z, 0, sizeof z);
    int rc = inflateInit(&z);
    size_t got = 0;
    if (rc == Z_OK) {
        z.next_in = (Bytef *)(uintptr_t)(data + 20);
        z.next_out = out;
        size_t in_left = len - 20, out_left = size;
        /* feed in pieces that fit a uInt, whatever the sizes */
        do {
            uInt in = in_left > 1u << 30 ? 1u << 30 : (uInt)in_left;
            uInt room = out_left > 1u << 30 ? 1u << 30 : (uInt)out_left;
            z.avail_in = in;
            z.avail_out = room;
            rc = inflate(&z, Z_NO_FLUSH);
            in_left -= in - z.avail_in;
            out_left -= room - z.avail_out;
        } while (rc == Z_OK && out_left > 0 && in_left > 0);
        got = size - out_left;
        inflateEnd(&z);
    }
    p->data = out;
    p->len = got;
    if (rc != Z_STREAM_END || got != size) {
        snprintf(p->error, sizeof p->error,
                 _("the compressed data inflates to %zu bytes, not the %lu the header says "
                   "(corrupt or cut short); the records inside are read"), got,
                 (unsigned long)size);
    }
    /* the library header */
    arena a;
    arena_init(&a);
    cur c = {out, 0, got, false, 0};
    size_t at;
    const char *n = text(&c, &a, &at);
    *name = strdup(n);
    for (int i = 0; i < 4; i++)
        (void)text(&c, &a, &at);
    if (need(&c, 38))
        c.p += 38;
    uint32_t declared = take32(&c);
    (void)text(&c, &a, &at);
    arena_free(&a);
    if (c.short_) {
        free(p->data);
        free(p);
        free(*name);
        *name = NULL;
        snprintf(err, errsize, _("the inflated library ends inside its header"));
        *err_at = c.short_at;
        return NULL;
    }
    /* the records tile the rest: a u32 length each */
    size_t cap = declared < 65536 ? declared + 1 : 65536;
    p->records = malloc(cap * sizeof *p->records);
    if (!p->records) {
        free(p->data);
        free(p);
        snprintf(err, errsize, _("out of memory"));
        return NULL;
    }
    size_t q = c.p;
    while (q < got) {
        size_t left = got - q;
        uint32_t l = left >= 4 ? u32(out + q) : 0;
        if (p->count == cap) {
            rec_at *r = realloc(p->records, cap * 2 * sizeof *r);
            if (!r)
                break;
            p->records = r;
            cap *= 2;
        }
        if (left < 4 || l < 52 || l > left) {
            /* nothing after it can be found: this record holds the error and ends it */
            snprintf(p->record_error, sizeof p->record_error,
                         _("record %zu gives a length of %lu bytes at offset %zu with %zu "
                           "bytes left; it and anything after it cannot be read"),
                         p->count + 1, (unsigned long)l, q, left);
            p->records[p->count].offset = q;
            p->records[p->count].length = 0;
            p->count++;
            break;
        }
        p->records[p->count].offset = q;
        p->records[p->count].length = l;
        p->count++;
        q += l;
    }
    if (p->count == 0) {
        p->records[0].offset = q;
        p->records[0].length = 0;
        p->count = 1;
        snprintf(p->record_error, sizeof p->record_error, _("the library holds no record"));
    }
    return p;
#endif
}

size_t cbl_packed_count(const cbl_packed_index *p)
{
    return p->count;
}

/* The start position from the 32 squares. */
static void position(rec_game *g, arena *a, const unsigned char *t, size_t at, int side)
{
    static const uint8_t kinds[16] = {1, 2, 3, 4, 5, 4, 3, 2, 1, 6, 6, 7, 7, 7, 7, 7};
    uint8_t board[90];
    memset(board, 0, sizeof board);
    bool odd = false;
    for (int i = 0; i < 32; i++) {
        if (t[i] == 0)
            continue;
        int col = (t[i] >> 4) - 1, row = (t[i] & 15) - 1;
        if (col < 0 || col > 8 || row < 0 || row > 9 || board[row * 9 + col]) {
            odd = true;
            continue;
        }
        board[row * 9 + col] = (uint8_t)((i < 16 ? CCB_RED : CCB_BLACK) | kinds[i % 16]);
    }
    if (odd)
        rec_game_add_finding(g, "bad-cbl", REC_WARNING, ccb_at(at),
                             _("a piece of the piece table is off the board or on an occupied "
                               "square; left out"));
    bool bad;
    char *fen = ccb_board_fen(a, board, side, 1, &bad);
    if (fen)
        rec_game_add_tag(g, "FEN", fen, ccb_at(at));
}

static int node_square(uint8_t b)
{
    int col = b >> 4, row = b & 15;
    return col < 9 && row < 10 ? row * 9 + col : -1;
}

/* The nodes: ply numbers give the shape (see the top of this file). */
static void tree(rec_game *g, arena *a, cur *c, uint32_t n, cbr_counts *counts)
{
    size_t nodes_at = c->p;
    if (!need(c, (size_t)n * 6)) {
        rec_game_add_finding(g, "bad-cbl", REC_ERROR, ccb_at(nodes_at),
                             _("%lu moves of 6 bytes do not fit in the record; the record's "
                               "moves are not read"), (unsigned long)n);
        return;
    }
    c->p += (size_t)n * 6;
    rec_node **path = arena_alloc(a, ((size_t)n + 2) * sizeof *path);
    rec_node **anchor = arena_alloc(a, ((size_t)n + 2) * sizeof *anchor);
    rec_node **all = arena_alloc(a, ((size_t)n + 1) * sizeof *all);
    size_t depth = 0, made = 0;
    for (uint32_t i = 0; i < n; i++) {
        const unsigned char *e = c->d + nodes_at + (size_t)i * 6;
        size_t ply = (size_t)e[0] | (size_t)e[1] << 8;
        if (ply == 0 || ply > depth + 1) {
            rec_game_add_finding(g, "bad-cbl", REC_ERROR, ccb_at(nodes_at + (size_t)i * 6),
                                 _("move %lu is at ply %zu after a move at ply %zu; the moves "
                                   "from here on are not read"), (unsigned long)i + 1, ply, depth);
            break;
        }
        rec_node *x = arena_alloc(a, sizeof *x);
        x->text = ccb_move_text(a, node_square(e[2]), node_square(e[3]));
        x->where = ccb_at(nodes_at + (size_t)i * 6);
        if (ply == depth + 1) {
            if (ply == 1) {
                g->main.first = x;
                g->main.where = x->where;
            } else {
                path[ply - 1]->next = x;
            }
            anchor[ply] = x;
        } else {
            rec_line *l = arena_alloc(a, sizeof *l);
            l->first = x;
            l->where = x->where;
            rec_line **tail = &anchor[ply]->variations;
            while (*tail)
                tail = &(*tail)->next;
            *tail = l;
            if (counts)
                counts->variations++;
        }
        path[ply] = x;
        depth = ply;
        all[made++] = x;
    }
    if (counts)
        counts->moves = (uint32_t)made;
    /* the comments: one per node, each ended by CR LF */
    for (uint32_t i = 0; i < n && c->p < c->end; i++) {
        const unsigned char *s = c->d + c->p;
        size_t left = c->end - c->p, k = 0;
        while (k + 1 < left && !(s[k] == '\r' && s[k + 1] == '\n'))
            k++;
        bool ended = k + 1 < left;
        if (!ended)
            k = left;
        if (k > 0 && i < made) {
            rec_comment *cm = arena_alloc(a, sizeof *cm);
            cm->text = gbk_to_utf8(a, s, k, NULL);
            cm->where = ccb_at(c->p);
            rec_comment_append(&all[i]->comments, cm);
            if (counts)
                counts->comments++;
        }
        c->p += k + (ended ? 2 : 0);
    }
}

void cbl_packed_game(cbl_packed_index *p, size_t k, const char *library, rec_game *g, arena *a,
                     cbr_counts *counts)
{
    const rec_at *r = &p->records[k];
    g->kind = REC_XIANGQI;
    g->start = ccb_at(r->offset);
    g->end = ccb_at(r->offset + (r->length ? r->length - 1 : 0));
    if (counts)
        memset(counts, 0, sizeof *counts);
    if (p->error[0] && k == 0)
        rec_game_add_finding(g, "bad-cbl", REC_ERROR, ccb_at(16), "%s", p->error);
    if (r->length == 0) {
        rec_game_add_finding(g, "bad-cbl", REC_ERROR, ccb_at(r->offset), "%s",
                             p->record_error[0] ? p->record_error : p->error);
        return;
    }
    cur c = {p->data, r->offset + 4, r->offset + r->length, false, 0};
    size_t table_at = c.p;
    c.p += 32 + 12; /* the squares, then three numbers of unknown meaning */
    size_t at;
    const char *title = text(&c, a, &at);
    if (*title)
        rec_game_add_tag(g, "Title", title, ccb_at(at));
    int field = 0;
    for (int i = 0; i < 6; i++) {
        const char *t = text(&c, a, &at);
        field++;
        if (*t)
            rec_game_add_tag(g, arena_printf(a, "CBLText%d", field), t, ccb_at(at));
    }
    size_t result_at = c.p;
    uint32_t result = take32(&c);
    for (int i = 0; i < 4; i++) {
        const char *t = text(&c, a, &at);
        field++;
        if (*t)
            rec_game_add_tag(g, arena_printf(a, "CBLText%d", field), t, ccb_at(at));
    }
    const char *remark = text(&c, a, &at);
    size_t remark_at = at;
    int side = 0;
    size_t side_at = c.p;
    if (need(&c, 1)) {
        side = c.d[c.p] == 0 ? 1 : 0;
        if (c.d[c.p] > 1)
            rec_game_add_finding(g, "bad-cbl", REC_WARNING, ccb_at(c.p),
                                 _("side to move code %u is neither 1 (Red) nor 0 (Black); Red "
                                   "assumed"), c.d[c.p]);
        c.p++;
    }
    if (need(&c, 38))
        c.p += 38;
    uint32_t n = take32(&c);
    if (c.short_) {
        rec_game_add_finding(g, "bad-cbl", REC_ERROR, ccb_at(c.short_at),
                             _("the record's header runs past its length (%zu bytes)"),
                             r->length);
        return;
    }
    const char *res = ccb_result(result);
    rec_game_add_tag(g, "Result", res, ccb_at(result_at));
    g->result = res;
    g->result_where = ccb_at(result_at);
    if (result > 3)
        rec_game_add_finding(g, "bad-cbl", REC_WARNING, ccb_at(result_at),
                             _("result code %u has no documented meaning; read as unknown (*)"),
                             (unsigned)result);
    rec_game_add_tag(g, "Format", "UCCI", ccb_at(r->offset));
    cbl_event_fallback(g, library);
    if (*remark) {
        rec_comment *cm = arena_alloc(a, sizeof *cm);
        cm->text = remark;
        cm->where = ccb_at(remark_at);
        rec_comment_append(&g->main.comments, cm);
        if (counts)
            counts->comments++;
    }
    tree(g, a, &c, n, counts);
    static const unsigned char none[32];
    if (g->main.first || memcmp(p->data + table_at, none, sizeof none) != 0)
        position(g, a, p->data + table_at, side_at, side);
    if (counts) {
        counts->end = c.p - r->offset;
        counts->complete = c.p == c.end;
    }
    if (g->main.first == NULL && g->error_count == 0)
        rec_game_add_finding(g, "cbl-heading", REC_INFO, ccb_at(r->offset),
                             _("record %zu of the library has no moves (a section heading?); "
                               "kept as a game without moves"), k + 1);
}

void cbl_packed_close(cbl_packed_index *p)
{
    if (!p)
        return;
    free(p->data);
    free(p->records);
    free(p);
}
