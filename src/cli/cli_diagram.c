/* cli_diagram.c: "arbiter diagram", a game's position as SVG or text: at any ply of the
 * main line, or at each DIAG marker of an article (also used by "check --diagrams"). */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "batch/batch.h"
#include "cli/cli_options.h"
#include "diagram/board.h"
#include "diagram/svg.h"
#include "diagram/text_board.h"
#include "i18n/i18n.h"
#include "notation/xq_notation.h"

static const char diagram_usage[] = N_(
    "Usage: arbiter diagram [OPTIONS] FILE|-\n"
    "Draw a game's position as SVG (or text): after any ply of the main line, or at each\n"
    "DIAG{ #n COLOR } marker of a WXF record or article.\n"
    "\n"
    "  -g, --game N          the N-th game of the input (default 1)\n"
    "  -p, --ply K           after K plies of the main line (0: the start position;\n"
    "                        default: after the last move that replays)\n"
    "  -m, --markers         one diagram per DIAG marker (of --game N, or of every game)\n"
    "  -d, --diagrams DIR    with --markers: write them to DIR/diagram-001.svg, ...\n"
    "                        (.txt for text) and list the files written\n"
    "  -f, --format FORMAT   svg (default) or text (Unicode board for terminals)\n"
    "  -o, --output FILE     write to FILE instead of stdout\n"
    "      --letters         FEN letters instead of Chinese characters or chess glyphs\n"
    "      --flip            Black at the bottom\n"
    "      --from FORMAT     pgn, wxf, article, tex, markdown, html, xqf, dhtmlxq,\n"
    "                        cbr, cbl, cbf (default: detected)\n"
    "      --variant NAME    chess or xiangqi for every PGN game (default: by its tags)\n"
    "  -n, --notation NAME   read xiangqi moves in this notation (default: found)\n"
    "  -h, --help            show this help\n"
    "\n"
    "Drawn: the last move, [%csl] squares and [%cal] arrows of the comment after it.\n"
    "Exit status: 0 drawn, 2 usage or I/O failure, no such game or ply.\n");

enum { OPT_LETTERS = 256, OPT_FLIP, OPT_FROM, OPT_VARIANT };

typedef struct diagram_ctx {
    unsigned long game;        /* wanted game, 0: every game (markers) */
    int ply;                   /* -1: the last */
    bool markers;
    bool text;
    dg_svg_options svg;
    FILE *out;
    cli_marker_output mo;
    bool found, failed;
} diagram_ctx;

static bool write_board(FILE *out, const dg_board *b, bool text, const dg_svg_options *svg)
{
    return text ? dg_write_text(out, b, svg->letters, svg->flip) : dg_write_svg(out, b, svg);
}

