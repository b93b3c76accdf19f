/* web_reader.c: PGN inside Markdown and HTML wrappers (see web_reader.h).
 *
 * The article is read whole and cut into blocks. A block's PGN text has exactly the
 * length of its body in the article (tags and entities are blanked, never removed),
 * so one segment maps it back and every column stays right. */
#include <config.h>

#include "i18n/i18n.h"
#include "web_reader.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/chess.h"
#include "doc_map.h"
#include "fixit/fixit.h"
#include "notation/chess_san.h"
#include "pgn_reader.h"

typedef enum { BLOCK_PGN, BLOCK_PUZZLE, BLOCK_PROSE, BLOCK_FEN } block_kind;

/* A position of the prose and its move counter. */
typedef struct ppos {
    chess_pos p;
    int full;
} ppos;

/* A move number or a move of a prose run. */
typedef struct pitem {
    uint64_t off;
    uint32_t len;
    char text[24];           /* as written into the PGN (figurines as letters) */
    bool number;
    int num;
    bool black;              /* a number written "12..." */
} pitem;

typedef struct pfind {
    const char *code;
    rec_severity sev;
    uint64_t off;
    char msg[400];
    /* a prose move repaired to go on (go_on_with_fix): as written, the position
     * before it, the candidates */
    struct prose_repair {
        char written[24];
        char fen[CHESS_FEN_BUFSIZE + 8];
        uint32_t len;
        fixit_result fr;
    } *repair;
} pfind;

typedef struct block {
    block_kind kind;
    /* BLOCK_PROSE: the run, and where it was placed; BLOCK_FEN: the diagram */
    pitem *items;
    size_t nitems;
    bool placed, initial;    /* placed at a position (the initial one: no FEN tag) */
    bool raw;                /* a code fence: its text is literal, no tags or entities */
    ppos anchor;
    pfind *finds;
    size_t nfinds;
    char *fen;
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
    ppos *gpos;              /* main-line positions of the article's games */
    size_t ngpos;
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
    memset(b, 0, sizeof *b);
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

static bool add_item(block *b, uint64_t off, size_t len, const char *text, bool number, int num,
                     bool black)
{
    pitem *v = realloc(b->items, (b->nitems + 1) * sizeof *v);
    if (!v)
        return false;
    b->items = v;
    pitem *it = &v[b->nitems++];
    it->off = off;
    it->len = (uint32_t)len;
    snprintf(it->text, sizeof it->text, "%s", text);
    it->number = number;
    it->num = num;
    it->black = black;
    return true;
}

/* A run of numbered moves at s, on one line: "1. e4 c5 2. c3", "**9... cxd4 10. Qxd4**".
 * Returns its end (s when there is none); the run is added as a block. */
static const char *prose_run(web_reader *r, const char *s, const char *end, bool *oom)
{
    const char *doc = r->m.doc, *p = s;
    block run;
    memset(&run, 0, sizeof run);
    run.kind = BLOCK_PROSE;
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
                run.nitems--;   /* a number with no move: not part of the run */
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
        free(run.items);
        return s;
    }
    block *v = realloc(r->blocks, (r->nblocks + 1) * sizeof *v);
    if (!v)
        goto fail;
    r->blocks = v;
    run.body = run.open;
    run.end = (uint64_t)(last - doc);
    snprintf(run.what, sizeof run.what, "prose");
    v[r->nblocks++] = run;
    return last;
fail:
    free(run.items);
    *oom = true;
    return end;
}

/* <fen>X</fen> or [fen]X[/fen]: a diagram block. */
static const char *fen_at(web_reader *r, const char *s, const char *end, bool *oom)
{
    bool html = starts_ci(s, end, "<fen>");
    if (!html && !starts_ci(s, end, "[fen]"))
        return s;
    const char *body = s + 5;
    const char *close = find_ci(body, end, html ? "</fen>" : "[/fen]");
    if (!close)
        return s;
    char *fen = malloc((size_t)(close - body) + 1);
    if (!fen || !add_block(r, BLOCK_FEN, s, body, close, html ? "<fen>" : "[fen]")) {
        free(fen);
        *oom = true;
        return end;
    }
    memcpy(fen, body, (size_t)(close - body));
    fen[close - body] = '\0';
    r->blocks[r->nblocks - 1].fen = fen;
    return close + 6;
}

/* Replay a run from t: moves that resolve (positions into out when given). */
static size_t replay_run(const block *b, const ppos *t0, ppos *out)
{
    ppos t = *t0;
    size_t k = 0;
    for (size_t i = 0; i < b->nitems; i++) {
        if (b->items[i].number)
            continue;
        san_result res;
        chess_san_parse(&t.p, b->items[i].text, &res);
        if (res.status != SAN_OK)
            break;
        chess_undo u;
        bool black = chess_pos_side(&t.p) == CHESS_BLACK;
        chess_make(&t.p, res.move, &u);
        if (black)
            t.full++;
        if (out)
            out[k] = t;
        k++;
    }
    return k;
}

