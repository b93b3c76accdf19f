/* chess_san_parts.h: what the chess move-text modules share (notation/ only): the parts
 * a move text is cut into before the position is looked at (chess_san_text.c), and the
 * disambiguation SAN needs (chess_san_format.c), which the reader checks too. */
#ifndef ARBITER_NOTATION_CHESS_SAN_PARTS_H
#define ARBITER_NOTATION_CHESS_SAN_PARTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/chess.h"
#include "notation/chess_san.h"

enum { SEP_NONE, SEP_X, SEP_COLON, SEP_DASH };

/* A move text cut into its parts. */
typedef struct san_parts {
    int ptype;          /* piece letter written (1..6), 0 = none */
    int ff, fr;         /* origin file and rank written, -1 = not */
    int to;             /* destination */
    int sep;            /* SEP_* */
    int promo;          /* promotion piece type written (may be K or P), 0 = none */
    int castle;         /* 0, or 1 + CHESS_KINGSIDE / CHESS_QUEENSIDE for O-O forms */
    int marker;         /* 0 none, 1 check, 2 mate */
    bool ep_suffix;
    unsigned flags;     /* lenient forms seen in the text (SAN_LENIENT_*) */
} san_parts;

static inline bool san_is_file(int c) { return c >= 'a' && c <= 'h'; }
static inline bool san_is_rank(int c) { return c >= '1' && c <= '8'; }

/* The name of square sq ("e4"). */
static inline void san_sqname(int sq, char buf[3])
{
    buf[0] = (char)('a' + (sq & 7));
    buf[1] = (char)('1' + (sq >> 3));
    buf[2] = '\0';
}

/* Whether s[0..n) is the text lit. */
bool san_text_is(const char *s, size_t n, const char *lit);

/* Cut s[0..n) into parts.  b_bishop: a leading lower-case 'b' is a bishop rather than
 * the b-file.  Returns false if the text is not a move form. */
bool san_read_move(const unsigned char *s, size_t n, bool b_bishop, san_parts *p);

/* Strip what may follow the move proper: annotations, the check marker, an e.p.
 * suffix.  Returns the new length. */
size_t san_strip_suffixes(const unsigned char *s, size_t n, san_parts *p);

/* The forms nearly every move is written in (canonical SAN, plain UCI), read in one
 * pass; false for anything else, which goes the general way (see chess_san_text.c). */
bool san_read_plain(const unsigned char *s, san_parts *p);

/* The piece type of an upper-case piece letter N B R Q K, by its low five bits: one
 * load, where a switch compared letter after letter (a call a move). */
extern const uint8_t san_piece_by_letter_bits[32];

/* What read_plain reads from s, a text of the form its shape (SAN_SHAPE_*) says, read
 * at the places the shape gives without testing a byte.  Inline: the hot callers keep
 * p's fields in registers. */
static inline void san_read_shaped(const unsigned char *s, unsigned shape, san_parts *p)
{
    int i = 0;
    p->ptype = 0;
    if (shape & SAN_SHAPE_PIECE)
        p->ptype = san_piece_by_letter_bits[s[i++] & 31];
    p->ff = p->fr = -1;
    if (shape & SAN_SHAPE_FILE)
        p->ff = s[i++] - 'a';
    if (shape & SAN_SHAPE_RANK)
        p->fr = s[i++] - '1';
    p->sep = SEP_NONE;
    if (shape & SAN_SHAPE_X) {
        p->sep = SEP_X;
        i++;
    }
    p->to = CHESS_SQ(s[i] - 'a', s[i + 1] - '1');
    i += 2;
    p->promo = 0;
    if (shape & SAN_SHAPE_PROMO) {
        p->promo = san_piece_by_letter_bits[s[i + 1] & 31];
        i += 2;
    }
    p->marker = 0;
    if (shape & SAN_SHAPE_MARK)
        p->marker = s[i] == '+' ? 1 : 2;
    p->castle = 0;
    p->ep_suffix = false;
    p->flags = 0;
}

/* "O-O" or "O-O-O", then an optional '+' or '#' and the end of the text. */
bool san_read_plain_castle(const unsigned char *s, san_parts *p);

/* The disambiguation SAN needs for m (PGN 8.2.3.4): other legal moves of the same piece
 * type to the same square, counted among legal moves only. */
void san_disambiguation(const chess_pos *pos, chess_move m, bool *need_file, bool *need_rank);
/* Of others, the squares of the side to move's pieces that can legally move to to (a plain
 * move, pseudo-legal for each); in_check false only when the side to move is not in check
 * (then the cheaper pin test answers). */
uint64_t san_legal_rivals(const chess_pos *pos, uint64_t others, int to, bool in_check);

#endif
