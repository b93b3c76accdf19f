/* text_board.c: boards as text for terminals (see text_board.h). */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "diagram/text_board.h"

void dg_write_text_grid(FILE *out, const dg_board *b, bool letters, bool flip, const char *indent)
{
    bool xq = b->kind == REC_XIANGQI;
    /* a Chinese character takes two columns: xiangqi cells are three wide (one-column
     * glyphs are padded) */
    const char *empty = "\xC2\xB7"; /* U+00B7 middle dot */
    for (int i = 0; i < b->ranks; i++) {
        int r = flip ? i : b->ranks - 1 - i;
        fprintf(out, "%s%2d  ", indent, xq ? r : r + 1);
        for (int j = 0; j < b->files; j++) {
            int f = flip ? b->files - 1 - j : j;
            int pc = b->piece[r * b->files + f];
            bool marked = r * b->files + f == b->last_to;
            if (pc)
                fputs(dg_piece_glyph(b->kind, pc, letters), out);
            else
                fputs(empty, out);
            if (j + 1 == b->files) {
                if (marked)
                    fputs(xq && (!pc || letters) ? " <" : "<", out);
                continue;
            }
            if (xq && (!pc || letters))
                fputc(' ', out); /* pad one-column glyphs to the two of a character */
            fputs(marked ? "<" : " ", out);
        }
        fputc('\n', out);
        if (xq && i == 4)
            fprintf(out, "%s    ~~~~ 楚河        漢界 ~~~~\n", indent);
    }
    fprintf(out, "%s    ", indent);
    for (int j = 0; j < b->files; j++) {
        int f = flip ? b->files - 1 - j : j;
        fprintf(out, "%c%s", 'a' + f, j + 1 < b->files ? (xq ? "  " : " ") : "");
    }
    fputc('\n', out);
}

bool dg_write_text(FILE *out, const dg_board *b, bool letters, bool flip)
{
    if (b->caption[0])
        fprintf(out, "%s\n", b->caption);
    dg_write_text_grid(out, b, letters, flip, "");
    if (b->last_from >= 0) {
        int ff = b->last_from % b->files, fr = b->last_from / b->files;
        int tf = b->last_to % b->files, tr = b->last_to / b->files;
        int base = b->kind == REC_XIANGQI ? 0 : 1;
        fprintf(out, "last move: %c%d-%c%d\n", 'a' + ff, fr + base, 'a' + tf, tr + base);
    }
    fprintf(out, "FEN: %s\n", b->fen);
    return !ferror(out);
}
