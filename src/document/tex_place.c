/* tex_place.c: where the moves of a LaTeX document go, as its packages place them.
 *
 * Main lines across \mainline and \hidemoves calls (going on after a certain fix),
 * chess.sty's coordinate moves, variations (skak's rollback rule, xskak's inferred
 * starts), moves printed by \wmove/\bmove, piece macros in prose, and move commands
 * commented out with '%'. Every move is asked of the rules through doc_play.h. */
#include <config.h>

#include "i18n/i18n.h"
#include "tex_model.h"

#include <stdlib.h>
#include <string.h>

/* The moves of the \mainline and \hidemoves calls from token i on that go on the
 * same game (up to the next command that starts or switches one): the rest of a
 * game a fix is ranked by is often written in later calls. */
static void later_moves(tex_document *r, size_t i, move_run *out)
{
    for (size_t k = i; k < r->d.ntok && out->n < FIXIT_REST_MAX && !r->d.oom; k++) {
        if (r->d.tok[k].kind != TEX_TOK_CMD)
            continue;
        if (tex_starts_game(&r->d, k))
            break;
        if (!tex_is_mainline(&r->d, k))
            continue;
        tex_args a;
        size_t next = tex_read_args(&r->d, k, true, &a);
        if (a.has_arg)
            tex_moves(r, &r->d, NULL, out, a.ab, a.ae);   /* findings dropped */
        k = next - 1;
    }
}

/* Move k of part (0-based among its moves) did not replay from the game's end. When
 * exactly one candidate makes the rest of the game replay (the fix `arbiter fix`
 * applies), the game goes on with it and the finding says so: one typo must not
 * silence a chapter. after: the token after the command's argument. */
static bool go_on_with_fix(tex_document *r, tex_game *g, move_run *part, size_t k, size_t after)
{
    move_item *it = NULL;
    size_t at = 0, seen = 0;
    for (; at < part->n; at++)
        if (part->items[at].kind == MOVE_ITEM_MOVE && seen++ == k) {
            it = &part->items[at];
            break;
        }
    if (!it)
        return false;
    const doc_pos *before = k == 0 ? tex_game_end(g) : &g->pos[g->npos + k - 1];
    san_result res;
    if (!doc_fix_wanted(before, it->text, &res))
        return false;
    move_run later = {0};
    for (size_t q = at + 1; q < part->n; q++)
        if (part->items[q].kind == MOVE_ITEM_MOVE) {
            move_item c = part->items[q];
            c.text = strdup(c.text);
            if (!move_run_push(&later, &c))
                r->d.oom = true;
        }
    later_moves(r, after, &later);
    const char **rest = malloc((later.n + 1) * sizeof *rest);
    int nrest = 0;
    for (size_t q = 0; rest && q < later.n && nrest < FIXIT_REST_MAX; q++)
        if (later.items[q].kind == MOVE_ITEM_MOVE && later.items[q].text)
            rest[nrest++] = later.items[q].text;
    fixit_result fr;
    bool certain = doc_fix_certain(before, it->text, rest, rest ? nrest : 0, &fr);
    free(rest);
    move_run_free(&later);
    if (!certain)
        return false;
    char *fixed = strdup(fr.cand[0].text);
    doc_repair *rep = calloc(1, sizeof *rep);
    if (!doc_pos_legal(before, fr.cand[0].text) || !fixed || !rep) {
        free(fixed);
        free(rep);
        return false;
    }
    /* the finding: what was written (the document's bytes), why it fails, the repair */
    const char *side = !doc_pos_black(before) ? _("White") : _("Black");
    char own[FIXIT_TEXT];
    snprintf(own, sizeof own, "%s", fr.cand[0].text);
    tex_untranslate(r->letters, own);
    snprintf(rep->written, sizeof rep->written, "%.*s", (int)(it->len < 47 ? it->len : 47),
             r->d.doc + it->off);
    char why[240];
    const char *code = "illegal-move";
    if (res.status == SAN_UNREADABLE) {
        code = "unreadable-move";
        snprintf(why, sizeof why, _("'%s' is not a move: %s"), rep->written, res.reason);
    } else if (res.status == SAN_AMBIGUOUS) {
        code = "ambiguous-move";
        snprintf(why, sizeof why, _("%s is ambiguous"), rep->written);
    } else
        snprintf(why, sizeof why, _("%s %s is illegal: %s"), side, rep->written, res.reason);
    tex_add_finding(r, g, code, REC_ERROR, it->off,
                _("%s; the game goes on with %s, the one move that lets the rest replay"), why,
                own);
    if (r->d.oom) {
        free(fixed);
        free(rep);
        return false;
    }
    doc_pos_fen(before, rep->fen, sizeof rep->fen);
    rep->ply = (int)(g->npos + k);
    rep->len = it->len;
    rep->fr = fr;
    for (int c = 0; c < fr.count; c++)
        tex_untranslate(r->letters, rep->fr.cand[c].text);
    if (memchr(r->d.doc + it->off, '\\', it->len) || strlen(rep->written) != it->len)
        rep->fr.certain = rep->fr.full = false;   /* "Qxf7\#": no byte-exact edit */
    g->finds.v[g->finds.n - 1].repair = rep;
    free(it->text);
    it->text = fixed;
    return true;
}

