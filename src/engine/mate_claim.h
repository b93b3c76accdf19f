/* mate_claim.h: the claims of a forced mate that annotators write in comments:
 * [%eval #N] and [%mate N] commands, and prose: "mate in 3", "mates in 3", "мат в 3
 * хода", "chiếu hết sau 3 nước", "3步杀". Text only: whether the mate exists is
 * mate_search's business. */
#ifndef ARBITER_ENGINE_MATE_CLAIM_H
#define ARBITER_ENGINE_MATE_CLAIM_H

#include <stdbool.h>

#include "record/arena.h"

typedef struct mate_claim {
    int moves;               /* N, >= 1 */
    int side;                /* 0 White/Red mates, 1 Black mates, -1 not said */
    bool command;            /* from [%mate N], not prose */
} mate_claim;

/* The first claim of a forced mate in text, if any. Conditional and negated forms
 * ("threatens mate in 2", "if ..., mate in 3", "no mate in 3") are no claim. */
bool mate_claim_find(arena *a, const char *text, mate_claim *out);

/* false when text cannot hold a claim: it has no [%mate command and none of the
 * words every claim is written with ("mate" then a blank, 's', '-' or '[', or "mati",
 * in any ASCII case; "мат", "Мат", "ế" of chiếu, "步"). A few byte compares, where
 * mate_claim_find takes the commands out of the prose first: most comments (clocks,
 * engine scores, "material") end here. */
bool mate_claim_possible(const char *text);

#endif
