/* byte_repair.c: the safe repairs as edits of the file's bytes. See byte_repair.h. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/chess.h"
#include "core/xiangqi.h"
#include "i18n/i18n.h"
#include "notation/chess_san.h"
#include "referee/referee.h"
#include "writer/byte_repair.h"

static void add_edit(repair_run *run, uint64_t offset, size_t length, const char *text,
                     rec_span where, const char *what)
{
    if (offset + length > run->len || strlen(text) > 200)
        return;
    if (length == strlen(text) && memcmp(run->bytes + offset, text, length) == 0)
        return;
    if (run->count == run->cap) {
        run->cap = run->cap ? run->cap * 2 : 16;
        run->edits = realloc(run->edits, run->cap * sizeof *run->edits);
        if (!run->edits) {
            fprintf(stderr, "arbiter: %s\n", _("fix: out of memory"));
            exit(2);
        }
    }
    repair_edit *e = &run->edits[run->count++];
    e->offset = offset;
    e->length = (uint32_t)length;
    e->before = strndup(run->bytes + offset, length);
    e->text = strdup(text);
    e->line = where.line;
    e->column = where.column;
    e->what = what;
}

/* Whether the file holds `text` at offset: the referee's spans must match the bytes
 * before anything is replaced (never fabricate). */
static bool bytes_are(const repair_run *run, uint64_t offset, const char *text)
{
    size_t n = strlen(text);
    return offset + n <= run->len && memcmp(run->bytes + offset, text, n) == 0;
}

/* PGN 8.2.3.2: the move's own text with the marker it deserves. */
static void fix_marker(repair_run *run, const rec_finding *f)
{
    chess_pos pos;
    char err[120];
    if (!f->fen || !f->move_text || !chess_pos_from_fen(&pos, f->fen, err, sizeof err))
        return;
    san_result res;
    chess_san_parse(&pos, f->move_text, &res);
    if (res.status != SAN_OK || !bytes_are(run, f->where.offset, f->move_text))
        return;
    char text[64];
    size_t len = strlen(f->move_text);
    while (len > 0 && (f->move_text[len - 1] == '+' || f->move_text[len - 1] == '#'))
        len--;
    if (len == 0 || len + 3 > sizeof text)
        return;
    /* ‡ and † are multibyte: leave such texts alone */
    for (size_t i = 0; i < strlen(f->move_text); i++)
        if ((unsigned char)f->move_text[i] >= 0x80)
            return;
    snprintf(text, sizeof text, "%.*s%s", (int)len, f->move_text, res.check_marker_expected);
    add_edit(run, f->where.offset, strlen(f->move_text), text, f->where, "check-marker");
}

/* PGN 8.2.2: the number written before the move, found by reading back from it. */
static void fix_number(repair_run *run, const rec_game *g, const rec_finding *f)
{
    int fullmove, second;
    char err[120];
    if (!f->fen)
        return;
    if (g->kind == REC_CHESS) {
        chess_pos pos;
        if (!chess_pos_from_fen(&pos, f->fen, err, sizeof err))
            return;
        char fen[CHESS_FEN_BUFSIZE];
        chess_pos_to_fen(&pos, fen, sizeof fen);
        second = chess_pos_side(&pos) == CHESS_BLACK;
        const char *sp = strrchr(fen, ' ');
        fullmove = sp ? atoi(sp + 1) : 0;
    } else {
        xq_pos pos;
        if (!xq_pos_from_fen(&pos, f->fen, err, sizeof err))
            return;
        second = pos.side == XQ_BLACK;
        fullmove = (int)pos.fullmove;
    }
    if (fullmove <= 0)
        return;
    uint64_t at = f->where.offset;
    while (at > 0 && (run->bytes[at - 1] == ' ' || run->bytes[at - 1] == '\t'))
        at--;
    uint64_t dots_end = at;
    while (at > 0 && run->bytes[at - 1] == '.')
        at--;
    size_t dots = (size_t)(dots_end - at);
    if (dots != 1 && dots != 3)
        return;
    uint64_t digits_end = at;
    while (at > 0 && run->bytes[at - 1] >= '0' && run->bytes[at - 1] <= '9')
        at--;
    if (at == digits_end || digits_end - at > 6)
        return;
    if (at > 0 && !strchr(" \t\r\n()[{}]", run->bytes[at - 1]))
        return;
    char text[24];
    /* a second player's move keeps its number only when it was written ("12...") */
    if (second && dots != 3)
        return;
    snprintf(text, sizeof text, "%d%s", fullmove, second ? "..." : ".");
    rec_span where = f->where;
    add_edit(run, at, (size_t)(dots_end - at), text, where, "move-number");
}

