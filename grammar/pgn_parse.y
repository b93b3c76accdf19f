/* pgn_parse.y: the PGN grammar, one game per call.
 *
 * A pure pull parser over the reentrant scanner in pgn_scan.l. Each call of pgn_parse
 * reads exactly one game and returns after its termination marker (a result, or the
 * scanner's synthetic GAME_END before the next game's tag section or at end of input),
 * without taking a lookahead token from the next game: the last states reduce by
 * default and the start rule accepts in its action.
 *
 * The movetext is flat on purpose. '(' and ')' are ordinary items; the tree builder
 * (pgn_reader.c) keeps the variation stack in the game's arena, so nesting depth costs
 * neither C stack nor parser stack. Every token sequence is a sentence of this grammar:
 * what does not belong (a stray ']', a string in the movetext, unknown characters) is
 * reported by the builder as a finding with its position and the parse goes on, so one
 * bad token never costs the rest of the game. Because the list is flat, the scanner
 * hands most movetext items and plain tag pairs to the builder itself (pgn_scan.l, item)
 * and returns only the other tags, results, the game's end and the items that follow a
 * tag name or value: the `items` and `tag` rules below are what it does in their place. */

%code top {
#include <config.h>
#include "i18n/i18n.h"
}

%code requires {
#include <stdint.h>

#include "record/record.h"

#ifndef YY_TYPEDEF_YY_SCANNER_T
#define YY_TYPEDEF_YY_SCANNER_T
typedef void *yyscan_t;
#endif

typedef struct pgn_reader pgn_reader;

/* The value of every token: text in the game's arena (s, len), a number (num), and
 * PGN_F_* flags. A whole tag pair (TAG_PAIR) has its name in s and its value in v. */
typedef struct pgn_tok {
    const char *s;
    uint32_t len;
    uint32_t num;
    uint32_t flags;
    uint32_t vlen;
    uint32_t vflags;
    const char *v;
} pgn_tok;
}

%code provides {
#define YY_DECL int pgn_lex(PGN_STYPE *yylval_param, PGN_LTYPE *yylloc_param, yyscan_t yyscanner)
YY_DECL;
}

%code {
#include <stdio.h>
#include <string.h>

#include "pgn_internal.h"

/* Locations are rec_span (a start point): a rule starts where its first symbol does. */
#define YYLLOC_DEFAULT(Cur, Rhs, N)                     \
    do {                                                \
        if (N)                                          \
            (Cur) = YYRHSLOC(Rhs, 1);                   \
        else                                            \
            (Cur) = YYRHSLOC(Rhs, 0);                   \
    } while (0)

static void pgn_error(const rec_span *loc, yyscan_t scanner, pgn_reader *r, const char *msg);
}

%define api.pure full
%define api.prefix {pgn_}
%define api.token.prefix {TOK_}
%define api.token.raw
%define api.value.type {pgn_tok}
%define api.location.type {rec_span}
%define parse.error custom
%locations
%param {yyscan_t scanner}
%parse-param {pgn_reader *r}
%expect 0

%token END 0 _("end of input")
%token TAG_NAME _("tag name")
%token TAG_PAIR _("tag pair")
%token STRING _("tag value")
%token TAG_CLOSE "]"
%token MOVE _("move")
%token MOVE_NUMBER _("move number")
%token DOTS "..."
%token NAG "NAG"
%token EP "e.p."
%token COMMENT _("comment")
%token LPAREN "("
%token RPAREN ")"
%token INNER_RESULT _("result inside a variation")
%token JUNK _("unexpected text")
%token RESULT _("result")
%token GAME_END _("next game")

%%

input:
    %empty                  { r->done = true; }
  | game                    { YYACCEPT; }
  ;

game:
    items RESULT            { pgn_b_result(r, &$2, &@2); }
  | items GAME_END          { pgn_b_end(r, &@2); }
  ;

/* One reduction per token: each item is reduced straight into the list. */
items:
    %empty
  | items tag
  | items MOVE              { pgn_b_move(r, &$2, &@2); }
  | items MOVE_NUMBER       { pgn_b_number(r, &$2, &@2); }
  | items DOTS              { pgn_b_dots(r, &$2, &@2); }
  | items NAG               { pgn_b_nag(r, &$2, &@2); }
  | items EP                { pgn_b_ep(r, &@2); }
  | items COMMENT           { pgn_b_comment(r, &$2, &@2); }
  | items LPAREN            { pgn_b_open(r, &@2); }
  | items RPAREN            { pgn_b_close(r, &@2); }
  | items INNER_RESULT      { pgn_b_inner_result(r, &$2, &@2); }
  | items JUNK              { pgn_b_junk(r, &$2, &@2); }
  ;

/* TAG_PAIR: the scanner read a plain tag line `[Name "value"]` in one match (the usual
 * case; like a movetext item it goes to the builder from the scanner, and comes here
 * only after a tag name or value); anything else about a tag comes in pieces. */
tag:
    TAG_PAIR                    { pgn_tok v = {.s = $1.v, .len = $1.vlen, .flags = $1.vflags};
                                  pgn_b_tag(r, &$1, &v, true, &@1); }
  | TAG_NAME STRING TAG_CLOSE   { pgn_b_tag(r, &$1, &$2, true, &@1); }
  | TAG_NAME STRING             { pgn_b_tag(r, &$1, &$2, false, &@1); }
  | TAG_NAME TAG_CLOSE          { pgn_b_tag(r, &$1, NULL, true, &@1); }
  | TAG_NAME                    { pgn_b_tag(r, &$1, NULL, false, &@1); }
  ;

%%

/* The grammar accepts every token sequence, so this runs only if the scanner and the
 * grammar ever disagree; it still reports in our words, at the token's position. */
static int yyreport_syntax_error(const yypcontext_t *ctx, yyscan_t scanner, pgn_reader *r)
{
    (void)scanner;
    char expected[256] = "";
    yysymbol_kind_t kinds[8];
    int n = yypcontext_expected_tokens(ctx, kinds, 8);
    for (int i = 0; i < n && i < 8; i++) {
        size_t used = strlen(expected);
        snprintf(expected + used, sizeof expected - used, "%s%s", i ? ", " : "",
                 yysymbol_name(kinds[i]));
    }
    yysymbol_kind_t tok = yypcontext_token(ctx);
    pgn_syntax_error(r, yypcontext_location(ctx), _("unexpected %s%s%s"),
                     tok == YYSYMBOL_YYEMPTY ? _("token") : yysymbol_name(tok),
                     n > 0 ? _(", expecting ") : "", expected);
    return 0;
}

/* Bison's own failures (its stack cannot grow: it never needs to with this grammar). */
static void pgn_error(const rec_span *loc, yyscan_t scanner, pgn_reader *r, const char *msg)
{
    (void)scanner;
    pgn_syntax_error(r, loc, "%s", msg);
}
