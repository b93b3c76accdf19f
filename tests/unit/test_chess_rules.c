/* test_chess_rules.c: unit tests for the chess referee's repetition history
 * (src/referee/chess_rules.c): every count, previous occurrence and lookup is
 * compared with a brute-force search over all earlier positions, on long random
 * walks of reversible moves (past the short-history scan into the table), after
 * clears, and on copies taken at every length, the counts settled at every third ply
 * (so also after several uncounted entries of the short stretch); and a key hit on a
 * different position (other men, or the same men without the en passant right) is
 * never taken for a repetition. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/chess.h"
#include "core/prng.h"
#include "referee/chess_rules.h"

#define WALK_PLIES 400

/* Positions with few men, so that a random walk repeats often. */
static const char *const walk_fens[] = {
    "4k3/8/3n4/8/8/4N3/8/4K3 w - - 0 1",
    "7k/8/8/8/8/8/8/K5R1 w - - 0 1",
    "r3k3/8/8/8/8/8/8/4K2R b - - 0 1",
};

typedef struct brute {
    chess_ident id[WALK_PLIES + 1];
    int prev[WALK_PLIES + 1], count[WALK_PLIES + 1], ply[WALK_PLIES + 1];
    int n;
} brute;

/* The latest earlier entry equal to id, or -1, and how often id stood (this time
 * included) when added now. */
static int brute_prev(const brute *b, const chess_ident *id, int *count)
{
    int prev = -1;
    *count = 1;
    for (int k = 0; k < b->n; k++)
        if (chess_ident_equal(&b->id[k], id)) {
            prev = k;
            (*count)++;
        }
    return prev;
}

/* A random legal move that captures nothing and moves no pawn: the history goes on.
 * Half the time the move is back, when *m (the mover's move two plies ago, or
 * CHESS_MOVE_NONE) can be taken back: so positions repeat often. */
static bool reversible_move(const chess_pos *pos, uint64_t *rng, chess_move *m)
{
    chess_move back = chess_move_make(chess_move_to(*m), chess_move_from(*m), CHESS_MOVE_NORMAL);
    bool want_back = *m != CHESS_MOVE_NONE && prng_next(rng) % 2;
    chess_movelist list;
    chess_move keep[256];
    int n = 0;
    chess_gen_legal(pos, &list);
    for (int i = 0; i < list.count; i++) {
        int to = chess_move_to(list.moves[i]);
        if (chess_piece_at(pos, to) || chess_move_kind(list.moves[i]) == CHESS_MOVE_CASTLE)
            continue;
        keep[n++] = list.moves[i];
        if (want_back && list.moves[i] == back) {
            *m = back;
            return true;
        }
    }
    if (!n)
        return false;
    *m = keep[prng_next(rng) % (uint64_t)n];
    return true;
}

/* Settle r's counts (pos: its newest position) and check every entry against the
 * brute-force answers. */
static void settle_and_check(chess_rep *r, const brute *b, const chess_pos *pos)
{
    chess_rep_settle(r, pos);
    assert_int_equal(r->n, b->n);
    int max = 0;
    for (int k = 0; k < r->n; k++) {
        assert_int_equal(r->e[k].prev, b->prev[k]);
        assert_int_equal(r->e[k].count, b->count[k]);
        assert_int_equal(chess_rep_ply(r, &r->e[k]), b->ply[k]);
        max = b->count[k] > max ? b->count[k] : max;
    }
    assert_int_equal(r->max_count, max);
}

/* Add pos to r and b (the first position of an empty history by chess_rep_restart)
 * and check the entry against the brute-force answer: at once when chess_rep_add
 * counts it, else by settling at every third ply. */
