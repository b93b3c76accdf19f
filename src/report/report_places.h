/* report_places.h: where a game document's number, status and findings stand in the
 * text a writer made of it (yaml_report_places, jsonl_report_places).
 *
 * With pieces (-j) the game's number is changed and a twin finding spliced into a
 * document after it was written (batch.h, report_splice.h); the writer knows these
 * places as it writes them, so the document is not searched for them (the search was
 * 0.9% of the CPU of check -j2 on the bench x10, on the thread that writes). */
#ifndef ARBITER_REPORT_REPORT_PLACES_H
#define ARBITER_REPORT_REPORT_PLACES_H

#include <stdbool.h>
#include <stddef.h>

/* Byte offsets from the document's first byte, and what stands there: a twin settles
 * without reading the document (the worker that wrote it ran on another core: its
 * lines are cache misses there). */
typedef struct report_places {
    size_t game;       /* the first digit of the game's number */
    size_t status;     /* the status word's first byte */
    size_t findings;   /* YAML: the newline before "findings:"; JSON: "\"findings\":[" */
    const char *status_word; /* "ok", "warnings" or "errors" (a static string) */
    bool findings_empty;     /* "findings: []" or "\"findings\":[]" */
} report_places;

#endif
