/* pgn_reader.c: the pull API over the PGN parser, the scanner's helpers (positions,
 * text buffer, encoding) and the tree builder the grammar actions call. */
#include <config.h>

#include "i18n/i18n.h"
#include "pgn_reader.h"

#include <stdlib.h>
#include <string.h>

#include "pgn_internal.h"
#include "record/nag.h"
#include "record/utf8.h"

/* ------------------------------------------------------------------ positions */

void pgn_rescan(pgn_reader *r, const char *s, size_t n)
{
    pgn_pos *p = &r->pos;
    p->off = r->mark_off;
    if (r->mark_off != r->u8_end)
        r->u8_left = r->u8_seen = 0;
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n; i++) {
        unsigned c = u[i];
        if (r->u8_left) {
            if (c >= 0x80 && c < 0xC0) {
                p->cont++;
                r->u8_seen++;
                if (--r->u8_left == 0)
                    r->u8_seen = 0;
                continue;
            }
            /* A broken sequence: its bytes were characters each (Latin-1). */
            p->cont -= r->u8_seen;
            r->u8_left = r->u8_seen = 0;
        }
        if (c == '\n') {
            p->line++;
            p->line_start = p->off + i + 1;
            p->cont = 0;
        } else if (c >= 0xC2 && c <= 0xF4) {
            r->u8_left = (uint8_t)(c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : 1);
        }
    }
    p->off += n;
    r->u8_end = p->off;
    pgn_linemark(r);
}

void pgn_linemark(pgn_reader *r)
{
    const pgn_pos *p = &r->pos;
    while (r->nlmarks && r->lmarks[r->nlmarks - 1].off >= p->off)
        r->nlmarks--;
    /* No place was taken since the last mark (lines of a long comment): it is never
     * looked up, so this one replaces it and the marks grow with tokens, not lines. */
    if (!r->lm_used && r->nlmarks)
        r->nlmarks--;
    r->lm_used = false;
    if (r->nlmarks == r->lmarks_cap) {
        uint32_t cap = r->lmarks_cap ? r->lmarks_cap * 2 : 64;
        rec_linemark *m = realloc(r->lmarks, cap * sizeof *m);
        if (!m) {   /* as the arena and the text buffers do (PGN_MOVE_LIMIT bounds it) */
            fputs("arbiter: out of memory\n", stderr);
            abort();
        }
        r->lmarks = m;
        r->lmarks_cap = cap;
    }
    r->lmarks[r->nlmarks++] = (rec_linemark){p->off, p->line_start, p->line, p->cont};
}

/* rec_game_locate with the game's marks m[0..n): the last mark and the first are
 * tried before the search, for most places located while a game is read or as it ends
 * (its start, its result, its last token) are on its first line or after its last
 * mark. The line and column as rec_linemarks_locate gives them. */
static rec_span locate(const rec_linemark *m, uint32_t n, rec_span where)
{
    if (where.line != 0 || n == 0)
        return where;
    uint64_t off = where.offset;
    const rec_linemark *k = &m[n - 1];
    if (k->off > off) {
        if (n > 1 && m[1].off <= off)
            return rec_linemarks_locate(m, n, off);
        k = m;
    }
    return (rec_span){k->line, (uint32_t)(off - k->line_start - k->cont) + 1, off};
}

rec_span pgn_locate(const pgn_reader *r, rec_span where)
{
    return locate(r->lmarks, r->nlmarks, where);
}

/* The state where the token's match ended, less the blanks it took along (ASCII, on
 * the token's line). */
rec_span pgn_last_end(const pgn_reader *r)
{
    rec_span s = {.offset = r->last_end};
    s = pgn_locate(r, s);
    s.column -= r->last_trail;
    s.offset -= r->last_trail;
    return s;
}

/* The byte before end (on its line). */
static rec_span byte_before(rec_span end)
{
    end.column = end.column > 1 ? end.column - 1 : 1;
    end.offset = end.offset ? end.offset - 1 : 0;
    return end;
}

rec_span pgn_last_byte(const pgn_reader *r)
{
    return byte_before(pgn_last_end(r));
}

/* ------------------------------------------------------------------ text and encoding */

