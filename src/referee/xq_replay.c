/* xq_replay.c: replay of a xiangqi record (WXF, article block, xiangqi PGN): the
 * moves of the main line and every variation, and the result.
 *
 * Like the chess replay: the main line and every variation from the right position,
 * lines waiting on an explicit list, the rest of a line kept as text after a bad move.
 * The notation is found by trial replay (letters are shared between dialects: 'P' is
 * the cannon in Vietnamese, the pawn in English), unless the user fixes it. An illegal
 * move in rapid or blitz play is judged under the annex (seed 002). Results: checkmate
 * and stalemate both lose for the side to move (Vietnamese law, Art. 7.1a-b). Each
 * move is told to the line's track (xq_track.c: repetitions, the move limit, attacking
 * material); the comments of a line are checked against its positions by
 * xq_comment_lines.c. A variation's findings say "in this variation"; only the main
 * line decides the result. */
#include <config.h>

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/xiangqi.h"
#include "i18n/i18n.h"
#include "notation/xq_notation.h"
#include "referee/referee.h"
#include "referee/replay_util.h"
#include "fixit/fixit.h"
#include "referee/tc_game.h"
#include "referee/xq_annex.h"
#include "referee/xq_comment_lines.h"
#include "referee/xq_referee.h"
#include "referee/xq_track.h"

const char *xq_side_name(int side) { return side == XQ_RED ? _("Red") : _("Black"); }

/* ---- replaying lines */

typedef struct pending_line {
    const rec_line *line;
    xq_pos start;
    int start_ply;
    bool main;
    xq_track *track;         /* the line's claims and ends (NULL in a trial run) */
    struct pending_line *next;
} pending_line;

typedef struct xq_replay {
    rec_game *g;
    xqn_notation notation;
    bool report;             /* record findings and statuses (false for a trial run) */
    long branch_budget;      /* plies of history the variations may still copy */
    pending_line *todo;
    tc_kind tc;              /* the game's time control */
    bool illegal_claimed;    /* rapid/blitz: the record ends with a claimed illegal move */
} xq_replay;

static rec_finding *stop_line(rec_game *g, rec_node *bad, const xq_pos *pos, int ply,
                              const char *code, const char *msg)
{
    char fen[XQ_FEN_MAX];
    xq_fen_of(pos, fen);
    return replay_stop_line(g, bad, ply, fen, code, msg);
}

/* ---- the rapid and blitz annex (seed 002) on an illegal move */

#define TC_FAST(k) ((k) == TC_RAPID || (k) == TC_BLITZ)

enum { ANNEX_ERROR, ANNEX_CLAIMED, ANNEX_STANDS };

/* Whether next, played after the illegal move m on pos, takes the general m exposed. */
static bool takes_general(const xq_replay *r, const xq_pos *pos, xq_move m, const rec_node *next)
{
    xq_pos after = *pos;
    xq_undo u;
    xq_make(&after, m, &u);
    xqn_result res;
    xqn_parse(&after, r->notation, next->text, &res);
    /* a flying general's capture is no move of the core's: the one move the text names */
    xq_move taken = res.status == XQN_OK ? res.move : res.named;
    return taken != XQ_MOVE_NONE && xq_move_to(taken) == xq_general_square(&after, xq_pos_side(pos));
}

/* The illegal move m of node n under the annex: ANNEX_CLAIMED when the record ends
 * with it and the opponent's win (§4.2, §4.4: the claim before the opponent's move
 * wins); ANNEX_STANDS when the record goes on and the move may stand (§4.3: once the
 * opponent has moved the claim is lost); ANNEX_ERROR otherwise, with msg completed
 * when the annex has something to say. */