static void add_and_check(chess_rep *r, brute *b, const chess_pos *pos, chess_move move, int ply)
{
    chess_ident id;
    int count;
    chess_ident_of(pos, &id);
    int prev = brute_prev(b, &id, &count);
    const chess_rep_entry *found = chess_rep_find(r, pos, move);
    assert_true(prev < 0 ? found == NULL : found == &r->e[prev]);
    const chess_rep_entry *e = NULL;
    if (r->n == 0)
        chess_rep_restart(r, pos, ply);
    else
        e = chess_rep_add(r, pos, move);
    b->id[b->n] = id;
    b->prev[b->n] = prev;
    b->count[b->n] = count;
    b->ply[b->n++] = ply;
    assert_int_equal(r->n, b->n);
    if (e) {
        assert_ptr_equal(e, &r->e[r->n - 1]);
        assert_int_equal(e->prev, prev);
        assert_int_equal(e->count, count);
    } else {
        /* uncounted: no position can have stood five times yet */
        assert_true(r->n <= CHESS_REP_LAZY_MAX);
        assert_true(count < 5);
    }
    if (ply % 3 == 0)
        settle_and_check(r, b, pos);
}

/* A walk's start: a history in a, its brute-force twin b emptied, pos set to fen and
 * added to both. */
static void walk_begin(arena *a, chess_rep *r, brute *b, chess_pos *pos, const char *fen)
{
    arena_init(a);
    chess_rep_init(r, a);
    b->n = 0;
    char err[100];
    if (!chess_pos_from_fen(pos, fen, err, sizeof err))
        fail_msg("%s: %s", fen, err);
    add_and_check(r, b, pos, CHESS_MOVE_NONE, 0);
}

/* Long walks: hundreds of positions in one history, most of them seen many times. */
static void test_rep_long_walks(void **state)
{
    (void)state;
    uint64_t rng = PRNG_SEED;
    int repeats = 0, longest = 0;
    for (size_t f = 0; f < sizeof walk_fens / sizeof walk_fens[0]; f++) {
        for (int walk = 0; walk < 4; walk++) {
            arena a;
            chess_rep r;
            static brute b;
            chess_pos pos;
            walk_begin(&a, &r, &b, &pos, walk_fens[f]);
            chess_move hist[2] = { CHESS_MOVE_NONE, CHESS_MOVE_NONE };
            for (int ply = 1; ply <= WALK_PLIES; ply++) {
                chess_move m = hist[ply & 1];
                if (!reversible_move(&pos, &rng, &m))
                    break;
                hist[ply & 1] = m;
                chess_undo u;
                chess_make(&pos, m, &u);
                add_and_check(&r, &b, &pos, m, ply);
                repeats += b.count[b.n - 1] > 1;
            }
            settle_and_check(&r, &b, &pos);
            longest = r.n > longest ? r.n : longest;
            arena_free(&a);
        }
    }
    assert_true(repeats > 1000);
    assert_true(longest > 300);
}

/* Clears at random lengths, and copies of every length, go on like the original. */
static void test_rep_clear_and_copy(void **state)
{
    (void)state;
    uint64_t rng = PRNG_SEED ^ 0x77;
    arena a;
    chess_rep r;
    static brute b;
    chess_pos pos;
    walk_begin(&a, &r, &b, &pos, walk_fens[0]);
    chess_move hist[2] = { CHESS_MOVE_NONE, CHESS_MOVE_NONE };
    for (int ply = 1; ply <= WALK_PLIES; ply++) {
        chess_move m = hist[ply & 1];
        assert_true(reversible_move(&pos, &rng, &m));
        hist[ply & 1] = m;
        if (ply % 10 == 3) {
            /* a copy goes on as the original would: its next ten plies */
            chess_rep c;
            static brute cb;
            cb = b;
            chess_rep_copy(&c, &r, &a);
            assert_int_equal(c.n, r.n);
            assert_int_equal(c.max_count, r.max_count);
            chess_pos p = pos;
            uint64_t rng2 = rng;
            for (int k = 0; k < 10; k++) {
                chess_move m2 = CHESS_MOVE_NONE;
                assert_true(reversible_move(&p, &rng2, &m2));
                chess_undo u;
                chess_make(&p, m2, &u);
                add_and_check(&c, &cb, &p, m2, ply + k);
            }
            settle_and_check(&c, &cb, &p);
        }
        chess_undo u;
        chess_make(&pos, m, &u);
        if (prng_next(&rng) % 90 == 0) {
            /* as after an irreversible move: nothing before it counts */
            chess_rep_clear(&r);
            b.n = 0;
            assert_null(chess_rep_find(&r, &pos, m));
        }
        add_and_check(&r, &b, &pos, m, ply);
    }
    arena_free(&a);
}

