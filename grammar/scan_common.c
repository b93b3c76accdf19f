/* scan_common.c: the PGN and WXF readers' shared scanning helpers. See scan_common.h. */
#include <config.h>

#include "scan_common.h"

#include <errno.h>
#include <string.h>

#include "i18n/i18n.h"
#include "record/textbuf.h"
#include "record/utf8.h"

size_t scan_read(FILE *in, char *buf, size_t max, bool *io_error, char *error,
                 size_t errsize)
{
    size_t n = fread(buf, 1, max, in);
    if (n == 0 && ferror(in) && !*io_error) {
        *io_error = true;
        snprintf(error, errsize, _("read error: %s"), strerror(errno));
    }
    return n;
}

size_t scan_read_source(scan_source_fn fn, void *source, char *buf, size_t max,
                        bool *io_error, char *error, size_t errsize)
{
    ssize_t n = fn(source, buf, max);
    if (n >= 0)
        return (size_t)n;
    if (!*io_error) {
        *io_error = true;
        snprintf(error, errsize, _("read error: %s"), strerror(errno));
    }
    return 0;
}

void scan_text_reset(scan_text *t, const rec_span *start)
{
    t->len = 0;
    t->truncated = false;
    t->high = false;
    t->start = *start;
}

bool scan_text_append(scan_text *t, const char *s, size_t n, size_t limit)
{
    bool high_in = scan_has_high(s, n);
    if (t->truncated)
        return high_in;
    if (t->len + n > limit) {
        n = limit - t->len;
        /* Cut before a character, not inside one. */
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--;
        t->truncated = true;
    }
    textbuf_reserve(&t->buf, &t->cap, t->len + n + 1);
    memcpy(t->buf + t->len, s, n);
    if (high_in)
        t->high = true;
    t->len += n;
    return high_in;
}

const char *scan_utf8_copy(arena *a, rec_game *g, bool *reported, const char *s, size_t n,
                           bool high, const rec_span *where, bool *converted, uint32_t *len)
{
    if (high && utf8_valid_prefix((const unsigned char *)s, n) != n) {
        if (converted)
            *converted = true;
        if (!*reported && g) {
            *reported = true;
            rec_game_add_finding(g, "encoding", REC_WARNING, *where,
                                 _("text is not valid UTF-8; read as Windows-1252 (Latin-1) "
                                 "and converted"));
        }
        return utf8_from_cp1252(a, (const unsigned char *)s, n, len);
    }
    *len = (uint32_t)n;
    return arena_strndup(a, s, n);
}

void scan_add_tag(arena *a, rec_game *g, rec_tag **tail, const char *name, const char *value,
                  const rec_span *where)
{
    rec_tag *t = arena_alloc(a, sizeof *t);
    t->name = name;
    t->value = value;
    t->name_len = (uint32_t)strlen(name);
    t->value_len = (uint32_t)strlen(value);
    t->where = *where;
    rec_game_link_tag(g, *tail, t);
    *tail = t;
}

rec_node *scan_new_node(arena *a, const char *text, const rec_span *where, uint32_t *number,
                        bool *dots3)
{
    rec_node *n = arena_alloc(a, sizeof *n);
    n->text = text;
    n->where = *where;
    n->number = *number;
    n->number_dots3 = *dots3;
    *number = 0;
    *dots3 = false;
    return n;
}

rec_comment *scan_add_comment(arena *a, rec_comment ***ctail, const char *text,
                              const rec_span *where)
{
    rec_comment *c = arena_alloc(a, sizeof *c);
    c->text = text;
    c->where = *where;
    **ctail = c;
    *ctail = &c->next;
    return c;
}

void scan_comment_too_long(rec_game *g, const rec_span *where, unsigned limit)
{
    rec_game_add_finding(g, "comment-too-long", REC_WARNING, *where,
                         _("comment longer than %u bytes; the rest is skipped"), limit);
}

void scan_syntax_error(rec_game *g, uint32_t *count, uint32_t limit, const rec_span *where,
                       const char *fmt, ...)
{
    if (!g)
        return;
    ++*count;
    if (*count > limit)
        return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    rec_game_add_finding(g, "syntax-error", REC_ERROR, *where, "%s", msg);
}

void scan_syntax_overflow(rec_game *g, uint32_t count, uint32_t limit, rec_span where)
{
    if (count > limit)
        rec_game_add_finding(g, "syntax-error", REC_ERROR, where,
                             _("%u more syntax errors in this game not reported"),
                             (unsigned)(count - limit));
}
