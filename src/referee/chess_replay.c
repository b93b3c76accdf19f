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
#include "i18n/i18n.h"
#include "notation/chess_letters.h"
#include "notation/chess_san.h"
#include "referee/chess_rules.h"
#include "referee/dead_position.h"
#include "referee/referee.h"
#include "referee/replay_util.h"
#include "referee/tc_game.h"
#include "fixit/fixit.h"

/* Node budgets of the dead-position analysis: the quick proof at every game end, and
 * the full question "can the winner still mate" for a game lost on time (6.9). */
#define REFEREE_DEAD_BUDGET 2000L
#define REFEREE_TIMEOUT_BUDGET 50000L
/* The default 6.9 check's exhaustive proof: enough for the Lichess unfair timeouts (at
 * most 4 nodes each there), a few microseconds where the winner can still mate. */
#ifndef REFEREE_TIMEOUT_PROOF_NODES
#define REFEREE_TIMEOUT_PROOF_NODES 2000L
#endif
/* Positions of history the variations of one game may copy in all (~88 bytes each): a
 * bound on memory whatever the number of variations (see branch_rules). */
#define REFEREE_BRANCH_BUDGET 65536L

/* For tests/bench/referee.sh only: built with -DARBITER_BENCH_NO_RULES the referee
 * replays for legality, check markers and mate, without repetitions, move counters,
 * claims, dead positions or time-forfeit verdicts, to measure what those cost. */
#ifdef ARBITER_BENCH_NO_RULES
#define RULES_ON false
#else
#define RULES_ON true
#endif

/* A line's rule state: repetitions (FIDE 9.2, 9.6.1), the move counters (9.3, 9.6.2)
 * and the automatic end, if any. Every line has its own: a variation starts with a copy
 * of its parent's at the branch point, since the positions before the branch count for
 * it too (9.2.2 speaks of positions, not of the line they came from). Only the main
 * line's end decides the game; a variation's claims and ends are reported for it. */
typedef struct rules_state {
    chess_rep rep;              /* positions since the last irreversible move, the
                                 * current one the newest */
    bool main;                  /* the main line's (its end is the game's) */
    bool judged;                /* false: past the branch budget, legality only */
    bool ended;                 /* an automatic end (9.6, 5.2.2) happened at end_ply */
    bool live;                  /* judged and not ended: the rules apply to its moves
                                 * (one test per move for the two) */
    int end_ply;
    const char *end_result, *end_reason;
    bool after_end_reported;
    rec_node *last_node;        /* the last move of the line replayed */
    rec_node *prev_node;        /* the move replayed before it, or NULL */
} rules_state;

/* A line waiting to be replayed, with the position it starts from. */
typedef struct pending_line {
    const rec_line *line;
    chess_pos start;
    int start_ply;               /* plies played from the game's start before it */
    bool main;
    rules_state *rules;          /* the line's own rule state */
    struct pending_line *next;
} pending_line;

typedef struct replay {
    rec_game *g;
    pending_line *todo;
    rules_state rules;          /* the main line's */
    long timeout_nodes;         /* node budget of the 6.9 analysis; < 0: none */
    long branch_budget;         /* history entries the variations may still copy */
    rules_state *unjudged;      /* shared by the variations past the budget */
    chess_letters letters;      /* the piece letters the moves are written with */
    tc_kind tc;                 /* the game's time control (FIDE A, B) */
    bool illegal_claimed;       /* rapid/blitz: the record ends with an illegal move
                                 * the opponent claimed (A.4.2): the result stands */
} replay;

static void push_line(replay *r, const rec_line *line, const chess_pos *start, int ply,
                      rules_state *rules)
{
    pending_line *p = arena_alloc(r->g->arena, sizeof *p);
    p->line = line;
    p->start = *start;
    p->start_ply = ply;
    p->main = rules->main;
    p->rules = rules;
    p->next = r->todo;
    r->todo = p;
}

/* The rule state of the variations replayed for legality only: one for all of them
 * (nothing in it is read, only last_node written). */
static rules_state *branch_unjudged(replay *r)
{
    if (!r->unjudged) {
        r->unjudged = arena_alloc(r->g->arena, sizeof *r->unjudged);
        chess_rep_init(&r->unjudged->rep, r->g->arena);
    }
    return r->unjudged;
}

/* The rule state a variation starts with: its parent's, as it stands before the
 * replaced move (first is the variation's first move). Copying costs the parent's
 * history; past REFEREE_BRANCH_BUDGET entries for the game (thousands of variations)
 * the variation is replayed for legality only, said once with a finding. */
static rules_state *branch_rules(replay *r, const rules_state *parent, const rec_node *first)
{
    arena *a = r->g->arena;
    if (!first) /* an empty variation "()": nothing to judge */
        return branch_unjudged(r);
    if (parent->judged && RULES_ON && parent->rep.n > r->branch_budget) {
        if (r->branch_budget >= 0)
            rec_game_add_finding(r->g, "variations-not-judged", REC_INFO, first->where,
                                 _("claims and automatic ends are not judged in this variation "
                                 "and the later ones: the game's variations already copied "
                                 "%ld positions of history (a bound on memory)"),
                                 REFEREE_BRANCH_BUDGET);
        r->branch_budget = -1;
    }
    if (!parent->judged || r->branch_budget < 0)
        return branch_unjudged(r);
    rules_state *rs = arena_alloc(a, sizeof *rs);
    *rs = *parent;
    rs->main = false;
    if (RULES_ON) {
        r->branch_budget -= parent->rep.n;
        chess_rep_copy(&rs->rep, &parent->rep, a);
    }
    return rs;
}

