/* wxf_reader.c: the pull API over the WXF parser (files and articles), the scanner's
 * helpers (positions, text buffer, encoding) and the tree builder. */
#include <config.h>

#include "i18n/i18n.h"
#include "wxf_reader.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "record/nag.h"
#include "record/utf8.h"
#include "wxf_internal.h"

static void result_from_key(rec_game *g);

/* ------------------------------------------------------------------ input, positions */

size_t wxf_read_input(wxf_reader *r, char *buf, size_t max)
{
    if (r->kind == WXF_INPUT_ARTICLE)
        return article_read(r->art, buf, max);
    if (r->source_read)
        return scan_read_source(r->source_read, r->source, buf, max, &r->io_error, r->error,
                                sizeof r->error);
    return scan_read(r->in, buf, max, &r->io_error, r->error, sizeof r->error);
}

void wxf_rescan(wxf_reader *r, const char *s, size_t n)
{
    uint64_t nb_end = r->pos.nb_end;
    r->pos = r->mark;
    r->pos.nb_end = nb_end;
    src_pos_advance(&r->pos.at, s, n);
}

/* ------------------------------------------------------------------ text and encoding */

static const char *utf8_copy(wxf_reader *r, const char *s, size_t n, const rec_span *where,
                             uint32_t *len)
{
    return scan_utf8_copy(r->a, r->g, &r->enc_reported, s, n, scan_has_high(s, n), where,
                          NULL, len);
}

const char *wxf_text_copy(wxf_reader *r, const char *s, size_t n, const rec_span *where)
{
    uint32_t len;
    return utf8_copy(r, s, n, where, &len);
}

const char *wxf_text_finish(wxf_reader *r, bool trim, uint32_t *flags, uint32_t *len)
{
    const char *s = r->text.buf ? r->text.buf : "";
    size_t n = r->text.len;
    if (trim) {
        while (n && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')) {
            s++;
            n--;
        }
        while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' ||
                     s[n - 1] == '\n'))
            n--;
    }
    *flags = r->text.truncated ? WXF_F_TRUNCATED : 0;
    return utf8_copy(r, s, n, &r->text.start, len);
}

/* ------------------------------------------------------------------ findings */

void wxf_describe(const char *s, size_t n, char out[32])
{
    const unsigned char *u = (const unsigned char *)s;
    if (n == 0) {
        snprintf(out, 32, _("end of input"));
    } else if (u[0] < 0x20 || u[0] == 0x7F) {
        snprintf(out, 32, "U+%04X", u[0]);
    } else if (u[0] < 0x80) {
        if (n == 1)
            snprintf(out, 32, "'%c'", u[0]);
        else
            snprintf(out, 32, "'%.*s%s'", n > 20 ? 20 : (int)n, s, n > 20 ? "..." : "");
    } else if (utf8_valid_prefix(u, n) == n) {
        size_t cut = n > 24 ? 24 : n;
        while (cut < n && cut > 0 && (u[cut] & 0xC0) == 0x80)
            cut--;
        snprintf(out, 32, "'%.*s%s'", (int)cut, s, cut < n ? "..." : "");
    } else {
        snprintf(out, 32, _("byte 0x%02X"), u[0]);
    }
}

/* ------------------------------------------------------------------ builder */

static void touch(wxf_reader *r, const rec_span *where)
{
    if (!r->touched) {
        r->touched = true;
        r->g->start = *where;
    }
}

static const char *phase_place(int phase)
{
    return phase == WXF_HEAD ? _("before START{") : _("after }END");
}

