/* chess_replay.c: replay of a chess record (PGN) through the chess core.
 *
 * Main line and variations are replayed from the right position: a variation starts
 * from the position before the move it replaces. Lines wait on an explicit LIFO list
 * in the game's arena, so nesting depth costs no C stack. After an illegal, ambiguous
 * or unreadable move the rest of that line is kept as text and reported, never
 * guessed (DESIGN.md: "Never fabricate"). */
#include <config.h>

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/chess.h"
#include "notation/chess_san.h"
#include "referee/referee.h"
#include "referee/replay_util.h"

/* A line waiting to be replayed, with the position it starts from. */
typedef struct pending_line {
    const rec_line *line;
    chess_pos start;
    int start_ply;               /* plies played from the game's start before it */
    bool main;
    struct pending_line *next;
} pending_line;

typedef struct replay {
    rec_game *g;
    pending_line *todo;
} replay;

static void push_line(replay *r, const rec_line *line, const chess_pos *start, int ply, bool main)
{
    pending_line *p = arena_alloc(r->g->arena, sizeof *p);
    p->line = line;
    p->start = *start;
    p->start_ply = ply;
    p->main = main;
    p->next = r->todo;
    r->todo = p;
}

static const char *fen_of(arena *a, const chess_pos *pos)
{
    char fen[CHESS_FEN_BUFSIZE];
    chess_pos_to_fen(pos, fen, sizeof fen);
    return arena_strdup(a, fen);
}

/* A finding about a node's move, with the FEN before it. */
static rec_finding *move_finding(rec_game *g, const rec_node *n, const chess_pos *pos, int ply,
                                 const char *code, rec_severity sev, const char *msg)
{
    char fen[CHESS_FEN_BUFSIZE];
    chess_pos_to_fen(pos, fen, sizeof fen);
    return replay_move_finding(g, n, ply, fen, code, sev, msg);
}

static void stop_line(rec_game *g, rec_node *bad, const chess_pos *pos, int ply,
                      const char *code, const char *msg)
{
    char fen[CHESS_FEN_BUFSIZE];
    chess_pos_to_fen(pos, fen, sizeof fen);
    replay_stop_line(g, bad, ply, fen, code, msg);
}

/* PGN 8.2.2: a move number, where present, must be the right one. */
static void check_move_number(rec_game *g, const rec_node *n, const chess_pos *pos, int ply)
{
    if (replay_move_number_ok(n, pos->fullmove, pos->side == CHESS_BLACK))
        return;
    char fen[CHESS_FEN_BUFSIZE];
    chess_pos_to_fen(pos, fen, sizeof fen);
    replay_check_move_number(g, n, ply, fen, pos->fullmove, pos->side == CHESS_BLACK, "White",
                             "Black");
}

static const char *color_name(int side) { return side == CHESS_WHITE ? "White" : "Black"; }

static bool is_null_move_text(const char *t)
{
    if (t[0] != '-' && t[0] != 'Z' && t[0] != 'z' && t[0] != '0' && t[0] != '@')
        return false; /* the common case, decided on one byte */
    return strcmp(t, "--") == 0 || strcmp(t, "Z0") == 0 || strcmp(t, "z0") == 0 ||
           strcmp(t, "0000") == 0 || strcmp(t, "@@@@") == 0;
}

/* PGN 8.2.3.2: a move that checks ends in '+', one that mates in '#'. A wrong marker
 * is a warning; a missing one only information (many databases leave them out). */
static void report_check_marker(rec_game *g, const rec_node *n, const chess_pos *pos, int ply,
                                const char *expected)
{
    char msg[200];
    bool says_mate = strchr(n->text, '#') != NULL;
    bool says_check = !says_mate && strchr(n->text, '+') != NULL;
    rec_severity sev = REC_WARNING;
    if (expected[0] == '\0')
        snprintf(msg, sizeof msg, "%s is marked as %s, but it gives no check", n->text,
                 says_mate ? "mate" : "check");
    else if (expected[0] == '+' && says_mate)
        snprintf(msg, sizeof msg, "%s is marked as mate, but it is only check", n->text);
    else if (expected[0] == '#' && says_check)
        snprintf(msg, sizeof msg, "%s is mate: write '#' instead of '+'", n->text);
    else {
        sev = REC_INFO;
        snprintf(msg, sizeof msg, "%s gives %s: write %s%s", n->text,
                 expected[0] == '#' ? "mate" : "check", n->text, expected);
    }
    move_finding(g, n, pos, ply, "check-marker", sev, msg);
}

/* Replay one line; the final position in *end and the plies in *end_ply. Returns
 * false when the line stopped at a bad move. */
