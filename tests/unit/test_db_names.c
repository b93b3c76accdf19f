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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_key_forms),   cmocka_unit_test(test_key_accents),
        cmocka_unit_test(test_key_chinese), cmocka_unit_test(test_key_apart),
        cmocka_unit_test(test_compatible),  cmocka_unit_test(test_key_long),
        cmocka_unit_test(test_group_one_person), cmocka_unit_test(test_group_never_two_people),
        cmocka_unit_test(test_spelling_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
