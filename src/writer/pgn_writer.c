/* pgn_writer.c: PGN export format. See pgn_writer.h. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "core/chess.h"
#include "core/xiangqi.h"
#include "notation/xq_notation.h"
#include "record/textbuf.h"
#include "referee/referee.h"
#include "writer/pgn_writer.h"

#define PGN_LINE_MAX 79   /* export lines stay under 80 characters (PGN §3.2) */

/* Output with word wrapping. A token is held back until the next one comes, so that
 * a closing ")" can be glued to it; an opening "(" is glued to the token after it. */
typedef struct sink {
    FILE *out;
    int column;           /* characters on the current line */
    bool failed;
    char *pend;           /* the token held back, from pend[1]: pend[0] is room for the
                           * space before it, so a token is one fwrite */
    size_t pend_len, pend_cap;
    size_t pend_chars;    /* its length in characters */
    bool has_pend;
    const char *glue;     /* text to put before the next token ("(") */
    /* While capturing, tokens go into this buffer (space-separated) instead: the text
     * of a not-replayed remainder, written afterwards as one comment. */
    bool capturing;
    const char *capture_glue; /* a "(" due when capturing began: it opens the comment's
                               * variation, outside the comment */
    char *capture;
    size_t capture_len, capture_cap;
    /* bytes not yet handed to out: one fwrite per buffer instead of one per word */
    size_t out_len;
    char out_buf[8192];
} sink;

/* Hand the buffered bytes to the stream. */
static void sink_drain(sink *s)
{
    if (s->out_len && fwrite_unlocked(s->out_buf, 1, s->out_len, s->out) != s->out_len)
        s->failed = true;
    s->out_len = 0;
}

/* Bytes for the stream, through the buffer (a stream is written by one thread). */
static void sink_put(sink *s, const char *bytes, size_t len)
{
    if (s->out_len + len > sizeof s->out_buf) {
        sink_drain(s);
        if (len > sizeof s->out_buf) {
            if (fwrite_unlocked(bytes, 1, len, s->out) != len)
                s->failed = true;
            return;
        }
    }
    memcpy(s->out_buf + s->out_len, bytes, len);
    s->out_len += len;
}

/* Make room for more bytes (plus a space and a NUL) in a growable buffer. */
static void sink_newline(sink *s)
{
    if (s->column > 0)
        sink_put(s, "\n", 1);
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
        textbuf_reserve(&s->capture, &s->capture_cap, s->capture_len + s->pend_len + 2);
        if (s->capture_len > 0)
            s->capture[s->capture_len++] = ' ';
        memcpy(s->capture + s->capture_len, s->pend + 1, s->pend_len);
        s->capture_len += s->pend_len;
        s->capture[s->capture_len] = '\0';
        return;
    }
    if (s->column > 0 && s->column + 1 + (int)s->pend_chars > PGN_LINE_MAX)
        sink_newline(s);
    /* a word and the blank before it in one copy */
    const char *from = s->pend + 1;
    size_t len = s->pend_len;
    if (s->column > 0) {
        s->pend[0] = ' ';
        from--;
        len++;
        s->column++;
    }
    sink_put(s, from, len);
    s->column += (int)s->pend_chars;
}

/* Append bytes to the held-back token; with sanitize, a '}' becomes ')' (text from a
 * record: inside a brace comment it would end the comment early). Without it, the bytes
 * are ASCII. */
static void pend_add(sink *s, const char *text, size_t len, bool sanitize)
{
    if (!len)
        return;
    if (1 + s->pend_len + len + 2 > s->pend_cap)
        textbuf_reserve(&s->pend, &s->pend_cap, 1 + s->pend_len + len + 2);
    char *to = s->pend + 1 + s->pend_len;
    s->pend_len += len;
    if (!sanitize) {
        memcpy(to, text, len); /* our own ASCII text */
        s->pend_chars += len;
        return;
    }
    /* Lines are measured in characters (Chinese moves are 3 bytes a character): counted
     * here, in the one pass that copies the record's text */
    size_t chars = 0;
    for (size_t i = 0; i < len; i++) {
        char c = text[i] == '}' ? ')' : text[i];
        to[i] = c;
        chars += ((unsigned char)c & 0xC0) != 0x80;
    }
    s->pend_chars += chars;
}

