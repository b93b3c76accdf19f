/* chunked_source.h: a source for the readers' *_open_source (the way -j1 reads a file:
 * input_read straight into the scanner's buffer) that gives text out at most step bytes
 * a read, and fails with EIO once fail_at bytes are out: for the unit tests of the
 * PGN and WXF readers, which must read the same games however the reads fall. */
#ifndef ARBITER_TESTS_CHUNKED_SOURCE_H
#define ARBITER_TESTS_CHUNKED_SOURCE_H

#include <errno.h>
#include <string.h>
#include <sys/types.h>

typedef struct chunked_source {
    const char *text;
    size_t len, pos, step, fail_at;
} chunked_source;

static inline ssize_t chunked_source_read(void *v, char *buf, size_t size)
{
    chunked_source *c = v;
    if (c->pos >= c->fail_at) {
        errno = EIO;
        return -1;
    }
    size_t n = c->len - c->pos;
    if (n > c->step)
        n = c->step;
    if (n > size)
        n = size;
    memcpy(buf, c->text + c->pos, n);
    c->pos += n;
    return (ssize_t)n;
}

#endif
