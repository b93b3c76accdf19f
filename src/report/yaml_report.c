/* yaml_report.c: the YAML report through libyaml's emitter. */
#include <config.h>

#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "i18n/i18n.h"
#include "record/bytes8.h"
#include "record/textbuf.h"
#include "report/yaml_report.h"

/* Documents are written by a direct writer (fw_*) that produces exactly the bytes
 * libyaml's emitter would for this report's shapes: block mappings and sequences,
 * plain scalars of our own vocabulary, double-quoted strings. A document with anything
 * the direct writer does not vouch for (a plain scalar outside [A-Za-z0-9_][A-Za-z0-9_.-]*,
 * a string that is not strictly valid UTF-8) is thrown away and emitted through
 * libyaml instead, so the output is libyaml's in every case. */
/* Room for the key line of a tag of a known name: "  ", the name (11 bytes at most),
 * ": " (fw_tag_known copies the whole room as one constant-size piece). */
#define FW_KNOWN_KEY_MAX 32

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
    report_places places; /* of the last game document, when the direct writer wrote it */
    bool places_known;
    /* The last tag name of 1 to 16 bytes found plain, per rec_tag_name_bit (a name of
     * no rec_tag_id) or at 64 + its rec_tag_id, as fw_load16 loads it: a name with the
     * same bytes is not tested again (the games of a run mostly have one set of tags).
     * n 0: none yet. */
    struct fw_known_name {
        uint64_t x, y;
        size_t n;
    } names[64 + REC_TAG_KNOWN];
    /* Per rec_tag_id, the key "  Name: " as written the first time (a known id has one
     * spelling, found plain then): later tags of the id copy it as one piece, with no
     * test. n 0: none yet. */
    struct fw_known_key {
        char text[FW_KNOWN_KEY_MAX];
        size_t n;
    } keys[REC_TAG_KNOWN];
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

/* engine: {eval, best} of an engine finding, as a block mapping. */
static bool emit_engine(yaml_report *r, const rec_finding *f)
{
    if (!f->engine_eval)
        return true;
    return scalar(r, "engine", YAML_PLAIN_SCALAR_STYLE) && map_begin(r) &&
           kv_str(r, "eval", f->engine_eval) &&
           kv_str(r, "best", f->engine_best ? f->engine_best : "") && map_end(r);
}

/* duplicate_of: {file, game, line} of a twin's first copy (no line in a binary input) */
static bool emit_duplicate_of(yaml_report *r, const rec_finding *f)
{
    return scalar(r, "duplicate_of", YAML_PLAIN_SCALAR_STYLE) && map_begin(r) &&
           kv_str(r, "file", f->dup_file) && kv_uint(r, "game", f->dup_game) &&
           (f->dup_line == 0 || kv_uint(r, "line", f->dup_line)) && map_end(r);
}

static bool emit_finding(yaml_report *r, const rec_finding *f)
{
    return map_begin(r) && kv_word(r, "code", f->code) &&
           kv_word(r, "severity", rec_severity_name(f->severity)) && emit_span(r, f->where) &&
           (f->ply == 0 || kv_uint(r, "ply", (uint64_t)f->ply)) &&
           (!f->move_text || kv_str(r, "move", f->move_text)) &&
           (!f->fen || kv_str(r, "fen", f->fen)) && (!f->tag || kv_str(r, "tag", f->tag)) &&
           (!f->dup_file || emit_duplicate_of(r, f)) &&
           (!f->value || kv_str(r, "value", f->value)) && emit_engine(r, f) &&
           kv_str(r, "message", f->message) && emit_fixit(r, f) && map_end(r);
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
    if (g->opening_eco &&
        (!scalar(r, "opening", YAML_PLAIN_SCALAR_STYLE) || !map_begin(r) ||
         !kv_word(r, "eco", g->opening_eco) ||
         (g->opening_name && !kv_str(r, "name", g->opening_name)) ||
         (g->opening_variation && !kv_str(r, "variation", g->opening_variation)) ||
         !map_end(r)))
        return false;
    if (g->twin_keys && !kv_word(r, "keys", g->twin_keys))
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
    if (!map_end(r))
        return false;
    if (summary_has_openings(s)) {
        if (!scalar(r, "openings", YAML_PLAIN_SCALAR_STYLE) || !map_begin(r))
            return false;
        for (int k = 0; k < 2; k++) {
            if (!summary_has_openings_of(s, k))
                continue;
            if (!scalar(r, k ? "xiangqi" : "chess", YAML_PLAIN_SCALAR_STYLE) || !map_begin(r))
                return false;
            for (int i = 0; i < SUMMARY_OPENING_CODES; i++) {
                char code[4];
                summary_opening_code(i, code);
                if (s->openings[k][i] && !kv_uint(r, code, s->openings[k][i]))
                    return false;
            }
            if (!map_end(r))
                return false;
        }
        if (!map_end(r))
            return false;
    }
    return map_end(r) && map_end(r) && doc_end(r);
}

