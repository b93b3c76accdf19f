/* cbr.h: CBR records (CCBridge / 象棋桥 binary games), versions 2 and 1.
 *
 * Layout: ../shared/reference/database-maintenance.md §4. One file is one record; a
 * CBL library (io/cbl.h) holds many, each decoded here with its offset in the library.
 * Version 2: UTF-16LE header fields (NUL-terminated within their width), the result,
 * the side to move and move number, a 90-square board, then the depth-first move tree
 * of 4-byte nodes (flags, 0, from, to; flag 4: a 32-bit byte count and a UTF-16LE
 * comment follow; flag 1: no continuation; flag 2: an alternative follows after the
 * subtree); the first node is the root and holds the game comment. Version 1 (no real
 * file seen; from the reference): the same fields 128 bytes earlier, the result, the
 * position block and the tree 256 bytes earlier, squares as a column nibble and a row
 * nibble (row 0 at the top).
 *
 * The tree (record/record.h), kind REC_XIANGQI, every position a byte offset:
 *   tags       Title Event Round Group Table Date Site Red RedTeam RedTime RedElo Black
 *              BlackTeam BlackTime BlackElo Referee Recorder Remark Author when not
 *              empty, Result always, FEN when the position is not the standard start
 *              with Red to move, Format "UCCI" (the node texts).
 *   moves      UCCI texts from the squares, not checked here (the referee replays them);
 *              comments with CR LF made LF; the root's comment is the main line's.
 *
 * Findings: bad-cbr (error: signature, version, a header or tree cut short, a comment
 * length past the end, bytes after the tree; warning: side to move, result code, an
 * odd board code, unknown node flags), encoding (warning: text that is not UTF-16). */
#ifndef ARBITER_IO_CBR_H
#define ARBITER_IO_CBR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record/arena.h"
#include "record/record.h"

#define CBR_MAGIC "CCBridge Record"  /* 16 bytes with its NUL */
#define CBR_V2_TREE 2214             /* the tree's offset in a version 2 record */
#define CBR_V1_TREE 1958

/* What a decode found (for tests and the library reader). */
typedef struct cbr_counts {
    uint32_t moves, variations, comments;
    size_t end;              /* offset (in the record) just after the tree */
    bool complete;           /* the tree ended where its nodes said */
} cbr_counts;

/* Whether bytes start with the CBR signature. */
bool cbr_sniff(const unsigned char *bytes, size_t len);

/* Decode one record of len bytes into g (strings in a). base is the offset of data[0]
 * in the input, for the findings' positions; in_library says a running-out tree ran
 * past its record length rather than past the end of the file. Fills what it can;
 * problems become findings. c may be NULL. */
void cbr_decode(const unsigned char *data, size_t len, uint64_t base, bool in_library,
                rec_game *g, arena *a, cbr_counts *c);

#endif
