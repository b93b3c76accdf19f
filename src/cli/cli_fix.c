/* cli_fix.c: arbiter fix: the safe repairs, written back into the file as it was.
 * (GBK and Big5 files are repaired in UTF-8 and written back in their own encoding;
 * compressed files are refused: see own_encoding.)
 *
 * Each input is read and refereed as check does; the repairs are edits of the
 * original bytes (a move error whose fix is certain, a wrong or missing check or
 * mate marker, a wrong move number, a Result contradicting the terminator or the
 * board), so everything around them stays byte for byte. A repair can uncover the
 * next error of the same line, so the file is refereed again until nothing changes
 * (at most FIX_PASSES times); a second `fix` then changes nothing. The result
 * replaces the file atomically: a temporary file in the same folder, fsync, the
 * original's permissions, rename. */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "batch/batch.h"
#include "cli/cli_options.h"
#include "core/chess.h"
#include "database/db_names.h"
#include "core/xiangqi.h"
#include "i18n/i18n.h"
#include "io/input.h"
#include "reader/reader.h"
#include "io/recode.h"
#include "notation/chess_san.h"

#define FIX_PASSES 8

typedef struct fix_edit {
    uint64_t offset;
    uint32_t length;
    char *before, *text;
    uint32_t line, column;
    const char *what;        /* what kind of repair */
} fix_edit;

typedef struct fix_run {
    const char *name;        /* the input as the user named it */
    const char *bytes;       /* the text being refereed */
    size_t len;
    fix_edit *edits;
    size_t count, cap;
    unsigned long skipped;   /* games whose offsets do not match the file (transcoded) */
    bool latex;              /* a LaTeX book: its results are xskak keys, not PGN text */
} fix_run;

enum { OPT_DRY_RUN = 256, OPT_REPORT, OPT_FROM, OPT_VARIANT, OPT_RULES, OPT_NAMES, OPT_SPELLING };

/* fix --names: the run's names, counted and grouped before the first file (read-only) */
static db_names *fix_names;

static void add_edit(fix_run *run, uint64_t offset, size_t length, const char *text,
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
            cli_error(_("fix: out of memory"));
            exit(CLI_EXIT_USAGE);
        }
    }
    fix_edit *e = &run->edits[run->count++];
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
static bool bytes_are(const fix_run *run, uint64_t offset, const char *text)
{
    size_t n = strlen(text);
    return offset + n <= run->len && memcmp(run->bytes + offset, text, n) == 0;
}

/* PGN 8.2.3.2: the move's own text with the marker it deserves. */
static void fix_marker(fix_run *run, const rec_finding *f)
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
static void fix_number(fix_run *run, const rec_game *g, const rec_finding *f)
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
static bool tag_value_span(const fix_run *run, const rec_tag *t, uint64_t *off, size_t *len)
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
static void fix_result(fix_run *run, const rec_game *g, bool board)
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
static size_t token_tail(const fix_run *run, const rec_fix *e)
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

static bool fix_game(rec_game *g, const char *path, void *ctx)
{
    fix_run *run = ctx;
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
    for (const rec_tag *t = fix_names ? g->tags : NULL; t; t = t->next) {
        int field = db_name_field_of(t->name);
        const char *to = field < 0 ? NULL
                                   : db_names_canonical(fix_names, (db_name_field)field, t->value);
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
    const fix_edit *a = pa, *b = pb;
    return a->offset < b->offset ? -1 : a->offset > b->offset;
}

static void free_edits(fix_run *run)
{
    for (size_t i = 0; i < run->count; i++) {
        free(run->edits[i].before);
        free(run->edits[i].text);
    }
    run->count = 0;
}

/* The text with run's edits applied (overlapping ones dropped), malloc'd. */
static char *apply(fix_run *run, size_t *out_len)
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
        fix_edit *e = &run->edits[i];
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

/* A double-quoted YAML scalar. */
static void yaml_quoted(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(out, "\\x%02x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *grown = realloc(buf, cap *= 2);
            if (!grown) {
                free(buf);
                buf = NULL;
            }
            buf = grown;
        }
    }
    if (buf && ferror(f)) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *len = n;
    return buf;
}

static bool write_all(int fd, const char *s, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        s += w;
        n -= (size_t)w;
    }
    return true;
}

