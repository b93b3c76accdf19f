/* time_control.c: which time control a game was played under (see time_control.h). */
#include <config.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "i18n/i18n.h"
#include "referee/time_control.h"

/* FIDE Laws (2023) A.1 and B.1: the time for all the moves, or the time allotted plus
 * 60 times the increment, more than 10 and less than 60 minutes is rapid, 10 minutes
 * or less is blitz. */
#define TC_BLITZ_MAX (10L * 60)
#define TC_RAPID_BELOW (60L * 60)

bool tc_kind_from_name(const char *name, tc_kind *out)
{
    if (strcmp(name, "standard") == 0 || strcmp(name, "classical") == 0)
        *out = TC_STANDARD;
    else if (strcmp(name, "rapid") == 0)
        *out = TC_RAPID;
    else if (strcmp(name, "blitz") == 0)
        *out = TC_BLITZ;
    else
        return false;
    return true;
}

const char *tc_kind_name(tc_kind k)
{
    return k == TC_RAPID ? N_("rapid") : k == TC_BLITZ ? N_("blitz") : N_("standard");
}

const char *tc_source_name(tc_source s)
{
    return s == TC_SOURCE_TAG ? "tag" : s == TC_SOURCE_OPTION ? "option" : "default";
}

/* A run of digits at *p as a number (at most 10^9); false when there is none. */
static bool number(const char **p, long *out)
{
    if (!isdigit((unsigned char)**p))
        return false;
    long v = 0;
    while (isdigit((unsigned char)**p)) {
        if (v > 100000000L)
            return false;
        v = v * 10 + (**p - '0');
        (*p)++;
    }
    *out = v;
    return true;
}

bool tc_parse_pgn(const char *text, long *seconds)
{
    const char *p = text;
    while (*p == ' ')
        p++;
    long total = 0, increment = 0;
    for (;;) {
        long s, inc = 0, moves;
        if (*p == '*') {
            /* sandclock: the glass holds s seconds */
            p++;
            if (!number(&p, &s))
                return false;
        } else {
            if (!number(&p, &s))
                return false; /* "?", "-", or not the standard's syntax */
            if (*p == '/') {
                /* moves/seconds: s was the number of moves */
                moves = s;
                p++;
                if (moves == 0 || !number(&p, &s))
                    return false;
            }
            if (*p == '+') {
                p++;
                if (!number(&p, &inc))
                    return false;
            }
        }
        total += s;
        if (inc > increment)
            increment = inc;
        if (*p == ':') {
            p++;
            continue;
        }
        break;
    }
    while (*p == ' ')
        p++;
    if (*p)
        return false;
    *seconds = total + 60 * increment;
    return true;
}

tc_kind tc_classify_seconds(long seconds)
{
    if (seconds <= TC_BLITZ_MAX)
        return TC_BLITZ;           /* B.1 */
    if (seconds < TC_RAPID_BELOW)
        return TC_RAPID;           /* A.1 */
    return TC_STANDARD;
}

tc_kind tc_classify_word(const char *text)
{
    /* the longer words first: 超快棋 holds 快棋 */
    static const struct {
        const char *word;
        tc_kind kind;
    } words[] = {
        {"超快", TC_BLITZ},    {"闪电", TC_BLITZ},   {"閃電", TC_BLITZ},
        {"快棋", TC_RAPID},    {"慢棋", TC_STANDARD},
        {"chớp", TC_BLITZ},    {"cờ nhanh", TC_RAPID}, {"tiêu chuẩn", TC_STANDARD},
        {"blitz", TC_BLITZ},   {"bullet", TC_BLITZ}, {"rapid", TC_RAPID},
        {"classical", TC_STANDARD}, {"standard", TC_STANDARD},
    };
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (strcasestr(text, words[i].word))
            return words[i].kind;
    return TC_AUTO;
}

/* PlayOK's WXF EVENT "PlayOK Game ; 10m+0s": the clock after the last ';'. A name
 * alone is never read (Event names are not reliable). */
static bool playok_clock(const char *value, long *seconds)
{
    const char *semi = strrchr(value, ';');
    if (!semi)
        return false;
    const char *p = semi + 1;
    while (*p == ' ')
        p++;
    long m, s = 0;
    if (!number(&p, &m) || *p++ != 'm')
        return false;
    if (*p == '+') {
        p++;
        if (!number(&p, &s) || *p++ != 's')
            return false;
    }
    while (*p == ' ')
        p++;
    if (*p)
        return false;
    *seconds = m * 60 + 60 * s;
    return true;
}

