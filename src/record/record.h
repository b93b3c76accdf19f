/* record.h: the game tree every other part shares.
 *
 * The grammar builds it, the referee resolves and annotates it, the report and the
 * writer read it. One game at a time, all of it in the game's arena.
 *
 * Shape: a game has a main line; a line is a chain of nodes (one move each); a node may
 * carry alternatives to itself (variations), each a line that starts from the position
 * before that node's move. Comments and NAGs hang on the node they follow; comments
 * before the first move of a line hang on the line. Nesting depth costs no C stack:
 * the builder keeps its own stack in the arena, and walkers iterate. */
#ifndef ARBITER_RECORD_RECORD_H
#define ARBITER_RECORD_RECORD_H

/* Main-line positions whose keys the referee keeps for the opening tables. */
#define REC_OPENING_KEYS 48

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "record/arena.h"

/* A place in the original input: 1-based line and column (columns count characters
 * of the decoded text, tabs as one), and the byte offset of the start. */
typedef struct rec_span {
    uint32_t line;
    uint32_t column;
    uint64_t offset;
} rec_span;

/* Where a game's lines start, for the line and column of a byte offset: the PGN
 * reader gives its tokens only their offset (line 0) and keeps one mark each time the
 * line, or the count of bytes on it that are not characters, changes; a span gets its
 * line and column only when something reports it (rec_game_locate). */
typedef struct rec_linemark {
    uint64_t off;            /* the state below holds from this offset on */
    uint64_t line_start;     /* offset of the line's first byte */
    uint32_t line;           /* 1-based */
    uint32_t cont;           /* bytes of the line before off that are no characters */
} rec_linemark;

typedef enum rec_severity { REC_ERROR, REC_WARNING, REC_INFO } rec_severity;

/* One finding: what is wrong (or claimable) and where. Strings are in the arena. */
/* One edit of a fix: replace length bytes at where (the text `before`) by text. */
typedef struct rec_fix {
    const char *before;
    const char *text;
    rec_span where;
    uint32_t length;
    struct rec_fix *next;
} rec_fix;

typedef struct rec_finding {
    const char *code;        /* stable kebab-case code, e.g. "illegal-move" */
    rec_severity severity;
    rec_span where;
    int ply;                 /* 1-based ply in its line, 0 when not about a move */
    const char *move_text;   /* the move as written, or NULL */
    const char *fen;         /* FEN before the move, or NULL */
    const char *message;     /* one sentence a person understands */
    bool claim;              /* a claim that was available or an automatic end (reported
                              * under "claims:"), not a fault of the record */
    /* Move errors (fixit/): what was probably meant, best first. */
    const char **suggestions;
    uint32_t suggestion_count;
    const char *no_suggestion;   /* why none fits, when there are none */
    rec_fix *fix;                /* the edits of the first suggestion when the rest of the
                                  * line replays with it, else NULL */
    bool fix_certain;            /* only that candidate makes the rest replay: `fix` applies it */
    /* Header findings (database/): the tag concerned, and the value as written when the
     * message is about a value (name-variant); NULL otherwise. */
    const char *tag;
    const char *value;
    /* Engine findings (engine/): the engine's evaluation, from White's (Red's) view in
     * pawns ("+1.20") or as a mate ("#3", "-#2"), and its best line in the game's
     * notation, both of the position the line starts from; NULL otherwise. */
    const char *engine_eval;
    const char *engine_best;
    /* Twins (database/db_twins): the first copy of the game, when dup_file is set. */
    const char *dup_file;
    uint64_t dup_game;
    uint32_t dup_line;
    struct rec_finding *next;
} rec_finding;

/* The tag names the code asks for: each has an id, a bit of rec_game.tag_known and a
 * slot for its first tag, so that a lookup is a bit test and an index and a walk of
 * the tags a switch on rec_tag.id, not a compare of names. The Seven Tag Roster comes
 * first, in its order (PGN 8.1.1). Names are told exactly, case and all. */
