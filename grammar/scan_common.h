/* scan_common.h: what the PGN and WXF readers do alike while they scan and build a
 * game: read the input, collect a comment or value in a bounded buffer, keep bytes as
 * UTF-8 (transcoding text that is not, with one encoding finding a game) and count
 * syntax errors against a limit. Their grammars differ; this logic is written once. */
#ifndef ARBITER_GRAMMAR_SCAN_COMMON_H
#define ARBITER_GRAMMAR_SCAN_COMMON_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "record/arena.h"
#include "record/record.h"

/* Whether s[0..n) holds a byte >= 0x80 (only then can it be anything but ASCII). */
static inline bool scan_has_high(const char *s, size_t n)
{
    unsigned char acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= (unsigned char)s[i];
    return acc & 0x80;
}

/* fread from in; on a read error (the first one) *io_error is set and its message put
 * in error. */
size_t scan_read(FILE *in, char *buf, size_t max, bool *io_error, char *error,
                 size_t errsize);

/* A reader's input read without stdio: up to size bytes into buf; the bytes read, 0 at
 * the end, -1 on a read error (errno set). */
typedef ssize_t (*scan_source_fn)(void *source, char *buf, size_t size);

/* scan_read for a source read by fn: its bytes go straight into buf, with no copy out
 * of a stdio buffer. */
size_t scan_read_source(scan_source_fn fn, void *source, char *buf, size_t max,
                        bool *io_error, char *error, size_t errsize);

/* The text of the comment, string or value being read: malloc'd, reused from one to
 * the next, cut at a limit. */
typedef struct scan_text {
    char *buf;
    size_t len, cap;
    bool truncated;      /* longer than the limit: the rest was skipped */
    bool high;           /* a byte >= 0x80 was appended */
    rec_span start;      /* where the text began */
} scan_text;

void scan_text_reset(scan_text *t, const rec_span *start);
/* Append s[0..n), cut before a character at limit bytes (truncated then, and later
 * appends skipped). True when s holds a byte >= 0x80. */
bool scan_text_append(scan_text *t, const char *s, size_t n, size_t limit);

/* s[0..n) as NUL-terminated UTF-8 in a (*len bytes). When high and s is not valid
 * UTF-8 it is read as Windows-1252 and converted, *converted set (when not NULL), and
 * the game g gets an encoding warning at where, once (*reported; none while g is
 * NULL). */
const char *scan_utf8_copy(arena *a, rec_game *g, bool *reported, const char *s, size_t n,
                           bool high, const rec_span *where, bool *converted, uint32_t *len);

/* A tag appended to g's list (*tail its last tag, NULL before the first). */
void scan_add_tag(arena *a, rec_game *g, rec_tag **tail, const char *name, const char *value,
                  const rec_span *where);

/* A move node of text at where, with the move number written before it (*number and
 * *dots3, taken: reset then). */
rec_node *scan_new_node(arena *a, const char *text, const rec_span *where, uint32_t *number,
                        bool *dots3);

/* Move node n appended to its line: after *last, else as the line's first move (and,
 * when set_where, the line's place is n's); *last is n then and *ctail, where the next
 * comment goes, n's comments. Inline: every move of a game takes it. */
static inline void scan_link_node(rec_line *line, bool set_where, rec_node **last,
                                  rec_comment ***ctail, rec_node *n)
{
    if (*last) {
        (*last)->next = n;
    } else {
        line->first = n;
        if (set_where)
            line->where = n->where;
    }
    *last = n;
    *ctail = &n->comments;
}

/* A comment appended where *ctail points (*ctail then its next). */
rec_comment *scan_add_comment(arena *a, rec_comment ***ctail, const char *text,
                              const rec_span *where);

/* The comment-too-long warning on g for a comment cut at limit bytes. */
void scan_comment_too_long(rec_game *g, const rec_span *where, unsigned limit);

/* A syntax-error finding on g (none while g is NULL), counted in *count and reported
 * while the count is within limit. */
void scan_syntax_error(rec_game *g, uint32_t *count, uint32_t limit, const rec_span *where,
                       const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* At the end of a game: one finding at where for the syntax errors counted past limit,
 * when there were. */
void scan_syntax_overflow(rec_game *g, uint32_t count, uint32_t limit, rec_span where);

#endif