static int annex_illegal(xq_replay *r, const pending_line *p, rec_node *n, const xq_pos *pos,
                         int ply, xq_move m, char *msg)
{
    rec_game *g = r->g;
    xq_annex_fault fault = xq_annex_classify(pos, m);
    if (fault == XQ_ANNEX_UNPLAYABLE)
        return ANNEX_ERROR;
    const char *tc = _(tc_kind_name(r->tc));
    size_t len = strlen(msg), size = 560;
    char fen[XQ_FEN_MAX];
    xq_fen_of(pos, fen);
    if (!n->next && p->main && tc_opponent_won(g, xq_pos_side(pos) == XQ_RED)) {
        if (fault == XQ_ANNEX_GENERAL_EXPOSED && r->tc == TC_RAPID)
            snprintf(msg + len, size - len, _("; in rapid play the claim makes it a technical "
                     "fault, a loss if it is %s's second (annex §4.4, §5): the result "
                     "stands"), xq_side_name(xq_pos_side(pos)));
        else if (fault == XQ_ANNEX_GENERAL_EXPOSED)
            snprintf(msg + len, size - len, _("; in blitz play the opponent's claim wins (annex "
                     "§4.4): the result stands"));
        else
            snprintf(msg + len, size - len, _("; in %s play the opponent claims it before moving "
                     "and wins (annex §4.1, §4.2): the result stands"), tc);
        n->status = REC_MOVE_BAD;
        replay_move_finding(g, n, ply, fen, "illegal-move-claimed", REC_WARNING, msg);
        if (p->main)
            r->illegal_claimed = true;
        return ANNEX_CLAIMED;
    }
    if (!n->next) {
        /* the record ends with it but not with the opponent's win */
        snprintf(msg + len, size - len, _("; in %s play the opponent could have claimed it and "
                 "won (annex §4.2%s), but the result does not say so"), tc,
                 fault == XQ_ANNEX_GENERAL_EXPOSED ? ", §4.4" : "");
        return ANNEX_ERROR;
    }
    if (fault == XQ_ANNEX_GENERAL_EXPOSED && p->main && !n->next->next &&
        tc_opponent_won(g, xq_pos_side(pos) == XQ_RED) && takes_general(r, pos, m, n->next)) {
        /* online play ends such a game by taking the general: that is the claim */
        snprintf(msg + len, size - len, _("; %s takes the general left exposed, the claim of "
                 "it: in %s play %s (annex §4.4)"), xq_side_name(xq_pos_side(pos) ^ 1), tc,
                 r->tc == TC_BLITZ ? _("the claim wins")
                                   : _("a technical fault, a loss if it is the second (§5)"));
        n->status = REC_MOVE_BAD;
        replay_move_finding(g, n, ply, fen, "illegal-move-claimed", REC_WARNING, msg);
        r->illegal_claimed = true;
        return ANNEX_CLAIMED;
    }
    if (xq_annex_must_put_right(pos, m)) {
        snprintf(msg + len, size - len, _("; in %s play it must be put right even after the "
                 "opponent's move (annex §4.3)"), tc);
        return ANNEX_ERROR;
    }
    snprintf(msg + len, size - len, _("; in %s play, not claimed before %s's next move, it "
             "stands and the game goes on (annex §4.3)"), tc, xq_side_name(xq_pos_side(pos) ^ 1));
    n->status = REC_MOVE_OK;
    n->move = m;
    replay_move_finding(g, n, ply, fen, "illegal-move-stands",
                        p->main ? REC_WARNING : REC_INFO, msg);
    return ANNEX_STANDS;
}

/* Replay one line from p->start. Returns the number of moves replayed; *complete tells
 * whether the whole line was. Fills lp (when not NULL) with the positions. */
