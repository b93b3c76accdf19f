/* chess_san_text.c: a chess move text cut into its parts (piece, origin file and rank,
 * separator, destination, promotion, suffixes) in one pass, with no look at the
 * position; chess_san.c then matches the parts against the position. SAN is the PGN
 * Standard (1994) 8.2.3; the lenient forms read are listed at chess_san_parse. */
#include <config.h>

/* notation/ asks the core and never touches a position's fields (chess.h) */
#define ARBITER_OPAQUE_POSITIONS 1

#include "notation/chess_san.h"
#include "notation/chess_san_parts.h"

#include <string.h>

static int piece_of_upper(int c)
{
    switch (c) {
    case 'P': return CHESS_PAWN;
    case 'N': return CHESS_KNIGHT;
    case 'B': return CHESS_BISHOP;
    case 'R': return CHESS_ROOK;
    case 'Q': return CHESS_QUEEN;
    case 'K': return CHESS_KING;
    default: return 0;
    }
}

bool san_text_is(const char *s, size_t n, const char *lit)
{
    return strlen(lit) == n && memcmp(s, lit, n) == 0;
}

/* Cut s[0..n) into parts.  b_bishop: a leading lower-case 'b' is a bishop
 * rather than the b-file.  Returns false if the text is not a move form. */
bool san_read_move(const unsigned char *s, size_t n, bool b_bishop, san_parts *p)
{
    size_t i = 0;

    p->ptype = 0;
    p->ff = p->fr = -1;
    p->to = -1;
    p->sep = SEP_NONE;
    p->promo = 0;

    /* the piece */
    if (n >= 3 && s[0] == 0xE2 && s[1] == 0x99 && s[2] >= 0x94 && s[2] <= 0x9F) {
        static const int fig[6] = { CHESS_KING, CHESS_QUEEN, CHESS_ROOK, CHESS_BISHOP,
                                    CHESS_KNIGHT, CHESS_PAWN };
        p->ptype = fig[(s[2] - 0x94) % 6];
        p->flags |= SAN_LENIENT_FIGURINE;
        i = 3;
    } else if (n && piece_of_upper(s[0])) {
        p->ptype = piece_of_upper(s[0]);
        if (p->ptype == CHESS_PAWN)
            p->flags |= SAN_LENIENT_PAWN_LETTER;
        i = 1;
    } else if (n && s[0] != 'b' && s[0] >= 'a' && s[0] <= 'z' && piece_of_upper(s[0] - 32)) {
        p->ptype = piece_of_upper(s[0] - 32);
        p->flags |= p->ptype == CHESS_PAWN ? SAN_LENIENT_PAWN_LETTER : SAN_LENIENT_LOWER_PIECE;
        i = 1;
    } else if (n && s[0] == 'b' && b_bishop) {
        p->ptype = CHESS_BISHOP;
        p->flags |= SAN_LENIENT_LOWER_PIECE;
        i = 1;
    }

    /* first coordinate */
    int af = -1, ar = -1, bf = -1, br = -1;
    if (i < n && san_is_file(s[i]))
        af = s[i++] - 'a';
    if (i < n && san_is_rank(s[i]))
        ar = s[i++] - '1';

    /* separator */
    if (i < n && s[i] == 'x') {
        p->sep = SEP_X;
        i++;
    } else if (i < n && s[i] == ':') {
        p->sep = SEP_COLON;
        p->flags |= SAN_LENIENT_COLON;
        i++;
    } else if (i + 1 < n && s[i] == 0xC3 && s[i + 1] == 0x97) { /* × */
        p->sep = SEP_COLON;
        p->flags |= SAN_LENIENT_COLON;
        i += 2;
    } else if (i < n && s[i] == '-') {
        p->sep = SEP_DASH;
        p->flags |= SAN_LENIENT_LAN;
        i++;
    } else if (i + 2 < n && s[i] == 0xE2 && s[i + 1] == 0x80 && s[i + 2] == 0x93) { /* – */
        p->sep = SEP_DASH;
        p->flags |= SAN_LENIENT_LAN;
        i += 3;
    }

    /* second coordinate: a whole square, so that a promotion letter 'b'
     * after the destination is not taken for a file */
    if (i + 1 < n && san_is_file(s[i]) && san_is_rank(s[i + 1])) {
        bf = s[i] - 'a';
        br = s[i + 1] - '1';
        i += 2;
    }

    if (bf >= 0 && br >= 0) {
        p->to = CHESS_SQ(bf, br);
        p->ff = af;
        p->fr = ar;
    } else if (bf < 0 && br < 0 && p->sep == SEP_NONE && af >= 0 && ar >= 0) {
        p->to = CHESS_SQ(af, ar);
    } else {
        return false;
    }

    /* promotion */
    if (i < n) {
        int c = s[i];
        bool canonical = false;
        size_t j = i;
        if (c == '=' || c == '/' || c == '(') {
            canonical = c == '=';
            j++;
        }
        if (j < n) {
            int d = s[j];
            int t = piece_of_upper(d >= 'a' && d <= 'z' ? d - 32 : d);
            /* a bare lower-case 'p' after the square would be odd; refuse it */
            if (t && !(j == i && d == 'p')) {
                if (d >= 'a')
                    canonical = false;
                j++;
                if (c == '(') {
                    if (j < n && s[j] == ')')
                        j++;
                    else
                        t = 0;
                }
                if (t) {
                    p->promo = t;
                    if (!canonical)
                        p->flags |= SAN_LENIENT_PROMOTION;
                    i = j;
                }
            }
        }
    }
    if (i != n)
        return false;

    /* a pawn move (no piece letter, or P) needs both origin parts or a file
     * other than the destination's; nothing else makes sense */
    if (p->ptype == 0 || p->ptype == CHESS_PAWN) {
        if (p->ff < 0 && p->fr >= 0)
            return false;
        if (p->ff >= 0 && p->fr < 0 && p->ff == CHESS_FILE(p->to))
            return false;
    }
    return true;
}

