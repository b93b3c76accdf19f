/* web_reader.c: PGN inside Markdown and HTML wrappers (see web_reader.h).
 *
 * The article is read whole and cut into blocks. A block's PGN text has exactly the
 * length of its body in the article (tags and entities are blanked, never removed),
 * so one segment maps it back and every column stays right. */
#include <config.h>

#include "web_reader.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "doc_map.h"
#include "pgn_reader.h"

typedef enum { BLOCK_PGN, BLOCK_PUZZLE } block_kind;

typedef struct block {
    block_kind kind;
    uint64_t open;           /* the wrapper's first byte */
    uint64_t body, end;      /* its content */
    char what[40];           /* the wrapper as named in traces: "<pgn>", "[pgn]", "```pgn" */
} block;

struct web_reader {
    FILE *in;
    const char *name;
    FILE *trace;
    doc_map m;
    bool loaded;
    block *blocks;
    size_t nblocks, next_block;
    FILE *mem;               /* the current block's PGN text */
    pgn_reader *pgn;
    const block *cur;
    unsigned long games_in_block;
    uint64_t index;
    char error[256];
};

static bool starts_ci(const char *s, const char *end, const char *word)
{
    size_t n = strlen(word);
    return (size_t)(end - s) >= n && strncasecmp(s, word, n) == 0;
}

/* Find needle (case-insensitive) in [s, end). */
static const char *find_ci(const char *s, const char *end, const char *needle)
{
    size_t n = strlen(needle);
    for (; s + n <= end; s++)
        if (tolower((unsigned char)*s) == tolower((unsigned char)needle[0]) &&
            strncasecmp(s, needle, n) == 0)
            return s;
    return NULL;
}

static bool add_block(web_reader *r, block_kind kind, const char *open, const char *body,
                      const char *end, const char *what)
{
    block *v = realloc(r->blocks, (r->nblocks + 1) * sizeof *v);
    if (!v)
        return false;
    r->blocks = v;
    block *b = &v[r->nblocks++];
    b->kind = kind;
    b->open = (uint64_t)(open - r->m.doc);
    b->body = (uint64_t)(body - r->m.doc);
    b->end = (uint64_t)(end - r->m.doc);
    snprintf(b->what, sizeof b->what, "%s", what);
    return true;
}

static void trace_at(web_reader *r, uint64_t off, const char *what, const char *how)
{
    if (!r->trace)
        return;
    rec_span s = doc_map_span(&r->m, off);
    fprintf(r->trace, "%u:%u %s %s\n", s.line, s.column, what, how);
}

static bool remote(const char *attrs, const char *end)
{
    return find_ci(attrs, end, "src=") || find_ci(attrs, end, "data-url") ||
           find_ci(attrs, end, "has-url") || find_ci(attrs, end, "url=");
}

static const char *shortcodes[] = {"pgnv", "pgne", "pgnb", "pgnp", "lpgnv", "ctpgn", "copgn",
                                   "pgn", NULL};

/* A shortcode opener at s ("[pgn]" or "[pgn opts]"): its name, or NULL. */
static const char *shortcode_at(const char *s, const char *end)
{
    for (int k = 0; shortcodes[k]; k++) {
        size_t n = strlen(shortcodes[k]);
        if ((size_t)(end - s) > n + 1 && strncasecmp(s + 1, shortcodes[k], n) == 0 &&
            (s[n + 1] == ']' || s[n + 1] == ' '))
            return shortcodes[k];
    }
    return NULL;
}