/* The items of g->main from before on were just read for the command at token i:
 * replay them on the game, going on after a move with one certain fix. after: the
 * token after the command's argument. */
static void advance_main(tex_document *r, size_t i, tex_game *g, size_t before, size_t after)
{
    g->main_off = r->d.tok[i].off;
    move_run part = {g->main.items + before, g->main.n - before, 0};
    size_t moves = move_run_moves(&part);
    g->main_moves += moves;
    if (g->broken) {
        tex_trace(r, &r->d, r->d.tok[i].off, i, "main-after-error");
        return;
    }
    if (g->npos + moves > g->cappos) {
        size_t c = g->cappos;
        while (c < g->npos + moves)
            c *= 2;
        doc_pos *p = realloc(g->pos, c * sizeof *p);
        if (!p) {
            r->d.oom = true;
            return;
        }
        g->pos = p;
        g->cappos = c;
    }
    size_t done = doc_replay(&part, tex_game_end(g), g->pos + g->npos);
    while (done < moves && go_on_with_fix(r, g, &part, done, after))
        done = doc_replay(&part, tex_game_end(g), g->pos + g->npos);
    g->npos += done;
    if (done < moves)
        g->broken = true;
    tex_trace(r, &r->d, r->d.tok[i].off, i, done < moves ? "main-error" : "main");
}

void tex_cmd_mainline(tex_document *r, size_t i, const tex_args *a)
{
    tex_note_call(r, r->d.tok[i].off, r->d.tok[a->ae].off + 1, i);
    tex_game *g = tex_game_for_moves(r, r->d.tok[i].off);
    if (!g)
        return;
    size_t before = g->main.n;
    memcpy(g->letters, r->letters, sizeof g->letters);
    tex_moves(r, &r->d, g, &g->main, a->ab, a->ae);
    advance_main(r, i, g, before, a->ae + 1);
}

size_t tex_cmd_coordinate(tex_document *r, size_t i, int plies)
{
    tex_game *g = tex_game_for_moves(r, r->d.tok[i].off);
    if (!g)
        return i;
    size_t before = g->main.n, last = i;
    for (int n = 0; n < plies; n++) {
        size_t k = last + 1;
        while (k < r->d.ntok && r->d.tok[k].kind == TEX_TOK_SPACE)
            k++;
        if (k >= r->d.ntok || r->d.tok[k].kind != TEX_TOK_TEXT ||
            !tex_coordinate_move(r->d.doc + r->d.tok[k].off, r->d.tok[k].len))
            break;
        move_item it = {MOVE_ITEM_MOVE, r->d.tok[k].off, (uint32_t)r->d.tok[k].len,
                        strndup(r->d.doc + r->d.tok[k].off, r->d.tok[k].len), 0, false};
        if (!it.text || !move_run_push(&g->main, &it))
            r->d.oom = true;
        last = k;
    }
    if (last == i)
        return i;   /* no move follows: another package's \move */
    tex_note_call(r, r->d.tok[i].off, r->d.tok[last].off + r->d.tok[last].len, i);
    advance_main(r, i, g, before, last + 1);
    return last;
}

