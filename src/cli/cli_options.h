/* cli_options.h: option values the batch commands share (check, convert, fix,
 * diagram). */
#ifndef ARBITER_CLI_OPTIONS_H
#define ARBITER_CLI_OPTIONS_H

#include <stdbool.h>

#include "io/article.h"

/* -j N: a number of jobs from 1 to 256; false for anything else. */
bool cli_parse_jobs(const char *text, int *out);

/* --variant NAME: chess or xiangqi; false for anything else. */
bool cli_parse_variant(const char *name, int *out);

/* --from NAME: a format of the reader registry by one of its names; false for
 * anything else. */
bool cli_parse_format(const char *name, input_format *out);

#endif