typedef enum rec_tag_id {
    REC_TAG_EVENT, REC_TAG_SITE, REC_TAG_DATE, REC_TAG_ROUND, REC_TAG_WHITE, REC_TAG_BLACK,
    REC_TAG_RESULT,
    REC_TAG_EVENT_DATE, REC_TAG_WHITE_ELO, REC_TAG_BLACK_ELO, REC_TAG_RED_ELO,
    REC_TAG_TIME_CONTROL, REC_TAG_ECO, REC_TAG_ECCO, REC_TAG_OPENING, REC_TAG_VARIATION,
    REC_TAG_PLY_COUNT, REC_TAG_FEN, REC_TAG_SETUP, REC_TAG_VARIANT, REC_TAG_TERMINATION,
    REC_TAG_GAME, REC_TAG_RED, REC_TAG_RED_TEAM,
    REC_TAG_KNOWN,                 /* their count */
    REC_TAG_OTHER = REC_TAG_KNOWN  /* any other name */
} rec_tag_id;

typedef struct rec_tag {
    const char *name;
    const char *value;       /* unescaped, UTF-8 */
    rec_span where;
    struct rec_tag *next;
    uint32_t name_len, value_len;  /* strlen of each */
    uint8_t id;              /* rec_tag_id of the name (set when linked) */
} rec_tag;

typedef struct rec_comment {
    const char *text;        /* without the braces or the ';', UTF-8 */
    bool rest_of_line;       /* written as ';' ... end of line */
    bool diagram;            /* a WXF "DIAG{ #3 RED }" marker; text is "#3 RED" */
    rec_span where;
    struct rec_comment *next;
} rec_comment;

typedef struct rec_line rec_line;

/* How the referee resolved a node's move text. */
typedef enum rec_move_status {
    REC_MOVE_UNCHECKED = 0,  /* not replayed (yet, or after an illegal move) */
    REC_MOVE_OK,             /* move holds the resolved move */
    REC_MOVE_NULL,           /* a null move ("--", "Z0") */
    REC_MOVE_BAD             /* illegal, ambiguous or unreadable: the line stops here */
} rec_move_status;

/* The shape of a chess move text of the form [NBRQK]?[a-h]?[1-8]?x?[a-h][1-8](=[NBRQ])?[+#]?
 * as the PGN scanner read it (rec_node.san_shape), so that the referee finds its parts
 * where they are instead of reading the text again: which of the optional parts are
 * written. 0: not read so (anything else, or a pawn move whose origin is its rank
 * alone or its own file alone), the text is all there is. */
enum {
    REC_SAN_READ = 1u << 0,     /* the text is of that form, with the parts below */
    REC_SAN_PIECE = 1u << 1,    /* a piece letter */
    REC_SAN_FILE = 1u << 2,     /* an origin file before the destination */
    REC_SAN_RANK = 1u << 3,     /* an origin rank before the destination */
    REC_SAN_X = 1u << 4,        /* 'x' */
    REC_SAN_PROMO = 1u << 5,    /* '=' and a piece letter after the destination */
    REC_SAN_MARK = 1u << 6      /* '+' or '#' at the end */
};

typedef struct rec_node {
    const char *text;        /* the move as written, without suffix annotations */
    rec_span where;
    uint32_t number;         /* move number written just before, 0 if none */
    bool number_dots3;       /* that number was written "12..." (Black to move) */
    bool ep_written;         /* "e.p." followed the move (dropped from text) */
    uint8_t san_shape;       /* REC_SAN_* bits, when the PGN scanner read text as SAN;
                              * whoever changes text clears it */
    uint8_t *nags;           /* NAGs in order: $n, and suffixes/eval symbols mapped */
    uint32_t nag_count, nag_capacity;
    rec_comment *comments;   /* comments after the move, in order */
    struct rec_node *next;   /* the following move in the same line */
    rec_line *variations;    /* alternatives to this move, in order */
    /* Filled by the referee. */
    rec_move_status status;
    uint16_t move;           /* the core's move encoding when status == REC_MOVE_OK */
    bool text_is_san;        /* chess: text is exactly the move's export SAN (PGN 8.2.3),
                                so a writer may copy it instead of formatting it again */
} rec_node;

