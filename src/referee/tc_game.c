/* tc_game.c: the time control of one game, for the referee (see time_control.h), and
 * what the rapid and blitz rules share between chess and xiangqi. */
#include <config.h>

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "referee/referee.h"
#include "referee/tc_game.h"

tc_kind referee_time_control(rec_game *g, const referee_options *opts)
{
    tc_decision d;
    tc_decide(g, opts ? opts->time_control : TC_AUTO, &d);
    g->time_control = tc_kind_name(d.kind);
    g->time_control_source = tc_source_name(d.source);
    /* the sentence only where a report shows it: the default costs one tag scan */
    if (d.source != TC_SOURCE_DEFAULT) {
        char why[300];
        tc_explain(&d, why, sizeof why);
        g->time_control_why = arena_strdup(g->arena, why);
    }
    return d.kind;
}

const char *tc_declared_result(const rec_game *g, rec_span *where)
{
    const char *r = referee_normal_result(g->result);
    if (r) {
        if (where)
            *where = g->result_where;
        return r;
    }
    for (const rec_tag *t = g->tags; t; t = t->next)
        if (strcmp(t->name, "Result") == 0 || strcmp(t->name, "RESULT") == 0) {
            if (where)
                *where = t->where;
            return referee_normal_result(t->value);
        }
    return NULL;
}

bool tc_opponent_won(const rec_game *g, bool mover_first)
{
    const char *r = tc_declared_result(g, NULL);
    return r && strcmp(r, mover_first ? "0-1" : "1-0") == 0;
}

bool tc_text_says_time(const char *text)
{
    static const char *const words[] = {"time", "flag", "hết giờ", "rụng kim", "超时", "超時",
                                        "时间到", "負時", "负时"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (strcasestr(text, words[i]))
            return true;
    return false;
}
