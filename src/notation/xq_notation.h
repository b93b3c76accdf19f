/* xq_notation.h: xiangqi move text in and out.
 *
 * Every notation is a pair: xqn_parse(position, text) -> move | error and
 * xqn_format(position, move) -> text.  The notations and the dialects read
 * (see ../shared/reference/xiangqi-formats-and-notation.md, sections 2-6, 8):
 *
 *   XQN_WXF         English WXF/AXF "piece, origin, operator, argument":
 *                   C2.5 C2=5 H8+7 R1+1, tandem C+.5 / +C.5, three pawns
 *                   P+.1 P..1 P=.1 P-.1 (middle '.' or '='), upper or lower
 *                   case (PlayOK writes Black in lower case), full-width
 *                   characters (wukong: Ｃ２＝５, ＋Ｐ＋１), letters K A E/B/M
 *                   H/N R C P and G (ICCS guard = advisor), xqbase index
 *                   letters a-e (Pa+1), Fairy-Stockfish index form (15=6),
 *                   remarks after the move (+ ++ # ! ? !! !? ?! ??).
 *   XQN_VIETNAMESE  Tg S T/V X M P B/C; '.' advance, '/' retreat, '-' traverse;
 *                   t s g (trước sau giữa) after the letter: Xs-5 Pt.2 Bg-6.
 *   XQN_CHINESE     炮二平五 马８进７ 馬8進7, 前/中/后/後 before the piece
 *                   (前炮退二), 一…五 before the piece for 4-5 pawns or two
 *                   doubled files (一兵平四), 前兵九平八 and 前九平八; simplified
 *                   and traditional characters, ASCII or full-width digits.
 *                   UTF-8 only: the reader transcodes GBK/Big5 before.
 *   XQN_ICCS        H2-E2 (also h2-e2, H2E2)
 *   XQN_UCCI        h2e2, ranks 0-9
 *   XQN_FSF_UCI     h3e3, ranks 1-10 (Fairy-Stockfish UCI)
 *   XQN_WINBOARD_SAN Che2 Hg7 c4 axa3 ab3 Afe1, ranks 0-9, pawns without letter
 *   XQN_FSF_SAN     Che3 Hg8 Pc5, ranks 1-10, P for pawns
 *
 * Own-file numbers: each side numbers files 1-9 from its own right; Red file
 * n is UCCI file 'i' - (n - 1), Black file n is 'a' + (n - 1).  '+' is toward
 * the opponent for the side that moves.  K, R, C, P moving along a file give
 * the number of steps; every traverse and every A, E, H move gives the
 * destination file.
 *
 * Canonical forms written (the documented choices):
 *   WXF: upper case for both sides, traverse '.', tandem marker after the
 *     letter (C+.5).  Two pieces of a kind on a file: + front, - rear
 *     (advisors, elephants and the general always use the file: their
 *     direction already decides).  Three pawns on the only doubled file:
 *     + . - (with XQN_STYLE_EQUALS: + = -).  Four or five pawns on a file, or
 *     two files with two or more pawns: the xqbase index letter a-e after P,
 *     numbering the pawns of all doubled files file by file from the mover's
 *     right, front to back on each file (Pa+1, Pc.4).
 *     XQN_STYLE_EQUALS writes '=' for traverse (AXF, wukong);
 *     XQN_STYLE_LOWER_BLACK writes Black in lower case (PlayOK);
 *     XQN_STYLE_FSF writes what Fairy-Stockfish (ffish 0.7.10) writes, for
 *     the ffish cross-check: '=', +/- only for exactly two on a file when the
 *     other piece could make the same displacement (else the file), the
 *     per-file index without letter (15=6) for 3+ on a file or 2+ when
 *     another file also has 2+, no check suffix.  Checked equal to ffish on
 *     ~106 000 moves of random play.
 *   Vietnamese: Tg S T X M P B, X1-2 Xs-5 Pt.2 Bg-6; 4-5 pawns or two doubled
 *     files use the same index letters a-e as WXF (Ba.1; an arbiter choice,
 *     no Vietnamese source settles it).
 *   Chinese: simplified by default (帅仕相车马炮兵 / 将士象车马炮卒, 进退平,
 *     前中后), XQN_STYLE_TRADITIONAL for 帥仕相俥傌炮兵 / 將士象車馬砲卒, 進,
 *     後.  Red numbers 一…九, Black full-width １…９; 4-5 pawns or two
 *     doubled files: 一…五 + piece, numbered as the WXF index letters (xqbase).
 *   ICCS H2-E2; UCCI h2e2; FSF UCI h3e3.
 *   WinBoard SAN: letters K A E H R C, pawns bare; disambiguation by file,
 *     else rank, else both, among legal moves; a pawn that captures or moves
 *     sideways gets its file (axa3, ab3); x for captures; + check, # mate.
 *   FSF SAN: the same with ranks 1-10 and P for pawns (Pc5, Pxc6).
 *
 * Both functions are pure: pos is never changed, nothing is allocated, and
 * parse only tests the few candidate moves the text allows (no full move
 * generation). */
#ifndef ARBITER_NOTATION_XQ_NOTATION_H
#define ARBITER_NOTATION_XQ_NOTATION_H

#include <stdbool.h>
#include <stddef.h>

#include "core/xiangqi.h"

typedef enum {
    XQN_WXF = 0,
    XQN_VIETNAMESE,
    XQN_CHINESE,
    XQN_ICCS,
    XQN_UCCI,
    XQN_FSF_UCI,
    XQN_WINBOARD_SAN,
    XQN_FSF_SAN
} xqn_notation;

#define XQN_NOTATION_COUNT 8
#define XQN_BIT(n) (1u << (unsigned)(n))

