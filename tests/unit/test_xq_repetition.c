/* test_xq_repetition.c: the xiangqi chase classifier and the cycle judge
 * (src/referee/xq_repetition.c). Squares and moves in UCCI (ranks 0-9). */
#include <config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "referee/xq_repetition.h"

static xq_pos fen(const char *text)
{
    xq_pos pos;
    char err[200];
    if (!xq_pos_from_fen(&pos, text, err, sizeof err))
        fail_msg("bad FEN %s: %s", text, err);
    return pos;
}

static int sq(const char *name) { return XQ_SQ(name[0] - 'a', name[1] - '0'); }

static xqrep_class classify(const char *position, const char *move, referee_rules rules)
{
    xq_pos pos = fen(position);
    xq_move m = xq_move_from_ucci(move);
    assert_true(xq_is_legal(&pos, m));
    xqrep_class c;
    xqrep_classify(&pos, m, rules, &c);
    return c;
}

static void assert_chases(const xqrep_class *c, const char *target, const char *chaser)
{
    assert_int_equal(c->kind, XQREP_CHASE);
    for (int i = 0; i < c->count; i++)
        if (c->chased[i] == sq(target)) {
            assert_int_equal(c->chaser[i], sq(chaser));
            return;
        }
    fail_msg("%s is not chased", target);
}

/* A chariot newly attacks an unprotected horse: a chase. */
static void test_unprotected_horse(void **state)
{
    (void)state;
    xqrep_class c = classify("4k4/9/9/9/9/n8/9/9/9/2RK5 w - - 0 1", "c0a0", REFEREE_RULES_VN);
    assert_chases(&c, "a4", "a0");
    assert_int_equal(c.count, 1);
}

/* A chariot attacks a cannon protected by a chariot: not a chase. */
static void test_protected_cannon_by_chariot(void **state)
{
    (void)state;
    xqrep_class c = classify("2r1k4/9/9/R8/2c6/9/9/9/9/3K5 w - - 0 1", "a6a5", REFEREE_RULES_VN);
    assert_int_equal(c.kind, XQREP_IDLE);
    assert_int_equal(c.count, 0);
}

/* A cannon attacks a chariot protected by a horse: a chase all the same (AXF). */
static void test_cannon_on_protected_chariot(void **state)
{
    (void)state;
    xqrep_class c = classify("4k4/9/1n7/9/r8/P1P6/9/9/9/2CK5 w - - 0 1", "c0a0", REFEREE_RULES_AXF);
    assert_chases(&c, "a5", "a0");
}

/* The only protector is an advisor between the generals: recapturing would make them
 * face each other (a fake root), so the horse is chased. With the red general off the
 * file the root is real and nothing is chased. */
static void test_flying_general_fake_root(void **state)
{
    (void)state;
    xqrep_class c = classify("4k4/4a4/3n5/9/9/9/9/9/9/2R1K4 w - - 0 1", "c0d0", REFEREE_RULES_VN);
    assert_chases(&c, "d7", "d0");
    c = classify("4k4/4a4/3n5/9/9/9/9/9/9/2R2K3 w - - 0 1", "c0d0", REFEREE_RULES_VN);
    assert_int_equal(c.kind, XQREP_IDLE);
}

/* A protector pinned by a chariot against its own general is a fake root too: the
 * advisor on e8 would expose its general to the red chariot on e1. */
static void test_pinned_protector(void **state)
{
    (void)state;
    xqrep_class c = classify("4k4/4a4/3n5/9/9/9/9/9/4R4/2R2K3 w - - 0 1", "c0d0", REFEREE_RULES_VN);
    assert_chases(&c, "d7", "d0");
}

/* Soldiers and the general are exempt chasers; an uncrossed soldier is no target. */
static void test_exempt_chasers_and_targets(void **state)
{
    (void)state;
    /* a crossed red soldier steps next to a black horse: no chase */
    xqrep_class c = classify("4k4/9/9/3n5/3P5/9/9/9/9/3K5 w - - 0 1", "d5d6", REFEREE_RULES_VN);
    assert_int_equal(c.kind, XQREP_IDLE);
    /* a red chariot attacks an uncrossed black soldier: no chase */
    c = classify("4k4/9/9/p8/9/9/9/9/9/2RK5 w - - 0 1", "c0a0", REFEREE_RULES_VN);
    assert_int_equal(c.kind, XQREP_IDLE);
    /* ... but a crossed one is a target */
    c = classify("4k4/9/9/9/9/p8/9/9/9/2RK5 w - - 0 1", "c0a0", REFEREE_RULES_VN);
    assert_chases(&c, "a4", "a0");
}

