/* xq_replay.c: replay of a xiangqi record (WXF, article block, xiangqi PGN).
 *
 * Like the chess replay: the main line and every variation from the right position,
 * lines waiting on an explicit list, the rest of a line kept as text after a bad move.
 * Three things are xiangqi's own:
 *   - the notation is found by trial replay (letters are shared between dialects:
 *     'P' is the cannon in Vietnamese, the pawn in English), unless the user fixes it;
 *   - move sequences written in comment prose ("Một là 3…X9.1 4. X1-2 …") are replayed
 *     from the position their first move number and side name; a move there that does
 *     not replay is a comment-line finding at its place in the article;
 *   - DIAG{ #n COLOR } markers are checked against the move number and side to move.
 * Results: checkmate and stalemate both lose for the side to move (Vietnamese law,
 * Art. 7.1a-b). On every line the referee also keeps the position keys: a position
 * that occurs the third time is a repetition cycle, judged by xq_repetition.c under the
 * rule set (--rules: vn, axf, cxa); the natural move limit (Art. 7.2e) and the end for
 * want of attacking material (Art. 7.2a) are watched there too. A variation's findings
 * say "in this variation"; only the main line decides the result. */
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
#include "referee/xq_repetition.h"
#include "referee/tc_game.h"
#include "referee/xq_annex.h"
#include "record/comment_cmd.h"

static const char *side_name(int side) { return side == XQ_RED ? _("Red") : _("Black"); }

/* ---- positions along a line, kept only for lines whose comments need them */

typedef struct line_positions {
    xq_pos *at;              /* at[k]: the position before the line's k-th move (0-based) */
    int count;               /* positions recorded: moves replayed + 1 */
} line_positions;

static bool line_has_comments(const rec_line *line)
{
    if (line->comments)
        return true;
    for (const rec_node *n = line->first; n; n = n->next)
        if (n->comments)
            return true;
    return false;
}

/* ---- replaying lines */

typedef struct xq_track xq_track;

typedef struct pending_line {
    const rec_line *line;
    xq_pos start;
    int start_ply;
    bool main;
    xq_track *track;         /* the line's claims and ends (NULL in a trial run) */
    struct pending_line *next;
} pending_line;

/* What a line keeps for the claims and automatic ends. Cheap per move: a key and a move
 * stored, a look back over the keys since the last capture; moves are classified only
 * when a position occurs the third time (as Pikafish does). A variation starts with a
 * copy of its parent line's up to the move it replaces: the positions before the branch
 * count for its repetitions and its move limit. Only the main line's decides the game. */
struct xq_track {
    const char *prefix;      /* "" on the main line; findings of a variation say so */
    referee_rules rules;     /* VN, AXF or CXA */
    tc_kind tc;              /* the game's time control: the annex (seed 002) in rapid/blitz */
    int limit_plies;         /* natural move limit in plies (both sides' moves) */
    uint64_t *keys;          /* keys[k]: the key after k plies of the main line */
    xq_move *moves;          /* moves[k]: the move of ply k (1-based) */
    int checks[2];           /* checks given by each side since the last capture (AXF) */
    bool draw_claimed;       /* a repetition-draw claim was reported */
    bool limit_claimed;      /* a move-limit-available claim was reported */
    const char *end_result;  /* set when a rule ended the game ("1-0", ...) */
    const char *end_reason;
    const char *end_article; /* the rule that ended it, for the messages */
    int end_ply;
    bool automatic;          /* the end needs no ruling (Art. 7.2a), not a repetition's */
    bool after_end;          /* moves after a ruled end were reported */
    /* A forbidden cycle found at pending_ply: the offender must change (Art. 7.1g-h;
     * AXF; CXA 26.4). If its next move goes on with the cycle, or the record stops in
     * it, it loses. */
    int pending_loser;       /* XQ_RED, XQ_BLACK, or -1 */
    int pending_ply;
    const char *pending_reason, *pending_article;
};

typedef struct xq_replay {
    rec_game *g;
    xqn_notation notation;
    bool report;             /* record findings and statuses (false for a trial run) */
    long branch_budget;      /* plies of history the variations may still copy */
    pending_line *todo;
    tc_kind tc;              /* the game's time control */
    bool illegal_claimed;    /* rapid/blitz: the record ends with a claimed illegal move */
} xq_replay;

