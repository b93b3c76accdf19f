/* test_tex_reader.c: the LaTeX scanner (tokens, comments, nesting) and the reader's
 * commands (main lines over prose, skak's rollback, xskak's inferred starts, letter
 * sets, NAGs, comments, game commands), from strings. */
#include <config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "io/article.h"
#include "reader/reader.h"
#include "referee/referee.h"
#include "tex_internal.h"
#include "document/document.h"

#define MAX_GAMES 8

typedef struct parsed {
    arena a[MAX_GAMES];
    rec_game g[MAX_GAMES];
    int n;
    char trace[2048];
} parsed;

/* Read and replay every game of a document; the trace of its move commands kept. */
static void parse(parsed *p, const char *doc)
{
    memset(p, 0, sizeof *p);
    FILE *f = fmemopen((void *)doc, strlen(doc), "rb");
    FILE *t = fmemopen(p->trace, sizeof p->trace - 1, "w");
    assert_non_null(f);
    assert_non_null(t);
    doc_reader *r = doc_reader_open(f, "mem.tex", DOC_LATEX);
    assert_non_null(r);
    doc_reader_trace(r, t);
    referee_options opts = REFEREE_OPTIONS_DEFAULT;
    for (;;) {
        assert_true(p->n < MAX_GAMES);
        arena_init(&p->a[p->n]);
        int rc = doc_reader_next(r, &p->g[p->n], &p->a[p->n]);
        if (rc != 1) {
            assert_int_equal(rc, 0);
            arena_free(&p->a[p->n]);
            break;
        }
        if (p->g[p->n].kind == REC_XIANGQI)
            referee_xiangqi_game(&p->g[p->n], &opts);
        else
            referee_chess_game(&p->g[p->n], &opts);
        rec_game_sort_findings(&p->g[p->n]);
        p->n++;
    }
    doc_reader_close(r);
    fclose(f);
    fclose(t);
}

static void release(parsed *p)
{
    for (int i = 0; i < p->n; i++)
        arena_free(&p->a[i]);
}

static const rec_finding *find(const rec_game *g, const char *code)
{
    for (const rec_finding *f = g->findings; f; f = f->next)
        if (strcmp(f->code, code) == 0)
            return f;
    return NULL;
}

static void test_tokens(void **state)
{
    (void)state;
    const char *doc = "\\mainline*{1.e4} % x {\n\\%a[b]";
    size_t n;
    tex_token_at *t = tex_tokenize(doc, strlen(doc), &n);
    assert_non_null(t);
    int kinds[] = {TEX_TOK_CMD,   TEX_TOK_LBRACE, TEX_TOK_TEXT,   TEX_TOK_RBRACE,
                   TEX_TOK_SPACE, TEX_TOK_COMMENT, TEX_TOK_SPACE, TEX_TOK_TEXT,
                   TEX_TOK_TEXT,  TEX_TOK_LBRACK, TEX_TOK_TEXT,   TEX_TOK_RBRACK, TEX_TOK_END};
    assert_int_equal(n, sizeof kinds / sizeof kinds[0]);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(t[i].kind, kinds[i]);
    assert_int_equal(t[0].len, 10);     /* the star belongs to the command */
    assert_int_equal(t[5].off, 17);     /* the comment, its brace not a group */
    assert_int_equal(t[5].len, 5);
    free(t);
}

static void test_mainline_over_prose(void **state)
{
    (void)state;
    parsed p;
    parse(&p, "\\newgame\nText \\mainline{1. e4 e5} more text,\n"
              "% \\mainline{2. Qh5} commented out\n"
              "and \\mainline{2.Nf3 Nc6 3.Bb5}.\n");
    assert_int_equal(p.n, 1);
    assert_int_equal(p.g[0].plies, 5);
    assert_int_equal(p.g[0].error_count, 0);
    /* the third main-line move is on line 4, at its text */
    const rec_node *n = p.g[0].main.first->next->next;
    assert_string_equal(n->text, "Nf3");
    assert_int_equal(n->where.line, 4);
    assert_int_equal(n->where.column, 17);
    assert_int_equal(n->where.offset, strlen("\\newgame\nText \\mainline{1. e4 e5} more text,\n"
                                              "% \\mainline{2. Qh5} commented out\n") + 16);
    release(&p);
}

