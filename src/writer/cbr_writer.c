/* cbr_writer.c: CBR records and CBL libraries. See cbr_writer.h. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "io/cbl.h"
#include "io/cbr.h"
#include "writer/cbr_writer.h"
#include "writer/writer_common.h"

static void put32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

/* UTF-8 as UTF-16LE into at most width bytes at p, a NUL unit kept at the end, cut on
 * a whole character. Returns the bytes written (without the NUL). */
static size_t utf16_field(unsigned char *p, size_t width, const char *s)
{
    size_t o = 0;
    const unsigned char *u = (const unsigned char *)s;
    while (u && *u) {
        uint32_t c;
        int n = *u < 0x80 ? 1 : (*u & 0xE0) == 0xC0 ? 2 : (*u & 0xF0) == 0xE0 ? 3 : 4;
        c = n == 1 ? *u : n == 2 ? *u & 0x1Fu : n == 3 ? *u & 0x0Fu : *u & 0x07u;
        int k = 1;
        for (; k < n && (u[k] & 0xC0) == 0x80; k++)
            c = c << 6 | (u[k] & 0x3Fu);
        if (k < n)
            c = 0xFFFD; /* a cut character */
        u += k;
        size_t need = c >= 0x10000 ? 4 : 2;
        if (o + need + 2 > width)
            break;
        if (c >= 0x10000) {
            uint32_t v = c - 0x10000, hi = 0xD800 + (v >> 10), lo = 0xDC00 + (v & 0x3FF);
            p[o++] = (unsigned char)hi;
            p[o++] = (unsigned char)(hi >> 8);
            p[o++] = (unsigned char)lo;
            p[o++] = (unsigned char)(lo >> 8);
        } else {
            p[o++] = (unsigned char)c;
            p[o++] = (unsigned char)(c >> 8);
        }
    }
    return o;
}

static bool board_from_fen(const char *fen, uint8_t board[90], int *side, unsigned *number,
                           char *err, size_t errsize)
{
    if (!fen)
        fen = writer_xq_start;
    memset(board, 0, 90);
    static const char kinds[] = "rnbakcp";
    int row = 0, col = 0;
    const char *s = fen;
    for (; *s && *s != ' '; s++) {
        if (*s == '/') {
            if (col != 9)
                break;
            row++;
            col = 0;
        } else if (*s >= '1' && *s <= '9') {
            col += *s - '0';
        } else {
            char lower = (char)(*s >= 'A' && *s <= 'Z' ? *s + 32 : *s);
            /* WXF letters e and h for elephant and horse */
            lower = lower == 'e' ? 'b' : lower == 'h' ? 'n' : lower;
            const char *k = strchr(kinds, lower);
            if (!k || !*k || col > 8 || row > 9)
                break;
            board[row * 9 + col] = (uint8_t)((*s >= 'a' ? 0x20 : 0x10) | (unsigned)(k - kinds + 1));
            col++;
        }
        if (col > 9)
            break;
    }
    if ((*s && *s != ' ') || row != 9 || col != 9) {
        snprintf(err, errsize, _("the FEN '%s' is no xiangqi position: the record is not written"),
                 fen);
        return false;
    }
    *side = s[0] == ' ' && s[1] == 'b' ? 1 : 0;
    *number = 1;
    /* the move number is the last field */
    const char *last = strrchr(fen, ' ');
    if (last && last > s) {
        unsigned long n = strtoul(last + 1, NULL, 10);
        if (n > 0 && n < 65536)
            *number = (unsigned)n;
    }
    return true;
}

bool cbr_game_board(const rec_game *g, uint8_t board[90], int *side, unsigned *number,
                    char *err, size_t errsize)
{
    if (g->kind != REC_XIANGQI) {
        snprintf(err, errsize, _("a chess game cannot be written as a CCBridge record"));
        return false;
    }
    return board_from_fen(rec_game_tag(g, "FEN"), board, side, number, err, errsize);
}

/* ------------------------------------------------------------------ tree */

typedef struct wr {
    writer_buf o;
    const cbr_write_options *opt;
    unsigned dropped;
} wr;

