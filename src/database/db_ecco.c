/* db_ecco.c: ECCO codes for xiangqi games (see db_ecco.h).
 *
 * The lines are replayed once, on the first use, with the xiangqi core into an
 * open-addressing table from a position's key to the line's row. The key is our own
 * Zobrist-style hash of the placement and the side to move, taken both as the board
 * stands and mirrored left to right; the smaller of the two is the position's key, so
 * a mirrored opening finds the same row. A line "from" a code (the move order decides
 * there) is keyed by the position's key XOR that code's own random key. A game costs a
 * few XORs (both hashes kept move by move) and one lookup for each of its first 20
 * plies, two where the position is named. */
#include <config.h>

#include "database/db_ecco.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/xiangqi.h"
#include "database/db_rows.h"
#include "referee/referee.h"

#define SLOTS 4096 /* a power of two, over twice the table's lines */
#define CODES 501  /* A00-E99 as 0-499; 500: no code yet */
static db_row_slot slots[SLOTS];
static size_t positions;
static uint64_t zobrist[16][XQ_SQUARES];
static uint64_t code_keys[CODES]; /* XORed into a position's key for a "from" line */
static uint8_t reaches[CODES - 1][(CODES - 1 + 7) / 8]; /* [from] bit to: db_ecco_reaches */
static uint64_t black_to_move;
static uint64_t start_key;
static pthread_once_t built = PTHREAD_ONCE_INIT;

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int mirror(int sq)
{
    return XQ_SQ(XQ_FILES - 1 - XQ_FILE(sq), XQ_RANK(sq));
}

/* A position's hash as it stands (k) and mirrored (m); its key is the smaller. */
typedef struct keys {
    uint64_t k, m;
} keys;

static keys keys_of(const xq_pos *pos)
{
    keys h = {0, 0};
    for (int c = XQ_RED; c <= XQ_BLACK; c++)
        for (int i = 0; i < xq_piece_count(pos, c); i++) {
            int sq = xq_piece_square(pos, c, i), p = xq_piece_at(pos, sq);
            h.k ^= zobrist[p][sq];
            h.m ^= zobrist[p][mirror(sq)];
        }
    if (xq_pos_side(pos) == XQ_BLACK) {
        h.k ^= black_to_move;
        h.m ^= black_to_move;
    }
    return h;
}

/* Plays mv on pos and updates h: a few XORs instead of hashing every piece again. */
static void make(xq_pos *pos, xq_move mv, keys *h)
{
    int from = xq_move_from(mv), to = xq_move_to(mv);
    int p = xq_piece_at(pos, from), cap = xq_piece_at(pos, to);
    h->k ^= zobrist[p][from] ^ zobrist[p][to] ^ black_to_move;
    h->m ^= zobrist[p][mirror(from)] ^ zobrist[p][mirror(to)] ^ black_to_move;
    if (cap) {
        h->k ^= zobrist[cap][to];
        h->m ^= zobrist[cap][mirror(to)];
    }
    xq_undo undo;
    xq_make(pos, mv, &undo);
}

static uint64_t key_min(keys h)
{
    return h.k < h.m ? h.k : h.m;
}

static keys start_keys;

/* A code's index in code_keys: "A00" 0 ... "E99" 499; NULL or "-": 500. */
static int code_index(const char *eco)
{
    if (!eco || eco[0] < 'A' || eco[0] > 'E')
        return CODES - 1;
    return (eco[0] - 'A') * 100 + (eco[1] - '0') * 10 + (eco[2] - '0');
}

/* Replays every line; a line that does not replay is a fault of the table, which the
 * unit test keeps from happening, so it is said and left out. */
/* Whether s has at least n bytes before its NUL: n bytes read at most, where a strlen
 * read the rest of a reach list or a line's moves again for every code or move. */
static inline bool has_bytes(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!s[i])
            return false;
    return true;
}

static void build(void)
{
    _Static_assert(SLOTS < DB_ROW_EMPTY, "row numbers fit beside DB_ROW_EMPTY");
    uint64_t state = 0x45434344ULL; /* "ECCO": fixed, so keys are the same every run */
    for (int p = 0; p < 16; p++)
        for (int sq = 0; sq < XQ_SQUARES; sq++)
            zobrist[p][sq] = splitmix64(&state);
    black_to_move = splitmix64(&state);
    for (int c = 0; c < CODES; c++)
        code_keys[c] = splitmix64(&state);
    for (size_t i = 0; i < db_ecco_reach_count; i++) {
        int from = code_index(db_ecco_reaches[i].eco);
        for (const char *t = db_ecco_reaches[i].to; has_bytes(t, 3); t += t[3] ? 4 : 3) {
            int to = code_index(t);
            reaches[from][to / 8] |= (uint8_t)(1u << (to % 8));
        }
    }
    db_rows_clear(slots, SLOTS);
    xq_pos pos;
    xq_pos_start(&pos);
    start_key = xq_key(&pos);
    start_keys = keys_of(&pos);
    /* the lines are sorted by their moves: each replays only from where it departs
     * from the line before (the moves in common stay made) */
    xq_move made[DB_ECCO_PLIES];
    xq_undo undos[DB_ECCO_PLIES];
    int depth = 0;
    for (size_t r = 0; r < db_ecco_line_count && r < SLOTS / 2; r++) {
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
            fprintf(stderr, "arbiter: ECCO table line %zu (%s) does not replay\n", r + 1,
                    db_ecco_lines[r].eco);
            continue;
        }
        uint64_t key = key_min(keys_of(&pos)); /* from scratch: checks make() too */
        if (db_ecco_lines[r].from[0])
            key ^= code_keys[code_index(db_ecco_lines[r].from)];
        db_row_slot *s = db_rows_find(slots, SLOTS, key);
        if (s->row == DB_ROW_EMPTY) { /* the first line naming a position keeps it */
            s->key = key;
            s->row = (uint16_t)r;
            positions++;
        }
    }
}

size_t db_ecco_positions(void)
{
    pthread_once(&built, build);
    return positions;
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
    pthread_once(&built, build);
    *name = *variation = NULL;
    xq_pos pos;
    char err[200];
    if (g->kind != REC_XIANGQI || !referee_xiangqi_start(g, &pos, err, sizeof err) ||
        xq_key(&pos) != start_key)
        return NULL;
    int found = -1, ply = 0;
    keys h = start_keys;
    for (const rec_node *n = g->main.first; n && ply < DB_ECCO_PLIES; n = n->next, ply++) {
        if (n->status != REC_MOVE_OK)
            break;
        make(&pos, n->move, &h);
        uint64_t key = key_min(h);
        const db_row_slot *s = db_rows_find(slots, SLOTS, key);
        if (s->row == DB_ROW_EMPTY)
            continue;
        /* a line from the code the game carries comes first; the table writes one
         * only at a position that also has a line for every game */
        int carried = code_index(found < 0 ? NULL : db_ecco_lines[found].eco);
        const db_row_slot *f = db_rows_find(slots, SLOTS, key ^ code_keys[carried]);
        if (f->row != DB_ROW_EMPTY) {
            found = f->row;
            continue;
        }
        /* the position's own line: only down the classification, from the code carried
         * to one the tagged games move on to from it */
        int to = code_index(db_ecco_lines[s->row].eco);
        if (carried == CODES - 1 || (reaches[carried][to / 8] & (1u << (to % 8))))
            found = s->row;
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
