/* db_keys.c: the twin keys of one game (see db_keys.h). */
#include <config.h>

#include "database/db_keys.h"
#include "record/strhash.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t mix(uint64_t x)
{
    return strhash_mix(x);
}

static uint64_t hash_bytes(uint64_t h, const char *s, size_t n)
{
    return strhash_bytes(h, s, n);
}

/* One ply of the main line's running state: a bijection of the state for each move and
 * a different state for each move from one state, so two lines part for good once they
 * differ (up to a 2^-47 chance that a later pair of moves meets again); the full mix is
 * paid only for the five states kept (moves key and tails), not a ply. */
static uint64_t ply_step(uint64_t h, uint64_t m)
{
    h = (h ^ m) * 0x9fb21c651e98df25ull;
    return h ^ (h >> 32);
}

/* The running state H after the main line's move N. */
static inline uint64_t main_line_step(uint64_t h, const rec_node *n)
{
    if (__builtin_expect(n->status == REC_MOVE_OK, 1))
        return ply_step(h, 0x10000u | n->move);
    if (n->status == REC_MOVE_NULL)
        return ply_step(h, 0x20000u);
    /* not replayed: the move as written */
    return hash_bytes(h, n->text ? n->text : "", n->text ? strlen(n->text) : 0);
}

static uint32_t fold32(uint64_t h)
{
    uint32_t v = (uint32_t)(h ^ (h >> 32));
    return v ? v : 1; /* 0 means unknown */
}

/* The standard start positions, as the FEN fields compared below. */
static const char chess_start[] = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
static const char xiangqi_start[] = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";

/* The values of the tags the keys read (the first of each name, as rec_game_tag), or
 * NULL, from the record's slots of the known names. */
typedef struct key_tags {
    const char *fen, *white, *red, *black, *event, *site, *date, *round;
} key_tags;

static void key_tags_of(const rec_game *g, key_tags *kt)
{
    kt->fen = rec_game_known_value(g, REC_TAG_FEN);
    kt->white = rec_game_known_value(g, REC_TAG_WHITE);
    kt->red = rec_game_known_value(g, REC_TAG_RED);
    kt->black = rec_game_known_value(g, REC_TAG_BLACK);
    kt->event = rec_game_known_value(g, REC_TAG_EVENT);
    kt->site = rec_game_known_value(g, REC_TAG_SITE);
    kt->date = rec_game_known_value(g, REC_TAG_DATE);
    kt->round = rec_game_known_value(g, REC_TAG_ROUND);
}

/* The start of game g: its kind and the FEN tag's first fields (chess: board, side,
 * castling, en passant; xiangqi: board and side, as XQF and xqbase write the rest in
 * several ways), one space between them; a FEN of the standard start is no FEN. */
static uint64_t start_key(const rec_game *g, const char *fen)
{
    uint64_t h = mix(0x5157a7u + (uint64_t)g->kind);
    if (!fen)
        return h;
    char norm[160];
    size_t o = 0;
    int fields = g->kind == REC_XIANGQI ? 2 : 4, field = 0;
    const char *p = fen;
    while (*p == ' ')
        p++;
    while (*p && field < fields && o + 2 < sizeof norm) {
        if (*p == ' ') {
            while (*p == ' ')
                p++;
            if (++field < fields && *p)
                norm[o++] = ' ';
            continue;
        }
        norm[o++] = *p == 'r' && g->kind == REC_XIANGQI && field == 1 ? 'w' : *p;
        p++;
    }
    norm[o] = '\0';
    /* xiangqi's side to move: "w" or "r" for red */
    const char *standard = g->kind == REC_XIANGQI ? xiangqi_start : chess_start;
    if (strcmp(norm, standard) == 0)
        return h;
    return hash_bytes(h, norm, o);
}

/* The key of a name tag's value V (NULL: no such tag): its group's canonical spelling
 * when the names table has one, folded by db_name_key (the table keeps it worked out);
 * empty when unknown. FOUND: the table's key as db_names_check found it (no lookup),
 * or NULL. Returns the key, in BUF or the table; *LEN its length. */
static const char *name_key(const char *v, const db_names *names, const db_game_names *found,
                            const char *found_key, size_t found_len, db_name_field field,
                            char *buf, size_t bufsz, size_t *len)
{
    buf[0] = '\0';
    *len = 0;
    if (!v)
        return buf;
    if (found && found_key) {
        *len = found_len;
        return found_key;
    }
    const char *key = found ? NULL : names ? db_names_twin_key(names, field, v) : NULL;
    if (key) {
        *len = strlen(key);
        return key;
    }
    *len = db_name_key(v, buf, bufsz);
    return buf;
}

/* A Date or Round that says something: not empty, not "?", "-", "????.??.??". */
static bool known_value(const char *v)
{
    if (!v)
        return false;
    for (; *v; v++)
        if (*v != '?' && *v != '-' && *v != '.' && *v != ' ')
            return true;
    return false;
}

