/* batch_fix.c: arbiter fix over one file. See batch_fix.h. */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch/batch_fix.h"
#include "batch/batch_internal.h"
#include "i18n/i18n.h"
#include "io/input.h"
#include "io/recode.h"
#include "io/whole_file.h"
#include "reader/reader.h"

#define FIX_PASSES BATCH_FIX_PASSES

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
        batch_error(_("fix: %s"), err);
        free(*text);
        return false;
    }
    bool compressed = in.compressed;
    input_encoding enc = in.encoding;
    input_close(&in);
    if (compressed) {
        batch_error(_("fix: '%s' is compressed (gzip or zstd): not repaired; decompress it, "
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
        batch_error(_("fix: '%s' does not convert from %s to UTF-8 and back byte for byte: "
                  "not repaired"), path, *charset);
        free(utf8);
        return false;
    }
    *text = utf8;
    *len = u_len;
    return true;
}

char *batch_fix_file(const char *path, const batch_options *gopts, repair_name_fn canonical,
                     void *canonical_ctx, size_t *out_len, unsigned long *repairs, FILE *list,
                     FILE *report)
{
    size_t len;
    char *text = io_read_all(path, &len);
    if (!text) {
        batch_error(_("fix: cannot read '%s': %s"), path, strerror(errno));
        return NULL;
    }
    char tmp[4096] = "";
    const char *current = path;
    const char *charset = NULL;
    if (!own_encoding(path, gopts, &text, &len, &charset))
        return NULL;
    if (charset) {
        /* the passes read the UTF-8 text from a file beside the input */
        if (!io_write_temp(path, text, len, tmp, sizeof tmp, NULL) &&
            !io_write_temp("/tmp/fix", text, len, tmp, sizeof tmp, NULL)) {
            batch_error(_("fix: cannot write a temporary file for '%s': %s"), path, strerror(errno));
            free(text);
            return NULL;
        }
        current = tmp;
    }
    const char *dot = strrchr(path, '.');
    repair_run run = {.name = path,
                      .latex = gopts->format == INPUT_TEX ||
                               (gopts->format == INPUT_UNKNOWN && dot && strcmp(dot, ".tex") == 0),
                      .canonical = canonical, .canonical_ctx = canonical_ctx};
    for (int pass = 0; pass < FIX_PASSES; pass++) {
        run.bytes = text;
        run.len = len;
        char *argv1[1] = {(char *)current};
        batch_result res = batch_for_each_game(argv1, 1, gopts, repair_game, &run);
        if (res.io_failed) {
            free(text);
            text = NULL;
            break;
        }
        if (run.count == 0)
            break;
        size_t new_len;
        char *next = repair_apply(&run, &new_len);
        if (!next) {
            free(text);
            text = NULL;
            break;
        }
        for (size_t i = 0; i < run.count; i++) {
            const repair_edit *e = &run.edits[i];
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
        repair_clear(&run);
        free(text);
        text = next;
        len = new_len;
        /* the next pass reads the repaired text from a file beside the input */
        if (tmp[0])
            unlink(tmp);
        if (!io_write_temp(path, text, len, tmp, sizeof tmp, NULL) &&
            !io_write_temp("/tmp/fix", text, len, tmp, sizeof tmp, NULL)) {
            batch_error(_("fix: cannot write a temporary file for '%s': %s"), path, strerror(errno));
            free(text);
            text = NULL;
            tmp[0] = '\0';
            break;
        }
        current = tmp;
    }
    if (tmp[0])
        unlink(tmp);
    repair_clear(&run);
    free(run.edits);
    if (run.skipped)
        fprintf(list, _("%s: %lu game(s) of a binary format: not repaired\n"), path,
                run.skipped);
    if (text && charset) {
        size_t back_len;
        char *back = recode(charset, "UTF-8", text, len, &back_len);
        free(text);
        if (!back)
            batch_error(_("fix: '%s': a repair does not convert back to %s: not written"), path,
                      charset);
        text = back;
        len = back_len;
    }
    *out_len = len;
    return text;
}

/* Whether path exists and is not a regular file. */
static bool is_special(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode);
}

bool batch_fix_write(const char *path, const char *output, const char *text, size_t len,
                     unsigned long repairs)
{
    if (output && strcmp(output, "-") == 0) {
        if (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0) {
            batch_error(_("fix: cannot write to stdout"));
            return false;
        }
    } else if (output && is_special(output)) {
        /* a device or a pipe (-o /dev/null): written through, never replaced by a
         * renamed temporary file (as root that turned /dev/null into a file) */
        FILE *f = fopen(output, "w");
        bool ok = f && fwrite(text, 1, len, f) == len;
        if (f && fclose(f) != 0)
            ok = false;
        if (!ok) {
            batch_error(_("fix: cannot write '%s': %s"), output, strerror(errno));
            return false;
        }
    } else if (output || repairs > 0) {
        const char *target = output ? output : path;
        struct stat st;
        bool have_mode = stat(output ? (stat(target, &st) == 0 ? target : path) : path,
                              &st) == 0;
        char tmp[4096];
        if (!io_write_temp(target, text, len, tmp, sizeof tmp, have_mode ? &st : NULL) ||
            rename(tmp, target) != 0) {
            batch_error(_("fix: cannot replace '%s': %s"), target, strerror(errno));
            unlink(tmp);
            return false;
        }
    }
    return true;
}
