/* db_openings.c: opening names for games (see db_openings.h).
 *
 * The lichess table's lines were replayed at build time (gen_opening_slots.c) with the
 * same move generator and Zobrist keys the referee uses, into a constant
 * open-addressing index from key to row. A game costs one key lookup per ply of its
 * first plies, with the keys the referee kept while it played them; a bit of the 8 KB
 * filter first, so that the 128 KB index is touched only for the few keys it may hold. */
#include <config.h>

#include "database/db_openings.h"

#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "core/chess.h"
#include "database/db_ecco.h"
#include "database/db_tags.h"
#include "i18n/i18n.h"
#include "referee/referee.h"

static bool is_chess960(const rec_game *g)
{
    const char *v = rec_game_tag(g, "Variant");
    return v && (strcasecmp(v, "chess960") == 0 || strcasecmp(v, "fischerandom") == 0 ||
                 strcasecmp(v, "Chess 960") == 0);
}

/* The index, asked only for a key the filter may hold. */
static __attribute__((noinline)) uint16_t lookup_index(uint64_t key)
{
    return db_rows_lookup(db_chess_opening_slots, DB_OPENING_SLOTS, key);
}

/* Inline: most keys are told by the filter alone, without a call. */
static inline uint16_t lookup(uint64_t key)
{
    if (!db_opening_filter_may_hold(key))
        return DB_ROW_EMPTY;
    return lookup_index(key);
}

/* The row of the deepest named position among the first plies of g's main line, from
 * the keys the referee kept (record.h): asked from the deepest ply back, so that the
 * first row found answers, and the named plies before it (a book game's first eight or
 * so, each a probe of the 128 KB index that missed the cache) are not asked. */
static int deepest_from_keys(const rec_game *g)
{
    int max_plies = db_chess_opening_max_plies;
    int last = g->opening_key_count - 1 < max_plies ? g->opening_key_count - 1 : max_plies;
    for (int ply = last; ply >= 0; ply--) {
        uint16_t row = lookup(g->opening_keys[ply]);
        if (row != DB_ROW_EMPTY)
            return row;
    }
    return -1;
}

/* The same, replaying the main line (a game the referee did not play). */
static int deepest_by_replay(const rec_game *g)
{
    chess_pos pos;
    char err[200];
    if (!referee_chess_start(g, &pos, err, sizeof err))
        return -1;
    uint16_t row = lookup(chess_key(&pos));
    int found = row == DB_ROW_EMPTY ? -1 : row;
    int ply = 0;
    for (const rec_node *n = g->main.first; n && ply < db_chess_opening_max_plies;
         n = n->next, ply++) {
        if (n->status != REC_MOVE_OK)
            break;
        chess_undo undo;
        chess_make(&pos, n->move, &undo);
        row = lookup(chess_key(&pos));
        if (row != DB_ROW_EMPTY)
            found = row;
    }
    return found;
}

const db_opening_line *db_openings_chess(const rec_game *g)
{
    if (g->kind != REC_CHESS || is_chess960(g))
        return NULL;
    /* the referee's keys hold every position the walk asks for: the table's lines are
     * shorter than REC_OPENING_KEYS plies (test_db_openings) */
    int found = g->opening_key_count > 0 && db_chess_opening_max_plies < REC_OPENING_KEYS
                    ? deepest_from_keys(g)
                    : deepest_by_replay(g);
    return found < 0 ? NULL : &db_chess_opening_lines[found];
}

size_t db_opening_name_length(const char *name)
{
    return strcspn(name, ":");
}

const char *db_opening_variation(const char *name)
{
    const char *colon = strchr(name, ':');
    if (!colon)
        return NULL;
    colon++;
    while (*colon == ' ')
        colon++;
    return *colon ? colon : NULL;
}

void db_openings_classify(rec_game *g, bool check_eco)
{
    const char *tag_name;
    unsigned tag_id;
    if (g->kind == REC_CHESS) {
        const db_opening_line *row = db_openings_chess(g);
        if (!row)
            return;
        g->opening_eco = row->eco;
        g->opening_name = db_opening_line_name(row);
        tag_name = "ECO";
        tag_id = REC_TAG_ECO;
    } else {
        const char *name, *variation;
        const char *eco = db_ecco_classify(g, &name, &variation);
        if (!eco)
            return;
        g->opening_eco = eco;
        g->opening_name = name; /* NULL where the tagged records gave no name */
        g->opening_variation = variation;
        tag_name = "ECCO";
        tag_id = REC_TAG_ECCO;
    }
    if (!check_eco)
        return;
    const rec_tag *t = rec_game_known_tag(g, tag_id);
    /* a malformed code is bad-tag-value's; only a real code from another
     * classification is compared (XQWizard writes an empty ECCO tag for endgames) */
    if (!t || !*t->value || strcmp(t->value, "?") == 0 || db_tag_check_eco(t->value) != DB_TAG_OK ||
        strcmp(t->value, g->opening_eco) == 0)
        return;
    rec_finding *f = rec_game_add_finding(
        g, "eco-mismatch", REC_INFO, t->where,
        g->opening_name ? _("the %s tag says %s, the opening table gives %s (%s)")
                        : _("the %s tag says %s, the opening table gives %s"),
        tag_name, t->value, g->opening_eco, g->opening_name);
    f->tag = t->name;
    f->value = t->value;
    rec_game_sort_findings(g);
}

/* The code tag's name: ECO for chess, ECCO for xiangqi (xqbase PGN). */
static const char *code_tag(const rec_game *g)
{
    return g->kind == REC_XIANGQI ? "ECCO" : "ECO";
}

static bool opening_tag(const rec_game *g, const rec_tag *t)
{
    return t->id == (g->kind == REC_XIANGQI ? REC_TAG_ECCO : REC_TAG_ECO) ||
           t->id == REC_TAG_OPENING || t->id == REC_TAG_VARIATION;
}

bool db_openings_add_tags(rec_game *g, bool replace)
{
    if (!g->opening_eco)
        db_openings_classify(g, false);
    if (!g->opening_eco)
        return false;
    rec_tag **link = &g->tags;
    bool removed = false;
    while (*link) {
        if (opening_tag(g, *link)) {
            if (!replace)
                return false;
            *link = (*link)->next;
            removed = true;
        } else
            link = &(*link)->next;
    }
    if (removed)
        rec_game_index_tags(g);
    /* chess names are "Opening: Variation"; the ECCO table keeps the two apart */
    const char *variation = g->opening_variation;
    size_t opening_len = g->opening_name ? strlen(g->opening_name) : 0;
    if (g->kind == REC_CHESS) {
        opening_len = db_opening_name_length(g->opening_name);
        variation = db_opening_variation(g->opening_name);
    }
    rec_game_add_tag(g, code_tag(g), g->opening_eco, g->start);
    if (g->opening_name) /* an ECCO code the tagged records gave no name for has none */
        rec_game_add_tag(g, "Opening", arena_strndup(g->arena, g->opening_name, opening_len),
                         g->start);
    if (variation)
        rec_game_add_tag(g, "Variation", variation, g->start);
    return true;
}
