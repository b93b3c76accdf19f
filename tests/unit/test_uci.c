/* test_uci.c: the UCI client against fake engines (shell scripts written here) that
 * answer, crash, hang, speak garbage or are slow; a real Stockfish at fixed nodes when
 * installed; and the SQLite evaluation cache (a real file, two writers at once). */
#include <config.h>

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "engine/eval_cache.h"
#include "engine/uci.h"

static char dir[64];

static const char *script(const char *name, const char *body)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "#!/bin/sh\n%s", body);
    fclose(f);
    chmod(path, 0755);
    return path;
}

/* A fake that speaks enough UCI: the handshake, then one score and a best move per go. */
static const char good_body[] =
    "while read -r cmd rest; do case $cmd in\n"
    "uci) echo 'id name FakeFish 1.0'; echo uciok;;\n"
    "isready) echo readyok;;\n"
    "go) echo 'info depth 5 score cp 20 pv e2e4'; echo 'info depth 6 score cp -35 pv d2d4 d7d5';"
    " echo 'info depth 6 score cp 99 lowerbound'; echo 'bestmove d2d4';;\n"
    "quit) exit 0;;\n"
    "esac; done\n";

static const uci_limit quick = {.nodes = 1000, .timeout = 5};

static void test_good(void **state)
{
    (void)state;
    char err[300] = "";
    uci_engine *e = uci_open(script("good", good_body), NULL, 5, err, sizeof err);
    assert_non_null(e);
    assert_string_equal(uci_name(e), "FakeFish 1.0");
    uci_eval ev;
    assert_true(uci_evaluate(e, "8/8/8/8/8/8/8/K6k w - - 0 1", &quick, &ev, err, sizeof err));
    assert_false(ev.mate);
    assert_int_equal(ev.score, -35);   /* the last exact score, not the bound */
    assert_int_equal(ev.depth, 6);
    assert_int_equal(ev.pv_len, 2);
    assert_string_equal(ev.pv[0], "d2d4");
    assert_false(uci_failed(e));
    uci_close(e);
}

static void test_missing(void **state)
{
    (void)state;
    char err[300] = "";
    assert_null(uci_open("no-such-engine-here", NULL, 5, err, sizeof err));
    assert_non_null(strstr(err, "no-such-engine-here"));
    assert_non_null(strstr(err, "not found"));
}

static void test_crash_at_start(void **state)
{
    (void)state;
    char err[300] = "";
    assert_null(uci_open(script("crash", "read -r cmd; kill -SEGV $$\n"), NULL, 5, err, sizeof err));
    assert_non_null(strstr(err, "crash"));
}

static void test_crash_in_search(void **state)
{
    (void)state;
    char err[300] = "";
    uci_engine *e = uci_open(script("crash2",
        "while read -r cmd rest; do case $cmd in\n"
        "uci) echo uciok;; isready) echo readyok;; go) exit 3;; esac; done\n"), NULL, 5, err,
        sizeof err);
    assert_non_null(e);
    uci_eval ev;
    assert_false(uci_evaluate(e, "8/8/8/8/8/8/8/K6k w - - 0 1", &quick, &ev, err, sizeof err));
    assert_non_null(strstr(err, "crash2"));
    assert_true(uci_failed(e));
    /* asked again: fails at once, no hang */
    assert_false(uci_evaluate(e, "8/8/8/8/8/8/8/K6k w - - 0 1", &quick, &ev, err, sizeof err));
    uci_close(e);
}

static void test_hang(void **state)
{
    (void)state;
    char err[300] = "";
    assert_null(uci_open(script("hang", "exec sleep 60\n"), NULL, 1, err, sizeof err));
    assert_non_null(strstr(err, "uciok"));
    assert_non_null(strstr(err, "hangs"));
    /* hangs in the search */
    uci_engine *e = uci_open(script("hang2",
        "while read -r cmd rest; do case $cmd in\n"
        "uci) echo uciok;; isready) echo readyok;; go) exec sleep 60;; esac; done\n"), NULL, 5, err,
        sizeof err);
    assert_non_null(e);
    uci_limit one = {.nodes = 1000, .timeout = 1};
    uci_eval ev;
    assert_false(uci_evaluate(e, "8/8/8/8/8/8/8/K6k w - - 0 1", &one, &ev, err, sizeof err));
    assert_non_null(strstr(err, "hangs"));
    uci_close(e);
}

