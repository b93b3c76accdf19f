/* puzzle_check.c: second solutions and false solutions of puzzles (see puzzle_check.h;
 * issue 26, arbiter-check(1) PUZZLES).
 *
 * Mate puzzles: the solver's move must keep a mate in the moves left (mate_search:
 * the defender's every reply), and no other move may mate in as many or fewer. The
 * last move of a puzzle longer than one move is not asked for a second mate: lichess
 * accepts any mate there, and composers call it a dual, not a cook.
 * Other puzzles (--engine): each legal move's resulting position is evaluated (one
 * engine call per move, cached), and the solver's win chances as lichess computes
 * them are compared with PUZZLE_WIN, the lower edge of the +- band (0.45), with the
 * margin eval-contradicted allows (0.10): the move played must keep at least 0.35,
 * another move reaching 0.55 is a second solution. */
#define _GNU_SOURCE
#include "engine/puzzle_check.h"

#include <stdio.h>
#include <string.h>

#include "core/chess.h"
#include "core/variant.h"
#include "core/xiangqi.h"
#include "engine/annot_check.h"
#include "engine/annot_engine.h"
#include "engine/mate_claim.h"
#include "engine/mate_search.h"
#include "i18n/i18n.h"
#include "notation/chess_san.h"
#include "notation/xq_notation.h"
#include "referee/referee.h"
#include "referee/replay_util.h"

#define PUZZLE_WIN 0.45        /* the +- band's lower edge, in win chances */
#define PUZZLE_MARGIN 0.10     /* as eval-contradicted: no verdict on the band's edge */
#define PUZZLE_ALTS_MAX 8      /* second solutions named in one finding */

static bool judge_all;

void puzzle_check_configure(bool all) { judge_all = all; }

/* The tags that name a puzzle, and the words that do (ASCII case-insensitive). */
static const char *const puzzle_tags[] = {"Event", "Annotator", "White", "Black", "Site"};
static const char *const puzzle_words[] = {
    "puzzle", "problem", "study", "tactic", "exercise", "mate in", "#2", "#3",
    "задач", "этюд", "Задач", "Этюд",
    "bài tập", "câu đố", "Bài tập", "Câu đố", "thế cờ", "Thế cờ",
    "排局", "習題", "习题", "杀法", "殺法",
};   /* not 残局 "endgame": a book of endings from games is no book of puzzles */

static bool names_puzzle(const char *text)
{
    for (size_t i = 0; i < sizeof puzzle_words / sizeof puzzle_words[0]; i++)
        if (strcasestr(text, puzzle_words[i]))
            return true;
    return false;
}

/* Whether the game starts from a set-up position: a FEN other than the start. */
static bool from_setup(const rec_game *g)
{
    const char *fen = rec_game_tag(g, "FEN");
    if (!fen)
        return false;
    const char *start = g->kind == REC_XIANGQI ? variant_xiangqi.start_fen : variant_chess.start_fen;
    size_t placement = strcspn(start, " ");
    return strncmp(fen, start, placement) != 0 || (fen[placement] && fen[placement] != ' ');
}

/* A claim of mate in N in the puzzle's tags or its opening comment; 0 if none. */
static int claimed_mate(const rec_game *g)
{
    mate_claim c;
    for (size_t i = 0; i < sizeof puzzle_tags / sizeof puzzle_tags[0]; i++) {
        const char *v = rec_game_tag(g, puzzle_tags[i]);
        if (v && mate_claim_find(g->arena, v, &c))
            return c.moves;
    }
    for (const rec_comment *k = g->main.comments; k; k = k->next)
        if (!k->diagram && k->text && mate_claim_find(g->arena, k->text, &c))
            return c.moves;
    return 0;
}

bool puzzle_check_selected(const rec_game *g)
{
    if (!from_setup(g))
        return false;
    if (judge_all || claimed_mate(g))
        return true;
    for (size_t i = 0; i < sizeof puzzle_tags / sizeof puzzle_tags[0]; i++) {
        const char *v = rec_game_tag(g, puzzle_tags[i]);
        if (v && names_puzzle(v))
            return true;
    }
    return false;
}

typedef struct puzzle {
    rec_game *g;
    const variant *v;
    bool xq;
    int solver;              /* 0 White/Red, 1 Black */
} puzzle;

static int side_of(const puzzle *p, const void *pos)
{
    return p->xq ? xq_pos_side(pos) : chess_pos_side(pos);
}

/* The side to move has lost: mated (chess), or no legal move at all (xiangqi). */
static bool is_mated(const puzzle *p, const void *pos)
{
    uint16_t moves[VARIANT_MAX_MOVES];
    return p->v->gen_legal(pos, moves) == 0 && (p->xq || p->v->in_check(pos));
}

