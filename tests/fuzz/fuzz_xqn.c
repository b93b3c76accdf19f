/* fuzz_xqn.c: xqn_parse on arbitrary text, for every notation, against a fixed set of
 * positions (byte 0 picks the position, byte 1 the notation; the rest is the move
 * text), and xqn_syntax_fits on the same text. Whatever it resolves must be a legal
 * move whose canonical text in that notation reads back to the same move; ambiguous
 * results list legal candidates. Any failure aborts (a finding for libFuzzer). */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_text.h"
#include "core/xiangqi.h"
#include "notation/xq_notation.h"

static const char *const fens[] = {
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
    "4k4/9/9/2P6/2P6/2P6/9/9/9/3K5 w - - 0 1",
    "3k5/9/9/2P1P4/2P1P4/9/9/9/9/4K4 w - - 0 1",
    "3k5/9/9/9/9/2p1p1p2/2p1p4/9/9/4K4 b - - 0 1",
    "2bak4/4a4/4b4/9/2R1R4/2C1C4/2H1H4/9/9/3AKA3 w - - 0 1",
    "3ak4/4a4/9/9/9/9/9/9/4A4/3AK4 w - - 0 1",
};
#define NFENS (sizeof fens / sizeof fens[0])

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static xq_pos pos[NFENS];
    static int ready;
    if (!ready) {
        for (size_t i = 0; i < NFENS; i++) {
            char err[128];
            if (!xq_pos_from_fen(&pos[i], fens[i], err, sizeof err)) {
                fprintf(stderr, "fuzz_xqn: %s: %s\n", fens[i], err);
                abort();   /* the harness's own table is wrong */
            }
        }
        ready = 1;
    }
    if (size < 2)
        return 0;
    const xq_pos *p = &pos[data[0] % NFENS];
    xqn_notation n = (xqn_notation)(data[1] % XQN_NOTATION_COUNT);
    char *text = fuzz_text(data + 2, size - 2);
    if (!text)
        return 0;
    (void)xqn_syntax_fits(text);
    xqn_result res;
    xqn_parse(p, n, text, &res);
    if (res.status == XQN_OK) {
        if (!xq_is_legal(p, res.move))
            abort();   /* resolved to an illegal move */
        char canon[XQN_FORMAT_BUFSIZE];
        if (xqn_format(p, res.move, n, 0, canon, sizeof canon) < 0)
            abort();
        xqn_result back;
        xqn_parse(p, n, canon, &back);
        if (back.status != XQN_OK || back.move != res.move)
            abort();   /* canonical text does not read back */
    } else if (res.status == XQN_AMBIGUOUS) {
        if (res.candidate_count < 2)
            abort();
        int kept = res.candidate_count < 8 ? res.candidate_count : 8;
        for (int i = 0; i < kept; i++)
            if (!xq_is_legal(p, res.candidates[i]))
                abort();
    }
    if (memchr(res.reason, '\0', sizeof res.reason) == NULL ||
        memchr(res.lenient_note, '\0', sizeof res.lenient_note) == NULL)
        abort();
    free(text);
    return 0;
}
