/* test_batch_pool.c: the batch engine end to end with a recording sink: inputs cut into
 * many small pieces (ARBITER_PIECE_SIZE) and read by 1 to 8 threads give the same
 * bytes, game numbers renumbered within each file, games in input order, a PGN file,
 * a Markdown page (read whole in its turn) and another PGN file in one run; settle
 * called on the calling thread once per game in input order; a settle that splices text
 * into the games already written (batch_splice) gives the bytes a sink writing it at
 * once gives with one thread; a sink that stops writing stops the run at the same game
 * whatever the threads; a file and a pipe (written by writev) get the bytes a memory
 * stream gets. */
#include <config.h>

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "batch/batch.h"

typedef struct run_ctx {
    pthread_t main_thread;
    bool with_settle;
    bool splice;             /* every third game gets a line "twin: yes" before its event */
    int stop_at;             /* game() fails on the game with Event "G<stop_at>" (0: never) */
    char settled[64 * 1024]; /* the events in the order settle saw them */
    size_t settled_len;
    unsigned settles_off_main;
} run_ctx;

typedef struct part {
    FILE *out;
    run_ctx *ctx;
    char events[512][16];    /* of the part's games, for settle */
    size_t event_at[512];    /* where their event line is in out (splice) */
    uint64_t games;
} part;

static void *sink_begin(void *ctx, FILE *out, FILE *err)
{
    (void)err;
    part *p = calloc(1, sizeof *p);
    assert_non_null(p);
    p->out = out;
    p->ctx = ctx;
    return p;
}

static bool sink_game(rec_game *g, const char *path, void *vpart, batch_marks *marks)
{
    part *p = vpart;
    const char *event = rec_game_tag(g, "Event");
    event = event ? event : "?";
    if (p->ctx->stop_at && strcmp(event + 1, "") != 0 && atoi(event + 1) == p->ctx->stop_at)
        return false;
    long at = ftell(p->out);
    fprintf(p->out, "game: %llu\n", (unsigned long long)g->index);
    long event_at = ftell(p->out);
    if (p->ctx->splice && !marks && atoi(event + 1) % 3 == 0)
        fputs("twin: yes\n", p->out); /* one thread (or a page read whole): at once */
    fprintf(p->out, "event: %s\nfile: %s\n", event, path ? strrchr(path, '.') : "(none)");
    batch_mark_index(marks, p->out, at, "game: ");
    if (p->games < 512) {
        snprintf(p->events[p->games], sizeof p->events[0], "%s", event);
        p->event_at[p->games] = (size_t)event_at;
    }
    p->games++;
    return true;
}

static bool sink_finish(void *vpart)
{
    part *p = vpart;
    return fflush(p->out) == 0;
}

static bool sink_merge(void *ctx, void *vpart, bool keep)
{
    (void)ctx;
    (void)keep;
    free(vpart);
    return true;
}

static bool sink_settle(void *vctx, void *vpart, uint64_t index, batch_marks *marks)
{
    run_ctx *ctx = vctx;
    part *p = vpart;
    if (!pthread_equal(pthread_self(), ctx->main_thread))
        ctx->settles_off_main++;
    assert_true(index >= 1 && index <= p->games);
    const char *event = p->events[index - 1];
    if (ctx->splice && marks && atoi(event + 1) % 3 == 0) {
        /* the line before the event, as game() writes it with one thread */
        size_t at = p->event_at[index - 1];
        assert_memory_equal(batch_out_text(marks) + at, "event: ", 7);
        batch_splice(marks, at, 7, "twin: yes\nevent: ", 17);
    }
    int n = snprintf(ctx->settled + ctx->settled_len, sizeof ctx->settled - ctx->settled_len,
                     "%s,", p->events[index - 1]);
    ctx->settled_len += (size_t)n;
    return true;
}

static char paths_buf[3][64];

