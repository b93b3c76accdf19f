/* batch_pool.c: the thread pool of the batch engine and its ordered output. See
 * batch.h. */
#include <config.h>

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch/batch_cut.h"
#include "batch/batch_internal.h"
#include "batch/batch_output.h"
#include "batch/batch_replay.h"
#include "engine/mate_search.h"
#include "i18n/i18n.h"
#include "io/gbk.h"
#include "io/input.h"
#include "reader/reader.h"
#include "record/textbuf.h"

/* With jobs = N there are N - 1 worker threads, and the calling thread is the Nth
 * worker besides cutting the input into pieces and writing them out in input order,
 * so that no more threads want a core than the user asked for. A worker that finds no
 * piece waiting cuts the next one itself (the main thread may be busy replaying one).
 * Pieces and their buffers are reused: fresh memory costs a page fault per 4 KiB. */

enum { PIECE_WAITING, PIECE_TAKEN, PIECE_DONE };

/* A piece of an input that may be cut: whole games, from a line start; or a whole
 * one-game file; or a message only. */
typedef struct piece {
    struct piece *next;
    const reader_format *fmt;
    const char *path;
    unsigned file_no;
    bool compressed;         /* batch_no_source_text() of its file */
    char *data;
    size_t len, cap;
    uint64_t offset;         /* of data[0] in the file's text */
    uint32_t line;
    bool bom_seen;
    bool last_of_file;
    bool no_games;           /* a message only */
    bool whole_file;         /* data is one whole one-game file (READER_WHOLE_FILE) */
    char *pre_msg, *post_msg;/* stderr text before and after the piece's own */
    uint64_t bytes_done;     /* of all inputs, when the piece was cut (progress) */
    /* Results (of the thread that replayed it). */
    int state;               /* PIECE_WAITING, _TAKEN (being replayed), _DONE */
    batch_text out, err;
    batch_text held_err;     /* the sink's, for games waiting to settle */
    batch_fixes ofix, efix;
    batch_edits oedit;       /* the sink's replacements in out (settle) */
    FILE *fout, *ferr;       /* the streams on out and err, while the sink may write */
    void *part;
    uint64_t games;
    bool clean;
    bool io_error;
    bool stop;
    char errmsg[300];
} piece;

static void out_of_memory(void)
{
    fputs(_("arbiter: out of memory\n"), stderr);
    abort();
}

/* The PGN input being cut into pieces. Whoever holds the cutting role (pool.cutting)
 * uses it without the lock; open and stuck change under the lock. */
typedef struct cutter {
    input *in;
    const char *path;
    unsigned file_no;
    const reader_format *fmt;
    bool compressed;         /* batch_no_source_text() of the input */
    uint64_t bytes_before;   /* of the inputs before this one (progress) */
    size_t target_size;
    bool fixed;              /* ARBITER_PIECE_SIZE: that size to the end */
    uint64_t size;           /* of the text when known, else 0 */
    bool eof, read_error, bom;
    bool failed;             /* a read error or corrupt data was said */
    uint64_t offset;         /* of the next piece */
    uint32_t line;
    piece *held;             /* the next piece: the bytes read past the last cut */
    bool open;               /* pieces are still to be cut */
    bool stuck;              /* no game start in BATCH_PIECE_MAX bytes: the main thread reads
                                the rest itself */
} cutter;

typedef struct pool {
    const batch_options *opts;
    const batch_sink *sink;
    void *ctx;
    FILE *out, *err;
    pthread_mutex_t mu;
    pthread_cond_t work;     /* for the workers: a piece waits, or the end came */
    pthread_cond_t done;     /* for the main thread: a worker finished a piece or gave
                                the cutting role back */
    piece *head, *tail;      /* in input order, not yet written */
    int in_flight, max_in_flight;
    int waiting;             /* pieces no thread has taken */
    int leave;               /* waiting pieces the main thread leaves to the workers */
    int jobs;
    bool eof;                /* no more pieces will come */
    bool stop;               /* a write failed: stop reading */
    bool cutting;            /* a thread is cutting the next piece */
    cutter cut;
    piece *spare;            /* written pieces, for reuse */
    /* The main thread's own, used without the lock. */
    bool io_failed;
    arena a;                 /* for the games it replays itself */
    char *fixed;             /* a piece's text with the file's game numbers */
    size_t fixed_cap;
    batch_progress *pg;
    uint64_t file_games;     /* games of the current file written so far */
    unsigned file_no;
    unsigned encoding_said;  /* file_no + 1 of the file whose encoding warning is out */
} pool;

/* A piece for path, from the spare ones when there is one (its buffers kept). Called
 * without the lock. */
