/* cli_convert.c: "arbiter convert", normalised records on stdout or -o FILE. */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli.h"
#include "batch/batch.h"
#include "cli/cli_options.h"
#include "database/db_openings.h"
#include "database/db_twins.h"
#include "i18n/i18n.h"
#include "io/input.h"
#include "reader/reader.h"
#include "report/diag.h"
#include "notation/chess_letters.h"
#include "notation/xq_notation.h"
#include "writer/article_writer.h"
#include "writer/pgn_writer.h"
#include "writer/wxf_writer.h"
#include "writer/cbr_writer.h"
#include "writer/xqf_writer.h"
#include "writer/dhtmlxq_writer.h"

#include <sys/stat.h>

static const char convert_usage[] = N_(
    "Usage: arbiter convert [OPTIONS] [FILE...|-]\n"
    "Rewrite every game (PGN, WXF or an article's blocks) in PGN export format: Seven Tag\n"
    "Roster first, canonical moves,\n"
    "NAGs for annotations, lines under 80 characters. Converting the output again gives\n"
    "the same bytes.\n"
    "\n"
    "      --to FORMAT             pgn (default); wxf: xiangqi games as WXF records (a\n"
    "                              chess game is an error and is not written); article:\n"
    "                              an article file with each [game] block rewritten as a\n"
    "                              WXF record and all other text unchanged; xqf: one XQF\n"
    "                              file per xiangqi game (-o DIR: DIR/0001.xqf, ...;\n"
    "                              -o FILE or stdout: a single game); dhtmlxq: a\n"
    "                              [DhtmlXQ] block per xiangqi game; cbr, cbf: one\n"
    "                              CCBridge record (binary, XML) per game, as for xqf;\n"
    "                              cbl: one CCBridge library of all games (-o FILE)\n"
    "      --xqf-version N         18 (0x12, default, XQStudio 1.63) or 10 (XQF 1.0)\n"
    "      --xqf-seed N            seed of the XQF keys (default: fixed; same bytes\n"
    "                              for the same input)\n"
    "  -n, --notation NAME         move notation: for chess san (default), lan, uci, or\n"
    "                              SAN with national piece letters: san-ru, san-de,\n"
    "                              san-fr, san-es, san-it, san-nl, san-vi, figurine;\n"
    "                              for xiangqi wxf (default; --to article: the notation\n"
    "                              each block was read in), vi, chinese, iccs, ucci,\n"
    "                              fsf-uci, winboard, fsf-san\n"
    "      --xq-style LIST         xiangqi move style (comma-separated): equals (C2=5),\n"
    "                              lower-black, marker-first (+C-2), full-width, fsf\n"
    "                              (Fairy-Stockfish's WXF: C2=5+), traditional (Chinese)\n"
    "      --strip LIST            leave out comments, nags and/or variations\n"
    "                              (comma-separated)\n"
    "      --skip-invalid          leave out games with errors (and say so on stderr)\n"
    "      --add-opening           add ECO, Opening and Variation tags from the opening\n"
    "                              table (xiangqi: ECCO); a game that has any of them\n"
    "                              keeps its own\n"
    "      --replace-opening       the same, replacing the game's own\n"
    "      --drop-twins            each game once: leave out the copies of an earlier\n"
    "                              game (same start and moves: duplicate-game and\n"
    "                              duplicate-moves of arbiter-check(1)); implies -j 1\n"
    "      --twins-to FILE         write those copies to FILE instead (implies\n"
    "                              --drop-twins)\n"
    "  -o, --output FILE           write to FILE instead of stdout\n"
    "  -j, --jobs N                convert with N threads (default: one per core); the\n"
    "                              output is the same whatever N\n"
    "  -q, --quiet                 no diagnostics on stderr\n"
    "      --from FORMAT           pgn, wxf, article, tex (a LaTeX book: its games,\n"
    "                              variations where the book has them), markdown or\n"
    "                              html (PGN in wrappers), xqf, dhtmlxq, cbr, cbl or\n"
    "                              cbf (default: detected per input)\n"
    "      --variant NAME          chess or xiangqi for every PGN game (default: by its tags)\n"
    "      --rules NAME            fide, vn, axf or cxa (as for check)\n"
    "      --move-limit N          xiangqi natural move limit (as for check)\n"
    "  -h, --help                  show this help\n"
    "\n"
    "A game with an error is still written: its moves up to the error, the rest as written\n"
    "in a comment. Exit status: 0 no game has errors, 1 some game has errors, 2 usage or\n"
    "I/O failure.\n");

