/* writer_common.h: what the binary xiangqi writers (XQF, CBR/CBL, CBF) do alike: a
 * growing output buffer, a move as UCCI squares, the record's result as a code, the
 * comments of a move joined as CR LF lines, a tag with a WXF key as its fallback.
 * Each format lays these out its own way; the logic is written once here. */
#ifndef ARBITER_WRITER_WRITER_COMMON_H
#define ARBITER_WRITER_WRITER_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "record/record.h"

/* Bytes collected in memory before the file is written (a format's keys or index need
 * the whole record first). failed: out of memory, the rest is not kept. */
typedef struct writer_buf {
    unsigned char *b;
    size_t len, cap;
    bool failed;
} writer_buf;

void writer_buf_put(writer_buf *o, const void *p, size_t n);

/* Write b[0, len) to out; false with "write error" in err when it fails. */
bool writer_write_bytes(FILE *out, const void *b, size_t len, char *err, size_t errsize);

/* The start position's placement and side, for a game without a FEN tag. */
extern const char writer_xq_start[];

/* How a format numbers the 90 points. */
typedef enum {
    WRITER_SQ_XQF,   /* 10 * file + rank: file 0 at a, rank 0 at Red's back rank (XQF,
                      * DhtmlXQ) */
    WRITER_SQ_CBR    /* 9 * row + file: row 0 at Black's back rank (CBR, CBF) */
} writer_squares;

/* A node's move as two points: the replayed move, else its text when that is UCCI
 * ("h2e2"). False when it is neither: such a move cannot be written. */
bool writer_node_squares(const rec_node *n, writer_squares layout, int *from, int *to);

/* Whether n is a move that can be written (writer_node_squares); false for NULL. */
bool writer_node_writable(const rec_node *n);

/* The move after n when it can be written; else NULL, and the moves left out of the
 * line from there on are added to *dropped. */
const rec_node *writer_next_writable(const rec_node *n, unsigned *dropped);

/* A work stack of *cap items of size bytes grown to twice as many: the new block (and
 * *cap doubled), or NULL with p and *cap as they were when memory runs out. */
void *writer_grow(void *p, size_t *cap, size_t size);

/* The result as the formats code it: 1 Red won, 2 Black won, 3 a draw, 0 unknown. The
 * termination marker, else (when none or '*') the Result tag, else the WXF key RESULT. */
int writer_result_code(const rec_game *g);

/* Tag a, or when the game has no tag a, tag b (when b is not NULL). */
const char *writer_tag_or(const rec_game *g, const char *a, const char *b);

/* The comments c1 then c2 as one text, lines ending CR LF (a lone LF gets its CR), the
 * comments apart by CR LF; an empty comment is left out when skip_empty. The bytes it
 * may need are writer_comments_size(c1, c2); returns the bytes written (no NUL). */
size_t writer_comments_size(const rec_comment *c1, const rec_comment *c2);
size_t writer_comments_join(char *out, const rec_comment *c1, const rec_comment *c2,
                            bool skip_empty);

#endif