static void write_file(char *path, const char *suffix, const char *text)
{
    snprintf(path, 64, "/tmp/test_batch_pool_XXXXXX%s", suffix);
    int fd = mkstemps(path, (int)strlen(suffix));
    assert_true(fd >= 0);
    size_t n = strlen(text);
    assert_int_equal(write(fd, text, n), (ssize_t)n);
    close(fd);
}

static char *games_text(int first, int count)
{
    size_t cap = (size_t)count * 96 + 1, len = 0;
    char *s = malloc(cap);
    assert_non_null(s);
    for (int i = first; i < first + count; i++) {
        /* every seventh game has a comment line opening with '[' (no cut there), every
         * eleventh no blank line before the next game */
        len += (size_t)snprintf(s + len, cap - len, "[Event \"G%d\"]\n\n1. e4 %se5 *\n%s", i,
                                i % 7 ? "" : "{\n[%clk 0:01:00]} ", i % 11 ? "\n" : "");
    }
    return s;
}

static void setup_files(void)
{
    char *a = games_text(1, 300), *b = games_text(301, 40);
    write_file(paths_buf[0], ".pgn", a);
    write_file(paths_buf[1], ".md", "# Page\n\n```pgn\n[Event \"M1\"]\n\n1. d4 *\n```\n\n"
                                    "```pgn\n[Event \"M2\"]\n\n1. c4 *\n```\n");
    write_file(paths_buf[2], ".pgn", b);
    free(a);
    free(b);
}

/* Where a run writes: a memory stream (no descriptor: stdio takes the renumbered pieces),
 * a file or a pipe (a descriptor: the pieces go out by writev, straight from their
 * buffers). */
enum { OUT_MEMORY, OUT_FILE, OUT_PIPE };
#define HEAD_LINE "written before the run\n"

typedef struct pipe_reader {
    int fd;
    char *text;
    size_t len, cap;
} pipe_reader;

/* The other end of a pipe, read in small reads till its end. */
static void *pipe_drain(void *v)
{
    pipe_reader *p = v;
    for (;;) {
        if (p->len + 512 + 1 > p->cap) {
            p->cap = p->cap ? 2 * p->cap : 4096;
            p->text = realloc(p->text, p->cap);
            if (!p->text)
                abort();
        }
        ssize_t got = read(p->fd, p->text + p->len, 512);
        if (got <= 0)
            break;
        p->len += (size_t)got;
    }
    p->text[p->len] = '\0';
    return NULL;
}

/* The whole of a file stream's bytes, from its start. */
static void read_back(FILE *f, char **text, size_t *len)
{
    long n = ftell(f);
    assert_true(n >= 0);
    *text = malloc((size_t)n + 1);
    assert_non_null(*text);
    rewind(f);
    *len = fread(*text, 1, (size_t)n, f);
    assert_int_equal(*len, (size_t)n);
    (*text)[*len] = '\0';
}

static batch_result run_to(int jobs, run_ctx *ctx, int where, char **text, size_t *len);

/* One run over the three files with jobs threads; the output in *text. */
static batch_result run(int jobs, run_ctx *ctx, char **text, size_t *len)
{
    return run_to(jobs, ctx, OUT_MEMORY, text, len);
}

/* The same, written where says. */
static batch_result run_to(int jobs, run_ctx *ctx, int where, char **text, size_t *len)
{
    static const batch_sink plain = {sink_begin, sink_game, sink_finish, sink_merge, NULL};
    static const batch_sink settling = {sink_begin, sink_game, sink_finish, sink_merge, sink_settle};
    char *paths[3] = {paths_buf[0], paths_buf[1], paths_buf[2]};
    batch_options opts = {.format = INPUT_UNKNOWN, .variant = -1,
                          .referee = REFEREE_OPTIONS_DEFAULT, .jobs = jobs};
    FILE *out = NULL;
    pipe_reader pr = {0};
    pthread_t reader;
    int fds[2];
    if (where == OUT_MEMORY) {
        out = open_memstream(text, len);
    } else if (where == OUT_FILE) {
        out = tmpfile();
    } else {
        assert_int_equal(pipe(fds), 0);
        pr.fd = fds[0];
        assert_int_equal(pthread_create(&reader, NULL, pipe_drain, &pr), 0);
        out = fdopen(fds[1], "w");
    }
    assert_non_null(out);
    /* a line in stdio's buffer before the run: it must come first */
    if (where != OUT_MEMORY)
        fputs(HEAD_LINE, out);
    ctx->main_thread = pthread_self();
    batch_result res = batch_run(paths, 3, &opts, ctx->with_settle ? &settling : &plain, ctx,
                                 out, stderr);
    if (where == OUT_FILE)
        read_back(out, text, len);
    fclose(out);
    if (where == OUT_PIPE) {
        pthread_join(reader, NULL);
        close(fds[0]);
        *text = pr.text;
        *len = pr.len;
    }
    return res;
}