static int replay_line(xq_replay *r, const pending_line *p, xq_pos *end, bool *complete,
                       xq_line_positions *lp)
{
    rec_game *g = r->g;
    xq_pos pos = p->start;
    int ply = p->start_ply, done = 0;
    xq_track *track = r->report ? p->track : NULL;
    char msg[560];
    bool stood = false;      /* an illegal move stood (annex §4.3): generals may hang */
    *complete = false;
    if (lp) {
        int nodes = 0;
        for (const rec_node *n = p->line->first; n; n = n->next)
            nodes++;
        lp->at = arena_alloc(g->arena, (size_t)(nodes + 1) * sizeof *lp->at);
        lp->at[0] = pos;
        lp->count = 1;
    }
    for (rec_node *n = p->line->first; n; n = n->next) {
        if (r->report)
            for (const rec_line *v = n->variations; v; v = v->next) {
                pending_line *pl = arena_alloc(g->arena, sizeof *pl);
                *pl = (pending_line){.line = v, .start = pos, .start_ply = ply, .next = r->todo,
                                     .track = track ? xq_track_branch(g, &r->branch_budget, track, ply, v) : NULL};
                r->todo = pl;
            }
        ply++;
        if (r->report && !replay_move_number_ok(n, (int)pos.fullmove, pos.side == XQ_BLACK)) {
            char fen[XQ_FEN_MAX];
            xq_fen_of(&pos, fen);
            replay_check_move_number(g, n, ply, fen, (int)pos.fullmove, pos.side == XQ_BLACK,
                                     _("Red"), _("Black"));
        }
        if (track && track->end_result && !track->after_end) {
            /* a rule ended the game: what follows was played after the end */
            char when[80];
            snprintf(when, sizeof when, "%s", _("in the start position"));
            if (track->end_ply > 0)
                snprintf(when, sizeof when, _("after ply %d"), track->end_ply);
            if (p->main)
                snprintf(msg, sizeof msg, _("the game was already over %s (%s; %s), %s"), when,
                         _(track->end_reason), track->end_article, track->end_result);
            else
                snprintf(msg, sizeof msg, _("the game would have been over %s (%s; %s), %s"),
                         when, _(track->end_reason), track->end_article, track->end_result);
            if (track->automatic && p->main) {
                /* Art. 7.2a: a drawn end that needs nobody's claim, like a mate */
                stop_line(g, n, &pos, ply, "moves-after-end", msg);
                *complete = true;
                *end = pos;
                return done;
            }
            /* a forbidden cycle not changed: the arbiter rules the loss (Art. 7.1g-h "xử
             * thua"); a record that goes on shows no ruling was made, so the moves stay
             * replayed and this is a warning */
            char fen[XQ_FEN_MAX];
            xq_fen_of(&pos, fen);
            size_t len = strlen(msg);
            if (!track->automatic)
                snprintf(msg + len, sizeof msg - len,
                         _("; the record goes on as if no ruling was made"));
            xq_track_finding(g, track, n, ply, fen, "moves-after-end", REC_WARNING, msg);
            track->after_end = true;
        }
        xqn_result res;
        xqn_parse(&pos, r->notation, n->text, &res);
        if (res.status != XQN_OK) {
            if (!r->report)
                break;
            const char *code = "illegal-move";
            if (!xq_has_legal_move(&pos)) {
                /* In a record every move is a claim that it was played: after a mate the
                 * move written is what is wrong (it is how Fairy-Stockfish and the
                 * datasets' notes see it too), so this is an illegal move that says the
                 * game was over. */
                snprintf(msg, sizeof msg, _("%s %s is illegal: %s has no legal move (%s), "
                         "the game was already over"), xq_side_name(pos.side), n->text,
                         xq_side_name(pos.side), xq_in_check(&pos) ? _("checkmate") : _("stalemate"));
                *complete = true; /* a real end: the result is judged from it */
            } else if (res.status == XQN_UNREADABLE) {
                code = "unreadable-move";
                snprintf(msg, sizeof msg, _("'%s' is not a move in %s notation: %s"), n->text,
                         xqn_notation_name(r->notation), res.reason);
            } else if (res.status == XQN_AMBIGUOUS) {
                code = "ambiguous-move";
                int len = snprintf(msg, sizeof msg, _("%s is ambiguous: it could be"), n->text);
                for (int i = 0; i < res.candidate_count && len < (int)sizeof msg - 16; i++) {
                    char text[8];
                    xq_move_to_ucci(res.candidates[i], text);
                    len += snprintf(msg + len, sizeof msg - (size_t)len, "%s %s",
                                    i == 0 ? "" : ",", text);
                }
            } else {
                snprintf(msg, sizeof msg, _("%s %s is illegal: %s"), xq_side_name(pos.side), n->text,
                         res.reason);
                if (TC_FAST(r->tc) && res.status == XQN_ILLEGAL && res.named != XQ_MOVE_NONE) {
                    int annex = annex_illegal(r, p, n, &pos, ply, res.named, msg);
                    if (annex == ANNEX_CLAIMED) {
                        *end = pos;
                        return done;
                    }
                    if (annex == ANNEX_STANDS) {
                        stood = true;
                        res.move = res.named;
                        goto play; /* one call site keeps track_move inlined */
                    }
                }
            }
            rec_finding *f = stop_line(g, n, &pos, ply, code, msg);
            if (!*complete) {
                /* what was probably meant (fixit/), only now that a move is bad */
                int nrest;
                const char **rest = fixit_rest_of(g->arena, n, FIXIT_REST_MAX, &nrest);
                fixit_result fr;
                fixit_xq(&pos, r->notation, n->text, rest, nrest, &fr);
                fixit_attach(g, f, &fr, n, 0);
            }
            *end = pos;
            return done;
        }
        if (stood && XQ_TYPE(xq_piece_at(&pos, xq_move_to(res.move))) == XQ_GENERAL) {
            /* only after an illegal move that stood: the general cannot be taken */
            snprintf(msg, sizeof msg, _("%s %s takes the general: the illegal move before it "
                     "should have been claimed (annex §4.2, §4.4)"), xq_side_name(pos.side), n->text);
            stop_line(g, n, &pos, ply, "illegal-move", msg);
            *end = pos;
            return done;
        }
    play:
        if (r->report) {
            n->status = REC_MOVE_OK;
            n->move = res.move;
        }
        xq_undo undo;
        if (track && !track->end_result) {
            xq_pos before = pos;
            xq_make(&pos, res.move, &undo);
            xq_track_move(g, track, n, ply, &before, res.move, &pos);
        } else {
            xq_make(&pos, res.move, &undo);
        }
        done++;
        if (lp)
            lp->at[lp->count++] = pos;
    }
    *complete = true;
    *end = pos;
    return done;
}

