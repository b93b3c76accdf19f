/* fuzz_xiangqi_fen.c: xq_pos_from_fen on arbitrary text. Whatever parses must survive
 * the round trip (to_fen, parse, to_fen gives the same text and key); in that position
 * every legal move must make and unmake back to the same FEN and key, and its text in
 * every notation (xqn_format) must parse back (xqn_parse) to the same move. Any
 * failure aborts (a finding for libFuzzer). */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_text.h"
#include "core/xiangqi.h"
#include "notation/xq_notation.h"

static void check_moves(xq_pos *pos, const char *fen)
{
    xq_movelist list;
    xq_gen_legal(pos, &list);
    for (int i = 0; i < list.count; i++) {
        xq_move m = list.moves[i];
        for (int n = 0; n < XQN_NOTATION_COUNT; n++) {
            char text[XQN_FORMAT_BUFSIZE];
            if (xqn_format(pos, m, (xqn_notation)n, 0, text, sizeof text) < 0)
                abort();   /* a legal move arbiter cannot write */
            xqn_result res;
            xqn_parse(pos, (xqn_notation)n, text, &res);
            if (res.status != XQN_OK || res.move != m)
                abort();   /* arbiter's own move text does not read back */
        }
        xq_undo undo;
        uint64_t key = xq_key(pos);
        xq_make(pos, m, &undo);
        if (xq_key(pos) != xq_key_compute(pos))
            abort();
        xq_unmake(pos, m, &undo);
        char back[XQ_FEN_MAX];
        xq_pos_to_fen(pos, back, sizeof back);
        if (strcmp(back, fen) != 0 || xq_key(pos) != key)
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    xq_pos pos, again;
    char err[128];
    if (xq_pos_from_fen(&pos, text, err, sizeof err)) {
        char fen1[XQ_FEN_MAX], fen2[XQ_FEN_MAX];
        xq_pos_to_fen(&pos, fen1, sizeof fen1);
        if (!xq_pos_from_fen(&again, fen1, err, sizeof err))
            abort();   /* arbiter's own FEN is refused */
        xq_pos_to_fen(&again, fen2, sizeof fen2);
        if (strcmp(fen1, fen2) != 0 || xq_key(&pos) != xq_key(&again))
            abort();
        check_moves(&pos, fen1);
    }
    free(text);
    return 0;
}