static void fen_of(const xq_pos *pos, char fen[XQ_FEN_MAX])
{
    xq_pos_to_fen(pos, fen, XQ_FEN_MAX);
}

static rec_finding *stop_line(rec_game *g, rec_node *bad, const xq_pos *pos, int ply,
                              const char *code, const char *msg)
{
    char fen[XQ_FEN_MAX];
    fen_of(pos, fen);
    return replay_stop_line(g, bad, ply, fen, code, msg);
}

/* ---- claims and automatic ends */

/* A finding of line t about move n at ply k (fen: before it). */
static rec_finding *track_finding(rec_game *g, const xq_track *t, const rec_node *n, int k,
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
        fen_of(before, fen);
        f = track_finding(g, t, n, ply, fen, "no-attacking-material", REC_INFO,
                                _("neither side has a chariot, horse, cannon or soldier left to "
                                "attack the other's general: the game is drawn (Vietnamese law "
                                "Art. 7.2a)"));
    } else {
        fen_of(pos, fen);
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

static xq_track *track_start(rec_game *g, const referee_options *opts, const xq_pos *start)
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

/* Plies of history the variations of one game may copy in all (12 bytes each, and 16
 * more for each track): a bound on memory whatever the number of variations. */
#define XQ_BRANCH_BUDGET (1L << 20)
#define XQ_BRANCH_COST(ply) ((long)(ply) + 16)

/* The track a variation of line parent starts with, branching after ply plies; NULL
 * past the game's branch budget (the variation is then replayed for legality only,
 * said once with a finding). */
static xq_track *track_branch(xq_replay *r, const xq_track *parent, int ply, const rec_line *v)
{
    rec_game *g = r->g;
    if (!v->first) /* an empty variation "()": nothing to judge */
        return NULL;
    if (r->branch_budget >= 0 && XQ_BRANCH_COST(ply) > r->branch_budget) {
        rec_game_add_finding(g, "variations-not-judged", REC_INFO, v->first->where,
                             _("claims and automatic ends are not judged in this variation "
                             "and the later ones: the game's variations already copied "
                             "%ld plies of history (a bound on memory)"), XQ_BRANCH_BUDGET);
        r->branch_budget = -1;
    }
    if (r->branch_budget < 0)
        return NULL;
    r->branch_budget -= XQ_BRANCH_COST(ply);
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
    fen_of(before, fen);
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
                         "%s must change or loses (%s)"), side_name(s), j0 + 1, k,
                         xqrep_piece_name(v.check_piece[s]), side_name(s), art);
            else
                snprintf(msg, sizeof msg, _("%s checks on every move of plies %d-%d with several "
                         "pieces in turn and the position occurs a third time: perpetual check "
                         "is forbidden, %s must change or loses (%s)"), side_name(s), j0 + 1, k,
                         side_name(s), art);
            break;
        case XQREP_PERPETUAL_CHASE:
        case XQREP_MIXED:
        case XQREP_PERPETUAL_KILL:
        default: {
            char what[160] = "";
            if (v.chased_piece[s])
                snprintf(what, sizeof what, _(" %s's %s (on %c%d in UCCI coordinates) with the %s"),
                         side_name(s ^ 1), xqrep_piece_name(XQ_TYPE(v.chased_piece[s])),
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
                         "change or loses (%s)"), side_name(s), what, j0 + 1, k, side_name(s), art);
            } else if (v.fault[s] == XQREP_PERPETUAL_KILL) {
                code = "perpetual-mate-threat";
                reason = s == XQ_RED ? N_("perpetual mate threat by Red, not changed")
                                     : N_("perpetual mate threat by Black, not changed");
                art = _("CXA rules 26.4 (长杀)");
                snprintf(msg, sizeof msg, _("%s threatens mate on every move of plies %d-%d and "
                         "the position occurs a third time: a perpetual mate threat is forbidden, "
                         "%s must change or loses (%s)"), side_name(s), j0 + 1, k, side_name(s),
                         art);
            } else {
                code = "mixed-perpetual";
                reason = s == XQ_RED ? N_("perpetual forcing moves by Red, not changed")
                                     : N_("perpetual forcing moves by Black, not changed");
                art = _("CXA rules 26.4 (一将一捉, 一将一杀, 一杀一捉)");
                snprintf(msg, sizeof msg, _("%s only checks, threatens mate or chases%s on plies "
                         "%d-%d and the position occurs a third time: the mixed perpetual is "
                         "forbidden, %s must change or loses (%s)"), side_name(s), what, j0 + 1, k,
                         side_name(s), art);
            }
            break;
        }
        }
        f = track_finding(g, t, n, k, fen, code, REC_INFO, msg);
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
    f = track_finding(g, t, n, k, fen, "repetition-draw", REC_INFO, msg);
    f->claim = true;
    return -1;
}

