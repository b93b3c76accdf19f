/* pgn_writer.c: PGN export format. See pgn_writer.h. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "core/chess.h"
#include "referee/referee.h"
#include "writer/pgn_writer.h"

#define PGN_LINE_MAX 79   /* export lines stay under 80 characters (PGN §3.2) */

/* Output with word wrapping. A token is held back until the next one comes, so that
 * a closing ")" can be glued to it; an opening "(" is glued to the token after it. */
typedef struct sink {
    FILE *out;
    int column;           /* characters on the current line */
    bool failed;
    char *pend;           /* the token held back */
    size_t pend_len, pend_cap;
    bool has_pend;
    const char *glue;     /* text to put before the next token ("(") */
    /* While capturing, tokens go into this buffer (space-separated) instead: the text
     * of a not-replayed remainder, written afterwards as one comment. */
    bool capturing;
    char *capture;
    size_t capture_len, capture_cap;
} sink;

/* Make room for more bytes (plus a space and a NUL) in a growable buffer. */
static bool grow(sink *s, char **buf, size_t *cap, size_t len, size_t more)
{
    if (len + more + 2 <= *cap)
        return true;
    size_t n = *cap ? *cap : 256;
    while (len + more + 2 > n)
        n *= 2;
    char *grown = realloc(*buf, n);
    if (!grown) {
        s->failed = true;
        return false;
    }
    *buf = grown;
    *cap = n;
    return true;
}

static void sink_newline(sink *s)
{
    if (s->column > 0 && fputc('\n', s->out) == EOF)
        s->failed = true;
    s->column = 0;
}

/* Write the held-back token: into the capture, or onto the line, wrapping first when
 * it would not fit. */
static void sink_flush(sink *s)
{
    if (!s->has_pend)
        return;
    s->has_pend = false;
    if (s->capturing) {
        if (!grow(s, &s->capture, &s->capture_cap, s->capture_len, s->pend_len))
            return;
        if (s->capture_len > 0)
            s->capture[s->capture_len++] = ' ';
        memcpy(s->capture + s->capture_len, s->pend, s->pend_len);
        s->capture_len += s->pend_len;
        s->capture[s->capture_len] = '\0';
        return;
    }
    if (s->column > 0 && s->column + 1 + (int)s->pend_len > PGN_LINE_MAX)
        sink_newline(s);
    if (s->column > 0) {
        fputc(' ', s->out);
        s->column++;
    }
    if (fwrite(s->pend, 1, s->pend_len, s->out) != s->pend_len)
        s->failed = true;
    s->column += (int)s->pend_len;
}

/* Append bytes to the held-back token; with sanitize, a '}' becomes ')' (text from a
 * record: inside a brace comment it would end the comment early). */
static void pend_add(sink *s, const char *text, size_t len, bool sanitize)
{
    if (!grow(s, &s->pend, &s->pend_cap, s->pend_len, len))
        return;
    for (size_t i = 0; i < len; i++)
        s->pend[s->pend_len + i] = sanitize && text[i] == '}' ? ')' : text[i];
    s->pend_len += len;
}

/* A token made of pre + body + suf. */
static void sink_word(sink *s, const char *pre, const char *body, size_t len, const char *suf)
{
    sink_flush(s);
    s->pend_len = 0;
    s->has_pend = true;
    if (s->glue) {
        pend_add(s, s->glue, strlen(s->glue), false);
        s->glue = NULL;
    }
    pend_add(s, pre, strlen(pre), false);
    pend_add(s, body, len, true);
    pend_add(s, suf, strlen(suf), false);
}

static void sink_str(sink *s, const char *tok) { sink_word(s, "", tok, strlen(tok), ""); }

/* "(" before the next token. */
static void sink_open(sink *s) { s->glue = "("; }

/* ")" after the last token (or "()" for an empty variation). */
static void sink_close(sink *s)
{
    if (s->glue || !s->has_pend) {
        s->glue = NULL;
        sink_str(s, "()");
    } else {
        pend_add(s, ")", 1, false);
    }
}

/* Switch capturing on or off; what was held back goes where it belongs first. */
static void sink_capture(sink *s, bool on)
{
    sink_flush(s);
    s->capturing = on;
    if (on)
        s->capture_len = 0;
}

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* A comment with its whitespace folded, wrapped word by word between open and close
 * ("{" "}", or "[" "]" inside a not-replayed remainder). */
