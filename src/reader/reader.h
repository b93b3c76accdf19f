/* reader.h: one interface over every input format's reader, and the registry of them.
 *
 * A format is a reader_format: its --from names, how it is told from a file's first
 * bytes or its name (its sniffer), and a small table of functions (open on a stream,
 * next game into a record, error, close). The batch engine (batch/) and the commands
 * only ever go through this table; they never name a format's reader.
 *
 * Sniffing: every format's sniffer is a list of tests on the first bytes of an input
 * (a byte-order mark already stripped), each with a tier that says how sure a match
 * is; a file name ending in one of a format's suffixes counts as a match of its
 * suffix_tier. The tests of all formats are tried from the highest tier down and the
 * first match decides (so a PGN file costs a test or two, not a pass of every
 * sniffer). A binary format's tests are tried first, on the raw bytes, and decide
 * alone (its input is then not transcoded). Nothing recognised: PGN, whose reader
 * reports what does not fit.
 *
 * The tiers, highest first: a DhtmlXQ block (90), a LaTeX file name (100) or a Markdown
 * or HTML one (80), then by content: FORMAT on the first line (WXF, 8), a tag pair on the
 * first line (PGN, 7), "[game]" (article, 6), "START{" (WXF, 5), a skak command (LaTeX,
 * 4), a PGN wrapper (Markdown/HTML, 3), a tag pair on any line (PGN, 2), "1." first
 * (PGN, 1). */
#ifndef ARBITER_READER_READER_H
#define ARBITER_READER_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "io/input.h"
#include "record/arena.h"
#include "record/record.h"

/* What the batch engine does with a format's games besides replaying them. */
enum {
    READER_TAGS_NAME_VARIANT = 1 << 0, /* PGN tags say chess or xiangqi; header checks */
    READER_SQUARE_MOVES = 1 << 1,      /* moves are UCCI texts made from squares */
    READER_PIECES = 1 << 2,            /* may be cut at game starts (set_start, ended_cleanly) */
    READER_WHOLE_FILE = 1 << 3         /* one game a file, decoded from its bytes (decode) */
};

/* One test of a format's sniffer and the tier a match gives. */
typedef struct reader_sniff_rule {
    int tier;
    bool (*test)(const char *bytes, size_t len);
} reader_sniff_rule;

typedef struct reader_format {
    input_format format;
    const char *name;             /* the --from name */
    const char *const *aliases;   /* more --from names, NULL-terminated, or NULL */
    bool binary;                  /* read as bytes, never transcoded */
    /* Tests on a prefix of the input, each with the tier it gives (see above), the
     * list ended by a NULL test. */
    const struct reader_sniff_rule *sniff;
    const char *const *suffixes;  /* file name endings (any case), NULL-terminated, or NULL */
    int suffix_tier;
    unsigned flags;               /* READER_* */

    void *(*open)(FILE *in, const char *path); /* NULL when out of memory */
    /* open for a reader that reads in big blocks: through input_read, straight into its
     * own buffer, never from in->fp (NULL: open(in->fp, path) is used). */
    void *(*open_input)(const input *in, const char *path);
    int (*next)(void *r, rec_game *g, arena *a); /* 1 a game, 0 the end, -1 an error */
    const char *(*error)(const void *r);
    void (*close)(void *r);
    /* After the game was replayed: name what the format wrote (NULL: nothing). */
    void (*after_replay)(const void *r, rec_game *g);

    /* READER_PIECES: a piece of the input starting at offset, line, with a byte-order
     * mark already seen or not; whether the piece ended between games. open_buffer
     * reads a piece in memory where it is (its len bytes and two more of room, which
     * it may write, as it may the text while it reads; NULL: out of memory). */
    void (*set_start)(void *r, uint64_t offset, uint32_t line, bool bom_seen);
    void *(*open_buffer)(char *text, size_t len, const char *path);
    bool (*ended_cleanly)(const void *r);
    /* READER_WHOLE_FILE: the game of a whole file held in memory. */
    void (*decode)(const unsigned char *data, size_t len, rec_game *g, arena *a);
} reader_format;

/* The format of that input_format value; the PGN reader for INPUT_UNKNOWN. */
const reader_format *reader_for(input_format f);

/* The format a --from name names, or NULL. */
const reader_format *reader_by_name(const char *name);

/* The format of an input from its first bytes and its name (NULL: no name). */
input_format reader_sniff(const char *bytes, size_t len, const char *path);

/* input_open with the registry's sniffers: forced is INPUT_UNKNOWN to sniff. */
bool reader_input_open(input *in, const char *path, input_format forced, char *err,
                       size_t errsize);

/* input_open_stream with the registry's sniffers (the input owns raw). */
bool reader_input_open_stream(input *in, FILE *raw, const char *name, input_format forced,
                              char *err, size_t errsize);

/* The registry itself, for listing: count formats, each in registry order. */
size_t reader_count(void);
const reader_format *reader_at(size_t i);

#endif
