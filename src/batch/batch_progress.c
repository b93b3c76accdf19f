/* batch_progress.c: the progress line. See batch_progress.h. */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "batch/batch_progress.h"
#include "i18n/i18n.h"

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void batch_progress_init(batch_progress *pg, char **paths, int count, bool wanted)
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

void batch_progress_clear(batch_progress *pg)
{
    if (pg->shown) {
        fputs("\r\033[K", stderr);
        pg->shown = false;
    }
}

void batch_progress_format(char *buf, size_t size, uint64_t bytes, uint64_t total,
                           uint64_t games, double elapsed)
{
    double rate = elapsed > 0 ? (double)games / elapsed : 0;
    char pct[64] = "";
    if (total && bytes <= total && bytes > 0) {
        double left = elapsed * (double)(total - bytes) / (double)bytes;
        snprintf(pct, sizeof pct, _(" (%.0f%%, ETA %.0f s)"), 100.0 * (double)bytes / (double)total,
                 left);
    }
    snprintf(buf, size, _("arbiter: %.1f MB%s, %" PRIu64 " games, %.0f games/s"),
             (double)bytes / 1e6, pct, games, rate);
}

void batch_progress_show(batch_progress *pg, uint64_t bytes, bool force)
{
    if (!pg->on)
        return;
    double t = now_seconds();
    if (!force && t - pg->last < 0.2)
        return;
    pg->last = t;
    char line[256];
    batch_progress_format(line, sizeof line, bytes, pg->total, pg->games, t - pg->start);
    fputc('\r', stderr);
    fputs(line, stderr);
    fputs("\033[K", stderr); /* clear the rest of the line */
    fflush(stderr);
    pg->shown = true;
}