static void sink_comment(sink *s, const char *text, const char *open, const char *close)
{
    const char *p = text;
    while (is_space(*p))
        p++;
    if (!*p) {
        char both[8];
        snprintf(both, sizeof both, "%s%s", open, close);
        sink_str(s, both);
        return;
    }
    bool first = true;
    while (*p) {
        const char *word = p;
        while (*p && !is_space(*p))
            p++;
        size_t len = (size_t)(p - word);
        while (is_space(*p))
            p++;
        sink_word(s, first ? open : "", word, len, *p ? "" : close);
        first = false;
    }
}

/* One line (main line or variation) being written, with the position before node. */
typedef struct frame {
    const rec_line *line;
    const rec_node *node;
    chess_pos pos;
    bool started;         /* its "(" and leading comments are written */
    bool variation;       /* close with ")" */
    bool raw;             /* not replayed: write the text as it was written */
    bool opened_raw;      /* this frame opened the not-replayed comment: close it */
    struct frame *below;
} frame;

typedef struct writer {
    sink s;
    const pgn_write_options *opts;
    arena *a;
    frame *top;
    bool need_number;     /* Black's next move needs "N..." (after a comment or RAV) */
} writer;

static void push_frame(writer *w, const rec_line *line, const chess_pos *pos, bool variation,
                       bool raw)
{
    frame *f = arena_alloc(w->a, sizeof *f);
    f->line = line;
    f->node = line->first;
    if (pos)
        f->pos = *pos;
    f->variation = variation;
    f->raw = raw;
    f->below = w->top;
    w->top = f;
}

static void write_comments(writer *w, const rec_comment *c, bool raw)
{
    if (w->opts->strip_comments)
        return;
    for (; c; c = c->next) {
        sink_comment(&w->s, c->text, raw ? "[" : "{", raw ? "]" : "}");
        w->need_number = true;
    }
}

static void write_nags(writer *w, const rec_node *n)
{
    if (w->opts->strip_nags)
        return;
    for (uint32_t i = 0; i < n->nag_count; i++) {
        char buf[8];
        snprintf(buf, sizeof buf, "$%u", n->nags[i]);
        sink_str(&w->s, buf);
    }
}

/* Push the variations of n (alternatives from pos, the position before n), so that
 * the first is written first. */
static void push_variations(writer *w, const rec_node *n, const chess_pos *pos, bool raw)
{
    if (w->opts->strip_variations || !n->variations)
        return;
    int count = 0;
    for (const rec_line *v = n->variations; v; v = v->next)
        count++;
    const rec_line **all = arena_alloc(w->a, (size_t)count * sizeof *all);
    count = 0;
    for (const rec_line *v = n->variations; v; v = v->next)
        all[count++] = v;
    while (count-- > 0)
        push_frame(w, all[count], pos, true, raw);
}

static void write_raw_node(writer *w, frame *f, const rec_node *n)
{
    char number[24] = "";
    if (n->number)
        snprintf(number, sizeof number, "%u%s ", n->number, n->number_dots3 ? "..." : ".");
    sink_word(&w->s, number, n->text, strlen(n->text), "");
    write_nags(w, n);
    write_comments(w, n->comments, true);
    f->node = n->next;
    push_variations(w, n, NULL, true);
}

static void write_node(writer *w, frame *f, const rec_node *n)
{
    /* The move number and its move stay together on a line. */
    char number[24] = "", move[CHESS_NOTATION_BUFSIZE];
    if (f->pos.side == CHESS_WHITE || w->need_number)
        snprintf(number, sizeof number, "%d%s ", f->pos.fullmove,
                 f->pos.side == CHESS_WHITE ? "." : "...");
    w->need_number = false;
    chess_pos before = f->pos;
    chess_undo undo;
    if (n->status == REC_MOVE_NULL) {
        chess_notation_format(&f->pos, CHESS_MOVE_NONE, w->opts->notation, move, sizeof move);
        chess_make_null(&f->pos, &undo);
    } else {
        chess_notation_format(&f->pos, n->move, w->opts->notation, move, sizeof move);
        chess_make(&f->pos, n->move, &undo);
    }
    sink_word(&w->s, number, move, strlen(move), "");
    write_nags(w, n);
    write_comments(w, n->comments, false);
    f->node = n->next;
    push_variations(w, n, &before, false);
    if (n->variations && !w->opts->strip_variations)
        w->need_number = true;
}

