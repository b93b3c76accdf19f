/* tex_reader.c: the syntax of LaTeX documents with chess (see tex_reader.h). */
#include <config.h>

#include "tex_reader.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static char *dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

/* ------------------------------------------------------------------ the document */

bool tex_doc_load(tex_doc *d, FILE *in)
{
    if (!doc_map_load(&d->m, in))
        return false;
    d->doc = d->m.doc;
    d->tok = tex_tokenize(d->doc, d->m.len, &d->ntok);
    if (!d->tok)
        d->oom = true;
    return d->tok != NULL;
}

void tex_doc_free(tex_doc *d)
{
    free(d->tok);
    doc_map_free(&d->m);
}

bool tex_doc_comment_view(const tex_doc *d, size_t ci, tex_doc *view)
{
    const tex_token_at *c = &d->tok[ci];
    *view = *d;
    view->tok = tex_tokenize(d->doc + c->off + 1, c->len - 1, &view->ntok);
    if (!view->tok)
        return false;
    for (size_t k = 0; k < view->ntok; k++)
        view->tok[k].off += c->off + 1;
    return true;
}

void tex_doc_view_free(tex_doc *view)
{
    free(view->tok);
    view->tok = NULL;
}

/* ------------------------------------------------------------------ tokens */

bool tex_tok_is(const tex_doc *d, size_t i, const char *cmd)
{
    const tex_token_at *t = &d->tok[i];
    size_t n = strlen(cmd);
    return t->kind == TEX_TOK_CMD && t->len == n && memcmp(d->doc + t->off, cmd, n) == 0;
}

size_t tex_skip_space(const tex_doc *d, size_t i)
{
    while (i < d->ntok && (d->tok[i].kind == TEX_TOK_SPACE || d->tok[i].kind == TEX_TOK_COMMENT))
        i++;
    return i;
}

/* A group opened at token i ('{' or '['): *end gets the index of its closer (or of
 * the end). Braces nest inside brackets and brackets inside brackets. */
