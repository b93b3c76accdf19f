/* doc_play.c: positions, replays, placement and certain fixes for articles (see
 * doc_play.h). */
#include <config.h>

#include "doc_play.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void doc_pos_start(doc_pos *t)
{
    chess_pos_start(&t->p);
    t->full = 1;
}

bool doc_pos_board(doc_pos *t, const char *fen)
{
    char err[160];
    return chess_pos_from_fen(&t->p, fen, err, sizeof err);
}

bool doc_pos_from_fen(doc_pos *t, const char *fen)
{
    if (!doc_pos_board(t, fen))
        return false;
    t->full = 1;
    const char *sp = strrchr(fen, ' ');
    int fields = 0;
    for (const char *c = fen; *c; c++)
        if (*c == ' ' && c[1] && c[1] != ' ')
            fields++;
    if (fields >= 5 && sp && atoi(sp + 1) > 0)
        t->full = atoi(sp + 1);
    return true;
}

void doc_pos_fen(const doc_pos *t, char *buf, size_t size)
{
    char fen[CHESS_FEN_BUFSIZE];
    chess_pos_to_fen(&t->p, fen, sizeof fen);
    /* the counter is the article's, not the core's */
    char *sp = strrchr(fen, ' ');
    if (sp)
        *sp = '\0';
    snprintf(buf, size, "%s %d", fen, t->full);
}

bool doc_pos_black(const doc_pos *t)
{
    return chess_pos_side(&t->p) == CHESS_BLACK;
}

bool doc_pos_over(const doc_pos *t)
{
    return chess_is_checkmate(&t->p) || chess_is_stalemate(&t->p);
}

bool doc_pos_play(doc_pos *t, const char *text)
{
    san_result res;
    chess_san_parse(&t->p, text, &res);
    if (res.status != SAN_OK)
        return false;
    chess_undo u;
    bool black = doc_pos_black(t);
    chess_make(&t->p, res.move, &u);
    if (black)
        t->full++;
    return true;
}

bool doc_pos_legal(const doc_pos *t, const char *text)
{
    san_result res;
    chess_san_parse(&t->p, text, &res);
    return res.status == SAN_OK;
}

bool doc_pos_pass(doc_pos *t)
{
    if (chess_in_check(&t->p) || doc_pos_over(t))
        return false;
    chess_undo u;
    bool black = doc_pos_black(t);
    chess_make_null(&t->p, &u);
    if (black)
        t->full++;
    return true;
}

void doc_pos_set_side(doc_pos *t, char side)
{
    char fen[CHESS_FEN_BUFSIZE];
    chess_pos_to_fen(&t->p, fen, sizeof fen);
    char *sp = strchr(fen, ' ');
    if (sp && (sp[1] == 'w' || sp[1] == 'b') && sp[1] != side) {
        sp[1] = side;
        char err[160];
        chess_pos u;
        if (chess_pos_from_fen(&u, fen, err, sizeof err))
            t->p = u;
    }
}

size_t doc_replay(const move_run *s, const doc_pos *start, doc_pos *out)
{
    doc_pos t = *start;
    size_t k = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (s->items[i].kind != MOVE_ITEM_MOVE)
            continue;
        if (!doc_pos_play(&t, s->items[i].text))
            break;
        if (out)
            out[k] = t;
        k++;
    }
    return k;
}

bool doc_run_fits(const move_run *s, const doc_pos *start)
{
    if (s->n == 0 || s->items[0].kind != MOVE_ITEM_NUM)
        return true;
    return (int)s->items[0].num == start->full && s->items[0].black == doc_pos_black(start);
}

long doc_pick_start(const move_run *s, const doc_pos *const *cands, size_t n, bool take_first,
                    size_t *done)
{
    size_t moves = move_run_moves(s);
    long best = -1;
    size_t best_done = 0;
    for (size_t k = 0; k < n; k++) {
        size_t got = doc_replay(s, cands[k], NULL);
        if (got == moves) {
            best = (long)k;
            best_done = got;
            break;
        }
        if (got > best_done || (best < 0 && take_first)) {
            best = (long)k;
            best_done = got;
        }
    }
    *done = best_done;
    return best;
}

bool doc_fix_wanted(const doc_pos *before, const char *bad, san_result *why)
{
    if (doc_pos_over(before))
        return false;   /* moves after the end: nothing to repair */
    chess_san_parse(&before->p, bad, why);
    return why->status != SAN_OK && why->status != SAN_NULL;
}

bool doc_fix_certain(const doc_pos *before, const char *bad, const char *const *rest, int nrest,
                     fixit_result *fr)
{
    memset(fr, 0, sizeof *fr);
    if (nrest == 0)
        return false;   /* the line's last move: nothing to go on with */
    fixit_chess(&before->p, bad, rest, nrest, fr);
    return fr->count > 0 && fr->certain && fr->cand[0].kind == FIXIT_REPLACE;
}

doc_finding *doc_findings_add(doc_findings *fs, const char *code, rec_severity sev, uint64_t off,
                              const char *fmt, ...)
{
    /* grown one at a time: findings are few */
    doc_finding *v = realloc(fs->v, (fs->n + 1) * sizeof *v);
    if (!v)
        return NULL;
    fs->v = v;
    doc_finding *x = &v[fs->n++];
    x->repair = NULL;
    x->code = code;
    x->sev = sev;
    x->off = off;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->msg, sizeof x->msg, fmt, ap);
    va_end(ap);
    return x;
}

void doc_findings_attach(const doc_findings *fs, const doc_map *m, rec_game *g)
{
    for (size_t k = 0; k < fs->n; k++) {
        const doc_finding *f = &fs->v[k];
        rec_finding *x = rec_game_add_finding(g, f->code, f->sev, doc_map_span(m, f->off), "%s",
                                              f->msg);
        if (x && f->repair) {
            x->move_text = arena_strdup(g->arena, f->repair->written);
            x->fen = arena_strdup(g->arena, f->repair->fen);
            x->ply = f->repair->ply;
            fixit_attach(g, x, &f->repair->fr, NULL, f->repair->len);
        }
    }
}

void doc_findings_free(doc_findings *fs)
{
    for (size_t k = 0; k < fs->n; k++)
        free(fs->v[k].repair);
    free(fs->v);
    fs->v = NULL;
    fs->n = 0;
}
