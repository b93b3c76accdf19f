/* gen_ecco_slots.c: the build-time program that replays every line of the ECCO table
 * (db_ecco_table.c) with the xiangqi core and writes the table's index and keys as
 * constant C data on standard output (db_ecco_slots.c; db_ecco_keys.h says why). A
 * line that does not replay is a fault of the table: said, and the program fails. */
#include <config.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "database/db_ecco.h"
#include "database/db_ecco_keys.h"

db_row_slot db_ecco_slots[DB_ECCO_SLOTS];
size_t db_ecco_position_count;
uint64_t db_ecco_zobrist[16][XQ_SQUARES];
uint64_t db_ecco_black_to_move;
uint64_t db_ecco_code_keys[DB_ECCO_CODES];
uint8_t db_ecco_reach_bits[DB_ECCO_CODES - 1][(DB_ECCO_CODES - 1 + 7) / 8];
uint64_t db_ecco_start_key;
db_ecco_keys db_ecco_start_keys;

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Both hashes of pos from scratch. */
static db_ecco_keys keys_of(const xq_pos *pos)
{
    db_ecco_keys h = {0, 0};
    for (int c = XQ_RED; c <= XQ_BLACK; c++)
        for (int i = 0; i < xq_piece_count(pos, c); i++) {
            int sq = xq_piece_square(pos, c, i), p = xq_piece_at(pos, sq);
            h.k ^= db_ecco_zobrist[p][sq];
            h.m ^= db_ecco_zobrist[p][db_ecco_mirror(sq)];
        }
    if (xq_pos_side(pos) == XQ_BLACK) {
        h.k ^= db_ecco_black_to_move;
        h.m ^= db_ecco_black_to_move;
    }
    return h;
}

/* Whether s has at least n bytes before its NUL: n bytes read at most, where a strlen
 * read the rest of a reach list or a line's moves again for every code or move. */
static inline bool has_bytes(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!s[i])
            return false;
    return true;
}

/* Replays every line into the index; false when one does not replay. */
static bool build(void)
{
    bool all = true;
    _Static_assert(DB_ECCO_SLOTS < DB_ROW_EMPTY, "row numbers fit beside DB_ROW_EMPTY");
    uint64_t state = 0x45434344ULL; /* "ECCO": fixed, so keys are the same every run */
    for (int p = 0; p < 16; p++)
        for (int sq = 0; sq < XQ_SQUARES; sq++)
            db_ecco_zobrist[p][sq] = splitmix64(&state);
    db_ecco_black_to_move = splitmix64(&state);
    for (int c = 0; c < DB_ECCO_CODES; c++)
        db_ecco_code_keys[c] = splitmix64(&state);
    for (size_t i = 0; i < db_ecco_reach_count; i++) {
        int from = db_ecco_code_index(db_ecco_reaches[i].eco);
        for (const char *t = db_ecco_reaches[i].to; has_bytes(t, 3); t += t[3] ? 4 : 3) {
            int to = db_ecco_code_index(t);
            db_ecco_reach_bits[from][to / 8] |= (uint8_t)(1u << (to % 8));
        }
    }
    db_rows_clear(db_ecco_slots, DB_ECCO_SLOTS);
    xq_pos pos;
    xq_pos_start(&pos);
    db_ecco_start_key = xq_key(&pos);
    db_ecco_start_keys = keys_of(&pos);
    /* the lines are sorted by their moves: each replays only from where it departs
     * from the line before (the moves in common stay made) */
    xq_move made[DB_ECCO_PLIES];
    xq_undo undos[DB_ECCO_PLIES];
    int depth = 0;
    for (size_t r = 0; r < db_ecco_line_count && r < DB_ECCO_SLOTS / 2; r++) {
        xq_move line[DB_ECCO_PLIES];
        int plies = 0;
        bool ok = true;
        for (const char *m = db_ecco_text + db_ecco_lines[r].moves; *m && ok;) {
            bool whole = has_bytes(m, 5);   /* "h2-e2" */
            xq_move mv = XQ_MOVE_NONE;
            if (whole && m[2] == '-') {
                char ucci[5] = {m[0], m[1], m[3], m[4], '\0'};
                mv = xq_move_from_ucci(ucci);
            }
            if (mv == XQ_MOVE_NONE || plies == DB_ECCO_PLIES)
                ok = false;
            else
                line[plies++] = mv;
            m += whole ? 5 : strlen(m);
            while (*m == ' ')
                m++;
        }
        int common = 0;
        while (ok && common < depth && common < plies && made[common] == line[common])
            common++;
        while (depth > common) {
            depth--;
            xq_unmake(&pos, made[depth], &undos[depth]);
        }
        for (int i = common; ok && i < plies; i++) {
            if (!xq_is_legal(&pos, line[i])) {
                ok = false;
                break;
            }
            xq_make(&pos, line[i], &undos[depth]);
            made[depth++] = line[i];
        }
        if (!ok || plies == 0) {
            fprintf(stderr, "gen_ecco_slots: ECCO table line %zu (%s) does not replay\n", r + 1,
                    db_ecco_lines[r].eco);
            all = false;
            continue;
        }
        uint64_t key = db_ecco_key_min(keys_of(&pos)); /* from scratch: checks make() too */
        if (db_ecco_lines[r].from[0])
            key ^= db_ecco_code_keys[db_ecco_code_index(db_ecco_lines[r].from)];
        db_row_slot *s = db_rows_find(db_ecco_slots, DB_ECCO_SLOTS, key);
        if (s->row == DB_ROW_EMPTY) { /* the first line naming a position keeps it */
            s->key = key;
            s->row = (uint16_t)r;
            db_ecco_position_count++;
        }
    }
    return all;
}