typedef enum {
    XQN_OK,
    XQN_UNREADABLE,  /* not a move in any accepted form of the notation */
    XQN_ILLEGAL,     /* a move form, but nothing legal matches; reason filled */
    XQN_AMBIGUOUS    /* several legal moves match; candidates filled */
} xqn_status;

/* Which variant forms the text used (xqn_result.dialect).  None of these is
 * an error: each is some tool's or writer's normal form. */
enum xqn_dialect {
    XQN_D_EQUALS        = 1u << 0,  /* traverse written '=' (AXF, wukong, FSF) */
    XQN_D_LOWER_BLACK   = 1u << 1,  /* Black's letter in lower case (PlayOK) */
    XQN_D_MARKER_FIRST  = 1u << 2,  /* +C-2: tandem marker before the letter (wukong, xqbase) */
    XQN_D_FULL_WIDTH    = 1u << 3,  /* Ｃ２＝５ */
    XQN_D_ALT_LETTER    = 1u << 4,  /* B N G M for elephant, horse, advisor, elephant; V C in Vietnamese */
    XQN_D_INDEX_LETTER  = 1u << 5,  /* xqbase a-e pawn index: Pa+1 */
    XQN_D_FSF_INDEX     = 1u << 6,  /* Fairy-Stockfish per-file index: 15=6 */
    XQN_D_FILE_TANDEM   = 1u << 7,  /* a file where a front/rear marker was due; geometry decided */
    XQN_D_MARKER_EXTRA  = 1u << 8,  /* front/rear marker on an advisor or elephant */
    XQN_D_REMARK        = 1u << 9,  /* a check or remark suffix: + ++ # ! ? */
    XQN_D_TRADITIONAL   = 1u << 10, /* traditional Chinese characters */
    XQN_D_CN_FILE_MARK  = 1u << 11, /* 前兵九平八 / 前九平八: marker with the file kept */
    XQN_D_CAPTURE_MARK  = 1u << 12  /* SAN: x written, or missing on a capture */
};

typedef struct xqn_result {
    xqn_status status;
    xq_move move;               /* XQN_OK: the move */
    char reason[160];           /* XQN_ILLEGAL / XQN_UNREADABLE / XQN_AMBIGUOUS: one sentence */
    int candidate_count;        /* XQN_AMBIGUOUS: the matching legal moves (at most 8 kept) */
    xq_move candidates[8];
    unsigned dialect;           /* enum xqn_dialect bits */
    bool lenient;               /* something non-standard in every dialect was tolerated */
    char lenient_note[80];      /* the first such thing, e.g. "stray trailing '.'" */
    xq_move named;              /* XQN_ILLEGAL: the one move the text names, when it
                                 * names exactly one (rapid/blitz rules may let it stand),
                                 * else XQ_MOVE_NONE */
} xqn_result;

/* Resolve text (NUL-terminated UTF-8, surrounding blanks ignored) in notation
 * n against pos.  Check and remark suffixes are ignored where they cannot be
 * part of the move; a stray trailing '.' is tolerated (lenient).  out is
 * always fully written. */
void xqn_parse(const xq_pos *pos, xqn_notation n, const char *text, xqn_result *out);

/* Style flags for xqn_format. */
enum xqn_style {
    XQN_STYLE_EQUALS      = 1u << 0, /* WXF: '=' for traverse and the middle pawn */
    XQN_STYLE_LOWER_BLACK = 1u << 1, /* WXF: Black in lower case (PlayOK) */
    XQN_STYLE_FSF         = 1u << 2, /* WXF: exactly Fairy-Stockfish's WXF, with +/# */
    XQN_STYLE_TRADITIONAL = 1u << 3, /* Chinese: traditional characters */
    XQN_STYLE_FULL_WIDTH  = 1u << 4, /* WXF: full-width characters */
    XQN_STYLE_MARKER_FIRST = 1u << 5 /* WXF: tandem marker before the letter (+C-2);
                                      * wukong is FULL_WIDTH | EQUALS | MARKER_FIRST */
};

/* Canonical text of the legal move m in pos (see the top of this file),
 * NUL-terminated in buf.  XQN_FORMAT_BUFSIZE bytes always suffice.  Returns
 * the length written, or -1 if m is not a legal move (buf then holds ""). */
#define XQN_FORMAT_BUFSIZE 32   /* full-width WXF: 4 x 3 bytes, Chinese: 5 x 3 bytes, FSF: 6 */
int xqn_format(const xq_pos *pos, xq_move m, xqn_notation n, unsigned style_flags,
               char *buf, size_t size);
/* xqn_format for a move already known to be legal on pos (a replayed node): the same
 * text without testing the move again. */
int xqn_format_legal(const xq_pos *pos, xq_move m, xqn_notation n, unsigned style_flags,
                     char *buf, size_t size);

/* The notations whose syntax text fits (XQN_BIT(n) set), without looking at a
 * position: "P2-6" fits WXF (a pawn retreat, which legality then refutes) and
 * Vietnamese; "h2e2" UCCI and FSF UCI; "炮二平五" Chinese. */
unsigned xqn_syntax_fits(const char *text);

/* "wxf", "vi", "chinese", "iccs", "ucci", "fsf-uci", "winboard", "fsf-san" */
const char *xqn_notation_name(xqn_notation n);
/* Also accepts a few aliases: "english", "axf", "vietnamese", "zh", "uci",
 * "san", "wb".  Returns false for an unknown name. */
bool xqn_notation_from_name(const char *name, xqn_notation *out);

/* "ok", "unreadable", "illegal", "ambiguous" */
const char *xqn_status_name(xqn_status s);

#endif