void wxf_b_header(wxf_reader *r, const wxf_tok *t, const rec_span *where)
{
    touch(r, where);
    rec_game *g = r->g;
    const char *key = t->key ? t->key : "?";
    if (strcmp(key, "FORMAT") == 0) {
        if (r->format_seen)
            wxf_syntax_error(r, where, _("a second FORMAT line in one [game] block; "
                             "one block holds one record"));
        r->format_seen = true;
    } else if (r->bphase != WXF_HEAD) {
        wxf_syntax_error(r, where, _("header line %s after the move block"), key);
    }
    for (const rec_tag *x = g->tags; x; x = x->next)
        if (strcmp(x->name, key) == 0) {
            rec_game_add_finding(g, "bad-tag", REC_WARNING, *where,
                                 _("duplicate key %s (first at line %u); both are kept"), key,
                                 (unsigned)x->where.line);
            break;
        }
    if (t->flags & WXF_F_TRUNCATED)
        rec_game_add_finding(g, "comment-too-long", REC_WARNING, *where,
                             _("value of %s is longer than %u bytes; the rest is skipped"), key,
                             WXF_TEXT_LIMIT);
    scan_add_tag(r->a, g, &r->tag_tail, key, t->s, where);
}

/* SETUP{ Ra0 Hb0 ... MOVE 12 BLACK } as a FEN; NULL (and *bad set to the offending
 * token) when it cannot be. Files a-i left to right from Red, ranks 0 (Red's back
 * rank) to 9; H/E are written N/B; the side is w unless BLACK is given. */
static const char *setup_fen(wxf_reader *r, const char *s, const char **bad, size_t *bad_len)
{
    char board[10][9];
    memset(board, 0, sizeof board);
    bool black = false;
    unsigned long move = 1;
    const char *p = s;
    for (;;) {
        while (*p && !isalnum((unsigned char)*p))
            p++;
        if (!*p)
            break;
        const char *tok = p;
        while (isalnum((unsigned char)*p))
            p++;
        size_t n = (size_t)(p - tok);
        *bad = tok;
        *bad_len = n;
        if (n == 3 && strchr("RHEAKCPNBrheakcpnb", tok[0]) && tok[1] >= 'a' && tok[1] <= 'i' &&
            tok[2] >= '0' && tok[2] <= '9') {
            int file = tok[1] - 'a', rank = tok[2] - '0';
            if (board[rank][file])
                return NULL;
            char c = tok[0];
            switch (toupper((unsigned char)c)) {
            case 'H': c = islower((unsigned char)c) ? 'n' : 'N'; break;
            case 'E': c = islower((unsigned char)c) ? 'b' : 'B'; break;
            default: break;
            }
            board[rank][file] = c;
        } else if (n == 3 && memcmp(tok, "RED", 3) == 0) {
            black = false;
        } else if (n == 5 && memcmp(tok, "BLACK", 5) == 0) {
            black = true;
        } else if (n == 4 && memcmp(tok, "MOVE", 4) == 0) {
            while (*p == ' ' || *p == '\t')
                p++;
            char *end;
            move = strtoul(p, &end, 10);
            if (end == p || move == 0 || move > 9999)
                return NULL;
            p = end;
        } else {
            return NULL;
        }
    }
    char fen[128];
    size_t o = 0;
    for (int rank = 9; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 9; file++) {
            if (!board[rank][file]) {
                empty++;
                continue;
            }
            if (empty)
                fen[o++] = (char)('0' + empty);
            empty = 0;
            fen[o++] = board[rank][file];
        }
        if (empty)
            fen[o++] = (char)('0' + empty);
        if (rank)
            fen[o++] = '/';
    }
    fen[o] = '\0';
    return arena_printf(r->a, "%s %c - - 0 %lu", fen, black ? 'b' : 'w', move);
}

