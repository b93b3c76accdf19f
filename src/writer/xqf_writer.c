/* xqf_writer.c: XQF files. See xqf_writer.h. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "core/prng.h"
#include "i18n/i18n.h"
#include "io/gbk.h"
#include "io/xqf.h"
#include "writer/writer_common.h"
#include "writer/xqf_writer.h"

static const char *tag_or(const rec_game *g, const char *a, const char *b)
{
    const char *v = rec_game_tag(g, a);
    if ((!v || !*v || strcmp(v, "?") == 0) && b)
        v = rec_game_tag(g, b);
    if (!v || !*v || strcmp(v, "?") == 0 || strcmp(v, "????.??.??") == 0)
        return NULL;
    return v;
}

/* A ShortString field of width bytes: length byte, GBK text. */
static void put_text(unsigned char *h, size_t off, size_t width, const char *utf8)
{
    if (!utf8)
        return;
    size_t n = gbk_from_utf8(utf8, strlen(utf8), h + off + 1, width - 1);
    h[off] = (uint8_t)n;
}

/* Slots of each piece letter in the table (§1.3), Red's; Black's are 16 more. */
static int slot_for(char piece, bool used[32])
{
    static const struct { char c; int slots[5]; int n; } kinds[] = {
        {'R', {0, 8}, 2}, {'N', {1, 7}, 2}, {'H', {1, 7}, 2}, {'B', {2, 6}, 2},
        {'E', {2, 6}, 2}, {'A', {3, 5}, 2}, {'K', {4}, 1}, {'C', {9, 10}, 2},
        {'P', {11, 12, 13, 14, 15}, 5},
    };
    bool black = piece >= 'a' && piece <= 'z';
    char up = black ? (char)(piece - 32) : piece;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        if (kinds[i].c != up)
            continue;
        for (int k = 0; k < kinds[i].n; k++) {
            int s = kinds[i].slots[k] + (black ? 16 : 0);
            if (!used[s]) {
                used[s] = true;
                return s;
            }
        }
        return -2; /* no slot left */
    }
    return -1;
}

/* The piece squares (0xFF off the board) and side from the FEN tag, or the start. */
bool xqf_table_from_fen(const char *fen, uint8_t sq[32], int *side, char *err, size_t errsize)
{
    if (!fen)
        fen = writer_xq_start;
    memset(sq, 0xFF, 32);
    bool used[32] = {false};
    int x = 0, y = 9;
    const char *p = fen;
    for (; *p && *p != ' '; p++) {
        if (*p == '/') {
            y--;
            x = 0;
        } else if (*p >= '1' && *p <= '9') {
            x += *p - '0';
        } else {
            int s = slot_for(*p, used);
            if (s == -2) {
                snprintf(err, errsize, _("the position has more of '%c' than XQF's piece table "
                         "holds"), *p);
                return false;
            }
            if (s < 0 || x > 8 || y < 0) {
                snprintf(err, errsize, _("the FEN cannot be written as an XQF piece table"));
                return false;
            }
            sq[s] = (uint8_t)(x * 10 + y);
            x++;
        }
    }
    while (*p == ' ')
        p++;
    *side = *p == 'b' ? 1 : 0;
    return true;
}

typedef struct wr {
    writer_buf o;
    xqf_keys k;
    bool old;
    uint64_t rng;
    const xqf_write_options *opt;
    arena *a;
    unsigned dropped;
} wr;

static uint8_t rnd(wr *w)
{
    return (uint8_t)(prng_next(&w->rng) >> 56);
}

