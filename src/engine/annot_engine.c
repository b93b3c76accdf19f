/* annot_engine.c: engine-backed annotation checks (see annot_engine.h).
 *
 * Win chances as lichess computes them, 2/(1+exp(-0.00368208*cp))-1, from -1 (lost) to
 * +1 (won); the symbol bands and the move-mark thresholds are in arbiter-check(1). */
#define _GNU_SOURCE
#include "engine/annot_engine.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/chess.h"
#include "core/variant.h"
#include "core/xiangqi.h"
#include "engine/eval_cache.h"
#include "engine/uci.h"
#include "i18n/i18n.h"
#include "notation/chess_san.h"
#include "notation/xq_notation.h"
#include "referee/referee.h"
#include "referee/replay_util.h"

#define MATE_CP ANNOT_ENGINE_MATE_CP
#define EVAL_MARGIN 0.10      /* win chances outside a symbol's band before it is judged wrong */
#define MARK_MISTAKE 0.20     /* lichess: a mistake loses 0.2 win chances */
#define MARK_NEAR_BEST 0.05   /* ?/?? on a move this close to the best one is contradicted */

static annot_engine_options opts;
static bool enabled;
static double started;
static atomic_long analysed, hits;
static atomic_bool failed_any;
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;

typedef struct worker_state {
    uci_engine *engine[2];   /* [0] chess, [1] xiangqi */
    bool dead[2];
    eval_cache *cache;
    bool cache_tried;
    struct worker_state *next;
} worker_state;
static worker_state *registry;
static _Thread_local worker_state *mine;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void annot_engine_configure(const annot_engine_options *o)
{
    opts = *o;
    enabled = o->command != NULL;
    if (opts.nodes <= 0 && opts.depth <= 0)
        opts.nodes = 100000;
    started = now();
}

bool annot_engine_enabled(void) { return enabled; }

static worker_state *state(void)
{
    if (!mine) {
        mine = calloc(1, sizeof *mine);
        if (!mine)
            return NULL;
        pthread_mutex_lock(&registry_lock);
        mine->next = registry;
        registry = mine;
        pthread_mutex_unlock(&registry_lock);
    }
    return mine;
}

static void report_failure(const char *err)
{
    if (!atomic_exchange(&failed_any, true))
        fprintf(stderr, "arbiter: %s\n", err);
}

/* The engine for kind, started on first use; NULL when it cannot run. */
static uci_engine *engine_for(worker_state *w, int kind)
{
    if (w->dead[kind])
        return NULL;
    if (!w->engine[kind] || uci_failed(w->engine[kind])) {
        if (w->engine[kind]) {
            w->dead[kind] = true;
            return NULL;
        }
        char err[400];
        const char *cmd = opts.command;
        /* "stockfish" plays no xiangqi: Fairy-Stockfish does both (a path to
         * stockfish, /usr/games/stockfish, is asked for the one beside it) */
        char fairy[1024];
        const char *base = strrchr(cmd, '/') ? strrchr(cmd, '/') + 1 : cmd;
        if (kind == 1 && strcmp(base, "stockfish") == 0) {
            snprintf(fairy, sizeof fairy, "%.*sfairy-stockfish", (int)(base - cmd), cmd);
            cmd = fairy;
        }
        w->engine[kind] = uci_open(cmd, kind ? "xiangqi" : NULL, 10, err, sizeof err);
        if (!w->engine[kind]) {
            w->dead[kind] = true;
            report_failure(err);
            return NULL;
        }
    }
    if (!w->cache_tried) {
        w->cache_tried = true;
        char path[1024], err[1200];
        if (opts.cache)
            snprintf(path, sizeof path, "%s", opts.cache);
        else
            eval_cache_default_path(path, sizeof path);
        w->cache = eval_cache_open(path, err, sizeof err);
        if (!w->cache && w == registry && !registry->next)
            fprintf(stderr, "arbiter: %s\n", err);
    }
    return w->engine[kind];
}

