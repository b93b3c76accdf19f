/* fixit.h: what a person probably meant by a move that does not replay.
 *
 * For a bad move the candidates are the legal moves whose text, in the notation the
 * record uses, is close to what was written: a weighted edit distance over characters
 * in which the usual slips cost less (a wrong piece letter, a file or rank off by one,
 * two characters swapped, a dropped or wrong disambiguation, a pawn capture written as
 * a push, the wrong castling side, WXF sign and front/rear confusion, a doubled
 * digit), plus the move written next when two plies were swapped. They are ranked by
 * how far the rest of the line replays after each, then by that cost: the move really
 * played is nearly always the one that makes the rest of the game legal.
 *
 * Only the notation layer and the core are asked; the caller gives the position and
 * the texts written after the bad move. Nothing here runs unless a move is bad. */
#ifndef ARBITER_FIXIT_FIXIT_H
#define ARBITER_FIXIT_FIXIT_H

#include <stdbool.h>

#include "core/chess.h"
#include "core/xiangqi.h"
#include "notation/chess_san.h"
#include "notation/xq_notation.h"
#include "record/record.h"

#define FIXIT_MAX 5          /* suggestions kept */
#define FIXIT_TEXT 40
#define FIXIT_REST_MAX 2000  /* moves after the bad one that ranking replays */

typedef enum fixit_kind {
    FIXIT_REPLACE,           /* write this move instead */
    FIXIT_SWAP               /* the next move was played first: swap the two texts */
} fixit_kind;

typedef struct fixit_cand {
    char text[FIXIT_TEXT];   /* the move in the record's notation */
    double cost;             /* how unlikely the slip is (0: identical text) */
    int replays;             /* moves of the rest that replay after it */
    int canon;               /* of those, written exactly as the notation writes them: where
                              * two candidates both replay, the record's own writer tells */
    double rank_cost;        /* cost as ranking sees it (fixit_rank fills it in) */
    int prior;               /* between candidates that nothing else tells apart, lower first:
                              * how likely a player was to move this piece (fixit_chess.c) */
    fixit_kind kind;
    int group;               /* piece type and destination: two candidates of one group
                              * differ only in which piece moved, so how the text was
                              * misspelt cannot tell them apart */
} fixit_cand;

typedef struct fixit_result {
    int count;
    fixit_cand cand[FIXIT_MAX];  /* best first */
    int rest;                /* moves written after the bad one (as given) */
    bool full;               /* the rest replays completely after the first candidate */
    bool certain;            /* ...and no other candidate does as well: safe to apply (also
                              * when a later error stops every candidate, but the first
                              * replays clearly further than any other) */
    const char *none;        /* why nothing fits, when count == 0 */
} fixit_result;

/* Weighted distance between two UTF-8 move texts (lower is closer); exposed for tests. */
double fixit_distance(const char *written, const char *cand);

/* Candidates for the chess move text written at pos; rest: the move texts written
 * after it in its line (nrest of them). */
void fixit_chess(const chess_pos *pos, const char *written, const char *const *rest, int nrest,
                 fixit_result *out);

/* The same for xiangqi in notation n. */
void fixit_xq(const xq_pos *pos, xqn_notation n, const char *written, const char *const *rest,
              int nrest, fixit_result *out);

/* The texts of the moves after node bad in its line, in the arena (*count of them,
 * at most max). */
const char **fixit_rest_of(arena *a, const rec_node *bad, int max, int *count);

/* Attach r to finding f about node bad (NULL for a move inside a comment; then only a
 * single replacement at f->where of length len is possible). */
void fixit_attach(rec_game *g, rec_finding *f, const fixit_result *r, const rec_node *bad,
                  uint32_t len);

#endif
