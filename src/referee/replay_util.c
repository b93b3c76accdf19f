/* replay_util.c: pieces shared by the chess and xiangqi replays. */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "i18n/i18n.h"
#include "record/comment_cmd.h"
#include "referee/referee.h"
#include "referee/replay_util.h"

rec_finding *replay_move_finding(rec_game *g, const rec_node *n, int ply, const char *fen,
                                 const char *code, rec_severity sev, const char *msg)
{
    rec_finding *f = rec_game_add_finding(g, code, sev, n->where, "%s", msg);
    f->ply = ply;
    f->move_text = n->text;
    f->fen = fen ? arena_strdup(g->arena, fen) : NULL;
    return f;
}

rec_finding *replay_stop_line(rec_game *g, rec_node *bad, int ply, const char *fen,
                              const char *code, const char *msg)
{
    bad->status = REC_MOVE_BAD;
    int rest = 0;
    for (const rec_node *n = bad->next; n; n = n->next)
        rest++;
    char full[400];
    if (rest == 0)
        snprintf(full, sizeof full, "%s", msg);
    else if (rest == 1)
        snprintf(full, sizeof full, _("%s; the move after it is kept as text, not replayed"), msg);
    else
        snprintf(full, sizeof full, _("%s; the %d moves after it are kept as text, not replayed"),
                 msg, rest);
    return replay_move_finding(g, bad, ply, fen, code, REC_ERROR, full);
}

bool replay_move_number_ok(const rec_node *n, int fullmove, bool second_to_move)
{
    return n->number == 0 ||
           ((int)n->number == fullmove && !(n->number_dots3 && !second_to_move));
}

void replay_check_move_number(rec_game *g, const rec_node *n, int ply, const char *fen,
                              int fullmove, bool second_to_move, const char *first_name,
                              const char *second_name)
{
    if (replay_move_number_ok(n, fullmove, second_to_move))
        return;
    char msg[160];
    if ((int)n->number != fullmove) {
        snprintf(msg, sizeof msg, _("move number %u should be %d"), n->number, fullmove);
        replay_move_finding(g, n, ply, fen, "move-number", REC_WARNING, msg);
    } else if (n->number_dots3 && !second_to_move) {
        snprintf(msg, sizeof msg, _("'%u...' announces a %s move, but %s is to move"), n->number,
                 second_name, first_name);
        replay_move_finding(g, n, ply, fen, "move-number", REC_WARNING, msg);
    }
}

const char *referee_normal_result(const char *text)
{
    static const char *const results[] = {"1-0", "0-1", "1/2-1/2", "*"};
    if (!text)
        return NULL;
    /* a result written as PGN 8.2.6 writes it (nearly every one) is its own normal form:
     * no compact copy */
    switch (text[0]) {
    case '1':
        if (text[1] == '-' && text[2] == '0' && text[3] == '\0')
            return results[0];
        if (strcmp(text, results[2]) == 0)
            return results[2];
        break;
    case '0':
        if (text[1] == '-' && text[2] == '1' && text[3] == '\0')
            return results[1];
        break;
    case '*':
        if (text[1] == '\0')
            return results[3];
        break;
    }
    char compact[16];
    size_t len = 0;
    for (const char *s = text; *s && len < sizeof compact - 4; s++) {
        if (*s == ' ' || *s == '\t')
            continue;
        if ((unsigned char)s[0] == 0xC2 && (unsigned char)s[1] == 0xBD) { /* ½ */
            memcpy(compact + len, "1/2", 3);
            len += 3;
            s++;
            continue;
        }
        compact[len++] = *s;
    }
    compact[len] = '\0';
    for (size_t i = 0; i < sizeof results / sizeof results[0]; i++)
        if (strcmp(compact, results[i]) == 0)
            return results[i];
    if (strcmp(compact, "1/2") == 0 || strcmp(compact, "=") == 0)
        return "1/2-1/2";
    return NULL;
}

bool referee_rules_from_name(const char *name, referee_rules *out)
{
    static const struct { const char *name; referee_rules rules; } names[] = {
        {"fide", REFEREE_RULES_FIDE}, {"vn", REFEREE_RULES_VN},
        {"axf", REFEREE_RULES_AXF},   {"cxa", REFEREE_RULES_CXA},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i].name) == 0) {
            *out = names[i].rules;
            return true;
        }
    return false;
}

static bool clock_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* Whether the clock value in [from, to) (the command's arguments, blanks around them
 * not trimmed) is surely not one that ran out: digits, ':' and '.' only, with a digit
 * other than 0 before the first '.'. The comment parser reads each field with strtod;
 * such fields are plain decimals, and that digit makes the field it stands in, the
 * whole part of one, at least 1: the clock, the fields' sum in sixtieths, is then at
 * least 1 second, or the value is no clock at all. False: not decided here. */
static bool clock_surely_running(const char *from, const char *to)
{
    while (from < to && clock_blank(*from))
        from++;
    while (to > from && clock_blank(to[-1]))
        to--;
    bool nonzero = false, point = false;
    for (const char *c = from; c < to; c++) {
        if (*c == '.')
            point = true;
        else if (*c >= '1' && *c <= '9')
            nonzero = nonzero || !point;
        else if (*c != '0' && *c != ':')
            return false;
    }
    return nonzero;
}

/* Whether no [%clk] command of text can hold a clock that ran out: every "[%clk"
 * followed by a blank (the only way a command named clk has arguments), read up to
 * the first ']' as the comment parser reads it, holds a running clock. A command the
 * parser would not see (inside another one) only costs the full reading. */
static bool clocks_surely_running(const char *text)
{
    for (const char *open = strstr(text, "[%clk"); open; open = strstr(open + 1, "[%clk")) {
        if (!clock_blank(open[5]))
            continue; /* [%clk] (no clock) or another command's name */
        const char *close = strchr(open, ']');
        if (!close)
            return true; /* no command is complete from here on */
        if (!clock_surely_running(open + 5, close))
            return false;
    }
    return true;
}

bool replay_clock_ran_out(arena *a, const char *text)
{
    if (!strstr(text, "%clk"))
        return false;
    /* the usual clock ("[%clk 0:03:12]") is decided without the comment parser */
    if (clocks_surely_running(text))
        return false;
    for (rec_command *cmd = rec_comment_commands(a, text, NULL); cmd; cmd = cmd->next)
        if (cmd->kind == REC_CMD_CLK && cmd->valid && cmd->seconds < 0.05)
            return true;
    return false;
}

void replay_bad_fen(rec_game *g, const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const rec_tag *t = g->tags;
    while (t && strcmp(t->name, "FEN") != 0)
        t = t->next;
    rec_game_add_finding(g, "bad-fen", REC_ERROR, t ? t->where : g->start, "%s", msg);
}