/* s[0..n) as UTF-8, PGN_F_NOT_UTF8 added to *flags when it was transcoded. */
static const char *utf8_copy(pgn_reader *r, const char *s, size_t n, bool high,
                             const rec_span *where, uint32_t *flags, uint32_t *len)
{
    bool converted = false;
    const char *copy = scan_utf8_copy(r->a, r->g, &r->enc_reported, s, n, high, where,
                                      &converted, len);
    if (converted)
        *flags |= PGN_F_NOT_UTF8;
    return copy;
}

const char *pgn_text_copy(pgn_reader *r, const char *s, size_t n, const rec_span *where,
                          uint32_t *flags)
{
    uint32_t len;
    *flags = 0;
    return utf8_copy(r, s, n, scan_has_high(s, n), where, flags, &len);
}

void pgn_text_reset(pgn_reader *r, const rec_span *start)
{
    scan_text_reset(&r->text, start);
    r->quote_end = 0;
    r->lm_used = true;
}

const char *pgn_text_finish(pgn_reader *r, uint32_t *flags, uint32_t *len)
{
    const scan_text *t = &r->text;
    *flags = t->truncated ? PGN_F_TRUNCATED : 0;
    return utf8_copy(r, t->buf ? t->buf : "", t->len, t->high, &t->start, flags, len);
}

/* ------------------------------------------------------------------ findings */

void pgn_describe(const char *s, size_t n, char out[32])
{
    const unsigned char *u = (const unsigned char *)s;
    if (n == 0) {
        snprintf(out, 32, _("end of input"));
        return;
    }
    if (u[0] < 0x20 || u[0] == 0x7F) {
        snprintf(out, 32, "U+%04X", u[0]);
        return;
    }
    if (u[0] < 0x80) {
        snprintf(out, 32, "'%c'", u[0]);
        return;
    }
    size_t k = utf8_valid_prefix(u, n);
    if (k > 0 && k <= 24) {
        snprintf(out, 32, "'%.*s'", (int)k, s);
        return;
    }
    if (k > 24) {
        size_t cut = 24;
        while (cut > 0 && (u[cut] & 0xC0) == 0x80)
            cut--;
        snprintf(out, 32, "'%.*s...'", (int)cut, s);
        return;
    }
    snprintf(out, 32, _("byte 0x%02X"), u[0]);
}

/* ------------------------------------------------------------------ builder */

static const char expecting[] =
    N_("expecting a move, move number, NAG, comment, variation or result");

static void touch(pgn_reader *r, const rec_span *where)
{
    if (!r->started) {
        r->started = true;
        r->g->start = *where;
    }
}

static void movetext(pgn_reader *r, const rec_span *where, int kind)
{
    touch(r, where);
    r->has_moves = true;
    r->last_kind = kind;
}

/* The findings of a tag named name (len bytes) with a value of flags (PGN_F_*), closed
 * by ']' or not. */
static void tag_findings(pgn_reader *r, const char *name, uint32_t len, uint32_t flags,
                         bool closed, const rec_span *where)
{
    rec_game *g = r->g;
    uint64_t bit = 1ull << rec_tag_name_bit(name, len);
    if (r->tag_bits & bit) {
        for (const rec_tag *t = g->tags; t; t = t->next)
            if (t->name[0] == name[0] && strcmp(t->name, name) == 0) {
                rec_game_add_finding(g, "bad-tag", REC_WARNING, *where,
                                     _("duplicate tag %s (first at line %u); both are kept"),
                                     name, (unsigned)pgn_locate(r, t->where).line);
                break;
            }
    }
    r->tag_bits |= bit;
    if (flags & PGN_F_UNTERMINATED)
        rec_game_add_finding(g, "bad-tag", REC_ERROR, *where,
                             _("value of tag %s has no closing quote"), name);
    else if (!closed)
        rec_game_add_finding(g, "bad-tag", REC_WARNING, *where,
                             _("tag %s has no closing ']'"), name);
    if (flags & PGN_F_TRUNCATED)
        rec_game_add_finding(g, "comment-too-long", REC_WARNING, *where,
                             _("value of tag %s is longer than %u bytes; the rest is skipped"),
                             name, PGN_TEXT_LIMIT);
    if (r->has_moves)
        rec_game_add_finding(g, "bad-tag", REC_WARNING, *where,
                             _("tag %s in the movetext (a tag section starts a line)"), name);
}

