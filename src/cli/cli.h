/* cli.h: the subcommands of the arbiter program, one file each under src/cli/.
 *
 * Each subcommand takes the argument vector that follows its name (argv[0] is the
 * subcommand name) and returns the process exit status. */
#ifndef ARBITER_CLI_H
#define ARBITER_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "diagram/svg.h"
#include "record/record.h"

/* Exit statuses, the contract documented in arbiter(1). */
enum cli_exit {
    CLI_EXIT_OK = 0,       /* no errors */
    CLI_EXIT_FINDINGS = 1, /* some game has errors (with --strict: warnings too) */
    CLI_EXIT_USAGE = 2     /* usage or I/O failure, bad FEN */
};

int cli_perft(int argc, char **argv);
int cli_check(int argc, char **argv);
int cli_convert(int argc, char **argv);
int cli_fix(int argc, char **argv);
int cli_summary(int argc, char **argv);
int cli_split(int argc, char **argv);
int cli_diagram(int argc, char **argv);
int cli_tour(int argc, char **argv);

/* Diagrams at the DIAG markers of games (arbiter diagram --markers, check --diagrams):
 * one numbered file per marker in dir (diagram-001.svg, ... counting on across games),
 * or, without dir, one after another on out. */
typedef struct cli_marker_output {
    const char *dir;         /* NULL: write to out */
    bool text;               /* text boards instead of SVG */
    dg_svg_options svg;
    FILE *out;
    FILE *list;              /* where to list the files written, or NULL */
    unsigned count;          /* markers drawn so far */
    bool dir_ready, failed;
} cli_marker_output;

/* Draw every marker of g's main line; false (said on stderr) on an I/O failure. */
bool cli_diagram_markers(const rec_game *g, cli_marker_output *mo);

/* Whether some input (paths; none or "-" is stdin) can be opened for reading; when
 * none can, each is said on stderr. Asked before -o FILE is created, so that a run
 * with nothing to read leaves an existing FILE as it was instead of writing an empty
 * report over it (with one good input the run goes on and reports it, exit 2). */
bool cli_some_input_readable(char **paths, int count);

/* Print "arbiter: " and a formatted message on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