/* A token made of pre + body + suf. */
static void sink_word(sink *s, const char *pre, const char *body, size_t len, const char *suf)
{
    sink_flush(s);
    s->pend_len = 0;
    s->pend_chars = 0;
    s->has_pend = true;
    textbuf_reserve(&s->pend, &s->pend_cap, 3); /* room for the space, even for "" */
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

/* The position of the game being written, chess or xiangqi. */
typedef union game_pos {
    chess_pos chess;
    xq_pos xq;
} game_pos;

/* One line (main line or variation) being written, with the position before node. */
typedef struct frame {
    const rec_line *line;
    const rec_node *node;
    game_pos pos;
    bool started;         /* its "(" and leading comments are written */
    bool variation;       /* close with ")" */
    bool raw;             /* not replayed: write the text as it was written */
    bool opened_raw;      /* this frame opened the not-replayed comment: close it */
    const rec_node *deferred;  /* the last replayed move, whose variations are written
                                * after the not-replayed comment that follows it: read
                                * again, that comment is the move's and comes first */
    game_pos deferred_pos;
    struct frame *below;
} frame;

typedef struct writer {
    sink s;
    bool xiangqi;
    const pgn_write_options *opts;
    arena *a;
    frame *top;
    bool need_number;     /* Black's next move needs "N..." (after a comment or RAV) */
} writer;

static void push_frame(writer *w, const rec_line *line, const game_pos *pos, bool variation,
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
static void push_variations(writer *w, const rec_node *n, const game_pos *pos, bool raw)
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

/* Whether the first player (White, Red) is to move, and the move number. */
static bool first_to_move(const writer *w, const game_pos *p)
{
    return w->xiangqi ? p->xq.side == XQ_RED : p->chess.side == CHESS_WHITE;
}

static int move_number(const writer *w, const game_pos *p)
{
    return w->xiangqi ? (int)p->xq.fullmove : p->chess.fullmove;
}

/* The move's text in the requested notation, and the move made on p. */
static void format_and_make(writer *w, game_pos *p, const rec_node *n, char *move, size_t size)
{
    if (w->xiangqi) {
        /* a node written as a move was replayed: its move is legal here */
        xqn_format_legal(&p->xq, n->move, w->opts->xq_notation, w->opts->xq_style, move, size);
        xq_undo undo;
        xq_make(&p->xq, n->move, &undo);
        return;
    }
    chess_undo undo;
    if (n->status == REC_MOVE_NULL) {
        chess_notation_format(&p->chess, CHESS_MOVE_NONE, w->opts->notation, move, size);
        chess_make_null(&p->chess, &undo);
    } else {
        size_t len;
        /* the replay found the text canonical: copying it saves the check test and
         * the disambiguation a second time */
        if (w->opts->notation == CHESS_NOTATION_SAN && n->text_is_san &&
            (len = strlen(n->text)) < size)
            memcpy(move, n->text, len + 1);
        else
            chess_notation_format(&p->chess, n->move, w->opts->notation, move, size);
        if (w->opts->letters != CHESS_LETTERS_EN && w->opts->notation == CHESS_NOTATION_SAN) {
            char english[CHESS_LETTERS_BUFSIZE];
            snprintf(english, sizeof english, "%s", move);
            chess_letters_from_english(w->opts->letters, english, move, size);
        }
        chess_make(&p->chess, n->move, &undo);
    }
}

/* "12. " or "12... " into buf (at least 24 bytes). */
static void format_number(char *buf, unsigned number, bool dots3)
{
    char digits[12];
    int k = 0;
    do {
        digits[k++] = (char)('0' + number % 10);
        number /= 10;
    } while (number);
    char *p = buf;
    while (k)
        *p++ = digits[--k];
    memcpy(p, dots3 ? "... " : ". ", dots3 ? 5 : 3);
}

static void write_node(writer *w, frame *f, const rec_node *n)
{
    /* The move number and its move stay together on a line. */
    char number[24] = "", move[XQN_FORMAT_BUFSIZE];
    bool first = first_to_move(w, &f->pos);
    if (first || w->need_number)
        format_number(number, (unsigned)move_number(w, &f->pos), !first);
    w->need_number = false;
    game_pos before = f->pos;
    format_and_make(w, &f->pos, n, move, sizeof move);
    sink_word(&w->s, number, move, strlen(move), "");
    write_nags(w, n);
    write_comments(w, n->comments, false);
    f->node = n->next;
    if (n->variations && n->next && n->next->status != REC_MOVE_OK &&
        n->next->status != REC_MOVE_NULL && !w->opts->strip_variations) {
        f->deferred = n;
        f->deferred_pos = before;
        return;
    }
    push_variations(w, n, &before, false);
    if (n->variations && !w->opts->strip_variations)
        w->need_number = true;
}

static void begin_raw(writer *w, frame *f)
{
    f->raw = true;
    f->opened_raw = true;
    /* a variation that stops at its first move: its "(" stays outside the comment, so
     * parentheses and braces balance and converting again gives the same text */
    w->s.capture_glue = w->s.glue;
    w->s.glue = NULL;
    sink_capture(&w->s, true);
    sink_str(&w->s, "not replayed:");
}

static void end_raw(writer *w)
{
    sink_capture(&w->s, false);
    w->s.glue = w->s.capture_glue;
    w->s.capture_glue = NULL;
    sink_comment(&w->s, w->s.capture ? w->s.capture : "", "{", "}");
}

/* When nothing was replayed (bad FEN, unsupported variant) the nodes are all
 * unchecked, so the loop keeps them as text from the first one on, and start is not
 * used. */
static void write_movetext(writer *w, const rec_game *g, const game_pos *start)
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
            if (f->opened_raw) {
                end_raw(w);
                f->opened_raw = false;
            }
            if (f->deferred) {
                push_variations(w, f->deferred, &f->deferred_pos, false);
                f->deferred = NULL;
                w->need_number = true;
                continue;
            }
            w->top = f->below;
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
    sink_put(s, "[", 1);
    sink_put(s, name, strlen(name));
    sink_put(s, " \"", 2);
    /* plain runs in one copy: a character at a time was most of a tag's cost */
    const char *run = value;
    for (const char *p = value;; p++) {
        unsigned char c = (unsigned char)*p;
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        sink_put(s, run, (size_t)(p - run));
        if (c == '\0')
            break;
        if (c < 0x20)
            sink_put(s, " ", 1);
        else {
            char esc[2] = {'\\', (char)c};
            sink_put(s, esc, 2);
        }
        run = p + 1;
    }
    sink_put(s, "\"]\n", 3);
}

static int compare_tags(const void *a, const void *b)
{
    return strcmp((*(const rec_tag *const *)a)->name, (*(const rec_tag *const *)b)->name);
}

/* The Seven Tag Roster (PGN 8.1.1); xiangqi PGN names the players Red and Black
 * (xqbase) and starts with Game "Chinese Chess". */
static const char *const chess_roster[] = {"Event", "Site", "Date", "Round",
                                           "White", "Black", "Result"};
static const char *const xq_roster[] = {"Game", "Event", "Site", "Date", "Round",
                                        "Red", "Black", "Result"};

/* The value of a tag, also under the WXF key that means the same (GAME, RED, ...). */
static const char *tag_value(const rec_game *g, const char *name)
{
    static const struct { const char *pgn, *wxf; } keys[] = {
        {"Event", "EVENT"}, {"Site", "PLACE"}, {"Date", "DATE"}, {"Round", "ROUND"},
        {"Red", "RED"},     {"Black", "BLACK"}, {"Result", "RESULT"}, {"FEN", "FEN"},
    };
    const char *v = rec_game_tag(g, name);
    for (size_t i = 0; !v && i < sizeof keys / sizeof keys[0]; i++)
        if (strcmp(name, keys[i].pgn) == 0)
            v = rec_game_tag(g, keys[i].wxf);
    if (!v && strcmp(name, "Event") == 0)
        v = rec_game_tag(g, "GAME");
    return v;
}

/* Tags written by the roster or replaced by it: the WXF keys and FORMAT. */
static bool in_roster(const char *name, bool xiangqi)
{
    static const char *const wxf_keys[] = {"EVENT", "PLACE", "DATE", "ROUND", "RED", "BLACK",
                                           "RESULT", "FEN", "FORMAT", "Format"};
    const char *const *roster = xiangqi ? xq_roster : chess_roster;
    size_t count = xiangqi ? 8 : 7;
    for (size_t i = 0; i < count; i++)
        if (strcmp(name, roster[i]) == 0)
            return true;
    if (xiangqi)
        for (size_t i = 0; i < sizeof wxf_keys / sizeof wxf_keys[0]; i++)
            if (strcmp(name, wxf_keys[i]) == 0)
                return true;
    return false;
}

static void write_tags(writer *w, const rec_game *g, const char *result)
{
    const char *const *roster = w->xiangqi ? xq_roster : chess_roster;
    size_t count = w->xiangqi ? 8 : 7;
    for (size_t i = 0; i < count; i++) {
        const char *v = tag_value(g, roster[i]);
        if (strcmp(roster[i], "Result") == 0)
            v = result;
        else if (strcmp(roster[i], "Game") == 0)
            v = "Chinese Chess";
        else if (!v || !*v)
            v = strcmp(roster[i], "Date") == 0 ? "????.??.??" : "?";
        write_tag(&w->s, roster[i], v);
    }
    if (w->xiangqi) {
        /* xqbase's Format tag names the move notation ("WXF", "ICCS"; its default is
         * Chinese); the other values are ours, so that a one-move game in a notation
         * whose text another one also reads (Rh9: WinBoard or Fairy-Stockfish ranks?)
         * reads back the same. */
        const char *format = referee_xq_format_name(w->opts->xq_notation);
        if (format)
            write_tag(&w->s, "Format", format);
        const char *fen = tag_value(g, "FEN");
        if (fen)
            write_tag(&w->s, "FEN", fen);
    }
    int n = 0;
    for (const rec_tag *t = g->tags; t; t = t->next)
        n++;
    const rec_tag **others = arena_alloc(w->a, (size_t)(n ? n : 1) * sizeof *others);
    n = 0;
    for (const rec_tag *t = g->tags; t; t = t->next) {
        if (in_roster(t->name, w->xiangqi) || rec_game_tag(g, t->name) != t->value)
            continue; /* the roster is written above; a repeated name only once */
        if (w->xiangqi && strcmp(t->name, "GAME") == 0 && !rec_game_tag(g, "EVENT") &&
            !rec_game_tag(g, "Event"))
            continue; /* written as the Event */
        others[n++] = t;
    }
    qsort(others, (size_t)n, sizeof *others, compare_tags);
    for (int i = 0; i < n; i++)
        write_tag(&w->s, others[i]->name, others[i]->value);
}

bool pgn_write_game(FILE *out, const rec_game *g, const pgn_write_options *opts)
{
    writer w = {.s = {.out = out}, .opts = opts, .a = g->arena, .xiangqi = g->kind == REC_XIANGQI};
    const char *result = referee_normal_result(g->result);
    if (!result)
        result = referee_normal_result(tag_value(g, "Result"));
    if (!result)
        result = "*";

    write_tags(&w, g, result);
    sink_put(&w.s, "\n", 1);

    /* When nothing was replayed (bad FEN, unsupported variant) the start is not used. */
    game_pos start;
    char err[200];
    if (w.xiangqi) {
        if (!referee_xiangqi_start(g, &start.xq, err, sizeof err))
            xq_pos_start(&start.xq);
    } else if (!referee_chess_start(g, &start.chess, err, sizeof err)) {
        chess_pos_start(&start.chess);
    }
    write_movetext(&w, g, &start);
    /* An evaluation written after the whole game (WXF after "}END", an article after
     * "[/game]") has no place of its own in PGN: it goes after the last move. */
    if (g->main.first && !opts->strip_nags)
        for (uint32_t i = 0; i < g->game_nag_count; i++) {
            char nag[8];
            snprintf(nag, sizeof nag, "$%u", g->game_nags[i]);
            sink_str(&w.s, nag);
        }
    sink_str(&w.s, result);
    sink_flush(&w.s);
    sink_newline(&w.s);
    sink_put(&w.s, "\n", 1);
    sink_drain(&w.s);
    free(w.s.capture);
    free(w.s.pend);
    return !w.s.failed && !ferror(out);
}