static piece *pool_piece(pool *pl, const reader_format *fmt, const char *path,
                         unsigned file_no)
{
    pthread_mutex_lock(&pl->mu);
    piece *p = pl->spare;
    if (p)
        pl->spare = p->next;
    pthread_mutex_unlock(&pl->mu);
    if (p) {
        piece keep = *p;
        memset(p, 0, sizeof *p);
        p->data = keep.data;
        p->cap = keep.cap;
        p->out = (batch_text){keep.out.buf, 0, keep.out.cap};
        p->err = (batch_text){keep.err.buf, 0, keep.err.cap};
        p->held_err = (batch_text){keep.held_err.buf, 0, keep.held_err.cap};
        p->ofix = (batch_fixes){keep.ofix.at, 0, keep.ofix.cap};
        p->efix = (batch_fixes){keep.efix.at, 0, keep.efix.cap};
        p->oedit = (batch_edits){keep.oedit.e, 0, keep.oedit.cap,
                                 {keep.oedit.text.buf, 0, keep.oedit.text.cap}};
    } else if (!(p = calloc(1, sizeof *p))) {
        out_of_memory();
    }
    p->fmt = fmt;
    p->path = path;
    p->file_no = file_no;
    return p;
}

static void piece_free(piece *p)
{
    free(p->data);
    free(p->out.buf);
    free(p->err.buf);
    free(p->held_err.buf);
    free(p->ofix.at);
    free(p->efix.at);
    free(p->oedit.e);
    free(p->oedit.text.buf);
    free(p->pre_msg);
    free(p->post_msg);
    free(p);
}

/* Buffers above this go back to the system when their piece is done (a huge game's). */
#define PIECE_KEEP (4 * 1024 * 1024)

static void drop_if_huge(char **buf, size_t *cap)
{
    if (*cap > PIECE_KEEP) {
        free(*buf);
        *buf = NULL;
        *cap = 0;
    }
}

/* Close the streams of a piece whose sink might have settled more (their text kept). */
static void piece_close_streams(piece *p)
{
    if (p->fout) {
        fclose(p->fout);
        fclose(p->ferr);
        p->fout = p->ferr = NULL;
    }
}

/* A piece written or dropped (its part already merged or NULL) becomes a spare.
 * Called without the lock. */
static void pool_retire(pool *pl, piece *p)
{
    piece_close_streams(p);
    free(p->pre_msg);
    free(p->post_msg);
    p->pre_msg = p->post_msg = NULL;
    drop_if_huge(&p->data, &p->cap);
    drop_if_huge(&p->out.buf, &p->out.cap);
    drop_if_huge(&p->err.buf, &p->err.cap);
    drop_if_huge(&p->held_err.buf, &p->held_err.cap);
    pthread_mutex_lock(&pl->mu);
    p->next = pl->spare;
    pl->spare = p;
    pthread_mutex_unlock(&pl->mu);
}

/* The sink is done with a piece's part: closed now, or after its games settled on
 * the main thread (batch.h). */
static void piece_finish(pool *pl, piece *p)
{
    if (pl->sink->settle)
        return;
    if (!pl->sink->finish(p->part))
        p->stop = true;
    piece_close_streams(p);
}

