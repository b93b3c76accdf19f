/* cli_check.c: "arbiter check", findings as YAML on stdout, diagnostics on stderr. */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "batch/batch.h"
#include "cli/cli_options.h"
#include "i18n/i18n.h"
#include "io/input.h"
#include "notation/chess_letters.h"
#include "notation/xq_notation.h"
#include "report/diag.h"
#include "report/html_report.h"
#include "report/jsonl_report.h"
#include "engine/annot_engine.h"
#include "engine/puzzle_check.h"
#include "report/summary.h"
#include "database/db_names.h"
#include "database/db_openings.h"
#include "database/db_twins.h"
#include "report/report_splice.h"
#include "report/yaml_report.h"

static const char check_usage[] = N_(
    "Usage: arbiter check [OPTIONS] [FILE...|-]\n"
    "Replay every game and report what is wrong: a YAML document per game and a summary\n"
    "document on stdout, gcc-style diagnostics on stderr. When stdout is a terminal\n"
    "and neither -o nor --report is given, a short summary replaces the report.\n"
    "\n"
    "  -o, --output FILE   write the YAML report to FILE instead of stdout\n"
    "      --report FORMAT yaml (default) or jsonl: one JSON object per game and a\n"
    "                      final summary object; or html: the proof page, one\n"
    "                      self-contained page with every finding in place and its board\n"
    "                      (articles shown whole; implies -j 1)\n"
    "  -j, --jobs N        check with N threads (default: one per core); the output is\n"
    "                      the same whatever N\n"
    "      --diagrams DIR  an SVG per DIAG marker into DIR (diagram-001.svg, ...)\n"
    "  -q, --quiet         no diagnostics on stderr\n"
    "  -v, --verbose       diagnostics for info findings too\n"
    "      --timing        say on stderr how long the run took (the report never holds\n"
    "                      times, so two runs give the same bytes)\n"
    "      --strict        exit 1 for warnings too\n"
    "      --from FORMAT   pgn, wxf, article, tex (LaTeX: skak/xskak), markdown,\n"
    "                      html, xqf, dhtmlxq, cbr, cbl or cbf (default: detected)\n"
    "      --variant NAME  chess or xiangqi for every PGN game (default: by its tags)\n"
    "      --rules NAME    fide (chess), vn (xiangqi, default), axf or cxa\n"
    "      --move-limit N  xiangqi natural move limit, moves per side\n"
    "      --time-control standard|rapid|blitz  judge every game under these rules\n"
    "                      (default: each game's TimeControl or game-type field, else\n"
    "                      standard; FIDE Appendices A and B, the Vietnamese annex)\n"
    "      --timeout-nodes N  chess, a game lost on time: search budget of the 'can the\n"
    "                      winner still mate' analysis (FIDE 6.9); without it only the\n"
    "                      proofs run (material, pawn walls, short forced lines, every\n"
    "                      position a closed one can reach) and only 'unwinnable' is\n"
    "                      reported; 50000 also finds mates and decides most of the rest\n"
    "  -n, --notation NAME read xiangqi moves in this notation (wxf, vi, chinese, iccs,\n"
    "                      ucci, fsf-uci, winboard, fsf-san), or chess moves with these\n"
    "                      piece letters (san-en, san-ru, san-de, san-fr, san-es, san-it,\n"
    "                      san-nl, san-vi, figurine); default: found by trial replay\n"
    "      --engine NAME   check the annotations with a UCI engine: stockfish,\n"
    "                      fairy-stockfish (xiangqi) or a path (eval-contradicted,\n"
    "                      move-mark-contradicted); the cost is said on stderr\n"
    "      --engine-nodes N  nodes per position (default 100000)\n"
    "      --engine-depth N  a depth per position instead of nodes\n"
    "      --engine-cache FILE  SQLite file of evaluations (default\n"
    "                      $XDG_CACHE_HOME/arbiter/engine.sqlite)\n"
    "      --puzzles       judge every game from a set-up position as a puzzle (its\n"
    "                      main line the solution: puzzle-cook, puzzle-unsound); without\n"
    "                      it only those whose tags or first comment say so; mate in 5\n"
    "                      or less without an engine, other puzzles with --engine\n"
    "      --check-eco     an ECO (chess) or ECCO (xiangqi) tag other than the opening\n"
    "                      table's code is reported (eco-mismatch, info)\n"
    "      --spelling FILE a scid spelling file (.ssp): its canonical player, event\n"
    "                      and site names (name-variant)\n"
    "      --no-names      no name-variant findings and no name_variants table\n"
    "      --no-twins      no twin findings (duplicate-game, duplicate-moves,\n"
    "                      truncated-copy, duplicate-header) and no keys\n"
    "      --against FILE  also report the games already in FILE, a reference\n"
    "                      database (repeat for several files)\n"
    "      --keys          each game's twin keys in its document, so that 'arbiter\n"
    "                      summary' finds the twins across the reports of parts\n"
    "  -h, --help          show this help\n"
    "\n"
    "Exit status: 0 no game has errors, 1 some game has errors (--strict: or warnings),\n"
    "2 usage or I/O failure. See arbiter-check(1) for the finding codes.\n");