/* ------------------------------------------------------------------ direct writer */

/* Room for n more bytes in the document buffer: where they go. */
static inline char *fw_room(yaml_report *r, size_t n)
{
    if (n > r->cap - r->len)
        textbuf_reserve(&r->buf, &r->cap, r->len + n);
    return r->buf + r->len;
}

static inline void fw_put(yaml_report *r, const char *s, size_t n)
{
    memcpy(fw_room(r, n), s, n);
    r->len += n;
}

/* A literal piece of the document; the keys of our own vocabulary are written with
 * their indent and ": " this way, as one piece (they are plain scalars as they are). */
#define FW_LIT(r, lit) fw_put((r), (lit), sizeof(lit) - 1)

/* The bytes of a plain scalar this writer writes as is: [A-Za-z0-9_] may start it,
 * those and '-' and '.' may go on it. The table is built at compile time. */
enum { FW_PLAIN_START = 1, FW_PLAIN_ON = 2 };
#define FW_PLAIN_OF(c)                                                                 \
    ((((c) >= 'a' && (c) <= 'z') || ((c) >= 'A' && (c) <= 'Z') ||                     \
      ((c) >= '0' && (c) <= '9') || (c) == '_')                                        \
         ? FW_PLAIN_START | FW_PLAIN_ON                                                \
         : ((c) == '-' || (c) == '.') ? FW_PLAIN_ON : 0)
#define FW_PL4(c) FW_PLAIN_OF(c), FW_PLAIN_OF((c) + 1), FW_PLAIN_OF((c) + 2), \
                  FW_PLAIN_OF((c) + 3)
#define FW_PL16(c) FW_PL4(c), FW_PL4((c) + 4), FW_PL4((c) + 8), FW_PL4((c) + 12)
static const unsigned char fw_plain_class[256] = {
    FW_PL16(0x00), FW_PL16(0x10), FW_PL16(0x20), FW_PL16(0x30),
    FW_PL16(0x40), FW_PL16(0x50), FW_PL16(0x60), FW_PL16(0x70),
};

/* Whether s[0..n) is a plain scalar libyaml would also write plain, as is (a longer
 * key than 128 bytes is not a simple key for libyaml). */
