/* report_splice.c: a finding put into a game document already written (see
 * report_splice.h). The finding's own text comes from the writers (a game holding only
 * that finding), so quoting and layout are theirs. */
#include <config.h>

#include "report/report_splice.h"

#include <stdlib.h>
#include <string.h>

#include "record/textbuf.h"
#include "report/jsonl_report.h"
#include "report/yaml_report.h"

void report_prepend_finding(rec_game *g, rec_finding *f)
{
    f->next = g->findings;
    g->findings = f;
    if (!g->findings_tail)
        g->findings_tail = f;
    g->finding_count++;
    if (f->claim)
        return;
    if (f->severity == REC_ERROR)
        g->error_count++;
    else if (f->severity == REC_WARNING)
        g->warning_count++;
}

/* The text of F as an item of a findings list: YAML "- code: ...\n  ...\n" lines, or
 * a JSON object. malloc'd, or NULL. The writers give the item alone (a twin is spliced
 * into most documents of a run with copies: a document made for it was 5% of the CPU
 * of check -j2 on the bench x10); else it is cut out of a game document holding only
 * F. */
static char *finding_text(const rec_finding *f, bool jsonl, size_t *len)
{
    char *item = NULL;
    if (!f->claim && (jsonl ? jsonl_report_finding_item(f, &item, len)
                            : yaml_report_finding_item(f, &item, len)))
        return item;
    arena a;
    arena_init(&a);
    rec_game g;
    rec_game_init(&g, &a, "", 1);
    rec_finding copy = *f;
    copy.next = NULL;
    report_prepend_finding(&g, &copy);
    char *doc = NULL;
    size_t doclen = 0;
    FILE *m = open_memstream(&doc, &doclen);
    bool ok = m != NULL;
    if (ok && jsonl) {
        jsonl_report *r = jsonl_report_open(m);
        ok = r && jsonl_report_game(r, &g);
        ok = (!r || jsonl_report_close(r)) && ok;
    } else if (ok) {
        yaml_report *r = yaml_report_open(m);
        ok = r && yaml_report_game(r, &g);
        ok = (!r || yaml_report_close(r)) && ok;
    }
    if (m)
        ok = fclose(m) == 0 && ok;
    arena_free(&a);
    const char *open = jsonl ? "\"findings\":[" : "\nfindings:\n";
    const char *close = jsonl ? "],\"claims\":" : "\nclaims:";
    const char *s = ok && doc ? strstr(doc, open) : NULL;
    const char *e = s ? strstr(s, close) : NULL;
    if (e) {
        s += strlen(open);
        e += jsonl ? 0 : 1; /* YAML: the item's last newline */
        *len = (size_t)(e - s);
        item = malloc(*len + 1);
        if (item) {
            memcpy(item, s, *len);
            item[*len] = '\0';
        }
    }
    free(doc);
    return item;
}

static const char *status_word(rec_severity sev)
{
    return sev == REC_ERROR ? "errors" : "warnings";
}

bool report_splice_locate(const char *doc, size_t len, bool jsonl, report_places *at)
{
    /* the status (before the tags, so the first of its kind), then the findings key
     * (a tag's text is quoted or indented, so it cannot look like either); the game's
     * number is not looked for: only the writer's place is asked for it */
    const char *status_key = jsonl ? ",\"status\":\"" : "\nstatus: ";
    const char *st = textbuf_find(doc, len, status_key, strlen(status_key));
    const char *fk = memmem(doc, len, jsonl ? "\"findings\":[" : "\nfindings:", jsonl ? 12 : 10);
    if (!st || !fk || st > fk)
        return false;
    st += strlen(status_key);
    size_t stlen = strcspn(st, jsonl ? "\"" : "\n");
    static const char *const words[] = {"ok", "warnings", "errors"};
    at->status_word = NULL; /* another word: not one a finding raises */
    for (int i = 0; i < 3; i++)
        if (stlen == strlen(words[i]) && memcmp(st, words[i], stlen) == 0)
            at->status_word = words[i];
    at->status = (size_t)(st - doc);
    at->findings = (size_t)(fk - doc);
    size_t fat = at->findings;
    at->findings_empty = jsonl ? fat + 13 <= len && doc[fat + 12] == ']'
                               : fat + 14 <= len && memcmp(doc + fat, "\nfindings: []\n", 14) == 0;
    return true;
}

bool report_splice_plan(const char *doc, size_t len, bool jsonl, const rec_finding *f,
                        report_splice_edit e[2], int *n)
{
    return report_splice_plan_at(doc, len, jsonl, f, NULL, e, n);
}

bool report_splice_plan_at(const char *doc, size_t len, bool jsonl, const rec_finding *f,
                           const report_places *places, report_splice_edit e[2], int *n)
{
    *n = 0;
    report_places found;
    if (!places) {
        if (!report_splice_locate(doc, len, jsonl, &found))
            return false;
        places = &found;
    }
    size_t ilen = 0;
    char *item = finding_text(f, jsonl, &ilen);
    if (!item)
        return false;
    const char *now = places->status_word;
    bool raise = now && !f->claim && f->severity != REC_INFO &&
                 (strcmp(now, "ok") == 0 ||
                  (f->severity == REC_ERROR && strcmp(now, "warnings") == 0));
    if (raise) {
        const char *word = status_word(f->severity);
        e[*n] = (report_splice_edit){places->status, strlen(now), strdup(word), strlen(word)};
        if (!e[*n].text) {
            free(item);
            return false;
        }
        ++*n;
    }
    size_t fat = places->findings;
    const char *key = jsonl ? "\"findings\":[" : "\nfindings:\n";
    size_t klen = strlen(key), del;
    bool comma = false;
    if (jsonl) {
        comma = !places->findings_empty; /* after the items already there */
        del = 12;
    } else {
        del = places->findings_empty ? 14 : 11;
    }
    char *text = malloc(klen + ilen + 1);
    if (!text) {
        for (int i = 0; i < *n; i++)
            free(e[i].text);
        *n = 0;
        free(item);
        return false;
    }
    memcpy(text, key, klen);
    memcpy(text + klen, item, ilen);
    if (comma)
        text[klen + ilen] = ',';
    e[*n] = (report_splice_edit){fat, del, text, klen + ilen + (comma ? 1 : 0)};
    ++*n;
    free(item);
    return true;
}

bool report_splice_finding(FILE *out, const char *doc, size_t len, bool jsonl,
                           const rec_finding *f)
{
    report_splice_edit e[2];
    int n;
    bool planned = report_splice_plan(doc, len, jsonl, f, e, &n);
    size_t at = 0;
    for (int i = 0; i < n; i++) {
        fwrite(doc + at, 1, e[i].at - at, out);
        fwrite(e[i].text, 1, e[i].len, out);
        at = e[i].at + e[i].del;
        free(e[i].text);
    }
    fwrite(doc + at, 1, len - at, out);
    return planned && !ferror(out);
}
