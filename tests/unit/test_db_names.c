/* test_db_names.c: player-name keys and the "could be one person" test
 * (src/database/db_names.c). */
#include <config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "database/db_names.h"
#include "database/db_names_internal.h"

static const char *key(const char *name)
{
    static char buf[DB_NAME_KEY_MAX];
    db_name_key(name, buf, sizeof buf);
    return buf;
}

static void assert_same_key(const char *a, const char *b)
{
    char ka[DB_NAME_KEY_MAX], kb[DB_NAME_KEY_MAX];
    db_name_key(a, ka, sizeof ka);
    db_name_key(b, kb, sizeof kb);
    if (strcmp(ka, kb) != 0)
        fail_msg("'%s' -> '%s' but '%s' -> '%s'", a, ka, b, kb);
}

static void assert_other_key(const char *a, const char *b)
{
    char ka[DB_NAME_KEY_MAX], kb[DB_NAME_KEY_MAX];
    db_name_key(a, ka, sizeof ka);
    db_name_key(b, kb, sizeof kb);
    if (strcmp(ka, kb) == 0)
        fail_msg("'%s' and '%s' both -> '%s'", a, b, ka);
}

/* case, spacing, punctuation, the comma forms of PGN 8.1.1 ("Family, Given") */
static void test_key_forms(void **state)
{
    (void)state;
    assert_string_equal(key("Carlsen, Magnus"), "carlsen magnus");
    assert_same_key("Carlsen, Magnus", "Carlsen,Magnus");
    assert_same_key("Carlsen, Magnus", "CARLSEN Magnus");
    assert_same_key("Carlsen, Magnus", "  carlsen ,  magnus ");
    assert_same_key("Carlsen,M", "Carlsen M.");
    assert_same_key("Carlsen,M", "Carlsen, M.");
    assert_string_equal(key("Carlsen,M"), "carlsen m");
    assert_same_key("Vachier-Lagrave, Maxime", "Vachier Lagrave,Maxime");
    assert_same_key("O'Kelly de Galway, Alberic", "OKelly de Galway, Alberic");
    assert_string_equal(key("Duda, JK"), "duda j k");
    assert_same_key("Duda, JK", "Duda, J.K.");
    assert_same_key("Carlsen, Magnus (NOR)", "Carlsen, Magnus");
    assert_same_key("Carlsen, Magnus (2850)", "Carlsen, Magnus");
    assert_other_key("Wang,Yi(BJ)", "Wang,Yi");     /* a province tells two players apart */
    assert_same_key("Ｃａｒｌｓｅｎ，Ｍ", "Carlsen,M");    /* full-width forms */
    /* unknown: nobody */
    assert_string_equal(key("?"), "");
    assert_string_equal(key("-"), "");
    assert_string_equal(key("N.N."), "");
    assert_string_equal(key(""), "");
    assert_int_equal(db_name_key(NULL, (char[4]){0}, 4), 0);
}

/* accents and letters of other scripts (UTF-8, and Latin-1 bytes as they come) */
static void test_key_accents(void **state)
{
    (void)state;
    assert_same_key("Polgár, Judit", "Polgar, Judit");
    assert_same_key("Dominguez Pérez, Leinier", "Dominguez Perez, Leinier");
    assert_same_key("Nepomniachtchi, Ian", "NEPOMNIACHTCHI,IAN");
    assert_same_key("Hübner, Robert", "Hubner, Robert");
    assert_same_key("H\xfc" "bner, Robert", "Hübner, Robert");   /* Latin-1 u-umlaut */
    assert_same_key("Świercz, Dariusz", "Swiercz, Dariusz");
    assert_same_key("Lê Quang Liêm", "Le Quang Liem");
    assert_same_key("Ue\xcc\x88", "ue");                  /* combining diaeresis */
    assert_string_equal(key("Straße"), "strasse");
    assert_same_key("Ёлкин", "ЕЛКИН");
}

/* simplified and traditional Chinese spellings of one name are one key; spaces between
 * Han characters do not count; a Latin transcription is another key */
