/* yaml_report.c: the YAML report through libyaml's emitter. */
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "report/yaml_report.h"

struct yaml_report {
    yaml_emitter_t emitter;
    bool failed;
};

/* yaml_emitter_emit takes ownership of the event, even on failure. */
static bool emit(yaml_report *r, yaml_event_t *ev, int built)
{
    if (r->failed)
        return false;
    if (!built || !yaml_emitter_emit(&r->emitter, ev))
        r->failed = true;
    return !r->failed;
}

static bool map_begin(yaml_report *r)
{
    yaml_event_t ev;
    return emit(r, &ev, yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE));
}

static bool map_end(yaml_report *r)
{
    yaml_event_t ev;
    return emit(r, &ev, yaml_mapping_end_event_initialize(&ev));
}

static bool seq_begin(yaml_report *r)
{
    yaml_event_t ev;
    return emit(r, &ev, yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_SEQUENCE_STYLE));
}

static bool seq_end(yaml_report *r)
{
    yaml_event_t ev;
    return emit(r, &ev, yaml_sequence_end_event_initialize(&ev));
}

static bool scalar(yaml_report *r, const char *text, yaml_scalar_style_t style)
{
    yaml_event_t ev;
    return emit(r, &ev, yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)text,
                                                     (int)strlen(text), 1, 1, style));
}

/* A key (plain) and a string from a record (double-quoted). */
static bool kv_str(yaml_report *r, const char *key, const char *value)
{
    return scalar(r, key, YAML_PLAIN_SCALAR_STYLE) &&
           scalar(r, value, YAML_DOUBLE_QUOTED_SCALAR_STYLE);
}

static bool kv_uint(yaml_report *r, const char *key, uint64_t value)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%" PRIu64, value);
    return scalar(r, key, YAML_PLAIN_SCALAR_STYLE) && scalar(r, buf, YAML_PLAIN_SCALAR_STYLE);
}

/* A key with a plain value of our own vocabulary (codes, statuses), or null. */
static bool kv_word(yaml_report *r, const char *key, const char *word)
{
    return scalar(r, key, YAML_PLAIN_SCALAR_STYLE) &&
           scalar(r, word ? word : "null", YAML_PLAIN_SCALAR_STYLE);
}

static bool kv_str_or_null(yaml_report *r, const char *key, const char *value)
{
    return value ? kv_str(r, key, value) : kv_word(r, key, NULL);
}

static bool doc_begin(yaml_report *r)
{
    yaml_event_t ev;
    return emit(r, &ev, yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 0));
}

static bool doc_end(yaml_report *r)
{
    yaml_event_t ev;
    bool ok = emit(r, &ev, yaml_document_end_event_initialize(&ev, 1));
    /* Flush per document so a reader of a pipe sees each game as it is checked. */
    if (ok && !yaml_emitter_flush(&r->emitter))
        r->failed = true;
    return !r->failed;
}

yaml_report *yaml_report_open(FILE *out)
{
    yaml_report *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    if (!yaml_emitter_initialize(&r->emitter)) {
        free(r);
        return NULL;
    }
    yaml_emitter_set_output_file(&r->emitter, out);
    yaml_emitter_set_unicode(&r->emitter, 1);
    yaml_emitter_set_width(&r->emitter, -1); /* never fold a message or a FEN */
    yaml_emitter_set_indent(&r->emitter, 2);
    yaml_event_t ev;
    emit(r, &ev, yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING));
    return r;
}

static bool emit_span(yaml_report *r, rec_span where)
{
    return kv_uint(r, "line", where.line) && kv_uint(r, "column", where.column);
}

static bool emit_finding(yaml_report *r, const rec_finding *f)
{
    return map_begin(r) && kv_word(r, "code", f->code) &&
           kv_word(r, "severity", rec_severity_name(f->severity)) && emit_span(r, f->where) &&
           (f->ply == 0 || kv_uint(r, "ply", (uint64_t)f->ply)) &&
           (!f->move_text || kv_str(r, "move", f->move_text)) &&
           (!f->fen || kv_str(r, "fen", f->fen)) && kv_str(r, "message", f->message) &&
           map_end(r);
}