enum { OPT_STRICT = 256, OPT_FROM, OPT_VARIANT, OPT_RULES, OPT_MOVE_LIMIT, OPT_REPORT, OPT_DIAGRAMS,
       OPT_TIMEOUT_NODES, OPT_TIMING, OPT_TIME_CONTROL, OPT_SPELLING, OPT_NO_NAMES,
       OPT_ENGINE, OPT_ENGINE_NODES, OPT_ENGINE_DEPTH, OPT_ENGINE_CACHE, OPT_CHECK_ECO,
       OPT_NO_TWINS, OPT_AGAINST, OPT_KEYS, OPT_PUZZLES };

typedef struct check_ctx {
    summary sum;
    bool strict;
    bool quiet, verbose;
    bool jsonl;
    bool html;
    bool no_report;               /* a terminal on stdout: diagnostics and a short summary */
    html_report *page;            /* --report html: the proof page being made */
    bool failed_games;
    cli_marker_output *diagrams;  /* --diagrams DIR, or NULL */
    db_names *names;              /* the run's names (pre-pass), read-only in the parts */
    bool check_eco;               /* --check-eco */
    db_twins *twins;              /* the run's twin keys (settle: calling thread only) */
    bool keys;                    /* --keys: each game's keys in its document */
    const char *settle_file;      /* the input of the last game settled, and its number */
    uint64_t settle_game;
    arena settle_arena;           /* check_settle's, emptied for each game */
} check_ctx;

/* A game of a piece waiting for its twins: its keys, where its document is in the
 * piece's out text (check_settle splices a twin finding into it) and where its
 * diagnostics end in the held text (check_settle writes them out). */
typedef struct check_pending {
    db_keys keys;
    const char *file;
    rec_span start;
    size_t out_start, out_end, err_end;
    report_places places;         /* in the document, when its writer said them */
    bool places_known;
    bool ok, clean;               /* status ok; no error (for --strict: no warning) */
} check_pending;

/* What one thread writes for a piece of the input (or the whole run with -j 1). */
typedef struct check_part {
    const check_ctx *c;
    FILE *out, *err;
    yaml_report *yaml;
    jsonl_report *jsonl;
    diag *diag;
    summary sum;
    bool failed_games;
    bool failed;
    /* twins with pieces: the games' diagnostics held until they settle in input order,
     * in the piece's held text (batch_hold_open; a twin's goes before them); their
     * documents are written, and a twin finding spliced in when it settles */
    FILE *berr;
    diag *bdiag;
    check_pending *pending;
    size_t npending, cappending, err_done;
} check_part;

static void *check_begin(void *vctx, FILE *out, FILE *err)
{
    const check_ctx *c = vctx;
    check_part *p = calloc(1, sizeof *p);
    if (!p) {
        fputs(_("arbiter: out of memory\n"), stderr);
        abort();
    }
    p->c = c;
    p->out = out;
    p->err = err;
    summary_init(&p->sum);
    if (c->jsonl)
        p->jsonl = jsonl_report_open(out);
    else if (!c->html && !c->no_report)
        p->yaml = yaml_report_open(out);
    p->diag = c->quiet ? NULL : diag_open(err, c->verbose ? REC_INFO : REC_WARNING);
    return p;
}

/* The twin finding of a game settled with keys K (calling thread, input order), in
 * ARENA, or NULL. */
