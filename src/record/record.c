/* record.c: building and querying the game tree. */
#include <config.h>

#include "i18n/i18n.h"
#include "record/record.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void rec_game_init(rec_game *g, arena *a, const char *file, uint64_t index)
{
    memset(g, 0, offsetof(rec_game, tag_first));
    g->arena = a;
    g->file = file;
    g->index = index;
}

/* Whether "mat" (any ASCII case) at p may start what a claim is written with: "mating
 * in", or "mate" followed by a blank ("mate in", "checkmate in", the "[%mate N]" command,
 * whose name ends at a blank), 's' ("mates in"), '-' ("mate-in-") or '[' (a command
 * there is taken out of the prose as a space, so "mate[%clk 1:00]in 3" reads "mate in
 * 3"). The prose is the text with each command replaced by a space, so the letters of a
 * phrase are next to each other in the text too. "material", "matter", "match", "format"
 * hold no claim and so leave the game unwalked. */
static bool mat_may_claim(const unsigned char *p)
{
    unsigned c = p[3] | 0x20;
    if (c == 'i')
        return true;
    if (c != 'e')
        return false;
    unsigned d = p[4];
    return d == ' ' || d == '\t' || d == '\n' || d == '\r' || (d | 0x20) == 's' || d == '-' ||
           d == '[';
}

bool rec_text_may_claim_mate(const char *text)
{
    /* none of these words has a space, and the prose is the text with each command
     * replaced by a space: a word the prose has, the text has too */
    /* only these bytes can start a word below: the library's scan skips the rest */
    for (const unsigned char *p = (const unsigned char *)text;
         (p = (const unsigned char *)strpbrk((const char *)p, REC_CLAIM_BYTES)); p++) {
        unsigned char b = *p;
        if ((b | 0x20) == 'm' && (p[1] | 0x20) == 'a' && (p[2] | 0x20) == 't' &&
            mat_may_claim(p))
            return true;  /* mate in, mates in, mating in, checkmate in, [%mate N */
        if (b == 0xD0 && (p[1] == 0xBC || p[1] == 0x9C) && p[2] == 0xD0 && p[3] == 0xB0 &&
            p[4] == 0xD1 && p[5] == 0x82)
            return true;  /* мат, Мат */
        if (b == 0xE1 && p[1] == 0xBA && p[2] == 0xBF)
            return true;  /* ế: chiếu hết, chiếu bí */
        if (b == 0xE6 && p[1] == 0xAD && p[2] == 0xA5)
            return true;  /* 步: 步杀, 步殺 */
    }
    return false;
}

const char *rec_game_other_tag(const rec_game *g, const char *name, size_t n)
{
    for (const rec_tag *t = g->tags; t; t = t->next)
        if (t->id == REC_TAG_OTHER && t->name_len == n && memcmp(t->name, name, n) == 0)
            return t->value;
    return NULL;
}

const char *rec_game_tag_named(const rec_game *g, const char *name)
{
    size_t n = strlen(name);
    unsigned id = rec_tag_id_of(name, n);
    return id < REC_TAG_KNOWN ? rec_game_known_value(g, id) : rec_game_other_tag(g, name, n);
}

void rec_game_index_tags(rec_game *g)
{
    g->tag_known = g->tag_repeated = 0;
    rec_tag *tail = NULL;
    for (rec_tag *t = g->tags, *next; t; t = next) {
        next = t->next;
        rec_game_link_tag(g, tail, t);
        tail = t;
    }
}

rec_tag *rec_game_add_tag(rec_game *g, const char *name, const char *value, rec_span where)
{
    rec_tag *t = arena_alloc(g->arena, sizeof *t);
    t->name_len = (uint32_t)strlen(name);
    t->value_len = (uint32_t)strlen(value);
    t->name = arena_strndup(g->arena, name, t->name_len);
    t->value = arena_strndup(g->arena, value, t->value_len);
    t->where = where;
    rec_tag *tail = g->tags;
    while (tail && tail->next)
        tail = tail->next;
    rec_game_link_tag(g, tail, t);
    return t;
}

rec_span rec_linemarks_locate(const rec_linemark *m, uint32_t n, uint64_t off)
{
    uint32_t lo = 0, hi = n;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (m[mid].off <= off)
            lo = mid;
        else
            hi = mid;
    }
    const rec_linemark *k = &m[lo];
    rec_span s = {k->line, (uint32_t)(off - k->line_start - k->cont) + 1, off};
    return s;
}

