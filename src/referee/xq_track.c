/* xq_track.c: the claims and automatic ends along one xiangqi line: position keys for
 * repetition cycles (judged by xq_repetition.c under --rules vn, axf or cxa), the
 * natural move limit (Art. 7.2e) and the end for want of attacking material
 * (Art. 7.2a). xq_replay.c replays the moves and tells the track each one. */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "core/xiangqi.h"
#include "i18n/i18n.h"
#include "referee/replay_util.h"
#include "referee/xq_referee.h"
#include "referee/xq_repetition.h"
#include "referee/xq_track.h"


rec_finding *xq_track_finding(rec_game *g, const xq_track *t, const rec_node *n, int k,
                              const char *fen, const char *code, rec_severity sev,
                              const char *msg)
{
    char text[480];
    snprintf(text, sizeof text, "%s%s", t->prefix, msg);
    return replay_move_finding(g, n, k, fen, code, sev, text);
}

static const char *opponent_result(int loser) { return loser == XQ_RED ? "0-1" : "1-0"; }

/* The rule each verdict rests on, by rule set (--rules). */
static const char *article(referee_rules rules, const char *vn, const char *axf, const char *cxa)
{
    return rules == REFEREE_RULES_AXF ? axf : rules == REFEREE_RULES_CXA ? cxa : vn;
}

/* Art. 7.2a: a side keeps attacking material while it has a chariot, horse, cannon or
 * soldier; advisors and elephants never leave their own half or palace (Art. 4.3b-c)
 * and the generals only face each other, so they can never give check. */
static bool has_attacking_material(const xq_pos *pos, int side)
{
    for (int i = 0; i < pos->count[side]; i++) {
        int t = XQ_TYPE(pos->board[pos->plist[side][i]]);
        if (t == XQ_CHARIOT || t == XQ_HORSE || t == XQ_CANNON || t == XQ_SOLDIER)
            return true;
    }
    return false;
}

static void end_game(xq_track *t, const char *result, const char *reason, const char *art,
                     int ply)
{
    t->end_result = result;
    t->end_reason = reason;
    t->end_article = art;
    t->end_ply = ply;
}

/* Art. 7.2a (all rule sets: a dead draw): neither side can attack the other's general. */
static void check_material(rec_game *g, xq_track *t, const rec_node *n, int ply,
                           const xq_pos *before, const xq_pos *pos)
{
    if (has_attacking_material(pos, XQ_RED) || has_attacking_material(pos, XQ_BLACK))
        return;
    char fen[XQ_FEN_MAX];
    rec_finding *f;
    if (n) {
        xq_fen_of(before, fen);
        f = xq_track_finding(g, t, n, ply, fen, "no-attacking-material", REC_INFO,
                                _("neither side has a chariot, horse, cannon or soldier left to "
                                "attack the other's general: the game is drawn (Vietnamese law "
                                "Art. 7.2a)"));
    } else {
        xq_fen_of(pos, fen);
        f = rec_game_add_finding(g, "no-attacking-material", REC_INFO,
                                 g->main.first ? g->main.first->where : g->start,
                                 _("in the start position neither side has a chariot, horse, "
                                 "cannon or soldier to attack the other's general: the game is "
                                 "drawn (Vietnamese law Art. 7.2a)"));
        f->fen = arena_strdup(g->arena, fen);
    }
    f->claim = true;
    end_game(t, "1/2-1/2", N_("no attacking material"), _("Vietnamese law Art. 7.2a"), ply);
    t->automatic = true;
}

xq_track *xq_track_start(rec_game *g, const referee_options *opts, const xq_pos *start)
{
    xq_track *t = arena_alloc(g->arena, sizeof *t);
    memset(t, 0, sizeof *t);
    t->prefix = "";
    t->rules = opts && (opts->rules == REFEREE_RULES_AXF || opts->rules == REFEREE_RULES_CXA)
                   ? opts->rules
                   : REFEREE_RULES_VN;
    /* Art. 7.2e, CXA 4.2.4, AXF: 60 moves by each side; --move-limit N overrides */
    int limit = opts && opts->move_limit > 0 ? opts->move_limit : 60;
    t->limit_plies = 2 * limit;
    t->pending_loser = -1;
    int nodes = 0;
    for (const rec_node *n = g->main.first; n; n = n->next)
        nodes++;
    t->keys = arena_alloc(g->arena, (size_t)(nodes + 1) * sizeof *t->keys);
    t->moves = arena_alloc(g->arena, (size_t)(nodes + 1) * sizeof *t->moves);
    t->keys[0] = start->key;
    t->moves[0] = XQ_MOVE_NONE;
    check_material(g, t, NULL, 0, start, start);
    return t;
}

