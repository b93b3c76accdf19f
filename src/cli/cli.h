/* cli.h: the subcommands of the arbiter program, one file each under src/cli/.
 *
 * Each subcommand takes the argument vector that follows its name (argv[0] is the
 * subcommand name) and returns the process exit status. */
#ifndef ARBITER_CLI_H
#define ARBITER_CLI_H

/* Exit statuses, the contract documented in arbiter(1). */
enum cli_exit {
    CLI_EXIT_OK = 0,       /* no errors */
    CLI_EXIT_FINDINGS = 1, /* some game has errors (with --strict: warnings too) */
    CLI_EXIT_USAGE = 2     /* usage or I/O failure, bad FEN */
};

int cli_perft(int argc, char **argv);
int cli_check(int argc, char **argv);
int cli_convert(int argc, char **argv);

/* Print "arbiter: " and a formatted message on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
