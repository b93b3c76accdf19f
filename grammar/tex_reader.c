/* tex_reader.c: chess games inside LaTeX (see tex_reader.h).
 *
 * Two passes over one in-memory document. The first walks the scanner's tokens,
 * follows the commands and replays every sequence on the chess core as it goes (the
 * position a later \variation starts from depends on it). The second writes each game
 * as PGN text with a map from every piece of that text back to the document, lets the
 * PGN reader build the rec_game, and moves every place in it back onto the document. */
#include <config.h>

#include "i18n/i18n.h"
#include "tex_reader.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/chess.h"
#include "fixit/fixit.h"
#include "notation/chess_san.h"
#include "doc_map.h"
#include "pgn_reader.h"
#include "tex_internal.h"

/* ------------------------------------------------------------------ the model */

enum { IT_NUM, IT_MOVE, IT_NAG, IT_COMMENT };

typedef struct tex_item {
    int kind;
    uint64_t off;            /* where its text starts in the document */
    uint32_t len;            /* its length there */
    char *text;              /* as written into the PGN (letters translated) */
    uint32_t num;            /* IT_NUM: the number */
    bool dots3;              /* IT_NUM: "12..." */
} tex_item;

typedef struct tex_seq {
    tex_item *items;
    size_t n, cap;
} tex_seq;

/* A position and the move counter skak keeps with it. */
typedef struct tpos {
    chess_pos p;
    int full;
} tpos;

typedef struct tex_var {
    tex_seq seq;
    uint64_t cmd_off;
    int where;               /* >= 0: alternative to main-line ply where+1; -1: own game;
                              * -2: not placed */
    long main_ply;           /* the start is the main line after that many plies, or -1 */
    size_t tok;              /* the command's token */
    tpos start;
    tpos *pos;               /* positions after each replayed move */
    size_t npos;
    bool full;               /* every move replayed */
} tex_var;

typedef struct tex_finding {
    const char *code;
    rec_severity sev;
    uint64_t off;
    char msg[400];
    /* a move the reader repaired to go on (go_on_with_fix): what was written, the
     * position before it, its ply, and the candidates in the document's letters */
    struct tex_repair {
        char written[48];
        char fen[CHESS_FEN_BUFSIZE + 8];
        int ply;
        uint32_t len;
        fixit_result fr;
    } *repair;
} tex_finding;

typedef struct tex_tag {
    char name[16];
    char *value;
} tex_tag;

typedef struct tex_game {
    char *id;
    uint64_t cmd_off;
    tpos start;
    bool custom_start;       /* write SetUp/FEN */
    tex_tag *tags;
    size_t ntags;
    tex_seq main;
    size_t main_moves;       /* move items in main */
    tpos *pos;               /* pos[k]: after k plies; pos[0] = start */
    size_t npos, cappos;     /* npos - 1 plies replayed */
    bool broken;             /* the main line stopped at a move */
    tex_var *vars;
    size_t nvars;
    tex_finding *finds;
    size_t nfinds;
    char *result;
    char letters[7];         /* the input language of its last \mainline */
    uint64_t main_off;       /* where its last main-line command is */
    bool xiangqi;            /* a chinesechess setcchessman game: ICCS moves from xq_fen */
    char xq_fen[100];
    /* "%FEN@" diagrams waiting for the end of the game */
    struct { char *fen; uint64_t off; } *diagrams;
    size_t ndiagrams;
} tex_game;

typedef struct snapshot {
    char *name;
    tpos at;
} snapshot;

/* One game handed out: a main game, or a variation of it written as its own game. */
typedef struct output {
    size_t game;
    long var;                /* -1: the game itself */
} output;

/* A move command's argument in the document, to name it in findings. */
typedef struct tex_call {
    uint64_t from, to;
    size_t tok;
} tex_call;

struct tex_reader {
    tex_call *calls;         /* in document order */
    size_t ncalls, callcap;
    FILE *in;
    const char *name;
    char error[256];
    FILE *trace;
    bool loaded;
    doc_map m;               /* the document, and the PGN text of a game */
    const char *doc;         /* m.doc */
    tex_token_at *tok;
    size_t ntok;
    bool skak;               /* \usepackage{skak} without xskak: skak's variation rule */
    bool xq;                 /* a xiangqi package: \move is not chess.sty's */
    char code_macros[8][32]; /* macros the document defines to show code */
    size_t ncode;
    char letters[7];         /* K Q R B N P in the input language */
    struct { char name[32]; char letters[7]; } langs[16];
    size_t nlangs;
    tex_game *games;
    size_t ngames;
    long cur;                /* current game, -1 before any */
    snapshot *snaps;
    size_t nsnaps;
    output *outs;
    size_t nouts, next_out;
    bool oom;
};

static void *grow(void *p, size_t *cap, size_t need, size_t size, bool *oom)
{
    if (need <= *cap)
        return p;
    size_t c = *cap ? *cap : 8;
    while (c < need)
        c *= 2;
    void *q = realloc(p, c * size);
    if (!q) {
        *oom = true;
        return NULL;
    }
    *cap = c;
    return q;
}

static char *dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

