/* random_positions.c: positions reached by random legal play, for differential tests.
 *
 * Usage: random_positions chess|xiangqi COUNT SEED
 * Prints COUNT FENs, one a line. Each comes from a fresh game of random legal moves
 * of random length (up to 200 plies), so castling, en passant, promotions, checks and
 * double checks all turn up; a quarter of the lines are positions in check, which is
 * where move generators go wrong most. The sequence depends only on SEED. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>

#include "core/prng.h"
#include "core/variant.h"

/* Play up to plies random legal moves from the start; stop early at a game end. */
static void random_game(const variant *v, variant_pos *pos, int plies, uint64_t *rng)
{
    char err[128];
    v->from_fen(pos, v->start_fen, err, sizeof err);
    for (int i = 0; i < plies; i++) {
        uint16_t moves[VARIANT_MAX_MOVES];
        int count = v->gen_legal(pos, moves);
        if (count == 0)
            return;
        variant_undo undo;
        v->make(pos, moves[prng_next(rng) % (uint64_t)count], &undo);
    }
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: random_positions chess|xiangqi COUNT SEED\n");
        return 2;
    }
    const variant *v = variant_by_name(argv[1]);
    long count = strtol(argv[2], NULL, 10);
    uint64_t rng = strtoull(argv[3], NULL, 10) | 1;
    if (!v || count < 0) {
        fprintf(stderr, "random_positions: bad arguments\n");
        return 2;
    }
    for (long n = 0; n < count; n++) {
        variant_pos pos;
        bool want_check = n % 4 == 3;
        /* Positions in check are rarer; retry a bounded number of games for one. */
        for (int attempt = 0; attempt < 200; attempt++) {
            random_game(v, &pos, (int)(prng_next(&rng) % 200), &rng);
            uint16_t moves[VARIANT_MAX_MOVES];
            if (v->gen_legal(&pos, moves) == 0)
                continue; /* game over: perft is trivially 0 */
            if (!want_check || v->in_check(&pos))
                break;
        }
        char fen[128];
        v->to_fen(&pos, fen, sizeof fen);
        puts(fen);
    }
    return 0;
}