/* The comments joined with CR LF, as UTF-16LE, after a length. */
static void put_node(wr *w, unsigned flags, int from, int to, const rec_comment *c1,
                     const rec_comment *c2)
{
    size_t n = w->opt->strip_comments ? 0 : writer_comments_size(c1, c2);
    char *joined = malloc(n + 1);
    size_t j = n && joined ? writer_comments_join(joined, c1, c2, true) : 0;
    unsigned char *u16 = NULL;
    size_t ulen = 0;
    if (j) {
        joined[j] = '\0';
        u16 = malloc(j * 2 + 4);
        if (u16)
            ulen = utf16_field(u16, j * 2 + 4, joined);
    }
    unsigned char b[8] = {(unsigned char)(flags | (ulen ? 4 : 0)), 0, (unsigned char)from,
                          (unsigned char)to};
    writer_buf_put(&w->o, b, 4);
    if (ulen) {
        put32(b + 4, (uint32_t)ulen);
        writer_buf_put(&w->o, b + 4, 4);
        writer_buf_put(&w->o, u16, ulen);
    }
    if ((n && !joined) || (j && !u16))
        w->o.failed = true;
    free(joined);
    free(u16);
}

/* A move and its alternatives, flattened (a variation's own alternatives join). */
typedef struct group {
    const rec_node **nodes;
    const rec_comment **line_comments;
    size_t n, cap, i;
} group;

static bool group_add(group *g, const rec_node *n, const rec_comment *lc)
{
    if (g->n == g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 4;
        const rec_node **nn = realloc(g->nodes, cap * sizeof *nn);
        if (!nn)
            return false;
        g->nodes = nn;
        const rec_comment **nl = realloc(g->line_comments, cap * sizeof *nl);
        if (!nl)
            return false;
        g->line_comments = nl;
        g->cap = cap;
    }
    g->nodes[g->n] = n;
    g->line_comments[g->n++] = lc;
    return true;
}

/* The group of n: n, then each variation's first move with its own alternatives, in
 * order (iterative: the index walks the group as it grows). */
static bool make_group(wr *w, const rec_node *n, group *g)
{
    memset(g, 0, sizeof *g);
    if (!group_add(g, n, NULL))
        return false;
    for (size_t k = 0; k < g->n && !w->opt->strip_variations; k++)
        for (const rec_line *l = g->nodes[k]->variations; l; l = l->next)
            if (l->first && !group_add(g, l->first, l->comments))
                return false;
    /* only the writable ones */
    size_t m = 0;
    for (size_t k = 0; k < g->n; k++) {
        if (writer_node_writable(g->nodes[k])) {
            g->nodes[m] = g->nodes[k];
            g->line_comments[m++] = g->line_comments[k];
        } else {
            for (const rec_node *d = g->nodes[k]; d; d = d->next)
                w->dropped++;
        }
    }
    g->n = m;
    return true;
}

static void put_tree(wr *w, const rec_game *g)
{
    const rec_node *first = writer_node_writable(g->main.first) ? g->main.first : NULL;
    if (g->main.first && !first)
        for (const rec_node *d = g->main.first; d; d = d->next)
            w->dropped++;
    put_node(w, first ? 0 : 1, 0, 0, w->opt->strip_comments ? NULL : g->main.comments, NULL);
    if (!first)
        return;
    size_t cap = 64, top = 0;
    group *stack = malloc(cap * sizeof *stack);
    if (!stack || !make_group(w, first, &stack[0])) {
        free(stack);
        w->o.failed = true;
        return;
    }
    top = 1;
    while (top && !w->o.failed) {
        group *gr = &stack[top - 1];
        if (gr->i == gr->n) {
            free(gr->nodes);
            free(gr->line_comments);
            top--;
            continue;
        }
        const rec_node *n = gr->nodes[gr->i];
        const rec_comment *lc = gr->line_comments[gr->i];
        gr->i++;
        bool more = gr->i < gr->n;
        int f, t;
        writer_node_squares(n, WRITER_SQ_CBR, &f, &t);
        const rec_node *next = writer_next_writable(n, &w->dropped);
        put_node(w, (next ? 0 : 1) | (more ? 2 : 0), f, t, lc, n->comments);
        if (next) {
            if (top == cap) {
                group *s = writer_grow(stack, &cap, sizeof *s);
                if (!s) {
                    w->o.failed = true;
                    break;
                }
                stack = s;
            }
            if (!make_group(w, next, &stack[top])) {
                w->o.failed = true;
                break;
            }
            top++;
        }
    }
    while (top) {
        free(stack[top - 1].nodes);
        free(stack[top - 1].line_comments);
        top--;
    }
    free(stack);
}

