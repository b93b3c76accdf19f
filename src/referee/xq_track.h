/* xq_track.h: the claims and automatic ends along one xiangqi line (xq_track.c). */
#ifndef ARBITER_REFEREE_XQ_TRACK_H
#define ARBITER_REFEREE_XQ_TRACK_H

#include <stdbool.h>
#include <stdint.h>

#include "core/xiangqi.h"
#include "record/record.h"
#include "referee/referee.h"
#include "referee/time_control.h"

/* What a line keeps for the claims and automatic ends. Cheap per move: a key and a move
 * stored, a look back over the keys since the last capture; moves are classified only
 * when a position occurs the third time (as Pikafish does). A variation starts with a
 * copy of its parent line's up to the move it replaces: the positions before the branch
 * count for its repetitions and its move limit. Only the main line's decides the game. */
struct xq_track {
    const char *prefix;      /* "" on the main line; findings of a variation say so */
    referee_rules rules;     /* VN, AXF or CXA */
    tc_kind tc;              /* the game's time control: the annex (seed 002) in rapid/blitz */
    int limit_plies;         /* natural move limit in plies (both sides' moves) */
    uint64_t *keys;          /* keys[k]: the key after k plies of the main line */
    xq_move *moves;          /* moves[k]: the move of ply k (1-based) */
    int checks[2];           /* checks given by each side since the last capture (AXF) */
    bool draw_claimed;       /* a repetition-draw claim was reported */
    bool limit_claimed;      /* a move-limit-available claim was reported */
    const char *end_result;  /* set when a rule ended the game ("1-0", ...) */
    const char *end_reason;
    const char *end_article; /* the rule that ended it, for the messages */
    int end_ply;
    bool automatic;          /* the end needs no ruling (Art. 7.2a), not a repetition's */
    bool after_end;          /* moves after a ruled end were reported */
    /* A forbidden cycle found at pending_ply: the offender must change (Art. 7.1g-h;
     * AXF; CXA 26.4). If its next move goes on with the cycle, or the record stops in
     * it, it loses. */
    int pending_loser;       /* XQ_RED, XQ_BLACK, or -1 */
    int pending_ply;
    const char *pending_reason, *pending_article;
};

typedef struct xq_track xq_track;

/* Plies of history the variations of one game may copy in all (12 bytes each, and 16
 * more for each track): a bound on memory whatever the number of variations. */
#define XQ_BRANCH_BUDGET (1L << 20)

/* The main line's track from start (the start position's material judged at once). */
xq_track *xq_track_start(rec_game *g, const referee_options *opts, const xq_pos *start);

/* The track a variation v of line parent starts with, branching after ply plies; NULL
 * for an empty variation or past the game's branch budget *budget (the variation is
 * then replayed for legality only, said once with a finding). */
xq_track *xq_track_branch(rec_game *g, long *budget, const xq_track *parent, int ply,
                          const rec_line *v);

/* After move m of node n at ply k (before -> now). */
void xq_track_move(rec_game *g, xq_track *t, const rec_node *n, int k, const xq_pos *before,
                   xq_move m, const xq_pos *now);

/* The record stops inside a forbidden cycle: the offender did not change and loses. */
void xq_track_close(xq_track *t);

/* A finding of line t about move n at ply k (fen: before it); a variation's says so. */
rec_finding *xq_track_finding(rec_game *g, const xq_track *t, const rec_node *n, int k,
                              const char *fen, const char *code, rec_severity sev,
                              const char *msg);

#endif