/* ---- the notation, by trial replay of the main line (issue: letters are shared) */

/* Preference on a tie: the unambiguous coordinate forms first, then the dialects. */
static const xqn_notation preference[] = {XQN_UCCI,    XQN_ICCS,        XQN_CHINESE,
                                          XQN_VIETNAMESE, XQN_WXF,      XQN_WINBOARD_SAN,
                                          XQN_FSF_SAN, XQN_FSF_UCI};

/* The Format tag values (xqbase: WXF, ICCS, none for Chinese; the others are
 * arbiter's), with the notations each allows. */
static const struct {
    const char *name;
    xqn_notation notation;
    unsigned allows;
} formats[] = {
    {"WXF", XQN_WXF, XQN_BIT(XQN_WXF) | XQN_BIT(XQN_VIETNAMESE)},
    {"Vietnamese", XQN_VIETNAMESE, XQN_BIT(XQN_VIETNAMESE)},
    {"Chinese", XQN_CHINESE, XQN_BIT(XQN_CHINESE)},
    {"ICCS", XQN_ICCS, XQN_BIT(XQN_ICCS) | XQN_BIT(XQN_UCCI)},
    {"UCCI", XQN_UCCI, XQN_BIT(XQN_UCCI)},
    {"FSF-UCI", XQN_FSF_UCI, XQN_BIT(XQN_FSF_UCI)},
    {"WinBoard-SAN", XQN_WINBOARD_SAN, XQN_BIT(XQN_WINBOARD_SAN)},
    {"FSF-SAN", XQN_FSF_SAN, XQN_BIT(XQN_FSF_SAN)},
};

const char *referee_xq_format_name(int notation)
{
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if ((int)formats[i].notation == notation)
            return formats[i].name;
    return NULL;
}

