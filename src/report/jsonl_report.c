/* jsonl_report.c: the JSON Lines report, one compact JSON object a line. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "i18n/i18n.h"
#include "report/jsonl_report.h"

#ifdef HAVE_JANSSON
/* The lines are written directly, byte for byte what jansson's json_dumps(JSON_COMPACT |
 * JSON_PRESERVE_ORDER) made of the same objects (the report's format since it began):
 * building a jansson tree per game cost more than replaying an XQF game. jansson stays
 * the condition, as before, and reads these reports back (arbiter summary). */

struct jsonl_report {
    FILE *out;
    bool failed;
    char *buf;               /* the line being made */
    size_t len, cap;
    report_places places;    /* of the last game line */
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

static void add(jsonl_report *r, const char *s, size_t n)
{
    if (r->len + n + 2 > r->cap) {
        size_t cap = r->cap ? r->cap : 4096;
        while (cap < r->len + n + 2)
            cap *= 2;
        char *b = realloc(r->buf, cap);
        if (!b) {
            fputs(_("arbiter: out of memory\n"), stderr);
            abort();
        }
        r->buf = b;
        r->cap = cap;
    }
    memcpy(r->buf + r->len, s, n);
    r->len += n;
}

static void lit(jsonl_report *r, const char *s)
{
    add(r, s, strlen(s));
}

static void integer(jsonl_report *r, long long v)
{
    char t[24];
    size_t n = sizeof t;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do
        t[--n] = (char)('0' + u % 10);
    while (u /= 10);
    if (v < 0)
        t[--n] = '-';
    add(r, t + n, sizeof t - n);
}

/* The length of the UTF-8 sequence at s (n bytes left) as jansson accepts it (no
 * overlong form, no surrogate, nothing above U+10FFFF), or 0. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    size_t len;
    uint32_t v;
    if (c < 0x80)
        return 1;
    if (c < 0xC2)
        return 0;
    if (c < 0xE0) {
        len = 2;
        v = c & 0x1F;
    } else if (c < 0xF0) {
        len = 3;
        v = c & 0x0F;
    } else if (c < 0xF5) {
        len = 4;
        v = c & 0x07;
    } else {
        return 0;
    }
    if (len > n)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        v = v << 6 | (s[i] & 0x3F);
    }
    if (v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF) || (len == 3 && v < 0x800) ||
        (len == 4 && v < 0x10000))
        return 0;
    return len;
}

static bool valid_utf8(const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        size_t k = utf8_seq(u + i, n - i);
        if (!k)
            return false;
        i += k;
    }
    return true;
}

/* A JSON string: quotes, backslashes and control characters escaped as jansson does,
 * the rest as it is. Text that is not valid UTF-8 has each of its non-ASCII bytes
 * replaced with U+FFFD rather than lost (the readers give valid text). */
static void str(jsonl_report *r, const char *s)
{
    bool valid = valid_utf8(s);
    add(r, "\"", 1);
    const char *run = s;
    for (const char *p = s;; p++) {
        unsigned char c = (unsigned char)*p;
        if (c >= 0x20 && c != '"' && c != '\\' && (c < 0x80 || valid))
            continue;
        add(r, run, (size_t)(p - run));
        run = p + 1;
        if (!c)
            break;
        char esc[8];
        switch (c) {
        case '"': lit(r, "\\\""); break;
        case '\\': lit(r, "\\\\"); break;
        case '\b': lit(r, "\\b"); break;
        case '\f': lit(r, "\\f"); break;
        case '\n': lit(r, "\\n"); break;
        case '\r': lit(r, "\\r"); break;
        case '\t': lit(r, "\\t"); break;
        default:
            if (c >= 0x80) {
                lit(r, "\xEF\xBF\xBD");
            } else {
                snprintf(esc, sizeof esc, "\\u%04X", c);
                lit(r, esc);
            }
        }
    }
    add(r, "\"", 1);
}

static void str_or_null(jsonl_report *r, const char *s)
{
    if (s)
        str(r, s);
    else
        lit(r, "null");
}

/* "key": (keys are the report's own ASCII names) */
static void key(jsonl_report *r, const char *k)
{
    add(r, "\"", 1);
    lit(r, k);
    add(r, "\":", 2);
}

/* line and column, or the byte offset of a binary format (XQF: line 0) */
static void span(jsonl_report *r, rec_span where)
{
    if (where.line == 0) {
        lit(r, ",\"offset\":");
        integer(r, (long long)where.offset);
        return;
    }
    lit(r, ",\"line\":");
    integer(r, (long long)where.line);
    lit(r, ",\"column\":");
    integer(r, (long long)where.column);
}

static void finding(jsonl_report *r, const rec_finding *f)
{
    lit(r, "{\"code\":");
    str(r, f->code);
    lit(r, ",\"severity\":");
    str(r, rec_severity_name(f->severity));
    span(r, f->where);
    if (f->ply != 0) {
        lit(r, ",\"ply\":");
        integer(r, (long long)f->ply);
    }
    if (f->move_text) {
        lit(r, ",\"move\":");
        str(r, f->move_text);
    }
    if (f->fen) {
        lit(r, ",\"fen\":");
        str(r, f->fen);
    }
    if (f->tag) {
        lit(r, ",\"tag\":");
        str(r, f->tag);
    }
    if (f->dup_file) {
        lit(r, ",\"duplicate_of\":{\"file\":");
        str(r, f->dup_file);
        lit(r, ",\"game\":");
        integer(r, (long long)f->dup_game);
        if (f->dup_line) {
            lit(r, ",\"line\":");
            integer(r, (long long)f->dup_line);
        }
        add(r, "}", 1);
    }
    if (f->value) {
        lit(r, ",\"value\":");
        str(r, f->value);
    }
    if (f->engine_eval) {
        lit(r, ",\"engine\":{\"eval\":");
        str(r, f->engine_eval);
        lit(r, ",\"best\":");
        str(r, f->engine_best ? f->engine_best : "");
        add(r, "}", 1);
    }
    lit(r, ",\"message\":");
    str(r, f->message);
    if (f->suggestion_count) {
        lit(r, ",\"suggestions\":[");
        for (uint32_t i = 0; i < f->suggestion_count; i++) {
            if (i)
                add(r, ",", 1);
            str(r, f->suggestions[i]);
        }
        add(r, "]", 1);
    }
    if (f->no_suggestion) {
        lit(r, ",\"no_suggestion\":");
        str(r, f->no_suggestion);
    }
    if (f->fix) {
        lit(r, ",\"fix\":[");
        for (const rec_fix *e = f->fix; e; e = e->next) {
            if (e != f->fix)
                add(r, ",", 1);
            lit(r, "{\"line\":");
            integer(r, (long long)e->where.line);
            lit(r, ",\"column\":");
            integer(r, (long long)e->where.column);
            lit(r, ",\"length\":");
            integer(r, (long long)e->length);
            lit(r, ",\"before\":");
            str(r, e->before);
            lit(r, ",\"text\":");
            str(r, e->text);
            add(r, "}", 1);
        }
        lit(r, "],\"fix_certain\":");
        lit(r, f->fix_certain ? "true" : "false");
    }
    add(r, "}", 1);
}

static bool put(jsonl_report *r)
{
    add(r, "\n", 1);
    if (fwrite(r->buf, 1, r->len, r->out) != r->len)
        r->failed = true;
    r->len = 0;
    return !r->failed;
}

/* The findings or the claims, as an array. */
static void findings(jsonl_report *r, const rec_game *g, bool claims)
{
    add(r, "[", 1);
    bool first = true;
    for (const rec_finding *f = g->findings; f; f = f->next) {
        if (f->claim != claims)
            continue;
        if (!first)
            add(r, ",", 1);
        first = false;
        finding(r, f);
    }
    add(r, "]", 1);
}

bool jsonl_report_finding_item(const rec_finding *f, char **text, size_t *len)
{
    jsonl_report r = {0};
    finding(&r, f);
    *text = r.buf;
    *len = r.len;
    return true;
}

/* The game's line, without its newline, in r->buf. */
static inline __attribute__((always_inline)) void game_line(jsonl_report *r, const rec_game *g)
{
    r->len = 0;
    lit(r, "{\"file\":");
    str(r, g->file);
    lit(r, ",\"game\":");
    r->places.game = r->len;
    integer(r, (long long)g->index);
    span(r, g->start);
    lit(r, g->kind == REC_XIANGQI ? ",\"variant\":\"xiangqi\"" : ",\"variant\":\"chess\"");
    lit(r, ",\"status\":");
    r->places.status = r->len + 1; /* after the opening quote */
    r->places.status_word = summary_game_status(g);
    str(r, r->places.status_word);
    lit(r, ",\"tags\":{");
    bool first = true;
    for (const rec_tag *t = g->tags; t; t = t->next) {
        /* the first of a repeated tag, as in YAML; a name that is not UTF-8 was never
         * a key jansson took */
        if (!valid_utf8(t->name))
            continue;
        const rec_tag *e = g->tags;
        while (e != t && strcmp(e->name, t->name) != 0)
            e = e->next;
        if (e != t)
            continue;
        if (!first)
            add(r, ",", 1);
        first = false;
        str(r, t->name);
        add(r, ":", 1);
        str(r, t->value);
    }
    lit(r, "},\"plies\":");
    integer(r, (long long)g->plies);
    lit(r, ",\"result\":{\"declared\":");
    str_or_null(r, g->result);
    lit(r, ",\"derived\":");
    str_or_null(r, g->derived_result);
    lit(r, ",\"reason\":");
    str_or_null(r, g->derived_reason);
    add(r, "}", 1);
    if (g->final_fen) {
        lit(r, ",\"final_fen\":");
        str(r, g->final_fen);
    }
    if (g->time_control_why) {
        lit(r, ",\"time_control\":{\"applied\":");
        str(r, g->time_control);
        lit(r, ",\"source\":");
        str(r, g->time_control_source);
        lit(r, ",\"why\":");
        str(r, g->time_control_why);
        add(r, "}", 1);
    }
    if (g->opening_eco) {
        lit(r, ",\"opening\":{\"eco\":");
        str(r, g->opening_eco);
        if (g->opening_name) {
            lit(r, ",\"name\":");
            str(r, g->opening_name);
        }
        if (g->opening_variation) {
            lit(r, ",\"variation\":");
            str(r, g->opening_variation);
        }
        add(r, "}", 1);
    }
    if (g->twin_keys) {
        lit(r, ",\"keys\":");
        str(r, g->twin_keys);
    }
    r->places.findings = r->len + 1; /* after the comma */
    lit(r, ",\"findings\":");
    findings(r, g, false);
    r->places.findings_empty = r->len - r->places.findings == sizeof "\"findings\":[]" - 1;
    lit(r, ",\"claims\":");
    findings(r, g, true);
    add(r, "}", 1);
}

bool jsonl_report_game(jsonl_report *r, const rec_game *g)
{
    game_line(r, g);
    return put(r);
}

bool jsonl_report_game_line(jsonl_report *r, const rec_game *g, const char **line, size_t *len)
{
    game_line(r, g);
    add(r, "\n", 1);
    *line = r->buf;
    *len = r->len;
    return true;
}

bool jsonl_report_places(const jsonl_report *r, report_places *at)
{
    *at = r->places;
    return true;
}

bool jsonl_report_summary(jsonl_report *r, const summary *s)
{
    r->len = 0;
    lit(r, "{\"summary\":{\"files\":");
    integer(r, (long long)s->files);
    lit(r, ",\"games\":");
    integer(r, (long long)s->games);
    lit(r, ",\"ok\":");
    integer(r, (long long)s->games_ok);
    lit(r, ",\"with_warnings\":");
    integer(r, (long long)s->games_with_warnings);
    lit(r, ",\"with_errors\":");
    integer(r, (long long)s->games_with_errors);
    lit(r, ",\"plies\":");
    integer(r, (long long)s->plies);
    lit(r, ",\"findings\":{\"error\":");
    integer(r, (long long)s->findings_by_severity[REC_ERROR]);
    lit(r, ",\"warning\":");
    integer(r, (long long)s->findings_by_severity[REC_WARNING]);
    lit(r, ",\"info\":");
    integer(r, (long long)s->findings_by_severity[REC_INFO]);
    lit(r, "},\"by_code\":{");
    for (int i = 0; i < s->code_count; i++) {
        if (i)
            add(r, ",", 1);
        key(r, s->codes[i].code);
        integer(r, (long long)s->codes[i].count);
    }
    add(r, "}", 1);
    if (summary_has_openings(s)) {
        lit(r, ",\"openings\":{");
        bool first_kind = true;
        for (int k = 0; k < 2; k++) {
            if (!summary_has_openings_of(s, k))
                continue;
            if (!first_kind)
                add(r, ",", 1);
            first_kind = false;
            key(r, k ? "xiangqi" : "chess");
            add(r, "{", 1);
            bool first = true;
            for (int i = 0; i < SUMMARY_OPENING_CODES; i++) {
                char code[4];
                summary_opening_code(i, code);
                if (!s->openings[k][i])
                    continue;
                if (!first)
                    add(r, ",", 1);
                first = false;
                key(r, code);
                integer(r, (long long)s->openings[k][i]);
            }
            add(r, "}", 1);
        }
        add(r, "}", 1);
    }
    lit(r, "}}");
    return put(r);
}

bool jsonl_report_close(jsonl_report *r)
{
    if (!r)
        return true;
    bool ok = !r->failed && fflush(r->out) == 0;
    free(r->buf);
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

bool jsonl_report_finding_item(const rec_finding *f, char **text, size_t *len)
{
    (void)f;
    (void)text;
    (void)len;
    return false;
}

bool jsonl_report_places(const jsonl_report *r, report_places *at)
{
    (void)r;
    (void)at;
    return false;
}

bool jsonl_report_game_line(jsonl_report *r, const rec_game *g, const char **line, size_t *len)
{
    (void)r;
    (void)g;
    (void)line;
    (void)len;
    return false;
}

bool jsonl_report_close(jsonl_report *r)
{
    (void)r;
    return true;
}

#endif
