/* xqf.h: XQF files (XQStudio's binary game format), every version 0x0A-0x12.
 *
 * Layout, keys and tree order: ../shared/reference/xiangqi-databases.md §1. One file is
 * one game: a 1024-byte header of plain text fields, then a depth-first move tree
 * (node, its child subtree, its sibling subtree) that from version 0x0B on is
 * scrambled by a 32-byte key stream, with square keys and, from 0x0C, a rotated piece
 * table.
 *
 * The tree (record/record.h), kind REC_XIANGQI, every position a byte offset (line 0,
 * column 0: a binary file has no lines; reports say "offset"):
 *   tags       Event Site Date Red Black Result, FEN when the table is not the standard
 *              start with Red to move, Format "UCCI" (the node texts), and Title,
 *              Subtitle, TimeRule, RedTime, BlackTime, Annotator, Author, XQFType
 *              (full|opening|middlegame|endgame) when present.
 *   main line  UCCI move texts ("b2e2") decoded from the squares, never checked here;
 *              variations are the siblings, in file order; comments are the node's
 *              comment with CRLF turned into LF; the root's comment is the main line's.
 *   side       the colour of the piece on the first move's from-square; WhoPlay when
 *              there are no moves (a disagreeing WhoPlay is a warning).
 *
 * Findings: bad-xqf (error: signature, version, key sum, a length past the end, a tree
 * that overruns or leaves bytes; warning: an odd piece table, WhoPlay, result code),
 * encoding (warning: a header text or comment that is not clean GBK). */
#ifndef ARBITER_IO_XQF_H
#define ARBITER_IO_XQF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "record/arena.h"
#include "record/record.h"

#define XQF_HEADER_SIZE 1024
#define XQF_MAX_VERSION 0x12

/* The keys of a file (all zero for version 0x0A and below, with kr = 0). */
typedef struct xqf_keys {
    uint8_t version;
    uint8_t kp, kf, kt;      /* piece, from-square and to-square keys */
    uint16_t kr;             /* comment-length key (0 for <= 0x0A: lengths are plain) */
    uint8_t stream[32];      /* added to every byte at offset p >= 1024: stream[p % 32] */
} xqf_keys;

/* Derive the keys from the first 16 header bytes. False when the key sum check fails
 * (KeysSum + KeyXY + KeyXYf + KeyXYt != 0 mod 256) for a version >= 0x0B. */
bool xqf_derive_keys(const unsigned char head[16], xqf_keys *k);

/* The 32 piece squares (10*x + y; > 89: not on the board) of a header, in slot
 * order R N B A K A B N R C C P P P P P r n b a k a b n r c c p p p p p. */
void xqf_piece_squares(const unsigned char *header, const xqf_keys *k, uint8_t squares[32]);

/* The FEN of a piece table (squares as above) with side 0 Red or 1 Black to move, in
 * the arena; NULL for the standard start with Red to move. *clash: two pieces on one
 * square (the first slot kept). Shared with the DhtmlXQ reader (same slot order). */
char *xqf_table_fen(arena *a, const uint8_t sq[32], int side, bool *clash);

/* The side (0 Red, 1 Black) of the piece on square from, or -1. */
int xqf_side_of(const uint8_t sq[32], int from);

/* Decode a whole file held in memory into g (strings in a). Always fills what it can;
 * problems become findings. Returns the number of nodes read (root included). */
uint32_t xqf_decode(const unsigned char *data, size_t len, rec_game *g, arena *a);

/* Whether bytes start like an XQF file (the signature and a binary version byte). */
bool xqf_sniff(const unsigned char *bytes, size_t len);

/* A reader over a stream, in the style of the text readers: one game per file. */
typedef struct xqf_reader xqf_reader;
xqf_reader *xqf_reader_open(FILE *in, const char *name);
/* 1 with a game, 0 at the end, -1 on a read error. */
int xqf_reader_next(xqf_reader *r, rec_game *g, arena *a);
const char *xqf_reader_error(const xqf_reader *r);
void xqf_reader_close(xqf_reader *r);

#endif