static inline bool fw_plain_ok(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    if (n == 0 || n > 128 || !(fw_plain_class[u[0]] & FW_PLAIN_START))
        return false;
    unsigned all = FW_PLAIN_ON;
    for (size_t i = 1; i < n; i++)
        all &= fw_plain_class[u[i]];
    return all != 0;
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

/* The escape of code point v at o (at most 10 bytes: "\U" and eight digits); its end. */
static char *fw_escape(char *o, uint32_t v)
{
    *o++ = '\\';
    switch (v) {
    case 0x00: *o++ = '0'; break;
    case 0x07: *o++ = 'a'; break;
    case 0x08: *o++ = 'b'; break;
    case 0x09: *o++ = 't'; break;
    case 0x0A: *o++ = 'n'; break;
    case 0x0B: *o++ = 'v'; break;
    case 0x0C: *o++ = 'f'; break;
    case 0x0D: *o++ = 'r'; break;
    case 0x1B: *o++ = 'e'; break;
    case 0x22: *o++ = '"'; break;
    case 0x5C: *o++ = '\\'; break;
    case 0x85: *o++ = 'N'; break;
    case 0xA0: *o++ = '_'; break;
    case 0x2028: *o++ = 'L'; break;
    case 0x2029: *o++ = 'P'; break;
    default: {
        int width = v <= 0xFF ? 2 : v <= 0xFFFF ? 4 : 8;
        *o++ = width == 2 ? 'x' : width == 4 ? 'u' : 'U';
        for (int k = (width - 1) * 4; k >= 0; k -= 4) {
            unsigned d = (v >> k) & 0x0F;
            *o++ = (char)(d < 10 ? '0' + d : 'A' + d - 10);
        }
    }
    }
    return o;
}

/* Eight bytes at a time (bytes8.h): the bytes of w that are not dq_plain_ascii (below
 * 0x20, above 0x7E, '"' or '\'). */
static inline uint64_t fw_dq_flags(uint64_t w)
{
    return bytes8_below(w, 0x20) | bytes8_above(w, 0x7E) | bytes8_eq(w, '"') |
           bytes8_eq(w, '\\');
}

/* The last avail (< 8) bytes of a string of n bytes at u, as memcpy would load them
 * from a copy padded with blanks (plain bytes). The string's own bytes only are read:
 * the eight before its end when it has that many, else one by one. */
static inline uint64_t fw_load_tail(const unsigned char *u, size_t avail, size_t n)
{
    uint64_t w = 0;
    bool little = true;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    little = false;
#endif
    if (little && n >= 8) {
        memcpy(&w, u + avail - 8, 8);
        w >>= 8 * (8 - avail);
    } else {
        for (size_t i = 0; i < avail; i++)
            w |= (uint64_t)u[i] << (little ? 8 * i : 56 - 8 * i);
    }
    uint64_t blanks = BYTES8_ONES * ' ';
    return w | (little ? blanks << (8 * avail) : blanks >> (8 * avail));
}

/* One character at u (not dq_plain_ascii) as libyaml's emitter writes it inside
 * double quotes with unicode on, at o; *u moves past it. NULL when it is no valid
 * UTF-8 (libyaml writes that document). */
static char *fw_dq_char(char *o, const unsigned char **u)
{
    unsigned c = (*u)[0];
    if (c < 0x80) {
        (*u)++;
        return fw_escape(o, c);
    }
    uint32_t v = 0;
    size_t w = utf8_seq(*u, &v);
    if (!w)
        return NULL;
    /* libyaml's IS_PRINTABLE, IS_BOM and IS_BREAK on the sequence */
    bool printable;
    if (w == 2)
        printable = v >= 0xA0;
    else if (w == 3)
        printable = v != 0xFEFF && v != 0xFFFE && v != 0xFFFF && v != 0x2028 && v != 0x2029;
    else
        printable = false;
    if (printable) {
        memcpy(o, *u, w);
        o += w;
    } else {
        o = fw_escape(o, v);
    }
    *u += w;
    return o;
}

/* The room fw_dq needs for n bytes: no escape is longer than four times the bytes it
 * stands for, eight bytes are stored at a time, and two quotes. */
#define FW_DQ_ROOM(n) (4 * (n) + 8 + 2)

/* Whether none of the bytes of x and y needs an escape inside double quotes (all are
 * dq_plain_ascii): sixteen bytes in one SSE2 test (a signed compare takes the bytes
 * >= 0x80 with those below 0x20), else two bytes8 tests. */
static inline bool fw_dq_plain16(uint64_t x, uint64_t y)
{
#if defined(__SSE2__)
    __m128i v = _mm_set_epi64x((long long)y, (long long)x);
    __m128i stop = _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)),
                                _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7F)));
    stop = _mm_or_si128(stop, _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                                           _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
    return _mm_movemask_epi8(stop) == 0;
#else
    return !(fw_dq_flags(x) | fw_dq_flags(y));
#endif
}

/* The 1 to 16 bytes at u as two words x and y that may overlap (n >= 8: the first and
 * the last eight; n >= 4: the first and the last four, padded with blanks; fewer: the
 * first, middle and last byte in x and y), reading only bytes of u. */
static inline void fw_load16(const unsigned char *u, size_t n, uint64_t *x, uint64_t *y)
{
    if (n >= 8) {
        *x = bytes8_load(u);
        *y = bytes8_load(u + n - 8);
    } else if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, u, 4);
        memcpy(&b, u + n - 4, 4);
        *x = a | (BYTES8_ONES * ' ' << 32);
        *y = b | (BYTES8_ONES * ' ' << 32);
    } else {
        *x = u[0] | (uint64_t)u[n / 2] << 8 | (uint64_t)u[n - 1] << 16 |
             (BYTES8_ONES * ' ' << 24);
        *y = *x;
    }
}