/* A key hit is no repetition unless the position is the same (9.2.2): a position given
 * the key of any earlier, different one (the same side to move or not, in the short
 * scan and in the table) is found nowhere. The history keeps no boards, so this is the
 * check that it rebuilds them. */
static void test_rep_key_alone_is_not_enough(void **state)
{
    (void)state;
    uint64_t rng = PRNG_SEED ^ 0x1d;
    arena a;
    chess_rep r;
    static brute b;
    chess_pos pos;
    walk_begin(&a, &r, &b, &pos, walk_fens[1]);
    chess_move hist[2] = { CHESS_MOVE_NONE, CHESS_MOVE_NONE };
    int forged = 0;
    for (int ply = 1; ply <= 3 * CHESS_REP_SCAN_MAX; ply++) {
        chess_move m = hist[ply & 1];
        assert_true(reversible_move(&pos, &rng, &m));
        hist[ply & 1] = m;
        chess_undo u;
        chess_make(&pos, m, &u);
        chess_ident id;
        chess_ident_of(&pos, &id);
        for (int k = 0; k < r.n; k++) {
            if (chess_ident_equal(&b.id[k], &id))
                continue;
            chess_pos other = pos;
            other.key = r.e[k].key;
            assert_null(chess_rep_find(&r, &other, m));
            forged++;
        }
        add_and_check(&r, &b, &pos, m, ply);
    }
    assert_true(r.n > CHESS_REP_SCAN_MAX); /* the table was asked too */
    assert_true(forged > 1000);
    arena_free(&a);
}

/* 9.2.2.1: after a double push an en passant capture may be possible; the same men on
 * the same squares with the same side to move, once that right is gone, are another
 * position, even under the same key. Only the first position of a history can have the
 * right (the moves after it are quiet), so the history keeps it apart. */
static void test_rep_en_passant_right(void **state)
{
    (void)state;
    arena a;
    arena_init(&a);
    chess_rep r;
    chess_rep_init(&r, &a);
    chess_pos pos;
    char err[100];
    assert_true(chess_pos_from_fen(&pos, "1n2k3/8/8/3pP3/8/8/8/4K1N1 w - d6 0 2", err,
                                   sizeof err));
    assert_true(pos.ep_in_key); /* exd6 is legal */
    chess_ident first;
    chess_ident_of(&pos, &first);
    chess_rep_restart(&r, &pos, 0);
    static const char *const uci[] = {"g1f3", "b8c6", "f3g1", "c6b8"};
    for (int i = 0; i < 4; i++) {
        int from = (uci[i][1] - '1') * 8 + (uci[i][0] - 'a');
        int to = (uci[i][3] - '1') * 8 + (uci[i][2] - 'a');
        chess_move m = chess_move_make(from, to, CHESS_MOVE_NORMAL);
        chess_undo u;
        chess_make(&pos, m, &u);
        if (i == 3) {
            /* the first board again, the right gone: not the first position */
            chess_ident id;
            chess_ident_of(&pos, &id);
            assert_memory_equal(id.board, first.board, sizeof id.board);
            assert_false(chess_ident_equal(&id, &first));
            chess_pos forged = pos;
            forged.key = r.e[0].key;
            assert_null(chess_rep_find(&r, &forged, m));
            assert_null(chess_rep_find(&r, &pos, m));
        }
        chess_rep_add(&r, &pos, m);
        chess_rep_settle(&r, &pos);
        assert_int_equal(chess_rep_newest(&r)->count, 1);
    }
    /* a history restarted on the same position keeps the right apart too */
    assert_true(chess_pos_from_fen(&pos, "1n2k3/8/8/3pP3/8/8/8/4K1N1 w - d6 0 2", err,
                                   sizeof err));
    chess_rep_restart(&r, &pos, 7);
    assert_int_equal(r.n, 1);
    assert_int_equal(r.first_ep_file, 3);
    arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rep_long_walks),
        cmocka_unit_test(test_rep_clear_and_copy),
        cmocka_unit_test(test_rep_key_alone_is_not_enough),
        cmocka_unit_test(test_rep_en_passant_right),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
