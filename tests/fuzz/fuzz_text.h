/* fuzz_text.h: a harness's bytes as a NUL-terminated text, for the harnesses of the
 * text parsers (FEN, move text, comment commands). */
#ifndef ARBITER_FUZZ_TEXT_H
#define ARBITER_FUZZ_TEXT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* data[0..size) as a NUL-terminated text (a copy the caller frees), or NULL. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return NULL;
    memcpy(text, data, size);
    text[size] = '\0';
    return text;
}

#endif
