/* pgn_writer.c: PGN export format. See pgn_writer.h. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "core/chess.h"
#include "core/xiangqi.h"
#include "notation/xq_notation.h"
#include "record/bytes8.h"
#include "record/textbuf.h"
#include "referee/referee.h"
#include "writer/pgn_writer.h"

#define PGN_LINE_MAX 79   /* export lines stay under 80 characters (PGN §3.2) */

/* Output with word wrapping. A token is held back until the next one comes, so that
 * a closing ")" can be glued to it; an opening "(" is glued to the token after it.
 * Tokens are built in place, right after the output not yet handed to the stream, with
 * one byte kept before each for the blank or newline that goes in front of it. */
typedef struct sink {
    FILE *out;
    int column;           /* characters on the current line */
    bool failed;
    char *buf;            /* buf[0, len): output for the stream; buf[len]: room for the
                           * separator; buf[len + 1, len + 1 + pend_len): the token */
    size_t len, cap;
    char *own;            /* the caller's buffer, which buf starts as */
    size_t pend_len;
    size_t pend_chars;    /* the token's length in characters */
    bool has_pend;
    bool glue;            /* "(" goes before the next token */
    /* While capturing, tokens go into this buffer (space-separated) instead: the text
     * of a not-replayed remainder, written afterwards as one comment. */
    bool capturing;
    bool capture_glue;    /* a "(" due when capturing began: it opens the comment's
                           * variation, outside the comment */
    char *capture;
    size_t capture_len, capture_cap;
} sink;

/* Hand the output bytes to the stream; a token being built moves to the front. */
static void sink_drain(sink *s)
{
    if (s->len && fwrite_unlocked(s->buf, 1, s->len, s->out) != s->len)
        s->failed = true;
    if (s->len && s->pend_len)
        memmove(s->buf + 1, s->buf + s->len + 1, s->pend_len);
    s->len = 0;
}

/* Room for extra more bytes of the token: drain, and grow past the caller's buffer
 * only when more is asked than it holds (a long comment or tag value). */
static void sink_make_room(sink *s, size_t extra)
{
    sink_drain(s);
    size_t need = 1 + s->pend_len + extra;
    if (need <= s->cap)
        return;
    size_t cap = s->cap * 2 > need ? s->cap * 2 : need;
    char *grown = s->buf == s->own ? malloc(cap) : realloc(s->buf, cap);
    if (!grown) {
        fputs("arbiter: out of memory\n", stderr);
        abort();
    }
    if (s->buf == s->own)
        memcpy(grown, s->buf, 1 + s->pend_len);
    s->buf = grown;
    s->cap = cap;
}

/* Where the next extra bytes of the token go. */
static inline char *sink_room(sink *s, size_t extra)
{
    if (s->len + 1 + s->pend_len + extra > s->cap)
        sink_make_room(s, extra);
    return s->buf + s->len + 1 + s->pend_len;
}

/* Output bytes outside any token (tags, line ends): nothing is held back then. */
static void sink_put(sink *s, const char *bytes, size_t len)
{
    memcpy(sink_room(s, len) - 1, bytes, len);
    s->len += len;
}

static void sink_newline(sink *s)
{
    if (s->column > 0)
        sink_put(s, "\n", 1);
    s->column = 0;
}

/* The held-back token into the capture (see sink_flush). */
static void sink_flush_capture(sink *s)
{
    const char *tok = s->buf + s->len + 1;
    textbuf_reserve(&s->capture, &s->capture_cap, s->capture_len + s->pend_len + 2);
    if (s->capture_len > 0)
        s->capture[s->capture_len++] = ' ';
    memcpy(s->capture + s->capture_len, tok, s->pend_len);
    s->capture_len += s->pend_len;
    s->capture[s->capture_len] = '\0';
    s->pend_len = 0;
}

/* Write the held-back token: into the capture, or onto the line, wrapping first when
 * it would not fit. */
