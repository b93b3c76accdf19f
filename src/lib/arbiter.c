/* arbiter.c: libarbiter, the C API over the batch engine's pulled games. See arbiter.h.
 *
 * A source is one input opened through the reader registry and read by batch_pull
 * (batch.h), the loop "arbiter check -j 1" runs; each game gets an arena of its own, so
 * it outlives the next one and its source. */
#include <config.h>

#define ARBITER_BUILDING 1
#include "lib/arbiter.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batch/batch.h"
#include "core/chess.h"
#include "core/xiangqi.h"
#include "notation/chess_letters.h"
#include "notation/chess_san.h"
#include "notation/xq_notation.h"
#include "reader/reader.h"
#include "record/arena.h"
#include "record/record.h"
#include "referee/referee.h"
#include "report/summary.h"
#include "writer/dhtmlxq_writer.h"
#include "writer/pgn_writer.h"
#include "writer/wxf_writer.h"

struct arbiter_source {
    input in;
    char *name;
    batch_options opts;
    batch_pull *pull;
    char *error;                 /* the read error, with the name */
};

struct arbiter_game {
    arena a;
    rec_game g;
    const rec_tag **tags;
    size_t ntags;
    const rec_finding **findings; /* the findings, then the claims */
    size_t nfindings, nclaims;
    const rec_node **plies;      /* the main line's replayed nodes */
    size_t nplies;
    /* arbiter_game_move's texts in one notation */
    char *moves_notation;
    char *moves_text;
    size_t *moves_at;
};

static _Thread_local char last_error[512];

static void set_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void set_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
}

const char *arbiter_version(void)
{
    return PACKAGE_VERSION;
}

const char *arbiter_strerror(int status)
{
    switch (status) {
    case ARBITER_OK: return "success";
    case ARBITER_E_ARGUMENT: return "invalid argument";
    case ARBITER_E_OPEN: return "the input could not be opened";
    case ARBITER_E_READ: return "the input could not be read to its end";
    case ARBITER_E_NOMEM: return "out of memory";
    case ARBITER_E_CONVERT: return "the game cannot be written in that format";
    default: return "unknown status";
    }
}

const char *arbiter_last_error(void)
{
    return last_error;
}

/* --- sources */

/* The options of --from and --variant into opts; false (the error set) when unknown. */
static bool source_options(batch_options *opts, const char *from, const char *variant)
{
    batch_options o = {.format = INPUT_UNKNOWN, .variant = -1,
                       .referee = REFEREE_OPTIONS_DEFAULT, .jobs = 1};
    if (from) {
        const reader_format *r = reader_by_name(from);
        if (!r) {
            set_error("unknown format '%s'", from);
            return false;
        }
        o.format = r->format;
    }
    if (variant) {
        if (strcmp(variant, "chess") == 0)
            o.variant = REC_CHESS;
        else if (strcmp(variant, "xiangqi") == 0)
            o.variant = REC_XIANGQI;
        else {
            set_error("unknown variant '%s' (chess or xiangqi)", variant);
            return false;
        }
    }
    *opts = o;
    return true;
}

/* A source on raw (owned: closed on failure too), or NULL with the error set. */
static arbiter_source *source_open(FILE *raw, const char *path, const char *from,
                                   const char *variant)
{
    arbiter_source *s = calloc(1, sizeof *s);
    char *name = strdup(path);
    if (!s || !name) {
        free(s);
        free(name);
        if (raw && raw != stdin)
            fclose(raw);
        set_error("%s: out of memory", path);
        return NULL;
    }
    s->name = name;
    if (!source_options(&s->opts, from, variant)) {
        if (raw && raw != stdin)
            fclose(raw);
        free(name);
        free(s);
        return NULL;
    }
    char err[512];
    bool opened = raw ? reader_input_open_stream(&s->in, raw, name, s->opts.format, err, sizeof err)
                      : reader_input_open(&s->in, name, s->opts.format, err, sizeof err);
    if (!opened) {
        set_error("%s", err);
        free(name);
        free(s);
        return NULL;
    }
    s->pull = batch_pull_open(&s->in, s->name, &s->opts);
    if (!s->pull) {
        set_error("%s: out of memory", path);
        input_close(&s->in);
        free(name);
        free(s);
        return NULL;
    }
    return s;
}

arbiter_source *arbiter_open_file(const char *path, const char *from, const char *variant)
{
    if (!path) {
        set_error("no path");
        return NULL;
    }
    return source_open(NULL, path, from, variant);
}

