/* pgn_internal.h: what the PGN scanner, parser and tree builder share.
 *
 * Not for users of the reader (they see pgn_reader.h). The reader object holds the
 * scanner's position tracking, the per-game lexical state that decides game boundaries,
 * one reusable text buffer for comments and strings, and the tree builder's state with
 * its explicit variation stack. Everything per game is allocated in the game's arena;
 * the reader itself owns only the text buffer and the flex scanner (both bounded). */
#ifndef ARBITER_GRAMMAR_PGN_INTERNAL_H
#define ARBITER_GRAMMAR_PGN_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pgn_parse.h"
#include "pgn_reader.h"
#include "record/arena.h"
#include "record/bytes8.h"
#include "record/record.h"
#include "scan_common.h"

/* Longest comment or string kept; the rest is skipped with a finding. */
#define PGN_TEXT_LIMIT (1024u * 1024u)
/* Syntax findings reported per game before they are only counted. */
#define PGN_SYNTAX_LIMIT 100u
/* Moves kept per game (main line and variations): a longer game is cut there with a
 * game-too-long finding, so one pathological record cannot exhaust memory (the longest
 * legal chess game has under 18,000 plies, FIDE 9.6.2 ends it by the 75-move rule). */
#define PGN_MOVE_LIMIT 500000u
/* Unclosed variations reported one by one at the end of a game. */
#define PGN_UNCLOSED_LIMIT 16u

/* Token flags (pgn_tok.flags). */
enum {
    PGN_F_UNTERMINATED = 1u << 0,  /* comment or string that never closed */
    PGN_F_TRUNCATED = 1u << 1,     /* text longer than PGN_TEXT_LIMIT, cut */
    PGN_F_REST_OF_LINE = 1u << 2,  /* ';' comment */
    PGN_F_EP = 1u << 3,            /* move written with "e.p." attached */
    PGN_F_STRING = 1u << 4,        /* junk token that was a quoted string */
    PGN_F_BAD = 1u << 5,           /* NAG number out of range */
    PGN_F_NOT_UTF8 = 1u << 6,      /* text was transcoded from Windows-1252 */
    PGN_F_NUMBERED = 1u << 7       /* a move with its number before it: the number in
                                    * num, its dots in vflags, the move's byte offset
                                    * in the token in vlen */
};

/* A position in the input while scanning: the next unread byte. Columns are derived,
 * not counted byte by byte: column = off - line_start - cont + 1, where cont counts the
 * bytes of this line that do not start a character (UTF-8 continuation bytes, a BOM).
 * Only matches that can hold a newline or a byte >= 0x80 rescan their text; tokens
 * carry only their offset, and a line mark after each rescan lets a reported span
 * get its line and column later (rec_game_locate). */
typedef struct pgn_pos {
    uint64_t off;        /* byte offset */
    uint64_t line_start; /* offset of the first byte of the current line */
    uint64_t nb_end;     /* where the last non-blank match ended */
    uint32_t line;       /* 1-based */
    uint32_t cont;       /* bytes on this line before off that are not characters */
} pgn_pos;

/* A move number read and not yet given to a move: one word, so a move clears it with
 * one store. */
typedef struct pgn_pending {
    uint32_t number;
    bool dots3;          /* written "12..." */
} pgn_pending;

typedef struct pgn_frame {
    rec_line *parent;    /* the line the '(' was in */
    rec_node *last;      /* its last node then (the move the variation replaces) */
    rec_line *child;     /* the variation opened */
    rec_comment **ctail; /* the parent's comment tail then (kept, not searched again:
                          * walking a long comment list at every ')' was quadratic) */
} pgn_frame;

struct pgn_reader {
    FILE *in;
    scan_source_fn source_read;  /* when set, the input is read by it, not from in */
    void *source;
    const char *name;
    void *scanner;               /* yyscan_t */
    uint64_t count;              /* games returned so far */
    bool done;                   /* end of input seen and reported */
    bool skip_trailer;           /* skip an xqbase advertisement before the next game */
    bool io_error;
    char error[256];

    /* The game being read (valid during pgn_reader_next). */
    arena *a;
    rec_game *g;