/* Findings about a variation's claims say so: the game itself went another way. */
static const char *line_prefix(const rules_state *rs)
{
    return rs->main ? "" : _("in this variation: ");
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

static rec_finding *stop_line(rec_game *g, rec_node *bad, const chess_pos *pos, int ply,
                              const char *code, const char *msg)
{
    char fen[CHESS_FEN_BUFSIZE];
    chess_pos_to_fen(pos, fen, sizeof fen);
    return replay_stop_line(g, bad, ply, fen, code, msg);
}

/* Text in English letters (a copy in the arena when the game uses others). */
static const char *in_english(arena *a, chess_letters letters, const char *text)
{
    char english[CHESS_LETTERS_BUFSIZE];
    if (letters == CHESS_LETTERS_EN ||
        !chess_letters_to_english(letters, text, english, sizeof english))
        return text;
    return arena_strdup(a, english);
}

/* A move error: what was probably meant (fixit/), only now that one is found; in the
 * game's own piece letters. */
static void stop_with_suggestions(rec_game *g, rec_node *bad, const chess_pos *pos, int ply,
                                  const char *code, const char *msg, chess_letters letters)
{
    rec_finding *f = stop_line(g, bad, pos, ply, code, msg);
    int nrest;
    const char **rest = fixit_rest_of(g->arena, bad, FIXIT_REST_MAX, &nrest);
    for (int i = 0; letters != CHESS_LETTERS_EN && i < nrest; i++)
        rest[i] = in_english(g->arena, letters, rest[i]);
    fixit_result fr;
    fixit_chess(pos, in_english(g->arena, letters, bad->text), rest, nrest, &fr);
    for (int i = 0; letters != CHESS_LETTERS_EN && i < fr.count; i++) {
        char own[CHESS_LETTERS_BUFSIZE];
        chess_letters_from_english(letters, fr.cand[i].text, own, sizeof own);
        if (strlen(own) < sizeof fr.cand[i].text)
            memcpy(fr.cand[i].text, own, strlen(own) + 1);
    }
    fixit_attach(g, f, &fr, bad, 0);
}

/* PGN 8.2.2: a move number, where present, must be the right one. */
static void check_move_number(rec_game *g, const rec_node *n, const chess_pos *pos, int ply)
{
    if (replay_move_number_ok(n, pos->fullmove, pos->side == CHESS_BLACK))
        return;
    char fen[CHESS_FEN_BUFSIZE];
    chess_pos_to_fen(pos, fen, sizeof fen);
    replay_check_move_number(g, n, ply, fen, pos->fullmove, pos->side == CHESS_BLACK, _("White"),
                             _("Black"));
}

static const char *color_name(int side) { return side == CHESS_WHITE ? _("White") : _("Black"); }

static bool is_null_move_text(const char *t)
{
    switch (t[0]) { /* decided on one byte for most texts */
    case '-': case 'Z': case 'z': case '0': case '@':
        break;
    default:
        return false;
    }
    return strcmp(t, "--") == 0 || strcmp(t, "Z0") == 0 || strcmp(t, "z0") == 0 ||
           strcmp(t, "0000") == 0 || strcmp(t, "@@@@") == 0;
}

/* Whether node n's text is a null move. A text the PGN scanner read as SAN (its shape,
 * record.h) starts with a piece letter or a file, so it is none: most moves are
 * decided on that byte, which the SAN reader needs anyway. */
static bool is_null_move_node(const rec_node *n)
{
    return !n->san_shape && is_null_move_text(n->text);
}

/* The marker a move of each chess_check_state wants. */
static const char *const check_marks[3] = {"", "+", "#"};

/* PGN 8.2.3.2: a move that checks ends in '+', one that mates in '#'. A wrong marker
 * is a warning; a missing one only information (many databases leave them out). A '#'
 * on a move that does not mate is a false claim of mate, an error (mate-claim): a
 * reader of the book stops there believing the game is over. */
static void report_check_marker(rec_game *g, const rec_node *n, const chess_pos *pos, int ply,
                                const char *expected)
{
    char msg[200];
    bool says_mate = strchr(n->text, '#') != NULL;
    bool says_check = !says_mate && strchr(n->text, '+') != NULL;
    rec_severity sev = REC_WARNING;
    const char *code = "check-marker";
    if (says_mate && expected[0] != '#') {
        code = "mate-claim";
        sev = REC_ERROR;
    }
    if (expected[0] == '\0')
        snprintf(msg, sizeof msg, says_mate ? _("%s is marked as mate, but it gives no check")
                                            : _("%s is marked as check, but it gives no check"),
                 n->text);
    else if (expected[0] == '+' && says_mate)
        snprintf(msg, sizeof msg, _("%s is marked as mate, but it is only check"), n->text);
    else if (expected[0] == '#' && says_check)
        snprintf(msg, sizeof msg, _("%s is mate: write '#' instead of '+'"), n->text);
    else {
        sev = REC_INFO;
        snprintf(msg, sizeof msg, expected[0] == '#' ? _("%s gives mate: write %s%s")
                                                     : _("%s gives check: write %s%s"),
                 n->text, n->text, expected);
    }
    move_finding(g, n, pos, ply, code, sev, msg);
}

/* ---- claims and automatic ends (FIDE Laws 2023) ---- */

/* The plies at which entry e's position stood, "3, 7, 11" (the first eight), written
 * by hand: a snprintf a number cost more than the rest of a claim's finding. The
 * bytes are snprintf's "%s%d" a number, cut where it would cut them. */
static int plies_list(const rules_state *rs, const chess_rep_entry *e, char *buf, size_t size)
{
    int plies[8];
    int n = chess_rep_plies(&rs->rep, e, plies, 8);
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && len + 12 < size; i++) {
        char item[16]; /* ", " and the digits, from the end */
        size_t k = sizeof item;
        unsigned v = plies[i] < 0 ? 0u - (unsigned)plies[i] : (unsigned)plies[i];
        do {
            item[--k] = (char)('0' + v % 10);
            v /= 10;
        } while (v);
        if (plies[i] < 0)
            item[--k] = '-';
        if (i) {
            item[--k] = ' ';
            item[--k] = ',';
        }
        size_t w = sizeof item - k, room = size - len - 1;
        memcpy(buf + len, item + k, w < room ? w : room);
        len += w;
        buf[len < size ? len : size - 1] = '\0';
    }
    return n;
}

/* The game ended automatically with the move of node n (NULL: at the start, pos is
 * then the start position; else the position after n, undo its undo record). The
 * finding carries the FEN before the move, like every move finding. */
static void end_game(replay *r, rules_state *rs, rec_node *n, const chess_pos *pos,
                     const chess_undo *undo, int ply, const char *code, const char *reason,
                     const char *text)
{
    char msg[400];
    snprintf(msg, sizeof msg, "%s%s", line_prefix(rs), text);
    rs->ended = true;
    rs->live = false;
    rs->end_ply = ply;
    rs->end_result = "1/2-1/2";
    rs->end_reason = reason;
    rec_finding *f;
    if (n) {
        chess_pos before = *pos;
        chess_unmake(&before, n->move, undo);
        f = move_finding(r->g, n, &before, ply, code, REC_INFO, msg);
    } else {
        f = rec_game_add_finding(r->g, code, REC_INFO, r->g->start, "%s", msg);
        f->fen = fen_of(r->g->arena, pos);
    }
    f->claim = true;
}