/* Strip what may follow the move proper: annotations, the check marker, an
 * e.p. suffix.  Returns the new length. */
size_t san_strip_suffixes(const unsigned char *s, size_t n, san_parts *p)
{
    while (n && (s[n - 1] == '!' || s[n - 1] == '?' || s[n - 1] == ' '))
        n--;
    if (n >= 2 && s[n - 1] == '+' && s[n - 2] == '+') {
        p->marker = 2;
        p->flags |= SAN_LENIENT_MARKER_FORM;
        n -= 2;
    } else if (n && s[n - 1] == '#') {
        p->marker = 2;
        n--;
    } else if (n && s[n - 1] == '+') {
        p->marker = 1;
        n--;
    } else if (n >= 3 && s[n - 3] == 0xE2 && s[n - 2] == 0x80
               && (s[n - 1] == 0xA0 || s[n - 1] == 0xA1)) { /* † ‡ */
        p->marker = s[n - 1] == 0xA0 ? 1 : 2;
        p->flags |= SAN_LENIENT_MARKER_FORM;
        n -= 3;
    }
    while (n && s[n - 1] == ' ')
        n--;
    /* e.p. / ep after a rank digit */
    size_t k = 0;
    if (n >= 4 && memcmp(s + n - 4, "e.p.", 4) == 0)
        k = 4;
    else if (n >= 2 && memcmp(s + n - 2, "ep", 2) == 0)
        k = 2;
    if (k) {
        size_t m = n - k;
        while (m && s[m - 1] == ' ')
            m--;
        if (m && san_is_rank(s[m - 1])) {
            p->ep_suffix = true;
            p->flags |= SAN_LENIENT_EP_SUFFIX;
            n = m;
        }
    }
    return n;
}


