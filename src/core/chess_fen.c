/* chess_fen.c: FEN in and out for chess positions.
 *
 * Reading is strict, since arbiter judges records: every field is checked
 * and the first problem found is reported in one line with its field and
 * column (1-based, in the string as given).  Castling accepts plain FEN
 * (KQkq), X-FEN (KQkq meaning the outermost rook, as lichess writes Chess960
 * positions) and Shredder-FEN (rook files, AHah).  CHESS_FEN_STANDARD refuses
 * castling rights that only Chess960 allows, with the standard-chess message.
 */
#include <config.h>

#include "core/chess.h"
#include "i18n/i18n.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/chess_tables.h"

#define MAX_FIELDS 7   /* one more than allowed, to notice extra text */
#define MAX_DIGITS 6   /* clocks up to 999999 keep the output within 100 bytes */

struct field {
    int start;   /* index into the string */
    int len;
};

static const char *const color_name[2] = { N_("white"), N_("black") };

static bool fail(char *err, size_t errsize, const char *fmt, ...)
{
    if (err && errsize) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errsize, fmt, ap);
        va_end(ap);
    }
    return false;
}

static int piece_from_letter(char c)
{
    static const char letters[] = "PNBRQK";
    const char *p;
    if (c >= 'A' && c <= 'Z' && (p = strchr(letters, c)) != NULL)
        return CHESS_PIECE((int)(p - letters) + 1, CHESS_WHITE);
    if (c >= 'a' && c <= 'z' && (p = strchr(letters, c - 'a' + 'A')) != NULL)
        return CHESS_PIECE((int)(p - letters) + 1, CHESS_BLACK);
    return 0;
}

static bool parse_board(chess_pos *pos, const char *fen, struct field f, char *err, size_t n)
{
    int rank = 7, file = 0;
    bool prev_digit = false;

    for (int i = f.start; i < f.start + f.len; i++) {
        char c = fen[i];
        if (c == '/') {
            if (file != 8)
                return fail(err, n, _("rank %d has %d squares"), rank + 1, file);
            if (--rank < 0)
                return fail(err, n, _("field 1, column %d: more than 8 ranks"), i + 1);
            file = 0;
            prev_digit = false;
        } else if (c >= '1' && c <= '8') {
            if (prev_digit)
                return fail(err, n, _("field 1, column %d: two empty-square counts in a row"),
                            i + 1);
            file += c - '0';
            prev_digit = true;
        } else if (c == '0' || c == '9') {
            return fail(err, n, _("field 1, column %d: bad empty-square count '%c'"), i + 1, c);
        } else {
            int pc = piece_from_letter(c);
            if (!pc)
                return fail(err, n, _("field 1, column %d: bad piece letter '%c'"), i + 1, c);
            /* past the eighth file, keep counting to report the rank's length */
            if (file < 8)
                pos->board[rank * 8 + file] = (uint8_t)pc;
            file++;
            prev_digit = false;
        }
    }
    if (file != 8)
        return fail(err, n, _("rank %d has %d squares"), rank + 1, file);
    if (rank != 0)
        return fail(err, n, _("field 1 has %d ranks, expected 8"), 8 - rank);
    return true;
}

/* Material that no legal game can reach. */
static bool check_material(const chess_pos *pos, char *err, size_t n)
{
    for (int c = 0; c < 2; c++) {
        int count[7] = { 0 }, total = 0;
        for (int sq = 0; sq < 64; sq++) {
            int pc = pos->board[sq];
            if (pc && CHESS_PIECE_COLOR(pc) == c) {
                count[CHESS_PIECE_TYPE(pc)]++;
                total++;
            }
        }
        if (count[CHESS_KING] != 1)
            return fail(err, n, _("expected exactly one %s king, found %d"), _(color_name[c]),
                        count[CHESS_KING]);
        if (count[CHESS_PAWN] > 8)
            return fail(err, n, _("%s has %d pawns, at most 8 are possible"), _(color_name[c]),
                        count[CHESS_PAWN]);
        if (total > 16)
            return fail(err, n, _("%s has %d pieces, at most 16 are possible"), _(color_name[c]),
                        total);
        /* each piece beyond the starting set needs a promoted pawn */
        int promoted = (count[CHESS_QUEEN] > 1 ? count[CHESS_QUEEN] - 1 : 0)
                       + (count[CHESS_ROOK] > 2 ? count[CHESS_ROOK] - 2 : 0)
                       + (count[CHESS_BISHOP] > 2 ? count[CHESS_BISHOP] - 2 : 0)
                       + (count[CHESS_KNIGHT] > 2 ? count[CHESS_KNIGHT] - 2 : 0);
        if (promoted + count[CHESS_PAWN] > 8)
            return fail(err, n, _("%s has %d promoted pieces but only %d pawns missing"),
                        _(color_name[c]), promoted, 8 - count[CHESS_PAWN]);
    }
    for (int sq = 0; sq < 64; sq++) {
        if (CHESS_PIECE_TYPE(pos->board[sq]) == CHESS_PAWN && (sq < 8 || sq >= 56)) {
            char name[3];
            chess_square_name(sq, name);
            return fail(err, n, _("pawn on the first or eighth rank (%s)"), name);
        }
    }
    return true;
}