void db_keys_of_game(const rec_game *g, const db_names *names, const db_game_names *found,
                     db_keys *k)
{
    memset(k, 0, sizeof *k);
    k->line = g->start.line;
    /* the main line, with the running hashes of its last prefixes: a ring of eight
     * (a power of two, so a ply's slot is a mask) holds the last DB_KEYS_TAIL + 1 */
    enum { RING = 8 };
    _Static_assert(DB_KEYS_TAIL + 1 <= RING, "the ring holds the tails");
    uint64_t ring[RING];
    key_tags kt;
    key_tags_of(g, &kt);
    uint64_t start = start_key(g, kt.fen), h = start;
    uint64_t plies = 0;
    ring[0] = h;
    for (const rec_node *n = g->main.first; n;) {
        /* eight plies a round from a multiple of eight: unrolled, each ply's ring slot
         * is a constant, not a count masked */
        unsigned taken = 0;
#pragma GCC unroll 8
        for (unsigned s = 1; s <= RING; s++) {
            if (!n)
                break;
            h = main_line_step(h, n);
            ring[s & (RING - 1)] = h;
            n = n->next;
            taken = s;
        }
        plies += taken;
    }
    h = mix(h);
    k->moves_lo = (uint32_t)h;
    k->moves_hi = (uint32_t)(h >> 32);
    k->plies = plies > UINT16_MAX ? UINT16_MAX : (uint16_t)plies;
    for (unsigned d = 1; d <= DB_KEYS_TAIL; d++)
        if (plies >= d && plies <= UINT16_MAX)
            k->tail[d - 1] = db_keys_fingerprint(mix(ring[(plies - d) & (RING - 1)]));

    char wbuf[DB_NAME_KEY_MAX], bbuf[DB_NAME_KEY_MAX], ebuf[DB_NAME_KEY_MAX],
        sbuf[DB_NAME_KEY_MAX];
    size_t wl, bl, el, sl;
    bool red = g->kind == REC_XIANGQI && kt.red;
    const char *white = name_key(red ? kt.red : kt.white, names, found,
                                 found ? (red ? found->red : found->white) : NULL,
                                 found ? (red ? found->red_len : found->white_len) : 0,
                                 DB_NAME_PLAYER, wbuf, sizeof wbuf, &wl);
    const char *black = name_key(kt.black, names, found, found ? found->black : NULL,
                                 found ? found->black_len : 0, DB_NAME_PLAYER, bbuf, sizeof bbuf,
                                 &bl);
    const char *event = name_key(kt.event, names, found, found ? found->event : NULL,
                                 found ? found->event_len : 0, DB_NAME_EVENT, ebuf, sizeof ebuf,
                                 &el);
    const char *site = name_key(kt.site, names, found, found ? found->site : NULL,
                                found ? found->site_len : 0, DB_NAME_SITE, sbuf, sizeof sbuf, &sl);
    if (wl && bl) {
        uint64_t p = hash_bytes(start, white, wl + 1); /* the NUL separates the names */
        k->players = fold32(hash_bytes(p, black, bl));
    }
    if (el) {
        uint16_t e = (uint16_t)(hash_bytes(7, event, el) >> 48);
        k->event = e ? e : 1;
    }
    /* the header: only when players, date and round are known (two games of one day
     * with the round unknown are not the same entry) */
    const char *date = kt.date, *round = kt.round;
    if (wl && bl && known_value(date) && known_value(round)) {
        uint64_t x = hash_bytes(11, event, el + 1);
        x = hash_bytes(x, site, sl + 1);
        x = hash_bytes(x, date, strlen(date) + 1);
        x = hash_bytes(x, round, strlen(round) + 1);
        x = hash_bytes(x, white, wl + 1);
        x = hash_bytes(x, black, bl);
        k->header = fold32(x ^ (uint64_t)g->kind);
    }
}

size_t db_keys_format(const db_keys *k, char *out, size_t outsz)
{
    int n = snprintf(out, outsz, "%016" PRIx64 ".%" PRIx32 ".%" PRIx32 ".%" PRIx16 ".%" PRIx16
                     ".%" PRIx16 ".%" PRIx16 ".%" PRIx16 ".%" PRIx16,
                     db_keys_moves(k), k->players, k->header, k->event, k->plies, k->tail[0],
                     k->tail[1], k->tail[2], k->tail[3]);
    return n < 0 ? 0 : (size_t)n < outsz ? (size_t)n : outsz - 1;
}

bool db_keys_parse(const char *text, db_keys *k)
{
    memset(k, 0, sizeof *k);
    unsigned long long v[9];
    const char *p = text;
    for (int i = 0; i < 9; i++) {
        char *end;
        if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
            return false;
        v[i] = strtoull(p, &end, 16);
        if (end == p || (i < 8 && *end != '.'))
            return false;
        p = end + (i < 8);
    }
    if (v[1] > UINT32_MAX || v[2] > UINT32_MAX)
        return false;
    for (int i = 3; i < 9; i++)
        if (v[i] > UINT16_MAX)
            return false;
    k->moves_lo = (uint32_t)v[0];
    k->moves_hi = (uint32_t)(v[0] >> 32);
    k->players = (uint32_t)v[1];
    k->header = (uint32_t)v[2];
    k->event = (uint16_t)v[3];
    k->plies = (uint16_t)v[4];
    for (int i = 0; i < DB_KEYS_TAIL; i++)
        k->tail[i] = (uint16_t)v[5 + i];
    return true;
}