static rec_finding *check_twin(check_ctx *c, const db_keys *k, const char *file, rec_span start,
                               arena *a)
{
    if (!c->settle_file || strcmp(c->settle_file, file) != 0) {
        c->settle_file = file;
        c->settle_game = 0;
    }
    db_twin t;
    if (db_twins_settle(c->twins, k, file, ++c->settle_game, false, &t) == DB_TWIN_NONE)
        return NULL;
    rec_finding *f = arena_alloc(a, sizeof *f);
    memset(f, 0, sizeof *f);
    f->code = db_twin_code(t.kind);
    f->severity = REC_WARNING;
    f->where = start;
    f->dup_file = arena_strdup(a, t.file);
    f->dup_game = t.game;
    f->dup_line = t.line;
    unsigned long long n = t.game;
    /* a binary input (XQF, CCBridge) has no lines: its first copy is named without one */
    bool at = t.line != 0;
    unsigned missing = (unsigned)(k->plies < t.plies ? t.plies - k->plies : k->plies - t.plies);
    switch (t.kind) {
    case DB_TWIN_GAME:
        f->message = at ? arena_printf(a, _("this game is a copy of game %llu of %s (line %u)"), n,
                                       t.file, t.line)
                        : arena_printf(a, _("this game is a copy of game %llu of %s"), n, t.file);
        break;
    case DB_TWIN_MOVES:
        f->message = at ? arena_printf(a, _("the %u plies of this game are those of game %llu of %s "
                                            "(line %u), played by other players or in another event"),
                                       (unsigned)k->plies, n, t.file, t.line)
                        : arena_printf(a, _("the %u plies of this game are those of game %llu of %s, "
                                            "played by other players or in another event"),
                                       (unsigned)k->plies, n, t.file);
        break;
    case DB_TWIN_TRUNCATED:
        if (k->plies < t.plies)
            f->message = at ? arena_printf(a, _("this game is game %llu of %s (line %u) without its "
                                                "last %u plies"),
                                           n, t.file, t.line, missing)
                            : arena_printf(a, _("this game is game %llu of %s without its last %u "
                                                "plies"),
                                           n, t.file, missing);
        else
            f->message = at ? arena_printf(a, _("game %llu of %s (line %u) is this game without its "
                                                "last %u plies"),
                                           n, t.file, t.line, missing)
                            : arena_printf(a, _("game %llu of %s is this game without its last %u "
                                                "plies"),
                                           n, t.file, missing);
        break;
    default:
        f->message = at ? arena_printf(a, _("Event, Site, Date, Round, White and Black are those of "
                                            "game %llu of %s (line %u), the moves are not"),
                                       n, t.file, t.line)
                        : arena_printf(a, _("Event, Site, Date, Round, White and Black are those of "
                                            "game %llu of %s, the moves are not"),
                                       n, t.file);
        break;
    }
    return f;
}

/* A game of a reference database (--against): its keys only. */
static bool check_reference(rec_game *g, const char *path, void *vctx)
{
    (void)path;
    check_ctx *c = vctx;
    db_keys k;
    db_keys_of_game(g, c->names, NULL, &k);
    if (!c->settle_file || strcmp(c->settle_file, g->file) != 0) {
        c->settle_file = g->file;
        c->settle_game = 0;
    }
    db_twin t;
    db_twins_settle(c->twins, &k, g->file, ++c->settle_game, true, &t);
    return true;
}

/* Diagnostics of a twin finding alone (no source line: the same with pieces). */
static void check_twin_diag(diag *d, const rec_finding *f, const char *file)
{
    if (!d || !f)
        return;
    arena a;
    arena_init(&a);
    rec_game fake;
    rec_game_init(&fake, &a, file, 1);
    rec_finding copy = *f;
    copy.next = NULL;
    report_prepend_finding(&fake, &copy);
    diag_game(d, &fake, NULL);
    arena_free(&a);
}

static void out_of_memory(void)
{
    fputs(_("arbiter: out of memory\n"), stderr);
    abort();
}

/* The writer of a part's held diagnostics (twins with pieces), opened at its first
 * game. */
static void check_hold_open(check_part *p, batch_marks *marks)
{
    if (p->berr)
        return;
    p->berr = batch_hold_open(marks);
    if (p->diag)
        p->bdiag = diag_open(p->berr, p->c->verbose ? REC_INFO : REC_WARNING);
}

/* Where the game document just written has its number, status and findings, when
 * its writer says (report_places.h). */
static bool check_places(const check_part *p, report_places *at)
{
    return p->jsonl ? jsonl_report_places(p->jsonl, at) : yaml_report_places(p->yaml, at);
}

/* Mark the number of the game document written from byte at of the out text: at the
 * place its writer said, else found by a search. */
static void check_mark_index(const check_part *p, batch_marks *marks, size_t at,
                             const report_places *places)
{
    if (places)
        batch_mark_out_at(marks, at + places->game);
    else
        batch_mark_index(marks, p->out, (long)at, p->jsonl ? ",\"game\":" : "\ngame: ");
}

