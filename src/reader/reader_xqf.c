/* reader_xqf.c: XQStudio's binary XQF files behind the reader interface. */
#include <config.h>

#include "io/xqf.h"
#include "reader/reader.h"

/* The signature and a binary version byte: decides alone. */
static bool signature(const char *s, size_t n)
{
    return xqf_sniff((const unsigned char *)s, n);
}

static const reader_sniff_rule xqf_rules[] = {{1, signature}, {0, NULL}};

static void *xqf_open(FILE *in, const char *path)
{
    return xqf_reader_open(in, path);
}

static int xqf_next(void *r, rec_game *g, arena *a)
{
    return xqf_reader_next(r, g, a);
}

static const char *xqf_error(const void *r)
{
    return xqf_reader_error(r);
}

static void xqf_close(void *r)
{
    xqf_reader_close(r);
}

static void xqf_decode_game(const unsigned char *data, size_t len, rec_game *g, arena *a)
{
    xqf_decode(data, len, g, a);
}

const reader_format reader_xqf = {
    .format = INPUT_XQF, .name = "xqf", .binary = true, .sniff = xqf_rules,
    .flags = READER_SQUARE_MOVES | READER_WHOLE_FILE,
    .open = xqf_open, .next = xqf_next, .error = xqf_error, .close = xqf_close,
    .decode = xqf_decode_game,
};