arbiter_source *arbiter_open_buffer(const void *data, size_t size, const char *name,
                                    const char *from, const char *variant)
{
    if (!name)
        name = "buffer";
    if (!data && size) {
        set_error("%s: no data", name);
        return NULL;
    }
    /* fmemopen takes no empty buffer in every C library: an empty input is one byte of
     * nothing read */
    static const char empty[1];
    FILE *raw = fmemopen(size ? (void *)data : (void *)empty, size ? size : 1, "rb");
    if (raw && !size)
        (void)fgetc(raw);
    if (!raw) {
        set_error("%s: %s", name, strerror(errno));
        return NULL;
    }
    return source_open(raw, name, from, variant);
}

arbiter_source *arbiter_open_fd(int fd, const char *name, const char *from, const char *variant)
{
    char fallback[32];
    if (!name) {
        snprintf(fallback, sizeof fallback, "fd %d", fd);
        name = fallback;
    }
    int own = fd < 0 ? -1 : dup(fd);
    FILE *raw = own < 0 ? NULL : fdopen(own, "rb");
    if (!raw) {
        set_error("%s: %s", name, strerror(errno));
        if (own >= 0)
            close(own);
        return NULL;
    }
    return source_open(raw, name, from, variant);
}

const char *arbiter_source_format(const arbiter_source *src)
{
    return src ? reader_for(src->in.format)->name : NULL;
}

const char *arbiter_source_error(const arbiter_source *src)
{
    return src ? src->error : NULL;
}

void arbiter_close(arbiter_source *src)
{
    if (!src)
        return;
    batch_pull_close(src->pull);
    input_close(&src->in);
    free(src->error);
    free(src->name);
    free(src);
}

/* The game's tables of tags, findings and plies (in its arena). */
static void game_index(arbiter_game *ag)
{
    rec_game *g = &ag->g;
    for (const rec_tag *t = g->tags; t; t = t->next)
        ag->ntags++;
    ag->tags = arena_alloc(&ag->a, (ag->ntags ? ag->ntags : 1) * sizeof *ag->tags);
    size_t i = 0;
    for (const rec_tag *t = g->tags; t; t = t->next)
        ag->tags[i++] = t;

    size_t all = 0;
    for (const rec_finding *f = g->findings; f; f = f->next) {
        all++;
        if (f->claim)
            ag->nclaims++;
    }
    ag->nfindings = all - ag->nclaims;
    ag->findings = arena_alloc(&ag->a, (all ? all : 1) * sizeof *ag->findings);
    size_t nf = 0, nc = ag->nfindings;
    for (const rec_finding *f = g->findings; f; f = f->next)
        ag->findings[f->claim ? nc++ : nf++] = f;

    for (const rec_node *n = g->main.first;
         n && (n->status == REC_MOVE_OK || n->status == REC_MOVE_NULL); n = n->next)
        ag->nplies++;
    ag->plies = arena_alloc(&ag->a, (ag->nplies ? ag->nplies : 1) * sizeof *ag->plies);
    i = 0;
    for (const rec_node *n = g->main.first; i < ag->nplies; n = n->next)
        ag->plies[i++] = n;
}

int arbiter_next_game(arbiter_source *src, arbiter_game **game)
{
    if (!src || !game) {
        set_error("no source");
        return ARBITER_E_ARGUMENT;
    }
    *game = NULL;
    if (src->error)
        return ARBITER_E_READ;
    arbiter_game *ag = calloc(1, sizeof *ag);
    if (!ag) {
        set_error("%s: out of memory", src->name);
        return ARBITER_E_NOMEM;
    }
    arena_init(&ag->a);
    int got = batch_next_game(src->pull, &ag->g, &ag->a);
    if (got <= 0) {
        if (got < 0) {
            const char *why = batch_pull_error(src->pull);
            size_t n = strlen(src->name) + strlen(why) + 3;
            src->error = malloc(n);
            if (src->error)
                snprintf(src->error, n, "%s: %s", src->name, why);
            set_error("%s: %s", src->name, why);
        }
        arena_free(&ag->a);
        free(ag);
        return got < 0 ? ARBITER_E_READ : 0;
    }
    ag->g.file = arena_strdup(&ag->a, src->name);
    game_index(ag);
    *game = ag;
    return 1;
}

void arbiter_game_free(arbiter_game *g)
{
    if (!g)
        return;
    free(g->moves_notation);
    free(g->moves_text);
    free(g->moves_at);
    arena_free(&g->a);
    free(g);
}

/* --- a game's record */

const char *arbiter_game_file(const arbiter_game *g)
{
    return g->g.file;
}

uint64_t arbiter_game_number(const arbiter_game *g)
{
    return g->g.index;
}

unsigned arbiter_game_line(const arbiter_game *g)
{
    return g->g.start.line;
}

uint64_t arbiter_game_offset(const arbiter_game *g)
{
    return g->g.start.offset;
}

const char *arbiter_game_variant(const arbiter_game *g)
{
    return g->g.kind == REC_XIANGQI ? "xiangqi" : "chess";
}

size_t arbiter_game_tag_count(const arbiter_game *g)
{
    return g->ntags;
}

