/* tex_document.c: chess games inside a LaTeX document (skak, xskak, chess.sty,
 * chessfss, chinesechess), as the document layer reads them (document.h is the
 * interface the rest of arbiter uses).
 *
 * A game: \newgame, \newchessgame[...] (id, setfen, moveid/movenr/player, newvar,
 * setwhite/addwhite/setblack/addblack, white, black, result, event, site, date,
 * round), \fenboard{FEN}, \restoregame{name} or \resumechessgame[id=..,moveid=..]
 * start one; its main line is every \mainline{} and \hidemoves{} after that, with any
 * prose between. \variation{} is placed by skak's rule under \usepackage{skak} (the
 * position before the last main-line move) and otherwise by xskak inference (the end
 * of the last variation, then the main line newest first, then earlier variations,
 * then the diagram the text last showed; the first from which the whole sequence
 * replays, else a threat line that replays whole, else the one that replays furthest).
 * A variation that starts at a main-line position inside the game becomes a PGN
 * variation of that game; any other becomes a game of its own from its start FEN.
 *
 * The document layer's own findings:
 *   variation-threat     info (xskak): the sequence replays only as a threat, with the
 *                        opponent's move skipped; not written out, never judged
 *   variation-unplaced   info: no position the sequence could start from
 *   variation-start      error (skak): the variation does not start at skak's
 *                        rollback point (LaTeX stops there)
 *   diagram-mismatch     warning: a \fenboard, \chessboard[setfen=], or a "%FEN@"
 *                        comment, that matches no position of the game's main line
 *   print-move           warning: \wmove/\bmove prints a move the side cannot play at
 *                        any position of the game so far
 *   syntax-error         a token in a move argument that no PGN reader could take
 *   bad-fen              error: a FEN in a command that cannot be read at all (the
 *                        game's moves are then not checked: no replay from elsewhere)
 *   fen-shape            warning: a FEN whose board is not 8 by 8 (a ninth rank, a
 *                        short rank); checked on the board TeX shows
 *
 * Source coordinates: every move keeps the byte offset of its text in the document,
 * so suggestions and fixes can be written back in place.
 *
 * Two passes over one in-memory document. The first walks the tokens of the syntax
 * layer (grammar/tex_reader.h), follows the commands that carry moves or positions and
 * replays every sequence as it goes (the position a later \variation starts from
 * depends on it; the placing is in tex_place.c). The second writes each game as PGN
 * text with a map from every piece of that text back to the document, lets the PGN
 * reader build the rec_game, and moves every place in it back onto the document. */
#include <config.h>

#include "i18n/i18n.h"
#include "doc_kind.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "pgn_reader.h"
#include "tex_model.h"

/* ------------------------------------------------------------------ FENs */

/* What a FEN in the document gives, read as chessboard reads setfen (chessboard.sty
 * 1.7, \chessboard[setfen=] and skak's \fenboard): the placement fills the board from
 * a8 on, rank by rank; a rank shorter than eight squares leaves the rest of it empty,
 * squares past h and ranks past the eighth are off the board it shows. Fields left
 * out default to "w KQkq - 0 1" (White to move; a castling right stays only where the
 * king and that rook stand, as TeX never asks more of it). */
typedef enum { TEX_FEN_OK, TEX_FEN_SHAPE, TEX_FEN_UNREADABLE } tex_fen_status;

typedef struct tex_fen {
    char board[8][8];        /* [0] is rank 8; '\0' empty */
    int ranks;               /* ranks written */
    int short_rank, short_len;   /* the first rank (8..1) not eight squares long, or 0 */
} tex_fen;

static bool tex_fen_placement(const char **pp, tex_fen *f)
{
    memset(f, 0, sizeof *f);
    const char *p = *pp;
    int rank = 0, file = 0;
    for (; *p && *p != ' '; p++) {
        if (*p == '/') {
            if (file != 8 && !f->short_rank && rank < 8) {
                f->short_rank = 8 - rank;
                f->short_len = file;
            }
            rank++;
            file = 0;
        } else if (*p >= '1' && *p <= '8')
            file += *p - '0';
        else if (strchr("KQRBNPkqrbnp", *p)) {
            if (rank < 8 && file < 8)
                f->board[rank][file] = *p;
            file++;
        } else
            return false;
    }
    if (file != 8 && !f->short_rank && rank < 8) {
        f->short_rank = 8 - rank;
        f->short_len = file;
    }
    f->ranks = rank + 1;
    *pp = p;
    return true;
}

/* The next space-separated field of a FEN into out (empty when none). */
static const char *tex_fen_field(const char *p, char *out, size_t size)
{
    while (*p == ' ')
        p++;
    size_t n = strcspn(p, " ");
    snprintf(out, size, "%.*s", (int)(n < size ? n : size - 1), p);
    return p + n;
}

