/* comment_cmd.h: commands embedded in PGN comments (PGN Specification Supplement, 2001),
 * such as "{[%clk 0:03:00] [%eval 0.25] [%cal Ge2e4,Rd7d5] main line}".
 *
 * Parsed on demand, not by the reader: most consumers never look (the referee reads
 * [%clk] for time forfeits, the diagram writer reads [%csl]/[%cal]). Known commands get
 * their fields; unknown ones are kept by name with their raw arguments. */
#ifndef ARBITER_RECORD_COMMENT_CMD_H
#define ARBITER_RECORD_COMMENT_CMD_H

#include <stdbool.h>

#include "record/arena.h"

typedef enum rec_cmd_kind {
    REC_CMD_OTHER,   /* a command this module does not know: name and args only */
    REC_CMD_CLK,     /* [%clk 1:05:23.4]: clock time left after the move */
    REC_CMD_EMT,     /* [%emt 0:00:12]: elapsed move time */
    REC_CMD_EVAL,    /* [%eval -1.25] or [%eval #-3] (optionally ",depth") */
    REC_CMD_CSL,     /* [%csl Ra1,Gb2]: coloured squares */
    REC_CMD_CAL      /* [%cal Ge2e4,Rd7d5]: coloured arrows */
} rec_cmd_kind;

#define REC_CMD_MAX_MARKS 64

typedef struct rec_cmd_mark {
    char color;      /* 'R', 'G', 'Y', 'B' (as written, upper-cased) */
    int from;        /* chess square a1 = 0 ... h8 = 63 */
    int to;          /* arrow head, or -1 for a square */
} rec_cmd_mark;

typedef struct rec_command {
    const char *name;        /* "clk", as written */
    const char *args;        /* the raw argument text, trimmed */
    rec_cmd_kind kind;
    bool valid;              /* the arguments had the expected form */
    double seconds;          /* CLK, EMT */
    bool mate;               /* EVAL: a mate score */
    double pawns;            /* EVAL: score in pawns, White's view (when !mate) */
    int mate_in;             /* EVAL: moves to mate, negative when Black mates */
    int depth;               /* EVAL: search depth, or -1 */
    int mark_count;          /* CSL, CAL */
    rec_cmd_mark marks[REC_CMD_MAX_MARKS];
    struct rec_command *next;
} rec_command;

/* The commands in text, in order (NULL if none). When prose is not NULL it receives
 * the text with the commands taken out and white space trimmed. */
rec_command *rec_comment_commands(arena *a, const char *text, const char **prose);
/* The same with only the commands named only (e.g. "mate") read and returned; the
 * others are still taken out of the prose. Spares reading every [%eval] and [%clk]
 * of an engine-annotated game when one command is wanted. */
rec_command *rec_comment_commands_named(arena *a, const char *text, const char *only,
                                        const char **prose);

#endif
