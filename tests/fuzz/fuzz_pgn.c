/* fuzz_pgn.c: the PGN reader over arbitrary bytes, every game replayed, written back as
 * PGN and reported as YAML. The input is read from memory (fmemopen), as a file would
 * be after input.c's sniffing. */
#include <config.h>

#include "fuzz_common.h"
#include "pgn_reader.h"

static int next_game(void *r, rec_game *g, arena *a) { return pgn_reader_next(r, g, a); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *in = fuzz_stream(data, size);
    if (!in)
        return 0;
    pgn_reader *r = pgn_reader_open(in, "fuzz.pgn");
    fuzz_each_game(&(fuzz_games){r, "fuzz.pgn", next_game, fuzz_classify_pgn, NULL});
    if (r)
        pgn_reader_close(r);
    fclose(in);
    return 0;
}