static void add_pfind(block *b, const char *code, rec_severity sev, uint64_t off,
                      const char *msg)
{
    pfind *v = realloc(b->finds, (b->nfinds + 1) * sizeof *v);
    if (!v)
        return;
    b->finds = v;
    v[b->nfinds].repair = NULL;
    v[b->nfinds].code = code;
    v[b->nfinds].sev = sev;
    v[b->nfinds].off = off;
    snprintf(v[b->nfinds].msg, sizeof v[b->nfinds].msg, "%s", msg);
    b->nfinds++;
}

static void ppos_fen(const ppos *t, char *buf, size_t size)
{
    char fen[CHESS_FEN_BUFSIZE];
    chess_pos_to_fen(&t->p, fen, sizeof fen);
    char *sp = strrchr(fen, ' ');
    if (sp)
        *sp = '\0';
    snprintf(buf, size, "%s %d", fen, t->full);
}

/* Placement and side to move agree. */
static bool same_board(const char *a, const char *b)
{
    size_t la = strcspn(a, " "), lb = strcspn(b, " ");
    if (la != lb || memcmp(a, b, la) != 0)
        return false;
    return a[la] == ' ' && b[lb] == ' ' && a[la + 1] == b[lb + 1];
}

/* Each run starts at the newest position seen so far whose move number and side its
 * first number names, the first from which it replays whole (else the furthest);
 * diagrams are compared with the end of the run before them. */
static void put_body(web_reader *r, uint64_t from, uint64_t to);

/* The main-line positions of every PGN game of the article, for prose runs. */
static bool game_positions(web_reader *r)
{
    size_t cap = 0;
    for (size_t k = 0; k < r->nblocks; k++) {
        const block *b = &r->blocks[k];
        if (b->kind != BLOCK_PGN)
            continue;
        doc_map_reset(&r->m);
        if (b->raw)
            doc_map_put_mapped(&r->m, r->m.doc + b->body, (size_t)(b->end - b->body), b->body,
                               (uint32_t)(b->end - b->body));
        else
            put_body(r, b->body, b->end);
        if (r->m.oom || r->m.pgn_len == 0)
            continue;
        FILE *mem = fmemopen(r->m.pgn, r->m.pgn_len, "r");
        pgn_reader *p = mem ? pgn_reader_open(mem, r->name) : NULL;
        arena a;
        arena_init(&a);
        rec_game g;
        while (p && pgn_reader_next(p, &g, &a) == 1) {
            ppos t;
            const char *fen = rec_game_tag(&g, "FEN");
            char err[160];
            if (!fen || !chess_pos_from_fen(&t.p, fen, err, sizeof err))
                chess_pos_start(&t.p);
            t.full = 1;
            const char *sp = fen ? strrchr(fen, ' ') : NULL;
            if (sp && atoi(sp + 1) > 0)
                t.full = atoi(sp + 1);
            for (const rec_node *n = g.main.first; n; n = n->next) {
                san_result res;
                chess_san_parse(&t.p, n->text, &res);
                if (res.status != SAN_OK)
                    break;
                chess_undo u;
                bool black = chess_pos_side(&t.p) == CHESS_BLACK;
                chess_make(&t.p, res.move, &u);
                t.full += black;
                if (r->ngpos == cap) {
                    cap = cap ? cap * 2 : 256;
                    ppos *v = realloc(r->gpos, cap * sizeof *v);
                    if (!v)
                        break;
                    r->gpos = v;
                }
                r->gpos[r->ngpos++] = t;
            }
            arena_reset(&a);
        }
        arena_free(&a);
        if (p)
            pgn_reader_close(p);
        if (mem)
            fclose(mem);
    }
    return true;
}

/* Move k of run b (0-based among its moves) does not replay from the anchor. When
 * exactly one candidate makes the rest of the run replay (the fix `arbiter fix`
 * applies), the run goes on with it and the finding says so. */
