/* test_time_control.c: the PGN TimeControl parser, FIDE's rapid and blitz thresholds,
 * the xiangqi game-type words, the decision from a game's tags
 * (src/referee/time_control.c), the normal forms of the results the rules compare and
 * the clocks that ran out (src/referee/replay_util.c), and the annex's tests on xiangqi moves and material
 * (src/referee/xq_annex.c). */
#include <config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "record/arena.h"
#include "referee/referee.h"
#include "referee/replay_util.h"
#include "referee/time_control.h"
#include "referee/xq_annex.h"

static long parsed(const char *text)
{
    long s = -2;
    if (!tc_parse_pgn(text, &s))
        return -1;
    return s;
}

/* PGN standard 9.6.1 forms; the measure is FIDE's: time + 60 x increment */
static void test_parse(void **state)
{
    (void)state;
    assert_int_equal(parsed("300"), 300);              /* sudden death */
    assert_int_equal(parsed("180+2"), 180 + 120);      /* with an increment */
    assert_int_equal(parsed("5400+30"), 5400 + 1800);
    assert_int_equal(parsed("40/9000:300"), 9300);     /* periods summed */
    assert_int_equal(parsed("40/5400+30:1800+30"), 5400 + 1800 + 1800);
    assert_int_equal(parsed("*180"), 180);             /* sandclock */
    assert_int_equal(parsed(" 600 "), 600);
    assert_int_equal(parsed("?"), -1);                 /* unknown */
    assert_int_equal(parsed("-"), -1);                 /* no time control */
    assert_int_equal(parsed(""), -1);
    assert_int_equal(parsed("15 min"), -1);
    assert_int_equal(parsed("40/"), -1);
    assert_int_equal(parsed("0/300"), -1);
    assert_int_equal(parsed("300+"), -1);
    assert_int_equal(parsed("300:"), -1);
    assert_int_equal(parsed("99999999999"), -1);       /* no overflow */
}

/* FIDE Laws A.1, B.1: blitz 10 minutes or less; rapid more than 10, less than 60 */
static void test_thresholds(void **state)
{
    (void)state;
    assert_int_equal(tc_classify_seconds(60), TC_BLITZ);
    assert_int_equal(tc_classify_seconds(600), TC_BLITZ);      /* exactly 10: blitz */
    assert_int_equal(tc_classify_seconds(601), TC_RAPID);
    assert_int_equal(tc_classify_seconds(3599), TC_RAPID);
    assert_int_equal(tc_classify_seconds(3600), TC_STANDARD);  /* exactly 60: standard */
    long s;
    assert_true(tc_parse_pgn("300+5", &s));                    /* 5 + 60 x 5 s = 10 min */
    assert_int_equal(tc_classify_seconds(s), TC_BLITZ);
    assert_true(tc_parse_pgn("600+1", &s));                    /* 11 min: rapid */
    assert_int_equal(tc_classify_seconds(s), TC_RAPID);
    assert_true(tc_parse_pgn("2700+15", &s));                  /* 45 + 15 = 60: standard */
    assert_int_equal(tc_classify_seconds(s), TC_STANDARD);
    assert_true(tc_parse_pgn("1500+10", &s));                  /* 25 + 10 = 35: rapid */
    assert_int_equal(tc_classify_seconds(s), TC_RAPID);
}

static void test_words(void **state)
{
    (void)state;
    assert_int_equal(tc_classify_word("快棋"), TC_RAPID);
    assert_int_equal(tc_classify_word("超快棋"), TC_BLITZ);
    assert_int_equal(tc_classify_word("慢棋"), TC_STANDARD);
    assert_int_equal(tc_classify_word("闪电战"), TC_BLITZ);
    assert_int_equal(tc_classify_word("Cờ nhanh"), TC_RAPID);
    assert_int_equal(tc_classify_word("Cờ chớp nhoáng"), TC_BLITZ);
    assert_int_equal(tc_classify_word("Blitz"), TC_BLITZ);
    assert_int_equal(tc_classify_word("全局"), TC_AUTO);
    tc_kind k;
    assert_true(tc_kind_from_name("rapid", &k) && k == TC_RAPID);
    assert_true(tc_kind_from_name("classical", &k) && k == TC_STANDARD);
    assert_false(tc_kind_from_name("bullet", &k));
}