/* An unplaced variation: what its first move may have been at the newest position its
 * number fits, when a candidate lets the whole of it replay there ("7.dxc4" for
 * 7.dxc5). Only suggested: the place itself is a guess. */

static void suggest_first_move(tex_document *r, tex_game *g, const move_run *q, const doc_pos *at)
{
    const move_item *first = NULL;
    const char *rest[64];
    int nrest = 0;
    for (size_t k = 0; k < q->n; k++) {
        if (q->items[k].kind != MOVE_ITEM_MOVE)
            continue;
        if (!first)
            first = &q->items[k];
        else if (nrest < 64)
            rest[nrest++] = q->items[k].text;
    }
    if (!first || nrest == 0 || r->d.oom)
        return;   /* one move proves nothing: a threat is written so */
    doc_repair *rep = calloc(1, sizeof *rep);
    if (!rep)
        return;
    fixit_chess(&at->p, first->text, rest, nrest, &rep->fr);
    if (rep->fr.count == 0 || !rep->fr.full) {
        free(rep);
        return;
    }
    rep->fr.full = rep->fr.certain = false;
    int keep = 0;   /* only the candidates after which the whole variation replays */
    for (int x = 0; x < rep->fr.count; x++)
        if (rep->fr.cand[x].replays >= nrest)
            rep->fr.cand[keep++] = rep->fr.cand[x];
    rep->fr.count = keep;
    for (int x = 0; x < rep->fr.count; x++)
        tex_untranslate(r->letters, rep->fr.cand[x].text);
    snprintf(rep->written, sizeof rep->written, "%.*s", (int)(first->len < 47 ? first->len : 47),
             r->d.doc + first->off);
    doc_pos_fen(at, rep->fen, sizeof rep->fen);
    rep->len = first->len;
    doc_finding *f = &g->finds.v[g->finds.n - 1];
    f->repair = rep;
    f->off = first->off;
    size_t n = strlen(f->msg);
    snprintf(f->msg + n, sizeof f->msg - n, _("; from move %d%s it replays whole with %s"), at->full,
             doc_pos_black(at) ? "..." : ".", rep->fr.cand[0].text);
}

/* An unplaced variation whose number is one off ("7... Nf3+ 8. Kd1" for 6... Nf3+): the
 * newest main-line position with the written side to move, a move number one away from
 * the written one, from which all of it replays, is named in the finding. Two moves at
 * least, as for the first move: one proves nothing. */
static void suggest_number(tex_document *r, tex_game *g, const move_run *q)
{
    const move_item *num = NULL;
    size_t moves = move_run_moves(q);
    for (size_t k = 0; k < q->n && q->items[k].kind != MOVE_ITEM_MOVE; k++)
        if (q->items[k].kind == MOVE_ITEM_NUM)
            num = &q->items[k];
    if (!num || num->num == 0 || moves < 2)
        return;
    doc_pos *tmp = malloc(moves * sizeof *tmp);
    if (!tmp) {
        r->d.oom = true;
        return;
    }
    for (size_t k = g->npos; k-- > 0;) {
        const doc_pos *at = &g->pos[k];
        int d = at->full - (int)num->num;
        if (doc_pos_black(at) != num->black || (d != 1 && d != -1))
            continue;
        if (doc_replay(q, at, tmp) == moves) {
            doc_finding *f = &g->finds.v[g->finds.n - 1];
            size_t n = strlen(f->msg);
            snprintf(f->msg + n, sizeof f->msg - n,
                     _("; it replays whole from move %d%s: its number is one off"), at->full,
                     num->black ? "..." : ".");
            break;
        }
    }
    free(tmp);
}

/* Whether all of seq (moves of them) replays from at with the side to move there
 * passing, and its number, if any, fits once it has; *start gets the start. */
static bool threat_at(const move_run *seq, size_t moves, const doc_pos *at, doc_pos *start)
{
    bool black = doc_pos_black(at);
    const move_item *num = seq->n > 0 && seq->items[0].kind == MOVE_ITEM_NUM ? &seq->items[0]
                                                                               : NULL;
    if (num && ((int)num->num != at->full + black || num->black == black))
        return false;   /* checked first: passing costs a look for mate */
    *start = *at;
    return doc_pos_pass(start) && doc_replay(seq, start, NULL) == moves;
}