static void test_skak_rollback(void **state)
{
    (void)state;
    parsed p;
    parse(&p, "\\usepackage{skak}\\newgame\\mainline{1. e4 e5 2. Nf3}"
              "\\variation{2. Nc3 Nf6 3. Nc3}\\variation{2... Nc6}");
    assert_int_equal(p.n, 1);
    /* the first variation is an alternative to 2. Nf3, with its illegal third move */
    const rec_node *nf3 = p.g[0].main.first->next->next;
    assert_non_null(nf3->variations);
    const rec_finding *f = find(&p.g[0], "illegal-move");
    assert_non_null(f);
    assert_int_equal(f->where.column, (int)strlen("\\usepackage{skak}\\newgame\\mainline{1. e4 e5 "
                                                  "2. Nf3}\\variation{2. Nc3 Nf6 3. ") + 1);
    /* the second starts with Black's move where skak rolls back to White's */
    f = find(&p.g[0], "variation-start");
    assert_non_null(f);
    assert_int_equal(f->severity, REC_ERROR);
    release(&p);
}

static void test_xskak_inference(void **state)
{
    (void)state;
    parsed p;
    parse(&p, "\\mainline{1. e4 e5 2. Nf3 Nc6 3. Bb5}\n"
              "\\variation{3... a6}\n"         /* the current position: its own game */
              "\\variation{4. Ba4 Nf6}\n"      /* the end of the last variation */
              "\\variation{2... d6}\n"         /* the main line, newest first */
              "\\variation{27... axb2}\n");    /* a threat: nowhere */
    assert_int_equal(p.n, 3);
    assert_non_null(p.g[0].main.first->next->next->next->variations);  /* 2... d6 */
    assert_non_null(find(&p.g[0], "variation-unplaced"));
    assert_int_equal(p.g[0].error_count, 0);
    assert_string_equal(rec_game_tag(&p.g[1], "FEN"),
                        "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3");
    assert_int_equal(p.g[2].plies, 2);
    assert_non_null(strstr(p.trace, "2:1 \\variation own-game"));
    assert_non_null(strstr(p.trace, "5:1 \\variation unplaced"));
    release(&p);
}

static void test_letters_nags_comments(void **state)
{
    (void)state;
    parsed p;
    parse(&p, "\\newskaklanguage{it}{RDTACP}\\skaklanguage[german]"
              "\\mainline{1. e4 e5 2. Sf3 $1 \\xskakcomment{ {\\bfseries good} } Sc6 3. Lb5 "
              "\\wbetter}\\skaklanguage[it]\\mainline{3... Cf6 4. Dxe5}");
    assert_int_equal(p.n, 1);
    assert_int_equal(p.g[0].error_count, 1);   /* 4. Qxe5: no queen gets there */
    const rec_node *n = p.g[0].main.first->next->next;
    assert_string_equal(n->text, "Nf3");
    assert_int_equal(n->nag_count, 1);
    assert_int_equal(n->nags[0], 1);
    assert_non_null(n->comments);
    assert_string_equal(n->comments->text, "good");
    assert_int_equal(n->next->next->nags[0], 14);
    assert_string_equal(n->next->next->next->text, "Nf6");
    release(&p);
}

static void test_game_commands(void **state)
{
    (void)state;
    parsed p;
    parse(&p, "\\newchessgame[id=a, white=X]\\mainline{1. d4 d5 2. c4}\n"
              "\\newchessgame[setfen=4k3/8/8/8/8/8/4P3/4K3 w - - 0 1, moveid=30w]"
              "\\mainline{30. e4 Kd7}\\chessboard[setfen=8/3k4/8/8/8/4P3/8/4K3 w - - 0 31]\n"
              "\\resumechessgame[id=a]\\mainline{2... e6}\n"
              "\\newchessgame[newvar=a]\\mainline{2... c6}\n");
    assert_int_equal(p.n, 3);
    assert_string_equal(rec_game_tag(&p.g[0], "White"), "X");
    assert_int_equal(p.g[0].plies, 4);
    assert_int_equal(p.g[1].plies, 2);
    const rec_finding *f = find(&p.g[1], "diagram-mismatch");
    assert_non_null(f);
    assert_int_equal(f->where.line, 2);
    assert_null(p.g[1].result);
    /* newvar: the position before the last move of a (2... e6) */
    assert_string_equal(rec_game_tag(&p.g[2], "FEN"),
                        "rnbqkbnr/ppp1pppp/8/3p4/2PP4/8/PP2PPPP/RNBQKBNR b KQkq c3 0 2");
    assert_int_equal(p.g[2].error_count, 0);
    release(&p);
}

