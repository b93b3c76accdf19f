/* svg.c: board diagrams and horse's tours as SVG (see svg.h). */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "diagram/svg.h"

#define XQ_CELL 50    /* distance between two lines of the xiangqi board */
#define XQ_MARGIN 60
#define CH_CELL 56    /* a chess square */
#define CH_MARGIN 28
#define CAPTION_H 44
#define FONT_CJK "WenQuanYi Micro Hei, Noto Sans CJK SC, Noto Serif CJK SC, SimSun, serif"
#define FONT_CHESS "DejaVu Sans, Segoe UI Symbol, FreeSerif, sans-serif"
#define FONT_TEXT "DejaVu Sans, Liberation Sans, Arial, sans-serif"

static const char *mark_color(char c)
{
    switch (c) {
    case 'R': return "#d02020";
    case 'G': return "#15a020";
    case 'Y': return "#e0b000";
    default: return "#2050d0";
    }
}

void dg_xml_escaped(FILE *out, const char *text)
{
    for (const char *p = text; *p; p++) {
        switch (*p) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        default:
            /* control characters are not allowed in XML 1.0 */
            if ((unsigned char)*p >= 0x20 || *p == '\t' || *p == '\n')
                fputc(*p, out);
        }
    }
}

/* Pixel centre of a point or square, with the board turned when flip. */
typedef struct geom {
    int files, ranks, cell, margin;
    bool squares;        /* chess: centres of squares; xiangqi: crossings of lines */
    bool flip;
} geom;

static double gx(const geom *g, int sq)
{
    int f = sq % g->files;
    if (g->flip)
        f = g->files - 1 - f;
    return g->margin + f * g->cell + (g->squares ? g->cell / 2.0 : 0);
}

static double gy(const geom *g, int sq)
{
    int r = sq / g->files;
    if (!g->flip)
        r = g->ranks - 1 - r;
    return g->margin + r * g->cell + (g->squares ? g->cell / 2.0 : 0);
}

void dg_svg_size(const dg_board *b, int *width, int *height)
{
    if (b->kind == REC_XIANGQI) {
        *width = 2 * XQ_MARGIN + (XQ_FILES - 1) * XQ_CELL;
        *height = 2 * XQ_MARGIN + (XQ_RANKS - 1) * XQ_CELL + CAPTION_H;
    } else {
        *width = 2 * CH_MARGIN + 8 * CH_CELL;
        *height = 2 * CH_MARGIN + 8 * CH_CELL + CAPTION_H;
    }
}

/* The suffix of marker ids: "" in a document of its own, "-N" when embedded. */
static void id_suffix(char buf[16], int embed_id)
{
    if (embed_id > 0)
        snprintf(buf, 16, "-%d", embed_id);
    else
        buf[0] = '\0';
}

static void header(FILE *out, int w, int h, const char *title, int embed_id)
{
    char sfx[16];
    id_suffix(sfx, embed_id);
    if (embed_id <= 0)
        fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
    fprintf(out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" "
            "height=\"%d\" viewBox=\"0 0 %d %d\"%s>\n<title>",
            w, h, w, h, embed_id > 0 ? " role=\"img\"" : "");
    dg_xml_escaped(out, title);
    fputs("</title>\n<defs>\n", out);
    static const char colors[] = "RGYB";
    for (int i = 0; i < 4; i++)
        fprintf(out,
                "<marker id=\"head-%c%s\" viewBox=\"0 0 10 10\" refX=\"5\" refY=\"5\" "
                "markerWidth=\"3\" markerHeight=\"3\" orient=\"auto\">"
                "<path d=\"M0,0 L10,5 L0,10 z\" fill=\"%s\"/></marker>\n",
                colors[i], sfx, mark_color(colors[i]));
    fprintf(out, "<marker id=\"step%s\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"5\" "
          "markerHeight=\"5\" orient=\"auto\"><path d=\"M0,1 L10,5 L0,9 z\" fill=\"#3060a0\"/>"
          "</marker>\n</defs>\n",
          sfx);
}

/* The caption under the board in up to two lines: the game's title, then where in the
 * game (split at the " — " the board module writes between them); a line too long for
 * the width is squeezed to fit. */