static void test_key_chinese(void **state)
{
    (void)state;
    assert_same_key("許銀川", "许银川");
    assert_same_key("呂欽", "吕钦");
    assert_same_key("胡榮華", "胡荣华");
    assert_same_key("趙國榮", "赵国荣");
    assert_same_key("王 天一", "王天一");
    assert_string_equal(key("鄭惟桐"), "郑惟桐");
    assert_other_key("许银川", "许川");
    assert_other_key("Wang Hao", "Hao Wang");        /* never reordered */
}

/* never one key for two people */
static void test_key_apart(void **state)
{
    (void)state;
    assert_other_key("Polgar, Judit", "Polgar, Zsuzsa");
    assert_other_key("Van Wely, Loek", "Van der Wiel, John");
    assert_other_key("Carlsen, M", "Carlsen, Magnus");  /* compatible, not equal */
    assert_other_key("Carlsen", "Carlsen, Magnus");
}

static void test_compatible(void **state)
{
    (void)state;
    assert_true(db_name_compatible("carlsen m", "carlsen magnus"));
    assert_true(db_name_compatible("carlsen magnus", "carlsen m"));
    assert_true(db_name_compatible("kasparov g", "kasparov garry kimovich"));
    assert_true(db_name_compatible("duda j k", "duda jan krzysztof"));
    assert_true(db_name_compatible("x y", "x y"));
    assert_false(db_name_compatible("polgar judit", "polgar zsuzsa"));
    assert_false(db_name_compatible("polgar j", "polgar zsuzsa"));
    assert_false(db_name_compatible("van wely", "van der wiel"));
    assert_false(db_name_compatible("van wely", "van wely loek"));  /* surname alone */
    assert_false(db_name_compatible("carlsen", "carlsen magnus"));
    assert_false(db_name_compatible("m carlsen", "magnus carlsen")); /* surname never an initial */
    assert_true(db_name_compatible("wang h", "wang hao"));           /* the grouping decides */
    assert_false(db_name_compatible("", ""));
    assert_false(db_name_compatible("", "carlsen m"));
    assert_true(db_name_has_initial("carlsen m"));
    assert_false(db_name_has_initial("carlsen magnus"));
    assert_false(db_name_has_initial("m carlsen"));
}

/* grouping the spellings of a run: what is one person, and what never is */
static db_names *run_of(const char *const *names, size_t n)
{
    db_names *t = db_names_new();
    for (size_t i = 0; i < n; i++)
        db_names_add(t, DB_NAME_PLAYER, names[i]);
    db_names_group(t);
    return t;
}

static bool together(const db_names *t, const char *a, const char *b)
{
    long ga = db_names_group_of(t, DB_NAME_PLAYER, a);
    return ga >= 0 && ga == db_names_group_of(t, DB_NAME_PLAYER, b);
}

static void test_group_one_person(void **state)
{
    (void)state;
    const char *const run[] = {
        "Carlsen, Magnus", "Carlsen, Magnus", "Carlsen,M", "CARLSEN Magnus",
        "Kasparov, Garry", "Kasparov,G", "Kasparov, Gary",
        "Botvinnik, Mikhail", "Botvinnik, Michael", "Naiditsch, Arkadij", "Naiditsch, Arkadi",
        "许银川", "許銀川", "Polgár, Judit", "Polgar, Judit",
    };
    db_names *t = run_of(run, sizeof run / sizeof *run);
    assert_true(together(t, "Carlsen, Magnus", "Carlsen,M"));
    assert_true(together(t, "Carlsen, Magnus", "CARLSEN Magnus"));
    assert_true(together(t, "Kasparov, Garry", "Kasparov, Gary"));
    assert_true(together(t, "Kasparov, Garry", "Kasparov,G"));
    assert_true(together(t, "Botvinnik, Mikhail", "Botvinnik, Michael"));
    assert_true(together(t, "Naiditsch, Arkadij", "Naiditsch, Arkadi"));
    assert_true(together(t, "许银川", "許銀川"));
    assert_true(together(t, "Polgár, Judit", "Polgar, Judit"));
    /* the majority spelling is the suggestion; the majority itself gets none */
    assert_string_equal(db_names_canonical(t, DB_NAME_PLAYER, "Carlsen,M"), "Carlsen, Magnus");
    assert_null(db_names_canonical(t, DB_NAME_PLAYER, "Carlsen, Magnus"));
    db_names_free(t);
}