/* One marker: into the next numbered file of mo->dir, or (no dir) onto mo->out. */
static bool marker_fn(const rec_game *g, const rec_comment *marker, const dg_board *board,
                      void *vctx)
{
    cli_marker_output *mo = vctx;
    (void)g;
    dg_board b = *board;
    dg_caption_append(&b, " (DIAG ");
    dg_caption_append(&b, marker->text);
    dg_caption_append(&b, ")");
    mo->count++;
    if (!mo->dir) {
        if (mo->count > 1)
            fputc('\n', mo->out);
        if (!write_board(mo->out, &b, mo->text, &mo->svg))
            mo->failed = true;
        return !mo->failed;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/diagram-%03u.%s", mo->dir, mo->count, mo->text ? "txt" : "svg");
    FILE *f = fopen(path, "w");
    if (!f) {
        cli_error("%s: %s", path, strerror(errno));
        mo->failed = true;
        return false;
    }
    bool ok = write_board(f, &b, mo->text, &mo->svg);
    if (fclose(f) != 0 || !ok) {
        cli_error(_("%s: write error"), path);
        mo->failed = true;
        return false;
    }
    if (mo->list)
        fprintf(mo->list, "%s: %s\n", path, b.caption);
    return true;
}

bool cli_diagram_markers(const rec_game *g, cli_marker_output *mo)
{
    if (mo->dir && !mo->dir_ready) {
        if (mkdir(mo->dir, 0777) != 0 && errno != EEXIST) {
            cli_error("%s: %s", mo->dir, strerror(errno));
            mo->failed = true;
            return false;
        }
        mo->dir_ready = true;
    }
    return dg_for_each_marker(g, marker_fn, mo) >= 0 && !mo->failed;
}

static bool diagram_one(rec_game *g, const char *path, void *vctx)
{
    diagram_ctx *c = vctx;
    (void)path;
    if (c->game && g->index != c->game)
        return true;
    c->found = true;
    if (c->markers) {
        if (!cli_diagram_markers(g, &c->mo))
            c->failed = true;
        return !c->failed && !c->game;
    }
    dg_board b;
    char err[200];
    if (!dg_board_at_ply(g, c->ply, &b, err, sizeof err)) {
        cli_error(_("diagram: %s"), err);
        c->failed = true;
        return false;
    }
    if (!write_board(c->out, &b, c->text, &c->svg))
        c->failed = true;
    return false; /* one game drawn: done */
}

static bool parse_count(const char *text, long max, long *out)
{
    char *end;
    errno = 0;
    long n = strtol(text, &end, 10);
    if (end == text || *end || errno || n < 0 || n > max)
        return false;
    *out = n;
    return true;
}

int cli_diagram(int argc, char **argv)
{
    static const struct option options[] = {
        {"game", required_argument, NULL, 'g'},
        {"ply", required_argument, NULL, 'p'},
        {"markers", no_argument, NULL, 'm'},
        {"diagrams", required_argument, NULL, 'd'},
        {"format", required_argument, NULL, 'f'},
        {"output", required_argument, NULL, 'o'},
        {"letters", no_argument, NULL, OPT_LETTERS},
        {"flip", no_argument, NULL, OPT_FLIP},
        {"from", required_argument, NULL, OPT_FROM},
        {"variant", required_argument, NULL, OPT_VARIANT},
        {"notation", required_argument, NULL, 'n'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    diagram_ctx c = {.game = 0, .ply = -1};
    batch_options gopts = {.format = INPUT_UNKNOWN, .variant = -1, .referee = REFEREE_OPTIONS_DEFAULT};
    const char *output = NULL, *dir = NULL;
    bool game_given = false, ply_given = false;
    int opt;
    long n;

    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":g:p:md:f:o:n:h", options, NULL)) != -1) {
        switch (opt) {
        case 'g':
            if (!parse_count(optarg, 1000000000L, &n) || n < 1) {
                cli_error(_("diagram: --game takes a game number from 1, not '%s'"), optarg);
                return CLI_EXIT_USAGE;
            }
            c.game = (unsigned long)n;
            game_given = true;
            break;
        case 'p':
            if (!parse_count(optarg, 100000L, &n)) {
                cli_error(_("diagram: --ply takes a number of plies from 0, not '%s'"), optarg);
                return CLI_EXIT_USAGE;
            }
            c.ply = (int)n;
            ply_given = true;
            break;
        case 'm': c.markers = true; break;
        case 'd': dir = optarg; c.markers = true; break;
        case 'f':
            if (strcmp(optarg, "svg") == 0)
                c.text = false;
            else if (strcmp(optarg, "text") == 0)
                c.text = true;
            else {
                cli_error(_("diagram: --format takes svg or text, not '%s'"), optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case 'o': output = optarg; break;
        case OPT_LETTERS: c.svg.letters = true; break;
        case OPT_FLIP: c.svg.flip = true; break;
        case OPT_FROM:
            if (!cli_parse_format(optarg, &gopts.format)) {
                cli_error(_("diagram: --from takes pgn, wxf, article, tex, markdown, html, xqf, "
                          "dhtmlxq, cbr, cbl or cbf, not '%s'"), optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case OPT_VARIANT: {
            int v;
            if (!cli_parse_variant(optarg, &v)) {
                cli_error(_("diagram: --variant takes chess or xiangqi, not '%s'"), optarg);
                return CLI_EXIT_USAGE;
            }
            gopts.variant = v;
            break;
        }
        case 'n': {
            xqn_notation xn;
            if (!xqn_notation_from_name(optarg, &xn)) {
                cli_error(_("diagram: unknown xiangqi notation '%s'"), optarg);
                return CLI_EXIT_USAGE;
            }
            gopts.referee.xq_notation = (int)xn;
            break;
        }
        case 'h': fputs(_(diagram_usage), stdout); return CLI_EXIT_OK;
        case ':':
            cli_error(_("diagram: option '%s' needs a value"), argv[optind - 1]);
            return CLI_EXIT_USAGE;
        default:
            cli_error(_("diagram: unknown option '%s' (try 'arbiter diagram --help')"), argv[optind - 1]);
            return CLI_EXIT_USAGE;
        }
    }
    if (argc - optind != 1) {
        cli_error(_("diagram: give one input file (or - for stdin)"));
        return CLI_EXIT_USAGE;
    }
    if (c.markers && ply_given) {
        cli_error(_("diagram: --ply and --markers exclude each other"));
        return CLI_EXIT_USAGE;
    }
    if (c.markers && !dir && !c.text) {
        cli_error(_("diagram: several SVG diagrams need a directory: --diagrams DIR (or --format text)"));
        return CLI_EXIT_USAGE;
    }
    if (dir && output) {
        cli_error(_("diagram: --diagrams DIR writes files; -o does not apply"));
        return CLI_EXIT_USAGE;
    }
    if (!c.markers && !game_given)
        c.game = 1;

    c.out = stdout;
    if (output && !(c.out = fopen(output, "w"))) {
        cli_error("%s: %s", output, strerror(errno));
        return CLI_EXIT_USAGE;
    }
    c.mo = (cli_marker_output){.dir = dir, .text = c.text, .svg = c.svg, .out = c.out,
                               .list = stdout};
    batch_result res = batch_for_each_game(argv + optind, 1, &gopts, diagram_one, &c);
    bool write_ok = c.out != stdout ? fclose(c.out) == 0 : fflush(c.out) == 0;
    if (res.io_failed || c.failed)
        return CLI_EXIT_USAGE;
    if (!write_ok) {
        cli_error(_("diagram: write error"));
        return CLI_EXIT_USAGE;
    }
    if (!c.found) {
        cli_error(_("diagram: %s has no game %lu"), argv[optind], c.game ? c.game : 1);
        return CLI_EXIT_USAGE;
    }
    if (c.markers && c.mo.count == 0)
        fprintf(stderr, _("arbiter: diagram: no DIAG marker in %s\n"), argv[optind]);
    return CLI_EXIT_OK;
}
