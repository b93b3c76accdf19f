/* arena.c: the per-game bump allocator. */
#include <config.h>

#include "record/arena.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/xalloc.h"

#define ARENA_BLOCK_SIZE (64 * 1024)

struct arena_block {
    arena_block *prev;
    size_t size;                    /* usable bytes in data */
    _Alignas(ARENA_ALIGN) unsigned char data[];
};

static arena_block *block_new(size_t size, arena_block *prev)
{
    arena_block *b = xalloc_realloc(NULL, sizeof *b + size);
    b->prev = prev;
    b->size = size;
    return b;
}

void arena_init(arena *a)
{
    a->head = NULL;
    a->next = a->end = NULL;
    a->total = 0;
}

void arena_free(arena *a)
{
    arena_block *b = a->head;
    while (b) {
        arena_block *prev = b->prev;
        free(b);
        b = prev;
    }
    arena_init(a);
}

void arena_reset(arena *a)
{
    if (!a->head)
        return;
    /* Keep the oldest block (the standard size); big ones go back to the system. */
    arena_block *b = a->head;
    while (b->prev) {
        arena_block *prev = b->prev;
        free(b);
        b = prev;
    }
    a->head = b;
    a->next = b->data;
    a->end = b->data + b->size;
    a->total = 0;
}

void *arena_alloc_block(arena *a, size_t size, size_t align)
{
    /* block data is ARENA_ALIGN-aligned, so any align up to that holds at its start */
    size_t block = size > ARENA_BLOCK_SIZE ? size : ARENA_BLOCK_SIZE;
    a->head = block_new(block, a->head);
    a->next = a->head->data + size;
    a->end = a->head->data + block;
    a->total += size;
    (void)align;
    return a->head->data;
}

char *arena_strdup(arena *a, const char *s)
{
    return arena_strndup(a, s, strlen(s));
}

char *arena_printf(arena *a, const char *fmt, ...)
{
    /* Written straight into the current block's free bytes: most texts fit, and then
     * one formatting pass is enough (a twin finding's message each game of a database
     * full of copies); only a longer one is measured there and written again. */
    size_t room = a->next ? (size_t)(a->end - a->next) : 0;
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf((char *)a->next, room, fmt, ap);
    va_end(ap);
    if (len < 0)
        return arena_strdup(a, "");
    char *p = arena_alloc_here(a, (size_t)len + 1, 1);
    if (p)
        return p;   /* a->next, where the text is */
    p = arena_alloc_uninit(a, (size_t)len + 1, 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)len + 1, fmt, ap);
    va_end(ap);
    return p;
}