/* The first run's text is kept in *first; each later one must be the same bytes. */
static void same_as_first(char **first, size_t *first_len, char *text, size_t len)
{
    if (!*first) {
        *first = text;
        *first_len = len;
        return;
    }
    assert_int_equal(len, *first_len);
    assert_memory_equal(text, *first, len);
    free(text);
}

static void test_same_bytes_any_jobs(void **state)
{
    (void)state;
    setenv("ARBITER_PIECE_SIZE", "200", 1);
    run_ctx c1 = {0};
    char *one;
    size_t one_len;
    batch_result r1 = run(1, &c1, &one, &one_len);
    assert_false(r1.io_failed);
    assert_false(r1.stopped);
    assert_int_equal(r1.files, 3);
    /* games in input order, numbered within their file */
    char want[128];
    const char *at = one;
    for (int i = 1; i <= 342; i++) {
        if (i <= 300)
            snprintf(want, sizeof want, "game: %d\nevent: G%d\nfile: .pgn\n", i, i);
        else if (i <= 302)
            snprintf(want, sizeof want, "game: %d\nevent: M%d\nfile: .md\n", i - 300, i - 300);
        else
            snprintf(want, sizeof want, "game: %d\nevent: G%d\nfile: .pgn\n", i - 302, i - 2);
        const char *hit = strstr(at, want);
        if (!hit)
            print_error("game %d not next: %s\n", i, want);
        assert_ptr_equal(hit, at);
        at += strlen(want);
    }
    assert_int_equal(*at, '\0');
    for (int jobs = 2; jobs <= 8; jobs *= 2) {
        run_ctx c = {0};
        char *many;
        size_t many_len;
        batch_result r = run(jobs, &c, &many, &many_len);
        assert_false(r.io_failed);
        assert_false(r.stopped);
        assert_int_equal(many_len, one_len);
        assert_memory_equal(many, one, one_len);
        free(many);
    }
    free(one);
    unsetenv("ARBITER_PIECE_SIZE");
}

static void test_settle_in_input_order(void **state)
{
    (void)state;
    setenv("ARBITER_PIECE_SIZE", "300", 1);
    char want[8192] = "";
    size_t wl = 0;
    for (int i = 1; i <= 300; i++)
        wl += (size_t)snprintf(want + wl, sizeof want - wl, "G%d,", i);
    wl += (size_t)snprintf(want + wl, sizeof want - wl, "M1,M2,");
    for (int i = 301; i <= 340; i++)
        wl += (size_t)snprintf(want + wl, sizeof want - wl, "G%d,", i);
    char *first = NULL;
    size_t first_len = 0;
    for (int jobs = 1; jobs <= 8; jobs *= 2) {
        run_ctx *c = calloc(1, sizeof *c);
        assert_non_null(c);
        c->with_settle = true;
        char *text;
        size_t len;
        batch_result r = run(jobs, c, &text, &len);
        assert_false(r.stopped);
        assert_int_equal(c->settles_off_main, 0);
        if (c->settled_len != wl)
            print_error("jobs %d: %s\n", jobs, c->settled_len > 300 ? c->settled + c->settled_len - 300 : c->settled);
        assert_int_equal(c->settled_len, wl);
        assert_memory_equal(c->settled, want, wl);
        same_as_first(&first, &first_len, text, len);
        free(c);
    }
    free(first);
    unsetenv("ARBITER_PIECE_SIZE");
}

