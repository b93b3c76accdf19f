/* dhtmlxq_reader.h: read DhtmlXQ records (dpxq.com's UBB format) from any text.
 *
 * Every [DhtmlXQ] ... [/DhtmlXQ] block (or [DhtmlXQiFrame], [DhtmlXQHTML]) is one game;
 * text outside blocks (HTML, forum posts) is ignored. Fields are
 * [DhtmlXQ_name]value[/DhtmlXQ_name], names case-insensitive
 * (../shared/reference/xiangqi-databases.md §2). The input is UTF-8 (input.c
 * transcodes GBK and Big5 pages before).
 *
 * The tree (record/record.h), kind REC_XIANGQI, positions at the field in the text:
 *   start      binit (64 digits, XQF slot order, x then y from the top; "99" or an
 *              x of 9 off the board; missing or short: filled from the standard
 *              start); FEN tag unless it is the standard start with Red to move; side
 *              to move: the colour of the piece on the first move's from-square.
 *   main line  movelist, 4 digits a ply, as UCCI texts ("h2e2"); anything not a
 *              letter or digit is ignored as the viewer does.
 *   variations move_P_I_B: branch B replaces ply I (absolute) of branch P; resolved in
 *              any order, alternatives to one move in order of B.
 *   comments   commentB_N (commentN: branch 0) after ply N of branch B; comment0 on the
 *              start; a comment before a branch's first ply is the variation's; "||"
 *              is a line break.
 *   tags       title Title, event Event, date Date, place Site, round Round, red Red,
 *              black Black, xqftype XQFType (ours), redtime RedTime,
 *              blacktime BlackTime, timerule TimeRule, result Result (红胜 1-0,
 *              黑胜 0-1, 和棋 1/2-1/2, 未知 *, and the variants of §2.4), open Opening, remark Annotator, author Author;
 *              every other metadata field under its own name (lower case), except the
 *              viewer's ver, init and the fields above. \uXXXX, %uXXXX and %25uXXXX
 *              escapes are decoded in every value. Format "UCCI".
 *
 * Findings: bad-dhtmlxq (error: a block without [/DhtmlXQ], a movelist or branch that
 * is not 4-digit squares, a branch whose parent or ply does not exist; warning: a
 * closing tag that does not match its field (skipped), a field left open, a result
 * that is not one of the known texts). */
#ifndef ARBITER_GRAMMAR_DHTMLXQ_READER_H
#define ARBITER_GRAMMAR_DHTMLXQ_READER_H

#include <stdio.h>

#include "record/arena.h"
#include "record/record.h"

typedef struct dhtmlxq_reader dhtmlxq_reader;

dhtmlxq_reader *dhtmlxq_reader_open(FILE *in, const char *name);
/* 1 with a game, 0 at the end of the input, -1 on a read error. */
int dhtmlxq_reader_next(dhtmlxq_reader *r, rec_game *g, arena *a);
const char *dhtmlxq_reader_error(const dhtmlxq_reader *r);
void dhtmlxq_reader_close(dhtmlxq_reader *r);

#endif
