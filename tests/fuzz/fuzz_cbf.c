/* fuzz_cbf.c: the CBF (XML) decoder over arbitrary bytes, half the time after the root
 * and move list tags so that the fuzzer reaches the moves; replayed and reported. */
#include <config.h>

#include <string.h>

#include "fuzz_common.h"
#include "io/cbf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    static const char head[] = "<ChineseChessRecord><MoveList><Move value=\"00-00\"/>";
    unsigned char *buf = malloc(size + sizeof head);
    if (!buf)
        return 0;
    size_t len = 0;
    if (data[0] & 1) {
        memcpy(buf, head, sizeof head - 1);
        len = sizeof head - 1;
    }
    memcpy(buf + len, data + 1, size - 1);
    len += size - 1;
    arena a;
    arena_init(&a);
    rec_game g;
    rec_game_init(&g, &a, "fuzz.cbf", 1);
    cbf_decode(buf, len, &g, &a, NULL);
    yaml_report *rep = yaml_report_open(fuzz_sink());
    fuzz_after_read(&g, rep);
    if (rep)
        yaml_report_close(rep);
    arena_free(&a);
    free(buf);
    return 0;
}
