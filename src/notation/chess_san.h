/* chess_san.h: chess move text in and out: SAN (PGN Standard 8.2.3), long
 * algebraic notation (LAN) and UCI.
 *
 * chess_san_parse() turns the text of one move into a chess_move on a given
 * position.  It reads canonical SAN and the lenient forms people and programs
 * write (see the list at chess_san_parse), says precisely why a move that
 * cannot be played is illegal, lists the candidates of an ambiguous move, and
 * reports what was non-standard about the text so that a checker can warn.
 *
 * chess_notation_format() writes a legal move in canonical SAN, LAN or UCI.
 *
 * Both are pure: the position is never changed, nothing is allocated, and
 * any thread may call them at once on different positions. */
#ifndef ARBITER_NOTATION_CHESS_SAN_H
#define ARBITER_NOTATION_CHESS_SAN_H

#include <stdbool.h>
#include <stddef.h>

#include "core/chess.h"

typedef enum {
    CHESS_NOTATION_SAN,   /* Nf3, exd5, e8=Q+, O-O, Qh4e1 */
    CHESS_NOTATION_LAN,   /* Ng1-f3, e4xd5, e7-e8=Q+, O-O */
    CHESS_NOTATION_UCI    /* g1f3, e4d5, e7e8q, e1g1 (Chess960: e1h1) */
} chess_notation;

typedef enum {
    SAN_OK,
    SAN_UNREADABLE,   /* not a move in any accepted form: "Kx", "e9", "Qz4", "hello" */
    SAN_ILLEGAL,      /* a move form, but no legal move matches; reason filled */
    SAN_AMBIGUOUS,    /* several legal moves match; candidates filled */
    SAN_NULL          /* "--", "Z0", "0000" or "@@@@"; the caller decides whether that's allowed */
} san_status;

/* The non-standard forms chess_san_parse() accepted, as bits of
 * san_result.lenient_flags.  They are judged against canonical SAN: a caller
 * reading UCI or LAN on purpose masks out SAN_LENIENT_UCI or SAN_LENIENT_LAN. */
enum san_lenient {
    SAN_LENIENT_ZERO_CASTLE  = 1u << 0,  /* 0-0, 0-0-0 */
    SAN_LENIENT_LOWER_CASTLE = 1u << 1,  /* o-o, o-o-o */
    SAN_LENIENT_CASTLE_KING  = 1u << 2,  /* castling written as a king move: Kg1, Ke1-g1, Kxh1 */
    SAN_LENIENT_UCI          = 1u << 3,  /* e2e4, g1f3, e7e8q, e1g1, e1h1 */
    SAN_LENIENT_LAN          = 1u << 4,  /* e2-e4, Ng1-f3, e4xd5 */
    SAN_LENIENT_LOWER_PIECE  = 1u << 5,  /* nf3, bb5 */
    SAN_LENIENT_PAWN_LETTER  = 1u << 6,  /* Pe4, Pxd5 */
    SAN_LENIENT_FIGURINE     = 1u << 7,  /* ♘f3 */
    SAN_LENIENT_COLON        = 1u << 8,  /* N:f3, e:d5, or the sign × */
    SAN_LENIENT_MISSING_X    = 1u << 9,  /* a capture written without 'x' */
    SAN_LENIENT_EXTRA_X      = 1u << 10, /* 'x' on a move that captures nothing */
    SAN_LENIENT_PROMOTION    = 1u << 11, /* e8Q, e8/Q, e8(Q), e8=q */
    SAN_LENIENT_EP_SUFFIX    = 1u << 12, /* exd6e.p., exd6 ep */
    SAN_LENIENT_MARKER_FORM  = 1u << 13, /* ++ or ‡ for mate, † for check */
    SAN_LENIENT_PAWN_NO_FILE = 1u << 14, /* xd5: a pawn capture without its file */
    SAN_LENIENT_DISAMBIG     = 1u << 15  /* disambiguated by rank where the file was enough */
};

typedef struct san_result {
    san_status status;
    chess_move move;                /* SAN_OK: the move */
    char reason[160];               /* SAN_ILLEGAL, SAN_UNREADABLE: one sentence */
    int candidate_count;            /* SAN_AMBIGUOUS: how many legal moves match (2..8: */
    chess_move candidates[8];       /* no piece type reaches a square from more), by origin square */
    /* Observations for warnings; the move is still resolved (SAN_OK). */
    bool check_marker_wrong;        /* '+' but no check, '#' but no mate, or check/mate unmarked */
    char check_marker_written[3];   /* "", "+", "#" (++ and ‡ count as "#", † as "+") */
    char check_marker_expected[3];  /* "", "+", "#": what the move really does */
    bool over_disambiguated;        /* "Ngf3" where "Nf3" is unique; "Ng1f3" where "Ngf3" is */
    bool lenient;                   /* lenient_flags != 0 */
    unsigned lenient_flags;         /* enum san_lenient bits */
    char lenient_note[80];          /* the first non-standard thing seen, e.g. "castling written with zeros" */
    chess_move named;               /* SAN_ILLEGAL: the one pseudo-legal move the text names
                                     * (it leaves the king in check), else CHESS_MOVE_NONE */
} san_result;

