/* yaml_report.c: the YAML report through libyaml's emitter. */
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "i18n/i18n.h"
#include "record/textbuf.h"
#include "report/yaml_report.h"

/* Documents are written by a direct writer (fw_*) that produces exactly the bytes
 * libyaml's emitter would for this report's shapes: block mappings and sequences,
 * plain scalars of our own vocabulary, double-quoted strings. A document with anything
 * the direct writer does not vouch for (a plain scalar outside [A-Za-z0-9_][A-Za-z0-9_.-]*,
 * a string that is not strictly valid UTF-8) is thrown away and emitted through
 * libyaml instead, so the output is libyaml's in every case. */
struct yaml_report {
    yaml_emitter_t emitter;
    FILE *out;
    bool failed;
    /* The direct writer's document buffer. */
    char *buf;
    size_t len, cap;
    bool bail;           /* the document needs libyaml */
    bool libyaml_only;   /* ARBITER_YAML_EMITTER=libyaml: every document through libyaml
                          * (the tests compare both paths byte for byte) */
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

static size_t utf8_seq(const unsigned char *u, uint32_t *cp);

/* text with every byte that does not start a valid UTF-8 sequence replaced by U+FFFD
 * (malloc'd), or NULL when text is valid already. libyaml refuses to emit invalid
 * UTF-8, and a message that quotes damaged input cut at a byte count can hold some:
 * the report must still be written (hostile-input robustness). */
static char *utf8_repaired(const char *text)
{
    const unsigned char *u = (const unsigned char *)text;
    size_t bad = 0, n = 0;
    uint32_t cp;
    while (u[n]) {
        size_t w = u[n] < 0x80 ? 1 : utf8_seq(u + n, &cp);
        if (!w) {
            bad++;
            w = 1;
        }
        n += w;
    }
    if (!bad)
        return NULL;
    char *out = malloc(n + 2 * bad + 1);
    if (!out) {
        fputs(_("arbiter: out of memory\n"), stderr);
        abort();
    }
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        size_t w = u[i] < 0x80 ? 1 : utf8_seq(u + i, &cp);
        if (w) {
            memcpy(out + o, u + i, w);
            o += w;
            i += w;
        } else {
            memcpy(out + o, "\xEF\xBF\xBD", 3);
            o += 3;
            i++;
        }
    }
    out[o] = '\0';
    return out;
}

static bool scalar(yaml_report *r, const char *text, yaml_scalar_style_t style)
{
    yaml_event_t ev;
    char *fixed = utf8_repaired(text);
    if (fixed)
        text = fixed;
    bool ok = emit(r, &ev, yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)text,
                                                        (int)strlen(text), 1, 1, style));
    free(fixed);
    return ok;
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
    r->out = out;
    const char *emitter = getenv("ARBITER_YAML_EMITTER");
    r->libyaml_only = emitter && strcmp(emitter, "libyaml") == 0;
    yaml_emitter_set_unicode(&r->emitter, 1);
    yaml_emitter_set_width(&r->emitter, -1); /* never fold a message or a FEN */
    yaml_emitter_set_indent(&r->emitter, 2);
    yaml_event_t ev;
    emit(r, &ev, yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING));
    return r;
}

static bool emit_span(yaml_report *r, rec_span where)
{
    if (where.line == 0)   /* a binary format (XQF) has no lines */
        return kv_uint(r, "offset", where.offset);
    return kv_uint(r, "line", where.line) && kv_uint(r, "column", where.column);
}

/* suggestions (best first), no_suggestion, and fix: the edits of the first suggestion
 * when the rest of the line replays with it (arbiter-check(1)) */
static bool emit_fixit(yaml_report *r, const rec_finding *f)
{
    if (f->suggestion_count) {
        if (!scalar(r, "suggestions", YAML_PLAIN_SCALAR_STYLE) || !seq_begin(r))
            return false;
        for (uint32_t i = 0; i < f->suggestion_count; i++)
            if (!scalar(r, f->suggestions[i], YAML_DOUBLE_QUOTED_SCALAR_STYLE))
                return false;
        if (!seq_end(r))
            return false;
    }
    if (f->no_suggestion && !kv_str(r, "no_suggestion", f->no_suggestion))
        return false;
    if (!f->fix)
        return true;
    if (!scalar(r, "fix", YAML_PLAIN_SCALAR_STYLE) || !seq_begin(r))
        return false;
    for (const rec_fix *e = f->fix; e; e = e->next)
        if (!map_begin(r) || !emit_span(r, e->where) || !kv_uint(r, "length", e->length) ||
            !kv_str(r, "before", e->before) || !kv_str(r, "text", e->text) || !map_end(r))
            return false;
    return seq_end(r) && kv_word(r, "fix_certain", f->fix_certain ? "true" : "false");
}

