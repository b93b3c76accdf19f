/* tour.h: the horse's tour: a horse visiting every point of an empty board once.
 *
 * Seed 001 ("Du hí văn chương: Tam giác trận") asks it for the 9x10 xiangqi board and
 * solves it by trial and error with one heuristic, "prefer the move with the fewest
 * onward moves" (Warnsdorff's rule), taking up to 2 minutes for a start point. Here the
 * same rule orders a depth-first search that backtracks, with ties broken by distance
 * from the centre and then by the onward moves of the onward moves; a node budget
 * bounds the search so a board without a tour from some point ends in time.
 *
 * Boards of any size from 1x1 to 26x26 (files x ranks). A point is rank * files + file,
 * file 0 on the left, rank 0 at the bottom (Red's or White's side), as in the cores.
 * On an empty board a horse is never blocked on its leg (Art. 4.3e of the Vietnamese
 * law needs a piece on the leg), so its moves are the eight (1,2) jumps that stay on
 * the board, the same geometry as the xiangqi core's horse tables. */
#ifndef ARBITER_TOUR_TOUR_H
#define ARBITER_TOUR_TOUR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TOUR_MAX_SIDE 26
#define TOUR_MAX_POINTS (TOUR_MAX_SIDE * TOUR_MAX_SIDE)
#define TOUR_DEFAULT_BUDGET 2000000u  /* search nodes per start point */

typedef enum tour_status {
    TOUR_FOUND,      /* path holds a tour */
    TOUR_NONE,       /* the whole search space was tried: no tour from this point */
    TOUR_GAVE_UP     /* the node budget ran out first: unknown */
} tour_status;

typedef struct tour_request {
    int files, ranks;        /* board size */
    int start;               /* starting point */
    bool closed;             /* the last point must be a horse move from the start */
    uint64_t budget;         /* most search nodes (moves tried); 0: TOUR_DEFAULT_BUDGET */
} tour_request;

typedef struct tour_result {
    tour_status status;
    uint64_t nodes;          /* moves tried */
    int path[TOUR_MAX_POINTS];  /* path[k]: the point visited at step k (0 = start) */
} tour_result;

/* The horse moves from point sq on an empty files x ranks board into to[8]; returns
 * how many. */
int tour_horse_moves(int files, int ranks, int sq, int to[8]);

/* Search for a tour. False only for a request out of range (size, start). */
bool tour_solve(const tour_request *req, tour_result *res);

/* Check a tour independently of the search: path holds every point exactly once, each
 * step is a horse move, and (closed) the last point is a horse move from the first.
 * False with the reason in err. */
bool tour_verify(int files, int ranks, const int *path, bool closed, char *err, size_t errsize);

/* Name of a point: file letter and rank number; ranks count from 0 on the 9x10
 * xiangqi board (UCCI: a0..i9) and from 1 on any other board (chess: a1..h8). buf of
 * at least 4 bytes. */
void tour_point_name(int files, int ranks, int sq, char *buf);

/* Parse a point name as tour_point_name writes it; -1 when it is not one. */
int tour_point_parse(int files, int ranks, const char *text);

#endif
