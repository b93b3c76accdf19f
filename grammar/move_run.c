/* move_run.c: runs of move-text items (see move_run.h). */
#include <config.h>

#include "move_run.h"

#include <stdlib.h>

bool move_run_push(move_run *s, const move_item *it)
{
    if (s->n == s->cap) {
        size_t c = s->cap ? s->cap * 2 : 8;
        move_item *v = realloc(s->items, c * sizeof *v);
        if (!v) {
            free(it->text);
            return false;
        }
        s->items = v;
        s->cap = c;
    }
    s->items[s->n++] = *it;
    return true;
}

size_t move_run_moves(const move_run *s)
{
    size_t k = 0;
    for (size_t i = 0; i < s->n; i++)
        k += s->items[i].kind == MOVE_ITEM_MOVE;
    return k;
}

void move_run_truncate(move_run *s, size_t k)
{
    for (size_t x = k; x < s->n; x++)
        free(s->items[x].text);
    if (k < s->n)
        s->n = k;
}

void move_run_free(move_run *s)
{
    move_run_truncate(s, 0);
    free(s->items);
    s->items = NULL;
    s->cap = 0;
}