size_t tex_group_end(const tex_doc *d, size_t i)
{
    int open = d->tok[i].kind, close = open == TEX_TOK_LBRACE ? TEX_TOK_RBRACE : TEX_TOK_RBRACK;
    int depth = 0, braces = 0;
    for (size_t k = i; k < d->ntok; k++) {
        int kind = d->tok[k].kind;
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
    return d->ntok - 1;
}

size_t tex_read_args(const tex_doc *d, size_t i, bool want_arg, tex_args *a)
{
    memset(a, 0, sizeof *a);
    size_t k = tex_skip_space(d, i + 1);
    if (k < d->ntok && d->tok[k].kind == TEX_TOK_LBRACK) {
        size_t e = tex_group_end(d, k);
        a->has_opt = true;
        a->ob = k + 1;
        a->oe = e;
        i = e;
        k = tex_skip_space(d, e + 1);
    }
    if (want_arg && k < d->ntok && d->tok[k].kind == TEX_TOK_LBRACE) {
        size_t e = tex_group_end(d, k);
        a->has_arg = true;
        a->ab = k + 1;
        a->ae = e;
        return e + 1;
    }
    return i + 1;
}

/* Whether tokens b..e (exclusive) are the one word given. */
bool tex_group_text_is(const tex_doc *d, size_t b, size_t e, const char *word)
{
    size_t n = strlen(word);
    return e == b + 1 && d->tok[b].len == n && memcmp(d->doc + d->tok[b].off, word, n) == 0;
}

/* The document bytes of tokens b..e (exclusive), comments left out, into a string. */
char *tex_text_of(tex_doc *d, size_t b, size_t e)
{
    size_t n = 0;
    for (size_t k = b; k < e; k++)
        if (d->tok[k].kind != TEX_TOK_COMMENT)
            n += d->tok[k].len;
    char *s = malloc(n + 1);
    if (!s) {
        d->oom = true;
        return NULL;
    }
    n = 0;
    for (size_t k = b; k < e; k++)
        if (d->tok[k].kind != TEX_TOK_COMMENT) {
            memcpy(s + n, d->doc + d->tok[k].off, d->tok[k].len);
            n += d->tok[k].len;
        }
    s[n] = '\0';
    return s;
}

/* ------------------------------------------------------------------ move arguments */

static void push_item(tex_doc *d, move_run *s, const move_item *it)
{
    if (!move_run_push(s, it))
        d->oom = true;
}

/* Informator macros and what NAG each stands for (xskak-nagdef's table). */
static const struct { const char *cmd; int nag; } informator[] = {
    {"\\wbetter", 14},     {"\\bbetter", 15},    {"\\wupperhand", 16}, {"\\bupperhand", 17},
    {"\\wdecisive", 18},   {"\\bdecisive", 19},  {"\\equal", 10},      {"\\unclear", 13},
    {"\\compensation", 44}, {"\\withattack", 40}, {"\\withinit", 36},   {"\\counterplay", 132},
    {"\\zugzwang", 22},    {"\\withidea", 140},  {"\\onlymove", 8},    {"\\betteris", 142},
    {"\\novelty", 146},    {"\\doubled", 0},     {NULL, 0}};

/* Letters of the input language to English ones, in a move's text. */
void tex_translate(const char *letters, char *m)
{
    static const char english[] = "KQRBNP";
    if (strcmp(letters, english) == 0)
        return;
    for (char *c = m; *c; c++) {
        bool piece_place = c == m || c[-1] == '=' || c[-1] == '(' || c[-1] == '/';
        if (!piece_place || !isupper((unsigned char)*c))
            continue;
        const char *p = strchr(letters, *c);
        if (p)
            *c = english[p - letters];
    }
}

/* A text token inside a move argument: a move number, a move, or both ("12.Nf3"). */
static void split_text(tex_doc *d, move_run *s, const tex_move_sink *sink, uint64_t off,
                       const char *t, size_t n)
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
        move_item it = {MOVE_ITEM_NUM, off, (uint32_t)end, dup_n(t, end), (uint32_t)atoi(t),
                       dots >= 2 || ellipsis};
        push_item(d, s, &it);
        t += end;
        off += end;
        n -= end;
        if (n == 0)
            return;
    } else if (i == 0 && (dots >= 2 || (n == 3 && memcmp(t, "\xE2\x80\xA6", 3) == 0))) {
        /* "12. ..." : the dots belong to the number before */
        if (s->n > 0 && s->items[s->n - 1].kind == MOVE_ITEM_NUM && n == dots)
            s->items[s->n - 1].black = true;
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
        if (sink->result)
            sink->result(sink->ctx, t, n);
        return;
    }
    if (n >= 2 && t[0] == '$') {
        if (t[1] == 'd' || t[1] == 'D')
            return;   /* xskak's diagram request, not a NAG */
        move_item it = {MOVE_ITEM_NAG, off, (uint32_t)n, dup_n(t, n), 0, false};
        push_item(d, s, &it);
        return;
    }
    if (strcspn(t, "{}();[]\"<>") < n) {
        if (sink->not_a_move)
            sink->not_a_move(sink->ctx, off, t, n);
        return;
    }
    move_item it = {MOVE_ITEM_MOVE, off, (uint32_t)n, dup_n(t, n), 0, false};
    if (it.text)
        tex_translate(sink->letters, it.text);
    push_item(d, s, &it);
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
void tex_read_moves(tex_doc *d, size_t b, size_t e, move_run *s, const tex_move_sink *sink)
{
    for (size_t k = b; k < e; k++) {
        const tex_token_at *t = &d->tok[k];
        if (t->kind == TEX_TOK_TEXT) {
            /* a text run may end inside a word broken by nothing TeX sees, so glue
             * neighbouring text tokens (an escaped "\#" never occurs in a move) */
            size_t j = k;
            while (j + 1 < e && d->tok[j + 1].kind == TEX_TOK_TEXT &&
                   (d->doc[d->tok[j + 1].off] != '\\' ||
                    (d->tok[j + 1].len == 2 && d->doc[d->tok[j + 1].off + 1] == '#')))
                j++;
            char *m = tex_text_of(d, k, j + 1);
            if (m) {
                /* "Qxf7\#": the escape TeX needs for a mate sign */
                size_t w = 0;
                for (size_t q = 0; m[q]; q++)
                    if (!(m[q] == '\\' && m[q + 1] == '#'))
                        m[w++] = m[q];
                m[w] = '\0';
                split_text(d, s, sink, t->off, m, w);
                free(m);
            }
            k = j;
        } else if (t->kind == TEX_TOK_CMD) {
            if (tex_tok_is(d, k, "\\xskakcomment") || tex_tok_is(d, k, "\\movecomment")) {
                tex_args a;
                size_t next = tex_read_args(d, k, true, &a);
                if (a.has_arg) {
                    char *c = tex_text_of(d, a.ab, a.ae);
                    if (c) {
                        clean_comment(c);
                        move_item it = {MOVE_ITEM_COMMENT, t->off, (uint32_t)t->len, c, 0, false};
                        push_item(d, s, &it);
                    }
                }
                k = next - 1;
            } else if (tex_tok_is(d, k, "\\mate")) {
                continue;   /* '#' in beamer: the referee checks the mark anyway */
            } else {
                for (int m = 0; informator[m].cmd; m++)
                    if (tex_tok_is(d, k, informator[m].cmd) && informator[m].nag > 0) {
                        char buf[16];
                        snprintf(buf, sizeof buf, "$%d", informator[m].nag);
                        move_item it = {MOVE_ITEM_NAG, t->off, (uint32_t)t->len, dup_n(buf, strlen(buf)), 0,
                                       false};
                        push_item(d, s, &it);
                    }
            }
        }
    }
}