/* A new temporary file next to target, keeping its extension (format detection). */
static int temp_next_to(const char *target, char *name, size_t size)
{
    const char *slash = strrchr(target, '/');
    const char *base = slash ? slash + 1 : target;
    const char *dot = strrchr(base, '.');
    const char *ext = dot && dot != base && strlen(dot) < 12 ? dot : "";
    int n = snprintf(name, size, "%.*s.arbiter-fix-XXXXXX%s", (int)(base - target), target, ext);
    if (n < 0 || (size_t)n >= size)
        return -1;
    return mkstemps(name, (int)strlen(ext));
}

/* Write text to a temporary file next to target: its name in name. */
static bool write_temp(const char *target, const char *text, size_t len, char *name,
                       size_t size, const struct stat *mode_of)
{
    int fd = temp_next_to(target, name, size);
    if (fd < 0)
        return false;
    bool ok = write_all(fd, text, len) && (!mode_of || fchmod(fd, mode_of->st_mode & 07777) == 0) &&
              fsync(fd) == 0;
    if (close(fd) != 0)
        ok = false;
    if (!ok)
        unlink(name);
    return ok;
}

/* The file's own encoding, decided as the readers decide it. A compressed input is
 * refused (writing it back compressed would not give the same bytes, so it is left to
 * the user; see arbiter-fix(1)). A GBK or Big5 one is handed back in *text as UTF-8,
 * its iconv charset in *charset, once its bytes are known to convert to UTF-8 and back
 * unchanged: then writing the repaired text back changes only the repaired bytes. */
static bool own_encoding(const char *path, const batch_options *gopts, char **text,
                         size_t *len, const char **charset)
{
    input in;
    char err[256];
    if (!reader_input_open(&in, path, gopts->format, err, sizeof err)) {
        cli_error(_("fix: %s"), err);
        free(*text);
        return false;
    }
    bool compressed = in.compressed;
    input_encoding enc = in.encoding;
    input_close(&in);
    if (compressed) {
        cli_error(_("fix: '%s' is compressed (gzip or zstd): not repaired; decompress it, "
                  "fix the text, compress it again"), path);
        free(*text);
        return false;
    }
    if (enc == INPUT_ENC_UTF8)
        return true;
    *charset = enc == INPUT_ENC_BIG5 ? "BIG5-HKSCS" : "GB18030";
    size_t u_len, b_len;
    char *utf8 = recode("UTF-8", *charset, *text, *len, &u_len);
    char *back = utf8 ? recode(*charset, "UTF-8", utf8, u_len, &b_len) : NULL;
    bool same = back && b_len == *len && memcmp(back, *text, *len) == 0;
    free(back);
    free(*text);
    *text = NULL;
    if (!same) {
        cli_error(_("fix: '%s' does not convert from %s to UTF-8 and back byte for byte: "
                  "not repaired"), path, *charset);
        free(utf8);
        return false;
    }
    *text = utf8;
    *len = u_len;
    return true;
}

/* One input: referee, repair, again until nothing changes. Returns the repaired text
 * (malloc'd; *changed says whether it differs) or NULL on an I/O failure. The repairs
 * are listed on list and in the report. */
