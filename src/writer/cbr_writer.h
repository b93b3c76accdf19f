/* cbr_writer.h: xiangqi games as CCBridge records: CBR files (one game a file), a CBL
 * library (many games in one file) and CBF (XML) files.
 *
 * Layouts: ../shared/reference/database-maintenance.md §4, as io/cbr.h, io/cbl.h and
 * io/cbf.h read them. A CBR record is version 2: the header fields from the tags
 * (Title, Event, Round, Group, Table, Date, Site, Red, RedTeam, RedTime, RedElo, Black,
 * BlackTeam, BlackTime, BlackElo, Referee, Recorder, Remark, Author; the WXF keys
 * EVENT, PLACE, DATE, RED, BLACK as well) in UTF-16 cut to their field on a whole
 * character, the result, the board, side to move and move number from the FEN tag,
 * the whole tree (a variation's own alternatives become more alternatives of the move
 * it replaces) with the comments (a comment before a variation's first move joins that
 * move's; lines end CR LF). A library holds such records, one per 4,096-byte slots,
 * behind an index of at least 128 entries (a multiple of 128), named after the output
 * file. CBF holds the main line only (no sample shows how it nests a variation): the
 * variations are counted as dropped.
 *
 * Never written (an error, the game left out): a chess game, a FEN that is no xiangqi
 * position. A move that did not replay is written when its text is UCCI; the rest of
 * its line is left out otherwise (counted as dropped). NAGs are not stored. */
#ifndef ARBITER_WRITER_CBR_WRITER_H
#define ARBITER_WRITER_CBR_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "record/record.h"

typedef struct cbr_write_options {
    bool strip_comments, strip_variations;
} cbr_write_options;

/* One game as a CBR record in a malloc'd buffer (*out, *len). False with a message in
 * err when the game cannot be written. *dropped (may be NULL): moves left out. */
bool cbr_build(const rec_game *g, const cbr_write_options *o, unsigned char **out, size_t *len,
               unsigned *dropped, char *err, size_t errsize);

/* One game as a CBR file. */
bool cbr_write_game(FILE *out, const rec_game *g, const cbr_write_options *o, unsigned *dropped,
                    char *err, size_t errsize);

/* One game as a CBF file. */
bool cbf_write_game(FILE *out, const rec_game *g, const cbr_write_options *o, unsigned *dropped,
                    char *err, size_t errsize);

/* Shared with the CBF writer: the board (CBR piece codes), side (0 Red, 1 Black) and
 * move number of the game's FEN tag (none: the start), false with a message when it
 * is a chess game or no xiangqi position. */
bool cbr_game_board(const rec_game *g, uint8_t board[90], int *side, unsigned *number,
                    char *err, size_t errsize);

/* A library collected game by game, written at the end. */
typedef struct cbl_writer cbl_writer;
cbl_writer *cbl_writer_new(const char *library_name);
bool cbl_writer_add(cbl_writer *w, const rec_game *g, const cbr_write_options *o,
                    unsigned *dropped, char *err, size_t errsize);
/* Write the library; false with a message on a write error. Frees nothing. */
bool cbl_writer_write(cbl_writer *w, FILE *out, char *err, size_t errsize);
size_t cbl_writer_count(const cbl_writer *w);
void cbl_writer_free(cbl_writer *w);

#endif