/* English letters back into the input language's, in a candidate's text. */
void tex_untranslate(const char *letters, char *m)
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

bool tex_starts_game(const tex_doc *d, size_t k)
{
    return tex_tok_is(d, k, "\\newgame") || tex_tok_is(d, k, "\\newchessgame") ||
           tex_tok_is(d, k, "\\resumechessgame") || tex_tok_is(d, k, "\\fenboard") ||
           tex_tok_is(d, k, "\\restoregame") || tex_tok_is(d, k, "\\loadgame");
}

bool tex_is_mainline(const tex_doc *d, size_t k)
{
    return tex_tok_is(d, k, "\\mainline") || tex_tok_is(d, k, "\\hidemoves") ||
           tex_tok_is(d, k, "\\mainline*") || tex_tok_is(d, k, "\\hidemoves*");
}


bool tex_is_square(const char *t)
{
    return t[0] >= 'a' && t[0] <= 'h' && t[1] >= '1' && t[1] <= '8';
}

/* "e2e4" or "e2-e4": a chess.sty coordinate move. */
bool tex_coordinate_move(const char *t, size_t n)
{
    size_t to = n == 5 && t[2] == '-' ? 3 : 2;
    return n == to + 2 && tex_is_square(t) && tex_is_square(t + to);
}


static bool move_like(const char *t)
{
    size_t n = strlen(t);
    if (n == 0 || n > 12 || strcspn(t, "(){}") < n)
        return false;
    if (strncmp(t, "O-O", 3) == 0 || strncmp(t, "0-0", 3) == 0)
        return true;
    for (size_t k = 0; k + 1 < n; k++)
        if (tex_is_square(t + k))
            return strspn(t, "KQRBNPDTLSCFAVHXMabcdefgh12345678x:+#!?=-") == n;
    return false;
}

/* \movecomment's argument: moves up to the first word that is none (a comment, or a
 * deeper variation in parentheses, as pgn2ltx writes them). */
void tex_trim_to_moves(move_run *q)
{
    for (size_t k = 0; k < q->n; k++)
        if ((q->items[k].kind == MOVE_ITEM_MOVE && !move_like(q->items[k].text)) ||
            (q->items[k].kind == MOVE_ITEM_COMMENT && k > 0)) {
            move_run_truncate(q, k);
            return;
        }
}