/* The game's document: into the piece's out text straight from the writer's buffer
 * (marks: a piece, -j), not through the stream (stdio's layers cost more than the copy
 * on an unbuffered stream), unless libyaml has to write it. */
static bool check_write_doc(check_part *p, const rec_game *g, batch_marks *marks)
{
    const char *doc;
    size_t len;
    if (marks && (p->jsonl ? jsonl_report_game_line(p->jsonl, g, &doc, &len)
                           : yaml_report_game_doc(p->yaml, g, &doc, &len))) {
        batch_out_write(marks, doc, len);
        return true;
    }
    return p->jsonl ? jsonl_report_game(p->jsonl, g) : yaml_report_game(p->yaml, g);
}

static bool check_game(rec_game *g, const char *path, void *vpart, batch_marks *marks)
{
    check_part *p = vpart;
    /* the names' twin keys as the check found them: the keys below ask no table */
    db_game_names names;
    if (p->c->names)
        db_names_check(p->c->names, g, &names);
    db_openings_classify(g, p->c->check_eco);
    rec_finding *twin = NULL;
    check_pending *held = NULL;
    if (p->c->twins) {
        db_keys k;
        db_keys_of_game(g, p->c->names, p->c->names ? &names : NULL, &k);
        if (p->c->keys) {
            char *text = arena_alloc(g->arena, DB_KEYS_TEXT_MAX);
            db_keys_format(&k, text, DB_KEYS_TEXT_MAX);
            g->twin_keys = text;
        }
        if (!marks || p->c->page) {
            /* the calling thread, in input order (one thread or a whole-file input):
             * the game settles now (ctx is the calling thread's) */
            twin = check_twin((check_ctx *)p->c, &k, g->file, g->start, g->arena);
        } else {
            check_hold_open(p, marks);
            if (p->npending == p->cappending) {
                p->cappending = p->cappending ? 2 * p->cappending : 64;
                p->pending = realloc(p->pending, p->cappending * sizeof *p->pending);
                if (!p->pending)
                    out_of_memory();
            }
            held = &p->pending[p->npending++];
            held->keys = k;
            held->file = g->file;
            held->start = g->start;
        }
    }
    if (twin) {
        /* its diagnostic first and without the source line, as check_settle says it,
         * then the game's own (the same bytes for any -j) */
        check_twin_diag(p->diag, twin, g->file);
        if (p->diag)
            diag_game(p->diag, g, path);
        report_prepend_finding(g, twin);
    }
    summary_add_game(&p->sum, g);
    if (g->error_count || (p->c->strict && g->warning_count))
        p->failed_games = true;
    if (held) {
        held->ok = !g->error_count && !g->warning_count;
        held->clean = !g->error_count && !(p->c->strict && g->warning_count);
        if (p->bdiag)
            diag_game(p->bdiag, g, path);
        if (p->c->diagrams && !cli_diagram_markers(g, p->c->diagrams))
            p->failed = true;
        size_t at = batch_out_len(marks);
        bool ok = p->c->no_report || check_write_doc(p, g, marks);
        /* where the game's text is (the piece's streams are unbuffered) */
        held->out_start = at;
        held->out_end = batch_out_len(marks);
        held->err_end = batch_held_len(marks);
        if (!ok) {
            fprintf(p->err, _("arbiter: writing the report: %s\n"),
                    p->jsonl ? _("write error") : yaml_report_error(p->yaml));
            p->failed = true;
            return false;
        }
        held->places_known = !p->c->no_report && check_places(p, &held->places);
        if (!p->c->no_report)
            check_mark_index(p, marks, at, held->places_known ? &held->places : NULL);
        return true;
    }
    if (p->diag && !twin)
        diag_game(p->diag, g, path);
    if (p->c->diagrams && !cli_diagram_markers(g, p->c->diagrams))
        p->failed = true;
    if (p->c->page) { /* one thread: the page is the run's */
        if (!html_report_game(p->c->page, g, path)) {
            fputs(_("arbiter: writing the proof page: write error\n"), p->err);
            p->failed = true;
            return false;
        }
        return true;
    }
    if (p->c->no_report)
        return true;
    size_t at = marks ? batch_out_len(marks) : 0;
    bool ok = check_write_doc(p, g, marks);
    if (!ok) {
        /* on the part's stream, in its place among the diagnostics */
        fprintf(p->err, _("arbiter: writing the report: %s\n"),
                p->jsonl ? _("write error") : yaml_report_error(p->yaml));
        p->failed = true;
        return false;
    }
    /* the game's number, moved on by the games of the pieces before (-j) */
    if (marks) {
        report_places places;
        check_mark_index(p, marks, at, check_places(p, &places) ? &places : NULL);
    }
    return true;
}

