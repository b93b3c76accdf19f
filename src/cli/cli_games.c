/* cli_games.c: read, replay and hand over every game of every input. */
#include <config.h>

#include <ctype.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "cli/cli.h"
#include "cli/cli_games.h"
#include "database/db_tags.h"
#include "i18n/i18n.h"
#include "io/gbk.h"
#include "io/input.h"
#include "engine/annot_check.h"
#include "io/ccb_reader.h"
#include "io/xqf.h"
#include "notation/xq_notation.h"
#include "record/textbuf.h"
#include "pgn_reader.h"
#include "wxf_reader.h"
#include "document/document.h"
#include "dhtmlxq_reader.h"

/* The readers behind one interface: PGN, WXF (plain or inside an article), or the
 * games of a LaTeX document. */
typedef struct game_source {
    pgn_reader *pgn;
    wxf_reader *wxf;
    doc_reader *doc;         /* a LaTeX book or a Markdown/HTML page */
    bool web;                /* doc is a web page: its games are PGN */
    xqf_reader *xqf;
    dhtmlxq_reader *dxq;
    ccb_reader *ccb;         /* CBR, CBL, CBF */
} game_source;

static bool source_open(game_source *s, const input *in, const char *path)
{
    memset(s, 0, sizeof *s);
    if (in->format == INPUT_TEX || in->format == INPUT_WEB) {
        s->web = in->format == INPUT_WEB;
        s->doc = doc_reader_open(in->fp, path, s->web ? DOC_WEB : DOC_LATEX);
        /* how each move command was taken, for the corpus accounting test */
        if (s->doc && getenv("ARBITER_TEX_TRACE"))
            doc_reader_trace(s->doc, stderr);
        return s->doc;
    }
    if (in->format == INPUT_CBR || in->format == INPUT_CBL || in->format == INPUT_CBF)
        s->ccb = ccb_reader_open(in->fp, path,
                                 in->format == INPUT_CBR   ? CCB_CBR
                                 : in->format == INPUT_CBL ? CCB_CBL
                                                           : CCB_CBF);
    else if (in->format == INPUT_XQF)
        s->xqf = xqf_reader_open(in->fp, path);
    else if (in->format == INPUT_DHTMLXQ)
        s->dxq = dhtmlxq_reader_open(in->fp, path);
    else if (in->format == INPUT_WXF || in->format == INPUT_ARTICLE)
        s->wxf = wxf_reader_open(in->fp, path,
                                 in->format == INPUT_ARTICLE ? WXF_INPUT_ARTICLE : WXF_INPUT_WXF);
    else
        s->pgn = pgn_reader_open(in->fp, path);
    return s->pgn || s->wxf || s->xqf || s->dxq || s->ccb;
}

static int source_next(game_source *s, rec_game *g, arena *a)
{
    if (s->doc)
        return doc_reader_next(s->doc, g, a);
    if (s->xqf)
        return xqf_reader_next(s->xqf, g, a);
    if (s->ccb)
        return ccb_reader_next(s->ccb, g, a);
    if (s->dxq)
        return dhtmlxq_reader_next(s->dxq, g, a);
    return s->pgn ? pgn_reader_next(s->pgn, g, a) : wxf_reader_next(s->wxf, g, a);
}

static const char *source_error(const game_source *s)
{
    if (s->doc)
        return doc_reader_error(s->doc);
    if (s->xqf)
        return xqf_reader_error(s->xqf);
    if (s->ccb)
        return ccb_reader_error(s->ccb);
    if (s->dxq)
        return dhtmlxq_reader_error(s->dxq);
    return s->pgn ? pgn_reader_error(s->pgn) : wxf_reader_error(s->wxf);
}

static void source_close(game_source *s)
{
    if (s->pgn)
        pgn_reader_close(s->pgn);
    if (s->wxf)
        wxf_reader_close(s->wxf);
    if (s->doc)
        doc_reader_close(s->doc);
    if (s->xqf)
        xqf_reader_close(s->xqf);
    if (s->ccb)
        ccb_reader_close(s->ccb);
    if (s->dxq)
        dhtmlxq_reader_close(s->dxq);
}

/* A PGN game is xiangqi when its tags say so: xqbase's Game "Chinese Chess",
 * WinBoard's and Fairy-Stockfish's Variant "xiangqi", or players named by colour Red
 * (wukong's files carry only Event, Red and Black). --variant decides for all. */
static void classify_pgn_game(rec_game *g, int forced)
{
    const char *game = rec_game_tag(g, "Game");
    const char *variant = rec_game_tag(g, "Variant");
    if (forced >= 0)
        g->kind = (rec_game_kind)forced;
    else if ((game && strcasecmp(game, "Chinese Chess") == 0) ||
             (variant && strcasecmp(variant, "xiangqi") == 0) || rec_game_tag(g, "Red") ||
             rec_game_tag(g, "RedTeam"))
        g->kind = REC_XIANGQI;
    if (g->kind == REC_XIANGQI && !g->result)
        /* xiangqi PGN writers often end a record without a result token (wukong): that is
         * their format, not damage */
        rec_game_set_severity(g, "missing-result", REC_INFO);
}