/* After main-line move m at ply k (before -> now). */
static void track_move(rec_game *g, xq_track *t, const rec_node *n, int k, const xq_pos *before,
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
        fen_of(before, fen);
        if (t->tc == TC_RAPID || t->tc == TC_BLITZ) {
            /* annex §3: no draw proposal under the move limit in rapid and blitz */
            snprintf(msg, sizeof msg, _("each side has made %d moves without a capture, but in "
                     "%s play no draw is claimed by the move limit (annex §3, not Vietnamese "
                     "law Art. 7.2e)"), t->limit_plies / 2, _(tc_kind_name(t->tc)));
            track_finding(g, t, n, k, fen, "move-limit-not-applied", REC_INFO, msg);
        } else {
            snprintf(msg, sizeof msg, _("each side has made %d moves without a capture%s: a draw "
                     "may be claimed (%s)"), t->limit_plies / 2,
                     t->rules == REFEREE_RULES_AXF ? _(" (at most 10 checks of each side counted)")
                                                   : "",
                     article(t->rules, _("Vietnamese law Art. 7.2e"), _("AXF rules"), _("CXA rules 4.2.4")));
            rec_finding *f = track_finding(g, t, n, k, fen, "move-limit-available", REC_INFO, msg);
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
    fen_of(pos, fen);
    if (!n->next && p->main && tc_opponent_won(g, xq_pos_side(pos) == XQ_RED)) {
        if (fault == XQ_ANNEX_GENERAL_EXPOSED && r->tc == TC_RAPID)
            snprintf(msg + len, size - len, _("; in rapid play the claim makes it a technical "
                     "fault, a loss if it is %s's second (annex §4.4, §5): the result "
                     "stands"), side_name(xq_pos_side(pos)));
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
                 "it: in %s play %s (annex §4.4)"), side_name(xq_pos_side(pos) ^ 1), tc,
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
             "stands and the game goes on (annex §4.3)"), tc, side_name(xq_pos_side(pos) ^ 1));
    n->status = REC_MOVE_OK;
    n->move = m;
    replay_move_finding(g, n, ply, fen, "illegal-move-stands",
                        p->main ? REC_WARNING : REC_INFO, msg);
    return ANNEX_STANDS;
}

/* Replay one line from p->start. Returns the number of moves replayed; *complete tells
 * whether the whole line was. Fills lp (when not NULL) with the positions. */
static int replay_line(xq_replay *r, const pending_line *p, xq_pos *end, bool *complete,
                       line_positions *lp)
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
                                     .track = track ? track_branch(r, track, ply, v) : NULL};
                r->todo = pl;
            }
        ply++;
        if (r->report && !replay_move_number_ok(n, (int)pos.fullmove, pos.side == XQ_BLACK)) {
            char fen[XQ_FEN_MAX];
            fen_of(&pos, fen);
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
            fen_of(&pos, fen);
            size_t len = strlen(msg);
            if (!track->automatic)
                snprintf(msg + len, sizeof msg - len,
                         _("; the record goes on as if no ruling was made"));
            track_finding(g, track, n, ply, fen, "moves-after-end", REC_WARNING, msg);
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
                         "the game was already over"), side_name(pos.side), n->text,
                         side_name(pos.side), xq_in_check(&pos) ? _("checkmate") : _("stalemate"));
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
                snprintf(msg, sizeof msg, _("%s %s is illegal: %s"), side_name(pos.side), n->text,
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
                     "should have been claimed (annex §4.2, §4.4)"), side_name(pos.side), n->text);
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
            track_move(g, track, n, ply, &before, res.move, &pos);
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