static void caption(FILE *out, int w, int h, const char *text)
{
    const char *sep = strstr(text, " \xE2\x80\x94 ");
    char first[160];
    const char *second = NULL;
    size_t n = sep ? (size_t)(sep - text) : strlen(text);
    if (n >= sizeof first)
        n = sizeof first - 1;
    memcpy(first, text, n);
    first[n] = '\0';
    if (sep)
        second = sep + 5;
    const char *lines[2] = {first, second};
    int count = second ? 2 : 1;
    for (int i = 0; i < count; i++) {
        size_t chars = 0;
        for (const char *p = lines[i]; *p; p++)
            chars += ((unsigned char)*p & 0xC0) != 0x80;
        int y = h - 8 - (count - 1 - i) * 18;
        fprintf(out, "<text x=\"%d\" y=\"%d\" font-family=\"%s\" font-size=\"13\" "
                     "text-anchor=\"middle\" fill=\"#222\"",
                w / 2, y, FONT_TEXT);
        if (chars * 7 > (size_t)w - 16) /* about 7 px a character at this size */
            fprintf(out, " textLength=\"%d\" lengthAdjust=\"spacingAndGlyphs\"", w - 16);
        fputc('>', out);
        dg_xml_escaped(out, lines[i]);
        fputs("</text>\n", out);
    }
}

static void line(FILE *out, double x1, double y1, double x2, double y2, double width)
{
    fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#3a2a10\" "
                 "stroke-width=\"%.1f\"/>\n",
            x1, y1, x2, y2, width);
}

/* The xiangqi board (Art. 1 of the law: nine files, ten ranks, the river between the
 * fifth and sixth ranks, the palaces of 3x3 points with their diagonals). */
static void xiangqi_lines(FILE *out, const geom *g, bool labels)
{
    double left = g->margin, right = g->margin + 8 * g->cell;
    double top = g->margin, bottom = g->margin + 9 * g->cell;
    fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
                 "stroke=\"#3a2a10\" stroke-width=\"3\"/>\n",
            left - 5, top - 5, right - left + 10, bottom - top + 10);
    for (int r = 0; r < 10; r++)
        line(out, left, top + r * g->cell, right, top + r * g->cell, 1.2);
    for (int f = 0; f < 9; f++) {
        double x = left + f * g->cell;
        if (f == 0 || f == 8) {
            line(out, x, top, x, bottom, 1.2);
        } else { /* the inner files stop at the river */
            line(out, x, top, x, top + 4 * g->cell, 1.2);
            line(out, x, top + 5 * g->cell, x, bottom, 1.2);
        }
    }
    for (int p = 0; p < 2; p++) { /* the palaces' diagonals */
        double y0 = p ? top + 7 * g->cell : top, y1 = y0 + 2 * g->cell;
        line(out, left + 3 * g->cell, y0, left + 5 * g->cell, y1, 1.2);
        line(out, left + 5 * g->cell, y0, left + 3 * g->cell, y1, 1.2);
    }
    double ry = top + 4.5 * g->cell + 10;
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-family=\"%s\" font-size=\"28\" "
                 "text-anchor=\"middle\" fill=\"#5a4020\" letter-spacing=\"18\">楚河</text>\n",
            left + 2 * g->cell, ry, FONT_CJK);
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-family=\"%s\" font-size=\"28\" "
                 "text-anchor=\"middle\" fill=\"#5a4020\" letter-spacing=\"18\">漢界</text>\n",
            left + 6 * g->cell, ry, FONT_CJK);
    if (!labels)
        return;
    /* Files as each side counts them from its own right: Red 九..一 in Chinese
     * numerals, Black 1..9, each on its own side of the board. */
    static const char *const cn[10] = {"", "一", "二", "三", "四", "五", "六", "七", "八", "九"};
    for (int f = 0; f < 9; f++) {
        double x = gx(g, f);
        double red_y = g->flip ? top - 30 : bottom + 44, black_y = g->flip ? bottom + 44 : top - 30;
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-family=\"%s\" font-size=\"15\" "
                     "text-anchor=\"middle\" fill=\"#333\">%s</text>\n",
                x, red_y, FONT_CJK, cn[9 - f]);
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-family=\"%s\" font-size=\"15\" "
                     "text-anchor=\"middle\" fill=\"#333\">%d</text>\n",
                x, black_y, FONT_TEXT, f + 1);
    }
}

static void chess_squares(FILE *out, const geom *g)
{
    for (int sq = 0; sq < 64; sq++) {
        bool light = ((sq % 8) + (sq / 8)) % 2 == 1;
        fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n",
                gx(g, sq) - g->cell / 2.0, gy(g, sq) - g->cell / 2.0, g->cell, g->cell,
                light ? "#f0d9b5" : "#b58863");
    }
    for (int i = 0; i < 8; i++) {
        fprintf(out, "<text x=\"%.1f\" y=\"%d\" font-family=\"%s\" font-size=\"14\" "
                     "text-anchor=\"middle\" fill=\"#333\">%c</text>\n",
                gx(g, i), g->margin + 8 * g->cell + 18, FONT_TEXT, 'a' + i);
        fprintf(out, "<text x=\"%d\" y=\"%.1f\" font-family=\"%s\" font-size=\"14\" "
                     "text-anchor=\"middle\" fill=\"#333\">%d</text>\n",
                g->margin / 2, gy(g, i * 8) + 5, FONT_TEXT, i + 1);
    }
}

