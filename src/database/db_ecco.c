/* db_ecco.c: ECCO codes for xiangqi games (see db_ecco.h).
 *
 * The lines were replayed at build time into an open-addressing table from a
 * position's key to the line's row (db_ecco_keys.h: the keys, gen_ecco_slots.c). A game
 * costs a few XORs (both hashes kept move by move) and one lookup for each of its first
 * 20 plies, two where the position is named. */
#include <config.h>

#include "database/db_ecco.h"

#include <stdint.h>
#include <string.h>

#include "core/xiangqi.h"
#include "database/db_ecco_keys.h"
#include "referee/referee.h"

size_t db_ecco_positions(void)
{
    return db_ecco_position_count;
}

static const db_ecco_name *name_of(const char *eco)
{
    size_t lo = 0, hi = db_ecco_name_count; /* the names are sorted by code */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(db_ecco_names[mid].eco, eco);
        if (c == 0)
            return &db_ecco_names[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

const char *db_ecco_classify(const rec_game *g, const char **name, const char **variation)
{
    *name = *variation = NULL;
    xq_pos pos;
    char err[200];
    if (g->kind != REC_XIANGQI || !referee_xiangqi_start(g, &pos, err, sizeof err) ||
        xq_key(&pos) != db_ecco_start_key)
        return NULL;
    int found = -1, ply = 0;
    db_ecco_keys h = db_ecco_start_keys;
    for (const rec_node *n = g->main.first; n && ply < DB_ECCO_PLIES; n = n->next, ply++) {
        if (n->status != REC_MOVE_OK)
            break;
        db_ecco_make(&pos, n->move, &h);
        uint64_t key = db_ecco_key_min(h);
        uint16_t row = db_rows_lookup(db_ecco_slots, DB_ECCO_SLOTS, key);
        if (row == DB_ROW_EMPTY)
            continue;
        /* a line from the code the game carries comes first; the table writes one
         * only at a position that also has a line for every game */
        int carried = db_ecco_code_index(found < 0 ? NULL : db_ecco_lines[found].eco);
        uint16_t from_row =
            db_rows_lookup(db_ecco_slots, DB_ECCO_SLOTS, key ^ db_ecco_code_keys[carried]);
        if (from_row != DB_ROW_EMPTY) {
            found = from_row;
            continue;
        }
        /* the position's own line: only down the classification, from the code carried
         * to one the tagged games move on to from it */
        int to = db_ecco_code_index(db_ecco_lines[row].eco);
        if (carried == DB_ECCO_CODES - 1 ||
            (db_ecco_reach_bits[carried][to / 8] & (1u << (to % 8))))
            found = row;
    }
    if (found < 0)
        return NULL;
    const char *eco = db_ecco_lines[found].eco;
    const db_ecco_name *nm = name_of(eco);
    if (nm) {
        *name = nm->opening;
        *variation = nm->variation;
    }
    return eco;
}