void wxf_b_setup(wxf_reader *r, const wxf_tok *t, const rec_span *where)
{
    touch(r, where);
    if (t->flags & WXF_F_UNTERMINATED)
        rec_game_add_finding(r->g, "unterminated-block", REC_ERROR, *where,
                             _("SETUP{ is never closed by '}'"));
    const char *bad = "";
    size_t bad_len = 0;
    const char *fen = (t->flags & (WXF_F_UNTERMINATED | WXF_F_TRUNCATED))
                          ? NULL : setup_fen(r, t->s, &bad, &bad_len);
    if (fen) {
        scan_add_tag(r->a, r->g, &r->tag_tail, "FEN", fen, where);
        return;
    }
    scan_add_tag(r->a, r->g, &r->tag_tail, "SETUP", t->s, where);
    if (bad_len)
        rec_game_add_finding(r->g, "bad-fen", REC_WARNING, *where,
                             _("SETUP{} cannot be read as a position (at '%.*s'); kept as "
                             "tag SETUP"), bad_len > 20 ? 20 : (int)bad_len, bad);
    else
        rec_game_add_finding(r->g, "bad-fen", REC_WARNING, *where,
                             _("SETUP{} cannot be read as a position; kept as tag SETUP"));
}

void wxf_b_start(wxf_reader *r, const rec_span *where)
{
    touch(r, where);
    if (r->bphase == WXF_MOVES) {
        wxf_syntax_error(r, where, _("START{ inside the move block; ignored"));
        return;
    }
    if (r->start_seen)
        wxf_syntax_error(r, where, _("a second START{ block; its moves continue the main line"));
    r->start_seen = true;
    r->bphase = WXF_MOVES;
    r->start_where = *where;
    r->pending_number = 0;
    r->pending_dots3 = false;
}

void wxf_b_block_end(wxf_reader *r, const rec_span *where)
{
    touch(r, where);
    if (r->bphase != WXF_MOVES)
        wxf_syntax_error(r, where, _("}END without START{"));
    r->bphase = WXF_AFTER;
}

void wxf_b_number(wxf_reader *r, const wxf_tok *t, const rec_span *where)
{
    touch(r, where);
    if (r->bphase != WXF_MOVES) {
        wxf_syntax_error(r, where, _("move number %u %s"), (unsigned)t->num,
                         phase_place(r->bphase));
        return;
    }
    r->pending_number = t->num;
    r->pending_dots3 = (t->flags & WXF_F_DOTS3) != 0;
}

void wxf_b_dots(wxf_reader *r, const rec_span *where)
{
    touch(r, where);
    if (r->bphase != WXF_MOVES) {
        wxf_syntax_error(r, where, "'...' %s", phase_place(r->bphase));
        return;
    }
    r->pending_dots3 = true;   /* "7. … P2-1", or "… P2-1" alone: Black to move */
}

void wxf_b_move(wxf_reader *r, const wxf_tok *t, const rec_span *where)
{
    touch(r, where);
    if (r->bphase != WXF_MOVES) {
        char what[32];
        wxf_describe(t->s, t->len, what);
        wxf_syntax_error(r, where, _("unexpected %s %s"), what, phase_place(r->bphase));
        return;
    }
    rec_node *n = scan_new_node(r->a, t->s, where, &r->pending_number, &r->pending_dots3);
    scan_link_node(&r->g->main, true, &r->last, &r->ctail, n);
}

void wxf_b_nag(wxf_reader *r, const wxf_tok *t, const rec_span *where)
{
    touch(r, where);
    rec_game *g = r->g;
    if (r->bphase == WXF_AFTER) {
        if (g->game_nag_count == r->nag_cap) {
            uint32_t cap = r->nag_cap ? r->nag_cap * 2 : 4;
            uint8_t *grown = arena_alloc(r->a, cap);
            if (g->game_nag_count)
                memcpy(grown, g->game_nags, g->game_nag_count);
            g->game_nags = grown;
            r->nag_cap = cap;
        }
        g->game_nags[g->game_nag_count++] = (uint8_t)t->num;
        return;
    }
    if (r->bphase == WXF_HEAD || !r->last) {
        wxf_syntax_error(r, where, _("annotation %s %s; dropped"),
                         nag_symbol((int)t->num) ? nag_symbol((int)t->num) : "?",
                         r->bphase == WXF_HEAD ? _("before START{") : _("before any move"));
        return;
    }
    rec_node_add_nag(r->a, r->last, (uint8_t)t->num);
}