struct rec_line {
    rec_node *first;         /* NULL for an empty line, e.g. "()" */
    rec_comment *comments;   /* comments before the first move */
    rec_span where;          /* the '(' of a variation; the first move of the main line */
    bool unterminated;       /* a variation whose ')' never came */
    rec_line *next;          /* the next alternative to the same move */
};

typedef enum rec_game_kind { REC_CHESS, REC_XIANGQI } rec_game_kind;

typedef struct rec_game {
    arena *arena;            /* owns every pointer below */
    const char *file;        /* input name as given, "-" for stdin */
    uint64_t index;          /* 1-based position of the game in its input */
    rec_game_kind kind;
    rec_span start, end;     /* first and last byte of the game in the input */
    rec_tag *tags;           /* in input order */
    rec_line main;
    const char *result;      /* game termination marker as written, NULL if missing */
    rec_span result_where;
    uint8_t *game_nags;      /* evaluation symbols after the game (WXF after "}END", */
    uint32_t game_nag_count; /* an article's after "[/game]"), as NAGs in order */
    /* Filled by the referee. */
    uint32_t plies;          /* main-line plies replayed */
    const char *final_fen;   /* position after the last replayed main-line move */
    const char *derived_result;  /* what the board says: "1-0", "0-1", "1/2-1/2" or NULL */
    const char *derived_reason;  /* "checkmate", "stalemate", ... or NULL */
    const char *time_control;    /* "standard", "rapid", "blitz": the rules applied */
    const char *time_control_source; /* "default", "tag" or "option" */
    const char *time_control_why;    /* one sentence; reports show the three unless
                                      * the source is "default" */
    /* Filled by database/db_openings (check, convert --add-opening): the opening
     * table's code (ECO, or ECCO for xiangqi), name and variation (or NULL), static
     * strings; NULL when no position of the main line is named. */
    const char *opening_eco, *opening_name, *opening_variation;
    const char *notation;    /* xiangqi: the notation the moves were read in ("wxf", ...),
                              * as the "notation" finding says in words; or NULL */
    /* Filled by the chess referee: the Zobrist keys of the main line's first
     * positions as it played them ([0] the start, [k] after k plies, as long as every
     * move was played), so that the opening table needs no replay of its own. */
    uint64_t *opening_keys;
    int opening_key_count;
    const char *twin_keys;   /* the game's twin keys as text (database/db_keys.h), so that
                              * reports of parts can be merged, or NULL */
    rec_finding *findings;   /* in the order found; see rec_game_sort_findings */
    rec_finding *findings_tail;
    uint32_t finding_count;
    uint32_t error_count, warning_count;
    /* Line starts of the input for spans that have only an offset (line 0); none
     * when every span has its line and column. */
    const rec_linemark *linemarks;
    uint32_t linemark_count;
    /* Set by the PGN reader when none of the game's comments may hold a mate claim
     * (rec_text_may_claim_mate), so that the claims check skips its walk of the game;
     * false when not known (every other reader). */
    bool comments_claim_free;
    /* Set by the PGN reader when every move it read was a word of its scanner's SAN
     * fast path (a piece letter of KQRBN, a file, or castling), so that no move starts
     * with another language's piece letter (the chess referee skips its look for one);
     * false when not known (every other reader). */
    bool moves_fast_only;
    /* The known tag names among the tags (rec_tag_id bits), those given more than once,
     * and the first tag of each; kept by rec_game_link_tag and rec_game_index_tags. */
    uint32_t tag_known, tag_repeated;
    const rec_tag *tag_first[REC_TAG_KNOWN];   /* last: rec_game_init leaves it, as only
                                                * a slot whose bit is set is read */
} rec_game;

/* The bytes a mate claim's word can start with (engine/mate_claim.c: "mat", "Mat",
 * "мат", "ế", "步"): a comment with none of them claims no mate. */
#define REC_CLAIM_BYTES "mM\xD0\xE1\xE6"

/* false when text cannot hold a mate claim (engine/mate_claim.h, mate_claim_possible,
 * says which words every claim is written with); here for the PGN reader, which asks it
 * of each comment as it reads it (rec_game.comments_claim_free). */
bool rec_text_may_claim_mate(const char *text);