static void test_group_never_two_people(void **state)
{
    (void)state;
    const char *const run[] = {
        "Polgar, Judit", "Polgar, Zsuzsa", "Polgar, J",       /* J fits Judit only... */
        "Polgar, Zsofia", "Polgar, Z",                         /* Z fits Zsuzsa and Zsofia */
        "Van Wely, Loek", "Van der Wiel, John", "Van Wely",
        "Wang Hao", "Hao Wang", "Wang, Hua", "Wang, H",         /* H fits Hao? no comma: Hua only */
        "Liu, Yan", "Liu, Yang", "Maria, Garcia", "Mario, Garcia",
        "Garcia, Maria", "Garcia, Mario", "Wang,Yi(BJ)", "Wang,Yi",
        "Attieh,Kate", "Attieh,Skye", "Filip,Andrei", "Filip,L",
    };
    db_names *t = run_of(run, sizeof run / sizeof *run);
    assert_false(together(t, "Polgar, Judit", "Polgar, Zsuzsa"));
    assert_true(together(t, "Polgar, Judit", "Polgar, J"));
    assert_false(together(t, "Polgar, Z", "Polgar, Zsuzsa"));   /* an initial, two names */
    assert_false(together(t, "Polgar, Z", "Polgar, Zsofia"));
    assert_false(together(t, "Van Wely, Loek", "Van der Wiel, John"));
    assert_false(together(t, "Van Wely", "Van Wely, Loek"));     /* a surname alone */
    assert_false(together(t, "Wang Hao", "Hao Wang"));
    assert_false(together(t, "Liu, Yan", "Liu, Yang"));
    assert_false(together(t, "Garcia, Maria", "Garcia, Mario"));
    assert_false(together(t, "Wang,Yi(BJ)", "Wang,Yi"));
    assert_false(together(t, "Attieh,Kate", "Attieh,Skye"));
    assert_false(together(t, "Filip,Andrei", "Filip,L"));
    assert_int_equal(db_names_group_of(t, DB_NAME_PLAYER, "Polgar, Zsuzsa"), -1);
    db_names_free(t);
}

/* a scid spelling file: its canonical names win, aliases included */
static void test_spelling_file(void **state)
{
    (void)state;
    char path[] = "/tmp/arbiter-ssp-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("# test\n@PLAYER \", .-\"\nCarlsen, Magnus        #gm NOR [2882] 1990.11.30\n"
          "= Carlsen, Mag\n%Elo 2020:2862\nKasparov, Garry\n= Kasparov, Garri\n"
          "@EVENT\nTata Steel Masters\n= Corus A\n", f);
    fclose(f);
    db_names *t = db_names_new();
    char err[200];
    assert_true(db_names_load_spelling(t, path, err, sizeof err));
    db_names_add(t, DB_NAME_PLAYER, "CARLSEN,MAGNUS");
    db_names_add(t, DB_NAME_PLAYER, "Carlsen, Mag");
    db_names_add(t, DB_NAME_PLAYER, "Kasparov, Garri");
    db_names_add(t, DB_NAME_EVENT, "Corus A");
    db_names_group(t);
    assert_string_equal(db_names_canonical(t, DB_NAME_PLAYER, "CARLSEN,MAGNUS"), "Carlsen, Magnus");
    assert_string_equal(db_names_canonical(t, DB_NAME_PLAYER, "Carlsen, Mag"), "Carlsen, Magnus");
    assert_string_equal(db_names_canonical(t, DB_NAME_PLAYER, "Kasparov, Garri"), "Kasparov, Garry");
    assert_string_equal(db_names_canonical(t, DB_NAME_EVENT, "Corus A"), "Tata Steel Masters");
    db_names_free(t);
    unlink(path);
    t = db_names_new();
    assert_false(db_names_load_spelling(t, "/nonexistent/x.ssp", err, sizeof err));
    assert_non_null(strstr(err, "/nonexistent/x.ssp"));
    db_names_free(t);
}

