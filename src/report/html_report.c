/* html_report.c: the proof page (see html_report.h). */
#include <config.h>

#include "report/html_report.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/chess.h"
#include "core/xiangqi.h"
#include "diagram/board.h"
#include "diagram/svg.h"
#include "i18n/i18n.h"
#include "io/input.h"

enum { ST_OK, ST_WARNINGS, ST_ERRORS };
static const char *const status_class[3] = {"ok", "warnings", "errors"};
/* colour is never the only signal: every status and severity has an icon and a word */
static const char *const status_icon[3] = {"\u2714", "\u26a0", "\u2716"};
static const char *const status_word[3] = {N_("ok"), N_("warnings"), N_("errors")};
static const char *const sev_icon[3] = {"\u2716", "\u26a0", "\u2139"};
static const char *const sev_word[3] = {N_("error"), N_("warning"), N_("info")};
static const char *const sev_class[3] = {"error", "warning", "info"};

#define INDEX_MAX 1000     /* findings listed in the index at the top */
#define MAX_DEPTH 40       /* variations nested deeper are not drawn */

/* Something shown under a line of an article: a finding or a diagram, as HTML. */
typedef struct html_item {
    uint32_t line, column;
    uint64_t seq;
    int severity;          /* for the marker in the line; -1: a diagram */
    char anchor[48];
    char *html;
} html_item;

/* The lines of one record inside an article. */
typedef struct html_range {
    uint32_t first, last;
    uint64_t game;
    int status;
} html_range;

typedef struct html_file {
    char *path;
    int article;           /* -1: not known yet */
    html_item *items;
    size_t n_items, cap_items;
    html_range *ranges;
    size_t n_ranges, cap_ranges;
} html_file;

typedef struct html_row {
    uint64_t game;
    size_t file;
    int status;
    uint32_t errors, warnings, infos, plies;
    bool section;          /* its section is on the page */
    char *label;
    char *result;
} html_row;

typedef struct html_ref {
    char anchor[48];
    char *code;
    int severity;
    size_t file;
    uint32_t line, column;
    uint64_t game;
} html_ref;

struct html_report {
    FILE *out;
    FILE *sections;        /* the games' sections, in order */
    html_file *files;
    size_t n_files, cap_files;
    html_row *rows;
    size_t n_rows, cap_rows;
    html_ref *refs;        /* the index: errors and warnings first met, INDEX_MAX at most */
    size_t n_refs;
    uint64_t refs_dropped;
    struct { char *code; char anchor[48]; } first[64];  /* first finding of each code */
    int n_first;
    size_t n_sections;
    int svg_count;
    uint64_t seq;
    bool failed;
    char status_badge[3][64];  /* icon and word, in the user's language */
    char sev_badge[3][64];
};

/* ------------------------------------------------------------------ small helpers */

static void *grow(void *p, size_t *cap, size_t n, size_t size)
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

static char *dup(const char *s)
{
    char *d = strdup(s ? s : "");
    if (!d) {
        fputs("arbiter: out of memory\n", stderr);
        abort();
    }
    return d;
}

/* Text with the HTML special characters escaped. */
static void esc_n(FILE *o, const char *s, size_t n)
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

static void esc(FILE *o, const char *s)
{
    esc_n(o, s ? s : "", SIZE_MAX);
}

/* A translated sentence with one "%s": its text escaped, arg in the place of %s (as
 * markup, or escaped too). The markup stays out of the catalogue. */
static void fill(FILE *o, const char *format, const char *arg, bool markup)
{
    const char *at = strstr(format, "%s");
    if (!at) {
        esc(o, format);
        return;
    }
    esc_n(o, format, (size_t)(at - format));
    if (markup)
        fputs(arg, o);
    else
        esc(o, arg);
    esc(o, at + 2);
}

static int game_status(const rec_game *g)
{
    return g->error_count ? ST_ERRORS : g->warning_count ? ST_WARNINGS : ST_OK;
}