enum { OPT_STRIP = 256, OPT_SKIP_INVALID, OPT_FROM, OPT_VARIANT, OPT_RULES, OPT_MOVE_LIMIT,
       OPT_TO, OPT_XQ_STYLE, OPT_XQF_VERSION, OPT_XQF_SEED, OPT_ADD_OPENING,
       OPT_REPLACE_OPENING, OPT_DROP_TWINS, OPT_TWINS_TO };

/* --to: the output format. */
typedef enum { CONVERT_TO_PGN, CONVERT_TO_WXF, CONVERT_TO_ARTICLE, CONVERT_TO_XQF,
               CONVERT_TO_DHTMLXQ, CONVERT_TO_CBR, CONVERT_TO_CBL, CONVERT_TO_CBF } convert_to;

/* The formats written one file per game (-o DIR). */
static bool file_per_game(convert_to to)
{
    return to == CONVERT_TO_XQF || to == CONVERT_TO_CBR || to == CONVERT_TO_CBF;
}

struct convert_ctx;
typedef struct convert_ctx {
    FILE *out;
    diag *diag;
    pgn_write_options wopts;
    bool skip_invalid;
    bool failed_games;
    unsigned long skipped;
    convert_to to;
    bool notation_given;         /* -n named a xiangqi notation */
    article_writer *art;         /* --to article: the article being rewritten */
    bool art_failed;
    FILE *err;                   /* where notes about games go (a part's stream with -j) */
    xqf_write_options xqf;       /* --to xqf */
    const char *xqf_dir;         /* -o DIR: one numbered file per game */
    unsigned long xqf_written;   /* games written as XQF */
    bool xqf_refused;            /* -o FILE or stdout: a second game was not written */
    bool add_opening;            /* --add-opening or --replace-opening */
    bool replace_opening;        /* --replace-opening */
    cbl_writer *cbl;             /* --to cbl: the library, written at the end */
    db_twins *twins;             /* --drop-twins, --twins-to: the run's twin keys */
    FILE *twins_out;             /* --twins-to FILE: where the copies go */
    bool drop_twins;
    const char *twin_file;       /* the input of the last game keyed, and its number */
    uint64_t twin_game;
    unsigned long twins_found;
    const struct convert_ctx *main;  /* in a part: the run's context */
} convert_ctx;

/* A game the XQF or DhtmlXQ writer could not write: said, and whether to go on (a game
 * the format cannot hold is skipped; a write error stops). The writers' err is
 * translated, so it is compared with the translated text. */
static bool convert_game_failed(convert_ctx *c, const rec_game *g, const char *err)
{
    cli_error(_("convert: %s: game %llu: %s"), g->file, (unsigned long long)g->index, err);
    c->failed_games = true;
    return strcmp(err, _("write error")) != 0;
}

/* Moves past an error that a squares-only format (XQF, DhtmlXQ) could not write. */
static void convert_note_dropped(convert_ctx *c, const rec_game *g, unsigned dropped)
{
    if (dropped)
        fprintf(c->err,
                ngettext("arbiter: %s: game %llu: %u move not written (not readable as squares "
                         "after an error)\n",
                         "arbiter: %s: game %llu: %u moves not written (not readable as squares "
                         "after an error)\n", dropped),
                g->file, (unsigned long long)g->index, dropped);
}

/* The file name ending of a format written one file per game. */
static const char *file_ext(convert_to to)
{
    return to == CONVERT_TO_CBR ? ".cbr" : to == CONVERT_TO_CBF ? ".cbf" : ".xqf";
}

/* Whether an -o name is one file (ends in .xqf, .cbr, .cbf) rather than a directory to
 * make. */
static bool xqf_file_name(const char *name, convert_to to)
{
    size_t n = strlen(name);
    return n > 4 && strcasecmp(name + n - 4, file_ext(to)) == 0;
}

