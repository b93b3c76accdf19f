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

typedef struct arena_block arena_block;

typedef struct arena {
    arena_block *head;   /* current block; older blocks follow through ->prev */
    size_t used;         /* bytes used in head */
    size_t total;        /* bytes handed out since the last reset (for limits) */
} arena;

void arena_init(arena *a);
void arena_free(arena *a);
/* Forget everything allocated; keeps one block for reuse. */
void arena_reset(arena *a);
/* size bytes aligned for any type; zero-filled. */
void *arena_alloc(arena *a, size_t size);
/* A NUL-terminated copy of len bytes of s. */
char *arena_strndup(arena *a, const char *s, size_t len);
char *arena_strdup(arena *a, const char *s);
/* printf into the arena. */
char *arena_printf(arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
