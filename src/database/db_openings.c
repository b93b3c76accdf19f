/* db_openings.c: opening names for games (see db_openings.h).
 *
 * The lichess table is kept as moves, not keys: its lines are replayed once, on the
 * first use, with the same move generator and Zobrist keys the referee uses, into an
 * open-addressing table from key to row. A game then costs one key lookup per ply of
 * its first plies, with the keys the referee kept while it played them. */
#include <config.h>

#include "database/db_openings.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/chess.h"
#include "database/db_ecco.h"
#include "database/db_tags.h"
#include "i18n/i18n.h"
#include "notation/chess_san.h"
#include "database/db_rows.h"
#include "referee/referee.h"

#define SLOTS 8192 /* a power of two, over twice the table's 3,807 rows */
static db_row_slot slots[SLOTS];
static size_t positions;
static int max_plies;
static pthread_once_t built = PTHREAD_ONCE_INIT;

/* The table is sorted, so a row mostly repeats the start of the row before it: the
 * positions after each ply of the previous row are kept, and a row replays only the
 * plies where it departs. */
#define KEPT_PLIES 64

/* Length of the move at S (up to a space or the end): a move is a few bytes, where
 * strcspn's set-up costs more than the scan. */
static size_t move_len(const char *s)
{
    size_t n = 0;
    while (s[n] && s[n] != ' ')
        n++;
    return n;
}

/* Number of whole leading moves two lines of space-separated SAN share. */
static int shared_plies(const char *a, const char *b)
{
    int plies = 0;
    for (;;) {
        size_t n = move_len(a);
        if (n == 0 || n != move_len(b) || memcmp(a, b, n) != 0)
            return plies;
        plies++;
        a += n;
        b += n;
        if (*a != ' ' || *b != ' ')
            return plies;
        a++;
        b++;
    }
}

/* Replays every row; a row that does not replay is a fault of the generated table,
 * which the unit test keeps from happening, so it is said and left out. */
static void build(void)
{
    _Static_assert(SLOTS < DB_ROW_EMPTY, "row numbers fit beside DB_ROW_EMPTY");
    db_rows_clear(slots, SLOTS);
    static chess_pos kept[KEPT_PLIES + 1]; /* kept[k]: after k plies of the last row */
    int kept_plies = -1;                   /* none kept yet */
    const char *last = "";
    chess_pos_start(&kept[0]);
    for (size_t r = 0; r < db_chess_opening_line_count && r < SLOTS / 2; r++) {
        const char *m = db_chess_opening_lines[r].moves;
        int plies = kept_plies < 0 ? 0 : shared_plies(last, m);
        if (plies > kept_plies)
            plies = kept_plies < 0 ? 0 : kept_plies;
        for (int skip = 0; skip < plies; skip++) {
            m += move_len(m);
            m += *m == ' ';
        }
        chess_pos pos = kept[plies];
        bool ok = true;
        while (*m) {
            char text[16];
            size_t n = move_len(m);
            if (n == 0 || n >= sizeof text) {
                ok = false;
                break;
            }
            memcpy(text, m, n);
            text[n] = '\0';
            m += n + (m[n] == ' ');
            san_result res;
            chess_san_parse_known(&pos, text, !chess_in_check(&pos), &res);
            if (res.status != SAN_OK) {
                ok = false;
                break;
            }
            chess_undo undo;
            chess_make(&pos, res.move, &undo);
            plies++;
            if (plies <= KEPT_PLIES)
                kept[plies] = pos;
        }
        if (!ok) {
            fprintf(stderr, "arbiter: opening table row %zu (%s) does not replay\n", r + 1,
                    db_chess_opening_lines[r].name);
            kept_plies = -1; /* the next row starts again from the start */
            last = "";
            continue;
        }
        kept_plies = plies < KEPT_PLIES ? plies : KEPT_PLIES;
        last = db_chess_opening_lines[r].moves;
        db_row_slot *s = db_rows_find(slots, SLOTS, chess_key(&pos));
        if (s->row == DB_ROW_EMPTY) { /* the first row naming a position keeps it */
            s->key = chess_key(&pos);
            s->row = (uint16_t)r;
            positions++;
        }
        if (plies > max_plies)
            max_plies = plies;
    }
}