/* text read as chessboard reads it, completed to a full FEN in out. */
static tex_fen_status tex_fen_read(const char *text, char *out, size_t size, tex_fen *f)
{
    const char *p = text;
    while (*p == ' ')
        p++;
    if (!*p || !tex_fen_placement(&p, f))
        return TEX_FEN_UNREADABLE;
    char side[8], castle[8], ep[8], half[12], full[12];
    p = tex_fen_field(p, side, sizeof side);
    p = tex_fen_field(p, castle, sizeof castle);
    p = tex_fen_field(p, ep, sizeof ep);
    p = tex_fen_field(p, half, sizeof half);
    tex_fen_field(p, full, sizeof full);
    if (!*side)
        snprintf(side, sizeof side, "w");
    if (strcmp(side, "w") != 0 && strcmp(side, "b") != 0)
        return TEX_FEN_UNREADABLE;
    if (!*castle)
        snprintf(castle, sizeof castle, "KQkq");
    char rights[5] = "";
    size_t nr = 0;
    static const struct { char right, king, rook; int rank, rook_file; } cr[] = {
        {'K', 'K', 'R', 7, 7}, {'Q', 'K', 'R', 7, 0}, {'k', 'k', 'r', 0, 7}, {'q', 'k', 'r', 0, 0}};
    for (size_t k = 0; k < 4; k++)
        if (strchr(castle, cr[k].right) && f->board[cr[k].rank][4] == cr[k].king &&
            f->board[cr[k].rank][cr[k].rook_file] == cr[k].rook)
            rights[nr++] = cr[k].right;
    rights[nr] = '\0';
    size_t len = 0;
    for (int r = 0; r < 8; r++) {
        int empty = 0;
        for (int c = 0; c < 8; c++) {
            char q = f->board[r][c];
            if (!q) {
                empty++;
                continue;
            }
            if (empty)
                out[len++] = (char)('0' + empty);
            empty = 0;
            out[len++] = q;
        }
        if (empty)
            out[len++] = (char)('0' + empty);
        if (r < 7)
            out[len++] = '/';
    }
    snprintf(out + len, size - len, " %s %s %s %s %s", side, nr ? rights : "-",
             *ep ? ep : "-", *half ? half : "0", *full ? full : "1");
    return f->ranks != 8 || f->short_rank ? TEX_FEN_SHAPE : TEX_FEN_OK;
}

/* The warning for a FEN whose board is not 8 by 8 (fen-shape). */
static void tex_fen_shape_finding(tex_document *r, tex_game *g, uint64_t off, const char *text,
                                  const tex_fen *f)
{
    if (f->ranks != 8)
        tex_add_finding(r, g, "fen-shape", REC_WARNING, off,
                        _("the FEN '%.60s' has %d ranks; its moves are checked on the eight "
                          "ranks TeX shows"),
                        text, f->ranks);
    else
        tex_add_finding(r, g, "fen-shape", REC_WARNING, off,
                        _("rank %d of the FEN '%.60s' has %d squares; its moves are checked on "
                          "the board TeX shows"),
                        f->short_rank, text, f->short_len);
}

/* After a game from a FEN was started: a board TeX shows otherwise than written is a
 * warning; one that cannot be read at all stops the game (no replay from the start
 * position: the referee says once that the moves are not checked). */
static void tex_fen_outcome(tex_document *r, tex_game *g, uint64_t off, const char *text,
                            tex_fen_status st, const tex_fen *f)
{
    if (st == TEX_FEN_SHAPE)
        tex_fen_shape_finding(r, g, off, text, f);
    else if (st == TEX_FEN_UNREADABLE) {
        g->bad_fen = strdup(text);
        if (!g->bad_fen)
            r->d.oom = true;
        g->broken = true;
    }
}

/* ------------------------------------------------------------------ games */

tex_game *tex_cur_game(tex_document *r)
{
    return r->cur >= 0 ? &r->games[r->cur] : NULL;
}

tex_game *tex_new_game(tex_document *r, uint64_t off, const doc_pos *start, bool custom)
{
    tex_game *v = realloc(r->games, (r->ngames + 1) * sizeof *v);
    if (!v) {
        r->d.oom = true;
        return NULL;
    }
    r->games = v;
    tex_game *g = &v[r->ngames];
    memset(g, 0, sizeof *g);
    g->cmd_off = off;
    g->pos = malloc(16 * sizeof *g->pos);
    if (!g->pos) {
        r->d.oom = true;
        return NULL;
    }
    g->cappos = 16;
    if (start)
        g->start = *start;
    else
        doc_pos_start(&g->start);
    g->custom_start = custom;
    g->pos[0] = g->start;
    g->npos = 1;
    r->cur = (long)r->ngames++;
    return g;
}

tex_game *tex_game_for_moves(tex_document *r, uint64_t off)
{
    tex_game *g = tex_cur_game(r);
    return g ? g : tex_new_game(r, off, NULL, false);
}

static void set_tag(tex_document *r, tex_game *g, const char *name, const char *value, size_t n)
{
    tex_tag *t = realloc(g->tags, (g->ntags + 1) * sizeof *t);
    if (!t) {
        r->d.oom = true;
        return;
    }
    g->tags = t;
    snprintf(t[g->ntags].name, sizeof t[g->ntags].name, "%s", name);
    t[g->ntags].value = strndup(value, n);
    g->ntags++;
}

const doc_pos *tex_game_end(const tex_game *g)
{
    return &g->pos[g->npos - 1];
}

/* ------------------------------------------------------------------ commands */

void tex_trace(tex_document *r, const tex_doc *view, uint64_t off, size_t cmd_tok,
               const char *how)
{
    if (!r->trace)
        return;
    rec_span s = doc_map_span(&r->d.m, off);
    fprintf(r->trace, "%u:%u %.*s %s\n", s.line, s.column, (int)view->tok[cmd_tok].len,
            r->d.doc + view->tok[cmd_tok].off, how);
}

void tex_note_call(tex_document *r, uint64_t from, uint64_t to, size_t i)
{
    if (r->ncalls == r->callcap) {
        size_t c = r->callcap ? r->callcap * 2 : 8;
        tex_call *v = realloc(r->calls, c * sizeof *v);
        if (!v) {
            r->d.oom = true;
            return;
        }
        r->calls = v;
        r->callcap = c;
    }
    r->calls[r->ncalls++] = (tex_call){from, to, i};
}

