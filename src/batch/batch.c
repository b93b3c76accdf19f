/* batch.c: the batch engine's entry points and its one-thread loop. See batch.h. */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batch/batch.h"
#include "batch/batch_internal.h"
#include "batch/batch_replay.h"
#include "i18n/i18n.h"
#include "reader/reader.h"

void batch_verror(const char *fmt, va_list ap)
{
    fputs("arbiter: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void batch_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    batch_verror(fmt, ap);
    va_end(ap);
}

bool batch_no_source_text(const input *in)
{
    return in->compressed || reader_for(in->format)->binary || in->encoding != INPUT_ENC_UTF8;
}

struct batch_pull {
    const input *in;
    const char *path;
    const batch_options *opts;
    const reader_format *fmt;
    void *r;
    uint64_t index;
};

batch_pull *batch_pull_open(const input *in, const char *path, const batch_options *opts)
{
    batch_pull *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->in = in;
    p->path = path;
    p->opts = opts;
    p->fmt = reader_for(in->format);
    p->r = p->fmt->open_input ? p->fmt->open_input(in, path) : p->fmt->open(in->fp, path);
    if (!p->r) {
        free(p);
        return NULL;
    }
    return p;
}

int batch_next_game(batch_pull *p, rec_game *g, arena *a)
{
    rec_game_init(g, a, p->path, p->index + 1);
    int got = p->fmt->next(p->r, g, a);
    if (got <= 0)
        return got < 0 ? -1 : 0;
    p->index++;
    g->index = p->index;
    batch_replay(g, p->fmt, p->opts);
    if (p->fmt->after_replay)
        p->fmt->after_replay(p->r, g);
    return 1;
}

const char *batch_pull_error(const batch_pull *p)
{
    return input_failed(p->in) ? _("corrupt or truncated compressed data") : p->fmt->error(p->r);
}

const char *batch_pull_source_path(const batch_pull *p)
{
    return batch_no_source_text(p->in) ? NULL : p->path;
}

uint64_t batch_pull_games(const batch_pull *p)
{
    return p->index;
}

void batch_pull_close(batch_pull *p)
{
    if (!p)
        return;
    p->fmt->close(p->r);
    free(p);
}

void batch_each_game_of(const char *path, const input *in, arena *a, const batch_options *opts,
                        const batch_sink *sink, void *ctx, void *part,
                        uint64_t *part_games, batch_progress *pg, batch_result *res)
{
    batch_pull *p = batch_pull_open(in, path, opts);
    if (!p) {
        batch_error(_("%s: out of memory"), path);
        res->io_failed = true;
        return;
    }
    const char *src_path = batch_pull_source_path(p);
    for (;;) {
        rec_game g;
        arena_reset(a);
        int got = batch_next_game(p, &g, a);
        if (got < 0) {
            batch_progress_clear(pg);
            batch_error("%s: %s", path, batch_pull_error(p));
            res->io_failed = true;
            break;
        }
        if (got == 0)
            break;
        batch_progress_clear(pg);
        if (!sink->game(&g, src_path, part, NULL) ||
            (sink->settle && !sink->settle(ctx, part, ++*part_games, NULL))) {
            res->stopped = true;
            break;
        }
        pg->games++;
        if ((batch_pull_games(p) & 255) == 0)
            batch_progress_show(pg, pg->done_bytes + input_bytes_read(in), false);
    }
    batch_pull_close(p);
}

static void run_file_sequential(const char *path, const batch_options *opts, arena *a,
                                const batch_sink *sink, void *ctx, void *part,
                                uint64_t *part_games, batch_progress *pg, batch_result *res)
{
    input in;
    char err[512];
    if (!reader_input_open(&in, path, opts->format, err, sizeof err)) {
        batch_progress_clear(pg);
        batch_error("%s", err);
        res->io_failed = true;
        return;
    }
    res->files++;
    if (in.encoding != INPUT_ENC_UTF8 && opts->verbose) {
        batch_progress_clear(pg);
        fprintf(stderr, _("arbiter: %s: read as %s\n"), path, input_encoding_name(in.encoding));
    }
    batch_each_game_of(path, &in, a, opts, sink, ctx, part, part_games, pg, res);
    if (in.bad_bytes) {
        batch_progress_clear(pg);
        fprintf(stderr,
                ngettext("arbiter: %s: %lu byte could not be read as %s and became U+FFFD\n",
                         "arbiter: %s: %lu bytes could not be read as %s and became U+FFFD\n", in.bad_bytes),
                path, in.bad_bytes, input_encoding_name(in.encoding));
    }
    pg->done_bytes += input_bytes_read(&in);
    input_close(&in);
}

batch_result batch_run(char **paths, int count, const batch_options *opts,
                       const batch_sink *sink, void *ctx, FILE *out, FILE *err)
{
    static char *stdin_only[] = {"-"};
    if (count == 0) {
        paths = stdin_only;
        count = 1;
    }
    batch_progress pg;
    batch_progress_init(&pg, paths, count, opts->progress);
    int jobs = opts->jobs;
    if (jobs <= 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        jobs = n < 1 ? 1 : n > 256 ? 256 : (int)n;
    }
    batch_result res = {0};
    if (jobs > 1) {
        res = batch_run_parallel(paths, count, opts, sink, ctx, out, err, jobs, &pg);
    } else {
        arena a;
        arena_init(&a);
        void *part = sink->begin(ctx, out, err);
        uint64_t part_games = 0;
        for (int i = 0; i < count && !res.stopped; i++)
            run_file_sequential(paths[i], opts, &a, sink, ctx, part, &part_games, &pg, &res);
        if (!sink->finish(part))
            res.stopped = true;
        if (!sink->merge(ctx, part, true))
            res.stopped = true;
        arena_free(&a);
    }
    batch_progress_clear(&pg);
    return res;
}

/* The simple form: a sink around fn. */
typedef struct fn_sink {
    batch_game_fn fn;
    void *ctx;
} fn_sink;

static void *fn_begin(void *ctx, FILE *out, FILE *err)
{
    (void)out;
    (void)err;
    return ctx;
}

static bool fn_game(rec_game *g, const char *path, void *part, batch_marks *marks)
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

batch_result batch_for_each_game(char **paths, int count, const batch_options *opts,
                                 batch_game_fn fn, void *ctx)
{
    static const batch_sink sink = {fn_begin, fn_game, fn_finish, fn_merge, NULL};
    fn_sink s = {fn, ctx};
    batch_options one = *opts;
    one.jobs = 1;
    return batch_run(paths, count, &one, &sink, &s, stdout, stderr);
}