static inline void sink_flush(sink *s)
{
    if (!s->has_pend)
        return;
    s->has_pend = false;
    if (s->capturing) {
        sink_flush_capture(s);
        return;
    }
    char *tok = s->buf + s->len + 1;
    if (s->column > 0) {
        bool wrap = s->column + 1 + (int)s->pend_chars > PGN_LINE_MAX;
        tok[-1] = wrap ? '\n' : ' ';
        s->column = wrap ? 0 : s->column + 1;
        s->len += 1 + s->pend_len;
    } else {
        memmove(tok - 1, tok, s->pend_len); /* a line's first token: no separator */
        s->len += s->pend_len;
    }
    s->column += (int)s->pend_chars;
    s->pend_len = 0;
}

/* Start the next token (after the glued "(", if one is due). */
static inline void sink_begin(sink *s)
{
    sink_flush(s);
    s->has_pend = true;
    s->pend_chars = 0;
    if (s->glue) {
        s->glue = false;
        *sink_room(s, 1) = '(';
        s->pend_len = 1;
        s->pend_chars = 1;
    }
}

/* ASCII bytes of our own for the token. */
static void sink_ascii(sink *s, const char *text, size_t len)
{
    memcpy(sink_room(s, len), text, len);
    s->pend_len += len;
    s->pend_chars += len;
}

/* A NUL-terminated ASCII string of our own or a move's export SAN: short, so copied a
 * byte at a time without measuring it first. */
static void sink_ascii_str(sink *s, const char *text)
{
    enum { SHORT = 16 };
    char *to = sink_room(s, SHORT);
    size_t i = 0;
    while (i < SHORT && text[i]) {
        to[i] = text[i];
        i++;
    }
    s->pend_len += i;
    s->pend_chars += i;
    if (i == SHORT && text[i])
        sink_ascii(s, text + i, strlen(text + i));
}

static void sink_char(sink *s, char c)
{
    *sink_room(s, 1) = c;
    s->pend_len++;
    s->pend_chars++;
}

/* Text from a record for the token: a '}' becomes ')' (inside a brace comment it would
 * end the comment early), and the characters are counted in the same pass (lines are
 * measured in characters; Chinese moves are 3 bytes a character). */
static void sink_text(sink *s, const char *text, size_t len)
{
    char *to = sink_room(s, len);
    size_t chars = 0;
    for (size_t i = 0; i < len; i++) {
        char c = text[i] == '}' ? ')' : text[i];
        to[i] = c;
        chars += ((unsigned char)c & 0xC0) != 0x80;
    }
    s->pend_len += len;
    s->pend_chars += chars;
}

static void sink_str(sink *s, const char *tok)
{
    sink_begin(s);
    sink_text(s, tok, strlen(tok));
}

/* A number's decimal digits at to (room for 10); returns how many. */
static size_t put_digits(char *to, unsigned number)
{
    if (number < 10) { /* most move numbers and NAGs: no division loop */
        to[0] = (char)('0' + number);
        return 1;
    }
    if (number < 100) {
        to[0] = (char)('0' + number / 10);
        to[1] = (char)('0' + number % 10);
        return 2;
    }
    char digits[10];
    size_t k = 0;
    do {
        digits[k++] = (char)('0' + number % 10);
        number /= 10;
    } while (number);
    for (size_t i = 0; i < k; i++)
        to[i] = digits[k - 1 - i];
    return k;
}

static void sink_digits(sink *s, unsigned number)
{
    size_t k = put_digits(sink_room(s, 10), number);
    s->pend_len += k;
    s->pend_chars += k;
}

/* "12. " or "12... " for the token. */
static void sink_number(sink *s, unsigned number, bool dots3)
{
    char *to = sink_room(s, 14);
    size_t k = put_digits(to, number);
    to[k++] = '.';
    if (dots3) {
        to[k++] = '.';
        to[k++] = '.';
    }
    to[k++] = ' ';
    s->pend_len += k;
    s->pend_chars += k;
}

/* A NAG token, "$n". */
static void sink_nag(sink *s, unsigned nag)
{
    sink_begin(s);
    sink_char(s, '$');
    sink_digits(s, nag);
}

/* "(" before the next token. */
static void sink_open(sink *s) { s->glue = true; }

