/* db_tags.c: header values (see db_tags.h).
 *
 * Why only these repairs: a date written "2021-05-12" has one meaning, a PlyCount is a
 * count of the moves that are there, a FEN tag without SetUp "1" means a set-up game
 * (PGN 9.7.1), and a castling right the position cannot have is no right; anything else
 * (an impossible date, a malformed Elo) is reported and left to a person. */
#include <config.h>

#include "database/db_tags.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/chess.h"
#include "i18n/i18n.h"
#include "record/arena.h"

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* n characters of s are digits or '?' each; *known: all digits. */
static bool date_part(const char *s, int n, bool *known, int *v)
{
    *known = true;
    *v = 0;
    for (int i = 0; i < n; i++) {
        if (is_digit(s[i]))
            *v = *v * 10 + (s[i] - '0');
        else if (s[i] == '?')
            *known = false;
        else
            return false;
    }
    return true;
}

static int days_in_month(int y, int m)
{
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
        return 29;
    return days[m - 1];
}

/* The parts of a date "YYYY.MM.DD" (digits or '?'): whether each is known, its value. */
typedef struct date_fields {
    bool yk, mk, dk;
    int y, m, d;
} date_fields;

/* S read as "YYYY.MM.DD" into F; false when it is not of that form. */
static bool date_read(const char *s, date_fields *f)
{
    return date_part(s, 4, &f->yk, &f->y) && s[4] == '.' && date_part(s + 5, 2, &f->mk, &f->m) &&
           s[7] == '.' && date_part(s + 8, 2, &f->dk, &f->d) && s[10] == '\0';
}

/* A calendar date (the Gregorian calendar, as PGN 8.1.1.3 assumes), read as F from S;
 * the unknown parts only have to be possible. */
static bool date_fields_possible(const date_fields *f, const char *s)
{
    if (f->mk && (f->m < 1 || f->m > 12))
        return false;
    if (!f->mk && is_digit(s[5]) && s[5] > '1')
        return false;
    if (f->dk && (f->d < 1 || f->d > 31))
        return false;
    if (!f->dk && is_digit(s[8]) && s[8] > '3')
        return false;
    if (f->mk && f->dk && f->d > days_in_month(f->yk ? f->y : 2000, f->m))   /* 2000: 29 February possible */
        return false;
    return true;
}

static bool date_possible(const char *s)
{
    date_fields f;
    return date_read(s, &f) && date_fields_possible(&f, s);
}

/* "YYYY年M月D日", "YYYY年M月", "YYYY年" (digits, month and day of one or two) */
static bool chinese_date(const char *v, char *out, size_t size)
{
    static const char nian[] = "\xe5\xb9\xb4", yue[] = "\xe6\x9c\x88", ri[] = "\xe6\x97\xa5";
    int y = 0, m = -1, d = -1, k = 0;
    const char *p = v;
    while (is_digit(*p) && k < 4)
        y = y * 10 + (*p++ - '0'), k++;
    if (k != 4 || strncmp(p, nian, 3) != 0)
        return false;
    p += 3;
    if (is_digit(*p)) {
        m = *p++ - '0';
        if (is_digit(*p))
            m = m * 10 + (*p++ - '0');
        if (strncmp(p, yue, 3) != 0)
            return false;
        p += 3;
        if (is_digit(*p)) {
            d = *p++ - '0';
            if (is_digit(*p))
                d = d * 10 + (*p++ - '0');
            if (strncmp(p, ri, 3) != 0)
                return false;
            p += 3;
        }
    }
    if (*p != '\0')
        return false;
    char mm[4] = "??", dd[4] = "??";
    if (m >= 0)
        snprintf(mm, sizeof mm, "%02d", m % 100);
    if (d >= 0)
        snprintf(dd, sizeof dd, "%02d", d % 100);
    snprintf(out, size, "%04d.%s.%s", y, mm, dd);
    return true;
}

