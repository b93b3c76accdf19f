/* web_document.c: chess games embedded in Markdown and HTML articles, as the document
 * layer reads them (document.h is the interface the rest of arbiter uses).
 *
 * The PGN inside every wrapper (grammar/web_reader.h) is read as PGN, with every place
 * in the article's own lines and columns. Moves in prose: runs of numbered moves are
 * each a game, started at the newest position of the article's prose so far, else of
 * its games' main lines, that the run's first number and side name and from which it
 * replays (prose-unplaced, info, when none lets its first move be played); a move
 * that does not replay is repaired when exactly one candidate lets the rest of the run
 * replay. <fen>/[fen] diagrams are compared with the end of the run before them
 * (diagram-mismatch).
 *
 * The syntax layer (grammar/web_reader.h) cuts the article into blocks; here each
 * prose run is placed and replayed, diagrams are compared with the run before them,
 * and every block is handed to the PGN reader as a game whose places are moved back
 * onto the article. */
#include <config.h>

#include "i18n/i18n.h"
#include "doc_kind.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "doc_play.h"
#include "pgn_reader.h"
#include "web_reader.h"

/* Where a prose run went, and the findings that wait for its game. */
typedef struct web_place {
    bool placed, initial;    /* placed at a position (the initial one: no FEN tag) */
    doc_pos anchor;
    doc_findings finds;
} web_place;

typedef struct web_document {
    web_doc d;
    FILE *in;
    const char *name;
    FILE *trace;
    bool loaded;
    web_place *places;       /* one per block */
    size_t next_block;
    FILE *mem;               /* the current block's PGN text */
    pgn_reader *pgn;
    doc_pos *gpos;           /* main-line positions of the article's games */
    size_t ngpos;
    const web_block *cur;
    const web_place *cur_place;
    unsigned long games_in_block;
    uint64_t index;
    char error[256];
} web_document;

static void trace_at(web_document *r, uint64_t off, const char *what, const char *how)
{
    if (!r->trace)
        return;
    rec_span s = doc_map_span(&r->d.m, off);
    fprintf(r->trace, "%u:%u %s %s\n", s.line, s.column, what, how);
}

/* Placement and side to move agree. */
static bool same_board(const char *a, const char *b)
{
    size_t la = strcspn(a, " "), lb = strcspn(b, " ");
    if (la != lb || memcmp(a, b, la) != 0)
        return false;
    return a[la] == ' ' && b[lb] == ' ' && a[la + 1] == b[lb + 1];
}

/* A PGN block's text into the PGN buffer. */
static void put_block(web_document *r, const web_block *b)
{
    if (b->raw)
        doc_map_put_mapped(&r->d.m, r->d.m.doc + b->body, (size_t)(b->end - b->body), b->body,
                           (uint32_t)(b->end - b->body));
    else
        web_put_body(&r->d, b->body, b->end);
}

/* The main-line positions of every PGN game of the article, for prose runs. */
static void game_positions(web_document *r)
{
    size_t cap = 0;
    for (size_t k = 0; k < r->d.nblocks; k++) {
        const web_block *b = &r->d.blocks[k];
        if (b->kind != WEB_PGN)
            continue;
        doc_map_reset(&r->d.m);
        put_block(r, b);
        if (r->d.m.oom || r->d.m.pgn_len == 0)
            continue;
        FILE *mem = fmemopen(r->d.m.pgn, r->d.m.pgn_len, "r");
        pgn_reader *p = mem ? pgn_reader_open(mem, r->name) : NULL;
        arena a;
        arena_init(&a);
        rec_game g;
        while (p && pgn_reader_next(p, &g, &a) == 1) {
            doc_pos t;
            const char *fen = rec_game_tag(&g, "FEN");
            /* the FEN's last field is the counter when it is a number */
            if (!fen || !doc_pos_board(&t, fen))
                doc_pos_start(&t);
            t.full = 1;
            const char *sp = fen ? strrchr(fen, ' ') : NULL;
            if (sp && atoi(sp + 1) > 0)
                t.full = atoi(sp + 1);
            for (const rec_node *n = g.main.first; n; n = n->next) {
                if (!doc_pos_play(&t, n->text))
                    break;
                if (r->ngpos == cap) {
                    cap = cap ? cap * 2 : 256;
                    doc_pos *v = realloc(r->gpos, cap * sizeof *v);
                    if (!v)
                        break;
                    r->gpos = v;
                }
                r->gpos[r->ngpos++] = t;
            }
            arena_reset(&a);
        }
        arena_free(&a);
        if (p)
            pgn_reader_close(p);
        if (mem)
            fclose(mem);
    }
}

