/* variant.h: one small interface over the rules cores (chess, xiangqi).
 *
 * Code that works the same for both games (perft, random play for tests, later the
 * referee's generic walk) goes through this table instead of duplicating itself per
 * game. Hot paths (perft inner loops, move generation) stay inside each core. */
#ifndef ARBITER_CORE_VARIANT_H
#define ARBITER_CORE_VARIANT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define VARIANT_MAX_MOVES 256  /* more than either game allows in one position */
#define VARIANT_POS_SIZE 1024  /* bytes; enough for either position struct */
#define VARIANT_UNDO_SIZE 128  /* bytes; enough for either undo record */

/* Storage for a position or undo record of any variant, suitably aligned. */
typedef union variant_pos { unsigned char bytes[VARIANT_POS_SIZE]; uint64_t align; } variant_pos;
typedef union variant_undo { unsigned char bytes[VARIANT_UNDO_SIZE]; uint64_t align; } variant_undo;

typedef struct variant {
    const char *name;        /* "chess", "xiangqi" */
    const char *start_fen;
    bool (*from_fen)(void *pos, const char *fen, char *err, size_t errsize);
    void (*to_fen)(const void *pos, char *buf, size_t size);
    /* Legal moves into moves[VARIANT_MAX_MOVES]; returns the count. */
    int (*gen_legal)(const void *pos, uint16_t *moves);
    void (*make)(void *pos, uint16_t move, void *undo);
    void (*unmake)(void *pos, uint16_t move, const void *undo);
    bool (*in_check)(const void *pos);
    /* Whether the legal move gives check: in_check after make, without playing it. */
    bool (*gives_check)(const void *pos, uint16_t move);
    /* Whether the legal move mates: check, and no legal reply. */
    bool (*gives_mate)(const void *pos, uint16_t move);
    uint64_t (*key)(const void *pos);
    uint64_t (*perft)(void *pos, int depth);
    /* Coordinate text of a move (UCI for chess, UCCI for xiangqi); buf of 8 bytes. */
    void (*move_text)(const void *pos_before, uint16_t move, char *buf);
} variant;

extern const variant variant_chess;
extern const variant variant_xiangqi;

/* The variant called name, or NULL. */
const variant *variant_by_name(const char *name);

#endif
