/* wxf_parse.y: the WXF grammar, one record per call.
 *
 * A pure pull parser over the reentrant scanner in wxf_scan.l. Each call reads exactly
 * one record and returns at the scanner's synthetic RECORD_END (a FORMAT line that
 * starts the next record, a header line after "}END", the end of an article block, or
 * the end of input) without taking a lookahead from the next record.
 *
 * The record is a flat list of items on purpose: WXF in the wild puts headers, setup,
 * comments and diagram markers in many orders, so the tree builder (wxf_reader.c)
 * tracks the phase (header, move block, after "}END") and reports anything out of
 * place as a finding with its position. Every token sequence is a sentence, so one bad
 * token never costs the rest of the record. */

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

typedef struct wxf_reader wxf_reader;

/* The value of every token: text in the game's arena (s, len), a second text (key:
 * the header key of a HEADER token), a number (num) and WXF_F_* flags. */
typedef struct wxf_tok {
    const char *s;
    const char *key;
    uint32_t len;
    uint32_t num;
    uint32_t flags;
} wxf_tok;
}

%code provides {
#define YY_DECL int wxf_lex(WXF_STYPE *yylval_param, WXF_LTYPE *yylloc_param, yyscan_t yyscanner)
YY_DECL;
}

%code {
#include <stdio.h>
#include <string.h>

#include "wxf_internal.h"

/* Locations are rec_span (a start point): a rule starts where its first symbol does. */
#define YYLLOC_DEFAULT(Cur, Rhs, N)                     \
    do {                                                \
        if (N)                                          \
            (Cur) = YYRHSLOC(Rhs, 1);                   \
        else                                            \
            (Cur) = YYRHSLOC(Rhs, 0);                   \
    } while (0)

static void wxf_error(const rec_span *loc, yyscan_t scanner, wxf_reader *r, const char *msg);
}

%define api.pure full
%define api.prefix {wxf_}
%define api.token.prefix {TOK_}
%define api.token.raw
%define api.value.type {wxf_tok}
%define api.location.type {rec_span}
%define parse.error custom
%locations
%param {yyscan_t scanner}
%parse-param {wxf_reader *r}
%expect 0

%token END 0 _("end of input")
%token HEADER _("header line")
%token SETUP _("SETUP{ block")
%token START "START{"
%token BLOCK_END "}END"
%token MOVE_NUMBER _("move number")
%token DOTS "..."
%token MOVE _("move")
%token NAG _("annotation")
%token COMMENT _("comment")
%token DIAG _("DIAG{ marker")
%token RESULT _("result")
%token JUNK _("unexpected text")
%token RECORD_END _("next record")

%%

input:
    %empty                  { r->done = true; }
  | record                  { YYACCEPT; }
  ;

record:
    items RECORD_END        { wxf_b_end(r, &@2); }
  ;

/* One reduction per token: each item is reduced straight into the list. */
items:
    %empty
  | items HEADER            { wxf_b_header(r, &$2, &@2); }
  | items SETUP             { wxf_b_setup(r, &$2, &@2); }
  | items START             { wxf_b_start(r, &@2); }
  | items BLOCK_END         { wxf_b_block_end(r, &@2); }
  | items MOVE_NUMBER       { wxf_b_number(r, &$2, &@2); }
  | items DOTS              { wxf_b_dots(r, &@2); }
  | items MOVE              { wxf_b_move(r, &$2, &@2); }
  | items NAG               { wxf_b_nag(r, &$2, &@2); }
  | items COMMENT           { wxf_b_comment(r, &$2, &@2); }
  | items DIAG              { wxf_b_diag(r, &$2, &@2); }
  | items RESULT            { wxf_b_result(r, &$2, &@2); }
  | items JUNK              { wxf_b_junk(r, &$2, &@2); }
  ;

%%

/* The grammar accepts every token sequence, so this runs only if the scanner and the
 * grammar ever disagree; it still reports in our words, at the token's position. */
static int yyreport_syntax_error(const yypcontext_t *ctx, yyscan_t scanner, wxf_reader *r)
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
    wxf_syntax_error(r, yypcontext_location(ctx), _("unexpected %s%s%s"),
                     tok == YYSYMBOL_YYEMPTY ? _("token") : yysymbol_name(tok),
                     n > 0 ? _(", expecting ") : "", expected);
    return 0;
}

static void wxf_error(const rec_span *loc, yyscan_t scanner, wxf_reader *r, const char *msg)
{
    (void)scanner;
    wxf_syntax_error(r, loc, "%s", msg);
}