/* A move argument's result and syntax findings go on its game (tex_moves). */
typedef struct moves_ctx {
    tex_document *r;
    tex_game *g;
} moves_ctx;

static void moves_result(void *ctx, const char *text, size_t n)
{
    moves_ctx *c = ctx;
    free(c->g->result);
    c->g->result = strndup(text, n);
}

static void moves_not_a_move(void *ctx, uint64_t off, const char *text, size_t n)
{
    moves_ctx *c = ctx;
    tex_add_finding(c->r, c->g, "syntax-error", REC_ERROR, off,
                    _("'%.*s' in a move argument is not a move"), (int)(n > 40 ? 40 : n), text);
}

void tex_moves(tex_document *r, tex_doc *view, tex_game *g, move_run *s, size_t b, size_t e)
{
    moves_ctx c = {r, g};
    tex_move_sink sink = {r->letters, g ? moves_result : NULL, g ? moves_not_a_move : NULL, &c};
    tex_read_moves(view, b, e, s, &sink);
    if (view->oom)
        r->d.oom = true;
}
typedef struct newgame_keys {
    char *id, *setfen, *moveid, *newvar, *player;
    int movenr;
    char board[64];          /* from setwhite/addwhite/setblack/addblack, '\0' empty */
    bool pieces, cleared;
    struct { const char *k; char *v; } tags[12];
    int ntags;
} newgame_keys;

static void place_pieces(newgame_keys *n, const char *list, bool white)
{
    /* "Ke1,Qd1,e2" (pawns without a letter), as chessboard writes them; the letter in
     * either case ("kg1,pa2": chessboard reads the list's side, not the letter's
     * case), so "bc4" is a bishop and "b4" a pawn */
    const char *p = list;
    while (*p) {
        while (*p == ',' || *p == ' ')
            p++;
        char piece = 'P';
        if (*p && strchr("KQRBNPkqrbnp", *p) && p[1] >= 'a' && p[1] <= 'h' && p[2] >= '1' &&
            p[2] <= '8')
            piece = (char)toupper((unsigned char)*p++);
        if (p[0] >= 'a' && p[0] <= 'h' && p[1] >= '1' && p[1] <= '8') {
            int sq = (p[1] - '1') * 8 + (p[0] - 'a');
            n->board[sq] = white ? piece : (char)tolower((unsigned char)piece);
            p += 2;
        }
        while (*p && *p != ',')
            p++;
    }
}

static void newgame_key(const char *key, const char *value, void *ctx)
{
    newgame_keys *n = ctx;
    static const char *pgn_keys[][2] = {{"white", "White"}, {"black", "Black"}, {"result", "Result"},
                                        {"event", "Event"}, {"site", "Site"},   {"date", "Date"},
                                        {"round", "Round"}, {"whiteelo", "WhiteElo"},
                                        {"blackelo", "BlackElo"}};
    char **slot = strcmp(key, "id") == 0 ? &n->id
                  : strcmp(key, "setfen") == 0 || strcmp(key, "addfen") == 0 ? &n->setfen
                  : strcmp(key, "moveid") == 0 ? &n->moveid
                  : strcmp(key, "player") == 0 ? &n->player
                  : strcmp(key, "newvar") == 0 ? &n->newvar
                  : NULL;
    if (slot) {
        free(*slot);   /* the last of a repeated key counts */
        *slot = strdup(value);
    } else if (strcmp(key, "movenr") == 0)
        n->movenr = atoi(value);
    else if (strcmp(key, "setwhite") == 0 || strcmp(key, "setblack") == 0 ||
             strcmp(key, "addwhite") == 0 || strcmp(key, "addblack") == 0) {
        if (key[0] == 's' && !n->cleared) {
            memset(n->board, 0, sizeof n->board);
            n->cleared = true;
        }
        n->pieces = true;
        place_pieces(n, value, key[3] == 'w');
    } else
        for (size_t k = 0; k < sizeof pgn_keys / sizeof pgn_keys[0]; k++)
            if (strcmp(key, pgn_keys[k][0]) == 0 && n->ntags < 12) {
                n->tags[n->ntags].k = pgn_keys[k][1];
                n->tags[n->ntags++].v = strdup(value);
            }
}

static long find_game(const tex_document *r, const char *id)
{
    for (size_t k = r->ngames; k-- > 0;)
        if (r->games[k].id && strcmp(r->games[k].id, id) == 0)
            return (long)k;
    return -1;
}

/* moveid "12b" / "3w": the move number and side of the first move. */
static void apply_moveid(doc_pos *t, const char *moveid, int movenr, const char *player)
{
    int full = moveid ? atoi(moveid) : movenr;
    if (full > 0)
        t->full = full;
    char side = 0;
    if (moveid && *moveid) {
        side = moveid[strlen(moveid) - 1];
    } else if (player)
        side = player[0];
    if (side == 'w' || side == 'b')
        doc_pos_set_side(t, side);
}