/* Move k of run b (0-based among its moves) does not replay from the anchor. When
 * exactly one candidate makes the rest of the run replay (the fix `arbiter fix`
 * applies), the run goes on with it and the finding says so. */
static bool go_on_with_fix(web_block *b, web_place *pl, size_t k)
{
    doc_pos t = pl->anchor;
    move_item *bad = NULL;
    size_t seen = 0, at = 0;
    for (; at < b->run.n; at++) {
        move_item *it = &b->run.items[at];
        if (it->kind != MOVE_ITEM_MOVE)
            continue;
        if (seen++ == k) {
            bad = it;
            break;
        }
        doc_pos_play(&t, it->text);
    }
    san_result res;
    if (!bad || !doc_fix_wanted(&t, bad->text, &res))
        return false;
    const char *rest[64];
    int nrest = 0;
    for (size_t q = at + 1; q < b->run.n && nrest < 64; q++)
        if (b->run.items[q].kind == MOVE_ITEM_MOVE)
            rest[nrest++] = b->run.items[q].text;
    fixit_result fr;
    if (!doc_fix_certain(&t, bad->text, rest, nrest, &fr) || strlen(fr.cand[0].text) >= 24)
        return false;
    char *fixed = strdup(fr.cand[0].text);
    doc_repair *rep = calloc(1, sizeof *rep);
    const char *side = doc_pos_black(&t) ? _("Black") : _("White");
    doc_finding *f = NULL;
    if (fixed && rep) {
        if (res.status == SAN_AMBIGUOUS)
            f = doc_findings_add(&pl->finds, "ambiguous-move", REC_ERROR, bad->off,
                                 _("%s %s is ambiguous: two pieces can make it; the line goes "
                                 "on with %s, the one move that lets the rest replay"),
                                 side, bad->text, fr.cand[0].text);
        else
            f = doc_findings_add(&pl->finds, "illegal-move", REC_ERROR, bad->off,
                                 _("%s %s is illegal: %s; the line goes on with %s, the one "
                                 "move that lets the rest replay"),
                                 side, bad->text, res.reason, fr.cand[0].text);
    }
    if (!f) {
        free(fixed);
        free(rep);
        return false;
    }
    snprintf(rep->written, sizeof rep->written, "%s", bad->text);
    doc_pos_fen(&t, rep->fen, sizeof rep->fen);
    rep->len = bad->len;
    rep->fr = fr;
    if (strlen(bad->text) != bad->len)
        rep->fr.certain = rep->fr.full = false;   /* a figurine: no byte-exact edit */
    f->repair = rep;
    free(bad->text);
    bad->text = fixed;
    return true;
}

/* Each run starts at the newest position seen so far whose move number and side its
 * first number names, the first from which it replays whole (else the furthest);
 * diagrams are compared with the end of the run before them. */
