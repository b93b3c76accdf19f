/* doc_map.c: documents in memory and PGN text mapped back onto them (see doc_map.h). */
#include <config.h>

#include "doc_map.h"
#include "i18n/i18n.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

bool doc_map_load(doc_map *m, FILE *in)
{
    memset(m, 0, sizeof *m);
    size_t cap = 1 << 16;
    m->doc = malloc(cap + 1);
    if (!m->doc)
        goto oom;
    size_t n;
    while ((n = fread(m->doc + m->len, 1, cap - m->len, in)) > 0) {
        m->len += n;
        if (m->len == cap) {
            char *d = realloc(m->doc, cap * 2 + 1);
            if (!d)
                goto oom;
            m->doc = d;
            cap *= 2;
        }
    }
    m->doc[m->len] = '\0';
    if (ferror(in)) {
        snprintf(m->error, sizeof m->error, _("read error: %s"), strerror(errno));
        return false;
    }
    size_t lc = 1;
    for (size_t i = 0; i < m->len; i++)
        lc += m->doc[i] == '\n';
    m->lines = malloc(lc * sizeof *m->lines);
    if (!m->lines)
        goto oom;
    m->lines[0] = 0;
    m->nlines = 1;
    for (size_t i = 0; i < m->len; i++)
        if (m->doc[i] == '\n')
            m->lines[m->nlines++] = i + 1;
    return true;
oom:
    snprintf(m->error, sizeof m->error, _("out of memory reading the document"));
    return false;
}

void doc_map_free(doc_map *m)
{
    free(m->doc);
    free(m->lines);
    free(m->pgn);
    free(m->segs);
    memset(m, 0, sizeof *m);
}

rec_span doc_map_span(const doc_map *m, uint64_t off)
{
    size_t lo = 0, hi = m->nlines;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (m->lines[mid] <= off)
            lo = mid;
        else
            hi = mid;
    }
    uint32_t col = 1;
    for (uint64_t i = m->lines[lo]; i < off && i < m->len; i++)
        if (((unsigned char)m->doc[i] & 0xC0) != 0x80)
            col++;
    if (lo == 0 && m->len >= 3 && memcmp(m->doc, "\xEF\xBB\xBF", 3) == 0 && off >= 3)
        col--;   /* a byte-order mark is no character */
    rec_span s = {(uint32_t)lo + 1, col, off};
    return s;
}

void doc_map_reset(doc_map *m)
{
    m->pgn_len = 0;
    m->nsegs = 0;
}

void doc_map_put(doc_map *m, const char *s, size_t n)
{
    if (m->pgn_len + n + 1 > m->pgn_cap) {
        size_t c = m->pgn_cap ? m->pgn_cap : 4096;
        while (c < m->pgn_len + n + 1)
            c *= 2;
        char *p = realloc(m->pgn, c);
        if (!p) {
            m->oom = true;
            return;
        }
        m->pgn = p;
        m->pgn_cap = c;
    }
    memcpy(m->pgn + m->pgn_len, s, n);
    m->pgn_len += n;
    m->pgn[m->pgn_len] = '\0';
}

void doc_map_puts(doc_map *m, const char *s)
{
    doc_map_put(m, s, strlen(s));
}

void doc_map_put_mapped(doc_map *m, const char *s, size_t n, uint64_t doc, uint32_t len)
{
    if (m->nsegs == m->segcap) {
        size_t c = m->segcap ? m->segcap * 2 : 64;
        struct doc_seg *v = realloc(m->segs, c * sizeof *v);
        if (!v) {
            m->oom = true;
            return;
        }
        m->segs = v;
        m->segcap = c;
    }
    m->segs[m->nsegs].pgn = m->pgn_len;
    m->segs[m->nsegs].doc = doc;
    m->segs[m->nsegs].len = len;
    m->nsegs++;
    doc_map_put(m, s, n);
}

/* A PGN offset to the document: within its segment, or just after it (a place after
 * the last token), or the segment's last byte when further. */
static uint64_t map_off(const doc_map *m, uint64_t pgn)
{
    if (m->nsegs == 0)
        return 0;
    size_t lo = 0, hi = m->nsegs;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (m->segs[mid].pgn <= pgn)
            lo = mid;
        else
            hi = mid;
    }
    const struct doc_seg *s = &m->segs[lo];
    uint64_t d = pgn >= s->pgn ? pgn - s->pgn : 0;
    if (d > s->len)
        d = s->len ? s->len - 1 : 0;
    return s->doc + d;
}

static void remap(const doc_map *m, rec_span *s)
{
    *s = doc_map_span(m, map_off(m, s->offset));
}

static void remap_comments(const doc_map *m, rec_comment *c)
{
    for (; c; c = c->next)
        remap(m, &c->where);
}

/* Lines iterate; a variation's own variations recurse (books nest a few deep). */
static void remap_line(const doc_map *m, rec_line *l)
{
    for (; l; l = l->next) {
        remap(m, &l->where);
        remap_comments(m, l->comments);
        for (rec_node *n = l->first; n; n = n->next) {
            remap(m, &n->where);
            remap_comments(m, n->comments);
            remap_line(m, n->variations);
        }
    }
}

void doc_map_remap(const doc_map *m, rec_game *g)
{
    remap(m, &g->start);
    remap(m, &g->end);
    remap(m, &g->result_where);
    for (rec_tag *t = g->tags; t; t = t->next)
        remap(m, &t->where);
    for (rec_finding *f = g->findings; f; f = f->next)
        remap(m, &f->where);
    rec_line main = g->main;
    main.next = NULL;
    remap_line(m, &main);
    g->main.where = main.where;
    g->main.comments = main.comments;
    /* every place is the document's now, with its line and column */
    g->linemarks = NULL;
    g->linemark_count = 0;
}
