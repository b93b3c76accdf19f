/* doc_map.h: a document held in memory, and PGN text made from pieces of it.
 *
 * The LaTeX and web article readers do not parse moves themselves: they write each
 * game as PGN text, each piece of which remembers the document bytes it stands for
 * (a segment), let the PGN reader build the rec_game, and then move every place in
 * the game (moves, comments, tags, findings) back onto the document's lines and
 * columns. Columns count characters as everywhere (UTF-8 continuation bytes are not
 * columns; a leading byte-order mark is none). */
#ifndef ARBITER_GRAMMAR_DOC_MAP_H
#define ARBITER_GRAMMAR_DOC_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "record/record.h"

typedef struct doc_map {
    char *doc;               /* the whole document, NUL-terminated */
    size_t len;
    uint64_t *lines;         /* offset of each line's start */
    size_t nlines;
    /* the PGN text being made */
    char *pgn;
    size_t pgn_len, pgn_cap;
    struct doc_seg { size_t pgn; uint64_t doc; uint32_t len; } *segs;
    size_t nsegs, segcap;
    bool oom;
    char error[256];
} doc_map;

/* Read all of in. False on a read error or out of memory (message in error). */
bool doc_map_load(doc_map *m, FILE *in);
void doc_map_free(doc_map *m);

/* The line and column of a byte offset of the document. */
rec_span doc_map_span(const doc_map *m, uint64_t off);

/* Start a new PGN text. */
void doc_map_reset(doc_map *m);
/* Text that stands for no document bytes of its own (it maps to the piece before). */
void doc_map_put(doc_map *m, const char *s, size_t n);
void doc_map_puts(doc_map *m, const char *s);
/* Text that stands for len document bytes at doc. */
void doc_map_put_mapped(doc_map *m, const char *s, size_t n, uint64_t doc, uint32_t len);

/* Every place in g (read from the PGN text) moved onto the document. */
void doc_map_remap(const doc_map *m, rec_game *g);

#endif