static char *fix_file(const char *path, const batch_options *gopts, size_t *out_len,
                      unsigned long *repairs, FILE *list, FILE *report)
{
    size_t len;
    char *text = read_all(path, &len);
    if (!text) {
        cli_error(_("fix: cannot read '%s': %s"), path, strerror(errno));
        return NULL;
    }
    char tmp[4096] = "";
    const char *current = path;
    const char *charset = NULL;
    if (!own_encoding(path, gopts, &text, &len, &charset))
        return NULL;
    if (charset) {
        /* the passes read the UTF-8 text from a file beside the input */
        if (!write_temp(path, text, len, tmp, sizeof tmp, NULL) &&
            !write_temp("/tmp/fix", text, len, tmp, sizeof tmp, NULL)) {
            cli_error(_("fix: cannot write a temporary file for '%s': %s"), path, strerror(errno));
            free(text);
            return NULL;
        }
        current = tmp;
    }
    const char *dot = strrchr(path, '.');
    fix_run run = {.name = path,
                   .latex = gopts->format == INPUT_TEX ||
                            (gopts->format == INPUT_UNKNOWN && dot && strcmp(dot, ".tex") == 0)};
    for (int pass = 0; pass < FIX_PASSES; pass++) {
        run.bytes = text;
        run.len = len;
        char *argv1[1] = {(char *)current};
        batch_result res = batch_for_each_game(argv1, 1, gopts, fix_game, &run);
        if (res.io_failed) {
            free(text);
            text = NULL;
            break;
        }
        if (run.count == 0)
            break;
        size_t new_len;
        char *next = apply(&run, &new_len);
        if (!next) {
            free(text);
            text = NULL;
            break;
        }
        for (size_t i = 0; i < run.count; i++) {
            const fix_edit *e = &run.edits[i];
            fprintf(list, _("%s:%u:%u: fixed[%s]: '%s' -> '%s'\n"), path, e->line, e->column,
                    e->what, e->before, e->text);
            if (report) {
                fputs("- file: ", report);
                yaml_quoted(report, path);
                fprintf(report, "\n  line: %u\n  column: %u\n  repair: %s\n  before: ", e->line,
                        e->column, e->what);
                yaml_quoted(report, e->before);
                fputs("\n  after: ", report);
                yaml_quoted(report, e->text);
                fputc('\n', report);
            }
            (*repairs)++;
        }
        free_edits(&run);
        free(text);
        text = next;
        len = new_len;
        /* the next pass reads the repaired text from a file beside the input */
        if (tmp[0])
            unlink(tmp);
        if (!write_temp(path, text, len, tmp, sizeof tmp, NULL) &&
            !write_temp("/tmp/fix", text, len, tmp, sizeof tmp, NULL)) {
            cli_error(_("fix: cannot write a temporary file for '%s': %s"), path, strerror(errno));
            free(text);
            text = NULL;
            tmp[0] = '\0';
            break;
        }
        current = tmp;
    }
    if (tmp[0])
        unlink(tmp);
    free_edits(&run);
    free(run.edits);
    if (run.skipped)
        fprintf(list, _("%s: %lu game(s) of a binary format: not repaired\n"), path,
                run.skipped);
    if (text && charset) {
        size_t back_len;
        char *back = recode(charset, "UTF-8", text, len, &back_len);
        free(text);
        if (!back)
            cli_error(_("fix: '%s': a repair does not convert back to %s: not written"), path,
                      charset);
        text = back;
        len = back_len;
    }
    *out_len = len;
    return text;
}

static const char usage[] = N_(
    "Usage: arbiter fix [OPTIONS] FILE...\n"
    "Apply the safe repairs to game records and write them back in their own format:\n"
    "a move error where exactly one candidate makes the rest of its line replay, wrong\n"
    "or missing check and mate markers, wrong move numbers, a Result tag that\n"
    "contradicts the terminator or the board (chess and xiangqi). GBK and Big5 files\n"
    "are written back in their own encoding; compressed files are refused. Every\n"
    "repair is listed on stderr.\n"
    "\n"
    "  -o, --output FILE  write the repaired record there ('-': stdout) instead of\n"
    "                     replacing the input (one input only)\n"
    "      --dry-run      list the repairs, change nothing\n"
    "      --report FILE  also list the repairs as YAML in FILE\n"
    "      --from pgn|wxf|article|tex|markdown|html, --variant chess|xiangqi,\n"
    "      --rules fide|vn|axf|cxa\n"
    "  -q, --quiet        do not list the repairs\n"
    "  -h, --help         show this help\n"
    "\n"
    "Exit status: 0 done (or nothing to do), 2 usage or I/O failure or a file refused.\n"
    "See arbiter-fix(1).\n");

/* Whether path exists and is not a regular file. */
static bool is_special(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode);
}

