/* reader_web.c: Markdown and HTML pages with PGN in their wrappers (and moves in their
 * prose) behind the reader interface. */
#include <config.h>

#include <stdlib.h>

#include "document/document.h"
#include "reader/reader.h"
#include "reader/reader_sniff.h"

/* A PGN wrapper: <pgn>, [pgn], ```pgn, <ct-pgn-viewer>, cbreplay, <puzzle>. */
static bool pgn_wrapper(const char *s, size_t n)
{
    return sniff_has_ci(s, n, "<pgn") || sniff_has_ci(s, n, "[pgn") ||
           sniff_has_ci(s, n, "```pgn") || sniff_has_ci(s, n, "<ct-pgn-viewer") ||
           sniff_has_ci(s, n, "cbreplay") || sniff_has_ci(s, n, "<puzzle");
}

static const reader_sniff_rule web_sniff[] = {{3, pgn_wrapper}, {0, NULL}};

static void *web_open(FILE *in, const char *path)
{
    doc_reader *r = doc_reader_open(in, path, DOC_WEB);
    if (r && getenv("ARBITER_TEX_TRACE"))
        doc_reader_trace(r, stderr);
    return r;
}

static int web_next(void *r, rec_game *g, arena *a)
{
    return doc_reader_next(r, g, a);
}

static const char *web_error(const void *r)
{
    return doc_reader_error(r);
}

static void web_close(void *r)
{
    doc_reader_close(r);
}

static void web_after_replay(const void *r, rec_game *g)
{
    doc_reader_name_places(r, g);
}

/* a page's name decides, unless it holds [DhtmlXQ] blocks (a xiangqi database page,
 * not PGN prose: that sniff's tier is higher) */
static const char *const web_suffixes[] = {".md", ".markdown", ".html", ".htm", NULL};
static const char *const web_aliases[] = {"md", "html", NULL};

const reader_format reader_web = {
    .format = INPUT_WEB, .name = "markdown", .aliases = web_aliases, .sniff = web_sniff,
    .suffixes = web_suffixes, .suffix_tier = 80, .flags = READER_TAGS_NAME_VARIANT,
    .open = web_open, .next = web_next, .error = web_error, .close = web_close,
    .after_replay = web_after_replay,
};
