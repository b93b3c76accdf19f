/* html_report.c: the proof page (see html_report.h): its style, head, summary tables,
 * the articles shown whole with their items under their lines, the sections of the
 * records, and the small HTML writing helpers. Each game's part is made by
 * html_game.c as the games come. */
#include <config.h>

#include "report/html_report.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "io/input.h"
#include "reader/reader.h"
#include "report/html_internal.h"

const char *const html_status_class[3] = {"ok", "warnings", "errors"};
/* colour is never the only signal: every status and severity has an icon and a word */
static const char *const status_icon[3] = {"\u2714", "\u26a0", "\u2716"};
static const char *const status_word[3] = {N_("ok"), N_("warnings"), N_("errors")};
static const char *const sev_icon[3] = {"\u2716", "\u26a0", "\u2139"};
static const char *const sev_word[3] = {N_("error"), N_("warning"), N_("info")};
const char *const html_sev_class[3] = {"error", "warning", "info"};

/* ------------------------------------------------------------------ small helpers */

void *html_grow(void *p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return p;
    size_t c = *cap ? *cap * 2 : 16;
    void *q = realloc(p, c * size);
    if (!q) {
        fputs("arbiter: out of memory\n", stderr);
        abort();
    }
    *cap = c;
    return q;
}

char *html_dup(const char *s)
{
    char *d = strdup(s ? s : "");
    if (!d) {
        fputs("arbiter: out of memory\n", stderr);
        abort();
    }
    return d;
}

void html_esc_n(FILE *o, const char *s, size_t n)
{
    for (size_t i = 0; i < n && s[i]; i++) {
        switch (s[i]) {
        case '&': fputs("&amp;", o); break;
        case '<': fputs("&lt;", o); break;
        case '>': fputs("&gt;", o); break;
        case '"': fputs("&quot;", o); break;
        case '\r': break;
        default: fputc(s[i], o);
        }
    }
}

void html_esc(FILE *o, const char *s)
{
    html_esc_n(o, s ? s : "", SIZE_MAX);
}

void html_fill(FILE *o, const char *format, const char *arg, bool markup)
{
    const char *at = strstr(format, "%s");
    if (!at) {
        html_esc(o, format);
        return;
    }
    html_esc_n(o, format, (size_t)(at - format));
    if (markup)
        fputs(arg, o);
    else
        html_esc(o, arg);
    html_esc(o, at + 2);
}

int html_game_status(const rec_game *g)
{
    return g->error_count ? ST_ERRORS : g->warning_count ? ST_WARNINGS : ST_OK;
}

html_report *html_report_open(FILE *out)
{
    html_report *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->out = out;
    for (int i = 0; i < 3; i++) {
        snprintf(h->status_badge[i], sizeof h->status_badge[i], "%s %s", status_icon[i],
                 _(status_word[i]));
        snprintf(h->sev_badge[i], sizeof h->sev_badge[i], "%s %s", sev_icon[i], _(sev_word[i]));
    }
    if (!(h->sections = tmpfile())) {
        free(h);
        return NULL;
    }
    return h;
}


/* ------------------------------------------------------------------ the page */

