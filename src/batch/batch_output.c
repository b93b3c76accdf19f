/* batch_output.c: the text of a piece until its turn. See batch_output.h. */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "batch/batch_output.h"
#include "i18n/i18n.h"
#include "record/textbuf.h"

static void out_of_memory(void)
{
    fputs(_("arbiter: out of memory\n"), stderr);
    abort();
}

void batch_fixes_push(batch_fixes *f, size_t at)
{
    if (f->n == f->cap) {
        f->cap = f->cap ? f->cap * 2 : 64;
        size_t *grown = realloc(f->at, f->cap * sizeof *f->at);
        if (!grown)
            out_of_memory();
        f->at = grown;
    }
    f->at[f->n++] = at;
}

/* The streams a piece's games write to: appending to a piece_text. */
static ssize_t text_write(void *v, const char *s, size_t n)
{
    batch_text *t = v;
    textbuf_reserve(&t->buf, &t->cap, t->len + n);
    memcpy(t->buf + t->len, s, n);
    t->len += n;
    return (ssize_t)n;
}

/* Only ftell's question (where is the stream?) is answered: the end of the text. */
static int text_seek(void *v, off64_t *pos, int whence)
{
    const batch_text *t = v;
    if (whence != SEEK_CUR || *pos != 0)
        return -1;
    *pos = (off64_t)t->len;
    return 0;
}

FILE *batch_text_open(batch_text *t)
{
    cookie_io_functions_t io = {.write = text_write, .seek = text_seek};
    FILE *f = fopencookie(t, "w", io);
    if (!f)
        out_of_memory();
    /* unbuffered: a write goes straight into t, not through a stdio buffer copied out
     * on each flush (a game's document is one write; the marks flush per game) */
    setvbuf(f, NULL, _IONBF, 0);
    return f;
}

FILE *batch_hold_open(batch_marks *m)
{
    return batch_text_open(m->held_err);
}

const char *batch_held_text(const batch_marks *m)
{
    return m->held_err->buf;
}

const char *batch_out_text(const batch_marks *m)
{
    return m->out_text->buf;
}

void batch_out_write(batch_marks *m, const char *text, size_t len)
{
    text_write(m->out_text, text, len);
}

size_t batch_out_len(const batch_marks *m)
{
    return m->out_text->len;
}

size_t batch_held_len(const batch_marks *m)
{
    return m->held_err->len;
}

void batch_splice(batch_marks *m, size_t at, size_t del, const char *text, size_t len)
{
    batch_edits *x = m->out_edits;
    if (x->n == x->cap) {
        x->cap = x->cap ? x->cap * 2 : 64;
        batch_edit *grown = realloc(x->e, x->cap * sizeof *x->e);
        if (!grown)
            out_of_memory();
        x->e = grown;
    }
    x->e[x->n++] = (batch_edit){at, del, x->text.len, len};
    textbuf_reserve(&x->text.buf, &x->text.cap, x->text.len + len);
    memcpy(x->text.buf + x->text.len, text, len);
    x->text.len += len;
}

/* Whether a diagnostics line is one of the lines diag.c puts under a diagnostic: the
 * source line ("%6u | ", no leading blank from line 100000 on), the caret and fix-it
 * lines and the board ("       | "). */
static bool diag_detail_line(const char *s, const char *end)
{
    const char *p = s;
    while (p < end && (*p == ' ' || (*p >= '0' && *p <= '9')))
        p++;
    return p > s && p[-1] == ' ' && end - p >= 2 && p[0] == '|' && p[1] == ' ';
}

bool batch_drop_repeated_encoding(batch_text *err, batch_fixes *fixes, bool said)
{
    /* the diagnostic's severity word is in the user's language (diag.c) */
    char needle[64];
    int needle_len = snprintf(needle, sizeof needle, ": %s[encoding]: ", _("warning"));
    char *text = err->buf;
    if (!err->len || !memmem(text, err->len, needle, (size_t)needle_len))
        return false;
    bool dropping = false;
    size_t o = 0, k = 0, removed = 0;
    for (size_t at = 0; at < err->len;) {
        const char *nl = memchr(text + at, '\n', err->len - at);
        size_t end = nl ? (size_t)(nl - text) + 1 : err->len;
        bool warning = memmem(text + at, end - at, needle, (size_t)needle_len) != NULL;
        bool drop;
        if (warning) {
            drop = dropping = said;
            said = true;
        } else {
            drop = dropping && diag_detail_line(text + at, text + end);
            dropping = drop;
        }
        for (; k < fixes->n && fixes->at[k] < end; k++)
            fixes->at[k] -= removed; /* marks of dropped lines are never in this block */
        if (drop) {
            removed += end - at;
        } else {
            memmove(text + o, text + at, end - at);
            o += end - at;
        }
        at = end;
    }
    err->len = o;
    return true;
}