static void test_decide(void **state)
{
    (void)state;
    arena store;
    arena_init(&store);
    arena *a = &store;
    rec_game g;
    rec_game_init(&g, a, "-", 1);
    rec_span at = {1, 1, 0};
    tc_decision d;
    tc_decide(&g, TC_AUTO, &d);
    assert_int_equal(d.kind, TC_STANDARD);
    assert_int_equal(d.source, TC_SOURCE_DEFAULT);
    /* an Event name is not a clock */
    rec_game_add_tag(&g, "Event", "World Blitz Championship", at);
    tc_decide(&g, TC_AUTO, &d);
    assert_int_equal(d.source, TC_SOURCE_DEFAULT);
    /* PlayOK's WXF EVENT holds the clock after ';' */
    rec_game_add_tag(&g, "EVENT", "PlayOK Game ; 3m+2s", at);
    tc_decide(&g, TC_AUTO, &d);
    assert_int_equal(d.kind, TC_BLITZ);
    assert_int_equal(d.source, TC_SOURCE_TAG);
    assert_int_equal(d.seconds, 300);
    rec_game_init(&g, a, "-", 2);
    rec_game_add_tag(&g, "TimeControl", "900+10", at);
    tc_decide(&g, TC_AUTO, &d);
    assert_int_equal(d.kind, TC_RAPID);
    assert_string_equal(d.tag, "TimeControl");
    char why[200];
    tc_explain(&d, why, sizeof why);
    assert_non_null(strstr(why, "FIDE A.1"));
    /* the option wins over the tag */
    tc_decide(&g, TC_BLITZ, &d);
    assert_int_equal(d.kind, TC_BLITZ);
    assert_int_equal(d.source, TC_SOURCE_OPTION);
    rec_game_init(&g, a, "-", 3);
    rec_game_add_tag(&g, "TimeControl", "-", at);
    tc_decide(&g, TC_AUTO, &d);
    assert_int_equal(d.kind, TC_STANDARD);
    assert_int_equal(d.source, TC_SOURCE_TAG);
    rec_game_init(&g, a, "-", 4);
    rec_game_add_tag(&g, "gametype", "超快棋", at);
    tc_decide(&g, TC_AUTO, &d);
    assert_int_equal(d.kind, TC_BLITZ);
    arena_free(a);
}

/* tc_explain keeps the last tag's sentence per thread: a hit must give the words a
 * fresh print would, and any change of tag, value, clock or buffer size must miss */
static void test_explain_memo(void **state)
{
    (void)state;
    tc_decision d = {.kind = TC_RAPID, .source = TC_SOURCE_TAG, .tag = "TimeControl",
                     .value = "900+10", .seconds = 1500};
    char a[200], b[200], small[12];
    tc_explain(&d, a, sizeof a);
    tc_explain(&d, b, sizeof b);
    assert_string_equal(a, b);
    assert_non_null(strstr(a, "\"900+10\" gives 25:00"));
    /* the same words from new strings with the same text */
    char tag[] = "TimeControl", value[] = "900+10";
    d.tag = tag;
    d.value = value;
    tc_explain(&d, b, sizeof b);
    assert_string_equal(a, b);
    /* another value, another clock */
    d.value = "600+5";
    d.seconds = 900;
    tc_explain(&d, b, sizeof b);
    assert_non_null(strstr(b, "\"600+5\" gives 15:00"));
    /* a smaller buffer is cut as snprintf cuts it, and the full one comes back after */
    tc_explain(&d, small, sizeof small);
    assert_int_equal(strlen(small), sizeof small - 1);
    assert_memory_equal(small, b, sizeof small - 1);
    tc_explain(&d, a, sizeof a);
    assert_string_equal(a, b);
    /* another tag with the same value, and a word rather than a clock */
    d = (tc_decision){.kind = TC_BLITZ, .source = TC_SOURCE_TAG, .tag = "TimeRule",
                      .value = "600+5", .seconds = -1};
    tc_explain(&d, b, sizeof b);
    assert_non_null(strstr(b, "TimeRule \"600+5\""));
    assert_null(strstr(b, "gives"));
}

static xq_pos fen(const char *text)
{
    xq_pos pos;
    char err[200];
    if (!xq_pos_from_fen(&pos, text, err, sizeof err))
        fail_msg("bad FEN %s: %s", text, err);
    return pos;
}

/* annex §4.3, §4.4: which illegal moves stand, which must be put right */
static void test_annex_moves(void **state)
{
    (void)state;
    xq_pos start = fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    /* a horse over its leg: an illegal move that may stand */
    xq_move m = xq_move_from_ucci("b0d1");
    assert_int_equal(xq_annex_classify(&start, m), XQ_ANNEX_ILLEGAL);
    assert_false(xq_annex_must_put_right(&start, m));
    /* a soldier sideways before the river: put right */
    m = xq_move_from_ucci("c3d3");
    assert_int_equal(xq_annex_classify(&start, m), XQ_ANNEX_ILLEGAL);
    assert_true(xq_annex_must_put_right(&start, m));
    /* an own capture is no move */
    assert_int_equal(xq_annex_classify(&start, xq_move_from_ucci("a0a3")), XQ_ANNEX_UNPLAYABLE);
    /* an elephant across the river, an advisor off its points: put right */
    xq_pos p = fen("3k5/9/9/9/9/9/9/9/9/2BAK4 w - - 0 1");
    assert_true(xq_annex_must_put_right(&p, xq_move_from_ucci("c0c5")));
    assert_true(xq_annex_must_put_right(&p, xq_move_from_ucci("d0d1")));
    assert_false(xq_annex_must_put_right(&p, xq_move_from_ucci("d0e1")));
    /* the generals left facing: §4.4 */
    p = fen("r3k4/9/9/9/4C4/9/9/9/9/R3K4 w - - 0 1");
    assert_int_equal(xq_annex_classify(&p, xq_move_from_ucci("e5d5")), XQ_ANNEX_GENERAL_EXPOSED);
}