db_tag_verdict db_tag_check_date(const char *v, char *fixed, size_t size)
{
    size_t n = strlen(v);
    if (n == 10 && v[4] == '.' && v[7] == '.') {
        date_fields f;   /* read once: its form, then whether it can be */
        if (date_read(v, &f))
            return date_fields_possible(&f, v) ? DB_TAG_OK : DB_TAG_BAD;
    }
    char cand[16];
    if (strcmp(v, "?") == 0 || strcmp(v, "????") == 0) {
        snprintf(cand, sizeof cand, "????.??.??");
    } else if (n == 4 && is_digit(v[0]) && is_digit(v[1]) && is_digit(v[2]) && is_digit(v[3])) {
        snprintf(cand, sizeof cand, "%s.??.??", v);       /* a year alone */
    } else if (n == 7 && (v[4] == '.' || v[4] == '-' || v[4] == '/')) {
        snprintf(cand, sizeof cand, "%.4s.%.2s.??", v, v + 5);   /* year and month */
    } else if (n == 10 && ((v[4] == '-' && v[7] == '-') || (v[4] == '/' && v[7] == '/'))) {
        snprintf(cand, sizeof cand, "%.4s.%.2s.%.2s", v, v + 5, v + 8);   /* ISO 8601 */
    } else if (chinese_date(v, cand, sizeof cand)) {
        ;   /* "1997年11月16日", as XQF files write it */
    } else {
        return DB_TAG_BAD;
    }
    if (!date_possible(cand))
        return DB_TAG_BAD;
    if (fixed && size > strlen(cand))
        memcpy(fixed, cand, strlen(cand) + 1);
    return DB_TAG_FIXABLE;
}

db_tag_verdict db_tag_check_round(const char *v)
{
    if (strcmp(v, "?") == 0 || strcmp(v, "-") == 0)
        return DB_TAG_OK;
    const char *p = v;
    for (;;) {
        const char *start = p;
        while (is_digit(*p))
            p++;
        if (p == start)
            return DB_TAG_BAD;
        if (*p == '\0')
            return DB_TAG_OK;
        if (*p != '.')
            return DB_TAG_BAD;
        p++;
    }
}

db_tag_verdict db_tag_check_elo(const char *v)
{
    if (v[0] == '\0' || strcmp(v, "-") == 0 || strcmp(v, "?") == 0)
        return DB_TAG_OK;
    size_t n = strlen(v);
    if (n > 4)
        return DB_TAG_BAD;
    for (size_t i = 0; i < n; i++)
        if (!is_digit(v[i]))
            return DB_TAG_BAD;
    return DB_TAG_OK;
}

/* digits, at least one, no more than 9 (no overflow); returns the end or NULL */
static const char *tc_number(const char *p)
{
    const char *s = p;
    while (is_digit(*p))
        p++;
    return p > s && p - s <= 9 ? p : NULL;
}

db_tag_verdict db_tag_check_time_control(const char *v)
{
    if (strcmp(v, "?") == 0 || strcmp(v, "-") == 0)
        return DB_TAG_OK;
    const char *p = v;
    for (;;) {
        if (*p == '*') {                    /* 9.6.1 sandclock */
            if (!(p = tc_number(p + 1)))
                return DB_TAG_BAD;
        } else {
            if (!(p = tc_number(p)))
                return DB_TAG_BAD;
            if (*p == '/') {                /* moves/seconds */
                if (!(p = tc_number(p + 1)))
                    return DB_TAG_BAD;
            }
            if (*p == '+') {                /* seconds+increment (also after moves/, as
                                             * FIDE's "40/5400+30" is written) */
                if (!(p = tc_number(p + 1)))
                    return DB_TAG_BAD;
            }
        }
        if (*p == '\0')
            return DB_TAG_OK;
        if (*p != ':')
            return DB_TAG_BAD;
        p++;
    }
}

db_tag_verdict db_tag_check_eco(const char *v)
{
    if (v[0] == '\0' || strcmp(v, "?") == 0)
        return DB_TAG_OK;
    return v[0] >= 'A' && v[0] <= 'E' && is_digit(v[1]) && is_digit(v[2]) && v[3] == '\0'
               ? DB_TAG_OK
               : DB_TAG_BAD;
}

long db_tags_main_plies(const rec_game *g)
{
    long n = 0;
    for (const rec_node *m = g->main.first; m; m = m->next) {
        if (m->status != REC_MOVE_OK && m->status != REC_MOVE_NULL)
            return -1;
        n++;
    }
    return n;
}

/* ------------------------------------------------------------------ findings */

static rec_finding *tagged(rec_finding *f, const char *tag)
{
    f->tag = tag;
    return f;
}

/* a bad-tag-value finding at tag T, naming it */
#define BAD_VALUE(g, t, ...) \
    tagged(rec_game_add_finding((g), "bad-tag-value", REC_WARNING, (t)->where, __VA_ARGS__), \
           (t)->name)

/* The repair of tag t to value `to`: the suggestion, and in PGN text the edit of the
 * whole tag as written the standard way ("[Name "value"]"; fix checks those bytes are
 * there before it replaces them, so another layout is left alone). */