static void add_finding(tex_reader *r, tex_game *g, const char *code, rec_severity sev,
                        uint64_t off, const char *fmt, ...)
{
    size_t cap = g->nfinds;   /* grown one at a time: findings are few */
    tex_finding *f = realloc(g->finds, (cap + 1) * sizeof *f);
    if (!f) {
        r->oom = true;
        return;
    }
    g->finds = f;
    tex_finding *x = &f[g->nfinds++];
    x->repair = NULL;
    x->code = code;
    x->sev = sev;
    x->off = off;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->msg, sizeof x->msg, fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------------------ positions */

static void tpos_start(tpos *t)
{
    chess_pos_start(&t->p);
    t->full = 1;
}

/* The FEN's own move number is kept: skak's \fenboard takes it (xskak's setfen does
 * not, the caller then sets it from moveid). */
static bool tpos_fen(tpos *t, const char *fen)
{
    char err[160];
    if (!chess_pos_from_fen(&t->p, fen, err, sizeof err))
        return false;
    t->full = 1;
    const char *sp = strrchr(fen, ' ');
    int fields = 0;
    for (const char *c = fen; *c; c++)
        if (*c == ' ' && c[1] && c[1] != ' ')
            fields++;
    if (fields >= 5 && sp && atoi(sp + 1) > 0)
        t->full = atoi(sp + 1);
    return true;
}

static void tpos_to_fen(const tpos *t, char *buf, size_t size)
{
    char fen[CHESS_FEN_BUFSIZE];
    chess_pos_to_fen(&t->p, fen, sizeof fen);
    /* the counter is skak's, not the core's */
    char *sp = strrchr(fen, ' ');
    if (sp)
        *sp = '\0';
    snprintf(buf, size, "%s %d", fen, t->full);
}

/* Placement and side to move of two FENs: a diagram says nothing more. */
static bool same_diagram(const char *a, const char *b)
{
    size_t i = 0;
    int spaces = 0;
    for (;; i++) {
        char x = a[i] == '\0' ? ' ' : a[i], y = b[i] == '\0' ? ' ' : b[i];
        if (x != y)
            return false;
        if (x == ' ' && ++spaces == 2)
            return true;
        if (a[i] == '\0' || b[i] == '\0')
            return a[i] == b[i] || spaces >= 1;
    }
}

/* Play one move text; false when it does not resolve. */
static bool play(tpos *t, const char *text)
{
    san_result res;
    chess_san_parse(&t->p, text, &res);
    if (res.status != SAN_OK)
        return false;
    chess_undo u;
    int side = chess_pos_side(&t->p);
    chess_make(&t->p, res.move, &u);
    if (side == CHESS_BLACK)
        t->full++;
    return true;
}

/* How many moves of seq replay from start (into pos[] when given), and whether the
 * written numbers agree. */
static size_t replay_seq(const tex_seq *s, const tpos *start, tpos *out, bool *numbers_ok)
{
    tpos t = *start;
    size_t k = 0;
    bool ok = true;
    for (size_t i = 0; i < s->n; i++) {
        const tex_item *it = &s->items[i];
        if (it->kind == IT_NUM) {
            bool black = chess_pos_side(&t.p) == CHESS_BLACK;
            if ((int)it->num != t.full || (it->dots3 && !black) ||
                (!it->dots3 && black && i + 1 < s->n && s->items[i + 1].kind == IT_MOVE &&
                 !(i > 0 && s->items[i - 1].kind == IT_MOVE)))
                ok = false;
        } else if (it->kind == IT_MOVE) {
            if (!play(&t, it->text))
                break;
            if (out)
                out[k] = t;
            k++;
        }
    }
    if (numbers_ok)
        *numbers_ok = ok;
    return k;
}

static size_t seq_moves(const tex_seq *s)
{
    size_t k = 0;
    for (size_t i = 0; i < s->n; i++)
        k += s->items[i].kind == IT_MOVE;
    return k;
}

/* ------------------------------------------------------------------ games */

static tex_game *cur_game(tex_reader *r)
{
    return r->cur >= 0 ? &r->games[r->cur] : NULL;
}

static tex_game *new_game(tex_reader *r, uint64_t off, const tpos *start, bool custom)
{
    tex_game *v = realloc(r->games, (r->ngames + 1) * sizeof *v);
    if (!v) {
        r->oom = true;
        return NULL;
    }
    r->games = v;
    tex_game *g = &v[r->ngames];
    memset(g, 0, sizeof *g);
    g->cmd_off = off;
    g->pos = malloc(16 * sizeof *g->pos);
    if (!g->pos) {
        r->oom = true;
        return NULL;
    }
    g->cappos = 16;
    if (start)
        g->start = *start;
    else
        tpos_start(&g->start);
    g->custom_start = custom;
    g->pos[0] = g->start;
    g->npos = 1;
    r->cur = (long)r->ngames++;
    return g;
}

static tex_game *game_for_moves(tex_reader *r, uint64_t off)
{
    tex_game *g = cur_game(r);
    return g ? g : new_game(r, off, NULL, false);
}

static void set_tag(tex_reader *r, tex_game *g, const char *name, const char *value, size_t n)
{
    tex_tag *t = realloc(g->tags, (g->ntags + 1) * sizeof *t);
    if (!t) {
        r->oom = true;
        return;
    }
    g->tags = t;
    snprintf(t[g->ntags].name, sizeof t[g->ntags].name, "%s", name);
    t[g->ntags].value = dup_n(value, n);
    g->ntags++;
}

static const tpos *game_end(const tex_game *g)
{
    return &g->pos[g->npos - 1];
}

/* ------------------------------------------------------------------ tokens */

static bool tok_is(const tex_reader *r, size_t i, const char *cmd)
{
    const tex_token_at *t = &r->tok[i];
    size_t n = strlen(cmd);
    return t->kind == TEX_TOK_CMD && t->len == n && memcmp(r->doc + t->off, cmd, n) == 0;
}

static size_t skip_space(const tex_reader *r, size_t i)
{
    while (i < r->ntok && (r->tok[i].kind == TEX_TOK_SPACE || r->tok[i].kind == TEX_TOK_COMMENT))
        i++;
    return i;
}

/* A group opened at token i ('{' or '['): *end gets the index of its closer (or of
 * the end). Braces nest inside brackets and brackets inside brackets. */
static size_t group_end(const tex_reader *r, size_t i)
{
    int open = r->tok[i].kind, close = open == TEX_TOK_LBRACE ? TEX_TOK_RBRACE : TEX_TOK_RBRACK;
    int depth = 0, braces = 0;
    for (size_t k = i; k < r->ntok; k++) {
        int kind = r->tok[k].kind;
        if (kind == TEX_TOK_END)
            return k;
        if (open == TEX_TOK_LBRACK && kind == TEX_TOK_LBRACE)
            braces++;
        else if (open == TEX_TOK_LBRACK && kind == TEX_TOK_RBRACE && braces > 0)
            braces--;
        else if (braces == 0 && kind == open)
            depth++;
        else if (braces == 0 && kind == close && --depth == 0)
            return k;
    }
    return r->ntok - 1;
}

/* Arguments after the command at i: an optional [..] (tokens ob..oe exclusive) and a
 * braced one (ab..ae exclusive) when wanted. Returns the index after them. */
typedef struct args {
    bool has_opt, has_arg;
    size_t ob, oe, ab, ae;
} args;

static size_t read_args(const tex_reader *r, size_t i, bool want_arg, args *a)
{
    memset(a, 0, sizeof *a);
    size_t k = skip_space(r, i + 1);
    if (k < r->ntok && r->tok[k].kind == TEX_TOK_LBRACK) {
        size_t e = group_end(r, k);
        a->has_opt = true;
        a->ob = k + 1;
        a->oe = e;
        i = e;
        k = skip_space(r, e + 1);
    }
    if (want_arg && k < r->ntok && r->tok[k].kind == TEX_TOK_LBRACE) {
        size_t e = group_end(r, k);
        a->has_arg = true;
        a->ab = k + 1;
        a->ae = e;
        return e + 1;
    }
    return i + 1;
}

/* Whether tokens b..e (exclusive) are the one word given. */
static bool group_text_is(const tex_reader *r, size_t b, size_t e, const char *word)
{
    size_t n = strlen(word);
    return e == b + 1 && r->tok[b].len == n && memcmp(r->doc + r->tok[b].off, word, n) == 0;
}

/* The document bytes of tokens b..e (exclusive), comments left out, into a string. */
static char *text_of(tex_reader *r, size_t b, size_t e)
{
    size_t n = 0;
    for (size_t k = b; k < e; k++)
        if (r->tok[k].kind != TEX_TOK_COMMENT)
            n += r->tok[k].len;
    char *s = malloc(n + 1);
    if (!s) {
        r->oom = true;
        return NULL;
    }
    n = 0;
    for (size_t k = b; k < e; k++)
        if (r->tok[k].kind != TEX_TOK_COMMENT) {
            memcpy(s + n, r->doc + r->tok[k].off, r->tok[k].len);
            n += r->tok[k].len;
        }
    s[n] = '\0';
    return s;
}

/* ------------------------------------------------------------------ move arguments */

static void push_item(tex_reader *r, tex_seq *s, const tex_item *it)
{
    tex_item *v = grow(s->items, &s->cap, s->n + 1, sizeof *v, &r->oom);
    if (!v) {
        free(it->text);
        return;
    }
    s->items = v;
    s->items[s->n++] = *it;
}

/* Informator macros and what NAG each stands for (xskak-nagdef's table). */
static const struct { const char *cmd; int nag; } informator[] = {
    {"\\wbetter", 14},     {"\\bbetter", 15},    {"\\wupperhand", 16}, {"\\bupperhand", 17},
    {"\\wdecisive", 18},   {"\\bdecisive", 19},  {"\\equal", 10},      {"\\unclear", 13},
    {"\\compensation", 44}, {"\\withattack", 40}, {"\\withinit", 36},   {"\\counterplay", 132},
    {"\\zugzwang", 22},    {"\\withidea", 140},  {"\\onlymove", 8},    {"\\betteris", 142},
    {"\\novelty", 146},    {"\\doubled", 0},     {NULL, 0}};

/* Letters of the input language to English ones, in a move's text. */
static void translate(const tex_reader *r, char *m)
{
    static const char english[] = "KQRBNP";
    if (strcmp(r->letters, english) == 0)
        return;
    for (char *c = m; *c; c++) {
        bool piece_place = c == m || c[-1] == '=' || c[-1] == '(' || c[-1] == '/';
        if (!piece_place || !isupper((unsigned char)*c))
            continue;
        const char *p = strchr(r->letters, *c);
        if (p)
            *c = english[p - r->letters];
    }
}

/* A text token inside a move argument: a move number, a move, or both ("12.Nf3"). */
static void split_text(tex_reader *r, tex_seq *s, tex_game *g, uint64_t off, const char *t,
                       size_t n)
{
    size_t i = 0;
    while (i < n && isdigit((unsigned char)t[i]))
        i++;
    size_t dots = 0;
    while (i + dots < n && t[i + dots] == '.')
        dots++;
    bool ellipsis = i + dots + 3 <= n && memcmp(t + i + dots, "\xE2\x80\xA6", 3) == 0;
    if (i > 0 && (dots > 0 || ellipsis)) {
        size_t end = i + dots + (ellipsis ? 3 : 0);
        tex_item it = {IT_NUM, off, (uint32_t)end, dup_n(t, end), (uint32_t)atoi(t),
                       dots >= 2 || ellipsis};
        push_item(r, s, &it);
        t += end;
        off += end;
        n -= end;
        if (n == 0)
            return;
    } else if (i == 0 && (dots >= 2 || (n == 3 && memcmp(t, "\xE2\x80\xA6", 3) == 0))) {
        /* "12. ..." : the dots belong to the number before */
        if (s->n > 0 && s->items[s->n - 1].kind == IT_NUM && n == dots)
            s->items[s->n - 1].dots3 = true;
        if (n == dots || n == 3)
            return;
        t += dots;
        off += dots;
        n -= dots;
    }
    /* "2.Nf3, Ke7": punctuation of the text after a move is not part of it */
    while (n > 1 && (t[n - 1] == ',' || t[n - 1] == ';'))
        n--;
    if (n == 1 && (t[0] == ',' || t[0] == ';' || t[0] == '.'))
        return;
    if ((n == 3 && memcmp(t, "1-0", 3) == 0) || (n == 3 && memcmp(t, "0-1", 3) == 0) ||
        (n == 7 && memcmp(t, "1/2-1/2", 7) == 0) || (n == 1 && t[0] == '*')) {
        free(g->result);
        g->result = dup_n(t, n);
        return;
    }
    if (n >= 2 && t[0] == '$') {
        if (t[1] == 'd' || t[1] == 'D')
            return;   /* xskak's diagram request, not a NAG */
        tex_item it = {IT_NAG, off, (uint32_t)n, dup_n(t, n), 0, false};
        push_item(r, s, &it);
        return;
    }
    if (strcspn(t, "{}();[]\"<>") < n) {
        add_finding(r, g, "syntax-error", REC_ERROR, off,
                    _("'%.*s' in a move argument is not a move"), (int)(n > 40 ? 40 : n), t);
        return;
    }
    tex_item it = {IT_MOVE, off, (uint32_t)n, dup_n(t, n), 0, false};
    if (it.text)
        translate(r, it.text);
    push_item(r, s, &it);
}

/* A comment's TeX into plain text: braces and control words go ("{\itshape x}"). */
static void clean_comment(char *c)
{
    size_t w = 0;
    for (size_t q = 0; c[q];) {
        if (c[q] == '{' || c[q] == '}') {
            q++;
        } else if (c[q] == '\\' && isalpha((unsigned char)c[q + 1])) {
            q++;
            while (isalpha((unsigned char)c[q]))
                q++;
            if (c[q] == ' ')
                q++;
        } else if (c[q] == '\\' && c[q + 1]) {
            c[w++] = c[q + 1];
            q += 2;
        } else
            c[w++] = c[q++];
    }
    while (w > 0 && c[w - 1] == ' ')
        w--;
    c[w] = '\0';
    size_t lead = strspn(c, " ");
    memmove(c, c + lead, w - lead + 1);
}

/* Tokens b..e of a \mainline/\variation argument into items. */
static void read_moves(tex_reader *r, tex_game *g, tex_seq *s, size_t b, size_t e)
{
    for (size_t k = b; k < e; k++) {
        const tex_token_at *t = &r->tok[k];
        if (t->kind == TEX_TOK_TEXT) {
            /* a text run may end inside a word broken by nothing TeX sees, so glue
             * neighbouring text tokens (an escaped "\#" never occurs in a move) */
            size_t j = k;
            while (j + 1 < e && r->tok[j + 1].kind == TEX_TOK_TEXT &&
                   (r->doc[r->tok[j + 1].off] != '\\' ||
                    (r->tok[j + 1].len == 2 && r->doc[r->tok[j + 1].off + 1] == '#')))
                j++;
            char *m = text_of(r, k, j + 1);
            if (m) {
                /* "Qxf7\#": the escape TeX needs for a mate sign */
                size_t w = 0;
                for (size_t q = 0; m[q]; q++)
                    if (!(m[q] == '\\' && m[q + 1] == '#'))
                        m[w++] = m[q];
                m[w] = '\0';
                split_text(r, s, g, t->off, m, w);
                free(m);
            }
            k = j;
        } else if (t->kind == TEX_TOK_CMD) {
            if (tok_is(r, k, "\\xskakcomment") || tok_is(r, k, "\\movecomment")) {
                args a;
                size_t next = read_args(r, k, true, &a);
                if (a.has_arg) {
                    char *c = text_of(r, a.ab, a.ae);
                    if (c) {
                        clean_comment(c);
                        tex_item it = {IT_COMMENT, t->off, (uint32_t)t->len, c, 0, false};
                        push_item(r, s, &it);
                    }
                }
                k = next - 1;
            } else if (tok_is(r, k, "\\mate")) {
                continue;   /* '#' in beamer: the referee checks the mark anyway */
            } else {
                for (int m = 0; informator[m].cmd; m++)
                    if (tok_is(r, k, informator[m].cmd) && informator[m].nag > 0) {
                        char buf[16];
                        snprintf(buf, sizeof buf, "$%d", informator[m].nag);
                        tex_item it = {IT_NAG, t->off, (uint32_t)t->len, dup_n(buf, strlen(buf)), 0,
                                       false};
                        push_item(r, s, &it);
                    }
            }
        }
    }
}

/* ------------------------------------------------------------------ commands */

static void trace(tex_reader *r, uint64_t off, size_t cmd_tok, const char *how)
{
    if (!r->trace)
        return;
    rec_span s = doc_map_span(&r->m, off);
    fprintf(r->trace, "%u:%u %.*s %s\n", s.line, s.column, (int)r->tok[cmd_tok].len,
            r->doc + r->tok[cmd_tok].off, how);
}

static void note_call(tex_reader *r, size_t i, const args *a)
{
    tex_call *v = grow(r->calls, &r->callcap, r->ncalls + 1, sizeof *v, &r->oom);
    if (!v)
        return;
    r->calls = v;
    v[r->ncalls++] = (tex_call){r->tok[i].off, r->tok[a->ae].off + 1, i};
}

/* English letters back into the input language's, in a candidate's text. */
static void untranslate(const char *letters, char *m)
{
    static const char english[] = "KQRBNP";
    if (strcmp(letters, english) == 0)
        return;
    for (char *c = m; *c; c++) {
        bool piece_place = c == m || c[-1] == '=' || c[-1] == '(' || c[-1] == '/';
        const char *p = piece_place ? strchr(english, *c) : NULL;
        if (p && *c)
            *c = letters[p - english];
    }
}

static bool starts_game(const tex_reader *r, size_t k)
{
    return tok_is(r, k, "\\newgame") || tok_is(r, k, "\\newchessgame") ||
           tok_is(r, k, "\\resumechessgame") || tok_is(r, k, "\\fenboard") ||
           tok_is(r, k, "\\restoregame") || tok_is(r, k, "\\loadgame");
}

static bool is_mainline(const tex_reader *r, size_t k)
{
    return tok_is(r, k, "\\mainline") || tok_is(r, k, "\\hidemoves") ||
           tok_is(r, k, "\\mainline*") || tok_is(r, k, "\\hidemoves*");
}

/* The moves of the \mainline and \hidemoves calls from token i on that go on the
 * same game (up to the next command that starts or switches one): the rest of a
 * game a fix is ranked by is often written in later calls. */
static void later_moves(tex_reader *r, size_t i, tex_seq *out)
{
    tex_game scratch;       /* findings and results of the look-ahead are dropped */
    memset(&scratch, 0, sizeof scratch);
    for (size_t k = i; k < r->ntok && out->n < FIXIT_REST_MAX && !r->oom; k++) {
        if (r->tok[k].kind != TEX_TOK_CMD)
            continue;
        if (starts_game(r, k))
            break;
        if (!is_mainline(r, k))
            continue;
        args a;
        size_t next = read_args(r, k, true, &a);
        if (a.has_arg)
            read_moves(r, &scratch, out, a.ab, a.ae);
        k = next - 1;
    }
    free(scratch.finds);
    free(scratch.result);
}

/* Move k of part (0-based among its moves) did not replay from the game's end. When
 * exactly one candidate makes the rest of the game replay (the fix `arbiter fix`
 * applies), the game goes on with it and the finding says so: one typo must not
 * silence a chapter. after: the token after the command's argument. */
static bool go_on_with_fix(tex_reader *r, tex_game *g, tex_seq *part, size_t k, size_t after)
{
    tex_item *it = NULL;
    size_t at = 0, seen = 0;
    for (; at < part->n; at++)
        if (part->items[at].kind == IT_MOVE && seen++ == k) {
            it = &part->items[at];
            break;
        }
    if (!it)
        return false;
    const tpos *before = k == 0 ? game_end(g) : &g->pos[g->npos + k - 1];
    if (chess_is_checkmate(&before->p) || chess_is_stalemate(&before->p))
        return false;   /* moves after the end: nothing to repair */
    san_result res;
    chess_san_parse(&before->p, it->text, &res);
    if (res.status == SAN_OK || res.status == SAN_NULL)
        return false;
    tex_seq later = {0};
    for (size_t q = at + 1; q < part->n; q++)
        if (part->items[q].kind == IT_MOVE) {
            tex_item c = part->items[q];
            c.text = strdup(c.text);
            push_item(r, &later, &c);
        }
    later_moves(r, after, &later);
    const char **rest = malloc((later.n + 1) * sizeof *rest);
    int nrest = 0;
    for (size_t q = 0; rest && q < later.n && nrest < FIXIT_REST_MAX; q++)
        if (later.items[q].kind == IT_MOVE && later.items[q].text)
            rest[nrest++] = later.items[q].text;
    fixit_result fr;
    memset(&fr, 0, sizeof fr);
    if (rest && nrest > 0)   /* the game's last move: nothing to go on with */
        fixit_chess(&before->p, it->text, rest, nrest, &fr);
    free(rest);
    for (size_t q = 0; q < later.n; q++)
        free(later.items[q].text);
    free(later.items);
    if (fr.count == 0 || !fr.certain || fr.cand[0].kind != FIXIT_REPLACE)
        return false;
    san_result check;
    chess_san_parse(&before->p, fr.cand[0].text, &check);
    char *fixed = strdup(fr.cand[0].text);
    struct tex_repair *rep = calloc(1, sizeof *rep);
    if (check.status != SAN_OK || !fixed || !rep) {
        free(fixed);
        free(rep);
        return false;
    }
    /* the finding: what was written (the document's bytes), why it fails, the repair */
    const char *side = chess_pos_side(&before->p) == CHESS_WHITE ? _("White") : _("Black");
    char own[FIXIT_TEXT];
    snprintf(own, sizeof own, "%s", fr.cand[0].text);
    untranslate(r->letters, own);
    snprintf(rep->written, sizeof rep->written, "%.*s", (int)(it->len < 47 ? it->len : 47),
             r->doc + it->off);
    char why[240];
    const char *code = "illegal-move";
    if (res.status == SAN_UNREADABLE) {
        code = "unreadable-move";
        snprintf(why, sizeof why, _("'%s' is not a move: %s"), rep->written, res.reason);
    } else if (res.status == SAN_AMBIGUOUS) {
        code = "ambiguous-move";
        snprintf(why, sizeof why, _("%s is ambiguous"), rep->written);
    } else
        snprintf(why, sizeof why, _("%s %s is illegal: %s"), side, rep->written, res.reason);
    add_finding(r, g, code, REC_ERROR, it->off,
                _("%s; the game goes on with %s, the one move that lets the rest replay"), why,
                own);
    if (r->oom) {
        free(fixed);
        free(rep);
        return false;
    }
    tpos_to_fen(before, rep->fen, sizeof rep->fen);
    rep->ply = (int)(g->npos + k);
    rep->len = it->len;
    rep->fr = fr;
    for (int c = 0; c < fr.count; c++)
        untranslate(r->letters, rep->fr.cand[c].text);
    if (memchr(r->doc + it->off, '\\', it->len) || strlen(rep->written) != it->len)
        rep->fr.certain = rep->fr.full = false;   /* "Qxf7\#": no byte-exact edit */
    g->finds[g->nfinds - 1].repair = rep;
    free(it->text);
    it->text = fixed;
    return true;
}

/* The items of g->main from before on were just read for the command at token i:
 * replay them on the game, going on after a move with one certain fix. after: the
 * token after the command's argument. */
static void advance_main(tex_reader *r, size_t i, tex_game *g, size_t before, size_t after)
{
    g->main_off = r->tok[i].off;
    tex_seq part = {g->main.items + before, g->main.n - before, 0};
    size_t moves = seq_moves(&part);
    g->main_moves += moves;
    if (g->broken) {
        trace(r, r->tok[i].off, i, "main-after-error");
        return;
    }
    tpos *p = grow(g->pos, &g->cappos, g->npos + moves, sizeof *p, &r->oom);
    if (!p)
        return;
    g->pos = p;
    size_t done = replay_seq(&part, game_end(g), g->pos + g->npos, NULL);
    while (done < moves && go_on_with_fix(r, g, &part, done, after))
        done = replay_seq(&part, game_end(g), g->pos + g->npos, NULL);
    g->npos += done;
    if (done < moves)
        g->broken = true;
    trace(r, r->tok[i].off, i, done < moves ? "main-error" : "main");
}

static void cmd_mainline(tex_reader *r, size_t i, const args *a)
{
    note_call(r, i, a);
    tex_game *g = game_for_moves(r, r->tok[i].off);
    if (!g)
        return;
    size_t before = g->main.n;
    memcpy(g->letters, r->letters, sizeof g->letters);
    read_moves(r, g, &g->main, a->ab, a->ae);
    advance_main(r, i, g, before, a->ae + 1);
}

static bool is_square(const char *t)
{
    return t[0] >= 'a' && t[0] <= 'h' && t[1] >= '1' && t[1] <= '8';
}

/* "e2e4" or "e2-e4": a chess.sty coordinate move. */
static bool coordinate_move(const char *t, size_t n)
{
    size_t to = n == 5 && t[2] == '-' ? 3 : 2;
    return n == to + 2 && is_square(t) && is_square(t + to);
}

/* chess.sty (Tutelaers): "\move e2e4 e7e5" plays a white and a black move from square
 * to square, "\ply e6d7" one; the package checks nothing ("No checking is done for
 * validity of moves"). They go on the current game's main line. Returns the last
 * token used. */
static size_t cmd_coordinate(tex_reader *r, size_t i, int plies)
{
    tex_game *g = game_for_moves(r, r->tok[i].off);
    if (!g)
        return i;
    size_t before = g->main.n, last = i;
    for (int n = 0; n < plies; n++) {
        size_t k = last + 1;
        while (k < r->ntok && r->tok[k].kind == TEX_TOK_SPACE)
            k++;
        if (k >= r->ntok || r->tok[k].kind != TEX_TOK_TEXT ||
            !coordinate_move(r->doc + r->tok[k].off, r->tok[k].len))
            break;
        tex_item it = {IT_MOVE, r->tok[k].off, (uint32_t)r->tok[k].len,
                       dup_n(r->doc + r->tok[k].off, r->tok[k].len), 0, false};
        push_item(r, &g->main, &it);
        last = k;
    }
    if (last == i)
        return i;   /* no move follows: another package's \move */
    tex_call *v = grow(r->calls, &r->callcap, r->ncalls + 1, sizeof *v, &r->oom);
    if (v) {
        r->calls = v;
        v[r->ncalls++] = (tex_call){r->tok[i].off, r->tok[last].off + r->tok[last].len, i};
    }
    advance_main(r, i, g, before, last + 1);
    return last;
}

/* Try to start seq at t; keeps the best so far. */
typedef struct cand {
    const tpos *at;
    long main_ply;           /* >= 0: main-line position after that many plies */
} cand;

static bool number_fits(const tex_seq *s, const tpos *t)
{
    if (s->n == 0 || s->items[0].kind != IT_NUM)
        return true;
    bool black = chess_pos_side(&t->p) == CHESS_BLACK;
    return (int)s->items[0].num == t->full && s->items[0].dots3 == black;
}

/* A word of a print-only command that reads as a move (SAN or coordinates in any
 * letter set): the rest of such an argument is prose. */
static bool move_like(const char *t)
{
    size_t n = strlen(t);
    if (n == 0 || n > 12 || strcspn(t, "(){}") < n)
        return false;
    if (strncmp(t, "O-O", 3) == 0 || strncmp(t, "0-0", 3) == 0)
        return true;
    for (size_t k = 0; k + 1 < n; k++)
        if (is_square(t + k))
            return strspn(t, "KQRBNPDTLSCFAVHXMabcdefgh12345678x:+#!?=-") == n;
    return false;
}

/* \movecomment's argument: moves up to the first word that is none (a comment, or a
 * deeper variation in parentheses, as pgn2ltx writes them). */
static void trim_to_moves(tex_seq *q)
{
    for (size_t k = 0; k < q->n; k++)
        if ((q->items[k].kind == IT_MOVE && !move_like(q->items[k].text)) ||
            (q->items[k].kind == IT_COMMENT && k > 0)) {
            for (size_t x = k; x < q->n; x++)
                free(q->items[x].text);
            q->n = k;
            return;
        }
}

/* An unplaced variation: what its first move may have been at the newest position its
 * number fits, when a candidate lets the whole of it replay there ("7.dxc4" for
 * 7.dxc5). Only suggested: the place itself is a guess. */
static void suggest_first_move(tex_reader *r, tex_game *g, const tex_seq *q, const tpos *at)
{
    const tex_item *first = NULL;
    const char *rest[64];
    int nrest = 0;
    for (size_t k = 0; k < q->n; k++) {
        if (q->items[k].kind != IT_MOVE)
            continue;
        if (!first)
            first = &q->items[k];
        else if (nrest < 64)
            rest[nrest++] = q->items[k].text;
    }
    if (!first || nrest == 0 || r->oom)
        return;   /* one move proves nothing: a threat is written so */
    struct tex_repair *rep = calloc(1, sizeof *rep);
    if (!rep)
        return;
    fixit_chess(&at->p, first->text, rest, nrest, &rep->fr);
    if (rep->fr.count == 0 || !rep->fr.full) {
        free(rep);
        return;
    }
    rep->fr.full = rep->fr.certain = false;
    int keep = 0;   /* only the candidates after which the whole variation replays */
    for (int x = 0; x < rep->fr.count; x++)
        if (rep->fr.cand[x].replays >= nrest)
            rep->fr.cand[keep++] = rep->fr.cand[x];
    rep->fr.count = keep;
    for (int x = 0; x < rep->fr.count; x++)
        untranslate(r->letters, rep->fr.cand[x].text);
    snprintf(rep->written, sizeof rep->written, "%.*s", (int)(first->len < 47 ? first->len : 47),
             r->doc + first->off);
    tpos_to_fen(at, rep->fen, sizeof rep->fen);
    rep->len = first->len;
    tex_finding *f = &g->finds[g->nfinds - 1];
    f->repair = rep;
    f->off = first->off;
    size_t n = strlen(f->msg);
    snprintf(f->msg + n, sizeof f->msg - n, _("; from move %d%s it replays whole with %s"), at->full,
             chess_pos_side(&at->p) == CHESS_BLACK ? "..." : ".", rep->fr.cand[0].text);
}

static void cmd_variation(tex_reader *r, size_t i, const args *a, bool print_only)
{
    note_call(r, i, a);
    tex_game *g = game_for_moves(r, r->tok[i].off);
    if (!g)
        return;
    tex_var *v = realloc(g->vars, (g->nvars + 1) * sizeof *v);
    if (!v) {
        r->oom = true;
        return;
    }
    g->vars = v;
    tex_var *var = &v[g->nvars];
    memset(var, 0, sizeof *var);
    var->cmd_off = r->tok[i].off;
    if (print_only) {
        tex_game scratch;   /* a comment's words are not moves: no syntax findings */
        memset(&scratch, 0, sizeof scratch);
        read_moves(r, &scratch, &var->seq, a->ab, a->ae);
        free(scratch.finds);
        free(scratch.result);
        trim_to_moves(&var->seq);
    } else
        read_moves(r, g, &var->seq, a->ab, a->ae);
    size_t moves = seq_moves(&var->seq);
    if (moves == 0) {
        g->nvars++;
        var->where = -2;     /* nothing to place */
        trace(r, r->tok[i].off, i, "empty");
        return;
    }
    var->pos = malloc(moves * sizeof *var->pos);
    if (!var->pos) {
        r->oom = true;
        return;
    }
    size_t nmain = g->npos - 1;
    cand c[512];
    size_t nc = 0;
    const char *name = r->doc + r->tok[i].off;
    bool current = strncmp(name, "\\variationcurrent", 17) == 0;
    bool rollback = r->skak && !print_only;   /* \movecomment only prints */
    bool cont = strncmp(name, "\\continuevariationcurrent", 25) == 0;
    if (rollback || current || cont) {
        /* skak: the rollback point, the current position, or the last variation's end */
        const tex_var *last = NULL;
        for (size_t k = g->nvars; k-- > 0;)
            if (g->vars[k].npos > 0) {
                last = &g->vars[k];
                break;
            }
        if (cont && last)
            c[nc++] = (cand){&last->pos[last->npos - 1], -1};
        else if (current || nmain == 0)
            c[nc++] = (cand){game_end(g), (long)nmain};
        else
            c[nc++] = (cand){&g->pos[nmain - 1], (long)nmain - 1};
        if (rollback && !current && !cont && !number_fits(&var->seq, c[0].at)) {
            g->nvars++;
            var->where = -2;   /* LaTeX stops: nothing after it is typeset */
            trace(r, r->tok[i].off, i, "skak-start-error");
            add_finding(r, g, "variation-start", REC_ERROR, var->seq.items[0].off,
                        _("skak starts \\variation one ply back, at move %d%s; this one "
                        "starts at %u%s (LaTeX stops here)"),
                        c[0].at->full, chess_pos_side(&c[0].at->p) == CHESS_BLACK ? "..." : ".",
                        var->seq.items[0].num, var->seq.items[0].dots3 ? "..." : ".");
            return;
        }
    } else {
        /* xskak: the last variation's end, the main line newest first, earlier
         * variations newest first; only positions the written number fits */
        /* the end of the last variation comes first only when no \mainline came
         * after it ("14...f5? ... 14...Nd4 15.Qh5": the reply is to the main line) */
        for (size_t k = g->nvars; k-- > 0 && nc < 1 && g->vars[k].cmd_off > g->main_off;)
            if (g->vars[k].full && g->vars[k].npos > 0 &&
                number_fits(&var->seq, &g->vars[k].pos[g->vars[k].npos - 1]))
                c[nc++] = (cand){&g->vars[k].pos[g->vars[k].npos - 1], -1};
        for (size_t k = g->npos; k-- > 0 && nc < 256;)
            if (number_fits(&var->seq, &g->pos[k]))
                c[nc++] = (cand){&g->pos[k], (long)k};
        for (size_t k = g->nvars; k-- > 0 && nc < 512;)
            for (size_t p = g->vars[k].npos; p-- > 0 && nc < 512;)
                if (number_fits(&var->seq, &g->vars[k].pos[p]))
                    c[nc++] = (cand){&g->vars[k].pos[p], -1};
    }
    long best = -1;
    size_t best_done = 0;
    for (size_t k = 0; k < nc; k++) {
        size_t done = replay_seq(&var->seq, c[k].at, NULL, NULL);
        if (done == moves) {
            best = (long)k;
            best_done = done;
            break;
        }
        if (done > best_done || (best < 0 && (rollback || current || cont))) {
            best = (long)k;
            best_done = done;
        }
    }
    g->nvars++;
    if (best < 0) {
        var->where = -2;
        add_finding(r, g, "variation-unplaced", REC_INFO, var->seq.items[0].off,
                    _("no position of this game before the variation lets it start (a threat "
                    "or an idea, or a mistake in its first move)"));
        if (nc > 0)
            suggest_first_move(r, g, &var->seq, c[0].at);
        trace(r, r->tok[i].off, i, "unplaced");
        return;
    }
    var->start = *c[best].at;
    var->npos = replay_seq(&var->seq, &var->start, var->pos, NULL);
    var->full = var->npos == moves;
    var->main_ply = c[best].main_ply;
    var->where = -1;   /* decided when the whole main line is known (load), traced then */
    var->tok = i;
}

/* \wmove{Nf3} and \bmove{Nxd4} only print a move; it should be one the side could
 * play at some position of the game so far (newest first), or the reader was misled. */
static void cmd_print_move(tex_reader *r, size_t i, const args *a, bool white)
{
    tex_game *g = cur_game(r);
    char *m = text_of(r, a->ab, a->ae);
    if (!g || !m) {
        free(m);
        return;
    }
    size_t b = strspn(m, " \t\n");
    translate(r, m + b);
    for (char *q = m; *q; q++)
        if (*q == '\\' && q[1] == '#')
            memmove(q, q + 1, strlen(q));
    bool found = false;
    for (size_t k = g->npos; k-- > 0 && !found;) {
        if ((chess_pos_side(&g->pos[k].p) == CHESS_WHITE) != white)
            continue;
        san_result res;
        chess_san_parse(&g->pos[k].p, m + b, &res);
        found = res.status == SAN_OK;
    }
    if (!found)
        add_finding(r, g, "print-move", REC_WARNING, r->tok[a->ab].off,
                    _("%.*s{%.20s} prints a move %s cannot play at any position of the game so "
                    "far"), (int)r->tok[i].len, r->doc + r->tok[i].off, m + b,
                    white ? _("White") : _("Black"));
    free(m);
}

/* chessfss's piece macros in prose ("\symknight d4", "\king e2"): the piece letter,
 * or 0. */
static char sym_piece(const tex_reader *r, size_t i)
{
    static const struct { const char *cmd; char letter; } syms[] = {
        {"\\symking", 'K'}, {"\\symqueen", 'Q'}, {"\\symrook", 'R'},   {"\\symbishop", 'B'},
        {"\\symknight", 'N'}, {"\\sympawn", 'P'}, {"\\king", 'K'},       {"\\queen", 'Q'},
        {"\\rook", 'R'},    {"\\bishop", 'B'},   {"\\knight", 'N'},    {"\\pawn", 'P'},
        {NULL, 0}};
    if (r->tok[i].kind != TEX_TOK_CMD)
        return 0;
    for (int k = 0; syms[k].cmd; k++)
        if (tok_is(r, i, syms[k].cmd))
            return syms[k].letter;
    return 0;
}

/* Whether text (English letters) is a move at some position of g, main line or
 * variation, of that number and side (num 0: any). */
static bool playable_somewhere(const tex_game *g, const char *text, int num, int side)
{
    for (size_t v = 0; v <= g->nvars; v++) {
        const tpos *ps = v == 0 ? g->pos : g->vars[v - 1].pos;
        size_t n = v == 0 ? g->npos : g->vars[v - 1].npos;
        for (size_t k = 0; k < n; k++) {
            if ((num && ps[k].full != num) || (side >= 0 && chess_pos_side(&ps[k].p) != side))
                continue;
            san_result res;
            chess_san_parse(&ps[k].p, text, &res);
            if (res.status == SAN_OK)
                return true;
        }
    }
    return false;
}

/* A piece macro in prose and the square after it ("12...\symknight xe4"): a move of
 * the text, with no position of its own. It is read like a prose move of a web page:
 * anchored to any position of the current game with the number and side written
 * before it (any, when none is), and reported as info when none lets it be played.
 * Returns the last token used. */
static size_t cmd_sym_prose(tex_reader *r, size_t i)
{
    char piece = sym_piece(r, i);
    size_t k = i + 1;
    if (k + 1 < r->ntok && r->tok[k].kind == TEX_TOK_LBRACE && r->tok[k + 1].kind == TEX_TOK_RBRACE)
        k += 2;   /* "\symknight{}d4" */
    else if (k < r->ntok && r->tok[k].kind == TEX_TOK_SPACE && r->tok[k].len == 1)
        k++;
    tex_game *g = cur_game(r);
    if (!g || k >= r->ntok || r->tok[k].kind != TEX_TOK_TEXT)
        return i;
    const char *t = r->doc + r->tok[k].off;
    size_t n = strspn(t, "abcdefgh12345678x+#=QRBN");
    if (n > r->tok[k].len)
        n = r->tok[k].len;
    char move[24];
    if (n < 2 || n > 12)
        return i;
    snprintf(move, sizeof move, "%s%.*s", piece == 'P' ? "" : (char[]){piece, 0}, (int)n, t);
    if (!is_square(move + strlen(move) - 2) && !strpbrk(move + 1, "+#="))
        return i;   /* "\symknight s" or a bare file: not a move */
    /* the number and side written right before the macro: "12." "12..." */
    int num = 0, side = -1;
    if (i > 0 && r->tok[i - 1].kind == TEX_TOK_TEXT) {
        const char *p = r->doc + r->tok[i - 1].off, *e = p + r->tok[i - 1].len;
        const char *d = e;
        while (d > p && d[-1] == '.')
            d--;
        const char *digits = d;
        while (digits > p && isdigit((unsigned char)digits[-1]))
            digits--;
        if (digits < d && e - d >= 1) {
            num = atoi(digits);
            side = e - d >= 3 ? CHESS_BLACK : CHESS_WHITE;
        }
    }
    if (!playable_somewhere(g, move, num, side)) {
        add_finding(r, g, "prose-unplaced", REC_INFO, r->tok[i].off,
                    _("%.*s %.*s in the text is no move at any position of this game so far%s"),
                    (int)r->tok[i].len, r->doc + r->tok[i].off, (int)n, t,
                    num ? _(" with that move number") : "");
        trace(r, r->tok[i].off, i, "prose-unplaced");
    } else
        trace(r, r->tok[i].off, i, "prose");
    return k;
}

/* ------------------------------------------------------------------ chinesechess */

/* chinesechess (Nan Geng, CTAN 2022): inside \begin{setcchessman}...\end{setcchessman}
 * a game is set up with \init{ {{x,y}{P}}, ... } (else the initial position), \set{x,y}{P}
 * adds a piece, \del{x,y} removes one and \mov{P}{x,y}{x,y} moves one. Files x are a-i
 * or 0-8, ranks y a-j or 0-9 from Red's side; pieces K A E R C H P for Red, lower case
 * for Black. The package moves whatever it is told ("a capture unconditionally replaces
 * the piece"), so the moves are replayed here as a xiangqi game in ICCS coordinates,
 * which name the same squares. */
static int cc_coord(const char *s, int max)
{
    while (*s == ' ')
        s++;
    if (*s >= '0' && *s <= '9')
        return *s - '0' <= max ? *s - '0' : -1;
    if (*s >= 'a' && *s <= 'j')
        return *s - 'a' <= max ? *s - 'a' : -1;
    return -1;
}

/* "b,h" into x and y; false when it is none. */
static bool cc_square(const char *s, int *x, int *y)
{
    const char *comma = strchr(s, ',');
    if (!comma)
        return false;
    *x = cc_coord(s, 8);
    *y = cc_coord(comma + 1, 9);
    return *x >= 0 && *y >= 0;
}

/* chinesechess's letters into FEN's: E (elephant) is B, H (horse) is N. */
static char cc_fen_piece(char c)
{
    static const char from[] = "KAERCHPkaerchp", to[] = "KABRCNPkabrcnp";
    const char *p = c ? strchr(from, c) : NULL;
    return p ? to[p - from] : 0;
}

/* The n braced arguments after token i, as strings (NULL when missing); the index after. */
static size_t brace_args(tex_reader *r, size_t i, int n, char **out)
{
    size_t k = i + 1;
    for (int a = 0; a < n; a++) {
        out[a] = NULL;
        k = skip_space(r, k);
        if (k >= r->ntok || r->tok[k].kind != TEX_TOK_LBRACE)
            continue;
        size_t e = group_end(r, k);
        out[a] = text_of(r, k + 1, e);
        k = e + 1;
    }
    return k;
}

static void cc_board_fen(char b[10][9], int black, char *fen, size_t size)
{
    size_t o = 0;
    for (int y = 9; y >= 0; y--) {
        int empty = 0;
        for (int x = 0; x < 9; x++) {
            if (!b[y][x]) {
                empty++;
                continue;
            }
            if (empty)
                fen[o++] = (char)('0' + empty);
            empty = 0;
            fen[o++] = b[y][x];
        }
        if (empty)
            fen[o++] = (char)('0' + empty);
        if (y)
            fen[o++] = '/';
    }
    snprintf(fen + o, size - o, " %c - - 0 1", black ? 'b' : 'w');
}

/* \begin{setcchessman} or setcchessman*, with its [options] read past (a->ae is then
 * the last token of the command). */
static bool begins_cchess(tex_reader *r, size_t i, args *a)
{
    read_args(r, i, true, a);
    if (!a->has_arg || !(group_text_is(r, a->ab, a->ae, "setcchessman") ||
                         group_text_is(r, a->ab, a->ae, "setcchessman*")))
        return false;
    size_t k = skip_space(r, a->ae + 1);
    if (k < r->ntok && r->tok[k].kind == TEX_TOK_LBRACK)
        a->ae = group_end(r, k);
    return true;
}

/* One setcchessman environment from the \begin at token i (its body from token body):
 * returns the token after its \end. */
static size_t cmd_cchess(tex_reader *r, size_t i, size_t body)
{
    static const char *start[10] = {"rnbakabnr", "9", "1c5c1", "p1p1p1p1p", "9", "9",
                                    "P1P1P1P1P", "1C5C1",     "9",         "RNBAKABNR"};
    char b[10][9];
    memset(b, 0, sizeof b);
    for (int row = 0; row < 10; row++) {   /* start[] reads from Black's side down */
        int x = 0;
        for (const char *c = start[row]; *c; c++) {
            if (*c >= '1' && *c <= '9')
                x += *c - '0';
            else
                b[9 - row][x++] = *c;
        }
    }
    tex_game *g = NULL;
    size_t k = body;
    for (; k < r->ntok && !r->oom; k++) {
        if (r->tok[k].kind != TEX_TOK_CMD)
            continue;
        if (tok_is(r, k, "\\end"))
            break;
        char *a[3] = {NULL, NULL, NULL};
        int x, y, x2, y2;
        size_t next = k + 1;
        if (tok_is(r, k, "\\init")) {
            next = brace_args(r, k, 1, a);
            memset(b, 0, sizeof b);
            for (const char *p = a[0]; p && *p; p++) {
                /* "{x,y}{P}" */
                if (p[0] != '{' || p[1] == '{')
                    continue;
                const char *close = strchr(p, '}');
                if (!close || close[1] != '{' || !close[2] || close[3] != '}')
                    continue;
                char sq[16];
                int n = (int)(close - p - 1);
                snprintf(sq, sizeof sq, "%.*s", n < 15 ? n : 15, p + 1);
                if (cc_square(sq, &x, &y) && cc_fen_piece(close[2]))
                    b[y][x] = cc_fen_piece(close[2]);
                p = close + 3;
            }
        } else if (tok_is(r, k, "\\set")) {
            next = brace_args(r, k, 2, a);
            if (a[0] && a[1] && cc_square(a[0], &x, &y) && cc_fen_piece(a[1][0]))
                b[y][x] = cc_fen_piece(a[1][0]);
        } else if (tok_is(r, k, "\\del")) {
            next = brace_args(r, k, 1, a);
            if (a[0] && cc_square(a[0], &x, &y))
                b[y][x] = 0;
        } else if (tok_is(r, k, "\\mov")) {
            next = brace_args(r, k, 3, a);
            char piece = a[0] ? cc_fen_piece(a[0][0]) : 0;
            if (piece && a[1] && a[2] && cc_square(a[1], &x, &y) && cc_square(a[2], &x2, &y2)) {
                if (!g) {
                    char fen[100];
                    cc_board_fen(b, piece >= 'a', fen, sizeof fen);
                    g = new_game(r, r->tok[k].off, NULL, true);
                    if (!g)
                        break;
                    g->xiangqi = true;
                    snprintf(g->xq_fen, sizeof g->xq_fen, "%s", fen);
                }
                if (b[y][x] != piece)
                    add_finding(r, g, "wrong-piece", REC_ERROR, r->tok[k].off,
                                _("\\mov{%.4s}{%.8s}{%.8s} moves a piece that is not on %.8s "
                                "(%s): chinesechess moves whatever it is told"),
                                a[0], a[1], a[2], a[1], b[y][x] ? _("another piece is") : _("empty"));
                char iccs[5] = {(char)('a' + x), (char)('0' + y), (char)('a' + x2),
                                (char)('0' + y2), 0};
                /* the move's place: the whole command */
                uint64_t off = r->tok[k].off;
                uint32_t len = (uint32_t)(r->tok[next - 1].off + 1 - off);
                tex_item it = {IT_MOVE, off, len, dup_n(iccs, 4), 0, false};
                push_item(r, &g->main, &it);
                g->main_moves++;
                b[y2][x2] = b[y][x];
                b[y][x] = 0;
                tex_call *v = grow(r->calls, &r->callcap, r->ncalls + 1, sizeof *v, &r->oom);
                if (v) {
                    r->calls = v;
                    v[r->ncalls++] = (tex_call){off, off + len, k};
                }
            }
        }
        for (int q = 0; q < 3; q++)
            free(a[q]);
        k = next - 1;
    }
    if (g)
        trace(r, r->tok[i].off, i, "xiangqi");
    r->cur = -1;   /* what follows is no continuation of this game */
    args e;
    return k < r->ntok ? read_args(r, k, true, &e) : k;
}

/* ------------------------------------------------------------------ % comments */

/* A move command inside a '%' comment ("% \mainline{12. Nf3 Nc6}"): TeX never sees
 * it, but it is the author's text, so its moves are checked like a comment line of a
 * WXF article: from the newest position of the current game with its first number
 * and side, each move that does not replay a comment-line warning with suggestions;
 * info when no position fits. */
static void comment_line(tex_reader *r, size_t ci)
{
    const tex_token_at *c = &r->tok[ci];
    const char *text = r->doc + c->off;
    if (!memmem(text, c->len, "\\mainline", 9) && !memmem(text, c->len, "\\variation", 10) &&
        !memmem(text, c->len, "\\hidemoves", 10))
        return;
    tex_game *g = cur_game(r);
    size_t nsub;
    tex_token_at *sub = tex_tokenize(text + 1, c->len - 1, &nsub);
    if (!sub) {
        r->oom = true;
        return;
    }
    for (size_t k = 0; k < nsub; k++)
        sub[k].off += c->off + 1;
    tex_token_at *save = r->tok;
    size_t save_n = r->ntok;
    r->tok = sub;
    r->ntok = nsub;
    for (size_t k = 0; k < nsub && !r->oom; k++) {
        if (sub[k].kind != TEX_TOK_CMD ||
            !(is_mainline(r, k) || tok_is(r, k, "\\variation") || tok_is(r, k, "\\variation*")))
            continue;
        args a;
        size_t next = read_args(r, k, true, &a);
        if (!a.has_arg) {
            k = next - 1;
            continue;
        }
        tex_game scratch;
        memset(&scratch, 0, sizeof scratch);
        tex_seq q = {0};
        read_moves(r, &scratch, &q, a.ab, a.ae);
        free(scratch.finds);
        free(scratch.result);
        size_t moves = seq_moves(&q);
        /* the newest position of the game its first number and side fit */
        const tpos *at = NULL;
        for (size_t p = g ? g->npos : 0; p-- > 0 && !at;)
            if (number_fits(&q, &g->pos[p]))
                at = &g->pos[p];
        for (size_t v = g ? g->nvars : 0; v-- > 0 && !at;)
            for (size_t p = g->vars[v].npos; p-- > 0 && !at;)
                if (number_fits(&q, &g->vars[v].pos[p]))
                    at = &g->vars[v].pos[p];
        size_t done = at ? replay_seq(&q, at, NULL, NULL) : 0;
        if (moves == 0) {
            trace(r, sub[k].off, k, "comment-empty");
        } else if (!g || !at) {
            if (g)
                add_finding(r, g, "comment-line", REC_INFO, sub[k].off,
                            _("the moves of this commented-out %.*s start where no position of "
                            "the game so far is"), (int)sub[k].len, r->doc + sub[k].off);
            trace(r, sub[k].off, k, "comment-unplaced");
        } else if (done == moves) {
            trace(r, sub[k].off, k, "comment");
        } else {
            /* the move that fails, the position before it, the moves after it */
            tpos t = *at;
            const tex_item *bad = NULL;
            const char *rest[64];
            int nrest = 0;
            size_t m = 0;
            for (size_t x = 0; x < q.n; x++) {
                if (q.items[x].kind != IT_MOVE)
                    continue;
                if (bad) {
                    if (nrest < 64)
                        rest[nrest++] = q.items[x].text;
                } else if (m++ == done)
                    bad = &q.items[x];
                else
                    play(&t, q.items[x].text);
            }
            san_result res;
            chess_san_parse(&t.p, bad->text, &res);
            const char *side = chess_pos_side(&t.p) == CHESS_WHITE ? _("White") : _("Black");
            add_finding(r, g, "comment-line", REC_WARNING, bad->off,
                        _("%s %.*s in this commented-out %.*s does not replay: %s"), side,
                        (int)bad->len, r->doc + bad->off, (int)sub[k].len, r->doc + sub[k].off,
                        res.reason[0] ? res.reason : _("no such move"));
            struct tex_repair *rep = calloc(1, sizeof *rep);
            if (rep && !r->oom) {
                snprintf(rep->written, sizeof rep->written, "%.*s",
                         (int)(bad->len < 47 ? bad->len : 47), r->doc + bad->off);
                tpos_to_fen(&t, rep->fen, sizeof rep->fen);
                rep->len = bad->len;
                fixit_chess(&t.p, bad->text, rest, nrest, &rep->fr);
                if (rep->fr.count > 0 && rep->fr.cand[0].kind == FIXIT_SWAP)
                    rep->fr.full = rep->fr.certain = false;   /* only suggested, as in WXF */
                for (int x = 0; x < rep->fr.count; x++)
                    untranslate(r->letters, rep->fr.cand[x].text);
                if (strlen(rep->written) != bad->len || memchr(rep->written, '\\', bad->len))
                    rep->fr.full = rep->fr.certain = false;
                g->finds[g->nfinds - 1].repair = rep;
            } else
                free(rep);
            trace(r, sub[k].off, k, "comment-error");
        }
        for (size_t x = 0; x < q.n; x++)
            free(q.items[x].text);
        free(q.items);
        k = next - 1;
    }
    r->tok = save;
    r->ntok = save_n;
    free(sub);
}

/* "key=value, key={v,w}" of an optional argument: calls fn for each pair. */
typedef void (*kv_fn)(tex_reader *r, const char *key, const char *value, void *ctx);

static void each_key(tex_reader *r, char *s, kv_fn fn, void *ctx)
{
    while (*s) {
        while (*s == ' ' || *s == ',' || *s == '\n' || *s == '\t' || *s == '\r')
            s++;
        if (!*s)
            break;
        char *k = s;
        int depth = 0;
        while (*s && !(depth == 0 && *s == ',')) {
            if (*s == '{')
                depth++;
            else if (*s == '}')
                depth--;
            s++;
        }
        char save = *s;
        *s = '\0';
        char *eq = strchr(k, '=');
        char *val = "";
        if (eq) {
            *eq = '\0';
            val = eq + 1;
        }
        char *ke = k + strlen(k);
        while (ke > k && isspace((unsigned char)ke[-1]))
            *--ke = '\0';
        while (isspace((unsigned char)*val))
            val++;
        char *ve = val + strlen(val);
        while (ve > val && isspace((unsigned char)ve[-1]))
            *--ve = '\0';
        if (*val == '{' && ve > val && ve[-1] == '}') {
            val++;
            ve[-1] = '\0';
        }
        fn(r, k, val, ctx);
        *s = save;
    }
}

typedef struct newgame_keys {
    char *id, *setfen, *moveid, *newvar, *player;
    int movenr;
    char board[64];          /* from setwhite/addwhite/setblack/addblack, '\0' empty */
    bool pieces, cleared;
    struct { const char *k; char *v; } tags[12];
    int ntags;
} newgame_keys;

static void place_pieces(newgame_keys *n, const char *list, bool white)
{
    /* "Ke1,Qd1,e2" (pawns without a letter), as chessboard writes them */
    const char *p = list;
    while (*p) {
        while (*p == ',' || *p == ' ')
            p++;
        char piece = 'P';
        if (*p && strchr("KQRBNP", *p))
            piece = *p++;
        if (p[0] >= 'a' && p[0] <= 'h' && p[1] >= '1' && p[1] <= '8') {
            int sq = (p[1] - '1') * 8 + (p[0] - 'a');
            n->board[sq] = white ? piece : (char)tolower((unsigned char)piece);
            p += 2;
        }
        while (*p && *p != ',')
            p++;
    }
}

static void newgame_key(tex_reader *r, const char *key, const char *value, void *ctx)
{
    newgame_keys *n = ctx;
    static const char *pgn_keys[][2] = {{"white", "White"}, {"black", "Black"}, {"result", "Result"},
                                        {"event", "Event"}, {"site", "Site"},   {"date", "Date"},
                                        {"round", "Round"}, {"whiteelo", "WhiteElo"},
                                        {"blackelo", "BlackElo"}};
    (void)r;
    char **slot = strcmp(key, "id") == 0 ? &n->id
                  : strcmp(key, "setfen") == 0 || strcmp(key, "addfen") == 0 ? &n->setfen
                  : strcmp(key, "moveid") == 0 ? &n->moveid
                  : strcmp(key, "player") == 0 ? &n->player
                  : strcmp(key, "newvar") == 0 ? &n->newvar
                  : NULL;
    if (slot) {
        free(*slot);   /* the last of a repeated key counts */
        *slot = strdup(value);
    } else if (strcmp(key, "movenr") == 0)
        n->movenr = atoi(value);
    else if (strcmp(key, "setwhite") == 0 || strcmp(key, "setblack") == 0 ||
             strcmp(key, "addwhite") == 0 || strcmp(key, "addblack") == 0) {
        if (key[0] == 's' && !n->cleared) {
            memset(n->board, 0, sizeof n->board);
            n->cleared = true;
        }
        n->pieces = true;
        place_pieces(n, value, key[3] == 'w');
    } else
        for (size_t k = 0; k < sizeof pgn_keys / sizeof pgn_keys[0]; k++)
            if (strcmp(key, pgn_keys[k][0]) == 0 && n->ntags < 12) {
                n->tags[n->ntags].k = pgn_keys[k][1];
                n->tags[n->ntags++].v = strdup(value);
            }
}

static long find_game(const tex_reader *r, const char *id)
{
    for (size_t k = r->ngames; k-- > 0;)
        if (r->games[k].id && strcmp(r->games[k].id, id) == 0)
            return (long)k;
    return -1;
}

/* moveid "12b" / "3w": the move number and side of the first move. */
static void apply_moveid(tpos *t, const char *moveid, int movenr, const char *player)
{
    int full = moveid ? atoi(moveid) : movenr;
    if (full > 0)
        t->full = full;
    char side = 0;
    if (moveid && *moveid) {
        side = moveid[strlen(moveid) - 1];
    } else if (player)
        side = player[0];
    if (side == 'w' || side == 'b') {
        char fen[CHESS_FEN_BUFSIZE];
        chess_pos_to_fen(&t->p, fen, sizeof fen);
        char *sp = strchr(fen, ' ');
        if (sp && (sp[1] == 'w' || sp[1] == 'b') && sp[1] != side) {
            sp[1] = side;
            char err[160];
            tpos u;
            if (chess_pos_from_fen(&u.p, fen, err, sizeof err))
                t->p = u.p;
        }
    }
}

static void cmd_newchessgame(tex_reader *r, size_t i, const args *a, bool resume)
{
    newgame_keys n;
    memset(&n, 0, sizeof n);
    /* pieces are added to the initial position unless a set... key clears it */
    for (int f = 0; f < 8; f++) {
        n.board[f] = "RNBQKBNR"[f];
        n.board[8 + f] = 'P';
        n.board[48 + f] = 'p';
        n.board[56 + f] = "rnbqkbnr"[f];
    }
    if (a->has_opt) {
        char *s = text_of(r, a->ob, a->oe);
        if (s)
            each_key(r, s, newgame_key, &n);
        free(s);
    }
    uint64_t off = r->tok[i].off;
    tpos start;
    bool custom = false;
    tpos_start(&start);
    long base = -1;
    if (resume) {
        base = n.id ? find_game(r, n.id) : r->cur;
        if (base < 0) {
            goto done;
        }
        if (!n.moveid && n.movenr == 0) {
            r->cur = base;   /* go on with it */
            goto done;
        }
    } else if (n.newvar) {
        base = find_game(r, n.newvar);
    }
    if (base >= 0) {
        tex_game *b = &r->games[base];
        size_t k = b->npos - 1;
        if (resume) {
            /* the position before the move named by moveid */
            for (k = 0; k + 1 < b->npos; k++) {
                int full = n.moveid ? atoi(n.moveid) : n.movenr;
                bool black = n.moveid && n.moveid[strlen(n.moveid) - 1] == 'b';
                if (b->pos[k].full == full &&
                    (chess_pos_side(&b->pos[k].p) == CHESS_BLACK) == black)
                    break;
            }
        } else if (k > 0)
            k--;   /* newvar: before the last move */
        start = b->pos[k];
        custom = true;
    } else if (n.setfen && strchr(n.setfen, '\\')) {
        custom = false;   /* a FEN TeX computes ("\xskakget{nextfen}"): not known here */
    } else if (n.setfen) {
        if (!tpos_fen(&start, n.setfen)) {
            tex_game *g = game_for_moves(r, off);
            if (g)
                add_finding(r, g, "bad-fen", REC_ERROR, off, _("setfen '%.60s' is not a FEN"),
                            n.setfen);
            tpos_start(&start);
        } else
            custom = true;
        start.full = 1;   /* xskak: a setfen's number does not set the counter */
        apply_moveid(&start, n.moveid, n.movenr, n.player);
    } else if (n.pieces) {
        char fen[CHESS_FEN_BUFSIZE];
        size_t p = 0;
        for (int rank = 7; rank >= 0; rank--) {
            int empty = 0;
            for (int file = 0; file < 8; file++) {
                char c = n.board[rank * 8 + file];
                if (!c) {
                    empty++;
                    continue;
                }
                if (empty)
                    fen[p++] = (char)('0' + empty);
                empty = 0;
                fen[p++] = c;
            }
            if (empty)
                fen[p++] = (char)('0' + empty);
            if (rank)
                fen[p++] = '/';
        }
        snprintf(fen + p, sizeof fen - p, " w - - 0 1");
        if (tpos_fen(&start, fen))
            custom = true;
        else
            tpos_start(&start);
        apply_moveid(&start, n.moveid, n.movenr, n.player);
    } else if (n.moveid || n.movenr || n.player) {
        apply_moveid(&start, n.moveid, n.movenr, n.player);
        custom = true;
    }
    tex_game *g = new_game(r, off, &start, custom);
    if (g) {
        g->id = n.id ? strdup(n.id) : NULL;
        for (int k = 0; k < n.ntags; k++)
            if (n.tags[k].v) {
                set_tag(r, g, n.tags[k].k, n.tags[k].v, strlen(n.tags[k].v));
                if (strcmp(n.tags[k].k, "Result") == 0) {
                    free(g->result);
                    g->result = strdup(n.tags[k].v);
                }
            }
    }
done:
    free(n.id);
    free(n.setfen);
    free(n.moveid);
    free(n.newvar);
    free(n.player);
    for (int k = 0; k < n.ntags; k++)
        free(n.tags[k].v);
}

/* A diagram to compare with any position of g's main line once it is read. */
static void add_diagram(tex_reader *r, tex_game *g, const char *fen, uint64_t off)
{
    void *d = realloc(g->diagrams, (g->ndiagrams + 1) * sizeof *g->diagrams);
    if (!d) {
        r->oom = true;
        return;
    }
    g->diagrams = d;
    g->diagrams[g->ndiagrams].fen = strdup(fen);
    g->diagrams[g->ndiagrams++].off = off;
}

/* A stated diagram: compared with the end of the current game. */
static void check_diagram(tex_reader *r, const char *fen, uint64_t off, const char *what)
{
    tex_game *g = cur_game(r);
    if (!g || g->npos < 2 || g->broken)
        return;
    char now[CHESS_FEN_BUFSIZE + 8];
    tpos_to_fen(game_end(g), now, sizeof now);
    if (!same_diagram(fen, now))
        add_finding(r, g, "diagram-mismatch", REC_WARNING, off,
                    _("%s shows %.90s but the game so far gives %.90s"), what, fen, now);
}

static void cmd_fenboard(tex_reader *r, size_t i, const args *a)
{
    char *fen = text_of(r, a->ab, a->ae);
    if (!fen)
        return;
    uint64_t off = r->tok[i].off;
    /* skak sets the position: not compared with what came before (books put the
     * diagram of the next section first); a \fenboard game that gets no moves before
     * \newgame is that section's diagram, see cmd_newgame */
    tpos start;
    if (!tpos_fen(&start, fen)) {
        tex_game *g = game_for_moves(r, off);
        if (g)
            add_finding(r, g, "bad-fen", REC_ERROR, off, _("\\fenboard{%.60s} is not a FEN"), fen);
    } else
        new_game(r, off, &start, true);
    free(fen);
}

/* \newgame right after a \fenboard that got no moves: the board was the diagram of
 * the section that starts here, checked against its main line at the end. */
static void cmd_newgame(tex_reader *r, uint64_t off)
{
    tex_game *prev = cur_game(r);
    char fen[CHESS_FEN_BUFSIZE + 8];
    uint64_t at = 0;
    bool carry = prev && prev->custom_start && prev->main.n == 0 && prev->nvars == 0 &&
                 prev->nfinds == 0;
    if (carry) {
        tpos_to_fen(&prev->start, fen, sizeof fen);
        at = prev->cmd_off;
    }
    tex_game *g = new_game(r, off, NULL, false);
    if (g && carry)
        add_diagram(r, g, fen, at);
}

static void cmd_chessboard(tex_reader *r, size_t i, const args *a)
{
    if (!a->has_opt)
        return;
    char *s = text_of(r, a->ob, a->oe);
    if (!s)
        return;
    char *k = strstr(s, "setfen");
    if (k) {
        k += 6;
        while (*k == ' ' || *k == '=')
            k++;
        bool braced = *k == '{';
        if (braced)
            k++;
        size_t n = strcspn(k, braced ? "}" : ",]");
        k[n] = '\0';
        if (!strchr(k, '\\'))   /* "setfen=\xskakget{nextfen}": a value TeX computes */
            check_diagram(r, k, r->tok[i].off, "\\chessboard[setfen=...]");
    }
    free(s);
}

static void cmd_language(tex_reader *r, const args *a, bool define, size_t i)
{
    if (define) {
        /* \newskaklanguage{name}{letters}: two braced arguments */
        char *name = a->has_arg ? text_of(r, a->ab, a->ae) : NULL;
        size_t k = skip_space(r, a->ae + 1);
        if (name && k < r->ntok && r->tok[k].kind == TEX_TOK_LBRACE && r->nlangs < 16) {
            size_t e = group_end(r, k);
            char *letters = text_of(r, k + 1, e);
            if (letters && strlen(letters) >= 6) {
                snprintf(r->langs[r->nlangs].name, sizeof r->langs[0].name, "%s", name);
                memcpy(r->langs[r->nlangs].letters, letters, 6);
                r->langs[r->nlangs].letters[6] = '\0';
                r->nlangs++;
            }
            free(letters);
        }
        free(name);
        return;
    }
    (void)i;
    char *name = a->has_opt ? text_of(r, a->ob, a->oe) : NULL;
    if (!name)
        return;
    for (size_t k = r->nlangs; k-- > 0;)
        if (strcmp(r->langs[k].name, name) == 0) {
            memcpy(r->letters, r->langs[k].letters, 7);
            break;
        }
    free(name);
}

static void cmd_storegame(tex_reader *r, const args *a, bool store, uint64_t off)
{
    char *name = a->has_arg ? text_of(r, a->ab, a->ae) : NULL;
    if (!name)
        return;
    if (store) {
        tex_game *g = cur_game(r);
        snapshot *s = realloc(r->snaps, (r->nsnaps + 1) * sizeof *s);
        if (g && s) {
            r->snaps = s;
            s[r->nsnaps].name = name;
            s[r->nsnaps].at = *game_end(g);
            r->nsnaps++;
            return;
        }
        if (!s)
            r->oom = true;
    } else {
        for (size_t k = r->nsnaps; k-- > 0;)
            if (strcmp(r->snaps[k].name, name) == 0) {
                new_game(r, off, &r->snaps[k].at, true);
                break;
            }
    }
    free(name);
}

/* ------------------------------------------------------------------ code */

/* Text TeX prints as code, not commands it runs: verbatim environments, \verb, and
 * \mintinline or \lstinline and the macros a document defines around them ("\mi{
 * \mainline{PGN}}" in a tutorial shows the command, it plays nothing). */
static const char *const verbatim_envs[] = {"verbatim", "verbatim*", "Verbatim", "BVerbatim",
                                            "LVerbatim", "minted", "lstlisting", "comment",
                                            NULL};

/* The token after the code that starts at command i, or i when it is no code. */
static size_t skip_code(tex_reader *r, size_t i)
{
    if (tok_is(r, i, "\\begin")) {
        args a;
        read_args(r, i, true, &a);
        bool verb = false;
        for (int k = 0; verbatim_envs[k] && a.has_arg && !verb; k++)
            verb = group_text_is(r, a.ab, a.ae, verbatim_envs[k]);
        if (!verb)
            return i;
        char name[32];
        snprintf(name, sizeof name, "%.*s", (int)r->tok[a.ab].len, r->doc + r->tok[a.ab].off);
        for (size_t k = a.ae + 1; k < r->ntok; k++)
            if (tok_is(r, k, "\\end")) {
                args e;
                size_t next = read_args(r, k, true, &e);
                if (e.has_arg && group_text_is(r, e.ab, e.ae, name))
                    return next;
            }
        return r->ntok - 1;
    }
    bool verb = tok_is(r, i, "\\verb") || tok_is(r, i, "\\verb*") || tok_is(r, i, "\\lstinline");
    bool mint = tok_is(r, i, "\\mintinline");
    bool user = false;
    for (size_t k = 0; k < r->ncode && !verb && !mint && !user; k++)
        user = tok_is(r, i, r->code_macros[k]);
    if (!verb && !mint && !user)
        return i;
    size_t k = i + 1;
    if (mint) {   /* the language first */
        args a;
        size_t next = read_args(r, i, true, &a);
        k = a.has_arg ? next : k;
    }
    if (k < r->ntok && r->tok[k].kind == TEX_TOK_LBRACE)
        return group_end(r, k) + 1;
    if (user || k >= r->ntok)
        return i;
    /* \verb|...|: up to the same character again */
    uint64_t from = r->tok[k].off;
    char delim = r->doc[from];
    const char *end = memchr(r->doc + from + 1, delim, r->m.len - from - 1);
    if (!end)
        return i;
    uint64_t stop = (uint64_t)(end - r->doc) + 1;
    while (k < r->ntok && r->tok[k].off < stop)
        k++;
    return k;
}

/* "\newcommand{\mi}[1]{\mintinline{latex}{#1}}": \mi shows code too. */
static void note_code_macro(tex_reader *r, size_t i)
{
    if (!(tok_is(r, i, "\\newcommand") || tok_is(r, i, "\\renewcommand") ||
          tok_is(r, i, "\\providecommand")) || r->ncode >= 8)
        return;
    size_t k = skip_space(r, i + 1);
    size_t name = k;
    if (k < r->ntok && r->tok[k].kind == TEX_TOK_LBRACE)
        name = k + 1;
    if (name >= r->ntok || r->tok[name].kind != TEX_TOK_CMD || r->tok[name].len >= 32)
        return;
    size_t body = name + 1 + (name > k);
    for (int opt = 0; opt < 2; opt++) {   /* [1] and [default] */
        body = skip_space(r, body);
        if (body < r->ntok && r->tok[body].kind == TEX_TOK_LBRACK)
            body = group_end(r, body) + 1;
    }
    body = skip_space(r, body);
    if (body >= r->ntok || r->tok[body].kind != TEX_TOK_LBRACE)
        return;
    size_t e = group_end(r, body);
    for (size_t q = body + 1; q < e; q++)
        if (tok_is(r, q, "\\mintinline") || tok_is(r, q, "\\verb") || tok_is(r, q, "\\lstinline")) {
            snprintf(r->code_macros[r->ncode++], 32, "%.*s", (int)r->tok[name].len,
                     r->doc + r->tok[name].off);
            return;
        }
}

static void scan_document(tex_reader *r)
{
    for (size_t i = 0; i < r->ntok && !r->oom; i++) {
        if (r->tok[i].kind == TEX_TOK_CMD) {
            note_code_macro(r, i);
            size_t after = skip_code(r, i);
            if (after != i) {
                for (size_t k = i + 1; k < after && r->trace; k++)
                    if (is_mainline(r, k) || tok_is(r, k, "\\variation") ||
                        tok_is(r, k, "\\variation*") || tok_is(r, k, "\\movecomment"))
                        trace(r, r->tok[k].off, k, "code");   /* shown, not played */
                i = after - 1;
                continue;
            }
        }
        const tex_token_at *t = &r->tok[i];
        if (t->kind == TEX_TOK_COMMENT) {
            if (t->len > 5 && memcmp(r->doc + t->off, "%FEN@", 5) == 0) {
                /* theory-of-chess: the diagram of the section's main line */
                tex_game *g = game_for_moves(r, t->off);
                char *fen = dup_n(r->doc + t->off + 5, t->len - 5);
                if (g && fen)
                    add_diagram(r, g, fen, t->off);
                free(fen);
            } else
                comment_line(r, i);
            continue;
        }
        if (t->kind != TEX_TOK_CMD)
            continue;
        args a;
        if (tok_is(r, i, "\\mainline") || tok_is(r, i, "\\hidemoves") ||
            tok_is(r, i, "\\mainline*") || tok_is(r, i, "\\hidemoves*")) {
            size_t next = read_args(r, i, true, &a);
            if (a.has_arg)
                cmd_mainline(r, i, &a);
            i = next - 1;
        } else if (tok_is(r, i, "\\variation") || tok_is(r, i, "\\variation*") ||
                   tok_is(r, i, "\\variationcurrent") ||
                   tok_is(r, i, "\\continuevariationcurrent")) {
            size_t next = read_args(r, i, true, &a);
            if (a.has_arg)
                cmd_variation(r, i, &a, false);
            i = next - 1;
        } else if (tok_is(r, i, "\\movecomment")) {
            /* skak prints its moves without playing them: a variation (pgn2ltx writes
             * a game's "( ... )" there) placed like xskak's */
            size_t next = read_args(r, i, true, &a);
            if (a.has_arg)
                cmd_variation(r, i, &a, true);
            i = next - 1;
        } else if (tok_is(r, i, "\\begin") && begins_cchess(r, i, &a)) {
            i = cmd_cchess(r, i, a.ae + 1) - 1;
        } else if ((tok_is(r, i, "\\move") || tok_is(r, i, "\\ply")) && !r->xq) {
            i = cmd_coordinate(r, i, tok_is(r, i, "\\move") ? 2 : 1);
        } else if (sym_piece(r, i)) {
            i = cmd_sym_prose(r, i);
        } else if (tok_is(r, i, "\\wmove") || tok_is(r, i, "\\bmove")) {
            size_t next = read_args(r, i, true, &a);
            if (a.has_arg && a.ae > a.ab)
                cmd_print_move(r, i, &a, tok_is(r, i, "\\wmove"));
            i = next - 1;
        } else if (tok_is(r, i, "\\newgame")) {
            cmd_newgame(r, t->off);
        } else if (tok_is(r, i, "\\newchessgame") || tok_is(r, i, "\\resumechessgame")) {
            size_t next = read_args(r, i, false, &a);
            cmd_newchessgame(r, i, &a, tok_is(r, i, "\\resumechessgame"));
            i = next - 1;
        } else if (tok_is(r, i, "\\fenboard")) {
            size_t next = read_args(r, i, true, &a);
            if (a.has_arg)
                cmd_fenboard(r, i, &a);
            i = next - 1;
        } else if (tok_is(r, i, "\\chessboard")) {
            size_t next = read_args(r, i, false, &a);
            cmd_chessboard(r, i, &a);
            i = next - 1;
        } else if (tok_is(r, i, "\\skaklanguage")) {
            size_t next = read_args(r, i, false, &a);
            cmd_language(r, &a, false, i);
            i = next - 1;
        } else if (tok_is(r, i, "\\newskaklanguage")) {
            read_args(r, i, true, &a);
            if (a.has_arg)
                cmd_language(r, &a, true, i);
        } else if (tok_is(r, i, "\\storegame") || tok_is(r, i, "\\restoregame")) {
            size_t next = read_args(r, i, true, &a);
            cmd_storegame(r, &a, tok_is(r, i, "\\storegame"), t->off);
            i = next - 1;
        } else if (tok_is(r, i, "\\usepackage") || tok_is(r, i, "\\RequirePackage")) {
            size_t next = read_args(r, i, true, &a);
            char *pk = a.has_arg ? text_of(r, a.ab, a.ae) : NULL;
            if (pk && strstr(pk, "xskak"))
                r->skak = false;
            else if (pk && (strcmp(pk, "xq") == 0 || strstr(pk, "chinesechess")))
                r->xq = true;   /* xiangqi: its \move is not chess.sty's */
            else if (pk && (strcmp(pk, "skak") == 0 || strstr(pk, "texmate")))
                r->skak = true;
            free(pk);
            i = next - 1;
        }
    }
    /* %FEN@ diagrams: any position of the main line */
    for (size_t k = 0; k < r->ngames; k++) {
        tex_game *g = &r->games[k];
        for (size_t d = 0; d < g->ndiagrams; d++) {
            bool found = false;
            char fen[CHESS_FEN_BUFSIZE + 8];
            for (size_t p = 0; p < g->npos && !found; p++) {
                tpos_to_fen(&g->pos[p], fen, sizeof fen);
                found = same_diagram(fen, g->diagrams[d].fen);
            }
            if (!found && !g->broken && g->npos > 1) {
                tpos_to_fen(game_end(g), fen, sizeof fen);
                add_finding(r, g, "diagram-mismatch", REC_WARNING, g->diagrams[d].off,
                            _("the diagram %.90s is no position of the main line (its "
                            "end is %.90s)"),
                            g->diagrams[d].fen, fen);
            }
        }
    }
}

/* ------------------------------------------------------------------ PGN out */

static void out_str(tex_reader *r, const char *s)
{
    doc_map_puts(&r->m, s);
}

/* Text that stands for document bytes at doc (len of them). */
static void out_mapped(tex_reader *r, const char *s, uint64_t doc, uint32_t len)
{
    doc_map_put_mapped(&r->m, s, strlen(s), doc, len);
}

static void out_items(tex_reader *r, const tex_seq *s, const tex_game *g, bool main_line)
{
    size_t ply = 0;
    for (size_t i = 0; i < s->n; i++) {
        const tex_item *it = &s->items[i];
        doc_map_put(&r->m, " ", 1);
        if (it->kind == IT_COMMENT) {
            out_mapped(r, "{", it->off, it->len);
            out_str(r, it->text);
            out_str(r, "}");
        } else
            out_mapped(r, it->text, it->off, it->len);
        if (it->kind != IT_MOVE || !main_line)
            continue;
        /* variations that are alternatives to this move */
        for (size_t k = 0; k < g->nvars; k++)
            if (g->vars[k].where == (int)ply) {
                out_str(r, " (");
                out_items(r, &g->vars[k].seq, g, false);
                out_str(r, " )");
            }
        ply++;
    }
}

static void out_tag(tex_reader *r, const char *name, const char *value)
{
    out_str(r, "[");
    out_str(r, name);
    out_str(r, " \"");
    for (const char *c = value; *c; c++) {
        if (*c == '"' || *c == '\\')
            doc_map_put(&r->m, "\\", 1);
        doc_map_put(&r->m, c, 1);
    }
    out_str(r, "\"]\n");
}

static void write_pgn(tex_reader *r, const output *o)
{
    const tex_game *g = &r->games[o->game];
    doc_map_reset(&r->m);
    out_mapped(r, "", o->var >= 0 ? g->vars[o->var].cmd_off : g->cmd_off, 1);
    char fen[CHESS_FEN_BUFSIZE + 8];
    if (o->var >= 0) {
        const tex_var *v = &g->vars[o->var];
        tpos_to_fen(&v->start, fen, sizeof fen);
        out_tag(r, "SetUp", "1");
        out_tag(r, "FEN", fen);
        out_str(r, "\n");
        out_items(r, &v->seq, g, false);
        out_str(r, " *\n");
        return;
    }
    for (size_t k = 0; k < g->ntags; k++)
        if (g->tags[k].value)
            out_tag(r, g->tags[k].name, g->tags[k].value);
    if (g->xiangqi) {
        out_tag(r, "SetUp", "1");
        out_tag(r, "FEN", g->xq_fen);
    } else if (g->custom_start) {
        tpos_to_fen(&g->start, fen, sizeof fen);
        out_tag(r, "SetUp", "1");
        out_tag(r, "FEN", fen);
    }
    out_str(r, "\n");
    out_items(r, &g->main, g, true);
    out_str(r, " ");
    out_str(r, g->result ? g->result : "*");
    out_str(r, "\n");
}

/* ------------------------------------------------------------------ the reader */

static bool load(tex_reader *r)
{
    if (!doc_map_load(&r->m, r->in)) {
        snprintf(r->error, sizeof r->error, "%s", r->m.error);
        return false;
    }
    r->doc = r->m.doc;
    r->tok = tex_tokenize(r->doc, r->m.len, &r->ntok);
    if (!r->tok)
        return false;
    scan_document(r);
    if (r->oom)
        return false;
    /* each game, then its variations that are games of their own */
    for (size_t k = 0; k < r->ngames; k++) {
        tex_game *g = &r->games[k];
        /* a PGN variation is an alternative to a main-line move that exists */
        for (size_t v = 0; v < g->nvars; v++) {
            tex_var *x = &g->vars[v];
            if (x->where != -1)
                continue;
            if (x->main_ply >= 0 && (size_t)x->main_ply < g->npos - 1)
                x->where = (int)x->main_ply;
            trace(r, x->cmd_off, x->tok,
                  x->where >= 0 ? (x->full ? "placed" : "placed-error")
                                : (x->full ? "own-game" : "own-game-error"));
        }
        size_t outs = 1;
        for (size_t v = 0; v < g->nvars; v++)
            outs += g->vars[v].where == -1;
        output *o = realloc(r->outs, (r->nouts + outs) * sizeof *o);
        if (!o)
            return false;
        r->outs = o;
        if (g->main_moves > 0 || g->nfinds > 0)
            o[r->nouts++] = (output){k, -1};
        for (size_t v = 0; v < g->nvars; v++)
            if (g->vars[v].where == -1)
                o[r->nouts++] = (output){k, (long)v};
    }
    return true;
}

tex_reader *tex_reader_open(FILE *in, const char *name)
{
    tex_reader *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->in = in;
    r->name = name;
    r->cur = -1;
    memcpy(r->letters, "KQRBNP", 7);
    static const char *builtin[][2] = {{"english", "KQRBNP"}, {"german", "KDTLSB"},
                                       {"danish", "KDTLSB"},  {"french", "RDTFCP"},
                                       {"dutch", "KDTLPO"}};
    for (size_t k = 0; k < sizeof builtin / sizeof builtin[0]; k++) {
        snprintf(r->langs[k].name, sizeof r->langs[k].name, "%s", builtin[k][0]);
        memcpy(r->langs[k].letters, builtin[k][1], 7);
        r->nlangs++;
    }
    chess_init();
    return r;
}

void tex_reader_trace(tex_reader *r, FILE *t)
{
    r->trace = t;
}

int tex_reader_next(tex_reader *r, rec_game *g, arena *a)
{
    if (!r->loaded) {
        r->loaded = true;
        if (!load(r)) {
            if (!r->error[0])
                snprintf(r->error, sizeof r->error, _("out of memory reading the document"));
            r->nouts = 0;
            return -1;
        }
    }
    if (r->next_out >= r->nouts)
        return 0;
    const output *o = &r->outs[r->next_out++];
    write_pgn(r, o);
    if (r->oom || r->m.oom) {
        snprintf(r->error, sizeof r->error, _("out of memory"));
        return -1;
    }
    FILE *mem = fmemopen(r->m.pgn, r->m.pgn_len, "r");
    pgn_reader *p = mem ? pgn_reader_open(mem, r->name) : NULL;
    int got = p ? pgn_reader_next(p, g, a) : -1;
    if (p)
        pgn_reader_close(p);
    if (mem)
        fclose(mem);
    if (got != 1) {
        snprintf(r->error, sizeof r->error, _("could not read a game back"));
        return -1;
    }
    doc_map_remap(&r->m, g);
    if (o->var >= 0 || !r->games[o->game].result) {
        /* a book states no result: "*" was only there for the PGN reader */
        g->result = NULL;
    }
    g->index = r->next_out;
    const tex_game *tg = &r->games[o->game];
    if (tg->xiangqi)
        g->kind = REC_XIANGQI;
    if (o->var < 0)
        for (size_t k = 0; k < tg->nfinds; k++) {
            const tex_finding *f = &tg->finds[k];
            rec_finding *x = rec_game_add_finding(g, f->code, f->sev,
                                                  doc_map_span(&r->m, f->off), "%s", f->msg);
            if (x && f->repair) {
                x->move_text = arena_strdup(g->arena, f->repair->written);
                x->fen = arena_strdup(g->arena, f->repair->fen);
                x->ply = f->repair->ply;
                fixit_attach(g, x, &f->repair->fr, NULL, f->repair->len);
            }
        }
    return 1;
}

/* English SAN back into letters (a copy in the game's arena). */
static const char *in_letters(rec_game *g, const char *letters, const char *san)
{
    char *c = arena_strdup(g->arena, san);
    if (c)
        untranslate(letters, c);
    return c ? c : san;
}

void tex_reader_name_commands(const tex_reader *r, rec_game *g)
{
    /* the referee read English letters: its suggestions and fixes go back into the
     * book's (a fix then matches the document's bytes, or is dropped by fix) */
    const tex_game *tg = r->next_out > 0 ? &r->games[r->outs[r->next_out - 1].game] : NULL;
    if (tg && tg->letters[0] && strcmp(tg->letters, "KQRBNP") != 0)
        for (rec_finding *f = g->findings; f; f = f->next) {
            bool ours = false;   /* the reader's own repairs are in the book's letters */
            for (size_t k = 0; k < tg->nfinds && !ours; k++)
                ours = tg->finds[k].repair && tg->finds[k].off == f->where.offset;
            if (ours)
                continue;
            for (uint32_t k = 0; k < f->suggestion_count; k++)
                f->suggestions[k] = in_letters(g, tg->letters, f->suggestions[k]);
            for (rec_fix *e = f->fix; e; e = e->next) {
                e->before = in_letters(g, tg->letters, e->before);
                e->text = in_letters(g, tg->letters, e->text);
            }
        }
    for (rec_finding *f = g->findings; f; f = f->next) {
        size_t lo = 0, hi = r->ncalls;
        while (lo < hi) {   /* the last call that starts at or before the finding */
            size_t mid = (lo + hi) / 2;
            if (r->calls[mid].from <= f->where.offset)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == 0 || f->where.offset >= r->calls[lo - 1].to || !f->message)
            continue;
        const tex_token_at *t = &r->tok[r->calls[lo - 1].tok];
        size_t n = strlen(f->message);
        char *m = arena_alloc_uninit(g->arena, n + t->len + 8, 1);
        if (!m)
            continue;
        snprintf(m, n + t->len + 8, _("%s (in %.*s)"), f->message, (int)t->len, r->doc + t->off);
        f->message = m;
    }
}

const char *tex_reader_error(const tex_reader *r)
{
    return r->error;
}

static void free_seq(tex_seq *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->items[i].text);
    free(s->items);
}

void tex_reader_close(tex_reader *r)
{
    if (!r)
        return;
    for (size_t k = 0; k < r->ngames; k++) {
        tex_game *g = &r->games[k];
        free(g->id);
        for (size_t t = 0; t < g->ntags; t++)
            free(g->tags[t].value);
        free(g->tags);
        free_seq(&g->main);
        free(g->pos);
        for (size_t v = 0; v < g->nvars; v++) {
            free_seq(&g->vars[v].seq);
            free(g->vars[v].pos);
        }
        free(g->vars);
        for (size_t f = 0; f < g->nfinds; f++)
            free(g->finds[f].repair);
        free(g->finds);
        free(g->result);
        for (size_t d = 0; d < g->ndiagrams; d++)
            free(g->diagrams[d].fen);
        free(g->diagrams);
    }
    free(r->games);
    for (size_t k = 0; k < r->nsnaps; k++)
        free(r->snaps[k].name);
    free(r->snaps);
    free(r->outs);
    free(r->tok);
    free(r->calls);
    doc_map_free(&r->m);
    free(r);
}