static const char page_style[] =
    "body{font:15px/1.45 system-ui,-apple-system,'Segoe UI','Noto Sans',sans-serif;"
    "margin:0 auto;max-width:64rem;padding:0 1rem;color:#1b1b1b;background:#fff}\n"
    "h1{font-size:1.5rem}h2{font-size:1.25rem;border-bottom:1px solid #ccc}"
    "h3{font-size:1.05rem}\n"
    "table{border-collapse:collapse;margin:.5rem 0}th,td{border:1px solid #ccc;"
    "padding:.15rem .4rem;text-align:left;vertical-align:top}\n"
    ".badge{font-weight:600;white-space:nowrap}\n"
    ".st-errors .badge,.sev-error .badge,a.sev-error{color:#a00000}\n"
    ".st-warnings .badge,.sev-warning .badge,a.sev-warning{color:#8a5a00}\n"
    ".st-ok .badge,.sev-info .badge,a.sev-info{color:#1d6b2a}\n"
    ".article{font:13px/1.4 ui-monospace,'DejaVu Sans Mono',monospace}\n"
    ".l{display:flex;white-space:pre-wrap;overflow-wrap:anywhere}\n"
    ".ln{flex:0 0 3.5em;color:#777;text-align:right;padding-right:.6em;user-select:none}\n"
    ".t{flex:1 1 auto;min-width:0}\n"
    ".record{border-left:4px solid #8ab;margin:.2rem 0;padding-left:.2rem}\n"
    ".record.st-errors{border-left:4px double #a00000;background:#fff5f5}\n"
    ".record.st-warnings{border-left:4px dashed #8a5a00;background:#fffbf0}\n"
    ".rechead{font:600 13px system-ui,sans-serif;margin:.1rem 0 .1rem 4.1em}\n"
    ".pin{text-decoration:none;font-weight:700}\n"
    ".finding{font:14px/1.4 system-ui,sans-serif;border:1px solid #ccc;border-radius:4px;"
    "margin:.3rem 0 .6rem 4.1em;padding:.2rem .6rem;break-inside:avoid}\n"
    ".finding.sev-error{border-color:#a00000}.finding.sev-warning{border-color:#8a5a00}\n"
    ".finding p{margin:.2rem 0}.msg{white-space:pre-wrap}\n"
    ".suggest code,.fix del,.fix ins{font:13px ui-monospace,monospace;padding:0 .2em;"
    "border-radius:3px}.suggest code{background:#eef}.fix del{background:#fdd}"
    ".fix ins{background:#dfd;text-decoration:none}.fix.certain{font-weight:600}\n"
    ".diagram{margin:.3rem 0 .6rem 4.1em}\n"
    "figure.board{margin:.3rem 0;break-inside:avoid;page-break-inside:avoid;max-width:100%}\n"
    "figure.board svg{max-width:min(100%,360px);height:auto}\n"
    ".game .finding,.game .diagram{margin-left:0}\n"
    "figcaption{font-size:12px;color:#444;overflow-wrap:anywhere}\n"
    ".fen{font-family:ui-monospace,monospace}\n"
    ".moves{line-height:1.8;overflow-wrap:anywhere}.n{color:#666}\n"
    ".mv.bad{background:#ffd6d6;outline:2px solid #a00000;font-weight:700}\n"
    ".mv.unplayed{color:#777;text-decoration:line-through dotted}\n"
    ".var{margin-left:1.5rem;color:#333}.cm{color:#2c5a8c}\n"
    ".fref{margin-left:.15em;font-size:.8em;text-decoration:none}\n"
    "dl{display:grid;grid-template-columns:max-content 1fr;gap:0 .8rem}dd{margin:0}\n"
    "@media print{body{max-width:none}details{display:block}details>summary{display:none}"
    "a{color:inherit;text-decoration:none}.game,.finding,figure{break-inside:avoid}}\n";

static void page_head(FILE *o, const html_report *h)
{
    fprintf(o, "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n"
               "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
               "<meta name=\"generator\" content=\"arbiter " PACKAGE_VERSION "\">\n<title>",
            i18n_language());
    /* the first three inputs' names, then how many more */
    char names[1024] = "";
    size_t used = 0;
    for (size_t i = 0; i < h->n_files && i < 3 && used < sizeof names; i++)
        used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
                                 h->files[i].path);
    char inputs[1200];
    if (h->n_files > 3)
        snprintf(inputs, sizeof inputs,
                 ngettext("%s and %zu more", "%s and %zu more", h->n_files - 3), names,
                 h->n_files - 3);
    else
        snprintf(inputs, sizeof inputs, "%s", h->n_files ? names : _("no input"));
    html_fill(o, _("Proof: %s"), inputs, false);
    fprintf(o, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", page_style);
}

/* A row's file, players-or-title and result cells, after its game's cell. */
static void row_names(FILE *o, const html_report *h, const html_row *r)
{
    fputs("</td><td>", o);
    html_esc(o, h->files[r->file].path);
    fputs("</td><td>", o);
    html_esc(o, r->label);
    fputs("</td><td>", o);
    html_esc(o, r->result);
}