/* A threat line ("24.Rd1, threatening 25.Qh5"): the same side moves again, the
 * opponent's move skipped. The places are xskak's (the end of the last variation when
 * no \mainline came after it, the main line newest first, earlier variations newest
 * first) and then the diagram the text last showed; a variation with no number is a
 * threat only where it is written (the first of them). Returns the position whose side
 * to move passes (NULL: none), *start the position after the pass. */
static const doc_pos *threat_start(const tex_game *g, const move_run *seq, doc_pos *start)
{
    size_t moves = move_run_moves(seq);
    bool numbered = seq->n > 0 && seq->items[0].kind == MOVE_ITEM_NUM;
    const doc_pos *last = NULL;
    for (size_t k = g->nvars; k-- > 0 && !last && g->vars[k].cmd_off > g->main_off;)
        if (g->vars[k].full && g->vars[k].npos > 0)
            last = &g->vars[k].pos[g->vars[k].npos - 1];
    if (!numbered) {
        const doc_pos *at = last ? last : tex_game_end(g);
        return threat_at(seq, moves, at, start) ? at : NULL;
    }
    if (last && threat_at(seq, moves, last, start))
        return last;
    for (size_t k = g->npos; k-- > 0;)
        if (threat_at(seq, moves, &g->pos[k], start))
            return &g->pos[k];
    for (size_t k = g->nvars; k-- > 0;)
        for (size_t p = g->vars[k].npos; p-- > 0;)
            if (threat_at(seq, moves, &g->vars[k].pos[p], start))
                return &g->vars[k].pos[p];
    if (g->has_shown && threat_at(seq, moves, &g->shown, start))
        return &g->shown;
    return NULL;
}

