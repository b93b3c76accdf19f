/* reader_sniff.c: byte tests the formats' sniffers share. See reader_sniff.h. */
#include <config.h>

#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "reader/reader_sniff.h"

bool sniff_has_ci(const char *s, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++)
        if (strncasecmp(s + i, needle, k) == 0)
            return true;
    return false;
}

bool sniff_has(const char *s, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++)
        if (s[i] == needle[0] && memcmp(s + i, needle, k) == 0)
            return true;
    return false;
}

bool sniff_pgn_tag_at(const char *s, size_t n)
{
    size_t i = 1;
    if (n < 4 || s[0] != '[')
        return false;
    while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '_'))
        i++;
    if (i == 1)
        return false;
    size_t name_end = i;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    return i > name_end && i < n && s[i] == '"';
}

size_t sniff_text_start(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && isspace((unsigned char)s[i]))
        i++;
    return i;
}