const char *arbiter_game_tag_name(const arbiter_game *g, size_t i)
{
    return i < g->ntags ? g->tags[i]->name : NULL;
}

const char *arbiter_game_tag_value(const arbiter_game *g, size_t i)
{
    return i < g->ntags ? g->tags[i]->value : NULL;
}

const char *arbiter_game_tag(const arbiter_game *g, const char *name)
{
    return name ? rec_game_tag(&g->g, name) : NULL;
}

size_t arbiter_game_ply_count(const arbiter_game *g)
{
    return g->nplies;
}

const char *arbiter_game_final_fen(const arbiter_game *g)
{
    return g->g.final_fen;
}

const char *arbiter_game_status(const arbiter_game *g)
{
    return summary_game_status(&g->g);
}

const char *arbiter_game_result(const arbiter_game *g)
{
    return g->g.result;
}

const char *arbiter_game_derived_result(const arbiter_game *g)
{
    return g->g.derived_result;
}

const char *arbiter_game_derived_reason(const arbiter_game *g)
{
    return g->g.derived_reason;
}

/* --- moves */

/* A notation name for a game into w (NULL: the default); false with the error set. */
static bool game_notation(const arbiter_game *g, const char *notation, pgn_write_options *w,
                          bool strict)
{
    pgn_write_options o = {.notation = CHESS_NOTATION_SAN, .xq_notation = XQN_WXF};
    bool xiangqi = g->g.kind == REC_XIANGQI;
    if (notation) {
        bool named_xq;
        if (!pgn_write_notation_from_name(notation, &o, &named_xq)) {
            set_error("unknown notation '%s' (chess: san, lan, uci, san-ru, san-de, san-fr, "
                      "san-es, san-it, san-nl, san-vi, figurine; xiangqi: wxf, vi, chinese, "
                      "iccs, ucci, fsf-uci, winboard, fsf-san)", notation);
            return false;
        }
        if (strict && named_xq != xiangqi) {
            set_error("'%s' is a %s notation, and game %llu of %s is a %s game", notation,
                      named_xq ? "xiangqi" : "chess", (unsigned long long)g->g.index, g->g.file,
                      xiangqi ? "xiangqi" : "chess");
            return false;
        }
    }
    *w = o;
    return true;
}

/* Every ply of the main line in notation w, into g's move texts. */
static bool game_moves(arbiter_game *ag, const pgn_write_options *w)
{
    const rec_game *g = &ag->g;
    size_t cap = 16 * ag->nplies + 16, len = 0;
    char *text = malloc(cap);
    size_t *at = malloc((ag->nplies + 1) * sizeof *at);
    if (!text || !at) {
        free(text);
        free(at);
        return false;
    }
    char err[200];
    chess_pos cp;
    xq_pos xp;
    bool xiangqi = g->kind == REC_XIANGQI;
    if (xiangqi) {
        if (!referee_xiangqi_start(g, &xp, err, sizeof err))
            xq_pos_start(&xp);
    } else if (!referee_chess_start(g, &cp, err, sizeof err)) {
        chess_pos_start(&cp);
    }
    for (size_t i = 0; i < ag->nplies; i++) {
        const rec_node *n = ag->plies[i];
        char move[XQN_FORMAT_BUFSIZE + CHESS_LETTERS_BUFSIZE];
        const char *t = move;
        if (xiangqi) {
            if (n->status == REC_MOVE_NULL) {
                t = "--";
            } else {
                xqn_format_legal(&xp, n->move, w->xq_notation, w->xq_style, move, sizeof move);
                xq_undo u;
                xq_make(&xp, n->move, &u);
            }
        } else {
            chess_undo u;
            if (n->status == REC_MOVE_NULL) {
                t = w->notation == CHESS_NOTATION_UCI ? "0000" : "--";
                chess_make_null(&cp, &u);
            } else {
                char san[CHESS_NOTATION_BUFSIZE];
                const char *s = san;
                if (w->notation == CHESS_NOTATION_SAN && n->text_is_san)
                    s = n->text;
                else
                    chess_notation_format(&cp, n->move, w->notation, san, sizeof san);
                if (w->notation == CHESS_NOTATION_SAN && w->letters != CHESS_LETTERS_EN)
                    chess_letters_from_english(w->letters, s, move, sizeof move);
                else
                    snprintf(move, sizeof move, "%s", s);
                chess_make(&cp, n->move, &u);
            }
        }
        size_t k = strlen(t);
        if (len + k + 1 > cap) {
            cap = 2 * (len + k + 1);
            char *more = realloc(text, cap);
            if (!more) {
                free(text);
                free(at);
                return false;
            }
            text = more;
        }
        at[i] = len;
        memcpy(text + len, t, k + 1);
        len += k + 1;
    }
    free(ag->moves_text);
    free(ag->moves_at);
    ag->moves_text = text;
    ag->moves_at = at;
    return true;
}

