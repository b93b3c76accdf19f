/* html_game.c: the games of the proof page (see html_report.h), as they come: each
 * game's row for the summary, its findings in the index, and its findings, moves and
 * boards as HTML, either as a section of its own (a record) or as items under the lines
 * of the article it stands in. html_report.c writes the page around them. */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/chess.h"
#include "core/xiangqi.h"
#include "diagram/board.h"
#include "diagram/svg.h"
#include "i18n/i18n.h"
#include "io/input.h"
#include "reader/reader.h"
#include "report/html_internal.h"
#include "report/html_report.h"

static size_t file_of(html_report *h, const rec_game *g)
{
    const char *name = g->file ? g->file : "-";
    if (h->n_files && strcmp(h->files[h->n_files - 1].path, name) == 0)
        return h->n_files - 1;
    for (size_t i = 0; i < h->n_files; i++)
        if (strcmp(h->files[i].path, name) == 0)
            return i;
    h->files = html_grow(h->files, &h->cap_files, h->n_files, sizeof *h->files);
    html_file *f = &h->files[h->n_files];
    memset(f, 0, sizeof *f);
    f->path = html_dup(name);
    f->article = -1;
    return h->n_files++;
}

/* Whether the input is a document (its text is then shown whole). Standard input and
 * inputs whose offsets do not match the file cannot be read again: shown as records. */
static bool is_article(html_file *f, const char *path)
{
    if (f->article >= 0)
        return f->article;
    f->article = 0;
    if (!path || strcmp(path, "-") == 0)
        return false;
    input in;
    char err[200];
    if (reader_input_open(&in, path, INPUT_UNKNOWN, err, sizeof err)) {
        /* WXF articles, LaTeX books and Markdown/HTML pages: their findings are at
         * the document's lines and columns */
        f->article = (in.format == INPUT_ARTICLE || in.format == INPUT_TEX ||
                      in.format == INPUT_WEB) && !in.compressed;
        input_close(&in);
    }
    return f->article;
}

/* The first of the tags named that is set (and not "?"). */
static const char *tag_of(const rec_game *g, const char *const *names)
{
    for (; *names; names++) {
        const char *v = rec_game_tag(g, *names);
        if (v && *v && strcmp(v, "?") != 0)
            return v;
    }
    return NULL;
}

/* A game's heading: a WXF record's title, else "White – Black", else the event. */
static char *game_label(const rec_game *g)
{
    static const char *const titles[] = {"GAME", "Title", NULL};
    static const char *const whites[] = {"White", "Red", "RED", NULL};
    static const char *const blacks[] = {"Black", "BLACK", NULL};
    static const char *const events[] = {"Event", "EVENT", NULL};
    const char *t = tag_of(g, titles), *w = tag_of(g, whites), *b = tag_of(g, blacks);
    char buf[300];
    if (t)
        snprintf(buf, sizeof buf, "%s", t);
    else if (w || b)
        snprintf(buf, sizeof buf, "%s \u2013 %s", w ? w : "?", b ? b : "?");
    else if (tag_of(g, events))
        snprintf(buf, sizeof buf, "%s", tag_of(g, events));
    else
        snprintf(buf, sizeof buf, _("game %llu"), (unsigned long long)g->index);
    return html_dup(buf);
}

/* ------------------------------------------------------------------ boards */

/* The board of fen (a position of g's kind) as an embedded SVG in a figure. */
static void board_figure(html_report *h, FILE *o, rec_game_kind kind, const char *fen,
                         const char *caption)
{
    dg_board b;
    char err[128];
    if (kind == REC_XIANGQI) {
        xq_pos p;
        if (!xq_pos_from_fen(&p, fen, err, sizeof err))
            return;
        dg_board_from_xiangqi(&b, &p);
    } else {
        chess_pos p;
        if (!chess_pos_from_fen(&p, fen, err, sizeof err))
            return;
        dg_board_from_chess(&b, &p);
    }
    snprintf(b.caption, sizeof b.caption, "%s", caption);
    dg_svg_options opts = {.embed_id = ++h->svg_count};
    fputs("<figure class=\"board\" data-fen=\"", o);
    html_esc(o, fen);
    fputs("\">\n", o);
    dg_write_svg(o, &b, &opts);
    fputs("<figcaption>", o);
    html_esc(o, caption);
    fputs(" <span class=\"fen\">FEN ", o);
    html_esc(o, fen);
    fputs("</span></figcaption>\n</figure>\n", o);
}