/* squares: the moves are UCCI texts made by a binary or square-coded reader (XQF,
 * DhtmlXQ), so there is no notation to detect (and no trial replays to pay for). */
static void replay(rec_game *g, bool pgn, bool squares, const cli_games_options *opts)
{
    if (pgn)
        classify_pgn_game(g, opts->variant);
    if (g->kind == REC_XIANGQI && squares && opts->referee.xq_notation < 0) {
        referee_options o = opts->referee;
        o.xq_notation = XQN_UCCI;
        referee_xiangqi_game(g, &o);
    } else if (g->kind == REC_XIANGQI)
        referee_xiangqi_game(g, &opts->referee);
    else
        referee_chess_game(g, &opts->referee);
    annot_check_game(g);
    db_tags_check(g, pgn);
    rec_game_sort_findings(g);
}

/* ------------------------------------------------------------------ progress */

/* One line on stderr, redrawn at most five times a second, only on a terminal. */
typedef struct progress {
    bool on, shown;
    uint64_t total;          /* bytes of all inputs when known (regular files), or 0 */
    uint64_t done_bytes;     /* of the inputs already finished (sequential loop) */
    uint64_t games;
    double start, last;
} progress;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void progress_init(progress *pg, char **paths, int count, bool wanted)
{
    memset(pg, 0, sizeof *pg);
    pg->on = wanted && isatty(STDERR_FILENO);
    if (!pg->on)
        return;
    pg->start = pg->last = now_seconds();
    for (int i = 0; i < count; i++) {
        struct stat st;
        if (strcmp(paths[i], "-") == 0 || stat(paths[i], &st) != 0 || !S_ISREG(st.st_mode)) {
            pg->total = 0;
            break;
        }
        pg->total += (uint64_t)st.st_size;
    }
}

static void progress_clear(progress *pg)
{
    if (pg->shown) {
        fputs("\r\033[K", stderr);
        pg->shown = false;
    }
}

static void progress_show(progress *pg, uint64_t bytes, bool force)
{
    if (!pg->on)
        return;
    double t = now_seconds();
    if (!force && t - pg->last < 0.2)
        return;
    pg->last = t;
    double el = t - pg->start;
    double rate = el > 0 ? (double)pg->games / el : 0;
    char pct[64] = "";
    if (pg->total && bytes <= pg->total && bytes > 0) {
        double left = el * (double)(pg->total - bytes) / (double)bytes;
        snprintf(pct, sizeof pct, _(" (%.0f%%, ETA %.0f s)"), 100.0 * (double)bytes / (double)pg->total,
                 left);
    }
    fputc('\r', stderr);
    fprintf(stderr, _("arbiter: %.1f MB%s, %" PRIu64 " games, %.0f games/s"), (double)bytes / 1e6,
            pct, pg->games, rate);
    fputs("\033[K", stderr); /* clear the rest of the line */
    fflush(stderr);
    pg->shown = true;
}

/* ------------------------------------------------------------------ one thread */

/* Whether the file's own bytes are not the text the readers saw, so that no source
 * line can be shown from it and fix must not edit it at the reported offsets:
 * compressed input, a binary format (XQF) whose spans are byte offsets, or a GBK or
 * Big5 file transcoded to UTF-8 (fix transcodes such a file itself first). */
static bool no_source_text(const input *in)
{
    return in->compressed || in->format == INPUT_XQF || in->format == INPUT_CBR ||
           in->format == INPUT_CBL || in->format == INPUT_CBF || in->encoding != INPUT_ENC_UTF8;
}

/* Per-file state of the sequential loop. */
static void each_game_of(const char *path, const input *in, arena *a, const cli_games_options *opts,
                         const cli_game_sink *sink, void *part, progress *pg,
                         cli_games_result *res)
{
    game_source src;
    if (!source_open(&src, in, path)) {
        cli_error(_("%s: out of memory"), path);
        res->io_failed = true;
        return;
    }
    const char *src_path = no_source_text(in) ? NULL : path;
    uint64_t index = 0;
    for (;;) {
        rec_game g;
        arena_reset(a);
        rec_game_init(&g, a, path, index + 1);
        int got = source_next(&src, &g, a);
        if (got < 0) {
            progress_clear(pg);
            cli_error("%s: %s", path, input_failed(in) ? _("corrupt or truncated compressed data")
                                                       : source_error(&src));
            res->io_failed = true;
            break;
        }
        if (got == 0)
            break;
        index++;
        g.index = index;
        replay(&g, src.pgn != NULL || src.web, src.xqf || src.dxq || src.ccb, opts);
        if (src.doc)
            doc_reader_name_places(src.doc, &g);
        progress_clear(pg);
        if (!sink->game(&g, src_path, part, NULL)) {
            res->stopped = true;
            break;
        }
        pg->games++;
        if ((index & 255) == 0)
            progress_show(pg, pg->done_bytes + input_bytes_read(in), false);
    }
    source_close(&src);
}

