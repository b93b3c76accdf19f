/* tex_cchess.c: chinesechess (Nan Geng, CTAN 2022) games in a LaTeX document.
 *
 * Inside \begin{setcchessman}...\end{setcchessman} a game is set up with \init{ {{x,y}{P}},
 * ... } (else the initial position), \set{x,y}{P} adds a piece, \del{x,y} removes one and
 * \mov{P}{x,y}{x,y} moves one. Files x are a-i or 0-8, ranks y a-j or 0-9 from Red's
 * side; pieces K A E R C H P for Red, lower case for Black. The package moves whatever
 * it is told ("a capture unconditionally replaces the piece"), so the moves are handed
 * on as a xiangqi game in ICCS coordinates, which name the same squares, for the
 * referee to replay. */
#include <config.h>

#include "i18n/i18n.h"
#include "tex_model.h"

#include <stdlib.h>
#include <string.h>

/* A file or rank: a digit or a letter, at most max. */
static int cc_coord(const char *s, int max)
{
    while (*s == ' ')
        s++;
    if (*s >= '0' && *s <= '9')
        return *s - '0' <= max ? *s - '0' : -1;
    if (*s >= 'a' && *s <= 'j')
        return *s - 'a' <= max ? *s - 'a' : -1;
    return -1;
}

/* "b,h" into x and y; false when it is none. */
static bool cc_square(const char *s, int *x, int *y)
{
    const char *comma = strchr(s, ',');
    if (!comma)
        return false;
    *x = cc_coord(s, 8);
    *y = cc_coord(comma + 1, 9);
    return *x >= 0 && *y >= 0;
}

/* chinesechess's letters into FEN's: E (elephant) is B, H (horse) is N. */
static char cc_fen_piece(char c)
{
    static const char from[] = "KAERCHPkaerchp", to[] = "KABRCNPkabrcnp";
    const char *p = c ? strchr(from, c) : NULL;
    return p ? to[p - from] : 0;
}

static void cc_board_fen(char b[10][9], int black, char *fen, size_t size)
{
    size_t o = 0;
    for (int y = 9; y >= 0; y--) {
        int empty = 0;
        for (int x = 0; x < 9; x++) {
            if (!b[y][x]) {
                empty++;
                continue;
            }
            if (empty)
                fen[o++] = (char)('0' + empty);
            empty = 0;
            fen[o++] = b[y][x];
        }
        if (empty)
            fen[o++] = (char)('0' + empty);
        if (y)
            fen[o++] = '/';
    }
    snprintf(fen + o, size - o, " %c - - 0 1", black ? 'b' : 'w');
}

/* One setcchessman environment from the \begin at token i (its body from token body):
 * returns the token after its \end. */
size_t tex_cmd_cchess(tex_document *r, size_t i, size_t body)
{
    static const char *start[10] = {"rnbakabnr", "9", "1c5c1", "p1p1p1p1p", "9", "9",
                                    "P1P1P1P1P", "1C5C1",     "9",         "RNBAKABNR"};
    char b[10][9];
    memset(b, 0, sizeof b);
    for (int row = 0; row < 10; row++) {   /* start[] reads from Black's side down */
        int x = 0;
        for (const char *c = start[row]; *c; c++) {
            if (*c >= '1' && *c <= '9')
                x += *c - '0';
            else
                b[9 - row][x++] = *c;
        }
    }
    tex_game *g = NULL;
    size_t k = body;
    for (; k < r->d.ntok && !r->d.oom; k++) {
        if (r->d.tok[k].kind != TEX_TOK_CMD)
            continue;
        if (tex_tok_is(&r->d, k, "\\end"))
            break;
        char *a[3] = {NULL, NULL, NULL};
        int x, y, x2, y2;
        size_t next = k + 1;
        if (tex_tok_is(&r->d, k, "\\init")) {
            next = tex_brace_args(&r->d, k, 1, a);
            memset(b, 0, sizeof b);
            for (const char *p = a[0]; p && *p; p++) {
                /* "{x,y}{P}" */
                if (p[0] != '{' || p[1] == '{')
                    continue;
                const char *close = strchr(p, '}');
                if (!close || close[1] != '{' || !close[2] || close[3] != '}')
                    continue;
                char sq[16];
                int n = (int)(close - p - 1);
                snprintf(sq, sizeof sq, "%.*s", n < 15 ? n : 15, p + 1);
                if (cc_square(sq, &x, &y) && cc_fen_piece(close[2]))
                    b[y][x] = cc_fen_piece(close[2]);
                p = close + 3;
            }
        } else if (tex_tok_is(&r->d, k, "\\set")) {
            next = tex_brace_args(&r->d, k, 2, a);
            if (a[0] && a[1] && cc_square(a[0], &x, &y) && cc_fen_piece(a[1][0]))
                b[y][x] = cc_fen_piece(a[1][0]);
        } else if (tex_tok_is(&r->d, k, "\\del")) {
            next = tex_brace_args(&r->d, k, 1, a);
            if (a[0] && cc_square(a[0], &x, &y))
                b[y][x] = 0;
        } else if (tex_tok_is(&r->d, k, "\\mov")) {
            next = tex_brace_args(&r->d, k, 3, a);
            char piece = a[0] ? cc_fen_piece(a[0][0]) : 0;
            if (piece && a[1] && a[2] && cc_square(a[1], &x, &y) && cc_square(a[2], &x2, &y2)) {
                if (!g) {
                    char fen[100];
                    cc_board_fen(b, piece >= 'a', fen, sizeof fen);
                    g = tex_new_game(r, r->d.tok[k].off, NULL, true);
                    if (!g)
                        break;
                    g->xiangqi = true;
                    snprintf(g->xq_fen, sizeof g->xq_fen, "%s", fen);
                }
                if (b[y][x] != piece)
                    tex_add_finding(r, g, "wrong-piece", REC_ERROR, r->d.tok[k].off,
                                _("\\mov{%.4s}{%.8s}{%.8s} moves a piece that is not on %.8s "
                                "(%s): chinesechess moves whatever it is told"),
                                a[0], a[1], a[2], a[1], b[y][x] ? _("another piece is") : _("empty"));
                char iccs[5] = {(char)('a' + x), (char)('0' + y), (char)('a' + x2),
                                (char)('0' + y2), 0};
                /* the move's place: the whole command */
                uint64_t off = r->d.tok[k].off;
                uint32_t len = (uint32_t)(r->d.tok[next - 1].off + 1 - off);
                move_item it = {MOVE_ITEM_MOVE, off, len, strndup(iccs, 4), 0, false};
                if (!it.text || !move_run_push(&g->main, &it))
                    r->d.oom = true;
                g->main_moves++;
                b[y2][x2] = b[y][x];
                b[y][x] = 0;
                tex_note_call(r, off, off + len, k);
            }
        }
        for (int q = 0; q < 3; q++)
            free(a[q]);
        k = next - 1;
    }
    if (g)
        tex_trace(r, &r->d, r->d.tok[i].off, i, "xiangqi");
    r->cur = -1;   /* what follows is no continuation of this game */
    tex_args e;
    return k < r->d.ntok ? tex_read_args(&r->d, k, true, &e) : k;
}