void tex_cmd_variation(tex_document *r, size_t i, const tex_args *a, bool print_only)
{
    tex_note_call(r, r->d.tok[i].off, r->d.tok[a->ae].off + 1, i);
    tex_game *g = tex_game_for_moves(r, r->d.tok[i].off);
    if (!g)
        return;
    tex_var *v = realloc(g->vars, (g->nvars + 1) * sizeof *v);
    if (!v) {
        r->d.oom = true;
        return;
    }
    g->vars = v;
    tex_var *var = &v[g->nvars];
    memset(var, 0, sizeof *var);
    var->cmd_off = r->d.tok[i].off;
    if (print_only) {
        /* a comment's words are not moves: no syntax findings */
        tex_moves(r, &r->d, NULL, &var->seq, a->ab, a->ae);
        tex_trim_to_moves(&var->seq);
    } else
        tex_moves(r, &r->d, g, &var->seq, a->ab, a->ae);
    size_t moves = move_run_moves(&var->seq);
    if (moves == 0) {
        g->nvars++;
        var->where = -2;     /* nothing to place */
        tex_trace(r, &r->d, r->d.tok[i].off, i, "empty");
        return;
    }
    var->pos = malloc(moves * sizeof *var->pos);
    if (!var->pos) {
        r->d.oom = true;
        return;
    }
    size_t nmain = g->npos - 1;
    /* the candidate starts, and the main-line ply of each (-1: in a variation) */
    const doc_pos *c[512];
    long ply[512];
    size_t nc = 0;
    const char *name = r->d.doc + r->d.tok[i].off;
    bool current = strncmp(name, "\\variationcurrent", 17) == 0;
    bool rollback = r->skak && !print_only;   /* \movecomment only prints */
    bool cont = strncmp(name, "\\continuevariationcurrent", 25) == 0;
    if (rollback || current || cont) {
        /* skak: the rollback point, the current position, or the last variation's end */
        const tex_var *last = NULL;
        for (size_t k = g->nvars; k-- > 0;)
            if (g->vars[k].npos > 0) {
                last = &g->vars[k];
                break;
            }
        if (cont && last)
            c[nc] = &last->pos[last->npos - 1], ply[nc++] = -1;
        else if (current || nmain == 0)
            c[nc] = tex_game_end(g), ply[nc++] = (long)nmain;
        else
            c[nc] = &g->pos[nmain - 1], ply[nc++] = (long)nmain - 1;
        if (rollback && !current && !cont && !doc_run_fits(&var->seq, c[0])) {
            g->nvars++;
            var->where = -2;   /* LaTeX stops: nothing after it is typeset */
            tex_trace(r, &r->d, r->d.tok[i].off, i, "skak-start-error");
            tex_add_finding(r, g, "variation-start", REC_ERROR, var->seq.items[0].off,
                        _("skak starts \\variation one ply back, at move %d%s; this one "
                        "starts at %u%s (LaTeX stops here)"),
                        c[0]->full, doc_pos_black(c[0]) ? "..." : ".",
                        var->seq.items[0].num, var->seq.items[0].black ? "..." : ".");
            return;
        }
    } else {
        /* xskak: the last variation's end, the main line newest first, earlier
         * variations newest first; only positions the written number fits */
        /* the end of the last variation comes first only when no \mainline came
         * after it ("14...f5? ... 14...Nd4 15.Qh5": the reply is to the main line) */
        for (size_t k = g->nvars; k-- > 0 && nc < 1 && g->vars[k].cmd_off > g->main_off;)
            if (g->vars[k].full && g->vars[k].npos > 0 &&
                doc_run_fits(&var->seq, &g->vars[k].pos[g->vars[k].npos - 1]))
                c[nc] = &g->vars[k].pos[g->vars[k].npos - 1], ply[nc++] = -1;
        for (size_t k = g->npos; k-- > 0 && nc < 256;)
            if (doc_run_fits(&var->seq, &g->pos[k]))
                c[nc] = &g->pos[k], ply[nc++] = (long)k;
        for (size_t k = g->nvars; k-- > 0 && nc < 511;)
            for (size_t p = g->vars[k].npos; p-- > 0 && nc < 511;)
                if (doc_run_fits(&var->seq, &g->vars[k].pos[p]))
                    c[nc] = &g->vars[k].pos[p], ply[nc++] = -1;
        /* the diagram the text last showed: a game of its own from there */
        if (g->has_shown && doc_run_fits(&var->seq, &g->shown))
            c[nc] = &g->shown, ply[nc++] = -1;
    }
    size_t done;
    long best = doc_pick_start(&var->seq, c, nc, rollback || current || cont, &done);
    const doc_pos *passed = NULL;
    if (!rollback && !current && !cont && (best < 0 || done < moves))
        passed = threat_start(g, &var->seq, &var->start);
    g->nvars++;
    if (passed) {
        /* kept for a reply written after it, never written out: a threat is no move
         * played, so no illegal move, result or claim comes of it */
        var->npos = doc_replay(&var->seq, &var->start, var->pos);
        var->full = true;
        var->where = -2;
        tex_add_finding(r, g, "variation-threat", REC_INFO, var->seq.items[0].off,
                    _("read as a threat: all of it replays with move %d%s skipped%s, so its "
                    "moves are not judged as played"),
                    passed->full, doc_pos_black(passed) ? "..." : ".",
                    passed == &g->shown ? _(" at the diagram") : "");
        tex_trace(r, &r->d, r->d.tok[i].off, i, "threat");
        return;
    }
    if (best < 0) {
        var->where = -2;
        tex_add_finding(r, g, "variation-unplaced", REC_INFO, var->seq.items[0].off,
                    _("no position of this game before the variation lets it start (a threat "
                    "or an idea, or a mistake in its first move)"));
        if (nc > 0)
            suggest_first_move(r, g, &var->seq, c[0]);
        if (!r->d.oom && !g->finds.v[g->finds.n - 1].repair)
            suggest_number(r, g, &var->seq);
        tex_trace(r, &r->d, r->d.tok[i].off, i, "unplaced");
        return;
    }
    var->start = *c[best];
    var->npos = doc_replay(&var->seq, &var->start, var->pos);
    var->full = var->npos == moves;
    var->main_ply = ply[best];
    var->where = -1;   /* decided when the whole main line is known (load), traced then */
    var->tok = i;
}

