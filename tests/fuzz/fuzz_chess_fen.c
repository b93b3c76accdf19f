/* fuzz_chess_fen.c: chess_pos_from_fen on arbitrary text, in the three castling modes.
 * Whatever parses must survive the round trip: to_fen, parse again, to_fen again gives
 * the same text; and in that position every legal move must make and unmake back to
 * the same FEN and key, and its SAN must parse back to the same move. Any failure
 * aborts (a finding for libFuzzer). */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_text.h"
#include "core/chess.h"
#include "notation/chess_san.h"

static void check_moves(chess_pos *pos, const char *fen)
{
    chess_movelist list;
    chess_gen_legal(pos, &list);
    for (int i = 0; i < list.count; i++) {
        chess_move m = list.moves[i];
        char text[CHESS_NOTATION_BUFSIZE];
        chess_notation_format(pos, m, CHESS_NOTATION_SAN, text, sizeof text);
        san_result res;
        chess_san_parse(pos, text, &res);
        if (res.status != SAN_OK || res.move != m)
            abort();   /* SAN written by arbiter does not read back */
        chess_undo undo;
        uint64_t key = chess_key(pos);
        chess_make(pos, m, &undo);
        if (chess_key(pos) != chess_key_compute(pos))
            abort();   /* incremental key out of step */
        chess_unmake(pos, m, &undo);
        char back[CHESS_FEN_BUFSIZE];
        chess_pos_to_fen(pos, back, sizeof back);
        if (strcmp(back, fen) != 0 || chess_key(pos) != key)
            abort();   /* unmake did not restore the position */
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    for (int mode = CHESS_FEN_AUTO; mode <= CHESS_FEN_CHESS960; mode++) {
        chess_pos pos, again;
        char err[128];
        if (!chess_pos_from_fen_mode(&pos, text, mode, err, sizeof err))
            continue;
        char fen1[CHESS_FEN_BUFSIZE], fen2[CHESS_FEN_BUFSIZE];
        chess_pos_to_fen(&pos, fen1, sizeof fen1);
        /* the written FEN is read back in the mode that keeps its meaning */
        int back_mode = pos.chess960 ? CHESS_FEN_CHESS960 : CHESS_FEN_AUTO;
        if (!chess_pos_from_fen_mode(&again, fen1, back_mode, err, sizeof err))
            abort();   /* arbiter's own FEN is refused */
        chess_pos_to_fen(&again, fen2, sizeof fen2);
        if (strcmp(fen1, fen2) != 0)
            abort();   /* round trip changed the position */
        if (chess_key(&pos) != chess_key(&again))
            abort();
        if (mode == CHESS_FEN_AUTO)
            check_moves(&pos, fen1);
    }
    free(text);
    return 0;
}