char tex_sym_piece(const tex_doc *d, size_t i)
{
    static const struct { const char *cmd; char letter; } syms[] = {
        {"\\symking", 'K'}, {"\\symqueen", 'Q'}, {"\\symrook", 'R'},   {"\\symbishop", 'B'},
        {"\\symknight", 'N'}, {"\\sympawn", 'P'}, {"\\king", 'K'},       {"\\queen", 'Q'},
        {"\\rook", 'R'},    {"\\bishop", 'B'},   {"\\knight", 'N'},    {"\\pawn", 'P'},
        {NULL, 0}};
    if (d->tok[i].kind != TEX_TOK_CMD)
        return 0;
    for (int k = 0; syms[k].cmd; k++)
        if (tex_tok_is(d, i, syms[k].cmd))
            return syms[k].letter;
    return 0;
}


size_t tex_brace_args(tex_doc *d, size_t i, int n, char **out)
{
    size_t k = i + 1;
    for (int a = 0; a < n; a++) {
        out[a] = NULL;
        k = tex_skip_space(d, k);
        if (k >= d->ntok || d->tok[k].kind != TEX_TOK_LBRACE)
            continue;
        size_t e = tex_group_end(d, k);
        out[a] = tex_text_of(d, k + 1, e);
        k = e + 1;
    }
    return k;
}

bool tex_begins_cchess(tex_doc *d, size_t i, tex_args *a)
{
    tex_read_args(d, i, true, a);
    if (!a->has_arg || !(tex_group_text_is(d, a->ab, a->ae, "setcchessman") ||
                         tex_group_text_is(d, a->ab, a->ae, "setcchessman*")))
        return false;
    size_t k = tex_skip_space(d, a->ae + 1);
    if (k < d->ntok && d->tok[k].kind == TEX_TOK_LBRACK)
        a->ae = tex_group_end(d, k);
    return true;
}


void tex_each_key(char *s, tex_key_fn fn, void *ctx)
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
        fn(k, val, ctx);
        *s = save;
    }
}

/* ------------------------------------------------------------------ code */

/* Text TeX prints as code, not commands it runs: verbatim environments, \verb, and
 * \mintinline or \lstinline and the macros a document defines around them ("\mi{
 * \mainline{PGN}}" in a tutorial shows the command, it plays nothing). */
static const char *const verbatim_envs[] = {"verbatim", "verbatim*", "Verbatim", "BVerbatim",
                                            "LVerbatim", "minted", "lstlisting", "comment",
                                            NULL};

/* The token after the code that starts at command i, or i when it is no code. */
size_t tex_skip_code(tex_doc *d, size_t i)
{
    if (tex_tok_is(d, i, "\\begin")) {
        tex_args a;
        tex_read_args(d, i, true, &a);
        bool verb = false;
        for (int k = 0; verbatim_envs[k] && a.has_arg && !verb; k++)
            verb = tex_group_text_is(d, a.ab, a.ae, verbatim_envs[k]);
        if (!verb)
            return i;
        char name[32];
        snprintf(name, sizeof name, "%.*s", (int)d->tok[a.ab].len, d->doc + d->tok[a.ab].off);
        for (size_t k = a.ae + 1; k < d->ntok; k++)
            if (tex_tok_is(d, k, "\\end")) {
                tex_args e;
                size_t next = tex_read_args(d, k, true, &e);
                if (e.has_arg && tex_group_text_is(d, e.ab, e.ae, name))
                    return next;
            }
        return d->ntok - 1;
    }
    bool verb = tex_tok_is(d, i, "\\verb") || tex_tok_is(d, i, "\\verb*") || tex_tok_is(d, i, "\\lstinline");
    bool mint = tex_tok_is(d, i, "\\mintinline");
    bool user = false;
    for (size_t k = 0; k < d->ncode && !verb && !mint && !user; k++)
        user = tex_tok_is(d, i, d->code_macros[k]);
    if (!verb && !mint && !user)
        return i;
    size_t k = i + 1;
    if (mint) {   /* the language first */
        tex_args a;
        size_t next = tex_read_args(d, i, true, &a);
        k = a.has_arg ? next : k;
    }
    if (k < d->ntok && d->tok[k].kind == TEX_TOK_LBRACE)
        return tex_group_end(d, k) + 1;
    if (user || k >= d->ntok)
        return i;
    /* \verb|...|: up to the same character again */
    uint64_t from = d->tok[k].off;
    char delim = d->doc[from];
    const char *end = memchr(d->doc + from + 1, delim, d->m.len - from - 1);
    if (!end)
        return i;
    uint64_t stop = (uint64_t)(end - d->doc) + 1;
    while (k < d->ntok && d->tok[k].off < stop)
        k++;
    return k;
}