static void move_name(const puzzle *p, const void *pos, uint16_t m, char *buf, size_t size)
{
    if (p->xq)
        xqn_format_legal(pos, m, XQN_WXF, 0, buf, size);
    else
        chess_notation_format(pos, m, CHESS_NOTATION_SAN, buf, size);
}

/* Does move m of pos keep a mate in at most left moves of the solver (m counted)? */
static mate_verdict mates_within(const puzzle *p, const void *pos, uint16_t m, int left)
{
    variant_pos after;
    variant_undo u;
    memcpy(&after, pos, sizeof after);
    p->v->make(&after, m, &u);
    if (is_mated(p, &after))
        return MATE_FOUND;
    if (left <= 1)
        return MATE_NONE;
    return mate_search_defender(p->v, &after, left - 1, 0).verdict;
}

/* Append a move's name to a list "a, b, c" in buf. */
static void list_add(char *buf, size_t size, const char *name)
{
    size_t len = strlen(buf);
    snprintf(buf + len, size - len, "%s%s", len ? ", " : "", name);
}

static rec_finding *add_finding(puzzle *p, const rec_node *n, int ply, const void *before,
                                const char *code, const char *msg, const char *eval,
                                const char *best)
{
    char fen[128];
    p->v->to_fen(before, fen, sizeof fen);
    rec_finding *f = replay_move_finding(p->g, n, ply, fen, code, REC_WARNING, msg);
    f->engine_eval = arena_strdup(p->g->arena, eval);
    f->engine_best = arena_strdup(p->g->arena, best);
    return f;
}

/* The solver's move n from pos with left moves to mate: false when the line is unsound
 * there (the later moves are then not judged). */
static bool judge_mate_move(puzzle *p, const rec_node *n, int ply, const void *pos, int left,
                            bool last_dual_ok)
{
    char eval[16], msg[600], alts[200] = "";
    snprintf(eval, sizeof eval, "%s#%d", p->solver == 0 ? "" : "-", left);
    mate_verdict played = mates_within(p, pos, n->move, left);
    if (played == MATE_UNKNOWN)
        return false;   /* too large for the search: nothing said, nothing judged after */
    if (played == MATE_NONE) {
        mate_result r = mate_search_attacker(p->v, pos, left, 0);
        if (r.verdict == MATE_UNKNOWN)
            return false;
        if (r.verdict == MATE_FOUND) {
            move_name(p, pos, r.first, alts, sizeof alts);
            snprintf(msg, sizeof msg,
                     _("puzzle: %s does not mate in %d, so the solution fails here; the mate "
                       "in %d begins with %s"),
                     n->text, left, r.moves, alts);
        } else {
            snprintf(msg, sizeof msg,
                     _("puzzle: %s does not mate in %d, and no move mates in %d here: the "
                       "puzzle has no solution from this position"),
                     n->text, left, left);
            snprintf(alts, sizeof alts, "-");
            snprintf(eval, sizeof eval, "-");
        }
        add_finding(p, n, ply, pos, "puzzle-unsound", msg, eval, alts);
        return false;
    }
    if (last_dual_ok)
        return true;
    uint16_t moves[VARIANT_MAX_MOVES];
    int count = p->v->gen_legal(pos, moves), found = 0;
    for (int i = 0; i < count && found < PUZZLE_ALTS_MAX; i++) {
        if (moves[i] == n->move || mates_within(p, pos, moves[i], left) != MATE_FOUND)
            continue;
        char name[XQN_FORMAT_BUFSIZE];
        move_name(p, pos, moves[i], name, sizeof name);
        list_add(alts, sizeof alts, name);
        found++;
    }
    if (found) {
        snprintf(msg, sizeof msg,
                 _("puzzle: %s is not the only solution; other moves mate in %d or fewer "
                   "too: %s"),
                 n->text, left, alts);
        add_finding(p, n, ply, pos, "puzzle-cook", msg, eval, alts);
    }
    return true;
}

/* The solver's move n from pos judged by the engine: false when the line is unsound
 * there or the engine failed. */