static bool replay_line(replay *r, const pending_line *p, chess_pos *end, int *end_ply)
{
    rec_game *g = r->g;
    chess_pos pos = p->start;
    int ply = p->start_ply;
    char msg[320];
    bool complete = false;

    for (rec_node *n = p->line->first; n; n = n->next) {
        /* Alternatives to this move start from the position before it. */
        for (const rec_line *v = n->variations; v; v = v->next)
            push_line(r, v, &pos, ply, false);
        ply++;

        check_move_number(g, n, &pos, ply);

        if (is_null_move_text(n->text)) {
            if (chess_in_check(&pos)) {
                stop_line(g, n, &pos, ply, "illegal-move",
                          "a null move cannot be played while in check");
                ply--;
                goto done;
            }
            if (p->main)
                move_finding(g, n, &pos, ply, "null-move", REC_WARNING,
                             "null move in the main line: a game cannot pass a move");
            n->status = REC_MOVE_NULL;
            chess_undo undo;
            chess_make_null(&pos, &undo);
            continue;
        }

        san_result res;
        chess_san_parse(&pos, n->text, &res);
        switch (res.status) {
        case SAN_OK:
            break;
        case SAN_NULL: /* a null-move form is_null_move_text does not know */
            n->status = REC_MOVE_NULL;
            {
                chess_undo undo;
                chess_make_null(&pos, &undo);
            }
            continue;
        case SAN_UNREADABLE:
        case SAN_ILLEGAL:
        case SAN_AMBIGUOUS:
            /* In a finished game every move fails: say why once, not per move. Testing
             * here, not before each move, keeps a full move generation off the hot path. */
            if (chess_is_checkmate(&pos) || chess_is_stalemate(&pos)) {
                snprintf(msg, sizeof msg, "the game was already over: %s is %s",
                         color_name(pos.side), chess_in_check(&pos) ? "checkmated" : "stalemated");
                stop_line(g, n, &pos, ply, "moves-after-end", msg);
                ply--;
                complete = true; /* the game really ended here: judge the result from it */
                goto done;
            }
            break;
        }
        switch (res.status) {
        case SAN_OK:
        case SAN_NULL:
            break;
        case SAN_UNREADABLE:
            snprintf(msg, sizeof msg, "'%s' is not a move: %s", n->text, res.reason);
            stop_line(g, n, &pos, ply, "unreadable-move", msg);
            ply--;
            goto done;
        case SAN_ILLEGAL:
            snprintf(msg, sizeof msg, "%s %s is illegal: %s", color_name(pos.side), n->text,
                     res.reason);
            stop_line(g, n, &pos, ply, "illegal-move", msg);
            ply--;
            goto done;
        case SAN_AMBIGUOUS: {
            int len = snprintf(msg, sizeof msg, "%s is ambiguous: it could be", n->text);
            for (int i = 0; i < res.candidate_count && len < (int)sizeof msg - 20; i++) {
                char text[16];
                chess_notation_format(&pos, res.candidates[i], CHESS_NOTATION_LAN, text,
                                      sizeof text);
                len += snprintf(msg + len, sizeof msg - (size_t)len, "%s %s",
                                i == 0 ? "" : (i + 1 == res.candidate_count ? " or" : ","),
                                text);
            }
            stop_line(g, n, &pos, ply, "ambiguous-move", msg);
            ply--;
            goto done;
        }
        }

        /* UCI text carries no check markers: only a wrong one is worth a word there */
        bool uci_text = res.lenient_flags & SAN_LENIENT_UCI;
        if (res.check_marker_wrong && !(uci_text && res.check_marker_written[0] == '\0'))
            report_check_marker(g, n, &pos, ply, res.check_marker_expected);
        if (res.over_disambiguated) {
            char canon[16];
            chess_notation_format(&pos, res.move, CHESS_NOTATION_SAN, canon, sizeof canon);
            snprintf(msg, sizeof msg, "%s says more than needed: %s is enough", n->text, canon);
            move_finding(g, n, &pos, ply, "over-disambiguated", REC_INFO, msg);
        }

        n->status = REC_MOVE_OK;
        n->move = res.move;
        chess_undo undo;
        chess_make(&pos, res.move, &undo);
    }
    complete = true;
done:
    *end = pos;
    *end_ply = ply;
    return complete;
}

/* The standard start position, built once: a copy is much cheaper than parsing. */
static chess_pos standard_start;
static pthread_once_t standard_start_once = PTHREAD_ONCE_INIT;
static void standard_start_init(void) { chess_pos_start(&standard_start); }