/* a long name is cut at a word, never in a UTF-8 sequence */
static void test_key_long(void **state)
{
    (void)state;
    char name[600], out[16];
    memset(name, 0, sizeof name);
    for (int i = 0; i < 100; i++)
        strcat(name, "Ab ");
    size_t n = db_name_key(name, out, sizeof out);
    assert_int_equal(n, strlen(out));
    assert_true(n < sizeof out);
    assert_true(n == 0 || out[n - 1] != ' ');
    assert_int_equal(n % 3, 2);                  /* whole words "ab ab ..." */
    n = db_name_key("许银川许银川许银川", out, sizeof out);
    assert_int_equal(n, strlen(out));
}

/* Runs of ASCII letters and digits (taken by a tight loop) cut by every room around
 * their ends, capitals after the comma left to the general steps: the keys the
 * character-by-character steps gave. */
static void test_key_word_runs(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        size_t outsz;
        const char *key;
    } cases[] = {
        {"Carlsen Magnus1 de", 9, ""}, {"Carlsen Magnus1 de", 10, "carlsen"},
        {"Carlsen Magnus1 de", 17, "carlsen"}, {"Carlsen Magnus1 de", 18, "carlsen magnus1"},
        {"Carlsen Magnus1 de", 19, "carlsen magnus1 de"},
        {"CarlsenMagnus99,AbCd", 17, ""}, {"CarlsenMagnus99,AbCd", 18, "carlsenmagnus99"},
        {"CarlsenMagnus99,AbCd", 20, "carlsenmagnus99"},
        {"CarlsenMagnus99,AbCd", 21, "carlsenmagnus99 abcd"},
        {"Ab9Cd,EfGh ijKL", 7, ""}, {"Ab9Cd,EfGh ijKL", 8, "ab9cd"},
        {"Ab9Cd,EfGh ijKL", 12, "ab9cd"}, {"Ab9Cd,EfGh ijKL", 13, "ab9cd efgh"},
        {"Ab9Cd,EfGh ijKL", 16, "ab9cd efgh ijkl"}, {"Duda, JK", 64, "duda j k"},
        {"Duda,Jan-Krzysztof", 64, "duda jan krzysztof"},
    };
    char out[64];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        size_t n = db_name_key(cases[i].name, out, cases[i].outsz);
        if (strcmp(out, cases[i].key) != 0 || n != strlen(cases[i].key))
            fail_msg("'%s' in %zu bytes: '%s', not '%s'", cases[i].name, cases[i].outsz, out,
                     cases[i].key);
    }
}

/* ------------------------------------------------------------------ the pre-pass in parts */