/* ------------------------------------------------------------------ record */

/* A GUID of 16 bytes from the game's index and text, so that the same input gives the
 * same bytes (FNV-1a over the tags, then mixed). */
static void make_guid(const rec_game *g, unsigned char guid[16])
{
    uint64_t h = 1469598103934665603ull ^ g->index;
    for (const rec_tag *t = g->tags; t; t = t->next)
        for (const char *s = t->value; *s; s++)
            h = (h ^ (unsigned char)*s) * 1099511628211ull;
    for (int i = 0; i < 16; i++) {
        h ^= h >> 29;
        h *= 0xBF58476D1CE4E5B9ull;
        guid[i] = (unsigned char)(h >> 56);
    }
}

bool cbr_build(const rec_game *g, const cbr_write_options *o, unsigned char **out, size_t *len,
               unsigned *dropped, char *err, size_t errsize)
{
    uint8_t board[90];
    int side;
    unsigned number;
    if (!cbr_game_board(g, board, &side, &number, err, errsize))
        return false;
    unsigned char *h = calloc(1, CBR_V2_TREE);
    if (!h) {
        snprintf(err, errsize, _("out of memory"));
        return false;
    }
    memcpy(h, CBR_MAGIC, 16);
    h[19] = 2;
    make_guid(g, h + 20);
    static const struct {
        size_t off, width;
        const char *tag, *alt;
    } fields[] = {
        {180, 128, "Title", NULL},      {692, 64, "Event", "EVENT"},    {756, 64, "Round", "ROUND"},
        {820, 32, "Group", NULL},       {852, 32, "Table", NULL},       {884, 64, "Date", "DATE"},
        {948, 64, "Site", "PLACE"},     {1076, 64, "Red", "RED"},       {1140, 64, "RedTeam", NULL},
        {1204, 64, "RedTime", NULL},    {1268, 32, "RedElo", NULL},     {1300, 64, "Black", "BLACK"},
        {1364, 64, "BlackTeam", NULL},  {1428, 64, "BlackTime", NULL},  {1492, 32, "BlackElo", NULL},
        {1524, 64, "Referee", NULL},    {1588, 64, "Recorder", NULL},   {1652, 64, "Remark", NULL},
        {1780, 64, "Author", "Annotator"},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        const char *v = writer_tag_or(g, fields[i].tag, fields[i].alt);
        /* PGN's unknown markers are no data */
        if (v && strcmp(v, "?") != 0 && strcmp(v, "????.??.??") != 0)
            utf16_field(h + fields[i].off, fields[i].width, v);
    }
    h[2076] = (unsigned char)writer_result_code(g);
    put32(h + 2112, side ? 2 : 1);
    h[2116] = (unsigned char)number;
    h[2117] = (unsigned char)(number >> 8);
    memcpy(h + 2120, board, 90);
    wr w = {.opt = o};
    writer_buf_put(&w.o, h, CBR_V2_TREE);
    free(h);
    put_tree(&w, g);
    if (dropped)
        *dropped = w.dropped;
    if (w.o.failed) {
        free(w.o.b);
        snprintf(err, errsize, _("out of memory"));
        return false;
    }
    *out = w.o.b;
    *len = w.o.len;
    return true;
}

bool cbr_write_game(FILE *out, const rec_game *g, const cbr_write_options *o, unsigned *dropped,
                    char *err, size_t errsize)
{
    unsigned char *b;
    size_t len;
    if (!cbr_build(g, o, &b, &len, dropped, err, errsize))
        return false;
    bool ok = writer_write_bytes(out, b, len, err, errsize);
    free(b);
    return ok;
}

