/* fuzz_wxf_input.h: the WXF reader over a harness's bytes in one of its modes (WXF
 * records, or an article's blocks): every record replayed as xiangqi, written back as
 * PGN and reported as YAML. For fuzz_wxf.c and fuzz_article.c. */
#ifndef ARBITER_FUZZ_WXF_INPUT_H
#define ARBITER_FUZZ_WXF_INPUT_H

#include "fuzz_common.h"
#include "wxf_reader.h"

static inline int fuzz_wxf_next(void *r, rec_game *g, arena *a)
{
    return wxf_reader_next(r, g, a);
}

static inline int fuzz_wxf_input(const uint8_t *data, size_t size, const char *name,
                                 wxf_input mode)
{
    FILE *in = fuzz_stream(data, size);
    if (!in)
        return 0;
    wxf_reader *r = wxf_reader_open(in, name, mode);
    fuzz_each_game(&(fuzz_games){r, name, fuzz_wxf_next, fuzz_as_xiangqi, NULL});
    if (r)
        wxf_reader_close(r);
    fclose(in);
    return 0;
}

#endif