/* \wmove{Nf3} and \bmove{Nxd4} only print a move; it should be one the side could
 * play at some position of the game so far (newest first), or the reader was misled. */
void tex_cmd_print_move(tex_document *r, size_t i, const tex_args *a, bool white)
{
    tex_game *g = tex_cur_game(r);
    char *m = tex_text_of(&r->d, a->ab, a->ae);
    if (!g || !m) {
        free(m);
        return;
    }
    size_t b = strspn(m, " \t\n");
    tex_translate(r->letters, m + b);
    for (char *q = m; *q; q++)
        if (*q == '\\' && q[1] == '#')
            memmove(q, q + 1, strlen(q));
    bool found = false;
    for (size_t k = g->npos; k-- > 0 && !found;) {
        if ((!doc_pos_black(&g->pos[k])) != white)
            continue;
        found = doc_pos_legal(&g->pos[k], m + b);
    }
    if (!found)
        tex_add_finding(r, g, "print-move", REC_WARNING, r->d.tok[a->ab].off,
                    _("%.*s{%.20s} prints a move %s cannot play at any position of the game so "
                    "far"), (int)r->d.tok[i].len, r->d.doc + r->d.tok[i].off, m + b,
                    white ? _("White") : _("Black"));
    free(m);
}

/* Whether text (English letters) is a move at some position of g, main line or
 * variation, of that number and side (num 0: any; side -1: any, 1: Black). */
static bool playable_somewhere(const tex_game *g, const char *text, int num, int side)
{
    for (size_t v = 0; v <= g->nvars; v++) {
        const doc_pos *ps = v == 0 ? g->pos : g->vars[v - 1].pos;
        size_t n = v == 0 ? g->npos : g->vars[v - 1].npos;
        for (size_t k = 0; k < n; k++) {
            if ((num && ps[k].full != num) || (side >= 0 && doc_pos_black(&ps[k]) != side))
                continue;
            if (doc_pos_legal(&ps[k], text))
                return true;
        }
    }
    return false;
}

/* A piece macro in prose and the square after it ("12...\symknight xe4"): a move of
 * the text, with no position of its own. It is read like a prose move of a web page:
 * anchored to any position of the current game with the number and side written
 * before it (any, when none is), and reported as info when none lets it be played.
 * Returns the last token used. */
size_t tex_cmd_sym_prose(tex_document *r, size_t i)
{
    tex_game *g = tex_cur_game(r);
    tex_sym_move sm;
    if (!g || !tex_sym_move_at(&r->d, i, &sm))
        return i;
    int num = sm.num, side = sm.side;
    if (!playable_somewhere(g, sm.move, num, side)) {
        tex_add_finding(r, g, "prose-unplaced", REC_INFO, r->d.tok[i].off,
                        _("%.*s %.*s in the text is no move at any position of this game so "
                        "far%s"),
                        (int)r->d.tok[i].len, r->d.doc + r->d.tok[i].off, sm.square_len,
                        r->d.doc + sm.square_off, num ? _(" with that move number") : "");
        tex_trace(r, &r->d, r->d.tok[i].off, i, "prose-unplaced");
    } else
        tex_trace(r, &r->d, r->d.tok[i].off, i, "prose");
    return sm.last;
}

/* ------------------------------------------------------------------ % comments */

/* A move command inside a '%' comment ("% \mainline{12. Nf3 Nc6}"): TeX never sees
 * it, but it is the author's text, so its moves are checked like a comment line of a
 * WXF article: from the newest position of the current game with its first number
 * and side, each move that does not replay a comment-line warning with suggestions;
 * info when no position fits. */