static void page_summary(FILE *o, const html_report *h, const summary *s)
{
    fputs("<header>\n<h1>", o);
    if (h->n_files == 1)
        html_fill(o, _("Proof: %s"), h->files[0].path, false);
    else
        html_esc(o, _("Proof"));
    fputs("</h1>\n<p>", o);
    html_fill(o, _("Checked by arbiter %s: every move of every line replayed, every finding in "
              "place with its reason and the board."), PACKAGE_VERSION, false);
    fputs("</p>\n</header>\n", o);
    fprintf(o, "<nav aria-labelledby=\"summary-h\">\n<h2 id=\"summary-h\">%s</h2>\n", _("Summary"));
    fprintf(o, "<table>\n<caption>%s</caption>\n<tr><th scope=\"col\">%s</th>"
               "<th scope=\"col\">%s</th><th scope=\"col\">%s</th><th scope=\"col\">%s</th>"
               "<th scope=\"col\">%s</th></tr>\n<tr><td>%llu</td><td>%llu</td><td>%llu</td>"
               "<td>%llu</td><td>%llu</td></tr>\n</table>\n",
            _("Games"), _("games"), h->status_badge[ST_OK], h->status_badge[ST_WARNINGS],
            h->status_badge[ST_ERRORS], _("plies"),
            (unsigned long long)s->games, (unsigned long long)s->games_ok,
            (unsigned long long)s->games_with_warnings, (unsigned long long)s->games_with_errors,
            (unsigned long long)s->plies);
    fprintf(o, "<table>\n<caption>%s</caption>\n<tr><th scope=\"col\">%s</th>"
               "<th scope=\"col\">%s</th><th scope=\"col\">%s</th></tr>\n<tr><td>%llu</td>"
               "<td>%llu</td><td>%llu</td></tr>\n</table>\n",
            _("Findings"), h->sev_badge[REC_ERROR], h->sev_badge[REC_WARNING],
            h->sev_badge[REC_INFO],
            (unsigned long long)s->findings_by_severity[REC_ERROR],
            (unsigned long long)s->findings_by_severity[REC_WARNING],
            (unsigned long long)s->findings_by_severity[REC_INFO]);
    if (s->code_count) {
        fprintf(o, "<table>\n<caption>%s</caption>\n<tr><th scope=\"col\">%s</th>"
                   "<th scope=\"col\">%s</th></tr>\n",
                _("Findings by code (each links to its first)"), _("code"), _("count"));
        for (int i = 0; i < s->code_count; i++) {
            const char *anchor = NULL;
            for (int j = 0; j < h->n_first; j++)
                if (strcmp(h->first[j].code, s->codes[i].code) == 0)
                    anchor = h->first[j].anchor;
            fputs("<tr><td>", o);
            if (anchor)
                fprintf(o, "<a href=\"#%s\">", anchor);
            fputs("<code>", o);
            html_esc(o, s->codes[i].code);
            fputs(anchor ? "</code></a>" : "</code>", o);
            fprintf(o, "</td><td>%llu</td></tr>\n", (unsigned long long)s->codes[i].count);
        }
        fputs("</table>\n", o);
    }
    /* the games with errors or warnings, each linked */
    size_t listed = 0;
    for (size_t i = 0; i < h->n_rows; i++)
        listed += h->rows[i].status != ST_OK;
    if (listed) {
        fprintf(o, "<table>\n<caption>%s</caption>\n<tr><th scope=\"col\">%s</th>"
                   "<th scope=\"col\">%s</th><th scope=\"col\">%s</th>"
                   "<th scope=\"col\">%s</th><th scope=\"col\">%s</th>"
                   "<th scope=\"col\">%s</th><th scope=\"col\">%s</th></tr>\n",
                _("Games with errors or warnings"), _("game"), _("file"), _("players or title"),
                _("result"), _("status"), _(status_word[ST_ERRORS]), _(status_word[ST_WARNINGS]));
        for (size_t i = 0; i < h->n_rows; i++) {
            const html_row *r = &h->rows[i];
            if (r->status == ST_OK)
                continue;
            fputs("<tr><td>", o);
            if (r->section)
                fprintf(o, "<a href=\"#g%zu-%llu\">%llu</a>", r->file, (unsigned long long)r->game,
                        (unsigned long long)r->game);
            else
                fprintf(o, "%llu", (unsigned long long)r->game);
            row_names(o, h, r);
            fprintf(o, "</td><td class=\"st-%s\"><span class=\"badge\">%s</span></td><td>%u</td>"
                       "<td>%u</td></tr>\n",
                    html_status_class[r->status], h->status_badge[r->status], r->errors, r->warnings);
        }
        fputs("</table>\n", o);
    }
    if (h->n_refs) {
        fprintf(o, "<h3>%s</h3>\n<ol class=\"index\">\n", _("Errors and warnings"));
        for (size_t i = 0; i < h->n_refs; i++) {
            const html_ref *r = &h->refs[i];
            fprintf(o, "<li><a href=\"#%s\"><span class=\"sev-%s\"><span class=\"badge\">%s"
                       "</span></span> <code>",
                    r->anchor, html_sev_class[r->severity], h->sev_badge[r->severity]);
            html_esc(o, r->code);
            fputs("</code> ", o);
            html_esc(o, h->files[r->file].path);
            fprintf(o, ":%u:%u, ", r->line, r->column);
            fprintf(o, _("game %llu"), (unsigned long long)r->game);
            fputs("</a></li>\n", o);
        }
        fputs("</ol>\n", o);
        if (h->refs_dropped) {
            fputs("<p>", o);
            fprintf(o, ngettext("%llu more errors and warnings are not in this index; each is "
                                "in its game.",
                                "%llu more errors and warnings are not in this index; each is "
                                "in its game.", h->refs_dropped),
                    (unsigned long long)h->refs_dropped);
            fputs("</p>\n", o);
        }
    }
    fputs("</nav>\n", o);
}

