/* test_report_places.c: the places the report writers say for a game document (its
 * number, status word and findings key, report_places.h), the status word and whether
 * the findings list is empty, are those the search finds
 * (report_splice_locate, and "game: " for the number) in YAML and JSON Lines, with
 * and without findings, with tags and file names that hold the keys' text; a twin
 * finding spliced at the writer's places gives the edits the search gives; and a
 * document made and not written (-j: put into the piece's text directly) is the one
 * written, with the same places. */
#include <config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "record/arena.h"
#include "record/record.h"
#include "report/jsonl_report.h"
#include "report/report_splice.h"
#include "report/yaml_report.h"

/* Game k of the cases: no finding, one warning, an error, tags and a file name
 * holding the keys the search looks for. */
static void make_game(rec_game *g, arena *a, int k)
{
    const char *file = k % 2 ? "odd \"status\": \n, \"findings\":[ game: .pgn" : "plain.pgn";
    rec_game_init(g, a, file, (uint64_t)(k + 1) * 97);
    rec_span at = {.line = (uint32_t)k + 1, .column = 1};
    rec_game_add_tag(g, "Event", k % 3 ? "\nstatus: ok\nfindings: []" : "E", at);
    rec_game_add_tag(g, "White", ",\"status\":\"ok\",\"findings\":[]", at);
    if (k % 4 == 1)
        rec_game_add_finding(g, "bad-tag", REC_WARNING, at, "a warning: findings:\n");
    if (k % 4 == 2)
        rec_game_add_finding(g, "missing-result", REC_ERROR, at, "an error");
    if (k % 4 == 3)
        rec_game_add_finding(g, "claim-info", REC_INFO, at, "information");
}

/* The twin finding check_settle splices. */
static rec_finding twin_finding(void)
{
    rec_finding f;
    memset(&f, 0, sizeof f);
    f.code = "duplicate-game";
    f.severity = REC_WARNING;
    f.where = (rec_span){.line = 3, .column = 1};
    f.dup_file = "first.pgn";
    f.dup_game = 2;
    f.dup_line = 40;
    f.message = "this game is a copy of game 2 of first.pgn (line 40)";
    return f;
}

static void check_doc(const char *doc, size_t len, bool jsonl, const report_places *said)
{
    report_places found;
    assert_true(report_splice_locate(doc, len, jsonl, &found));
    assert_int_equal(said->status, found.status);
    assert_int_equal(said->findings, found.findings);
    assert_non_null(said->status_word);
    assert_non_null(found.status_word);
    assert_string_equal(said->status_word, found.status_word);
    assert_int_equal(said->findings_empty, found.findings_empty);
    const char *key = jsonl ? ",\"game\":" : "\ngame: ";
    const char *hit = memmem(doc, len, key, strlen(key));
    assert_non_null(hit);
    assert_int_equal(said->game, (size_t)(hit - doc) + strlen(key));
    /* the splice at the writer's places is the splice at the places searched for */
    rec_finding twin = twin_finding();
    report_splice_edit a[2], b[2];
    int na, nb;
    assert_true(report_splice_plan_at(doc, len, jsonl, &twin, said, a, &na));
    assert_true(report_splice_plan(doc, len, jsonl, &twin, b, &nb));
    assert_int_equal(na, nb);
    for (int i = 0; i < na; i++) {
        assert_int_equal(a[i].at, b[i].at);
        assert_int_equal(a[i].del, b[i].del);
        assert_int_equal(a[i].len, b[i].len);
        assert_memory_equal(a[i].text, b[i].text, a[i].len);
        free(a[i].text);
        free(b[i].text);
    }
}

/* Write the cases one after the other to a stream, each document checked where it
 * stands in the text; the document made and not written (yaml_report_game_doc,
 * jsonl_report_game_line) by a second writer is the one written, with the same places. */
static void run_writer(bool jsonl)
{
    char *text = NULL;
    size_t text_len = 0;
    FILE *out = open_memstream(&text, &text_len);
    assert_non_null(out);
    yaml_report *y = jsonl ? NULL : yaml_report_open(out);
    jsonl_report *j = jsonl ? jsonl_report_open(out) : NULL;
    yaml_report *y2 = jsonl ? NULL : yaml_report_open(out);
    jsonl_report *j2 = jsonl ? jsonl_report_open(out) : NULL;
    if (jsonl && !j) {
        fclose(out);
        free(text);
        skip(); /* a build without jansson */
    }
    for (int k = 0; k < 12; k++) {
        arena a;
        arena_init(&a);
        rec_game g;
        make_game(&g, &a, k);
        fflush(out);
        size_t start = text_len;
        assert_true(jsonl ? jsonl_report_game(j, &g) : yaml_report_game(y, &g));
        fflush(out);
        report_places written = {0}, made = {0};
        assert_true(jsonl ? jsonl_report_places(j, &written) : yaml_report_places(y, &written));
        check_doc(text + start, text_len - start, jsonl, &written);
        const char *doc = NULL;
        size_t len = 0;
        assert_true(jsonl ? jsonl_report_game_line(j2, &g, &doc, &len)
                          : yaml_report_game_doc(y2, &g, &doc, &len));
        assert_int_equal(len, text_len - start);
        assert_memory_equal(doc, text + start, len);
        assert_true(jsonl ? jsonl_report_places(j2, &made) : yaml_report_places(y2, &made));
        assert_int_equal(made.game, written.game);
        assert_int_equal(made.status, written.status);
        assert_int_equal(made.findings, written.findings);
        assert_int_equal(made.findings_empty, written.findings_empty);
        arena_free(&a);
    }
    assert_true(jsonl ? jsonl_report_close(j) : yaml_report_close(y));
    assert_true(jsonl ? jsonl_report_close(j2) : yaml_report_close(y2));
    fclose(out);
    free(text);
}

static void test_yaml_places(void **state)
{
    (void)state;
    run_writer(false);
}

static void test_jsonl_places(void **state)
{
    (void)state;
    run_writer(true);
}

/* A document libyaml wrote (a finding with a fix) has no places said: it is searched. */
static void test_yaml_libyaml_no_places(void **state)
{
    (void)state;
    char *text = NULL;
    size_t text_len = 0;
    FILE *out = open_memstream(&text, &text_len);
    yaml_report *y = yaml_report_open(out);
    arena a;
    arena_init(&a);
    rec_game g;
    rec_game_init(&g, &a, "f.pgn", 1);
    rec_span at = {.line = 1, .column = 1};
    rec_finding *f = rec_game_add_finding(&g, "bad-tag-value", REC_WARNING, at, "fixable");
    rec_fix *fix = arena_alloc(&a, sizeof *fix);
    memset(fix, 0, sizeof *fix);
    fix->where = at;
    fix->length = 1;
    fix->before = "x";
    fix->text = "y";
    f->fix = fix;
    assert_true(yaml_report_game(y, &g));
    report_places said;
    assert_false(yaml_report_places(y, &said));
    assert_true(yaml_report_close(y));
    fclose(out);
    free(text);
    arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_yaml_places),
        cmocka_unit_test(test_jsonl_places),
        cmocka_unit_test(test_yaml_libyaml_no_places),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
