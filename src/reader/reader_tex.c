/* reader_tex.c: LaTeX documents with skak/xskak (and chinesechess) behind the reader
 * interface. */
#include <config.h>

#include <stdlib.h>

#include "document/document.h"
#include "reader/reader.h"
#include "reader/reader_sniff.h"

/* A skak/xskak move command, or \documentclass first with skak loaded. */
static bool skak_commands(const char *s, size_t n)
{
    size_t i = sniff_text_start(s, n);
    return sniff_has(s, n, "\\mainline{") || sniff_has(s, n, "\\newchessgame") ||
           sniff_has(s, n, "\\newgame") ||
           (sniff_has(s + i, n - i < 16 ? n - i : 16, "\\documentclass") &&
            sniff_has(s, n, "skak"));
}

static const reader_sniff_rule tex_sniff[] = {{4, skak_commands}, {0, NULL}};

static void *tex_open(FILE *in, const char *path)
{
    doc_reader *r = doc_reader_open(in, path, DOC_LATEX);
    /* how each move command was taken, for the corpus accounting test */
    if (r && getenv("ARBITER_TEX_TRACE"))
        doc_reader_trace(r, stderr);
    return r;
}

static int tex_next(void *r, rec_game *g, arena *a)
{
    return doc_reader_next(r, g, a);
}

static const char *tex_error(const void *r)
{
    return doc_reader_error(r);
}

static void tex_close(void *r)
{
    doc_reader_close(r);
}

static void tex_after_replay(const void *r, rec_game *g)
{
    doc_reader_name_places(r, g);
}

/* a LaTeX book is told by its name first: a chapter may open with anything */
static const char *const tex_suffixes[] = {".tex", NULL};
static const char *const tex_aliases[] = {"latex", NULL};

const reader_format reader_tex = {
    .format = INPUT_TEX, .name = "tex", .aliases = tex_aliases, .sniff = tex_sniff,
    .suffixes = tex_suffixes, .suffix_tier = 100,
    .open = tex_open, .next = tex_next, .error = tex_error, .close = tex_close,
    .after_replay = tex_after_replay,
};
