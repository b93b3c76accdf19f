/* web_reader.c: the syntax of Markdown and HTML articles with chess (see
 * web_reader.h). A block's PGN text has exactly the length of its body in the article
 * (tags and entities are blanked, never removed), so one segment maps it back and
 * every column stays right. */
#include <config.h>

#include "web_reader.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

static bool add_block(web_doc *r, web_block_kind kind, const char *open, const char *body,
                      const char *end, const char *what)
{
    web_block *v = realloc(r->blocks, (r->nblocks + 1) * sizeof *v);
    if (!v)
        return false;
    r->blocks = v;
    web_block *b = &v[r->nblocks++];
    memset(b, 0, sizeof *b);
    b->kind = kind;
    b->open = (uint64_t)(open - r->m.doc);
    b->body = (uint64_t)(body - r->m.doc);
    b->end = (uint64_t)(end - r->m.doc);
    snprintf(b->what, sizeof b->what, "%s", what);
    return true;
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

/* ------------------------------------------------------------------ prose */

/* A figurine at u (U+2654..U+265F, either colour): its letter, or 0. */
static char figurine(const unsigned char *u, const unsigned char *e)
{
    if (e - u >= 3 && u[0] == 0xE2 && u[1] == 0x99 && u[2] >= 0x94 && u[2] <= 0x9F)
        return "KQRBNPKQRBNP"[u[2] - 0x94];
    return 0;
}

static bool is_file(int c) { return c >= 'a' && c <= 'h'; }
static bool is_rank(int c) { return c >= '1' && c <= '8'; }

/* A SAN move at s (figurines for pieces, 0-0 for castling): its length, the PGN text
 * in out; 0 when there is none. */
static size_t san_at(const char *s, const char *end, char *out)
{
    const unsigned char *u = (const unsigned char *)s, *e = (const unsigned char *)end;
    size_t n = (size_t)(e - u), i = 0, o = 0;
    if (n >= 5 && (memcmp(u, "O-O-O", 5) == 0 || memcmp(u, "0-0-0", 5) == 0)) {
        memcpy(out, "O-O-O", 5);
        i = o = 5;
    } else if (n >= 3 && (memcmp(u, "O-O", 3) == 0 || memcmp(u, "0-0", 3) == 0)) {
        memcpy(out, "O-O", 3);
        i = o = 3;
    } else {
        char f = figurine(u, e);
        if (f) {
            if (f != 'P')
                out[o++] = f;
            i = 3;
        } else if (n > 0 && strchr("KQRBN", u[0])) {
            out[o++] = (char)u[0];
            i = 1;
        }
        while (i < n && o < 10 && (is_file(u[i]) || is_rank(u[i]) || u[i] == 'x'))
            out[o++] = (char)u[i++];
        if (o < 2 || !is_file(out[o - 2]) || !is_rank(out[o - 1]))
            return 0;
        if (i + 1 < n && u[i] == '=' && strchr("QRBN", u[i + 1])) {
            out[o++] = '=';
            out[o++] = (char)u[i + 1];
            i += 2;
        }
    }
    while (i < n && o < 20 && (u[i] == '+' || u[i] == '#' || u[i] == '!' || u[i] == '?'))
        out[o++] = (char)u[i++];
    if (i < n && (isalnum(u[i]) || u[i] == '-'))
        return 0;   /* part of a longer word */
    out[o] = '\0';
    return i;
}

/* A move number at s ("12." "12..." "12\." "12…"): its length, 0 when none. */
static size_t number_at(const char *s, const char *end, int *num, bool *black)
{
    size_t i = 0, n = (size_t)(end - s);
    while (i < n && i < 3 && isdigit((unsigned char)s[i]))
        i++;
    if (i == 0 || (i < n && isdigit((unsigned char)s[i])))
        return 0;
    *num = atoi(s);
    if (i < n && s[i] == '\\')
        i++;
    *black = false;
    if (i + 3 <= n && memcmp(s + i, "...", 3) == 0) {
        *black = true;
        return i + 3;
    }
    if (i + 3 <= n && memcmp(s + i, "\xE2\x80\xA6", 3) == 0) {
        *black = true;
        return i + 3;
    }
    if (i < n && s[i] == '.') {
        i++;
        size_t k = i;
        while (k < n && s[k] == ' ')
            k++;
        if (k + 3 <= n && memcmp(s + k, "...", 3) == 0) {   /* "12. ..." */
            *black = true;
            return k + 3;
        }
        return i;
    }
    return 0;
}

static bool add_item(web_block *b, uint64_t off, size_t len, const char *text, bool number, int num,
                     bool black)
{
    move_item it = {number ? MOVE_ITEM_NUM : MOVE_ITEM_MOVE, off, (uint32_t)len, strdup(text),
                    (uint32_t)num, black};
    return it.text && move_run_push(&b->run, &it);
}

/* A run of numbered moves at s, on one line: "1. e4 c5 2. c3", "**9... cxd4 10. Qxd4**".
 * Returns its end (s when there is none); the run is added as a block. */
static const char *prose_run(web_doc *r, const char *s, const char *end, bool *oom)
{
    const char *doc = r->m.doc, *p = s;
    web_block run;
    memset(&run, 0, sizeof run);
    run.kind = WEB_PROSE;
    run.open = (uint64_t)(s - doc);
    const char *last = s;
    size_t moves = 0;
    for (;;) {
        int num;
        bool black;
        size_t nl = number_at(p, end, &num, &black);
        if (nl == 0 && moves == 0)
            break;
        const char *q = p;
        if (nl > 0) {
            char t[16];
            snprintf(t, sizeof t, "%d%s", num, black ? "..." : ".");
            if (!add_item(&run, (uint64_t)(p - doc), nl, t, true, num, black))
                goto fail;
            q = p + nl;
        }
        size_t got = 0;
        for (int k = 0; k < (nl > 0 && black ? 1 : 2) || (nl == 0 && k < 1); k++) {
            while (q < end && (*q == ' ' || *q == '*' || *q == '_'))
                q++;
            char text[24];
            size_t ml = san_at(q, end, text);
            if (ml == 0)
                break;
            if (!add_item(&run, (uint64_t)(q - doc), ml, text, false, 0, false))
                goto fail;
            q += ml;
            last = q;
            got++;
        }
        if (got == 0) {
            if (nl > 0)
                move_run_truncate(&run.run, run.run.n - 1);   /* a number with no move */
            break;
        }
        moves += got;
        p = q;
        while (p < end && (*p == ' ' || *p == '*' || *p == '_' || *p == ','))
            p++;
        if (nl == 0 && got == 1)
            break;
    }
    if (moves == 0) {
        move_run_free(&run.run);
        return s;
    }
    web_block *v = realloc(r->blocks, (r->nblocks + 1) * sizeof *v);
    if (!v)
        goto fail;
    r->blocks = v;
    run.body = run.open;
    run.end = (uint64_t)(last - doc);
    snprintf(run.what, sizeof run.what, "prose");
    v[r->nblocks++] = run;
    return last;
fail:
    move_run_free(&run.run);
    *oom = true;
    return end;
}

/* <fen>X</fen> or [fen]X[/fen]: a diagram block. */
static const char *fen_at(web_doc *r, const char *s, const char *end, bool *oom)
{
    bool html = starts_ci(s, end, "<fen>");
    if (!html && !starts_ci(s, end, "[fen]"))
        return s;
    const char *body = s + 5;
    const char *close = find_ci(body, end, html ? "</fen>" : "[/fen]");
    if (!close)
        return s;
    char *fen = malloc((size_t)(close - body) + 1);
    if (!fen || !add_block(r, WEB_FEN, s, body, close, html ? "<fen>" : "[fen]")) {
        free(fen);
        *oom = true;
        return end;
    }
    /* leading blanks off: the diagram is its FEN */
    const char *f = body;
    while (f < close && (*f == ' ' || *f == '\n'))
        f++;
    memcpy(fen, f, (size_t)(close - f));
    fen[close - f] = '\0';
    r->blocks[r->nblocks - 1].fen = fen;
    return close + 6;
}

/* Replay a run from t: moves that resolve (positions into out when given). */
bool web_doc_find_blocks(web_doc *r)
{
    const char *doc = r->m.doc, *end = doc + r->m.len;
    const char *s = doc;
    bool oom = false;
    if (starts_ci(s, end, "---\n")) {
        /* Jekyll front matter: settings, not text */
        const char *fm = find_ci(s + 4, end, "\n---");
        if (fm)
            s = fm + 4;
    }
    while (s < end && !oom) {
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
            if (pgn && !add_block(r, WEB_PGN, s, body, close, what))
                return false;
            if (pgn)
                r->blocks[r->nblocks - 1].raw = true;
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
            const char *rb = name ? memchr(s, ']', (size_t)(end - s)) : NULL;
            if (rb) {
                char closer[16];
                snprintf(closer, sizeof closer, "[/%s]", name);
                const char *body = rb + 1;
                const char *close = find_ci(body, end, closer);
                const char *stop = close ? close : end;
                char what[40];
                snprintf(what, sizeof what, "[%s]", name);
                if (!add_block(r, remote(s, rb) ? WEB_REMOTE : WEB_PGN, s, body, stop, what))
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
                web_block_kind kind = remote(s, gt) ? WEB_REMOTE : puzzle ? WEB_PUZZLE : WEB_PGN;
                if (!add_block(r, kind, s, body, stop, what))
                    return false;
                s = close ? close + strlen(closer) : end;
                continue;
            }
        }
        if (*s == '<' || *s == '[') {
            const char *after = fen_at(r, s, end, &oom);
            if (after != s) {
                s = after;
                continue;
            }
        }
        if (isdigit((unsigned char)*s) && (s == doc || (!isalnum((unsigned char)s[-1]) &&
                                                       s[-1] != '.' && s[-1] != ':' &&
                                                       s[-1] != '/' && s[-1] != '-'))) {
            const char *eol = memchr(s, '\n', (size_t)(end - s));
            const char *after = prose_run(r, s, eol ? eol : end, &oom);
            if (after != s) {
                s = after;
                continue;
            }
            while (s < end && isdigit((unsigned char)*s))
                s++;
            continue;
        }
        s++;
    }
    return !oom;
}

/* The body as PGN text: tags blanked (same length), each entity one character mapped
 * to the entity's bytes. */
void web_put_body(web_doc *r, uint64_t from, uint64_t to)
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
web_puzzle web_put_puzzle(web_doc *r, const web_block *b)
{
    const char *s = r->m.doc + b->body, *end = r->m.doc + b->end;
    const char *fen = find_ci(s, end, "FEN:");
    const char *moves = find_ci(s, end, "Moves:");
    if (!moves)
        return find_ci(s, end, "PGN:") ? WEB_PUZZLE_REMOTE : WEB_PUZZLE_EMPTY;
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
    web_put_body(r, (uint64_t)(moves - r->m.doc), (uint64_t)(me - r->m.doc));
    doc_map_puts(&r->m, " *\n");
    return WEB_PUZZLE_OK;
}

/* A prose run as a PGN game from where it was placed (nothing when it was not). */

void web_doc_free(web_doc *d)
{
    for (size_t k = 0; k < d->nblocks; k++) {
        move_run_free(&d->blocks[k].run);
        free(d->blocks[k].fen);
    }
    free(d->blocks);
    doc_map_free(&d->m);
}