static bool place_prose(web_document *r)
{
    game_positions(r);
    size_t nh = 1, cap = 64;
    doc_pos *hist = malloc(cap * sizeof *hist);
    const doc_pos **cands = NULL;
    if (!hist)
        return false;
    doc_pos_start(&hist[0]);
    web_place *last = NULL;
    char last_fen[DOC_FEN_SIZE] = "";
    bool ok = true;
    for (size_t k = 0; k < r->d.nblocks && ok; k++) {
        web_block *b = &r->d.blocks[k];
        web_place *pl = &r->places[k];
        if (b->kind == WEB_FEN) {
            if (last && last_fen[0] && !same_board(b->fen, last_fen) &&
                !doc_findings_add(&last->finds, "diagram-mismatch", REC_WARNING, b->open,
                                  _("the diagram shows %.90s but the moves before it give "
                                  "%.90s"), b->fen, last_fen))
                ok = false;
            continue;
        }
        if (b->kind != WEB_PROSE)
            continue;
        last = pl;
        last_fen[0] = '\0';
        size_t moves = move_run_moves(&b->run);
        /* the prose so far newest first, then the main lines of the article's games
         * (a line is often given before its game) */
        const doc_pos **v = realloc(cands, (nh + r->ngpos) * sizeof *v);
        if (!v) {
            ok = false;
            break;
        }
        cands = v;
        size_t nc = 0;
        for (size_t h = nh + r->ngpos; h-- > 0;) {
            const doc_pos *at = h >= r->ngpos ? &hist[h - r->ngpos] : &r->gpos[r->ngpos - 1 - h];
            if (doc_run_fits(&b->run, at))
                cands[nc++] = at;
        }
        size_t done;
        long best = doc_pick_start(&b->run, cands, nc, false, &done);
        if (best < 0) {
            if (!doc_findings_add(&pl->finds, "prose-unplaced", REC_INFO, b->open,
                                  _("no position of the article (its prose so far, its games) "
                                  "has this move number and side and lets its first move be "
                                  "played (a plan, or a mistake in the first move)")))
                ok = false;
            trace_at(r, b->open, "prose", "unplaced");
            continue;
        }
        pl->placed = true;
        pl->anchor = *cands[best];
        pl->initial = cands[best] == &hist[0];
        if (nh + moves > cap) {
            while (nh + moves > cap)
                cap *= 2;
            doc_pos *h = realloc(hist, cap * sizeof *h);
            if (!h) {
                ok = false;
                break;
            }
            hist = h;
        }
        done = doc_replay(&b->run, &pl->anchor, hist + nh);
        while (done < moves && go_on_with_fix(b, pl, done))
            done = doc_replay(&b->run, &pl->anchor, hist + nh);
        nh += done;
        if (done == moves)
            doc_pos_fen(&hist[nh - 1], last_fen, sizeof last_fen);
        trace_at(r, b->open, "prose", done == moves ? "placed" : "placed-error");
    }
    free(cands);
    free(hist);
    return ok;
}

/* A prose run as a PGN game from where it was placed (nothing when it was not). */
static void put_prose(web_document *r, const web_block *b, const web_place *pl)
{
    doc_map_put_mapped(&r->d.m, "", 0, b->open, 1);
    if (pl->placed && !pl->initial) {
        char fen[DOC_FEN_SIZE];
        doc_pos_fen(&pl->anchor, fen, sizeof fen);
        doc_map_puts(&r->d.m, "[SetUp \"1\"]\n[FEN \"");
        doc_map_puts(&r->d.m, fen);
        doc_map_puts(&r->d.m, "\"]\n");
    }
    doc_map_puts(&r->d.m, "\n");
    if (pl->placed)
        for (size_t i = 0; i < b->run.n; i++) {
            const move_item *it = &b->run.items[i];
            doc_map_put(&r->d.m, " ", 1);
            doc_map_put_mapped(&r->d.m, it->text, strlen(it->text), it->off, it->len);
        }
    doc_map_puts(&r->d.m, " *\n");
}

static void *doc_open(FILE *in, const char *name)
{
    web_document *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->in = in;
    r->name = name;
    return r;
}

static void doc_trace(void *impl, FILE *trace)
{
    ((web_document *)impl)->trace = trace;
}

static void end_block(web_document *r)
{
    if (r->pgn) {
        pgn_reader_close(r->pgn);
        r->pgn = NULL;
    }
    if (r->mem) {
        fclose(r->mem);
        r->mem = NULL;
    }
    if (r->cur && r->cur->kind != WEB_PROSE) {
        char how[32];
        snprintf(how, sizeof how, "games %lu", r->games_in_block);
        trace_at(r, r->cur->open, r->cur->what, how);
    }
    r->cur = NULL;
    r->cur_place = NULL;
}