/* The forms nearly every move is written in, read in one pass without measuring or
 * trimming the text: canonical SAN (an upper-case piece letter N B R Q K or none, an
 * optional origin file and/or rank, an optional 'x', the destination, an optional "=N",
 * "=B", "=R" or "=Q", an optional '+' or '#', and the end of the text) and plain UCI
 * without a promotion letter.  p is filled exactly as strip_suffixes and read_move
 * would fill it for the same text; false for anything else (castling, null moves,
 * lenient forms, blanks after the move, bad squares), which goes the general way. */
bool san_read_plain(const unsigned char *s, san_parts *p)
{
    int i = 0, pt;
    switch (s[0]) {
    case 'N': pt = CHESS_KNIGHT; break;
    case 'B': pt = CHESS_BISHOP; break;
    case 'R': pt = CHESS_ROOK; break;
    case 'Q': pt = CHESS_QUEEN; break;
    case 'K': pt = CHESS_KING; break;
    default: pt = 0; break;
    }
    i = pt != 0;

    int af = -1, ar = -1, sep = SEP_NONE, to, ff, fr;
    if (san_is_file(s[i]))
        af = s[i++] - 'a';
    if (san_is_rank(s[i]))
        ar = s[i++] - '1';
    if (s[i] == 'x') {
        sep = SEP_X;
        i++;
    }
    if (san_is_file(s[i]) && san_is_rank(s[i + 1])) {
        to = CHESS_SQ(s[i] - 'a', s[i + 1] - '1');
        ff = af;
        fr = ar;
        i += 2;
    } else if (sep == SEP_NONE && af >= 0 && ar >= 0) {
        to = CHESS_SQ(af, ar);
        ff = fr = -1;
    } else {
        return false;
    }

    int promo = 0;
    if (s[i] == '=') {
        switch (s[i + 1]) {
        case 'N': promo = CHESS_KNIGHT; break;
        case 'B': promo = CHESS_BISHOP; break;
        case 'R': promo = CHESS_ROOK; break;
        case 'Q': promo = CHESS_QUEEN; break;
        default: return false;
        }
        i += 2;
    }
    int marker = 0;
    if (s[i] == '+' && s[i + 1] == '\0')
        marker = 1;
    else if (s[i] == '#' && s[i + 1] == '\0')
        marker = 2;
    else if (s[i] != '\0')
        return false;

    /* the pawn forms read_move refuses */
    if (pt == 0 && ((ff < 0 && fr >= 0) || (ff >= 0 && fr < 0 && ff == CHESS_FILE(to))))
        return false;

    p->ptype = pt;
    p->ff = ff;
    p->fr = fr;
    p->to = to;
    p->sep = sep;
    p->promo = promo;
    p->castle = 0;
    p->marker = marker;
    p->ep_suffix = false;
    p->flags = 0;
    return true;
}

/* The piece type of an upper-case piece letter N B R Q K, by its low five bits: one
 * load, where a switch compared letter after letter (a call a move). */
const uint8_t san_piece_by_letter_bits[32] = {
    ['N' & 31] = CHESS_KNIGHT, ['B' & 31] = CHESS_BISHOP, ['R' & 31] = CHESS_ROOK,
    ['Q' & 31] = CHESS_QUEEN,  ['K' & 31] = CHESS_KING,
};

/* Castling as nearly every record writes it: "O-O" or "O-O-O", then an optional '+' or
 * '#' and the end of the text.  p is filled as parse_general fills it for that text. */
bool san_read_plain_castle(const unsigned char *s, san_parts *p)
{
    if (s[0] != 'O' || s[1] != '-' || s[2] != 'O')
        return false;
    int side = CHESS_KINGSIDE, i = 3;
    if (s[3] == '-' && s[4] == 'O') {
        side = CHESS_QUEENSIDE;
        i = 5;
    }
    int marker = 0;
    if ((s[i] == '+' || s[i] == '#') && s[i + 1] == '\0')
        marker = s[i] == '+' ? 1 : 2;
    else if (s[i] != '\0')
        return false;
    memset(p, 0, sizeof *p);
    p->ff = p->fr = -1;
    p->to = -1;
    p->castle = 1 + side;
    p->marker = marker;
    return true;
}
