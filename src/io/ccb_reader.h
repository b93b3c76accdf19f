/* ccb_reader.h: a reader over a stream for the CCBridge formats (io/cbr.h, io/cbl.h,
 * io/cbf.h), in the style of the text readers: the input is read whole, then one game
 * per call (one for a CBR or CBF file, one per used index entry of a library). */
#ifndef ARBITER_IO_CCB_READER_H
#define ARBITER_IO_CCB_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "record/arena.h"
#include "record/record.h"

typedef enum ccb_kind { CCB_SNIFF, CCB_CBR, CCB_CBL, CCB_CBF } ccb_kind;

/* Which kind bytes start like, or CCB_SNIFF for none. */
ccb_kind ccb_sniff(const unsigned char *bytes, size_t len);

typedef struct ccb_reader ccb_reader;
/* kind CCB_SNIFF: told from the bytes (a CBR record when nothing fits, which then says
 * so in a finding). */
ccb_reader *ccb_reader_open(FILE *in, const char *name, ccb_kind kind);
/* 1 with a game, 0 at the end, -1 on a read error. */
int ccb_reader_next(ccb_reader *r, rec_game *g, arena *a);
const char *ccb_reader_error(const ccb_reader *r);
void ccb_reader_close(ccb_reader *r);

#endif
