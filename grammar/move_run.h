/* move_run.h: the moves an article writes in one place, as syntax.
 *
 * A LaTeX move argument (\mainline{1.e4 e5}) and a run of moves in a web page's prose
 * ("**9... cxd4 10. Qxd4**") are both read into a move_run: numbers, moves, NAGs and
 * comments in the order written, each with the byte offset and length of its text in
 * the document. The readers in grammar/ know only this; what the moves do on a board
 * is the document layer's business (src/document/). */
#ifndef ARBITER_GRAMMAR_MOVE_RUN_H
#define ARBITER_GRAMMAR_MOVE_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { MOVE_ITEM_NUM, MOVE_ITEM_MOVE, MOVE_ITEM_NAG, MOVE_ITEM_COMMENT };

typedef struct move_item {
    int kind;
    uint64_t off;            /* where its text starts in the document */
    uint32_t len;            /* its length there */
    char *text;              /* as written into the PGN (letters translated), malloc'd */
    uint32_t num;            /* MOVE_ITEM_NUM: the number */
    bool black;              /* MOVE_ITEM_NUM: written "12..." */
} move_item;

typedef struct move_run {
    move_item *items;
    size_t n, cap;
} move_run;

/* Append it (its text is the run's now). False when out of memory (the text freed). */
bool move_run_push(move_run *s, const move_item *it);

/* The number of MOVE_ITEM_MOVE items. */
size_t move_run_moves(const move_run *s);

/* Drop items from k on. */
void move_run_truncate(move_run *s, size_t k);

void move_run_free(move_run *s);

#endif