/* --to xqf: one file per game, into -o DIR (numbered), else to c->out (one game). */
static bool convert_xqf(convert_ctx *c, rec_game *g)
{
    if (g->kind != REC_XIANGQI && c->to == CONVERT_TO_XQF) {
        c->failed_games = true;
        fprintf(c->err, _("arbiter: %s: game %llu not written: it is a chess game, and XQF "
                "records xiangqi only\n"), g->file, (unsigned long long)g->index);
        return true;
    }
    if (!c->xqf_dir && c->xqf_written > 0) {
        /* said once; the later games are refused the same way (exit status 1, as
         * arbiter-convert(1) says), the first file stays whole */
        if (!c->xqf_refused && c->to == CONVERT_TO_XQF)
            cli_error(_("convert: %s: game %llu not written: an XQF file holds one game; use "
                      "-o DIR for several"), g->file, (unsigned long long)g->index);
        else if (!c->xqf_refused)
            cli_error(_("convert: %s: game %llu not written: a %s file holds one game; use "
                      "-o DIR for several"), g->file, (unsigned long long)g->index,
                      c->to == CONVERT_TO_CBR ? "CBR" : "CBF");
        c->xqf_refused = true;
        c->failed_games = true;
        return true;
    }
    FILE *out = c->out;
    char path[4096];
    if (c->xqf_dir) {
        snprintf(path, sizeof path, "%s/%04lu%s", c->xqf_dir, c->xqf_written + 1, file_ext(c->to));
        if (!(out = fopen(path, "wb"))) {
            cli_error(_("convert: %s: %s"), path, strerror(errno));
            return false;
        }
    }
    xqf_write_options o = c->xqf;
    o.strip_comments = c->wopts.strip_comments;
    o.strip_variations = c->wopts.strip_variations;
    if (o.seed)
        o.seed += c->xqf_written; /* each file its own keys, reproducibly */
    else
        o.seed = 1070372 + c->xqf_written;
    char err[256];
    unsigned dropped = 0;
    cbr_write_options co = {c->wopts.strip_comments, c->wopts.strip_variations};
    bool ok = c->to == CONVERT_TO_CBR   ? cbr_write_game(out, g, &co, &dropped, err, sizeof err)
              : c->to == CONVERT_TO_CBF ? cbf_write_game(out, g, &co, &dropped, err, sizeof err)
                                        : xqf_write_game(out, g, &o, &dropped, err, sizeof err);
    if (c->xqf_dir && fclose(out) != 0 && ok) {
        ok = false;
        snprintf(err, sizeof err, _("write error"));
    }
    if (!ok)
        return convert_game_failed(c, g, err);
    if (c->to == CONVERT_TO_CBF && dropped)
        fprintf(c->err,
                ngettext("arbiter: %s: game %llu: %u move not written (CBF holds the main line "
                         "only)\n",
                         "arbiter: %s: game %llu: %u moves not written (CBF holds the main line "
                         "only)\n", dropped),
                g->file, (unsigned long long)g->index, dropped);
    else
        convert_note_dropped(c, g, dropped);
    c->xqf_written++;
    return true;
}

/* The notation a xiangqi game was read in (the referee's choice, which its "notation"
 * finding tells in words). False when it has none (no moves). */
static bool notation_read_in(const rec_game *g, xqn_notation *out)
{
    return g->notation && xqn_notation_from_name(g->notation, out);
}

static wxf_write_options wxf_options(const convert_ctx *c, const rec_game *g)
{
    wxf_write_options o = {
        .notation = c->wopts.xq_notation,
        .style = c->wopts.xq_style,
        .strip_comments = c->wopts.strip_comments,
        .strip_nags = c->wopts.strip_nags,
        .strip_variations = c->wopts.strip_variations,
    };
    if (c->to == CONVERT_TO_ARTICLE && !c->notation_given)
        (void)notation_read_in(g, &o.notation);
    return o;
}

/* --to article: each block of the article in its place. */
static bool convert_block(convert_ctx *c, rec_game *g, bool keep)
{
    char err[512];
    wxf_write_options o = wxf_options(c, g);
    if (!article_writer_game(c->art, g, &o, keep, err, sizeof err)) {
        cli_error(_("convert: %s"), err);
        c->art_failed = true;
        return false;
    }
    return true;
}