static void cmd_newchessgame(tex_document *r, size_t i, const tex_args *a, bool resume)
{
    newgame_keys n;
    memset(&n, 0, sizeof n);
    /* pieces are added to the initial position unless a set... key clears it */
    for (int f = 0; f < 8; f++) {
        n.board[f] = "RNBQKBNR"[f];
        n.board[8 + f] = 'P';
        n.board[48 + f] = 'p';
        n.board[56 + f] = "rnbqkbnr"[f];
    }
    if (a->has_opt) {
        char *s = tex_text_of(&r->d, a->ob, a->oe);
        if (s)
            tex_each_key(s, newgame_key, &n);
        free(s);
    }
    uint64_t off = r->d.tok[i].off;
    doc_pos start;
    bool custom = false;
    tex_fen setfen;
    tex_fen_status fen_status = TEX_FEN_OK;
    doc_pos_start(&start);
    long base = -1;
    if (resume) {
        base = n.id ? find_game(r, n.id) : r->cur;
        if (base < 0) {
            goto done;
        }
        if (!n.moveid && n.movenr == 0) {
            r->cur = base;   /* go on with it */
            goto done;
        }
    } else if (n.newvar) {
        base = find_game(r, n.newvar);
    }
    if (base >= 0) {
        tex_game *b = &r->games[base];
        size_t k = b->npos - 1;
        if (resume) {
            /* the position before the move named by moveid */
            for (k = 0; k + 1 < b->npos; k++) {
                int full = n.moveid ? atoi(n.moveid) : n.movenr;
                bool black = n.moveid && n.moveid[strlen(n.moveid) - 1] == 'b';
                if (b->pos[k].full == full &&
                    (doc_pos_black(&b->pos[k])) == black)
                    break;
            }
        } else if (k > 0)
            k--;   /* newvar: before the last move */
        start = b->pos[k];
        custom = true;
    } else if (n.setfen && strchr(n.setfen, '\\')) {
        custom = false;   /* a FEN TeX computes ("\xskakget{nextfen}"): not known here */
    } else if (n.setfen) {
        char full[DOC_FEN_SIZE];
        fen_status = tex_fen_read(n.setfen, full, sizeof full, &setfen);
        if (fen_status == TEX_FEN_UNREADABLE || !doc_pos_from_fen(&start, full)) {
            fen_status = TEX_FEN_UNREADABLE;
            doc_pos_start(&start);
        } else
            custom = true;
        start.full = 1;   /* xskak: a setfen's number does not set the counter */
        apply_moveid(&start, n.moveid, n.movenr, n.player);
    } else if (n.pieces) {
        char fen[DOC_FEN_SIZE];
        size_t p = 0;
        for (int rank = 7; rank >= 0; rank--) {
            int empty = 0;
            for (int file = 0; file < 8; file++) {
                char c = n.board[rank * 8 + file];
                if (!c) {
                    empty++;
                    continue;
                }
                if (empty)
                    fen[p++] = (char)('0' + empty);
                empty = 0;
                fen[p++] = c;
            }
            if (empty)
                fen[p++] = (char)('0' + empty);
            if (rank)
                fen[p++] = '/';
        }
        snprintf(fen + p, sizeof fen - p, " w - - 0 1");
        if (doc_pos_from_fen(&start, fen))
            custom = true;
        else
            doc_pos_start(&start);
        apply_moveid(&start, n.moveid, n.movenr, n.player);
    } else if (n.moveid || n.movenr || n.player) {
        apply_moveid(&start, n.moveid, n.movenr, n.player);
        custom = true;
    }
    tex_game *g = tex_new_game(r, off, &start, custom);
    if (g && n.setfen)
        tex_fen_outcome(r, g, off, n.setfen, fen_status, &setfen);
    if (g) {
        g->id = n.id ? strdup(n.id) : NULL;
        for (int k = 0; k < n.ntags; k++)
            if (n.tags[k].v) {
                set_tag(r, g, n.tags[k].k, n.tags[k].v, strlen(n.tags[k].v));
                if (strcmp(n.tags[k].k, "Result") == 0) {
                    free(g->result);
                    g->result = strdup(n.tags[k].v);
                }
            }
    }
done:
    free(n.id);
    free(n.setfen);
    free(n.moveid);
    free(n.newvar);
    free(n.player);
    for (int k = 0; k < n.ntags; k++)
        free(n.tags[k].v);
}

/* Placement and side to move of two FENs: a diagram says nothing more. */
static bool same_diagram(const char *a, const char *b)
{
    size_t i = 0;
    int spaces = 0;
    for (;; i++) {
        char x = a[i] == '\0' ? ' ' : a[i], y = b[i] == '\0' ? ' ' : b[i];
        if (x != y)
            return false;
        if (x == ' ' && ++spaces == 2)
            return true;
        if (a[i] == '\0' || b[i] == '\0')
            return a[i] == b[i] || spaces >= 1;
    }
}


/* A diagram the text shows on g: a place its variations may start from (xskak's are
 * only printed, and one after a diagram often starts there). */
static void note_shown(tex_game *g, const char *text)
{
    char full[DOC_FEN_SIZE];
    tex_fen f;
    doc_pos at;
    if (tex_fen_read(text, full, sizeof full, &f) != TEX_FEN_UNREADABLE &&
        doc_pos_from_fen(&at, full)) {
        g->shown = at;
        g->has_shown = true;
    }
}

/* A diagram to compare with any position of g's main line once it is read. */
static void add_diagram(tex_document *r, tex_game *g, const char *fen, uint64_t off)
{
    note_shown(g, fen);
    void *d = realloc(g->diagrams, (g->ndiagrams + 1) * sizeof *g->diagrams);
    if (!d) {
        r->d.oom = true;
        return;
    }
    g->diagrams = d;
    g->diagrams[g->ndiagrams].fen = strdup(fen);
    g->diagrams[g->ndiagrams++].off = off;
}

/* A stated diagram: compared with the end of the current game. */
static void check_diagram(tex_document *r, const char *fen, uint64_t off, const char *what)
{
    tex_game *g = tex_cur_game(r);
    if (!g || g->npos < 2 || g->broken)
        return;
    char now[DOC_FEN_SIZE];
    doc_pos_fen(tex_game_end(g), now, sizeof now);
    if (!same_diagram(fen, now))
        tex_add_finding(r, g, "diagram-mismatch", REC_WARNING, off,
                    _("%s shows %.90s but the game so far gives %.90s"), what, fen, now);
}