void tc_decide(const rec_game *g, tc_kind forced, tc_decision *out)
{
    *out = (tc_decision){.kind = TC_STANDARD, .source = TC_SOURCE_DEFAULT, .seconds = -1};
    if (forced != TC_AUTO) {
        out->kind = forced;
        out->source = TC_SOURCE_OPTION;
        return;
    }
    for (const rec_tag *t = g->tags; t; t = t->next) {
        /* by the first letter: most tags are none of these, and this runs per game */
        long s;
        tc_kind k = TC_AUTO;
        switch (t->name[0] | 0x20) {
        case 't':
            if (strcasecmp(t->name, "TimeControl") == 0) {
                if (tc_parse_pgn(t->value, &s)) {
                    out->seconds = s;
                    k = tc_classify_seconds(s);
                } else if (strcmp(t->value, "-") == 0) {
                    k = TC_STANDARD; /* PGN 9.6.1: no time control */
                } else {
                    k = tc_classify_word(t->value);
                }
            } else if (strcasecmp(t->name, "TimeRule") == 0) {
                k = tc_classify_word(t->value);
            }
            break;
        case 'g':
            if (strcasecmp(t->name, "gametype") == 0)
                k = tc_classify_word(t->value);
            break;
        case 'e':
            /* WXF's upper-case key only: a PGN Event is a name */
            if (t->name[1] == 'V' && strcmp(t->name, "EVENT") == 0 && playok_clock(t->value, &s)) {
                out->seconds = s;
                k = tc_classify_seconds(s);
            }
            break;
        default:
            continue;
        }
        if (k != TC_AUTO) {
            out->kind = k;
            out->source = TC_SOURCE_TAG;
            out->tag = t->name;
            out->value = t->value;
            return;
        }
    }
}

/* The last sentence a thread wrote for a tag, with what it was made of: games of one
 * file mostly share their TimeControl tag, and the sentence costs a formatted print. The
 * translated kind name is part of the key, so a change of language is a miss. */
typedef struct tc_explain_memo {
    bool used;
    tc_kind kind;
    long seconds;
    size_t size;
    const char *name;
    char tag[32];
    char value[64];
    char text[320];
} tc_explain_memo;

static _Thread_local tc_explain_memo explain_memo;

/* Whether the memo holds the sentence of d at this size (short tags and values only:
 * longer ones are never kept). */
static bool tc_memo_hit(const tc_explain_memo *m, const tc_decision *d, const char *name,
                        size_t size)
{
    return m->used && m->kind == d->kind && m->seconds == d->seconds && m->size == size &&
           m->name == name && strcmp(m->tag, d->tag) == 0 && strcmp(m->value, d->value) == 0;
}

static void tc_memo_keep(tc_explain_memo *m, const tc_decision *d, const char *name,
                         size_t size, const char *text)
{
    m->used = strlen(d->tag) < sizeof m->tag && strlen(d->value) < sizeof m->value &&
              strlen(text) < sizeof m->text;
    if (!m->used)
        return;
    m->kind = d->kind;
    m->seconds = d->seconds;
    m->size = size;
    m->name = name;
    strcpy(m->tag, d->tag);
    strcpy(m->value, d->value);
    strcpy(m->text, text);
}

/* The sentence from a tag: the same tag and value give the same words. */
static void tc_explain_tag(const tc_decision *d, const char *name, char *buf, size_t size)
{
    if (tc_memo_hit(&explain_memo, d, name, size)) {
        strcpy(buf, explain_memo.text); /* it fit in size when it was made */
        return;
    }
    if (d->seconds >= 0) {
        const char *art = d->kind == TC_BLITZ   ? _("FIDE B.1: 10 minutes or less")
                          : d->kind == TC_RAPID ? _("FIDE A.1: more than 10 and less than 60 minutes")
                                                : _("60 minutes or more");
        snprintf(buf, size, _("%s: %s \"%s\" gives %ld:%02ld for 60 moves (%s)"), name, d->tag,
                 d->value, d->seconds / 60, d->seconds % 60, art);
    } else {
        snprintf(buf, size, "%s: %s \"%s\"", name, d->tag, d->value);
    }
    tc_memo_keep(&explain_memo, d, name, size, buf);
}

void tc_explain(const tc_decision *d, char *buf, size_t size)
{
    const char *name = _(tc_kind_name(d->kind));
    if (d->source == TC_SOURCE_OPTION) {
        snprintf(buf, size, _("%s: set by --time-control"), name);
    } else if (d->source == TC_SOURCE_DEFAULT) {
        snprintf(buf, size, _("%s: the record gives no time control"), name);
    } else if (size > 0) {
        tc_explain_tag(d, name, buf, size);
    }
}