static bool convert_one(rec_game *g, const char *path, void *vctx)
{
    convert_ctx *c = vctx;
    if (c->diag)
        diag_game(c->diag, g, path);
    if (c->add_opening)
        db_openings_add_tags(g, c->replace_opening);
    if (c->to == CONVERT_TO_ARTICLE) {
        /* a block with errors under --skip-invalid stays as it was (leaving it out would
         * cut the article's text) */
        if (g->error_count)
            c->failed_games = true;
        if (g->error_count && c->skip_invalid)
            fprintf(c->err,
                    ngettext("arbiter: %s: game %llu kept as written: it has %u error\n",
                             "arbiter: %s: game %llu kept as written: it has %u errors\n",
                             g->error_count),
                    g->file, (unsigned long long)g->index, g->error_count);
        return convert_block(c, g, g->error_count && c->skip_invalid);
    }
    if (c->to == CONVERT_TO_WXF && g->kind != REC_XIANGQI) {
        c->failed_games = true;
        fprintf(c->err, _("arbiter: %s: game %llu not written: it is a chess game, and WXF "
                "records xiangqi only\n"), g->file, (unsigned long long)g->index);
        return true;
    }
    if (g->error_count) {
        c->failed_games = true;
        if (c->skip_invalid) {
            c->skipped++;
            fprintf(c->err,
                    ngettext("arbiter: %s: game %llu left out: it has %u error\n",
                             "arbiter: %s: game %llu left out: it has %u errors\n",
                             g->error_count),
                    g->file, (unsigned long long)g->index, g->error_count);
            return true;
        }
    }
    if (file_per_game(c->to))
        return convert_xqf(c, g);
    if (c->to == CONVERT_TO_CBL) {
        cbr_write_options co = {c->wopts.strip_comments, c->wopts.strip_variations};
        char err[256];
        unsigned dropped = 0;
        if (!cbl_writer_add(c->cbl, g, &co, &dropped, err, sizeof err))
            return convert_game_failed(c, g, err);
        convert_note_dropped(c, g, dropped);
        return true;
    }
    if (c->to == CONVERT_TO_DHTMLXQ) {
        if (g->kind != REC_XIANGQI) {
            c->failed_games = true;
            fprintf(c->err, _("arbiter: %s: game %llu not written: it is a chess game, and "
                    "DhtmlXQ records xiangqi only\n"), g->file, (unsigned long long)g->index);
            return true;
        }
        dhtmlxq_write_options o = {c->wopts.strip_comments, c->wopts.strip_variations};
        char err[256];
        unsigned dropped = 0;
        if (!dhtmlxq_write_game(c->out, g, &o, &dropped, err, sizeof err))
            return convert_game_failed(c, g, err);
        convert_note_dropped(c, g, dropped);
        return fputc('\n', c->out) != EOF;
    }
    if (c->to == CONVERT_TO_WXF) {
        wxf_write_options o = wxf_options(c, g);
        /* records are separated by a blank line, as PGN games are */
        if (!wxf_write_game(c->out, g, &o) || fputc('\n', c->out) == EOF) {
            cli_error(_("convert: write error: %s"), strerror(errno));
            return false;
        }
        return true;
    }
    if (!pgn_write_game(c->out, g, &c->wopts)) {
        cli_error(_("convert: write error: %s"), strerror(errno));
        return false;
    }
    return true;
}

static bool parse_strip(const char *list, pgn_write_options *w)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *item = strtok_r(buf, ",", &save); item;
         item = strtok_r(NULL, ",", &save)) {
        if (strcmp(item, "comments") == 0)
            w->strip_comments = true;
        else if (strcmp(item, "nags") == 0)
            w->strip_nags = true;
        else if (strcmp(item, "variations") == 0)
            w->strip_variations = true;
        else
            return false;
    }
    return true;
}

/* --xq-style LIST */
static bool parse_xq_style(const char *list, unsigned *style)
{
    static const struct { const char *name; unsigned flag; } names[] = {
        {"equals", XQN_STYLE_EQUALS},         {"lower-black", XQN_STYLE_LOWER_BLACK},
        {"fsf", XQN_STYLE_FSF},               {"traditional", XQN_STYLE_TRADITIONAL},
        {"full-width", XQN_STYLE_FULL_WIDTH}, {"marker-first", XQN_STYLE_MARKER_FIRST},
    };
    char buf[128];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *item = strtok_r(buf, ",", &save); item;
         item = strtok_r(NULL, ",", &save)) {
        size_t i = 0;
        while (i < sizeof names / sizeof names[0] && strcmp(item, names[i].name) != 0)
            i++;
        if (i == sizeof names / sizeof names[0])
            return false;
        *style |= names[i].flag;
    }
    return true;
}

/* --to article: each input is an article file, rewritten in turn (the text between
 * blocks is copied from the file, so stdin, other formats and transcoded or compressed
 * files are refused). */