/* What a variation's track costs of the branch budget (XQ_BRANCH_BUDGET). */
#define XQ_BRANCH_COST(ply) ((long)(ply) + 16)

xq_track *xq_track_branch(rec_game *g, long *budget, const xq_track *parent, int ply,
                          const rec_line *v)
{
    if (!v->first) /* an empty variation "()": nothing to judge */
        return NULL;
    if (*budget >= 0 && XQ_BRANCH_COST(ply) > *budget) {
        rec_game_add_finding(g, "variations-not-judged", REC_INFO, v->first->where,
                             _("claims and automatic ends are not judged in this variation "
                             "and the later ones: the game's variations already copied "
                             "%ld plies of history (a bound on memory)"), XQ_BRANCH_BUDGET);
        *budget = -1;
    }
    if (*budget < 0)
        return NULL;
    *budget -= XQ_BRANCH_COST(ply);
    xq_track *t = arena_alloc(g->arena, sizeof *t);
    *t = *parent;
    t->prefix = _("in this variation: ");
    int nodes = 0;
    for (const rec_node *n = v->first; n; n = n->next)
        nodes++;
    t->keys = arena_alloc(g->arena, (size_t)(ply + nodes + 1) * sizeof *t->keys);
    t->moves = arena_alloc(g->arena, (size_t)(ply + nodes + 1) * sizeof *t->moves);
    memcpy(t->keys, parent->keys, (size_t)(ply + 1) * sizeof *t->keys);
    memcpy(t->moves, parent->moves, (size_t)(ply + 1) * sizeof *t->moves);
    return t;
}

static const char *fault_text(xqrep_fault f)
{
    switch (f) {
    case XQREP_PERPETUAL_CHECK: return _("checks perpetually");
    case XQREP_PERPETUAL_CHASE: return _("chases perpetually");
    case XQREP_PERPETUAL_KILL: return _("threatens mate perpetually");
    case XQREP_MIXED: return _("only checks, threatens mate or chases");
    default: return _("moves freely");
    }
}

/* A position occurred the third time at ply k (earlier at plies j0 < j1, none of the
 * moves since j0 a capture): confirm it exactly, then judge the cycle j0..k. */
