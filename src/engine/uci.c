/* uci.c: the UCI protocol over two pipes (see uci.h). The engine's replies are read
 * line by line with poll() and a deadline; nothing here blocks without one. */
#define _GNU_SOURCE
#include "engine/uci.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "i18n/i18n.h"

struct uci_engine {
    pid_t pid;
    int to_fd, from_fd;
    char command[256];
    char name[128];
    char buf[8192];          /* bytes read and not yet consumed as lines */
    size_t len;
    bool failed;
    bool timed_out;
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void fail(uci_engine *e, char *err, size_t errsize, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Record the failure, stop the engine: it is not asked again. */
static void fail(uci_engine *e, char *err, size_t errsize, const char *fmt, ...)
{
    char what[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(err, errsize, _("engine '%s': %s"), e->command, what);
    e->failed = true;
    if (e->pid > 0) {
        kill(e->pid, SIGKILL);
        waitpid(e->pid, NULL, 0);
        e->pid = -1;
    }
}

static bool send_line(uci_engine *e, const char *line, char *err, size_t errsize)
{
    size_t n = strlen(line);
    char tmp[1024];
    if (n + 1 >= sizeof tmp)
        return false;
    memcpy(tmp, line, n);
    tmp[n++] = '\n';
    for (size_t off = 0; off < n;) {
        ssize_t w = write(e->to_fd, tmp + off, n - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            fail(e, err, errsize, "%s", _("it stopped reading its input (did it crash?)"));
            return false;
        }
        off += (size_t)w;
    }
    return true;
}

/* The next line (without the newline) into line, by the deadline. */
static bool read_line(uci_engine *e, char *line, size_t size, double deadline, char *err,
                      size_t errsize)
{
    for (;;) {
        char *nl = memchr(e->buf, '\n', e->len);
        if (nl) {
            size_t n = (size_t)(nl - e->buf);
            size_t keep = n < size - 1 ? n : size - 1;
            memcpy(line, e->buf, keep);
            line[keep] = '\0';
            if (keep && line[keep - 1] == '\r')
                line[keep - 1] = '\0';
            memmove(e->buf, nl + 1, e->len - n - 1);
            e->len -= n + 1;
            return true;
        }
        if (e->len == sizeof e->buf) {
            fail(e, err, errsize, "%s", _("it wrote a line too long to be UCI"));
            return false;
        }
        double left = deadline - now();
        if (left <= 0) {
            e->timed_out = true;
            fail(e, err, errsize, "%s", _("no answer in the time allowed: it hangs (stopped)"));
            return false;
        }
        struct pollfd p = {e->from_fd, POLLIN, 0};
        int r = poll(&p, 1, (int)(left * 1000) + 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0)
            continue;  /* the deadline check above reports it */
        ssize_t got = read(e->from_fd, e->buf + e->len, sizeof e->buf - e->len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            int status = 0;
            if (e->pid > 0 && waitpid(e->pid, &status, WNOHANG) == e->pid) {
                e->pid = -1;
                if (WIFSIGNALED(status))
                    fail(e, err, errsize, _("it crashed (signal %d)"), WTERMSIG(status));
                else
                    fail(e, err, errsize, _("it exited (status %d)"), WEXITSTATUS(status));
            } else
                fail(e, err, errsize, "%s", _("it closed its output (did it crash?)"));
            return false;
        }
        e->len += (size_t)got;
    }
}

/* Read lines until one starts with word; lines that are no UCI at all are counted, and
 * too many of them mean the program does not speak UCI. */
static bool wait_for(uci_engine *e, const char *word, double timeout, char *err, size_t errsize)
{
    double deadline = now() + timeout;
    char line[1024];
    size_t wl = strlen(word);
    while (read_line(e, line, sizeof line, deadline, err, errsize)) {
        if (strncmp(line, word, wl) == 0 && (line[wl] == '\0' || line[wl] == ' '))
            return true;
        if (strncmp(line, "id name ", 8) == 0)
            snprintf(e->name, sizeof e->name, "%s", line + 8);
    }
    if (e->timed_out)
        snprintf(err, errsize, _("engine '%s': no '%s' within %.0f s: it hangs or does not "
                                 "speak UCI (stopped)"), e->command, word, timeout);
    return false;
}

/* command: a path, or a name found in PATH or in /usr/games (where Debian puts engines). */
static bool find_program(const char *command, char *path, size_t size)
{
    if (strchr(command, '/')) {
        snprintf(path, size, "%s", command);
        return access(path, X_OK) == 0;
    }
    const char *env = getenv("PATH");
    char dirs[4096];
    snprintf(dirs, sizeof dirs, "%s:/usr/games:/usr/local/games", env ? env : "/usr/bin:/bin");
    for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        snprintf(path, size, "%s/%s", *d ? d : ".", command);
        if (access(path, X_OK) == 0)
            return true;
    }
    return false;
}

uci_engine *uci_open(const char *command, const char *variant, double timeout, char *err,
                     size_t errsize)
{
    uci_engine *e = calloc(1, sizeof *e);
    if (!e) {
        snprintf(err, errsize, "%s", _("out of memory"));
        return NULL;
    }
    snprintf(e->command, sizeof e->command, "%s", command);
    e->pid = -1;
    char path[1024];
    if (!find_program(command, path, sizeof path)) {
        snprintf(err, errsize, _("engine '%s': not found (install it, e.g. apt-get install "
                                 "stockfish fairy-stockfish, or give its path)"), command);
        free(e);
        return NULL;
    }
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0) {
        snprintf(err, errsize, _("engine '%s': %s"), command, strerror(errno));
        free(e);
        return NULL;
    }
    if (pipe2(out, O_CLOEXEC) != 0) {
        snprintf(err, errsize, _("engine '%s': %s"), command, strerror(errno));
        close(in[0]);
        close(in[1]);
        free(e);
        return NULL;
    }
    signal(SIGPIPE, SIG_IGN);  /* a dead engine is an error we report, not our death */
    pid_t pid = fork();
    if (pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0)
            dup2(devnull, 2);
        execl(path, path, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    if (pid < 0) {
        snprintf(err, errsize, _("engine '%s': %s"), command, strerror(errno));
        close(in[1]);
        close(out[0]);
        free(e);
        return NULL;
    }
    e->pid = pid;
    e->to_fd = in[1];
    e->from_fd = out[0];
    snprintf(e->name, sizeof e->name, "%s", command);
    if (!send_line(e, "uci", err, errsize) || !wait_for(e, "uciok", timeout, err, errsize))
        goto failed;
    if (variant && strcmp(variant, "chess") != 0) {
        char line[128];
        snprintf(line, sizeof line, "setoption name UCI_Variant value %s", variant);
        if (!send_line(e, line, err, errsize))
            goto failed;
    }
    /* one thread and a small table: the same answer at fixed nodes on every run */
    if (!send_line(e, "setoption name Threads value 1", err, errsize) ||
        !send_line(e, "setoption name Hash value 16", err, errsize) ||
        !send_line(e, "isready", err, errsize) || !wait_for(e, "readyok", timeout, err, errsize))
        goto failed;
    return e;
failed:
    uci_close(e);
    return NULL;
}

const char *uci_name(const uci_engine *e) { return e->name; }
bool uci_failed(const uci_engine *e) { return e->failed; }

/* One "info" line: keep its score and pv when it has them (not "lowerbound" ones). */
static void parse_info(const char *line, uci_eval *out, bool *have)
{
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", line);
    char *save = NULL;
    bool bound = false, score = false, mate = false;
    int value = 0, depth = -1;
    char *tok = strtok_r(copy, " ", &save);
    uci_eval tmp = *out;
    bool pv = false;
    while ((tok = strtok_r(NULL, " ", &save))) {
        if (pv) {
            if (tmp.pv_len < UCI_PV_MAX && strlen(tok) < sizeof tmp.pv[0])
                snprintf(tmp.pv[tmp.pv_len++], sizeof tmp.pv[0], "%s", tok);
            continue;
        }
        if (strcmp(tok, "depth") == 0 && (tok = strtok_r(NULL, " ", &save)))
            depth = atoi(tok);
        else if (strcmp(tok, "score") == 0 && (tok = strtok_r(NULL, " ", &save))) {
            mate = strcmp(tok, "mate") == 0;
            if ((mate || strcmp(tok, "cp") == 0) && (tok = strtok_r(NULL, " ", &save))) {
                value = atoi(tok);
                score = true;
            }
        } else if (strcmp(tok, "lowerbound") == 0 || strcmp(tok, "upperbound") == 0)
            bound = true;
        else if (strcmp(tok, "pv") == 0) {
            pv = true;
            tmp.pv_len = 0;
        }
    }
    if (!score || bound)
        return;
    tmp.mate = mate;
    tmp.score = value;
    tmp.depth = depth;
    if (!pv)
        tmp.pv_len = 0;
    *out = tmp;
    *have = true;
}

bool uci_evaluate(uci_engine *e, const char *fen, const uci_limit *limit, uci_eval *out,
                  char *err, size_t errsize)
{
    if (e->failed) {
        snprintf(err, errsize, _("engine '%s': stopped after an earlier failure"), e->command);
        return false;
    }
    memset(out, 0, sizeof *out);
    char line[1024];
    snprintf(line, sizeof line, "position fen %s", fen);
    if (!send_line(e, "ucinewgame", err, errsize) || !send_line(e, line, err, errsize))
        return false;
    if (limit->nodes > 0)
        snprintf(line, sizeof line, "go nodes %ld", limit->nodes);
    else
        snprintf(line, sizeof line, "go depth %d", limit->depth > 0 ? limit->depth : 12);
    if (!send_line(e, line, err, errsize))
        return false;
    double deadline = now() + limit->timeout;
    bool have = false;
    int junk = 0;
    while (read_line(e, line, sizeof line, deadline, err, errsize)) {
        if (strncmp(line, "info ", 5) == 0)
            parse_info(line, out, &have);
        else if (strncmp(line, "bestmove", 8) == 0) {
            if (!have) {
                /* no score at all: a mated or stalemated side, or garbage */
                char best[64] = "";
                sscanf(line, "bestmove %63s", best);
                if (strcmp(best, "(none)") != 0 && strcmp(best, "0000") != 0) {
                    fail(e, err, errsize, _("it answered '%s' without a score"), line);
                    return false;
                }
                out->mate = true;
                out->score = 0;   /* mated or stalemated: the caller knows which */
            }
            return true;
        } else if (line[0] && ++junk > 50) {
            fail(e, err, errsize, _("it does not speak UCI (it wrote '%.60s')"), line);
            return false;
        }
    }
    return false;
}

void uci_close(uci_engine *e)
{
    if (!e)
        return;
    if (e->pid > 0) {
        ssize_t ignored = write(e->to_fd, "quit\n", 5);
        (void)ignored;
        for (int i = 0; i < 50; i++) {   /* up to half a second */
            if (waitpid(e->pid, NULL, WNOHANG) == e->pid) {
                e->pid = -1;
                break;
            }
            struct timespec ts = {0, 10000000};
            nanosleep(&ts, NULL);
        }
        if (e->pid > 0) {
            kill(e->pid, SIGKILL);
            waitpid(e->pid, NULL, 0);
        }
    }
    if (e->to_fd > 0)
        close(e->to_fd);
    if (e->from_fd > 0)
        close(e->from_fd);
    free(e);
}