/* The n bytes fw_load16 loaded as x and y, at o. */
static inline void fw_store16(char *o, size_t n, uint64_t x, uint64_t y)
{
    if (n >= 8) {
        memcpy(o, &x, 8);
        memcpy(o + n - 8, &y, 8);
    } else if (n >= 4) {
        uint32_t a = (uint32_t)x, b = (uint32_t)y;
        memcpy(o, &a, 4);
        memcpy(o + n - 4, &b, 4);
    } else {
        o[0] = (char)(x & 0xFF);
        o[n / 2] = (char)((x >> 8) & 0xFF);
        o[n - 1] = (char)((x >> 16) & 0xFF);
    }
}

/* s[0..n), 1 to 16 bytes, double-quoted at o when no byte needs an escape (most tag
 * values: dates, rounds, names, results): two loads tested at once and stored as they
 * are, no loop. The end, or NULL when a byte needs more (fw_dq's loop writes it then). */
static inline char *fw_dq_short(char *o, const unsigned char *u, size_t n)
{
    uint64_t x, y;
    fw_load16(u, n, &x, &y);
    if (!fw_dq_plain16(x, y))
        return NULL;
    o[0] = '"';
    fw_store16(o + 1, n, x, y);
    o[n + 1] = '"';
    return o + n + 2;
}

#if defined(__SSE2__)
/* The bytes of p[0..16) that are not dq_plain_ascii, bit i for byte i (a signed compare
 * takes the bytes >= 0x80 with those below 0x20). */
static inline unsigned fw_dq_stops16(const unsigned char *p)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i stop = _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)),
                                _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7F)));
    stop = _mm_or_si128(stop, _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                                           _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
    return (unsigned)_mm_movemask_epi8(stop);
}
#endif

/* s[0..n) double-quoted at o (FW_DQ_ROOM(n) bytes), escaped as libyaml's emitter does
 * with unicode on and no line width: the end, or NULL when libyaml has to write it.
 * Runs of plain ASCII go sixteen bytes at a time, then eight; the last few bytes are
 * tested padded with blanks. Out of line: fw_dq_fast writes most strings. */
static __attribute__((noinline)) char *fw_dq(char *o, const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s, *end = u + n;
    *o++ = '"';
    while (u < end) {
        uint64_t w;
        size_t avail = (size_t)(end - u);
        if (avail >= 16) {
            /* sixteen at a time while they last (a FEN, a message, a long Site) */
            size_t k = bytes16_first_stop((const char *)u, '"', '\\');
            memcpy(o, u, 16);
            o += k;
            u += k;
            if (k < 16 && !(o = fw_dq_char(o, &u)))
                return NULL;
            continue;
        }
#if defined(__SSE2__)
        if (n >= 16) {
            /* the last sixteen bytes of the string, one test for the bytes left (the
             * first 16 - avail are written already) */
            unsigned m = fw_dq_stops16(end - 16) >> (16 - avail);
            size_t k = m ? (size_t)__builtin_ctz(m) : avail;
            bytes8_copy_short(o, (const char *)u, avail);
            o += k;
            u += k;
            if (k == avail)
                break;
            if (!(o = fw_dq_char(o, &u)))
                return NULL;
            continue;
        }
#endif
        if (avail >= 8)
            w = bytes8_load(u);
        else
            w = fw_load_tail(u, avail, n);
        uint64_t flags = fw_dq_flags(w);
        size_t k = flags ? bytes8_first(flags) : 8;
        memcpy(o, &w, 8);
        if (k >= avail) {   /* the rest is plain */
            o += avail;
            break;
        }
        o += k;
        u += k;
        if (k == 8)
            continue;
        if (!(o = fw_dq_char(o, &u)))
            return NULL;
    }
    *o++ = '"';
    return o;
}

/* fw_dq, with the short strings that need no escape written inline (a call and the
 * loop cost more than the test of their bytes). */
static inline char *fw_dq_fast(char *o, const char *s, size_t n)
{
    if (n - 1 < 16) {   /* 1 to 16 bytes */
        char *done = fw_dq_short(o, (const unsigned char *)s, n);
        if (done)
            return done;
    }
    return fw_dq(o, s, n);
}