/* Read and replay a piece into its buffers. */
static void piece_process(pool *pl, piece *p, arena *a)
{
    piece_close_streams(p);
    p->out.len = p->err.len = 0;
    p->held_err.len = 0;
    p->ofix.n = p->efix.n = 0;
    p->oedit.n = p->oedit.text.len = 0;
    p->games = 0;
    p->clean = true;
    p->io_error = p->stop = false;
    /* a report or a record is about as long as the games it tells of: room for it now,
     * mapped at once, not doubled (and copied) a few times on the way */
    textbuf_reserve(&p->out.buf, &p->out.cap, p->len);
    p->fout = batch_text_open(&p->out);
    p->ferr = batch_text_open(&p->err);
    p->part = pl->sink->begin(pl->ctx, p->fout, p->ferr);
    batch_marks marks = {&p->out, &p->err, &p->ofix, &p->efix, p->fout, p->ferr,
                         &p->held_err, &p->oedit};
    const reader_format *fmt = p->fmt;
    if (p->whole_file) {
        /* one file, one game, decoded here as batch_each_game_of() reads it */
        rec_game g;
        arena_reset(a);
        rec_game_init(&g, a, p->path, 1);
        fmt->decode((const unsigned char *)p->data, p->len, &g, a);
        p->games = 1;
        batch_replay(&g, fmt, pl->opts);
        if (!pl->sink->game(&g, NULL, p->part, &marks))
            p->stop = true;
        piece_finish(pl, p);
        return;
    }
    /* the piece is scanned where it is (it is this thread's until done): no stream
     * copying it into the scanner's buffer */
    void *r = NULL;
    if (p->len) {
        textbuf_reserve(&p->data, &p->cap, p->len + 2);
        r = fmt->open_buffer(p->data, p->len, p->path);
    }
    if (r) {
        fmt->set_start(r, p->offset, p->line, p->bom_seen);
        for (;;) {
            rec_game g;
            arena_reset(a);
            rec_game_init(&g, a, p->path, p->games + 1);
            int got = fmt->next(r, &g, a);
            if (got < 0) {
                p->io_error = true;
                snprintf(p->errmsg, sizeof p->errmsg, "%s", fmt->error(r));
                break;
            }
            if (got == 0)
                break;
            p->games++;
            g.index = p->games;
            batch_replay(&g, fmt, pl->opts);
            if (fmt->after_replay)
                fmt->after_replay(r, &g);
            if (!pl->sink->game(&g, p->compressed ? NULL : p->path, p->part, &marks)) {
                p->stop = true;
                break;
            }
        }
        p->clean = fmt->ended_cleanly(r);
        fmt->close(r);
    } else if (p->len) {
        p->io_error = true;
        snprintf(p->errmsg, sizeof p->errmsg, _("out of memory"));
    }
    piece_finish(pl, p);
}

/* Lock held: the oldest piece no thread has taken (there is one when waiting > 0). */
static piece *pool_oldest_waiting(pool *pl)
{
    piece *p = pl->head;
    while (p && p->state != PIECE_WAITING)
        p = p->next;
    return p;
}

/* Lock held: take p and replay it (without the lock). After a stop it is only marked
 * done: it will be dropped unwritten. */
static void pool_run(pool *pl, piece *p, arena *a)
{
    p->state = PIECE_TAKEN;
    pl->waiting--;
    bool skip = pl->stop;
    pthread_mutex_unlock(&pl->mu);
    if (!skip)
        piece_process(pl, p, a);
    pthread_mutex_lock(&pl->mu);
    p->state = PIECE_DONE;
}

/* Write a done piece (main thread, no lock); false when writing must stop. */
static bool piece_write(pool *pl, piece *p)
{
    if (p->file_no != pl->file_no) {
        pl->file_no = p->file_no;
        pl->file_games = 0;
    }
    bool ok = true;
    if (pl->sink->settle && p->part) {
        /* the games settle in input order before any of their text goes out */
        batch_marks marks = {&p->out, &p->err, &p->ofix, &p->efix, p->fout, p->ferr,
                             &p->held_err, &p->oedit};
        for (uint64_t k = 1; k <= p->games && ok; k++)
            ok = pl->sink->settle(pl->ctx, p->part, k, &marks);
        if (!pl->sink->finish(p->part))
            ok = false;
    }
    piece_close_streams(p);
    if (p->pre_msg || p->err.len || p->post_msg || p->io_error)
        batch_progress_clear(pl->pg);
    if (p->pre_msg)
        fputs(p->pre_msg, pl->err);
    if (!p->no_games) {
        ok = batch_write_renumbered(pl->out, &p->out, &p->ofix, &p->oedit, pl->file_games,
                                    &pl->fixed, &pl->fixed_cap) && ok;
        if (batch_drop_repeated_encoding(&p->err, &p->efix, pl->encoding_said == pl->file_no + 1))
            pl->encoding_said = pl->file_no + 1;
        batch_write_renumbered(pl->err, &p->err, &p->efix, NULL, pl->file_games, &pl->fixed,
                               &pl->fixed_cap);
        if (p->part && !pl->sink->merge(pl->ctx, p->part, true))
            ok = false;
        p->part = NULL;
        if (p->io_error) {
            batch_error("%s: %s", p->path, p->errmsg);
            pl->io_failed = true;
        }
        pl->file_games += p->games;
        pl->pg->games += p->games;
    }
    if (p->post_msg)
        fputs(p->post_msg, pl->err);
    batch_progress_show(pl->pg, p->bytes_done, false);
    return ok && !p->stop;
}

/* Lock held: take the head off the queue. */
static piece *pool_pop_head(pool *pl)
{
    piece *p = pl->head;
    pl->head = p->next;
    if (!pl->head)
        pl->tail = NULL;
    pl->in_flight--;
    return p;
}

