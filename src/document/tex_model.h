/* tex_model.h: the games of a LaTeX document as its packages build them, shared by
 * the files of the LaTeX document layer (tex_document.c: commands and games;
 * tex_place.c: main lines, variations, prose and commented-out moves; tex_cchess.c:
 * chinesechess). Nothing outside src/document/ sees it. */
#ifndef ARBITER_DOCUMENT_TEX_MODEL_H
#define ARBITER_DOCUMENT_TEX_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "doc_play.h"
#include "tex_reader.h"

typedef struct tex_var {
    move_run seq;
    uint64_t cmd_off;
    int where;               /* >= 0: alternative to main-line ply where+1; -1: own game;
                              * -2: not placed */
    long main_ply;           /* the start is the main line after that many plies, or -1 */
    size_t tok;              /* the command's token */
    doc_pos start;
    doc_pos *pos;            /* positions after each replayed move */
    size_t npos;
    bool full;               /* every move replayed */
} tex_var;

typedef struct tex_tag {
    char name[16];
    char *value;
} tex_tag;

typedef struct tex_game {
    char *id;
    uint64_t cmd_off;
    doc_pos start;
    bool custom_start;       /* write SetUp/FEN */
    char *bad_fen;           /* a FEN that cannot be read at all: written as the game's
                              * FEN so that the referee says the moves are not checked */
    tex_tag *tags;
    size_t ntags;
    move_run main;
    size_t main_moves;       /* move items in main */
    doc_pos *pos;            /* pos[k]: after k plies; pos[0] = start */
    size_t npos, cappos;     /* npos - 1 plies replayed */
    bool broken;             /* the main line stopped at a move */
    tex_var *vars;
    size_t nvars;
    doc_findings finds;      /* a repair's candidates are in the document's letters */
    char *result;
    char letters[7];         /* the input language of its last \mainline */
    uint64_t main_off;       /* where its last main-line command is */
    bool xiangqi;            /* a chinesechess setcchessman game: ICCS moves from xq_fen */
    char xq_fen[100];
    /* "%FEN@" diagrams waiting for the end of the game */
    struct { char *fen; uint64_t off; } *diagrams;
    size_t ndiagrams;
    doc_pos shown;           /* the last diagram the text shows (\chessboard[setfen=],
                              * "%FEN@"): a place a variation may start from */
    bool has_shown;
} tex_game;

typedef struct snapshot {
    char *name;
    doc_pos at;
} snapshot;

/* One game handed out: a main game, or a variation of it written as its own game. */
typedef struct output {
    size_t game;
    long var;                /* -1: the game itself */
} output;

/* A move command's argument in the document, to name it in findings. */
typedef struct tex_call {
    uint64_t from, to;
    size_t tok;
} tex_call;

typedef struct tex_document {
    tex_doc d;               /* the document, its tokens, the PGN text of a game; d.oom */
    tex_call *calls;         /* in document order */
    size_t ncalls, callcap;
    FILE *in;
    const char *name;
    char error[256];
    FILE *trace;
    bool loaded;
    bool skak;               /* \usepackage{skak} without xskak: skak's variation rule */
    bool xq;                 /* a xiangqi package: \move is not chess.sty's */
    char letters[7];         /* K Q R B N P in the input language */
    struct { char name[32]; char letters[7]; } langs[16];
    size_t nlangs;
    tex_game *games;
    size_t ngames;
    long cur;                /* current game, -1 before any */
    snapshot *snaps;
    size_t nsnaps;
    output *outs;
    size_t nouts, next_out;
} tex_document;

/* A finding of the document layer on game g (out of memory noted in r). */
#define tex_add_finding(r, g, ...)                                                        \
    do {                                                                                  \
        if (!doc_findings_add(&(g)->finds, __VA_ARGS__))                                  \
            (r)->d.oom = true;                                                            \
    } while (0)

/* tex_document.c */
tex_game *tex_cur_game(tex_document *r);
tex_game *tex_new_game(tex_document *r, uint64_t off, const doc_pos *start, bool custom);
tex_game *tex_game_for_moves(tex_document *r, uint64_t off);
const doc_pos *tex_game_end(const tex_game *g);
/* One line of the trace: the command at token cmd_tok of view (the document or a
 * comment's view) and how it was taken. */
void tex_trace(tex_document *r, const tex_doc *view, uint64_t off, size_t cmd_tok,
               const char *how);
/* Remember the command at token i spans from..to, to name it in findings. */
void tex_note_call(tex_document *r, uint64_t from, uint64_t to, size_t i);
/* Tokens b..e of view into s, moves in the document's letters; g gets the argument's
 * result and syntax findings (NULL: a look-ahead or a comment, they are dropped). */
void tex_moves(tex_document *r, tex_doc *view, tex_game *g, move_run *s, size_t b, size_t e);

/* tex_place.c */
void tex_cmd_mainline(tex_document *r, size_t i, const tex_args *a);
size_t tex_cmd_coordinate(tex_document *r, size_t i, int plies);
void tex_cmd_variation(tex_document *r, size_t i, const tex_args *a, bool print_only);
void tex_cmd_print_move(tex_document *r, size_t i, const tex_args *a, bool white);
size_t tex_cmd_sym_prose(tex_document *r, size_t i);
void tex_comment_line(tex_document *r, size_t ci);

/* tex_cchess.c */
size_t tex_cmd_cchess(tex_document *r, size_t i, size_t body);

#endif