/* Start an empty game in a (reset) arena. */
void rec_game_init(rec_game *g, arena *a, const char *file, uint64_t index);

/* The rec_tag_id of a tag name of n bytes: its length and first byte pick the one
 * name it can be, compared whole (inline: a literal name folds to its id). */
static inline __attribute__((always_inline)) unsigned rec_tag_id_of(const char *s, size_t n)
{
#define REC_TAG_ID_IF(lit, id) \
    if (memcmp(s, lit, sizeof lit - 1) == 0) \
        return id;
    switch (n) {
    case 3:
        if (s[0] == 'F') { REC_TAG_ID_IF("FEN", REC_TAG_FEN) }
        else if (s[0] == 'E') { REC_TAG_ID_IF("ECO", REC_TAG_ECO) }
        else { REC_TAG_ID_IF("Red", REC_TAG_RED) }
        break;
    case 4:
        if (s[0] == 'S') { REC_TAG_ID_IF("Site", REC_TAG_SITE) }
        else if (s[0] == 'D') { REC_TAG_ID_IF("Date", REC_TAG_DATE) }
        else if (s[0] == 'E') { REC_TAG_ID_IF("ECCO", REC_TAG_ECCO) }
        else { REC_TAG_ID_IF("Game", REC_TAG_GAME) }
        break;
    case 5:
        switch (s[0]) {
        case 'E': REC_TAG_ID_IF("Event", REC_TAG_EVENT) break;
        case 'R': REC_TAG_ID_IF("Round", REC_TAG_ROUND) break;
        case 'W': REC_TAG_ID_IF("White", REC_TAG_WHITE) break;
        case 'B': REC_TAG_ID_IF("Black", REC_TAG_BLACK) break;
        case 'S': REC_TAG_ID_IF("SetUp", REC_TAG_SETUP) break;
        default: break;
        }
        break;
    case 6:
        if (s[3] == 'u') { REC_TAG_ID_IF("Result", REC_TAG_RESULT) }
        else { REC_TAG_ID_IF("RedElo", REC_TAG_RED_ELO) }
        break;
    case 7:
        if (s[0] == 'V') { REC_TAG_ID_IF("Variant", REC_TAG_VARIANT) }
        else if (s[0] == 'O') { REC_TAG_ID_IF("Opening", REC_TAG_OPENING) }
        else { REC_TAG_ID_IF("RedTeam", REC_TAG_RED_TEAM) }
        break;
    case 8:
        if (s[0] == 'W') { REC_TAG_ID_IF("WhiteElo", REC_TAG_WHITE_ELO) }
        else if (s[0] == 'B') { REC_TAG_ID_IF("BlackElo", REC_TAG_BLACK_ELO) }
        else { REC_TAG_ID_IF("PlyCount", REC_TAG_PLY_COUNT) }
        break;
    case 9:
        if (s[0] == 'E') { REC_TAG_ID_IF("EventDate", REC_TAG_EVENT_DATE) }
        else { REC_TAG_ID_IF("Variation", REC_TAG_VARIATION) }
        break;
    case 11:
        if (s[1] == 'i') { REC_TAG_ID_IF("TimeControl", REC_TAG_TIME_CONTROL) }
        else { REC_TAG_ID_IF("Termination", REC_TAG_TERMINATION) }
        break;
    default:
        break;
    }
    return REC_TAG_OTHER;
#undef REC_TAG_ID_IF
}

/* The first tag of a known name, or NULL. */
static inline const rec_tag *rec_game_known_tag(const rec_game *g, unsigned id)
{
    return g->tag_known >> id & 1 ? g->tag_first[id] : NULL;
}

/* Its value, or NULL. */
static inline const char *rec_game_known_value(const rec_game *g, unsigned id)
{
    return g->tag_known >> id & 1 ? g->tag_first[id]->value : NULL;
}

/* Put tag t (name, value, where and both lengths filled) at the end of g's tags, after
 * tail (their last, NULL when there is none), and note its name among the known. */