/* An element opener at s that holds PGN: fills name (for the closer). */
static bool element_at(const char *s, const char *end, char *name, size_t size)
{
    const char *p = s + 1;
    const char *q = p;
    while (q < end && (isalnum((unsigned char)*q) || *q == '-'))
        q++;
    size_t n = (size_t)(q - p);
    if (n == 0 || n >= size)
        return false;
    memcpy(name, p, n);
    name[n] = '\0';
    const char *gt = memchr(q, '>', (size_t)(end - q));
    if (!gt)
        return false;
    if (strcasecmp(name, "pgn") == 0 || strncasecmp(name, "pgn-", 4) == 0 ||
        strcasecmp(name, "ct-pgn-viewer") == 0 || strncasecmp(name, "puzzle", 6) == 0)
        return true;
    if (strcasecmp(name, "div") == 0)
        return find_ci(q, gt, "cbreplay") != NULL;
    if (strcasecmp(name, "textarea") == 0)
        return find_ci(q, gt, "pgn") != NULL;
    return false;
}

static bool line_start(const char *doc, const char *s)
{
    return s == doc || s[-1] == '\n';
}

static bool find_blocks(web_reader *r)
{
    const char *doc = r->m.doc, *end = doc + r->m.len;
    const char *s = doc;
    while (s < end) {
        /* fences: ```pgn is a game, any other fence shows code */
        if (line_start(doc, s) && (starts_ci(s, end, "```") || starts_ci(s, end, "~~~"))) {
            char fence[4] = {s[0], s[0], s[0], 0};
            const char *info = s + 3;
            while (info < end && *info == s[0])
                info++;
            const char *eol = memchr(info, '\n', (size_t)(end - info));
            if (!eol)
                eol = end;
            const char *lang = info;
            while (lang < eol && *lang == ' ')
                lang++;
            const char *le = lang;
            while (le < eol && !isspace((unsigned char)*le) && *le != '{')
                le++;
            const char *body = eol < end ? eol + 1 : end;
            const char *close = body;
            for (;;) {
                const char *f = find_ci(close, end, fence);
                if (!f || line_start(doc, f)) {
                    close = f ? f : end;
                    break;
                }
                close = f + 3;
            }
            size_t ln = (size_t)(le - lang);
            bool pgn = (ln == 3 && strncasecmp(lang, "pgn", 3) == 0) ||
                       (ln == 9 && strncasecmp(lang, "chess-pgn", 9) == 0) ||
                       (ln == 14 && strncasecmp(lang, "chessboard-pgn", 14) == 0);
            char what[40];
            snprintf(what, sizeof what, "%.3s%.*s", s, (int)(ln > 30 ? 30 : ln), lang);
            if (pgn && !add_block(r, BLOCK_PGN, s, body, close, what))
                return false;
            const char *after = close < end ? memchr(close, '\n', (size_t)(end - close)) : NULL;
            s = after ? after + 1 : end;
            continue;
        }
        if (*s == '`') {
            /* inline code */
            const char *c = memchr(s + 1, '`', (size_t)(end - s - 1));
            const char *nl = memchr(s + 1, '\n', (size_t)(end - s - 1));
            if (c && (!nl || c < nl)) {
                s = c + 1;
                continue;
            }
        }
        if (*s == '[') {
            const char *name = shortcode_at(s, end);
            if (name) {
                const char *rb = memchr(s, ']', (size_t)(end - s));
                char closer[16];
                snprintf(closer, sizeof closer, "[/%s]", name);
                const char *body = rb + 1;
                const char *close = find_ci(body, end, closer);
                const char *stop = close ? close : end;
                char what[40];
                snprintf(what, sizeof what, "[%s]", name);
                if (remote(s, rb))
                    trace_at(r, (uint64_t)(s - doc), what, "remote");
                else if (!add_block(r, BLOCK_PGN, s, body, stop, what))
                    return false;
                s = close ? close + strlen(closer) : end;
                continue;
            }
        }
        if (*s == '<') {
            char name[40];
            if (element_at(s, end, name, sizeof name)) {
                const char *gt = memchr(s, '>', (size_t)(end - s));
                char closer[48];
                snprintf(closer, sizeof closer, "</%s>", name);
                const char *body = gt + 1;
                const char *close = find_ci(body, end, closer);
                const char *stop = close ? close : end;
                bool puzzle = strncasecmp(name, "puzzle", 6) == 0;
                char what[48];
                if (strcasecmp(name, "div") == 0)
                    snprintf(what, sizeof what, "<div class=\"cbreplay\">");
                else
                    snprintf(what, sizeof what, "<%s>", name);
                if (remote(s, gt))
                    trace_at(r, (uint64_t)(s - doc), what, "remote");
                else if (!add_block(r, puzzle ? BLOCK_PUZZLE : BLOCK_PGN, s, body, stop, what))
                    return false;
                s = close ? close + strlen(closer) : end;
                continue;
            }
        }
        s++;
    }
    return true;
}