/* Comments joined with LF, then CRLF lines in GBK. */
static void put_node(wr *w, int from, int to, bool child, bool sibling, const rec_comment *c1,
                     const rec_comment *c2)
{
    size_t tlen = w->opt->strip_comments ? 0 : writer_comments_size(c1, c2);
    char *joined = arena_alloc(w->a, tlen + 1);
    size_t n = tlen ? writer_comments_join(joined, c1, c2, false) : 0;
    size_t cap = n * 2 + 4;
    unsigned char *gbk = arena_alloc(w->a, cap);
    size_t glen = n ? gbk_from_utf8(joined, n, gbk, cap) : 0;
    uint8_t b[4];
    if (w->old) {
        b[0] = (uint8_t)(from + 0x18);
        b[1] = (uint8_t)(to + 0x20);
        b[2] = (uint8_t)((child ? 0xF0 : 0) | (sibling ? 0x0F : 0));
        b[3] = 0;
    } else {
        b[0] = (uint8_t)(from + 0x18 + w->k.kf);
        b[1] = (uint8_t)(to + 0x20 + w->k.kt);
        b[2] = (uint8_t)((child ? 0x80 : 0) | (sibling ? 0x40 : 0) | (glen ? 0x20 : 0) |
                         (rnd(w) & 0x1F));
        b[3] = rnd(w);
    }
    writer_buf_put(&w->o, b, 4);
    if (w->old || glen) {
        uint32_t v = (uint32_t)glen + (w->old || !glen ? 0 : w->k.kr);
        uint8_t l[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
        writer_buf_put(&w->o, l, 4);
        writer_buf_put(&w->o, gbk, glen);
    }
}

/* An alternative group: the node and every variation's first move (flattened). */
typedef struct group {
    const rec_node **nodes;
    const rec_comment **line_comments;  /* a variation's comment before its move */
    size_t n, i;
} group;

static void collect(wr *w, const rec_node *n, const rec_comment *lc, group *g, size_t *cap)
{
    /* iterative over the variation lists; nesting of first moves is rare and shallow,
     * but a hostile record could nest deeply: a worklist, not recursion */
    size_t work_cap = 16, top = 0;
    const rec_node **work = malloc(work_cap * sizeof *work);
    const rec_comment **wlc = malloc(work_cap * sizeof *wlc);
    if (!work || !wlc) {
        free(work);
        free(wlc);
        w->o.failed = true;
        return;
    }
    work[top] = n;
    wlc[top++] = lc;
    while (top) {
        const rec_node *m = work[--top];
        const rec_comment *mc = wlc[top];
        if (g->n == *cap) {
            size_t nc = *cap * 2;
            const rec_node **nn = arena_alloc(w->a, nc * sizeof *nn);
            const rec_comment **nl = arena_alloc(w->a, nc * sizeof *nl);
            memcpy(nn, g->nodes, g->n * sizeof *nn);
            memcpy(nl, g->line_comments, g->n * sizeof *nl);
            g->nodes = nn;
            g->line_comments = nl;
            *cap = nc;
        }
        g->nodes[g->n] = m;
        g->line_comments[g->n++] = mc;
        if (w->opt->strip_variations)
            continue;
        /* push in reverse so the first variation comes out first */
        size_t count = 0;
        for (const rec_line *l = m->variations; l; l = l->next)
            if (l->first)
                count++;
        if (top + count > work_cap) {
            while (top + count > work_cap)
                work_cap *= 2;
            const rec_node **nw = realloc(work, work_cap * sizeof *nw);
            const rec_comment **nlc = nw ? realloc(wlc, work_cap * sizeof *nlc) : NULL;
            if (!nw || !nlc) {
                free(nw ? nw : work);
                w->o.failed = true;
                return;
            }
            work = nw;
            wlc = nlc;
        }
        size_t k = top + count;
        for (const rec_line *l = m->variations; l; l = l->next)
            if (l->first) {
                work[--k] = l->first;
                wlc[k] = l->comments;
            }
        top += count;
    }
    free(work);
    free(wlc);
}

static group make_group(wr *w, const rec_node *n, const rec_comment *lc)
{
    size_t cap = 4;
    group g = {arena_alloc(w->a, cap * sizeof *g.nodes),
               arena_alloc(w->a, cap * sizeof *g.line_comments), 0, 0};
    collect(w, n, lc, &g, &cap);
    return g;
}

/* The tree in XQF's depth-first order (§1.7): a node, its child subtree, then its
 * siblings; an explicit stack of groups, not recursion. */
static void put_tree(wr *w, const rec_game *g)
{
    const rec_node *first = writer_node_writable(g->main.first) ? g->main.first : NULL;
    if (g->main.first && !first)
        w->dropped++;
    /* the root: 'X' 'Q' in 1.63 (before the keys), 0x18 0x20 (squares 0) in 1.0 */
    int rf = w->old ? 0 : ('X' - 0x18 - w->k.kf) & 0xFF, rt = w->old ? 0 : ('Q' - 0x20 - w->k.kt) & 0xFF;
    put_node(w, rf, rt, first != NULL, false, w->opt->strip_comments ? NULL : g->main.comments,
             NULL);
    if (!first)
        return;
    size_t cap = 64, top = 0;
    group *stack = malloc(cap * sizeof *stack);
    if (!stack) {
        w->o.failed = true;
        return;
    }
    stack[top++] = make_group(w, first, NULL);
    while (top && !w->o.failed) {
        group *gr = &stack[top - 1];
        if (gr->i == gr->n) {
            top--;
            continue;
        }
        /* skip alternatives that cannot be written */
        const rec_node *n = gr->nodes[gr->i];
        const rec_comment *lc = gr->line_comments[gr->i];
        gr->i++;
        bool more = false;
        for (size_t j = gr->i; j < gr->n; j++)
            if (writer_node_writable(gr->nodes[j]))
                more = true;
        int f, t;
        if (!writer_node_squares(n, WRITER_SQ_XQF, &f, &t)) {
            w->dropped++;
            continue;
        }
        const rec_node *next = writer_next_writable(n, &w->dropped);
        put_node(w, f, t, next != NULL, more, w->opt->strip_comments ? NULL : lc,
                 w->opt->strip_comments ? NULL : n->comments);
        if (next) {
            if (top == cap) {
                group *s = writer_grow(stack, &cap, sizeof *s);
                if (!s) {
                    w->o.failed = true;
                    break;
                }
                stack = s;
            }
            stack[top++] = make_group(w, next, NULL);
        }
    }
    free(stack);
}

bool xqf_write_game(FILE *out, const rec_game *g, const xqf_write_options *opt,
                    unsigned *dropped, char *err, size_t errsize)
{
    if (g->kind != REC_XIANGQI) {
        snprintf(err, errsize, _("a chess game cannot be written as XQF"));
        return false;
    }
    wr w = {.opt = opt, .a = g->arena, .rng = opt->seed ? opt->seed : PRNG_SEED};
    int version = opt->version ? opt->version : XQF_MAX_VERSION;
    w.old = version <= 0x0A;
    uint8_t sq[32];
    int side;
    if (!xqf_table_from_fen(rec_game_tag(g, "FEN"), sq, &side, err, errsize))
        return false;
    unsigned char *h = arena_alloc(g->arena, XQF_HEADER_SIZE);
    h[0] = 'X';
    h[1] = 'Q';
    h[2] = (uint8_t)version;
    if (!w.old) {
        /* XQStudio's choices (§1.5): three keys from 1..255, KeysSum their negated sum,
         * KeyMask with 0xAA set, KeyOrD making the four Or bytes sum to 0 */
        uint8_t xy = (uint8_t)(rnd(&w) % 255 + 1), xyf = (uint8_t)(rnd(&w) % 255 + 1),
                xyt = (uint8_t)(rnd(&w) % 255 + 1);
        h[3] = rnd(&w) | 0xAA;
        h[8] = rnd(&w);
        h[9] = rnd(&w);
        h[10] = rnd(&w);
        h[11] = (uint8_t)(0u - h[8] - h[9] - h[10]);
        h[12] = (uint8_t)(0u - xy - xyf - xyt);
        h[13] = xy;
        h[14] = xyf;
        h[15] = xyt;
    }
    xqf_derive_keys(h, &w.k);
    for (int i = 0; i < 32; i++) {
        int slot = version >= 0x0C ? (i + 1 + w.k.kp) % 32 : i;
        uint8_t v = sq[slot];
        if (v == 0xFF && !w.old)
            v = (uint8_t)(90 + rnd(&w) % 155); /* 90..244, as 1.63 writes */
        h[0x10 + i] = (uint8_t)(v + w.k.kp);
    }
    h[0x32] = (uint8_t)side;
    h[0x33] = (uint8_t)writer_result_code(g);
    static const char *const types[] = {"full", "opening", "middlegame", "endgame"};
    const char *type = rec_game_tag(g, "XQFType");
    for (int i = 0; type && i < 4; i++)
        if (strcmp(type, types[i]) == 0)
            h[0x40] = (uint8_t)i;
    put_text(h, 0x50, 64, tag_or(g, "Title", NULL));
    put_text(h, 0x90, 64, tag_or(g, "Subtitle", NULL));
    put_text(h, 0xD0, 64, tag_or(g, "Event", "EVENT"));
    put_text(h, 0x110, 16, tag_or(g, "Date", "DATE"));
    put_text(h, 0x120, 16, tag_or(g, "Site", "PLACE"));
    put_text(h, 0x130, 16, tag_or(g, "Red", "RED"));
    put_text(h, 0x140, 16, tag_or(g, "Black", "BLACK"));
    put_text(h, 0x150, 64, tag_or(g, "TimeRule", "TimeControl"));
    put_text(h, 0x190, 16, tag_or(g, "RedTime", NULL));
    put_text(h, 0x1A0, 16, tag_or(g, "BlackTime", NULL));
    put_text(h, 0x1D0, 16, tag_or(g, "Annotator", NULL));
    put_text(h, 0x1E0, 16, tag_or(g, "Author", NULL));
    writer_buf_put(&w.o, h, XQF_HEADER_SIZE);
    put_tree(&w, g);
    if (dropped)
        *dropped = w.dropped;
    if (w.o.failed) {
        free(w.o.b);
        snprintf(err, errsize, _("out of memory"));
        return false;
    }
    /* the stream over every byte after the header, by absolute offset (§1.6) */
    for (size_t p = XQF_HEADER_SIZE; p < w.o.len; p++)
        w.o.b[p] = (uint8_t)(w.o.b[p] + w.k.stream[p & 31]);
    bool ok = writer_write_bytes(out, w.o.b, w.o.len, err, errsize);
    free(w.o.b);
    return ok;
}