static void test_garbage(void **state)
{
    (void)state;
    char err[300] = "";
    /* no uciok ever, only noise: the handshake times out naming the engine */
    assert_null(uci_open(script("garbage", "while true; do echo 'hello, I am not an engine'; "
                                "sleep 0.01; done\n"), NULL, 1, err, sizeof err));
    assert_non_null(strstr(err, "garbage"));
    /* a search answered with noise */
    uci_engine *e = uci_open(script("garbage2",
        "while read -r cmd rest; do case $cmd in\n"
        "uci) echo uciok;; isready) echo readyok;;\n"
        "go) i=0; while [ $i -lt 60 ]; do echo 'moo'; i=$((i+1)); done;; esac; done\n"), NULL,
        5, err, sizeof err);
    assert_non_null(e);
    uci_eval ev;
    assert_false(uci_evaluate(e, "8/8/8/8/8/8/8/K6k w - - 0 1", &quick, &ev, err, sizeof err));
    assert_non_null(strstr(err, "does not speak UCI"));
    uci_close(e);
    /* a best move without any score */
    e = uci_open(script("noscore",
        "while read -r cmd rest; do case $cmd in\n"
        "uci) echo uciok;; isready) echo readyok;; go) echo 'bestmove e2e4';; esac; done\n"),
        NULL, 5, err, sizeof err);
    assert_non_null(e);
    assert_false(uci_evaluate(e, "8/8/8/8/8/8/8/K6k w - - 0 1", &quick, &ev, err, sizeof err));
    assert_non_null(strstr(err, "without a score"));
    uci_close(e);
}

static void test_slow(void **state)
{
    (void)state;
    char err[300] = "";
    /* slow but within the time allowed: answered */
    uci_engine *e = uci_open(script("slow",
        "while read -r cmd rest; do case $cmd in\n"
        "uci) sleep 0.3; echo uciok;; isready) echo readyok;;\n"
        "go) sleep 0.5; echo 'info depth 1 score mate -2 pv a1a2'; echo 'bestmove a1a2';;\n"
        "esac; done\n"), NULL, 5, err, sizeof err);
    assert_non_null(e);
    uci_eval ev;
    assert_true(uci_evaluate(e, "8/8/8/8/8/8/8/K6k w - - 0 1", &quick, &ev, err, sizeof err));
    assert_true(ev.mate);
    assert_int_equal(ev.score, -2);
    uci_close(e);
}

static const char *engine_path(const char *name)
{
    static char path[128];
    snprintf(path, sizeof path, "/usr/games/%s", name);
    return access(path, X_OK) == 0 ? path : NULL;
}

/* Stockfish at fixed nodes and one thread gives the same answer twice. */
static void test_real_stockfish(void **state)
{
    (void)state;
    const char *sf = engine_path("stockfish");
    if (!sf)
        skip();   /* stockfish is not installed (./bootstrap check installs it) */
    char err[300] = "";
    uci_limit lim = {.nodes = 20000, .timeout = 30};
    uci_eval a, b;
    for (int i = 0; i < 2; i++) {
        uci_engine *e = uci_open(sf, NULL, 10, err, sizeof err);
        assert_non_null(e);
        assert_non_null(strstr(uci_name(e), "Stockfish"));
        assert_true(uci_evaluate(e, "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", &lim, i ? &b : &a,
                                 err, sizeof err));
        uci_close(e);
    }
    assert_true(a.mate);
    assert_int_equal(a.score, 1);
    assert_string_equal(a.pv[0], "a1a8");
    assert_int_equal(a.score, b.score);
}

