/* db_keys.h: the keys of one game for twin search (issue 25 part 1): what two copies
 * of a game share, in 32 bytes, so that a run keeps keys and never games.
 *
 * A game's main line is hashed move by move from its start position (the FEN tag's
 * board, side, castling and en passant fields, or the variant's start), so that two
 * games with equal `moves` keys have the same start and the same main line; the
 * fingerprints of the main line without its last one to four plies let a copy that
 * lost its end be found.  Players and event are compared by their name keys
 * (db_name_key: case, accents, punctuation, "Surname, G." folded; with a names table,
 * the canonical spelling of the name's group first), so that "Carlsen,M" and
 * "Carlsen, Magnus" are one player when the run says so. */
#ifndef ARBITER_DB_KEYS_H
#define ARBITER_DB_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "database/db_names.h"
#include "record/record.h"

/* The main line's last plies that a truncated copy may lack (arbiter-check(1)). */
#define DB_KEYS_TAIL 4

typedef struct db_keys {
    uint32_t moves_lo, moves_hi; /* start position and main line (64 bits, split so the
                                    record needs no 8-byte alignment) */
    uint32_t players;            /* start, White (Red) and Black keys; 0: a player unknown */
    uint32_t header;             /* Event, Site, Date, Round, White, Black; 0: too little
                                    known to tell two games apart */
    uint32_t line;               /* of the game's first line in its input */
    uint16_t plies;              /* main-line plies as written (capped at 65535) */
    uint16_t event;              /* Event key; 0: unknown */
    uint16_t tail[DB_KEYS_TAIL]; /* fingerprints of the main line without its last
                                    1, 2, 3, 4 plies (0 when shorter) */
} db_keys;

/* The 64-bit moves key. */
static inline uint64_t db_keys_moves(const db_keys *k)
{
    return (uint64_t)k->moves_hi << 32 | k->moves_lo;
}

/* The 16-bit fingerprint of a moves key (as kept in tail[]). */
static inline uint16_t db_keys_fingerprint(uint64_t moves)
{
    uint16_t f = (uint16_t)(moves >> 48);
    return f ? f : 1;
}

/* The keys of a refereed game. names: the run's names table for canonical spellings,
 * or NULL; found: the twin keys db_names_check found for the game's names (the table
 * is not asked again), or NULL. */
void db_keys_of_game(const rec_game *g, const db_names *names, const db_game_names *found,
                     db_keys *k);

/* The keys as one token of hexadecimal fields ("m.p.h.e.n.t1.t2.t3.t4"), for the
 * reports ("keys:"), so that `arbiter summary` finds twins across parts. Returns the
 * length written (OUTSZ >= DB_KEYS_TEXT_MAX). */
#define DB_KEYS_TEXT_MAX 80
size_t db_keys_format(const db_keys *k, char *out, size_t outsz);

/* Reads what db_keys_format wrote (line is not part of the text: set to 0). */
bool db_keys_parse(const char *text, db_keys *k);

#endif
