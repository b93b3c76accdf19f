/* reader_dhtmlxq.c: [DhtmlXQ] blocks (in a page or alone) behind the reader interface. */
#include <config.h>

#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "dhtmlxq_reader.h"
#include "reader/reader.h"

/* "[DhtmlXQ" in any case anywhere. */
static bool dhtmlxq_block(const char *s, size_t n)
{
    static const char key[] = "[dhtmlxq";
    const size_t k = sizeof key - 1;
    for (const char *p = s, *end = s + n; end - p >= (ptrdiff_t)k; p++) {
        p = memchr(p, '[', (size_t)(end - p) - (k - 1));   /* a PGN's '[' are few */
        if (!p)
            return false;
        if (strncasecmp(p, key, k) == 0)
            return true;
    }
    return false;
}

/* 90: a page holding them is a xiangqi database page whatever else it holds */
static const reader_sniff_rule dhtmlxq_sniff[] = {{90, dhtmlxq_block}, {0, NULL}};

static void *dhtmlxq_open(FILE *in, const char *path)
{
    return dhtmlxq_reader_open(in, path);
}

static int dhtmlxq_next(void *r, rec_game *g, arena *a)
{
    return dhtmlxq_reader_next(r, g, a);
}

static const char *dhtmlxq_error(const void *r)
{
    return dhtmlxq_reader_error(r);
}

static void dhtmlxq_close(void *r)
{
    dhtmlxq_reader_close(r);
}

const reader_format reader_dhtmlxq = {
    .format = INPUT_DHTMLXQ, .name = "dhtmlxq", .sniff = dhtmlxq_sniff,
    .flags = READER_SQUARE_MOVES,
    .open = dhtmlxq_open, .next = dhtmlxq_next, .error = dhtmlxq_error,
    .close = dhtmlxq_close,
};