static bool go_on_with_fix(block *b, size_t k)
{
    ppos t = b->anchor;
    pitem *bad = NULL;
    size_t seen = 0, at = 0;
    for (; at < b->nitems; at++) {
        pitem *it = &b->items[at];
        if (it->number)
            continue;
        if (seen++ == k) {
            bad = it;
            break;
        }
        san_result res;
        chess_san_parse(&t.p, it->text, &res);
        chess_undo u;
        bool black = chess_pos_side(&t.p) == CHESS_BLACK;
        chess_make(&t.p, res.move, &u);
        t.full += black;
    }
    if (!bad || chess_is_checkmate(&t.p) || chess_is_stalemate(&t.p))
        return false;
    san_result res;
    chess_san_parse(&t.p, bad->text, &res);
    if (res.status == SAN_OK || res.status == SAN_NULL)
        return false;
    const char *rest[64];
    int nrest = 0;
    for (size_t q = at + 1; q < b->nitems && nrest < 64; q++)
        if (!b->items[q].number)
            rest[nrest++] = b->items[q].text;
    if (nrest == 0)
        return false;   /* the run's last move: nothing to go on with */
    fixit_result fr;
    fixit_chess(&t.p, bad->text, rest, nrest, &fr);
    if (fr.count == 0 || !fr.certain || fr.cand[0].kind != FIXIT_REPLACE ||
        strlen(fr.cand[0].text) >= sizeof bad->text)
        return false;
    struct prose_repair *rep = calloc(1, sizeof *rep);
    if (!rep)
        return false;
    char msg[400];
    const char *side = chess_pos_side(&t.p) == CHESS_WHITE ? _("White") : _("Black");
    if (res.status == SAN_AMBIGUOUS)
        snprintf(msg, sizeof msg, _("%s %s is ambiguous: two pieces can make it; the line goes "
                 "on with %s, the one move that lets the rest replay"), side, bad->text,
                 fr.cand[0].text);
    else
        snprintf(msg, sizeof msg, _("%s %s is illegal: %s; the line goes on with %s, the one "
                 "move that lets the rest replay"), side, bad->text, res.reason,
                 fr.cand[0].text);
    add_pfind(b, res.status == SAN_AMBIGUOUS ? "ambiguous-move" : "illegal-move", REC_ERROR,
              bad->off, msg);
    if (b->nfinds == 0 || b->finds[b->nfinds - 1].off != bad->off) {
        free(rep);
        return false;
    }
    snprintf(rep->written, sizeof rep->written, "%s", bad->text);
    ppos_fen(&t, rep->fen, sizeof rep->fen);
    rep->len = bad->len;
    rep->fr = fr;
    if (strlen(bad->text) != bad->len)
        rep->fr.certain = rep->fr.full = false;   /* a figurine: no byte-exact edit */
    b->finds[b->nfinds - 1].repair = rep;
    memcpy(bad->text, fr.cand[0].text, strlen(fr.cand[0].text) + 1);
    return true;
}

static bool place_prose(web_reader *r)
{
    if (!game_positions(r))
        return false;
    size_t nh = 1, cap = 64;
    ppos *hist = malloc(cap * sizeof *hist);
    if (!hist)
        return false;
    chess_pos_start(&hist[0].p);
    hist[0].full = 1;
    block *last = NULL;
    char last_fen[CHESS_FEN_BUFSIZE + 8] = "";
    for (size_t k = 0; k < r->nblocks; k++) {
        block *b = &r->blocks[k];
        if (b->kind == BLOCK_FEN) {
            while (*b->fen == ' ' || *b->fen == '\n')
                memmove(b->fen, b->fen + 1, strlen(b->fen));
            if (last && last_fen[0] && !same_board(b->fen, last_fen)) {
                char msg[240];
                snprintf(msg, sizeof msg, _("the diagram shows %.90s but the moves before it give %.90s"),
                         b->fen, last_fen);
                add_pfind(last, "diagram-mismatch", REC_WARNING, b->open, msg);
            }
            continue;
        }
        if (b->kind != BLOCK_PROSE)
            continue;
        last = b;
        last_fen[0] = '\0';
        size_t moves = 0;
        for (size_t i = 0; i < b->nitems; i++)
            moves += !b->items[i].number;
        const pitem *first = b->items[0].number ? &b->items[0] : NULL;
        /* the prose so far newest first, then the main lines of the article's games
         * (a line is often given before its game) */
        const ppos *best = NULL;
        size_t best_done = 0;
        for (size_t h = nh + r->ngpos; h-- > 0;) {
            const ppos *at = h >= r->ngpos ? &hist[h - r->ngpos] : &r->gpos[r->ngpos - 1 - h];
            bool black = chess_pos_side(&at->p) == CHESS_BLACK;
            if (first && (first->num != at->full || first->black != black))
                continue;
            size_t done = replay_run(b, at, NULL);
            if (done > best_done || (done == moves && best_done < moves)) {
                best = at;
                best_done = done;
            }
            if (done == moves)
                break;
        }
        if (!best) {
            add_pfind(b, "prose-unplaced", REC_INFO, b->open,
                      _("no position of the article (its prose so far, its games) has this "
                      "move number and side and lets its first move be played (a plan, or a "
                      "mistake in the first move)"));
            trace_at(r, b->open, "prose", "unplaced");
            continue;
        }
        b->placed = true;
        b->anchor = *best;
        b->initial = best == &hist[0];
        if (nh + moves > cap) {
            while (nh + moves > cap)
                cap *= 2;
            ppos *v = realloc(hist, cap * sizeof *v);
            if (!v) {
                free(hist);
                return false;
            }
            hist = v;
        }
        size_t done = replay_run(b, &b->anchor, hist + nh);
        while (done < moves && go_on_with_fix(b, done))
            done = replay_run(b, &b->anchor, hist + nh);
        nh += done;
        if (done == moves)
            ppos_fen(&hist[nh - 1], last_fen, sizeof last_fen);
        trace_at(r, b->open, "prose", done == moves ? "placed" : "placed-error");
    }
    free(hist);
    return true;
}