    /* Scanner: position, and where the current match began (for yyless and rescans;
     * the line fields of pos change only in a rescan, so they hold at the match's
     * start until then). */
    pgn_pos pos;
    uint64_t mark_off, mark_nb;
    /* Line marks of the game being read (rec_linemark): one at its start and one
     * after each rescan or skipped byte-order mark; copied into the game at its end. */
    rec_linemark *lmarks;
    uint32_t nlmarks, lmarks_cap;
    bool lm_used;        /* a place (a token's start or end) was taken since the last
                          * mark: it must stay */
    uint64_t u8_end;     /* where the last rescan ended (a sequence may go on there) */
    uint8_t u8_left;     /* continuation bytes still expected */
    uint8_t u8_seen;     /* continuation bytes of that sequence seen so far */
    uint32_t trail;      /* blanks at the end of the current match, not part of the token */
    bool bom_seen;
    bool at_eof;         /* the scanner met the end of the input */
    char glue[128];      /* a move read in two matches (GLUED, PROMO): its start */
    uint32_t glue_len;
    rec_span glue_loc;

    /* Scanner: per-game lexical state, reset at each game end. */
    bool content;        /* some token of this game was returned */
    bool movetext;       /* a movetext token was returned (a line-start tag ends the game) */
    bool force_end;      /* an unterminated comment was cut at a tag line */
    bool seen_event;     /* an Event tag was returned */
    int tag_state;       /* 0 outside a tag, 1 after the name, 2 after the value */
    uint32_t depth;      /* '(' minus ')' as scanned */
    uint64_t last_end;   /* where the match of the last token returned ended */
    uint32_t last_trail; /* the blanks it took along (the token ends before them) */

    /* Scanner: text of the comment or string being read. */
    scan_text text;
    bool str_in_tag;     /* the string being read is a tag value */
    size_t quote_end;    /* text.len just after a quote kept inside a tag value */

    /* Builder. */
    bool started;
    bool has_moves;      /* a movetext token reached the builder */
    rec_line *line;      /* line being extended */
    rec_node *last;      /* its last node, NULL before its first move */
    rec_comment **ctail; /* where the next comment goes */
    rec_tag *tag_tail;
    uint64_t tag_bits;   /* rec_tag_name_bit of the tag names kept so far */
    pgn_frame *stack;
    uint32_t depth_b, stack_cap;
    rec_node *vt_node;   /* node whose variation list ends with vt_last */
    rec_line *vt_last;
    pgn_pending pending; /* the number written before the next move */
    int last_kind;       /* token kind of the previous movetext token */
    bool enc_reported;
    uint32_t syntax_errors;
    /* How the input ended (pgn_reader_ended_cleanly): 0 not yet known, 1 on a game
     * boundary, -1 elsewhere. */
    int tail;
    bool eof_clean;      /* the last game_end came after movetext (or a cut comment) */
    uint32_t moves;      /* moves, variations and comments of this game (PGN_MOVE_LIMIT),
                          * plus the unused slots between node_next and node_end: the
                          * fast path's moves are counted when their chunk is taken */
    /* Room for the fast path's move nodes in the game's arena (pgn_b_plain_move), taken
     * up to PGN_NODE_CHUNK slots at a time (fewer near the limit, and one given up for
     * each other item counted while moves is at the limit): next == end when there is
     * none. */
    char *node_next, *node_end;
    uint32_t skipped_open; /* variations opened past the limit, not yet closed */
};

/* Scanner entry points (flex, prefix pgn_). */
int pgn_lex_init_extra(struct pgn_reader *user, void **scanner);
void pgn_set_in(FILE *in, void *scanner);
struct yy_buffer_state *pgn__scan_buffer(char *base, size_t size, void *scanner);
int pgn_lex_destroy(void *scanner);
void pgn_scan_skip_trailer(void *scanner);

/* Scanner helpers (pgn_reader.c). */
/* Redo the position for the current match s[0..n) from the mark, handling newlines
 * and UTF-8 (bytes that are not valid UTF-8 count one character each). */
void pgn_rescan(pgn_reader *r, const char *s, size_t n);

/* Whether a byte can go on a symbol that ends before it (SYMC, a '.' of WXF, any byte
 * of a multi-byte character). */
static inline bool pgn_continues_symbol(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
           c >= 0x80 || (c != 0 && strchr("_:=+#/@-.", c) != NULL);
}

/* s[0..n) is a Russian piece letter: a Cyrillic capital, or "Кр" (the king). */
static inline bool pgn_cyrillic_piece(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    if (n < 2 || u[0] != 0xD0 || u[1] < 0x90 || u[1] > 0xAF)
        return false;
    return n == 2 || (n == 4 && u[2] == 0xD1 && u[3] == 0x80);
}