void wxf_b_comment(wxf_reader *r, const wxf_tok *t, const rec_span *where)
{
    touch(r, where);
    scan_add_comment(r->a, &r->ctail, t->s, where);
    if (t->flags & WXF_F_UNTERMINATED)
        rec_game_add_finding(r->g, "unterminated-comment", REC_ERROR, *where,
                             _("comment '/*' is never closed by '*/'"));
    if (t->flags & WXF_F_TRUNCATED)
        scan_comment_too_long(r->g, where, WXF_TEXT_LIMIT);
}

void wxf_b_diag(wxf_reader *r, const wxf_tok *t, const rec_span *where)
{
    touch(r, where);
    scan_add_comment(r->a, &r->ctail, t->s, where)->diagram = true;
    if (t->flags & WXF_F_UNTERMINATED)
        rec_game_add_finding(r->g, "unterminated-block", REC_ERROR, *where,
                             _("DIAG{ is not closed by '}' on its line"));
}

void wxf_b_result(wxf_reader *r, const wxf_tok *t, const rec_span *where)
{
    touch(r, where);
    if (r->bphase == WXF_HEAD) {
        wxf_syntax_error(r, where, _("result %s before START{"), t->s);
        return;
    }
    if (r->g->result) {
        wxf_syntax_error(r, where, _("a second result %s (first %s); ignored"), t->s,
                         r->g->result);
        return;
    }
    r->g->result = t->s;
    r->g->result_where = *where;
}

void wxf_b_junk(wxf_reader *r, const wxf_tok *t, const rec_span *where)
{
    touch(r, where);
    char what[32];
    wxf_describe(t->s, t->len, what);
    if (t->flags & WXF_F_LONG)
        wxf_syntax_error(r, where, _("unexpected %s: a run of 64 or more characters without "
                         "a blank, skipped up to the next blank"), what);
    else if (t->flags & WXF_F_REMARK)
        wxf_syntax_error(r, where, _("unknown annotation %s; dropped"), what);
    else
        wxf_syntax_error(r, where, _("unexpected %s"), what);
}

void wxf_b_end(wxf_reader *r, const rec_span *where)
{
    rec_game *g = r->g;
    if (!r->touched) {
        r->touched = true;
        g->start = *where;
    }
    if (r->bphase == WXF_MOVES)
        rec_game_add_finding(g, "unterminated-block", REC_ERROR, r->start_where,
                             _("START{ is never closed by }END"));
    scan_syntax_overflow(g, r->syntax_errors, WXF_SYNTAX_LIMIT, r->last_end);
    g->end = r->last_byte;
}

/* ------------------------------------------------------------------ API */

wxf_reader *wxf_reader_open(FILE *in, const char *name, wxf_input kind)
{
    wxf_reader *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->in = in;
    r->name = name ? name : "-";
    r->kind = kind;
    r->pos.at = src_pos_start();
    if (kind == WXF_INPUT_ARTICLE) {
        r->art = article_open(in);
        if (!r->art) {
            free(r);
            return NULL;
        }
    }
    if (wxf_lex_init_extra(r, &r->scanner) != 0) {
        article_close(r->art);
        free(r);
        return NULL;
    }
    return r;
}

wxf_reader *wxf_reader_open_source(FILE *in, ssize_t (*read)(void *source, char *buf, size_t size),
                                   void *source, const char *name)
{
    wxf_reader *r = wxf_reader_open(in, name, WXF_INPUT_WXF);
    if (r) {
        r->source_read = read;
        r->source = source;
    }
    return r;
}

static void begin_game(wxf_reader *r, rec_game *game, arena *a)
{
    rec_game_init(game, a, r->name, r->count + 1);
    game->kind = REC_XIANGQI;
    r->a = a;
    r->g = game;
    r->touched = false;
    r->bphase = WXF_HEAD;
    r->start_seen = r->format_seen = false;
    r->last = NULL;
    r->ctail = &game->main.comments;
    r->tag_tail = NULL;
    r->pending_number = 0;
    r->pending_dots3 = false;
    r->nag_cap = 0;
    r->enc_reported = false;
    r->syntax_errors = 0;
}

