/* db_twins.h: the twins of a run (issue 25 part 1): for each game, in input order, the
 * first earlier game it copies.
 *
 * The index keeps every game's keys (db_keys, 32 bytes) and three open-addressing
 * tables of game numbers (first copy of each main line, every game by its players, first
 * game of each header), so memory grows by a few dozen bytes per game and never holds a
 * game (db_twins_memory). Games are settled one at a time in input order, which makes
 * the answer the same for any number of threads and for reports merged from parts.
 *
 * The rules (arbiter-check(1)), X the game settled, E an earlier one:
 *   duplicate-game   same start and main line, and the same players (name keys) in a
 *                    compatible event (equal or unknown), at least min_plies long or
 *                    with compatible headers; or at least min_plies long with the
 *                    players of one copy unknown;
 *   duplicate-moves  same start and main line, at least min_plies long, otherwise;
 *   truncated-copy   the same players, one main line the other's without its last 1 to
 *                    DB_KEYS_TAIL plies, the shorter at least min_plies long;
 *   duplicate-header same Event, Site, Date, Round, White and Black (date, round and
 *                    players known), another main line.
 * The first rule that holds is the finding; E is the first game in input order for
 * which it holds. */
#ifndef ARBITER_DB_TWINS_H
#define ARBITER_DB_TWINS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "database/db_keys.h"

/* Plies two unrelated games hardly ever share from the start (derived from the shared
 * corpora by tests/bench/twins-threshold.sh; arbiter-check(1) gives the figures). */
#define DB_TWINS_MIN_PLIES 40

typedef enum db_twin_kind {
    DB_TWIN_NONE,
    DB_TWIN_GAME,        /* duplicate-game */
    DB_TWIN_MOVES,       /* duplicate-moves */
    DB_TWIN_TRUNCATED,   /* truncated-copy */
    DB_TWIN_HEADER       /* duplicate-header */
} db_twin_kind;

/* The finding's code for a kind ("duplicate-game", ...), or NULL for none. */
const char *db_twin_code(db_twin_kind kind);

/* The first copy a game repeats. */
typedef struct db_twin {
    db_twin_kind kind;
    const char *file;    /* its input, as named when it was settled (owned by the index) */
    uint64_t game;       /* its number in that input */
    uint32_t line;       /* its first line */
    uint32_t plies;      /* its main-line plies */
    bool reference;      /* it came from a reference input (check --against) */
} db_twin;

typedef struct db_twins db_twins;

db_twins *db_twins_new(unsigned min_plies);
void db_twins_free(db_twins *t);

/* Settle game number GAME of input FILE, with keys K, after every game before it in
 * input order: fill *found with the first copy it repeats (kind DB_TWIN_NONE when
 * none) and keep its keys for the games after it. reference: the game belongs to a
 * reference database (found copies of it say so). Returns found->kind. */
db_twin_kind db_twins_settle(db_twins *t, const db_keys *k, const char *file, uint64_t game,
                             bool reference, db_twin *found);

/* Games settled, and the bytes the index holds now (keys and tables). */
uint64_t db_twins_games(const db_twins *t);
size_t db_twins_memory(const db_twins *t);

#endif