/* ---- comments: DIAG markers and lines written in prose */

/* Place of byte k of a comment's text in the input: the text starts two columns after
 * the comment's opener ("/" of "/ *"); CR LF and LF end lines; columns count
 * characters. */
static rec_span comment_place(const rec_game *g, const rec_comment *c, size_t k)
{
    rec_span w = rec_game_locate(g, c->where);
    rec_span at = {w.line, w.column + 2, w.offset + 2 + k};
    for (size_t i = 0; i < k; i++) {
        unsigned char ch = (unsigned char)c->text[i];
        if (ch == '\n') {
            at.line++;
            at.column = 1;
        } else if (ch != '\r' && (ch & 0xC0) != 0x80) {
            at.column++;
        }
    }
    return at;
}

/* DIAG{ #n COLOR }: Red (or RED) / Black, BLUE meaning Black (Art. 2.2: with red and
 * blue pieces red counts as White, blue as Black). */
static void check_diagram(rec_game *g, const rec_comment *c, const xq_pos *pos)
{
    unsigned number = 0;
    char color[16] = "";
    if (sscanf(c->text, " #%u %15s", &number, color) != 2) {
        rec_game_add_finding(g, "diagram-mismatch", REC_WARNING, c->where,
                             _("diagram marker '%s' is not of the form '#n RED' or '#n BLACK'"),
                             c->text);
        return;
    }
    int side = strcasecmp(color, "RED") == 0 ? XQ_RED
               : (strcasecmp(color, "BLACK") == 0 || strcasecmp(color, "BLUE") == 0) ? XQ_BLACK
                                                                                       : -1;
    if (side < 0) {
        rec_game_add_finding(g, "diagram-mismatch", REC_WARNING, c->where,
                             _("diagram marker colour '%s' is none of RED, BLACK, BLUE"), color);
    } else if (number != pos->fullmove || side != pos->side) {
        rec_game_add_finding(g, "diagram-mismatch", REC_WARNING, c->where,
                             _("diagram marker says move %u, %s to play, but here it is move %u, "
                             "%s to play"), number, side_name(side), pos->fullmove,
                             side_name(pos->side));
    }
}

/* One whitespace-separated word of a comment, with its byte range. */
typedef struct word {
    size_t start, len;
} comment_word;