static void cmd_fenboard(tex_document *r, size_t i, const tex_args *a)
{
    char *fen = tex_text_of(&r->d, a->ab, a->ae);
    if (!fen)
        return;
    uint64_t off = r->d.tok[i].off;
    /* skak sets the position: not compared with what came before (books put the
     * diagram of the next section first); a \fenboard game that gets no moves before
     * \newgame is that section's diagram, see cmd_newgame */
    doc_pos start;
    tex_fen f;
    char full[DOC_FEN_SIZE];
    tex_fen_status st = tex_fen_read(fen, full, sizeof full, &f);
    if (st == TEX_FEN_UNREADABLE || !doc_pos_from_fen(&start, full)) {
        st = TEX_FEN_UNREADABLE;
        doc_pos_start(&start);
    }
    tex_game *g = tex_new_game(r, off, &start, st != TEX_FEN_UNREADABLE);
    if (g)
        tex_fen_outcome(r, g, off, fen, st, &f);
    free(fen);
}

/* \newgame right after a \fenboard that got no moves: the board was the diagram of
 * the section that starts here, checked against its main line at the end. */
static void cmd_newgame(tex_document *r, uint64_t off)
{
    tex_game *prev = tex_cur_game(r);
    char fen[DOC_FEN_SIZE];
    uint64_t at = 0;
    bool carry = prev && prev->custom_start && prev->main.n == 0 && prev->nvars == 0 &&
                 prev->finds.n == 0;
    if (carry) {
        doc_pos_fen(&prev->start, fen, sizeof fen);
        at = prev->cmd_off;
    }
    tex_game *g = tex_new_game(r, off, NULL, false);
    if (g && carry)
        add_diagram(r, g, fen, at);
}

static void cmd_chessboard(tex_document *r, size_t i, const tex_args *a)
{
    if (!a->has_opt)
        return;
    char *s = tex_text_of(&r->d, a->ob, a->oe);
    if (!s)
        return;
    char *k = strstr(s, "setfen");
    if (k) {
        k += 6;
        while (*k == ' ' || *k == '=')
            k++;
        bool braced = *k == '{';
        if (braced)
            k++;
        size_t n = strcspn(k, braced ? "}" : ",]");
        k[n] = '\0';
        if (!strchr(k, '\\')) {   /* "setfen=\xskakget{nextfen}": a value TeX computes */
            check_diagram(r, k, r->d.tok[i].off, "\\chessboard[setfen=...]");
            if (tex_cur_game(r))
                note_shown(tex_cur_game(r), k);
        }
    }
    free(s);
}

static void cmd_language(tex_document *r, const tex_args *a, bool define, size_t i)
{
    if (define) {
        /* \newskaklanguage{name}{letters}: two braced arguments */
        char *name = a->has_arg ? tex_text_of(&r->d, a->ab, a->ae) : NULL;
        size_t k = tex_skip_space(&r->d, a->ae + 1);
        if (name && k < r->d.ntok && r->d.tok[k].kind == TEX_TOK_LBRACE && r->nlangs < 16) {
            size_t e = tex_group_end(&r->d, k);
            char *letters = tex_text_of(&r->d, k + 1, e);
            if (letters && strlen(letters) >= 6) {
                snprintf(r->langs[r->nlangs].name, sizeof r->langs[0].name, "%s", name);
                memcpy(r->langs[r->nlangs].letters, letters, 6);
                r->langs[r->nlangs].letters[6] = '\0';
                r->nlangs++;
            }
            free(letters);
        }
        free(name);
        return;
    }
    (void)i;
    char *name = a->has_opt ? tex_text_of(&r->d, a->ob, a->oe) : NULL;
    if (!name)
        return;
    for (size_t k = r->nlangs; k-- > 0;)
        if (strcmp(r->langs[k].name, name) == 0) {
            memcpy(r->letters, r->langs[k].letters, 7);
            break;
        }
    free(name);
}

static void cmd_storegame(tex_document *r, const tex_args *a, bool store, uint64_t off)
{
    char *name = a->has_arg ? tex_text_of(&r->d, a->ab, a->ae) : NULL;
    if (!name)
        return;
    if (store) {
        tex_game *g = tex_cur_game(r);
        snapshot *s = realloc(r->snaps, (r->nsnaps + 1) * sizeof *s);
        if (g && s) {
            r->snaps = s;
            s[r->nsnaps].name = name;
            s[r->nsnaps].at = *tex_game_end(g);
            r->nsnaps++;
            return;
        }
        if (!s)
            r->d.oom = true;
    } else {
        for (size_t k = r->nsnaps; k-- > 0;)
            if (strcmp(r->snaps[k].name, name) == 0) {
                tex_new_game(r, off, &r->snaps[k].at, true);
                break;
            }
    }
    free(name);
}