static void run_file_sequential(const char *path, const cli_games_options *opts, arena *a,
                                const cli_game_sink *sink, void *part, progress *pg,
                                cli_games_result *res)
{
    input in;
    char err[512];
    if (!input_open(&in, path, opts->format, err, sizeof err)) {
        progress_clear(pg);
        cli_error("%s", err);
        res->io_failed = true;
        return;
    }
    res->files++;
    if (in.encoding != INPUT_ENC_UTF8 && opts->verbose) {
        progress_clear(pg);
        fprintf(stderr, _("arbiter: %s: read as %s\n"), path, input_encoding_name(in.encoding));
    }
    each_game_of(path, &in, a, opts, sink, part, pg, res);
    if (in.bad_bytes) {
        progress_clear(pg);
        fprintf(stderr,
                ngettext("arbiter: %s: %lu byte could not be read as %s and became U+FFFD\n",
                         "arbiter: %s: %lu bytes could not be read as %s and became U+FFFD\n", in.bad_bytes),
                path, in.bad_bytes, input_encoding_name(in.encoding));
    }
    pg->done_bytes += input_bytes_read(&in);
    input_close(&in);
}

/* ------------------------------------------------------------------ threads */

/* With jobs = N there are N - 1 worker threads, and the calling thread is the Nth
 * worker besides cutting the input into pieces and writing them out in input order,
 * so that no more threads want a core than the user asked for. A worker that finds no
 * piece waiting cuts the next one itself (the main thread may be busy replaying one).
 * Pieces and their buffers are reused: fresh memory costs a page fault per 4 KiB. */

/* What a piece's games write (report, diagnostics): a buffer kept across pieces. */
typedef struct piece_text {
    char *buf;
    size_t len, cap;
} piece_text;

enum { PIECE_WAITING, PIECE_TAKEN, PIECE_DONE };

/* A piece of a PGN input: whole games, from a line start. */
typedef struct piece {
    struct piece *next;
    const char *path;
    unsigned file_no;
    bool compressed;         /* no_source_text() of its file */
    char *data;
    size_t len, cap;
    uint64_t offset;         /* of data[0] in the file's text */
    uint32_t line;
    bool bom_seen;
    bool last_of_file;
    bool no_games;           /* a message only */
    bool xqf;                /* data is one whole XQF file (one game), not PGN text */
    char *pre_msg, *post_msg;/* stderr text before and after the piece's own */
    uint64_t bytes_done;     /* of all inputs, when the piece was cut (progress) */
    /* Results (of the thread that replayed it). */
    int state;               /* PIECE_WAITING, _TAKEN (being replayed), _DONE */
    piece_text out, err;
    size_t *ofix, *efix;
    size_t nofix, nefix, capofix, capefix;
    void *part;
    uint64_t games;
    bool clean;
    bool io_error;
    bool stop;
    char errmsg[300];
} piece;

struct cli_marks {
    piece *p;
    FILE *out, *err;
};

static void out_of_memory(void)
{
    fputs(_("arbiter: out of memory\n"), stderr);
    abort();
}

static void fix_push(size_t **v, size_t *n, size_t *cap, size_t at)
{
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 64;
        size_t *grown = realloc(*v, *cap * sizeof **v);
        if (!grown)
            out_of_memory();
        *v = grown;
    }
    (*v)[(*n)++] = at;
}

void cli_mark_index(cli_marks *m, FILE *stream, long from, const char *needle)
{
    if (!m || from < 0)
        return;
    fflush(stream);
    bool is_out = stream == m->out;
    const piece_text *t = is_out ? &m->p->out : &m->p->err;
    if (!t->buf || (size_t)from > t->len)
        return;
    const char *hit = memmem(t->buf + from, t->len - (size_t)from, needle, strlen(needle));
    if (!hit)
        return;
    size_t at = (size_t)(hit - t->buf) + strlen(needle);
    if (is_out)
        fix_push(&m->p->ofix, &m->p->nofix, &m->p->capofix, at);
    else
        fix_push(&m->p->efix, &m->p->nefix, &m->p->capefix, at);
}

/* The streams a piece's games write to: appending to a piece_text. */
static ssize_t piece_text_write(void *v, const char *s, size_t n)
{
    piece_text *t = v;
    textbuf_reserve(&t->buf, &t->cap, t->len + n);
    memcpy(t->buf + t->len, s, n);
    t->len += n;
    return (ssize_t)n;
}

