/* cli_summary.c: "arbiter summary", the summaries of several check reports as one. */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_JANSSON
#include <jansson.h>
#endif

#include "cli/cli.h"
#include "i18n/i18n.h"
#include "database/db_twins.h"
#include "report/jsonl_report.h"
#include "report/summary.h"
#include "report/yaml_report.h"

static const char summary_usage[] = N_(
    "Usage: arbiter summary [OPTIONS] REPORT...\n"
    "Merge the summary documents of check reports (YAML or JSON Lines, as written by\n"
    "'arbiter check', one or more per file) into one summary: counts are added up.\n"
    "Used to put together the reports of a split input checked in parts; with the\n"
    "games' keys in the reports (check --keys) a twins document lists the twins across\n"
    "all of them, each naming the first copy in the reports' order.\n"
    "\n"
    "      --report FORMAT yaml (default) or jsonl\n"
    "  -o, --output FILE   write to FILE instead of stdout\n"
    "  -h, --help          show this help\n"
    "\n"
    "Exit status: 0 no game has errors, 1 some game has errors, 2 usage or I/O failure\n"
    "(a report without a summary is an error).\n");

enum { OPT_REPORT = 256 };

/* Code names read from reports: they must outlive the summary. */
typedef struct names {
    char **v;
    size_t n, cap;
} names;

static const char *intern(names *ns, const char *s, size_t len)
{
    for (size_t i = 0; i < ns->n; i++)
        if (strlen(ns->v[i]) == len && memcmp(ns->v[i], s, len) == 0)
            return ns->v[i];
    if (ns->n == ns->cap) {
        ns->cap = ns->cap ? ns->cap * 2 : 32;
        char **grown = realloc(ns->v, ns->cap * sizeof *grown);
        if (!grown)
            return NULL;
        ns->v = grown;
    }
    char *copy = strndup(s, len);
    if (!copy)
        return NULL;
    ns->v[ns->n++] = copy;
    return copy;
}

/* "key: number" at indent; false when the line is not that. */
static bool yaml_kv(const char *line, int indent, char *key, size_t keysize, uint64_t *value)
{
    for (int i = 0; i < indent; i++)
        if (line[i] != ' ')
            return false;
    const char *k = line + indent;
    if (*k == ' ')
        return false;
    const char *colon = strstr(k, ": ");
    const char *bare = strchr(k, ':');
    if (!bare)
        return false;
    size_t klen = (size_t)(bare - k);
    if (klen == 0 || klen >= keysize)
        return false;
    memcpy(key, k, klen);
    key[klen] = '\0';
    if (!colon || colon != bare) {
        *value = 0;
        return true; /* "findings:" opens a mapping */
    }
    const char *v = colon + 2;
    *value = strtoull(v, NULL, 10);
    return true;
}

/* The summary documents of a YAML report ("summary:" at the top of a document). */
static int read_yaml(FILE *f, summary *total, names *ns)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int found = 0;
    bool in = false;
    int section = 0; /* 0 the summary map, 1 findings, 2 by_code, 3 openings */
    rec_game_kind opening_kind = REC_CHESS;
    summary s;
    while ((n = getline(&line, &cap, f)) != -1) {
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = '\0';
        if (!in) {
            if (strcmp(line, "summary:") == 0) {
                in = true;
                section = 0;
                summary_init(&s);
            }
            continue;
        }
        char key[128];
        uint64_t v;
        if (section == 3 && yaml_kv(line, 6, key, sizeof key, &v)) {
            summary_add_opening(&s, opening_kind, key, v);
            continue;
        }
        if (section == 3 && yaml_kv(line, 4, key, sizeof key, &v)) {
            opening_kind = strcmp(key, "xiangqi") == 0 ? REC_XIANGQI : REC_CHESS;
            continue;
        }
        if (yaml_kv(line, 4, key, sizeof key, &v) && section) {
            if (section == 1) {
                if (strcmp(key, "error") == 0)
                    s.findings_by_severity[REC_ERROR] = v;
                else if (strcmp(key, "warning") == 0)
                    s.findings_by_severity[REC_WARNING] = v;
                else if (strcmp(key, "info") == 0)
                    s.findings_by_severity[REC_INFO] = v;
            } else {
                const char *code = intern(ns, key, strlen(key));
                if (code)
                    summary_add_code(&s, code, v);
            }
            continue;
        }
        if (yaml_kv(line, 2, key, sizeof key, &v)) {
            section = 0;
            if (strcmp(key, "files") == 0) s.files = v;
            else if (strcmp(key, "games") == 0) s.games = v;
            else if (strcmp(key, "ok") == 0) s.games_ok = v;
            else if (strcmp(key, "with_warnings") == 0) s.games_with_warnings = v;
            else if (strcmp(key, "with_errors") == 0) s.games_with_errors = v;
            else if (strcmp(key, "plies") == 0) s.plies = v;
            /* "seconds" (reports before timing moved to --timing) is ignored */
            else if (strcmp(key, "findings") == 0) section = 1;
            else if (strcmp(key, "by_code") == 0) section = 2;
            else if (strcmp(key, "openings") == 0) section = 3;
            continue;
        }
        /* the end of the summary document */
        summary_merge(total, &s);
        found++;
        in = strcmp(line, "summary:") == 0;
        if (in)
            summary_init(&s);
    }
    if (in) {
        summary_merge(total, &s);
        found++;
    }
    free(line);
    return found;
}