static int item_cmp(const void *a, const void *b)
{
    const html_item *x = a, *y = b;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    if (x->column != y->column)
        return x->column < y->column ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* One line of an article's text, with a marker linking to each finding at its column
 * (columns count characters: bytes that are not UTF-8 continuation bytes). */
static void article_line(FILE *o, size_t file, uint32_t lineno, const char *text, size_t len,
                         const html_item *items, size_t n)
{
    fprintf(o, "<div class=\"l\" id=\"L%zu-%u\"><span class=\"ln\">%u</span><span class=\"t\">%s",
            file, lineno, lineno, len || n ? "" : "<br>"); /* an empty line keeps its height */
    size_t i = 0, k = 0;
    uint32_t col = 1;
    while (i <= len) {
        while (k < n && items[k].column <= col) {
            if (items[k].severity >= 0)
                fprintf(o, "<a class=\"pin sev-%s\" href=\"#%s\" aria-label=\"%s\">%s</a>",
                        html_sev_class[items[k].severity], items[k].anchor,
                        _(sev_word[items[k].severity]), sev_icon[items[k].severity]);
            k++;
        }
        if (i == len)
            break;
        size_t j = i + 1;
        while (j < len && ((unsigned char)text[j] & 0xC0) == 0x80)
            j++;
        html_esc_n(o, text + i, j - i);
        i = j;
        col++;
    }
    fputs("</span></div>\n", o);
}

static bool page_article(FILE *o, html_report *h, size_t file)
{
    html_file *f = &h->files[file];
    input in;
    char err[200];
    if (!reader_input_open(&in, f->path, INPUT_UNKNOWN, err, sizeof err))
        return false;
    qsort(f->items, f->n_items, sizeof *f->items, item_cmp);
    fprintf(o, "<section class=\"article\" aria-labelledby=\"a%zu-h\">\n<h2 id=\"a%zu-h\">", file,
            file);
    html_esc(o, f->path);
    fputs("</h2>\n<p>", o);
    fprintf(o, ngettext("%zu records; the text as written, line by line.",
                        "%zu records; the text as written, line by line.", f->n_ranges),
            f->n_ranges);
    fputs("</p>\n", o);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    uint32_t lineno = 0;
    size_t item = 0, range = 0;
    bool in_range = false;
    while ((n = getline(&line, &cap, in.fp)) != -1) {
        lineno++;
        size_t len = (size_t)n;
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            len--;
        if (lineno == 1 && len >= 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0) {
            memmove(line, line + 3, len - 3);
            len -= 3;
        }
        while (range < f->n_ranges && f->ranges[range].last < lineno && !in_range)
            range++;
        if (!in_range && range < f->n_ranges && f->ranges[range].first == lineno) {
            const html_range *r = &f->ranges[range];
            fprintf(o, "<div class=\"record st-%s\" id=\"g%zu-%llu\" role=\"group\" "
                       "aria-label=\"", html_status_class[r->status], file, (unsigned long long)r->game);
            fprintf(o, _("record %llu: %s"), (unsigned long long)r->game,
                    _(status_word[r->status]));
            fprintf(o, "\">\n<p class=\"rechead\"><span class=\"badge\">%s</span> ",
                    h->status_badge[r->status]);
            fprintf(o, _("record %llu (game %llu)"), (unsigned long long)r->game,
                    (unsigned long long)r->game);
            fputs("</p>\n", o);
            in_range = true;
        }
        size_t first = item;
        while (item < f->n_items && f->items[item].line == lineno)
            item++;
        article_line(o, file, lineno, line, len, f->items + first, item - first);
        for (size_t i = first; i < item; i++)
            fputs(f->items[i].html, o);
        if (in_range && f->ranges[range].last <= lineno) {
            fputs("</div>\n", o);
            in_range = false;
            range++;
        }
    }
    if (in_range)
        fputs("</div>\n", o);
    /* findings past the last line (a record that ended at the end of the input) */
    for (; item < f->n_items; item++)
        fputs(f->items[item].html, o);
    free(line);
    input_close(&in);
    fputs("</section>\n", o);
    return true;
}

static void free_all(html_report *h)
{
    for (size_t i = 0; i < h->n_files; i++) {
        for (size_t k = 0; k < h->files[i].n_items; k++)
            free(h->files[i].items[k].html);
        free(h->files[i].items);
        free(h->files[i].ranges);
        free(h->files[i].path);
    }
    free(h->files);
    for (size_t i = 0; i < h->n_rows; i++) {
        free(h->rows[i].label);
        free(h->rows[i].result);
    }
    free(h->rows);
    for (size_t i = 0; i < h->n_refs; i++)
        free(h->refs[i].code);
    free(h->refs);
    for (int i = 0; i < h->n_first; i++)
        free(h->first[i].code);
    if (h->sections)
        fclose(h->sections);
    free(h);
}

void html_report_discard(html_report *h)
{
    if (h)
        free_all(h);
}

bool html_report_close(html_report *h, const summary *s)
{
    FILE *o = h->out;
    bool ok = !h->failed;
    page_head(o, h);
    page_summary(o, h, s);
    fputs("<main>\n", o);
    for (size_t i = 0; i < h->n_files; i++)
        if (h->files[i].article == 1 && !page_article(o, h, i))
            ok = false;
    /* the record games' sections */
    if (h->n_sections) {
        fprintf(o, "<h2>%s</h2>\n", _("Games with errors or warnings"));
        rewind(h->sections);
        char buf[65536];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, h->sections)) > 0)
            if (fwrite(buf, 1, n, o) != n)
                ok = false;
    }
    size_t clean = 0, unlisted = 0;
    for (size_t i = 0; i < h->n_rows; i++) {
        bool art = h->files[h->rows[i].file].article == 1;
        clean += !art && h->rows[i].status == ST_OK;
        unlisted += !art && h->rows[i].status != ST_OK && !h->rows[i].section;
    }
    if (unlisted) {
        fputs("<p>", o);
        fprintf(o, ngettext("%zu more games with findings are not drawn (the page keeps to %d "
                            "sections); they are in the summary and the YAML report.",
                            "%zu more games with findings are not drawn (the page keeps to %d "
                            "sections); they are in the summary and the YAML report.", unlisted),
                unlisted, HTML_MAX_SECTIONS);
        fputs("</p>\n", o);
    }
    if (clean) {
        fprintf(o, "<section aria-labelledby=\"clean-h\">\n<h2 id=\"clean-h\">%s</h2>\n"
                   "<details>\n<summary>", _("Games without errors or warnings"));
        fprintf(o, ngettext("%zu games, %s", "%zu games, %s", clean), clean, h->status_badge[ST_OK]);
        fprintf(o, "</summary>\n<table>\n<tr><th scope=\"col\">%s</th><th scope=\"col\">%s</th>"
                   "<th scope=\"col\">%s</th><th scope=\"col\">%s</th>"
                   "<th scope=\"col\">%s</th><th scope=\"col\">%s</th></tr>\n",
                _("game"), _("file"), _("players or title"), _("result"), _("plies"),
                _(sev_word[REC_INFO]));
        for (size_t i = 0; i < h->n_rows; i++) {
            const html_row *r = &h->rows[i];
            if (r->status != ST_OK || h->files[r->file].article == 1)
                continue;
            fprintf(o, "<tr><td>%llu", (unsigned long long)r->game);
            row_names(o, h, r);
            fprintf(o, "</td><td>%u</td><td>%u</td></tr>\n", r->plies, r->infos);
        }
        fputs("</table>\n</details>\n</section>\n", o);
    }
    fputs("</main>\n<footer>\n<p>", o);
    html_fill(o, _("Made by arbiter %s. Icons and words give every status; the colours only repeat "
              "them."), PACKAGE_VERSION, false);
    fputs("</p>\n</footer>\n</body>\n</html>\n", o);
    if (ferror(o))
        ok = false;
    free_all(h);
    return ok;
}