static batch_result convert_articles(char **paths, int count, batch_options *gopts,
                                     convert_ctx *c)
{
    batch_result all = {0};
    if (count == 0) {
        cli_error(_("convert: --to article needs the article as a file (it copies the text "
                  "between blocks from it); not stdin"));
        all.io_failed = true;
        return all;
    }
    for (int i = 0; i < count && !all.stopped; i++) {
        char err[512];
        if (strcmp(paths[i], "-") == 0) {
            cli_error(_("convert: --to article needs the article as a file (it copies the text "
                      "between blocks from it); not stdin"));
            all.io_failed = true;
            continue;
        }
        input in;
        if (!reader_input_open(&in, paths[i], gopts->format, err, sizeof err)) {
            cli_error("%s", err);
            all.io_failed = true;
            continue;
        }
        input_format format = in.format;
        input_encoding encoding = in.encoding;
        input_close(&in);
        if (format != INPUT_ARTICLE) {
            cli_error(_("convert: %s: not an article (no [game] blocks); --to article rewrites "
                      "articles, --to wxf writes WXF records"), paths[i]);
            all.io_failed = true;
            continue;
        }
        if (encoding != INPUT_ENC_UTF8) {
            cli_error(_("convert: %s: --to article copies the article's text as it is, so it "
                      "must be UTF-8, not %s"), paths[i], input_encoding_name(encoding));
            all.io_failed = true;
            continue;
        }
        c->art = article_writer_open(c->out, paths[i], err, sizeof err);
        if (!c->art) {
            cli_error(_("convert: %s"), err);
            all.io_failed = true;
            continue;
        }
        c->art_failed = false;
        batch_options one = *gopts;
        one.format = INPUT_ARTICLE;
        batch_result res = batch_for_each_game(&paths[i], 1, &one, convert_one, c);
        bool closed = article_writer_close(c->art, err, sizeof err);
        c->art = NULL;
        if (!closed && !c->art_failed)
            cli_error(_("convert: %s"), err);
        all.files += res.files;
        all.io_failed = all.io_failed || res.io_failed || c->art_failed || !closed;
        all.stopped = all.stopped || (res.stopped && !c->art_failed);
    }
    return all;
}

/* -j: each thread converts a piece of the input with its own copy of the context,
 * writing to the piece's streams (batch.h). */
typedef struct convert_part {
    convert_ctx c;
} convert_part;

/* The sink's context: the settings (read by the workers, never written while they run)
 * and the totals (written by the writer thread only). */
typedef struct convert_run {
    const convert_ctx *c;
    bool failed_games;
    unsigned long skipped;
} convert_run;

static void *convert_begin(void *vctx, FILE *out, FILE *err)
{
    const convert_ctx *main_ctx = ((const convert_run *)vctx)->c;
    convert_part *p = malloc(sizeof *p);
    if (!p) {
        fputs(_("arbiter: out of memory\n"), stderr);
        abort();
    }
    p->c = *main_ctx;
    p->c.main = main_ctx;
    p->c.out = out;
    p->c.err = err;
    p->c.diag = main_ctx->diag ? diag_open(err, REC_WARNING) : NULL;
    p->c.failed_games = false;
    p->c.skipped = 0;
    return p;
}

/* A copy of an earlier game (duplicate-game, duplicate-moves: the same moves; a
 * truncated copy or a header twin is another record and stays). One thread, input
 * order (--drop-twins and --twins-to imply -j 1). */
static bool convert_is_twin(convert_ctx *c, const rec_game *g)
{
    db_keys k;
    db_keys_of_game(g, NULL, NULL, &k);
    if (!c->twin_file || strcmp(c->twin_file, g->file) != 0) {
        c->twin_file = g->file;
        c->twin_game = 0;
    }
    db_twin t;
    db_twin_kind kind = db_twins_settle(c->twins, &k, g->file, ++c->twin_game, false, &t);
    return kind == DB_TWIN_GAME || kind == DB_TWIN_MOVES;
}