static void scan_document(tex_document *r)
{
    for (size_t i = 0; i < r->d.ntok && !r->d.oom; i++) {
        if (r->d.tok[i].kind == TEX_TOK_CMD) {
            tex_note_code_macro(&r->d, i);
            size_t after = tex_skip_code(&r->d, i);
            if (after != i) {
                for (size_t k = i + 1; k < after && r->trace; k++)
                    if (tex_is_mainline(&r->d, k) || tex_tok_is(&r->d, k, "\\variation") ||
                        tex_tok_is(&r->d, k, "\\variation*") || tex_tok_is(&r->d, k, "\\movecomment"))
                        tex_trace(r, &r->d, r->d.tok[k].off, k, "code");   /* shown, not played */
                i = after - 1;
                continue;
            }
        }
        const tex_token_at *t = &r->d.tok[i];
        if (t->kind == TEX_TOK_COMMENT) {
            if (t->len > 5 && memcmp(r->d.doc + t->off, "%FEN@", 5) == 0) {
                /* theory-of-chess: the diagram of the section's main line */
                tex_game *g = tex_game_for_moves(r, t->off);
                char *fen = strndup(r->d.doc + t->off + 5, t->len - 5);
                if (g && fen)
                    add_diagram(r, g, fen, t->off);
                free(fen);
            } else
                tex_comment_line(r, i);
            continue;
        }
        if (t->kind != TEX_TOK_CMD)
            continue;
        tex_args a;
        if (tex_tok_is(&r->d, i, "\\mainline") || tex_tok_is(&r->d, i, "\\hidemoves") ||
            tex_tok_is(&r->d, i, "\\mainline*") || tex_tok_is(&r->d, i, "\\hidemoves*")) {
            size_t next = tex_read_args(&r->d, i, true, &a);
            if (a.has_arg)
                tex_cmd_mainline(r, i, &a);
            i = next - 1;
        } else if (tex_tok_is(&r->d, i, "\\variation") || tex_tok_is(&r->d, i, "\\variation*") ||
                   tex_tok_is(&r->d, i, "\\variationcurrent") ||
                   tex_tok_is(&r->d, i, "\\continuevariationcurrent")) {
            size_t next = tex_read_args(&r->d, i, true, &a);
            if (a.has_arg)
                tex_cmd_variation(r, i, &a, false);
            i = next - 1;
        } else if (tex_tok_is(&r->d, i, "\\movecomment")) {
            /* skak prints its moves without playing them: a variation (pgn2ltx writes
             * a game's "( ... )" there) placed like xskak's */
            size_t next = tex_read_args(&r->d, i, true, &a);
            if (a.has_arg)
                tex_cmd_variation(r, i, &a, true);
            i = next - 1;
        } else if (tex_tok_is(&r->d, i, "\\begin") && tex_begins_cchess(&r->d, i, &a)) {
            i = tex_cmd_cchess(r, i, a.ae + 1) - 1;
        } else if ((tex_tok_is(&r->d, i, "\\move") || tex_tok_is(&r->d, i, "\\ply")) && !r->xq) {
            i = tex_cmd_coordinate(r, i, tex_tok_is(&r->d, i, "\\move") ? 2 : 1);
        } else if (tex_sym_piece(&r->d, i)) {
            i = tex_cmd_sym_prose(r, i);
        } else if (tex_tok_is(&r->d, i, "\\wmove") || tex_tok_is(&r->d, i, "\\bmove")) {
            size_t next = tex_read_args(&r->d, i, true, &a);
            if (a.has_arg && a.ae > a.ab)
                tex_cmd_print_move(r, i, &a, tex_tok_is(&r->d, i, "\\wmove"));
            i = next - 1;
        } else if (tex_tok_is(&r->d, i, "\\newgame")) {
            cmd_newgame(r, t->off);
        } else if (tex_tok_is(&r->d, i, "\\newchessgame") || tex_tok_is(&r->d, i, "\\resumechessgame")) {
            size_t next = tex_read_args(&r->d, i, false, &a);
            cmd_newchessgame(r, i, &a, tex_tok_is(&r->d, i, "\\resumechessgame"));
            i = next - 1;
        } else if (tex_tok_is(&r->d, i, "\\fenboard")) {
            size_t next = tex_read_args(&r->d, i, true, &a);
            if (a.has_arg)
                cmd_fenboard(r, i, &a);
            i = next - 1;
        } else if (tex_tok_is(&r->d, i, "\\chessboard")) {
            size_t next = tex_read_args(&r->d, i, false, &a);
            cmd_chessboard(r, i, &a);
            i = next - 1;
        } else if (tex_tok_is(&r->d, i, "\\skaklanguage")) {
            size_t next = tex_read_args(&r->d, i, false, &a);
            cmd_language(r, &a, false, i);
            i = next - 1;
        } else if (tex_tok_is(&r->d, i, "\\newskaklanguage")) {
            tex_read_args(&r->d, i, true, &a);
            if (a.has_arg)
                cmd_language(r, &a, true, i);
        } else if (tex_tok_is(&r->d, i, "\\storegame") || tex_tok_is(&r->d, i, "\\restoregame")) {
            size_t next = tex_read_args(&r->d, i, true, &a);
            cmd_storegame(r, &a, tex_tok_is(&r->d, i, "\\storegame"), t->off);
            i = next - 1;
        } else if (tex_tok_is(&r->d, i, "\\usepackage") || tex_tok_is(&r->d, i, "\\RequirePackage")) {
            size_t next = tex_read_args(&r->d, i, true, &a);
            char *pk = a.has_arg ? tex_text_of(&r->d, a.ab, a.ae) : NULL;
            if (pk && strstr(pk, "xskak"))
                r->skak = false;
            else if (pk && (strcmp(pk, "xq") == 0 || strstr(pk, "chinesechess")))
                r->xq = true;   /* xiangqi: its \move is not chess.sty's */
            else if (pk && (strcmp(pk, "skak") == 0 || strstr(pk, "texmate")))
                r->skak = true;
            free(pk);
            i = next - 1;
        }
    }
    /* %FEN@ diagrams: any position of the main line */
    for (size_t k = 0; k < r->ngames; k++) {
        tex_game *g = &r->games[k];
        for (size_t d = 0; d < g->ndiagrams; d++) {
            bool found = false;
            char fen[DOC_FEN_SIZE];
            for (size_t p = 0; p < g->npos && !found; p++) {
                doc_pos_fen(&g->pos[p], fen, sizeof fen);
                found = same_diagram(fen, g->diagrams[d].fen);
            }
            if (!found && !g->broken && g->npos > 1) {
                doc_pos_fen(tex_game_end(g), fen, sizeof fen);
                tex_add_finding(r, g, "diagram-mismatch", REC_WARNING, g->diagrams[d].off,
                            _("the diagram %.90s is no position of the main line (its "
                            "end is %.90s)"),
                            g->diagrams[d].fen, fen);
            }
        }
    }
}