/* Lock held (dropped meanwhile): write the head piece, or drop it after a stop. */
static void pool_write_head(pool *pl)
{
    piece *p = pool_pop_head(pl);
    bool stopped = pl->stop;
    pthread_mutex_unlock(&pl->mu);
    bool ok = true;
    if (stopped) {
        /* a write failed before: nothing more is written, as with -j 1 */
        if (p->part)
            pl->sink->merge(pl->ctx, p->part, false);
        p->part = NULL;
    } else {
        ok = piece_write(pl, p);
    }
    pool_retire(pl, p);
    pthread_mutex_lock(&pl->mu);
    if (!ok)
        pl->stop = true;
}

/* A piece that did not end on a game boundary is read again with the next one. */
static bool piece_needs_next(const piece *p)
{
    return !p->no_games && !p->whole_file && !p->clean && !p->last_of_file && !p->stop &&
           !p->io_error;
}

/* Lock held (dropped meanwhile): put the next piece's bytes after p's (the head, done)
 * and read it again in this thread; the next piece is dropped, replayed or not. */
static void pool_absorb_next(pool *pl, piece *p)
{
    piece *q = p->next;
    if (q->state == PIECE_WAITING)
        pl->waiting--; /* no need to replay it on its own */
    p->next = q->next;
    if (pl->tail == q)
        pl->tail = p;
    pl->in_flight--;
    pthread_mutex_unlock(&pl->mu);
    textbuf_reserve(&p->data, &p->cap, p->len + q->len + 2);
    memcpy(p->data + p->len, q->data, q->len);
    p->len += q->len;
    p->last_of_file = q->last_of_file;
    if (q->post_msg) {
        free(p->post_msg);
        p->post_msg = q->post_msg;
        q->post_msg = NULL;
    }
    p->bytes_done = q->bytes_done;
    if (q->part)
        pl->sink->merge(pl->ctx, q->part, false);
    if (p->part)
        pl->sink->merge(pl->ctx, p->part, false);
    q->part = p->part = NULL;
    pool_retire(pl, q);
    piece_process(pl, p, &pl->a);
    pthread_mutex_lock(&pl->mu);
}

/* Lock held: one thing the main thread can do now. Write the head when it is done (a
 * head that must be read again with the next piece waits for that one, unless draining
 * and there is none), or else replay the oldest waiting piece when more than leave
 * wait. False when there was nothing to do. */
static bool pool_step(pool *pl, int leave, bool draining)
{
    piece *h = pl->head;
    if (h && h->state == PIECE_DONE) {
        piece *q = h->next;
        if (pl->stop || !piece_needs_next(h) || (!q && draining)) {
            pool_write_head(pl);
            return true;
        }
        if (q && q->state != PIECE_TAKEN) {
            pool_absorb_next(pl, h);
            return true;
        }
    }
    if (pl->waiting > leave) {
        pool_run(pl, pool_oldest_waiting(pl), &pl->a);
        return true;
    }
    return false;
}

/* Lock held: put p at the end of the queue, as state. */
static void pool_append(pool *pl, piece *p, int state)
{
    p->next = NULL;
    if (pl->tail)
        pl->tail->next = p;
    else
        pl->head = p;
    pl->tail = p;
    pl->in_flight++;
    p->state = state;
    if (state == PIECE_WAITING) {
        pl->waiting++;
        pthread_cond_signal(&pl->work);
    }
}

/* Lock held: wait (helping) while too many pieces are in flight. */
static void pool_wait_for_room(pool *pl)
{
    while (pl->in_flight >= pl->max_in_flight && !pl->stop)
        if (!pool_step(pl, 0, false))
            pthread_cond_wait(&pl->done, &pl->mu);
}

/* Queue a piece made by the main thread (a message, an XQF file), helping while too
 * many are in flight; false when told to stop. */
static bool pool_push(pool *pl, piece *p)
{
    pthread_mutex_lock(&pl->mu);
    pool_wait_for_room(pl);
    bool stop = pl->stop;
    if (!stop) {
        pool_append(pl, p, p->no_games ? PIECE_DONE : PIECE_WAITING);
        while (pool_step(pl, pl->leave, false))
            ;
    }
    pthread_mutex_unlock(&pl->mu);
    if (stop)
        pool_retire(pl, p);
    return !stop;
}

/* Write everything queued, the main thread lending a hand. hold_open: a last piece
 * that ended inside a game is not written but returned, off the queue (its bytes go
 * before the rest of the input); otherwise NULL. */