static void repair(rec_game *g, rec_finding *f, const rec_tag *t, const char *to, bool pgn)
{
    f->suggestions = arena_alloc(g->arena, sizeof *f->suggestions);
    f->suggestions[0] = arena_strdup(g->arena, to);
    f->suggestion_count = 1;
    if (!pgn || strchr(t->value, '"') || strchr(t->value, '\\') || strchr(to, '"'))
        return;
    rec_fix *e = arena_alloc(g->arena, sizeof *e);
    e->before = arena_printf(g->arena, "[%s \"%s\"]", t->name, t->value);
    e->text = arena_printf(g->arena, "[%s \"%s\"]", t->name, to);
    e->where = rec_game_locate(g, t->where);
    e->length = (uint32_t)strlen(e->before);
    e->next = NULL;
    f->fix = e;
    f->fix_certain = true;
}

/* The FEN's castling letters that the position cannot have (PGN 16.1.3.3, FIDE 3.8.2:
 * the king and that rook on their first squares): the FEN with only the others, or
 * NULL when the FEN is fine or broken elsewhere. */
static char *fen_without_impossible_castling(arena *a, const char *fen)
{
    chess_pos pos;
    char err[200];
    if (chess_pos_from_fen(&pos, fen, err, sizeof err))
        return NULL;
    const char *f3 = fen;
    for (int i = 0; i < 2 && f3; i++) {
        f3 = strchr(f3, ' ');
        if (f3)
            f3++;
    }
    if (!f3 || *f3 == '-' || *f3 == ' ')
        return NULL;
    size_t n3 = strcspn(f3, " ");
    size_t pre = (size_t)(f3 - fen);
    char keep[16] = "";
    size_t kept = 0;
    for (size_t i = 0; i < n3 && i < 8; i++) {
        char *one = arena_printf(a, "%.*s%c%s", (int)pre, fen, f3[i], f3 + n3);
        if (chess_pos_from_fen(&pos, one, err, sizeof err))
            keep[kept++] = f3[i];
    }
    if (n3 > 8 || kept == n3)
        return NULL;
    keep[kept] = '\0';
    char *out = arena_printf(a, "%.*s%s%s", (int)pre, fen, kept ? keep : "-", f3 + n3);
    return chess_pos_from_fen(&pos, out, err, sizeof err) ? out : NULL;
}

/* Out of line (once a game): tests/bench/layer-cost.sh measures the tag checks by this
 * function's inclusive count. */