static void begin_raw(writer *w, frame *f)
{
    f->raw = true;
    f->opened_raw = true;
    sink_capture(&w->s, true);
    sink_str(&w->s, "not replayed:");
}

static void end_raw(writer *w)
{
    sink_capture(&w->s, false);
    sink_comment(&w->s, w->s.capture ? w->s.capture : "", "{", "}");
}

/* When nothing was replayed (bad FEN, unsupported variant) the nodes are all
 * unchecked, so the loop keeps them as text from the first one on, and start is not
 * used. */
static void write_movetext(writer *w, const rec_game *g, const chess_pos *start)
{
    push_frame(w, &g->main, start, false, false);
    w->need_number = true;
    while (w->top) {
        frame *f = w->top;
        if (!f->started) {
            f->started = true;
            if (f->variation)
                sink_open(&w->s);
            write_comments(w, f->line->comments, f->raw);
            w->need_number = true;
        }
        const rec_node *n = f->node;
        if (!n) {
            w->top = f->below;
            if (f->opened_raw)
                end_raw(w);
            if (f->variation)
                sink_close(&w->s);
            w->need_number = true;
            continue;
        }
        if (!f->raw && (n->status == REC_MOVE_OK || n->status == REC_MOVE_NULL)) {
            write_node(w, f, n);
            continue;
        }
        if (!f->raw)
            begin_raw(w, f); /* the line stopped here: keep the rest as written */
        write_raw_node(w, f, n);
    }
}

/* Tag value with the PGN string escapes; control characters become spaces. */
static void write_tag(sink *s, const char *name, const char *value)
{
    fprintf(s->out, "[%s \"", name);
    for (const char *p = value; *p; p++) {
        if (*p == '"' || *p == '\\')
            fputc('\\', s->out);
        fputc((unsigned char)*p < 0x20 ? ' ' : *p, s->out);
    }
    fputs("\"]\n", s->out);
}

static int compare_tags(const void *a, const void *b)
{
    return strcmp((*(const rec_tag *const *)a)->name, (*(const rec_tag *const *)b)->name);
}

static const char *const roster[] = {"Event", "Site", "Date", "Round", "White", "Black", "Result"};

static bool in_roster(const char *name)
{
    for (size_t i = 0; i < sizeof roster / sizeof roster[0]; i++)
        if (strcmp(name, roster[i]) == 0)
            return true;
    return false;
}

static void write_tags(writer *w, const rec_game *g, const char *result)
{
    for (size_t i = 0; i < sizeof roster / sizeof roster[0]; i++) {
        const char *v = rec_game_tag(g, roster[i]);
        if (i == 6)
            v = result;
        else if (!v || !*v)
            v = i == 2 ? "????.??.??" : "?";
        write_tag(&w->s, roster[i], v);
    }
    int count = 0;
    for (const rec_tag *t = g->tags; t; t = t->next)
        count++;
    const rec_tag **others = arena_alloc(w->a, (size_t)(count ? count : 1) * sizeof *others);
    int n = 0;
    for (const rec_tag *t = g->tags; t; t = t->next) {
        if (in_roster(t->name) || rec_game_tag(g, t->name) != t->value)
            continue; /* the roster is written above; a repeated name only once */
        others[n++] = t;
    }
    qsort(others, (size_t)n, sizeof *others, compare_tags);
    for (int i = 0; i < n; i++)
        write_tag(&w->s, others[i]->name, others[i]->value);
}

bool pgn_write_game(FILE *out, const rec_game *g, const pgn_write_options *opts)
{
    writer w = {.s = {.out = out}, .opts = opts, .a = g->arena};
    const char *result = referee_normal_result(g->result);
    if (!result)
        result = referee_normal_result(rec_game_tag(g, "Result"));
    if (!result)
        result = "*";

    write_tags(&w, g, result);
    fputc('\n', out);

    chess_pos start;
    char err[200];
    if (!referee_chess_start(g, &start, err, sizeof err))
        chess_pos_start(&start); /* not used: nothing was replayed */
    write_movetext(&w, g, &start);
    sink_str(&w.s, result);
    sink_flush(&w.s);
    sink_newline(&w.s);
    free(w.s.capture);
    free(w.s.pend);
    fputc('\n', out);
    return !w.s.failed && !ferror(out);
}