/* ------------------------------------------------------------------ PGN out */

static void out_str(tex_document *r, const char *s)
{
    doc_map_puts(&r->d.m, s);
}

/* Text that stands for document bytes at doc (len of them). */
static void out_mapped(tex_document *r, const char *s, uint64_t doc, uint32_t len)
{
    doc_map_put_mapped(&r->d.m, s, strlen(s), doc, len);
}

static void out_items(tex_document *r, const move_run *s, const tex_game *g, bool main_line)
{
    size_t ply = 0;
    for (size_t i = 0; i < s->n; i++) {
        const move_item *it = &s->items[i];
        doc_map_put(&r->d.m, " ", 1);
        if (it->kind == MOVE_ITEM_COMMENT) {
            out_mapped(r, "{", it->off, it->len);
            out_str(r, it->text);
            out_str(r, "}");
        } else
            out_mapped(r, it->text, it->off, it->len);
        if (it->kind != MOVE_ITEM_MOVE || !main_line)
            continue;
        /* variations that are alternatives to this move */
        for (size_t k = 0; k < g->nvars; k++)
            if (g->vars[k].where == (int)ply) {
                out_str(r, " (");
                out_items(r, &g->vars[k].seq, g, false);
                out_str(r, " )");
            }
        ply++;
    }
}

static void out_tag(tex_document *r, const char *name, const char *value)
{
    out_str(r, "[");
    out_str(r, name);
    out_str(r, " \"");
    for (const char *c = value; *c; c++) {
        if (*c == '"' || *c == '\\')
            doc_map_put(&r->d.m, "\\", 1);
        doc_map_put(&r->d.m, c, 1);
    }
    out_str(r, "\"]\n");
}

static void write_pgn(tex_document *r, const output *o)
{
    const tex_game *g = &r->games[o->game];
    doc_map_reset(&r->d.m);
    out_mapped(r, "", o->var >= 0 ? g->vars[o->var].cmd_off : g->cmd_off, 1);
    char fen[DOC_FEN_SIZE];
    if (o->var >= 0) {
        const tex_var *v = &g->vars[o->var];
        doc_pos_fen(&v->start, fen, sizeof fen);
        out_tag(r, "SetUp", "1");
        out_tag(r, "FEN", fen);
        out_str(r, "\n");
        out_items(r, &v->seq, g, false);
        out_str(r, " *\n");
        return;
    }
    for (size_t k = 0; k < g->ntags; k++)
        if (g->tags[k].value)
            out_tag(r, g->tags[k].name, g->tags[k].value);
    if (g->bad_fen) {
        out_tag(r, "SetUp", "1");
        out_tag(r, "FEN", g->bad_fen);
    } else if (g->xiangqi) {
        out_tag(r, "SetUp", "1");
        out_tag(r, "FEN", g->xq_fen);
    } else if (g->custom_start) {
        doc_pos_fen(&g->start, fen, sizeof fen);
        out_tag(r, "SetUp", "1");
        out_tag(r, "FEN", fen);
    }
    out_str(r, "\n");
    out_items(r, &g->main, g, true);
    out_str(r, " ");
    out_str(r, g->result ? g->result : "*");
    out_str(r, "\n");
}

/* ------------------------------------------------------------------ the reader */

static bool load(tex_document *r)
{
    if (!tex_doc_load(&r->d, r->in)) {
        snprintf(r->error, sizeof r->error, "%s", r->d.m.error);
        return false;
    }
    scan_document(r);
    if (r->d.oom)
        return false;
    /* each game, then its variations that are games of their own */
    for (size_t k = 0; k < r->ngames; k++) {
        tex_game *g = &r->games[k];
        /* a PGN variation is an alternative to a main-line move that exists */
        for (size_t v = 0; v < g->nvars; v++) {
            tex_var *x = &g->vars[v];
            if (x->where != -1)
                continue;
            if (x->main_ply >= 0 && (size_t)x->main_ply < g->npos - 1)
                x->where = (int)x->main_ply;
            tex_trace(r, &r->d, x->cmd_off, x->tok,
                  x->where >= 0 ? (x->full ? "placed" : "placed-error")
                                : (x->full ? "own-game" : "own-game-error"));
        }
        size_t outs = 1;
        for (size_t v = 0; v < g->nvars; v++)
            outs += g->vars[v].where == -1;
        output *o = realloc(r->outs, (r->nouts + outs) * sizeof *o);
        if (!o)
            return false;
        r->outs = o;
        if (g->main_moves > 0 || g->finds.n > 0)
            o[r->nouts++] = (output){k, -1};
        for (size_t v = 0; v < g->nvars; v++)
            if (g->vars[v].where == -1)
                o[r->nouts++] = (output){k, (long)v};
    }
    return true;
}

