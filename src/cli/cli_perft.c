/* cli_perft.c: "arbiter perft", leaf counts of the legal move tree.
 *
 * Perft is how a move generator is proved: the counts are published for standard
 * positions and any engine can recompute them on others. --divide prints the count
 * below each root move, in the same form as Stockfish's "go perft", so a
 * disagreement can be chased down one move at a time. */
#include <config.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "core/variant.h"
#include "i18n/i18n.h"

static const char perft_usage[] = N_(
    "Usage: arbiter perft [--variant chess|xiangqi] [--fen FEN] --depth N [--divide] [--stats]\n"
    "Count the positions reached after N plies of legal moves.\n"
    "\n"
    "  -v, --variant NAME  chess (default) or xiangqi\n"
    "  -f, --fen FEN       start from FEN instead of the initial position\n"
    "  -d, --depth N       plies to search, 1 to 20 (required)\n"
    "      --divide        print the count below each legal move first\n"
    "                      (UCI moves for chess, UCCI for xiangqi)\n"
    "      --stats         print time and nodes per second on stderr\n"
    "  -h, --help          show this help\n"
    "\n"
    "Prints 'nodes N'. Exit status 2 for a bad option or FEN.\n");

enum { OPT_DIVIDE = 256, OPT_STATS };

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Parse a depth in 1..20; returns -1 when text is not one. */
static int parse_depth(const char *text)
{
    char *end;
    long depth = strtol(text, &end, 10);
    if (end == text || *end != '\0' || depth < 1 || depth > 20)
        return -1;
    return (int)depth;
}

static uint64_t perft_divide(const variant *v, void *pos, int depth)
{
    uint16_t moves[VARIANT_MAX_MOVES];
    int count = v->gen_legal(pos, moves);
    uint64_t total = 0;
    for (int i = 0; i < count; i++) {
        char text[8];
        variant_undo undo;
        v->move_text(pos, moves[i], text);
        v->make(pos, moves[i], &undo);
        uint64_t nodes = depth > 1 ? v->perft(pos, depth - 1) : 1;
        v->unmake(pos, moves[i], &undo);
        printf("%s: %llu\n", text, (unsigned long long)nodes);
        total += nodes;
    }
    putchar('\n');
    return total;
}

int cli_perft(int argc, char **argv)
{
    static const struct option options[] = {
        {"variant", required_argument, NULL, 'v'},
        {"fen", required_argument, NULL, 'f'},
        {"depth", required_argument, NULL, 'd'},
        {"divide", no_argument, NULL, OPT_DIVIDE},
        {"stats", no_argument, NULL, OPT_STATS},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const variant *v = &variant_chess;
    const char *fen = NULL;
    int depth = 0, divide = 0, stats = 0, opt;

    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":v:f:d:h", options, NULL)) != -1) {
        switch (opt) {
        case 'v':
            v = variant_by_name(optarg);
            if (!v) {
                cli_error(_("perft: unknown variant '%s' (chess or xiangqi)"), optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case 'f': fen = optarg; break;
        case 'd':
            depth = parse_depth(optarg);
            if (depth < 0) {
                cli_error(_("perft: --depth takes a whole number from 1 to 20, not '%s'"), optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case OPT_DIVIDE: divide = 1; break;
        case OPT_STATS: stats = 1; break;
        case 'h': fputs(_(perft_usage), stdout); return CLI_EXIT_OK;
        case ':':
            cli_error(_("perft: option '%s' needs a value"), argv[optind - 1]);
            return CLI_EXIT_USAGE;
        default:
            cli_error(_("perft: unknown option '%s' (try 'arbiter perft --help')"), argv[optind - 1]);
            return CLI_EXIT_USAGE;
        }
    }
    if (optind < argc) {
        cli_error(_("perft: unexpected argument '%s'"), argv[optind]);
        return CLI_EXIT_USAGE;
    }
    if (depth == 0) {
        cli_error(_("perft: --depth N is required"));
        return CLI_EXIT_USAGE;
    }

    variant_pos pos;
    char err[256];
    if (!v->from_fen(&pos, fen ? fen : v->start_fen, err, sizeof err)) {
        cli_error(_("perft: bad %s FEN: %s"), v->name, err);
        return CLI_EXIT_USAGE;
    }

    double start = now_seconds();
    uint64_t nodes = divide ? perft_divide(v, &pos, depth) : v->perft(&pos, depth);
    double elapsed = now_seconds() - start;

    printf("nodes %llu\n", (unsigned long long)nodes);
    if (stats)
        fprintf(stderr, _("perft %s depth %d: %llu nodes in %.3f s, %.0f nodes/s\n"), v->name,
                depth, (unsigned long long)nodes, elapsed,
                elapsed > 0 ? (double)nodes / elapsed : 0.0);
    return CLI_EXIT_OK;
}