/* A tag's value in the file: the bytes between the quotes after the tag's name (PGN),
 * or the rest of the line after the name and its blanks (WXF "RESULT  1-0"). */
static bool tag_value_span(const repair_run *run, const rec_tag *t, uint64_t *off, size_t *len)
{
    uint64_t at = t->where.offset;
    uint64_t end = at + 256 < run->len ? at + 256 : run->len;
    while (at < end && run->bytes[at] != '"' && run->bytes[at] != '\n')
        at++;
    if (at < end && run->bytes[at] == '"') {
        uint64_t v = ++at;
        while (at < end && run->bytes[at] != '"' && run->bytes[at] != '\n' &&
               run->bytes[at] != '\\')
            at++;
        if (at >= end || run->bytes[at] != '"')
            return false;
        *off = v;
        *len = (size_t)(at - v);
        return true;
    }
    at = t->where.offset;
    size_t name = strlen(t->name);
    if (at + name > end || strncasecmp(run->bytes + at, t->name, name) != 0)
        return false;
    at += name;
    if (at >= end || (run->bytes[at] != ' ' && run->bytes[at] != '\t'))
        return false;
    while (at < end && (run->bytes[at] == ' ' || run->bytes[at] == '\t'))
        at++;
    uint64_t v = at;
    while (at < end && run->bytes[at] != '\n' && run->bytes[at] != '\r')
        at++;
    while (at > v && (run->bytes[at - 1] == ' ' || run->bytes[at - 1] == '\t'))
        at--;
    *off = v;
    *len = (size_t)(at - v);
    return at > v;
}

/* The Result tag (and terminator) the board decides; without the board, the tag and
 * the terminator agree on the one that says more (a "*" terminator takes the tag's
 * result, otherwise the tag takes the terminator's). */
static void fix_result(repair_run *run, const rec_game *g, bool board)
{
    const char *tag = rec_game_tag(g, "Result");
    if (!board && g->result && strcmp(g->result, "*") == 0 && tag &&
        referee_normal_result(tag) && bytes_are(run, g->result_where.offset, g->result)) {
        add_edit(run, g->result_where.offset, 1, referee_normal_result(tag), g->result_where,
                 "result");
        return;
    }
    const char *want = board ? g->derived_result : g->result;
    if (!want || (strcmp(want, "*") == 0 && board))
        return;
    for (const rec_tag *t = g->tags; t; t = t->next) {
        if (strcasecmp(t->name, "Result") != 0)  /* PGN Result, WXF RESULT */
            continue;
        uint64_t off;
        size_t len;
        if (tag_value_span(run, t, &off, &len) && strcmp(t->value, want) != 0 &&
            len == strlen(t->value) && bytes_are(run, off, t->value))
            add_edit(run, off, len, want, rec_game_locate(g, t->where), "result");
        break;
    }
    if (board && g->result && strcmp(g->result, want) != 0 &&
        bytes_are(run, g->result_where.offset, g->result))
        add_edit(run, g->result_where.offset, strlen(g->result), want, g->result_where,
                 "result");
}

/* Bytes glued to a move's text that the reader did not keep as a move: "R11.8" is read
 * as R11 and a stray ".8"; the repair replaces the whole word. */
static size_t token_tail(const repair_run *run, const rec_fix *e)
{
    uint64_t at = e->where.offset + e->length;
    size_t n = 0;
    while (at + n < run->len && strchr(".+-=/0123456789", run->bytes[at + n]) &&
           run->bytes[at + n] != '\0')
        n++;
    if (at + n < run->len && !strchr(" \t\r\n(){}[];", run->bytes[at + n]))
        return 0; /* more than punctuation follows: not ours to swallow */
    return n;
}