/* Write TEXT (LEN bytes) to a temporary file; its path in PATH. */
static void write_temp(char *path, size_t size, const char *text, size_t len)
{
    snprintf(path, size, "/tmp/test_db_names_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, len), (ssize_t)len);
    close(fd);
}

/* The two tables counted the same uses, in the same order, and the same pairs. */
static void assert_same_counts(const db_names *a, const db_names *b, uint64_t at)
{
    if (a->count != b->count)
        fail_msg("%zu entries whole, %zu in parts cut at %llu", a->count, b->count,
                 (unsigned long long)at);
    for (size_t i = 0; i < a->count; i++) {
        const name_entry *x = &a->e[i], *y = &b->e[i];
        if (x->field != y->field || x->len != y->len || x->count != y->count ||
            x->first != y->first || strcmp(x->spelling, y->spelling) != 0)
            fail_msg("entry %zu: '%s' x%u whole, '%s' x%u in parts cut at %llu", i,
                     x->spelling, x->count, y->spelling, y->count, (unsigned long long)at);
    }
    assert_int_equal(a->npairs, b->npairs);
    for (size_t i = 0; i < a->npairs; i++)
        assert_int_equal(a->pairs[i], b->pairs[i]);
}

/* Scanning TEXT in parts cut near each offset of [from, to) by STEP (and near two
 * offsets at once) counts what scanning it whole counts; returns how many of the
 * scans had more than one part. */
static int check_parts(const char *text, size_t len, size_t from, size_t to, size_t step)
{
    char path[64];
    write_temp(path, sizeof path, text, len);
    db_names *whole = db_names_new();
    assert_true(db_names_scan(whole, path));
    int split = 0;
    for (size_t at = from; at < to; at += step) {
        uint64_t want[2] = {at, at + (len - at) / 2};
        for (int n = 1; n <= 2; n++) {
            db_names *parts = db_names_new();
            int got = db_names_scan_parts(parts, path, want, n);
            assert_true(got >= 1 && got <= n + 1);
            split += got > 1;
            assert_same_counts(whole, parts, at);
            db_names_free(parts);
        }
    }
    db_names_free(whole);
    unlink(path);
    return split;
}

/* Lines of every length around the sixteen-byte steps that find a tag line's end:
 * each White value is read whole, each Black is counted, each game is one pair. */
static void test_scan_line_ends(void **state)
{
    (void)state;
    enum { LONGEST = 48 };
    char text[LONGEST * 128], *o = text;
    for (int n = 1; n <= LONGEST; n++) {
        o += sprintf(o, "[Annotator \"%.*s\"]\n", n, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ");
        o += sprintf(o, "[White \"P%.*s\"]\n[Black \"Q\"]\n\n1. e4 *\n\n", n % 20,
                     "0123456789012345678901234567890");
    }
    char path[64];
    write_temp(path, sizeof path, text, (size_t)(o - text));
    db_names *t = db_names_new();
    assert_true(db_names_scan(t, path));
    unlink(path);
    assert_int_equal(t->count, 21);          /* P plus 0 to 19 digits, and Q */
    for (size_t i = 0; i < t->count; i++) {
        const name_entry *e = &t->e[i];
        assert_int_equal(e->field, DB_NAME_PLAYER);
        if (strcmp(e->spelling, "Q") == 0)
            assert_int_equal(e->count, LONGEST);
        else
            assert_true(e->spelling[0] == 'P' && e->len <= 20 && e->count >= 2);
    }
    assert_int_equal(t->npairs, 2 * LONGEST);
    db_names_free(t);
}

static const char games[] =
    "[Event \"Dortmund\"]\n[Site \"Dortmund GER\"]\n[White \"Seitz, Jakob\"]\n"
    "[Black \"Johner, Paul\"]\n[Result \"1-0\"]\n\n1. e4 e5 {[%clk 0:01:00]} 2. Nf3 1-0\n\n"
    "[Event \"Dortmund\"]\n  [White \"Johner, P.\"]\n[Black \"Seitz, J\\\"akob\"]\n"
    "[Result \"0-1\"]\n1. d4 [not a tag] d5 0-1\n"
    "[Event \"Dortmund\"]\n[Site \"Dortmund\"]\n[White \"M\xfcller, Hans\"]\n"
    "[Black \"Seitz, Jakob\"]\n\n{ a comment\n[White \"not a tag section\"]\n} 1/2-1/2\n\n"
    "[Event \"Casual\"]\n[White \"Johner, Paul\"]\n[Black \"?\"]\n\n*\n";

/* every cut of a few games: a tag section cut anywhere, tags after movetext without a
 * blank line, a tag line inside a comment, blanks before '[', Latin-1 and escapes */
static void test_scan_parts_every_cut(void **state)
{
    (void)state;
    size_t len = strlen(games);
    assert_true(check_parts(games, len, 0, len + 2, 1) > 0);
}

/* the same with CRLF line ends, and a file without tags (nothing to count: one part) */
static void test_scan_parts_crlf_and_no_tags(void **state)
{
    (void)state;
    char crlf[2 * sizeof games];
    size_t n = 0;
    for (const char *p = games; *p; p++) {
        if (*p == '\n')
            crlf[n++] = '\r';
        crlf[n++] = *p;
    }
    assert_true(check_parts(crlf, n, 0, n, 1) > 0);
    static const char none[] = "1. e4 e5 2. Nf3 Nc6 *\n\n1. d4 d5 *\n\n{ [ } 1. c4 *\n";
    assert_int_equal(check_parts(none, strlen(none), 0, strlen(none), 1), 0);
}

/* a file over several of the scan's 64 KiB reads, with lines longer than the scan keeps
 * running over the ends of the reads: the whole scan drops the start of such a line
 * and reads its rest as a line (a "[White" there counts), and so must the parts */
static void test_scan_parts_long_file(void **state)
{
    (void)state;
    size_t cap = 300000, len = 0, read_end = 65536;
    char *text = malloc(cap + 8192);
    assert_non_null(text);
    for (int g = 0; len < cap; g++) {
        if (len + 1500 > read_end) { /* a long line with a tag at the end of a read */
            text[len++] = '{';
            while (len < read_end)
                text[len++] = 'x';
            len += (size_t)sprintf(text + len, "[White \"Ghost\"] }\n\n");
            read_end += 65536;
        }
        len += (size_t)sprintf(text + len,
                               "[Event \"Open %d\"]\n[Site \"Town %d\"]\n[White \"Player, %c%s\"]\n"
                               "[Black \"Player, %c\"]\n\n",
                               g % 7, g % 3, 'A' + g % 5, g % 2 ? "nne" : ".", 'A' + g % 4);
        if (g % 9 == 0) { /* a long comment line, a '[' in it and a tag line after it */
            text[len++] = '{';
            for (int i = 0; i < 1500 + g % 700; i++)
                text[len++] = i == 1200 ? '[' : 'x';
            len += (size_t)sprintf(text + len, "\n[White \"Long, Line\"]\n} ");
        }
        len += (size_t)sprintf(text + len, "1. e4 e5 *\n\n");
    }
    assert_true(check_parts(text, len, 1, len, 4093) > 0);
    for (size_t b = 65536; b < len; b += 65536)  /* around the ends of the reads */
        check_parts(text, len, b - 1600, b + 200, 37);
    free(text);
}

/* a part's start far past the offset wanted, the lines between without a '[': found
 * however the reads of the search (64 KiB blocks of the file) cut the lines before it,
 * its '[' first in a block or its newline last in one */
static void test_scan_parts_far_start(void **state)
{
    (void)state;
    enum { HEAD = 40 };
    size_t cap = 3 * 65536;
    char *text = malloc(cap + 256);
    assert_non_null(text);
    for (size_t at = 2 * 65536 - 3; at <= 2 * 65536 + 3; at++) {
        size_t len = (size_t)sprintf(text, "[White \"Far, A\"]\n[Black \"Far, B\"]\n\n{");
        for (; len < at - 2; len++) /* lines of movetext: no '[' */
            text[len] = len % 61 == 0 ? '\n' : 'x';
        len += (size_t)sprintf(text + len, "}\n[White \"Near, C\"]\n[Black \"Far, B\"]\n\n*\n");
        char path[64];
        write_temp(path, sizeof path, text, len);
        db_names *whole = db_names_new(), *parts = db_names_new();
        assert_true(db_names_scan(whole, path));
        uint64_t want[1] = {HEAD};
        assert_int_equal(db_names_scan_parts(parts, path, want, 1), 2);
        assert_same_counts(whole, parts, at);
        db_names_free(whole);
        db_names_free(parts);
        unlink(path);
    }
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_key_forms),   cmocka_unit_test(test_key_accents),
        cmocka_unit_test(test_key_chinese), cmocka_unit_test(test_key_apart),
        cmocka_unit_test(test_compatible),  cmocka_unit_test(test_key_long),
        cmocka_unit_test(test_group_one_person), cmocka_unit_test(test_group_never_two_people),
        cmocka_unit_test(test_spelling_file),
        cmocka_unit_test(test_key_word_runs),
        cmocka_unit_test(test_scan_line_ends),
        cmocka_unit_test(test_scan_parts_every_cut),
        cmocka_unit_test(test_scan_parts_crlf_and_no_tags),
        cmocka_unit_test(test_scan_parts_long_file),
        cmocka_unit_test(test_scan_parts_far_start),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
