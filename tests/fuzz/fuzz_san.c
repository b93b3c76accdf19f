/* fuzz_san.c: chess_san_parse on arbitrary text against a fixed set of positions (the
 * first byte picks one; the rest is the move text). Whatever it resolves must be a
 * legal move whose canonical SAN reads back to the same move; ambiguous results list
 * 2..8 legal candidates. Any failure aborts (a finding for libFuzzer). */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_text.h"
#include "core/chess.h"
#include "notation/chess_san.h"

static const char *const fens[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "7k/8/8/1N3N2/8/1N3N2/8/K7 w - - 0 1",
    "6k1/8/8/8/1Q1Q4/8/8/1Q1Q3K w - - 0 1",
    "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
};
#define NFENS (sizeof fens / sizeof fens[0])

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static chess_pos pos[NFENS];
    static int ready;
    if (!ready) {
        for (size_t i = 0; i < NFENS; i++) {
            char err[128];
            if (!chess_pos_from_fen(&pos[i], fens[i], err, sizeof err))
                { fprintf(stderr, "fuzz_san: %s: %s\n", fens[i], err); abort(); }
        }
        ready = 1;
    }
    if (size < 1)
        return 0;
    const chess_pos *p = &pos[data[0] % NFENS];
    char *text = fuzz_text(data + 1, size - 1);
    if (!text)
        return 0;
    san_result res;
    chess_san_parse(p, text, &res);
    if (res.status == SAN_OK) {
        if (!chess_is_legal(p, res.move))
            abort();   /* resolved to an illegal move */
        char san[CHESS_NOTATION_BUFSIZE];
        chess_notation_format(p, res.move, CHESS_NOTATION_SAN, san, sizeof san);
        san_result back;
        chess_san_parse(p, san, &back);
        if (back.status != SAN_OK || back.move != res.move || back.lenient)
            abort();   /* canonical SAN does not read back, or reads as lenient */
    } else if (res.status == SAN_AMBIGUOUS) {
        if (res.candidate_count < 2 || res.candidate_count > 8)
            abort();
        for (int i = 0; i < res.candidate_count; i++)
            if (!chess_is_legal(p, res.candidates[i]))
                abort();
    }
    if (memchr(res.reason, '\0', sizeof res.reason) == NULL ||
        memchr(res.lenient_note, '\0', sizeof res.lenient_note) == NULL)
        abort();   /* unterminated message */
    free(text);
    return 0;
}
