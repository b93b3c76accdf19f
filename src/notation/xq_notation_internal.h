/* xq_notation_internal.h: what the xiangqi notation files share.
 *
 * The descriptive notations (WXF, Vietnamese, Chinese) all say the same four
 * things: which piece (type plus an origin: own file, or front/middle/rear
 * marker, or an index), an operator (+ advance, - retreat, = traverse) and an
 * argument (steps or destination file).  Each reader turns its text into an
 * xqn_desc without looking at the position; xqn_resolve_desc() then finds the
 * move.  The formatters share xqn_describe(), which computes the origin label
 * of a legal move. */
#ifndef ARBITER_NOTATION_XQ_NOTATION_INTERNAL_H
#define ARBITER_NOTATION_XQ_NOTATION_INTERNAL_H

#include "notation/xq_notation.h"

enum xqn_origin {
    XQN_ORG_FILE,        /* own file number in file */
    XQN_ORG_FRONT,       /* '+' / t / 前 (file optional: 前兵九平八) */
    XQN_ORG_MIDDLE,      /* '.' or '=' / g / 中 */
    XQN_ORG_REAR,        /* '-' / s / 后 */
    XQN_ORG_INDEX,       /* index 1..5 over all doubled files (xqbase a-e, 一…五) */
    XQN_ORG_FILE_INDEX   /* index 1..5 on the given file (Fairy-Stockfish 15=6) */
};

typedef struct xqn_desc {
    int type;            /* XQ_GENERAL..XQ_SOLDIER */
    enum xqn_origin org;
    int file;            /* own file 1..9, or 0 when not written */
    int index;           /* XQN_ORG_INDEX / XQN_ORG_FILE_INDEX: 1..5 */
    char op;             /* '+', '-', '=' */
    int arg;             /* 1..9 */
} xqn_desc;

/* Result helpers. */
void xqn_result_init(xqn_result *out);
void xqn_set_reason(xqn_result *out, xqn_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void xqn_note(xqn_result *out, const char *note);   /* lenient, first note kept */

/* Names. */
extern const char *const xqn_type_name[8];          /* "general" … "soldier" */
extern const char *const xqn_color_name[2];         /* "red", "black" */
void xqn_sqname(int sq, char buf[3]);               /* UCCI "h2" */
int xqn_own_file(int color, int file);              /* UCCI file 0..8 -> own 1..9 */
int xqn_board_file(int color, int own);             /* own 1..9 -> UCCI file 0..8 */
int xqn_advance(int color, int sq);                 /* rank counted from color's back rank */

/* Find the move of a descriptor; fills out (status, move, reason, candidates). */
void xqn_resolve_desc(const xq_pos *pos, const xqn_desc *d, xqn_result *out);
/* Candidates resolved; picks OK / AMBIGUOUS / ILLEGAL with a reason. */
void xqn_verdict_reason(const xq_pos *pos, xq_move m, char *buf, size_t size);

/* The origin of the legal move m as a descriptor, in the canonical scheme
 * (see xq_notation.h): org is FILE, FRONT/MIDDLE/REAR (single doubled file
 * with 2-3 pieces; never for K, A, E) or INDEX. */
void xqn_describe(const xq_pos *pos, xq_move m, xqn_desc *d);

/* Readers (syntax only, no position): return true and fill d, or false with
 * a reason in out.  dialect bits and lenient notes go to out. */
bool xqn_wxf_read(const char *text, int side, xqn_desc *d, xqn_result *out);
bool xqn_vi_read(const char *text, xqn_desc *d, xqn_result *out);
bool xqn_cn_read(const char *text, int side, xqn_desc *d, xqn_result *out);

/* Formatters (m legal in pos). */
int xqn_wxf_format(const xq_pos *pos, xq_move m, unsigned style, char *buf, size_t size);
int xqn_vi_format(const xq_pos *pos, xq_move m, char *buf, size_t size);
int xqn_cn_format(const xq_pos *pos, xq_move m, unsigned style, char *buf, size_t size);

/* Coordinates and SAN (xq_coord.c). */
void xqn_coord_parse(const xq_pos *pos, xqn_notation n, const char *text, xqn_result *out);
int xqn_coord_format(const xq_pos *pos, xq_move m, xqn_notation n, char *buf, size_t size);
bool xqn_coord_fits(xqn_notation n, const char *text);

/* Copy text without surrounding blanks, full-width ASCII (U+FF01..U+FF5E) and
 * the ideographic space folded to ASCII; returns false if it does not fit.
 * *full_width tells whether anything was folded. */
bool xqn_fold_ascii(const char *text, char *buf, size_t size, bool *full_width);
/* xqn_fold_ascii for a move text read into out: a folded full-width form is noted as
 * the XQN_D_FULL_WIDTH dialect; a text that does not fit is unreadable (false). */
bool xqn_fold_move_text(const char *text, char *buf, size_t size, xqn_result *out);
/* Decode one UTF-8 sequence at s; returns its length (0 at NUL; 1 with
 * *cp = 0xFFFD for a malformed byte). */
int xqn_utf8_next(const unsigned char *s, unsigned *cp);

/* The code point at *s into *cp, *s moved past it; false at the end of the text. */
static inline bool xqn_utf8_take(const unsigned char **s, unsigned *cp)
{
    int len = xqn_utf8_next(*s, cp);
    *s += len;
    return len != 0;
}

#endif
