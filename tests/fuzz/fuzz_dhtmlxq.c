/* fuzz_dhtmlxq.c: the DhtmlXQ reader over arbitrary bytes, every block replayed,
 * reported as YAML and written back as DhtmlXQ. */
#include <config.h>

#include "dhtmlxq_reader.h"
#include "fuzz_common.h"
#include "writer/dhtmlxq_writer.h"

static int next_game(void *r, rec_game *g, arena *a) { return dhtmlxq_reader_next(r, g, a); }

static void write_dhtmlxq(rec_game *g)
{
    char err[256];
    dhtmlxq_write_options o = {false, false};
    dhtmlxq_write_game(fuzz_sink(), g, &o, NULL, err, sizeof err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *in = fuzz_stream(data, size);
    if (!in)
        return 0;
    dhtmlxq_reader *r = dhtmlxq_reader_open(in, "fuzz.ubb");
    fuzz_each_game(&(fuzz_games){r, "fuzz.ubb", next_game, NULL, write_dhtmlxq});
    if (r)
        dhtmlxq_reader_close(r);
    fclose(in);
    return 0;
}