/* "\newcommand{\mi}[1]{\mintinline{latex}{#1}}": \mi shows code too. */
void tex_note_code_macro(tex_doc *d, size_t i)
{
    if (!(tex_tok_is(d, i, "\\newcommand") || tex_tok_is(d, i, "\\renewcommand") ||
          tex_tok_is(d, i, "\\providecommand")) || d->ncode >= 8)
        return;
    size_t k = tex_skip_space(d, i + 1);
    size_t name = k;
    if (k < d->ntok && d->tok[k].kind == TEX_TOK_LBRACE)
        name = k + 1;
    if (name >= d->ntok || d->tok[name].kind != TEX_TOK_CMD || d->tok[name].len >= 32)
        return;
    size_t body = name + 1 + (name > k);
    for (int opt = 0; opt < 2; opt++) {   /* [1] and [default] */
        body = tex_skip_space(d, body);
        if (body < d->ntok && d->tok[body].kind == TEX_TOK_LBRACK)
            body = tex_group_end(d, body) + 1;
    }
    body = tex_skip_space(d, body);
    if (body >= d->ntok || d->tok[body].kind != TEX_TOK_LBRACE)
        return;
    size_t e = tex_group_end(d, body);
    for (size_t q = body + 1; q < e; q++)
        if (tex_tok_is(d, q, "\\mintinline") || tex_tok_is(d, q, "\\verb") || tex_tok_is(d, q, "\\lstinline")) {
            snprintf(d->code_macros[d->ncode++], 32, "%.*s", (int)d->tok[name].len,
                     d->doc + d->tok[name].off);
            return;
        }
}

bool tex_sym_move_at(const tex_doc *d, size_t i, tex_sym_move *out)
{
    char piece = tex_sym_piece(d, i);
    size_t k = i + 1;
    if (k + 1 < d->ntok && d->tok[k].kind == TEX_TOK_LBRACE && d->tok[k + 1].kind == TEX_TOK_RBRACE)
        k += 2;   /* "\symknight{}d4" */
    else if (k < d->ntok && d->tok[k].kind == TEX_TOK_SPACE && d->tok[k].len == 1)
        k++;
    if (!piece || k >= d->ntok || d->tok[k].kind != TEX_TOK_TEXT)
        return false;
    const char *t = d->doc + d->tok[k].off;
    size_t n = strspn(t, "abcdefgh12345678x+#=QRBN");
    if (n > d->tok[k].len)
        n = d->tok[k].len;
    if (n < 2 || n > 12)
        return false;
    snprintf(out->move, sizeof out->move, "%s%.*s", piece == 'P' ? "" : (char[]){piece, 0},
             (int)n, t);
    if (!tex_is_square(out->move + strlen(out->move) - 2) && !strpbrk(out->move + 1, "+#="))
        return false;   /* "\symknight s" or a bare file: not a move */
    out->last = k;
    out->square_off = d->tok[k].off;
    out->square_len = (int)n;
    /* the number and side written right before the macro: "12." "12..." */
    out->num = 0;
    out->side = -1;
    if (i > 0 && d->tok[i - 1].kind == TEX_TOK_TEXT) {
        const char *p = d->doc + d->tok[i - 1].off, *e = p + d->tok[i - 1].len;
        const char *dots = e;
        while (dots > p && dots[-1] == '.')
            dots--;
        const char *digits = dots;
        while (digits > p && isdigit((unsigned char)digits[-1]))
            digits--;
        if (digits < dots && e - dots >= 1) {
            out->num = atoi(digits);
            out->side = e - dots >= 3;
        }
    }
    return true;
}
