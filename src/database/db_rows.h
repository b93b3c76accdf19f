/* db_rows.h: the opening tables' index from a position key to the first table row
 * naming that position (chess: db_openings.c, xiangqi ECCO: db_ecco.c). Open
 * addressing over a power-of-two array the caller owns, filled once (the chess one at
 * build time), then only read. */
#ifndef ARBITER_DATABASE_DB_ROWS_H
#define ARBITER_DATABASE_DB_ROWS_H

#include <stddef.h>
#include <stdint.h>

#define DB_ROW_EMPTY UINT16_MAX

typedef struct db_row_slot {
    uint64_t key;
    uint16_t row; /* DB_ROW_EMPTY: a free slot */
} db_row_slot;

static inline void db_rows_clear(db_row_slot *slots, size_t count)
{
    for (size_t i = 0; i < count; i++)
        slots[i].row = DB_ROW_EMPTY;
}

/* The index of key's slot, or of the free slot where it would go; count is a power
 * of two and the table is never full. */
static inline size_t db_rows_index(const db_row_slot *slots, size_t count, uint64_t key)
{
    size_t i = (size_t)(key ^ (key >> 29)) & (count - 1);
    while (slots[i].row != DB_ROW_EMPTY && slots[i].key != key)
        i = (i + 1) & (count - 1);
    return i;
}

/* The slot of key, or the free slot where it would go (for filling). */
static inline db_row_slot *db_rows_find(db_row_slot *slots, size_t count, uint64_t key)
{
    return &slots[db_rows_index(slots, count, key)];
}

/* The row of key, or DB_ROW_EMPTY (for reading a table filled at build time). */
static inline uint16_t db_rows_lookup(const db_row_slot *slots, size_t count, uint64_t key)
{
    return slots[db_rows_index(slots, count, key)].row;
}

#endif