size_t db_openings_chess_positions(void)
{
    pthread_once(&built, build);
    return positions;
}

int db_openings_chess_max_plies(void)
{
    pthread_once(&built, build);
    return max_plies;
}

static bool is_chess960(const rec_game *g)
{
    const char *v = rec_game_tag(g, "Variant");
    return v && (strcasecmp(v, "chess960") == 0 || strcasecmp(v, "fischerandom") == 0 ||
                 strcasecmp(v, "Chess 960") == 0);
}

/* The row of the deepest named position among the first plies of g's main line, from
 * the keys the referee kept (record.h). */
static int deepest_from_keys(const rec_game *g)
{
    int found = -1;
    int last = g->opening_key_count - 1 < max_plies ? g->opening_key_count - 1 : max_plies;
    for (int ply = 0; ply <= last; ply++) {
        const db_row_slot *s = db_rows_find(slots, SLOTS, g->opening_keys[ply]);
        if (s->row != DB_ROW_EMPTY)
            found = s->row;
    }
    return found;
}

/* The same, replaying the main line (a game the referee did not play). */
static int deepest_by_replay(const rec_game *g)
{
    chess_pos pos;
    char err[200];
    if (!referee_chess_start(g, &pos, err, sizeof err))
        return -1;
    int found = -1;
    const db_row_slot *s = db_rows_find(slots, SLOTS, chess_key(&pos));
    if (s->row != DB_ROW_EMPTY)
        found = s->row;
    int ply = 0;
    for (const rec_node *n = g->main.first; n && ply < max_plies; n = n->next, ply++) {
        if (n->status != REC_MOVE_OK)
            break;
        chess_undo undo;
        chess_make(&pos, n->move, &undo);
        s = db_rows_find(slots, SLOTS, chess_key(&pos));
        if (s->row != DB_ROW_EMPTY)
            found = s->row;
    }
    return found;
}

const db_opening_line *db_openings_chess(const rec_game *g)
{
    pthread_once(&built, build);
    if (g->kind != REC_CHESS || is_chess960(g))
        return NULL;
    /* the referee's keys hold every position the walk asks for: the table's lines are
     * shorter than REC_OPENING_KEYS plies (test_db_openings) */
    int found = g->opening_key_count > 0 && max_plies < REC_OPENING_KEYS ? deepest_from_keys(g)
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

/* The tag of that name, for the finding's place. */
static const rec_tag *tag_named(const rec_game *g, const char *name)
{
    for (const rec_tag *t = g->tags; t; t = t->next)
        if (strcmp(t->name, name) == 0)
            return t;
    return NULL;
}

void db_openings_classify(rec_game *g, bool check_eco)
{
    const char *tag_name;
    if (g->kind == REC_CHESS) {
        const db_opening_line *row = db_openings_chess(g);
        if (!row)
            return;
        g->opening_eco = row->eco;
        g->opening_name = row->name;
        tag_name = "ECO";
    } else {
        const char *name, *variation;
        const char *eco = db_ecco_classify(g, &name, &variation);
        if (!eco)
            return;
        g->opening_eco = eco;
        g->opening_name = name; /* NULL where the tagged records gave no name */
        g->opening_variation = variation;
        tag_name = "ECCO";
    }
    if (!check_eco)
        return;
    const rec_tag *t = tag_named(g, tag_name);
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

static bool opening_tag(const rec_game *g, const char *name)
{
    return strcmp(name, code_tag(g)) == 0 || strcmp(name, "Opening") == 0 ||
           strcmp(name, "Variation") == 0;
}

bool db_openings_add_tags(rec_game *g, bool replace)
{
    if (!g->opening_eco)
        db_openings_classify(g, false);
    if (!g->opening_eco)
        return false;
    rec_tag **link = &g->tags;
    while (*link) {
        if (opening_tag(g, (*link)->name)) {
            if (!replace)
                return false;
            *link = (*link)->next;
        } else
            link = &(*link)->next;
    }
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
