/* tex_reader.h: the syntax of a LaTeX document that holds chess (skak, xskak,
 * chess.sty, chessfss, chinesechess).
 *
 * A tex_doc is the document in memory and its tokens (tex_scan.l), each with its byte
 * offset. This file knows TeX's shape only: commands and their [optional] and {braced}
 * arguments, key=value lists, code that TeX prints instead of running (verbatim, \verb,
 * \mintinline and macros defined around them), and what a move argument says: move
 * numbers, moves in a letter set, NAGs and Informator macros, \xskakcomment, results.
 * What the commands do with games and positions is the document layer's
 * (src/document/tex_document.c); nothing here knows a board. */
#ifndef ARBITER_GRAMMAR_TEX_READER_H
#define ARBITER_GRAMMAR_TEX_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "doc_map.h"
#include "move_run.h"
#include "tex_internal.h"

typedef struct tex_doc {
    doc_map m;               /* the document, and the PGN text made from it */
    const char *doc;         /* m.doc */
    tex_token_at *tok;
    size_t ntok;
    char code_macros[8][32]; /* macros the document defines to show code */
    size_t ncode;
    bool oom;
} tex_doc;

/* Read all of in and tokenise it. False on a read error (m.error) or out of memory. */
bool tex_doc_load(tex_doc *d, FILE *in);
void tex_doc_free(tex_doc *d);

/* The tokens of the '%' comment at token ci ("% \mainline{...}") as a document of their
 * own, offsets still in the whole document; free with tex_doc_view_free. False when
 * out of memory. */
bool tex_doc_comment_view(const tex_doc *d, size_t ci, tex_doc *view);
void tex_doc_view_free(tex_doc *view);

/* ------------------------------------------------------------------ tokens */

/* Whether token i is the command cmd ("\\mainline"). */
bool tex_tok_is(const tex_doc *d, size_t i, const char *cmd);
/* The first token from i that is no space or comment. */
size_t tex_skip_space(const tex_doc *d, size_t i);
/* The closer of the group ('{' or '[') opened at token i, or the end. Braces nest
 * inside brackets and brackets inside brackets. */
size_t tex_group_end(const tex_doc *d, size_t i);

/* Arguments after a command: an optional [..] (tokens ob..oe exclusive) and a braced
 * one (ab..ae exclusive). */
typedef struct tex_args {
    bool has_opt, has_arg;
    size_t ob, oe, ab, ae;
} tex_args;

/* The arguments after the command at i (the braced one only when want_arg); the index
 * after them. */
size_t tex_read_args(const tex_doc *d, size_t i, bool want_arg, tex_args *a);
/* The n braced arguments after token i as malloc'd strings (NULL when missing); the
 * index after them. */
size_t tex_brace_args(tex_doc *d, size_t i, int n, char **out);
/* Whether tokens b..e (exclusive) are the one word given. */
bool tex_group_text_is(const tex_doc *d, size_t b, size_t e, const char *word);
/* The document bytes of tokens b..e (exclusive), comments left out, malloc'd. */
char *tex_text_of(tex_doc *d, size_t b, size_t e);

/* "key=value, key={v,w}" (s is cut up in place): fn for each pair, braces around a
 * value taken off. */
typedef void (*tex_key_fn)(const char *key, const char *value, void *ctx);
void tex_each_key(char *s, tex_key_fn fn, void *ctx);

/* ------------------------------------------------------------------ command families */

/* \newgame, \newchessgame, \resumechessgame, \fenboard, \restoregame, \loadgame. */
bool tex_starts_game(const tex_doc *d, size_t k);
/* \mainline, \hidemoves and their starred forms. */
bool tex_is_mainline(const tex_doc *d, size_t k);
/* \begin{setcchessman} or setcchessman*, its [options] read past (a->ae is then the
 * last token of the command). */
bool tex_begins_cchess(tex_doc *d, size_t i, tex_args *a);
/* chessfss's piece macro at token i ("\symknight", "\king"): its letter, or 0. */
char tex_sym_piece(const tex_doc *d, size_t i);

/* A piece macro in prose and the square after it ("12...\symknight xe4"). */
typedef struct tex_sym_move {
    char move[24];           /* the move in English letters: "Nxe4" */
    size_t last;             /* the token of its square */
    uint64_t square_off;     /* the square's text as written */
    int square_len;
    int num;                 /* the number written right before the macro, 0 when none */
    int side;                /* -1: no number; 0: "12."; 1: "12..." */
} tex_sym_move;

/* The move a piece macro at token i writes; false when none follows. */
bool tex_sym_move_at(const tex_doc *d, size_t i, tex_sym_move *out);

/* ------------------------------------------------------------------ code */

/* The token after the code that starts at command i (verbatim environments, \verb,
 * \mintinline, \lstinline, and the document's own macros around them), or i when it
 * is no code. */
size_t tex_skip_code(tex_doc *d, size_t i);
/* "\newcommand{\mi}[1]{\mintinline{latex}{#1}}" at command i: \mi shows code too. */
void tex_note_code_macro(tex_doc *d, size_t i);

/* ------------------------------------------------------------------ move arguments */

/* What a move argument says besides its moves; a NULL hook drops it. */
typedef struct tex_move_sink {
    const char *letters;     /* K Q R B N P in the input language */
    void (*result)(void *ctx, const char *text, size_t n);              /* "1-0" */
    void (*not_a_move)(void *ctx, uint64_t off, const char *text, size_t n);
    void *ctx;
} tex_move_sink;

/* Tokens b..e of a \mainline/\variation argument into items (moves in English
 * letters). */
void tex_read_moves(tex_doc *d, size_t b, size_t e, move_run *s, const tex_move_sink *sink);
/* \movecomment's argument: moves up to the first word that is none (a comment, or a
 * deeper variation in parentheses, as pgn2ltx writes them). */
void tex_trim_to_moves(move_run *q);

/* A move's text between the input language's letters and English ones. */
void tex_translate(const char *letters, char *m);
void tex_untranslate(const char *letters, char *m);

/* A square "e4" at t; a chess.sty coordinate move "e2e4" or "e2-e4" of n bytes. */
bool tex_is_square(const char *t);
bool tex_coordinate_move(const char *t, size_t n);

#endif