static bool find_blocks(web_reader *r)
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
            if (pgn && !add_block(r, BLOCK_PGN, s, body, close, what))
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
    return !oom && place_prose(r);
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

/* A prose run as a PGN game from where it was placed (nothing when it was not). */
static void put_prose(web_reader *r, const block *b)
{
    doc_map_put_mapped(&r->m, "", 0, b->open, 1);
    if (b->placed && !b->initial) {
        char fen[CHESS_FEN_BUFSIZE + 8];
        ppos_fen(&b->anchor, fen, sizeof fen);
        doc_map_puts(&r->m, "[SetUp \"1\"]\n[FEN \"");
        doc_map_puts(&r->m, fen);
        doc_map_puts(&r->m, "\"]\n");
    }
    doc_map_puts(&r->m, "\n");
    if (b->placed)
        for (size_t i = 0; i < b->nitems; i++) {
            doc_map_put(&r->m, " ", 1);
            doc_map_put_mapped(&r->m, b->items[i].text, strlen(b->items[i].text), b->items[i].off,
                               b->items[i].len);
        }
    doc_map_puts(&r->m, " *\n");
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
    if (r->cur && r->cur->kind != BLOCK_PROSE) {
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
            snprintf(r->error, sizeof r->error, _("out of memory"));
            return -1;
        }
    }
    for (;;) {
        if (r->pgn) {
            int got = pgn_reader_next(r->pgn, g, a);
            if (got == 1) {
                doc_map_remap(&r->m, g);
                if (r->cur->kind == BLOCK_PUZZLE || r->cur->kind == BLOCK_PROSE)
                    g->result = NULL;   /* "*" was only there for the PGN reader */
                for (size_t k = 0; k < r->cur->nfinds; k++) {
                    const pfind *f = &r->cur->finds[k];
                    rec_finding *x = rec_game_add_finding(
                        g, f->code, f->sev, doc_map_span(&r->m, f->off), "%s", f->msg);
                    if (x && f->repair) {
                        x->move_text = arena_strdup(g->arena, f->repair->written);
                        x->fen = arena_strdup(g->arena, f->repair->fen);
                        fixit_attach(g, x, &f->repair->fr, NULL, f->repair->len);
                    }
                }
                g->index = ++r->index;
                r->games_in_block++;
                return 1;
            }
            end_block(r);
            if (got < 0) {
                snprintf(r->error, sizeof r->error, _("could not read a block back"));
                return -1;
            }
        }
        if (r->next_block >= r->nblocks)
            return 0;
        const block *b = &r->blocks[r->next_block++];
        doc_map_reset(&r->m);
        if (b->kind == BLOCK_FEN)
            continue;
        if (b->kind == BLOCK_PROSE) {
            put_prose(r, b);
        } else if (b->kind == BLOCK_PUZZLE) {
            if (!put_puzzle(r, b))
                continue;
        } else if (b->raw)
            doc_map_put_mapped(&r->m, r->m.doc + b->body, (size_t)(b->end - b->body), b->body,
                               (uint32_t)(b->end - b->body));
        else
            put_body(r, b->body, b->end);
        if (r->m.oom) {
            snprintf(r->error, sizeof r->error, _("out of memory"));
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
            snprintf(r->error, sizeof r->error, _("out of memory"));
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
            snprintf(m, n, _("%s (in %s)"), f->message, r->cur->what);
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
    for (size_t k = 0; k < r->nblocks; k++) {
        free(r->blocks[k].items);
        for (size_t f = 0; f < r->blocks[k].nfinds; f++)
            free(r->blocks[k].finds[f].repair);
        free(r->blocks[k].finds);
        free(r->blocks[k].fen);
    }
    free(r->blocks);
    free(r->gpos);
    doc_map_free(&r->m);
    free(r);
}
