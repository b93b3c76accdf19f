/* cli_check.c: "arbiter check", findings as YAML on stdout, diagnostics on stderr. */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/cli_games.h"
#include "notation/xq_notation.h"
#include "report/diag.h"
#include "report/summary.h"
#include "report/yaml_report.h"

static const char check_usage[] =
    "Usage: arbiter check [OPTIONS] [FILE...|-]\n"
    "Replay every game and report what is wrong: a YAML document per game and a summary\n"
    "document on stdout, gcc-style diagnostics on stderr.\n"
    "\n"
    "  -o, --output FILE   write the YAML report to FILE instead of stdout\n"
    "  -q, --quiet         no diagnostics on stderr\n"
    "  -v, --verbose       diagnostics for info findings too\n"
    "      --strict        exit 1 for warnings too\n"
    "      --from FORMAT   pgn, wxf or article (default: detected per input)\n"
    "      --variant NAME  chess or xiangqi for every PGN game (default: by its tags)\n"
    "      --rules NAME    fide (chess), vn (xiangqi, default), axf or cxa\n"
    "      --move-limit N  xiangqi natural move limit, moves per side\n"
    "  -n, --notation NAME read xiangqi moves in this notation (wxf, vi, chinese, iccs,\n"
    "                      ucci, fsf-uci, winboard, fsf-san; default: found by trial replay)\n"
    "  -h, --help          show this help\n"
    "\n"
    "Exit status: 0 no game has errors, 1 some game has errors (--strict: or warnings),\n"
    "2 usage or I/O failure. See arbiter-check(1) for the finding codes.\n";

enum { OPT_STRICT = 256, OPT_FROM, OPT_VARIANT, OPT_RULES, OPT_MOVE_LIMIT };

typedef struct check_ctx {
    yaml_report *report;
    diag *diag;
    summary sum;
    bool strict;
    bool failed_games;
} check_ctx;

static bool check_one(rec_game *g, const char *path, void *vctx)
{
    check_ctx *c = vctx;
    summary_add_game(&c->sum, g);
    if (g->error_count || (c->strict && g->warning_count))
        c->failed_games = true;
    if (c->diag)
        diag_game(c->diag, g, path);
    if (!yaml_report_game(c->report, g)) {
        cli_error("writing the report: %s", yaml_report_error(c->report));
        return false;
    }
    return true;
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
        {"strict", no_argument, NULL, OPT_STRICT},
        {"from", required_argument, NULL, OPT_FROM},
        {"variant", required_argument, NULL, OPT_VARIANT},
        {"rules", required_argument, NULL, OPT_RULES},
        {"move-limit", required_argument, NULL, OPT_MOVE_LIMIT},
        {"notation", required_argument, NULL, 'n'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *output = NULL;
    bool quiet = false, verbose = false;
    check_ctx c = {0};
    cli_games_options gopts = {.format = INPUT_UNKNOWN, .variant = -1, .referee = REFEREE_OPTIONS_DEFAULT};
    int opt;

    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":o:qvn:h", options, NULL)) != -1) {
        switch (opt) {
        case 'o': output = optarg; break;
        case 'q': quiet = true; break;
        case 'v': verbose = true; break;
        case OPT_STRICT: c.strict = true; break;
        case OPT_RULES:
            if (!referee_rules_from_name(optarg, &gopts.referee.rules)) {
                cli_error("check: --rules takes fide, vn, axf or cxa, not '%s'", optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case OPT_MOVE_LIMIT: {
            char *end;
            long n = strtol(optarg, &end, 10);
            if (end == optarg || *end || n < 1 || n > 10000) {
                cli_error("check: --move-limit takes a number of moves from 1 to 10000, not '%s'",
                          optarg);
                return CLI_EXIT_USAGE;
            }
            gopts.referee.move_limit = (int)n;
            break;
        }
        case OPT_VARIANT: {
            int v;
            if (!cli_parse_variant(optarg, &v)) {
                cli_error("check: --variant takes chess or xiangqi, not '%s'", optarg);
                return CLI_EXIT_USAGE;
            }
            gopts.variant = v;
            break;
        }
        case OPT_FROM:
            if (!cli_parse_format(optarg, &gopts.format)) {
                cli_error("check: --from takes pgn, wxf or article, not '%s'", optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case 'n': {
            xqn_notation n;
            if (!xqn_notation_from_name(optarg, &n)) {
                cli_error("check: unknown xiangqi notation '%s' (wxf, vi, chinese, iccs, ucci, "
                          "fsf-uci, winboard, fsf-san)", optarg);
                return CLI_EXIT_USAGE;
            }
            gopts.referee.xq_notation = (int)n;
            break;
        }
        case 'h': fputs(check_usage, stdout); return CLI_EXIT_OK;
        case ':':
            cli_error("check: option '%s' needs a value", argv[optind - 1]);
            return CLI_EXIT_USAGE;
        default:
            cli_error("check: unknown option '%s' (try 'arbiter check --help')", argv[optind - 1]);
            return CLI_EXIT_USAGE;
        }
    }

    FILE *out = stdout;
    if (output && !(out = fopen(output, "w"))) {
        cli_error("%s: %s", output, strerror(errno));
        return CLI_EXIT_USAGE;
    }
    double start = seconds_now();
    summary_init(&c.sum);
    c.report = yaml_report_open(out);
    c.diag = quiet ? NULL : diag_open(stderr, verbose ? REC_INFO : REC_WARNING);
    gopts.verbose = verbose;
    cli_games_result res = cli_for_each_game(argv + optind, argc - optind, &gopts, check_one, &c);

    c.sum.files = res.files;
    c.sum.seconds = seconds_now() - start;
    bool write_ok = !res.stopped && yaml_report_summary(c.report, &c.sum);
    write_ok = yaml_report_close(c.report) && write_ok;
    diag_close(c.diag);
    if (out != stdout ? fclose(out) != 0 : fflush(out) != 0)
        write_ok = false;
    if (!write_ok) {
        cli_error("check: could not write the report");
        return CLI_EXIT_USAGE;
    }
    if (res.io_failed)
        return CLI_EXIT_USAGE;
    return c.failed_games ? CLI_EXIT_FINDINGS : CLI_EXIT_OK;
}
