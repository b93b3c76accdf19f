/* reader_registry.c: every input format, in one place. See reader.h.
 *
 * Adding a format: write src/reader/reader_NAME.c defining
 *     const reader_format reader_NAME = { .format = INPUT_NAME, .name = "name", ... };
 * (its sniffer and its open/next/error/close; reader_pgn.c is the model), give it an
 * input_format value (io/article.h), add one READER(reader_NAME) line to the list below
 * and the file to Makefile.am. The batch engine, --from and sniffing then know it. */
#include <config.h>

#include <string.h>
#include <strings.h>

#include "reader/reader.h"

/* Registry order breaks ties between equal tiers: among the binary formats, the
 * CCBridge kinds are asked before XQF (none of their magics overlap). */
#define READERS(READER) \
    READER(reader_pgn) \
    READER(reader_wxf) \
    READER(reader_article) \
    READER(reader_tex) \
    READER(reader_web) \
    READER(reader_dhtmlxq) \
    READER(reader_cbr) \
    READER(reader_cbl) \
    READER(reader_cbf) \
    READER(reader_xqf)

#define READER_EXTERN(r) extern const reader_format r;
READERS(READER_EXTERN)
#undef READER_EXTERN

#define READER_ENTRY(r) &r,
static const reader_format *const registry[] = {READERS(READER_ENTRY)};
#undef READER_ENTRY

#define REGISTRY_SIZE (sizeof registry / sizeof registry[0])

size_t reader_count(void)
{
    return REGISTRY_SIZE;
}

const reader_format *reader_at(size_t i)
{
    return i < REGISTRY_SIZE ? registry[i] : NULL;
}

const reader_format *reader_for(input_format f)
{
    for (size_t i = 0; i < REGISTRY_SIZE; i++)
        if (registry[i]->format == f)
            return registry[i];
    return registry[0]; /* PGN: its reader reports what does not fit */
}

const reader_format *reader_by_name(const char *name)
{
    for (size_t i = 0; i < REGISTRY_SIZE; i++) {
        const reader_format *r = registry[i];
        if (strcmp(r->name, name) == 0)
            return r;
        for (const char *const *a = r->aliases; a && *a; a++)
            if (strcmp(*a, name) == 0)
                return r;
    }
    return NULL;
}

static bool name_ends_with(const char *path, size_t len, const char *suffix)
{
    size_t k = strlen(suffix);
    return len > k && strcasecmp(path + len - k, suffix) == 0;
}

/* One way a format may be told: a test of its sniffer, or its file name. */
typedef struct candidate {
    int tier;
    const reader_format *format;
    bool (*test)(const char *bytes, size_t len); /* NULL: the name already matched */
} candidate;

enum { MAX_CANDIDATES = 64 };

/* The text formats' ways in, highest tier first (registry order among equals). */
static size_t text_candidates(candidate *c, const char *path)
{
    size_t n = 0, path_len = path ? strlen(path) : 0;
    for (size_t i = 0; i < REGISTRY_SIZE; i++) {
        const reader_format *r = registry[i];
        if (r->binary)
            continue;
        for (const reader_sniff_rule *t = r->sniff; t && t->test && n < MAX_CANDIDATES; t++)
            c[n++] = (candidate){t->tier, r, t->test};
        for (const char *const *x = r->suffixes; path && x && *x; x++)
            if (n < MAX_CANDIDATES && name_ends_with(path, path_len, *x)) {
                c[n++] = (candidate){r->suffix_tier, r, NULL};
                break;
            }
    }
    for (size_t i = 1; i < n; i++) /* insertion sort: stable, a dozen entries */
        for (size_t j = i; j > 0 && c[j - 1].tier < c[j].tier; j--) {
            candidate t = c[j];
            c[j] = c[j - 1];
            c[j - 1] = t;
        }
    return n;
}

input_format reader_sniff(const char *bytes, size_t len, const char *path)
{
    for (size_t i = 0; i < REGISTRY_SIZE; i++)
        for (const reader_sniff_rule *t = registry[i]->binary ? registry[i]->sniff : NULL;
             t && t->test; t++)
            if (t->test(bytes, len))
                return registry[i]->format;
    /* the markers sniffed for ([Tag ", FORMAT, [game]) are ASCII in every encoding */
    if (len >= 3 && memcmp(bytes, "\xEF\xBB\xBF", 3) == 0) {
        bytes += 3;
        len -= 3;
    }
    candidate c[MAX_CANDIDATES];
    size_t n = text_candidates(c, path);
    for (size_t i = 0; i < n; i++)
        if (!c[i].test || c[i].test(bytes, len))
            return c[i].format->format;
    return INPUT_UNKNOWN;
}

/* io's detector: a forced format stands (binary as it is); else the registry sniffs. */
static input_format detect(const char *peek, size_t len, const char *path, input_format forced,
                           bool *binary)
{
    input_format f = forced;
    if (f == INPUT_UNKNOWN) {
        f = reader_sniff(peek, len, path);
        if (f == INPUT_UNKNOWN)
            f = INPUT_PGN; /* the readers report what does not fit */
    }
    *binary = reader_for(f)->binary;
    return f;
}

bool reader_input_open(input *in, const char *path, input_format forced, char *err,
                       size_t errsize)
{
    return input_open(in, path, forced, detect, err, errsize);
}

bool reader_input_open_stream(input *in, FILE *raw, const char *name, input_format forced,
                              char *err, size_t errsize)
{
    return input_open_stream(in, raw, name, forced, detect, err, errsize);
}
