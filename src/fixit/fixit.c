/* fixit.c: the distance between move texts, ranking, and attaching to findings. */
/* notation/ and fixit/ ask the core and never touch a position's fields (chess.h) */
#define ARBITER_OPAQUE_POSITIONS 1

#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixit/fixit_internal.h"
#include "i18n/i18n.h"
#include "record/utf8.h"

#define CP_MAX 32

/* UTF-8 to code points; invalid bytes count as themselves. */
static int to_cp(const char *s, uint32_t *cp)
{
    int n = 0;
    const unsigned char *p = (const unsigned char *)s;
    while (*p && n < CP_MAX) {
        uint32_t c = *p;
        int len = 1;
        if (c >= 0xF0 && p[1] && p[2] && p[3])
            c = (uint32_t)(c & 7) << 18 | (uint32_t)(p[1] & 63) << 12 | (uint32_t)(p[2] & 63) << 6 |
                (p[3] & 63), len = 4;
        else if (c >= 0xE0 && p[1] && p[2])
            c = (uint32_t)(c & 15) << 12 | (uint32_t)(p[1] & 63) << 6 | (p[2] & 63), len = 3;
        else if (c >= 0xC0 && p[1])
            c = (uint32_t)(c & 31) << 6 | (p[1] & 63), len = 2;
        cp[n++] = c;
        p += len;
    }
    return n;
}

/* Digits of every script as 1..9 (0: not a digit). */
static int digit_value(uint32_t c)
{
    static const uint32_t cn[9] = {0x4E00, 0x4E8C, 0x4E09, 0x56DB, 0x4E94,
                                   0x516D, 0x4E03, 0x516B, 0x4E5D}; /* 一..九 */
    if (c >= '0' && c <= '9')
        return (int)(c - '0') + 10; /* 0 counts too; kept apart from 1-9 via +10 */
    if (c >= 0xFF10 && c <= 0xFF19)
        return (int)(c - 0xFF10) + 10;
    for (int i = 0; i < 9; i++)
        if (cn[i] == c)
            return i + 11;
    return 0;
}

/* The signs people confuse: WXF . + - = /, Vietnamese . / -, Chinese 进 退 平. */
static bool is_sign(uint32_t c)
{
    return c == '.' || c == '+' || c == '-' || c == '=' || c == '/' || c == 0x8FDB ||
           c == 0x9000 || c == 0x5E73 || c == 0x9032;
}

/* Front, middle, rear markers: + - (WXF), t g s (Vietnamese), 前 中 后 後. */
static bool is_position_mark(uint32_t c)
{
    return c == 't' || c == 's' || c == 'g' || c == 0x524D || c == 0x4E2D || c == 0x540E ||
           c == 0x5F8C;
}

/* The Chinese piece characters, simplified and traditional: 帅帥将將仕士相象车車俥马馬傌炮砲兵卒. */
static bool is_cn_piece(uint32_t c)
{
    static const uint32_t pieces[] = {0x5E05, 0x5E25, 0x5C06, 0x5C07, 0x4ED5, 0x58EB, 0x76F8,
                                      0x8C61, 0x8F66, 0x8ECA, 0x4FE5, 0x9A6C, 0x99AC, 0x508C,
                                      0x70AE, 0x7832, 0x5175, 0x5352};
    for (size_t i = 0; i < sizeof pieces / sizeof pieces[0]; i++)
        if (pieces[i] == c)
            return true;
    return false;
}

/* A file or rank written d away from the true one: one off is the usual slip; further
 * off, a nearer one is still a little likelier (this only orders candidates that tie,
 * as two pieces that could both have made the move do, far below any gap that makes a
 * fix certain). */
static double off_by(int d)
{
    return d == 1 ? 0.6 : 0.9;
}

static double sub_cost(uint32_t a, uint32_t b)
{
    if (a == b)
        return 0;
    int da = digit_value(a), db = digit_value(b);
    if (da && db)
        return off_by(abs(da - db));
    if (a >= 'a' && a <= 'i' && b >= 'a' && b <= 'i')
        return off_by(abs((int)a - (int)b));              /* a file off by one */
    if (is_sign(a) && is_sign(b))
        return 0.5;
    if (is_position_mark(a) && is_position_mark(b))
        return 0.5;
    if ((a >= 'A' && a <= 'Z') && (b >= 'A' && b <= 'Z'))
        return 0.8;                                       /* a wrong piece letter */
    if (is_cn_piece(a) && is_cn_piece(b))
        return 0.6;  /* a wrong Chinese piece: as likely as a sign, so neither is certain */
    return 1.0;
}

