/* writer_common.c: helpers of the binary xiangqi writers. See writer_common.h. */
#include <config.h>

#include "writer/writer_common.h"

#include <stdlib.h>
#include <string.h>

#include "core/xiangqi.h"
#include "i18n/i18n.h"

void writer_buf_put(writer_buf *o, const void *p, size_t n)
{
    if (o->failed || n == 0)
        return;
    if (o->len + n > o->cap) {
        size_t cap = o->cap ? o->cap : 8192;
        while (cap < o->len + n)
            cap *= 2;
        unsigned char *b = realloc(o->b, cap);
        if (!b) {
            o->failed = true;
            return;
        }
        o->b = b;
        o->cap = cap;
    }
    memcpy(o->b + o->len, p, n);
    o->len += n;
}

bool writer_write_bytes(FILE *out, const void *b, size_t len, char *err, size_t errsize)
{
    if (fwrite(b, 1, len, out) == len)
        return true;
    snprintf(err, errsize, _("write error"));
    return false;
}

const char writer_xq_start[] = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";

/* The point of UCCI file and rank characters in a layout. */
static int point(const char *s, writer_squares layout)
{
    int file = s[0] - 'a', rank = s[1] - '0';
    return layout == WRITER_SQ_XQF ? file * 10 + rank : (9 - rank) * 9 + file;
}

bool writer_node_squares(const rec_node *n, writer_squares layout, int *from, int *to)
{
    char t[5];
    const char *s = n->text;
    if (n->status == REC_MOVE_OK) {
        xq_move_to_ucci(n->move, t);
        s = t;
    }
    if (!s || strlen(s) != 4 || s[0] < 'a' || s[0] > 'i' || s[1] < '0' || s[1] > '9' ||
        s[2] < 'a' || s[2] > 'i' || s[3] < '0' || s[3] > '9')
        return false;
    *from = point(s, layout);
    *to = point(s + 2, layout);
    return true;
}

bool writer_node_writable(const rec_node *n)
{
    int f, t;
    return n && writer_node_squares(n, WRITER_SQ_XQF, &f, &t);
}

const rec_node *writer_next_writable(const rec_node *n, unsigned *dropped)
{
    const rec_node *next = n->next;
    if (!next || writer_node_writable(next))
        return next;
    for (; next; next = next->next)
        (*dropped)++;
    return NULL;
}

void *writer_grow(void *p, size_t *cap, size_t size)
{
    void *grown = realloc(p, *cap * 2 * size);
    if (grown)
        *cap *= 2;
    return grown;
}

const char *writer_tag_or(const rec_game *g, const char *a, const char *b)
{
    const char *v = rec_game_tag(g, a);
    return v ? v : b ? rec_game_tag(g, b) : NULL;
}

int writer_result_code(const rec_game *g)
{
    const char *result = g->result;
    if (!result || strcmp(result, "*") == 0)
        result = writer_tag_or(g, "Result", "RESULT");
    return !result ? 0 : strcmp(result, "1-0") == 0 ? 1 : strcmp(result, "0-1") == 0 ? 2
                   : strcmp(result, "1/2-1/2") == 0 ? 3 : 0;
}

size_t writer_comments_size(const rec_comment *c1, const rec_comment *c2)
{
    /* every byte may double (LF to CR LF), plus the CR LF between two comments */
    size_t n = 0;
    for (int pass = 0; pass < 2; pass++)
        for (const rec_comment *c = pass ? c2 : c1; c; c = c->next)
            n += strlen(c->text) * 2 + 2;
    return n;
}

size_t writer_comments_join(char *out, const rec_comment *c1, const rec_comment *c2,
                            bool skip_empty)
{
    size_t j = 0;
    for (int pass = 0; pass < 2; pass++)
        for (const rec_comment *c = pass ? c2 : c1; c; c = c->next) {
            if (skip_empty && !*c->text)
                continue;
            if (j) {
                out[j++] = '\r';
                out[j++] = '\n';
            }
            for (const char *s = c->text; *s; s++) {
                if (*s == '\n' && (s == c->text || s[-1] != '\r'))
                    out[j++] = '\r';
                out[j++] = *s;
            }
        }
    return j;
}
