/* fuzz_pgn.c: the PGN reader over arbitrary bytes, every game replayed, written back as
 * PGN and reported as YAML. The input is read from memory (fmemopen), as a file would
 * be after input.c's sniffing. */
#include <config.h>

#include "fuzz_common.h"
#include "pgn_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;   /* fmemopen refuses a zero-length buffer */
    FILE *in = fmemopen((void *)data, size, "r");
    if (!in)
        return 0;
    pgn_reader *r = pgn_reader_open(in, "fuzz.pgn");
    yaml_report *rep = yaml_report_open(fuzz_sink());
    arena a;
    arena_init(&a);
    for (uint64_t index = 1; r; index++) {
        rec_game g;
        arena_reset(&a);
        rec_game_init(&g, &a, "fuzz.pgn", index);
        if (pgn_reader_next(r, &g, &a) != 1)
            break;
        fuzz_classify_pgn(&g);
        fuzz_after_read(&g, rep);
    }
    if (rep)
        yaml_report_close(rep);
    arena_free(&a);
    if (r)
        pgn_reader_close(r);
    fclose(in);
    return 0;
}