/* ")" after the last token (or "()" for an empty variation). */
static void sink_close(sink *s)
{
    if (s->glue || !s->has_pend) {
        s->glue = false;
        sink_begin(s);
        sink_ascii(s, "()", 2);
    } else {
        sink_char(s, ')');
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

/* Bytes a comment word stops at (its blanks, the end) or changes ('}'). */
enum { WORD_BLANK = 1, WORD_END = 2, WORD_BRACE = 4 };
static const unsigned char word_class[256] = {
    ['\0'] = WORD_END,   [' '] = WORD_BLANK,  ['\t'] = WORD_BLANK, ['\n'] = WORD_BLANK,
    ['\r'] = WORD_BLANK, ['}'] = WORD_BRACE,
};

static const char *skip_blanks(const char *p)
{
    while (word_class[(unsigned char)*p] & WORD_BLANK)
        p++;
    return p;
}

/* A comment with its whitespace folded, wrapped word by word between open and close
 * ('{' '}', or '[' ']' inside a not-replayed remainder). Each word is one token, copied
 * as sink_text does (a '}' becomes ')', characters counted) in the pass that finds its
 * end, into room for the rest of the comment taken at once. */
static void sink_comment(sink *s, const char *text, char open, char close)
{
    const char *p = skip_blanks(text);
    if (!*p) {
        sink_begin(s);
        sink_char(s, open);
        sink_char(s, close);
        return;
    }
    size_t rest = strlen(p);
    bool first = true;
    while (*p) {
        sink_begin(s);
        char *to = sink_room(s, rest + 2), *t = to;
        if (first)
            *t++ = open;
        first = false;
        const char *word = p;
        unsigned char high = 0; /* any byte >= 0x80 */
        for (;;) {
            unsigned char c = (unsigned char)*p;
            unsigned k = word_class[c];
            if (k) {
                if (k & (WORD_BLANK | WORD_END))
                    break;
                c = ')';
            }
            *t++ = (char)c;
            high |= c;
            p++;
        }
        size_t cont = 0; /* UTF-8 continuation bytes: no characters of their own */
        if (high & 0x80)
            for (const char *q = word; q < p; q++)
                cont += ((unsigned char)*q & 0xC0) == 0x80;
        rest -= (size_t)(p - word);
        const char *next = skip_blanks(p);
        rest -= (size_t)(next - p);
        p = next;
        if (!*p)
            *t++ = close;
        s->pend_len += (size_t)(t - to);
        s->pend_chars += (size_t)(t - to) - cont;
    }
}

/* The position of the game being written, chess or xiangqi. */
typedef union game_pos {
    chess_pos chess;
    xq_pos xq;
} game_pos;

/* One line (main line or variation) being written. The side to move and the move
 * number are kept for every move; the position only when a move's text has to be made
 * from it (a SAN move written as export SAN is copied), and then late: a line gets its
 * start from the line it branches from when it first needs it, and the moves between
 * are made then. */
typedef struct frame {
    const rec_line *line;
    const rec_node *node;     /* the next to write */
    bool first;               /* the first player (White, Red) is to move before node */
    unsigned number;          /* the move number before node */
    bool started;             /* its "(" and leading comments are written */
    bool variation;           /* close with ")" */
    bool raw;                 /* not replayed: write the text as it was written */
    bool opened_raw;          /* this frame opened the not-replayed comment: close it */
    bool has_pos;             /* pos holds the position before pos_node */
    game_pos pos;
    const rec_node *pos_node;
    struct frame *from;       /* without pos: this line is an alternative to branch, */
    const rec_node *branch;   /* a move of from's line */
    struct frame *down;       /* while positions are made: the frame that branches here */
    const rec_node *deferred; /* the last replayed move, whose variations are written
                               * after the not-replayed comment that follows it: read
                               * again, that comment is the move's and comes first */
    bool deferred_first;      /* the side and move number before it */
    unsigned deferred_number;
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

/* A frame for line; its position is set by the caller or made late. */
static frame *new_frame(writer *w, const rec_line *line, bool first, unsigned number,
                        bool variation, bool raw)
{
    /* field by field: the position is left unset, not zeroed */
    frame *f = arena_alloc_uninit(w->a, sizeof *f, ARENA_ALIGN);
    f->line = line;
    f->node = line->first;
    f->first = first;
    f->number = number;
    f->started = false;
    f->variation = variation;
    f->raw = raw;
    f->opened_raw = false;
    f->has_pos = false;
    f->pos_node = NULL;
    f->from = NULL;
    f->branch = NULL;
    f->down = NULL;
    f->deferred = NULL;
    f->below = NULL;
    return f;
}

static void write_comments(writer *w, const rec_comment *c, bool raw)
{
    if (w->opts->strip_comments)
        return;
    for (; c; c = c->next) {
        sink_comment(&w->s, c->text, raw ? '[' : '{', raw ? ']' : '}');
        w->need_number = true;
    }
}

static void write_nags(writer *w, const rec_node *n)
{
    if (w->opts->strip_nags)
        return;
    for (uint32_t i = 0; i < n->nag_count; i++)
        sink_nag(&w->s, n->nags[i]);
}

/* Push the variations of n, a move of f's line with first and number before it, so
 * that the first is written first. */
static void push_variations(writer *w, frame *f, const rec_node *n, bool first,
                            unsigned number, bool raw)
{
    if (w->opts->strip_variations || !n->variations)
        return;
    frame *top = NULL, *last = NULL;
    for (const rec_line *v = n->variations; v; v = v->next) {
        frame *c = new_frame(w, v, first, number, true, raw);
        c->from = f;
        c->branch = n;
        if (last)
            last->below = c;
        else
            top = c;
        last = c;
    }
    last->below = w->top;
    w->top = top;
}

static void write_raw_node(writer *w, frame *f, const rec_node *n)
{
    sink_begin(&w->s);
    if (n->number)
        sink_number(&w->s, n->number, n->number_dots3);
    sink_text(&w->s, n->text, strlen(n->text));
    write_nags(w, n);
    write_comments(w, n->comments, true);
    f->node = n->next;
    push_variations(w, f, n, false, 0, true);
}

/* Make the moves of f's line up to target on its position. */
static void frame_catch_up(const writer *w, frame *f, const rec_node *target)
{
    for (const rec_node *n = f->pos_node; n != target; n = n->next) {
        if (w->xiangqi) {
            xq_undo undo;
            xq_make(&f->pos.xq, n->move, &undo);
        } else {
            chess_undo undo;
            if (n->status == REC_MOVE_NULL)
                chess_make_null(&f->pos.chess, &undo);
            else
                chess_make(&f->pos.chess, n->move, &undo);
        }
    }
    f->pos_node = target;
}

/* The position before n, a move of f's line. The lines f branches from get theirs
 * first, walking up and back down (variations nest as deep as the record does). */
static const game_pos *frame_pos_before(const writer *w, frame *f, const rec_node *n)
{
    frame *down = NULL;
    frame *c = f;
    for (; !c->has_pos; c = c->from) {
        c->down = down;
        down = c;
    }
    for (; down; down = down->down) {
        frame_catch_up(w, down->from, down->branch);
        down->pos = down->from->pos;
        down->pos_node = down->line->first;
        down->has_pos = true;
    }
    frame_catch_up(w, f, n);
    return &f->pos;
}

/* The move's text in the requested notation. */
static void write_move(writer *w, frame *f, const rec_node *n)
{
    sink *s = &w->s;
    char move[XQN_FORMAT_BUFSIZE];
    if (w->xiangqi) {
        /* a node written as a move was replayed: its move is legal here */
        const game_pos *p = frame_pos_before(w, f, n);
        xqn_format_legal(&p->xq, n->move, w->opts->xq_notation, w->opts->xq_style, move,
                         sizeof move);
        sink_text(s, move, strlen(move));
        return;
    }
    bool san = w->opts->notation == CHESS_NOTATION_SAN;
    if (n->status == REC_MOVE_NULL) {
        sink_ascii(s, w->opts->notation == CHESS_NOTATION_UCI ? "0000" : "--",
                   w->opts->notation == CHESS_NOTATION_UCI ? 4 : 2);
        return;
    }
    const char *text = move;
    if (san && n->text_is_san) {
        /* the replay found the text canonical: copying it saves making the moves, the
         * check test and the disambiguation a second time */
        text = n->text;
    } else {
        chess_notation_format(&frame_pos_before(w, f, n)->chess, n->move,
                              w->opts->notation, move, sizeof move);
    }
    if (san && w->opts->letters != CHESS_LETTERS_EN) {
        char national[CHESS_LETTERS_BUFSIZE];
        chess_letters_from_english(w->opts->letters, text, national, sizeof national);
        sink_text(s, national, strlen(national));
        return;
    }
    sink_ascii_str(s, text);
}

static void write_node(writer *w, frame *f, const rec_node *n)
{
    /* The move number and its move stay together on a line. */
    bool first = f->first;
    unsigned number = f->number;
    sink_begin(&w->s);
    if (first || w->need_number)
        sink_number(&w->s, number, !first);
    w->need_number = false;
    write_move(w, f, n);
    f->first = !first;
    f->number = number + !first; /* after the second player's move */
    write_nags(w, n);
    write_comments(w, n->comments, false);
    f->node = n->next;
    if (n->variations && n->next && n->next->status != REC_MOVE_OK &&
        n->next->status != REC_MOVE_NULL && !w->opts->strip_variations) {
        f->deferred = n;
        f->deferred_first = first;
        f->deferred_number = number;
        return;
    }
    if (n->variations && !w->opts->strip_variations) {
        push_variations(w, f, n, first, number, false);
        w->need_number = true;
    }
}

static void begin_raw(writer *w, frame *f)
{
    f->raw = true;
    f->opened_raw = true;
    /* a variation that stops at its first move: its "(" stays outside the comment, so
     * parentheses and braces balance and converting again gives the same text */
    w->s.capture_glue = w->s.glue;
    w->s.glue = false;
    sink_capture(&w->s, true);
    sink_str(&w->s, "not replayed:");
}

static void end_raw(writer *w)
{
    sink_capture(&w->s, false);
    w->s.glue = w->s.capture_glue;
    w->s.capture_glue = false;
    sink_comment(&w->s, w->s.capture ? w->s.capture : "", '{', '}');
}

/* When nothing was replayed (bad FEN, unsupported variant) the nodes are all
 * unchecked, so the loop keeps them as text from the first one on, and start is not
 * used. */
static void write_movetext(writer *w, const rec_game *g, const game_pos *start)
{
    bool first = w->xiangqi ? start->xq.side == XQ_RED : start->chess.side == CHESS_WHITE;
    unsigned number = w->xiangqi ? start->xq.fullmove : (unsigned)start->chess.fullmove;
    frame *main = new_frame(w, &g->main, first, number, false, false);
    main->pos = *start;
    main->pos_node = g->main.first;
    main->has_pos = true;
    w->top = main;
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
                push_variations(w, f, f->deferred, f->deferred_first, f->deferred_number,
                                false);
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

/* Tag value with the PGN string escapes; control characters become spaces. The pair
 * is built in the output buffer in one pass over the value, eight plain bytes a step. */
static void write_tag_n(sink *s, const char *name, size_t name_len, const char *value,
                        size_t value_len)
{
    /* nothing is held back between tags: the token's room is the output's */
    char *to = sink_room(s, name_len + 2 * value_len + 6) - 1, *start = to;
    *to++ = '[';
    memcpy(to, name, name_len);
    to += name_len;
    *to++ = ' ';
    *to++ = '"';
    const char *p = value, *end = value + value_len;
    while (p < end) {
        /* an 8-byte store stays in the room: what is written is never more than twice
         * what is read */
        if (end - p >= 8) {
            uint64_t w = bytes8_load(p);
            uint64_t f = bytes8_below(w, 0x20) | bytes8_eq(w, '"') | bytes8_eq(w, '\\');
            if (!f) {
                memcpy(to, p, 8);
                to += 8;
                p += 8;
                continue;
            }
            size_t k = bytes8_first(f);
            memcpy(to, p, 8);   /* the plain bytes before the first other */
            to += k;
            p += k;
        }
        unsigned char c = (unsigned char)*p++;
        if (c < 0x20) {
            *to++ = ' ';
        } else {
            if (c == '"' || c == '\\')
                *to++ = '\\';
            *to++ = (char)c;
        }
    }
    memcpy(to, "\"]\n", 3);
    to += 3;
    s->len += (size_t)(to - start);
}

static void write_tag(sink *s, const char *name, const char *value)
{
    write_tag_n(s, name, strlen(name), value, strlen(value));
}

/* Tag names in ASCII order (strcmp's); the first bytes inline, as most names differ
 * there. */
static int name_order(const rec_tag *a, const rec_tag *b)
{
    if (a->name[0] != b->name[0])
        return (unsigned char)a->name[0] - (unsigned char)b->name[0];
    return strcmp(a->name, b->name);
}

/* Tags in ASCII order, equal names in input order; there are few, so insertion sort. */
static void sort_tags(const rec_tag **tags, int n)
{
    for (int i = 1; i < n; i++) {
        const rec_tag *t = tags[i];
        int j = i;
        for (; j > 0 && name_order(tags[j - 1], t) > 0; j--)
            tags[j] = tags[j - 1];
        tags[j] = t;
    }
}

/* The Seven Tag Roster (PGN 8.1.1); xiangqi PGN names the players Red and Black
 * (xqbase) and starts with Game "Chinese Chess". */
static const unsigned chess_roster[] = {REC_TAG_EVENT, REC_TAG_SITE,  REC_TAG_DATE,
                                        REC_TAG_ROUND, REC_TAG_WHITE, REC_TAG_BLACK,
                                        REC_TAG_RESULT};
static const unsigned xq_roster[] = {REC_TAG_GAME,  REC_TAG_EVENT, REC_TAG_SITE,
                                     REC_TAG_DATE,  REC_TAG_ROUND, REC_TAG_RED,
                                     REC_TAG_BLACK, REC_TAG_RESULT};
static const char *const roster_name[REC_TAG_KNOWN] = {
    [REC_TAG_EVENT] = "Event", [REC_TAG_SITE] = "Site",   [REC_TAG_DATE] = "Date",
    [REC_TAG_ROUND] = "Round", [REC_TAG_WHITE] = "White", [REC_TAG_BLACK] = "Black",
    [REC_TAG_RESULT] = "Result", [REC_TAG_GAME] = "Game", [REC_TAG_RED] = "Red",
};

/* The value of a known tag, also under the WXF key that means the same (GAME, RED, ...). */
static const char *tag_value(const rec_game *g, unsigned id)
{
    const char *v = rec_game_known_value(g, id);
    if (v)
        return v;
    switch (id) {
    case REC_TAG_EVENT:
        v = rec_game_tag(g, "EVENT");
        return v ? v : rec_game_tag(g, "GAME");
    case REC_TAG_SITE: return rec_game_tag(g, "PLACE");
    case REC_TAG_DATE: return rec_game_tag(g, "DATE");
    case REC_TAG_ROUND: return rec_game_tag(g, "ROUND");
    case REC_TAG_RED: return rec_game_tag(g, "RED");
    case REC_TAG_BLACK: return rec_game_tag(g, "BLACK");
    case REC_TAG_RESULT: return rec_game_tag(g, "RESULT");
    default: return NULL;
    }
}

/* Tags written by the roster or replaced by it: the WXF keys and FORMAT. */
static bool in_roster(const rec_tag *t, bool xiangqi)
{
    static const char *const wxf_keys[] = {"EVENT", "PLACE", "DATE", "ROUND", "RED", "BLACK",
                                           "RESULT", "FORMAT", "Format"};
    if (!xiangqi)
        return t->id <= REC_TAG_RESULT;   /* the roster's ids are the first */
    for (size_t i = 0; i < sizeof xq_roster / sizeof xq_roster[0]; i++)
        if (t->id == xq_roster[i])
            return true;
    if (t->id == REC_TAG_FEN)
        return true;
    for (size_t i = 0; i < sizeof wxf_keys / sizeof wxf_keys[0]; i++)
        if (strcmp(t->name, wxf_keys[i]) == 0)
            return true;
    return false;
}

static void write_tags(writer *w, const rec_game *g, const char *result)
{
    const unsigned *roster = w->xiangqi ? xq_roster : chess_roster;
    size_t count = w->xiangqi ? 8 : 7;
    for (size_t i = 0; i < count; i++) {
        unsigned id = roster[i];
        const char *v = tag_value(g, id);
        if (id == REC_TAG_RESULT)
            v = result;
        else if (id == REC_TAG_GAME)
            v = "Chinese Chess";
        else if (!v || !*v)
            v = id == REC_TAG_DATE ? "????.??.??" : "?";
        write_tag(&w->s, roster_name[id], v);
    }
    if (w->xiangqi) {
        /* xqbase's Format tag names the move notation ("WXF", "ICCS"; its default is
         * Chinese); the other values are ours, so that a one-move game in a notation
         * whose text another one also reads (Rh9: WinBoard or Fairy-Stockfish ranks?)
         * reads back the same. */
        const char *format = referee_xq_format_name(w->opts->xq_notation);
        if (format)
            write_tag(&w->s, "Format", format);
        const char *fen = rec_game_known_value(g, REC_TAG_FEN);
        if (fen)
            write_tag(&w->s, "FEN", fen);
    }
    int n = 0;
    for (const rec_tag *t = g->tags; t; t = t->next)
        n++;
    const rec_tag **others = arena_alloc(w->a, (size_t)(n ? n : 1) * sizeof *others);
    n = 0;
    for (const rec_tag *t = g->tags; t; t = t->next) {
        if (in_roster(t, w->xiangqi))
            continue; /* the roster is written above */
        if (w->xiangqi && strcmp(t->name, "GAME") == 0 && !rec_game_tag(g, "EVENT") &&
            !rec_game_known_tag(g, REC_TAG_EVENT))
            continue; /* written as the Event */
        others[n++] = t;
    }
    sort_tags(others, n);
    for (int i = 0; i < n; i++) {
        /* a repeated name only once, with its first value: the sort keeps input order
         * among equal names */
        const rec_tag *t = others[i];
        if (i > 0 && others[i - 1]->name_len == t->name_len &&
            memcmp(others[i - 1]->name, t->name, t->name_len) == 0)
            continue;
        write_tag_n(&w->s, t->name, t->name_len, t->value, t->value_len);
    }
}

bool pgn_write_game(FILE *out, const rec_game *g, const pgn_write_options *opts)
{
    char own[8192]; /* not zeroed: only what is written is read */
    writer w = {.s = {.out = out, .buf = own, .own = own, .cap = sizeof own},
                .opts = opts, .a = g->arena, .xiangqi = g->kind == REC_XIANGQI};
    const char *result = referee_normal_result(g->result);
    if (!result)
        result = referee_normal_result(tag_value(g, REC_TAG_RESULT));
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
        for (uint32_t i = 0; i < g->game_nag_count; i++)
            sink_nag(&w.s, g->game_nags[i]);
    sink_str(&w.s, result);
    sink_flush(&w.s);
    sink_newline(&w.s);
    sink_put(&w.s, "\n", 1);
    sink_drain(&w.s);
    free(w.s.capture);
    if (w.s.buf != own)
        free(w.s.buf);
    return !w.s.failed && !ferror(out);
}

bool pgn_write_notation_from_name(const char *name, pgn_write_options *w, bool *xiangqi)
{
    *xiangqi = false;
    if (strcmp(name, "san") == 0)
        w->notation = CHESS_NOTATION_SAN;
    else if (strcmp(name, "lan") == 0)
        w->notation = CHESS_NOTATION_LAN;
    else if (strcmp(name, "uci") == 0)
        w->notation = CHESS_NOTATION_UCI;
    else if ((strncmp(name, "san-", 4) == 0 || strcmp(name, "figurine") == 0) &&
             chess_letters_from_name(name, &w->letters))
        w->notation = CHESS_NOTATION_SAN;
    else if (xqn_notation_from_name(name, &w->xq_notation))
        *xiangqi = true;
    else
        return false;
    return true;
}
