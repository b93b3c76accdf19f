/* fuzz_dhtmlxq.c: the DhtmlXQ reader over arbitrary bytes, every block replayed,
 * reported as YAML and written back as DhtmlXQ. */
#include <config.h>

#include "dhtmlxq_reader.h"
#include "fuzz_common.h"
#include "writer/dhtmlxq_writer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;   /* fmemopen refuses a zero-length buffer */
    FILE *in = fmemopen((void *)data, size, "r");
    if (!in)
        return 0;
    dhtmlxq_reader *r = dhtmlxq_reader_open(in, "fuzz.ubb");
    yaml_report *rep = yaml_report_open(fuzz_sink());
    arena a;
    arena_init(&a);
    for (uint64_t index = 1; r; index++) {
        rec_game g;
        arena_reset(&a);
        rec_game_init(&g, &a, "fuzz.ubb", index);
        if (dhtmlxq_reader_next(r, &g, &a) != 1)
            break;
        fuzz_after_read(&g, rep);
        char err[256];
        dhtmlxq_write_options o = {false, false};
        dhtmlxq_write_game(fuzz_sink(), &g, &o, NULL, err, sizeof err);
    }
    if (rep)
        yaml_report_close(rep);
    arena_free(&a);
    if (r)
        dhtmlxq_reader_close(r);
    fclose(in);
    return 0;
}