static bool parse_castling(chess_pos *pos, const char *fen, struct field f, int mode,
                           char *err, size_t n)
{
    bool shredder = false;

    if (f.len == 1 && fen[f.start] == '-')
        return true;
    for (int i = f.start; i < f.start + f.len; i++) {
        char c = fen[i];
        int color, side, rsq = -1;
        int upper = c >= 'A' && c <= 'Z';
        char lc = upper ? (char)(c - 'A' + 'a') : c;

        if (lc != 'k' && lc != 'q' && (lc < 'a' || lc > 'h'))
            return fail(err, n, _("field 3, column %d: bad castling letter '%c'"), i + 1, c);
        color = upper ? CHESS_WHITE : CHESS_BLACK;
        int base = color == CHESS_WHITE ? 0 : 56;
        int ksq = pos->king[color], kfile = ksq & 7;
        int rook = CHESS_PIECE(CHESS_ROOK, color);
        if ((ksq & 56) != base)
            return fail(err, n, _("castling right '%c' but the %s king is not on the %s rank"), c,
                        _(color_name[color]), color == CHESS_WHITE ? _("first") : _("eighth"));

        if (mode == CHESS_FEN_STANDARD) {
            /* standard chess: king on e1/e8, rooks in the corners */
            char name[3];
            side = lc == 'k' || lc == 'h' ? CHESS_KINGSIDE : CHESS_QUEENSIDE;
            if (lc != 'k' && lc != 'q' && lc != 'a' && lc != 'h')
                return fail(err, n, _("castling right '%c' is only possible in Chess960"), c);
            if (kfile != 4)
                return fail(err, n, _("castling right '%c' but the %s king is not on %s"), c,
                            _(color_name[color]), color == CHESS_WHITE ? "e1" : "e8");
            rsq = base + (side == CHESS_KINGSIDE ? 7 : 0);
            chess_square_name(rsq, name);
            if (pos->board[rsq] != rook)
                return fail(err, n, _("castling right '%c' but no rook on %s"), c, name);
        } else if (lc == 'k' || lc == 'q') {
            /* X-FEN: the outermost rook on that side */
            side = lc == 'k' ? CHESS_KINGSIDE : CHESS_QUEENSIDE;
            int corner = base + (side == CHESS_KINGSIDE ? 7 : 0);
            int step = side == CHESS_KINGSIDE ? -1 : 1;
            char name[3], kname[3];
            for (int sq = corner; sq != ksq && rsq < 0; sq += step)
                if (pos->board[sq] == rook)
                    rsq = sq;
            chess_square_name(corner, name);
            chess_square_name(ksq, kname);
            if (rsq < 0 && kfile == 4)
                return fail(err, n, _("castling right '%c' but no rook on %s"), c, name);
            if (rsq < 0)
                return fail(err, n, _("castling right '%c' but no %s rook between %s and %s"), c,
                            _(color_name[color]), kname, name);
        } else {
            int file = lc - 'a';
            char name[3];
            shredder = true;
            if (file == kfile)
                return fail(err, n, _("castling right '%c' names the king's file"), c);
            rsq = base + file;
            chess_square_name(rsq, name);
            if (pos->board[rsq] != rook)
                return fail(err, n, _("castling right '%c' but no %s rook on %s"), c,
                            _(color_name[color]), name);
            side = file > kfile ? CHESS_KINGSIDE : CHESS_QUEENSIDE;
        }

        int idx = CHESS_CASTLE_INDEX(color, side);
        if (pos->castle_rook[idx] >= 0)
            return fail(err, n, _("field 3, column %d: castling right '%c' repeats one already given"),
                        i + 1, c);
        pos->castle_rook[idx] = (int8_t)rsq;
        pos->castling |= (uint8_t)(1u << idx);
        if (kfile != 4 || (rsq & 7) != (side == CHESS_KINGSIDE ? 7 : 0))
            pos->chess960 = true;
    }
    if (shredder)
        pos->chess960 = true;
    return true;
}

