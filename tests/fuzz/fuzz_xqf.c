/* fuzz_xqf.c: the XQF decoder over arbitrary bytes (the first bytes forced to the "XQ"
 * signature half the time, so the fuzzer reaches the keys and the tree), the game
 * replayed, reported as YAML and written back as XQF and DhtmlXQ. */
#include <config.h>

#include <string.h>

#include "fuzz_common.h"
#include "io/xqf.h"
#include "writer/dhtmlxq_writer.h"
#include "writer/xqf_writer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    unsigned char *buf = malloc(size + 3);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    size_t len = size;
    if (size > 0 && (data[0] & 1)) { /* keep the signature and a known version */
        memmove(buf + 3, buf + 1, size - 1);
        buf[0] = 'X';
        buf[1] = 'Q';
        buf[2] = (uint8_t)(0x0A + data[0] % 9);
        len = size + 2;
    }
    arena a;
    arena_init(&a);
    rec_game g;
    rec_game_init(&g, &a, "fuzz.xqf", 1);
    xqf_decode(buf, len, &g, &a);
    yaml_report *rep = yaml_report_open(fuzz_sink());
    fuzz_after_read(&g, rep);
    char err[256];
    xqf_write_options xo = {.version = (data[0] & 2) ? 0x0A : 0x12};
    xqf_write_game(fuzz_sink(), &g, &xo, NULL, err, sizeof err);
    dhtmlxq_write_options dop = {false, false};
    dhtmlxq_write_game(fuzz_sink(), &g, &dop, NULL, err, sizeof err);
    if (rep)
        yaml_report_close(rep);
    arena_free(&a);
    free(buf);
    return 0;
}