void pgn_b_tag(pgn_reader *r, const pgn_tok *name, const pgn_tok *value, bool closed,
               const rec_span *where)
{
    touch(r, where);
    if (!value) {
        rec_game_add_finding(r->g, "bad-tag", REC_ERROR, *where,
                             _("tag %s has no value (written [%s \"value\"])"), name->s, name->s);
        return;
    }
    tag_findings(r, name->s, name->len, value->flags, closed, where);
    scan_add_tag(r->a, r->g, &r->tag_tail, name->s, value->s, where);
}

void pgn_b_tag_pair(pgn_reader *r, const char *name, uint32_t len, const char *value,
                    uint32_t vlen, uint64_t off, bool wide)
{
    rec_span where = {.offset = off};
    touch(r, &where);
    char *name_copy, *value_copy;
    rec_tag *t;
    if (wide && len < 16 && vlen < 16) {
        /* the usual short name and value: sixteen bytes each, copied whole (what goes
         * past the NUL is never read) */
        t = arena_alloc_uninit(r->a, sizeof *t + 32, _Alignof(rec_tag));
        name_copy = (char *)(t + 1);
        value_copy = name_copy + 16;
        memcpy(name_copy, name, 16);
        memcpy(value_copy, value, 16);
    } else {
        t = arena_alloc_uninit(r->a, sizeof *t + len + vlen + 2, _Alignof(rec_tag));
        name_copy = (char *)(t + 1);
        value_copy = name_copy + len + 1;
        bytes8_copy(name_copy, name, len);   /* short: no memcpy call */
        bytes8_copy(value_copy, value, vlen);
    }
    name_copy[len] = '\0';
    value_copy[vlen] = '\0';
    /* tag_findings has nothing to say of a plain pair whose name is new in a tag
     * section: only its bit is set, without a call */
    uint64_t bit = 1ull << rec_tag_name_bit(name_copy, len);
    if ((r->tag_bits & bit) || r->has_moves)
        tag_findings(r, name_copy, len, 0, true, &where);
    else
        r->tag_bits |= bit;
    *t = (rec_tag){.name = name_copy, .value = value_copy, .where = where,
                   .name_len = len, .value_len = vlen};
    rec_game_link_tag(r->g, r->tag_tail, t);
    r->tag_tail = t;
}

/* Moves, variations and comments all cost memory: past PGN_MOVE_LIMIT of them in one
 * game they are only counted (one game-too-long finding), so a run of "(" or "{}"
 * cannot exhaust memory. */
static bool limit_reached(pgn_reader *r, const rec_span *where);

static inline bool over_limit(pgn_reader *r, const rec_span *where)
{
    if (__builtin_expect(++r->moves <= PGN_MOVE_LIMIT, 1))
        return false;   /* inline: every comment takes this test, a call cost more */
    return limit_reached(r, where);
}

/* moves passed the limit, but it counted the node chunk's unused slots as moves: while
 * there is one, this item takes its place (the chunk shrinks) and is kept. */
static bool limit_reached(pgn_reader *r, const rec_span *where)
{
    if (r->node_next != r->node_end) {
        r->node_end -= PGN_NODE_SLOT;
        r->moves--;
        return false;
    }
    pgn_b_too_long(r, where);
    return true;
}

void pgn_b_too_long(pgn_reader *r, const rec_span *where)
{
    if (r->moves == PGN_MOVE_LIMIT + 1)
        rec_game_add_finding(r->g, "game-too-long", REC_ERROR, *where,
                             _("game has more than %u moves, variations and comments; the rest "
                             "is skipped"), PGN_MOVE_LIMIT);
}

bool pgn_node_chunk(pgn_reader *r)
{
    _Static_assert(PGN_NODE_SLOT % _Alignof(rec_node) == 0, "slots stay aligned");
    /* the slots are counted as moves now, so the fast path does not count each move;
     * near the limit the chunk holds only the moves still allowed */
    if (r->moves >= PGN_MOVE_LIMIT) {
        r->moves++;
        return false;
    }
    uint32_t slots = PGN_MOVE_LIMIT - r->moves;
    if (slots > PGN_NODE_CHUNK)
        slots = PGN_NODE_CHUNK;
    r->moves += slots;
    r->node_next = arena_alloc_uninit(r->a, PGN_NODE_SLOT * slots, _Alignof(rec_node));
    r->node_end = r->node_next + PGN_NODE_SLOT * slots;
    return true;
}