static void test_print_moves(void **state)
{
    (void)state;
    parsed p;
    parse(&p, "\\newgame\\mainline{1. e4 e5 2. Nf3}\n"
              "\\bmove{Nc6} or \\wmove{Bb5}, never \\wmove{Ke3}.\n");
    assert_int_equal(p.n, 1);
    const rec_finding *f = find(&p.g[0], "print-move");
    assert_non_null(f);
    assert_int_equal(f->where.line, 2);
    assert_int_equal(f->where.column, 42);   /* at the move */
    assert_null(f->next);
    release(&p);
}

static void test_go_on_with_fix(void **state)
{
    (void)state;
    parsed p;
    /* Rf1 for Re1: only Re1 lets the rest (in a later \mainline too) replay */
    parse(&p, "\\newchessgame\\mainline{1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7}\n"
              "\\mainline{6. Rf1 b5 7. Bb3 d6}\\variation{7... O-O 8. c3 d5}\n"
              "\\mainline{8. c3 O-O 9. h3}\n");
    assert_int_equal(p.n, 1);
    assert_int_equal(p.g[0].plies, 17);   /* the whole game replays */
    assert_int_equal(p.g[0].error_count, 1);
    const rec_finding *f = find(&p.g[0], "illegal-move");
    assert_non_null(f);
    assert_non_null(strstr(f->message, "the game goes on with Re1"));
    assert_int_equal(f->where.line, 2);
    assert_int_equal(f->where.column, 14);
    assert_string_equal(f->move_text, "Rf1");
    assert_true(f->fix_certain);
    assert_non_null(f->fix);
    assert_string_equal(f->fix->before, "Rf1");
    assert_string_equal(f->fix->text, "Re1");
    assert_int_equal(f->fix->length, 3);
    /* the variation after the repaired move is placed */
    assert_non_null(strstr(p.trace, "\\variation placed"));
    release(&p);
    /* in the book's letters */
    parse(&p, "\\skaklanguage[german]\\newchessgame\\mainline{1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 "
              "4. La4 Sf6 5. O-O Le7 6. Tf1 b5 7. Lb3 d6 8. c3 O-O 9. h3}");
    f = find(&p.g[0], "illegal-move");
    assert_non_null(f);
    assert_string_equal(f->fix->before, "Tf1");
    assert_string_equal(f->fix->text, "Te1");
    assert_string_equal(f->suggestions[0], "Te1");
    release(&p);
}

static void test_print_only_and_coordinates(void **state)
{
    (void)state;
    parsed p;
    parse(&p, "\\newchessgame\\mainline{1. e4 e5 2. Nf3 Nc6 3. Bb5}\n"
              "\\movecomment{3. Bc4 Bc5 (3... Nf6) a quiet game}\\mainline{3... a6}\n"
              "\\newgame\\move e2e4 e7e5 \\move g1f3 b8c6 \\ply f1c4 \\ply f8e5\n");
    assert_int_equal(p.n, 2);
    /* \movecomment: an alternative to 3. Bb5, up to its first word that is no move */
    const rec_node *bb5 = p.g[0].main.first->next->next->next->next;
    assert_string_equal(bb5->text, "Bb5");
    assert_non_null(bb5->variations);
    assert_int_equal(p.g[0].error_count, 0);
    /* chess.sty: coordinates on the main line; f8e5 is blocked by the pawn */
    assert_int_equal(p.g[1].plies, 5);
    const rec_finding *f = find(&p.g[1], "illegal-move");
    assert_non_null(f);
    assert_int_equal(f->where.line, 3);
    assert_int_equal(f->where.column, 56);
    release(&p);
}

static void test_piece_macros_in_prose(void **state)
{
    (void)state;
    parsed p;
    parse(&p, "\\newgame\\mainline{1. e4 e5 2. Nf3 Nc6}\n"
              "After 3.\\symbishop b5 and \\symknight{}f6, but never 2...\\symqueen a5.\n");
    assert_int_equal(p.n, 1);
    assert_non_null(strstr(p.trace, "2:9 \\symbishop prose"));
    assert_non_null(strstr(p.trace, "2:27 \\symknight prose"));
    const rec_finding *f = find(&p.g[0], "prose-unplaced");
    assert_non_null(f);   /* 2...Qa5: the c7 pawn is in the way */
    assert_int_equal(f->severity, REC_INFO);
    assert_int_equal(f->where.column, 57);
    assert_null(f->next);
    release(&p);
}

