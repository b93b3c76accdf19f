/* annot_check.c: walks a replayed game and checks each comment's mate claim with
 * mate_search (see annot_check.h). */
#include "engine/annot_check.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/chess.h"
#include "core/variant.h"
#include "core/xiangqi.h"
#include "engine/annot_engine.h"
#include "engine/mate_claim.h"
#include "engine/mate_search.h"
#include "engine/puzzle_check.h"
#include "i18n/i18n.h"
#include "referee/referee.h"
#include "referee/replay_util.h"

#define WALK_MAX_NESTING 32  /* variations deeper than this are not walked (C stack) */

typedef struct walker {
    rec_game *g;
    const variant *v;
} walker;

/* A claim holds when either side has the mate: annotators write "mate in 3" after the
 * mating side's move (counting from the next move, or with that move as the first) and
 * after a blunder (the opponent now mates); [%mate N] writers differ in whose view the
 * sign takes. Only a claim no reading makes true is reported, so the order of the
 * readings changes no finding, only the cost: MATE_NONE when both searches say none. */
static mate_verdict claim_holds(const walker *w, const void *pos, const mate_claim *claim,
                                bool after_move)
{
    int to_move = w->g->kind == REC_XIANGQI ? xq_pos_side(pos) : chess_pos_side(pos);
    /* The likelier reading first: most claims are true, and the search that finds a
     * mate is short where the one that proves none is full width. That is the side the
     * claim names; unnamed after a move, the side that made it (the annotator's
     * comment on it); unnamed at a line's start, the side to move (a puzzle). */
    bool other_first = claim->side >= 0 ? claim->side != to_move : after_move;
    /* A mate made of checks proves a reading at the cost of a few nodes: both readings
     * are asked that first, before a full-width search proves the first one false. A
     * proof is a proof, so this settles only claims the searches below could not find
     * false. */
    for (int i = 0; i < 2; i++)
        if (mate_search_quick(w->v, pos, claim->moves, 0, (i == 0) != other_first).verdict ==
            MATE_FOUND)
            return MATE_FOUND;
    mate_verdict r[2];
    for (int i = 0; i < 2; i++) {
        mate_result m = (i == 0) != other_first ? mate_search_attacker(w->v, pos, claim->moves, 0)
                                                : mate_search_defender(w->v, pos, claim->moves, 0);
        if (m.verdict == MATE_FOUND)
            return MATE_FOUND;
        if (m.verdict == MATE_UNKNOWN)
            return MATE_UNKNOWN;   /* undecided: the other reading would not settle it */
        r[i] = m.verdict;
    }
    return (r[0] == MATE_UNKNOWN || r[1] == MATE_UNKNOWN) ? MATE_UNKNOWN : MATE_NONE;
}

/* The comments cs, said of the position pos (after node n's move, or at a line's
 * start when n is NULL); before is the position before n's move. */
static void check_comments(walker *w, const rec_comment *cs, const rec_node *n, int ply,
                           const void *pos, const void *before)
{
    for (const rec_comment *c = cs; c; c = c->next) {
        mate_claim claim;
        if (c->diagram || !mate_claim_find(w->g->arena, c->text, &claim))
            continue;
        if (claim.moves > ANNOT_MATE_MAX)
            continue;   /* too deep for the own search: not judged */
        if (claim_holds(w, pos, &claim, n != NULL) != MATE_NONE)
            continue;
        char fen[128];
        w->v->to_fen(n ? before : pos, fen, sizeof fen);
        char msg[300];
        if (n)
            snprintf(msg, sizeof msg,
                     _("the comment claims mate in %d, but neither side can force it after %s"),
                     claim.moves, n->text);
        else
            snprintf(msg, sizeof msg,
                     _("the comment claims mate in %d, but neither side can force it from this "
                       "position"),
                     claim.moves);
        rec_finding *f;
        if (n) {
            f = replay_move_finding(w->g, n, ply, fen, "mate-claim", REC_ERROR, msg);
            f->where = rec_game_locate(w->g, c->where);
        } else {
            f = rec_game_add_finding(w->g, "mate-claim", REC_ERROR, c->where, "%s", msg);
            f->fen = arena_strdup(w->g->arena, fen);
        }
    }
}

/* Whether any of the comments could hold a claim (mate_claim_find finds none in the rest). */
static bool comments_may_claim(const rec_comment *cs)
{
    for (const rec_comment *c = cs; c; c = c->next)
        if (c->text && mate_claim_possible(c->text))
            return true;
    return false;
}

/* Whether any comment of the line or its variations could hold a claim: most games
 * have none, and are then not played through a second time. */
static bool line_may_claim(const rec_line *line, int depth)
{
    if (comments_may_claim(line->comments))
        return true;
    for (const rec_node *n = line->first; n; n = n->next) {
        /* most moves have neither: one test for both (the pointers or'ed, where two
         * tests were compiled to two branches) */
        if (!((uintptr_t)n->variations | (uintptr_t)n->comments))
            continue;
        if (depth < WALK_MAX_NESTING)
            for (const rec_line *var = n->variations; var; var = var->next)
                if (line_may_claim(var, depth + 1))
                    return true;
        if (comments_may_claim(n->comments))
            return true;
    }
    return false;
}

/* Plays the line's moves from *next up to (not including) stop, all of them replayed OK. */
static void play_up_to(walker *w, void *pos, const rec_node **next, const rec_node *stop,
                       int *ply)
{
    variant_undo u;
    for (; *next != stop; *next = (*next)->next, ++*ply)
        w->v->make(pos, (*next)->move, &u);
}

/* The moves are played only as far as a comment that may claim needs them (most
 * comments are clocks or words): pos is the position before the move next. */
static void walk_line(walker *w, const rec_line *line, const void *start, int ply0, int depth)
{
    variant_pos pos, before;
    memcpy(&pos, start, sizeof pos);
    if (comments_may_claim(line->comments))
        check_comments(w, line->comments, NULL, 0, &pos, NULL);
    const rec_node *next = line->first;
    int ply = ply0;
    for (const rec_node *n = line->first; n; n = n->next) {
        if (depth < WALK_MAX_NESTING)
            for (const rec_line *var = n->variations; var; var = var->next)
                if (line_may_claim(var, depth + 1)) {
                    play_up_to(w, &pos, &next, n, &ply);
                    walk_line(w, var, &pos, ply, depth + 1);
                }
        if (n->status != REC_MOVE_OK)
            return;   /* a bad or null move: the positions after it are not known */
        if (comments_may_claim(n->comments)) {
            play_up_to(w, &pos, &next, n, &ply);
            memcpy(&before, &pos, sizeof pos);
            play_up_to(w, &pos, &next, n->next, &ply);
            check_comments(w, n->comments, n, ply, &pos, &before);
        }
    }
}

void annot_check_game(rec_game *g)
{
    /* the PGN reader saw every comment: none has a byte a claim starts with */
    if (g->comments_claim_free || !line_may_claim(&g->main, 0)) {
        annot_engine_game(g);
        puzzle_check_game(g);
        return;
    }
    walker w = {g, g->kind == REC_XIANGQI ? &variant_xiangqi : &variant_chess};
    variant_pos start;
    char err[200];
    bool ok = g->kind == REC_XIANGQI ? referee_xiangqi_start(g, (xq_pos *)&start, err, sizeof err)
                                     : referee_chess_start(g, (chess_pos *)&start, err, sizeof err);
    if (!ok)
        return;   /* the referee has reported the FEN */
    walk_line(&w, &g->main, &start, 0, 0);
    annot_engine_game(g);
    puzzle_check_game(g);
}
