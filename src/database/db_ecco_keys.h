/* db_ecco_keys.h: private to db_ecco.c and gen_ecco_slots.c: the ECCO table's position
 * keys and its index, made at build time.
 *
 * A position's key is our own Zobrist-style hash of the placement and the side to move,
 * taken both as the board stands and mirrored left to right; the smaller of the two is
 * the key, so a mirrored opening finds the same row. A line "from" a code (the move
 * order decides there) is keyed by the position's key XOR that code's own random key.
 * gen_ecco_slots replays every line of the table with the xiangqi core and writes the
 * index and the keys as constant C data (db_ecco_slots.c), so that no run replays the
 * table (2.7 million instructions, more than checking a short game). */
#ifndef ARBITER_DB_ECCO_KEYS_H
#define ARBITER_DB_ECCO_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include "core/xiangqi.h"
#include "database/db_rows.h"

#define DB_ECCO_SLOTS 4096 /* a power of two, over twice the table's lines */
#define DB_ECCO_CODES 501  /* A00-E99 as 0-499; 500: no code yet */

/* Constant, but for the generator that fills them. */
#ifdef DB_ECCO_GENERATOR
#define DB_ECCO_TABLE
#else
#define DB_ECCO_TABLE const
#endif

/* A position's hash as it stands (k) and mirrored (m); its key is the smaller. */
typedef struct db_ecco_keys {
    uint64_t k, m;
} db_ecco_keys;

extern DB_ECCO_TABLE db_row_slot db_ecco_slots[DB_ECCO_SLOTS]; /* key -> first line */
extern DB_ECCO_TABLE size_t db_ecco_position_count;            /* distinct positions */
extern DB_ECCO_TABLE uint64_t db_ecco_zobrist[16][XQ_SQUARES];
extern DB_ECCO_TABLE uint64_t db_ecco_black_to_move;
/* XORed into a position's key for a "from" line */
extern DB_ECCO_TABLE uint64_t db_ecco_code_keys[DB_ECCO_CODES];
/* [from] bit to: the codes a game carrying code from moves on to (db_ecco_reaches) */
extern DB_ECCO_TABLE uint8_t db_ecco_reach_bits[DB_ECCO_CODES - 1][(DB_ECCO_CODES - 1 + 7) / 8];
extern DB_ECCO_TABLE uint64_t db_ecco_start_key; /* xq_key of the standard start */
extern DB_ECCO_TABLE db_ecco_keys db_ecco_start_keys;

static inline int db_ecco_mirror(int sq)
{
    return XQ_SQ(XQ_FILES - 1 - XQ_FILE(sq), XQ_RANK(sq));
}

/* Plays mv on pos and updates h: a few XORs instead of hashing every piece again. */
static inline void db_ecco_make(xq_pos *pos, xq_move mv, db_ecco_keys *h)
{
    int from = xq_move_from(mv), to = xq_move_to(mv);
    int p = xq_piece_at(pos, from), cap = xq_piece_at(pos, to);
    h->k ^= db_ecco_zobrist[p][from] ^ db_ecco_zobrist[p][to] ^ db_ecco_black_to_move;
    h->m ^= db_ecco_zobrist[p][db_ecco_mirror(from)] ^ db_ecco_zobrist[p][db_ecco_mirror(to)] ^
            db_ecco_black_to_move;
    if (cap) {
        h->k ^= db_ecco_zobrist[cap][to];
        h->m ^= db_ecco_zobrist[cap][db_ecco_mirror(to)];
    }
    xq_undo undo;
    xq_make(pos, mv, &undo);
}

static inline uint64_t db_ecco_key_min(db_ecco_keys h)
{
    return h.k < h.m ? h.k : h.m;
}

/* A code's index in db_ecco_code_keys: "A00" 0 ... "E99" 499; NULL or "-": 500. */
static inline int db_ecco_code_index(const char *eco)
{
    if (!eco || eco[0] < 'A' || eco[0] > 'E')
        return DB_ECCO_CODES - 1;
    return (eco[0] - 'A') * 100 + (eco[1] - '0') * 10 + (eco[2] - '0');
}

#endif