/* key (a literal with its indent and ": ") and a double-quoted value, as one piece. */
#define FW_KV_STR(r, key, value) fw_kv_str_lit((r), (key), sizeof(key) - 1, (value))
static inline __attribute__((always_inline)) void fw_kv_str_lit(yaml_report *r, const char *key,
                                                                size_t kn, const char *value)
{
    size_t n = strlen(value);
    char *const o0 = fw_room(r, kn + FW_DQ_ROOM(n) + 1);
    memcpy(o0, key, kn);
    char *o = fw_dq_fast(o0 + kn, value, n);
    if (!o) {
        r->bail = true;
        return;
    }
    *o++ = '\n';
    r->len += (size_t)(o - o0);
}

/* A tag: its name (n bytes, a plain scalar from a record) as a key at indent 2 and its
 * value double-quoted, as one piece; slot: its place in r->names. */
static void fw_tag(yaml_report *r, const char *name, size_t n, unsigned slot, const char *value,
                   size_t vn)
{
    uint64_t x = 0, y = 0;
    bool is_short = n - 1 < 16;
    if (is_short) {
        /* the name written last in this slot, known plain, or tested now */
        fw_load16((const unsigned char *)name, n, &x, &y);
        struct fw_known_name *k = &r->names[slot];
        if (k->n != n || k->x != x || k->y != y) {
            if (!fw_plain_ok(name, n)) {
                r->bail = true;
                return;
            }
            *k = (struct fw_known_name){x, y, n};
        }
    } else if (!fw_plain_ok(name, n)) {
        r->bail = true;
        return;
    }
    char *const o0 = fw_room(r, 2 + n + 2 + FW_DQ_ROOM(vn) + 1);
    o0[0] = o0[1] = ' ';
    if (is_short)
        fw_store16(o0 + 2, n, x, y);
    else
        memcpy(o0 + 2, name, n);
    o0[2 + n] = ':';
    o0[3 + n] = ' ';
    char *o = fw_dq_fast(o0 + 4 + n, value, vn);
    if (!o) {
        r->bail = true;
        return;
    }
    *o++ = '\n';
    r->len += (size_t)(o - o0);
}

/* A tag of a known name (its rec_tag_id): as fw_tag writes it, its key copied from
 * r->keys (fw_tag writes it there the first time). */
static void fw_tag_known(yaml_report *r, const rec_tag *t)
{
    const struct fw_known_key *k = &r->keys[t->id];
    if (k->n == 0) {
        size_t at = r->len;
        fw_tag(r, t->name, t->name_len, 64 + t->id, t->value, t->value_len);
        size_t kn = 2 + t->name_len + 2;
        if (!r->bail && kn <= FW_KNOWN_KEY_MAX) {
            struct fw_known_key *w = &r->keys[t->id];
            memcpy(w->text, r->buf + at, kn);
            w->n = kn;
        }
        return;
    }
    size_t vn = t->value_len;
    char *const o0 = fw_room(r, FW_KNOWN_KEY_MAX + FW_DQ_ROOM(vn) + 1);
    memcpy(o0, k->text, FW_KNOWN_KEY_MAX);
    char *o = fw_dq_fast(o0 + k->n, t->value, vn);
    if (!o) {
        r->bail = true;
        return;
    }
    *o++ = '\n';
    r->len += (size_t)(o - o0);
}

/* "key: " at indent, the key a plain scalar from a record of n bytes. */
static void fw_key(yaml_report *r, int indent, const char *key, size_t n)
{
    if (!fw_plain_ok(key, n)) {
        r->bail = true;
        return;
    }
    char *o = fw_room(r, (size_t)indent + n + 2);
    memset(o, ' ', (size_t)indent);
    memcpy(o + indent, key, n);
    memcpy(o + indent + n, ": ", 2);
    r->len += (size_t)indent + n + 2;
}

/* "00" to "99", for two digits at a time. */
#define FW_D10(t) #t "0" #t "1" #t "2" #t "3" #t "4" #t "5" #t "6" #t "7" #t "8" #t "9"
static const char fw_digit_pairs[] = FW_D10(0) FW_D10(1) FW_D10(2) FW_D10(3) FW_D10(4)
    FW_D10(5) FW_D10(6) FW_D10(7) FW_D10(8) FW_D10(9);
