/* cli_tour.c: "arbiter tour", the horse's tour of seed 001 ("Du hí văn chương: Tam giác
 * trận"): a horse visiting every point of the empty board once, from one point or from
 * every point, each tour verified independently of the search that found it. */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "diagram/svg.h"
#include "i18n/i18n.h"
#include "tour/tour.h"

static const char tour_usage[] = N_(
    "Usage: arbiter tour [--board FxR] [--from POINT | --all] [--closed] [--format grid|svg]\n"
    "Find a horse's tour: a horse visiting every point of the empty board exactly once\n"
    "(Warnsdorff's rule, fewest onward moves first, with backtracking).\n"
    "\n"
    "  -b, --board FxR       files x ranks, 1 to 26 each (default 9x10, the xiangqi board)\n"
    "  -s, --from POINT      start point: a0..i9 on 9x10 (UCCI), a1.. on other boards\n"
    "                        (default: the top left corner, a9 on 9x10)\n"
    "  -a, --all             a tour from every point, each verified, and a summary\n"
    "  -c, --closed          the last point must be a horse move from the start\n"
    "  -f, --format FORMAT   grid (default: the points numbered in visiting order) or svg\n"
    "  -o, --output FILE     write to FILE instead of stdout\n"
    "      --budget N        search nodes per start point (default 2000000); a start point\n"
    "                        whose search runs out is reported as given up\n"
    "      --stats           time and nodes per second on stderr\n"
    "  -h, --help            show this help\n"
    "\n"
    "Exit status: 0 every tour found and verified, 1 some start point has no tour (or the\n"
    "budget ran out), 2 usage or I/O failure.\n");

enum { OPT_BUDGET = 256, OPT_STATS };

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool parse_board(const char *text, int *files, int *ranks)
{
    char *end;
    long f = strtol(text, &end, 10);
    if (end == text || (*end != 'x' && *end != 'X'))
        return false;
    const char *r_text = end + 1;
    long r = strtol(r_text, &end, 10);
    if (end == r_text || *end || f < 1 || r < 1 || f > TOUR_MAX_SIDE || r > TOUR_MAX_SIDE)
        return false;
    *files = (int)f;
    *ranks = (int)r;
    return true;
}

/* The points numbered 1..N in visiting order, top rank first, as in the article. */
static void write_grid(FILE *out, int files, int ranks, const int *path)
{
    static int order[TOUR_MAX_POINTS];
    int points = files * ranks, width = points >= 100 ? 4 : 3;
    for (int k = 0; k < points; k++)
        order[path[k]] = k + 1;
    for (int r = ranks - 1; r >= 0; r--) {
        for (int f = 0; f < files; f++)
            fprintf(out, "%*d", width, order[r * files + f]);
        fputc('\n', out);
    }
}

