/* chess_san_format.c: a legal chess move written in canonical SAN (PGN Standard (1994)
 * 8.2.3), LAN or UCI; castling is FIDE Laws of Chess (2023) 3.8.2, Chess960 castling
 * their Appendix C (Guidelines III), which the core encodes as the king's move to the
 * g- or c-file. */
#include <config.h>

/* notation/ asks the core and never touches a position's fields (chess.h) */
#define ARBITER_OPAQUE_POSITIONS 1

#include "notation/chess_san.h"
#include "notation/chess_san_parts.h"

#include <stdint.h>
#include <string.h>

#define BB(sq) (UINT64_C(1) << (sq))

static const char piece_letter[7] = { '?', 'P', 'N', 'B', 'R', 'Q', 'K' };

static inline int castle_side_of(chess_move m)
{
    return CHESS_FILE(chess_move_to(m)) == 6 ? CHESS_KINGSIDE : CHESS_QUEENSIDE;
}

void san_disambiguation(const chess_pos *pos, chess_move m, bool *need_file, bool *need_rank)
{
    int from = chess_move_from(m), to = chess_move_to(m);
    int pt = CHESS_PIECE_TYPE(chess_piece_at(pos, from));

    *need_file = *need_rank = false;
    if (pt == CHESS_PAWN || pt == CHESS_KING)
        return;
    uint64_t others = chess_attackers_of_type(pos, to, chess_pos_side(pos), pt) & ~BB(from);
    /* out of check, a plain move's legality is the cheaper pin test */
    uint64_t rivals = others ? san_legal_rivals(pos, others, to, chess_in_check(pos)) : 0;
    if (!rivals)
        return;
    if (!(rivals & (UINT64_C(0x0101010101010101) << CHESS_FILE(from))))
        *need_file = true;
    else if (!(rivals & (UINT64_C(0xff) << (from & 56))))
        *need_rank = true;
    else
        *need_file = *need_rank = true;
}

uint64_t san_legal_rivals(const chess_pos *pos, uint64_t others, int to, bool in_check)
{
    uint64_t legal = 0;
    for (; others; others &= others - 1) {
        chess_move o = chess_move_make(__builtin_ctzll(others), to, CHESS_MOVE_NORMAL);
        if (in_check ? chess_move_legal(pos, o) : chess_move_legal_unchecked(pos, o))
            legal |= others & -others;
    }
    return legal;
}

int chess_notation_format(const chess_pos *pos, chess_move m, chess_notation notation,
                          char *buf, size_t size)
{
    char t[24];
    int n = 0;

    if (m == CHESS_MOVE_NONE) {
        const char *null = notation == CHESS_NOTATION_UCI ? "0000" : "--";
        n = (int)strlen(null);
        memcpy(t, null, (size_t)n + 1);
    } else if (notation == CHESS_NOTATION_UCI) {
        chess_move_to_uci(m, pos, t);
        n = (int)strlen(t);
    } else {
        int from = chess_move_from(m), to = chess_move_to(m), kind = chess_move_kind(m);
        int pt = CHESS_PIECE_TYPE(chess_piece_at(pos, from));
        bool capture = kind == CHESS_MOVE_EN_PASSANT
                       || (kind != CHESS_MOVE_CASTLE && chess_piece_at(pos, to) != 0);
        bool lan = notation == CHESS_NOTATION_LAN;

        if (kind == CHESS_MOVE_CASTLE) {
            const char *castle = castle_side_of(m) == CHESS_KINGSIDE ? "O-O" : "O-O-O";
            n = (int)strlen(castle);
            memcpy(t, castle, (size_t)n);
        } else {
            if (pt != CHESS_PAWN)
                t[n++] = piece_letter[pt];
            if (lan) {
                san_sqname(from, t + n);
                n += 2;
                t[n++] = capture ? 'x' : '-';
            } else if (pt == CHESS_PAWN) {
                if (capture) {
                    t[n++] = (char)('a' + CHESS_FILE(from));
                    t[n++] = 'x';
                }
            } else {
                bool nf, nr;
                san_disambiguation(pos, m, &nf, &nr);
                if (nf)
                    t[n++] = (char)('a' + CHESS_FILE(from));
                if (nr)
                    t[n++] = (char)('1' + CHESS_RANK(from));
                if (capture)
                    t[n++] = 'x';
            }
            san_sqname(to, t + n);
            n += 2;
            if (chess_move_promotion(m)) {
                t[n++] = '=';
                t[n++] = piece_letter[chess_move_promotion(m)];
            }
        }
        int cs = chess_move_check_state(pos, m);
        if (cs)
            t[n++] = cs == 2 ? '#' : '+';
        t[n] = '\0';
    }
    if (size) {
        size_t k = (size_t)n < size - 1 ? (size_t)n : size - 1;
        memcpy(buf, t, k);
        buf[k] = '\0';
    }
    return n;
}