const char *arbiter_game_move(arbiter_game *g, size_t i, const char *notation)
{
    if (!g)
        return NULL;
    if (i >= g->nplies) {
        set_error("ply %zu of %zu", i, g->nplies);
        return NULL;
    }
    const char *key = notation ? notation : "";
    if (!g->moves_notation || strcmp(g->moves_notation, key) != 0) {
        pgn_write_options w;
        if (!game_notation(g, notation, &w, true))
            return NULL;
        char *k = strdup(key);
        if (!k || !game_moves(g, &w)) {
            free(k);
            free(g->moves_notation);
            g->moves_notation = NULL;
            set_error("out of memory");
            return NULL;
        }
        free(g->moves_notation);
        g->moves_notation = k;
    }
    return g->moves_text + g->moves_at[i];
}

/* --- findings */

size_t arbiter_game_finding_count(const arbiter_game *g)
{
    return g->nfindings;
}

const arbiter_finding *arbiter_game_finding(const arbiter_game *g, size_t i)
{
    return i < g->nfindings ? (const arbiter_finding *)(const void *)g->findings[i] : NULL;
}

size_t arbiter_game_claim_count(const arbiter_game *g)
{
    return g->nclaims;
}

const arbiter_finding *arbiter_game_claim(const arbiter_game *g, size_t i)
{
    return i < g->nclaims ? (const arbiter_finding *)(const void *)g->findings[g->nfindings + i]
                          : NULL;
}

#define REC(f) ((const rec_finding *)(const void *)(f))

const char *arbiter_finding_code(const arbiter_finding *f)
{
    return REC(f)->code;
}

const char *arbiter_finding_severity(const arbiter_finding *f)
{
    return rec_severity_name(REC(f)->severity);
}

unsigned arbiter_finding_line(const arbiter_finding *f)
{
    return REC(f)->where.line;
}

unsigned arbiter_finding_column(const arbiter_finding *f)
{
    return REC(f)->where.line ? REC(f)->where.column : 0;
}

uint64_t arbiter_finding_offset(const arbiter_finding *f)
{
    return REC(f)->where.offset;
}

int arbiter_finding_ply(const arbiter_finding *f)
{
    return REC(f)->ply;
}

const char *arbiter_finding_move(const arbiter_finding *f)
{
    return REC(f)->move_text;
}

const char *arbiter_finding_message(const arbiter_finding *f)
{
    return REC(f)->message;
}

size_t arbiter_finding_suggestion_count(const arbiter_finding *f)
{
    return REC(f)->suggestion_count;
}

const char *arbiter_finding_suggestion(const arbiter_finding *f, size_t i)
{
    return i < REC(f)->suggestion_count ? REC(f)->suggestions[i] : NULL;
}

/* --- conversion */

char *arbiter_game_convert(const arbiter_game *g, const char *to, const char *notation)
{
    if (!g) {
        set_error("no game");
        return NULL;
    }
    if (!to)
        to = "pgn";
    pgn_write_options w;
    if (!game_notation(g, notation, &w, false))
        return NULL;
    bool xiangqi = g->g.kind == REC_XIANGQI;
    if (strcmp(to, "pgn") != 0 && strcmp(to, "wxf") != 0 && strcmp(to, "dhtmlxq") != 0) {
        set_error("cannot convert to '%s' (pgn, wxf or dhtmlxq)", to);
        return NULL;
    }
    if (to[0] != 'p' && !xiangqi) {
        set_error("game %llu of %s is a chess game, and %s records xiangqi only",
                  (unsigned long long)g->g.index, g->g.file, to[0] == 'w' ? "WXF" : "DhtmlXQ");
        return NULL;
    }
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out) {
        set_error("out of memory");
        return NULL;
    }
    bool ok;
    char err[256] = "";
    if (strcmp(to, "pgn") == 0) {
        ok = pgn_write_game(out, &g->g, &w);
    } else if (strcmp(to, "wxf") == 0) {
        wxf_write_options o = {.notation = w.xq_notation, .style = w.xq_style};
        ok = wxf_write_game(out, &g->g, &o) && fputc('\n', out) != EOF;
    } else {
        dhtmlxq_write_options o = {false, false};
        unsigned dropped = 0;
        ok = dhtmlxq_write_game(out, &g->g, &o, &dropped, err, sizeof err) &&
             fputc('\n', out) != EOF;
    }
    if (fclose(out) != 0)
        ok = false;
    if (!ok) {
        set_error("game %llu of %s: %s", (unsigned long long)g->g.index, g->g.file,
                  err[0] ? err : "cannot write it");
        free(text);
        return NULL;
    }
    return text;
}

void arbiter_free(void *p)
{
    free(p);
}