int cli_fix(int argc, char **argv)
{
    static const struct option options[] = {
        {"output", required_argument, NULL, 'o'},
        {"dry-run", no_argument, NULL, OPT_DRY_RUN},
        {"report", required_argument, NULL, OPT_REPORT},
        {"from", required_argument, NULL, OPT_FROM},
        {"variant", required_argument, NULL, OPT_VARIANT},
        {"rules", required_argument, NULL, OPT_RULES},
        {"names", no_argument, NULL, OPT_NAMES},
        {"spelling", required_argument, NULL, OPT_SPELLING},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *output = NULL, *report_path = NULL;
    bool dry_run = false, quiet = false, names = false;
    const char *spelling = NULL;
    batch_options gopts = {.format = INPUT_UNKNOWN, .variant = -1,
                           .referee = REFEREE_OPTIONS_DEFAULT, .jobs = 1};
    int opt;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":o:qh", options, NULL)) != -1) {
        switch (opt) {
        case 'o': output = optarg; break;
        case 'q': quiet = true; break;
        case OPT_DRY_RUN: dry_run = true; break;
        case OPT_NAMES: names = true; break;
        case OPT_SPELLING: spelling = optarg; names = true; break;
        case OPT_REPORT: report_path = optarg; break;
        case OPT_FROM:
            if (!cli_parse_format(optarg, &gopts.format)) {
                cli_error(_("fix: --from takes pgn, wxf, article, tex, markdown or html, not '%s'"),
                          optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case OPT_VARIANT:
            if (!cli_parse_variant(optarg, &gopts.variant)) {
                cli_error(_("fix: --variant takes chess or xiangqi, not '%s'"), optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case OPT_RULES:
            if (!referee_rules_from_name(optarg, &gopts.referee.rules)) {
                cli_error(_("fix: --rules takes fide, vn, axf or cxa, not '%s'"), optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case 'h': fputs(_(usage), stdout); return CLI_EXIT_OK;
        case ':':
            cli_error(_("fix: option '%s' needs an argument"), argv[optind - 1]);
            return CLI_EXIT_USAGE;
        default:
            cli_error(_("fix: unknown option '%s' (try 'arbiter fix --help')"), argv[optind - 1]);
            return CLI_EXIT_USAGE;
        }
    }
    int count = argc - optind;
    if (count < 1) {
        cli_error(_("fix: no input files (fix rewrites files; it does not read stdin)"));
        return CLI_EXIT_USAGE;
    }
    if (output && count != 1) {
        cli_error(_("fix: -o takes one input file"));
        return CLI_EXIT_USAGE;
    }
    if (names) {
        fix_names = db_names_new();
        char err[512];
        if (spelling && !db_names_load_spelling(fix_names, spelling, err, sizeof err)) {
            cli_error(_("check: cannot read the spelling file %s"), err);
            db_names_free(fix_names);
            fix_names = NULL;
            return CLI_EXIT_USAGE;
        }
        for (int i = optind; i < argc; i++)
            db_names_scan(fix_names, argv[i]);
        db_names_group(fix_names);
    }
    for (int i = optind; i < argc; i++)
        if (strcmp(argv[i], "-") == 0) {
            cli_error(_("fix: fix rewrites files; it does not read stdin"));
            return CLI_EXIT_USAGE;
        }
    FILE *report = NULL;
    if (report_path) {
        report = strcmp(report_path, "-") == 0 ? stdout : fopen(report_path, "w");
        if (!report) {
            cli_error(_("fix: cannot write '%s': %s"), report_path, strerror(errno));
            return CLI_EXIT_USAGE;
        }
        fputs("repairs:\n", report);
    }
    FILE *list = quiet ? fopen("/dev/null", "w") : stderr;
    if (!list)
        list = stderr;
    int status = CLI_EXIT_OK;
    unsigned long total = 0;
    for (int i = optind; i < argc; i++) {
        const char *path = argv[i];
        unsigned long repairs = 0;
        size_t len;
        char *text = fix_file(path, &gopts, &len, &repairs, list, report);
        if (!text) {
            status = CLI_EXIT_USAGE;
            continue;
        }
        total += repairs;
        if (dry_run) {
            free(text);
            continue;
        }
        if (output && strcmp(output, "-") == 0) {
            if (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0) {
                cli_error(_("fix: cannot write to stdout"));
                status = CLI_EXIT_USAGE;
            }
        } else if (output && is_special(output)) {
            /* a device or a pipe (-o /dev/null): written through, never replaced by a
             * renamed temporary file (as root that turned /dev/null into a file) */
            FILE *f = fopen(output, "w");
            bool ok = f && fwrite(text, 1, len, f) == len;
            if (f && fclose(f) != 0)
                ok = false;
            if (!ok) {
                cli_error(_("fix: cannot write '%s': %s"), output, strerror(errno));
                status = CLI_EXIT_USAGE;
            }
        } else if (output || repairs > 0) {
            const char *target = output ? output : path;
            struct stat st;
            bool have_mode = stat(output ? (stat(target, &st) == 0 ? target : path) : path,
                                  &st) == 0;
            char tmp[4096];
            if (!write_temp(target, text, len, tmp, sizeof tmp, have_mode ? &st : NULL) ||
                rename(tmp, target) != 0) {
                cli_error(_("fix: cannot replace '%s': %s"), target, strerror(errno));
                unlink(tmp);
                status = CLI_EXIT_USAGE;
            }
        }
        free(text);
    }
    if (report) {
        if (total == 0)
            fputs("  []\n", report);
        if (report != stdout)
            fclose(report);
    }
    if (quiet && list != stderr)
        fclose(list);
    db_names_free(fix_names);
    fix_names = NULL;
    return status;
}
