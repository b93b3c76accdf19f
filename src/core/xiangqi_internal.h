/* xiangqi_internal.h: tables and helpers shared by the xiangqi core's .c files.
 * Not part of the public interface; include xiangqi.h from elsewhere. */
#ifndef ARBITER_CORE_XIANGQI_INTERNAL_H
#define ARBITER_CORE_XIANGQI_INTERNAL_H

#include "core/xiangqi.h"

enum { XQ_DIR_N, XQ_DIR_S, XQ_DIR_E, XQ_DIR_W };

/* Precomputed per-point tables, filled once by xq_tables_init(). Every move
 * table stays on the board and already obeys the palace and river limits, so
 * generation only tests occupancy. */
struct xq_tables {
    uint8_t file[XQ_SQUARES], rank[XQ_SQUARES];
    uint8_t ray[XQ_SQUARES][4][9];     /* points outward in each direction */
    uint8_t ray_len[XQ_SQUARES][4];
    uint8_t horse_to[XQ_SQUARES][8], horse_leg[XQ_SQUARES][8], horse_n[XQ_SQUARES];
    /* horses that would attack sq from horse_from, with their leg point */
    uint8_t horse_from[XQ_SQUARES][8], horse_from_leg[XQ_SQUARES][8],
        horse_from_n[XQ_SQUARES];
    uint8_t eleph_to[XQ_SQUARES][4], eleph_eye[XQ_SQUARES][4], eleph_n[XQ_SQUARES];
    uint8_t adv_to[XQ_SQUARES][4], adv_n[XQ_SQUARES];
    uint8_t gen_to[XQ_SQUARES][4], gen_n[XQ_SQUARES];
    uint8_t sol_to[2][XQ_SQUARES][3], sol_n[2][XQ_SQUARES];
    uint8_t sol_from[2][XQ_SQUARES][3], sol_from_n[2][XQ_SQUARES]; /* reverse of sol_to */
    /* rel[g][sq]: bit 0 sq shares g's file or rank, bit 1 sq is diagonally next
     * to g (where a horse's leg lies for a horse checking g). */
    uint8_t rel[XQ_SQUARES][XQ_SQUARES];
    uint64_t zobrist[16][XQ_SQUARES]; /* by piece code */
    uint64_t zobrist_side;            /* xor-ed in when Black is to move */
};

extern struct xq_tables xq_tab;

void xq_tables_init(void);  /* idempotent and thread-safe */

bool xq_in_palace(int sq, int color);
/* The side's general is attacked, or faces the other general on an open file. */
bool xq_general_attacked(const xq_pos *pos, int color);
/* Rebuild plist, list_index, count, general and key from board and side. */
void xq_pos_rebuild(xq_pos *pos);

#endif