/* Returns the side that must change (and loses if it does not), or -1. */
static int judge_repetition(rec_game *g, xq_track *t, const rec_node *n, int k,
                            const xq_pos *before, const xq_pos *now, int j1, int j0)
{
    xq_pos at = *now;
    bool same1 = false;
    for (int i = k; i > j0; i--) {
        xq_undo u = {.key = t->keys[i - 1], .halfmove = (uint16_t)(at.halfmove - 1)};
        xq_unmake(&at, t->moves[i], &u);
        if (i - 1 == j1)
            same1 = memcmp(at.board, now->board, sizeof at.board) == 0 && at.side == now->side;
    }
    if (!same1 || memcmp(at.board, now->board, sizeof at.board) != 0 || at.side != now->side)
        return -1; /* a key collision, not a repetition */

    xqrep_verdict v;
    xqrep_judge(&at, &t->moves[j0 + 1], k - j0, t->rules, &v);
    char fen[XQ_FEN_MAX];
    xq_fen_of(before, fen);
    char msg[400];
    rec_finding *f;
    if (v.loser >= 0 && v.loser == t->pending_loser)
        return v.loser; /* the same cycle goes on: reported already */
    if (v.loser >= 0) {
        int s = v.loser;
        const char *code, *reason, *art;
        switch (v.fault[s]) {
        case XQREP_PERPETUAL_CHECK:
            code = "perpetual-check";
            reason = s == XQ_RED ? N_("perpetual check by Red, not changed")
                                 : N_("perpetual check by Black, not changed");
            art = article(t->rules, _("Vietnamese law Art. 7.1g"), _("AXF rules (perpetual check)"),
                          _("CXA rules 26.1"));
            if (v.check_piece[s])
                snprintf(msg, sizeof msg, _("%s checks on every move of plies %d-%d with the same "
                         "%s and the position occurs a third time: perpetual check is forbidden, "
                         "%s must change or loses (%s)"), xq_side_name(s), j0 + 1, k,
                         xqrep_piece_name(v.check_piece[s]), xq_side_name(s), art);
            else
                snprintf(msg, sizeof msg, _("%s checks on every move of plies %d-%d with several "
                         "pieces in turn and the position occurs a third time: perpetual check "
                         "is forbidden, %s must change or loses (%s)"), xq_side_name(s), j0 + 1, k,
                         xq_side_name(s), art);
            break;
        case XQREP_PERPETUAL_CHASE:
        case XQREP_MIXED:
        case XQREP_PERPETUAL_KILL:
        default: {
            char what[160] = "";
            if (v.chased_piece[s])
                snprintf(what, sizeof what, _(" %s's %s (on %c%d in UCCI coordinates) with the %s"),
                         xq_side_name(s ^ 1), xqrep_piece_name(XQ_TYPE(v.chased_piece[s])),
                         'a' + XQ_FILE(v.chased_sq[s]), XQ_RANK(v.chased_sq[s]),
                         xqrep_piece_name(XQ_TYPE(v.chaser_piece[s])));
            if (v.fault[s] == XQREP_PERPETUAL_CHASE) {
                code = "perpetual-chase";
                reason = s == XQ_RED ? N_("perpetual chase by Red, not changed")
                                     : N_("perpetual chase by Black, not changed");
                art = article(t->rules, _("Vietnamese law Art. 7.1h"), _("AXF rules (perpetual chase)"),
                              _("CXA rules 26.4"));
                snprintf(msg, sizeof msg, _("%s chases%s on every move of plies %d-%d and the "
                         "position occurs a third time: perpetual chase is forbidden, %s must "
                         "change or loses (%s)"), xq_side_name(s), what, j0 + 1, k, xq_side_name(s), art);
            } else if (v.fault[s] == XQREP_PERPETUAL_KILL) {
                code = "perpetual-mate-threat";
                reason = s == XQ_RED ? N_("perpetual mate threat by Red, not changed")
                                     : N_("perpetual mate threat by Black, not changed");
                art = _("CXA rules 26.4 (长杀)");
                snprintf(msg, sizeof msg, _("%s threatens mate on every move of plies %d-%d and "
                         "the position occurs a third time: a perpetual mate threat is forbidden, "
                         "%s must change or loses (%s)"), xq_side_name(s), j0 + 1, k, xq_side_name(s),
                         art);
            } else {
                code = "mixed-perpetual";
                reason = s == XQ_RED ? N_("perpetual forcing moves by Red, not changed")
                                     : N_("perpetual forcing moves by Black, not changed");
                art = _("CXA rules 26.4 (一将一捉, 一将一杀, 一杀一捉)");
                snprintf(msg, sizeof msg, _("%s only checks, threatens mate or chases%s on plies "
                         "%d-%d and the position occurs a third time: the mixed perpetual is "
                         "forbidden, %s must change or loses (%s)"), xq_side_name(s), what, j0 + 1, k,
                         xq_side_name(s), art);
            }
            break;
        }
        }
        f = xq_track_finding(g, t, n, k, fen, code, REC_INFO, msg);
        f->claim = true;
        t->pending_loser = s;
        t->pending_ply = k;
        t->pending_reason = reason;
        t->pending_article = art;
        return s;
    }
    if (t->draw_claimed)
        return -1;
    t->draw_claimed = true;
    bool both = v.fault[XQ_RED] && v.fault[XQ_BLACK];
    const char *art = both ? article(t->rules, _("Vietnamese law Art. 7.2c"), _("AXF rules"),
                                     _("CXA rules 26.3"))
                           : article(t->rules, _("Vietnamese law Art. 7.2b"), _("AXF rules"),
                                     _("CXA rules 26.2"));
    if (both)
        snprintf(msg, sizeof msg, _("the position occurs a third time (plies %d-%d) and both "
                 "sides break a prohibition (Red %s, Black %s): a draw may be claimed (%s)"),
                 j0 + 1, k, fault_text(v.fault[XQ_RED]), fault_text(v.fault[XQ_BLACK]), art);
    else
        snprintf(msg, sizeof msg, _("the position occurs a third time (plies %d-%d) and neither "
                 "side breaks a prohibition: a draw may be claimed (%s)"), j0 + 1, k, art);
    f = xq_track_finding(g, t, n, k, fen, "repetition-draw", REC_INFO, msg);
    f->claim = true;
    return -1;
}