#ifdef HAVE_JANSSON
static uint64_t jnum(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_integer(v) ? (uint64_t)json_integer_value(v) : 0;
}

/* The summary objects of a JSON Lines report; -1 when a line is not JSON. */
static int read_jsonl(FILE *f, summary *total, names *ns, const char *path)
{
    char *line = NULL;
    size_t cap = 0;
    int found = 0;
    while (getline(&line, &cap, f) != -1) {
        if (strncmp(line, "{\"summary\":", 11) != 0)
            continue;
        json_error_t jerr;
        json_t *o = json_loads(line, 0, &jerr);
        json_t *m = o ? json_object_get(o, "summary") : NULL;
        if (!json_is_object(m)) {
            cli_error(_("summary: %s: a summary line that is not JSON: %s"), path, jerr.text);
            json_decref(o);
            free(line);
            return -1;
        }
        summary s;
        summary_init(&s);
        s.files = jnum(m, "files");
        s.games = jnum(m, "games");
        s.games_ok = jnum(m, "ok");
        s.games_with_warnings = jnum(m, "with_warnings");
        s.games_with_errors = jnum(m, "with_errors");
        s.plies = jnum(m, "plies");
        json_t *fs = json_object_get(m, "findings");
        s.findings_by_severity[REC_ERROR] = jnum(fs, "error");
        s.findings_by_severity[REC_WARNING] = jnum(fs, "warning");
        s.findings_by_severity[REC_INFO] = jnum(fs, "info");
        const char *key;
        json_t *value;
        json_object_foreach(json_object_get(m, "by_code"), key, value) {
            const char *code = intern(ns, key, strlen(key));
            if (code && json_is_integer(value))
                summary_add_code(&s, code, (uint64_t)json_integer_value(value));
        }
        json_t *openings = json_object_get(m, "openings");
        for (int k = 0; k < 2; k++)
            json_object_foreach(json_object_get(openings, k ? "xiangqi" : "chess"), key, value)
                if (json_is_integer(value))
                    summary_add_opening(&s, k ? REC_XIANGQI : REC_CHESS, key,
                                        (uint64_t)json_integer_value(value));
        summary_merge(total, &s);
        found++;
        json_decref(o);
    }
    free(line);
    return found;
}
#endif

/* ------------------------------------------------------------------ twins across parts */

/* The game being read: its file (as quoted in the report), number, line and keys. */
typedef struct twin_doc {
    char file[1024];
    uint64_t game;
    uint32_t line;
    bool has_keys, has_line;
    db_keys keys;
} twin_doc;

/* The text of a quoted value at s ("..." with \" and \\ escapes), unquoted, into out. */
static void unquote(const char *s, char *out, size_t size)
{
    size_t o = 0;
    if (*s == '"')
        s++;
    for (; *s && *s != '"' && o + 1 < size; s++) {
        if (*s == '\\' && s[1])
            s++;
        out[o++] = *s;
    }
    out[o] = '\0';
}

