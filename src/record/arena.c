/* arena.c: the per-game bump allocator. */
#include <config.h>

#include "record/arena.h"

#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
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

/* fmt's text into out (room bytes, the end cut off if it does not fit) when its only
 * conversions are %s (not NULL), %d, %u, %lu, %llu and %%, as printf would write it;
 * else -1, and vsnprintf is asked. A finding's message (a game's twin each game of a
 * database full of copies) is written in a tenth of vsnprintf's instructions. */
static int format_plain(char *out, size_t room, const char *fmt, va_list *ap)
{
    size_t n = 0;
    char digits[24];
    for (const char *f = fmt; *f; f++) {
        const char *s = f;
        size_t k;
        if (*f != '%') {
            /* a run of text up to the next conversion, copied at once */
            while (f[1] && f[1] != '%')
                f++;
            k = (size_t)(f + 1 - s);
        } else {
            k = 1;
            f++;
            unsigned long long v;
            bool minus = false;
            if (*f == 's') {
                if (!(s = va_arg(*ap, const char *)))
                    return -1;
                k = strlen(s);
            } else if (*f == '%') {
                s = f;
            } else {
                if (*f == 'u') {
                    v = va_arg(*ap, unsigned);
                } else if (*f == 'd') {
                    int i = va_arg(*ap, int);
                    minus = i < 0;
                    v = minus ? 0ull - (unsigned long long)(long long)i : (unsigned long long)i;
                } else if (f[0] == 'l' && f[1] == 'u') {
                    v = va_arg(*ap, unsigned long);
                    f++;
                } else if (f[0] == 'l' && f[1] == 'l' && f[2] == 'u') {
                    v = va_arg(*ap, unsigned long long);
                    f += 2;
                } else {
                    return -1;
                }
                char *end = digits + sizeof digits, *d = end;
                do
                    *--d = (char)('0' + v % 10);
                while (v /= 10);
                if (minus)
                    *--d = '-';
                s = d;
                k = (size_t)(end - d);
            }
        }
        if (n < room)
            memcpy(out + n, s, k < room - n ? k : room - n);
        n += k;
        if (n > INT_MAX)
            return -1;
    }
    if (room)
        out[n < room ? n : room - 1] = '\0';
    return (int)n;
}

/* fmt into out as vsnprintf would, format_plain first. */
static int format_into(char *out, size_t room, const char *fmt, va_list ap)
{
    va_list plain;
    va_copy(plain, ap);
    int len = format_plain(out, room, fmt, &plain);
    va_end(plain);
    return len >= 0 ? len : vsnprintf(out, room, fmt, ap);
}

char *arena_printf(arena *a, const char *fmt, ...)
{
    /* Written straight into the current block's free bytes: most texts fit, and then
     * one formatting pass is enough; only a longer one is measured there and written
     * again. */
    size_t room = a->next ? (size_t)(a->end - a->next) : 0;
    va_list ap;
    va_start(ap, fmt);
    int len = format_into((char *)a->next, room, fmt, ap);
    va_end(ap);
    if (len < 0)
        return arena_strdup(a, "");
    char *p = arena_alloc_here(a, (size_t)len + 1, 1);
    if (p)
        return p;   /* a->next, where the text is */
    p = arena_alloc_uninit(a, (size_t)len + 1, 1);
    va_start(ap, fmt);
    format_into(p, (size_t)len + 1, fmt, ap);
    va_end(ap);
    return p;
}