/* annex §8: the material that can never mate */
static void test_annex_material(void **state)
{
    (void)state;
    const char *why;
    xq_pos p = fen("3k5/9/9/9/9/9/9/r8/9/3AKA3 w - - 0 1");
    assert_true(xq_annex_cannot_mate(&p, XQ_RED, &why));
    assert_false(xq_annex_cannot_mate(&p, XQ_BLACK, &why));
    p = fen("3k5/9/9/9/9/9/9/9/9/2C1K4 w - - 0 1");          /* lone cannon, bare general */
    assert_true(xq_annex_cannot_mate(&p, XQ_RED, &why));
    p = fen("3k5/9/9/9/9/9/9/9/9/2CAK4 w - - 0 1");          /* an advisor to screen with */
    assert_false(xq_annex_cannot_mate(&p, XQ_RED, &why));
    p = fen("3k5/9/9/9/9/9/9/9/4p4/4K4 w - - 0 1");          /* a soldier can mate */
    assert_false(xq_annex_cannot_mate(&p, XQ_BLACK, &why));
}

/* annex §8 beyond the material: a helpmate the loser helps to */
static void test_annex_helpmate(void **state)
{
    (void)state;
    xq_move line[8];
    int len;
    long nodes;
    /* a chariot mates at once on the d file: the e file is the red general's */
    xq_pos p = fen("9/3k5/9/9/9/9/9/9/R8/4K4 w - - 0 1");
    assert_true(xq_annex_helpmate(&p, XQ_RED, 7, 20000, line, &len, &nodes));
    assert_int_equal(len, 1);
    assert_int_equal(line[0], xq_move_from_ucci("a1d1"));
    /* nothing to mate with: the search finds nothing and says how far it looked */
    p = fen("3k5/9/9/9/9/9/9/r8/9/3AKA3 w - - 0 1");
    assert_false(xq_annex_helpmate(&p, XQ_RED, 3, 20000, line, &len, &nodes));
    assert_true(nodes > 0);
}

/* Each result in its normal form: the standard's own forms as they are (the short way),
 * the others through the compact copy, anything else none. */
static void test_normal_result(void **state)
{
    (void)state;
    static const char *const same[] = {"1-0", "0-1", "1/2-1/2", "*"};
    for (size_t i = 0; i < sizeof same / sizeof *same; i++)
        assert_string_equal(referee_normal_result(same[i]), same[i]);
    assert_string_equal(referee_normal_result("1 - 0"), "1-0");
    assert_string_equal(referee_normal_result("0 -1"), "0-1");
    assert_string_equal(referee_normal_result("\xc2\xbd-\xc2\xbd"), "1/2-1/2");
    assert_string_equal(referee_normal_result("1/2"), "1/2-1/2");
    assert_string_equal(referee_normal_result("="), "1/2-1/2");
    assert_string_equal(referee_normal_result(" *"), "*");
    static const char *const none[] = {"", "1", "1-", "1-00", "0-10", "**", "1/2-1", "1/2-1/2x",
                                       "2-0", "0-0"};
    for (size_t i = 0; i < sizeof none / sizeof *none; i++)
        assert_null(referee_normal_result(none[i]));
    assert_null(referee_normal_result(NULL));
}

/* A clock that ran out, as the comment parser reads [%clk]: the usual running clocks
 * (decided without it), the values at zero, and the forms only it can decide. */
static void test_clock_ran_out(void **state)
{
    (void)state;
    arena a;
    arena_init(&a);
    static const char *const out[] = {
        "[%clk 0:00:00]", "[%clk 0:00:00.04]", "[%clk\t0:00:00 ]", "[%clk 0]",
        "[%eval 0.3] [%clk 0:00:00]", "[%clk 0:03:12] lost on time [%clk 0:00:00]",
        "[%clk 1e-9]", "[%clk 0x0]",
    };
    for (size_t i = 0; i < sizeof out / sizeof *out; i++)
        assert_true(replay_clock_ran_out(&a, out[i]));
    static const char *const running[] = {
        "[%clk 0:00:01]", "[%clk 0:00:00.06]", "[%clk 1:30:00]", "[%clk 0.5:00]",
        "[%eval 0.3] [%clk 0:03:12]", "[%clk 0:00:00", "[%clkx 0:00:00]", "[%clk]",
        "[%eval [%clk 0:00:00]", "%clk 0:00:00", "[%clk 0:00:-1]", "[%clk 0:00:00:00]",
        "[%clk 0::00]", "[%clk 0:00:00.0.0]",
    };
    for (size_t i = 0; i < sizeof running / sizeof *running; i++)
        assert_false(replay_clock_ran_out(&a, running[i]));
    arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),         cmocka_unit_test(test_thresholds),
        cmocka_unit_test(test_words),         cmocka_unit_test(test_decide),
        cmocka_unit_test(test_annex_moves),   cmocka_unit_test(test_annex_material),
        cmocka_unit_test(test_annex_helpmate), cmocka_unit_test(test_normal_result),
        cmocka_unit_test(test_clock_ran_out),
        cmocka_unit_test(test_explain_memo),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
