/* comment_cmd.c: commands embedded in PGN comments. See comment_cmd.h. */
#include <config.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "record/comment_cmd.h"

/* "1:05:23.4", "5:02", "12.5" -> seconds; false if not a clock value. */
static bool parse_clock(const char *s, double *seconds)
{
    double total = 0;
    int fields = 0;
    while (*s) {
        char *end;
        double v = strtod(s, &end);
        if (end == s || v < 0 || ++fields > 3)
            return false;
        total = total * 60 + v;
        if (*end == ':')
            s = end + 1;
        else if (*end == '\0')
            s = end;
        else
            return false;
    }
    *seconds = total;
    return fields > 0;
}

/* "0.25", "-1.3", "#3", "#-2", each optionally followed by ",depth". */
static bool parse_eval(const char *s, rec_command *c)
{
    char *end;
    c->depth = -1;
    if (*s == '#') {
        long n = strtol(s + 1, &end, 10);
        if (end == s + 1)
            return false;
        c->mate = true;
        c->mate_in = (int)n;
    } else {
        c->pawns = strtod(s, &end);
        if (end == s)
            return false;
    }
    if (*end == ',') {
        long d = strtol(end + 1, &end, 10);
        c->depth = (int)d;
    }
    return *end == '\0';
}

static int square_at(const char *s)
{
    if (s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8')
        return -1;
    return (s[1] - '1') * 8 + (s[0] - 'a');
}

/* "Ra1,Gb2" (squares) or "Ge2e4,Rd7d5" (arrows). */
static bool parse_marks(const char *s, rec_command *c, bool arrows)
{
    size_t want = arrows ? 5 : 3;
    while (*s) {
        size_t len = strcspn(s, ",");
        char color = (char)toupper((unsigned char)s[0]);
        if (len != want || !strchr("RGYB", color) || c->mark_count == REC_CMD_MAX_MARKS)
            return false;
        rec_cmd_mark *m = &c->marks[c->mark_count];
        m->color = color;
        m->from = square_at(s + 1);
        m->to = arrows ? square_at(s + 3) : -1;
        if (m->from < 0 || (arrows && m->to < 0))
            return false;
        c->mark_count++;
        s += len;
        if (*s == ',')
            s++;
    }
    return c->mark_count > 0;
}

static void interpret(rec_command *c)
{
    static const struct { const char *name; rec_cmd_kind kind; } known[] = {
        {"clk", REC_CMD_CLK}, {"emt", REC_CMD_EMT}, {"eval", REC_CMD_EVAL},
        {"csl", REC_CMD_CSL}, {"cal", REC_CMD_CAL},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(c->name, known[i].name) == 0)
            c->kind = known[i].kind;
    switch (c->kind) {
    case REC_CMD_CLK:
    case REC_CMD_EMT: c->valid = parse_clock(c->args, &c->seconds); break;
    case REC_CMD_EVAL: c->valid = parse_eval(c->args, c); break;
    case REC_CMD_CSL: c->valid = parse_marks(c->args, c, false); break;
    case REC_CMD_CAL: c->valid = parse_marks(c->args, c, true); break;
    case REC_CMD_OTHER: c->valid = true; break;
    }
}

static bool is_blank(char ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r'; }

/* Copy [from, to) into the arena with white space trimmed at both ends. */
static char *trimmed(arena *a, const char *from, const char *to)
{
    while (from < to && is_blank(*from))
        from++;
    while (to > from && is_blank(to[-1]))
        to--;
    return arena_strndup(a, from, (size_t)(to - from));
}

rec_command *rec_comment_commands(arena *a, const char *text, const char **prose)
{
    return rec_comment_commands_named(a, text, NULL, prose);
}

rec_command *rec_comment_commands_named(arena *a, const char *text, const char *only,
                                        const char **prose)
{
    rec_command *first = NULL, **tail = &first;
    size_t len = strlen(text);
    char *rest = prose ? arena_alloc(a, len + 1) : NULL;
    size_t rest_len = 0;
    const char *p = text;
    while (*p) {
        const char *open = strstr(p, "[%");
        const char *close = open ? strchr(open, ']') : NULL;
        if (!close) {
            /* no (complete) command left: the rest is prose */
            if (rest) {
                memcpy(rest + rest_len, p, strlen(p));
                rest_len += strlen(p);
            }
            break;
        }
        if (rest) {
            memcpy(rest + rest_len, p, (size_t)(open - p));
            rest_len += (size_t)(open - p);
            rest[rest_len++] = ' ';
        }
        const char *name = open + 2, *name_end = name;
        while (name_end < close && !is_blank(*name_end))
            name_end++;
        p = close + 1;
        if (only && (strncmp(name, only, (size_t)(name_end - name)) != 0 ||
                     only[name_end - name] != '\0'))
            continue; /* another command: taken out of the prose, not read */
        rec_command *c = arena_alloc(a, sizeof *c);
        c->name = arena_strndup(a, name, (size_t)(name_end - name));
        c->args = trimmed(a, name_end, close);
        interpret(c);
        *tail = c;
        tail = &c->next;
    }
    if (prose) {
        rest[rest_len] = '\0';
        *prose = trimmed(a, rest, rest + rest_len);
    }
    return first;
}
