/* dp_selfcheck.c: the self-check of the default FIDE 6.9 proofs (dp_prove_unwinnable).
 *
 * Usage: dp_selfcheck [-n PROOF_NODES] [-m MATE_NODES] [-v] < CASES
 *        dp_selfcheck [-n ...] [-m ...] [-v] -r COUNT SEED
 *        dp_selfcheck [-n ...] [-m ...] [-v] -p COUNT SEED < CASES
 * CASES: one question a line, "FEN<TAB>WINNER<TAB>TRUTH", WINNER w or b, TRUTH yes (the
 * winner can still mate), no (it cannot) or ? (unknown). With -r, COUNT random positions
 * from SEED instead: half locked pawn structures with a few pieces (where the static
 * rules fire), half from random play; both sides of each are asked. With -p, COUNT
 * near variants of each case instead (a few men moved or taken off, either side to
 * move): positions on both sides of the line each rule draws.
 *
 * Every question gets the default answer (the proofs, PROOF_NODES nodes, 2000 unless
 * told). Each "unwinnable" is then put to the plain helpmate search (dp_find_helpmate,
 * which uses no proof that could share a fault with the rules) with
 * MATE_NODES nodes (default 2,000,000): a mate found there, or a TRUTH of yes,
 * contradicts it. Prints the figures; exit status 1 on any contradiction. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/chess.h"
#include "core/prng.h"
#include "referee/dead_position.h"

typedef struct tally {
    long asked, refused, unwinnable, truth_no, truth_no_found, contradictions, mates_found;
} tally;

static long proof_nodes = 2000, mate_nodes = 2000000;
static int verbose;

/* One question: the default answer, then the big search against each "unwinnable". */
static void ask(const chess_pos *pos, const char *fen, int winner, char truth, tally *t)
{
    t->asked++;
    if (truth == 'n')
        t->truth_no++;
    dp_info info;
    if (dp_prove_unwinnable(pos, winner, proof_nodes, &info) != DP_UNWINNABLE) {
        if (verbose && truth == 'n')
            printf("undecided\t%s\t%c\n", fen, winner == CHESS_WHITE ? 'w' : 'b');
        return;
    }
    t->unwinnable++;
    if (truth == 'n')
        t->truth_no_found++;
    dp_info big;
    dp_verdict v = dp_find_helpmate(pos, winner, mate_nodes, &big);
    if (v == DP_WINNABLE)
        t->mates_found++;
    if (v == DP_WINNABLE || truth == 'y') {
        t->contradictions++;
        printf("CONTRADICTION\t%s\t%c\tproof: %s\tsearch: %s\n", fen,
               winner == CHESS_WHITE ? 'w' : 'b', info.reason, dp_verdict_name(v));
    } else if (verbose)
        printf("unwinnable\t%s\t%c\t%s\tsearch: %s\n", fen, winner == CHESS_WHITE ? 'w' : 'b',
               info.reason, dp_verdict_name(v));
}

/* An unlabelled position: read it (a refusal is counted, not asked) and ask for both
 * sides. */
static void ask_both_sides(const char *fen, tally *t)
{
    chess_pos pos;
    char err[128];
    if (!chess_pos_from_fen(&pos, fen, err, sizeof err)) {
        t->refused++;
        return;
    }
    ask(&pos, fen, CHESS_WHITE, '?', t);
    ask(&pos, fen, CHESS_BLACK, '?', t);
}

static void read_cases(tally *t)
{
    char line[512];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = 0;
        char *w = strchr(line, '\t');
        if (!w || !w[1])
            continue;
        *w++ = 0;
        char *truth = strchr(w, '\t');
        char tr = truth ? truth[1] : '?';
        chess_pos pos;
        char err[128];
        if (!chess_pos_from_fen(&pos, line, err, sizeof err)) {
            t->refused++;
            continue;
        }
        ask(&pos, line, w[0] == 'w' ? CHESS_WHITE : CHESS_BLACK, tr, t);
    }
}

/* board[rank * 8 + file], '.' for empty: the FEN, no castling or en passant. */
static void board_fen(const char *board, char side, char *fen, size_t size)
{
    size_t len = 0;
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            char c = board[rank * 8 + file];
            if (c == '.') {
                empty++;
                continue;
            }
            if (empty)
                fen[len++] = (char)('0' + empty);
            empty = 0;
            fen[len++] = c;
        }
        if (empty)
            fen[len++] = (char)('0' + empty);
        if (rank)
            fen[len++] = '/';
    }
    snprintf(fen + len, size - len, " %c - - 0 1", side);
}

/* The board of a FEN's first field into board[64]. */
static bool fen_board(const char *fen, char *board)
{
    memset(board, '.', 64);
    int rank = 7, file = 0;
    for (const char *c = fen; *c && *c != ' '; c++) {
        if (*c == '/') {
            rank--;
            file = 0;
        } else if (*c >= '1' && *c <= '8')
            file += *c - '0';
        else if (rank >= 0 && file < 8)
            board[rank * 8 + file++] = *c;
        else
            return false;
    }
    return true;
}