double fixit_distance(const char *written, const char *cand)
{
    uint32_t a[CP_MAX], b[CP_MAX];
    int n = to_cp(written, a), m = to_cp(cand, b);
    double d[CP_MAX + 1][CP_MAX + 1];
    for (int i = 0; i <= n; i++)
        d[i][0] = i;
    for (int j = 0; j <= m; j++)
        d[0][j] = j;
    for (int i = 1; i <= n; i++) {
        double row_min = 1e9;
        for (int j = 1; j <= m; j++) {
            double best = d[i - 1][j - 1] + sub_cost(a[i - 1], b[j - 1]);
            /* deleting a doubled character ("M716." for "M16.") is a common slip */
            double del = (i >= 2 && a[i - 1] == a[i - 2]) ? 0.5 : 1.0;
            if (d[i - 1][j] + del < best)
                best = d[i - 1][j] + del;
            if (d[i][j - 1] + 1.0 < best)
                best = d[i][j - 1] + 1.0;
            if (i >= 2 && j >= 2 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 0.7 < best)
                best = d[i - 2][j - 2] + 0.7;                 /* two characters swapped */
            d[i][j] = best;
            if (best < row_min)
                row_min = best;
        }
        /* every cost is positive, so no later row is cheaper: a text already too far
         * cannot come back (most legal moves are far from what was written) */
        if (row_min > FIXIT_MAX_COST && d[i][0] > FIXIT_MAX_COST)
            return row_min < d[i][0] ? row_min : d[i][0];
    }
    /* a text cut short (the reader stops a word at a stray '.'): its missing end is a
     * cheaper slip than as many wrong characters */
    double best = d[n][m];
    for (int j = n; j < m; j++)
        if (d[n][j] + 0.4 * (m - j) < best)
            best = d[n][j] + 0.4 * (m - j);
    return best;
}

/* Copy of text without trailing check, mate and remark signs (they never decide a move). */
void fixit_strip(const char *text, char *buf, size_t size)
{
    size_t len = strlen(text);
    while (len > 1 && strchr("+#!?", text[len - 1]))
        len--;
    if (len >= size)
        len = size - 1;
    memcpy(buf, text, len);
    buf[len] = '\0';
}

void fixit_keep_cheaper(const char *text, double cost, double *best, char *best_text,
                        size_t size)
{
    if (cost < *best - 1e-9) {
        *best = cost;
        memcpy(best_text, text, size);
    }
}

double fixit_ambiguous_cap(double best, const uint16_t *candidates, int count, uint16_t m)
{
    for (int a = 0; a < count; a++)
        if (candidates[a] == m && best > FIXIT_AMBIGUOUS_COST)
            best = FIXIT_AMBIGUOUS_COST;
    return best;
}

fixit_cand *fixit_add_swap(fixit_cand *c, int *count, const char *text)
{
    fixit_cand *k = &c[(*count)++];
    memset(k, 0, sizeof *k);
    strncpy(k->text, text, sizeof k->text - 1);
    k->cost = 0.9;
    k->kind = FIXIT_SWAP;
    k->group = -1;
    return k;
}

fixit_cand *fixit_add_replace(fixit_cand *c, int *count, int cap, const char *text,
                              double cost, int group)
{
    if (cost > FIXIT_MAX_COST || *count >= cap)
        return NULL;
    fixit_cand *k = &c[(*count)++];
    memset(k, 0, sizeof *k);
    snprintf(k->text, sizeof k->text, "%s", text);
    k->cost = cost;
    k->kind = FIXIT_REPLACE;
    k->group = group;
    return k;
}

static int cand_order(const void *pa, const void *pb)
{
    const fixit_cand *a = pa, *b = pb;
    if (a->replays != b->replays)
        return b->replays - a->replays;
    if (a->canon != b->canon)
        return b->canon - a->canon;
    if (a->rank_cost != b->rank_cost)
        return a->rank_cost < b->rank_cost ? -1 : 1;
    if (a->prior != b->prior)
        return a->prior - b->prior;
    if (a->cost != b->cost)
        return a->cost < b->cost ? -1 : 1;
    return strcmp(a->text, b->text);
}

/* A tie of full replays is broken by the slip's likelihood only when that is clear. */
#define FIXIT_CLEAR_GAP 0.25
#define FIXIT_AMBIGUOUS_GAP 0.1
/* Two candidates of one group (the same piece type to the same square) differ only in
 * which piece moved: a rival unless the text names the one clearly (its disambiguation
 * or promotion letter, "Raf1" for Rae1 rather than Rfe1; "dxf8=Q" for dxe8=Q, not =B) */
#define FIXIT_GROUP_GAP 0.5
/* Where no candidate replays the whole rest: the first is certain when it replays at
 * least this many moves, this many more than any other. */
#define FIXIT_PARTIAL_MIN 4
#define FIXIT_PARTIAL_LEAD 3
/* A fix is certain only for one slip (a wrong check sign aside): a text two slips away
 * ("e3" for "Nf3") is as likely a slip on a different move the rest also allows ("e4",
 * three slips off, is never generated), so the uniqueness of the replay proves nothing. */
#define FIXIT_CERTAIN_MAX_COST (1.0 + FIXIT_MARK_COST)

