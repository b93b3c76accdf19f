/* article.c: the [game] block splitter and format sniffing (see article.h). */
#include <config.h>

#include "i18n/i18n.h"
#include "io/article.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "record/nag.h"

/* The window: big enough for fast reads, and far bigger than any lookahead (7 bytes
 * for a tag, ART_EVAL_LOOK for the evaluation after a block). */
#define ART_WINDOW (64u * 1024u)
#define ART_EVAL_LOOK 256u

struct article {
    FILE *in;
    char *buf;
    size_t beg, end;     /* unread bytes are buf[beg..end) */
    src_pos pos;         /* position of buf[beg] */
    bool eof;
    bool io_error;
    bool in_block;       /* between "[game]" and its end */
    bool closed;         /* the last block ended with "[/game]" */
    char error[256];
};

void src_pos_advance(src_pos *p, const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    if (p->off == 0 && n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0)
        p->cont++;   /* a byte-order mark is not a character: no column */
    for (size_t i = 0; i < n; i++) {
        unsigned c = u[i];
        if (c == '\n') {
            p->line++;
            p->line_start = p->off + i + 1;
            p->cont = 0;
        } else if ((c & 0xC0) == 0x80) {
            p->cont++;
        }
    }
    p->off += n;
}

article *article_open(FILE *in)
{
    article *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->buf = malloc(ART_WINDOW);
    if (!a->buf) {
        free(a);
        return NULL;
    }
    a->in = in;
    a->pos = src_pos_start();
    return a;
}

void article_close(article *a)
{
    if (!a)
        return;
    free(a->buf);
    free(a);
}

const char *article_error(const article *a)
{
    return a->error;
}

/* Make at least want bytes available unless the input ends first; returns what is. */
static size_t ensure(article *a, size_t want)
{
    while (a->end - a->beg < want && !a->eof) {
        if (a->beg > 0) {
            memmove(a->buf, a->buf + a->beg, a->end - a->beg);
            a->end -= a->beg;
            a->beg = 0;
        }
        size_t n = fread(a->buf + a->end, 1, ART_WINDOW - a->end, a->in);
        if (n == 0) {
            if (ferror(a->in) && !a->io_error) {
                a->io_error = true;
                snprintf(a->error, sizeof a->error, _("read error: %s"), strerror(errno));
            }
            a->eof = true;
        }
        a->end += n;
    }
    return a->end - a->beg;
}

static void skip(article *a, size_t n)
{
    src_pos_advance(&a->pos, a->buf + a->beg, n);
    a->beg += n;
}

static bool at_tag(const article *a, const char *tag, size_t len)
{
    return a->end - a->beg >= len && strncasecmp(a->buf + a->beg, tag, len) == 0;
}

int article_next_block(article *a, src_pos *open, src_pos *body)
{
    a->in_block = false;
    for (;;) {
        size_t avail = ensure(a, 6);
        if (avail == 0)
            return a->io_error ? -1 : 0;
        const char *p = memchr(a->buf + a->beg, '[', avail);
        if (!p) {
            skip(a, avail);
            continue;
        }
        skip(a, (size_t)(p - (a->buf + a->beg)));
        ensure(a, 6);
        if (at_tag(a, "[game]", 6)) {
            *open = a->pos;
            skip(a, 6);
            *body = a->pos;
            a->in_block = true;
            a->closed = false;
            return 1;
        }
        skip(a, 1);
    }
}

size_t article_read(article *a, char *buf, size_t max)
{
    size_t out = 0;
    while (a->in_block && out < max) {
        size_t avail = ensure(a, 1);
        if (avail == 0) {
            a->in_block = false;     /* end of input inside the block */
            break;
        }
        size_t chunk = avail < max - out ? avail : max - out;
        const char *p = memchr(a->buf + a->beg, '[', chunk);
        size_t n = p ? (size_t)(p - (a->buf + a->beg)) : chunk;
        if (n == 0) {
            ensure(a, 7);
            if (at_tag(a, "[/game]", 7)) {
                skip(a, 7);
                a->in_block = false;
                a->closed = true;
                break;
            }
            if (at_tag(a, "[game]", 6)) {
                a->in_block = false;  /* left for article_next_block */
                break;
            }
            n = 1;
        }
        memcpy(buf + out, a->buf + a->beg, n);
        skip(a, n);
        out += n;
    }
    return out;
}

bool article_block_closed(const article *a)
{
    return a->closed;
}

src_pos article_pos(const article *a)
{
    return a->pos;
}

static bool is_blank(const unsigned char *s, size_t i, size_t n, size_t *len)
{
    if (s[i] == ' ' || s[i] == '\t' || s[i] == '\r') {
        *len = 1;
        return true;
    }
    if (s[i] == 0xC2 && i + 1 < n && s[i + 1] == 0xA0) {   /* no-break space */
        *len = 2;
        return true;
    }
    return false;
}

/* A BBCode tag at s[i] ("[b]", "[color=red]", "[/b]"): its length, or 0. */
static size_t bbcode(const unsigned char *s, size_t i, size_t n, bool closing)
{
    if (i >= n || s[i] != '[')
        return 0;
    size_t k = i + 1;
    if (closing) {
        if (k >= n || s[k] != '/')
            return 0;
        k++;
    } else if (k < n && s[k] == '/') {
        return 0;
    }
    size_t name = k;
    while (k < n && k - i < 48 && isalpha(s[k]))
        k++;
    if (k == name)
        return 0;
    while (k < n && k - i < 48 && s[k] != ']' && s[k] != '[' && s[k] != '\n')
        k++;
    if (k >= n || s[k] != ']')
        return 0;
    return k + 1 - i;
}

int article_eval(article *a, src_pos *where)
{
    size_t n = ensure(a, ART_EVAL_LOOK);
    if (n > ART_EVAL_LOOK)
        n = ART_EVAL_LOOK;
    const unsigned char *s = (const unsigned char *)a->buf + a->beg;
    size_t i = 0, len, newlines = 0;
    /* Blanks, at most one line break: the symbol is on this line or the next. */
    for (;;) {
        if (i < n && is_blank(s, i, n, &len))
            i += len;
        else if (i < n && s[i] == '\n' && newlines == 0) {
            newlines++;
            i++;
        } else
            break;
    }
    while ((len = bbcode(s, i, n, false)) > 0)
        i += len;
    size_t sym = i;
    while (i < n && i - sym <= 16 && s[i] != ' ' && s[i] != '\t' && s[i] != '\r' &&
           s[i] != '\n' && s[i] != '[')
        i++;
    size_t sym_len = i - sym;
    if (sym_len == 0 || sym_len > 16 || isalnum(s[sym]))
        return -1;
    int nag = nag_from_symbol((const char *)s + sym, sym_len);
    if (nag < 0)
        return -1;
    while ((len = bbcode(s, i, n, true)) > 0)
        i += len;
    size_t end = i;
    while (i < n && is_blank(s, i, n, &len))
        i += len;
    if (i < n && s[i] != '\n')
        return -1;    /* more text on that line: prose, not an evaluation */
    *where = a->pos;
    src_pos_advance(where, (const char *)s, sym);
    skip(a, end);
    return nag;
}