static piece *pool_drain(pool *pl, bool hold_open)
{
    piece *open = NULL;
    pthread_mutex_lock(&pl->mu);
    while (pl->head) {
        piece *h = pl->head;
        if (hold_open && h == pl->tail && h->state == PIECE_DONE && !pl->stop &&
            piece_needs_next(h)) {
            open = pool_pop_head(pl);
            break;
        }
        if (!pool_step(pl, 0, !hold_open))
            pthread_cond_wait(&pl->done, &pl->mu);
    }
    pthread_mutex_unlock(&pl->mu);
    if (open && open->part) {
        pl->sink->merge(pl->ctx, open->part, false);
        open->part = NULL;
    }
    return open;
}

static char *dup_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *dup_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    if (vasprintf(&s, fmt, ap) < 0)
        s = NULL;
    va_end(ap);
    return s;
}

/* The size of the text of an input when known before reading it: a plain regular
 * file's (not compressed, not transcoded); 0 when unknown. */
static uint64_t known_text_size(const input *in)
{
    struct stat st;
    if (in->compressed || in->encoding != INPUT_ENC_UTF8 || fstat(fileno(in->raw), &st) != 0 ||
        !S_ISREG(st.st_mode))
        return 0;
    return (uint64_t)st.st_size;
}

/* The rest of an input with no game boundary in BATCH_PIECE_MAX bytes (a huge comment or
 * game): read in this thread, in its turn, in constant memory: the bytes held (those
 * of a last queued piece that ended inside a game, then those read since), then the
 * stream. */
typedef struct rest_stream {
    const char *buf[2];
    size_t len[2];
    int part;
    size_t pos;
    input *in;
} rest_stream;

static ssize_t rest_read(void *v, char *out, size_t size)
{
    rest_stream *r = v;
    while (r->part < 2) {
        if (r->pos < r->len[r->part]) {
            size_t n = r->len[r->part] - r->pos < size ? r->len[r->part] - r->pos : size;
            memcpy(out, r->buf[r->part] + r->pos, n);
            r->pos += n;
            return (ssize_t)n;
        }
        r->part++;
        r->pos = 0;
    }
    return input_read(r->in, out, size);
}

/* held: the bytes read since the last cut (pre_msg of the file's first piece when no
 * piece was queued), its offset, line and byte-order mark state. */
static void rest_sequential(pool *pl, piece *held, input *in, uint64_t offset,
                                uint32_t line, bool bom, uint64_t bytes_before)
{
    piece *open = pool_drain(pl, true);
    const char *path = held->path;
    unsigned file_no = held->file_no;
    pthread_mutex_lock(&pl->mu);
    bool stop = pl->stop;
    pthread_mutex_unlock(&pl->mu);
    char *pre_msg = open ? open->pre_msg : held->pre_msg;
    if (pre_msg) {
        batch_progress_clear(pl->pg);
        fputs(pre_msg, pl->err);
    }
    if (stop) {
        if (open)
            pool_retire(pl, open);
        pool_retire(pl, held);
        return;
    }
    rest_stream rs = {{NULL, held->data}, {0, held->len}, 0, 0, in};
    if (open) {
        /* the reader of the whole input would have gone on with that piece's last game */
        rs.buf[0] = open->data;
        rs.len[0] = open->len;
        offset = open->offset;
        line = open->line;
        bom = open->bom_seen;
    }
    cookie_io_functions_t io = {.read = rest_read};
    FILE *fp = fopencookie(&rs, "r", io);
    const reader_format *fmt = held->fmt;
    void *r = fp ? fmt->open(fp, path) : NULL;
    if (!r)
        out_of_memory();
    fmt->set_start(r, offset, line, bom);
    void *part = pl->sink->begin(pl->ctx, pl->out, pl->err);
    if (pl->file_no != file_no) {
        pl->file_no = file_no;
        pl->file_games = 0;
    }
    uint64_t base = pl->file_games, index = 0;
    bool ok = true;
    for (;;) {
        rec_game g;
        arena_reset(&pl->a);
        rec_game_init(&g, &pl->a, path, base + index + 1);
        int got = fmt->next(r, &g, &pl->a);
        if (got < 0) {
            batch_progress_clear(pl->pg);
            batch_error("%s: %s", path, input_failed(in) ? _("corrupt or truncated compressed data")
                                                         : fmt->error(r));
            pl->io_failed = true;
            break;
        }
        if (got == 0)
            break;
        index++;
        g.index = base + index;
        batch_replay(&g, fmt, pl->opts);
        if (fmt->after_replay)
            fmt->after_replay(r, &g);
        batch_progress_clear(pl->pg);
        if (!pl->sink->game(&g, batch_no_source_text(in) ? NULL : path, part, NULL) ||
            (pl->sink->settle && !pl->sink->settle(pl->ctx, part, index, NULL))) {
            ok = false;
            break;
        }
        pl->pg->games++;
        if ((index & 255) == 0)
            batch_progress_show(pl->pg, bytes_before + input_bytes_read(in), false);
    }
    fmt->close(r);
    fclose(fp);
    if (open)
        pool_retire(pl, open);
    pool_retire(pl, held);
    ok = pl->sink->finish(part) && ok;
    ok = pl->sink->merge(pl->ctx, part, true) && ok;
    pl->file_games += index;
    if (in->bad_bytes) {
        batch_progress_clear(pl->pg);
        fprintf(pl->err,
                ngettext("arbiter: %s: %lu byte could not be read as %s and became U+FFFD\n",
                         "arbiter: %s: %lu bytes could not be read as %s and became U+FFFD\n", in->bad_bytes),
                path, in->bad_bytes, input_encoding_name(in->encoding));
    }
    if (!ok) {
        pthread_mutex_lock(&pl->mu);
        pl->stop = true;
        pthread_mutex_unlock(&pl->mu);
    }
}