/* The side to move's score in centipawns (mates as +-MATE_CP), and the best line. */
static bool evaluate(worker_state *w, const rec_game *g, const variant *v, const void *pos,
                     int *cp, uci_eval *ev)
{
    int kind = g->kind == REC_XIANGQI;
    uint16_t moves[VARIANT_MAX_MOVES];
    memset(ev, 0, sizeof *ev);
    if (v->gen_legal(pos, moves) == 0) {   /* the game is over here: no engine needed */
        *cp = (kind || v->in_check(pos)) ? -MATE_CP : 0;
        return true;
    }
    uci_engine *e = engine_for(w, kind);
    if (!e)
        return false;
    char fen[128], key[600];
    v->to_fen(pos, fen, sizeof fen);
    /* the move counters do not change the evaluation: drop them from the key */
    for (int spaces = 0, i = 0; fen[i]; i++)
        if (fen[i] == ' ' && ++spaces == 4) {
            fen[i] = '\0';
            break;
        }
    snprintf(key, sizeof key, "%s|Threads=1,Hash=16%s|%s=%ld|%s", uci_name(e),
             kind ? ",UCI_Variant=xiangqi" : "", opts.nodes > 0 ? "nodes" : "depth",
             opts.nodes > 0 ? opts.nodes : (long)opts.depth, fen);
    if (w->cache && eval_cache_get(w->cache, key, ev)) {
        atomic_fetch_add(&hits, 1);
    } else {
        v->to_fen(pos, fen, sizeof fen);
        uci_limit lim = {.nodes = opts.nodes, .depth = opts.depth, .timeout = 60};
        char err[400];
        if (!uci_evaluate(e, fen, &lim, ev, err, sizeof err)) {
            report_failure(err);
            return false;
        }
        atomic_fetch_add(&analysed, 1);
        if (w->cache)
            eval_cache_put(w->cache, key, ev);
    }
    *cp = ev->mate ? (ev->score > 0 ? MATE_CP : -MATE_CP) : ev->score;
    return true;
}

static double win_chances(int cp) { return 2.0 / (1.0 + exp(-0.00368208 * cp)) - 1.0; }

/* The band of White's win chances a position symbol claims, or false for none/unclear. */
static bool symbol_band(int nag, double *lo, double *hi, const char **sym)
{
    switch (nag) {
    case 10: *lo = -0.15; *hi = 0.15; *sym = "="; return true;
    case 14: *lo = 0.05; *hi = 0.35; *sym = "⩲"; return true;
    case 15: *lo = -0.35; *hi = -0.05; *sym = "⩱"; return true;
    case 16: *lo = 0.20; *hi = 0.60; *sym = "±"; return true;
    case 17: *lo = -0.60; *hi = -0.20; *sym = "∓"; return true;
    case 18: *lo = 0.45; *hi = 1.00; *sym = "+-"; return true;
    case 19: *lo = -1.00; *hi = -0.45; *sym = "-+"; return true;
    default: return false;   /* $13 unclear and the rest are never judged */
    }
}

/* The engine's text of a move: UCI; for xiangqi Fairy-Stockfish's ranks 1-10. */
static void engine_move_text(const variant *v, bool xq, const void *pos, uint16_t m, char *out)
{
    char t[16];
    v->move_text(pos, m, t);
    if (!xq) {
        strcpy(out, t);
        return;
    }
    snprintf(out, 16, "%c%d%c%d", t[0], t[1] - '0' + 1, t[2], t[3] - '0' + 1);
}

/* The legal move of pos the engine writes as text, or false. */
static bool engine_move(const variant *v, bool xq, const void *pos, const char *text,
                        uint16_t *out)
{
    uint16_t moves[VARIANT_MAX_MOVES];
    int n = v->gen_legal(pos, moves);
    for (int i = 0; i < n; i++) {
        char t[16];
        engine_move_text(v, xq, pos, moves[i], t);
        if (strcmp(t, text) == 0) {
            *out = moves[i];
            return true;
        }
    }
    return false;
}

/* The engine's best line from pos in the game's notation (SAN, WXF for xiangqi), as a
 * reader of the book writes it; it stops at a move that is not legal (never printed). */
static void pv_text(const variant *v, bool xq, const void *pos, const uci_eval *ev, char *buf,
                    size_t size)
{
    variant_pos p;
    memcpy(&p, pos, sizeof p);
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < ev->pv_len; i++) {
        uint16_t m;
        char t[XQN_FORMAT_BUFSIZE];
        if (!engine_move(v, xq, &p, ev->pv[i], &m))
            break;
        if (xq)
            xqn_format_legal((const xq_pos *)&p, m, XQN_WXF, 0, t, sizeof t);
        else
            chess_notation_format((const chess_pos *)&p, m, CHESS_NOTATION_SAN, t, sizeof t);
        if (len + strlen(t) + 2 >= size)
            break;
        len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? " " : "", t);
        variant_undo u;
        v->make(&p, m, &u);
    }
    if (!len)
        snprintf(buf, size, "-");
}