static bool convert_game(rec_game *g, const char *path, void *vpart, batch_marks *marks)
{
    convert_part *p = vpart;
    long at = marks ? ftell(p->c.err) : 0;
    bool ok;
    convert_ctx *main_ctx = (convert_ctx *)p->c.main;
    if (main_ctx->twins && convert_is_twin(main_ctx, g)) {
        main_ctx->twins_found++;
        if (!main_ctx->twins_out)
            return true;
        FILE *out = p->c.out;
        p->c.out = main_ctx->twins_out;
        ok = convert_one(g, path, &p->c);
        p->c.out = out;
    } else {
        ok = convert_one(g, path, &p->c);
    }
    if (marks) {
        /* a note about this game: its number is moved on by the pieces before */
        char needle[600];
        /* TRANSLATORS: must be the exact start of the translations of "arbiter: %s:
         * game %llu ..." below, the game number right after it. */
        snprintf(needle, sizeof needle, _("arbiter: %s: game "), g->file);
        batch_mark_index(marks, p->c.err, at, needle);
    }
    return ok;
}

static bool convert_finish(void *vpart)
{
    convert_part *p = vpart;
    diag_close(p->c.diag);
    p->c.diag = NULL;
    return fflush(p->c.out) == 0;
}

static bool convert_merge(void *vctx, void *vpart, bool keep)
{
    convert_run *run = vctx;
    convert_part *p = vpart;
    if (keep) {
        run->failed_games = run->failed_games || p->c.failed_games;
        run->skipped += p->c.skipped;
    }
    diag_close(p->c.diag);
    free(p);
    return true;
}

