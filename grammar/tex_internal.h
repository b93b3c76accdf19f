/* tex_internal.h: what the LaTeX scanner (tex_scan.l) and the reader share. */
#ifndef ARBITER_GRAMMAR_TEX_INTERNAL_H
#define ARBITER_GRAMMAR_TEX_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

enum tex_token {
    TEX_TOK_END = 0,
    TEX_TOK_CMD,        /* \word or \word* */
    TEX_TOK_TEXT,       /* other characters, or an escaped one (\%) */
    TEX_TOK_LBRACE,
    TEX_TOK_RBRACE,
    TEX_TOK_LBRACK,
    TEX_TOK_RBRACK,
    TEX_TOK_COMMENT,    /* '%' to the end of the line, without the newline */
    TEX_TOK_SPACE
};

/* The scanner's extra state: where the next match starts, where the last began. */
struct tex_lex {
    uint64_t off;
    uint64_t tok_off;
};

/* One token of a document: kind, byte offset and length. */
typedef struct tex_token_at {
    int kind;
    uint64_t off;
    size_t len;
} tex_token_at;

/* Tokenise len bytes of text into a malloc'd array (*count tokens, the last one
 * TEX_TOK_END at len). NULL when out of memory. */
tex_token_at *tex_tokenize(const char *text, size_t len, size_t *count);

#endif