/* The standard start position, built once: a copy is much cheaper than parsing. */
static chess_pos standard_start;
static pthread_once_t standard_start_once = PTHREAD_ONCE_INIT;
static void standard_start_init(void) { chess_pos_start(&standard_start); }

/* The position at the start of the game: its first occurrence (FIDE 9.2; the FEN
 * start counts as well), and an end already there. */
static void main_line_start(replay *r, const chess_pos *start)
{
    rules_state *rs = &r->rules;
    rs->main = true;
    rs->judged = true;
    rs->live = true;
    chess_rep_init(&rs->rep, r->g->arena);
    if (!RULES_ON)
        return;
    chess_rep_restart(&rs->rep, start, 0);
    /* the usual start, the standard position copied (padding bytes may differ: then the
     * questions below are asked), is no end; once: another thread may be building it */
    pthread_once(&standard_start_once, standard_start_init);
    if (memcmp(start, &standard_start, sizeof *start) == 0)
        return;
    if (chess_end_state(start) != CHESS_END_NONE)
        return;
    /* 5.2.2: a position where neither side can mate by material is dead */
    if (dp_insufficient_material(start))
        end_game(r, rs, NULL, start, NULL, 0, "insufficient-material", N_("insufficient material"),
                 _("the game starts in a dead position: neither side has the material to "
                 "checkmate (FIDE 5.2.2)"));
    /* 9.6.2: 75 moves by each player without capture or pawn move */
    else if (start->halfmove >= 150)
        end_game(r, rs, NULL, start, NULL, 0, "seventy-five-move", N_("75-move rule"),
                 _("the game starts with 75 moves by each player without capture or pawn "
                 "move: it is drawn (FIDE 9.6.2)"));
}

/* A move after an automatic end: the game was over (5.2.2, 9.6); said once. In a
 * variation the annotator's line went on: a warning, the game itself is not touched.
 * In the main line it is an error only when the record's result is not the draw the
 * end made: FIDE 5.2.2 and 9.6 end the game at once, so the moves played after it do
 * not count and a drawn result stands (a warning); a win contradicts the board. */
static void note_move_after_end(replay *r, rules_state *rs, rec_node *n,
                                const chess_pos *before, int ply)
{
    if (!rs->ended || rs->after_end_reported || !rs->judged)
        return;
    rs->after_end_reported = true;
    char msg[240];
    if (rs->main)
        snprintf(msg, sizeof msg, _("the game was already over after ply %d (%s, drawn): the "
                 "moves from here on do not count"), rs->end_ply, _(rs->end_reason));
    else
        snprintf(msg, sizeof msg, _("%sthe game would have been over after ply %d (%s, drawn): "
                 "the moves from here on would not count"), line_prefix(rs), rs->end_ply,
                 _(rs->end_reason));
    rec_severity sev = REC_WARNING;
    if (rs->main) {
        const char *declared = r->g->result ? r->g->result : rec_game_tag(r->g, "Result");
        if (!declared || strcmp(declared, rs->end_result) != 0)
            sev = REC_ERROR;
    }
    move_finding(r->g, n, before, ply, "moves-after-end", sev, msg);
}

/* Play node n's null move on pos: a pass is no game move, repetitions across it are not
 * counted. */
static void line_null(replay *r, rules_state *rs, rec_node *n, chess_pos *pos, int ply)
{
    n->status = REC_MOVE_NULL;
    chess_undo undo;
    chess_make_null(pos, &undo);
    const chess_pos *after = pos;
    note_move_after_end(r, rs, n, after, ply);
    rs->prev_node = rs->last_node;
    rs->last_node = n;
    if (!rs->live)
        return;
    chess_rep_restart(&rs->rep, after, ply);
}

/* After each move: one key probe; a material test after captures only. */
static void line_rules(replay *r, rules_state *rs, rec_node *n, const chess_pos *after,
                       const chess_undo *undo, uint8_t castling_before, int ply)
{
    rs->prev_node = rs->last_node;
    rs->last_node = n;
    if (!rs->live || !RULES_ON)
        return;
    /* 9.2.2: no position before a capture, a pawn move or a lost castling right (9.2.2.2)
     * can stand again; any other move is quiet, as the history wants (chess_rules.h) */
    const chess_rep_entry *e = NULL; /* NULL: the position has stood 4 times or less */
    if (after->halfmove == 0 || after->castling != castling_before)
        chess_rep_restart(&rs->rep, after, ply);
    else
        e = chess_rep_add(&rs->rep, after, n->move);
    char msg[320], list[96];

    if (e && e->count >= 5) {
        /* 9.6.1: the same position for at least the fifth time (any five occurrences,
         * not necessarily by a sequence of alternate moves) ends the game */
        plies_list(rs, e, list, sizeof list);
        snprintf(msg, sizeof msg, _("fivefold repetition: the position after %s has stood "
                 "%d times (plies %s); the game is drawn (FIDE 9.6.1)"),
                 n->text, e->count, list);
        end_game(r, rs, n, after, undo, ply, "fivefold", N_("fivefold repetition"), msg);
    }
    if (after->halfmove >= 150 && (!rs->ended || rs->end_ply == ply) &&
        chess_end_state(after) == CHESS_END_NONE) {
        /* 9.6.2: 75 moves by each player without a pawn move or capture; a mate by the
         * last move stands (and a stalemate is a draw by 5.2.1 anyway) */
        snprintf(msg, sizeof msg, _("75-move rule: %s completes 75 moves by each player "
                 "without a capture or pawn move; the game is drawn (FIDE 9.6.2)"), n->text);
        /* both at once: the fivefold repetition stays the reason given */
        const char *reason = rs->ended ? rs->end_reason : N_("75-move rule");
        end_game(r, rs, n, after, undo, ply, "seventy-five-move", reason, msg);
    } else if (!rs->ended && undo->captured && dp_insufficient_material(after)) {
        /* 5.2.2: a dead position ends the game at once */
        snprintf(msg, sizeof msg, _("after %s neither side has the material to checkmate: "
                 "dead position, the game is drawn (FIDE 5.2.2)"), n->text);
        end_game(r, rs, n, after, undo, ply, "insufficient-material", N_("insufficient material"), msg);
    }
}

