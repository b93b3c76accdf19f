/* wxf_writer.c: canonical WXF records. See wxf_writer.h. */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/xiangqi.h"
#include "notation/xq_notation.h"
#include "record/nag.h"
#include "referee/referee.h"
#include "record/textbuf.h"
#include "writer/wxf_writer.h"

#define ELLIPSIS "\xE2\x80\xA6"   /* U+2026, as the project's source writes "3…X9.1" */
#define KEY_WIDTH 8               /* PlayOK pads keys to column 9 */
#define KEY_MAX 32                /* the WXF reader's key: [A-Z][A-Z0-9_]{0,31} */

/* ------------------------------------------------------------ growable text */

typedef struct sbuf {
    char *p;
    size_t len, cap;
    bool failed;
} sbuf;

static void sb_add(sbuf *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    textbuf_reserve(&b->p, &b->cap, b->len + n + 1);
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

static void sb_str(sbuf *b, const char *s) { sb_add(b, s, strlen(s)); }

/* A word: a space before it unless it opens the text or follows "(". */
static void sb_word(sbuf *b, const char *s)
{
    if (b->len > 0 && b->p[b->len - 1] != '(' && b->p[b->len - 1] != ' ')
        sb_add(b, " ", 1);
    sb_str(b, s);
}

static const char *sb_text(const sbuf *b) { return b->p ? b->p : ""; }

/* ------------------------------------------------------------ NAG symbols */

const char *wxf_nag_symbol(int n)
{
    /* Only a symbol the reader maps back to the same number and does not take for a
     * move (it starts with a letter or digit: "N" is a move there). */
    const char *cand[2] = {nag_symbol(n), nag_symbol_ascii(n)};
    for (int i = 0; i < 2; i++) {
        const char *s = cand[i];
        if (s && !isalnum((unsigned char)s[0]) && nag_from_symbol(s, strlen(s)) == n)
            return s;
    }
    return NULL;
}

/* ------------------------------------------------------------ comment text */

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/* Comment text as written back: trimmed, each line right-trimmed (CR dropped), control
 * characters as spaces, and broken up where the WXF scanner would end the comment or
 * the record: "*" "/" -> "* /", "}END" -> "} END", a line starting with FORMAT gets a
 * space before it. With one_line, line breaks become spaces (inside variation text and
 * header values). Idempotent: its output is a fixed point. */
static void clean_text(sbuf *b, const char *text, bool one_line)
{
    const char *p = text;
    while (is_blank(*p))
        p++;
    size_t end = strlen(p);
    while (end > 0 && is_blank(p[end - 1]))
        end--;
    size_t line_start = b->len;
    size_t i = 0;
    while (i < end) {
        char c = p[i];
        if (c == '\n' || c == '\r') {
            /* right-trim the line, then one line break (CR LF, LF or a lone CR) */
            while (b->len > line_start && (b->p[b->len - 1] == ' ' || b->p[b->len - 1] == '\t'))
                b->p[--b->len] = '\0';
            if (c == '\r' && i + 1 < end && p[i + 1] == '\n')
                i++;
            i++;
            if (one_line) {
                sb_add(b, " ", 1);
                continue;
            }
            sb_add(b, "\n", 1);
            line_start = b->len;
            if (end - i >= 6 && memcmp(p + i, "FORMAT", 6) == 0 &&
                (i + 6 == end || is_blank(p[i + 6])))
                sb_add(b, " ", 1);
            continue;
        }
        if (c == '*' && i + 1 < end && p[i + 1] == '/') {
            sb_add(b, "* ", 2);
            i++;
            continue;
        }
        if (c == '}' && end - i >= 4 && memcmp(p + i, "}END", 4) == 0) {
            sb_add(b, "} ", 2);
            i++;
            continue;
        }
        if ((unsigned char)c < 0x20 || c == 0x7F)
            c = ' ';
        sb_add(b, &c, 1);
        i++;
    }
}

/* ------------------------------------------------------------ lines as text */

/* One line (variation) being written into comment text, with its position. */
typedef struct tframe {
    const rec_line *line;
    const rec_node *node;
    xq_pos pos;
    bool started;
    bool outer;          /* the variation the comment is for: no parentheses */
    bool raw;            /* not replayed: the text as written */
    bool opened_raw;     /* this frame opened "{not replayed:": close it */
    struct tframe *below;
} tframe;

typedef struct twriter {
    sbuf *b;
    const wxf_write_options *o;
    arena *a;
    tframe *top;
    bool need_number;
} twriter;

static void t_push(twriter *t, const rec_line *line, const rec_node *from, const xq_pos *pos,
                   bool outer, bool raw)
{
    tframe *f = arena_alloc(t->a, sizeof *f);
    memset(f, 0, sizeof *f);
    f->line = line;
    f->node = from;
    if (pos)
        f->pos = *pos;
    f->outer = outer;
    f->raw = raw;
    f->below = t->top;
    t->top = f;
}

static void t_comments(twriter *t, const rec_comment *c, bool raw)
{
    if (t->o->strip_comments)
        return;
    for (; c; c = c->next) {
        sb_word(t->b, raw ? "[" : "{");
        size_t at = t->b->len;
        clean_text(t->b, c->text, true);
        /* the brackets must stay balanced for the next reader */
        for (size_t i = at; i < t->b->len; i++) {
            char *ch = &t->b->p[i];
            if (*ch == '{' || *ch == '[')
                *ch = '(';
            else if (*ch == '}' || *ch == ']')
                *ch = ')';
        }
        sb_str(t->b, raw ? "]" : "}");
        t->need_number = true;
    }
}

static void t_nags(twriter *t, const rec_node *n)
{
    if (t->o->strip_nags)
        return;
    for (uint32_t i = 0; i < n->nag_count; i++) {
        const char *sym = wxf_nag_symbol(n->nags[i]);
        char buf[8];
        if (!sym) {
            snprintf(buf, sizeof buf, "$%u", n->nags[i]);
            sym = buf;
        }
        sb_word(t->b, sym);
        t->need_number = true;   /* prose to the referee: the next move needs its number */
    }
}

static void t_variations(twriter *t, const rec_node *n, const xq_pos *pos, bool raw)
{
    if (t->o->strip_variations || !n->variations)
        return;
    int count = 0;
    for (const rec_line *v = n->variations; v; v = v->next)
        count++;
    const rec_line **all = arena_alloc(t->a, (size_t)count * sizeof *all);
    count = 0;
    for (const rec_line *v = n->variations; v; v = v->next)
        all[count++] = v;
    while (count-- > 0)
        t_push(t, all[count], all[count]->first, pos, false, raw);
    t->need_number = true;
}

/* The moves of a line from node `from` (at position pos) as comment text: the
 * variation form of wxf_writer.h, or with raw set the text as written. */
static void line_text(sbuf *b, const wxf_write_options *o, arena *a, const rec_line *line,
                      const rec_node *from, const xq_pos *pos, bool raw)
{
    twriter t = {.b = b, .o = o, .a = a, .need_number = true};
    t_push(&t, line, from, pos, true, raw);
    t.top->started = raw;   /* a remainder: the line's own comments are already out */
    while (t.top) {
        tframe *f = t.top;
        if (!f->started) {
            f->started = true;
            if (!f->outer)
                sb_word(b, "(");
            t_comments(&t, f->line->comments, f->raw);
            t.need_number = true;
        }
        const rec_node *n = f->node;
        if (!n) {
            t.top = f->below;
            if (f->opened_raw)
                sb_str(b, "}");
            if (!f->outer)
                sb_str(b, ")");
            t.need_number = true;
            continue;
        }
        if (!f->raw && n->status == REC_MOVE_OK) {
            char num[32] = "", move[XQN_FORMAT_BUFSIZE];
            bool red = f->pos.side == XQ_RED;
            if (red || t.need_number) {
                snprintf(num, sizeof num, "%u%s", (unsigned)f->pos.fullmove, red ? "." : ELLIPSIS);
                sb_word(b, num);
            }
            t.need_number = false;
            if (xqn_format(&f->pos, n->move, o->notation, o->style, move, sizeof move) < 0)
                snprintf(move, sizeof move, "%s", n->text);
            sb_word(b, move);
            xq_pos before = f->pos;
            xq_undo undo;
            xq_make(&f->pos, n->move, &undo);
            t_nags(&t, n);
            t_comments(&t, n->comments, false);
            f->node = n->next;
            t_variations(&t, n, &before, false);
            continue;
        }
        if (!f->raw) {
            f->raw = f->opened_raw = true;
            sb_word(b, "{not replayed:");
        }
        if (n->number) {
            char num[32];
            snprintf(num, sizeof num, "%u%s", n->number, n->number_dots3 ? "..." : ".");
            sb_word(b, num);
        }
        sb_word(b, n->text);
        t_nags(&t, n);
        t_comments(&t, n->comments, true);
        f->node = n->next;
        t_variations(&t, n, NULL, true);
    }
}

/* ------------------------------------------------------------ the record */

typedef struct wwriter {
    FILE *out;
    const rec_game *g;
    const wxf_write_options *o;
    bool pair_open;      /* a Red move is on the current line, waiting for Black's */
} wwriter;

static void end_line(wwriter *w)
{
    if (w->pair_open)
        fputc('\n', w->out);
    w->pair_open = false;
}

/* A comment on lines of its own. */
static void put_comment_text(wwriter *w, const char *text)
{
    sbuf b = {0};
    clean_text(&b, text, false);
    end_line(w);
    fprintf(w->out, b.len ? "/* %s */\n" : "/* */\n", sb_text(&b));
    free(b.p);
}

static void put_comments(wwriter *w, const rec_comment *c)
{
    if (w->o->strip_comments)
        return;
    for (; c; c = c->next) {
        if (!c->diagram) {
            put_comment_text(w, c->text);
            continue;
        }
        sbuf b = {0};
        clean_text(&b, c->text, true);
        for (size_t i = 0; i < b.len; i++)
            if (b.p[i] == '}')
                b.p[i] = ')';
        end_line(w);
        fprintf(w->out, "DIAG{ %s }\n", sb_text(&b));
        free(b.p);
    }
}

/* The main line: pairs, comments, diagram markers, variations as comments. */
static void write_moves(wwriter *w, const xq_pos *start)
{
    const rec_game *g = w->g;
    const wxf_write_options *o = w->o;
    xq_pos pos = *start;
    put_comments(w, g->main.comments);
    const rec_node *n = g->main.first;
    for (; n && n->status == REC_MOVE_OK; n = n->next) {
        char move[XQN_FORMAT_BUFSIZE];
        if (xqn_format(&pos, n->move, o->notation, o->style, move, sizeof move) < 0)
            snprintf(move, sizeof move, "%s", n->text);
        bool red = pos.side == XQ_RED;
        if (red) {
            end_line(w);
            fprintf(w->out, "%u. %s", (unsigned)pos.fullmove, move);
            w->pair_open = true;
        } else if (w->pair_open) {
            fprintf(w->out, " %s", move);
        } else {
            fprintf(w->out, "%u. " ELLIPSIS " %s", (unsigned)pos.fullmove, move);
            w->pair_open = true;
        }
        bool loose_nags = false;   /* NAGs with no symbol: a "$n" comment */
        if (!o->strip_nags)
            for (uint32_t i = 0; i < n->nag_count; i++) {
                const char *sym = wxf_nag_symbol(n->nags[i]);
                if (sym)
                    fprintf(w->out, " %s", sym);
                else
                    loose_nags = true;
            }
        xq_pos before = pos;
        xq_undo undo;
        xq_make(&pos, n->move, &undo);
        if (!red)
            end_line(w);
        if (loose_nags) {
            sbuf b = {0};
            for (uint32_t i = 0; i < n->nag_count; i++)
                if (!wxf_nag_symbol(n->nags[i])) {
                    char nag[8];
                    snprintf(nag, sizeof nag, "$%u", n->nags[i]);
                    sb_word(&b, nag);
                }
            put_comment_text(w, sb_text(&b));
            free(b.p);
        }
        put_comments(w, n->comments);
        if (!o->strip_variations)
            for (const rec_line *v = n->variations; v; v = v->next) {
                sbuf b = {0};
                line_text(&b, o, g->arena, v, v->first, &before, false);
                put_comment_text(w, sb_text(&b));
                free(b.p);
            }
    }
    end_line(w);
    if (n) {
        /* the line stopped at a move that does not replay: the rest as written */
        sbuf b = {0};
        sb_str(&b, "not replayed:");
        line_text(&b, o, g->arena, &g->main, n, NULL, true);
        put_comment_text(w, sb_text(&b));
        free(b.p);
    }
}

/* "KEY     value": the key padded to column 9, the value on one line; nothing for a
 * blank value (it would read back as none). */
static void put_key(wwriter *w, const char *key, const char *value)
{
    sbuf b = {0};
    clean_text(&b, value, true);
    if (b.len)
        fprintf(w->out, "%-*s %s\n", KEY_WIDTH - 1, key, sb_text(&b));
    free(b.p);
}

/* A PGN value that only says "unknown". */
static bool placeholder(const char *v)
{
    return !v || !*v || strcmp(v, "?") == 0 || strcmp(v, "????.??.??") == 0;
}

static const struct { const char *wxf, *pgn; } std_keys[] = {
    {"GAME", NULL},   {"RED", "Red"},     {"BLACK", "Black"}, {"DATE", "Date"},
    {"PLACE", "Site"}, {"ROUND", "Round"}, {"RESULT", "Result"}, {"EVENT", "Event"},
    {"FEN", "FEN"},
};
#define STD_KEYS (sizeof std_keys / sizeof std_keys[0])

/* Tags not written as keys of their own. */
static bool left_out(const rec_tag *t)
{
    static const char *const dropped[] = {"FORMAT", "Format", "Game", "SetUp"};
    for (size_t i = 0; i < STD_KEYS; i++)
        if (strcmp(t->name, std_keys[i].wxf) == 0 ||
            (std_keys[i].pgn && strcmp(t->name, std_keys[i].pgn) == 0))
            return true;
    for (size_t i = 0; i < sizeof dropped / sizeof dropped[0]; i++)
        if (strcmp(t->name, dropped[i]) == 0)
            return true;
    return (strcmp(t->name, "Variant") == 0 || strcmp(t->name, "VARIANT") == 0) &&
           strcasecmp(t->value, "xiangqi") == 0;
}

typedef struct other_key {
    char key[KEY_MAX + 1];
    const char *name, *value;
} other_key;

static int compare_keys(const void *pa, const void *pb)
{
    const other_key *a = pa, *b = pb;
    int c = strcmp(a->key, b->key);
    return c ? c : strcmp(a->name, b->name);
}

static void write_header(wwriter *w, const char *result)
{
    const rec_game *g = w->g;
    const char *format = w->o->notation == XQN_WXF || w->o->notation == XQN_VIETNAMESE
                             ? "WXF"
                             : referee_xq_format_name(w->o->notation);
    put_key(w, "FORMAT", format ? format : "WXF");
    for (size_t i = 0; i < STD_KEYS; i++) {
        const char *v;
        if (strcmp(std_keys[i].wxf, "RESULT") == 0)
            v = result;
        else {
            v = rec_game_tag(g, std_keys[i].wxf);
            if (placeholder(v) && std_keys[i].pgn)
                v = rec_game_tag(g, std_keys[i].pgn);
        }
        if (!placeholder(v))
            put_key(w, std_keys[i].wxf, v);
    }

    int count = 0;
    for (const rec_tag *t = g->tags; t; t = t->next)
        count++;
    other_key *others = arena_alloc(g->arena, (size_t)(count ? count : 1) * sizeof *others);
    count = 0;
    for (const rec_tag *t = g->tags; t; t = t->next) {
        if (left_out(t) || rec_game_tag(g, t->name) != t->value || !*t->value)
            continue;   /* a repeated name only once, its first value; no empty ones */
        size_t len = strlen(t->name);
        if (len == 0 || len > KEY_MAX)
            continue;
        other_key *k = &others[count];
        bool valid = isalpha((unsigned char)t->name[0]);
        for (size_t i = 0; i < len; i++) {
            char c = (char)toupper((unsigned char)t->name[i]);
            valid = valid && ((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_');
            k->key[i] = c;
        }
        k->key[len] = '\0';
        if (!valid)
            continue;
        k->name = t->name;
        k->value = t->value;
        count++;
    }
    qsort(others, (size_t)count, sizeof *others, compare_keys);
    for (int i = 0; i < count; i++) {
        bool seen = i > 0 && strcmp(others[i].key, others[i - 1].key) == 0;
        for (size_t s = 0; s < STD_KEYS && !seen; s++)
            seen = strcmp(others[i].key, std_keys[s].wxf) == 0;
        if (!seen)
            put_key(w, others[i].key, others[i].value);
    }
}

bool wxf_write_game(FILE *out, const rec_game *g, const wxf_write_options *opts)
{
    if (g->kind != REC_XIANGQI) {
        errno = EINVAL;
        return false;
    }
    wwriter w = {.out = out, .g = g, .o = opts};
    const char *result = referee_normal_result(g->result);
    if (!result) {
        result = referee_normal_result(rec_game_tag(g, "RESULT"));
        if (!result)
            result = referee_normal_result(rec_game_tag(g, "Result"));
    }
    if (result && strcmp(result, "*") == 0)
        result = NULL;

    write_header(&w, result);
    fputs("START{\n", out);
    /* When nothing replays (bad FEN) every node is unchecked: all of it is kept as text
     * and the start is not used. */
    xq_pos start;
    char err[200];
    if (!referee_xiangqi_start(g, &start, err, sizeof err))
        xq_pos_start(&start);
    write_moves(&w, &start);
    fputs("}END", out);
    uint32_t nags = g->game_nag_count;
    nags = opts->game_nag_skip < nags ? nags - opts->game_nag_skip : 0;
    if (!opts->strip_nags)
        for (uint32_t i = 0; i < nags; i++) {
            const char *sym = wxf_nag_symbol(g->game_nags[i]);
            if (sym)
                fprintf(out, " %s", sym);
        }
    if (!opts->in_block)
        fputc('\n', out);
    return !ferror(out);
}