/* A near variant of a labelled position, where the rules are most likely to be wrong
 * if they can be: one to three men moved to random empty squares (no pawn to its first
 * or last rank) or taken off (kings never), and a random side to move. */
static void perturb(const char *fen, uint64_t *rng, char *out, size_t size)
{
    char board[64];
    if (!fen_board(fen, board)) {
        snprintf(out, size, "%s", fen);
        return;
    }
    int changes = 1 + (int)(prng_next(rng) % 3);
    for (int i = 0; i < changes; i++) {
        int from = (int)(prng_next(rng) % 64), tries = 0;
        while (board[from] == '.' && tries++ < 200)
            from = (int)(prng_next(rng) % 64);
        char pc = board[from];
        if (pc == '.')
            continue;
        if (pc != 'K' && pc != 'k' && prng_next(rng) % 4 == 0) {
            board[from] = '.';
            continue;
        }
        int to = (int)(prng_next(rng) % 64);
        bool pawn = pc == 'P' || pc == 'p';
        if (board[to] != '.' || (pawn && (to < 8 || to >= 56)))
            continue;
        board[to] = pc;
        board[from] = '.';
    }
    board_fen(board, prng_next(rng) & 1 ? 'w' : 'b', out, size);
}

static void perturbed_cases(long count, uint64_t seed, tally *t)
{
    uint64_t rng = seed | 1;
    char line[512];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\t\r\n")] = 0;
        for (long i = 0; i < count; i++) {
            char fen[128];
            perturb(line, &rng, fen, sizeof fen);
            ask_both_sides(fen, t);
        }
    }
}

/* A locked structure: pawns head to head on random files, the kings and up to three
 * pieces on random empty squares. Most come out illegal and are refused by the reader. */
static void random_locked(uint64_t *rng, char *fen, size_t size)
{
    char board[64];
    memset(board, '.', sizeof board);
    int pairs = 1 + (int)(prng_next(rng) % 8);
    for (int i = 0; i < pairs; i++) {
        int file = (int)(prng_next(rng) % 8), rank = 1 + (int)(prng_next(rng) % 5);
        if (board[rank * 8 + file] == '.' && board[(rank + 1) * 8 + file] == '.') {
            board[rank * 8 + file] = 'P';
            board[(rank + 1) * 8 + file] = 'p';
        }
    }
    static const char pieces[] = "KkBbNnRrQbB";
    int extra = 2 + (int)(prng_next(rng) % 4);
    for (int i = 0; i < extra; i++) {
        char pc = i < 2 ? pieces[i] : pieces[2 + prng_next(rng) % (sizeof pieces - 3)];
        for (int tries = 0; tries < 64; tries++) {
            int sq = (int)(prng_next(rng) % 64);
            if (board[sq] == '.') {
                board[sq] = pc;
                break;
            }
        }
    }
    board_fen(board, prng_next(rng) & 1 ? 'w' : 'b', fen, size);
}

static void random_played(uint64_t *rng, char *fen, size_t size)
{
    chess_pos pos;
    char err[128];
    chess_pos_from_fen(&pos, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", err,
                       sizeof err);
    int plies = 40 + (int)(prng_next(rng) % 160);
    for (int i = 0; i < plies; i++) {
        chess_movelist ml;
        int n = chess_gen_legal(&pos, &ml);
        if (n == 0)
            break;
        chess_undo u;
        chess_make(&pos, ml.moves[prng_next(rng) % (uint64_t)n], &u);
    }
    chess_pos_to_fen(&pos, fen, size);
}

static void random_cases(long count, uint64_t seed, tally *t)
{
    uint64_t rng = seed | 1;
    for (long i = 0; i < count; i++) {
        char fen[128];
        if (i & 1)
            random_played(&rng, fen, sizeof fen);
        else
            random_locked(&rng, fen, sizeof fen);
        ask_both_sides(fen, t);
    }
}

int main(int argc, char **argv)
{
    long count = -1, variants = -1;
    uint64_t seed = 1;
    int opt;
    while ((opt = getopt(argc, argv, "n:m:vr:p:")) != -1) {
        switch (opt) {
        case 'n': proof_nodes = strtol(optarg, NULL, 10); break;
        case 'm': mate_nodes = strtol(optarg, NULL, 10); break;
        case 'v': verbose = 1; break;
        case 'r': count = strtol(optarg, NULL, 10); break;
        case 'p': variants = strtol(optarg, NULL, 10); break;
        default:
            fprintf(stderr, "usage: dp_selfcheck [-n N] [-m N] [-v] [-r COUNT SEED | -p COUNT SEED]"
                            " < CASES\n");
            return 2;
        }
    }
    tally t = {0};
    if (optind < argc)
        seed = strtoull(argv[optind], NULL, 10);
    if (count >= 0)
        random_cases(count, seed, &t);
    else if (variants >= 0)
        perturbed_cases(variants, seed, &t);
    else
        read_cases(&t);
    printf("asked %ld (refused %ld): unwinnable %ld; of %ld labelled unwinnable, %ld decided; "
           "%ld contradictions\n",
           t.asked, t.refused, t.unwinnable, t.truth_no, t.truth_no_found, t.contradictions);
    return t.contradictions ? 1 : 0;
}