int cli_tour(int argc, char **argv)
{
    static const struct option options[] = {
        {"board", required_argument, NULL, 'b'},
        {"from", required_argument, NULL, 's'},
        {"all", no_argument, NULL, 'a'},
        {"closed", no_argument, NULL, 'c'},
        {"format", required_argument, NULL, 'f'},
        {"output", required_argument, NULL, 'o'},
        {"budget", required_argument, NULL, OPT_BUDGET},
        {"stats", no_argument, NULL, OPT_STATS},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int files = 9, ranks = 10, opt;
    const char *from = NULL, *output = NULL;
    bool all = false, closed = false, svg = false, stats = false;
    uint64_t budget = TOUR_DEFAULT_BUDGET;

    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":b:s:acf:o:h", options, NULL)) != -1) {
        switch (opt) {
        case 'b':
            if (!parse_board(optarg, &files, &ranks)) {
                cli_error(_("tour: --board takes FILESxRANKS, 1 to %d each (e.g. 9x10), not '%s'"),
                          TOUR_MAX_SIDE, optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case 's': from = optarg; break;
        case 'a': all = true; break;
        case 'c': closed = true; break;
        case 'f':
            if (strcmp(optarg, "svg") == 0)
                svg = true;
            else if (strcmp(optarg, "grid") == 0)
                svg = false;
            else {
                cli_error(_("tour: --format takes grid or svg, not '%s'"), optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case 'o': output = optarg; break;
        case OPT_BUDGET: {
            char *end;
            errno = 0;
            unsigned long long n = strtoull(optarg, &end, 10);
            if (end == optarg || *end || errno || n < 1 || optarg[0] == '-') {
                cli_error(_("tour: --budget takes a number of nodes from 1, not '%s'"), optarg);
                return CLI_EXIT_USAGE;
            }
            budget = n;
            break;
        }
        case OPT_STATS: stats = true; break;
        case 'h': fputs(_(tour_usage), stdout); return CLI_EXIT_OK;
        case ':':
            cli_error(_("tour: option '%s' needs a value"), argv[optind - 1]);
            return CLI_EXIT_USAGE;
        default:
            cli_error(_("tour: unknown option '%s' (try 'arbiter tour --help')"), argv[optind - 1]);
            return CLI_EXIT_USAGE;
        }
    }
    if (optind < argc) {
        cli_error(_("tour: unexpected argument '%s'"), argv[optind]);
        return CLI_EXIT_USAGE;
    }
    if (all && from) {
        cli_error(_("tour: --from and --all exclude each other"));
        return CLI_EXIT_USAGE;
    }
    if (all && svg) {
        cli_error(_("tour: --format svg draws one tour; use --from POINT"));
        return CLI_EXIT_USAGE;
    }
    int start = (ranks - 1) * files; /* the top left corner */
    if (from && (start = tour_point_parse(files, ranks, from)) < 0) {
        char last[4];
        tour_point_name(files, ranks, files * ranks - 1, last);
        cli_error(_("tour: '%s' is not a point of the %dx%d board (a%d..%s)"), from, files, ranks,
                  files == 9 && ranks == 10 ? 0 : 1, last);
        return CLI_EXIT_USAGE;
    }
    FILE *out = stdout;
    if (output && !(out = fopen(output, "w"))) {
        cli_error("%s: %s", output, strerror(errno));
        return CLI_EXIT_USAGE;
    }

    static tour_result res;
    int points = files * ranks, first = all ? 0 : start, last = all ? points - 1 : start;
    int found = 0, none = 0, gave_up = 0, bad = 0;
    uint64_t nodes = 0;
    double t0 = now_seconds();
    const char *kind = closed ? "closed tour" : "tour";
    /* --all goes through the points top rank first, left to right, as they are read */
    for (int i = first; i <= last; i++) {
        int sq = all ? (ranks - 1 - i / files) * files + i % files : i;
        tour_request req = {files, ranks, sq, closed, budget};
        char name[4], err[120];
        tour_point_name(files, ranks, sq, name);
        tour_solve(&req, &res);
        nodes += res.nodes;
        if (res.status == TOUR_FOUND && !tour_verify(files, ranks, res.path, closed, err, sizeof err)) {
            bad++;
            fprintf(out, "%s from %s (%dx%d): FAILED verification: %s\n", kind, name, files, ranks, err);
            continue;
        }
        if (res.status == TOUR_NONE) {
            none++;
            fprintf(out, "%s from %s (%dx%d): none (search exhausted after %llu nodes)\n", kind,
                    name, files, ranks, (unsigned long long)res.nodes);
        } else if (res.status == TOUR_GAVE_UP) {
            gave_up++;
            fprintf(out, "%s from %s (%dx%d): gave up (node budget of %llu spent)\n", kind, name,
                    files, ranks, (unsigned long long)budget);
        } else if (svg) {
            found++;
            char caption[120];
            snprintf(caption, sizeof caption, "horse's %s from %s on the %dx%d board (%llu nodes)",
                     kind, name, files, ranks, (unsigned long long)res.nodes);
            dg_write_tour_svg(out, files, ranks, res.path, caption);
        } else {
            found++;
            fprintf(out, "%s from %s (%dx%d): verified, %llu nodes\n", kind, name, files, ranks,
                    (unsigned long long)res.nodes);
            write_grid(out, files, ranks, res.path);
        }
        if (all && i < last)
            fputc('\n', out);
    }
    double seconds = now_seconds() - t0;
    if (all)
        fprintf(out, "\n%d of %d start points: %s found and verified; %d without a %s; %d given "
                     "up (budget %llu nodes each); %d failed verification; %llu nodes in all\n",
                found, points, kind, none, kind, gave_up, (unsigned long long)budget, bad,
                (unsigned long long)nodes);
    if (stats)
        fprintf(stderr, ngettext("arbiter: tour: %d start point, %llu nodes, %.3f s\n",
                                 "arbiter: tour: %d start points, %llu nodes, %.3f s\n",
                                 (unsigned long)(last - first + 1)),
                last - first + 1, (unsigned long long)nodes, seconds);
    if (out != stdout ? fclose(out) != 0 : fflush(out) != 0) {
        cli_error(_("tour: write error"));
        return CLI_EXIT_USAGE;
    }
    return (none || gave_up || bad) ? CLI_EXIT_FINDINGS : CLI_EXIT_OK;
}
