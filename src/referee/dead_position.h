/* dead_position.h: can a side still checkmate by some series of legal moves?
 *
 * FIDE Laws of Chess (2023) 5.2.2: a position is dead when neither player can checkmate
 * the opponent by any series of legal moves; the game is drawn at once. 6.9: a player
 * whose flag falls loses unless the opponent cannot checkmate by any series of legal
 * moves. Both ask a helpmate question: the loser cooperates.
 *
 * The answer is sound: UNWINNABLE only with a proof (material, a blocked pawn wall that
 * no piece can cross, or an exhaustive search whose every leaf is proved), WINNABLE only
 * with a mating line found. Otherwise UNDETERMINED. The approach follows the outline of
 * M. Ambrona's CHA (FUN 2022): trivial progress through forced moves, material,
 * a semi-static analysis of blocked positions (dp_static.h), a bounded exhaustive
 * search, a search of every reachable position (dp_closure.h) and an
 * iterative-deepening helpmate search with a node budget. Not for the per-ply hot path:
 * call it at the end of a game or on demand. */
#ifndef ARBITER_REFEREE_DEAD_POSITION_H
#define ARBITER_REFEREE_DEAD_POSITION_H

#include <stdbool.h>

#include "core/chess.h"

typedef enum dp_verdict { DP_UNDETERMINED = 0, DP_WINNABLE, DP_UNWINNABLE } dp_verdict;

#define DP_LINE_MAX 128

typedef struct dp_info {
    long nodes;              /* search nodes spent */
    const char *reason;      /* why: "material", "blocked pawns", "mate found", ... */
    int line_len;            /* WINNABLE: a mating line (plies), when found by search */
    chess_move line[DP_LINE_MAX];
} dp_info;

/* Default node budget of dp_can_mate for one side. */
#define DP_DEFAULT_BUDGET 200000L

/* Material alone proves that winner cannot mate (sound, incomplete):
 * a lone king; king and bishops only, with every bishop on the board on squares of one
 * colour and no knight or pawn on the board; king and one knight against a king with
 * nothing but queens. Never for K+N v K+N, K+B v K+N, K+N+N v K: mate is possible. */
bool dp_material_cannot_mate(const chess_pos *pos, int winner);

/* Both sides cannot mate by material alone (5.2.2): K v K, K+minor v K, and kings
 * with bishops all on squares of one colour. */
bool dp_insufficient_material(const chess_pos *pos);

/* The static tests for blocked positions. First the pawn wall: every pawn is blocked
 * head to head, no piece or king can ever capture a pawn or stand where a pawn could
 * capture it, and no piece of winner can ever attack a square the other king can reach.
 * Then the semi-static analysis of dp_static.h (after CHA): which men can never move or
 * be taken, where every other man may ever go, and whether a man of winner can ever
 * attack a square the other king may reach (or, if it can, whether enough men of the
 * loser can ever block the king's free neighbours there). Sound: true is a proof. */
bool dp_blocked_cannot_mate(const chess_pos *pos, int winner);

/* Can winner checkmate the other side by some series of legal moves from pos?
 * In order: mate on the board, material, the plain directed helpmate search (a fifth
 * of the budget: most games lost on time end in a position with an easy helpmate),
 * the static tests, a short exhaustive proof (a tenth), every
 * reachable position breadth first while there are few (an eighth, dp_closure.h), then
 * the directed search with move ordering and the static tests at every node (the rest).
 * budget: search nodes (0: DP_DEFAULT_BUDGET). info may be NULL. */
dp_verdict dp_can_mate(const chess_pos *pos, int winner, long budget, dp_info *info);

/* The plain directed helpmate search alone, no proof of any kind (material only ends a
 * line): DP_WINNABLE with the line, else DP_UNDETERMINED. For self-checks of the proofs,
 * which must never meet a mate it finds. */
dp_verdict dp_find_helpmate(const chess_pos *pos, int winner, long budget, dp_info *info);

/* The closure of dp_prove_unwinnable: tried when both sides together have at most
 * DP_CLOSED_MOVES legal moves, with budget * DP_CLOSURE_PER_PROOF_NODE positions. */
#define DP_CLOSED_MOVES 13
#define DP_CLOSURE_PER_PROOF_NODE 15

/* The proofs only, no search for a mate (FIDE 6.9 on every game lost on time, by
 * default): material, the static tests, the short exhaustive proof with budget nodes
 * (0: none), then, in a position that looks closed (few legal moves on both sides),
 * every reachable position (dp_closure.h). DP_UNWINNABLE with a proof, else
 * DP_UNDETERMINED; cheap when the winner can still mate, which fails the short proof
 * at its first leaf and rarely looks closed. */
dp_verdict dp_prove_unwinnable(const chess_pos *pos, int winner, long budget, dp_info *info);

/* Quick test, for every game end: material and the static test for both sides, then
 * the exhaustive search to a few plies (budget nodes). DP_UNWINNABLE means dead. */
dp_verdict dp_is_dead(const chess_pos *pos, long budget, dp_info *info);

/* dp_is_dead asking the quick static tests at every step of its probing line, where
 * dp_is_dead skips them once quiet moves cannot change their answer: the same verdict
 * and info, slower. For tests that check the two agree. */
dp_verdict dp_is_dead_full(const chess_pos *pos, long budget, dp_info *info);

const char *dp_verdict_name(dp_verdict v);

#endif