static size_t file_of(html_report *h, const rec_game *g)
{
    const char *name = g->file ? g->file : "-";
    if (h->n_files && strcmp(h->files[h->n_files - 1].path, name) == 0)
        return h->n_files - 1;
    for (size_t i = 0; i < h->n_files; i++)
        if (strcmp(h->files[i].path, name) == 0)
            return i;
    h->files = grow(h->files, &h->cap_files, h->n_files, sizeof *h->files);
    html_file *f = &h->files[h->n_files];
    memset(f, 0, sizeof *f);
    f->path = dup(name);
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
    if (input_open(&in, path, INPUT_UNKNOWN, err, sizeof err)) {
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
    return dup(buf);
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
    esc(o, fen);
    fputs("\">\n", o);
    dg_write_svg(o, &b, &opts);
    fputs("<figcaption>", o);
    esc(o, caption);
    fputs(" <span class=\"fen\">FEN ", o);
    esc(o, fen);
    fputs("</span></figcaption>\n</figure>\n", o);
}

/* Keep html (taken over) to show under line:column of an article. */
static void add_item(html_report *h, html_file *f, rec_span where, int severity,
                     const char *anchor, char *html)
{
    f->items = grow(f->items, &f->cap_items, f->n_items, sizeof *f->items);
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
            esc(to, f->suggestions[i]);
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
            esc_n(j, or, (size_t)(at - or));
            fputs(list, j);
            fill(j, at + 2, last, true);
            fclose(j);
            fill(o, _("Did you mean %s?"), joined, true);
            free(joined);
        } else {
            fill(o, _("Did you mean %s?"), list, true);
        }
        fputs("</p>\n", o);
        free(list);
        free(last);
    } else if (f->no_suggestion) {
        fputs("<p class=\"suggest none\">", o);
        fill(o, _("No suggestion: %s"), f->no_suggestion, false);
        fputs("</p>\n", o);
    }
    if (!f->fix)
        return;
    fprintf(o, "<p class=\"fix%s\">", f->fix_certain ? " certain" : "");
    if (f->fix_certain)
        fill(o, _("Fix (applied by %s): "), "<code>arbiter fix</code>", true);
    else
        esc(o, _("Fix (not certain: left to the author): "));
    for (const rec_fix *x = f->fix; x; x = x->next) {
        fprintf(o, "%s<span class=\"edit\" data-line=\"%u\" data-column=\"%u\">"
                   "%u:%u <del>", x == f->fix ? "" : "; ", x->where.line, x->where.column,
                x->where.line, x->where.column);
        esc(o, x->before ? x->before : "");
        fputs("</del> \u2192 <ins>", o);
        esc(o, x->text ? x->text : "");
        fputs("</ins></span>", o);
    }
    fputs("</p>\n", o);
}