void pgn_b_move(pgn_reader *r, const pgn_tok *t, const rec_span *where)
{
    rec_span move_at;
    if (t->flags & PGN_F_NUMBERED) {
        /* "12. Nf3" came as one token: the number first, then the move after it (the
         * number, dots and blanks are ASCII, a character a byte) */
        pgn_tok number = {.num = t->num, .flags = t->vflags};
        pgn_b_number(r, &number, where);
        move_at = *where;
        move_at.offset += t->vlen;
        where = &move_at;
    }
    movetext(r, where, TOK_MOVE);
    if (over_limit(r, where))
        return;
    rec_node *n = scan_new_node(r->a, t->s, where, &r->pending.number, &r->pending.dots3);
    r->g->moves_fast_only = false;
    n->ep_written = (t->flags & PGN_F_EP) != 0;
    scan_link_node(r->line, r->line == &r->g->main, &r->last, &r->ctail, n);
}

void pgn_b_number(pgn_reader *r, const pgn_tok *t, const rec_span *where)
{
    movetext(r, where, TOK_MOVE_NUMBER);
    r->pending.number = t->num;
    r->pending.dots3 = t->flags >= 3;
}

void pgn_b_dots(pgn_reader *r, const pgn_tok *t, const rec_span *where)
{
    int before = r->last_kind;
    movetext(r, where, TOK_DOTS);
    if (before == TOK_MOVE_NUMBER || before == TOK_DOTS) {
        if (t->flags >= 3)
            r->pending.dots3 = true;
        r->last_kind = TOK_MOVE_NUMBER;
        return;
    }
    pgn_syntax_error(r, where, _("'%s' without a move number"),
                     t->flags >= 3 ? "..." : ".");
}

void pgn_b_nag(pgn_reader *r, const pgn_tok *t, const rec_span *where)
{
    movetext(r, where, TOK_NAG);
    if (t->flags & PGN_F_BAD) {
        pgn_syntax_error(r, where, _("bad NAG %s: NAGs are $0 to $%d; dropped"), t->s, NAG_MAX);
        return;
    }
    if (!r->last) {
        pgn_syntax_error(r, where, _("NAG $%u before any move of its line; dropped"),
                         (unsigned)t->num);
        return;
    }
    rec_node_add_nag(r->a, r->last, (uint8_t)t->num);
}

void pgn_b_ep(pgn_reader *r, const rec_span *where)
{
    int before = r->last_kind;
    movetext(r, where, TOK_EP);
    if (before == TOK_MOVE && r->last)
        r->last->ep_written = true;
    else
        pgn_syntax_error(r, where, _("'e.p.' does not follow a move"));
}

void pgn_b_comment(pgn_reader *r, const pgn_tok *t, const rec_span *where)
{
    touch(r, where);
    if (over_limit(r, where))
        return;
    rec_comment *c = scan_add_comment(r->a, &r->ctail, t->s, where);
    if (r->g->comments_claim_free && rec_text_may_claim_mate(c->text))
        r->g->comments_claim_free = false;
    c->rest_of_line = (t->flags & PGN_F_REST_OF_LINE) != 0;
    if (t->flags & PGN_F_UNTERMINATED)
        rec_game_add_finding(r->g, "unterminated-comment", REC_ERROR, *where,
                             _("comment '{' is never closed by '}'"));
    if (t->flags & PGN_F_TRUNCATED)
        scan_comment_too_long(r->g, where, PGN_TEXT_LIMIT);
}

