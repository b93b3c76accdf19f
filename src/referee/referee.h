/* referee.h: replays a game record through the rules core and records findings.
 *
 * The referee walks the tree the reader built: the main line and every variation,
 * each from the right position. It resolves each node's move text (status, move),
 * records what is wrong as findings on the game, and derives the result the board
 * supports. It never prints. */
#ifndef ARBITER_REFEREE_REFEREE_H
#define ARBITER_REFEREE_REFEREE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/chess.h"
#include "core/xiangqi.h"
#include "record/record.h"
#include "referee/time_control.h"

/* Rule sets (--rules): FIDE Laws for chess; for xiangqi the Vietnamese law (seed 001),
 * the Asian Xiangqi Federation's or the Chinese Xiangqi Association's rules. */
typedef enum referee_rules {
    REFEREE_RULES_DEFAULT = 0,  /* fide for chess games, vn for xiangqi games */
    REFEREE_RULES_FIDE,
    REFEREE_RULES_VN,
    REFEREE_RULES_AXF,
    REFEREE_RULES_CXA
} referee_rules;

typedef struct referee_options {
    int xq_notation;         /* xiangqi move notation (xqn_notation), or -1: detect */
    int chess_letters;       /* chess piece letters (chess_letters), or -1: by trial */
    referee_rules rules;
    int move_limit;          /* xiangqi natural move limit in moves per side (--move-limit),
                              * 0: the rule set's own */
    long chess_timeout_nodes;/* chess, FIDE 6.9: node budget of the "can the winner still
                              * mate" analysis of a game lost on time; 0: the default
                              * (50,000); negative (the command line's default): the
                              * proofs only (material, blocked pawns, a short
                              * exhaustive proof), reported only when they prove
                              * the winner cannot mate */
    tc_kind time_control;    /* --time-control; TC_AUTO: each game's own time fields */
} referee_options;

#define REFEREE_OPTIONS_DEFAULT \
    {.xq_notation = -1, .chess_letters = -1, .rules = REFEREE_RULES_DEFAULT, .chess_timeout_nodes = -1}

/* --rules NAME: fide, vn, axf, cxa; false for anything else. */
bool referee_rules_from_name(const char *name, referee_rules *out);

/* Replay a chess game (PGN). Honours SetUp/FEN and Variant "chess960". */
void referee_chess_game(rec_game *g, const referee_options *opts);

/* Replay a xiangqi game (WXF, article block or xiangqi PGN): notation detected by
 * trial replay unless opts fixes it; lines written inside comments replayed; DIAG
 * markers checked against the position. */
void referee_xiangqi_game(rec_game *g, const referee_options *opts);

/* The Format tag value naming a xiangqi notation in PGN ("WXF", "ICCS", "Chinese",
 * "FSF-SAN", ...), or NULL. */
const char *referee_xq_format_name(int notation);

/* The start position of a xiangqi game: its FEN tag (PGN or WXF) or the standard one.
 * False, with the reason in err, for a bad FEN. */
bool referee_xiangqi_start(const rec_game *g, xq_pos *pos, char *err, size_t errsize);

/* The start position of a chess game: the FEN tag (PGN 9.7) or the standard one,
 * flagged Chess960 by the Variant tag. False, with the reason in err, for a bad FEN. */
bool referee_chess_start(const rec_game *g, chess_pos *pos, char *err, size_t errsize);

/* Normalise a result string ("1-0", "0-1", "1/2-1/2", "*"), accepting damaged forms
 * such as "1 - 0" or "½-½"; returns NULL for anything else. */
const char *referee_normal_result(const char *text);

#endif
