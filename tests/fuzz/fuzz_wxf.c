/* fuzz_wxf.c: the WXF reader (WXF_INPUT_WXF) over arbitrary bytes, every record replayed
 * as xiangqi, written back as PGN and reported as YAML. */
#include <config.h>

#include "fuzz_common.h"
#include "wxf_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;   /* fmemopen refuses a zero-length buffer */
    FILE *in = fmemopen((void *)data, size, "r");
    if (!in)
        return 0;
    wxf_reader *r = wxf_reader_open(in, "fuzz.wxf", WXF_INPUT_WXF);
    yaml_report *rep = yaml_report_open(fuzz_sink());
    arena a;
    arena_init(&a);
    for (uint64_t index = 1; r; index++) {
        rec_game g;
        arena_reset(&a);
        rec_game_init(&g, &a, "fuzz.wxf", index);
        if (wxf_reader_next(r, &g, &a) != 1)
            break;
        g.kind = REC_XIANGQI;
        fuzz_after_read(&g, rep);
    }
    if (rep)
        yaml_report_close(rep);
    arena_free(&a);
    if (r)
        wxf_reader_close(r);
    fclose(in);
    return 0;
}
