/* puzzle_check.h: puzzles (issue 26): a game from a set-up position whose main line is
 * the solution. Each move of the solver (the side to move at the start) must be the
 * only one that wins: another winning move is a second solution (puzzle-cook), a move
 * that does not win makes the puzzle unsound (puzzle-unsound). Mate puzzles of at most
 * ANNOT_MATE_MAX moves are decided by mate_search, other puzzles only with --engine.
 * Which games are puzzles: arbiter-check(1), PUZZLES. */
#ifndef ARBITER_ENGINE_PUZZLE_CHECK_H
#define ARBITER_ENGINE_PUZZLE_CHECK_H

#include <stdbool.h>

#include "record/record.h"

/* Before the run: all true (--puzzles) judges every game from a set-up position;
 * false only those the convention names. */
void puzzle_check_configure(bool all);

/* Whether g is judged as a puzzle (its tags and comments, not its moves). */
bool puzzle_check_selected(const rec_game *g);

/* Judge g's main line when it is a puzzle (after the referee; any worker thread). */
void puzzle_check_game(rec_game *g);

#endif