void xq_track_move(rec_game *g, xq_track *t, const rec_node *n, int k, const xq_pos *before,
                   xq_move m, const xq_pos *now)
{
    t->keys[k] = now->key;
    t->moves[k] = m;
    if (now->halfmove == 0) {
        /* a capture: the only irreversible move; it resets the counts */
        t->checks[XQ_RED] = t->checks[XQ_BLACK] = 0;
        check_material(g, t, n, k, before, now);
        return;
    }
    bool check = t->rules == REFEREE_RULES_AXF && xq_in_check(now);
    if (check)
        t->checks[before->side]++;

    /* Natural move limit: Art. 7.2e (60 moves by each side without a capture, a draw on
     * a proposal checked by the arbiter), CXA 4.2.4; under AXF at most 10 checks of each
     * side count towards it (AXF 2017; as Pikafish counts). */
    int counted = now->halfmove;
    if (t->rules == REFEREE_RULES_AXF)
        for (int s = 0; s < 2; s++)
            if (t->checks[s] > 10)
                counted -= t->checks[s] - 10;
    if (!t->limit_claimed && counted >= t->limit_plies) {
        t->limit_claimed = true;
        char fen[XQ_FEN_MAX], msg[300];
        xq_fen_of(before, fen);
        if (t->tc == TC_RAPID || t->tc == TC_BLITZ) {
            /* annex §3: no draw proposal under the move limit in rapid and blitz */
            snprintf(msg, sizeof msg, _("each side has made %d moves without a capture, but in "
                     "%s play no draw is claimed by the move limit (annex §3, not Vietnamese "
                     "law Art. 7.2e)"), t->limit_plies / 2, _(tc_kind_name(t->tc)));
            xq_track_finding(g, t, n, k, fen, "move-limit-not-applied", REC_INFO, msg);
        } else {
            snprintf(msg, sizeof msg, _("each side has made %d moves without a capture%s: a draw "
                     "may be claimed (%s)"), t->limit_plies / 2,
                     t->rules == REFEREE_RULES_AXF ? _(" (at most 10 checks of each side counted)")
                                                   : "",
                     article(t->rules, _("Vietnamese law Art. 7.2e"), _("AXF rules"), _("CXA rules 4.2.4")));
            rec_finding *f = xq_track_finding(g, t, n, k, fen, "move-limit-available", REC_INFO, msg);
            f->claim = true;
        }
    }

    /* Repetition: the same position (placement and side to move) since the last capture;
     * judged at its third occurrence (B3 step 1; Fairy-Stockfish and Pikafish likewise). */
    int window = now->halfmove, j1 = -1, loser = -1;
    for (int j = k - 4; j >= 0 && k - j <= window; j -= 2) {
        if (t->keys[j] != now->key)
            continue;
        if (j1 < 0) {
            j1 = j;
            continue;
        }
        loser = judge_repetition(g, t, n, k, before, now, j1, j);
        break;
    }
    /* The offender's next move after the verdict: going on with the cycle is refusing to
     * change, which loses (Art. 7.1g-h, AXF, CXA 26.4); anything else complies. */
    if (t->pending_loser >= 0 && k > t->pending_ply && before->side == t->pending_loser) {
        if (loser == t->pending_loser)
            end_game(t, opponent_result(loser), t->pending_reason, t->pending_article, k);
        else
            t->pending_loser = -1;
    }
}

void xq_track_close(xq_track *t)
{
    if (!t->end_result && t->pending_loser >= 0)
        end_game(t, opponent_result(t->pending_loser), t->pending_reason, t->pending_article,
                 t->pending_ply);
}