/* A byte that goes on a move after its piece letter: a file, a rank, a capture. */
static inline bool pgn_continues_move(unsigned char c)
{
    return (c >= 'a' && c <= 'h') || (c >= '1' && c <= '8') || c == 'x' || c == ':';
}

/* Only blanks before the current match on its line. */
static inline bool pgn_bol(const pgn_reader *r)
{
    return r->mark_nb <= r->pos.line_start;
}

/* Keep the position's line state as a mark from pos.off on (marks after it are from a
 * match read again after yyless, and are dropped). */
void pgn_linemark(pgn_reader *r);
/* pgn_linemark for a position past the last mark with room for one more (the usual
 * newline): inline, for the fast path makes it at every line. */
static inline void pgn_linemark_next(pgn_reader *r)
{
    uint32_t n = r->nlmarks;
    if (n == 0 || n == r->lmarks_cap || r->lmarks[n - 1].off >= r->pos.off) {
        pgn_linemark(r);
        return;
    }
    if (!r->lm_used)
        n--;   /* no place taken since the last mark: this one replaces it */
    r->lm_used = false;
    r->lmarks[n] = (rec_linemark){r->pos.off, r->pos.line_start, r->pos.line, r->pos.cont};
    r->nlmarks = n + 1;
}
/* where with its line and column, from the marks of the game being read. */
rec_span pgn_locate(const pgn_reader *r, rec_span where);
/* Just after, and the last byte of, the last token returned. */
rec_span pgn_last_end(const pgn_reader *r);
rec_span pgn_last_byte(const pgn_reader *r);

static inline size_t pgn_input(pgn_reader *r, char *buf, size_t max)
{
    if (r->source_read)
        return scan_read_source(r->source_read, r->source, buf, max, &r->io_error, r->error,
                                sizeof r->error);
    return scan_read(r->in, buf, max, &r->io_error, r->error, sizeof r->error);
}

void pgn_text_reset(pgn_reader *r, const rec_span *start);
/* Append to the text buffer; true when s holds a byte >= 0x80. */
static inline bool pgn_text_append(pgn_reader *r, const char *s, size_t n)
{
    return scan_text_append(&r->text, s, n, PGN_TEXT_LIMIT);
}
/* The collected text, as UTF-8 in the game's arena; sets *flags bits. */
const char *pgn_text_finish(pgn_reader *r, uint32_t *flags, uint32_t *len);
/* A token's bytes as UTF-8 in the arena (transcoding when they are not UTF-8). */
const char *pgn_text_copy(pgn_reader *r, const char *s, size_t n, const rec_span *where,
                          uint32_t *flags);
/* A syntax-error finding, counted against PGN_SYNTAX_LIMIT: (r, where, fmt, ...). */
#define pgn_syntax_error(r, where, ...) \
    scan_syntax_error((r)->g, &(r)->syntax_errors, PGN_SYNTAX_LIMIT, (where), __VA_ARGS__)
/* Describe one input character (or byte) for a message, into out[32]. */
void pgn_describe(const char *s, size_t n, char out[32]);

/* Builder (called from grammar actions). */
void pgn_b_tag(pgn_reader *r, const pgn_tok *name, const pgn_tok *value, bool closed,
               const rec_span *where);
/* What pgn_b_tag does for `[name "value"]` at offset off, its name len bytes and its value
 * vlen bytes of ASCII (no escapes), closed: the tag, its name and its value are one
 * allocation. wide: sixteen bytes can be read at name and at value. */
void pgn_b_tag_pair(pgn_reader *r, const char *name, uint32_t len, const char *value,
                    uint32_t vlen, uint64_t off, bool wide);
void pgn_b_move(pgn_reader *r, const pgn_tok *t, const rec_span *where);
void pgn_b_number(pgn_reader *r, const pgn_tok *t, const rec_span *where);
/* The game-too-long finding, when moves just passed PGN_MOVE_LIMIT. */
void pgn_b_too_long(pgn_reader *r, const rec_span *where);

/* A move node of the fast path with room for its text (up to 15 bytes and a NUL): one
 * slot of a chunk, so a node costs a pointer bump with no size or alignment to work out
 * (a game wastes at most one chunk's unused slots). */