/* The body as PGN text: tags blanked (same length), each entity one character mapped
 * to the entity's bytes. */
static void put_body(web_reader *r, uint64_t from, uint64_t to)
{
    static const struct { const char *ent; char c; } ents[] = {
        {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&#39;", '\''},
        {"&nbsp;", ' '}, {NULL, 0}};
    const char *t = r->m.doc;
    bool in_comment = false;   /* a PGN comment may hold '<' that is no tag */
    uint64_t run = from;       /* start of the bytes not yet written */
    for (uint64_t i = from; i < to; i++) {
        if (t[i] == '{')
            in_comment = true;
        else if (t[i] == '}')
            in_comment = false;
        if (t[i] == '<' && !in_comment && i + 1 < to &&
            (isalpha((unsigned char)t[i + 1]) || t[i + 1] == '/' || t[i + 1] == '!')) {
            const char *gt = memchr(t + i, '>', (size_t)(to - i));
            if (gt) {
                uint64_t e = (uint64_t)(gt - t) + 1;
                doc_map_put_mapped(&r->m, t + run, (size_t)(i - run), run, (uint32_t)(i - run));
                for (uint64_t k = i; k < e; k++)
                    doc_map_put(&r->m, t[k] == '\n' ? "\n" : " ", 1);
                run = e;
                i = e - 1;
                continue;
            }
        }
        if (t[i] == '(' && !in_comment && i + 5 <= to && memcmp(t + i, "([D])", 5) == 0) {
            /* JekyllChess's diagram marker, written as a variation: a comment */
            doc_map_put_mapped(&r->m, t + run, (size_t)(i - run), run, (uint32_t)(i - run));
            doc_map_put_mapped(&r->m, "{[D]}", 5, i, 5);
            run = i + 5;
            i = run - 1;
            continue;
        }
        if (t[i] != '&')
            continue;
        for (int k = 0; ents[k].ent; k++) {
            size_t el = strlen(ents[k].ent);
            if (i + el <= to && memcmp(t + i, ents[k].ent, el) == 0) {
                doc_map_put_mapped(&r->m, t + run, (size_t)(i - run), run, (uint32_t)(i - run));
                doc_map_put_mapped(&r->m, &ents[k].c, 1, i, (uint32_t)el);
                run = i + el;
                i = run - 1;
                break;
            }
        }
    }
    doc_map_put_mapped(&r->m, t + run, (size_t)(to - run), run, (uint32_t)(to - run));
}

/* A puzzle: "FEN: ..." and "Moves: ..." lines as a PGN game. */
static bool put_puzzle(web_reader *r, const block *b)
{
    const char *s = r->m.doc + b->body, *end = r->m.doc + b->end;
    const char *fen = find_ci(s, end, "FEN:");
    const char *moves = find_ci(s, end, "Moves:");
    if (!moves) {
        trace_at(r, b->open, b->what, find_ci(s, end, "PGN:") ? "remote" : "empty");
        return false;
    }
    doc_map_put_mapped(&r->m, "", 0, b->open, 1);
    if (fen) {
        fen += 4;
        while (*fen == ' ')
            fen++;
        const char *fe = fen;
        while (fe < end && *fe != '\n' && *fe != '\r')
            fe++;
        doc_map_puts(&r->m, "[SetUp \"1\"]\n[FEN \"");
        doc_map_put_mapped(&r->m, fen, (size_t)(fe - fen), (uint64_t)(fen - r->m.doc),
                           (uint32_t)(fe - fen));
        doc_map_puts(&r->m, "\"]\n\n");
    }
    moves += 6;
    const char *me = moves;
    while (me < end && *me != '\n')
        me++;
    put_body(r, (uint64_t)(moves - r->m.doc), (uint64_t)(me - r->m.doc));
    doc_map_puts(&r->m, " *\n");
    return true;
}

web_reader *web_reader_open(FILE *in, const char *name)
{
    web_reader *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->in = in;
    r->name = name;
    return r;
}

void web_reader_trace(web_reader *r, FILE *trace)
{
    r->trace = trace;
}

static void end_block(web_reader *r)
{
    if (r->pgn) {
        pgn_reader_close(r->pgn);
        r->pgn = NULL;
    }
    if (r->mem) {
        fclose(r->mem);
        r->mem = NULL;
    }
    if (r->cur) {
        char how[32];
        snprintf(how, sizeof how, "games %lu", r->games_in_block);
        trace_at(r, r->cur->open, r->cur->what, how);
    }
    r->cur = NULL;
}

int web_reader_next(web_reader *r, rec_game *g, arena *a)
{
    if (!r->loaded) {
        r->loaded = true;
        if (!doc_map_load(&r->m, r->in)) {
            snprintf(r->error, sizeof r->error, "%s", r->m.error);
            return -1;
        }
        if (!find_blocks(r)) {
            snprintf(r->error, sizeof r->error, "out of memory");
            return -1;
        }
    }
    for (;;) {
        if (r->pgn) {
            int got = pgn_reader_next(r->pgn, g, a);
            if (got == 1) {
                doc_map_remap(&r->m, g);
                if (r->cur->kind == BLOCK_PUZZLE)
                    g->result = NULL;   /* "*" was only there for the PGN reader */
                g->index = ++r->index;
                r->games_in_block++;
                return 1;
            }
            end_block(r);
            if (got < 0) {
                snprintf(r->error, sizeof r->error, "could not read a block back");
                return -1;
            }
        }
        if (r->next_block >= r->nblocks)
            return 0;
        const block *b = &r->blocks[r->next_block++];
        doc_map_reset(&r->m);
        if (b->kind == BLOCK_PUZZLE) {
            if (!put_puzzle(r, b))
                continue;
        } else
            put_body(r, b->body, b->end);
        if (r->m.oom) {
            snprintf(r->error, sizeof r->error, "out of memory");
            return -1;
        }
        size_t k = 0;
        while (k < r->m.pgn_len && isspace((unsigned char)r->m.pgn[k]))
            k++;
        if (k == r->m.pgn_len) {
            trace_at(r, b->open, b->what, "empty");
            continue;
        }
        r->cur = b;
        r->games_in_block = 0;
        r->mem = fmemopen(r->m.pgn, r->m.pgn_len, "r");
        r->pgn = r->mem ? pgn_reader_open(r->mem, r->name) : NULL;
        if (!r->pgn) {
            snprintf(r->error, sizeof r->error, "out of memory");
            return -1;
        }
    }
}

void web_reader_name_wrapper(const web_reader *r, rec_game *g)
{
    if (!r->cur)
        return;
    for (rec_finding *f = g->findings; f; f = f->next) {
        if (!f->message)
            continue;
        size_t n = strlen(f->message) + strlen(r->cur->what) + 8;
        char *m = arena_alloc_uninit(g->arena, n, 1);
        if (m) {
            snprintf(m, n, "%s (in %s)", f->message, r->cur->what);
            f->message = m;
        }
    }
}

const char *web_reader_error(const web_reader *r)
{
    return r->error;
}

void web_reader_close(web_reader *r)
{
    if (!r)
        return;
    r->trace = NULL;
    end_block(r);
    free(r->blocks);
    doc_map_free(&r->m);
    free(r);
}