/* Only ftell's question (where is the stream?) is answered: the end of the text. */
static int piece_text_seek(void *v, off64_t *pos, int whence)
{
    const piece_text *t = v;
    if (whence != SEEK_CUR || *pos != 0)
        return -1;
    *pos = (off64_t)t->len;
    return 0;
}

static FILE *piece_text_open(piece_text *t)
{
    cookie_io_functions_t io = {.write = piece_text_write, .seek = piece_text_seek};
    FILE *f = fopencookie(t, "w", io);
    if (!f)
        out_of_memory();
    return f;
}

/* The PGN input being cut into pieces. Whoever holds the cutting role (pool.cutting)
 * uses it without the lock; open and stuck change under the lock. */
typedef struct cutter {
    input *in;
    const char *path;
    unsigned file_no;
    bool compressed;         /* no_source_text() of the input */
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
    bool stuck;              /* no game start in PIECE_MAX bytes: the main thread reads
                                the rest itself */
} cutter;

typedef struct pool {
    const cli_games_options *opts;
    const cli_game_sink *sink;
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
    progress *pg;
    uint64_t file_games;     /* games of the current file written so far */
    unsigned file_no;
    unsigned encoding_said;  /* file_no + 1 of the file whose encoding warning is out */
} pool;

/* A piece for path, from the spare ones when there is one (its buffers kept). Called
 * without the lock. */
static piece *pool_piece(pool *pl, const char *path, unsigned file_no)
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
        p->out = (piece_text){keep.out.buf, 0, keep.out.cap};
        p->err = (piece_text){keep.err.buf, 0, keep.err.cap};
        p->ofix = keep.ofix;
        p->capofix = keep.capofix;
        p->efix = keep.efix;
        p->capefix = keep.capefix;
    } else if (!(p = calloc(1, sizeof *p))) {
        out_of_memory();
    }
    p->path = path;
    p->file_no = file_no;
    return p;
}