rec_span rec_game_locate(const rec_game *g, rec_span s)
{
    if (s.line != 0 || g->linemark_count == 0)
        return s;
    return rec_linemarks_locate(g->linemarks, g->linemark_count, s.offset);
}

rec_finding *rec_game_add_finding(rec_game *g, const char *code, rec_severity sev,
                                  rec_span where, const char *fmt, ...)
{
    rec_finding *f = arena_alloc(g->arena, sizeof *f);
    f->code = code;
    f->severity = sev;
    f->where = rec_game_locate(g, where);

    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *msg = arena_alloc(g->arena, len > 0 ? (size_t)len + 1 : 1);
    if (len > 0) {
        va_start(ap, fmt);
        vsnprintf(msg, (size_t)len + 1, fmt, ap);
        va_end(ap);
    }
    f->message = msg;

    if (g->findings_tail)
        g->findings_tail->next = f;
    else
        g->findings = f;
    g->findings_tail = f;
    g->finding_count++;
    if (sev == REC_ERROR)
        g->error_count++;
    else if (sev == REC_WARNING)
        g->warning_count++;
    return f;
}

void rec_game_set_severity(rec_game *g, const char *code, rec_severity sev)
{
    for (rec_finding *f = g->findings; f; f = f->next) {
        if (strcmp(f->code, code) != 0 || f->severity == sev)
            continue;
        if (f->severity == REC_ERROR)
            g->error_count--;
        else if (f->severity == REC_WARNING)
            g->warning_count--;
        if (sev == REC_ERROR)
            g->error_count++;
        else if (sev == REC_WARNING)
            g->warning_count++;
        f->severity = sev;
    }
}

/* Whether finding b goes before finding a (a later line, or column on the line). */
static inline bool finding_before(const rec_finding *b, const rec_finding *a)
{
    return b->where.line < a->where.line ||
           (b->where.line == a->where.line && b->where.column < a->where.column);
}

/* Merge two sorted lists; ties keep a before b, so the sort is stable. */
static rec_finding *merge_findings(rec_finding *a, rec_finding *b)
{
    rec_finding head = {0}, *tail = &head;
    while (a && b) {
        bool b_first = finding_before(b, a);
        rec_finding **take = b_first ? &b : &a;
        tail->next = *take;
        tail = *take;
        *take = (*take)->next;
    }
    tail->next = a ? a : b;
    return head.next;
}

void rec_game_sort_findings(rec_game *g)
{
    /* Most games' findings are in order already (none, one, or found in input order):
     * a stable sort leaves them as they are, so one walk settles it and finds the tail
     * (the sort's bins cost a game more than the walk). */
    rec_finding *last = g->findings;
    while (last && last->next && !finding_before(last->next, last))
        last = last->next;
    if (!last || !last->next) {
        g->findings_tail = last;
        return;
    }
    /* Bottom-up merge sort of the list: O(n log n), no recursion, no allocation. */
    rec_finding *bins[64] = {0}, *f = g->findings;
    while (f) {
        rec_finding *next = f->next;
        f->next = NULL;
        int i = 0;
        for (; i < 63 && bins[i]; i++) {
            f = merge_findings(bins[i], f);
            bins[i] = NULL;
        }
        bins[i] = f;
        f = next;
    }
    rec_finding *sorted = NULL;
    for (int i = 0; i < 64; i++)
        if (bins[i])
            sorted = merge_findings(bins[i], sorted);
    g->findings = sorted;
    g->findings_tail = NULL;
    for (f = sorted; f; f = f->next)
        g->findings_tail = f;
}

void rec_node_add_nag(arena *a, rec_node *n, uint8_t nag)
{
    if (n->nag_count == n->nag_capacity) {
        uint32_t cap = n->nag_capacity ? n->nag_capacity * 2 : 4;
        uint8_t *grown = arena_alloc_uninit(a, cap, 1);   /* only nag_count are read */
        if (n->nag_count)
            memcpy(grown, n->nags, n->nag_count);
        n->nags = grown;
        n->nag_capacity = cap;
    }
    n->nags[n->nag_count++] = nag;
}

void rec_comment_append(rec_comment **list, rec_comment *c)
{
    while (*list)
        list = &(*list)->next;
    *list = c;
}

const char *rec_severity_name(rec_severity sev)
{
    switch (sev) {
    case REC_ERROR: return N_("error");
    case REC_WARNING: return N_("warning");
    default: return N_("info");
    }
}