/* Keep html (taken over) to show under line:column of an article. */
static void add_item(html_report *h, html_file *f, rec_span where, int severity,
                     const char *anchor, char *html)
{
    f->items = html_grow(f->items, &f->cap_items, f->n_items, sizeof *f->items);
    html_item *it = &f->items[f->n_items++];
    it->line = where.line;
    it->column = where.column;
    it->seq = h->seq++;
    it->severity = severity;
    snprintf(it->anchor, sizeof it->anchor, "%s", anchor);
    it->html = html;
}

typedef struct marker_ctx {
    html_report *h;
    FILE *o;               /* records: write here */
    html_file *f;          /* articles: add an item here */
} marker_ctx;

static bool marker_figure(const rec_game *g, const rec_comment *marker, const dg_board *b,
                          void *vctx)
{
    marker_ctx *c = vctx;
    char caption[300];
    snprintf(caption, sizeof caption, _("Diagram %s (after ply %d)"), marker->text, b->ply);
    char *buf = NULL;
    size_t len = 0;
    FILE *o = c->o;
    if (!o && !(o = open_memstream(&buf, &len)))
        return false;
    fputs("<div class=\"diagram\">\n", o);
    board_figure(c->h, o, g->kind, b->fen, caption);
    fputs("</div>\n", o);
    if (c->o)
        return true;
    fclose(o);
    char anchor[48];
    snprintf(anchor, sizeof anchor, "d%d", c->h->svg_count);
    add_item(c->h, c->f, rec_game_locate(g, marker->where), -1, anchor, buf);
    return true;
}

/* ------------------------------------------------------------------ findings */

static void finding_anchor(char *buf, size_t size, size_t file, uint64_t game, int k)
{
    snprintf(buf, size, "f%zu-%llu-%d", file, (unsigned long long)game, k);
}

/* What the author probably meant (fixit/): the suggestions, best first, and the fix
 * with its place and whether `arbiter fix` would apply it; or why nothing fits. */
static void render_suggestions(FILE *o, const rec_finding *f)
{
    if (f->suggestion_count) {
        /* the list as markup: "a, b or c", the last two joined by the language's "or" */
        char *list = NULL, *last = NULL;
        size_t len = 0, last_len = 0;
        FILE *l = open_memstream(&list, &len), *m = open_memstream(&last, &last_len);
        if (!l || !m) {
            fputs(_("arbiter: out of memory\n"), stderr);
            abort();
        }
        for (uint32_t i = 0; i < f->suggestion_count; i++) {
            FILE *to = i + 1 == f->suggestion_count && i > 0 ? m : l;
            if (to == l && i > 0)
                fputs(", ", l);
            fputs("<code class=\"suggestion\">", to);
            html_esc(to, f->suggestions[i]);
            fputs("</code>", to);
        }
        fclose(l);
        fclose(m);
        fputs("<p class=\"suggest\">", o);
        if (*last) {
            /* TRANSLATORS: the last two suggestions of a list ("a, b or c") */
            const char *or = _("%s or %s");
            const char *at = strstr(or, "%s");
            char *joined = NULL;
            size_t jlen = 0;
            FILE *j = open_memstream(&joined, &jlen);
            if (!j) {
                fputs(_("arbiter: out of memory\n"), stderr);
                abort();
            }
            /* msgfmt --check keeps both %s in every translation */
            html_esc_n(j, or, (size_t)(at - or));
            fputs(list, j);
            html_fill(j, at + 2, last, true);
            fclose(j);
            html_fill(o, _("Did you mean %s?"), joined, true);
            free(joined);
        } else {
            html_fill(o, _("Did you mean %s?"), list, true);
        }
        fputs("</p>\n", o);
        free(list);
        free(last);
    } else if (f->no_suggestion) {
        fputs("<p class=\"suggest none\">", o);
        html_fill(o, _("No suggestion: %s"), f->no_suggestion, false);
        fputs("</p>\n", o);
    }
    if (!f->fix)
        return;
    fprintf(o, "<p class=\"fix%s\">", f->fix_certain ? " certain" : "");
    if (f->fix_certain)
        html_fill(o, _("Fix (applied by %s): "), "<code>arbiter fix</code>", true);
    else
        html_esc(o, _("Fix (not certain: left to the author): "));
    for (const rec_fix *x = f->fix; x; x = x->next) {
        fprintf(o, "%s<span class=\"edit\" data-line=\"%u\" data-column=\"%u\">"
                   "%u:%u <del>", x == f->fix ? "" : "; ", x->where.line, x->where.column,
                x->where.line, x->where.column);
        html_esc(o, x->before ? x->before : "");
        fputs("</del> \u2192 <ins>", o);
        html_esc(o, x->text ? x->text : "");
        fputs("</ins></span>", o);
    }
    fputs("</p>\n", o);
}