/* The evaluation from White's (Red's) view: "+1.20" in pawns, "#3" / "-#3" for a mate
 * (White mates / Black mates), "#0" / "-#0" when the side to move is already mated.
 * white_sign: +1 when White is to move in the evaluated position, else -1. */
static void eval_text(const uci_eval *ev, int cp, int white_sign, char *buf, size_t size)
{
    if (ev->mate)
        snprintf(buf, size, "%s#%d", ev->score * white_sign > 0 ? "" : "-", abs(ev->score));
    else if (cp == MATE_CP || cp == -MATE_CP)
        snprintf(buf, size, "%s#0", cp * white_sign > 0 ? "" : "-");
    else
        snprintf(buf, size, "%+.2f", cp * white_sign / 100.0);
}

static void set_engine_fields(rec_game *g, rec_finding *f, const char *eval, const char *line)
{
    f->engine_eval = arena_strdup(g->arena, eval);
    f->engine_best = arena_strdup(g->arena, line);
}

#define WALK_MAX_NESTING 32      /* variations deeper than this are not walked (C stack) */
#define VARIATION_BUDGET 200     /* annotated variation moves judged per game: the cost of a
                                  * heavily annotated book stays near that of its main lines */

typedef struct engine_walk {
    worker_state *w;
    rec_game *g;
    const variant *v;
    bool xq;
    int variation_judged;
} engine_walk;

/* The symbol and mark of node n judged against the engine; false when the engine failed.
 * before: the position before n's move, pos: after it. */
static bool judge_node(engine_walk *c, rec_node *n, int ply, const void *before, const void *pos,
                       int mover, const char *played, int symbol, int mark)
{
    worker_state *w = c->w;
    rec_game *g = c->g;
    const variant *v = c->v;
    bool xq = c->xq;
    int cp_after;
    uci_eval ev_after;
    if (!evaluate(w, g, v, pos, &cp_after, &ev_after))
        return false;
    char fen[128], msg[600], line[200], eval[32];
    v->to_fen(before, fen, sizeof fen);
    pv_text(v, xq, pos, &ev_after, line, sizeof line);
    /* White's view: the side to move after the move is the mover's opponent */
    int white_cp = (mover == 0) ? -cp_after : cp_after;
    eval_text(&ev_after, cp_after, mover == 0 ? -1 : 1, eval, sizeof eval);
    double lo, hi;
    const char *sym;
    if (symbol && symbol_band(symbol, &lo, &hi, &sym)) {
        double wc = win_chances(white_cp);
        if (wc < lo - EVAL_MARGIN || wc > hi + EVAL_MARGIN) {
            snprintf(msg, sizeof msg,
                     _("%s %s: the engine (%s) evaluates the position at %s for %s (win "
                       "chances %+.2f, the symbol's band %+.2f to %+.2f); its line: %s"),
                     n->text, sym, uci_name(engine_for(w, xq)), eval,
                     xq ? _("Red") : _("White"), wc, lo, hi, line);
            rec_finding *f =
                replay_move_finding(g, n, ply, fen, "eval-contradicted", REC_WARNING, msg);
            set_engine_fields(g, f, eval, line);
        }
    }
    if (mark) {
        int cp_best;
        uci_eval ev_best;
        if (!evaluate(w, g, v, before, &cp_best, &ev_best))
            return false;
        bool is_best = ev_best.pv_len && strcmp(ev_best.pv[0], played) == 0;
        double loss = is_best ? 0.0 : win_chances(cp_best) - win_chances(-cp_after);
        bool good_mark = mark == 1 || mark == 3;
        if (good_mark ? loss >= MARK_MISTAKE : loss <= MARK_NEAR_BEST) {
            char best[200];
            pv_text(v, xq, before, &ev_best, best, sizeof best);
            eval_text(&ev_best, cp_best, mover == 0 ? 1 : -1, eval, sizeof eval);
            snprintf(msg, sizeof msg,
                     good_mark ? _("%s is marked %s, but it loses %.2f win chances against "
                                   "the engine's best (%s, %s): %s")
                               : _("%s is marked %s, but it loses only %.2f win chances "
                                   "against the engine's best (%s, %s): %s"),
                     n->text, mark == 1 ? "!" : mark == 2 ? "?" : mark == 3 ? "!!" : "??",
                     loss, uci_name(engine_for(w, xq)), eval, best);
            rec_finding *f = replay_move_finding(g, n, ply, fen, "move-mark-contradicted",
                                                 REC_WARNING, msg);
            set_engine_fields(g, f, eval, best);
        }
    }
    return true;
}

