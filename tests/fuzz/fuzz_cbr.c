/* fuzz_cbr.c: the CBR decoder over the bytes after the first (the signature and a version
 * put before them half the time, so that the fuzzer reaches the header and the tree), as a single file
 * and as a record inside a library (its length the input's), the game replayed and
 * reported as YAML. */
#include <config.h>

#include <string.h>

#include "fuzz_common.h"
#include "io/cbr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    unsigned char *buf = malloc(size + 20);
    if (!buf)
        return 0;
    size_t len = size - 1;
    memcpy(buf, data + 1, size - 1); /* even first byte: the rest as it is */
    if (data[0] & 1) { /* the signature and version 1 or 2, the rest after it */
        memcpy(buf, CBR_MAGIC, 16);
        buf[16] = buf[17] = buf[18] = 0;
        buf[19] = (data[0] & 2) ? 1 : 2;
        memcpy(buf + 20, data + 1, size - 1);
        len = size + 19;
    }
    arena a;
    arena_init(&a);
    rec_game g;
    rec_game_init(&g, &a, "fuzz.cbr", 1);
    cbr_counts c;
    cbr_decode(buf, len, (data[0] & 4) ? 70000 : 0, (data[0] & 4) != 0, &g, &a, &c);
    yaml_report *rep = yaml_report_open(fuzz_sink());
    fuzz_after_read(&g, rep);
    if (rep)
        yaml_report_close(rep);
    arena_free(&a);
    free(buf);
    return 0;
}
