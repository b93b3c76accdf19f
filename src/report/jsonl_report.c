/* jsonl_report.c: the JSON Lines report through jansson. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "report/jsonl_report.h"

#ifdef HAVE_JANSSON
#include <jansson.h>

struct jsonl_report {
    FILE *out;
    bool failed;
};

bool jsonl_report_available(void)
{
    return true;
}

jsonl_report *jsonl_report_open(FILE *out)
{
    jsonl_report *r = calloc(1, sizeof *r);
    if (r)
        r->out = out;
    return r;
}

/* A string from a record: jansson wants valid UTF-8, the readers give it; anything
 * else is replaced byte by byte with U+FFFD rather than lost. */
static json_t *str(const char *s)
{
    json_t *v = json_string(s);
    if (v)
        return v;
    size_t n = strlen(s);
    char *fixed = malloc(n * 3 + 1);
    if (!fixed)
        return json_null();
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x80) {
            fixed[o++] = (char)c;
        } else {
            memcpy(fixed + o, "\xEF\xBF\xBD", 3);
            o += 3;
        }
    }
    fixed[o] = '\0';
    v = json_string(fixed);
    free(fixed);
    return v ? v : json_null();
}

static json_t *str_or_null(const char *s)
{
    return s ? str(s) : json_null();
}

/* line and column, or the byte offset of a binary format (XQF: line 0) */
static void span(json_t *o, rec_span where)
{
    if (where.line == 0) {
        json_object_set_new(o, "offset", json_integer((json_int_t)where.offset));
        return;
    }
    json_object_set_new(o, "line", json_integer((json_int_t)where.line));
    json_object_set_new(o, "column", json_integer((json_int_t)where.column));
}

static json_t *finding(const rec_finding *f)
{
    json_t *o = json_object();
    json_object_set_new(o, "code", json_string(f->code));
    json_object_set_new(o, "severity", json_string(rec_severity_name(f->severity)));
    span(o, f->where);
    if (f->ply != 0)
        json_object_set_new(o, "ply", json_integer((json_int_t)f->ply));
    if (f->move_text)
        json_object_set_new(o, "move", str(f->move_text));
    if (f->fen)
        json_object_set_new(o, "fen", str(f->fen));
    json_object_set_new(o, "message", str(f->message));
    if (f->suggestion_count) {
        json_t *a = json_array();
        for (uint32_t i = 0; i < f->suggestion_count; i++)
            json_array_append_new(a, str(f->suggestions[i]));
        json_object_set_new(o, "suggestions", a);
    }
    if (f->no_suggestion)
        json_object_set_new(o, "no_suggestion", str(f->no_suggestion));
    if (f->fix) {
        json_t *a = json_array();
        for (const rec_fix *e = f->fix; e; e = e->next) {
            json_t *x = json_object();
            json_object_set_new(x, "line", json_integer((json_int_t)e->where.line));
            json_object_set_new(x, "column", json_integer((json_int_t)e->where.column));
            json_object_set_new(x, "length", json_integer((json_int_t)e->length));
            json_object_set_new(x, "before", str(e->before));
            json_object_set_new(x, "text", str(e->text));
            json_array_append_new(a, x);
        }
        json_object_set_new(o, "fix", a);
        json_object_set_new(o, "fix_certain", json_boolean(f->fix_certain));
    }
    return o;
}

static bool put(jsonl_report *r, json_t *o)
{
    if (!o) {
        r->failed = true;
        return false;
    }
    char *text = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(o);
    if (!text) {
        r->failed = true;
        return false;
    }
    size_t n = strlen(text);
    if (fwrite(text, 1, n, r->out) != n || fputc('\n', r->out) == EOF)
        r->failed = true;
    free(text);
    return !r->failed;
}

bool jsonl_report_game(jsonl_report *r, const rec_game *g)
{
    json_t *o = json_object();
    json_object_set_new(o, "file", str(g->file));
    json_object_set_new(o, "game", json_integer((json_int_t)g->index));
    span(o, g->start);
    json_object_set_new(o, "variant", json_string(g->kind == REC_XIANGQI ? "xiangqi" : "chess"));
    json_object_set_new(o, "status", json_string(summary_game_status(g)));
    json_t *tags = json_object();
    for (const rec_tag *t = g->tags; t; t = t->next)
        if (!json_object_get(tags, t->name)) /* the first of a repeated tag, as in YAML */
            json_object_set_new(tags, t->name, str(t->value));
    json_object_set_new(o, "tags", tags);
    json_object_set_new(o, "plies", json_integer((json_int_t)g->plies));
    json_t *res = json_object();
    json_object_set_new(res, "declared", str_or_null(g->result));
    json_object_set_new(res, "derived", str_or_null(g->derived_result));
    json_object_set_new(res, "reason", str_or_null(g->derived_reason));
    json_object_set_new(o, "result", res);
    if (g->final_fen)
        json_object_set_new(o, "final_fen", str(g->final_fen));
    if (g->time_control_why) {
        json_t *tc = json_object();
        json_object_set_new(tc, "applied", str(g->time_control));
        json_object_set_new(tc, "source", str(g->time_control_source));
        json_object_set_new(tc, "why", str(g->time_control_why));
        json_object_set_new(o, "time_control", tc);
    }
    json_t *findings = json_array(), *claims = json_array();
    for (const rec_finding *f = g->findings; f; f = f->next)
        json_array_append_new(f->claim ? claims : findings, finding(f));
    json_object_set_new(o, "findings", findings);
    json_object_set_new(o, "claims", claims);
    return put(r, o);
}

bool jsonl_report_summary(jsonl_report *r, const summary *s)
{
    json_t *m = json_object();
    json_object_set_new(m, "files", json_integer((json_int_t)s->files));
    json_object_set_new(m, "games", json_integer((json_int_t)s->games));
    json_object_set_new(m, "ok", json_integer((json_int_t)s->games_ok));
    json_object_set_new(m, "with_warnings", json_integer((json_int_t)s->games_with_warnings));
    json_object_set_new(m, "with_errors", json_integer((json_int_t)s->games_with_errors));
    json_object_set_new(m, "plies", json_integer((json_int_t)s->plies));
    json_t *f = json_object();
    json_object_set_new(f, "error", json_integer((json_int_t)s->findings_by_severity[REC_ERROR]));
    json_object_set_new(f, "warning", json_integer((json_int_t)s->findings_by_severity[REC_WARNING]));
    json_object_set_new(f, "info", json_integer((json_int_t)s->findings_by_severity[REC_INFO]));
    json_object_set_new(m, "findings", f);
    json_t *by = json_object();
    for (int i = 0; i < s->code_count; i++)
        json_object_set_new(by, s->codes[i].code, json_integer((json_int_t)s->codes[i].count));
    json_object_set_new(m, "by_code", by);
    json_t *o = json_object();
    json_object_set_new(o, "summary", m);
    return put(r, o);
}

bool jsonl_report_close(jsonl_report *r)
{
    if (!r)
        return true;
    bool ok = !r->failed && fflush(r->out) == 0;
    free(r);
    return ok;
}

#else /* no jansson */

bool jsonl_report_available(void)
{
    return false;
}

jsonl_report *jsonl_report_open(FILE *out)
{
    (void)out;
    return NULL;
}

bool jsonl_report_game(jsonl_report *r, const rec_game *g)
{
    (void)r;
    (void)g;
    return false;
}

bool jsonl_report_summary(jsonl_report *r, const summary *s)
{
    (void)r;
    (void)s;
    return false;
}

bool jsonl_report_close(jsonl_report *r)
{
    (void)r;
    return true;
}

#endif