static void square_marks(FILE *out, const dg_board *b, const geom *g)
{
    for (int i = 0; i < b->mark_count; i++) {
        const dg_mark *m = &b->marks[i];
        if (m->to >= 0)
            continue;
        if (g->squares)
            fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"%s\" "
                         "fill-opacity=\"0.55\"/>\n",
                    gx(g, m->from) - g->cell / 2.0, gy(g, m->from) - g->cell / 2.0, g->cell,
                    g->cell, mark_color(m->color));
        else
            fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"none\" stroke=\"%s\" "
                         "stroke-width=\"4\" stroke-opacity=\"0.8\"/>\n",
                    gx(g, m->from), gy(g, m->from), g->cell * 0.5, mark_color(m->color));
    }
}

/* Square root by Newton's method (keeps the program off libm for one call). */
static double root(double v)
{
    if (v <= 0)
        return 0;
    double x = v > 1 ? v : 1;
    for (int i = 0; i < 60; i++)
        x = 0.5 * (x + v / x);
    return x;
}

static void arrows(FILE *out, const dg_board *b, const geom *g, int embed_id)
{
    char sfx[16];
    id_suffix(sfx, embed_id);
    for (int i = 0; i < b->mark_count; i++) {
        const dg_mark *m = &b->marks[i];
        if (m->to < 0)
            continue;
        double x1 = gx(g, m->from), y1 = gy(g, m->from), x2 = gx(g, m->to), y2 = gy(g, m->to);
        /* stop short of the centre so that the head sits on the target */
        double dx = x2 - x1, dy = y2 - y1, len = dx * dx + dy * dy;
        double d = root(len);
        double k = d > g->cell * 0.35 ? (d - g->cell * 0.35) / d : 1.0;
        fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                     "stroke-width=\"%.1f\" stroke-opacity=\"0.75\" stroke-linecap=\"round\" "
                     "marker-end=\"url(#head-%c%s)\"/>\n",
                x1, y1, x1 + dx * k, y1 + dy * k, mark_color(m->color), g->cell * 0.16,
                m->color, sfx);
    }
}

static void last_move(FILE *out, const dg_board *b, const geom *g)
{
    if (b->last_from < 0)
        return;
    int sqs[2] = {b->last_from, b->last_to};
    for (int i = 0; i < 2; i++) {
        if (g->squares)
            fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"#f6f669\" "
                         "fill-opacity=\"0.6\"/>\n",
                    gx(g, sqs[i]) - g->cell / 2.0, gy(g, sqs[i]) - g->cell / 2.0, g->cell, g->cell);
        else
            /* the point left: a dashed ring; the point reached: a solid one round the piece */
            fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"none\" "
                         "stroke=\"#2060c0\" stroke-width=\"2.5\" stroke-dasharray=\"%s\"/>\n",
                    gx(g, sqs[i]), gy(g, sqs[i]), g->cell * (i ? 0.5 : 0.3), i ? "none" : "4,3");
    }
}

/* data-piece="<FEN letter>" on a piece's text when embedded in a page (tests and
 * scripts read the board back from it). */
static void piece_attr(FILE *out, const dg_board *b, int pc, int embed_id)
{
    if (embed_id <= 0)
        return;
    const char *letter = dg_piece_glyph(b->kind, pc, true);
    fprintf(out, " data-piece=\"%c\"", (pc >> 3) & 1 ? letter[0] | 0x20 : letter[0] & ~0x20);
}

