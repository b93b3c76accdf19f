/* board.c: positions to draw, from replayed game records (see board.h). */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "diagram/board.h"
#include "i18n/i18n.h"
#include "record/comment_cmd.h"
#include "referee/referee.h"

void dg_board_from_xiangqi(dg_board *b, const xq_pos *pos)
{
    memset(b, 0, sizeof *b);
    b->kind = REC_XIANGQI;
    b->files = XQ_FILES;
    b->ranks = XQ_RANKS;
    memcpy(b->piece, pos->board, XQ_SQUARES);
    b->side = pos->side;
    b->fullmove = pos->fullmove;
    b->last_from = b->last_to = -1;
    xq_pos_to_fen(pos, b->fen, sizeof b->fen);
}

void dg_board_from_chess(dg_board *b, const chess_pos *pos)
{
    memset(b, 0, sizeof *b);
    b->kind = REC_CHESS;
    b->files = b->ranks = 8;
    for (int sq = 0; sq < 64; sq++)
        b->piece[sq] = (unsigned char)chess_piece_at(pos, sq);
    b->side = pos->side;
    b->fullmove = (unsigned)pos->fullmove;
    b->last_from = b->last_to = -1;
    chess_pos_to_fen(pos, b->fen, sizeof b->fen);
}

/* A point name in the game's coordinates: chess a1..h8, xiangqi a0..i9 (UCCI). */
static int point_at(const dg_board *b, const char *s)
{
    int f = s[0] - 'a';
    int r = s[1] - (b->kind == REC_XIANGQI ? '0' : '1');
    if (f < 0 || f >= b->files || r < 0 || r >= b->ranks)
        return -1;
    return r * b->files + f;
}

/* "Ra1,Gb2" or "Ge2e4,Rd7d5", read again here so that xiangqi points (ranks 0-9) are
 * understood too; the comment_cmd parser knows the chess board only. */
static void add_marks_from(dg_board *b, const char *args, bool arrows)
{
    const char *s = args;
    while (*s && b->mark_count < DG_MAX_MARKS) {
        while (*s == ',' || *s == ' ')
            s++;
        size_t len = strcspn(s, ", ");
        if (len == 0)
            break;
        char c = s[0] >= 'a' && s[0] <= 'z' ? (char)(s[0] - 32) : s[0];
        if (len == (arrows ? 5u : 3u) && strchr("RGYB", c)) {
            int from = point_at(b, s + 1), to = arrows ? point_at(b, s + 3) : -1;
            if (from >= 0 && (!arrows || to >= 0))
                b->marks[b->mark_count++] = (dg_mark){c, from, to};
        }
        s += len;
    }
}

void dg_board_add_marks(dg_board *b, arena *a, const rec_comment *comments)
{
    for (const rec_comment *c = comments; c; c = c->next) {
        if (c->diagram)
            continue;
        for (rec_command *cmd = rec_comment_commands(a, c->text, NULL); cmd; cmd = cmd->next)
            if (cmd->kind == REC_CMD_CSL || cmd->kind == REC_CMD_CAL)
                add_marks_from(b, cmd->args, cmd->kind == REC_CMD_CAL);
    }
}

/* The main line played on a position of either game. */
typedef struct walker {
    const rec_game *g;
    xq_pos xq;
    chess_pos chess;
    int ply;
    int last_from, last_to;
} walker;

static bool walker_start(walker *w, const rec_game *g, char *err, size_t errsize)
{
    memset(w, 0, sizeof *w);
    w->g = g;
    w->last_from = w->last_to = -1;
    if (g->kind == REC_XIANGQI)
        return referee_xiangqi_start(g, &w->xq, err, errsize);
    return referee_chess_start(g, &w->chess, err, errsize);
}

/* Play node n's move as the referee resolved it; false when it could not. */
static bool walker_play(walker *w, const rec_node *n)
{
    if (n->status == REC_MOVE_OK) {
        if (w->g->kind == REC_XIANGQI) {
            xq_undo u;
            w->last_from = xq_move_from(n->move);
            w->last_to = xq_move_to(n->move);
            xq_make(&w->xq, n->move, &u);
        } else {
            chess_undo u;
            w->last_from = chess_move_from(n->move);
            w->last_to = chess_move_to(n->move);
            chess_make(&w->chess, n->move, &u);
        }
    } else if (n->status == REC_MOVE_NULL) {
        w->last_from = w->last_to = -1;
        if (w->g->kind == REC_XIANGQI) {
            /* a null move passes the turn; the core has no such move, the picture only
             * needs the side and the move number */
            w->xq.side ^= 1;
            if (w->xq.side == XQ_RED)
                w->xq.fullmove++;
        } else {
            chess_undo u;
            chess_make_null(&w->chess, &u);
        }
    } else {
        return false;
    }
    w->ply++;
    return true;
}

