/* text_board.h: a board for terminals, in Unicode (or ASCII letters).
 *
 *   9  車 馬 象 士 將 士 象 馬 車        8  ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜
 *   ...                                  ...
 *      ~~~~ 楚河      漢界 ~~~~          1  ♖ ♘ ♗ ♕ ♔ ♗ ♘ ♖
 *   0  俥 傌 相 仕 帥 仕 相 傌 俥           a b c d e f g h
 *      a  b  c  d  e  f  g  h  i
 *
 * Xiangqi ranks are numbered 0-9 and files a-i as in UCCI; the Chinese characters of
 * the two sides differ, so the colours read without colour on the terminal. */
#ifndef ARBITER_DIAGRAM_TEXT_BOARD_H
#define ARBITER_DIAGRAM_TEXT_BOARD_H

#include <stdbool.h>
#include <stdio.h>

#include "diagram/board.h"

/* Write the board, then the side to move and the FEN. letters: FEN letters instead of
 * characters or glyphs; flip: Black at the bottom. False on a write error. */
bool dg_write_text(FILE *out, const dg_board *b, bool letters, bool flip);

/* The board alone (no caption), each line prefixed with indent. */
void dg_write_text_grid(FILE *out, const dg_board *b, bool letters, bool flip, const char *indent);

#endif