#undef FW_D10

#define FW_KV_UINT(r, key, value) fw_kv_uint_lit((r), (key), sizeof(key) - 1, (value))
/* Inlined, so that the key's length is a constant: its copy is a few moves, not a
 * call, and the line takes one fw_room. */
static inline __attribute__((always_inline)) void fw_kv_uint_lit(yaml_report *r, const char *key,
                                                                 size_t n, uint64_t value)
{
    /* the digits and the newline end at tmp[25) and go as 24 bytes from their first:
     * a copy of a constant length (at most 20 digits, so the first is at 4 or later) */
    char tmp[48] = {0};
    size_t i = 24;
    tmp[24] = '\n';
    /* two digits a division (a line, a column, a ply count: two to four digits) */
    while (value >= 100) {
        unsigned d = (unsigned)(value % 100);
        value /= 100;
        i -= 2;
        memcpy(tmp + i, fw_digit_pairs + 2 * d, 2);
    }
    if (value >= 10) {
        i -= 2;
        memcpy(tmp + i, fw_digit_pairs + 2 * value, 2);
    } else {
        tmp[--i] = (char)('0' + value);
    }
    char *o = fw_room(r, n + 24);
    memcpy(o, key, n);
    memcpy(o + n, tmp + i, 24);
    r->len += n + 25 - i;
}

/* key (a literal) and a plain word of our own vocabulary, or null. */
#define FW_KV_WORD(r, key, word) fw_kv_word_lit((r), (key), sizeof(key) - 1, (word))
static inline __attribute__((always_inline)) void fw_kv_word_lit(yaml_report *r, const char *key,
                                                                 size_t n, const char *word)
{
    if (!word)
        word = "null";
    size_t wn = strlen(word);
    if (!fw_plain_ok(word, wn)) {
        r->bail = true;
        return;
    }
    char *o = fw_room(r, n + wn + 1);
    memcpy(o, key, n);
    if (wn <= 16)
        bytes8_copy_short(o + n, word, wn);   /* wn >= 1: fw_plain_ok */
    else
        memcpy(o + n, word, wn);
    o[n + wn] = '\n';
    r->len += n + wn + 1;
}

#define FW_KV_STR_OR_NULL(r, key, value)                                        \
    ((value) ? FW_KV_STR((r), key, (value)) : FW_KV_WORD((r), key, NULL))

/* line and column, or the byte offset of a binary format (line 0), as emit_span; the
 * keys at indent 0 or 2. */
static void fw_span(yaml_report *r, bool indented, rec_span where)
{
    if (where.line == 0) {
        if (indented)
            FW_KV_UINT(r, "  offset: ", where.offset);
        else
            FW_KV_UINT(r, "offset: ", where.offset);
        return;
    }
    if (indented) {
        FW_KV_UINT(r, "  line: ", where.line);
        FW_KV_UINT(r, "  column: ", where.column);
    } else {
        FW_KV_UINT(r, "line: ", where.line);
        FW_KV_UINT(r, "column: ", where.column);
    }
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
    bool any = false;
    for (const rec_finding *f = g->findings; f && !any; f = f->next)
        any = f->claim == claims;
    if (!any) {
        if (claims)
            FW_LIT(r, "claims: []\n");
        else
            FW_LIT(r, "findings: []\n");
        return;
    }
    if (claims)
        FW_LIT(r, "claims:\n");
    else
        FW_LIT(r, "findings:\n");
    for (const rec_finding *f = g->findings; f; f = f->next) {
        if (f->claim != claims)
            continue;
        if (f->fix) {
            r->bail = true; /* rare (errors only): libyaml writes these documents */
            return;
        }
        FW_KV_WORD(r, "- code: ", f->code);
        FW_KV_WORD(r, "  severity: ", rec_severity_name(f->severity));
        fw_span(r, true, f->where);
        if (f->ply != 0)
            FW_KV_UINT(r, "  ply: ", (uint64_t)f->ply);
        if (f->move_text)
            FW_KV_STR(r, "  move: ", f->move_text);
        if (f->fen)
            FW_KV_STR(r, "  fen: ", f->fen);
        if (f->tag)
            FW_KV_STR(r, "  tag: ", f->tag);
        if (f->dup_file) {
            FW_LIT(r, "  duplicate_of:\n");
            FW_KV_STR(r, "    file: ", f->dup_file);
            FW_KV_UINT(r, "    game: ", f->dup_game);
            if (f->dup_line)
                FW_KV_UINT(r, "    line: ", (uint64_t)f->dup_line);
        }
        if (f->value)
            FW_KV_STR(r, "  value: ", f->value);
        if (f->engine_eval) {
            FW_KV_STR(r, "  engine:\n    eval: ", f->engine_eval);
            FW_KV_STR(r, "    best: ", f->engine_best ? f->engine_best : "");
        }
        FW_KV_STR(r, "  message: ", f->message);
        /* suggestions as emit_fixit writes them (name-variant has one a finding): a
         * block sequence at the key's indentation, double-quoted items */
        if (f->suggestion_count) {
            FW_LIT(r, "  suggestions:\n");
            for (uint32_t i = 0; i < f->suggestion_count; i++)
                FW_KV_STR(r, "  - ", f->suggestions[i]);
        }
        if (f->no_suggestion)
            FW_KV_STR(r, "  no_suggestion: ", f->no_suggestion);
    }
}