static void test_real_fairy_stockfish_xiangqi(void **state)
{
    (void)state;
    const char *fsf = engine_path("fairy-stockfish");
    if (!fsf)
        skip();   /* fairy-stockfish is not installed (./bootstrap check installs it) */
    char err[300] = "";
    uci_limit lim = {.nodes = 20000, .timeout = 30};
    uci_eval ev;
    uci_engine *e = uci_open(fsf, "xiangqi", 10, err, sizeof err);
    assert_non_null(e);
    assert_true(uci_evaluate(e, "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", &lim, &ev, err, sizeof err));
    uci_close(e);
    assert_true(ev.mate);
    assert_int_equal(ev.score, 1);
}

/* ---- the cache ---- */

static void test_cache_file(void **state)
{
    (void)state;
    if (!eval_cache_available())
        skip();   /* built without SQLite */
    char path[128], err[300];
    snprintf(path, sizeof path, "%s/sub/dir/cache.sqlite", dir);
    eval_cache *c = eval_cache_open(path, err, sizeof err);
    assert_non_null(c);
    uci_eval ev = {.mate = false, .score = -35, .depth = 12, .pv_len = 2};
    strcpy(ev.pv[0], "d2d4");
    strcpy(ev.pv[1], "d7d5");
    uci_eval got;
    assert_false(eval_cache_get(c, "k1", &got));
    assert_true(eval_cache_put(c, "k1", &ev));
    eval_cache_close(c);
    c = eval_cache_open(path, err, sizeof err);   /* kept in the file */
    assert_non_null(c);
    assert_true(eval_cache_get(c, "k1", &got));
    assert_int_equal(got.score, -35);
    assert_int_equal(got.depth, 12);
    assert_int_equal(got.pv_len, 2);
    assert_string_equal(got.pv[1], "d7d5");
    assert_false(eval_cache_get(c, "k2", &got));
    eval_cache_close(c);
    /* a file that is no database: a clear error, no crash */
    snprintf(path, sizeof path, "%s/notadb", dir);
    FILE *f = fopen(path, "w");
    fputs("this is not SQLite, just text long enough to be read as a header.....\n", f);
    fclose(f);
    assert_null(eval_cache_open(path, err, sizeof err));
    assert_non_null(strstr(err, "notadb"));
}

typedef struct writer_arg { const char *path; int id; int ok; } writer_arg;

static void *writer(void *varg)
{
    writer_arg *w = varg;
    char err[300], key[32];
    eval_cache *c = eval_cache_open(w->path, err, sizeof err);
    if (!c)
        return NULL;
    for (int i = 0; i < 300; i++) {
        uci_eval ev = {.score = w->id * 1000 + i, .depth = 1};
        snprintf(key, sizeof key, "w%d-%d", w->id, i);
        w->ok += eval_cache_put(c, key, &ev);
        uci_eval back;
        if (eval_cache_get(c, "w0-0", &back) && back.score != 0)
            w->ok = -100000;
    }
    eval_cache_close(c);
    return NULL;
}

static void test_cache_concurrent_writers(void **state)
{
    (void)state;
    if (!eval_cache_available())
        skip();   /* built without SQLite */
    char path[128], err[300];
    snprintf(path, sizeof path, "%s/shared.sqlite", dir);
    writer_arg args[3] = {{path, 0, 0}, {path, 1, 0}, {path, 2, 0}};
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
        assert_int_equal(pthread_create(&t[i], NULL, writer, &args[i]), 0);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < 3; i++)
        assert_int_equal(args[i].ok, 300);   /* no write lost to a busy database */
    eval_cache *c = eval_cache_open(path, err, sizeof err);
    assert_non_null(c);
    uci_eval got;
    assert_true(eval_cache_get(c, "w2-299", &got));
    assert_int_equal(got.score, 2299);
    eval_cache_close(c);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/arbiter-test-uci-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good),
        cmocka_unit_test(test_missing),
        cmocka_unit_test(test_crash_at_start),
        cmocka_unit_test(test_crash_in_search),
        cmocka_unit_test(test_hang),
        cmocka_unit_test(test_garbage),
        cmocka_unit_test(test_slow),
        cmocka_unit_test(test_real_stockfish),
        cmocka_unit_test(test_real_fairy_stockfish_xiangqi),
        cmocka_unit_test(test_cache_file),
        cmocka_unit_test(test_cache_concurrent_writers),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        rc = rc ? rc : 1;
    return rc;
}