static bool emit_finding(yaml_report *r, const rec_finding *f)
{
    return map_begin(r) && kv_word(r, "code", f->code) &&
           kv_word(r, "severity", rec_severity_name(f->severity)) && emit_span(r, f->where) &&
           (f->ply == 0 || kv_uint(r, "ply", (uint64_t)f->ply)) &&
           (!f->move_text || kv_str(r, "move", f->move_text)) &&
           (!f->fen || kv_str(r, "fen", f->fen)) && kv_str(r, "message", f->message) &&
           emit_fixit(r, f) && map_end(r);
}

static bool lib_game(yaml_report *r, const rec_game *g)
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
        while (first != t && (first->name[0] != t->name[0] || strcmp(first->name, t->name) != 0))
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
    /* the time control, unless it is standard for want of any time field */
    if (g->time_control_why &&
        (!scalar(r, "time_control", YAML_PLAIN_SCALAR_STYLE) || !map_begin(r) ||
         !kv_word(r, "applied", g->time_control) ||
         !kv_word(r, "source", g->time_control_source) || !kv_str(r, "why", g->time_control_why) ||
         !map_end(r)))
        return false;

    /* findings, then claims (what could have been claimed, automatic ends) */
    for (int claims = 0; claims < 2; claims++) {
        if (!scalar(r, claims ? "claims" : "findings", YAML_PLAIN_SCALAR_STYLE) ||
            !seq_begin(r))
            return false;
        for (const rec_finding *f = g->findings; f; f = f->next)
            if (f->claim == (claims == 1) && !emit_finding(r, f))
                return false;
        if (!seq_end(r))
            return false;
    }
    return map_end(r) && doc_end(r);
}

static bool lib_summary(yaml_report *r, const summary *s)
{
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
    return map_end(r) && map_end(r) && map_end(r) && doc_end(r);
}

/* ------------------------------------------------------------------ direct writer */

static void fw_reserve(yaml_report *r, size_t n)
{
    textbuf_reserve(&r->buf, &r->cap, r->len + n);
}

static inline void fw_put(yaml_report *r, const char *s, size_t n)
{
    fw_reserve(r, n);
    memcpy(r->buf + r->len, s, n);
    r->len += n;
}

#define FW_LIT(r, lit) fw_put((r), (lit), sizeof(lit) - 1)

static inline void fw_indent(yaml_report *r, int indent)
{
    fw_reserve(r, (size_t)indent);
    memset(r->buf + r->len, ' ', (size_t)indent);
    r->len += (size_t)indent;
}

/* A plain scalar libyaml would also write plain, as is. */
static void fw_plain(yaml_report *r, const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t n = 0;
    unsigned char c = u[0];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) {
        r->bail = true;
        return;
    }
    for (; (c = u[n]) != '\0'; n++)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-' || c == '.')) {
            r->bail = true;
            return;
        }
    if (n > 128) { /* a longer key is not a simple key for libyaml */
        r->bail = true;
        return;
    }
    fw_put(r, s, n);
}

