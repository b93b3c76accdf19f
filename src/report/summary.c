/* summary.c: counts over a run. */
#include <config.h>

#include <string.h>

#include "report/summary.h"

void summary_init(summary *s)
{
    memset(s, 0, sizeof *s);
}

const char *summary_game_status(const rec_game *g)
{
    if (g->error_count)
        return "errors";
    return g->warning_count ? "warnings" : "ok";
}

static void count_code_n(summary *s, const char *code, uint64_t n)
{
    int lo = 0, hi = s->code_count;
    while (lo < hi) {
        int mid = (lo + hi) / 2, cmp = strcmp(s->codes[mid].code, code);
        if (cmp == 0) {
            s->codes[mid].count += n;
            return;
        }
        if (cmp < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (s->code_count == SUMMARY_MAX_CODES)
        return; /* more distinct codes than the catalogue has: cannot happen */
    memmove(&s->codes[lo + 1], &s->codes[lo], (size_t)(s->code_count - lo) * sizeof s->codes[0]);
    s->codes[lo].code = code;
    s->codes[lo].count = n;
    s->code_count++;
}

static void count_code(summary *s, const char *code)
{
    count_code_n(s, code, 1);
}

void summary_add_code(summary *s, const char *code, uint64_t n)
{
    count_code_n(s, code, n);
}

void summary_merge(summary *into, const summary *from)
{
    into->files += from->files;
    into->games += from->games;
    into->games_ok += from->games_ok;
    into->games_with_warnings += from->games_with_warnings;
    into->games_with_errors += from->games_with_errors;
    into->plies += from->plies;
    for (int i = 0; i < 3; i++)
        into->findings_by_severity[i] += from->findings_by_severity[i];
    for (int i = 0; i < from->code_count; i++)
        count_code_n(into, from->codes[i].code, from->codes[i].count);
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < SUMMARY_OPENING_CODES; i++)
            into->openings[k][i] += from->openings[k][i];
}

bool summary_add_opening(summary *s, rec_game_kind k, const char *code, uint64_t n)
{
    if (!code || code[0] < 'A' || code[0] > 'E' || code[1] < '0' || code[1] > '9' ||
        code[2] < '0' || code[2] > '9' || code[3] != '\0')
        return false;
    s->openings[k == REC_XIANGQI][(code[0] - 'A') * 100 + (code[1] - '0') * 10 + code[2] - '0'] += n;
    return true;
}

bool summary_has_openings_of(const summary *s, int k)
{
    for (int i = 0; i < SUMMARY_OPENING_CODES; i++)
        if (s->openings[k][i])
            return true;
    return false;
}

bool summary_has_openings(const summary *s)
{
    return summary_has_openings_of(s, 0) || summary_has_openings_of(s, 1);
}

void summary_opening_code(int i, char buf[4])
{
    buf[0] = (char)('A' + i / 100);
    buf[1] = (char)('0' + i / 10 % 10);
    buf[2] = (char)('0' + i % 10);
    buf[3] = '\0';
}

void summary_add_game(summary *s, const rec_game *g)
{
    s->games++;
    s->plies += g->plies;
    if (g->error_count)
        s->games_with_errors++;
    else if (g->warning_count)
        s->games_with_warnings++;
    else
        s->games_ok++;
    summary_add_opening(s, g->kind, g->opening_eco, 1);
    for (const rec_finding *f = g->findings; f; f = f->next) {
        s->findings_by_severity[f->severity]++;
        count_code(s, f->code);
    }
}