static bool next_word(const char *text, size_t *at, comment_word *w)
{
    size_t i = *at;
    while (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')
        i++;
    if (!text[i])
        return false;
    w->start = i;
    /* parentheses are words of their own */
    if (text[i] == '(' || text[i] == ')') {
        w->len = 1;
        *at = i + 1;
        return true;
    }
    while (text[i] && text[i] != ' ' && text[i] != '\t' && text[i] != '\n' && text[i] != '\r' &&
           text[i] != '(' && text[i] != ')')
        i++;
    w->len = i - w->start;
    *at = i;
    return true;
}

/* A move number at the start of s: "7." (Red), "3…" / "3..." / "7. …" (Black).
 * Returns the bytes used (0 if none) and sets *number, *black. */
static size_t move_number_at(const char *s, size_t len, unsigned *number, int *black)
{
    size_t i = 0;
    unsigned n = 0;
    while (i < len && s[i] >= '0' && s[i] <= '9' && i < 4)
        n = n * 10 + (unsigned)(s[i++] - '0');
    if (i == 0 || i == len + 1)
        return 0;
    if (i + 3 <= len && memcmp(s + i, "\xe2\x80\xa6", 3) == 0) { /* … */
        *number = n, *black = 1;
        return i + 3;
    }
    if (i + 3 <= len && memcmp(s + i, "...", 3) == 0) {
        *number = n, *black = 1;
        return i + 3;
    }
    if (i < len && s[i] == '.') {
        *number = n, *black = 0;
        return i + 1;
    }
    return 0;
}

static bool is_ellipsis(const char *s, size_t len)
{
    return (len == 3 && memcmp(s, "\xe2\x80\xa6", 3) == 0) || (len == 3 && memcmp(s, "...", 3) == 0);
}

/* Whether a word of a comment is meant as a move: the notation's syntax fits (allowing
 * one stray trailing '.'), or it starts like one (an upper-case piece letter and a digit
 * or tandem mark, as in the typo "M716."), so that a botched move is reported, not
 * taken for prose. */
static bool looks_like_move(const char *word, xqn_notation notation)
{
    if (xqn_syntax_fits(word) & XQN_BIT(notation))
        return true;
    size_t len = strlen(word);
    if (len > 1 && len < 63 && word[len - 1] == '.') {
        char trimmed[64];
        memcpy(trimmed, word, len - 1);
        trimmed[len - 1] = '\0';
        if (xqn_syntax_fits(trimmed) & XQN_BIT(notation))
            return true;
    }
    if (notation != XQN_WXF && notation != XQN_VIETNAMESE)
        return false;
    return word[0] >= 'A' && word[0] <= 'Z' && word[1] &&
           ((word[1] >= '0' && word[1] <= '9') || strchr("tsg+-.=", word[1]));
}

#define COMMENT_NEST_MAX 32

/* Suggestions for a move of a comment line that does not replay; the rest of that
 * line is the moves written after it up to the prose that ends it. */
static void comment_suggestions(rec_game *g, rec_finding *f, const char *text, size_t at,
                                const xq_pos *pos, xqn_notation notation, const char *written,
                                size_t written_len)
{
    const char *rest[64];
    char store[64][24];
    int nrest = 0;
    comment_word w;
    while (nrest < 64 && next_word(text, &at, &w)) {
        const char *s = text + w.start;
        size_t len = w.len;
        unsigned number;
        int black;
        size_t used = move_number_at(s, len, &number, &black);
        if (used == len || is_ellipsis(s, len))
            continue;
        s += used, len -= used;
        while (len > 0 && (s[len - 1] == ',' || s[len - 1] == ';' || s[len - 1] == ':'))
            len--;
        if (len == 0 || len >= sizeof store[0])
            break;
        memcpy(store[nrest], s, len);
        store[nrest][len] = '\0';
        if (!looks_like_move(store[nrest], notation))
            break;
        rest[nrest] = store[nrest];
        nrest++;
    }
    fixit_result fr;
    fixit_xq(pos, notation, written, rest, nrest, &fr);
    if (fr.count > 0 && fr.cand[0].kind == FIXIT_SWAP)
        fr.full = false; /* a swap inside prose is only suggested */
    fixit_attach(g, f, &fr, NULL, (uint32_t)written_len);
}

/* Replay the move sequences written in comment c, from the positions of its line. */
static void replay_comment_lines(rec_game *g, const rec_comment *c, const line_positions *lp,
                                 xqn_notation notation)
{
    const char *text = c->text;
    size_t at = 0;
    comment_word w;
    bool active = false;          /* inside a sequence */
    bool broken = false;          /* the sequence hit a move that does not replay: its
                                   * later moves cannot be checked, until prose ends it */
    xq_pos pos, before_last;      /* the sequence's position; before its last move */
    bool have_last = false;
    xq_pos stack[COMMENT_NEST_MAX];
    int depth = 0;
    char wordbuf[64];

    while (next_word(text, &at, &w)) {
        const char *s = text + w.start;
        size_t len = w.len;
        if (len == 1 && s[0] == '(') {
            if (active && have_last && depth < COMMENT_NEST_MAX) {
                stack[depth++] = pos;   /* an alternative to the last move */
                pos = before_last;
                have_last = false;
            }
            continue;
        }
        if (len == 1 && s[0] == ')') {
            if (depth > 0) {
                pos = stack[--depth];
                have_last = false;
            }
            continue;
        }
        unsigned number;
        int black;
        size_t used = move_number_at(s, len, &number, &black);
        if (used && broken)
            continue;
        if (used) {
            /* "7." then "…" means Black */
            if (!black && used == len) {
                size_t save = at;
                comment_word peek;
                if (next_word(text, &save, &peek) && is_ellipsis(text + peek.start, peek.len)) {
                    black = 1;
                    at = save;
                }
            }
            int side = black ? XQ_BLACK : XQ_RED;
            if (!active) {
                /* a new sequence: from the line's position with that number and side */
                int k = 0;
                while (k < lp->count && !(lp->at[k].fullmove == number && lp->at[k].side == side))
                    k++;
                if (k == lp->count) {
                    rec_span where = comment_place(g, c, w.start);
                    rec_game_add_finding(g, "comment-line", REC_WARNING, where,
                                         _("the line in this comment starts at move %u (%s), "
                                         "which its game line does not reach"), number,
                                         side_name(side));
                    active = false;
                    continue;
                }
                pos = lp->at[k];
                active = true;
                have_last = false;
            } else if (number != pos.fullmove || side != pos.side) {
                rec_span where = comment_place(g, c, w.start);
                rec_game_add_finding(g, "comment-line", REC_WARNING, where,
                                     _("move number %u (%s) in this comment should be %u (%s)"),
                                     number, side_name(side), pos.fullmove, side_name(pos.side));
            }
            if (used == len)
                continue;
            s += used, len -= used;         /* "3…X9.1": the move follows, glued */
        }
        if (!active && !broken)
            continue;
        /* trailing punctuation of the prose around the move */
        while (len > 0 && (s[len - 1] == ',' || s[len - 1] == ';' || s[len - 1] == ':'))
            len--;
        if (len == 0 || len >= sizeof wordbuf)
            continue;
        memcpy(wordbuf, s, len);
        wordbuf[len] = '\0';
        if (!looks_like_move(wordbuf, notation)) {
            /* prose: inside parentheses words like "hoặc" (or) are skipped; outside
             * they end the sequence */
            if (depth == 0)
                active = broken = false;
            continue;
        }
        if (broken)
            continue;
        xqn_result res;
        xqn_parse(&pos, notation, wordbuf, &res);
        if (res.status != XQN_OK) {
            rec_span where = comment_place(g, c, (size_t)(s - text));
            char fen[XQ_FEN_MAX];
            fen_of(&pos, fen);
            rec_finding *f = rec_game_add_finding(
                g, "comment-line", REC_WARNING, where,
                _("%s %s in this comment does not replay: %s"), side_name(pos.side), wordbuf,
                res.reason);
            f->move_text = arena_strdup(g->arena, wordbuf);
            f->fen = arena_strdup(g->arena, fen);
            comment_suggestions(g, f, text, at, &pos, notation, wordbuf, len);
            active = false;
            broken = true;
            depth = 0;
            continue;
        }
        before_last = pos;
        have_last = true;
        xq_undo undo;
        xq_make(&pos, res.move, &undo);
    }
}

static void check_line_comments(rec_game *g, const rec_line *line, const line_positions *lp,
                                xqn_notation notation)
{
    int k = 0;
    const rec_comment *c = line->comments;
    const rec_node *n = line->first;
    for (;;) {
        for (; c; c = c->next) {
            if (k >= lp->count)
                return; /* after a bad move: the position is unknown */
            if (c->diagram)
                check_diagram(g, c, &lp->at[k]);
            else
                replay_comment_lines(g, c, lp, notation);
        }
        if (!n)
            return;
        c = n->comments;
        n = n->next;
        k++;
    }
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

static bool start_position(rec_game *g, xq_pos *pos)
{
    char err[200];
    if (referee_xiangqi_start(g, pos, err, sizeof err))
        return true;
    const rec_tag *t = g->tags;
    while (t && strcmp(t->name, "FEN") != 0)
        t = t->next;
    rec_game_add_finding(g, "bad-fen", REC_ERROR, t ? t->where : g->start,
                         _("the FEN does not give a usable position: %s; the moves are not "
                         "replayed"), err);
    return false;
}

/* The declared result: the termination marker, else a Result (PGN) or RESULT (WXF) tag. */
static const char *declared_result(const rec_game *g, rec_span *where)
{
    const char *r = referee_normal_result(g->result);
    if (r) {
        *where = g->result_where;
        return r;
    }
    for (const rec_tag *t = g->tags; t; t = t->next)
        if (strcmp(t->name, "Result") == 0 || strcmp(t->name, "RESULT") == 0) {
            *where = t->where;
            return referee_normal_result(t->value);
        }
    return NULL;
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
            if (tc_text_says_time(c->text))
                return true;
            if (!strstr(c->text, "%clk"))
                continue;
            /* [%clk 0:00:00] on one of the last two moves (PGN Specification Supplement) */
            for (rec_command *cmd = rec_comment_commands(g->arena, c->text, NULL); cmd;
                 cmd = cmd->next)
                if (cmd->kind == REC_CMD_CLK && cmd->valid && cmd->seconds < 0.05)
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
    fen_of(end, fen);
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
                                     "the result stands (annex §8)"), side_name(winner), text);
        } else {
            f = rec_game_add_finding(g, "unwinnable-timeout", REC_INFO, where,
                                     _("%s won on time; whether %s can still checkmate is "
                                     "undetermined after %ld nodes (annex §8): the result "
                                     "stands"), side_name(winner), side_name(winner), nodes);
        }
        f->fen = arena_strdup(g->arena, fen);
        return;
    }
    if (TC_FAST(tc)) {
        f = rec_game_add_finding(g, "unwinnable-timeout", REC_ERROR, where,
                                 _("%s won on time but cannot checkmate by any series of legal "
                                 "moves (%s): in %s play the game is drawn, the result should "
                                 "be 1/2-1/2 (annex §8)"), side_name(winner), why,
                                 _(tc_kind_name(tc)));
        g->derived_result = "1/2-1/2";
        g->derived_reason = N_("time win without mating material");
    } else {
        f = rec_game_add_finding(g, "unwinnable-timeout", REC_INFO, where,
                                 _("%s won on time and cannot checkmate by any series of legal "
                                 "moves (%s): in a standard game the result stands (Vietnamese "
                                 "law Art. 7.1d; rapid and blitz would draw it, annex §8)"),
                                 side_name(winner), why);
    }
    f->fen = arena_strdup(g->arena, fen);
}

