/* reader_pgn.c: PGN (chess and xiangqi) behind the reader interface. */
#include <config.h>

#include "pgn_reader.h"
#include "reader/reader.h"
#include "reader/reader_sniff.h"

/* A tag pair first. */
static bool tag_first(const char *s, size_t n)
{
    size_t i = sniff_text_start(s, n);
    return sniff_pgn_tag_at(s + i, n - i);
}

/* A tag pair at the start of some line. */
static bool tag_at_line_start(const char *s, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if ((k == 0 || s[k - 1] == '\n') && sniff_pgn_tag_at(s + k, n - k))
            return true;
    return false;
}

/* Movetext first, starting "1.". */
static bool move_one_first(const char *s, size_t n)
{
    size_t i = sniff_text_start(s, n);
    return n - i >= 2 && s[i] == '1' && s[i + 1] == '.';
}

static const reader_sniff_rule pgn_sniff[] = {
    {7, tag_first}, {2, tag_at_line_start}, {1, move_one_first}, {0, NULL}};

static void *pgn_open(FILE *in, const char *path)
{
    return pgn_reader_open(in, path);
}

static ssize_t read_input(void *in, char *buf, size_t size)
{
    return input_read(in, buf, size);
}

static void *pgn_open_input(const input *in, const char *path)
{
    return pgn_reader_open_source(in->fp, read_input, (void *)in, path);
}

static void *pgn_open_buffer(char *text, size_t len, const char *path)
{
    return pgn_reader_open_buffer(text, len, path);
}

static int pgn_next(void *r, rec_game *g, arena *a)
{
    return pgn_reader_next(r, g, a);
}

static const char *pgn_error(const void *r)
{
    return pgn_reader_error(r);
}

static void pgn_close(void *r)
{
    pgn_reader_close(r);
}

static void pgn_set_start(void *r, uint64_t offset, uint32_t line, bool bom_seen)
{
    pgn_reader_set_start(r, offset, line, bom_seen);
}

static bool pgn_ended_cleanly(const void *r)
{
    return pgn_reader_ended_cleanly(r);
}

const reader_format reader_pgn = {
    .format = INPUT_PGN, .name = "pgn", .sniff = pgn_sniff,
    .flags = READER_TAGS_NAME_VARIANT | READER_PIECES,
    .open = pgn_open, .open_input = pgn_open_input, .next = pgn_next, .error = pgn_error,
    .close = pgn_close,
    .set_start = pgn_set_start, .ended_cleanly = pgn_ended_cleanly,
    .open_buffer = pgn_open_buffer,
};
