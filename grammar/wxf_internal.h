/* wxf_internal.h: what the WXF scanner, parser and tree builder share.
 *
 * Not for users of the reader (they see wxf_reader.h). The reader holds the scanner's
 * position (in input coordinates: for an article the scanner starts each block at the
 * block's position in the article), the per-record lexical state that decides record
 * boundaries, one bounded text buffer for comments and values, and the builder state.
 * Everything per game goes into the game's arena. */
#ifndef ARBITER_GRAMMAR_WXF_INTERNAL_H
#define ARBITER_GRAMMAR_WXF_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "io/article.h"
#include "record/arena.h"
#include "record/record.h"
#include "scan_common.h"
#include "wxf_parse.h"
#include "wxf_reader.h"

/* Longest comment or header value kept; the rest is skipped with a finding. */
#define WXF_TEXT_LIMIT (1024u * 1024u)
/* Syntax findings reported per game before they are only counted. */
#define WXF_SYNTAX_LIMIT 100u

/* Token flags (wxf_tok.flags). */
enum {
    WXF_F_UNTERMINATED = 1u << 0,  /* comment or block that never closed */
    WXF_F_TRUNCATED = 1u << 1,     /* text longer than WXF_TEXT_LIMIT, cut */
    WXF_F_DOTS3 = 1u << 2,         /* move number written with "..." or "…" */
    WXF_F_REMARK = 1u << 3,        /* junk made only of ! and ? */
    WXF_F_LONG = 1u << 4           /* a run of word characters too long for a move */
};

/* Record phases as the scanner and the builder see them. */
enum { WXF_HEAD = 0, WXF_MOVES = 1, WXF_AFTER = 2 };

/* The scanner's position: the next unread byte, and where the last non-blank match
 * ended (to tell whether a match starts its line). */
typedef struct wxf_pos {
    src_pos at;
    uint64_t nb_end;
} wxf_pos;

struct wxf_reader {
    FILE *in;
    scan_source_fn source_read;  /* when set, a WXF file is read by it, not from in */
    void *source;
    const char *name;
    wxf_input kind;
    article *art;                /* the splitter (articles only) */
    void *scanner;               /* yyscan_t */
    uint64_t count;              /* games returned so far */
    bool done;
    bool io_error;
    char error[256];

    arena *a;
    rec_game *g;

    /* Scanner: position and the mark of the current match (for yyless). */
    wxf_pos pos, mark;
    /* Scanner: per-record lexical state. */
    bool content;        /* a token of this record was returned */
    bool started;        /* a FORMAT, header, SETUP or START was returned */
    bool eof_sent;       /* article: the block's end was reported */
    int phase;           /* WXF_HEAD, WXF_MOVES, WXF_AFTER */
    rec_span last_end;   /* just after the last token */
    rec_span last_byte;  /* the last byte of the last token */
    /* Scanner: text being collected (comment, value, block). */
    scan_text text;
    const char *key;     /* header key whose value is being read */
    uint32_t key_len;

    /* Builder. */
    bool touched;        /* g->start is set */
    int bphase;          /* the builder's phase */
    rec_span start_where;/* the START{ of the record */
    bool start_seen;
    bool format_seen;
    rec_node *last;
    rec_comment **ctail;
    rec_tag *tag_tail;
    uint32_t pending_number;
    bool pending_dots3;
    uint32_t nag_cap;
    bool enc_reported;
    uint32_t syntax_errors;
};

/* Scanner entry points (flex, prefix wxf_). */
int wxf_lex_init_extra(struct wxf_reader *user, void **scanner);
int wxf_lex_destroy(void *scanner);
/* Start scanning afresh (a new article block), in the initial state. */
void wxf_scan_reset(void *scanner);

/* Scanner helpers (wxf_reader.c). */
size_t wxf_read_input(wxf_reader *r, char *buf, size_t max);
/* Redo the position over the current match s[0..n) from the mark. */
void wxf_rescan(wxf_reader *r, const char *s, size_t n);
static inline void wxf_text_reset(wxf_reader *r, const rec_span *start)
{
    scan_text_reset(&r->text, start);
}

static inline void wxf_text_append(wxf_reader *r, const char *s, size_t n)
{
    scan_text_append(&r->text, s, n, WXF_TEXT_LIMIT);
}

/* The collected text as UTF-8 in the arena (trimmed of blanks when trim). */
const char *wxf_text_finish(wxf_reader *r, bool trim, uint32_t *flags, uint32_t *len);
/* A token's bytes as UTF-8 in the arena. */
const char *wxf_text_copy(wxf_reader *r, const char *s, size_t n, const rec_span *where);
/* A syntax-error finding, counted against WXF_SYNTAX_LIMIT: (r, where, fmt, ...). */
#define wxf_syntax_error(r, where, ...) \
    scan_syntax_error((r)->g, &(r)->syntax_errors, WXF_SYNTAX_LIMIT, (where), __VA_ARGS__)
void wxf_describe(const char *s, size_t n, char out[32]);

static inline uint32_t wxf_col(const wxf_pos *p)
{
    return src_pos_column(&p->at);
}

/* Only blanks before the current match on its line. */
static inline bool wxf_bol(const wxf_pos *p)
{
    return p->nb_end <= p->at.line_start;
}

/* Builder (grammar actions). */
void wxf_b_header(wxf_reader *r, const wxf_tok *t, const rec_span *where);
void wxf_b_setup(wxf_reader *r, const wxf_tok *t, const rec_span *where);
void wxf_b_start(wxf_reader *r, const rec_span *where);
void wxf_b_block_end(wxf_reader *r, const rec_span *where);
void wxf_b_number(wxf_reader *r, const wxf_tok *t, const rec_span *where);
void wxf_b_dots(wxf_reader *r, const rec_span *where);
void wxf_b_move(wxf_reader *r, const wxf_tok *t, const rec_span *where);
void wxf_b_nag(wxf_reader *r, const wxf_tok *t, const rec_span *where);
void wxf_b_comment(wxf_reader *r, const wxf_tok *t, const rec_span *where);
void wxf_b_diag(wxf_reader *r, const wxf_tok *t, const rec_span *where);
void wxf_b_result(wxf_reader *r, const wxf_tok *t, const rec_span *where);
void wxf_b_junk(wxf_reader *r, const wxf_tok *t, const rec_span *where);
void wxf_b_end(wxf_reader *r, const rec_span *where);

#endif