void fixit_rank(fixit_cand *c, int count, int nrest, fixit_result *out)
{
    /* two of one group that the rest cannot tell apart and that the text does not
     * clearly tell apart either (a wrong disambiguation letter is as likely any other
     * wrong letter, one file off or not): ranked as equally close, so that which piece
     * a player was likelier to move decides */
    for (int i = 0; i < count; i++) {
        c[i].rank_cost = c[i].cost;
        for (int j = 0; j < count; j++)
            if (c[j].group == c[i].group && c[i].kind == FIXIT_REPLACE &&
                c[j].kind == FIXIT_REPLACE && c[j].replays == c[i].replays &&
                c[j].canon == c[i].canon && c[j].cost < c[i].rank_cost &&
                c[i].cost - c[j].cost < FIXIT_GROUP_GAP)
                c[i].rank_cost = c[j].cost;
    }
    qsort(c, (size_t)count, sizeof *c, cand_order);
    out->rest = nrest;
    out->count = count < FIXIT_MAX ? count : FIXIT_MAX;
    memcpy(out->cand, c, (size_t)out->count * sizeof *c);
    out->full = count > 0 && c[0].replays == nrest;
    out->certain = false;
    if (getenv("FIXIT_DEBUG"))
        for (int i = 0; i < count && i < 4; i++)
            fprintf(stderr, "%s%s r%d c%d %.2f%s", i ? " | " : "[", c[i].text, c[i].replays,
                    c[i].canon, c[i].cost, i + 1 == count || i == 3 ? "]\n" : "");
    if (count > 0 && (out->full || c[0].replays >= FIXIT_PARTIAL_MIN)) {
        /* a rival repairs the line as far, with the same evidence from how the rest is
         * written, and the slip does not clearly tell them apart */
        bool rival = false;
        /* a text that reads as the first candidate but for a disambiguation it needs
         * (cost FIXIT_AMBIGUOUS_COST) is clearly closer than any text with a wrong
         * character: only another reading of the same text is a rival on cost */
        double clear_gap = c[0].cost <= FIXIT_AMBIGUOUS_COST ? FIXIT_AMBIGUOUS_GAP
                                                              : FIXIT_CLEAR_GAP;
        for (int i = 1; i < count && c[i].replays == c[0].replays && c[i].canon == c[0].canon;
             i++)
            rival = rival || c[i].cost - c[0].cost < clear_gap ||
                    (c[i].group == c[0].group && c[i].cost - c[0].cost < FIXIT_GROUP_GAP) ||
                    c[i].kind != c[0].kind;
        /* with nothing after the move, the replay proves nothing: only a lone close
         * candidate is certain */
        if (nrest == 0)
            rival = count > 1 || c[0].cost > 1.0;
        /* short of the whole rest (a second error further on), the first must also
         * replay clearly further than any other that does not tie */
        if (!out->full && count > 1 && c[1].replays != c[0].replays &&
            c[1].replays + FIXIT_PARTIAL_LEAD > c[0].replays)
            rival = true;
        out->certain = !rival && c[0].cost <= FIXIT_CERTAIN_MAX_COST + 1e-9;
    }
    if (count == 0)
        out->none = _("no legal move is written close to it");
}

const char **fixit_rest_of(arena *a, const rec_node *bad, int max, int *count)
{
    int n = 0;
    for (const rec_node *k = bad->next; k && n < max; k = k->next)
        n++;
    const char **rest = arena_alloc(a, (size_t)(n ? n : 1) * sizeof *rest);
    n = 0;
    for (const rec_node *k = bad->next; k && n < max; k = k->next)
        rest[n++] = k->text;
    *count = n;
    return rest;
}

static rec_fix *edit(rec_game *g, const char *before, const char *text, rec_span where)
{
    rec_fix *e = arena_alloc(g->arena, sizeof *e);
    e->before = before;
    e->text = arena_strdup(g->arena, text);
    e->where = rec_game_locate(g, where);   /* reported: its line and column */
    e->length = (uint32_t)strlen(before);
    return e;
}

void fixit_attach(rec_game *g, rec_finding *f, const fixit_result *r, const rec_node *bad,
                  uint32_t len)
{
    if (r->count == 0) {
        f->no_suggestion = r->none;
        return;
    }
    f->suggestions = arena_alloc(g->arena, (size_t)r->count * sizeof *f->suggestions);
    for (int i = 0; i < r->count; i++)
        f->suggestions[i] = arena_strdup(g->arena, r->cand[i].text);
    f->suggestion_count = (uint32_t)r->count;
    if (!r->full && !r->certain)
        return;
    const fixit_cand *c = &r->cand[0];
    if (c->kind == FIXIT_SWAP && bad && bad->next) {
        f->fix = edit(g, bad->text, bad->next->text, bad->where);
        f->fix->next = edit(g, bad->next->text, bad->text, bad->next->where);
    } else if (c->kind == FIXIT_REPLACE) {
        const char *before = bad ? bad->text : f->move_text;
        if (!before)
            return;
        f->fix = edit(g, before, c->text, f->where);
        if (!bad)
            f->fix->length = len;
    } else {
        return;
    }
    f->fix_certain = r->certain;
}