bool yaml_report_game(yaml_report *r, const rec_game *g)
{
    if (!doc_begin(r) || !map_begin(r) || !kv_str(r, "file", g->file) ||
        !kv_uint(r, "game", g->index) || !emit_span(r, g->start) ||
        !kv_word(r, "variant", g->kind == REC_XIANGQI ? "xiangqi" : "chess") ||
        !kv_word(r, "status", summary_game_status(g)))
        return false;

    if (!scalar(r, "tags", YAML_PLAIN_SCALAR_STYLE) || !map_begin(r))
        return false;
    for (const rec_tag *t = g->tags; t; t = t->next) {
        /* a repeated tag name would make a duplicate key: its later copies are reported
         * by the reader and left out here */
        const rec_tag *first = g->tags;
        while (first != t && strcmp(first->name, t->name) != 0)
            first = first->next;
        if (first == t && !kv_str(r, t->name, t->value))
            return false;
    }
    if (!map_end(r) || !kv_uint(r, "plies", g->plies))
        return false;

    if (!scalar(r, "result", YAML_PLAIN_SCALAR_STYLE) || !map_begin(r) ||
        !kv_str_or_null(r, "declared", g->result) ||
        !kv_str_or_null(r, "derived", g->derived_result) ||
        !kv_str_or_null(r, "reason", g->derived_reason) || !map_end(r))
        return false;
    if (g->final_fen && !kv_str(r, "final_fen", g->final_fen))
        return false;

    if (!scalar(r, "findings", YAML_PLAIN_SCALAR_STYLE) || !seq_begin(r))
        return false;
    for (const rec_finding *f = g->findings; f; f = f->next)
        if (!emit_finding(r, f))
            return false;
    return seq_end(r) && map_end(r) && doc_end(r);
}

bool yaml_report_summary(yaml_report *r, const summary *s)
{
    char seconds[32];
    snprintf(seconds, sizeof seconds, "%.3f", s->seconds);
    if (!doc_begin(r) || !map_begin(r) || !scalar(r, "summary", YAML_PLAIN_SCALAR_STYLE) ||
        !map_begin(r) || !kv_uint(r, "files", s->files) || !kv_uint(r, "games", s->games) ||
        !kv_uint(r, "ok", s->games_ok) || !kv_uint(r, "with_warnings", s->games_with_warnings) ||
        !kv_uint(r, "with_errors", s->games_with_errors) || !kv_uint(r, "plies", s->plies))
        return false;
    if (!scalar(r, "findings", YAML_PLAIN_SCALAR_STYLE) || !map_begin(r) ||
        !kv_uint(r, "error", s->findings_by_severity[REC_ERROR]) ||
        !kv_uint(r, "warning", s->findings_by_severity[REC_WARNING]) ||
        !kv_uint(r, "info", s->findings_by_severity[REC_INFO]) || !map_end(r))
        return false;
    if (!scalar(r, "by_code", YAML_PLAIN_SCALAR_STYLE) || !map_begin(r))
        return false;
    for (int i = 0; i < s->code_count; i++)
        if (!kv_uint(r, s->codes[i].code, s->codes[i].count))
            return false;
    return map_end(r) && scalar(r, "seconds", YAML_PLAIN_SCALAR_STYLE) &&
           scalar(r, seconds, YAML_PLAIN_SCALAR_STYLE) && map_end(r) && map_end(r) && doc_end(r);
}

const char *yaml_report_error(const yaml_report *r)
{
    return r->emitter.problem ? r->emitter.problem : "write error";
}

bool yaml_report_close(yaml_report *r)
{
    yaml_event_t ev;
    bool ok = emit(r, &ev, yaml_stream_end_event_initialize(&ev)) &&
              yaml_emitter_flush(&r->emitter);
    yaml_emitter_delete(&r->emitter);
    free(r);
    return ok;
}