static inline void rec_game_link_tag(rec_game *g, rec_tag *tail, rec_tag *t)
{
    unsigned id = rec_tag_id_of(t->name, t->name_len);
    t->id = (uint8_t)id;
    t->next = NULL;
    if (tail)
        tail->next = t;
    else
        g->tags = t;
    if (id < REC_TAG_KNOWN) {
        uint32_t bit = UINT32_C(1) << id;
        if (g->tag_known & bit) {
            g->tag_repeated |= bit;
        } else {
            g->tag_known |= bit;
            g->tag_first[id] = t;
        }
    }
}

/* The known names again from the tags, after an edit of the list. */
void rec_game_index_tags(rec_game *g);

/* A bit (0 to 63) for a tag name of n bytes. Names with different bits differ, so a
 * set of the bits of the names seen so far spares the search for a repeated name
 * unless the bit is set; the constants give the usual names (the Seven Tag Roster,
 * Elo, FideId, Title, ECO, Opening, TimeControl, ...) bits of their own but for
 * UTCDate and UTCTime. */
static inline unsigned rec_tag_name_bit(const char *name, size_t n)
{
    const unsigned char *u = (const unsigned char *)name;
    return (u[0] * 7u + (n ? u[n - 1] : 0u) * 30u + (unsigned)n * 19u) & 63u;
}

/* The value of the first tag named NAME (N bytes) of no known name, or NULL. */
const char *rec_game_other_tag(const rec_game *g, const char *name, size_t n);

/* rec_game_tag of a name not known when compiled. */
const char *rec_game_tag_named(const rec_game *g, const char *name);

/* The value of the first tag named NAME, or NULL: a literal name folds to a bit test
 * (or to the walk for a name of no id), any other is looked up out of line. */
static inline __attribute__((always_inline)) const char *rec_game_tag(const rec_game *g,
                                                                      const char *name)
{
    if (!__builtin_constant_p(strlen(name)))
        return rec_game_tag_named(g, name);
    size_t n = strlen(name);
    unsigned id = rec_tag_id_of(name, n);
    return id < REC_TAG_KNOWN ? rec_game_known_value(g, id) : rec_game_other_tag(g, name, n);
}

/* Whether the tag name NAME, whose first byte the caller has told already, goes on as
 * the literal REST and ends there: for a walk of the tags that looks for several names
 * at once, with no strcmp call (the compares, a constant count, are unrolled; the first
 * byte that differs stops them, so nothing past NAME's NUL is read). */
#define REC_TAG_REST_IS(name, rest) rec_tag_rest_is((name), (rest), sizeof(rest))
static inline __attribute__((always_inline)) bool rec_tag_rest_is(const char *name,
                                                                  const char *rest,
                                                                  size_t size)
{
#pragma GCC unroll 8
    for (size_t i = 0; i < size; i++)
        if (name[1 + i] != rest[i])
            return false;
    return true;
}

/* Add a tag at the end (a repeated name is kept; the reader reports it). */
rec_tag *rec_game_add_tag(rec_game *g, const char *name, const char *value, rec_span where);

/* s with its line and column, from the game's marks when it has only an offset
 * (anything reported goes through here; other spans are returned as they are). */
rec_span rec_game_locate(const rec_game *g, rec_span s);

/* The line and column of offset off among n marks sorted by offset (n > 0). */
rec_span rec_linemarks_locate(const rec_linemark *m, uint32_t n, uint64_t off);

/* Record a finding (where is located first); message is formatted into the arena. Returns it so callers can
 * fill ply, move_text, fen. */
rec_finding *rec_game_add_finding(rec_game *g, const char *code, rec_severity sev,
                                  rec_span where, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Give every finding with this code the severity sev (a reader cannot know what a
 * later classification of the game makes of it), keeping the counts right. */
void rec_game_set_severity(rec_game *g, const char *code, rec_severity sev);

/* Sort findings by position in the input (stable), for reports. */
void rec_game_sort_findings(rec_game *g);

/* Append a NAG to a node (the array grows in the arena). */
void rec_node_add_nag(arena *a, rec_node *n, uint8_t nag);

/* Append a comment to a list. */
void rec_comment_append(rec_comment **list, rec_comment *c);

const char *rec_severity_name(rec_severity sev);

#endif