static void test_splice_same_bytes(void **state)
{
    (void)state;
    setenv("ARBITER_PIECE_SIZE", "300", 1);
    char *first = NULL;
    size_t first_len = 0;
    for (int jobs = 1; jobs <= 8; jobs *= 2) {
        run_ctx *c = calloc(1, sizeof *c);
        assert_non_null(c);
        c->with_settle = c->splice = true;
        char *text;
        size_t len;
        batch_result r = run(jobs, c, &text, &len);
        assert_false(r.stopped);
        /* numbers renumbered around the spliced lines */
        assert_non_null(strstr(text, "game: 299\nevent: G299\n"));
        assert_non_null(strstr(text, "game: 300\ntwin: yes\nevent: G300\n"));
        assert_non_null(strstr(text, "game: 1\nevent: G301\n"));
        assert_non_null(strstr(text, "game: 3\ntwin: yes\nevent: G303\n"));
        same_as_first(&first, &first_len, text, len);
        free(c);
    }
    free(first);
    unsetenv("ARBITER_PIECE_SIZE");
}

static void test_stop_at_same_game(void **state)
{
    (void)state;
    setenv("ARBITER_PIECE_SIZE", "250", 1);
    char *first = NULL;
    size_t first_len = 0;
    for (int jobs = 1; jobs <= 8; jobs *= 2) {
        run_ctx c = {.stop_at = 150};
        char *text;
        size_t len;
        batch_result r = run(jobs, &c, &text, &len);
        assert_true(r.stopped);
        /* nothing of game 150 or after */
        assert_non_null(strstr(text, "event: G149\n"));
        assert_null(strstr(text, "event: G150\n"));
        assert_null(strstr(text, "event: G151\n"));
        assert_null(strstr(text, "event: M1\n"));
        same_as_first(&first, &first_len, text, len);
    }
    free(first);
    unsetenv("ARBITER_PIECE_SIZE");
}

/* A file and a pipe (the renumbered pieces by writev, a pipe taking them in 512-byte
 * reads) get the bytes a memory stream gets, with numbers renumbered and text spliced,
 * after what stdio held before the run. */
static void test_descriptor_same_bytes(void **state)
{
    (void)state;
    setenv("ARBITER_PIECE_SIZE", "300", 1);
    for (int splice = 0; splice <= 1; splice++) {
        run_ctx *c = calloc(1, sizeof *c);
        assert_non_null(c);
        c->with_settle = c->splice = splice;
        char *want;
        size_t want_len;
        assert_false(run(1, c, &want, &want_len).stopped);
        for (int where = OUT_FILE; where <= OUT_PIPE; where++)
            for (int jobs = 1; jobs <= 4; jobs *= 2) {
                memset(c, 0, sizeof *c);
                c->with_settle = c->splice = splice;
                char *text;
                size_t len;
                batch_result r = run_to(jobs, c, where, &text, &len);
                assert_false(r.stopped);
                assert_false(r.io_failed);
                size_t head = strlen(HEAD_LINE);
                assert_int_equal(len, head + want_len);
                assert_memory_equal(text, HEAD_LINE, head);
                assert_memory_equal(text + head, want, want_len);
                free(text);
            }
        free(want);
        free(c);
    }
    unsetenv("ARBITER_PIECE_SIZE");
}

static int teardown(void **state)
{
    (void)state;
    for (int i = 0; i < 3; i++)
        unlink(paths_buf[i]);
    return 0;
}

static int setup(void **state)
{
    (void)state;
    setup_files();
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_bytes_any_jobs),
        cmocka_unit_test(test_settle_in_input_order),
        cmocka_unit_test(test_splice_same_bytes),
        cmocka_unit_test(test_stop_at_same_game),
        cmocka_unit_test(test_descriptor_same_bytes),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