/* A held game settles (calling thread, input order): its twin finding spliced into its
 * document when the piece is written (batch_splice: the documents are not copied),
 * its diagnostics written to the part's err stream. */
static bool check_settle(void *vctx, void *vpart, uint64_t index, batch_marks *marks)
{
    check_ctx *c = vctx;
    check_part *p = vpart;
    if (!p->pending || index == 0 || index > p->npending)
        return true;       /* settled in check_game */
    check_pending *h = &p->pending[index - 1];
    arena_reset(&c->settle_arena); /* not a block malloc'd and freed a game */
    rec_finding *twin = check_twin(c, &h->keys, h->file, h->start, &c->settle_arena);
    if (twin) {
        /* the counts check_game made without it */
        p->sum.findings_by_severity[REC_WARNING]++;
        summary_add_code(&p->sum, twin->code, 1);
        if (h->ok) {
            p->sum.games_ok--;
            p->sum.games_with_warnings++;
        }
        if (c->strict)
            p->failed_games = true;
        check_twin_diag(p->diag, twin, h->file);
    }
    /* the held stream is unbuffered (batch_hold_open): its text is all there (none
     * held: no text, and fwrite must not be given a null pointer) */
    if (h->err_end > p->err_done)
        fwrite(batch_held_text(marks) + p->err_done, 1, h->err_end - p->err_done, p->err);
    p->err_done = h->err_end;
    bool ok = true;
    size_t len = h->out_end - h->out_start;
    if (twin && len) {
        report_splice_edit e[2];
        int n;
        ok = report_splice_plan_at(batch_out_text(marks) + h->out_start, len, c->jsonl, twin,
                                   h->places_known ? &h->places : NULL, e, &n);
        for (int i = 0; i < n; i++) {
            batch_splice(marks, h->out_start + e[i].at, e[i].del, e[i].text, e[i].len);
            free(e[i].text);
        }
    }
    if (!ok) {
        fprintf(p->err, _("arbiter: writing the report: %s\n"), _("write error"));
        p->failed = true;
    }
    return ok;
}

static void check_hold_close(check_part *p)
{
    diag_close(p->bdiag);
    if (p->berr)
        fclose(p->berr);
    free(p->pending);
    p->bdiag = NULL;
    p->berr = NULL;
    p->pending = NULL;
}

static bool check_finish(void *vpart)
{
    check_part *p = vpart;
    check_hold_close(p);
    bool ok = p->jsonl ? jsonl_report_close(p->jsonl) : p->yaml ? yaml_report_close(p->yaml) : true;
    p->jsonl = NULL;
    p->yaml = NULL;
    diag_close(p->diag);
    p->diag = NULL;
    return ok && !p->failed;
}

static bool check_merge(void *vctx, void *vpart, bool keep)
{
    check_ctx *c = vctx;
    check_part *p = vpart;
    if (keep) {
        summary_merge(&c->sum, &p->sum);
        c->failed_games = c->failed_games || p->failed_games;
    }
    check_hold_close(p);
    if (p->jsonl)
        jsonl_report_close(p->jsonl);
    if (p->yaml)
        yaml_report_close(p->yaml);
    diag_close(p->diag);
    free(p);
    return true;
}

