/* arena.h: a bump allocator, one per game.
 *
 * Everything a game's record holds (tags, nodes, comments, findings) lives in one
 * arena, so the per-move cost is a pointer bump and dropping a game is one reset.
 * Memory stays flat over a stream of games: reset keeps the first block and frees the
 * rest. Allocation never fails silently: on exhaustion of the process the program
 * aborts with a message (a single pathological game is bounded by the reader's limits,
 * not here). */
#ifndef ARBITER_RECORD_ARENA_H
#define ARBITER_RECORD_ARENA_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct arena_block arena_block;

typedef struct arena {
    arena_block *head;   /* current block; older blocks follow through ->prev */
    unsigned char *next; /* the first free byte of head */
    unsigned char *end;  /* the end of head's data */
    size_t total;        /* bytes handed out since the last reset (for limits) */
} arena;

void arena_init(arena *a);
void arena_free(arena *a);
/* Forget everything allocated; keeps one block for reuse. */
void arena_reset(arena *a);
/* The slow path of the allocators below: a new block. */
void *arena_alloc_block(arena *a, size_t size, size_t align);

#define ARENA_ALIGN 16

/* size bytes aligned to align from the current block: NULL when it has no room (then
 * arena_alloc_uninit takes a new block). With
 * no call in it, a caller whose other paths are tail calls keeps its values in
 * registers that need no saving. */
static inline void *arena_alloc_here(arena *a, size_t size, size_t align)
{
    /* size - 1 wraps for 0, which finds no room; so does any size in an arena with no
     * block yet (next == end == NULL, so p == 0) */
    uintptr_t p = ((uintptr_t)a->next + align - 1) & ~(uintptr_t)(align - 1);
    if (p <= (uintptr_t)a->end && size - 1 < (size_t)((uintptr_t)a->end - p)) {
        a->next = (unsigned char *)p + size;
        a->total += size;
        return (void *)p;
    }
    return NULL;
}

/* size bytes aligned to align (a power of two), not cleared: for what is written
 * whole at once (strings, copied arrays). Inline, because a game's tokens and moves
 * each take one: the common case is a pointer bump (arena_alloc_here). */
static inline void *arena_alloc_uninit(arena *a, size_t size, size_t align)
{
    void *p = arena_alloc_here(a, size, align);
    return p ? p : arena_alloc_block(a, size, align);
}

/* size bytes aligned for any type; zero-filled. */
static inline void *arena_alloc(arena *a, size_t size)
{
    void *p = arena_alloc_uninit(a, size, ARENA_ALIGN);
    memset(p, 0, size);
    return p;
}

/* A NUL-terminated copy of len bytes of s (byte-aligned: strings need no more). */
static inline char *arena_strndup(arena *a, const char *s, size_t len)
{
    char *p = arena_alloc_uninit(a, len + 1, 1);
    memcpy(p, s, len);
    p[len] = '\0';
    return p;
}
char *arena_strdup(arena *a, const char *s);
/* printf into the arena. */
char *arena_printf(arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
