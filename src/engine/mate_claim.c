/* mate_claim.c: finding "mate in N" claims in comment text (see mate_claim.h). */
#include "engine/mate_claim.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "record/comment_cmd.h"
#include "record/record.h"

/* Number words the claims use, per language, as written after the phrase. */
static const char *const number_words[][9] = {
    {"", "one", "two", "three", "four", "five", "six", "seven", "eight"},
    {"", "один", "два", "три", "четыре", "пять", "шесть", "семь", "восемь"},
    {"", "một", "hai", "ba", "bốn", "năm", "sáu", "bảy", "tám"},
    {"", "一", "二", "三", "四", "五", "六", "七", "八"},
};

/* A number at s (digits or a word), its value in *n and its length; 0 if none. */
static size_t read_number(const char *s, int *n)
{
    if (isdigit((unsigned char)s[0])) {
        char *end;
        long v = strtol(s, &end, 10);
        if (v < 1 || v > 99)
            return 0;
        *n = (int)v;
        return (size_t)(end - s);
    }
    for (size_t l = 0; l < sizeof number_words / sizeof number_words[0]; l++)
        for (int v = 1; v <= 8; v++) {
            size_t len = strlen(number_words[l][v]);
            if (strncasecmp(s, number_words[l][v], len) == 0 &&
                !isalpha((unsigned char)s[len])) {
                *n = v;
                return len;
            }
        }
    return 0;
}

/* Phrases after which the number comes; matched case-insensitively for ASCII and for
 * the capitalised forms listed. */
static const char *const lead_phrases[] = {
    "mate in ", "mates in ", "mate-in-", "checkmate in ", "mating in ",
    "мат в ", "Мат в ", "мат за ", "Мат за ",
    "chiếu hết sau ", "Chiếu hết sau ", "chiếu hết trong ", "Chiếu hết trong ",
    "chiếu bí sau ", "Chiếu bí sau ",
};

/* Words that make a claim conditional or negated: no claim is read then. */
static const char *const hedges[] = {
    "threat", "would", "if ", "no mate", "not mate", "avoid", "prevent", "stop",
    "угрож", "если", "нет мата", "не мат",
    "dọa", "nếu", "không",
    "威胁", "如果",
};

static bool hedged(const char *text)
{
    for (size_t i = 0; i < sizeof hedges / sizeof hedges[0]; i++) {
        const char *h = hedges[i];
        size_t len = strlen(h);
        for (const char *p = text; *p; p++)
            if (strncasecmp(p, h, len) == 0)
                return true;
    }
    return false;
}

static bool prose_claim(const char *text, mate_claim *out)
{
    /* every lead phrase starts with m, c (either case) or the first byte of м/М, and
     * 步 with 0xE6: other bytes, most of a long comment, are passed at once */
    for (const char *p = text; (p = strpbrk(p, "mMcC\xD0\xE6")); p++) {
        unsigned char b = (unsigned char)*p;
        int first = tolower(b), second = tolower((unsigned char)p[1]);
        for (size_t i = 0; i < sizeof lead_phrases / sizeof lead_phrases[0]; i++) {
            /* the first two bytes first (what strncasecmp would compare first): most
             * "c" and "m" of a long comment start no phrase */
            const unsigned char *lead = (const unsigned char *)lead_phrases[i];
            if (first != tolower(lead[0]) || second != tolower(lead[1]))
                continue;
            size_t len = strlen(lead_phrases[i]);
            if (strncasecmp(p, lead_phrases[i], len) != 0)
                continue;
            if (p > text && isalpha((unsigned char)p[-1]))
                continue;   /* "checkmate in" is listed itself; "stalemate in" is not a claim */
            int n;
            if (read_number(p + len, &n)) {
                out->moves = n;
                return true;
            }
        }
        /* Chinese: "3步杀", "三步杀" (also 殺) */
        if (b == 0xE6 &&
            (strncmp(p, "步杀", strlen("步杀")) == 0 || strncmp(p, "步殺", strlen("步殺")) == 0)) {
            if (p > text && isdigit((unsigned char)p[-1])) {
                const char *q = p - 1;
                while (q > text && isdigit((unsigned char)q[-1]))
                    q--;
                out->moves = atoi(q);
                return out->moves >= 1;
            }
            for (int v = 1; v <= 8; v++) {
                size_t len = strlen(number_words[3][v]);
                if ((size_t)(p - text) >= len && strncmp(p - len, number_words[3][v], len) == 0) {
                    out->moves = v;
                    return true;
                }
            }
        }
    }
    return false;
}

bool mate_claim_possible(const char *text)
{
    return rec_text_may_claim_mate(text);
}

bool mate_claim_find(arena *a, const char *text, mate_claim *out)
{
    out->moves = 0;
    out->side = -1;
    out->command = false;
    if (!text || !*text || !mate_claim_possible(text))
        return false;
    const char *prose = text;
    if (strstr(text, "[%")) {
        for (rec_command *c = rec_comment_commands_named(a, text, "mate", &prose); c; c = c->next) {
            /* [%eval #N] is an engine's score, not the author's claim: engines print
             * the mate they found at their depth, often not the shortest, and a
             * database of engine games would pay a search for every one. */
            if (c->kind == REC_CMD_OTHER && strcmp(c->name, "mate") == 0 && c->args) {
                const char *s = c->args;
                if (*s == '#')
                    s++;
                long v = strtol(s, NULL, 10);
                if (v != 0 && labs(v) <= 99) {
                    out->moves = (int)labs(v);
                    out->side = v > 0 ? 0 : 1;
                    out->command = true;
                    return true;
                }
            }
        }
        if (!prose)
            prose = "";
    }
    /* a claim is rare, a hedge word common: the whole text is searched for hedges
     * only when it claims */
    if (!prose_claim(prose, out))
        return false;
    if (hedged(prose)) {
        out->moves = 0;
        return false;
    }
    return true;
}