/* The notations a Format (PGN) or FORMAT (WXF) tag allows; ~0 when it says nothing. */
static unsigned format_allows(const rec_game *g)
{
    const char *value = rec_game_tag(g, "Format");
    if (!value)
        value = rec_game_tag(g, "FORMAT");
    if (!value)
        return ~0u;
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        size_t len = strlen(formats[i].name);
        if (strncasecmp(value, formats[i].name, len) == 0 &&
            (value[len] == '\0' || value[len] == ',' || value[len] == ' '))
            return formats[i].allows;
    }
    return ~0u;
}

static xqn_notation choose_notation(rec_game *g, const xq_pos *start, const referee_options *o)
{
    if (o && o->xq_notation >= 0)
        return (xqn_notation)o->xq_notation;
    const rec_node *first = g->main.first;
    if (!first)
        return XQN_WXF;
    /* Which notations could read the first moves at all? */
    unsigned all = ~0u, any = 0;
    int seen = 0;
    for (const rec_node *n = first; n && seen < 12; n = n->next, seen++) {
        unsigned fits = xqn_syntax_fits(n->text);
        all &= fits;
        any |= fits;
    }
    unsigned candidates = all ? all : any;
    if (!candidates)
        candidates = ~0u;
    if (candidates & format_allows(g))
        candidates &= format_allows(g);

    int best_moves = -1, runner_up = -1;
    xqn_notation best = XQN_WXF, second = XQN_WXF;
    pending_line main = {.line = &g->main, .start = *start, .main = true};
    for (size_t i = 0; i < sizeof preference / sizeof preference[0]; i++) {
        if (!(candidates & XQN_BIT(preference[i])))
            continue;
        xq_replay trial = {.g = g, .notation = preference[i], .report = false};
        xq_pos end;
        bool complete;
        int moves = replay_line(&trial, &main, &end, &complete, NULL);
        if (moves > best_moves) {
            runner_up = best_moves;
            second = best;
            best_moves = moves;
            best = preference[i];
        } else if (moves > runner_up) {
            runner_up = moves;
            second = preference[i];
        }
    }
    int total = 0;
    for (const rec_node *n = first; n; n = n->next)
        total++;
    rec_finding *f;
    if (runner_up >= 0)
        f = rec_game_add_finding(g, "notation", REC_INFO, first->where,
                                 _("moves read as %s notation (trial replay: %d of %d main-line "
                                 "moves; as %s: %d)"), xqn_notation_name(best), best_moves, total,
                                 xqn_notation_name(second), runner_up);
    else
        f = rec_game_add_finding(g, "notation", REC_INFO, first->where,
                                 _("moves read as %s notation"), xqn_notation_name(best));
    (void)f;
    g->notation = xqn_notation_name(best);
    return best;
}

/* ---- start position and result */

bool referee_xiangqi_start(const rec_game *g, xq_pos *pos, char *err, size_t errsize)
{
    const char *fen = rec_game_tag(g, "FEN");
    if (!fen) {
        xq_pos_start(pos);
        return true;
    }
    return xq_pos_from_fen(pos, fen, err, errsize);
}

/* The record says the game ended on time: a Termination (PGN) or endtype tag, or a
 * comment on one of the last two moves naming time or showing [%clk 0:00:00]. */
static bool xq_lost_on_time(const rec_game *g)
{
    for (const rec_tag *t = g->tags; t; t = t->next)
        if ((strcasecmp(t->name, "Termination") == 0 || strcasecmp(t->name, "endtype") == 0) &&
            tc_text_says_time(t->value))
            return true;
    const rec_node *last = NULL, *prev = NULL;
    for (const rec_node *n = g->main.first; n; n = n->next) {
        prev = last;
        last = n;
    }
    const rec_comment *tail[3] = {g->main.first ? NULL : g->main.comments,
                                  prev ? prev->comments : NULL, last ? last->comments : NULL};
    for (int k = 0; k < 3; k++)
        for (const rec_comment *c = tail[k]; c; c = c->next) {
            if (tc_text_says_time(c->text) || replay_clock_ran_out(g->arena, c->text))
                return true;
        }
    return false;
}

/* The helpmate search of annex §8: plies and positions at most (a few ms). */
#define XQ_HELPMATE_PLIES 7
#define XQ_HELPMATE_BUDGET 20000L

