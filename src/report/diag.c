/* diag.c: gcc-style diagnostics with the source line and a caret. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "core/chess.h"
#include "core/xiangqi.h"
#include "diagram/board.h"
#include "diagram/text_board.h"
#include "i18n/i18n.h"
#include "record/utf8.h"
#include "report/diag.h"

#define DIAG_LINE_MAX 4096   /* longer source lines are cut around the column */

struct diag {
    FILE *out;
    rec_severity min_severity;
    FILE *source;            /* the open input for source lines, or NULL */
    char *source_path;
    char *encoding_said;     /* the file whose encoding warning was printed */
};

diag *diag_open(FILE *out, rec_severity min_severity)
{
    diag *d = calloc(1, sizeof *d);
    if (d) {
        d->out = out;
        d->min_severity = min_severity;
    }
    return d;
}

void diag_close(diag *d)
{
    if (!d)
        return;
    if (d->source)
        fclose(d->source);
    free(d->source_path);
    free(d->encoding_said);
    free(d);
}

static FILE *source_for(diag *d, const char *path)
{
    if (!path || strcmp(path, "-") == 0)
        return NULL;
    if (d->source_path && strcmp(d->source_path, path) == 0)
        return d->source;
    if (d->source)
        fclose(d->source);
    free(d->source_path);
    d->source = fopen(path, "rb");
    d->source_path = strdup(path);
    return d->source;
}

/* Count UTF-8 code points in s[0..len). */
static size_t utf8_chars(const char *s, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += ((unsigned char)s[i] & 0xC0) != 0x80;
    return n;
}

/* Print the source line holding byte offset, with a caret under column. */
static void print_decoded(FILE *out, const char *s, size_t n);

static void print_source(diag *d, FILE *src, const rec_finding *f)
{
    /* The line starts at most (column - 1) * 4 bytes before the offset (UTF-8). */
    uint64_t back = ((uint64_t)f->where.column - 1) * 4;
    if (back > DIAG_LINE_MAX)
        back = DIAG_LINE_MAX;
    uint64_t from = f->where.offset > back ? f->where.offset - back : 0;
    char buf[2 * DIAG_LINE_MAX + 1];
    if (fseeko(src, (off_t)from, SEEK_SET) != 0)
        return;
    size_t got = fread(buf, 1, sizeof buf - 1, src);
    if (got == 0)
        return;
    buf[got] = '\0';
    size_t at = (size_t)(f->where.offset - from);
    if (at > got)
        return;
    size_t start = at;
    while (start > 0 && buf[start - 1] != '\n')
        start--;
    size_t end = at;
    while (end < got && buf[end] != '\n' && buf[end] != '\r')
        end++;
    bool latin1 = utf8_valid_prefix((const unsigned char *)buf + start, end - start) !=
                  end - start;
    size_t caret = latin1 ? at - start : utf8_chars(buf + start, at - start);
    fprintf(d->out, "%6u | ", f->where.line);
    print_decoded(d->out, buf + start, end - start);
    fputs("\n       | ", d->out);
    for (size_t i = 0; i < caret; i++)
        fputc(buf[start + i] == '\t' ? '\t' : ' ', d->out);
    fputc('^', d->out);
    if (f->move_text) {
        size_t len = utf8_chars(f->move_text, strlen(f->move_text));
        for (size_t i = 1; i < len; i++)
            fputc('~', d->out);
    }
    fputc('\n', d->out);
    /* gcc's fix-it line: the text to put there, under the caret */
    if (f->fix && !f->fix->next && f->fix->where.offset == f->where.offset) {
        fputs("       | ", d->out);
        for (size_t i = 0; i < caret; i++)
            fputc(buf[start + i] == '\t' ? '\t' : ' ', d->out);
        fprintf(d->out, "%s\n", f->fix->text);
    }
}

/* A line of a file that is not UTF-8 is shown as the reader decoded it (Latin-1). */
static void print_decoded(FILE *out, const char *s, size_t n)
{
    if (utf8_valid_prefix((const unsigned char *)s, n) == n) {
        fwrite(s, 1, n, out);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x80) {
            fputc(c, out);
        } else {
            fputc(0xC0 | (c >> 6), out);
            fputc(0x80 | (c & 0x3F), out);
        }
    }
}

/* The board before an illegal move, in Unicode, under its diagnostic: a person sees at
 * once why the move cannot be played. */
static void print_board(diag *d, const rec_game *g, const rec_finding *f)
{
    dg_board b;
    char err[128];
    if (g->kind == REC_XIANGQI) {
        xq_pos pos;
        if (!xq_pos_from_fen(&pos, f->fen, err, sizeof err))
            return;
        dg_board_from_xiangqi(&b, &pos);
    } else {
        chess_pos pos;
        if (!chess_pos_from_fen(&pos, f->fen, err, sizeof err))
            return;
        dg_board_from_chess(&b, &pos);
    }
    dg_write_text_grid(d->out, &b, false, false, "       | ");
}

void diag_game(diag *d, const rec_game *g, const char *path)
{
    FILE *src = NULL;
    bool looked = false;
    for (const rec_finding *f = g->findings; f; f = f->next) {
        if (f->severity > d->min_severity)
            continue;
        if (strcmp(f->code, "encoding") == 0) {
            /* once per input file, not once per game (the report keeps one per game) */
            if (d->encoding_said && strcmp(d->encoding_said, g->file) == 0)
                continue;
            free(d->encoding_said);
            d->encoding_said = strdup(g->file);
        }
        if (f->where.line == 0) /* a binary format (XQF): the byte offset */
            fprintf(d->out, _("%s: offset %llu: %s[%s]: %s"), g->file,
                    (unsigned long long)f->where.offset, _(rec_severity_name(f->severity)), f->code,
                    f->message);
        else
            fprintf(d->out, "%s:%u:%u: %s[%s]: %s", g->file, f->where.line, f->where.column,
                    _(rec_severity_name(f->severity)), f->code, f->message);
        if (f->suggestion_count > 0) {
            /* 'a', 'b' or 'c': one sentence to translate, the list built here */
            char list[1024];
            size_t len = 0;
            for (uint32_t i = 0; i < f->suggestion_count && len < sizeof list; i++) {
                const char *sep = i == 0 ? "" : i + 1 == f->suggestion_count ? _(" or ") : ", ";
                int w = snprintf(list + len, sizeof list - len, "%s'%s'", sep, f->suggestions[i]);
                len += w > 0 ? (size_t)w : 0;
            }
            fprintf(d->out, _("; did you mean %s?"), list);
        } else if (f->no_suggestion)
            fprintf(d->out, " (%s)", f->no_suggestion);
        fputc('\n', d->out);
        if (!looked) {
            src = source_for(d, path);
            looked = true;
        }
        if (src && f->where.line > 0)
            print_source(d, src, f);
        if (f->fen && strcmp(f->code, "illegal-move") == 0)
            print_board(d, g, f);
    }
}