/* The decimal digits of v at out (at most 20); their count. */
static size_t u64_digits(uint64_t v, char *out)
{
    char rev[20];
    size_t n = 0;
    do {
        rev[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (size_t i = 0; i < n; i++)
        out[i] = rev[n - 1 - i];
    return n;
}

/* Where renumbering puts its output: runs of bytes (the text's own, a replacement's) and
 * the new numbers, in order. */
typedef struct renum_out {
    void (*run)(void *to, const char *s, size_t n);
    void (*number)(void *to, uint64_t v);
    void *to;
} renum_out;

/* t with the numbers at fixes moved on by base and edits' replacements made, given to o
 * piece by piece: the numbers and the replacements merged in the order of their places. */
static void renumber(const batch_text *t, const batch_fixes *fixes, const batch_edits *edits,
                     uint64_t base, const renum_out *o)
{
    const char *buf = t->buf;
    size_t len = t->len, at = 0;
    const size_t *fix = fixes->at;
    size_t nfix = fixes->n, nedit = edits ? edits->n : 0;
    for (size_t i = 0, k = 0; i < nfix || k < nedit;) {
        if (k < nedit && (i == nfix || edits->e[k].at < fix[i])) {
            const batch_edit *x = &edits->e[k++];
            if (x->at < at || x->at + x->del > len)
                continue;
            o->run(o->to, buf + at, x->at - at);
            o->run(o->to, edits->text.buf + x->from, x->len);
            at = x->at + x->del;
            continue;
        }
        size_t d = fix[i++];
        if (d < at || d > len)
            continue;
        o->run(o->to, buf + at, d - at);
        uint64_t v = 0;
        size_t e = d;
        while (e < len && buf[e] >= '0' && buf[e] <= '9')
            v = v * 10 + (uint64_t)(buf[e++] - '0');
        o->number(o->to, v + base);
        at = e;
    }
    o->run(o->to, buf + at, len - at);
}

/* An output of segments for writev, handed to the system in calls of up to SEG_MAX
 * segments, with no copy on the way. */
enum { SEG_MAX = 256 };
typedef struct seg_out {
    int fd;
    bool failed;
    int n;
    struct iovec iov[SEG_MAX];
    char digits[SEG_MAX][20];   /* the new numbers of this call */
} seg_out;

/* Write the segments gathered, all of them: writev may take fewer bytes (a pipe). */
static void seg_flush(seg_out *o)
{
    struct iovec *v = o->iov;
    int n = o->n;
    o->n = 0;
    while (n > 0 && !o->failed) {
        ssize_t w = writev(o->fd, v, n > IOV_MAX ? IOV_MAX : n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            o->failed = true;
            break;
        }
        size_t left = (size_t)w;
        for (; n > 0 && left >= v->iov_len; v++, n--)
            left -= v->iov_len;
        if (n > 0 && left > 0) {   /* a segment written in part: its rest next */
            v->iov_base = (char *)v->iov_base + left;
            v->iov_len -= left;
        }
    }
}

static void seg_run(void *to, const char *s, size_t len)
{
    seg_out *o = to;
    if (!len)
        return;
    if (o->n == SEG_MAX)
        seg_flush(o);
    o->iov[o->n++] = (struct iovec){(void *)s, len};
}

/* A number's digits: kept in the slot of the segment that points at them. */
static void seg_number(void *to, uint64_t v)
{
    seg_out *o = to;
    if (o->n == SEG_MAX)
        seg_flush(o);
    char *d = o->digits[o->n];
    o->iov[o->n] = (struct iovec){d, u64_digits(v, d)};
    o->n++;
}

/* A block being filled (the memory stream's way). */
typedef struct block_out {
    char *at;
} block_out;

static void block_run(void *to, const char *s, size_t len)
{
    block_out *o = to;
    memcpy(o->at, s, len);
    o->at += len;
}

static void block_number(void *to, uint64_t v)
{
    block_out *o = to;
    o->at += u64_digits(v, o->at);
}

bool batch_write_renumbered(FILE *f, const batch_text *t, const batch_fixes *fixes,
                            const batch_edits *edits, uint64_t base, char **scratch,
                            size_t *scratch_cap)
{
    int fd = fileno(f);
    if (fd >= 0) {
        /* straight to the descriptor, runs of the piece's own bytes (flushed first, so
         * that the bytes keep their order): the ordered writer of -j copied every report
         * twice, into a scratch block and into stdio's buffer, in the thread that also
         * cuts the input */
        if (fflush(f) != 0)
            return false;
        seg_out *o = malloc(sizeof *o);
        if (!o)
            out_of_memory();
        o->fd = fd;
        o->failed = false;
        o->n = 0;
        renumber(t, fixes, edits, base, &(renum_out){seg_run, seg_number, o});
        seg_flush(o);
        bool ok = !o->failed;
        free(o);
        return ok;
    }
    /* a stream of no descriptor (a memory stream): one block through it, so that stdio
     * takes it in a call, not a call per game */
    const char *buf = t->buf;
    size_t len = t->len;
    if (fixes->n || (edits && edits->n)) {
        textbuf_reserve(scratch, scratch_cap,
                        len + fixes->n * 20 + (edits && edits->n ? edits->text.len : 0) + 1);
        block_out o = {*scratch};
        renumber(t, fixes, edits, base, &(renum_out){block_run, block_number, &o});
        buf = *scratch;
        len = (size_t)(o.at - *scratch);
    }
    if (len)
        fwrite(buf, 1, len, f);
    return !ferror(f);
}


void batch_mark_out_at(batch_marks *m, size_t at)
{
    if (m)
        batch_fixes_push(m->out_fixes, at);
}

void batch_mark_index(batch_marks *m, FILE *stream, long from, const char *needle)
{
    if (!m || from < 0)
        return;
    fflush(stream);
    bool is_out = stream == m->out;
    const batch_text *t = is_out ? m->out_text : m->err_text;
    if (!t->buf || (size_t)from > t->len)
        return;
    const char *hit = textbuf_find(t->buf + from, t->len - (size_t)from, needle, strlen(needle));
    if (!hit)
        return;
    size_t at = (size_t)(hit - t->buf) + strlen(needle);
    batch_fixes_push(is_out ? m->out_fixes : m->err_fixes, at);
}
