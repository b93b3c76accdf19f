/* wxf_writer.h: xiangqi games as canonical WXF records.
 *
 * The form written (the documented choices; ../shared/reference/xiangqi-formats-and-
 * notation.md §1 describes the format and its dialects):
 *
 *   FORMAT  WXF                 first; "WXF" for the wxf and vi notations (the project's
 *                               Vietnamese source writes Vietnamese moves under WXF), the
 *                               referee's Format name otherwise (ICCS, UCCI, Chinese,
 *                               FSF-UCI, WinBoard-SAN, FSF-SAN), so that the notation
 *                               reads back the same
 *   GAME    ...                 then these keys, in this order, each only when it has a
 *   RED     ...                 value: GAME, RED, BLACK, DATE, PLACE, ROUND, RESULT,
 *   ...                         EVENT, FEN. Each takes the WXF key of the record, else
 *                               the PGN tag that means the same (Red, Black, Date, Site,
 *                               Round, Event, FEN; the PGN writer maps the other way).
 *                               PGN placeholders ("?", "????.??.??") are left out;
 *                               RESULT is the game's result (the token in the move block,
 *                               else the tag), left out when unknown ("*").
 *   OTHER   ...                 every other tag with a value, its name in upper case,
 *                               in ASCII order
 *                               (PGN's Game "Chinese Chess", Format, SetUp and
 *                               Variant "xiangqi" are left out: they say what this
 *                               format already says; a name that is not a WXF key
 *                               [A-Z][A-Z0-9_]{0,31} once upper-cased is left out).
 *                               A SETUP{} block the reader could not turn into a FEN is
 *                               its tag SETUP, so a key line like the others (written
 *                               back as a block, a later reading might make a position
 *                               of it that the first one did not: not idempotent).
 *   START{
 *   / * comment * /             comments on lines of their own; text trimmed, each of
 *                               its lines right-trimmed, inner line breaks kept
 *   1. C2.5 H8+7 !?             one move pair per line; NAGs as WXF/Unicode symbols
 *   2. H2+3                     after their move (a NAG with none: a comment "$n");
 *                               a line ends at a comment, a
 *   DIAG{ #2 BLACK }            diagram marker or a variation, and Black's move after
 *   2. … R9.8                   it is a Black-only entry "n. … move"
 *   / * 2… H8+9 3. R1.2 * /     each variation: a comment holding its moves in the
 *                               form the referee replays from comment prose: numbers
 *                               "n." and "n…", sub-variations in parentheses, their
 *                               comments in braces, NAGs as symbols
 *   / * not replayed: ... * /   the rest of a line after a move that did not replay,
 *                               as written
 *   }END ±                      then the game's own evaluation symbols
 *
 * NAGs without a symbol the WXF reader knows ($20, $146 "N", ...) become a comment
 * "$n" after the move. The result is never written inside the move block. Text that
 * would end a comment or the record early ("*" "/", "}END", a line starting with
 * FORMAT) is broken up with a space. Writing the output again gives the same bytes. */
#ifndef ARBITER_WRITER_WXF_WRITER_H
#define ARBITER_WRITER_WXF_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "notation/xq_notation.h"
#include "record/record.h"

typedef struct wxf_write_options {
    xqn_notation notation;
    unsigned style;              /* xqn_style flags */
    bool strip_comments, strip_nags, strip_variations;
    bool in_block;               /* inside an article's [game] block: no line break after
                                  * "}END" (the caller writes "[/game]" there) */
    uint32_t game_nag_skip;      /* leave out this many of the game's last evaluation
                                  * symbols (an article keeps its own after "[/game]") */
} wxf_write_options;

/* Write one replayed xiangqi game (after referee_xiangqi_game) as a WXF record; a chess
 * game is not written (returns false with errno EINVAL). Returns false on a write
 * error. */
bool wxf_write_game(FILE *out, const rec_game *g, const wxf_write_options *opts);

/* The symbol the WXF reader reads back as NAG n ("!?", "±", "+−"), or NULL. */
const char *wxf_nag_symbol(int n);

#endif