static void render_finding(html_report *h, FILE *o, const rec_game *g, const rec_finding *f,
                           const char *anchor, const char *path)
{
    int sev = (int)f->severity;
    fprintf(o, "<div class=\"finding sev-%s\" id=\"%s\" data-code=\"", html_sev_class[sev], anchor);
    html_esc(o, f->code);
    fprintf(o, "\" data-line=\"%u\" data-column=\"%u\">\n<p class=\"head\">"
               "<span class=\"badge\">%s</span> <code>",
            f->where.line, f->where.column, h->sev_badge[sev]);
    html_esc(o, f->code);
    fputs("</code> <span class=\"loc\">", o);
    html_esc(o, path);
    if (f->where.line == 0) { /* a binary format (XQF): the byte offset */
        fputs(": ", o);
        fprintf(o, _("offset %llu"), (unsigned long long)f->where.offset);
        fputs("</span>", o);
    } else {
        fprintf(o, ":%u:%u</span>", f->where.line, f->where.column);
    }
    if (f->ply > 0) {
        fputs(" <span class=\"ply\">", o);
        fprintf(o, _("ply %d"), f->ply);
        fputs("</span>", o);
    }
    if (f->move_text) {
        char *q = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&q, &len);
        if (!m) {
            fputs(_("arbiter: out of memory\n"), stderr);
            abort();
        }
        fputs("<q>", m);
        html_esc(m, f->move_text);
        fputs("</q>", m);
        fclose(m);
        fputs(" <span class=\"move\">", o);
        html_fill(o, _("move %s"), q, true);
        fputs("</span>", o);
        free(q);
    }
    fputs("</p>\n<p class=\"msg\">", o);
    html_esc(o, f->message);
    fputs("</p>\n", o);
    if (f->engine_eval) {   /* the engine's word, for the editor to weigh */
        fputs("<p class=\"engine\">", o);
        fputs(_("Engine:"), o);
        fputs(" <b>", o);
        html_esc(o, f->engine_eval);
        fputs("</b> <q>", o);
        html_esc(o, f->engine_best ? f->engine_best : "");
        fputs("</q></p>\n", o);
    }
    render_suggestions(o, f);
    /* the board before the bad move: for errors, and lines in comments that do not
     * replay (the publisher sees where the line went wrong) */
    if (f->fen && (f->severity == REC_ERROR || strcmp(f->code, "comment-line") == 0)) {
        char caption[300];
        if (f->move_text)
            snprintf(caption, sizeof caption, _("Before %s"), f->move_text);
        else
            snprintf(caption, sizeof caption, "%s", _("Before the move"));
        board_figure(h, o, g->kind, f->fen, caption);
    }
    fputs("</div>\n", o);
}

static void note_ref(html_report *h, const rec_finding *f, const char *anchor, size_t file,
                     uint64_t game)
{
    bool known = false;
    for (int i = 0; i < h->n_first; i++)
        if (strcmp(h->first[i].code, f->code) == 0)
            known = true;
    if (!known && h->n_first < 64) {
        h->first[h->n_first].code = html_dup(f->code);
        snprintf(h->first[h->n_first].anchor, sizeof h->first[0].anchor, "%s", anchor);
        h->n_first++;
    }
    if (f->severity == REC_INFO)
        return;
    if (h->n_refs >= INDEX_MAX) {
        h->refs_dropped++;
        return;
    }
    if (!h->refs && !(h->refs = calloc(INDEX_MAX, sizeof *h->refs))) {
        fputs("arbiter: out of memory\n", stderr);
        abort();
    }
    html_ref *r = &h->refs[h->n_refs++];
    snprintf(r->anchor, sizeof r->anchor, "%s", anchor);
    r->code = html_dup(f->code);
    r->severity = (int)f->severity;
    r->file = file;
    r->line = f->where.line;
    r->column = f->where.column;
    r->game = game;
}

/* ------------------------------------------------------------------ moves */

typedef struct move_ctx {
    html_report *h;
    FILE *o;
    const rec_finding **by_offset;  /* the game's findings about moves, by offset */
    int n;
    char (*anchors)[48];
} move_ctx;