static void put_quoted(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

/* Settle one game of the reports in their order; a twin goes to the list. */
static void twin_settle(db_twins *t, twin_doc *d, FILE *list, bool jsonl, uint64_t *count)
{
    if (!d->has_keys)
        return;
    d->keys.line = d->line;
    db_twin tw;
    if (db_twins_settle(t, &d->keys, d->file, d->game, false, &tw) == DB_TWIN_NONE)
        return;
    if (jsonl) {
        /* a game of a binary input (XQF, CCBridge) has no line: none is written */
        fprintf(list, "%s{\"code\":\"%s\",\"file\":", (*count)++ ? "," : "", db_twin_code(tw.kind));
        put_quoted(list, d->file);
        fprintf(list, ",\"game\":%llu", (unsigned long long)d->game);
        if (d->line)
            fprintf(list, ",\"line\":%u", d->line);
        fputs(",\"duplicate_of\":{\"file\":", list);
        put_quoted(list, tw.file);
        fprintf(list, ",\"game\":%llu", (unsigned long long)tw.game);
        if (tw.line)
            fprintf(list, ",\"line\":%u", tw.line);
        fputs("}}", list);
        return;
    }
    (*count)++;
    fprintf(list, "- code: %s\n  file: ", db_twin_code(tw.kind));
    put_quoted(list, d->file);
    fprintf(list, "\n  game: %llu\n", (unsigned long long)d->game);
    if (d->line)
        fprintf(list, "  line: %u\n", d->line);
    fputs("  duplicate_of:\n    file: ", list);
    put_quoted(list, tw.file);
    fprintf(list, "\n    game: %llu\n", (unsigned long long)tw.game);
    if (tw.line)
        fprintf(list, "    line: %u\n", tw.line);
}

/* The games of a report with their keys (check --keys), settled in order. */
static void twins_scan(FILE *f, db_twins *t, FILE *list, bool out_jsonl, uint64_t *count)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    twin_doc d = {0};
    while ((n = getline(&line, &cap, f)) != -1) {
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = '\0';
        if (line[0] == '{') {
            /* JSON Lines: one game a line; the keys come after the game's own fields */
            const char *k = strstr(line, ",\"keys\":\"");
            const char *fi = strncmp(line, "{\"file\":", 8) == 0 ? line + 8 : NULL;
            const char *g = strstr(line, ",\"game\":");
            const char *l = g ? strstr(g, ",\"line\":") : NULL;
            if (!k || !fi || !g || k < g)
                continue;
            memset(&d, 0, sizeof d);
            unquote(fi, d.file, sizeof d.file);
            d.game = strtoull(g + 8, NULL, 10);
            /* the game's line, before its keys (a binary input's game has an offset
             * instead, and a "line" after the keys is a finding's) */
            if (l && l < k)
                d.line = (uint32_t)strtoul(l + 8, NULL, 10);
            d.has_keys = db_keys_parse(k + 9, &d.keys);
            twin_settle(t, &d, list, out_jsonl, count);
            d.has_keys = false;     /* settled: not again at the end of the report */
            continue;
        }
        if (strcmp(line, "---") == 0) {
            twin_settle(t, &d, list, out_jsonl, count);
            memset(&d, 0, sizeof d);
        } else if (strncmp(line, "file: ", 6) == 0) {
            unquote(line + 6, d.file, sizeof d.file);
        } else if (strncmp(line, "game: ", 6) == 0) {
            d.game = strtoull(line + 6, NULL, 10);
        } else if (strncmp(line, "line: ", 6) == 0 && !d.has_line) {
            d.line = (uint32_t)strtoul(line + 6, NULL, 10);
            d.has_line = true;
        } else if (strncmp(line, "keys: ", 6) == 0) {
            d.has_keys = db_keys_parse(line + 6, &d.keys);
        }
    }
    twin_settle(t, &d, list, out_jsonl, count);
    free(line);
}