static void fw_uint(yaml_report *r, uint64_t v)
{
    char tmp[24];
    int i = (int)sizeof tmp;
    do {
        tmp[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    fw_put(r, tmp + i, sizeof tmp - (size_t)i);
}

/* Bytes of the valid UTF-8 sequence (no surrogates, at most U+10FFFF) starting a
 * byte >= 0x80 at u, 0 if there is none; *cp gets the code point. */
static size_t utf8_seq(const unsigned char *u, uint32_t *cp)
{
    unsigned c = u[0];
    if (c >= 0xC2 && c <= 0xDF) {
        if ((u[1] & 0xC0) != 0x80)
            return 0;
        *cp = ((c & 0x1Fu) << 6) | (u[1] & 0x3Fu);
        return 2;
    }
    if (c >= 0xE0 && c <= 0xEF) {
        if ((u[1] & 0xC0) != 0x80 || (u[2] & 0xC0) != 0x80)
            return 0;
        uint32_t v = ((c & 0x0Fu) << 12) | ((u[1] & 0x3Fu) << 6) | (u[2] & 0x3Fu);
        if (v < 0x800 || (v >= 0xD800 && v <= 0xDFFF))
            return 0;
        *cp = v;
        return 3;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        if ((u[1] & 0xC0) != 0x80 || (u[2] & 0xC0) != 0x80 || (u[3] & 0xC0) != 0x80)
            return 0;
        uint32_t v = ((c & 0x07u) << 18) | ((u[1] & 0x3Fu) << 12) | ((u[2] & 0x3Fu) << 6) |
                     (u[3] & 0x3Fu);
        if (v < 0x10000 || v > 0x10FFFF)
            return 0;
        *cp = v;
        return 4;
    }
    return 0;
}

/* ASCII bytes written as they are inside double quotes (0x20-0x7E but '"' and '\'). */
static inline bool dq_plain_ascii(unsigned char c)
{
    return c >= 0x20 && c <= 0x7E && c != '"' && c != '\\';
}

static void fw_escape(yaml_report *r, uint32_t v)
{
    char e[12];
    size_t n = 0;
    e[n++] = '\\';
    switch (v) {
    case 0x00: e[n++] = '0'; break;
    case 0x07: e[n++] = 'a'; break;
    case 0x08: e[n++] = 'b'; break;
    case 0x09: e[n++] = 't'; break;
    case 0x0A: e[n++] = 'n'; break;
    case 0x0B: e[n++] = 'v'; break;
    case 0x0C: e[n++] = 'f'; break;
    case 0x0D: e[n++] = 'r'; break;
    case 0x1B: e[n++] = 'e'; break;
    case 0x22: e[n++] = '"'; break;
    case 0x5C: e[n++] = '\\'; break;
    case 0x85: e[n++] = 'N'; break;
    case 0xA0: e[n++] = '_'; break;
    case 0x2028: e[n++] = 'L'; break;
    case 0x2029: e[n++] = 'P'; break;
    default: {
        int width = v <= 0xFF ? 2 : v <= 0xFFFF ? 4 : 8;
        e[n++] = width == 2 ? 'x' : width == 4 ? 'u' : 'U';
        for (int k = (width - 1) * 4; k >= 0; k -= 4) {
            unsigned d = (v >> k) & 0x0F;
            e[n++] = (char)(d < 10 ? '0' + d : 'A' + d - 10);
        }
    }
    }
    fw_put(r, e, n);
}

/* A double-quoted scalar, escaped as libyaml's emitter does with unicode on and no
 * line width. */
static void fw_quoted(yaml_report *r, const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    fw_put(r, "\"", 1);
    for (;;) {
        size_t run = 0;
        while (dq_plain_ascii(u[run]))
            run++;
        if (run) {
            fw_put(r, (const char *)u, run);
            u += run;
        }
        unsigned c = u[0];
        if (c == '\0')
            break;
        if (c < 0x80) {
            fw_escape(r, c);
            u++;
            continue;
        }
        uint32_t v = 0;
        size_t w = utf8_seq(u, &v);
        if (!w) {
            r->bail = true;
            return;
        }
        /* libyaml's IS_PRINTABLE, IS_BOM and IS_BREAK on the sequence */
        bool printable;
        if (w == 2)
            printable = v >= 0xA0;
        else if (w == 3)
            printable = v != 0xFEFF && v != 0xFFFE && v != 0xFFFF && v != 0x2028 &&
                        v != 0x2029;
        else
            printable = false;
        if (printable)
            fw_put(r, (const char *)u, w);
        else
            fw_escape(r, v);
        u += w;
    }
    fw_put(r, "\"", 1);
}

/* "key: " at indent (the key plain). */
static inline void fw_key(yaml_report *r, int indent, const char *key)
{
    fw_indent(r, indent);
    fw_plain(r, key);
    fw_put(r, ": ", 2);
}

static void fw_kv_str(yaml_report *r, int indent, const char *key, const char *value)
{
    fw_key(r, indent, key);
    fw_quoted(r, value);
    fw_put(r, "\n", 1);
}

static void fw_kv_uint(yaml_report *r, int indent, const char *key, uint64_t value)
{
    fw_key(r, indent, key);
    fw_uint(r, value);
    fw_put(r, "\n", 1);
}

/* line and column, or the byte offset of a binary format (line 0), as emit_span */
static void fw_span(yaml_report *r, int indent, rec_span where)
{
    if (where.line == 0) {
        fw_kv_uint(r, indent, "offset", where.offset);
        return;
    }
    fw_kv_uint(r, indent, "line", where.line);
    fw_kv_uint(r, indent, "column", where.column);
}

static void fw_kv_word(yaml_report *r, int indent, const char *key, const char *word)
{
    fw_key(r, indent, key);
    fw_plain(r, word ? word : "null");
    fw_put(r, "\n", 1);
}

static void fw_kv_str_or_null(yaml_report *r, int indent, const char *key, const char *value)
{
    if (value)
        fw_kv_str(r, indent, key, value);
    else
        fw_kv_word(r, indent, key, NULL);
}

/* The finished document to the stream, or false when libyaml has to write it. */
static bool fw_commit(yaml_report *r)
{
    if (r->bail || r->libyaml_only)
        return false;
    if (fwrite(r->buf, 1, r->len, r->out) != r->len)
        r->failed = true;
    return true;
}

/* The findings list (claims false) or the claims list (true) of a game. */
static void fw_findings(yaml_report *r, const rec_game *g, bool claims)
{
    const char *key = claims ? "claims" : "findings";
    bool any = false;
    for (const rec_finding *f = g->findings; f && !any; f = f->next)
        any = f->claim == claims;
    fw_put(r, key, strlen(key));
    if (!any) {
        FW_LIT(r, ": []\n");
        return;
    }
    FW_LIT(r, ":\n");
    for (const rec_finding *f = g->findings; f; f = f->next) {
        if (f->claim != claims)
            continue;
        if (f->suggestion_count || f->no_suggestion) {
            r->bail = true; /* rare (errors only): libyaml writes these documents */
            return;
        }
        FW_LIT(r, "- ");
        fw_kv_word(r, 0, "code", f->code);
        fw_kv_word(r, 2, "severity", rec_severity_name(f->severity));
        fw_span(r, 2, f->where);
        if (f->ply != 0)
            fw_kv_uint(r, 2, "ply", (uint64_t)f->ply);
        if (f->move_text)
            fw_kv_str(r, 2, "move", f->move_text);
        if (f->fen)
            fw_kv_str(r, 2, "fen", f->fen);
        fw_kv_str(r, 2, "message", f->message);
    }
}

static void fw_game(yaml_report *r, const rec_game *g)
{
    r->len = 0;
    r->bail = false;
    FW_LIT(r, "---\n");
    fw_kv_str(r, 0, "file", g->file);
    fw_kv_uint(r, 0, "game", g->index);
    fw_span(r, 0, g->start);
    fw_kv_word(r, 0, "variant", g->kind == REC_XIANGQI ? "xiangqi" : "chess");
    fw_kv_word(r, 0, "status", summary_game_status(g));
    if (!g->tags) {
        FW_LIT(r, "tags: {}\n");
    } else {
        FW_LIT(r, "tags:\n");
        for (const rec_tag *t = g->tags; t; t = t->next) {
            const rec_tag *first = g->tags;
            while (first != t &&
                   (first->name[0] != t->name[0] || strcmp(first->name, t->name) != 0))
                first = first->next;
            if (first == t)
                fw_kv_str(r, 2, t->name, t->value);
        }
    }
    fw_kv_uint(r, 0, "plies", g->plies);
    FW_LIT(r, "result:\n");
    fw_kv_str_or_null(r, 2, "declared", g->result);
    fw_kv_str_or_null(r, 2, "derived", g->derived_result);
    fw_kv_str_or_null(r, 2, "reason", g->derived_reason);
    if (g->final_fen)
        fw_kv_str(r, 0, "final_fen", g->final_fen);
    if (g->time_control_why) {
        FW_LIT(r, "time_control:\n");
        fw_kv_word(r, 2, "applied", g->time_control);
        fw_kv_word(r, 2, "source", g->time_control_source);
        fw_kv_str(r, 2, "why", g->time_control_why);
    }
    fw_findings(r, g, false);
    fw_findings(r, g, true);
}

static void fw_summary(yaml_report *r, const summary *s)
{
    r->len = 0;
    r->bail = false;
    FW_LIT(r, "---\nsummary:\n");
    fw_kv_uint(r, 2, "files", s->files);
    fw_kv_uint(r, 2, "games", s->games);
    fw_kv_uint(r, 2, "ok", s->games_ok);
    fw_kv_uint(r, 2, "with_warnings", s->games_with_warnings);
    fw_kv_uint(r, 2, "with_errors", s->games_with_errors);
    fw_kv_uint(r, 2, "plies", s->plies);
    FW_LIT(r, "  findings:\n");
    fw_kv_uint(r, 4, "error", s->findings_by_severity[REC_ERROR]);
    fw_kv_uint(r, 4, "warning", s->findings_by_severity[REC_WARNING]);
    fw_kv_uint(r, 4, "info", s->findings_by_severity[REC_INFO]);
    if (s->code_count == 0) {
        FW_LIT(r, "  by_code: {}\n");
    } else {
        FW_LIT(r, "  by_code:\n");
        for (int i = 0; i < s->code_count; i++)
            fw_kv_uint(r, 4, s->codes[i].code, s->codes[i].count);
    }
}

bool yaml_report_game(yaml_report *r, const rec_game *g)
{
    if (r->failed)
        return false;
    fw_game(r, g);
    if (fw_commit(r))
        return !r->failed;
    return lib_game(r, g);
}

bool yaml_report_summary(yaml_report *r, const summary *s)
{
    if (r->failed)
        return false;
    fw_summary(r, s);
    if (fw_commit(r))
        return !r->failed;
    return lib_summary(r, s);
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
    free(r->buf);
    free(r);
    return ok;
}