static bool parse_ep(chess_pos *pos, const char *fen, struct field f, char *err, size_t n)
{
    const char *s = fen + f.start;

    if (f.len == 1 && s[0] == '-')
        return true;
    if (f.len != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8')
        return fail(err, n, _("field 4: bad en passant square '%.*s'"), f.len, s);

    int ep = (s[1] - '1') * 8 + (s[0] - 'a');
    int us = pos->side, them = us ^ 1;
    int want_rank = us == CHESS_WHITE ? 5 : 2;
    char epname[3], pname[3], oname[3];
    /* the pawn that moved stands one rank beyond ep, it came from one before */
    int psq = us == CHESS_WHITE ? ep - 8 : ep + 8;
    int osq = us == CHESS_WHITE ? ep + 8 : ep - 8;

    chess_square_name(ep, epname);
    if ((ep >> 3) != want_rank)
        return fail(err, n, _("en passant square %s impossible: with %s to move it must be on "
                    "the %s rank"), epname, _(color_name[us]), us == CHESS_WHITE ? _("sixth") : _("third"));
    chess_square_name(psq, pname);
    chess_square_name(osq, oname);
    if (pos->board[psq] != CHESS_PIECE(CHESS_PAWN, them))
        return fail(err, n, _("en passant square %s impossible: no %s pawn on %s that just moved "
                    "two squares"), epname, _(color_name[them]), pname);
    if (pos->board[ep] || pos->board[osq])
        return fail(err, n, _("en passant square %s impossible: a pawn that just moved from %s "
                    "to %s leaves %s and %s empty"), epname, oname, pname, oname, epname);
    pos->ep = (int8_t)ep;
    return true;
}

/* Unsigned decimal of 1..MAX_DIGITS digits, or -1. */
static int parse_number(const char *s, int len)
{
    int v = 0;
    if (len < 1 || len > MAX_DIGITS)
        return -1;
    for (int i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

bool chess_pos_from_fen(chess_pos *pos, const char *fen, char *err, size_t n)
{
    return chess_pos_from_fen_mode(pos, fen, CHESS_FEN_AUTO, err, n);
}

bool chess_pos_from_fen_mode(chess_pos *pos, const char *fen, int mode, char *err, size_t n)
{
    static const char *const field_name[] = { "", N_("board"), N_("side to move"), N_("castling rights"),
                                              N_("en passant square") };
    struct field fields[MAX_FIELDS];
    int nfields = 0;
    size_t len;

    if (err && n)
        err[0] = '\0';
    memset(pos, 0, sizeof *pos);
    memset(pos->castle_rook, -1, sizeof pos->castle_rook);
    pos->ep = -1;
    pos->fullmove = 1;

    if (!fen)
        return fail(err, n, _("no FEN given"));
    /* bounded scan: the input may be huge or lack a terminator nearby */
    for (len = 0; len <= CHESS_FEN_MAX && fen[len]; len++)
        ;
    if (len > CHESS_FEN_MAX)
        return fail(err, n, _("FEN longer than %d characters"), CHESS_FEN_MAX);

    /* split on blanks; a trailing newline is tolerated, other controls are not */
    for (int i = 0; i < (int)len;) {
        unsigned char c = (unsigned char)fen[i];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            if ((c == '\r' || c == '\n') && fen[i + strspn(fen + i, " \t\r\n")] != '\0')
                return fail(err, n, _("column %d: line break inside the FEN"), i + 1);
            i++;
            continue;
        }
        if (c < 0x20 || c >= 0x7f)
            return fail(err, n, _("column %d: unexpected byte 0x%02x"), i + 1, c);
        if (nfields == MAX_FIELDS - 1)
            return fail(err, n, _("column %d: extra text after the 6 FEN fields"), i + 1);
        fields[nfields].start = i;
        while (i < (int)len && fen[i] != ' ' && fen[i] != '\t' && fen[i] != '\r'
               && fen[i] != '\n') {
            c = (unsigned char)fen[i];
            if (c < 0x20 || c >= 0x7f)
                return fail(err, n, _("column %d: unexpected byte 0x%02x"), i + 1, c);
            i++;
        }
        fields[nfields].len = i - fields[nfields].start;
        nfields++;
    }
    if (nfields == 0)
        return fail(err, n, _("empty FEN"));
    if (nfields < 4)
        return fail(err, n, _("missing field %d (%s)"), nfields + 1, _(field_name[nfields + 1]));

    if (!parse_board(pos, fen, fields[0], err, n) || !check_material(pos, err, n))
        return false;
    for (int sq = 0; sq < 64; sq++) {
        int pc = pos->board[sq];
        if (!pc)
            continue;
        pos->by_type[CHESS_PIECE_TYPE(pc)] |= CHESS_BB(sq);
        pos->by_color[CHESS_PIECE_COLOR(pc)] |= CHESS_BB(sq);
        if (CHESS_PIECE_TYPE(pc) == CHESS_KING)
            pos->king[CHESS_PIECE_COLOR(pc)] = (uint8_t)sq;
    }

    if (fields[1].len == 1 && (fen[fields[1].start] == 'w' || fen[fields[1].start] == 'b'))
        pos->side = fen[fields[1].start] == 'w' ? CHESS_WHITE : CHESS_BLACK;
    else
        return fail(err, n, _("field 2: side to move must be 'w' or 'b', not '%.*s'"),
                    fields[1].len, fen + fields[1].start);

    if (!parse_castling(pos, fen, fields[2], mode, err, n) || !parse_ep(pos, fen, fields[3], err, n))
        return false;
    if (mode == CHESS_FEN_CHESS960)
        pos->chess960 = true;

    if (nfields > 4) {
        int v = parse_number(fen + fields[4].start, fields[4].len);
        if (v < 0)
            return fail(err, n, _("field 5: bad halfmove clock '%.*s'"), fields[4].len,
                        fen + fields[4].start);
        pos->halfmove = v;
    }
    if (nfields > 5) {
        int v = parse_number(fen + fields[5].start, fields[5].len);
        if (v < 1)
            return fail(err, n, _("field 6: bad fullmove number '%.*s' (must be 1 or more)"),
                        fields[5].len, fen + fields[5].start);
        pos->fullmove = v;
    }

    /* FIDE 3.9.2: no move may leave one's own king attacked, so the side that
     * just moved cannot be in check */
    if (chess_square_attacked(pos, pos->king[pos->side ^ 1], pos->side))
        return fail(err, n, _("the side not to move (%s) is in check"), _(color_name[pos->side ^ 1]));
    int checks = chess_popcount(chess_checkers(pos));
    if (checks > 2)
        return fail(err, n, _("the side to move (%s) is in check from %d pieces, at most 2 are "
                    "possible"), _(color_name[pos->side]), checks);

    pos->ep_in_key = chess_ep_capture_legal(pos);
    pos->key = chess_key_compute(pos);
    return true;
}

/* n in decimal at out + k, as %d writes it; returns the new length. Every game's final
 * FEN is written, so snprintf's cost showed. */
static int put_int(char *out, int k, int n)
{
    char digits[12];
    int d = 0;
    unsigned u = n < 0 ? 0u - (unsigned)n : (unsigned)n;
    if (n < 0)
        out[k++] = '-';
    do {
        digits[d++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    while (d)
        out[k++] = digits[--d];
    return k;
}

void chess_pos_to_fen(const chess_pos *pos, char *buf, size_t size)
{
    char out[128];
    int k = 0;

    uint64_t occ = pos->by_color[CHESS_WHITE] | pos->by_color[CHESS_BLACK];
    for (int rank = 7; rank >= 0; rank--) {
        /* the rank's men from its occupancy byte, the empty squares between counted */
        unsigned row = (unsigned)(occ >> (8 * rank)) & 0xFF;
        int next = 0;   /* the file after the last man written */
        while (row) {
            int file = __builtin_ctz(row);
            row &= row - 1;
            if (file > next)
                out[k++] = (char)('0' + file - next);
            next = file + 1;
            int pc = pos->board[rank * 8 + file];
            char letter = " PNBRQK"[CHESS_PIECE_TYPE(pc)];
            out[k++] = CHESS_PIECE_COLOR(pc) == CHESS_WHITE ? letter : (char)(letter - 'A' + 'a');
        }
        if (next < 8)
            out[k++] = (char)('0' + 8 - next);
        if (rank)
            out[k++] = '/';
    }
    out[k++] = ' ';
    out[k++] = pos->side == CHESS_WHITE ? 'w' : 'b';
    out[k++] = ' ';
    if (!pos->castling)
        out[k++] = '-';
    for (int r = 0; r < 4; r++) {
        int rsq = pos->castle_rook[r];
        if (rsq < 0)
            continue;
        char c = pos->chess960 ? (char)('a' + (rsq & 7)) : "kqkq"[r];
        out[k++] = r < 2 ? (char)(c - 'a' + 'A') : c;
    }
    out[k++] = ' ';
    if (pos->ep >= 0) {
        chess_square_name(pos->ep, out + k);
        k += 2;
    } else {
        out[k++] = '-';
    }
    out[k++] = ' ';
    k = put_int(out, k, pos->halfmove);
    out[k++] = ' ';
    k = put_int(out, k, pos->fullmove);
    if (size) {
        size_t len = (size_t)k < size - 1 ? (size_t)k : size - 1;
        memcpy(buf, out, len);
        buf[len] = '\0';
    }
}