static void *doc_open(FILE *in, const char *name)
{
    tex_document *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->in = in;
    r->name = name;
    r->cur = -1;
    memcpy(r->letters, "KQRBNP", 7);
    static const char *builtin[][2] = {{"english", "KQRBNP"}, {"german", "KDTLSB"},
                                       {"danish", "KDTLSB"},  {"french", "RDTFCP"},
                                       {"dutch", "KDTLPO"}};
    for (size_t k = 0; k < sizeof builtin / sizeof builtin[0]; k++) {
        snprintf(r->langs[k].name, sizeof r->langs[k].name, "%s", builtin[k][0]);
        memcpy(r->langs[k].letters, builtin[k][1], 7);
        r->nlangs++;
    }
    return r;
}

static void doc_trace(void *impl, FILE *t)
{
    ((tex_document *)impl)->trace = t;
}

static int doc_next(void *impl, rec_game *g, arena *a)
{
    tex_document *r = impl;
    if (!r->loaded) {
        r->loaded = true;
        if (!load(r)) {
            if (!r->error[0])
                snprintf(r->error, sizeof r->error, _("out of memory reading the document"));
            r->nouts = 0;
            return -1;
        }
    }
    if (r->next_out >= r->nouts)
        return 0;
    const output *o = &r->outs[r->next_out++];
    write_pgn(r, o);
    if (r->d.oom || r->d.m.oom) {
        snprintf(r->error, sizeof r->error, _("out of memory"));
        return -1;
    }
    FILE *mem = fmemopen(r->d.m.pgn, r->d.m.pgn_len, "r");
    pgn_reader *p = mem ? pgn_reader_open(mem, r->name) : NULL;
    int got = p ? pgn_reader_next(p, g, a) : -1;
    if (p)
        pgn_reader_close(p);
    if (mem)
        fclose(mem);
    if (got != 1) {
        snprintf(r->error, sizeof r->error, _("could not read a game back"));
        return -1;
    }
    doc_map_remap(&r->d.m, g);
    if (o->var >= 0 || !r->games[o->game].result) {
        /* a book states no result: "*" was only there for the PGN reader */
        g->result = NULL;
    }
    g->index = r->next_out;
    const tex_game *tg = &r->games[o->game];
    if (tg->xiangqi)
        g->kind = REC_XIANGQI;
    if (o->var < 0)
        doc_findings_attach(&tg->finds, &r->d.m, g);
    return 1;
}

/* English SAN back into letters (a copy in the game's arena). */
static const char *in_letters(rec_game *g, const char *letters, const char *san)
{
    char *c = arena_strdup(g->arena, san);
    if (c)
        tex_untranslate(letters, c);
    return c ? c : san;
}

static void doc_name_places(const void *impl, rec_game *g)
{
    const tex_document *r = impl;
    /* the referee read English letters: its suggestions and fixes go back into the
     * book's (a fix then matches the document's bytes, or is dropped by fix) */
    const tex_game *tg = r->next_out > 0 ? &r->games[r->outs[r->next_out - 1].game] : NULL;
    if (tg && tg->letters[0] && strcmp(tg->letters, "KQRBNP") != 0)
        for (rec_finding *f = g->findings; f; f = f->next) {
            bool ours = false;   /* the reader's own repairs are in the book's letters */
            for (size_t k = 0; k < tg->finds.n && !ours; k++)
                ours = tg->finds.v[k].repair && tg->finds.v[k].off == f->where.offset;
            if (ours)
                continue;
            for (uint32_t k = 0; k < f->suggestion_count; k++)
                f->suggestions[k] = in_letters(g, tg->letters, f->suggestions[k]);
            for (rec_fix *e = f->fix; e; e = e->next) {
                e->before = in_letters(g, tg->letters, e->before);
                e->text = in_letters(g, tg->letters, e->text);
            }
        }
    for (rec_finding *f = g->findings; f; f = f->next) {
        size_t lo = 0, hi = r->ncalls;
        while (lo < hi) {   /* the last call that starts at or before the finding */
            size_t mid = (lo + hi) / 2;
            if (r->calls[mid].from <= f->where.offset)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == 0 || f->where.offset >= r->calls[lo - 1].to || !f->message)
            continue;
        const tex_token_at *t = &r->d.tok[r->calls[lo - 1].tok];
        size_t n = strlen(f->message);
        char *m = arena_alloc_uninit(g->arena, n + t->len + 8, 1);
        if (!m)
            continue;
        snprintf(m, n + t->len + 8, _("%s (in %.*s)"), f->message, (int)t->len, r->d.doc + t->off);
        f->message = m;
    }
}

static const char *doc_error(const void *impl)
{
    const tex_document *r = impl;
    return r->error;
}

static void doc_close(void *impl)
{
    tex_document *r = impl;
    if (!r)
        return;
    for (size_t k = 0; k < r->ngames; k++) {
        tex_game *g = &r->games[k];
        free(g->id);
        free(g->bad_fen);
        for (size_t t = 0; t < g->ntags; t++)
            free(g->tags[t].value);
        free(g->tags);
        move_run_free(&g->main);
        free(g->pos);
        for (size_t v = 0; v < g->nvars; v++) {
            move_run_free(&g->vars[v].seq);
            free(g->vars[v].pos);
        }
        free(g->vars);
        doc_findings_free(&g->finds);
        free(g->result);
        for (size_t d = 0; d < g->ndiagrams; d++)
            free(g->diagrams[d].fen);
        free(g->diagrams);
    }
    free(r->games);
    for (size_t k = 0; k < r->nsnaps; k++)
        free(r->snaps[k].name);
    free(r->snaps);
    free(r->outs);
    free(r->calls);
    tex_doc_free(&r->d);
    free(r);
}

const doc_kind_ops tex_document_ops = {doc_open, doc_next, doc_name_places, doc_error, doc_close,
                                doc_trace};