static void render_finding(html_report *h, FILE *o, const rec_game *g, const rec_finding *f,
                           const char *anchor, const char *path)
{
    int sev = (int)f->severity;
    fprintf(o, "<div class=\"finding sev-%s\" id=\"%s\" data-code=\"", sev_class[sev], anchor);
    esc(o, f->code);
    fprintf(o, "\" data-line=\"%u\" data-column=\"%u\">\n<p class=\"head\">"
               "<span class=\"badge\">%s</span> <code>",
            f->where.line, f->where.column, h->sev_badge[sev]);
    esc(o, f->code);
    fputs("</code> <span class=\"loc\">", o);
    esc(o, path);
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
        esc(m, f->move_text);
        fputs("</q>", m);
        fclose(m);
        fputs(" <span class=\"move\">", o);
        fill(o, _("move %s"), q, true);
        fputs("</span>", o);
        free(q);
    }
    fputs("</p>\n<p class=\"msg\">", o);
    esc(o, f->message);
    fputs("</p>\n", o);
    if (f->engine_eval) {   /* the engine's word, for the editor to weigh */
        fputs("<p class=\"engine\">", o);
        fputs(_("Engine:"), o);
        fputs(" <b>", o);
        esc(o, f->engine_eval);
        fputs("</b> <q>", o);
        esc(o, f->engine_best ? f->engine_best : "");
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
        h->first[h->n_first].code = dup(f->code);
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
    r->code = dup(f->code);
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
        esc(o, c->text);
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
        esc(o, n->text);
        fputs("</span>", o);
        int k = find_at(m, n->where.offset);
        /* every finding about this move, linked (the text says which) */
        for (; k >= 0 && k < m->n && m->by_offset[k]->where.offset == n->where.offset; k++) {
            int sev = (int)m->by_offset[k]->severity;
            fprintf(o, "<a class=\"fref sev-%s\" href=\"#%s\" title=\"", sev_class[sev],
                    m->anchors[k]);
            esc(o, m->by_offset[k]->code);
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
    int st = game_status(g);
    fprintf(o, "<section class=\"game st-%s\" id=\"g%zu-%llu\" aria-labelledby=\"g%zu-%llu-h\">\n",
            status_class[st], file, (unsigned long long)g->index, file,
            (unsigned long long)g->index);
    fprintf(o, "<h3 id=\"g%zu-%llu-h\"><span class=\"badge\">%s</span> ", file,
            (unsigned long long)g->index, h->status_badge[st]);
    char head[64];
    snprintf(head, sizeof head, _("Game %llu: %s"), (unsigned long long)g->index, "%s");
    fill(o, head, label, false);
    if (g->result) {
        fputs(" <span class=\"result\">", o);
        esc(o, g->result);
        fputs("</span>", o);
    }
    fputs("</h3>\n<p class=\"where\">", o);
    esc(o, g->file);
    fprintf(o, ":%u, ", g->start.line);
    /* TRANSLATORS: English keeps "plies" for one too, as the page always wrote it */
    fprintf(o, ngettext("%u plies replayed", "%u plies replayed", g->plies), g->plies);
    if (g->derived_result) {
        fputs("; ", o);
        fill(o, _("the board says %s"), g->derived_result, false);
        if (g->derived_reason) {
            fputs(" (", o);
            esc(o, g->derived_reason);
            fputs(")", o);
        }
    }
    fputs("</p>\n", o);
    if (g->tags) {
        fprintf(o, "<details class=\"tags\"><summary>%s</summary>\n<dl>\n", _("Tags"));
        for (const rec_tag *t = g->tags; t; t = t->next) {
            fputs("<dt>", o);
            esc(o, t->name);
            fputs("</dt><dd>", o);
            esc(o, t->value);
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
        esc(o, g->result);
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
    f->ranges = grow(f->ranges, &f->cap_ranges, f->n_ranges, sizeof *f->ranges);
    html_range *r = &f->ranges[f->n_ranges++];
    r->first = g->start.line;
    r->last = g->end.line > g->start.line ? g->end.line : g->start.line;
    r->game = g->index;
    r->status = game_status(g);
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

    h->rows = grow(h->rows, &h->cap_rows, h->n_rows, sizeof *h->rows);
    html_row *row = &h->rows[h->n_rows++];
    memset(row, 0, sizeof *row);
    row->game = g->index;
    row->file = file;
    row->status = game_status(g);
    row->errors = g->error_count;
    row->warnings = g->warning_count;
    row->infos = g->finding_count - g->error_count - g->warning_count;
    row->plies = g->plies;
    row->label = game_label(g);
    row->result = dup(g->result ? g->result : "");

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
    fill(o, _("Proof: %s"), inputs, false);
    fprintf(o, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", page_style);
}

static void page_summary(FILE *o, const html_report *h, const summary *s)
{
    fputs("<header>\n<h1>", o);
    if (h->n_files == 1)
        fill(o, _("Proof: %s"), h->files[0].path, false);
    else
        esc(o, _("Proof"));
    fputs("</h1>\n<p>", o);
    fill(o, _("Checked by arbiter %s: every move of every line replayed, every finding in "
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
            esc(o, s->codes[i].code);
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
            fputs("</td><td>", o);
            esc(o, h->files[r->file].path);
            fputs("</td><td>", o);
            esc(o, r->label);
            fputs("</td><td>", o);
            esc(o, r->result);
            fprintf(o, "</td><td class=\"st-%s\"><span class=\"badge\">%s</span></td><td>%u</td>"
                       "<td>%u</td></tr>\n",
                    status_class[r->status], h->status_badge[r->status], r->errors, r->warnings);
        }
        fputs("</table>\n", o);
    }
    if (h->n_refs) {
        fprintf(o, "<h3>%s</h3>\n<ol class=\"index\">\n", _("Errors and warnings"));
        for (size_t i = 0; i < h->n_refs; i++) {
            const html_ref *r = &h->refs[i];
            fprintf(o, "<li><a href=\"#%s\"><span class=\"sev-%s\"><span class=\"badge\">%s"
                       "</span></span> <code>",
                    r->anchor, sev_class[r->severity], h->sev_badge[r->severity]);
            esc(o, r->code);
            fputs("</code> ", o);
            esc(o, h->files[r->file].path);
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
                        sev_class[items[k].severity], items[k].anchor,
                        _(sev_word[items[k].severity]), sev_icon[items[k].severity]);
            k++;
        }
        if (i == len)
            break;
        size_t j = i + 1;
        while (j < len && ((unsigned char)text[j] & 0xC0) == 0x80)
            j++;
        esc_n(o, text + i, j - i);
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
    if (!input_open(&in, f->path, INPUT_UNKNOWN, err, sizeof err))
        return false;
    qsort(f->items, f->n_items, sizeof *f->items, item_cmp);
    fprintf(o, "<section class=\"article\" aria-labelledby=\"a%zu-h\">\n<h2 id=\"a%zu-h\">", file,
            file);
    esc(o, f->path);
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
                       "aria-label=\"", status_class[r->status], file, (unsigned long long)r->game);
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
            fprintf(o, "<tr><td>%llu</td><td>", (unsigned long long)r->game);
            esc(o, h->files[r->file].path);
            fputs("</td><td>", o);
            esc(o, r->label);
            fputs("</td><td>", o);
            esc(o, r->result);
            fprintf(o, "</td><td>%u</td><td>%u</td></tr>\n", r->plies, r->infos);
        }
        fputs("</table>\n</details>\n</section>\n", o);
    }
    fputs("</main>\n<footer>\n<p>", o);
    fill(o, _("Made by arbiter %s. Icons and words give every status; the colours only repeat "
              "them."), PACKAGE_VERSION, false);
    fputs("</p>\n</footer>\n</body>\n</html>\n", o);
    if (ferror(o))
        ok = false;
    free_all(h);
    return ok;
}
