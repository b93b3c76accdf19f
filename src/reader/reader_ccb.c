/* reader_ccb.c: CCBridge's binary formats behind the reader interface: CBR records,
 * CBL libraries (plain or compressed) and CBF files (io/ccb_reader.h), one reader for
 * the three. */
#include <config.h>

#include "io/ccb_reader.h"
#include "reader/reader.h"

/* Each kind's magic (ccb_sniff): decides alone, as a binary format. */
static bool is_cbr(const char *s, size_t n)
{
    return ccb_sniff((const unsigned char *)s, n) == CCB_CBR;
}

static bool is_cbl(const char *s, size_t n)
{
    return ccb_sniff((const unsigned char *)s, n) == CCB_CBL;
}

static bool is_cbf(const char *s, size_t n)
{
    return ccb_sniff((const unsigned char *)s, n) == CCB_CBF;
}

static void *cbr_open(FILE *in, const char *path)
{
    return ccb_reader_open(in, path, CCB_CBR);
}

static void *cbl_open(FILE *in, const char *path)
{
    return ccb_reader_open(in, path, CCB_CBL);
}

static void *cbf_open(FILE *in, const char *path)
{
    return ccb_reader_open(in, path, CCB_CBF);
}

static int ccb_next(void *r, rec_game *g, arena *a)
{
    return ccb_reader_next(r, g, a);
}

static const char *ccb_error(const void *r)
{
    return ccb_reader_error(r);
}

static void ccb_close(void *r)
{
    ccb_reader_close(r);
}

static const reader_sniff_rule cbr_rules[] = {{1, is_cbr}, {0, NULL}};
static const reader_sniff_rule cbl_rules[] = {{1, is_cbl}, {0, NULL}};
static const reader_sniff_rule cbf_rules[] = {{1, is_cbf}, {0, NULL}};

const reader_format reader_cbr = {
    .format = INPUT_CBR, .name = "cbr", .binary = true, .sniff = cbr_rules,
    .flags = READER_SQUARE_MOVES,
    .open = cbr_open, .next = ccb_next, .error = ccb_error, .close = ccb_close,
};

const reader_format reader_cbl = {
    .format = INPUT_CBL, .name = "cbl", .binary = true, .sniff = cbl_rules,
    .flags = READER_SQUARE_MOVES,
    .open = cbl_open, .next = ccb_next, .error = ccb_error, .close = ccb_close,
};

const reader_format reader_cbf = {
    .format = INPUT_CBF, .name = "cbf", .binary = true, .sniff = cbf_rules,
    .flags = READER_SQUARE_MOVES,
    .open = cbf_open, .next = ccb_next, .error = ccb_error, .close = ccb_close,
};
