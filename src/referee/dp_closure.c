/* dp_closure.c: a search over the positions reachable from a position, each visited
 * once, cheapest first (FIDE 5.2.2, 6.9). See dp_closure.h. */
#include <config.h>

#include "referee/dp_closure.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A visited position, packed: the men (a nibble per square), side, castling and en
 * passant rights; the move counters apart. The position itself is rebuilt by replaying
 * the moves from the root. */
typedef struct gnode {
    uint8_t men[32];
    uint8_t side, castling;
    int8_t ep;            /* en passant square when a capture there is legal, else -1 */
    uint8_t cost_hi;
    uint16_t cost;
    chess_move move;      /* the move from the parent */
    int32_t parent;       /* -1 for the root */
    int32_t next;         /* the next node of the same cost */
} gnode;

#define MAX_COST 4096

static void pack(const chess_pos *pos, gnode *g)
{
    for (int i = 0; i < 32; i++)
        g->men[i] = (uint8_t)(pos->board[2 * i] | (pos->board[2 * i + 1] << 4));
    g->side = pos->side;
    g->castling = pos->castling;
    g->ep = pos->ep_in_key ? pos->ep : -1;
}

static bool same(const gnode *a, const gnode *b)
{
    return a->side == b->side && a->castling == b->castling && a->ep == b->ep &&
           memcmp(a->men, b->men, sizeof a->men) == 0;
}

/* The position of node i: replay its moves from the root. */
static int rebuild(const gnode *nodes, long i, const chess_pos *root, chess_pos *out,
                   chess_move *path)
{
    int len = 0;
    for (long k = i; nodes[k].parent >= 0; k = nodes[k].parent)
        len++;
    int j = len;
    for (long k = i; nodes[k].parent >= 0; k = nodes[k].parent)
        path[--j] = nodes[k].move;
    *out = *root;
    for (int m = 0; m < len; m++) {
        chess_undo u;
        chess_make(out, path[m], &u);
    }
    return len;
}

dp_closure_result dp_graph_search(const chess_pos *root, int winner, long budget,
                                  const dp_graph_hooks *hooks, dp_info *info, long *nodes)
{
    dp_closure_result result = DP_CLOSURE_UNKNOWN;
    /* room for the positions a budget can reach (about 16 new ones per expansion) */
    long cap = budget < DP_CLOSURE_MAX_STATES / 16 ? budget * 16 + 64 : DP_CLOSURE_MAX_STATES;
    size_t slots = 1;
    while (slots < (size_t)cap * 2)
        slots <<= 1;
    gnode *g = malloc((size_t)cap * sizeof *g);
    int32_t *table = malloc(slots * sizeof *table);
    int32_t *head = malloc(MAX_COST * sizeof *head);
    chess_move *path = malloc(((size_t)cap + 1) * sizeof *path);
    long expanded = 0;
    if (!g || !table || !head || !path)
        goto out;
    memset(table, -1, slots * sizeof *table);
    memset(head, -1, MAX_COST * sizeof *head);
    long count = 0;
    pack(root, &g[0]);
    g[0].parent = -1;
    g[0].cost = 0;
    g[0].next = -1;
    table[root->key & (slots - 1)] = 0;
    count = 1;
    head[0] = 0;
    int level = 0;
    for (;;) {
        while (level < MAX_COST && head[level] < 0)
            level++;
        if (level >= MAX_COST)
            break; /* every reachable position expanded */
        long cur = head[level];
        head[level] = g[cur].next;
        if (++expanded > budget)
            goto out; /* budget spent: no verdict */
        chess_pos pos;
        int len = rebuild(g, cur, root, &pos, path);
        chess_movelist ml;
        int n = chess_gen_legal(&pos, &ml);
        if (n == 0) {
            if (pos.side != winner && chess_in_check(&pos)) {
                /* 5.1.1: the loser is checkmated; the path from the root is the line */
                result = DP_CLOSURE_MATE;
                if (info) {
                    info->line_len = len <= DP_LINE_MAX ? len : 0;
                    memcpy(info->line, path, (size_t)info->line_len * sizeof *path);
                }
                goto out;
            }
            continue; /* stalemate, or the winner mated: no mate of the loser here */
        }
        if (cur > 0 && hooks->leaf && hooks->leaf(&pos, winner))
            continue; /* proved: no mate from here */
        for (int i = 0; i < n; i++) {
            int step = hooks->cost ? hooks->cost(hooks->ctx, &pos, ml.moves[i]) : 1;
            chess_undo u;
            chess_make(&pos, ml.moves[i], &u);
            gnode child;
            pack(&pos, &child);
            size_t h = pos.key & (slots - 1);
            bool seen = false;
            while (table[h] >= 0) {
                if (same(&g[table[h]], &child)) {
                    seen = true;
                    break;
                }
                h = (h + 1) & (slots - 1);
            }
            chess_unmake(&pos, ml.moves[i], &u);
            if (seen)
                continue;
            if (count >= cap)
                goto out; /* too many positions: no verdict */
            int c = level + step;
            if (c >= MAX_COST)
                goto out;
            child.parent = (int32_t)cur;
            child.move = ml.moves[i];
            child.cost = (uint16_t)c;
            child.next = head[c];
            head[c] = (int32_t)count;
            g[count] = child;
            table[h] = (int32_t)count++;
        }
    }
    /* every reachable position was expanded (or proved) and none is a mate of the loser */
    result = DP_CLOSURE_NO_MATE;
out:
    if (nodes)
        *nodes = expanded;
    free(g);
    free(table);
    free(head);
    free(path);
    return result;
}