/* A one-game file (XQF), read whole in this thread, for a worker to decode and replay
 * (the piece's bytes are the file's; its game is number 1 of its own file). */
static void queue_whole_file(pool *pl, const reader_format *fmt, const char *path, unsigned file_no, input *in, char *pre_msg,
                      uint64_t bytes_before)
{
    piece *p = pool_piece(pl, fmt, path, file_no);
    p->pre_msg = pre_msg;
    for (;;) {
        textbuf_reserve(&p->data, &p->cap, p->len + 8192); /* most files are 1-4 KiB */
        size_t got = fread(p->data + p->len, 1, p->cap - p->len, in->fp);
        p->len += got;
        if (got == 0)
            break;
    }
    p->bytes_done = bytes_before + input_bytes_read(in);
    if (ferror(in->fp) || input_failed(in)) {
        /* as batch_each_game_of(): no game from a file that could not be read */
        char *m = dup_printf(_("%sarbiter: %s: %s\n"), pre_msg ? pre_msg : "", path,
                             input_failed(in) ? "corrupt or truncated compressed data"
                                              : "read error");
        free(p->pre_msg);
        p->pre_msg = m;
        p->no_games = true;
        pl->io_failed = true;
    } else {
        p->whole_file = true;
        p->last_of_file = true;
    }
    pool_push(pl, p);
}

/* The messages said after the last piece of an input. */
static char *input_end_messages(cutter *c)
{
    char *msg = NULL;
    if (c->read_error || input_failed(c->in)) {
        msg = dup_printf(_("arbiter: %s: %s\n"), c->path,
                         input_failed(c->in) ? _("corrupt or truncated compressed data")
                                             : "read error");
        c->failed = true;
    }
    if (c->in->bad_bytes) {
        char *m = dup_printf(
            ngettext("%sarbiter: %s: %lu byte could not be read as %s and became "
                     "U+FFFD\n",
                     "%sarbiter: %s: %lu bytes could not be read as %s and became "
                     "U+FFFD\n", c->in->bad_bytes),
            msg ? msg : "", c->path, c->in->bad_bytes, input_encoding_name(c->in->encoding));
        free(msg);
        msg = m;
    }
    return msg;
}

/* Cut the next piece of the open input (the caller holds the cutting role, not the
 * lock). The piece's buffer was read into straight from the input; the bytes read past
 * its cut begin the next one. NULL when there is no game start within BATCH_PIECE_MAX
 * bytes. */
static piece *cutter_next(pool *pl)
{
    cutter *c = &pl->cut;
    piece *p = c->held;
    size_t target = batch_piece_size_at(c->target_size, c->fixed, c->size, c->offset, pl->jobs);
    size_t want = target + BATCH_PIECE_SLACK, cut = 0;
    for (;;) {
        while (!c->eof && p->len < want) {
            textbuf_reserve(&p->data, &p->cap, want + 2); /* and the scanner's end marks */
            ssize_t got = input_read(c->in, p->data + p->len, want - p->len);
            if (got > 0) {
                p->len += (size_t)got;
            } else {
                c->eof = true;
                c->read_error = got < 0;
            }
        }
        if (c->eof && p->len <= target)
            break;
        cut = batch_find_cut(p->data, p->len, p->len > target ? target : 0);
        if (cut || c->eof || want >= BATCH_PIECE_MAX)
            break;
        want *= 2;
    }
    if (!cut && !c->eof)
        return NULL;
    if (!cut)
        cut = p->len;
    bool last = c->eof && cut == p->len;
    c->held = NULL;
    if (!last) {
        piece *next = pool_piece(pl, c->fmt, c->path, c->file_no);
        textbuf_reserve(&next->data, &next->cap, p->len - cut + 1);
        memcpy(next->data, p->data + cut, p->len - cut);
        next->len = p->len - cut;
        p->len = cut;
        c->held = next;
    }
    p->compressed = c->compressed;
    p->offset = c->offset;
    p->line = c->line;
    p->bom_seen = c->bom;
    p->last_of_file = last;
    p->bytes_done = c->bytes_before + input_bytes_read(c->in);
    if (last)
        p->post_msg = input_end_messages(c);
    c->line += batch_count_newlines(p->data, cut);
    if (!c->bom)
        c->bom = batch_has_bom(p->data, cut);
    c->offset += cut;
    return p;
}