static void piece_free(piece *p)
{
    free(p->data);
    free(p->out.buf);
    free(p->err.buf);
    free(p->ofix);
    free(p->efix);
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

/* A piece written or dropped (its part already merged or NULL) becomes a spare.
 * Called without the lock. */
static void pool_retire(pool *pl, piece *p)
{
    free(p->pre_msg);
    free(p->post_msg);
    p->pre_msg = p->post_msg = NULL;
    drop_if_huge(&p->data, &p->cap);
    drop_if_huge(&p->out.buf, &p->out.cap);
    drop_if_huge(&p->err.buf, &p->err.cap);
    pthread_mutex_lock(&pl->mu);
    p->next = pl->spare;
    pl->spare = p;
    pthread_mutex_unlock(&pl->mu);
}

/* Read and replay a piece into its buffers. */
static void piece_process(pool *pl, piece *p, arena *a)
{
    p->out.len = p->err.len = 0;
    p->nofix = p->nefix = 0;
    p->games = 0;
    p->clean = true;
    p->io_error = p->stop = false;
    FILE *out = piece_text_open(&p->out);
    FILE *err = piece_text_open(&p->err);
    p->part = pl->sink->begin(pl->ctx, out, err);
    cli_marks marks = {.p = p, .out = out, .err = err};
    if (p->xqf) {
        /* one binary file, one game, decoded here as each_game_of() does it */
        rec_game g;
        arena_reset(a);
        rec_game_init(&g, a, p->path, 1);
        xqf_decode((const unsigned char *)p->data, p->len, &g, a);
        p->games = 1;
        replay(&g, false, true, pl->opts);
        if (!pl->sink->game(&g, NULL, p->part, &marks))
            p->stop = true;
        if (!pl->sink->finish(p->part))
            p->stop = true;
        fclose(out);
        fclose(err);
        return;
    }
    FILE *fp = p->len ? fmemopen(p->data, p->len, "r") : NULL;
    pgn_reader *r = fp ? pgn_reader_open(fp, p->path) : NULL;
    if (r) {
        pgn_reader_set_start(r, p->offset, p->line, p->bom_seen);
        for (;;) {
            rec_game g;
            arena_reset(a);
            rec_game_init(&g, a, p->path, p->games + 1);
            int got = pgn_reader_next(r, &g, a);
            if (got < 0) {
                p->io_error = true;
                snprintf(p->errmsg, sizeof p->errmsg, "%s", pgn_reader_error(r));
                break;
            }
            if (got == 0)
                break;
            p->games++;
            g.index = p->games;
            replay(&g, true, false, pl->opts);
            if (!pl->sink->game(&g, p->compressed ? NULL : p->path, p->part, &marks)) {
                p->stop = true;
                break;
            }
        }
        p->clean = pgn_reader_ended_cleanly(r);
        pgn_reader_close(r);
    } else if (p->len) {
        p->io_error = true;
        snprintf(p->errmsg, sizeof p->errmsg, _("out of memory"));
    }
    if (fp)
        fclose(fp);
    if (!pl->sink->finish(p->part))
        p->stop = true;
    fclose(out);
    fclose(err);
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

/* The encoding warning is said once per input file (diag.c does it within a piece):
 * drop a piece's warning block (its line and the source lines under it) when an earlier
 * piece of the same file said it, moving the game-number marks with the text. */
static void drop_repeated_encoding(pool *pl, piece *p)
{
    /* the diagnostic's severity word is in the user's language (diag.c) */
    char needle[64];
    int needle_len = snprintf(needle, sizeof needle, ": %s[encoding]: ", _("warning"));
    char *text = p->err.buf;
    if (!p->err.len || !memmem(text, p->err.len, needle, (size_t)needle_len))
        return;
    bool said = pl->encoding_said == pl->file_no + 1, dropping = false;
    size_t o = 0, k = 0, removed = 0;
    for (size_t at = 0; at < p->err.len;) {
        const char *nl = memchr(text + at, '\n', p->err.len - at);
        size_t end = nl ? (size_t)(nl - text) + 1 : p->err.len;
        bool warning = memmem(text + at, end - at, needle, (size_t)needle_len) != NULL;
        bool drop;
        if (warning) {
            drop = dropping = said;
            said = true;
        } else {
            drop = dropping && diag_detail_line(text + at, text + end);
            dropping = drop;
        }
        for (; k < p->nefix && p->efix[k] < end; k++)
            p->efix[k] -= removed; /* marks of dropped lines are never in this block */
        if (drop) {
            removed += end - at;
        } else {
            memmove(text + o, text + at, end - at);
            o += end - at;
        }
        at = end;
    }
    p->err.len = o;
    pl->encoding_said = pl->file_no + 1;
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

/* Write a piece's text with the game numbers at fix[] moved on by base. It goes out
 * as one block (a numbered copy first: a number may grow a digit), so that stdio
 * hands it to the system in a call or two, not a call per game. */
static bool write_fixed(pool *pl, FILE *f, const piece_text *t, const size_t *fix, size_t nfix,
                        uint64_t base)
{
    const char *buf = t->buf;
    size_t len = t->len;
    if (nfix) {
        textbuf_reserve(&pl->fixed, &pl->fixed_cap, len + nfix * 20 + 1);
        char *o = pl->fixed;
        size_t at = 0;
        for (size_t i = 0; i < nfix; i++) {
            size_t d = fix[i];
            if (d < at || d > len)
                continue;
            memcpy(o, buf + at, d - at);
            o += d - at;
            uint64_t v = 0;
            size_t e = d;
            while (e < len && buf[e] >= '0' && buf[e] <= '9')
                v = v * 10 + (uint64_t)(buf[e++] - '0');
            o += u64_digits(v + base, o);
            at = e;
        }
        memcpy(o, buf + at, len - at);
        o += len - at;
        buf = pl->fixed;
        len = (size_t)(o - pl->fixed);
    }
    if (len)
        fwrite(buf, 1, len, f);
    return !ferror(f);
}

/* Write a done piece (main thread, no lock); false when writing must stop. */
static bool piece_write(pool *pl, piece *p)
{
    if (p->file_no != pl->file_no) {
        pl->file_no = p->file_no;
        pl->file_games = 0;
    }
    bool ok = true;
    if (p->pre_msg || p->err.len || p->post_msg || p->io_error)
        progress_clear(pl->pg);
    if (p->pre_msg)
        fputs(p->pre_msg, pl->err);
    if (!p->no_games) {
        ok = write_fixed(pl, pl->out, &p->out, p->ofix, p->nofix, pl->file_games);
        drop_repeated_encoding(pl, p);
        write_fixed(pl, pl->err, &p->err, p->efix, p->nefix, pl->file_games);
        if (p->part && !pl->sink->merge(pl->ctx, p->part, true))
            ok = false;
        p->part = NULL;
        if (p->io_error) {
            cli_error("%s: %s", p->path, p->errmsg);
            pl->io_failed = true;
        }
        pl->file_games += p->games;
        pl->pg->games += p->games;
    }
    if (p->post_msg)
        fputs(p->post_msg, pl->err);
    progress_show(pl->pg, p->bytes_done, false);
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
    return !p->no_games && !p->xqf && !p->clean && !p->last_of_file && !p->stop &&
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
    textbuf_reserve(&p->data, &p->cap, p->len + q->len + 1);
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

/* A line that opens a tag section: '[', a tag name, blanks and a quote. */
static bool tag_line_at(const char *s, const char *end)
{
    if (s >= end || *s != '[')
        return false;
    const char *p = s + 1;
    while (p < end && (isalnum((unsigned char)*p) || *p == '_'))
        p++;
    if (p == s + 1 || p >= end || (*p != ' ' && *p != '\t'))
        return false;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p < end && *p == '"';
}

size_t cli_find_cut(const char *buf, size_t len, size_t from)
{
    const char *end = buf + len;
    const char *p = buf + from;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            return 0;
        const char *ls = nl + 1;
        if (ls < end && *ls == '[' && tag_line_at(ls, end)) {
            /* the previous non-blank line */
            const char *q = nl;
            while (q > buf) {
                const char *e = q; /* end of a line (its '\n') */
                const char *b = e;
                while (b > buf && b[-1] != '\n')
                    b--;
                const char *t = b;
                while (t < e && (*t == ' ' || *t == '\t' || *t == '\r'))
                    t++;
                if (t < e) {
                    if (*t != '[')
                        return (size_t)(ls - buf);
                    break;
                }
                q = b > buf ? b - 1 : buf;
                if (b == buf)
                    break;
            }
        }
        p = ls;
    }
    return 0;
}

#define PIECE_MAX (8 * 1024 * 1024)
/* Bytes read past a piece's target size, where its cut is looked for: most games are
 * 1-2 KiB, so the cut is nearly always there, and what lies after it (copied to the
 * next piece) stays small. */
#define PIECE_SLACK (16 * 1024)
/* The least piece size near the end of a file of known size. */
#define PIECE_MIN (32 * 1024)

/* 256 KiB a piece by default: small pieces keep the buffers in the caches and cost
 * about 15,000 instructions each. ARBITER_PIECE_SIZE=N (bytes) sets it, for the tests
 * that cut inputs at every game, and then pieces do not shrink near the end. */
static size_t piece_target(bool *fixed)
{
    const char *env = getenv("ARBITER_PIECE_SIZE");
    long n = env ? strtol(env, NULL, 10) : 0;
    *fixed = n > 0 && n <= PIECE_MAX / 2;
    return *fixed ? (size_t)n : 256 * 1024;
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

/* The target size of the piece cut at offset: the default, but smaller near the end
 * of a file of known size, so that the threads run out of work at about the same time
 * (a share of what is left for each). */
static size_t piece_size_at(const pool *pl, size_t target, bool fixed, uint64_t size,
                            uint64_t offset)
{
    if (fixed || size <= offset)
        return target;
    uint64_t share = (size - offset) / (4 * (uint64_t)pl->jobs);
    return share >= target ? target : share < PIECE_MIN ? PIECE_MIN : (size_t)share;
}

/* The rest of an input with no game boundary in PIECE_MAX bytes (a huge comment or
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
static void pgn_rest_sequential(pool *pl, piece *held, input *in, uint64_t offset,
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
        progress_clear(pl->pg);
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
    pgn_reader *r = fp ? pgn_reader_open(fp, path) : NULL;
    if (!r)
        out_of_memory();
    pgn_reader_set_start(r, offset, line, bom);
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
        int got = pgn_reader_next(r, &g, &pl->a);
        if (got < 0) {
            progress_clear(pl->pg);
            cli_error("%s: %s", path, input_failed(in) ? _("corrupt or truncated compressed data")
                                                       : pgn_reader_error(r));
            pl->io_failed = true;
            break;
        }
        if (got == 0)
            break;
        index++;
        g.index = base + index;
        replay(&g, true, false, pl->opts);
        progress_clear(pl->pg);
        if (!pl->sink->game(&g, no_source_text(in) ? NULL : path, part, NULL)) {
            ok = false;
            break;
        }
        pl->pg->games++;
        if ((index & 255) == 0)
            progress_show(pl->pg, bytes_before + input_bytes_read(in), false);
    }
    pgn_reader_close(r);
    fclose(fp);
    if (open)
        pool_retire(pl, open);
    pool_retire(pl, held);
    ok = pl->sink->finish(part) && ok;
    ok = pl->sink->merge(pl->ctx, part, true) && ok;
    pl->file_games += index;
    if (in->bad_bytes) {
        progress_clear(pl->pg);
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

/* An XQF file, read whole in this thread, for a worker to decode and replay (the
 * piece's bytes are the file's; its game is number 1 of its own file). */
static void queue_xqf(pool *pl, const char *path, unsigned file_no, input *in, char *pre_msg,
                      uint64_t bytes_before)
{
    piece *p = pool_piece(pl, path, file_no);
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
        /* as each_game_of(): no game from a file that could not be read */
        char *m = dup_printf(_("%sarbiter: %s: %s\n"), pre_msg ? pre_msg : "", path,
                             input_failed(in) ? "corrupt or truncated compressed data"
                                              : "read error");
        free(p->pre_msg);
        p->pre_msg = m;
        p->no_games = true;
        pl->io_failed = true;
    } else {
        p->xqf = true;
        p->last_of_file = true;
    }
    pool_push(pl, p);
}

/* The splitter looks at every byte in the main thread while it cuts: the line count
 * goes sixteen bytes at a time. */
static uint32_t count_newlines(const char *s, size_t n)
{
    uint32_t lines = 0;
    size_t i = 0;
#if defined(__SSE2__)
    const __m128i nl = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();
    while (n - i >= 16) {
        /* a byte lane counts up to 255 matches (a match is -1), then the lanes are summed */
        size_t blocks = (n - i) / 16 < 255 ? (n - i) / 16 : 255;
        __m128i acc = zero;
        for (size_t b = 0; b < blocks; b++, i += 16)
            acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(_mm_loadu_si128((const void *)(s + i)), nl));
        __m128i sums = _mm_sad_epu8(acc, zero);
        lines += (uint32_t)_mm_cvtsi128_si32(sums) + (uint32_t)_mm_extract_epi16(sums, 4);
    }
#else
    const uint64_t ones = UINT64_C(0x0101010101010101), high = ones << 7;
    const uint64_t lanes16 = UINT64_C(0x00FF00FF00FF00FF);
    while (n - i >= 8) {
        size_t words = (n - i) / 8 < 255 ? (n - i) / 8 : 255;
        uint64_t acc = 0; /* a byte per lane, up to 255 */
        for (size_t w = 0; w < words; w++, i += 8) {
            /* a byte of x is zero where s has '\n'; ~t sets the high bit of exactly
             * those bytes (no borrow crosses a byte) */
            uint64_t x;
            memcpy(&x, s + i, 8);
            x ^= ones * '\n';
            uint64_t t = ((x & ~high) + ~high) | x;
            acc += (~t & high) >> 7;
        }
        acc = (acc & lanes16) + ((acc >> 8) & lanes16);
        lines += (uint32_t)((acc * UINT64_C(0x0001000100010001)) >> 48);
    }
#endif
    for (; i < n; i++)
        lines += s[i] == '\n';
    return lines;
}

/* A UTF-8 byte-order mark anywhere in s[0..n) (memmem is slow with a 3-byte needle). */
static bool has_bom(const char *s, size_t n)
{
    const char *end = s + n;
    for (const char *p = s; (p = memchr(p, '\xEF', (size_t)(end - p))) != NULL; p++)
        if (end - p >= 3 && p[1] == '\xBB' && p[2] == '\xBF')
            return true;
    return false;
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
 * its cut begin the next one. NULL when there is no game start within PIECE_MAX bytes. */
static piece *cutter_next(pool *pl)
{
    cutter *c = &pl->cut;
    piece *p = c->held;
    size_t target = piece_size_at(pl, c->target_size, c->fixed, c->size, c->offset);
    size_t want = target + PIECE_SLACK, cut = 0;
    for (;;) {
        while (!c->eof && p->len < want) {
            textbuf_reserve(&p->data, &p->cap, want + 1);
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
        cut = cli_find_cut(p->data, p->len, p->len > target ? target : 0);
        if (cut || c->eof || want >= PIECE_MAX)
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
        piece *next = pool_piece(pl, c->path, c->file_no);
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
    c->line += count_newlines(p->data, cut);
    if (!c->bom)
        c->bom = has_bom(p->data, cut);
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

/* Cut a PGN input into pieces and queue them, helping meanwhile; the workers cut too
 * when they find nothing to do. */
static void split_pgn(pool *pl, const char *path, unsigned file_no, input *in, char *pre_msg,
                      uint64_t bytes_before)
{
    cutter *c = &pl->cut;
    piece *first = pool_piece(pl, path, file_no);
    first->pre_msg = pre_msg;
    bool fixed;
    size_t target_size = piece_target(&fixed);
    pthread_mutex_lock(&pl->mu);
    *c = (cutter){.in = in, .path = path, .file_no = file_no, .compressed = no_source_text(in),
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
            /* no game boundary in PIECE_MAX bytes: the rest in this thread */
            c->open = false;
            pthread_mutex_unlock(&pl->mu);
            pgn_rest_sequential(pl, c->held, in, c->offset, c->line, c->bom, bytes_before);
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
    return NULL;
}

static cli_games_result run_parallel(char **paths, int count, const cli_games_options *opts,
                                     const cli_game_sink *sink, void *ctx, FILE *out, FILE *err,
                                     int jobs, progress *pg)
{
    cli_games_result res = {0};
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
        if (!input_open(&in, paths[i], opts->format, msg, sizeof msg)) {
            piece *p = pool_piece(&pl, paths[i], (unsigned)i);
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
        if (in.format == INPUT_PGN) {
            split_pgn(&pl, paths[i], (unsigned)i, &in, pre, bytes_before);
        } else if (in.format == INPUT_XQF) {
            queue_xqf(&pl, paths[i], (unsigned)i, &in, pre, bytes_before);
        } else {
            /* WXF files, articles and DhtmlXQ pages are read whole, in this thread, in
             * their turn */
            pool_drain(&pl, false);
            if (pre) {
                progress_clear(pg);
                fputs(pre, err);
                free(pre);
            }
            void *part = sink->begin(ctx, out, err);
            pg->done_bytes = bytes_before;
            each_game_of(paths[i], &in, &pl.a, opts, sink, part, pg, &res);
            if (!sink->finish(part))
                res.stopped = true;
            if (!sink->merge(ctx, part, true))
                res.stopped = true;
            if (in.bad_bytes) {
                progress_clear(pg);
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

/* ------------------------------------------------------------------ entry points */

cli_games_result cli_run_games(char **paths, int count, const cli_games_options *opts,
                               const cli_game_sink *sink, void *ctx, FILE *out, FILE *err)
{
    static char *stdin_only[] = {"-"};
    if (count == 0) {
        paths = stdin_only;
        count = 1;
    }
    progress pg;
    progress_init(&pg, paths, count, opts->progress);
    int jobs = opts->jobs;
    if (jobs <= 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        jobs = n < 1 ? 1 : n > 256 ? 256 : (int)n;
    }
    cli_games_result res = {0};
    if (jobs > 1) {
        res = run_parallel(paths, count, opts, sink, ctx, out, err, jobs, &pg);
    } else {
        arena a;
        arena_init(&a);
        void *part = sink->begin(ctx, out, err);
        for (int i = 0; i < count && !res.stopped; i++)
            run_file_sequential(paths[i], opts, &a, sink, part, &pg, &res);
        if (!sink->finish(part))
            res.stopped = true;
        if (!sink->merge(ctx, part, true))
            res.stopped = true;
        arena_free(&a);
    }
    progress_clear(&pg);
    return res;
}

/* The simple form: a sink around fn. */
typedef struct fn_sink {
    cli_game_fn fn;
    void *ctx;
} fn_sink;

static void *fn_begin(void *ctx, FILE *out, FILE *err)
{
    (void)out;
    (void)err;
    return ctx;
}

static bool fn_game(rec_game *g, const char *path, void *part, cli_marks *marks)
{
    (void)marks;
    fn_sink *s = part;
    return s->fn(g, path, s->ctx);
}

static bool fn_finish(void *part)
{
    (void)part;
    return true;
}

static bool fn_merge(void *ctx, void *part, bool keep)
{
    (void)ctx;
    (void)part;
    (void)keep;
    return true;
}

cli_games_result cli_for_each_game(char **paths, int count, const cli_games_options *opts,
                                   cli_game_fn fn, void *ctx)
{
    static const cli_game_sink sink = {fn_begin, fn_game, fn_finish, fn_merge};
    fn_sink s = {fn, ctx};
    cli_games_options one = *opts;
    one.jobs = 1;
    return cli_run_games(paths, count, &one, &sink, &s, stdout, stderr);
}

bool cli_parse_jobs(const char *text, int *out)
{
    char *end;
    long n = strtol(text, &end, 10);
    if (end == text || *end || n < 1 || n > 256)
        return false;
    *out = (int)n;
    return true;
}

bool cli_parse_format(const char *name, input_format *out)
{
    if (strcmp(name, "pgn") == 0)
        *out = INPUT_PGN;
    else if (strcmp(name, "wxf") == 0)
        *out = INPUT_WXF;
    else if (strcmp(name, "article") == 0)
        *out = INPUT_ARTICLE;
    else if (strcmp(name, "tex") == 0 || strcmp(name, "latex") == 0)
        *out = INPUT_TEX;
    else if (strcmp(name, "markdown") == 0 || strcmp(name, "md") == 0 ||
             strcmp(name, "html") == 0)
        *out = INPUT_WEB;
    else if (strcmp(name, "xqf") == 0)
        *out = INPUT_XQF;
    else if (strcmp(name, "dhtmlxq") == 0)
        *out = INPUT_DHTMLXQ;
    else if (strcmp(name, "cbr") == 0)
        *out = INPUT_CBR;
    else if (strcmp(name, "cbl") == 0)
        *out = INPUT_CBL;
    else if (strcmp(name, "cbf") == 0)
        *out = INPUT_CBF;
    else
        return false;
    return true;
}

bool cli_parse_variant(const char *name, int *out)
{
    if (strcmp(name, "chess") == 0)
        *out = REC_CHESS;
    else if (strcmp(name, "xiangqi") == 0)
        *out = REC_XIANGQI;
    else
        return false;
    return true;
}