/* Annex §8: a win on time is a draw when the claimant's men cannot checkmate by any
 * series of legal moves; the standard law has no such exception (Art. 7.1d). Only the
 * proof from the material decides a draw; otherwise (rapid and blitz) a short helpmate
 * search shows the win stands, or says it is undetermined. */
static void judge_time_win(rec_game *g, const xq_pos *end, tc_kind tc, const char *declared,
                           rec_span where)
{
    if (strcmp(declared, "1-0") != 0 && strcmp(declared, "0-1") != 0)
        return;
    if (!xq_lost_on_time(g))
        return;
    int winner = declared[0] == '1' ? XQ_RED : XQ_BLACK;
    const char *why;
    char fen[XQ_FEN_MAX];
    xq_fen_of(end, fen);
    rec_finding *f;
    if (!xq_annex_cannot_mate(end, winner, &why)) {
        if (!TC_FAST(tc))
            return;
        /* not proved from the material: look for a mate the loser helps to, the proof
         * that the win stands */
        xq_move line[XQ_HELPMATE_PLIES];
        int len;
        long nodes;
        if (xq_annex_helpmate(end, winner, XQ_HELPMATE_PLIES, XQ_HELPMATE_BUDGET, line, &len,
                              &nodes)) {
            char text[XQ_HELPMATE_PLIES * 6 + 1] = "";
            for (int i = 0; i < len; i++) {
                char ucci[5];
                xq_move_to_ucci(line[i], ucci);
                snprintf(text + strlen(text), sizeof text - strlen(text), "%s%s", i ? " " : "",
                         ucci);
            }
            f = rec_game_add_finding(g, "unwinnable-timeout", REC_INFO, where,
                                     _("%s won on time and can still checkmate (winnable, in UCCI: %s): "
                                     "the result stands (annex §8)"), xq_side_name(winner), text);
        } else {
            f = rec_game_add_finding(g, "unwinnable-timeout", REC_INFO, where,
                                     _("%s won on time; whether %s can still checkmate is "
                                     "undetermined after %ld nodes (annex §8): the result "
                                     "stands"), xq_side_name(winner), xq_side_name(winner), nodes);
        }
        f->fen = arena_strdup(g->arena, fen);
        return;
    }
    if (TC_FAST(tc)) {
        f = rec_game_add_finding(g, "unwinnable-timeout", REC_ERROR, where,
                                 _("%s won on time but cannot checkmate by any series of legal "
                                 "moves (%s): in %s play the game is drawn, the result should "
                                 "be 1/2-1/2 (annex §8)"), xq_side_name(winner), why,
                                 _(tc_kind_name(tc)));
        g->derived_result = "1/2-1/2";
        g->derived_reason = N_("time win without mating material");
    } else {
        f = rec_game_add_finding(g, "unwinnable-timeout", REC_INFO, where,
                                 _("%s won on time and cannot checkmate by any series of legal "
                                 "moves (%s): in a standard game the result stands (Vietnamese "
                                 "law Art. 7.1d; rapid and blitz would draw it, annex §8)"),
                                 xq_side_name(winner), why);
    }
    f->fen = arena_strdup(g->arena, fen);
}

