/* fuzz_wxf.c: the WXF reader (WXF_INPUT_WXF) over arbitrary bytes, every record replayed
 * as xiangqi, written back as PGN and reported as YAML. */
#include <config.h>

#include "fuzz_wxf_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_wxf_input(data, size, "fuzz.wxf", WXF_INPUT_WXF);
}