static void test_comment_lines(void **state)
{
    (void)state;
    parsed p;
    parse(&p, "\\newgame\\mainline{1. e4 e5 2. Nf3 Nc6 3. Bb5 a6}\n"
              "% \\variation{3... Nf6 4. O-O Nxe4}\n"
              "%\\mainline{4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. Nd5}\n"
              "% \\variation{30. Qh5}\n");
    assert_int_equal(p.n, 1);
    assert_int_equal(p.g[0].error_count, 0);   /* a comment is no error of the game */
    assert_non_null(strstr(p.trace, "2:3 \\variation comment\n"));
    const rec_finding *f = NULL, *info = NULL;
    for (const rec_finding *x = p.g[0].findings; x; x = x->next)
        if (strcmp(x->code, "comment-line") == 0) {
            if (x->severity == REC_WARNING)
                f = x;
            else if (x->severity == REC_INFO)
                info = x;
        }
    assert_non_null(f);
    assert_int_equal(f->where.line, 3);
    assert_int_equal(f->where.column, 78);
    assert_string_equal(f->move_text, "Nd5");
    assert_true(f->suggestion_count > 0);
    f = info;   /* move 30: nowhere */
    assert_non_null(f);
    assert_int_equal(f->where.line, 4);
    release(&p);
}

static void test_code_is_not_played(void **state)
{
    (void)state;
    parsed p;
    parse(&p, "\\newcommand{\\mi}[1]{\\mintinline{latex}{#1}}\n"
              "\\mi{\\mainline{PGN}} \\verb|\\mainline{1. e4}|\n"
              "\\begin{minted}{latex}\n\\mainline{1. d4 d5}\n\\end{minted}\n"
              "\\begin{verbatim}\\mainline{1. c4}\\end{verbatim}\n"
              "\\newgame\\mainline{1.e4 e5 2.Nf3, Ke7??}\n"
              "\\chessboard[setfen=\\xskakget{nextfen}]\n");
    assert_int_equal(p.n, 1);
    assert_int_equal(p.g[0].plies, 4);
    assert_null(p.g[0].findings);
    assert_non_null(strstr(p.trace, "2:5 \\mainline code"));
    assert_non_null(strstr(p.trace, "4:1 \\mainline code"));
    release(&p);
}

static void test_chinesechess(void **state)
{
    (void)state;
    parsed p;
    parse(&p, "\\begin{setcchessman}[boardtype=x+tn]\n"
              "\\init{ {{4,0}{K}}, {{2,2}{p}}, {{1,7}{C}}, {{3,9}{k}} }\\set{8,g}{h}\n"
              "\\mov{C}{b,h}{b,b} \\mov{p}{2,2}{3,2} \\mov{R}{b,b}{e,b}\n"
              "\\end{setcchessman}\n");
    assert_int_equal(p.n, 1);
    assert_int_equal(p.g[0].kind, REC_XIANGQI);
    /* letters and digits name the same squares as ICCS; E and H are B and N in FEN */
    assert_string_equal(rec_game_tag(&p.g[0], "FEN"), "3k5/9/1C7/8n/9/9/9/2p6/9/4K4 w - - 0 1");
    assert_string_equal(p.g[0].main.first->text, "b7b1");
    assert_int_equal(p.g[0].plies, 3);
    const rec_finding *f = find(&p.g[0], "wrong-piece");   /* a cannon, not a rook */
    assert_non_null(f);
    assert_int_equal(f->where.line, 3);
    assert_int_equal(f->where.column, 37);
    assert_non_null(strstr(p.trace, "1:1 \\begin xiangqi"));
    release(&p);
}

static void test_sniff(void **state)
{
    (void)state;
    const char *a = "\\documentclass{book}\n\\usepackage{xskak}\n";
    const char *b = "Some text \\mainline{1. e4}";
    assert_int_equal(reader_sniff(a, strlen(a), NULL), INPUT_TEX);
    assert_int_equal(reader_sniff(b, strlen(b), NULL), INPUT_TEX);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tokens),
        cmocka_unit_test(test_mainline_over_prose),
        cmocka_unit_test(test_skak_rollback),
        cmocka_unit_test(test_xskak_inference),
        cmocka_unit_test(test_letters_nags_comments),
        cmocka_unit_test(test_game_commands),
        cmocka_unit_test(test_print_moves),
        cmocka_unit_test(test_go_on_with_fix),
        cmocka_unit_test(test_print_only_and_coordinates),
        cmocka_unit_test(test_piece_macros_in_prose),
        cmocka_unit_test(test_comment_lines),
        cmocka_unit_test(test_code_is_not_played),
        cmocka_unit_test(test_chinesechess),
        cmocka_unit_test(test_sniff),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