/* ------------------------------------------------------------------ library */

typedef struct lib_record {
    unsigned char *b;
    size_t len;
    char *title;
} lib_record;

struct cbl_writer {
    char *name;
    lib_record *r;
    size_t n, cap;
};

cbl_writer *cbl_writer_new(const char *library_name)
{
    cbl_writer *w = calloc(1, sizeof *w);
    if (w && !(w->name = strdup(library_name ? library_name : ""))) {
        free(w);
        return NULL;
    }
    return w;
}

size_t cbl_writer_count(const cbl_writer *w)
{
    return w->n;
}

bool cbl_writer_add(cbl_writer *w, const rec_game *g, const cbr_write_options *o,
                    unsigned *dropped, char *err, size_t errsize)
{
    if (w->n == w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 64;
        lib_record *r = realloc(w->r, cap * sizeof *r);
        if (!r) {
            snprintf(err, errsize, _("out of memory"));
            return false;
        }
        w->r = r;
        w->cap = cap;
    }
    lib_record *x = &w->r[w->n];
    if (!cbr_build(g, o, &x->b, &x->len, dropped, err, errsize))
        return false;
    const char *t = rec_game_tag(g, "Title");
    x->title = strdup(t ? t : "");
    if (!x->title) {
        free(x->b);
        snprintf(err, errsize, _("out of memory"));
        return false;
    }
    w->n++;
    return true;
}

bool cbl_writer_write(cbl_writer *w, FILE *out, char *err, size_t errsize)
{
    size_t cap = (w->n + 127) / 128 * 128;
    if (cap == 0)
        cap = 128;
    size_t head = CBL_INDEX + (size_t)CBL_ENTRY * cap;
    unsigned char *h = calloc(1, head);
    if (!h) {
        snprintf(err, errsize, _("out of memory"));
        return false;
    }
    memcpy(h, CBL_MAGIC, 16);
    put32(h + 16, 3);
    put32(h + 60, (uint32_t)cap);
    utf16_field(h + 64, 512, w->name);
    for (size_t k = 0; k < w->n; k++) {
        unsigned char *e = h + CBL_INDEX + (size_t)CBL_ENTRY * k;
        const lib_record *x = &w->r[k];
        memcpy(h + 20, x->b + 20, 16); /* any GUID will do for the library's own */
        put32(e, 7);
        put32(e + 4, (uint32_t)k + 1);
        put32(e + 8, (uint32_t)((x->len + CBL_SLOT - 1) / CBL_SLOT));
        put32(e + 12, (uint32_t)x->len);
        const unsigned char *gd = x->b + 20;
        char text[40];
        snprintf(text, sizeof text,
                 "{%02X%02X%02X%02X-%02X%02X-%02X%02X-%02X%02X-%02X%02X%02X%02X%02X%02X}", gd[3],
                 gd[2], gd[1], gd[0], gd[5], gd[4], gd[7], gd[6], gd[8], gd[9], gd[10], gd[11],
                 gd[12], gd[13], gd[14], gd[15]);
        utf16_field(e + 20, 80, text);
        utf16_field(e + 100, 176, x->title);
    }
    bool ok = fwrite(h, 1, head, out) == head;
    free(h);
    static const unsigned char zeros[CBL_SLOT];
    for (size_t k = 0; ok && k < w->n; k++) {
        const lib_record *x = &w->r[k];
        size_t pad = (CBL_SLOT - x->len % CBL_SLOT) % CBL_SLOT;
        ok = fwrite(x->b, 1, x->len, out) == x->len && fwrite(zeros, 1, pad, out) == pad;
    }
    if (!ok)
        snprintf(err, errsize, _("write error"));
    return ok;
}

void cbl_writer_free(cbl_writer *w)
{
    if (!w)
        return;
    for (size_t k = 0; k < w->n; k++) {
        free(w->r[k].b);
        free(w->r[k].title);
    }
    free(w->r);
    free(w->name);
    free(w);
}
