/* xq_repetition.h: xiangqi repetition cycles judged by rule set (perpetual check,
 * perpetual chase, and under the CXA rules perpetual mate threats and mixed cycles).
 *
 * The replay keeps only keys on its hot path; when a position occurs the third time it
 * hands the cycle (the position at its first occurrence and the moves since) to
 * xqrep_judge, which classifies every move of each side and says who, if anyone, loses.
 *
 * Rule texts (../shared/reference/repetition-and-draw-rules.md, Part B):
 *   Vietnamese law (seed 001) Art. 7.1g perpetual check loses; 7.1h a side that breaks a
 *   prohibition (perpetual chase) while the other does not, and does not change, loses;
 *   7.2b neither side breaks a prohibition: draw; 7.2c both break the same one: draw.
 *   AXF (2003): perpetual check and perpetual chase of an unprotected piece (a horse or
 *   cannon on a chariot even if protected) are forbidden; check against chase: the
 *   checking side must change; both forbidden: draw.
 *   CXA 1999: 26.1 one-sided perpetual check loses; 26.3 both forbidden: draw; 26.4
 *   forbidden against allowed: the forbidden side loses; also forbidden: perpetual mate
 *   threat (长杀) and mixed cycles of check, mate threat and chase (一将一捉 ...). */
#ifndef ARBITER_REFEREE_XQ_REPETITION_H
#define ARBITER_REFEREE_XQ_REPETITION_H

#include <stdbool.h>
#include <stdint.h>

#include "core/xiangqi.h"
#include "referee/referee.h"

/* What one move does (B3 step 2): CHECK if it gives check; else KILL if it threatens
 * mate next move (classified under CXA only); else CHASE if it creates a chase; else
 * IDLE. */
typedef enum xqrep_kind { XQREP_IDLE = 0, XQREP_CHECK, XQREP_KILL, XQREP_CHASE } xqrep_kind;

/* At most 16 pieces a side. */
#define XQREP_MAX 16

/* The pieces of the side not `by` that `by` chases in pos, as if `by` were to move:
 * targets[i] is the point of a chased piece, chasers[i] the point of a piece of `by`
 * that could take it. Returns the count. A chase (B2): a legal capture of a piece other
 * than the general or an uncrossed soldier, by a piece other than the general or a
 * soldier, where the owner has no real root (no legal recapture; a pinned protector or
 * one that would face the generals is a fake root) or where the attack counts even on a
 * protected piece (horse or cannon on a chariot; advisor or elephant on a chariot, horse
 * or cannon); a mutual attack between pieces of the same type counts only when the
 * target cannot take back. */
int xqrep_chase_targets(const xq_pos *pos, int by, uint8_t targets[XQREP_MAX],
                        uint8_t chasers[XQREP_MAX]);

/* The class of legal move m from before. chased[] lists the points (after the move) of
 * the pieces newly chased (chased after the move and not before it) and chaser[] a piece
 * chasing each: filled for CHASE, and for a CHECK that also attacks a piece anew (a
 * perpetual chase follows its target through such checks, as Fairy-Stockfish does). */
typedef struct xqrep_class {
    xqrep_kind kind;
    int count;
    uint8_t chased[XQREP_MAX];
    uint8_t chaser[XQREP_MAX];
} xqrep_class;

void xqrep_classify(const xq_pos *before, xq_move m, referee_rules rules, xqrep_class *out);

/* Whether `by` could mate in one move in pos if the other side passed (a mate threat). */
bool xqrep_mate_threat(const xq_pos *pos, int by);

/* The verdict on a repetition cycle. */
typedef enum xqrep_fault {
    XQREP_NONE = 0,
    XQREP_PERPETUAL_CHECK,   /* every move of the side gives check */
    XQREP_PERPETUAL_CHASE,   /* every move chases one and the same piece (not all checks) */
    XQREP_PERPETUAL_KILL,    /* CXA: every move threatens mate */
    XQREP_MIXED              /* CXA: only checks, mate threats and chases, two kinds or more */
} xqrep_fault;

typedef struct xqrep_verdict {
    int loser;               /* XQ_RED or XQ_BLACK, or -1: the cycle is a draw */
    xqrep_fault fault[2];    /* what each side did (by colour) */
    /* for a perpetual check: the piece type that gave every check, 0 for several */
    int check_piece[2];
    /* for a chase (or a mixed cycle with chases): the chased piece (code, and its point
     * at the end of the cycle) and its chaser on the side's last chasing move (code, and
     * its point after that move) */
    int chased_piece[2], chased_sq[2];
    int chaser_piece[2], chaser_sq[2];
    int moves[2];            /* moves of each side in the cycle */
} xqrep_verdict;

/* Judge the cycle: start is the position at its first occurrence, moves[0..count-1]
 * the legal moves from there to its last occurrence (no capture among them). */
void xqrep_judge(const xq_pos *start, const xq_move *moves, int count, referee_rules rules,
                 xqrep_verdict *out);

/* English piece names: "general", "advisor", ... ("piece" for anything else). */
const char *xqrep_piece_name(int type);

#endif