void pgn_b_comment_plain(pgn_reader *r, const char *s, size_t n, size_t crs, uint64_t off)
{
    rec_span where = {.offset = off};
    touch(r, &where);
    if (over_limit(r, &where))
        return;
    size_t len = n - crs;
    rec_comment *c = arena_alloc_uninit(r->a, sizeof *c + len + 1, _Alignof(rec_comment));
    char *t = (char *)(c + 1);
    if (crs == 0) {
        bytes8_copy(t, s, n);
    } else {
        /* every CR here comes before a newline: the pieces between them */
        char *o = t;
        for (const char *e = s + n; s < e;) {
            const char *cr = memchr(s, '\r', (size_t)(e - s));
            size_t k = (size_t)((cr ? cr : e) - s);
            bytes8_copy(o, s, k);
            o += k;
            s += k + 1;
        }
    }
    t[len] = '\0';
    /* the byte test first: the word test only for a comment that has one */
    if (r->g->comments_claim_free && bytes_has_claim_byte(t, len) && rec_text_may_claim_mate(t))
        r->g->comments_claim_free = false;
    *c = (rec_comment){.text = t, .where = where};
    *r->ctail = c;
    r->ctail = &c->next;
}

void pgn_b_comment_short(pgn_reader *r, const char *s, size_t n, uint64_t off)
{
    rec_comment *c;
    /* at the limit, or with no room in the arena's block: the general way */
    if (r->moves >= PGN_MOVE_LIMIT ||
        !(c = arena_alloc_here(r->a, sizeof *c + 33, _Alignof(rec_comment)))) {
        pgn_b_comment_plain(r, s, n, 0, off);
        return;
    }
    r->moves++;   /* over_limit's count */
    rec_span where = {.offset = off};
    touch(r, &where);
    /* thirty-two bytes copied whole (what goes past the NUL is never read) */
    char *t = (char *)(c + 1);
    memcpy(t, s, 32);
    t[n] = '\0';
    /* the claims check's byte test on the 32 bytes copied, those past the text masked */
    uint64_t claim = bytes16_claim_mask(t) | (uint64_t)bytes16_claim_mask(t + 16) << 16;
    if ((claim & ((UINT64_C(1) << n) - 1)) && r->g->comments_claim_free &&
        rec_text_may_claim_mate(t))
        r->g->comments_claim_free = false;
    *c = (rec_comment){.text = t, .where = where};
    *r->ctail = c;
    r->ctail = &c->next;
}

void pgn_b_open(pgn_reader *r, const rec_span *where)
{
    movetext(r, where, TOK_LPAREN);
    if (r->skipped_open || over_limit(r, where)) {
        r->skipped_open++; /* past the limit: only the nesting is followed */
        return;
    }
    rec_line *v = arena_alloc(r->a, sizeof *v);
    v->where = *where;
    if (r->last) {
        if (r->vt_node == r->last && r->vt_last)
            r->vt_last->next = v;
        else {
            rec_line **p = &r->last->variations;
            while (*p)
                p = &(*p)->next;
            *p = v;
        }
    } else {
        pgn_syntax_error(r, where,
                         _("variation before any move of its line; it is read but not kept"));
    }
    if (r->depth_b == r->stack_cap) {
        uint32_t cap = r->stack_cap ? r->stack_cap * 2 : 64;
        /* uninitialised: a frame is written whole before it is read */
        pgn_frame *grown = arena_alloc_uninit(r->a, cap * sizeof *grown, _Alignof(pgn_frame));
        if (r->depth_b)
            memcpy(grown, r->stack, r->depth_b * sizeof *grown);
        r->stack = grown;
        r->stack_cap = cap;
    }
    r->stack[r->depth_b++] = (pgn_frame){r->line, r->last, v, r->ctail};
    r->line = v;
    r->last = NULL;
    r->ctail = &v->comments;
    r->pending = (pgn_pending){0, false};
}

void pgn_b_close(pgn_reader *r, const rec_span *where)
{
    movetext(r, where, TOK_RPAREN);
    if (r->skipped_open) {
        r->skipped_open--;
        return;
    }
    if (r->depth_b == 0) {
        pgn_syntax_error(r, where, _("')' without a matching '('; ignored"));
        return;
    }
    pgn_frame *f = &r->stack[--r->depth_b];
    r->line = f->parent;
    r->last = f->last;
    r->vt_node = f->last;
    r->vt_last = f->last ? f->child : NULL;
    /* the tail of r->last's comments (or the line's), as it was at the '(' */
    r->ctail = f->ctail;
    r->pending = (pgn_pending){0, false};
}