/* Lock held: whether a thread may cut the next piece now. */
static bool cutter_ready(const pool *pl)
{
    return pl->cut.open && !pl->cut.stuck && !pl->cutting && !pl->stop;
}

/* Lock held, the cutting role this thread's: queue the piece it cut (NULL: it found no
 * game start, for the main thread to read on) and give the role back. */
static void cutter_done(pool *pl, piece *p)
{
    if (p) {
        pool_append(pl, p, PIECE_WAITING);
        if (p->last_of_file)
            pl->cut.open = false;
    } else {
        pl->cut.stuck = true;
    }
    pl->cutting = false;
    pthread_cond_signal(&pl->done); /* the main thread may wait for the role */
}

/* Cut an input into pieces and queue them, helping meanwhile; the workers cut too
 * when they find nothing to do. */
static void split_input(pool *pl, const reader_format *fmt, const char *path, unsigned file_no, input *in, char *pre_msg,
                      uint64_t bytes_before)
{
    cutter *c = &pl->cut;
    piece *first = pool_piece(pl, fmt, path, file_no);
    first->pre_msg = pre_msg;
    bool fixed;
    size_t target_size = batch_piece_target(&fixed);
    pthread_mutex_lock(&pl->mu);
    *c = (cutter){.in = in, .fmt = fmt, .path = path, .file_no = file_no,
                  .compressed = batch_no_source_text(in),
                  .bytes_before = bytes_before, .target_size = target_size, .fixed = fixed,
                  .size = known_text_size(in), .line = 1, .held = first, .open = true};
    for (;;) {
        while (pl->cutting)
            pthread_cond_wait(&pl->done, &pl->mu);
        if (!c->open)
            break;
        if (pl->stop) {
            c->open = false;
            break;
        }
        if (c->stuck) {
            /* no game boundary in BATCH_PIECE_MAX bytes: the rest in this thread */
            c->open = false;
            pthread_mutex_unlock(&pl->mu);
            rest_sequential(pl, c->held, in, c->offset, c->line, c->bom, bytes_before);
            c->held = NULL;
            pthread_mutex_lock(&pl->mu);
            break;
        }
        pool_wait_for_room(pl);
        if (!cutter_ready(pl))
            continue; /* things changed meanwhile */
        pl->cutting = true;
        pthread_mutex_unlock(&pl->mu);
        piece *p = cutter_next(pl);
        pthread_mutex_lock(&pl->mu);
        cutter_done(pl, p);
        while (pool_step(pl, pl->leave, false))
            ;
    }
    pthread_mutex_unlock(&pl->mu);
    if (c->held) /* after a stop */
        pool_retire(pl, c->held);
    c->held = NULL;
    if (c->failed)
        pl->io_failed = true;
}

static void *worker_main(void *v)
{
    pool *pl = v;
    arena a;
    arena_init(&a);
    pthread_mutex_lock(&pl->mu);
    for (;;) {
        if (pl->waiting) {
            pool_run(pl, pool_oldest_waiting(pl), &a);
            pthread_cond_signal(&pl->done); /* only the main thread waits on it */
        } else if (cutter_ready(pl) && pl->in_flight < pl->max_in_flight) {
            /* nothing waits and the main thread is busy: cut the next piece here */
            pl->cutting = true;
            pthread_mutex_unlock(&pl->mu);
            piece *p = cutter_next(pl);
            pthread_mutex_lock(&pl->mu);
            cutter_done(pl, p);
        } else if (pl->eof) {
            break;
        } else {
            pthread_cond_wait(&pl->work, &pl->mu);
        }
    }
    pthread_mutex_unlock(&pl->mu);
    arena_free(&a);
    gbk_thread_done(); /* XQF text was decoded in this thread */
    mate_search_thread_done();
    return NULL;
}