/* The article read and cut into blocks, prose placed. */
static bool load(web_document *r)
{
    if (!doc_map_load(&r->d.m, r->in)) {
        snprintf(r->error, sizeof r->error, "%s", r->d.m.error);
        return false;
    }
    bool ok = web_doc_find_blocks(&r->d);
    if (ok) {
        r->places = calloc(r->d.nblocks + 1, sizeof *r->places);
        ok = r->places != NULL;
    }
    for (size_t k = 0; ok && k < r->d.nblocks; k++)
        if (r->d.blocks[k].kind == WEB_REMOTE)
            trace_at(r, r->d.blocks[k].open, r->d.blocks[k].what, "remote");
    if (!ok || !place_prose(r)) {
        snprintf(r->error, sizeof r->error, _("out of memory"));
        return false;
    }
    return true;
}

static int doc_next(void *impl, rec_game *g, arena *a)
{
    web_document *r = impl;
    if (!r->loaded) {
        r->loaded = true;
        if (!load(r))
            return -1;
    }
    for (;;) {
        if (r->pgn) {
            int got = pgn_reader_next(r->pgn, g, a);
            if (got == 1) {
                doc_map_remap(&r->d.m, g);
                if (r->cur->kind == WEB_PUZZLE || r->cur->kind == WEB_PROSE)
                    g->result = NULL;   /* "*" was only there for the PGN reader */
                doc_findings_attach(&r->cur_place->finds, &r->d.m, g);
                g->index = ++r->index;
                r->games_in_block++;
                return 1;
            }
            end_block(r);
            if (got < 0) {
                snprintf(r->error, sizeof r->error, _("could not read a block back"));
                return -1;
            }
        }
        if (r->next_block >= r->d.nblocks)
            return 0;
        size_t k = r->next_block++;
        const web_block *b = &r->d.blocks[k];
        doc_map_reset(&r->d.m);
        if (b->kind == WEB_FEN || b->kind == WEB_REMOTE)
            continue;
        if (b->kind == WEB_PROSE) {
            put_prose(r, b, &r->places[k]);
        } else if (b->kind == WEB_PUZZLE) {
            web_puzzle got = web_put_puzzle(&r->d, b);
            if (got != WEB_PUZZLE_OK) {
                trace_at(r, b->open, b->what, got == WEB_PUZZLE_REMOTE ? "remote" : "empty");
                continue;
            }
        } else
            put_block(r, b);
        if (r->d.m.oom) {
            snprintf(r->error, sizeof r->error, _("out of memory"));
            return -1;
        }
        size_t s = 0;
        while (s < r->d.m.pgn_len && isspace((unsigned char)r->d.m.pgn[s]))
            s++;
        if (s == r->d.m.pgn_len) {
            trace_at(r, b->open, b->what, "empty");
            continue;
        }
        r->cur = b;
        r->cur_place = &r->places[k];
        r->games_in_block = 0;
        r->mem = fmemopen(r->d.m.pgn, r->d.m.pgn_len, "r");
        r->pgn = r->mem ? pgn_reader_open(r->mem, r->name) : NULL;
        if (!r->pgn) {
            snprintf(r->error, sizeof r->error, _("out of memory"));
            return -1;
        }
    }
}

static void doc_name_places(const void *impl, rec_game *g)
{
    const web_document *r = impl;
    if (!r->cur)
        return;
    for (rec_finding *f = g->findings; f; f = f->next) {
        if (!f->message)
            continue;
        size_t n = strlen(f->message) + strlen(r->cur->what) + 8;
        char *m = arena_alloc_uninit(g->arena, n, 1);
        if (m) {
            snprintf(m, n, _("%s (in %s)"), f->message, r->cur->what);
            f->message = m;
        }
    }
}

static const char *doc_error(const void *impl)
{
    const web_document *r = impl;
    return r->error;
}

static void doc_close(void *impl)
{
    web_document *r = impl;
    if (!r)
        return;
    r->trace = NULL;
    end_block(r);
    for (size_t k = 0; r->places && k < r->d.nblocks; k++)
        doc_findings_free(&r->places[k].finds);
    free(r->places);
    web_doc_free(&r->d);
    free(r->gpos);
    free(r);
}

const doc_kind_ops web_document_ops = {doc_open, doc_next, doc_name_places, doc_error, doc_close,
                                doc_trace};