void pgn_b_inner_result(pgn_reader *r, const pgn_tok *t, const rec_span *where)
{
    movetext(r, where, TOK_INNER_RESULT);
    pgn_syntax_error(r, where, _("game termination marker %s inside a variation; ignored"), t->s);
}

void pgn_b_junk(pgn_reader *r, const pgn_tok *t, const rec_span *where)
{
    touch(r, where);
    if (t->flags & PGN_F_STRING) {
        /* quote at most 40 bytes, cut at a character boundary (the text is UTF-8) */
        size_t cut = t->len > 40 ? 40 : t->len;
        while (cut > 0 && cut < t->len && ((unsigned char)t->s[cut] & 0xC0) == 0x80)
            cut--;
        pgn_syntax_error(r, where, _("unexpected string \"%.*s%s\", %s"), (int)cut, t->s,
                         cut < t->len ? "..." : "", _(expecting));
        return;
    }
    char what[32];
    pgn_describe(t->s, t->len, what);
    unsigned char c0 = (unsigned char)t->s[0];
    if (strchr("!?+-=/", c0) || (c0 >= 0xC2 && c0 <= 0xF4 && t->len > 1))
        pgn_syntax_error(r, where, _("unknown annotation symbol %s; dropped"), what);
    else
        pgn_syntax_error(r, where, _("unexpected %s, %s"), what, _(expecting));
}

static void finish(pgn_reader *r)
{
    rec_game *g = r->g;
    if (r->depth_b) {
        uint32_t n = r->depth_b;
        for (uint32_t i = 0; i < n; i++) {
            rec_line *v = r->stack[i].child;
            v->unterminated = true;
            if (i < PGN_UNCLOSED_LIMIT)
                rec_game_add_finding(g, "unterminated-variation", REC_ERROR, v->where,
                                     _("variation '(' is never closed by ')'"));
        }
        if (n > PGN_UNCLOSED_LIMIT)
            rec_game_add_finding(g, "unterminated-variation", REC_ERROR,
                                 r->stack[PGN_UNCLOSED_LIMIT].child->where,
                                 _("%u more variations are never closed"),
                                 (unsigned)(n - PGN_UNCLOSED_LIMIT));
    }
    /* one search of the line marks for both (every game ends here) */
    rec_span end = pgn_last_end(r);
    scan_syntax_overflow(g, r->syntax_errors, PGN_SYNTAX_LIMIT, end);
    g->end = byte_before(end);
}

void pgn_b_result(pgn_reader *r, const pgn_tok *t, const rec_span *where)
{
    touch(r, where);
    r->g->result = t->s;
    r->g->result_where = *where;
    finish(r);
}

void pgn_b_end(pgn_reader *r, const rec_span *where)
{
    (void)where;
    if (!r->started)
        r->g->start = pgn_last_end(r);
    if (r->has_moves || r->g->tags)
        rec_game_add_finding(r->g, "missing-result", REC_ERROR, pgn_last_end(r),
                             _("game has no termination marker (1-0, 0-1, 1/2-1/2 or *)"));
    finish(r);
}

/* ------------------------------------------------------------------ API */

pgn_reader *pgn_reader_open(FILE *in, const char *name)
{
    pgn_reader *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->in = in;
    r->name = name ? name : "-";
    r->pos.line = 1;
    r->error[0] = '\0';
    if (pgn_lex_init_extra(r, &r->scanner) != 0) {
        free(r);
        return NULL;
    }
    pgn_set_in(in, r->scanner);
    return r;
}

pgn_reader *pgn_reader_open_source(FILE *in, ssize_t (*read)(void *source, char *buf, size_t size),
                                   void *source, const char *name)
{
    pgn_reader *r = pgn_reader_open(in, name);
    if (r) {
        r->source_read = read;
        r->source = source;
    }
    return r;
}

pgn_reader *pgn_reader_open_buffer(char *text, size_t len, const char *name)
{
    text[len] = text[len + 1] = '\0'; /* the scanner's end of buffer */
    pgn_reader *r = pgn_reader_open(NULL, name);
    if (r && !pgn__scan_buffer(text, len + 2, r->scanner)) {
        pgn_reader_close(r);
        r = NULL;
    }
    return r;
}