static void judge_result(rec_game *g, const xq_pos *end, bool complete, const xq_track *t,
                         const xq_replay *r)
{
    if (r->illegal_claimed) {
        /* annex §4.2, §4.4: the record ends with the claimed illegal move and the loss */
        g->derived_result = tc_declared_result(g, NULL);
        g->derived_reason = N_("illegal move claimed");
        return;
    }
    if (t && t->end_result) {
        /* a rule ended the game before the record did, or where it did */
        g->derived_result = t->end_result;
        g->derived_reason = t->end_reason;
        rec_span where = g->start;
        const char *declared = tc_declared_result(g, &where);
        char when[80];
        snprintf(when, sizeof when, "%s", _("in the start position"));
        if (t->end_ply > 0)
            snprintf(when, sizeof when, _("after ply %d"), t->end_ply);
        /* an error against an automatic end (Art. 7.2a); a warning against a repetition
         * verdict, which is the arbiter's ruling ("xử thua", Art. 7.1g-h) and differs between
         * rule sets (a CXA arbiter may rule a draw where the Vietnamese law gives a loss),
         * and against '*' */
        rec_severity sev = strcmp(declared ? declared : "*", "*") == 0 || !t->automatic
                               ? REC_WARNING
                               : REC_ERROR;
        if (declared && strcmp(declared, g->derived_result) != 0)
            rec_game_add_finding(g, "result-contradicts-board", sev, where,
                                 _("the result %s contradicts the board: the game ended %s (%s; "
                                 "%s), so the result is %s"), declared, when, _(t->end_reason),
                                 t->end_article, g->derived_result);
        return;
    }
    if (complete && !xq_has_legal_move(end)) {
        /* Art. 7.1a-b: checkmate and stalemate both lose for the side to move */
        g->derived_result = end->side == XQ_RED ? "0-1" : "1-0";
        g->derived_reason = xq_in_check(end) ? N_("checkmate") : N_("stalemate");
    }
    rec_span where = g->start;
    const char *declared = tc_declared_result(g, &where);
    if (declared && !g->derived_result && complete) {
        judge_time_win(g, end, r->tc, declared, where);
        return;
    }
    if (!declared || !g->derived_result || strcmp(declared, g->derived_result) == 0)
        return;
    if (TC_FAST(r->tc) && xq_in_check(end) && strcmp(declared, "*") != 0 &&
        xq_lost_on_time(g)) {
        /* annex §9: the mate stands though the flag fell before the clock was pressed */
        rec_game_add_finding(g, "mate-stands", REC_ERROR, where,
                             _("the result %s contradicts the board: %s is checkmated, and in %s "
                             "play a mate stands even if the flag fell before the clock was "
                             "pressed (annex §9), so the result is %s"), declared,
                             xq_side_name(end->side), _(tc_kind_name(r->tc)), g->derived_result);
        return;
    }
    rec_game_add_finding(g, "result-contradicts-board",
                         strcmp(declared, "*") == 0 ? REC_WARNING : REC_ERROR, where,
                         _("the result %s contradicts the board: %s is %s, which loses "
                         "(Art. 7.1), so the result is %s"), declared, xq_side_name(end->side),
                         _(g->derived_reason), g->derived_result);
}

void referee_xiangqi_game(rec_game *g, const referee_options *opts)
{
    xq_pos start;
    char err[200];
    if (!referee_xiangqi_start(g, &start, err, sizeof err)) {
        replay_bad_fen(g, _("the FEN does not give a usable position: %s; the moves are not "
                       "replayed"), err);
        return;
    }
    xq_replay r = {.g = g, .report = true, .branch_budget = XQ_BRANCH_BUDGET};
    r.notation = choose_notation(g, &start, opts);
    r.tc = referee_time_control(g, opts);

    pending_line *main = arena_alloc(g->arena, sizeof *main);
    *main = (pending_line){.line = &g->main, .start = start, .main = true,
                           .track = xq_track_start(g, opts, &start)};
    main->track->tc = r.tc;
    r.todo = main;
    while (r.todo) {
        pending_line *p = r.todo;
        r.todo = p->next;
        xq_line_positions lp = {0};
        bool want_positions = xq_line_has_comments(p->line);
        xq_pos end;
        bool complete;
        int moves = replay_line(&r, p, &end, &complete, want_positions ? &lp : NULL);
        if (want_positions)
            xq_check_line_comments(g, p->line, &lp, r.notation);
        if (p->main) {
            g->plies = (uint32_t)moves;
            char fen[XQ_FEN_MAX];
            xq_fen_of(&end, fen);
            g->final_fen = arena_strdup(g->arena, fen);
            /* the record stops inside a forbidden cycle: the offender did not change */
            xq_track *t = p->track;
            xq_track_close(t);
            judge_result(g, &end, complete, t, &r);
        }
    }
}
