/* article.h: records inside free text, and the input formats' names.
 *
 * An article is free text (forum BBCode, UTF-8) holding game records between
 * "[game]" and "[/game]" (case-insensitive). The splitter streams the article through
 * a fixed window: it finds the next block, hands the block's bytes out in pieces (the
 * WXF scanner reads them as its input), notes how the block ended, and looks for an
 * evaluation symbol written right after "[/game]" ("[b]∞[/b]", on the same line or
 * the next). Memory is the window, whatever the size of the article or of a block.
 *
 * Positions: src_pos is a place in the whole input (line, column, byte offset). Every
 * byte the splitter passes, inside blocks or not, moves its position, so the position
 * it gives for a block's first byte lets a reader continue counting in article
 * coordinates. Columns count characters: every byte that is not a UTF-8 continuation
 * byte (0x80-0xBF) is one column, a tab is one column; a byte-order mark at the
 * start of the input is none. */
#ifndef ARBITER_IO_ARTICLE_H
#define ARBITER_IO_ARTICLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A place in the input: the next byte at off. Column = off - line_start - cont + 1. */
typedef struct src_pos {
    uint64_t off;         /* byte offset */
    uint64_t line_start;  /* offset of the first byte of the line */
    uint32_t line;        /* 1-based */
    uint32_t cont;        /* bytes of this line before off that are not characters */
} src_pos;

/* The position at the start of an input. */
static inline src_pos src_pos_start(void)
{
    src_pos p = {0, 0, 1, 0};
    return p;
}

static inline uint32_t src_pos_column(const src_pos *p)
{
    return (uint32_t)(p->off - p->line_start - p->cont) + 1;
}

/* Move p over the n bytes s. */
void src_pos_advance(src_pos *p, const char *s, size_t n);

typedef struct article article;

/* Read blocks from in (not closed here). NULL when out of memory. */
article *article_open(FILE *in);

/* Find the next "[game]". Returns 1 with *open at its '[' and *body just after its
 * ']', 0 at the end of the input, -1 on a read error (article_error). */
int article_next_block(article *a, src_pos *open, src_pos *body);

/* Up to max bytes of the current block; 0 once the block has ended: at "[/game]"
 * (consumed), before a new "[game]" (left for article_next_block), or at the end of
 * the input. */
size_t article_read(article *a, char *buf, size_t max);

/* After article_read returned 0: whether "[/game]" closed the block. */
bool article_block_closed(const article *a);

/* The position just after the block (after "[/game]" when it was closed). */
src_pos article_pos(const article *a);

/* After a closed block: an evaluation symbol right after "[/game]" (same line or the
 * next, possibly inside BBCode tags such as "[b]...[/b]"). Returns its NAG and
 * consumes it, setting *where to its first character, or returns -1 and consumes
 * nothing. */
int article_eval(article *a, src_pos *where);

/* The last read error, or "". */
const char *article_error(const article *a);

void article_close(article *a);

/* ------------------------------------------------------------------ formats */

/* Every input format; each is a reader in the registry (reader/reader.h), which also
 * tells them apart. A new format adds its value here. */
typedef enum {
    INPUT_UNKNOWN, INPUT_PGN, INPUT_WXF, INPUT_ARTICLE,
    INPUT_TEX,               /* LaTeX with skak/xskak */
    INPUT_WEB,               /* Markdown or HTML with PGN in wrappers */
    INPUT_XQF,               /* XQStudio's binary format (io/xqf.h) */
    INPUT_DHTMLXQ,           /* [DhtmlXQ] blocks in any text */
    INPUT_CBR,               /* CCBridge records and libraries (io/ccb_reader.h) */
    INPUT_CBL,
    INPUT_CBF
} input_format;

#endif