static bool walk_line(engine_walk *c, const rec_line *line, const void *start, int ply0,
                      int depth)
{
    variant_pos pos, before;
    memcpy(&pos, start, sizeof pos);
    int ply = ply0;
    for (rec_node *n = line->first; n; n = n->next) {
        if (depth < WALK_MAX_NESTING)
            for (const rec_line *var = n->variations; var; var = var->next)
                if (!walk_line(c, var, &pos, ply, depth + 1))
                    return false;
        if (n->status != REC_MOVE_OK)
            return true;   /* a bad or null move: the positions after it are not known */
        int symbol = 0, mark = 0;
        for (uint32_t i = 0; i < n->nag_count; i++) {
            if (n->nags[i] >= 1 && n->nags[i] <= 4)
                mark = n->nags[i];
            if (n->nags[i] == 10 || (n->nags[i] >= 14 && n->nags[i] <= 19))
                symbol = n->nags[i];
        }
        memcpy(&before, &pos, sizeof pos);
        int mover = c->xq ? xq_pos_side((const xq_pos *)&pos)
                          : chess_pos_side((const chess_pos *)&pos);
        char played[16];
        engine_move_text(c->v, c->xq, &pos, n->move, played);
        variant_undo u;
        c->v->make(&pos, n->move, &u);
        ply++;
        if (!symbol && !mark)
            continue;
        if (depth > 0 && c->variation_judged++ >= VARIATION_BUDGET)
            continue;
        if (!judge_node(c, n, ply, &before, &pos, mover, played, symbol, mark))
            return false;
    }
    return true;
}

void annot_engine_game(rec_game *g)
{
    if (!enabled)
        return;
    worker_state *w = state();
    if (!w)
        return;
    bool xq = g->kind == REC_XIANGQI;
    engine_walk c = {w, g, xq ? &variant_xiangqi : &variant_chess, xq, 0};
    variant_pos start;
    char err[200];
    if (!(xq ? referee_xiangqi_start(g, (xq_pos *)&start, err, sizeof err)
             : referee_chess_start(g, (chess_pos *)&start, err, sizeof err)))
        return;
    walk_line(&c, &g->main, &start, 0, 0);
}

bool annot_engine_score(const rec_game *g, const void *pos, int *cp)
{
    worker_state *w = enabled ? state() : NULL;
    if (!w)
        return false;
    uci_eval ev;
    return evaluate(w, g, g->kind == REC_XIANGQI ? &variant_xiangqi : &variant_chess, pos, cp,
                    &ev);
}

bool annot_engine_eval_text(const rec_game *g, const void *pos, char *buf, size_t size)
{
    worker_state *w = enabled ? state() : NULL;
    if (!w)
        return false;
    bool xq = g->kind == REC_XIANGQI;
    const variant *v = xq ? &variant_xiangqi : &variant_chess;
    uci_eval ev;
    int cp;
    if (!evaluate(w, g, v, pos, &cp, &ev))
        return false;
    int side = xq ? xq_pos_side(pos) : chess_pos_side(pos);
    eval_text(&ev, cp, side == 0 ? 1 : -1, buf, size);
    return true;
}

const char *annot_engine_label(const rec_game *g)
{
    worker_state *w = enabled ? state() : NULL;
    int kind = g->kind == REC_XIANGQI;
    if (w && w->engine[kind] && !uci_failed(w->engine[kind]))
        return uci_name(w->engine[kind]);
    return opts.command ? opts.command : "-";
}

double annot_engine_win_chances(int cp) { return win_chances(cp); }

bool annot_engine_finish(FILE *err)
{
    if (!enabled)
        return true;
    pthread_mutex_lock(&registry_lock);
    for (worker_state *w = registry, *next; w; w = next) {
        next = w->next;
        uci_close(w->engine[0]);
        uci_close(w->engine[1]);
        eval_cache_close(w->cache);
        free(w);
    }
    registry = NULL;
    pthread_mutex_unlock(&registry_lock);
    long a = atomic_load(&analysed), h = atomic_load(&hits);
    fprintf(err, _("arbiter: engine %s: %ld positions analysed, %ld from the cache, %.1f s\n"),
            opts.command, a, h, now() - started);
    return !atomic_load(&failed_any);
}
