/* eval_cache.c: the SQLite evaluation cache (see eval_cache.h). */
#include <config.h>

#include "engine/eval_cache.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "i18n/i18n.h"

void eval_cache_default_path(char *buf, size_t size)
{
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    if (xdg && *xdg == '/')
        snprintf(buf, size, "%s/arbiter/engine.sqlite", xdg);
    else
        snprintf(buf, size, "%s/.cache/arbiter/engine.sqlite", home && *home ? home : "/tmp");
}

#ifdef HAVE_SQLITE
#include <dlfcn.h>
#include <pthread.h>
#include <sqlite3.h>

/* SQLite is loaded with the first cache opened, not linked: a run that keeps no
 * evaluations (nearly every run) starts without it. Loading it costs about 2 ms of
 * CPU a process (Debian builds it to bind its 1,600 symbols at load), more than
 * checking a short file takes. The functions used, typed by the header: */
#define SQL_FUNCTIONS(X) X(sqlite3_open_v2) X(sqlite3_busy_timeout) X(sqlite3_exec) \
    X(sqlite3_prepare_v2) X(sqlite3_errmsg) X(sqlite3_reset) X(sqlite3_bind_text) \
    X(sqlite3_bind_int) X(sqlite3_step) X(sqlite3_column_int) X(sqlite3_column_text) \
    X(sqlite3_finalize) X(sqlite3_close)
/* SQLite 3's soname on every Linux distribution (Debian: libsqlite3-0) */
#define SQL_LIBRARY "libsqlite3.so.0"

static struct {
#define SQL_POINTER(f) __typeof__(f) *f;
    SQL_FUNCTIONS(SQL_POINTER)
#undef SQL_POINTER
} sql;
static char sql_error[256]; /* why SQLite could not be loaded, or "" */
static pthread_once_t sql_once = PTHREAD_ONCE_INIT;

static void sql_load(void)
{
    void *lib = dlopen(SQL_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(sql_error, sizeof sql_error, "%s", dlerror());
        return;
    }
#define SQL_SYMBOL(f)                                                                    \
    if (!(sql.f = (__typeof__(f) *)dlsym(lib, #f))) {                                    \
        snprintf(sql_error, sizeof sql_error, _("%s has no %s"), SQL_LIBRARY, #f);       \
        return;                                                                          \
    }
    SQL_FUNCTIONS(SQL_SYMBOL)
#undef SQL_SYMBOL
}

struct eval_cache {
    sqlite3 *db;
    sqlite3_stmt *get, *put;
};

bool eval_cache_available(void) { return true; }

/* mkdir -p of path's directory */
static void make_parent_dirs(const char *path)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", path);
    for (char *p = dir + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(dir, 0777);
            *p = '/';
        }
}

eval_cache *eval_cache_open(const char *path, char *err, size_t errsize)
{
    pthread_once(&sql_once, sql_load);
    if (sql_error[0]) {
        snprintf(err, errsize, _("engine cache %s: cannot load SQLite: %s"), path, sql_error);
        return NULL;
    }
    make_parent_dirs(path);
    eval_cache *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    if (sql.sqlite3_open_v2(path, &c->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                            SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
        goto failed;
    /* several workers (and several runs) at once: readers never wait for the writer in
     * WAL, and a writer waits up to 10 s for another */
    sql.sqlite3_busy_timeout(c->db, 10000);
    if (sql.sqlite3_exec(c->db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
                         "CREATE TABLE IF NOT EXISTS evals(key TEXT PRIMARY KEY, mate INTEGER,"
                         " score INTEGER, depth INTEGER, pv TEXT)", NULL, NULL, NULL) != SQLITE_OK)
        goto failed;
    if (sql.sqlite3_prepare_v2(c->db, "SELECT mate, score, depth, pv FROM evals WHERE key = ?1",
                               -1, &c->get, NULL) != SQLITE_OK ||
        sql.sqlite3_prepare_v2(c->db, "INSERT OR REPLACE INTO evals VALUES (?1, ?2, ?3, ?4, ?5)",
                               -1, &c->put, NULL) != SQLITE_OK)
        goto failed;
    return c;
failed:
    snprintf(err, errsize, _("engine cache %s: %s"), path,
             c->db ? sql.sqlite3_errmsg(c->db) : strerror(errno));
    eval_cache_close(c);
    return NULL;
}

bool eval_cache_get(eval_cache *c, const char *key, uci_eval *out)
{
    bool found = false;
    sql.sqlite3_reset(c->get);
    sql.sqlite3_bind_text(c->get, 1, key, -1, SQLITE_TRANSIENT);
    if (sql.sqlite3_step(c->get) == SQLITE_ROW) {
        memset(out, 0, sizeof *out);
        out->mate = sql.sqlite3_column_int(c->get, 0) != 0;
        out->score = sql.sqlite3_column_int(c->get, 1);
        out->depth = sql.sqlite3_column_int(c->get, 2);
        const char *pv = (const char *)sql.sqlite3_column_text(c->get, 3);
        char copy[UCI_PV_MAX * 8 + 1];
        snprintf(copy, sizeof copy, "%s", pv ? pv : "");
        char *save = NULL;
        for (char *t = strtok_r(copy, " ", &save); t && out->pv_len < UCI_PV_MAX;
             t = strtok_r(NULL, " ", &save))
            snprintf(out->pv[out->pv_len++], sizeof out->pv[0], "%s", t);
        found = true;
    }
    sql.sqlite3_reset(c->get);
    return found;
}

bool eval_cache_put(eval_cache *c, const char *key, const uci_eval *ev)
{
    char pv[UCI_PV_MAX * 8 + 1] = "";
    size_t len = 0;
    for (int i = 0; i < ev->pv_len; i++)
        len += (size_t)snprintf(pv + len, sizeof pv - len, "%s%s", i ? " " : "", ev->pv[i]);
    sql.sqlite3_reset(c->put);
    sql.sqlite3_bind_text(c->put, 1, key, -1, SQLITE_TRANSIENT);
    sql.sqlite3_bind_int(c->put, 2, ev->mate);
    sql.sqlite3_bind_int(c->put, 3, ev->score);
    sql.sqlite3_bind_int(c->put, 4, ev->depth);
    sql.sqlite3_bind_text(c->put, 5, pv, -1, SQLITE_TRANSIENT);
    bool ok = sql.sqlite3_step(c->put) == SQLITE_DONE;
    sql.sqlite3_reset(c->put);
    return ok;
}

void eval_cache_close(eval_cache *c)
{
    if (!c)
        return;
    sql.sqlite3_finalize(c->get);
    sql.sqlite3_finalize(c->put);
    sql.sqlite3_close(c->db);
    free(c);
}

#else /* no SQLite: the engine still runs, nothing is kept between runs */

struct eval_cache { int unused; };

bool eval_cache_available(void) { return false; }

eval_cache *eval_cache_open(const char *path, char *err, size_t errsize)
{
    snprintf(err, errsize, _("engine cache %s: this build has no SQLite (install libsqlite3-dev "
                             "and rebuild); evaluations are not kept"), path);
    return NULL;
}
bool eval_cache_get(eval_cache *c, const char *key, uci_eval *out)
{
    (void)c, (void)key, (void)out;
    return false;
}
bool eval_cache_put(eval_cache *c, const char *key, const uci_eval *ev)
{
    (void)c, (void)key, (void)ev;
    return false;
}
void eval_cache_close(eval_cache *c) { (void)c; }
#endif