int cli_convert(int argc, char **argv)
{
    static const struct option options[] = {
        {"notation", required_argument, NULL, 'n'},
        {"strip", required_argument, NULL, OPT_STRIP},
        {"skip-invalid", no_argument, NULL, OPT_SKIP_INVALID},
        {"drop-twins", no_argument, NULL, OPT_DROP_TWINS},
        {"twins-to", required_argument, NULL, OPT_TWINS_TO},
        {"output", required_argument, NULL, 'o'},
        {"quiet", no_argument, NULL, 'q'},
        {"from", required_argument, NULL, OPT_FROM},
        {"variant", required_argument, NULL, OPT_VARIANT},
        {"rules", required_argument, NULL, OPT_RULES},
        {"move-limit", required_argument, NULL, OPT_MOVE_LIMIT},
        {"help", no_argument, NULL, 'h'},
        {"jobs", required_argument, NULL, 'j'},
        {"to", required_argument, NULL, OPT_TO},
        {"xq-style", required_argument, NULL, OPT_XQ_STYLE},
        {"xqf-version", required_argument, NULL, OPT_XQF_VERSION},
        {"xqf-seed", required_argument, NULL, OPT_XQF_SEED},
        {"add-opening", no_argument, NULL, OPT_ADD_OPENING},
        {"replace-opening", no_argument, NULL, OPT_REPLACE_OPENING},
        {NULL, 0, NULL, 0},
    };
    convert_ctx c = {.wopts = {.notation = CHESS_NOTATION_SAN, .xq_notation = XQN_WXF}};
    const char *output = NULL;
    bool quiet = false;
    input_format format = INPUT_UNKNOWN;
    int variant = -1;
    referee_options ropts = REFEREE_OPTIONS_DEFAULT;
    int opt;

    opterr = 0;
    int jobs = 0;
    const char *twins_to = NULL;
    c.err = stderr;
    while ((opt = getopt_long(argc, argv, ":n:o:qj:h", options, NULL)) != -1) {
        switch (opt) {
        case 'n': {
            bool xiangqi;
            if (!pgn_write_notation_from_name(optarg, &c.wopts, &xiangqi)) {
                cli_error(_("convert: unknown notation '%s' (chess: san, lan, uci, san-ru, san-de, "
                          "san-fr, san-es, san-it, san-nl, san-vi, figurine; xiangqi: wxf, "
                          "vi, chinese, iccs, ucci, fsf-uci, winboard, fsf-san)"), optarg);
                return CLI_EXIT_USAGE;
            }
            if (xiangqi)
                c.notation_given = true;
            break;
        }
        case OPT_TO:
            if (strcmp(optarg, "pgn") == 0)
                c.to = CONVERT_TO_PGN;
            else if (strcmp(optarg, "wxf") == 0)
                c.to = CONVERT_TO_WXF;
            else if (strcmp(optarg, "article") == 0)
                c.to = CONVERT_TO_ARTICLE;
            else if (strcmp(optarg, "xqf") == 0)
                c.to = CONVERT_TO_XQF;
            else if (strcmp(optarg, "dhtmlxq") == 0)
                c.to = CONVERT_TO_DHTMLXQ;
            else if (strcmp(optarg, "cbr") == 0)
                c.to = CONVERT_TO_CBR;
            else if (strcmp(optarg, "cbl") == 0)
                c.to = CONVERT_TO_CBL;
            else if (strcmp(optarg, "cbf") == 0)
                c.to = CONVERT_TO_CBF;
            else {
                cli_error(_("convert: --to takes pgn, wxf, article, xqf, dhtmlxq, cbr, cbl or "
                            "cbf, not '%s'"), optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case OPT_XQF_VERSION:
            if (strcmp(optarg, "18") == 0 || strcasecmp(optarg, "0x12") == 0)
                c.xqf.version = 0x12;
            else if (strcmp(optarg, "10") == 0 || strcasecmp(optarg, "0x0a") == 0)
                c.xqf.version = 0x0A;
            else {
                cli_error(_("convert: --xqf-version takes 18 (0x12) or 10 (0x0A), not '%s'"), optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case OPT_XQF_SEED: {
            char *end;
            unsigned long long n = strtoull(optarg, &end, 10);
            if (end == optarg || *end || n == 0) {
                cli_error(_("convert: --xqf-seed takes a positive number, not '%s'"), optarg);
                return CLI_EXIT_USAGE;
            }
            c.xqf.seed = n;
            break;
        }
        case OPT_XQ_STYLE:
            if (!parse_xq_style(optarg, &c.wopts.xq_style)) {
                cli_error(_("convert: --xq-style takes equals, lower-black, marker-first, "
                          "full-width, fsf, traditional; not '%s'"), optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case OPT_STRIP:
            if (!parse_strip(optarg, &c.wopts)) {
                cli_error(_("convert: --strip takes comments, nags, variations; not '%s'"), optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case OPT_SKIP_INVALID: c.skip_invalid = true; break;
        case OPT_ADD_OPENING: c.add_opening = true; break;
        case OPT_REPLACE_OPENING: c.add_opening = c.replace_opening = true; break;
        case OPT_DROP_TWINS: c.drop_twins = true; break;
        case OPT_TWINS_TO: twins_to = optarg; c.drop_twins = true; break;
        case 'o': output = optarg; break;
        case 'j':
            if (!cli_parse_jobs(optarg, &jobs)) {
                cli_error(_("convert: -j takes a number of threads from 1 to 256, not '%s'"), optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case 'q': quiet = true; break;
        case OPT_RULES:
            if (!referee_rules_from_name(optarg, &ropts.rules)) {
                cli_error(_("convert: --rules takes fide, vn, axf or cxa, not '%s'"), optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case OPT_MOVE_LIMIT: {
            char *end;
            long n = strtol(optarg, &end, 10);
            if (end == optarg || *end || n < 1 || n > 10000) {
                cli_error(_("convert: --move-limit takes a number of moves from 1 to 10000, not '%s'"),
                          optarg);
                return CLI_EXIT_USAGE;
            }
            ropts.move_limit = (int)n;
            break;
        }
        case OPT_VARIANT: {
            int v;
            if (!cli_parse_variant(optarg, &v)) {
                cli_error(_("convert: --variant takes chess or xiangqi, not '%s'"), optarg);
                return CLI_EXIT_USAGE;
            }
            variant = v;
            break;
        }
        case OPT_FROM:
            if (!cli_parse_format(optarg, &format)) {
                cli_error(_("convert: --from takes pgn, wxf, article, tex, markdown, html, xqf, "
                          "dhtmlxq, cbr, cbl or cbf, not '%s'"), optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case 'h': fputs(_(convert_usage), stdout); return CLI_EXIT_OK;
        case ':':
            cli_error(_("convert: option '%s' needs a value"), argv[optind - 1]);
            return CLI_EXIT_USAGE;
        default:
            if (optopt) /* a short option: argv[optind - 1] may be a group like -qx */
                cli_error(_("convert: unknown option '-%c' (try 'arbiter convert --help')"), optopt);
            else
                cli_error(_("convert: unknown option '%s' (try 'arbiter convert --help')"), argv[optind - 1]);
            return CLI_EXIT_USAGE;
        }
    }

    c.out = stdout;
    if (output && strcmp(output, "-") == 0)
        output = NULL; /* -o - is standard output */
    struct stat st;
    if (file_per_game(c.to) && output && stat(output, &st) == 0 && S_ISDIR(st.st_mode)) {
        c.xqf_dir = output; /* numbered files in it */
        output = NULL;
    } else if (file_per_game(c.to) && output && errno == ENOENT && !xqf_file_name(output, c.to)) {
        /* -o DIR that does not exist yet: made, as one file per game needs it (a name
         * ending in .xqf is one file) */
        if (mkdir(output, 0777) != 0) {
            cli_error(_("convert: cannot make the directory %s: %s"), output, strerror(errno));
            return CLI_EXIT_USAGE;
        }
        c.xqf_dir = output;
        output = NULL;
    }
    if (file_per_game(c.to) || c.to == CONVERT_TO_CBL)
        jobs = 1; /* files are numbered (records stored) in input order, by one thread */
    if (c.to == CONVERT_TO_CBL) {
        /* the library is named after its file */
        char name[256] = "arbiter";
        if (output) {
            const char *base = strrchr(output, '/');
            snprintf(name, sizeof name, "%s", base ? base + 1 : output);
            char *dot = strrchr(name, '.');
            if (dot && dot != name)
                *dot = '\0';
        }
        if (!(c.cbl = cbl_writer_new(name))) {
            cli_error(_("convert: out of memory"));
            return CLI_EXIT_USAGE;
        }
    }
    if (c.drop_twins) {
        jobs = 1; /* each game is compared with the games before it, in input order */
        c.twins = db_twins_new(DB_TWINS_MIN_PLIES);
        if (twins_to && !(c.twins_out = fopen(twins_to, "w"))) {
            cli_error("%s: %s", twins_to, strerror(errno));
            db_twins_free(c.twins);
            return CLI_EXIT_USAGE;
        }
    }
    if (output && !cli_some_input_readable(argv + optind, argc - optind))
        return CLI_EXIT_USAGE; /* nothing to read: FILE keeps what it had */
    if (output && !(c.out = fopen(output, "w"))) {
        cli_error("%s: %s", output, strerror(errno));
        return CLI_EXIT_USAGE;
    }
    c.diag = quiet ? NULL : diag_open(stderr, REC_WARNING);
    batch_options gopts = {.format = format, .variant = variant, .referee = ropts,
                           .jobs = jobs, .progress = !quiet};
    static const batch_sink convert_sink = {convert_begin, convert_game, convert_finish,
                                            convert_merge, NULL};
    if (c.to == CONVERT_TO_ARTICLE && format != INPUT_UNKNOWN && format != INPUT_ARTICLE) {
        cli_error(_("convert: --to article reads articles; --from %s does not go with it"),
                  format == INPUT_PGN ? "pgn" : format == INPUT_TEX ? "tex" : "wxf");
        diag_close(c.diag);
        if (c.out != stdout)
            fclose(c.out);
        return CLI_EXIT_USAGE;
    }
    convert_run run = {.c = &c};
    batch_result res =
        c.to == CONVERT_TO_ARTICLE
            ? convert_articles(argv + optind, argc - optind, &gopts, &c)
            : batch_run(argv + optind, argc - optind, &gopts, &convert_sink, &run, c.out,
                        stderr);
    c.failed_games = c.failed_games || run.failed_games;
    c.skipped += run.skipped;
    diag_close(c.diag);
    bool twins_ok = true;
    if (c.twins) {
        if (!quiet)
            fprintf(stderr, ngettext("arbiter: %lu game was a copy of an earlier one%s\n",
                                     "arbiter: %lu games were copies of earlier ones%s\n",
                                     c.twins_found),
                    c.twins_found, c.twins_out ? _(": written to --twins-to") : _(": left out"));
        if (c.twins_out && fclose(c.twins_out) != 0) {
            cli_error("%s: %s", twins_to, strerror(errno));
            twins_ok = false;
        }
        db_twins_free(c.twins);
    }

    bool lib_ok = true;
    if (c.cbl) {
        char err[256];
        if (!res.stopped && !(lib_ok = cbl_writer_write(c.cbl, c.out, err, sizeof err)))
            cli_error(_("convert: %s"), err);
        cbl_writer_free(c.cbl);
    }
    bool write_ok = lib_ok && !res.stopped &&
                    (c.out != stdout ? fclose(c.out) == 0 : fflush(c.out) == 0);
    if (!write_ok) {
        cli_error(_("convert: could not write the output"));
        return CLI_EXIT_USAGE;
    }
    if (res.io_failed || !twins_ok)
        return CLI_EXIT_USAGE;
    return c.failed_games ? CLI_EXIT_FINDINGS : CLI_EXIT_OK;
}