int cli_summary(int argc, char **argv)
{
    static const struct option options[] = {
        {"report", required_argument, NULL, OPT_REPORT},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    bool jsonl = false;
    const char *output = NULL;
    int opt;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":o:h", options, NULL)) != -1) {
        switch (opt) {
        case OPT_REPORT:
            if (strcmp(optarg, "jsonl") == 0 && jsonl_report_available())
                jsonl = true;
            else if (strcmp(optarg, "yaml") == 0)
                jsonl = false;
            else {
                cli_error(_("summary: --report takes yaml or jsonl%s, not '%s'"),
                          jsonl_report_available() ? "" : _(" (jsonl: a build with jansson)"),
                          optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case 'o': output = optarg; break;
        case 'h': fputs(_(summary_usage), stdout); return CLI_EXIT_OK;
        case ':':
            cli_error(_("summary: option '%s' needs a value"), argv[optind - 1]);
            return CLI_EXIT_USAGE;
        default:
            cli_error(_("summary: unknown option '%s' (try 'arbiter summary --help')"),
                      argv[optind - 1]);
            return CLI_EXIT_USAGE;
        }
    }
    if (optind >= argc) {
        cli_error(_("summary: give the reports to merge (try 'arbiter summary --help')"));
        return CLI_EXIT_USAGE;
    }
    summary total;
    summary_init(&total);
    names ns = {0};
    bool failed = false;
    /* the twins across the reports (games with keys), in the reports' order */
    db_twins *twins = db_twins_new(DB_TWINS_MIN_PLIES);
    char *list_text = NULL;
    size_t list_len = 0;
    uint64_t twin_count = 0;
    FILE *list = open_memstream(&list_text, &list_len);
    for (int i = optind; i < argc; i++) {
        bool is_stdin = strcmp(argv[i], "-") == 0;
        FILE *f = is_stdin ? stdin : fopen(argv[i], "r");
        if (!f) {
            cli_error(_("summary: %s: %s"), argv[i], strerror(errno));
            failed = true;
            continue;
        }
        /* JSON Lines when the first byte opens an object */
        int c = getc(f);
        if (c != EOF)
            ungetc(c, f);
        int found;
        if (c == '{') {
#ifdef HAVE_JANSSON
            found = read_jsonl(f, &total, &ns, argv[i]);
#else
            cli_error(_("summary: %s: a JSON Lines report needs a build with jansson"), argv[i]);
            found = -1;
#endif
        } else {
            found = read_yaml(f, &total, &ns);
        }
        if (found == 0)
            cli_error(_("summary: %s: no summary in this report (was the check cut short?)"),
                      argv[i]);
        if (found <= 0)
            failed = true;
        if (!is_stdin && list && fseek(f, 0, SEEK_SET) == 0)
            twins_scan(f, twins, list, jsonl, &twin_count);
        if (!is_stdin)
            fclose(f);
    }
    FILE *out = stdout;
    if (output && !(out = fopen(output, "w"))) {
        cli_error("%s: %s", output, strerror(errno));
        failed = true;
    }
    bool ok = out != NULL;
    if (list)
        fclose(list);
    if (ok && twin_count)
        fprintf(out, jsonl ? "{\"twins\":[%s]}\n" : "---\ntwins:\n%s", list_text ? list_text : "");
    free(list_text);
    db_twins_free(twins);
    if (ok && jsonl) {
        jsonl_report *j = jsonl_report_open(out);
        ok = j && jsonl_report_summary(j, &total);
        ok = jsonl_report_close(j) && ok;
    } else if (ok) {
        yaml_report *y = yaml_report_open(out);
        ok = y && yaml_report_summary(y, &total);
        ok = yaml_report_close(y) && ok;
    }
    if (out && (out != stdout ? fclose(out) != 0 : fflush(out) != 0))
        ok = false;
    for (size_t i = 0; i < ns.n; i++)
        free(ns.v[i]);
    free(ns.v);
    if (!ok) {
        cli_error(_("summary: could not write the summary"));
        return CLI_EXIT_USAGE;
    }
    if (failed)
        return CLI_EXIT_USAGE;
    return total.games_with_errors ? CLI_EXIT_FINDINGS : CLI_EXIT_OK;
}
