/* svg.h: board diagrams as SVG 1.1 (one standalone document per diagram).
 *
 * Xiangqi: the 9x10 lines, the river with 楚河 漢界, the palaces' diagonals, the files
 * numbered for each side (Red 九..一 at the bottom, Black 1..9 at the top), pieces as
 * discs with their Chinese characters in red or black (or FEN letters). Chess: 8x8
 * squares, files a-h and ranks 1-8, the Unicode chess glyphs (or FEN letters in
 * discs). Both: the last move marked, [%csl] squares and [%cal] arrows drawn, the
 * caption under the board. Fonts are named, not embedded: the characters need a CJK
 * font (WenQuanYi, Noto CJK, SimSun...) where the SVG is rendered. */
#ifndef ARBITER_DIAGRAM_SVG_H
#define ARBITER_DIAGRAM_SVG_H

#include <stdbool.h>
#include <stdio.h>

#include "diagram/board.h"

typedef struct dg_svg_options {
    bool letters;        /* FEN letters instead of Chinese characters / chess glyphs */
    bool flip;           /* Black (or the second player) at the bottom */
    int embed_id;        /* > 0: an <svg> element for an HTML page: no XML declaration,
                          * its marker ids end in "-<embed_id>" (unique in the page),
                          * pieces carry data-piece="<FEN letter>" */
} dg_svg_options;

/* The size in pixels of the document dg_write_svg writes for b. */
void dg_svg_size(const dg_board *b, int *width, int *height);

/* Write b as an SVG document. False on a write error. */
bool dg_write_svg(FILE *out, const dg_board *b, const dg_svg_options *opts);

/* A horse's tour as an SVG document: the board's points (xiangqi lines on 9x10), the
 * path drawn step by step with arrow heads, every point numbered in visiting order,
 * the start ringed in green. path holds files * ranks points. */
bool dg_write_tour_svg(FILE *out, int files, int ranks, const int *path, const char *caption);

/* Write text with the XML special characters escaped. */
void dg_xml_escaped(FILE *out, const char *text);

#endif