/* Resolve text (NUL-terminated, surrounding blanks ignored) against pos.
 *
 * Accepted besides canonical SAN: castling as 0-0 / o-o, as a king move of
 * two squares (Kg1, e1g1) or onto its own rook (e1h1, Kxh1; Chess960 UCI);
 * UCI (e2e4, e7e8q); LAN (e2-e4, Ng1-f3, Ng1xf3, e4xd5); superfluous
 * disambiguation (Ngf3, Ng1f3); ':' or '×' for 'x'; a missing or superfluous
 * 'x'; lower-case piece letters (nf3; a leading "b" is read as the b-pawn
 * first, then as a bishop); a 'P' for pawns; figurines ♔♕♖♗♘♙ / ♚♛♜♝♞♟;
 * promotions as e8=Q, e8Q, e8/Q, e8(Q), in either case; pawn captures without
 * the file when unique (xd5); an "e.p." or "ep" suffix; check markers + # ++
 * † ‡, which never decide the move but are verified; trailing ! and ?
 * annotations.  Null moves (--, Z0, 0000, @@@@) give SAN_NULL.
 *
 * Pure: pos is unchanged.  out is always fully written. */
void chess_san_parse(const chess_pos *pos, const char *text, san_result *out);
/* The same, when the caller knows whether the side to move is in check: no_check true
 * says it is not (the last move of a legal line gave no check), which spares most
 * legality tests the attack tables. false is always right, and is chess_san_parse. */
void chess_san_parse_known(const chess_pos *pos, const char *text, bool no_check,
                           san_result *out);

/* The shape of a move text of the form [NBRQK]?[a-h]?[1-8]?x?[a-h][1-8](=[NBRQ])?[+#]?:
 * which of its optional parts are written. record.h's REC_SAN_* have these values, for
 * the PGN scanner finds the shape as it reads the text. */
enum san_shape {
    SAN_SHAPE_READ = 1u << 0,   /* the text is of that form */
    SAN_SHAPE_PIECE = 1u << 1,  /* a piece letter */
    SAN_SHAPE_FILE = 1u << 2,   /* an origin file before the destination */
    SAN_SHAPE_RANK = 1u << 3,   /* an origin rank before the destination */
    SAN_SHAPE_X = 1u << 4,      /* 'x' */
    SAN_SHAPE_PROMO = 1u << 5,  /* '=' and a piece letter after the destination */
    SAN_SHAPE_MARK = 1u << 6    /* '+' or '#' at the end */
};

/* chess_san_parse_known for text of that form (no blanks around it) whose shape is known
 * (SAN_SHAPE_READ set), finding its parts where the shape puts them instead of reading
 * the text again (but for the rare moves only the general reader explains). The origin
 * of a pawn move must not be its rank alone or its own file alone. */
void chess_san_parse_shaped(const chess_pos *pos, const char *text, unsigned shape,
                            bool no_check, san_result *out);

/* chess_san_parse_shaped's answer in brief, for the usual move: a legal move, with no
 * lenient form and no more origin than needed, whose check marker may be wrong. */
typedef struct san_quick {
    chess_move move;
    uint8_t check;       /* enum chess_check_state: what check_marker_expected says */
    bool marker_wrong;   /* check_marker_wrong */
} san_quick;

/* For text of a known shape (as chess_san_parse_shaped; with shape 0 only castling written
 * "O-O" or "O-O-O" is answered): true with out filled when the text is such a usual move, the answer chess_san_parse_shaped would give
 * (status SAN_OK, not lenient, not over-disambiguated, the same move and check marker
 * fields); false for anything else, when chess_san_parse_shaped is asked. It skips the
 * large san_result. Pure, like the rest. */
bool chess_san_quick(const chess_pos *pos, const char *text, unsigned shape, bool no_check,
                     san_quick *out);

/* Canonical text of the legal move m in pos, NUL-terminated in buf:
 *   SAN: minimal disambiguation among legal moves (file, else rank, else
 *        both; PGN 8.2.3) and the +/# suffix;
 *   LAN: "Ng1-f3", "e4xd5", "e7-e8=Q+", "O-O";
 *   UCI: "g1f3", "e7e8q", castling e1g1, or king-takes-rook (e1h1) when pos
 *        is flagged chess960.
 * CHESS_MOVE_NONE is the null move: "--" (SAN, LAN) or "0000" (UCI).
 * 16 bytes always suffice; a smaller buffer gets a truncated string.
 * Returns the length of the full text. */
#define CHESS_NOTATION_BUFSIZE 16
int chess_notation_format(const chess_pos *pos, chess_move m, chess_notation notation,
                          char *buf, size_t size);

/* "ok", "unreadable", "illegal", "ambiguous", "null" */
const char *san_status_name(san_status status);

#endif
