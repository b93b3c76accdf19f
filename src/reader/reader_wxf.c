/* reader_wxf.c: WXF files, and articles holding WXF records in "[game]" blocks, behind
 * the reader interface (one reader, two ways in). */
#include <config.h>

#include <ctype.h>
#include <string.h>

#include "wxf_reader.h"
#include "reader/reader.h"
#include "reader/reader_sniff.h"

/* FORMAT on the first line. */
static bool format_first(const char *s, size_t n)
{
    size_t i = sniff_text_start(s, n);
    return n - i >= 6 && memcmp(s + i, "FORMAT", 6) == 0 &&
           (n - i == 6 || isspace((unsigned char)s[i + 6]));
}

/* A START{ block anywhere. */
static bool start_block(const char *s, size_t n)
{
    return sniff_has(s, n, "START{");
}

/* "[game]" in any case. */
static bool game_block(const char *s, size_t n)
{
    return sniff_has_ci(s, n, "[game]");
}

static const reader_sniff_rule wxf_sniff[] = {{8, format_first}, {5, start_block}, {0, NULL}};
static const reader_sniff_rule article_sniff[] = {{6, game_block}, {0, NULL}};

static void *wxf_open(FILE *in, const char *path)
{
    return wxf_reader_open(in, path, WXF_INPUT_WXF);
}

static ssize_t read_input(void *in, char *buf, size_t size)
{
    return input_read(in, buf, size);
}

static void *wxf_open_input(const input *in, const char *path)
{
    return wxf_reader_open_source(in->fp, read_input, (void *)in, path);
}

static void *article_reader_open(FILE *in, const char *path)
{
    return wxf_reader_open(in, path, WXF_INPUT_ARTICLE);
}

static int wxf_next(void *r, rec_game *g, arena *a)
{
    return wxf_reader_next(r, g, a);
}

static const char *wxf_error(const void *r)
{
    return wxf_reader_error(r);
}

static void wxf_close(void *r)
{
    wxf_reader_close(r);
}

const reader_format reader_wxf = {
    .format = INPUT_WXF, .name = "wxf", .sniff = wxf_sniff,
    .open = wxf_open, .open_input = wxf_open_input, .next = wxf_next, .error = wxf_error,
    .close = wxf_close,
};

const reader_format reader_article = {
    .format = INPUT_ARTICLE, .name = "article", .sniff = article_sniff,
    .open = article_reader_open, .next = wxf_next, .error = wxf_error, .close = wxf_close,
};