static void pieces(FILE *out, const dg_board *b, const geom *g, bool letters, int embed_id)
{
    for (int sq = 0; sq < b->files * b->ranks; sq++) {
        int pc = b->piece[sq];
        if (!pc)
            continue;
        bool second = (pc >> 3) & 1;
        double x = gx(g, sq), y = gy(g, sq);
        const char *glyph = dg_piece_glyph(b->kind, pc, letters);
        if (b->kind == REC_XIANGQI) {
            const char *ink = second ? "#1a1a1a" : "#b81010";
            double r = g->cell * 0.44;
            fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"#fbe8c0\" stroke=\"%s\" "
                         "stroke-width=\"2\"/>\n<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" "
                         "fill=\"none\" stroke=\"%s\" stroke-width=\"1\"/>\n",
                    x, y, r, ink, x, y, r - 4, ink);
            fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-family=\"%s\" font-size=\"%d\" "
                         "text-anchor=\"middle\" fill=\"%s\"",
                    x, y + (letters ? 8.5 : 9.5), letters ? FONT_TEXT : FONT_CJK, letters ? 24 : 27,
                    ink);
            piece_attr(out, b, pc, embed_id);
            fprintf(out, ">%s</text>\n", glyph);
        } else if (letters) {
            double r = g->cell * 0.4;
            fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\" stroke=\"#111\" "
                         "stroke-width=\"2\"/>\n",
                    x, y, r, second ? "#222" : "#fafafa");
            fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-family=\"%s\" font-size=\"24\" "
                         "font-weight=\"bold\" text-anchor=\"middle\" fill=\"%s\"",
                    x, y + 8.5, FONT_TEXT, second ? "#fafafa" : "#111");
            piece_attr(out, b, pc, embed_id);
            fprintf(out, ">%c</text>\n", glyph[0] & ~0x20);
        } else {
            /* the filled glyph in the side's colour with a dark outline reads on both
             * square colours */
            const char *filled = dg_piece_glyph(b->kind, (pc & 7) | 8, false);
            fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-family=\"%s\" font-size=\"%d\" "
                         "text-anchor=\"middle\" fill=\"%s\" stroke=\"#111\" stroke-width=\"1.2\"",
                    x, y + g->cell * 0.3, FONT_CHESS, (int)(g->cell * 0.82),
                    second ? "#111" : "#fff");
            piece_attr(out, b, pc, embed_id);
            fprintf(out, ">%s</text>\n", filled);
        }
    }
}

bool dg_write_svg(FILE *out, const dg_board *b, const dg_svg_options *opts)
{
    int w, h;
    dg_svg_size(b, &w, &h);
    bool xq = b->kind == REC_XIANGQI;
    geom g = {b->files, b->ranks, xq ? XQ_CELL : CH_CELL, xq ? XQ_MARGIN : CH_MARGIN, !xq,
              opts && opts->flip};
    int embed = opts ? opts->embed_id : 0;
    header(out, w, h, b->caption, embed);
    fprintf(out, "<rect width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", w, h, xq ? "#f2d9a6" : "#ffffff");
    if (xq)
        xiangqi_lines(out, &g, true);
    else
        chess_squares(out, &g);
    last_move(out, b, &g);
    square_marks(out, b, &g);
    pieces(out, b, &g, opts && opts->letters, embed);
    arrows(out, b, &g, embed);
    caption(out, w, h, b->caption);
    fprintf(out, "<desc>FEN %s</desc>\n</svg>\n", b->fen);
    return !ferror(out);
}

bool dg_write_tour_svg(FILE *out, int files, int ranks, const int *path, const char *text)
{
    int cell = 50, margin = 40;
    int w = 2 * margin + (files - 1) * cell, h = 2 * margin + (ranks - 1) * cell + CAPTION_H;
    geom g = {files, ranks, cell, margin, false, false};
    header(out, w, h, text, 0);
    bool xq = files == 9 && ranks == 10;
    fprintf(out, "<rect width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", w, h, xq ? "#f2d9a6" : "#ffffff");
    if (xq) {
        xiangqi_lines(out, &g, false);
    } else {
        for (int r = 0; r < ranks; r++)
            line(out, margin, margin + r * cell, margin + (files - 1) * cell, margin + r * cell, 0.6);
        for (int f = 0; f < files; f++)
            line(out, margin + f * cell, margin, margin + f * cell, margin + (ranks - 1) * cell, 0.6);
    }
    int n = files * ranks;
    for (int k = 1; k < n; k++) {
        double x1 = gx(&g, path[k - 1]), y1 = gy(&g, path[k - 1]);
        double x2 = gx(&g, path[k]), y2 = gy(&g, path[k]);
        /* from the edge of one numbered disc to the edge of the next: a jump is sqrt(5)
         * cells long, the discs have radius 0.3 cell */
        double k1 = 0.3 / 2.236, k2 = 1 - k1;
        fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#3060a0\" "
                     "stroke-width=\"1.6\" marker-end=\"url(#step)\"/>\n",
                x1 + (x2 - x1) * k1, y1 + (y2 - y1) * k1, x1 + (x2 - x1) * k2, y1 + (y2 - y1) * k2);
    }
    for (int k = 0; k < n; k++) {
        double x = gx(&g, path[k]), y = gy(&g, path[k]);
        fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"#fff\" stroke=\"%s\" "
                     "stroke-width=\"%s\"/>\n",
                x, y, cell * 0.3, k == 0 ? "#10a010" : "#3060a0", k == 0 ? "4" : "1.2");
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-family=\"%s\" font-size=\"13\" "
                     "text-anchor=\"middle\" fill=\"#111\">%d</text>\n",
                x, y + 4.5, FONT_TEXT, k + 1);
    }
    caption(out, w, h, text);
    fputs("</svg>\n", out);
    return !ferror(out);
}
