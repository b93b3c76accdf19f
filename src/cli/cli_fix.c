/* cli_fix.c: arbiter fix: its options; the repairs are batch_fix_file's
 * (batch/batch_fix.h, writer/byte_repair.h). */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch/batch.h"
#include "batch/batch_fix.h"
#include "cli/cli.h"
#include "cli/cli_options.h"
#include "database/db_names.h"
#include "i18n/i18n.h"

enum { OPT_DRY_RUN = 256, OPT_REPORT, OPT_FROM, OPT_VARIANT, OPT_RULES, OPT_NAMES, OPT_SPELLING };

/* fix --names: the canonical spelling of a name whose group is unambiguous (the group's
 * majority, or the spelling file's); names: the run's, counted and grouped before the
 * first file (read-only) */
static const char *canonical_name(void *names, const char *tag, const char *value)
{
    int field = db_name_field_of(tag);
    return field < 0 ? NULL : db_names_canonical(names, (db_name_field)field, value);
}

static const char usage[] = N_(
    "Usage: arbiter fix [OPTIONS] FILE...\n"
    "Apply the safe repairs to game records and write them back in their own format:\n"
    "a move error where exactly one candidate makes the rest of its line replay, wrong\n"
    "or missing check and mate markers, wrong move numbers, a Result tag that\n"
    "contradicts the terminator or the board (chess and xiangqi), header values that\n"
    "are certain (a date as 2021-05-12, PlyCount, a FEN without SetUp, castling rights\n"
    "the position cannot have). GBK and Big5 files are written back in their own\n"
    "encoding; compressed files are refused. Every repair is listed on stderr.\n"
    "\n"
    "  -o, --output FILE  write the repaired record there ('-': stdout) instead of\n"
    "                     replacing the input (one input only)\n"
    "      --dry-run      list the repairs, change nothing\n"
    "      --report FILE  also list the repairs as YAML in FILE\n"
    "      --names        also write each player, event and site name in its group's\n"
    "                     majority spelling, where the group is unambiguous\n"
    "      --spelling FILE  canonical names from a scid spelling file (implies --names)\n"
    "      --from pgn|wxf|article|tex|markdown|html, --variant chess|xiangqi,\n"
    "      --rules fide|vn|axf|cxa\n"
    "  -q, --quiet        do not list the repairs\n"
    "  -h, --help         show this help\n"
    "\n"
    "Exit status: 0 done (or nothing to do), 2 usage or I/O failure or a file refused.\n"
    "See arbiter-fix(1).\n");

int cli_fix(int argc, char **argv)
{
    static const struct option options[] = {
        {"output", required_argument, NULL, 'o'},
        {"dry-run", no_argument, NULL, OPT_DRY_RUN},
        {"report", required_argument, NULL, OPT_REPORT},
        {"from", required_argument, NULL, OPT_FROM},
        {"variant", required_argument, NULL, OPT_VARIANT},
        {"rules", required_argument, NULL, OPT_RULES},
        {"names", no_argument, NULL, OPT_NAMES},
        {"spelling", required_argument, NULL, OPT_SPELLING},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *output = NULL, *report_path = NULL;
    bool dry_run = false, quiet = false, names = false;
    const char *spelling = NULL;
    db_names *fix_names = NULL;
    batch_options gopts = {.format = INPUT_UNKNOWN, .variant = -1,
                           .referee = REFEREE_OPTIONS_DEFAULT, .jobs = 1};
    int opt;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":o:qh", options, NULL)) != -1) {
        switch (opt) {
        case 'o': output = optarg; break;
        case 'q': quiet = true; break;
        case OPT_DRY_RUN: dry_run = true; break;
        case OPT_NAMES: names = true; break;
        case OPT_SPELLING: spelling = optarg; names = true; break;
        case OPT_REPORT: report_path = optarg; break;
        case OPT_FROM:
            if (!cli_parse_format(optarg, &gopts.format)) {
                cli_error(_("fix: --from takes pgn, wxf, article, tex, markdown or html, not '%s'"),
                          optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case OPT_VARIANT:
            if (!cli_parse_variant(optarg, &gopts.variant)) {
                cli_error(_("fix: --variant takes chess or xiangqi, not '%s'"), optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case OPT_RULES:
            if (!referee_rules_from_name(optarg, &gopts.referee.rules)) {
                cli_error(_("fix: --rules takes fide, vn, axf or cxa, not '%s'"), optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case 'h': fputs(_(usage), stdout); return CLI_EXIT_OK;
        case ':':
            cli_error(_("fix: option '%s' needs an argument"), argv[optind - 1]);
            return CLI_EXIT_USAGE;
        default:
            cli_error(_("fix: unknown option '%s' (try 'arbiter fix --help')"), argv[optind - 1]);
            return CLI_EXIT_USAGE;
        }
    }
    int count = argc - optind;
    if (count < 1) {
        cli_error(_("fix: no input files (fix rewrites files; it does not read stdin)"));
        return CLI_EXIT_USAGE;
    }
    if (output && count != 1) {
        cli_error(_("fix: -o takes one input file"));
        return CLI_EXIT_USAGE;
    }
    if (names) {
        fix_names = db_names_new();
        char err[512];
        if (spelling && !db_names_load_spelling(fix_names, spelling, err, sizeof err)) {
            cli_error(_("check: cannot read the spelling file %s"), err);
            db_names_free(fix_names);
            fix_names = NULL;
            return CLI_EXIT_USAGE;
        }
        for (int i = optind; i < argc; i++)
            db_names_scan(fix_names, argv[i]);
        db_names_group(fix_names);
    }
    for (int i = optind; i < argc; i++)
        if (strcmp(argv[i], "-") == 0) {
            cli_error(_("fix: fix rewrites files; it does not read stdin"));
            return CLI_EXIT_USAGE;
        }
    FILE *report = NULL;
    if (report_path) {
        report = strcmp(report_path, "-") == 0 ? stdout : fopen(report_path, "w");
        if (!report) {
            cli_error(_("fix: cannot write '%s': %s"), report_path, strerror(errno));
            return CLI_EXIT_USAGE;
        }
        fputs("repairs:\n", report);
    }
    FILE *list = quiet ? fopen("/dev/null", "w") : stderr;
    if (!list)
        list = stderr;
    int status = CLI_EXIT_OK;
    unsigned long total = 0;
    for (int i = optind; i < argc; i++) {
        const char *path = argv[i];
        unsigned long repairs = 0;
        size_t len;
        char *text = batch_fix_file(path, &gopts, fix_names ? canonical_name : NULL, fix_names,
                                    &len, &repairs, list, report);
        if (!text) {
            status = CLI_EXIT_USAGE;
            continue;
        }
        total += repairs;
        if (!dry_run && !batch_fix_write(path, output, text, len, repairs))
            status = CLI_EXIT_USAGE;
        free(text);
    }
    if (report) {
        if (total == 0)
            fputs("  []\n", report);
        if (report != stdout)
            fclose(report);
    }
    if (quiet && list != stderr)
        fclose(list);
    db_names_free(fix_names);
    return status;
}