/* The scanner's shapes of move text are the SAN reader's. */
_Static_assert((unsigned)REC_SAN_READ == SAN_SHAPE_READ &&
               (unsigned)REC_SAN_PIECE == SAN_SHAPE_PIECE &&
               (unsigned)REC_SAN_FILE == SAN_SHAPE_FILE &&
               (unsigned)REC_SAN_RANK == SAN_SHAPE_RANK && (unsigned)REC_SAN_X == SAN_SHAPE_X &&
               (unsigned)REC_SAN_PROMO == SAN_SHAPE_PROMO &&
               (unsigned)REC_SAN_MARK == SAN_SHAPE_MARK,
               "rec_node.san_shape is a san_shape");

/* Replay one line; the final position in *end and the plies in *end_ply. Returns
 * false when the line stopped at a bad move. */
static bool replay_line(replay *r, const pending_line *p, chess_pos *end, int *end_ply)
{
    rec_game *g = r->g;
    chess_pos pos = p->start;
    int ply = p->start_ply;
    char msg[560];
    bool complete = false;
    bool stood = false;          /* an illegal move stood (A.4.2): kings may hang */
    /* The last move, legal in a line of legal moves, gave no check: the side to move is
     * not in check, which spares the SAN reader most legality tests. Only while every
     * position of the line is legal: a null move or a move that stood ends it. */
    bool no_check = false, hints = true;
    /* read once: the stores into the nodes below might alias p for the compiler */
    rules_state *rs = p->rules;
    /* the main line keeps the keys of its positions below this ply for the opening
     * table (record.h: while it is played from its start without a gap) */
    int opening_end = p->main ? REC_OPENING_KEYS : 0;

    for (rec_node *n = p->line->first; n; n = n->next) {
        /* Alternatives to this move start from the position before it. */
        for (const rec_line *v = n->variations; v; v = v->next)
            push_line(r, v, &pos, ply, branch_rules(r, rs, v->first));
        ply++;

        check_move_number(g, n, &pos, ply);

        if (is_null_move_node(n)) {
            if (chess_in_check(&pos)) {
                stop_line(g, n, &pos, ply, "illegal-move",
                          _("a null move cannot be played while in check"));
                ply--;
                goto done;
            }
            if (p->main)
                move_finding(g, n, &pos, ply, "null-move", REC_WARNING,
                             _("null move in the main line: a game cannot pass a move"));
            no_check = hints = false;
            opening_end = ply < opening_end ? ply : opening_end; /* a gap */
            line_null(r, rs, n, &pos, ply);
            continue;
        }

        san_result res;
        const char *text = n->text;
        char english[CHESS_LETTERS_BUFSIZE];
        if (r->letters != CHESS_LETTERS_EN &&
            chess_letters_to_english(r->letters, text, english, sizeof english))
            text = english;
        chess_move move;
        bool as_san, quiet; /* written as export SAN (but for ep_written); gives no check */
        san_quick quick;
        /* the usual move in brief, with the scanner's shape (of n->text); not after a
         * move that stood, which the full answer below watches */
        if (!stood && text == n->text &&
            chess_san_quick(&pos, text, n->san_shape, no_check, &quick)) {
            if (quick.marker_wrong)
                report_check_marker(g, n, &pos, ply, check_marks[quick.check]);
            move = quick.move;
            as_san = !quick.marker_wrong;
            quiet = quick.check == CHESS_NO_CHECK;
            goto play;
        }
        chess_san_parse_shaped(&pos, text, text == n->text ? n->san_shape : 0, no_check,
                               &res);
        switch (res.status) {
        case SAN_OK:
            break;
        case SAN_NULL: /* a null-move form is_null_move_text does not know */
            no_check = hints = false;
            opening_end = ply < opening_end ? ply : opening_end; /* a gap */
            line_null(r, rs, n, &pos, ply);
            continue;
        case SAN_UNREADABLE:
        case SAN_ILLEGAL:
        case SAN_AMBIGUOUS:
            /* In a finished game every move fails: say why once, not per move. Testing
             * here, not before each move, keeps a full move generation off the hot path. */
            if (chess_end_state(&pos) != CHESS_END_NONE) {
                snprintf(msg, sizeof msg, chess_in_check(&pos)
                                              ? _("the game was already over: %s is checkmated")
                                              : _("the game was already over: %s is stalemated"),
                         color_name(pos.side));
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
            snprintf(msg, sizeof msg, _("'%s' is not a move: %s"), n->text, res.reason);
            stop_with_suggestions(g, n, &pos, ply, "unreadable-move", msg, r->letters);
            ply--;
            goto done;
        case SAN_ILLEGAL:
            snprintf(msg, sizeof msg, _("%s %s is illegal: %s"), color_name(pos.side), n->text,
                     res.reason);
            if (r->tc != TC_STANDARD && p->main && !n->next &&
                tc_opponent_won(g, pos.side == CHESS_WHITE)) {
                /* FIDE A.4.2 (blitz: Appendix B, the rapid rules apply): the opponent may
                 * claim a completed illegal move before making his own; with 7.5.5 the
                 * second such move loses. The record stops there with the loss. */
                size_t len = strlen(msg);
                snprintf(msg + len, sizeof msg - len, _("; in %s play the opponent claims it "
                         "before moving and wins if it was %s's second illegal move (FIDE "
                         "A.4.2, 7.5.5): the result stands"), _(tc_kind_name(r->tc)),
                         color_name(pos.side));
                n->status = REC_MOVE_BAD;
                move_finding(g, n, &pos, ply, "illegal-move-claimed", REC_WARNING, msg);
                r->illegal_claimed = true;
                ply--;
                goto done;
            }
            if (r->tc != TC_STANDARD && n->next && res.named != CHESS_MOVE_NONE) {
                /* A.4.2: unclaimed, it stands once the opponent has moved. A move that
                 * leaves the king in check is still a move of the pieces: made, and
                 * the line goes on from it */
                size_t len = strlen(msg);
                snprintf(msg + len, sizeof msg - len, _("; in %s play, not claimed before %s's "
                         "next move, it stands and the game goes on (FIDE A.4.2)"),
                         _(tc_kind_name(r->tc)), color_name(pos.side ^ 1));
                move_finding(g, n, &pos, ply, "illegal-move-stands",
                             p->main ? REC_WARNING : REC_INFO, msg);
                stood = true;
                hints = false;
                move = res.named;
                as_san = false; /* not export SAN: a writer formats it */
                quiet = false;
                goto play;      /* one call site keeps line_rules inlined */
            }
            if (r->tc != TC_STANDARD && !n->next && p->main) {
                size_t len = strlen(msg);
                snprintf(msg + len, sizeof msg - len, _("; in %s play the opponent could have "
                         "claimed it (FIDE A.4.2), but the result does not say so"),
                         _(tc_kind_name(r->tc)));
            }
            if (r->tc != TC_STANDARD && n->next) {
                /* A.4.2: unclaimed, it stands once the opponent has moved; a move no
                 * piece moves like has no encoding in the core: not replayed */
                size_t len = strlen(msg);
                snprintf(msg + len, sizeof msg - len, _(" (in %s play an unclaimed illegal "
                         "move stands once the opponent has moved, FIDE A.4.2, but arbiter "
                         "replays on only after a move the pieces can make, one that leaves "
                         "the king in check)"), _(tc_kind_name(r->tc)));
            }
            stop_with_suggestions(g, n, &pos, ply, "illegal-move", msg, r->letters);
            ply--;
            goto done;
        case SAN_AMBIGUOUS: {
            int len = snprintf(msg, sizeof msg, _("%s is ambiguous: it could be"), n->text);
            for (int i = 0; i < res.candidate_count && len < (int)sizeof msg - 20; i++) {
                char lan[16];
                chess_notation_format(&pos, res.candidates[i], CHESS_NOTATION_LAN, lan,
                                      sizeof lan);
                len += snprintf(msg + len, sizeof msg - (size_t)len, "%s %s",
                                i == 0 ? "" : (i + 1 == res.candidate_count ? _(" or") : ","),
                                lan);
            }
            stop_with_suggestions(g, n, &pos, ply, "ambiguous-move", msg, r->letters);
            ply--;
            goto done;
        }
        }

        if (stood && CHESS_PIECE_TYPE(chess_piece_at(&pos, chess_move_to(res.move))) == CHESS_KING) {
            /* only after an illegal move that stood: a king is never taken */
            snprintf(msg, sizeof msg, _("%s %s takes the king: the illegal move before it should "
                     "have been claimed (FIDE A.4.2)"), color_name(pos.side), n->text);
            stop_line(g, n, &pos, ply, "illegal-move", msg);
            ply--;
            goto done;
        }
        /* UCI text carries no check markers: only a wrong one is worth a word there */
        bool uci_text = res.lenient_flags & SAN_LENIENT_UCI;
        if (res.check_marker_wrong && !(uci_text && res.check_marker_written[0] == '\0'))
            report_check_marker(g, n, &pos, ply, res.check_marker_expected);
        if (res.over_disambiguated) {
            char canon[16];
            chess_notation_format(&pos, res.move, CHESS_NOTATION_SAN, canon, sizeof canon);
            snprintf(msg, sizeof msg, _("%s says more than needed: %s is enough"), n->text, canon);
            move_finding(g, n, &pos, ply, "over-disambiguated", REC_INFO, msg);
        }

        move = res.move;
        /* no lenient form, the right check marker, no extra disambiguation: written
         * as export SAN already */
        as_san = !res.lenient && !res.check_marker_wrong && !res.over_disambiguated;
        quiet = res.check_marker_expected[0] == '\0';

    play:
        n->status = REC_MOVE_OK;
        n->move = move;
        n->text_is_san = as_san && !n->ep_written && text == n->text;
        note_move_after_end(r, rs, n, &pos, ply);
        chess_undo undo;
        uint8_t castling_before = pos.castling;
        chess_make(&pos, move, &undo);
        no_check = hints && quiet;
        if (ply < opening_end)
            g->opening_keys[ply] = chess_key(&pos);
        line_rules(r, rs, n, &pos, &undo, castling_before, ply);
    }
    complete = true;
done:
    /* the occurrences counted, for the claims at the line's end (pos is the newest
     * position of the history while the line is live) */
    if (rs->live)
        chess_rep_settle(&rs->rep, &pos);
    if (p->main)
        g->opening_key_count = ply + 1 < opening_end ? ply + 1 : opening_end;
    *end = pos;
    *end_ply = ply;
    return complete;
}

/* The game's FEN and Variant tags (the first of each, as rec_game_tag finds them), from
 * the record's slots: the referee needs both for every game. */
static void start_tags(const rec_game *g, const char **fen, const char **variant)
{
    *fen = rec_game_known_value(g, REC_TAG_FEN);
    *variant = rec_game_known_value(g, REC_TAG_VARIANT);
}

/* referee_chess_start, from the game's FEN and Variant tags (either may be NULL). */
static bool chess_start_from(const char *fen, const char *variant, chess_pos *pos, char *err,
                             size_t errsize)
{
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

bool referee_chess_start(const rec_game *g, chess_pos *pos, char *err, size_t errsize)
{
    const char *fen, *variant;
    start_tags(g, &fen, &variant);
    return chess_start_from(fen, variant, pos, err, errsize);
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

/* A claim about the final position of a line, at its last move (or the game's start
 * when it has none). */
static rec_finding *final_claim(replay *r, const rules_state *rs, const chess_pos *end,
                                int ply, const char *code, const char *msg)
{
    rec_game *g = r->g;
    rec_node *last = rs->last_node;
    rec_finding *f = rec_game_add_finding(g, code, REC_INFO, last ? last->where : g->start,
                                          "%s%s", line_prefix(rs), msg);
    f->ply = ply;
    f->move_text = last ? last->text : NULL;
    f->fen = fen_of(g->arena, end);
    f->claim = true;
    return f;
}

/* 9.2.1: the player to move may claim a draw when the same position stands for at
 * least the third time (9.2.1.2), or is about to, by writing the move that makes it so
 * (9.2.1.1). 9.3: likewise after 50 moves by each player without capture or pawn move
 * (9.3.2), or with a written move that completes them (9.3.1); this reading lets the
 * announced move be any legal move that is neither a capture nor a pawn move, even
 * one that would mate (it is announced, not played: python-chess #1188). */
static void final_claims(replay *r, const rules_state *rs, const chess_pos *end, int ply)
{
    char msg[400], list[96];
    const chess_rep_entry *last = chess_rep_newest(&rs->rep);
    if (last && last->count >= 3) {
        plies_list(rs, last, list, sizeof list);
        snprintf(msg, sizeof msg, _("threefold repetition: the final position has stood %d "
                 "times (plies %s); %s may claim a draw (FIDE 9.2.1.2)"), last->count,
                 list, color_name(end->side));
        final_claim(r, rs, end, ply, "threefold-available", msg);
    } else if (rs->rep.max_count >= 2) { /* a third time needs a position seen twice */
        chess_movelist ml;
        chess_pos pos = *end;
        int n = chess_gen_legal(&pos, &ml);
        for (int i = 0; i < n; i++) {
            /* a pawn move, a capture or castling brings no position back (chess_rules.h):
             * not made */
            chess_move m = ml.moves[i];
            int kind = chess_move_kind(m);
            if (CHESS_PIECE_TYPE(end->board[chess_move_from(m)]) == CHESS_PAWN ||
                kind == CHESS_MOVE_EN_PASSANT || kind == CHESS_MOVE_CASTLE ||
                end->board[chess_move_to(m)] != 0)
                continue;
            chess_undo u;
            chess_make(&pos, ml.moves[i], &u);
            const chess_rep_entry *e = chess_rep_irreversible(end, &pos) ? NULL
                                       : chess_rep_find(&rs->rep, &pos, ml.moves[i]);
            chess_unmake(&pos, ml.moves[i], &u);
            if (e && e->count >= 2) {
                char san[16];
                chess_notation_format(end, ml.moves[i], CHESS_NOTATION_SAN, san, sizeof san);
                plies_list(rs, e, list, sizeof list);
                snprintf(msg, sizeof msg, _("threefold repetition ahead: %s may claim a draw "
                         "by writing %s, which brings the position of plies %s for the "
                         "third time (FIDE 9.2.1.1)"), color_name(end->side), san, list);
                final_claim(r, rs, end, ply, "threefold-available", msg);
                break;
            }
        }
    }
    if (end->halfmove >= 100) {
        snprintf(msg, sizeof msg, _("fifty-move rule: %d plies without a capture or pawn move; "
                 "%s may claim a draw (FIDE 9.3.2)"), end->halfmove, color_name(end->side));
        final_claim(r, rs, end, ply, "fifty-move-available", msg);
    } else if (end->halfmove == 99) {
        chess_movelist ml;
        int n = chess_gen_legal(end, &ml);
        for (int i = 0; i < n; i++) {
            chess_move m = ml.moves[i];
            int kind = chess_move_kind(m);
            if (CHESS_PIECE_TYPE(end->board[chess_move_from(m)]) == CHESS_PAWN ||
                kind == CHESS_MOVE_EN_PASSANT ||
                (kind != CHESS_MOVE_CASTLE && end->board[chess_move_to(m)] != 0))
                continue;
            char san[16];
            chess_notation_format(end, m, CHESS_NOTATION_SAN, san, sizeof san);
            snprintf(msg, sizeof msg, _("fifty-move rule ahead: %s may claim a draw by writing "
                     "%s, which completes 50 moves by each player without a capture or pawn "
                     "move (FIDE 9.3.1)"), color_name(end->side), san);
            final_claim(r, rs, end, ply, "fifty-move-available", msg);
            break;
        }
    }
}

/* Whether text at t starts with needle (lower-case ASCII), ASCII case ignored. */
static bool starts_with_ci(const char *t, const char *needle)
{
    size_t i = 0;
    while (needle[i] && (t[i] | (t[i] >= 'A' && t[i] <= 'Z' ? 0x20 : 0)) == needle[i])
        i++;
    return !needle[i];
}

/* Whether text holds needle (lower-case ASCII), ASCII case ignored: strcasestr's answer
 * in the C and UTF-8 locales, without its set-up, which costs more than these short
 * texts. */
static bool has_word_ci(const char *text, const char *needle)
{
    for (; *text; text++)
        if (starts_with_ci(text, needle))
            return true;
    return false;
}

/* Whether a comment says "on time" (so "lost on time" too), "time forfeit" or "flag
 * fell", in any case: a look only where a needle's first letter stands (strpbrk jumps
 * there: most comments, clocks, have none). */
static bool says_lost_on_time(const char *text)
{
    for (const char *t = text; (t = strpbrk(t, "oOtTfF")); t++) {
        switch (*t | 0x20) {
        case 'o':
            if (starts_with_ci(t, "on time"))
                return true;
            break;
        case 't':
            if (starts_with_ci(t, "time forfeit"))
                return true;
            break;
        case 'f':
            if (starts_with_ci(t, "flag fell"))
                return true;
            break;
        }
    }
    return false;
}

/* Whether the record says the game was lost on time: a Termination tag, a comment on
 * the last moves, or a [%clk 0:00:00] there (PGN Specification Supplement). */
static bool lost_on_time(replay *r)
{
    rec_game *g = r->g;
    const char *term = rec_game_tag(g, "Termination");
    if (term && (has_word_ci(term, "time") || has_word_ci(term, "flag")))
        return true;
    const rec_node *last = r->rules.last_node;
    /* the main line's moves are replayed in order: the one before the last is the one
     * replayed before it; with none replayed, the record's last move */
    const rec_node *prev = r->rules.prev_node;
    if (!last)
        for (const rec_node *n = g->main.first; n; n = n->next)
            prev = n;
    const rec_node *tail[2] = {prev, last};
    for (int k = 0; k < 2; k++) {
        if (!tail[k])
            continue;
        for (const rec_comment *c = tail[k]->comments; c; c = c->next) {
            if (says_lost_on_time(c->text) || replay_clock_ran_out(g->arena, c->text))
                return true;
        }
    }
    return false;
}

/* 6.9: a game lost on time is drawn when the winner cannot checkmate by any series of
 * legal moves (5.1.1, 5.2 take precedence: only when the board shows no end). */
static void judge_timeout(replay *r, const chess_pos *end, int ply, const char *declared,
                          rec_span where)
{
    if (strcmp(declared, "1-0") != 0 && strcmp(declared, "0-1") != 0)
        return;
    if (!lost_on_time(r))
        return;
    int winner = declared[0] == '1' ? CHESS_WHITE : CHESS_BLACK;
    dp_info info = {.reason = "material"};
    dp_verdict v;
    if (r->timeout_nodes < 0) {
        /* the default: the proofs only (material, the static tests, a short exhaustive
         * proof), no search for a mate; silent unless unwinnable is proved */
        v = dp_prove_unwinnable(end, winner, REFEREE_TIMEOUT_PROOF_NODES, &info);
        if (v != DP_UNWINNABLE)
            return;
    } else {
        v = dp_can_mate(end, winner, r->timeout_nodes ? r->timeout_nodes : REFEREE_TIMEOUT_BUDGET,
                        &info);
    }
    const char *who = color_name(winner);
    rec_finding *f;
    if (v == DP_UNWINNABLE)
        f = rec_game_add_finding(r->g, "unwinnable-timeout", REC_ERROR, where,
                                 _("%s won on time but cannot checkmate by any series of legal "
                                 "moves (unwinnable: %s): the result should be 1/2-1/2 "
                                 "(FIDE 6.9)"), who, _(info.reason));
    else if (v == DP_WINNABLE) {
        /* the helpmate found, in SAN: the proof that a mate exists */
        char line[200] = "";
        size_t len = 0;
        chess_pos p = *end;
        for (int i = 0; i < info.line_len && len < sizeof line - 40; i++) {
            char san[16];
            chess_notation_format(&p, info.line[i], CHESS_NOTATION_SAN, san, sizeof san);
            if (i == 0 || p.side == CHESS_WHITE)
                len += (size_t)snprintf(line + len, sizeof line - len, "%s%d.%s", i ? " " : "",
                                        p.fullmove, p.side == CHESS_WHITE ? "" : "..");
            len += (size_t)snprintf(line + len, sizeof line - len, " %s", san);
            chess_undo u;
            chess_make(&p, info.line[i], &u);
        }
        if (info.line_len == 0 || len >= sizeof line - 40)
            snprintf(line + len, sizeof line - len, "%s", info.line_len ? " ..." : _("mate on the board"));
        f = rec_game_add_finding(r->g, "unwinnable-timeout", REC_INFO, where,
                                 _("%s won on time and can still checkmate (winnable: %s): the "
                                 "result stands (FIDE 6.9)"), who, line);
    }
    else
        f = rec_game_add_finding(r->g, "unwinnable-timeout", REC_INFO, where,
                                 _("%s won on time; whether %s can still checkmate is "
                                 "undetermined after %ld nodes (FIDE 6.9)"), who, who,
                                 info.nodes);
    f->ply = ply;
    f->fen = fen_of(r->g->arena, end);
}

/* How a line that was replayed to its end finishes on the board: its first automatic
 * end (9.6, 5.2.2; later moves did not count), checkmate (5.1.1), stalemate (5.2.1), a
 * dead position (5.2.2, proved only, never guessed), or else the claims the player to
 * move has (9.2.1, 9.3). *result and *reason: the result the board decides, if any;
 * complete: the line was replayed to its last move (the board after a bad one is
 * unknown: no verdict from it). */
static void line_end(replay *r, const rules_state *rs, const chess_pos *end, int end_ply,
                     bool complete, const char **result, const char **reason)
{
    int end_state;
    *result = *reason = NULL;
    if (rs->ended) {
        *result = rs->end_result;
        *reason = rs->end_reason;
    } else if (!complete) {
        return;
    } else if ((end_state = chess_end_state(end)) == CHESS_END_CHECKMATE) {
        *result = end->side == CHESS_WHITE ? "0-1" : "1-0";
        *reason = N_("checkmate");
    } else if (end_state == CHESS_END_STALEMATE) {
        *result = "1/2-1/2";
        *reason = N_("stalemate");
    } else if (RULES_ON) {
        dp_info info;
        if (dp_is_dead(end, REFEREE_DEAD_BUDGET, &info) == DP_UNWINNABLE) {
            bool material = dp_insufficient_material(end);
            char msg[300];
            snprintf(msg, sizeof msg, _("dead position: neither side can checkmate by any "
                     "series of legal moves (%s); the game is drawn (FIDE 5.2.2)"), _(info.reason));
            final_claim(r, rs, end, end_ply,
                        material ? "insufficient-material" : "dead-position", msg);
            *result = "1/2-1/2";
            *reason = material ? N_("insufficient material") : N_("dead position");
        } else {
            final_claims(r, rs, end, end_ply);
        }
    }
}

/* Compare the declared result with the terminator and with the final position. */
static void judge_result(replay *r, const chess_pos *end, int end_ply, bool complete)
{
    rec_game *g = r->g;
    line_end(r, &r->rules, end, end_ply, complete, &g->derived_result, &g->derived_reason);
    if (r->illegal_claimed) {
        g->derived_result = tc_declared_result(g, NULL);
        g->derived_reason = N_("illegal move claimed");
    }

    const rec_tag *tag = rec_game_known_tag(g, REC_TAG_RESULT);
    const char *tag_result = tag ? referee_normal_result(tag->value) : NULL;
    if (tag && !tag_result)
        rec_game_add_finding(g, "bad-tag", REC_WARNING, tag->where,
                             _("Result \"%s\" is not one of 1-0, 0-1, 1/2-1/2, *"), tag->value);
    else if (tag && strcmp(tag->value, tag_result) != 0)
        rec_game_add_finding(g, "bad-tag", REC_WARNING, tag->where,
                             _("Result \"%s\" should be written \"%s\""), tag->value, tag_result);

    const char *term = referee_normal_result(g->result);
    if (tag_result && term && strcmp(tag_result, term) != 0)
        rec_game_add_finding(g, "result-mismatch", REC_ERROR, g->result_where,
                             _("the game ends with %s but the Result tag says %s"), term,
                             tag_result);

    const char *declared = term ? term : tag_result;
    if (declared && !g->derived_result && complete)
        if (RULES_ON)
            judge_timeout(r, end, end_ply, declared, term ? g->result_where : tag->where);
    if (!declared || !g->derived_result || strcmp(declared, g->derived_result) == 0)
        return;
    rec_span where = term ? g->result_where : tag->where;
    if (strcmp(declared, "*") == 0)
        rec_game_add_finding(g, "result-contradicts-board", REC_WARNING, where,
                             _("the result is given as unknown (*), but the game ended in %s (%s)"),
                             _(g->derived_reason), g->derived_result);
    else
        rec_game_add_finding(g, "result-contradicts-board", REC_ERROR, where,
                             _("the result %s contradicts the board: the game ended in %s (%s)"),
                             declared, _(g->derived_reason), g->derived_result);
}

/* Whether a move text's first character could be a piece letter English does not
 * have: an upper-case letter other than K Q R B N (and O, P, Z of castling, pawns and
 * null moves), a Cyrillic capital or a figurine. */
static bool foreign_letter(const char *text)
{
    unsigned char c = (unsigned char)text[0];
    switch (c) { /* P: the Dutch knight, or an English pawn */
    case 'K': case 'Q': case 'R': case 'B': case 'N': case 'O': case 'Z':
        return false;
    }
    if (c >= 'A' && c <= 'Z')
        return true;
    return c == 0xD0 || (c == 0xE2 && (unsigned char)text[1] == 0x99);
}

/* The plies of the main line from start that read and play in set's letters; the
 * moves read in a lenient form (an English pawn letter "Pe4") counted in *lenient. */
static int letters_trial(const rec_game *g, const chess_pos *start, chess_letters set,
                         uint64_t *moves_hash, int *lenient)
{
    *lenient = 0;
    chess_pos pos = *start;
    int plies = 0;
    uint64_t h = 0;
    for (const rec_node *n = g->main.first; n; n = n->next) {
        char english[CHESS_LETTERS_BUFSIZE];
        if (!chess_letters_to_english(set, n->text, english, sizeof english))
            break;
        san_result res;
        chess_san_parse(&pos, english, &res);
        if (res.status != SAN_OK)
            break;
        *lenient += res.lenient;
        chess_undo undo;
        chess_make(&pos, res.move, &undo);
        h = (h ^ (uint64_t)res.move) * UINT64_C(0x100000001B3);
        plies++;
    }
    *moves_hash = h;
    return plies;
}

/* The piece letters of the game's moves (FIDE Laws, Appendix C.10): English unless a
 * main-line move starts with a letter English does not have (or P); then each set
 * every move reads in is tried, and the one whose reading replays furthest wins, with
 * fewer lenient forms on a tie, then English first. An info finding names the
 * letters; two sets that both replay the whole line with different moves are
 * reported. */
static chess_letters choose_letters(rec_game *g, const chess_pos *start, int forced)
{
    if (forced >= 0 && forced < CHESS_LETTERS_COUNT) {
        if (forced != CHESS_LETTERS_EN)
            rec_game_add_finding(g, "piece-letters", REC_INFO, g->main.where,
                                 _("moves read with %s piece letters (%s), as asked"),
                                 chess_letters_language((chess_letters)forced),
                                 chess_letters_list((chess_letters)forced));
        return (chess_letters)forced;
    }
    /* every move a word of the PGN scanner's fast path: each has a shape or starts with
     * 'O' or a file, so the walk below would find no foreign letter */
    if (g->moves_fast_only)
        return CHESS_LETTERS_EN;
    /* a text the scanner read as SAN (a shape) starts with an English letter or a file */
    const rec_node *n = g->main.first;
    while (n && (n->san_shape || !foreign_letter(n->text)))
        n = n->next;
    if (!n)
        return CHESS_LETTERS_EN;
    chess_letters_seen seen;
    chess_letters_seen_init(&seen);
    for (n = g->main.first; n; n = n->next)
        chess_letters_observe(&seen, n->text);
    int total = 0;
    for (n = g->main.first; n; n = n->next)
        total++;
    int best = -1, best_plies = -1, best_lenient = 0, full = 0;
    uint64_t best_hash = 0;
    const char *other = NULL;
    for (int i = 0; i < CHESS_LETTERS_COUNT; i++) {
        /* a set every move reads in; English, and the set of the first foreign
         * letter's moves, are tried even when some move does not read */
        if (!(seen.fits & (1u << i)) && i != CHESS_LETTERS_EN)
            continue;
        uint64_t h;
        int lenient;
        int plies = letters_trial(g, start, (chess_letters)i, &h, &lenient);
        bool better = plies > best_plies || (plies == best_plies && lenient < best_lenient);
        if (plies == total && total > 0) {
            if (full && h != best_hash)
                other = chess_letters_language((chess_letters)(better ? best : i));
            full++;
        }
        if (better) {
            best = i;
            best_plies = plies;
            best_lenient = lenient;
            best_hash = h;
        }
    }
    if (best <= CHESS_LETTERS_EN)
        return CHESS_LETTERS_EN;
    if (other)
        rec_game_add_finding(g, "piece-letters", REC_WARNING, g->main.where,
                             _("moves read with %s piece letters (%s); %s letters replay the "
                             "game too, with other moves"),
                             chess_letters_language((chess_letters)best),
                             chess_letters_list((chess_letters)best), other);
    else
        rec_game_add_finding(g, "piece-letters", REC_INFO, g->main.where,
                             _("moves read with %s piece letters (%s)"),
                             chess_letters_language((chess_letters)best),
                             chess_letters_list((chess_letters)best));
    return (chess_letters)best;
}

void referee_chess_game(rec_game *g, const referee_options *opts)
{
    const char *fen, *variant;
    start_tags(g, &fen, &variant);
    if (!variant_is_chess(variant)) {
        rec_game_add_finding(g, "unsupported-variant", REC_INFO, g->start,
                             _("variant \"%s\" is not supported; the moves are not replayed"),
                             variant);
        return;
    }
    chess_pos start;
    char err[200];
    if (!chess_start_from(fen, variant, &start, err, sizeof err)) {
        replay_bad_fen(g, _("the FEN tag does not give a usable position: %s; "
                       "the moves are not replayed"), err);
        return;
    }

    replay r = {.g = g, .todo = NULL, .timeout_nodes = opts ? opts->chess_timeout_nodes : 0,
                .branch_budget = REFEREE_BRANCH_BUDGET, .tc = referee_time_control(g, opts)};
    r.letters = choose_letters(g, &start, opts ? opts->chess_letters : -1);
    /* the main line's first positions for the opening table (record.h): the start here,
     * the others as replay_line plays them */
    if (!g->opening_keys) /* read only below opening_key_count: not cleared */
        g->opening_keys = arena_alloc_uninit(g->arena, REC_OPENING_KEYS * sizeof *g->opening_keys,
                                             ARENA_ALIGN);
    g->opening_keys[0] = chess_key(&start);
    g->opening_key_count = 1;
    main_line_start(&r, &start);
    push_line(&r, &g->main, &start, 0, &r.rules);
    while (r.todo) {
        pending_line *p = r.todo;
        r.todo = p->next;
        chess_pos end;
        int end_ply;
        bool complete = replay_line(&r, p, &end, &end_ply);
        if (p->main) {
            g->plies = (uint32_t)end_ply;
            g->final_fen = fen_of(g->arena, &end);
            judge_result(&r, &end, end_ply, complete);
        } else if (p->line->first && complete && p->rules->judged && !p->rules->ended &&
                   (p->rules->rep.max_count >= 2 || end.halfmove >= 99)) {
            /* a variation's end, where a claim is possible (a position seen twice, or
             * the fifty-move count): its claims, for the annotator. Dead positions
             * beyond material (found after captures on the way) are not searched for
             * here: a variation ends where the annotator stopped, not the game. */
            const char *result, *reason;
            line_end(&r, p->rules, &end, end_ply, complete, &result, &reason);
        }
    }
}