bool referee_chess_start(const rec_game *g, chess_pos *pos, char *err, size_t errsize)
{
    const char *fen = rec_game_tag(g, "FEN");
    const char *variant = rec_game_tag(g, "Variant");
    bool chess960 = variant && (strcasecmp(variant, "chess960") == 0 ||
                                strcasecmp(variant, "fischerandom") == 0 ||
                                strcasecmp(variant, "Chess 960") == 0);
    if (fen) {
        if (!chess_pos_from_fen(pos, fen, err, errsize))
            return false;
    } else {
        pthread_once(&standard_start_once, standard_start_init);
        *pos = standard_start;
    }
    if (chess960)
        chess_pos_set_chess960(pos, true);
    return true;
}

/* The start position, or a bad-fen finding at the FEN tag. */
static bool start_position(rec_game *g, chess_pos *pos)
{
    char err[200];
    if (referee_chess_start(g, pos, err, sizeof err))
        return true;
    const rec_tag *t = g->tags;
    while (t && strcmp(t->name, "FEN") != 0)
        t = t->next;
    rec_game_add_finding(g, "bad-fen", REC_ERROR, t ? t->where : g->start,
                         "the FEN tag does not give a usable position: %s; "
                         "the moves are not replayed", err);
    return false;
}

static bool variant_is_chess(const char *variant)
{
    static const char *const names[] = {"standard", "chess", "chess960", "fischerandom",
                                        "chess 960", "from position", "normal"};
    if (!variant || !*variant)
        return true;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcasecmp(variant, names[i]) == 0)
            return true;
    return false;
}

/* Compare the declared result with the terminator and with the final position. */
static void judge_result(rec_game *g, const chess_pos *end, bool complete)
{
    if (!complete) {
        /* the board after a bad move is unknown: no verdict from it */
    } else if (chess_is_checkmate(end)) {
        g->derived_result = end->side == CHESS_WHITE ? "0-1" : "1-0";
        g->derived_reason = "checkmate";
    } else if (chess_is_stalemate(end)) {
        g->derived_result = "1/2-1/2";
        g->derived_reason = "stalemate";
    }

    const rec_tag *tag = g->tags;
    while (tag && strcmp(tag->name, "Result") != 0)
        tag = tag->next;
    const char *tag_result = tag ? referee_normal_result(tag->value) : NULL;
    if (tag && !tag_result)
        rec_game_add_finding(g, "bad-tag", REC_WARNING, tag->where,
                             "Result \"%s\" is not one of 1-0, 0-1, 1/2-1/2, *", tag->value);
    else if (tag && strcmp(tag->value, tag_result) != 0)
        rec_game_add_finding(g, "bad-tag", REC_WARNING, tag->where,
                             "Result \"%s\" should be written \"%s\"", tag->value, tag_result);

    const char *term = referee_normal_result(g->result);
    if (tag_result && term && strcmp(tag_result, term) != 0)
        rec_game_add_finding(g, "result-mismatch", REC_ERROR, g->result_where,
                             "the game ends with %s but the Result tag says %s", term,
                             tag_result);

    const char *declared = term ? term : tag_result;
    if (!declared || !g->derived_result || strcmp(declared, g->derived_result) == 0)
        return;
    rec_span where = term ? g->result_where : tag->where;
    if (strcmp(declared, "*") == 0)
        rec_game_add_finding(g, "result-contradicts-board", REC_WARNING, where,
                             "the result is given as unknown (*), but the game ended in %s (%s)",
                             g->derived_reason, g->derived_result);
    else
        rec_game_add_finding(g, "result-contradicts-board", REC_ERROR, where,
                             "the result %s contradicts the board: the game ended in %s (%s)",
                             declared, g->derived_reason, g->derived_result);
}

void referee_chess_game(rec_game *g, const referee_options *opts)
{
    (void)opts;
    const char *variant = rec_game_tag(g, "Variant");
    if (!variant_is_chess(variant)) {
        rec_game_add_finding(g, "unsupported-variant", REC_INFO, g->start,
                             "variant \"%s\" is not supported; the moves are not replayed",
                             variant);
        return;
    }
    chess_pos start;
    if (!start_position(g, &start))
        return;

    replay r = {.g = g, .todo = NULL};
    push_line(&r, &g->main, &start, 0, true);
    while (r.todo) {
        pending_line *p = r.todo;
        r.todo = p->next;
        chess_pos end;
        int end_ply;
        bool complete = replay_line(&r, p, &end, &end_ply);
        if (p->main) {
            g->plies = (uint32_t)end_ply;
            g->final_fen = fen_of(g->arena, &end);
            judge_result(g, &end, complete);
        }
    }
}