#define PGN_NODE_SLOT (sizeof(rec_node) + 16)
#define PGN_NODE_CHUNK 32u
/* A new chunk of slots from the game's arena, counted against PGN_MOVE_LIMIT; false
 * (and the move counted) when the game is at the limit. */
bool pgn_node_chunk(pgn_reader *r);

/* What pgn_b_move does for a plain move s[0..len) (2 to 15 bytes, no "e.p.", and
 * s[0..len+3) readable: the word ends inside the flex buffer, which ends with two NULs) the
 * scanner's fast path read (shape: its rec_node.san_shape), its token at offset off.
 * numbered: the token began with a move number (number, dots) and the move comes head
 * bytes after it (pgn_b_number first). Inline, for the fast path makes this call for
 * most tokens of a game; the node and its text are one slot. What movetext() sets
 * (has_moves, last_kind TOK_MOVE) the caller sets, once for a run of moves (nothing
 * here reads them). */
static inline void pgn_b_plain_move(pgn_reader *r, const char *s, size_t len,
                                    unsigned shape, uint64_t off, bool numbered,
                                    uint32_t number, uint32_t dots, uint32_t head)
{
    rec_span where = {.offset = off};
    /* the number the node gets, held here (not read back from r after the text's bytes
     * are stored) */
    bool dots3 = r->pending.dots3;
    if (numbered) {
        dots3 = dots >= 3;
        where.offset += head;
    } else {
        number = r->pending.number;
    }
    /* the move was counted with its slot's chunk: only taking a chunk tests the limit */
    if (r->node_next == r->node_end && !pgn_node_chunk(r)) {
        r->pending.number = number;
        r->pending.dots3 = dots3;
        pgn_b_too_long(r, &where);
        return;
    }
    rec_node *n = (rec_node *)(void *)r->node_next;
    r->node_next += PGN_NODE_SLOT;
    char *text = (char *)(n + 1);
    /* the bytes after the word are in the buffer too: one copy of four or eight (what
     * goes past len is overwritten by the NUL or never read) */
    if (len <= 4) {
        uint32_t x;
        memcpy(&x, s, 4);
        memcpy(text, &x, 4);
    } else if (len <= 8) {
        uint64_t x = bytes8_load(s);
        memcpy(text, &x, 8);
    } else {
        bytes8_copy_short(text, s, len);
    }
    text[len] = '\0';
    *n = (rec_node){.text = text,
                    .where = where,
                    .number = number,
                    .number_dots3 = dots3,
                    .san_shape = (uint8_t)shape};
    memset(&r->pending, 0, sizeof r->pending);   /* one store, padding and all */
    /* scan_link_node, with touch where it can be needed: a line's first move (after
     * one, the game is started; a move past the limit returned above was counted after
     * others that touched it) */
    rec_node *last = r->last;
    if (last) {
        last->next = n;
    } else {
        if (!r->started) {
            r->started = true;
            r->g->start = (rec_span){.offset = off};
        }
        r->line->first = n;
        if (r->line == &r->g->main)
            r->line->where = n->where;
    }
    r->last = n;
    r->ctail = &n->comments;
}
void pgn_b_dots(pgn_reader *r, const pgn_tok *t, const rec_span *where);
void pgn_b_nag(pgn_reader *r, const pgn_tok *t, const rec_span *where);
void pgn_b_ep(pgn_reader *r, const rec_span *where);
void pgn_b_comment(pgn_reader *r, const pgn_tok *t, const rec_span *where);
/* What pgn_b_comment does for a closed comment whose text is s[0..n) of ASCII, less its
 * crs CRs (each before a newline), at offset off: the comment and its text are one
 * allocation. */
void pgn_b_comment_plain(pgn_reader *r, const char *s, size_t n, size_t crs, uint64_t off);
/* The same for the usual short one: n <= 32, no CR, and 32 bytes can be read at s (no
 * call but a tail call to pgn_b_comment_plain, so no register to save). */
void pgn_b_comment_short(pgn_reader *r, const char *s, size_t n, uint64_t off);
void pgn_b_open(pgn_reader *r, const rec_span *where);
void pgn_b_close(pgn_reader *r, const rec_span *where);
void pgn_b_inner_result(pgn_reader *r, const pgn_tok *t, const rec_span *where);
void pgn_b_junk(pgn_reader *r, const pgn_tok *t, const rec_span *where);
void pgn_b_result(pgn_reader *r, const pgn_tok *t, const rec_span *where);
void pgn_b_end(pgn_reader *r, const rec_span *where);

#endif