batch_result batch_run_parallel(char **paths, int count, const batch_options *opts,
                                const batch_sink *sink, void *ctx, FILE *out, FILE *err,
                                int jobs, batch_progress *pg)
{
    batch_result res = {0};
    pool pl = {.opts = opts, .sink = sink, .ctx = ctx, .out = out, .err = err, .pg = pg,
               .file_no = (unsigned)-1};
    pthread_mutex_init(&pl.mu, NULL);
    pthread_cond_init(&pl.work, NULL);
    pthread_cond_init(&pl.done, NULL);
    arena_init(&pl.a);
    /* the main thread is the last worker */
    pthread_t *workers = calloc((size_t)jobs - 1, sizeof *workers);
    int started = 0;
    for (int i = 0; workers && i < jobs - 1; i++)
        if (pthread_create(&workers[i], NULL, worker_main, &pl) == 0)
            started++;
    pl.jobs = started + 1;
    /* the main thread replays a piece only when more than two per worker wait, so
     * that the workers do not run dry meanwhile; it reads ahead at most this far */
    pl.leave = 2 * started;
    pl.max_in_flight = 4 * started + 4;
    uint64_t bytes_before = 0;
    for (int i = 0; i < count; i++) {
        pthread_mutex_lock(&pl.mu);
        bool stop = pl.stop;
        pthread_mutex_unlock(&pl.mu);
        if (stop)
            break;
        input in;
        char msg[512];
        if (!reader_input_open(&in, paths[i], opts->format, msg, sizeof msg)) {
            piece *p = pool_piece(&pl, NULL, paths[i], (unsigned)i);
            p->no_games = true;
            p->pre_msg = dup_printf(_("arbiter: %s\n"), msg);
            pl.io_failed = true;
            pool_push(&pl, p);
            continue;
        }
        res.files++;
        char *pre = NULL;
        if (in.encoding != INPUT_ENC_UTF8 && opts->verbose)
            pre = dup_printf(_("arbiter: %s: read as %s\n"), paths[i], input_encoding_name(in.encoding));
        const reader_format *fmt = reader_for(in.format);
        if (fmt->flags & READER_PIECES) {
            split_input(&pl, fmt, paths[i], (unsigned)i, &in, pre, bytes_before);
        } else if (fmt->flags & READER_WHOLE_FILE) {
            queue_whole_file(&pl, fmt, paths[i], (unsigned)i, &in, pre, bytes_before);
        } else {
            /* WXF files, articles, LaTeX, web and DhtmlXQ pages are read whole, in this
             * thread, in their turn */
            pool_drain(&pl, false);
            pthread_mutex_lock(&pl.mu);
            stop = pl.stop;
            pthread_mutex_unlock(&pl.mu);
            if (stop) {
                /* a piece written meanwhile failed: nothing more, as with -j 1 */
                free(pre);
                input_close(&in);
                break;
            }
            if (pre) {
                batch_progress_clear(pg);
                fputs(pre, err);
                free(pre);
            }
            void *part = sink->begin(ctx, out, err);
            pg->done_bytes = bytes_before;
            uint64_t part_games = 0;
            batch_each_game_of(paths[i], &in, &pl.a, opts, sink, ctx, part, &part_games, pg,
                               &res);
            if (!sink->finish(part))
                res.stopped = true;
            if (!sink->merge(ctx, part, true))
                res.stopped = true;
            if (in.bad_bytes) {
                batch_progress_clear(pg);
                fprintf(err,
                        ngettext("arbiter: %s: %lu byte could not be read as %s and became U+FFFD\n",
                                 "arbiter: %s: %lu bytes could not be read as %s and became U+FFFD\n", in.bad_bytes),
                        paths[i], in.bad_bytes, input_encoding_name(in.encoding));
            }
            if (res.stopped) {
                pthread_mutex_lock(&pl.mu);
                pl.stop = true;
                pthread_mutex_unlock(&pl.mu);
            }
        }
        bytes_before += input_bytes_read(&in);
        input_close(&in);
    }
    pthread_mutex_lock(&pl.mu);
    pl.eof = true;
    pthread_cond_broadcast(&pl.work);
    pthread_mutex_unlock(&pl.mu);
    pool_drain(&pl, false);
    for (int i = 0; i < started; i++)
        pthread_join(workers[i], NULL);
    free(workers);
    mate_search_thread_done();
    for (piece *p = pl.spare, *n; p; p = n) {
        n = p->next;
        piece_free(p);
    }
    free(pl.fixed);
    arena_free(&pl.a);
    if (pl.stop)
        res.stopped = true;
    if (pl.io_failed)
        res.io_failed = true;
    pthread_mutex_destroy(&pl.mu);
    pthread_cond_destroy(&pl.work);
    pthread_cond_destroy(&pl.done);
    return res;
}
