/* main.c: the arbiter command line; dispatches to one subcommand per file. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch/batch.h"
#include "cli/cli.h"
#include "i18n/i18n.h"

static const char usage_text[] = N_(
    "Usage: arbiter COMMAND [OPTIONS] [ARGS]\n"
    "Validate and convert chess and xiangqi game records.\n"
    "\n"
    "Commands:\n"
    "  check    replay every game (PGN, WXF, articles, LaTeX books, Markdown/HTML\n"
    "           pages) and report what is wrong\n"
    "           arbiter check [-q] [-j N] [--report yaml|jsonl|html] [-o FILE]\n"
    "                         [FILE...|-]\n"
    "  convert  rewrite games in export form: PGN (chess: SAN, LAN, UCI; xiangqi: every\n"
    "           notation), WXF, XQF, DhtmlXQ, or an article with each record normalised\n"
    "           arbiter convert [--to pgn|wxf|article|xqf|dhtmlxq|cbr|cbl|cbf]\n"
    "                           [--notation NAME] [FILE...|-]\n"
    "  fix      apply the safe repairs (certain move fixes, check markers, move numbers,\n"
    "           results) and write each record back in its own format\n"
    "           arbiter fix [-o FILE] [--dry-run] [--report FILE] FILE...\n"
    "  summary  merge the summaries of check reports (YAML or JSON Lines) into one\n"
    "           arbiter summary [--report yaml|jsonl] REPORT...\n"
    "  split    cut inputs into files of whole games, for a cluster's workers\n"
    "           arbiter split [--size 64M] -o DIR [FILE...|-]\n"
    "  perft    count the leaf nodes of the legal move tree (move generator check)\n"
    "           arbiter perft --variant chess|xiangqi [--fen FEN] --depth N [--divide]\n"
    "  diagram  draw a game's position (any ply, or each DIAG marker) as SVG or text\n"
    "           arbiter diagram [--game N] [--ply K | --markers] [--format svg|text] FILE\n"
    "  tour     the horse's tour of the empty board (seed 001), verified\n"
    "           arbiter tour [--board 9x10] [--from POINT | --all] [--closed]\n"
    "\n"
    "Options:\n"
    "  -h, --help     show this help (or 'arbiter COMMAND --help')\n"
    "  -V, --version  show the version\n"
    "  --lang LANG    messages in LANG: vi, ru or en (any command; default: the\n"
    "                 environment, LANGUAGE, LC_ALL, LC_MESSAGES, LANG)\n"
    "\n"
    "Exit status: 0 no errors, 1 some game has errors, 2 usage or I/O failure.\n"
    "See arbiter(1).\n");

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    batch_verror(fmt, ap);
    va_end(ap);
}

/* Whether path opens for reading as a file (not a directory); errno when not. */
static bool input_readable(const char *path)
{
    /* a pipe (a FIFO, a shell's <(...)) is not opened to try it: a reader that opens and
     * closes it may leave its writer dead before the games are read */
    struct stat pst;
    if (stat(path, &pst) == 0 && !S_ISREG(pst.st_mode) && !S_ISDIR(pst.st_mode))
        return access(path, R_OK) == 0;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return false;
    struct stat st;
    bool dir = fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
    close(fd);
    if (dir)
        errno = EISDIR;
    return !dir;
}

bool cli_some_input_readable(char **paths, int count)
{
    if (count == 0)
        return true; /* standard input */
    for (int i = 0; i < count; i++)
        if (strcmp(paths[i], "-") == 0 || input_readable(paths[i]))
            return true;
    for (int i = 0; i < count; i++) {
        input_readable(paths[i]);
        cli_error("%s: %s", paths[i], strerror(errno));
    }
    return false;
}

/* --lang LANG (or --lang=LANG) anywhere before "--", taken out of argv so that every
 * subcommand accepts it: the language must be chosen before any option parser can
 * print a message. Returns the language (NULL: none given) or "" when it is not one
 * arbiter speaks. */
static const char *take_lang(int *argc, char **argv)
{
    const char *lang = NULL;
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            while (i < *argc)
                argv[out++] = argv[i++];
            break;
        }
        if (strncmp(a, "--lang=", 7) == 0) {
            lang = a + 7;
        } else if (strcmp(a, "--lang") == 0) {
            lang = i + 1 < *argc ? argv[++i] : "";
        } else {
            argv[out++] = argv[i];
            continue;
        }
        if (!i18n_known(lang))
            return "";
    }
    argv[out] = NULL;
    *argc = out;
    return lang;
}

int main(int argc, char **argv)
{
    const char *lang = take_lang(&argc, argv);
    i18n_init(lang && *lang ? lang : NULL);
    if (lang && !*lang) {
        cli_error(_("--lang takes vi, ru or en"));
        return CLI_EXIT_USAGE;
    }
    if (argc < 2) {
        fputs(_(usage_text), stderr);
        return CLI_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
        fputs(_(usage_text), stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(cmd, "-V") == 0 || strcmp(cmd, "--version") == 0) {
        printf("%s %s\n", PACKAGE_NAME, PACKAGE_VERSION);
        return CLI_EXIT_OK;
    }
    if (strcmp(cmd, "perft") == 0)
        return cli_perft(argc - 1, argv + 1);
    if (strcmp(cmd, "check") == 0)
        return cli_check(argc - 1, argv + 1);
    if (strcmp(cmd, "convert") == 0)
        return cli_convert(argc - 1, argv + 1);
    if (strcmp(cmd, "fix") == 0)
        return cli_fix(argc - 1, argv + 1);
    if (strcmp(cmd, "summary") == 0)
        return cli_summary(argc - 1, argv + 1);
    if (strcmp(cmd, "split") == 0)
        return cli_split(argc - 1, argv + 1);
    if (strcmp(cmd, "diagram") == 0)
        return cli_diagram(argc - 1, argv + 1);
    if (strcmp(cmd, "tour") == 0)
        return cli_tour(argc - 1, argv + 1);

    cli_error(_("unknown command '%s' (try 'arbiter --help')"), cmd);
    return CLI_EXIT_USAGE;
}
