/* cbl.h: CBL libraries (CCBridge / 象棋桥: many records in one file), plain and
 * compressed.
 *
 * Plain (`CCBridgeLibrary`, reference §4): a header with the library name, an index of
 * C entries of 276 bytes (type, id, slots, record length, 0, GUID text, title), then
 * the records, each a CBR record (io/cbr.h) starting on a 4,096-byte slot boundary and
 * taking as many slots as its entry says. The index drives the reading: the k-th used
 * entry (type not 0) is the k-th stored record, and the record is exactly its length;
 * the file is never searched for the record signature.
 *
 * Compressed (`CCBridge`, 21, 3, the inflated size, then zlib data): the layout was
 * worked out from the one sample there is (残局的生死棋型.CBL, 196 records; see
 * cbl_packed.c for the layout and how sure each part is). Offsets in its findings are
 * offsets in the inflated data, as for any compressed input.
 *
 * One game per record in index order; a record with no moves (a section heading) is
 * kept as a game with no moves and a cbl-heading note. A record without an event takes
 * the library name as its Event. Findings: bad-cbl (error: the header, the index or a
 * record that does not fit the file or its slots, data that does not inflate; the
 * other records are still read), cbl-heading (info), and those of io/cbr.h. */
#ifndef ARBITER_IO_CBL_H
#define ARBITER_IO_CBL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/cbr.h"
#include "record/arena.h"
#include "record/record.h"

#define CBL_MAGIC "CCBridgeLibrary"  /* 16 bytes with its NUL */
#define CBL_INDEX 66624              /* the index's offset */
#define CBL_ENTRY 276                /* bytes of an index entry */
#define CBL_SLOT 4096                /* records start on slot boundaries */
#define CBL_PACKED_MAX (256u << 20)  /* largest inflated size accepted */

/* Whether bytes start like a plain or a compressed library. */
bool cbl_sniff(const unsigned char *bytes, size_t len);

typedef struct cbl_library cbl_library;

/* A library over len bytes at data (kept, not copied: they must outlive it). Never
 * NULL but when out of memory; a header that cannot be read gives one game holding
 * the finding. */
cbl_library *cbl_open(const unsigned char *data, size_t len);
/* How many games it gives (>= 1). */
size_t cbl_count(const cbl_library *l);
/* Whether it is the compressed kind. */
bool cbl_packed(const cbl_library *l);
/* The library name (UTF-8), or "". */
const char *cbl_name(const cbl_library *l);
/* Decode game k (0-based) into g, strings in a. c may be NULL. */
void cbl_game(cbl_library *l, size_t k, rec_game *g, arena *a, cbr_counts *c);
void cbl_close(cbl_library *l);

/* The compressed kind (cbl_packed.c), for cbl.c: inflate and index the records. */
typedef struct cbl_packed_index cbl_packed_index;
cbl_packed_index *cbl_packed_open(const unsigned char *data, size_t len, char **name,
                                  char *err, size_t errsize, uint64_t *err_at);
size_t cbl_packed_count(const cbl_packed_index *p);
void cbl_packed_game(cbl_packed_index *p, size_t k, const char *library, rec_game *g, arena *a,
                     cbr_counts *c);
void cbl_packed_close(cbl_packed_index *p);
/* The library name as the Event of a record that has none. */
void cbl_event_fallback(rec_game *g, const char *library);

#endif