/* ------------------------------------------------------------------ writing them as C */

static void put_u64s(const uint64_t *v, size_t n)
{
    printf("{");
    for (size_t i = 0; i < n; i++)
        printf("%s0x%016" PRIx64 "u,", i % 4 ? " " : "\n    ", v[i]);
    printf("\n}");
}

int main(void)
{
    if (!build())
        return EXIT_FAILURE;
    printf("/* db_ecco_slots.c: made by gen_ecco_slots at build time; do not edit. */\n"
           "#include \"database/db_ecco_keys.h\"\n\n");
    printf("const db_row_slot db_ecco_slots[DB_ECCO_SLOTS] = {\n");
    for (size_t i = 0; i < DB_ECCO_SLOTS; i++)
        if (db_ecco_slots[i].row != DB_ROW_EMPTY)
            printf("    [%zu] = {0x%016" PRIx64 "u, %u},\n", i, db_ecco_slots[i].key,
                   db_ecco_slots[i].row);
        else
            printf("    [%zu] = {0, DB_ROW_EMPTY},\n", i);
    printf("};\n\nconst size_t db_ecco_position_count = %zu;\n\n", db_ecco_position_count);
    printf("const uint64_t db_ecco_zobrist[16][XQ_SQUARES] = {");
    for (int p = 0; p < 16; p++) {
        printf("\n");
        put_u64s(db_ecco_zobrist[p], XQ_SQUARES);
        printf(",");
    }
    printf("\n};\n\nconst uint64_t db_ecco_black_to_move = 0x%016" PRIx64 "u;\n\n",
           db_ecco_black_to_move);
    printf("const uint64_t db_ecco_code_keys[DB_ECCO_CODES] = ");
    put_u64s(db_ecco_code_keys, DB_ECCO_CODES);
    printf(";\n\nconst uint8_t db_ecco_reach_bits[DB_ECCO_CODES - 1]"
           "[(DB_ECCO_CODES - 1 + 7) / 8] = {\n");
    for (int c = 0; c < DB_ECCO_CODES - 1; c++) {
        printf("    {");
        for (size_t i = 0; i < sizeof db_ecco_reach_bits[c]; i++)
            printf("%s%u", i ? ", " : "", db_ecco_reach_bits[c][i]);
        printf("},\n");
    }
    printf("};\n\nconst uint64_t db_ecco_start_key = 0x%016" PRIx64 "u;\n", db_ecco_start_key);
    printf("const db_ecco_keys db_ecco_start_keys = {0x%016" PRIx64 "u, 0x%016" PRIx64 "u};\n",
           db_ecco_start_keys.k, db_ecco_start_keys.m);
    return fflush(stdout) == 0 && !ferror(stdout) ? EXIT_SUCCESS : EXIT_FAILURE;
}
