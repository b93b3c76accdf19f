/* reader_sniff.c: byte tests the formats' sniffers share. See reader_sniff.h. */
#include <config.h>

#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "reader/reader_sniff.h"

bool sniff_has_ci(const char *s, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    if (k == 0)
        return true;
    /* the first byte in either case before a call: a call at every byte of a file cost a
     * third of a WXF article's check (ASCII folding, as strncasecmp's in the C LC_CTYPE
     * the program keeps) */
    unsigned char lo = (unsigned char)needle[0], up = lo;
    if (lo >= 'A' && lo <= 'Z')
        lo = (unsigned char)(lo + ('a' - 'A'));
    else if (lo >= 'a' && lo <= 'z')
        up = (unsigned char)(lo - ('a' - 'A'));
    for (size_t i = 0; i + k <= n; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c == lo || c == up) && strncasecmp(s + i + 1, needle + 1, k - 1) == 0)
            return true;
    }
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
