/* fuzz_cbl.c: CBL libraries from arbitrary bytes, three ways (the first byte chooses):
 * the bytes as a whole file; a plain library whose index (four entries) and record area
 * are the bytes (a real header is 66,624 bytes, more than a fuzz input); the bytes as
 * the inflated data of a compressed library (compressed here, when zlib is there).
 * Every game replayed and reported as YAML. */
#include <config.h>

#include <string.h>
#ifdef HAVE_ZLIB
#include <zlib.h>
#endif

#include "fuzz_common.h"
#include "io/cbl.h"

static void run(const unsigned char *lib, size_t len)
{
    cbl_library *l = cbl_open(lib, len);
    if (!l)
        return;
    arena a;
    arena_init(&a);
    yaml_report *rep = yaml_report_open(fuzz_sink());
    for (size_t k = 0; k < cbl_count(l); k++) {
        rec_game g;
        arena_reset(&a);
        rec_game_init(&g, &a, "fuzz.cbl", k + 1);
        cbl_game(l, k, &g, &a, NULL);
        fuzz_after_read(&g, rep);
    }
    if (rep)
        yaml_report_close(rep);
    arena_free(&a);
    cbl_close(l);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    int mode = data[0] % 3;
    data++;
    size--;
    if (mode == 0) {
        run(data, size);
        return 0;
    }
    if (mode == 1) {
        size_t len = CBL_INDEX + size;
        unsigned char *lib = calloc(1, len);
        if (!lib)
            return 0;
        memcpy(lib, CBL_MAGIC, 16);
        lib[16] = 3;
        lib[60] = 4; /* capacity: the index is the first 4 x 276 input bytes */
        memcpy(lib + CBL_INDEX, data, size);
        run(lib, len);
        free(lib);
        return 0;
    }
#ifdef HAVE_ZLIB
    uLongf zlen = compressBound(size);
    unsigned char *lib = malloc(20 + zlen);
    if (!lib)
        return 0;
    memcpy(lib, "CCBridge\x15\0\0\0\x03\0\0\0", 16);
    lib[16] = (unsigned char)size;
    lib[17] = (unsigned char)(size >> 8);
    lib[18] = (unsigned char)(size >> 16);
    lib[19] = (unsigned char)(size >> 24);
    if (compress2(lib + 20, &zlen, data, size, 1) == Z_OK)
        run(lib, 20 + zlen);
    free(lib);
#endif
    return 0;
}