static int find_at(const move_ctx *m, uint64_t offset)
{
    int lo = 0, hi = m->n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (m->by_offset[mid]->where.offset < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < m->n && m->by_offset[lo]->where.offset == offset ? lo : -1;
}

static void render_comments(FILE *o, const rec_comment *c)
{
    for (; c; c = c->next) {
        fputs(c->diagram ? " <span class=\"cm diag\">DIAG{" : " <span class=\"cm\">{", o);
        html_esc(o, c->text);
        fputs("}</span>", o);
    }
}

static void render_line(move_ctx *m, const rec_line *line, int depth)
{
    FILE *o = m->o;
    render_comments(o, line->comments);
    for (const rec_node *n = line->first; n; n = n->next) {
        if (n->number)
            fprintf(o, " <span class=\"n\">%u%s</span>", n->number, n->number_dots3 ? "..." : ".");
        const char *cls = n->status == REC_MOVE_BAD ? "mv bad"
                          : n->status == REC_MOVE_UNCHECKED ? "mv unplayed" : "mv";
        fprintf(o, " <span class=\"%s\">", cls);
        html_esc(o, n->text);
        fputs("</span>", o);
        int k = find_at(m, n->where.offset);
        /* every finding about this move, linked (the text says which) */
        for (; k >= 0 && k < m->n && m->by_offset[k]->where.offset == n->where.offset; k++) {
            int sev = (int)m->by_offset[k]->severity;
            fprintf(o, "<a class=\"fref sev-%s\" href=\"#%s\" title=\"", html_sev_class[sev],
                    m->anchors[k]);
            html_esc(o, m->by_offset[k]->code);
            fprintf(o, "\">%s</a>", m->h->sev_badge[sev]);
        }
        render_comments(o, n->comments);
        for (const rec_line *v = n->variations; v; v = v->next) {
            if (depth + 1 >= MAX_DEPTH) {
                fprintf(o, "<div class=\"var\">(\u2026 %s)</div>",
                        _("variations nested deeper are not shown"));
                break;
            }
            fputs("<div class=\"var\">(", o);
            render_line(m, v, depth + 1);
            fputs(")</div>", o);
        }
    }
}

static int by_offset_cmp(const void *a, const void *b)
{
    const rec_finding *x = *(const rec_finding *const *)a, *y = *(const rec_finding *const *)b;
    if (x->where.offset != y->where.offset)
        return x->where.offset < y->where.offset ? -1 : 1;
    return 0;
}

/* ------------------------------------------------------------------ games */

static void render_section(html_report *h, const rec_game *g, size_t file, const char *label,
                           const rec_finding **list, char (*anchors)[48], int count)
{
    FILE *o = h->sections;
    int st = html_game_status(g);
    fprintf(o, "<section class=\"game st-%s\" id=\"g%zu-%llu\" aria-labelledby=\"g%zu-%llu-h\">\n",
            html_status_class[st], file, (unsigned long long)g->index, file,
            (unsigned long long)g->index);
    fprintf(o, "<h3 id=\"g%zu-%llu-h\"><span class=\"badge\">%s</span> ", file,
            (unsigned long long)g->index, h->status_badge[st]);
    char head[64];
    snprintf(head, sizeof head, _("Game %llu: %s"), (unsigned long long)g->index, "%s");
    html_fill(o, head, label, false);
    if (g->result) {
        fputs(" <span class=\"result\">", o);
        html_esc(o, g->result);
        fputs("</span>", o);
    }
    fputs("</h3>\n<p class=\"where\">", o);
    html_esc(o, g->file);
    fprintf(o, ":%u, ", g->start.line);
    /* TRANSLATORS: English keeps "plies" for one too, as the page always wrote it */
    fprintf(o, ngettext("%u plies replayed", "%u plies replayed", g->plies), g->plies);
    if (g->derived_result) {
        fputs("; ", o);
        html_fill(o, _("the board says %s"), g->derived_result, false);
        if (g->derived_reason) {
            fputs(" (", o);
            html_esc(o, g->derived_reason);
            fputs(")", o);
        }
    }
    fputs("</p>\n", o);
    if (g->tags) {
        fprintf(o, "<details class=\"tags\"><summary>%s</summary>\n<dl>\n", _("Tags"));
        for (const rec_tag *t = g->tags; t; t = t->next) {
            fputs("<dt>", o);
            html_esc(o, t->name);
            fputs("</dt><dd>", o);
            html_esc(o, t->value);
            fputs("</dd>\n", o);
        }
        fputs("</dl>\n</details>\n", o);
    }
    /* the moves, with the findings about moves linked from them */
    const rec_finding **moves = malloc((size_t)(count ? count : 1) * sizeof *moves);
    char (*manchors)[48] = malloc((size_t)(count ? count : 1) * sizeof *manchors);
    if (!moves || !manchors) {
        fputs("arbiter: out of memory\n", stderr);
        abort();
    }
    int nm = 0;
    for (int i = 0; i < count; i++)
        if (list[i]->move_text) {
            moves[nm] = list[i];
            memcpy(manchors[nm], anchors[i], sizeof manchors[0]);
            nm++;
        }
    /* stable: equal offsets keep their order (the anchors travel with them) */
    for (int i = 1; i < nm; i++)
        for (int j = i; j > 0 && by_offset_cmp(&moves[j - 1], &moves[j]) > 0; j--) {
            const rec_finding *t = moves[j];
            moves[j] = moves[j - 1];
            moves[j - 1] = t;
            char a[48];
            memcpy(a, manchors[j], sizeof a);
            memcpy(manchors[j], manchors[j - 1], sizeof a);
            memcpy(manchors[j - 1], a, sizeof a);
        }
    move_ctx m = {h, o, moves, nm, manchors};
    fprintf(o, "<div class=\"moves\" role=\"group\" aria-label=\"%s\">", _("Moves"));
    render_line(&m, &g->main, 0);
    if (g->result) {
        fputs(" <span class=\"result\">", o);
        html_esc(o, g->result);
        fputs("</span>", o);
    }
    fputs("</div>\n", o);
    free(moves);
    free(manchors);
    marker_ctx mc = {h, o, NULL};
    dg_for_each_marker(g, marker_figure, &mc);
    if (count) {
        fprintf(o, "<h4>%s</h4>\n", _("Findings"));
        for (int i = 0; i < count; i++)
            render_finding(h, o, g, list[i], anchors[i], g->file);
    }
    fputs("</section>\n", o);
}

/* The findings of an article's record become items under their lines. */
static void article_items(html_report *h, html_file *f, const rec_game *g,
                          const rec_finding **list, char (*anchors)[48], int count)
{
    for (int i = 0; i < count; i++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *o = open_memstream(&buf, &len);
        if (!o) {
            h->failed = true;
            return;
        }
        render_finding(h, o, g, list[i], anchors[i], g->file);
        fclose(o);
        add_item(h, f, list[i]->where, (int)list[i]->severity, anchors[i], buf);
    }
    marker_ctx mc = {h, NULL, f};
    dg_for_each_marker(g, marker_figure, &mc);
    f->ranges = html_grow(f->ranges, &f->cap_ranges, f->n_ranges, sizeof *f->ranges);
    html_range *r = &f->ranges[f->n_ranges++];
    r->first = g->start.line;
    r->last = g->end.line > g->start.line ? g->end.line : g->start.line;
    r->game = g->index;
    r->status = html_game_status(g);
}

bool html_report_game(html_report *h, const rec_game *g, const char *path)
{
    size_t file = file_of(h, g);
    html_file *f = &h->files[file];
    bool shown_whole = is_article(f, path);

    /* the findings in the order of the YAML report, each with its anchor */
    int count = (int)g->finding_count;
    const rec_finding **list = malloc((size_t)(count ? count : 1) * sizeof *list);
    char (*anchors)[48] = malloc((size_t)(count ? count : 1) * sizeof *anchors);
    if (!list || !anchors) {
        fputs("arbiter: out of memory\n", stderr);
        abort();
    }
    int k = 0;
    for (const rec_finding *x = g->findings; x && k < count; x = x->next) {
        list[k] = x;
        finding_anchor(anchors[k], sizeof anchors[k], file, g->index, k + 1);
        note_ref(h, x, anchors[k], file, g->index);
        k++;
    }
    count = k;

    h->rows = html_grow(h->rows, &h->cap_rows, h->n_rows, sizeof *h->rows);
    html_row *row = &h->rows[h->n_rows++];
    memset(row, 0, sizeof *row);
    row->game = g->index;
    row->file = file;
    row->status = html_game_status(g);
    row->errors = g->error_count;
    row->warnings = g->warning_count;
    row->infos = g->finding_count - g->error_count - g->warning_count;
    row->plies = g->plies;
    row->label = game_label(g);
    row->result = html_dup(g->result ? g->result : "");

    if (shown_whole) {
        article_items(h, f, g, list, anchors, count);
        row->section = true; /* its place is in the article */
    } else if (row->status != ST_OK && h->n_sections < HTML_MAX_SECTIONS) {
        render_section(h, g, file, row->label, list, anchors, count);
        h->n_sections++;
        row->section = true;
    }
    free(list);
    free(anchors);
    if (ferror(h->sections))
        h->failed = true;
    return !h->failed;
}