bool repair_game(rec_game *g, const char *path, void *ctx)
{
    repair_run *run = ctx;
    if (!path) {
        run->skipped++;  /* transcoded or compressed input: spans are not the file's bytes */
        return true;
    }
    bool board_result = false, tag_result = false, move_error = false;
    for (const rec_finding *f = g->findings; f; f = f->next) {
        move_error = move_error || strcmp(f->code, "illegal-move") == 0 ||
                     strcmp(f->code, "unreadable-move") == 0 ||
                     strcmp(f->code, "ambiguous-move") == 0;
        if (f->fix && f->fix_certain) {
            bool ok = true;
            for (const rec_fix *e = f->fix; e; e = e->next)
                ok = ok && bytes_are(run, e->where.offset, e->before);
            for (const rec_fix *e = f->fix; ok && e; e = e->next)
                add_edit(run, e->where.offset,
                         e->length + (f->tag ? 0 : token_tail(run, e)), e->text, e->where,
                         f->tag ? "tag" : "move");
        } else if ((strcmp(f->code, "check-marker") == 0 ||
                    /* a '#' on a move that does not mate: the marker it deserves */
                    (strcmp(f->code, "mate-claim") == 0 && f->move_text &&
                     strchr(f->move_text, '#'))) &&
                   g->kind == REC_CHESS) {
            fix_marker(run, f);
        } else if (strcmp(f->code, "move-number") == 0) {
            fix_number(run, g, f);
        } else if (strcmp(f->code, "result-contradicts-board") == 0) {
            board_result = true;
        } else if (strcmp(f->code, "result-mismatch") == 0) {
            tag_result = true;
        }
    }
    /* --names: the canonical spelling of a name whose group is unambiguous (the
     * group's majority, or the spelling file's), on a tag written [Name "value"] */
    for (const rec_tag *t = run->canonical ? g->tags : NULL; t; t = t->next) {
        const char *to = run->canonical(run->canonical_ctx, t->name, t->value);
        if (!to || strpbrk(t->value, "\"\\") || strpbrk(to, "\"\\"))
            continue;
        char before[600], after[600];
        int nb = snprintf(before, sizeof before, "[%s \"%s\"]", t->name, t->value);
        int na = snprintf(after, sizeof after, "[%s \"%s\"]", t->name, to);
        if (nb > 0 && na > 0 && (size_t)nb < sizeof before && (size_t)na < sizeof after &&
            bytes_are(run, t->where.offset, before))
            add_edit(run, t->where.offset, (size_t)nb, after, rec_game_locate(g, t->where),
                     "name");
    }
    if (run->latex)
        return true;   /* "result=1-0" has no PGN tag or terminator bytes to edit */
    /* the board's result is that of the moves that replayed: while a move error
     * stops the line, it is not the game's (the next pass judges the repaired line) */
    if (board_result && !move_error)
        fix_result(run, g, true);
    else if (tag_result)
        fix_result(run, g, false);
    return true;
}

static int edit_order(const void *pa, const void *pb)
{
    const repair_edit *a = pa, *b = pb;
    return a->offset < b->offset ? -1 : a->offset > b->offset;
}

void repair_clear(repair_run *run)
{
    for (size_t i = 0; i < run->count; i++) {
        free(run->edits[i].before);
        free(run->edits[i].text);
    }
    run->count = 0;
}

char *repair_apply(repair_run *run, size_t *out_len)
{
    qsort(run->edits, run->count, sizeof *run->edits, edit_order);
    size_t cap = run->len + 1;
    for (size_t i = 0; i < run->count; i++)
        cap += strlen(run->edits[i].text);
    char *out = malloc(cap);
    if (!out)
        return NULL;
    size_t o = 0;
    uint64_t at = 0;
    size_t kept = 0;
    for (size_t i = 0; i < run->count; i++) {
        repair_edit *e = &run->edits[i];
        if (e->offset < at) { /* overlaps the previous edit: leave it for the next pass */
            free(e->before);
            free(e->text);
            continue;
        }
        memcpy(out + o, run->bytes + at, (size_t)(e->offset - at));
        o += (size_t)(e->offset - at);
        size_t n = strlen(e->text);
        memcpy(out + o, e->text, n);
        o += n;
        at = e->offset + e->length;
        run->edits[kept++] = *e;
    }
    run->count = kept;
    memcpy(out + o, run->bytes + at, run->len - (size_t)at);
    o += run->len - (size_t)at;
    out[o] = '\0';
    *out_len = o;
    return out;
}