__attribute__((noinline)) void db_tags_check(rec_game *g, bool pgn)
{
    const rec_tag *fen = NULL, *setup = NULL;
    static const char *const roster_names[7] = {"Event", "Site", "Date", "Round",
                                                "White", "Black", "Result"};
    for (const rec_tag *t = g->tags; t; t = t->next) {
        const char *n = t->name;
        /* one jump on the id: most tags are none of these */
        switch (t->id) {
        case REC_TAG_DATE:
        case REC_TAG_EVENT_DATE: {
            char fixed[16];
            db_tag_verdict v = db_tag_check_date(t->value, fixed, sizeof fixed);
            /* xiangqi records write their dates the Chinese way: that is their form */
            if (v == DB_TAG_FIXABLE && g->kind == REC_XIANGQI && strstr(t->value, "\xe5\xb9\xb4"))
                v = DB_TAG_OK;
            if (v == DB_TAG_FIXABLE)
                repair(g, BAD_VALUE(g, t, _("%s \"%s\" is written \"%s\" (PGN 8.1.1.3: YYYY.MM.DD)"),
                                    n, t->value, fixed),
                       t, fixed, pgn);
            else if (v == DB_TAG_BAD)
                BAD_VALUE(g, t, _("%s \"%s\" is not a date written YYYY.MM.DD with ? for an "
                                  "unknown digit, or not a day of the calendar"), t->name, t->value);
            break;
        }
        case REC_TAG_ROUND:
            if (g->kind == REC_CHESS && db_tag_check_round(t->value) == DB_TAG_BAD)
                BAD_VALUE(g, t, _("%s \"%s\" is not a round number (PGN 8.1.1.4: 3, 3.1, ? "
                                  "or -)"), t->name, t->value);
            break;
        case REC_TAG_WHITE_ELO:
        case REC_TAG_BLACK_ELO:
        case REC_TAG_RED_ELO:
            if (db_tag_check_elo(t->value) == DB_TAG_BAD)
                BAD_VALUE(g, t, _("%s \"%s\" is not a rating (a whole number from 0 to 3999, "
                                  "or -)"), t->name, t->value);
            break;
        case REC_TAG_TIME_CONTROL:
            if (db_tag_check_time_control(t->value) == DB_TAG_BAD)
                BAD_VALUE(g, t, _("%s \"%s\" is not a time control (PGN 9.6: periods such as "
                                  "40/7200:3600, 300+2, *180, ? or -)"), t->name, t->value);
            break;
        case REC_TAG_ECO:
        case REC_TAG_ECCO:
            if (db_tag_check_eco(t->value) == DB_TAG_BAD)
                BAD_VALUE(g, t, _("%s \"%s\" is not an opening code (a letter A to E and two "
                                  "digits)"), t->name, t->value);
            break;
        case REC_TAG_PLY_COUNT: {
            char *end;
            long said = strtol(t->value, &end, 10);
            bool number = is_digit(t->value[0]) && *end == '\0';
            /* the referee played g->plies plies of the main line, all of it when every
             * move was played: a count equal to that is right (or the line has a move
             * not played, when nothing is said), and the walk is spared */
            long plies = number && said == (long)g->plies ? said : db_tags_main_plies(g);
            if (plies >= 0 && (!number || said != plies)) {
                char count[24];
                snprintf(count, sizeof count, "%ld", plies);
                repair(g, BAD_VALUE(g, t, _("%s \"%s\" but the main line has %ld plies"), n, t->value, plies),
                       t, count, pgn);
            }
            break;
        }
        case REC_TAG_FEN:
            fen = t;
            break;
        case REC_TAG_SETUP:
            setup = t;
            break;
        default:
            break;
        }
    }
    /* PGN 9.7: SetUp "1" and FEN go together (in chess PGN text; XQF, DhtmlXQ and
     * xiangqi PGN writers give a FEN alone) */
    if (!pgn || g->kind != REC_CHESS)
        fen = setup = NULL;
    if (setup && strcmp(setup->value, "0") != 0 && strcmp(setup->value, "1") != 0)
        BAD_VALUE(g, setup, _("%s \"%s\" is neither 0 nor 1 (PGN 9.7.1)"), setup->name, setup->value);
    else if (setup && strcmp(setup->value, "1") == 0 && !fen)
        BAD_VALUE(g, setup, _("%s \"%s\" but there is no FEN tag (PGN 9.7.2)"), setup->name, setup->value);
    else if (setup && fen && strcmp(setup->value, "0") == 0)
        BAD_VALUE(g, setup, _("%s \"%s\" but a FEN tag gives the start position (PGN 9.7.1)"),
                  setup->name, setup->value);
    if (fen && !setup) {
        rec_finding *f = rec_game_add_finding(g, "bad-tag-value", REC_WARNING, fen->where,
                                              _("FEN without SetUp \"1\" (PGN 9.7.1)"));
        f->tag = "SetUp";
        f->suggestions = arena_alloc(g->arena, sizeof *f->suggestions);
        f->suggestions[0] = "1";
        f->suggestion_count = 1;
        if (pgn && !strchr(fen->value, '"') && !strchr(fen->value, '\\')) {
            /* the new tag goes just before FEN, on a line of its own */
            rec_fix *e = arena_alloc(g->arena, sizeof *e);
            e->before = arena_printf(g->arena, "[FEN \"%s\"]", fen->value);
            e->text = arena_printf(g->arena, "[SetUp \"1\"]\n[FEN \"%s\"]", fen->value);
            e->where = rec_game_locate(g, fen->where);
            e->length = (uint32_t)strlen(e->before);
            e->next = NULL;
            f->fix = e;
            f->fix_certain = true;
        }
    }
    if (fen && g->kind == REC_CHESS) {
        char *better = fen_without_impossible_castling(g->arena, fen->value);
        if (better) {
            rec_finding *f = BAD_VALUE(g, fen, _("FEN \"%s\" gives castling rights the position "
                                                 "cannot have; without them: \"%s\""),
                                       fen->value, better);
            repair(g, f, fen, better, pgn);
        }
    }
    /* PGN 8.1.1: the Seven Tag Roster, in PGN chess games (other formats and xiangqi
     * have their own fields) that have a header: a game without any of the seven is a
     * fragment (an article's line, a puzzle), not a database record */
    uint32_t roster = g->tag_known & ((1u << 7) - 1);   /* its ids are 0 to 6 */
    if (pgn && g->kind == REC_CHESS && roster) {
        char missing[64] = "";
        size_t len = 0;
        for (int i = 0; i < 7; i++)
            if (!(roster >> i & 1))
                len += (size_t)snprintf(missing + len, sizeof missing - len, "%s%s",
                                        len ? ", " : "", roster_names[i]);
        if (len) {
            /* one finding for the game (a header without Site, Date and Round is one
             * fact); its tag field lists the names */
            rec_finding *f = rec_game_add_finding(
                g, "missing-tag", REC_INFO, g->start,
                _("the header lacks %s of the Seven Tag Roster (PGN 8.1.1)"), missing);
            f->tag = arena_strdup(g->arena, missing);
        }
    }
}