/* The game's line marks go with it (into its arena), and what the reader reported
 * gets its line and column now; the referee's findings get theirs as they are made. */
static void give_linemarks(pgn_reader *r, rec_game *g)
{
    rec_linemark *m = arena_alloc_uninit(r->a, r->nlmarks * sizeof *m, _Alignof(rec_linemark));
    memcpy(m, r->lmarks, r->nlmarks * sizeof *m);
    g->linemarks = m;
    g->linemark_count = r->nlmarks;
    g->start = locate(m, r->nlmarks, g->start);
    g->end = locate(m, r->nlmarks, g->end);
    g->result_where = locate(m, r->nlmarks, g->result_where);
    for (rec_finding *f = g->findings; f; f = f->next)
        f->where = locate(m, r->nlmarks, f->where);
}

int pgn_reader_next(pgn_reader *r, rec_game *game, arena *a)
{
    if (r->io_error)
        return -1;
    if (r->done)
        return 0;
    rec_game_init(game, a, r->name, r->count + 1);
    game->comments_claim_free = true;   /* till a comment says otherwise */
    game->moves_fast_only = true;       /* till pgn_b_move reads one */
    r->a = a;
    r->g = game;
    r->started = r->has_moves = false;
    r->line = &game->main;
    r->last = NULL;
    r->ctail = &game->main.comments;
    r->tag_tail = NULL;
    r->tag_bits = 0;
    r->stack = NULL;
    r->depth_b = r->stack_cap = 0;
    r->vt_node = NULL;
    r->vt_last = NULL;
    r->pending = (pgn_pending){0, false};
    r->last_kind = 0;
    r->enc_reported = false;
    r->syntax_errors = 0;
    r->moves = 0;
    r->skipped_open = 0;
    r->node_next = r->node_end = NULL;
    r->nlmarks = 0;
    pgn_linemark(r);

    if (r->skip_trailer) {
        pgn_scan_skip_trailer(r->scanner);
        r->skip_trailer = false;
    }
    int rc = pgn_parse(r->scanner, r);
    give_linemarks(r, game);
    r->a = NULL;
    r->g = NULL;
    /* xqbase records end with an advertisement after the result token; every tag kept
     * set its name's bit, so most games are told without walking their tags */
    const char *game_tag = NULL;
    if (game->result && (r->tag_bits & (1ull << rec_tag_name_bit("Game", 4))))
        game_tag = rec_game_tag(game, "Game");
    r->skip_trailer = game_tag && strcmp(game_tag, "Chinese Chess") == 0;
    /* a read failure ends the text: the game it cut is given as the text's last (as a
     * piece cut there at -j2 gives it), the failure at the next call */
    if (r->io_error && !r->started)
        return -1;
    if (rc != 0) {
        /* Cannot happen with this grammar; never loop on it. */
        r->done = true;
    }
    if (r->done && !r->started) {
        if (r->tail == 0)
            r->tail = 1;
        return 0;
    }
    /* Only comments after the last game: not a game unless something is wrong there. */
    if (r->at_eof && !r->has_moves && !game->tags && !game->result &&
        game->error_count == 0 && game->warning_count == 0) {
        r->done = true;
        r->tail = -1;
        return 0;
    }
    if (r->at_eof)
        r->tail = r->eof_clean ? 1 : -1;
    r->count++;
    return 1;
}

void pgn_reader_set_start(pgn_reader *r, uint64_t offset, uint32_t line, bool bom_seen)
{
    r->pos.off = r->pos.line_start = r->pos.nb_end = offset;
    r->pos.line = line;
    r->pos.cont = 0;
    r->mark_off = r->mark_nb = offset;
    r->bom_seen = bom_seen;
}

bool pgn_reader_ended_cleanly(const pgn_reader *r)
{
    return r->tail == 1;
}

const char *pgn_reader_error(const pgn_reader *r)
{
    return r->error;
}

void pgn_reader_close(pgn_reader *r)
{
    if (!r)
        return;
    pgn_lex_destroy(r->scanner);
    free(r->text.buf);
    free(r->lmarks);
    free(r);
}