/* The summary a person reads on a terminal, instead of the YAML report. */
static bool check_short_summary(FILE *out, const summary *s)
{
    fprintf(out, ngettext("%llu game: %llu ok, %llu with warnings, %llu with errors\n",
                          "%llu games: %llu ok, %llu with warnings, %llu with errors\n",
                          (unsigned long)s->games),
            (unsigned long long)s->games, (unsigned long long)s->games_ok,
            (unsigned long long)s->games_with_warnings, (unsigned long long)s->games_with_errors);
    fputs(_("(the YAML report: -o FILE, --report yaml, or stdout into a file or a pipe)\n"),
          out);
    return !ferror(out);
}

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int cli_check(int argc, char **argv)
{
    static const struct option options[] = {
        {"output", required_argument, NULL, 'o'},
        {"quiet", no_argument, NULL, 'q'},
        {"verbose", no_argument, NULL, 'v'},
        {"timing", no_argument, NULL, OPT_TIMING},
        {"spelling", required_argument, NULL, OPT_SPELLING},
        {"no-names", no_argument, NULL, OPT_NO_NAMES},
        {"check-eco", no_argument, NULL, OPT_CHECK_ECO},
        {"no-twins", no_argument, NULL, OPT_NO_TWINS},
        {"against", required_argument, NULL, OPT_AGAINST},
        {"keys", no_argument, NULL, OPT_KEYS},
        {"strict", no_argument, NULL, OPT_STRICT},
        {"from", required_argument, NULL, OPT_FROM},
        {"variant", required_argument, NULL, OPT_VARIANT},
        {"rules", required_argument, NULL, OPT_RULES},
        {"move-limit", required_argument, NULL, OPT_MOVE_LIMIT},
        {"time-control", required_argument, NULL, OPT_TIME_CONTROL},
        {"timeout-nodes", required_argument, NULL, OPT_TIMEOUT_NODES},
        {"notation", required_argument, NULL, 'n'},
        {"report", required_argument, NULL, OPT_REPORT},
        {"jobs", required_argument, NULL, 'j'},
        {"diagrams", required_argument, NULL, OPT_DIAGRAMS},
        {"engine", required_argument, NULL, OPT_ENGINE},
        {"engine-nodes", required_argument, NULL, OPT_ENGINE_NODES},
        {"engine-depth", required_argument, NULL, OPT_ENGINE_DEPTH},
        {"engine-cache", required_argument, NULL, OPT_ENGINE_CACHE},
        {"puzzles", no_argument, NULL, OPT_PUZZLES},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *output = NULL, *spelling = NULL;
    bool no_names = false, no_twins = false;
    /* static: reachable on the early (usage) returns, which do not free it */
    static char **against;
    against = calloc((size_t)argc + 1, sizeof *against);
    int nagainst = 0;
    if (!against)
        out_of_memory();
    bool report_asked = false;
    bool quiet = false, verbose = false, timing = false;
    annot_engine_options eopts = {0};
    bool puzzles = false;
    check_ctx c = {0};
    cli_marker_output diagrams = {0};
    batch_options gopts = {.format = INPUT_UNKNOWN, .variant = -1, .referee = REFEREE_OPTIONS_DEFAULT};
    int opt;

    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":o:qvn:j:h", options, NULL)) != -1) {
        switch (opt) {
        case 'o': output = optarg; break;
        case OPT_DIAGRAMS: diagrams.dir = optarg; c.diagrams = &diagrams; break;
        case 'j':
            if (!cli_parse_jobs(optarg, &gopts.jobs)) {
                cli_error(_("check: -j takes a number of threads from 1 to 256, not '%s'"), optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case OPT_REPORT:
            report_asked = true;
            if (strcmp(optarg, "jsonl") == 0) {
                if (!jsonl_report_available()) {
                    cli_error(_("check: --report jsonl needs a build with jansson "
                              "(install libjansson-dev and rebuild)"));
                    return CLI_EXIT_USAGE;
                }
                c.jsonl = true;
            } else if (strcmp(optarg, "yaml") == 0) {
                c.jsonl = c.html = false;
            } else if (strcmp(optarg, "html") == 0) {
                c.html = true;
                c.jsonl = false;
            } else {
                cli_error(_("check: --report takes yaml, jsonl or html, not '%s'"), optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case 'q': quiet = true; break;
        case 'v': verbose = true; break;
        case OPT_TIMING: timing = true; break;
        case OPT_SPELLING: spelling = optarg; break;
        case OPT_NO_NAMES: no_names = true; break;
        case OPT_CHECK_ECO: c.check_eco = true; break;
        case OPT_NO_TWINS: no_twins = true; break;
        case OPT_AGAINST: against[nagainst++] = optarg; break;
        case OPT_KEYS: c.keys = true; break;
        case OPT_STRICT: c.strict = true; break;
        case OPT_RULES:
            if (!referee_rules_from_name(optarg, &gopts.referee.rules)) {
                cli_error(_("check: --rules takes fide, vn, axf or cxa, not '%s'"), optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case OPT_TIME_CONTROL:
            if (!tc_kind_from_name(optarg, &gopts.referee.time_control)) {
                cli_error(_("check: --time-control takes standard, rapid or blitz, not '%s'"),
                          optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case OPT_ENGINE: eopts.command = optarg; break;
        case OPT_PUZZLES: puzzles = true; break;
        case OPT_ENGINE_CACHE: eopts.cache = optarg; break;
        case OPT_ENGINE_NODES:
        case OPT_ENGINE_DEPTH: {
            char *end;
            long n = strtol(optarg, &end, 10);
            if (end == optarg || *end || n < 1 || n > 1000000000) {
                cli_error(_("check: %s takes a positive number, not '%s'"), argv[optind - 1],
                          optarg);
                return CLI_EXIT_USAGE;
            }
            eopts.nodes = opt == OPT_ENGINE_NODES ? n : 0;
            eopts.depth = opt == OPT_ENGINE_DEPTH ? (int)n : 0;
            break;
        }
        case OPT_TIMEOUT_NODES: {
            char *end;
            long n = strtol(optarg, &end, 10);
            if (end == optarg || *end || n < 0 || n > 100000000) {
                cli_error(_("check: --timeout-nodes takes a number of nodes from 0 to 100000000, "
                          "not '%s'"), optarg);
                return CLI_EXIT_USAGE;
            }
            /* 0 on the command line: the static proofs only (the referee's quick mode) */
            gopts.referee.chess_timeout_nodes = n == 0 ? -1 : n;
            break;
        }
        case OPT_MOVE_LIMIT: {
            char *end;
            long n = strtol(optarg, &end, 10);
            if (end == optarg || *end || n < 1 || n > 10000) {
                cli_error(_("check: --move-limit takes a number of moves from 1 to 10000, not '%s'"),
                          optarg);
                return CLI_EXIT_USAGE;
            }
            gopts.referee.move_limit = (int)n;
            break;
        }
        case OPT_VARIANT: {
            int v;
            if (!cli_parse_variant(optarg, &v)) {
                cli_error(_("check: --variant takes chess or xiangqi, not '%s'"), optarg);
                return CLI_EXIT_USAGE;
            }
            gopts.variant = v;
            break;
        }
        case OPT_FROM:
            if (!cli_parse_format(optarg, &gopts.format)) {
                cli_error(_("check: --from takes pgn, wxf, article, tex, markdown, html, xqf, "
                          "dhtmlxq, cbr, cbl or cbf, not '%s'"), optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case 'n': {
            xqn_notation n;
            chess_letters letters;
            if ((strncmp(optarg, "san-", 4) == 0 || strcmp(optarg, "figurine") == 0) &&
                chess_letters_from_name(optarg, &letters)) {
                gopts.referee.chess_letters = (int)letters;
            } else if (xqn_notation_from_name(optarg, &n)) {
                gopts.referee.xq_notation = (int)n;
            } else {
                cli_error(_("check: unknown notation '%s' (xiangqi: wxf, vi, chinese, iccs, ucci, "
                          "fsf-uci, winboard, fsf-san; chess letters: san-en, san-ru, san-de, "
                          "san-fr, san-es, san-it, san-nl, san-vi, figurine)"), optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        }
        case 'h': fputs(_(check_usage), stdout); return CLI_EXIT_OK;
        case ':':
            cli_error(_("check: option '%s' needs a value"), argv[optind - 1]);
            return CLI_EXIT_USAGE;
        default:
            if (optopt) /* a short option: argv[optind - 1] may be a group like -qx */
                cli_error(_("check: unknown option '-%c' (try 'arbiter check --help')"), optopt);
            else
                cli_error(_("check: unknown option '%s' (try 'arbiter check --help')"), argv[optind - 1]);
            return CLI_EXIT_USAGE;
        }
    }

    FILE *out = stdout;
    /* A person at a terminal reads the diagnostics; the YAML is for programs and
     * files, so it goes where stdout is not a terminal, or when asked for. */
    c.no_report = !output && !report_asked && isatty(STDOUT_FILENO);
    if (output && strcmp(output, "-") == 0)
        output = NULL; /* -o - is standard output */
    if (output && !cli_some_input_readable(argv + optind, argc - optind))
        return CLI_EXIT_USAGE; /* nothing to read: FILE keeps the report it had */
    if (output && !(out = fopen(output, "w"))) {
        cli_error("%s: %s", output, strerror(errno));
        return CLI_EXIT_USAGE;
    }
    /* the report is megabytes for a database: written in 64 KiB pieces, not the
     * 4 KiB stdio picks for a file or /dev/null (a write call for each 4 KiB was about
     * 5,600 calls on the 33 MB bench) */
    static char out_buf[1 << 16];
    if (!c.no_report)
        setvbuf(out, out_buf, _IOFBF, sizeof out_buf);
    double start = seconds_now();
    summary_init(&c.sum);
    c.quiet = quiet;
    c.verbose = verbose;
    gopts.verbose = verbose;
    gopts.progress = !quiet;
    if (c.diagrams)
        gopts.jobs = 1; /* the diagrams are numbered in input order */
    if (c.html) {
        gopts.jobs = 1; /* one page, made by one thread */
        if (!(c.page = html_report_open(out))) {
            cli_error(_("check: cannot make the proof page (no temporary file or memory)"));
            return CLI_EXIT_USAGE;
        }
    }
    if (!no_names) {
        /* name-variant needs the whole run's spellings before the first game is
         * reported: a pre-pass over the tag lines of the inputs (stdin cannot be read
         * twice and is not counted) */
        c.names = db_names_new();
        char err[512];
        if (spelling && !db_names_load_spelling(c.names, spelling, err, sizeof err)) {
            cli_error(_("check: cannot read the spelling file %s"), err);
            db_names_free(c.names);
            return CLI_EXIT_USAGE;
        }
        db_names_scan_all(c.names, argv + optind, argc - optind, gopts.jobs);
        db_names_group(c.names);
    }
    annot_engine_configure(&eopts);
    puzzle_check_configure(puzzles);
    if (!no_twins)
        c.twins = db_twins_new(DB_TWINS_MIN_PLIES);
    if (nagainst && !no_twins) {
        /* the reference databases' keys first: their games are earlier than any */
        batch_options ropts = gopts;
        ropts.progress = false;
        batch_result rres = batch_for_each_game(against, nagainst, &ropts, check_reference, &c);
        c.settle_file = NULL;
        if (rres.io_failed) {
            input_kept_free();
            free(against);
            db_twins_free(c.twins);
            db_names_free(c.names);
            if (out != stdout)
                fclose(out);
            return CLI_EXIT_USAGE;
        }
    }
    free(against);
    const batch_sink sink = {check_begin, check_game, check_finish, check_merge,
                             c.twins ? check_settle : NULL};
    arena_init(&c.settle_arena);
    batch_result res = batch_run(argv + optind, argc - optind, &gopts, &sink, &c, out, stderr);
    input_kept_free(); /* a text of the pre-pass whose games were not read (a stop) */
    arena_free(&c.settle_arena);

    c.sum.files = res.files;
    bool engine_ok = annot_engine_finish(stderr);
    if (timing) {
        double secs = seconds_now() - start;
        fprintf(stderr, _("arbiter check: %llu games, %llu plies in %.3f s (%.0f games/s)\n"),
                (unsigned long long)c.sum.games, (unsigned long long)c.sum.plies, secs,
                secs > 0 ? (double)c.sum.games / secs : 0.0);
        if (c.twins && db_twins_games(c.twins))
            fprintf(stderr, _("arbiter check: twin keys of %llu games in %llu bytes (%.1f bytes a "
                              "game)\n"),
                    (unsigned long long)db_twins_games(c.twins),
                    (unsigned long long)db_twins_memory(c.twins),
                    (double)db_twins_memory(c.twins) / (double)db_twins_games(c.twins));
    }
    bool write_ok = !res.stopped;
    if (c.page) {
        if (write_ok)
            write_ok = html_report_close(c.page, &c.sum);
        else
            html_report_discard(c.page);
    } else if (write_ok && c.no_report) {
        write_ok = check_short_summary(out, &c.sum);
    } else if (write_ok && c.jsonl) {
        write_ok = db_names_write_jsonl(c.names, out);
        jsonl_report *j = jsonl_report_open(out);
        write_ok = j && jsonl_report_summary(j, &c.sum);
        write_ok = jsonl_report_close(j) && write_ok;
    } else if (write_ok) {
        write_ok = db_names_write_yaml(c.names, out);
        yaml_report *y = yaml_report_open(out);
        write_ok = y && yaml_report_summary(y, &c.sum) && write_ok;
        write_ok = yaml_report_close(y) && write_ok;
    }
    db_names_free(c.names);
    db_twins_free(c.twins);
    if (out != stdout ? fclose(out) != 0 : fflush(out) != 0)
        write_ok = false;
    if (!write_ok) {
        cli_error(_("check: could not write the report"));
        return CLI_EXIT_USAGE;
    }
    if (res.io_failed || !engine_ok)
        return CLI_EXIT_USAGE;
    return c.failed_games ? CLI_EXIT_FINDINGS : CLI_EXIT_OK;
}