/* The tags of a game; a repeated tag name would make a duplicate key, so its later
 * copies (reported by the reader) are left out. */
static void fw_tags(yaml_report *r, const rec_game *g)
{
    if (!g->tags) {
        FW_LIT(r, "tags: {}\n");
        return;
    }
    FW_LIT(r, "tags:\n");
    uint64_t seen = 0;   /* rec_tag_name_bit of the names of no id so far */
    for (const rec_tag *t = g->tags; t; t = t->next) {
        if (t->id < REC_TAG_KNOWN) {
            /* a known name: the record knows whether it is repeated and its first */
            if (!(g->tag_repeated >> t->id & 1) || g->tag_first[t->id] == t)
                fw_tag_known(r, t);
            continue;
        }
        size_t n = t->name_len;
        unsigned slot = rec_tag_name_bit(t->name, n);
        uint64_t bit = 1ull << slot;
        if (seen & bit) {
            const rec_tag *first = g->tags;
            while (first != t && strcmp(first->name, t->name) != 0)
                first = first->next;
            if (first != t)
                continue;
        }
        seen |= bit;
        fw_tag(r, t->name, n, slot, t->value, t->value_len);
    }
}

/* Inlined into both of its callers: yaml_report_game (-j1) stays as it was. */
static inline __attribute__((always_inline)) void fw_game(yaml_report *r, const rec_game *g)
{
    r->len = 0;
    r->bail = false;
    FW_LIT(r, "---\n");
    FW_KV_STR(r, "file: ", g->file);
    r->places.game = r->len + sizeof "game: " - 1;
    FW_KV_UINT(r, "game: ", g->index);
    fw_span(r, false, g->start);
    if (g->kind == REC_XIANGQI)
        FW_LIT(r, "variant: xiangqi\n");
    else
        FW_LIT(r, "variant: chess\n");
    r->places.status = r->len + sizeof "status: " - 1;
    r->places.status_word = summary_game_status(g);
    FW_KV_WORD(r, "status: ", r->places.status_word);
    fw_tags(r, g);
    FW_KV_UINT(r, "plies: ", g->plies);
    FW_LIT(r, "result:\n");
    FW_KV_STR_OR_NULL(r, "  declared: ", g->result);
    FW_KV_STR_OR_NULL(r, "  derived: ", g->derived_result);
    FW_KV_STR_OR_NULL(r, "  reason: ", g->derived_reason);
    if (g->final_fen)
        FW_KV_STR(r, "final_fen: ", g->final_fen);
    if (g->time_control_why) {
        FW_LIT(r, "time_control:\n");
        FW_KV_WORD(r, "  applied: ", g->time_control);
        FW_KV_WORD(r, "  source: ", g->time_control_source);
        FW_KV_STR(r, "  why: ", g->time_control_why);
    }
    if (g->opening_eco) {
        FW_LIT(r, "opening:\n");
        FW_KV_WORD(r, "  eco: ", g->opening_eco);
        if (g->opening_name)
            FW_KV_STR(r, "  name: ", g->opening_name);
        if (g->opening_variation)
            FW_KV_STR(r, "  variation: ", g->opening_variation);
    }
    if (g->twin_keys)
        FW_KV_WORD(r, "keys: ", g->twin_keys);
    r->places.findings = r->len - 1; /* the line before ends in a newline */
    fw_findings(r, g, false);
    r->places.findings_empty = r->len - r->places.findings == sizeof "\nfindings: []\n" - 1;
    fw_findings(r, g, true);
}

