/* test_chess_letters.c: national piece letters (notation/chess_letters.c). */
#include <config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "notation/chess_letters.h"

static void to_en(chess_letters set, const char *text, const char *want)
{
    char out[CHESS_LETTERS_BUFSIZE];
    bool ok = chess_letters_to_english(set, text, out, sizeof out);
    if (!want) {
        if (ok)
            fail_msg("%s read '%s' as '%s', expected no reading", chess_letters_name(set), text, out);
        return;
    }
    if (!ok || strcmp(out, want) != 0)
        fail_msg("%s read '%s' as '%s', expected '%s'", chess_letters_name(set), text,
                 ok ? out : "(none)", want);
}

static void from_en(chess_letters set, const char *san, const char *want)
{
    char out[CHESS_LETTERS_BUFSIZE];
    chess_letters_from_english(set, san, out, sizeof out);
    assert_string_equal(out, want);
}

static void test_reading(void **state)
{
    (void)state;
    to_en(CHESS_LETTERS_RU, "Кf3", "Nf3");
    to_en(CHESS_LETTERS_RU, "Крe2", "Ke2");
    to_en(CHESS_LETTERS_RU, "Kpe2", "Ke2");       /* Latin look-alikes */
    to_en(CHESS_LETTERS_RU, "Cb5", "Bb5");
    to_en(CHESS_LETTERS_RU, "Фxd8+", "Qxd8+");
    to_en(CHESS_LETTERS_RU, "e8=Ф#", "e8=Q#");
    to_en(CHESS_LETTERS_RU, "Qd1", NULL);         /* Q is no Russian letter */
    to_en(CHESS_LETTERS_DE, "Sbd7", "Nbd7");
    to_en(CHESS_LETTERS_DE, "Lxb5", "Bxb5");
    to_en(CHESS_LETTERS_DE, "e8D", "e8Q");        /* promotion without '=' */
    to_en(CHESS_LETTERS_DE, "dxe8=S+", "dxe8=N+"); /* the file d is no queen */
    to_en(CHESS_LETTERS_FR, "Fc4", "Bc4");
    to_en(CHESS_LETTERS_FR, "Rg1", "Kg1");        /* R is the French king */
    to_en(CHESS_LETTERS_ES, "Axf7+", "Bxf7+");
    to_en(CHESS_LETTERS_NL, "Pf3", "Nf3");        /* P is the Dutch knight */
    to_en(CHESS_LETTERS_VI, "Mf3", "Nf3");
    to_en(CHESS_LETTERS_VI, "Hd1", "Qd1");
    to_en(CHESS_LETTERS_VI, "Xe1", "Re1");
    to_en(CHESS_LETTERS_FIGURINE, "♞f6", "Nf6");
    to_en(CHESS_LETTERS_FIGURINE, "b1=♕", "b1=Q");
    to_en(CHESS_LETTERS_EN, "♘f3", NULL);         /* figurines are a set of their own */
    to_en(CHESS_LETTERS_EN, "Pe4", "Pe4");
    to_en(CHESS_LETTERS_EN, "Sf3", NULL);
    /* castling and pawn moves read in every set */
    for (int i = 0; i < CHESS_LETTERS_COUNT; i++) {
        to_en((chess_letters)i, "O-O-O", "O-O-O");
        to_en((chess_letters)i, "exd5", "exd5");
        to_en((chess_letters)i, "e2e4", "e2e4");
    }
}

static void test_writing(void **state)
{
    (void)state;
    from_en(CHESS_LETTERS_RU, "Nf3", "Кf3");
    from_en(CHESS_LETTERS_RU, "Kxe2", "Крxe2");
    from_en(CHESS_LETTERS_DE, "e8=Q+", "e8=D+");
    from_en(CHESS_LETTERS_DE, "Qd1", "Dd1");
    from_en(CHESS_LETTERS_FR, "Bb5", "Fb5");
    from_en(CHESS_LETTERS_VI, "Rxe1#", "Xxe1#");
    from_en(CHESS_LETTERS_FIGURINE, "Nbd7", "♘bd7");
    from_en(CHESS_LETTERS_NL, "O-O", "O-O");
    from_en(CHESS_LETTERS_DE, "bxc8=N", "bxc8=S"); /* the file b is no bishop */
    /* every letter written reads back */
    const char *moves[] = {"Kf1", "Qxh7#", "Rad1", "Bb5+", "Ng1f3", "e8=R", "exd6", "O-O"};
    for (int i = 0; i < CHESS_LETTERS_COUNT; i++)
        for (size_t k = 0; k < sizeof moves / sizeof *moves; k++) {
            char out[CHESS_LETTERS_BUFSIZE];
            chess_letters_from_english((chess_letters)i, moves[k], out, sizeof out);
            to_en((chess_letters)i, out, moves[k]);
        }
}

static void test_names_and_fitting(void **state)
{
    (void)state;
    chess_letters set;
    assert_true(chess_letters_from_name("san-ru", &set));
    assert_int_equal(set, CHESS_LETTERS_RU);
    assert_true(chess_letters_from_name("it", &set));
    assert_int_equal(set, CHESS_LETTERS_ES);
    assert_true(chess_letters_from_name("figurine", &set));
    assert_int_equal(set, CHESS_LETTERS_FIGURINE);
    assert_false(chess_letters_from_name("san-xx", &set));

    chess_letters_seen seen;
    chess_letters_seen_init(&seen);
    const char *german[] = {"e4", "Sf3", "Lb5", "O-O", "Dd1", "Te1"};
    for (size_t k = 0; k < sizeof german / sizeof *german; k++)
        chess_letters_observe(&seen, german[k]);
    /* S, L, D and T: German only (Dutch has P for the knight, Vietnamese no S) */
    assert_int_equal(seen.fits, 1u << CHESS_LETTERS_DE);

    chess_letters_seen_init(&seen);
    chess_letters_observe(&seen, "Kf3");
    chess_letters_observe(&seen, "Cb5");
    /* K and C: Russian with Latin look-alikes (a knight and a bishop) */
    assert_true(seen.fits & (1u << CHESS_LETTERS_RU));
    assert_false(seen.fits & (1u << CHESS_LETTERS_EN));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reading),
        cmocka_unit_test(test_writing),
        cmocka_unit_test(test_names_and_fitting),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