static rec_span span_of(const src_pos *p)
{
    rec_span s = {p->line, src_pos_column(p), p->off};
    return s;
}

/* One [game] block of an article. */
static int next_in_article(wxf_reader *r, rec_game *game, arena *a)
{
    src_pos open, body;
    int found = article_next_block(r->art, &open, &body);
    if (found < 0) {
        r->io_error = true;
        snprintf(r->error, sizeof r->error, "%s", article_error(r->art));
        return -1;
    }
    if (found == 0) {
        r->done = true;
        return 0;
    }
    begin_game(r, game, a);
    rec_span at = span_of(&open);
    r->touched = true;
    game->start = at;
    /* The scanner counts on from the block's first byte, in article coordinates. */
    r->pos.at = body;
    r->pos.nb_end = 0;
    r->mark = r->pos;
    r->content = r->started = r->eof_sent = false;
    r->phase = WXF_HEAD;
    r->last_byte = span_of(&body);
    wxf_scan_reset(r->scanner);

    int rc = wxf_parse(r->scanner, r);
    (void)rc;   /* every token sequence is a record; a block always ends in one */
    r->done = false;

    if (game->tags == NULL && game->main.first == NULL && game->main.comments == NULL &&
        game->finding_count == 0)
        rec_game_add_finding(game, "empty-block", REC_WARNING, at, _("[game] block is empty"));
    if (!article_block_closed(r->art)) {
        rec_game_add_finding(game, "unterminated-block", REC_ERROR, at,
                             _("[game] is never closed by [/game]"));
    } else {
        src_pos after = article_pos(r->art);
        game->end = span_of(&after);            /* the ']' of "[/game]" */
        game->end.column--;
        game->end.offset--;
        src_pos where;
        int nag = article_eval(r->art, &where);
        if (nag >= 0) {
            r->bphase = WXF_AFTER;
            wxf_tok t = {0};
            t.num = (uint32_t)nag;
            rec_span w = span_of(&where);
            wxf_b_nag(r, &t, &w);
            after = article_pos(r->art);
            game->end = span_of(&after);
            game->end.column--;
            game->end.offset--;
        }
    }
    r->a = NULL;
    r->g = NULL;
    if (r->art && strlen(article_error(r->art)) > 0) {
        r->io_error = true;
        snprintf(r->error, sizeof r->error, "%s", article_error(r->art));
        return -1;
    }
    result_from_key(game);
    r->count++;
    return 1;
}

/* A WXF record states its result in the RESULT key, not with a token in the moves: that
 * key is the record's declared result (the termination marker of the tree). */
static void result_from_key(rec_game *g)
{
    if (g->result)
        return;
    for (const rec_tag *t = g->tags; t; t = t->next)
        if (strcmp(t->name, "RESULT") == 0 && t->value[0]) {
            g->result = t->value;
            g->result_where = t->where;
            return;
        }
}

int wxf_reader_next(wxf_reader *r, rec_game *game, arena *a)
{
    if (r->io_error)
        return -1;
    if (r->done)
        return 0;
    if (r->kind == WXF_INPUT_ARTICLE)
        return next_in_article(r, game, a);

    begin_game(r, game, a);
    int rc = wxf_parse(r->scanner, r);
    r->a = NULL;
    r->g = NULL;
    if (r->io_error)
        return -1;
    if (rc != 0)
        r->done = true;   /* cannot happen with this grammar; never loop on it */
    if (r->done && !r->touched)
        return 0;
    result_from_key(game);
    r->count++;
    return 1;
}

const char *wxf_reader_error(const wxf_reader *r)
{
    return r->error;
}

void wxf_reader_close(wxf_reader *r)
{
    if (!r)
        return;
    wxf_lex_destroy(r->scanner);
    article_close(r->art);
    free(r->text.buf);
    free(r);
}