static void fw_summary(yaml_report *r, const summary *s)
{
    r->len = 0;
    r->bail = false;
    FW_LIT(r, "---\nsummary:\n");
    FW_KV_UINT(r, "  files: ", s->files);
    FW_KV_UINT(r, "  games: ", s->games);
    FW_KV_UINT(r, "  ok: ", s->games_ok);
    FW_KV_UINT(r, "  with_warnings: ", s->games_with_warnings);
    FW_KV_UINT(r, "  with_errors: ", s->games_with_errors);
    FW_KV_UINT(r, "  plies: ", s->plies);
    FW_LIT(r, "  findings:\n");
    FW_KV_UINT(r, "    error: ", s->findings_by_severity[REC_ERROR]);
    FW_KV_UINT(r, "    warning: ", s->findings_by_severity[REC_WARNING]);
    FW_KV_UINT(r, "    info: ", s->findings_by_severity[REC_INFO]);
    if (s->code_count == 0) {
        FW_LIT(r, "  by_code: {}\n");
    } else {
        FW_LIT(r, "  by_code:\n");
        for (int i = 0; i < s->code_count; i++) {
            fw_key(r, 4, s->codes[i].code, strlen(s->codes[i].code));
            fw_uint(r, s->codes[i].count);
            fw_put(r, "\n", 1);
        }
    }
    if (!summary_has_openings(s))
        return;
    FW_LIT(r, "  openings:\n");
    for (int k = 0; k < 2; k++) {
        if (!summary_has_openings_of(s, k))
            continue;
        if (k)
            FW_LIT(r, "    xiangqi:\n");
        else
            FW_LIT(r, "    chess:\n");
        for (int i = 0; i < SUMMARY_OPENING_CODES; i++) {
            char code[4];
            summary_opening_code(i, code);
            if (!s->openings[k][i])
                continue;
            fw_key(r, 6, code, 3);
            fw_uint(r, s->openings[k][i]);
            fw_put(r, "\n", 1);
        }
    }
}

bool yaml_report_game(yaml_report *r, const rec_game *g)
{
    if (r->failed)
        return false;
    fw_game(r, g);
    r->places_known = fw_commit(r);
    if (r->places_known)
        return !r->failed;
    return lib_game(r, g);
}

bool yaml_report_game_doc(yaml_report *r, const rec_game *g, const char **doc, size_t *len)
{
    if (r->failed)
        return false;
    fw_game(r, g);
    r->places_known = !r->bail && !r->libyaml_only;
    *doc = r->buf;
    *len = r->len;
    return r->places_known;
}

bool yaml_report_places(const yaml_report *r, report_places *at)
{
    if (r->places_known)
        *at = r->places;
    return r->places_known;
}

/* ARBITER_YAML_EMITTER=libyaml, read once (an item is asked for a game at a time). */
static pthread_once_t libyaml_once = PTHREAD_ONCE_INIT;
static bool libyaml_asked;

static void libyaml_read_env(void)
{
    const char *emitter = getenv("ARBITER_YAML_EMITTER");
    libyaml_asked = emitter && strcmp(emitter, "libyaml") == 0;
}

bool yaml_report_finding_item(const rec_finding *f, char **text, size_t *len)
{
    pthread_once(&libyaml_once, libyaml_read_env);
    if (libyaml_asked)
        return false;
    /* the list of a game holding F alone, without its "findings:\n" line */
    rec_finding copy = *f;
    copy.next = NULL;
    rec_game g;
    memset(&g, 0, sizeof g);
    g.findings = &copy;
    yaml_report r;
    memset(&r, 0, sizeof r); /* the direct writer's buffer only: no emitter, no stream */
    fw_findings(&r, &g, false);
    const size_t key = sizeof "findings:\n" - 1;
    if (r.bail || f->claim || r.len < key) {
        free(r.buf);
        return false;
    }
    memmove(r.buf, r.buf + key, r.len - key);
    *text = r.buf;
    *len = r.len - key;
    return true;
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
