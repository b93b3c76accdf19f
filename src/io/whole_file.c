/* whole_file.c: files read whole and written beside. See whole_file.h. */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/whole_file.h"

char *io_read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *grown = realloc(buf, cap *= 2);
            if (!grown) {
                free(buf);
                buf = NULL;
            }
            buf = grown;
        }
    }
    if (buf && ferror(f)) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *len = n;
    return buf;
}

static bool write_all(int fd, const char *s, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        s += w;
        n -= (size_t)w;
    }
    return true;
}

/* A new temporary file next to target, keeping its extension (format detection). */
static int temp_next_to(const char *target, char *name, size_t size)
{
    const char *slash = strrchr(target, '/');
    const char *base = slash ? slash + 1 : target;
    const char *dot = strrchr(base, '.');
    const char *ext = dot && dot != base && strlen(dot) < 12 ? dot : "";
    int n = snprintf(name, size, "%.*s.arbiter-fix-XXXXXX%s", (int)(base - target), target, ext);
    if (n < 0 || (size_t)n >= size)
        return -1;
    return mkstemps(name, (int)strlen(ext));
}

bool io_write_temp(const char *target, const char *text, size_t len, char *name,
                       size_t size, const struct stat *mode_of)
{
    int fd = temp_next_to(target, name, size);
    if (fd < 0)
        return false;
    bool ok = write_all(fd, text, len) && (!mode_of || fchmod(fd, mode_of->st_mode & 07777) == 0) &&
              fsync(fd) == 0;
    if (close(fd) != 0)
        ok = false;
    if (!ok)
        unlink(name);
    return ok;
}