static bool judge_engine_move(puzzle *p, const rec_node *n, int ply, const void *pos)
{
    uint16_t moves[VARIANT_MAX_MOVES];
    int count = p->v->gen_legal(pos, moves);
    double played_wc = -2, best_wc = -2;
    int best = -1, found = 0;
    double wc[VARIANT_MAX_MOVES];
    for (int i = 0; i < count; i++) {
        variant_pos after;
        variant_undo u;
        memcpy(&after, pos, sizeof after);
        p->v->make(&after, moves[i], &u);
        int cp;
        if (!annot_engine_score(p->g, &after, &cp))
            return false;
        wc[i] = annot_engine_win_chances(-cp);   /* the solver's view */
        if (moves[i] == n->move)
            played_wc = wc[i];
        else if (wc[i] > best_wc) {
            best_wc = wc[i];
            best = i;
        }
    }
    char msg[700], alts[200] = "", eval[32] = "-", name[XQN_FORMAT_BUFSIZE];
    const char *engine = annot_engine_label(p->g);
    if (played_wc < PUZZLE_WIN - PUZZLE_MARGIN) {
        if (best >= 0) {
            variant_pos after;
            variant_undo u;
            memcpy(&after, pos, sizeof after);
            p->v->make(&after, moves[best], &u);
            move_name(p, pos, moves[best], alts, sizeof alts);
            annot_engine_eval_text(p->g, &after, eval, sizeof eval);
        } else
            snprintf(alts, sizeof alts, "-");
        snprintf(msg, sizeof msg,
                 _("puzzle: %s does not win: the engine (%s) gives the solver %+.2f win "
                   "chances after it (a win needs %.2f); its best move is %s (%s)"),
                 n->text, engine, played_wc, PUZZLE_WIN, alts, eval);
        add_finding(p, n, ply, pos, "puzzle-unsound", msg, eval, alts);
        return false;
    }
    for (int i = 0; i < count && found < PUZZLE_ALTS_MAX; i++) {
        if (moves[i] == n->move || wc[i] < PUZZLE_WIN + PUZZLE_MARGIN)
            continue;
        move_name(p, pos, moves[i], name, sizeof name);
        list_add(alts, sizeof alts, name);
        found++;
    }
    if (found) {
        variant_pos after;
        variant_undo u;
        memcpy(&after, pos, sizeof after);
        p->v->make(&after, moves[best], &u);
        annot_engine_eval_text(p->g, &after, eval, sizeof eval);
        move_name(p, pos, moves[best], name, sizeof name);
        snprintf(msg, sizeof msg,
                 _("puzzle: %s is not the only winning move: the engine (%s) finds %s winning "
                   "too (%s %s, win chances %+.2f for the solver)"),
                 n->text, engine, alts, name, eval, best_wc);
        add_finding(p, n, ply, pos, "puzzle-cook", msg, eval, alts);
    }
    return true;
}

/* Mate in how many of the solver's moves the puzzle is: the claim, else the main
 * line's own length when it ends in the solver's mate or in a solver's move written
 * as mate ('#': the author's claim); 0 when it is no mate puzzle. */
static int mate_length(const puzzle *p, const void *start)
{
    int claim = claimed_mate(p->g);
    if (claim)
        return claim;
    variant_pos pos;
    memcpy(&pos, start, sizeof pos);
    int plies = 0;
    const rec_node *last = NULL;
    for (const rec_node *n = p->g->main.first; n; n = n->next, plies++) {
        if (n->status != REC_MOVE_OK)
            return 0;
        variant_undo u;
        p->v->make(&pos, n->move, &u);
        last = n;
    }
    if (plies == 0 || plies % 2 == 0)
        return 0;   /* no move, or the defender's move ends the line */
    if (!is_mated(p, &pos) && !strchr(last->text, '#'))
        return 0;
    return (plies + 1) / 2;
}

void puzzle_check_game(rec_game *g)
{
    if (!puzzle_check_selected(g))
        return;
    puzzle p = {g, g->kind == REC_XIANGQI ? &variant_xiangqi : &variant_chess,
                g->kind == REC_XIANGQI, 0};
    variant_pos pos;
    char err[200];
    if (!(p.xq ? referee_xiangqi_start(g, (xq_pos *)&pos, err, sizeof err)
               : referee_chess_start(g, (chess_pos *)&pos, err, sizeof err)))
        return;   /* the referee has reported the FEN */
    p.solver = side_of(&p, &pos);
    int mate = mate_length(&p, &pos);
    bool by_search = mate >= 1 && mate <= ANNOT_MATE_MAX;
    if (!by_search && !annot_engine_enabled())
        return;   /* not a short mate, and no engine: not judged */
    int ply = 0, solver_moves = 0;
    for (const rec_node *n = g->main.first; n && n->status == REC_MOVE_OK; n = n->next) {
        ply++;
        if (side_of(&p, &pos) == p.solver) {
            int left = mate - solver_moves++;
            bool ok;
            if (by_search) {
                if (left < 1)
                    break;   /* past the mate: the move before has been reported */
                ok = judge_mate_move(&p, n, ply, &pos, left, left == 1 && mate > 1);
            } else
                ok = judge_engine_move(&p, n, ply, &pos);
            if (!ok)
                break;
        }
        variant_undo u;
        p.v->make(&pos, n->move, &u);
    }
}