void tex_comment_line(tex_document *r, size_t ci)
{
    const tex_token_at *c = &r->d.tok[ci];
    const char *text = r->d.doc + c->off;
    if (!memmem(text, c->len, "\\mainline", 9) && !memmem(text, c->len, "\\variation", 10) &&
        !memmem(text, c->len, "\\hidemoves", 10))
        return;
    tex_game *g = tex_cur_game(r);
    tex_doc view;   /* the comment's own tokens */
    if (!tex_doc_comment_view(&r->d, ci, &view)) {
        r->d.oom = true;
        return;
    }
    const tex_token_at *sub = view.tok;
    for (size_t k = 0; k < view.ntok && !r->d.oom && !view.oom; k++) {
        if (sub[k].kind != TEX_TOK_CMD ||
            !(tex_is_mainline(&view, k) || tex_tok_is(&view, k, "\\variation") ||
              tex_tok_is(&view, k, "\\variation*")))
            continue;
        tex_args a;
        size_t next = tex_read_args(&view, k, true, &a);
        if (!a.has_arg) {
            k = next - 1;
            continue;
        }
        move_run q = {0};
        tex_moves(r, &view, NULL, &q, a.ab, a.ae);   /* a comment: findings dropped */
        size_t moves = move_run_moves(&q);
        /* the newest position of the game its first number and side fit */
        const doc_pos *at = NULL;
        for (size_t p = g ? g->npos : 0; p-- > 0 && !at;)
            if (doc_run_fits(&q, &g->pos[p]))
                at = &g->pos[p];
        for (size_t v = g ? g->nvars : 0; v-- > 0 && !at;)
            for (size_t p = g->vars[v].npos; p-- > 0 && !at;)
                if (doc_run_fits(&q, &g->vars[v].pos[p]))
                    at = &g->vars[v].pos[p];
        size_t done = at ? doc_replay(&q, at, NULL) : 0;
        if (moves == 0) {
            tex_trace(r, &view, sub[k].off, k, "comment-empty");
        } else if (!g || !at) {
            if (g)
                tex_add_finding(r, g, "comment-line", REC_INFO, sub[k].off,
                            _("the moves of this commented-out %.*s start where no position of "
                            "the game so far is"), (int)sub[k].len, r->d.doc + sub[k].off);
            tex_trace(r, &view, sub[k].off, k, "comment-unplaced");
        } else if (done == moves) {
            tex_trace(r, &view, sub[k].off, k, "comment");
        } else {
            /* the move that fails, the position before it, the moves after it */
            doc_pos t = *at;
            const move_item *bad = NULL;
            const char *rest[64];
            int nrest = 0;
            size_t m = 0;
            for (size_t x = 0; x < q.n; x++) {
                if (q.items[x].kind != MOVE_ITEM_MOVE)
                    continue;
                if (bad) {
                    if (nrest < 64)
                        rest[nrest++] = q.items[x].text;
                } else if (m++ == done)
                    bad = &q.items[x];
                else
                    doc_pos_play(&t, q.items[x].text);
            }
            san_result res;
            chess_san_parse(&t.p, bad->text, &res);
            const char *side = !doc_pos_black(&t) ? _("White") : _("Black");
            tex_add_finding(r, g, "comment-line", REC_WARNING, bad->off,
                        _("%s %.*s in this commented-out %.*s does not replay: %s"), side,
                        (int)bad->len, r->d.doc + bad->off, (int)sub[k].len, r->d.doc + sub[k].off,
                        res.reason[0] ? res.reason : _("no such move"));
            doc_repair *rep = calloc(1, sizeof *rep);
            if (rep && !r->d.oom) {
                snprintf(rep->written, sizeof rep->written, "%.*s",
                         (int)(bad->len < 47 ? bad->len : 47), r->d.doc + bad->off);
                doc_pos_fen(&t, rep->fen, sizeof rep->fen);
                rep->len = bad->len;
                fixit_chess(&t.p, bad->text, rest, nrest, &rep->fr);
                if (rep->fr.count > 0 && rep->fr.cand[0].kind == FIXIT_SWAP)
                    rep->fr.full = rep->fr.certain = false;   /* only suggested, as in WXF */
                for (int x = 0; x < rep->fr.count; x++)
                    tex_untranslate(r->letters, rep->fr.cand[x].text);
                if (strlen(rep->written) != bad->len || memchr(rep->written, '\\', bad->len))
                    rep->fr.full = rep->fr.certain = false;
                g->finds.v[g->finds.n - 1].repair = rep;
            } else
                free(rep);
            tex_trace(r, &view, sub[k].off, k, "comment-error");
        }
        move_run_free(&q);
        k = next - 1;
    }
    if (view.oom)
        r->d.oom = true;
    tex_doc_view_free(&view);
}
