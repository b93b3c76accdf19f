/* test_batch_classify.c: a PGN game's variant from its tags (batch_classify_by_tags):
 * xiangqi for Game "Chinese Chess" and Variant "xiangqi" (any case, the first tag of
 * the name counts, as rec_game_tag), for any Red or RedTeam tag; chess for names one
 * byte shorter or longer; --variant decides over the tags. */
#include <config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "batch/batch_replay.h"
#include "record/arena.h"
#include "record/record.h"

/* The kind of a game with the tags (name, value pairs, NULL ended), forced as given. */
static rec_game_kind kind_of(const char *const *tags, int forced)
{
    arena a;
    arena_init(&a);
    rec_game g;
    rec_game_init(&g, &a, "t.pgn", 1);
    g.result = "*";
    for (int i = 0; tags[i]; i += 2)
        rec_game_add_tag(&g, tags[i], tags[i + 1], (rec_span){.line = 1});
    batch_classify_by_tags(&g, forced);
    rec_game_kind k = g.kind;
    arena_free(&a);
    return k;
}

static void test_xiangqi_tags(void **state)
{
    (void)state;
    const char *const xiangqi[][7] = {
        {"Game", "Chinese Chess", NULL},
        {"Event", "e", "Game", "chinese chess", NULL},
        {"Variant", "XiangQi", NULL},
        {"Red", "r", NULL},
        {"Round", "1", "Result", "*", "RedTeam", "t", NULL},
        {"Game", "Chinese Chess", "Game", "Chess", NULL},
    };
    for (size_t i = 0; i < sizeof xiangqi / sizeof xiangqi[0]; i++)
        assert_int_equal(kind_of(xiangqi[i], -1), REC_XIANGQI);
    const char *const chess[][7] = {
        {"Gam", "Chinese Chess", NULL},
        {"Games", "Chinese Chess", NULL},
        {"Variants", "xiangqi", NULL},
        {"Varian", "xiangqi", NULL},
        {"Re", "r", "Redd", "r", "RedTea", "t", NULL},
        {"RedTeams", "t", "Round", "1", "Result", "*", NULL},
        {"Game", "Chess", "Game", "Chinese Chess", NULL},
        {"Variant", "chess", "Variant", "xiangqi", NULL},
    };
    for (size_t i = 0; i < sizeof chess / sizeof chess[0]; i++)
        assert_int_equal(kind_of(chess[i], -1), REC_CHESS);
    assert_int_equal(kind_of(xiangqi[3], REC_CHESS), REC_CHESS);
    assert_int_equal(kind_of(chess[0], REC_XIANGQI), REC_XIANGQI);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_xiangqi_tags),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
