/* cli_options.c: option values the batch commands share. See cli_options.h. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "cli/cli_options.h"
#include "reader/reader.h"
#include "record/record.h"

bool cli_parse_jobs(const char *text, int *out)
{
    char *end;
    long n = strtol(text, &end, 10);
    if (end == text || *end || n < 1 || n > 256)
        return false;
    *out = (int)n;
    return true;
}

bool cli_parse_format(const char *name, input_format *out)
{
    const reader_format *r = reader_by_name(name);
    if (!r)
        return false;
    *out = r->format;
    return true;
}

bool cli_parse_variant(const char *name, int *out)
{
    if (strcmp(name, "chess") == 0)
        *out = REC_CHESS;
    else if (strcmp(name, "xiangqi") == 0)
        *out = REC_XIANGQI;
    else
        return false;
    return true;
}