/* Two chariots facing each other: a mutual attack, not a chase; a check is a CHECK. */
static void test_mutual_and_check(void **state)
{
    (void)state;
    xqrep_class c = classify("4k4/9/9/9/9/r8/9/9/9/2RK5 w - - 0 1", "c0a0", REFEREE_RULES_VN);
    assert_int_equal(c.kind, XQREP_IDLE);
    c = classify("3k5/9/9/9/9/5p3/9/5p3/4K4/5C3 b - - 0 1", "f2e2", REFEREE_RULES_VN);
    assert_int_equal(c.kind, XQREP_CHECK);
}

/* A mate threat (needed under CXA): with the chariots on a8 and b1, b1-b9 mates the
 * lone general; without them there is none. */
static void test_mate_threat(void **state)
{
    (void)state;
    xq_pos pos = fen("4k4/R8/9/9/9/9/9/9/1R7/3K5 b - - 0 1");
    assert_true(xqrep_mate_threat(&pos, XQ_RED));
    assert_false(xqrep_mate_threat(&pos, XQ_BLACK));
    pos = fen("3aka3/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
    assert_false(xqrep_mate_threat(&pos, XQ_RED));
    /* under CXA a quiet move creating that threat is a KILL, under VN it is not */
    xqrep_class c = classify("4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1", "b0b1", REFEREE_RULES_CXA);
    assert_int_equal(c.kind, XQREP_KILL);
    c = classify("4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1", "b0b1", REFEREE_RULES_VN);
    assert_int_equal(c.kind, XQREP_IDLE);
}

static xq_move u(const char *m) { return xq_move_from_ucci(m); }

/* The judge: the soldier's perpetual check (Art. 7.1g), a mutual perpetual check
 * (Art. 7.2c), a perpetual chase (Art. 7.1h). */
static void test_judge(void **state)
{
    (void)state;
    xq_pos p = fen("3k5/9/9/9/9/5p3/9/5p3/5K3/5C3 w - - 0 1");
    const xq_move soldier[] = {u("f1e1"), u("f2e2"), u("e1f1"), u("e2f2"),
                               u("f1e1"), u("f2e2"), u("e1f1"), u("e2f2")};
    xqrep_verdict v;
    xqrep_judge(&p, soldier, 8, REFEREE_RULES_VN, &v);
    assert_int_equal(v.loser, XQ_BLACK);
    assert_int_equal(v.fault[XQ_BLACK], XQREP_PERPETUAL_CHECK);
    assert_int_equal(v.check_piece[XQ_BLACK], XQ_SOLDIER);
    /* the king's steps uncover the cannon on f0 against the soldier on f4 each time: a
     * perpetual chase by Red, but perpetual check outranks it (Art. 7.1g; CXA 26.1) */
    assert_int_equal(v.fault[XQ_RED], XQREP_PERPETUAL_CHASE);

    p = fen("9/4c4/3k5/3r5/9/9/4C4/9/4K4/3R5 w - - 0 1");
    const xq_move mutual[] = {u("e3d3"), u("d6e6"), u("d3e3"), u("e6d6"),
                              u("e3d3"), u("d6e6"), u("d3e3"), u("e6d6")};
    xqrep_judge(&p, mutual, 8, REFEREE_RULES_VN, &v);
    assert_int_equal(v.loser, -1);
    assert_int_equal(v.fault[XQ_RED], XQREP_PERPETUAL_CHECK);
    assert_int_equal(v.fault[XQ_BLACK], XQREP_PERPETUAL_CHECK);

    /* the chase of the unprotected horse: Red loses, the horse is named */
    p = fen("4k4/9/9/9/9/n8/9/9/9/2RK5 w - - 0 1");
    const xq_move chase[] = {u("c0a0"), u("a4c5"), u("a0c0"), u("c5a4"),
                             u("c0a0"), u("a4c5"), u("a0c0"), u("c5a4")};
    xqrep_judge(&p, chase, 8, REFEREE_RULES_AXF, &v);
    assert_int_equal(v.loser, XQ_RED);
    assert_int_equal(v.fault[XQ_RED], XQREP_PERPETUAL_CHASE);
    assert_int_equal(XQ_TYPE(v.chased_piece[XQ_RED]), XQ_HORSE);
    assert_int_equal(XQ_TYPE(v.chaser_piece[XQ_RED]), XQ_CHARIOT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unprotected_horse),
        cmocka_unit_test(test_protected_cannon_by_chariot),
        cmocka_unit_test(test_cannon_on_protected_chariot),
        cmocka_unit_test(test_flying_general_fake_root),
        cmocka_unit_test(test_pinned_protector),
        cmocka_unit_test(test_exempt_chasers_and_targets),
        cmocka_unit_test(test_mutual_and_check),
        cmocka_unit_test(test_mate_threat),
        cmocka_unit_test(test_judge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
