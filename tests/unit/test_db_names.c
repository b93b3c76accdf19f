/* test_db_names.c: player-name keys and the "could be one person" test
 * (src/database/db_names.c). */
#include <config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