static void judge_result(rec_game *g, const xq_pos *end, bool complete, const xq_track *t,
                         const xq_replay *r)
{
    if (r->illegal_claimed) {
        /* annex §4.2, §4.4: the record ends with the claimed illegal move and the loss */
        g->derived_result = tc_declared_result(g);
        g->derived_reason = N_("illegal move claimed");
        return;
    }
    if (t && t->end_result) {
        /* a rule ended the game before the record did, or where it did */
        g->derived_result = t->end_result;
        g->derived_reason = t->end_reason;
        rec_span where = g->start;
        const char *declared = declared_result(g, &where);
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
    const char *declared = declared_result(g, &where);
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
                             side_name(end->side), _(tc_kind_name(r->tc)), g->derived_result);
        return;
    }
    rec_game_add_finding(g, "result-contradicts-board",
                         strcmp(declared, "*") == 0 ? REC_WARNING : REC_ERROR, where,
                         _("the result %s contradicts the board: %s is %s, which loses "
                         "(Art. 7.1), so the result is %s"), declared, side_name(end->side),
                         _(g->derived_reason), g->derived_result);
}

void referee_xiangqi_game(rec_game *g, const referee_options *opts)
{
    xq_pos start;
    if (!start_position(g, &start))
        return;
    xq_replay r = {.g = g, .report = true, .branch_budget = XQ_BRANCH_BUDGET};
    r.notation = choose_notation(g, &start, opts);
    r.tc = referee_time_control(g, opts);

    pending_line *main = arena_alloc(g->arena, sizeof *main);
    *main = (pending_line){.line = &g->main, .start = start, .main = true,
                           .track = track_start(g, opts, &start)};
    main->track->tc = r.tc;
    r.todo = main;
    while (r.todo) {
        pending_line *p = r.todo;
        r.todo = p->next;
        line_positions lp = {0};
        bool want_positions = line_has_comments(p->line);
        xq_pos end;
        bool complete;
        int moves = replay_line(&r, p, &end, &complete, want_positions ? &lp : NULL);
        if (want_positions)
            check_line_comments(g, p->line, &lp, r.notation);
        if (p->main) {
            g->plies = (uint32_t)moves;
            char fen[XQ_FEN_MAX];
            fen_of(&end, fen);
            g->final_fen = arena_strdup(g->arena, fen);
            /* the record stops inside a forbidden cycle: the offender did not change */
            xq_track *t = p->track;
            if (!t->end_result && t->pending_loser >= 0)
                end_game(t, opponent_result(t->pending_loser), t->pending_reason,
                         t->pending_article, t->pending_ply);
            judge_result(g, &end, complete, t, &r);
        }
    }
}