static const char *game_title(const rec_game *g)
{
    static const char *const names[] = {"Event", "GAME", "Title"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        const char *v = rec_game_tag(g, names[i]);
        if (v && *v && strcmp(v, "?") != 0)
            return v;
    }
    return NULL;
}

static void walker_board(const walker *w, dg_board *b, const rec_comment *comments)
{
    if (w->g->kind == REC_XIANGQI)
        dg_board_from_xiangqi(b, &w->xq);
    else
        dg_board_from_chess(b, &w->chess);
    b->ply = w->ply;
    b->last_from = w->last_from;
    b->last_to = w->last_to;
    dg_board_add_marks(b, w->g->arena, comments);
    const char *title = game_title(w->g);
    /* whole sentences, one for each side to play, so that each language words its own */
    const char *where = b->side ? _("game %llu, ply %d: move %u, Black to play")
                        : w->g->kind == REC_XIANGQI ? _("game %llu, ply %d: move %u, Red to play")
                                                    : _("game %llu, ply %d: move %u, White to play");
    /* cut the title at a character boundary so the caption stays valid UTF-8 */
    char t[96] = "";
    if (title) {
        size_t len = strlen(title);
        if (len > sizeof t - 1) {
            len = sizeof t - 1;
            while (len > 0 && ((unsigned char)title[len] & 0xC0) == 0x80)
                len--;
        }
        memcpy(t, title, len);
        t[len] = '\0';
    }
    char at[160];
    snprintf(at, sizeof at, where, (unsigned long long)w->g->index, b->ply, b->fullmove);
    snprintf(b->caption, sizeof b->caption, "%s%s%s", t, *t ? " \xE2\x80\x94 " : "", at);
}

bool dg_board_at_ply(const rec_game *g, int ply, dg_board *b, char *err, size_t errsize)
{
    walker w;
    if (!walker_start(&w, g, err, errsize))
        return false;
    const rec_comment *comments = g->main.comments;
    for (const rec_node *n = g->main.first; n && (ply < 0 || w.ply < ply); n = n->next) {
        if (!walker_play(&w, n))
            break;
        comments = n->comments;
    }
    if (ply >= 0 && w.ply < ply) {
        snprintf(err, errsize, _("game %llu has %d playable plies, not %d"),
                 (unsigned long long)g->index, w.ply, ply);
        return false;
    }
    walker_board(&w, b, comments);
    return true;
}

int dg_for_each_marker(const rec_game *g, dg_marker_fn fn, void *ctx)
{
    walker w;
    char err[200];
    if (!walker_start(&w, g, err, sizeof err))
        return 0;
    int seen = 0;
    const rec_comment *comments = g->main.comments;
    const rec_node *n = g->main.first;
    for (;;) {
        for (const rec_comment *c = comments; c; c = c->next) {
            if (!c->diagram)
                continue;
            dg_board b;
            walker_board(&w, &b, comments);
            seen++;
            if (!fn(g, c, &b, ctx))
                return -1;
        }
        if (!n || !walker_play(&w, n))
            return seen;
        comments = n->comments;
        n = n->next;
    }
}

void dg_caption_append(dg_board *b, const char *text)
{
    size_t used = strlen(b->caption), len = strlen(text);
    if (used + len > sizeof b->caption - 1) {
        len = sizeof b->caption - 1 - used;
        while (len > 0 && ((unsigned char)text[len] & 0xC0) == 0x80)
            len--;
    }
    memcpy(b->caption + used, text, len);
    b->caption[used + len] = '\0';
}

const char *dg_piece_glyph(rec_game_kind kind, int piece, bool ascii)
{
    static const char *const xq_red[8] = {"", "帥", "仕", "相", "傌", "俥", "炮", "兵"};
    static const char *const xq_black[8] = {"", "將", "士", "象", "馬", "車", "砲", "卒"};
    static const char *const xq_ascii[2][8] = {{"", "K", "A", "B", "N", "R", "C", "P"},
                                               {"", "k", "a", "b", "n", "r", "c", "p"}};
    static const char *const ch_white[8] = {"", "♙", "♘", "♗", "♖", "♕", "♔", ""};
    static const char *const ch_black[8] = {"", "♟", "♞", "♝", "♜", "♛", "♚", ""};
    static const char *const ch_ascii[2][8] = {{"", "P", "N", "B", "R", "Q", "K", ""},
                                               {"", "p", "n", "b", "r", "q", "k", ""}};
    int type = piece & 7, color = (piece >> 3) & 1;
    if (kind == REC_XIANGQI)
        return ascii ? xq_ascii[color][type] : color ? xq_black[type] : xq_red[type];
    return ascii ? ch_ascii[color][type] : color ? ch_black[type] : ch_white[type];
}
