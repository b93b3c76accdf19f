/* cli_convert.c: "arbiter convert", normalised records on stdout or -o FILE. */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_games.h"
#include "report/diag.h"
#include "notation/xq_notation.h"
#include "writer/pgn_writer.h"

static const char convert_usage[] =
    "Usage: arbiter convert [OPTIONS] [FILE...|-]\n"
    "Rewrite every game (PGN, WXF or an article's blocks) in PGN export format: Seven Tag\n"
    "Roster first, canonical moves,\n"
    "NAGs for annotations, lines under 80 characters. Converting the output again gives\n"
    "the same bytes.\n"
    "\n"
    "  -n, --notation NAME         move notation: for chess san (default), lan, uci;\n"
    "                              for xiangqi wxf (default), vi, chinese, iccs, ucci,\n"
    "                              fsf-uci, winboard, fsf-san (xiangqi PGN, xqbase style)\n"
    "      --strip LIST            leave out comments, nags and/or variations\n"
    "                              (comma-separated)\n"
    "      --skip-invalid          leave out games with errors (and say so on stderr)\n"
    "  -o, --output FILE           write to FILE instead of stdout\n"
    "  -q, --quiet                 no diagnostics on stderr\n"
    "      --from FORMAT           pgn, wxf or article (default: detected per input)\n"
    "      --variant NAME          chess or xiangqi for every PGN game (default: by its tags)\n"
    "      --rules NAME            fide, vn, axf or cxa (as for check)\n"
    "      --move-limit N          xiangqi natural move limit (as for check)\n"
    "  -h, --help                  show this help\n"
    "\n"
    "A game with an error is still written: its moves up to the error, the rest as written\n"
    "in a comment. Exit status: 0 no game has errors, 1 some game has errors, 2 usage or\n"
    "I/O failure.\n";

enum { OPT_STRIP = 256, OPT_SKIP_INVALID, OPT_FROM, OPT_VARIANT, OPT_RULES, OPT_MOVE_LIMIT };

typedef struct convert_ctx {
    FILE *out;
    diag *diag;
    pgn_write_options wopts;
    bool skip_invalid;
    bool failed_games;
    unsigned long skipped;
} convert_ctx;

static bool convert_one(rec_game *g, const char *path, void *vctx)
{
    convert_ctx *c = vctx;
    if (c->diag)
        diag_game(c->diag, g, path);
    if (g->error_count) {
        c->failed_games = true;
        if (c->skip_invalid) {
            c->skipped++;
            fprintf(stderr, "arbiter: %s: game %llu left out: it has %u error%s\n", g->file,
                    (unsigned long long)g->index, g->error_count, g->error_count == 1 ? "" : "s");
            return true;
        }
    }
    if (!pgn_write_game(c->out, g, &c->wopts)) {
        cli_error("convert: write error: %s", strerror(errno));
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

int cli_convert(int argc, char **argv)
{
    static const struct option options[] = {
        {"notation", required_argument, NULL, 'n'},
        {"strip", required_argument, NULL, OPT_STRIP},
        {"skip-invalid", no_argument, NULL, OPT_SKIP_INVALID},
        {"output", required_argument, NULL, 'o'},
        {"quiet", no_argument, NULL, 'q'},
        {"from", required_argument, NULL, OPT_FROM},
        {"variant", required_argument, NULL, OPT_VARIANT},
        {"rules", required_argument, NULL, OPT_RULES},
        {"move-limit", required_argument, NULL, OPT_MOVE_LIMIT},
        {"help", no_argument, NULL, 'h'},
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
    while ((opt = getopt_long(argc, argv, ":n:o:qh", options, NULL)) != -1) {
        switch (opt) {
        case 'n':
            if (strcmp(optarg, "san") == 0)
                c.wopts.notation = CHESS_NOTATION_SAN;
            else if (strcmp(optarg, "lan") == 0)
                c.wopts.notation = CHESS_NOTATION_LAN;
            else if (strcmp(optarg, "uci") == 0)
                c.wopts.notation = CHESS_NOTATION_UCI;
            else if (!xqn_notation_from_name(optarg, &c.wopts.xq_notation)) {
                cli_error("convert: unknown notation '%s' (chess: san, lan, uci; xiangqi: wxf, "
                          "vi, chinese, iccs, ucci, fsf-uci, winboard, fsf-san)", optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case OPT_STRIP:
            if (!parse_strip(optarg, &c.wopts)) {
                cli_error("convert: --strip takes comments, nags, variations; not '%s'", optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case OPT_SKIP_INVALID: c.skip_invalid = true; break;
        case 'o': output = optarg; break;
        case 'q': quiet = true; break;
        case OPT_RULES:
            if (!referee_rules_from_name(optarg, &ropts.rules)) {
                cli_error("convert: --rules takes fide, vn, axf or cxa, not '%s'", optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case OPT_MOVE_LIMIT: {
            char *end;
            long n = strtol(optarg, &end, 10);
            if (end == optarg || *end || n < 1 || n > 10000) {
                cli_error("convert: --move-limit takes a number of moves from 1 to 10000, not '%s'",
                          optarg);
                return CLI_EXIT_USAGE;
            }
            ropts.move_limit = (int)n;
            break;
        }
        case OPT_VARIANT: {
            int v;
            if (!cli_parse_variant(optarg, &v)) {
                cli_error("convert: --variant takes chess or xiangqi, not '%s'", optarg);
                return CLI_EXIT_USAGE;
            }
            variant = v;
            break;
        }
        case OPT_FROM:
            if (!cli_parse_format(optarg, &format)) {
                cli_error("convert: --from takes pgn, wxf or article, not '%s'", optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case 'h': fputs(convert_usage, stdout); return CLI_EXIT_OK;
        case ':':
            cli_error("convert: option '%s' needs a value", argv[optind - 1]);
            return CLI_EXIT_USAGE;
        default:
            cli_error("convert: unknown option '%s' (try 'arbiter convert --help')", argv[optind - 1]);
            return CLI_EXIT_USAGE;
        }
    }

    c.out = stdout;
    if (output && !(c.out = fopen(output, "w"))) {
        cli_error("%s: %s", output, strerror(errno));
        return CLI_EXIT_USAGE;
    }
    c.diag = quiet ? NULL : diag_open(stderr, REC_WARNING);
    cli_games_options gopts = {.format = format, .variant = variant, .referee = ropts};
    cli_games_result res = cli_for_each_game(argv + optind, argc - optind, &gopts, convert_one, &c);
    diag_close(c.diag);
    bool write_ok = !res.stopped && (c.out != stdout ? fclose(c.out) == 0 : fflush(c.out) == 0);
    if (!write_ok) {
        cli_error("convert: could not write the output");
        return CLI_EXIT_USAGE;
    }
    if (res.io_failed)
        return CLI_EXIT_USAGE;
    return c.failed_games ? CLI_EXIT_FINDINGS : CLI_EXIT_OK;
}
